/*
 * map_tile.c: processor allocation by LSGP tiling (paper section 5.1) and
 * the graph the later steps work on.
 *
 * The bounds lo_k/hi_k of every dimension come from isl (dim_min/dim_max
 * of the iteration space, piecewise affine in the parameters). Every RDG
 * operation node becomes a map_op; every RDG edge a map_edge, and a
 * dependence edge with d_m != 0 along the mapped dimension m is split by
 * its tile displacements Theta(d) = {0, sign(d_m)}: theta = 0 inside a PE,
 * theta = sign(d_m) from the neighbour PE (processor displacement delta =
 * theta). On a 2-D region both mapped dimensions split it: (theta[0],
 * theta[1]) in {0, sign d_m} x {0, sign d_m2}, up to four edges, the one
 * with both nonzero a diagonal displacement. Each split edge records the iterations in which it carries a
 * value (use: at the consumer; def: at the producer) as a map_dom. On a
 * region of one PE (map_opts.one_pe) every mapped dimension is a single
 * tile, so only theta = 0 is made: an edge from a neighbour tile would
 * carry no value, yet take a channel, its registers and wrapper ports.
 *
 * Ops follow the paper's PST (5.5): the equations defining one variable
 * with one operation are one op (its operands chosen per condition space by
 * the PST leaves), equal operations on equal operands of different
 * variables in disjoint spaces are one op (common subexpressions), and the
 * IN edges of one operand reading one element are joined. An output `mov`
 * is dropped, its producers writing the output's od (output forwarding);
 * the d = 0 readers of a program `mov` whose value also has another use
 * read the mov's source in its cycle (operand forwarding: tie edges); a
 * producer writes each register itself over the iterations that read it
 * where those are disjoint (destinations per condition space).
 *
 * Then three rewrites keep every value within what one instruction can do:
 *  - input copy: when the accesses exceed the banks or the inputs the ids,
 *    an input element read by several operations in the same iterations is
 *    read once (one access, bank and id) by an added `mov` into an rd that
 *    feeds the readers;
 *  - reader copy: an fd is read in one cycle per iteration (its read
 *    pointer advances once per reading cycle), so a loop-carried value read
 *    by several operations is read once by an added `mov` into an rd;
 *  - writer copy: an instruction has one register destination, so a value
 *    needed both in an rd (same iteration) and in an fd (later iteration),
 *    or in two fds, in the same iteration is copied by an added `mov` per
 *    fd (docs/symbolic.md).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>

#include "map.h"
#include "poly.h"

char *map_strdup(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

/* Returns the names "j0 .. j{n-1}, k0 .. k{n-1}" of the tiled dims. */
static void map_tile_jk_names(const map_config *m, char *buf, size_t size) {
  size_t o = 0;
  for (int k = 0; k < m->ndims; k++)
    o += (size_t)snprintf(buf + o, size - o, "%sj%d", k ? ", " : "", k);
  for (int k = 0; k < m->ndims; k++)
    o += (size_t)snprintf(buf + o, size - o, ", k%d", k);
}

/* Returns the jkspace text of the tile box plus `extra` (may be ""):
 * 0 <= J_m < p, 0 <= K_m < t (2-D also 0 <= J_m2 < pc, 0 <= K_m2 < tc),
 * K_k = 0 and J_k >= 0 elsewhere. */
static char *map_tile_jk(const map_config *m, const char *extra) {
  char names[512], buf[2048];
  size_t o;
  map_tile_jk_names(m, names, sizeof names);
  o = (size_t)snprintf(buf, sizeof buf, "%s -> { [%s] : p >= 1 and t >= 1%s",
                       m->axis == MAP_AXIS_2D ? "[p, t, pc, tc]" : "[p, t]", names,
                       m->axis == MAP_AXIS_2D ? " and pc >= 1 and tc >= 1" : "");
  for (int k = 0; k < m->ndims; k++) {
    if (k == m->mapped[0])
      o += (size_t)snprintf(buf + o, sizeof buf - o, " and 0 <= j%d < p and 0 <= k%d < t", k, k);
    else if (m->axis == MAP_AXIS_2D && k == m->mapped[1])
      o += (size_t)snprintf(buf + o, sizeof buf - o, " and 0 <= j%d < pc and 0 <= k%d < tc", k, k);
    else
      o += (size_t)snprintf(buf + o, sizeof buf - o, " and j%d >= 0 and k%d = 0", k, k);
  }
  snprintf(buf + o, sizeof buf - o, "%s%s }", *extra ? " and " : "", extra);
  return map_isl_set_coalesce_text(m->isl, buf); /* made once per compile */
}

/* Returns the isl text of a program set over I (taken), coalesced; the
 * compile's context keeps the set for the text (map_isl_set_text). */
static char *map_tile_iset(const map_config *m, __isl_take isl_set *set) { return map_isl_set_text(m->isl, set); }

/* Returns 1 when isl proves the sets of two texts (same space) disjoint. */
static int map_tile_str_disjoint(const map_config *m, const char *a, const char *b) {
  return map_isl_set_disjoint(m->isl, a, b);
}

/* Returns the union of two set texts (same space), coalesced, as a new
 * string. */
static char *map_tile_str_union(const map_config *m, const char *a, const char *b) {
  return map_isl_set_union_text(m->isl, a, b);
}

/* Appends an op; returns its index or -1. */
static int map_tile_add_op(map_config *m, const map_op *op) {
  map_op *n = realloc(m->ops, (size_t)(m->nops + 1) * sizeof *n);
  if (!n) return -1;
  m->ops = n;
  m->ops[m->nops] = *op;
  return m->nops++;
}

/* Appends an edge; returns its index or -1. */
static int map_tile_add_edge(map_config *m, const map_edge *e) {
  map_edge *n = realloc(m->edges, (size_t)(m->nedges + 1) * sizeof *n);
  if (!n) return -1;
  m->edges = n;
  m->edges[m->nedges] = *e;
  m->edges[m->nedges].route = -1;
  m->edges[m->nedges].group = -1;
  return m->nedges++;
}

