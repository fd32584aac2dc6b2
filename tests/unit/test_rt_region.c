/* covers: docs/runtime.md "Regions" */
/*
 * test_rt_region.c: the runtime's regions (runtime/rt_region.c) on the
 * default 4x4 array: a table of allocations in order, each with the
 * status, the reason as data (why, the region in the way, the resource,
 * needed and available) and, when granted, the place and controller;
 * frees in between; then open's refusals (an engine not supported yet, a
 * missing architecture file).
 */
#include "tcpa_rt.h"
#include "test.h"

/* One step: allocate (fit 0: a rectangle at row0, col0; 1: first fit),
 * or free the region of step `free_step` (>= 0). */
typedef struct {
  int fit, rows, cols, row0, col0;
  int free_step;
  tcpa_rt_status want;
  tcpa_rt_why why;
  int in_way;           /* OVERLAP: the region in the way */
  const char *resource;
  long long needed, available;
  int got_row0, got_col0, got_gc; /* granted: where */
} step;

static const step steps[] = {
    /* 0 */ {0, 2, 2, 0, 0, -1, TCPA_RT_OK, TCPA_RT_WHY_NONE, -1, "", -1, -1, 0, 0, 0},
    /* 1 */ {0, 2, 2, 1, 1, -1, TCPA_RT_NOFIT, TCPA_RT_WHY_OVERLAP, 0, "", -1, -1, 0, 0, 0},
    /* 2 */ {0, 1, 2, 3, 3, -1, TCPA_RT_NOFIT, TCPA_RT_WHY_OUTSIDE, -1, "array.cols", 5, 4, 0, 0, 0},
    /* 3 */ {0, 5, 1, 0, 3, -1, TCPA_RT_NOFIT, TCPA_RT_WHY_OUTSIDE, -1, "array.rows", 5, 4, 0, 0, 0},
    /* 4 */ {0, 0, 2, 0, 2, -1, TCPA_RT_INVALID, TCPA_RT_WHY_NONE, -1, "", -1, -1, 0, 0, 0},
    /* 5 */ {0, 1, 1, -1, 2, -1, TCPA_RT_INVALID, TCPA_RT_WHY_NONE, -1, "", -1, -1, 0, 0, 0},
    /* 6 */ {1, 2, 2, 0, 0, -1, TCPA_RT_OK, TCPA_RT_WHY_NONE, -1, "", -1, -1, 0, 2, 1},
    /* 7 */ {1, 3, 1, 0, 0, -1, TCPA_RT_NOFIT, TCPA_RT_WHY_NO_ROOM, -1, "", 3, -1, 0, 0, 0},
    /* 8 */ {1, 2, 4, 0, 0, -1, TCPA_RT_OK, TCPA_RT_WHY_NONE, -1, "", -1, -1, 2, 0, 2},
    /* 9 */ {0, 1, 1, 1, 1, 0, TCPA_RT_OK, TCPA_RT_WHY_NONE, -1, "", -1, -1, 0, 0, 0}, /* frees step 0's */
    /* 10 */ {0, 1, 1, 3, 3, -1, TCPA_RT_NOFIT, TCPA_RT_WHY_OVERLAP, 2, "", -1, -1, 0, 0, 0},
    /* 11 */ {1, 1, 1, 0, 0, -1, TCPA_RT_OK, TCPA_RT_WHY_NONE, -1, "", -1, -1, 0, 0, 3},
    /* 12 */ {1, 1, 1, 0, 0, -1, TCPA_RT_NOFIT, TCPA_RT_WHY_NO_GC, -1, "gc.count", 5, 4, 0, 0, 0},
};

/* Checks the status of open's refusals. */
static void open_refusals(void) {
  tcpa_rt_array *a = (tcpa_rt_array *)1;
  TEST_CHECK(tcpa_rt_open(NULL, TCPA_RT_ENGINE_RTL, &a) == TCPA_RT_UNSUPPORTED && !a,
             "open on rtl: unsupported (%s)", tcpa_rt_message(NULL));
  TEST_CHECK(tcpa_rt_open("no/such/arch.ini", TCPA_RT_ENGINE_MODEL, &a) == TCPA_RT_FILE && !a,
             "open of a missing architecture: file (%s)", tcpa_rt_message(NULL));
  TEST_CHECK(tcpa_rt_open(NULL, TCPA_RT_ENGINE_MODEL, NULL) == TCPA_RT_INVALID, "open with no place: invalid");
  TEST_CHECK(!strcmp(tcpa_rt_status_name(TCPA_RT_TIMEOUT), "timeout") &&
                 !strcmp(tcpa_rt_status_name((tcpa_rt_status)99), "unknown"),
             "status names");
}

int main(void) {
  tcpa_rt_array *a;
  int ok = tcpa_rt_open(NULL, TCPA_RT_ENGINE_MODEL, &a) == TCPA_RT_OK;
  TEST_CHECK(ok, "open the default array on the model");
  if (!ok) return test_done();
  int rows = 0, cols = 0;
  TEST_CHECK(!tcpa_rt_array_size(a, &rows, &cols) && rows == 4 && cols == 4, "the default array is 4x4");
  tcpa_rt_region *got[sizeof steps / sizeof *steps] = {0};
  for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
    const step *s = &steps[i];
    if (s->free_step >= 0)
      TEST_CHECK(tcpa_rt_region_free(got[s->free_step]) == TCPA_RT_OK, "step %zu: free step %d's region", i,
                 s->free_step);
    tcpa_rt_status st = s->fit ? tcpa_rt_region_alloc_fit(a, s->rows, s->cols, &got[i])
                               : tcpa_rt_region_alloc(a, s->rows, s->cols, s->row0, s->col0, &got[i]);
    tcpa_rt_error e;
    tcpa_rt_last_error(a, &e);
    TEST_CHECK(st == s->want, "step %zu: %dx%d: status %s, want %s (%s)", i, s->rows, s->cols,
               tcpa_rt_status_name(st), tcpa_rt_status_name(s->want), tcpa_rt_message(a));
    TEST_CHECK(e.status == st && e.why == s->why && e.region == s->in_way && !strcmp(e.resource, s->resource) &&
                   e.needed == s->needed && e.available == s->available,
               "step %zu: the refusal's data (why %d region %d resource '%s' %lld/%lld)", i, e.why, e.region,
               e.resource, e.needed, e.available);
    TEST_CHECK((st == TCPA_RT_OK) == (tcpa_rt_message(a)[0] == '\0'), "step %zu: a message exactly on failure", i);
    if (st == TCPA_RT_OK) {
      int r0 = -1, c0 = -1, gc = -1, rr = 0, cc = 0;
      tcpa_rt_region_info(got[i], NULL, &rr, &cc, &r0, &c0, &gc);
      int want_r0 = s->fit ? s->got_row0 : s->row0, want_c0 = s->fit ? s->got_col0 : s->col0;
      TEST_CHECK(rr == s->rows && cc == s->cols && r0 == want_r0 && c0 == want_c0 && gc == s->got_gc,
                 "step %zu: granted %dx%d@%d,%d on GC %d", i, rr, cc, r0, c0, gc);
    } else {
      TEST_CHECK(got[i] == NULL, "step %zu: no region handed out", i);
    }
  }
  TEST_CHECK(tcpa_rt_region_free(NULL) == TCPA_RT_INVALID, "free of NULL: invalid");
  tcpa_rt_close(a);
  open_refusals();
  return test_done();
}
