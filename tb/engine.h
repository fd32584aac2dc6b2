/*
 * engine.h: the execution engines behind `tcpa run --engine
 * model|rtl|cosim|systemc` (docs/user-guide.md). Each takes a compiled
 * configuration (engine_config: the configuration stream, the placement of
 * every output element in the banks, what the schedule predicts; built by
 * regress/engine_flow.h from a program) and runs it:
 *
 *   engine_model_run     the stream on the C model (cmodel/model.h), the
 *                        trace watched in process;
 *   engine_rtl_run       the stream on the Verilated RTL (`tcpa-rtl`, a
 *                        subprocess; engine_rtl.c finds or builds it in
 *                        the harness cache, engine_harness.c);
 *   engine_cosim_lockstep  model and RTL together: the harness streams its
 *                        trace, the model is stepped beside it, every cycle
 *                        goes through the lockstep checker (tb/lockstep.h),
 *                        both stop at the first divergence; then the
 *                        waveforms around it (engine_cosim_waveform);
 *                        engine_cosim_check compares two trace files;
 *   engine_systemc_run   model and RTL as SystemC modules (tcpa-sc).
 *
 * The outputs an engine gathers from its banks are indexed row-major over
 * each output array's declared extents (the reference interpreter's order);
 * engine_config.out_n gives each array's element count.
 *
 * Cycles (docs/timing.md): `done_cycles` is the `cycles` field of the
 * `done` event (the done cycle + 1); `cycles` is the cycle of the last bank
 * write of an output + 1 (summary.json's `cycles`, timing.md section 7).
 */
#ifndef TCPA_ENGINE_H
#define TCPA_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arch.h"
#include "lockstep.h"
#include "model.h"

/* Status codes: the CLI exit codes. */
enum { ENGINE_OK = 0, ENGINE_MISMATCH = 1, ENGINE_ERR_INPUT = 2, ENGINE_ERR_NOFIT = 3 };

/* Where one output element lands: bank word (row, col, side, bank, addr). */
typedef struct {
  int array;        /* program array index */
  size_t index;     /* row-major index over the declared extents */
  int row, col, side, bank;
  uint32_t addr;
} engine_place;

/* The concrete configuration of one run and what the schedule predicts. */
typedef struct {
  int dim;                  /* the tiled loop dimension (2-D: the rows') */
  int axis;                 /* 0: 1xC region, 1: Rx1, 2: RxC */
  int dim2;                 /* 2-D: the columns' loop dimension; -1 in 1-D */
  int line_rows, line_cols; /* a 1-D program on an RxC region: the line of it
                               it runs on (1xC: its first row, or Rx1: its
                               first column); 0, 0 otherwise */
  int ii, resmii, recmii;
  int ii_min;               /* the smallest II the mapping was asked for (0: none) */
  int map_level;            /* the mapper's rewrite level it started from (map_build_level) */
  unsigned map_off;         /* the mapper's rewrites turned off (map_opts.off) */
  int map_pad;              /* 1: mapped with accumulations padded (map_opts.pad) */
  int map_one_pe;           /* 1: mapped for a region of one PE (map_opts.one_pe) */
  int map_attempts;         /* mappings built to get this one (engine_config_build's tries) */
  double inst_seconds;      /* elapsed seconds of instantiating this mapping
                               (as `tcpa instantiate --time`: the
                               instantiation alone, not the emission) */
  double emit_seconds;      /* elapsed seconds of emitting its stream */
  int64_t p;                /* tile size */
  int t;                    /* PEs used (<= the region's) */
  int npc;                  /* processor classes */
  int nsig;                 /* control signals */
  uint64_t fingerprint;     /* of the architecture */
  uint8_t *stream;          /* the configuration stream */
  size_t stream_len;
  char *listing;            /* inst_listing text */
  int gc_ndims;             /* the GC's loop dimensions (0: unknown) */
  int gc_order[MODEL_UNIT_DIMS]; /* the program's index (j0, j1, ... of the
                               listing) of GC dimension g, g = 0 the
                               fastest (the schedule's scan order,
                               docs/symbolic.md "Schedule") */
  engine_place *place;      /* every output element */
  size_t nplace;
  uint64_t pred_done;       /* predicted done_cycles */
  uint64_t pred_cycles;     /* predicted cycles (last output write + 1) */
  int narrays;              /* the program's arrays */
  size_t *out_n;            /* per array: its element count if an output, else 0 */
} engine_config;

