/*
 * model_impl.h: the internal state of the C model (model.h), shared by the
 * loader (model_load.c: stream packets -> configuration) and the cycle
 * engine (model.c: one model_step per clock cycle). Not for other users.
 *
 * State is kept per PE. Everything updated "at the end of a cycle"
 * (timing.md section 1) is either written to the other buffer of a pair
 * kept by the cycle's parity (tokens), or applied after the reads of the
 * cycle (registers, FIFOs, pointers, banks), so that every read of cycle t
 * sees the state at the start of t. What can be decided once is decided
 * by the loader: an instruction's source places, pc moves and pops, an
 * AG's enable bit, a source's sinks.
 */
#ifndef TCPA_MODEL_IMPL_H
#define TCPA_MODEL_IMPL_H

#include "model.h"
#include "stream.h"

#define MODEL_MAX_DIMS 8 /* the largest gc.dims (docs/arch.md) */
#define MODEL_SIDES 4
#define MODEL_ITER_CACHE 1024 /* iteration vectors kept (a power of 2; model_iter):
                                 more than the steps between the first PE's
                                 and the last AG's of most runs */
#define MODEL_TERMS_MASKED 64 /* GCs with at most this many terms have their
                                 signals from cached term masks (model.c) */
#define MODEL_GUARDS 64 /* distinct AG enables held as cached masks (model.c) */

/* One affine constraint sum(coef[d]*J[d]) + konst (>= | ==) 0. */
typedef struct {
  int kind; /* stream_cons_kind */
  int nd;   /* dimensions with a coefficient (the rest are zero) */
  int32_t coef[MODEL_MAX_DIMS];
  int32_t konst;
} model_cons;

/* One term of a control signal: the conjunction of its constraints. */
typedef struct {
  int signal;
  int rlo, rhi, clo, chi; /* its PE range: r - ROW0 in rlo..rhi, c - COL0 in clo..chi */
  int ncons;
  model_cons cons[2 * MODEL_MAX_DIMS];
} model_term;

/* A global controller (GC packet). */
typedef struct {
  int configured;
  stream_rect rect; /* its region */
  int32_t ii;
  int ndims;
  int32_t bound[MODEL_MAX_DIMS];
  int32_t epilog;
  int32_t delay0, delay_row, delay_col;
  int nterms;
  model_term *terms;
  int64_t steps; /* S = prod(bound) + epilog, saturated */
} model_gc;

/* An address generator of one bank of one border side of a PE. */
typedef struct {
  int mode; /* stream_ag_mode */
  int ndims;
  int32_t phase, base, row_coef, col_coef;
  int64_t phase_q; /* phase = phase_q * ii + phase_r, 0 <= phase_r < ii (of the started GC) */
  int32_t phase_r;
  int32_t stride[MODEL_MAX_DIMS];
  int ncons;
  model_cons cons[2 * MODEL_MAX_DIMS];
  int drow, dcol; /* r - ROW0, c - COL0 of its packet's rectangle */
  int side, bank; /* where it is: p->ag[side * banks + bank] */
  int guard;      /* its enable's bit in model.ag_held; -1: evaluated itself */
} model_ag;

/* An AG that runs (in the started region, on a border side, not off),
 * with what its PE's AG phase tests every cycle next to each other. */
typedef struct {
  int32_t phase_r; /* of ag */
  int guard;       /* of ag */
  int64_t phase_q; /* of ag */
  const model_ag *ag;
} model_ag_live;

/* A token: a value present on a port or link in one cycle. Tokens are
 * kept in pairs of buffers, [t & 1] for cycle t: a token put for cycle
 * t + 1 is stamped with it, so neither buffer is swapped or cleared. */
typedef struct {
  uint32_t value;
  uint64_t at; /* 1 + the cycle it is present in; 0 none */
} model_tok;

/* How an instruction moves its FU's pc (model_uop.flow), fixed when it
 * is decoded. */
