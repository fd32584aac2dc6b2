/*
 * rt_tile.h: host-tiled execution (docs/tiling.md): a problem whose
 * arrays do not fit the I/O buffers' banks is cut into chunks along the
 * loops its dependences allow, each chunk run as an instantiation of the
 * same kernel with the chunk's parameters on the same region, its input
 * sub-arrays written and its outputs read into the whole result.
 *
 *   rt_tile_rule.c  which loops may be cut (the rule of docs/tiling.md,
 *                   from the program's loop bounds, conditions, index
 *                   functions and dependences), and why the others not,
 *                   as data;
 *   rt_tile_plan.c  the chunk sizes: the loops cut, halved in turn until
 *                   an instantiation of one chunk fits its region;
 *   rt_tile_run.c   the chunks run through the runtime (tcpa_rt.h), their
 *                   outputs gathered (copied or, along an accumulation,
 *                   combined, or carried into the next chunk);
 *   rt_tile_api.c   tcpa_rt_run_tiled, the public call made of the three.
 *
 * The .sym does not keep the equations, so the rule reads the program's
 * source (ast.h), as tcpa_rt_reference does.
 */
#ifndef TCPA_RT_TILE_H
#define TCPA_RT_TILE_H

#include <stdint.h>

#include "ast.h"
#include "interp.h"
#include "tcpa_rt.h"

/* What a loop is to the rule (rt_tile_loop.kind). */
typedef enum {
  RT_TILE_FIXED = 0, /* cannot be cut: `why` says why */
  RT_TILE_FREE,      /* no value flows between its iterations (propagated
                        copies of an input re-read at a chunk's start aside) */
  RT_TILE_ACCUM      /* carries accumulations into outputs written at its
                        last iteration: chunks' outputs combined by the
                        accumulation's operation, or the partial result
                        carried into the next chunk as its initial value */
} rt_tile_kind;

/* Why a loop cannot be cut (rt_tile_loop.why). */
typedef enum {
  RT_TILE_WHY_NONE = 0,
  RT_TILE_WHY_BOUNDS,    /* its bounds are not 0 <= i < P for a parameter P */
  RT_TILE_WHY_SHARED,    /* its parameter P appears elsewhere (another loop's
                            bound, an index, a condition) */
  RT_TILE_WHY_CARRIED,   /* an equation reads a variable at another iteration
                            of the loop, neither a propagation nor an
                            accumulation */
  RT_TILE_WHY_INDEX,     /* an array index names the loop other than as
                            i + (other terms) in every access */
  RT_TILE_WHY_CONDITION, /* a condition names the loop other than at the
                            first iteration of a propagation or accumulation
                            or the last one of an output */
  RT_TILE_WHY_PARTIAL,   /* a partial result of an accumulation is read by an
                            equation other than its own and the output it
                            ends in */
  RT_TILE_WHY_OUTPUT     /* an output written without the loop in its index
                            and not from an accumulation's or propagation's
                            last value */
} rt_tile_why;

/* How one output is gathered across the chunks of a loop. */
typedef enum {
  RT_TILE_OUT_WINDOW = 0, /* its index names the loop: each chunk its window */
  RT_TILE_OUT_REDUCE,     /* the end of an accumulation: the chunks' values
                             combined by its operation (rt_tile_rule.op) */
  RT_TILE_OUT_CARRY,      /* the end of an accumulation from an initial value
                             (an input, rt_tile_rule.carry): each chunk's
                             value is the next one's initial value */
  RT_TILE_OUT_SAME        /* the end of a propagation: every chunk's the same */
} rt_tile_out;

/* The rule's verdict on one loop, as data. */
typedef struct {
  rt_tile_kind kind;
  int param;          /* the parameter P of 0 <= i < P; -1 none */
  rt_tile_why why;    /* RT_TILE_FIXED: why */
  int eq;             /* the equation of the reason (ast_program.eqs), -1 */
  int var;            /* the variable carried, -1 */
  int array;          /* the array of an index or output reason, -1 */
  unsigned share;     /* loops named with it in one array index (bit d):
                         never cut together */
} rt_tile_loop;

/* The rule on a whole program (rt_tile_rule_make). */
typedef struct {
  int ndims, narrays;
  rt_tile_loop loop[AST_MAX_DIMS];
  unsigned dim_mask[16][AST_MAX_DIMS]; /* per array and index dimension: the
                                          loops it names (bit d, coefficient 1) */
  rt_tile_out out[AST_MAX_DIMS][16]; /* per loop and output array */
  ast_op op[AST_MAX_DIMS][16];       /* REDUCE, CARRY: the accumulation's */
  int carry[AST_MAX_DIMS][16];       /* CARRY: the input array holding the
                                        initial value (same index), -1 */
} rt_tile_rule;

/* Returns the number of loops of p that may be cut after filling *r (the
 * rule of docs/tiling.md); -1 when p has more than 16 arrays. */
int rt_tile_rule_make(const ast_program *p, rt_tile_rule *r);

/* Returns buf after writing into it the sentence that says why loop d of
 * p cannot be cut (or how it is cut), printed from r's data. */
const char *rt_tile_rule_text(const ast_program *p, const rt_tile_rule *r, int d, char *buf, size_t size);

/* The chunks of a problem (rt_tile_plan_make). */
typedef struct {
  int ndims;
  int64_t extent[AST_MAX_DIMS]; /* the whole problem's, per loop */
  int64_t chunk[AST_MAX_DIMS];  /* a chunk's (= extent when not cut) */
  long long nchunks;            /* product of ceil(extent / chunk) */
  int tries;                    /* instantiations tried to find the sizes */
} rt_tile_plan;

/* Returns TCPA_RT_OK and in *pl the chunk sizes for kernel k (loaded, its
 * program p, ruled by r) at parameters params on region reg: each cut
 * loop's chunk halved in turn (the largest first, never two loops that
 * share an index) until one chunk instantiates, then each cut loop's
 * chunks made as few as fit. TCPA_RT_NOFIT when no cut fits
 * (tcpa_rt_last_error holds the last refusal), another status when
 * instantiation fails otherwise. */
tcpa_rt_status rt_tile_plan_make(tcpa_rt_kernel *k, tcpa_rt_region *reg, const ast_program *p,
                                 const rt_tile_rule *r, const int64_t *params, rt_tile_plan *pl);

/* What a tiled run measured. */
typedef struct {
  long long chunks;           /* chunks run */
  unsigned long long cycles;  /* sum of the chunks' cycles, start to done */
  unsigned long long max_cycles; /* the longest chunk's */
  int instantiations;         /* instantiations the chunks ran on (one per
                                 change of a chunk's shape) */
} rt_tile_stats;

/* Returns TCPA_RT_OK after running every chunk of plan pl of kernel k
 * (program p, rule r, whole parameters params) on region reg: each
 * chunk's inputs taken from arrays (the whole problem's, interp.h: inputs
 * filled), its outputs gathered into the output arrays of `arrays`
 * (copied into their windows, combined along an accumulation; an
 * initial value taken from the previous chunk's output). On a
 * failure the status of the failed runtime call (its message in
 * tcpa_rt_message). */
tcpa_rt_status rt_tile_run(tcpa_rt_kernel *k, tcpa_rt_region *reg, const ast_program *p, const rt_tile_rule *r,
                           const int64_t *params, const rt_tile_plan *pl, interp_array *arrays, rt_tile_stats *st);

#endif