/* Frees what *c owns. */
void engine_config_free(engine_config *c);

/* Where an engine writes its files (NULL: not written). */
typedef struct {
  const char *trace;        /* the trace (docs/trace.md) */
  const char *fst;          /* rtl: the waveform; model: its own FST
                               (cmodel/model_fst.h) */
  const char *work_dir;     /* rtl: a directory for the stream and bank dumps */
  const char *arch_path;    /* rtl: the --arch file (NULL: the default) */
  uint64_t max_cycles;
  int64_t fst_from, fst_to; /* rtl: dump only cycles fst_from..fst_to into
                               the FST (--fst-window); fst_to < 0: all */
  model_trace_fn tap;       /* model, cosim: every model event also goes to
                               tap(e, tap_ctx), canonical order (NULL: none) */
  void *tap_ctx;
} engine_opts;

/* What an engine run produced. */
typedef struct {
  int done;                 /* reached done within max_cycles */
  uint64_t done_cycles;     /* the done event's cycles */
  uint64_t cycles;          /* last output bank write + 1 (0: none) */
  uint64_t faults;
  char fault_text[256];     /* "underflow 2, stray 1" */
  int32_t **out;            /* per array: values (outputs only), reference order */
  unsigned char **seen;     /* per array: 1 where the layout places an element */
  int narrays;
  int gathered;             /* out and seen were read from the engine's banks
                               (engine_outputs_gather ran) */
} engine_result;

/* Frees what *r owns. */
void engine_result_free(engine_result *r);

/* Returns 1 when the fault counts of r explain a failure. */
int engine_result_faulty(const engine_result *r);

/* Returns ENGINE_OK after running c on the C model and gathering the
 * outputs (shapes of ref) into *r; ENGINE_ERR_INPUT with msg when the model
 * refuses the stream or a file cannot be written. */
int engine_model_run(const engine_config *c, const arch_config *arch, const engine_opts *o, engine_result *r, char *msg,
                     size_t msgsz);

/* The model engine's trace sink (engine_model.c): notes the done event
 * and the last bank write, writes each event to f when open, then passes
 * it on to next and to tap (NULL: nobody). */
typedef struct {
  FILE *f;
  uint64_t last_write;   /* last bank write cycle + 1 (0: none) */
  uint64_t done_cycles;
  model_trace_fn next;
  void *next_ctx;
  model_trace_fn tap;    /* engine_opts.tap: also given every event */
  void *tap_ctx;
} engine_model_sink;

/* Notes in s what the result keeps of model event e: the end of the
 * last bank write (for `cycles`) and the done event's cycles. */
static inline void engine_model_sink_note(engine_model_sink *s, const trace_event *e) {
  if (e->kind == TRACE_BANK && e->bank_write && e->cycle + 1 > s->last_write) s->last_write = e->cycle + 1;
  if (e->kind == TRACE_DONE) s->done_cycles = e->cycles;
}

/* The sink function of engine_model_sink (a model_trace_fn). */
void engine_model_event(const trace_event *e, void *ctx);

/* Fills r (done, cycles, faults, outputs from the banks through c's
 * placement) from model m and its sink s after a run. */
void engine_model_result(const model *m, const engine_model_sink *s, const engine_config *c,
                         engine_result *r);

/* Returns 0 after closing the trace f and renaming tmp over path; -1 with
 * msg (tmp removed). */
int engine_model_trace_close(FILE *f, const char *tmp, const char *path, char *msg, size_t msgsz);

/* Returns ENGINE_OK after running c on the C model for at most
 * max_cycles cycles with only its FST written to fst (cycle 0 at time t0,
 * cmodel/model_fst.h); ENGINE_ERR_INPUT with msg. */
int engine_model_fst(const engine_config *c, const arch_config *arch, const char *fst, uint64_t t0,
                     uint64_t max_cycles, char *msg, size_t msgsz);

/* A Verilated harness kind (engine_harness.c, tb/harness.mk). */
typedef struct {
  const char *name;            /* the binary, "tcpa-rtl" */
  const char *kind;            /* rtl, mutants, sc, cov: HARNESS_KIND of tb/harness.mk */
  const char *what;            /* "--engine rtl", for messages */
  const char *env;             /* the variable naming a binary instead */
  const char *const *sources;  /* its harness sources under the root; NULL-terminated */
  int links_model;             /* links BUILD/lib/libtcpa.a (part of the key) */
} engine_harness;

