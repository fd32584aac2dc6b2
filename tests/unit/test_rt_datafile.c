/* covers: docs/runtime.md "Arrays of a kernel" "Host programs" */
/*
 * test_rt_datafile.c: a kernel's arrays through data files
 * (runtime/rt_datafile.c) and a .sym loaded from memory
 * (tcpa_rt_kernel_load_text) on the model: matmul compiled once, its
 * text loaded, a table of file calls in order, each with the status it
 * must return (a missing file, one with a value too few, one that is not
 * integers, an output written from a file, an input read to one, reading
 * before done, an unwritable path, NULL names and paths), then the good
 * ones: the values written from files run, and the output file holds
 * the reference interpreter's values, in the data-file layout.
 */
#include "datafile.h"
#include "fileio.h"
#include "rt_fixture.h"
#include "test.h"

enum { WF, RF, START_WAIT };

/* One call: op, the array, the file (in the temporary directory; NULL:
 * none), the status. */
typedef struct {
  int op;
  const char *name, *file;
  tcpa_rt_status want;
} call;

static const call calls[] = {
    {WF, "A", "missing.txt", TCPA_RT_FILE},
    {WF, "A", "short.txt", TCPA_RT_FILE},    /* 11 of 12 values */
    {WF, "A", "words.txt", TCPA_RT_FILE},    /* not integers */
    {WF, "C", "a.txt", TCPA_RT_INVALID},     /* an output */
    {WF, "Z", "a.txt", TCPA_RT_INVALID},     /* no such array */
    {WF, "A", NULL, TCPA_RT_INVALID},        /* no file */
    {RF, "C", "c.txt", TCPA_RT_STATE},       /* before the run */
    {WF, "A", "a.txt", TCPA_RT_OK},
    {WF, "B", "b.txt", TCPA_RT_OK},
    {START_WAIT, NULL, NULL, TCPA_RT_OK},
    {RF, "A", "x.txt", TCPA_RT_INVALID},     /* an input */
    {RF, "C", "no/such/dir/c.txt", TCPA_RT_FILE},
    {RF, "C", "c.txt", TCPA_RT_OK},
};

/* Writes text to dir/name. */
static void put(const char *dir, const char *name, const char *text) {
  char p[600];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "w");
  if (f) fputs(text, f), fclose(f);
}

int main(void) {
  char dir[] = "/tmp/test_rt_datafileXXXXXX", sym[512], p[600];
  if (!mkdtemp(dir) || rt_fixture_compile(dir, "matmul", NULL, sym, sizeof sym)) {
    TEST_CHECK(0, "matmul compiles into a temporary directory");
    return test_done();
  }
  char *text = fileio_read_all(sym, NULL);
  tcpa_rt_array *a;
  tcpa_rt_region *r;
  tcpa_rt_kernel *k = NULL, *junk = NULL;
  TEST_CHECK(text && !tcpa_rt_open(NULL, TCPA_RT_ENGINE_MODEL, &a) && !tcpa_rt_region_alloc(a, 1, 2, 0, 0, &r),
             "open the array, allocate 1x2");
  TEST_CHECK(tcpa_rt_kernel_load_text(a, "junk", "tcpa-sym 99\n", &junk) == TCPA_RT_FILE &&
                 strstr(tcpa_rt_message(a), "junk") && !junk,
             "load_text of a text that is not a .sym: file, named (%s)", tcpa_rt_message(a));
  TEST_CHECK(tcpa_rt_kernel_load_text(a, NULL, NULL, &k) == TCPA_RT_INVALID, "load_text of NULL: invalid");
  TEST_CHECK(!tcpa_rt_kernel_load_text(a, NULL, text, &k) && !strcmp(tcpa_rt_kernel_name(k), "matmul"),
             "load_text of matmul's .sym: kernel matmul (%s)", tcpa_rt_message(a));
  TEST_CHECK(!tcpa_rt_param_set(k, "N", 3) && !tcpa_rt_param_set(k, "M", 2) && !tcpa_rt_param_set(k, "K", 4) &&
                 !tcpa_rt_instantiate(k, r),
             "N=3 M=2 K=4 instantiated (%s)", tcpa_rt_message(a));
  put(dir, "a.txt", "1 -2 3 4\n5 6 -7 8\n9 10 11 -12\n");
  put(dir, "b.txt", "3 1\n-1 2\n0 5\n7 -4\n");
  put(dir, "short.txt", "1 2 3 4 5 6 7 8 9 10 11\n");
  put(dir, "words.txt", "1 2 three\n");
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
    const call *c = &calls[i];
    tcpa_rt_status st = TCPA_RT_INTERNAL;
    const char *path = NULL;
    if (c->file) snprintf(p, sizeof p, "%s/%s", dir, c->file), path = p;
    switch (c->op) {
    case WF: st = tcpa_rt_write_file(k, c->name, path); break;
    case RF: st = tcpa_rt_read_file(k, c->name, path); break;
    case START_WAIT:
      st = tcpa_rt_start(k);
      if (!st) st = tcpa_rt_wait(k, 0, NULL);
      break;
    }
    TEST_CHECK(st == c->want, "call %zu (%s %s %s): %s, want %s; %s", i, c->op == WF ? "write_file" : "read_file",
               c->name ? c->name : "", c->file ? c->file : "(NULL)", tcpa_rt_status_name(st),
               tcpa_rt_status_name(c->want), st ? tcpa_rt_message(a) : "no message");
    if (c->want != TCPA_RT_OK) TEST_CHECK(tcpa_rt_message(a)[0] != '\0', "call %zu: a message says why", i);
  }
  /* C = A B by hand, and the file's layout: one row of 2 per line */
  static const int32_t A[3][4] = {{1, -2, 3, 4}, {5, 6, -7, 8}, {9, 10, 11, -12}};
  static const int32_t B[4][2] = {{3, 1}, {-1, 2}, {0, 5}, {7, -4}};
  char want[256] = "";
  for (int i = 0; i < 3; i++) {
    long c0 = 0, c1 = 0;
    for (int x = 0; x < 4; x++) c0 += A[i][x] * B[x][0], c1 += A[i][x] * B[x][1];
    snprintf(want + strlen(want), sizeof want - strlen(want), "%ld %ld\n", c0, c1);
  }
  snprintf(p, sizeof p, "%s/c.txt", dir);
  char *got = fileio_read_all(p, NULL);
  for (char *q = got; q && *q; q++) *q = *q == '\n' ? '|' : *q;
  for (char *q = want; *q; q++) *q = *q == '\n' ? '|' : *q;
  TEST_CHECK(got && !strcmp(got, want), "c.txt holds A B, one row a line ('|': a line's end): %s (want %s)",
             got ? got : "(none)", want);
  TEST_CHECK(rt_fixture_differ(k, "matmul", "C") == 0, "C equals the reference interpreter's");
  free(got);
  free(text);
  tcpa_rt_close(a);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  TEST_CHECK(system(cmd) == 0, "temporary directory removed");
  return test_done();
}
