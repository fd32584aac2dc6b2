/*
 * gen_run.c: the runner of random programs (gen_run.h; docs/fuzz.md,
 * section "Random programs").
 *
 * Per seed S, in OUT_DIR/seedS/: prog.pla (gp_program_print), arch.ini
 * when the configuration is random (arch_gen.h, seed S, with the keys
 * below which almost nothing maps raised to the default's: gr_arch_relax);
 * then three child
 * processes of the tcpa binary, each with its output in a log file and a
 * timeout (SIGALRM kept across exec; the child's process group is killed
 * after it ends, so that a harness it started does not outlive it):
 *   tcpa check prog.pla                       must exit 0 (else: generator bug)
 *   tcpa run prog.pla --engine ref ...        must exit 0 (else: generator or
 *                                             interpreter bug)
 *   tcpa run prog.pla --engine E --arch A --pes RxC --param ... --seed S
 *                                             0 pass, 3 does not fit (the
 *                                             resource: the "does not fit"
 *                                             line), anything else FAIL
 * A FAIL is shrunk: every one-step simplification (gp_shrink_apply) is
 * tried in turn on the smallest failing program so far and kept when the
 * same step fails the same way (same stage, same exit status or signal),
 * until a whole pass keeps none; min.pla, its parameters and the command
 * that shows the failure (repro.sh) are written next to prog.pla, with a
 * copy of the configuration file (arch.ini).
 * A 1-D program on a region of several rows runs on 1xC (the tiled
 * dimensions of an RxC region are dimensions 0 and 1).
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch.h"
#include "arch_gen.h"
#include "diag.h"
#include "fileio.h"
#include "gen_program.h"
#include "gen_run.h"
#include "rng.h"

#define GR_MAX_ARGS 32
#define GR_SHRINK_MAX_TESTS 400
#define GR_HARNESS_TIMEOUT 3600 /* seconds for one harness build */

/* The stages of one test, in order. */
enum { GR_STAGE_CHECK, GR_STAGE_REF, GR_STAGE_ENGINE, GR_STAGE_PASS };
static const char *const gr_stage_names[] = {"tcpa check", "tcpa run --engine ref", "engine", "pass"};

/* How one test of a program ended: the stage that failed (or PASS) and
 * its status (exit code, or 256 + signal); nofit for exit 3 of the engine. */
typedef struct {
  int stage, status, nofit;
  char line[512]; /* the first message of the failing child (or the no-fit line) */
} gr_result;

/* One seed's setting: directory, configuration file, region. */
typedef struct {
  char dir[1024];
  char arch[1100]; /* "" for the embedded default */
  int rows, cols;
  unsigned map_pick[2]; /* --random-map: the draws behind the tiled dimensions */
} gr_seed;

/* Returns the status of `self argv...` (gen_run.h). */
int gen_run_exec(const gen_run_opts *o, char **argv, const char *log, int timeout) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) return 256 + SIGABRT;
  if (pid == 0) {
    setpgid(0, 0);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) dup2(fd, 1), dup2(fd, 2), close(fd);
    alarm((unsigned)timeout);
    execv(o->self, argv);
    _exit(127);
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  kill(-pid, SIGKILL); /* whatever the child started and left behind */
  return WIFEXITED(st) ? WEXITSTATUS(st) : 256 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* Copies a line of log into buf (gen_run.h). */
void gen_run_log_line(const char *log, const char *want, char *buf, size_t size) {
  buf[0] = '\0';
  FILE *f = fopen(log, "r");
  if (!f) return;
  char line[2048];
  while (fgets(line, sizeof line, f)) {
    if (want && !strstr(line, want)) continue;
    line[strcspn(line, "\n")] = '\0';
    snprintf(buf, size, "%.500s", line);
    break;
  }
  fclose(f);
}

/* Returns 0 after writing program p to path (atomically: a temporary file
 * renamed). */
static int gr_program_write(const gp_program *p, const char *path) {
  char tmp[1200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) return -1;
  gp_program_print(p, f);
  if (fclose(f) != 0) return -1;
  return rename(tmp, path);
}

/* Appends the parameters of p to argv (gen_run.h). */
void gen_run_params_args(const gp_program *p, char **argv, int *n, char store[][32]) {
  static const char *const names[GP_MAX_PARAMS] = {"N", "M", "K", "L"};
  for (int q = 0; q < p->nparams; q++) {
    snprintf(store[q], 32, "%s=%d", names[q], p->pval[q]);
    argv[(*n)++] = "--param";
    argv[(*n)++] = store[q];
  }
}

