/*
 * model_state.c: the state events of the C model (docs/trace.md "State
 * events"): step, gc, insn, rf, flag, fifo, ag and mem, and the bookkeeping
 * behind them (the last value of each piece of state that is traced on
 * change, the bank words written since reset).
 *
 * model.c calls these from model_step at fixed points of a cycle: the GC
 * (model_state_begin), a PE's step counter and AG counters with the state
 * at the start of the cycle (model_state_begin_pe, after the PE's signals,
 * before its issue; the flags too: the value the branch units read),
 * an issue's word when it is issued (model_state_insn), the registers and
 * FIFOs with the state after
 * the cycle (model_state_end), the done cycle's bank words (model_state_mem).
 * Every event is emitted only when its state changed, so a quiet cycle
 * costs a few comparisons.
 */
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"

int model_state_alloc(model *m, model_pe *p) {
  const arch_config *c = &m->cfg;
  int sb = MODEL_SIDES * c->banks;
  p->fifo_seen = calloc((size_t)c->id + 1, sizeof *p->fifo_seen);
  p->ag_seen = calloc((size_t)sb + 1, sizeof *p->ag_seen);
  p->ag_step = calloc((size_t)sb + 1, sizeof *p->ag_step);
  p->bank_wr = calloc((size_t)sb + 1, sizeof *p->bank_wr);
  if (!p->fifo_seen || !p->ag_seen || !p->ag_step || !p->bank_wr) return -1;
  for (int k = 0; k < sb; k++) p->ag_step[k] = -1;
  return 0;
}

void model_state_free(const model *m, model_pe *p) {
  if (p->bank_wr)
    for (int k = 0; k < MODEL_SIDES * m->cfg.banks; k++) free(p->bank_wr[k]);
  free(p->insn_seen), free(p->fifo_seen), free(p->ag_seen), free(p->ag_step), free(p->bank_wr);
}

int model_state_written(model *m, model_pe *p, int side, int b, uint32_t addr) {
  uint8_t **w = &p->bank_wr[side * m->cfg.banks + b];
  if (!*w && !(*w = calloc((size_t)m->cfg.bank_depth, 1))) return -1;
  (*w)[addr] = 1;
  return 0;
}

/* Returns the step counter in the current cycle of a unit of PE p whose
 * start delay is the PE's plus `phase` (phase_q, phase_r: its quotient and
 * remainder by ii, model_pe_steps): 0 before it starts, then min(u / pi,
 * S) (trace.md). */
static int64_t model_state_stepnum(const model *m, const model_pe *p, int32_t phase, int64_t phase_q,
                                   int32_t phase_r) {
  const model_gc *g = &m->gc[p->rg->gc];
  int32_t rem;
  if (g->ii <= 0) return 0;
  int64_t s = model_pe_steps(m, p, phase, phase_q, phase_r, &rem);
  if (s < 0) return 0;
  return s < g->steps ? s : g->steps;
}

/* Emits `ag` for AG (side, b) of p when its address counter changed.
 * Called every cycle, so ag_step holds the AG's step of the cycle before
 * (-1 before the first): a step that cannot have changed since is not
 * computed again (the step of an AG that does not run is 0 for ever; one
 * that runs moves only in the cycle of its step where its phase is, which
 * the PE's clock tells while it runs). */
static void model_state_ag(model *m, model_pe *p, int side, int b) {
  int k = side * m->cfg.banks + b;
  const model_ag *a = &p->ag[k];
  if (p->ag_step[k] >= 0) {
    if (!p->in_region || a->mode == STREAM_AG_OFF) return;
    if (p->clk_t == m->t && p->clk_phase != a->phase_r) return;
  }
  int64_t s = 0;
  if (p->in_region && a->mode != STREAM_AG_OFF) s = model_state_stepnum(m, p, a->phase, a->phase_q, a->phase_r);
  if (s == p->ag_step[k]) return;
  p->ag_step[k] = s;
  static const int32_t zero[MODEL_MAX_DIMS];
  const int32_t *J = s > 0 ? model_iter(m, p->rg, s) : zero;
  uint32_t v = (uint32_t)a->base + (uint32_t)a->row_coef * (uint32_t)a->drow +
               (uint32_t)a->col_coef * (uint32_t)a->dcol;
  for (int d = 0; d < a->ndims; d++) v += (uint32_t)a->stride[d] * (uint32_t)J[d];
  if (v == p->ag_seen[k]) return;
  p->ag_seen[k] = v;
  trace_event *e = model_ev_new(m, TRACE_AG, p);
  if (e) e->side = side, e->port = b, e->addr = v;
}

/* Emits the `gc` line of GC gi in the current cycle, if it begins a step
 * of the region it started at cycle t0; at place `-` (one stream) or
 * the GC's (several, docs/trace.md "Several regions"). */
static void model_state_gc(model *m, int gi, uint64_t t0) {
  const model_gc *g = &m->gc[gi];
  if (!g->configured || g->ii <= 0 || m->t < t0) return;
  int64_t u = (int64_t)(m->t - t0) + 1;
  if (u % g->ii) return;
  int64_t s = u / g->ii;
  if (s < 1 || s >= g->steps) return;
  trace_event *e = model_ev_new(m, TRACE_GC, NULL);
  if (!e) return;
  e->num = (uint32_t)s, e->value = model_gc_signals(g, s);
  if (m->nstreams > 1) e->row = TRACE_PLACE_GC, e->col = gi;
}

void model_state_begin(model *m) {
  if (m->nstreams <= 1) {
    model_state_gc(m, m->start_gc, 0);
    return;
  }
  for (int g = 0; g < STREAM_GCS; g++)
    if (m->rg[g].stream >= 0) model_state_gc(m, g, m->rg[g].t0);
}

