/*
 * cli_explore.c: `tcpa explore --workload W --space S [--arch BASE] [-j N]
 * [--out DIR] [--area] [--budget A] [--search S]` (docs/explore.md): parses the options into
 * explore_opts and runs the exploration (explore_run, explore.h). Exit 0
 * when a configuration runs every entry, 1 when a model run disagrees with
 * the reference, 2 invalid input (file:line), 3 when no point runs every
 * entry.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "explore.h"

/* Prints the usage of `tcpa explore` to f. */
static void explore_usage(FILE *f) {
  fputs("usage: tcpa explore --workload W --space S [--arch BASE] [-j N] [--out DIR] [--area]\n"
        "                    [--budget A] [--search all|descent] [--shard K/N] [-q]\n\n"
        "Design-space exploration: evaluates every point of the space S (lists and ranges\n"
        "of architecture keys over BASE) on the workload W (programs, parameters, regions,\n"
        "weights) with the flow of `tcpa run --engine model`, caches each point's results\n"
        "by configuration fingerprint in DIR/cache/, and writes DIR/points.tsv,\n"
        "DIR/entries.tsv, DIR/pareto.tsv, DIR/pareto.svg, DIR/sensitivity.tsv (what one\n"
        "step of each key buys) and DIR/smallest.ini\n"
        "(docs/explore.md).\n\n"
        "  --workload W   one entry a line: PROGRAM PARAMS RxC WEIGHT (required)\n"
        "  --space S      INI of docs/arch.md with lists (1,2) and ranges (2..6) (required)\n"
        "  --arch BASE    the base configuration (default: configs/default.ini, built in)\n"
        "  -j N           points evaluated at a time (default 1)\n"
        "  --out DIR      output directory (default build/explore)\n"
        "  --area         area in Yosys cells (scripts/synth.sh, minutes per point)\n"
        "                 instead of the configuration's proxy\n"
        "  --budget A     also the fastest point of area at most A (the area's unit):\n"
        "                 DIR/fastest.ini\n"
        "  --search S     all (default): every point, at most 20000; descent: from the\n"
        "                 top of the space down, key by key, to the smallest configuration\n"
        "                 running every entry, for spaces of up to 10^12 points\n"
        "  --shard K/N    evaluate only points K, K+N, K+2N, ... into DIR/cache/ and stop\n"
        "                 (scripts/regress-parallel.sh and regress-slurm.sh --explore run\n"
        "                 the shards on several hosts; a run without --shard answers)\n"
        "  -q, --quiet    no progress lines on stderr\n"
        "  -h, --help     print this help\n\n"
        "exit status: 0 a point runs every entry, 1 a model run differs from the\n"
        "reference, 2 invalid input, 3 no point runs every entry\n",
        f);
}

/* Returns the exit status of `tcpa explore` (cli.h). */
int cli_explore(int argc, char **argv) {
  explore_opts o = {.dir = "build/explore", .jobs = 1};
  enum { OPT_WORKLOAD = CLI_OPT_LONG, OPT_SPACE, OPT_ARCH, OPT_OUT, OPT_AREA, OPT_BUDGET, OPT_SEARCH, OPT_SHARD };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},           {"quiet", no_argument, NULL, 'q'},
      {"workload", required_argument, NULL, OPT_WORKLOAD}, {"space", required_argument, NULL, OPT_SPACE},
      {"arch", required_argument, NULL, OPT_ARCH}, {"out", required_argument, NULL, OPT_OUT},
      {"area", no_argument, NULL, OPT_AREA},      {"budget", required_argument, NULL, OPT_BUDGET},
      {"search", required_argument, NULL, OPT_SEARCH}, {"shard", required_argument, NULL, OPT_SHARD},
      {NULL, 0, NULL, 0}};
  cli_opt p;
  cli_opt_init(&p, "explore", argc, argv, "hqj:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    int64_t n;
    switch (c) {
    case 'h': explore_usage(stdout); return CLI_EXIT_OK;
    case 'q': o.quiet = 1; break;
    case OPT_WORKLOAD: o.workload = p.arg; break;
    case OPT_SPACE: o.space = p.arg; break;
    case OPT_ARCH: o.arch = p.arg; break;
    case OPT_OUT: o.dir = p.arg; break;
    case OPT_AREA: o.area = 1; break;
    case OPT_BUDGET:
      if (cli_opt_int(&p, 1, INT64_MAX, "a positive area", &n)) return CLI_EXIT_INPUT;
      o.has_budget = 1;
      o.budget = (double)n;
      break;
    case OPT_SEARCH:
      if (strcmp(p.arg, "all") && strcmp(p.arg, "descent")) {
        diag_error_plain("explore: --search %s: expected 'all' or 'descent'", p.arg);
        return CLI_EXIT_INPUT;
      }
      o.search = !strcmp(p.arg, "descent");
      break;
    case OPT_SHARD: {
      int used = 0;
      if (sscanf(p.arg, "%d/%d%n", &o.shard_k, &o.shard_n, &used) != 2 || p.arg[used] || o.shard_n < 1 ||
          o.shard_k < 1 || o.shard_k > o.shard_n) {
        diag_error_plain("explore: --shard: expected K/N with 1 <= K <= N, got '%s'", p.arg);
        return CLI_EXIT_INPUT;
      }
      break;
    }
    case 'j':
      if (cli_opt_int(&p, 1, 256, "an integer 1..256", &n)) return CLI_EXIT_INPUT;
      o.jobs = (int)n;
      break;
    case CLI_OPT_ARG:
      diag_error_plain("explore: unexpected argument '%s' (see 'tcpa explore --help')", p.arg);
      return CLI_EXIT_INPUT;
    default: return CLI_EXIT_INPUT;
    }
  }
  if (o.shard_n && o.search) {
    diag_error_plain("explore: --shard evaluates a share of every point; --search descent is one sequence of steps");
    return CLI_EXIT_INPUT;
  }
  if (!o.workload || !o.space) {
    diag_error_plain("explore: --workload W and --space S are required (see 'tcpa explore --help')");
    return CLI_EXIT_INPUT;
  }
  return explore_run(&o);
}