/* The four kinds, and the one named `kind` (NULL when none is). */
extern const engine_harness engine_harness_rtl, engine_harness_mutants, engine_harness_sc, engine_harness_cov;
const engine_harness *engine_harness_by_kind(const char *kind);

/* Where the harness of one key lives. */
typedef struct {
  uint64_t key;                /* 0 when named by $ENV */
  char dir[4200];              /* BUILD/harness/<kind>-<key> */
  char bin[4300];              /* dir/<name>, or $ENV */
  int present;                 /* the binary exists */
  int built;                   /* 1: built by this call (not found in the cache) */
  double build_seconds;        /* wall time of that build; 0 when not built */
} engine_harness_info;

/* Returns ENGINE_OK after computing where harness h of architecture arch
 * (read from arch_path, NULL: the default; for messages) lives into *info,
 * and, when build_it, building it when it is missing (a progress line on
 * stderr); otherwise ENGINE_ERR_INPUT with msg saying why. */
int engine_harness_find(const engine_harness *h, const arch_config *arch, const char *arch_path, int build_it,
                        engine_harness_info *info, char *msg, size_t msgsz);

/* Returns engine_harness_find's status with build_it set; the binary in bin. */
int engine_harness_locate(const engine_harness *h, const arch_config *arch, const char *arch_path,
                          char *bin, size_t binsz, char *msg, size_t msgsz);

/* Returns the exit status of argv run with stdout redirected to fd `out`
 * (-1: inherited) and stderr to `err` (-1: inherited); 128 + the signal
 * when killed; -1 when it cannot be started. */
int engine_harness_spawn(char *const argv[], int out, int err);

/* Writes the last non-empty line of file path into buf (empty if none). */
void engine_harness_last_line(const char *path, char *buf, size_t sz);

/* Returns ENGINE_OK after finding (or building, with a progress message on
 * stderr) the tcpa-rtl binary of architecture arch into bin; otherwise
 * ENGINE_ERR_INPUT with msg saying why. */
int engine_rtl_locate(const arch_config *arch, const char *arch_path, char *bin, size_t binsz,
                      char *msg, size_t msgsz);

/* Returns ENGINE_OK after running c on the RTL binary `bin` (o->work_dir
 * required) and gathering the outputs into *r (done, cycles and faults
 * from its trace o->trace, or, without one, from its digest stream in
 * o->work_dir: docs/trace.md "Digest stream"); ENGINE_ERR_INPUT with msg
 * when the harness fails to run or rejects the stream. */
int engine_rtl_run(const char *bin, const engine_config *c, const arch_config *arch, const engine_opts *o,
                   engine_result *r, char *msg, size_t msgsz);

/* Notes one RTL trace event in r (done, last output write, faults;
 * count: per fault kind, TRACE_FAULT_COUNT entries). */
void engine_rtl_note(engine_result *r, const trace_event *e, uint64_t *count);

/* Writes r's fault_text ("underflow 2, stray 1") from the counts. */
void engine_rtl_fault_text(engine_result *r, const uint64_t *count);

/* Returns ENGINE_OK after filling r's outputs from the harness's bank
 * dumps in directory banks; ENGINE_ERR_INPUT with msg when out of memory. */
int engine_rtl_gather(const char *banks, const engine_config *c, const arch_config *arch,
                      engine_result *r, char *msg, size_t msgsz);

/* A harness running with its trace streamed to a pipe (engine_rtl_start). */
typedef struct {
  int pid;              /* its process (and group) id; -1 once reaped */
  FILE *trace;          /* the read end of its --trace-bin (binary records) */
  char bin[4096];
  char log[4200];       /* its stdout and stderr */
  char banks[4200];     /* its --dump-banks directory */
} engine_rtl_live;

/* Returns ENGINE_OK after starting harness bin on c's stream (files in
 * o->work_dir, o->max_cycles) with its trace streamed to h->trace: its
 * events, or with digest its digest stream (docs/trace.md "Digest
 * stream"); ENGINE_ERR_INPUT with msg when it cannot be started. */
int engine_rtl_start(const char *bin, const engine_config *c, const engine_opts *o, int digest,
                     engine_rtl_live *h, char *msg, size_t msgsz);

/* Returns the harness's exit status (4: stopped early) after closing
 * h->trace and waiting for it, or with stop set, stopping it first
 * (SIGTERM to its process group); *ran (when not NULL) gets the number of
 * cycles it reported simulating when stopped, else 0. */
