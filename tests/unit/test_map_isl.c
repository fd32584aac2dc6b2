/* covers: docs/symbolic.md "Sets (isl in the mapper)" */
/*
 * test_map_isl.c: the isl context of a compile (compiler/map/map_isl.c):
 * each text parsed once, each question about a pair of texts asked of isl
 * once, the texts made from pairs made once.
 *  - A table of pairs of set texts with the answers (equal, disjoint)
 *    isl gives: the context gives the same in both orders, asked again
 *    (from its memo), and asked in a new context in the other order. The
 *    table holds pairs the fingerprint must not tell apart (one set
 *    written two ways, a union split in two, parameters in another
 *    order), pairs it tells apart, pairs it cannot (different only
 *    where the parameters are not the grid's value) and sets with
 *    existentially quantified variables (no fingerprint).
 *  - Equality is an equivalence: three writings of one set are one class.
 *  - The texts it makes (coalesced, union, intersection, whether a
 *    union is convex) are what isl prints for the texts parsed anew, in
 *    a context of their own, also after questions were asked of the same
 *    texts (which may rewrite the kept sets' inner form); made twice,
 *    they are the same text.
 *  - A set a step made and printed (map_isl_set_text) is kept as the
 *    set of its text; maps and piecewise affine expressions are read
 *    once; a text that does not parse and a missing context answer 0.
 */
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/set.h>

#include "map.h"
#include "test.h"

typedef struct {
  const char *a, *b;
  int equal, disjoint;
} pair_case;

static const pair_case pairs[] = {
    /* one set, written two ways */
    {"[N] -> { [i] : 0 <= i < N }", "[N] -> { [i] : i >= 0 and N - i >= 1 }", 1, 0},
    {"[N, T] -> { [i, j] : 0 <= i < N and 0 <= j < T }", "[T, N] -> { [i, j] : 0 <= j < T and 0 <= i < N }", 1, 0},
    {"[N] -> { [i] : 0 <= i <= 1 and i < N or 2 <= i < N }", "[N] -> { [i] : 0 <= i < N }", 1, 0},
    {"[p, t] -> { [j0, k0] : 0 <= j0 < p and 0 <= k0 < t }",
     "[p, t] -> { [j0, k0] : k0 >= 0 and j0 >= 0 and t - k0 > 0 and p > j0 }", 1, 0},
    {"[N] -> { [i, j] : 0 <= i < N and j = i }", "[N] -> { [i, j] : 0 <= j < N and i - j = 0 }", 1, 0},
    /* different sets the grid tells apart */
    {"[N] -> { [i] : 0 <= i < N }", "[N] -> { [i] : 1 <= i < N }", 0, 0},
    {"[N] -> { [i] : i = 0 and N > 0 }", "[N] -> { [i] : 0 < i < N }", 0, 1},
    {"[N, T] -> { [i, j] : 0 <= i < N and 0 <= j < T and i >= j }",
     "[N, T] -> { [i, j] : 0 <= i < N and 0 <= j < T and i < j }", 0, 1},
    /* different only where N is not the grid's value: isl decides */
    {"[N] -> { [i] : 0 <= i < N and N >= 20 }", "[N] -> { [i] : 0 <= i < N and N >= 21 }", 0, 0},
    {"[N] -> { [i] : 0 <= i < N and N >= 20 }", "[N] -> { [i] : 0 <= i < N and N >= 20 and N <= 19 }", 0, 1},
    /* existentials: no fingerprint, isl decides */
    {"[N] -> { [i] : 0 <= i < N and i mod 2 = 0 }", "[N] -> { [i] : exists (a : i = 2a and 0 <= a and 2a < N) }", 1,
     0},
    {"[N] -> { [i] : 0 <= i < N and i mod 2 = 0 }", "[N] -> { [i] : 0 <= i < N and i mod 2 = 1 }", 0, 1},
    /* more dimensions than the grid takes: isl decides */
    {"{ [a, b, c, d, e, f, g, h] : 0 <= a, b, c, d, e, f, g, h <= 1 }",
     "{ [a, b, c, d, e, f, g, h] : 0 <= a, b, c, d, e, f, g <= 1 and 0 <= h < 2 }", 1, 0},
    {"{ [a, b, c, d, e, f, g, h] : 0 <= a, b, c, d, e, f, g, h <= 1 }",
     "{ [a, b, c, d, e, f, g, h] : 0 <= a, b, c, d, e, f, g, h <= 2 }", 0, 0},
};

/* Each pair: isl's answers, in both orders, again from the memo, and in
 * a new context asked the other way round first. */
