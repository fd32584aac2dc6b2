/*
 * signoff.h: `tcpa signoff` as a library (docs/regress.md "Sign-off"): the
 * options of one sign-off and signoff_run, which runs its steps and writes
 * its report. cli_signoff.c parses the command line into signoff_opts.
 *
 * Between the files of the sign-off, the state of one sign-off:
 *   signoff_run.c     the steps in order, each a child process (tcpa arch,
 *                     verilator, make, tcpa regress) with its log in DIR;
 *   signoff_cov.c     the coverage step: verilator_coverage merges the
 *                     counters (counted per module) and writes them as an
 *                     lcov tracefile and annotated sources, genhtml renders
 *                     them; the regression's functional coverage;
 *   signoff_report.c  DIR/report.md and DIR/report.html.
 */
#ifndef TCPA_SIGNOFF_H
#define TCPA_SIGNOFF_H

#include "fcov.h"
#include "regress.h"

/* The options of one sign-off (`tcpa signoff --help`). */
typedef struct {
  const char *arch;  /* the configuration A.ini (required) */
  const char *dir;   /* the output directory DIR (required) */
  const char *suite; /* the suite file */
  int jobs;          /* runs at a time (>= 1) */
  int timeout;       /* seconds per run */
} signoff_opts;

/* The outcomes of signoff_run: the exit statuses of `tcpa signoff`. */
enum { SIGNOFF_PASS = 0, SIGNOFF_FAIL = 1, SIGNOFF_ERR_INPUT = 2 };

/* Returns SIGNOFF_PASS when every step passed and every run met its
 * expectation, SIGNOFF_FAIL otherwise (DIR/report.md says why), or
 * SIGNOFF_ERR_INPUT (an unreadable A.ini or suite, DIR not writable, not
 * the project's root directory; the message on stderr). Prints progress on
 * stderr and the report's paths on stdout. */
int signoff_run(const signoff_opts *o);

/* ---- between signoff_run.c, signoff_cov.c and signoff_report.c ---- */

#define SIGNOFF_PATH 4096  /* buffers for paths inside DIR */
#define SIGNOFF_DIRLEN 2048 /* DIR itself (absolute); longer is refused */
#define SIGNOFF_MAX_MODULES 64

/* One step's outcome. */
typedef struct {
  const char *name;
  int ran, ok;
  double seconds; /* wall time of the step */
  char detail[512];
  const char *log; /* relative to DIR */
} signoff_step;

/* The steps, in order. */
enum {
  SIGNOFF_ST_PARAMS,
  SIGNOFF_ST_LINT,
  SIGNOFF_ST_SYNTH,
  SIGNOFF_ST_BUILD,
  SIGNOFF_ST_REGRESS,
  SIGNOFF_ST_COVER,
  SIGNOFF_ST_N
};

/* Coverage points of one module and type. */
typedef struct {
  char module[64];
  long line_hit, line_all, tog_hit, tog_all;
} signoff_cov;

/* One sign-off: its options, its paths, and everything the report shows. */
typedef struct {
  const char *arch, *dir, *suite;
  char adir[SIGNOFF_DIRLEN];     /* absolute DIR */
  char rtl[SIGNOFF_DIRLEN + 8];  /* absolute DIR/rtl */
  char covbin[4400];             /* the coverage harness (the harness cache) */
  signoff_step st[SIGNOFF_ST_N];
  char cells[SIGNOFF_MAX_MODULES][3][64]; /* module, cells, variants */
  int ncells;
  long total_cells;
  signoff_cov cov[SIGNOFF_MAX_MODULES + 1]; /* [0]: total */
  int ncov;
  regress_list runs;
  int jobs, timeout;
  double seconds; /* wall time of the whole sign-off */
  fcov_set fcov;  /* the regression's functional coverage (DIR/regress/fcov.json) */
  int html;       /* genhtml wrote DIR/coverage-html/index.html */
} signoff_state;

/* Returns the exit status of argv run with stdout and stderr appended to
 * log, the environment variables env[0]=env[1], ... (NULL-terminated
 * pairs) set; -1 when it cannot run or is killed. */
int signoff_exec(char *const *argv, const char *log, const char *const *env);

/* Returns buf (SIGNOFF_PATH bytes) holding "DIR/name". */
char *signoff_path(char *buf, const signoff_state *s, const char *name);

/* Step 6 (signoff_cov.c): merges the counters of DIR/cov into
 * DIR/coverage.dat and counts them per module into s->cov; sets the
 * step's outcome. */
void signoff_coverage(signoff_state *s);

/* Returns 0 after writing DIR/report.md and DIR/report.html
 * (signoff_report.c) with the verdict pass; -1. */
int signoff_report_write(const signoff_state *s, int pass);

#endif