/* Computes lo/hi of every dimension; returns MAP_OK or an error. */
static int map_tile_bounds(map_config *m, isl_ctx *ctx, char *msg, size_t msgsz) {
  isl_set *space = poly_space(ctx, m->prog);
  if (!space) goto error;
  if (isl_set_is_empty(space) == isl_bool_true) {
    snprintf(msg, msgsz, "the iteration space is empty for every parameter value");
    isl_set_free(space);
    return MAP_ERR_INPUT;
  }
  for (int k = 0; k < m->ndims; k++) {
    isl_pw_aff *lo = isl_set_dim_min(isl_set_copy(space), k);
    isl_pw_aff *hi = isl_set_dim_max(isl_set_copy(space), k);
    char *a = lo ? isl_pw_aff_to_str(lo) : NULL, *b = hi ? isl_pw_aff_to_str(hi) : NULL;
    m->lo[k] = map_strdup(a);
    m->hi[k] = map_strdup(b);
    free(a);
    free(b);
    isl_pw_aff_free(lo);
    isl_pw_aff_free(hi);
    if (!m->lo[k] || !m->hi[k]) goto error;
  }
  isl_set_free(space);
  return MAP_OK;
error:
  isl_set_free(space);
  snprintf(msg, msgsz, "internal error: the bounds of the iteration space");
  return MAP_ERR_INTERNAL;
}

/* Returns the jk constraint text saying where J_k - d_k (use: the source
 * iteration of the consumer J) or J_k + d_k (def: the consumer of the
 * producer J) lies for tile displacement theta along mapped dimension k,
 * whose tile size parameter is `pn` ("p" or "pc"). */
static void map_tile_theta_jk(int k, const char *pn, int64_t dm, int theta, int use, char *buf, size_t size) {
  int64_t off = use ? -dm : dm;
  if (theta == 0)
    snprintf(buf, size, "0 <= j%d + (%" PRId64 ") < %s", k, off, pn);
  else if ((theta > 0) == (use != 0))
    snprintf(buf, size, "j%d + (%" PRId64 ") < 0", k, off);
  else
    snprintf(buf, size, "j%d + (%" PRId64 ") >= %s", k, off, pn);
}

/* Writes the jk constraints of tile displacements (th, th2) of dependence
 * d (use or def side) into buf: one per mapped dimension with d != 0. */
static void map_tile_theta_both(const map_config *m, const int64_t *d, int th, int th2, int use, char *buf,
                                size_t size) {
  char a[128] = "", b[128] = "";
  if (d[m->mapped[0]] || m->axis != MAP_AXIS_2D) map_tile_theta_jk(m->mapped[0], "p", d[m->mapped[0]], th, use, a, sizeof a);
  if (m->axis == MAP_AXIS_2D && d[m->mapped[1]]) map_tile_theta_jk(m->mapped[1], "pc", d[m->mapped[1]], th2, use, b, sizeof b);
  snprintf(buf, size, "%s%s%s", a, *a && *b ? " and " : "", b);
}

/* Returns the condition space of RDG node v (poly_cond_space), computed
 * once per node and kept in cond[v] (a node has several edges). */
static __isl_give isl_set *map_tile_cond(const map_config *m, isl_ctx *ctx, isl_set **cond, int v) {
  if (!cond) return poly_cond_space(ctx, m->prog, &m->g->nodes[v].cond);
  if (!cond[v]) cond[v] = poly_cond_space(ctx, m->prog, &m->g->nodes[v].cond);
  return isl_set_copy(cond[v]);
}

/* Adds the split edges of RDG dependence edge `re` (cond: the nodes'
 * condition spaces, map_tile_cond); returns MAP_OK. */
static int map_tile_dep(map_config *m, isl_ctx *ctx, const rdg_edge *re, const int *op_of, isl_set **cond) {
  const ast_program *p = m->prog;
  int64_t neg[AST_MAX_DIMS] = {0};
  int zero = 1;
  for (int k = 0; k < m->ndims; k++) {
    neg[k] = -re->d[k];
    if (re->d[k]) zero = 0;
  }
  int thetas[2] = {0, 0}, nth = 1, th2s[2] = {0, 0}, nth2 = 1;
  int64_t dm = re->d[m->mapped[0]];
  if (dm && !m->one_pe) thetas[nth++] = dm > 0 ? 1 : -1;
  int64_t dm2 = m->axis == MAP_AXIS_2D ? re->d[m->mapped[1]] : 0;
  if (dm2 && !m->one_pe) th2s[nth2++] = dm2 > 0 ? 1 : -1;
  for (int i = 0; i < nth * nth2; i++) {
    map_edge e;
    char jk[512];
    memset(&e, 0, sizeof e);
    e.kind = MAP_EDGE_DEP;
    e.src = op_of[re->src];
    e.dst = op_of[re->dst];
    e.pos = re->pos;
    e.array = -1;
    memcpy(e.d, re->d, sizeof e.d);
    e.theta[0] = thetas[i % nth];
    e.theta[1] = th2s[i / nth];
    isl_set *cw = map_tile_cond(m, ctx, cond, re->dst), *cv = map_tile_cond(m, ctx, cond, re->src);
    isl_set *us = isl_set_intersect(isl_set_copy(cw), poly_set_preimage_shift(isl_set_copy(cv), p, neg));
    if (isl_set_is_empty(us) == isl_bool_true) { /* never carries a value (no text read back) */
      isl_set_free(us);
      isl_set_free(cw);
      isl_set_free(cv);
      continue;
    }
    e.use.ispace = map_tile_iset(m, us);
    e.def.ispace = map_tile_iset(m, isl_set_intersect(cv, poly_set_preimage_shift(cw, p, re->d)));
    if (zero) {
      e.use.jkspace = map_tile_jk(m, "");
      e.def.jkspace = map_tile_jk(m, "");
    } else {
      map_tile_theta_both(m, re->d, e.theta[0], e.theta[1], 1, jk, sizeof jk);
      e.use.jkspace = map_tile_jk(m, jk);
      map_tile_theta_both(m, re->d, e.theta[0], e.theta[1], 0, jk, sizeof jk);
      e.def.jkspace = map_tile_jk(m, jk);
    }
    if (!e.use.ispace || !e.def.ispace || !e.use.jkspace || !e.def.jkspace) {
      map_dom_free(&e.use);
      map_dom_free(&e.def);
      return MAP_ERR_INTERNAL;
    }
    if (map_tile_add_edge(m, &e) < 0) return MAP_ERR_INTERNAL;
  }
  return MAP_OK;
}

