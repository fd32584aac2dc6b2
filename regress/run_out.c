/*
 * run_out.c: what a run of `tcpa run` leaves (run.h): the files of
 * --out-dir and the summary on stdout.
 *
 * --out-dir DIR (docs/user-guide.md, "Output files"): DIR/inputs/NAME.txt
 * per input; DIR/ref/NAME.txt per output, the reference interpreter's
 * values; DIR/NAME.txt per output, the values of the engine that ran, read
 * back from its banks through the output placement (engine_result: the
 * model's for model, the RTL's for rtl, cosim and systemc; for ref the
 * reference's), an element with no value from the engine written as
 * RUN_UNPLACED; on a failed run DIR/diff.txt, the count of the elements of
 * DIR/NAME.txt that differ from the reference and the first RUN_DIFF_SHOW
 * of them; the engines' files (config.bin, config.lst, traces;
 * engine_run.c); then DIR/summary.json last, whose `outputs` says which
 * engine wrote which file. All in the data-file format (datafile.h),
 * written whether the run passed or not; each file atomically, so a file
 * present is a complete file, and a file of an earlier run that this run
 * does not write (DIR/NAME.txt when the engine gathered no outputs,
 * diff.txt on a pass) is removed.
 *
 * DIR/fcov.json: the run's functional coverage (fcov.h, docs/regress.md
 * "Functional coverage"), counted from the stream and the trace the run
 * kept (DIR/model.trace, else DIR/rtl.trace), for every engine that builds
 * a configuration; removed when there is no trace to count.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arch.h"
#include "ast.h"
#include "datafile.h"
#include "diag.h"
#include "divergence_unit.h"
#include "engine_flow.h"
#include "fcov.h"
#include "fileio.h"
#include "interp.h"
#include "json.h"
#include "regress_fit.h"
#include "run.h"
#include "stream.h"
#include "version.h"

/* Writes the tiled loop index ("i"), or both of a 2-D region ("i,j": rows,
 * columns), into buf. */
static void run_tiled_dims(const ast_program *p, const engine_config *c, char *buf, size_t size) {
  if (c->axis == MAP_AXIS_2D && c->dim2 >= 0) snprintf(buf, size, "%s,%s", p->index[c->dim], p->index[c->dim2]);
  else snprintf(buf, size, "%s", p->index[c->dim]);
}

/* Returns 0 after creating directory `dir` (and its parents) if missing;
 * -1 after an error. */
int run_mkdir_p(const char *dir) {
  char failed[1024];
  if (fileio_mkdir_p(dir, failed, sizeof failed) == 0) return 0;
  if (errno == ENOTDIR && !strcmp(failed, dir))
    diag_error_plain("--out-dir: '%s' is not a directory", dir);
  else
    diag_error_plain("--out-dir: cannot create directory '%s': %s", failed, strerror(errno));
  return -1;
}

/* Returns the malloc'ed path DIR/SUB/NAME.txt (DIR/NAME.txt when sub is
 * NULL), or NULL when out of memory. */
static char *run_out_path(const char *dir, const char *sub, const char *name) {
  size_t len = strlen(dir) + (sub ? strlen(sub) : 0) + strlen(name) + 8;
  char *path = malloc(len);
  if (path) snprintf(path, len, "%s/%s%s%s.txt", dir, sub ? sub : "", sub ? "/" : "", name);
  return path;
}

/* Returns 0 after writing every array of the given kind to DIR/SUB/NAME.txt;
 * -1 after an error. */
static int run_arrays_write(const ast_program *p, const interp_array *arrays,
                            ast_array_kind kind, const char *dir, const char *sub) {
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind != kind) continue;
    char *path = run_out_path(dir, sub, p->arrays[a].name);
    if (!path) return -1;
    int rc = datafile_write(path, arrays[a].data, arrays[a].ndims, arrays[a].extent);
    free(path);
    if (rc != 0) return -1;
  }
  return 0;
}

int run_out_arrays_write(const ast_program *p, const interp_array *arrays, ast_array_kind kind, const char *dir,
                         const char *sub) {
  if (sub) {
    char *d = malloc(strlen(dir) + strlen(sub) + 2);
    int bad = !d;
    if (d) sprintf(d, "%s/%s", dir, sub), bad = run_mkdir_p(d) != 0;
    free(d);
    if (bad) return -1;
  }
  return run_arrays_write(p, arrays, kind, dir, sub);
}

