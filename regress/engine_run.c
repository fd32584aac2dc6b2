/*
 * engine_run.c: one run of `tcpa run --engine model|rtl|cosim` after the
 * reference interpreter has produced its outputs: build the configuration
 * (engine_config.c), keep the stream and listing in --out-dir, run the
 * engine(s), and check, in this order, that each engine reached done
 * without a fault, that its outputs equal the reference element by element,
 * and that its cycle counts equal what the schedule predicts; for cosim,
 * that the two traces agree cycle by cycle. Every failure is printed on
 * stderr; the status is the first one's (1 for all of these).
 *
 * Files: DIR/config.bin, DIR/config.lst, DIR/model.trace, DIR/rtl.trace
 * with --out-dir; `rtl` also keeps DIR/rtl.fst (the whole run). `cosim`
 * runs model and RTL in lockstep (engine_cosim_lockstep: the RTL streams
 * its trace, the model is stepped beside it, every cycle compared) without
 * a waveform; at the first divergence, at cycle c, both stop; it prints
 * the lockstep report and where each engine stopped on stderr and, with
 * --out-dir, writes it to DIR/divergence.txt, reruns the RTL to its end
 * with the FST limited to cycles c-W..c+W (DIR/rtl.fst; the banks of that
 * run are the RTL's outputs, which run_out.c writes to DIR/NAME.txt) and
 * writes DIR/divergence.gtkw (marker at c, the PE's signals), so `gtkwave
 * DIR/rtl.fst DIR/divergence.gtkw` opens on it; the model is rerun to
 * c+W for DIR/model.fst at the same FST times, both are merged into
 * DIR/compare.fst with DIR/compare.gtkw (engine_cosim_compare: model and
 * RTL side by side, the divergent instruction and its operands added to
 * the report), and DIR/repro/ receives the reproduction bundle
 * (engine_repro.c).
 * The RTL's working files (its copy of the stream, bank dumps, log, and
 * traces not kept) live in a temporary directory removed afterwards.
 *
 * With --traces on-failure (engine_run_lean) model and cosim run as
 * without --out-dir, no trace or FST kept, the model's events counted into
 * the run's functional coverage as they come (a tap on its sink, fcov.h);
 * a run that fails is run again as above, so a failure keeps everything.
 * The build's and the engines' CPU seconds (the harness's included) and
 * the engines' elapsed seconds go to the outcome for the `time` line; a
 * harness missing from the cache is built before the engines' clock
 * starts (engine_run_harness), its build time reported apart.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "datafile.h"
#include "diag.h"
#include "engine_flow.h"
#include "fcov.h"

#define ENGINE_SHOW 10         /* differing elements printed */
#define ENGINE_MAX_CYCLES_MIN 100000ull
#define ENGINE_RERUN_SLACK 1000ull

/* Returns 0 after writing len bytes of data to path atomically; -1. */
static int engine_file_write(const char *path, const void *data, size_t len) {
  datafile_tmp t;
  if (datafile_tmp_open(&t, path)) return -1;
  if (fwrite(data, 1, len, t.f) != len) {
    datafile_tmp_abort(&t);
    diag_error_plain("%s: cannot write: %s", path, strerror(errno));
    return -1;
  }
  return datafile_tmp_commit(&t);
}

/* Returns a malloc'ed "dir/name", or NULL when dir is NULL. */
static char *engine_path(const char *dir, const char *name) {
  if (!dir) return NULL;
  size_t n = strlen(dir) + strlen(name) + 2;
  char *s = malloc(n);
  if (s) snprintf(s, n, "%s/%s", dir, name);
  return s;
}

/* Removes directory dir and the files in it and in its subdirectories. */
void engine_rmtree(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char *p = engine_path(dir, e->d_name);
    if (p && remove(p) != 0) engine_rmtree(p);
    free(p);
  }
  if (d) closedir(d);
  rmdir(dir);
}

/* Returns the status after checking one engine's result r: done, no
 * faults, outputs equal to ref, cycles as predicted; prints each failure. */
