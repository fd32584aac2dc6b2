/* cli_check.c: `tcpa check` (placeholder until its module lands). */
#include <stdio.h>

#include "cli.h"

int cli_check(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("tcpa: error: 'check' is not built yet\n", stderr);
  return CLI_EXIT_INPUT;
}
