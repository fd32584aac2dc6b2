/*
 * datafile.h: the data files of docs/language.md: an array's values as
 * whitespace-separated integers (decimal, or 0x hexadecimal, optionally
 * with a leading `-`), in row-major order; a scalar is a file with one
 * value. A value must fit in 32 bits, read as signed or as unsigned
 * (-2147483648 .. 4294967295); values above INT32_MAX wrap to negative.
 *
 * Files are written atomically: to a temporary file in the same directory,
 * renamed over the target once complete, so that a failure never leaves
 * half a file behind. The datafile_tmp_* functions offer the same to other
 * writers (summary.json).
 */
#ifndef TCPA_DATAFILE_H
#define TCPA_DATAFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Returns 0 and fills vals[0..n-1] from the file at `path`; returns -1 after
 * printing an error with file:line:column (a file that cannot be read, a
 * token that is not an integer, a value out of 32 bits, too few or too many
 * values: the message says how many were expected and found). `what` names
 * the data in messages ("input A"); NULL for none. */
int datafile_read(const char *path, const char *what, int32_t *vals, size_t n);

/* Same as datafile_read, on the text `text` reported as file `name`. */
int datafile_parse(const char *name, const char *text, const char *what,
                   int32_t *vals, size_t n);

/* Returns 0 after writing the values of an array with `ndims` dimensions of
 * the given extents (row-major, one innermost row per line, a blank line
 * between 2-D slices) to `path`, atomically; -1 after printing an error. */
int datafile_write(const char *path, const int32_t *vals, int ndims,
                   const int64_t *extent);

/* A file being written atomically. */
typedef struct {
  FILE *f;
  char *path; /* the target */
  char *tmp;  /* the temporary file, renamed to path on commit */
} datafile_tmp;

/* Returns 0 and opens a temporary file next to `path`; -1 after printing an
 * error. */
int datafile_tmp_open(datafile_tmp *t, const char *path);

/* Returns 0 after closing the temporary file and renaming it to its target;
 * -1 after printing an error (the temporary file is removed). */
int datafile_tmp_commit(datafile_tmp *t);

/* Closes and removes the temporary file: nothing is written. */
void datafile_tmp_abort(datafile_tmp *t);

#endif
