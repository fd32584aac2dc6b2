/*
 * cli_import_dfg.c: `tcpa import-dfg FILE.dfg -o DIR [--len N] [--pes RxC]
 * [-q]` (docs/dfg.md): reads a DSAGEN DFG file (dfg_file_parse) and writes
 * one loop program per sub-DFG, the job file of the sub-DFGs that share
 * arrays and the workload of `tcpa explore` (dfg_dir_write). An error in
 * the file or a construct that cannot be mapped is printed as
 * FILE:LINE:COL with the line and a caret (diag.h), exit 2; nothing is
 * written then.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "cli.h"
#include "cli_opt.h"
#include "dfg.h"
#include "diag.h"
#include "fileio.h"

/* Prints the usage of `tcpa import-dfg` to f. */
static void import_dfg_usage(FILE *f) {
  fputs("usage: tcpa import-dfg FILE.dfg -o DIR [--len N] [--pes RxC] [--arch A.ini] [-q]\n\n"
        "Turns a DSAGEN dataflow-graph file into loop programs (docs/dfg.md): DIR/BASE_K.pla\n"
        "for each sub-DFG K (sub-DFGs are separated by ----; K counts from 0), over the\n"
        "stream's element index; DIR/BASE.job.ini running at once the sub-DFGs that share\n"
        "an array (tcpa run DIR/BASE.job.ini --engine model); DIR/BASE.wl, the workload of\n"
        "tcpa explore, weighted by each sub-DFG's #pragma group frequency. BASE is FILE's\n"
        "name without its extension.\n\n"
        "  -o, --out DIR  the output folder (made when missing; required)\n"
        "  --len N        the stream length N of the job and workload entries (default:\n"
        "                 the least array size / lanes of a sub-DFG's ports, 16 when no\n"
        "                 port names a declared array)\n"
        "  --pes RxC      the region of each job run and workload entry (default 1x1)\n"
        "  --arch A.ini   the configuration the job runs on (its `arch = A.ini` line;\n"
        "                 default: none, the built-in default.ini or tcpa run's --arch);\n"
        "                 the job's regions go to the corners of its array\n"
        "  -q, --quiet    do not list the files written\n"
        "  -h, --help     print this help\n\n"
        "exit status: 0 imported, 2 an error in the file (FILE:LINE:COLUMN) or an\n"
        "operation, flag or port that has no equivalent (named, with its place)\n",
        f);
}

/* Returns 0 after reading the region RxC (cli_opt_pes_text, no origin:
 * the job places each run) from s into o; -1 after printing why. */
static int import_dfg_pes(const char *s, dfg_out_opts *o) {
  int r0, c0;
  if (cli_opt_pes_text(s, &o->rows, &o->cols, &r0, &c0) || r0 || c0 || strchr(s, '@') || o->rows > 64 ||
      o->cols > 64) {
    diag_error_plain("import-dfg: --pes: expected RxC (1x1 .. 64x64, no @origin), got '%s'", s);
    return -1;
  }
  return 0;
}

/* Returns the exit status of `tcpa import-dfg` (cli.h). */
int cli_import_dfg(int argc, char **argv) {
  dfg_out_opts o = {.rows = 1, .cols = 1};
  const char *path = NULL;
  enum { OPT_LEN = CLI_OPT_LONG, OPT_PES, OPT_ARCH };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},         {"quiet", no_argument, NULL, 'q'},
      {"out", required_argument, NULL, 'o'},    {"len", required_argument, NULL, OPT_LEN},
      {"pes", required_argument, NULL, OPT_PES}, {"arch", required_argument, NULL, OPT_ARCH},
      {NULL, 0, NULL, 0}};
  cli_opt p;
  cli_opt_init(&p, "import-dfg", argc, argv, "hqo:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    int64_t n;
    switch (c) {
    case 'h': import_dfg_usage(stdout); return CLI_EXIT_OK;
    case 'q': o.quiet = 1; break;
    case 'o': o.dir = p.arg; break;
    case OPT_LEN:
      if (cli_opt_int(&p, 1, 1 << 20, "a stream length", &n)) return CLI_EXIT_INPUT;
      o.len = n;
      break;
    case OPT_ARCH: o.arch = p.arg; break;
    case OPT_PES:
      if (import_dfg_pes(p.arg, &o)) return CLI_EXIT_INPUT;
      break;
    case CLI_OPT_ARG:
      if (path) {
        diag_error_plain("import-dfg: one DFG file at a time: '%s' after '%s'", p.arg, path);
        return CLI_EXIT_INPUT;
      }
      path = p.arg;
      break;
    default: return CLI_EXIT_INPUT;
    }
  }
  if (!path || !o.dir) {
    diag_error_plain("import-dfg: FILE.dfg and -o DIR are required (see 'tcpa import-dfg --help')");
    return CLI_EXIT_INPUT;
  }
  size_t len;
  char *text = fileio_read_all(path, &len);
  if (!text) {
    diag_error_plain("import-dfg: %s: cannot read the file", path);
    return CLI_EXIT_INPUT;
  }
  arch_config cfg;
  if (o.arch ? arch_config_load(o.arch, &cfg) : arch_config_load_default(&cfg)) return CLI_EXIT_INPUT;
  o.arch_rows = cfg.rows;
  o.arch_cols = cfg.cols;
  o.src = path;
  dfg_file f;
  dfg_error err;
  int rc = dfg_file_parse(text, &f, &err);
  if (!rc) {
    rc = dfg_dir_write(&f, &o, &err);
    dfg_file_free(&f);
  }
  if (rc) {
    diag_loc loc = {path, err.line, err.col};
    if (err.line) diag_error(&loc, text, "%s", err.msg);
    else diag_error_plain("import-dfg: %s: %s", path, err.msg);
  }
  free(text);
  return rc ? CLI_EXIT_INPUT : CLI_EXIT_OK;
}
