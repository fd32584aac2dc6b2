/*
 * cli_host.c: `tcpa host PROG.pla [--arch A.ini] [--pes RxC[@R,C]]
 * [--map I[,J]] [--param NAME=VALUE]... -o DIR` (docs/runtime.md "Host
 * programs"): reads the options into a host_gen_opts and runs the request
 * (host_gen_run, compiler/host/host_gen.c: compile, then the host program
 * and its Makefile). Exit 0, 2 invalid input, 3 does not fit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "host_gen.h"

/* Prints the usage of `tcpa host` to f. */
static void cli_host_usage(FILE *f) {
  fputs("usage: tcpa host PROG.pla [--arch A.ini] [--pes RxC[@R,C]] [--map I[,J]] [--rows]\n"
        "                 [--param NAME=VALUE]... -o DIR\n\n"
        "Compiles a loop program and writes a C host program that embeds its symbolic\n"
        "configuration and runs it through the TCPA host runtime (tcpa_rt.h), with\n"
        "the Makefile that builds it against the installed runtime (make install):\n"
        "DIR/PROG_host.c, DIR/Makefile and DIR/PROG.sym.\n\n"
        "  --arch A.ini      architecture configuration (default: the embedded default)\n"
        "  --pes RxC[@R,C]   the region the host program allocates (default 1x1@0,0)\n"
        "  --map I[,J]       the loop dimensions tiled onto the region (tcpa compile --map)\n"
        "  --rows            map onto an Rx1 region (tcpa compile --rows)\n"
        "  --param NAME=VALUE\n"
        "                    a parameter's value in the host program (its --param\n"
        "                    overrides it); with --pes, the mapping search instantiates\n"
        "                    each attempt for them, as tcpa run does\n"
        "  -o DIR            output directory (made when missing)\n"
        "  -h, --help        print this help\n\n"
        "exit status: 0 written, 2 invalid input, 3 does not fit the architecture\n",
        f);
}

/* Returns 0 after reading --param NAME=VALUE of p into o; -1 after
 * printing what is wrong. */
static int cli_host_param(const cli_opt *p, host_gen_opts *o) {
  const char *val;
  if (o->nparam >= HOST_GEN_MAX_PARAMS) {
    diag_error_plain("host: --param: more than %d given", HOST_GEN_MAX_PARAMS);
    return -1;
  }
  if (cli_opt_pair(p, "VALUE", &o->pname[o->nparam], &val)) return -1;
  o->nparam++;
  if (cli_opt_int_text(val, 1, INT32_MAX, &o->pval[o->nparam - 1])) {
    diag_error_plain("host: --param %s: '%s' is not an integer in 1 .. %d", o->pname[o->nparam - 1], val, INT32_MAX);
    return -1;
  }
  return 0;
}

/* Returns 0 after reading the command line into *o, 1 for --help, -1
 * after printing what is wrong. */
static int cli_host_parse(int argc, char **argv, host_gen_opts *o) {
  enum { OPT_ARCH = CLI_OPT_LONG, OPT_MAP, OPT_ROWS, OPT_PES, OPT_PARAM };
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                           {"arch", required_argument, NULL, OPT_ARCH},
                                           {"map", required_argument, NULL, OPT_MAP},
                                           {"rows", no_argument, NULL, OPT_ROWS},
                                           {"pes", required_argument, NULL, OPT_PES},
                                           {"param", required_argument, NULL, OPT_PARAM},
                                           {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  o->rows = o->cols = 1;
  cli_opt p;
  cli_opt_init(&p, "host", argc, argv, "ho:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    switch (c) {
    case 'h': return 1;
    case 'o': o->out_dir = p.arg; break;
    case OPT_ARCH: o->arch = p.arg; break;
    case OPT_MAP: o->map = p.arg; break;
    case OPT_ROWS: o->axis = 1; break;
    case OPT_PARAM:
      if (cli_host_param(&p, o)) return -1;
      break;
    case OPT_PES:
      if (cli_opt_pes_text(p.arg, &o->rows, &o->cols, &o->row0, &o->col0)) {
        diag_error_plain("host: --pes '%s' is not RxC[@R,C] (e.g. 1x4 or 2x2@2,0)", p.arg);
        return -1;
      }
      break;
    case CLI_OPT_ARG:
      if (o->path) {
        diag_error_plain("host: one program at a time: '%s' after '%s'", p.arg, o->path);
        return -1;
      }
      o->path = p.arg;
      break;
    default: return -1;
    }
  }
  if (!o->path || !o->out_dir) {
    diag_error_plain("host: %s", o->path ? "no output directory given (-o DIR)" : "no program given");
    cli_host_usage(stderr);
    return -1;
  }
  return 0;
}

int cli_host(int argc, char **argv) {
  host_gen_opts o;
  int r = cli_host_parse(argc, argv, &o);
  int st = r > 0 ? (cli_host_usage(stdout), CLI_EXIT_OK) : r < 0 ? CLI_EXIT_INPUT : host_gen_run(&o);
  for (int i = 0; i < o.nparam; i++) free(o.pname[i]);
  return st;
}
