/*
 * inst_signals.c: control-signal allocation (section 6.2). A CFG node v with
 * deg+(v) = d > 1 outgoing edges (the halt edge counts) needs N_v =
 * ceil(log2 d) local partial signals, the bits of the branch index. Each
 * edge gets a *cube* of indices (a code with don't-care bits; the cubes of
 * one node are disjoint), the paper's assignments c[e] in {0,1,-}^N_v:
 * local signal b of v is 1 on the transition spaces of the edges whose cube
 * has bit b = 1, 0 on those with bit b = 0, don't-care elsewhere (and on
 * the edges where bit b is a don't-care). Indices no cube holds are never
 * selected; the branch still names a target for them (the first edge).
 * kclass.tgt[index] records the edge each index leads to.
 *
 * Two local signals interfere when some J has them defined and different.
 * The interference graph is coloured greedily (nodes in CFG order; each
 * signal takes the first colour it does not interfere with; a colour is
 * kept as the union of its members' one- and zero-sets, which is
 * equivalent). The cube assignment of a node is chosen before its signals
 * are coloured: among the assignments tried (for N_v <= 2 every disjoint
 * cube assignment, e.g. 2 for two edges, 18 for three; for larger N_v the
 * plain numbering with every bit polarity) the one whose signals need the
 * fewest new colours, then the most don't-cares, then the plain numbering,
 * wins. Each colour is a global signal of the GC; its one-set (with the
 * zero-set as the care set) becomes the GC terms in inst_emit.c. More
 * colours than gc.signals: does not fit. Polarity (inst_signals_polarity,
 * once sigma is known): a colour whose zeros take fewer terms than its
 * ones is inverted, with the target tables of the nodes branching on it.
 *
 * The prolog (inst_prolog, after the I/O placement fixes sigma): a program
 * whose kernels start sigma >= 2 steps late loops on one pi-word block of
 * nops while a signal of its own is 1 (GC steps 0..sigma-2) and falls into
 * its first kernel in step sigma-1, instead of sigma * pi nops. No kernel
 * signal is defined in those steps (kernel signals run sigma steps late),
 * so it needs no colouring, only a free signal and one GC term. With
 * multi-cycle nops (docs/isa.md, `nop N`) the sigma * pi nops are one word
 * and no loop is made; the loop is kept for --no-waits.
 */
#include <stdlib.h>
#include <string.h>

#include "inst.h"

#define INST_SIG_MAXE 16 /* edges of a node whose assignment is searched */

/* Colours so far: per colour, its sets per processor class. by_class 0:
 * a signal joins a colour only where it agrees with every class's part
 * (the colour is one function of J on every PE); 1: where it agrees with
 * its own class's part, a colour agreeing with every class preferred. */
typedef struct {
  inst_signal *col;
  int n, cap, npc, by_class;
} inst_colours;

/* One node's outgoing edges and the assignment being tried. */
typedef struct {
  const inst_fuprog *f;
  int d, nb;                 /* edges, index bits */
  int eidx[INST_SIG_MAXE];   /* the edges' numbers in f->e */
  int val[INST_SIG_MAXE];    /* cube of edge i: indices c with (c & ~mask) == val */
  int mask[INST_SIG_MAXE];
  int best_val[INST_SIG_MAXE], best_mask[INST_SIG_MAXE];
  long best_cost;
  signed char fits[1 << 10]; /* cache: (ones edges, zeros edges) -> fits a colour; -1 unknown */
  const inst_colours *cs;
  int cls;                   /* the processor class of f */
} inst_assign;

/* Returns 1 when (ones, zeros) of processor class c can join colour g (no
 * J defined in both with different values on class c; the GC terms tell
 * the classes apart by PE ranges, so other classes' parts never clash). */
static int inst_sig_fits1(const inst_signal *g, int c, __isl_keep isl_set *ones, __isl_keep isl_set *zeros) {
  if (!g->ones[c]) return 1;
  isl_set *a = isl_set_intersect(isl_set_copy(ones), isl_set_copy(g->zeros[c]));
  isl_set *b = isl_set_intersect(isl_set_copy(zeros), isl_set_copy(g->ones[c]));
  int ok = isl_set_is_empty(a) == isl_bool_true && isl_set_is_empty(b) == isl_bool_true;
  isl_set_free(a);
  isl_set_free(b);
  return ok;
}

