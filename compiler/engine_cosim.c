/*
 * engine_cosim.c: the comparison of the `cosim` engine, in true lockstep
 * (engine_cosim_lockstep): the RTL harness runs as a subprocess streaming
 * its trace through a pipe (engine_rtl_start), the C model is stepped in
 * process one cycle at a time, and after each cycle both sides' events of
 * that cycle go through the lockstep checker (tb/lockstep.h). At the first
 * divergence both stop (the harness is terminated and reaped), and the
 * report gives its cycle, PE, unit, both events and the last events of
 * that PE. Memory and time stay bounded by the divergence, not the run.
 *
 * engine_cosim_check compares two complete trace files the same way
 * (offline, `tcpa cosim-check`). The waveform is a second step
 * (engine_cosim_waveform): after the RTL has been rerun with its FST
 * limited to the cycles around the divergence, a GTKWave save file
 * (tb/gtkw.h) opens it with a marker at the divergence and the PE's signals
 * grouped. docs/trace.md, "Lockstep protocol".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tb/gtkw.h"
#include "../tb/lockstep.h"
#include "engine.h"

int engine_cosim_waveform(const char *fst, const char *gtkw, const engine_divergence *d, int window,
                          FILE *f, char *msg, size_t msgsz) {
  char scope[512], comment[200], why[400];
  gtkw_signals sigs = {0};
  gtkw_view v = {0};
  if (access(fst, R_OK) != 0) {
    snprintf(msg, msgsz, "the RTL wrote no waveform %s", fst);
    return -1;
  }
  gtkw_pe_scope(scope, sizeof scope, NULL, d->row < 0 ? 0 : d->row, d->col < 0 ? 0 : d->col);
  if (gtkw_view_at(&v, d->t0, d->period, d->cycle, window)) {
    snprintf(msg, msgsz, "cycle %" PRIu64 " does not fit the FST's time", d->cycle);
    return -1;
  }
  v.fst_path = fst;
  v.pe_scope = scope;
  snprintf(comment, sizeof comment, "divergence at cycle %" PRIu64 ", PE (%d,%d), %s", d->cycle, d->row,
           d->col, d->what);
  v.comment = comment;
  v.focus = d->what; /* the divergent FU / register first in the save file */
  if (gtkw_fst_signals(fst, scope, &sigs, why, sizeof why))
    fprintf(f, "  (waveform: %s; the save file has the marker but no signal list)\n", why);
  int rc = gtkw_write(gtkw, &v, &sigs, msg, msgsz);
  gtkw_signals_free(&sigs);
  if (!rc)
    fprintf(f, "  waveform:          gtkwave %s %s (cycles %" PRIu64 "..%" PRIu64 " dumped, marker at time %" PRIu64
               " = cycle %" PRIu64 ")\n",
            fst, gtkw, d->cycle > (uint64_t)window ? d->cycle - (uint64_t)window : 0, d->cycle + (uint64_t)window,
            v.marker, d->cycle);
  return rc;
}

/* Fills d and line from the lockstep checker's divergence ld. */
static void engine_cosim_describe(const lockstep_divergence *ld, const lockstep_fst_timing *t,
                                  engine_divergence *d, char *line, size_t linesz) {
  static const char *const what[] = {"none", "different values", "missing in the RTL",
                                     "extra in the RTL", "version", "fingerprint"};
  char ev[128] = "", ea[128] = "";
  if (ld->has_model) trace_event_format(&ld->model, ev, sizeof ev);
  if (ld->has_rtl) trace_event_format(&ld->rtl, ea, sizeof ea);
  d->cycle = ld->cycle;
  d->row = ld->row;
  d->col = ld->col;
  d->t0 = t->t0;
  d->period = t->period;
  snprintf(d->what, sizeof d->what, "%s%s%s", trace_kind_name(ld->kind), ld->unit[0] ? " " : "", ld->unit);
  snprintf(line, linesz, "cycle %" PRIu64 ", PE (%d,%d), %s: %s; expected '%s', got '%s'", ld->cycle, ld->row,
           ld->col, d->what, what[ld->diff <= LOCKSTEP_DIFF_FINGERPRINT ? ld->diff : 0],
           ld->has_model ? ev : "(nothing)", ld->has_rtl ? ea : "(nothing)");
}

