/*
 * inst_signals.c: control-signal allocation (section 6.2). A CFG node v with
 * deg+(v) > 1 outgoing edges (the halt edge counts) numbers them 0..d-1 and
 * needs N_v = ceil(log2 d) local partial signals: signal b of v is 1 on the
 * transition spaces of the edges whose number has bit b set, 0 on those of
 * the others, don't-care elsewhere. Two local signals interfere when some J
 * has them defined and different. The interference graph is coloured
 * greedily (signals in CFG order, first colour that does not interfere with
 * everything already in it; a colour is kept as the union of its members'
 * one- and zero-sets, which is equivalent). Each colour is a global signal
 * of the GC; its one-set (with the zero-set as the care set) becomes the GC
 * terms in inst_periph.c. More colours than gc.signals: does not fit.
 */
#include <stdlib.h>

#include "inst.h"

/* Returns 1 when (ones, zeros) can join colour g (no J defined in both with
 * different values). */
static int inst_sig_fits(const inst_signal *g, __isl_keep isl_set *ones, __isl_keep isl_set *zeros) {
  isl_set *a = isl_set_intersect(isl_set_copy(ones), isl_set_copy(g->zeros));
  isl_set *b = isl_set_intersect(isl_set_copy(zeros), isl_set_copy(g->ones));
  int ok = isl_set_is_empty(a) == isl_bool_true && isl_set_is_empty(b) == isl_bool_true;
  isl_set_free(a);
  isl_set_free(b);
  return ok;
}

/* Returns the colour given to local signal (ones, zeros) (taken), growing
 * the colour list; -1 on memory failure. */
static int inst_sig_colour(inst_signal **col, int *n, int *cap, __isl_take isl_set *ones,
                           __isl_take isl_set *zeros) {
  for (int g = 0; g < *n; g++)
    if (inst_sig_fits(&(*col)[g], ones, zeros)) {
      (*col)[g].ones = isl_set_coalesce(isl_set_union((*col)[g].ones, ones));
      (*col)[g].zeros = isl_set_coalesce(isl_set_union((*col)[g].zeros, zeros));
      return g;
    }
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 8;
    inst_signal *nc = realloc(*col, (size_t)*cap * sizeof *nc);
    if (!nc) {
      isl_set_free(ones);
      isl_set_free(zeros);
      return -1;
    }
    *col = nc;
  }
  (*col)[*n].ones = ones;
  (*col)[*n].zeros = zeros;
  return (*n)++;
}

/* Returns the local signal b of node v of f as (ones, zeros). */
static void inst_sig_local(const inst *x, const inst_fuprog *f, int v, int b, isl_set **ones,
                           isl_set **zeros) {
  *ones = isl_set_empty(isl_set_get_space(f->dom));
  *zeros = isl_set_empty(isl_set_get_space(f->dom));
  (void)x;
  int i = 0;
  for (int e = 0; e < f->ne; e++) {
    if (f->e[e].from != v) continue;
    if (i >> b & 1) *ones = isl_set_union(*ones, isl_set_copy(f->e[e].t));
    else *zeros = isl_set_union(*zeros, isl_set_copy(f->e[e].t));
    i++;
  }
  *ones = isl_set_coalesce(*ones);
  *zeros = isl_set_coalesce(*zeros);
}

int inst_signals(inst *x, char *msg, size_t msgsz) {
  inst_signal *col = NULL;
  int n = 0, cap = 0, st = INST_OK;
  x->nlocal = 0;
  for (int c = 0; c < x->npc && !st; c++)
    for (int f = 0; f < x->nfu && !st; f++) {
      inst_fuprog *fp = &x->pc[c].fp[f];
      if (fp->empty) continue;
      for (int v = 0; v < fp->nk && !st; v++) {
        int d = 0;
        for (int e = 0; e < fp->ne; e++) d += fp->e[e].from == v;
        int nb = 0;
        while ((1 << nb) < d) nb++;
        if (nb > 8) {
          snprintf(msg, msgsz, "a CFG node has %d successors", d);
          st = INST_ERR_NOFIT;
          break;
        }
        fp->k[v].nsig = nb;
        for (int b = 0; b < nb; b++) {
          isl_set *ones, *zeros;
          inst_sig_local(x, fp, v, b, &ones, &zeros);
          int g = inst_sig_colour(&col, &n, &cap, ones, zeros);
          if (g < 0) {
            st = INST_ERR_INTERNAL;
            break;
          }
          fp->k[v].sig[b] = g;
          x->nlocal++;
        }
      }
    }
  if (!st && n > x->arch.gc_signals) {
    snprintf(msg, msgsz,
             "control signals: %d needed (greedy colouring of %d local signals), gc.signals is %d", n,
             x->nlocal, x->arch.gc_signals);
    st = INST_ERR_NOFIT;
  }
  for (int g = 0; g < n; g++) {
    if (!st && g < ISA_MAX_SIGNALS) {
      x->sig[g] = col[g];
      continue;
    }
    isl_set_free(col[g].ones);
    isl_set_free(col[g].zeros);
  }
  if (!st) x->nsig = n;
  free(col);
  return st;
}
