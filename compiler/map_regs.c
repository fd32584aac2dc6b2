/*
 * map_regs.c: register allocation (paper section 5.3).
 *
 * Every split edge gets its registers by its class:
 *  - DEP, d = 0: the rd group of the producer's value, shared by all
 *    producers of the value and all its readers; k = floor(l'/pi) + 1
 *    registers with l' = tau[w] - tau[v] - lat[v] (k > 1: a rotating tuple);
 *  - DEP, d != 0, theta = 0: one fd per (value, d), depth s(d) (+1 when
 *    the reader issues after the writer's result in the iteration), with
 *    its smallest value s_lb(d) checked against pe.fd_depth;
 *  - DEP, theta != 0: an od on the producer and an id on the consumer per
 *    (value, d, theta, consumer, operand): a propagation channel (5.4);
 *  - IN: an id; OUT: an od; CONST: the immediate (no register).
 * The counts are checked against pe.rd, pe.fd, pe.id and pe.od.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map.h"

/* Returns a new register entry of class cls (index = count so far). */
static int map_regs_new(map_config *m, int cls, int n) {
  map_regfile_entry *r = realloc(m->regs, (size_t)(m->nregs + 1) * sizeof *r);
  if (!r) return -1;
  m->regs = r;
  memset(&m->regs[m->nregs], 0, sizeof *r);
  m->regs[m->nregs].reg.cls = cls;
  m->regs[m->nregs].reg.idx = m->used[cls];
  m->regs[m->nregs].copies = n;
  m->used[cls] += n;
  return m->nregs++;
}

/* Returns 1 when d is all zero. */
static int map_regs_zero(const int64_t *d) {
  for (int k = 0; k < AST_MAX_DIMS; k++)
    if (d[k]) return 0;
  return 1;
}

/* Returns the rd copies needed by the d = 0 edges of value val. */
static int map_regs_rd_copies(const map_config *m, int val) {
  int k = 1;
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP || x->theta || !map_regs_zero(x->d) || m->ops[x->src].var != val) continue;
    int l = m->ops[x->dst].tau - m->ops[x->src].tau - m->ops[x->src].lat;
    if (l >= 0 && l / m->ii + 1 > k) k = l / m->ii + 1;
  }
  return k;
}

/* Checks one register class; returns MAP_OK or NOFIT with a message. */
static int map_regs_check(const map_config *m, int cls, int have, const char *key, char *msg, size_t msgsz) {
  static const char *const names[] = {"-", "rd", "fd", "id", "od"};
  if (m->used[cls] <= have) return MAP_OK;
  snprintf(msg, msgsz, "registers %s: needs %d, %s = %d", names[cls], m->used[cls], key, have);
  return MAP_ERR_NOFIT;
}

int map_regs(map_config *m, char *msg, size_t msgsz) {
  for (int i = 0; i < m->nops; i++) m->ops[i].dst.cls = MAP_REG_NONE;
  for (int e = 0; e < m->nedges; e++) {
    map_edge *x = &m->edges[e];
    if (x->group >= 0) continue;
    if (x->kind == MAP_EDGE_CONST) {
      x->rreg.cls = MAP_REG_IMM;
      continue;
    }
    if (x->kind == MAP_EDGE_IN || x->kind == MAP_EDGE_OUT) {
      int r = map_regs_new(m, x->kind == MAP_EDGE_IN ? MAP_REG_ID : MAP_REG_OD, 1);
      if (r < 0) goto oom;
      x->group = r;
      if (x->kind == MAP_EDGE_IN) x->rreg = m->regs[r].reg;
      else x->wreg = m->regs[r].reg;
      continue;
    }
    int val = m->ops[x->src].var, zero = map_regs_zero(x->d);
    int r;
    if (x->theta) {
      int od = map_regs_new(m, MAP_REG_OD, 1);
      int id = map_regs_new(m, MAP_REG_ID, 1);
      if (od < 0 || id < 0) goto oom;
      memcpy(m->regs[id].d, x->d, sizeof x->d);
      for (int f = e; f < m->nedges; f++) {
        map_edge *y = &m->edges[f];
        if (y->kind == MAP_EDGE_DEP && y->theta == x->theta && m->ops[y->src].var == val &&
            !memcmp(y->d, x->d, sizeof x->d) && y->dst == x->dst && y->pos == x->pos) {
          y->group = id;
          y->rreg = m->regs[id].reg;
          y->wreg = m->regs[od].reg;
        }
      }
      continue;
    }
    if (zero) r = map_regs_new(m, MAP_REG_RD, map_regs_rd_copies(m, val));
    else r = map_regs_new(m, MAP_REG_FD, 1);
    if (r < 0) goto oom;
    memcpy(m->regs[r].d, x->d, sizeof x->d);
    if (!zero) {
      m->regs[r].depth_lb = (int)map_seq_dist_lb(m, x->d);
      m->regs[r].extra = 0;
    }
    for (int f = e; f < m->nedges; f++) {
      map_edge *y = &m->edges[f];
      if (y->kind != MAP_EDGE_DEP || y->theta || m->ops[y->src].var != val || memcmp(y->d, x->d, sizeof x->d))
        continue;
      y->group = r;
      y->rreg = m->regs[r].reg;
      m->ops[y->src].dst = m->regs[r].reg;
      if (!zero && m->ops[y->dst].tau > m->ops[y->src].tau + m->ops[y->src].lat - 1) m->regs[r].extra = 1;
    }
  }
  int st;
  if ((st = map_regs_check(m, MAP_REG_RD, m->arch.rd, "pe.rd", msg, msgsz))) return st;
  if ((st = map_regs_check(m, MAP_REG_FD, m->arch.fd, "pe.fd", msg, msgsz))) return st;
  if ((st = map_regs_check(m, MAP_REG_ID, m->arch.id, "pe.id", msg, msgsz))) return st;
  if ((st = map_regs_check(m, MAP_REG_OD, m->arch.od, "pe.od", msg, msgsz))) return st;
  for (int r = 0; r < m->nregs; r++) {
    const map_regfile_entry *x = &m->regs[r];
    if (x->reg.cls == MAP_REG_FD && x->depth_lb + x->extra > m->arch.fd_depth) {
      snprintf(msg, msgsz, "fd depth: fd%d needs a depth of at least %d, pe.fd_depth = %d", x->reg.idx,
               x->depth_lb + x->extra, m->arch.fd_depth);
      return MAP_ERR_NOFIT;
    }
  }
  return MAP_OK;
oom:
  snprintf(msg, msgsz, "out of memory");
  return MAP_ERR_INTERNAL;
}
