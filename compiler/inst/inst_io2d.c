/*
 * inst_io2d.c: the interconnect of a 2-D region (RxC, placed at PE (0,0)):
 * the WRAPPER sinks of every PE and the bank of every access on every PE
 * (paper 6.4; docs/instantiate.md, "2-D regions").
 *
 * Sinks per PE (docs/stream.md): id0.., then the wrapper outputs N, E, S,
 * W, port 0..P-1 each. Filled in this order, each sink at most once:
 *  1. propagation channels (map_route), replicated on every PE: the od
 *     drives the first output port; a diagonal's intermediate PE connects
 *     the first hop's input to the second hop's output; the consumer's id
 *     takes the last hop's input. A connection toward or from a side on
 *     the array border is left out (no neighbour there: that side's ports
 *     are the banks', and no value of the channel crosses it, since the
 *     producer writes the od only where a consumer iteration exists);
 *  2. accesses of PEs on the array border: first an input that shares a
 *     channel's id (read only on the region's first row or column,
 *     map_access_on_channel) takes the bank behind that channel's port on
 *     the side it arrives from (north for the rows, west for the
 *     columns), so the PE's id reads the same wrapper input as on the
 *     inner PEs (io2d_on_channel); then every other access a free bank b
 *     of the PE's border side (north, west, south, east in that order of
 *     preference; bank b is wrapper port b, b < min(iobuf.banks,
 *     interconnect.ports));
 *  3. accesses of inner PEs: a pass-through chain from the north border
 *     (bank b of PE (0,c), down the column over r hops: each PE between
 *     connects its north input b to its south output b; a write goes up
 *     through south input b -> north output b), from the west border
 *     (bank b of PE (r,0) along the row over c hops), or from the south or
 *     east border when the region reaches it, in the order of
 *     io2d_side_key: hops, plus a penalty for west and east (column chains
 *     give every PE of a row the same pass-through sinks, so a row's
 *     wrappers and a border row's AGs become one packet each), inner PEs
 *     in that order too; the whole placement is tried with the largest
 *     penalty first and lower ones until it fits, the last 0 (nearest
 *     side);
 *     the port b must be free in every wrapper of the chain; where no
 *     straight chain fits, a bent one (io2d_bent): an L-shaped path from
 *     a free bank of any border PE of the region, one link port free in
 *     every wrapper on the way, the fewest hops first. Every hop is
 *     one cycle (timing.md 5), so the bank event on the border PE's AG
 *     comes `lag` cycles after PE k's own would: d(k) - d(border) - hops
 *     for a read (the value must arrive hops cycles earlier), + hops for a
 *     write.
 * When no chain fits: NOFIT naming the side, the column or row, and the
 * channels needed and available.
 *  4. once all fit, every chain is wired again over the same bank and
 *     hops with a port that moves by one per hop where the sinks are free
 *     (io2d_reroute), and the free sinks of those PEs get the same shift
 *     where no neighbour reads the port (io2d_fill): the wrappers of a
 *     column half become equal, one WRAPPER packet (docs/instantiate.md,
 *     "2-D regions").
 */
#include <stdlib.h>
#include <string.h>

#include "inst.h"

/* Sides in stream order. */
enum { IO_N = STREAM_SIDE_NORTH, IO_E = STREAM_SIDE_EAST, IO_S = STREAM_SIDE_SOUTH, IO_W = STREAM_SIDE_WEST };

/* Placement state. */
typedef struct {
  inst *x;
  int nsink, nb;
  uint64_t *bank;   /* [t * 4] banks taken per PE and side */
  uint32_t *chan;   /* [t * nsink] the sinks the channels take (after step 1) */
  int penalty;      /* extra hops a west or east chain counts (io2d_side_key) */
  int *order, norder; /* the chains in placement order: a * t + k */
  uint16_t *shift;    /* [t] the sides of shifting chains through a PE (io2d_chain_wire) */
  int *bent, nbent;   /* bent chains (io2d_bent_take): 6 ints each: a, k, border PE
                         number, side, bank, hfirst * IO2D_MAXPORT + link port */
} io2d;

/* A path of a bent chain: PEs p[0] (the border PE) .. p[n] (the one
 * served), dir[h] the side of p[h] the value leaves by toward p[h + 1]. */
enum { IO2D_MAXPATH = 130, IO2D_MAXPORT = 4096 };
typedef struct {
  int n;
  int r[IO2D_MAXPATH], c[IO2D_MAXPATH], dir[IO2D_MAXPATH];
} io2d_path;

/* Port templates of a chain (io2d_port). */
enum { IO2D_STRAIGHT, IO2D_SHIFT, IO2D_SHIFT_IN, IO2D_UP, IO2D_UP_IN, IO2D_NTEMPL };

/* Returns the side index of a route letter. */
static int io2d_side(char c) {
  return c == 'N' ? IO_N : c == 'E' ? IO_E : c == 'S' ? IO_S : IO_W;
}

/* Returns 1 when PE (r, c) of the region lies on the array border `side`
 * (the region at its origin, inst_opts.row0, col0). */
