/* covers: docs/explore.md "The space", "The workload", "The Pareto front", "Area" */
/*
 * test_explore.c: unit tests of the files and the answer of `tcpa explore`
 * (explore.h).
 *
 * Table-driven: each space case is a text, parsed; the table says whether
 * it parses, a piece of the first message (file:line:col), the number of
 * axes and points, and the values of the first axis. The points' INI of
 * one space are loaded back and carry their values. Each workload case is
 * a text with the same kind of expectations. Each Pareto case is a set of
 * points (area, cycles, fits every entry) and the front it must give.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "explore.h"
#include "test.h"

static char captured[4096];

/* Runs the parser of space (kind 0) or workload (kind 1) on text with its
 * stderr captured into `captured`; returns its status. */
static int parse_captured(int kind, const char *text, explore_space *s, explore_workload *w) {
  FILE *cap = tmpfile();
  fflush(stderr);
  int saved = dup(2);
  dup2(fileno(cap), 2);
  int rc = kind == 0 ? explore_space_parse("s.space", text, s) : explore_workload_parse("w.wl", text, w);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(cap);
  size_t n = fread(captured, 1, sizeof captured - 1, cap);
  captured[n] = '\0';
  fclose(cap);
  return rc;
}

typedef struct {
  const char *name, *text;
  int ok;
  const char *msg;   /* a piece of stderr */
  int naxes;
  size_t points;
  int nv, v[6];      /* the first axis's values */
} space_case;

static const space_case space_cases[] = {
    {"empty space: one point, the base", "", 1, NULL, 0, 1, 0, {0}},
    {"a list", "[pe]\nalu = 1,2,4\n", 1, NULL, 1, 3, 3, {1, 2, 4}},
    {"a range", "[pe]\nrd = 2..5\n", 1, NULL, 1, 4, 4, {2, 3, 4, 5}},
    {"list and range mixed, blanks", "[iobuf]\ndepth = 64 , 256..258\n", 1, NULL, 1, 4, 4, {64, 256, 257, 258}},
    {"cross product of three keys", "[array]\ncols = 1..2\n[pe]\nalu=1,2\n[latency]\nmul : 1..3 ; c\n", 1, NULL, 3,
     12, 2, {1, 2}},
    {"a single value", "[interconnect]\nports = 2\n", 1, NULL, 1, 1, 1, {2}},
    {"comments and blank lines", "# top\n\n[gc]\n; c\ndims = 2..3 # inline\n", 1, NULL, 1, 2, 2, {2, 3}},
    {"unknown key", "[pe]\nalus = 1\n", 0, "s.space:2:1: error: unknown key 'alus' in section [pe]", 0, 0, 0, {0}},
    {"unknown section", "[memory]\nsize = 1\n", 0, "s.space:1:1: error: unknown section '[memory]'", 0, 0, 0, {0}},
    {"key outside a section", "alu = 1\n", 0, "s.space:1:1: error: key 'alu' outside a known [section]", 0, 0, 0, {0}},
    {"value out of range", "[pe]\nalu = 1..9\n", 0, "s.space:2:", 0, 0, 0, {0}},
    {"empty range", "[pe]\nalu = 3..2\n", 0, "s.space:2:7: error: pe.alu: range 3..", 0, 0, 0, {0}},
    {"not a number", "[pe]\nalu = two\n", 0, "s.space:2:7: error: pe.alu: expected an integer", 0, 0, 0, {0}},
    {"trailing junk", "[pe]\nalu = 1 2\n", 0, "expected ',' or the end of the line", 0, 0, 0, {0}},
    {"a value twice", "[pe]\nalu = 1,1\n", 0, "value 1 given twice", 0, 0, 0, {0}},
    {"a key twice", "[pe]\nalu = 1\n[pe]\nalu = 2\n", 0, "s.space:4:1: error: key pe.alu given twice (first on line 2)",
     0, 0, 0, {0}},
    {"more points than brute force takes, for a search",
     "[pe]\nrd = 0..5\n[iobuf]\ndepth = 1..60\nbanks = 1..16\n[latency]\nalu = 1..6\n", 1, NULL, 4, 34560, 6,
     {0, 1, 2, 3, 4, 5}},
    {"too many points even for a search",
     "[pe]\nrd = 0..32\nid = 0..32\nfd = 0..32\nalu = 1..8\nmul = 0..8\n[latency]\nalu = 1..64\nmul = 1..64\n"
     "[iobuf]\nbanks = 1..16\n[gc]\nsignals = 1..32\n", 0,
     "more than 1000000000000 points", 0, 0, 0, {0}},
};

