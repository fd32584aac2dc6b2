/* covers: docs/fuzz.md "Random streams on both engines",
 *   "What a stream holds" */
/*
 * test_gen_stream.c: the random stream generator (regress/gen_stream.h,
 * docs/fuzz.md). For a table of architectures (the default, one with
 * dividers and four-target branches, the edge values of
 * tests/configs/edge.ini, a 1x1 array with one register of each class),
 * every stream of 200 seeds is read back packet by packet by the stream
 * reader and loaded by the C model; the same seed gives the same bytes,
 * a copy the same bytes, dropping a packet one packet less; over the
 * seeds every opcode the architecture's FUs execute is drawn, and on the
 * four-target one `br` on two conditions, start delays of 2^31-1 and,
 * on arrays of more than one PE, neighbours 8 or more cycles apart.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_stream.h"
#include "isa.h"
#include "model.h"
#include "stream.h"
#include "test.h"

typedef struct {
  const char *name;
  arch_config cfg;
} gs_arch;

/* Returns the default architecture of docs/arch.md. */
static arch_config gs_default(void) {
  arch_config c = {.rows = 4, .cols = 4, .alu = 2, .mul = 1, .div = 0, .rd = 4, .fd = 4,
                   .fd_depth = 32, .id = 4, .od = 4, .fifo_depth = 8, .imem = 32,
                   .branch_targets = 2, .lat_alu = 1, .lat_mul = 2, .lat_div = 8, .ports = 4,
                   .gc_signals = 8, .gc_dims = 6, .gc_history = 128, .banks = 4, .bank_depth = 1024};
  return c;
}

/* Returns 1 when the reader accepts buf for cfg and hands out n packets
 * ending with START; else 0 with the reason in why. */
static int gs_read_back(const uint8_t *buf, size_t len, const arch_config *cfg, int n, char *why,
                        size_t whysz) {
  stream_reader r;
  stream_packet p;
  int got = 0, rc = stream_reader_open(&r, buf, len, cfg), last = 0;
  if (rc == STREAM_OK)
    while ((rc = stream_reader_next(&r, &p)) == 1) got++, last = p.type;
  snprintf(why, whysz, "%s", rc < 0 ? r.msg : "");
  stream_reader_close(&r);
  return rc == 0 && got == n && last == STREAM_PKT_START;
}

/* Notes the opcodes and branch selector counts of every program of s. */
static void gs_note(const gen_stream *s, int *ops, int *nsel2) {
  for (int k = 0; k < s->n; k++) {
    if (s->pkt[k].type != STREAM_PKT_PROGRAM) continue;
    for (uint32_t i = 0; i < s->pkt[k].nwords / ISA_WORDS; i++) {
      isa_word w;
      isa_insn in;
      memcpy(w.w, s->pkt[k].payload + i * ISA_WORDS, sizeof w.w);
      if (isa_decode(&w, &in) != ISA_OK) continue;
      ops[in.op]++;
      *nsel2 += in.br == ISA_BR_COND && in.nsel == 2;
    }
  }
}

/* Notes the start delays of every GC packet of s (payload: ii, dims,
 * bounds, epilog, delay0, delay_row, delay_col; docs/stream.md): *dmax
 * the largest delay of a PE, *slope the largest |delay_row| or
 * |delay_col| that applies to the packet's rectangle. */
static void gs_delays(const gen_stream *s, int64_t *dmax, int64_t *slope) {
  for (int k = 0; k < s->n; k++) {
    const gen_packet *p = &s->pkt[k];
    if (p->type != STREAM_PKT_GC) continue;
    uint32_t at = 2 + p->payload[1] + 1;
    int64_t d0 = (int32_t)p->payload[at], dr = (int32_t)p->payload[at + 1], dc = (int32_t)p->payload[at + 2];
    for (int i = 0; i < 4; i++) {
      int64_t d = d0 + dr * ((i & 1) ? p->rect.rows - 1 : 0) + dc * ((i & 2) ? p->rect.cols - 1 : 0);
      if (d > *dmax) *dmax = d;
    }
    if (p->rect.rows > 1 && llabs(dr) > *slope) *slope = llabs(dr);
    if (p->rect.cols > 1 && llabs(dc) > *slope) *slope = llabs(dc);
  }
}

