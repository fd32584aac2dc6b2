/*
 * cli_profile.c: `tcpa profile TRACE [-o DIR]` (docs/profile.md): where a
 * run's cycles went, from its event trace (profile.h): per PE and FU the
 * operation issues, nop issues, cycles waited and idle; per bank the AG
 * reads and writes; each region's cycles. Prints the tables; with -o DIR
 * writes DIR/profile.tsv, DIR/banks.tsv and the per-PE utilization heat
 * map DIR/utilization.svg (gnuplot). Exit 0, 2 on an unreadable trace.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "fileio.h"
#include "profile.h"

/* Prints the usage of `tcpa profile` to f. */
static void profile_usage(FILE *f) {
  fputs("usage: tcpa profile TRACE [-o DIR]\n\n"
        "Where a run's cycles went, from its event trace (model.trace or rtl.trace of\n"
        "`tcpa run --out-dir`, docs/trace.md): per PE and FU the cycles it issued an\n"
        "operation, issued a nop or waited in `nop N`, and was idle; per bank the AG\n"
        "reads and writes; each region's cycles (docs/profile.md). The model's and the\n"
        "RTL's traces of a passing cosim give the same profile.\n\n"
        "  -o DIR       also write DIR/profile.tsv, DIR/banks.tsv and the heat map of PE\n"
        "               utilization DIR/utilization.svg (gnuplot)\n"
        "  -h, --help   print this help\n\n"
        "exit status: 0 printed, 2 the trace cannot be read\n",
        f);
}

/* Returns the exit status of `tcpa profile` (cli.h). */
int cli_profile(int argc, char **argv) {
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  const char *trace = NULL, *dir = NULL;
  cli_opt p;
  cli_opt_init(&p, "profile", argc, argv, "ho:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    switch (c) {
    case 'h': profile_usage(stdout); return CLI_EXIT_OK;
    case 'o': dir = p.arg; break;
    case CLI_OPT_ARG:
      if (trace) {
        diag_error_plain("profile: one trace, got '%s' too (see 'tcpa profile --help')", p.arg);
        return CLI_EXIT_INPUT;
      }
      trace = p.arg;
      break;
    default: return CLI_EXIT_INPUT;
    }
  }
  if (!trace) {
    diag_error_plain("profile: a TRACE is required (see 'tcpa profile --help')");
    return CLI_EXIT_INPUT;
  }
  profile pr;
  if (profile_read(trace, &pr) != 0) return CLI_EXIT_INPUT;
  profile_print(&pr, stdout);
  int rc = CLI_EXIT_OK;
  char failed[4200];
  if (dir && (fileio_mkdir_p(dir, failed, sizeof failed) != 0 || profile_write(&pr, dir) != 0)) rc = CLI_EXIT_INPUT;
  else if (dir) printf("profile: %s/profile.tsv, banks.tsv, utilization.svg\n", dir);
  profile_free(&pr);
  return rc;
}
