/*
 * cli_check.c: `tcpa check PROG.pla [--dot]`. Parses the program (parse.h),
 * checks the rules of spec/language.md (check.h), and prints a one-line
 * summary, or with --dot the reduced dependence graph in Graphviz DOT
 * (rdg.h). Exit status 0 when the program is valid, 2 otherwise.
 */
#include <stdio.h>
#include <string.h>

#include "ast.h"
#include "check.h"
#include "cli.h"
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
        "  --help   print this help\n\n"
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

int cli_check(int argc, char **argv) {
  const char *path = NULL;
  int dot = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      cli_check_usage(stdout);
      return CLI_EXIT_OK;
    } else if (!strcmp(argv[i], "--dot")) {
      dot = 1;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      diag_error_plain("check: unknown option '%s' (try 'tcpa check --help')", argv[i]);
      return CLI_EXIT_INPUT;
    } else if (path) {
      diag_error_plain("check: one program at a time: '%s' after '%s'", argv[i], path);
      return CLI_EXIT_INPUT;
    } else {
      path = argv[i];
    }
  }
  if (!path) {
    diag_error_plain("check: no program given");
    cli_check_usage(stderr);
    return CLI_EXIT_INPUT;
  }
  ast_program *p = parse_file(path);
  if (!p) return CLI_EXIT_INPUT;
  int status = CLI_EXIT_INPUT;
  if (check_program(p) == 0) status = dot ? cli_check_dot(path, p) : cli_check_summary(path, p);
  ast_program_free(p);
  return status;
}
