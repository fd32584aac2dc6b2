/* covers: docs/language.md "The iteration space",
 *   docs/symbolic.md "What each step computes" */
/*
 * test_poly.c: the ast -> isl conversion of poly.h. Programs are built by
 * hand (so the test does not depend on the parser) and every set is
 * compared with the same set written in isl's own notation.
 */
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "poly.h"
#include "test.h"

/* Returns a program with parameters `params` (comma-free names) and
 * indices `idx`, and no constraints yet. */
static ast_program *prog_new(int np, const char **params, int nd,
                             const char **idx) {
  ast_program *p = calloc(1, sizeof *p);
  p->nparams = np;
  for (int k = 0; k < np; k++) p->param[k] = strdup(params[k]);
  p->ndims = nd;
  for (int d = 0; d < nd; d++) p->index[d] = strdup(idx[d]);
  return p;
}

/* Returns `conj` with one more constraint: sum(pc*P) + sum(ic*I) + k >= 0
 * (== 0 when is_eq). */
static void conj_add(ast_conj *conj, const int64_t *pc, const int64_t *ic,
                     int64_t k, int is_eq) {
  conj->c = realloc(conj->c, (size_t)(conj->n + 1) * sizeof *conj->c);
  ast_constraint *c = &conj->c[conj->n++];
  memset(c, 0, sizeof *c);
  for (int i = 0; i < AST_MAX_PARAMS; i++) c->aff.param[i] = pc ? pc[i] : 0;
  for (int i = 0; i < AST_MAX_DIMS; i++) c->aff.index[i] = ic ? ic[i] : 0;
  c->aff.konst = k;
  c->is_eq = is_eq;
}

/* Returns 1 when `got` equals the set written as `want` (frees `got`). */
static int set_is(isl_ctx *ctx, isl_set *got, const char *want) {
  isl_set *w = isl_set_read_from_str(ctx, want);
  isl_bool eq = isl_set_is_equal(got, w);
  if (eq != isl_bool_true) {
    char *s = isl_set_to_str(got);
    printf("#   got  %s\n#   want %s\n", s, want);
    free(s);
  }
  isl_set_free(w);
  isl_set_free(got);
  return eq == isl_bool_true;
}

/* Returns 1 when `got` equals the map written as `want` (frees `got`). */
static int map_is(isl_ctx *ctx, isl_map *got, const char *want) {
  isl_map *w = isl_map_read_from_str(ctx, want);
  isl_bool eq = isl_map_is_equal(got, w);
  if (eq != isl_bool_true) {
    char *s = isl_map_to_str(got);
    printf("#   got  %s\n#   want %s\n", s, want);
    free(s);
  }
  isl_map_free(w);
  isl_map_free(got);
  return eq == isl_bool_true;
}

/* The triangle 0 <= i < N, 0 <= j <= i, with the parameter constraint
 * N >= 3 (and M unconstrained but >= 1). */
