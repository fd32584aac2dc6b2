/*
 * gen_program.c: the random program generator of gen_program.h (docs/fuzz.md,
 * section "Random programs"): drawing a program from a seed, deriving the
 * condition of every equation from its uses, and printing the text in the
 * language of docs/language.md.
 *
 * Conditions are never stored: gp_cond_var_piece and gp_cond_output derive
 * them from the structure each time, so that the shrinker (gen_shrink.c)
 * edits expressions and pieces only and every program it makes stays valid.
 * The guard of a use at offset o: each constraint `f(x) >= 0` of `par`
 * becomes `f(x + o) >= 0`, that is `f(x) + f_lin(o) >= 0`, kept only when
 * f_lin(o) < 0 (otherwise the constraint of par implies it); of several
 * uses the strongest shift of each constraint is kept.
 *
 * Literals are drawn from edge values (0, 1, -1, 31, 32, 33, INT_MAX,
 * INT_MIN, ...), divisors and shift amounts often so: docs/language.md
 * defines x / 0, x % 0, INT_MIN / -1 and shifts by 32 and more, so they are
 * valid and the engines must agree with the reference on them.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_program.h"
#include "rng.h"

static const char *const gp_dim_names[GP_MAX_DIMS] = {"i", "j", "k", "l"};
static const char *const gp_param_names[GP_MAX_PARAMS] = {"N", "M", "K", "L"};

static const int32_t gp_edge_consts[] = {0, 1, -1, 2, 3, 7, -5, 31, 32, 33, 100, 0xffff,
                                         INT32_MAX, INT32_MIN, 0x55555555, -1000};
static const int32_t gp_shift_consts[] = {0, 1, 5, 31, 32, 33, -1};
static const int32_t gp_div_consts[] = {0, -1, 1, 2, 7, -3};
/* One operand of two in five binary operations (the first in one of
 * five, else the second but a shift's amount) and the second of three in
 * ten min and max: zero, the signs and the extremes, so that the operands
 * and results of docs/regress.md "Operand values" come within a few
 * seeds. */
static const int32_t gp_operand_consts[] = {0, 1, -1, INT32_MAX, INT32_MIN};

/* The text of each operator. */
static const char *const gp_op_texts[GP_OP_COUNT] = {
    "-", "~", "!", "abs", "+", "-", "*", "/", "%", "<<", ">>", ">>>",
    "<", "<=", ">", ">=", "==", "!=", "&", "^", "|", "min", "max"};

/* ---- drawing ---- */

/* Returns a value uniform over [lo, hi]. */
static int gp_rand(rng_state *r, int lo, int hi) { return (int)rng_state_range(r, lo, hi); }

/* Returns 1 with probability pct/100. */
static int gp_chance(rng_state *r, int pct) { return gp_rand(r, 0, 99) < pct; }

/* Returns a new expression node of kind k (aborts when out of memory). */
static gp_expr *gp_expr_new(gp_expr_kind k) {
  gp_expr *e = calloc(1, sizeof *e);
  if (!e) abort();
  e->kind = k;
  return e;
}

/* Returns a new literal node. */
static gp_expr *gp_expr_const(int32_t v) {
  gp_expr *e = gp_expr_new(GP_E_CONST);
  e->val = v;
  return e;
}

/* What an expression being drawn may use. */
typedef struct {
  const gp_program *p;
  rng_state *r;
  int cur;      /* the variable being defined (its pieces), or nvars for an output */
  int offsets;  /* 1: uses at a non-zero offset allowed (a guarded piece) */
  int divide;   /* 1: / and % allowed (the program uses a divider) */
} gp_draw;

/* Fills off[] with a lexicographically negative offset (a lexicographically
 * positive dependence): components in -2..2 after the first, which is -1
 * or -2. */
static void gp_offset_draw(gp_draw *d, int *off) {
  int n = d->p->ndims, lead = gp_rand(d->r, 0, n - 1);
  memset(off, 0, sizeof(int) * GP_MAX_DIMS);
  off[lead] = gp_chance(d->r, 80) ? -1 : -2;
  for (int t = lead + 1; t < n; t++) {
    int x = gp_rand(d->r, 0, 9);
    off[t] = x < 5 ? 0 : x < 7 ? -1 : x < 9 ? 1 : (gp_chance(d->r, 50) ? 2 : -2);
  }
}

