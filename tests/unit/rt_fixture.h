/*
 * rt_fixture.h: what the runtime's unit tests share: a benchmark compiled
 * to a .sym in a temporary directory (compile_run, as `tcpa compile`, its
 * report kept off the TAP stream), and a kernel's run checked against
 * the reference interpreter (tcpa_rt_reference).
 */
#ifndef TCPA_RT_FIXTURE_H
#define TCPA_RT_FIXTURE_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"
#include "tcpa_rt.h"

/* Returns 0 after compiling regress/programs/NAME.pla (map: --map, NULL:
 * 1-D onto columns) into DIR/NAME.sym (path into out); -1. */
static inline int rt_fixture_compile(const char *dir, const char *name, const char *map, char *out, size_t sz) {
  char src[256];
  snprintf(src, sizeof src, "regress/programs/%s.pla", name);
  snprintf(out, sz, "%s/%s%s.sym", dir, name, map ? "2d" : "");
  compile_opts o;
  memset(&o, 0, sizeof o);
  o.path = src, o.out = out, o.map = map;
  fflush(stdout);
  int keep = dup(1), null = open("/dev/null", O_WRONLY);
  dup2(null, 1);
  int rc = compile_run(&o);
  fflush(stdout);
  dup2(keep, 1);
  close(keep);
  close(null);
  return rc == COMPILE_OK ? 0 : -1;
}

/* Returns the number of elements of output `name` of k's last run that
 * differ from the reference interpreter's (program regress/programs/
 * PROG.pla); -1 when either cannot be read. */
static inline long rt_fixture_differ(const tcpa_rt_kernel *k, const char *prog, const char *name) {
  tcpa_rt_array_shape s;
  if (tcpa_rt_array_info(k, name, &s)) return -1;
  int32_t *got = calloc(s.count + 1, sizeof *got), *want = calloc(s.count + 1, sizeof *want);
  char src[256];
  snprintf(src, sizeof src, "regress/programs/%s.pla", prog);
  long bad = -1;
  if (got && want && !tcpa_rt_read(k, name, got, s.count) && !tcpa_rt_reference(k, src, name, want, s.count)) {
    bad = 0;
    for (size_t i = 0; i < s.count; i++) bad += got[i] != want[i];
  }
  free(got);
  free(want);
  return bad;
}

/* Fills input `name` of k with values seed * 7 + i * 13 mod 201 - 100;
 * returns the write's status. */
static inline tcpa_rt_status rt_fixture_fill(tcpa_rt_kernel *k, const char *name, int seed) {
  tcpa_rt_array_shape s;
  tcpa_rt_status st = tcpa_rt_array_info(k, name, &s);
  if (st) return st;
  int32_t *v = calloc(s.count + 1, sizeof *v);
  if (!v) return TCPA_RT_INTERNAL;
  for (size_t i = 0; i < s.count; i++) v[i] = (int32_t)((seed * 7 + (long)i * 13) % 201) - 100;
  st = tcpa_rt_write(k, name, v, s.count);
  free(v);
  return st;
}

#endif
