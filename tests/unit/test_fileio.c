/*
 * test_fileio.c: fileio_read_all on files of sizes around the buffer's
 * growth points (the content must come back byte for byte, NUL-terminated),
 * on a directory and on a missing file (NULL with the right errno).
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
  return test_done();
}