static int engine_result_check(const char *who, const engine_config *c, const ast_program *p,
                               const interp_array *ref, const engine_result *r, engine_outcome *out) {
  int st = ENGINE_OK;
  if (!r->done) {
    diag_error_plain("%s: not done within the cycle limit (the schedule predicts done at %" PRIu64 " cycles)",
                     who, c->pred_done);
    st = ENGINE_MISMATCH;
  }
  if (r->faults) {
    diag_error_plain("%s: %" PRIu64 " fault%s (%s); see the trace (--out-dir)", who, r->faults,
                     r->faults == 1 ? "" : "s", r->fault_text);
    st = ENGINE_MISMATCH;
  }
  size_t total = 0;
  for (int a = 0; a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_OUT) total += ref[a].n;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  size_t bad = f ? engine_outputs_compare(p, ref, r, f, ENGINE_SHOW) : total;
  if (f) fclose(f);
  if (bad) {
    diag_error_plain("%s: %zu of %zu output element%s differ from the reference%s", who, bad, total,
                     total == 1 ? "" : "s", bad > ENGINE_SHOW ? " (the first ones follow)" : ":");
    fputs(text ? text : "", stderr);
    st = ENGINE_MISMATCH;
    if (!out->mismatches) out->mismatches = bad;
  }
  free(text);
  if (r->done && r->done_cycles != c->pred_done) {
    diag_error_plain("%s: done after %" PRIu64 " cycles, but the schedule predicts %" PRIu64
                     " (docs/user-guide.md, 'Cycles')", who, r->done_cycles, c->pred_done);
    st = ENGINE_MISMATCH;
  }
  if (r->done && r->cycles != c->pred_cycles) {
    diag_error_plain("%s: the last output is written in cycle %" PRId64 ", but the schedule predicts cycle %"
                     PRId64 " (docs/user-guide.md, 'Cycles')", who, (int64_t)r->cycles - 1,
                     (int64_t)c->pred_cycles - 1);
    st = ENGINE_MISMATCH;
  }
  return st;
}

/* Returns the status after running the C model (trace to `trace`, its
 * FST to `fst`; NULL: none; its events also to the coverage walk tap). */
static int engine_run_model(const ast_program *p, const arch_config *arch, const interp_array *ref,
                            const char *trace, const char *fst, fcov_walk *tap, engine_outcome *out) {
  engine_opts eo = {trace, fst, NULL, NULL, 0, -1, -1, tap ? fcov_walk_event : NULL, tap};
  char msg[512] = "";
  eo.max_cycles = out->c.pred_done * 4 + ENGINE_MAX_CYCLES_MIN;
  int st = engine_model_run(&out->c, arch, &eo, &out->model, msg, sizeof msg);
  out->ran_model = 1;
  if (st) {
    diag_error_plain("model: %s", msg);
    return st;
  }
  return engine_result_check("model", &out->c, p, ref, &out->model, out);
}

/* Returns the status after running the RTL (files as named, the FST
 * limited to cycles from..to when to >= 0). */
static int engine_run_rtl(const ast_program *p, const arch_config *arch, const interp_array *ref,
                          const engine_run_opts *o, const char *work, const char *trace, const char *fst,
                          int64_t from, int64_t to, engine_outcome *out) {
  char bin[4096], msg[512] = "";
  int st = engine_rtl_locate(arch, o->arch_path, bin, sizeof bin, msg, sizeof msg);
  if (st) {
    diag_error_plain("%s", msg);
    return st;
  }
  engine_opts eo = {trace, fst, work, o->arch_path, out->c.pred_done * 4 + ENGINE_MAX_CYCLES_MIN, from, to,
                    NULL, NULL};
  st = engine_rtl_run(bin, &out->c, arch, &eo, &out->rtl, msg, sizeof msg);
  out->ran_rtl = 1;
  if (st) {
    diag_error_plain("rtl: %s", msg);
    return st;
  }
  return engine_result_check("rtl", &out->c, p, ref, &out->rtl, out);
}

/* Sets d's FST time base (t0, period) from the `# fst` line of the RTL
 * trace `path`, when it has one: the harness that wrote the FST says where
 * its cycles lie (docs/trace.md "Time of a cycle in the FST"). */
