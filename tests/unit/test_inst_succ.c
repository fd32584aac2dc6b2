/* covers: docs/instantiate.md "What each step computes",
 *   docs/stream.md "GC payload" */
/*
 * test_inst_succ.c: the successor map of instantiation (inst_succ in
 * compiler/inst/inst_concretize.c): succ(S, n) moves every iteration n steps on
 * in the scan order's mixed radix (the slowest dimension unbounded, as the
 * GC counts epilog steps), and predecessors for n < 0. It must be exact and
 * free of existential variables (the GC's terms and the AG enables cannot
 * express them, docs/stream.md). Checked against enumeration: for 1-D to
 * 3-D extents, several scan orders, sets (boxes, a triangle, a diagonal, a
 * union) and n = -E-1..2E+1, the result holds exactly the points s^-1(s(J) + n)
 * of the points J of the set (within a window of the slowest dimension)
 * and no basic set of it has a div.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include "inst.h"
#include "test.h"

#define WIN 12 /* the slowest dimension is enumerated over 0..WIN-1 */

/* Returns 1 when no basic set of s has a div. */
static isl_stat no_div(__isl_take isl_basic_set *bs, void *user) {
  int *ok = user;
  if (isl_basic_set_dim(bs, isl_dim_div) > 0) *ok = 0;
  isl_basic_set_free(bs);
  return isl_stat_ok;
}

/* Returns s(J) of point J for extents/order of x. */
static int64_t seq_of(const inst *x, const int64_t *J) {
  int64_t s = 0;
  for (int k = 0; k < x->n; k++) s += x->seq[k] * J[k];
  return s;
}

/* Fills J from sequence number s (s >= 0). */
static void unseq(const inst *x, int64_t s, int64_t *J) {
  for (int r = 0; r < x->n; r++) {
    int d = x->m->order[r];
    if (r == x->n - 1) J[d] = s;
    else {
      J[d] = s % x->E[d];
      s /= x->E[d];
    }
  }
}

/* Returns 1 when point J (n coordinates) is in set s. */
static int has(const inst *x, __isl_keep isl_set *s, const int64_t *J) {
  isl_set *p = isl_set_copy(s);
  for (int k = 0; k < x->n; k++) p = isl_set_fix_si(p, isl_dim_set, (unsigned)k, (int)J[k]);
  int r = isl_set_is_empty(p) == isl_bool_false;
  isl_set_free(p);
  return r;
}

/* Returns 1 when succ(S, n) agrees with enumeration (prints a witness). */
static int check_one(const inst *x, const char *text, int64_t n) {
  isl_set *s = isl_set_read_from_str(x->ctx, text);
  isl_set *r = inst_succ(x, isl_set_copy(s), n);
  int ok = r != NULL, nodiv = 1;
  if (r) isl_set_foreach_basic_set(r, no_div, &nodiv);
  int64_t box = 1;
  for (int r2 = 0; r2 < x->n - 1; r2++) box *= x->E[x->m->order[r2]];
  int64_t total = box * WIN;
  for (int64_t q = 0; q < total && ok; q++) { /* every target point of the window */
    int64_t J[AST_MAX_DIMS], src[AST_MAX_DIMS];
    unseq(x, q, J);
    int want = 0;
    if (q - n >= 0) {
      unseq(x, q - n, src);
      want = has(x, s, src);
    }
    if (has(x, r, J) != want) {
      printf("# %s, n = %lld: target s = %lld %s\n", text, (long long)n, (long long)q,
             want ? "missing" : "extra");
      ok = 0;
    }
  }
  (void)seq_of;
  isl_set_free(s);
  isl_set_free(r);
  return ok && nodiv;
}

/* Runs the sets over extents E (n dims) in scan order ord. */
static void check_case(isl_ctx *ctx, int nd, const int64_t *E, const int *ord, const char *const *sets,
                       int nsets) {
  map_config m;
  memset(&m, 0, sizeof m);
  m.ndims = nd;
  memcpy(m.order, ord, (size_t)nd * sizeof *ord);
  inst x;
  memset(&x, 0, sizeof x);
  x.ctx = ctx;
  x.m = &m;
  x.n = nd;
  int64_t w = 1;
  for (int r = 0; r < nd; r++) {
    x.E[ord[r]] = E[ord[r]];
    x.seq[ord[r]] = w;
    w *= E[ord[r]];
  }
  /* with inst_succ's memo: the first INST_SUCC_MEMO values of n are
   * built for the first set and reused for the others; the rest are
   * built anew every time */
  inst_succ_memo memo;
  memset(&memo, 0, sizeof memo);
  x.succ_memo = &memo;
  for (int i = 0; i < nsets; i++) {
    int ok = 1;
    int64_t span = E[ord[0]] * 2 + 2;
    for (int64_t n = -span; n <= span && ok; n++) ok = check_one(&x, sets[i], n);
    TEST_CHECK(ok, "%dD, extents %lld.., order %d..: succ(%s, n) exact and without divs%s", nd,
               (long long)E[0], ord[0], sets[i], i ? " (maps from the memo)" : "");
  }
  TEST_CHECK(memo.count == INST_SUCC_MEMO, "the memo holds %d maps (want %d)", memo.count, INST_SUCC_MEMO);
  for (int i = 0; i < memo.count; i++) isl_map_free(memo.map[i]);
}

int main(void) {
  isl_ctx *ctx = isl_ctx_alloc();
  {
    int64_t E[1] = {5};
    int ord[1] = {0};
    const char *s[] = {"{ [a] : 0 <= a < 5 }", "{ [a] : a = 2 or a = 7 }"};
    check_case(ctx, 1, E, ord, s, 2);
  }
  {
    int64_t E[2] = {5, 4};
    int ord[2] = {0, 1};
    const char *s[] = {"{ [a, b] : 0 <= a < 5 and 0 <= b < 4 }", "{ [a, b] : 0 <= b <= a < 5 }",
                       "{ [a, b] : a = 4 and 0 <= b < 3 }", "{ [a, b] : 1 <= a <= 3 and b = 2 or a = 0 and b = 0 }"};
    check_case(ctx, 2, E, ord, s, 4);
  }
  {
    int64_t E[2] = {3, 6};
    int ord[2] = {1, 0};
    const char *s[] = {"{ [a, b] : 0 <= a < 3 and 0 <= b < 6 }", "{ [a, b] : 0 <= a < 3 and b = 5 }"};
    check_case(ctx, 2, E, ord, s, 2);
  }
  {
    int64_t E[3] = {2, 3, 4};
    int ord[3] = {1, 2, 0};
    const char *s[] = {"{ [a, b, c] : 0 <= a < 2 and 0 <= b < 3 and 0 <= c < 4 }",
                       "{ [a, b, c] : a = 0 and b = 2 and 1 <= c <= 3 }", "{ [a, b, c] : 0 <= c <= b < 3 and a = 1 }"};
    check_case(ctx, 3, E, ord, s, 3);
  }
  isl_ctx_free(ctx);
  return test_done();
}
