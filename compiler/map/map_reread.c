/*
 * map_reread.c: inputs read again instead of propagated (docs/symbolic.md,
 * "Re-reading propagated inputs").
 *
 * A program localises a broadcast input by propagation: conv's
 *   w[o,r,c,..] = wgt[o,ci,kr,kc]     if (r == 0 and c == 0);
 *   w[o,r,c,..] = w[o,r,c-1,..]       if (c >= 1);
 *   w[o,r,c,..] = w[o,r-1,c,..]       if (r >= 1 and c == 0);
 * Each propagation equation costs an fd (or a channel) per PE. When every
 * equation of a variable v but one is a plain copy v[I] = v[I - d] and the
 * one left reads an input element, v = in[f(I)], with an affine index map
 * f whose coefficients vanish along every such d (C d = 0, so f(I - d) =
 * f(I)), then by induction along the copies v[I] = in[f(I)] wherever v is
 * defined: each copy equation may read the input itself. map_reread_build
 * returns that program (a shallow copy of the original sharing everything
 * but the equations array and the new right-hand sides); its RDG maps
 * the variable to one `mov` of the input over the union of the spaces (one
 * access, no fd, no channel), at the price of a bank access in every
 * iteration that reads it. map.c maps it only when the program as written
 * does not fit (on a 2-D region an inner PE reads inputs through the
 * interconnect, which propagation avoids).
 *
 * Chains (map_reread_build with `chains`, tried when the plain re-read
 * does not fit either): a variable whose equations are roots (an input
 * element v = in[f(I)] or a constant) and copies v[I] = v[I - d] of one d
 * with C d != 0 (fir's u[i,j] = u[i-1,j-1] from x[i] at j = 0 and 0 at
 * i = 0). With isl: H maps every iteration of v to the root iteration its
 * chain starts from (I' = I - k d, the smallest k >= 0 with I' in a root's
 * space); every copy iteration must have one, and I - d of a copy
 * iteration must be an iteration of v. Then v[I] = in[f(H(I))] over the
 * iterations whose chain starts at that root, one equation per affine
 * piece (u[i,j] = x[i-j] if i >= j; 0 if i < j): no fd, no channel (fir on
 * 2-D regions: the three channels of u from above, the left and the
 * diagonal). Conditions are built from isl's constraints; a piece that
 * needs an existential variable or a rational coefficient is not
 * rewritten.
 *
 * Padding (map_reread_pad, asked for by map_opts.pad): an equation that
 * starts an accumulation (v = x where v = v[I - d] + y is another case of
 * v) becomes v = 0 + x, so both cases are one `+` and a reader at the
 * end of the accumulation has one producer (docs/symbolic.md,
 * "Accumulations padded").
 */
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "map.h"
#include "poly.h"

/* Returns 1 when the index maps of every input read in expression x are
 * unchanged by offset off (sum_d idx[r].index[d] * off[d] = 0 for every
 * index r), and x reads no variable. */
static int map_reread_invariant(const ast_program *p, const ast_expr *x, const int64_t *off) {
  if (!x || x->kind == AST_EXPR_VAR) return 0;
  if (x->kind == AST_EXPR_OP) {
    for (int a = 0; a < x->nargs; a++)
      if (!map_reread_invariant(p, x->arg[a], off)) return 0;
    return 1;
  }
  if (x->kind != AST_EXPR_IN) return 1;
  for (int r = 0; r < p->arrays[x->array].ndims; r++) {
    int64_t s = 0;
    for (int d = 0; d < p->ndims && d < AST_MAX_DIMS; d++) s += x->idx[r].index[d] * off[d];
    if (s) return 0;
  }
  return 1;
}

/* Returns 1 when equation q is a copy v[I] = v[I + off] of its own
 * variable whose offset leaves the index maps of the root expression in
 * unchanged (map_reread_invariant). */
static int map_reread_copy_ok(const ast_program *p, const ast_eq *q, const ast_expr *in) {
  const ast_expr *x = q->rhs;
  if (!x || x->kind != AST_EXPR_VAR || x->var != q->var) return 0;
  int nonzero = 0;
  for (int d = 0; d < AST_MAX_DIMS; d++) nonzero |= x->off[d] != 0;
  return nonzero && map_reread_invariant(p, in, x->off);
}