/* Returns a leaf: a use of a variable, an input, a scalar or a literal. */
static gp_expr *gp_leaf_draw(gp_draw *d) {
  const gp_program *p = d->p;
  for (int tries = 0; tries < 8; tries++) {
    int x = gp_rand(d->r, 0, 99);
    if (x < 35 && d->offsets) {
      gp_expr *e = gp_expr_new(GP_E_VAR);
      e->ref = gp_rand(d->r, 0, p->nvars - 1);
      gp_offset_draw(d, e->off);
      return e;
    }
    if (x >= 35 && x < 60 && d->cur > 0) {
      gp_expr *e = gp_expr_new(GP_E_VAR);
      e->ref = gp_rand(d->r, 0, d->cur - 1); /* zero offset: an earlier variable */
      return e;
    }
    if (x >= 60 && x < 80 && p->ninputs > 0) {
      gp_expr *e = gp_expr_new(GP_E_IN);
      e->ref = gp_rand(d->r, 0, p->ninputs - 1);
      for (int t = 0; t < p->in[e->ref].n; t++) e->off[t] = gp_rand(d->r, 0, p->in[e->ref].pad[t]);
      return e;
    }
    if (x >= 80 && x < 90 && p->nscalars > 0) {
      gp_expr *e = gp_expr_new(GP_E_SCALAR);
      e->ref = gp_rand(d->r, 0, p->nscalars - 1);
      return e;
    }
    if (x >= 90) break;
  }
  int n = (int)(sizeof gp_edge_consts / sizeof gp_edge_consts[0]);
  return gp_expr_const(gp_edge_consts[gp_rand(d->r, 0, n - 1)]);
}

/* Returns a literal of the table t (n entries). */
static gp_expr *gp_const_pick(gp_draw *d, const int32_t *t, int n) {
  return gp_expr_const(t[gp_rand(d->r, 0, n - 1)]);
}

/* Returns a literal of gp_operand_consts. */
static gp_expr *gp_operand_const(gp_draw *d) {
  return gp_const_pick(d, gp_operand_consts, (int)(sizeof gp_operand_consts / sizeof gp_operand_consts[0]));
}

/* Returns a binary operator: its class first (arith, mul, div when the
 * program divides, shift, compare, logic: each as likely), then one of
 * the class, so that every operation class of docs/regress.md "Operand
 * values" is as frequent (drawn uniformly over the operators, `*` was
 * one in fifteen). */
static gp_op gp_binop_draw(gp_draw *d) {
  static const gp_op first[] = {GP_OP_ADD, GP_OP_MUL, GP_OP_SHL, GP_OP_LT, GP_OP_AND, GP_OP_DIV};
  static const int count[] = {2, 1, 3, 6, 3, 2};
  int c = gp_rand(d->r, 0, d->divide ? 5 : 4);
  return (gp_op)(first[c] + gp_rand(d->r, 0, count[c] - 1));
}

/* Returns an expression of at most `depth` levels of operators. */
static gp_expr *gp_expr_draw(gp_draw *d, int depth) {
  if (depth <= 0 || gp_chance(d->r, 40)) return gp_leaf_draw(d);
  int x = gp_rand(d->r, 0, 99);
  gp_expr *e;
  if (x < 12) {
    e = gp_expr_new(GP_E_UN);
    e->op = (gp_op)gp_rand(d->r, GP_OP_NEG, GP_OP_ABS);
    e->a = gp_expr_draw(d, depth - 1);
    return e;
  }
  if (x < 22) {
    e = gp_expr_new(GP_E_SEL);
    e->c = gp_expr_draw(d, depth - 1);
    e->a = gp_expr_draw(d, depth - 1);
    e->b = gp_expr_draw(d, depth - 1);
    return e;
  }
  if (x < 34) {
    e = gp_expr_new(GP_E_CALL);
    e->op = gp_chance(d->r, 50) ? GP_OP_MIN : GP_OP_MAX;
    e->a = gp_expr_draw(d, depth - 1);
    e->b = gp_chance(d->r, 30) ? gp_operand_const(d) : gp_expr_draw(d, depth - 1);
    return e;
  }
  e = gp_expr_new(GP_E_BIN);
  e->op = gp_binop_draw(d);
  int shift = e->op == GP_OP_SHL || e->op == GP_OP_SHR || e->op == GP_OP_SHRU;
  int div = e->op == GP_OP_DIV || e->op == GP_OP_MOD;
  int edge = gp_rand(d->r, 0, 99); /* < 20: a an operand constant; 20..39: b (not a shift's amount) */
  if (div && gp_chance(d->r, 25))
    e->a = gp_expr_const(INT32_MIN);
  else if (edge < 20)
    e->a = gp_operand_const(d);
  else
    e->a = gp_expr_draw(d, depth - 1);
  if (shift && gp_chance(d->r, 60))
    e->b = gp_const_pick(d, gp_shift_consts, (int)(sizeof gp_shift_consts / sizeof gp_shift_consts[0]));
  else if (div && gp_chance(d->r, 50))
    e->b = gp_const_pick(d, gp_div_consts, (int)(sizeof gp_div_consts / sizeof gp_div_consts[0]));
  else if (!shift && edge >= 20 && edge < 40 && e->a->kind != GP_E_CONST)
    e->b = gp_operand_const(d);
  else
    e->b = gp_expr_draw(d, depth - 1);
  return e;
}

