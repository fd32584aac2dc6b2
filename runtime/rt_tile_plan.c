/*
 * rt_tile_plan.c: the chunk sizes of a tiled run (docs/tiling.md "Chunk
 * sizes"). Whether a chunk fits its region is what the instantiator says
 * (tcpa_rt_instantiate: the banks' words, the fds' depths, every resource
 * docs/instantiate.md checks), so the plan asks it: start from the whole
 * problem, and while the instantiation is refused for want of room, halve
 * (rounding up) the largest chunk among the loops the rule lets be cut
 * and that share no array index with a loop already cut; a loop whose
 * halved size leaves the program's parameter domain keeps its last size.
 * It ends when one chunk fits or when no loop can be halved any more (the
 * last refusal stays in tcpa_rt_last_error). Then each cut loop's chunks
 * are made as few as fit, by bisection on their number (rt_plan_grow).
 */
#include <stdio.h>
#include <string.h>

#include "rt_tile.h"

/* Returns the status of instantiating k on reg with params, each cut
 * loop's parameter set to its chunk size. */
static tcpa_rt_status rt_plan_try(tcpa_rt_kernel *k, tcpa_rt_region *reg, const ast_program *p, const rt_tile_rule *r,
                                  const int64_t *params, const rt_tile_plan *pl) {
  int64_t q[AST_MAX_PARAMS];
  memcpy(q, params, sizeof q);
  for (int d = 0; d < pl->ndims; d++)
    if (r->loop[d].kind != RT_TILE_FIXED && pl->chunk[d] < pl->extent[d]) q[r->loop[d].param] = pl->chunk[d];
  for (int i = 0; i < p->nparams; i++) {
    tcpa_rt_status s = tcpa_rt_param_set(k, p->param[i], q[i]);
    if (s) return s;
  }
  return tcpa_rt_instantiate(k, reg);
}

/* Returns the loop to halve next (-1: none): cuttable, not stuck, a
 * chunk above 1, sharing no index with another cut loop; the largest. */
static int rt_plan_pick(const rt_tile_rule *r, const rt_tile_plan *pl, unsigned stuck) {
  unsigned cut = 0;
  for (int d = 0; d < pl->ndims; d++)
    if (pl->chunk[d] < pl->extent[d]) cut |= 1u << d;
  int best = -1;
  for (int d = 0; d < pl->ndims; d++) {
    const rt_tile_loop *l = &r->loop[d];
    if (l->kind == RT_TILE_FIXED || (stuck >> d & 1) || pl->chunk[d] <= 1) continue;
    unsigned others = cut & ~(1u << d);
    int clash = (l->share & others) != 0;
    for (int e = 0; e < pl->ndims; e++)
      if ((others >> e & 1) && (r->loop[e].share >> d & 1)) clash = 1;
    if (!clash && (best < 0 || pl->chunk[d] > pl->chunk[best])) best = d;
  }
  return best;
}

/* Returns the number of chunks of pl. */
static long long rt_plan_count(const rt_tile_plan *pl) {
  long long n = 1;
  for (int d = 0; d < pl->ndims; d++) n *= (pl->extent[d] + pl->chunk[d] - 1) / pl->chunk[d];
  return n;
}

/* Makes each cut loop's chunks as few as fit, the others' sizes kept:
 * the least number of chunks n whose size ceil(extent / n) instantiates,
 * by bisection between one chunk and the number the halving left (the
 * halving may have gone past what the loop alone needed while another
 * loop's size was the one that did not fit). */
static void rt_plan_grow(tcpa_rt_kernel *k, tcpa_rt_region *reg, const ast_program *p, const rt_tile_rule *r,
                         const int64_t *params, rt_tile_plan *pl) {
  for (int d = 0; d < pl->ndims; d++) {
    if (pl->chunk[d] >= pl->extent[d]) continue;
    int64_t E = pl->extent[d], hi = (E + pl->chunk[d] - 1) / pl->chunk[d], lo = 1; /* hi fits, fewer than lo not */
    int64_t fit = pl->chunk[d];
    while (lo < hi) {
      int64_t n = lo + (hi - lo) / 2;
      pl->chunk[d] = (E + n - 1) / n;
      tcpa_rt_status s = rt_plan_try(k, reg, p, r, params, pl);
      pl->tries++;
      if (s == TCPA_RT_OK) hi = n, fit = pl->chunk[d];
      else lo = n + 1;
    }
    pl->chunk[d] = fit;
  }
}

tcpa_rt_status rt_tile_plan_make(tcpa_rt_kernel *k, tcpa_rt_region *reg, const ast_program *p,
                                 const rt_tile_rule *r, const int64_t *params, rt_tile_plan *pl) {
  memset(pl, 0, sizeof *pl);
  pl->ndims = p->ndims;
  for (int d = 0; d < p->ndims; d++) {
    int P = r->loop[d].param;
    pl->extent[d] = r->loop[d].kind != RT_TILE_FIXED && P >= 0 ? params[P] : 1;
    pl->chunk[d] = pl->extent[d];
  }
  unsigned stuck = 0;
  int last = -1;
  int64_t prev = 0;
  for (;;) {
    tcpa_rt_status s = rt_plan_try(k, reg, p, r, params, pl);
    pl->tries++;
    if (s == TCPA_RT_OK) break;
    if (s == TCPA_RT_INVALID && last >= 0) { /* outside the parameter domain: keep the last size */
      pl->chunk[last] = prev;
      stuck |= 1u << last;
    } else if (s != TCPA_RT_NOFIT) {
      return s;
    }
    int d = rt_plan_pick(r, pl, stuck);
    if (d < 0) {
      if (s == TCPA_RT_NOFIT) return s;
      s = rt_plan_try(k, reg, p, r, params, pl); /* the last that fitted the domain: its refusal */
      return s ? s : TCPA_RT_INTERNAL;
    }
    last = d;
    prev = pl->chunk[d];
    pl->chunk[d] = (pl->chunk[d] + 1) / 2;
  }
  rt_plan_grow(k, reg, p, r, params, pl);
  pl->nchunks = rt_plan_count(pl);
  return TCPA_RT_OK;
}