int engine_cosim_check(const char *model_trace, const char *rtl_trace, FILE *report, engine_divergence *d,
                       char *line, size_t linesz, char *msg, size_t msgsz) {
  line[0] = 0;
  memset(d, 0, sizeof *d);
  lockstep *ls = lockstep_new(LOCKSTEP_KINDS_ALL, LOCKSTEP_WINDOW_DEFAULT);
  if (!ls) {
    snprintf(msg, msgsz, "out of memory");
    return -1;
  }
  lockstep_fst_timing timing;
  lockstep_status st = lockstep_files_check(ls, model_trace, rtl_trace, &timing);
  int rc = 0;
  if (st == LOCKSTEP_ERROR || st == LOCKSTEP_REFUSED) {
    snprintf(msg, msgsz, "the traces cannot be compared: %s",
             st == LOCKSTEP_ERROR ? lockstep_error_message(ls) : "different versions or fingerprints");
    rc = -1;
  } else if (st == LOCKSTEP_DIVERGED) {
    engine_cosim_describe(lockstep_result(ls), &timing, d, line, linesz);
    lockstep_report_write(ls, report);
    rc = 1;
  }
  lockstep_free(ls);
  return rc;
}

/* ---- the lockstep run --------------------------------------------------- */

/* The RTL side of a lockstep run: its streamed trace, one event ahead. */
typedef struct {
  FILE *in;
  FILE *tee;            /* copy of every line read (rtl.trace), or NULL */
  char *line;
  size_t cap;
  long lineno;
  int have;             /* ev is the next event */
  trace_event ev;
  lockstep_fst_timing timing;
  engine_result *r;
  uint64_t count[TRACE_FAULT_COUNT];
  char err[300];
} engine_cosim_rtl;

/* Returns 0 after reading the next RTL event into s->ev (s->have 0 at the
 * end of the stream); the header goes to the checker, the `# fst` comment
 * to s->timing; -1 with s->err on a malformed line or a missing header. */
static int engine_cosim_rtl_next(engine_cosim_rtl *s, lockstep *ls) {
  s->have = 0;
  while (getline(&s->line, &s->cap, s->in) > 0) {
    s->lineno++;
    if (s->tee) fputs(s->line, s->tee);
    if (s->lineno == 1) {
      int ver;
      uint64_t fp;
      if (trace_header_parse(s->line, &ver, &fp)) {
        snprintf(s->err, sizeof s->err, "the RTL trace does not start with '# tcpa-trace %d fp=0x...'",
                 TRACE_VERSION);
        return -1;
      }
      lockstep_header(ls, LOCKSTEP_RTL, ver, fp);
      continue;
    }
    char msg[200] = "";
    int k = trace_line_parse(s->line, &s->ev, msg, sizeof msg);
    unsigned long long t0, per;
    if (k == TRACE_LINE_COMMENT) {
      if (sscanf(s->line, "# fst t0=%llu period=%llu", &t0, &per) == 2 && per) {
        s->timing.t0 = t0, s->timing.period = per, s->timing.declared = 1;
      }
      continue;
    }
    if (k == TRACE_LINE_ERROR) {
      snprintf(s->err, sizeof s->err, "RTL trace line %ld: %s", s->lineno, msg);
      return -1;
    }
    engine_rtl_note(s->r, &s->ev, s->count);
    s->have = 1;
    return 0;
  }
  if (s->lineno == 0) {
    snprintf(s->err, sizeof s->err, "the RTL harness wrote no trace");
    return -1;
  }
  return 0;
}

/* The model side: the machine, its sink, its trace file. */
typedef struct {
  model *m;
  engine_model_sink sink;
  char tmp[4200];
} engine_cosim_model;

/* Feeds one model event to the checker (model_trace_fn). */
static void engine_cosim_feed(const trace_event *e, void *ctx) {
  lockstep_feed_model(ctx, e);
}

/* Returns 0 after making the model of c with its sink (trace file o->trace
 * when set, events fed to ls); -1 with msg. */