/* Adds the edge of RDG edge `re` (IN, CONST, OUT); returns MAP_OK. */
static int map_tile_io(map_config *m, isl_ctx *ctx, const rdg_edge *re, const int *op_of) {
  map_edge e;
  memset(&e, 0, sizeof e);
  e.pos = re->pos;
  e.array = -1;
  const rdg_node *opn;
  if (re->kind == RDG_EDGE_OUT) {
    e.kind = MAP_EDGE_OUT;
    e.src = op_of[re->src];
    e.dst = -1;
    opn = &m->g->nodes[re->src];
  } else {
    e.kind = re->kind == RDG_EDGE_IN ? MAP_EDGE_IN : MAP_EDGE_CONST;
    e.src = -1;
    e.dst = op_of[re->dst];
    opn = &m->g->nodes[re->dst];
  }
  if (re->kind == RDG_EDGE_CONST) e.value = m->g->nodes[re->src].value;
  if (re->kind != RDG_EDGE_CONST) {
    isl_map *im = poly_index_map(ctx, m->prog, re->idx, re->ndims);
    char *s = im ? isl_map_to_str(im) : NULL;
    e.index = map_strdup(s);
    free(s);
    isl_map_free(im);
    e.array = re->array;
    if (!e.index) return MAP_ERR_INTERNAL;
  }
  e.use.ispace = map_tile_iset(m, poly_cond_space(ctx, m->prog, &opn->cond));
  e.use.jkspace = map_tile_jk(m, "");
  e.def = map_dom_copy(&e.use);
  if (!e.use.ispace || !e.use.jkspace) return MAP_ERR_INTERNAL;
  return map_tile_add_edge(m, &e) < 0 ? MAP_ERR_INTERNAL : MAP_OK;
}

/* Returns a copy op (`mov`) whose domain is `dom`, defining virtual value `val`. */
static map_op map_tile_copy_op(const map_config *m, const map_dom *dom, int val) {
  map_op c;
  memset(&c, 0, sizeof c);
  c.rdg_node = -1;
  c.op = ISA_OP_MOV;
  c.nargs = 1;
  c.var = val;
  c.dom = map_dom_copy(dom);
  c.cls = ISA_FU_ALU;
  c.lat = isa_op_latency(ISA_OP_MOV, &m->arch);
  return c;
}

/* Returns 1 when edge e is a local loop-carried dependence (an fd value). */
static int map_tile_is_fd_edge(const map_edge *e) {
  if (e->kind != MAP_EDGE_DEP || map_edge_cross(e)) return 0;
  for (int k = 0; k < AST_MAX_DIMS; k++)
    if (e->d[k]) return 1;
  return 0;
}

/* Returns 1 when edges a and b carry the same value class: the same
 * variable (ops[].var) of the producer and the same d. */
static int map_tile_same_value(const map_config *m, const map_edge *a, const map_edge *b) {
  return m->ops[a->src].var == m->ops[b->src].var && !memcmp(a->d, b->d, sizeof a->d);
}

/* Feeds reader edge `eb` from copy op `ci`: its use joins the copy's out
 * edge (from index `first` on) with the same reader, operand and jkspace
 * (the ispaces are united; different jkspaces stay separate edges, since a
 * union of (ispace, jkspace) pairs is not a pair), else a new edge is
 * added. Returns MAP_OK or MAP_ERR_INTERNAL. */
static int map_tile_copy_reader(map_config *m, int ci, int first, const map_edge *eb) {
  for (int r = first; r < m->nedges; r++) {
    map_edge *x = &m->edges[r];
    if (x->src != ci || x->dst != eb->dst || x->pos != eb->pos || !map_dom_jkspace_equal(m, &x->use, &eb->use))
      continue;
    char *u = map_tile_str_union(m, x->use.ispace, eb->use.ispace);
    if (!u) return MAP_ERR_INTERNAL;
    map_dom_ispace_set(&x->use, u);
    map_dom_ispace_set(&x->def, map_strdup(u));
    return x->def.ispace ? MAP_OK : MAP_ERR_INTERNAL;
  }
  map_edge r;
  memset(&r, 0, sizeof r);
  r.kind = MAP_EDGE_DEP;
  r.src = ci;
  r.dst = eb->dst;
  r.pos = eb->pos;
  r.array = -1;
  r.use = map_dom_copy(&eb->use);
  r.def = map_dom_copy(&eb->use);
  if (!r.use.ispace || !r.use.jkspace || !r.def.ispace || !r.def.jkspace) return MAP_ERR_INTERNAL;
  return map_tile_add_edge(m, &r) < 0 ? MAP_ERR_INTERNAL : MAP_OK;
}

/* Returns 1 when IN edges a and b read the same element of an iteration
 * (array and index map equal) with the same jkspace; their ispaces may
 * differ (the pieces of a condition: a[i] at i = 0 and at i >= 1). */
static int map_tile_same_input(const map_config *m, const map_edge *a, const map_edge *b) {
  return a->kind == MAP_EDGE_IN && b->kind == MAP_EDGE_IN && a->array == b->array && a->index && b->index &&
         map_index_equal(m, a->index, b->index) && map_dom_jkspace_equal(m, &a->use, &b->use);
}

/* Input copies: an input element read by several operations (same array,
 * index map and jkspace; in the same iterations or in pieces of a
 * condition) is read once, by an added mov over the union of their spaces
 * whose rd feeds each reader in its own space: one access (bank, port, id)
 * instead of one per reader and piece. Only when the accesses do not fit
 * the banks (or ports) or the inputs the ids, since the movs cost ALU
 * slots. Returns MAP_OK or MAP_ERR_INTERNAL. */
