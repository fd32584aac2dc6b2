/*
 * check.c: the five rules of docs/language.md, checked with isl for every
 * parameter value at once.
 *
 * poly.c turns the program into isl sets: the iteration space S and, for
 * each equation e, its condition space C_e (inside S); the parameters stay
 * symbolic isl parameters, so "some parameter value breaks the rule" is
 * "an isl set is not empty". Each rule builds the set of its violations:
 *   1. C_a ∩ C_b for two definitions of one variable; {(I,J) : W(I) = W(J),
 *      I <lex J} for one output equation and {(I,J) : W_a(I) = W_b(J)} for
 *      two; reads of outputs and writes of inputs.
 *   2. for a use x[I+off] in e: C_e \ {I : I+off in S} (outside the space)
 *      and (C_e ∩ {I : I+off in S}) \ {I : I+off in union of C_f defining x}
 *      (undefined).
 *   3. offsets whose dependence vector -off is lexicographically negative;
 *      cycles of offset-zero uses among equations whose condition spaces
 *      have a common iteration (searched depth first, carrying the
 *      intersection of the condition spaces along the path).
 *   4. C_e \ {I : A(I) in box(A)} for every input read and output write.
 *   5. box(OUT) \ union of the images W_e(C_e) of its writers.
 * Besides the rules, the iteration space must be finite for every
 * parameter value (the recession cone of `par` is {0}). Errors come out in
 * that order: bounded space, rule 1, 2, 3, 4, 5.
 * A non-empty set gives a witness: its lexicographically smallest point
 * with the parameters first (smallest parameter values, then the smallest
 * iteration), printed with the error.
 */
#include "check.h"

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "poly.h"

/* Witness coordinates below this bound are not searched for the smallest
 * point (it keeps the lexicographic minimum bounded); a set with points
 * only below it still gets an arbitrary witness. */
#define CHECK_WITNESS_FLOOR (-1000000)
/* Upper bound on the steps of the cycle search of rule 3. */
#define CHECK_CYCLE_STEPS 100000

typedef struct {
  isl_ctx *ctx;
  const ast_program *p;
  isl_set *space; /* S */
  isl_set **cond; /* C_e for each equation, inside S */
  int nerr;
} check_state;

/* A point of a violation set: the parameter values in program order and
 * the set coordinates (one or two iteration vectors, or an element). */
typedef struct {
  int64_t param[AST_MAX_PARAMS];
  int64_t x[2 * AST_MAX_DIMS];
} check_pt;

/* A bounded string that messages are assembled in. */
typedef struct {
  char s[1024];
  size_t n;
} check_buf;

/* Appends formatted text to `b` (truncating when full); returns b->s. */
__attribute__((format(printf, 2, 3))) static const char *check_buf_add(
    check_buf *b, const char *fmt, ...) {
  va_list ap;
  if (b->n + 1 >= sizeof b->s) return b->s;
  va_start(ap, fmt);
  int k = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
  va_end(ap);
  if (k > 0) b->n += (size_t)k;
  if (b->n >= sizeof b->s) b->n = sizeof b->s - 1;
  return b->s;
}

/* Appends one term `coef*name` of an affine expression; returns nothing. */
static void check_fmt_term(check_buf *b, int64_t coef, const char *name,
                           int *first) {
  if (!coef) return;
  if (coef < 0) check_buf_add(b, "-");
  else if (!*first) check_buf_add(b, "+");
  int64_t m = coef < 0 ? -coef : coef;
  if (m != 1) check_buf_add(b, "%lld*", (long long)m);
  check_buf_add(b, "%s", name);
  *first = 0;
}

/* Appends an affine expression in the program's names (`2*i+N-1`). */
static void check_fmt_aff(check_buf *b, const ast_program *p, const ast_aff *a) {
  int first = 1;
  for (int d = 0; d < p->ndims; d++) check_fmt_term(b, a->index[d], p->index[d], &first);
  for (int k = 0; k < p->nparams; k++) check_fmt_term(b, a->param[k], p->param[k], &first);
  if (a->konst || first)
    check_buf_add(b, first ? "%lld" : "%+lld", (long long)a->konst);
}

/* Appends `name[aff, ...]` (or `name` for a scalar). */
static void check_fmt_access(check_buf *b, const ast_program *p, const char *name,
                             const ast_aff *idx, int n) {
  check_buf_add(b, "%s", name);
  for (int k = 0; k < n; k++) {
    check_buf_add(b, k ? "," : "[");
    check_fmt_aff(b, p, &idx[k]);
  }
  if (n) check_buf_add(b, "]");
}