static void test_pairs(void) {
  map_isl *i = map_isl_new(), *j = map_isl_new();
  TEST_CHECK(i && j, "contexts made");
  if (!i || !j) goto done;
  for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++) {
    const pair_case *c = &pairs[k];
    int eq[4] = {map_isl_set_equal(i, c->a, c->b), map_isl_set_equal(i, c->b, c->a), map_isl_set_equal(i, c->a, c->b),
                 map_isl_set_equal(j, c->b, c->a)};
    int dj[3] = {map_isl_set_disjoint(i, c->a, c->b), map_isl_set_disjoint(i, c->b, c->a),
                 map_isl_set_disjoint(j, c->a, c->b)};
    TEST_CHECK(eq[0] == c->equal && eq[1] == c->equal && eq[2] == c->equal && eq[3] == c->equal,
               "pair %zu equal: %d %d %d %d, want %d ('%s' vs '%s')", k, eq[0], eq[1], eq[2], eq[3], c->equal, c->a,
               c->b);
    TEST_CHECK(dj[0] == c->disjoint && dj[1] == c->disjoint && dj[2] == c->disjoint,
               "pair %zu disjoint: %d %d %d, want %d", k, dj[0], dj[1], dj[2], c->disjoint);
    /* isl itself, on fresh parses: the table is right */
    isl_set *x = isl_set_read_from_str(i->ctx, c->a), *y = isl_set_read_from_str(i->ctx, c->b);
    TEST_CHECK(isl_set_is_equal(x, y) == (c->equal ? isl_bool_true : isl_bool_false), "pair %zu: isl agrees", k);
    isl_set_free(x);
    isl_set_free(y);
  }
done:
  map_isl_put(i);
  map_isl_put(j);
}

/* Three writings of one set are one class; a different set is in none. */
static void test_classes(void) {
  static const char *const w[] = {"[N] -> { [i] : 0 <= i < N }", "[N] -> { [i] : N > i >= 0 }",
                                  "[N] -> { [i] : 0 <= i <= 1 and i < N or 2 <= i < N }"};
  map_isl *i = map_isl_new();
  if (!i) return;
  int ab = map_isl_set_equal(i, w[0], w[1]), bc = map_isl_set_equal(i, w[1], w[2]);
  int ca = map_isl_set_equal(i, w[2], w[0]);
  TEST_CHECK(ab && bc && ca, "three writings of one set: %d %d %d", ab, bc, ca);
  TEST_CHECK(!map_isl_set_equal(i, w[2], "[N] -> { [i] : 0 < i < N }"), "a different set is not in the class");
  TEST_CHECK(map_isl_set_equal(i, w[1], w[1]), "a text equals itself");
  map_isl_put(i);
}

typedef enum { MK_COALESCE, MK_UNION, MK_MEET, MK_CONVEX } make_kind;

typedef struct {
  make_kind kind;
  const char *a, *b;
} make_case;

static const make_case makes[] = {
    {MK_COALESCE, "[N] -> { [i] : 0 <= i <= 1 and i < N or 2 <= i < N }", NULL},
    {MK_UNION, "[N] -> { [i] : i = 0 and N > 0 }", "[N] -> { [i] : 0 < i < N }"},
    {MK_UNION, "[N] -> { [i] : 0 <= i < N }", "[N] -> { [i] : N > i >= 0 }"},
    {MK_MEET, "[p, t] -> { [j0, k0] : t > 0 and 0 <= j0 < p and 0 <= k0 < t }",
     "[p, t] -> { [j0, k0] : t > 0 and 0 <= j0 < p and 0 <= k0 < t }"},
    {MK_MEET, "[N] -> { [i] : 0 <= i < N }", "[N] -> { [i] : i = 0 and N > 0 }"},
    {MK_MEET, "[N] -> { [i] : i = 0 and N > 0 }", "[N] -> { [i] : 0 < i < N }"},
    {MK_CONVEX, "[N] -> { [i] : i = 0 and N > 0 }", "[N] -> { [i] : 0 < i < N }"},
    {MK_CONVEX, "[N] -> { [i] : i = 0 and N > 0 }", "[N] -> { [i] : 2 < i < N }"},
};

/* Returns the text (and *fig) of case c made by isl from fresh parses in
 * a context of its own: what the mapper printed before it kept texts. */
