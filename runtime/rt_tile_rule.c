/*
 * rt_tile_rule.c: which loops of a program a problem may be cut along
 * (docs/tiling.md "The rule"), from its loop bounds, its equations'
 * conditions, index functions and dependences (ast.h). A chunk is the
 * program run with the loop's bound parameter P set to the chunk's size,
 * its iterations shifted so that the chunk starts at 0; so a loop may be
 * cut when that gives each iteration the values it has in the whole:
 *
 *   - its bounds are 0 <= i < P and P appears nowhere else but in the
 *     condition i == P - 1 of an output written at its last iteration;
 *   - every array index names i, if at all, as i + (other terms), in
 *     every access of that index alike: a chunk's sub-array is the
 *     window of the whole shifted by the chunk's start (reads of
 *     neighbours, i + c, make the windows overlap);
 *   - a variable read at another iteration of i is read only by its own
 *     equation, as a propagation (x = E if i == 0, x = x[i-1] if i >= 1,
 *     E reading inputs whose index does not name i: x is E in every
 *     iteration, read again at a chunk's start) or an accumulation
 *     (x = E if i == 0, x = x[i-1] op E if i >= 1, op one of + * min max
 *     & | ^, associative and commutative on int32: the chunks' results
 *     combine by op, when x is read only by an output written at
 *     i == P - 1; or x = X op E if i == 0 with X an input read with the
 *     output's own index and nowhere else: X is the accumulation's
 *     initial value, and each chunk's result is the next one's X);
 *   - no other condition names i.
 * Anything else fixes the loop, with the reason (which equation, which
 * variable or array) as data; rt_tile_rule_text prints it.
 */
#include <stdio.h>
#include <string.h>

#include "rt_tile.h"

/* What a condition says about loop d (rt_rule_cond). */
enum { RULE_C_NONE, RULE_C_FIRST, RULE_C_NEXT, RULE_C_LAST, RULE_C_OTHER };

/* What a variable is along loop d. */
enum { RULE_V_PLAIN, RULE_V_INV, RULE_V_ACC };

/* Returns 1 when a names no index but d and no parameter but P (-1:
 * none) and has coefficients ci on i_d, cp on P and constant k. */
static int rt_rule_aff_is(const ast_aff *a, int d, int P, int64_t ci, int64_t cp, int64_t k) {
  for (int x = 0; x < AST_MAX_DIMS; x++)
    if (a->index[x] != (x == d ? ci : 0)) return 0;
  for (int x = 0; x < AST_MAX_PARAMS; x++)
    if (a->param[x] != (x == P ? cp : 0)) return 0;
  return a->konst == k;
}

/* Returns 1 when constraint c names loop d or parameter P. */
static int rt_rule_names(const ast_constraint *c, int d, int P) {
  return c->aff.index[d] != 0 || (P >= 0 && c->aff.param[P] != 0);
}

/* Returns the RULE_C_* of condition cond along loop d (parameter P). */
static int rt_rule_cond(const ast_cond *cond, int d, int P) {
  int kind = RULE_C_NONE;
  for (int j = 0; j < cond->n; j++)
    for (int m = 0; m < cond->conj[j].n; m++) {
      const ast_constraint *c = &cond->conj[j].c[m];
      if (!rt_rule_names(c, d, P)) continue;
      if (cond->n != 1 || kind != RULE_C_NONE) return RULE_C_OTHER;
      const ast_aff *a = &c->aff;
      if ((c->is_eq && (rt_rule_aff_is(a, d, -1, 1, 0, 0) || rt_rule_aff_is(a, d, -1, -1, 0, 0))) ||
          (!c->is_eq && rt_rule_aff_is(a, d, -1, -1, 0, 0)))
        kind = RULE_C_FIRST;
      else if (!c->is_eq && rt_rule_aff_is(a, d, -1, 1, 0, -1))
        kind = RULE_C_NEXT;
      else if (c->is_eq && P >= 0 && (rt_rule_aff_is(a, d, P, 1, -1, 1) || rt_rule_aff_is(a, d, P, -1, 1, -1)))
        kind = RULE_C_LAST;
      else
        return RULE_C_OTHER;
    }
  return kind;
}

