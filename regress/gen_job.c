/*
 * gen_job.c: random jobs, `tcpa gen program --seeds A-B --check --regions
 * N` (gen_run.h; docs/fuzz.md "Random jobs"): several random programs at
 * once, each on its own region and global controller, run as a job
 * (`tcpa run JOB.ini`, docs/user-guide.md "Jobs", docs/timing.md section
 * 11), which checks every program's outputs against its reference and
 * its region's cycles against its cycles alone (isolation).
 *
 * Per seed S, in OUT_DIR/seedS/: the array's columns are cut into N
 * bands at random (each at least one column wide; N is lowered to the
 * number of columns); band k gets region k at row 0 of its first column:
 * one row for a 1-D program, else 1 or 2 rows (as the single-program
 * runner draws them), tiled as `tcpa run` tiles by default. The random
 * programs' parameters are multiplied by GJ_SCALE[dimensions] (16 for a
 * 1-D program: N = 8 becomes 128) so that a program runs longer than the
 * next program's stream takes to load and the regions run at the same
 * time; each seed's line says how many pairs of runs overlapped in time
 * (from the job's `start S: C cycles` lines). Each region gets
 * the first of up to GJ_TRIES random programs (seeds drawn from S and k)
 * that fits there alone on the model (`tcpa run P.pla --engine model
 * --pes RxC@0,C`: exit 0; 3 draws the next; anything else is a FAIL of
 * that program, reported as the single-program runner would). Each run
 * starts `auto+D`, D drawn from 0..GJ_MAX_DELAY cycles, so that the
 * programs overlap in time differently from seed to seed. The regions
 * with a program make the job (job.ini); with fewer than two the seed
 * does not fit. Then `tcpa run job.ini --engine E` (model or cosim):
 * exit 0 pass, anything else FAIL (its first error line printed). A
 * failing job is not shrunk: its directory keeps job.ini, the programs
 * and repro.sh.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "diag.h"
#include "fileio.h"
#include "gen_program.h"
#include "gen_run.h"
#include "rng.h"

#define GJ_TRIES 6        /* programs drawn per region before it is left empty */
#define GJ_MAX_DELAY 30  /* cycles added to a run's earliest start, at most */
#define GJ_MAX 4          /* regions: one per global controller */

/* The factor on a random program's parameters, by its loop dimensions. */
static const int GJ_SCALE[GP_MAX_DIMS + 1] = {1, 16, 6, 3, 2};

/* One region of a random job and the program it got. */
typedef struct {
  int row, col, rows, cols;  /* the region (rows: of a 2-D program) */
  int has;                   /* a program fits there */
  gp_program prog;
  char path[1200];           /* DIR/rK.pla */
  int delay;                 /* start = auto+delay */
} gj_region;

/* Returns the region text of g ("2x1@0,3"): one row for a 1-D program. */
static void gj_pes_text(const gj_region *g, char *buf, size_t n) {
  snprintf(buf, n, "%dx%d@%d,%d", g->prog.ndims == 1 ? 1 : g->rows, g->cols, g->row, g->col);
}

/* Returns the status of program g->prog alone on its region on the model
 * (0 fits and passes, 3 does not fit), its log in DIR/rK.alone.log. */
static int gj_alone(const gen_run_opts *o, const char *dir, int k, gj_region *g) {
  char *argv[32], store[GP_MAX_PARAMS][32], pes[64], seed[32], log[1200];
  int n = 0;
  argv[n++] = "tcpa", argv[n++] = "run", argv[n++] = g->path;
  gen_run_params_args(&g->prog, argv, &n, store);
  snprintf(seed, sizeof seed, "%llu", (unsigned long long)g->prog.seed);
  argv[n++] = "--seed", argv[n++] = seed;
  argv[n++] = "--engine", argv[n++] = "model";
  if (o->arch) argv[n++] = "--arch", argv[n++] = (char *)o->arch;
  gj_pes_text(g, pes, sizeof pes);
  argv[n++] = "--pes", argv[n++] = pes;
  argv[n] = NULL;
  snprintf(log, sizeof log, "%s/r%d.alone.log", dir, k);
  return gen_run_exec(o, argv, log, o->timeout);
}

/* Returns 0 after writing program p to path; -1. */
static int gj_program_write(const gp_program *p, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  gp_program_print(p, f);
  return fclose(f);
}

/* Returns nothing; cuts the array's columns into n bands (regions at row
 * 0) and draws each region's rows, tiled dimensions and start delay. */
