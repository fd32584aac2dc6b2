/*
 * cli_wave.c: `tcpa wave RUNDIR [--print] [--model] [--compare]` (docs/user-guide.md,
 * "Looking at a mismatch"): opens GTKWave on the waveform a run left in
 * RUNDIR (its --out-dir, or the repro/ bundle of a failing cosim run) with
 * the run's save file.
 *
 * The waveform is RUNDIR/rtl.fst (written by --engine rtl, and by cosim
 * around a divergence), else RUNDIR/model.fst (the C model's, same signal
 * names; --model picks it first). The save file is RUNDIR/divergence.gtkw
 * when there is one (marker at the divergence, the PE's signals). The
 * command `gtkwave FST [GTKW]` is printed on stdout, then run in place of
 * tcpa (exec); --print only prints it. The viewer is $TCPA_GTKWAVE when
 * set, else `gtkwave` from the PATH. Exit 2 when RUNDIR is not a directory
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

#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "engine.h"
#include "fileio.h"
#include "wave_merge.h"

#define WAVE_PATH 4200

/* Prints the usage of `tcpa wave` to f. */
static void wave_usage(FILE *f) {
  fputs("usage: tcpa wave RUNDIR [--print] [--model] [--compare]\n\n"
        "Opens GTKWave on the waveform of a run directory (tcpa run --out-dir, or\n"
        "its repro/ bundle): RUNDIR/rtl.fst, else RUNDIR/model.fst, with\n"
        "RUNDIR/divergence.gtkw when present (marker at the divergence).\n\n"
        "  --print   only print the command\n"
        "  --model   prefer the C model's waveform model.fst\n"
        "  --compare merge rtl.fst and model.fst into compare.fst (model and RTL\n"
        "            side by side, mismatch signals) and open it with compare.gtkw\n"
        "  -h, --help  print this help\n\n"
        "The viewer is $TCPA_GTKWAVE when set, else gtkwave.\n"
        "exit status: 0 printed (or the viewer's), 2 no waveform or no viewer\n", f);
}

/* Returns 1 when path is a readable regular file. */
static int wave_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

/* Returns 0 after reading the command line into *dir, *print, *model and
 * *compare, 1 for --help, -1 after printing what is wrong. */
static int wave_parse(int argc, char **argv, const char **dir, int *print, int *model, int *compare) {
  enum { OPT_PRINT = CLI_OPT_LONG, OPT_MODEL, OPT_COMPARE };
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                           {"print", no_argument, NULL, OPT_PRINT},
                                           {"model", no_argument, NULL, OPT_MODEL},
                                           {"compare", no_argument, NULL, OPT_COMPARE},
                                           {NULL, 0, NULL, 0}};
  cli_opt p;
  cli_opt_init(&p, "wave", argc, argv, "h", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    if (c == 'h') return 1;
    if (c == OPT_PRINT) {
      *print = 1;
    } else if (c == OPT_MODEL) {
      *model = 1;
    } else if (c == OPT_COMPARE) {
      *compare = 1;
    } else if (c != CLI_OPT_ARG) {
      return -1;
    } else if (*dir) {
      diag_error_plain("wave: more than one RUNDIR ('%s' and '%s')", *dir, p.arg);
      return -1;
    } else {
      *dir = p.arg;
    }
  }
  return 0;
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
    return CLI_EXIT_INPUT;
  }
  snprintf(gtkw, gtkwsz, "%s/compare.gtkw", dir);
  int rc;
  if (wave_newer(gtkw, rtl) && wave_newer(gtkw, mod)) { /* a cosim divergence's: keep it, refresh the FST */
    char out[WAVE_PATH];
    wave_merge_info info;
    snprintf(out, sizeof out, "%s/compare.fst", dir);
    rc = wave_merge_write(rtl, mod, out, &info, msg, sizeof msg) ? -1 : 0;
  } else {
    rc = engine_cosim_compare(dir, NULL, NULL, ENGINE_WINDOW_DEFAULT, stderr, msg, sizeof msg);
  }
  if (rc) diag_error_plain("wave: --compare: %s", msg);
  return rc ? CLI_EXIT_INPUT : 0;
}

int cli_wave(int argc, char **argv) {
  const char *dir = NULL;
  int print = 0, model = 0, compare = 0;
  int r = wave_parse(argc, argv, &dir, &print, &model, &compare);
  if (r) {
    if (r > 0) wave_usage(stdout);
    return r > 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT;
  }
  struct stat st;
  if (!dir) {
    diag_error_plain("wave: no RUNDIR given (usage: tcpa wave RUNDIR; see 'tcpa wave --help')");
    return CLI_EXIT_INPUT;
  }
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    diag_error_plain("wave: %s: not a directory (give the --out-dir of a tcpa run)", dir);
    return CLI_EXIT_INPUT;
  }
  char rtl[WAVE_PATH], mod[WAVE_PATH], gtkw[WAVE_PATH];
  snprintf(rtl, sizeof rtl, "%s/rtl.fst", dir);
  snprintf(mod, sizeof mod, "%s/model.fst", dir);
  snprintf(gtkw, sizeof gtkw, "%s/divergence.gtkw", dir);
  if (compare) {
    int rc = wave_compare(dir, rtl, mod, gtkw, sizeof gtkw);
    if (rc) return rc;
    snprintf(rtl, sizeof rtl, "%s/compare.fst", dir);
    model = 0;
  }
  const char *fst = model && wave_file(mod) ? mod : wave_file(rtl) ? rtl : wave_file(mod) ? mod : NULL;
  if (!fst) {
    diag_error_plain("wave: %s holds no waveform (neither rtl.fst nor model.fst): a cosim run writes them at a "
                     "divergence, --engine rtl and --engine model always, all with --out-dir", dir);
    return CLI_EXIT_INPUT;
  }
  const char *viewer = getenv("TCPA_GTKWAVE");
  if (!viewer || !*viewer) viewer = "gtkwave";
  char *args[] = {(char *)viewer, (char *)fst, wave_file(gtkw) ? gtkw : NULL, NULL};
  for (int i = 0; args[i]; i++) {
    if (i) fputc(' ', stdout);
    fileio_shell_quote(stdout, args[i]);
  }
  fputc('\n', stdout);
  fflush(stdout);
  if (print) return CLI_EXIT_OK;
  execvp(viewer, args);
  diag_error_plain("wave: cannot run %s: %s (install the gtkwave package, or set TCPA_GTKWAVE)", viewer,
                   strerror(errno));
  return CLI_EXIT_INPUT;
}
