/*
 * gen_stream.c: the random valid configuration streams of gen_stream.h
 * (docs/fuzz.md "Random streams on both engines").
 *
 * One splitmix64 generator (common/rng.h) seeded with the seed draws, in a
 * fixed order: the region and its global controller, the programs of every
 * FU (opcodes from the ISA table for the FU's class, operands of every
 * class the PE has, every branch form), fd depths, wrappers (routes biased
 * so that tokens go somewhere: od to a side, a side to an id, one side
 * through to another), the GC (start delays, terms), AGs on border PEs
 * with their bank data, and START; now and then a second round of
 * programs (a later packet replaces an earlier one), the GC packet of a
 * controller that is not started, and the packets shuffled. Sizes are kept small (programs of at
 * most 16 words, at most 24 steps) so that a run ends in a few hundred
 * cycles; rare draws reach the edges (targets past the program, addresses
 * out of the bank, constraint constants, 32-bit immediates). One stream
 * in four is tame: no id sources, od destinations or AGs, each FU writes
 * only its own registers and branches only forward to a final halt, so
 * that its run raises no fault and reaches done. A second generator of the
 * seed draws, now and then, a long start delay (up to 2^31-1) and a
 * feeder that fills a late PE's FIFO (docs/fuzz.md "Long start delays").
 * A third (gen_edge) biases the draws to the edges of every field class
 * (docs/fuzz.md "Field coverage"): a plan word per program and a sweep
 * wrapper whose fields cycle through their classes with the seed, and
 * edge values now and then elsewhere (every dimension, term and
 * constraint, the largest delay, whole bank sides and banks, the first
 * and last register, signal, flag and pc, the extremes of a word).
 */
#include "gen_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "rng.h"
#include "valcov.h"

/* The generator state of one stream. */
typedef struct {
  rng_state r;
  rng_state rd;        /* the long start delays' own draws (gen_delay_long) */
  rng_state re;        /* the edge values' own draws (gen_edge) */
  const arch_config *c;
  gen_stream *s;
  stream_rect region;  /* the GC's rectangle */
  int gc, ndims, ii;   /* the GC's index, dimensions, interval */
  int tame;            /* no id, od, AG or bank data; each FU its own
                          registers: a run without faults */
  int dlong;           /* the kind of long start delay + 1 (gen_delay_long), or 0 */
  int64_t d0, dr, dc;  /* the GC's start delays */
  int oom;
} gen_ctx;

/* Returns a value uniform in 0..n-1 (0 when n <= 1). */
static int gen_below(gen_ctx *g, int n) {
  return n <= 1 ? 0 : (int)rng_state_range(&g->r, 0, n - 1);
}

/* Returns 1 with probability num/den. */
static int gen_chance(gen_ctx *g, int num, int den) { return gen_below(g, den) < num; }

/* Returns a value uniform in lo..hi. */
static int gen_range(gen_ctx *g, int lo, int hi) { return lo + gen_below(g, hi - lo + 1); }

/* The edge values (docs/fuzz.md "Field coverage"): drawn from the seed's
 * third generator g->re, so that a stream that draws no edge is the one
 * the seed gave without them. gen_edge returns 1 with probability
 * num/den; gen_edge_below a value uniform in 0..n-1. */
static int gen_edge_below(gen_ctx *g, int n) {
  return n <= 1 ? 0 : (int)rng_state_range(&g->re, 0, n - 1);
}
static int gen_edge(gen_ctx *g, int num, int den) { return gen_edge_below(g, den) < num; }

/* Returns a random 32-bit value biased to the edges of the data width. */
static int32_t gen_value(gen_ctx *g) {
  static const int32_t edge[] = {0, 1, -1, 2, 3, 7, 31, 32, 33, INT32_MIN, INT32_MAX, -2};
  int k = gen_below(g, 4);
  if (k == 0) return edge[gen_below(g, (int)(sizeof edge / sizeof edge[0]))];
  if (k == 1) return (int32_t)(uint32_t)rng_state_next(&g->r);
  return gen_range(g, -8, 40);
}

/* Returns 0 after appending a packet (payload copied) to the stream. */
static int gen_push(gen_ctx *g, stream_packet_type type, int index, int side, stream_rect rect,
                    const uint32_t *payload, uint32_t nwords) {
  gen_stream *s = g->s;
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 32;
    gen_packet *p = realloc(s->pkt, (size_t)cap * sizeof *p);
    if (!p) return g->oom = 1, -1;
    s->pkt = p, s->cap = cap;
  }
  gen_packet *p = &s->pkt[s->n];
  p->payload = malloc((nwords ? nwords : 1) * sizeof(uint32_t));
  if (!p->payload) return g->oom = 1, -1;
  if (nwords) memcpy(p->payload, payload, nwords * sizeof(uint32_t));
  p->type = type, p->index = index, p->side = side, p->rect = rect, p->nwords = nwords;
  s->n++;
  return 0;
}

/* Returns a random rectangle inside the rectangle `in`. */
static stream_rect gen_subrect(gen_ctx *g, stream_rect in) {
  stream_rect r;
  r.row0 = in.row0 + gen_below(g, in.rows);
  r.col0 = in.col0 + gen_below(g, in.cols);
  r.rows = 1 + gen_below(g, in.row0 + in.rows - r.row0);
  r.cols = 1 + gen_below(g, in.col0 + in.cols - r.col0);
  return r;
}

/* Returns the rectangle of a PE packet: the region, the whole array or a
 * part of it. */
static stream_rect gen_pe_rect(gen_ctx *g) {
  stream_rect all = {0, 0, g->c->rows, g->c->cols};
  int k = gen_below(g, 10);
  return k < 6 ? g->region : k < 8 ? all : gen_subrect(g, all);
}

/* Returns a random source operand among the classes the PE has. */
static isa_opnd gen_src(gen_ctx *g) {
  const arch_config *c = g->c;
  isa_opnd o = {ISA_CLS_IMM, 0};
  for (;;) {
    int k = gen_below(g, 4);
    if (k == 0 && c->rd) o = (isa_opnd){ISA_CLS_RD, (uint8_t)gen_below(g, c->rd)};
    else if (k == 1 && c->fd) o = (isa_opnd){ISA_CLS_FD, (uint8_t)gen_below(g, c->fd)};
    else if (k == 2 && c->id && !g->tame) o = (isa_opnd){ISA_CLS_ID, (uint8_t)gen_below(g, c->id)};
    else if (k != 3) continue;
    break;
  }
  int n = o.cls == ISA_CLS_RD ? c->rd : o.cls == ISA_CLS_FD ? c->fd : o.cls == ISA_CLS_ID ? c->id : 0;
  if (n && gen_edge(g, 1, 3)) o.idx = (uint8_t)(gen_edge(g, 1, 2) ? 0 : n - 1); /* the first or the last */
  return o;
}

