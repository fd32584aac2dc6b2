/*
 * explore_eval.h: between explore.c and explore_eval.c (docs/explore.md
 * "How a point is evaluated"): the prepared workload entries and the
 * evaluation of the points not yet cached, by -j worker processes.
 */
#ifndef TCPA_EXPLORE_EVAL_H
#define TCPA_EXPLORE_EVAL_H

#include "ast.h"
#include "explore.h"
#include "interp.h"

/* One entry ready to run: its program parsed and checked, its parameters
 * bound, its inputs drawn and the reference's outputs computed. */
typedef struct {
  ast_program *p;
  int64_t params[AST_MAX_PARAMS];
  interp_array *arrays;
} explore_prog;

/* Returns 0 after preparing every entry of w into prog[0..w->n); -1 after
 * printing why (the workload's file:line). */
int explore_prog_prepare(const explore_workload *w, explore_prog *prog);

/* Frees what explore_prog_prepare made. */
void explore_prog_free(const explore_workload *w, explore_prog *prog);

/* Returns 0 after evaluating the points todo[0..ntodo) (indices into
 * cfgs) by o->jobs worker processes, each point's results written to
 * cachedir/<fingerprint>.tsv; -1 when a worker failed. */
int explore_points_eval(const explore_opts *o, const explore_workload *w, const explore_prog *prog,
                        const arch_config *cfgs, const size_t *todo, size_t ntodo, const char *cachedir);

#endif
