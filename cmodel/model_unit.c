/*
 * model_unit.c: the units behind a divergence (model.h, "the units behind
 * a divergence"): what the loaded configuration makes of one address
 * generator, of the started global controller and a PE's step counter,
 * of a wrapper sink and of the programs, at any cycle t. Everything is
 * computed from the configuration (model_impl.h) with the formulas of
 * docs/timing.md sections 2 and 6 and docs/trace.md "State events", the
 * ones model_state.c traces, never from the run's state: the lockstep
 * report (tb/) asks it about the cycle of a divergence after the run.
 */
#include "model.h"

#include <stdio.h>
#include <string.h>

#include "model_impl.h"

/* Returns the step min(floor((t - delay - phase) / ii), S) of a unit of a
 * PE of the region, -1 before its first; *rem the cycle within it. */
static int64_t model_unit_step(const model_gc *g, int64_t delay, int32_t phase, uint64_t t, int32_t *rem) {
  *rem = -1;
  if (g->ii <= 0 || t > (uint64_t)MODEL_CYCLE_MAX) return -1;
  int64_t u = (int64_t)t - delay - phase;
  if (u < 0) return -1;
  int64_t s = u / g->ii;
  *rem = (int32_t)(u % g->ii);
  return s < g->steps ? s : g->steps;
}

int model_ag_view_get(const model *m, int row, int col, int side, int bank, uint64_t t, model_ag_view *v) {
  memset(v, 0, sizeof *v);
  v->step = -1;
  if (row < 0 || col < 0 || row >= m->cfg.rows || col >= m->cfg.cols || side < 0 || side >= MODEL_SIDES ||
      bank < 0 || bank >= m->cfg.banks)
    return -1;
  const model_pe *p = &m->pe[row * m->cfg.cols + col];
  if (!p->border[side]) return -1;
  const model_ag *a = &p->ag[side * m->cfg.banks + bank];
  const model_gc *g = &m->gc[m->start_gc];
  v->mode = a->mode, v->ndims = a->ndims;
  v->phase = a->phase, v->base = a->base, v->row_coef = a->row_coef, v->col_coef = a->col_coef;
  v->drow = a->drow, v->dcol = a->dcol, v->ncons = a->ncons;
  for (int d = 0; d < a->ndims && d < MODEL_UNIT_DIMS; d++) v->stride[d] = a->stride[d];
  v->in_region = p->in_region, v->delay = p->delay, v->ii = g->ii, v->steps = g->steps;
  int32_t rem, J[MODEL_MAX_DIMS] = {0};
  if (p->in_region && a->mode != STREAM_AG_OFF && g->configured) {
    v->step = model_unit_step(g, p->delay, a->phase, t, &rem);
    if (v->step > 0) model_gc_iter(g, v->step, J);
    v->at_event = v->step >= 0 && v->step < g->steps && rem == 0;
  }
  for (int d = 0; d < MODEL_UNIT_DIMS; d++) v->J[d] = J[d];
  uint32_t addr = (uint32_t)a->base + (uint32_t)a->row_coef * (uint32_t)a->drow +
                  (uint32_t)a->col_coef * (uint32_t)a->dcol;
  for (int d = 0; d < a->ndims; d++) addr += (uint32_t)a->stride[d] * (uint32_t)J[d];
  v->addr = addr;
  v->enabled = model_cons_hold(a->cons, a->ncons, J);
  return 0;
}

int model_gc_view_get(const model *m, int row, int col, uint64_t t, model_gc_view *v) {
  memset(v, 0, sizeof *v);
  v->gc_step = v->pe_step = -1;
  const model_gc *g = &m->gc[m->start_gc];
  if (!g->configured || g->ii <= 0) return -1;
  v->gc = m->start_gc;
  v->row0 = m->start_rect.row0, v->col0 = m->start_rect.col0;
  v->rows = m->start_rect.rows, v->cols = m->start_rect.cols;
  v->ii = g->ii, v->ndims = g->ndims, v->epilog = g->epilog, v->steps = g->steps, v->nterms = g->nterms;
  for (int d = 0; d < g->ndims && d < MODEL_UNIT_DIMS; d++) v->bound[d] = g->bound[d];
  int32_t J[MODEL_MAX_DIMS];
  uint64_t u = t + 1; /* the GC runs one cycle ahead of the PEs */
  if (u % (uint64_t)g->ii == 0 && u / (uint64_t)g->ii < (uint64_t)g->steps) {
    v->gc_step = (int64_t)(u / (uint64_t)g->ii);
    model_gc_iter(g, v->gc_step, J);
    for (int d = 0; d < MODEL_UNIT_DIMS; d++) v->gc_J[d] = J[d];
    v->gc_vector = model_gc_signals(g, v->gc_step);
  }
  if (row < 0 || col < 0 || row >= m->cfg.rows || col >= m->cfg.cols) return 0;
  const model_pe *p = &m->pe[row * m->cfg.cols + col];
  v->in_region = p->in_region, v->delay = p->delay;
  int32_t rem;
  int64_t s = p->in_region ? model_unit_step(g, p->delay, 0, t, &rem) : -1;
  v->pe_step = s < 0 ? 0 : s;
  memset(J, 0, sizeof J);
  if (s > 0) model_gc_iter(g, s, J);
  for (int d = 0; d < MODEL_UNIT_DIMS; d++) v->pe_J[d] = J[d];
  return 0;
}