/* Returns the number of the opcodes of FU class cls that read the most
 * sources of any of its opcodes, written to most[], and that number of
 * sources in *nsrc. */
static int gen_ops_reading_most(isa_fu_class cls, isa_op most[ISA_OP_COUNT], int *nsrc) {
  int nmost = 0;
  *nsrc = 0;
  for (int op = 0; op < ISA_OP_COUNT; op++) {
    const isa_op_info *info = isa_op_get((isa_op)op);
    if (info->fu == cls && info->nsrc > *nsrc) *nsrc = info->nsrc, nmost = 0;
    if (info->fu == cls && info->nsrc == *nsrc) most[nmost++] = (isa_op)op;
  }
  return nmost;
}

/* Returns a random opcode FU class `cls` executes (nop included). */
static isa_op gen_opcode(gen_ctx *g, isa_fu_class cls) {
  isa_op ops[ISA_OP_COUNT], most[ISA_OP_COUNT];
  int n = 0, nsrc, nmost = gen_ops_reading_most(cls, most, &nsrc);
  for (int op = 0; op < ISA_OP_COUNT; op++) {
    const isa_op_info *info = isa_op_get((isa_op)op);
    if (info->fu == cls || (info->fu == ISA_FU_ANY && gen_chance(g, 1, 2))) ops[n++] = (isa_op)op;
  }
  isa_op op = ops[gen_below(g, n)];
  int e = gen_edge_below(g, 12);
  if (e == 0) op = ISA_OP_NOP;                            /* a nop (now and then of N cycles) */
  if (e == 1 && nmost) op = most[gen_edge_below(g, nmost)]; /* one that reads every source */
  return op;
}

/* Returns a random branch target of the word at pc of a program of n
 * words (now and then past its end, where the memory holds `nop ; next`;
 * tame: forward, pc + 1..n - 1, so that the program ends). */
static uint16_t gen_target(gen_ctx *g, int pc, int n) {
  if (g->tame) return (uint16_t)(pc + 1 + gen_below(g, n - pc - 1));
  if (gen_edge(g, 1, 6)) return (uint16_t)(gen_edge(g, 1, 2) ? 0 : g->c->imem - 1); /* the first or last pc */
  return (uint16_t)(gen_chance(g, 1, 16) ? gen_below(g, g->c->imem) : gen_below(g, n));
}

/* Fills the branch part of *in: next, goto, br on 1..ISA_SEL_COUNT
 * conditions (signals or FU flags), or halt (likely on the last word). */
static void gen_branch(gen_ctx *g, isa_insn *in, int pc, int n) {
  const arch_config *c = g->c;
  int k = gen_below(g, 20);
  if (pc == n - 1 && (g->tame || gen_chance(g, 3, 4))) k = 19;
  if (k != 19 && gen_edge(g, 1, 6)) k = 12; /* a br */
  if (k < 9) return; /* next */
  if (k < 12) {
    in->br = ISA_BR_GOTO;
    in->target[0] = gen_target(g, pc, n);
    return;
  }
  if (k >= 16) {
    in->br = ISA_BR_HALT;
    return;
  }
  int maxsel = 0;
  while (maxsel < ISA_SEL_COUNT && (2 << maxsel) <= c->branch_targets) maxsel++;
  in->br = ISA_BR_COND;
  in->nsel = 1 + gen_below(g, maxsel);
  if (gen_edge(g, 1, 3)) in->nsel = maxsel;
  for (int i = 0; i < in->nsel; i++) {
    in->sel[i] = (uint8_t)(gen_chance(g, 1, 2) ? gen_below(g, c->gc_signals)
                                               : ISA_COND_FLAG + gen_below(g, isa_fu_count(c)));
    if (gen_edge(g, 1, 2)) { /* the first or the last signal or flag */
      int e = gen_edge_below(g, 4);
      in->sel[i] = (uint8_t)(e == 0 ? 0 : e == 1 ? c->gc_signals - 1 : e == 2 ? ISA_COND_FLAG
                                                                               : ISA_COND_FLAG + isa_fu_count(c) - 1);
    }
  }
  for (int i = 0; i < (1 << in->nsel); i++) in->target[i] = gen_target(g, pc, n);
}

/* Returns a random destination index of FU fu among n registers; tame:
 * only those of index fu modulo the FU count (no write conflicts), 0xff
 * when there is none. */
static int gen_reg(gen_ctx *g, int n, int fu) {
  if (!g->tame) return gen_below(g, n);
  int nfu = isa_fu_count(g->c);
  if (fu >= n) return 0xff;
  return fu + nfu * gen_below(g, (n - fu + nfu - 1) / nfu);
}

