/*
 * explore.c: `tcpa explore` (docs/explore.md): reads the workload and the
 * space, builds every point's configuration (explore_point_ini, loaded
 * back through arch.c), evaluates the points the cache lacks
 * (explore_eval.c), then reads every point from DIR/cache/ and writes:
 *
 *   DIR/points/<fingerprint>.ini  each point's configuration;
 *   DIR/points.tsv    one row a point: the varied keys, fits k/n, the
 *                     weighted cycles (sum of weight x model cycles, over
 *                     points that fit every entry), the area and its kind;
 *   DIR/entries.tsv   one row a point and entry: status, II, cycles, the
 *                     no-fit record's resource, key, need and have;
 *   DIR/pareto.tsv    the Pareto front (explore_pareto) of area against
 *                     weighted cycles among the points fitting every entry;
 *   DIR/pareto.svg    its picture, drawn by gnuplot from DIR/pareto.gp;
 *   DIR/smallest.ini  the smallest such configuration (fewest cycles
 *                     among equal areas), ready for `tcpa signoff`;
 *   DIR/fastest.ini   with --budget A: the fastest such configuration of
 *                     area at most A (explore_answer.c);
 *   DIR/sensitivity.tsv  what one step of each key buys: entries that
 *                     come to fit or stop fitting, the resource relieved,
 *                     the mean change of cycles (explore_answer.c).
 *
 * Each file is written to a temporary name and renamed, so a failure
 * leaves no half-written table. stdout gets the table and the answer.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch.h"
#include "diag.h"
#include "engine.h"
#include "explore.h"
#include "explore_eval.h"
#include "plot.h"
#include "run.h"

/* Returns the malloc'ed text of file path, or NULL after printing why. */
static char *explore_slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    diag_error_plain("%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  char *buf = NULL;
  size_t len = 0, cap = 0, got;
  char chunk[4096];
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (len + got + 1 > cap) {
      cap = 2 * (len + got + 1);
      char *nb = realloc(buf, cap);
      if (!nb) break;
      buf = nb;
    }
    memcpy(buf + len, chunk, got);
    len += got;
  }
  fclose(f);
  if (!buf) buf = calloc(1, 1);
  else buf[len] = '\0';
  return buf;
}

