/*
 * datafile.c: reads and writes the data files of datafile.h.
 *
 * Reading loads the whole file, then walks it token by token (a token is a
 * maximal run of non-whitespace characters) keeping the line and column of
 * each token for the error messages. After the n values expected, further
 * tokens are still counted (and checked) so that "too many values" can say
 * how many were found.
 *
 * Writing goes through datafile_tmp: mkstemp next to the target, write,
 * fflush + fsync, close, rename.
 */
#include "datafile.h"
#include "fileio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"

/* Returns 1 for the whitespace characters that separate values. */
static int datafile_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Returns the value of hexadecimal digit c, or -1. */
static int datafile_hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Returns 0 and sets *out to the value of token s[0..len-1]; returns -1 when
 * it is not an integer, -2 when it does not fit in 32 bits. */
static int datafile_token_value(const char *s, size_t len, int32_t *out) {
  size_t i = 0;
  int neg = 0, base = 10;
  if (i < len && s[i] == '-') {
    neg = 1;
    i++;
  }
  if (i + 1 < len && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    base = 16;
    i += 2;
  }
  if (i >= len) return -1;
  uint64_t mag = 0;
  int big = 0;
  for (; i < len; i++) {
    int d = base == 16 ? datafile_hex_digit(s[i])
                       : (s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : -1);
    if (d < 0) return -1;
    mag = mag * (uint64_t)base + (uint64_t)d;
    if (mag > 0xffffffffull) {
      big = 1;
      mag = 0x100000000ull; /* keep going to validate the digits */
    }
  }
  if (big) return -2;
  if (neg) {
    if (mag > 0x80000000ull) return -2;
    *out = (int32_t)(uint32_t)(0u - (uint32_t)mag);
  } else {
    *out = (int32_t)(uint32_t)mag;
  }
  return 0;
}

/* Prints an error at line:col of file `name` whose text is `text`. */
static void datafile_error_at(const char *name, const char *text, int line,
                              int col, const char *what, const char *msg,
                              const char *tok, int toklen) {
  diag_loc loc = {name, line, col};
  if (tok)
    diag_error(&loc, text, "%s%s%s '%.*s'", what ? what : "", what ? ": " : "",
               msg, toklen, tok);
  else
    diag_error(&loc, text, "%s%s%s", what ? what : "", what ? ": " : "", msg);
}

