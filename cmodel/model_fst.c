/*
 * model_fst.c: the C model's FST waveform (model_fst.h).
 *
 * The hierarchy is the RTL's as Verilator names it (rtl/tcpa_top.sv and
 * its generate blocks), every scope a `module` as in the Verilated FST:
 *
 *   TOP, TOP.tcpa_top            clk_i rst_ni run_o done_o
 *   TOP.tcpa_top.g_row[R].g_col[C].u_pe
 *                                started sig dbg_start_o dbg_sig_o
 *                                dbg_issue_o dbg_pc_o dbg_halt_o dbg_wr_o
 *                                dbg_wr_dst_o dbg_wr_odmask_o dbg_wr_val_o
 *                                dbg_idrd_o dbg_push_o dbg_push_val_o
 *                                dbg_fdrd_o dbg_fdval_o dbg_hop_o
 *                                dbg_hop_val_o dbg_word_o, od_q[K] (odK)
 *     .u_regfile                 rd_q[K] (rdK)
 *     .g_fu[F].u_fu              pc_q halted_q flag_q wait_q word val
 *     .g_fifo[K].u_fifo          cnt_q head_o
 *     .g_fd[K].u_fd              head_o depth_q
 *     (u_pe, the state events)   dbg_step_o dbg_flag_o dbg_fifocnt_o
 *                                dbg_rfwe_o dbg_rfwd_o dbg_fdwe_o dbg_fdwd_o
 *                                dbg_odwe_o dbg_odwd_o
 *   TOP.tcpa_top.g_row[R].g_col[C].g_side[S].g_bank[B].g_ag.u_ag (border)
 *                                acc_o acc_wr_o acc_addr_o acc_val_o
 *                                bank_we_o bank_wa_o bank_wd_o
 *   TOP.tcpa_top                 dbg_gc_begin_o dbg_gc_step_o dbg_gc_sig_o
 *   TOP.tcpa_top.g_gc[G].u_gc    dbg_begin_o dbg_step_o dbg_sig_o
 *
 * with the RTL's widths and packings (field k of a packed port at bits
 * k*W..k*W+W-1; dbg_wr_dst_o is class << 5 | index, class 1 rd, 2 fd).
 * Multi-bit names carry Verilator's range suffix (`dbg_pc_o [23:0]`); the
 * RTL's unpacked arrays (one element per register) are named as Verilator
 * names their elements (`rd_q[1] [31:0]`), so every register has its own
 * signal in both FSTs under the same name (docs/rtl.md "Signal names").
 *
 * Each signal keeps its last emitted value; a value is emitted only when
 * it changes (all of them at the first dump). The event ports of a cycle
 * are built from its trace events (model_fst_event) and cleared after the
 * rising-edge dump (the "pulse" variables); registers are read with
 * model_pe_state after the cycle. The state events' ports (docs/trace.md
 * "State events") come from those events too: a held value (the step
 * counter, a FIFO's count, an AG's address counter) keeps the value of
 * its last event, as the RTL's port keeps the state.
 *
 * Time is in cycles as in the RTL's FST (docs/trace.md "Time of a cycle in
 * the FST"): unit 1 ps, MODEL_FST_UNIT (1000, 1 ns) per cycle, cycle t
 * starting at t0 + t*1000. At that time (clock high, the rising edge that
 * starts the cycle) the registers after cycle t-1 and the event ports of
 * cycle t are dumped, at t0 + t*1000 + 500 the clock goes low; the state
 * after the last cycle is dumped at its end by model_fst_close.
 *
 * `word` (the instruction at the FU's pc, encoded as in the instruction
 * memory) and `val` (its operands a, b, c at bits 0, 32, 64: rd, the fd's
 * or FIFO's head, or the immediate, read before the cycle as the model
 * reads them; all 0 in a cycle in which the FU issues nothing) are the
 * RTL FU's signals of the same names; they come from
 * the model's decoded program (model_impl.h) and the state before the
 * cycle.
 */
#include "model_fst.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fstapi.h"
#include "model_impl.h"

/* Banks per side with an AG scope (the RTL's NBANK = min(iobuf.banks,
 * interconnect.ports), at most this many). */
#define MODEL_FST_BANKS 16
#define MODEL_FST_GCS 4 /* the RTL's NGC (docs/stream.md: one per corner) */

/* One variable: its handle, width and value words in the pools. */
typedef struct {
  fstHandle h;
  int width, nw;
  size_t off;   /* words of its value in cur[] and nxt[] */
} model_fst_var;

