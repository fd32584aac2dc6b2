/*
 * cli_regress.c: `tcpa regress SUITE...` (docs/regress.md).
 *
 * Three modes:
 *   run      read the suites (regress_suite.c), keep shard K/N, run every
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
 * `--list` prints the runs (id, seed, command) without running them.
 * The environment variable TCPA_REGRESS_EXEC names another program to run
 * in place of this binary (tests run a fake `tcpa` through it).
 *
 * Exit status: 0 every run met its expectation (pass, or nofit where that
 * is expected); 1 otherwise (or interrupted); 2 invalid input.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "fileio.h"
#include "regress.h"
#include "regress_exec.h"
#include "regress_report.h"
#include "regress_suite.h"

#define REGRESS_MAX_ARGS 256
#define REGRESS_RERUN_WINDOW 200

typedef struct {
  const char *suites[REGRESS_MAX_ARGS];
  int nsuites;
  const char *merge[REGRESS_MAX_ARGS];
  int nmerge;
  const char *out_dir, *rerun, *shard;
  int jobs, timeout, list, help, time_inst;
  int shard_k, shard_n;
  regress_suite_opts so;
} regress_opts;

/* Prints the usage of `tcpa regress` to f. */
static void regress_usage(FILE *f) {
  fputs("usage: tcpa regress SUITE... [-j N] [--timeout S] [--out-dir DIR] [--shard K/N]\n"
        "                    [--seed-base N] [--arch FILE] [--engine E] [--pes LIST]\n"
        "                    [--no-time-instantiate] [--list]\n"
        "       tcpa regress --rerun-failed DIR [-j N] [--timeout S] [--out-dir DIR]\n"
        "       tcpa regress --merge DIR... [--out-dir DIR]\n\n"
        "Runs the runs of the suite files (docs/regress.md) with `tcpa run`, in parallel,\n"
        "and writes junit.xml, summary.json and report.html into the output directory.\n\n"
        "  -j N, --jobs N       runs at a time (default: the number of cores)\n"
        "  --timeout S          seconds per run before it is killed (default 600)\n"
        "  --out-dir DIR        default build/regress/<suite> (merge: build/regress/merged;\n"
        "                       rerun: DIR/rerun)\n"
        "  --shard K/N          only runs K, K+N, K+2N, ... of the suites (1-based)\n"
        "  --seed-base N        changes the seeds of seeds=random:K (default 0)\n"
        "  --arch FILE          every run on this architecture\n"
        "  --engine E           every run on this engine (ref, model, rtl, cosim)\n"
        "  --pes LIST           every run on these regions (RxC, 1d, all; comma list)\n"
        "  --no-time-instantiate  do not time `tcpa instantiate` after passing runs\n"
        "  --list               print the runs (id, seed, command) and exit\n"
        "  --rerun-failed DIR   rerun the runs of DIR/summary.json that were not as\n"
        "                       expected, with waveforms (rtl.fst, divergence.gtkw)\n"
        "  --merge DIR...       merge the summary.json of several output directories\n\n"
        "exit status: 0 every run as expected, 1 otherwise, 2 invalid input\n", f);
}

/* Returns 0 and *v for an integer option value in [lo, hi]; -1. */
static int regress_int(const char *opt, const char *s, long lo, long hi, int *v) {
  char *end;
  errno = 0;
  long x = strtol(s, &end, 10);
  if (errno || *end || end == s || x < lo || x > hi) {
    diag_error_plain("%s: expected an integer from %ld to %ld, got '%s'", opt, lo, hi, s);
    return -1;
  }
  *v = (int)x;
  return 0;
}

/* Returns the value of the option at argv[*i] (`--opt V` or `--opt=V`),
 * advancing *i; NULL after an error. */
static const char *regress_value(int argc, char **argv, int *i, const char *opt) {
  size_t n = strlen(opt);
  if (argv[*i][n] == '=') return argv[*i] + n + 1;
  if (*i + 1 >= argc) {
    diag_error_plain("%s needs a value", opt);
    return NULL;
  }
  return argv[++*i];
}

/* Returns 1 when arg is opt alone or opt=... */
static int regress_is(const char *arg, const char *opt) {
  size_t n = strlen(opt);
  return !strncmp(arg, opt, n) && (arg[n] == '\0' || arg[n] == '=');
}

/* Returns 0 after reading one valued option; -1 after an error. */
static int regress_opt_valued(int argc, char **argv, int *i, regress_opts *o) {
  static const char *const names[] = {"--jobs", "--timeout", "--out-dir", "--shard", "--seed-base",
                                      "--arch", "--engine",  "--pes",     "--rerun-failed", "-j"};
  const char *a = argv[*i], *v;
  int which = -1;
  for (int k = 0; k < (int)(sizeof names / sizeof *names); k++)
    if (regress_is(a, names[k])) which = k;
  if (which < 0 && !strncmp(a, "-j", 2) && a[2]) {
    return regress_int("-j", a + 2, 1, 4096, &o->jobs);
  }
  if (which < 0) {
    diag_error_plain("unknown option '%s' (see 'tcpa regress --help')", a);
    return -1;
  }
  if (!(v = regress_value(argc, argv, i, names[which]))) return -1;
  switch (which) {
  case 0:
  case 9: return regress_int("--jobs", v, 1, 4096, &o->jobs);
  case 1: return regress_int("--timeout", v, 1, 7 * 86400, &o->timeout);
  case 2: o->out_dir = v; return 0;
  case 3:
    o->shard = v;
    if (regress_suite_shard_parse(v, &o->shard_k, &o->shard_n)) {
      diag_error_plain("--shard: expected K/N with 1 <= K <= N (e.g. 2/4), got '%s'", v);
      return -1;
    }
    return 0;
  case 4: {
    char *end;
    errno = 0;
    o->so.seed_base = strtoull(v, &end, 10);
    if (errno || *end || end == v || *v == '-') {
      diag_error_plain("--seed-base: expected a non-negative integer, got '%s'", v);
      return -1;
    }
    return 0;
  }
  case 5: o->so.arch = v; return 0;
  case 6: o->so.engine = v; return 0;
  case 7: o->so.pes = v; return 0;
  default: o->rerun = v; return 0;
  }
}