/* Returns 1 when expression x reads an input and no variable. */
static int map_reread_pure(const ast_expr *x) {
  if (!x || x->kind == AST_EXPR_VAR) return 0;
  if (x->kind == AST_EXPR_IN) return 1;
  int in = 0;
  for (int a = 0; x->kind == AST_EXPR_OP && a < x->nargs; a++) {
    if (x->arg[a] && x->arg[a]->kind == AST_EXPR_VAR) return 0;
    if (x->arg[a] && x->arg[a]->kind == AST_EXPR_OP && !map_reread_pure(x->arg[a])) return 0;
    in |= x->arg[a] && (x->arg[a]->kind == AST_EXPR_IN || x->arg[a]->kind == AST_EXPR_OP);
  }
  return in;
}

/* Returns the equation of variable v that reads an input element (with
 * `exprs`, or computes an expression of inputs and constants, editdist's
 * sa = a[i-1] & 3) when every other equation of v is a copy it allows
 * (map_reread_copy_ok) and there is at least one, else -1. */
static int map_reread_root(const ast_program *p, int v, int exprs) {
  int root = -1, copies = 0;
  for (int e = 0; e < p->neqs; e++) {
    const ast_eq *q = &p->eqs[e];
    if (q->is_out || q->var != v) continue;
    if (q->rhs && (q->rhs->kind == AST_EXPR_IN || (exprs && q->rhs->kind == AST_EXPR_OP && map_reread_pure(q->rhs)))) {
      if (root >= 0) return -1;
      root = e;
    }
  }
  if (root < 0) return -1;
  for (int e = 0; e < p->neqs; e++) {
    const ast_eq *q = &p->eqs[e];
    if (q->is_out || q->var != v || e == root) continue;
    if (!map_reread_copy_ok(p, q, p->eqs[root].rhs)) return -1;
    copies++;
  }
  return copies ? root : -1;
}

/* The chain rewrite's state: the program being built and isl. */
typedef struct {
  const ast_program *p;
  map_reread *r;
  isl_ctx *ctx;
  int cap_eqs, cap_exprs, cap_cons;
  int bad; /* a piece that cannot be written as an equation, or no memory */
} map_chain;

/* Returns 0 after appending equation q to r's program; -1 out of memory. */
static int map_chain_eq_add(map_chain *c, const ast_eq *q) {
  map_reread *r = c->r;
  if (r->prog.neqs == c->cap_eqs) {
    int cap = c->cap_eqs * 2 + 8;
    ast_eq *n = realloc(r->prog.eqs, (size_t)cap * sizeof *n);
    if (!n) return -1;
    r->prog.eqs = n;
    c->cap_eqs = cap;
  }
  r->prog.eqs[r->prog.neqs++] = *q;
  return 0;
}

/* Returns a new expression owned by r (a copy of x); NULL out of memory. */
static ast_expr *map_chain_expr_new(map_chain *c, const ast_expr *x) {
  map_reread *r = c->r;
  if (r->nexprs == c->cap_exprs) {
    int cap = c->cap_exprs * 2 + 8;
    ast_expr **n = realloc(r->exprs, (size_t)cap * sizeof *n);
    if (!n) return NULL;
    r->exprs = n;
    c->cap_exprs = cap;
  }
  ast_expr *e = malloc(sizeof *e);
  if (!e) return NULL;
  *e = *x;
  r->exprs[r->nexprs++] = e;
  return e;
}

/* Returns 0 after recording allocations k (constraints) and j
 * (conjunctions) in r, which frees them; -1 out of memory (both freed). */
static int map_chain_keep(map_chain *c, ast_constraint *k, ast_conj *j) {
  map_reread *r = c->r;
  if (r->ncons == c->cap_cons) {
    int cap = c->cap_cons * 2 + 8;
    ast_constraint **n = realloc(r->cons, (size_t)cap * sizeof *n);
    ast_conj **m = n ? realloc(r->conjs, (size_t)cap * sizeof *m) : NULL;
    if (n) r->cons = n;
    if (!n || !m) {
      free(k);
      free(j);
      return -1;
    }
    r->conjs = m;
    c->cap_cons = cap;
  }
  r->cons[r->ncons] = k;
  r->conjs[r->ncons++] = j;
  return 0;
}

