/*
 * model.c: the cycle engine of the C model (model.h), docs/timing.md.
 *
 * model_step runs one cycle t in phases; each PE runs all of them in one
 * pass, since no phase of a PE reads what another PE writes in t (tokens
 * cross PEs for t + 1 only):
 *   1. signals: the vector each PE sees in t (its own step, delayed by its
 *      start delay; it changes only when a step begins); `start` and `sig`
 *      events;
 *   2. issue: every running FU (a program, not halted, not waiting in a
 *      `nop N`) reads its sources (state at the start of t), computes its
 *      result into its pipeline slot for the end of t + L - 1 (the PE's
 *      due mask of that cycle gets its bit), and moves its pc (a `nop N`
 *      instead waits N - 1 cycles at its pc and moves it in the last); then
 *      the fd reads and FIFO pops of the PE (once per register per cycle)
 *      and the results due at the end of t (writes, flags, od tokens for
 *      t + 1, write conflicts);
 *   3. routing: tokens on sources in t (od tokens, wrapper inputs; the PE
 *      lists the sources that got one) reach the sinks of their source:
 *      FIFO pushes at the end of t, wrapper outputs (`hop`) that reach the
 *      neighbour's wrapper input or the border bank in t + 1;
 *   4. address generators: read events put a bank word on the wrapper
 *      input for t + 1, write events take the token arriving in t; tokens
 *      arriving at a bank without a write event are `stray`;
 *   5. done: the condition of timing.md section 7 is checked on the state
 *      after t.
 * The token counts of t are reset by the phase that reads them (routing,
 * the banks): the buffers of t + 1 are the other of each pair.
 * The most frequent events (issue, insn, wr, fdrd, pop) are formed, when
 * someone listens, by passes of their own before their phase changes the
 * state; the others test for a listener where they arise.
 * Reads of t never see writes of t: a PE's registers are written only
 * after all its FUs issued; pops happen before pushes (the order timing.md
 * gives); tokens for t + 1 go to the other buffer of their pair, stamped
 * with t + 1 (model_impl.h), so the buffers of t need no clearing. The
 * events of the cycle are collected, sorted canonically and handed to the
 * sink.
 */
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"

/* ---- GC arithmetic ---------------------------------------------------------- */

int64_t model_gc_steps(const model_gc *g) {
  int64_t s = 1;
  for (int d = 0; d < g->ndims; d++) {
    if (s > MODEL_CYCLE_MAX / g->bound[d]) return MODEL_CYCLE_MAX;
    s *= g->bound[d];
  }
  return s + g->epilog > MODEL_CYCLE_MAX ? MODEL_CYCLE_MAX : s + g->epilog;
}

void model_gc_iter(const model_gc *g, int64_t s, int32_t *J) {
  memset(J, 0, MODEL_MAX_DIMS * sizeof *J);
  int64_t q = s;
  for (int d = 0; d + 1 < g->ndims; d++) {
    J[d] = (int32_t)(q % g->bound[d]);
    q /= g->bound[d];
  }
  J[g->ndims - 1] = (int32_t)(uint32_t)q;
}

int64_t model_event_cycle(int64_t delay, int64_t s, int32_t ii, int32_t phase) {
  if (s > (MODEL_CYCLE_MAX - delay - phase) / ii) return MODEL_CYCLE_MAX;
  return delay + s * ii + phase;
}

const int32_t *model_iter(model *m, model_region *r, int64_t s) {
  unsigned h = (unsigned)((uint64_t)s & (MODEL_ITER_CACHE - 1));
  if (r->iter_step[h] != s) {
    model_gc_iter(&m->gc[r->gc], s, r->iter[h]);
    r->iter_step[h] = s;
    r->held_valid[h] = 0;
    r->ag_held_valid[h] = 0;
  }
  return r->iter[h];
}

/* ---- events ----------------------------------------------------------------- */

/* Returns 0 after doubling the cycle's event buffer; -1 (ev_oom set) when
 * out of memory. */
static int model_ev_grow(model *m) {
  size_t cap = m->evcap ? 2 * m->evcap : 256;
  trace_event *ev = realloc(m->ev, cap * sizeof *ev);
  if (ev) m->ev = ev;
  trace_event *tmp = ev ? realloc(m->ev_tmp, cap * sizeof *tmp) : NULL;
  if (!tmp) {
    m->ev_oom = 1;
    return -1;
  }
  m->ev_tmp = tmp;
  m->evcap = cap;
  return 0;
}

/* An event with every field zero, copied into each new one: a copy of a
 * constant is a few vector moves, where a memset of its 120 bytes is a
 * `rep stos`, slow to start. */
static const trace_event model_ev_zero;

/* Returns a zeroed event of kind k at PE p (NULL p: the machine) in the
 * current cycle, stored in the cycle's buffer; NULL when nobody listens
 * (a test of one flag: without a listener the events cost nothing). */
static inline trace_event *model_ev(model *m, trace_kind k, const model_pe *p) {
  if (!m->listen) return NULL;
  if (m->nev == m->evcap && model_ev_grow(m)) return NULL;
  trace_event *e = &m->ev[m->nev++];
  *e = model_ev_zero;
  e->cycle = m->t;
  e->kind = k;
  e->row = p ? p->row : -1;
  e->col = p ? p->col : -1;
  return e;
}

trace_event *model_ev_new(model *m, trace_kind k, const model_pe *p) {
  return model_ev(m, k, p);
}

/* Records a fault of kind f at PE p with a detail text. */
static void model_fault(model *m, const model_pe *p, trace_fault_kind f,
                        const char *detail) {
  m->faults[f]++;
  m->nfaults++;
  trace_event *e = model_ev(m, TRACE_FAULT, p);
  if (!e) return;
  e->fault = f;
  snprintf(e->detail, sizeof e->detail, "%s", detail);
}

/* Records an event with a register and a value (pop, fdrd, push). */
static void model_ev_reg(model *m, trace_kind k, const model_pe *p, int cls,
                         int idx, uint32_t value) {
  trace_event *e = model_ev(m, k, p);
  if (!e) return;
  e->reg_cls = cls;
  e->reg_idx = idx;
  e->value = value;
}

static const char model_side_char[MODEL_SIDES] = {'n', 'e', 's', 'w'};

/* Writes the place name of a side and port (`n0`, `w3`) into buf. */
static const char *model_side_port(char *buf, size_t n, int side, int port) {
  snprintf(buf, n, "%c%d", model_side_char[side], port);
  return buf;
}

