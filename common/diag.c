/*
 * diag.c: prints errors as `FILE:LINE:COL: error: TEXT` followed by the
 * source line and a caret under the column, and counts them.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int diag_count;

/* Prints line `line` of `source` and a caret under column `col`. */
static void diag_print_caret(const char *source, int line, int col) {
  const char *s = source;
  for (int l = 1; l < line && s; l++) {
    s = strchr(s, '\n');
    if (s) s++;
  }
  if (!s || !*s) return;
  const char *e = strchr(s, '\n');
  int len = e ? (int)(e - s) : (int)strlen(s);
  fprintf(stderr, "  %.*s\n  ", len, s);
  for (int c = 1; c < col && c <= len; c++) fputc(s[c - 1] == '\t' ? '\t' : ' ', stderr);
  fputs("^\n", stderr);
}

void diag_verror(const diag_loc *loc, const char *source, const char *fmt, va_list ap) {
  fprintf(stderr, "%s:%d:%d: error: ", loc->file ? loc->file : "<input>",
          loc->line, loc->col);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  if (source && loc->line > 0) diag_print_caret(source, loc->line, loc->col);
  diag_count++;
}

void diag_error(const diag_loc *loc, const char *source, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_verror(loc, source, fmt, ap);
  va_end(ap);
}

void diag_error_plain(const char *fmt, ...) {
  va_list ap;
  fputs("tcpa: error: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  diag_count++;
}

void diag_note(const char *fmt, ...) {
  va_list ap;
  fputs("  note: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

int diag_error_count(void) { return diag_count; }

void diag_reset(void) { diag_count = 0; }