/* Returns 0 after setting *out to integer v (taken); -1 when v is not an
 * integer. */
static int map_chain_val_int(__isl_take isl_val *v, int64_t *out) {
  int ok = v && isl_val_is_int(v);
  if (ok) *out = isl_val_get_num_si(v);
  isl_val_free(v);
  return ok ? 0 : -1;
}

/* Returns 0 after converting constraint k of a set over the program's
 * iterations into *a; -1 when it has an existential variable or a
 * coefficient that is not an integer. */
static int map_chain_constraint(const ast_program *p, __isl_keep isl_constraint *k, ast_aff *a) {
  memset(a, 0, sizeof *a);
  isl_space *sp = isl_constraint_get_space(k);
  int ndiv = (int)isl_constraint_dim(k, isl_dim_div), bad = 0;
  for (int i = 0; i < ndiv && !bad; i++) {
    isl_val *v = isl_constraint_get_coefficient_val(k, isl_dim_div, i);
    bad = !v || !isl_val_is_zero(v);
    isl_val_free(v);
  }
  for (int q = 0; q < p->nparams && !bad; q++) {
    int pos = isl_space_find_dim_by_name(sp, isl_dim_param, p->param[q]);
    if (pos >= 0)
      bad = map_chain_val_int(isl_constraint_get_coefficient_val(k, isl_dim_param, pos), &a->param[q]);
  }
  for (int d = 0; d < p->ndims && !bad; d++)
    bad = map_chain_val_int(isl_constraint_get_coefficient_val(k, isl_dim_set, d), &a->index[d]);
  if (!bad) bad = map_chain_val_int(isl_constraint_get_constant_val(k), &a->konst);
  isl_space_free(sp);
  return bad ? -1 : 0;
}

/* Returns 0 after converting aff (over the program's iterations) into *a;
 * -1 when it is not an integer affine expression without divisions. */
static int map_chain_aff(const ast_program *p, __isl_keep isl_aff *f, ast_aff *a) {
  memset(a, 0, sizeof *a);
  isl_val *den = isl_aff_get_denominator_val(f);
  int bad = !den || !isl_val_is_one(den);
  isl_val_free(den);
  int ndiv = (int)isl_aff_dim(f, isl_dim_div);
  for (int i = 0; i < ndiv && !bad; i++) {
    isl_val *v = isl_aff_get_coefficient_val(f, isl_dim_div, i);
    bad = !v || !isl_val_is_zero(v);
    isl_val_free(v);
  }
  for (int q = 0; q < p->nparams && !bad; q++) {
    int pos = isl_aff_find_dim_by_name(f, isl_dim_param, p->param[q]);
    if (pos >= 0) bad = map_chain_val_int(isl_aff_get_coefficient_val(f, isl_dim_param, pos), &a->param[q]);
  }
  for (int d = 0; d < p->ndims && !bad; d++)
    bad = map_chain_val_int(isl_aff_get_coefficient_val(f, isl_dim_in, d), &a->index[d]);
  if (!bad) bad = map_chain_val_int(isl_aff_get_constant_val(f), &a->konst);
  return bad ? -1 : 0;
}

/* Conversion of a set into a condition: the state of the callbacks. */
typedef struct {
  map_chain *c;
  ast_cond *cond;
} map_chain_cond;

