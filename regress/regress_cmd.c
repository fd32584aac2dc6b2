/*
 * regress_cmd.c: `tcpa regress` after its options are read (regress_cmd.h,
 * docs/regress.md).
 *
 * Three modes:
 *   run      read the suites (regress_suite.c; --seeds replaces every run
 *            line's seeds, random:K draws K seeds from /dev/urandom and
 *            prints them), keep the runs --filter/--exclude select (fnmatch
 *            on the run id), keep shard K/N, run every
 *            run of them in parallel (regress_exec.c), write junit.xml,
 *            summary.json and report.html into --out-dir
 *            (regress_report.c), print the failure buckets;
 *   --rerun-failed DIR   read DIR/summary.json, rerun the runs that were
 *            not as expected with waveforms on (cosim: the same engine
 *            with a wider --window; model and rtl: the rtl engine, which
 *            keeps rtl.fst of the whole run; ref: unchanged), into
 *            DIR/rerun unless --out-dir says otherwise;
 *   --merge DIR...   read each DIR/summary.json and write one report of
 *            all their runs (shards of one suite, or several suites).
 * After the runs (and in --merge), the functional coverage of every run
 * (DIR/ID/fcov.json, fcov.h; with --merge each DIR/fcov.json) is merged
 * into --out-dir's fcov.json and fcov.txt (every hole) and summarized on
 * stdout (docs/regress.md "Functional coverage").
 * `--list` prints the runs (id, seed, command) without running them.
 * `--waves` makes model and rtl runs dump their waveform (tcpa run --fst
 * DIR/ID/ENGINE.fst) and gives cosim runs a 200-cycle --window.
 * Runs keep their traces only when they fail (tcpa run --traces
 * on-failure); `--keep-traces` keeps every run's.
 * regress_opts.self names another program to run in place of this binary
 * (cli_regress.c sets it from TCPA_REGRESS_EXEC: tests run a fake `tcpa`).
 *
 *
 * Exit status: 0 every run met its expectation (pass, or nofit where that
 * is expected); 1 otherwise (or interrupted); 2 invalid input.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datafile.h"
#include "diag.h"
#include "engine.h"
#include "fcov.h"
#include "fileio.h"
#include "regress.h"
#include "regress_cmd.h"
#include "regress_exec.h"
#include "regress_report.h"
#include "regress_suite.h"
#include "step.h"

#define REGRESS_RERUN_WINDOW 200

/* Returns the elapsed seconds spent building, before any run starts, the
 * harness of every architecture the RTL runs of l use (the harness cache,
 * engine_harness.c: a progress line and a heartbeat per build), so that no
 * run spends its timeout on a Verilator build and parallel runs do not
 * wait for one another's. A harness that does not build is reported here;
 * its runs then fail with the same message. */
static double regress_harnesses_build(const regress_list *l) {
  double total = 0;
  int built = 0;
  for (size_t i = 0; i < l->n; i++) {
    const regress_run *r = &l->v[i];
    const engine_harness *h = !strcmp(r->engine, "systemc")                         ? &engine_harness_sc
                              : !strcmp(r->engine, "rtl") || !strcmp(r->engine, "cosim") ? &engine_harness_rtl
                                                                                         : NULL;
    int seen = 0;
    for (size_t j = 0; h && j < i && !seen; j++)
      seen = !strcmp(l->v[j].engine, r->engine) && !strcmp(l->v[j].arch, r->arch);
    arch_config cfg;
    if (!h || seen || arch_config_load(r->arch, &cfg) != 0) continue;
    char msg[1024];
    engine_harness_info info;
    if (engine_harness_find(h, &cfg, r->arch, 1, &info, msg, sizeof msg) != ENGINE_OK)
      fprintf(stderr, "tcpa regress: %s\n", msg);
    total += info.build_seconds;
    built += info.built;
  }
  if (built) {
    char d[32];
    printf("tcpa regress: %d harness%s built in %s, before the runs (not counted in their times)\n", built,
           built == 1 ? "" : "es", step_duration(total, d, sizeof d));
    fflush(stdout);
  }
  return total;
}

/* Returns a malloc'ed default output directory for the suites:
 * build/regress/<suite>[+<suite>...][-shardK-of-N]. */
