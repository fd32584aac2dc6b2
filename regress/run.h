/*
 * run.h: `tcpa run` as a library (docs/user-guide.md): the request (the
 * options, read by cli_run.c) and run_program_file, which runs it: parse
 * and check the program, bind the parameters, make the inputs, run the
 * reference interpreter and the engines, write --out-dir and print the
 * summary.
 *
 * Between the two files that implement it:
 *   run.c      the steps, from the request to the verdict;
 *   run_out.c  what a run leaves: --out-dir (inputs, outputs, diff.txt,
 *              summary.json) and the summary on stdout;
 *   run_tile.c a problem too large for its region run in chunks by the
 *              host runtime (docs/tiling.md).
 */
#ifndef TCPA_RUN_H
#define TCPA_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "ast.h"
#include "engine.h"
#include "fcov.h"
#include "inst.h"
#include "interp.h"
#include "json.h"
#include "map.h"

#define RUN_MAX_OPTS 64   /* --param and --in options each */

typedef enum { RUN_ENGINE_REF, RUN_ENGINE_MODEL, RUN_ENGINE_RTL, RUN_ENGINE_COSIM, RUN_ENGINE_SYSTEMC } run_engine;

/* The names of the engines (--engine), by run_engine. */
extern const char *const run_engine_names[5];

/* A NAME=VALUE option as given. */
typedef struct {
  const char *opt; /* the whole argument, for messages */
  char *name;
  char *value;
} run_pair;

/* The request: the command line of `tcpa run`, read (cli_run.c). */
typedef struct {
  const char *program;
  const char *arch;
  run_pair param[RUN_MAX_OPTS];
  int nparam;
  run_pair in[RUN_MAX_OPTS];
  int nin;
  int pes_r, pes_c;
  const char *map; /* as given, checked against the program later */
  run_engine engine;
  uint64_t seed;
  int inputs_edge; /* --inputs edge: random inputs biased to zero and the extremes */
  const char *out_dir;
  int window; /* --window: cycles each side of a cosim divergence (0: default) */
  const char *fst; /* --fst: the waveform (model: its own FST; rtl: the RTL's) */
  int argc;        /* the command line, for a reproduction bundle */
  char **argv;
  int help;
  inst_opts inst; /* --no-fifo-check, --share-all, --prolog-nops */
  map_opts mopts; /* --disable */
  int traces_on_failure; /* --traces on-failure (engine_run_opts) */
  int profile;           /* --profile: the run's profile from its trace (docs/profile.md) */
} run_opts;

/* Returns 0 and sets *v to the decimal (or 0x) integer `s` if it lies in
 * [lo, hi]; -1 otherwise (no octal: a leading 0 is refused). */
int run_int_parse(const char *s, int64_t lo, int64_t hi, int64_t *v);

/* Returns the exit status of `tcpa run` for request o (docs/user-guide.md):
 * 0 pass, 1 mismatch, 2 invalid input, 3 does not fit (ENGINE_* values);
 * every error is printed on stderr. */
int run_program_file(const run_opts *o);

/* One program of a run made ready for the engines (run_prepare): parsed
 * and checked, parameters bound, inputs made, the reference run, the
 * configuration built (stream, output placement, prediction). */
typedef struct {
  ast_program *p;
  arch_config cfg;
  int64_t params[AST_MAX_PARAMS];
  interp_array *arrays; /* inputs, then the reference's outputs */
  const char **from;    /* per array: its --in file, or NULL (random) */
  engine_config c;
  int have_c;
} run_prep;

/* Returns ENGINE_OK after preparing request o into *rp (the steps of
 * `tcpa run` before any engine; engine RUN_ENGINE_REF: no configuration
 * built); else the exit status after printing why. run_prep_free in
 * every case. */
int run_prepare(const run_opts *o, run_prep *rp);

/* Frees what *rp owns. */
void run_prep_free(run_prep *rp);

/* Returns the exit status of a job file (several programs, each on its
 * region, docs/user-guide.md "Jobs"): o->program is the job, o->engine
 * and o->out_dir as for one program (regress/job.c). */
int run_job_file(const run_opts *o);

/* Returns 1 when `path` names a job file (ends in .ini). */
int run_is_job(const char *path);

/* ---- between run.c and run_out.c ---- */

#define RUN_UNPLACED INT32_MIN
#define RUN_DIFF_SHOW 20 /* differing elements listed in diff.txt */

/* What --out-dir received of the outputs (summary.json's `outputs`). */
typedef struct {
  const char *engine; /* whose values DIR/NAME.txt hold: "ref", "model" or
                         "rtl"; NULL: none written (no outputs gathered) */
  int ref_written;    /* DIR/ref/NAME.txt */
  size_t total;       /* output elements */
  size_t differing;   /* of DIR/NAME.txt from the reference */
  size_t unplaced;    /* elements no PE writes (written as RUN_UNPLACED) */
  const char *diff;   /* the diff file's name in DIR; NULL: not written */
} run_outputs;

/* What one run produced, for the summary. */
typedef struct {
  const char *status; /* "pass" or "fail" */
  interp_stats stats;
  const char **from;  /* per array: the --in file, or NULL (random) */
  const engine_outcome *eo; /* model, rtl, cosim: what the engines found */
  int ref_ok;         /* the reference interpreter completed: its outputs hold */
  run_outputs outs;   /* what --out-dir received (run_outputs_write) */
  const fcov_set *fcov; /* --traces on-failure: the model's events counted
                           (NULL, or no run in it: none; fcov.json then comes
                           from a trace in --out-dir) */
} run_result;

/* Returns 0 after creating directory `dir` (and its parents) if missing;
 * -1 after an error. */
int run_mkdir_p(const char *dir);

/* Returns 0 after writing --out-dir: inputs, outputs (noted in
 * res->outs), then summary.json; -1 after an error. */
int run_out_dir_write(const ast_program *p, const run_opts *o, const int64_t *params,
                      const interp_array *arrays, run_result *res);

/* Returns 0 after writing --out-dir's summary.json of a run that does not
 * fit: the run's identity, status "nofit", the record fit (every resource
 * that ran out, fit.h) and its message; -1 after an error. */
int run_out_nofit_write(const ast_program *p, const run_opts *o, const int64_t *params, const fit_record *fit);

/* Returns 0 after writing every array of p of the given kind to
 * DIR/SUB/NAME.txt (sub NULL: DIR/NAME.txt; the folder made when
 * missing); -1 after an error. */
int run_out_arrays_write(const ast_program *p, const interp_array *arrays, ast_array_kind kind, const char *dir,
                         const char *sub);

/* Returns 0 after writing --out-dir's summary.json: the run's identity,
 * status, the architecture, then what body writes (ctx its data); -1
 * after an error. */
int run_out_json_write(const ast_program *p, const run_opts *o, const int64_t *params, const char *status,
                       void (*body)(json_writer *w, const void *ctx), const void *ctx);

/* Returns the exit status of request o's program p run in chunks by the
 * host runtime (docs/tiling.md; run_tile.c), after the engine's build
 * was refused for want of a resource chunks need less of (why: that
 * refusal's text): params bound, tiled dimension dim (run.c's), arrays
 * the inputs and the reference's outputs on the whole problem. 3 with
 * each loop's reason when no loop may be cut; 2 for an engine other than
 * the model. */
int run_tiled(const ast_program *p, const run_opts *o, const arch_config *cfg, const int64_t *params, int dim,
              interp_array *arrays, const char *why);

/* Prints the human summary of a run on stdout. */
void run_summary_print(const ast_program *p, const run_opts *o, const int64_t *params, const run_result *res);

#endif
