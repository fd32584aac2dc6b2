/*
 * inst_run.c: the instantiation pipeline in order (inst.h): concretize,
 * processor classes, folding and kernel classes, CFGs, control signals,
 * the placement of I/O accesses in banks, the prolog shift sigma for early
 * input reads (which depends on the placement's pass-through hops), the
 * prolog's form (a loop on a signal, or nops) and program generation; once
 * more with the signals as one function of J when their colouring per
 * processor class does not fit (inst_run_opts). The stream is written by
 * inst_emit.
 */
#include <string.h>

#include "inst.h"

/* Returns sigma: the empty steps every program starts with so that each
 * bank event's phase sigma * pi + offset + lag is >= 0 (timing.md 6; lag
 * is the shift of an access served through pass-through hops from another
 * PE's bank, inst.h). */
static int inst_sigma(const inst *x) {
  int64_t lo = 0;
  for (int a = 0; a < x->m->naccess; a++) {
    int64_t off = x->m->access[a].offset;
    for (int k = 0; x->io && x->io[a].lag && k < x->t; k++)
      if (x->io[a].pside[k] >= 0 && off + x->io[a].lag[k] < lo) lo = off + x->io[a].lag[k];
    if (off < lo) lo = off;
  }
  return (int)((-lo + x->m->ii - 1) / x->m->ii);
}

int inst_run(inst *x, const map_config *m, const arch_config *arch, int nparam, char **pname,
             const int64_t *pval, int rows, int cols, char *msg, size_t msgsz) {
  return inst_run_opts(x, NULL, m, arch, nparam, pname, pval, rows, cols, msg, msgsz);
}

/* The steps of inst_run_steps whose shortfall the kernel sharing decides:
 * control signals (their count, polarity and the prolog's loop signal)
 * and program words. */
enum { INST_STEP_OTHER, INST_STEP_SHARING };

/* Returns INST_OK when the region at its origin (inst_opts.row0, col0)
 * lies in the array; else INST_ERR_INPUT for a negative origin, or
 * INST_ERR_NOFIT naming the array rows or columns it runs past. */
static int inst_origin_check(inst *x, char *msg, size_t msgsz) {
  int r0 = x->opt.row0, c0 = x->opt.col0;
  if (r0 < 0 || c0 < 0) {
    snprintf(msg, msgsz, "region origin %d,%d: row and column are 0 or more", r0, c0);
    return INST_ERR_INPUT;
  }
  if (r0 + x->rows > x->arch.rows || c0 + x->cols > x->arch.cols) {
    int r = r0 + x->rows > x->arch.rows;
    return fit_nofit(&x->fit, msg, msgsz, r ? FIT_RES_ARRAY_ROWS : FIT_RES_ARRAY_COLS, r ? "array.rows" : "array.cols",
                     r ? r0 + x->rows : c0 + x->cols, r ? x->arch.rows : x->arch.cols, "",
                     "region %dx%d at %d,%d needs %s 0..%d, the array has %d", x->rows, x->cols, r0, c0,
                     r ? "rows" : "columns", r ? r0 + x->rows - 1 : c0 + x->cols - 1, r ? x->arch.rows : x->arch.cols);
  }
  return INST_OK;
}

/* Returns INST_OK or the first failing step's status (inst.h), the
 * signals coloured as o says; *step says whether that step is one whose
 * shortfall depends on the kernel sharing (INST_STEP_SHARING). */
static int inst_run_steps(inst *x, const inst_opts *o, const map_config *m, const arch_config *arch, int nparam,
                          char **pname, const int64_t *pval, int rows, int cols, char *msg, size_t msgsz,
                          int *step) {
  msg[0] = 0;
  *step = INST_STEP_OTHER;
  int st = inst_concretize(x, m, arch, nparam, pname, pval, rows, cols, msg, msgsz);
  if (o) x->opt = *o; /* after inst_concretize, which clears *x */
  if (!st) st = inst_origin_check(x, msg, msgsz);
  if (!st) st = inst_classes(x, msg, msgsz);
  if (!st) st = inst_fold(x, msg, msgsz);
  if (!st) st = inst_cfg(x, msg, msgsz);
  if (!st && (st = inst_signals(x, msg, msgsz))) *step = INST_STEP_SHARING;
  if (!st) st = inst_place_io(x, msg, msgsz);
  if (!st) x->sigma = inst_sigma(x);
  if (!st && (st = inst_signals_polarity(x))) *step = INST_STEP_SHARING;
  if (!st && (st = inst_prolog(x, msg, msgsz))) *step = INST_STEP_SHARING;
  if (!st && (st = inst_proggen(x, msg, msgsz))) *step = INST_STEP_SHARING;
  if (!st) st = inst_fifo_check(x, msg, msgsz);
  if (!st) st = inst_classes_merge(x);
  return st;
}

