/*
 * model_load.c: configuring the C model from a configuration stream.
 *
 * The stream is opened and walked with the stream reader (stream.h), which
 * checks the header (magic, version, fingerprint, length, CRC) and every
 * packet against the architecture; its error code and message are passed
 * on unchanged. Each packet is then applied to every PE of its rectangle
 * (a later packet for the same unit replaces the earlier one; IODATA
 * writes words). After START the started region is fixed: the START
 * rectangle, which must lie inside the region of its (configured) global
 * controller; its PEs get their start delays d(r,c) (timing.md 2).
 *
 * A run of several streams (timing.md section 11): the first is loaded
 * here before cycle 0, every other one is checked by the reader up front
 * and kept; at its first cycle c_k the loader's BUSY checks run against
 * the regions running then (model_stream_check), at its start cycle t_k
 * its packets are applied, the PEs its PE and AG packets reach leave their
 * regions (as do those of an earlier region of a GC it configures), and
 * its START restarts the PEs of its rectangle in the reset state with
 * their configuration (model_stream_apply). The start delays are kept in
 * global cycles, t_k + d(r,c), so that the cycle engine runs every region
 * on one clock.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"

/* Returns -1 after writing code and reason into err. */
static int model_load_fail(model_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int model_load_fail(model_error *err, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
  err->code = code;
  return code;
}

/* A bump allocator over one block (model.arena): with base NULL it only
 * counts the bytes, so the same walk first sizes the block, then lays it
 * out. */
typedef struct {
  char *base;
  size_t at;
} model_arena;

/* Returns the next n items of `size` bytes of the arena, aligned to 8
 * bytes (the largest alignment of the model's types); NULL while only
 * counting. */
static void *model_arena_take(model_arena *a, size_t n, size_t size) {
  a->at = (a->at + 7) & ~(size_t)7;
  void *p = a->base ? a->base + a->at : NULL;
  a->at += n * size;
  return p;
}

/* Points ptr at the next n items of its type in arena a. */
#define MODEL_TAKE(a, n, ptr) ((ptr) = model_arena_take((a), (size_t)(n), sizeof *(ptr)))

/* Returns the least power of two at least n (1 for n <= 1): the slots of
 * a ring indexed by a mask. */
static uint32_t model_pow2_at_least(int n) {
  uint32_t slots = 1;
  while (slots < (uint32_t)n) slots <<= 1;
  return slots;
}

/* Lays out the per-PE arrays of p in the arena, those every cycle touches
 * first (FUs, due ring, pipelines, registers, tokens, fans, the operand
 * file, whose immediates end it), the cold ones (sinks, arrivals, banks,
 * AGs) after them, so that a PE's working set is a few adjacent
 * cache lines (docs/model.md "Memory layout"). */
static void model_pe_layout(const model *m, model_pe *p, model_arena *a) {
  const arch_config *c = &m->cfg;
  int sp = MODEL_SIDES * c->ports, sb = MODEL_SIDES * c->banks;
  a->at = (a->at + 63) & ~(size_t)63; /* each PE on a line of its own */
  MODEL_TAKE(a, m->nfu, p->fu);
  MODEL_TAKE(a, m->due_mask + 1, p->due);
  for (int k = 0; k < m->nfu; k++) {
    int lat = k < c->alu ? c->lat_alu : k < c->alu + c->mul ? c->lat_mul : c->lat_div;
    uint32_t slots = model_pow2_at_least(lat);
    model_result *pipe;
    MODEL_TAKE(a, slots, pipe);
    if (p->fu) {
      p->fu[k].pipe = pipe;
      p->fu[k].lat = (uint8_t)lat;
      p->fu[k].pmask = (uint8_t)(slots - 1);
    }
  }
  MODEL_TAKE(a, c->fd + 1, p->fd);
  MODEL_TAKE(a, c->id + 1, p->fifo);
  for (int k = 0; k < 2; k++) {
    MODEL_TAKE(a, m->nsources, p->src_put[k]);
    MODEL_TAKE(a, m->nsources, p->src_tok[k]);
  }
  MODEL_TAKE(a, m->nsources + 1, p->fan_at);
  MODEL_TAKE(a, m->nsinks, p->fan);
  MODEL_TAKE(a, sb, p->ag_live);
  MODEL_TAKE(a, c->od + 1, p->od);
  for (int k = 0; k < c->fd; k++) {
    uint32_t *ring;
    MODEL_TAKE(a, c->fd_depth, ring);
    if (p->fd) p->fd[k].ring = ring;
  }
  for (int k = 0; k < c->id; k++) {
    uint32_t *buf;
    MODEL_TAKE(a, c->fifo_depth, buf);
    if (p->fifo) p->fifo[k].buf = buf;
  }
  MODEL_TAKE(a, model_opnd_size(c, m->nfu), p->opnd); /* the immediates' places last */
  MODEL_TAKE(a, m->nsinks, p->sink);
  for (int k = 0; k < 2; k++) MODEL_TAKE(a, sp, p->arrive[k]);
  MODEL_TAKE(a, sb, p->bank);
  MODEL_TAKE(a, sb, p->ag);
}

/* Returns 0 after allocating the per-PE state of every PE of m, its
 * arrays in one zeroed block (model.arena); -1 when out of memory. */
static int model_pes_alloc(model *m) {
  const arch_config *c = &m->cfg;
  int n = c->rows * c->cols, maxlat = 1;
  if (c->alu && c->lat_alu > maxlat) maxlat = c->lat_alu;
  if (c->mul && c->lat_mul > maxlat) maxlat = c->lat_mul;
  if (c->div && c->lat_div > maxlat) maxlat = c->lat_div;
  m->due_mask = model_pow2_at_least(maxlat) - 1;
  model_arena a = {NULL, 0};
  model_pe dry;
  memset(&dry, 0, sizeof dry);
  for (int i = 0; i < n; i++) model_pe_layout(m, &dry, &a);
  size_t size = (a.at + 63) & ~(size_t)63;
  if (!(m->arena = aligned_alloc(64, size ? size : 64))) return -1;
  memset(m->arena, 0, size);
  a = (model_arena){m->arena, 0};
  for (int r = 0; r < c->rows; r++)
    for (int col = 0; col < c->cols; col++) {
      model_pe *p = model_pe_at(m, r, col);
      p->row = r;
      p->col = col;
      model_pe_layout(m, p, &a);
      p->rd = p->opnd;
      for (int k = 0; k < c->fd; k++) {
        p->fd[k].depth = 1;
        p->fd[k].head = &p->opnd[model_opnd_fd(c, k)];
      }
      p->border[STREAM_SIDE_NORTH] = p->row == 0;
      p->border[STREAM_SIDE_SOUTH] = p->row == c->rows - 1;
      p->border[STREAM_SIDE_WEST] = p->col == 0;
      p->border[STREAM_SIDE_EAST] = p->col == c->cols - 1;
      p->sig_step = -1;
      p->clk_t = MODEL_CLK_NONE;
      if (model_state_alloc(m, p)) return -1;
    }
  return 0;
}

/* A cursor over a packet's payload (already validated by the reader). */
typedef struct {
  const uint32_t *w;
  uint32_t n, i;
} model_cur;

/* Returns the next payload word as int32 (0 past the end, never reached
 * on a validated packet). */
static int32_t model_take(model_cur *c) {
  return c->i < c->n ? (int32_t)c->w[c->i++] : 0;
}

/* Reads `n` constraints over nd dimensions into cons (unused coefficients
 * zero); returns how many were read. */
static int model_take_cons(model_cur *c, int nd, model_cons *cons) {
  int n = model_take(c);
  for (int k = 0; k < n && k < 2 * MODEL_MAX_DIMS; k++) {
    memset(&cons[k], 0, sizeof cons[k]);
    cons[k].kind = model_take(c);
    for (int d = 0; d < nd; d++)
      if ((cons[k].coef[d] = model_take(c))) cons[k].nd = d + 1;
    cons[k].konst = model_take(c);
  }
  return n;
}

/* Returns 0 after storing a GC packet; -1 when out of memory. */
static int model_apply_gc(model *m, const stream_packet *p) {
  model_gc *g = &m->gc[p->index];
  model_cur c = {p->payload, p->nwords, 0};
  free(g->terms);
  memset(g, 0, sizeof *g);
  g->configured = 1;
  g->rect = p->rect;
  g->ii = model_take(&c);
  g->ndims = model_take(&c);
  for (int d = 0; d < g->ndims; d++) g->bound[d] = model_take(&c);
  g->epilog = model_take(&c);
  g->delay0 = model_take(&c);
  g->delay_row = model_take(&c);
  g->delay_col = model_take(&c);
  g->nterms = model_take(&c);
  g->terms = calloc((size_t)g->nterms + 1, sizeof *g->terms);
  if (!g->terms) return -1;
  for (int t = 0; t < g->nterms; t++) {
    uint32_t w = (uint32_t)model_take(&c);
    g->terms[t].signal = (int)STREAM_TERM_SIGNAL(w);
    g->terms[t].rlo = (int)STREAM_TERM_FIELD(w, 0);
    g->terms[t].rhi = g->rect.rows - 1 - (int)STREAM_TERM_FIELD(w, 1);
    g->terms[t].clo = (int)STREAM_TERM_FIELD(w, 2);
    g->terms[t].chi = g->rect.cols - 1 - (int)STREAM_TERM_FIELD(w, 3);
    g->terms[t].ncons = model_take_cons(&c, g->ndims, g->terms[t].cons);
  }
  g->steps = model_gc_steps(g);
  return 0;
}

/* Stores an AG packet in every PE of its rectangle. */
static void model_apply_ag(model *m, const stream_packet *p) {
  model_ag a;
  memset(&a, 0, sizeof a);
  model_cur c = {p->payload, p->nwords, 0};
  a.mode = model_take(&c);
  a.ndims = model_take(&c);
  a.phase = model_take(&c);
  a.base = model_take(&c);
  a.row_coef = model_take(&c);
  a.col_coef = model_take(&c);
  for (int d = 0; d < a.ndims; d++) a.stride[d] = model_take(&c);
  a.ncons = model_take_cons(&c, a.ndims, a.cons);
  a.side = p->side;
  a.bank = p->index;
  a.guard = -1; /* model_ag_guard, at START */
  for (int r = 0; r < p->rect.rows; r++)
    for (int col = 0; col < p->rect.cols; col++) {
      model_pe *pe = model_pe_at(m, p->rect.row0 + r, p->rect.col0 + col);
      a.drow = r;
      a.dcol = col;
      pe->ag[p->side * m->cfg.banks + p->index] = a;
    }
}

/* Returns 0 after writing IODATA words into the banks of its rectangle;
 * -1 when out of memory. */
static int model_apply_iodata(model *m, const stream_packet *p) {
  uint32_t start = p->payload[0];
  for (int r = 0; r < p->rect.rows; r++)
    for (int col = 0; col < p->rect.cols; col++) {
      model_pe *pe = model_pe_at(m, p->rect.row0 + r, p->rect.col0 + col);
      uint32_t **b = &pe->bank[p->side * m->cfg.banks + p->index];
      if (!*b && !(*b = calloc((size_t)m->cfg.bank_depth, sizeof **b)))
        return -1;
      for (uint32_t k = 1; k < p->nwords; k++) {
        (*b)[start + k - 1] = p->payload[k];
        if (model_state_written(m, pe, p->side, p->index, start + k - 1)) return -1;
      }
    }
  return 0;
}

/* Returns the operand-file place (model_pe.opnd) source o of FU k's
 * instruction at pc reads; sets its bit in *fdmask or *idmask when it
 * reads an fd or a FIFO. */
static uint32_t model_uop_src(const arch_config *c, isa_opnd o, int k, int pc, uint32_t *fdmask, uint32_t *idmask) {
  switch (o.cls) {
  case ISA_CLS_RD: return o.idx;
  case ISA_CLS_FD: *fdmask |= 1u << o.idx; return (uint32_t)model_opnd_fd(c, o.idx);
  case ISA_CLS_ID: *idmask |= 1u << o.idx; return (uint32_t)model_opnd_id(c, o.idx);
  case ISA_CLS_IMM: return (uint32_t)model_opnd_imm(c, k, pc);
  default: return (uint32_t)model_opnd_zero(c); /* NONE */
  }
}

/* Returns the pc-moving kind of instruction `in` (model_flow). */
static uint8_t model_uop_flow(const isa_insn *in) {
  if (in->op == ISA_OP_NOP && in->imm != 0) return MODEL_FLOW_WAIT;
  switch (in->br) {
  case ISA_BR_COND: return MODEL_FLOW_COND;
  case ISA_BR_HALT: return MODEL_FLOW_HALT;
  default: return MODEL_FLOW_FIXED;
  }
}

/* Fills u, FU k's instruction at pc, from the instruction word w:
 * decoded, its sources resolved (the sources up to the first NONE, as
 * the stream reader checked), its pc moves classified. */
static void model_uop_decode(const model *m, const isa_word *w, int k, int pc, model_uop *u) {
  const arch_config *c = &m->cfg;
  memset(u, 0, sizeof *u);
  isa_decode(w, &u->in);
  for (int i = 0; i < 3; i++) u->src[i] = (uint32_t)model_opnd_zero(c);
  for (int i = 0; i < 3; i++) {
    if (u->in.src[i].cls == ISA_CLS_NONE) break;
    u->src[i] = model_uop_src(c, u->in.src[i], k, pc, &u->fdmask, &u->idmask);
  }
  u->odmask = u->in.odmask & m->odmask;
  u->flow = model_uop_flow(&u->in);
  u->next = (uint16_t)(u->in.br == ISA_BR_GOTO ? u->in.target[0] : pc + 1 == c->imem ? 0 : pc + 1);
}

/* Returns a new decoded program memory of m (pe.imem words, nop beyond
 * the packet's), owned by m->progs; NULL when out of memory. */
static model_uop *model_prog_new(model *m, const stream_packet *p) {
  if (m->nprogs == m->progcap) {
    int cap = m->progcap ? 2 * m->progcap : 8;
    model_uop **v = realloc(m->progs, (size_t)cap * sizeof *v);
    if (!v) return NULL;
    m->progs = v;
    m->progcap = cap;
  }
  model_uop *imem = malloc((size_t)m->cfg.imem * sizeof *imem);
  if (!imem) return NULL;
  m->progs[m->nprogs++] = imem;
  for (int k = 0; k < m->cfg.imem; k++) {
    isa_word w = {{0}};
    if ((uint32_t)k < p->nwords / ISA_WORDS) memcpy(w.w, p->payload + k * ISA_WORDS, sizeof w.w);
    model_uop_decode(m, &w, p->index, k, &imem[k]);
  }
  return imem;
}

/* Returns 0 after loading a program packet into every PE of its
 * rectangle, one decoded copy shared by them (a PE's program is never
 * written while it runs; a later packet gives its PEs a new copy);
 * -1 when out of memory. */
static int model_apply_program(model *m, const stream_packet *p, int midrun) {
  model_uop *imem = model_prog_new(m, p);
  if (!imem) return -1;
  for (int r = 0; r < p->rect.rows; r++)
    for (int col = 0; col < p->rect.cols; col++) {
      model_pe *pe = model_pe_at(m, p->rect.row0 + r, p->rect.col0 + col);
      if (midrun) { /* the FU starts with a START (model_pe_restart); `insn` again where a word changed */
        const model_uop *old = pe->fu[p->index].imem;
        for (int pc = 0; pe->insn_seen && pc < m->cfg.imem; pc++)
          if (!old || memcmp(&old[pc].in, &imem[pc].in, sizeof imem[pc].in))
            pe->insn_seen[(size_t)p->index * (size_t)m->cfg.imem + (size_t)pc] = 0;
        pe->fu[p->index].imem = imem;
        for (int pc = 0; pc < m->cfg.imem; pc++)
          pe->opnd[model_opnd_imm(&m->cfg, p->index, pc)] = (uint32_t)imem[pc].in.imm;
        continue;
      }
      pe->fu[p->index].imem = imem;
      for (int pc = 0; pc < m->cfg.imem; pc++) /* the immediates' places */
        pe->opnd[model_opnd_imm(&m->cfg, p->index, pc)] = (uint32_t)imem[pc].in.imm;
      pe->running |= 1u << p->index;
    }
  return 0;
}

/* Sets the sinks of each source of p (fan_at, fan) from its sinks'
 * sources, in sink order. */
static void model_pe_fan(const model *m, model_pe *p) {
  int n = 0;
  for (int src = 0; src < m->nsources; src++) {
    p->fan_at[src] = (uint16_t)n;
    for (int s = 0; s < m->nsinks; s++)
      if (p->sink[s] == src + 1) p->fan[n++] = (uint16_t)s;
  }
  p->fan_at[m->nsources] = (uint16_t)n;
}

/* Applies a REGCFG or WRAPPER packet to every PE of its rectangle. */
static void model_apply_pe_config(model *m, const stream_packet *p) {
  for (int r = 0; r < p->rect.rows; r++)
    for (int col = 0; col < p->rect.cols; col++) {
      model_pe *pe = model_pe_at(m, p->rect.row0 + r, p->rect.col0 + col);
      if (p->type == STREAM_PKT_REGCFG) {
        for (int k = 0; k < m->cfg.fd; k++) pe->fd[k].depth = (int)p->payload[k];
        continue;
      }
      for (int s = 0; s < m->nsinks; s++) pe->sink[s] = (uint16_t)p->payload[s];
      model_pe_fan(m, pe);
    }
}

/* Returns 0 after applying one packet (midrun: of a stream after the
 * first); -1 when out of memory. */
static int model_apply(model *m, const stream_packet *p, int midrun) {
  switch (p->type) {
  case STREAM_PKT_PROGRAM: return model_apply_program(m, p, midrun);
  case STREAM_PKT_REGCFG:
  case STREAM_PKT_WRAPPER: model_apply_pe_config(m, p); return 0;
  case STREAM_PKT_GC: return model_apply_gc(m, p);
  case STREAM_PKT_AG: model_apply_ag(m, p); return 0;
  case STREAM_PKT_IODATA: return model_apply_iodata(m, p);
  case STREAM_PKT_START: return 0; /* model_region_start */
  }
  return 0;
}

/* Returns 1 when rectangle a lies inside rectangle b. */
static int model_rect_inside(const stream_rect *a, const stream_rect *b) {
  return a->row0 >= b->row0 && a->col0 >= b->col0 &&
         a->row0 + a->rows <= b->row0 + b->rows &&
         a->col0 + a->cols <= b->col0 + b->cols;
}

/* Returns the terms of g (the first MODEL_TERMS_MASKED) whose PE range
 * holds the PE at offset (drow, dcol) of its region, bit k for term k. */
static uint64_t model_pe_terms(const model_gc *g, int drow, int dcol) {
  uint64_t v = 0;
  for (int k = 0; k < g->nterms && k < MODEL_TERMS_MASKED; k++) {
    const model_term *tm = &g->terms[k];
    if (drow >= tm->rlo && drow <= tm->rhi && dcol >= tm->clo && dcol <= tm->chi) v |= (uint64_t)1 << k;
  }
  return v;
}

/* Gives AG a the bit of its enable in the run's cached masks (a new one
 * when no AG before had the same constraints), or -1 past MODEL_GUARDS. */
static void model_ag_guard(model_region *m, model_ag *a) {
  for (int g = 0; g < m->nguards; g++) {
    const model_ag *o = m->guard[g];
    if (o->ncons == a->ncons && !memcmp(o->cons, a->cons, (size_t)a->ncons * sizeof *a->cons)) {
      a->guard = g;
      return;
    }
  }
  a->guard = m->nguards < MODEL_GUARDS ? m->nguards : -1;
  if (a->guard >= 0) m->guard[m->nguards++] = a;
}

/* Returns 0 after setting m->term_sig, the signals of each set of terms
 * of the started GC g a byte of a term mask names; -1 when out of
 * memory. */
static int model_term_sig(model_region *rg, const model_gc *g) {
  free(rg->term_sig);
  rg->term_sig = NULL;
  if (g->nterms > MODEL_TERMS_MASKED) return 0;
  int ng = (g->nterms + 7) / 8;
  rg->term_sig = calloc((size_t)ng + 1, sizeof *rg->term_sig);
  if (!rg->term_sig) return -1;
  for (int k = 0; k < g->nterms; k++)
    for (int b = 0; b < 256; b++)
      if (b >> (k % 8) & 1) rg->term_sig[k / 8][b] |= 1u << g->terms[k].signal;
  return 0;
}

/* Takes PE p out of its region (a PE in no region, docs/timing.md 11):
 * its clock stopped, its AGs inactive, its state events recomputed. */
static void model_pe_detach(model *m, model_pe *p) {
  p->rg = NULL;
  p->in_region = 0;
  p->nag_live = 0;
  p->clk_t = MODEL_CLK_NONE;
  p->sig_step = -1;
  p->ag_state_all = 0;
  for (int k = 0; k < MODEL_SIDES * m->cfg.banks; k++) p->ag_step[k] = -1;
}

/* Puts PE p, restarted by a START after cycle 0, in the reset state of
 * docs/timing.md section 1 but for its configuration: registers, flags,
 * fd rings, FIFOs, pcs, FUs idle until their start, nothing in flight. */
static void model_pe_restart(model *m, model_pe *p) {
  const arch_config *c = &m->cfg;
  for (int k = 0; k < c->rd; k++) p->rd[k] = 0;
  for (int k = 0; k < c->od; k++) p->od[k] = 0;
  for (int k = 0; k < c->fd; k++) {
    model_fd *d = &p->fd[k];
    memset(d->ring, 0, (size_t)c->fd_depth * sizeof *d->ring);
    d->r = d->w = 0;
    *d->head = 0;
  }
  for (int k = 0; k < c->id; k++) {
    if (p->fifo[k].count) p->fifo_touched |= 1u << k; /* its `fifo` line */
    p->fifo[k].count = p->fifo[k].head = 0;
    p->opnd[model_opnd_id(c, k)] = 0;
  }
  p->running = p->waiting = 0;
  for (int k = 0; k < m->nfu; k++) {
    model_fu *f = &p->fu[k];
    f->pc = 0;
    f->wait = 0;
    f->halted = 0;
    f->flag = 0;
    if (f->imem) p->running |= 1u << k;
  }
  memset(p->due, 0, (m->due_mask + 1) * sizeof *p->due);
  p->wrote_at = m->t; /* the flags are compared in this cycle (state events) */
  p->wrote = 0;
  p->wrote_od = 0;
}

/* Returns 0 after starting region k's GC gi on rectangle s in the current
 * cycle (stream k's START at byte `offset`): its PEs (restarted after
 * cycle 0) get their start delays t_k + d(r,c), term masks and AGs; else
 * an error code with the reason in err. */
static int model_region_start(model *m, int k, int gi, stream_rect s, size_t offset, model_error *err) {
  const model_gc *g = &m->gc[gi];
  model_region *rg = &m->rg[gi];
  const char *in = m->nstreams > 1 ? "stream " : "";
  char sk[16] = "";
  if (m->nstreams > 1) snprintf(sk, sizeof sk, "%d, ", k);
  if (!g->configured)
    return model_load_fail(err, STREAM_ERR_PAYLOAD, "%s%sbyte %zu: START of global "
                           "controller %d, which no GC packet configured", in, sk,
                           offset, gi);
  if (!model_rect_inside(&s, &g->rect))
    return model_load_fail(err, STREAM_ERR_RECT, "%s%sbyte %zu: START rectangle "
                           "rows %d..%d, columns %d..%d is not inside the region "
                           "of global controller %d", in, sk, offset, s.row0,
                           s.row0 + s.rows - 1, s.col0, s.col0 + s.cols - 1, gi);
  rg->stream = k;
  rg->rect = s;
  rg->t0 = m->t;
  rg->ii = g->ii;
  rg->done = 0;
  rg->last_event = -1;
  rg->nguards = 0;
  for (int h = 0; h < MODEL_ITER_CACHE; h++) rg->iter_step[h] = -1;
  if (model_term_sig(rg, g)) return model_load_fail(err, STREAM_ERR_NOMEM, "out of memory");
  model_stream *st = &m->streams[k];
  st->gc = gi, st->rect = s, st->started = 1;
  for (int r = s.row0; r < s.row0 + s.rows; r++)
    for (int c = s.col0; c < s.col0 + s.cols; c++) {
      model_pe *pe = model_pe_at(m, r, c);
      if (k > 0) {
        model_pe_detach(m, pe);
        model_pe_restart(m, pe);
      }
      pe->in_region = 1;
      pe->rg = rg;
      pe->ii = g->ii;
      pe->delay = (int64_t)rg->t0 + (int64_t)g->delay0 + (int64_t)g->delay_row * (r - g->rect.row0) +
                  (int64_t)g->delay_col * (c - g->rect.col0);
      pe->term_mask = model_pe_terms(g, r - g->rect.row0, c - g->rect.col0);
      for (int j = 0; j < MODEL_SIDES * m->cfg.banks; j++) {
        model_ag *a = &pe->ag[j];
        a->phase_q = a->phase / g->ii;
        a->phase_r = a->phase % g->ii;
        if (a->phase_r < 0) a->phase_r += g->ii, a->phase_q--;
        if (a->mode == STREAM_AG_OFF || !pe->border[j / m->cfg.banks]) continue;
        model_ag_guard(rg, a);
        if (j % m->cfg.banks < m->cfg.ports)
          pe->ag_live[pe->nag_live++] = (model_ag_live){a->phase_r, a->guard, a->phase_q, a};
        int64_t last = model_event_cycle(pe->delay, g->steps - 1, g->ii, a->phase);
        if (last > rg->last_event) rg->last_event = last;
      }
    }
  return 0;
}

/* Returns the stream reader's verdict on every packet of stream k
 * (STREAM_OK), or its error with the reason, naming the stream, in err. */
static int model_stream_precheck(model *m, int k, model_error *err) {
  const model_stream *st = &m->streams[k];
  stream_reader rd;
  stream_packet p;
  int rc = stream_reader_open(&rd, st->bytes, st->len, &m->cfg);
  while (!rc && (rc = stream_reader_next(&rd, &p)) == 1) rc = 0;
  if (rc < 0) model_load_fail(err, rc, "stream %d: %s", k, rd.msg);
  stream_reader_close(&rd);
  return rc < 0 ? rc : 0;
}

/* Returns 0 when the start cycles of the run keep the rules of
 * docs/timing.md 11 (t_0 = 0, nondecreasing, loading windows apart), with
 * each stream's first cycle c_k set; else STREAM_ERR_ORDER naming both
 * streams and the cycles. */
static int model_streams_plan(model *m, model_error *err) {
  if (m->streams[0].t0 != 0)
    return model_load_fail(err, STREAM_ERR_ORDER, "stream 0 starts at cycle %llu: the first stream starts at 0",
                           (unsigned long long)m->streams[0].t0);
  for (int k = 1; k < m->nstreams; k++) {
    model_stream *st = &m->streams[k];
    uint64_t words = st->len / 4, prev = m->streams[k - 1].t0;
    if (st->t0 < words || st->t0 - words < prev)
      return model_load_fail(err, STREAM_ERR_ORDER,
                             "stream %d (%llu words) starting at cycle %llu would be loaded from cycle %lld, "
                             "before stream %d's start at cycle %llu: the one loader takes a stream's words in "
                             "the cycles before its start (start it at cycle %llu or later)",
                             k, (unsigned long long)words, (unsigned long long)st->t0,
                             (long long)st->t0 - (long long)words, k - 1, (unsigned long long)prev,
                             (unsigned long long)(prev + words));
    st->first = st->t0 - words;
  }
  return 0;
}

/* Returns the name of a packet type for messages. */
static const char *model_pkt_name(int type) {
  static const char *const names[] = {"?", "PROGRAM", "REGCFG", "WRAPPER", "GC", "AG", "IODATA", "START"};
  return type >= 1 && type <= 7 ? names[type] : "?";
}

int model_stream_check(model *m, int k, model_error *err) {
  const model_stream *st = &m->streams[k];
  stream_reader rd;
  stream_packet p;
  int rc = stream_reader_open(&rd, st->bytes, st->len, &m->cfg);
  while (!rc && (rc = stream_reader_next(&rd, &p)) == 1) {
    rc = 0;
    for (int g = 0; g < STREAM_GCS; g++) {
      const model_region *r = &m->rg[g];
      if (r->stream < 0 || r->done) continue;
      int gc_pkt = p.type == STREAM_PKT_GC || p.type == STREAM_PKT_START;
      int busy = gc_pkt ? p.index == g : 0;
      if (p.type != STREAM_PKT_GC && model_rect_overlap(&p.rect, &r->rect)) busy = 1;
      if (!busy) continue;
      char gcs[16] = "";
      if (gc_pkt) snprintf(gcs, sizeof gcs, ", GC %d", p.index);
      rc = model_load_fail(err, STREAM_ERR_BUSY,
                           "stream %d, byte %zu: %s packet (rows %d..%d, columns %d..%d%s) loaded at cycle %llu "
                           "touches the running region of GC %d (stream %d, rows %d..%d, columns %d..%d)",
                           k, p.offset, model_pkt_name(p.type), p.rect.row0, p.rect.row0 + p.rect.rows - 1,
                           p.rect.col0, p.rect.col0 + p.rect.cols - 1, gcs,
                           (unsigned long long)st->first, g, r->stream, r->rect.row0,
                           r->rect.row0 + r->rect.rows - 1, r->rect.col0, r->rect.col0 + r->rect.cols - 1);
      break;
    }
  }
  stream_reader_close(&rd);
  return rc < 0 ? rc : 0;
}

/* Clears the configuration PE p holds from earlier streams (docs/timing.md
 * 11): no programs, fd depths 1, every wrapper sink unconnected, every AG
 * off; its `insn` lines start over. */
static void model_pe_unconfigure(model *m, model_pe *p) {
  for (int k = 0; k < m->nfu; k++) p->fu[k].imem = NULL;
  p->running = p->waiting = 0;
  for (int k = 0; k < m->cfg.fd; k++) p->fd[k].depth = 1;
  memset(p->sink, 0, (size_t)m->nsinks * sizeof *p->sink);
  model_pe_fan(m, p);
  memset(p->ag, 0, (size_t)(MODEL_SIDES * m->cfg.banks) * sizeof *p->ag);
  if (p->insn_seen) memset(p->insn_seen, 0, (size_t)m->nfu * (size_t)m->cfg.imem);
}

int model_stream_apply(model *m, int k, model_error *err) {
  const model_stream *st = &m->streams[k];
  stream_reader rd;
  stream_packet p;
  uint8_t *touched = calloc((size_t)(m->cfg.rows * m->cfg.cols), 1);
  if (!touched) return model_load_fail(err, STREAM_ERR_NOMEM, "out of memory");
  int rc = stream_reader_open(&rd, st->bytes, st->len, &m->cfg);
  while (!rc && (rc = stream_reader_next(&rd, &p)) == 1) {
    rc = 0;
    if (p.type == STREAM_PKT_START) {
      rc = model_region_start(m, k, p.index, p.rect, p.offset, err);
      break;
    }
    if (p.type == STREAM_PKT_GC) { /* GC p.index's earlier region ends */
      model_region *old = &m->rg[p.index];
      for (int i = 0; i < m->cfg.rows * m->cfg.cols; i++)
        if (m->pe[i].rg == old) model_pe_detach(m, &m->pe[i]);
      old->stream = -1;
    }
    if (p.type != STREAM_PKT_GC && p.type != STREAM_PKT_IODATA) /* its PEs leave their regions */
      for (int r = 0; r < p.rect.rows; r++)
        for (int c = 0; c < p.rect.cols; c++) {
          int i = (p.rect.row0 + r) * m->cfg.cols + p.rect.col0 + c;
          model_pe_detach(m, &m->pe[i]);
          if (!touched[i]) model_pe_unconfigure(m, &m->pe[i]); /* the stream's first packet there */
          touched[i] = 1;
        }
    if (model_apply(m, &p, 1)) rc = model_load_fail(err, STREAM_ERR_NOMEM, "out of memory");
  }
  if (rc < 0 && !err->msg[0]) model_load_fail(err, rc, "stream %d: %s", k, rd.msg);
  stream_reader_close(&rd);
  free(touched);
  return rc < 0 ? rc : 0;
}

int model_load(model *m, model_error *err) {
  stream_reader rd;
  int rc = stream_reader_open(&rd, m->streams[0].bytes, m->streams[0].len, &m->cfg);
  if (rc) {
    if (m->nstreams > 1) model_load_fail(err, rc, "stream 0: %s", rd.msg);
    else model_load_fail(err, rc, "%s", rd.msg);
    stream_reader_close(&rd);
    return rc;
  }
  m->nfu = isa_fu_count(&m->cfg);
  m->nsinks = m->cfg.id + MODEL_SIDES * m->cfg.ports;
  m->nsources = m->cfg.od + MODEL_SIDES * m->cfg.ports;
  m->odmask = m->cfg.od >= 32 ? UINT32_MAX : (1u << m->cfg.od) - 1;
  if (model_pes_alloc(m)) {
    stream_reader_close(&rd);
    return model_load_fail(err, STREAM_ERR_NOMEM, "out of memory");
  }
  stream_packet p, start = {0};
  while ((rc = stream_reader_next(&rd, &p)) == 1) {
    if (model_apply(m, &p, 0)) {
      stream_reader_close(&rd);
      return model_load_fail(err, STREAM_ERR_NOMEM, "out of memory");
    }
    if (p.type == STREAM_PKT_START) start = p;
  }
  if (rc < 0) model_load_fail(err, rc, "%s%s", m->nstreams > 1 ? "stream 0: " : "", rd.msg);
  stream_reader_close(&rd);
  if (rc < 0) return rc;
  for (int k = 1; k < m->nstreams; k++)
    if ((rc = model_stream_precheck(m, k, err))) return rc;
  if ((rc = model_streams_plan(m, err))) return rc;
  m->start_gc = start.index;
  m->start_rect = start.rect;
  m->next_stream = 1;
  return model_region_start(m, 0, start.index, start.rect, start.offset, err);
}