static int io2d_border(const inst *x, int r, int c, int side) {
  r += x->opt.row0;
  c += x->opt.col0;
  switch (side) {
  case IO_N: return r == 0;
  case IO_S: return r == x->arch.rows - 1;
  case IO_W: return c == 0;
  default: return c == x->arch.cols - 1;
  }
}

/* Returns 1 when PE (r, c) of the region lies on the edge `side` of the
 * PEs used (tr x tc): no PE of the region beyond it, so a channel
 * neither leaves nor enters the region there (docs/timing.md 11,
 * "Isolation"). */
static int io2d_edge(const inst *x, int r, int c, int side) {
  switch (side) {
  case IO_N: return r == 0;
  case IO_S: return r == x->tr - 1;
  case IO_W: return c == 0;
  default: return c == x->tc - 1;
  }
}

/* Returns the sink number of wrapper output (side, port). */
static int io2d_sink_port(const inst *x, int side, int port) { return x->arch.id + side * x->arch.ports + port; }

/* Returns the source number of wrapper input (side, port). */
static int io2d_src_port(const inst *x, int side, int port) { return x->arch.od + side * x->arch.ports + port; }

/* Returns the sink table of PE (r, c). */
static uint32_t *io2d_sinks(io2d *s, int r, int c) { return s->x->wsink + (size_t)(r * s->x->tc + c) * s->nsink; }

/* Connects sink to source on PE (r, c); returns 0, -1 when the sink is
 * taken by another source. */
static int io2d_connect(io2d *s, int r, int c, int sink, int src) {
  uint32_t *w = io2d_sinks(s, r, c);
  if (w[sink] && w[sink] != 1u + (uint32_t)src) return -1;
  w[sink] = 1u + (uint32_t)src;
  return 0;
}

/* Returns 0 after replicating every channel route on every PE (step 1). */
static int io2d_channels(io2d *s, char *msg, size_t msgsz) {
  inst *x = s->x;
  for (int i = 0; i < x->m->nroutes; i++) {
    const map_route *rt = &x->m->routes[i];
    int o1 = io2d_side(rt->out_side[0]), i1 = io2d_side(rt->in_side[0]);
    int two = rt->hops == 2;
    int o2 = two ? io2d_side(rt->out_side[1]) : -1, i2 = two ? io2d_side(rt->in_side[1]) : -1;
    int last_in = two ? i2 : i1, last_port = two ? rt->port[1] : rt->port[0];
    for (int r = 0; r < x->tr; r++)
      for (int c = 0; c < x->tc; c++) {
        int bad = 0;
        if (!io2d_edge(x, r, c, o1)) bad |= io2d_connect(s, r, c, io2d_sink_port(x, o1, rt->port[0]), rt->od.idx);
        if (two && !io2d_edge(x, r, c, i1) && !io2d_edge(x, r, c, o2))
          bad |= io2d_connect(s, r, c, io2d_sink_port(x, o2, rt->port[1]), io2d_src_port(x, i1, rt->port[0]));
        if (!io2d_edge(x, r, c, last_in))
          bad |= io2d_connect(s, r, c, rt->id.idx, io2d_src_port(x, last_in, last_port));
        if (bad) {
          snprintf(msg, msgsz, "internal: channel %d shares a wrapper output with another on PE (%d,%d)", i, r, c);
          return INST_ERR_INTERNAL;
        }
      }
  }
  return INST_OK;
}

/* Returns 1 when access a has an element on PE k. */
static int io2d_has(const inst *x, int a, int k) {
  for (int64_t q = 0; q < x->P; q++)
    if (x->io[a].elem_lin[k * x->P + q] >= 0) return 1;
  return 0;
}

/* Returns 1 when bank b of PE (r, c), side `side`, is free. */
static int io2d_bank_free(io2d *s, int r, int c, int side, int b) {
  return !(s->bank[(size_t)(r * s->x->tc + c) * 4 + side] >> b & 1);
}

/* Takes bank b of PE (r, c), side `side`. */
static void io2d_bank_take(io2d *s, int r, int c, int side, int b) {
  s->bank[(size_t)(r * s->x->tc + c) * 4 + side] |= 1ull << b;
}

/* Returns 1 when sink `sink` of PE (r, c) is free. */
static int io2d_free(io2d *s, int r, int c, int sink) { return !io2d_sinks(s, r, c)[sink]; }

/* Records that access a of PE k is served by bank b on side `side` of
 * the PE itself (no pass-through hops, no lag). */
static void io2d_own_bank(inst *x, int a, int k, int side, int b) {
  int r, c;
  inst_pe_rc(x, k, &r, &c);
  inst_io *io = &x->io[a];
  io->pside[k] = side;
  io->pbank[k] = b;
  io->prow[k] = r;
  io->pcol[k] = c;
  io->hops[k] = 0;
  io->lag[k] = 0;
}
/* Places access a of PE k on its own border bank (step 2); returns 1 when
 * placed, 0 when the PE is not on a border side with a free bank. */
