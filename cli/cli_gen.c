/*
 * cli_gen.c: `tcpa gen arch --seed N [--max-pes K]`: prints the random
 * valid architecture configuration of seed N as an INI file on stdout
 * (arch_gen.h; docs/rtl.md section "Every valid configuration"). The same
 * seed prints the same file; tests/lint_sweep.sh lints the RTL on them.
 * `tcpa gen stream` (random configuration streams) is cli_gen_stream.c.
 *
 * `tcpa gen program --seed N [-o FILE]` prints the random valid loop
 * program of seed N (gen_program.h); `tcpa gen program --seeds A-B --check
 * ...` takes each through check, the reference and an engine and shrinks
 * the failures (gen_run.h; docs/fuzz.md "Random programs").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "arch_gen.h"
#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "gen_program.h"
#include "gen_run.h"
#include "valcov.h"

/* Prints the usage of `tcpa gen` to `f`. */
static void cli_gen_usage(FILE *f) {
  fputs("usage: tcpa gen arch --seed N [--max-pes K]\n"
        "       tcpa gen stream ... (tcpa gen stream --help)\n\n"
        "       tcpa gen program --seed N | --seeds A-B --check ... (tcpa gen program --help)\n\n"
        "Prints a random valid architecture configuration (INI, docs/arch.md)\n"
        "on stdout, biased to edge values; the same seed prints the same file.\n\n"
        "  --seed N     the seed (0..2^64-1)\n"
        "  --max-pes K  at most K PEs (rows * cols), default 16\n"
        "  -h, --help   print this help\n\n"
        "exit status: 0 printed, 2 bad option\n", f);
}

/* Returns 0 and sets *v to the unsigned number `s`, or -1 when it is not
 * one (empty, trailing characters, out of range). */
static int cli_gen_number(const char *s, unsigned long long *v) {
  char *end;
  errno = 0;
  if (!*s || *s == '-') return -1;
  *v = strtoull(s, &end, 0);
  return (errno || *end) ? -1 : 0;
}

/* Prints the usage of `tcpa gen program` to `f`. */
static void cli_gen_program_usage(FILE *f) {
  fputs("usage: tcpa gen program --seed N [-o FILE]\n"
        "       tcpa gen program --seeds A[-B] --check [--arch FILE|random] [--max-pes K]\n"
        "                        [--pes RxC] [--engine model|cosim] [--out-dir DIR]\n"
        "                        [--no-shrink] [--keep] [--timeout S] [--random-map]\n"
        "                        [--regions N] [--values]\n\n"
        "Prints a random loop program, valid by construction (docs/fuzz.md \"Random\n"
        "programs\"); the same seed prints the same text, its parameter values on\n"
        "the line `// params: N=5 M=3`. With --check, takes every seed's program\n"
        "through tcpa check, the reference and the engine, prints per seed pass,\n"
        "does not fit (the resource) or FAIL, shrinks each failure to DIR/seedS/min.pla\n"
        "(with DIR/seedS/repro.sh), and prints the totals.\n\n"
        "  --seed N         the program of seed N\n"
        "  --seeds A[-B]    seeds A to B\n"
        "  -o FILE          write the program(s) to FILE instead of stdout\n"
        "  --check          run the seeds (default engine model, embedded default\n"
        "                   configuration, random region of at most 2x4)\n"
        "  --arch F|random  the configuration, or random (tcpa gen arch --seed S)\n"
        "  --max-pes K      random configurations: at most K PEs (default 16)\n"
        "  --pes RxC        the region (default: random within the array)\n"
        "  --engine E       model or cosim (default model)\n"
        "  --out-dir DIR    where programs and failures go (default gen-program.out)\n"
        "  --no-shrink      do not shrink failures\n"
        "  --keep           keep the directories of seeds that pass or do not fit\n"
        "  --random-map     tile random loop dimensions (tcpa run --map): two\n"
        "                   distinct ones on an RxC region, one on 1xC or Rx1\n"
        "  --timeout S      seconds per tcpa run (default 120)\n"
        "  --regions N      each seed a random job of N (2..4) programs at once, each on\n"
        "                   its own band of columns and global controller, started at\n"
        "                   random delays (tcpa run JOB.ini: outputs and isolation checked;\n"
        "                   docs/fuzz.md \"Random jobs\")\n"
        "  --values         with --check: the operand value classes of every operation\n"
        "                   class the passing programs computed on, the FUs of a kind\n"
        "                   together (value.alu.minmax.a.min); each class missed is\n"
        "                   printed (`missed: NAME`) and makes the exit status 1\n\n"
        "The runner runs this binary, or $TCPA_GEN_SELF when set.\n\n"
        "exit status: 0 printed or no FAIL, 1 some seed failed (or a value class was\n"
        "missed), 2 bad option\n", f);
}

