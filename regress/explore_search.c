/*
 * explore_search.c: `tcpa explore --search descent` (docs/explore.md
 * "Search"): the smallest configuration that runs every entry, found
 * without evaluating every point of a space too large for brute force.
 *
 * The descent rests on one assumption, that resources are monotone: a
 * configuration with at least as much of every key runs whatever a
 * smaller one runs. It starts at the top of the space (every key at the
 * largest value of its list) and evaluates it; when the top does not run
 * every entry, no point does and the search stops there. Then it lowers
 * the keys one after the other, the key whose lowest value saves the most
 * area (by the proxy of docs/explore.md "Area") first: for each, a
 * bisection over its values, the others held, finds the lowest value that
 * still runs every entry (with -j N, N values of the range are tried at
 * once: an (N+1)-ary search). Lowering a later key takes resources away,
 * so by the assumption no earlier key could go lower afterwards: at the
 * end no key can be lowered by one value, and the point is the answer.
 * A key of n values costs at most log2(n) evaluations (with -j 1): a
 * space of 10^5 points of 6 keys of 7 values about 1 + 6 x 3. Every point
 * evaluated is in the tables, so the sensitivity table compares the
 * pairs the bisections made; the Pareto front is that of the points
 * evaluated, not of the space.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "explore.h"
#include "explore_eval.h"

/* Returns the most rows explore_search evaluates on s (explore_eval.h). */
size_t explore_search_rows(const explore_space *s) {
  size_t rows = 2;
  for (int k = 0; k < s->naxes; k++) rows += (size_t)s->axis[k].n - 1;
  return rows;
}

/* The descent's position: for each key, the indices of its values sorted
 * ascending (order) and the current one's place in that order (pos). */
typedef struct {
  int order[EXPLORE_MAX_AXES][EXPLORE_MAX_VALUES];
  int pos[EXPLORE_MAX_AXES];
} explore_descent;

/* Returns the space's point number (0-based) of the position d->pos. */
static size_t explore_descent_point(const explore_space *s, const explore_descent *d) {
  size_t point = 0;
  for (int k = 0; k < s->naxes; k++) point = point * (size_t)s->axis[k].n + (size_t)d->order[k][d->pos[k]];
  return point;
}

/* Returns nothing; sorts each key's value indices ascending by value and
 * puts the position at the top. */
static void explore_descent_init(const explore_space *s, explore_descent *d) {
  memset(d, 0, sizeof *d);
  for (int k = 0; k < s->naxes; k++) {
    const explore_axis *ax = &s->axis[k];
    for (int i = 0; i < ax->n; i++) {
      int j = i;
      for (; j > 0 && ax->value[d->order[k][j - 1]] > ax->value[i]; j--) d->order[k][j] = d->order[k][j - 1];
      d->order[k][j] = i;
    }
    d->pos[k] = ax->n - 1;
  }
}

/* Returns the area proxy of the point at position d (or -1 when its
 * configuration does not load). */
static double explore_descent_proxy(const explore_ctx *c, const explore_descent *d, char *ini, size_t cap) {
  static arch_config cfg;
  if (explore_point_ini(c->s, &c->base, explore_descent_point(c->s, d), ini, cap) != 0 ||
      arch_config_load_text("search", ini, &cfg) != 0)
    return -1;
  return explore_area_proxy(&cfg);
}

/* Returns 0 after writing into keys[] the space's keys, the one whose
 * lowest value saves the most proxy area from the top first. */
static int explore_keys_order(const explore_ctx *c, const explore_descent *top, int *keys) {
  double saving[EXPLORE_MAX_AXES];
  size_t cap = 65536;
  char *ini = malloc(cap);
  if (!ini) return -1;
  double at_top = explore_descent_proxy(c, top, ini, cap);
  for (int k = 0; k < c->s->naxes; k++) {
    explore_descent d = *top;
    d.pos[k] = 0;
    double low = explore_descent_proxy(c, &d, ini, cap);
    saving[k] = low < 0 ? 0 : at_top - low;
    int j = k;
    for (; j > 0 && saving[keys[j - 1]] < saving[k]; j--) keys[j] = keys[j - 1];
    keys[j] = k;
  }
  free(ini);
  return 0;
}