static int engine_cosim_model_new(engine_cosim_model *cm, const engine_config *c, const arch_config *arch,
                                  const engine_opts *o, lockstep *ls, char *msg, size_t msgsz) {
  model_error err;
  memset(cm, 0, sizeof *cm);
  cm->sink.next = engine_cosim_feed;
  cm->sink.next_ctx = ls;
  if (!(cm->m = model_new(arch, c->stream, c->stream_len, &err))) {
    snprintf(msg, msgsz, "the C model refuses the stream: %s", err.msg);
    return -1;
  }
  if (o->trace) {
    snprintf(cm->tmp, sizeof cm->tmp, "%s.tmp%ld", o->trace, (long)getpid());
    if (!(cm->sink.f = fopen(cm->tmp, "w"))) {
      snprintf(msg, msgsz, "%s: cannot write the trace: %s", o->trace, strerror(errno));
      return -1;
    }
    trace_header_write(cm->sink.f, c->fingerprint);
    fputs("# engine C model (tcpa run --engine cosim, lockstep)\n", cm->sink.f);
  }
  model_set_trace(cm->m, engine_model_event, &cm->sink);
  lockstep_header(ls, LOCKSTEP_MODEL, TRACE_VERSION, c->fingerprint);
  return 0;
}

/* Runs model cycle t (and its timeout fault when t is the last allowed);
 * returns 1 when the model has nothing more to emit after it. */
static int engine_cosim_model_step(model *m, uint64_t t, uint64_t max) {
  if (model_done(m) || model_cycles(m) >= max) return 1;
  if (model_cycles(m) == t) model_step(m);
  if (!model_done(m) && model_cycles(m) >= max) model_run(m, max); /* the timeout fault */
  return model_done(m) || model_cycles(m) >= max;
}

/* Returns the lockstep status after walking both engines cycle by cycle
 * until the checker stops or both have ended; *model_over tells whether
 * the model ended, *last the last cycle compared. */
static lockstep_status engine_cosim_walk(lockstep *ls, engine_cosim_model *cm, engine_cosim_rtl *rs,
                                         uint64_t max, uint64_t *last, char *msg, size_t msgsz) {
  int over = 0;
  for (uint64_t t = 0;; t++) {
    if (over && rs->have && rs->ev.cycle > t) t = rs->ev.cycle; /* only the RTL is left */
    over = engine_cosim_model_step(cm->m, t, max);
    while (rs->have && rs->ev.cycle <= t) {
      if (lockstep_feed_rtl(ls, &rs->ev) != LOCKSTEP_RUNNING) break;
      if (engine_cosim_rtl_next(rs, ls)) {
        snprintf(msg, msgsz, "%s", rs->err);
        return LOCKSTEP_ERROR;
      }
    }
    *last = t;
    if (lockstep_end_cycle(ls, t) != LOCKSTEP_RUNNING) return lockstep_status_get(ls);
    if (over && !rs->have) return lockstep_finish(ls);
  }
}

/* Returns 1 (diverged), 0 (agreed) or -1 (msg) from the checker's final
 * status st; a divergence fills out and writes the report. */
static int engine_cosim_outcome(lockstep *ls, lockstep_status st, const engine_cosim_rtl *rs,
                                engine_lockstep *out, FILE *report, char *msg, size_t msgsz) {
  if (st == LOCKSTEP_DIVERGED) {
    engine_cosim_describe(lockstep_result(ls), &rs->timing, &out->div, out->line, sizeof out->line);
    lockstep_report_write(ls, report);
    out->diverged = 1;
    return 1;
  }
  if (st == LOCKSTEP_RUNNING) return 0;
  if (st == LOCKSTEP_REFUSED) {
    const lockstep_divergence *r = lockstep_result(ls);
    snprintf(msg, msgsz, "the traces cannot be compared: trace format %d, fingerprint 0x%016" PRIx64
             " (model) and %d, 0x%016" PRIx64 " (RTL)", r->version_model, r->fp_model, r->version_rtl, r->fp_rtl);
  } else if (!msg[0]) {
    snprintf(msg, msgsz, "%s", lockstep_error_message(ls));
  }
  return -1;
}

