/*
 * signoff_nofit.h: what the message of a run that does not fit (exit 3)
 * says about the resource that ran out: its name, how much the program
 * needs and how much the configuration has, for the sign-off report's
 * "Programs that do not fit" table (signoff_report.c).
 */
#ifndef SIGNOFF_NOFIT_H
#define SIGNOFF_NOFIT_H

typedef struct {
  char resource[64]; /* "pe.rd", "I/O channels", ...; "" when unknown */
  long need, have;   /* -1 when unknown */
} signoff_nofit;

/* Returns what msg (the text after "does not fit: ", or NULL) says. */
signoff_nofit signoff_nofit_parse(const char *msg);

#endif