/* Returns 1 when e and f are the same expression (operands, offsets,
 * indices, operations). */
static int rt_rule_expr_same(const ast_expr *e, const ast_expr *f) {
  if (e->kind != f->kind) return 0;
  switch (e->kind) {
  case AST_EXPR_CONST: return e->value == f->value;
  case AST_EXPR_VAR: return e->var == f->var && !memcmp(e->off, f->off, sizeof e->off);
  case AST_EXPR_IN: return e->array == f->array && !memcmp(e->idx, f->idx, sizeof e->idx);
  case AST_EXPR_OP:
    if (e->op != f->op || e->nargs != f->nargs) return 0;
    for (int i = 0; i < e->nargs; i++)
      if (!rt_rule_expr_same(e->arg[i], f->arg[i])) return 0;
    return 1;
  }
  return 0;
}

/* Returns 1 when e reads a variable (any offset), 2 when it reads one at
 * another iteration of d (off[d] != 0), 0 when neither; with var non-NULL
 * the variable of the last such read. */
static int rt_rule_expr_vars(const ast_expr *e, int d, int *var) {
  if (e->kind == AST_EXPR_VAR) {
    if (var) *var = e->var;
    return e->off[d] ? 2 : 1;
  }
  int r = 0;
  if (e->kind == AST_EXPR_OP)
    for (int i = 0; i < e->nargs; i++) {
      int x = rt_rule_expr_vars(e->arg[i], d, var);
      if (x > r) r = x;
    }
  return r;
}

/* Returns 1 when e reads an input whose index names loop d. */
static int rt_rule_expr_in_names(const ast_expr *e, int d) {
  if (e->kind == AST_EXPR_IN) {
    for (int r = 0; r < AST_MAX_DIMS; r++)
      if (e->idx[r].index[d]) return 1;
    return 0;
  }
  if (e->kind == AST_EXPR_OP)
    for (int i = 0; i < e->nargs; i++)
      if (rt_rule_expr_in_names(e->arg[i], d)) return 1;
  return 0;
}

/* Returns 1 when e reads variable v (any offset). */
static int rt_rule_expr_reads(const ast_expr *e, int v) {
  if (e->kind == AST_EXPR_VAR) return e->var == v;
  if (e->kind == AST_EXPR_OP)
    for (int i = 0; i < e->nargs; i++)
      if (rt_rule_expr_reads(e->arg[i], v)) return 1;
  return 0;
}

/* Returns 1 when op is associative and commutative on int32 (wrapping):
 * an accumulation by it may be split into chunks. */
static int rt_rule_op_splits(ast_op op) {
  return op == AST_OP_ADD || op == AST_OP_MUL || op == AST_OP_MIN || op == AST_OP_MAX || op == AST_OP_AND ||
         op == AST_OP_OR || op == AST_OP_XOR;
}

/* Returns the number of reads of input array a in e. */
static int rt_rule_expr_in_count(const ast_expr *e, int a) {
  if (e->kind == AST_EXPR_IN) return e->array == a;
  int n = 0;
  if (e->kind == AST_EXPR_OP)
    for (int i = 0; i < e->nargs; i++) n += rt_rule_expr_in_count(e->arg[i], a);
  return n;
}

/* Returns 1 when e is variable v at i_d - 1, every other offset 0. */
static int rt_rule_is_prev(const ast_expr *e, int v, int d) {
  if (e->kind != AST_EXPR_VAR || e->var != v) return 0;
  for (int x = 0; x < AST_MAX_DIMS; x++)
    if (e->off[x] != (x == d ? -1 : 0)) return 0;
  return 1;
}