/* Appends a use of an internal variable with its offsets (`x[i-1,j]`). */
static void check_fmt_var_use(check_buf *b, const ast_program *p, int var,
                              const int64_t *off) {
  check_buf_add(b, "%s", p->vars[var].name);
  for (int d = 0; d < p->ndims; d++) {
    check_buf_add(b, "%s%s", d ? "," : "[", p->index[d]);
    if (off[d]) check_buf_add(b, "%+lld", (long long)off[d]);
  }
  if (p->ndims) check_buf_add(b, "]");
}

/* Appends `name[v0,v1]` for concrete element coordinates. */
static void check_fmt_elem(check_buf *b, const char *name, const int64_t *v, int n) {
  check_buf_add(b, "%s", name);
  for (int k = 0; k < n; k++) check_buf_add(b, "%s%lld", k ? "," : "[", (long long)v[k]);
  if (n) check_buf_add(b, "]");
}

/* Appends `i = 0, j = 1` for an iteration. */
static void check_fmt_iter(check_buf *b, const ast_program *p, const int64_t *it) {
  for (int d = 0; d < p->ndims; d++)
    check_buf_add(b, "%s%s = %lld", d ? ", " : "", p->index[d], (long long)it[d]);
}

/* Appends ` with N = 1, M = 2` (nothing without parameters). */
static void check_fmt_with(check_buf *b, const ast_program *p, const int64_t *par) {
  for (int k = 0; k < p->nparams; k++)
    check_buf_add(b, "%s%s = %lld", k ? ", " : " with ", p->param[k], (long long)par[k]);
}

/* Appends `at i = 0 with N = 1` (`with N = 1` without indices). */
static void check_fmt_at(check_buf *b, const ast_program *p, const check_pt *w) {
  if (!p->ndims) {
    check_buf with = {0};
    check_fmt_with(&with, p, w->param);
    check_buf_add(b, "%s", with.n ? with.s + 1 : "always");
    return;
  }
  check_buf_add(b, "at ");
  check_fmt_iter(b, p, w->x);
  check_fmt_with(b, p, w->param);
}

/* Returns the integer value of coordinate `pos` of type `type` of `pnt`. */
static int64_t check_point_coord(__isl_keep isl_point *pnt, enum isl_dim_type type,
                                 int pos) {
  isl_val *v = isl_point_get_coordinate_val(pnt, type, pos);
  int64_t r = v ? (int64_t)isl_val_get_num_si(v) : 0;
  isl_val_free(v);
  return r;
}

/* Returns a point of `flat` (parameters moved in front of the set
 * dimensions): the lexicographically smallest one above the floor if there
 * is one, else any. */
static __isl_give isl_point *check_smallest_point(__isl_take isl_set *flat) {
  isl_size n = isl_set_dim(flat, isl_dim_set);
  isl_set *low;
  isl_point *pnt;
  if (n < 0) goto error;
  low = isl_set_copy(flat);
  for (int d = 0; d < n; d++)
    low = isl_set_lower_bound_si(low, isl_dim_set, (unsigned)d, CHECK_WITNESS_FLOOR);
  pnt = isl_set_sample_point(isl_set_lexmin(low));
  if (!pnt) goto error;
  if (isl_point_is_void(pnt) == isl_bool_true) {
    isl_point_free(pnt);
    return isl_set_sample_point(flat);
  }
  isl_set_free(flat);
  return pnt;
error:
  isl_set_free(flat);
  return NULL;
}

/* Returns isl_bool_true and fills `w` when `set` (a set or a wrapped map
 * over the program's parameters) has a point, isl_bool_false when it is
 * empty, isl_bool_error on failure. */
