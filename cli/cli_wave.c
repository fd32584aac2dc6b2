/*
 * cli_wave.c: `tcpa wave RUNDIR [--print] [--model] [--compare]`
 * (docs/user-guide.md, "Looking at a mismatch"): reads the options into a
 * wave_view_opts, the viewer from $TCPA_GTKWAVE, and runs the request
 * (wave_view_run, wave_view.c: the waveform, the save file, the viewer).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "wave_view.h"

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

int cli_wave(int argc, char **argv) {
  wave_view_opts o = {0};
  int r = wave_parse(argc, argv, &o.dir, &o.print, &o.model, &o.compare);
  if (r) {
    if (r > 0) wave_usage(stdout);
    return r > 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT;
  }
  o.viewer = getenv("TCPA_GTKWAVE");
  return wave_view_run(&o);
}
