/* covers: docs/language.md "Data files", docs/user-guide.md "Data files" */
/*
 * test_datafile.c: the data-file reader and writer (datafile.h): decimal
 * and hexadecimal values, the 32-bit range in both readings, and each error
 * with its file:line:column and the counts of values expected and found
 * (stderr is captured into a temporary file and searched); atomic writing
 * and the round trip through a file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datafile.h"
#include "test.h"

static char test_err[4096]; /* stderr of the last call */

/* Returns the result of datafile_parse on `text`, capturing stderr. */
static int test_parse(const char *text, int32_t *vals, size_t n) {
  fflush(stderr);
  FILE *tmp = tmpfile();
  int saved = dup(2);
  dup2(fileno(tmp), 2);
  int rc = datafile_parse("t.txt", text, NULL, vals, n);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t len = fread(test_err, 1, sizeof test_err - 1, tmp);
  test_err[len] = '\0';
  fclose(tmp);
  return rc;
}

/* Checks that parsing `text` for n values fails with `want` in the message. */
static void test_bad(const char *text, size_t n, const char *want) {
  int32_t vals[16];
  char shown[128];
  size_t k = 0;
  for (const char *c = text; *c && k + 3 < sizeof shown; c++) {
    if (*c == '\n') {
      shown[k++] = '\\';
      shown[k++] = 'n';
    } else {
      shown[k++] = *c;
    }
  }
  shown[k] = '\0';
  int rc = test_parse(text, vals, n);
  TEST_CHECK(rc == -1 && strstr(test_err, want), "rejects \"%s\": message has '%s'",
             shown, want);
  if (!strstr(test_err, want)) printf("#   got: %s", test_err);
}

/* Valid files: values, notations, separators, range limits. */
static void test_good(void) {
  int32_t v[8];
  TEST_CHECK(test_parse("1 -2\n0x10\t0XfF  \r\n  -0x7 ", v, 5) == 0 && v[0] == 1 &&
                 v[1] == -2 && v[2] == 16 && v[3] == 255 && v[4] == -7,
             "decimal, hex, negative, mixed whitespace");
  TEST_CHECK(test_parse("-2147483648 2147483647 4294967295 0xffffffff 0x80000000", v,
                        5) == 0 &&
                 v[0] == INT32_MIN && v[1] == INT32_MAX && v[2] == -1 && v[3] == -1 &&
                 v[4] == INT32_MIN,
             "32-bit limits, signed and unsigned reading");
  TEST_CHECK(test_parse("42\n", v, 1) == 0 && v[0] == 42, "a scalar");
  TEST_CHECK(test_parse("", v, 0) == 0, "an empty file for zero values");
  TEST_CHECK(test_parse("007 -0", v, 2) == 0 && v[0] == 7 && v[1] == 0,
             "leading zeros are decimal");
}

/* Invalid files: each error with its place and counts. */
static void test_errors(void) {
  test_bad("1 2\n3 x4\n", 4, "t.txt:2:3: error: expected an integer");
  test_bad("1 2\n3 x4\n", 4, "'x4'");
  test_bad("1 2 3", 3 + 1, "expected 4 values, found 3");
  test_bad("1 2\n3\n", 4, "t.txt:3:1: error: expected 4 values, found 3");
  test_bad("1 2 3\n4 5", 3, "t.txt:2:1: error: expected 3 values, found 5");
  test_bad("", 1, "t.txt:1:1: error: expected 1 value, found 0");
  test_bad("4294967296", 1, "t.txt:1:1: error: value does not fit in 32 bits");
  test_bad("  -2147483649", 1, "t.txt:1:3: error: value does not fit");
  test_bad("0x100000000", 1, "does not fit");
  test_bad("99999999999999999999999", 1, "does not fit");
  test_bad("0x", 1, "expected an integer");
  test_bad("-", 1, "expected an integer");
  test_bad("1.5", 1, "expected an integer");
  test_bad("1,2", 2, "'1,2'");
  test_bad("0x1g", 1, "expected an integer");
  test_bad("+1", 1, "expected an integer");
}

/* Writing: the file read back equals what was written; no temp file left. */
static void test_write(void) {
  char dir[] = "/tmp/test_datafile_XXXXXX";
  if (!mkdtemp(dir)) {
    TEST_CHECK(0, "mkdtemp");
    return;
  }
  char path[256];
  snprintf(path, sizeof path, "%s/a.txt", dir);
  int32_t a[24], b[24];
  for (int i = 0; i < 24; i++) a[i] = (i * 7919 - 100) * (i % 2 ? -1 : 1);
  a[5] = INT32_MIN;
  a[6] = INT32_MAX;
  int64_t ext[3] = {2, 3, 4};
  TEST_CHECK(datafile_write(path, a, 3, ext) == 0, "write a 2x3x4 array");
  TEST_CHECK(datafile_read(path, NULL, b, 24) == 0 && !memcmp(a, b, sizeof a),
             "read back equals written");
  FILE *f = fopen(path, "r");
  char line[256] = "";
  if (f) {
    if (!fgets(line, sizeof line, f)) line[0] = '\0';
    fclose(f);
  }
  TEST_CHECK(!strcmp(line, "-100 -7819 15738 -23657\n"), "one innermost row per line");
  int32_t s = -5, t = 0;
  TEST_CHECK(datafile_write(path, &s, 0, ext) == 0 && datafile_read(path, NULL, &t, 1) == 0 &&
                 t == -5,
             "scalar round trip");
  char cmd[300];
  snprintf(cmd, sizeof cmd, "ls %s | wc -l", dir);
  FILE *p = popen(cmd, "r");
  int count = -1;
  if (p) {
    if (fscanf(p, "%d", &count) != 1) count = -1;
    pclose(p);
  }
  TEST_CHECK(count == 1, "no temporary file left behind (%d files)", count);
  snprintf(path, sizeof path, "%s/missing/a.txt", dir);
  fflush(stderr);
  TEST_CHECK(datafile_write(path, a, 3, ext) == -1, "writing into a missing directory fails");
  TEST_CHECK(datafile_read(path, NULL, b, 24) == -1, "reading a missing file fails");
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) printf("# could not remove %s\n", dir);
}

int main(void) {
  test_good();
  test_errors();
  test_write();
  return test_done();
}