static isl_bool check_witness(__isl_take isl_set *set, const ast_program *p,
                              check_pt *w) {
  isl_bool empty;
  isl_size np, n;
  int from[AST_MAX_PARAMS];
  isl_point *pnt;
  memset(w, 0, sizeof *w);
  set = isl_set_flatten(set);
  empty = isl_set_is_empty(set);
  if (empty != isl_bool_false) {
    isl_set_free(set);
    return empty == isl_bool_true ? isl_bool_false : isl_bool_error;
  }
  np = isl_set_dim(set, isl_dim_param);
  n = isl_set_dim(set, isl_dim_set);
  if (np < 0 || n < 0 || np > AST_MAX_PARAMS || n > 2 * AST_MAX_DIMS) goto error;
  for (int k = 0; k < np; k++) {
    const char *name = isl_set_get_dim_name(set, isl_dim_param, (unsigned)k);
    from[k] = -1;
    for (int j = 0; name && j < p->nparams; j++)
      if (!strcmp(name, p->param[j])) from[k] = j;
  }
  set = isl_set_move_dims(set, isl_dim_set, 0, isl_dim_param, 0, (unsigned)np);
  pnt = check_smallest_point(set);
  if (!pnt || isl_point_is_void(pnt) != isl_bool_false) {
    isl_point_free(pnt);
    return isl_bool_error;
  }
  for (int k = 0; k < np; k++)
    if (from[k] >= 0) w->param[from[k]] = check_point_coord(pnt, isl_dim_set, k);
  for (int d = 0; d < n; d++) w->x[d] = check_point_coord(pnt, isl_dim_set, np + d);
  isl_point_free(pnt);
  return isl_bool_true;
error:
  isl_set_free(set);
  return isl_bool_error;
}

/* Reports a failure of isl (or of memory) while checking `rule` (0: the
 * iteration space); returns nothing. */
static void check_isl_failed(check_state *c, int rule) {
  if (rule)
    diag_error_plain("internal error: isl failed while checking rule %d", rule);
  else
    diag_error_plain("internal error: isl failed while building the iteration space");
  c->nerr++;
}

/* A growable list of the operands of an expression that read data. */
typedef struct {
  const ast_expr **e;
  int n, cap;
} check_uses;

/* Appends every VAR and IN node of `e` to `u` (every operand of every
 * operation, `?:` included, is a read); returns 0, or -1 when out of
 * memory. */
static int check_uses_collect(const ast_expr *e, check_uses *u) {
  if (!e) return 0;
  if (e->kind == AST_EXPR_VAR || e->kind == AST_EXPR_IN) {
    if (u->n == u->cap) {
      int cap = u->cap ? 2 * u->cap : 8;
      const ast_expr **ne = realloc(u->e, (size_t)cap * sizeof *ne);
      if (!ne) return -1;
      u->e = ne;
      u->cap = cap;
    }
    u->e[u->n++] = e;
  }
  if (e->kind == AST_EXPR_OP)
    for (int i = 0; i < e->nargs && i < 3; i++)
      if (check_uses_collect(e->arg[i], u) < 0) return -1;
  return 0;
}

/* Returns 1 when every offset of a variable use is zero. */
static int check_off_is_zero(const ast_program *p, const int64_t *off) {
  for (int d = 0; d < p->ndims; d++)
    if (off[d]) return 0;
  return 1;
}

/* Returns 1 when `eq` defines an element of an output array (and not an
 * input written by mistake). */
static int check_eq_writes_out(const ast_program *p, const ast_eq *eq) {
  return eq->is_out && eq->array >= 0 && eq->array < p->narrays &&
         p->arrays[eq->array].kind == AST_ARRAY_OUT;
}

/* Returns the writes of output equation `e`: {I -> element : I in C_e}. */
static __isl_give isl_map *check_write_map(check_state *c, int e) {
  const ast_eq *eq = &c->p->eqs[e];
  isl_map *w = poly_index_map(c->ctx, c->p, eq->idx, c->p->arrays[eq->array].ndims);
  return isl_map_intersect_domain(w, isl_set_copy(c->cond[e]));
}

/* Rule 1, internal variables: two definitions of one variable overlap. */
static void check_rule1_defs(check_state *c) {
  const ast_program *p = c->p;
  for (int b = 0; b < p->neqs; b++) {
    if (p->eqs[b].is_out) continue;
    for (int a = 0; a < b; a++) {
      if (p->eqs[a].is_out || p->eqs[a].var != p->eqs[b].var) continue;
      check_pt w;
      isl_set *both = isl_set_intersect(isl_set_copy(c->cond[a]), isl_set_copy(c->cond[b]));
      isl_bool has = check_witness(both, p, &w);
      if (has < 0) check_isl_failed(c, 1);
      if (has != isl_bool_true) continue;
      check_buf m = {0};
      check_fmt_at(&m, p, &w);
      diag_error(&p->eqs[b].loc, p->source,
                 "rule 1 (single assignment): %s is defined twice, here and "
                 "at line %d, e.g. %s",
                 p->vars[p->eqs[b].var].name, p->eqs[a].loc.line, m.s);
      c->nerr++;
    }
  }
}

