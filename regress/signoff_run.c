/*
 * signoff_run.c: the sign-off of an architecture configuration A.ini
 * (`tcpa signoff`, docs/regress.md "Sign-off"): the checks it must pass, in
 * order, each a child process whose output is kept in DIR:
 *
 *   1. the RTL parameter package of A.ini (tcpa arch --sv), rewritten only
 *      when its text changes, so that make reuses earlier builds;
 *   2. lint: verilator --lint-only -Wall on the RTL with that package
 *      (DIR/lint.log);
 *   3. synthesis: scripts/synth.sh through the Makefile's SIGNOFF_DIR rule
 *      (Yosys cells per module and the flattened total, DIR/rtl/synth/);
 *   4. the Verilated harness with line and toggle coverage (tcpa-rtl-cov,
 *      the `cov` harness of the harness cache, engine_harness.c);
 *   5. the suite (default regress/suites/full) in cosim on A.ini, every run
 *      on every region A.ini offers (`tcpa regress --arch A.ini --engine
 *      cosim --pes all --scale small`: the runs at real problem sizes,
 *      which would take hours on every region, are left out), the RTL being the coverage harness (TCPA_RTL)
 *      writing its counters into DIR/cov (TCPA_COVERAGE_DIR);
 *   6. coverage: the counters merged by verilator_coverage into
 *      DIR/coverage.dat, line (line and block points) and toggle coverage
 *      counted per module from it, its lcov tracefile, annotated sources
 *      and genhtml pages, and the regression's functional coverage
 *      (signoff_cov.c).
 *
 * Then DIR/report.md and DIR/report.html (signoff_report.c; verdict PASS or FAIL at the top,
 * the tool's version and git revision (version.h), the steps, cells per module, coverage per module, the failure buckets,
 * the fitting runs out of all and the fit per program and region, and every
 * run that does not fit with its resource: needed, available, over by), and
 * DIR/junit.xml (the regression's); stdout says where, and "fitting runs:
 * F of N". A step that fails skips
 * the steps that need it. PASS: every step passed and every run met its
 * expectation (signoff.h).
 * Runs from the project's root directory (rtl/, scripts/, Makefile).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "datafile.h"
#include "diag.h"
#include "engine.h"
#include "fileio.h"
#include "regress.h"
#include "regress_report.h"
#include "signoff.h"
#include "signoff_nofit.h"
#include "step.h"

int signoff_exec(const char *what, char *const *argv, const char *log, const char *live, const char *const *env) {
  char w[64];
  snprintf(w, sizeof w, "signoff: %s", what);
  step_opts st = {w, log, live, env, 0, stderr};
  return step_run(argv, &st, NULL);
}

/* Returns buf (SIGNOFF_PATH bytes) holding "DIR/name". */
char *signoff_path(char *buf, const signoff_state *s, const char *name) {
  snprintf(buf, SIGNOFF_PATH, "%s/%s", s->adir, name);
  return buf;
}

/* Returns 0 after creating dir (and parents); -1. */
static int signoff_mkdir_p(const char *dir) {
  return fileio_mkdir_p(dir, NULL, 0);
}

/* Writes into buf the live log of step i of s: the file that grows while
 * it runs (the synthesis: Yosys's log, kept as yosys.log at its end; the
 * coverage build: build.log of the harness directory, "cached" when the
 * harness exists). */
static void signoff_step_live(const signoff_state *s, int i, char *buf, size_t size) {
  static const char *const live[SIGNOFF_ST_N] = {"params.log", "lint.log", "rtl/synth/yosys.log.tmp", NULL,
                                                 "regress.log", "coverage.log"};
  arch_config cfg;
  engine_harness_info info;
  char msg[1024];
  if (live[i]) snprintf(buf, size, "%s/%s", s->dir, live[i]);
  else if (arch_config_load(s->arch, &cfg) == 0 &&
           engine_harness_find(&engine_harness_cov, &cfg, s->arch, 0, &info, msg, sizeof msg) == ENGINE_OK)
    snprintf(buf, size, info.present ? "%s (cached)" : "%s/build.log", info.present ? info.bin : info.dir);
  else snprintf(buf, size, "%s/build.log", s->dir);
}