typedef enum {
  MODEL_FLOW_FIXED, /* next or goto: to model_uop.next */
  MODEL_FLOW_COND,  /* br: by its condition bits in the cycle */
  MODEL_FLOW_WAIT,  /* nop N, N > 1: N - 1 waiting cycles, then its branch */
  MODEL_FLOW_HALT   /* halt */
} model_flow;

/* An instruction as the cycle engine issues it: decoded, with its source
 * operands resolved to places of a PE's operand file (model_pe.opnd) and
 * the fd and id registers it reads as masks, once per program. */
typedef struct {
  isa_insn in;
  uint32_t src[3];   /* model_pe.opnd place of each source (NONE: the zero;
                        IMM: the place of its FU and pc, model_opnd_imm) */
  uint32_t fdmask;   /* bit k: it reads (pops) fd k */
  uint32_t idmask;   /* bit k: it reads (pops) FIFO k */
  uint32_t odmask;   /* in.odmask of the od registers that exist */
  uint8_t flow;      /* model_flow */
  uint16_t next;     /* MODEL_FLOW_FIXED: the pc after it */
} model_uop;

/* A result in an FU's pipeline, written at the end of the cycle it is
 * due in (model_pe.due). */
typedef struct {
  uint32_t value;
  const model_uop *uop; /* the instruction that computed it: its destinations */
} model_result;


/* An FU (32 bytes on a 64-bit host: indexed by a shift). */
typedef struct {
  model_uop *imem; /* pe.imem instructions, one of m->progs; NULL: no program */
  model_result *pipe; /* pmask + 1 slots, indexed by the cycle it is due in & pmask */
  int32_t pc;
  uint32_t wait; /* cycles left of a multi-cycle nop at pc (timing.md 3) */
  uint8_t lat;   /* latency of its class (<= 64) */
  uint8_t pmask; /* pipe slots - 1: the slots are the power of two >= lat */
  uint8_t halted, flag;
} model_fu;

typedef struct {
  uint32_t *ring; /* depth words */
  int depth, r, w;
  uint32_t *head; /* its place of the PE's operand file: ring[r] */
} model_fd;

typedef struct {
  uint32_t *buf; /* pe.fifo_depth words */
  int head, count;
} model_fifo;

struct model_region;

