/*
 * inst_chain.c: fd chains (docs/symbolic.md "Registers" and "What fits").
 * An fd keeps the values of one (value, d) for s(d) (+ extra)
 * iterations; its real depth is known only here, from the extents. When it
 * exceeds pe.fd_depth, the delay is split over two fds chained by a `mov`
 * in an ALU slot no op uses: the writers of fd Y write a free fd X instead,
 * and the chain mov, over the iterations the writers write Y in (their dest
 * leaves' spaces), reads X and writes Y at an offset tau_c that is many
 * iterations later (folding, inst_fold.c, issues it in the kernel of
 * succ(J, floor(tau_c / pi))). Both fds stay FIFOs with one write and one
 * read per iteration of the same space, in the same order (docs/timing.md
 * 4), so a write n is read by read n whatever the depth, as long as write
 * n + D comes no earlier than read n's cycle (same cycle: the read sees the
 * old word) and read n no earlier than write n's result:
 *
 *   X: written at w = tau_W + lat_W (readable), read at tau_c:
 *      tau_c >= max w,  D_X * pi >= tau_c - min w + 1;
 *   Y: written at tau_c + 1 by the mov (ALU latency), read at tau_R of the
 *      iteration s(d) later: s(d) pi + min tau_R >= tau_c + lat,
 *      D_Y * pi >= s(d) pi + max tau_R - tau_c - lat + 1,
 *
 * (the mapper's `extra` is the same rule for one fd: D = s(d) + 1 when the
 * reader issues after the writer's result). The smallest tau_c in the slot
 * whose two depths fit is taken. The rewrite works on the instantiation's
 * own shallow copy of the mapping (new ops, leaves and regs arrays, the
 * strings shared with the caller's), so the .sym stays as mapped and what
 * fits without a chain is instantiated exactly as before.
 */
#include <stdlib.h>
#include <string.h>

#include "inst.h"

int inst_chain_split(int ii, int64_t s, int w_min, int w_max, int r_min, int r_max, int lat, int fd_depth,
                     int residue, int *tau, int64_t *dx, int64_t *dy) {
  int64_t lo = w_max, span = s * ii;
  /* first tau_c >= max w in the residue class */
  int64_t t = lo + (((residue - lo) % ii) + ii) % ii;
  for (; t + lat <= span + r_min; t += ii) {
    int64_t nx = t - w_min + 1, ny = span + r_max - t - lat + 1;
    int64_t a = nx <= 0 ? 1 : (nx + ii - 1) / ii, b = ny <= 0 ? 1 : (ny + ii - 1) / ii;
    if (a > fd_depth) break; /* later offsets only deepen X */
    if (b <= fd_depth) {
      *tau = (int)t;
      *dx = a;
      *dy = b;
      return 0;
    }
  }
  return -1;
}

/* Returns 1 when FU fu issues some op at a residue r modulo II. */
static int inst_chain_slot_used(const map_config *m, int fu, int r) {
  for (int i = 0; i < m->nops; i++)
    if (m->ops[i].fu == fu && m->ops[i].tau % m->ii == r) return 1;
  return 0;
}

/* Returns the smallest fd index no register record uses, or -1. */
static int inst_chain_free_fd(const map_config *m, int nfd) {
  for (int k = 0; k < nfd; k++) {
    int used = 0;
    for (int i = 0; i < m->nregs && !used; i++) used = m->regs[i].reg.cls == MAP_REG_FD && m->regs[i].reg.idx == k;
    if (!used) return k;
  }
  return -1;
}

/* Returns 0 after collecting the write offsets (tau + lat) of the writers
 * of fd y and the issue offsets of its readers; -1 when either is missing. */
static int inst_chain_ends(const map_config *m, int y, int *w_min, int *w_max, int *r_min, int *r_max) {
  *w_min = *r_min = 1 << 30;
  *w_max = *r_max = -(1 << 30);
  for (int i = 0; i < m->nleaves; i++) {
    const map_pst_leaf *l = &m->leaves[i];
    if (l->reg.cls != MAP_REG_FD || l->reg.idx != y || l->slot == 4) continue;
    const map_op *op = &m->ops[l->op];
    if (l->slot == 0) {
      int w = op->tau + op->lat;
      if (w < *w_min) *w_min = w;
      if (w > *w_max) *w_max = w;
    } else {
      if (op->tau < *r_min) *r_min = op->tau;
      if (op->tau > *r_max) *r_max = op->tau;
    }
  }
  return *w_max < *w_min || *r_max < *r_min ? -1 : 0;
}

/* Returns 0 after appending the chain mov (op index c->nops) reading fd x
 * and writing fd y over the dest leaves of fd y, which now write fd x; -1
 * when out of memory. */
