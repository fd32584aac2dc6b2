/*
 * map_bounds.c: lower bounds of what a program needs on a region
 * (map_bounds.h, docs/symbolic.md "Lower bounds").
 *
 * Each bound holds for every symbolic mapping of this flow (LSGP tiles of
 * any size, every iteration computed once on the PE of its tile, valid
 * for every parameter value and region size of the shape), whatever the
 * rewrite level, II, register allocation and routes:
 *  - functional units: one of each class an operation of the program
 *    needs (pe.alu, pe.mul, pe.div);
 *  - loop dimensions: the program's, counted by the global controller
 *    (gc.dims);
 *  - input registers id: one per direction values arrive from (a
 *    dependence whose distance along a tiled dimension is not zero
 *    crosses a tile border for some tile size; on a 2-D region a diagonal
 *    one arrives over one of its two sides), and one when the program
 *    reads an input (banks fill ids); a dependence produced by a copy
 *    (MOV) is left out, since a copy of an input may be read again
 *    instead of sent (map_reread.c);
 *  - output registers od: one per direction values leave to (the same
 *    directions, reversed), and one when the program writes an output;
 *  - wrapper ports: one when any value crosses (interconnect.ports);
 *  - input registers id, again: one per input array read by an operation
 *    with no condition (all are read in the first iteration of every PE,
 *    and an id takes one value per iteration: a bank's address generator
 *    has one event per step, a channel one token); output registers od:
 *    one per output array written by such an operation (a PE's last
 *    iteration writes them all);
 *  - registers rd: the most computed values (not copies) of one
 *    iteration one operation reads at once (d = 0 values live in rds);
 *  - registers fd: one per computed value carried from an iteration to a
 *    later one of the same PE (a dependence whose distance is zero along
 *    the tiled dimensions never crosses a tile; the flow carries it in an
 *    fd and never shares one between values);
 *  - instruction words (pe.imem): the busiest unit of a class holds at
 *    least its share of the class's instructions, one word each: its
 *    operations, those of one variable and operation (or one operation
 *    on the same operands) counted once, copies left out (forwarding may
 *    drop them);
 *  - I/O banks of a side: the arrays of the input and output bounds
 *    (an access takes a bank) spread over at most four border sides,
 *    at least 1 when the program has I/O.
 * A region of one PE has no channels: its id and od bounds are the I/O's.
 * Control flow (signals, GC terms, branch levels, enables), schedules,
 * depths and encodings have no bound: their items carry none.
 */
#include "map_bounds.h"

#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "map.h"

/* Appends a bound to b. */
static void map_bounds_add(map_bounds *b, fit_resource res, const char *key, int64_t bound, int64_t have,
                           const char *why) {
  if (b->n >= MAP_BOUNDS_MAX) return;
  map_bound *x = &b->b[b->n++];
  x->res = res;
  snprintf(x->key, sizeof x->key, "%s", key);
  x->bound = bound;
  x->have = have;
  snprintf(x->why, sizeof x->why, "%s", why);
}

/* Returns the side bit of distance component d along axis (0, 1): bit
 * 2 * axis + (d < 0), 0 when d is 0. */
static int map_bounds_side(int64_t d, int axis) { return d ? 1 << (2 * axis + (d < 0)) : 0; }

/* Returns 1 when dependence edge e of g carries a computed value (not a
 * copy, which may be read again from its input instead). */
static int map_bounds_computed(const rdg *g, int e) {
  return g->edges[e].kind == RDG_EDGE_DEP && g->nodes[g->edges[e].src].op != AST_OP_MOV;
}

/* Returns 1 when dependence edge e of g has a nonzero distance, zero
 * along mapped and mapped2 (-1: none): it stays inside a tile. */
static int map_bounds_carried(const rdg *g, int e, int mapped, int mapped2) {
  const rdg_edge *x = &g->edges[e];
  int nz = 0;
  for (int d = 0; d < g->ndims; d++) nz |= x->d[d] != 0;
  return nz && mapped >= 0 && x->d[mapped] == 0 && (mapped2 < 0 || x->d[mapped2] == 0);
}