/* Returns 1 when e uses an internal variable at a non-zero offset. */
static int gp_expr_has_offset(const gp_expr *e) {
  if (!e) return 0;
  if (e->kind == GP_E_VAR)
    for (int t = 0; t < GP_MAX_DIMS; t++)
      if (e->off[t]) return 1;
  return gp_expr_has_offset(e->a) || gp_expr_has_offset(e->b) || gp_expr_has_offset(e->c);
}

/* Returns an atom `x_d - c >= 0`-like split of dimension d (a kept one for
 * outputs): a threshold, a border, or a diagonal against another index. */
static gp_atom gp_split_draw(const gp_program *p, rng_state *r, int d) {
  gp_atom a;
  memset(&a, 0, sizeof a);
  a.rel = GP_REL_GE;
  int x = gp_rand(r, 0, 5);
  if (x == 0) {
    a.f.dc[d] = 1, a.f.k = -gp_rand(r, 1, 2);            /* x >= 1, 2 */
  } else if (x == 1) {
    a.f.dc[d] = -1, a.f.k = gp_rand(r, 0, 1);            /* x <= 0, 1 */
  } else if (x == 2) {
    a.f.dc[d] = 1, a.rel = GP_REL_EQ;                    /* x == 0 */
  } else if (x == 3) {
    a.f.dc[d] = -1, a.f.pc[p->dim[d].param] = 1, a.f.k = -2; /* x <= P - 2 */
  } else if (x == 4 && p->ndims > 1) {
    int e = (d + 1 + gp_rand(r, 0, p->ndims - 2)) % p->ndims;
    a.f.dc[d] = 1, a.f.dc[e] = -1;                       /* x >= y */
  } else {
    a.f.dc[d] = -1, a.f.pc[p->dim[d].param] = 1, a.f.k = -1; /* x == P - 1 */
    a.rel = GP_REL_EQ;
  }
  return a;
}

/* Draws the iteration space and the parameter values. */
static void gp_space_draw(gp_program *p, rng_state *r) {
  int x = gp_rand(r, 0, 99);
  p->ndims = x < 25 ? 1 : x < 60 ? 2 : x < 85 ? 3 : 4;
  int nrect = 0, rect[GP_MAX_DIMS];
  for (int d = 0; d < p->ndims; d++) {
    gp_dim *dm = &p->dim[d];
    if (nrect > 0 && gp_chance(r, 30)) {
      dm->kind = gp_chance(r, 60) ? GP_DIM_LOW : GP_DIM_UP;
      dm->base = rect[gp_rand(r, 0, nrect - 1)];
      dm->param = p->dim[dm->base].param;
      continue;
    }
    dm->kind = GP_DIM_RECT;
    if (p->nparams == 0 || (p->nparams < GP_MAX_PARAMS && gp_chance(r, 70)))
      dm->param = p->nparams++;
    else
      dm->param = gp_rand(r, 0, p->nparams - 1);
    rect[nrect++] = d;
  }
  static const int maxval[GP_MAX_DIMS + 1] = {0, 8, 5, 4, 3};
  for (int q = 0; q < p->nparams; q++) {
    p->pmin[q] = gp_chance(r, 15) ? gp_rand(r, 2, 3) : 1;
    int hi = maxval[p->ndims] > p->pmin[q] ? maxval[p->ndims] : p->pmin[q];
    p->pval[q] = gp_rand(r, p->pmin[q], hi);
  }
}

/* Draws the input arrays and scalars. */
static void gp_inputs_draw(gp_program *p, rng_state *r) {
  p->ninputs = gp_rand(r, 0, 2) + gp_chance(r, 10); /* each read needs a bank */
  for (int a = 0; a < p->ninputs; a++) {
    gp_input *in = &p->in[a];
    in->n = gp_rand(r, 1, p->ndims < 2 ? p->ndims : 2);
    int used[GP_MAX_DIMS] = {0};
    for (int t = 0; t < in->n; t++) {
      int d;
      do d = gp_rand(r, 0, p->ndims - 1);
      while (used[d]);
      used[d] = 1;
      in->dim[t] = d;
      in->rev[t] = gp_chance(r, 20);
      in->pad[t] = gp_chance(r, 70) ? 0 : gp_rand(r, 1, 2);
    }
  }
  p->nscalars = gp_rand(r, 0, GP_MAX_SCALARS);
}