/* Returns 1 when (ones, zeros) of class c can join colour g: with
 * by_class, where it agrees with class c's part; else where it agrees
 * with every class's part. */
static int inst_sig_fits(const inst_colours *cs, int g, int c, __isl_keep isl_set *ones, __isl_keep isl_set *zeros) {
  if (cs->by_class) return inst_sig_fits1(&cs->col[g], c, ones, zeros);
  for (int d = 0; d < cs->npc; d++)
    if (!inst_sig_fits1(&cs->col[g], d, ones, zeros)) return 0;
  return 1;
}

/* Returns the colour given to local signal (ones, zeros) (taken) of
 * processor class c, growing the colour list; -1 on memory failure. */
static int inst_sig_colour(inst_colours *cs, int c, __isl_take isl_set *ones, __isl_take isl_set *zeros) {
  int g = 0, by = cs->by_class;
  cs->by_class = 0;
  while (g < cs->n && !inst_sig_fits(cs, g, c, ones, zeros)) g++;
  cs->by_class = by;
  if (g == cs->n && by)
    for (g = 0; g < cs->n && !inst_sig_fits(cs, g, c, ones, zeros);) g++;
  if (g == cs->n) {
    if (cs->n == cs->cap) {
      cs->cap = cs->cap ? 2 * cs->cap : 8;
      inst_signal *nc = realloc(cs->col, (size_t)cs->cap * sizeof *nc);
      if (!nc) cs->cap = cs->n;
      else cs->col = nc;
    }
    isl_set **o = cs->n < cs->cap ? calloc((size_t)cs->npc, sizeof *o) : NULL;
    isl_set **z = o ? calloc((size_t)cs->npc, sizeof *z) : NULL;
    if (!z) {
      free(o);
      isl_set_free(ones);
      isl_set_free(zeros);
      return -1;
    }
    cs->col[cs->n++] = (inst_signal){o, z, NULL, NULL};
  }
  inst_signal *col = &cs->col[g];
  if (!col->ones_all) {
    col->ones_all = isl_set_copy(ones);
    col->zeros_all = isl_set_copy(zeros);
  } else {
    col->ones_all = isl_set_coalesce(isl_set_union(col->ones_all, isl_set_copy(ones)));
    col->zeros_all = isl_set_coalesce(isl_set_union(col->zeros_all, isl_set_copy(zeros)));
  }
  if (!col->ones[c]) {
    col->ones[c] = ones;
    col->zeros[c] = zeros;
  } else {
    col->ones[c] = isl_set_coalesce(isl_set_union(col->ones[c], ones));
    col->zeros[c] = isl_set_coalesce(isl_set_union(col->zeros[c], zeros));
  }
  return g;
}

/* Returns the edge masks (bit i: edge i) on which bit b of the current
 * assignment is 1 (*om) and 0 (*zm). */
static void inst_sig_masks(const inst_assign *a, const int *val, const int *mask, int b, int *om, int *zm) {
  *om = *zm = 0;
  for (int i = 0; i < a->d; i++) {
    if (mask[i] >> b & 1) continue;
    if (val[i] >> b & 1) *om |= 1 << i;
    else *zm |= 1 << i;
  }
}

/* Returns the local signal with one-edges om and zero-edges zm as
 * (ones, zeros) over the node's transition spaces. */
static void inst_sig_sets(const inst_assign *a, int om, int zm, isl_set **ones, isl_set **zeros) {
  *ones = isl_set_empty(isl_set_get_space(a->f->dom));
  *zeros = isl_set_empty(isl_set_get_space(a->f->dom));
  for (int i = 0; i < a->d; i++) {
    isl_set *t = a->f->e[a->eidx[i]].t;
    if (om >> i & 1) *ones = isl_set_union(*ones, isl_set_copy(t));
    if (zm >> i & 1) *zeros = isl_set_union(*zeros, isl_set_copy(t));
  }
  *ones = isl_set_coalesce(*ones);
  *zeros = isl_set_coalesce(*zeros);
}