/* isl callback: appends basic set b as one conjunction of the condition. */
static isl_stat map_chain_bset(__isl_take isl_basic_set *b, void *user) {
  map_chain_cond *s = user;
  const ast_program *p = s->c->p;
  isl_constraint_list *l = isl_basic_set_get_constraint_list(b);
  int n = l ? (int)isl_constraint_list_n_constraint(l) : -1;
  ast_constraint *k = n > 0 ? calloc((size_t)n, sizeof *k) : NULL;
  ast_conj *conj = realloc(s->cond->conj, (size_t)(s->cond->n + 1) * sizeof *conj);
  if (conj) s->cond->conj = conj;
  int bad = n < 0 || (n > 0 && !k) || !conj;
  for (int i = 0; i < n && !bad; i++) {
    isl_constraint *ci = isl_constraint_list_get_constraint(l, i);
    bad = map_chain_constraint(p, ci, &k[i].aff) != 0;
    k[i].is_eq = isl_constraint_is_equality(ci) == isl_bool_true;
    isl_constraint_free(ci);
  }
  isl_constraint_list_free(l);
  isl_basic_set_free(b);
  if (bad) {
    free(k);
    s->c->bad = 1;
    return isl_stat_error;
  }
  s->cond->conj[s->cond->n].n = n;
  s->cond->conj[s->cond->n++].c = k;
  return isl_stat_ok;
}

/* Returns 0 after setting *cond to set (a union of conjunctions, owned by
 * c->r); -1 when a piece cannot be written (c->bad). */
static int map_chain_cond_of(map_chain *c, __isl_take isl_set *set, ast_cond *cond) {
  memset(cond, 0, sizeof *cond);
  set = isl_set_remove_redundancies(isl_set_coalesce(set));
  map_chain_cond s = {c, cond};
  int empty = isl_set_is_empty(set) == isl_bool_true;
  isl_stat st = set && !empty ? isl_set_foreach_basic_set(set, map_chain_bset, &s) : isl_stat_error;
  isl_set_free(set);
  for (int i = 0; i < cond->n; i++)
    if (map_chain_keep(c, cond->conj[i].c, NULL)) c->bad = 1;
  if (map_chain_keep(c, NULL, cond->conj)) c->bad = 1;
  if (st < 0 || c->bad) {
    c->bad = 1;
    return -1;
  }
  return 0;
}

/* The equation template of a chain's pieces and its root's right-hand side. */
typedef struct {
  map_chain *c;
  const ast_eq *tmpl;
  const ast_expr *root;
} map_chain_piece;

/* isl callback: appends the equation of one piece: the root's input read
 * at index ma over the iterations of set. */
static isl_stat map_chain_piece_add(__isl_take isl_set *set, __isl_take isl_multi_aff *ma, void *user) {
  map_chain_piece *s = user;
  map_chain *c = s->c;
  ast_eq q = *s->tmpl;
  ast_expr x = *s->root;
  int n = (int)isl_multi_aff_dim(ma, isl_dim_out);
  for (int r = 0; r < n && !c->bad; r++) {
    isl_aff *f = isl_multi_aff_get_aff(ma, r);
    if (map_chain_aff(c->p, f, &x.idx[r])) c->bad = 1;
    isl_aff_free(f);
  }
  isl_multi_aff_free(ma);
  x.loc = s->tmpl->rhs->loc;
  if (c->bad || map_chain_cond_of(c, set, &q.cond)) {
    c->bad = 1;
    return isl_stat_error;
  }
  if (!(q.rhs = map_chain_expr_new(c, &x)) || map_chain_eq_add(c, &q)) {
    c->bad = 1;
    return isl_stat_error;
  }
  return isl_stat_ok;
}

/* Returns the map {I -> I - k d : k >= 0} over the program's iterations. */
static __isl_give isl_map *map_chain_back(map_chain *c, const int64_t *d) {
  const ast_program *p = c->p;
  char buf[2048];
  size_t n = 0;
  n += (size_t)snprintf(buf + n, sizeof buf - n, "[");
  for (int q = 0; q < p->nparams; q++) n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", q ? "," : "", p->param[q]);
  n += (size_t)snprintf(buf + n, sizeof buf - n, "] -> { [");
  for (int k = 0; k < p->ndims; k++) n += (size_t)snprintf(buf + n, sizeof buf - n, "%si%d", k ? "," : "", k);
  n += (size_t)snprintf(buf + n, sizeof buf - n, "] -> [");
  for (int k = 0; k < p->ndims; k++) n += (size_t)snprintf(buf + n, sizeof buf - n, "%so%d", k ? "," : "", k);
  n += (size_t)snprintf(buf + n, sizeof buf - n, "] : exists (kk : kk >= 0");
  for (int k = 0; k < p->ndims && n < sizeof buf; k++)
    n += (size_t)snprintf(buf + n, sizeof buf - n, " and o%d = i%d - %lld kk", k, k, (long long)d[k]);
  if (n + 4 >= sizeof buf) return NULL;
  snprintf(buf + n, sizeof buf - n, ") }");
  return isl_map_read_from_str(c->ctx, buf);
}

