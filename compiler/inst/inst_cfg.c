/*
 * inst_cfg.c: control-flow graphs (Algorithm 3). One node per kernel
 * class; an edge Q_i -> Q_j where control passes from a kernel of Q_i to
 * one of Q_j, annotated with its transition space T. Unlike the paper,
 * which annotates the iteration entered (Q_j n succ(Q_i, 1)), T here holds
 * the iterations in which the branch is *taken*, Q_i n succ^-1(Q_j, 1):
 * in timing.md the branch in the last slot of the kernel of step s reads
 * the control signals of step s, so that is where the signal must say
 * where to go. An iteration of Q_i without a successor in the program
 * domain (the last one) gets an edge to -1, "halt": a node whose only
 * edge is that one ends in `halt`; a node that also continues branches to
 * a `nop ; halt` word (inst_proggen.c).
 *
 * After each CFG is built, its size without reductions is recorded (for the
 * listing) and kernel classes with identical code are merged
 * (inst_merge.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "inst.h"

/* Returns 0 after appending edge (from, to, t) to f (takes t). */
static int inst_edge_add(inst_fuprog *f, int from, int to, __isl_take isl_set *t, int *cap) {
  if (f->ne == *cap) {
    *cap = *cap ? 2 * *cap : 8;
    inst_edge *ne = realloc(f->e, (size_t)*cap * sizeof *ne);
    if (!ne) {
      isl_set_free(t);
      return -1;
    }
    f->e = ne;
  }
  f->e[f->ne].from = from;
  f->e[f->ne].to = to;
  f->e[f->ne].t = t;
  f->ne++;
  return 0;
}

/* Returns INST_OK after building the CFG of FU program f. */
static int inst_cfg_fu(const inst *x, inst_fuprog *f) {
  int cap = 0;
  isl_set **pred = malloc((size_t)f->nk * sizeof *pred);
  if (!pred) return INST_ERR_INTERNAL;
  for (int j = 0; j < f->nk; j++) pred[j] = inst_succ(x, isl_set_copy(f->k[j].q), -1);
  isl_set *haspred = inst_succ(x, isl_set_copy(f->dom), -1);
  int st = INST_OK;
  for (int i = 0; i < f->nk && !st; i++) {
    for (int j = 0; j < f->nk && !st; j++) {
      isl_set *t = isl_set_coalesce(isl_set_intersect(isl_set_copy(f->k[i].q), isl_set_copy(pred[j])));
      if (isl_set_is_empty(t) == isl_bool_false) {
        if (inst_edge_add(f, i, j, t, &cap)) st = INST_ERR_INTERNAL;
      } else
        isl_set_free(t);
    }
    isl_set *h = isl_set_coalesce(isl_set_subtract(isl_set_copy(f->k[i].q), isl_set_copy(haspred)));
    if (isl_set_is_empty(h) == isl_bool_false) {
      if (inst_edge_add(f, i, -1, h, &cap)) st = INST_ERR_INTERNAL;
    } else
      isl_set_free(h);
  }
  for (int j = 0; j < f->nk; j++) isl_set_free(pred[j]);
  free(pred);
  isl_set_free(haspred);
  return st;
}

/* Records in f the size of the unmerged program (nk_orig, body_orig,
 * halt_orig: the words Algorithm 4 with out-degree reduction gives one copy
 * of its kernels, and whether it needs the `nop ; halt` word). */
static void inst_cfg_size(const inst *x, inst_fuprog *f) {
  f->nk_orig = f->nk;
  f->body_orig = 0;
  f->halt_orig = 0;
  for (int v = 0; v < f->nk; v++) {
    int d = 0, halt = 0;
    for (int e = 0; e < f->ne; e++)
      if (f->e[e].from == v) {
        d++;
        halt |= f->e[e].to < 0;
      }
    f->body_orig += inst_node_words(x->m->ii, x->arch.branch_targets, d);
    if (d > 1 && halt) f->halt_orig = 1;
  }
}

int inst_cfg(inst *x, char *msg, size_t msgsz) {
  const map_config *m = x->m;
  int *fold = malloc((size_t)(m->nops + 1) * sizeof *fold);
  if (!fold) return INST_ERR_INTERNAL;
  for (int i = 0; i < m->nops; i++) fold[i] = m->ops[i].tau / m->ii;
  int st = INST_OK;
  for (int c = 0; c < x->npc && !st; c++)
    for (int f = 0; f < x->nfu && !st; f++) {
      inst_fuprog *fp = &x->pc[c].fp[f];
      if (fp->empty) continue;
      st = inst_cfg_fu(x, fp);
      if (st) break;
      inst_cfg_size(x, fp);
      if (inst_merge_fu(fp, m->ii, fold) < 0) {
        snprintf(msg, msgsz, "merging the kernel classes failed (isl)");
        st = INST_ERR_INTERNAL;
      }
    }
  free(fold);
  return st;
}
