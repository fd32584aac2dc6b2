/*
 * inst_proggen.c: program generation (Algorithm 4, section 6.3) and the
 * reduction of branch out-degree to pe.branch_targets.
 *
 * A program starts with its prolog, sigma steps of `nop` (that let input
 * reads happen 2 cycles before their first use, see inst_emit.c): sigma *
 * pi `nop` words, or, when inst_prolog made it a loop, pi of them, the last
 * `nop ; br cP ? L0 : L<pi>` (back to word 0 while the prolog signal cP is
 * 1, in steps 0..sigma-2; on to the first kernel in step sigma-1); then
 * the kernels of the CFG nodes in the order of their first iteration (the
 * start node, holding J = 0, first). Slots 0..pi-2 of a kernel get `next`;
 * slot pi-1 gets `halt` (only the halt edge), `goto` (one successor; `next`
 * when it is the following word), or `br` over the node's signals.
 *
 * Out-degree reduction. One `br` selects among 2^n <= pe.branch_targets
 * targets with n signals. A node needing N_v signals with more than that
 * branches over L = ceil(N_v / log2 B) levels in its last L slots: slot
 * pi-L branches on the most significant bits to one of the copies of the
 * remaining slots, and so on (the signals are constant during a step, so
 * every level sees the same values); the copies are laid out right after
 * the branching word. A node with L > pi does not fit. A halt edge among
 * several targets goes to one `nop ; halt` word after the last kernel.
 *
 * A node sharing its last tail_len slots with another (inst_merge.c) has
 * only its first ii - tail_len words, the last of them a `goto` into its
 * host's words (same copy); its edges belong to the root of its chain.
 *
 * A node sharing another's first pre_len slots (inst_signals.c) has only
 * its words from slot pre_len on; edges into it enter the other node, whose
 * word of slot pre_len - 1 branches to them on the node's signal.
 *
 * Finally words that behave alike are shared (inst_gen_dedupe): two words
 * with the same instruction and branch whose targets behave alike (the
 * coarsest such partition, as in DFA minimization; a `next` counts as a
 * jump to the following word) run the same from there on, so only the
 * first is kept and references go to it. This shares, for example, the
 * `nop ; halt` word with a kernel ending that way, the copies that
 * out-degree reduction makes of a kernel's last slots, and equal runs of
 * words before equal branches.
 *
 * Waits (inst_gen_waits, unless --no-waits): every run of `nop ; next`
 * words, with the nop that ends it and its branch, becomes one `nop N`
 * word of the run's N cycles (docs/isa.md), as long as no word after the
 * run's first is a branch target: the FU waits N cycles and evaluates the
 * branch in the last, as the last nop of the run would. The prolog's
 * sigma * pi nops become one word. pe.imem is checked after it.
 *
 * Modulo variable expansion. A value whose lifetime reaches II lives in a
 * rotating tuple of `copies` c rds (docs/symbolic.md, registers): the
 * iteration with sequence number s(J) uses rd base + (s(J) mod c). The
 * program is unrolled U = lcm(c) times: U copies of the whole CFG, copy u
 * running the kernels of the iterations with s(J) mod U = u, every branch
 * of copy u going to its target's copy u + 1 mod U (consecutive iterations
 * run in consecutive steps; the signals are those of the CFG, unchanged).
 * In copy u, an instruction of op v belongs to iteration s(J) - floor(tau
 * [v] / pi) of the kernel's s(J) (folding), so its tuple operands (dest and
 * sources, all of the same iteration since d = 0) use rd base + ((u -
 * floor(tau[v] / pi)) mod c). The program starts in copy 0 (J = 0). A
 * program that names no tuple register is not unrolled.
 */
#include <stdlib.h>
#include <string.h>

#include "inst.h"

#define INST_NOP_MAX_CYCLES ((int64_t)1 << 32) /* a `nop N`: IMM = N - 1, 32 bits */