/* Records a fixed loop: why, equation, variable, array; returns 0. */
static int rt_rule_fix(rt_tile_loop *l, rt_tile_why why, int eq, int var, int array) {
  l->kind = RT_TILE_FIXED;
  l->why = why;
  l->eq = eq, l->var = var, l->array = array;
  return 0;
}

/* Returns 1 after finding loop d's bound parameter in l->param (bounds
 * 0 <= i < P, P bounding no other loop); 0 after fixing l. */
static int rt_rule_bounds(const ast_program *p, int d, rt_tile_loop *l) {
  int lo = 0, P = -1;
  for (int m = 0; m < p->space.n; m++) {
    const ast_constraint *c = &p->space.c[m];
    if (!c->aff.index[d]) continue;
    if (!c->is_eq && rt_rule_aff_is(&c->aff, d, -1, 1, 0, 0)) {
      lo = 1;
      continue;
    }
    int q = -1;
    for (int x = 0; x < p->nparams; x++)
      if (c->aff.param[x]) q = x;
    if (P < 0 && q >= 0 && !c->is_eq && rt_rule_aff_is(&c->aff, d, q, -1, 1, -1)) P = q;
    else return rt_rule_fix(l, RT_TILE_WHY_BOUNDS, -1, -1, -1);
  }
  if (!lo || P < 0) return rt_rule_fix(l, RT_TILE_WHY_BOUNDS, -1, -1, -1);
  l->param = P;
  for (int m = 0; m < p->space.n; m++)
    if (!p->space.c[m].aff.index[d] && p->space.c[m].aff.param[P]) return rt_rule_fix(l, RT_TILE_WHY_SHARED, -1, -1, -1);
  return 1;
}

/* Returns 1 after checking one access's index idx (rank n) of array a
 * along loop d (parameter P) into r's windows; 0 after fixing the loop.
 * seen[a][x]: 0 not seen yet, 1 names d, 2 does not. */
static int rt_rule_index(rt_tile_rule *r, int d, int P, int eq, int a, const ast_aff *idx, int n,
                         unsigned char seen[16][AST_MAX_DIMS]) {
  rt_tile_loop *l = &r->loop[d];
  for (int x = 0; x < n; x++) {
    if (idx[x].param[P]) return rt_rule_fix(l, RT_TILE_WHY_SHARED, eq, -1, a);
    int64_t c = idx[x].index[d];
    if (c != 0 && c != 1) return rt_rule_fix(l, RT_TILE_WHY_INDEX, eq, -1, a);
    int s = c ? 1 : 2;
    if (seen[a][x] && seen[a][x] != s) return rt_rule_fix(l, RT_TILE_WHY_INDEX, eq, -1, a);
    seen[a][x] = (unsigned char)s;
    if (c) {
      r->dim_mask[a][x] |= 1u << d;
      for (int y = 0; y < AST_MAX_DIMS; y++)
        if (y != d && idx[x].index[y]) l->share |= 1u << y;
    }
  }
  return 1;
}

/* Returns 1 after checking every input access of e along loop d. */
static int rt_rule_expr_index(rt_tile_rule *r, const ast_program *p, int d, int P, int eq, const ast_expr *e,
                              unsigned char seen[16][AST_MAX_DIMS]) {
  if (e->kind == AST_EXPR_IN) return rt_rule_index(r, d, P, eq, e->array, e->idx, p->arrays[e->array].ndims, seen);
  if (e->kind == AST_EXPR_OP)
    for (int i = 0; i < e->nargs; i++)
      if (!rt_rule_expr_index(r, p, d, P, eq, e->arg[i], seen)) return 0;
  return 1;
}

/* What rt_rule_var found of an accumulation: its operation and its
 * initial value (NULL: none). */
typedef struct {
  ast_op op;
  const ast_expr *init;
} rt_rule_acc;

