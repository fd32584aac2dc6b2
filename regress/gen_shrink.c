/*
 * gen_shrink.c: the one-step simplifications of a generated program
 * (gen_program.h, docs/fuzz.md "Random programs"), from which the runner
 * (gen_run.c) shrinks a failing program while the failure persists, as
 * C-Reduce does for C.
 *
 * Simplification k of a program is, in this order: delete output k
 * (another remains); delete variable v (its uses become the literal 1);
 * delete a guarded piece of a variable; drop a split; make the two
 * equations of an output one; make the last dimension go (offsets, reads
 * and outputs lose it; a use whose only non-zero component was there
 * becomes a literal); make a triangular dimension rectangular; lower a
 * parameter's value or its minimum; and for every expression node: replace
 * it by its first, second or third operand, by 0 or by 1. Each keeps the
 * invariants of gen_program.h (so the program stays valid: conditions are
 * derived at print time) and lowers gp_program_size.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_program.h"

enum { GP_SHRINK_NODE_WAYS = 5 };

/* Frees expression e (also in gen_program.c; kept static per file). */
static void gs_expr_free(gp_expr *e) {
  if (!e) return;
  gs_expr_free(e->a), gs_expr_free(e->b), gs_expr_free(e->c);
  free(e);
}

/* Returns the weight of e: 1 for the literal 0, 2 for the literal 1, 3
 * for any other node, summed over the tree (a node replaced by an operand
 * or a literal weighs less). */
static long gs_expr_size(const gp_expr *e) {
  if (!e) return 0;
  long w = e->kind != GP_E_CONST ? 3 : e->val == 0 ? 1 : e->val == 1 ? 2 : 3;
  return w + gs_expr_size(e->a) + gs_expr_size(e->b) + gs_expr_size(e->c);
}

long gp_program_size(const gp_program *p) {
  long s = 10L * p->ndims + 8L * p->nvars + 8L * p->noutputs;
  for (int d = 0; d < p->ndims; d++) s += p->dim[d].kind != GP_DIM_RECT;
  for (int q = 0; q < p->nparams; q++) s += p->pval[q] + p->pmin[q];
  for (int v = 0; v < p->nvars; v++)
    for (int k = 0; k < p->var[v].npieces; k++)
      s += 4 + p->var[v].has_split[k] + gs_expr_size(p->var[v].piece[k].e);
  for (int o = 0; o < p->noutputs; o++)
    for (int t = 0; t < p->out[o].nsplit; t++) s += 4 + gs_expr_size(p->out[o].e[t]);
  return s;
}

/* Collects into slots[] (when not NULL) the address of every expression
 * node of p, in a fixed order; returns their number. */
static int gs_nodes(gp_program *p, gp_expr ***slots);

/* Adds e's node slots to slots[] from *n, pre-order. */
static void gs_nodes_expr(gp_expr **e, gp_expr ***slots, int *n) {
  if (!*e) return;
  if (slots) slots[*n] = e;
  (*n)++;
  gs_nodes_expr(&(*e)->a, slots, n);
  gs_nodes_expr(&(*e)->b, slots, n);
  gs_nodes_expr(&(*e)->c, slots, n);
}

static int gs_nodes(gp_program *p, gp_expr ***slots) {
  int n = 0;
  for (int v = 0; v < p->nvars; v++)
    for (int k = 0; k < p->var[v].npieces; k++) gs_nodes_expr(&p->var[v].piece[k].e, slots, &n);
  for (int o = 0; o < p->noutputs; o++)
    for (int t = 0; t < p->out[o].nsplit; t++) gs_nodes_expr(&p->out[o].e[t], slots, &n);
  return n;
}

/* The counts of the structural simplifications, in order. */
static int gs_structural(const gp_program *p, int *counts) {
  counts[0] = GP_MAX_OUTPUTS;                   /* delete output */
  counts[1] = GP_MAX_VARS;                      /* delete variable */
  counts[2] = GP_MAX_VARS * GP_MAX_PIECES;      /* delete piece */
  counts[3] = GP_MAX_VARS * GP_MAX_PIECES;      /* drop split */
  counts[4] = GP_MAX_OUTPUTS;                   /* one output equation */
  counts[5] = 1;                                /* drop the last dimension */
  counts[6] = GP_MAX_DIMS;                      /* rectangular dimension */
  counts[7] = GP_MAX_PARAMS;                    /* lower a value */
  counts[8] = GP_MAX_PARAMS;                    /* lower a minimum */
  (void)p;
  int s = 0;
  for (int t = 0; t < 9; t++) s += counts[t];
  return s;
}

int gp_shrink_count(const gp_program *p) {
  int counts[9];
  return gs_structural(p, counts) + GP_SHRINK_NODE_WAYS * gs_nodes((gp_program *)p, NULL);
}

/* Replaces, in e, every use of variable v by the literal 1 and renumbers
 * the uses of later variables. */