/* Returns qsort's comparison of two events (trace_event_compare). */
static int model_ev_cmp(const void *a, const void *b) {
  return trace_event_compare(a, b);
}

/* Returns 1 when the events ev[0..n) are in canonical order. */
static int model_ev_sorted(const trace_event *ev, size_t n) {
  for (size_t i = 1; i < n; i++)
    if (trace_event_compare(&ev[i - 1], &ev[i]) > 0) return 0;
  return 1;
}

/* Sorts the cycle's events canonically (trace_event_compare). The phases
 * emit each kind PE by PE in row-major order, so the events grouped by
 * kind (a stable counting sort into ev_tmp, then swapped in) are nearly
 * in order, and an insertion sort finishes them; past a budget of moves
 * (an unusual cycle) qsort does. Events that compare equal have the same
 * text, so their order does not matter. */
static void model_ev_sort(model *m) {
  size_t n = m->nev, at[TRACE_KIND_COUNT + 1] = {0};
  if (n < 2 || model_ev_sorted(m->ev, n)) return;
  for (size_t i = 0; i < n; i++) at[trace_kind_rank(m->ev[i].kind) + 1]++;
  for (int k = 1; k <= TRACE_KIND_COUNT; k++) at[k] += at[k - 1];
  for (size_t i = 0; i < n; i++) m->ev_tmp[at[trace_kind_rank(m->ev[i].kind)]++] = m->ev[i];
  trace_event *t = m->ev, *ev = m->ev_tmp;
  m->ev = ev, m->ev_tmp = t;
  size_t budget = 8 * n;
  for (size_t i = 1; i < n; i++) {
    if (trace_event_compare(&ev[i - 1], &ev[i]) <= 0) continue;
    trace_event e = ev[i];
    size_t j = i;
    for (; j > 0 && budget && trace_event_compare(&ev[j - 1], &e) > 0; j--, budget--) ev[j] = ev[j - 1];
    ev[j] = e;
    if (!budget) {
      qsort(ev, n, sizeof *ev, model_ev_cmp);
      return;
    }
  }
}

/* Sorts the cycle's events (unless only sinks that take them in any
 * order listen) and hands them to the sinks: the batch sink all at once,
 * the others one by one. */
static void model_ev_flush(model *m) {
  if (!m->nev) return; /* nobody listens, or a quiet cycle */
  if (!m->any_order || m->file) model_ev_sort(m);
  if (m->batch) m->batch(m->ev, m->nev, m->batch_ctx);
  if (m->fn || m->file)
    for (size_t i = 0; i < m->nev; i++) {
      if (m->fn) m->fn(&m->ev[i], m->ctx);
      if (m->file) trace_event_write(m->file, &m->ev[i]);
    }
  m->nev = 0;
}

/* ---- tokens ------------------------------------------------------------------- */

/* Returns 1 when token k is present in the current cycle. */
static inline int model_tok_here(const model *m, const model_tok *k) { return k->at == m->t + 1; }

/* Puts value v into token k for the next cycle. */
static inline void model_tok_put(const model *m, model_tok *k, uint32_t v) {
  k->value = v;
  k->at = m->t + 2;
}

/* Puts value v on source src of p for the next cycle (listed once
 * among the sources with a token). */
static inline void model_src_put(const model *m, model_pe *p, int src, uint32_t v) {
  int nx = (m->t + 1) & 1;
  model_tok *k = &p->src_tok[nx][src];
  if (k->at != m->t + 2) p->src_put[nx][p->nsrc_put[nx]++] = (uint16_t)src;
  model_tok_put(m, k, v);
}

/* ---- phase 1: signals ------------------------------------------------------- */

static uint32_t model_gc_signals_iter(const model_gc *g, const int32_t *J, int drow, int dcol);

/* Returns the signal vector of GC g at step s as the PE at offset (drow,
 * dcol) of its rectangle sees it (timing.md 2: only the terms whose PE
 * range holds it); drow < 0: every term (the GC's own vector, trace.md). */
uint32_t model_gc_signals_at(const model_gc *g, int64_t s, int drow, int dcol) {
  int32_t J[MODEL_MAX_DIMS];
  model_gc_iter(g, s, J);
  return model_gc_signals_iter(g, J, drow, dcol);
}

/* Returns the signal vector of GC g at iteration J as the PE at offset
 * (drow, dcol) sees it (model_gc_signals_at). */
static uint32_t model_gc_signals_iter(const model_gc *g, const int32_t *J, int drow, int dcol) {
  uint32_t v = 0;
  for (int k = 0; k < g->nterms; k++) {
    const model_term *tm = &g->terms[k];
    if (drow >= 0 && (drow < tm->rlo || drow > tm->rhi || dcol < tm->clo || dcol > tm->chi)) continue;
    if (model_cons_hold(tm->cons, tm->ncons, J)) v |= 1u << tm->signal;
  }
  return v;
}

/* Returns the signal vector of GC g at step s, every term counted. */
uint32_t model_gc_signals(const model_gc *g, int64_t s) { return model_gc_signals_at(g, s, -1, 0); }

/* Sets the clock of p (started, t >= its delay) to the current cycle t:
 * its step (t - delay) / ii and the cycle within that step, divided out
 * (model_pe_signals counts it on from then on: the divisions were a
 * third of the model's time). */
static void model_pe_clock(const model *m, model_pe *p, const model_gc *g) {
  int64_t u = (int64_t)m->t - p->delay;
  p->clk_step = u / g->ii;
  p->clk_phase = (int32_t)(u % g->ii);
  p->clk_t = m->t;
}

/* Returns the terms of region r's GC (at most MODEL_TERMS_MASKED) that
 * hold at step s, bit k for term k, whatever their PE ranges: computed
 * once a step beside its iteration vector, not once a PE. */
static uint64_t model_terms_held(model *m, model_region *r, int64_t s) {
  const int32_t *J = model_iter(m, r, s);
  unsigned h = (unsigned)((uint64_t)s & (MODEL_ITER_CACHE - 1));
  if (!r->held_valid[h]) {
    const model_gc *g = &m->gc[r->gc];
    uint64_t v = 0;
    for (int k = 0; k < g->nterms; k++)
      if (model_cons_hold(g->terms[k].cons, g->terms[k].ncons, J)) v |= (uint64_t)1 << k;
    r->held[h] = v;
    r->held_valid[h] = 1;
  }
  return r->held[h];
}

