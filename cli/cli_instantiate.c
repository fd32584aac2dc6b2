/*
 * cli_instantiate.c: `tcpa instantiate P.sym --param NAME=VALUE... --pes
 * RxC -o P.bin [--listing P.lst] [--layout P.lay] [--dot P.svg] [--arch A.ini] [--in
 * NAME=FILE]... [--format bin|c-header|readmemh]` (docs/instantiate.md): reads the options into an
 * instantiate_opts and runs the request (instantiate_run, instantiate.c).
 * Exit 0 written, 2 invalid input, 3 does not fit (what, needed, available).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "instantiate.h"
#include "stream_export.h"

/* Prints the usage of `tcpa instantiate` to f. */
static void cli_inst_usage(FILE *f) {
  fputs("usage: tcpa instantiate P.sym --param NAME=VALUE... --pes RxC -o P.bin\n"
        "                        [--listing P.lst] [--layout P.lay] [--dot P.svg] [--arch A.ini]\n"
        "                        [--in NAME=FILE]...\n"
        "                        [--format bin|c-header|readmemh]\n"
        "                        [--no-fifo-check] [--share-all] [--prolog-nops] [--no-waits]\n\n"
        "Instantiates a symbolic configuration (tcpa compile) for concrete parameter\n"
        "values and a region of PEs and writes the configuration stream.\n\n"
        "  --param N=V    value of a program parameter (every one is required)\n"
        "  --pes RxC      the region: 1xC for a configuration compiled for columns, Rx1 for rows,\n"
        "                 any RxC for one compiled with --map I,J (2-D)\n"
        "                 RxC@ROW,COL: its first PE at array row ROW, column COL (default 0,0)\n"
        "  -o P.bin       the configuration stream (docs/stream.md), in the --format given\n"
        "  --format F     bin (the stream, the default), c-header (a C header with the stream as\n"
        "                 an array NAME_stream, NAME the file's name) or readmemh (the stream's\n"
        "                 words for $readmemh, and beside it P.rR.cC.SIDEB.memh, each bank's\n"
        "                 initial contents, listed in P.banks; docs/instantiate.md)\n"
        "  --listing F    processor classes, kernel classes, CFGs and programs in assembly\n"
        "  --layout F     where each output element is in the banks: ARRAY INDEX ROW COL SIDE BANK ADDR\n"
        "  --dot F        the processor classes and each class's CFGs as a Graphviz digraph;\n"
        "                 F.svg or F.png: also rendered by Graphviz's dot (F.dot beside it)\n"
        "  --arch A.ini   architecture (default: the embedded default); must match the .sym\n"
        "  --in N=FILE    values of input array N (data-file format, row-major); default zeros\n"
        "  --time         also print the wall time of instantiation and of writing the stream\n"
        "  for comparing with what they turn off (docs/instantiate.md):\n"
        "  --no-fifo-check  skip the check that no channel overflows pe.fifo_depth\n"
        "  --share-all    share kernel tails and prefixes in every program, not only those that\n"
        "                 need more than pe.imem words\n"
        "  --prolog-nops  write the prolog as sigma * pi nops, never as a loop\n"
        "  --no-waits     write every nop as a word of its own (no multi-cycle `nop N`; the\n"
        "                 prolog then loops as before waits existed)\n"
        "  -h, --help     print this help\n\n"
        "exit status: 0 written, 2 invalid input, 3 does not fit\n",
        f);
}

/* Returns 0 after reading the NAME=VALUE or NAME=FILE of p (--param, or
 * --in when in is set) into o; -1 after printing what is wrong. */
static int cli_inst_pair(const cli_opt *p, int in, instantiate_opts *o) {
  int *n = in ? &o->nin : &o->nparam;
  char **names = in ? o->in_name : o->pname;
  const char *val;
  if (*n >= INSTANTIATE_MAX) {
    diag_error_plain("instantiate: %s: more than %d given", p->name, INSTANTIATE_MAX);
    return -1;
  }
  if (cli_opt_pair(p, in ? "FILE" : "VALUE", &names[*n], &val)) return -1;
  if (in) {
    o->in_file[(*n)++] = val;
    return 0;
  }
  char *end;
  long long x = strtoll(val, &end, 0);
  if (*end) {
    diag_error_plain("instantiate: --param %s: '%s' is not an integer", names[*n], val);
    (*n)++;
    return -1;
  }
  o->pval[(*n)++] = x;
  return 0;
}

