/*
 * signoff_nofit.h: what the sign-off report says about a run that does not
 * fit (exit 3), from its no-fit record (fit.h): the resources that ran
 * out, how much the program needs and how much the configuration has, for
 * the report's "Programs that do not fit" table, and the cells of its
 * table of fit per program and region (signoff_report.c).
 */
#ifndef SIGNOFF_NOFIT_H
#define SIGNOFF_NOFIT_H

#include <stddef.h>

#include "regress.h"

/* Writes into buf (size n) the name the report gives the resource of
 * item it: its configuration key ("pe.rd"), else its resource's name
 * ("loop dimensions"); returns buf. */
const char *signoff_nofit_resource(const fit_item *it, char *buf, size_t n);

/* Fills out (max entries) with one item per resource of r, in r's order:
 * for a resource with several items (the sides of an I/O access) the one
 * closest to fitting. Returns how many (0 for r NULL). */
int signoff_nofit_items(const fit_record *r, const fit_item **out, int max);

/* Writes into buf (size n) the smallest change of the configuration that
 * the record r asks for: "raise pe.rd to 5" when one resource ran out and
 * its key sizes it; "raise pe.rd to 8 and pe.id to 5" when several did
 * (raising one would not suffice); "raise iobuf.banks" (no value) when the
 * count is not in the key's units (banks of every border side); "none:
 * the schedule is the program's" when a resource without a key ran out;
 * "" for r NULL or empty. Returns buf. */
char *signoff_nofit_change(const fit_record *r, char *buf, size_t n);

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
 * a run of verdict v (regress_verdict), no-fit record nofit (NULL: none)
 * and line (regress_run's, NULL for none): "fits" (with "(row)" or
 * "(column)" when it ran on a line of an RxC region, with the verdict when
 * it is not pass), every resource that ran out with need/have ("pe.rd 8/4,
 * pe.id 5/4"), "does not fit" without a record, "invalid" or "not run".
 * Returns buf. */
char *signoff_fit_cell(int v, const fit_record *nofit, const char *line, char *buf, size_t n);

#endif