/* Variable ids of one PE. */
typedef struct {
  int started, sig, dbg_start, dbg_sig, dbg_issue, dbg_pc, dbg_halt, dbg_wr, dbg_wr_dst,
      dbg_wr_odmask, dbg_wr_val, dbg_idrd, dbg_push, dbg_push_val, dbg_fdrd, dbg_fdval, dbg_hop,
      dbg_hop_val, dbg_word;
  int rd[ISA_MAX_REGS], od[ISA_MAX_OD];
  int fu_pc[ISA_MAX_FUS], fu_halted[ISA_MAX_FUS], fu_flag[ISA_MAX_FUS], fu_wait[ISA_MAX_FUS];
  int fu_word[ISA_MAX_FUS], fu_val[ISA_MAX_FUS];
  int fifo_cnt[ISA_MAX_REGS], fifo_head[ISA_MAX_REGS], fd_val[ISA_MAX_REGS], fd_depth[ISA_MAX_REGS];
  /* the state events' ports (docs/trace.md "State events") */
  int dbg_step, dbg_flag, dbg_rfwe, dbg_rfwd, dbg_fdwe, dbg_fdwd, dbg_odwe, dbg_odwd, dbg_fifocnt;
  int ag_acc[4][MODEL_FST_BANKS], ag_wr[4][MODEL_FST_BANKS], ag_addr[4][MODEL_FST_BANKS],
      ag_val[4][MODEL_FST_BANKS], ag_we[4][MODEL_FST_BANKS], ag_wa[4][MODEL_FST_BANKS], ag_wd[4][MODEL_FST_BANKS];
} model_fst_pe;

struct model_fst {
  void *ctx;             /* the fstapi writer */
  char *path, *tmp;
  arch_config cfg;
  int nfu, fifo_w;
  uint64_t t0;
  model_fst_var *var;
  int nvar, capvar;
  uint32_t *cur, *nxt;   /* last emitted / next values, per variable */
  size_t nwords, capwords;
  int first;             /* nothing emitted yet */
  int clk, rst, run, done;
  int nbank, baddr_w;    /* the RTL's NBANK and BADDR_W */
  /* TOP.tcpa_top's state ports of the started GC */
  int dbg_gc_begin, dbg_gc_step, dbg_gc_sig;
  int start_gc; /* the GC of a run of one stream (its gc events' slot) */
  int gc_begin[MODEL_FST_GCS], gc_step[MODEL_FST_GCS], gc_sig[MODEL_FST_GCS]; /* g_gc[G].u_gc */
  int *pulse;            /* the variables that hold an event of one cycle: cleared after each edge */
  int npulse, cappulse;
  model_fst_pe *pe;      /* rows * cols */
  model_pe_view *before; /* rows * cols: the state before the next cycle */
  uint64_t next_t;       /* the cycle after the last one dumped */
  int dumped;            /* a cycle was dumped */
  char *bits;            /* scratch: one value as '0'/'1' text */
  int nbits;             /* its size */
  int oom;
};

/* Returns the id of a new variable `name` of `width` bits in the current
 * scope (-1 when out of memory, remembered in w->oom). */
static int model_fst_var_new(model_fst *w, const char *name, int width) {
  if (w->nvar == w->capvar) {
    int nc = w->capvar ? 2 * w->capvar : 256;
    model_fst_var *v = realloc(w->var, (size_t)nc * sizeof *v);
    if (!v) return w->oom = 1, -1;
    w->var = v, w->capvar = nc;
  }
  int nw = (width + 31) / 32;
  if (w->nwords + (size_t)nw > w->capwords) {
    size_t nc = w->capwords ? 2 * w->capwords : 4096;
    while (nc < w->nwords + (size_t)nw) nc *= 2;
    uint32_t *a = realloc(w->cur, nc * sizeof *a), *b = a ? realloc(w->nxt, nc * sizeof *b) : NULL;
    if (a) w->cur = a;
    if (!b) return w->oom = 1, -1;
    w->nxt = b, w->capwords = nc;
  }
  if (width + 1 > w->nbits) {
    char *b = realloc(w->bits, (size_t)width + 1);
    if (!b) return w->oom = 1, -1;
    w->bits = b, w->nbits = width + 1;
  }
  char full[160];
  if (width > 1) snprintf(full, sizeof full, "%s [%d:0]", name, width - 1);
  else snprintf(full, sizeof full, "%s", name);
  model_fst_var *v = &w->var[w->nvar];
  v->h = fstWriterCreateVar(w->ctx, FST_VT_SV_LOGIC, FST_VD_IMPLICIT, (uint32_t)width, full, 0);
  v->width = width, v->nw = nw, v->off = w->nwords;
  memset(w->cur + w->nwords, 0, (size_t)nw * sizeof *w->cur);
  memset(w->nxt + w->nwords, 0, (size_t)nw * sizeof *w->nxt);
  w->nwords += (size_t)nw;
  return w->nvar++;
}

/* Opens scope `name` (printf format with one int, or none). */
static void model_fst_scope(model_fst *w, const char *fmt, int i) {
  char name[64];
  snprintf(name, sizeof name, fmt, i);
  fstWriterSetScope(w->ctx, FST_ST_VCD_MODULE, name, NULL);
}

/* Sets bits lo..lo+width-1 of variable id's next value to v. */
static void model_fst_put(model_fst *w, int id, int lo, int width, uint32_t v) {
  if (id < 0) return;
  uint32_t *x = w->nxt + w->var[id].off;
  for (int b = 0; b < width; b++) {
    int bit = lo + b;
    if (bit >= w->var[id].width) break;
    uint32_t m = 1u << (bit % 32);
    if (v >> b & 1) x[bit / 32] |= m;
    else x[bit / 32] &= ~m;
  }
}

/* Emits variable id when its next value differs from the last emitted
 * one (always at the first dump). */
