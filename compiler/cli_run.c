/* cli_run.c: `tcpa run` (placeholder until its module lands). */
#include <stdio.h>

#include "cli.h"

int cli_run(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("tcpa: error: 'run' is not built yet\n", stderr);
  return CLI_EXIT_INPUT;
}