/* Returns 1 after finding in *acc how base e0 starts the accumulation
 * e1 = v[i-1] op E of v along d: e0 is E, or X op E (either order) with
 * X an input read that does not name d; 0 when neither. */
static int rt_rule_accum(const ast_expr *e0, const ast_expr *e1, int v, int d, rt_rule_acc *acc) {
  if (e1->kind != AST_EXPR_OP || !rt_rule_op_splits(e1->op) || e1->nargs != 2) return 0;
  const ast_expr *rest = rt_rule_is_prev(e1->arg[0], v, d)   ? e1->arg[1]
                         : rt_rule_is_prev(e1->arg[1], v, d) ? e1->arg[0] : NULL;
  if (!rest || rt_rule_expr_vars(rest, d, NULL) == 2 || rt_rule_expr_reads(rest, v)) return 0;
  acc->op = e1->op;
  acc->init = NULL;
  if (rt_rule_expr_same(rest, e0)) return 1;
  if (e0->kind != AST_EXPR_OP || e0->op != e1->op || e0->nargs != 2) return 0;
  for (int x = 0; x < 2; x++) {
    const ast_expr *X = e0->arg[x], *E = e0->arg[1 - x];
    if (X->kind == AST_EXPR_IN && !rt_rule_expr_in_names(X, d) && rt_rule_expr_same(E, rest)) {
      acc->init = X;
      return 1;
    }
  }
  return 0;
}

/* Returns the RULE_V_* of variable v along loop d (parameter P), or -1
 * after fixing the loop (the equation and why); an accumulation's
 * operation and initial value in *acc. */
static int rt_rule_var(const ast_program *p, int d, int P, int v, rt_tile_loop *l, rt_rule_acc *acc) {
  int first = -1, next = -1, ndefs = 0;
  for (int e = 0; e < p->neqs; e++) {
    const ast_eq *q = &p->eqs[e];
    if (q->is_out || q->var != v) continue;
    ndefs++;
    int ck = rt_rule_cond(&q->cond, d, P);
    if (ck == RULE_C_FIRST) first = e;
    else if (ck == RULE_C_NEXT) next = e;
    else if (ck != RULE_C_NONE) {
      rt_rule_fix(l, RT_TILE_WHY_CONDITION, e, v, -1);
      return -1;
    }
  }
  int carried = -1, cvar = -1; /* an equation of v reading a variable at another i */
  for (int e = 0; e < p->neqs; e++) {
    const ast_eq *q = &p->eqs[e];
    int rv = -1;
    if (!q->is_out && q->var == v && rt_rule_expr_vars(q->rhs, d, &rv) == 2 && carried < 0) carried = e, cvar = rv;
  }
  if (first < 0 && next < 0) {
    if (carried < 0) return RULE_V_PLAIN;
    rt_rule_fix(l, RT_TILE_WHY_CARRIED, carried, cvar, -1);
    return -1;
  }
  if (ndefs == 2 && first >= 0 && next >= 0) {
    const ast_expr *e0 = p->eqs[first].rhs, *e1 = p->eqs[next].rhs;
    if (rt_rule_is_prev(e1, v, d) && !rt_rule_expr_vars(e0, d, NULL) && !rt_rule_expr_in_names(e0, d))
      return RULE_V_INV;
    if (rt_rule_accum(e0, e1, v, d, acc)) return RULE_V_ACC;
  }
  rt_rule_fix(l, carried >= 0 ? RT_TILE_WHY_CARRIED : RT_TILE_WHY_CONDITION, carried >= 0 ? carried : first >= 0 ? first : next,
              carried >= 0 ? cvar : v, -1);
  return -1;
}

/* Returns 1 when initial value X of the accumulation output equation q
 * writes can be carried: an input of q's rank read with q's index, and
 * read nowhere else in p. */