/* Returns the word of a random instruction of FU fu at pc of n words. */
static isa_word gen_insn(gen_ctx *g, int fu, int pc, int n) {
  const arch_config *c = g->c;
  isa_fu_class cls = isa_fu_class_of(c, fu);
  isa_insn in;
  isa_word w;
  memset(&in, 0, sizeof in);
  memset(&w, 0, sizeof w);
  in.op = gen_opcode(g, cls);
  const isa_op_info *info = isa_op_get(in.op);
  if (in.op == ISA_OP_NOP && gen_edge(g, 1, 2)) in.imm = 1 + gen_edge_below(g, 3); /* nop 2..4 */
  if (in.op != ISA_OP_NOP) {
    int d = gen_below(g, 4);
    if (d == 1 && c->rd) in.dst = (isa_opnd){ISA_CLS_RD, (uint8_t)gen_reg(g, c->rd, fu)};
    if (d >= 2 && c->fd) in.dst = (isa_opnd){ISA_CLS_FD, (uint8_t)gen_reg(g, c->fd, fu)};
    if (in.dst.cls != ISA_CLS_NONE && !g->tame && gen_edge(g, 1, 3)) /* the first or the last */
      in.dst.idx = (uint8_t)(gen_edge(g, 1, 2) ? 0 : (in.dst.cls == ISA_CLS_RD ? c->rd : c->fd) - 1);
    if (in.dst.idx == 0xff) in.dst = (isa_opnd){ISA_CLS_NONE, 0};
    if (c->od && !g->tame && gen_chance(g, 1, 2)) {
      in.odmask = 1u << gen_below(g, c->od);
      if (gen_chance(g, 1, 4)) in.odmask |= (uint32_t)gen_below(g, 1 << c->od);
      if (gen_edge(g, 1, 8)) in.odmask = (1u << c->od) - 1u; /* every od */
    }
    int has_imm = 0;
    for (int i = 0; i < info->nsrc; i++) {
      in.src[i] = gen_src(g);
      has_imm |= in.src[i].cls == ISA_CLS_IMM;
    }
    if (has_imm) in.imm = gen_value(g);
    if (has_imm && gen_edge(g, 1, 6)) { /* the edges of a word, on every FU class */
      static const int32_t edge[] = {0, INT32_MAX, INT32_MIN, -1, 1};
      in.imm = edge[gen_edge_below(g, 5)];
    }
  }
  gen_branch(g, &in, pc, n);
  if (isa_insn_check(&in, cls, c, NULL, 0) != ISA_OK || isa_encode(&in, &w) != ISA_OK)
    memset(&w, 0, sizeof w); /* cannot happen; `nop ; next` keeps the stream valid */
  return w;
}

/* Returns the first (k = 0), a middle (1) or the last (2) of 0..n-1. */
static int gen_plan_pick(gen_ctx *g, int k, int n) {
  return k == 0 || n <= 1 ? 0 : k == 2 || n == 2 ? n - 1 : 1 + gen_edge_below(g, n - 2);
}

/* Returns the plan word of FU fu for plan p (docs/fuzz.md "Field
 * coverage"): an opcode that reads every source the FU class has, and
 * each field of the class p gives it, so that consecutive seeds give
 * every field of the word every class: the destination (none, rd, fd;
 * the first or the last), ODMASK (none, one od, every od), each source
 * (rd, fd, id, imm; the first or the last), IMM (0, 2^31-1, -2^31, -1,
 * 1), a br on every selector the PE allows (first, middle or last signal
 * or flag) and its targets (pc 0, a middle pc, the last pc of the
 * memory). Not in tame streams. */
static isa_word gen_plan_insn(gen_ctx *g, int fu, uint64_t p) {
  const arch_config *c = g->c;
  isa_fu_class cls = isa_fu_class_of(c, fu);
  isa_insn in;
  isa_word w;
  memset(&in, 0, sizeof in);
  memset(&w, 0, sizeof w);
  isa_op most[ISA_OP_COUNT];
  int nsrc, nmost = gen_ops_reading_most(cls, most, &nsrc);
  in.op = nmost ? most[gen_edge_below(g, nmost)] : ISA_OP_NOP;
  if (in.op != ISA_OP_NOP) {
    int dk = (int)(p % 3), dn = dk == 1 ? c->rd : dk == 2 ? c->fd : 0;
    if (dn) in.dst = (isa_opnd){(uint8_t)(dk == 1 ? ISA_CLS_RD : ISA_CLS_FD), (uint8_t)((p / 3) % 2 ? dn - 1 : 0)};
    int ok = (int)((p / 2) % 3);
    if (c->od && ok) in.odmask = ok == 2 ? (1u << c->od) - 1u : 1u << gen_edge_below(g, c->od);
    int avail[4], na = 0, has_imm = 0;
    if (c->rd) avail[na++] = ISA_CLS_RD;
    if (c->fd) avail[na++] = ISA_CLS_FD;
    if (c->id) avail[na++] = ISA_CLS_ID;
    avail[na++] = ISA_CLS_IMM;
    for (int i = 0; i < nsrc; i++) {
      int sc = avail[(p + (uint64_t)i) % (uint64_t)na];
      int n = sc == ISA_CLS_RD ? c->rd : sc == ISA_CLS_FD ? c->fd : sc == ISA_CLS_ID ? c->id : 1;
      in.src[i] = (isa_opnd){(uint8_t)sc, (uint8_t)(sc != ISA_CLS_IMM && (p / (uint64_t)na + (uint64_t)i) % 2 ? n - 1 : 0)};
      has_imm |= sc == ISA_CLS_IMM;
    }
    static const int32_t edge[] = {0, INT32_MAX, INT32_MIN, -1, 1};
    if (has_imm) in.imm = edge[p % 5];
  }
  int maxsel = 0;
  while (maxsel < ISA_SEL_COUNT && (2 << maxsel) <= c->branch_targets) maxsel++;
  in.br = ISA_BR_COND;
  in.nsel = maxsel;
  for (int i = 0; i < in.nsel; i++) {
    int k = (int)((p + (uint64_t)i) % 6);
    in.sel[i] = (uint8_t)(k < 3 ? gen_plan_pick(g, k, c->gc_signals)
                                : ISA_COND_FLAG + gen_plan_pick(g, k - 3, isa_fu_count(c)));
  }
  for (int i = 0; i < (1 << in.nsel); i++) in.target[i] = (uint16_t)gen_plan_pick(g, (int)((p + (uint64_t)i) % 3), c->imem);
  if (isa_insn_check(&in, cls, c, NULL, 0) != ISA_OK || isa_encode(&in, &w) != ISA_OK)
    memset(&w, 0, sizeof w); /* cannot happen; `nop ; next` keeps the stream valid */
  return w;
}

/* Writes the value plan of FU fu for plan p into prog[0..max-1] and
 * returns its length (docs/fuzz.md "Operand values"): an ALU's `mov rd0,
 * #E1` (another FU's `nop`: its rd0 an ALU's plan's), then for each
 * operation class the FU executes (valcov.h), from the one p gives on,
 * six words at least (a class again with another E2), an opcode of it on
 * rd0 and #E2: `OP rd1, rd0, #E2`. E1 and E2 are 0, 1,
 * -1, -2^31, 2^31-1 or 31: E1 the (p mod 6)th, E2 of the j-th class the
 * ((p / 6 + j) mod 6)th, so that 36 consecutive plans give every pair.
 * Returns 0 (nothing written) without an rd. */
