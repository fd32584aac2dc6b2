/*
 * cli_check.c: `tcpa check PROG.pla [--dot]`. Parses the program (parse.h),
 * checks the rules of docs/language.md (check.h), and prints a one-line
 * summary, or with --dot the reduced dependence graph in Graphviz DOT
 * (rdg.h). Exit status 0 when the program is valid, 2 otherwise.
 */
#include <stdio.h>
#include <string.h>

#include "ast.h"
#include "check.h"
#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "parse.h"
#include "rdg.h"

/* Prints the usage of `tcpa check` to `f`. */
static void cli_check_usage(FILE *f) {
  fputs("usage: tcpa check PROG.pla [--dot]\n\n"
        "Parses a loop program and checks the rules of the language (single\n"
        "assignment, every use defined, dependences, extents, outputs written\n"
        "once) for every parameter value.\n\n"
        "  --dot    print the reduced dependence graph (Graphviz DOT) instead\n"
        "           of the summary\n"
        "  -h, --help  print this help\n\n"
        "exit status: 0 valid, 2 invalid (errors on stderr with file:line:column)\n",
        f);
}

/* Prints `PROG: OK (...)`: the counts of equations, operations (RDG
 * operation nodes), dimensions and parameters. Returns the exit status. */
static int cli_check_summary(const char *path, const ast_program *p) {
  rdg *g = rdg_build(p);
  if (!g) {
    diag_error_plain("%s: cannot build the dependence graph", path);
    return CLI_EXIT_INPUT;
  }
  int nops = rdg_count_ops(g);
  rdg_free(g);
  printf("%s: OK (%d equation%s, %d operation%s, %d-D iteration space, %d parameter%s)\n", path,
         p->neqs, p->neqs == 1 ? "" : "s", nops, nops == 1 ? "" : "s", p->ndims, p->nparams,
         p->nparams == 1 ? "" : "s");
  return CLI_EXIT_OK;
}

/* Prints the RDG of `p` in DOT to stdout; returns the exit status. */
static int cli_check_dot(const char *path, const ast_program *p) {
  rdg *g = rdg_build(p);
  if (!g) {
    diag_error_plain("%s: cannot build the dependence graph", path);
    return CLI_EXIT_INPUT;
  }
  rdg_dot_print(g, p, stdout);
  rdg_free(g);
  return fflush(stdout) ? CLI_EXIT_INPUT : CLI_EXIT_OK;
}

/* Returns 0 after reading the command line into *path and *dot, 1 for
 * --help, -1 after printing what is wrong. */
static int cli_check_parse(int argc, char **argv, const char **path, int *dot) {
  enum { OPT_DOT = CLI_OPT_LONG };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'}, {"dot", no_argument, NULL, OPT_DOT}, {NULL, 0, NULL, 0}};
  cli_opt p;
  cli_opt_init(&p, "check", argc, argv, "h", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    if (c == 'h') return 1;
    if (c == OPT_DOT) {
      *dot = 1;
    } else if (c != CLI_OPT_ARG) {
      return -1;
    } else if (*path) {
      diag_error_plain("check: one program at a time: '%s' after '%s'", p.arg, *path);
      return -1;
    } else {
      *path = p.arg;
    }
  }
  if (!*path) {
    diag_error_plain("check: no program given");
    cli_check_usage(stderr);
    return -1;
  }
  return 0;
}

int cli_check(int argc, char **argv) {
  const char *path = NULL;
  int dot = 0;
  int r = cli_check_parse(argc, argv, &path, &dot);
  if (r) {
    if (r > 0) cli_check_usage(stdout);
    return r > 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT;
  }
  ast_program *p = parse_file(path);
  if (!p) return CLI_EXIT_INPUT;
  int status = CLI_EXIT_INPUT;
  if (check_program(p) == 0) status = dot ? cli_check_dot(path, p) : cli_check_summary(path, p);
  ast_program_free(p);
  return status;
}