/* Returns 1 when the signal with edges (om, zm) fits some existing colour
 * (cached when the masks are small enough). */
static int inst_sig_fits_any(inst_assign *a, int om, int zm) {
  int key = a->d <= 5 ? om << a->d | zm : -1;
  if (key >= 0 && a->fits[key] >= 0) return a->fits[key];
  isl_set *ones, *zeros;
  inst_sig_sets(a, om, zm, &ones, &zeros);
  int ok = 0;
  for (int g = 0; g < a->cs->n && !ok; g++) ok = inst_sig_fits(a->cs, g, a->cls, ones, zeros);
  isl_set_free(ones);
  isl_set_free(zeros);
  if (key >= 0) a->fits[key] = (signed char)ok;
  return ok;
}

/* Records the current assignment (a->val, a->mask) when it beats the best:
 * fewer bits needing a new colour, then more don't-cares. */
static void inst_sig_try(inst_assign *a) {
  long cost = 0;
  for (int b = 0; b < a->nb; b++) {
    int om, zm;
    inst_sig_masks(a, a->val, a->mask, b, &om, &zm);
    cost += 1000L * !inst_sig_fits_any(a, om, zm) + __builtin_popcount((unsigned)(om | zm));
  }
  if (cost < a->best_cost) {
    a->best_cost = cost;
    memcpy(a->best_val, a->val, sizeof a->val);
    memcpy(a->best_mask, a->mask, sizeof a->mask);
  }
}

/* Tries every assignment of disjoint cubes to edges i.. (used: indices
 * taken so far, as a bit set over the 1 << nb indices). */
static void inst_sig_cubes(inst_assign *a, int i, unsigned used) {
  if (i == a->d) {
    inst_sig_try(a);
    return;
  }
  int nc = 1 << a->nb;
  for (int mask = 0; mask < nc; mask++)
    for (int val = 0; val < nc; val++) {
      if (val & mask) continue;
      unsigned cube = 0;
      for (int c = 0; c < nc; c++)
        if ((c & ~mask) == val) cube |= 1u << c;
      if (cube & used) continue;
      a->val[i] = val;
      a->mask[i] = mask;
      inst_sig_cubes(a, i + 1, used | cube);
    }
}

/* Chooses the cube assignment of node v of f (a->d edges) against the
 * colours cs; fills k->tgt. */
static void inst_sig_assign(inst_assign *a, inst_kclass *k) {
  memset(a->fits, -1, sizeof a->fits);
  a->best_cost = -1UL >> 1;
  /* the plain numbering first, so that it wins ties */
  for (int i = 0; i < a->d; i++) {
    a->val[i] = i;
    a->mask[i] = 0;
  }
  inst_sig_try(a);
  if (a->nb <= 2) inst_sig_cubes(a, 0, 0);
  else
    for (int flip = 1; flip < 1 << a->nb; flip++) {
      for (int i = 0; i < a->d; i++) a->val[i] = i ^ flip;
      inst_sig_try(a);
    }
  int nc = 1 << a->nb;
  for (int c = 0; c < nc; c++) {
    k->tgt[c] = 0;
    for (int i = 0; i < a->d; i++)
      if ((c & ~a->best_mask[i]) == a->best_val[i]) k->tgt[c] = (uint8_t)i;
  }
}

/* Returns INST_OK after choosing the assignment of node v of f and
 * colouring its local signals into cs; INST_ERR_NOFIT (msg) for a node
 * with too many edges. */