static void test_triangle(isl_ctx *ctx) {
  const char *par[] = {"N", "M"}, *idx[] = {"i", "j"};
  ast_program *p = prog_new(2, par, 2, idx);
  conj_add(&p->space, NULL, (int64_t[AST_MAX_DIMS]){1, 0}, 0, 0);       /* i >= 0 */
  conj_add(&p->space, (int64_t[AST_MAX_DIMS]){1}, (int64_t[AST_MAX_DIMS]){-1, 0}, -1, 0); /* N-i-1 >= 0 */
  conj_add(&p->space, NULL, (int64_t[AST_MAX_DIMS]){0, 1}, 0, 0);       /* j >= 0 */
  conj_add(&p->space, NULL, (int64_t[AST_MAX_DIMS]){1, -1}, 0, 0);      /* i-j >= 0 */
  conj_add(&p->param_space, (int64_t[AST_MAX_DIMS]){1}, NULL, -3, 0);   /* N >= 3 */

  TEST_CHECK(set_is(ctx, poly_param_domain(ctx, p),
                    "[N, M] -> { : N >= 3 and M >= 1 }"),
             "param domain: N >= 3, M >= 1");
  TEST_CHECK(set_is(ctx, poly_space(ctx, p),
                    "[N, M] -> { [i, j] : 0 <= j <= i < N and N >= 3 and M >= 1 }"),
             "triangle iteration space");

  isl_set *s = poly_set_fix_params(poly_space(ctx, p), p, (int64_t[AST_MAX_DIMS]){4, 7});
  TEST_CHECK(set_is(ctx, s, "[N, M] -> { [i, j] : N = 4 and M = 7 and 0 <= j <= i < 4 }"),
             "fixed parameters give the concrete triangle");
  s = poly_set_fix_params(poly_space(ctx, p), p, (int64_t[AST_MAX_DIMS]){2, 1});
  TEST_CHECK(isl_set_is_empty(s) == isl_bool_true,
             "parameters outside the domain (N = 2) give the empty set");
  isl_set_free(s);

  /* condition: i == 0 or (j >= 1 and j != i, split as j < i) */
  ast_cond cond = {0};
  cond.n = 2;
  cond.conj = calloc(2, sizeof *cond.conj);
  conj_add(&cond.conj[0], NULL, (int64_t[AST_MAX_DIMS]){1, 0}, 0, 1);
  conj_add(&cond.conj[1], NULL, (int64_t[AST_MAX_DIMS]){0, 1}, -1, 0);
  conj_add(&cond.conj[1], NULL, (int64_t[AST_MAX_DIMS]){1, -1}, -1, 0);
  TEST_CHECK(set_is(ctx, poly_cond_space(ctx, p, &cond),
                    "[N, M] -> { [i, j] : N >= 3 and M >= 1 and 0 <= j <= i < N and "
                    "(i = 0 or 1 <= j < i) }"),
             "condition space is a union inside the space");
  for (int i = 0; i < cond.n; i++) free(cond.conj[i].c);
  free(cond.conj);
  ast_cond none = {0};
  TEST_CHECK(set_is(ctx, poly_cond_space(ctx, p, &none),
                    "[N, M] -> { [i, j] : 0 <= j <= i < N and N >= 3 and M >= 1 }"),
             "no condition: the whole space");

  ast_aff ix[2] = {{.konst = 0}};
  ix[0].index[1] = 1;                         /* j */
  ix[1].index[0] = 2; ix[1].param[0] = -1;    /* 2i - N + 5 */
  ix[1].konst = 5;
  TEST_CHECK(map_is(ctx, poly_index_map(ctx, p, ix, 2),
                    "[N, M] -> { [i, j] -> [j, 2i - N + 5] : N >= 3 and M >= 1 }"),
             "index map [j, 2i-N+5]");
  TEST_CHECK(map_is(ctx, poly_index_map(ctx, p, ix, 0),
                    "[N, M] -> { [i, j] -> [] : N >= 3 and M >= 1 }"),
             "index map of a scalar");

  ast_array a = {.name = "A", .kind = AST_ARRAY_IN, .ndims = 2};
  a.extent[0].param[0] = 1;                   /* N */
  a.extent[1].param[1] = 2; a.extent[1].konst = 1; /* 2M+1 */
  TEST_CHECK(set_is(ctx, poly_array_box(ctx, p, &a),
                    "[N, M] -> { [a, b] : 0 <= a < N and 0 <= b <= 2M and N >= 3 and M >= 1 }"),
             "array box [N, 2M+1]");

  TEST_CHECK(map_is(ctx, poly_translate_map(ctx, p, (int64_t[AST_MAX_DIMS]){-1, 2}),
                    "[N, M] -> { [i, j] -> [i - 1, j + 2] : N >= 3 and M >= 1 }"),
             "translation by (-1, 2)");
  TEST_CHECK(set_is(ctx, poly_set_preimage_shift(poly_space(ctx, p), p, (int64_t[AST_MAX_DIMS]){-1, 0}),
                    "[N, M] -> { [i, j] : 0 <= j <= i - 1 < N and N >= 3 and M >= 1 }"),
             "preimage of the space under a shift by (-1, 0)");
  ast_program_free(p);
}

/* Large coefficients are carried exactly (no truncation to int). */
static void test_big_coefficients(isl_ctx *ctx) {
  const char *par[] = {"N"}, *idx[] = {"i"};
  ast_program *p = prog_new(1, par, 1, idx);
  conj_add(&p->space, NULL, (int64_t[AST_MAX_DIMS]){1}, 0, 0);
  conj_add(&p->space, (int64_t[AST_MAX_DIMS]){1}, (int64_t[AST_MAX_DIMS]){-1}, -1, 0);
  conj_add(&p->param_space, (int64_t[AST_MAX_DIMS]){-1}, NULL, 10000000000LL, 0); /* N <= 1e10 */
  TEST_CHECK(set_is(ctx, poly_param_domain(ctx, p),
                    "[N] -> { : 1 <= N <= 10000000000 }"),
             "64-bit constant in a parameter constraint");
  isl_set *s = poly_set_fix_params(poly_space(ctx, p), p, (int64_t[AST_MAX_DIMS]){5000000000LL});
  TEST_CHECK(set_is(ctx, s, "[N] -> { [i] : N = 5000000000 and 0 <= i < 5000000000 }"),
             "64-bit parameter value fixed exactly");
  ast_program_free(p);
}

/* A program with no parameters. */
static void test_no_params(isl_ctx *ctx) {
  const char *idx[] = {"i"};
  ast_program *p = prog_new(0, NULL, 1, idx);
  conj_add(&p->space, NULL, (int64_t[AST_MAX_DIMS]){1}, 0, 0);
  conj_add(&p->space, NULL, (int64_t[AST_MAX_DIMS]){-1}, 3, 0);
  TEST_CHECK(set_is(ctx, poly_space(ctx, p), "{ [i] : 0 <= i <= 3 }"),
             "space without parameters");
  ast_program_free(p);
}

int main(void) {
  isl_ctx *ctx = isl_ctx_alloc();
  test_triangle(ctx);
  test_big_coefficients(ctx);
  test_no_params(ctx);
  isl_ctx_free(ctx);
  return test_done();
}