typedef struct {
  inst *x;
  inst_fuprog *f;
  isa_insn *out;
  int n, cap;
  int halt_pc;
  int bits;      /* selector bits per branch: log2 pe.branch_targets */
  int unroll;    /* U: copies of the CFG (modulo variable expansion) */
  int copy;      /* the copy being emitted */
  int *pcs;      /* [U * nk] first word of node v in copy u: pcs[u * nk + v] */
} inst_gen;

/* Returns the number of registers of the rd tuple starting at rd idx (1
 * when idx is not the base of a tuple). */
static int inst_tuple_copies(const map_config *m, int idx) {
  for (int i = 0; i < m->nregs; i++)
    if (m->regs[i].reg.cls == MAP_REG_RD && m->regs[i].reg.idx == idx && m->regs[i].copies > 1)
      return m->regs[i].copies;
  return 1;
}

/* Returns U = lcm of the tuple sizes (1 without tuples), capped at 64. */
static int inst_unroll(const map_config *m) {
  int u = 1;
  for (int i = 0; i < m->nregs; i++) {
    int c = m->regs[i].copies;
    if (m->regs[i].reg.cls != MAP_REG_RD || c <= 1) continue;
    int a = u, b = c;
    while (b) {
      int t = a % b;
      a = b;
      b = t;
    }
    u = u / a * c;
    if (u > 64) return 64;
  }
  return u;
}

/* Returns 1 when some kernel of f names a tuple register (so that its
 * program needs the unrolling). */
static int inst_uses_tuple(const map_config *m, const inst_fuprog *f) {
  for (int v = 0; v < f->nk; v++)
    for (int s = 0; s < m->ii; s++) {
      const isa_insn *in = &f->k[v].slot[s];
      if (in->dst.cls == MAP_REG_RD && inst_tuple_copies(m, in->dst.idx) > 1) return 1;
      for (int i = 0; i < 3; i++)
        if (in->src[i].cls == MAP_REG_RD && inst_tuple_copies(m, in->src[i].idx) > 1) return 1;
    }
  return 0;
}

/* Renames the tuple operands of instruction in (slot s of node v) for the
 * copy being emitted. */
static void inst_rename(const inst_gen *g, const inst_kclass *k, int s, isa_insn *in) {
  if (g->unroll == 1 || k->op[s] < 0) return;
  const map_config *m = g->x->m;
  int n = m->ops[k->op[s]].tau / m->ii;
  int u = ((g->copy - n) % g->unroll + g->unroll) % g->unroll;
  if (in->dst.cls == MAP_REG_RD) in->dst.idx = (uint8_t)(in->dst.idx + u % inst_tuple_copies(m, in->dst.idx));
  for (int i = 0; i < 3; i++)
    if (in->src[i].cls == MAP_REG_RD)
      in->src[i].idx = (uint8_t)(in->src[i].idx + u % inst_tuple_copies(m, in->src[i].idx));
}

/* Returns the first word of node `to` in the copy the current one
 * branches to (a node sharing another's first words is entered there). */
static int inst_node_pc(const inst_gen *g, int to) {
  if (g->f->k[to].pre_len > 0) to = g->f->k[to].pre_of;
  return g->pcs[((g->copy + 1) % g->unroll) * g->f->nk + to];
}

/* Sets the branch of plain word in of slot s of node w: to the own words
 * of the node that shares w's first s + 1 slots, if any, on its signal
 * (else the following word). */
static void inst_prefix_branch(const inst_gen *g, int w, int s, isa_insn *in) {
  const inst_fuprog *f = g->f;
  for (int v = 0; v < f->nk; v++)
    if (f->k[v].pre_len == s + 1 && f->k[v].pre_of == w) {
      in->br = ISA_BR_COND;
      in->nsel = 1;
      in->sel[0] = (uint8_t)f->k[v].pre_sig;
      in->target[0] = (uint16_t)(g->n + 1);
      in->target[1] = (uint16_t)g->pcs[g->copy * f->nk + v];
    }
}

/* Returns the index bits [lo, hi) decided at level l of L for nsig bits,
 * `bits` selector bits per branch. */