typedef struct {
  int row, col;
  int in_region; /* inside a started region (rg) */
  struct model_region *rg; /* that region; NULL none */
  int32_t ii;    /* its GC's ii (the PE's clock) */
  int64_t delay; /* t_k + d(r,c) when in_region: its start, in global cycles */
  int border[MODEL_SIDES]; /* side lies on the array border */
  model_fu *fu;
  uint32_t running; /* bit k: FU k issues: it has a program, has not halted
                       and does not wait in a nop N */
  uint32_t waiting; /* bit k: FU k waits in a nop N (model_fu.wait) */
  uint32_t *due; /* [t & model.due_mask]: bit k, FU k has a result due at
                    the end of cycle t (results are due at most the largest
                    latency - 1 cycles after their issue) */
  /* the operand file: what a source operand reads in this cycle, at
   * model_opnd_* places: rd registers, fd heads, FIFO heads (0 when
   * empty), a zero, the immediate of each FU's instruction at each pc
   * (written with its program); rd points into it, the heads follow
   * every pop, push and fd write */
  uint32_t *opnd;
  uint32_t *rd, *od;
  model_fd *fd;
  model_fifo *fifo;
  uint16_t *sink; /* per sink: 0 unconnected, else 1 + source */
  uint16_t *fan_at, *fan; /* the sinks of source s: fan[fan_at[s] ..
                             fan_at[s + 1]) */
  model_tok *src_tok[2]; /* tokens on the sources, [cycle & 1][source]:
                            od k, then wrapper inputs od + side * P + port */
  uint16_t *src_put[2];  /* [cycle & 1]: the sources with a token, each once */
  int nsrc_put[2];
  model_tok *arrive[2]; /* tokens reaching the border banks, [cycle & 1] */
  uint32_t **bank;  /* [side * banks + b]; NULL: all zero (lazily made) */
  model_ag *ag;     /* [side * banks + b] */
  uint64_t term_mask; /* the started GC's terms whose PE range holds p
                         (MODEL_TERMS_MASKED terms at most) */
  uint32_t sig;       /* signal vector seen in the current cycle */
  uint32_t sig_cache; /* vector of step sig_step */
  int64_t sig_step;   /* step whose vector sig_cache is, -1 none */
  /* the PE's clock (model_pe_clock): in cycle clk_t >= delay, the step
     (t - delay) / ii and the cycle within it, (t - delay) % ii;
     MODEL_CLK_NONE before the PE's start */
  uint64_t clk_t;
  int64_t clk_step;
  int32_t clk_phase;
  int narrive[2]; /* tokens put into each arrive buffer for its cycle (0:
                     none, the scan of the buffer is skipped) */
  model_ag_live *ag_live; /* the AGs that run, in [side * banks + b] order */
  int nag_live;
  /* the registers written at the end of cycle wrote_at - 1 (state
     events: model_state_end) */
  uint64_t wrote_at;
  uint64_t wrote;     /* bit k: rd k; bit MODEL_WROTE_FD + k: fd k */
  uint32_t wrote_od;  /* bit k: od k */
  /* state events (model_state.c): the values last traced */
  uint8_t *insn_seen;            /* [k * imem + pc]: an issue of FU k at pc
                                    was traced by `insn` */
  uint32_t step_seen, flag_seen; /* step counter; flags, bit k = FU k */
  uint32_t fifo_touched;         /* bit k: FIFO k pushed or popped in the cycle */
  int ag_state_all;              /* every AG's counter was traced once: from
                                    then on only those that run can change */
  int *fifo_seen;                /* [id]: occupancy */
  uint32_t *ag_seen;             /* [side * banks + b]: address counter */
  int64_t *ag_step;              /* [side * banks + b]: its step, -1 none */
  uint8_t **bank_wr;             /* [side * banks + b]: words written */
} model_pe;

/* A region (docs/timing.md section 11): the PEs one GC drives since its
 * latest START, with the caches of that GC's steps. Slot g of model.rg is
 * GC g's: a GC drives one region at a time. */
typedef struct model_region {
  int gc;        /* its GC, the slot */
  int stream;    /* the stream that started it; -1: none yet */
  stream_rect rect; /* the START rectangle */
  uint64_t t0;   /* its start cycle t_k */
  int32_t ii;    /* its GC's ii */
  int done;      /* its done cycle has passed */
  int64_t last_event; /* its last AG event cycle, -1 none */
  int64_t iter_step[MODEL_ITER_CACHE]; /* steps whose iteration vectors iter holds, -1 none */
  int32_t iter[MODEL_ITER_CACHE][MODEL_MAX_DIMS]; /* of its GC, by step mod the size */
  uint64_t held[MODEL_ITER_CACHE]; /* the terms of its GC that hold there */
  uint8_t held_valid[MODEL_ITER_CACHE]; /* held[h] is of step iter_step[h] */
  uint32_t (*term_sig)[256]; /* [g][b]: the signals of the terms 8g + i of
                                the bits i of b (at most MODEL_TERMS_MASKED
                                terms; NULL: more) */
  const model_ag *guard[MODEL_GUARDS]; /* an AG of each distinct enable */
  int nguards;
  uint64_t ag_held[MODEL_ITER_CACHE]; /* the enables (guard) that hold there */
  uint8_t ag_held_valid[MODEL_ITER_CACHE]; /* ag_held[h] is of step iter_step[h] */
} model_region;

/* One stream of a run (model_new_multi) and what became of its region. */
typedef struct {
  uint8_t *bytes; /* a copy (streams after the first: loaded mid-run) */
  size_t len;
  uint64_t t0;    /* its start cycle t_k */
  uint64_t first; /* c_k = t_k - W_k: the cycle its first word is taken */
  int gc;         /* its START's GC; -1 before it started */
  stream_rect rect;
  int started, done;
  uint64_t cycles; /* its region's own cycles, when done */
} model_stream;