static int inst_sig_node(inst *x, inst_colours *cs, int cls, inst_fuprog *f, int v, inst_assign *a,
                         char *msg, size_t msgsz) {
  inst_kclass *k = &f->k[v];
  int d = 0;
  for (int e = 0; e < f->ne; e++) d += f->e[e].from == v;
  int nb = 0;
  while ((1 << nb) < d) nb++;
  k->nsig = nb;
  memset(k->tgt, 0, sizeof k->tgt);
  if (nb == 0) return INST_OK;
  if (nb > 8 || d > INST_SIG_MAXE) {
    return fit_nofit(&x->fit, msg, msgsz, FIT_RES_CFG, "", d, INST_SIG_MAXE, "",
                     "a CFG node has %d successors (at most %d)", d, INST_SIG_MAXE);
  }
  a->f = f;
  a->d = d;
  a->nb = nb;
  a->cs = cs;
  a->cls = cls;
  for (int e = 0, i = 0; e < f->ne; e++)
    if (f->e[e].from == v) a->eidx[i++] = e;
  inst_sig_assign(a, k);
  for (int b = 0; b < nb; b++) {
    int om, zm;
    inst_sig_masks(a, a->best_val, a->best_mask, b, &om, &zm);
    isl_set *ones, *zeros;
    inst_sig_sets(a, om, zm, &ones, &zeros);
    int g = inst_sig_colour(cs, cls, ones, zeros);
    if (g < 0) return INST_ERR_INTERNAL;
    k->sig[b] = g;
  }
  (void)x;
  return INST_OK;
}

/* Returns the host of a node entering at slot ii - m, searched from x (as
 * inst_merge.c: the first node of the chain whose own words hold it). */
static int inst_sig_host(const inst_fuprog *f, int x, int m) {
  for (int guard = 0; f->k[x].tail_len > 0 && f->k[x].tail_len >= m && guard <= f->nk; guard++)
    x = f->k[x].tail_of;
  return x;
}

/* Returns the words node k saves when its runs of nops become `nop N`
 * words (inst_proggen.c): each nop slot after a nop slot, from its own
 * first word (slot pre_len) to its first branching word (slot ii - L),
 * the words behind that being entered by branches. */
static int inst_sig_wait_saving(const inst_kclass *k, int ii, int L) {
  int saved = 0;
  for (int s = k->pre_len + 1; s <= ii - (L > 0 ? L : 1); s++)
    saved += k->slot[s].op == ISA_OP_NOP && k->slot[s - 1].op == ISA_OP_NOP;
  return saved;
}

/* Returns the words of one copy of program f's kernels (with the `nop ;
 * halt` word) for the tails set in f->k, its edges taken as leaving the
 * root of their source; -1 when a root needs more branch levels than a
 * node entering it leaves it (or than ii). */
static int inst_sig_words(const inst *x, const inst_fuprog *f) {
  int ii = x->m->ii, bt = x->arch.branch_targets, words = 0, halt = 0, nk = f->nk;
  int bits = 0;
  while ((2 << bits) <= bt) bits++;
  if (bits < 1) bits = 1;
  int *root = malloc((size_t)nk * sizeof *root), *deg = calloc((size_t)nk, sizeof *deg);
  char *hasl = calloc((size_t)nk, 1), *pair = calloc((size_t)nk * (size_t)(nk + 1), 1);
  if (!root || !deg || !hasl || !pair) words = -1;
  for (int v = 0; words >= 0 && v < nk; v++) root[v] = inst_merge_root(f, v);
  for (int e = 0; words >= 0 && e < f->ne; e++) {
    /* distinct (root, target) pairs are the roots' edges */
    int r = root[f->e[e].from];
    char *pr = &pair[(size_t)r * (size_t)(nk + 1) + (size_t)(f->e[e].to + 1)];
    if (*pr) continue;
    *pr = 1;
    deg[r]++;
    hasl[r] |= f->e[e].to < 0;
  }
  for (int r = 0; words >= 0 && r < nk; r++) {
    if (f->k[r].tail_len > 0) {
      words += ii - f->k[r].tail_len;
      continue;
    }
    int nb = 0;
    while ((1 << nb) < deg[r]) nb++;
    int L = (nb + bits - 1) / bits, bad = L > ii;
    for (int v = 0; v < nk && !bad; v++)
      bad = f->k[v].tail_len > 0 && f->k[v].tail_of == r && f->k[v].tail_len < L;
    if (bad) {
      words = -1;
      break;
    }
    words += inst_node_words(ii, bt, deg[r]) - f->k[r].pre_len;
    if (!x->opt.no_waits && !x->opt.waits_blind) words -= inst_sig_wait_saving(&f->k[r], ii, L);
    halt |= deg[r] > 1 && hasl[r];
  }
  free(root);
  free(deg);
  free(hasl);
  free(pair);
  return words < 0 ? -1 : words + halt;
}