/* Returns 0 after reading the command line into o; -1 after an error. */
static int regress_opts_parse(int argc, char **argv, regress_opts *o) {
  memset(o, 0, sizeof *o);
  o->timeout = 600;
  o->time_inst = 1;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = cores > 0 ? (int)cores : 1;
  int merging = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) o->help = 1;
    else if (!strcmp(a, "--list")) o->list = 1;
    else if (!strcmp(a, "--no-time-instantiate")) o->time_inst = 0;
    else if (!strcmp(a, "--merge")) merging = 1;
    else if (a[0] == '-' && a[1]) {
      if (regress_opt_valued(argc, argv, &i, o)) return -1;
    } else if (merging) {
      if (o->nmerge == REGRESS_MAX_ARGS) return diag_error_plain("--merge: too many directories"), -1;
      o->merge[o->nmerge++] = a;
    } else {
      if (o->nsuites == REGRESS_MAX_ARGS) return diag_error_plain("too many suites"), -1;
      o->suites[o->nsuites++] = a;
    }
  }
  if (o->help) return 0;
  int modes = (o->nsuites > 0) + (o->rerun != NULL) + merging;
  if (modes != 1) {
    diag_error_plain(modes ? "give suites, --rerun-failed DIR or --merge DIR..., only one of them"
                           : "no suite given (see 'tcpa regress --help')");
    return -1;
  }
  if (merging && !o->nmerge) {
    diag_error_plain("--merge: no directory given");
    return -1;
  }
  return 0;
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
  if (bad) {
    printf("%zu not as expected, in %zu bucket(s):\n", bad, regress_report_buckets(l));
    /* one line per bucket: count and signature, in first-appearance order */
    for (size_t i = 0; i < l->n; i++) {
      if (l->v[i].ok || l->v[i].verdict == REGRESS_PENDING) continue;
      char *t = regress_signature_text(&l->v[i].sig);
      int seen = 0;
      size_t count = 0;
      for (size_t k = 0; k < l->n; k++) {
        if (l->v[k].ok || l->v[k].verdict == REGRESS_PENDING) continue;
        char *u = regress_signature_text(&l->v[k].sig);
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

/* Returns 0 after loading the runs of the mode into l; -1 after errors. */
static int regress_load(const regress_opts *o, regress_list *l) {
  char path[4200];
  if (o->rerun) {
    snprintf(path, sizeof path, "%s/summary.json", o->rerun);
    if (regress_report_load(path, l)) return -1;
    regress_rerun_prepare(l);
    return 0;
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
    return 0;
  }
  int bad = 0;
  for (int i = 0; i < o->nsuites; i++) bad |= regress_suite_load(o->suites[i], &o->so, l) != 0;
  if (bad) return -1;
  if (o->shard) regress_suite_shard(l, o->shard_k, o->shard_n);
  return 0;
}

/* Returns the exit status of the mode of o. */
static int regress_main(const regress_opts *o) {
  regress_list l = {0};
  int rc = CLI_EXIT_INPUT;
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
  if (o->list) {
    regress_list_print(&l);
    rc = CLI_EXIT_OK;
    goto done;
  }
  if (regress_mkdir_p(out)) goto done;
  char title[4200];
  snprintf(title, sizeof title, "tcpa regress: %s", o->nmerge ? "merged" : l.n ? l.v[0].suite : "");
  if (!o->nmerge) {
    const char *self = getenv("TCPA_REGRESS_EXEC"); /* test hook (docs/regress.md) */
    regress_exec_opts eo = {self && *self ? self : "/proc/self/exe", out, o->jobs, o->timeout, isatty(2), o->time_inst, stdout};
    fprintf(stdout, "tcpa regress: %zu run%s%s%s, -j %d, timeout %d s per run (unless the suite sets one), "
            "output %s\n", l.n, l.n == 1 ? "" : "s", o->shard ? ", shard " : "", o->shard ? o->shard : "",
            o->jobs, o->timeout, out);
    fflush(stdout);
    regress_exec_all(&l, &eo);
  }
  if (regress_report_write(&l, out, title, o->shard)) goto done;
  rc = regress_summary_print(&l, out) ? CLI_EXIT_MISMATCH : CLI_EXIT_OK;
done:
  free(out);
  regress_list_free(&l);
  return rc;
}

int cli_regress(int argc, char **argv) {
  regress_opts o;
  if (regress_opts_parse(argc, argv, &o)) return CLI_EXIT_INPUT;
  if (o.help) {
    regress_usage(stdout);
    return CLI_EXIT_OK;
  }
  return regress_main(&o);
}
