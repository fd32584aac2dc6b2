/*
 * map_pst.c: the polyhedral syntax tree (paper section 5.5).
 *
 * The tree has the levels root -> FU -> tau -> instruction -> operand slot
 * -> register fragment; only the leaves carry condition spaces (the inner
 * nodes' spaces are the unions of their children). It is kept flat, one
 * map_pst_leaf per (instruction, slot, alternative), ordered by FU, tau,
 * op, slot, so that sym_write prints the tree level by level:
 *  - slot 0 (dest): the op's register destination, over the op's space;
 *    an fd destination only over the iterations whose value is read
 *    (the defs of its fd edges): an fd is a FIFO, its pointers move only
 *    on writes and reads (docs/timing.md 4);
 *  - slot 4 (od): one leaf per output register the op writes: a channel's
 *    od over the producer iterations whose value crosses (edge.def), an
 *    output edge's od over the op's space;
 *  - slots 1..3 (sources A..C): one leaf per incoming edge at that
 *    operand: its register (rd, fd, id) or immediate over edge.use.
 * It also estimates what instantiation will need: program memory (a loop
 * body of II words plus a halt per FU, a lower bound) and control signals
 * (ceil(log2(distinct leaf conditions + 1)), a lower bound); both are
 * checked against pe.imem and gc.signals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/set.h>

#include "map.h"

/* Appends a leaf; returns 0 or -1. */
static int map_pst_add(map_config *m, int op, int slot, map_reg reg, int32_t value, const map_dom *dom) {
  map_pst_leaf *n = realloc(m->leaves, (size_t)(m->nleaves + 1) * sizeof *n);
  if (!n) return -1;
  m->leaves = n;
  map_pst_leaf *l = &m->leaves[m->nleaves++];
  l->op = op;
  l->slot = slot;
  l->reg = reg;
  l->value = value;
  l->dom = map_dom_copy(dom);
  return l->dom.ispace && l->dom.jkspace ? 0 : -1;
}

/* Returns the ops ordered by (fu, tau, index) in order[]. */
static void map_pst_sort(const map_config *m, int *order) {
  for (int i = 0; i < m->nops; i++) order[i] = i;
  for (int i = 1; i < m->nops; i++)
    for (int j = i; j > 0; j--) {
      const map_op *a = &m->ops[order[j - 1]], *b = &m->ops[order[j]];
      if (a->fu < b->fu || (a->fu == b->fu && a->tau <= b->tau)) break;
      int t = order[j - 1];
      order[j - 1] = order[j];
      order[j] = t;
    }
}

/* Returns the number of distinct leaf conditions. */
static int map_pst_distinct(const map_config *m) {
  int n = 0;
  for (int i = 0; i < m->nleaves; i++) {
    int seen = 0;
    for (int j = 0; j < i && !seen; j++)
      seen = !strcmp(m->leaves[i].dom.ispace, m->leaves[j].dom.ispace) &&
             !strcmp(m->leaves[i].dom.jkspace, m->leaves[j].dom.jkspace);
    if (!seen) n++;
  }
  return n;
}

/* Adds the dest leaves of op o whose destination is an fd: the fd is a
 * FIFO (timing.md 4: W advances per write, R per reading cycle), so it is
 * written exactly in the iterations whose value a reader takes (the defs of
 * the fd edges leaving o), as it is read exactly in the readers' uses; a
 * write in any other iteration would shift every later read. One leaf per
 * distinct def jkspace, their ispaces united. Returns 0 or -1. */
static int map_pst_fd_dest(map_config *m, int o) {
  const map_op *op = &m->ops[o];
  int first = m->nleaves, st = 0;
  isl_ctx *ctx = isl_ctx_alloc();
  if (!ctx) return -1;
  for (int e = 0; e < m->nedges && !st; e++) {
    const map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP || x->src != o || map_edge_cross(x) || x->rreg.cls != MAP_REG_FD ||
        x->rreg.idx != op->dst.idx)
      continue;
    int l = first;
    while (l < m->nleaves && strcmp(m->leaves[l].dom.jkspace, x->def.jkspace)) l++;
    if (l == m->nleaves) {
      st = map_pst_add(m, o, 0, op->dst, 0, &x->def);
      continue;
    }
    isl_set *u = isl_set_union(isl_set_read_from_str(ctx, m->leaves[l].dom.ispace),
                               isl_set_read_from_str(ctx, x->def.ispace));
    char *txt = u ? isl_set_to_str(u = isl_set_coalesce(u)) : NULL;
    isl_set_free(u);
    if (!txt) { st = -1; break; }
    free(m->leaves[l].dom.ispace);
    m->leaves[l].dom.ispace = map_strdup(txt);
    free(txt);
    if (!m->leaves[l].dom.ispace) st = -1;
  }
  isl_ctx_free(ctx);
  return st;
}

int map_pst(map_config *m, char *msg, size_t msgsz) {
  int *order = malloc((size_t)m->nops * sizeof *order + 1);
  if (!order) goto oom;
  map_pst_sort(m, order);
  for (int oi = 0; oi < m->nops; oi++) {
    int o = order[oi];
    const map_op *op = &m->ops[o];
    if (op->dst.cls == MAP_REG_FD) {
      if (map_pst_fd_dest(m, o)) goto oom;
    } else if (op->dst.cls != MAP_REG_NONE && map_pst_add(m, o, 0, op->dst, 0, &op->dom)) {
      goto oom;
    }
    for (int e = 0; e < m->nedges; e++) {
      const map_edge *x = &m->edges[e];
      if (x->src != o) continue;
      if (x->kind == MAP_EDGE_OUT && map_pst_add(m, o, 4, x->wreg, 0, &op->dom)) goto oom;
      if (x->kind == MAP_EDGE_DEP && map_edge_cross(x)) {
        int dup = 0; /* one od leaf per channel register and domain */
        for (int l = 0; l < m->nleaves; l++)
          if (m->leaves[l].op == o && m->leaves[l].slot == 4 && m->leaves[l].reg.idx == x->wreg.idx &&
              !strcmp(m->leaves[l].dom.ispace, x->def.ispace))
            dup = 1;
        if (!dup && map_pst_add(m, o, 4, x->wreg, 0, &x->def)) goto oom;
      }
    }
    for (int pos = 0; pos < op->nargs; pos++)
      for (int e = 0; e < m->nedges; e++) {
        const map_edge *x = &m->edges[e];
        if (x->dst != o || x->pos != pos || x->kind == MAP_EDGE_OUT) continue;
        if (map_pst_add(m, o, 1 + pos, x->rreg, x->value, &x->use)) goto oom;
      }
  }
  free(order);
  order = NULL;
  m->imem_estimate = m->ii + 1;
  int distinct = map_pst_distinct(m), sig = 0;
  while ((1 << sig) < distinct + 1) sig++;
  m->signals_estimate = sig;
  if (m->imem_estimate > m->arch.imem) {
    snprintf(msg, msgsz, "program memory: at least %d instruction words per FU (II %d + halt), pe.imem = %d",
             m->imem_estimate, m->ii, m->arch.imem);
    return MAP_ERR_NOFIT;
  }
  if (m->signals_estimate > m->arch.gc_signals) {
    snprintf(msg, msgsz, "control signals: %d distinct condition spaces need at least %d signals, gc.signals = %d",
             distinct, m->signals_estimate, m->arch.gc_signals);
    return MAP_ERR_NOFIT;
  }
  return MAP_OK;
oom:
  free(order);
  snprintf(msg, msgsz, "out of memory");
  return MAP_ERR_INTERNAL;
}
