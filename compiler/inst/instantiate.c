/*
 * instantiate.c: `tcpa instantiate P.sym --param NAME=VALUE... --pes RxC -o
 * P.bin [--listing P.lst] [--layout P.lay] [--arch A.ini] [--in
 * NAME=FILE]...` after its options are read (instantiate.h,
 * cli_instantiate.c): reads a symbolic configuration (sym.h), instantiates it
 * for the parameter values and the region (inst.h, docs/instantiate.md),
 * and writes the configuration stream atomically (stream_writer_save). The
 * listing and the layout (where each output element lands in the banks)
 * are written through temporary files too, and so is the picture
 * (--dot F: inst_dot.c's Graphviz digraph; when F ends in .svg or .png,
 * the digraph goes to F with .dot for its extension and Graphviz's `dot`
 * renders it to F). Inputs not given are zero.
 * Prints a summary: region, p, processor classes, stream bytes (and a line
 * splitting them into configuration and IODATA data bytes); with
 * --time also the wall time of inst_run (concretize .. I/O placement) and
 * of inst_emit (CLOCK_MONOTONIC), for scripts/bench_tables.sh.
 * Exit 0 written, 2 invalid input, 3 does not fit (what, needed, available).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "datafile.h"
#include "diag.h"
#include "inst.h"
#include "instantiate.h"
#include "stream_export.h"
#include "sym.h"

/* Returns 0 after reading the --in files into d (arrays of x). */
static int instantiate_inputs(const instantiate_opts *o, const inst *x, inst_data *d) {
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
static int instantiate_text(const char *path, const inst *x, void (*fn)(const inst *, FILE *)) {
  datafile_tmp t;
  if (datafile_tmp_open(&t, path)) return -1;
  fn(x, t.f);
  return datafile_tmp_commit(&t);
}

/* Returns 0 after writing the picture of x to o->dot: the digraph, and
 * when the name ends in .svg or .png the digraph beside it (.dot) and its
 * rendering by Graphviz's `dot` (through a temporary file); -1 after
 * printing what failed. */
static int instantiate_dot(const char *path, const inst *x) {
  size_t n = strlen(path);
  const char *fmt = n > 4 && !strcmp(path + n - 4, ".svg") ? "svg" : n > 4 && !strcmp(path + n - 4, ".png") ? "png" : NULL;
  if (!fmt) return instantiate_text(path, x, inst_dot);
  char *dot = malloc(n + 1), *tmp = malloc(n + 8);
  if (!dot || !tmp) {
    free(dot);
    free(tmp);
    return -1;
  }
  memcpy(dot, path, n + 1);
  memcpy(dot + n - 3, "dot", 4);
  snprintf(tmp, n + 8, "%s.tmp", path);
  int rc = instantiate_text(dot, x, inst_dot);
  if (rc == 0) {
    char tflag[8];
    snprintf(tflag, sizeof tflag, "-T%s", fmt);
    pid_t pid = fork();
    if (pid == 0) {
      execlp("dot", "dot", tflag, "-o", tmp, dot, (char *)NULL);
      _exit(127);
    }
    int st = -1;
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || rename(tmp, path) != 0) {
      diag_error_plain("instantiate: --dot %s: Graphviz's dot could not render %s (exit %d; is graphviz installed: "
                       "scripts/setup.sh?)",
                       path, dot, pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1);
      remove(tmp);
      rc = -1;
    }
  }
  free(dot);
  free(tmp);
  return rc;
}

/* Returns the monotonic clock in seconds. */
static double instantiate_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Returns the bytes of the IODATA packets (headers included) among the
 * packets written to w so far: the input data the stream carries, as
 * opposed to its configuration (docs/stream.md). */
static size_t instantiate_data_bytes(const stream_writer *w) {
  size_t bytes = 0;
  for (size_t i = 0; i + STREAM_PACKET_WORDS <= w->n;) {
    size_t len = STREAM_PACKET_WORDS + w->words[i + 3];
    if ((w->words[i] & 0xff) == STREAM_PKT_IODATA) bytes += 4 * len;
    i += len;
  }
  return bytes;
}

/* Returns 0 after reading the symbolic configuration at path into *m; -1
 * after printing why. */
static int instantiate_sym_load(const char *path, map_config *m) {
  FILE *f = fopen(path, "r");
  if (!f) {
    diag_error_plain("instantiate: cannot read '%s'", path);
    return -1;
  }
  char msg[512];
  int bad = sym_read(f, m, msg, sizeof msg);
  fclose(f);
  if (bad) {
    diag_error_plain("instantiate: %s: %s", path, msg);
    return -1;
  }
  return 0;
}

/* Prints the summary of instantiation x written to w: region, PEs, p, II,
 * classes, signals, and the stream's bytes split into configuration and
 * data. */
