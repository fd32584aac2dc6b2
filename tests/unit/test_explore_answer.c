/* covers: docs/explore.md "The answers" */
/*
 * test_explore_answer.c: unit tests of explore_answer.c (explore.h):
 * explore_fastest and explore_sensitivity on hand-made tables.
 *
 * Table-driven: each budget case is a set of points (area, cycles, fits
 * every entry) with a budget and the point that must be chosen. The
 * sensitivity cases share one space of two keys (a: 1,2; b: 4,5,6: six
 * points, b varying fastest) and a workload of two entries; each case
 * gives every point's two statuses and cycles, and the steps it must
 * give (pairs, gained, lost, both, the mean change of cycles, the
 * resource relieved).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explore.h"
#include "test.h"

#define NP 8

typedef struct {
  const char *name;
  int n;
  double area[NP], cycles[NP];
  int ok[NP];
  double budget;
  long want;
} budget_case;

static const budget_case budget_cases[] = {
    {"the fastest under the budget", 4, {10, 20, 30, 40}, {400, 300, 200, 100}, {1, 1, 1, 1}, 30, 2},
    {"the budget is inclusive", 3, {10, 20, 30}, {300, 200, 100}, {1, 1, 1}, 30, 2},
    {"a point over the budget is never chosen", 2, {10, 31}, {300, 1}, {1, 1}, 30, 0},
    {"a point not fitting every entry is never chosen", 3, {10, 20, 30}, {300, 100, 200}, {1, 0, 1}, 30, 2},
    {"equal cycles: the smaller area", 3, {25, 15, 20}, {100, 100, 100}, {1, 1, 1}, 30, 1},
    {"nothing within the budget", 2, {40, 50}, {1, 2}, {1, 1}, 30, -1},
    {"nothing fits", 2, {1, 2}, {1, 2}, {0, 0}, 30, -1},
};

/* Checks every budget case. */
static void test_budget_cases(void) {
  for (size_t i = 0; i < sizeof budget_cases / sizeof budget_cases[0]; i++) {
    const budget_case *c = &budget_cases[i];
    explore_table t = {.n = (size_t)c->n, .area = (double *)c->area, .cycles = (double *)c->cycles,
                       .ok = (int *)c->ok};
    long got = explore_fastest(&t, c->budget);
    TEST_CHECK(got == c->want, "fastest, %s: point %ld (got %ld)", c->name, c->want, got);
  }
}

/* One expected step. */
typedef struct {
  int axis, from, to, pairs, gained, lost, both;
  double dcycles;
  const char *relieved;
  int nrelieved;
} step_want;

typedef struct {
  const char *name;
  const char *status[6][2]; /* per point, per entry */
  unsigned cycles[6][2];
  const char *res[6][2];    /* the no-fit resource where not ok */
  int nsteps;
  step_want want[3];
} sens_case;

static const sens_case sens_cases[] = {
    {"one more entry fits at a=2, b does not matter",
     {{"nofit", "ok"}, {"nofit", "ok"}, {"nofit", "ok"}, {"ok", "ok"}, {"ok", "ok"}, {"ok", "ok"}},
     {{0, 100}, {0, 100}, {0, 100}, {50, 100}, {50, 100}, {50, 100}},
     {{"registers_id", "-"}, {"registers_id", "-"}, {"banks", "-"}, {"-", "-"}, {"-", "-"}, {"-", "-"}},
     3,
     {{0, 1, 2, 3, 3, 0, 3, 0.0, "registers_id", 2},
      {1, 4, 5, 2, 0, 0, 3, 0.0, "-", 0},
      {1, 5, 6, 2, 0, 0, 3, 0.0, "-", 0}}},
    {"cycles halve from b=4 to b=5, an entry is lost from b=5 to b=6",
     {{"ok", "ok"}, {"ok", "ok"}, {"ok", "nofit"}, {"ok", "ok"}, {"ok", "ok"}, {"ok", "nofit"}},
     {{100, 200}, {50, 100}, {50, 0}, {100, 200}, {50, 100}, {50, 0}},
     {{"-", "-"}, {"-", "-"}, {"-", "imem"}, {"-", "-"}, {"-", "-"}, {"-", "imem"}},
     3,
     {{0, 1, 2, 3, 0, 0, 5, 0.0, "-", 0},
      {1, 4, 5, 2, 0, 0, 4, -50.0, "-", 0},
      {1, 5, 6, 2, 0, 2, 2, 0.0, "-", 0}}},
};

/* Checks every sensitivity case against its steps. */
static void test_sens_cases(void) {
  static explore_space s;
  memset(&s, 0, sizeof s);
  s.naxes = 2;
  s.axis[0] = (explore_axis){.section = "pe", .key = "a", .n = 2, .value = {1, 2}};
  s.axis[1] = (explore_axis){.section = "pe", .key = "b", .n = 3, .value = {4, 5, 6}};
  static explore_workload w;
  w.n = 2;
  for (size_t i = 0; i < sizeof sens_cases / sizeof sens_cases[0]; i++) {
    const sens_case *c = &sens_cases[i];
    explore_result r[12];
    memset(r, 0, sizeof r);
    for (int p = 0; p < 6; p++)
      for (int e = 0; e < 2; e++) {
        snprintf(r[p * 2 + e].status, sizeof r[0].status, "%s", c->status[p][e]);
        snprintf(r[p * 2 + e].res, sizeof r[0].res, "%s", c->res[p][e]);
        r[p * 2 + e].cycles = c->cycles[p][e];
      }
    explore_table t = {.n = 6, .r = r};
    explore_step st[8];
    size_t n = explore_sensitivity(&s, &w, &t, st, 8);
    TEST_CHECK(n == (size_t)c->nsteps, "sensitivity, %s: %d steps (got %zu)", c->name, c->nsteps, n);
    for (int k = 0; k < c->nsteps && (size_t)k < n; k++) {
      const step_want *x = &c->want[k];
      const explore_step *g = &st[k];
      int same = g->axis == x->axis && g->from == x->from && g->to == x->to && g->pairs == x->pairs &&
                 g->gained == x->gained && g->lost == x->lost && g->both == x->both &&
                 fabs(g->dcycles - x->dcycles) < 1e-9 && !strcmp(g->relieved, x->relieved) &&
                 g->nrelieved == x->nrelieved;
      TEST_CHECK(same,
                 "sensitivity, %s, step %d: axis %d %d->%d pairs %d gained %d lost %d both %d %.1f%% %s(%d) "
                 "(got axis %d %d->%d pairs %d gained %d lost %d both %d %.1f%% %s(%d))",
                 c->name, k, x->axis, x->from, x->to, x->pairs, x->gained, x->lost, x->both, x->dcycles,
                 x->relieved, x->nrelieved, g->axis, g->from, g->to, g->pairs, g->gained, g->lost, g->both,
                 g->dcycles, g->relieved, g->nrelieved);
    }
  }
}

int main(void) {
  test_budget_cases();
  test_sens_cases();
  return test_done();
}