static int map_tile_input_copies(map_config *m, int *nextval) {
  int n0 = m->nedges, nin = 0, nio = 0;
  for (int e = 0; e < n0; e++) {
    nin += m->edges[e].kind == MAP_EDGE_IN;
    nio += m->edges[e].kind == MAP_EDGE_IN || m->edges[e].kind == MAP_EDGE_OUT;
  }
  int lim = m->arch.banks < m->arch.ports ? m->arch.banks : m->arch.ports;
  if (nio <= lim && nin <= m->arch.id) return MAP_OK; /* fits: no extra ALU work */
  char *gone = calloc((size_t)n0 + 1, 1);
  if (!gone) return MAP_ERR_INTERNAL;
  for (int a = 0; a < n0; a++) {
    if (gone[a] || m->edges[a].kind != MAP_EDGE_IN) continue;
    int readers = 0;
    for (int b = a + 1; b < n0; b++) readers += !gone[b] && map_tile_same_input(m, &m->edges[a], &m->edges[b]);
    if (!readers) continue;
    map_dom all = map_dom_copy(&m->edges[a].use); /* the union of the pieces */
    for (int b = a + 1; b < n0 && all.ispace; b++) {
      if (gone[b] || !map_tile_same_input(m, &m->edges[a], &m->edges[b]) ||
          map_dom_ispace_equal(m, &all, &m->edges[b].use))
        continue;
      char *u = map_tile_str_union(m, all.ispace, m->edges[b].use.ispace);
      map_dom_ispace_set(&all, u);
    }
    map_op c = map_tile_copy_op(m, &all, (*nextval)++);
    int ci = c.dom.ispace && c.dom.jkspace && all.ispace ? map_tile_add_op(m, &c) : -1;
    if (ci < 0) {
      map_dom_free(&all);
      map_dom_free(&c.dom);
      free(gone);
      return MAP_ERR_INTERNAL;
    }
    for (int b = a; b < n0; b++) {
      if (gone[b] || (b != a && !map_tile_same_input(m, &m->edges[a], &m->edges[b]))) continue;
      map_edge r;
      memset(&r, 0, sizeof r);
      r.kind = MAP_EDGE_DEP;
      r.src = ci;
      r.dst = m->edges[b].dst;
      r.pos = m->edges[b].pos;
      r.array = -1;
      r.use = map_dom_copy(&m->edges[b].use);
      r.def = map_dom_copy(&m->edges[b].use);
      if (!r.use.ispace || !r.use.jkspace || !r.def.ispace || !r.def.jkspace || map_tile_add_edge(m, &r) < 0) {
        map_dom_free(&r.use);
        map_dom_free(&r.def);
        map_dom_free(&all);
        free(gone);
        return MAP_ERR_INTERNAL;
      }
      if (b != a) gone[b] = 1;
    }
    m->edges[a].dst = ci;
    m->edges[a].pos = 0;
    map_dom_ispace_set(&m->edges[a].use, all.ispace); /* the IN edge now carries every piece */
    map_dom_ispace_set(&m->edges[a].def, map_strdup(all.ispace));
    all.ispace = NULL;
    map_dom_free(&all);
    if (!m->edges[a].def.ispace) {
      free(gone);
      return MAP_ERR_INTERNAL;
    }
  }
  int n = 0;
  for (int e = 0; e < m->nedges; e++) {
    if (e < n0 && gone[e]) {
      free(m->edges[e].index);
      map_dom_free(&m->edges[e].use);
      map_dom_free(&m->edges[e].def);
    } else {
      m->edges[n++] = m->edges[e];
    }
  }
  m->nedges = n;
  free(gone);
  return MAP_OK;
}

/* Joins the IN edges of one operand of one op that read the same element
 * (the cases of an op made of several equations: one access, one id):
 * their use spaces are united. Returns MAP_OK or MAP_ERR_INTERNAL. */
static int map_tile_join_inputs(map_config *m) {
  int n = 0;
  for (int e = 0; e < m->nedges; e++) {
    map_edge *x = &m->edges[e];
    int into = -1;
    for (int f = 0; f < n && into < 0 && x->kind == MAP_EDGE_IN; f++) {
      const map_edge *y = &m->edges[f];
      if (map_tile_same_input(m, x, y) && x->dst == y->dst && x->pos == y->pos) into = f;
    }
    if (into < 0) {
      m->edges[n++] = *x;
      continue;
    }
    map_edge *y = &m->edges[into];
    char *u = map_tile_str_union(m, y->use.ispace, x->use.ispace);
    if (!u) return MAP_ERR_INTERNAL;
    map_dom_ispace_set(&y->use, u);
    map_dom_ispace_set(&y->def, map_strdup(u));
    free(x->index);
    map_dom_free(&x->use);
    map_dom_free(&x->def);
    if (!y->def.ispace) return MAP_ERR_INTERNAL;
  }
  m->nedges = n;
  return MAP_OK;
}

/* Reader copies: for every fd value read by more than one (op, pos), adds
 * a mov that reads it once and feeds the readers through an rd. Returns
 * MAP_OK or an error. */
static int map_tile_reader_copies(map_config *m, int *nextval) {
  int n0 = m->nedges;
  for (int a = 0; a < n0; a++) {
    map_edge *ea = &m->edges[a];
    if (!map_tile_is_fd_edge(ea) || ea->dst < 0) continue;
    int readers = 0;
    for (int b = 0; b < n0; b++) {
      map_edge *eb = &m->edges[b];
      if (b == a || !map_tile_is_fd_edge(eb) || eb->dst < 0 || !map_tile_same_value(m, ea, eb)) continue;
      if (eb->dst != ea->dst || eb->pos != ea->pos) readers++;
    }
    if (!readers) continue;
    /* union of the readers' use domains */
    map_dom dom = map_dom_copy(&ea->use);
    for (int b = 0; b < n0; b++) {
      map_edge *eb = &m->edges[b];
      if (b == a || !map_tile_is_fd_edge(eb) || eb->dst < 0 || !map_tile_same_value(m, ea, eb)) continue;
      char *u = map_tile_str_union(m, dom.ispace, eb->use.ispace);
      char *v = map_tile_str_union(m, dom.jkspace, eb->use.jkspace);
      map_dom_ispace_set(&dom, u);
      map_dom_jkspace_set(&dom, v);
      if (!u || !v) break;
    }
    if (!dom.ispace || !dom.jkspace) { map_dom_free(&dom); return MAP_ERR_INTERNAL; }
    map_op c = map_tile_copy_op(m, &dom, (*nextval)++);
    map_dom_free(&dom);
    int ci = map_tile_add_op(m, &c);
    if (ci < 0) return MAP_ERR_INTERNAL;
    /* readers get their value from the copy (d = 0); the fd edges go to it */
    int src_var = m->ops[m->edges[a].src].var;
    int64_t d[AST_MAX_DIMS];
    memcpy(d, m->edges[a].d, sizeof d);
    int first = m->nedges; /* the copy's out edges are appended from here */
    for (int b = 0; b < n0; b++) {
      map_edge *eb = &m->edges[b];
      if (!map_tile_is_fd_edge(eb) || eb->dst < 0 || eb->dst == ci || m->ops[eb->src].var != src_var ||
          memcmp(eb->d, d, sizeof d))
        continue;
      if (map_tile_copy_reader(m, ci, first, eb) != MAP_OK) return MAP_ERR_INTERNAL;
      eb = &m->edges[b];
      eb->dst = ci;
      eb->pos = 0;
    }
  }
  return MAP_OK;
}

/* Returns 1 when op o's edges selected by `pick` (0: rd uses, d = 0; 1:
 * the fd edges of dependence d; 2: the fd edges of any other dependence)
 * have defs (producer iterations) that may meet the defs of the fd edges
 * of d: 0 when isl proves every pair disjoint (ispace or jkspace). */