static int io2d_direct(io2d *s, int a, int k) {
  inst *x = s->x;
  const map_access *ac = &x->m->access[a];
  static const int pref[4] = {IO_N, IO_W, IO_S, IO_E};
  int r, c;
  inst_pe_rc(x, k, &r, &c);
  for (int i = 0; i < 4; i++) {
    int side = pref[i];
    if (!io2d_border(x, r, c, side)) continue;
    for (int b = 0; b < s->nb; b++) {
      int port = io2d_sink_port(x, side, b);
      if (!io2d_bank_free(s, r, c, side, b) || (ac->is_out && !io2d_free(s, r, c, port))) continue;
      io2d_bank_take(s, r, c, side, b);
      if (ac->is_out) io2d_connect(s, r, c, port, ac->reg.idx);
      else io2d_connect(s, r, c, ac->reg.idx, io2d_src_port(x, side, b));
      io2d_own_bank(x, a, k, side, b);
      return 1;
    }
  }
  return 0;
}

/* Places access a of PE k on the bank behind the port of the channel
 * whose id it shares (map_access_on_channel: an input read only on the
 * first row or column of the region), on the border side the channel
 * arrives from (step 2, before any other bank): the PE's wrapper then
 * connects that id to the same wrapper input whether the neighbour or the
 * bank drives it, and the first row or column runs the inner PEs' words.
 * Returns 1 when placed, 0 when the PE is not on that border or the
 * port has no free bank (the access then takes any bank, io2d_direct). */
static int io2d_on_channel(io2d *s, int a, int k) {
  inst *x = s->x;
  int rt = map_access_on_channel(x->m, a), r, c;
  if (rt < 0) return 0;
  int side = io2d_side(x->m->routes[rt].in_side[0]), b = x->m->routes[rt].port[0];
  inst_pe_rc(x, k, &r, &c);
  if (!io2d_border(x, r, c, side) || b >= s->nb || !io2d_bank_free(s, r, c, side, b)) return 0;
  if (io2d_connect(s, r, c, x->m->access[a].reg.idx, io2d_src_port(x, side, b))) return 0;
  io2d_bank_take(s, r, c, side, b);
  io2d_own_bank(x, a, k, side, b);
  return 1;
}

/* Returns the opposite side. */
static int io2d_opp(int side) {
  return side == IO_N ? IO_S : side == IO_S ? IO_N : side == IO_W ? IO_E : IO_W;
}

/* Returns the hops of a chain from the border `side` to PE (r, c) (the
 * border PE is (0,c), (r,0), (rows-1,c) or (r,cols-1) of the array), or -1
 * when that border PE is not in the region used. */
static int io2d_hops(const inst *x, int r, int c, int side) {
  int r0 = x->opt.row0, c0 = x->opt.col0;
  switch (side) {
  case IO_N: return r0 == 0 ? r : -1;
  case IO_W: return c0 == 0 ? c : -1;
  case IO_S: return r0 + x->tr == x->arch.rows ? x->tr - 1 - r : -1;
  default: return c0 + x->tc == x->arch.cols ? x->tc - 1 - c : -1;
  }
}

/* Sets *pr, *pc to the PE h hops from the border `side` toward (r, c)
 * (of the region; the border reached, io2d_hops). */
static void io2d_step(const inst *x, int r, int c, int side, int h, int *pr, int *pc) {
  *pr = side == IO_N ? h : side == IO_S ? x->tr - 1 - h : r;
  *pc = side == IO_W ? h : side == IO_E ? x->tc - 1 - h : c;
}

/* Returns the port of link h of a chain to bank b (link 0: the bank's,
 * link h >= 1: between the PEs h - 1 and h hops from the border) with
 * template t: IO2D_STRAIGHT b on every link; IO2D_SHIFT b - h (every PE
 * on the way moves the value one port up toward the border, so the PE at
 * the far end uses port b - hops, the same for every chain of a column
 * whose banks follow the hops); IO2D_SHIFT_IN b on links 0 and 1, b + 1 -
 * h further in (the border PE passes straight); IO2D_UP and IO2D_UP_IN
 * the same moving down (b + h; b + h - 1), for banks that fall as the
 * hops grow. */
static int io2d_port(int b, int h, int t) {
  switch (t) {
  case IO2D_SHIFT: return b - h;
  case IO2D_SHIFT_IN: return h ? b + 1 - h : b;
  case IO2D_UP: return b + h;
  case IO2D_UP_IN: return h ? b + h - 1 : b;
  default: return b;
  }
}

/* Returns 1 when every link of a chain of `hops` to bank b with template t
 * has a port (0 .. ports - 1). */
static int io2d_ports_ok(const inst *x, int b, int hops, int t) {
  for (int h = 0; h <= hops; h++) {
    int q = io2d_port(b, h, t);
    if (q < 0 || q >= x->arch.ports) return 0;
  }
  return 1;
}

/* Returns 1 when a chain from border `side` to PE (r, c) can use bank b
 * with template t for access a: the border bank is free (bank_too) and so
 * is every sink the chain needs in every wrapper on the way (w: the sink
 * tables to check). */
