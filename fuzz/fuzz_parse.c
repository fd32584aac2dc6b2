/*
 * fuzz_parse.c: libFuzzer target for the loop-language front end. The
 * input bytes are taken as the text of a .pla file (cut at the first NUL,
 * as a file read as a C string would be): parse_string() builds the
 * program and, when it parses, check_program() runs the five rules of
 * docs/language.md on it with isl. Errors are expected (diag.h prints them
 * to stderr, which the runs close with -close_fd_mask=2); a crash, a leak,
 * undefined behaviour or a hang is a bug. Built by `make fuzz` (docs/fuzz.md).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "check.h"
#include "diag.h"
#include "parse.h"
#include "rdg.h"

/* Returns 0 (libFuzzer's contract); parses and checks data[0..size). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  ast_program *p = parse_string("fuzz.pla", text);
  if (p) {
    if (check_program(p) == 0) {
      rdg *g = rdg_build(p);
      if (g) rdg_count_ops(g);
      rdg_free(g);
    }
    ast_program_free(p);
  }
  diag_reset();
  free(text);
  return 0;
}