/* Rule 1, arrays: inputs written, outputs read. */
static void check_rule1_io(check_state *c) {
  const ast_program *p = c->p;
  for (int e = 0; e < p->neqs; e++) {
    const ast_eq *eq = &p->eqs[e];
    if (eq->is_out && eq->array >= 0 && eq->array < p->narrays &&
        p->arrays[eq->array].kind == AST_ARRAY_IN) {
      diag_error(&eq->loc, p->source, "rule 1 (single assignment): input %s is written",
                 p->arrays[eq->array].name);
      c->nerr++;
    }
    check_uses u = {0};
    if (check_uses_collect(eq->rhs, &u) < 0) check_isl_failed(c, 1);
    for (int k = 0; k < u.n; k++) {
      const ast_expr *x = u.e[k];
      if (x->kind != AST_EXPR_IN || x->array < 0 || x->array >= p->narrays ||
          p->arrays[x->array].kind != AST_ARRAY_OUT)
        continue;
      diag_error(&x->loc, p->source,
                 "rule 1 (single assignment): output %s is read; outputs may "
                 "only be written",
                 p->arrays[x->array].name);
      c->nerr++;
    }
    free(u.e);
  }
}

/* Appends the element that equation `e` writes at iteration `it`. */
static void check_fmt_written(check_buf *b, const ast_program *p, int e,
                              const int64_t *par, const int64_t *it) {
  const ast_eq *eq = &p->eqs[e];
  const ast_array *a = &p->arrays[eq->array];
  int64_t v[AST_MAX_DIMS];
  for (int k = 0; k < a->ndims; k++) v[k] = ast_aff_eval(&eq->idx[k], par, it);
  check_fmt_elem(b, a->name, v, a->ndims);
}

/* Rule 1, outputs: one equation writes an element at two iterations. */
static void check_rule1_self(check_state *c, int e) {
  const ast_program *p = c->p;
  isl_map *w = check_write_map(c, e);
  isl_map *back = isl_map_reverse(isl_map_copy(w));
  isl_map *same = isl_map_apply_range(w, back);
  same = isl_map_intersect(same, isl_map_lex_lt(isl_set_get_space(c->space)));
  check_pt pt;
  isl_bool has = check_witness(isl_map_wrap(same), p, &pt);
  if (has < 0) check_isl_failed(c, 1);
  if (has != isl_bool_true) return;
  check_buf m = {0};
  check_fmt_written(&m, p, e, pt.param, pt.x);
  check_buf_add(&m, " twice, at ");
  check_fmt_iter(&m, p, pt.x);
  check_buf_add(&m, " and at ");
  check_fmt_iter(&m, p, pt.x + p->ndims);
  check_fmt_with(&m, p, pt.param);
  diag_error(&p->eqs[e].loc, p->source, "rule 1 (single assignment): equation writes %s",
             m.s);
  c->nerr++;
}

/* Rule 1, outputs: equations a < b write a common element. */
static void check_rule1_pair(check_state *c, int a, int b) {
  const ast_program *p = c->p;
  isl_map *both = isl_map_apply_range(check_write_map(c, b),
                                      isl_map_reverse(check_write_map(c, a)));
  check_pt pt;
  isl_bool has = check_witness(isl_map_wrap(both), p, &pt);
  if (has < 0) check_isl_failed(c, 1);
  if (has != isl_bool_true) return;
  check_buf m = {0};
  check_fmt_written(&m, p, b, pt.param, pt.x);
  check_buf_add(&m, " is written twice, here");
  if (p->ndims) check_buf_add(&m, " at ");
  check_fmt_iter(&m, p, pt.x);
  check_buf_add(&m, " and by the equation at line %d", p->eqs[a].loc.line);
  if (p->ndims) check_buf_add(&m, " at ");
  check_fmt_iter(&m, p, pt.x + p->ndims);
  check_fmt_with(&m, p, pt.param);
  diag_error(&p->eqs[b].loc, p->source, "rule 1 (single assignment): %s", m.s);
  c->nerr++;
}

