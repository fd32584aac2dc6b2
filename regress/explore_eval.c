/*
 * explore_eval.c: the evaluation of the points of `tcpa explore`
 * (docs/explore.md "How a point is evaluated").
 *
 * Before any point, every workload entry is prepared once: its program
 * parsed and checked, its parameters bound, its inputs drawn (seed 1, as
 * `tcpa run` draws them, regress/run.c) and the reference interpreter run
 * on them. A point is then each entry through engine_run of engine_flow.h
 * with the model engine, the code of `tcpa run --engine model`: it maps,
 * instantiates, runs the model and compares the outputs with the
 * reference, or returns the no-fit record.
 *
 * The points whose cache file DIR/cache/<fingerprint>.tsv lacks a result
 * are shared among -j worker processes (point i to worker i mod j); each
 * writes a point's cache file whole (a temporary file renamed), with the
 * engines' messages of that point in DIR/cache/<fingerprint>.log, and
 * prints a progress line. The parent then reads every point from the
 * cache, so a point is read the same way whether it was just computed or
 * cached by an earlier run.
 *
 * Cache file: a header line, then `area_cells N` (with --area), then one
 * line per entry: `entry ID STATUS II CYCLES RESOURCE KEY NEED HAVE`
 * separated by tabs; ID is the entry's program name, a hash of its text,
 * its parameters and region, so editing a program invalidates its results.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "engine_flow.h"
#include "explore.h"
#include "explore_eval.h"
#include "parse.h"
#include "rng.h"

/* Returns 0 after binding entry e's parameters into params for program p;
 * -1 after an error at the workload's line. */
static int explore_params_bind(const explore_workload *w, const explore_entry *e, const ast_program *p,
                               int64_t *params) {
  int given[AST_MAX_PARAMS] = {0};
  for (int k = 0; k < e->nparams; k++) {
    int id = -1;
    for (int i = 0; i < p->nparams; i++)
      if (!strcmp(p->param[i], e->pname[k])) id = i;
    if (id < 0 || given[id]) {
      diag_error_plain("%s:%d: program '%s' has no parameter '%s'%s", w->path, e->line, p->name, e->pname[k],
                       id >= 0 ? " (given twice)" : "");
      return -1;
    }
    given[id] = 1;
    params[id] = e->pvalue[k];
  }
  for (int i = 0; i < p->nparams; i++)
    if (!given[i]) {
      diag_error_plain("%s:%d: program '%s' needs parameter %s=VALUE", w->path, e->line, p->name, p->param[i]);
      return -1;
    }
  if (!check_params_valid(p, params)) {
    diag_error_plain("%s:%d: the parameters are outside the parameter domain of program '%s'", w->path, e->line,
                     p->name);
    return -1;
  }
  return 0;
}

/* Returns 0 after preparing every entry of w into prog (explore_eval.h). */
int explore_prog_prepare(const explore_workload *w, explore_prog *prog) {
  for (int k = 0; k < w->n; k++) {
    const explore_entry *e = &w->e[k];
    explore_prog *x = &prog[k];
    memset(x, 0, sizeof *x);
    x->p = parse_file(e->program);
    if (!x->p) {
      diag_error_plain("%s:%d: the program %s does not load", w->path, e->line, e->program);
      return -1;
    }
    if (check_program(x->p) != 0) return -1;
    if (explore_params_bind(w, e, x->p, x->params) != 0) return -1;
    x->arrays = calloc((size_t)x->p->narrays + 1, sizeof *x->arrays);
    if (!x->arrays || interp_arrays_init(x->p, x->params, x->arrays) != 0) return -1;
    for (int a = 0; a < x->p->narrays; a++) {
      if (x->p->arrays[a].kind != AST_ARRAY_IN) continue;
      rng_state r = rng_state_seed_named(1, x->p->arrays[a].name);
      for (size_t i = 0; i < x->arrays[a].n; i++) x->arrays[a].data[i] = rng_state_range(&r, -1000, 1000);
    }
    interp_stats st;
    if (interp_program_run(x->p, x->params, x->arrays, &st) != 0) {
      diag_error_plain("%s:%d: the reference interpreter refuses the entry", w->path, e->line);
      return -1;
    }
  }
  return 0;
}

