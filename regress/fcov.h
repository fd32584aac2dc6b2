/*
 * fcov.h: functional coverage of runs (docs/regress.md "Functional
 * coverage"): named bins, each counting how often a run exercised one
 * feature of the ISA and the architecture (opcode per FU class, branch
 * kinds and targets taken, FIFO levels, fd depths, wrapper routes per
 * direction, AG enable patterns, concurrent bank accesses, control-signal
 * edges, operand classes), the field coverage of the streams
 * (fieldcov.h: the value classes of every packet and instruction field)
 * and the operand values of every FU (valcov.h).
 *
 * The bins are defined from the architecture configuration (common/arch.h)
 * and the ISA (common/isa.h) alone, before a run, so that a bin that stays
 * at zero (a hole) is a feature the configuration offers and the runs never
 * used. They are counted from what every engine produces: the run's
 * configuration stream (common/stream.h) and its trace (docs/trace.md), so
 * the counts describe the run, not the engine that ran it (the model's and
 * the RTL's traces of one run give the same counts).
 *
 * A set is written as JSON (`{"fcov": 1, "runs": N, "bins": {NAME: COUNT,
 * ...}}`, every defined bin, zeros included) and read back; sets merge by
 * bin name (counts added), so a regression over several configurations
 * has the union of their bins.
 */
#ifndef TCPA_FCOV_H
#define TCPA_FCOV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arch.h"
#include "trace.h"

#define FCOV_VERSION 1
#define FCOV_NAME 40 /* a bin's name, NUL included */

/* One bin: its name ("op.alu.add": group, then what) and its count. */
typedef struct {
  char name[FCOV_NAME];
  uint64_t count;
} fcov_bin;

/* A set of bins, in the order they were defined or first merged. */
typedef struct {
  fcov_bin *v;
  size_t n, cap;
  uint64_t runs; /* runs counted into the set */
} fcov_set;

/* Returns 0 after adding every bin of configuration cfg to s (zero counts;
 * a bin already there is kept); -1 when out of memory. */
int fcov_bins_define(fcov_set *s, const arch_config *cfg);

/* Returns the index of the bin named name in s, appended with count 0
 * when missing; -1 when out of memory. */
long fcov_bin_define(fcov_set *s, const char *name);

/* Returns the bin named name in s, or NULL. */
fcov_bin *fcov_bin_find(const fcov_set *s, const char *name);

/* Returns 0 after defining the bins of cfg in s and counting one run into
 * them: the stream buf[0..len) and the trace text read from trace; -1 with
 * the reason in msg (a stream or trace that does not read, out of memory). */
int fcov_run_count(fcov_set *s, const arch_config *cfg, const uint8_t *buf, size_t len, FILE *trace, char *msg,
                   size_t msgsz);

/* Counting one run event by event, as its events come (tcpa run
 * --traces on-failure: the model's events of a run that keeps no trace).
 * fcov_walk_new returns a walk of the stream buf[0..len) on cfg counting
 * into s (its bins defined; cfg is copied), or NULL with the reason in
 * msg; fcov_walk_event counts one event (a model_trace_fn: ctx is the
 * walk; events cycle by cycle, as a trace has them); fcov_walk_finish
 * ends the run (its last cycle, s->runs + 1) and frees the walk;
 * fcov_walk_drop frees it, the run not counted as one (its events stay
 * counted: drop it only with a set that is thrown away). */
typedef struct fcov_walk fcov_walk;
fcov_walk *fcov_walk_new(fcov_set *s, const arch_config *cfg, const uint8_t *buf, size_t len, char *msg,
                         size_t msgsz);
void fcov_walk_event(const trace_event *e, void *ctx);
void fcov_walk_finish(fcov_walk *w);
void fcov_walk_drop(fcov_walk *w);

/* Returns 0 after adding the counts and runs of `from` to `to` (bins
 * missing in `to` appended); -1 when out of memory. */
int fcov_merge(fcov_set *to, const fcov_set *from);

/* Returns 0 after writing s as JSON to path (atomically); -1 after an
 * error message. */
int fcov_save(const fcov_set *s, const char *path);

/* Returns 0 after merging the JSON file at path into s; -1 with the reason
 * in msg. */
int fcov_load(fcov_set *s, const char *path, char *msg, size_t msgsz);

/* Writes the report of s to f: per group, the bins hit and defined and
 * the share, then the holes (bins never hit), at most max_holes names per
 * group (0: all), each group's line prefixed by `indent`. */
void fcov_report_text(FILE *f, const fcov_set *s, const char *indent, int max_holes);

/* Returns the number of distinct groups of s (the text before the first
 * dot of a name), and in *hit, *all the bins hit and defined. */
int fcov_totals(const fcov_set *s, size_t *hit, size_t *all);

/* Frees the bins of s and empties it. */
void fcov_free(fcov_set *s);

#endif