static void model_fst_emit(model_fst *w, int id) {
  if (id < 0) return;
  const model_fst_var *v = &w->var[id];
  uint32_t *c = w->cur + v->off, *n = w->nxt + v->off;
  if (!w->first && !memcmp(c, n, (size_t)v->nw * sizeof *c)) return;
  for (int b = 0; b < v->width; b++) w->bits[v->width - 1 - b] = (char)('0' + (n[b / 32] >> (b % 32) & 1));
  w->bits[v->width] = 0;
  fstWriterEmitValueChange(w->ctx, v->h, w->bits);
  memcpy(c, n, (size_t)v->nw * sizeof *c);
}

/* Returns id after noting variable id as a pulse (an event port, cleared
 * after each edge) when `pulse`. */
static int model_fst_pulse(model_fst *w, int id, int pulse) {
  if (!pulse || id < 0) return id;
  if (w->npulse == w->cappulse) {
    int nc = w->cappulse ? 2 * w->cappulse : 256;
    int *v = realloc(w->pulse, (size_t)nc * sizeof *v);
    if (!v) return w->oom = 1, id;
    w->pulse = v, w->cappulse = nc;
  }
  w->pulse[w->npulse++] = id;
  return id;
}

/* Declares the AG scopes of the border sides of PE (r, c) (the RTL's
 * g_side[S].g_bank[B].g_ag.u_ag beside u_pe: acc_o, acc_wr_o, acc_addr_o,
 * acc_val_o, bank_we_o, bank_wa_o, bank_wd_o); -1 ids elsewhere. */
static void model_fst_declare_ags(model_fst *w, model_fst_pe *p, int r, int c) {
  const arch_config *a = &w->cfg;
  for (int s = 0; s < 4; s++)
    for (int b = 0; b < MODEL_FST_BANKS; b++)
      p->ag_acc[s][b] = p->ag_wr[s][b] = p->ag_addr[s][b] = p->ag_val[s][b] = p->ag_we[s][b] = p->ag_wa[s][b] =
          p->ag_wd[s][b] = -1;
  for (int s = 0; s < 4; s++) {
    int border = (s == 0 && r == 0) || (s == 1 && c == a->cols - 1) || (s == 2 && r == a->rows - 1) ||
                 (s == 3 && c == 0);
    if (!border) continue;
    model_fst_scope(w, "g_side[%d]", s);
    for (int b = 0; b < w->nbank; b++) {
      model_fst_scope(w, "g_bank[%d]", b);
      model_fst_scope(w, "g_ag", 0);
      model_fst_scope(w, "u_ag", 0);
      p->ag_acc[s][b] = model_fst_pulse(w, model_fst_var_new(w, "acc_o", 1), 1);
      p->ag_wr[s][b] = model_fst_var_new(w, "acc_wr_o", 1);
      p->ag_addr[s][b] = model_fst_var_new(w, "acc_addr_o", 32);
      p->ag_val[s][b] = model_fst_var_new(w, "acc_val_o", 32);
      p->ag_we[s][b] = model_fst_pulse(w, model_fst_var_new(w, "bank_we_o", 1), 1);
      p->ag_wa[s][b] = model_fst_var_new(w, "bank_wa_o", w->baddr_w);
      p->ag_wd[s][b] = model_fst_var_new(w, "bank_wd_o", 32);
      for (int k = 0; k < 3; k++) fstWriterSetUpscope(w->ctx); /* u_ag g_ag g_bank */
    }
    fstWriterSetUpscope(w->ctx);
  }
}

/* Declares TOP.tcpa_top's ports of the GCs (the RTL's with
 * TCPA_DEBUG_PORTS: dbg_gc_begin_o, dbg_gc_step_o, dbg_gc_sig_o, one slot
 * per GC: bit G, bits 32G.., bits G*gc.signals..) in the current scope,
 * and each GC's scope g_gc[G].u_gc (dbg_begin_o, dbg_step_o, dbg_sig_o:
 * copied from its slot, model_fst_gc_copy). The
 * AGs' ports are in their own scopes (model_fst_declare_ags), not in the
 * top's packed ports: those grow with the array (a 32x32 array's
 * dbg_bank_addr_o has 2^19 bits, written whole at every change). */
static void model_fst_declare_top(model_fst *w) {
  const arch_config *a = &w->cfg;
  w->dbg_gc_begin = model_fst_pulse(w, model_fst_var_new(w, "dbg_gc_begin_o", MODEL_FST_GCS), 1);
  w->dbg_gc_step = model_fst_var_new(w, "dbg_gc_step_o", 32 * MODEL_FST_GCS);
  w->dbg_gc_sig = model_fst_var_new(w, "dbg_gc_sig_o", a->gc_signals * MODEL_FST_GCS);
  for (int g = 0; g < MODEL_FST_GCS; g++) {
    model_fst_scope(w, "g_gc[%d]", g);
    model_fst_scope(w, "u_gc", 0);
    w->gc_begin[g] = model_fst_pulse(w, model_fst_var_new(w, "dbg_begin_o", 1), 1);
    w->gc_step[g] = model_fst_var_new(w, "dbg_step_o", 32);
    w->gc_sig[g] = model_fst_var_new(w, "dbg_sig_o", a->gc_signals);
    fstWriterSetUpscope(w->ctx);
    fstWriterSetUpscope(w->ctx);
  }
}