static void engine_fst_timing_read(const char *path, engine_divergence *d) {
  FILE *f = fopen(path, "r");
  char line[200];
  unsigned long long t0, per;
  for (int k = 0; f && k < 8 && fgets(line, sizeof line, f); k++)
    if (sscanf(line, "# fst t0=%llu period=%llu", &t0, &per) == 2 && per) {
      d->t0 = t0, d->period = per;
      break;
    }
  if (f) fclose(f);
}

/* Returns the cycles the rerun after a divergence may take: the run's
 * limit, but at most twice the predicted length plus the window's end
 * plus ENGINE_RERUN_SLACK (a diverged RTL that hangs would otherwise
 * simulate and trace ENGINE_MAX_CYCLES_MIN cycles for outputs that are
 * wrong anyway; docs/user-guide.md). */
static uint64_t engine_rerun_max(const engine_outcome *out, uint64_t window_end) {
  uint64_t full = out->c.pred_done * 4 + ENGINE_MAX_CYCLES_MIN;
  uint64_t cap = out->c.pred_done * 2 + window_end + ENGINE_RERUN_SLACK;
  return cap < full ? cap : full;
}

/* Reruns the RTL of out to its end with the FST limited to W cycles
 * around divergence d (keep/rtl.fst), writes keep/divergence.gtkw and
 * gives out->rtl the outputs of that run (the lockstep run, stopped at
 * the divergence, has none); notes on f. */
static void engine_divergence_waveform(const arch_config *arch, const engine_run_opts *o, const char *work, const char *keep,
                                       const engine_divergence *d0, engine_outcome *out, FILE *f) {
  engine_divergence dd = *d0, *d = &dd;
  char bin[4096], msg[512] = "", trace[4200];
  int w = o->window > 0 ? o->window : ENGINE_WINDOW_DEFAULT;
  char *fst = engine_path(keep, "rtl.fst"), *gtkw = engine_path(keep, "divergence.gtkw");
  snprintf(trace, sizeof trace, "%s/rtl-window.trace", work);
  engine_result r = {0};
  int64_t from = d->cycle > (uint64_t)w ? (int64_t)(d->cycle - (uint64_t)w) : 0;
  /* the rerun goes on to the end, as --engine rtl would (the FST holds
     only the window): its banks are the RTL's outputs in --out-dir; an RTL
     that has diverged may never finish, so it stops at twice the predicted
     length past the window (engine_rerun_max) */
  engine_opts eo = {trace, fst, work, o->arch_path, engine_rerun_max(out, d->cycle + (uint64_t)w), from,
                    (int64_t)d->cycle + w, NULL, NULL};
  int ok = 0, ran = 0;
  if (!fst || !gtkw) {
    snprintf(msg, sizeof msg, "out of memory");
  } else {
    remove(fst); /* a waveform of an earlier run must not pass for this one */
    ran = !engine_rtl_locate(arch, o->arch_path, bin, sizeof bin, msg, sizeof msg) &&
          !engine_rtl_run(bin, &out->c, arch, &eo, &r, msg, sizeof msg);
    if (ran) engine_fst_timing_read(trace, d);
    ok = ran && !engine_cosim_waveform(fst, gtkw, d, w, f, msg, sizeof msg);
  }
  if (!ok) fprintf(f, "  (no waveform: %s)\n", msg);
  if (ran) engine_result_outputs_move(&out->rtl, &r);
  /* the model's side, at the same FST times as rtl.fst (its t0) */
  char *mfst = engine_path(keep, "model.fst");
  if (mfst && !engine_model_fst(&out->c, arch, mfst, d->t0, d->cycle + (uint64_t)w + 1, msg, sizeof msg))
    fprintf(f, "  model's waveform:  gtkwave %s %s (the same signals, cycles 0..%" PRIu64 ")\n", mfst, gtkw,
            d->cycle + (uint64_t)w);
  else
    fprintf(f, "  (no model waveform: %s)\n", msg);
  if (ok && mfst && engine_cosim_compare(keep, arch, d, w, f, msg, sizeof msg) < 0)
    fprintf(f, "  (no side-by-side waveform: %s)\n", msg);
  free(mfst);
  engine_result_free(&r);
  free(fst);
  free(gtkw);
}