/* Appends "--map I[,J]" to argv from *n when --random-map is on and p has
 * two or more dimensions: two distinct dimensions of p (from the seed's
 * draws, so that a shrunk program with fewer dimensions still gets valid
 * ones) on an RxC region, one on a 1xC or Rx1 region; the text goes into
 * map (32 bytes). */
static void gr_map_args(const gen_run_opts *o, const gp_program *p, const gr_seed *s, char **argv, int *n,
                        char *map) {
  int nd = p->ndims;
  if (!o->random_map || nd < 2) return;
  int a = (int)(s->map_pick[0] % (unsigned)nd), b = (a + 1 + (int)(s->map_pick[1] % (unsigned)(nd - 1))) % nd;
  if (s->rows > 1 && s->cols > 1)
    snprintf(map, 32, "%d,%d", a, b);
  else
    snprintf(map, 32, "%d", a);
  argv[(*n)++] = "--map";
  argv[(*n)++] = map;
}

/* Fills argv with the `tcpa run` command of stage (REF or ENGINE) for the
 * program at path; returns the argument count. */
static int gr_run_argv(const gen_run_opts *o, const gp_program *p, const gr_seed *s, int stage, const char *path,
                       char **argv, char store[][32], char *pes, char *seed, char *outdir) {
  static char map[32];
  int n = 0;
  argv[n++] = "tcpa", argv[n++] = "run", argv[n++] = (char *)path;
  gen_run_params_args(p, argv, &n, store);
  snprintf(seed, 32, "%llu", (unsigned long long)p->seed);
  argv[n++] = "--seed", argv[n++] = seed;
  argv[n++] = "--inputs", argv[n++] = "edge"; /* operands of every value class (docs/fuzz.md) */
  if (stage == GR_STAGE_REF) {
    argv[n++] = "--engine", argv[n++] = "ref";
  } else {
    argv[n++] = "--engine", argv[n++] = (char *)o->engine;
    if (s->arch[0]) argv[n++] = "--arch", argv[n++] = (char *)s->arch;
    snprintf(pes, 32, "%dx%d", p->ndims == 1 ? 1 : s->rows, s->cols);
    argv[n++] = "--pes", argv[n++] = pes;
    gr_map_args(o, p, s, argv, &n, map);
    argv[n++] = "--traces", argv[n++] = "on-failure"; /* a seed that fails keeps them */
    argv[n++] = "--out-dir", argv[n++] = outdir;
  }
  argv[n] = NULL;
  return n;
}

/* Returns 1 when engine e runs a Verilated harness (docs/rtl.md "Harness
 * cache"). */
static int gr_engine_harness(const char *e) {
  return !strcmp(e, "cosim") || !strcmp(e, "rtl") || !strcmp(e, "systemc");
}

/* Before the engine stage of an engine with a harness: runs the program on
 * the model (DIR/NAME.fit.log), and when it fits (any exit but 3), builds
 * the configuration's harness (`tcpa harness`, DIR/NAME.harness.log) with
 * a timeout of its own (GR_HARNESS_TIMEOUT: a build takes minutes, more
 * than a run's --timeout, and only a configuration a program fits on pays
 * it). Returns 3 (does not fit), 0 (go on to the engine), or the status of
 * a harness that did not build, with its log in *log. */
static int gr_harness_prepare(const gen_run_opts *o, const gp_program *p, const gr_seed *s, const char *name,
                              char *log, size_t logsz) {
  char *argv[GR_MAX_ARGS], store[GP_MAX_PARAMS][32], pes[32], seed[32], outdir[1200];
  snprintf(outdir, sizeof outdir, "%s/%s.fit", s->dir, name);
  snprintf(log, logsz, "%s/%s.fit.log", s->dir, name);
  gen_run_opts m = *o;
  m.engine = "model";
  gr_run_argv(&m, p, s, GR_STAGE_ENGINE, "", argv, store, pes, seed, outdir);
  char path[1200];
  snprintf(path, sizeof path, "%s/%s.pla", s->dir, name);
  argv[2] = path;
  if (gen_run_exec(o, argv, log, o->timeout) == 3) return 3;
  int n = 0;
  argv[n++] = "tcpa", argv[n++] = "harness";
  if (s->arch[0]) argv[n++] = "--arch", argv[n++] = (char *)s->arch;
  argv[n++] = "--kind", argv[n++] = !strcmp(o->engine, "systemc") ? "sc" : "rtl";
  argv[n] = NULL;
  snprintf(log, logsz, "%s/%s.harness.log", s->dir, name);
  int timeout = o->timeout > GR_HARNESS_TIMEOUT ? o->timeout : GR_HARNESS_TIMEOUT;
  return gen_run_exec(o, argv, log, timeout);
}

