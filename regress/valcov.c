/*
 * valcov.c: operand value coverage of runs (valcov.h, docs/regress.md
 * "Operand values").
 *
 * The operation classes group the opcodes of docs/isa.md by what a sign
 * or an extreme does to them (vc_class_of). Each (FU, class) pair the
 * configuration has gets up to 16 bins: `a.` and `b.` the value class of
 * the first and second operand (zero, pos, neg, min: -2^31, max: 2^31-1;
 * a shift's second operand is its amount: `amt.zero`, `amt.mid` 1..30,
 * `amt.31`, `amt.wrap` below 0 or above 31, taken mod 32), `eq` (two
 * equal operands), `r.` the result's class (a comparison's: zero, one).
 *
 * The walk keeps a copy of every rd (from the `rf` events, applied at the
 * end of their cycle, reset to 0), the words popped from ids and read from
 * fds in the cycle, and the instructions issued in it; at the end of the
 * cycle each issue's sources are looked up (rd: the copy before the
 * cycle's writes; id, fd: the word read in the cycle; imm: the
 * instruction's) and its bins counted.
 */
#include "valcov.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { VC_ARITH, VC_UNARY, VC_MUL, VC_DIV, VC_CMP, VC_MINMAX, VC_SHIFT, VC_LOGIC, VC_COUNT };
_Static_assert(VC_COUNT == VALCOV_CLASSES, "valcov.h: the number of classes");
static const char *const vc_names[VC_COUNT] = {"arith", "unary", "mul", "div", "cmp", "minmax", "shift", "logic"};

/* Bin slots of one (FU, class): a.*, b.* (or amt.*), eq, r.*. */
enum { VS_A = 0, VS_B = 5, VS_EQ = 10, VS_R = 11, VS_COUNT = 16 };
static const char *const vs_value[5] = {"zero", "pos", "neg", "min", "max"};
static const char *const vs_amount[4] = {"zero", "mid", "31", "wrap"};

/* Returns the operation class of op, or -1 (nop, lnot, sel: not counted). */
int valcov_op_class(isa_op op) {
  switch (op) {
  case ISA_OP_ADD: case ISA_OP_SUB: return VC_ARITH;
  case ISA_OP_MOV: case ISA_OP_NEG: case ISA_OP_NOT: case ISA_OP_ABS: return VC_UNARY;
  case ISA_OP_MUL: return VC_MUL;
  case ISA_OP_DIV: case ISA_OP_MOD: return VC_DIV;
  case ISA_OP_LT: case ISA_OP_LE: case ISA_OP_GT: case ISA_OP_GE: case ISA_OP_EQ: case ISA_OP_NE: return VC_CMP;
  case ISA_OP_MIN: case ISA_OP_MAX: return VC_MINMAX;
  case ISA_OP_SHL: case ISA_OP_SHR: case ISA_OP_SHRU: return VC_SHIFT;
  case ISA_OP_AND: case ISA_OP_XOR: case ISA_OP_OR: return VC_LOGIC;
  default: return -1;
  }
}

/* Returns the value class (0..4: zero pos neg min max) of v. */
static int vc_value(int32_t v) {
  return v == 0 ? 0 : v == INT32_MIN ? 3 : v == INT32_MAX ? 4 : v > 0 ? 1 : 2;
}

/* Returns the shift amount class (0..3) of v. */
static int vc_amount(int32_t v) {
  return v == 0 ? 0 : v == 31 ? 2 : v > 0 && v < 31 ? 1 : 3;
}

typedef struct {
  int pe, fu;
  const isa_insn *in;
} vc_issue;

struct valcov {
  fcov_set *s;
  arch_config cfg;
  int npe, nfu;
  long (*bin)[VC_COUNT][VS_COUNT]; /* [fu]: -1 none */
  int32_t *rd;                     /* [pe * rd] */
  uint32_t *idv, *fdv;             /* [pe * id], [pe * fd]: read this cycle */
  uint8_t *idk, *fdk;              /* ... and whether it was */
  vc_issue *iss;                   /* this cycle's issues */
  int niss;
  struct { int pe, k; int32_t v; } *wr; /* this cycle's rd writes */
  int nwr, capwr;
};