/* Returns the signal vector PE p sees at step s of its region's GC g. */
static uint32_t model_pe_sig_at(model *m, const model_pe *p, const model_gc *g, int64_t s) {
  if (g->nterms > MODEL_TERMS_MASKED)
    return model_gc_signals_iter(g, model_iter(m, p->rg, s), p->row - g->rect.row0, p->col - g->rect.col0);
  uint32_t v = 0;
  uint64_t held = model_terms_held(m, p->rg, s) & p->term_mask;
  for (int b = 0; held; b++, held >>= 8) v |= p->rg->term_sig[b][held & 255];
  return v;
}

/* Sets p->sig to v; a sig event when it changed. */
static inline void model_pe_sig_set(model *m, model_pe *p, uint32_t v) {
  if (v != p->sig) {
    trace_event *e = model_ev(m, TRACE_SIG, p);
    if (e) e->value = v;
  }
  p->sig = v;
}

/* Returns the vector p sees at step s of its clock (none past the last
 * step), from the PE's cache of its last step. */
static uint32_t model_pe_sig_step(model *m, model_pe *p, const model_gc *g, int64_t s) {
  if (s >= g->steps) return 0;
  if (s != p->sig_step) {
    p->sig_cache = model_pe_sig_at(m, p, g, s);
    p->sig_step = s;
  }
  return p->sig_cache;
}

/* Sets p->sig to the vector p sees in the current cycle; start, sig events.
 * While its clock runs from cycle to cycle the vector changes only when
 * a step begins. */
static void model_pe_signals(model *m, model_pe *p) {
  if (p->clk_t + 1 == m->t) {
    p->clk_t = m->t;
    if (++p->clk_phase < p->ii) return;
    const model_gc *g = &m->gc[p->rg->gc];
    p->clk_phase = 0;
    p->clk_step++;
    model_pe_sig_set(m, p, model_pe_sig_step(m, p, g, p->clk_step));
    return;
  }
  uint32_t v = 0;
  int64_t t = (int64_t)m->t;
  if (p->in_region && t >= p->delay) {
    const model_gc *g = &m->gc[p->rg->gc];
    model_pe_clock(m, p, g);
    if (t == p->delay) model_ev(m, TRACE_START, p);
    v = model_pe_sig_step(m, p, g, p->clk_step);
  }
  model_pe_sig_set(m, p, v);
}

/* ---- phase 2: issue, reads, completions -------------------------------------- */

/* Returns condition bit `sel` of a branch of p (a signal of this cycle or
 * an FU's flag). */
static inline int model_cond_bit(const model_pe *p, int sel) {
  return sel < ISA_COND_FLAG ? (int)(p->sig >> sel & 1) : p->fu[sel - ISA_COND_FLAG].flag;
}

/* Returns the target of the conditional branch of `in`, with this
 * cycle's signals and flags. */
static inline int model_cond_target(const model_pe *p, const isa_insn *in) {
  _Static_assert(ISA_SEL_COUNT == 2, "model_cond_target reads two selectors");
  int idx = model_cond_bit(p, in->sel[0]);
  if (in->nsel > 1) idx |= model_cond_bit(p, in->sel[1]) << 1;
  return in->target[idx];
}

/* Returns the pc after instruction `in` at pc, with this cycle's signals and
 * flags; -1 for halt. */
static int model_next_pc(const model *m, const model_pe *p, const isa_insn *in,
                         int pc) {
  switch (in->br) {
  case ISA_BR_NEXT: return pc + 1 == m->cfg.imem ? 0 : pc + 1;
  case ISA_BR_GOTO: return in->target[0];
  case ISA_BR_COND: return model_cond_target(p, in);
  default: return -1;
  }
}

/* Moves the pc of FU k of PE p by the branch of `in` (its last cycle). */
static void model_fu_branch(model *m, model_pe *p, int k, const isa_insn *in) {
  model_fu *f = &p->fu[k];
  int next = model_next_pc(m, p, in, f->pc);
  if (next < 0) {
    f->halted = 1;
    p->running &= ~(1u << k);
    trace_event *h = model_ev(m, TRACE_HALT, p);
    if (h) h->fu = k;
  } else {
    f->pc = next;
  }
}

/* Counts down the nop N FU k of p waits in; in its last cycle the FU
 * runs again and the word's branch moves its pc. */
static void model_fu_wait(model *m, model_pe *p, int k) {
  model_fu *f = &p->fu[k];
  if (--f->wait) return;
  p->waiting &= ~(1u << k);
  p->running |= 1u << k;
  model_fu_branch(m, p, k, &f->imem[f->pc].in);
}

/* Issues the instruction of FU k of PE p (running). Adds the fd and
 * FIFO registers it reads to the masks. */
static void model_fu_issue(model *m, model_pe *p, int k, uint32_t *fdmask,
                           uint32_t *idmask) {
  model_fu *f = &p->fu[k];
  const model_uop *u = &f->imem[f->pc];
  if (u->in.op != ISA_OP_NOP) {
    *fdmask |= u->fdmask;
    *idmask |= u->idmask;
    uint64_t due = m->t + (uint64_t)f->lat - 1;
    model_result *r = &f->pipe[due & f->pmask];
    const uint32_t *o = p->opnd;
    r->value = (uint32_t)isa_op_eval(u->in.op, (int32_t)o[u->src[0]], (int32_t)o[u->src[1]], (int32_t)o[u->src[2]]);
    r->uop = u;
    p->due[due & m->due_mask] |= 1u << k;
  }
  if (u->flow == MODEL_FLOW_FIXED)
    f->pc = u->next;
  else if (u->flow == MODEL_FLOW_COND)
    f->pc = model_cond_target(p, &u->in);
  else if (u->flow == MODEL_FLOW_WAIT) {
    f->wait = (uint32_t)u->in.imm; /* nop N: N - 1 cycles, then the branch */
    p->running &= ~(1u << k);
    p->waiting |= 1u << k;
  } else
    model_fu_branch(m, p, k, &u->in);
}

/* Sets the operand-file places of fd k and FIFO k of p to their heads. */
static inline void model_fd_head(model_fd *d) {
  *d->head = d->ring[d->r];
}
static inline void model_fifo_head(const model *m, model_pe *p, int k) {
  const model_fifo *q = &p->fifo[k];
  p->opnd[model_opnd_id(&m->cfg, k)] = q->count ? q->buf[q->head] : 0;
}

/* Emits the fdrd and pop events of the reads of p in the masks (the
 * registers' values before the reads; no pop from an empty FIFO). */
