/*
 * fileio.c: reads a whole file into a growing buffer (doubling from 4 KiB)
 * and NUL-terminates it, so text loaders can scan it as a string.
 * fileio_mkdir_p walks the path's slashes, creating each prefix in turn.
 */
#include "fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

int fileio_mkdir_p(const char *dir, char *failed, size_t fsz) {
  char *buf = malloc(strlen(dir) + 1);
  if (!buf) return -1;
  strcpy(buf, dir);
  int rc = 0;
  for (char *s = buf + 1;; s++) {
    if (*s != '/' && *s != '\0') continue;
    char c = *s;
    *s = '\0';
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
      rc = -1;
      break;
    }
    *s = c;
    if (!c) break;
  }
  struct stat st;
  if (!rc && stat(dir, &st) != 0) rc = -1;
  else if (!rc && !S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    rc = -1;
  }
  if (rc && failed && fsz) snprintf(failed, fsz, "%s", buf);
  free(buf);
  return rc;
}

void fileio_shell_quote(FILE *f, const char *s) {
  if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") == strlen(s)) {
    fputs(s, f);
    return;
  }
  fputc('\'', f);
  for (; *s; s++) {
    if (*s == '\'') fputs("'\\''", f);
    else fputc(*s, f);
  }
  fputc('\'', f);
}