/* Returns 1 when variable v is a chain (roots: inputs or constants; copies
 * of one offset `off`, which leaves some input root's index changed, else
 * the plain re-read applies); *first is its first copy equation. */
static int map_chain_is(const ast_program *p, int v, int64_t *off, int *first) {
  int ncopy = 0, nroot = 0, moves = 0;
  for (int e = 0; e < p->neqs; e++) {
    const ast_eq *q = &p->eqs[e];
    if (q->is_out || q->var != v || !q->rhs) continue;
    const ast_expr *x = q->rhs;
    if (x->kind == AST_EXPR_CONST || x->kind == AST_EXPR_IN) {
      nroot++;
      continue;
    }
    if (x->kind != AST_EXPR_VAR || x->var != v) return 0;
    int nonzero = 0;
    for (int d = 0; d < AST_MAX_DIMS; d++) nonzero |= x->off[d] != 0;
    if (!nonzero || (ncopy && memcmp(off, x->off, sizeof x->off))) return 0;
    if (!ncopy++) {
      memcpy(off, x->off, sizeof x->off);
      *first = e;
    }
  }
  for (int e = 0; e < p->neqs && ncopy; e++) {
    const ast_eq *q = &p->eqs[e];
    if (q->is_out || q->var != v || !q->rhs || q->rhs->kind != AST_EXPR_IN) continue;
    for (int r = 0; r < p->arrays[q->rhs->array].ndims; r++) {
      int64_t s = 0;
      for (int d = 0; d < p->ndims; d++) s += q->rhs->idx[r].index[d] * off[d];
      moves |= s != 0;
    }
  }
  return ncopy && nroot && moves;
}

/* Returns 0 after appending v's chain equations to c->r's program (and
 * setting *done), or leaving it when v is no chain whose pieces are
 * affine; -1 out of memory. */