/* Returns the result of taking program p (written to DIR/NAME.pla)
 * through check, the reference and the engine (for an engine with a
 * harness, first the fit on the model and the harness: gr_harness_prepare). */
static gr_result gr_test(const gen_run_opts *o, const gp_program *p, const gr_seed *s, const char *name) {
  gr_result r = {GR_STAGE_PASS, 0, 0, ""};
  char path[1200], log[1200], outdir[1200];
  snprintf(path, sizeof path, "%s/%s.pla", s->dir, name);
  snprintf(outdir, sizeof outdir, "%s/%s.run", s->dir, name);
  if (gr_program_write(p, path) != 0) {
    r.stage = GR_STAGE_CHECK, r.status = 2;
    snprintf(r.line, sizeof r.line, "cannot write %.300s: %.100s", path, strerror(errno));
    return r;
  }
  char *argv[GR_MAX_ARGS], store[GP_MAX_PARAMS][32], pes[32], seed[32];
  for (int stage = GR_STAGE_CHECK; stage < GR_STAGE_PASS; stage++) {
    if (stage == GR_STAGE_CHECK) {
      argv[0] = "tcpa", argv[1] = "check", argv[2] = path, argv[3] = NULL;
    } else {
      gr_run_argv(o, p, s, stage, path, argv, store, pes, seed, outdir);
    }
    int st = 0;
    if (stage == GR_STAGE_ENGINE && gr_engine_harness(o->engine))
      st = gr_harness_prepare(o, p, s, name, log, sizeof log);
    if (st == 0) {
      snprintf(log, sizeof log, "%s/%s.%s.log", s->dir, name,
               stage == GR_STAGE_CHECK ? "check" : stage == GR_STAGE_REF ? "ref" : o->engine);
      st = gen_run_exec(o, argv, log, o->timeout);
    }
    if (st == 0) continue;
    r.stage = stage, r.status = st;
    if (stage == GR_STAGE_ENGINE && st == 3) {
      r.nofit = 1;
      gen_run_log_line(log, "does not fit", r.line, sizeof r.line);
      if (!r.line[0]) gen_run_log_line(log, NULL, r.line, sizeof r.line);
    } else {
      gen_run_log_line(log, "error", r.line, sizeof r.line);
      if (!r.line[0]) gen_run_log_line(log, NULL, r.line, sizeof r.line);
    }
    return r;
  }
  return r;
}

/* Returns 1 when candidate result c fails the way r did. */
static int gr_same_failure(const gr_result *r, const gr_result *c) {
  return c->stage == r->stage && c->status == r->status;
}

/* Returns the number of equations of p. */
static int gr_equations(const gp_program *p) {
  int n = 0;
  for (int v = 0; v < p->nvars; v++) n += p->var[v].npieces;
  for (int o = 0; o < p->noutputs; o++) n += p->out[o].nsplit;
  return n;
}

/* Shrinks *best (which fails as r) while the failure persists; returns
 * the number of tests run. */
static int gr_shrink(const gen_run_opts *o, gp_program *best, const gr_result *r, const gr_seed *s) {
  int tests = 0, changed = 1;
  while (changed && tests < GR_SHRINK_MAX_TESTS) {
    changed = 0;
    for (int k = 0; k < gp_shrink_count(best) && tests < GR_SHRINK_MAX_TESTS; k++) {
      gp_program cand;
      gp_program_copy(&cand, best);
      if (gp_shrink_apply(&cand, k) != 0 || gp_program_size(&cand) >= gp_program_size(best)) {
        gp_program_free(&cand);
        continue;
      }
      tests++;
      gr_result c = gr_test(o, &cand, s, "cand");
      if (gr_same_failure(r, &c)) {
        gp_program_free(best);
        *best = cand;
        changed = 1;
        k--; /* the same simplification may apply again */
      } else {
        gp_program_free(&cand);
      }
    }
  }
  return tests;
}

