/*
 * poly.h: the program's sets as isl objects. The parameters of the program
 * become isl parameters (named as in the program), the indices become the
 * set dimensions i0..i{n-1} (named as in the program), so that every set
 * holds for all parameter values at once. Every set is intersected with
 * the parameter domain (each parameter >= 1 and the parameter-only
 * constraints of `par`).
 */
#ifndef TCPA_POLY_H
#define TCPA_POLY_H

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>

#include "ast.h"

/* Returns the parameter domain: a set with no dimensions, only parameters. */
__isl_give isl_set *poly_param_domain(isl_ctx *ctx, const ast_program *p);

/* Returns the iteration space of `par`. */
__isl_give isl_set *poly_space(isl_ctx *ctx, const ast_program *p);

/* Returns the iterations of the space that satisfy `cond`. */
__isl_give isl_set *poly_cond_space(isl_ctx *ctx, const ast_program *p,
                                    const ast_cond *cond);

/* Returns the map from iterations to array elements given by the affine
 * index expressions idx[0..ndims-1] (an isl_multi_aff wrapped as a map). */
__isl_give isl_map *poly_index_map(isl_ctx *ctx, const ast_program *p,
                                   const ast_aff *idx, int ndims);

/* Returns the box of an array's elements: 0 <= e_k < extent_k. */
__isl_give isl_set *poly_array_box(isl_ctx *ctx, const ast_program *p,
                                   const ast_array *a);

/* Returns `set` with its parameters fixed to the given values. */
__isl_give isl_set *poly_set_fix_params(__isl_take isl_set *set,
                                        const ast_program *p,
                                        const int64_t *params);

/* Returns the translation {I -> I + off} of the iteration space's
 * dimensions (off has one entry per index). */
__isl_give isl_map *poly_translate_map(isl_ctx *ctx, const ast_program *p,
                                       const int64_t *off);

/* Returns {I : I + off in set} for a set of iterations. */
__isl_give isl_set *poly_set_preimage_shift(__isl_take isl_set *set,
                                            const ast_program *p,
                                            const int64_t *off);

#endif