/* Returns the 64-bit FNV-1a hash of s. */
static uint64_t explore_hash(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

/* Returns 0 after resolving each entry's program against the workload's
 * directory and making its cache id; -1 after an error. */
static int explore_entries_resolve(explore_workload *w) {
  char *wcopy = strdup(w->path);
  if (!wcopy) return -1;
  const char *wdir = dirname(wcopy);
  int bad = 0;
  for (int k = 0; k < w->n && !bad; k++) {
    explore_entry *e = &w->e[k];
    if (e->program[0] != '/') {
      char rel[sizeof e->program];
      memcpy(rel, e->program, sizeof rel);
      if (strlen(wdir) + strlen(rel) + 2 > sizeof e->program) {
        diag_error_plain("%s:%d: the program's path is too long", w->path, e->line);
        bad = 1;
        break;
      }
      size_t dl = strlen(wdir);
      memcpy(e->program, wdir, dl);
      e->program[dl] = '/';
      memcpy(e->program + dl + 1, rel, strlen(rel) + 1);
    }
    char *text = explore_slurp(e->program);
    if (!text) {
      diag_error_plain("%s:%d: program %s cannot be read", w->path, e->line, e->program);
      bad = 1;
      break;
    }
    char *pc = strdup(e->program);
    int len = snprintf(e->id, sizeof e->id, "%s@%016llx:", pc ? basename(pc) : "?",
                       (unsigned long long)explore_hash(text));
    free(pc);
    free(text);
    for (int i = 0; i < e->nparams; i++)
      len += snprintf(e->id + len, sizeof e->id - (size_t)len, "%s%s=%lld", i ? "," : "", e->pname[i],
                      (long long)e->pvalue[i]);
    snprintf(e->id + len, sizeof e->id - (size_t)len, ":%dx%d", e->rows, e->cols);
  }
  free(wcopy);
  return bad ? -1 : 0;
}

/* Returns a FILE on path.tmp for writing (the name in tmp), or NULL. */
static FILE *explore_open(const char *path, char *tmp, size_t n) {
  snprintf(tmp, n, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) diag_error_plain("%s: cannot write: %s", tmp, strerror(errno));
  return f;
}

/* Returns 0 after closing f and renaming tmp over path; -1. */
static int explore_close(FILE *f, const char *tmp, const char *path) {
  if (fclose(f) != 0 || rename(tmp, path) != 0) {
    diag_error_plain("%s: cannot write: %s", path, strerror(errno));
    remove(tmp);
    return -1;
  }
  return 0;
}

/* Returns 0 after writing the varied values of point i (tab-separated)
 * into buf. */
static void explore_keys_print(FILE *f, const explore_space *s, size_t point, const char *sep) {
  for (int k = 0; k < s->naxes; k++)
    fprintf(f, "%d%s", s->axis[k].value[explore_space_pick(s, point, k)], sep);
}

/* Returns 0 after writing points.tsv, entries.tsv and pareto.tsv. */
static int explore_tables_write(const explore_opts *o, const explore_space *s, const explore_workload *w,
                                const explore_table *t) {
  char path[4200], tmp[4300];
  const char *akind = o->area ? "cells" : "proxy";
  snprintf(path, sizeof path, "%s/points.tsv", o->dir);
  FILE *f = explore_open(path, tmp, sizeof tmp);
  if (!f) return -1;
  fprintf(f, "point\tfingerprint\t");
  for (int k = 0; k < s->naxes; k++) fprintf(f, "%s.%s\t", s->axis[k].section, s->axis[k].key);
  fprintf(f, "fits\tweighted_cycles\tarea\tarea_kind\tcached\n");
  for (size_t i = 0; i < t->n; i++) {
    fprintf(f, "%zu\t0x%016llx\t", explore_table_point(t, i) + 1,
            (unsigned long long)arch_config_fingerprint(&t->cfg[i]));
    explore_keys_print(f, s, explore_table_point(t, i), "\t");
    if (t->ok[i]) fprintf(f, "%d/%d\t%.0f\t%.0f\t%s\t%s\n", t->fits[i], w->n, t->cycles[i], t->area[i], akind,
                          t->cached[i] ? "yes" : "no");
    else fprintf(f, "%d/%d\t-\t%.0f\t%s\t%s\n", t->fits[i], w->n, t->area[i], akind, t->cached[i] ? "yes" : "no");
  }
  if (explore_close(f, tmp, path)) return -1;
  snprintf(path, sizeof path, "%s/entries.tsv", o->dir);
  if (!(f = explore_open(path, tmp, sizeof tmp))) return -1;
  fprintf(f, "point\tentry\tline\tstatus\tii\tcycles\tresource\tkey\tneed\thave\n");
  for (size_t i = 0; i < t->n; i++)
    for (int k = 0; k < w->n; k++) {
      const explore_result *r = &t->r[i * (size_t)w->n + (size_t)k];
      fprintf(f, "%zu\t%s\t%d\t%s\t%d\t%llu\t%s\t%s\t%lld\t%lld\n", explore_table_point(t, i) + 1, w->e[k].id, w->e[k].line, r->status,
              r->ii, (unsigned long long)r->cycles, r->res, r->key, (long long)r->need, (long long)r->have);
    }
  if (explore_close(f, tmp, path)) return -1;
  snprintf(path, sizeof path, "%s/pareto.tsv", o->dir);
  if (!(f = explore_open(path, tmp, sizeof tmp))) return -1;
  fprintf(f, "point\tfingerprint\t");
  for (int k = 0; k < s->naxes; k++) fprintf(f, "%s.%s\t", s->axis[k].section, s->axis[k].key);
  fprintf(f, "weighted_cycles\tarea\tarea_kind\n");
  for (size_t i = 0; i < t->n; i++) {
    if (!t->front[i]) continue;
    fprintf(f, "%zu\t0x%016llx\t", explore_table_point(t, i) + 1,
            (unsigned long long)arch_config_fingerprint(&t->cfg[i]));
    explore_keys_print(f, s, explore_table_point(t, i), "\t");
    fprintf(f, "%.0f\t%.0f\t%s\n", t->cycles[i], t->area[i], akind);
  }
  return explore_close(f, tmp, path);
}

/* Returns 0 after drawing DIR/pareto.svg with gnuplot (every point that
 * fits all entries, the front as a line); -1 after printing why. */
static int explore_plot(const explore_opts *o, const explore_table *t) {
  char data[4200], gp[4200], svg[4200], tmp[4300];
  snprintf(data, sizeof data, "%s/pareto-points.dat", o->dir);
  snprintf(gp, sizeof gp, "%s/pareto.gp", o->dir);
  snprintf(svg, sizeof svg, "%s/pareto.svg", o->dir);
  FILE *f = explore_open(data, tmp, sizeof tmp);
  if (!f) return -1;
  fprintf(f, "# area weighted_cycles on_front point\n");
  for (size_t i = 0; i < t->n; i++)
    if (t->ok[i]) fprintf(f, "%.0f %.0f %d %zu\n", t->area[i], t->cycles[i], t->front[i],
                        explore_table_point(t, i) + 1);
  if (explore_close(f, tmp, data)) return -1;
  if (!(f = explore_open(gp, tmp, sizeof tmp))) return -1;
  size_t nok = 0;
  for (size_t i = 0; i < t->n; i++) nok += (size_t)t->ok[i];
  if (!nok) /* nothing to draw: the picture says so */
    fprintf(f, "set terminal svg size 800,600 dynamic\nset output '%s.tmp'\nset xrange [0:1]\nset yrange [0:1]\n"
               "set label 'no point runs every entry of the workload' at graph 0.5,0.5 center\n"
               "plot NaN notitle\n",
            svg);
  else
  fprintf(f,
          "set terminal svg size 800,600 dynamic\n"
          "set output '%s.tmp'\n"
          "set title 'tcpa explore: area against weighted cycles (points fitting every entry)'\n"
          "set xlabel 'area (%s)'\nset ylabel 'weighted model cycles'\nset grid\nset key top right\n"
          "plot '%s' using 1:2 with points pt 7 ps 0.8 title 'points', \\\n"
          "     '< awk \"\\$3 == 1\" %s | sort -n -k1,1' using 1:2 with linespoints lw 2 pt 7 ps 1.2 "
          "title 'Pareto front', \\\n"
          "     '' using 1:2:4 with labels offset 1,1 notitle\n",
          svg, o->area ? "Yosys cells" : "proxy: words of state + FU equivalents", data, data);
  if (explore_close(f, tmp, gp)) return -1;
  return plot_gnuplot_run("explore", gp, svg);
}

/* Returns the index of the smallest point fitting every entry (fewest
 * cycles among equal areas), or -1 when none does. */
static long explore_smallest(const explore_table *t) {
  long best = -1;
  for (size_t i = 0; i < t->n; i++) {
    if (!t->ok[i]) continue;
    if (best < 0 || t->area[i] < t->area[best] ||
        (t->area[i] == t->area[best] && t->cycles[i] < t->cycles[best]))
      best = (long)i;
  }
  return best;
}

/* Prints the readable table and the answer on stdout. */
static void explore_table_print(const explore_opts *o, const explore_space *s, const explore_workload *w,
                                const explore_table *t, long best) {
  printf("%5s  ", "point");
  for (int k = 0; k < s->naxes; k++) {
    char name[64];
    snprintf(name, sizeof name, "%s.%s", s->axis[k].section, s->axis[k].key);
    printf("%*s  ", (int)(strlen(name) > 6 ? strlen(name) : 6), name);
  }
  printf("%5s  %15s  %12s  %s\n", "fits", "weighted_cycles", o->area ? "area_cells" : "area_proxy", "");
  for (size_t i = 0; i < t->n; i++) {
    printf("%5zu  ", explore_table_point(t, i) + 1);
    for (int k = 0; k < s->naxes; k++) {
      size_t len = strlen(s->axis[k].section) + 1 + strlen(s->axis[k].key);
      printf("%*d  ", (int)(len > 6 ? len : 6), s->axis[k].value[explore_space_pick(s, explore_table_point(t, i), k)]);
    }
    char fits[16], cyc[32];
    snprintf(fits, sizeof fits, "%d/%d", t->fits[i], w->n);
    if (t->ok[i]) snprintf(cyc, sizeof cyc, "%.0f", t->cycles[i]);
    else snprintf(cyc, sizeof cyc, "-");
    printf("%5s  %15s  %12.0f  %s%s\n", fits, cyc, t->area[i], t->front[i] ? "pareto" : "",
           (long)i == best ? ", smallest" : "");
  }
  if (best >= 0)
    printf("smallest configuration running every entry: point %ld (area %.0f, weighted cycles %.0f): %s/smallest.ini\n",
           explore_table_point(t, (size_t)best) + 1, t->area[best], t->cycles[best], o->dir);
  else
    printf("no point runs every entry (entries.tsv says what ran out)\n");
}

/* Returns 0 after making the configuration of rows [from, t->n) of t
 * into t->cfg and writing DIR/points/<fingerprint>.ini of each; -1 after
 * an error. */
static int explore_rows_configs(explore_ctx *c, explore_table *t, size_t from) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/points", c->o->dir);
  if (run_mkdir_p(dir) != 0) return -1;
  size_t cap = 65536;
  char *ini = malloc(cap);
  if (!ini) return -1;
  int rc = 0;
  for (size_t i = from; i < t->n && rc == 0; i++) {
    size_t point = explore_table_point(t, i);
    char name[64];
    snprintf(name, sizeof name, "point %zu", point + 1);
    if (explore_point_ini(c->s, &c->base, point, ini, cap) != 0 || arch_config_load_text(name, ini, &t->cfg[i]) != 0) {
      diag_error_plain("%s: point %zu is not a valid configuration", c->s->path, point + 1);
      rc = -1;
      break;
    }
    char path[4400], tmp[4500];
    snprintf(path, sizeof path, "%s/%016llx.ini", dir, (unsigned long long)arch_config_fingerprint(&t->cfg[i]));
    FILE *f = explore_open(path, tmp, sizeof tmp);
    if (!f) rc = -1;
    else {
      fputs(ini, f);
      rc = explore_close(f, tmp, path);
    }
  }
  free(ini);
  return rc;
}

