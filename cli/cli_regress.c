/*
 * cli_regress.c: `tcpa regress SUITE...` (docs/regress.md): reads the
 * options into a regress_opts and runs it (regress_cmd_run, regress_cmd.h).
 *
 * Options are read with cli_opt.h (getopt_long) in order (words come
 * back where they stand, so words before --merge are suites
 * and words after it its directories); an unknown or ambiguous option, a
 * missing value or a value out of range is an error (exit 2) naming it.
 *
 * Three modes (regress_cmd.c):
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
 * `--list` prints the runs (id, seed, command) without running them.
 * `--waves` makes model and rtl runs dump their waveform (tcpa run --fst
 * DIR/ID/ENGINE.fst) and gives cosim runs a 200-cycle --window.
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
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "regress.h"
#include "regress_cmd.h"

/* Prints the usage of `tcpa regress` to f. */
static void regress_usage(FILE *f) {
  fputs("usage: tcpa regress SUITE... [-j N] [--timeout S] [--out-dir DIR] [--shard K/N]\n"
        "                    [--seed-base N] [--arch FILE] [--engine E] [--pes LIST]\n"
        "                    [--scale small|real]\n"
        "                    [--filter GLOB]... [--exclude GLOB]... [--seeds LIST|random:K]\n"
        "                    [--waves] [--keep-traces] [--no-time-instantiate] [--list]\n"
        "       tcpa regress --rerun-failed DIR [-j N] [--timeout S] [--out-dir DIR]\n"
        "                    [--filter GLOB]... [--exclude GLOB]... [--waves]\n"
        "       tcpa regress --merge DIR... [--out-dir DIR] [--filter GLOB]... [--exclude GLOB]...\n\n"
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
        "  --scale S            only the run lines of scale=S: small (the default of a\n"
        "                       run line) or real (real problem sizes; docs/regress.md)\n"
        "  --filter GLOB        only the runs whose id matches GLOB (fnmatch; several:\n"
        "                       any of them)\n"
        "  --exclude GLOB       not the runs whose id matches GLOB (several allowed)\n"
        "  --seeds LIST         these seeds (comma-separated, 0..2^64-1, ranges A..B) in\n"
        "                       place of every run line's seeds=\n"
        "  --seeds random:K     K seeds drawn at random, printed, the same for every run\n"
        "  --waves              model and rtl runs dump their waveform (tcpa run --fst\n"
        "                       DIR/ID/ENGINE.fst); cosim runs a window of 200 cycles\n"
        "                       around a divergence (--window 200)\n"
        "  --keep-traces        every run keeps its traces (model.trace, rtl.trace;\n"
        "                       model.fst); by default only a run that fails does\n"
        "                       (tcpa run --traces on-failure: a passing run costs what\n"
        "                       one without --out-dir does)\n"
        "  --no-time-instantiate  leave out the instantiation times of passing runs (summary.json's\n"
        "                       instantiate_seconds): the report plots wall times instead\n"
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

/* Returns 0 and the decimal seed at s (digits only, at most 2^64-1) in *v;
 * -1. */
static int regress_seed_parse(const char *s, size_t len, uint64_t *v) {
  uint64_t x = 0;
  if (!len) return -1;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    unsigned d = (unsigned)(s[i] - '0');
    if (x > (UINT64_MAX - d) / 10) return -1;
    x = x * 10 + d;
  }
  *v = x;
  return 0;
}

/* Appends seed x to the malloc'ed list *buf ("S1,S2,..."); returns -1 when
 * the list would pass REGRESS_MAX_SEEDS seeds. */
static int regress_seed_add(char **buf, size_t *len, int *count, uint64_t x) {
  if (*count >= REGRESS_MAX_SEEDS) return -1;
  char *b = realloc(*buf, *len + 24);
  if (!b) return -1;
  *buf = b;
  *len += (size_t)sprintf(b + *len, "%s%" PRIu64, *count ? "," : "", x);
  (*count)++;
  return 0;
}

/* Returns K seeds drawn from /dev/urandom (else the clock and the process
 * id through splitmix64) as "S1,S2,..." in o->seeds; -1. */
static int regress_seeds_draw(regress_opts *o, int k) {
  uint64_t x[REGRESS_MAX_SEEDS];
  FILE *f = fopen("/dev/urandom", "rb");
  size_t got = f ? fread(x, sizeof *x, (size_t)k, f) : 0;
  if (f) fclose(f);
  uint64_t z = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
  for (size_t i = got; i < (size_t)k; i++) {
    z += 0x9e3779b97f4a7c15ull;
    uint64_t y = z;
    y = (y ^ (y >> 30)) * 0xbf58476d1ce4e5b9ull;
    y = (y ^ (y >> 27)) * 0x94d049bb133111ebull;
    x[i] = y ^ (y >> 31);
  }
  size_t len = 0;
  int count = 0;
  for (int i = 0; i < k; i++)
    if (regress_seed_add(&o->seeds, &len, &count, x[i])) return -1;
  o->seeds_random = k;
  return 0;
}

/* Returns 0 after reading --seeds v (LIST or random:K) into o->seeds; -1. */
static int regress_seeds_opt(regress_opts *o, const char *v) {
  free(o->seeds);
  o->seeds = NULL;
  o->seeds_random = 0;
  if (!strncmp(v, "random:", 7)) {
    int k;
    if (regress_int("--seeds random:K", v + 7, 1, REGRESS_MAX_SEEDS, &k)) return -1;
    return regress_seeds_draw(o, k);
  }
  size_t len = 0;
  int count = 0;
  for (const char *p = v;;) {
    const char *comma = strchr(p, ','), *e = comma ? comma : p + strlen(p);
    const char *dots = strstr(p, "..");
    uint64_t a, b;
    if (dots && dots < e) {
      if (regress_seed_parse(p, (size_t)(dots - p), &a) || regress_seed_parse(dots + 2, (size_t)(e - dots - 2), &b) ||
          b < a || b - a >= REGRESS_MAX_SEEDS)
        goto bad;
    } else if (regress_seed_parse(p, (size_t)(e - p), &a)) {
      goto bad;
    } else {
      b = a;
    }
    for (uint64_t x = a;; x++) {
      if (regress_seed_add(&o->seeds, &len, &count, x)) {
        diag_error_plain("--seeds: more than %d seeds", REGRESS_MAX_SEEDS);
        return -1;
      }
      if (x == b) break;
    }
    if (!comma) return 0;
    p = comma + 1;
  }
bad:
  diag_error_plain("--seeds: expected seeds from 0 to 2^64-1 separated by commas (ranges A..B), or random:K, "
                   "got '%s'", v);
  return -1;
}

/* Long options; the values above 255 stand for options without a short form. */
enum {
  OPT_TIMEOUT = 256, OPT_OUT_DIR, OPT_SHARD, OPT_SEED_BASE, OPT_ARCH, OPT_ENGINE, OPT_PES, OPT_RERUN,
  OPT_MERGE, OPT_LIST, OPT_NO_TIME, OPT_FILTER, OPT_EXCLUDE, OPT_SEEDS, OPT_WAVES, OPT_SCALE, OPT_KEEP_TRACES
};
static const struct option regress_long_opts[] = {
    {"help", no_argument, NULL, 'h'},
    {"jobs", required_argument, NULL, 'j'},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"out-dir", required_argument, NULL, OPT_OUT_DIR},
    {"shard", required_argument, NULL, OPT_SHARD},
    {"seed-base", required_argument, NULL, OPT_SEED_BASE},
    {"arch", required_argument, NULL, OPT_ARCH},
    {"engine", required_argument, NULL, OPT_ENGINE},
    {"pes", required_argument, NULL, OPT_PES},
    {"rerun-failed", required_argument, NULL, OPT_RERUN},
    {"merge", no_argument, NULL, OPT_MERGE},
    {"list", no_argument, NULL, OPT_LIST},
    {"no-time-instantiate", no_argument, NULL, OPT_NO_TIME},
    {"filter", required_argument, NULL, OPT_FILTER},
    {"exclude", required_argument, NULL, OPT_EXCLUDE},
    {"seeds", required_argument, NULL, OPT_SEEDS},
    {"waves", no_argument, NULL, OPT_WAVES},
    {"keep-traces", no_argument, NULL, OPT_KEEP_TRACES},
    {"scale", required_argument, NULL, OPT_SCALE},
    {NULL, 0, NULL, 0}};

