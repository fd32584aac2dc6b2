/*
 * stream_fuzz.h: random streams (regress/gen_stream.h) run on the C model
 * and the RTL in lockstep, judged, and a failing one shrunk (docs/fuzz.md
 * "Random streams on both engines"); `tcpa gen stream --check` drives it.
 *
 * One stream is judged by engine_cosim_lockstep (tb/engine.h): the model
 * is stepped in process beside the RTL harness, every cycle through the
 * lockstep checker, both stopping at the first divergence. A divergence
 * is shrunk by delta debugging over the packet list: drop packets (halves,
 * quarters, ..., one), shorten programs, replace instructions by `nop ;
 * next` or `nop ; halt`, drop GC terms and AG constraints, narrow
 * rectangles to one PE (a GC's to its START's), unconnect wrapper
 * sinks, shorten bank data;
 * every step is kept while the stream is still valid and the engines
 * still diverge.
 */
#ifndef TCPA_STREAM_FUZZ_H
#define TCPA_STREAM_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "gen_stream.h"

typedef enum {
  STREAM_FUZZ_AGREE = 0,   /* the traces agree in every cycle */
  STREAM_FUZZ_DIVERGE = 1, /* the first divergence is in `line`, `report` */
  STREAM_FUZZ_INVALID = 2  /* the stream or an engine failed (msg) */
} stream_fuzz_status;

/* How to judge one stream. */
typedef struct {
  const char *rtl_bin;     /* the tcpa-rtl harness (any kind) */
  const char *work_dir;    /* scratch directory for the harness's files */
  uint64_t max_cycles;     /* both engines stop there with `timeout` */
} stream_fuzz_opts;

/* What judging one stream found. */
typedef struct {
  stream_fuzz_status status;
  int done;                /* agreed: the run reached done (else timeout) */
  uint64_t cycles;         /* cycles the model ran */
  uint64_t faults;         /* agreed: faults the model raised */
  char line[512];          /* diverged: the first divergence, one line */
  char *report;            /* diverged: the checker's report (malloc'ed) */
  char msg[512];           /* invalid: why */
} stream_fuzz_verdict;

/* Returns the status after running stream s on the model and the RTL
 * harness o->rtl_bin in lockstep; details in *v (free v->report). */
stream_fuzz_status stream_fuzz_judge(const gen_stream *s, const stream_fuzz_opts *o,
                                     stream_fuzz_verdict *v);

/* Returns the number of candidate streams tried after shrinking the
 * diverging stream *s in place (at most `budget` candidates): every step
 * that keeps the stream valid and diverging is kept. */
int stream_fuzz_shrink(gen_stream *s, const stream_fuzz_opts *o, int budget);

/* Returns the number of instructions of every program packet of s. */
int stream_fuzz_size(const gen_stream *s);

#endif
