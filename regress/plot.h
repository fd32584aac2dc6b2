/*
 * plot.h: pictures drawn by gnuplot (docs/profile.md's heat map,
 * docs/explore.md's Pareto front): a script that writes its picture to
 * OUT.tmp is run, and OUT.tmp renamed to OUT once gnuplot succeeded, so a
 * picture is either whole or absent.
 */
#ifndef TCPA_PLOT_H
#define TCPA_PLOT_H

/* Returns 0 after running gnuplot on the script gp (which must set its
 * output to out with ".tmp" appended) and renaming that file to out; -1
 * after printing `WHO: gnuplot GP failed (exit N)` and removing it. */
int plot_gnuplot_run(const char *who, const char *gp, const char *out);

#endif
