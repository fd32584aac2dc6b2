/*
 * fcov.c: functional coverage of runs (fcov.h, docs/regress.md "Functional
 * coverage").
 *
 * fcov_bins_define names the bins of a configuration (the table in
 * docs/regress.md). fcov_run_count reads the run's stream the way the
 * engines load it (common/stream.h: the decoded program of every FU, the fd
 * depths of REGCFG, the wrapper selects of WRAPPER, the enable constraints
 * of every AG), then walks the trace (docs/trace.md) event by event:
 * `issue` looks up the instruction at the FU's pc (opcode per FU class,
 * operand classes, branch kind and condition sources; the target a `br`
 * took is the pc of the FU's next issue); `push` and `pop` keep every input
 * FIFO's level (its level at the end of each cycle); `wr fdK` and `fdrd`
 * the configured depth of the fd; `hop` and `push` the source of the sink
 * they went through (the route's direction); `bank` the side, direction and
 * enable pattern of its AG and the other accesses of the same PE in the
 * cycle; `sig` the rising and falling edges of every control signal.
 * The stream's packets also go through the field coverage (fieldcov.c:
 * groups `field` and `insn`) as they load.
 * The same walk takes events one at a time (fcov_walk_new, _event,
 * _finish): the model's events of a run that keeps no trace, as they come.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "datafile.h"
#include "fcov.h"
#include "fieldcov.h"
#include "valcov.h"
#include "isa.h"
#include "regress_json.h"
#include "stream.h"
#include "trace.h"

/* ---- sets ------------------------------------------------------------------ */

/* Returns the bin named name in s, or NULL. */
fcov_bin *fcov_bin_find(const fcov_set *s, const char *name) {
  for (size_t i = 0; i < s->n; i++)
    if (!strcmp(s->v[i].name, name)) return &s->v[i];
  return NULL;
}

/* Returns the index of bin name in s, appended with count 0 when missing;
 * -1 when out of memory. */
static long fcov_bin_add(fcov_set *s, const char *name) {
  fcov_bin *b = fcov_bin_find(s, name);
  if (b) return b - s->v;
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 128;
    fcov_bin *v = realloc(s->v, cap * sizeof *v);
    if (!v) return -1;
    s->v = v;
    s->cap = cap;
  }
  memset(&s->v[s->n], 0, sizeof s->v[s->n]);
  snprintf(s->v[s->n].name, FCOV_NAME, "%s", name);
  return (long)s->n++;
}

/* Returns the index of bin name in s (fcov.h). */
long fcov_bin_define(fcov_set *s, const char *name) {
  return fcov_bin_add(s, name);
}

/* Frees the bins of s and empties it. */
void fcov_free(fcov_set *s) {
  free(s->v);
  memset(s, 0, sizeof *s);
}

/* Returns 0 after adding the counts and runs of `from` to `to`; -1. */
int fcov_merge(fcov_set *to, const fcov_set *from) {
  for (size_t i = 0; i < from->n; i++) {
    long k = fcov_bin_add(to, from->v[i].name);
    if (k < 0) return -1;
    to->v[k].count += from->v[i].count;
  }
  to->runs += from->runs;
  return 0;
}

/* ---- the bins of a configuration -------------------------------------------- */

static const char fcov_sides[] = "nesw";
static const char *const fcov_branch_names[] = {"next", "goto", "br", "halt"};

/* Values 0..max counted in buckets of powers of two: bucket 0 holds 0, 1
 * holds 1, b >= 2 holds 2^(b-2)+1 .. 2^(b-1); max has its own bin. */
#define FCOV_BUCKETS 14 /* values up to 2^12 */
typedef struct {
  long b[FCOV_BUCKETS]; /* bin of each bucket (values below max); -1 none */
  long max;             /* bin of the value max */
  int top;              /* max */
} fcov_buckets;

/* Returns the bucket of value v (>= 0). */
static int fcov_bucket(int v) {
  if (v <= 1) return v < 0 ? 0 : v;
  int k = 1;
  while ((1 << k) < v && k < FCOV_BUCKETS - 2) k++;
  return k + 1;
}

/* The indices (in the set) of the bins of one configuration, -1 where the
 * configuration has no such bin. */
typedef struct {
  long op[3][ISA_OP_COUNT];          /* [FU class][opcode] */
  long branch[4], br_sel[ISA_SEL_COUNT + 1]; /* kind; br with 1, 2 selectors */
  long target[ISA_MAX_TARGETS];      /* br took target k */
  long cond_signal, cond_flag;       /* br condition sources */
  long nop_wait, wait_br;            /* a `nop N` (N >= 2); one ending in a br */
  long src[6], dst_rd, dst_fd, dst_od, dst_od2; /* operand classes */
  fcov_buckets fifo_level;           /* level L at the end of a cycle (L = depth: full) */
  long fifo_empty, fifo_push_pop;
  fcov_buckets fd_depth;             /* an fd of depth D read or written */
  long route[5][5];                  /* source (od n e s w) -> sink (id n e s w) */
  long ag[4][2];                     /* side, rd/wr */
  fcov_buckets ag_ncons;             /* an AG with N enable constraints accessed */
  long ag_ge, ag_eq;
  long bank_same_side, bank_two_sides, bank_read_write;
  long sig[ISA_MAX_SIGNALS][2];      /* rise, fall */
  fcov_buckets sig_high;             /* signals high at once after a change */
} fcov_idx;