/* Returns inst_run_steps' status. When the instantiation with waits does
 * not fit after its kernel sharing was chosen, for want of program words
 * or control signals (the shortfalls sharing decides; banks, FIFOs or
 * routing are not retried), a second try whose sharing counts every nop
 * as a word, as before waits (it shares more: fewer words and often fewer
 * condition spaces); its status when it fits, else the first try's
 * (docs/instantiate.md "Waits"). x->passes counts the tries. */
static int inst_run_pass(inst *x, const inst_opts *o, const map_config *m, const arch_config *arch, int nparam,
                         char **pname, const int64_t *pval, int rows, int cols, char *msg, size_t msgsz) {
  int step;
  int st = inst_run_steps(x, o, m, arch, nparam, pname, pval, rows, cols, msg, msgsz, &step);
  x->passes = 1;
  if (st != INST_ERR_NOFIT || step != INST_STEP_SHARING || !x->shared || x->opt.no_waits || x->opt.waits_blind)
    return st;
  inst_opts b = x->opt;
  b.waits_blind = 1;
  inst y;
  char ymsg[1024];
  int yst = inst_run_steps(&y, &b, m, arch, nparam, pname, pval, rows, cols, ymsg, sizeof ymsg, &step);
  x->passes = 2;
  if (yst != INST_OK) {
    inst_free(&y);
    return st;
  }
  inst_free(x);
  *x = y;
  x->passes = 2;
  return yst;
}

/* Returns 1 when x's signals need no more GC terms than the GC has. */
static int inst_terms_fit(const inst *x) {
  int nt = inst_gc_nterms(x);
  return nt >= 0 && nt <= STREAM_GC_MAX_TERMS(&x->arch);
}

/* Returns INST_OK or the first failing step's status (inst.h). Control
 * signals are coloured twice when the region has several processor
 * classes: per class (the GC terms tell the classes apart by PE ranges)
 * and as one function of J on all PEs (terms without ranges, the only
 * form before); the pass that fits (its terms within 2 x gc.signals)
 * with fewer signals wins, then the one with fewer terms; when neither
 * fits, the per-class pass's message (docs/instantiate.md "Control
 * signals and the loop bounds"). */
int inst_run_opts(inst *x, const inst_opts *o, const map_config *m, const arch_config *arch, int nparam,
                  char **pname, const int64_t *pval, int rows, int cols, char *msg, size_t msgsz) {
  int st = inst_run_pass(x, o, m, arch, nparam, pname, pval, rows, cols, msg, msgsz);
  if (!x->sig_by_class || (st != INST_OK && st != INST_ERR_NOFIT)) return st;
  inst_opts g = o ? *o : (inst_opts){0};
  g.sig_global = 1;
  inst y;
  char ymsg[1024];
  int yst = inst_run_pass(&y, &g, m, arch, nparam, pname, pval, rows, cols, ymsg, sizeof ymsg);
  int xfit = st == INST_OK && inst_terms_fit(x), yfit = yst == INST_OK && inst_terms_fit(&y);
  int take_y = yfit && (!xfit || y.nsig < x->nsig || (y.nsig == x->nsig && inst_gc_nterms(&y) < inst_gc_nterms(x)));
  if (!take_y) {
    inst_free(&y);
    return st;
  }
  inst_free(x);
  *x = y;
  snprintf(msg, msgsz, "%s", ymsg);
  return yst;
}

int inst_program_words(const inst *x) {
  int n = 0;
  for (int k = 0; k < x->npc; k++)
    for (int f = 0; f < x->nfu; f++)
      if (!x->pc[k].fp[f].empty) n += x->pc[k].fp[f].nwords;
  return n;
}

int inst_check(void *ctx, const map_config *m, fit_record *why, int *words, char *msg, size_t msgsz) {
  const inst_check_ctx *c = ctx;
  inst x;
  memset(&x, 0, sizeof x);
  stream_writer w;
  stream_writer_init(&w, &m->arch);
  int st = inst_run_opts(&x, c->o, m, &m->arch, c->nparam, c->pname, c->pval, c->rows, c->cols, msg, msgsz);
  if (!st) st = inst_emit(&x, NULL, &w, msg, msgsz);
  if (st == INST_ERR_NOFIT) *why = x.fit;
  *words = st ? -1 : inst_program_words(&x);
  stream_writer_free(&w);
  inst_free(&x);
  return st;
}
