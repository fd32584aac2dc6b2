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
 *    an op writing several registers (destinations per condition space,
 *    map_tile.c) writes each over the defs of the edges reading it;
 *  - slots 1..3 (sources A..C): one leaf per incoming edge at that
 *    operand: its register (rd, fd, id) or immediate over edge.use; a tie
 *    (operand forwarding) gives the tied mov's source leaves instead, each
 *    over its use within the tie's use.
 * It also writes two figures of what instantiation will need into the
 * .sym, neither checked here: program memory (a loop body of II words plus
 * a halt per FU, before the instantiator compresses runs of nops into one
 * `nop N` word, so no bound: the instantiator checks the emitted program
 * against pe.imem, inst_proggen.c) and control signals (ceil(log2(distinct
 * leaf conditions + 1)); the instantiator checks gc.signals on the real
 * colouring).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
      seen = map_dom_equal(m, &m->leaves[i].dom, &m->leaves[j].dom);
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
static int map_pst_fd_dest(map_config *m, int o, map_reg dst) {
  int first = m->nleaves, st = 0;
  if (!m->isl) return -1;
  for (int e = 0; e < m->nedges && !st; e++) {
    map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP || x->src != o || map_edge_cross(x) || x->rreg.cls != dst.cls ||
        x->rreg.idx != dst.idx)
      continue;
    int l = first;
    while (l < m->nleaves && !map_dom_jkspace_equal(m, &m->leaves[l].dom, &x->def)) l++;
    if (l == m->nleaves) {
      st = map_pst_add(m, o, 0, dst, 0, &x->def);
      continue;
    }
    char *txt = map_isl_set_union_text(m->isl, m->leaves[l].dom.ispace, x->def.ispace);
    if (!txt) { st = -1; break; }
    map_dom_ispace_set(&m->leaves[l].dom, txt);
  }
  return st;
}

/* Adds the dest leaves of op o: an op writing one register writes an rd
 * over its space, an fd over the defs of its fd edges; an op with several
 * destinations (one per condition space, map_tile.c) writes each register
 * over the defs of the edges reading it. Returns 0 or -1. */
static int map_pst_dests(map_config *m, int o) {
  map_reg regs[8];
  int n = 0, st = 0;
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP || x->src != o || map_edge_cross(x) ||
        (x->rreg.cls != MAP_REG_FD && x->rreg.cls != MAP_REG_RD))
      continue;
    int seen = 0;
    for (int i = 0; i < n && !seen; i++) seen = regs[i].cls == x->rreg.cls && regs[i].idx == x->rreg.idx;
    if (!seen && n < 8) regs[n++] = x->rreg;
  }
  const map_op *op = &m->ops[o];
  if (n <= 1) { /* one destination: as always */
    if (op->dst.cls == MAP_REG_FD) return map_pst_fd_dest(m, o, op->dst);
    if (op->dst.cls != MAP_REG_NONE) return map_pst_add(m, o, 0, op->dst, 0, &op->dom);
    return 0;
  }
  for (int i = 0; i < n && !st; i++) st = map_pst_fd_dest(m, o, regs[i]);
  return st;
}

/* Adds the source leaves of reader o's operand carried by tie x from mov
 * M = x->src: M's own source leaves (its pos-0 edges), each over its use
 * within the tie's use. Returns 0 or -1. */
static int map_pst_forward(map_config *m, int o, const map_edge *x) {
  int st = m->isl ? 0 : -1;
  for (int e = 0; e < m->nedges && !st; e++) {
    const map_edge *y = &m->edges[e];
    if (y->dst != x->src || y->pos != 0 || y->kind == MAP_EDGE_OUT || y->kind == MAP_EDGE_TIE) continue;
    int e1 = 0, e2 = 0;
    map_dom d = {map_isl_set_meet_text(m->isl, y->use.ispace, x->use.ispace, &e1),
                 map_isl_set_meet_text(m->isl, y->use.jkspace, x->use.jkspace, &e2), NULL, NULL};
    if (!d.ispace || !d.jkspace) st = -1;
    else if (!e1 && !e2) st = map_pst_add(m, o, 1 + x->pos, y->rreg, y->value, &d);
    map_dom_free(&d);
  }
  return st;
}

int map_pst(map_config *m, char *msg, size_t msgsz) {
  int *order = malloc((size_t)m->nops * sizeof *order + 1);
  if (!order) goto oom;
  map_pst_sort(m, order);
  for (int oi = 0; oi < m->nops; oi++) {
    int o = order[oi];
    const map_op *op = &m->ops[o];
    if (map_pst_dests(m, o)) goto oom;
    for (int e = 0; e < m->nedges; e++) {
      map_edge *x = &m->edges[e];
      if (x->src != o) continue;
      if (x->kind == MAP_EDGE_OUT && map_pst_add(m, o, 4, x->wreg, 0, &x->use)) goto oom;
      if (x->kind == MAP_EDGE_DEP && map_edge_cross(x)) {
        int dup = 0; /* one od leaf per channel register and domain */
        for (int l = 0; l < m->nleaves; l++)
          if (m->leaves[l].op == o && m->leaves[l].slot == 4 && m->leaves[l].reg.idx == x->wreg.idx &&
              map_dom_ispace_equal(m, &m->leaves[l].dom, &x->def))
            dup = 1;
        if (!dup && map_pst_add(m, o, 4, x->wreg, 0, &x->def)) goto oom;
      }
    }
    for (int pos = 0; pos < op->nargs; pos++)
      for (int e = 0; e < m->nedges; e++) {
        const map_edge *x = &m->edges[e];
        if (x->dst != o || x->pos != pos || x->kind == MAP_EDGE_OUT) continue;
        if (x->kind == MAP_EDGE_TIE) {
          if (map_pst_forward(m, o, x)) goto oom;
        } else if (map_pst_add(m, o, 1 + pos, x->rreg, x->value, &x->use)) {
          goto oom;
        }
      }
  }
  free(order);
  order = NULL;
  m->imem_estimate = m->ii + 1;
  int distinct = map_pst_distinct(m), sig = 0;
  while ((1 << sig) < distinct + 1) sig++;
  m->signals_estimate = sig;
  return MAP_OK;
oom:
  free(order);
  snprintf(msg, msgsz, "out of memory");
  return MAP_ERR_INTERNAL;
}
