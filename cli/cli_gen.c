/*
 * cli_gen.c: `tcpa gen arch --seed N [--max-pes K]`: prints the random
 * valid architecture configuration of seed N as an INI file on stdout
 * (arch_gen.h; docs/rtl.md section "Every valid configuration"). The same
 * seed prints the same file; tests/lint_sweep.sh lints the RTL on them.
 * `tcpa gen stream` (random configuration streams) is cli_gen_stream.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "arch_gen.h"
#include "cli.h"
#include "diag.h"

/* Prints the usage of `tcpa gen` to `f`. */
static void cli_gen_usage(FILE *f) {
  fputs("usage: tcpa gen arch --seed N [--max-pes K]\n"
        "       tcpa gen stream ... (tcpa gen stream --help)\n\n"
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

int cli_gen(int argc, char **argv) {
  unsigned long long seed = 0, max_pes = ARCH_GEN_MAX_PES_DEFAULT;
  int have_seed = 0;
  if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    cli_gen_usage(stdout);
    return CLI_EXIT_OK;
  }
  if (argc >= 2 && !strcmp(argv[1], "stream")) return cli_gen_stream(argc - 1, argv + 1);
  if (argc < 2 || strcmp(argv[1], "arch")) {
    diag_error_plain("gen: expected 'arch' or 'stream' (tcpa gen arch --seed N)");
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