static int gen_value_plan(gen_ctx *g, int fu, uint64_t p, isa_word *prog, int max) {
  static const int32_t vals[6] = {0, 1, -1, INT32_MIN, INT32_MAX, 31};
  const arch_config *c = g->c;
  isa_fu_class cls = isa_fu_class_of(c, fu);
  int classes[VALCOV_CLASSES], ncls = 0;
  for (int vc = 0; vc < VALCOV_CLASSES && c->rd; vc++)
    for (int op = 0; op < ISA_OP_COUNT; op++)
      if (valcov_op_class((isa_op)op) == vc && isa_op_get((isa_op)op)->fu == cls) {
        classes[ncls++] = vc;
        break;
      }
  if (!ncls || max < 2) return 0;
  isa_insn in;
  memset(&in, 0, sizeof in);
  if (cls == ISA_FU_ALU) {
    in.op = ISA_OP_MOV;
    in.dst = (isa_opnd){ISA_CLS_RD, 0};
    in.src[0] = (isa_opnd){ISA_CLS_IMM, 0};
    in.imm = vals[p % 6];
  }
  int n = 0;
  if (isa_encode(&in, &prog[n]) == ISA_OK) n++;
  for (int j = 0; j < (ncls > 6 ? ncls : 6) && n < max; j++) { /* a class with one: six E2 */
    int vc = classes[(p + (uint64_t)j) % (uint64_t)ncls];
    isa_op ops[ISA_OP_COUNT];
    int nops = 0;
    for (int op = 0; op < ISA_OP_COUNT; op++)
      if (valcov_op_class((isa_op)op) == vc && isa_op_get((isa_op)op)->fu == cls) ops[nops++] = (isa_op)op;
    memset(&in, 0, sizeof in);
    in.op = ops[gen_edge_below(g, nops)];
    in.dst = (isa_opnd){ISA_CLS_RD, (uint8_t)(c->rd > 1 ? 1 : 0)};
    in.src[0] = (isa_opnd){ISA_CLS_RD, 0};
    if (isa_op_get(in.op)->nsrc >= 2) {
      in.src[1] = (isa_opnd){ISA_CLS_IMM, 0};
      in.imm = vals[(p / 6 + (uint64_t)j) % 6];
    }
    if (isa_insn_check(&in, cls, c, NULL, 0) == ISA_OK && isa_encode(&in, &prog[n]) == ISA_OK) n++;
  }
  return n;
}

/* Appends the programs: most FUs get one, on the region or elsewhere. */
static void gen_programs(gen_ctx *g) {
  const arch_config *c = g->c;
  isa_word prog[16];
  for (int fu = 0; fu < isa_fu_count(c); fu++) {
    if (gen_chance(g, 1, 5)) continue;
    int max = c->imem < 8 ? c->imem : 8;
    if (gen_chance(g, 1, 8)) max = c->imem < 16 ? c->imem : 16;
    int n = 1 + gen_below(g, max);
    for (int pc = 0; pc < n; pc++) prog[pc] = gen_insn(g, fu, pc, n);
    if (!g->tame && (n >= 2 || gen_edge(g, 1, 2))) /* (a one-word program: every other time) */
      prog[gen_edge_below(g, n)] = gen_plan_insn(g, fu, g->s->seed + (uint64_t)fu);
    int vplan = !g->tame && c->imem >= 3 && gen_edge(g, 3, 4);
    if (vplan) { /* the value plan first, the rest after it */
      isa_word plan[1 + VALCOV_CLASSES];
      int np = gen_value_plan(g, fu, g->s->seed + (uint64_t)fu, plan, c->imem - 1 < 1 + VALCOV_CLASSES ? c->imem - 1 : 1 + VALCOV_CLASSES);
      int keep = n + np <= c->imem && n + np <= 16 ? n : (c->imem < 16 ? c->imem : 16) - np;
      memmove(&prog[np], &prog[0], (size_t)keep * sizeof prog[0]);
      memcpy(prog, plan, (size_t)np * sizeof prog[0]);
      n = np + keep;
    }
    stream_rect r = gen_pe_rect(g);
    if (vplan && gen_edge(g, 3, 4)) r = g->region; /* where it runs */
    gen_push(g, STREAM_PKT_PROGRAM, fu, 0, r, prog[0].w, (uint32_t)(ISA_WORDS * n));
  }
}

/* Appends a REGCFG packet of random fd depths (when the PE has fds). */
static void gen_regcfg(gen_ctx *g) {
  const arch_config *c = g->c;
  uint32_t depth[ISA_MAX_REGS];
  if (!c->fd || gen_chance(g, 1, 4)) return;
  for (int k = 0; k < c->fd; k++)
    depth[k] = (uint32_t)(gen_chance(g, 1, 8) ? c->fd_depth : 1 + gen_below(g, c->fd_depth < 4 ? c->fd_depth : 4));
  for (int k = 0; k < c->fd; k++)
    if (gen_edge(g, 1, 6)) depth[k] = (uint32_t)(gen_edge(g, 1, 2) ? c->fd_depth : 1); /* the ends */
  gen_push(g, STREAM_PKT_REGCFG, 0, 0, gen_pe_rect(g), depth, (uint32_t)c->fd);
}

/* Returns a random select (1 + source) for sink s: od or wrapper inputs,
 * biased to routes that carry tokens (od out to a side, a side into an id,
 * a side through to the opposite one). */
static uint32_t gen_select(gen_ctx *g, int s) {
  const arch_config *c = g->c;
  int P = c->ports, nsrc = c->od + 4 * P;
  if (gen_edge(g, 1, 16)) return (uint32_t)nsrc; /* the last source: the largest select */
  if (s < c->id) { /* an id: mostly from a side */
    if (gen_chance(g, 2, 3)) return 1 + (uint32_t)(c->od + gen_below(g, 4 * P));
  } else { /* a wrapper output of side (s - id) / P */
    int side = (s - c->id) / P;
    if (c->od && gen_chance(g, 1, 2)) return 1 + (uint32_t)gen_below(g, c->od);
    if (gen_chance(g, 1, 2)) return 1 + (uint32_t)(c->od + ((side + 2) % 4) * P + gen_below(g, P));
  }
  return 1 + (uint32_t)gen_below(g, nsrc);
}

