/*
 * regress.h: the data of a regression (`tcpa regress`, docs/regress.md):
 * one record per run, holding what to run (read from a suite file by
 * regress_suite.c, or back from an earlier summary.json by
 * regress_report.c) and what the run gave (regress_exec.c runs it,
 * regress_verdict.c reads its exit status and summary.json into a verdict
 * and, for a failure, a structured signature).
 *
 * Every string of a record is malloc'ed and owned by it; regress_run_free
 * frees them. A list of runs is a plain growable array (regress_list).
 */
#ifndef TCPA_REGRESS_H
#define TCPA_REGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "fit.h"

/* What a run is expected to give (the suite's `expect=`). */
typedef enum {
  REGRESS_EXPECT_ANY = 0, /* pass, or does not fit (exit 3): both are fine */
  REGRESS_EXPECT_PASS,    /* must fit and pass */
  REGRESS_EXPECT_NOFIT    /* must exit 3 */
} regress_expect;

/* The verdict of one run. */
typedef enum {
  REGRESS_PENDING = 0, /* not run (yet) */
  REGRESS_PASS,        /* exit 0 */
  REGRESS_FAIL,        /* exit 1: mismatch or divergence */
  REGRESS_INVALID,     /* exit 2 */
  REGRESS_NOFIT,       /* exit 3 */
  REGRESS_TIMEOUT,     /* killed after --timeout */
  REGRESS_CRASH        /* killed by a signal, or an exit status outside 0..3 */
} regress_verdict;

/* The structured signature of a failure: what went wrong first. */
typedef struct {
  char *check; /* divergence, outputs, faults, done, cycles, summary, exit */
  char *kind;  /* trace event kind (wr, hop, ...) or the check's subject */
  char *unit;  /* the unit as the lockstep checker names it ("FU 1 ->
                  rd3", "side n bank 0"), or "" */
  char *unit_class; /* its class, the root cause without coordinates
                  ("FU -> rd", "bank": summary.json's divergence_record
                  unit_class), or "" */
  char *stage; /* pipeline stage of the kind (write-back, ...) or engine */
  char *diff;  /* value, missing, extra, or "" */
} regress_signature;

/* One run: what to run, then what it gave. */
typedef struct {
  /* what to run */
  char *id;       /* unique within the suite; the run's directory name */
  char *suite;    /* the suite's name */
  char *program;  /* path of the .pla */
  char *name;     /* the program's label (file name without .pla) */
  char *params;   /* "N=13 T=3": NAME=VALUE separated by single spaces */
  char *pes;      /* "1x2" */
  char *map;      /* --map value ("i" or "i,j"), or NULL */
  char *arch;     /* path of the architecture INI */
  char *engine;   /* ref, model, rtl, cosim */
  uint64_t seed;
  regress_expect expect;
  int timeout;    /* seconds; 0: the command line's --timeout */
  int window;     /* --window for cosim (0: tcpa run's default) */
  int waves;      /* 1: model and rtl runs dump their waveform (--fst) */
  int keep_traces; /* 1: every run keeps its traces; 0: only a failing one
                      (tcpa run --traces on-failure) */
  char *where;    /* "suite.txt:12", where the run was declared */
  int job;        /* 1: program is a job file (`job FILE` in a suite: tcpa run JOB.ini) */
  /* what it gave */
  regress_verdict verdict;
  int ok;         /* the verdict meets the expectation */
  int exit_code;  /* -1 when killed */
  int term_signal;
  double seconds; /* wall time of tcpa run */
  char *message;  /* nofit: the resource; failures: the first error line */
  fit_record *nofit; /* nofit: what ran out (summary.json's nofit, fit.h), or NULL */
  regress_signature sig; /* failures (fail, invalid, timeout, crash) */
  int64_t cycles, pes_used, ii, config_bytes; /* from summary.json; -1 */
  char *line;     /* "1x2": the line of the RxC region a program of one loop
                     dimension ran on (summary.json's line), or NULL */
  double inst_seconds; /* `tcpa instantiate` wall time; < 0 when not timed */
  char *dir;      /* the run's directory */
} regress_run;

/* A growable array of runs. */
typedef struct {
  regress_run *v;
  size_t n, cap;
} regress_list;

/* Returns a pointer to a new zeroed run appended to l (numbers -1, verdict
 * pending), or NULL when out of memory. */
regress_run *regress_list_add(regress_list *l);

/* Frees every run of l and the array. */
void regress_list_free(regress_list *l);

/* Frees what r owns. */
void regress_run_free(regress_run *r);

/* Returns a malloc'ed copy of s (NULL for NULL); aborts when out of memory. */
char *regress_strdup(const char *s);

/* Keeps the runs of l whose id matches one of the `nkeep` globs of keep
 * (all when nkeep is 0) and none of the `ndrop` globs of drop (fnmatch);
 * frees the others. Returns the number of runs kept. */
size_t regress_list_filter(regress_list *l, const char *const *keep, int nkeep, const char *const *drop, int ndrop);

/* Returns the name of a verdict ("pass", ...). */
const char *regress_verdict_name(regress_verdict v);

/* Returns the verdict named s, or REGRESS_PENDING. */
regress_verdict regress_verdict_parse(const char *s);

/* Returns the name of an expectation ("any", "pass", "nofit"). */
const char *regress_expect_name(regress_expect e);

/* Returns the signature as one line ("divergence: wr FU 1 -> rd @ write-back
 * (value)"), malloc'ed; "" for a run without one. */
char *regress_signature_text(const regress_signature *s);

#endif