static void inst_level_bits(int bits, int nsig, int L, int l, int *lo, int *hi) {
  *lo = (L - 1 - l) * bits;
  *hi = *lo + bits < nsig ? *lo + bits : nsig;
}

/* Returns the words a tail from level l takes. */
static int inst_tail_size(int bits, int nsig, int L, int l) {
  if (l == L - 1) return 1;
  int lo, hi;
  inst_level_bits(bits, nsig, L, l, &lo, &hi);
  return 1 + (1 << (hi - lo)) * inst_tail_size(bits, nsig, L, l + 1);
}

/* Returns the branch levels of a node with nsig signals. */
static int inst_levels_of(int bits, int nsig) {
  return nsig ? (nsig + bits - 1) / bits : 0;
}

/* Returns the levels node k needs. */
static int inst_levels(const inst_gen *g, const inst_kclass *k) {
  return inst_levels_of(g->bits, k->nsig);
}

/* Returns the words of a node of ii slots with nsig signals and L levels. */
static int inst_node_size(int bits, int ii, int nsig, int L) {
  return ii - (L ? L : 1) + (L ? inst_tail_size(bits, nsig, L, 0) : 1);
}

/* Returns log2 of the targets one `br` selects among (at least 1). */
static int inst_sel_bits(int branch_targets) {
  int bits = 0;
  while ((2 << bits) <= branch_targets && bits < ISA_SEL_COUNT) bits++;
  return bits < 1 ? 1 : bits;
}

int inst_node_words(int ii, int bt, int d) {
  int nsig = 0;
  while ((1 << nsig) < d) nsig++;
  int bits = inst_sel_bits(bt);
  return inst_node_size(bits, ii, nsig, inst_levels_of(bits, nsig));
}

/* Returns the pc branch index idx of node v leads to (the edge tgt[idx]
 * of inst_signals.c). */
static int inst_target_pc(const inst_gen *g, int v, int idx) {
  const inst_fuprog *f = g->f;
  int i = 0, first = -1, want = f->k[v].tgt[idx];
  for (int e = 0; e < f->ne; e++) {
    if (f->e[e].from != v) continue;
    if (first < 0) first = e;
    if (i++ == want) {
      first = e;
      break;
    }
  }
  int to = f->e[first].to;
  return to < 0 ? g->halt_pc : inst_node_pc(g, to);
}

/* Returns 0 after appending instruction in (growing the buffer). */
static int inst_put(inst_gen *g, const isa_insn *in) {
  if (g->n == g->cap) {
    g->cap = g->cap ? 2 * g->cap : 64;
    isa_insn *no = realloc(g->out, (size_t)g->cap * sizeof *no);
    if (!no) return -1;
    g->out = no;
  }
  g->out[g->n++] = *in;
  return 0;
}

/* Returns 0 after emitting the tail of node v from level l (prefix: the
 * index bits decided so far). */
static int inst_emit_tail(inst_gen *g, int v, int L, int l, int prefix) {
  const inst_kclass *k = &g->f->k[v];
  int ii = g->x->m->ii;
  isa_insn in = k->slot[ii - L + l];
  inst_rename(g, k, ii - L + l, &in);
  int lo, hi;
  inst_level_bits(g->bits, k->nsig, L, l, &lo, &hi);
  in.br = ISA_BR_COND;
  in.nsel = hi - lo;
  for (int b = 0; b < in.nsel; b++) in.sel[b] = (uint8_t)k->sig[lo + b];
  int here = g->n;
  int sub = l == L - 1 ? 0 : inst_tail_size(g->bits, k->nsig, L, l + 1);
  for (int u = 0; u < (1 << in.nsel); u++)
    in.target[u] = (uint16_t)(l == L - 1 ? inst_target_pc(g, v, prefix | u << lo) : here + 1 + u * sub);
  if (inst_put(g, &in)) return -1;
  if (l < L - 1)
    for (int u = 0; u < (1 << in.nsel); u++)
      if (inst_emit_tail(g, v, L, l + 1, prefix | u << lo)) return -1;
  return 0;
}

/* Returns 0 after emitting node v that continues in its host's words:
 * its first ii - tail_len slots, the last with a goto to the host's word
 * of the next slot in the same copy (`next` when that follows). */