/* Returns the status after writing the report text[0..len) of a
 * divergence to stderr and keep/divergence.txt. */
static int engine_divergence_report(const engine_outcome *out, const char *keep, const char *text,
                                    size_t len) {
  int st = ENGINE_MISMATCH;
  diag_error_plain("cosim: the model and the RTL diverge: %s", out->divergence);
  fputs(text ? text : "", stderr);
  char *txt = engine_path(keep, "divergence.txt");
  if (txt && engine_file_write(txt, text ? text : "", len)) st = ENGINE_ERR_INPUT;
  free(txt);
  return st;
}

/* Returns the status after running model and RTL in lockstep (traces kept
 * in mtrace, rtrace; the model's events also to the coverage walk tap);
 * on a divergence prints the report (stderr, keep/divergence.txt) and,
 * with keep, the waveform around it; otherwise checks both results. */
static int engine_run_cosim(const ast_program *p, const arch_config *arch, const interp_array *ref,
                            const engine_run_opts *o, const char *work, const char *keep, const char *mtrace,
                            const char *rtrace, fcov_walk *tap, engine_outcome *out) {
  char bin[4096], msg[512] = "", *text = NULL;
  size_t len = 0;
  int st = engine_rtl_locate(arch, o->arch_path, bin, sizeof bin, msg, sizeof msg);
  if (st) {
    diag_error_plain("%s", msg);
    return st;
  }
  FILE *f = open_memstream(&text, &len);
  if (!f || engine_result_init(&out->model, &out->c) || engine_result_init(&out->rtl, &out->c)) {
    if (f) fclose(f);
    free(text);
    diag_error_plain("cosim: out of memory");
    return ENGINE_ERR_INPUT;
  }
  uint64_t max = out->c.pred_done * 4 + ENGINE_MAX_CYCLES_MIN;
  engine_opts mo = {mtrace, NULL, NULL, NULL, max, -1, -1, tap ? fcov_walk_event : NULL, tap};
  engine_opts ro = {rtrace, NULL, work, o->arch_path, max, -1, -1, NULL, NULL};
  engine_lockstep *ls = &out->lockstep;
  int rc = engine_cosim_lockstep(bin, &out->c, arch, &mo, &ro, &out->model, &out->rtl, ls, f, msg, sizeof msg);
  out->ran_model = out->ran_rtl = out->lockstep_ran = 1;
  if (rc == 1) {
    fprintf(f, "  stopped:           both engines at cycle %" PRIu64 " (RTL: %" PRIu64 " cycles simulated%s, "
               "model: %" PRIu64 ", of the %" PRIu64 " the schedule predicts)\n",
            ls->stop_cycle, ls->rtl_cycles, ls->stopped_early ? ", then stopped" : ", it had ended",
            ls->model_cycles, out->c.pred_done);
    if (keep) engine_divergence_waveform(arch, o, work, keep, &ls->div, out, f);
  }
  fclose(f);
  if (rc < 0) {
    diag_error_plain("cosim: %s", msg);
    st = ENGINE_ERR_INPUT;
  } else if (rc > 0) {
    out->diverged = 1;
    snprintf(out->divergence, sizeof out->divergence, "%s", ls->line);
    st = engine_divergence_report(out, keep, text, len);
  } else {
    st = engine_result_check("model", &out->c, p, ref, &out->model, out);
    int st2 = engine_result_check("rtl", &out->c, p, ref, &out->rtl, out);
    if (!st) st = st2;
  }
  free(text);
  return st;
}

/* Removes the divergence files and the reproduction bundle an earlier run
 * may have left in dir. */
static void engine_divergence_clear(const char *dir) {
  static const char *const names[] = {"divergence.txt", "divergence.gtkw", "rtl.fst", "model.fst", "compare.fst",
                                      "compare.gtkw", ENGINE_INSN_FILTER};
  for (size_t i = 0; dir && i < sizeof names / sizeof *names; i++) {
    char *path = engine_path(dir, names[i]);
    if (path) remove(path);
    free(path);
  }
  char *repro = engine_path(dir, "repro");
  if (repro) engine_rmtree(repro);
  free(repro);
}