/* Returns the directions computed values arrive from over the tiled
 * dimensions mapped and mapped2 (-1: none) as a mask of side bits, and in
 * *diag 1 when a diagonal dependence (both components nonzero) has
 * neither of its two sides among them (it arrives over one of them). */
static int map_bounds_dirs(const rdg *g, int mapped, int mapped2, int *diag) {
  int mask = 0;
  for (int e = 0; e < g->nedges; e++) {
    if (!map_bounds_computed(g, e)) continue;
    int a = map_bounds_side(g->edges[e].d[mapped], 0);
    int c = mapped2 >= 0 ? map_bounds_side(g->edges[e].d[mapped2], 1) : 0;
    if (!a || !c) mask |= a | c;
  }
  *diag = 0;
  for (int e = 0; e < g->nedges && mapped2 >= 0; e++) {
    if (!map_bounds_computed(g, e)) continue;
    int a = map_bounds_side(g->edges[e].d[mapped], 0), c = map_bounds_side(g->edges[e].d[mapped2], 1);
    if (a && c && !(mask & (a | c))) *diag = 1;
  }
  return mask;
}

/* Returns the number of bits set in v. */
static int map_bounds_popcount(int v) {
  int n = 0;
  for (; v; v &= v - 1) n++;
  return n;
}

/* Returns 1 when op node v of g has no condition (it runs in every
 * iteration of the program). */
static int map_bounds_always(const rdg *g, int v) {
  const ast_cond *c = &g->nodes[v].cond;
  return c->n == 1 && c->conj[0].n == 0;
}

/* Returns the number of distinct arrays an operation with no condition
 * reads (kind RDG_EDGE_IN) or writes (RDG_EDGE_OUT). */
static int map_bounds_arrays(const rdg *g, rdg_edge_kind kind) {
  int n = 0;
  for (int e = 0; e < g->nedges; e++) {
    const rdg_edge *x = &g->edges[e];
    if (x->kind != kind || !map_bounds_always(g, kind == RDG_EDGE_IN ? x->dst : x->src)) continue;
    int seen = 0;
    for (int f = 0; f < e && !seen; f++) {
      const rdg_edge *y = &g->edges[f];
      seen = y->kind == kind && y->array == x->array && map_bounds_always(g, kind == RDG_EDGE_IN ? y->dst : y->src);
    }
    n += !seen;
  }
  return n;
}

/* Returns the most distinct computed variables (not copies) of the same
 * iteration (d = 0) one operation of g reads. */
static int map_bounds_rd(const rdg *g) {
  int best = 0;
  for (int v = 0; v < g->nnodes; v++) {
    if (g->nodes[v].kind != RDG_NODE_OP) continue;
    int vars[8], n = 0;
    for (int k = 0; k < g->nodes[v].nin; k++) {
      const rdg_edge *x = &g->edges[g->nodes[v].in[k]];
      if (x->kind != RDG_EDGE_DEP || g->nodes[x->src].op == AST_OP_MOV) continue;
      int zero = 1;
      for (int d = 0; d < g->ndims; d++) zero &= x->d[d] == 0;
      int var = g->nodes[x->src].var, seen = 0;
      for (int i = 0; i < n; i++) seen |= vars[i] == var;
      if (zero && !seen && n < 8) vars[n++] = var;
    }
    if (n > best) best = n;
  }
  return best;
}

/* Returns the number of distinct computed variables (not copies) of g
 * carried to a later iteration with distance zero along the tiled
 * dimensions mapped and mapped2 (-1: none): within a PE, in an fd. */
static int map_bounds_fd(const rdg *g, int mapped, int mapped2) {
  int n = 0;
  for (int e = 0; e < g->nedges; e++) {
    if (!map_bounds_computed(g, e) || !map_bounds_carried(g, e, mapped, mapped2)) continue;
    int var = g->nodes[g->edges[e].src].var, seen = 0;
    for (int f = 0; f < e && !seen; f++)
      seen = map_bounds_computed(g, f) && map_bounds_carried(g, f, mapped, mapped2) &&
             g->nodes[g->edges[f].src].var == var;
    n += !seen;
  }
  return n;
}

