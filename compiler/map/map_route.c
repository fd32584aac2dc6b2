/*
 * map_route.c: routing of propagation channels (paper section 5.4) on the
 * reduced topology graph of a homogeneous interconnect.
 *
 * With one mapped dimension the processor displacement delta of a channel
 * is +1 or -1 along the region's axis, so the exact-length path from
 * Source to Sink is always pe_out(od) -> wrapper sink of the side facing
 * the consumer -> (one hop) -> the neighbour's opposite wrapper source ->
 * pe_in(id). Channels get distinct wrapper ports per direction, except
 * that channels driven by the same od (one token stream fanned out to
 * several ids of the consumer, map_regs.c) share theirs: the consumer's
 * wrapper connects that port to each id. Their number per side is
 * checked against interconnect.ports.
 *
 * 2-D regions: delta = (rows, columns). A straight displacement is one hop
 * as above (S/N for rows, E/W for columns). A diagonal one is an
 * exact-length path of two hops through the wrapper of the intermediate
 * PE (wrappers are full crossbars): od -> side A port a -> (hop) opposite
 * of A, port a, of the intermediate PE -> side B port b -> (hop) opposite
 * of B, port b -> id, with A the column move and B the row move, or the
 * other way round when that side has no free port left. Every wrapper
 * output port carries one channel per direction, except that channels
 * driven by the same od (the same token stream) share their first port,
 * and their second when they turn the same way, the prefix sharing of
 * section 5.4 (paths of channels whose values are
 * never alive at once may share their first nodes; with FIFO input
 * registers only an identical token stream may share a wrapper output,
 * else a consumer would receive tokens meant for another). Ports running
 * out is NOFIT naming the side.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map.h"

/* Returns the index 0..3 (N, E, S, W) of a side letter. */
static int map_route_side(char c) {
  return c == 'N' ? 0 : c == 'E' ? 1 : c == 'S' ? 2 : 3;
}

/* Returns the side letter a token leaves by for a move of +1/-1 along the
 * rows (vert) or the columns. */
static char map_route_out(int vert, int dir) { return vert ? (dir > 0 ? 'S' : 'N') : (dir > 0 ? 'E' : 'W'); }

/* Returns the opposite side letter. */
static char map_route_opp(char c) { return c == 'N' ? 'S' : c == 'S' ? 'N' : c == 'E' ? 'W' : 'E'; }

/* Returns the first port of an earlier route driven by the same od out of
 * side `side` (section 5.4 prefix sharing), or -1. */
static int map_route_shared(const map_config *m, map_reg od, char side) {
  for (int r = 0; r < m->nroutes; r++)
    if (m->routes[r].od.cls == od.cls && m->routes[r].od.idx == od.idx && m->routes[r].out_side[0] == side)
      return m->routes[r].port[0];
  return -1;
}

/* Fills the sides and ports of route r (2-D) from its displacement, using
 * used[4] (ports taken per output side). */
static void map_route_2d(const map_config *m, map_route *r, int *used) {
  int dr = r->delta[0], dc = r->delta[1];
  char first, second = 0;
  if (!dr || !dc) {
    first = dr ? map_route_out(1, dr) : map_route_out(0, dc);
  } else {
    char h = map_route_out(0, dc), v = map_route_out(1, dr);
    int hfree = used[map_route_side(h)] < m->arch.ports || map_route_shared(m, r->od, h) >= 0;
    first = hfree ? h : v;
    second = hfree ? v : h;
  }
  int sh = map_route_shared(m, r->od, first);
  r->out_side[0] = first;
  r->in_side[0] = map_route_opp(first);
  r->port[0] = sh >= 0 ? sh : used[map_route_side(first)]++;
  r->hops = 1;
  if (second) {
    int sh2 = -1;
    for (int q = 0; q < m->nroutes && sh >= 0 && sh2 < 0; q++) {
      const map_route *o = &m->routes[q];
      if (o->hops == 2 && o->od.cls == r->od.cls && o->od.idx == r->od.idx && o->out_side[0] == first &&
          o->port[0] == sh && o->out_side[1] == second)
        sh2 = o->port[1];
    }
    r->out_side[1] = second;
    r->in_side[1] = map_route_opp(second);
    r->port[1] = sh2 >= 0 ? sh2 : used[map_route_side(second)]++;
    r->hops = 2;
  }
}

int map_route_channels(map_config *m, char *msg, size_t msgsz) {
  int used[4] = {0, 0, 0, 0}; /* ports taken per output side N E S W */
  for (int e = 0; e < m->nedges; e++) {
    map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP || !map_edge_cross(x)) continue;
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
    r->delta[0] = x->theta[0]; /* the producer is at K - theta: data moves by +theta */
    r->delta[1] = x->theta[1];
    r->od = x->wreg;
    r->id = x->rreg;
    if (m->axis == MAP_AXIS_2D) {
      map_route_2d(m, r, used);
    } else {
      int fwd = x->theta[0] > 0;
      r->out_side[0] = map_route_out(m->axis == MAP_AXIS_ROWS, fwd ? 1 : -1);
      r->in_side[0] = map_route_opp(r->out_side[0]);
      int sh = map_route_shared(m, r->od, r->out_side[0]);
      r->port[0] = sh >= 0 ? sh : used[map_route_side(r->out_side[0])]++;
      r->hops = 1;
    }
    x->route = m->nroutes++;
  }
  static const char *const names[4] = {"north", "east", "south", "west"};
  for (int s = 0; s < 4; s++)
    if (used[s] > m->arch.ports) {
      return fit_nofit(&m->fit, msg, msgsz, FIT_RES_PORTS, "interconnect.ports", used[s], m->arch.ports,
                       names[s], "ports: %d propagation channels toward the %s neighbour, interconnect.ports = %d",
                       used[s], names[s], m->arch.ports);
    }
  return MAP_OK;
}