/* The value DIR/NAME.txt holds for an element the engine's output
 * placement never placed (no PE writes it): diff.txt names each one. */

/* Returns 0 after writing the engine result r's outputs to DIR/NAME.txt
 * (elements not placed as RUN_UNPLACED) and counting them in *outs; -1
 * after an error. */
static int run_engine_arrays_write(const ast_program *p, const interp_array *ref, const engine_result *r,
                                   const char *dir, run_outputs *outs) {
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind != AST_ARRAY_OUT) continue;
    int32_t *vals = malloc((ref[a].n + 1) * sizeof *vals);
    char *path = run_out_path(dir, NULL, p->arrays[a].name);
    int rc = -1;
    if (vals && path) {
      for (size_t i = 0; i < ref[a].n; i++) {
        vals[i] = r->seen[a][i] ? r->out[a][i] : RUN_UNPLACED;
        outs->unplaced += !r->seen[a][i];
      }
      rc = datafile_write(path, vals, ref[a].ndims, ref[a].extent);
    }
    free(vals);
    free(path);
    if (rc != 0) return -1;
  }
  return 0;
}

/* Returns the name of the diff file: diff.txt, unless an output array is
 * called `diff` (its DIR/diff.txt): then diff-outputs.txt. */
static const char *run_diff_name(const ast_program *p) {
  for (int a = 0; a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_OUT && !strcmp(p->arrays[a].name, "diff")) return "diff-outputs.txt";
  return "diff.txt";
}

/* Returns 0 after writing DIR/<outs->diff>: the count of the elements of
 * r's outputs that differ from the reference ref, then the first
 * RUN_DIFF_SHOW of them (array, index, expected, actual); -1 after an
 * error. */
static int run_diff_write(const ast_program *p, const interp_array *ref, const engine_result *r,
                          const char *dir, const run_outputs *outs) {
  char *text = NULL, *path = malloc(strlen(dir) + strlen(outs->diff) + 2);
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  datafile_tmp t;
  int rc = -1;
  if (!path || !m) goto done;
  sprintf(path, "%s/%s", dir, outs->diff);
  engine_outputs_compare(p, ref, r, m, RUN_DIFF_SHOW);
  fclose(m);
  m = NULL;
  if (datafile_tmp_open(&t, path) != 0) goto done;
  fprintf(t.f, "differing %zu of %zu output elements\n", outs->differing, outs->total);
  fprintf(t.f, "# the engine's values (%s) in NAME.txt, the reference interpreter's in ref/NAME.txt;\n"
               "# an element no PE writes is written as %d ('got nothing')\n", outs->engine,
          (int)RUN_UNPLACED);
  if (outs->differing > RUN_DIFF_SHOW) fprintf(t.f, "# the first %d:\n", RUN_DIFF_SHOW);
  if (!outs->differing)
    fputs("# the outputs equal the reference: the run failed for another reason (stderr, summary.json)\n", t.f);
  fputs(text ? text : "", t.f);
  rc = datafile_tmp_commit(&t);
done:
  if (m) fclose(m);
  free(text);
  free(path);
  return rc;
}

/* Removes the files an earlier run may have left in DIR that this one
 * does not write (they must not pass for this one's): DIR/NAME.txt of
 * every output (when `outputs`), DIR/ref/NAME.txt (when `ref`) and the
 * diff file (when `diff`). */
static void run_stale_remove(const ast_program *p, const char *dir, int outputs, int ref, int diff) {
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind != AST_ARRAY_OUT) continue;
    for (int k = 0; k < 2; k++) {
      char *path = (k ? ref : outputs) ? run_out_path(dir, k ? "ref" : NULL, p->arrays[a].name) : NULL;
      if (path) remove(path);
      free(path);
    }
  }
  char *path = diff ? malloc(strlen(dir) + 32) : NULL;
  if (path) {
    sprintf(path, "%s/%s", dir, run_diff_name(p));
    remove(path);
  }
  free(path);
}

/* Returns the engine result whose outputs DIR/NAME.txt receives (the
 * model's for model, the RTL's for rtl, cosim and systemc) and its name in
 * *who; NULL when that engine gathered none. */