/* Defines the bins of FU fu, class c; returns -1 when out of memory. */
static int vc_define(valcov *v, int fu, int c) {
  char name[FCOV_NAME], unit[16];
  long *b = v->bin[fu][c];
  isa_fu_format(&v->cfg, fu, unit, sizeof unit);
  int two = c != VC_UNARY, shift = c == VC_SHIFT, boolean = c == VC_CMP;
  for (int k = 0; k < 5; k++) {
    snprintf(name, sizeof name, "value.%s.%s.a.%s", unit, vc_names[c], vs_value[k]);
    if ((b[VS_A + k] = fcov_bin_define(v->s, name)) < 0) return -1;
    if (two && (!shift || k < 4)) {
      snprintf(name, sizeof name, "value.%s.%s.%s.%s", unit, vc_names[c], shift ? "amt" : "b",
               shift ? vs_amount[k] : vs_value[k]);
      if ((b[VS_B + k] = fcov_bin_define(v->s, name)) < 0) return -1;
    }
    if (!boolean || k < 2) {
      snprintf(name, sizeof name, "value.%s.%s.r.%s", unit, vc_names[c], boolean ? (k ? "one" : "zero") : vs_value[k]);
      if ((b[VS_R + k] = fcov_bin_define(v->s, name)) < 0) return -1;
    }
  }
  if (two && !shift) {
    snprintf(name, sizeof name, "value.%s.%s.eq", unit, vc_names[c]);
    if ((b[VS_EQ] = fcov_bin_define(v->s, name)) < 0) return -1;
  }
  return 0;
}

valcov *valcov_new(fcov_set *s, const arch_config *cfg) {
  valcov *v = calloc(1, sizeof *v);
  if (!v) return NULL;
  v->s = s;
  v->cfg = *cfg;
  v->npe = cfg->rows * cfg->cols;
  v->nfu = isa_fu_count(cfg);
  v->bin = malloc((size_t)(v->nfu ? v->nfu : 1) * sizeof *v->bin);
  v->rd = calloc((size_t)v->npe * (size_t)cfg->rd + 1, sizeof *v->rd);
  v->idv = calloc((size_t)v->npe * (size_t)cfg->id + 1, sizeof *v->idv);
  v->fdv = calloc((size_t)v->npe * (size_t)cfg->fd + 1, sizeof *v->fdv);
  v->idk = calloc((size_t)v->npe * (size_t)cfg->id + 1, 1);
  v->fdk = calloc((size_t)v->npe * (size_t)cfg->fd + 1, 1);
  v->iss = calloc((size_t)v->npe * (size_t)v->nfu + 1, sizeof *v->iss);
  int bad = !v->bin || !v->rd || !v->idv || !v->fdv || !v->idk || !v->fdk || !v->iss;
  for (int fu = 0; !bad && fu < v->nfu; fu++) {
    isa_fu_class cls = isa_fu_class_of(cfg, fu);
    for (int c = 0; c < VC_COUNT; c++) {
      int has = 0;
      for (int op = 0; op < ISA_OP_COUNT; op++) has |= valcov_op_class((isa_op)op) == c && isa_op_get((isa_op)op)->fu == cls;
      for (int k = 0; k < VS_COUNT; k++) v->bin[fu][c][k] = -1;
      if (has && vc_define(v, fu, c)) bad = 1;
    }
  }
  if (bad) return valcov_free(v), NULL;
  return v;
}

void valcov_free(valcov *v) {
  if (!v) return;
  free(v->bin);
  free(v->rd);
  free(v->idv);
  free(v->fdv);
  free(v->idk);
  free(v->fdk);
  free(v->iss);
  free(v->wr);
  free(v);
}

void valcov_issue(valcov *v, int pe, int fu, const isa_insn *in) {
  if (pe < 0 || pe >= v->npe || fu < 0 || fu >= v->nfu || valcov_op_class(in->op) < 0) return;
  if (v->niss < v->npe * v->nfu) v->iss[v->niss++] = (vc_issue){pe, fu, in};
}

void valcov_read(valcov *v, int pe, int cls, int k, uint32_t value) {
  if (pe < 0 || pe >= v->npe || k < 0) return;
  if (cls == ISA_CLS_ID && k < v->cfg.id) {
    size_t i = (size_t)pe * (size_t)v->cfg.id + (size_t)k;
    v->idv[i] = value, v->idk[i] = 1;
  } else if (cls == ISA_CLS_FD && k < v->cfg.fd) {
    size_t i = (size_t)pe * (size_t)v->cfg.fd + (size_t)k;
    v->fdv[i] = value, v->fdk[i] = 1;
  }
}