/* Declares the variables of PE (r, c) into w->pe. */
static void model_fst_declare_pe(model_fst *w, int r, int c) {
  const arch_config *a = &w->cfg;
  model_fst_pe *p = &w->pe[r * a->cols + c];
  int nfu = w->nfu, nwp = 4 * a->ports;
  model_fst_scope(w, "g_row[%d]", r);
  model_fst_scope(w, "g_col[%d]", c);
  model_fst_scope(w, "u_pe", 0);
  p->started = model_fst_var_new(w, "started", 1);
  p->sig = model_fst_var_new(w, "sig", a->gc_signals);
  p->dbg_start = model_fst_var_new(w, "dbg_start_o", 1);
  p->dbg_sig = model_fst_var_new(w, "dbg_sig_o", a->gc_signals);
  p->dbg_issue = model_fst_var_new(w, "dbg_issue_o", nfu);
  p->dbg_pc = model_fst_var_new(w, "dbg_pc_o", nfu * ISA_PC_BITS);
  p->dbg_halt = model_fst_var_new(w, "dbg_halt_o", nfu);
  p->dbg_wr = model_fst_var_new(w, "dbg_wr_o", nfu);
  p->dbg_wr_dst = model_fst_var_new(w, "dbg_wr_dst_o", nfu * 8);
  p->dbg_wr_odmask = model_fst_var_new(w, "dbg_wr_odmask_o", nfu * 8);
  p->dbg_wr_val = model_fst_var_new(w, "dbg_wr_val_o", nfu * 32);
  p->dbg_idrd = model_fst_var_new(w, "dbg_idrd_o", a->id);
  p->dbg_push = model_fst_var_new(w, "dbg_push_o", a->id);
  p->dbg_push_val = model_fst_var_new(w, "dbg_push_val_o", a->id * 32);
  p->dbg_fdrd = model_fst_var_new(w, "dbg_fdrd_o", a->fd);
  p->dbg_fdval = model_fst_var_new(w, "dbg_fdval_o", a->fd * 32);
  p->dbg_hop = model_fst_var_new(w, "dbg_hop_o", nwp);
  p->dbg_hop_val = model_fst_var_new(w, "dbg_hop_val_o", nwp * 32);
  p->dbg_word = model_fst_var_new(w, "dbg_word_o", nfu * ISA_WORD_BITS);
  char name[32];
  for (int k = 0; k < a->od && k < ISA_MAX_OD; k++) {
    snprintf(name, sizeof name, "od_q[%d]", k);
    p->od[k] = model_fst_var_new(w, name, 32);
  }
  model_fst_scope(w, "u_regfile", 0);
  for (int k = 0; k < a->rd && k < ISA_MAX_REGS; k++) {
    snprintf(name, sizeof name, "rd_q[%d]", k);
    p->rd[k] = model_fst_var_new(w, name, 32);
  }
  fstWriterSetUpscope(w->ctx);
  for (int f = 0; f < nfu && f < ISA_MAX_FUS; f++) {
    model_fst_scope(w, "g_fu[%d]", f);
    model_fst_scope(w, "u_fu", 0);
    p->fu_pc[f] = model_fst_var_new(w, "pc_q", ISA_PC_BITS);
    p->fu_halted[f] = model_fst_var_new(w, "halted_q", 1);
    p->fu_flag[f] = model_fst_var_new(w, "flag_q", 1);
    p->fu_wait[f] = model_fst_var_new(w, "wait_q", 32);
    p->fu_word[f] = model_fst_var_new(w, "word", ISA_WORD_BITS);
    p->fu_val[f] = model_fst_var_new(w, "val", 96);
    fstWriterSetUpscope(w->ctx);
    fstWriterSetUpscope(w->ctx);
  }
  for (int k = 0; k < a->id && k < ISA_MAX_REGS; k++) {
    model_fst_scope(w, "g_fifo[%d]", k);
    model_fst_scope(w, "u_fifo", 0);
    p->fifo_cnt[k] = model_fst_var_new(w, "cnt_q", w->fifo_w);
    p->fifo_head[k] = model_fst_var_new(w, "head_o", 32);
    fstWriterSetUpscope(w->ctx);
    fstWriterSetUpscope(w->ctx);
  }
  for (int k = 0; k < a->fd && k < ISA_MAX_REGS; k++) {
    model_fst_scope(w, "g_fd[%d]", k);
    model_fst_scope(w, "u_fd", 0);
    p->fd_val[k] = model_fst_var_new(w, "head_o", 32);
    p->fd_depth[k] = model_fst_var_new(w, "depth_q", 32);
    fstWriterSetUpscope(w->ctx);
    fstWriterSetUpscope(w->ctx);
  }
  int s1 = a->rd > 0 ? a->rd : 1, f1 = a->fd > 0 ? a->fd : 1, o1 = a->od > 0 ? a->od : 1,
      i1 = a->id > 0 ? a->id : 1;
  p->dbg_step = model_fst_var_new(w, "dbg_step_o", 32);
  p->dbg_flag = model_fst_pulse(w, model_fst_var_new(w, "dbg_flag_o", nfu), 0);
  p->dbg_rfwe = model_fst_pulse(w, model_fst_var_new(w, "dbg_rfwe_o", s1), 1);
  p->dbg_rfwd = model_fst_var_new(w, "dbg_rfwd_o", s1 * 32);
  p->dbg_fdwe = model_fst_pulse(w, model_fst_var_new(w, "dbg_fdwe_o", f1), 1);
  p->dbg_fdwd = model_fst_var_new(w, "dbg_fdwd_o", f1 * 32);
  p->dbg_odwe = model_fst_pulse(w, model_fst_var_new(w, "dbg_odwe_o", o1), 1);
  p->dbg_odwd = model_fst_var_new(w, "dbg_odwd_o", o1 * 32);
  p->dbg_fifocnt = model_fst_var_new(w, "dbg_fifocnt_o", i1 * 16);
  fstWriterSetUpscope(w->ctx); /* u_pe */
  model_fst_declare_ags(w, p, r, c);
  fstWriterSetUpscope(w->ctx); /* g_col */
  fstWriterSetUpscope(w->ctx); /* g_row */
}