/* The codes of the options of `tcpa gen program`. */
enum {
  GEN_OPT_SEED = CLI_OPT_LONG, GEN_OPT_SEEDS, GEN_OPT_CHECK, GEN_OPT_ARCH, GEN_OPT_MAX_PES, GEN_OPT_PES,
  GEN_OPT_ENGINE, GEN_OPT_OUT_DIR, GEN_OPT_NO_SHRINK, GEN_OPT_KEEP, GEN_OPT_TIMEOUT,
  GEN_OPT_RANDOM_MAP, GEN_OPT_REGIONS, GEN_OPT_VALUES
};

static const struct option cli_gen_program_opts[] = {
    {"help", no_argument, NULL, 'h'},           {"seed", required_argument, NULL, GEN_OPT_SEED},
    {"seeds", required_argument, NULL, GEN_OPT_SEEDS}, {"check", no_argument, NULL, GEN_OPT_CHECK},
    {"arch", required_argument, NULL, GEN_OPT_ARCH}, {"max-pes", required_argument, NULL, GEN_OPT_MAX_PES},
    {"pes", required_argument, NULL, GEN_OPT_PES}, {"engine", required_argument, NULL, GEN_OPT_ENGINE},
    {"out-dir", required_argument, NULL, GEN_OPT_OUT_DIR}, {"no-shrink", no_argument, NULL, GEN_OPT_NO_SHRINK},
    {"keep", no_argument, NULL, GEN_OPT_KEEP}, {"timeout", required_argument, NULL, GEN_OPT_TIMEOUT},
    {"random-map", no_argument, NULL, GEN_OPT_RANDOM_MAP}, {"regions", required_argument, NULL, GEN_OPT_REGIONS},
    {"values", no_argument, NULL, GEN_OPT_VALUES}, {NULL, 0, NULL, 0}};

/* Returns 0 after reading "A" or "A-B" (A <= B) into *a, *b; -1 otherwise. */
static int cli_gen_seed_range(const char *s, unsigned long long *a, unsigned long long *b) {
  char buf[64];
  const char *dash = strchr(s, '-');
  if (!dash) return cli_gen_number(s, a) ? -1 : (*b = *a, 0);
  if ((size_t)(dash - s) >= sizeof buf) return -1;
  memcpy(buf, s, (size_t)(dash - s));
  buf[dash - s] = '\0';
  return cli_gen_number(buf, a) || cli_gen_number(dash + 1, b) || *a > *b ? -1 : 0;
}

/* Returns the number of value classes missed after printing the operand
 * value coverage of cov (the passing seeds' runs on cfg) by FU kind:
 * the classes hit, each one missed by name. */
static int cli_gen_program_values(const arch_config *cfg, const fcov_set *cov) {
  fcov_set all = {0}, kind = {0};
  int missed = -1;
  if (fcov_bins_define(&all, cfg) == 0 && fcov_merge(&all, cov) == 0 && valcov_by_kind(&kind, &all) == 0) {
    size_t hit = 0;
    for (size_t i = 0; i < kind.n; i++) hit += kind.v[i].count > 0;
    printf("value coverage: %zu of %zu value classes hit over %llu runs (the FUs of a kind together)\n", hit,
           kind.n, (unsigned long long)cov->runs);
    missed = 0;
    for (size_t i = 0; i < kind.n; i++)
      if (!kind.v[i].count) printf("missed: %s\n", kind.v[i].name), missed++;
  }
  fcov_free(&all);
  fcov_free(&kind);
  return missed;
}

