/* covers: docs/trace.md "Model and RTL in one waveform", "State events" */
/*
 * test_wave_mem.c: the banks' words at done compared from two traces
 * (tb/wave_mem.h). A table of RTL and model trace texts: equal words, a
 * value that differs, a word on one side only, several PEs, runs that did
 * not reach done on both sides or not in the same cycle (not compared),
 * the RTL's `# fst` time base, a malformed line (refused, file:line).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "wave_mem.h"

#define HDR "# tcpa-trace 1 fp=0x0000000000000001\n"

static const struct {
  const char *name;
  const char *rtl, *model;
  int rc, compared;
  uint64_t time;
  const char *pes; /* "R,C R,C": the PEs listed, in order */
} cases[] = {
    {"equal words", HDR "5 mem 0,0 n 0 0 0x00000001\n5 done - 6\n", HDR "5 mem 0,0 n 0 0 0x00000001\n5 done - 6\n",
     0, 1, 5000, ""},
    {"one value differs", HDR "5 mem 0,0 n 0 0 0x00000001\n5 mem 0,1 n 0 0 0x00000002\n5 done - 6\n",
     HDR "5 mem 0,0 n 0 0 0x00000001\n5 mem 0,1 n 0 0 0x00000003\n5 done - 6\n", 0, 1, 5000, "0,1"},
    {"a word in the RTL only", HDR "5 mem 1,0 w 1 4 0x00000001\n5 done - 6\n", HDR "5 done - 6\n", 0, 1, 5000, "1,0"},
    {"a word in the model only, another bank", HDR "5 mem 0,0 n 0 0 0x00000001\n5 done - 6\n",
     HDR "5 mem 0,0 n 0 0 0x00000001\n5 mem 0,0 n 1 0 0x00000001\n5 done - 6\n", 0, 1, 5000, "0,0"},
    {"two PEs, the same word elsewhere", HDR "5 mem 0,0 n 0 3 0x00000009\n5 mem 1,1 s 0 3 0x00000009\n5 done - 6\n",
     HDR "5 mem 0,0 n 0 3 0x00000008\n5 mem 1,1 s 0 3 0x00000007\n5 done - 6\n", 0, 1, 5000, "0,0 1,1"},
    {"the RTL's fst time base", HDR "# fst t0=100 period=10\n7 mem 0,0 n 0 0 0x00000001\n7 done - 8\n",
     HDR "7 mem 0,0 n 0 0 0x00000002\n7 done - 8\n", 0, 1, 170, "0,0"},
    {"the RTL did not reach done", HDR "5 mem 0,0 n 0 0 0x00000001\n", HDR "5 mem 0,0 n 0 0 0x00000002\n5 done - 6\n", 0,
     0, 0, ""},
    {"done in different cycles", HDR "5 mem 0,0 n 0 0 0x00000001\n5 done - 6\n",
     HDR "6 mem 0,0 n 0 0 0x00000002\n6 done - 7\n", 0, 0, 0, ""},
    {"a malformed line", HDR "5 mem 0,0 n 0 0 1\n5 done - 6\n", HDR "5 done - 6\n", -1, 0, 0, ""},
};

/* Writes text to path; returns 0. */
static int put(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fputs(text, f);
  return fclose(f);
}

static void test_cases(void) {
  char r[64], m[64], msg[300];
  snprintf(r, sizeof r, "/tmp/test_wmem_r%d.trace", (int)getpid());
  snprintf(m, sizeof m, "/tmp/test_wmem_m%d.trace", (int)getpid());
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    if (put(r, cases[i].rtl) || put(m, cases[i].model)) {
      TEST_CHECK(0, "%s: traces written", cases[i].name);
      continue;
    }
    wave_mem_diff d;
    msg[0] = 0;
    int rc = wave_mem_compare(r, m, &d, msg, sizeof msg);
    char got[200] = "";
    for (int k = 0; rc == 0 && k < d.npe; k++)
      snprintf(got + strlen(got), sizeof got - strlen(got), "%s%d,%d", k ? " " : "", d.pe[k].row, d.pe[k].col);
    int ok = rc == cases[i].rc && (rc || (d.compared == cases[i].compared && !strcmp(got, cases[i].pes) &&
                                          (!d.compared || d.time == cases[i].time)));
    if (rc) ok = ok && strstr(msg, r) && strstr(msg, ":2:");
    TEST_CHECK(ok, "%s: rc %d, compared %d, time %llu, PEs '%s' %s", cases[i].name, rc, rc ? -1 : d.compared,
               rc ? 0ULL : (unsigned long long)d.time, got, msg);
    if (!rc) wave_mem_free(&d);
  }
  wave_mem_diff d;
  int rc = wave_mem_compare("/nonexistent/a.trace", NULL, &d, msg, sizeof msg);
  TEST_CHECK(rc == 0 && !d.compared && d.npe == 0, "missing traces: not compared, no error");
  unlink(r), unlink(m);
}

int main(void) {
  test_cases();
  return test_done();
}