/* Returns the status after keeping the stream and the listing in dir. */
static int engine_keep_config(const engine_config *c, const char *dir) {
  char *bin = engine_path(dir, "config.bin"), *lst = engine_path(dir, "config.lst");
  int rc = bin && lst && !engine_file_write(bin, c->stream, c->stream_len) &&
                   !engine_file_write(lst, c->listing, strlen(c->listing))
               ? ENGINE_OK
               : ENGINE_ERR_INPUT;
  free(bin);
  free(lst);
  return rc;
}

/* Adds the waveform around a systemc divergence (tcpa-rtl rerun with the
 * FST window, as for cosim) to keep/divergence.txt and stderr; returns the
 * status (ENGINE_ERR_INPUT when divergence.txt cannot be rewritten). */
static int engine_systemc_waveform(const arch_config *arch, const engine_run_opts *o, const char *work, const char *keep,
                                   engine_outcome *out) {
  char *text = NULL, *txt = engine_path(keep, "divergence.txt");
  size_t len = 0;
  FILE *f = open_memstream(&text, &len), *old = txt ? fopen(txt, "r") : NULL;
  int c, st = ENGINE_MISMATCH;
  while (f && old && (c = fgetc(old)) != EOF) fputc(c, f);
  if (old) fclose(old);
  long start = f ? ftell(f) : 0;
  if (f) engine_divergence_waveform(arch, o, work, keep, &out->lockstep.div, out, f);
  if (f) fclose(f);
  if (text && start >= 0 && (size_t)start <= len) fputs(text + start, stderr);
  if (!text || !txt || engine_file_write(txt, text, len)) st = ENGINE_ERR_INPUT;
  free(text);
  free(txt);
  return st;
}

/* Returns the status of the systemc engine: tcpa-sc's verdict (at a
 * divergence, with keep, the waveform around it) and, when the traces
 * agree, both results checked as cosim checks them. */
static int engine_run_systemc(const ast_program *p, const arch_config *arch, const interp_array *ref,
                              const engine_run_opts *o, const char *work, engine_outcome *out) {
  int st = engine_systemc_run(arch, o, work, out);
  /* the divergence's record: tb/engine_systemc.c, from the kept traces */
  if (st == ENGINE_MISMATCH && out->diverged && o->out_dir)
    return engine_systemc_waveform(arch, o, work, o->out_dir, out);
  if (st || out->diverged) return st;
  st = engine_result_check("model", &out->c, p, ref, &out->model, out);
  int st2 = engine_result_check("rtl", &out->c, p, ref, &out->rtl, out);
  return st ? st : st2;
}

/* Returns the status after running the engines of o on the built
 * configuration, keeping traces and waveforms in keep (NULL: none) and
 * counting the model's events into the coverage walk tap (NULL: none);
 * work is the temporary directory (rtl, cosim). */
static int engine_run_engines(const ast_program *p, const arch_config *arch, const interp_array *ref,
                              const engine_run_opts *o, const char *work, const char *keep, fcov_walk *tap,
                              engine_outcome *out) {
  if (o->kind == ENGINE_KIND_SYSTEMC) return engine_run_systemc(p, arch, ref, o, work, out);
  int cosim = o->kind == ENGINE_KIND_COSIM;
  /* a trace file only with --out-dir: cosim compares the events (or their
     digests) as they come, rtl reads its result from the digest stream */
  char *mtrace = engine_path(keep, "model.trace");
  char *rtrace = engine_path(keep, "rtl.trace");
  char *fst = cosim ? NULL /* cosim: only around a divergence */
              : o->fst ? strdup(o->fst)
              : engine_path(keep, o->kind == ENGINE_KIND_MODEL ? "model.fst" : "rtl.fst");
  int st = ENGINE_OK;
  if (cosim) {
    engine_divergence_clear(keep);
    st = engine_run_cosim(p, arch, ref, o, work, keep, mtrace, rtrace, tap, out);
  } else if (o->kind == ENGINE_KIND_MODEL) {
    st = engine_run_model(p, arch, ref, mtrace, fst, tap, out);
  } else if (o->kind == ENGINE_KIND_RTL) {
    st = engine_run_rtl(p, arch, ref, o, work, rtrace, fst, -1, -1, out);
  }
  free(mtrace);
  free(rtrace);
  free(fst);
  return st;
}

