/*
 * sim_run.h: `tcpa sim` as a library: runs a configuration stream on the
 * cycle-accurate C model (cmodel/model.h) with its trace, waveform and
 * bank dumps, and reports the cycle count, the done status and the faults.
 */
#ifndef TCPA_SIM_RUN_H
#define TCPA_SIM_RUN_H

#define SIM_MAX_CYCLES 10000000ull /* the default of --max-cycles */

/* The request (`tcpa sim --help`). */
typedef struct {
  const char *stream, *arch, *trace, *dump, *fst; /* arch NULL: the embedded default; trace "-": stdout */
  unsigned long long max_cycles;
  int stats; /* --stats: print the stepping loop's cycles, PEs, seconds and rate */
} sim_opts;

/* The outcomes of sim_run: the exit statuses of `tcpa sim`. */
enum { SIM_OK = 0, SIM_FAIL = 1, SIM_INPUT = 2 };

/* Returns SIM_OK when the stream of o ran to done without a fault,
 * SIM_FAIL when it did not finish within o->max_cycles or raised a fault,
 * SIM_INPUT after a message (an invalid stream, architecture or output
 * file). The result line goes to stdout (stderr when the trace does). */
int sim_run(const sim_opts *o);

#endif