/* Draws the pieces of variable v. */
static void gp_var_draw(gp_program *p, rng_state *r, int v, int divide) {
  gp_var *var = &p->var[v];
  int x = gp_rand(r, 0, 99);
  var->npieces = x < 35 ? 1 : x < 85 ? 2 : 3;
  for (int k = 0; k < var->npieces; k++) {
    int last = k == var->npieces - 1;
    gp_draw d = {p, r, v, !last, divide};
    gp_expr *e = gp_expr_draw(&d, 2);
    if (!last && !gp_expr_has_offset(e)) { /* a guarded piece reads a neighbour */
      gp_expr *u = gp_expr_new(GP_E_VAR), *b = gp_expr_new(GP_E_BIN);
      u->ref = gp_chance(r, 60) ? v : gp_rand(r, 0, p->nvars - 1);
      gp_offset_draw(&d, u->off);
      b->op = gp_chance(r, 50) ? GP_OP_ADD : (gp_op)gp_rand(r, GP_OP_ADD, GP_OP_OR);
      if (!divide && (b->op == GP_OP_DIV || b->op == GP_OP_MOD)) b->op = GP_OP_XOR;
      b->a = u, b->b = e;
      e = b;
    }
    var->piece[k].e = e;
    var->has_split[k] = !last && gp_chance(r, 50);
    if (var->has_split[k]) var->split[k] = gp_split_draw(p, r, gp_rand(r, 0, p->ndims - 1));
  }
}

/* Draws output o: its kept dimensions (a full box once the others are
 * fixed), fixings, split and expressions. */
static void gp_output_draw(gp_program *p, rng_state *r, int o, int divide) {
  gp_output *out = &p->out[o];
  int keep[GP_MAX_DIMS], need[GP_MAX_DIMS]; /* need: -1 free, 0 lo, 1 hi */
  for (int d = 0; d < p->ndims; d++) keep[d] = gp_chance(r, 55), need[d] = -1;
  for (int d = 0; d < p->ndims; d++) {
    const gp_dim *dm = &p->dim[d];
    if (!keep[d] || dm->kind == GP_DIM_RECT) continue;
    int want = dm->kind == GP_DIM_LOW ? 1 : 0; /* LOW: base at its top; UP: at 0 */
    if (keep[dm->base] || (need[dm->base] >= 0 && need[dm->base] != want)) {
      keep[d] = 0;
      continue;
    }
    need[dm->base] = want;
  }
  int n = 0;
  for (int d = 0; d < p->ndims; d++) {
    out->fixhi[d] = need[d] >= 0 ? need[d] : gp_chance(r, 60);
    if (keep[d]) {
      out->rev[n] = gp_chance(r, 15);
      out->keep[n++] = d;
    }
  }
  for (int t = n; t < GP_MAX_DIMS; t++) out->keep[t] = -1;
  out->nsplit = n > 0 && gp_chance(r, 30) ? 2 : 1;
  if (out->nsplit == 2) out->split = gp_split_draw(p, r, out->keep[gp_rand(r, 0, n - 1)]);
  for (int s = 0; s < out->nsplit; s++) {
    gp_draw d = {p, r, p->nvars, 0, divide};
    gp_expr *e = gp_expr_draw(&d, 1);
    if (e->kind != GP_E_VAR) { /* an output shows a variable */
      gp_expr *u = gp_expr_new(GP_E_VAR), *b = gp_expr_new(GP_E_BIN);
      u->ref = gp_rand(r, 0, p->nvars - 1);
      b->op = gp_chance(r, 50) ? GP_OP_ADD : GP_OP_XOR;
      b->a = u, b->b = e;
      e = b;
    }
    out->e[s] = e;
  }
}

int gp_program_generate(uint64_t seed, gp_program *p) {
  memset(p, 0, sizeof *p);
  p->seed = seed;
  rng_state r = rng_state_seed_named(seed, "gen program");
  gp_space_draw(p, &r);
  gp_inputs_draw(p, &r);
  int divide = gp_chance(&r, 12);
  p->nvars = gp_rand(&r, 1, 3) + gp_chance(&r, 10);
  for (int v = 0; v < p->nvars; v++) gp_var_draw(p, &r, v, divide);
  int x = gp_rand(&r, 0, 99);
  p->noutputs = x < 70 ? 1 : x < 95 ? 2 : 3;
  for (int o = 0; o < p->noutputs; o++) gp_output_draw(p, &r, o, divide);
  return 0;
}

/* ---- copying and freeing ---- */

/* Frees expression e. */
static void gp_expr_free(gp_expr *e) {
  if (!e) return;
  gp_expr_free(e->a), gp_expr_free(e->b), gp_expr_free(e->c);
  free(e);
}