int datafile_parse(const char *name, const char *text, const char *what,
                   int32_t *vals, size_t n) {
  const char *p = text;
  int line = 1, col = 1;
  size_t found = 0;
  int extra_line = 0, extra_col = 0; /* the first value beyond n */
  while (*p) {
    if (datafile_is_space(*p)) {
      if (*p == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
      p++;
      continue;
    }
    const char *tok = p;
    while (*p && !datafile_is_space(*p)) p++;
    size_t len = (size_t)(p - tok);
    int32_t v = 0;
    int rc = datafile_token_value(tok, len, &v);
    if (rc == -1) {
      datafile_error_at(name, text, line, col, what,
                        "expected an integer (decimal or 0x hexadecimal), found",
                        tok, (int)len);
      return -1;
    }
    if (rc == -2) {
      datafile_error_at(name, text, line, col, what,
                        "value does not fit in 32 bits (-2147483648 .. 4294967295):",
                        tok, (int)len);
      return -1;
    }
    if (found < n) {
      vals[found] = v;
    } else if (found == n) {
      extra_line = line;
      extra_col = col;
    }
    found++;
    col += (int)len;
  }
  char msg[160];
  if (found < n) {
    snprintf(msg, sizeof msg, "expected %zu value%s, found %zu", n,
             n == 1 ? "" : "s", found);
    datafile_error_at(name, text, line, col, what, msg, NULL, 0);
    return -1;
  }
  if (found > n) {
    snprintf(msg, sizeof msg,
             "expected %zu value%s, found %zu (the first extra value is here)",
             n, n == 1 ? "" : "s", found);
    datafile_error_at(name, text, extra_line, extra_col, what, msg, NULL, 0);
    return -1;
  }
  return 0;
}

/* Returns the whole contents of `path` (NUL-terminated; NUL bytes inside
 * are reported as bad tokens by the parser), or NULL with errno set. */
static char *datafile_slurp(const char *path) {
  size_t len;
  char *buf = fileio_read_all(path, &len);
  if (!buf) return NULL;
  /* an embedded NUL would end the text early: make it a visible bad byte */
  for (size_t i = 0; i < len; i++)
    if (!buf[i]) buf[i] = '\x01';
  return buf;
}

int datafile_read(const char *path, const char *what, int32_t *vals, size_t n) {
  char *text = datafile_slurp(path);
  if (!text) {
    diag_loc loc = {path, 1, 1};
    diag_error(&loc, NULL, "%s%scannot read the data file: %s", what ? what : "",
               what ? ": " : "", strerror(errno));
    return -1;
  }
  int rc = datafile_parse(path, text, what, vals, n);
  free(text);
  return rc;
}

int datafile_tmp_open(datafile_tmp *t, const char *path) {
  t->f = NULL;
  t->path = strdup(path);
  size_t len = strlen(path);
  t->tmp = malloc(len + 16);
  if (!t->path || !t->tmp) goto error;
  snprintf(t->tmp, len + 16, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(t->tmp);
  if (fd < 0) {
    diag_error_plain("cannot write '%s': %s", path, strerror(errno));
    goto error;
  }
  t->f = fdopen(fd, "w");
  if (!t->f) {
    close(fd);
    unlink(t->tmp);
    diag_error_plain("cannot open '%s': %s", t->tmp, strerror(errno));
    goto error;
  }
  return 0;
error:
  free(t->path);
  free(t->tmp);
  t->path = t->tmp = NULL;
  return -1;
}

int datafile_tmp_commit(datafile_tmp *t) {
  int bad = fflush(t->f) != 0 || ferror(t->f);
  if (!bad) bad = fsync(fileno(t->f)) != 0 && errno != EINVAL;
  int err = errno;
  if (fclose(t->f) != 0 && !bad) {
    bad = 1;
    err = errno;
  }
  t->f = NULL;
  if (!bad && rename(t->tmp, t->path) != 0) {
    bad = 1;
    err = errno;
  }
  if (bad) {
    diag_error_plain("cannot write '%s': %s", t->path, strerror(err));
    unlink(t->tmp);
  }
  free(t->path);
  free(t->tmp);
  t->path = t->tmp = NULL;
  return bad ? -1 : 0;
}

void datafile_tmp_abort(datafile_tmp *t) {
  if (t->f) fclose(t->f);
  if (t->tmp) unlink(t->tmp);
  free(t->path);
  free(t->tmp);
  t->f = NULL;
  t->path = t->tmp = NULL;
}

int datafile_write(const char *path, const int32_t *vals, int ndims,
                   const int64_t *extent) {
  datafile_tmp t;
  if (datafile_tmp_open(&t, path) != 0) return -1;
  if (ndims == 0) {
    fprintf(t.f, "%d\n", (int)vals[0]);
    return datafile_tmp_commit(&t);
  }
  int64_t n = 1;
  for (int d = 0; d < ndims; d++) n *= extent[d] > 0 ? extent[d] : 0;
  int64_t row = extent[ndims - 1];
  int64_t slice = ndims >= 2 ? row * extent[ndims - 2] : 0;
  for (int64_t i = 0; i < n; i++) {
    fprintf(t.f, "%d", (int)vals[i]);
    if ((i + 1) % row) {
      fputc(' ', t.f);
    } else {
      fputc('\n', t.f);
      if (ndims >= 3 && (i + 1) % slice == 0 && i + 1 < n) fputc('\n', t.f);
    }
  }
  return datafile_tmp_commit(&t);
}
