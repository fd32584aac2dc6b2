/* covers: docs/regress.md "The daily options" */
/*
 * test_regress_list.c: table-driven tests of the run list of `tcpa
 * regress` (regress/regress_list.c, docs/regress.md "The daily
 * options"): regress_list_filter keeps the runs whose id matches one of
 * the --filter globs (all when none) and none of the --exclude globs, in
 * order, and frees the others.
 */
#include <stdio.h>
#include <string.h>

#include "regress.h"
#include "test.h"

static const char *const ids[] = {"fir_N9-T3_1x1_model_big1d_s1", "fir_N9-T3_1x2_cosim_big1d_s1",
                                   "matmul_N2_1x1_model_default_s9007199254740993", "bitextract_N13_1x2_model_default_s2",
                                   "bitextract_N13_1x2_model_default_s3"};

/* One selection: globs and the indices of ids kept, as "0 2 ". */
typedef struct {
  const char *keep[3], *drop[3];
  int nkeep, ndrop;
  const char *want;
} filter_case;

static const filter_case cases[] = {
    {{NULL}, {NULL}, 0, 0, "0 1 2 3 4 "},
    {{"fir_*"}, {NULL}, 1, 0, "0 1 "},
    {{"fir_*", "matmul_*"}, {NULL}, 2, 0, "0 1 2 "},
    {{NULL}, {"*_cosim_*"}, 0, 1, "0 2 3 4 "},
    {{NULL}, {"*_cosim_*", "bitextract_*_s[23]"}, 0, 2, "0 2 "},
    {{"*_1x2_*"}, {"*_s3"}, 1, 1, "1 3 "},
    {{"*_s9007199254740993"}, {NULL}, 1, 0, "2 "},
    {{"fir_N9-T3_1x?_model_big1d_s1"}, {NULL}, 1, 0, "0 "},
    {{"nosuch*"}, {NULL}, 1, 0, ""},
    {{"*"}, {"*"}, 1, 1, ""},
    {{"FIR_*"}, {NULL}, 1, 0, ""}, /* case-sensitive */
};

/* Checks one selection on a fresh list of the ids. */
static void test_filter(const filter_case *c) {
  regress_list l = {0};
  for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
    regress_run *r = regress_list_add(&l);
    r->id = regress_strdup(ids[i]);
    r->seed = i;
  }
  size_t kept = regress_list_filter(&l, c->keep, c->nkeep, c->drop, c->ndrop);
  char got[64] = "";
  for (size_t i = 0; i < l.n; i++) snprintf(got + strlen(got), sizeof got - strlen(got), "%d ", (int)l.v[i].seed);
  TEST_CHECK(kept == l.n && !strcmp(got, c->want), "filter %s%s exclude %s%s: kept '%s' (want '%s')",
             c->nkeep ? c->keep[0] : "-", c->nkeep > 1 ? ",..." : "", c->ndrop ? c->drop[0] : "-",
             c->ndrop > 1 ? ",..." : "", got, c->want);
  regress_list_free(&l);
}

int main(void) {
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) test_filter(&cases[i]);
  return test_done();
}
