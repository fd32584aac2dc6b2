/*
 * cli_testplan.c: `tcpa testplan [--plan FILE] [--suite FILE] [--regress
 * DIR]` (docs/testplan.md): reads the testplan (testplan.h), checks it
 * against the tree (every test, suite program, bin pattern and RTL module
 * it names exists; every bin of every configuration of configs/ belongs
 * to a feature) and, with --regress, measures it on a regression's runs
 * and prints per feature its runs passed and its bins hit. Exit 0 the plan
 * holds, 1 a problem (each printed as file:line), 2 invalid input.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "fcov.h"
#include "regress_report.h"
#include "regress_suite.h"
#include "testplan.h"

/* Prints the usage of `tcpa testplan` to f. */
static void testplan_usage(FILE *f) {
  fputs("usage: tcpa testplan [--plan FILE] [--suite FILE] [--regress DIR]\n\n"
        "Checks the testplan: every test, sign-off suite program, functional coverage\n"
        "bin and RTL module it names exists, and every bin of the configurations of\n"
        "configs/ belongs to a feature. With --regress DIR (the output directory of a\n"
        "`tcpa regress`), prints per feature the runs that exercise it, how many\n"
        "passed, and its bins hit out of those defined.\n\n"
        "  --plan FILE    the testplan (default docs/testplan.yml)\n"
        "  --suite FILE   the sign-off's suite (default regress/suites/full)\n"
        "  --regress DIR  measure the plan on DIR/summary.json and DIR/fcov.json\n"
        "  -h, --help     print this help\n\n"
        "Run from the project's root directory.\n"
        "exit status: 0 the plan holds, 1 a problem (file:line, what), 2 invalid input\n",
        f);
}

/* Returns 0 after defining in s the bins of every configuration of
 * configs/; -1 after an error. */
static int testplan_bins_of_configs(fcov_set *s) {
  glob_t g;
  if (glob("configs/*.ini", 0, NULL, &g) || !g.gl_pathc) {
    diag_error_plain("testplan: no configs/*.ini: run from the project's root directory");
    return -1;
  }
  int rc = 0;
  for (size_t i = 0; i < g.gl_pathc && !rc; i++) {
    arch_config cfg;
    rc = arch_config_load(g.gl_pathv[i], &cfg) || fcov_bins_define(s, &cfg) ? -1 : 0;
  }
  globfree(&g);
  return rc;
}

/* Returns the exit status after measuring p on the regression in dir. */
static int testplan_regress(const testplan *p, const char *dir) {
  char path[4200], msg[512];
  regress_list l = {0};
  fcov_set merged = {0};
  snprintf(path, sizeof path, "%s/summary.json", dir);
  if (regress_report_load(path, &l)) {
    diag_error_plain("--regress %s: cannot read %s", dir, path);
    return CLI_EXIT_INPUT;
  }
  snprintf(path, sizeof path, "%s/fcov.json", dir);
  if (fcov_load(&merged, path, msg, sizeof msg)) fprintf(stderr, "tcpa testplan: warning: %s\n", msg);
  testplan_stat *st = calloc(p->n + 1, sizeof *st);
  int rc = st && testplan_measure(p, &l, &merged, st) == 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT;
  if (rc == CLI_EXIT_OK) testplan_report_text(stdout, p, st);
  free(st);
  fcov_free(&merged);
  regress_list_free(&l);
  return rc;
}

int cli_testplan(int argc, char **argv) {
  const char *plan = "docs/testplan.yml", *suite = "regress/suites/full", *regress = NULL;
  enum { OPT_PLAN = CLI_OPT_LONG, OPT_SUITE, OPT_REGRESS };
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                           {"plan", required_argument, NULL, OPT_PLAN},
                                           {"suite", required_argument, NULL, OPT_SUITE},
                                           {"regress", required_argument, NULL, OPT_REGRESS},
                                           {NULL, 0, NULL, 0}};
  cli_opt o;
  cli_opt_init(&o, "testplan", argc, argv, "h", longopts);
  for (int c; (c = cli_opt_next(&o)) != CLI_OPT_END;) {
    switch (c) {
    case 'h': testplan_usage(stdout); return CLI_EXIT_OK;
    case OPT_PLAN: plan = o.arg; break;
    case OPT_SUITE: suite = o.arg; break;
    case OPT_REGRESS: regress = o.arg; break;
    case CLI_OPT_ARG:
      diag_error_plain("testplan: unexpected argument '%s' (see 'tcpa testplan --help')", o.arg);
      return CLI_EXIT_INPUT;
    default: return CLI_EXIT_INPUT;
    }
  }
  testplan p;
  char msg[1024];
  if (testplan_load(plan, &p, msg, sizeof msg)) {
    diag_error_plain("%s", msg);
    return CLI_EXIT_INPUT;
  }
  fcov_set defined = {0};
  regress_list runs = {0};
  regress_suite_opts so = {.scale = "small"};
  int rc = CLI_EXIT_INPUT;
  if (testplan_bins_of_configs(&defined) == 0 && regress_suite_load(suite, &so, &runs) == 0) {
    int bad = testplan_check(&p, ".", &defined, &runs, stdout);
    size_t nt = 0;
    for (size_t i = 0; i < p.n; i++) nt += p.v[i].tests.n;
    printf("testplan %s: %zu features, %zu tests named, %zu bins of configs/*.ini: %d problem%s\n", plan, p.n, nt,
           defined.n, bad, bad == 1 ? "" : "s");
    rc = bad ? CLI_EXIT_MISMATCH : CLI_EXIT_OK;
    if (regress) {
      int r2 = testplan_regress(&p, regress);
      if (r2 != CLI_EXIT_OK) rc = r2;
    }
  }
  fcov_free(&defined);
  regress_list_free(&runs);
  testplan_free(&p);
  return rc;
}