/* Writes DIR/repro.sh: the commands that show the failure of min.pla. */
static void gr_repro_write(const gen_run_opts *o, const gp_program *p, const gr_seed *s) {
  char path[1200], pla[1200], outdir[1200];
  snprintf(path, sizeof path, "%s/repro.sh", s->dir);
  snprintf(pla, sizeof pla, "%s/min.pla", s->dir);
  snprintf(outdir, sizeof outdir, "%s/min.run", s->dir);
  FILE *f = fopen(path, "w");
  if (!f) return;
  char *argv[GR_MAX_ARGS], store[GP_MAX_PARAMS][32], pes[32], seed[32];
  fputs("#!/bin/sh\n# the smallest program that fails as the seed did (tcpa gen program --check)\n"
        "TCPA=${TCPA:-tcpa}\n", f);
  fputs("\"$TCPA\" check ", f);
  fileio_shell_quote(f, pla);
  fputs("\n", f);
  for (int stage = GR_STAGE_REF; stage <= GR_STAGE_ENGINE; stage++) {
    gr_run_argv(o, p, s, stage, pla, argv, store, pes, seed, outdir);
    fputs("\"$TCPA\"", f);
    for (int t = 1; argv[t]; t++) {
      fputs(" ", f);
      fileio_shell_quote(f, argv[t]);
    }
    fputs("\n", f);
  }
  fclose(f);
}

/* Removes one file or empty directory for nftw; returns 0 to go on. */
static int gr_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

/* Removes directory dir and everything in it (a seed's own directory). */
static void gr_dir_remove(const char *dir) { nftw(dir, gr_remove_one, 16, FTW_DEPTH | FTW_PHYS); }

/* Raises in *cfg the keys below which almost no program maps (loop
 * dimensions, control signals, registers, program memory, bank depth) to
 * at least the default's; the shape, the functional units, their
 * latencies, FIFOs, ports and banks stay as drawn. */
static void gr_arch_relax(arch_config *cfg) {
  const arch_config d = arch_config_default();
#define GR_RAISE(k) \
  if (cfg->k < d.k) cfg->k = d.k
  GR_RAISE(gc_dims);
  GR_RAISE(gc_signals);
  GR_RAISE(gc_history);
  GR_RAISE(rd);
  GR_RAISE(fd);
  GR_RAISE(fd_depth);
  GR_RAISE(id);
  GR_RAISE(od);
  GR_RAISE(imem);
  GR_RAISE(bank_depth);
#undef GR_RAISE
}

/* Returns 0 after choosing the configuration and region of seed `seed`
 * into *s (random ones written to DIR/arch.ini). */
static int gr_seed_setup(const gen_run_opts *o, uint64_t seed, gr_seed *s) {
  arch_config cfg;
  s->arch[0] = '\0';
  if (o->arch_random) {
    if (arch_gen_config(seed, o->max_pes, &cfg) != 0) return -1;
    gr_arch_relax(&cfg);
    snprintf(s->arch, sizeof s->arch, "%s/arch.ini", s->dir);
    FILE *f = fopen(s->arch, "w");
    if (!f) return -1;
    fprintf(f, "; tcpa gen arch --seed %llu --max-pes %d, registers, imem, gc and bank depth\n"
               "; raised to at least the default's (tcpa gen program --arch random)\n",
            (unsigned long long)seed, o->max_pes);
    arch_config_write_ini(&cfg, f);
    if (fclose(f) != 0) return -1;
  } else if (o->arch) {
    snprintf(s->arch, sizeof s->arch, "%s", o->arch);
    if (arch_config_load(o->arch, &cfg) != 0) return -1;
  } else {
    cfg = arch_config_default();
  }
  s->rows = o->pes_r, s->cols = o->pes_c;
  if (!s->rows) {
    rng_state r = rng_state_seed_named(seed, "gen program region");
    s->rows = rng_state_range(&r, 1, cfg.rows < 2 ? cfg.rows : 2);
    s->cols = rng_state_range(&r, 1, cfg.cols < 4 ? cfg.cols : 4);
  }
  rng_state m = rng_state_seed_named(seed, "gen program map");
  s->map_pick[0] = (unsigned)rng_state_range(&m, 0, 11), s->map_pick[1] = (unsigned)rng_state_range(&m, 0, 11);
  return 0;
}

/* Copies a configuration file given with --arch into the seed's
 * directory (arch.ini) and uses the copy, so that a failure's directory
 * holds everything repro.sh needs; keeps the original when it cannot. */
static void gr_arch_keep(gr_seed *s) {
  char path[1100];
  snprintf(path, sizeof path, "%s/arch.ini", s->dir);
  if (!s->arch[0] || !strcmp(s->arch, path)) return;
  size_t len;
  char *text = fileio_read_all(s->arch, &len);
  FILE *f = text ? fopen(path, "w") : NULL;
  int ok = f && fwrite(text, 1, len, f) == len;
  if (f && fclose(f) != 0) ok = 0;
  free(text);
  if (ok) snprintf(s->arch, sizeof s->arch, "%s", path);
}

/* Prints the shape of p ("2-D, 5 equations") to f. */
static void gr_shape_print(const gp_program *p, FILE *f) {
  fprintf(f, "%d-D, %d equations, ", p->ndims, gr_equations(p));
  gp_program_params_print(p, f);
}