static int inst_emit_shared(inst_gen *g, int v) {
  const inst_kclass *k = &g->f->k[v];
  int own = g->x->m->ii - k->tail_len;
  for (int s = 0; s < own; s++) {
    isa_insn in = k->slot[s];
    inst_rename(g, k, s, &in);
    int to = g->pcs[g->copy * g->f->nk + k->tail_of] + own;
    if (s == own - 1 && to != g->n + 1) {
      in.br = ISA_BR_GOTO;
      in.target[0] = (uint16_t)to;
    }
    if (inst_put(g, &in)) return -1;
  }
  return 0;
}

/* Returns 0 after emitting node v (its kernel with branches). */
static int inst_emit_node(inst_gen *g, int v) {
  const inst_fuprog *f = g->f;
  const inst_kclass *k = &f->k[v];
  int ii = g->x->m->ii;
  if (k->tail_len > 0) return inst_emit_shared(g, v);
  int L = inst_levels(g, k);
  for (int s = k->pre_len; s < ii - (L ? L : 1); s++) {
    isa_insn in = k->slot[s];
    inst_rename(g, k, s, &in);
    inst_prefix_branch(g, v, s, &in);
    if (inst_put(g, &in)) return -1;
  }
  if (L) return inst_emit_tail(g, v, L, 0, 0);
  isa_insn in = k->slot[ii - 1];
  inst_rename(g, k, ii - 1, &in);
  int to = -2;
  for (int e = 0; e < f->ne; e++)
    if (f->e[e].from == v) to = f->e[e].to;
  if (to == -1) in.br = ISA_BR_HALT;
  else if (to >= 0 && inst_node_pc(g, to) != g->n + 1) {
    in.br = ISA_BR_GOTO;
    in.target[0] = (uint16_t)inst_node_pc(g, to);
  }
  return inst_put(g, &in);
}

/* Returns INST_OK after laying out the nodes of every copy (g->pcs,
 * g->halt_pc, f->k[].pc of copy 0) in *words; INST_ERR_NOFIT when a kernel
 * needs more branch levels than slots or the program exceeds pe.imem. */
static int inst_gen_layout(inst_gen *g, int c, int *words, char *msg, size_t msgsz) {
  inst *x = g->x;
  inst_fuprog *f = g->f;
  int ii = x->m->ii;
  int pc = inst_prolog_words(x), need_halt = 0;
  for (int u = 0; u < g->unroll; u++)
    for (int v = 0; v < f->nk; v++) {
      int L = inst_levels(g, &f->k[v]);
      if (L > ii) {
        char fu[16];
        char where[64];
        snprintf(where, sizeof where, "processor class %d, %s", c, isa_fu_format(&x->arch, f->fu, fu, sizeof fu));
        return fit_nofit(&x->fit, msg, msgsz, FIT_RES_BRANCH, "pe.branch_targets", L, ii, where,
                         "%s: a kernel needs %d branch levels for %d targets with pe.branch_targets %d, but has "
                         "%d slots",
                         where, L, 1 << f->k[v].nsig, x->arch.branch_targets, ii);
      }
      g->pcs[u * f->nk + v] = pc;
      if (!u) f->k[v].pc = pc;
      pc += f->k[v].tail_len > 0 ? ii - f->k[v].tail_len
                                 : inst_node_size(g->bits, ii, f->k[v].nsig, L) - f->k[v].pre_len;
      if (L)
        for (int e = 0; e < f->ne; e++) need_halt |= f->e[e].from == v && f->e[e].to < 0;
    }
  if (need_halt) g->halt_pc = pc++;
  f->halt_late = need_halt;
  *words = pc;
  return INST_OK;
}

/* Returns the successors of word i of n in out (NEXT: i + 1, n past the
 * end) in t; their number. */