void model_state_begin_pe(model *m, model_pe *p) {
  int nb = m->cfg.banks < m->cfg.ports ? m->cfg.banks : m->cfg.ports;
  /* the step counter (step_seen: its value in the cycle before) moves
   * only when a step begins, at phase 0 of the PE's clock while it runs */
  uint32_t s = p->step_seen;
  if (p->clk_t != m->t || p->clk_phase == 0) s = p->in_region ? (uint32_t)model_state_stepnum(m, p, 0, 0, 0) : 0;
  if (s != p->step_seen) {
    p->step_seen = s;
    trace_event *e = model_ev_new(m, TRACE_STEP, p);
    if (e) e->num = s;
  }
  /* the flags change only with results, written at the end of the cycle
   * before (wrote_at) */
  if (p->wrote_at == m->t)
    for (int k = 0; k < m->nfu; k++) {
      uint32_t bit = 1u << k, fl = p->fu[k].flag ? bit : 0;
      if ((p->flag_seen & bit) == fl) continue;
      p->flag_seen ^= bit;
      trace_event *e = model_ev_new(m, TRACE_FLAG, p);
      if (e) e->fu = k, e->value = fl ? 1 : 0;
    }
  /* every AG the first time; then only those that run (ag_live: the
   * others' counters never change again, model_state_ag) */
  if (p->ag_state_all) {
    for (int i = 0; i < p->nag_live; i++) {
      const model_ag *a = p->ag_live[i].ag;
      if (p->clk_t != m->t || p->clk_phase == a->phase_r) model_state_ag(m, p, a->side, a->bank);
    }
    return;
  }
  p->ag_state_all = 1;
  for (int side = 0; side < MODEL_SIDES; side++)
    if (p->border[side])
      for (int b = 0; b < nb; b++) model_state_ag(m, p, side, b);
}

void model_state_insn(model *m, model_pe *p, int k) {
  model_fu *f = &p->fu[k];
  /* the model's instruction memory does not change while it runs: only
   * the first issue at each pc has a line */
  if (!p->insn_seen && !(p->insn_seen = calloc((size_t)m->nfu * (size_t)m->cfg.imem, 1))) {
    m->ev_oom = 1;
    return;
  }
  uint8_t *seen = &p->insn_seen[(size_t)k * (size_t)m->cfg.imem + (size_t)f->pc];
  if (*seen) return;
  *seen = 1;
  isa_word w;
  memset(&w, 0, sizeof w);
  isa_encode(&f->imem[f->pc].in, &w);
  trace_event *e = model_ev_new(m, TRACE_INSN, p);
  if (e) {
    e->fu = k;
    for (int j = 0; j < 4 && j < ISA_WORDS; j++) e->word[j] = w.w[j];
  }
}

/* Emits an `rf` line of p for register cls/idx with value v. */
static void model_state_rf(model *m, const model_pe *p, int cls, int idx, uint32_t v) {
  trace_event *e = model_ev_new(m, TRACE_RF, p);
  if (e) e->reg_cls = cls, e->reg_idx = idx, e->value = v;
}

void model_state_end(model *m, model_pe *p) {
  if (p->in_region && p->wrote_at == m->t + 1) { /* the registers written, lowest first */
    for (uint64_t w = p->wrote & (((uint64_t)1 << MODEL_WROTE_FD) - 1); w; w &= w - 1) {
      int k = __builtin_ctzll(w);
      model_state_rf(m, p, ISA_CLS_RD, k, p->rd[k]);
    }
    for (uint64_t w = p->wrote >> MODEL_WROTE_FD; w; w &= w - 1) {
      int k = __builtin_ctzll(w);
      const model_fd *d = &p->fd[k];
      model_state_rf(m, p, ISA_CLS_FD, k, d->ring[(d->w + d->depth - 1) % d->depth]);
    }
    for (uint32_t w = p->wrote_od; w; w &= w - 1) {
      int k = __builtin_ctz(w);
      model_state_rf(m, p, ISA_CLS_OD, k, p->od[k]);
    }
  }
  for (uint32_t w = p->fifo_touched; w; w &= w - 1) { /* the FIFOs pushed or popped */
    int k = __builtin_ctz(w);
    if (p->fifo[k].count == p->fifo_seen[k]) continue;
    p->fifo_seen[k] = p->fifo[k].count;
    trace_event *e = model_ev_new(m, TRACE_FIFO, p);
    if (e) e->reg_cls = ISA_CLS_ID, e->reg_idx = k, e->num = (uint32_t)p->fifo[k].count;
  }
  p->fifo_touched = 0;
}

void model_state_mem(model *m) {
  const arch_config *c = &m->cfg;
  int nb = c->banks < c->ports ? c->banks : c->ports;
  for (int i = 0; i < c->rows * c->cols; i++) {
    model_pe *p = &m->pe[i];
    for (int side = 0; side < MODEL_SIDES; side++) {
      if (!p->border[side]) continue;
      for (int b = 0; b < nb; b++) {
        const uint8_t *w = p->bank_wr[side * c->banks + b];
        const uint32_t *v = p->bank[side * c->banks + b];
        if (!w) continue;
        for (int a = 0; a < c->bank_depth; a++) {
          if (!w[a]) continue;
          trace_event *e = model_ev_new(m, TRACE_MEM, p);
          if (e) e->side = side, e->port = b, e->addr = (uint32_t)a, e->value = v ? v[a] : 0;
        }
      }
    }
  }
}