/* Returns a deep copy of e. */
static gp_expr *gp_expr_dup(const gp_expr *e) {
  if (!e) return NULL;
  gp_expr *c = gp_expr_new(e->kind);
  *c = *e;
  c->a = gp_expr_dup(e->a), c->b = gp_expr_dup(e->b), c->c = gp_expr_dup(e->c);
  return c;
}

void gp_program_free(gp_program *p) {
  for (int v = 0; v < p->nvars; v++)
    for (int k = 0; k < p->var[v].npieces; k++) gp_expr_free(p->var[v].piece[k].e), p->var[v].piece[k].e = NULL;
  for (int o = 0; o < p->noutputs; o++)
    for (int s = 0; s < p->out[o].nsplit; s++) gp_expr_free(p->out[o].e[s]), p->out[o].e[s] = NULL;
}

int gp_program_copy(gp_program *dst, const gp_program *src) {
  *dst = *src;
  for (int v = 0; v < src->nvars; v++)
    for (int k = 0; k < src->var[v].npieces; k++) dst->var[v].piece[k].e = gp_expr_dup(src->var[v].piece[k].e);
  for (int o = 0; o < src->noutputs; o++)
    for (int s = 0; s < src->out[o].nsplit; s++) dst->out[o].e[s] = gp_expr_dup(src->out[o].e[s]);
  return 0;
}

/* ---- conditions ---- */

/* Returns the number of constraints of par and fills c[] with them, each
 * as a form f meaning f >= 0 (two per dimension). */
static int gp_par_forms(const gp_program *p, gp_form *c) {
  int n = 0;
  memset(c, 0, sizeof(gp_form) * 2 * GP_MAX_DIMS);
  for (int d = 0; d < p->ndims; d++) {
    const gp_dim *dm = &p->dim[d];
    gp_form *lo = &c[n++], *hi = &c[n++];
    lo->dc[d] = 1;                               /* x >= 0, or x - y >= 0 */
    if (dm->kind == GP_DIM_UP) lo->dc[dm->base] = -1;
    hi->dc[d] = -1;                              /* P - 1 - x >= 0, or y - x >= 0 */
    if (dm->kind == GP_DIM_LOW) hi->dc[dm->base] = 1;
    else hi->pc[dm->param] = 1, hi->k = -1;
  }
  return n;
}

/* Lowers shift[c] to the shift of constraint c at each non-zero offset
 * use of e (shift 0: no guard needed). */
static void gp_guard_collect(const gp_program *p, const gp_form *c, int nc, const gp_expr *e, int *shift) {
  if (!e) return;
  if (e->kind == GP_E_VAR)
    for (int q = 0; q < nc; q++) {
      int s = 0;
      for (int d = 0; d < p->ndims; d++) s += c[q].dc[d] * e->off[d];
      if (s < shift[q]) shift[q] = s;
    }
  gp_guard_collect(p, c, nc, e->a, shift);
  gp_guard_collect(p, c, nc, e->b, shift);
  gp_guard_collect(p, c, nc, e->c, shift);
}

/* Returns the negation of atom a. */
static gp_atom gp_atom_not(gp_atom a) {
  if (a.rel == GP_REL_GE) { /* f >= 0  ->  -f - 1 >= 0 */
    for (int d = 0; d < GP_MAX_DIMS; d++) a.f.dc[d] = -a.f.dc[d];
    for (int q = 0; q < GP_MAX_PARAMS; q++) a.f.pc[q] = -a.f.pc[q];
    a.f.k = -a.f.k - 1;
  } else {
    a.rel = a.rel == GP_REL_EQ ? GP_REL_NE : GP_REL_EQ;
  }
  return a;
}

/* Returns the number of atoms of C_k of piece k of variable v (its guard
 * and split, conjunction) written to a[]; a guarded piece with neither
 * gets the split `x0 <= 0` so that it never covers the whole space. */
static int gp_piece_conj(const gp_program *p, int v, int k, gp_atom *a) {
  const gp_var *var = &p->var[v];
  gp_form c[2 * GP_MAX_DIMS];
  int nc = gp_par_forms(p, c), shift[2 * GP_MAX_DIMS] = {0}, n = 0;
  gp_guard_collect(p, c, nc, var->piece[k].e, shift);
  for (int q = 0; q < nc; q++)
    if (shift[q] < 0) {
      memset(&a[n], 0, sizeof a[n]);
      a[n].f = c[q], a[n].f.k += shift[q], a[n].rel = GP_REL_GE;
      n++;
    }
  if (var->has_split[k]) a[n++] = var->split[k];
  if (n == 0) {
    memset(&a[0], 0, sizeof a[0]);
    a[0].f.dc[0] = -1, a[0].rel = GP_REL_GE;
    n = 1;
  }
  return n;
}