static char *make_fresh(const make_case *c, int *fig) {
  isl_ctx *ctx = isl_ctx_alloc();
  isl_set *x = isl_set_read_from_str(ctx, c->a), *u;
  char *s, *r;
  *fig = 0;
  if (c->kind == MK_COALESCE) u = x;
  else if (c->kind == MK_MEET) u = isl_set_intersect(x, isl_set_read_from_str(ctx, c->b));
  else u = isl_set_union(x, isl_set_read_from_str(ctx, c->b));
  u = isl_set_coalesce(u);
  if (c->kind == MK_MEET) *fig = isl_set_is_empty(u) == isl_bool_true;
  if (c->kind == MK_CONVEX) *fig = isl_set_n_basic_set(u) == 1;
  s = c->kind == MK_CONVEX ? NULL : isl_set_to_str(u);
  r = s ? strdup(s) : NULL;
  free(s);
  isl_set_free(u);
  isl_ctx_free(ctx);
  return r;
}

/* Returns the text (and *fig) of case c made by context i. */
static char *make_kept(map_isl *i, const make_case *c, int *fig) {
  *fig = 0;
  switch (c->kind) {
  case MK_COALESCE: return map_isl_set_coalesce_text(i, c->a);
  case MK_UNION: return map_isl_set_union_text(i, c->a, c->b);
  case MK_MEET: return map_isl_set_meet_text(i, c->a, c->b, fig);
  case MK_CONVEX: *fig = map_isl_set_union_convex(i, c->a, c->b); return NULL;
  }
  return NULL;
}

/* The made texts are isl's on fresh parses, before and after questions
 * about the same texts, and the same when made again. */
static void test_makes(void) {
  map_isl *i = map_isl_new();
  if (!i) return;
  for (int round = 0; round < 2; round++)
    for (size_t k = 0; k < sizeof makes / sizeof *makes; k++) {
      const make_case *c = &makes[k];
      if (round) { /* questions that may rewrite the kept sets' inner form */
        map_isl_set_equal(i, c->a, c->b ? c->b : c->a);
        map_isl_set_disjoint(i, c->a, c->b ? c->b : c->a);
        isl_set_is_empty(map_isl_set(i, c->a));
      }
      int fa, fb;
      char *want = make_fresh(c, &fa), *got = make_kept(i, c, &fb);
      TEST_CHECK(fa == fb && (c->kind == MK_CONVEX ? !got : got && want && !strcmp(got, want)),
                 "make %zu round %d: '%s' (%d), isl on fresh parses '%s' (%d)", k, round, got ? got : "(null)", fb,
                 want ? want : "(null)", fa);
      free(want);
      free(got);
    }
  map_isl_put(i);
}

/* A set a step printed is kept for its text; maps and pw_affs are read
 * once; bad texts and no context answer 0 or NULL. */
static void test_kept(void) {
  map_isl *i = map_isl_new();
  if (!i) return;
  isl_set *s = isl_set_read_from_str(i->ctx, "[N] -> { [i] : 0 <= i < N and i >= 0 }");
  char *t = map_isl_set_text(i, s);
  isl_set *k = map_isl_set(i, t);
  TEST_CHECK(t && k && map_isl_set(i, t) == k, "a printed set is the set of its text, kept: %s", t ? t : "(null)");
  isl_set *r = t ? isl_set_read_from_str(i->ctx, t) : NULL;
  TEST_CHECK(r && k && isl_set_is_equal(r, k) == isl_bool_true, "it is the set the text reads as");
  isl_set_free(r);
  free(t);
  const char *mt = "[N] -> { [i, j] -> [i - j] }";
  isl_map *m = map_isl_map(i, mt);
  TEST_CHECK(m && map_isl_map(i, mt) == m, "a map is read once");
  TEST_CHECK(map_isl_map_equal(i, mt, "[N] -> { [i, j] -> [a] : a + j = i }") &&
                 !map_isl_map_equal(i, mt, "[N] -> { [i, j] -> [j - i] }"),
             "maps compare by isl");
  const char *pt = "[N] -> { [(-1 + N)] : N > 0 }";
  isl_pw_aff *p = map_isl_pw_aff(i, pt);
  TEST_CHECK(p && map_isl_pw_aff(i, pt) == p, "a pw_aff is read once");
  TEST_CHECK(!map_isl_set(i, "{ [i] : i >"), "a text that does not parse has no set");
  TEST_CHECK(!map_isl_set_equal(i, "{ [i] : i >", "{ [i] : i >"), "nor is it equal to itself");
  TEST_CHECK(!map_isl_set(NULL, "{ [i] }") && !map_isl_set_equal(NULL, "{ [i] }", "{ [i] }") &&
                 !map_isl_set_union_text(NULL, "{ [i] }", "{ [i] }"),
             "no context: nothing");
  map_isl_put(i);
}

int main(void) {
  test_pairs();
  test_classes();
  test_makes();
  test_kept();
  return test_done();
}
