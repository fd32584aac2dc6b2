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

/* Returns 0 after writing junit.xml, summary.json and report.html of l
 * into dir (each atomically); -1 after an error. `title` heads the HTML;
 * `shard` ("K/N") or NULL is recorded in summary.json. */
int regress_report_write(const regress_list *l, const char *dir, const char *title, const char *shard);

/* Returns 0 after appending the runs of an earlier summary.json (written
 * by regress_report_write) to l; -1 after an error. */
int regress_report_load(const char *path, regress_list *l);

/* Returns the number of distinct failure signatures of l (runs not ok). */
size_t regress_report_buckets(const regress_list *l);

#endif
