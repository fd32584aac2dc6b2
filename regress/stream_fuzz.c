/*
 * stream_fuzz.c: judging random streams on both engines and shrinking a
 * diverging one (stream_fuzz.h, docs/fuzz.md "Random streams on both
 * engines").
 *
 * The shrinker is greedy delta debugging: each pass tries a list of
 * simplifications, from the coarsest (drop half of the packets) to the
 * finest (unconnect one wrapper sink); a candidate is kept when the stream
 * writer accepts it, the model loads it and the engines still diverge.
 * Passes repeat until one changes nothing or the budget is spent.
 */
#include "stream_fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "isa.h"

stream_fuzz_status stream_fuzz_judge(const gen_stream *s, const stream_fuzz_opts *o,
                                     stream_fuzz_verdict *v) {
  memset(v, 0, sizeof *v);
  engine_config c;
  memset(&c, 0, sizeof c);
  c.fingerprint = arch_config_fingerprint(&s->cfg);
  if (gen_stream_bytes(s, &c.stream, &c.stream_len, v->msg, sizeof v->msg))
    return v->status = STREAM_FUZZ_INVALID;
  engine_opts mo = {.max_cycles = o->max_cycles, .fst_to = -1};
  engine_opts ro = mo;
  ro.work_dir = o->work_dir;
  engine_result mr, rr;
  engine_result_init(&mr, &c);
  engine_result_init(&rr, &c);
  engine_lockstep ls;
  size_t rlen = 0;
  FILE *report = open_memstream(&v->report, &rlen);
  int rc = report ? engine_cosim_lockstep(o->rtl_bin, &c, &s->cfg, &mo, &ro, &mr, &rr, &ls, report,
                                          v->msg, sizeof v->msg)
                  : -1;
  if (report) fclose(report);
  if (!report) snprintf(v->msg, sizeof v->msg, "out of memory");
  if (rc == 1) {
    v->status = STREAM_FUZZ_DIVERGE;
    snprintf(v->line, sizeof v->line, "%s", ls.line);
  } else if (rc == 0) {
    v->status = STREAM_FUZZ_AGREE;
    v->done = mr.done;
    v->cycles = ls.model_cycles;
    v->faults = mr.faults;
  } else {
    v->status = STREAM_FUZZ_INVALID;
  }
  if (v->status != STREAM_FUZZ_DIVERGE) {
    free(v->report);
    v->report = NULL;
  }
  engine_result_free(&mr);
  engine_result_free(&rr);
  free(c.stream);
  return v->status;
}

int stream_fuzz_size(const gen_stream *s) {
  int n = 0;
  for (int k = 0; k < s->n; k++)
    if (s->pkt[k].type == STREAM_PKT_PROGRAM) n += (int)(s->pkt[k].nwords / ISA_WORDS);
  return n;
}

/* The shrinker's state: the current stream and the candidates tried. */
typedef struct {
  gen_stream *cur;
  const stream_fuzz_opts *o;
  int tried, budget;
} fuzz_shrink;

/* Returns 1 after replacing the current stream by candidate *cand when it
 * still diverges (cand is taken either way); 0 otherwise. */
static int fuzz_try(fuzz_shrink *z, gen_stream *cand) {
  if (z->tried >= z->budget) {
    gen_stream_free(cand);
    return 0;
  }
  z->tried++;
  stream_fuzz_verdict v;
  int keep = stream_fuzz_judge(cand, z->o, &v) == STREAM_FUZZ_DIVERGE;
  free(v.report);
  if (!keep) {
    gen_stream_free(cand);
    return 0;
  }
  gen_stream_free(z->cur);
  *z->cur = *cand;
  return 1;
}

/* Returns 1 when packets [from, to) of the current stream, START
 * excepted, could be dropped (the stream still diverges). */
static int fuzz_drop_range(fuzz_shrink *z, int from, int to) {
  gen_stream cand;
  if (gen_stream_copy(&cand, z->cur)) return 0;
  int dropped = 0;
  for (int k = to - 1; k >= from; k--)
    if (cand.pkt[k].type != STREAM_PKT_START) dropped += !gen_stream_drop(&cand, k);
  if (!dropped) {
    gen_stream_free(&cand);
    return 0;
  }
  return fuzz_try(z, &cand);
}

/* Returns 1 when some chunk of packets could be dropped (chunks of half,
 * a quarter, ..., one packet). */
static int fuzz_pass_packets(fuzz_shrink *z) {
  int any = 0;
  for (int chunk = z->cur->n / 2; chunk >= 1; chunk /= 2)
    for (int from = 0; from < z->cur->n && z->tried < z->budget;) {
      if (fuzz_drop_range(z, from, from + chunk)) any = 1;
      else from += chunk;
    }
  return any;
}

/* Returns 1 after replacing payload of packet k of the current stream by
 * words[0..n) when the result still diverges. */
static int fuzz_try_payload(fuzz_shrink *z, int k, const uint32_t *words, uint32_t n) {
  gen_stream cand;
  if (gen_stream_copy(&cand, z->cur)) return 0;
  gen_packet *p = &cand.pkt[k];
  if (n > p->nwords) {
    uint32_t *q = realloc(p->payload, n * sizeof *q);
    if (!q) return gen_stream_free(&cand), 0;
    p->payload = q;
  }
  memmove(p->payload, words, n * sizeof *words);
  p->nwords = n;
  return fuzz_try(z, &cand);
}

/* Returns 1 when a program packet could be shortened or one of its words
 * replaced by `nop ; next` or `nop ; halt`. */