/* Adds bin name (printf format) to s; returns its index, or -1 and sets *err. */
static long fcov_def(fcov_set *s, int *err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static long fcov_def(fcov_set *s, int *err, const char *fmt, ...) {
  char name[FCOV_NAME];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(name, sizeof name, fmt, ap);
  va_end(ap);
  long k = fcov_bin_add(s, name);
  if (k < 0) *err = 1;
  return k;
}

/* Defines the opcode, branch and operand bins of cfg. */
static void fcov_def_isa(fcov_set *s, const arch_config *cfg, fcov_idx *x, int *err) {
  const int nfu[3] = {cfg->alu, cfg->mul, cfg->div};
  for (int c = 0; c < 3; c++)
    for (int op = 0; op < ISA_OP_COUNT; op++) {
      const isa_op_info *info = isa_op_get((isa_op)op);
      x->op[c][op] = nfu[c] && (info->fu == (isa_fu_class)c || info->fu == ISA_FU_ANY)
                         ? fcov_def(s, err, "op.%s.%s", isa_fu_name((isa_fu_class)c), info->name)
                         : -1;
    }
  for (int k = 0; k < 4; k++)
    x->branch[k] = k == ISA_BR_COND ? -1 : fcov_def(s, err, "branch.%s", fcov_branch_names[k]);
  for (int n = 1; n <= ISA_SEL_COUNT; n++)
    x->br_sel[n] = (1 << n) <= cfg->branch_targets ? fcov_def(s, err, "branch.br%d", n) : -1;
  for (int k = 0; k < ISA_MAX_TARGETS; k++)
    x->target[k] = k < cfg->branch_targets && cfg->branch_targets >= 2 ? fcov_def(s, err, "branch.target%d", k) : -1;
  x->cond_signal = cfg->branch_targets >= 2 ? fcov_def(s, err, "branch.cond.signal") : -1;
  x->cond_flag = cfg->branch_targets >= 2 ? fcov_def(s, err, "branch.cond.flag") : -1;
  x->nop_wait = fcov_def(s, err, "op.nop_wait");
  x->wait_br = cfg->branch_targets >= 2 ? fcov_def(s, err, "branch.wait_br") : -1;
  for (int c = 0; c < 6; c++) x->src[c] = -1;
  x->src[ISA_CLS_RD] = cfg->rd ? fcov_def(s, err, "operand.src.rd") : -1;
  x->src[ISA_CLS_FD] = cfg->fd ? fcov_def(s, err, "operand.src.fd") : -1;
  x->src[ISA_CLS_ID] = cfg->id ? fcov_def(s, err, "operand.src.id") : -1;
  x->src[ISA_CLS_IMM] = fcov_def(s, err, "operand.src.imm");
  x->dst_rd = cfg->rd ? fcov_def(s, err, "operand.dst.rd") : -1;
  x->dst_fd = cfg->fd ? fcov_def(s, err, "operand.dst.fd") : -1;
  x->dst_od = cfg->od ? fcov_def(s, err, "operand.dst.od") : -1;
  x->dst_od2 = cfg->od >= 2 ? fcov_def(s, err, "operand.dst.od2") : -1;
}

/* Defines the bins of values lo..max: `prefix` then the value or range
 * of each bucket that holds a value from lo to max - 1 (named by its whole
 * range: a bucket 5-8 of max 8 counts 5..7), max_name for max. */
static void fcov_def_buckets(fcov_set *s, fcov_buckets *x, int lo, int max, const char *prefix, const char *max_name,
                             int *err) {
  for (int b = 0; b < FCOV_BUCKETS; b++) x->b[b] = -1;
  x->top = max;
  for (int b = fcov_bucket(lo); max - 1 >= lo && b <= fcov_bucket(max - 1); b++) {
    /* the bucket's whole range, so that configurations of different
     * maxima name the same values alike (max itself is in its own bin) */
    int from = b < 2 ? b : (1 << (b - 2)) + 1, to = b < 2 ? b : 1 << (b - 1);
    x->b[b] = from == to ? fcov_def(s, err, "%s%d", prefix, from) : fcov_def(s, err, "%s%d-%d", prefix, from, to);
  }
  x->max = fcov_def(s, err, "%s", max_name);
}

/* Returns the bin of value v in buckets x (-1: none). */
static long fcov_bucket_bin(const fcov_buckets *x, int v) {
  if (v == x->top) return x->max;
  return v >= 0 && v < x->top ? x->b[fcov_bucket(v)] : -1;
}

/* Defines the register, interconnect, AG, bank and signal bins of cfg. */
static void fcov_def_arch(fcov_set *s, const arch_config *cfg, fcov_idx *x, int *err) {
  memset(&x->fifo_level, -1, sizeof x->fifo_level);
  memset(&x->fd_depth, -1, sizeof x->fd_depth);
  if (cfg->id) fcov_def_buckets(s, &x->fifo_level, 1, cfg->fifo_depth, "fifo.level", "fifo.full", err);
  x->fifo_empty = cfg->id ? fcov_def(s, err, "fifo.empty") : -1;
  x->fifo_push_pop = cfg->id ? fcov_def(s, err, "fifo.push_pop") : -1;
  if (cfg->fd) fcov_def_buckets(s, &x->fd_depth, 1, cfg->fd_depth, "fd.depth", "fd.depth_max", err);
  static const char *const src[] = {"od", "n", "e", "s", "w"}, *const sink[] = {"id", "n", "e", "s", "w"};
  for (int a = 0; a < 5; a++)
    for (int b = 0; b < 5; b++)
      x->route[a][b] = (a || cfg->od) && (b || cfg->id) ? fcov_def(s, err, "route.%s-%s", src[a], sink[b]) : -1;
  for (int side = 0; side < 4; side++)
    for (int w = 0; w < 2; w++) x->ag[side][w] = fcov_def(s, err, "ag.%c.%s", fcov_sides[side], w ? "wr" : "rd");
  fcov_def_buckets(s, &x->ag_ncons, 0, 2 * cfg->gc_dims, "ag.enable", "ag.enable_max", err);
  x->ag_ge = fcov_def(s, err, "ag.enable.ge");
  x->ag_eq = fcov_def(s, err, "ag.enable.eq");
  int nbank = cfg->banks < cfg->ports ? cfg->banks : cfg->ports;
  x->bank_same_side = nbank >= 2 ? fcov_def(s, err, "bank.same_side") : -1;
  x->bank_two_sides = fcov_def(s, err, "bank.two_sides");
  x->bank_read_write = fcov_def(s, err, "bank.read_write");
  for (int i = 0; i < ISA_MAX_SIGNALS; i++)
    for (int e = 0; e < 2; e++) x->sig[i][e] = i < cfg->gc_signals ? fcov_def(s, err, "sig.c%d.%s", i, e ? "fall" : "rise") : -1;
  fcov_def_buckets(s, &x->sig_high, 0, cfg->gc_signals, "sig.high", "sig.high_all", err);
}

/* Returns 0 after defining the bins of cfg in s with their indices in x;
 * -1 when out of memory. */
static int fcov_define_idx(fcov_set *s, const arch_config *cfg, fcov_idx *x) {
  int err = 0;
  fcov_def_isa(s, cfg, x, &err);
  fcov_def_arch(s, cfg, x, &err);
  return err ? -1 : 0;
}

/* Returns 0 after adding every bin of cfg to s; -1 when out of memory. */
int fcov_bins_define(fcov_set *s, const arch_config *cfg) {
  fcov_idx x;
  if (fcov_define_idx(s, cfg, &x)) return -1;
  fieldcov *fc = fieldcov_new(s, cfg); /* the field bins (fieldcov.h) */
  valcov *vc = fc ? valcov_new(s, cfg) : NULL; /* the operand value bins (valcov.h) */
  fieldcov_free(fc);
  valcov_free(vc);
  return vc ? 0 : -1;
}

/* ---- counting one run -------------------------------------------------------- */

/* What the stream configured, per PE, and the state of the walk. */
struct fcov_walk {
  arch_config cfg_copy;    /* the configuration cfg points to (fcov_walk_new) */
  const arch_config *cfg;
  fcov_set *s;
  fcov_idx x;
  fieldcov *fc;            /* the field bins (fieldcov.h), counted as the stream loads */
  valcov *vc;              /* the operand value bins (valcov.h), counted from the events */
  int npe, nfu, nsinks, nbank;
  isa_insn **prog;         /* [pe * nfu + fu]: its program (NULL: all nop ; next) */
  int *prog_len;
  isa_insn **owned;        /* the decoded programs, one per PROGRAM packet */
  int nowned;
  const isa_insn **pending; /* [pe * nfu + fu]: a br issued, its target not seen yet */
  int *fdd;                /* [pe * fd + k]: configured depth (default 1) */
  uint8_t *sink;           /* [pe * nsinks + s]: the select of the sink */
  int *ag_ncons;           /* [(pe * 4 + side) * nbank + b]: constraints; -1 no AG */
  unsigned *ag_kinds;      /* bit 0: a >= constraint, bit 1: an == constraint */
  int *fifo;               /* [pe * id + k]: level */
  uint8_t *fifo_ev;        /* this cycle: bit 0 pushed, bit 1 popped */
  int *touched, ntouched;  /* FIFOs with events this cycle */
  uint8_t *bank_rw;        /* [(pe * 4 + side) * nbank + b]: bit 0 read, 1 written */
  uint8_t *side_acc;       /* [pe * 4 + side]: accesses this cycle */
  uint32_t *sig;           /* [pe]: the vector before */
  uint64_t cycle;
};

/* Adds one to bin k of the walk (k < 0: no such bin in the configuration). */
static void fcov_hit(fcov_walk *w, long k) {
  if (k >= 0) w->s->v[k].count++;
}

/* Frees what the walk allocated. */
static void fcov_walk_free(fcov_walk *w) {
  fieldcov_free(w->fc);
  valcov_free(w->vc);
  for (int i = 0; i < w->nowned; i++) free(w->owned[i]);
  free(w->owned);
  free(w->prog);
  free(w->prog_len);
  free(w->pending);
  free(w->fdd);
  free(w->sink);
  free(w->ag_ncons);
  free(w->ag_kinds);
  free(w->fifo);
  free(w->fifo_ev);
  free(w->touched);
  free(w->bank_rw);
  free(w->side_acc);
  free(w->sig);
}

/* Returns 0 after allocating the per-PE tables of w; -1. */
static int fcov_walk_alloc(fcov_walk *w, const arch_config *cfg) {
  w->cfg = cfg;
  w->npe = cfg->rows * cfg->cols;
  w->nfu = isa_fu_count(cfg);
  w->nsinks = cfg->id + 4 * cfg->ports;
  w->nbank = cfg->banks < cfg->ports ? cfg->banks : cfg->ports;
  size_t pf = (size_t)w->npe * (size_t)w->nfu, nag = (size_t)w->npe * 4 * (size_t)w->nbank;
  size_t nid = (size_t)w->npe * (size_t)cfg->id + 1;
  w->prog = calloc(pf + 1, sizeof *w->prog);
  w->prog_len = calloc(pf + 1, sizeof *w->prog_len);
  w->pending = calloc(pf + 1, sizeof *w->pending);
  w->fdd = malloc(((size_t)w->npe * (size_t)cfg->fd + 1) * sizeof *w->fdd);
  w->sink = calloc((size_t)w->npe * (size_t)w->nsinks + 1, 1);
  w->ag_ncons = malloc((nag + 1) * sizeof *w->ag_ncons);
  w->ag_kinds = calloc(nag + 1, sizeof *w->ag_kinds);
  w->fifo = calloc(nid, sizeof *w->fifo);
  w->fifo_ev = calloc(nid, 1);
  w->touched = calloc(nid, sizeof *w->touched);
  w->bank_rw = calloc(nag + 1, 1);
  w->side_acc = calloc((size_t)w->npe * 4 + 1, 1);
  w->sig = calloc((size_t)w->npe + 1, sizeof *w->sig);
  if (!w->prog || !w->prog_len || !w->pending || !w->fdd || !w->sink || !w->ag_ncons || !w->ag_kinds || !w->fifo ||
      !w->fifo_ev || !w->touched || !w->bank_rw || !w->side_acc || !w->sig)
    return -1;
  for (size_t i = 0; i < (size_t)w->npe * (size_t)cfg->fd; i++) w->fdd[i] = 1;
  for (size_t i = 0; i < nag; i++) w->ag_ncons[i] = -1;
  return 0;
}

/* Returns 0 after recording the program of packet p for every PE of its
 * rectangle; -1 when out of memory. */
static int fcov_load_program(fcov_walk *w, const stream_packet *p) {
  int n = (int)(p->nwords / ISA_WORDS);
  isa_insn *prog = calloc((size_t)n + 1, sizeof *prog);
  isa_insn **o = realloc(w->owned, (size_t)(w->nowned + 1) * sizeof *o);
  if (!prog || !o) {
    free(prog);
    if (o) w->owned = o;
    return -1;
  }
  w->owned = o;
  w->owned[w->nowned++] = prog;
  for (int k = 0; k < n; k++) {
    isa_word word;
    memcpy(word.w, p->payload + (size_t)k * ISA_WORDS, sizeof word.w);
    isa_decode(&word, &prog[k]);
  }
  for (int r = p->rect.row0; r < p->rect.row0 + p->rect.rows; r++)
    for (int c = p->rect.col0; c < p->rect.col0 + p->rect.cols; c++) {
      size_t q = (size_t)(r * w->cfg->cols + c) * (size_t)w->nfu + (size_t)p->index;
      w->prog[q] = prog;
      w->prog_len[q] = n;
    }
  return 0;
}

/* Records the fd depths, wrapper selects or AG enable of packet p for every
 * PE of its rectangle. */
static void fcov_load_pe(fcov_walk *w, const stream_packet *p) {
  const arch_config *cfg = w->cfg;
  int ncons = -1;
  unsigned kinds = 0;
  if (p->type == STREAM_PKT_AG && p->nwords >= 2 && p->payload[0] != STREAM_AG_OFF) {
    uint32_t ndims = p->payload[1], at = 6 + ndims; /* mode ndims phase base row col stride[] */
    ncons = at < p->nwords ? (int)p->payload[at] : 0;
    for (int k = 0; k < ncons && at + 1 + (uint32_t)k * (2 + ndims) < p->nwords; k++)
      kinds |= p->payload[at + 1 + (uint32_t)k * (2 + ndims)] == STREAM_CONS_EQ ? 2u : 1u;
  }
  for (int r = p->rect.row0; r < p->rect.row0 + p->rect.rows; r++)
    for (int c = p->rect.col0; c < p->rect.col0 + p->rect.cols; c++) {
      size_t pe = (size_t)(r * cfg->cols + c);
      if (p->type == STREAM_PKT_REGCFG)
        for (int k = 0; k < cfg->fd && (uint32_t)k < p->nwords; k++) w->fdd[pe * (size_t)cfg->fd + (size_t)k] = (int)p->payload[k];
      else if (p->type == STREAM_PKT_WRAPPER)
        for (int s = 0; s < w->nsinks && (uint32_t)s < p->nwords; s++) w->sink[pe * (size_t)w->nsinks + (size_t)s] = (uint8_t)p->payload[s];
      else if (p->type == STREAM_PKT_AG && p->index < w->nbank) {
        size_t a = (pe * 4 + (size_t)p->side) * (size_t)w->nbank + (size_t)p->index;
        w->ag_ncons[a] = ncons;
        w->ag_kinds[a] = kinds;
      }
    }
}

/* Returns 0 after reading the stream into w; -1 with the reason in msg. */
static int fcov_load_stream(fcov_walk *w, const uint8_t *buf, size_t len, char *msg, size_t msgsz) {
  stream_reader r;
  stream_packet p;
  int rc = stream_reader_open(&r, buf, len, w->cfg);
  while (rc == STREAM_OK && (rc = stream_reader_next(&r, &p)) == 1) {
    rc = STREAM_OK;
    fieldcov_packet(w->fc, &p);
    if (p.type == STREAM_PKT_PROGRAM && fcov_load_program(w, &p)) rc = STREAM_ERR_NOMEM;
    else if (p.type == STREAM_PKT_REGCFG || p.type == STREAM_PKT_WRAPPER || p.type == STREAM_PKT_AG) fcov_load_pe(w, &p);
  }
  if (rc != 0) snprintf(msg, msgsz, "the stream: %s", r.msg[0] ? r.msg : stream_error_name(rc));
  stream_reader_close(&r);
  return rc == 0 ? 0 : -1;
}

/* Returns the index of the PE of event e, or -1 for the machine or a PE
 * outside the array. */
static int fcov_pe(const fcov_walk *w, const trace_event *e) {
  if (e->row < 0 || e->col < 0 || e->row >= w->cfg->rows || e->col >= w->cfg->cols) return -1;
  return e->row * w->cfg->cols + e->col;
}

/* Counts an `issue`: opcode, operands, branch; the target of the FU's
 * previous `br`. */
static void fcov_issue(fcov_walk *w, int pe, const trace_event *e) {
  if (e->fu < 0 || e->fu >= w->nfu) return;
  size_t q = (size_t)pe * (size_t)w->nfu + (size_t)e->fu;
  static const isa_insn nop; /* nop ; next: the memory past the program */
  const isa_insn *in = w->prog[q] && e->pc >= 0 && e->pc < w->prog_len[q] ? &w->prog[q][e->pc] : &nop;
  const isa_insn *br = w->pending[q];
  if (br) {
    for (int k = 0; k < (1 << br->nsel); k++)
      if (br->target[k] == e->pc) {
        fcov_hit(w, w->x.target[k]);
        break;
      }
    w->pending[q] = NULL;
  }
  isa_fu_class c = isa_fu_class_of(w->cfg, e->fu);
  if (c <= ISA_FU_DIV && in->op < ISA_OP_COUNT) fcov_hit(w, w->x.op[c][in->op]);
  valcov_issue(w->vc, pe, e->fu, in);
  for (int k = 0; k < 3; k++)
    if (in->src[k].cls < 6) fcov_hit(w, w->x.src[in->src[k].cls]);
  if (in->dst.cls == ISA_CLS_RD) fcov_hit(w, w->x.dst_rd);
  if (in->dst.cls == ISA_CLS_FD) fcov_hit(w, w->x.dst_fd);
  if (in->odmask) fcov_hit(w, w->x.dst_od);
  if (in->odmask & (in->odmask - 1)) fcov_hit(w, w->x.dst_od2);
  if (isa_insn_cycles(in) > 1) fcov_hit(w, w->x.nop_wait);
  if (isa_insn_cycles(in) > 1 && in->br == ISA_BR_COND) fcov_hit(w, w->x.wait_br);
  if (in->br != ISA_BR_COND) {
    fcov_hit(w, w->x.branch[in->br]);
    return;
  }
  if (in->nsel >= 1 && in->nsel <= ISA_SEL_COUNT) fcov_hit(w, w->x.br_sel[in->nsel]);
  for (int k = 0; k < in->nsel && k < ISA_SEL_COUNT; k++)
    fcov_hit(w, in->sel[k] >= ISA_COND_FLAG ? w->x.cond_flag : w->x.cond_signal);
  w->pending[q] = in;
}

/* Records a push or pop of FIFO k of PE pe in this cycle. */
static void fcov_fifo(fcov_walk *w, int pe, int k, int push) {
  if (k < 0 || k >= w->cfg->id) return;
  int f = pe * w->cfg->id + k;
  if (!w->fifo_ev[f]) w->touched[w->ntouched++] = f;
  w->fifo_ev[f] |= push ? 1 : 2;
  w->fifo[f] += push ? 1 : -1;
}

/* Counts the route through sink `snk` of PE pe (a token went through it). */
static void fcov_route(fcov_walk *w, int pe, int snk) {
  if (snk < 0 || snk >= w->nsinks) return;
  int sel = w->sink[(size_t)pe * (size_t)w->nsinks + (size_t)snk];
  if (!sel) return;
  int src = sel - 1, a = src < w->cfg->od ? 0 : 1 + (src - w->cfg->od) / w->cfg->ports;
  int b = snk < w->cfg->id ? 0 : 1 + (snk - w->cfg->id) / w->cfg->ports;
  if (a < 5 && b < 5) fcov_hit(w, w->x.route[a][b]);
}

/* Counts a `bank` access: AG side and direction, its enable, the other
 * accesses of the PE in this cycle. */
static void fcov_bank(fcov_walk *w, int pe, const trace_event *e) {
  if (e->side < 0 || e->side > 3 || e->port < 0 || e->port >= w->nbank) return;
  fcov_hit(w, w->x.ag[e->side][e->bank_write ? 1 : 0]);
  size_t a = ((size_t)pe * 4 + (size_t)e->side) * (size_t)w->nbank + (size_t)e->port;
  int n = w->ag_ncons[a];
  if (n >= 0) fcov_hit(w, fcov_bucket_bin(&w->x.ag_ncons, n));
  if (w->ag_kinds[a] & 1) fcov_hit(w, w->x.ag_ge);
  if (w->ag_kinds[a] & 2) fcov_hit(w, w->x.ag_eq);
  uint8_t before = w->bank_rw[a];
  w->bank_rw[a] |= e->bank_write ? 2 : 1;
  if (before != 3 && w->bank_rw[a] == 3) fcov_hit(w, w->x.bank_read_write);
  uint8_t *acc = &w->side_acc[(size_t)pe * 4];
  if (acc[e->side]++) fcov_hit(w, w->x.bank_same_side);
  for (int s = 0; s < 4; s++)
    if (s != e->side && acc[s] && acc[e->side] == 1) {
      fcov_hit(w, w->x.bank_two_sides);
      break;
    }
}

/* Counts a `sig` change of PE pe: every signal's edges, how many are
 * high together. */
static void fcov_sig(fcov_walk *w, int pe, uint32_t v) {
  uint32_t d = v ^ w->sig[pe];
  int high = 0;
  for (int i = 0; i < w->cfg->gc_signals && i < ISA_MAX_SIGNALS; i++) {
    if (d >> i & 1) fcov_hit(w, w->x.sig[i][v >> i & 1 ? 0 : 1]);
    high += v >> i & 1;
  }
  fcov_hit(w, fcov_bucket_bin(&w->x.sig_high, high));
  w->sig[pe] = v;
}

/* Counts a read or write of fd k of PE pe by its configured depth. */
static void fcov_fd(fcov_walk *w, int pe, int k) {
  if (k < 0 || k >= w->cfg->fd) return;
  int d = w->fdd[(size_t)pe * (size_t)w->cfg->fd + (size_t)k];
  fcov_hit(w, fcov_bucket_bin(&w->x.fd_depth, d));
}

/* Ends the cycle: the FIFO levels and the per-cycle bank accesses. */
static void fcov_cycle_end(fcov_walk *w) {
  for (int i = 0; i < w->ntouched; i++) {
    int f = w->touched[i], l = w->fifo[f];
    if (l < 0) l = w->fifo[f] = 0;
    if (l >= 1) fcov_hit(w, fcov_bucket_bin(&w->x.fifo_level, l));
    if (l == 0 && (w->fifo_ev[f] & 2)) fcov_hit(w, w->x.fifo_empty);
    if (w->fifo_ev[f] == 3) fcov_hit(w, w->x.fifo_push_pop);
    w->fifo_ev[f] = 0;
  }
  w->ntouched = 0;
  memset(w->side_acc, 0, (size_t)w->npe * 4);
  valcov_cycle_end(w->vc);
}

/* Counts one event of the trace. */
static void fcov_event(fcov_walk *w, const trace_event *e) {
  if (e->cycle != w->cycle) {
    fcov_cycle_end(w);
    w->cycle = e->cycle;
  }
  int pe = fcov_pe(w, e);
  if (pe < 0) return;
  const arch_config *cfg = w->cfg;
  switch (e->kind) {
  case TRACE_ISSUE: fcov_issue(w, pe, e); break;
  case TRACE_SIG: fcov_sig(w, pe, e->value); break;
  case TRACE_POP:
    fcov_fifo(w, pe, e->reg_idx, 0);
    valcov_read(w->vc, pe, ISA_CLS_ID, e->reg_idx, e->value);
    break;
  case TRACE_RF: valcov_write(w->vc, pe, e->reg_cls, e->reg_idx, e->value); break;
  case TRACE_PUSH:
    fcov_fifo(w, pe, e->reg_idx, 1);
    fcov_route(w, pe, e->reg_idx);
    break;
  case TRACE_HOP: fcov_route(w, pe, cfg->id + e->side * cfg->ports + e->port); break;
  case TRACE_WR:
    if (e->reg_cls == ISA_CLS_FD) fcov_fd(w, pe, e->reg_idx);
    break;
  case TRACE_FDRD:
    fcov_fd(w, pe, e->reg_idx);
    valcov_read(w->vc, pe, ISA_CLS_FD, e->reg_idx, e->value);
    break;
  case TRACE_BANK: fcov_bank(w, pe, e); break;
  default: break;
  }
}

/* Returns 0 after counting the events of trace into w; -1 with the line
 * and the reason in msg. */
static int fcov_read_trace(fcov_walk *w, FILE *trace, char *msg, size_t msgsz) {
  char *line = NULL, why[160];
  size_t cap = 0;
  long no = 0;
  int rc = 0;
  trace_event e;
  while (getline(&line, &cap, trace) > 0) {
    no++;
    int k = trace_line_parse(line, &e, why, sizeof why);
    if (k == TRACE_LINE_ERROR) {
      snprintf(msg, msgsz, "the trace, line %ld: %s", no, why);
      rc = -1;
      break;
    }
    if (k == TRACE_LINE_EVENT) fcov_event(w, &e);
  }
  fcov_cycle_end(w);
  free(line);
  return rc;
}

fcov_walk *fcov_walk_new(fcov_set *s, const arch_config *cfg, const uint8_t *buf, size_t len, char *msg,
                         size_t msgsz) {
  fcov_walk *w = calloc(1, sizeof *w);
  snprintf(msg, msgsz, "out of memory");
  if (!w) return NULL;
  w->s = s;
  w->cfg_copy = *cfg;
  if (fcov_define_idx(s, &w->cfg_copy, &w->x) == 0 && (w->fc = fieldcov_new(s, &w->cfg_copy)) &&
      (w->vc = valcov_new(s, &w->cfg_copy)) &&
      fcov_walk_alloc(w, &w->cfg_copy) == 0 &&
      fcov_load_stream(w, buf, len, msg, msgsz) == 0) {
    msg[0] = '\0';
    return w;
  }
  fcov_walk_free(w);
  free(w);
  return NULL;
}

void fcov_walk_event(const trace_event *e, void *ctx) {
  fcov_event(ctx, e);
}

void fcov_walk_finish(fcov_walk *w) {
  if (!w) return;
  fcov_cycle_end(w);
  w->s->runs++;
  fcov_walk_free(w);
  free(w);
}

void fcov_walk_drop(fcov_walk *w) {
  if (!w) return;
  fcov_walk_free(w);
  free(w);
}

/* Returns 0 after counting one run into s (fcov.h); -1 with msg. */
int fcov_run_count(fcov_set *s, const arch_config *cfg, const uint8_t *buf, size_t len, FILE *trace, char *msg,
                   size_t msgsz) {
  fcov_walk *w = fcov_walk_new(s, cfg, buf, len, msg, msgsz);
  if (!w) return -1;
  if (fcov_read_trace(w, trace, msg, msgsz) != 0) {
    fcov_walk_drop(w);
    return -1;
  }
  fcov_walk_finish(w); /* fcov_read_trace ended the last cycle: ending it again counts nothing */
  return 0;
}

/* ---- files -------------------------------------------------------------------- */

/* Returns 0 after writing s as JSON to path (atomically); -1. */
int fcov_save(const fcov_set *s, const char *path) {
  datafile_tmp t;
  if (datafile_tmp_open(&t, path)) return -1;
  fprintf(t.f, "{\n  \"fcov\": %d,\n  \"runs\": %llu,\n  \"bins\": {", FCOV_VERSION, (unsigned long long)s->runs);
  for (size_t i = 0; i < s->n; i++)
    fprintf(t.f, "%s\n    \"%s\": %llu", i ? "," : "", s->v[i].name, (unsigned long long)s->v[i].count);
  fprintf(t.f, "\n  }\n}\n");
  return datafile_tmp_commit(&t);
}

/* Returns 0 after merging the JSON file at path into s; -1 with msg. */
int fcov_load(fcov_set *s, const char *path, char *msg, size_t msgsz) {
  char why[256];
  regress_json *j = regress_json_load(path, why, sizeof why);
  if (!j) {
    snprintf(msg, msgsz, "%s: %s", path, why);
    return -1;
  }
  const regress_json *bins = regress_json_get(j, "bins");
  uint64_t runs = 0;
  int rc = 0;
  if (regress_json_i64(j, "fcov", -1) != FCOV_VERSION || !bins || bins->type != REGRESS_JSON_OBJ ||
      regress_json_u64(j, "runs", &runs)) {
    snprintf(msg, msgsz, "%s: not a functional coverage file of version %d", path, FCOV_VERSION);
    rc = -1;
  }
  for (size_t i = 0; rc == 0 && i < bins->n; i++) {
    const regress_json *b = &bins->items[i];
    long k = b->type == REGRESS_JSON_NUM && (b->exact & REGRESS_JSON_U64) ? fcov_bin_add(s, bins->keys[i]) : -2;
    if (k < 0) {
      snprintf(msg, msgsz, k == -1 ? "out of memory" : "%s: bin '%s': not a count", path, bins->keys[i]);
      rc = -1;
    } else s->v[k].count += b->u64;
  }
  if (rc == 0) s->runs += runs;
  regress_json_free(j);
  return rc;
}

/* ---- reports ------------------------------------------------------------------- */

/* Returns the length of the group part of a bin's name (before the dot). */
static size_t fcov_group_len(const char *name) {
  return strcspn(name, ".");
}

/* Returns the number of groups of s; *hit, *all the bins hit and defined. */
int fcov_totals(const fcov_set *s, size_t *hit, size_t *all) {
  int groups = 0;
  *hit = *all = 0;
  for (size_t i = 0; i < s->n; i++) {
    (*all)++;
    *hit += s->v[i].count > 0;
    int first = 1;
    for (size_t j = 0; j < i && first; j++)
      first = !(fcov_group_len(s->v[j].name) == fcov_group_len(s->v[i].name) &&
                !strncmp(s->v[j].name, s->v[i].name, fcov_group_len(s->v[i].name)));
    groups += first;
  }
  return groups;
}

/* Returns whether bin b belongs to the group of name g (g's group part). */
static int fcov_in_group(const fcov_bin *b, const char *g) {
  size_t n = fcov_group_len(g);
  return fcov_group_len(b->name) == n && !strncmp(b->name, g, n);
}

/* Writes the report of s (fcov.h). */
void fcov_report_text(FILE *f, const fcov_set *s, const char *indent, int max_holes) {
  size_t hit, all;
  fcov_totals(s, &hit, &all);
  fprintf(f, "%sfunctional coverage: %zu of %zu bins hit (%.1f%%) over %llu run%s\n", indent, hit, all,
          all ? 100.0 * (double)hit / (double)all : 0.0, (unsigned long long)s->runs, s->runs == 1 ? "" : "s");
  for (size_t i = 0; i < s->n; i++) {
    int first = 1;
    for (size_t j = 0; j < i && first; j++) first = !fcov_in_group(&s->v[j], s->v[i].name);
    if (!first) continue;
    size_t gh = 0, ga = 0;
    uint64_t events = 0;
    for (size_t j = i; j < s->n; j++)
      if (fcov_in_group(&s->v[j], s->v[i].name)) {
        ga++;
        gh += s->v[j].count > 0;
        events += s->v[j].count;
      }
    fprintf(f, "%s  %-8.*s %3zu/%-3zu %5.1f%%  %llu hits", indent, (int)fcov_group_len(s->v[i].name), s->v[i].name,
            gh, ga, ga ? 100.0 * (double)gh / (double)ga : 0.0, (unsigned long long)events);
    int shown = 0;
    for (size_t j = i; j < s->n; j++) {
      if (!fcov_in_group(&s->v[j], s->v[i].name) || s->v[j].count) continue;
      if (max_holes && shown == max_holes) {
        fprintf(f, " ... (%zu holes)", ga - gh);
        break;
      }
      fprintf(f, "%s%s", shown++ ? " " : "; holes: ", s->v[j].name);
    }
    fputc('\n', f);
  }
  fieldcov_report_flat(f, s, indent, max_holes); /* the fields the runs never moved */
}