/* Returns the CPU seconds (user and system) used so far by this process
 * and by the children it has waited for (the harnesses). */
static double engine_cpu_seconds(void) {
  struct rusage self, kids;
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &kids);
  return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + kids.ru_utime.tv_sec + kids.ru_stime.tv_sec) +
         (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec + kids.ru_utime.tv_usec + kids.ru_stime.tv_usec) *
             1e-6;
}

/* Returns the seconds of the monotonic clock. */
static double engine_wall_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Forgets what a run of the engines found (results, divergence,
 * lockstep), the built configuration kept: before running them again. */
static void engine_outcome_runs_clear(engine_outcome *out) {
  engine_result_free(&out->model);
  engine_result_free(&out->rtl);
  memset(&out->model, 0, sizeof out->model);
  memset(&out->rtl, 0, sizeof out->rtl);
  out->ran_model = out->ran_rtl = out->diverged = out->lockstep_ran = 0;
  out->divergence[0] = '\0';
  out->mismatches = 0;
  memset(&out->lockstep, 0, sizeof out->lockstep);
}

/* Removes the traces and waveforms an earlier run may have left in dir,
 * which a run keeping none would otherwise leave beside its results. */
static void engine_traces_clear(const char *dir) {
  static const char *const names[] = {"model.trace", "rtl.trace", "model.fst", "rtl.fst"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    char *path = engine_path(dir, names[i]);
    if (path) remove(path);
    free(path);
  }
}

/* Returns the status of the engines' run without traces (--traces
 * on-failure; cosim's harness found, or built, first), its stderr held in
 * work/stderr.txt and shown only when it passed (a failing run is repeated keeping its traces, and that repeat
 * says why), the model's events counted into o->fcov; after a failure the
 * status of the repeat (engine_run_engines keeping traces in out_dir, no
 * coverage counted: fcov.json then comes from the trace), or an error
 * when the repeat passes. */