static void gs_var_unuse(gp_expr **e, int v) {
  if (!*e) return;
  if ((*e)->kind == GP_E_VAR && (*e)->ref == v) {
    gs_expr_free(*e);
    *e = calloc(1, sizeof **e);
    if (!*e) abort();
    (*e)->kind = GP_E_CONST, (*e)->val = 1;
    return;
  }
  if ((*e)->kind == GP_E_VAR && (*e)->ref > v) (*e)->ref--;
  gs_var_unuse(&(*e)->a, v), gs_var_unuse(&(*e)->b, v), gs_var_unuse(&(*e)->c, v);
}

/* Applies f to every expression slot of p (equations' roots). */
static void gs_roots_each(gp_program *p, void (*f)(gp_expr **, int), int arg) {
  for (int v = 0; v < p->nvars; v++)
    for (int k = 0; k < p->var[v].npieces; k++) f(&p->var[v].piece[k].e, arg);
  for (int o = 0; o < p->noutputs; o++)
    for (int t = 0; t < p->out[o].nsplit; t++) f(&p->out[o].e[t], arg);
}

/* Returns 0 after deleting variable v. */
static int gs_var_delete(gp_program *p, int v) {
  if (v >= p->nvars || p->nvars < 2) return -1;
  for (int k = 0; k < p->var[v].npieces; k++) gs_expr_free(p->var[v].piece[k].e);
  memmove(&p->var[v], &p->var[v + 1], sizeof p->var[0] * (size_t)(p->nvars - v - 1));
  p->nvars--;
  gs_roots_each(p, gs_var_unuse, v);
  return 0;
}

/* Returns 0 after deleting output o. */
static int gs_output_delete(gp_program *p, int o) {
  if (o >= p->noutputs || p->noutputs < 2) return -1;
  for (int t = 0; t < p->out[o].nsplit; t++) gs_expr_free(p->out[o].e[t]);
  memmove(&p->out[o], &p->out[o + 1], sizeof p->out[0] * (size_t)(p->noutputs - o - 1));
  p->noutputs--;
  return 0;
}

/* Returns 0 after deleting guarded piece k of variable v. */
static int gs_piece_delete(gp_program *p, int v, int k) {
  if (v >= p->nvars) return -1;
  gp_var *var = &p->var[v];
  if (k >= var->npieces - 1) return -1; /* the last piece stays */
  gs_expr_free(var->piece[k].e);
  for (int t = k; t < var->npieces - 1; t++) {
    var->piece[t] = var->piece[t + 1];
    var->split[t] = var->split[t + 1];
    var->has_split[t] = var->has_split[t + 1];
  }
  var->npieces--;
  var->has_split[var->npieces - 1] = 0;
  return 0;
}

/* Replaces in e a use whose offset is non-zero only in dimension d by 0;
 * drops component d of the others. */
static void gs_dim_unuse(gp_expr **e, int d) {
  if (!*e) return;
  if ((*e)->kind == GP_E_VAR) {
    int other = 0;
    for (int t = 0; t < d; t++) other |= (*e)->off[t] != 0;
    if (!other && (*e)->off[d]) {
      gs_expr_free(*e);
      *e = calloc(1, sizeof **e);
      if (!*e) abort();
      (*e)->kind = GP_E_CONST;
      return;
    }
    (*e)->off[d] = 0;
  }
  gs_dim_unuse(&(*e)->a, d), gs_dim_unuse(&(*e)->b, d), gs_dim_unuse(&(*e)->c, d);
}

/* Drops index t of the reads of input a in e (their pads shift down). */
static void gs_input_unindex(gp_expr *e, int a, int t, int n) {
  if (!e) return;
  if (e->kind == GP_E_IN && e->ref == a)
    for (int u = t; u < n - 1; u++) e->off[u] = e->off[u + 1];
  gs_input_unindex(e->a, a, t, n), gs_input_unindex(e->b, a, t, n), gs_input_unindex(e->c, a, t, n);
}

/* Replaces the reads of input a in e by the literal 2. */
static void gs_input_unuse(gp_expr **e, int a) {
  if (!*e) return;
  if ((*e)->kind == GP_E_IN && (*e)->ref == a) {
    gs_expr_free(*e);
    *e = calloc(1, sizeof **e);
    if (!*e) abort();
    (*e)->kind = GP_E_CONST, (*e)->val = 2;
    return;
  }
  gs_input_unuse(&(*e)->a, a), gs_input_unuse(&(*e)->b, a), gs_input_unuse(&(*e)->c, a);
}

/* Returns 0 after removing the last dimension (not when it is the only
 * one). A parameter no longer used keeps its place (printed unused). */
