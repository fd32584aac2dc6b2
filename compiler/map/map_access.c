/*
 * map_access.c: access mappings (paper section 5.6): for every input and
 * output edge the register, the array, the index function alpha (isl map
 * from I to the element) and the access space A (the tiled condition space
 * of the consuming or producing operation).
 *
 * `offset` is the cycle of the bank event relative to lambda* I* (the start
 * of the iteration on its PE), from docs/timing.md section 6: an input read
 * from a bank at t is readable from t + 2, so the read event is at
 * tau[consumer] - 2; an od written at the end of tau + lat - 1 reaches the
 * bank at tau + lat + 1, the write event's cycle. The number of I/O edges is
 * checked against iobuf.banks and interconnect.ports (one bank, one wrapper
 * port each, on the region's border side; 1-D regions on every border side
 * of a PE in map.c's second pass, spread_io). An input read only on the
 * first PE (1-D) or the first row or column (2-D) may share a channel's id
 * (map_regs.c): map_access_on_channel names the channel, whose port on the
 * array border the instantiator gives the input's bank (inst_io.c,
 * inst_io2d.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map.h"

int map_access_on_channel(const map_config *m, int a) {
  const map_access *ac = &m->access[a];
  if (ac->is_out) return -1;
  for (int r = 0; r < m->nroutes; r++)
    if (m->routes[r].id.cls == ac->reg.cls && m->routes[r].id.idx == ac->reg.idx)
      return m->routes[r].hops == 1 ? r : -1;
  return -1;
}

/* Returns the most array border sides one PE of a 1-D region can have: a
 * region starts at PE (0,0), so its first PE has the north and the west
 * side, a 1xC region's PEs all the north one (the south one too on an array
 * of one row), the last column the east one. */
static int map_access_sides_1d(const arch_config *a) { return 2 + (a->rows == 1) + (a->cols == 1); }

int map_access_build(map_config *m, char *msg, size_t msgsz) {
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_IN && x->kind != MAP_EDGE_OUT) continue;
    map_access *n = realloc(m->access, (size_t)(m->naccess + 1) * sizeof *n);
    if (!n) goto oom;
    m->access = n;
    map_access *a = &m->access[m->naccess++];
    memset(a, 0, sizeof *a);
    a->edge = e;
    a->is_out = x->kind == MAP_EDGE_OUT;
    a->array = x->array;
    a->reg = a->is_out ? x->wreg : x->rreg;
    a->index = map_strdup(x->index);
    a->space = map_dom_copy(&x->use);
    if (a->is_out) a->offset = m->ops[x->src].tau + m->ops[x->src].lat + 1;
    else a->offset = m->ops[x->dst].tau - 2;
    if (!a->index || !a->space.ispace || !a->space.jkspace) goto oom;
  }
  int per_side = m->arch.banks < m->arch.ports ? m->arch.banks : m->arch.ports;
  const char *key = m->arch.banks <= m->arch.ports ? "iobuf.banks" : "interconnect.ports";
  /* 2-D: a PE may use the banks of two border sides (the corner PE (0,0)
   * has the north and the west ones); which PE needs what is decided at
   * instantiation (inst_io2d.c). 1-D: one side (the region's), or with
   * spread_io (map.c's second pass) every border side a PE of the region
   * can have (map_access_sides_1d; inst_io.c places them) */
  int sides = m->axis == MAP_AXIS_2D ? 2 : m->spread_io ? map_access_sides_1d(&m->arch) : 1, n = m->naccess;
  int one = m->axis != MAP_AXIS_2D;
  /* 1-D: an input on a channel's id (read on the first PE only,
   * map_regs.c) takes the bank behind that channel's port on the border
   * side it arrives from, not one of the region's side */
  for (int a = 0; one && a < m->naccess; a++)
    if (map_access_on_channel(m, a) >= 0) n--;
  if (n > sides * per_side) {
    if (sides == 1)
      return fit_nofit(&m->fit, msg, msgsz, FIT_RES_IO_BANKS, key, n, per_side, "",
                       "I/O banks: %d input/output accesses need a bank and a wrapper port each, %s = %d", n, key,
                       per_side);
    if (one)
      return fit_nofit(&m->fit, msg, msgsz, FIT_RES_IO_BANKS, key, n, sides * per_side, "",
                       "I/O banks: %d input/output accesses need a bank and a wrapper port each; "
                       "a PE of a 1-D region has at most %d border sides x %s %d = %d",
                       n, sides, key, per_side, sides * per_side);
    return fit_nofit(&m->fit, msg, msgsz, FIT_RES_IO_BANKS, key, m->naccess, 2 * per_side, "",
                     "I/O banks: %d input/output accesses need a bank and a wrapper port each; "
                     "2 border sides x %s %d = %d available", m->naccess, key, per_side, 2 * per_side);
  }
  return MAP_OK;
oom:
  snprintf(msg, msgsz, "out of memory");
  return MAP_ERR_INTERNAL;
}
