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

/* One run's state (explore.c): what every batch of points is evaluated
 * with. The entries are prepared (prog) on the first batch that has a
 * point the cache lacks. */
typedef struct {
  const explore_opts *o;
  const explore_space *s;
  const explore_workload *w;
  arch_config base;
  char cachedir[2100];
  explore_prog prog[EXPLORE_MAX_ENTRIES];
  int prepared;
  size_t ncached, nevaluated;  /* rows read from the cache, rows evaluated */
} explore_ctx;

/* Returns 0 after making the configurations of rows [from, t->n) of t
 * (their points: t->idx), reading each from the cache or evaluating it,
 * and filling their results and area (explore.c); -1 after an error. */
int explore_rows_eval(explore_ctx *c, explore_table *t, size_t from);

/* Returns the most rows explore_search can evaluate on space s: the top
 * point, and each of the keys one step down on each step of the descent. */
size_t explore_search_rows(const explore_space *s);

/* Returns 0 after the descent of docs/explore.md "Search": t gets every
 * point it evaluated (explore_search.c); -1 after an error. */
int explore_search(explore_ctx *c, explore_table *t);

/* Returns 0 after preparing every entry of w into prog[0..w->n); -1 after
 * printing why (the workload's file:line). */
int explore_prog_prepare(const explore_workload *w, explore_prog *prog);

/* Frees what explore_prog_prepare made. */
void explore_prog_free(const explore_workload *w, explore_prog *prog);

/* Returns 0 after evaluating the points todo[0..ntodo) (indices into
 * cfgs; number[i] is cfgs[i]'s point number for the progress lines) by
 * o->jobs worker processes, each point's results written to
 * cachedir/<fingerprint>.tsv; -1 when a worker failed. */
int explore_points_eval(const explore_opts *o, const explore_workload *w, const explore_prog *prog,
                        const arch_config *cfgs, const size_t *number, const size_t *todo, size_t ntodo,
                        const char *cachedir);

#endif
