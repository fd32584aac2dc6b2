/*
 * poly.c: the program's sets as isl objects (poly.h).
 *
 * Every set is built directly from the coefficient vectors of ast.h as an
 * isl_basic_set (or isl_basic_map) of isl_constraints, so int64
 * coefficients are carried exactly (isl_val_int_from_si). Spaces have the
 * program's parameters as isl parameters 0..nparams-1 and the indices as set
 * dimensions 0..ndims-1, all named as in the program; isl interns names
 * into ids per context, so sets built separately line up. Array elements
 * are unnamed set dimensions. Every set and map is intersected with the
 * parameter domain (each parameter >= 1, plus the parameter-only
 * constraints of `par`).
 */
#include "poly.h"

#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/space.h>
#include <isl/val.h>

/* Returns `space` with its parameters named as the program's. */
static __isl_give isl_space *poly_space_name_params(__isl_take isl_space *space,
                                                    const ast_program *p) {
  for (int k = 0; k < p->nparams && space; k++)
    space = isl_space_set_dim_name(space, isl_dim_param, k, p->param[k]);
  return space;
}

/* Returns a set space with the program's parameters and `ndims` dimensions,
 * named as the program's indices when `named` is set. */
static __isl_give isl_space *poly_set_space(isl_ctx *ctx, const ast_program *p,
                                            int ndims, int named) {
  isl_space *space = isl_space_set_alloc(ctx, p->nparams, ndims);
  space = poly_space_name_params(space, p);
  for (int d = 0; named && d < ndims && space; d++)
    space = isl_space_set_dim_name(space, isl_dim_set, d, p->index[d]);
  return space;
}

/* Returns `c` with the coefficients of `a`: parameters at parameter
 * positions, indices at positions of dimension type `itype`. */
static __isl_give isl_constraint *poly_constraint_set_aff(
    __isl_take isl_constraint *c, const ast_program *p, const ast_aff *a,
    enum isl_dim_type itype, int ndims) {
  isl_ctx *ctx;
  if (!c) return NULL;
  ctx = isl_constraint_get_ctx(c);
  for (int k = 0; k < p->nparams && c; k++)
    if (a->param[k])
      c = isl_constraint_set_coefficient_val(
          c, isl_dim_param, k, isl_val_int_from_si(ctx, (long)a->param[k]));
  for (int d = 0; d < ndims && c; d++)
    if (a->index[d])
      c = isl_constraint_set_coefficient_val(
          c, itype, d, isl_val_int_from_si(ctx, (long)a->index[d]));
  if (c && a->konst)
    c = isl_constraint_set_constant_val(c,
                                        isl_val_int_from_si(ctx, (long)a->konst));
  return c;
}

/* Returns `bset` with the constraint `con` (over parameters and the set
 * dimensions) added. */
static __isl_give isl_basic_set *poly_bset_add(__isl_take isl_basic_set *bset,
                                               const ast_program *p,
                                               const ast_constraint *con) {
  isl_local_space *ls;
  isl_constraint *c;
  int ndims;
  if (!bset) return NULL;
  ndims = (int)isl_basic_set_dim(bset, isl_dim_set);
  ls = isl_local_space_from_space(isl_basic_set_get_space(bset));
  c = con->is_eq ? isl_constraint_alloc_equality(ls)
                 : isl_constraint_alloc_inequality(ls);
  c = poly_constraint_set_aff(c, p, &con->aff, isl_dim_set, ndims);
  if (!c) goto error;
  return isl_basic_set_add_constraint(bset, c);
error:
  isl_basic_set_free(bset);
  return NULL;
}

/* Returns the set of `space` satisfying the conjunction `conj`. */
static __isl_give isl_set *poly_conj_set(__isl_take isl_space *space,
                                         const ast_program *p,
                                         const ast_conj *conj) {
  isl_basic_set *bset = isl_basic_set_universe(space);
  for (int i = 0; i < conj->n && bset; i++)
    bset = poly_bset_add(bset, p, &conj->c[i]);
  return isl_set_from_basic_set(bset);
}

__isl_give isl_set *poly_param_domain(isl_ctx *ctx, const ast_program *p) {
  isl_space *space = poly_set_space(ctx, p, 0, 0);
  isl_basic_set *bset = isl_basic_set_universe(space);
  for (int k = 0; k < p->nparams && bset; k++) {
    ast_constraint ge1 = {.aff = {.konst = -1}, .is_eq = 0};
    ge1.aff.param[k] = 1;
    bset = poly_bset_add(bset, p, &ge1);
  }
  for (int i = 0; i < p->param_space.n && bset; i++)
    bset = poly_bset_add(bset, p, &p->param_space.c[i]);
  return isl_set_params(isl_set_from_basic_set(bset));
}

__isl_give isl_set *poly_space(isl_ctx *ctx, const ast_program *p) {
  isl_set *set = poly_conj_set(poly_set_space(ctx, p, p->ndims, 1), p, &p->space);
  return isl_set_intersect_params(set, poly_param_domain(ctx, p));
}