/* Rule 1, outputs: no element is written twice. */
static void check_rule1_writes(check_state *c) {
  const ast_program *p = c->p;
  for (int b = 0; b < p->neqs; b++) {
    if (!check_eq_writes_out(p, &p->eqs[b])) continue;
    for (int a = 0; a < b; a++)
      if (check_eq_writes_out(p, &p->eqs[a]) && p->eqs[a].array == p->eqs[b].array)
        check_rule1_pair(c, a, b);
    check_rule1_self(c, b);
  }
}

/* Returns the union of the condition spaces of the equations defining
 * internal variable `var`. */
static __isl_give isl_set *check_def_space(check_state *c, int var) {
  isl_set *u = isl_set_empty(isl_set_get_space(c->space));
  for (int f = 0; f < c->p->neqs; f++)
    if (!c->p->eqs[f].is_out && c->p->eqs[f].var == var)
      u = isl_set_union(u, isl_set_copy(c->cond[f]));
  return u;
}

/* Rule 2 for one use x[I+off] in equation e: inside the space, defined. */
static void check_rule2_use(check_state *c, int e, const ast_expr *x) {
  const ast_program *p = c->p;
  check_pt w;
  check_buf use = {0}, m = {0};
  check_fmt_var_use(&use, p, x->var, x->off);
  isl_set *in_space = poly_set_preimage_shift(isl_set_copy(c->space), p, x->off);
  isl_set *outside = isl_set_subtract(isl_set_copy(c->cond[e]), isl_set_copy(in_space));
  isl_bool has = check_witness(outside, p, &w);
  if (has < 0) check_isl_failed(c, 2);
  if (has == isl_bool_true) {
    check_fmt_at(&m, p, &w);
    diag_error(&x->loc, p->source,
               "rule 2 (every use defined): equation reads %s outside the iteration "
               "space, e.g. %s",
               use.s, m.s);
    c->nerr++;
  }
  isl_set *defined = poly_set_preimage_shift(check_def_space(c, x->var), p, x->off);
  isl_set *undef = isl_set_intersect(isl_set_copy(c->cond[e]), in_space);
  has = check_witness(isl_set_subtract(undef, defined), p, &w);
  if (has < 0) check_isl_failed(c, 2);
  if (has != isl_bool_true) return;
  int64_t inst[AST_MAX_DIMS];
  for (int d = 0; d < p->ndims; d++) inst[d] = w.x[d] + x->off[d];
  check_fmt_elem(&m, p->vars[x->var].name, inst, p->ndims);
  check_buf_add(&m, " ");
  check_fmt_at(&m, p, &w);
  diag_error(&x->loc, p->source,
             "rule 2 (every use defined): equation reads %s where no equation "
             "defines it, e.g. %s",
             use.s, m.s);
  c->nerr++;
}

/* Rule 3 for one use: its dependence vector -off is lex non-negative. */
static void check_rule3_order(check_state *c, const ast_expr *x) {
  const ast_program *p = c->p;
  int d = 0;
  while (d < p->ndims && !x->off[d]) d++;
  if (d == p->ndims || x->off[d] < 0) return;
  check_buf use = {0}, vec = {0};
  check_fmt_var_use(&use, p, x->var, x->off);
  for (int k = 0; k < p->ndims; k++)
    check_buf_add(&vec, "%s%lld", k ? "," : "", (long long)-x->off[k]);
  diag_error(&x->loc, p->source,
             "rule 3 (causality): equation reads %s, a value of a later "
             "iteration (dependence vector (%s) is lexicographically negative)",
             use.s, vec.s);
  c->nerr++;
}

/* Rules 2 and 3 (order) for every use of an internal variable. */
static void check_rule2_3_uses(check_state *c, int rule) {
  const ast_program *p = c->p;
  for (int e = 0; e < p->neqs; e++) {
    check_uses u = {0};
    if (check_uses_collect(p->eqs[e].rhs, &u) < 0) check_isl_failed(c, rule);
    for (int k = 0; k < u.n; k++) {
      const ast_expr *x = u.e[k];
      if (x->kind != AST_EXPR_VAR || x->var < 0 || x->var >= p->nvars) continue;
      if (rule == 2) check_rule2_use(c, e, x);
      else check_rule3_order(c, x);
    }
    free(u.e);
  }
}