/* Returns the select of sink s in the sweep wrapper of plan p (gen_sweep):
 * class (p + s) % 7 of off, an od, a wrapper input of the north, east,
 * south or west side (but the last source), the last source. */
static uint32_t gen_sweep_select(gen_ctx *g, int p, int s) {
  const arch_config *c = g->c;
  int P = c->ports, nsrc = c->od + 4 * P, k = (p + s) % 7;
  if (k == 0) return 0;
  if (k == 1 && c->od) return 1 + (uint32_t)gen_edge_below(g, c->od);
  if (k >= 2 && k <= 5 && (k < 5 || P > 1))
    return 1 + (uint32_t)(c->od + (k - 2) * P + gen_edge_below(g, k == 5 ? P - 1 : P));
  return (uint32_t)nsrc;
}

/* Appends the sweep wrapper (docs/fuzz.md "Field coverage"): on a random
 * rectangle, each sink's select of the class the seed's plan gives it, so
 * that seven seeds in a row give every sink every class. */
static void gen_sweep(gen_ctx *g) {
  const arch_config *c = g->c;
  int nsinks = c->id + 4 * c->ports, p = (int)(g->s->seed % 7);
  uint32_t sel[ISA_MAX_REGS + 4 * ARCH_MAX_PORTS];
  for (int s = 0; s < nsinks; s++) sel[s] = gen_sweep_select(g, p, s);
  stream_rect all = {0, 0, c->rows, c->cols}, r = all;
  int k = gen_edge_below(g, 6); /* 0: the whole array; 1-3: one PE; 4, 5: a part */
  if (k >= 1 && k <= 3) r = (stream_rect){gen_edge_below(g, c->rows), gen_edge_below(g, c->cols), 1, 1};
  if (k >= 4) {
    r.row0 = gen_edge_below(g, c->rows), r.col0 = gen_edge_below(g, c->cols);
    r.rows = 1 + gen_edge_below(g, c->rows - r.row0), r.cols = 1 + gen_edge_below(g, c->cols - r.col0);
  }
  gen_push(g, STREAM_PKT_WRAPPER, 0, 0, r, sel, (uint32_t)nsinks);
}

/* Appends wrappers: one per PE of the region (mostly), a few elsewhere. */
static void gen_wrappers(gen_ctx *g) {
  const arch_config *c = g->c;
  int nsinks = c->id + 4 * c->ports, npkt = 0;
  uint32_t sel[ISA_MAX_REGS + 4 * ARCH_MAX_PORTS];
  for (int r = 0; r < c->rows; r++)
    for (int col = 0; col < c->cols && npkt < 64; col++) {
      const stream_rect *q = &g->region;
      int in = r >= q->row0 && r < q->row0 + q->rows && col >= q->col0 && col < q->col0 + q->cols;
      if (!gen_chance(g, in ? 7 : 2, 8)) continue;
      for (int s = 0; s < nsinks; s++) sel[s] = gen_chance(g, 2, 5) ? gen_select(g, s) : 0;
      gen_push(g, STREAM_PKT_WRAPPER, 0, 0, (stream_rect){r, col, 1, 1}, sel, (uint32_t)nsinks);
      npkt++;
    }
}

/* Appends to w at n a random constraint list (at most max constraints;
 * now and then, from the edge generator, STREAM_MAX_CONS exactly, while
 * *edges > 0, which it counts down) over nd dimensions; returns the new
 * n. */
static uint32_t gen_cons(gen_ctx *g, uint32_t *w, uint32_t n, int nd, int max, int *edges) {
  int k = gen_below(g, max + 1);
  if (*edges > 0 && gen_edge(g, 1, 10)) k = STREAM_MAX_CONS(g->c), (*edges)--;
  w[n++] = (uint32_t)k;
  for (int i = 0; i < k; i++) {
    w[n++] = (uint32_t)gen_below(g, 2);
    for (int d = 0; d < nd; d++) w[n++] = (uint32_t)gen_range(g, -1, 1);
    w[n++] = (uint32_t)(gen_chance(g, 1, 16) ? gen_value(g) : gen_range(g, -2, 2));
  }
  return n;
}

/* Returns 1 when delay d0 + dr*r + dc*c lies in 0..max on every PE of a
 * region of rows x cols (its corners suffice). */
static int gen_delay_ok(int64_t d0, int64_t dr, int64_t dc, int rows, int cols, int64_t max) {
  for (int i = 0; i < 4; i++) {
    int64_t d = d0 + dr * ((i & 1) ? rows - 1 : 0) + dc * ((i & 2) ? cols - 1 : 0);
    if (d < 0 || d > max) return 0;
  }
  return 1;
}

/* Draws, from the generator's second stream g->rd (so that the streams
 * of the seeds that keep short delays stay as they were), a long start
 * delay now and then: in 1 of 4 GCs of streams that are not tame; then
 * writes d0, dr, dc (g->dlong: the kind + 1) and cuts the nb bounds at b
 * to 1 or 2 (at most 4 steps: a long wait, little work). Kinds: 0, 1
 * slopes of 8..64 between neighbours (from the origin or back from the far
 * corner), so that a PE's neighbours start long before it and fill its
 * FIFOs; 2 slopes (2^31-1) / (rows-1+cols-1), the far corner waiting
 * 2^31-1 cycles exactly; 3 d0 = 2^31-1, slopes 0 (no PE starts); 4 the
 * origin at 2^31-1, the far corner at 0; 5 d0 of a few hundred to a few
 * thousand cycles. Every delay stays in 0..2^31-1 (docs/timing.md section
 * 2). Returns 1 when it drew one. */
