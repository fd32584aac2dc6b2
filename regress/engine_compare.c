/*
 * engine_compare.c: the outputs an engine gathered (tb/engine.h,
 * engine_result) compared element by element with the reference
 * interpreter's values; the first differences printed with their indices.
 */
#include <stdio.h>

#include "engine_flow.h"

/* Writes the index `i` of array `a` of ref as [i0][i1]... to f. */
static void engine_index_print(FILE *f, const interp_array *a, size_t i) {
  int64_t e[AST_MAX_DIMS];
  for (int r = a->ndims - 1; r >= 0; r--) {
    e[r] = (int64_t)(i % (size_t)a->extent[r]);
    i /= (size_t)a->extent[r];
  }
  for (int r = 0; r < a->ndims; r++) fprintf(f, "[%lld]", (long long)e[r]);
}

size_t engine_outputs_compare(const ast_program *p, const interp_array *ref, const engine_result *r,
                              FILE *f, int show) {
  size_t bad = 0;
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind != AST_ARRAY_OUT) continue;
    for (size_t i = 0; i < ref[a].n; i++) {
      int same = r->seen[a][i] && r->out[a][i] == ref[a].data[i];
      if (same) continue;
      if ((int)bad < show) {
        fprintf(f, "  %s", p->arrays[a].name);
        engine_index_print(f, &ref[a], i);
        fprintf(f, " (element %zu): expected %d, got ", i, (int)ref[a].data[i]);
        if (r->seen[a][i]) fprintf(f, "%d\n", (int)r->out[a][i]);
        else fprintf(f, "nothing (no PE writes this element, or its bank was not read)\n");
      }
      bad++;
    }
  }
  return bad;
}
