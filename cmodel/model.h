/*
 * model.h: the cycle-accurate C model of a TCPA (docs/model.md). It runs a
 * configuration stream (docs/stream.md) and nothing else: model_new checks
 * the stream with the stream reader and applies every packet; model_step
 * advances one clock cycle exactly as docs/timing.md says, and hands that
 * cycle's trace events (docs/trace.md), sorted in the canonical order, to
 * a sink. After `done`, a driver reads the outputs from the banks.
 */
#ifndef TCPA_MODEL_H
#define TCPA_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arch.h"
#include "isa.h"
#include "trace.h"

typedef struct model model;

/* Why model_new refused a stream: a stream_error code (stream.h) and a
 * sentence with the byte offset. */
typedef struct {
  int code;
  char msg[320];
} model_error;

/* A trace sink: called once per event, in canonical order. */
typedef void (*model_trace_fn)(const trace_event *e, void *ctx);

/* Returns a machine of architecture cfg configured by the stream
 * stream[0..len), reset and ready for cycle 0; NULL with the reason in
 * *err when the stream is invalid (header, CRC, packet, or a START of a
 * global controller that was never configured / outside its region). */
model *model_new(const arch_config *cfg, const uint8_t *stream, size_t len,
                 model_error *err);

/* One stream of a run of several (docs/timing.md section 11): its bytes
 * and its start cycle t_k. */
typedef struct {
  const uint8_t *bytes;
  size_t len;
  uint64_t start;
} model_stream_in;

/* Returns a machine running the streams s[0..n) (n = 1..4), each from its
 * start cycle (s[0].start 0; then nondecreasing, loading windows apart:
 * start_k - (6 + LENGTH_k) >= start_(k-1)), stream 0 configured and reset
 * for cycle 0, every other one checked with the stream reader and kept
 * for its cycles; NULL with the reason in *err when a stream is invalid
 * or the start cycles break the rules. n = 1 is model_new. */
model *model_new_multi(const arch_config *cfg, const model_stream_in *s, int n, model_error *err);

/* Returns 1, with the reason in *err (may be NULL), when a stream was
 * refused while the machine ran (STREAM_ERR_BUSY, ...): the machine
 * stopped before the stream's first cycle; else 0. */
int model_failed(const model *m, model_error *err);

/* The region of one stream of the run. */
typedef struct {
  int gc;                      /* its START's GC (-1 not started yet) */
  int row0, col0, rows, cols;  /* the START rectangle */
  uint64_t start_cycle;        /* t_k */
  int started, done;
  uint64_t cycles;             /* its own cycles (t - t_k + 1 of its done cycle) */
} model_region_view;

/* Returns the number of streams of the run. */
int model_region_count(const model *m);

/* Returns 0 and the region of stream k in *v; -1 when there is none. */
int model_region_get(const model *m, int k, model_region_view *v);

/* Frees the machine (NULL is fine). */
void model_free(model *m);

/* Sends every following event to fn (NULL: no trace). Set it (or the
 * file below) before the first model_step: while nobody listens, the model
 * forms no events and keeps no bookkeeping for the state events
 * (docs/trace.md "State events": emitted on change), so a listener set
 * later would see those of its first cycle relative to stale values. */
void model_set_trace(model *m, model_trace_fn fn, void *ctx);

/* A sink of a cycle's events at once: ev[0..n), all of one cycle. */
typedef void (*model_batch_fn)(const trace_event *ev, size_t n, void *ctx);

/* Hands each cycle's events, all at once, to fn (NULL: none), before the
 * sink of model_set_trace if there is one, and in the same order: for a
 * sink whose per-event work is small, a call per cycle instead of one
 * per event. Set it before the first model_step, as model_set_trace. */
void model_set_trace_batch(model *m, model_batch_fn fn, void *ctx);

/* Hands each cycle's events to the sinks (model_set_trace, _batch) in the
 * order the model forms them (any != 0) instead of the canonical order: for a
 * sink that takes a cycle's events as a set, such as a digest (docs/trace.md
 * "Digest stream"), the sort is work for nothing. A trace file
 * (model_set_trace_file) is always written sorted. */
void model_set_trace_any_order(model *m, int any);

/* Writes the trace header line (with the fingerprint and a comment naming
 * the engine) to f and every following event as a text line. */
void model_set_trace_file(model *m, FILE *f);

/* Returns 1 when the machine is done after running one more cycle (or was
 * already done, in which case nothing happens), else 0. */
int model_step(model *m);

/* Returns 0 when the machine reached done within max_cycles cycles in
 * total, -1 when a stream was refused (model_failed), else 1 after
 * emitting a `timeout` fault in the last cycle run. */
int model_run(model *m, uint64_t max_cycles);

/* Returns 1 when the machine is done. */
int model_done(const model *m);

/* Returns the number of cycles run so far (after done: the CYCLES of the
 * `done` event). */
uint64_t model_cycles(const model *m);

/* Returns the number of faults raised so far (of kind f; all kinds when f
 * is TRACE_FAULT_COUNT). */
uint64_t model_faults(const model *m, trace_fault_kind f);

/* Returns 0 and bank word `addr` of bank `bank` on side `side` (0..3:
 * n e s w) of border PE (row, col) in *value; -1 when there is no such
 * bank (not a border side, indices out of range). */