static int map_tile_defs_meet(const map_config *m, int o, const int64_t *d) {
  int meet = 0;
  for (int a = 0; a < m->nedges && !meet; a++) {
    const map_edge *x = &m->edges[a];
    if (x->src != o || !map_tile_is_fd_edge(x) || memcmp(x->d, d, sizeof x->d)) continue;
    for (int b = 0; b < m->nedges && !meet; b++) {
      const map_edge *y = &m->edges[b];
      if (y->src != o || y->kind != MAP_EDGE_DEP || map_edge_cross(y) || !memcmp(y->d, d, sizeof y->d)) continue;
      int di = map_tile_str_disjoint(m, x->def.ispace, y->def.ispace) ||
               map_tile_str_disjoint(m, x->def.jkspace, y->def.jkspace);
      if (!di) meet = 1;
    }
  }
  return meet;
}

/* Destinations per condition space: returns 1 when every producer of
 * value val writes its fd group of dependence d in iterations where it
 * writes no other register (its rd uses and other fd groups have disjoint
 * defs), so that it writes that fd itself (a dest leaf per condition,
 * map_pst.c) and needs no copy. Off with `--disable dests`. */
static int map_tile_dest_by_cond(const map_config *m, int val, const int64_t *d) {
  if ((m->off & MAP_OFF_DESTS) || m->no_cse >= 3) return 0;
  for (int o = 0; o < m->nops; o++)
    if (m->ops[o].var == val && map_tile_defs_meet(m, o, d)) return 0;
  return 1;
}

/* Writer copies: a value with an rd use and fd uses, or several fd
 * distances, keeps one register destination on its producers, the rd;
 * every fd group is fed by an added mov (of a value with one fd distance
 * and no rd use the producers write the fd). Returns MAP_OK or an error. */
static int map_tile_writer_copies(map_config *m, int *nextval) {
  int nvals = *nextval;
  for (int val = 0; val < nvals; val++) {
    int has_rd = 0, ngroups = 0;
    int64_t gd[16][AST_MAX_DIMS];
    int n0 = m->nedges;
    for (int e = 0; e < n0; e++) {
      map_edge *x = &m->edges[e];
      if (x->kind != MAP_EDGE_DEP || x->src < 0 || m->ops[x->src].var != val || map_edge_cross(x)) continue;
      if (!map_tile_is_fd_edge(x)) { has_rd = 1; continue; }
      int found = 0;
      for (int g = 0; g < ngroups; g++)
        if (!memcmp(gd[g], x->d, sizeof x->d)) found = 1;
      if (!found && ngroups < 16) memcpy(gd[ngroups++], x->d, sizeof x->d);
    }
    /* fd groups the producers write themselves: each one whose defs meet
     * no other destination's (destinations per condition space); when
     * some group still needs a copy, the copy reads an rd the producers
     * write in all their iterations, so then every group is copied */
    int need = 0;
    for (int g = 0; g < ngroups; g++) need |= !map_tile_dest_by_cond(m, val, gd[g]);
    int keep = !need ? ngroups : has_rd ? 0 : ngroups == 1 ? 1 : 0;
    for (int g = keep; g < ngroups; g++) {
      /* the producers of val: every op defining it */
      int prod[64], nprod = 0;
      for (int o = 0; o < m->nops; o++)
        if (m->ops[o].var == val && nprod < 64) prod[nprod++] = o;
      if (!nprod) continue;
      map_dom dom = map_dom_copy(&m->ops[prod[0]].dom);
      for (int i = 1; i < nprod; i++) {
        char *u = map_tile_str_union(m, dom.ispace, m->ops[prod[i]].dom.ispace);
        map_dom_ispace_set(&dom, u);
        if (!u) { map_dom_free(&dom); return MAP_ERR_INTERNAL; }
      }
      map_op c = map_tile_copy_op(m, &dom, (*nextval)++);
      map_dom_free(&dom);
      int ci = map_tile_add_op(m, &c);
      if (ci < 0) return MAP_ERR_INTERNAL;
      for (int i = 0; i < nprod; i++) {
        map_edge r;
        memset(&r, 0, sizeof r);
        r.kind = MAP_EDGE_DEP;
        r.src = prod[i];
        r.dst = ci;
        r.pos = 0;
        r.array = -1;
        r.use = map_dom_copy(&m->ops[prod[i]].dom);
        r.def = map_dom_copy(&m->ops[prod[i]].dom);
        if (map_tile_add_edge(m, &r) < 0) return MAP_ERR_INTERNAL;
      }
      for (int e = 0; e < m->nedges; e++) {
        map_edge *x = &m->edges[e];
        if (map_tile_is_fd_edge(x) && x->src >= 0 && m->ops[x->src].var == val &&
            !memcmp(x->d, gd[g], sizeof x->d))
          x->src = ci;
      }
    }
  }
  return MAP_OK;
}

/* Returns 1 when op M is a `mov` of the program (not one the mapper
 * added) whose value has a d = 0 reader besides a loop-carried, channel
 * or output use: the value would need two destinations in one iteration. */
static int map_tile_fwd_candidate(const map_config *m, int o) {
  const map_op *op = &m->ops[o];
  if (op->rdg_node < 0 || op->op != ISA_OP_MOV || op->nargs != 1) return 0;
  int rd = 0, other = 0;
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (x->dst == o && x->kind == MAP_EDGE_TIE && x->pos >= 0) return 0; /* no chains of forwarding */
    if (x->src != o) continue;
    if (x->kind == MAP_EDGE_OUT || (x->kind == MAP_EDGE_DEP && (map_edge_cross(x) || map_tile_is_fd_edge(x))))
      other = 1;
    else if (x->kind == MAP_EDGE_DEP && x->dst != o)
      rd = 1;
  }
  return rd && other;
}

/* Returns 1 when op o reads a literal (the instruction's one immediate). */
static int map_tile_reads_const(const map_config *m, int o) {
  for (int e = 0; e < m->nedges; e++)
    if (m->edges[e].kind == MAP_EDGE_CONST && m->edges[e].dst == o) return 1;
  return 0;
}

/* Returns 1 when op o forwards its source to a reader (a tie leaves it). */
static int map_tile_forwards(const map_config *m, int o) {
  for (int e = 0; e < m->nedges; e++)
    if (m->edges[e].kind == MAP_EDGE_TIE && m->edges[e].src == o && m->edges[e].pos >= 0) return 1;
  return 0;
}

/* Returns 1 when a chain of d = 0 dependences inside the PE (other than
 * from mov a to its reader b, the operand being forwarded) leads from an
 * op of `in` to another: those cannot issue in one cycle. */