static int inst_sig_prefix(const inst *x, inst_fuprog *f, const int *fold, int budget);

/* Returns the words the tail of v shared with w over m slots would leave
 * (-1: not valid); f is unchanged afterwards. */
static int inst_sig_try_tail(const inst *x, inst_fuprog *f, int v, int w, int m, int *tl) {
  for (int y = 0; y < f->nk; y++) {
    tl[2 * y] = f->k[y].tail_of;
    tl[2 * y + 1] = f->k[y].tail_len;
  }
  f->k[v].tail_of = inst_sig_host(f, w, m);
  f->k[v].tail_len = m;
  for (int y = 0; y < f->nk; y++)
    if (f->k[y].tail_len > 0) f->k[y].tail_of = inst_sig_host(f, f->k[y].tail_of, f->k[y].tail_len);
  int words = inst_sig_words(x, f);
  for (int y = 0; y < f->nk; y++) {
    f->k[y].tail_of = tl[2 * y];
    f->k[y].tail_len = tl[2 * y + 1];
  }
  return words;
}

/* Returns INST_OK after sharing kernel tails in program f while it needs
 * more than pe.imem words (prolog included): each round applies the share
 * that saves the most words (inst_merge_tail). Programs that fit are left
 * alone, so shared tails never cost signals where they are not needed
 * (inst_opts.share_all shares in every program, to test the
 * transformation on programs that fit anyway). */
static int inst_sig_share(const inst *x, inst_fuprog *f, const int *fold) {
  int ii = x->m->ii, lo = 0;
  for (int a = 0; a < x->m->naccess; a++)
    if (x->m->access[a].offset < lo) lo = x->m->access[a].offset;
  int sigma = (-lo + ii - 1) / ii;                      /* sigma as inst_run.c computes it in 1-D */
  int budget = x->arch.imem - (x->opt.no_waits ? (sigma > 1 ? 1 : sigma) * ii : 1); /* the prolog as inst_prolog makes it */
  if (x->opt.share_all) budget = 0;                     /* testing: share wherever it saves words */
  int *tl = malloc((size_t)(2 * f->nk + 1) * sizeof *tl);
  if (!tl) return INST_ERR_INTERNAL;
  int st = INST_OK;
  for (int cur = inst_sig_words(x, f); cur > budget && !st;) {
    int best = cur, bv = -1, bw = -1, bm = 0;
    for (int v = 0; v < f->nk; v++) {
      if (f->k[v].tail_len > 0) continue;
      for (int w = 0; w < f->nk; w++) {
        if (w == v || inst_merge_root(f, w) == v) continue;
        int m = inst_merge_suffix(f, v, w, ii, fold);
        if (m < 1 || m >= ii) continue;
        int words = inst_sig_try_tail(x, f, v, w, m, tl);
        if (words >= 0 && words < best) {
          best = words;
          bv = v;
          bw = w;
          bm = m;
        }
      }
    }
    if (bv < 0) break;
    if (inst_merge_tail(f, bv, bw, bm)) st = INST_ERR_INTERNAL;
    cur = best;
  }
  free(tl);
  if (!st) st = inst_sig_prefix(x, f, fold, budget);
  return st;
}

/* Returns the outgoing edges of node v of f. */
static int inst_sig_degree(const inst_fuprog *f, int v) {
  int d = 0;
  for (int e = 0; e < f->ne; e++) d += f->e[e].from == v;
  return d;
}

/* Returns the branch levels a node with d edges needs. */
static int inst_sig_levels(const inst *x, int d) {
  int bits = 0, nb = 0;
  while ((2 << bits) <= x->arch.branch_targets) bits++;
  if (bits < 1) bits = 1;
  while ((1 << nb) < d) nb++;
  return (nb + bits - 1) / bits;
}

