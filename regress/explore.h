/*
 * explore.h: `tcpa explore` as a library (docs/explore.md): design-space
 * exploration over the synthesis-time parameters of docs/arch.md.
 *
 * A workload (explore_workload: programs, parameter values, regions and
 * weights, one entry a line) and a space (explore_space: lists or ranges
 * of architecture keys over a base configuration) are read; every point
 * of the space (the cross product of the keys' values) is a configuration
 * whose fingerprint (arch_config_fingerprint) names its results in
 * DIR/cache/. explore_run evaluates the points not cached: each workload
 * entry through the flow of `tcpa run --engine model` (engine_flow.h,
 * engine_run), keeping fit or the no-fit record, II and the model's
 * cycles; the area is Yosys's cell count (scripts/synth.sh, --area) or a
 * proxy computed from the configuration (explore_area_proxy). Then it
 * writes the tables, the Pareto front of area against weighted cycles,
 * its picture (gnuplot) and the smallest configuration running every
 * entry.
 *
 * Between the files:
 *   explore_parse.c  the space and the workload files, the points' INI;
 *   explore_eval.c   one point: the entries through the flow, the cache;
 *   explore.c        the Pareto front, the run over all points and the
 *                    outputs;
 *   explore_answer.c the fastest point within an area budget and the
 *                    per-key sensitivity table;
 *   explore_search.c --search descent: the smallest configuration of a
 *                    space too large for brute force.
 */
#ifndef TCPA_EXPLORE_H
#define TCPA_EXPLORE_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"

#define EXPLORE_MAX_AXES 16      /* keys a space varies */
#define EXPLORE_MAX_VALUES 64    /* values of one key */
#define EXPLORE_MAX_POINTS 20000 /* points evaluated by brute force (larger: --search descent) */
#define EXPLORE_MAX_SPACE 1000000000000ULL /* points of one space (larger: refused) */
#define EXPLORE_MAX_ENTRIES 64   /* entries of one workload */
#define EXPLORE_MAX_PARAMS 8     /* parameters of one entry */

/* One key of the space and its values, in the order given. */
typedef struct {
  char section[24], key[24]; /* "pe", "alu" */
  int line;                  /* in the space file */
  int n;
  int value[EXPLORE_MAX_VALUES];
} explore_axis;

/* A space: its axes; point i takes value (i / stride_k) % n_k of axis k,
 * the last axis varying fastest. */
typedef struct {
  const char *path;
  int naxes;
  explore_axis axis[EXPLORE_MAX_AXES];
} explore_space;

/* One workload entry. */
typedef struct {
  char program[1024];  /* the program's path (relative paths: to the workload file) */
  int line;            /* in the workload file */
  int nparams;
  char pname[EXPLORE_MAX_PARAMS][32];
  int64_t pvalue[EXPLORE_MAX_PARAMS];
  int rows, cols;      /* the region RxC */
  double weight;       /* > 0 */
  char id[1200];       /* the cache key: program name, text hash, parameters, region */
} explore_entry;

typedef struct {
  const char *path;
  int n;
  explore_entry e[EXPLORE_MAX_ENTRIES];
} explore_workload;

/* Returns 0 after reading the space from the text of file `name` into *s
 * (docs/explore.md "The space"); -1 after printing every error as
 * name:line:col through diag.h (unknown section or key, bad list or
 * range, a value out of the key's range, too many points). */
int explore_space_parse(const char *name, const char *text, explore_space *s);

/* Returns the number of points of s (1 for an empty space). */
size_t explore_space_points(const explore_space *s);

/* Returns the index into s->axis[k].value of point i's value. */
int explore_space_pick(const explore_space *s, size_t i, int k);

/* Returns 0 after writing into buf (size n) the INI text of point i of s
 * over the base configuration: base's full dump (arch_config_write_ini)
 * with the varied keys' values replaced; -1 when it does not fit. */
int explore_point_ini(const explore_space *s, const arch_config *base, size_t i, char *buf, size_t n);

/* Returns 0 after reading the workload from the text of file `name` into
 * *w (docs/explore.md "The workload"); -1 after printing every error as
 * name:line:col. Programs are not opened here (explore_run does). */