/* Fills *c with the condition of piece k of variable v: C_k and, for each
 * earlier piece j, not C_j (one clause); the last piece: the not C_j only. */
static void gp_cond_var_piece(const gp_program *p, int v, int k, gp_cond *c) {
  gp_atom a[GP_MAX_ATOMS];
  c->n = 0;
  if (k < p->var[v].npieces - 1) {
    int n = gp_piece_conj(p, v, k, a);
    for (int t = 0; t < n && c->n < GP_MAX_CLAUSES; t++) c->c[c->n].a[0] = a[t], c->c[c->n++].n = 1;
  }
  for (int j = 0; j < k && c->n < GP_MAX_CLAUSES; j++) {
    int n = gp_piece_conj(p, v, j, a);
    gp_clause *cl = &c->c[c->n++];
    cl->n = n;
    for (int t = 0; t < n; t++) cl->a[t] = gp_atom_not(a[t]);
  }
}

/* Fills *c with the condition of equation s of output o: every dimension
 * not kept fixed at its bound, and the split (s == 0) or its negation. */
static void gp_cond_output(const gp_program *p, int o, int s, gp_cond *c) {
  const gp_output *out = &p->out[o];
  c->n = 0;
  for (int d = 0; d < p->ndims; d++) {
    int kept = 0;
    for (int t = 0; t < GP_MAX_DIMS; t++) kept |= out->keep[t] == d;
    if (kept) continue;
    const gp_dim *dm = &p->dim[d];
    gp_atom *a = &c->c[c->n].a[0];
    c->c[c->n++].n = 1;
    memset(a, 0, sizeof *a);
    a->rel = GP_REL_EQ;
    a->f.dc[d] = 1;
    if (dm->kind == GP_DIM_RECT) {
      if (out->fixhi[d]) a->f.pc[dm->param] = -1, a->f.k = 1;   /* x == P - 1 */
    } else if ((dm->kind == GP_DIM_LOW) == !!out->fixhi[d]) {
      a->f.dc[dm->base] = -1;                                   /* x == y */
    } else if (dm->kind == GP_DIM_UP) {
      a->f.pc[dm->param] = -1, a->f.k = 1;                      /* x == P - 1 */
    }                                                           /* LOW, lo: x == 0 */
  }
  if (out->nsplit == 2) {
    c->c[c->n].a[0] = s == 0 ? out->split : gp_atom_not(out->split);
    c->c[c->n++].n = 1;
  }
}

/* ---- printing ---- */

/* Writes the affine terms of the parameters and the constant of f (signs
 * as given, `first` when nothing was written before) to out. */
static void gp_terms_print(FILE *out, const int *dc, int nd, const int *pc, int np, int k, int first) {
  for (int t = 0; t < nd + np + 1; t++) {
    int c = t < nd ? dc[t] : t < nd + np ? pc[t - nd] : k;
    const char *name = t < nd ? gp_dim_names[t] : t < nd + np ? gp_param_names[t - nd] : NULL;
    if (c == 0 && (name || !first)) continue;
    if (first)
      fputs(c < 0 ? "-" : "", out);
    else
      fputs(c < 0 ? " - " : " + ", out);
    int m = c < 0 ? -c : c;
    if (!name)
      fprintf(out, "%d", m);
    else if (m == 1)
      fputs(name, out);
    else
      fprintf(out, "%d*%s", m, name);
    first = 0;
  }
}

/* Writes atom a as `INDEX-TERMS REL PARAM-TERMS` to out. */
static void gp_atom_print(const gp_program *p, const gp_atom *a, FILE *out) {
  int sign = 1, nd = 0;
  for (int d = 0; d < p->ndims; d++)
    if (a->f.dc[d]) {
      if (nd++ == 0) sign = a->f.dc[d] > 0 ? 1 : -1; /* the first index positive */
    }
  int dc[GP_MAX_DIMS], pc[GP_MAX_PARAMS], zero[GP_MAX_DIMS] = {0};
  for (int d = 0; d < GP_MAX_DIMS; d++) dc[d] = sign * a->f.dc[d];
  for (int q = 0; q < GP_MAX_PARAMS; q++) pc[q] = -sign * a->f.pc[q];
  gp_terms_print(out, dc, p->ndims, zero, 0, 0, 1);
  const char *rel = a->rel == GP_REL_EQ ? "==" : a->rel == GP_REL_NE ? "!=" : sign > 0 ? ">=" : "<=";
  fprintf(out, " %s ", rel);
  gp_terms_print(out, zero, 0, pc, p->nparams, -sign * a->f.k, 1);
}