static const engine_result *run_engine_outputs(run_engine engine, const engine_outcome *eo, const char **who) {
  int model = engine == RUN_ENGINE_MODEL;
  const engine_result *r = model ? &eo->model : &eo->rtl;
  *who = model ? "model" : "rtl";
  return (model ? eo->ran_model : eo->ran_rtl) && r->gathered && r->out ? r : NULL;
}


/* Returns 0 after writing the outputs to --out-dir DIR: the reference's to
 * DIR/ref/NAME.txt, the engine's (for ref: the reference's) to
 * DIR/NAME.txt and, on a failed run, the diff file; files an earlier run
 * left and this one does not write are removed; -1 after an error. */
static int run_outputs_write(const ast_program *p, const run_opts *o, const interp_array *arrays,
                             run_result *res) {
  run_outputs *outs = &res->outs;
  const engine_result *r = NULL;
  const char *who = "ref";
  memset(outs, 0, sizeof *outs);
  for (int a = 0; a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_OUT) outs->total += arrays[a].n;
  if (!res->ref_ok) { /* the interpreter failed: no outputs at all */
    run_stale_remove(p, o->out_dir, 1, 1, 1);
    return 0;
  }
  size_t len = strlen(o->out_dir) + 8;
  char *sub = malloc(len);
  if (!sub) return -1;
  snprintf(sub, len, "%s/ref", o->out_dir);
  int bad = run_mkdir_p(sub) != 0 || run_arrays_write(p, arrays, AST_ARRAY_OUT, o->out_dir, "ref") != 0;
  free(sub);
  if (bad) return -1;
  outs->ref_written = 1;
  if (res->eo && !(r = run_engine_outputs(o->engine, res->eo, &who))) {
    run_stale_remove(p, o->out_dir, 1, 0, 1); /* the engine gathered no outputs */
    return 0;
  }
  outs->engine = who;
  if (!r) { /* ref */
    run_stale_remove(p, o->out_dir, 0, 0, 1);
    return run_arrays_write(p, arrays, AST_ARRAY_OUT, o->out_dir, NULL);
  }
  if (run_engine_arrays_write(p, arrays, r, o->out_dir, outs) != 0) return -1;
  outs->differing = engine_outputs_compare(p, arrays, r, stderr, 0); /* show 0: prints nothing */
  if (!strcmp(res->status, "pass")) {
    run_stale_remove(p, o->out_dir, 0, 0, 1);
    return 0;
  }
  outs->diff = run_diff_name(p);
  return run_diff_write(p, arrays, r, o->out_dir, outs);
}

/* Writes a cycle count, or null when the engine did not run or finish. */
static void run_json_cycles(json_writer *w, const char *key, int ran, const engine_result *r, int done) {
  if (!ran || !r->done) json_writer_null(w, key);
  else json_writer_uint(w, key, done ? r->done_cycles : r->cycles);
}

/* Returns the bytes of the IODATA packets (headers included) in the
 * little-endian stream buf[0..len): the input data it carries, which
 * summary.json's config_bytes_nodata leaves out (docs/stream.md). */
static size_t run_stream_data_bytes(const uint8_t *buf, size_t len) {
  size_t bytes = 0;
  for (size_t at = 4 * STREAM_HEADER_WORDS; buf && at + 4 * STREAM_PACKET_WORDS <= len;) {
    const uint8_t *h = buf + at;
    uint32_t n = (uint32_t)h[12] | (uint32_t)h[13] << 8 | (uint32_t)h[14] << 16 | (uint32_t)h[15] << 24;
    size_t plen = 4 * (STREAM_PACKET_WORDS + (size_t)n);
    if (plen > len - at) break;
    if (h[0] == STREAM_PKT_IODATA) bytes += plen;
    at += plen;
  }
  return bytes;
}

/* Writes the fields of a model/rtl/cosim run: the mapping, the cycles
 * measured and predicted, the divergence (docs/user-guide.md). */