static void model_pe_read_events(model *m, const model_pe *p, uint32_t fdmask, uint32_t idmask) {
  for (; fdmask; fdmask &= fdmask - 1) {
    int k = __builtin_ctz(fdmask);
    model_ev_reg(m, TRACE_FDRD, p, ISA_CLS_FD, k, p->fd[k].ring[p->fd[k].r]);
  }
  for (; idmask; idmask &= idmask - 1) {
    int k = __builtin_ctz(idmask);
    const model_fifo *q = &p->fifo[k];
    if (q->count) model_ev_reg(m, TRACE_POP, p, ISA_CLS_ID, k, q->buf[q->head]);
  }
}

/* Performs the fd reads and FIFO pops of PE p recorded in the masks (one
 * bit per register, below the class's count: model_fu_issue sets them);
 * listen: m->listen (model_pe_cycle). */
static void model_pe_reads(model *m, model_pe *p, uint32_t fdmask, uint32_t idmask, int listen) {
  if (listen) {
    model_pe_read_events(m, p, fdmask, idmask);
    p->fifo_touched |= idmask; /* model_state_end */
  }
  for (; fdmask; fdmask &= fdmask - 1) { /* the set bits, lowest first */
    int k = __builtin_ctz(fdmask);
    model_fd *d = &p->fd[k];
    d->r = d->r + 1 == d->depth ? 0 : d->r + 1;
    model_fd_head(d);
  }
  for (; idmask; idmask &= idmask - 1) {
    int k = __builtin_ctz(idmask);
    model_fifo *q = &p->fifo[k];
    if (!q->count) {
      char det[16];
      snprintf(det, sizeof det, "id%d", k);
      model_fault(m, p, TRACE_FAULT_UNDERFLOW, det);
      continue;
    }
    q->head = q->head + 1 == m->cfg.fifo_depth ? 0 : q->head + 1;
    q->count--;
    model_fifo_head(m, p, k);
  }
}

/* Returns 1 when instruction u writes register cls/idx. */
static int model_uop_writes(const model_uop *u, int cls, int idx) {
  if (cls == ISA_CLS_OD) return (int)(u->odmask >> idx & 1);
  return u->in.dst.cls == cls && u->in.dst.idx == idx;
}

/* Records the write conflict of FU k of p on register cls/idx: the FU
 * that wrote it before is the last FU below k of `due` (the results
 * completing in this cycle) whose instruction writes it. */
static void model_write_conflict(model *m, model_pe *p, uint32_t due, int k, int cls, int idx) {
  int who = k - 1;
  while (who > 0 && !(due >> who & 1 && model_uop_writes(p->fu[who].pipe[m->t & p->fu[who].pmask].uop, cls, idx)))
    who--;
  char det[24];
  snprintf(det, sizeof det, "fu%d:%s%d", who, cls == ISA_CLS_RD ? "rd" : cls == ISA_CLS_FD ? "fd" : "od", idx);
  model_fault(m, p, TRACE_FAULT_WCONFLICT, det);
}

/* Records a `wr` event of FU k. */
static void model_ev_wr(model *m, const model_pe *p, int k, int cls, int idx,
                        uint32_t v) {
  trace_event *e = model_ev(m, TRACE_WR, p);
  if (e) e->fu = k, e->reg_cls = cls, e->reg_idx = idx, e->value = v;
}

/* Emits the wr events of the results of p in `due` (completing in this
 * cycle). */
static void model_pe_complete_events(model *m, const model_pe *p, uint32_t due) {
  for (; due; due &= due - 1) {
    int k = __builtin_ctz(due);
    const model_fu *f = &p->fu[k];
    const model_result *r = &f->pipe[m->t & f->pmask];
    const isa_opnd *d = &r->uop->in.dst;
    if (d->cls == ISA_CLS_RD || d->cls == ISA_CLS_FD) model_ev_wr(m, p, k, d->cls, d->idx, r->value);
    for (uint32_t om = r->uop->odmask; om; om &= om - 1) model_ev_wr(m, p, k, ISA_CLS_OD, __builtin_ctz(om), r->value);
  }
}

/* The results completing in one cycle of a PE and the registers they
 * wrote so far (a later FU's write of the same register is a conflict it
 * wins). */
typedef struct {
  uint32_t due; /* bit k: FU k completes */
  uint64_t rf;  /* bit k: rd k; bit MODEL_WROTE_FD + k: fd k */
  uint32_t od;  /* bit k: od k */
} model_wrote;

/* Completes the result of FU k of PE p due at the end of this cycle. */
static void model_fu_complete(model *m, model_pe *p, int k, model_wrote *w, uint64_t *ntok) {
  model_fu *f = &p->fu[k];
  const model_result *r = &f->pipe[m->t & f->pmask];
  const model_uop *u = r->uop;
  uint32_t v = r->value;
  int idx = u->in.dst.idx;
  f->flag = v != 0;
  if (u->in.dst.cls == ISA_CLS_RD) {
    if (w->rf >> idx & 1) model_write_conflict(m, p, w->due, k, ISA_CLS_RD, idx);
    w->rf |= (uint64_t)1 << idx;
    p->rd[idx] = v;
  } else if (u->in.dst.cls == ISA_CLS_FD) {
    model_fd *d = &p->fd[idx];
    uint64_t bit = (uint64_t)1 << (MODEL_WROTE_FD + idx);
    if (w->rf & bit) {
      model_write_conflict(m, p, w->due, k, ISA_CLS_FD, idx);
      d->ring[d->w ? d->w - 1 : d->depth - 1] = v; /* same write */
    } else {
      d->ring[d->w] = v;
      d->w = d->w + 1 == d->depth ? 0 : d->w + 1;
    }
    w->rf |= bit;
    model_fd_head(d);
  }
  for (uint32_t om = u->odmask; om; om &= om - 1) {
    int o = __builtin_ctz(om);
    if (w->od >> o & 1)
      model_write_conflict(m, p, w->due, k, ISA_CLS_OD, o);
    else
      (*ntok)++;
    w->od |= 1u << o;
    p->od[o] = v;
    model_src_put(m, p, o, v);
  }
}

/* Completes the results of PE p due at the end of this cycle, in FU
 * order, and keeps the registers they wrote for the state events. */