static int gen_delay_long(gen_ctx *g, int64_t *d0, int64_t *dr, int64_t *dc, uint32_t *b, int nb) {
  const int64_t dmax = INT32_MAX;
  int rows = g->region.rows, cols = g->region.cols, span = rows - 1 + cols - 1;
  int k = (int)rng_state_range(&g->rd, 0, 15);
  if (k < 12 || g->tame) return 0; /* tame streams reach done: no long wait */
  static const int64_t slope[] = {8, 9, 16, 31, 32, 33, 63, 64};
  int kind = (int)rng_state_range(&g->rd, 0, 5);
  g->dlong = kind + 1;
  *d0 = rng_state_range(&g->rd, 0, 3), *dr = *dc = 0;
  if (kind <= 1) { /* neighbours long apart, down the rows or the columns or both */
    if (rows > 1 && (kind == 0 || cols == 1)) *dr = slope[rng_state_range(&g->rd, 0, 7)];
    if (cols > 1 && (kind == 1 || rows == 1 || rng_state_range(&g->rd, 0, 1)))
      *dc = slope[rng_state_range(&g->rd, 0, 7)];
    if (rng_state_range(&g->rd, 0, 1)) { /* the same, counted back from the far corner */
      *d0 = *dr * (rows - 1) + *dc * (cols - 1);
      *dr = -*dr, *dc = -*dc;
    }
  } else if (kind == 2 && span > 0) { /* the far corner waits 2^31-1 cycles exactly */
    int64_t q = dmax / span;
    *d0 = dmax - q * span, *dr = rows > 1 ? q : 0, *dc = cols > 1 ? q : 0;
  } else if (kind == 3) { /* the whole region waits 2^31-1 cycles: nothing starts */
    *d0 = dmax;
  } else if (kind == 4 && span > 0) { /* 2^31-1 at the origin, 0 on the far corner */
    int64_t q = dmax / span;
    *d0 = q * span, *dr = rows > 1 ? -q : 0, *dc = cols > 1 ? -q : 0;
  } else { /* a start a few hundred to a few thousand cycles late */
    *d0 = rng_state_range(&g->rd, 100, 5000);
  }
  for (int d = 0; d < nb; d++) b[d] = b[d] > 2 ? 1 + (uint32_t)rng_state_range(&g->rd, 0, 1) : b[d];
  if (nb > 2) b[nb - 1] = 1;
  return 1;
}

/* Returns a field of a GC term's PE range (docs/stream.md "GC payload"):
 * uniform in 0..n-1, at most STREAM_TERM_RANGE_MAX. */
static int gen_term_range(gen_ctx *g, int n) {
  int v = gen_edge_below(g, n);
  return v < STREAM_TERM_RANGE_MAX ? v : STREAM_TERM_RANGE_MAX;
}

/* Appends the GC packet of the region. */
static void gen_gc(gen_ctx *g) {
  const arch_config *c = g->c;
  uint32_t w[4096], n = 0;
  g->ii = gen_chance(g, 1, 8) ? 4 : 1 + gen_below(g, 3);
  g->ndims = 1 + gen_below(g, c->gc_dims < 3 ? c->gc_dims : 3);
  int nd0 = g->ndims; /* the dimensions drawn from g->r */
  if (gen_edge(g, 1, 4)) g->ndims = c->gc_dims; /* every dimension, most of bound 1 */
  w[n++] = (uint32_t)g->ii;
  w[n++] = (uint32_t)g->ndims;
  int steps = 1, extra = 1, eb[8] = {0};
  for (int d = nd0; d < g->ndims && d < 8; d++) { /* the extra dimensions' bounds first: 1 or 2, at most 8 steps */
    eb[d] = 1 + (extra < 8 && gen_edge(g, 1, 2));
    extra *= eb[d];
  }
  for (int d = 0; d < g->ndims; d++) {
    int b = d < nd0 ? 1 + gen_below(g, 4) : eb[d];
    while (b > 1 && steps * b * (d < nd0 ? extra : 1) > 24) b--;
    steps *= b;
    w[n++] = (uint32_t)b;
  }
  w[n++] = (uint32_t)gen_below(g, 3); /* epilog */
  int64_t max = (int64_t)(c->gc_history - 1) * g->ii;
  int64_t d0 = gen_below(g, 4), dr = gen_range(g, -1, 2), dc = gen_range(g, -1, 2);
  if (gen_chance(g, 1, 8)) d0 = max, dr = dc = 0; /* the largest delay gc.history allows */
  if (!g->tame && gen_edge(g, 1, 10)) max = d0 = INT32_MAX, dr = dc = 0; /* the largest delay: nothing starts */
  if (!gen_delay_ok(d0, dr, dc, g->region.rows, g->region.cols, max)) dr = dc = 0;
  if (d0 > max) d0 = max;
  if (gen_delay_long(g, &d0, &dr, &dc, &w[2], g->ndims) &&
      !gen_delay_ok(d0, dr, dc, g->region.rows, g->region.cols, INT32_MAX))
    d0 = INT32_MAX, dr = dc = 0; /* (never: every kind stays in range) */
  w[n++] = (uint32_t)d0, w[n++] = (uint32_t)dr, w[n++] = (uint32_t)dc;
  g->d0 = d0, g->dr = dr, g->dc = dc;
  int maxterms = STREAM_GC_MAX_TERMS(c) < 4 ? STREAM_GC_MAX_TERMS(c) : 4;
  int nt = gen_below(g, maxterms + 1);
  if (gen_edge(g, 1, 6)) nt = STREAM_GC_MAX_TERMS(c); /* every term */
  int maxcons = STREAM_MAX_CONS(c) < 2 ? STREAM_MAX_CONS(c) : 2, edges = 1; /* w holds one term of every constraint */
  w[n++] = (uint32_t)nt;
  for (int t = 0; t < nt; t++) {
    w[n++] = (uint32_t)gen_below(g, c->gc_signals);
    if (gen_edge(g, 1, 3)) /* a PE range: from row/column lo, skipping some at the end */
      w[n - 1] = STREAM_TERM_WORD(w[n - 1], gen_term_range(g, g->region.rows + 1), gen_term_range(g, g->region.rows),
                                  gen_term_range(g, g->region.cols + 1), gen_term_range(g, g->region.cols));
    n = gen_cons(g, w, n, g->ndims, maxcons, &edges);
  }
  gen_push(g, STREAM_PKT_GC, g->gc, 0, g->region, w, n);
}

/* After a long start delay with slopes (gen_delay_long kinds 0, 1, 2, 4:
 * some PE of the region starts long before a neighbour), appends a
 * feeder, drawn from g->rd: alu0 of the PE of the started rectangle q
 * that starts first runs `mov odK, #v ; goto 0`, one token per cycle, and
 * the wrappers of that PE and of its neighbour in the direction of the
 * slope (packets that replace both PEs' wrappers) route odK into an id of
 * the neighbour, which does not pop it before it starts: its FIFO fills
 * to the brim and overflows (docs/timing.md section 5, the fault both
 * engines share). */
