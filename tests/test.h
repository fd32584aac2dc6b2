/*
 * test.h: the smallest test harness that does the job. Each check prints
 * `ok N - NAME` or `not ok N - NAME` (TAP); tests/run.sh counts these lines
 * across all test programs and prints the closing `N passed, N failed`.
 * A test program returns test_done(), which prints the TAP plan `1..N`:
 * 0 when every check passed.
 */
#ifndef TCPA_TEST_H
#define TCPA_TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_n, test_failed;

/* Records one check; prints its verdict and, on failure, the place. */
#define TEST_CHECK(cond, ...) \
  test_record(!!(cond), __FILE__, __LINE__, #cond, __VA_ARGS__)

/* Returns `ok`; prints the TAP line for a check named by fmt. */
static inline int test_record(int ok, const char *file, int line,
                              const char *expr, const char *fmt, ...) {
  va_list ap;
  test_n++;
  printf("%s %d - ", ok ? "ok" : "not ok", test_n);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
  if (!ok) {
    test_failed++;
    printf("#   failed at %s:%d: %s\n", file, line, expr);
  }
  fflush(stdout);
  return ok;
}

/* Returns 1 in the full tier (TCPA_TIER=full: make test-full) and the
 * nightly one (make nightly), 0 in the fast one (make test): a program
 * runs its long parts only in the full tier, and says in a `#` line what
 * the fast tier leaves to it (docs/testing.md "The fast tier"). */
static inline int test_full_tier(void) {
  const char *t = getenv("TCPA_TIER");
  return t && (!strcmp(t, "full") || !strcmp(t, "nightly"));
}

/* Prints the TAP plan (`1..N`, after the checks, so that `prove` knows
 * the program ran to its end) and returns the exit status of the test
 * program: 0 if every check passed. */
static inline int test_done(void) {
  printf("1..%d\n", test_n);
  fflush(stdout);
  return test_failed ? 1 : 0;
}

#endif