/* Checks every space case. */
static void test_space_cases(void) {
  for (size_t i = 0; i < sizeof space_cases / sizeof space_cases[0]; i++) {
    const space_case *c = &space_cases[i];
    explore_space s;
    int rc = parse_captured(0, c->text, &s, NULL);
    TEST_CHECK((rc == 0) == c->ok, "space %s: %s", c->name, c->ok ? "parses" : "refused");
    if (c->msg) TEST_CHECK(strstr(captured, c->msg) != NULL, "space %s: message has '%s' (got: %s)", c->name, c->msg,
                           captured);
    if (!c->ok || rc) continue;
    TEST_CHECK(s.naxes == c->naxes && explore_space_points(&s) == c->points, "space %s: %d axes, %zu points",
               c->name, c->naxes, c->points);
    int same = !c->nv || s.axis[0].n == c->nv;
    for (int k = 0; k < c->nv && same; k++) same = s.axis[0].value[k] == c->v[k];
    TEST_CHECK(same, "space %s: the first key's values in order", c->name);
  }
}

/* Checks that each point's INI loads back with its values, the last
 * axis varying fastest, the rest at the base's values. */
static void test_point_ini(void) {
  explore_space s;
  int rc = parse_captured(0, "[array]\ncols = 1..2\n[pe]\nalu = 1,3\n[iobuf]\ndepth = 64\n", &s, NULL);
  TEST_CHECK(rc == 0, "point INI: the space parses");
  if (rc) return;
  arch_config base = arch_config_default();
  base.rows = 2;
  static const int want[4][2] = {{1, 1}, {1, 3}, {2, 1}, {2, 3}};
  char ini[65536];
  for (size_t i = 0; i < 4; i++) {
    arch_config c;
    int ok = explore_point_ini(&s, &base, i, ini, sizeof ini) == 0 && arch_config_load_text("p", ini, &c) == 0;
    TEST_CHECK(ok && c.cols == want[i][0] && c.alu == want[i][1] && c.bank_depth == 64 && c.rows == 2 &&
                   c.mul == base.mul,
               "point %zu: cols %d alu %d depth 64, rows and mul of the base", i + 1, want[i][0], want[i][1]);
  }
  TEST_CHECK(explore_point_ini(&s, &base, 0, ini, 64) != 0, "point INI: a buffer too small is refused");
}

typedef struct {
  const char *name, *text;
  int ok;
  const char *msg;
  int n;             /* entries */
  int rows, cols;    /* of the last entry */
  double weight;
  int nparams;
} wl_case;

static const wl_case wl_cases[] = {
    {"two entries", "a.pla N=4 1x1 2\n# c\n\nb.pla N=8,T=2 2x3 0.5 # c\n", 1, NULL, 2, 2, 3, 0.5, 2},
    {"no parameters", "gcd.pla - 1x2 1\n", 1, NULL, 1, 1, 2, 1, 0},
    {"missing field", "a.pla N=4 1x1\n", 0, "w.wl:1:1: error: expected 4 fields", 0, 0, 0, 0, 0},
    {"bad region", "a.pla N=4 1-1 1\n", 0, "w.wl:1:11: error: region: expected RxC", 0, 0, 0, 0, 0},
    {"zero weight", "a.pla N=4 1x1 0\n", 0, "w.wl:1:15: error: weight: expected a positive number", 0, 0, 0, 0, 0},
    {"bad parameter", "a.pla N 1x1 1\n", 0, "w.wl:1:7: error: expected NAME=VALUE", 0, 0, 0, 0, 0},
    {"parameter not positive", "a.pla N=0 1x1 1\n", 0, "parameter N: expected a positive integer", 0, 0, 0, 0, 0},
    {"no entries", "# nothing\n", 0, "w.wl: no entries", 0, 0, 0, 0, 0},
};