static int inst_chain_rewrite(map_config *c, int y, int x, int fu, int tau, int lat) {
  int nw = 0;
  for (int i = 0; i < c->nleaves; i++)
    nw += c->leaves[i].slot == 0 && c->leaves[i].reg.cls == MAP_REG_FD && c->leaves[i].reg.idx == y;
  map_op *ops = realloc(c->ops, (size_t)(c->nops + 1) * sizeof *ops);
  if (!ops) return -1;
  c->ops = ops;
  map_pst_leaf *lv = realloc(c->leaves, (size_t)(c->nleaves + 2 * nw) * sizeof *lv);
  if (!lv) return -1;
  c->leaves = lv;
  int op = c->nops++, n = c->nleaves;
  map_op *mv = &c->ops[op];
  memset(mv, 0, sizeof *mv);
  mv->rdg_node = -1;
  mv->op = ISA_OP_MOV;
  mv->nargs = 1;
  mv->var = -1;
  mv->cls = ISA_FU_ALU;
  mv->lat = lat;
  mv->tau = tau;
  mv->fu = fu;
  mv->dst = (map_reg){MAP_REG_FD, y};
  for (int i = 0; i < n; i++) {
    map_pst_leaf *l = &c->leaves[i];
    if (l->slot != 0 || l->reg.cls != MAP_REG_FD || l->reg.idx != y) continue;
    if (!mv->dom.ispace) mv->dom = c->ops[l->op].dom; /* shared strings; the leaves decide */
    l->reg.idx = x;
    map_pst_leaf d = {op, 0, {MAP_REG_FD, y}, 0, l->dom}, s = {op, 1, {MAP_REG_FD, x}, 0, l->dom};
    c->leaves[c->nleaves++] = d;
    c->leaves[c->nleaves++] = s;
  }
  return 0;
}

/* Returns INST_OK after chaining register record r of c (an fd of depth
 * dep > fd_depth); INST_ERR_NOFIT with what is missing in msg. */
static int inst_chain_one(inst *xi, map_config *c, int r, int64_t dep, char *msg, size_t msgsz) {
  const map_regfile_entry *e = &c->regs[r];
  int y = e->reg.idx, fdd = xi->arch.fd_depth;
  int64_t s = map_seq_dist(c, e->d, xi->E);
  int w_min, w_max, r_min, r_max;
  char where[16];
  snprintf(where, sizeof where, "fd%d", y);
  if (inst_chain_ends(c, y, &w_min, &w_max, &r_min, &r_max))
    return fit_nofit(&xi->fit, msg, msgsz, FIT_RES_FD_DEPTH, "pe.fd_depth", dep, fdd, where,
                     "%s needs depth %lld, pe.fd_depth is %d", where, (long long)dep, fdd);
  int x = inst_chain_free_fd(c, xi->arch.fd);
  if (x < 0) {
    fit_nofit(&xi->fit, msg, msgsz, FIT_RES_FD_DEPTH, "pe.fd_depth", dep, fdd, where,
              "%s needs depth %lld, pe.fd_depth is %d", where, (long long)dep, fdd);
    snprintf(xi->fit.note, sizeof xi->fit.note, " (a chain of two fds needs one more fd, pe.fd = %d)", xi->arch.fd);
    fit_record_format(&xi->fit, msg, msgsz);
    return INST_ERR_NOFIT;
  }
  int lat = xi->arch.lat_alu, nfree = 0;
  for (int fu = 0; fu < xi->nfu; fu++) {
    if (isa_fu_class_of(&xi->arch, fu) != ISA_FU_ALU) continue;
    for (int res = 0; res < c->ii; res++) {
      if (inst_chain_slot_used(c, fu, res)) continue;
      nfree++;
      int tau;
      int64_t dx, dy;
      if (inst_chain_split(c->ii, s, w_min, w_max, r_min, r_max, lat, fdd, res, &tau, &dx, &dy)) continue;
      if (inst_chain_rewrite(c, y, x, fu, tau, lat)) return INST_ERR_INTERNAL;
      map_regfile_entry *ne = realloc(c->regs, (size_t)(c->nregs + 1) * sizeof *ne);
      if (!ne) return INST_ERR_INTERNAL;
      c->regs = ne;
      c->regs[r].extra = (int)(dy - s); /* s(d) + extra = D_Y (inst_fd_depths) */
      map_regfile_entry xe = {{MAP_REG_FD, x}, {0}, (int)dx, 1, (int)dx}; /* d = 0: depth = extra */
      c->regs[c->nregs++] = xe;
      return INST_OK;
    }
  }
  fit_nofit(&xi->fit, msg, msgsz, FIT_RES_FD_DEPTH, "pe.fd_depth", dep, fdd, where,
            "%s needs depth %lld, pe.fd_depth is %d", where, (long long)dep, fdd);
  snprintf(xi->fit.note, sizeof xi->fit.note, " (%s)",
           nfree ? "no free ALU slot at an offset where a chain of two fds holds it"
                 : "no free ALU slot for a chain of two fds");
  fit_record_format(&xi->fit, msg, msgsz);
  return INST_ERR_NOFIT;
}

int inst_chain(inst *x, int r, int64_t dep, char *msg, size_t msgsz) {
  map_config *c = x->own;
  if (!c) {
    if (!(c = malloc(sizeof *c))) return INST_ERR_INTERNAL;
    *c = *x->m;
    c->ops = malloc((size_t)(c->nops + 1) * sizeof *c->ops);
    c->leaves = malloc((size_t)(c->nleaves + 1) * sizeof *c->leaves);
    c->regs = malloc((size_t)(c->nregs + 1) * sizeof *c->regs);
    x->own = c;
    if (!c->ops || !c->leaves || !c->regs) return INST_ERR_INTERNAL;
    memcpy(c->ops, x->m->ops, (size_t)c->nops * sizeof *c->ops);
    memcpy(c->leaves, x->m->leaves, (size_t)c->nleaves * sizeof *c->leaves);
    memcpy(c->regs, x->m->regs, (size_t)c->nregs * sizeof *c->regs);
    x->m = c;
  }
  return inst_chain_one(x, c, r, dep, msg, msgsz);
}

void inst_chain_free(inst *x) {
  if (!x->own) return;
  free(x->own->ops);
  free(x->own->leaves);
  free(x->own->regs);
  free(x->own);
  x->own = NULL;
}