/* Returns 1 when op nodes v and w of g may be one instruction of the
 * mapper: the same operation defining the same variable (or writing the
 * same output: one op per variable and operation), or the same operation
 * on the same operands (common subexpressions, docs/symbolic.md). */
static int map_bounds_same_op(const rdg *g, int v, int w) {
  const rdg_node *a = &g->nodes[v], *b = &g->nodes[w];
  if (a->op != b->op) return 0;
  if (a->var >= 0 ? a->var == b->var : b->var < 0 && a->array == b->array) return 1;
  if (a->nargs != b->nargs || a->nin != b->nin) return 0;
  for (int k = 0; k < a->nin; k++) {
    const rdg_edge *x = &g->edges[a->in[k]], *y = &g->edges[b->in[k]];
    if (x->kind != y->kind || x->pos != y->pos) return 0;
    if (x->kind == RDG_EDGE_DEP && g->nodes[x->src].var != g->nodes[y->src].var) return 0;
    if (x->kind != RDG_EDGE_DEP && x->src != y->src) return 0;
  }
  return 1;
}

/* Returns the root of v in the union-find forest up. */
static int map_bounds_root(int *up, int v) {
  while (up[v] != v) v = up[v] = up[up[v]];
  return v;
}

/* Returns the fewest instructions the operations (not copies) of class c
 * of g can be: the classes of op nodes joined by map_bounds_same_op, -1
 * when memory runs out. */
static int map_bounds_instructions(const rdg *g, isa_fu_class c) {
  int *up = malloc((size_t)(g->nnodes ? g->nnodes : 1) * sizeof *up), n = 0;
  if (!up) return -1;
  for (int v = 0; v < g->nnodes; v++) up[v] = v;
  for (int v = 0; v < g->nnodes; v++) {
    const rdg_node *a = &g->nodes[v];
    if (a->kind != RDG_NODE_OP || a->op == AST_OP_MOV || isa_op_get(map_op_isa(a->op))->fu != c) continue;
    for (int w = 0; w < v; w++)
      if (g->nodes[w].kind == RDG_NODE_OP && map_bounds_same_op(g, v, w)) up[map_bounds_root(up, v)] = map_bounds_root(up, w);
  }
  for (int v = 0; v < g->nnodes; v++) {
    const rdg_node *a = &g->nodes[v];
    n += a->kind == RDG_NODE_OP && a->op != AST_OP_MOV && isa_op_get(map_op_isa(a->op))->fu == c &&
         map_bounds_root(up, v) == v;
  }
  free(up);
  return n;
}