static char *regress_default_out(const regress_opts *o) {
  char buf[4096] = "build/regress/";
  for (int i = 0; i < o->nsuites; i++) {
    const char *b = strrchr(o->suites[i], '/') ? strrchr(o->suites[i], '/') + 1 : o->suites[i];
    size_t n = strlen(buf), bl = strlen(b);
    if (bl > 6 && !strcmp(b + bl - 6, ".suite")) bl -= 6;
    snprintf(buf + n, sizeof buf - n, "%s%.*s", i ? "+" : "", (int)bl, b);
  }
  if (o->shard) {
    size_t n = strlen(buf);
    snprintf(buf + n, sizeof buf - n, "-shard%d-of-%d", o->shard_k, o->shard_n);
  }
  return regress_strdup(buf);
}

/* Returns 0 after creating dir and its parents; -1 after an error. */
static int regress_mkdir_p(const char *dir) {
  char failed[1024];
  if (fileio_mkdir_p(dir, failed, sizeof failed) == 0) return 0;
  diag_error_plain("--out-dir: cannot create '%s': %s", failed, strerror(errno));
  return -1;
}

/* Sets every run's directory to out/<id>. */
static void regress_dirs_set(regress_list *l, const char *out) {
  for (size_t i = 0; i < l->n; i++) {
    size_t n = strlen(out) + strlen(l->v[i].id) + 2;
    free(l->v[i].dir);
    l->v[i].dir = malloc(n);
    if (!l->v[i].dir) abort();
    snprintf(l->v[i].dir, n, "%s/%s", out, l->v[i].id);
  }
}

/* Prints the runs of l, one line each: id, seed, command. */
static void regress_list_print(const regress_list *l) {
  for (size_t i = 0; i < l->n; i++) {
    char *cmd = regress_exec_command(&l->v[i]);
    printf("%s seed=%" PRIu64 " expect=%s  %s\n", l->v[i].id, l->v[i].seed, regress_expect_name(l->v[i].expect),
           cmd);
    free(cmd);
  }
}

/* Prints the counts and the buckets of l on stdout; returns the number of
 * runs not as expected. */
static size_t regress_summary_print(const regress_list *l, const char *out) {
  size_t n[7] = {0}, bad = 0;
  for (size_t i = 0; i < l->n; i++) {
    n[l->v[i].verdict]++;
    bad += !l->v[i].ok;
  }
  printf("\n%zu runs: %zu pass, %zu fail, %zu invalid, %zu nofit, %zu timeout, %zu crash", l->n, n[REGRESS_PASS],
         n[REGRESS_FAIL], n[REGRESS_INVALID], n[REGRESS_NOFIT], n[REGRESS_TIMEOUT], n[REGRESS_CRASH]);
  if (n[REGRESS_PENDING]) printf(", %zu not run", n[REGRESS_PENDING]);
  printf("\n");
  if (n[REGRESS_NOFIT]) {
    size_t at = regress_report_nofit_at_bound(l);
    printf("nofit: %zu at a lower bound (no mapping fits: the architecture's), %zu above their bounds or with "
           "none known (the compiler's)\n", at, n[REGRESS_NOFIT] - at);
  }
  if (bad) {
    printf("%zu not as expected, in %zu bucket(s):\n", bad, regress_report_buckets(l));
    /* one line per bucket: count and signature, in first-appearance order */
    for (size_t i = 0; i < l->n; i++) {
      if (l->v[i].ok || l->v[i].verdict == REGRESS_PENDING) continue;
      char *t = regress_report_bucket_key(&l->v[i].sig);
      int seen = 0;
      size_t count = 0;
      for (size_t k = 0; k < l->n; k++) {
        if (l->v[k].ok || l->v[k].verdict == REGRESS_PENDING) continue;
        char *u = regress_report_bucket_key(&l->v[k].sig);
        if (!strcmp(t, u)) {
          if (k < i) seen = 1;
          count++;
        }
        free(u);
      }
      if (!seen) printf("  %4zu  %s   (e.g. %s)\n", count, *t ? t : "(no signature)", l->v[i].id);
      free(t);
    }
  }
  printf("%s: %s/junit.xml, %s/summary.json, %s/report.html\n", bad ? "FAIL" : "PASS", out, out, out);
  return bad + n[REGRESS_PENDING];
}