void valcov_write(valcov *v, int pe, int cls, int k, uint32_t value) {
  if (cls != ISA_CLS_RD || pe < 0 || pe >= v->npe || k < 0 || k >= v->cfg.rd) return;
  if (v->nwr == v->capwr) {
    int cap = v->capwr ? 2 * v->capwr : 64;
    void *p = realloc(v->wr, (size_t)cap * sizeof *v->wr);
    if (!p) return; /* out of memory: the write is not seen (counts only) */
    v->wr = p, v->capwr = cap;
  }
  v->wr[v->nwr].pe = pe, v->wr[v->nwr].k = k, v->wr[v->nwr].v = isa_s32(value);
  v->nwr++;
}

/* Returns 1 and the value of source o of an issue of PE pe in *x, or 0
 * when the events do not give it. */
static int vc_source(const valcov *v, int pe, const isa_insn *in, isa_opnd o, int32_t *x) {
  const arch_config *c = &v->cfg;
  size_t i;
  switch (o.cls) {
  case ISA_CLS_IMM: *x = in->imm; return 1;
  case ISA_CLS_RD:
    if (o.idx >= c->rd) return 0;
    *x = v->rd[(size_t)pe * (size_t)c->rd + o.idx];
    return 1;
  case ISA_CLS_ID:
    i = (size_t)pe * (size_t)c->id + o.idx;
    if (o.idx >= c->id || !v->idk[i]) return 0;
    *x = isa_s32(v->idv[i]);
    return 1;
  case ISA_CLS_FD:
    i = (size_t)pe * (size_t)c->fd + o.idx;
    if (o.idx >= c->fd || !v->fdk[i]) return 0;
    *x = isa_s32(v->fdv[i]);
    return 1;
  default: return 0;
  }
}

/* Counts bin k of b (-1: none). */
static void vc_hit(valcov *v, long k) {
  if (k >= 0) v->s->v[k].count++;
}

void valcov_cycle_end(valcov *v) {
  for (int i = 0; i < v->niss; i++) {
    const vc_issue *q = &v->iss[i];
    int c = valcov_op_class(q->in->op), nsrc = isa_op_get(q->in->op)->nsrc;
    const long *b = v->bin[q->fu][c];
    int32_t x[2] = {0, 0};
    int known[2] = {0, 0};
    for (int k = 0; k < 2 && k < nsrc; k++) known[k] = vc_source(v, q->pe, q->in, q->in->src[k], &x[k]);
    if (known[0]) vc_hit(v, b[VS_A + vc_value(x[0])]);
    if (nsrc >= 2 && known[1]) vc_hit(v, b[VS_B + (c == VC_SHIFT ? vc_amount(x[1]) : vc_value(x[1]))]);
    if (nsrc >= 2 && known[0] && known[1] && x[0] == x[1]) vc_hit(v, b[VS_EQ]);
    if (known[0] && (nsrc < 2 || known[1])) {
      int32_t r = isa_op_eval(q->in->op, x[0], x[1], 0);
      vc_hit(v, b[VS_R + (c == VC_CMP ? r != 0 : vc_value(r))]);
    }
  }
  v->niss = 0;
  for (int i = 0; i < v->nwr; i++) v->rd[(size_t)v->wr[i].pe * (size_t)v->cfg.rd + (size_t)v->wr[i].k] = v->wr[i].v;
  v->nwr = 0;
  memset(v->idk, 0, (size_t)v->npe * (size_t)v->cfg.id);
  memset(v->fdk, 0, (size_t)v->npe * (size_t)v->cfg.fd);
}

/* Returns 0 after adding the value bins of from to `to` by FU kind
 * (valcov.h); -1 when out of memory. */
int valcov_by_kind(fcov_set *to, const fcov_set *from) {
  to->runs += from->runs;
  for (size_t i = 0; i < from->n; i++) {
    const char *n = from->v[i].name;
    if (strncmp(n, "value.", 6)) continue;
    size_t k = 6;
    while (n[k] >= 'a' && n[k] <= 'z') k++;
    size_t d = k;
    while (n[d] >= '0' && n[d] <= '9') d++;
    char name[FCOV_NAME];
    snprintf(name, sizeof name, "%.*s%s", (int)k, n, n + d);
    long b = fcov_bin_define(to, name);
    if (b < 0) return -1;
    to->v[b].count += from->v[i].count;
  }
  return 0;
}