static void model_pe_complete(model *m, model_pe *p, uint64_t *ntok, int listen) {
  uint32_t *slot = &p->due[m->t & m->due_mask];
  model_wrote w = {*slot, 0, 0};
  if (!w.due) return;
  *slot = 0;
  if (listen) model_pe_complete_events(m, p, w.due);
  for (uint32_t due = w.due; due; due &= due - 1) model_fu_complete(m, p, __builtin_ctz(due), &w, ntok);
  if (listen) {
    p->wrote_at = m->t + 1;
    p->wrote = w.rf;
    p->wrote_od = w.od;
  }
}

/* Emits the issue events of the FUs of p that issue in this cycle
 * (running), with the state at their issue. */
static void model_pe_issue_events(model *m, model_pe *p) {
  for (uint32_t run = p->running; run; run &= run - 1) {
    int k = __builtin_ctz(run);
    trace_event *e = model_ev(m, TRACE_ISSUE, p);
    if (e) e->fu = k, e->pc = p->fu[k].pc;
    if (!p->insn_seen || !p->insn_seen[(size_t)k * (size_t)m->cfg.imem + (size_t)p->fu[k].pc])
      model_state_insn(m, p, k); /* the first issue at the pc */
  }
}

/* Phase 2 for PE p (in the region): issue, register reads, completions;
 * nothing before its start (no FU issues, none has a result in flight). */
static void model_pe_execute(model *m, model_pe *p, uint64_t *ntok, int listen) {
  if ((int64_t)m->t < p->delay) return;
  if (listen) model_pe_issue_events(m, p);
  uint32_t fdmask = 0, idmask = 0, waiting = p->waiting; /* a nop N issued now waits from the next cycle */
  for (uint32_t run = p->running; run; run &= run - 1) {
    int k = __builtin_ctz(run);
    switch (k) { /* a copy of the issue for each of the first FUs (k constant): branches of their own */
    case 0: model_fu_issue(m, p, 0, &fdmask, &idmask); break;
    case 1: model_fu_issue(m, p, 1, &fdmask, &idmask); break;
    case 2: model_fu_issue(m, p, 2, &fdmask, &idmask); break;
    case 3: model_fu_issue(m, p, 3, &fdmask, &idmask); break;
    default: model_fu_issue(m, p, k, &fdmask, &idmask); break;
    }
  }
  for (; waiting; waiting &= waiting - 1) model_fu_wait(m, p, __builtin_ctz(waiting));
  model_pe_reads(m, p, fdmask, idmask, listen);
  model_pe_complete(m, p, ntok, listen);
}

/* ---- phase 3: routing --------------------------------------------------------- */

/* Returns the neighbour of p across `side`, NULL at the border. */
static model_pe *model_neighbour(model *m, const model_pe *p, int side) {
  static const int dr[MODEL_SIDES] = {-1, 0, 1, 0}, dc[MODEL_SIDES] = {0, 1, 0, -1};
  int r = p->row + dr[side], c = p->col + dc[side];
  if (r < 0 || c < 0 || r >= m->cfg.rows || c >= m->cfg.cols) return NULL;
  return model_pe_at(m, r, c);
}

/* Pushes a token into FIFO k of p at the end of this cycle (after the
 * cycle's pop); overflow drops it. */
static void model_push(model *m, model_pe *p, int k, uint32_t v, int listen) {
  model_fifo *q = &p->fifo[k];
  if (q->count == m->cfg.fifo_depth) {
    char det[16];
    snprintf(det, sizeof det, "id%d", k);
    model_fault(m, p, TRACE_FAULT_OVERFLOW, det);
    return;
  }
  int at = q->head + q->count; /* both below the depth */
  q->buf[at >= m->cfg.fifo_depth ? at - m->cfg.fifo_depth : at] = v;
  if (q->count++ == 0) model_fifo_head(m, p, k);
  if (listen) {
    model_ev_reg(m, TRACE_PUSH, p, ISA_CLS_ID, k, v);
    p->fifo_touched |= 1u << k; /* model_state_end */
  }
}

/* Delivers value v, on the source of sink s of p in this cycle, to s: a
 * FIFO push, or a hop over a wrapper output to the neighbour's wrapper
 * input or the border bank in the next cycle. */
static void model_sink_take(model *m, model_pe *p, int s, uint32_t v, uint64_t *ntok, int listen) {
  const arch_config *c = &m->cfg;
  int P = c->ports;
  if (s < c->id) {
    model_push(m, p, s, v, listen);
    return;
  }
  int o = s - c->id, side = o / P, port = o % P;
  trace_event *e = listen ? model_ev(m, TRACE_HOP, p) : NULL;
  if (e) e->side = side, e->port = port, e->value = v;
  model_pe *nb = model_neighbour(m, p, side);
  int nx = (m->t + 1) & 1;
  if (nb)
    model_src_put(m, nb, c->od + ((side + 2) % MODEL_SIDES) * P + port, v);
  else
    model_tok_put(m, &p->arrive[nx][o], v), p->narrive[nx]++;
  (*ntok)++;
}

/* Phase 3 for PE p: the tokens on its sources in this cycle go to
 * every sink connected to their source. */
static void model_pe_route(model *m, model_pe *p, uint64_t *ntok, int listen) {
  int cur = m->t & 1;
  for (int i = 0; i < p->nsrc_put[cur]; i++) {
    int src = p->src_put[cur][i];
    uint32_t v = p->src_tok[cur][src].value;
    for (int j = p->fan_at[src]; j < p->fan_at[src + 1]; j++) model_sink_take(m, p, p->fan[j], v, ntok, listen);
  }
  p->nsrc_put[cur] = 0; /* the buffer's tokens are stale from the next cycle on */
}

/* ---- phase 4: address generators ----------------------------------------------- */

/* Returns the address of AG a of PE p at iteration J (32-bit arithmetic). */
static uint32_t model_ag_addr(const model_ag *a, const int32_t *J) {
  uint32_t v = (uint32_t)a->base + (uint32_t)a->row_coef * (uint32_t)a->drow +
               (uint32_t)a->col_coef * (uint32_t)a->dcol;
  for (int d = 0; d < a->ndims; d++) v += (uint32_t)a->stride[d] * (uint32_t)J[d];
  return v;
}

/* Returns the AG enables of region r (model_region.guard) that hold at
 * step s (bit g for guard g), once a step: its iteration vector is
 * cached. */
static uint64_t model_guards_eval(model *m, model_region *r, int64_t s) {
  const int32_t *J = model_iter(m, r, s);
  unsigned h = (unsigned)((uint64_t)s & (MODEL_ITER_CACHE - 1));
  uint64_t v = 0;
  for (int g = 0; g < r->nguards; g++)
    if (model_cons_hold(r->guard[g]->cons, r->guard[g]->ncons, J)) v |= (uint64_t)1 << g;
  r->ag_held[h] = v;
  r->ag_held_valid[h] = 1;
  return v;
}

