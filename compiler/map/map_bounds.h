/*
 * map_bounds.h: lower bounds of what a program needs on a region
 * (docs/symbolic.md "Lower bounds"): per resource, the least any
 * symbolic mapping of the program on a region of that shape could need,
 * whatever the rewrites, II, registers and routes chosen, computed from
 * the reduced dependence graph alone. They go beside needed/available in
 * every no-fit record the mapping search returns (fit.h: a record whose
 * bound exceeds what the configuration has fails at its bound, the
 * architecture's shortfall) and `tcpa compile --bounds` prints them.
 */
#ifndef TCPA_MAP_BOUNDS_H
#define TCPA_MAP_BOUNDS_H

#include <stdio.h>

#include "arch.h"
#include "ast.h"
#include "fit.h"
#include "rdg.h"

#define MAP_BOUNDS_MAX 12

/* One bound: at least `bound` of the resource sized by key (configuration
 * has `have`), and why, for people. */
typedef struct {
  fit_resource res;
  char key[32];
  int64_t bound, have;
  char why[160];
} map_bound;

typedef struct {
  int n;
  map_bound b[MAP_BOUNDS_MAX];
} map_bounds;

/* Fills *b with the bounds of program p (RDG g) on architecture arch for a
 * region tiling loop dimension mapped (and mapped2 on an RxC region;
 * -1: a 1-D region), one_pe: a region of one PE (no channels). */
void map_bounds_compute(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int mapped2,
                        int one_pe, map_bounds *b);

/* Sets the bound of every item of r that b bounds (fit_record_bound). */
void map_bounds_apply(const map_bounds *b, fit_record *r);

/* Returns 1 when a bound of b exceeds what the configuration has: no
 * mapping of the program fits the region. */
int map_bounds_over(const map_bounds *b);

/* Writes b as a table for people (`tcpa compile --bounds`): one line per
 * bound, resource, key, the bound, available, why. */
void map_bounds_print(const map_bounds *b, FILE *f);

#endif
