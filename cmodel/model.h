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
 * total, else 1 after emitting a `timeout` fault in the last cycle run. */
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

#endif