/* Writes condition c to out (`a and (b or c)`); nothing for true. */
static void gp_cond_print(const gp_program *p, const gp_cond *c, FILE *out) {
  if (c->n == 0) return;
  fputs(" if (", out);
  for (int t = 0; t < c->n; t++) {
    const gp_clause *cl = &c->c[t];
    if (t) fputs(" and ", out);
    if (cl->n > 1 && c->n > 1) fputs("(", out);
    for (int u = 0; u < cl->n; u++) {
      if (u) fputs(" or ", out);
      gp_atom_print(p, &cl->a[u], out);
    }
    if (cl->n > 1 && c->n > 1) fputs(")", out);
  }
  fputs(")", out);
}

/* Writes the index `x + c` or `P - 1 - x + c` of dimension d to out. */
static void gp_index_print(const gp_program *p, int d, int rev, int c, FILE *out) {
  if (!rev) {
    fputs(gp_dim_names[d], out);
    if (c) fprintf(out, "+%d", c);
    return;
  }
  fprintf(out, "%s-%s", gp_param_names[p->dim[d].param], gp_dim_names[d]);
  if (c - 1) fprintf(out, "%+d", c - 1);
}

/* Writes the use of variable v at offset off to out. */
static void gp_use_print(const gp_program *p, int v, const int *off, FILE *out) {
  fprintf(out, "v%d[", v);
  for (int d = 0; d < p->ndims; d++) {
    fprintf(out, "%s%s", d ? "," : "", gp_dim_names[d]);
    if (off[d]) fprintf(out, "%+d", off[d]);
  }
  fputs("]", out);
}

/* Writes a literal: INT_MAX and INT_MIN in hexadecimal, a negative one in
 * parentheses. */
static void gp_const_print(int32_t v, FILE *out) {
  if (v == INT32_MAX || v == INT32_MIN || v == 0x55555555 || v == 0xffff)
    fprintf(out, "0x%x", (unsigned)v);
  else if (v < 0)
    fprintf(out, "(%d)", (int)v);
  else
    fprintf(out, "%d", (int)v);
}

/* Writes expression e to out, every operation parenthesized. */
static void gp_expr_print(const gp_program *p, const gp_expr *e, FILE *out) {
  switch (e->kind) {
  case GP_E_CONST: gp_const_print(e->val, out); return;
  case GP_E_SCALAR: fprintf(out, "s%d", e->ref); return;
  case GP_E_VAR: gp_use_print(p, e->ref, e->off, out); return;
  case GP_E_IN: {
    const gp_input *in = &p->in[e->ref];
    fprintf(out, "A%d[", e->ref);
    for (int t = 0; t < in->n; t++) {
      if (t) fputs(",", out);
      gp_index_print(p, in->dim[t], in->rev[t], e->off[t], out);
    }
    fputs("]", out);
    return;
  }
  case GP_E_UN:
    fprintf(out, "%s(", gp_op_texts[e->op]);
    gp_expr_print(p, e->a, out);
    fputs(")", out);
    return;
  case GP_E_CALL:
    fprintf(out, "%s(", gp_op_texts[e->op]);
    gp_expr_print(p, e->a, out);
    fputs(", ", out);
    gp_expr_print(p, e->b, out);
    fputs(")", out);
    return;
  case GP_E_SEL:
    fputs("(", out);
    gp_expr_print(p, e->c, out);
    fputs(" ? ", out);
    gp_expr_print(p, e->a, out);
    fputs(" : ", out);
    gp_expr_print(p, e->b, out);
    fputs(")", out);
    return;
  case GP_E_BIN:
    fputs("(", out);
    gp_expr_print(p, e->a, out);
    fprintf(out, " %s ", gp_op_texts[e->op]);
    gp_expr_print(p, e->b, out);
    fputs(")", out);
    return;
  }
}

/* Marks in used[] the inputs (bit 0) and scalars (bit 1) e reads. */
static void gp_expr_mark(const gp_expr *e, int *in_used, int *sc_used) {
  if (!e) return;
  if (e->kind == GP_E_IN) in_used[e->ref] = 1;
  if (e->kind == GP_E_SCALAR) sc_used[e->ref] = 1;
  gp_expr_mark(e->a, in_used, sc_used), gp_expr_mark(e->b, in_used, sc_used), gp_expr_mark(e->c, in_used, sc_used);
}

void gp_program_name(const gp_program *p, char *buf, size_t size) {
  snprintf(buf, size, "g%llu", (unsigned long long)p->seed);
}

void gp_program_params_print(const gp_program *p, FILE *f) {
  for (int q = 0; q < p->nparams; q++) fprintf(f, "%s%s=%d", q ? " " : "", gp_param_names[q], p->pval[q]);
}

/* Writes the declarations of the inputs and scalars the program reads,
 * and of the outputs. */
