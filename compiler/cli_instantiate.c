/*
 * cli_instantiate.c: `tcpa instantiate P.sym --param NAME=VALUE... --pes
 * RxC -o P.bin [--listing P.lst] [--layout P.lay] [--arch A.ini] [--in
 * NAME=FILE]...`: reads a symbolic configuration (sym.h), instantiates it
 * for the parameter values and the region (inst.h, docs/instantiate.md),
 * and writes the configuration stream atomically (stream_writer_save). The
 * listing and the layout (where each output element lands in the banks)
 * are written through temporary files too. Inputs not given are zero.
 * Prints a summary: region, p, processor classes, stream bytes (and a line
 * splitting them into configuration and IODATA data bytes); with
 * --time also the wall time of inst_run (concretize .. I/O placement) and
 * of inst_emit (CLOCK_MONOTONIC), for scripts/bench_tables.sh.
 * Exit 0 written, 2 invalid input, 3 does not fit (what, needed, available).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arch.h"
#include "cli.h"
#include "cli_opt.h"
#include "datafile.h"
#include "diag.h"
#include "inst.h"
#include "sym.h"

#define CLI_INST_MAX 64

typedef struct {
  const char *sym, *out, *listing, *layout, *arch;
  int nparam;
  char *pname[CLI_INST_MAX];
  int64_t pval[CLI_INST_MAX];
  int nin;
  char *in_name[CLI_INST_MAX];
  const char *in_file[CLI_INST_MAX];
  int rows, cols;
  int time;
  inst_opts inst; /* --no-fifo-check, --share-all, --prolog-nops */
} cli_inst_opts;

/* Prints the usage of `tcpa instantiate` to f. */
static void cli_inst_usage(FILE *f) {
  fputs("usage: tcpa instantiate P.sym --param NAME=VALUE... --pes RxC -o P.bin\n"
        "                        [--listing P.lst] [--layout P.lay] [--arch A.ini] [--in NAME=FILE]...\n"
        "                        [--no-fifo-check] [--share-all] [--prolog-nops]\n\n"
        "Instantiates a symbolic configuration (tcpa compile) for concrete parameter\n"
        "values and a region of PEs and writes the configuration stream.\n\n"
        "  --param N=V    value of a program parameter (every one is required)\n"
        "  --pes RxC      the region: 1xC for a configuration compiled for columns, Rx1 for rows,\n"
        "                 any RxC for one compiled with --map I,J (2-D)\n"
        "  -o P.bin       the configuration stream (docs/stream.md)\n"
        "  --listing F    processor classes, kernel classes, CFGs and programs in assembly\n"
        "  --layout F     where each output element is in the banks: ARRAY INDEX ROW COL SIDE BANK ADDR\n"
        "  --arch A.ini   architecture (default: the embedded default); must match the .sym\n"
        "  --in N=FILE    values of input array N (data-file format, row-major); default zeros\n"
        "  --time         also print the wall time of instantiation and of writing the stream\n"
        "  for comparing with what they turn off (docs/instantiate.md):\n"
        "  --no-fifo-check  skip the check that no channel overflows pe.fifo_depth\n"
        "  --share-all    share kernel tails and prefixes in every program, not only those that\n"
        "                 need more than pe.imem words\n"
        "  --prolog-nops  write the prolog as sigma * pi nops, never as a loop\n"
        "  -h, --help     print this help\n\n"
        "exit status: 0 written, 2 invalid input, 3 does not fit\n",
        f);
}

/* Returns 0 after reading the NAME=VALUE or NAME=FILE of p (--param, or
 * --in when in is set) into o; -1 after printing what is wrong. */