#define REGRESS_FCOV_HOLES 10 /* holes per group on stdout; fcov.txt lists all */

/* Merges the functional coverage of the runs of l (their DIR/fcov.json),
 * or with --merge of each merged directory (DIR/fcov.json), into
 * out/fcov.json and out/fcov.txt and prints its summary on stdout; a
 * missing file is a run without coverage (ref, no fit, no trace), an
 * unreadable one a warning. */
static void regress_fcov_merge(const regress_opts *o, const regress_list *l, const char *out) {
  fcov_set s = {0};
  char path[4200], msg[600];
  size_t files = 0, missing = 0;
  size_t n = o->nmerge ? (size_t)o->nmerge : l->n;
  for (size_t i = 0; i < n; i++) {
    snprintf(path, sizeof path, "%s/fcov.json", o->nmerge ? o->merge[i] : l->v[i].dir);
    if (access(path, R_OK)) missing++;
    else if (fcov_load(&s, path, msg, sizeof msg)) fprintf(stderr, "tcpa regress: warning: %s\n", msg);
    else files++;
  }
  if (files) {
    snprintf(path, sizeof path, "%s/fcov.json", out);
    int bad = fcov_save(&s, path);
    snprintf(path, sizeof path, "%s/fcov.txt", out);
    datafile_tmp t;
    if (!bad && !(bad = datafile_tmp_open(&t, path) != 0)) {
      fcov_report_text(t.f, &s, "", 0);
      bad = datafile_tmp_commit(&t) != 0;
    }
    if (bad) fprintf(stderr, "tcpa regress: warning: %s: cannot write the functional coverage\n", path);
    printf("\n");
    fcov_report_text(stdout, &s, "", REGRESS_FCOV_HOLES);
    printf("(%zu run%s without functional coverage: ref engine, no fit or no trace; every hole: %s/fcov.txt)\n",
           missing, missing == 1 ? "" : "s", out);
  } else {
    snprintf(path, sizeof path, "%s/fcov.json", out);
    remove(path);
    snprintf(path, sizeof path, "%s/fcov.txt", out);
    remove(path);
  }
  fcov_free(&s);
}

/* Switches the failed runs of l to waveform settings and drops the others. */
static void regress_rerun_prepare(regress_list *l) {
  size_t w = 0;
  for (size_t i = 0; i < l->n; i++) {
    regress_run *r = &l->v[i];
    if (r->ok) {
      regress_run_free(r);
      continue;
    }
    if (!strcmp(r->engine, "cosim")) {
      if (r->window < REGRESS_RERUN_WINDOW) r->window = REGRESS_RERUN_WINDOW;
    } else if (strcmp(r->engine, "ref")) {
      free(r->engine);
      r->engine = regress_strdup("rtl");
    }
    r->verdict = REGRESS_PENDING;
    r->ok = 0;
    l->v[w++] = *r;
  }
  l->n = w;
}

/* Returns 0 after keeping the runs of l that --filter and --exclude
 * select; -1 (with an error) when they leave none of a non-empty list. */
static int regress_select(const regress_opts *o, regress_list *l) {
  size_t before = l->n;
  if (!o->nfilter && !o->nexclude) return 0;
  if (regress_list_filter(l, o->filter, o->nfilter, o->exclude, o->nexclude) || !before) return 0;
  diag_error_plain("--filter/--exclude: none of the %zu runs is left (the globs match run ids such as '%s')", before,
                   "bitextract_N13_1x2_model_big1d_s1");
  return -1;
}

/* Returns 0 after loading the runs of the mode into l (selected by
 * --filter and --exclude); -1 after errors. */