int explore_workload_parse(const char *name, const char *text, explore_workload *w);

/* Returns the area proxy of cfg (docs/explore.md "Area"): 32-bit words of
 * state plus functional-unit equivalents, summed over the array. */
double explore_area_proxy(const arch_config *cfg);

/* Marks in front[i] (1/0) the points on the Pareto front of (area,
 * cycles), both minimized, among those with ok[i]: no other ok point is
 * at most as large in both and smaller in one. Returns how many. */
size_t explore_pareto(size_t n, const double *area, const double *cycles, const int *ok, int *front);

/* The options of one exploration (`tcpa explore --help`). */
typedef struct {
  const char *workload, *space;
  const char *arch;   /* the base configuration; NULL: configs/default.ini as built in */
  const char *dir;    /* the output directory */
  int jobs;           /* points evaluated at a time */
  int area;           /* --area: Yosys cells (scripts/synth.sh) instead of the proxy */
  int quiet;          /* no progress lines */
  int has_budget;     /* --budget given: write the fastest point within it */
  double budget;      /* its area, in the unit of the area column */
  int search;         /* --search descent: explore_search, not every point */
  int shard_k, shard_n; /* --shard K/N: evaluate points K, K+N, ... into the cache only (N 0: all) */
} explore_opts;

/* Returns the exit status of `tcpa explore` (docs/explore.md): 0 when at
 * least one point runs every entry (DIR/smallest.ini written), 3 when
 * none does, 2 on invalid input (message on stderr, file:line), 1 when an
 * entry's model outputs differ from the reference (a defect; the tables
 * are written all the same). */
int explore_run(const explore_opts *o);

/* ---- between explore.c and explore_eval.c ---- */

/* What one entry gave on one point. */
typedef struct {
  char status[12];   /* "ok", "nofit", "mismatch", "error" */
  int ii;
  uint64_t cycles;   /* the model's cycles (last output write + 1) */
  char res[24];      /* no-fit: the resource (fit_resource_name), "-" otherwise */
  char key[32];      /* its configuration key */
  int64_t need, have;
} explore_result;

/* What the run knows of every point it evaluated (explore.c fills it):
 * row i is point idx[i] of the space (0-based; idx NULL: point i). */
typedef struct {
  size_t n, cap;       /* rows, rows allocated */
  size_t *idx;
  arch_config *cfg;
  explore_result *r;  /* n x entries: point i's entry k at i * entries + k */
  double *area, *cycles;
  int *ok, *front, *fits, *cached;
} explore_table;

/* Returns the space's (0-based) point number of row i of t. */
static inline size_t explore_table_point(const explore_table *t, size_t i) { return t->idx ? t->idx[i] : i; }

/* ---- between explore.c and explore_answer.c ---- */

/* Returns the index of the point fitting every entry with the fewest
 * weighted cycles among those whose area is at most budget (the smaller
 * area among equal cycles), or -1 when none is within the budget. */
long explore_fastest(const explore_table *t, double budget);

/* One step of one key: the points that differ only in that key, by one
 * step of its list (from -> to), compared pairwise. */
typedef struct {
  int axis;           /* index into explore_space.axis */
  int from, to;       /* the key's two values */
  int pairs;          /* point pairs compared */
  int gained, lost;   /* entries that fit at `to` and not at `from`, and the reverse */
  int both;           /* entries fitting at both (cycles compared) */
  double dcycles;     /* mean relative change of those entries' cycles, in % (to vs from) */
  char relieved[24];  /* the no-fit resource most often relieved among `gained` ("-": none) */
  int nrelieved;      /* how many of `gained` it was */
} explore_step;

/* Returns the number of steps written into steps (at most cap): one per
 * key of s and pair of consecutive values in its list, in the space's
 * order (docs/explore.md "The answers"); pairs of rows both in t. */
size_t explore_sensitivity(const explore_space *s, const explore_workload *w, const explore_table *t,
                           explore_step *steps, size_t cap);

/* Returns 1 when file path holds the results of every entry of w and (when
 * want_cells) the area in cells; fills r (per entry of w) and *cells. */
int explore_cache_read(const char *path, const explore_workload *w, explore_result *r, double *cells, int want_cells);

#endif