static int fuzz_pass_program(fuzz_shrink *z, int k) {
  int any = 0;
  for (uint32_t m = 1; m < z->cur->pkt[k].nwords / ISA_WORDS; m *= 2)
    if (fuzz_try_payload(z, k, z->cur->pkt[k].payload, m * ISA_WORDS)) any = 1;
  uint32_t n = z->cur->pkt[k].nwords / ISA_WORDS;
  if (n > 1 && fuzz_try_payload(z, k, z->cur->pkt[k].payload, (n - 1) * ISA_WORDS)) any = 1;
  n = z->cur->pkt[k].nwords / ISA_WORDS;
  isa_word halt = {{0}};
  ISA_SET_BKIND(&halt, ISA_BR_HALT);
  for (uint32_t pc = 0; pc < n && z->tried < z->budget; pc++) {
    for (int h = 0; h < 2; h++) {
      uint32_t words[ISA_MAX_IMEM * ISA_WORDS];
      uint32_t nw = z->cur->pkt[k].nwords;
      memcpy(words, z->cur->pkt[k].payload, nw * sizeof *words);
      isa_word w = {{0}};
      if (h) w = halt;
      if (!memcmp(words + pc * ISA_WORDS, w.w, sizeof w.w)) continue;
      memcpy(words + pc * ISA_WORDS, w.w, sizeof w.w);
      if (fuzz_try_payload(z, k, words, nw)) {
        any = 1;
        break;
      }
    }
  }
  return any;
}

/* Returns 1 when a term of GC packet k could be dropped (payload: ii nd
 * bound[nd] epilog d0 dr dc nterms, then per term signal ncons cons). */
static int fuzz_pass_terms(fuzz_shrink *z, int k) {
  const gen_packet *p = &z->cur->pkt[k];
  uint32_t nd = p->payload[1];
  uint32_t at = 6 + nd, nterms = p->payload[at];
  int any = 0;
  for (uint32_t t = nterms; t-- > 0 && z->tried < z->budget;) {
    p = &z->cur->pkt[k];
    uint32_t words[2048], n = 0, pos = at + 1;
    memcpy(words, p->payload, (at + 1) * sizeof *words);
    n = at + 1;
    words[at] = p->payload[at] - 1;
    for (uint32_t i = 0; i < p->payload[at]; i++) {
      uint32_t len = 2 + p->payload[pos + 1] * (nd + 2);
      if (i != t) memcpy(words + n, p->payload + pos, len * sizeof *words), n += len;
      pos += len;
    }
    any |= fuzz_try_payload(z, k, words, n);
  }
  return any;
}

/* Returns 1 when the enable constraints of AG packet k could be dropped
 * (payload: mode nd phase base rc cc stride[nd] ncons cons). */
static int fuzz_pass_ag(fuzz_shrink *z, int k) {
  const gen_packet *p = &z->cur->pkt[k];
  uint32_t at = 6 + p->payload[1];
  if (at >= p->nwords || !p->payload[at]) return 0;
  uint32_t words[512];
  memcpy(words, p->payload, (at + 1) * sizeof *words);
  words[at] = 0;
  return fuzz_try_payload(z, k, words, at + 1);
}

/* Returns 1 when wrapper packet k could lose a connected sink. */
static int fuzz_pass_wrapper(fuzz_shrink *z, int k) {
  int any = 0;
  for (uint32_t s = 0; s < z->cur->pkt[k].nwords && z->tried < z->budget; s++) {
    if (!z->cur->pkt[k].payload[s]) continue;
    uint32_t words[ISA_MAX_REGS + 4 * ARCH_MAX_PORTS];
    memcpy(words, z->cur->pkt[k].payload, z->cur->pkt[k].nwords * sizeof *words);
    words[s] = 0;
    any |= fuzz_try_payload(z, k, words, z->cur->pkt[k].nwords);
  }
  return any;
}

/* Returns 1 when the rectangle of packet k could shrink to its first PE
 * (a GC's: to the rectangle of the START of its controller). */
static int fuzz_pass_rect(fuzz_shrink *z, int k) {
  gen_packet *p = &z->cur->pkt[k];
  stream_rect to = {p->rect.row0, p->rect.col0, 1, 1};
  if (p->type == STREAM_PKT_GC) {
    const gen_packet *last = &z->cur->pkt[z->cur->n - 1];
    if (last->type != STREAM_PKT_START || last->index != p->index) return 0;
    to = last->rect;
  }
  if (!memcmp(&to, &p->rect, sizeof to)) return 0;
  gen_stream cand;
  if (gen_stream_copy(&cand, z->cur)) return 0;
  cand.pkt[k].rect = to;
  return fuzz_try(z, &cand);
}

/* Returns 1 when one of the finer simplifications of packet k held. */
static int fuzz_pass_packet(fuzz_shrink *z, int k) {
  int any = fuzz_pass_rect(z, k);
  switch (z->cur->pkt[k].type) {
  case STREAM_PKT_PROGRAM: any |= fuzz_pass_program(z, k); break;
  case STREAM_PKT_GC: any |= fuzz_pass_terms(z, k); break;
  case STREAM_PKT_AG: any |= fuzz_pass_ag(z, k); break;
  case STREAM_PKT_WRAPPER: any |= fuzz_pass_wrapper(z, k); break;
  case STREAM_PKT_IODATA:
    if (z->cur->pkt[k].nwords > 2) any |= fuzz_try_payload(z, k, z->cur->pkt[k].payload, 2);
    break;
  default: break;
  }
  return any;
}

int stream_fuzz_shrink(gen_stream *s, const stream_fuzz_opts *o, int budget) {
  fuzz_shrink z = {s, o, 0, budget};
  for (int changed = 1; changed && z.tried < z.budget;) {
    changed = fuzz_pass_packets(&z);
    for (int k = 0; k < z.cur->n && z.tried < z.budget; k++) changed |= fuzz_pass_packet(&z, k);
  }
  return z.tried;
}