/* An empty disjunction (cond->n == 0) is taken as "no condition", like the
 * one empty conjunction the parser builds for an equation without `if`:
 * the language cannot spell a condition that is false by having no terms. */
__isl_give isl_set *poly_cond_space(isl_ctx *ctx, const ast_program *p,
                                    const ast_cond *cond) {
  isl_set *space = poly_space(ctx, p);
  isl_set *u;
  if (!space) return NULL;
  if (cond->n == 0) return space;
  u = isl_set_empty(isl_set_get_space(space));
  for (int i = 0; i < cond->n && u; i++)
    u = isl_set_union(u, poly_conj_set(isl_set_get_space(space), p,
                                       &cond->conj[i]));
  return isl_set_coalesce(isl_set_intersect(u, space));
}

__isl_give isl_map *poly_index_map(isl_ctx *ctx, const ast_program *p,
                                   const ast_aff *idx, int ndims) {
  isl_space *space = isl_space_alloc(ctx, p->nparams, p->ndims, ndims);
  isl_basic_map *bmap;
  space = poly_space_name_params(space, p);
  for (int d = 0; d < p->ndims && space; d++)
    space = isl_space_set_dim_name(space, isl_dim_in, d, p->index[d]);
  bmap = isl_basic_map_universe(space);
  for (int k = 0; k < ndims && bmap; k++) {
    isl_local_space *ls = isl_local_space_from_space(isl_basic_map_get_space(bmap));
    isl_constraint *c = isl_constraint_alloc_equality(ls);
    c = poly_constraint_set_aff(c, p, &idx[k], isl_dim_in, p->ndims);
    c = isl_constraint_set_coefficient_si(c, isl_dim_out, k, -1);
    if (!c) goto error;
    bmap = isl_basic_map_add_constraint(bmap, c);
  }
  return isl_map_intersect_params(isl_map_from_basic_map(bmap),
                                  poly_param_domain(ctx, p));
error:
  isl_basic_map_free(bmap);
  return NULL;
}

__isl_give isl_set *poly_array_box(isl_ctx *ctx, const ast_program *p,
                                   const ast_array *a) {
  isl_basic_set *bset = isl_basic_set_universe(poly_set_space(ctx, p, a->ndims, 0));
  for (int k = 0; k < a->ndims && bset; k++) {
    ast_constraint lo = {.is_eq = 0}, hi = {.aff = a->extent[k], .is_eq = 0};
    lo.aff.index[k] = 1;  /* e_k >= 0 */
    for (int d = 0; d < AST_MAX_DIMS; d++) hi.aff.index[d] = 0;
    hi.aff.index[k] = -1; /* extent_k - e_k - 1 >= 0 */
    hi.aff.konst -= 1;
    bset = poly_bset_add(bset, p, &lo);
    bset = poly_bset_add(bset, p, &hi);
  }
  return isl_set_intersect_params(isl_set_from_basic_set(bset),
                                  poly_param_domain(ctx, p));
}

__isl_give isl_set *poly_set_fix_params(__isl_take isl_set *set,
                                        const ast_program *p,
                                        const int64_t *params) {
  for (int k = 0; k < p->nparams && set; k++) {
    int pos = isl_set_find_dim_by_name(set, isl_dim_param, p->param[k]);
    if (pos < 0) continue;
    set = isl_set_fix_val(set, isl_dim_param, (unsigned)pos,
                          isl_val_int_from_si(isl_set_get_ctx(set),
                                              (long)params[k]));
  }
  return set;
}

__isl_give isl_map *poly_translate_map(isl_ctx *ctx, const ast_program *p,
                                       const int64_t *off) {
  isl_space *space = poly_set_space(ctx, p, p->ndims, 1);
  isl_basic_map *bmap;
  space = isl_space_map_from_set(space);
  bmap = isl_basic_map_universe(space);
  for (int d = 0; d < p->ndims && bmap; d++) {
    isl_local_space *ls = isl_local_space_from_space(isl_basic_map_get_space(bmap));
    isl_constraint *c = isl_constraint_alloc_equality(ls);
    /* out_d - in_d - off_d == 0 */
    c = isl_constraint_set_coefficient_si(c, isl_dim_out, d, 1);
    c = isl_constraint_set_coefficient_si(c, isl_dim_in, d, -1);
    if (c && off[d])
      c = isl_constraint_set_constant_val(c, isl_val_int_from_si(ctx, (long)-off[d]));
    if (!c) goto error;
    bmap = isl_basic_map_add_constraint(bmap, c);
  }
  return isl_map_intersect_params(isl_map_from_basic_map(bmap),
                                  poly_param_domain(ctx, p));
error:
  isl_basic_map_free(bmap);
  return NULL;
}

__isl_give isl_set *poly_set_preimage_shift(__isl_take isl_set *set,
                                            const ast_program *p,
                                            const int64_t *off) {
  isl_map *t;
  if (!set) return NULL;
  t = poly_translate_map(isl_set_get_ctx(set), p, off);
  /* {I : I + off in set} is set translated by -off */
  return isl_set_apply(set, isl_map_reverse(t));
}
