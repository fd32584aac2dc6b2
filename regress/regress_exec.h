/*
 * regress_exec.h: runs the runs of a regression as child processes of
 * the `tcpa` binary itself (/proc/self/exe), up to `jobs` at a time, each
 * with a timeout, in its own directory; reports progress and one line per
 * finished run, and judges each (regress_verdict.h).
 */
#ifndef TCPA_REGRESS_EXEC_H
#define TCPA_REGRESS_EXEC_H

#include <stdio.h>

#include "regress.h"

typedef struct {
  const char *self;    /* the tcpa binary to run */
  const char *out_dir; /* each run in OUT_DIR/<id> */
  int jobs;            /* runs at a time (>= 1) */
  int timeout;         /* seconds per run unless the run sets its own */
  int progress;        /* 1: a live progress line on stderr (a terminal) */
  int time_inst;       /* 1: keep each passing engine run's instantiation
                          time (its summary.json's instantiate_seconds);
                          0: none is kept */
  FILE *log;           /* one line per finished run (stdout) */
} regress_exec_opts;

/* Returns 0 after running every run of l (verdicts set); -1 when the
 * regression was interrupted (SIGINT, SIGTERM: the running ones are
 * killed, the others stay pending) or a run could not be started. */
int regress_exec_all(regress_list *l, const regress_exec_opts *o);

/* Returns the argument vector of `tcpa run` for r (NULL-terminated,
 * malloc'ed strings in a malloc'ed array; argv[0] is "tcpa"); free it
 * with regress_exec_argv_free. */
char **regress_exec_argv(const regress_run *r);

/* Frees a vector of regress_exec_argv. */
void regress_exec_argv_free(char **argv);

/* Returns the command line of r as one malloc'ed shell-quoted string
 * ("tcpa run regress/programs/fir.pla --arch ..."). */
char *regress_exec_command(const regress_run *r);

#endif