static void run_summary_engine(json_writer *w, const ast_program *p, const run_opts *o,
                               const engine_outcome *eo) {
  const engine_config *c = &eo->c;
  /* the engine whose cycles are reported: the model unless rtl alone */
  const engine_result *r = o->engine == RUN_ENGINE_RTL ? &eo->rtl : &eo->model;
  int ran = o->engine == RUN_ENGINE_RTL ? eo->ran_rtl : eo->ran_model;
  run_json_cycles(w, "cycles", ran, r, 0);
  if (!eo->built) {
    json_writer_null(w, "ii");
    json_writer_null(w, "processor_classes");
    json_writer_null(w, "config_bytes");
    return;
  }
  json_writer_int(w, "ii", c->ii);
  json_writer_int(w, "processor_classes", c->npc);
  json_writer_uint(w, "config_bytes", c->stream_len);
  json_writer_uint(w, "config_bytes_nodata", c->stream_len - run_stream_data_bytes(c->stream, c->stream_len));
  json_writer_int(w, "resmii", c->resmii);
  json_writer_int(w, "recmii", c->recmii);
  json_writer_int(w, "map_level", c->map_level);
  json_writer_bool(w, "map_padded", c->map_pad);
  json_writer_bool(w, "map_one_tile", c->map_one_pe);
  json_writer_int(w, "map_attempts", c->map_attempts);
  json_writer_double(w, "build_seconds", eo->build_cpu);
  json_writer_double(w, "instantiate_seconds", c->inst_seconds);
  json_writer_double(w, "emit_seconds", c->emit_seconds);
  json_writer_double(w, "run_seconds", eo->run_cpu);
  json_writer_double(w, "run_wall_seconds", eo->run_wall);
  json_writer_double(w, "harness_build_seconds", eo->harness_wall); /* 0: the harness was cached */
  json_writer_int(w, "p", c->p);
  json_writer_int(w, "pes_used", c->t);
  if (c->line_rows > 0) { /* a 1-D program on a line of an RxC region */
    json_writer_begin_array(w, "line");
    json_writer_int(w, NULL, c->line_rows);
    json_writer_int(w, NULL, c->line_cols);
    json_writer_end_array(w);
  } else {
    json_writer_null(w, "line");
  }
  char dims[256];
  run_tiled_dims(p, c, dims, sizeof dims);
  json_writer_string(w, "tiled_dimension", dims);
  json_writer_int(w, "control_signals", c->nsig);
  json_writer_uint(w, "predicted_cycles", c->pred_cycles);
  json_writer_uint(w, "predicted_done_cycles", c->pred_done);
  run_json_cycles(w, "done_cycles", ran, r, 1);
  if (o->engine == RUN_ENGINE_COSIM || o->engine == RUN_ENGINE_SYSTEMC) {
    run_json_cycles(w, "rtl_cycles", eo->ran_rtl, &eo->rtl, 0);
    run_json_cycles(w, "rtl_done_cycles", eo->ran_rtl, &eo->rtl, 1);
    if (eo->diverged) json_writer_string(w, "divergence", eo->divergence); /* for people */
    else json_writer_null(w, "divergence");
    /* the same as data, what tcpa regress buckets by (divergence_unit.h) */
    divergence_record_json(w, "divergence_record", eo->diverged ? &eo->lockstep.div.rec : NULL);
    if (eo->lockstep_ran) { /* where the lockstep run stopped (engine.h) */
      json_writer_bool(w, "stopped_early", eo->diverged);
      json_writer_uint(w, "stop_cycle", eo->lockstep.stop_cycle);
      json_writer_uint(w, "model_cycles_simulated", eo->lockstep.model_cycles);
      json_writer_uint(w, "rtl_cycles_simulated", eo->lockstep.rtl_cycles);
      json_writer_bool(w, "rtl_stopped_by_checker", eo->lockstep.stopped_early);
    }
  }
  json_writer_uint(w, "mismatches", eo->mismatches);
  json_writer_uint(w, "faults", (ran ? r->faults : 0) +
                                    ((o->engine == RUN_ENGINE_COSIM || o->engine == RUN_ENGINE_SYSTEMC) && eo->ran_rtl ? eo->rtl.faults : 0));
}

/* Writes summary.json's `outputs`: whose values DIR/NAME.txt hold, the
 * files, the reference's directory, the differing and unplaced elements
 * and the diff file (docs/user-guide.md, "summary.json"). */