/* Returns the number of bits of a count 0..n ($clog2(n + 1)). */
static int model_fst_clog2p1(int n) {
  int b = 0;
  while ((1ll << b) < (long long)n + 1) b++;
  return b ? b : 1;
}

model_fst *model_fst_open(const char *path, const arch_config *cfg, uint64_t t0, char *msg,
                          size_t msgsz) {
  model_fst *w = calloc(1, sizeof *w);
  size_t n = strlen(path) + 32;
  if (!w || !(w->path = strdup(path)) || !(w->tmp = malloc(n)) ||
      !(w->pe = calloc((size_t)cfg->rows * (size_t)cfg->cols, sizeof *w->pe)) ||
      !(w->before = calloc((size_t)cfg->rows * (size_t)cfg->cols, sizeof *w->before))) {
    snprintf(msg, msgsz, "out of memory");
    model_fst_abort(w);
    return NULL;
  }
  snprintf(w->tmp, n, "%s.tmp%ld", path, (long)getpid());
  w->cfg = *cfg;
  w->nfu = cfg->alu + cfg->mul + cfg->div;
  w->fifo_w = model_fst_clog2p1(cfg->fifo_depth);
  w->nbank = cfg->banks < cfg->ports ? cfg->banks : cfg->ports;
  if (w->nbank > MODEL_FST_BANKS) w->nbank = MODEL_FST_BANKS;
  w->baddr_w = cfg->bank_depth > 1 ? model_fst_clog2p1(cfg->bank_depth - 1) : 1;
  w->t0 = t0;
  w->first = 1;
  if (!(w->ctx = fstWriterCreate(w->tmp, 1))) {
    snprintf(msg, msgsz, "%s: cannot write the waveform: %s", path, strerror(errno));
    model_fst_abort(w);
    return NULL;
  }
  fstWriterSetTimescale(w->ctx, -12); /* 1 ps, as the Verilated FST */
  fstWriterSetVersion(w->ctx, "tcpa C model (cmodel/model_fst.c)");
  model_fst_scope(w, "TOP", 0);
  w->clk = model_fst_var_new(w, "clk_i", 1);
  w->rst = model_fst_var_new(w, "rst_ni", 1);
  w->run = model_fst_var_new(w, "run_o", 1);
  w->done = model_fst_var_new(w, "done_o", 1);
  model_fst_scope(w, "tcpa_top", 0); /* the same four, as the Verilated top's ports */
  static const char *const ports[] = {"clk_i", "rst_ni", "run_o", "done_o"};
  for (int i = 0; i < 4 && !w->oom; i++)
    fstWriterCreateVar(w->ctx, FST_VT_SV_LOGIC, FST_VD_IMPLICIT, 1, ports[i], w->var[w->clk + i].h);
  model_fst_declare_top(w);
  for (int r = 0; r < cfg->rows; r++)
    for (int c = 0; c < cfg->cols; c++) model_fst_declare_pe(w, r, c);
  fstWriterSetUpscope(w->ctx);
  fstWriterSetUpscope(w->ctx);
  if (w->oom) {
    snprintf(msg, msgsz, "out of memory");
    model_fst_abort(w);
    return NULL;
  }
  return w;
}

/* Returns the PE variables of event e, or NULL for the machine. */
static model_fst_pe *model_fst_pe_of(model_fst *w, const trace_event *e) {
  if (e->row < 0 || e->row >= w->cfg.rows || e->col < 0 || e->col >= w->cfg.cols) return NULL;
  return &w->pe[e->row * w->cfg.cols + e->col];
}

/* Sets the ports of a state event e of PE p (docs/trace.md "State
 * events"; gc: the machine's, p NULL). */