/* The offset-zero dependence graph among equations for rule 3. */
typedef struct {
  check_state *c;
  char *edge;   /* edge[f * neqs + e]: e reads what f defines at offset 0,
                   and C_f ∩ C_e is not empty */
  char *reach;  /* reach[f * neqs + e]: a path of edges leads from f to e */
  int *path;    /* equations on the current path */
  char *onpath;
  int start;
  long steps;
  int gave_up;  /* the step bound was reached */
} check_graph;

/* Returns 1 when a cycle through g->start was found and reported, 0 when
 * none continues the path ending at `node` (iterations in `acc`), -1 on
 * an isl failure. */
static int check_cycle_dfs(check_graph *g, int node, int depth,
                           __isl_keep isl_set *acc) {
  check_state *c = g->c;
  const ast_program *p = c->p;
  int n = p->neqs;
  g->path[depth] = node;
  g->onpath[node] = 1;
  for (int next = g->start; next < n; next++) {
    if (!g->edge[node * n + next] || !g->reach[next * n + g->start]) continue;
    if (++g->steps > CHECK_CYCLE_STEPS) {
      g->gave_up = 1;
      break;
    }
    if (next == g->start) {
      check_pt w;
      isl_bool has = check_witness(isl_set_copy(acc), p, &w);
      if (has < 0) return -1;
      if (has != isl_bool_true) continue;
      check_buf cyc = {0}, m = {0};
      for (int k = 0; k <= depth; k++)
        check_buf_add(&cyc, "%s -> ", p->vars[p->eqs[g->path[k]].var].name);
      check_buf_add(&cyc, "%s", p->vars[p->eqs[g->start].var].name);
      check_fmt_at(&m, p, &w);
      diag_error(&p->eqs[g->start].loc, p->source,
                 "rule 3 (causality): dependences of offset zero form a cycle "
                 "within one iteration: %s, e.g. %s",
                 cyc.s, m.s);
      c->nerr++;
      return 1;
    }
    if (g->onpath[next]) continue;
    isl_set *more = isl_set_intersect(isl_set_copy(acc), isl_set_copy(c->cond[next]));
    isl_bool empty = isl_set_is_empty(more);
    int r = empty == isl_bool_false ? check_cycle_dfs(g, next, depth + 1, more)
                                    : (empty < 0 ? -1 : 0);
    isl_set_free(more);
    if (r) return r;
  }
  g->onpath[node] = 0;
  return 0;
}

/* Returns 1 when equation e reads variable `var` at offset zero. */
static int check_reads_at_zero(const ast_program *p, const ast_expr *x, int var) {
  if (!x) return 0;
  if (x->kind == AST_EXPR_VAR) return x->var == var && check_off_is_zero(p, x->off);
  if (x->kind != AST_EXPR_OP) return 0;
  for (int i = 0; i < x->nargs && i < 3; i++)
    if (check_reads_at_zero(p, x->arg[i], var)) return 1;
  return 0;
}

/* Fills g->edge (uses at offset zero between equations whose condition
 * spaces meet) and its transitive closure g->reach; returns 0, or -1 when
 * isl failed. */
static int check_graph_build(check_graph *g) {
  check_state *c = g->c;
  const ast_program *p = c->p;
  int n = p->neqs;
  for (int f = 0; f < n; f++)
    for (int e = 0; e < n && !p->eqs[f].is_out; e++) {
      if (!check_reads_at_zero(p, p->eqs[e].rhs, p->eqs[f].var)) continue;
      isl_set *meet = isl_set_intersect(isl_set_copy(c->cond[f]), isl_set_copy(c->cond[e]));
      isl_bool empty = isl_set_is_empty(meet);
      isl_set_free(meet);
      if (empty < 0) return -1;
      g->edge[f * n + e] = empty == isl_bool_false;
    }
  memcpy(g->reach, g->edge, (size_t)n * (size_t)n);
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      if (g->reach[i * n + k])
        for (int j = 0; j < n; j++) g->reach[i * n + j] |= g->reach[k * n + j];
  return 0;
}

/* Rule 3: offset-zero dependences inside one iteration are acyclic. The
 * graph of pairwise meeting condition spaces over-approximates the cycles;
 * only equations on one of its cycles are searched exactly (a cycle needs
 * one iteration common to all its equations). Each cycle is reported once,
 * from its first equation. */