/* Returns the exit status of `tcpa gen program` (argv[0] is "program"). */
static int cli_gen_program(int argc, char **argv) {
  const char *self = getenv("TCPA_GEN_SELF"); /* the tcpa the runner runs (tests: a wrapper) */
  gen_run_opts o = {.self = self && *self ? self : "/proc/self/exe", .max_pes = ARCH_GEN_MAX_PES_DEFAULT,
                    .engine = "model", .out_dir = "gen-program.out", .shrink = 1, .timeout = 120, .log = stdout};
  const char *out = NULL;
  int have = 0, check = 0, regions = 0, values = 0;
  cli_opt p;
  cli_opt_init(&p, "gen program", argc, argv, "ho:", cli_gen_program_opts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    int64_t v;
    switch (c) {
    case 'h': cli_gen_program_usage(stdout); return CLI_EXIT_OK;
    case 'o': out = p.arg; break;
    case GEN_OPT_SEED:
    case GEN_OPT_SEEDS:
      if ((c == GEN_OPT_SEED ? cli_gen_number(p.arg, &o.first) : cli_gen_seed_range(p.arg, &o.first, &o.last))) {
        diag_error_plain("gen program: %s: expected %s, got '%s'", p.name,
                         c == GEN_OPT_SEED ? "a number" : "A or A-B with A <= B", p.arg);
        return CLI_EXIT_INPUT;
      }
      if (c == GEN_OPT_SEED) o.last = o.first;
      have = 1;
      break;
    case GEN_OPT_CHECK: check = 1; break;
    case GEN_OPT_VALUES: values = 1; break;
    case GEN_OPT_ARCH:
      o.arch_random = !strcmp(p.arg, "random");
      o.arch = o.arch_random ? NULL : p.arg;
      break;
    case GEN_OPT_MAX_PES:
      if (cli_opt_int(&p, 1, 4096, "a number of PEs", &v)) return CLI_EXIT_INPUT;
      o.max_pes = (int)v;
      break;
    case GEN_OPT_PES: {
      int used = 0;
      if (sscanf(p.arg, "%dx%d%n", &o.pes_r, &o.pes_c, &used) != 2 || p.arg[used] || o.pes_r < 1 || o.pes_c < 1 ||
          o.pes_r > 64 || o.pes_c > 64) {
        diag_error_plain("gen program: --pes: expected RxC (e.g. 1x2), got '%s'", p.arg);
        return CLI_EXIT_INPUT;
      }
      break;
    }
    case GEN_OPT_ENGINE:
      if (strcmp(p.arg, "model") && strcmp(p.arg, "cosim")) {
        diag_error_plain("gen program: --engine: expected model or cosim, got '%s'", p.arg);
        return CLI_EXIT_INPUT;
      }
      o.engine = p.arg;
      break;
    case GEN_OPT_OUT_DIR: o.out_dir = p.arg; break;
    case GEN_OPT_NO_SHRINK: o.shrink = 0; break;
    case GEN_OPT_KEEP: o.keep = 1; break;
    case GEN_OPT_RANDOM_MAP: o.random_map = 1; break;
    case GEN_OPT_REGIONS:
      if (cli_opt_int(&p, 2, 4, "2..4 regions (one per global controller)", &v)) return CLI_EXIT_INPUT;
      regions = (int)v;
      break;
    case GEN_OPT_TIMEOUT:
      if (cli_opt_int(&p, 1, 86400, "seconds", &v)) return CLI_EXIT_INPUT;
      o.timeout = (int)v;
      break;
    case CLI_OPT_ARG: diag_error_plain("gen program: unexpected argument '%s'", p.arg); return CLI_EXIT_INPUT;
    default: return CLI_EXIT_INPUT;
    }
  }
  if (!have) {
    diag_error_plain("gen program: --seed N or --seeds A-B is required (the same seed prints the same program)");
    return CLI_EXIT_INPUT;
  }
  if (regions && (!check || o.arch_random || o.pes_r || o.random_map)) {
    diag_error_plain("gen program: --regions needs --check, and draws the regions itself (no --pes, --random-map "
                     "or --arch random)");
    return CLI_EXIT_INPUT;
  }
  if (values && (!check || regions || o.arch_random)) {
    diag_error_plain("gen program: --values needs --check on one configuration (no --regions, no --arch random)");
    return CLI_EXIT_INPUT;
  }
  arch_config vcfg;
  fcov_set cov = {0};
  if (values && (o.arch ? arch_config_load(o.arch, &vcfg) : arch_config_load_default(&vcfg))) return CLI_EXIT_INPUT;
  if (values) o.cov = &cov;
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", out ? out : "");
  FILE *f = !out ? stdout : fopen(check ? out : tmp, "w"); /* a program: whole or nothing */
  if (!f) {
    diag_error_plain("gen program: cannot write '%s'", out);
    return CLI_EXIT_INPUT;
  }
  o.log = f;
  if (check) {
    gen_run_totals t;
    int rc = regions ? gen_run_jobs(&o, regions, &t) : gen_run_seeds(&o, &t);
    if (out) fclose(f);
    int missed = values && !rc ? cli_gen_program_values(&vcfg, &cov) : 0;
    fcov_free(&cov);
    if (missed < 0) rc = -1;
    return rc ? CLI_EXIT_INPUT : t.fail || missed ? CLI_EXIT_MISMATCH : CLI_EXIT_OK;
  }
  for (unsigned long long s = o.first;; s++) {
    gp_program prog;
    gp_program_generate(s, &prog);
    gp_program_print(&prog, f);
    gp_program_free(&prog);
    if (s == o.last) break;
  }
  if (out && (fclose(f) != 0 || rename(tmp, out) != 0)) {
    diag_error_plain("gen program: cannot write '%s'", out);
    remove(tmp);
    return CLI_EXIT_INPUT;
  }
  return CLI_EXIT_OK;
}