/* Frees what prepare made. */
void explore_prog_free(const explore_workload *w, explore_prog *prog) {
  for (int k = 0; k < w->n; k++) {
    if (prog[k].arrays && prog[k].p) interp_arrays_free(prog[k].p, prog[k].arrays);
    free(prog[k].arrays);
    if (prog[k].p) ast_program_free(prog[k].p);
  }
}

/* Fills *r with what entry e (prepared in x) gives on cfg. */
static void explore_entry_eval(const explore_entry *e, const explore_prog *x, const arch_config *cfg,
                               explore_result *r) {
  memset(r, 0, sizeof *r);
  snprintf(r->res, sizeof r->res, "-");
  snprintf(r->key, sizeof r->key, "-");
  r->need = r->have = -1;
  if (e->rows > cfg->rows || e->cols > cfg->cols) {
    int rows = e->rows > cfg->rows;
    snprintf(r->status, sizeof r->status, "nofit");
    snprintf(r->res, sizeof r->res, "%s", fit_resource_name(rows ? FIT_RES_ARRAY_ROWS : FIT_RES_ARRAY_COLS));
    snprintf(r->key, sizeof r->key, rows ? "array.rows" : "array.cols");
    r->need = rows ? e->rows : e->cols;
    r->have = rows ? cfg->rows : cfg->cols;
    return;
  }
  engine_run_opts ro = {.kind = ENGINE_KIND_MODEL, .seed = 1, .program_path = e->program};
  inst_opts io;
  memset(&io, 0, sizeof io);
  engine_outcome eo;
  fit_record fit = {0};
  int rc = engine_run(x->p, cfg, x->params, x->arrays, e->rows, e->cols, 0, NULL, &io, &ro, &eo, &fit);
  if (rc == ENGINE_ERR_NOFIT) {
    const fit_item *it = fit_record_closest(&fit);
    snprintf(r->status, sizeof r->status, "nofit");
    if (it) {
      snprintf(r->res, sizeof r->res, "%s", fit_resource_name(it->res));
      snprintf(r->key, sizeof r->key, "%s", it->key[0] ? it->key : "-");
      r->need = it->need;
      r->have = it->have;
    }
    engine_outcome_free(&eo);
    return;
  }
  snprintf(r->status, sizeof r->status, "%s", rc == ENGINE_OK ? "ok" : rc == ENGINE_MISMATCH ? "mismatch" : "error");
  if (eo.built) r->ii = eo.c.ii;
  if (eo.ran_model) r->cycles = eo.model.cycles;
  engine_outcome_free(&eo);
}

/* Returns 1 when the cache file holds every entry (explore.h). */
int explore_cache_read(const char *path, const explore_workload *w, explore_result *r, double *cells, int want_cells) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  int found[EXPLORE_MAX_ENTRIES] = {0}, have_cells = 0;
  char line[2048];
  while (fgets(line, sizeof line, f)) {
    char id[1200];
    explore_result x;
    unsigned long long cyc;
    long long need, have;
    if (sscanf(line, "area_cells\t%lf", cells) == 1) have_cells = 1;
    if (sscanf(line, "entry\t%1199[^\t]\t%11[^\t]\t%d\t%llu\t%23[^\t]\t%31[^\t]\t%lld\t%lld", id, x.status, &x.ii,
               &cyc, x.res, x.key, &need, &have) != 8)
      continue;
    x.cycles = cyc;
    x.need = need;
    x.have = have;
    for (int k = 0; k < w->n; k++)
      if (!strcmp(w->e[k].id, id)) {
        r[k] = x;
        found[k] = 1;
      }
  }
  fclose(f);
  for (int k = 0; k < w->n; k++)
    if (!found[k]) return 0;
  return !want_cells || have_cells;
}

/* Returns the Yosys cell count of cfg (scripts/synth.sh in its own
 * directory dir), or -1 after printing why. */
static double explore_cells_synth(const arch_config *cfg, const char *dir) {
  char pkg[4400], out[4400], table[4500];
  snprintf(pkg, sizeof pkg, "%s/tcpa_params_pkg.sv", dir);
  snprintf(out, sizeof out, "%s/synth", dir);
  FILE *f = fopen(pkg, "w");
  if (!f) return -1;
  arch_config_write_sv(cfg, f);
  fclose(f);
  setenv("SYNTH_PARAMS", pkg, 1);
  setenv("SYNTH_OUT", out, 1);
  char *argv[] = {"bash", "scripts/synth.sh", NULL};
  int rc = engine_harness_spawn(argv, 2, -1);
  if (rc != 0) {
    fprintf(stderr, "explore: scripts/synth.sh exited %d for %s\n", rc, pkg);
    return -1;
  }
  snprintf(table, sizeof table, "%s/table.txt", out);
  f = fopen(table, "r");
  double cells = -1;
  char line[256];
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "TOTAL (flattened)", 17)) cells = atof(line + 17);
  if (f) fclose(f);
  return cells;
}