static int io2d_chain_fits(io2d *s, const uint32_t *w, int a, int r, int c, int side, int b, int bank_too, int t) {
  inst *x = s->x;
  int out = x->m->access[a].is_out, far = io2d_opp(side), hops = io2d_hops(x, r, c, side);
  if (hops < 0 || !io2d_ports_ok(x, b, hops, t)) return 0;
  int br, bc;
  io2d_step(x, r, c, side, 0, &br, &bc);
  if (bank_too && !io2d_bank_free(s, br, bc, side, b)) return 0;
  for (int h = 0; h <= hops; h++) {
    int pr, pc;
    io2d_step(x, r, c, side, h, &pr, &pc);
    const uint32_t *pw = w + (size_t)(pr * x->tc + pc) * s->nsink;
    if (out ? pw[io2d_sink_port(x, side, io2d_port(b, h, t))] != 0
            : h < hops && pw[io2d_sink_port(x, far, io2d_port(b, h + 1, t))] != 0)
      return 0;
  }
  return 1;
}

/* Connects the sinks of the chain of access a from border `side` to PE
 * (r, c) over bank b with template t; marks the PEs of a shifting chain in
 * s->shift (bit 4 * kind + side; kind 0: an output's moving toward the
 * border's higher ports, 1: an input's, 2 and 3: the same moving down). */
static void io2d_chain_wire(io2d *s, int a, int r, int c, int side, int b, int t) {
  inst *x = s->x;
  const map_access *ac = &x->m->access[a];
  int far = io2d_opp(side), hops = io2d_hops(x, r, c, side);
  for (int h = 0; h <= hops; h++) {
    int pr, pc, q = io2d_port(b, h, t);
    io2d_step(x, r, c, side, h, &pr, &pc);
    if (ac->is_out)
      io2d_connect(s, pr, pc, io2d_sink_port(x, side, q),
                   h == hops ? ac->reg.idx : io2d_src_port(x, far, io2d_port(b, h + 1, t)));
    else if (h < hops)
      io2d_connect(s, pr, pc, io2d_sink_port(x, far, io2d_port(b, h + 1, t)), io2d_src_port(x, side, q));
    else
      io2d_connect(s, pr, pc, ac->reg.idx, io2d_src_port(x, side, q));
    if (t != IO2D_STRAIGHT && s->shift)
      s->shift[pr * x->tc + pc] |=
          (uint16_t)(1u << (side + 4 * ((ac->is_out ? 0 : 1) + (t == IO2D_UP || t == IO2D_UP_IN ? 2 : 0))));
  }
}

/* Connects the chain of access a from border `side` to PE k = (r, c) over
 * port b (straight) and records it. */
static void io2d_chain_take(io2d *s, int a, int k, int r, int c, int side, int b) {
  inst *x = s->x;
  const map_access *ac = &x->m->access[a];
  int hops = io2d_hops(x, r, c, side), br, bc;
  io2d_step(x, r, c, side, 0, &br, &bc);
  io2d_bank_take(s, br, bc, side, b);
  io2d_chain_wire(s, a, r, c, side, b, IO2D_STRAIGHT);
  if (s->order) s->order[s->norder++] = a * x->t + k;
  inst_io *io = &x->io[a];
  io->pside[k] = side;
  io->pbank[k] = b;
  io->prow[k] = br;
  io->pcol[k] = bc;
  io->hops[k] = hops;
  io->lag[k] = inst_pe_delay(x, k) - inst_pe_delay(x, br * x->tc + bc) + (ac->is_out ? hops : -hops);
}

/* Returns the number of ports b < nb whose chain from `side` to (r, c) no
 * propagation channel blocks (each is one channel the border line could
 * carry). */
static int io2d_chain_avail(io2d *s, int a, int r, int c, int side) {
  int n = 0;
  for (int b = 0; b < s->nb; b++) n += io2d_chain_fits(s, s->chan, a, r, c, side, b, 0, IO2D_STRAIGHT);
  return n;
}

/* Returns the number of banks taken on the border PE of side `side` for
 * PE (r, c). */
static int io2d_banks_taken(io2d *s, int r, int c, int side) {
  int br, bc;
  io2d_step(s->x, r, c, side, 0, &br, &bc);
  uint64_t m = s->bank[(size_t)(br * s->x->tc + bc) * 4 + side];
  int n = 0;
  for (; m; m &= m - 1) n++;
  return n;
}

/* Returns the preference key of a chain from border `side` to PE (r, c)
 * (smaller first; -1: unreachable): its hops, plus s->penalty for the west
 * and east sides. A large penalty puts every column chain (north, south)
 * first: a PE's pass-through sinks then depend on its row alone (every
 * column of the region's inside takes the same ports), so the wrappers of
 * a row are equal and become one WRAPPER packet, and the AGs of a border
 * row one AG packet: the stream grows with the rows, not the PEs. Penalty
 * 0 is the nearest side. Ties: N, W, S, E. */
