/*
 * cli_compile.c: `tcpa compile PROG.pla [--arch A.ini] [--map I[,J]] -o P.sym`
 * (docs/symbolic.md): reads the options into a compile_opts and runs the
 * request (compile_run, compile.c: parse, check, map, report, write).
 * Exit 0, 2 invalid input, 3 does not fit (the resource named).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_opt.h"
#include "compile.h"
#include "diag.h"

/* Prints the usage of `tcpa compile` to f. */
static void cli_compile_usage(FILE *f) {
  fputs("usage: tcpa compile PROG.pla [--arch A.ini] [--map I[,J]] [--rows] [--no-tile1]\n"
        "                    [--disable LIST] [--pad] -o P.sym\n\n"
        "Maps a loop program symbolically (tile size p and region size t stay\n"
        "parameters) and writes the symbolic configuration.\n\n"
        "  --arch A.ini  architecture configuration (default: the embedded default)\n"
        "  --map I       the loop dimension tiled onto the PEs (index name or number; default 0)\n"
        "  --map I,J     a 2-D region: I tiled onto the rows, J onto the columns\n"
        "  --rows        map onto an Rx1 region (default 1xC)\n"
        "  --no-tile1    keep the smallest tile size at max |d| + 1 (no tile size 1; for\n"
        "                comparing with it, docs/symbolic.md)\n"
        "  --disable LIST  turn off the mapper's rewrites in LIST (comma-separated: cse,\n"
        "                forward, dests, share, reread; for comparing, docs/symbolic.md)\n"
        "  --pad         map the program with its accumulations padded (`s = 0 + x` where\n"
        "                an accumulation starts: one producer, one fd), as tcpa run does\n"
        "                when the program as written does not instantiate (docs/symbolic.md)\n"
        "  -o P.sym      output file\n"
        "  -h, --help    print this help\n\n"
        "exit status: 0 written, 2 invalid input, 3 does not fit the architecture\n",
        f);
}

/* Returns 0 after reading the command line into *o, 1 for --help, -1 after
 * printing what is wrong. */
static int cli_compile_parse(int argc, char **argv, compile_opts *o) {
  enum { OPT_ARCH = CLI_OPT_LONG, OPT_MAP, OPT_ROWS, OPT_NO_TILE1, OPT_DISABLE, OPT_PAD };
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                           {"arch", required_argument, NULL, OPT_ARCH},
                                           {"map", required_argument, NULL, OPT_MAP},
                                           {"rows", no_argument, NULL, OPT_ROWS},
                                           {"no-tile1", no_argument, NULL, OPT_NO_TILE1},
                                           {"disable", required_argument, NULL, OPT_DISABLE},
                                           {"pad", no_argument, NULL, OPT_PAD},
                                           {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  cli_opt p;
  cli_opt_init(&p, "compile", argc, argv, "ho:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    switch (c) {
    case 'h': return 1;
    case 'o': o->out = p.arg; break;
    case OPT_ARCH: o->arch = p.arg; break;
    case OPT_MAP: o->map = p.arg; break;
    case OPT_ROWS: o->axis = 1; break;
    case OPT_NO_TILE1: o->mopts.no_tile1 = 1; break;
    case OPT_PAD: o->mopts.pad = 1; break;
    case OPT_DISABLE: {
      char msg[256];
      if (map_opts_off_parse(p.arg, &o->mopts.off, msg, sizeof msg)) {
        diag_error_plain("compile: --disable: %s", msg);
        return -1;
      }
      break;
    }
    case CLI_OPT_ARG:
      if (o->path) {
        diag_error_plain("compile: one program at a time: '%s' after '%s'", p.arg, o->path);
        return -1;
      }
      o->path = p.arg;
      break;
    default: return -1;
    }
  }
  if (!o->path || !o->out) {
    diag_error_plain("compile: %s", o->path ? "no output file given (-o P.sym)" : "no program given");
    cli_compile_usage(stderr);
    return -1;
  }
  return 0;
}

int cli_compile(int argc, char **argv) {
  compile_opts o;
  int r = cli_compile_parse(argc, argv, &o);
  if (r) {
    if (r > 0) cli_compile_usage(stdout);
    return r > 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT;
  }
  return compile_run(&o);
}
