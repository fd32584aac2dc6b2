/*
 * engine_flow.h: one run of a program through the whole flow, the code
 * behind `tcpa run` (docs/user-guide.md) and every run of `tcpa regress`
 * and `tcpa signoff` (docs/regress.md):
 *
 *   engine_config_build  RDG -> symbolic mapping (map_build, the code of
 *                        `tcpa compile`) -> instantiation (inst_run and
 *                        inst_emit, the code of `tcpa instantiate`) with the
 *                        run's inputs -> the configuration stream in memory,
 *                        its listing, the placement of every output element
 *                        in the banks (inst_layout) and the latencies the
 *                        schedule predicts (engine_predict.c);
 *   engine_run           the configuration on the engines of tb/engine.h;
 *   engine_outputs_compare  the gathered outputs against the reference;
 *   engine_repro_write   the reproduction bundle of a failing cosim run.
 *
 * Arrays: the reference interpreter keeps each array row-major over its
 * declared extents; the instantiation numbers elements row-major over the
 * bounding box of the accesses (docs/instantiate.md). engine_config_build
 * converts both ways, so every index an engine sees is the reference's.
 */
#ifndef TCPA_ENGINE_FLOW_H
#define TCPA_ENGINE_FLOW_H

#include "ast.h"
#include "engine.h"
#include "inst.h"
#include "interp.h"

/* The `dim` argument of engine_config_build and engine_run for an RxC
 * region: rows' dimension r, columns' dimension c in one int. A `dim`
 * below AST_MAX_DIMS on an RxC region means dimensions dim and dim + 1. */
#define ENGINE_DIMS_2D(r, c) ((r) + AST_MAX_DIMS * ((c) + 1))

/* Returns ENGINE_OK and fills *c for program p (checked) on arch with the
 * parameter values, a region rows x cols (1-D) whose tiled dimension is
 * `dim` (RxC: ENGINE_DIMS_2D; a program of one loop dimension on an RxC
 * region runs on its first row, or first column when R > C: c->line_rows
 * x c->line_cols), and the input values of `ref` (the reference's arrays); otherwise
 * ENGINE_ERR_NOFIT (what ran out in *fit, fit.h, and its message in msg) or
 * ENGINE_ERR_INPUT (msg says why). */
int engine_config_build(const ast_program *p, const arch_config *arch, const int64_t *params,
                        const interp_array *ref, int rows, int cols, int dim, const map_opts *mo,
                        const inst_opts *io, engine_config *c, fit_record *fit, char *msg, size_t msgsz);

/* Returns engine_config_build's status, the mapping its search chose in
 * *m and the RDG of p it was built from in *g (on ENGINE_OK; free with
 * map_config_free, then rdg_free): the same search again (deterministic),
 * for the reproduction bundle's .sym. */
int engine_map_rebuild(const ast_program *p, const arch_config *arch, const int64_t *params,
                       const interp_array *ref, int rows, int cols, int dim, const map_opts *mo, const inst_opts *io,
                       map_config *m, rdg **g, char *msg, size_t msgsz);

/* Computes from the instantiation x what the schedule predicts
 * (engine_predict.c, docs/user-guide.md): *done the done event's cycles,
 * *cycles the last output bank write + 1 (0 when nothing is written). */
void engine_predict(const inst *x, uint64_t *done, uint64_t *cycles);

/* Returns the number of elements of the output arrays of p where r differs
 * from ref (or has no value); prints the first `show` of them (array,
 * index, expected, got) to f. */
size_t engine_outputs_compare(const ast_program *p, const interp_array *ref, const engine_result *r,
                              FILE *f, int show);

/* Returns the ENGINE_* status of running program p (its reference outputs
 * in ref) on the engines of o, region rows x cols, tiled dimension dim,
 * mapped with the options mo (map.h, NULL: defaults) and instantiated with
 * the options io (inst.h); on ENGINE_ERR_NOFIT *fit says what ran out;
 * every failure is printed on stderr (engine_run.c). *out is filled as far
 * as the run got; free it with engine_outcome_free. */
int engine_run(const ast_program *p, const arch_config *arch, const int64_t *params, const interp_array *ref,
               int rows, int cols, int dim, const map_opts *mo, const inst_opts *io,
               const engine_run_opts *o, engine_outcome *out, fit_record *fit);

/* Removes directory dir and the files in it and in its subdirectories
 * (the engines' temporary directories). */
void engine_rmtree(const char *dir);

/* Returns 0 after writing the reproduction bundle of a failing cosim run
 * into out_dir/repro (engine_repro.c: repro.sh, command.txt, program,
 * architecture, inputs, .sym, stream, report and waveform copies) for
 * program p with parameters params on region rows x cols, configuration c
 * mapped and instantiated with mo and io as the run was, and the options o
 * (argv, seed); -1 with msg. */
int engine_repro_write(const char *out_dir, const ast_program *p, const arch_config *arch,
                       const int64_t *params, const interp_array *ref, int rows, int cols,
                       const engine_config *c, const map_opts *mo, const inst_opts *io,
                       const engine_run_opts *o, const char *divergence, char *msg, size_t msgsz);

#endif