/* Returns 1 when node u's step runs the word of slot s of node w: u is w,
 * u shares w's first words beyond s, or u's tail chain enters w at a slot
 * <= s. */
static int inst_sig_passes(const inst *x, const inst_fuprog *f, int u, int w, int s) {
  if (u == w) return 1;
  if (f->k[u].pre_len > 0) return f->k[u].pre_of == w && f->k[u].pre_len > s;
  for (int y = u, guard = 0; f->k[y].tail_len > 0 && guard <= f->nk; guard++) {
    int entry = x->m->ii - f->k[y].tail_len;
    y = f->k[y].tail_of;
    if (y == w) return entry <= s;
  }
  return 0;
}

/* Returns 1 when node v may run the first p slots of node w's words and
 * branch away after them (see inst_sig_prefix). */
static int inst_sig_prefix_ok(const inst *x, const inst_fuprog *f, int v, int w, int p) {
  int ii = x->m->ii;
  if (v == w || v == 0 || p < 1 || p >= ii) return 0;
  if (f->k[v].pre_len || f->k[v].tail_len || f->k[w].pre_len || f->k[w].tail_len) return 0;
  for (int y = 0; y < f->nk; y++) {
    if (f->k[y].tail_len > 0 && f->k[y].tail_of == v) return 0;
    if (f->k[y].pre_len > 0 && (f->k[y].pre_of == v || (f->k[y].pre_of == w && f->k[y].pre_len == p))) return 0;
  }
  if (inst_sig_levels(x, inst_sig_degree(f, v)) > ii - p) return 0;
  return p - 1 < ii - inst_sig_levels(x, inst_sig_degree(f, w));
}

/* Returns INST_OK after sharing kernel prefixes in program f while it
 * needs more than `budget` words: node v whose first p slots equal node
 * w's runs w's first p words; w's word of slot p - 1 branches to v's own
 * words on a signal that is 1 in v's iterations (and 0 in those of every
 * other node running that word), edges into v enter w. Each round takes
 * the longest prefix. */
static int inst_sig_prefix(const inst *x, inst_fuprog *f, const int *fold, int budget) {
  for (int cur = inst_sig_words(x, f); cur > budget;) {
    int bv = -1, bw = -1, bp = 0;
    for (int v = 0; v < f->nk; v++)
      for (int w = 0; w < f->nk; w++) {
        int p = v == w ? 0 : inst_merge_prefix(f, v, w, x->m->ii, fold);
        if (p > bp && inst_sig_prefix_ok(x, f, v, w, p)) {
          bv = v;
          bw = w;
          bp = p;
        }
      }
    if (bv < 0) break;
    f->k[bv].pre_of = bw;
    f->k[bv].pre_len = bp;
    cur = inst_sig_words(x, f);
  }
  return INST_OK;
}

/* Returns INST_OK after colouring the local signal of every shared prefix
 * of f (1 on the sharer's iterations, 0 on those of the other nodes that
 * run the branching word). */
static int inst_sig_prefix_signals(inst *x, inst_colours *cs, int cls, inst_fuprog *f) {
  for (int v = 0; v < f->nk; v++) {
    inst_kclass *k = &f->k[v];
    if (k->pre_len <= 0) continue;
    isl_set *ones = isl_set_copy(k->q);
    isl_set *zeros = isl_set_empty(isl_set_get_space(f->dom));
    for (int u = 0; u < f->nk; u++)
      if (u != v && inst_sig_passes(x, f, u, k->pre_of, k->pre_len - 1))
        zeros = isl_set_union(zeros, isl_set_copy(f->k[u].q));
    int g = inst_sig_colour(cs, cls, ones, isl_set_coalesce(zeros));
    if (g < 0) return INST_ERR_INTERNAL;
    k->pre_sig = g;
    x->nlocal++;
  }
  return INST_OK;
}

/* Returns the processor class whose signals take the most colours (*n of
 * them): first fit gives each class a prefix of the colours, so the count
 * is the largest class's (docs/instantiate.md "Control signals and the
 * loop bounds"). */