struct model {
  arch_config cfg;
  uint64_t fp;
  int nfu, nsinks, nsources;
  model_uop **progs; /* the decoded programs, each shared by the PEs of its packet */
  int nprogs, progcap;
  uint32_t odmask; /* the od registers that exist: bits 0..od-1 */
  model_pe *pe; /* rows * cols, row-major */
  void *arena;  /* the PEs' arrays, one block (model_load.c) */
  uint32_t due_mask; /* model_pe.due slots - 1: a power of two >= the largest latency */
  model_gc gc[STREAM_GCS];
  int start_gc;          /* stream 0's START: its GC and rectangle */
  stream_rect start_rect;
  model_region rg[STREAM_GCS];
  model_stream *streams; /* the run's streams (model_new_multi) */
  int nstreams;
  int next_stream;       /* the first stream not yet started */
  int failed;            /* a stream was refused mid-run (model_failed) */
  model_error fail;
  uint64_t t;   /* the next cycle to run */
  int done;
  uint64_t faults[TRACE_FAULT_COUNT];
  uint64_t nfaults;
  model_trace_fn fn;
  void *ctx;
  model_batch_fn batch; /* model_set_trace_batch */
  void *batch_ctx;
  FILE *file;
  int listen;   /* a sink or a file takes the events (fn || file || batch) */
  int any_order; /* model_set_trace_any_order: the sink takes them unsorted */
  trace_event *ev; /* this cycle's events */
  trace_event *ev_tmp; /* evcap events: the sort's second buffer (model_ev_sort) */
  size_t nev, evcap;
  int ev_oom;     /* an event could not be stored */
};

#define MODEL_WROTE_FD 32 /* model_pe.wrote: the first fd bit (pe.rd <= 32) */

/* Returns the operand-file places (model_pe.opnd) of fd k, FIFO k, the
 * zero and the immediate of FU k's instruction at pc; model_opnd_size:
 * how many there are. */
static inline int model_opnd_fd(const arch_config *c, int k) { return c->rd + k; }
static inline int model_opnd_id(const arch_config *c, int k) { return c->rd + c->fd + k; }
static inline int model_opnd_zero(const arch_config *c) { return c->rd + c->fd + c->id; }
static inline int model_opnd_imm(const arch_config *c, int k, int pc) { return model_opnd_zero(c) + 1 + k * c->imem + pc; }
static inline int model_opnd_size(const arch_config *c, int nfu) { return model_opnd_imm(c, nfu, 0); }

/* Returns the PE at (row, col). */
static inline model_pe *model_pe_at(model *m, int row, int col) {
  return &m->pe[(size_t)row * (size_t)m->cfg.cols + (size_t)col];
}

/* Returns 0 after configuring m (allocated, cfg set, zeroed) from the
 * first stream of m->streams and checking every other one with the stream
 * reader; else a stream_error code with the reason in err. */
int model_load(model *m, model_error *err);

/* Returns 0 after the loader's checks of stream k at the start of its
 * first cycle c_k (docs/timing.md 11: BUSY); else the error code, the
 * reason in err. */
int model_stream_check(model *m, int k, model_error *err);

/* Applies stream k at the start of its cycle t_k: its packets, then its
 * START (the region's PEs restarted); returns 0, or an error code with
 * the reason in err. */
int model_stream_apply(model *m, int k, model_error *err);

/* Returns 1 when rectangles a and b share a PE. */
static inline int model_rect_overlap(const stream_rect *a, const stream_rect *b) {
  return a->row0 < b->row0 + b->rows && b->row0 < a->row0 + a->rows && a->col0 < b->col0 + b->cols &&
         b->col0 < a->col0 + a->cols;
}

/* Returns the step count S of a GC, saturated at a large bound. */
int64_t model_gc_steps(const model_gc *g);

/* Fills J[0..MODEL_MAX_DIMS) with the iteration vector of step s
 * (timing.md 2), zero beyond the GC's dimensions. */