static void gp_decls_print(const gp_program *p, FILE *f) {
  int in_used[GP_MAX_INPUTS] = {0}, sc_used[GP_MAX_SCALARS] = {0}, any = 0;
  for (int v = 0; v < p->nvars; v++)
    for (int k = 0; k < p->var[v].npieces; k++) gp_expr_mark(p->var[v].piece[k].e, in_used, sc_used);
  for (int o = 0; o < p->noutputs; o++)
    for (int s = 0; s < p->out[o].nsplit; s++) gp_expr_mark(p->out[o].e[s], in_used, sc_used);
  for (int a = 0; a < p->ninputs; a++) {
    if (!in_used[a]) continue;
    fprintf(f, "%sA%d[", any++ ? ", " : "  in  int32 ", a);
    for (int t = 0; t < p->in[a].n; t++) {
      fprintf(f, "%s%s", t ? ", " : "", gp_param_names[p->dim[p->in[a].dim[t]].param]);
      if (p->in[a].pad[t]) fprintf(f, "+%d", p->in[a].pad[t]);
    }
    fputs("]", f);
  }
  for (int s = 0; s < p->nscalars; s++)
    if (sc_used[s]) fprintf(f, "%ss%d", any++ ? ", " : "  in  int32 ", s);
  if (any) fputs(";\n", f);
  fputs("  out int32 ", f);
  for (int o = 0; o < p->noutputs; o++) {
    fprintf(f, "%sO%d", o ? ", " : "", o);
    for (int t = 0; t < GP_MAX_DIMS && p->out[o].keep[t] >= 0; t++)
      fprintf(f, "%s%s", t ? ", " : "[", gp_param_names[p->dim[p->out[o].keep[t]].param]);
    if (p->out[o].keep[0] >= 0) fputs("]", f);
  }
  fputs(";\n", f);
}

/* Writes the par line. */
static void gp_par_print(const gp_program *p, FILE *f) {
  fputs("  par (", f);
  for (int d = 0; d < p->ndims; d++) {
    const gp_dim *dm = &p->dim[d];
    const char *x = gp_dim_names[d];
    if (d) fputs(", ", f);
    if (dm->kind == GP_DIM_RECT)
      fprintf(f, "0 <= %s < %s", x, gp_param_names[dm->param]);
    else if (dm->kind == GP_DIM_LOW)
      fprintf(f, "0 <= %s <= %s", x, gp_dim_names[dm->base]);
    else
      fprintf(f, "%s <= %s < %s", gp_dim_names[dm->base], x, gp_param_names[dm->param]);
  }
  for (int q = 0; q < p->nparams; q++)
    if (p->pmin[q] > 1) fprintf(f, ", %s >= %d", gp_param_names[q], p->pmin[q]);
  fputs(") {\n", f);
}

/* Writes the left-hand side of variable v. */
static void gp_lhs_print(const gp_program *p, int v, FILE *f) {
  int zero[GP_MAX_DIMS] = {0};
  gp_use_print(p, v, zero, f);
}

void gp_program_print(const gp_program *p, FILE *f) {
  char name[32];
  gp_program_name(p, name, sizeof name);
  fprintf(f, "// tcpa gen program --seed %llu: a random program, valid by construction (docs/fuzz.md)\n",
          (unsigned long long)p->seed);
  fputs("// params: ", f);
  gp_program_params_print(p, f);
  fprintf(f, "\nprogram %s(", name);
  for (int q = 0; q < p->nparams; q++) fprintf(f, "%s%s", q ? ", " : "", gp_param_names[q]);
  fputs(") {\n", f);
  gp_decls_print(p, f);
  gp_par_print(p, f);
  gp_cond c;
  for (int v = 0; v < p->nvars; v++)
    for (int k = 0; k < p->var[v].npieces; k++) {
      fputs("    ", f);
      gp_lhs_print(p, v, f);
      fputs(" = ", f);
      gp_expr_print(p, p->var[v].piece[k].e, f);
      gp_cond_var_piece(p, v, k, &c);
      gp_cond_print(p, &c, f);
      fputs(";\n", f);
    }
  for (int o = 0; o < p->noutputs; o++)
    for (int s = 0; s < p->out[o].nsplit; s++) {
      const gp_output *out = &p->out[o];
      fprintf(f, "    O%d", o);
      for (int t = 0; t < GP_MAX_DIMS && out->keep[t] >= 0; t++) {
        fputs(t ? "," : "[", f);
        gp_index_print(p, out->keep[t], out->rev[t], 0, f);
      }
      if (out->keep[0] >= 0) fputs("]", f);
      fputs(" = ", f);
      gp_expr_print(p, out->e[s], f);
      gp_cond_output(p, o, s, &c);
      gp_cond_print(p, &c, f);
      fputs(";\n", f);
    }
  fputs("  }\n}\n", f);
}