/* Returns model_guards_eval(m, r, s), from the cache when it holds step s. */
static inline uint64_t model_guards_held(model *m, model_region *r, int64_t s) {
  unsigned h = (unsigned)((uint64_t)s & (MODEL_ITER_CACHE - 1));
  if (r->iter_step[h] == s && r->ag_held_valid[h]) return r->ag_held[h];
  return model_guards_eval(m, r, s);
}

/* Returns 1 and the iteration J when AG a of p has an enabled event now. */
static int model_ag_event(model *m, const model_pe *p, const model_ag *a,
                          const int32_t **J) {
  const model_gc *g = &m->gc[p->rg->gc];
  int32_t rem;
  int64_t s = model_pe_steps(m, p, a->phase, a->phase_q, a->phase_r, &rem);
  if (s < 0 || rem || s >= g->steps) return 0;
  if (a->guard >= 0 && !(model_guards_held(m, p->rg, s) >> a->guard & 1)) return 0;
  *J = model_iter(m, p->rg, s);
  return a->guard >= 0 || model_cons_hold(a->cons, a->ncons, *J);
}

/* Runs the event of AG a of p at iteration J: a bank read or write. */
static void model_ag_fire(model *m, model_pe *p, const model_ag *a, const int32_t *J, uint64_t *ntok) {
  const arch_config *c = &m->cfg;
  int side = a->side, b = a->bank;
  model_tok *arr = &p->arrive[m->t & 1][side * c->ports + b];
  uint32_t addr = model_ag_addr(a, J);
  char det[16];
  if (addr >= (uint32_t)c->bank_depth) {
    model_fault(m, p, TRACE_FAULT_AGRANGE, model_side_port(det, sizeof det, side, b));
    if (a->mode == STREAM_AG_WRITE) arr->at = 0; /* suppressed */
    return;
  }
  uint32_t **bank = &p->bank[side * c->banks + b];
  uint32_t v;
  if (a->mode == STREAM_AG_READ) {
    v = *bank ? (*bank)[addr] : 0;
    model_src_put(m, p, c->od + side * c->ports + b, v);
    (*ntok)++;
  } else if (!model_tok_here(m, arr)) {
    model_fault(m, p, TRACE_FAULT_AGMISS, model_side_port(det, sizeof det, side, b));
    return;
  } else {
    if (!*bank && !(*bank = calloc((size_t)c->bank_depth, sizeof **bank))) {
      m->ev_oom = 1;
      return;
    }
    v = (*bank)[addr] = arr->value;
    arr->at = 0;
    if (model_state_written(m, p, side, b, addr)) m->ev_oom = 1;
    trace_event *w = model_ev(m, TRACE_BANKWR, p);
    if (w) w->side = side, w->port = b, w->addr = addr, w->value = v;
  }
  trace_event *e = model_ev(m, TRACE_BANK, p);
  if (e) {
    e->side = side;
    e->port = b;
    e->bank_write = a->mode == STREAM_AG_WRITE;
    e->addr = addr;
    e->value = v;
  }
}

/* Runs the event (if any) of AG a of p. */
static void model_ag_run(model *m, model_pe *p, const model_ag *a, uint64_t *ntok) {
  const int32_t *J;
  if (a->mode != STREAM_AG_OFF && model_ag_event(m, p, a, &J)) model_ag_fire(m, p, a, J, ntok);
}

/* Runs the events of the AGs of p that run (model_pe.ag_live, in order)
 * when p's clock is of this cycle: only those whose phase is at its cycle
 * within the step, at a step of the run whose enable holds. */
static void model_pe_ags(model *m, model_pe *p, uint64_t *ntok) {
  const model_gc *g = &m->gc[p->rg->gc];
  for (int i = 0; i < p->nag_live; i++) {
    const model_ag_live *a = &p->ag_live[i];
    if (p->clk_phase != a->phase_r) continue;
    if (a->guard < 0) {
      model_ag_run(m, p, a->ag, ntok);
      continue;
    }
    int64_t s = p->clk_step - a->phase_q; /* the AG's step, its phase at this cycle */
    if (s < 0 || s >= g->steps || !(model_guards_held(m, p->rg, s) >> a->guard & 1)) continue;
    model_ag_fire(m, p, a->ag, model_iter(m, p->rg, s), ntok);
  }
}

/* Phase 4 for PE p: AG events on its border sides, then stray arrivals. */
static void model_pe_banks(model *m, model_pe *p, uint64_t *ntok) {
  const arch_config *c = &m->cfg;
  if (!p->narrive[m->t & 1]) { /* no arrivals: the AGs that run, in the same order */
    if (!p->nag_live) return;
    if (p->clk_t == m->t) {
      model_pe_ags(m, p, ntok);
      return;
    }
    for (int i = 0; i < p->nag_live; i++) model_ag_run(m, p, p->ag_live[i].ag, ntok);
    return;
  }
  for (int side = 0; side < MODEL_SIDES; side++) {
    if (!p->border[side]) continue;
    if (p->in_region)
      for (int b = 0; b < c->banks && b < c->ports; b++) model_ag_run(m, p, &p->ag[side * c->banks + b], ntok);
    for (int port = 0; port < c->ports; port++) {
      model_tok *arr = &p->arrive[m->t & 1][side * c->ports + port];
      if (!model_tok_here(m, arr)) continue;
      char det[16];
      model_fault(m, p, TRACE_FAULT_STRAY, model_side_port(det, sizeof det, side, port));
      arr->at = 0;
    }
  }
  p->narrive[m->t & 1] = 0; /* the buffer's tokens are stale from the next cycle on */
}

/* ---- phase 5: done ---------------------------------------------------------------- */

/* Returns 1 when every FU with a program of region r (NULL: of every
 * started region) has started and halted and no result is in flight. */
static int model_fus_finished(const model *m, const model_region *r) {
  for (int i = 0; i < m->cfg.rows * m->cfg.cols; i++) {
    const model_pe *p = &m->pe[i];
    if (!p->in_region || (r && p->rg != r)) continue;
    if (p->running || p->waiting) return 0;
    for (uint32_t k = 0; k <= m->due_mask; k++)
      if (p->due[k]) return 0;
  }
  return 1;
}

