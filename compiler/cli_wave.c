/*
 * cli_wave.c: `tcpa wave RUNDIR [--print] [--model]` (docs/user-guide.md,
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
#include "fileio.h"

#define WAVE_PATH 4200

/* Prints the usage of `tcpa wave` to f. */
static void wave_usage(FILE *f) {
  fputs("usage: tcpa wave RUNDIR [--print] [--model]\n\n"
        "Opens GTKWave on the waveform of a run directory (tcpa run --out-dir, or\n"
        "its repro/ bundle): RUNDIR/rtl.fst, else RUNDIR/model.fst, with\n"
        "RUNDIR/divergence.gtkw when present (marker at the divergence).\n\n"
        "  --print   only print the command\n"
        "  --model   prefer the C model's waveform model.fst\n"
        "  -h, --help  print this help\n\n"
        "The viewer is $TCPA_GTKWAVE when set, else gtkwave.\n"
        "exit status: 0 printed (or the viewer's), 2 no waveform or no viewer\n", f);
}

/* Returns 1 when path is a readable regular file. */
static int wave_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

/* Returns 0 after reading the command line into *dir, *print and *model,
 * 1 for --help, -1 after printing what is wrong. */
static int wave_parse(int argc, char **argv, const char **dir, int *print, int *model) {
  enum { OPT_PRINT = CLI_OPT_LONG, OPT_MODEL };
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                           {"print", no_argument, NULL, OPT_PRINT},
                                           {"model", no_argument, NULL, OPT_MODEL},
                                           {NULL, 0, NULL, 0}};
  cli_opt p;
  cli_opt_init(&p, "wave", argc, argv, "h", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    if (c == 'h') return 1;
    if (c == OPT_PRINT) {
      *print = 1;
    } else if (c == OPT_MODEL) {
      *model = 1;
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

int cli_wave(int argc, char **argv) {
  const char *dir = NULL;
  int print = 0, model = 0;
  int r = wave_parse(argc, argv, &dir, &print, &model);
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
