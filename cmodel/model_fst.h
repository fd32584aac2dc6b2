/*
 * model_fst.h: the C model's own waveform, an FST file written with
 * GTKWave's FST writer (fstapi.c as shipped with Verilator), with the same
 * hierarchy and signal names as the RTL's FST (build/bin/tcpa-rtl --fst),
 * so that both open side by side in GTKWave (docs/trace.md, "The model's
 * FST").
 *
 * The model itself knows nothing of it: a driver passes every trace event
 * of cycle t to model_fst_event (from its trace sink) and calls
 * model_fst_cycle after model_step has run cycle t (model_fst_begin
 * before cycle 0 reads the loaded state; model_fst_run does both). Time is
 * in cycles, as in the RTL harness's FST: unit 1 ps, one cycle
 * MODEL_FST_UNIT = 1 ns, cycle t starting at t0 + t ns with the clock's
 * rising edge; there the registers after cycle t-1 (rd, od, pc, halted,
 * flag, FIFO counts and heads, fd heads, signals) and the event ports dbg_*
 * of cycle t (issue, pc, write-backs, pops, pushes, fd reads, hops) and
 * each FU's `word` and `val` (instruction and operands) change; the clock
 * falls at t0 + t ns + 500 ps.
 */
#ifndef TCPA_MODEL_FST_H
#define TCPA_MODEL_FST_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "model.h"
#include "trace.h"

/* FST time units (ps) per cycle: 1 ns. */
#define MODEL_FST_UNIT 1000u

typedef struct model_fst model_fst;

/* Returns a writer of the FST `path` (written to a temporary file renamed
 * by model_fst_close) for a machine of architecture cfg, cycle 0 at time
 * t0 (FST units); NULL with the reason in msg. */
model_fst *model_fst_open(const char *path, const arch_config *cfg, uint64_t t0, char *msg,
                          size_t msgsz);

/* Notes one trace event of the cycle being run (events of one cycle, in
 * any order, before model_fst_cycle of that cycle). */
void model_fst_event(model_fst *w, const trace_event *e);

/* The same as a model_trace_fn (ctx: the writer), to chain in a sink. */
void model_fst_sink(const trace_event *e, void *ctx);

/* Returns what model_run returns after running m to done or max_cycles
 * one model_step at a time, dumping every cycle into w (the events must
 * reach w through model_fst_sink). */
int model_fst_run(model *m, model_fst *w, uint64_t max_cycles);

/* Reads the state of m before its first cycle (the registers dumped at
 * cycle 0's rising edge); call it before model_step of cycle 0. */
void model_fst_begin(model_fst *w, const model *m);

/* Dumps cycle t of m (just run by model_step): its events noted so far and
 * the registers after it. */
void model_fst_cycle(model_fst *w, const model *m, uint64_t t);

/* Returns 0 after finishing the file and renaming it into place; -1 with
 * msg (nothing left behind). Frees w (NULL is fine: returns 0). */
int model_fst_close(model_fst *w, char *msg, size_t msgsz);

/* Frees w and removes its temporary file (after an error elsewhere). */
void model_fst_abort(model_fst *w);

#endif