static void gen_feeder(gen_ctx *g, const stream_rect *q) {
  const arch_config *c = g->c;
  int kind = g->dlong - 1;
  if (!c->od || !c->id || !c->alu || (kind != 0 && kind != 1 && kind != 2 && kind != 4))
    return;
  /* the corner that starts first, and the neighbour one step inside */
  int r = g->dr < 0 ? q->rows - 1 : 0, col = g->dc < 0 ? q->cols - 1 : 0;
  int vertical = g->dr != 0 && q->rows > 1 && (g->dc == 0 || q->cols == 1 || rng_state_range(&g->rd, 0, 1));
  if (!vertical && (g->dc == 0 || q->cols == 1)) return;
  int r2 = vertical ? r + (r == 0 ? 1 : -1) : r, c2 = vertical ? col : col + (col == 0 ? 1 : -1);
  int out = vertical ? (r2 > r ? STREAM_SIDE_SOUTH : STREAM_SIDE_NORTH)
                     : (c2 > col ? STREAM_SIDE_EAST : STREAM_SIDE_WEST);
  int in = (out + 2) % 4, P = c->ports;
  int od = (int)rng_state_range(&g->rd, 0, c->od - 1), port = (int)rng_state_range(&g->rd, 0, P - 1);
  int id = (int)rng_state_range(&g->rd, 0, c->id - 1);
  isa_insn ins;
  isa_word w;
  memset(&ins, 0, sizeof ins);
  memset(&w, 0, sizeof w);
  ins.op = ISA_OP_MOV;
  ins.dst = (isa_opnd){ISA_CLS_NONE, 0};
  ins.odmask = 1u << od;
  ins.src[0] = (isa_opnd){ISA_CLS_IMM, 0};
  ins.imm = (int32_t)(uint32_t)rng_state_next(&g->rd);
  ins.br = ISA_BR_GOTO;
  ins.target[0] = 0;
  if (isa_insn_check(&ins, isa_fu_class_of(c, 0), c, NULL, 0) != ISA_OK || isa_encode(&ins, &w) != ISA_OK)
    return;
  int nsinks = c->id + 4 * P;
  uint32_t sel[ISA_MAX_REGS + 4 * ARCH_MAX_PORTS];
  stream_rect pe = {q->row0 + r, q->col0 + col, 1, 1}, pe2 = {q->row0 + r2, q->col0 + c2, 1, 1};
  gen_push(g, STREAM_PKT_PROGRAM, 0, 0, pe, w.w, ISA_WORDS);
  memset(sel, 0, sizeof sel);
  sel[c->id + out * P + port] = 1 + (uint32_t)od;
  gen_push(g, STREAM_PKT_WRAPPER, 0, 0, pe, sel, (uint32_t)nsinks);
  memset(sel, 0, sizeof sel);
  sel[id] = 1 + (uint32_t)(c->od + in * P + port);
  gen_push(g, STREAM_PKT_WRAPPER, 0, 0, pe2, sel, (uint32_t)nsinks);
}

/* Appends the GC packet of another controller, never started (its region
 * may overlap the started one; it must change nothing). */
static void gen_gc_other(gen_ctx *g) {
  gen_ctx h = *g;
  h.gc = (g->gc + 1 + gen_below(g, STREAM_GCS - 1)) % STREAM_GCS;
  h.region = gen_subrect(g, (stream_rect){0, 0, g->c->rows, g->c->cols});
  h.r = rng_state_seed(rng_state_next(&g->r));
  h.rd = rng_state_seed(rng_state_next(&g->rd));
  h.re = rng_state_seed(rng_state_next(&g->re));
  h.dlong = 0;
  gen_gc(&h);
  g->oom |= h.oom;
}

/* Shuffles the packets drawn so far (the order changes which of two
 * packets for the same unit wins, nothing else; START stays last). */
static void gen_shuffle(gen_ctx *g) {
  gen_packet *p = g->s->pkt;
  for (int k = g->s->n - 1; k > 0; k--) {
    int j = gen_below(g, k + 1);
    gen_packet t = p[k];
    p[k] = p[j], p[j] = t;
  }
}

/* Returns a random rectangle on border `side` of the array. */
static stream_rect gen_border_rect(gen_ctx *g, int side) {
  const arch_config *c = g->c;
  stream_rect r = gen_subrect(g, (stream_rect){0, 0, c->rows, c->cols});
  if (gen_chance(g, 2, 3)) r.rows = r.cols = 1;
  if (side == STREAM_SIDE_NORTH) r.row0 = 0, r.rows = 1;
  if (side == STREAM_SIDE_SOUTH) r.row0 = c->rows - 1, r.rows = 1;
  if (side == STREAM_SIDE_WEST) r.col0 = 0, r.cols = 1;
  if (side == STREAM_SIDE_EAST) r.col0 = c->cols - 1, r.cols = 1;
  return r;
}

/* Appends an AG (every mode, enable constraints, mostly in range) and
 * now and then the bank data it reads, on a random border rectangle. */