/* Step 1: the parameter package (rewritten only when it changes). */
static void signoff_params(signoff_state *s) {
  signoff_step *st = &s->st[SIGNOFF_ST_PARAMS];
  char pkg[SIGNOFF_PATH], tmp[SIGNOFF_PATH + 8], log[SIGNOFF_PATH];
  snprintf(pkg, sizeof pkg, "%s/tcpa_params_pkg.sv", s->rtl);
  snprintf(tmp, sizeof tmp, "%s.new", pkg);
  char *argv[] = {"/proc/self/exe", "arch", (char *)s->arch, "--sv", "-o", tmp, NULL};
  char *isa[] = {"make", "-s", "gen", NULL}; /* the generated packages (docs/rtl.md) */
  st->ran = 1;
  signoff_path(log, s, "params.log");
  remove(log);
  if (signoff_exec("parameters", argv, log, NULL, NULL) != 0 || signoff_exec("parameters", isa, log, NULL, NULL) != 0) {
    snprintf(st->detail, sizeof st->detail, "tcpa arch --sv or the generated packages failed (params.log)");
    return;
  }
  size_t a, b;
  char *x = fileio_read_all(tmp, &a), *y = fileio_read_all(pkg, &b);
  if (y && a == b && !memcmp(x, y, a)) remove(tmp);
  else rename(tmp, pkg);
  free(x);
  free(y);
  st->ok = 1;
  snprintf(st->detail, sizeof st->detail, "rtl/tcpa_params_pkg.sv");
}

/* Returns a malloc'ed, NULL-terminated list of rtl/tcpa_*.sv, tcpa_pkg.sv
 * first, then the others sorted. */
static char **signoff_rtl_sources(int *n) {
  DIR *d = opendir("rtl");
  struct dirent *e;
  char **v = calloc(256, sizeof *v);
  *n = 0;
  if (!v) return NULL;
  v[(*n)++] = regress_strdup("rtl/tcpa_pkg.sv");
  while (d && (e = readdir(d)) && *n < 255) {
    size_t l = strlen(e->d_name);
    if (strncmp(e->d_name, "tcpa_", 5) || l < 4 || strcmp(e->d_name + l - 3, ".sv") ||
        !strcmp(e->d_name, "tcpa_pkg.sv"))
      continue;
    char buf[600];
    snprintf(buf, sizeof buf, "rtl/%s", e->d_name);
    v[(*n)++] = regress_strdup(buf);
  }
  if (d) closedir(d);
  for (int i = 2; i < *n; i++)
    for (int j = i; j > 1 && strcmp(v[j - 1], v[j]) > 0; j--) {
      char *t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  return v;
}

/* Returns the number of lines of file path starting with prefix. */
static int signoff_count_lines(const char *path, const char *prefix) {
  size_t len;
  char *t = fileio_read_all(path, &len);
  int n = 0;
  for (char *p = t; p && *p;) {
    if (!strncmp(p, prefix, strlen(prefix))) n++;
    p = strchr(p, '\n');
    if (p) p++;
  }
  free(t);
  return n;
}

/* Step 2: lint. */
static void signoff_lint(signoff_state *s) {
  signoff_step *st = &s->st[SIGNOFF_ST_LINT];
  char log[SIGNOFF_PATH], pkg[SIGNOFF_PATH];
  int n;
  char **src = signoff_rtl_sources(&n);
  char *argv[300] = {"verilator", "--lint-only", "-Wall", "--top-module", "tcpa_top", "rtl/lint_waivers.vlt", pkg,
                     "build/gen/tcpa_isa_pkg.sv", "build/gen/tcpa_stream_pkg.sv"};
  int k = 9;
  for (int i = 0; src && i < n; i++) argv[k++] = src[i];
  argv[k] = NULL;
  snprintf(pkg, sizeof pkg, "%s/tcpa_params_pkg.sv", s->rtl);
  signoff_path(log, s, "lint.log");
  remove(log);
  st->ran = 1;
  int rc = signoff_exec("lint", argv, log, NULL, NULL);
  int w = signoff_count_lines(log, "%Warning"), e = signoff_count_lines(log, "%Error");
  st->ok = rc == 0 && w == 0 && e == 0;
  snprintf(st->detail, sizeof st->detail, "verilator --lint-only -Wall: exit %d, %d warning%s, %d error%s (%d files)",
           rc, w, w == 1 ? "" : "s", e, e == 1 ? "" : "s", n + 3);
  for (int i = 0; src && i < n; i++) free(src[i]);
  free(src);
}

/* Returns the make exit status of target DIR/rtl/<target> (log appended;
 * the heartbeat names live). */
static int signoff_make(signoff_state *s, const char *target, const char *logname, const char *live) {
  char var[SIGNOFF_PATH + 16], tgt[SIGNOFF_PATH], log[SIGNOFF_PATH];
  snprintf(var, sizeof var, "SIGNOFF_DIR=%s", s->rtl);
  snprintf(tgt, sizeof tgt, "%s/%s", s->rtl, target);
  char *argv[] = {"make", "-s", var, tgt, NULL};
  signoff_path(log, s, logname);
  remove(log);
  return signoff_exec("synthesis", argv, log, live, NULL);
}

/* Step 3: synthesis and its cell table. */
static void signoff_synth(signoff_state *s) {
  signoff_step *st = &s->st[SIGNOFF_ST_SYNTH];
  char path[SIGNOFF_PATH + 16];
  st->ran = 1;
  char live[SIGNOFF_PATH + 32];
  signoff_step_live(s, SIGNOFF_ST_SYNTH, live, sizeof live);
  int rc = signoff_make(s, "synth/table.txt", "synth.log", live);
  snprintf(path, sizeof path, "%s/synth/table.txt", s->rtl);
  size_t len;
  char *t = rc == 0 ? fileio_read_all(path, &len) : NULL;
  for (char *line = t; line && *line;) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = '\0';
    char m[64], c[64], v[64] = "";
    long total;
    if (sscanf(line, "TOTAL (flattened) %ld", &total) == 1) s->total_cells = total;
    else if (sscanf(line, "%63s %63s %63s", m, c, v) >= 2 && s->ncells < SIGNOFF_MAX_MODULES) {
      snprintf(s->cells[s->ncells][0], 64, "%s", m);
      snprintf(s->cells[s->ncells][1], 64, "%s", c);
      snprintf(s->cells[s->ncells][2], 64, "%s", v);
      s->ncells++;
    }
    line = nl ? nl + 1 : NULL;
  }
  free(t);
  st->ok = rc == 0 && s->total_cells > 0;
  snprintf(st->detail, sizeof st->detail, rc ? "make exit %d (synth.log)" : "Yosys: %d modules, %ld cells in total (flattened)",
           rc ? rc : s->ncells, s->total_cells);
}