static int inst_sig_widest(const inst_colours *cs, int *n) {
  int best = 0;
  *n = 0;
  for (int c = 0; c < cs->npc; c++) {
    int m = 0;
    for (int g = 0; g < cs->n; g++)
      if (cs->col[g].ones[c]) m = g + 1;
    if (m > *n) *n = m, best = c;
  }
  return best;
}

/* Returns INST_OK after colouring the local signals of every FU program
 * into cs (its colours and their assignments replace any earlier ones). */
static int inst_sig_colour_all(inst *x, inst_colours *cs, char *msg, size_t msgsz) {
  int st = INST_OK;
  inst_assign *a = malloc(sizeof *a);
  if (!a) return INST_ERR_INTERNAL;
  for (int g = 0; g < cs->n; g++) inst_signal_free(x, &cs->col[g]);
  cs->n = 0;
  x->nlocal = 0;
  for (int c = 0; c < x->npc && !st; c++)
    for (int f = 0; f < x->nfu && !st; f++) {
      inst_fuprog *fp = &x->pc[c].fp[f];
      if (fp->empty) continue;
      for (int v = 0; v < fp->nk && !st; v++) {
        st = inst_sig_node(x, cs, c, fp, v, a, msg, msgsz);
        x->nlocal += fp->k[v].nsig;
      }
      if (!st) st = inst_sig_prefix_signals(x, cs, c, fp);
    }
  free(a);
  return st;
}

int inst_signals(inst *x, char *msg, size_t msgsz) {
  inst_colours cs = {NULL, 0, 0, x->npc, 0};
  int *fold = malloc((size_t)(x->m->nops + 1) * sizeof *fold);
  int st = fold ? INST_OK : INST_ERR_INTERNAL;
  for (int i = 0; fold && i < x->m->nops; i++) fold[i] = x->m->ops[i].tau / x->m->ii;
  for (int c = 0; c < x->npc && !st; c++)
    for (int f = 0; f < x->nfu && !st; f++)
      if (!x->pc[c].fp[f].empty) st = inst_sig_share(x, &x->pc[c].fp[f], fold);
  free(fold);
  x->shared = !st;
  /* per processor class, the terms telling the classes apart by PE ranges
   * (docs/instantiate.md "Control signals and the loop bounds"); with
   * opt.sig_global every colour one function of J on all PEs */
  cs.by_class = !x->opt.sig_global && x->npc > 1;
  x->sig_by_class = cs.by_class;
  if (!st) st = inst_sig_colour_all(x, &cs, msg, msgsz);
  if (!st && cs.n > x->arch.gc_signals) {
    int n, c = inst_sig_widest(&cs, &n);
    st = fit_nofit(&x->fit, msg, msgsz, FIT_RES_SIGNALS, "gc.signals", cs.n, x->arch.gc_signals, "",
                   "control signals: %d needed (greedy colouring of %d local signals; processor class %d needs "
                   "%d), gc.signals is %d",
                   cs.n, x->nlocal, c, n, x->arch.gc_signals);
  }
  for (int g = 0; g < cs.n; g++) {
    if (!st && g < ISA_MAX_SIGNALS) {
      x->sig[g] = cs.col[g];
      continue;
    }
    inst_signal_free(x, &cs.col[g]);
  }
  if (!st) x->nsig = cs.n;
  free(cs.col);
  return st;
}

/* Returns 1 when a node of some program enters a shared prefix on signal
 * s (its branch has fixed targets per value, inst_proggen.c). */
static int inst_sig_is_prefix(const inst *x, int s) {
  for (int c = 0; c < x->npc; c++)
    for (int f = 0; x->pc[c].fp && f < x->nfu; f++)
      for (int v = 0; v < x->pc[c].fp[f].nk; v++)
        if (x->pc[c].fp[f].k[v].pre_len > 0 && x->pc[c].fp[f].k[v].pre_sig == s) return 1;
  return 0;
}

/* Inverts signal s: swaps its ones and zeros, and in every node whose
 * index bit b is s the target of index i with that of i ^ (1 << b). */