static int rt_rule_carry(const ast_program *p, const ast_eq *q, const ast_expr *X) {
  int n = p->arrays[q->array].ndims;
  if (p->arrays[X->array].ndims != n || memcmp(X->idx, q->idx, (size_t)n * sizeof *X->idx)) return 0;
  int reads = 0;
  for (int e = 0; e < p->neqs; e++) reads += rt_rule_expr_in_count(p->eqs[e].rhs, X->array);
  return reads == 1;
}

/* Returns 1 after ruling on loop d of p (r->loop[d], r->out[d]); 0 when
 * it is fixed. */
static int rt_rule_loop(const ast_program *p, int d, rt_tile_rule *r) {
  rt_tile_loop *l = &r->loop[d];
  *l = (rt_tile_loop){RT_TILE_FREE, -1, RT_TILE_WHY_NONE, -1, -1, -1, 0};
  if (!rt_rule_bounds(p, d, l)) return 0;
  int P = l->param;
  int vk[64];
  rt_rule_acc acc[64];
  if (p->nvars > 64) return rt_rule_fix(l, RT_TILE_WHY_CARRIED, -1, -1, -1);
  for (int v = 0; v < p->nvars; v++)
    if ((vk[v] = rt_rule_var(p, d, P, v, l, &acc[v])) < 0) return 0;
  unsigned char seen[16][AST_MAX_DIMS];
  memset(seen, 0, sizeof seen);
  int set[16] = {0};
  for (int e = 0; e < p->neqs; e++) {
    const ast_eq *q = &p->eqs[e];
    if (!rt_rule_expr_index(r, p, d, P, e, q->rhs, seen)) return 0;
    int rv = -1, reads = rt_rule_expr_vars(q->rhs, d, &rv);
    if (!q->is_out) {
      /* a partial sum read by another variable's equation */
      for (int v = 0; v < p->nvars; v++)
        if (vk[v] == RULE_V_ACC && v != q->var && rt_rule_expr_reads(q->rhs, v))
          return rt_rule_fix(l, RT_TILE_WHY_PARTIAL, e, v, -1);
      continue;
    }
    if (reads == 2) return rt_rule_fix(l, RT_TILE_WHY_CARRIED, e, rv, q->array);
    int a = q->array, n = p->arrays[a].ndims;
    if (!rt_rule_index(r, d, P, e, a, q->idx, n, seen)) return 0;
    int names = 0;
    for (int x = 0; x < n; x++) names |= q->idx[x].index[d] != 0;
    int ck = rt_rule_cond(&q->cond, d, P);
    rt_tile_out mode;
    if (ck == RULE_C_NONE && names) {
      mode = RT_TILE_OUT_WINDOW;
      for (int v = 0; v < p->nvars; v++)
        if (vk[v] == RULE_V_ACC && rt_rule_expr_reads(q->rhs, v)) return rt_rule_fix(l, RT_TILE_WHY_PARTIAL, e, v, a);
    } else if (ck == RULE_C_LAST && !names && q->rhs->kind == AST_EXPR_VAR && vk[q->rhs->var] != RULE_V_PLAIN) {
      int v = q->rhs->var;
      mode = vk[v] == RULE_V_INV ? RT_TILE_OUT_SAME : acc[v].init ? RT_TILE_OUT_CARRY : RT_TILE_OUT_REDUCE;
      if (mode == RT_TILE_OUT_CARRY && !rt_rule_carry(p, q, acc[v].init)) return rt_rule_fix(l, RT_TILE_WHY_OUTPUT, e, v, a);
      r->op[d][a] = acc[v].op;
      r->carry[d][a] = mode == RT_TILE_OUT_CARRY ? acc[v].init->array : -1;
    } else {
      return rt_rule_fix(l, ck == RULE_C_NONE || ck == RULE_C_LAST ? RT_TILE_WHY_OUTPUT : RT_TILE_WHY_CONDITION, e,
                         q->rhs->kind == AST_EXPR_VAR ? q->rhs->var : -1, a);
    }
    if (set[a] && r->out[d][a] != mode) return rt_rule_fix(l, RT_TILE_WHY_OUTPUT, e, -1, a);
    set[a] = 1;
    r->out[d][a] = mode;
    if (mode == RT_TILE_OUT_REDUCE || mode == RT_TILE_OUT_CARRY) l->kind = RT_TILE_ACCUM;
  }
  return 1;
}