static int io2d_side_key(const io2d *s, int r, int c, int side) {
  int h = io2d_hops(s->x, r, c, side);
  if (h < 0) return -1;
  return (side == IO_W || side == IO_E) * s->penalty + h;
}

/* Returns 1 and the path of an L-shaped chain from border PE (br, bc) to
 * PE (r, c), along the row first when hfirst, else along the column
 * first; 0 when the two PEs share a row or a column (a straight chain) or
 * the path is too long. */
static int io2d_bent_path(int br, int bc, int r, int c, int hfirst, io2d_path *p) {
  if (br == r || bc == c || abs(br - r) + abs(bc - c) >= IO2D_MAXPATH) return 0;
  int cr = br, cc = bc;
  p->n = 0;
  for (int leg = 0; leg < 2; leg++) {
    int horiz = leg == 0 ? hfirst : !hfirst;
    while (horiz ? cc != c : cr != r) {
      int dir = horiz ? (c > cc ? IO_E : IO_W) : (r > cr ? IO_S : IO_N);
      p->r[p->n] = cr;
      p->c[p->n] = cc;
      p->dir[p->n++] = dir;
      if (horiz) cc += c > cc ? 1 : -1;
      else cr += r > cr ? 1 : -1;
    }
  }
  p->r[p->n] = cr;
  p->c[p->n] = cc;
  return 1;
}

/* Connects (wire) or checks (returns 1 when every sink is free in the
 * sink tables w) the sinks of bent chain p for access a: bank b of border
 * side `side` on p[0], link port q on every hop. */
static int io2d_bent_sinks(io2d *s, uint32_t *w, const io2d_path *p, int a, int side, int b, int q, int wire) {
  inst *x = s->x;
  const map_access *ac = &x->m->access[a];
  for (int h = 0; h <= p->n; h++) {
    int sink, src;
    if (!ac->is_out) {
      src = h ? io2d_src_port(x, io2d_opp(p->dir[h - 1]), q) : io2d_src_port(x, side, b);
      sink = h < p->n ? io2d_sink_port(x, p->dir[h], q) : ac->reg.idx;
    } else {
      src = h < p->n ? io2d_src_port(x, p->dir[h], q) : ac->reg.idx;
      sink = h ? io2d_sink_port(x, io2d_opp(p->dir[h - 1]), q) : io2d_sink_port(x, side, b);
    }
    uint32_t *pw = w + (size_t)(p->r[h] * x->tc + p->c[h]) * s->nsink;
    if (wire) io2d_connect(s, p->r[h], p->c[h], sink, src);
    else if (pw[sink] && !(!ac->is_out && h == p->n)) return 0;
  }
  return 1;
}

/* Wires bent chain i of s->bent (io2d_reroute wires them again). */
static void io2d_bent_wire(io2d *s, int i) {
  const int *e = &s->bent[6 * i];
  int br, bc, r, c;
  io2d_path p;
  inst_pe_rc(s->x, e[2], &br, &bc);
  inst_pe_rc(s->x, e[1], &r, &c);
  if (io2d_bent_path(br, bc, r, c, e[5] / IO2D_MAXPORT, &p))
    io2d_bent_sinks(s, s->x->wsink, &p, e[0], e[3], e[4], e[5] % IO2D_MAXPORT, 1);
}

/* Places access a of inner PE k through a bent chain: an L-shaped path
 * from a free bank of any border PE of the region over a link port free
 * in every wrapper on the way (the fewest hops first), where no straight
 * chain fits; returns 1 when placed. */
static int io2d_bent(io2d *s, int a, int k) {
  inst *x = s->x;
  int r, c, best = -1, bk = 0, bside = 0, bb = 0, bq = 0, bh = 0;
  inst_pe_rc(x, k, &r, &c);
  io2d_path p;
  for (int kb = 0; kb < x->t; kb++) {
    int br, bc;
    inst_pe_rc(x, kb, &br, &bc);
    int len = abs(br - r) + abs(bc - c);
    if (best >= 0 && len >= best) continue;
    for (int side = 0; side < 4; side++) {
      if (!io2d_border(x, br, bc, side)) continue;
      for (int hf = 0; hf < 2; hf++) {
        if (!io2d_bent_path(br, bc, r, c, hf, &p)) continue;
        for (int b = 0; b < s->nb && (best < 0 || len < best); b++) {
          if (!io2d_bank_free(s, br, bc, side, b)) continue;
          for (int q = 0; q < x->arch.ports && q < IO2D_MAXPORT; q++)
            if (io2d_bent_sinks(s, x->wsink, &p, a, side, b, q, 0)) {
              best = len, bk = kb, bside = side, bb = b, bq = q, bh = hf;
              break;
            }
        }
      }
    }
  }
  int *nb = best >= 0 ? realloc(s->bent, (size_t)(s->nbent + 1) * 6 * sizeof *nb) : NULL;
  if (!nb) return 0;
  s->bent = nb;
  int *e = &s->bent[6 * s->nbent];
  e[0] = a, e[1] = k, e[2] = bk, e[3] = bside, e[4] = bb, e[5] = bh * IO2D_MAXPORT + bq;
  io2d_bent_wire(s, s->nbent++);
  int br, bc;
  inst_pe_rc(x, bk, &br, &bc);
  io2d_bank_take(s, br, bc, bside, bb);
  inst_io *io = &x->io[a];
  io->pside[k] = bside;
  io->pbank[k] = bb;
  io->prow[k] = br;
  io->pcol[k] = bc;
  io->hops[k] = best;
  io->lag[k] = inst_pe_delay(x, k) - inst_pe_delay(x, bk) + (x->m->access[a].is_out ? best : -best);
  return 1;
}