static int inst_word_succ(const isa_insn *out, int n, int i, int *t) {
  const isa_insn *in = &out[i];
  (void)n;
  switch (in->br) {
  case ISA_BR_NEXT: t[0] = i + 1; return 1;
  case ISA_BR_GOTO: t[0] = in->target[0]; return 1;
  case ISA_BR_COND:
    for (int u = 0; u < 1 << in->nsel; u++) t[u] = in->target[u];
    return 1 << in->nsel;
  default: return 0;
  }
}

/* Returns 1 when words a and b agree in everything but their targets
 * (NEXT and GOTO both count as a jump). */
static int inst_word_same(const isa_insn *a, const isa_insn *b) {
  isa_insn x = *a, y = *b;
  if (x.br == ISA_BR_NEXT) x.br = ISA_BR_GOTO;
  if (y.br == ISA_BR_NEXT) y.br = ISA_BR_GOTO;
  memset(x.target, 0, sizeof x.target);
  memset(y.target, 0, sizeof y.target);
  return x.op == y.op && x.dst.cls == y.dst.cls && x.dst.idx == y.dst.idx && x.odmask == y.odmask &&
         !memcmp(x.src, y.src, sizeof x.src) && x.imm == y.imm && x.br == y.br && x.nsel == y.nsel &&
         !memcmp(x.sel, y.sel, sizeof x.sel);
}

/* Returns 0 after giving every word of out[0..n-1] its class in cls, the
 * coarsest partition in which words of a class have the same instruction
 * and branch and targets in the same classes (Moore's refinement: equal
 * classes behave the same from there on); -1 on memory failure. */
static int inst_word_classes(const isa_insn *out, int n, int *cls) {
  int *nc = malloc((size_t)n * sizeof *nc);
  if (!nc) return -1;
  int k = 0;
  for (int i = 0; i < n; i++) {
    cls[i] = -1;
    for (int j = 0; j < i && cls[i] < 0; j++)
      if (inst_word_same(&out[i], &out[j])) cls[i] = cls[j];
    if (cls[i] < 0) cls[i] = k++;
  }
  for (;;) {
    int k2 = 0;
    for (int i = 0; i < n; i++) {
      nc[i] = -1;
      int ti[ISA_MAX_TARGETS], tj[ISA_MAX_TARGETS];
      int ni = inst_word_succ(out, n, i, ti);
      for (int j = 0; j < i && nc[i] < 0; j++) {
        if (cls[j] != cls[i]) continue;
        int nj = inst_word_succ(out, n, j, tj), same = ni == nj;
        for (int u = 0; u < ni && same; u++)
          same = ti[u] < n && tj[u] < n ? cls[ti[u]] == cls[tj[u]] : ti[u] == tj[u];
        if (same) nc[i] = nc[j];
      }
      if (nc[i] < 0) nc[i] = k2++;
    }
    memcpy(cls, nc, (size_t)n * sizeof *cls);
    if (k2 == k) break;
    k = k2;
  }
  free(nc);
  return 0;
}

/* Returns 0 after giving every word of g->out its class in cls
 * (inst_word_classes; rep: scratch of n ints). After the prolog loop its
 * signal cP is 0 (inst_gc_ones), so kernel code sees the loop's last word
 * `nop ; br cP ? L0 : L<pi>` as `nop ; goto L<pi>`: the classes are those of
 * the words with that one replaced, so that a kernel's `nop ; goto L<pi>`
 * (a start kernel's last slot, as a nops prolog's last word is) is shared
 * with it, as it would be with the nops. Kept only when every prolog word
 * stays the first of its class (the loop's branch is never dropped); else
 * the classes of the words as they are. -1 on memory failure. */
static int inst_gen_classes(const inst_gen *g, int *cls, int *rep) {
  int n = g->n, pw = inst_prolog_words(g->x);
  if (!g->x->prolog_loop || pw >= n) return inst_word_classes(g->out, n, cls);
  isa_insn *w = malloc((size_t)n * sizeof *w);
  if (!w) return -1;
  memcpy(w, g->out, (size_t)n * sizeof *w);
  isa_insn *b = &w[pw - 1];
  b->br = ISA_BR_NEXT;
  b->nsel = 0;
  memset(b->sel, 0, sizeof b->sel);
  memset(b->target, 0, sizeof b->target);
  int st = inst_word_classes(w, n, cls), own = 1;
  free(w);
  if (st) return st;
  for (int i = 0; i < n; i++) rep[i] = -1;
  for (int i = 0; i < n; i++)
    if (rep[cls[i]] < 0) rep[cls[i]] = i;
  for (int i = 0; i < pw; i++) own &= rep[cls[i]] == i;
  return own ? 0 : inst_word_classes(g->out, n, cls);
}

