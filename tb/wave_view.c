/*
 * wave_view.c: `tcpa wave RUNDIR [--print] [--model] [--compare]` after its
 * options are read (wave_view.h; docs/user-guide.md, "Looking at a
 * mismatch"): opens GTKWave on the waveform a run left in
 * RUNDIR (its --out-dir, or the repro/ bundle of a failing cosim run) with
 * the run's save file.
 *
 * The waveform is RUNDIR/rtl.fst (written by --engine rtl, and by cosim
 * around a divergence), else RUNDIR/model.fst (the C model's, same signal
 * names; --model picks it first). The save file is RUNDIR/divergence.gtkw
 * when there is one (marker at the divergence, the PE's signals). The
 * command `gtkwave FST [GTKW]` is printed on stdout, then run in place of
 * tcpa (exec); --print only prints it. The viewer is wave_view_opts.viewer
 * (cli_wave.c: $TCPA_GTKWAVE) when set, else `gtkwave` from the PATH. Exit 2 when RUNDIR is not a directory
 * or holds no waveform, or when the viewer cannot be started.
 *
 * --compare merges RUNDIR/rtl.fst and RUNDIR/model.fst into
 * RUNDIR/compare.fst (engine_cosim_compare, tb/wave_merge.h: both sides
 * under scopes `rtl` and `model`, mismatch signals, decoded instructions)
 * and opens it with RUNDIR/compare.gtkw: the one a cosim divergence wrote
 * (newer than both FSTs), else one written here around the first cycle
 * where the two differ (all of it when they agree).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "engine.h"
#include "fileio.h"
#include "wave_view.h"
#include "../tb/wave_merge.h"

#define WAVE_PATH 4200

/* Returns 1 when path is a readable regular file. */
static int wave_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

/* Returns 1 when file a exists and was modified after file b. */
static int wave_newer(const char *a, const char *b) {
  struct stat sa, sb;
  if (stat(a, &sa) || stat(b, &sb)) return 0;
  return sa.st_mtim.tv_sec != sb.st_mtim.tv_sec ? sa.st_mtim.tv_sec > sb.st_mtim.tv_sec
                                                : sa.st_mtim.tv_nsec > sb.st_mtim.tv_nsec;
}

/* Returns 0 after writing dir/compare.fst from rtl and mod (and
 * dir/compare.gtkw when there is none; its path in gtkw); else the exit
 * status after a message. */
static int wave_compare(const char *dir, const char *rtl, const char *mod, char *gtkw, size_t gtkwsz) {
  char msg[600];
  if (!wave_file(rtl) || !wave_file(mod)) {
    diag_error_plain("wave: --compare needs both %s and %s (a cosim run writes them at a divergence; "
                     "--engine rtl and --engine model each write one)", rtl, mod);
    return WAVE_VIEW_INPUT;
  }
  snprintf(gtkw, gtkwsz, "%s/compare.gtkw", dir);
  int rc;
  if (wave_newer(gtkw, rtl) && wave_newer(gtkw, mod)) { /* a cosim divergence's: keep it, refresh the FST */
    char out[WAVE_PATH], rtr[WAVE_PATH], mtr[WAVE_PATH];
    wave_merge_info info;
    snprintf(out, sizeof out, "%s/compare.fst", dir);
    snprintf(rtr, sizeof rtr, "%s/rtl.trace", dir);
    snprintf(mtr, sizeof mtr, "%s/model.trace", dir);
    rc = wave_merge_write(rtl, mod, rtr, mtr, out, &info, msg, sizeof msg) ? -1 : 0;
  } else {
    rc = engine_cosim_compare(dir, NULL, NULL, ENGINE_WINDOW_DEFAULT, stderr, msg, sizeof msg);
  }
  if (rc) diag_error_plain("wave: --compare: %s", msg);
  return rc ? WAVE_VIEW_INPUT : 0;
}

/* Returns the outcome of the request o (wave_view.h). */
int wave_view_run(const wave_view_opts *o) {
  struct stat st;
  const char *dir = o->dir;
  int model = o->model;
  if (!dir) {
    diag_error_plain("wave: no RUNDIR given (usage: tcpa wave RUNDIR; see 'tcpa wave --help')");
    return WAVE_VIEW_INPUT;
  }
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    diag_error_plain("wave: %s: not a directory (give the --out-dir of a tcpa run)", dir);
    return WAVE_VIEW_INPUT;
  }
  char rtl[WAVE_PATH], mod[WAVE_PATH], gtkw[WAVE_PATH];
  snprintf(rtl, sizeof rtl, "%s/rtl.fst", dir);
  snprintf(mod, sizeof mod, "%s/model.fst", dir);
  snprintf(gtkw, sizeof gtkw, "%s/divergence.gtkw", dir);
  if (o->compare) {
    int rc = wave_compare(dir, rtl, mod, gtkw, sizeof gtkw);
    if (rc) return rc;
    snprintf(rtl, sizeof rtl, "%s/compare.fst", dir);
    model = 0;
  }
  const char *fst = model && wave_file(mod) ? mod : wave_file(rtl) ? rtl : wave_file(mod) ? mod : NULL;
  if (!fst) {
    diag_error_plain("wave: %s holds no waveform (neither rtl.fst nor model.fst): a cosim run writes them at a "
                     "divergence, --engine rtl and --engine model always, all with --out-dir", dir);
    return WAVE_VIEW_INPUT;
  }
  const char *viewer = o->viewer && *o->viewer ? o->viewer : "gtkwave";
  char *args[] = {(char *)viewer, (char *)fst, wave_file(gtkw) ? gtkw : NULL, NULL};
  for (int i = 0; args[i]; i++) {
    if (i) fputc(' ', stdout);
    fileio_shell_quote(stdout, args[i]);
  }
  fputc('\n', stdout);
  fflush(stdout);
  if (o->print) return WAVE_VIEW_OK;
  execvp(viewer, args);
  diag_error_plain("wave: cannot run %s: %s (install the gtkwave package, or set TCPA_GTKWAVE)", viewer,
                   strerror(errno));
  return WAVE_VIEW_INPUT;
}