void model_gc_iter(const model_gc *g, int64_t s, int32_t *J);

/* model_pe.clk_t of a PE not started: no cycle t has t or t - 1 there. */
#define MODEL_CLK_NONE (UINT64_MAX - 1)

/* Cycles beyond this are "never" (saturated step and cycle arithmetic). */
#define MODEL_CYCLE_MAX (INT64_MAX / 4)

/* Returns the cycle d + s*ii + phase of an AG event, saturated. */
int64_t model_event_cycle(int64_t delay, int64_t s, int32_t ii, int32_t phase);

/* Returns a zeroed event of kind k at PE p (NULL: the machine) in the
 * current cycle's buffer; NULL when nobody listens (model.c). */
trace_event *model_ev_new(model *m, trace_kind k, const model_pe *p);

/* Returns the signal vector of step s of GC g (model.c). */
uint32_t model_gc_signals(const model_gc *g, int64_t s);
uint32_t model_gc_signals_at(const model_gc *g, int64_t s, int drow, int dcol);

/* The state events of docs/trace.md (model_state.c). */
/* Returns 0 after allocating p's state-event bookkeeping; -1 out of memory. */
int model_state_alloc(model *m, model_pe *p);
/* Frees it. */
void model_state_free(const model *m, model_pe *p);
/* Returns 0 after marking word addr of bank (side, b) of p written; -1
 * out of memory. */
int model_state_written(model *m, model_pe *p, int side, int b, uint32_t addr);
/* Emits gc for the state at the start of the cycle. */
void model_state_begin(model *m);
/* Emits step, flag and ag of p for the state at the start of the cycle
 * (after p's signals of the cycle, before its issue). */
void model_state_begin_pe(model *m, model_pe *p);
/* Emits `insn` for the issue of FU k of p at a pc not issued before. */
void model_state_insn(model *m, model_pe *p, int k);
/* Emits rf and fifo of p for the state after the cycle. */
void model_state_end(model *m, model_pe *p);
/* Emits `mem` for every bank word written since reset (the done cycle). */
void model_state_mem(model *m);

/* Returns 1 when every constraint of cons[0..n) holds at J (32-bit). */
static inline int model_cons_hold(const model_cons *cons, int n, const int32_t *J) {
  for (int k = 0; k < n; k++) {
    uint32_t v = (uint32_t)cons[k].konst;
    for (int d = 0; d < cons[k].nd; d++) v += (uint32_t)cons[k].coef[d] * (uint32_t)J[d];
    int32_t x = (int32_t)v;
    if (cons[k].kind == STREAM_CONS_EQ ? x != 0 : x < 0) return 0;
  }
  return 1;
}

/* Returns the iteration vector of step s of region r's GC (as
 * model_gc_iter), from a small cache of the steps seen last: in a cycle
 * the PEs and AGs are at steps within its span (model.c). */
const int32_t *model_iter(model *m, model_region *r, int64_t s);

/* Returns floor((t - delay - phase) / ii) for the current cycle t of a unit
 * of PE p started with the PE (delay, its start delay) and the phase
 * phase = phase_q * ii + phase_r (0 <= phase_r < ii) of its region's GC,
 * and its remainder in *rem; -1 while t - delay - phase < 0. From the PE's
 * clock when it is of cycle t, without a division. */
static inline int64_t model_pe_steps(const model *m, const model_pe *p, int32_t phase, int64_t phase_q,
                                     int32_t phase_r, int32_t *rem) {
  const model_gc *g = &m->gc[p->rg->gc];
  int64_t u = (int64_t)m->t - p->delay - phase;
  if (u < 0) return -1;
  if (p->clk_t != m->t) { /* the clock runs from the PE's start on */
    *rem = (int32_t)(u % g->ii);
    return u / g->ii;
  }
  int64_t s = p->clk_step - phase_q;
  int32_t r = p->clk_phase - phase_r;
  if (r < 0) r += g->ii, s--;
  *rem = r;
  return s;
}

#endif
