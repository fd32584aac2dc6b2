/*
 * cli_compile.c: `tcpa compile PROG.pla [--arch A.ini] [--map I[,J]] -o P.sym`
 * (docs/symbolic.md): reads the options into a compile_opts and runs the
 * request (compile_run, compile.c: parse, check, map, report, write).
 * Exit 0, 2 invalid input, 3 does not fit (the resource named).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opt.h"
#include "compile.h"
#include "diag.h"
#include "inst.h"

/* Prints the usage of `tcpa compile` to f. */
static void cli_compile_usage(FILE *f) {
  fputs("usage: tcpa compile PROG.pla [--arch A.ini] [--map I[,J]] [--rows] [--no-tile1]\n"
        "                    [--disable LIST] [--pad] [--pes RxC --param NAME=VALUE...] [--bounds]\n"
        "                    [-v]"
        "                    -o P.sym\n\n"
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
        "  --pes RxC, --param NAME=VALUE\n"
        "                instantiate every attempt of the mapping search on that region\n"
        "                with those parameter values, as tcpa run does: the .sym written\n"
        "                is the mapping tcpa run chooses (without: an attempt fits when it\n"
        "                maps; docs/symbolic.md \"The mapping search\")\n"
        "  --bounds      print first, per resource, the least any mapping of the program on\n"
        "                the region needs (lower bounds, docs/symbolic.md \"Lower bounds\")\n"
        "  -v, --verbose print each attempt of the mapping search and why it was dropped\n"
        "  -o P.sym      output file\n"
        "  -h, --help    print this help\n\n"
        "exit status: 0 written, 2 invalid input, 3 does not fit the architecture\n",
        f);
}

#define CLI_COMPILE_MAX_PARAMS 32

/* --pes and --param: what inst_check instantiates each attempt with. */
typedef struct {
  int rows, cols, nparam;
  char *pname[CLI_COMPILE_MAX_PARAMS];
  int64_t pval[CLI_COMPILE_MAX_PARAMS];
  inst_check_ctx ctx;
} cli_compile_inst;

/* Returns 0 after reading --param NAME=VALUE of p into ci; -1 after
 * printing what is wrong. */
static int cli_compile_param(const cli_opt *p, cli_compile_inst *ci) {
  const char *val;
  if (ci->nparam >= CLI_COMPILE_MAX_PARAMS) {
    diag_error_plain("compile: --param: more than %d given", CLI_COMPILE_MAX_PARAMS);
    return -1;
  }
  if (cli_opt_pair(p, "VALUE", &ci->pname[ci->nparam], &val)) return -1;
  char *end;
  long long x = strtoll(val, &end, 0);
  ci->nparam++;
  if (*end || !*val) {
    diag_error_plain("compile: --param %s: '%s' is not an integer", ci->pname[ci->nparam - 1], val);
    return -1;
  }
  ci->pval[ci->nparam - 1] = x;
  return 0;
}

/* Returns 0 after reading the command line into *o (and --pes, --param
 * into *ci), 1 for --help, -1 after printing what is wrong. */
static int cli_compile_parse(int argc, char **argv, compile_opts *o, cli_compile_inst *ci) {
  enum { OPT_ARCH = CLI_OPT_LONG, OPT_MAP, OPT_ROWS, OPT_NO_TILE1, OPT_DISABLE, OPT_PAD, OPT_PES, OPT_PARAM, OPT_BOUNDS };
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                           {"arch", required_argument, NULL, OPT_ARCH},
                                           {"map", required_argument, NULL, OPT_MAP},
                                           {"rows", no_argument, NULL, OPT_ROWS},
                                           {"no-tile1", no_argument, NULL, OPT_NO_TILE1},
                                           {"disable", required_argument, NULL, OPT_DISABLE},
                                           {"pad", no_argument, NULL, OPT_PAD},
                                           {"verbose", no_argument, NULL, 'v'},
                                           {"pes", required_argument, NULL, OPT_PES},
                                           {"param", required_argument, NULL, OPT_PARAM},
                                           {"bounds", no_argument, NULL, OPT_BOUNDS},
                                           {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  cli_opt p;
  cli_opt_init(&p, "compile", argc, argv, "hvo:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    switch (c) {
    case 'h': return 1;
    case 'o': o->out = p.arg; break;
    case OPT_ARCH: o->arch = p.arg; break;
    case OPT_MAP: o->map = p.arg; break;
    case OPT_ROWS: o->axis = 1; break;
    case OPT_NO_TILE1: o->mopts.no_tile1 = 1; break;
    case OPT_PAD: o->mopts.pad = 1; break;
    case 'v': o->verbose = 1; break;
    case OPT_BOUNDS: o->bounds = 1; break;
    case OPT_PARAM:
      if (cli_compile_param(&p, ci)) return -1;
      break;
    case OPT_PES: {
      char x, end;
      if (sscanf(p.arg, "%d%c%d%c", &ci->rows, &x, &ci->cols, &end) != 3 || (x != 'x' && x != 'X') || ci->rows < 1 ||
          ci->cols < 1) {
        diag_error_plain("compile: --pes '%s' is not RxC (e.g. 1x4)", p.arg);
        return -1;
      }
      break;
    }
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
  if (ci->nparam && !ci->rows) {
    diag_error_plain("compile: --param instantiates the attempts on a region: give --pes RxC too");
    return -1;
  }
  if (ci->rows) {
    ci->ctx = (inst_check_ctx){NULL, ci->nparam, ci->pname, ci->pval, ci->rows, ci->cols};
    o->check = inst_check;
    o->check_ctx = &ci->ctx;
    o->pes_rows = &ci->ctx.rows;
    o->pes_cols = &ci->ctx.cols;
  }
  return 0;
}

int cli_compile(int argc, char **argv) {
  compile_opts o;
  cli_compile_inst ci = {0};
  int r = cli_compile_parse(argc, argv, &o, &ci);
  int st = r > 0 ? (cli_compile_usage(stdout), CLI_EXIT_OK) : r < 0 ? CLI_EXIT_INPUT : compile_run(&o);
  for (int i = 0; i < ci.nparam; i++) free(ci.pname[i]);
  return st;
}
