/*
 * plot.c: runs gnuplot on a script and publishes its picture atomically
 * (plot.h). gnuplot is a package of scripts/setup.sh; it runs as a child
 * process (engine_harness_spawn), its output file renamed from OUT.tmp.
 */
#include "plot.h"

#include <stdio.h>

#include "diag.h"
#include "engine.h"

int plot_gnuplot_run(const char *who, const char *gp, const char *out) {
  char *argv[] = {"gnuplot", (char *)gp, NULL};
  int rc = engine_harness_spawn(argv, -1, -1);
  char tmp[4400];
  snprintf(tmp, sizeof tmp, "%s.tmp", out);
  if (rc != 0 || rename(tmp, out) != 0) {
    diag_error_plain("%s: gnuplot %s failed (exit %d): is gnuplot installed (scripts/setup.sh)?", who, gp, rc);
    remove(tmp);
    return -1;
  }
  return 0;
}
