/*
 * signoff_nofit.h: what the message of a run that does not fit (exit 3)
 * says about the resource that ran out: its name, how much the program
 * needs and how much the configuration has, for the sign-off report's
 * "Programs that do not fit" table, and the cells of its table of fit per
 * program and region (signoff_report.c).
 */
#ifndef SIGNOFF_NOFIT_H
#define SIGNOFF_NOFIT_H

#include <stddef.h>

#include "regress.h"

typedef struct {
  char resource[64]; /* "pe.rd", "I/O channels", ...; "" when unknown */
  long need, have;   /* -1 when unknown */
} signoff_nofit;

/* Returns what msg (the text after "does not fit: ", or NULL) says. */
signoff_nofit signoff_nofit_parse(const char *msg);

/* Returns 1 when a run of verdict v (regress_verdict) was mapped and
 * instantiated, i.e. fits: it passed, failed, timed out or crashed; 0 for
 * a run that does not fit (exit 3), an invalid one (exit 2) or one not run. */
int signoff_fit_verdict(int v);

/* Returns the runs of l that fit (signoff_fit_verdict). */
size_t signoff_fit_count(const regress_list *l);

/* Returns "row" or "column" for the line ("1x2", "4x1": regress_run's
 * line) a program of one loop dimension ran on in an RxC region; NULL for
 * NULL (any other run). */
const char *signoff_fit_line(const char *line);

/* Writes into buf (size n) the cell of the sign-off report's fit table for
 * a run of verdict v (regress_verdict), message msg and line (regress_run's,
 * NULL for none): "fits" (with "(row)" or "(column)" when it ran on a line
 * of an RxC region, with the verdict when it is not pass), the resource
 * that ran out with need/have ("pe.rd 5/4"), "invalid" or "not run".
 * Returns buf. */
char *signoff_fit_cell(int v, const char *msg, const char *line, char *buf, size_t n);

#endif