/* Returns 0 after parsing the command line, 1 for --help, -1 on error. */
static int cli_inst_parse(int argc, char **argv, instantiate_opts *o) {
  enum { OPT_PARAM = CLI_OPT_LONG, OPT_IN, OPT_PES, OPT_LISTING, OPT_LAYOUT, OPT_ARCH, OPT_TIME,
         OPT_NO_FIFO_CHECK, OPT_SHARE_ALL, OPT_PROLOG_NOPS, OPT_NO_WAITS, OPT_DOT, OPT_FORMAT };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},           {"param", required_argument, NULL, OPT_PARAM},
      {"in", required_argument, NULL, OPT_IN},     {"pes", required_argument, NULL, OPT_PES},
      {"listing", required_argument, NULL, OPT_LISTING}, {"layout", required_argument, NULL, OPT_LAYOUT},
      {"dot", required_argument, NULL, OPT_DOT},
      {"arch", required_argument, NULL, OPT_ARCH}, {"time", no_argument, NULL, OPT_TIME},
      {"no-fifo-check", no_argument, NULL, OPT_NO_FIFO_CHECK}, {"share-all", no_argument, NULL, OPT_SHARE_ALL},
      {"prolog-nops", no_argument, NULL, OPT_PROLOG_NOPS},
      {"no-waits", no_argument, NULL, OPT_NO_WAITS}, {"format", required_argument, NULL, OPT_FORMAT},
      {NULL, 0, NULL, 0}};
  cli_opt p;
  cli_opt_init(&p, "instantiate", argc, argv, "ho:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    switch (c) {
    case 'h': return 1;
    case OPT_TIME: o->time = 1; break;
    case OPT_NO_FIFO_CHECK: o->inst.no_fifo_check = 1; break;
    case OPT_SHARE_ALL: o->inst.share_all = 1; break;
    case OPT_PROLOG_NOPS: o->inst.prolog_nops = 1; break;
    case OPT_NO_WAITS: o->inst.no_waits = 1; break;
    case 'o': o->out = p.arg; break;
    case OPT_LISTING: o->listing = p.arg; break;
    case OPT_DOT: o->dot = p.arg; break;
    case OPT_LAYOUT: o->layout = p.arg; break;
    case OPT_ARCH: o->arch = p.arg; break;
    case OPT_FORMAT:
      if ((o->format = stream_export_format_parse(p.arg)) < 0) {
        diag_error_plain("instantiate: --format '%s': expected bin, c-header or readmemh", p.arg);
        return -1;
      }
      break;
    case OPT_PARAM:
    case OPT_IN:
      if (cli_inst_pair(&p, c == OPT_IN, o)) return -1;
      break;
    case OPT_PES:
      if (cli_opt_pes_text(p.arg, &o->rows, &o->cols, &o->inst.row0, &o->inst.col0)) {
        diag_error_plain("instantiate: --pes '%s' is not RxC or RxC@ROW,COL (e.g. 1x4, 2x2@2,0)", p.arg);
        return -1;
      }
      break;
    case CLI_OPT_ARG:
      if (o->sym) {
        diag_error_plain("instantiate: one .sym at a time: '%s' after '%s'", p.arg, o->sym);
        return -1;
      }
      o->sym = p.arg;
      break;
    default: return -1;
    }
  }
  if (!o->sym || !o->out || !o->rows) {
    diag_error_plain("instantiate: needs P.sym, --pes RxC and -o P.bin (try 'tcpa instantiate --help')");
    return -1;
  }
  return 0;
}

int cli_instantiate(int argc, char **argv) {
  instantiate_opts o;
  memset(&o, 0, sizeof o);
  int r = cli_inst_parse(argc, argv, &o);
  int st = r == 1 ? (cli_inst_usage(stdout), CLI_EXIT_OK) : r < 0 ? CLI_EXIT_INPUT : instantiate_run(&o);
  for (int i = 0; i < o.nparam; i++) free(o.pname[i]);
  for (int i = 0; i < o.nin; i++) free(o.in_name[i]);
  return st;
}