/* Returns 0 after removing every word that behaves like an earlier one
 * (inst_word_classes): references go to the earlier word, a `next` that no
 * longer reaches its successor becomes a `goto` (and a `goto` to the word
 * that now follows a `next`); node pcs follow. -1 on memory failure. */
static int inst_gen_dedupe(inst_gen *g) {
  int n = g->n;
  for (int i = 0; i < n; i++) {
    /* a `br` whose targets are all one word is a jump */
    isa_insn *in = &g->out[i];
    if (in->br != ISA_BR_COND) continue;
    int same = 1;
    for (int u = 1; u < 1 << in->nsel; u++) same &= in->target[u] == in->target[0];
    if (!same) continue;
    int to = in->target[0];
    in->nsel = 0;
    memset(in->sel, 0, sizeof in->sel);
    memset(in->target, 0, sizeof in->target);
    in->br = to == i + 1 ? ISA_BR_NEXT : ISA_BR_GOTO;
    if (in->br == ISA_BR_GOTO) in->target[0] = (uint16_t)to;
  }
  if (n < 2 || g->out[n - 1].br == ISA_BR_NEXT) return 0;
  int *cls = malloc((size_t)n * sizeof *cls), *rep = malloc((size_t)n * sizeof *rep);
  int *np = malloc((size_t)n * sizeof *np);
  if (!cls || !rep || !np || inst_gen_classes(g, cls, rep)) {
    free(cls);
    free(rep);
    free(np);
    return -1;
  }
  for (int i = 0; i < n; i++) rep[i] = -1;
  int m = 0;
  for (int i = 0; i < n; i++)
    if (rep[cls[i]] < 0) {
      rep[cls[i]] = i;
      np[i] = m++;
    }
  for (int i = 0; i < n; i++) np[i] = np[rep[cls[i]]];
  int w = 0;
  for (int i = 0; i < n; i++) {
    if (rep[cls[i]] != i) continue;
    isa_insn in = g->out[i];
    int t[ISA_MAX_TARGETS];
    int nt = inst_word_succ(g->out, n, i, t);
    if (in.br == ISA_BR_NEXT || in.br == ISA_BR_GOTO) {
      int to = np[t[0]];
      in.br = to == w + 1 ? ISA_BR_NEXT : ISA_BR_GOTO;
      in.target[0] = (uint16_t)(in.br == ISA_BR_GOTO ? to : 0);
    } else if (in.br == ISA_BR_COND)
      for (int u = 0; u < nt; u++) in.target[u] = (uint16_t)np[t[u]];
    g->out[w++] = in;
  }
  for (int v = 0; v < g->f->nk; v++) g->f->k[v].pc = np[g->f->k[v].pc];
  g->n = w;
  free(cls);
  free(rep);
  free(np);
  return 0;
}

/* Returns the cycles word in occupies: 1 + IMM for a `nop` (a `nop N`
 * waits N cycles, docs/isa.md), 1 for every other word. */
static int64_t inst_word_cycles(const isa_insn *in) {
  return in->op == ISA_OP_NOP ? 1 + (int64_t)(uint32_t)in->imm : 1;
}

/* Returns 0 after replacing every run of `nop ; next` words, together with
 * the `nop` that ends it (with its branch), by one `nop N` word of the
 * run's cycles (docs/isa.md: N cycles, the branch evaluated in the last),
 * where no word after the first of the run is a branch target; targets,
 * `next`s and node pcs follow (a node whose first word joins a run gets
 * the run's word). -1 on memory failure. */
