/*
 * diag.h: error messages that say what is wrong and where.
 *
 * Every message has the form `FILE:LINE:COL: error: TEXT`; when the source
 * text is known, the offending line follows with a caret under the column.
 * Messages go to stderr. The count of errors printed is kept so that a
 * command can turn it into the exit status of docs/user-guide.md.
 */
#ifndef TCPA_DIAG_H
#define TCPA_DIAG_H

#include <stdarg.h>

/* A place in a source file. */
typedef struct {
  const char *file; /* owned by whoever read the file */
  int line, col;    /* 1-based */
} diag_loc;

/* Prints an error at `loc`; `source` is the whole text of loc->file, or NULL
 * to omit the caret line. */
void diag_error(const diag_loc *loc, const char *source, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same as diag_error, with the arguments as a va_list (for a module's
 * own error helper that adds its location and counts its errors). */
void diag_verror(const diag_loc *loc, const char *source, const char *fmt, va_list ap);

/* Prints an error that has no source location (`tcpa: error: TEXT`). */
void diag_error_plain(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* Prints a note that continues the previous error (`  note: TEXT`). */
void diag_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Returns how many errors were printed since the start or the last reset. */
int diag_error_count(void);

/* Sets the error count back to zero. */
void diag_reset(void);

#endif