/* Emits the leftover faults and the done event of the current cycle. */
static void model_finish(model *m) {
  for (int i = 0; i < m->cfg.rows * m->cfg.cols; i++) {
    model_pe *p = &m->pe[i];
    for (int k = 0; k < m->cfg.id; k++) {
      if (!p->fifo[k].count) continue;
      char det[16];
      snprintf(det, sizeof det, "id%d", k);
      model_fault(m, p, TRACE_FAULT_LEFTOVER, det);
    }
  }
  model_state_mem(m);
  trace_event *e = model_ev(m, TRACE_DONE, NULL);
  if (e) e->cycles = m->t + 1;
  m->done = 1;
}

/* Returns a machine-wide event of kind k at the place of GC g
 * (rstart, rdone, gc of a run of several regions); NULL when nobody
 * listens. */
static trace_event *model_ev_gc(model *m, trace_kind k, int g) {
  trace_event *e = model_ev(m, k, NULL);
  if (e) e->row = TRACE_PLACE_GC, e->col = g;
  return e;
}

/* Marks the regions done in the current cycle (docs/timing.md 11: no
 * token of their PEs for the next cycle, ntok[1 + GC], their AGs past
 * their last events, their FUs finished), each with its `rdone`, and the
 * run when every stream has started and every region is done. */
static void model_regions_done(model *m, const uint64_t *ntok) {
  int all = m->next_stream == m->nstreams;
  for (int g = 0; g < STREAM_GCS; g++) {
    model_region *r = &m->rg[g];
    if (r->stream < 0 || r->done) continue;
    if (ntok[1 + g] || (int64_t)m->t < r->last_event || !model_fus_finished(m, r)) {
      all = 0;
      continue;
    }
    r->done = 1;
    model_stream *st = &m->streams[r->stream];
    st->done = 1;
    st->cycles = m->t - r->t0 + 1;
    trace_event *e = model_ev_gc(m, TRACE_RDONE, g);
    if (e) e->cycles = st->cycles;
  }
  if (all) model_finish(m);
}

/* Loads the streams due in the current cycle: the loader's checks of the
 * next stream at its first cycle c_k, its packets and START at t_k (with
 * its `rstart`). Returns 0, or -1 after a refusal (m->failed). */
static int model_streams_load(model *m) {
  if (m->next_stream >= m->nstreams) return 0;
  int k = m->next_stream;
  model_stream *st = &m->streams[k];
  if (m->t == st->first && model_stream_check(m, k, &m->fail)) {
    m->failed = 1;
    return -1;
  }
  if (m->t != st->t0) return 0;
  if (model_stream_apply(m, k, &m->fail)) {
    m->failed = 1;
    return -1;
  }
  m->next_stream++;
  model_ev_gc(m, TRACE_RSTART, st->gc);
  return 0;
}

/* Runs the cycle's phases for PE p; listen is m->listen, a constant in
 * each of model_step's two loops (everything model_step calls is inlined
 * into it), so that the loop nobody listens to tests for no listener per
 * PE, FU or register. ntok counts the tokens p makes for the next
 * cycle. */
static void model_pe_cycle(model *m, model_pe *p, uint64_t *ntok, int listen) {
  model_pe_signals(m, p);
  if (listen) model_state_begin_pe(m, p);
  if (p->in_region) model_pe_execute(m, p, ntok, listen);
  if (p->nsrc_put[m->t & 1]) model_pe_route(m, p, ntok, listen);
  model_pe_banks(m, p, ntok);
  if (listen) model_state_end(m, p);
}

/* Returns what model_step returns, for a run of several streams
 * (docs/timing.md 11): the streams due are loaded before the cycle, the
 * tokens are counted per region (slot 1 + GC, 0: PEs of no region), and
 * done is per region. Apart from model_step's one-stream loops, so that
 * those stay as they are. */
__attribute__((noinline)) static int model_step_regions(model *m) {
  int n = m->cfg.rows * m->cfg.cols;
  uint64_t ntok[1 + STREAM_GCS] = {0};
  if (model_streams_load(m)) {
    m->nev = 0; /* a refusal stops the run before the cycle */
    return 1;
  }
  if (m->listen) model_state_begin(m);
  for (int i = 0; i < n; i++) {
    model_pe *p = &m->pe[i];
    model_pe_cycle(m, p, &ntok[p->rg ? 1 + p->rg->gc : 0], m->listen);
  }
  model_regions_done(m, ntok);
  model_ev_flush(m);
  m->t++;
  return m->done;
}

/* flatten: every call of the cycle engine inlined, once in each loop */
__attribute__((flatten)) int model_step(model *m) {
  if (m->done || m->failed) return 1;
  int n = m->cfg.rows * m->cfg.cols;
  uint64_t ntok = 0;
  m->nev = 0;
  if (m->nstreams > 1) return model_step_regions(m);
  /* Each PE runs the phases of the cycle in one pass: no phase of a PE
   * reads what another PE writes in the same cycle (tokens cross PEs for
   * the next cycle only; the state events of a PE read its own state) */
  if (m->listen) {
    model_state_begin(m);
    for (int i = 0; i < n; i++) model_pe_cycle(m, &m->pe[i], &ntok, 1);
  } else {
    for (int i = 0; i < n; i++) model_pe_cycle(m, &m->pe[i], &ntok, 0);
  }
  if (!ntok && (int64_t)m->t >= m->rg[m->start_gc].last_event && model_fus_finished(m, NULL))
    model_finish(m);
  model_ev_flush(m);
  m->t++;
  return m->done;
}

int model_run(model *m, uint64_t max_cycles) {
  while (!m->done && !m->failed && m->t < max_cycles) model_step(m);
  if (m->done) return 0;
  if (m->failed) return -1;
  uint64_t last = m->t;
  m->t = last ? last - 1 : 0;
  char det[24];
  snprintf(det, sizeof det, "%llu", (unsigned long long)max_cycles);
  model_fault(m, NULL, TRACE_FAULT_TIMEOUT, det);
  model_ev_flush(m);
  m->t = last;
  return 1;
}

/* ---- construction and accessors --------------------------------------------------- */

model *model_new(const arch_config *cfg, const uint8_t *stream, size_t len,
                 model_error *err) {
  model_stream_in one = {stream, len, 0};
  return model_new_multi(cfg, &one, 1, err);
}

