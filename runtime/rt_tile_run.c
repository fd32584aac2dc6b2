/*
 * rt_tile_run.c: the chunks of a tiled run, through the runtime's calls
 * (tcpa_rt.h; docs/tiling.md "Running the chunks"). Chunks are taken in
 * row-major order of their positions along the cut loops. For each one:
 * the cut loops' parameters set to the chunk's sizes (an instantiation
 * only when they differ from the last chunk's: a last, shorter chunk),
 * each input's sub-array written (the chunk's array shape, each index
 * shifted by the chunk's start along the loop it follows: the windows of
 * neighbour reads overlap), the kernel started and waited for, and each
 * output read into the whole result: copied into its window, or, where
 * the output ends an accumulation along a cut loop, combined by the
 * accumulation's operation (wrapping, as the program's int32 operations)
 * with the earlier chunks' results. An accumulation from an initial value
 * (an input read with the output's index) is carried instead: a chunk
 * past the first along the loop reads that input from the whole output,
 * where the previous chunk left its result (row-major order runs it
 * first).
 */
#include <stdlib.h>
#include <string.h>

#include "rt_tile.h"

/* Returns the operation by which output a of the chunk at pos combines
 * into the whole (a chunk past the first along a cut loop that reduces
 * it), or AST_OP_MOV: assigned. */
static ast_op rt_run_combine_op(const rt_tile_rule *r, const rt_tile_plan *pl, int a, const int64_t *pos) {
  for (int d = 0; d < pl->ndims; d++)
    if (pl->chunk[d] < pl->extent[d] && pos[d] > 0 && r->out[d][a] == RT_TILE_OUT_REDUCE) return r->op[d][a];
  return AST_OP_MOV;
}

/* Returns the whole array input a of the chunk at pos is taken from: the
 * output whose initial value it is, once a chunk along the carrying loop
 * has run (its result is the next one's initial value), else a itself. */
static int rt_run_source(const rt_tile_rule *r, const rt_tile_plan *pl, int a, const int64_t *pos) {
  for (int d = 0; d < pl->ndims; d++)
    if (pl->chunk[d] < pl->extent[d] && pos[d] > 0)
      for (int o = 0; o < r->narrays && o < 16; o++)
        if (r->out[d][o] == RT_TILE_OUT_CARRY && r->carry[d][o] == a) return o;
  return a;
}

/* Returns x op y on int32, wrapping as the program's operations do. */
static int32_t rt_run_combine(ast_op op, int32_t x, int32_t y) {
  uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
  switch (op) {
  case AST_OP_ADD: return (int32_t)(ux + uy);
  case AST_OP_MUL: return (int32_t)(ux * uy);
  case AST_OP_MIN: return x < y ? x : y;
  case AST_OP_MAX: return x > y ? x : y;
  case AST_OP_AND: return (int32_t)(ux & uy);
  case AST_OP_OR: return (int32_t)(ux | uy);
  case AST_OP_XOR: return (int32_t)(ux ^ uy);
  default: return y;
  }
}

/* Returns the offset of index dimension x of array a in the chunk that
 * starts at c0: the start along the cut loop it follows, else 0. */
static int64_t rt_run_offset(const rt_tile_rule *r, const rt_tile_plan *pl, int a, int x, const int64_t *c0) {
  for (int d = 0; d < pl->ndims; d++)
    if (pl->chunk[d] < pl->extent[d] && (r->dim_mask[a][x] >> d & 1)) return c0[d];
  return 0;
}

/* Copies between chunk array buf (shape s) and whole array w of array a:
 * to_chunk 1 fills buf (0 outside w), else writes buf into w (combined
 * by op, AST_OP_MOV: assigned). */
static void rt_run_copy(const rt_tile_rule *r, const rt_tile_plan *pl, int a, const int64_t *c0,
                        const tcpa_rt_array_shape *s, int32_t *buf, interp_array *w, int to_chunk, ast_op op) {
  int64_t off[AST_MAX_DIMS], e[AST_MAX_DIMS] = {0};
  int nd = s->ndims < w->ndims ? s->ndims : w->ndims;
  for (int x = 0; x < nd; x++) off[x] = rt_run_offset(r, pl, a, x, c0);
  for (size_t n = 0; n < s->count; n++) {
    size_t at = 0;
    int inside = 1;
    for (int x = 0; x < nd; x++) {
      int64_t g = e[x] + off[x];
      if (g < 0 || g >= w->extent[x]) inside = 0;
      at = at * (size_t)w->extent[x] + (size_t)(inside ? g : 0);
    }
    if (to_chunk) buf[n] = inside ? w->data[at] : 0;
    else if (inside) w->data[at] = rt_run_combine(op, w->data[at], buf[n]);
    for (int x = nd - 1; x >= 0; x--) { /* the next element, row-major */
      if (++e[x] < s->extent[x]) break;
      e[x] = 0;
    }
  }
}