/* Returns 0 after adding a glob of --filter or --exclude to list; -1. */
static int regress_glob_add(const char *opt, const char **list, int *n, const char *v) {
  if (*n == REGRESS_MAX_ARGS) {
    diag_error_plain("%s: more than %d given", opt, REGRESS_MAX_ARGS);
    return -1;
  }
  list[(*n)++] = v;
  return 0;
}

/* Returns 0 after reading the value v of option c into o; -1. */
static int regress_opt_value(regress_opts *o, int c, const char *v, int is_short) {
  switch (c) {
  case 'j': return regress_int(is_short ? "-j" : "--jobs", v, 1, 4096, &o->jobs);
  case OPT_TIMEOUT: return regress_int("--timeout", v, 1, 7 * 86400, &o->timeout);
  case OPT_OUT_DIR: o->out_dir = v; return 0;
  case OPT_SHARD:
    o->shard = v;
    if (regress_suite_shard_parse(v, &o->shard_k, &o->shard_n)) {
      diag_error_plain("--shard: expected K/N with 1 <= K <= N (e.g. 2/4), got '%s'", v);
      return -1;
    }
    return 0;
  case OPT_SEED_BASE: {
    char *end;
    errno = 0;
    o->so.seed_base = strtoull(v, &end, 10);
    if (errno || *end || end == v || *v == '-') {
      diag_error_plain("--seed-base: expected a non-negative integer, got '%s'", v);
      return -1;
    }
    return 0;
  }
  case OPT_ARCH: o->so.arch = v; return 0;
  case OPT_ENGINE: o->so.engine = v; return 0;
  case OPT_PES: o->so.pes = v; return 0;
  case OPT_RERUN: o->rerun = v; return 0;
  case OPT_FILTER: return regress_glob_add("--filter", o->filter, &o->nfilter, v);
  case OPT_EXCLUDE: return regress_glob_add("--exclude", o->exclude, &o->nexclude, v);
  case OPT_SEEDS: return regress_seeds_opt(o, v);
  case OPT_SCALE:
    if (strcmp(v, "small") && strcmp(v, "real")) {
      diag_error_plain("--scale: expected small or real, got '%s'", v);
      return -1;
    }
    o->so.scale = v;
    return 0;
  default: return -1;
  }
}