/* Returns 1 when row i's results (and cells, with --area) are in the
 * cache: read into t and *cells. */
static int explore_row_cached(const explore_ctx *c, explore_table *t, size_t i, double *cells) {
  char cache[4200];
  snprintf(cache, sizeof cache, "%s/%016llx.tsv", c->cachedir, (unsigned long long)arch_config_fingerprint(&t->cfg[i]));
  *cells = -1;
  return explore_cache_read(cache, c->w, &t->r[i * (size_t)c->w->n], cells, c->o->area);
}

/* Returns 0 after reading rows [from, t->n) from the cache or evaluating
 * them (explore_points_eval) and reading them back, with their area. */
static int explore_rows_collect(explore_ctx *c, explore_table *t, size_t from) {
  size_t *todo = calloc(t->n + 1, sizeof *todo), *number = calloc(t->n + 1, sizeof *number), ntodo = 0, ncached = 0;
  int rc = todo && number ? 0 : -1;
  for (size_t i = from; i < t->n && rc == 0; i++) {
    double cells;
    number[i] = explore_table_point(t, i) + 1;
    t->cached[i] = explore_row_cached(c, t, i, &cells);
    int mine = !c->o->shard_n || explore_table_point(t, i) % (size_t)c->o->shard_n == (size_t)(c->o->shard_k - 1);
    ncached += (size_t)t->cached[i];
    if (!t->cached[i] && mine) todo[ntodo++] = i;
  }
  if (rc == 0) {
    c->ncached += ncached;
    c->nevaluated += ntodo;
  }
  if (rc == 0 && !c->o->quiet && !c->o->search)
    fprintf(stderr, "explore: %zu points, %zu cached in %s, %zu to evaluate with %d job%s\n", t->n - from,
            ncached, c->cachedir, ntodo, c->o->jobs, c->o->jobs == 1 ? "" : "s");
  if (rc == 0 && ntodo && !c->prepared) {
    rc = explore_prog_prepare(c->w, c->prog);
    c->prepared = 1;
  }
  if (rc == 0 && ntodo) rc = explore_points_eval(c->o, c->w, c->prog, t->cfg, number, todo, ntodo, c->cachedir);
  for (size_t i = from; i < t->n && rc == 0 && !c->o->shard_n; i++) {
    double cells;
    if (!explore_row_cached(c, t, i, &cells)) {
      diag_error_plain("explore: point %zu has no results in %s/%016llx.tsv (its log: the .log beside it)",
                       number[i], c->cachedir, (unsigned long long)arch_config_fingerprint(&t->cfg[i]));
      rc = -1;
      break;
    }
    t->area[i] = c->o->area ? cells : explore_area_proxy(&t->cfg[i]);
  }
  free(todo);
  free(number);
  return rc;
}

