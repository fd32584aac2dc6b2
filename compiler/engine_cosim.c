/*
 * engine_cosim.c: the comparison of the `cosim` engine: the C model's
 * trace (expected) and the RTL's trace (actual), both complete, go through
 * the lockstep checker (tb/lockstep.h) cycle by cycle; the first divergence
 * is reported with its cycle, PE, unit, both events and the last events of
 * that PE (engine_cosim_check). The waveform is a second step
 * (engine_cosim_waveform): after the RTL has been rerun with its FST
 * limited to the cycles around the divergence, a GTKWave save file
 * (tb/gtkw.h) opens it with a marker at the divergence and the PE's signals
 * grouped. (A true lockstep, the Verilated model stepped beside the C
 * model in one process, is a later step; the comparison after both runs
 * finds the same first divergence.)
 */
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
