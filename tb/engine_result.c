/*
 * engine_result.c: the outputs of an engine run: allocated in the sizes
 * of the configuration's output arrays (engine_config.out_n), filled from
 * bank words through its placement of every output element. `gathered` tells
 * that the outputs were read from an engine's banks at all (a run that
 * failed to start, or a lockstep run stopped at a divergence, has none).
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

int engine_result_init(engine_result *r, const engine_config *c) {
  memset(r, 0, sizeof *r);
  r->narrays = c->narrays;
  r->out = calloc((size_t)c->narrays + 1, sizeof *r->out);
  r->seen = calloc((size_t)c->narrays + 1, sizeof *r->seen);
  if (!r->out || !r->seen) return -1;
  for (int a = 0; a < c->narrays; a++) {
    if (!c->out_n || c->out_n[a] == 0) continue;
    r->out[a] = calloc(c->out_n[a] + 1, sizeof **r->out);
    r->seen[a] = calloc(c->out_n[a] + 1, 1);
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

uint32_t engine_outputs_depth(const engine_config *c) {
  uint32_t depth = 1;
  for (size_t i = 0; i < c->nplace; i++)
    if (c->place[i].addr >= depth) depth = c->place[i].addr + 1;
  return depth;
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