/* Runs the checks on one architecture. */
static void gs_arch_run(const gs_arch *a) {
  int ops[ISA_OP_COUNT] = {0}, nsel2 = 0, bad = 0;
  int64_t dmax = 0, slope = 0;
  for (uint64_t seed = 0; seed < 200 && bad < 3; seed++) {
    gen_stream s, t;
    uint8_t *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    char msg[300] = "", why[300] = "";
    if (!TEST_CHECK(!gen_stream_make(&a->cfg, seed, &s, msg, sizeof msg), "%s seed %llu: made (%s)",
                    a->name, (unsigned long long)seed, msg)) {
      bad++;
      continue;
    }
    int ok = !gen_stream_bytes(&s, &x, &nx, msg, sizeof msg) &&
             gs_read_back(x, nx, &a->cfg, s.n, why, sizeof why);
    model_error err = {0};
    model *m = ok ? model_new(&a->cfg, x, nx, &err) : NULL;
    ok = ok && m;
    model_free(m);
    bad += !TEST_CHECK(ok, "%s seed %llu: writer, reader and model accept it (%s%s%s)", a->name,
                       (unsigned long long)seed, msg, why, err.msg);
    gs_note(&s, ops, &nsel2);
    gs_delays(&s, &dmax, &slope);
    if (seed % 50 == 0) {
      TEST_CHECK(!gen_stream_make(&a->cfg, seed, &t, msg, sizeof msg) &&
                     !gen_stream_bytes(&t, &y, &ny, msg, sizeof msg) && nx == ny && !memcmp(x, y, nx),
                 "%s seed %llu: the same seed gives the same bytes", a->name, (unsigned long long)seed);
      gen_stream_free(&t);
      free(y);
      y = NULL;
      TEST_CHECK(!gen_stream_copy(&t, &s) && !gen_stream_bytes(&t, &y, &ny, msg, sizeof msg) &&
                     nx == ny && !memcmp(x, y, nx),
                 "%s seed %llu: a copy gives the same bytes", a->name, (unsigned long long)seed);
      int n = t.n;
      TEST_CHECK(!gen_stream_drop(&t, 0) && t.n == n - 1 && gen_stream_drop(&t, t.n) == -1,
                 "%s seed %llu: drop removes one packet, refuses past the end", a->name,
                 (unsigned long long)seed);
      gen_stream_free(&t);
    }
    free(x);
    free(y);
    gen_stream_free(&s);
  }
  for (int op = 0; op < ISA_OP_COUNT; op++) {
    isa_fu_class fu = isa_op_get((isa_op)op)->fu;
    int has = fu == ISA_FU_ANY || (fu == ISA_FU_ALU && a->cfg.alu) ||
              (fu == ISA_FU_MUL && a->cfg.mul) || (fu == ISA_FU_DIV && a->cfg.div);
    if (has) TEST_CHECK(ops[op] > 0, "%s: opcode %s drawn", a->name, isa_op_get((isa_op)op)->name);
    else TEST_CHECK(ops[op] == 0, "%s: opcode %s never drawn (no such FU)", a->name, isa_op_get((isa_op)op)->name);
  }
  /* long start delays (docs/timing.md section 2: up to 2^31-1), the
     readers having accepted every stream above */
  TEST_CHECK(dmax == INT32_MAX, "%s: a start delay of 2^31-1 drawn (largest %lld)", a->name, (long long)dmax);
  if (a->cfg.rows * a->cfg.cols > 1)
    TEST_CHECK(slope >= 8, "%s: neighbours 8 or more cycles apart (largest slope %lld)", a->name,
               (long long)slope);
  if (a->cfg.branch_targets >= 4) TEST_CHECK(nsel2 > 0, "%s: br on two conditions drawn", a->name);
  else TEST_CHECK(nsel2 == 0, "%s: no br on two conditions (2 targets)", a->name);
}

int main(void) {
  gs_arch archs[4];
  archs[0] = (gs_arch){"default", gs_default()};
  archs[1] = (gs_arch){"div+br4", gs_default()};
  archs[1].cfg.div = 1, archs[1].cfg.branch_targets = 4;
  archs[2] = (gs_arch){"edge", gs_default()};
  arch_config *e = &archs[2].cfg;
  e->rows = e->cols = 2, e->div = 1, e->rd = 0, e->fd = 32, e->fd_depth = 2, e->id = 32, e->od = 8;
  e->fifo_depth = 1, e->imem = 4, e->branch_targets = 4, e->ports = 3, e->gc_signals = 32;
  e->gc_dims = 2, e->gc_history = 2, e->banks = 2, e->bank_depth = 16;
  archs[3] = (gs_arch){"1x1 minimal", gs_default()};
  arch_config *m = &archs[3].cfg;
  m->rows = m->cols = 1, m->alu = 1, m->mul = 0, m->rd = m->fd = m->id = m->od = 1, m->imem = 1;
  m->fd_depth = 1, m->ports = 1, m->gc_signals = 1, m->gc_dims = 1, m->banks = 1, m->bank_depth = 1;
  for (int i = 0; i < 4; i++) gs_arch_run(&archs[i]);
  char msg[200];
  gen_stream s;
  arch_config big = gs_default();
  big.rd = 33;
  TEST_CHECK(gen_stream_make(&big, 1, &s, msg, sizeof msg) == -1 && strstr(msg, "pe.rd"),
             "an architecture beyond the encoding is refused (%s)", msg);
  return test_done();
}