/* Returns 0 after making, reading or evaluating rows [from, t->n) of t
 * (explore_eval.h). */
int explore_rows_eval(explore_ctx *c, explore_table *t, size_t from) {
  if (explore_rows_configs(c, t, from) != 0) return -1;
  return explore_rows_collect(c, t, from);
}

/* Fills ok, fits and the weighted cycles of every point, and the front. */
static void explore_points_judge(const explore_workload *w, explore_table *t, int *mismatch) {
  for (size_t i = 0; i < t->n; i++) {
    t->fits[i] = 0;
    t->cycles[i] = 0;
    for (int k = 0; k < w->n; k++) {
      const explore_result *r = &t->r[i * (size_t)w->n + (size_t)k];
      if (!strcmp(r->status, "mismatch") || !strcmp(r->status, "error")) *mismatch = 1;
      if (strcmp(r->status, "ok")) continue;
      t->fits[i]++;
      t->cycles[i] += w->e[k].weight * (double)r->cycles;
    }
    t->ok[i] = t->fits[i] == w->n;
  }
  explore_pareto(t->n, t->area, t->cycles, t->ok, t->front);
}

/* Returns 0 after writing DIR/NAME (point best, described by what: "the
 * smallest configuration running every entry of the workload"), or after
 * removing it when best < 0 (an earlier run's answer would mislead). */