int engine_rtl_finish(engine_rtl_live *h, int stop, uint64_t *ran);

/* Writes the last line of the harness's log into buf. */
void engine_rtl_last_log(const engine_rtl_live *h, char *buf, size_t sz);

/* The first divergence of a cosim run, for its waveform. */
typedef struct {
  uint64_t cycle;
  int row, col;             /* the PE; -1 for the machine */
  char what[80];            /* event kind and unit, e.g. "wr FU 1 -> rd3" */
  uint64_t t0, period;      /* FST time of cycle 0 and per cycle (the RTL
                               trace's `# fst` line) */
  char unit[600];           /* the unit's signals in the FSTs, space-separated
                               full names of scopes or signals (the AG of a
                               bank, the step counter, the GC, the FIFO:
                               divergence_unit_names); "" for an FU's or a
                               register's (`what` names them) */
  lockstep_divergence rec;  /* the checker's record: kind, PE, unit and
                               difference as data, both events (what code
                               decides on: divergence_unit.h; rec.diff
                               LOCKSTEP_DIFF_NONE when not known) */
} engine_divergence;

/* Returns 0 when the traces agree, 1 on a divergence (the lockstep report
 * on `report` unless it is NULL, a one-line summary of it in line, its
 * place and record in *d), -1 with msg when a trace cannot be read or is
 * refused. */
int engine_cosim_check(const char *model_trace, const char *rtl_trace, FILE *report,
                       engine_divergence *d, char *line, size_t linesz, char *msg, size_t msgsz);

/* What a lockstep run (engine_cosim_lockstep) found. */
typedef struct {
  int diverged;
  engine_divergence div;    /* the first divergence */
  char line[512];           /* it, in one line */
  uint64_t stop_cycle;      /* the last cycle compared (the divergence's) */
  uint64_t model_cycles;    /* cycles the model ran */
  uint64_t rtl_cycles;      /* cycles the RTL simulated (the harness's own
                               count when stopped) */
  int stopped_early;        /* the harness was stopped before its end */
} engine_lockstep;

/* Returns 0 when model and RTL (harness bin, started with
 * engine_rtl_start) agree in every cycle, 1 at the first divergence (both
 * stopped there: the lockstep report on `report`, the rest in *out), -1
 * with msg when an engine fails or a trace is refused. The model is
 * stepped in process one cycle at a time while the RTL's streamed trace is
 * read; each cycle's events of both go through the lockstep checker
 * (tb/lockstep.h) before the next cycle; without trace files the two
 * sides' digests of each cycle are compared instead (docs/trace.md "Digest
 * stream"), and at the first cycle they differ the run is repeated
 * comparing events, for the report. mo->trace, ro->trace: where to
 * keep the traces (as far as they ran); ro->work_dir, ->max_cycles as for
 * engine_rtl_run. On agreement mr and rr (initialised with
 * engine_result_init) receive both results, outputs included. */
int engine_cosim_lockstep(const char *bin, const engine_config *c, const arch_config *arch,
                          const engine_opts *mo, const engine_opts *ro, engine_result *mr,
                          engine_result *rr, engine_lockstep *out, FILE *report, char *msg,
                          size_t msgsz);

/* Returns 0 after writing the GTKWave save file `gtkw` for divergence d
 * on the FST `fst` (view of `window` cycles each side, marker at d->cycle,
 * the PE's signals grouped; a line naming both files on f); -1 with msg
 * when the FST is missing or the file cannot be written. */
int engine_cosim_waveform(const char *fst, const char *gtkw, const engine_divergence *d, int window,
                          FILE *f, char *msg, size_t msgsz);

/* Returns 0 after merging DIR/rtl.fst and DIR/model.fst into
 * DIR/compare.fst with its save file DIR/compare.gtkw (docs/trace.md
 * "Model and RTL in one waveform") around divergence d (NULL: the first
 * cycle where the merged waveform's mismatch signals show a difference)
 * with `window` cycles on each side, and, for a divergence of an FU, the
 * instruction's text, operands and result on both sides written to f
 * (arch gives the latencies; NULL: the instruction of the divergence
 * cycle; when d is NULL and the two agree, a view of all of it and a note
 * on f); -1 with msg. */
int engine_cosim_compare(const char *dir, const arch_config *arch, const engine_divergence *d, int window,
                         FILE *f, char *msg, size_t msgsz);

/* Returns 0 after allocating r's output arrays (zeros, none seen) for the
 * shapes of ref; -1 when out of memory. */