static void gen_ag(gen_ctx *g) {
  const arch_config *c = g->c;
  uint32_t w[512], n = 0, *io = NULL;
  int side = gen_below(g, 4);
  int bank = gen_below(g, c->banks < c->ports ? c->banks : c->ports);
  stream_rect r = gen_border_rect(g, side);
  int e = gen_edge_below(g, 6), ns = side == STREAM_SIDE_NORTH || side == STREAM_SIDE_SOUTH;
  int len = ns ? c->cols : c->rows, from = e == 1 ? gen_edge_below(g, len) : 0;
  if (e == 0 || e == 1) { /* the whole side, or from a PE on to its end */
    if (ns) r.col0 = from, r.cols = len - from;
    else r.row0 = from, r.rows = len - from;
  }
  int nd = gen_chance(g, 1, 8) ? 1 + gen_below(g, c->gc_dims) : g->ndims;
  int nd0 = nd; /* the strides drawn from g->r */
  if (gen_edge(g, 1, 4)) nd = c->gc_dims;
  int mode = gen_chance(g, 1, 6) ? STREAM_AG_OFF : gen_chance(g, 1, 2) ? STREAM_AG_READ : STREAM_AG_WRITE;
  w[n++] = (uint32_t)mode;
  w[n++] = (uint32_t)nd;
  w[n++] = (uint32_t)gen_below(g, 2 * g->ii + 2);
  w[n++] = (uint32_t)(gen_chance(g, 1, 16) ? c->bank_depth - 2 : gen_below(g, 9));
  if (gen_edge(g, 1, 8)) w[n - 1] = (uint32_t)-(1 + gen_edge_below(g, 4)); /* below the bank */
  w[n++] = (uint32_t)gen_range(g, -1, 2), w[n++] = (uint32_t)gen_range(g, -1, 2);
  for (int d = 0; d < nd; d++) w[n++] = (uint32_t)(d < nd0 ? gen_range(g, -1, 3) : gen_edge_below(g, 5) - 1);
  int edges = 1;
  n = gen_cons(g, w, n, nd, STREAM_MAX_CONS(c) < 2 ? STREAM_MAX_CONS(c) : 2, &edges);
  gen_push(g, STREAM_PKT_AG, bank, side, r, w, n);
  if (mode == STREAM_AG_WRITE || gen_chance(g, 1, 4)) return;
  int nw = 1 + gen_below(g, 8);
  if (nw > c->bank_depth) nw = c->bank_depth;
  uint32_t start = (uint32_t)gen_below(g, c->bank_depth - nw + 1 < 8 ? c->bank_depth - nw + 1 : 8);
  int edge = gen_edge_below(g, 10);
  if (edge == 0) nw = c->bank_depth, start = 0;              /* the whole bank */
  if (edge == 1) nw = 1, start = (uint32_t)c->bank_depth - 1; /* its last word */
  if (!(io = malloc(((size_t)nw + 1) * sizeof *io))) {
    g->oom = 1;
    return;
  }
  io[0] = start;
  for (int k = 1; k <= nw; k++) io[k] = (uint32_t)gen_value(g);
  gen_push(g, STREAM_PKT_IODATA, bank, side, r, io, (uint32_t)nw + 1);
  free(io);
}

int gen_stream_make(const arch_config *cfg, uint64_t seed, gen_stream *s, char *msg, size_t msgsz) {
  memset(s, 0, sizeof *s);
  s->cfg = *cfg;
  s->seed = seed;
  if (isa_arch_check(cfg, msg, msgsz) != ISA_OK) return -1;
  gen_ctx g = {.r = rng_state_seed_named(seed, "gen-stream"), .rd = rng_state_seed_named(seed, "gen-stream-delay"),
               .re = rng_state_seed_named(seed, "gen-stream-edge"), .c = &s->cfg, .s = s};
  stream_rect all = {0, 0, cfg->rows, cfg->cols};
  g.region = gen_chance(&g, 1, 4) ? all : gen_subrect(&g, all);
  g.gc = gen_below(&g, STREAM_GCS);
  g.tame = gen_chance(&g, 1, 4);
  gen_programs(&g);
  if (gen_chance(&g, 1, 4)) gen_programs(&g); /* later packets replace earlier ones */
  gen_regcfg(&g);
  gen_wrappers(&g);
  gen_sweep(&g);
  gen_gc(&g);
  if (gen_chance(&g, 1, 4)) gen_gc_other(&g);
  for (int k = g.tame ? 0 : gen_below(&g, 7); k > 0; k--) gen_ag(&g);
  if (gen_chance(&g, 1, 3)) gen_shuffle(&g);
  stream_rect start = gen_chance(&g, 4, 5) ? g.region : gen_subrect(&g, g.region);
  if (g.dlong) gen_feeder(&g, &start); /* after the shuffle: no packet replaces it */
  gen_push(&g, STREAM_PKT_START, g.gc, 0, start, NULL, 0);
  if (g.oom) {
    snprintf(msg, msgsz, "out of memory");
    gen_stream_free(s);
    return -1;
  }
  return 0;
}

/* Returns 0 with every packet of s written into w; -1 with msg. */
static int gen_stream_write(const gen_stream *s, stream_writer *w, char *msg, size_t msgsz) {
  stream_writer_init(w, &s->cfg);
  for (int k = 0; k < s->n; k++) {
    const gen_packet *p = &s->pkt[k];
    if (stream_writer_packet(w, p->type, p->index, p->side, p->rect, p->payload, p->nwords)) {
      snprintf(msg, msgsz, "packet %d: %s", k, w->msg);
      return -1;
    }
  }
  return 0;
}

int gen_stream_bytes(const gen_stream *s, uint8_t **buf, size_t *len, char *msg, size_t msgsz) {
  stream_writer w;
  int rc = gen_stream_write(s, &w, msg, msgsz);
  if (!rc && stream_writer_finish(&w, buf, len)) {
    snprintf(msg, msgsz, "%s", w.msg);
    rc = -1;
  }
  stream_writer_free(&w);
  return rc;
}

int gen_stream_save(const gen_stream *s, const char *path, char *msg, size_t msgsz) {
  stream_writer w;
  int rc = gen_stream_write(s, &w, msg, msgsz);
  if (!rc && stream_writer_save(&w, path)) {
    snprintf(msg, msgsz, "%s: %s", path, w.msg[0] ? w.msg : "cannot write the stream");
    rc = -1;
  }
  stream_writer_free(&w);
  return rc;
}

int gen_stream_copy(gen_stream *dst, const gen_stream *src) {
  memset(dst, 0, sizeof *dst);
  dst->cfg = src->cfg;
  dst->seed = src->seed;
  gen_ctx g = {.c = &dst->cfg, .s = dst};
  for (int k = 0; k < src->n && !g.oom; k++) {
    const gen_packet *p = &src->pkt[k];
    gen_push(&g, p->type, p->index, p->side, p->rect, p->payload, p->nwords);
  }
  if (g.oom) gen_stream_free(dst);
  return g.oom ? -1 : 0;
}

int gen_stream_drop(gen_stream *s, int k) {
  if (k < 0 || k >= s->n) return -1;
  free(s->pkt[k].payload);
  memmove(&s->pkt[k], &s->pkt[k + 1], (size_t)(s->n - k - 1) * sizeof s->pkt[0]);
  s->n--;
  return 0;
}

void gen_stream_free(gen_stream *s) {
  for (int k = 0; k < s->n; k++) free(s->pkt[k].payload);
  free(s->pkt);
  s->pkt = NULL;
  s->n = s->cap = 0;
}