/* Places access a of inner PE k through a chain (step 3), from the border
 * side io2d_side_key prefers that has a port free; INST_OK or NOFIT with
 * the message. */
static int io2d_inner(io2d *s, int a, int k, char *msg, size_t msgsz) {
  inst *x = s->x;
  const map_access *ac = &x->m->access[a];
  static const int sides[4] = {IO_N, IO_W, IO_S, IO_E};
  int r, c;
  inst_pe_rc(x, k, &r, &c);
  int order[4] = {0, 1, 2, 3};
  for (int i = 1; i < 4; i++) /* by io2d_side_key, unreachable sides last */
    for (int j = i; j > 0; j--) {
      int hj = io2d_side_key(s, r, c, sides[order[j]]), hp = io2d_side_key(s, r, c, sides[order[j - 1]]);
      if (hj < 0 || (hp >= 0 && hp <= hj)) break;
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (int i = 0; i < 4; i++) {
    int side = sides[order[i]];
    for (int b = 0; b < s->nb; b++)
      if (io2d_chain_fits(s, x->wsink, a, r, c, side, b, 1, IO2D_STRAIGHT)) {
        io2d_chain_take(s, a, k, r, c, side, b);
        return INST_OK;
      }
  }
  if (io2d_bent(s, a, k)) return INST_OK;
  /* needed: the banks of the border PE already taken (its own accesses
   * and earlier chains) plus this one; available: the ports no
   * propagation channel takes on the way */
  /* one item per side tried; the first says which PE and access */
  fit_record_clear(&x->fit);
  static const char *const names[4] = {"north", "east", "south", "west"};
  const char *key = x->arch.banks <= x->arch.ports ? "iobuf.banks" : "interconnect.ports";
  for (int i = 0; i < 4; i++) {
    int side = sides[i], hops = io2d_hops(x, r, c, side);
    if (hops < 0) continue;
    int vert = side == IO_N || side == IO_S, need = io2d_banks_taken(s, r, c, side) + 1;
    int have = io2d_chain_avail(s, a, r, c, side);
    char where[96], lead[160] = "";
    int ar = r + x->opt.row0, acol = c + x->opt.col0; /* the array's PE, for people */
    snprintf(where, sizeof where, "PE (%d,%d), access %d, %s side", ar, acol, a, names[side]);
    if (!x->fit.n)
      snprintf(lead, sizeof lead, "I/O routing: PE (%d,%d) is not on the array border and the interconnect "
               "cannot carry access %d (%s of %s) to it: ", ar, acol, a, ac->is_out ? "output" : "input",
               x->m->array_name[ac->array]);
    fit_record_add(&x->fit, FIT_RES_IO_CHANNELS, key, need, have, where,
                   "%s%s side, %s %d (%d hops): channels needed %d, available %d", lead, names[side],
                   vert ? "column" : "row", vert ? acol : ar, hops, need, have);
  }
  snprintf(x->fit.note, sizeof x->fit.note,
           " (a channel is a bank of the border PE and its port in every wrapper on the way: "
           "min(iobuf.banks %d, interconnect.ports %d), less the ports the propagation channels take; "
           "no L-shaped path from another border PE has a free bank and port either)",
           x->arch.banks, x->arch.ports);
  fit_record_format(&x->fit, msg, msgsz);
  return INST_ERR_NOFIT;
}

void inst_io_reset(inst *x) {
  free(x->wsink);
  x->wsink = NULL;
  for (int a = 0; x->io && x->m && a < x->m->naccess; a++) {
    inst_io *io = &x->io[a];
    free(io->pside);
    free(io->pbank);
    free(io->prow);
    free(io->pcol);
    free(io->hops);
    free(io->lag);
    io->pside = io->pbank = io->prow = io->pcol = io->hops = NULL;
    io->lag = NULL;
  }
}

/* Connects the bank port of access a on border PE k, placed by
 * io2d_direct. */
static void io2d_direct_wire(io2d *s, int a, int k) {
  inst *x = s->x;
  const map_access *ac = &x->m->access[a];
  int r, c, side = x->io[a].pside[k], b = x->io[a].pbank[k];
  inst_pe_rc(x, k, &r, &c);
  if (ac->is_out) io2d_connect(s, r, c, io2d_sink_port(x, side, b), ac->reg.idx);
  else io2d_connect(s, r, c, ac->reg.idx, io2d_src_port(x, side, b));
}

/* Returns 1 when no sink of the PE next to (r, c) toward `side` reads its
 * wrapper input (opposite side, q) in the sink tables w. */
static int io2d_unread(const io2d *s, const uint32_t *w, int r, int c, int side, int q) {
  const inst *x = s->x;
  int nr = r + (side == IO_S) - (side == IO_N), nc = c + (side == IO_E) - (side == IO_W);
  if (nr < 0 || nc < 0 || nr >= x->tr || nc >= x->tc) return 0;
  const uint32_t *nw = w + (size_t)(nr * x->tc + nc) * (size_t)s->nsink;
  uint32_t src = 1u + (uint32_t)io2d_src_port(x, io2d_opp(side), q);
  for (int j = 0; j < s->nsink; j++)
    if (nw[j] == src) return 0;
  return 1;
}

/* Fills the free sinks of PE (r, c) on the sides its shifting chains take
 * with the same shift (kind of io2d_chain_wire; an output's side S moving
 * up: S port q from the far side's port q - 1; an input's: far port q - 1
 * from S port q; moving down the same with q and q - 1 swapped), where the
 * port leads to a neighbour in the region that reads it nowhere (real: the
 * sinks before any fill): a token that takes a filled sink then only
 * travels through other filled sinks and vanishes (timing.md 5 and 6: a
 * wrapper input no sink reads drops it without a fault), never into a
 * FIFO or a bank. Every PE of a column half then has the same sinks, so
 * one WRAPPER packet configures them all. */
static void io2d_fill(io2d *s, const uint32_t *real, int r, int c) {
  inst *x = s->x;
  unsigned m = s->shift[r * x->tc + c];
  uint32_t *w = io2d_sinks(s, r, c);
  for (int kind = 0; kind < 4; kind++)
    for (int side = 0; side < 4; side++) {
      if (!(m >> (4 * kind + side) & 1)) continue;
      int far = io2d_opp(side), in = kind & 1, up = kind < 2;
      for (int q = 1; q < x->arch.ports; q++) {
        int hi = up ? q : q - 1, lo = up ? q - 1 : q; /* the port toward the border, the one inward */
        int to = in ? far : side, from = in ? side : far;
        int pto = in ? lo : hi, pfrom = in ? hi : lo;
        int sk = io2d_sink_port(x, to, pto);
        if (!w[sk] && io2d_unread(s, real, r, c, to, pto)) w[sk] = 1u + (uint32_t)io2d_src_port(x, from, pfrom);
      }
    }
}

/* Wires the placed chains again, each over the same bank and hops (so the
 * AGs and timing stay), with the first template of IO2D_SHIFT,
 * IO2D_SHIFT_IN, IO2D_STRAIGHT whose sinks are free, in placement order;
 * then fills the shifting PEs (io2d_fill). A straight chain's port differs
 * from row to row, a shifting chain's end port does not: with the fill,
 * the wrappers of a column's rows become equal. Keeps the straight wiring
 * when some chain fits no template. */
static void io2d_reroute(io2d *s) {
  inst *x = s->x;
  size_t n = (size_t)x->t * (size_t)s->nsink;
  uint32_t *keep = malloc(n * sizeof *keep);
  s->shift = calloc((size_t)x->t, sizeof *s->shift);
  if (!keep || !s->shift) {
    free(keep);
    free(s->shift);
    s->shift = NULL;
    return;
  }
  memcpy(keep, x->wsink, n * sizeof *keep);
  memcpy(x->wsink, s->chan, n * sizeof *keep);
  for (int a = 0; a < x->m->naccess; a++)
    for (int k = 0; k < x->t; k++)
      if (x->io[a].pside[k] >= 0 && x->io[a].hops[k] == 0) io2d_direct_wire(s, a, k);
  for (int i = 0; i < s->nbent; i++) io2d_bent_wire(s, i);
  int ok = 1;
  static const int templ[IO2D_NTEMPL] = {IO2D_SHIFT, IO2D_SHIFT_IN, IO2D_UP, IO2D_UP_IN, IO2D_STRAIGHT};
  for (int i = 0; i < s->norder && ok; i++) {
    int a = s->order[i] / x->t, k = s->order[i] % x->t, r, c;
    inst_pe_rc(x, k, &r, &c);
    int side = x->io[a].pside[k], b = x->io[a].pbank[k], u = 0;
    while (u < IO2D_NTEMPL && !io2d_chain_fits(s, x->wsink, a, r, c, side, b, 0, templ[u])) u++;
    if (u < IO2D_NTEMPL) io2d_chain_wire(s, a, r, c, side, b, templ[u]);
    ok = u < IO2D_NTEMPL;
  }
  if (ok) {
    memcpy(keep, x->wsink, n * sizeof *keep); /* the real sinks */
    for (int k = 0; k < x->t; k++) {
      int r, c;
      inst_pe_rc(x, k, &r, &c);
      io2d_fill(s, keep, r, c);
    }
  } else
    memcpy(x->wsink, keep, n * sizeof *keep);
  free(keep);
  free(s->shift);
  s->shift = NULL;
}

/* Returns INST_OK after placing every access of every PE with chains
 * preferring sides by io2d_side_key with `penalty`; NOFIT with the
 * message when some chain does not fit. */
static int io2d_place(inst *x, int penalty, char *msg, size_t msgsz) {
  io2d s = {x, x->arch.id + 4 * x->arch.ports, x->arch.banks < x->arch.ports ? x->arch.banks : x->arch.ports,
            NULL, NULL, penalty, NULL, 0, NULL, NULL, 0};
  if (s.nb > 64) s.nb = 64;
  x->wsink = calloc((size_t)x->t * (size_t)s.nsink, sizeof *x->wsink);
  s.bank = calloc((size_t)x->t * 4, sizeof *s.bank);
  int st = !x->wsink || !s.bank ? INST_ERR_INTERNAL : inst_io_pe_alloc(x);
  if (!st) st = io2d_channels(&s, msg, msgsz);
  if (!st && !(s.chan = malloc((size_t)x->t * (size_t)s.nsink * sizeof *s.chan))) st = INST_ERR_INTERNAL;
  if (!st) memcpy(s.chan, x->wsink, (size_t)x->t * (size_t)s.nsink * sizeof *s.chan);
  if (!st && !(s.order = malloc((size_t)x->t * (size_t)x->m->naccess * sizeof *s.order))) st = INST_ERR_INTERNAL;
  /* inputs on a channel's port first, then the other accesses of border
   * PEs (their banks also start the chains), then inner PEs nearest the
   * border first */
  for (int a = 0; a < x->m->naccess && !st; a++)
    for (int k = 0; k < x->t; k++)
      if (io2d_has(x, a, k)) io2d_on_channel(&s, a, k);
  for (int a = 0; a < x->m->naccess && !st; a++)
    for (int k = 0; k < x->t && !st; k++)
      if (io2d_has(x, a, k) && x->io[a].pside[k] < 0 && !io2d_direct(&s, a, k)) {
        int r, c;
        inst_pe_rc(x, k, &r, &c);
        if (io2d_border(x, r, c, IO_N) || io2d_border(x, r, c, IO_W) || io2d_border(x, r, c, IO_S) ||
            io2d_border(x, r, c, IO_E)) {
          char where[96];
          r += x->opt.row0, c += x->opt.col0; /* the array's PE, for people */
          snprintf(where, sizeof where, "PE (%d,%d), access %d (%s)", r, c, a, x->m->array_name[x->m->access[a].array]);
          st = fit_nofit(&x->fit, msg, msgsz, FIT_RES_IO_BANKS,
                         x->arch.banks <= x->arch.ports ? "iobuf.banks" : "interconnect.ports", s.nb + 1, s.nb, where,
                         "I/O banks: PE (%d,%d) needs a bank for access %d (%s) on its border side, all %d usable "
                         "are taken (iobuf.banks %d, interconnect.ports %d)",
                         r, c, a, x->m->array_name[x->m->access[a].array], s.nb, x->arch.banks, x->arch.ports);
        }
      }
  /* inner PEs in the order of their preferred chain (io2d_side_key): the
   * same rows of every column take the same ports */
  for (int dist = 1; dist < x->tr + x->tc + s.penalty && !st; dist++)
    for (int a = 0; a < x->m->naccess && !st; a++)
      for (int k = 0; k < x->t && !st; k++) {
        int r, c, d = INT32_MAX;
        inst_pe_rc(x, k, &r, &c);
        for (int side = 0; side < 4; side++) {
          int h = io2d_side_key(&s, r, c, side);
          if (h >= 0 && h < d) d = h;
        }
        if (d != dist || x->io[a].pside[k] >= 0 || !io2d_has(x, a, k)) continue;
        st = io2d_inner(&s, a, k, msg, msgsz);
      }
  for (int a = 0; a < x->m->naccess && !st; a++) {
    x->io[a].side = STREAM_SIDE_NORTH;
    x->io[a].bank = 0;
    for (int k = x->t - 1; k >= 0; k--)
      if (x->io[a].pside[k] >= 0) {
        x->io[a].side = x->io[a].pside[k];
        x->io[a].bank = x->io[a].pbank[k];
      }
  }
  if (!st) io2d_reroute(&s);
  free(s.bank);
  free(s.chan);
  free(s.order);
  free(s.bent);
  return st;
}

int inst_place_io_2d(inst *x, char *msg, size_t msgsz) {
  /* column chains first (a stream that grows with the rows), then less
   * and less of a preference (the largest penalty that fits), down to the
   * nearest side, whose message a region that does not fit reports */
  int st = INST_ERR_NOFIT;
  for (int pen = x->arch.rows + x->arch.cols; pen >= 0; pen--) {
    if (st == INST_ERR_NOFIT && pen < x->arch.rows + x->arch.cols) inst_io_reset(x);
    st = io2d_place(x, pen, msg, msgsz);
    if (st != INST_ERR_NOFIT) break;
  }
  return st;
}