/* Returns the status of moving every array of k between the chunk at c0
 * and the whole arrays: the inputs written (outputs 0) or the outputs
 * read and gathered (outputs 1). */
static tcpa_rt_status rt_run_arrays(tcpa_rt_kernel *k, const ast_program *p, const rt_tile_rule *r,
                                    const rt_tile_plan *pl, const int64_t *c0, const int64_t *pos,
                                    interp_array *arrays, int outputs) {
  for (int a = 0; a < p->narrays; a++) {
    if ((p->arrays[a].kind == AST_ARRAY_OUT) != outputs) continue;
    tcpa_rt_array_shape s;
    tcpa_rt_status st = tcpa_rt_array_info(k, p->arrays[a].name, &s);
    if (st) return st;
    int32_t *buf = calloc(s.count + 1, sizeof *buf);
    if (!buf) return TCPA_RT_INTERNAL;
    if (!outputs) {
      rt_run_copy(r, pl, a, c0, &s, buf, &arrays[rt_run_source(r, pl, a, pos)], 1, AST_OP_MOV);
      st = tcpa_rt_write(k, p->arrays[a].name, buf, s.count);
    } else if (!(st = tcpa_rt_read(k, p->arrays[a].name, buf, s.count))) {
      rt_run_copy(r, pl, a, c0, &s, buf, &arrays[a], 0, rt_run_combine_op(r, pl, a, pos));
    }
    free(buf);
    if (st) return st;
  }
  return TCPA_RT_OK;
}

/* Returns the status of (re)instantiating k when q differs from *cur
 * (then *cur = q and one more instantiation counted). */
static tcpa_rt_status rt_run_params(tcpa_rt_kernel *k, tcpa_rt_region *reg, const ast_program *p, const int64_t *q,
                                    int64_t *cur, rt_tile_stats *st) {
  if (!memcmp(q, cur, sizeof(int64_t) * AST_MAX_PARAMS)) return TCPA_RT_OK;
  for (int i = 0; i < p->nparams; i++) {
    tcpa_rt_status s = tcpa_rt_param_set(k, p->param[i], q[i]);
    if (s) return s;
  }
  memcpy(cur, q, sizeof(int64_t) * AST_MAX_PARAMS);
  st->instantiations++;
  return tcpa_rt_instantiate(k, reg);
}

tcpa_rt_status rt_tile_run(tcpa_rt_kernel *k, tcpa_rt_region *reg, const ast_program *p, const rt_tile_rule *r,
                           const int64_t *params, const rt_tile_plan *pl, interp_array *arrays, rt_tile_stats *st) {
  memset(st, 0, sizeof *st);
  int64_t cur[AST_MAX_PARAMS], pos[AST_MAX_DIMS] = {0};
  for (int i = 0; i < AST_MAX_PARAMS; i++) cur[i] = -1; /* none yet: the first chunk instantiates */
  for (;;) {
    int64_t c0[AST_MAX_DIMS] = {0}, q[AST_MAX_PARAMS];
    memcpy(q, params, sizeof q);
    for (int d = 0; d < pl->ndims; d++)
      if (pl->chunk[d] < pl->extent[d]) {
        c0[d] = pos[d] * pl->chunk[d];
        int64_t left = pl->extent[d] - c0[d];
        q[r->loop[d].param] = left < pl->chunk[d] ? left : pl->chunk[d];
      }
    unsigned long long cycles = 0;
    tcpa_rt_status s = rt_run_params(k, reg, p, q, cur, st);
    if (!s) s = rt_run_arrays(k, p, r, pl, c0, pos, arrays, 0);
    if (!s) s = tcpa_rt_start(k);
    if (!s) s = tcpa_rt_wait(k, 0, &cycles);
    if (!s) s = rt_run_arrays(k, p, r, pl, c0, pos, arrays, 1);
    if (s) return s;
    st->chunks++;
    st->cycles += cycles;
    if (cycles > st->max_cycles) st->max_cycles = cycles;
    int d = pl->ndims - 1; /* the next chunk, row-major over the cut loops */
    for (; d >= 0; d--) {
      if (pl->chunk[d] < pl->extent[d] && ++pos[d] * pl->chunk[d] < pl->extent[d]) break;
      pos[d] = 0;
    }
    if (d < 0) return TCPA_RT_OK;
  }
}