static void model_fst_state_event(model_fst *w, model_fst_pe *p, const trace_event *e) {
  int s = e->side & 3, b = e->port, ag = p && b >= 0 && b < w->nbank;
  switch (e->kind) {
  case TRACE_GC: { /* the GC's slot: its number (runs of several streams), else the started GC's */
    int g = e->row == TRACE_PLACE_GC ? e->col : w->start_gc;
    if (g < 0 || g >= MODEL_FST_GCS) break;
    model_fst_put(w, w->dbg_gc_begin, g, 1, 1);
    model_fst_put(w, w->dbg_gc_step, 32 * g, 32, e->num);
    model_fst_put(w, w->dbg_gc_sig, g * w->cfg.gc_signals, w->cfg.gc_signals, e->value);
    break;
  }
  case TRACE_STEP: model_fst_put(w, p->dbg_step, 0, 32, e->num); break;
  case TRACE_FLAG: model_fst_put(w, p->dbg_flag, e->fu, 1, e->value); break;
  case TRACE_FIFO: model_fst_put(w, p->dbg_fifocnt, e->reg_idx * 16, 16, e->num); break;
  case TRACE_RF: {
    int we = e->reg_cls == ISA_CLS_RD ? p->dbg_rfwe : e->reg_cls == ISA_CLS_FD ? p->dbg_fdwe : p->dbg_odwe;
    int wd = e->reg_cls == ISA_CLS_RD ? p->dbg_rfwd : e->reg_cls == ISA_CLS_FD ? p->dbg_fdwd : p->dbg_odwd;
    model_fst_put(w, we, e->reg_idx, 1, 1);
    model_fst_put(w, wd, e->reg_idx * 32, 32, e->value);
    break;
  }
  case TRACE_BANK:
    if (!ag) break;
    model_fst_put(w, p->ag_acc[s][b], 0, 1, 1);
    model_fst_put(w, p->ag_val[s][b], 0, 32, e->value);
    break;
  case TRACE_BANKWR:
    if (!ag) break;
    model_fst_put(w, p->ag_we[s][b], 0, 1, 1);
    model_fst_put(w, p->ag_wa[s][b], 0, w->baddr_w, e->addr);
    model_fst_put(w, p->ag_wd[s][b], 0, 32, e->value);
    break;
  case TRACE_AG:
    if (!ag) break;
    model_fst_put(w, p->ag_addr[s][b], 0, 32, e->addr);
    break;
  default: break;
  }
}

void model_fst_event(model_fst *w, const trace_event *e) {
  model_fst_pe *p = model_fst_pe_of(w, e);
  if (e->kind == TRACE_DONE) model_fst_put(w, w->done, 0, 1, 1);
  if (e->kind == TRACE_GC) model_fst_state_event(w, NULL, e);
  if (!p) return;
  switch (e->kind) {
  case TRACE_STEP:
  case TRACE_FLAG:
  case TRACE_FIFO:
  case TRACE_RF:
  case TRACE_BANK:
  case TRACE_BANKWR:
  case TRACE_AG: model_fst_state_event(w, p, e); break;
  case TRACE_START: model_fst_put(w, p->dbg_start, 0, 1, 1); break;
  case TRACE_SIG: model_fst_put(w, p->dbg_sig, 0, w->cfg.gc_signals, e->value); break;
  case TRACE_ISSUE:
    model_fst_put(w, p->dbg_issue, e->fu, 1, 1);
    model_fst_put(w, p->dbg_pc, e->fu * ISA_PC_BITS, ISA_PC_BITS, (uint32_t)e->pc);
    break;
  case TRACE_HALT: model_fst_put(w, p->dbg_halt, e->fu, 1, 1); break;
  case TRACE_WR:
    model_fst_put(w, p->dbg_wr, e->fu, 1, 1);
    model_fst_put(w, p->dbg_wr_val, e->fu * 32, 32, e->value);
    if (e->reg_cls == ISA_CLS_OD) model_fst_put(w, p->dbg_wr_odmask, e->fu * 8 + e->reg_idx, 1, 1);
    else model_fst_put(w, p->dbg_wr_dst, e->fu * 8, 8, (uint32_t)(e->reg_cls << 5 | e->reg_idx));
    break;
  case TRACE_POP: model_fst_put(w, p->dbg_idrd, e->reg_idx, 1, 1); break;
  case TRACE_PUSH:
    model_fst_put(w, p->dbg_push, e->reg_idx, 1, 1);
    model_fst_put(w, p->dbg_push_val, e->reg_idx * 32, 32, e->value);
    break;
  case TRACE_FDRD:
    model_fst_put(w, p->dbg_fdrd, e->reg_idx, 1, 1);
    model_fst_put(w, p->dbg_fdval, e->reg_idx * 32, 32, e->value);
    break;
  case TRACE_HOP: {
    int k = e->side * w->cfg.ports + e->port;
    model_fst_put(w, p->dbg_hop, k, 1, 1);
    model_fst_put(w, p->dbg_hop_val, k * 32, 32, e->value);
    break;
  }
  default: break;
  }
}

void model_fst_sink(const trace_event *e, void *ctx) { model_fst_event(ctx, e); }

int model_fst_run(model *m, model_fst *w, uint64_t max_cycles) {
  if (model_cycles(m) == 0) model_fst_begin(w, m);
  while (!model_done(m) && model_cycles(m) < max_cycles) {
    uint64_t t = model_cycles(m);
    model_step(m);
    model_fst_cycle(w, m, t);
  }
  return model_run(m, max_cycles); /* nothing left to run: done, or the timeout fault */
}

