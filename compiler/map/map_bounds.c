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
 *  - wrapper ports: one when any value crosses (interconnect.ports).
 * A region of one PE has no channels: its id and od bounds are the I/O's.
 */
#include "map_bounds.h"

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
  int id = dirs > in ? dirs : in, od = dirs > out ? dirs : out;
  snprintf(why, sizeof why, "%d direction%s values arrive from%s%s", dirs, dirs == 1 ? "" : "s",
           one_pe ? " (one PE: no channels)" : "", in ? ", an input read" : "");
  map_bounds_add(b, FIT_RES_ID, "pe.id", id, arch->id, why);
  snprintf(why, sizeof why, "%d direction%s values leave to%s%s", dirs, dirs == 1 ? "" : "s",
           one_pe ? " (one PE: no channels)" : "", out ? ", an output written" : "");
  map_bounds_add(b, FIT_RES_OD, "pe.od", od, arch->od, why);
  if (dirs) map_bounds_add(b, FIT_RES_PORTS, "interconnect.ports", 1, arch->ports, "a value crosses a tile border");
}

void map_bounds_apply(const map_bounds *b, fit_record *r) {
  for (int i = 0; i < b->n; i++) fit_record_bound(r, b->b[i].res, b->b[i].key, b->b[i].bound);
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