static int map_tile_group_chained(const map_config *m, const unsigned char *in, int a, int b) {
  unsigned char *reach = calloc((size_t)m->nops + 1, 1);
  int chained = !reach;
  for (int grew = 1; grew && !chained;) {
    grew = 0;
    for (int e = 0; e < m->nedges; e++) {
      const map_edge *x = &m->edges[e];
      int zero = x->kind == MAP_EDGE_DEP && !map_edge_cross(x) && x->src >= 0 && x->dst >= 0;
      for (int k = 0; k < m->ndims && zero; k++) zero = x->d[k] == 0;
      if (!zero || (x->src == a && x->dst == b) || !(in[x->src] || reach[x->src]) || reach[x->dst]) continue;
      reach[x->dst] = grew = 1;
      chained |= in[x->dst];
    }
  }
  free(reach);
  return chained;
}

/* Returns 1 when tying ops a and b leaves every group of ops joined by
 * ties (they issue in one cycle) with no more ops of an FU class than the
 * PE has units of it, and no d = 0 dependence between two of them. */
static int map_tile_tie_fits(const map_config *m, int a, int b) {
  unsigned char *in = calloc((size_t)m->nops + 1, 1);
  if (!in) return 0;
  in[a] = in[b] = 1;
  for (int grew = 1; grew;) {
    grew = 0;
    for (int e = 0; e < m->nedges; e++) {
      const map_edge *x = &m->edges[e];
      if (x->kind != MAP_EDGE_TIE || in[x->src] == in[x->dst]) continue;
      in[x->src] = in[x->dst] = 1;
      grew = 1;
    }
  }
  if (map_tile_group_chained(m, in, a, b)) {
    free(in);
    return 0;
  }
  /* greedy groups of pairwise disjoint condition spaces: they may share a
   * unit (unless slot sharing is off, map_sched.c) */
  int units[ISA_FU_ANY] = {m->arch.alu, m->arch.mul, m->arch.div}, ok = 1, excl = !(m->off & MAP_OFF_SHARE);
  int *col = malloc((size_t)m->nops * sizeof *col + 1);
  for (int c = 0; c < ISA_FU_ANY && ok && col; c++) {
    int ncol = 0;
    for (int o = 0; o < m->nops; o++) {
      if (!in[o] || m->ops[o].cls != (isa_fu_class)c) continue;
      col[o] = -1;
      for (int k = 0; k < ncol && col[o] < 0; k++) {
        int fits = 1;
        for (int q = 0; q < o && fits; q++)
          if (in[q] && m->ops[q].cls == (isa_fu_class)c && col[q] == k)
            fits = excl && map_tile_str_disjoint(m, m->ops[o].dom.ispace, m->ops[q].dom.ispace);
        if (fits) col[o] = k;
      }
      if (col[o] < 0) col[o] = ncol++;
    }
    ok = ncol <= units[c];
  }
  free(col);
  free(in);
  return ok;
}

/* Operand forwarding: a d = 0 reader C of such a mov M reads M's source
 * register itself, in M's cycle (a tie M -> C carries the operand, a tie
 * C -> M with pos -1 keeps the two at one offset), so M writes only its
 * loop-carried, channel or output destinations and needs no copy (the
 * PST's one instruction per variable, paper 5.5). Off with
 * `--disable forward`. Returns MAP_OK or MAP_ERR_INTERNAL. */
static int map_tile_forward(map_config *m) {
  if ((m->off & MAP_OFF_FORWARD) || m->no_cse >= 3) return MAP_OK;
  for (int o = 0; o < m->nops; o++) {
    if (!map_tile_fwd_candidate(m, o)) continue;
    int n0 = m->nedges;
    for (int e = 0; e < n0; e++) {
      map_edge *x = &m->edges[e];
      if (x->src != o || x->kind != MAP_EDGE_DEP || x->dst == o || map_edge_cross(x) || map_tile_is_fd_edge(x))
        continue;
      if (map_tile_forwards(m, x->dst)) continue;                /* no chains of forwarding */
      if (map_tile_reads_const(m, o) && map_tile_reads_const(m, x->dst)) continue; /* two immediates */
      if (!map_tile_tie_fits(m, o, x->dst)) continue; /* too many ops of a class in one cycle */
      x = &m->edges[e];
      x->kind = MAP_EDGE_TIE;
      map_edge b;
      memset(&b, 0, sizeof b);
      b.kind = MAP_EDGE_TIE;
      b.src = x->dst;
      b.dst = o;
      b.pos = -1;
      b.array = -1;
      b.use = map_dom_copy(&x->use);
      b.def = map_dom_copy(&x->def);
      if (!b.use.ispace || !b.use.jkspace || !b.def.ispace || !b.def.jkspace || map_tile_add_edge(m, &b) < 0) {
        map_dom_free(&b.use);
        map_dom_free(&b.def);
        return MAP_ERR_INTERNAL;
      }
    }
  }
  return MAP_OK;
}

/* Removes op o and every edge touching it, renumbering the rest. */
static void map_tile_drop_op(map_config *m, int o) {
  int n = 0;
  for (int e = 0; e < m->nedges; e++) {
    map_edge *x = &m->edges[e];
    if (x->src == o || x->dst == o) {
      free(x->index);
      map_dom_free(&x->use);
      map_dom_free(&x->def);
      continue;
    }
    if (x->src > o) x->src--;
    if (x->dst > o) x->dst--;
    m->edges[n++] = *x;
  }
  m->nedges = n;
  map_dom_free(&m->ops[o].dom);
  memmove(&m->ops[o], &m->ops[o + 1], (size_t)(m->nops - o - 1) * sizeof *m->ops);
  m->nops--;
}

/* Returns 1 when the union of the sets a and b is one basic set (an
 * access space the AG enable can hold: one conjunction), 0 when not or
 * on an isl error. */
static int map_tile_union_convex(const map_config *m, const char *a, const char *b) {
  return map_isl_set_union_convex(m->isl, a, b);
}

/* Joins producer edge x of an output `mov` to the output edge already
 * made for it (from index `first` on) by the same producer with the same
 * jkspace, when the union of their ispaces is one conjunction (an AG
 * enable is one; jacobi's y on big1d is two): the ispaces are united,
 * one od and one bank serve both pieces (a producer of several cases of
 * a variable, map_reread_pad: band's s at N = 1 and N >= 2). Returns
 * MAP_OK when joined, MAP_ERR_NOFIT when there is no such edge (the
 * caller adds one), MAP_ERR_INTERNAL. */