static int map_chain_var(map_chain *c, int v, int *done) {
  const ast_program *p = c->p;
  int64_t off[AST_MAX_DIMS];
  int first = -1;
  *done = 0;
  if (!map_chain_is(p, v, off, &first)) return 0;
  isl_set *roots = NULL, *copies = NULL;
  isl_set *sp = poly_space(c->ctx, p);
  roots = isl_set_empty(isl_set_get_space(sp));
  copies = isl_set_empty(isl_set_get_space(sp));
  isl_set_free(sp);
  for (int e = 0; e < p->neqs; e++) {
    const ast_eq *q = &p->eqs[e];
    if (q->is_out || q->var != v) continue;
    isl_set *s = poly_cond_space(c->ctx, p, &q->cond);
    if (q->rhs->kind == AST_EXPR_VAR) copies = isl_set_union(copies, s);
    else roots = isl_set_union(roots, s);
  }
  /* d = -off; every copy's predecessor I - d is an iteration of v:
   * {I - d : I in copies} = {J : J + d in copies} */
  int64_t d[AST_MAX_DIMS];
  for (int k = 0; k < AST_MAX_DIMS; k++) d[k] = -off[k];
  isl_set *preds = poly_set_preimage_shift(isl_set_copy(copies), p, d);
  isl_set *defined = isl_set_union(isl_set_copy(roots), isl_set_copy(copies));
  int ok = preds && defined && isl_set_is_subset(preds, defined) == isl_bool_true;
  isl_set_free(preds);
  isl_map *h = NULL;
  if (ok) {
    /* the first root going back: the smallest k >= 0, i.e. the
     * lexicographically largest I - k d when d's first nonzero entry is
     * positive, the smallest otherwise */
    isl_map *back = map_chain_back(c, d);
    back = isl_map_intersect_domain(back, isl_set_copy(defined));
    back = isl_map_intersect_range(back, isl_set_copy(roots));
    int dir = 0;
    for (int k = 0; k < p->ndims && !dir; k++) dir = d[k] > 0 ? 1 : d[k] < 0 ? -1 : 0;
    h = dir > 0 ? isl_map_lexmax(back) : isl_map_lexmin(back);
    isl_set *dom = h ? isl_map_domain(isl_map_copy(h)) : NULL;
    ok = dom && isl_set_is_subset(defined, dom) == isl_bool_true;
    isl_set_free(dom);
  }
  isl_set_free(defined);
  isl_set_free(copies);
  int base = c->r->prog.neqs;
  for (int e = 0; e < p->neqs && ok && !c->bad; e++) {
    const ast_eq *q = &p->eqs[e];
    if (q->is_out || q->var != v || q->rhs->kind == AST_EXPR_VAR) continue;
    isl_map *hs = isl_map_intersect_range(isl_map_copy(h), poly_cond_space(c->ctx, p, &q->cond));
    ast_eq t = p->eqs[first];
    t.rhs = q->rhs;
    if (q->rhs->kind == AST_EXPR_CONST) {
      isl_set *dom = isl_map_domain(hs);
      if (isl_set_is_empty(dom) == isl_bool_true) {
        isl_set_free(dom);
        continue;
      }
      ast_expr *x = map_chain_expr_new(c, q->rhs);
      if (!x || map_chain_cond_of(c, dom, &t.cond) || !(t.rhs = x) || map_chain_eq_add(c, &t)) c->bad = 1;
      continue;
    }
    isl_map *f = poly_index_map(c->ctx, p, q->rhs->idx, p->arrays[q->rhs->array].ndims);
    isl_pw_multi_aff *pma = isl_pw_multi_aff_coalesce(isl_pw_multi_aff_from_map(isl_map_apply_range(hs, f)));
    map_chain_piece s = {c, &t, q->rhs};
    if (!pma || isl_pw_multi_aff_foreach_piece(pma, map_chain_piece_add, &s) < 0) c->bad = 1;
    isl_pw_multi_aff_free(pma);
  }
  isl_map_free(h);
  isl_set_free(roots);
  if (!ok || c->bad) {
    c->r->prog.neqs = base; /* nothing of v added (the expressions stay owned) */
    c->bad = 0;
    return 0;
  }
  *done = 1;
  return 0;
}

/* Returns 0 after replacing the equations of every chain variable of r's
 * program (map_chain_var, sets in ctx) with their chain equations; -1 out
 * of memory. */
static int map_reread_chains(isl_ctx *ctx, map_reread *r, const ast_program *p) {
  map_chain c = {p, r, ctx, 0, p->neqs + 1, 0, 0};
  if (!c.ctx) return -1;
  ast_eq *old = r->prog.eqs;
  int nold = r->prog.neqs;
  unsigned char *chain = calloc((size_t)p->nvars + 1, 1);
  r->prog.eqs = NULL;
  r->prog.neqs = 0;
  int bad = !chain;
  for (int v = 0; v < p->nvars && !bad; v++) {
    int done = 0;
    bad = map_chain_var(&c, v, &done) != 0;
    chain[v] = (unsigned char)done;
    r->nchains += done;
  }
  for (int e = 0; e < nold && !bad; e++)
    if (old[e].is_out || !chain[old[e].var]) bad = map_chain_eq_add(&c, &old[e]) != 0;
  free(old);
  free(chain);
  return bad ? -1 : 0;
}

