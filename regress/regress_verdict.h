/*
 * regress_verdict.h: the verdict of one run of `tcpa regress` from how
 * `tcpa run` ended (exit status, signal, timeout) and the files it left in
 * the run's directory: summary.json (the fields of docs/user-guide.md:
 * status, divergence_record, mismatches, faults, cycles and their
 * predictions) for the failure signature and the numbers of the
 * report, and for a run that does not fit its no-fit record ("nofit")
 * and the message made from it ("nofit_message"); stderr.txt only for the
 * message shown of another run (its first error line). Verdicts and
 * signatures never come from log text: they come from summary.json's
 * fields.
 */
#ifndef TCPA_REGRESS_VERDICT_H
#define TCPA_REGRESS_VERDICT_H

#include "regress.h"
#include "regress_json.h"

/* How a run's process ended. */
typedef struct {
  int exit_code;   /* -1 when killed by a signal */
  int term_signal; /* the signal, or 0 */
  int timed_out;   /* killed by the regression after its timeout */
  double seconds;  /* wall time */
} regress_exit;

/* Sets r's verdict, ok, message, signature and numbers from x and the
 * files in r->dir. */
void regress_verdict_judge(regress_run *r, const regress_exit *x);

/* Fills sig from summary.json's divergence_record rec (its kind, unit,
 * unit_class and diff; docs/user-guide.md); returns 0, or -1 (sig
 * untouched) when rec is not such a record. The one-line `divergence`
 * beside it is for people and is never read. */
int regress_verdict_divergence(const regress_json *rec, regress_signature *sig);

/* Returns the pipeline stage of a trace event kind (docs/trace.md):
 * control, issue, operand read, write-back, interconnect, output, memory,
 * fault, done; "unknown" for another word. */
const char *regress_verdict_stage(const char *kind);

#endif
