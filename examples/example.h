/*
 * example.h: what the example host programs share (docs/runtime.md
 * "Examples"): the exit statuses, a call that stops the program with
 * the runtime's message when it fails, input values, and the check of a
 * kernel's output against the reference interpreter (tcpa_rt_reference).
 * Only tcpa_rt.h and the C library: an example compiles against the
 * installed runtime as any host program does.
 */
#ifndef TCPA_EXAMPLE_H
#define TCPA_EXAMPLE_H

#include <stdio.h>
#include <stdlib.h>

#include "tcpa_rt.h"

enum { EXAMPLE_PASS = 0, EXAMPLE_WRONG = 1, EXAMPLE_ERROR = 2 };

static tcpa_rt_array *example_array; /* for the messages of example_try */

/* Returns when status s is TCPA_RT_OK; otherwise prints what failed and
 * the runtime's message, closes the array and exits EXAMPLE_ERROR. */
static inline void example_try(tcpa_rt_status s, const char *what) {
  if (s == TCPA_RT_OK) return;
  fprintf(stderr, "error: %s: %s: %s\n", what, tcpa_rt_status_name(s), tcpa_rt_message(example_array));
  tcpa_rt_close(example_array);
  exit(EXAMPLE_ERROR);
}

/* Returns a malloc'ed copy of array `name` of k's shape, filled with
 * values from seed (-50 .. 50) when fill is set, else zero; its count in
 * *n. */
static inline int32_t *example_values(const tcpa_rt_kernel *k, const char *name, int seed, int fill, size_t *n) {
  tcpa_rt_array_shape s;
  example_try(tcpa_rt_array_info(k, name, &s), name);
  int32_t *v = calloc(s.count + 1, sizeof *v);
  if (!v) example_try(TCPA_RT_INTERNAL, "out of memory");
  for (size_t i = 0; fill && i < s.count; i++) v[i] = (int32_t)((seed * 31 + (long)i * 17) % 101) - 50;
  *n = s.count;
  return v;
}

/* Writes array `name` of k from seed; returns nothing (exits on error). */
static inline void example_fill(tcpa_rt_kernel *k, const char *name, int seed) {
  size_t n;
  int32_t *v = example_values(k, name, seed, 1, &n);
  example_try(tcpa_rt_write(k, name, v, n), name);
  free(v);
}

/* Returns the number of elements of output `name` of k's last run that
 * differ from what the reference interpreter of program `pla` computes
 * from k's parameters and inputs; prints the first few. */
static inline size_t example_check(const tcpa_rt_kernel *k, const char *pla, const char *name) {
  size_t n, bad = 0;
  int32_t *got = example_values(k, name, 0, 0, &n), *want = example_values(k, name, 0, 0, &n);
  example_try(tcpa_rt_read(k, name, got, n), name);
  example_try(tcpa_rt_reference(k, pla, name, want, n), "the reference interpreter");
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i] && bad++ < 5)
      fprintf(stderr, "%s.%s[%zu]: %d, the reference %d\n", tcpa_rt_kernel_name(k), name, i, got[i], want[i]);
  free(got);
  free(want);
  return bad;
}

#endif