static int regress_load(const regress_opts *o, regress_list *l) {
  char path[4200];
  if (o->rerun) {
    snprintf(path, sizeof path, "%s/summary.json", o->rerun);
    if (regress_report_load(path, l)) return -1;
    regress_rerun_prepare(l);
    return regress_select(o, l);
  }
  if (o->nmerge) {
    for (int i = 0; i < o->nmerge; i++) {
      snprintf(path, sizeof path, "%s/summary.json", o->merge[i]);
      size_t first = l->n;
      if (regress_report_load(path, l)) return -1;
      for (size_t k = first; k < l->n; k++)
        for (size_t j = 0; j < first; j++)
          if (!strcmp(l->v[k].id, l->v[j].id) && !strcmp(l->v[k].suite, l->v[j].suite)) {
            diag_error_plain("--merge: run '%s' of suite '%s' is in %s and in an earlier directory",
                             l->v[k].id, l->v[k].suite, o->merge[i]);
            return -1;
          }
    }
    return regress_select(o, l);
  }
  int bad = 0;
  for (int i = 0; i < o->nsuites; i++) bad |= regress_suite_load(o->suites[i], &o->so, l) != 0;
  if (bad || regress_select(o, l)) return -1;
  if (o->shard) regress_suite_shard(l, o->shard_k, o->shard_n);
  return 0;
}

/* Turns the waveforms of every run of l on (--waves): model and rtl pass
 * --fst, cosim gets a window of at least REGRESS_RERUN_WINDOW cycles. */
static void regress_waves_set(regress_list *l) {
  for (size_t i = 0; i < l->n; i++) {
    l->v[i].waves = 1;
    if (!strcmp(l->v[i].engine, "cosim") && l->v[i].window < REGRESS_RERUN_WINDOW)
      l->v[i].window = REGRESS_RERUN_WINDOW;
  }
}

/* Returns the outcome of the mode of o (regress_cmd.h). */
int regress_cmd_run(const regress_opts *o) {
  regress_list l = {0};
  int rc = REGRESS_CMD_INPUT;
  char *out = NULL;
  if (regress_load(o, &l)) goto done;
  if (o->out_dir) out = regress_strdup(o->out_dir);
  else if (o->nmerge) out = regress_strdup("build/regress/merged");
  else if (o->rerun) {
    size_t n = strlen(o->rerun) + 8;
    out = malloc(n);
    if (!out) goto done;
    snprintf(out, n, "%s/rerun", o->rerun);
  } else out = regress_default_out(o);
  if (!o->nmerge) regress_dirs_set(&l, out);
  if (o->waves) regress_waves_set(&l);
  for (size_t i = 0; o->keep_traces && i < l.n; i++) l.v[i].keep_traces = 1;
  if (o->seeds_random) /* the drawn seeds, to repeat the regression with */
    fprintf(o->list ? stderr : stdout, "tcpa regress: --seeds random:%d drew %s (repeat with --seeds %s)\n",
            o->seeds_random, o->seeds, o->seeds);
  if (o->list) {
    regress_list_print(&l);
    rc = REGRESS_CMD_OK;
    goto done;
  }
  if (regress_mkdir_p(out)) goto done;
  char title[4200];
  snprintf(title, sizeof title, "tcpa regress: %s", o->nmerge ? "merged" : l.n ? l.v[0].suite : "");
  double harness_seconds = 0;
  if (!o->nmerge) {
    const char *self = o->self;
    regress_exec_opts eo = {self && *self ? self : "/proc/self/exe", out, o->jobs, o->timeout, isatty(2), o->time_inst, stdout};
    fprintf(stdout, "tcpa regress: %zu run%s%s%s, -j %d, timeout %d s per run (unless the suite sets one), "
            "output %s\n", l.n, l.n == 1 ? "" : "s", o->shard ? ", shard " : "", o->shard ? o->shard : "",
            o->jobs, o->timeout, out);
    fflush(stdout);
    if (!(self && *self)) harness_seconds = regress_harnesses_build(&l);
    regress_exec_all(&l, &eo);
  }
  regress_fcov_merge(o, &l, out); /* before the report, which embeds it */
  regress_report_info ri = {title, o->shard, o->time_inst, o->nmerge > 0, harness_seconds};
  if (regress_report_write(&l, out, &ri)) goto done;
  rc = regress_summary_print(&l, out) ? REGRESS_CMD_FAIL : REGRESS_CMD_OK;
done:
  free(out);
  regress_list_free(&l);
  return rc;
}

