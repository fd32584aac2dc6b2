/* covers: docs/symbolic.md "Sets (isl in the mapper)" */
/*
 * test_map_dom.c: the mapper's sets as isl objects (compiler/map/
 * map_dom.c). A table of pairs of texts, each pair one set (or map)
 * written two ways, or two different ones: every comparison the mapper
 * makes of condition spaces (ispace: map_pst's leaves, map_sched's
 * conditional check, map_tile's input pieces; jkspace: map_pst's fd
 * destinations, map_tile's copy readers, input joins and output joins;
 * both: map_pst's distinct conditions, map_tile's duplicate edges) and of
 * index maps (map_tile's same input) says equal for the two writings of
 * one set, where comparing the texts would not; and not equal for
 * different sets. Then the parsed set is a cache: copying a dom shares
 * it, replacing a text drops it, and a config without a context compares
 * texts only.
 */
#include <stdlib.h>
#include <string.h>

#include <isl/set.h>

#include "map.h"
#include "test.h"

typedef enum { CMP_ISPACE, CMP_JKSPACE, CMP_DOM, CMP_INDEX } cmp_kind;

typedef struct {
  cmp_kind kind;
  const char *a, *b;   /* ispace / jkspace / index texts; CMP_DOM: ispace */
  const char *a2, *b2; /* CMP_DOM: the jkspaces */
  int want;
} cmp_case;

#define JK1 "[p, t] -> { [j0, k0] : 0 <= j0 < p and 0 <= k0 < t }"
#define JK1B "[p, t] -> { [j0, k0] : k0 >= 0 and j0 >= 0 and t - k0 > 0 and p > j0 }"

static const cmp_case cases[] = {
    {CMP_ISPACE, "[N] -> { [i] : 0 <= i < N }", "[N] -> { [i] : i >= 0 and N - i >= 1 }", 0, 0, 1},
    {CMP_ISPACE, "[N, T] -> { [i, j] : 0 <= i < N and 0 <= j < T }",
     "[N, T] -> { [i, j] : 0 <= j < T and 0 <= i < N }", 0, 0, 1},
    {CMP_ISPACE, "[N] -> { [i] : 0 <= i <= 1 and i < N or 2 <= i < N }", "[N] -> { [i] : 0 <= i < N }", 0, 0, 1},
    {CMP_ISPACE, "[N] -> { [i] : 0 <= i < N }", "[N] -> { [i] : 1 <= i < N }", 0, 0, 0},
    {CMP_JKSPACE, JK1, JK1B, 0, 0, 1},
    {CMP_JKSPACE, JK1, "[p, t] -> { [j0, k0] : 0 <= j0 < p and 1 <= k0 < t }", 0, 0, 0},
    {CMP_DOM, "[N] -> { [i] : 0 <= i < N }", "[N] -> { [i] : N > i >= 0 }", JK1, JK1B, 1},
    {CMP_DOM, "[N] -> { [i] : 0 <= i < N }", "[N] -> { [i] : N > i >= 0 }", JK1,
     "[p, t] -> { [j0, k0] : 0 <= j0 < p and k0 = 0 and t >= 1 }", 0},
    {CMP_INDEX, "[N] -> { [i, j] -> [i - j] }", "[N] -> { [i, j] -> [a] : a + j = i }", 0, 0, 1},
    {CMP_INDEX, "[N] -> { [i, j] -> [i - j] }", "[N] -> { [i, j] -> [j - i] }", 0, 0, 0},
};

/* Returns the comparison of case c in config m. */
static int compare(const map_config *m, const cmp_case *c) {
  map_dom a = {(char *)c->a, (char *)(c->a2 ? c->a2 : c->a), NULL, NULL};
  map_dom b = {(char *)c->b, (char *)(c->b2 ? c->b2 : c->b), NULL, NULL};
  int r = 0;
  switch (c->kind) {
  case CMP_ISPACE: r = map_dom_ispace_equal(m, &a, &b); break;
  case CMP_JKSPACE: r = map_dom_jkspace_equal(m, &a, &b); break;
  case CMP_DOM: r = map_dom_equal(m, &a, &b); break;
  case CMP_INDEX: r = map_index_equal(m, c->a, c->b); break;
  }
  isl_set_free(a.iset);
  isl_set_free(a.jkset);
  isl_set_free(b.iset);
  isl_set_free(b.jkset);
  return r;
}

/* Each pair compares as it should, in both orders; the texts of the equal
 * pairs differ (a comparison of the texts would fail them). */
static void test_equal(map_config *m) {
  static const char *const kind[] = {"ispace", "jkspace", "dom", "index"};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const cmp_case *c = &cases[i];
    int ab = compare(m, c), ba;
    cmp_case r = {c->kind, c->b, c->a, c->b2, c->a2, c->want};
    ba = compare(m, &r);
    TEST_CHECK(ab == c->want && ba == c->want, "%s %zu: '%s' vs '%s' -> %d, %d (want %d)", kind[c->kind], i, c->a,
               c->b, ab, ba, c->want);
    TEST_CHECK(strcmp(c->a, c->b) || (c->a2 && strcmp(c->a2, c->b2)), "%s %zu: the two texts differ", kind[c->kind],
               i);
  }
}

/* The parsed set is a cache of the text: parsed once, shared by a copy,
 * dropped when the text is replaced. */
static void test_cache(map_config *m) {
  map_dom d = {strdup("[N] -> { [i] : 0 <= i < N }"), strdup(JK1), NULL, NULL};
  isl_set *s = map_dom_iset(m, &d);
  TEST_CHECK(s && map_dom_iset(m, &d) == s, "the ispace is parsed once and kept");
  map_dom c = map_dom_copy(&d);
  TEST_CHECK(c.iset == s && c.ispace != d.ispace && !strcmp(c.ispace, d.ispace), "a copy shares the set, not the text");
  map_dom_ispace_set(&c, strdup("[N] -> { [i] : 1 <= i < N }"));
  TEST_CHECK(!c.iset && !map_dom_ispace_equal(m, &c, &d), "a replaced text drops its set and compares by the new one");
  map_dom_jkspace_set(&c, strdup(JK1B));
  TEST_CHECK(!c.jkset && map_dom_jkspace_equal(m, &c, &d), "a replaced jkspace compares by the new text");
  map_dom_free(&c);
  map_dom_free(&d);
  TEST_CHECK(!d.iset && !d.ispace, "freeing a dom frees its set and text");
  /* no context (a hand-made record): texts only */
  map_config none;
  memset(&none, 0, sizeof none);
  TEST_CHECK(compare(&none, &cases[0]) == 0 && compare(&none, &(cmp_case){CMP_ISPACE, "{ [i] }", "{ [i] }", 0, 0, 1}),
             "without a context only identical texts are equal");
}

int main(void) {
  map_config m;
  memset(&m, 0, sizeof m);
  m.isl = map_isl_new();
  TEST_CHECK(m.isl && m.isl->refs == 1, "a new context has one reference");
  if (m.isl) {
    test_equal(&m);
    test_cache(&m);
  }
  map_isl_put(m.isl);
  return test_done();
}