static int explore_answer_write(const explore_opts *o, const explore_table *t, long best, const char *name,
                                const char *what) {
  char path[4200], tmp[4300];
  snprintf(path, sizeof path, "%s/%s", o->dir, name);
  if (best < 0) {
    remove(path);
    return 0;
  }
  FILE *f = explore_open(path, tmp, sizeof tmp);
  if (!f) return -1;
  fprintf(f, "; tcpa explore: %s\n"
             "; (point %ld, area %.0f %s, weighted cycles %.0f); check it with `tcpa signoff --arch`\n",
          what, explore_table_point(t, (size_t)best) + 1, t->area[best], o->area ? "Yosys cells" : "proxy", t->cycles[best]);
  arch_config_write_ini(&t->cfg[best], f);
  return explore_close(f, tmp, path);
}

/* Returns 0 after writing DIR/sensitivity.tsv and printing its table. */
static int explore_sensitivity_write(const explore_opts *o, const explore_space *s, const explore_workload *w,
                                     const explore_table *t) {
  explore_step steps[EXPLORE_MAX_AXES * EXPLORE_MAX_VALUES];
  size_t n = explore_sensitivity(s, w, t, steps, sizeof steps / sizeof steps[0]);
  char path[4200], tmp[4300];
  snprintf(path, sizeof path, "%s/sensitivity.tsv", o->dir);
  FILE *f = explore_open(path, tmp, sizeof tmp);
  if (!f) return -1;
  fprintf(f, "key\tfrom\tto\tpairs\tgained\tlost\trelieved\trelieved_n\tboth\tcycles_change_pct\n");
  if (n) printf("sensitivity (one step of each key; entries over all point pairs differing in it only):\n"
                "  %-22s %11s %6s %7s %5s  %-26s %s\n", "key", "step", "pairs", "gained", "lost",
                "mostly relieved", "cycles where both fit");
  for (size_t i = 0; i < n; i++) {
    const explore_step *st = &steps[i];
    const explore_axis *ax = &s->axis[st->axis];
    char key[64], step[32], rel[48], cyc[48];
    snprintf(key, sizeof key, "%s.%s", ax->section, ax->key);
    fprintf(f, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t", key, st->from, st->to, st->pairs, st->gained,
            st->lost, st->relieved, st->nrelieved, st->both);
    if (st->both) fprintf(f, "%.2f\n", st->dcycles);
    else fprintf(f, "-\n");
    snprintf(step, sizeof step, "%d -> %d", st->from, st->to);
    if (st->nrelieved) snprintf(rel, sizeof rel, "%s (%d)", st->relieved, st->nrelieved);
    else snprintf(rel, sizeof rel, "-");
    if (st->both) snprintf(cyc, sizeof cyc, "%+.1f %% over %d", st->dcycles, st->both);
    else snprintf(cyc, sizeof cyc, "-");
    printf("  %-22s %11s %6d %7d %5d  %-26s %s\n", key, step, st->pairs, st->gained, st->lost, rel, cyc);
  }
  return explore_close(f, tmp, path);
}