static void instantiate_summary_print(const instantiate_opts *o, const inst *x, const stream_writer *w) {
  const map_config *m = x->m;
  size_t data_bytes = instantiate_data_bytes(w), total_bytes = 4 * (6 + w->n);
  if (m->axis == MAP_AXIS_2D) {
    printf("%s: region %dx%d, %dx%d PEs used, p = %lld x %lld, II %d, %d processor class%s, %d control signals, "
           "stream %zu bytes\n",
           o->out, o->rows, o->cols, x->tr, x->tc, (long long)x->p, (long long)x->p2, m->ii, x->npc,
           x->npc == 1 ? "" : "es", x->nsig, 4 * (6 + w->n));
  } else {
    printf("%s: region %dx%d, %d PEs used, p = %lld, II %d, %d processor class%s, %d control signals, "
           "stream %zu bytes\n",
           o->out, o->rows, o->cols, x->t, (long long)x->p, m->ii, x->npc, x->npc == 1 ? "" : "es", x->nsig,
           4 * (6 + w->n));
  }
  printf("stream: %zu bytes: configuration %zu bytes, data (IODATA) %zu bytes\n", total_bytes,
         total_bytes - data_bytes, data_bytes);
}

/* Returns 0 after writing the stream of w to o->out in o->format
 * (stream_export.h; *nbanks the bank files of readmemh, else untouched);
 * -1 after printing why. */
static int instantiate_stream_write(const instantiate_opts *o, const inst *x, stream_writer *w, int *nbanks) {
  if (o->format == STREAM_EXPORT_BIN) {
    if (!stream_writer_save(w, o->out)) return 0;
    diag_error_plain("instantiate: cannot write '%s': %s", o->out, w->msg);
    return -1;
  }
  uint8_t *bytes;
  size_t len;
  char msg[512] = "", what[256];
  int rc = stream_writer_finish(w, &bytes, &len) ? -1 : 0;
  if (rc) snprintf(msg, sizeof msg, "%s", w->msg);
  snprintf(what, sizeof what, "program %s from %s on region %dx%d@%d,%d, global controller %d", x->m->name, o->sym,
           o->rows, o->cols, o->inst.row0, o->inst.col0, o->inst.gc);
  if (!rc && o->format == STREAM_EXPORT_C_HEADER) rc = stream_export_c_header(o->out, what, bytes, len, msg, sizeof msg);
  else if (!rc) rc = stream_export_readmemh(o->out, &x->arch, bytes, len, nbanks, msg, sizeof msg);
  free(bytes);
  if (rc) diag_error_plain("instantiate: %s", msg);
  return rc;
}

/* Returns the outcome of the request o (instantiate.h). */
int instantiate_run(const instantiate_opts *o) {
  arch_config cfg;
  if (o->arch ? arch_config_load(o->arch, &cfg) : arch_config_load_default(&cfg)) return INSTANTIATE_INPUT;
  map_config m;
  char msg[512];
  if (instantiate_sym_load(o->sym, &m)) return INSTANTIATE_INPUT;
  inst x;
  inst_data data = {0};
  double t0 = instantiate_now();
  int st = inst_run_opts(&x, &o->inst, &m, &cfg, o->nparam, (char **)o->pname, o->pval, o->rows, o->cols, msg,
                         sizeof msg);
  double t_run = instantiate_now() - t0, t_emit = 0;
  if (st) diag_error_plain("instantiate: %s: %s", o->sym, msg);
  if (!st && instantiate_inputs(o, &x, &data)) st = INSTANTIATE_INPUT;
  stream_writer w;
  stream_writer_init(&w, &cfg);
  if (!st) {
    t0 = instantiate_now();
    st = inst_emit(&x, &data, &w, msg, sizeof msg);
    t_emit = instantiate_now() - t0;
    if (st) diag_error_plain("instantiate: %s: %s", o->sym, msg);
  }
  if (!st && o->listing && instantiate_text(o->listing, &x, inst_listing)) st = INSTANTIATE_INPUT;
  if (!st && o->layout && instantiate_text(o->layout, &x, inst_layout)) st = INSTANTIATE_INPUT;
  if (!st && o->dot && instantiate_dot(o->dot, &x)) st = INSTANTIATE_INPUT;
  int nbanks = -1;
  if (!st && instantiate_stream_write(o, &x, &w, &nbanks)) st = INSTANTIATE_INPUT;
  if (!st) instantiate_summary_print(o, &x, &w);
  if (!st && nbanks >= 0) printf("readmemh: %s and %d bank file%s listed in its .banks\n", o->out, nbanks,
                                 nbanks == 1 ? "" : "s");
  if (!st && o->time) printf("time: instantiate %.6f s, emit %.6f s\n", t_run, t_emit);
  stream_writer_free(&w);
  for (int a = 0; data.vals && a < m.narrays; a++) free(data.vals[a]);
  free(data.vals);
  free(data.count);
  inst_free(&x);
  map_config_free(&m);
  if (st == INST_ERR_INTERNAL) return INSTANTIATE_INPUT;
  return st;
}