static int map_tile_out_join(map_config *m, int first, const map_edge *x) {
  for (int r = first; r < m->nedges; r++) {
    map_edge *w = &m->edges[r];
    if (w->kind != MAP_EDGE_OUT || w->src != x->src || !map_dom_jkspace_equal(m, &w->use, &x->use))
      continue;
    if (!map_tile_union_convex(m, w->use.ispace, x->use.ispace)) continue;
    char *u = map_tile_str_union(m, w->use.ispace, x->use.ispace);
    if (!u) return MAP_ERR_INTERNAL;
    map_dom_ispace_set(&w->use, u);
    map_dom_ispace_set(&w->def, map_strdup(u));
    return w->def.ispace ? MAP_OK : MAP_ERR_INTERNAL;
  }
  return MAP_ERR_NOFIT;
}

/* Output forwarding: a program `mov` that only writes an output (`C[i,j]
 * = c[i,j,k] if ...`), reading d = 0 values of its producers, is dropped:
 * each producer writes the output's od itself over the iterations whose
 * value goes out (the register an output bank reads, one destination per
 * condition space). A producer is then an access of its own (its write
 * offset), so this is done only while the accesses still fit the banks
 * (and ports) of one border side. Off with `--disable dests`. Returns
 * MAP_OK or MAP_ERR_INTERNAL. */
static int map_tile_out_forward(map_config *m) {
  if ((m->off & MAP_OFF_DESTS) || m->no_cse >= 2) return MAP_OK;
  int lim = m->arch.banks < m->arch.ports ? m->arch.banks : m->arch.ports;
  for (int o = 0; o < m->nops; o++) {
    const map_op *op = &m->ops[o];
    if (op->rdg_node < 0 || op->op != ISA_OP_MOV || op->nargs != 1) continue;
    int out = -1, nout = 0, nsrc = 0, ok = 1, nio = 0;
    for (int e = 0; e < m->nedges; e++) {
      const map_edge *x = &m->edges[e];
      nio += x->kind == MAP_EDGE_IN || x->kind == MAP_EDGE_OUT;
      if (x->src == o) {
        if (x->kind == MAP_EDGE_OUT) out = e, nout++;
        else ok = 0; /* the value has other readers */
      }
      if (x->dst == o) {
        if (x->kind == MAP_EDGE_DEP && !map_edge_cross(x) && !map_tile_is_fd_edge(x) && x->src != o) nsrc++;
        else ok = 0;
      }
    }
    if (!ok || nout != 1 || nsrc < 1 || nio - 1 + nsrc > lim) continue;
    int n0 = m->nedges;
    for (int e = 0; e < n0; e++) {
      const map_edge *x = &m->edges[e];
      if (x->dst != o) continue;
      int st = map_tile_out_join(m, n0, x);
      if (st == MAP_ERR_INTERNAL) return st;
      if (st == MAP_OK) continue;
      map_edge w;
      memset(&w, 0, sizeof w);
      w.kind = MAP_EDGE_OUT;
      w.src = x->src;
      w.dst = -1;
      w.pos = -1;
      w.array = m->edges[out].array;
      w.index = map_strdup(m->edges[out].index);
      w.use = map_dom_copy(&x->use);
      w.def = map_dom_copy(&x->use);
      if (!w.index || !w.use.ispace || !w.use.jkspace || !w.def.ispace || !w.def.jkspace ||
          map_tile_add_edge(m, &w) < 0) {
        free(w.index);
        map_dom_free(&w.use);
        map_dom_free(&w.def);
        return MAP_ERR_INTERNAL;
      }
    }
    map_tile_drop_op(m, o);
    o--;
  }
  return MAP_OK;
}

/* Returns 1 when DEP edges a and b carry the same values the same way. */
static int map_tile_same_edge(const map_config *m, const map_edge *a, const map_edge *b) {
  return a->kind == MAP_EDGE_DEP && b->kind == MAP_EDGE_DEP && a->src == b->src && a->dst == b->dst &&
         a->pos == b->pos && a->theta[0] == b->theta[0] && a->theta[1] == b->theta[1] && !memcmp(a->d, b->d, sizeof a->d) &&
         map_dom_equal(m, &a->use, &b->use) && map_dom_equal(m, &a->def, &b->def);
}

/* Removes DEP edges equal to an earlier one (the copies redirect several
 * RDG edges of one value onto the same pair of ops). */
static void map_tile_dedup_edges(map_config *m) {
  int n = 0;
  for (int e = 0; e < m->nedges; e++) {
    int dup = 0;
    for (int f = 0; f < n && !dup; f++) dup = map_tile_same_edge(m, &m->edges[f], &m->edges[e]);
    if (dup) {
      free(m->edges[e].index);
      map_dom_free(&m->edges[e].use);
      map_dom_free(&m->edges[e].def);
    } else {
      m->edges[n++] = m->edges[e];
    }
  }
  m->nedges = n;
}

/* Returns the op already made for an earlier RDG node defining the same
 * variable as node v with the same operation (its other cases), or -1:
 * one instruction serves every case, its operands chosen per condition
 * space by the PST leaves (paper 5.5). */
static int map_tile_same_var_op(const map_config *m, const int *op_of, int v) {
  const rdg *g = m->g;
  const rdg_node *n = &g->nodes[v];
  if (n->var < 0 || m->no_cse >= 4) return -1; /* level 4: one op per equation, as before */
  for (int u = 0; u < v; u++) {
    const rdg_node *w = &g->nodes[u];
    if (w->kind == RDG_NODE_OP && w->var == n->var && w->op == n->op && w->nargs == n->nargs && op_of[u] >= 0)
      return op_of[u];
  }
  return -1;
}

/* Returns 1 when RDG edges a and b (into two op nodes) bring the same
 * operand: the same producer node and d, the same input element, or the
 * same constant. */
static int map_tile_same_operand(const rdg_edge *a, const rdg_edge *b) {
  if (a->kind != b->kind || a->pos != b->pos) return 0;
  if (a->kind == RDG_EDGE_IN)
    return a->array == b->array && a->ndims == b->ndims && !memcmp(a->idx, b->idx, sizeof a->idx);
  return a->src == b->src && !memcmp(a->d, b->d, sizeof a->d);
}

/* Returns 1 when op nodes a and b have the same operands (every operand
 * edge of one has its twin in the other). */
static int map_tile_same_operands(const rdg *g, const rdg_node *a, const rdg_node *b) {
  if (a->nin != b->nin) return 0;
  for (int i = 0; i < a->nin; i++) {
    int twin = 0;
    for (int k = 0; k < b->nin && !twin; k++) twin = map_tile_same_operand(&g->edges[a->in[i]], &g->edges[b->in[k]]);
    if (!twin) return 0;
  }
  return 1;
}