static void run_summary_outputs(json_writer *w, const ast_program *p, const run_outputs *outs) {
  json_writer_begin_object(w, "outputs");
  if (outs->engine) json_writer_string(w, "engine", outs->engine);
  else json_writer_null(w, "engine");
  json_writer_begin_object(w, "files");
  for (int a = 0; outs->engine && a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_OUT) {
      char *name = run_out_path(".", NULL, p->arrays[a].name); /* "./NAME.txt" */
      if (name) json_writer_string(w, p->arrays[a].name, name + 2);
      free(name);
    }
  json_writer_end_object(w);
  if (outs->ref_written) json_writer_string(w, "reference_dir", "ref");
  else json_writer_null(w, "reference_dir");
  if (outs->engine) {
    json_writer_uint(w, "elements", outs->total);
    json_writer_uint(w, "differing", outs->differing);
    json_writer_uint(w, "unplaced", outs->unplaced);
  } else {
    json_writer_null(w, "elements");
    json_writer_null(w, "differing");
    json_writer_null(w, "unplaced");
  }
  if (outs->diff) json_writer_string(w, "diff", outs->diff);
  else json_writer_null(w, "diff");
  json_writer_end_object(w);
}

/* Writes the members of summary.json that say which run it is. */
static void run_summary_head(json_writer *w, const ast_program *p, const run_opts *o, const int64_t *params,
                             const char *status) {
  json_writer_string(w, "program", p->name);
  json_writer_string(w, "program_file", o->program);
  json_writer_string(w, "tool_version", version_tool());
  json_writer_string(w, "git_rev", version_git_rev());
  json_writer_string(w, "engine", run_engine_names[o->engine]);
  json_writer_string(w, "status", status);
  json_writer_begin_array(w, "pes");
  json_writer_int(w, NULL, o->pes_r);
  json_writer_int(w, NULL, o->pes_c);
  json_writer_end_array(w);
  json_writer_begin_object(w, "params");
  for (int i = 0; i < p->nparams; i++) json_writer_int(w, p->param[i], params[i]);
  json_writer_end_object(w);
  json_writer_uint(w, "seed", o->seed);
}

/* Writes summary.json's content to f. */
static void run_summary_json(FILE *f, const ast_program *p, const run_opts *o,
                             const int64_t *params, const run_result *res) {
  json_writer w = json_writer_make(f);
  json_writer_begin_object(&w, NULL);
  run_summary_head(&w, p, o, params, res->status);
  json_writer_begin_object(&w, "inputs");
  for (int a = 0; a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_IN)
      json_writer_string(&w, p->arrays[a].name, res->from[a] ? res->from[a] : "random");
  json_writer_end_object(&w);
  json_writer_string(&w, "arch", o->arch ? o->arch : arch_default_ini_name);
  run_summary_outputs(&w, p, &res->outs);
  if (res->eo) run_summary_engine(&w, p, o, res->eo);
  else {
    /* `cycles` is absent for ref (docs/user-guide.md). ii, processor_classes and
     * config_bytes describe a mapped configuration, which the ref engine
     * does not build: null. */
    json_writer_null(&w, "ii");
    json_writer_null(&w, "processor_classes");
    json_writer_null(&w, "config_bytes");
  }
  json_writer_uint(&w, "instances", res->stats.instances);
  json_writer_uint(&w, "iterations", res->stats.iterations);
  json_writer_double(&w, "ref_seconds", res->stats.seconds);
  json_writer_end_object(&w);
}

/* Writes DIR/fcov.json from the stream of eo and the trace in DIR (the
 * model's, else the RTL's), or else from the model's events counted as
 * they came (counted: --traces on-failure, a run that passed); removes it
 * when there is none. A trace that does not read is a warning: coverage
 * never changes the run's verdict. */