/* Returns 0 after taking a word that is not an option: a suite, or a
 * directory after --merge; -1. */
static int regress_word_add(regress_opts *o, const char *a) {
  if (o->merging) {
    if (o->nmerge == REGRESS_MAX_ARGS) return diag_error_plain("--merge: too many directories"), -1;
    o->merge[o->nmerge++] = a;
  } else {
    if (o->nsuites == REGRESS_MAX_ARGS) return diag_error_plain("too many suites"), -1;
    o->suites[o->nsuites++] = a;
  }
  return 0;
}

/* Returns 0 after checking that the options fit the mode; -1. */
static int regress_opts_check(const regress_opts *o) {
  int modes = (o->nsuites > 0) + (o->rerun != NULL) + o->merging;
  if (modes != 1) {
    diag_error_plain(modes ? "give suites, --rerun-failed DIR or --merge DIR..., only one of them"
                           : "no suite given (see 'tcpa regress --help')");
    return -1;
  }
  if (o->merging && !o->nmerge) {
    diag_error_plain("--merge: no directory given");
    return -1;
  }
  if (o->seeds && !o->nsuites) {
    diag_error_plain("--seeds: only with suites (not with --rerun-failed or --merge)");
    return -1;
  }
  if (o->waves && o->merging) {
    diag_error_plain("--waves: not with --merge (nothing is run)");
    return -1;
  }
  if (o->keep_traces && o->merging) {
    diag_error_plain("--keep-traces: not with --merge (nothing is run)");
    return -1;
  }
  return 0;
}

/* Returns 0 after reading the command line into o (cli_opt.h, words
 * taken in order: suites, or directories after --merge); -1 after an
 * error. */
static int regress_opts_parse(int argc, char **argv, regress_opts *o) {
  memset(o, 0, sizeof *o);
  o->timeout = 600;
  o->time_inst = 1;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = cores > 0 ? (int)cores : 1;
  cli_opt p;
  cli_opt_init(&p, "regress", argc, argv, "hj:", regress_long_opts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    int rc = 0;
    switch (c) {
    case CLI_OPT_ARG: rc = regress_word_add(o, p.arg); break;
    case 'h': o->help = 1; break;
    case OPT_MERGE: o->merging = 1; break;
    case OPT_LIST: o->list = 1; break;
    case OPT_NO_TIME: o->time_inst = 0; break;
    case OPT_WAVES: o->waves = 1; break;
    case OPT_KEEP_TRACES: o->keep_traces = 1; break;
    case CLI_OPT_ERROR: return -1;
    default: rc = regress_opt_value(o, c, p.arg, !strcmp(p.name, "-j")); break;
    }
    if (rc) return -1;
  }
  if (o->help) return 0;
  return regress_opts_check(o);
}

int cli_regress(int argc, char **argv) {
  regress_opts o;
  int rc;
  if (regress_opts_parse(argc, argv, &o)) rc = CLI_EXIT_INPUT;
  else if (o.help) {
    regress_usage(stdout);
    rc = CLI_EXIT_OK;
  } else {
    o.so.seeds = o.seeds;
    o.self = getenv("TCPA_REGRESS_EXEC"); /* test hook (docs/regress.md) */
    rc = regress_cmd_run(&o);
  }
  free(o.seeds);
  return rc;
}