/* Returns the op already made for an earlier RDG node computing the same
 * operation on the same operands as node v (of another variable: `c = a *
 * b if k == 0` and `c.t1 = a * b if k >= 1`) under a disjoint condition,
 * or -1: equal subexpressions of different cases are computed once. The
 * op then defines a value of its own (its var is made distinct from both
 * variables' other producers), which may cost registers (an fd or channel
 * per value): map_build maps again without it when the first mapping does
 * not fit (m->no_cse). Off with `--disable cse`. */
static int map_tile_common_op(map_config *m, isl_ctx *ctx, const int *op_of, int v) {
  const rdg *g = m->g;
  const rdg_node *n = &g->nodes[v];
  if (n->var < 0 || m->no_cse || (m->off & MAP_OFF_CSE)) return -1;
  char *cv = map_tile_iset(m, poly_cond_space(ctx, m->prog, &n->cond));
  int found = -1;
  for (int u = 0; u < v && cv && found < 0; u++) {
    const rdg_node *w = &g->nodes[u];
    if (w->kind != RDG_NODE_OP || w->var < 0 || w->var == n->var || w->op != n->op || w->nargs != n->nargs ||
        op_of[u] < 0 || !map_tile_same_operands(g, n, w))
      continue;
    if (map_tile_str_disjoint(m, m->ops[op_of[u]].dom.ispace, cv)) found = op_of[u];
  }
  free(cv);
  if (found >= 0 && m->ops[found].var < g->nvars) m->ops[found].var = g->nvars + m->ops[found].rdg_node;
  return found;
}

/* Unites the condition space of RDG node n with op o's; returns MAP_OK or
 * MAP_ERR_INTERNAL. */
static int map_tile_merge_dom(map_config *m, isl_ctx *ctx, int o, const rdg_node *n) {
  char *c = map_tile_iset(m, poly_cond_space(ctx, m->prog, &n->cond));
  char *u = c ? map_tile_str_union(m, m->ops[o].dom.ispace, c) : NULL;
  free(c);
  if (!u) return MAP_ERR_INTERNAL;
  map_dom_ispace_set(&m->ops[o].dom, u);
  return MAP_OK;
}

/* Raises p_min[0] (p_min[1]) to max |d| + 1 over the dependences: the smallest
 * tile in which every dependence also has instances inside the tile.
 * Returns nothing. */
static void map_tile_widen(map_config *m) {
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP) continue;
    int64_t dm = x->d[m->mapped[0]] < 0 ? -x->d[m->mapped[0]] : x->d[m->mapped[0]];
    if (dm + 1 > m->p_min[0]) m->p_min[0] = (int)dm + 1;
    if (m->axis != MAP_AXIS_2D) continue;
    int64_t dm2 = x->d[m->mapped[1]] < 0 ? -x->d[m->mapped[1]] : x->d[m->mapped[1]];
    if (dm2 + 1 > m->p_min[1]) m->p_min[1] = (int)dm2 + 1;
  }
}

int map_tile(map_config *m, char *msg, size_t msgsz) {
  const rdg *g = m->g;
  int st = MAP_ERR_INTERNAL;
  int *op_of = calloc((size_t)g->nnodes + 1, sizeof *op_of);
  isl_ctx *ctx = m->isl ? m->isl->ctx : NULL;
  if (!op_of || !ctx) goto done;
  if ((st = map_tile_bounds(m, ctx, msg, msgsz)) != MAP_OK) goto done;
  st = MAP_ERR_INTERNAL;
  for (int v = 0; v < g->nnodes; v++) {
    const rdg_node *n = &g->nodes[v];
    op_of[v] = -1;
    if (n->kind != RDG_NODE_OP) continue;
    int same = map_tile_same_var_op(m, op_of, v);
    if (same < 0) same = map_tile_common_op(m, ctx, op_of, v);
    if (same >= 0) { /* one op per variable and operation (the PST's one instruction) */
      if (map_tile_merge_dom(m, ctx, same, n) != MAP_OK) goto done;
      op_of[v] = same;
      continue;
    }
    map_op o;
    memset(&o, 0, sizeof o);
    o.rdg_node = v;
    o.op = map_op_isa(n->op);
    o.nargs = n->nargs;
    o.var = n->var >= 0 ? n->var : g->nvars + v; /* outputs: a value of their own */
    o.cls = isa_op_get(o.op)->fu;
    o.lat = isa_op_latency(o.op, &m->arch);
    o.dom.ispace = map_tile_iset(m, poly_cond_space(ctx, m->prog, &n->cond));
    o.dom.jkspace = map_tile_jk(m, "");
    if (!o.dom.ispace || !o.dom.jkspace) { map_dom_free(&o.dom); goto done; }
    if ((op_of[v] = map_tile_add_op(m, &o)) < 0) goto done;
  }
  isl_set **cond = calloc((size_t)g->nnodes + 1, sizeof *cond); /* NULL: each edge computes them */
  int r = MAP_OK;
  for (int e = 0; e < g->nedges && r == MAP_OK; e++) {
    const rdg_edge *re = &g->edges[e];
    r = re->kind == RDG_EDGE_DEP ? map_tile_dep(m, ctx, re, op_of, cond) : map_tile_io(m, ctx, re, op_of);
  }
  for (int v = 0; cond && v < g->nnodes; v++) isl_set_free(cond[v]);
  free(cond);
  if (r != MAP_OK) goto done;
  /* the smallest tile the schedule assumes: p_min = max |d_m| + 1;
   * map_sched_tile1 lowers it to max |d_m| (tile size 1) afterwards when
   * the schedule allows */
  m->p_min[0] = m->p_min[1] = 1;
  map_tile_widen(m);
  int nextval = g->nvars + g->nnodes;
  if (map_tile_join_inputs(m) != MAP_OK) goto done;
  int n0 = m->nops;
  if (map_tile_input_copies(m, &nextval) != MAP_OK) goto done;
  m->ncopies[0] = m->nops - n0;
  n0 = m->nops;
  if (map_tile_reader_copies(m, &nextval) != MAP_OK) goto done;
  m->ncopies[1] = m->nops - n0;
  if (map_tile_out_forward(m) != MAP_OK) goto done;
  if (map_tile_forward(m) != MAP_OK) goto done;
  n0 = m->nops;
  if (map_tile_writer_copies(m, &nextval) != MAP_OK) goto done;
  m->ncopies[2] = m->nops - n0;
  map_tile_dedup_edges(m);
  st = MAP_OK;
done:
  if (st == MAP_ERR_INTERNAL && !*msg) snprintf(msg, msgsz, "internal error while tiling (out of memory or isl)");
  free(op_of);
  return st;
}