/* Sets the register variables of PE p from the model's state v. */
static void model_fst_state(model_fst *w, model_fst_pe *p, const model_pe_view *v) {
  const arch_config *a = &w->cfg;
  model_fst_put(w, p->started, 0, 1, (uint32_t)v->started);
  model_fst_put(w, p->sig, 0, a->gc_signals, v->sig);
  for (int k = 0; k < a->rd && k < ISA_MAX_REGS; k++) model_fst_put(w, p->rd[k], 0, 32, v->rd[k]);
  for (int k = 0; k < a->od && k < ISA_MAX_OD; k++) model_fst_put(w, p->od[k], 0, 32, v->od[k]);
  for (int f = 0; f < w->nfu && f < ISA_MAX_FUS; f++) {
    model_fst_put(w, p->fu_pc[f], 0, ISA_PC_BITS, (uint32_t)v->pc[f]);
    model_fst_put(w, p->fu_halted[f], 0, 1, (uint32_t)v->halted[f]);
    model_fst_put(w, p->fu_flag[f], 0, 1, (uint32_t)v->flag[f]);
    model_fst_put(w, p->fu_wait[f], 0, 32, v->wait[f]);
  }
  for (int k = 0; k < a->id && k < ISA_MAX_REGS; k++) {
    model_fst_put(w, p->fifo_cnt[k], 0, w->fifo_w, (uint32_t)v->fifo_count[k]);
    model_fst_put(w, p->fifo_head[k], 0, 32, v->fifo_head[k]);
  }
  for (int k = 0; k < a->fd && k < ISA_MAX_REGS; k++) {
    model_fst_put(w, p->fd_val[k], 0, 32, v->fd_head[k]);
    model_fst_put(w, p->fd_depth[k], 0, 32, (uint32_t)v->fd_depth[k]);
  }
}


/* Returns the value of source operand o of an instruction read in the
 * state v before the cycle (as model.c's operand file holds it). */
static uint32_t model_fst_src(const model_pe_view *v, isa_opnd o, int32_t imm) {
  switch (o.cls) {
  case ISA_CLS_RD: return v->rd[o.idx];
  case ISA_CLS_FD: return v->fd_head[o.idx];
  case ISA_CLS_ID: return v->fifo_head[o.idx];
  case ISA_CLS_IMM: return (uint32_t)imm;
  default: return 0;
  }
}

/* Sets `word` and `val` of every FU of PE i: the instruction at its pc in
 * the state before the cycle (w->before) and its operands. */
static void model_fst_fetch(model_fst *w, const model *m, int i) {
  const model_pe *mp = &m->pe[i];
  const model_pe_view *v = &w->before[i];
  model_fst_pe *p = &w->pe[i];
  for (int f = 0; f < w->nfu && f < ISA_MAX_FUS; f++) {
    isa_word word;
    memset(&word, 0, sizeof word);
    uint32_t a[3] = {0, 0, 0};
    const model_fu *fu = &mp->fu[f];
    if (fu->imem && v->pc[f] >= 0 && v->pc[f] < m->cfg.imem) {
      const isa_insn *in = &fu->imem[v->pc[f]].in;
      isa_encode(in, &word);
      const isa_op_info *op = isa_op_get(in->op);
      /* operands only in a cycle in which the FU issues (its bit of
       * dbg_issue_o, set by this cycle's events); else 0, as the RTL's */
      const uint32_t *iss = w->nxt + w->var[p->dbg_issue].off;
      int issued = (int)(iss[f / 32] >> (f % 32) & 1);
      for (int k = 0; issued && op && k < op->nsrc && k < 3; k++) a[k] = model_fst_src(v, in->src[k], in->imm);
    }
    for (int k = 0; k < ISA_WORDS; k++) {
      model_fst_put(w, p->fu_word[f], 32 * k, 32, word.w[k]);
      model_fst_put(w, p->dbg_word, f * ISA_WORD_BITS + 32 * k, 32, word.w[k]);
    }
    for (int k = 0; k < 3; k++) model_fst_put(w, p->fu_val[f], 32 * k, 32, a[k]);
  }
}

/* Reads the state of every PE of m into w->before and the register
 * variables (emitted at the next rising edge). */
static void model_fst_read_state(model_fst *w, const model *m) {
  int npe = w->cfg.rows * w->cfg.cols;
  for (int i = 0; i < npe; i++) {
    model_pe_view *v = &w->before[i];
    memset(v, 0, sizeof *v);
    if (model_pe_state(m, i / w->cfg.cols, i % w->cfg.cols, v) == 0) model_fst_state(w, &w->pe[i], v);
  }
}

/* Sets acc_wr_o of every AG of m: its mode is write (the RTL's port
 * shows the mode in every cycle). */
static void model_fst_ag_modes(model_fst *w, const model *m) {
  for (int r = 0; r < w->cfg.rows; r++)
    for (int c = 0; c < w->cfg.cols; c++)
      for (int s = 0; s < 4; s++)
        for (int b = 0; b < w->nbank; b++) {
          model_ag_view v;
          model_fst_pe *p = &w->pe[r * w->cfg.cols + c];
          if (p->ag_wr[s][b] >= 0 && !model_ag_view_get(m, r, c, s, b, 0, &v))
            model_fst_put(w, p->ag_wr[s][b], 0, 1, v.mode == STREAM_AG_WRITE);
        }
}

void model_fst_begin(model_fst *w, const model *m) {
  w->start_gc = m->start_gc;
  model_fst_read_state(w, m);
  model_fst_ag_modes(w, m);
}