static int gs_dim_drop(gp_program *p) {
  int d = p->ndims - 1;
  if (d < 1) return -1;
  gs_roots_each(p, gs_dim_unuse, d);
  for (int a = 0; a < p->ninputs; a++) {
    gp_input *in = &p->in[a];
    for (int t = 0; t < in->n; t++) {
      if (in->dim[t] != d) continue;
      if (in->n == 1) { /* an input of d only: its reads become literals */
        gs_roots_each(p, gs_input_unuse, a);
        in->dim[0] = 0;
        break;
      }
      for (int v = 0; v < p->nvars; v++)
        for (int k = 0; k < p->var[v].npieces; k++) gs_input_unindex(p->var[v].piece[k].e, a, t, in->n);
      for (int o = 0; o < p->noutputs; o++)
        for (int s = 0; s < p->out[o].nsplit; s++) gs_input_unindex(p->out[o].e[s], a, t, in->n);
      for (int u = t; u < in->n - 1; u++) in->dim[u] = in->dim[u + 1], in->rev[u] = in->rev[u + 1], in->pad[u] = in->pad[u + 1];
      in->n--;
      break;
    }
  }
  for (int o = 0; o < p->noutputs; o++) {
    gp_output *out = &p->out[o];
    for (int t = 0; t < GP_MAX_DIMS; t++)
      if (out->keep[t] == d) {
        out->keep[t] = -1;
        if (out->nsplit == 2 && (out->split.f.dc[d] || t == 0)) { /* the split named d */
          gs_expr_free(out->e[1]);
          out->e[1] = NULL;
          out->nsplit = 1;
        }
      }
    if (out->nsplit == 2) out->split.f.dc[d] = 0;
  }
  for (int v = 0; v < p->nvars; v++)
    for (int k = 0; k < p->var[v].npieces; k++)
      if (p->var[v].has_split[k] && p->var[v].split[k].f.dc[d]) p->var[v].has_split[k] = 0;
  p->ndims--;
  return 0;
}

/* Returns 0 after making dimension d rectangular `0 <= x < P_base`: an
 * output keeping it still sees a full box, reads stay in bounds. */
static int gs_dim_rect(gp_program *p, int d) {
  if (d >= p->ndims || p->dim[d].kind == GP_DIM_RECT) return -1;
  p->dim[d].kind = GP_DIM_RECT;
  return 0;
}

/* Returns 0 after the node simplification `way` of node slot s. */
static int gs_node_apply(gp_expr **s, int way) {
  gp_expr *e = *s;
  if (way < 3) {
    gp_expr *child = way == 0 ? e->a : way == 1 ? e->b : e->c;
    if (!child) return -1;
    if (way == 0) e->a = NULL;
    else if (way == 1) e->b = NULL;
    else e->c = NULL;
    gs_expr_free(e);
    *s = child;
    return 0;
  }
  int32_t v = way == 3 ? 0 : 1;
  if (e->kind == GP_E_CONST && (e->val == v || e->val == 0)) return -1;
  gs_expr_free(e);
  *s = calloc(1, sizeof **s);
  if (!*s) abort();
  (*s)->kind = GP_E_CONST, (*s)->val = v;
  return 0;
}

int gp_shrink_apply(gp_program *p, int k) {
  int counts[9];
  int ns = gs_structural(p, counts);
  if (k < 0) return -1;
  if (k < ns) {
    int g = 0;
    while (k >= counts[g]) k -= counts[g++];
    switch (g) {
    case 0: return gs_output_delete(p, k);
    case 1: return gs_var_delete(p, k);
    case 2: return gs_piece_delete(p, k / GP_MAX_PIECES, k % GP_MAX_PIECES);
    case 3: {
      int v = k / GP_MAX_PIECES, c = k % GP_MAX_PIECES;
      if (v >= p->nvars || c >= p->var[v].npieces - 1 || !p->var[v].has_split[c]) return -1;
      p->var[v].has_split[c] = 0;
      return 0;
    }
    case 4:
      if (k >= p->noutputs || p->out[k].nsplit != 2) return -1;
      gs_expr_free(p->out[k].e[1]);
      p->out[k].e[1] = NULL;
      p->out[k].nsplit = 1;
      return 0;
    case 5: return gs_dim_drop(p);
    case 6: return gs_dim_rect(p, k);
    case 7:
      if (k >= p->nparams || p->pval[k] <= p->pmin[k]) return -1;
      p->pval[k]--;
      return 0;
    default:
      if (k >= p->nparams || p->pmin[k] <= 1) return -1;
      p->pmin[k]--;
      return 0;
    }
  }
  k -= ns;
  int n = gs_nodes(p, NULL);
  if (k >= GP_SHRINK_NODE_WAYS * n) return -1;
  gp_expr ***slots = malloc(sizeof *slots * (size_t)n);
  if (!slots) abort();
  gs_nodes(p, slots);
  int rc = gs_node_apply(slots[k / GP_SHRINK_NODE_WAYS], k % GP_SHRINK_NODE_WAYS);
  free(slots);
  return rc;
}
