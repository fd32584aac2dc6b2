/*
 * rt_region.c: regions of the host runtime (tcpa_rt.h, docs/runtime.md
 * "Regions"). A region is a rectangle of PEs driven by one global
 * controller (docs/timing.md section 11): at most STREAM_GCS at once, the
 * region's slot is its controller. A rectangle is refused when it leaves
 * the array, overlaps an allocated region (the first one in the way is
 * named) or no controller is free; the first fit scans the first PEs in
 * row-major order and takes the first rectangle that leaves the array's
 * bounds and every allocated region alone.
 */
#include <stdio.h>

#include "rt_impl.h"

/* Returns 1 when rectangles (r0, c0, rows x cols) and region g meet. */
static int rt_region_meets(const tcpa_rt_region *g, int r0, int c0, int rows, int cols) {
  return g->used && r0 < g->row0 + g->rows && g->row0 < r0 + rows && c0 < g->col0 + g->cols && g->col0 < c0 + cols;
}

/* Returns the first allocated region of a that meets the rectangle, or -1. */
static int rt_region_in_way(const tcpa_rt_array *a, int r0, int c0, int rows, int cols) {
  for (int g = 0; g < STREAM_GCS; g++)
    if (rt_region_meets(&a->region[g], r0, c0, rows, cols)) return g;
  return -1;
}

/* Returns the first free slot (global controller) of a, or -1. */
static int rt_region_free_slot(const tcpa_rt_array *a) {
  for (int g = 0; g < STREAM_GCS; g++)
    if (!a->region[g].used) return g;
  return -1;
}

/* Returns TCPA_RT_OK after checking a region's size (at least 1 x 1, NULL
 * handles refused) and that a controller is free. */
static tcpa_rt_status rt_region_precheck(tcpa_rt_array *a, int rows, int cols, tcpa_rt_region **r) {
  if (!r) return rt_array_fail(a, TCPA_RT_INVALID, "region: no place for the region (NULL)");
  *r = NULL;
  if (rows < 1 || cols < 1)
    return rt_array_fail(a, TCPA_RT_INVALID, "region %dx%d: rows and columns must be at least 1", rows, cols);
  if (rt_region_free_slot(a) < 0)
    return rt_array_refuse(a, TCPA_RT_NOFIT, TCPA_RT_WHY_NO_GC, -1, "gc.count", STREAM_GCS + 1, STREAM_GCS,
                           "region %dx%d: all %d global controllers drive a region; free one first", rows, cols,
                           STREAM_GCS);
  return TCPA_RT_OK;
}

/* Returns TCPA_RT_OK after taking the free slot for the rectangle. */
static tcpa_rt_status rt_region_take(tcpa_rt_array *a, int rows, int cols, int r0, int c0, tcpa_rt_region **r) {
  tcpa_rt_region *g = &a->region[rt_region_free_slot(a)];
  g->used = 1, g->rows = rows, g->cols = cols, g->row0 = r0, g->col0 = c0;
  *r = g;
  return rt_array_ok(a);
}

tcpa_rt_status tcpa_rt_region_alloc(tcpa_rt_array *a, int rows, int cols, int row0, int col0, tcpa_rt_region **r) {
  if (!a) return TCPA_RT_INVALID;
  tcpa_rt_status s = rt_region_precheck(a, rows, cols, r);
  if (s) return s;
  if (row0 < 0 || col0 < 0)
    return rt_array_fail(a, TCPA_RT_INVALID, "region %dx%d@%d,%d: a negative first PE", rows, cols, row0, col0);
  if (row0 + rows > a->cfg.rows || col0 + cols > a->cfg.cols) {
    int byrow = row0 + rows > a->cfg.rows;
    return rt_array_refuse(a, TCPA_RT_NOFIT, TCPA_RT_WHY_OUTSIDE, -1, byrow ? "array.rows" : "array.cols",
                           byrow ? row0 + rows : col0 + cols, byrow ? a->cfg.rows : a->cfg.cols,
                           "region %dx%d@%d,%d leaves the array of %d rows and %d columns", rows, cols, row0, col0,
                           a->cfg.rows, a->cfg.cols);
  }
  int g = rt_region_in_way(a, row0, col0, rows, cols);
  if (g >= 0) {
    const tcpa_rt_region *o = &a->region[g];
    return rt_array_refuse(a, TCPA_RT_NOFIT, TCPA_RT_WHY_OVERLAP, g, "", -1, -1,
                           "region %dx%d@%d,%d overlaps region %d (%dx%d@%d,%d)", rows, cols, row0, col0, g, o->rows,
                           o->cols, o->row0, o->col0);
  }
  return rt_region_take(a, rows, cols, row0, col0, r);
}

tcpa_rt_status tcpa_rt_region_alloc_fit(tcpa_rt_array *a, int rows, int cols, tcpa_rt_region **r) {
  if (!a) return TCPA_RT_INVALID;
  tcpa_rt_status s = rt_region_precheck(a, rows, cols, r);
  if (s) return s;
  for (int r0 = 0; r0 + rows <= a->cfg.rows; r0++)
    for (int c0 = 0; c0 + cols <= a->cfg.cols; c0++)
      if (rt_region_in_way(a, r0, c0, rows, cols) < 0) return rt_region_take(a, rows, cols, r0, c0, r);
  int n = 0;
  for (int g = 0; g < STREAM_GCS; g++) n += a->region[g].used;
  return rt_array_refuse(a, TCPA_RT_NOFIT, TCPA_RT_WHY_NO_ROOM, -1, "", (long long)rows * cols, -1,
                         "region %dx%d: no free rectangle of that size in the array of %d rows and %d columns "
                         "(%d region%s allocated)",
                         rows, cols, a->cfg.rows, a->cfg.cols, n, n == 1 ? "" : "s");
}

tcpa_rt_status tcpa_rt_region_info(const tcpa_rt_region *r, int *id, int *rows, int *cols, int *row0, int *col0,
                                   int *gc) {
  if (!r || !r->used) return TCPA_RT_INVALID;
  if (id) *id = r->id;
  if (rows) *rows = r->rows;
  if (cols) *cols = r->cols;
  if (row0) *row0 = r->row0;
  if (col0) *col0 = r->col0;
  if (gc) *gc = r->id;
  return TCPA_RT_OK;
}

tcpa_rt_status tcpa_rt_region_free(tcpa_rt_region *r) {
  if (!r || !r->used) return TCPA_RT_INVALID;
  tcpa_rt_array *a = r->a;
  for (const tcpa_rt_kernel *k = a->kernels; k; k = k->next)
    if (k->r == r)
      return rt_array_fail(a, TCPA_RT_STATE, "region %d: kernel %s is instantiated into it; free the kernel first",
                           r->id, k->m.name);
  r->used = 0;
  return rt_array_ok(a);
}
