/*
 * cli_signoff.c: `tcpa signoff --arch A.ini --out-dir DIR` (docs/regress.md
 * "Sign-off"): parses the options into signoff_opts and runs the sign-off
 * (signoff_run, signoff.h): lint, synthesis, the coverage harness, the
 * suite in cosim on every region, coverage, and the report. Exit 0 PASS,
 * 1 FAIL, 2 invalid input (options, A.ini), 3 INCOMPLETE (fewer runs fit
 * than --min-fit percent).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "signoff.h"

/* Prints the usage of `tcpa signoff` to f. */
static void signoff_usage(FILE *f) {
  fprintf(f, "usage: tcpa signoff --arch A.ini [--out-dir DIR] [--suite FILE] [-j N] [--timeout S]\n"
             "                    [--min-fit P] [--testplan FILE]\n\n"
             "Signs off an architecture configuration: lints and synthesizes its RTL, builds\n"
             "its Verilated harness with coverage, runs the suite in cosim on every region of\n"
             "the array, collects line and toggle coverage, and writes DIR/report.md,\n"
             "DIR/report.html (the verdict and how many runs fit at the top) and\n"
             "DIR/junit.xml; the report measures the testplan on the runs (per feature:\n"
             "runs passed, bins hit, closed or not).\n\n"
             "  --arch A.ini   the configuration (required)\n"
             "  --out-dir DIR  default build/signoff/<name of A.ini>\n"
             "  --suite FILE   the suite (default regress/suites/full)\n"
             "  -j N           runs at a time (default: the number of cores)\n"
             "  --timeout S    seconds per run (default 900)\n"
             "  --min-fit P    the floor: at least P %% of the runs must fit the configuration,\n"
             "                 or the verdict is INCOMPLETE (0-100, default %d)\n"
             "  --testplan FILE  the testplan (default docs/testplan.yml; docs/testplan.md)\n"
             "  -h, --help     print this help\n\n"
             "exit status: 0 PASS, 1 FAIL, 2 invalid input, 3 INCOMPLETE (what ran passed,\n"
             "but fewer runs fit than --min-fit)\n",
          SIGNOFF_MIN_FIT_DEFAULT);
}

/* Returns 0 after reading the options into s (the output directory's
 * default into outbuf, SIGNOFF_PATH bytes); -1 after an error. */
static int signoff_opts_parse(int argc, char **argv, signoff_opts *s, int *help, char *outbuf) {
  s->suite = "regress/suites/full";
  s->timeout = 900;
  s->min_fit = SIGNOFF_MIN_FIT_DEFAULT;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  s->jobs = cores > 0 ? (int)cores : 1;
  enum { OPT_ARCH = CLI_OPT_LONG, OPT_OUT, OPT_SUITE, OPT_TIMEOUT, OPT_MIN_FIT, OPT_TESTPLAN };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},         {"arch", required_argument, NULL, OPT_ARCH},
      {"out-dir", required_argument, NULL, OPT_OUT}, {"suite", required_argument, NULL, OPT_SUITE},
      {"timeout", required_argument, NULL, OPT_TIMEOUT}, {"min-fit", required_argument, NULL, OPT_MIN_FIT},
      {"testplan", required_argument, NULL, OPT_TESTPLAN},
      {NULL, 0, NULL, 0}};
  cli_opt p;
  cli_opt_init(&p, "signoff", argc, argv, "hj:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    int64_t n;
    switch (c) {
    case 'h': *help = 1; return 0;
    case OPT_ARCH: s->arch = p.arg; break;
    case OPT_OUT: s->dir = p.arg; break;
    case OPT_SUITE: s->suite = p.arg; break;
    case OPT_TESTPLAN: s->testplan = p.arg; break;
    case 'j':
    case OPT_TIMEOUT:
      if (cli_opt_int(&p, 1, 604800, "a positive integer", &n)) return -1;
      *(c == 'j' ? &s->jobs : &s->timeout) = (int)n;
      break;
    case OPT_MIN_FIT:
      if (cli_opt_int(&p, 0, 100, "a percentage", &n)) return -1;
      s->min_fit = (int)n;
      break;
    case CLI_OPT_ARG:
      diag_error_plain("signoff: unexpected argument '%s' (see 'tcpa signoff --help')", p.arg);
      return -1;
    default: return -1;
    }
  }
  if (!s->arch) {
    diag_error_plain("--arch A.ini is required (see 'tcpa signoff --help')");
    return -1;
  }
  if (!s->dir) {
    const char *b = strrchr(s->arch, '/') ? strrchr(s->arch, '/') + 1 : s->arch;
    size_t n = strlen(b);
    if (n > 4 && !strcmp(b + n - 4, ".ini")) n -= 4;
    snprintf(outbuf, SIGNOFF_PATH, "build/signoff/%.*s", (int)(n < 200 ? n : 200), b);
    s->dir = outbuf;
  }
  return 0;
}

int cli_signoff(int argc, char **argv) {
  signoff_opts o;
  static char outbuf[SIGNOFF_PATH];
  int help = 0;
  memset(&o, 0, sizeof o);
  if (signoff_opts_parse(argc, argv, &o, &help, outbuf)) return CLI_EXIT_INPUT;
  if (help) {
    signoff_usage(stdout);
    return CLI_EXIT_OK;
  }
  return signoff_run(&o);
}