/* Returns rc after stopping (rc != 0) or waiting for the harness h and
 * noting the cycles it simulated in out; a harness that failed turns rc 0
 * into -1, and its last log line explains a missing trace (msg). */
static int engine_cosim_reap(engine_rtl_live *h, int rc, const engine_cosim_rtl *rs, const engine_result *rr,
                             engine_lockstep *out, char *msg, size_t msgsz) {
  if (h->pid < 0) return rc;
  int hs = engine_rtl_finish(h, rc != 0, &out->rtl_cycles);
  char last[600];
  out->stopped_early = hs == 4;
  if (!out->stopped_early) out->rtl_cycles = rr->done ? rr->done_cycles : (rs->have ? rs->ev.cycle + 1 : 0);
  engine_rtl_last_log(h, last, sizeof last);
  if (rc == 0 && (hs < 0 || hs >= 2)) {
    snprintf(msg, msgsz, "%s exited with status %d%s%s", h->bin, hs, last[0] ? ": " : "", last);
    return -1;
  }
  if (rc == -1 && !rs->lineno && last[0]) snprintf(msg, msgsz, "%s: %s", h->bin, last);
  return rc;
}

int engine_cosim_lockstep(const char *bin, const engine_config *c, const arch_config *arch,
                          const engine_opts *mo, const engine_opts *ro, engine_result *mr,
                          engine_result *rr, engine_lockstep *out, FILE *report, char *msg,
                          size_t msgsz) {
  memset(out, 0, sizeof *out);
  lockstep *ls = lockstep_new(LOCKSTEP_KINDS_ALL, LOCKSTEP_WINDOW_DEFAULT);
  engine_cosim_model cm = {0};
  engine_cosim_rtl rs = {0};
  engine_rtl_live h = {.pid = -1};
  char rtmp[4200] = "";
  int rc = -1;
  rs.timing = (lockstep_fst_timing){0, LOCKSTEP_FST_PERIOD_DEFAULT, 0};
  rs.r = rr;
  msg[0] = 0;
  if (!ls) {
    snprintf(msg, msgsz, "out of memory");
    goto done;
  }
  if (engine_cosim_model_new(&cm, c, arch, mo, ls, msg, msgsz)) goto done;
  if (ro->trace) {
    snprintf(rtmp, sizeof rtmp, "%s.tmp%ld", ro->trace, (long)getpid());
    if (!(rs.tee = fopen(rtmp, "w"))) {
      snprintf(msg, msgsz, "%s: cannot write the trace: %s", ro->trace, strerror(errno));
      goto done;
    }
  }
  if (engine_rtl_start(bin, c, ro, &h, msg, msgsz)) goto done;
  rs.in = h.trace;
  lockstep_status st = LOCKSTEP_ERROR;
  if (engine_cosim_rtl_next(&rs, ls)) snprintf(msg, msgsz, "%s", rs.err);
  else st = engine_cosim_walk(ls, &cm, &rs, mo->max_cycles, &out->stop_cycle, msg, msgsz);
  out->model_cycles = model_cycles(cm.m);
  rc = engine_cosim_outcome(ls, st, &rs, out, report, msg, msgsz);
done:
  rc = engine_cosim_reap(&h, rc, &rs, rr, out, msg, msgsz);
  engine_rtl_fault_text(rr, rs.count);
  if (rc == 0 && engine_rtl_gather(h.banks, c, arch, rr, msg, msgsz)) rc = -1;
  if (rs.tee && (fclose(rs.tee) || rename(rtmp, ro->trace))) {
    remove(rtmp);
    if (rc >= 0) snprintf(msg, msgsz, "%s: cannot write the trace: %s", ro->trace, strerror(errno));
    rc = -1;
  }
  if (cm.sink.f && engine_model_trace_close(cm.sink.f, cm.tmp, mo->trace, msg, msgsz)) rc = -1;
  if (cm.m && rc == 0) engine_model_result(cm.m, &cm.sink, c, mr);
  model_free(cm.m);
  free(rs.line);
  lockstep_free(ls);
  return rc;
}
