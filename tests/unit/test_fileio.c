/* covers: docs/user-guide.md "Looking at a mismatch" */
/*
 * test_fileio.c: fileio_read_all on files of sizes around the buffer's
 * growth points (the content must come back byte for byte, NUL-terminated),
 * on a directory and on a missing file (NULL with the right errno); and
 * fileio_shell_quote on a table of words, each quoted word also read back
 * by /bin/sh (printf '%s' WORD must print the word itself).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "test.h"

/* Returns 1 when reading a file of `size` pseudo-random bytes (NULs among
 * them) gives back exactly those bytes plus a terminating NUL. */
static int roundtrip(const char *dir, size_t size) {
  char path[256];
  snprintf(path, sizeof path, "%s/f%zu", dir, size);
  char *data = malloc(size + 1);
  for (size_t i = 0; i < size; i++) data[i] = (char)(i * 131 + 7);
  FILE *f = fopen(path, "wb");
  fwrite(data, 1, size, f);
  fclose(f);
  size_t len = 12345;
  char *got = fileio_read_all(path, &len);
  int ok = got && len == size && !memcmp(got, data, size) && got[size] == 0;
  free(got);
  free(data);
  unlink(path);
  return ok;
}

/* Returns s quoted by fileio_shell_quote, malloc'ed. */
static char *quoted(const char *s) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  fileio_shell_quote(f, s);
  fclose(f);
  return buf;
}

/* Returns 1 when /bin/sh, given the quoted word, prints exactly s. */
static int shell_reads_back(const char *q, const char *s) {
  char *cmd = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&cmd, &len);
  fprintf(f, "printf '%%s' %s", q);
  fclose(f);
  FILE *p = popen(cmd, "r");
  char out[256] = "";
  size_t n = p ? fread(out, 1, sizeof out - 1, p) : 0;
  out[n] = 0;
  int ok = p && pclose(p) == 0 && !strcmp(out, s);
  free(cmd);
  return ok;
}

/* The quoting table: word, expected text. */
static const struct {
  const char *word, *want;
} quote_cases[] = {
    {"plain", "plain"},
    {"--param=N=4", "--param=N=4"},
    {"a/b.c:1,2+3@x%y", "a/b.c:1,2+3@x%y"},
    {"", "''"},
    {"two words", "'two words'"},
    {"it's", "'it'\\''s'"},
    {"$HOME", "'$HOME'"},
    {"a*b;c", "'a*b;c'"},
    {"back\\slash", "'back\\slash'"},
};

int main(void) {
  char dir[] = "/tmp/tcpa-fileio-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  static const size_t sizes[] = {0, 1, 4094, 4095, 4096, 4097, 8191, 8192, 100000};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    TEST_CHECK(roundtrip(dir, sizes[i]), "read back a file of %zu bytes", sizes[i]);

  size_t len;
  errno = 0;
  TEST_CHECK(!fileio_read_all(dir, &len) && errno == EISDIR,
             "a directory: NULL with EISDIR (errno %d)", errno);
  char missing[300];
  snprintf(missing, sizeof missing, "%s/none", dir);
  errno = 0;
  TEST_CHECK(!fileio_read_all(missing, &len) && errno == ENOENT,
             "a missing file: NULL with ENOENT (errno %d)", errno);
  rmdir(dir);

  for (size_t i = 0; i < sizeof quote_cases / sizeof quote_cases[0]; i++) {
    char *q = quoted(quote_cases[i].word);
    TEST_CHECK(!strcmp(q, quote_cases[i].want), "quote [%s] gives [%s] (got [%s])", quote_cases[i].word,
               quote_cases[i].want, q);
    TEST_CHECK(shell_reads_back(q, quote_cases[i].word), "the shell reads [%s] back as [%s]", q,
               quote_cases[i].word);
    free(q);
  }
  return test_done();
}