static int inst_gen_waits(inst_gen *g) {
  int n = g->n;
  char *entered = calloc((size_t)n + 1, 1);
  int *np = malloc(((size_t)n + 1) * sizeof *np);
  if (!entered || !np) {
    free(entered);
    free(np);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    int t[ISA_MAX_TARGETS];
    const isa_insn *in = &g->out[i];
    if (in->br != ISA_BR_GOTO && in->br != ISA_BR_COND) continue;
    int nt = inst_word_succ(g->out, n, i, t);
    for (int u = 0; u < nt; u++)
      if (t[u] >= 0 && t[u] <= n) entered[t[u]] = 1;
  }
  int w = -1;
  int64_t cycles = 0;
  for (int i = 0; i < n; i++) {
    const isa_insn *in = &g->out[i];
    int joins = w >= 0 && in->op == ISA_OP_NOP && g->out[i - 1].op == ISA_OP_NOP &&
                g->out[i - 1].br == ISA_BR_NEXT && !entered[i] &&
                g->out[w].op == ISA_OP_NOP && cycles + inst_word_cycles(in) <= INST_NOP_MAX_CYCLES;
    if (joins) {
      cycles += inst_word_cycles(in);
      isa_insn run = *in;
      run.imm = (int32_t)(uint32_t)(cycles - 1);
      g->out[w] = run;
    } else {
      g->out[++w] = *in;
      cycles = inst_word_cycles(in);
    }
    np[i] = w;
  }
  np[n] = w + 1;
  for (int i = 0; i <= w; i++) {
    isa_insn *in = &g->out[i];
    if (in->br == ISA_BR_GOTO) in->target[0] = (uint16_t)np[in->target[0]];
    if (in->br == ISA_BR_COND)
      for (int u = 0; u < 1 << in->nsel; u++) in->target[u] = (uint16_t)np[in->target[u]];
  }
  for (int v = 0; v < g->f->nk; v++) g->f->k[v].pc = np[g->f->k[v].pc];
  g->n = w + 1;
  free(entered);
  free(np);
  return 0;
}

/* Returns INST_OK when the n words of f fit pe.imem, INST_ERR_NOFIT
 * otherwise, after adding to x->fit the item naming instruction memory,
 * class c, the FU, the words needed and pe.imem (inst_proggen gathers
 * one per unit over, then formats the message). */
static int inst_gen_fit(const inst_gen *g, int c, int n) {
  inst *x = g->x;
  if (n <= x->arch.imem) return INST_OK;
  char fu[16];
  char why[160] = "";
  if (x->sigma > 1 && !x->prolog_loop && x->prolog_why != INST_PROLOG_OFF && x->prolog_why != INST_PROLOG_WAIT)
    snprintf(why, sizeof why, " (a prolog of %d nops: %s for the prolog loop)", x->sigma * x->m->ii,
             x->prolog_why == INST_PROLOG_TERMS ? "the GC has no term left (2 x gc.signals)"
             : x->arch.branch_targets < 2    ? "pe.branch_targets < 2"
                                             : "no control signal left (gc.signals)");
  char where[64];
  snprintf(where, sizeof where, "processor class %d, %s", c, isa_fu_format(&x->arch, g->f->fu, fu, sizeof fu));
  fit_record_add(&x->fit, FIT_RES_IMEM, "pe.imem", n, x->arch.imem, where,
                 "instruction memory: %s: the program needs %d instruction words%s%s, pe.imem is %d", where, n,
                 g->unroll > 1 ? " (unrolled for rotating registers)" : "", why, x->arch.imem);
  return INST_ERR_NOFIT;
}

/* Returns INST_OK after emitting the words (pc of them) and encoding and
 * checking every instruction into f->words. */