int rt_tile_rule_make(const ast_program *p, rt_tile_rule *r) {
  memset(r, 0, sizeof *r);
  if (p->narrays > 16) return -1;
  r->ndims = p->ndims;
  r->narrays = p->narrays;
  for (int d = 0; d < AST_MAX_DIMS; d++)
    for (int a = 0; a < 16; a++) r->carry[d][a] = -1;
  int n = 0;
  for (int d = 0; d < p->ndims; d++) n += rt_rule_loop(p, d, r);
  return n;
}

/* Returns the source line of equation e of p (0: none). */
static int rt_rule_line(const ast_program *p, int e) { return e >= 0 ? p->eqs[e].loc.line : 0; }

const char *rt_tile_rule_text(const ast_program *p, const rt_tile_rule *r, int d, char *buf, size_t size) {
  const rt_tile_loop *l = &r->loop[d];
  const char *i = p->index[d], *P = l->param >= 0 ? p->param[l->param] : "?";
  const char *v = l->var >= 0 && l->var < p->nvars ? p->vars[l->var].name : "?";
  const char *a = l->array >= 0 ? p->arrays[l->array].name : "?";
  int line = rt_rule_line(p, l->eq);
  switch (l->kind == RT_TILE_FIXED ? l->why : RT_TILE_WHY_NONE) {
  case RT_TILE_WHY_NONE:
    snprintf(buf, size, "loop %s (0 <= %s < %s) may be cut: %s", i, i, P,
             l->kind == RT_TILE_ACCUM ? "it carries accumulations into outputs, the chunks' results combined or "
                                        "carried into the next chunk as its initial value"
                                      : "no value flows from one chunk to another");
    break;
  case RT_TILE_WHY_BOUNDS:
    snprintf(buf, size, "loop %s cannot be cut: its bounds are not 0 <= %s < P for a parameter P", i, i);
    break;
  case RT_TILE_WHY_SHARED:
    if (line)
      snprintf(buf, size, "loop %s cannot be cut: its bound %s appears in line %d (a chunk changes %s)", i, P, line, P);
    else
      snprintf(buf, size, "loop %s cannot be cut: its bound %s also bounds another loop", i, P);
    break;
  case RT_TILE_WHY_CARRIED:
    snprintf(buf, size, "loop %s cannot be cut: line %d reads %s at another iteration of %s, neither a propagation "
             "nor an accumulation (a value flows from one chunk to the next)", i, line, v, i);
    break;
  case RT_TILE_WHY_INDEX:
    snprintf(buf, size, "loop %s cannot be cut: line %d indexes %s with %s other than with coefficient 1 in the "
             "same dimension of every access", i, line, a, i);
    break;
  case RT_TILE_WHY_CONDITION:
    snprintf(buf, size, "loop %s cannot be cut: the condition of line %d names %s other than at the first iteration "
             "of a propagation or accumulation or the last of an output", i, line, i);
    break;
  case RT_TILE_WHY_PARTIAL:
    snprintf(buf, size, "loop %s cannot be cut: line %d reads %s, a partial result of an accumulation along %s", i,
             line, v, i);
    break;
  case RT_TILE_WHY_OUTPUT:
    snprintf(buf, size, "loop %s cannot be cut: line %d writes %s without %s in its index and not from an "
             "accumulation's or propagation's last value (or from an accumulation whose initial value is not an "
             "input read with the output's index and nowhere else)", i, line, a, i);
    break;
  }
  return buf;
}
