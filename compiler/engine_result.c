/*
 * engine_result.c: the outputs of an engine run: allocated in the shapes
 * of the reference's arrays, filled from bank words through the
 * configuration's placement of every output element, and compared element
 * by element with the reference interpreter's values. `gathered` tells
 * that the outputs were read from an engine's banks at all (a run that
 * failed to start, or a lockstep run stopped at a divergence, has none).
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

int engine_result_init(engine_result *r, const ast_program *p, const interp_array *ref) {
  memset(r, 0, sizeof *r);
  r->narrays = p->narrays;
  r->out = calloc((size_t)p->narrays + 1, sizeof *r->out);
  r->seen = calloc((size_t)p->narrays + 1, sizeof *r->seen);
  if (!r->out || !r->seen) return -1;
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind != AST_ARRAY_OUT) continue;
    r->out[a] = calloc(ref[a].n + 1, sizeof **r->out);
    r->seen[a] = calloc(ref[a].n + 1, 1);
    if (!r->out[a] || !r->seen[a]) return -1;
  }
  return 0;
}

void engine_result_free(engine_result *r) {
  for (int a = 0; a < r->narrays; a++) {
    if (r->out) free(r->out[a]);
    if (r->seen) free(r->seen[a]);
  }
  free(r->out);
  free(r->seen);
  r->out = NULL;
  r->seen = NULL;
}

int engine_result_faulty(const engine_result *r) {
  return !r->done || r->faults > 0;
}

void engine_outputs_gather(const engine_config *c, engine_result *r, engine_bank_fn fn, void *ctx) {
  for (size_t i = 0; i < c->nplace; i++) {
    const engine_place *pl = &c->place[i];
    uint32_t v = 0;
    if (!r->out[pl->array]) continue;
    if (fn(ctx, pl->row, pl->col, pl->side, pl->bank, pl->addr, &v)) continue;
    r->out[pl->array][pl->index] = (int32_t)v;
    r->seen[pl->array][pl->index] = 1;
  }
  r->gathered = 1;
}

void engine_result_outputs_move(engine_result *to, engine_result *from) {
  engine_result_free(to); /* only its output arrays */
  to->out = from->out;
  to->seen = from->seen;
  to->narrays = from->narrays;
  to->gathered = from->gathered;
  from->out = NULL;
  from->seen = NULL;
  from->narrays = 0;
  from->gathered = 0;
}

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