static int engine_run_lean(const ast_program *p, const arch_config *arch, const interp_array *ref,
                           const engine_run_opts *o, const char *work, engine_outcome *out) {
  char msg[512], held[4200], bin[4096];
  /* a harness missing from the cache is built here, its progress on
     stderr as it goes, not held back with the run's messages */
  int st = o->kind == ENGINE_KIND_COSIM ? engine_rtl_locate(arch, o->arch_path, bin, sizeof bin, msg, sizeof msg) : 0;
  if (st) {
    diag_error_plain("%s", msg);
    return st;
  }
  engine_traces_clear(o->out_dir);
  fcov_walk *tap = o->fcov ? fcov_walk_new(o->fcov, arch, out->c.stream, out->c.stream_len, msg, sizeof msg) : NULL;
  if (o->fcov && !tap) diag_note("functional coverage not counted: %s", msg);
  snprintf(held, sizeof held, "%s/stderr.txt", work);
  fflush(stderr);
  int saved = dup(2), fd = open(held, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (saved >= 0 && fd >= 0) dup2(fd, 2);
  if (fd >= 0) close(fd);
  st = engine_run_engines(p, arch, ref, o, work, NULL, tap, out);
  fflush(stderr);
  if (saved >= 0) {
    dup2(saved, 2);
    close(saved);
  }
  if (st == ENGINE_OK) {
    fcov_walk_finish(tap);
    FILE *f = fopen(held, "r");
    char buf[4096];
    size_t n;
    while (f && (n = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, n, stderr);
    if (f) fclose(f);
    return st;
  }
  fcov_walk_drop(tap);
  if (o->fcov) {
    fcov_free(o->fcov); /* counts of a run that failed: fcov.json comes from its trace */
    memset(o->fcov, 0, sizeof(fcov_set));
  }
  diag_note("the run failed without traces (--traces on-failure): running it again keeping them in %s",
            o->out_dir);
  int first = st;
  engine_outcome_runs_clear(out);
  st = engine_run_engines(p, arch, ref, o, work, o->out_dir, NULL, out);
  if (st == ENGINE_OK) {
    diag_error_plain("the run failed (exit %d) without traces and passed keeping them: the engines are not "
                     "deterministic",
                     first);
    st = ENGINE_ERR_INPUT;
  }
  return st;
}

/* Returns ENGINE_OK after finding the RTL harness the engine of o needs
 * (rtl, cosim: tcpa-rtl; systemc: tcpa-sc; none for the model), building
 * it when the cache lacks it, with out->harness_built and harness_wall
 * set; an error status after printing why. */
static int engine_run_harness(const arch_config *arch, const engine_run_opts *o, engine_outcome *out) {
  const engine_harness *h = o->kind == ENGINE_KIND_RTL || o->kind == ENGINE_KIND_COSIM ? &engine_harness_rtl
                            : o->kind == ENGINE_KIND_SYSTEMC                          ? &engine_harness_sc
                                                                                       : NULL;
  engine_harness_info info;
  char msg[1024];
  if (!h) return ENGINE_OK;
  int st = engine_harness_find(h, arch, o->arch_path, 1, &info, msg, sizeof msg);
  if (st) {
    diag_error_plain("%s", msg);
    return st;
  }
  out->harness_built = info.built;
  out->harness_wall = info.build_seconds;
  return ENGINE_OK;
}

int engine_run(const ast_program *p, const arch_config *arch, const int64_t *params, const interp_array *ref,
               int rows, int cols, int dim, const map_opts *mo, const inst_opts *io, const engine_run_opts *o,
               engine_outcome *out, fit_record *fit) {
  char msg[1024];
  memset(out, 0, sizeof *out);
  double cpu0 = engine_cpu_seconds();
  int st = engine_config_build(p, arch, params, ref, rows, cols, dim, mo, io, &out->c, fit, msg, sizeof msg);
  out->build_cpu = engine_cpu_seconds() - cpu0;
  if (st == ENGINE_ERR_NOFIT) {
    if (o->nofit_quiet) snprintf(out->nofit_msg, sizeof out->nofit_msg, "%s does not fit: %s", p->name, msg);
    else diag_error_plain("%s does not fit: %s", p->name, msg);
    return st;
  }
  if (st) {
    diag_error_plain("%s: %s", p->name, msg);
    return st;
  }
  out->built = 1;
  if (o->out_dir && engine_keep_config(&out->c, o->out_dir)) return ENGINE_ERR_INPUT;
  char work[4096] = "";
  int lean = o->traces_on_failure && o->out_dir && (o->kind == ENGINE_KIND_MODEL || o->kind == ENGINE_KIND_COSIM);
  if (o->kind != ENGINE_KIND_MODEL || lean) {
    const char *tmp = getenv("TMPDIR");
    snprintf(work, sizeof work, "%s/tcpa-run-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(work)) {
      diag_error_plain("cannot create a temporary directory '%s': %s", work, strerror(errno));
      return ENGINE_ERR_INPUT;
    }
  }
  st = engine_run_harness(arch, o, out);
  double cpu1 = engine_cpu_seconds(), wall1 = engine_wall_seconds();
  if (!st) st = lean ? engine_run_lean(p, arch, ref, o, work, out) : engine_run_engines(p, arch, ref, o, work, o->out_dir, NULL, out);
  out->run_cpu = engine_cpu_seconds() - cpu1;
  out->run_wall = engine_wall_seconds() - wall1;
  if (work[0]) engine_rmtree(work);
  if (out->diverged && o->out_dir) {
    if (engine_repro_write(o->out_dir, p, arch, params, ref, rows, cols, &out->c, mo, io, o, out->divergence, msg,
                           sizeof msg))
      diag_error_plain("cosim: no reproduction bundle: %s", msg);
    else
      fprintf(stderr, "  reproduction:      %s/repro (rerun: sh %s/repro/repro.sh; waveform: tcpa wave %s)\n",
              o->out_dir, o->out_dir, o->out_dir);
  }
  return st;
}

void engine_outcome_free(engine_outcome *out) {
  engine_config_free(&out->c);
  engine_result_free(&out->model);
  engine_result_free(&out->rtl);
}