static void run_fcov_write(const run_opts *o, const engine_outcome *eo, const fcov_set *counted) {
  size_t len = strlen(o->out_dir) + 32;
  char *path = malloc(len), *trace = malloc(len), msg[512];
  if (!path || !trace) goto done;
  snprintf(path, len, "%s/fcov.json", o->out_dir);
  snprintf(trace, len, "%s/model.trace", o->out_dir);
  FILE *f = eo && eo->built ? fopen(trace, "r") : NULL;
  if (!f && eo && eo->built) {
    snprintf(trace, len, "%s/rtl.trace", o->out_dir);
    f = fopen(trace, "r");
  }
  if (!f && counted && counted->runs && eo && eo->built && fcov_save(counted, path) == 0) path[0] = '\0';
  arch_config cfg;
  int loaded = f && (o->arch ? arch_config_load(o->arch, &cfg) : arch_config_load_default(&cfg)) == 0;
  fcov_set s = {0};
  if (loaded && fcov_run_count(&s, &cfg, eo->c.stream, eo->c.stream_len, f, msg, sizeof msg) != 0)
    diag_note("functional coverage not written: %s: %s", trace, msg);
  else if (loaded && fcov_save(&s, path) == 0) path[0] = '\0';
  if (path[0]) remove(path);
  if (f) fclose(f);
  fcov_free(&s);
done:
  free(path);
  free(trace);
}

/* Returns 0 after writing --out-dir: inputs, outputs (run_outputs_write,
 * noted in res->outs), the functional coverage, then summary.json; -1
 * after an error. */
int run_out_dir_write(const ast_program *p, const run_opts *o, const int64_t *params,
                      const interp_array *arrays, run_result *res) {
  size_t len = strlen(o->out_dir) + 32;
  char *sub = malloc(len);
  int rc = -1;
  if (!sub) return -1;
  snprintf(sub, len, "%s/inputs", o->out_dir);
  if (run_mkdir_p(o->out_dir) != 0 || run_mkdir_p(sub) != 0) goto error;
  if (run_arrays_write(p, arrays, AST_ARRAY_IN, o->out_dir, "inputs") != 0) goto error;
  if (run_outputs_write(p, o, arrays, res) != 0) goto error;
  run_fcov_write(o, res->eo, res->fcov);
  snprintf(sub, len, "%s/summary.json", o->out_dir);
  datafile_tmp t;
  if (datafile_tmp_open(&t, sub) != 0) goto error;
  run_summary_json(t.f, p, o, params, res);
  rc = datafile_tmp_commit(&t);
error:
  free(sub);
  return rc;
}

int run_out_json_write(const ast_program *p, const run_opts *o, const int64_t *params, const char *status,
                       void (*body)(json_writer *w, const void *ctx), const void *ctx) {
  size_t len = strlen(o->out_dir) + 32;
  char *path = malloc(len);
  int rc = -1;
  if (!path) return -1;
  snprintf(path, len, "%s/summary.json", o->out_dir);
  datafile_tmp t;
  if (run_mkdir_p(o->out_dir) == 0 && datafile_tmp_open(&t, path) == 0) {
    json_writer w = json_writer_make(t.f);
    json_writer_begin_object(&w, NULL);
    run_summary_head(&w, p, o, params, status);
    json_writer_string(&w, "arch", o->arch ? o->arch : arch_default_ini_name);
    body(&w, ctx);
    json_writer_end_object(&w);
    rc = datafile_tmp_commit(&t);
  }
  free(path);
  return rc;
}

/* Writes the no-fit record fit (ctx) into summary.json (run_out_json_write). */
static void run_out_nofit_body(json_writer *w, const void *ctx) {
  const fit_record *fit = ctx;
  char msg[2048];
  regress_fit_write(w, "nofit", fit);
  json_writer_string(w, "nofit_message", fit_record_format(fit, msg, sizeof msg));
}

int run_out_nofit_write(const ast_program *p, const run_opts *o, const int64_t *params, const fit_record *fit) {
  return run_out_json_write(p, o, params, "nofit", run_out_nofit_body, fit);
}

/* Prints the engine lines of the human summary: one engine's cycles. */
static void run_summary_print_cycles(const char *who, int ran, const engine_result *r) {
  if (!ran) return;
  if (!r->done) {
    printf("%-9s not done\n", who);
    return;
  }
  printf("%-9s last output written in cycle %llu (cycles %llu), done %llu", who,
         (unsigned long long)(r->cycles ? r->cycles - 1 : 0), (unsigned long long)r->cycles,
         (unsigned long long)r->done_cycles);
  if (r->faults) printf(", faults: %s", r->fault_text);
  printf("\n");
}

/* Writes into buf where a 1-D program on an RxC region runs (" on the
 * first row of the 2x2 region (1x2)"), or "" for any other run. */