void map_bounds_compute(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int mapped2,
                        int one_pe, map_bounds *b) {
  memset(b, 0, sizeof *b);
  int ops[ISA_FU_ANY] = {0}, in = 0, out = 0;
  for (int v = 0; v < g->nnodes; v++)
    if (g->nodes[v].kind == RDG_NODE_OP) ops[isa_op_get(map_op_isa(g->nodes[v].op))->fu]++;
  for (int e = 0; e < g->nedges; e++) {
    in |= g->edges[e].kind == RDG_EDGE_IN;
    out |= g->edges[e].kind == RDG_EDGE_OUT;
  }
  static const char *const keys[ISA_FU_ANY] = {"pe.alu", "pe.mul", "pe.div"};
  const int units[ISA_FU_ANY] = {arch->alu, arch->mul, arch->div};
  char why[160];
  for (int c = 0; c < ISA_FU_ANY; c++) {
    if (!ops[c]) continue;
    snprintf(why, sizeof why, "%d operation%s of the %s class", ops[c], ops[c] == 1 ? "" : "s",
             isa_fu_name((isa_fu_class)c));
    map_bounds_add(b, FIT_RES_FU, keys[c], 1, units[c], why);
  }
  snprintf(why, sizeof why, "the program's loop dimensions");
  map_bounds_add(b, FIT_RES_LOOP_DIMS, "gc.dims", p->ndims, arch->gc_dims, why);
  int diag = 0;
  int mask = one_pe || mapped < 0 ? 0 : map_bounds_dirs(g, mapped, mapped2, &diag);
  int dirs = map_bounds_popcount(mask) + diag;
  int ins = map_bounds_arrays(g, RDG_EDGE_IN), outs = map_bounds_arrays(g, RDG_EDGE_OUT);
  int id = dirs > in ? dirs : in, od = dirs > out ? dirs : out;
  if (ins > id) id = ins;
  if (outs > od) od = outs;
  snprintf(why, sizeof why, "%d direction%s values arrive from%s%s, %d input%s read in every iteration", dirs,
           dirs == 1 ? "" : "s", one_pe ? " (one PE: no channels)" : "", in ? ", an input read" : "", ins,
           ins == 1 ? "" : "s");
  map_bounds_add(b, FIT_RES_ID, "pe.id", id, arch->id, why);
  snprintf(why, sizeof why, "%d direction%s values leave to%s%s, %d output%s written in every iteration", dirs,
           dirs == 1 ? "" : "s", one_pe ? " (one PE: no channels)" : "", out ? ", an output written" : "", outs,
           outs == 1 ? "" : "s");
  map_bounds_add(b, FIT_RES_OD, "pe.od", od, arch->od, why);
  if (dirs) map_bounds_add(b, FIT_RES_PORTS, "interconnect.ports", 1, arch->ports, "a value crosses a tile border");
  int rd = map_bounds_rd(g);
  snprintf(why, sizeof why, "an operation reads %d computed value%s of its iteration at once", rd,
           rd == 1 ? "" : "s");
  map_bounds_add(b, FIT_RES_RD, "pe.rd", rd, arch->rd, why);
  int fd = map_bounds_fd(g, mapped, mapped2);
  snprintf(why, sizeof why, "%d computed value%s carried within a tile", fd, fd == 1 ? "" : "s");
  map_bounds_add(b, FIT_RES_FD, "pe.fd", fd, arch->fd, why);
  int words = 0, wc = 0;
  for (int c = 0; c < ISA_FU_ANY; c++) {
    int n = map_bounds_instructions(g, (isa_fu_class)c);
    int w = units[c] > 0 ? (n + units[c] - 1) / units[c] : 0;
    if (w > words) words = w, wc = c;
  }
  snprintf(why, sizeof why, "the busiest %s unit's share of its class's distinct instructions (copies left out)",
           isa_fu_name((isa_fu_class)wc));
  map_bounds_add(b, FIT_RES_IMEM, "pe.imem", words, arch->imem, why);
  int io = ins + outs, banks = (io + 3) / 4;
  if (!banks && (in || out)) banks = 1;
  int side = arch->banks < arch->ports ? arch->banks : arch->ports;
  snprintf(why, sizeof why, "%d array%s read or written in every iteration, over at most 4 border sides", io,
           io == 1 ? "" : "s");
  map_bounds_add(b, FIT_RES_IO_BANKS, "iobuf.banks", banks, side, why);
}

void map_bounds_apply(const map_bounds *b, fit_record *r) {
  for (int i = 0; i < b->n; i++) {
    const map_bound *x = &b->b[i];
    if (x->res != FIT_RES_IO_BANKS) {
      fit_record_bound(r, x->res, x->key, x->bound);
      continue;
    }
    /* banks: an item counts the banks of the sides one PE tried, which
     * channels through other PEs may add to; the per-side bound exceeds
     * it only when it exceeds a side itself */
    for (int k = 0; k < r->n; k++) {
      fit_item *it = &r->item[k];
      if (it->res != FIT_RES_IO_BANKS) continue;
      int64_t v = x->bound > x->have || it->have < 0 || x->bound < it->have ? x->bound : it->have;
      if (v > it->bound) it->bound = v;
    }
  }
}

int map_bounds_over(const map_bounds *b) {
  for (int i = 0; i < b->n; i++)
    if (b->b[i].bound > b->b[i].have) return 1;
  return 0;
}

void map_bounds_print(const map_bounds *b, FILE *f) {
  fprintf(f, "lower bounds (the least any mapping of this program on this region needs):\n");
  for (int i = 0; i < b->n; i++) {
    const map_bound *x = &b->b[i];
    fprintf(f, "  %-20s %-20s at least %3lld, available %3lld%s  (%s)\n", fit_resource_name(x->res), x->key,
            (long long)x->bound, (long long)x->have, x->bound > x->have ? " OVER" : "", x->why);
  }
}