model *model_new_multi(const arch_config *cfg, const model_stream_in *streams, int n, model_error *err) {
  model_error dummy;
  if (!err) err = &dummy;
  err->code = STREAM_OK;
  err->msg[0] = 0;
  model *m = calloc(1, sizeof *m);
  if (m) m->pe = calloc((size_t)cfg->rows * (size_t)cfg->cols, sizeof *m->pe);
  if (m && n > 0) m->streams = calloc((size_t)n, sizeof *m->streams);
  for (int k = 0; m && m->streams && k < n; k++) {
    model_stream *st = &m->streams[k];
    st->len = streams[k].len, st->t0 = streams[k].start, st->gc = -1;
    if (!(st->bytes = malloc(streams[k].len ? streams[k].len : 1))) break;
    memcpy(st->bytes, streams[k].bytes, streams[k].len);
    m->nstreams = k + 1;
  }
  if (!m || !m->pe || m->nstreams != n || n < 1) {
    if (m) {
      for (int k = 0; k < m->nstreams; k++) free(m->streams[k].bytes);
      free(m->streams);
      free(m->pe);
    }
    free(m);
    err->code = STREAM_ERR_NOMEM;
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return NULL;
  }
  m->cfg = *cfg;
  m->fp = arch_config_fingerprint(cfg);
  for (int g = 0; g < STREAM_GCS; g++) {
    m->rg[g].gc = g, m->rg[g].stream = -1, m->rg[g].last_event = -1;
    for (int h = 0; h < MODEL_ITER_CACHE; h++) m->rg[g].iter_step[h] = -1;
  }
  if (model_load(m, err)) {
    model_free(m);
    return NULL;
  }
  return m;
}

/* Frees the memory of one PE outside the arena: its state bookkeeping
 * (model_state.c) and its banks. */
static void model_pe_free(const model *m, model_pe *p) {
  model_state_free(m, p);
  if (p->bank)
    for (int k = 0; k < MODEL_SIDES * m->cfg.banks; k++) free(p->bank[k]);
}

void model_free(model *m) {
  if (!m) return;
  if (m->pe)
    for (int i = 0; i < m->cfg.rows * m->cfg.cols; i++) model_pe_free(m, &m->pe[i]);
  for (int g = 0; g < STREAM_GCS; g++) free(m->gc[g].terms);
  for (int k = 0; k < m->nprogs; k++) free(m->progs[k]);
  free(m->progs);
  for (int g = 0; g < STREAM_GCS; g++) free(m->rg[g].term_sig);
  for (int k = 0; k < m->nstreams; k++) free(m->streams[k].bytes);
  free(m->streams);
  free(m->pe);
  free(m->arena);
  free(m->ev);
  free(m->ev_tmp);
  free(m);
}

/* Notes whether anything listens to m's events now (a function, a batch
 * function or a file), which the stepping tests once per event. */
static void model_listen_update(model *m) {
  m->listen = m->fn || m->file || m->batch;
}

void model_set_trace(model *m, model_trace_fn fn, void *ctx) {
  m->fn = fn;
  m->ctx = ctx;
  model_listen_update(m);
}

void model_set_trace_batch(model *m, model_batch_fn fn, void *ctx) {
  m->batch = fn;
  m->batch_ctx = ctx;
  model_listen_update(m);
}

void model_set_trace_any_order(model *m, int any) {
  m->any_order = any != 0;
}

void model_set_trace_file(model *m, FILE *f) {
  m->file = f;
  model_listen_update(m);
  if (f) {
    trace_header_write(f, m->fp);
    fputs("# engine: tcpa C model (cmodel)\n", f);
  }
}

int model_done(const model *m) { return m->done; }

int model_failed(const model *m, model_error *err) {
  if (m->failed && err) *err = m->fail;
  return m->failed;
}

int model_region_count(const model *m) { return m->nstreams; }

int model_region_get(const model *m, int k, model_region_view *v) {
  if (k < 0 || k >= m->nstreams) return -1;
  const model_stream *st = &m->streams[k];
  memset(v, 0, sizeof *v);
  v->gc = st->gc;
  v->row0 = st->rect.row0, v->col0 = st->rect.col0, v->rows = st->rect.rows, v->cols = st->rect.cols;
  v->start_cycle = st->t0;
  v->started = st->started, v->done = st->done;
  v->cycles = st->cycles;
  return 0;
}

uint64_t model_cycles(const model *m) { return m->t; }

uint64_t model_faults(const model *m, trace_fault_kind f) {
  return (unsigned)f < TRACE_FAULT_COUNT ? m->faults[f] : m->nfaults;
}

int model_bank_read(const model *m, int row, int col, int side, int bank,
                    uint32_t addr, uint32_t *value) {
  if (row < 0 || col < 0 || row >= m->cfg.rows || col >= m->cfg.cols ||
      side < 0 || side >= MODEL_SIDES || bank < 0 || bank >= m->cfg.banks ||
      addr >= (uint32_t)m->cfg.bank_depth)
    return -1;
  const model_pe *p = &m->pe[row * m->cfg.cols + col];
  if (!p->border[side]) return -1;
  const uint32_t *b = p->bank[side * m->cfg.banks + bank];
  *value = b ? b[addr] : 0;
  return 0;
}

int model_pe_state(const model *m, int row, int col, model_pe_view *v) {
  if (row < 0 || col < 0 || row >= m->cfg.rows || col >= m->cfg.cols) return -1;
  const model_pe *p = &m->pe[row * m->cfg.cols + col];
  memset(v, 0, sizeof *v);
  v->started = p->in_region;
  v->delay = p->delay;
  for (int k = 0; k < m->cfg.rd; k++) v->rd[k] = p->rd[k];
  for (int k = 0; k < m->cfg.fd; k++) {
    v->fd_head[k] = p->fd[k].ring[p->fd[k].r];
    v->fd_depth[k] = p->fd[k].depth;
  }
  for (int k = 0; k < m->cfg.id; k++) {
    v->fifo_count[k] = p->fifo[k].count;
    v->fifo_head[k] = p->fifo[k].count ? p->fifo[k].buf[p->fifo[k].head] : 0;
  }
  for (int k = 0; k < m->cfg.od; k++) v->od[k] = p->od[k];
  for (int k = 0; k < m->nfu; k++) {
    v->pc[k] = p->fu[k].pc;
    v->halted[k] = p->fu[k].halted;
    v->wait[k] = p->fu[k].wait;
    v->programmed[k] = p->fu[k].imem != NULL;
    v->flag[k] = p->fu[k].flag;
  }
  v->sig = p->sig;
  return 0;
}