/* Step 4: the coverage harness, from the harness cache (built once per
 * configuration and set of sources; docs/rtl.md "Harness cache"). */
static void signoff_build(signoff_state *s) {
  signoff_step *st = &s->st[SIGNOFF_ST_BUILD];
  st->ran = 1;
  arch_config cfg;
  engine_harness_info info;
  char msg[1024] = "";
  memset(&info, 0, sizeof info);
  int rc = arch_config_load(s->arch, &cfg) != 0 ? ENGINE_ERR_INPUT
           : engine_harness_find(&engine_harness_cov, &cfg, s->arch, 1, &info, msg, sizeof msg);
  st->ok = rc == ENGINE_OK;
  if (st->ok) snprintf(s->covbin, sizeof s->covbin, "%s", info.bin);
  if (rc == ENGINE_OK && info.dir[0]) { /* the report's log column: where the build wrote */
    snprintf(s->covlog, sizeof s->covlog, "%.4300s/build.log", info.dir);
    st->log = s->covlog;
  }
  char d[32] = "";
  if (info.built) snprintf(d, sizeof d, "built in %.0f s", info.build_seconds);
  snprintf(st->detail, sizeof st->detail,
           st->ok ? "%.300s (verilator --coverage-line --coverage-toggle; %s)" : "%.300s%s",
           st->ok ? info.bin : msg, st->ok ? (info.built ? d : info.key ? "cached" : "named by $TCPA_RTL_COV") : "");
}

/* Removes the files in dir. */
static void signoff_empty(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    char p[SIGNOFF_PATH + 300];
    if (e->d_name[0] == '.') continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    remove(p);
  }
  if (d) closedir(d);
}

