/*
 * interp.h: the reference interpreter. It evaluates a program's equations
 * directly, for concrete parameter values and input arrays: the program's
 * own meaning, against which every other engine (the C model, the RTL) is
 * checked. It shares no code with them.
 *
 * Iterations are visited in lexicographic order (the language guarantees
 * that dependences are lexicographically non-negative); inside one
 * iteration the equations run in a topological order of their offset-zero
 * dependences. Internal variables live in dense arrays over the bounding
 * box of the iteration space, each with a bitmap of the instances defined.
 * A run fails, with a message naming the equation and the iteration, on a
 * read of an instance no equation defined, an index outside an array's
 * extents, an instance or output element defined twice, or an output
 * element never written.
 */
#ifndef TCPA_INTERP_H
#define TCPA_INTERP_H

#include <stddef.h>
#include <stdint.h>

#include "ast.h"

/* The values of one input or output array, row-major. */
typedef struct {
  int ndims;                     /* 0: a scalar */
  int64_t extent[AST_MAX_DIMS];  /* for the parameter values of the run */
  size_t n;                      /* number of elements (1 for a scalar) */
  int32_t *data;
} interp_array;

/* What a run measured. */
typedef struct {
  uint64_t instances;  /* equation instances evaluated */
  uint64_t iterations; /* points of the iteration space visited */
  double seconds;      /* wall time of the evaluation itself */
} interp_stats;

/* Returns 0 after setting the shape of every array of `p` (arrays[0 ..
 * p->narrays-1]) for the parameter values and allocating its data, zeroed;
 * returns -1 after printing an error (an extent that is negative or too
 * large). On error nothing is left allocated. */
int interp_arrays_init(const ast_program *p, const int64_t *params,
                       interp_array *arrays);

/* Frees the data of the arrays made by interp_arrays_init. */
void interp_arrays_free(const ast_program *p, interp_array *arrays);

/* Returns the index in r (row-major over its extents) of element `lin`
 * of an array of the same rank laid out row-major over other extents,
 * box[0..nd) (an extent below 1 counts as 1): how an engine's order (the
 * instantiation's bounding box of the accesses) maps onto the
 * interpreter's; -1 when the element lies outside r's extents or the
 * ranks differ. */
int64_t interp_array_index_of(const interp_array *r, int nd, const int64_t *box, int64_t lin);

/* Returns 0 after evaluating `p` for the parameter values: the input arrays
 * of `arrays` are read, its output arrays written. Returns -1 after
 * printing a runtime violation through diag.h. `stats` may be NULL. */
int interp_program_run(const ast_program *p, const int64_t *params,
                       interp_array *arrays, interp_stats *stats);

/* Returns the result of one operation of the language on 32-bit operands
 * (docs/language.md): wrapping arithmetic, division by zero defined, shift
 * amounts taken modulo 32. Unused operands are ignored. */
int32_t interp_op_apply(ast_op op, int32_t a, int32_t b, int32_t c);

#endif
