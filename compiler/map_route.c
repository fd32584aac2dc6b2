/*
 * map_route.c: routing of propagation channels (paper section 5.4) on the
 * reduced topology graph of a homogeneous interconnect.
 *
 * With one mapped dimension the processor displacement delta of a channel
 * is +1 or -1 along the region's axis, so the exact-length path from
 * Source to Sink is always pe_out(od) -> wrapper sink of the side facing
 * the consumer -> (one hop) -> the neighbour's opposite wrapper source ->
 * pe_in(id). Channels get distinct wrapper ports per direction (no
 * sharing, the relaxation of 5.4 is not used); their number per side is
 * checked against interconnect.ports. A 2-D region will need a real path
 * search (diagonal displacements take two hops); map_route keeps the side
 * and port per channel so that such routes fit the same record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map.h"

int map_route_channels(map_config *m, char *msg, size_t msgsz) {
  int used[2] = {0, 0}; /* ports toward +axis, toward -axis */
  for (int e = 0; e < m->nedges; e++) {
    map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP || !x->theta) continue;
    int reuse = -1;
    for (int r = 0; r < m->nroutes; r++)
      if (m->routes[r].id.idx == x->rreg.idx && m->routes[r].od.idx == x->wreg.idx) reuse = r;
    if (reuse >= 0) {
      x->route = reuse;
      continue;
    }
    map_route *n = realloc(m->routes, (size_t)(m->nroutes + 1) * sizeof *n);
    if (!n) {
      snprintf(msg, msgsz, "out of memory");
      return MAP_ERR_INTERNAL;
    }
    m->routes = n;
    map_route *r = &m->routes[m->nroutes];
    memset(r, 0, sizeof *r);
    r->edge = e;
    r->delta = x->theta; /* the producer is at K - theta: data moves by +theta */
    r->od = x->wreg;
    r->id = x->rreg;
    int fwd = x->theta > 0;
    if (m->axis == 0) {
      r->out_side = fwd ? 'E' : 'W';
      r->in_side = fwd ? 'W' : 'E';
    } else {
      r->out_side = fwd ? 'S' : 'N';
      r->in_side = fwd ? 'N' : 'S';
    }
    r->port = used[fwd ? 0 : 1]++;
    r->hops = 1;
    x->route = m->nroutes++;
  }
  for (int s = 0; s < 2; s++)
    if (used[s] > m->arch.ports) {
      snprintf(msg, msgsz, "ports: %d propagation channels toward the %s neighbour, interconnect.ports = %d",
               used[s], s == 0 ? (m->axis ? "south" : "east") : (m->axis ? "north" : "west"), m->arch.ports);
      return MAP_ERR_NOFIT;
    }
  return MAP_OK;
}