/* Step 5: the suite in cosim on every region. */
static void signoff_regress(signoff_state *s) {
  signoff_step *st = &s->st[SIGNOFF_ST_REGRESS];
  char out[SIGNOFF_PATH], cov[SIGNOFF_PATH], bin[sizeof s->covbin], log[SIGNOFF_PATH], j[32], t[32], sum[SIGNOFF_PATH];
  signoff_path(out, s, "regress");
  signoff_path(cov, s, "cov");
  snprintf(bin, sizeof bin, "%s", s->covbin);
  snprintf(j, sizeof j, "%d", s->jobs);
  snprintf(t, sizeof t, "%d", s->timeout);
  signoff_mkdir_p(cov);
  signoff_empty(cov);
  char *argv[] = {"/proc/self/exe", "regress", (char *)s->suite, "--arch", (char *)s->arch, "--engine", "cosim",
                  "--pes", "all", "--scale", "small", "--out-dir", out, "-j", j, "--timeout", t, NULL};
  const char *env[] = {"TCPA_RTL", bin, "TCPA_COVERAGE_DIR", cov, NULL};
  signoff_path(log, s, "regress.log");
  remove(log);
  st->ran = 1;
  int rc = signoff_exec("regression", argv, log, NULL, env);
  signoff_path(sum, s, "regress/summary.json");
  if (rc > 1 || rc < 0 || regress_report_load(sum, &s->runs) != 0) {
    snprintf(st->detail, sizeof st->detail, "tcpa regress exit %d (regress.log)", rc);
    return;
  }
  size_t n[7] = {0}, bad = 0;
  for (size_t i = 0; i < s->runs.n; i++) {
    n[s->runs.v[i].verdict]++;
    bad += !s->runs.v[i].ok;
  }
  st->ok = rc == 0 && bad == 0;
  snprintf(st->detail, sizeof st->detail,
           "%zu runs: %zu pass, %zu fail, %zu invalid, %zu nofit, %zu timeout, %zu crash; %zu not as expected, "
           "in %zu bucket%s; fitting runs: %zu of %zu", s->runs.n, n[REGRESS_PASS], n[REGRESS_FAIL],
           n[REGRESS_INVALID], n[REGRESS_NOFIT], n[REGRESS_TIMEOUT], n[REGRESS_CRASH], bad,
           regress_report_buckets(&s->runs), regress_report_buckets(&s->runs) == 1 ? "" : "s",
           signoff_fit_count(&s->runs), s->runs.n);
}

/* Returns 0 after copying file from to to (atomically); -1. */
static int signoff_copy(const char *from, const char *to) {
  size_t len;
  char *t = fileio_read_all(from, &len);
  datafile_tmp tmp;
  if (!t || datafile_tmp_open(&tmp, to)) {
    free(t);
    return -1;
  }
  fwrite(t, 1, len, tmp.f);
  free(t);
  return datafile_tmp_commit(&tmp);
}

/* The name and the logs (in DIR) of each step. */
static const char *const signoff_step_names[SIGNOFF_ST_N] = {"parameters", "lint", "synthesis", "coverage build",
                                                             "regression", "coverage"};
static const char *const signoff_step_logs[SIGNOFF_ST_N] = {"params.log", "lint.log", "synth.log, rtl/synth/",
                                                            "(the harness cache)", "regress.log, regress/",
                                                            "coverage.log"};

/* Returns 0 after checking the inputs of s and creating DIR/rtl (s->adir,
 * s->rtl set); -1 after an error message. */
static int signoff_prepare(signoff_state *s) {
  arch_config cfg;
  if (arch_config_load(s->arch, &cfg) != 0) return -1;
  if (access("rtl/tcpa_top.sv", R_OK) || access("scripts/synth.sh", R_OK) || access("Makefile", R_OK)) {
    diag_error_plain("tcpa signoff runs from the project's root directory (rtl/, scripts/, Makefile)");
    return -1;
  }
  if (access(s->suite, R_OK)) {
    diag_error_plain("--suite %s: %s", s->suite, strerror(errno));
    return -1;
  }
  char msg[1024];
  if (testplan_load(s->testplan, &s->plan, msg, sizeof msg)) {
    diag_error_plain("--testplan: %s", msg);
    return -1;
  }
  char rel[SIGNOFF_DIRLEN + 8], cwd[SIGNOFF_DIRLEN / 2];
  if (strlen(s->dir) >= SIGNOFF_DIRLEN / 2 - 8) {
    diag_error_plain("--out-dir: the path is too long");
    return -1;
  }
  snprintf(rel, sizeof rel, "%s/rtl", s->dir);
  if (s->dir[0] == '/') snprintf(s->adir, sizeof s->adir, "%s", s->dir);
  else if (getcwd(cwd, sizeof cwd)) snprintf(s->adir, sizeof s->adir, "%.1000s/%.1000s", cwd, s->dir);
  if (signoff_mkdir_p(rel) || !s->adir[0]) {
    diag_error_plain("--out-dir %s: cannot create it: %s", s->dir, strerror(errno));
    return -1;
  }
  snprintf(s->rtl, sizeof s->rtl, "%s/rtl", s->adir);
  return 0;
}