/* Appends one constraint ("2*j0 - j1 + 3 >= 0") to buf at *n, GC
 * dimension d named j<order[d]> (NULL order: J<d>). */
static void model_unit_cons(const model_cons *c, const int *order, char *buf, size_t sz, size_t *n) {
  int any = 0;
  for (int d = 0; d < c->nd && *n < sz; d++) {
    int32_t k = c->coef[d];
    if (!k) continue;
    const char *sign = k < 0 ? (any ? " - " : "-") : (any ? " + " : "");
    long long a = k < 0 ? -(long long)k : k;
    char v = order ? 'j' : 'J';
    int x = order ? order[d] : d;
    if (a == 1) *n += (size_t)snprintf(buf + *n, sz - *n, "%s%c%d", sign, v, x);
    else *n += (size_t)snprintf(buf + *n, sz - *n, "%s%lld*%c%d", sign, a, v, x);
    any = 1;
  }
  if (*n < sz && (c->konst || !any))
    *n += (size_t)snprintf(buf + *n, sz - *n, any ? (c->konst < 0 ? " - %lld" : " + %lld") : "%lld",
                           any && c->konst < 0 ? -(long long)c->konst : (long long)c->konst);
  if (*n < sz) *n += (size_t)snprintf(buf + *n, sz - *n, c->kind == STREAM_CONS_EQ ? " == 0" : " >= 0");
}

int model_gc_terms_format(const model *m, int sig, const int *order, char *buf, size_t sz) {
  const model_gc *g = &m->gc[m->start_gc];
  size_t n = 0;
  int count = 0;
  if (sz) buf[0] = 0;
  for (int k = 0; k < g->nterms && n < sz; k++) {
    const model_term *tm = &g->terms[k];
    if (tm->signal != sig) continue;
    if (count++) n += (size_t)snprintf(buf + n, sz - n, "; or ");
    for (int c = 0; c < tm->ncons && n < sz; c++) {
      if (c) n += (size_t)snprintf(buf + n, sz - n, " and ");
      if (n < sz) model_unit_cons(&tm->cons[c], order, buf, sz, &n);
    }
    if (!tm->ncons && n < sz) n += (size_t)snprintf(buf + n, sz - n, "always");
    int all = tm->rlo == 0 && tm->clo == 0 && tm->rhi >= g->rect.rows - 1 && tm->chi >= g->rect.cols - 1;
    if (!all && n < sz)
      n += (size_t)snprintf(buf + n, sz - n, " (PEs r-ROW0 %d..%d, c-COL0 %d..%d)", tm->rlo, tm->rhi, tm->clo, tm->chi);
  }
  return count;
}

int model_sink_select(const model *m, int row, int col, int sink) {
  if (row < 0 || col < 0 || row >= m->cfg.rows || col >= m->cfg.cols || sink < 0 || sink >= m->nsinks) return -1;
  const model_pe *p = &m->pe[row * m->cfg.cols + col];
  return p->sink ? p->sink[sink] : 0;
}

uint64_t model_fu_reads(const model *m, int row, int col, int fu, int cls, int idx) {
  if (row < 0 || col < 0 || row >= m->cfg.rows || col >= m->cfg.cols || fu < 0 || fu >= m->nfu) return 0;
  const model_fu *f = &m->pe[row * m->cfg.cols + col].fu[fu];
  uint64_t pcs = 0;
  for (int pc = 0; f->imem && pc < m->cfg.imem && pc < 64; pc++) {
    const isa_insn *in = &f->imem[pc].in;
    const isa_op_info *op = isa_op_get(in->op);
    for (int k = 0; op && k < op->nsrc && k < 3; k++)
      if (in->src[k].cls == cls && in->src[k].idx == idx) pcs |= (uint64_t)1 << pc;
  }
  return pcs;
}