map_reread *map_reread_build(isl_ctx *ctx, const ast_program *p, int chains) {
  map_reread *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->prog = *p;
  r->prog.eqs = malloc((size_t)(p->neqs + 1) * sizeof *r->prog.eqs);
  r->exprs = calloc((size_t)p->neqs + 1, sizeof *r->exprs);
  if (!r->prog.eqs || !r->exprs) goto fail;
  memcpy(r->prog.eqs, p->eqs, (size_t)p->neqs * sizeof *p->eqs);
  for (int v = 0; v < p->nvars; v++) {
    int root = map_reread_root(p, v, chains);
    if (root < 0) continue;
    r->nexpr_roots += p->eqs[root].rhs->kind == AST_EXPR_OP;
    for (int e = 0; e < p->neqs; e++) {
      ast_eq *q = &r->prog.eqs[e];
      if (q->is_out || q->var != v || e == root) continue;
      ast_expr *x = malloc(sizeof *x);
      if (!x) goto fail;
      *x = *p->eqs[root].rhs;
      x->loc = q->rhs->loc;
      q->rhs = x;
      r->exprs[r->nexprs++] = x;
    }
    r->nvars++;
  }
  if (chains && (map_reread_chains(ctx, r, p) || (!r->nchains && !r->nexpr_roots))) goto fail;
  if (!r->nvars && !r->nchains) goto fail;
  return r;
fail:
  map_reread_free(r);
  return NULL;
}

/* Returns 1 when equation q is an accumulation v[I] = v[I + off] + x of
 * its own variable (off != 0, x reads no v at offset 0). */
static int map_pad_accumulates(const ast_eq *q) {
  const ast_expr *x = q->rhs;
  if (q->is_out || !x || x->kind != AST_EXPR_OP || x->op != AST_OP_ADD || x->nargs != 2) return 0;
  const ast_expr *a = x->arg[0];
  if (!a || a->kind != AST_EXPR_VAR || a->var != q->var) return 0;
  for (int d = 0; d < AST_MAX_DIMS; d++)
    if (a->off[d]) return 1;
  return 0;
}

/* Returns 1 when equation q of variable v starts an accumulation: v has
 * an accumulating equation (map_pad_accumulates) and q's right-hand side
 * is an operation other than that `+` reading no v (A[i,j] * v[i,j]). */
static int map_pad_starts(const ast_program *p, const ast_eq *q) {
  if (q->is_out || !q->rhs || q->rhs->kind != AST_EXPR_OP || map_pad_accumulates(q)) return 0;
  for (int a = 0; a < q->rhs->nargs; a++)
    if (q->rhs->arg[a] && q->rhs->arg[a]->kind == AST_EXPR_VAR && q->rhs->arg[a]->var == q->var) return 0;
  for (int e = 0; e < p->neqs; e++)
    if (!p->eqs[e].is_out && p->eqs[e].var == q->var && map_pad_accumulates(&p->eqs[e])) return 1;
  return 0;
}

map_reread *map_reread_pad(const ast_program *p) {
  map_reread *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->prog = *p;
  r->prog.eqs = malloc((size_t)(p->neqs + 1) * sizeof *r->prog.eqs);
  r->exprs = calloc((size_t)2 * p->neqs + 1, sizeof *r->exprs);
  if (!r->prog.eqs || !r->exprs) goto fail;
  memcpy(r->prog.eqs, p->eqs, (size_t)p->neqs * sizeof *p->eqs);
  for (int e = 0; e < p->neqs; e++) {
    ast_eq *q = &r->prog.eqs[e];
    if (!map_pad_starts(p, q)) continue;
    ast_expr *zero = calloc(1, sizeof *zero), *add = calloc(1, sizeof *add);
    if (zero) r->exprs[r->nexprs++] = zero;
    if (add) r->exprs[r->nexprs++] = add;
    if (!zero || !add) goto fail;
    zero->kind = AST_EXPR_CONST;
    zero->loc = q->rhs->loc;
    zero->value = 0;
    add->kind = AST_EXPR_OP;
    add->loc = q->rhs->loc;
    add->op = AST_OP_ADD;
    add->nargs = 2;
    add->arg[0] = zero;
    add->arg[1] = q->rhs;
    q->rhs = add;
    r->nvars++;
  }
  if (!r->nvars) goto fail;
  return r;
fail:
  map_reread_free(r);
  return NULL;
}

void map_reread_free(map_reread *r) {
  if (!r) return;
  for (int i = 0; i < r->nexprs; i++) free(r->exprs[i]);
  free(r->exprs);
  for (int i = 0; i < r->ncons; i++) {
    free(r->cons[i]);
    free(r->conjs[i]);
  }
  free(r->cons);
  free(r->conjs);
  free(r->prog.eqs);
  if (r->g) rdg_free(r->g);
  free(r);
}
