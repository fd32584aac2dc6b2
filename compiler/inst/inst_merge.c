/*
 * inst_merge.c: merging of kernel classes with identical code (a size
 * reduction between Algorithm 3 and control-signal allocation,
 * docs/instantiate.md "Merging kernel classes").
 *
 * Two kernel classes of one FU program whose kernels are word for word the
 * same (the ii functional instructions; the branch parts are not yet
 * generated) differ only in where control goes after them. They become one
 * CFG node: its iteration set is the union of theirs (disjoint, since the
 * kernel classes partition the program domain), its outgoing edges the
 * union of theirs, each keeping its transition space; two edges that now
 * join the same pair of nodes become one with the union of the transition
 * spaces. In every iteration J exactly one node holds J and exactly one of
 * its edges holds J (or none, at the end), as before, so the program runs
 * the same kernels in the same steps; the branch of the merged node selects
 * the successor with control signals like any other (inst_signals.c,
 * inst_proggen.c).
 *
 * Code equality is fixed (merging never changes a kernel), so grouping the
 * kernel classes by code in one pass is the fixpoint of merging pairs until
 * no two merge. Besides the instructions, each slot's fold distance
 * floor(tau / ii) must agree: modulo variable expansion renames the tuple
 * operands of a slot by it (inst_proggen.c). The merged node keeps the
 * position of its member with the first iteration (the start node stays
 * first), and nodes stay sorted by first iteration.
 *
 * Shared tails (inst_merge_tail, chosen by inst_signals.c for programs
 * that exceed pe.imem): when the last m slots of kernels v and w are equal,
 * v keeps only its first ii - m words and continues (goto) in w's words at
 * slot ii - m; w's chain ends in a root node whose last word branches for
 * all of them, so v's edges move to that root (the iteration sets stay
 * apart: each edge keeps its transition space, and the signals tell the
 * iterations of v from those of w as for a merged node). A node's words
 * are slots 0 .. ii - tail_len - 1; the host of a node is the first node of
 * its chain whose own words contain the slot it enters at.
 */
#include <stdlib.h>

#include "inst.h"

/* Returns 1 when the functional parts of instructions a and b are equal
 * (the branch parts of kernels are all `next`). */
static int inst_merge_insn_eq(const isa_insn *a, const isa_insn *b) {
  if (a->op != b->op || a->odmask != b->odmask || a->imm != b->imm) return 0;
  if (a->dst.cls != b->dst.cls || a->dst.idx != b->dst.idx) return 0;
  for (int i = 0; i < 3; i++)
    if (a->src[i].cls != b->src[i].cls || a->src[i].idx != b->src[i].idx) return 0;
  return a->br == b->br;
}

/* Returns 1 when kernel classes a and b have identical kernels. */
static int inst_merge_same(const inst_kclass *a, const inst_kclass *b, int ii, const int *fold) {
  for (int s = 0; s < ii; s++) {
    if (!inst_merge_insn_eq(&a->slot[s], &b->slot[s])) return 0;
    int fa = a->op[s] < 0 || !fold ? -1 : fold[a->op[s]];
    int fb = b->op[s] < 0 || !fold ? -1 : fold[b->op[s]];
    if ((a->op[s] < 0) != (b->op[s] < 0) || fa != fb) return 0;
  }
  return 1;
}

/* Returns the index of edge (from, to) in e[0..n-1], -1 when absent. */
static int inst_merge_find(const inst_edge *e, int n, int from, int to) {
  for (int i = 0; i < n; i++)
    if (e[i].from == from && e[i].to == to) return i;
  return -1;
}

/* Returns the order of edges a and b: by source, then target, halt last. */
static int inst_merge_edge_cmp(const void *pa, const void *pb) {
  const inst_edge *a = pa, *b = pb;
  if (a->from != b->from) return a->from < b->from ? -1 : 1;
  unsigned ta = (unsigned)a->to, tb = (unsigned)b->to; /* -1 (halt) sorts last */
  return ta < tb ? -1 : ta > tb;
}

/* Returns 0 after rewriting the edges of f through the node map nm (old
 * node -> new node; the targets too when `targets`), joining parallel
 * edges; -1 on error. */
static int inst_merge_edges(inst_fuprog *f, const int *nm, int targets) {
  inst_edge *ne = malloc((size_t)(f->ne ? f->ne : 1) * sizeof *ne);
  if (!ne) return -1;
  int n = 0, bad = 0;
  for (int i = 0; i < f->ne; i++) {
    int from = nm[f->e[i].from], to = f->e[i].to < 0 || !targets ? f->e[i].to : nm[f->e[i].to];
    int at = inst_merge_find(ne, n, from, to);
    if (at < 0) {
      ne[n].from = from;
      ne[n].to = to;
      ne[n].t = f->e[i].t;
      n++;
    } else {
      ne[at].t = isl_set_coalesce(isl_set_union(ne[at].t, f->e[i].t));
      bad |= !ne[at].t;
    }
  }
  free(f->e);
  qsort(ne, (size_t)n, sizeof *ne, inst_merge_edge_cmp);
  f->e = ne;
  f->ne = n;
  return bad ? -1 : 0;
}