/* Returns the exit status of `tcpa explore` (explore.h). */
int explore_run(const explore_opts *o) {
  explore_space s;
  explore_workload *w = calloc(1, sizeof *w);
  char *stext = explore_slurp(o->space), *wtext = explore_slurp(o->workload);
  explore_table t;
  memset(&t, 0, sizeof t);
  explore_ctx *c = calloc(1, sizeof *c);
  int rc = ENGINE_ERR_INPUT, mismatch = 0;
  if (!c) goto out;
  if (!w || !stext || !wtext) goto out;
  if (explore_space_parse(o->space, stext, &s) != 0) goto out;
  if (explore_workload_parse(o->workload, wtext, w) != 0 || explore_entries_resolve(w) != 0) goto out;
  if (o->area && access("scripts/synth.sh", R_OK) != 0) {
    diag_error_plain("--area runs scripts/synth.sh: run tcpa explore from the project's root directory");
    goto out;
  }
  size_t npoints = explore_space_points(&s);
  if (!o->search && npoints > EXPLORE_MAX_POINTS) {
    diag_error_plain("%s: %zu points; at most %d are evaluated by brute force (--search descent answers larger "
                     "spaces: docs/explore.md \"Search\")",
                     o->space, npoints, EXPLORE_MAX_POINTS);
    goto out;
  }
  t.cap = o->search ? explore_search_rows(&s) : npoints;
  t.n = o->search ? 0 : npoints;
  t.idx = o->search ? calloc(t.cap, sizeof *t.idx) : NULL;
  t.cfg = calloc(t.cap, sizeof *t.cfg);
  t.r = calloc(t.cap * (size_t)w->n, sizeof *t.r);
  t.area = calloc(t.cap, sizeof *t.area);
  t.cycles = calloc(t.cap, sizeof *t.cycles);
  t.ok = calloc(t.cap, sizeof *t.ok);
  t.front = calloc(t.cap, sizeof *t.front);
  t.fits = calloc(t.cap, sizeof *t.fits);
  t.cached = calloc(t.cap, sizeof *t.cached);
  if ((o->search && !t.idx) || !t.cfg || !t.r || !t.area || !t.cycles || !t.ok || !t.front || !t.fits || !t.cached)
    goto out;
  if (strlen(o->dir) > 2048) {
    diag_error_plain("--out %s: a directory name of at most 2048 characters", o->dir);
    goto out;
  }
  c->o = o;
  c->s = &s;
  c->w = w;
  if ((o->arch ? arch_config_load(o->arch, &c->base) : arch_config_load_default(&c->base)) != 0) goto out;
  snprintf(c->cachedir, sizeof c->cachedir, "%s/cache", o->dir);
  if (run_mkdir_p(c->cachedir) != 0) goto out;
  if (o->search ? explore_search(c, &t) != 0 : explore_rows_eval(c, &t, 0) != 0) goto out;
  if (o->shard_n) { /* the shard's points are in the cache; a run without --shard answers */
    printf("explore: shard %d/%d: %zu points evaluated into %s (%zu points of the space, %zu cached before)\n",
           o->shard_k, o->shard_n, c->nevaluated, c->cachedir, npoints, c->ncached);
    rc = ENGINE_OK;
    goto out;
  }
  size_t ncached = c->ncached;
  explore_points_judge(w, &t, &mismatch);
  long best = explore_smallest(&t);
  if (explore_tables_write(o, &s, w, &t) != 0) goto out;
  if (explore_answer_write(o, &t, best, "smallest.ini", "the smallest configuration running every entry of the workload"))
    goto out;
  long fastest = o->has_budget ? explore_fastest(&t, o->budget) : -1;
  if (explore_answer_write(o, &t, fastest, "fastest.ini", "the fastest configuration running every entry within the area budget"))
    goto out;
  if (explore_plot(o, &t) != 0) goto out;
  explore_table_print(o, &s, w, &t, best);
  if (o->has_budget && fastest >= 0)
    printf("fastest configuration within area %.0f: point %ld (area %.0f, weighted cycles %.0f): %s/fastest.ini\n",
           o->budget, explore_table_point(&t, (size_t)fastest) + 1, t.area[fastest], t.cycles[fastest], o->dir);
  else if (o->has_budget)
    printf("no point running every entry has an area of at most %.0f\n", o->budget);
  if (explore_sensitivity_write(o, &s, w, &t) != 0) goto out;
  if (o->search)
    printf("search (descent): %zu of the space's %zu points evaluated or cached; ", t.n, npoints);
  printf("%zu points (%zu from the cache), %d entries; area is %s; tables in %s/points.tsv, entries.tsv, "
         "pareto.tsv, sensitivity.tsv, pareto.svg\n",
         t.n, ncached, w->n,
         o->area ? "Yosys cells (scripts/synth.sh)" : "a proxy (docs/explore.md \"Area\"), not synthesis", o->dir);
  rc = mismatch ? ENGINE_MISMATCH : best >= 0 ? ENGINE_OK : ENGINE_ERR_NOFIT;
out:
  if (c && c->prepared) explore_prog_free(w, c->prog);
  free(c);
  free(t.idx);
  free(t.cfg);
  free(t.r);
  free(t.area);
  free(t.cycles);
  free(t.ok);
  free(t.front);
  free(t.fits);
  free(t.cached);
  free(stext);
  free(wtext);
  free(w);
  return rc;
}