static void run_line_text(const run_opts *o, const engine_config *c, char *buf, size_t size) {
  buf[0] = 0;
  if (c->line_rows > 0)
    snprintf(buf, size, " on the first %s of the %dx%d region (%dx%d)", c->line_rows == 1 ? "row" : "column",
             o->pes_r, o->pes_c, c->line_rows, c->line_cols);
}

/* Prints the mapping and the cycles of a model/rtl/cosim run on stdout. */
static void run_summary_print_engine(const ast_program *p, const run_opts *o, const engine_outcome *eo) {
  const engine_config *c = &eo->c;
  if (!eo->built) return;
  char dims[256], line[128];
  run_tiled_dims(p, c, dims, sizeof dims);
  run_line_text(o, c, line, sizeof line);
  printf("mapping   %s tiled onto %d PE%s%s%s, p = %lld, II %d (ResMII %d, RecMII %d), "
         "%d processor class%s, stream %zu bytes\n", dims, c->t, c->t == 1 ? "" : "s",
         c->map_one_pe ? " as one tile (no channels)" : "", line,
         (long long)c->p, c->ii, c->resmii, c->recmii, c->npc, c->npc == 1 ? "" : "es", c->stream_len);
  printf("predicted cycles %llu, done %llu\n", (unsigned long long)c->pred_cycles,
         (unsigned long long)c->pred_done);
  run_summary_print_cycles("model", eo->ran_model, &eo->model);
  run_summary_print_cycles("rtl", eo->ran_rtl, &eo->rtl);
  if (eo->ran_model && eo->ran_rtl)
    printf("cosim     %s\n", eo->diverged ? eo->divergence : "traces agree");
  printf("time      build %.3f s, run %.3f s (CPU seconds, the harness's included; run %.3f s elapsed)\n",
         eo->build_cpu, eo->run_cpu, eo->run_wall);
  if (eo->harness_built)
    printf("harness   built for this run in %.1f s elapsed (not counted in the run's time)\n", eo->harness_wall);
  if (eo->lockstep_ran && eo->diverged)
    printf("stopped   at cycle %llu, early: RTL %llu cycles simulated, model %llu, of %llu predicted\n",
           (unsigned long long)eo->lockstep.stop_cycle, (unsigned long long)eo->lockstep.rtl_cycles,
           (unsigned long long)eo->lockstep.model_cycles, (unsigned long long)eo->c.pred_done);
}

/* Prints the outputs line of the human summary: whose values --out-dir
 * DIR holds and, on a mismatch, the diff file. */
static void run_summary_print_outputs(const char *dir, const run_outputs *outs) {
  if (!outs->ref_written) return;
  if (!outs->engine) {
    printf("outputs   none from the engine; the reference's in %s/ref/\n", dir);
    return;
  }
  printf("outputs   %s/NAME.txt (%s), the reference's in %s/ref/", dir, outs->engine, dir);
  if (outs->diff)
    printf(", %zu of %zu elements differ (%s/%s)", outs->differing, outs->total, dir, outs->diff);
  printf("\n");
}

/* Prints the human summary of a run on stdout. */
void run_summary_print(const ast_program *p, const run_opts *o, const int64_t *params, const run_result *res) {
  printf("program   %s (%s)\nparams   ", p->name, o->program);
  for (int i = 0; i < p->nparams; i++)
    printf(" %s=%lld", p->param[i], (long long)params[i]);
  printf("\nengine    %s, pes %dx%d\ninputs   ", run_engine_names[o->engine],
         o->pes_r, o->pes_c);
  int any = 0;
  for (int a = 0; a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_IN) {
      any = 1;
      if (res->from[a])
        printf(" %s=%s", p->arrays[a].name, res->from[a]);
      else
        printf(" %s=random(seed %llu)", p->arrays[a].name,
               (unsigned long long)o->seed);
    }
  printf("%s\n", any ? "" : " none");
  double s = res->stats.seconds;
  printf("reference %llu equation instances in %.6f s (%.1f M/s)\n",
         (unsigned long long)res->stats.instances, s,
         s > 0 ? (double)res->stats.instances / s / 1e6 : 0.0);
  if (res->eo) run_summary_print_engine(p, o, res->eo);
  if (o->out_dir) run_summary_print_outputs(o->out_dir, &res->outs);
  printf("verdict   %s\n", res->status);
}

