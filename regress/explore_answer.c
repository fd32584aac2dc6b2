/*
 * explore_answer.c: two of `tcpa explore`'s answers (docs/explore.md),
 * computed from the table of every point's results (explore_table):
 *
 *   - the fastest configuration within an area budget: among the points
 *     that run every entry and whose area is at most the budget, the one
 *     with the fewest weighted cycles (explore_fastest);
 *   - the sensitivity of the workload to each key (explore_sensitivity):
 *     for each key of the space and each pair of consecutive values in
 *     its list, every pair of points that differ in that key only (point
 *     i and point i + stride, where stride is the product of the sizes of
 *     the keys after it: the last key varies fastest) is compared entry
 *     by entry. An entry that fits at the larger value and not at the
 *     smaller one is "gained" (and the no-fit resource it had is counted
 *     as relieved), the reverse "lost"; an entry fitting at both adds its
 *     relative change of model cycles to a mean. So "one more register"
 *     reads as: N entries more fit, mostly for want of registers_id, and
 *     cycles change by X % where both fit. After a search (the table holds
 *     some points only, in any order) a pair counts when both points are
 *     in the table, found by binary search over the rows sorted by point.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"

/* Returns the index of the fastest point within the budget (explore.h). */
long explore_fastest(const explore_table *t, double budget) {
  long best = -1;
  for (size_t i = 0; i < t->n; i++) {
    if (!t->ok[i] || t->area[i] > budget) continue;
    if (best < 0 || t->cycles[i] < t->cycles[best] ||
        (t->cycles[i] == t->cycles[best] && t->area[i] < t->area[best]))
      best = (long)i;
  }
  return best;
}

/* Returns the stride of axis k: how far apart in the point index two
 * points are that differ by one step of axis k only. */
static size_t explore_axis_stride(const explore_space *s, int k) {
  size_t stride = 1;
  for (int j = k + 1; j < s->naxes; j++) stride *= (size_t)s->axis[j].n;
  return stride;
}

/* A no-fit resource and how often a step relieved it. */
typedef struct {
  char res[24];
  int n;
} explore_tally;

/* Returns nothing; counts resource res in tally (of *ntally used, cap). */
static void explore_tally_add(explore_tally *tally, int *ntally, int cap, const char *res) {
  for (int i = 0; i < *ntally; i++)
    if (!strcmp(tally[i].res, res)) {
      tally[i].n++;
      return;
    }
  if (*ntally == cap) return;
  snprintf(tally[*ntally].res, sizeof tally[*ntally].res, "%.23s", res);
  tally[(*ntally)++].n = 1;
}

/* Returns nothing; compares points a (value from) and b (value to) entry
 * by entry into st, the relieved resources into tally, and the sum of the
 * relative cycle changes into *dsum. */
static void explore_pair_compare(const explore_workload *w, const explore_table *t, size_t a, size_t b,
                                 explore_step *st, explore_tally *tally, int *ntally, int cap, double *dsum) {
  for (int k = 0; k < w->n; k++) {
    const explore_result *ra = &t->r[a * (size_t)w->n + (size_t)k];
    const explore_result *rb = &t->r[b * (size_t)w->n + (size_t)k];
    int oka = !strcmp(ra->status, "ok"), okb = !strcmp(rb->status, "ok");
    if (!oka && okb) {
      st->gained++;
      explore_tally_add(tally, ntally, cap, ra->res);
    } else if (oka && !okb) {
      st->lost++;
    } else if (oka && okb && ra->cycles > 0) {
      st->both++;
      *dsum += 100.0 * ((double)rb->cycles - (double)ra->cycles) / (double)ra->cycles;
    }
  }
}

/* A point of the space and the row of the table holding it. */
typedef struct {
  size_t point, row;
} explore_pointrow;

/* Returns <0, 0, >0 as a's point is below, equal to, above b's. */
static int explore_pointrow_cmp(const void *a, const void *b) {
  size_t x = ((const explore_pointrow *)a)->point, y = ((const explore_pointrow *)b)->point;
  return x < y ? -1 : x > y;
}

/* Returns the row of t holding point `point` (in map, n rows sorted by
 * point; map NULL: row = point), or (size_t)-1 when t lacks it. */
static size_t explore_row_find(const explore_table *t, const explore_pointrow *map, size_t point) {
  if (!map) return point < t->n ? point : (size_t)-1;
  explore_pointrow key = {point, 0};
  const explore_pointrow *hit = bsearch(&key, map, t->n, sizeof *map, explore_pointrow_cmp);
  return hit ? hit->row : (size_t)-1;
}

/* Returns the steps of every key (explore.h). */
size_t explore_sensitivity(const explore_space *s, const explore_workload *w, const explore_table *t,
                           explore_step *steps, size_t cap) {
  size_t nsteps = 0;
  explore_pointrow *map = NULL;
  if (t->idx) { /* a search's rows: any order, any subset of the space */
    map = malloc((t->n + 1) * sizeof *map);
    if (!map) return 0;
    for (size_t i = 0; i < t->n; i++) map[i] = (explore_pointrow){t->idx[i], i};
    qsort(map, t->n, sizeof *map, explore_pointrow_cmp);
  }
  for (int k = 0; k < s->naxes; k++) {
    const explore_axis *ax = &s->axis[k];
    size_t stride = explore_axis_stride(s, k);
    for (int v = 0; v + 1 < ax->n && nsteps < cap; v++) {
      explore_step *st = &steps[nsteps++];
      memset(st, 0, sizeof *st);
      st->axis = k;
      st->from = ax->value[v];
      st->to = ax->value[v + 1];
      explore_tally tally[16];
      int ntally = 0;
      double dsum = 0;
      for (size_t i = 0; i < t->n; i++) {
        size_t point = explore_table_point(t, i);
        if (explore_space_pick(s, point, k) != v) continue;
        size_t j = explore_row_find(t, map, point + stride);
        if (j == (size_t)-1) continue;
        st->pairs++;
        explore_pair_compare(w, t, i, j, st, tally, &ntally, 16, &dsum);
      }
      st->dcycles = st->both ? dsum / st->both : 0;
      snprintf(st->relieved, sizeof st->relieved, "-");
      for (int i = 0; i < ntally; i++)
        if (tally[i].n > st->nrelieved) {
          st->nrelieved = tally[i].n;
          memcpy(st->relieved, tally[i].res, sizeof st->relieved); /* both char[24] */
        }
    }
  }
  free(map);
  return nsteps;
}
