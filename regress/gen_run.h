/*
 * gen_run.h: the runner of random programs (docs/fuzz.md, section "Random
 * programs"), behind `tcpa gen program --seeds A-B --check`: each seed's
 * program (gen_program.h) goes through `tcpa check`, the reference
 * (`tcpa run --engine ref`) and an engine (`tcpa run --engine model` or
 * cosim) on a configuration and region, each a child process of the same
 * binary; a failure is shrunk (gp_shrink_apply) while it persists and the
 * smallest program is written with its configuration and command.
 */
#ifndef TCPA_GEN_RUN_H
#define TCPA_GEN_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fcov.h"
#include "gen_program.h"

typedef struct {
  const char *self;    /* the tcpa binary to run (/proc/self/exe) */
  unsigned long long first, last; /* the seeds, inclusive */
  const char *arch;    /* a configuration file; NULL: the embedded default */
  int arch_random;     /* 1: `tcpa gen arch --seed S` per seed (at most max_pes PEs) */
  int max_pes;
  int pes_r, pes_c;    /* the region; 0: random within the array (2x4 at most) */
  const char *engine;  /* "model" or "cosim" */
  const char *out_dir; /* each seed in OUT_DIR/seed<S>/ */
  int shrink;          /* 1: shrink failures */
  int timeout;         /* seconds per child run */
  int keep;            /* 1: keep the directories of passing seeds */
  int random_map;      /* 1: --map of random dimensions (gr_map_args) */
  FILE *log;           /* one line per seed and the totals */
  fcov_set *cov;       /* not NULL: each passing seed's functional coverage
                          (its engine run's fcov.json) merged into it */
} gen_run_opts;

/* The totals of a run. */
typedef struct {
  int pass, nofit, fail;
  int overlap; /* random jobs: those whose regions ran at the same time */
} gen_run_totals;

/* Returns 0 after running every seed (totals in *t, lines on o->log); -1
 * when the output directory cannot be made. */
int gen_run_seeds(const gen_run_opts *o, gen_run_totals *t);

/* Returns the status of `o->self argv...` run with stdout and stderr in
 * log and a timeout of `timeout` seconds: the exit code, or 256 + the
 * signal that ended it (SIGALRM: timeout). Whatever the child left
 * running (its process group) is killed. */
int gen_run_exec(const gen_run_opts *o, char **argv, const char *log, int timeout);

/* Appends "--param NAME=V" for every parameter of p to argv from *n; the
 * strings go into store (GP_MAX_PARAMS entries of 32 bytes). */
void gen_run_params_args(const gp_program *p, char **argv, int *n, char store[][32]);

/* Copies into buf (size) the first line of file `log` that contains
 * `want` (any line when NULL); "" when none. */
void gen_run_log_line(const char *log, const char *want, char *buf, size_t size);

/* Returns 0 after running every seed as a random job of `regions`
 * programs at once (gen_job.c; docs/fuzz.md "Random jobs"), totals in
 * *t and lines on o->log; -1 when the output directory cannot be made. */
int gen_run_jobs(const gen_run_opts *o, int regions, gen_run_totals *t);

#endif
