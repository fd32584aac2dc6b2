/*
 * wave_view.h: `tcpa wave` as a library (docs/user-guide.md, "Looking at a
 * mismatch"): finds the waveform and the save file a run left in its
 * directory, merges model and RTL for --compare, prints the viewer's
 * command line and runs the viewer in place of the process.
 */
#ifndef TCPA_WAVE_VIEW_H
#define TCPA_WAVE_VIEW_H

/* The request (`tcpa wave --help`). */
typedef struct {
  const char *dir;    /* RUNDIR (NULL: refused) */
  const char *viewer; /* the viewer program (NULL or "": gtkwave) */
  int print;          /* 1: only print the command */
  int model;          /* 1: prefer model.fst */
  int compare;        /* 1: merge rtl.fst and model.fst into compare.fst */
} wave_view_opts;

/* The outcomes of wave_view_run: the exit statuses of `tcpa wave`. */
enum { WAVE_VIEW_OK = 0, WAVE_VIEW_INPUT = 2 };

/* Returns WAVE_VIEW_OK after printing the command (with o->print), else
 * does not return when the viewer starts; WAVE_VIEW_INPUT after a message
 * when RUNDIR is not a directory, holds no waveform, or the viewer cannot
 * be started. */
int wave_view_run(const wave_view_opts *o);

#endif
