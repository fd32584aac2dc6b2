/*
 * fileio.c: reads a whole file into a growing buffer (doubling from 4 KiB)
 * and NUL-terminates it, so text loaders can scan it as a string.
 */
#include "fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

char *fileio_read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  errno = 0;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n - 1, f);
    if (n + 1 < cap) break;
    char *bigger = realloc(buf, cap * 2);
    if (!bigger) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = bigger;
    cap *= 2;
  }
  int failed = ferror(f) ? (errno ? errno : EIO) : 0;
  fclose(f);
  if (!buf) {
    errno = ENOMEM;
    return NULL;
  }
  if (failed) {
    free(buf);
    errno = failed;
    return NULL;
  }
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
}