static void check_rule3_cycles(check_state *c) {
  const ast_program *p = c->p;
  int n = p->neqs;
  check_graph g = {.c = c};
  if (n == 0) return;
  g.edge = calloc((size_t)n * (size_t)n, 1);
  g.path = calloc((size_t)n, sizeof *g.path);
  g.reach = calloc((size_t)n * (size_t)n, 1);
  g.onpath = calloc((size_t)n, 1);
  if (!g.edge || !g.reach || !g.path || !g.onpath || check_graph_build(&g) < 0) {
    check_isl_failed(c, 3);
    goto done;
  }
  for (g.start = 0; g.start < n; g.start++) {
    if (!g.reach[g.start * n + g.start]) continue;
    memset(g.onpath, 0, (size_t)n);
    g.steps = 0;
    g.gave_up = 0;
    int r = check_cycle_dfs(&g, g.start, 0, c->cond[g.start]);
    if (r < 0) check_isl_failed(c, 3);
    if (r == 0 && g.gave_up) {
      diag_error(&p->eqs[g.start].loc, p->source,
                 "rule 3 (causality): too many paths of offset-zero "
                 "dependences through %s to prove them acyclic",
                 p->vars[p->eqs[g.start].var].name);
      c->nerr++;
    }
  }
done:
  free(g.edge);
  free(g.reach);
  free(g.path);
  free(g.onpath);
}

/* Rule 4 for one access `name[idx]` of array `a` by equation e (a read at
 * `loc`, or the equation's write). */
static void check_rule4_access(check_state *c, int e, const ast_array *a,
                               const ast_aff *idx, const ast_loc *loc, int is_write) {
  const ast_program *p = c->p;
  if (a->ndims == 0) return;
  isl_map *acc = poly_index_map(c->ctx, p, idx, a->ndims);
  isl_set *inside = isl_set_apply(poly_array_box(c->ctx, p, a), isl_map_reverse(acc));
  check_pt w;
  isl_bool has = check_witness(isl_set_subtract(isl_set_copy(c->cond[e]), inside), p, &w);
  if (has < 0) check_isl_failed(c, 4);
  if (has != isl_bool_true) return;
  check_buf m = {0};
  int64_t v[AST_MAX_DIMS];
  check_fmt_access(&m, p, a->name, idx, a->ndims);
  check_buf_add(&m, " outside the extent of %s [", a->name);
  for (int k = 0; k < a->ndims; k++) {
    if (k) check_buf_add(&m, ", ");
    check_fmt_aff(&m, p, &a->extent[k]);
  }
  check_buf_add(&m, "], e.g. ");
  for (int k = 0; k < a->ndims; k++) v[k] = ast_aff_eval(&idx[k], w.param, w.x);
  check_fmt_elem(&m, a->name, v, a->ndims);
  check_buf_add(&m, " ");
  check_fmt_at(&m, p, &w);
  diag_error(loc, p->source, "rule 4 (extents): equation %s %s",
             is_write ? "writes" : "reads", m.s);
  c->nerr++;
}

/* Rule 4: input reads and output writes inside the declared extents. */
static void check_rule4(check_state *c) {
  const ast_program *p = c->p;
  for (int e = 0; e < p->neqs; e++) {
    const ast_eq *eq = &p->eqs[e];
    if (check_eq_writes_out(p, eq))
      check_rule4_access(c, e, &p->arrays[eq->array], eq->idx, &eq->loc, 1);
    check_uses u = {0};
    if (check_uses_collect(eq->rhs, &u) < 0) check_isl_failed(c, 4);
    for (int k = 0; k < u.n; k++) {
      const ast_expr *x = u.e[k];
      if (x->kind == AST_EXPR_IN && x->array >= 0 && x->array < p->narrays &&
          p->arrays[x->array].kind == AST_ARRAY_IN)
        check_rule4_access(c, e, &p->arrays[x->array], x->idx, &x->loc, 0);
    }
    free(u.e);
  }
}

