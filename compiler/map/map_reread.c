/*
 * map_reread.c: inputs read again instead of propagated (docs/symbolic.md,
 * "Re-reading propagated inputs").
 *
 * A program localises a broadcast input by propagation: conv's
 *   w[o,r,c,..] = wgt[o,ci,kr,kc]     if (r == 0 and c == 0);
 *   w[o,r,c,..] = w[o,r,c-1,..]       if (c >= 1);
 *   w[o,r,c,..] = w[o,r-1,c,..]       if (r >= 1 and c == 0);
 * Each propagation equation costs an fd (or a channel) per PE. When every
 * equation of a variable v but one is a plain copy v[I] = v[I - d] and the
 * one left reads an input element, v = in[f(I)], with an affine index map
 * f whose coefficients vanish along every such d (C d = 0, so f(I - d) =
 * f(I)), then by induction along the copies v[I] = in[f(I)] wherever v is
 * defined: each copy equation may read the input itself. map_reread_build
 * returns that program (a shallow copy of the original sharing everything
 * but the equations array and the new right-hand sides); its RDG maps
 * the variable to one `mov` of the input over the union of the spaces (one
 * access, no fd, no channel), at the price of a bank access in every
 * iteration that reads it. map.c maps it only when the program as written
 * does not fit (on a 2-D region an inner PE reads inputs through the
 * interconnect, which propagation avoids).
 */
#include <stdlib.h>
#include <string.h>

#include "map.h"

/* Returns 1 when equation q is a copy v[I] = v[I + off] of its own
 * variable whose offset leaves the index map of input expression in
 * unchanged (sum_d idx[r].index[d] * off[d] = 0 for every index r). */
static int map_reread_copy_ok(const ast_program *p, const ast_eq *q, const ast_expr *in) {
  const ast_expr *x = q->rhs;
  if (!x || x->kind != AST_EXPR_VAR || x->var != q->var) return 0;
  int nonzero = 0;
  for (int d = 0; d < AST_MAX_DIMS; d++) nonzero |= x->off[d] != 0;
  if (!nonzero) return 0;
  for (int r = 0; r < p->arrays[in->array].ndims; r++) {
    int64_t s = 0;
    for (int d = 0; d < p->ndims && d < AST_MAX_DIMS; d++) s += in->idx[r].index[d] * x->off[d];
    if (s) return 0;
  }
  return 1;
}

/* Returns the equation of variable v that reads an input element when
 * every other equation of v is a copy it allows (map_reread_copy_ok) and
 * there is at least one, else -1. */
static int map_reread_root(const ast_program *p, int v) {
  int root = -1, copies = 0;
  for (int e = 0; e < p->neqs; e++) {
    const ast_eq *q = &p->eqs[e];
    if (q->is_out || q->var != v) continue;
    if (q->rhs && q->rhs->kind == AST_EXPR_IN) {
      if (root >= 0) return -1;
      root = e;
    }
  }
  if (root < 0) return -1;
  for (int e = 0; e < p->neqs; e++) {
    const ast_eq *q = &p->eqs[e];
    if (q->is_out || q->var != v || e == root) continue;
    if (!map_reread_copy_ok(p, q, p->eqs[root].rhs)) return -1;
    copies++;
  }
  return copies ? root : -1;
}

map_reread *map_reread_build(const ast_program *p) {
  map_reread *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->prog = *p;
  r->prog.eqs = malloc((size_t)(p->neqs + 1) * sizeof *r->prog.eqs);
  r->exprs = calloc((size_t)p->neqs + 1, sizeof *r->exprs);
  if (!r->prog.eqs || !r->exprs) goto fail;
  memcpy(r->prog.eqs, p->eqs, (size_t)p->neqs * sizeof *p->eqs);
  for (int v = 0; v < p->nvars; v++) {
    int root = map_reread_root(p, v);
    if (root < 0) continue;
    for (int e = 0; e < p->neqs; e++) {
      ast_eq *q = &r->prog.eqs[e];
      if (q->is_out || q->var != v || e == root) continue;
      ast_expr *x = malloc(sizeof *x);
      if (!x) goto fail;
      *x = *p->eqs[root].rhs;
      x->loc = q->rhs->loc;
      q->rhs = x;
      r->exprs[r->nexprs++] = x;
    }
    r->nvars++;
  }
  if (!r->nvars) goto fail;
  return r;
fail:
  map_reread_free(r);
  return NULL;
}

void map_reread_free(map_reread *r) {
  if (!r) return;
  for (int i = 0; i < r->nexprs; i++) free(r->exprs[i]);
  free(r->exprs);
  free(r->prog.eqs);
  if (r->g) rdg_free(r->g);
  free(r);
}