static void inst_sig_flip(inst *x, int s) {
  inst_signal *g = &x->sig[s];
  for (int c = 0; g->ones && g->zeros && c < x->npc; c++) {
    isl_set *t = g->ones[c];
    g->ones[c] = g->zeros[c];
    g->zeros[c] = t;
  }
  isl_set *t = g->ones_all;
  g->ones_all = g->zeros_all;
  g->zeros_all = t;
  for (int c = 0; c < x->npc; c++)
    for (int f = 0; x->pc[c].fp && f < x->nfu; f++)
      for (int v = 0; v < x->pc[c].fp[f].nk; v++) {
        inst_kclass *k = &x->pc[c].fp[f].k[v];
        for (int b = 0; b < k->nsig; b++) {
          if (k->sig[b] != s) continue;
          for (int i = 0; i < 1 << k->nsig; i++)
            if (!(i & 1 << b)) {
              uint8_t u = k->tgt[i];
              k->tgt[i] = k->tgt[i | 1 << b];
              k->tgt[i | 1 << b] = u;
            }
        }
      }
}

int inst_signals_polarity(inst *x) {
  for (int s = 0; s < x->nsig; s++) {
    if (!x->sig[s].ones || !x->sig[s].zeros || inst_sig_is_prefix(x, s)) continue;
    int n1 = inst_gc_sig_nterms(x, s);
    if (n1 <= 1) continue;
    inst_sig_flip(x, s);
    int n0 = inst_gc_sig_nterms(x, s);
    if (n0 < 0 || n0 >= n1) inst_sig_flip(x, s);
  }
  return INST_OK;
}

int inst_prolog_words(const inst *x) { return (x->prolog_loop ? 1 : x->sigma) * x->m->ii; }

int inst_prolog(inst *x, char *msg, size_t msgsz) {
  x->prolog_loop = 0;
  x->prolog_sig = -1;
  x->prolog_why = 0;
  if (x->sigma <= 1) return INST_OK; /* sigma * pi nops are no larger than the loop */
  if (x->opt.prolog_nops || !x->opt.no_waits) { /* nops: one `nop N` word with waits; else testing */
    x->prolog_why = x->opt.no_waits ? INST_PROLOG_OFF : INST_PROLOG_WAIT;
    return INST_OK;
  }
  if (x->nsig >= x->arch.gc_signals || x->nsig >= ISA_MAX_SIGNALS || x->arch.branch_targets < 2) {
    x->prolog_why = INST_PROLOG_NOSIG;
    return INST_OK;
  }
  /* over GC steps: 1 in steps 0 .. sigma - 2 (loop), 0 in step sigma - 1,
   * the same on every processor class */
  isl_set *ones = inst_ext_domain(x, x->sigma - 1);
  isl_set *zeros = isl_set_coalesce(isl_set_subtract(inst_ext_domain(x, x->sigma), isl_set_copy(ones)));
  inst_signal sg = {calloc((size_t)x->npc, sizeof(isl_set *)), calloc((size_t)x->npc, sizeof(isl_set *)), NULL, NULL};
  for (int c = 0; sg.ones && sg.zeros && c < x->npc; c++) {
    sg.ones[c] = isl_set_copy(ones);
    sg.zeros[c] = isl_set_copy(zeros);
  }
  int bad = !ones || !zeros || !sg.ones || !sg.zeros;
  sg.ones_all = ones;
  sg.zeros_all = zeros;
  if (bad) {
    inst_signal_free(x, &sg);
    snprintf(msg, msgsz, "prolog loop: the signal's sets could not be built");
    return INST_ERR_INTERNAL;
  }
  int g = x->nsig++;
  x->sig[g] = sg;
  x->prolog_loop = 1;
  x->prolog_sig = g;
  int nt = inst_gc_nterms(x);
  if (nt >= 0 && nt <= STREAM_GC_MAX_TERMS(&x->arch)) return INST_OK;
  /* the GC cannot carry one more term: back to the nops */
  x->nsig--;
  inst_signal_free(x, &x->sig[g]);
  x->prolog_loop = 0;
  x->prolog_sig = -1;
  x->prolog_why = INST_PROLOG_TERMS;
  return INST_OK;
}
