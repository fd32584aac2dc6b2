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
#include "testplan.h"

/* The options of one sign-off (`tcpa signoff --help`). */
typedef struct {
  const char *arch;  /* the configuration A.ini (required) */
  const char *dir;   /* the output directory DIR (required) */
  const char *suite; /* the suite file */
  const char *testplan; /* the testplan (docs/testplan.md) */
  int jobs;          /* runs at a time (>= 1) */
  int timeout;       /* seconds per run */
  int min_fit;       /* the floor: percent of the runs that must fit (0-100) */
} signoff_opts;

/* --min-fit's default: at least half the runs of the suite must fit the
 * configuration for a PASS (docs/regress.md "Sign-off"). */
#define SIGNOFF_MIN_FIT_DEFAULT 50

/* The outcomes of signoff_run: the exit statuses of `tcpa signoff`
 * (INCOMPLETE: what ran passed, but fewer runs fit than the floor; 3 as
 * every "does not fit" of spec/cli.md). */
enum { SIGNOFF_PASS = 0, SIGNOFF_FAIL = 1, SIGNOFF_ERR_INPUT = 2, SIGNOFF_INCOMPLETE = 3 };

/* The verdict of a sign-off. */
typedef enum { SIGNOFF_VERDICT_PASS, SIGNOFF_VERDICT_FAIL, SIGNOFF_VERDICT_INCOMPLETE } signoff_verdict;

/* Returns the verdict of a sign-off whose steps all passed with every run
 * as expected (steps_ok) or not, where fit of total runs fit: FAIL when
 * !steps_ok; INCOMPLETE when no run ran or fit * 100 < min_fit * total;
 * PASS otherwise. */
signoff_verdict signoff_verdict_judge(int steps_ok, size_t fit, size_t total, int min_fit);

/* Returns "PASS", "FAIL" or "INCOMPLETE". */
const char *signoff_verdict_name(signoff_verdict v);

/* Returns the exit status of verdict v (SIGNOFF_PASS, _FAIL, _INCOMPLETE). */
int signoff_verdict_status(signoff_verdict v);

/* Returns the malloc'ed one-line statement of how much ran beside verdict
 * v: "120 of 192 runs fit (62.5 %; floor --min-fit 50 %)", with why an
 * INCOMPLETE is one, or that the regression did not run (ran 0). */
char *signoff_verdict_text(signoff_verdict v, int ran, size_t fit, size_t total, int min_fit);

/* Returns SIGNOFF_PASS when every step passed, every run met its
 * expectation and at least o->min_fit percent of the runs fit;
 * SIGNOFF_INCOMPLETE when only the last does not hold; SIGNOFF_FAIL
 * otherwise (DIR/report.md says why); or SIGNOFF_ERR_INPUT (an unreadable
 * A.ini or suite, DIR not writable, not the project's root directory; the
 * message on stderr). Prints progress on stderr and the verdict with the
 * fit ratio and the report's paths on stdout. */
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
  const char *arch, *dir, *suite, *testplan;
  char adir[SIGNOFF_DIRLEN];     /* absolute DIR */
  char rtl[SIGNOFF_DIRLEN + 8];  /* absolute DIR/rtl */
  char covbin[4400];             /* the coverage harness (the harness cache) */
  char covlog[4400];             /* its build.log in the harness cache */
  signoff_step st[SIGNOFF_ST_N];
  char cells[SIGNOFF_MAX_MODULES][3][64]; /* module, cells, variants */
  int ncells;
  long total_cells;
  signoff_cov cov[SIGNOFF_MAX_MODULES + 1]; /* [0]: total */
  int ncov;
  regress_list runs;
  int jobs, timeout;
  int min_fit;    /* --min-fit */
  double seconds; /* wall time of the whole sign-off */
  fcov_set fcov;  /* the regression's functional coverage (DIR/regress/fcov.json) */
  int html;       /* genhtml wrote DIR/coverage-html/index.html */
  testplan plan;  /* the testplan (docs/testplan.md), read before the steps */
  testplan_stat *tp; /* its measure on the regression (plan.n), or NULL */
} signoff_state;

/* Returns the exit status of argv run as the step `what` with stdout and
 * stderr appended to log, the environment variables env[0]=env[1], ...
 * (NULL-terminated pairs) set, a heartbeat on stderr every 30 s naming
 * live (NULL: log), the file that grows while it runs (common/step.h);
 * -1 when it cannot run or is killed. */
int signoff_exec(const char *what, char *const *argv, const char *log, const char *live, const char *const *env);

/* Returns buf (SIGNOFF_PATH bytes) holding "DIR/name". */
char *signoff_path(char *buf, const signoff_state *s, const char *name);

/* Step 6 (signoff_cov.c): merges the counters of DIR/cov into
 * DIR/coverage.dat and counts them per module into s->cov; sets the
 * step's outcome. */
void signoff_coverage(signoff_state *s);

/* Returns 0 after writing DIR/report.md and DIR/report.html
 * (signoff_report.c) with verdict v; -1. */
int signoff_report_write(const signoff_state *s, signoff_verdict v);

#endif