/* Runs the steps of s in order, each whose prerequisite passed, with
 * progress on stderr; sets s->seconds. */
static void signoff_steps_run(signoff_state *s) {
  for (int i = 0; i < SIGNOFF_ST_N; i++) {
    s->st[i].name = signoff_step_names[i];
    s->st[i].log = signoff_step_logs[i];
  }
  double start = step_now();
  void (*steps[SIGNOFF_ST_N])(signoff_state *) = {signoff_params, signoff_lint, signoff_synth, signoff_build,
                                                  signoff_regress, signoff_coverage};
  for (int i = 0; i < SIGNOFF_ST_N; i++) {
    /* lint, synthesis and the build need the package only; the regression
     * the build; coverage the regression */
    int need = i == SIGNOFF_ST_PARAMS ? -1
               : (i == SIGNOFF_ST_LINT || i == SIGNOFF_ST_SYNTH || i == SIGNOFF_ST_BUILD) ? SIGNOFF_ST_PARAMS
                                                                                         : i - 1;
    /* coverage is counted whenever the regression ran, failing runs or not */
    if (need >= 0 && !(i == SIGNOFF_ST_COVER ? s->st[need].ran : s->st[need].ok)) continue;
    char live[SIGNOFF_PATH + 32];
    signoff_step_live(s, i, live, sizeof live);
    fprintf(stderr, "tcpa signoff: %s ... (live log: %s)\n", s->st[i].name, live);
    double t0 = step_now();
    steps[i](s);
    s->st[i].seconds = step_now() - t0;
    fprintf(stderr, "tcpa signoff: %s: %s in %.0f s: %s\n", s->st[i].name, s->st[i].ok ? "pass" : "FAIL",
            s->st[i].seconds, s->st[i].detail);
  }
  s->seconds = step_now() - start;
}

/* Returns the outcome of s after its steps: copies the regression's
 * DIR/junit.xml, writes the report, prints where. */
static int signoff_finish(signoff_state *s) {
  int pass = 1;
  for (int i = 0; i < SIGNOFF_ST_N; i++) pass &= s->st[i].ok;
  char from[SIGNOFF_PATH], to[SIGNOFF_PATH];
  signoff_path(from, s, "regress/junit.xml");
  signoff_path(to, s, "junit.xml");
  if (s->st[SIGNOFF_ST_REGRESS].ran && signoff_copy(from, to) != 0) pass = 0;
  int ran = s->st[SIGNOFF_ST_REGRESS].ran;
  if (ran && (s->tp = calloc(s->plan.n + 1, sizeof *s->tp)) &&
      testplan_measure(&s->plan, &s->runs, &s->fcov, s->tp)) {
    free(s->tp);
    s->tp = NULL;
  }
  size_t fit = signoff_fit_count(&s->runs);
  signoff_verdict v = signoff_verdict_judge(pass, fit, s->runs.n, s->min_fit);
  int rc = signoff_report_write(s, v);
  char *ratio = signoff_verdict_text(v, ran, fit, s->runs.n, s->min_fit);
  printf("%s: %s\n%s: %s/report.md, %s/report.html, %s/junit.xml\n", signoff_verdict_name(v), ratio ? ratio : "",
         signoff_verdict_name(v), s->dir, s->dir, s->dir);
  free(ratio);
  if (ran) printf("fitting runs: %zu of %zu\n", fit, s->runs.n);
  if (rc) return SIGNOFF_ERR_INPUT;
  return signoff_verdict_status(v);
}

/* Returns the outcome of the sign-off of o->arch into o->dir (signoff.h). */
int signoff_run(const signoff_opts *o) {
  signoff_state *s = calloc(1, sizeof *s);
  if (!s) {
    diag_error_plain("signoff: out of memory");
    return SIGNOFF_ERR_INPUT;
  }
  s->arch = o->arch;
  s->dir = o->dir;
  s->suite = o->suite;
  s->testplan = o->testplan ? o->testplan : "docs/testplan.yml";
  s->jobs = o->jobs;
  s->timeout = o->timeout;
  s->min_fit = o->min_fit;
  int rc = SIGNOFF_ERR_INPUT;
  if (signoff_prepare(s) == 0) {
    signoff_steps_run(s);
    rc = signoff_finish(s);
  }
  regress_list_free(&s->runs);
  fcov_free(&s->fcov);
  testplan_free(&s->plan);
  free(s->tp);
  free(s);
  return rc;
}
