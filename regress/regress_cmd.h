/*
 * regress_cmd.h: `tcpa regress` as a library (docs/regress.md): the
 * request (the options, read by cli_regress.c) and regress_cmd_run, which
 * loads the runs of its mode (suites, --rerun-failed, --merge), runs them
 * in parallel (regress_exec.h), writes the reports (regress_report.h) and
 * prints the failure buckets.
 */
#ifndef TCPA_REGRESS_CMD_H
#define TCPA_REGRESS_CMD_H

#include "regress.h"
#include "regress_suite.h"

#define REGRESS_MAX_ARGS 256
#define REGRESS_MAX_SEEDS 4096 /* seeds of --seeds */

/* The request: the command line of `tcpa regress`, read (cli_regress.c). */
typedef struct {
  const char *suites[REGRESS_MAX_ARGS];
  int nsuites;
  const char *merge[REGRESS_MAX_ARGS];
  int nmerge;
  const char *filter[REGRESS_MAX_ARGS]; /* --filter GLOB... */
  int nfilter;
  const char *exclude[REGRESS_MAX_ARGS]; /* --exclude GLOB... */
  int nexclude;
  const char *out_dir, *rerun, *shard;
  int jobs, timeout, list, help, time_inst, merging, waves, keep_traces;
  int shard_k, shard_n;
  char *seeds;        /* --seeds, as decimal seeds "S1,S2,..." (malloc'ed) */
  int seeds_random;   /* --seeds random:K: K, the seeds drawn */
  regress_suite_opts so;
  const char *self;   /* the program each run runs (NULL: this binary,
                         /proc/self/exe, after building the harnesses) */
} regress_opts;

/* The outcomes of regress_cmd_run: the exit statuses of `tcpa regress`. */
enum { REGRESS_CMD_OK = 0, REGRESS_CMD_FAIL = 1, REGRESS_CMD_INPUT = 2 };

/* Returns REGRESS_CMD_OK when every run met its expectation (or --list
 * printed them), REGRESS_CMD_FAIL otherwise (or interrupted),
 * REGRESS_CMD_INPUT after printing why the runs cannot be loaded or the
 * output directory cannot be made. */
int regress_cmd_run(const regress_opts *o);

#endif