/* Merges the functional coverage of the engine run of seed s (its
 * prog.run/fcov.json) into o->cov; a seed without one is said on the log. */
static void gr_cov_merge(const gen_run_opts *o, const gr_seed *s) {
  char path[1300], msg[512];
  snprintf(path, sizeof path, "%s/prog.run/fcov.json", s->dir);
  if (fcov_load(o->cov, path, msg, sizeof msg)) fprintf(o->log, "  no functional coverage: %s\n", msg);
}

/* Runs one seed: prints its line (and the shrinking of a FAIL), counts
 * it into *t. */
static void gr_seed_run(const gen_run_opts *o, uint64_t seed, gen_run_totals *t) {
  gr_seed s;
  snprintf(s.dir, sizeof s.dir, "%s/seed%llu", o->out_dir, (unsigned long long)seed);
  char failed[1100];
  FILE *log = o->log;
  if (fileio_mkdir_p(s.dir, failed, sizeof failed) != 0 || gr_seed_setup(o, seed, &s) != 0) {
    fprintf(log, "seed %llu: FAIL: cannot set up %s\n", (unsigned long long)seed, s.dir);
    t->fail++;
    return;
  }
  gp_program p;
  gp_program_generate(seed, &p);
  gr_result r = gr_test(o, &p, &s, "prog");
  fprintf(log, "seed %llu: ", (unsigned long long)seed);
  if (r.stage == GR_STAGE_PASS || r.nofit) {
    fputs(r.nofit ? "does not fit" : "pass", log);
    fputs(" (", log);
    gr_shape_print(&p, log);
    char *margv[2] = {NULL, NULL}, map[32];
    int mn = 0;
    gr_map_args(o, &p, &s, margv, &mn, map);
    fprintf(log, "; %s %dx%d%s%s%s%s)", o->engine, p.ndims == 1 ? 1 : s.rows, s.cols, mn ? " map " : "",
            mn ? map : "", s.arch[0] ? " on " : "", s.arch[0] ? s.arch : "");
    if (r.nofit) fprintf(log, ": %s", r.line);
    fputs("\n", log);
    r.nofit ? t->nofit++ : t->pass++;
    if (!r.nofit && o->cov) gr_cov_merge(o, &s);
    if (!o->keep) gr_dir_remove(s.dir);
    gp_program_free(&p);
    return;
  }
  t->fail++;
  gr_arch_keep(&s);
  fprintf(log, "FAIL: %s ", gr_stage_names[r.stage]);
  if (r.stage == GR_STAGE_ENGINE) fprintf(log, "%s ", o->engine);
  if (r.status >= 256)
    fprintf(log, "killed by signal %d%s", r.status - 256, r.status - 256 == SIGALRM ? " (timeout)" : "");
  else
    fprintf(log, "exit %d", r.status);
  fprintf(log, " (%s): %s\n", s.dir, r.line);
  gp_program best;
  gp_program_copy(&best, &p);
  int tests = o->shrink ? gr_shrink(o, &best, &r, &s) : 0;
  char min[1200];
  snprintf(min, sizeof min, "%s/min.pla", s.dir);
  gr_program_write(&best, min);
  gr_repro_write(o, &best, &s);
  fprintf(log, "  shrunk in %d tests from %d to %d equations (", tests, gr_equations(&p), gr_equations(&best));
  gr_shape_print(&best, log);
  fprintf(log, "): %s, %s/repro.sh\n", min, s.dir);
  gp_program_free(&best);
  gp_program_free(&p);
}

int gen_run_seeds(const gen_run_opts *o, gen_run_totals *t) {
  char failed[1100];
  memset(t, 0, sizeof *t);
  if (fileio_mkdir_p(o->out_dir, failed, sizeof failed) != 0) {
    diag_error_plain("gen program: cannot create directory '%s': %s", failed, strerror(errno));
    return -1;
  }
  char abs[PATH_MAX];
  gen_run_opts ao = *o; /* the seeds' paths absolute, so repro.sh runs from anywhere */
  if (realpath(o->out_dir, abs)) ao.out_dir = abs;
  for (uint64_t seed = o->first;; seed++) {
    gr_seed_run(&ao, seed, t);
    fflush(o->log);
    if (seed == o->last) break;
  }
  int n = t->pass + t->nofit + t->fail;
  fprintf(o->log, "%d seeds: %d pass, %d do not fit, %d FAIL; %d of %d fit (%.0f%%)\n", n, t->pass, t->nofit,
          t->fail, n - t->nofit, n, n ? 100.0 * (n - t->nofit) / n : 0.0);
  return 0;
}