int engine_result_init(engine_result *r, const engine_config *c);

/* Reads bank word (row, col, side, bank, addr) into *v; returns 0 or -1. */
typedef int (*engine_bank_fn)(void *ctx, int row, int col, int side, int bank, uint32_t addr,
                              uint32_t *v);

/* Fills r's outputs from the banks through c's placement. */
void engine_outputs_gather(const engine_config *c, engine_result *r, engine_bank_fn fn, void *ctx);

/* Returns the bank words an output gather reads, counted from address 0:
 * one more than the highest address of c's placement (1 when it places
 * nothing), what a harness's bank dump must hold (tcpa-rtl --dump-depth). */
uint32_t engine_outputs_depth(const engine_config *c);

/* Moves the outputs of `from` (out, seen, gathered) into `to`, whose own
 * are freed; `from` keeps none. */
void engine_result_outputs_move(engine_result *to, engine_result *from);

/* Which engines run. */
typedef enum {
  ENGINE_KIND_MODEL = 1, ENGINE_KIND_RTL = 2, ENGINE_KIND_COSIM = 3,
  ENGINE_KIND_SYSTEMC = 4 /* model and RTL under the SystemC kernel (engine_systemc.c) */
} engine_kind;

typedef struct {
  engine_kind kind;
  const char *out_dir;   /* keeps config.bin, config.lst, traces; NULL: none */
  const char *arch_path; /* the --arch file, NULL for the default */
  int window;            /* cosim: cycles each side of a divergence in the
                            FST and the save file (0: ENGINE_WINDOW_DEFAULT) */
  const char *fst;       /* model: its FST (default with out_dir:
                            DIR/model.fst); rtl: the RTL's (default
                            DIR/rtl.fst) */
  int argc;              /* the command line, for the reproduction bundle */
  char **argv;           /* of a failing cosim run (NULL: none) */
  const char *program_path; /* the program file (bundle) */
  uint64_t seed;         /* --seed (bundle) */
  int traces_on_failure; /* --traces on-failure: model and cosim keep no
                            trace (and the model no FST) in out_dir unless
                            the run fails, when it is run again keeping them */
  void *fcov;            /* with traces_on_failure: an fcov_set
                            (regress/fcov.h) the model's events of a run
                            that passed are counted into; NULL: none */
  int nofit_quiet;       /* a build that does not fit is not printed but
                            kept in engine_outcome.nofit_msg (the caller
                            may run it otherwise: docs/tiling.md) */
} engine_run_opts;

#define ENGINE_WINDOW_DEFAULT 20
/* The translate filter file beside divergence.gtkw: the FUs' instruction
 * words disassembled (docs/trace.md "Waveform at the divergence"). */
#define ENGINE_INSN_FILTER "divergence-insn.txt"

/* Everything one run found, for the summary. */
typedef struct {
  engine_config c;
  int built;                /* c is valid */
  engine_result model, rtl;
  int ran_model, ran_rtl;
  int diverged;
  char divergence[512];     /* cosim: the first divergence, one line */
  size_t mismatches;        /* differing output elements (first engine) */
  int lockstep_ran;         /* cosim: the lockstep run happened; */
  engine_lockstep lockstep; /* where it stopped, cycles each engine ran */
  double build_cpu;         /* CPU seconds of the build (compile, instantiate) */
  double run_cpu, run_wall; /* of the engines' run (the harness's CPU
                               included, not its build); its elapsed seconds */
  int harness_built;        /* 1: the RTL harness was built for this run */
  double harness_wall;      /* elapsed seconds of that build (0: cached) */
  char nofit_msg[1400];     /* engine_run_opts.nofit_quiet: the refusal's
                               sentence, not printed ("" none) */
} engine_outcome;

/* Returns the status after running the configuration out->c on the
 * SystemC engine (engine_systemc.c: tcpa-sc, the model and the Verilated
 * RTL as SystemC modules compared cycle by cycle) with the temporary
 * directory work; fills out->model and out->rtl (outputs only when the
 * traces agree), out->diverged and out->divergence. A divergence is
 * printed (stderr, DIR/divergence.txt) and is ENGINE_MISMATCH; checking
 * the results against the reference is left to the caller. */
int engine_systemc_run(const arch_config *arch, const engine_run_opts *o, const char *work, engine_outcome *out);

/* Frees what *out owns. */
void engine_outcome_free(engine_outcome *out);

#endif