static void gj_regions_draw(rng_state *r, const arch_config *cfg, int n, gj_region *g) {
  int cut[GJ_MAX + 1] = {0};
  cut[n] = cfg->cols;
  for (int k = 1; k < n; k++) /* distinct cuts, increasing: each band at least one column */
    cut[k] = rng_state_range(r, cut[k - 1] + 1, cfg->cols - (n - k));
  for (int k = 0; k < n; k++) {
    memset(&g[k], 0, sizeof g[k]);
    g[k].col = cut[k];
    g[k].cols = cut[k + 1] - cut[k];
    g[k].rows = rng_state_range(r, 1, cfg->rows < 2 ? cfg->rows : 2);
    g[k].delay = rng_state_range(r, 0, GJ_MAX_DELAY);
  }
}

/* Returns 0 after giving region k (of seed s, in dir) the first random
 * program that fits it alone, or none (g->has 0); 1 after a program that
 * fails alone (its line in why); -1 when a file cannot be written. */
static int gj_region_fill(const gen_run_opts *o, uint64_t s, const char *dir, int k, gj_region *g, char *why,
                          size_t whysz) {
  rng_state r = rng_state_seed_named(s * GJ_MAX + (uint64_t)k, "gen job program");
  for (int t = 0; t < GJ_TRIES; t++) {
    uint64_t ps = (uint64_t)rng_state_range(&r, 0, INT32_MAX);
    gp_program_generate(ps, &g->prog);
    for (int q = 0; q < g->prog.nparams; q++) g->prog.pval[q] *= GJ_SCALE[g->prog.ndims];
    snprintf(g->path, sizeof g->path, "%s/r%d.pla", dir, k);
    if (gj_program_write(&g->prog, g->path) != 0) {
      gp_program_free(&g->prog);
      return -1;
    }
    int st = gj_alone(o, dir, k, g);
    if (st == 0) {
      g->has = 1;
      return 0;
    }
    if (st != 3) {
      char log[1200];
      snprintf(log, sizeof log, "%s/r%d.alone.log", dir, k);
      gen_run_log_line(log, "error", why, whysz);
      if (!why[0]) gen_run_log_line(log, NULL, why, whysz);
      gp_program_free(&g->prog); /* its text stays in rK.pla */
      return 1;
    }
    gp_program_free(&g->prog);
  }
  return 0;
}

/* Returns 0 after writing DIR/job.ini of the regions that have a program
 * (and repro.sh, the command that runs it); -1. */
static int gj_job_write(const gen_run_opts *o, const char *dir, const gj_region *g, int n) {
  char path[1200];
  snprintf(path, sizeof path, "%s/job.ini", dir);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "# a random job (tcpa gen program --regions, docs/fuzz.md \"Random jobs\")\n");
  if (o->arch) {
    char abs[PATH_MAX];
    fprintf(f, "arch = %s\n", realpath(o->arch, abs) ? abs : o->arch);
  }
  for (int k = 0; k < n; k++) {
    if (!g[k].has) continue;
    char pes[64];
    gj_pes_text(&g[k], pes, sizeof pes);
    fprintf(f, "\n[run r%d]\nprogram = %s\n", k, g[k].path);
    static const char *const names[GP_MAX_PARAMS] = {"N", "M", "K", "L"};
    for (int q = 0; q < g[k].prog.nparams; q++) fprintf(f, "param = %s=%d\n", names[q], g[k].prog.pval[q]);
    fprintf(f, "pes = %s\nseed = %llu\nstart = auto+%d\n", pes, (unsigned long long)g[k].prog.seed, g[k].delay);
  }
  if (fclose(f) != 0) return -1;
  snprintf(path, sizeof path, "%s/repro.sh", dir);
  if (!(f = fopen(path, "w"))) return -1;
  fprintf(f, "#!/bin/sh\n# the job of this directory, as tcpa gen program --regions ran it\nexec tcpa run %s/job.ini "
             "--engine %s \"$@\"\n", dir, o->engine);
  return fclose(f);
}

/* Returns the number of pairs of runs that were running in the same
 * cycle, from the job log's `start S: C cycles` lines; *runs gets how many
 * such lines there were. */
static int gj_overlaps(const char *log, int *runs) {
  uint64_t a[GJ_MAX], b[GJ_MAX];
  int n = 0, pairs = 0;
  FILE *f = fopen(log, "r");
  char line[2048];
  while (f && fgets(line, sizeof line, f) && n < GJ_MAX) {
    const char *p = strstr(line, ", start ");
    unsigned long long s0, c;
    if (strncmp(line, "run ", 4) || !p || sscanf(p, ", start %llu: %llu cycles", &s0, &c) != 2) continue;
    a[n] = s0, b[n++] = s0 + c;
  }
  if (f) fclose(f);
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) pairs += a[i] < b[j] && a[j] < b[i];
  *runs = n;
  return pairs;
}