static int cli_inst_pair(const cli_opt *p, int in, cli_inst_opts *o) {
  int *n = in ? &o->nin : &o->nparam;
  char **names = in ? o->in_name : o->pname;
  const char *val;
  if (*n >= CLI_INST_MAX) {
    diag_error_plain("instantiate: %s: more than %d given", p->name, CLI_INST_MAX);
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
static int cli_inst_parse(int argc, char **argv, cli_inst_opts *o) {
  enum { OPT_PARAM = CLI_OPT_LONG, OPT_IN, OPT_PES, OPT_LISTING, OPT_LAYOUT, OPT_ARCH, OPT_TIME,
         OPT_NO_FIFO_CHECK, OPT_SHARE_ALL, OPT_PROLOG_NOPS };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},           {"param", required_argument, NULL, OPT_PARAM},
      {"in", required_argument, NULL, OPT_IN},     {"pes", required_argument, NULL, OPT_PES},
      {"listing", required_argument, NULL, OPT_LISTING}, {"layout", required_argument, NULL, OPT_LAYOUT},
      {"arch", required_argument, NULL, OPT_ARCH}, {"time", no_argument, NULL, OPT_TIME},
      {"no-fifo-check", no_argument, NULL, OPT_NO_FIFO_CHECK}, {"share-all", no_argument, NULL, OPT_SHARE_ALL},
      {"prolog-nops", no_argument, NULL, OPT_PROLOG_NOPS}, {NULL, 0, NULL, 0}};
  cli_opt p;
  cli_opt_init(&p, "instantiate", argc, argv, "ho:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    char x;
    switch (c) {
    case 'h': return 1;
    case OPT_TIME: o->time = 1; break;
    case OPT_NO_FIFO_CHECK: o->inst.no_fifo_check = 1; break;
    case OPT_SHARE_ALL: o->inst.share_all = 1; break;
    case OPT_PROLOG_NOPS: o->inst.prolog_nops = 1; break;
    case 'o': o->out = p.arg; break;
    case OPT_LISTING: o->listing = p.arg; break;
    case OPT_LAYOUT: o->layout = p.arg; break;
    case OPT_ARCH: o->arch = p.arg; break;
    case OPT_PARAM:
    case OPT_IN:
      if (cli_inst_pair(&p, c == OPT_IN, o)) return -1;
      break;
    case OPT_PES:
      if (sscanf(p.arg, "%d%c%d", &o->rows, &x, &o->cols) != 3 || (x != 'x' && x != 'X') || o->rows < 1 ||
          o->cols < 1) {
        diag_error_plain("instantiate: --pes '%s' is not RxC (e.g. 1x4)", p.arg);
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

/* Returns 0 after reading the --in files into d (arrays of x). */
static int cli_inst_inputs(const cli_inst_opts *o, const inst *x, inst_data *d) {
  const map_config *m = x->m;
  d->vals = calloc((size_t)m->narrays + 1, sizeof *d->vals);
  d->count = calloc((size_t)m->narrays + 1, sizeof *d->count);
  if (!d->vals || !d->count) return -1;
  for (int i = 0; i < o->nin; i++) {
    int a = 0;
    while (a < m->narrays && strcmp(m->array_name[a], o->in_name[i])) a++;
    if (a == m->narrays) {
      diag_error_plain("instantiate: --in %s: program %s has no array of that name", o->in_name[i], m->name);
      return -1;
    }
    int64_t n = 1;
    for (int r = 0; r < x->array_nd[a]; r++) n *= x->array_ext[a][r];
    d->count[a] = n;
    d->vals[a] = calloc((size_t)n + 1, sizeof **d->vals);
    char what[128];
    snprintf(what, sizeof what, "input %s", m->array_name[a]);
    if (!d->vals[a] || datafile_read(o->in_file[i], what, d->vals[a], (size_t)n)) return -1;
  }
  return 0;
}

/* Returns 0 after writing text produced by fn(x, f) to path atomically. */
static int cli_inst_text(const char *path, const inst *x, void (*fn)(const inst *, FILE *)) {
  datafile_tmp t;
  if (datafile_tmp_open(&t, path)) return -1;
  fn(x, t.f);
  return datafile_tmp_commit(&t);
}

/* Returns the monotonic clock in seconds. */
static double cli_inst_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Returns the bytes of the IODATA packets (headers included) among the
 * packets written to w so far: the input data the stream carries, as
 * opposed to its configuration (docs/stream.md). */
static size_t cli_inst_data_bytes(const stream_writer *w) {
  size_t bytes = 0;
  for (size_t i = 0; i + STREAM_PACKET_WORDS <= w->n;) {
    size_t len = STREAM_PACKET_WORDS + w->words[i + 3];
    if ((w->words[i] & 0xff) == STREAM_PKT_IODATA) bytes += 4 * len;
    i += len;
  }
  return bytes;
}

/* Returns the exit status after instantiating with options o. */
static int cli_inst_main(const cli_inst_opts *o) {
  arch_config cfg;
  if (o->arch ? arch_config_load(o->arch, &cfg) : arch_config_load_default(&cfg)) return CLI_EXIT_INPUT;
  FILE *f = fopen(o->sym, "r");
  if (!f) {
    diag_error_plain("instantiate: cannot read '%s'", o->sym);
    return CLI_EXIT_INPUT;
  }
  map_config m;
  char msg[512];
  int bad = sym_read(f, &m, msg, sizeof msg);
  fclose(f);
  if (bad) {
    diag_error_plain("instantiate: %s: %s", o->sym, msg);
    return CLI_EXIT_INPUT;
  }
  inst x;
  inst_data data = {0};
  double t0 = cli_inst_now();
  int st = inst_run_opts(&x, &o->inst, &m, &cfg, o->nparam, (char **)o->pname, o->pval, o->rows, o->cols, msg,
                         sizeof msg);
  double t_run = cli_inst_now() - t0, t_emit = 0;
  if (st) diag_error_plain("instantiate: %s: %s", o->sym, msg);
  if (!st && cli_inst_inputs(o, &x, &data)) st = CLI_EXIT_INPUT;
  stream_writer w;
  stream_writer_init(&w, &cfg);
  if (!st) {
    t0 = cli_inst_now();
    st = inst_emit(&x, &data, &w, msg, sizeof msg);
    t_emit = cli_inst_now() - t0;
    if (st) diag_error_plain("instantiate: %s: %s", o->sym, msg);
  }
  if (!st && o->listing && cli_inst_text(o->listing, &x, inst_listing)) st = CLI_EXIT_INPUT;
  if (!st && o->layout && cli_inst_text(o->layout, &x, inst_layout)) st = CLI_EXIT_INPUT;
  if (!st && stream_writer_save(&w, o->out)) {
    diag_error_plain("instantiate: cannot write '%s': %s", o->out, w.msg);
    st = CLI_EXIT_INPUT;
  }
  size_t data_bytes = cli_inst_data_bytes(&w), total_bytes = 4 * (6 + w.n);
  if (!st && m.axis == 2) {
    printf("%s: region %dx%d, %dx%d PEs used, p = %lld x %lld, II %d, %d processor classes, %d control signals, "
           "stream %zu bytes\n",
           o->out, o->rows, o->cols, x.tr, x.tc, (long long)x.p, (long long)x.p2, m.ii, x.npc, x.nsig,
           4 * (6 + w.n));
  } else if (!st) {
    printf("%s: region %dx%d, %d PEs used, p = %lld, II %d, %d processor classes, %d control signals, "
           "stream %zu bytes\n",
           o->out, o->rows, o->cols, x.t, (long long)x.p, m.ii, x.npc, x.nsig, 4 * (6 + w.n));
  }
  if (!st) printf("stream: %zu bytes: configuration %zu bytes, data (IODATA) %zu bytes\n", total_bytes,
                  total_bytes - data_bytes, data_bytes);
  if (!st && o->time) printf("time: instantiate %.6f s, emit %.6f s\n", t_run, t_emit);
  stream_writer_free(&w);
  for (int a = 0; data.vals && a < m.narrays; a++) free(data.vals[a]);
  free(data.vals);
  free(data.count);
  inst_free(&x);
  map_config_free(&m);
  if (st == INST_ERR_INTERNAL) return CLI_EXIT_INPUT;
  return st;
}

int cli_instantiate(int argc, char **argv) {
  cli_inst_opts o;
  memset(&o, 0, sizeof o);
  int r = cli_inst_parse(argc, argv, &o);
  int st = r == 1 ? (cli_inst_usage(stdout), CLI_EXIT_OK) : r < 0 ? CLI_EXIT_INPUT : cli_inst_main(&o);
  for (int i = 0; i < o.nparam; i++) free(o.pname[i]);
  for (int i = 0; i < o.nin; i++) free(o.in_name[i]);
  return st;
}