/* Checks every workload case. */
static void test_workload_cases(void) {
  static explore_workload w;
  for (size_t i = 0; i < sizeof wl_cases / sizeof wl_cases[0]; i++) {
    const wl_case *c = &wl_cases[i];
    int rc = parse_captured(1, c->text, NULL, &w);
    TEST_CHECK((rc == 0) == c->ok, "workload %s: %s", c->name, c->ok ? "parses" : "refused");
    if (c->msg) TEST_CHECK(strstr(captured, c->msg) != NULL, "workload %s: message has '%s' (got: %s)", c->name,
                           c->msg, captured);
    if (!c->ok || rc) continue;
    const explore_entry *e = &w.e[w.n - 1];
    TEST_CHECK(w.n == c->n && e->rows == c->rows && e->cols == c->cols && e->weight == c->weight &&
                   e->nparams == c->nparams,
               "workload %s: %d entries, the last %dx%d weight %g with %d parameters", c->name, c->n, c->rows,
               c->cols, c->weight, c->nparams);
  }
}

typedef struct {
  const char *name;
  int n;
  double area[6], cycles[6];
  int ok[6];
  int front[6];
} pareto_case;

static const pareto_case pareto_cases[] = {
    {"one point", 1, {5}, {5}, {1}, {1}},
    {"a chain: each smaller is slower", 3, {1, 2, 3}, {30, 20, 10}, {1, 1, 1}, {1, 1, 1}},
    {"a dominated point", 3, {1, 2, 3}, {30, 40, 10}, {1, 1, 1}, {1, 0, 1}},
    {"equal area, fewer cycles wins", 2, {4, 4}, {10, 9}, {1, 1}, {0, 1}},
    {"equal cycles, smaller area wins", 2, {3, 4}, {9, 9}, {1, 1}, {1, 0}},
    {"identical points both stay", 2, {4, 4}, {9, 9}, {1, 1}, {1, 1}},
    {"a point that does not fit dominates nothing", 3, {1, 2, 3}, {1, 20, 30}, {0, 1, 1}, {0, 1, 0}},
    {"none fits: an empty front", 2, {1, 2}, {1, 2}, {0, 0}, {0, 0}},
    {"mixed", 6, {10, 20, 30, 15, 25, 40}, {100, 60, 50, 90, 70, 50}, {1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 0, 0}},
};

/* Checks every Pareto case, and the count explore_pareto returns. */
static void test_pareto_cases(void) {
  for (size_t i = 0; i < sizeof pareto_cases / sizeof pareto_cases[0]; i++) {
    const pareto_case *c = &pareto_cases[i];
    int front[6];
    size_t k = explore_pareto((size_t)c->n, c->area, c->cycles, c->ok, front), want = 0;
    int same = 1;
    for (int j = 0; j < c->n; j++) {
      same &= front[j] == c->front[j];
      want += (size_t)c->front[j];
    }
    TEST_CHECK(same && k == want, "pareto %s: the front and its size %zu", c->name, want);
  }
}

/* Checks that the area proxy grows with every key it counts. */
static void test_area_proxy(void) {
  arch_config a = arch_config_default();
  double base = explore_area_proxy(&a);
  static const size_t offs[] = {offsetof(arch_config, rows), offsetof(arch_config, cols), offsetof(arch_config, alu),
                                offsetof(arch_config, mul), offsetof(arch_config, rd), offsetof(arch_config, fd),
                                offsetof(arch_config, fifo_depth), offsetof(arch_config, imem),
                                offsetof(arch_config, ports), offsetof(arch_config, banks),
                                offsetof(arch_config, bank_depth)};
  for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
    arch_config b = a;
    (*(int *)((char *)&b + offs[i]))++;
    TEST_CHECK(explore_area_proxy(&b) > base, "area proxy grows with field %zu", i);
  }
  a.lat_mul = 5;
  TEST_CHECK(explore_area_proxy(&a) == base, "area proxy does not count latencies");
}

int main(void) {
  test_space_cases();
  test_point_ini();
  test_workload_cases();
  test_pareto_cases();
  test_area_proxy();
  return test_done();
}