/* Rule 5: every element of every output is written. */
static void check_rule5(check_state *c) {
  const ast_program *p = c->p;
  for (int k = 0; k < p->narrays; k++) {
    const ast_array *a = &p->arrays[k];
    if (a->kind != AST_ARRAY_OUT) continue;
    isl_set *missing = poly_array_box(c->ctx, p, a);
    for (int e = 0; e < p->neqs; e++)
      if (check_eq_writes_out(p, &p->eqs[e]) && p->eqs[e].array == k)
        missing = isl_set_subtract(missing, isl_map_range(check_write_map(c, e)));
    check_pt w;
    isl_bool has = check_witness(missing, p, &w);
    if (has < 0) check_isl_failed(c, 5);
    if (has != isl_bool_true) continue;
    check_buf m = {0};
    if (a->ndims) {
      check_buf_add(&m, "element ");
      check_fmt_elem(&m, a->name, w.x, a->ndims);
      check_buf_add(&m, " of ");
    }
    check_buf_add(&m, "output %s is never written", a->name);
    if (p->nparams) check_buf_add(&m, ", e.g.");
    check_fmt_with(&m, p, w.param);
    diag_error(&a->loc, p->source, "rule 5 (outputs written): %s", m.s);
    c->nerr++;
  }
}

/* Checks that the iteration space is finite for every parameter value:
 * the recession cone of `par` (its constraints without parameters and
 * constants) must be {0}. Not one of the five rules, but an unbounded
 * space has no meaning as a loop nest. */
static void check_space_bounded(check_state *c) {
  const ast_program *p = c->p;
  ast_program q = *p;
  isl_bool empty = isl_set_is_empty(c->space);
  if (empty != isl_bool_false || p->ndims == 0) return;
  q.nparams = 0;
  q.param_space.n = 0;
  q.space.c = malloc((size_t)(p->space.n ? p->space.n : 1) * sizeof *q.space.c);
  if (!q.space.c) {
    check_isl_failed(c, 0);
    return;
  }
  for (int i = 0; i < p->space.n; i++) {
    q.space.c[i] = p->space.c[i];
    q.space.c[i].aff.konst = 0;
  }
  isl_set *cone = poly_space(c->ctx, &q);
  isl_set *origin = isl_set_universe(isl_set_get_space(cone));
  for (int d = 0; d < p->ndims; d++) origin = isl_set_fix_si(origin, isl_dim_set, (unsigned)d, 0);
  free(q.space.c);
  check_pt w;
  isl_bool has = check_witness(isl_set_subtract(cone, origin), p, &w);
  if (has < 0) check_isl_failed(c, 0);
  if (has != isl_bool_true) return;
  check_buf m = {0};
  for (int d = 0; d < p->ndims; d++) check_buf_add(&m, "%s%lld", d ? "," : "", (long long)w.x[d]);
  diag_error(&p->par_loc, p->source,
             "the iteration space is unbounded along (%s); it must be finite "
             "for every parameter value",
             m.s);
  c->nerr++;
}

/* Returns 0 after building S and the condition spaces into `c`, -1 when
 * isl failed. */
static int check_state_init(check_state *c, const ast_program *p) {
  c->p = p;
  c->ctx = isl_ctx_alloc();
  if (!c->ctx) return -1;
  c->space = poly_space(c->ctx, p);
  c->cond = calloc((size_t)(p->neqs ? p->neqs : 1), sizeof *c->cond);
  if (!c->space || !c->cond) return -1;
  for (int e = 0; e < p->neqs; e++) {
    c->cond[e] = poly_cond_space(c->ctx, p, &p->eqs[e].cond);
    if (!c->cond[e]) return -1;
  }
  return 0;
}

/* Frees what check_state_init built; returns nothing. */
static void check_state_free(check_state *c) {
  if (c->cond)
    for (int e = 0; e < c->p->neqs; e++) isl_set_free(c->cond[e]);
  free(c->cond);
  isl_set_free(c->space);
  if (c->ctx) isl_ctx_free(c->ctx);
}

int check_program(const ast_program *p) {
  check_state c = {0};
  if (check_state_init(&c, p) < 0) {
    check_isl_failed(&c, 0);
  } else {
    check_space_bounded(&c);
    check_rule1_io(&c);
    check_rule1_defs(&c);
    check_rule1_writes(&c);
    check_rule2_3_uses(&c, 2);
    check_rule2_3_uses(&c, 3);
    check_rule3_cycles(&c);
    check_rule4(&c);
    check_rule5(&c);
  }
  check_state_free(&c);
  return c.nerr;
}

int check_params_valid(const ast_program *p, const int64_t *params) {
  for (int i = 0; i < p->nparams; i++)
    if (params[i] < 1) return 0;
  for (int i = 0; i < p->param_space.n; i++) {
    int64_t v = ast_aff_eval(&p->param_space.c[i].aff, params, NULL);
    if (p->param_space.c[i].is_eq ? v != 0 : v < 0) return 0;
  }
  return 1;
}
