/*
 * regress_report.h: what `tcpa regress` writes into its output directory
 * (docs/regress.md "Outputs"): junit.xml (one testsuite per suite, one
 * testcase per run), summary.json (every run with its spec, verdict,
 * signature and numbers, the counts and the failure buckets) and a
 * self-contained report.html (tables and inline SVG plots: cycles against
 * PEs, instantiation time against PEs; the ten slowest runs; relative
 * links to each run's log, divergence report and waveforms). summary.json can be read back
 * (regress_report_load) for --merge and --rerun-failed.
 */
#ifndef TCPA_REGRESS_REPORT_H
#define TCPA_REGRESS_REPORT_H

#include "regress.h"

/* What the report says about how the regression was run. */
typedef struct {
  const char *title; /* heads the HTML */
  const char *shard; /* "K/N" or NULL: recorded in summary.json */
  int time_inst;     /* 1: instantiation was timed (else --no-time-instantiate) */
  int merged;        /* 1: a --merge of earlier regressions (nothing ran) */
  double harness_seconds; /* elapsed seconds building harnesses before the runs */
} regress_report_info;

/* Returns 0 after writing junit.xml, summary.json and report.html of l
 * into dir (each atomically); -1 after an error. The report embeds the
 * functional coverage of dir/fcov.json when it exists. */
int regress_report_write(const regress_list *l, const char *dir, const regress_report_info *info);

/* Returns the malloc'ed bucket key of a signature: its one-line text with
 * its unit class in place of the unit (the root cause: event kind and
 * unit class, not its coordinates): "side n bank 0" and "side w bank 0"
 * are both "bank", "FU 1 -> rd3" is "FU -> rd". */
char *regress_report_bucket_key(const regress_signature *s);

/* Returns 0 after appending the runs of an earlier summary.json (written
 * by regress_report_write) to l; -1 after an error. */
int regress_report_load(const char *path, regress_list *l);

/* Returns the number of failure buckets of l (runs not ok, by key). */
size_t regress_report_buckets(const regress_list *l);

/* Returns the runs of l that did not fit at a lower bound (no mapping
 * fits: the architecture's shortfall, fit_record_at_bound); the other
 * nofit runs fail above their bounds (the compiler's). */
size_t regress_report_nofit_at_bound(const regress_list *l);

#endif