/* Returns 1 when row i of t runs every entry of w. */
static int explore_row_fits(const explore_workload *w, const explore_table *t, size_t i) {
  for (int k = 0; k < w->n; k++)
    if (strcmp(t->r[i * (size_t)w->n + (size_t)k].status, "ok")) return 0;
  return 1;
}

/* Returns the row of t holding point, after appending it when t lacks it
 * ((size_t)-1 when t is full). */
static size_t explore_row_add(explore_table *t, size_t point) {
  for (size_t i = 0; i < t->n; i++)
    if (t->idx[i] == point) return i;
  if (t->n == t->cap) return (size_t)-1;
  t->idx[t->n] = point;
  return t->n++;
}

/* Returns 0 after lowering key k of d to the lowest value (its place in
 * the sorted order) that still runs every entry, the others held: an
 * (N+1)-ary search over [0, pos] with N = the jobs; -1 after an error. */
static int explore_key_lower(explore_ctx *c, explore_table *t, explore_descent *d, int k) {
  int lo = 0, hi = d->pos[k];
  while (lo < hi) {
    int m = c->o->jobs < 1 ? 1 : c->o->jobs, place[EXPLORE_MAX_VALUES];
    size_t row[EXPLORE_MAX_VALUES];
    if (m > hi - lo) m = hi - lo;
    size_t from = t->n;
    for (int i = 0; i < m; i++) {
      d->pos[k] = place[i] = lo + (int)((long)(i + 1) * (hi - lo) / (m + 1));
      if ((row[i] = explore_row_add(t, explore_descent_point(c->s, d))) == (size_t)-1) return -1;
    }
    d->pos[k] = hi;
    if (t->n > from && explore_rows_eval(c, t, from) != 0) return -1;
    int new_hi = hi, new_lo = lo;
    for (int i = 0; i < m; i++)
      if (explore_row_fits(c->w, t, row[i]) && place[i] < new_hi) new_hi = place[i];
    for (int i = 0; i < m; i++)
      if (!explore_row_fits(c->w, t, row[i]) && place[i] < new_hi && place[i] + 1 > new_lo) new_lo = place[i] + 1;
    lo = new_lo;
    hi = new_hi;
  }
  d->pos[k] = hi;
  return 0;
}

/* Returns 0 after the descent (explore_eval.h); -1 after an error. */
int explore_search(explore_ctx *c, explore_table *t) {
  const explore_space *s = c->s;
  explore_descent d;
  explore_descent_init(s, &d);
  explore_row_add(t, explore_descent_point(s, &d));
  if (explore_rows_eval(c, t, 0) != 0) return -1;
  if (!explore_row_fits(c->w, t, 0)) {
    if (!c->o->quiet)
      fprintf(stderr, "explore: search: the top of the space (every key at its largest value) does not run every "
                      "entry, so no point does (docs/explore.md \"Search\")\n");
    return 0;
  }
  int keys[EXPLORE_MAX_AXES];
  if (explore_keys_order(c, &d, keys) != 0) return -1;
  for (int i = 0; i < s->naxes; i++) {
    int k = keys[i];
    if (explore_key_lower(c, t, &d, k) != 0) {
      diag_error_plain("explore: search: lowering %s.%s failed", s->axis[k].section, s->axis[k].key);
      return -1;
    }
    if (!c->o->quiet)
      fprintf(stderr, "explore: search: %s.%s down to %d (%zu points evaluated or cached so far)\n",
              s->axis[k].section, s->axis[k].key, s->axis[k].value[d.order[k][d.pos[k]]], t->n);
  }
  return 0;
}