int cli_gen(int argc, char **argv) {
  unsigned long long seed = 0, max_pes = ARCH_GEN_MAX_PES_DEFAULT;
  int have_seed = 0;
  if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    cli_gen_usage(stdout);
    return CLI_EXIT_OK;
  }
  if (argc >= 2 && !strcmp(argv[1], "stream")) return cli_gen_stream(argc - 1, argv + 1);
  if (argc >= 2 && !strcmp(argv[1], "program")) return cli_gen_program(argc - 1, argv + 1);
  if (argc < 2 || strcmp(argv[1], "arch")) {
    diag_error_plain("gen: expected 'arch', 'stream' or 'program' (tcpa gen arch --seed N)");
    cli_gen_usage(stderr);
    return CLI_EXIT_INPUT;
  }
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      cli_gen_usage(stdout);
      return CLI_EXIT_OK;
    }
    int is_seed = !strcmp(a, "--seed"), is_pes = !strcmp(a, "--max-pes");
    if (!is_seed && !is_pes) {
      diag_error_plain("gen: unknown option '%s'", a);
      return CLI_EXIT_INPUT;
    }
    unsigned long long v;
    if (i + 1 >= argc || cli_gen_number(argv[i + 1], &v) ||
        (is_pes && (v < 1 || v > 4096))) {
      diag_error_plain("gen: %s needs %s", a,
                       is_seed ? "a number" : "a number in 1..4096");
      return CLI_EXIT_INPUT;
    }
    i++;
    if (is_seed) {
      seed = v;
      have_seed = 1;
    } else {
      max_pes = v;
    }
  }
  if (!have_seed) {
    diag_error_plain("gen: --seed N is required (the same seed prints the same file)");
    return CLI_EXIT_INPUT;
  }
  arch_config cfg;
  if (arch_gen_config(seed, (int)max_pes, &cfg)) return CLI_EXIT_INPUT;
  printf("; tcpa gen arch --seed %llu --max-pes %llu\n", seed, max_pes);
  arch_config_write_ini(&cfg, stdout);
  return CLI_EXIT_OK;
}