/* Returns bits lo..lo+width-1 (width <= 32) of variable id's next value. */
static uint32_t model_fst_bits(const model_fst *w, int id, int lo, int width) {
  const uint32_t *x = w->nxt + w->var[id].off;
  uint32_t v = 0;
  for (int b = 0; b < width; b++) v |= (x[(lo + b) / 32] >> ((lo + b) % 32) & 1u) << b;
  return v;
}

/* Copies each GC's slot of the GC ports of TOP.tcpa_top to its scope. */
static void model_fst_gc_copy(model_fst *w, const model *m) {
  (void)m;
  int ns = w->cfg.gc_signals;
  for (int g = 0; g < MODEL_FST_GCS; g++) {
    model_fst_put(w, w->gc_begin[g], 0, 1, model_fst_bits(w, w->dbg_gc_begin, g, 1));
    model_fst_put(w, w->gc_step[g], 0, 32, model_fst_bits(w, w->dbg_gc_step, 32 * g, 32));
    model_fst_put(w, w->gc_sig[g], 0, ns, model_fst_bits(w, w->dbg_gc_sig, g * ns, ns));
  }
}

/* Emits every variable whose value changed (all at the first dump) at
 * time `at` and then clears the event ports for the next cycle. */
static void model_fst_edge(model_fst *w, uint64_t at) {
  int npe = w->cfg.rows * w->cfg.cols;
  fstWriterEmitTimeChange(w->ctx, at);
  model_fst_put(w, w->clk, 0, 1, 1);
  model_fst_put(w, w->rst, 0, 1, 1);
  model_fst_put(w, w->run, 0, 1, 1);
  for (int id = 0; id < w->nvar; id++) model_fst_emit(w, id);
  for (int i = 0; i < npe; i++) {
    model_fst_pe *p = &w->pe[i];
    for (int id = p->dbg_start; id <= p->dbg_hop_val; id++)
      memset(w->nxt + w->var[id].off, 0, (size_t)w->var[id].nw * sizeof *w->nxt);
  }
  for (int k = 0; k < w->npulse; k++) {
    int id = w->pulse[k];
    memset(w->nxt + w->var[id].off, 0, (size_t)w->var[id].nw * sizeof *w->nxt);
  }
  w->first = 0; /* done_o stays 1 from the done cycle on, as the RTL's */
}

void model_fst_cycle(model_fst *w, const model *m, uint64_t t) {
  int npe = w->cfg.rows * w->cfg.cols;
  for (int i = 0; i < npe; i++) {
    model_fst_fetch(w, m, i);
    /* a FU that issues nothing shows its current pc on dbg_pc_o */
    model_fst_pe *p = &w->pe[i];
    for (int f = 0; f < w->nfu && f < ISA_MAX_FUS; f++) {
      uint32_t *x = w->nxt + w->var[p->dbg_issue].off;
      if (!(x[f / 32] >> (f % 32) & 1))
        model_fst_put(w, p->dbg_pc, f * ISA_PC_BITS, ISA_PC_BITS, (uint32_t)w->before[i].pc[f]);
    }
  }
  /* dbg_sig_o is the PE's vector in every cycle, as the RTL's port (the
   * trace's `sig` event is its change) */
  model_pe_view *now = calloc((size_t)npe, sizeof *now);
  for (int i = 0; now && i < npe; i++)
    if (model_pe_state(m, i / w->cfg.cols, i % w->cfg.cols, &now[i]) == 0)
      model_fst_put(w, w->pe[i].dbg_sig, 0, w->cfg.gc_signals, now[i].sig);
  if (!w->oom) model_fst_gc_copy(w, m);
  uint64_t at = w->t0 + t * MODEL_FST_UNIT;
  model_fst_edge(w, at); /* the registers after t-1, the ports of t */
  fstWriterEmitTimeChange(w->ctx, at + MODEL_FST_UNIT / 2);
  model_fst_put(w, w->clk, 0, 1, 0);
  model_fst_emit(w, w->clk);
  if (now) { /* the state after cycle t, emitted at the next edge */
    for (int i = 0; i < npe; i++) model_fst_state(w, &w->pe[i], &now[i]);
    memcpy(w->before, now, (size_t)npe * sizeof *now);
    free(now);
  } else {
    model_fst_read_state(w, m);
  }
  w->next_t = t + 1;
  w->dumped = 1;
}

void model_fst_abort(model_fst *w) {
  if (!w) return;
  if (w->ctx) fstWriterClose(w->ctx);
  if (w->tmp) remove(w->tmp);
  free(w->path);
  free(w->tmp);
  free(w->var);
  free(w->cur);
  free(w->nxt);
  free(w->pe);
  free(w->before);
  free(w->bits);
  free(w->pulse);
  free(w);
}

int model_fst_close(model_fst *w, char *msg, size_t msgsz) {
  if (!w) return 0;
  if (w->dumped) model_fst_edge(w, w->t0 + w->next_t * MODEL_FST_UNIT); /* the state after the last cycle */
  fstWriterClose(w->ctx);
  w->ctx = NULL;
  int rc = 0;
  if (rename(w->tmp, w->path) != 0) {
    snprintf(msg, msgsz, "%s: cannot write the waveform: %s", w->path, strerror(errno));
    rc = -1;
  }
  model_fst_abort(w); /* frees; the temporary file is gone or renamed */
  return rc;
}