/* Returns 0 after replacing the kernel classes of f by one per group
 * (rep[i]: the first class with the code of class i); nm receives the map
 * from old to new node numbers. -1 on error. */
static int inst_merge_nodes(inst_fuprog *f, const int *rep, int *nm) {
  int n = 0;
  for (int i = 0; i < f->nk; i++)
    if (rep[i] == i) nm[i] = n++;
  for (int i = 0; i < f->nk; i++) nm[i] = nm[rep[i]];
  inst_kclass *nk = calloc((size_t)n, sizeof *nk);
  if (!nk) return -1;
  int bad = 0;
  for (int i = 0; i < f->nk; i++) {
    inst_kclass *k = &f->k[i], *d = &nk[nm[i]];
    if (rep[i] == i) {
      *d = *k;
      continue;
    }
    d->q = isl_set_coalesce(isl_set_union(d->q, k->q));
    bad |= !d->q;
    if (k->first < d->first) d->first = k->first;
    free(k->slot);
    free(k->op);
  }
  free(f->k);
  f->k = nk;
  f->nk = n;
  return bad ? -1 : 0;
}

int inst_merge_fu(inst_fuprog *f, int ii, const int *fold) {
  if (f->empty || f->nk < 2) return 0;
  int *rep = malloc((size_t)f->nk * sizeof *rep);
  int *nm = malloc((size_t)f->nk * sizeof *nm);
  if (!rep || !nm) {
    free(rep);
    free(nm);
    return -1;
  }
  int merged = 0;
  for (int i = 0; i < f->nk; i++) {
    rep[i] = i;
    for (int j = 0; j < i && rep[i] == i; j++)
      if (rep[j] == j && inst_merge_same(&f->k[i], &f->k[j], ii, fold)) rep[i] = j;
    merged += rep[i] != i;
  }
  int st = 0;
  if (merged) {
    st = inst_merge_nodes(f, rep, nm);
    if (!st) st = inst_merge_edges(f, nm, 1);
  }
  free(rep);
  free(nm);
  return st ? -1 : merged;
}

int inst_merge_suffix(const inst_fuprog *f, int v, int w, int ii, const int *fold) {
  const inst_kclass *a = &f->k[v], *b = &f->k[w];
  int m = 0;
  for (int s = ii - 1; s >= 0; s--, m++) {
    if (!inst_merge_insn_eq(&a->slot[s], &b->slot[s])) break;
    if ((a->op[s] < 0) != (b->op[s] < 0)) break;
    if (fold && a->op[s] >= 0 && fold[a->op[s]] != fold[b->op[s]]) break;
  }
  return m;
}

int inst_merge_root(const inst_fuprog *f, int v) {
  for (int guard = 0; f->k[v].tail_len > 0 && guard <= f->nk; guard++) v = f->k[v].tail_of;
  return v;
}

/* Returns the host of a node that needs the words from slot ii - m on,
 * starting the search at node x: the first node of x's chain whose own
 * words (slots below ii - tail_len) reach that slot. */
static int inst_merge_host(const inst_fuprog *f, int x, int m) {
  for (int guard = 0; f->k[x].tail_len > 0 && f->k[x].tail_len >= m && guard <= f->nk; guard++)
    x = f->k[x].tail_of;
  return x;
}

int inst_merge_tail(inst_fuprog *f, int v, int w, int m) {
  if (v == w || inst_merge_root(f, w) == v || f->k[v].tail_len > 0 || m < 1) return -1;
  f->k[v].tail_of = inst_merge_host(f, w, m);
  f->k[v].tail_len = m;
  for (int y = 0; y < f->nk; y++)
    if (f->k[y].tail_len > 0) f->k[y].tail_of = inst_merge_host(f, f->k[y].tail_of, f->k[y].tail_len);
  int *nm = malloc((size_t)f->nk * sizeof *nm);
  if (!nm) return -1;
  for (int y = 0; y < f->nk; y++) nm[y] = y;
  nm[v] = inst_merge_root(f, v); /* v's edges leave from the root; edges into v still enter v */
  int st = inst_merge_edges(f, nm, 0);
  free(nm);
  return st;
}

int inst_merge_prefix(const inst_fuprog *f, int v, int w, int ii, const int *fold) {
  const inst_kclass *a = &f->k[v], *b = &f->k[w];
  int p = 0;
  for (int s = 0; s < ii; s++, p++) {
    if (!inst_merge_insn_eq(&a->slot[s], &b->slot[s])) break;
    if ((a->op[s] < 0) != (b->op[s] < 0)) break;
    if (fold && a->op[s] >= 0 && fold[a->op[s]] != fold[b->op[s]]) break;
  }
  return p;
}