/* Runs one seed's job: prints its line, counts it into *t. */
static void gj_seed_run(const gen_run_opts *o, const arch_config *cfg, int regions, uint64_t s, gen_run_totals *t) {
  char dir[1100], failed[1100], why[512] = "";
  snprintf(dir, sizeof dir, "%s/seed%llu", o->out_dir, (unsigned long long)s);
  FILE *log = o->log;
  if (fileio_mkdir_p(dir, failed, sizeof failed) != 0) {
    fprintf(log, "seed %llu: FAIL: cannot create %s\n", (unsigned long long)s, failed);
    t->fail++;
    return;
  }
  int n = regions < cfg->cols ? regions : cfg->cols, have = 0, bad = -1;
  gj_region g[GJ_MAX];
  rng_state r = rng_state_seed_named(s, "gen job regions");
  gj_regions_draw(&r, cfg, n, g);
  for (int k = 0; k < n && bad < 0; k++) {
    int st = gj_region_fill(o, s, dir, k, &g[k], why, sizeof why);
    if (st != 0) bad = k;
    have += g[k].has;
  }
  fprintf(log, "seed %llu: ", (unsigned long long)s);
  if (bad >= 0) {
    fprintf(log, "FAIL: program r%d alone on the model (%s/r%d.alone.log): %s\n", bad, dir, bad, why);
    t->fail++;
  } else if (have < 2) {
    fprintf(log, "does not fit (%d of %d regions got a program that fits alone)\n", have, n);
    t->nofit++;
  } else if (gj_job_write(o, dir, g, n) != 0) {
    fprintf(log, "FAIL: cannot write %s/job.ini\n", dir);
    t->fail++;
  } else {
    char job[1200], out[1200], jlog[1200];
    snprintf(job, sizeof job, "%s/job.ini", dir);
    snprintf(out, sizeof out, "%s/job.run", dir);
    snprintf(jlog, sizeof jlog, "%s/job.%s.log", dir, o->engine);
    char *argv[] = {"tcpa", "run", job, "--engine", (char *)o->engine, "--out-dir", out, NULL};
    int st = gen_run_exec(o, argv, jlog, o->timeout);
    fputs(st == 0 ? "pass (" : "FAIL (", log);
    for (int k = 0, first = 1; k < n; k++) {
      if (!g[k].has) continue;
      char pes[64];
      gj_pes_text(&g[k], pes, sizeof pes);
      fprintf(log, "%sr%d %d-D on %s, auto+%d", first ? "" : "; ", k, g[k].prog.ndims, pes, g[k].delay);
      first = 0;
    }
    int runs, pairs = gj_overlaps(jlog, &runs);
    fprintf(log, "; %s; %d of %d pairs at the same time)", o->engine, pairs, runs * (runs - 1) / 2);
    t->overlap += pairs > 0;
    if (st != 0) {
      gen_run_log_line(jlog, "error", why, sizeof why);
      if (!why[0]) gen_run_log_line(jlog, NULL, why, sizeof why);
      fprintf(log, ": exit %d: %s, %s/repro.sh", st, why, dir);
      t->fail++;
    } else {
      t->pass++;
    }
    fputc('\n', log);
  }
  for (int k = 0; k < n; k++)
    if (g[k].has) gp_program_free(&g[k].prog);
}

/* Returns 0 after running every seed as a random job (gen_run.h). */
int gen_run_jobs(const gen_run_opts *o, int regions, gen_run_totals *t) {
  char failed[1100], abs[PATH_MAX];
  memset(t, 0, sizeof *t);
  arch_config cfg;
  if (o->arch ? arch_config_load(o->arch, &cfg) != 0 : (cfg = arch_config_default(), 0)) return -1;
  if (fileio_mkdir_p(o->out_dir, failed, sizeof failed) != 0) {
    diag_error_plain("gen program: cannot create directory '%s': %s", failed, strerror(errno));
    return -1;
  }
  gen_run_opts ao = *o; /* the seeds' paths absolute: job.ini and repro.sh work from anywhere */
  if (realpath(o->out_dir, abs)) ao.out_dir = abs;
  for (uint64_t s = o->first;; s++) {
    gj_seed_run(&ao, &cfg, regions, s, t);
    fflush(o->log);
    if (s == o->last) break;
  }
  int n = t->pass + t->nofit + t->fail;
  fprintf(o->log, "%d jobs of %d regions: %d pass, %d do not fit, %d FAIL; %d with regions running at the same time\n",
          n, regions, t->pass, t->nofit, t->fail, t->overlap);
  return 0;
}