int model_bank_read(const model *m, int row, int col, int side, int bank,
                    uint32_t addr, uint32_t *value);

/* Architectural state of one PE at the current cycle boundary. */
typedef struct {
  int started;                  /* inside the started region */
  int64_t delay;                /* its start delay d(r,c) */
  uint32_t rd[ISA_MAX_REGS];
  uint32_t fd_head[ISA_MAX_REGS]; /* ring[R] of each fd: its next read */
  int fd_depth[ISA_MAX_REGS];
  int fifo_count[ISA_MAX_REGS];  /* words in each input FIFO */
  uint32_t fifo_head[ISA_MAX_REGS]; /* head (0 when empty) */
  uint32_t od[ISA_MAX_OD];       /* last value written to each od */
  int pc[ISA_MAX_FUS];
  int halted[ISA_MAX_FUS];
  uint32_t wait[ISA_MAX_FUS];    /* waiting cycles left of a `nop N` (0: none) */
  int programmed[ISA_MAX_FUS];
  int flag[ISA_MAX_FUS];
  uint32_t sig;                  /* signal vector seen in the last cycle */
} model_pe_view;

/* Returns 0 and the state of PE (row, col) in *v; -1 if there is none. */
int model_pe_state(const model *m, int row, int col, model_pe_view *v);

/* ---- the units behind a divergence (model_unit.c) ------------------------
 * What the configuration makes of one unit at a cycle t, computed from the
 * loaded stream alone (not from the run): the lockstep report names with
 * it the address generator, the step counter, the global controller or the
 * FIFO channel a divergence is in (docs/trace.md "Divergence files"). */

#define MODEL_UNIT_DIMS 8 /* iteration dimensions shown (the largest gc.dims) */

/* An address generator of a border bank in cycle t. */
typedef struct {
  int mode;                        /* stream_ag_mode (OFF: none configured) */
  int ndims;
  int32_t phase, base, row_coef, col_coef;
  int drow, dcol;                  /* r - ROW0, c - COL0 of its packet */
  int32_t stride[MODEL_UNIT_DIMS];
  int ncons;                       /* constraints of its enable */
  int in_region;                   /* its PE is in the started region */
  int64_t delay;                   /* d(r,c) */
  int32_t ii;
  int64_t steps;                   /* S of the started GC */
  int64_t step;                    /* min((t - d - phase) / ii, S); -1 before its first */
  int32_t J[MODEL_UNIT_DIMS];      /* the iteration of that step (0 before) */
  uint32_t addr;                   /* its address counter in cycle t (trace.md `ag`) */
  int at_event;                    /* t is the phase cycle of a step < S */
  int enabled;                     /* its enable holds at J */
} model_ag_view;

/* Returns 0 and the AG of bank `bank` on side `side` of PE (row, col) in
 * cycle t in *v; -1 when there is no such bank (not a border side). */
int model_ag_view_get(const model *m, int row, int col, int side, int bank, uint64_t t, model_ag_view *v);

/* The started region's global controller and one PE's step in cycle t. */
typedef struct {
  int gc;                          /* its index (START) */
  int row0, col0, rows, cols;      /* its region */
  int32_t ii;
  int ndims;
  int32_t bound[MODEL_UNIT_DIMS];
  int32_t epilog;
  int64_t steps;                   /* S */
  int nterms;
  int64_t gc_step;                 /* the step the GC begins in cycle t (t + 1 = S*ii), -1 none */
  int32_t gc_J[MODEL_UNIT_DIMS];   /* its iteration */
  uint32_t gc_vector;              /* its vector, every term counted */
  int in_region;                   /* the PE is in the region */
  int64_t delay;                   /* the PE's d(r,c) */
  int64_t pe_step;                 /* the PE's step counter in cycle t (trace.md `step`) */
  int32_t pe_J[MODEL_UNIT_DIMS];   /* the iteration of its step (0 before its start) */
} model_gc_view;

/* Returns 0 and the started GC in cycle t, with PE (row, col)'s step
 * (row < 0: none), in *v; -1 when no GC is started. */
int model_gc_view_get(const model *m, int row, int col, uint64_t t, model_gc_view *v);

/* Writes the terms of control signal `sig` of the started GC ("j0 - 2 >= 0
 * and j1 == 0 (PEs r-ROW0 0..1, c-COL0 0..0); or j2 >= 0") into buf, GC
 * dimension d named j<order[d]> (the program's index; NULL order: J<d>);
 * returns the number of terms. */
int model_gc_terms_format(const model *m, int sig, const int *order, char *buf, size_t sz);

/* Returns the wrapper's select of sink `sink` of PE (row, col)
 * (docs/stream.md "WRAPPER sinks and sources": 0 unconnected, else 1 +
 * source); -1 when there is no such PE or sink. */
int model_sink_select(const model *m, int row, int col, int sink);

/* Returns a bit set of the pcs (bit pc, pc < 64) at which FU fu of PE
 * (row, col) has an instruction reading register class cls (isa_cls) index
 * idx; 0 when none or no program. */
uint64_t model_fu_reads(const model *m, int row, int col, int fu, int cls, int idx);

#endif