/* Evaluates the point with cache file `cache` (a worker's job): the
 * entries not cached, the cells with --area; writes the file whole. */
static void explore_point_eval(const explore_opts *o, const explore_workload *w, const explore_prog *prog,
                               const arch_config *cfg, const char *cache, const char *workdir) {
  explore_result r[EXPLORE_MAX_ENTRIES];
  double cells = -1;
  for (int k = 0; k < w->n; k++) snprintf(r[k].status, sizeof r[k].status, "%s", "");
  explore_cache_read(cache, w, r, &cells, 0);
  for (int k = 0; k < w->n; k++)
    if (!r[k].status[0]) explore_entry_eval(&w->e[k], &prog[k], cfg, &r[k]);
  if (o->area && cells < 0) cells = explore_cells_synth(cfg, workdir);
  char tmp[4400];
  snprintf(tmp, sizeof tmp, "%s.tmp.%d", cache, (int)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) return;
  fprintf(f, "# tcpa explore cache: fingerprint 0x%016llx (docs/explore.md)\n",
          (unsigned long long)arch_config_fingerprint(cfg));
  if (cells >= 0) fprintf(f, "area_cells\t%.0f\n", cells);
  for (int k = 0; k < w->n; k++)
    fprintf(f, "entry\t%s\t%s\t%d\t%llu\t%s\t%s\t%lld\t%lld\n", w->e[k].id, r[k].status, r[k].ii,
            (unsigned long long)r[k].cycles, r[k].res, r[k].key, (long long)r[k].need, (long long)r[k].have);
  if (fclose(f) == 0) rename(tmp, cache);
  else remove(tmp);
}

/* Returns 0 after evaluating the points todo[0..ntodo) with o->jobs
 * workers (explore_eval.h). */
int explore_points_eval(const explore_opts *o, const explore_workload *w, const explore_prog *prog,
                        const arch_config *cfgs, const size_t *number, const size_t *todo, size_t ntodo,
                        const char *cachedir) {
  int jobs = o->jobs < 1 ? 1 : o->jobs;
  if ((size_t)jobs > ntodo) jobs = (int)ntodo;
  pid_t pid[256];
  fflush(stdout);
  fflush(stderr);
  time_t t0 = time(NULL);
  for (int j = 0; j < jobs && j < 256; j++) {
    pid[j] = fork();
    if (pid[j] < 0) return -1;
    if (pid[j]) continue;
    int progress = dup(2);
    FILE *pf = fdopen(progress, "w");
    for (size_t t = (size_t)j; t < ntodo; t += (size_t)jobs) {
      const arch_config *cfg = &cfgs[todo[t]];
      unsigned long long fp = (unsigned long long)arch_config_fingerprint(cfg);
      char cache[4200], log[4200], dir[4200];
      snprintf(cache, sizeof cache, "%s/%016llx.tsv", cachedir, fp);
      snprintf(log, sizeof log, "%s/%016llx.log", cachedir, fp);
      snprintf(dir, sizeof dir, "%s/%016llx.synth", cachedir, fp);
      if (o->area) mkdir(dir, 0777);
      int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
      if (fd >= 0) {
        dup2(fd, 2);
        dup2(fd, 1);
        close(fd);
      }
      explore_point_eval(o, w, prog, cfg, cache, dir);
      fflush(stdout);
      fflush(stderr);
      if (!o->quiet && pf) {
        fprintf(pf, "explore: point %zu evaluated (%zu to do, %lds elapsed), fingerprint 0x%016llx\n", number[todo[t]],
                ntodo, (long)(time(NULL) - t0), fp);
        fflush(pf);
      }
    }
    _exit(0);
  }
  int bad = 0;
  for (int j = 0; j < jobs && j < 256; j++) {
    int st;
    while (waitpid(pid[j], &st, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st)) bad = 1;
  }
  return bad ? -1 : 0;
}
