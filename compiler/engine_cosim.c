/*
 * engine_cosim.c: the comparison of the `cosim` engine: the C model's
 * trace (expected) and the RTL's trace (actual), both complete, go through
 * the lockstep checker (tb/lockstep.h) cycle by cycle; the first divergence
 * is reported with its cycle, PE, unit, both events and the last events of
 * that PE, and, when the RTL wrote a waveform, a GTKWave save file
 * (tb/gtkw.h) opens it at the divergence. (A true lockstep, the Verilated
 * model stepped beside the C model in one process, is a later step; the
 * comparison after both runs finds the same first divergence.)
 */
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "../tb/gtkw.h"
#include "../tb/lockstep.h"
#include "engine.h"

/* Writes the GTKWave save file of divergence d to path (a warning on f
 * when the FST's signals cannot be listed); returns 0 or -1 with msg. */
static int engine_cosim_gtkw(const char *path, const char *fst, const lockstep_divergence *d,
                             const lockstep_fst_timing *t, FILE *f, char *msg, size_t msgsz) {
  char scope[512], comment[200];
  gtkw_signals sigs = {0};
  gtkw_view v = {0};
  gtkw_pe_scope(scope, sizeof scope, NULL, d->row < 0 ? 0 : d->row, d->col < 0 ? 0 : d->col);
  if (gtkw_view_at(&v, t->t0, t->period, d->cycle, LOCKSTEP_WINDOW_DEFAULT)) {
    snprintf(msg, msgsz, "cycle %" PRIu64 " does not fit the FST's time", d->cycle);
    return -1;
  }
  v.fst_path = fst;
  v.pe_scope = scope;
  snprintf(comment, sizeof comment, "divergence at cycle %" PRIu64 ", PE (%d,%d), %s %s", d->cycle, d->row,
           d->col, trace_kind_name(d->kind), d->unit);
  v.comment = comment;
  char why[400];
  if (gtkw_fst_signals(fst, scope, &sigs, why, sizeof why))
    fprintf(f, "  (waveform: %s; the save file has the marker but no signal list)\n", why);
  int rc = gtkw_write(path, &v, &sigs, msg, msgsz);
  gtkw_signals_free(&sigs);
  if (!rc) fprintf(f, "  waveform: gtkwave %s (marker at the divergence)\n", path);
  return rc;
}

int engine_cosim_check(const char *model_trace, const char *rtl_trace, const char *fst,
                       const char *gtkw, FILE *report, char *line, size_t linesz, char *msg,
                       size_t msgsz) {
  line[0] = 0;
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
    const lockstep_divergence *d = lockstep_result(ls);
    static const char *const what[] = {"none", "different values", "missing in the RTL",
                                       "extra in the RTL", "version", "fingerprint"};
    char ev[128] = "", ea[128] = "";
    if (d->has_model) trace_event_format(&d->model, ev, sizeof ev);
    if (d->has_rtl) trace_event_format(&d->rtl, ea, sizeof ea);
    snprintf(line, linesz, "cycle %" PRIu64 ", PE (%d,%d), %s%s%s: %s; expected '%s', got '%s'", d->cycle,
             d->row, d->col, trace_kind_name(d->kind), d->unit[0] ? " " : "", d->unit,
             what[d->diff <= LOCKSTEP_DIFF_FINGERPRINT ? d->diff : 0], d->has_model ? ev : "(nothing)",
             d->has_rtl ? ea : "(nothing)");
    lockstep_report_write(ls, report);
    if (gtkw && fst && access(fst, R_OK) == 0 &&
        engine_cosim_gtkw(gtkw, fst, d, &timing, report, msg, msgsz))
      fprintf(report, "  (no GTKWave save file: %s)\n", msg);
    rc = 1;
  }
  lockstep_free(ls);
  return rc;
}
