/* cli_arch.c: `tcpa arch` (placeholder until its module lands). */
#include <stdio.h>

#include "cli.h"

int cli_arch(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("tcpa: error: 'arch' is not built yet\n", stderr);
  return CLI_EXIT_INPUT;
}