static int inst_gen_words(inst_gen *g, int c, int pc, char *msg, size_t msgsz) {
  inst *x = g->x;
  inst_fuprog *f = g->f;
  isa_insn nop;
  memset(&nop, 0, sizeof nop);
  int bad = 0, np = inst_prolog_words(x);
  for (int s = 0; s < np; s++) {
    isa_insn in = nop;
    if (x->prolog_loop && s == np - 1) {
      in.br = ISA_BR_COND;
      in.nsel = 1;
      in.sel[0] = (uint8_t)x->prolog_sig;
      in.target[0] = (uint16_t)np; /* cP = 0: the first kernel */
      in.target[1] = 0;            /* cP = 1: the block again */
    }
    bad |= inst_put(g, &in);
  }
  for (g->copy = 0; g->copy < g->unroll; g->copy++)
    for (int v = 0; v < f->nk && !bad; v++) bad |= inst_emit_node(g, v);
  if (g->halt_pc >= 0 && !bad) {
    isa_insn h = nop;
    h.br = ISA_BR_HALT;
    bad |= inst_put(g, &h);
  }
  if (bad || g->n != pc || inst_gen_dedupe(g) || (!x->opt.no_waits && inst_gen_waits(g))) {
    free(g->out);
    snprintf(msg, msgsz, "program generation failed (layout %d words, emitted %d)", pc, g->n);
    return INST_ERR_INTERNAL;
  }
  int st = inst_gen_fit(g, c, g->n);
  if (st) {
    free(g->out);
    return st;
  }
  f->nwords = g->n;
  f->insns = g->out;
  f->words = calloc((size_t)g->n, sizeof *f->words);
  if (!f->words) return INST_ERR_INTERNAL;
  isa_fu_class cls = isa_fu_class_of(&x->arch, f->fu);
  for (int i = 0; i < g->n; i++) {
    char why[256];
    if (isa_encode(&g->out[i], &f->words[i]) ||
        isa_insn_check(&g->out[i], cls, &x->arch, why, sizeof why)) {
      char txt[128], fu[16];
      isa_insn_format(&g->out[i], txt, sizeof txt);
      char where[64];
      snprintf(where, sizeof where, "processor class %d, %s", c, isa_fu_format(&x->arch, f->fu, fu, sizeof fu));
      return fit_nofit(&x->fit, msg, msgsz, FIT_RES_ENCODING, "", -1, -1, where, "%s, word %d '%s': %s", where, i,
                       txt, why);
    }
  }
  return INST_OK;
}

/* Returns INST_OK after generating the program of f in class c. */
static int inst_gen_fu(inst *x, int c, inst_fuprog *f, char *msg, size_t msgsz) {
  inst_gen g = {x, f, NULL, 0, 0, -1, 0, inst_uses_tuple(x->m, f) ? inst_unroll(x->m) : 1, 0, NULL};
  g.bits = inst_sel_bits(x->arch.branch_targets);
  f->nwords_orig = x->sigma * x->m->ii + g.unroll * f->body_orig + f->halt_orig;
  g.pcs = malloc((size_t)(g.unroll * f->nk) * sizeof *g.pcs + 1);
  if (!g.pcs) return INST_ERR_INTERNAL;
  int pc = 0;
  int st = inst_gen_layout(&g, c, &pc, msg, msgsz);
  if (!st) st = inst_gen_words(&g, c, pc, msg, msgsz);
  free(g.pcs);
  return st;
}

int inst_proggen(inst *x, char *msg, size_t msgsz) {
  fit_record_clear(&x->fit);
  int over = 0; /* units over pe.imem so far: each adds its item, the others are still generated */
  for (int c = 0; c < x->npc; c++)
    for (int f = 0; f < x->nfu; f++) {
      inst_fuprog *fp = &x->pc[c].fp[f];
      if (fp->empty) continue;
      int st = inst_gen_fu(x, c, fp, msg, msgsz);
      if (st == INST_ERR_NOFIT && fit_record_only(&x->fit, (const fit_resource[]){FIT_RES_IMEM}, 1)) {
        over++;
        continue;
      }
      if (st) return st;
    }
  if (!over) return INST_OK;
  if (over > x->fit.n)
    snprintf(x->fit.note, sizeof x->fit.note, " (%d units over pe.imem, %d named)", over, x->fit.n);
  fit_record_format(&x->fit, msg, msgsz);
  return INST_ERR_NOFIT;
}
