/*
 * map_regs.c: register allocation (paper section 5.3).
 *
 * Every split edge gets its registers by its class:
 *  - DEP, d = 0: the value's rd registers (below);
 *  - DEP, d != 0, theta = 0: one fd per (value, d), depth s(d) (+1 when
 *    the reader issues after the writer's result in the iteration), with
 *    its smallest value s_lb(d) checked against pe.fd_depth;
 *  - DEP, theta != 0: an od on the producer and an id on the consumer per
 *    (value, d, theta, consumer, operand): a propagation channel (5.4);
 *  - IN: an id; OUT: an od; CONST: the immediate (no register).
 * The counts are checked against pe.rd, pe.fd, pe.id and pe.od.
 *
 * rd sharing (cyclic interval colouring). A value v kept in an rd (all
 * producers of one variable with a d = 0 reader) is, in every iteration j,
 * held from the first cycle its result is readable to the last cycle a
 * reader reads it: [j*II + tau[P] + lat[P], j*II + max tau[reader]] for
 * each producer P (one producer per iteration: the producers of a variable
 * have disjoint condition spaces). Iterations of a PE start exactly II
 * apart, so two values may share a plain register iff the residues mod II
 * of their intervals are disjoint (docs/timing.md: a write lands at the end
 * of a cycle, a read sees the state at its start, so a register read in
 * cycle c may be rewritten by a result readable from c + 1). These residue
 * sets are arcs of a circle of II cycles; the conflict graph is a
 * circular-arc graph, coloured exactly by backtracking (values in DSATUR
 * order, a node budget; the greedy colouring when the budget runs out).
 *
 * Pressure relief. When the colouring needs more than pe.rd, ops are
 * moved within their slack to lower the peak number of values held at one
 * residue (then the summed lifetimes), one op at a time or two ops of a
 * class trading slots, and allocation runs again. II, FU classes, every
 * intra-PE dependence (at its smallest distance s_lb) and the ops at either
 * end of a channel (lambda^K was computed from their offsets) are kept, so
 * the schedule stays valid.
 *
 * A lifetime l' = tau[w] - tau[v] - lat[v] of II or more cycles would be
 * overwritten by the next iteration: such a value gets a rotating tuple of
 * k = floor(l'/II) + 1 consecutive rds (`copies`, modulo variable
 * expansion: the iteration of sequence number s uses the (s mod k)-th,
 * instantiation unrolls the program), not an fd: fds are few (pe.fd), an fd's read pointer advances
 * once per reading cycle (so several readers break it) and an fd with
 * d = 0 has no meaning in the .sym. A tuple register is busy at every
 * residue mod II (its interval is longer than II), so tuples never share.
 *
 * Result: one map_regfile_entry per physical register (a tuple is one
 * entry of `copies` registers); the edges of all values sharing it have
 * it as their group. No entry overlaps another, so sum(copies) per class
 * is the number of registers used.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/aff.h>
#include <isl/set.h>
#include <isl/space.h>

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

/* Returns 1 when edge x keeps its value in an rd (intra-PE, d = 0). */
static int map_regs_is_rd_edge(const map_edge *x) {
  return x->kind == MAP_EDGE_DEP && !map_edge_cross(x) && map_regs_zero(x->d);
}

/* A value kept in rd registers. */
typedef struct {
  int val;             /* ops[].var of its producers */
  int copies;          /* k: 1, or a rotating tuple */
  unsigned char *busy; /* II flags: residues mod II where it is held */
  int colour;          /* shared register (copies 1), or -1 */
} map_regs_rdval;

/* Returns the rd copies needed by the d = 0 edges of value val. */
static int map_regs_rd_copies(const map_config *m, int val) {
  int k = 1;
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (!map_regs_is_rd_edge(x) || m->ops[x->src].var != val) continue;
    int l = m->ops[x->dst].tau - m->ops[x->src].tau - m->ops[x->src].lat;
    if (l >= 0 && l / m->ii + 1 > k) k = l / m->ii + 1;
  }
  return k;
}

/* Marks in busy[] the residues mod II at which value val is held: for each
 * producer, from its result to its last d = 0 reader. */
static void map_regs_rd_busy(const map_config *m, int val, unsigned char *busy) {
  for (int o = 0; o < m->nops; o++) {
    const map_op *p = &m->ops[o];
    if (p->var != val) continue;
    int s = p->tau + p->lat, e = -1;
    for (int x = 0; x < m->nedges; x++) {
      const map_edge *y = &m->edges[x];
      if (map_regs_is_rd_edge(y) && y->src == o && m->ops[y->dst].tau > e) e = m->ops[y->dst].tau;
    }
    if (e < 0) continue; /* no rd reader: this producer writes elsewhere */
    if (e < s) e = s;
    for (int c = s; c <= e && c < s + m->ii; c++) busy[c % m->ii] = 1;
  }
}

/* Returns 1 when op o writes an rd read by a d = 0 edge, with its hold
 * interval [*s, *e] relative to its iteration's start (see
 * map_regs_rd_busy). */
static int map_regs_rd_hold(const map_config *m, int o, int *s, int *e) {
  const map_op *p = &m->ops[o];
  *s = p->tau + p->lat;
  *e = -1;
  for (int x = 0; x < m->nedges; x++) {
    const map_edge *y = &m->edges[x];
    if (map_regs_is_rd_edge(y) && y->src == o && m->ops[y->dst].tau > *e) *e = m->ops[y->dst].tau;
  }
  if (*e < 0) return 0;
  if (*e < *s) *e = *s;
  if (*e > *s + m->ii - 1) *e = *s + m->ii - 1;
  return 1;
}

/* Returns 1 when the condition spaces (ispace) of ops a and b may
 * intersect: 0 only when isl proves them disjoint. */
static int map_regs_dom_meet(const map_config *m, const map_op *a, const map_op *b) {
  return !map_dom_ispace_disjoint(m, &a->dom, &b->dom);
}

/* Returns 1 when producers oa and ob (rd holders) conflict: an instance of
 * oa in iteration j and one of ob in iteration j + delta (sequence numbers,
 * starting delta*II apart) hold their registers at a common cycle for some
 * delta != 0, or for delta = 0 and their condition spaces intersect (the
 * PST writes an rd only within its op's space, so values defined under
 * mutually exclusive conditions never live in the same iteration). */
static int map_regs_op_conflict(const map_config *m, int oa, int ob) {
  int sa, ea, sb, eb;
  if (!map_regs_rd_hold(m, oa, &sa, &ea) || !map_regs_rd_hold(m, ob, &sb, &eb)) return 0;
  /* overlap iff sa <= delta*II + eb and delta*II + sb <= ea */
  int ii = m->ii;
  int dlo = sa - eb >= 0 ? (sa - eb + ii - 1) / ii : -((eb - sa) / ii);
  int dhi = ea - sb >= 0 ? (ea - sb) / ii : -((sb - ea + ii - 1) / ii);
  if (dlo > dhi) return 0;
  if (dlo < 0 || dhi > 0) return 1;
  return map_regs_dom_meet(m, &m->ops[oa], &m->ops[ob]);
}

/* Returns 1 when values a and b cannot share a register. */
static int map_regs_rd_conflict(const map_config *m, const map_regs_rdval *a,
                                const map_regs_rdval *b) {
  if (a->copies > 1 || b->copies > 1) return 1;
  int meet = 0;
  for (int c = 0; c < m->ii && !meet; c++) meet = a->busy[c] && b->busy[c];
  if (!meet) return 0; /* disjoint residues: never at a common cycle */
  for (int x = 0; x < m->nops; x++) {
    if (m->ops[x].var != a->val) continue;
    for (int y = 0; y < m->nops; y++)
      if (m->ops[y].var == b->val && map_regs_op_conflict(m, x, y)) return 1;
  }
  return 0;
}

/* Backtracking colouring state: n values, conflict matrix, colours. */
typedef struct {
  int n;
  const unsigned char *conf; /* n x n */
  int *colour;               /* current assignment, -1 uncoloured */
  int *best;                 /* best complete assignment */
  long nodes, budget;
} map_regs_colouring;

/* Returns the uncoloured vertex of highest saturation (distinct colours
 * among its neighbours), ties by degree then index; -1 when all coloured. */
static int map_regs_dsatur_pick(const map_regs_colouring *c) {
  int best = -1, bsat = -1, bdeg = -1;
  for (int v = 0; v < c->n; v++) {
    if (c->colour[v] >= 0) continue;
    int sat = 0, deg = 0;
    unsigned long long seen = 0;
    for (int w = 0; w < c->n; w++) {
      if (!c->conf[v * c->n + w]) continue;
      deg++;
      if (c->colour[w] >= 0 && c->colour[w] < 64 && !(seen >> c->colour[w] & 1)) {
        seen |= 1ULL << c->colour[w];
        sat++;
      }
    }
    if (sat > bsat || (sat == bsat && deg > bdeg)) best = v, bsat = sat, bdeg = deg;
  }
  return best;
}

/* Returns 1 when the uncoloured rest can be coloured with colours below k
 * (DSATUR order, symmetry broken by allowing at most one new colour). */
static int map_regs_colour_try(map_regs_colouring *c, int k, int ncol) {
  int v = map_regs_dsatur_pick(c);
  if (v < 0) return 1;
  if (++c->nodes > c->budget) return 0;
  for (int col = 0; col < k && col <= ncol; col++) {
    int ok = 1;
    for (int w = 0; w < c->n && ok; w++)
      if (c->conf[v * c->n + w] && c->colour[w] == col) ok = 0;
    if (!ok) continue;
    c->colour[v] = col;
    if (map_regs_colour_try(c, k, col == ncol ? ncol + 1 : ncol)) return 1;
    c->colour[v] = -1;
  }
  return 0;
}

/* Returns the number of colours of a colouring of the conflict graph
 * (exact unless the node budget ran out) and the colours in out[]. */
static int map_regs_colour(int n, const unsigned char *conf, int lower, int *out) {
  int *cur = malloc((size_t)n * sizeof *cur + 1);
  if (!cur) return -1;
  map_regs_colouring c = {.n = n, .conf = conf, .colour = cur, .best = out};
  int k = 0;
  /* greedy DSATUR (unbounded colours): an upper bound */
  for (int i = 0; i < n; i++) cur[i] = -1;
  for (int v; (v = map_regs_dsatur_pick(&c)) >= 0;) {
    int col = 0;
    for (int again = 1; again;) {
      again = 0;
      for (int w = 0; w < n; w++)
        if (conf[v * n + w] && cur[w] == col) { col++; again = 1; break; }
    }
    cur[v] = col;
    if (col + 1 > k) k = col + 1;
  }
  memcpy(out, cur, (size_t)n * sizeof *out);
  /* exact: the fewest colours from the lower bound up, within a budget */
  for (int t = lower; t < k; t++) {
    for (int i = 0; i < n; i++) cur[i] = -1;
    c.nodes = 0;
    c.budget = 200000;
    if (map_regs_colour_try(&c, t, 0)) {
      memcpy(out, cur, (size_t)n * sizeof *out);
      k = t;
      break;
    }
  }
  free(cur);
  return k;
}

/* Collects the rd values into *vals (n of them); returns 0 or -1. */
static int map_regs_rd_values(const map_config *m, map_regs_rdval **vals, int *n) {
  *vals = NULL;
  *n = 0;
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (!map_regs_is_rd_edge(x)) continue;
    int val = m->ops[x->src].var, seen = 0;
    for (int i = 0; i < *n && !seen; i++) seen = (*vals)[i].val == val;
    if (seen) continue;
    map_regs_rdval *v = realloc(*vals, (size_t)(*n + 1) * sizeof *v);
    if (!v) return -1;
    *vals = v;
    v = &v[(*n)++];
    v->val = val;
    v->colour = -1;
    v->copies = map_regs_rd_copies(m, val);
    v->busy = calloc((size_t)m->ii, 1);
    if (!v->busy) return -1;
    map_regs_rd_busy(m, val, v->busy);
  }
  return 0;
}

/* Points the rd edges of value val (and their producers) at entry r. */
static void map_regs_rd_bind(map_config *m, int val, int r) {
  for (int e = 0; e < m->nedges; e++) {
    map_edge *y = &m->edges[e];
    if (!map_regs_is_rd_edge(y) || m->ops[y->src].var != val) continue;
    y->group = r;
    y->rreg = m->regs[r].reg;
    m->ops[y->src].dst = m->regs[r].reg;
  }
}

/* Returns a lower bound of the colours: for each residue, a greedy clique
 * of the conflict graph among the values held there. */
static int map_regs_clique(const map_config *m, const map_regs_rdval *vals, const int *idx, int ns,
                           const unsigned char *conf) {
  int best = 0, *in = malloc((size_t)ns * sizeof *in + 1);
  if (!in) return 1;
  for (int c = 0; c < m->ii; c++) {
    int k = 0;
    for (int a = 0; a < ns; a++) {
      if (!vals[idx[a]].busy[c]) continue;
      int all = 1;
      for (int i = 0; i < k && all; i++) all = conf[a * ns + in[i]];
      if (all) in[k++] = a;
    }
    if (k > best) best = k;
  }
  free(in);
  return best;
}

/* Allocates the rd registers of all d = 0 edges (see the top of the
 * file); returns MAP_OK or MAP_ERR_INTERNAL. */
static int map_regs_rd(map_config *m) {
  map_regs_rdval *vals;
  int n, st = MAP_ERR_INTERNAL, *colour = NULL, *idx = NULL;
  unsigned char *conf = NULL;
  if (map_regs_rd_values(m, &vals, &n)) goto done;
  if (!n) { st = MAP_OK; goto done; }
  conf = calloc((size_t)n * (size_t)n, 1);
  colour = malloc((size_t)n * sizeof *colour);
  idx = malloc((size_t)n * sizeof *idx);
  if (!conf || !colour || !idx) goto done;
  /* the graph of the copies-1 values; the residue load bounds it below */
  int ns = 0, lower = 0;
  for (int i = 0; i < n; i++)
    if (vals[i].copies == 1) idx[ns++] = i;
  if (!m->isl) goto done; /* the rd conflicts compare condition spaces in it */
  for (int a = 0; a < ns; a++)
    for (int b = a + 1; b < ns; b++)
      conf[a * ns + b] = conf[b * ns + a] = map_regs_rd_conflict(m, &vals[idx[a]], &vals[idx[b]]);
  lower = map_regs_clique(m, vals, idx, ns, conf);
  int ncol = ns ? map_regs_colour(ns, conf, lower ? lower : 1, colour) : 0;
  if (ncol < 0) goto done;
  for (int a = 0; a < ns; a++) vals[idx[a]].colour = colour[a];
  /* registers in order of first use: shared ones, then the tuples */
  int *reg_of = colour; /* colour -> entry, reusing the buffer */
  for (int c = 0; c < ncol; c++) reg_of[c] = -1;
  for (int i = 0; i < n; i++) {
    if (vals[i].copies != 1) continue;
    int c = vals[i].colour;
    if (reg_of[c] < 0 && (reg_of[c] = map_regs_new(m, MAP_REG_RD, 1)) < 0) goto done;
    map_regs_rd_bind(m, vals[i].val, reg_of[c]);
  }
  for (int i = 0; i < n; i++) {
    if (vals[i].copies == 1) continue;
    int r = map_regs_new(m, MAP_REG_RD, vals[i].copies);
    if (r < 0) goto done;
    map_regs_rd_bind(m, vals[i].val, r);
  }
  st = MAP_OK;
done:
  for (int i = 0; i < n; i++) free(vals[i].busy);
  free(vals);
  free(conf);
  free(colour);
  free(idx);
  return st;
}

/* Returns 1 when the uses (ispace) of edges x and y are disjoint (isl). */
static int map_regs_uses_disjoint(const map_config *m, const map_edge *x, const map_edge *y) {
  return map_dom_ispace_disjoint(m, &x->use, &y->use);
}

/* Allocates the od/id pair of channel edge e and binds every edge of the
 * same (value, d, theta[0], theta[1], consumer, operand). Returns 0 or -1. */
static int map_regs_channel(map_config *m, int e) {
  map_edge *x = &m->edges[e];
  int val = m->ops[x->src].var;
  int od = map_regs_new(m, MAP_REG_OD, 1);
  int id = map_regs_new(m, MAP_REG_ID, 1);
  if (od < 0 || id < 0) return -1;
  memcpy(m->regs[id].d, x->d, sizeof x->d);
  for (int f = e; f < m->nedges; f++) {
    map_edge *y = &m->edges[f];
    if (y->kind == MAP_EDGE_DEP && y->theta[0] == x->theta[0] && y->theta[1] == x->theta[1] && m->ops[y->src].var == val &&
        !memcmp(y->d, x->d, sizeof x->d) && y->group < 0 && y->dst == x->dst && y->pos == x->pos) {
      y->group = id;
      y->rreg = m->regs[id].reg;
      y->wreg = m->regs[od].reg;
    }
  }
  return 0;
}

/* ---- one token stream per (value, d, direction): shared od, fanned-out ids ---- */

/* Returns 1 when y is a channel edge of the token stream of x: the same
 * value, dependence and displacement, not allocated yet. */
static int map_regs_same_stream(const map_config *m, const map_edge *x, const map_edge *y) {
  return y->kind == MAP_EDGE_DEP && map_edge_cross(y) && y->group < 0 && y->theta[0] == x->theta[0] &&
         y->theta[1] == x->theta[1] && m->ops[y->src].var == m->ops[x->src].var && !memcmp(y->d, x->d, sizeof x->d);
}

/* Returns 1 when channel edges y and z of one stream may read one id
 * (docs/timing.md 4: a FIFO head read in a cycle is popped once, however
 * many read it): the same consumer operand; consumers issuing in the same
 * cycle of the iteration; or disjoint uses and consumers less than II
 * apart (popped once per iteration that reads it, in iteration order). */
static int map_regs_id_pair(const map_config *m, const map_edge *y, const map_edge *z) {
  if (y->dst == z->dst && y->pos == z->pos) return 1;
  int gap = m->ops[z->dst].tau - m->ops[y->dst].tau;
  if (!gap) return 1;
  return gap < m->ii && -gap < m->ii && map_regs_uses_disjoint(m, y, z);
}

/* Returns the union of the uses (ispace) of the edges es[i] with gid[i]
 * == g (every i when g < 0), NULL on an isl error. */
static __isl_give isl_set *map_regs_stream_use(const map_config *m, const int *es, const int *gid,
                                               int n, int g) {
  isl_set *u = NULL;
  for (int i = 0; i < n; i++) {
    if (g >= 0 && gid[i] != g) continue;
    isl_set *s = isl_set_copy(map_dom_iset(m, &m->edges[es[i]].use));
    u = !u ? s : isl_set_union(u, s);
    if (!u) return NULL;
  }
  return u;
}

/* Splits the stream es[0..n) into id groups gid[] (each consumer operand
 * whole in one group, joined to the first group every edge of which it
 * may share an id with, map_regs_id_pair); returns the number of groups. */
static int map_regs_stream_ids(const map_config *m, const int *es, int *gid, int n) {
  int ng = 0;
  for (int i = 0; i < n; i++) gid[i] = -1;
  for (int i = 0; i < n; i++) {
    if (gid[i] >= 0) continue;
    const map_edge *x = &m->edges[es[i]];
    int g = 0;
    for (; g < ng; g++) {
      int ok = 1;
      for (int a = i; a < n && ok; a++) {
        const map_edge *y = &m->edges[es[a]];
        if (gid[a] >= 0 || y->dst != x->dst || y->pos != x->pos) continue;
        for (int b = 0; b < n && ok; b++)
          if (gid[b] == g) ok = map_regs_id_pair(m, y, &m->edges[es[b]]);
      }
      if (ok) break;
    }
    if (g == ng) ng++;
    for (int a = i; a < n; a++)
      if (gid[a] < 0 && m->edges[es[a]].dst == x->dst && m->edges[es[a]].pos == x->pos) gid[a] = g;
  }
  return ng;
}

/* Allocates the token stream of channel edge e (joined channels): every
 * channel edge of the same (value, d, theta) gets an id per group of
 * consumers that may read one (map_regs_stream_ids); the groups whose uses
 * cover the whole stream share one od and its channel (the wrapper fans
 * the token out to each id: each pops every token once), a group that
 * pops only part of them gets an od of its own. Returns 0 or -1. */
static int map_regs_stream(map_config *m, int e) {
  const map_edge *x = &m->edges[e];
  int n = 0, st = -1, shared = -1;
  int *es = malloc((size_t)m->nedges * sizeof *es), *gid = malloc((size_t)m->nedges * sizeof *gid);
  isl_set *all = NULL;
  if (!es || !gid) goto done;
  for (int f = e; f < m->nedges; f++) {
    if (!map_regs_same_stream(m, x, &m->edges[f])) continue;
    if (!map_dom_jkspace_equal(m, &m->edges[f].use, &x->use)) shared = -2; /* not one tile condition: no coverage test */
    es[n++] = f;
  }
  int ng = map_regs_stream_ids(m, es, gid, n);
  if (shared == -1 && ng > 1 && !(all = map_regs_stream_use(m, es, gid, n, -1))) goto done;
  for (int g = 0; g < ng; g++) {
    int covers = 0;
    if (all) {
      isl_set *u = map_regs_stream_use(m, es, gid, n, g);
      isl_bool eq = u ? isl_set_is_equal(u, all) : isl_bool_error;
      isl_set_free(u);
      if (eq < 0) goto done;
      covers = eq == isl_bool_true;
    }
    int od = covers && shared >= 0 ? shared : map_regs_new(m, MAP_REG_OD, 1);
    int id = map_regs_new(m, MAP_REG_ID, 1);
    if (od < 0 || id < 0) goto done;
    if (covers) shared = od;
    memcpy(m->regs[id].d, x->d, sizeof x->d);
    for (int i = 0; i < n; i++) {
      if (gid[i] != g) continue;
      map_edge *y = &m->edges[es[i]];
      y->group = id;
      y->rreg = m->regs[id].reg;
      y->wreg = m->regs[od].reg;
    }
  }
  st = 0;
done:
  isl_set_free(all);
  free(es);
  free(gid);
  return st;
}

/* Allocates the fd of loop-carried edge e and binds every edge of the same
 * (value, d); returns 0 or -1. */
static int map_regs_fd(map_config *m, int e) {
  map_edge *x = &m->edges[e];
  int val = m->ops[x->src].var;
  int r = map_regs_new(m, MAP_REG_FD, 1);
  if (r < 0) return -1;
  memcpy(m->regs[r].d, x->d, sizeof x->d);
  m->regs[r].depth_lb = (int)map_seq_dist_lb(m, x);
  m->regs[r].extra = 0;
  for (int f = e; f < m->nedges; f++) {
    map_edge *y = &m->edges[f];
    if (y->kind != MAP_EDGE_DEP || map_edge_cross(y) || m->ops[y->src].var != val || memcmp(y->d, x->d, sizeof x->d))
      continue;
    y->group = r;
    y->rreg = m->regs[r].reg;
    m->ops[y->src].dst = m->regs[r].reg;
    if (m->ops[y->dst].tau > m->ops[y->src].tau + m->ops[y->src].lat - 1) m->regs[r].extra = 1;
  }
  return 0;
}

/* ---- register pressure relief: moving ops within their slack ---- */

/* Returns 1 when edge x constrains the modulo schedule (intra-PE DEP). */
static int map_regs_local(const map_edge *x) {
  return (x->kind == MAP_EDGE_DEP || x->kind == MAP_EDGE_TIE) && !map_edge_cross(x) && x->src >= 0 && x->dst >= 0;
}

/* Returns the pressure of the current schedule: (the largest number of rd
 * values held at one residue mod II, plus the registers of the tuples)
 * * 2^20 + the sum of the lifetimes; the smaller the better. */
static long map_regs_pressure(const map_config *m, unsigned char *busy, int *load) {
  long life = 0;
  int tuples = 0, peak = 0;
  memset(load, 0, (size_t)m->ii * sizeof *load);
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (!map_regs_is_rd_edge(x)) continue;
    int val = m->ops[x->src].var, first = 1;
    for (int f = 0; f < e && first; f++)
      first = !(map_regs_is_rd_edge(&m->edges[f]) && m->ops[m->edges[f].src].var == val);
    if (!first) continue;
    int k = map_regs_rd_copies(m, val);
    memset(busy, 0, (size_t)m->ii);
    map_regs_rd_busy(m, val, busy);
    for (int c = 0; c < m->ii; c++) life += busy[c];
    if (k > 1) {
      tuples += k;
      life += (long)k * m->ii;
      continue;
    }
    for (int c = 0; c < m->ii; c++) load[c] += busy[c];
  }
  for (int c = 0; c < m->ii; c++)
    if (load[c] > peak) peak = load[c];
  return (long)(peak + tuples) * (1L << 20) + life;
}

/* Returns 1 when op v may move: it is not at either end of a channel
 * (lambda^K was computed from their offsets) nor one of several producers
 * of an fd value (aligned by map_sched.c). */
static int map_regs_movable(const map_config *m, int v) {
  if (map_op_shares_fd(m, v)) return 0;
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (x->kind == MAP_EDGE_TIE && (x->src == v || x->dst == v)) return 0; /* issues with its partner */
    if (x->kind == MAP_EDGE_DEP && map_edge_cross(x) && (x->src == v || x->dst == v)) return 0;
  }
  return 1;
}

/* Computes the window [*lo, *hi] of offsets op v may take with every
 * other op fixed: all intra-PE dependences hold. */
static void map_regs_window(const map_config *m, int v, int64_t *lo, int64_t *hi) {
  *lo = 0;
  *hi = INT64_MAX;
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (!map_regs_local(x) || x->src == x->dst) continue;
    int64_t slack = map_edge_latency(m, x) - (int64_t)m->ii * map_seq_dist_lb(m, x);
    if (x->dst == v && m->ops[x->src].tau + slack > *lo) *lo = m->ops[x->src].tau + slack;
    if (x->src == v && m->ops[x->dst].tau - slack < *hi) *hi = m->ops[x->dst].tau - slack;
  }
}

/* Returns a unit of op v's class free in the slot of offset t (v's own
 * slot counts as free), or -1. */
static int map_regs_free_unit(const map_config *m, int v, int64_t t) {
  int nunits = isa_fu_count(&m->arch);
  for (int u = 0; u < nunits; u++) {
    if (isa_fu_class_of(&m->arch, u) != m->ops[v].cls) continue;
    if (map_sched_slot_free(m, v, u, t, NULL)) return u;
  }
  return -1;
}

/* Lowers the rd pressure of the schedule by moving single ops to other
 * free slots within their slack (first improvement, a few rounds). II,
 * the FU classes and the ops at the ends of channels stay; every intra-PE
 * dependence still holds, so the schedule stays valid. Returns MAP_OK or
 * MAP_ERR_INTERNAL. */
static int map_regs_relieve(map_config *m) {
  unsigned char *busy = malloc((size_t)m->ii + 1);
  int *load = malloc(((size_t)m->ii + 1) * sizeof *load);
  if (!busy || !load) {
    free(busy);
    free(load);
    return MAP_ERR_INTERNAL;
  }
  long cost = map_regs_pressure(m, busy, load);
  for (int round = 0, better = 1; better && round < 20; round++) {
    better = 0;
    for (int v = 0; v < m->nops; v++) {
      if (!map_regs_movable(m, v)) continue;
      int64_t lo, hi;
      map_regs_window(m, v, &lo, &hi);
      if (hi > lo + 2 * (int64_t)m->ii) hi = lo + 2 * (int64_t)m->ii;
      int tau0 = m->ops[v].tau, fu0 = m->ops[v].fu, best_tau = tau0, best_fu = fu0;
      for (int64_t t = lo; t <= hi; t++) {
        int u = map_regs_free_unit(m, v, t);
        if (u < 0 || t == tau0) continue;
        m->ops[v].tau = (int)t;
        m->ops[v].fu = u;
        long c = map_regs_pressure(m, busy, load);
        if (c < cost) cost = c, best_tau = (int)t, best_fu = u, better = 1;
      }
      m->ops[v].tau = best_tau;
      m->ops[v].fu = best_fu;
    }
    for (int v = 0; v < m->nops; v++) /* swaps: two ops trade slots */
      for (int w = v + 1; w < m->nops; w++) {
        map_op *a = &m->ops[v], *b = &m->ops[w];
        if (a->cls != b->cls || !map_regs_movable(m, v) || !map_regs_movable(m, w)) continue;
        int ta = a->tau, fa = a->fu, tb = b->tau, fb = b->fu;
        for (int shift = -1; shift <= 1; shift++) { /* b's slot in the iteration before, same, after */
          int64_t na = tb + (int64_t)shift * m->ii, nb = ta - (int64_t)shift * m->ii;
          if (na < 0 || nb < 0) continue;
          a->tau = (int)na, a->fu = fb, b->tau = (int)nb, b->fu = fa;
          int64_t lo, hi, lo2, hi2;
          map_regs_window(m, v, &lo, &hi);
          map_regs_window(m, w, &lo2, &hi2);
          int slots = map_sched_slot_free(m, v, a->fu, a->tau, NULL) && map_sched_slot_free(m, w, b->fu, b->tau, NULL);
          long c = slots && na >= lo && na <= hi && nb >= lo2 && nb <= hi2 ? map_regs_pressure(m, busy, load) : cost;
          if (c < cost) {
            cost = c, better = 1;
            ta = a->tau, fa = a->fu, tb = b->tau, fb = b->fu;
          }
          a->tau = ta, a->fu = fa, b->tau = tb, b->fu = fb;
        }
      }
  }
  free(busy);
  free(load);
  return MAP_OK;
}

/* Forgets every register choice so that allocation can run again. */
static void map_regs_reset(map_config *m) {
  free(m->regs);
  m->regs = NULL;
  m->nregs = 0;
  memset(m->used, 0, sizeof m->used);
  for (int e = 0; e < m->nedges; e++) m->edges[e].group = -1;
}

/* Returns 1 when isl proves that the use (ispace) of input edge x has
 * loop dimension dim at its lower bound lo[dim] (a function of the
 * parameters): K = 0 along that tiled dimension (I = lo + p K + J with
 * 0 <= J < p). */
static int map_regs_at_lower(const map_config *m, const map_edge *x, int dim) {
  if (dim < 0 || !m->lo[dim]) return 0;
  isl_set *s = isl_set_copy(map_dom_iset(m, &x->use));
  isl_pw_aff *lo = isl_pw_aff_copy(map_isl_pw_aff(m->isl, m->lo[dim])); /* read once per compile */
  if (!s || !lo || isl_set_is_empty(s) != isl_bool_false) {
    isl_set_free(s);
    isl_pw_aff_free(lo);
    return 0;
  }
  isl_pw_aff *mx = isl_set_dim_max(s, dim);
  isl_space *sp = isl_space_align_params(isl_pw_aff_get_space(mx), isl_pw_aff_get_space(lo));
  mx = isl_pw_aff_align_params(mx, isl_space_copy(sp));
  lo = isl_pw_aff_align_params(lo, sp);
  isl_set *above = isl_pw_aff_gt_set(mx, lo);
  int r = isl_set_is_empty(above) == isl_bool_true;
  isl_set_free(above);
  return r;
}

/* Returns 1 + d when input edge x is read only on the first PE along
 * tiled dimension d (1-D: the region's first PE, d = 0; 2-D: the first
 * row of the region, d = 0, or its first column, d = 1, the rows' tried
 * first), 0 otherwise. */
static int map_regs_first_pe_input(const map_config *m, const map_edge *x) {
  if (x->kind != MAP_EDGE_IN) return 0;
  int nt = m->axis == MAP_AXIS_2D ? 2 : 1;
  for (int d = 0; d < nt; d++)
    if (map_regs_at_lower(m, x, m->mapped[d])) return 1 + d;
  return 0;
}

/* Returns 1 when the od of channel edge y also feeds another id (a token
 * stream fanned out, map_regs_stream). */
static int map_regs_od_fans_out(const map_config *m, const map_edge *y) {
  for (int f = 0; f < m->nedges; f++) {
    const map_edge *z = &m->edges[f];
    if (z->kind == MAP_EDGE_DEP && map_edge_cross(z) && z->group >= 0 && z->group != y->group &&
        z->wreg.cls == y->wreg.cls && z->wreg.idx == y->wreg.idx)
      return 1;
  }
  return 0;
}

/* Binds the inputs marked in first[] (1 + d: read only on the first PE
 * along tiled dimension d) to the ids of channels from the previous PE
 * along d (theta[d] = +1, and in 2-D theta 0 along the other, one hop,
 * read by the same operand of the same op: from the west in 1xC and along
 * the columns, from the north in Rx1 and along the rows), one input per
 * channel id, and gives the rest an id of
 * their own: the first PE (row, column) has no previous PE, its wrapper
 * input of that channel's port is the array border, where the
 * instantiator puts the input's bank (inst_io.c, inst_io2d.c), so one
 * wrapper connection serves both (docs/symbolic.md, "Registers"). Returns
 * 0 or -1. */
static int map_regs_share_first(map_config *m, const unsigned char *first) {
  for (int e = 0; e < m->nedges; e++) {
    map_edge *x = &m->edges[e];
    if (!first[e]) continue;
    int d = first[e] - 1, g = -1;
    for (int f = 0; f < m->nedges && g < 0; f++) {
      const map_edge *y = &m->edges[f];
      if (y->kind != MAP_EDGE_DEP || !map_edge_cross(y) || y->theta[d] <= 0 || y->group < 0) continue;
      /* 2-D: a straight channel read by the same operand of the same op
       * (elsewhere the programs differ anyway and the id buys nothing: the
       * banks are per PE there) */
      if (m->axis == MAP_AXIS_2D && (y->theta[1 - d] != 0 || y->dst != x->dst || y->pos != x->pos)) continue;
      /* 1-D: the region's one WRAPPER connects every id of a fanned-out
       * od to its port, which is the input's bank on the first PE */
      if (m->axis != MAP_AXIS_2D && map_regs_od_fans_out(m, y)) continue;
      int taken = 0;
      for (int h = 0; h < m->nedges && !taken; h++)
        taken = m->edges[h].kind == MAP_EDGE_IN && m->edges[h].group == y->group;
      if (!taken) g = y->group;
    }
    if (g < 0 && (g = map_regs_new(m, MAP_REG_ID, 1)) < 0) return -1;
    x->group = g;
    x->rreg = m->regs[g].reg;
  }
  return 0;
}

/* Allocates every register class (see the top of the file); an input read
 * only on the first PE shares a channel's id when `share`, channels read
 * by several consumers in disjoint iterations are one when `join`
 * (map_regs); returns MAP_OK or MAP_ERR_INTERNAL. */
static int map_regs_assign(map_config *m, int share, int join) {
  unsigned char *first = calloc((size_t)m->nedges + 1, 1);
  if (!first || ((share || join) && !m->isl)) {
    free(first);
    return MAP_ERR_INTERNAL;
  }
  for (int e = 0; share && e < m->nedges; e++) first[e] = map_regs_first_pe_input(m, &m->edges[e]);
  int st = MAP_OK;
  for (int i = 0; i < m->nops; i++) m->ops[i].dst.cls = MAP_REG_NONE;
  for (int e = 0; e < m->nedges && !st; e++) {
    map_edge *x = &m->edges[e];
    if (x->group >= 0 || map_regs_is_rd_edge(x) || x->kind == MAP_EDGE_TIE || first[e]) continue;
    if (x->kind == MAP_EDGE_CONST) {
      x->rreg.cls = MAP_REG_IMM;
      continue;
    }
    if (x->kind == MAP_EDGE_IN || x->kind == MAP_EDGE_OUT) {
      int r = map_regs_new(m, x->kind == MAP_EDGE_IN ? MAP_REG_ID : MAP_REG_OD, 1);
      if (r < 0) {
        st = MAP_ERR_INTERNAL;
        break;
      }
      x->group = r;
      if (x->kind == MAP_EDGE_IN) x->rreg = m->regs[r].reg;
      else x->wreg = m->regs[r].reg;
      continue;
    }
    if ((!map_edge_cross(x) ? map_regs_fd(m, e) : join ? map_regs_stream(m, e) : map_regs_channel(m, e)) < 0)
      st = MAP_ERR_INTERNAL;
  }
  if (!st && share && map_regs_share_first(m, first)) st = MAP_ERR_INTERNAL;
  free(first);
  return st ? st : map_regs_rd(m);
}

/* Checks the register classes; returns MAP_OK or NOFIT with a message
 * naming every class that runs out, the first as before ("registers rd:
 * needs 8, pe.rd = 4"), the others after it ("; id: needs 5, pe.id = 4"). */
static int map_regs_check(map_config *m, char *msg, size_t msgsz) {
  static const char *const names[] = {"-", "rd", "fd", "id", "od"};
  static const fit_resource res[] = {FIT_RES_NONE, FIT_RES_RD, FIT_RES_FD, FIT_RES_ID, FIT_RES_OD};
  const int have[] = {0, m->arch.rd, m->arch.fd, m->arch.id, m->arch.od};
  fit_record_clear(&m->fit);
  for (int cls = MAP_REG_RD; cls <= MAP_REG_OD; cls++)
    if (m->used[cls] > have[cls]) {
      char key[8];
      snprintf(key, sizeof key, "pe.%s", names[cls]);
      fit_record_add(&m->fit, res[cls], key, m->used[cls], have[cls], "", "%s%s: needs %d, %s = %d",
                     m->fit.n ? "" : "registers ", names[cls], m->used[cls], key, have[cls]);
    }
  if (!m->fit.n) return MAP_OK;
  fit_record_format(&m->fit, msg, msgsz);
  return MAP_ERR_NOFIT;
}

int map_regs(map_config *m, char *msg, size_t msgsz) {
  /* an input read only on the first PE (1-D) or the first row or column
   * of a 2-D region takes a channel's id wherever one is free, so that
   * those PEs run the others' program words (inst_classes_merge: the
   * paper's processor classes) */
  int share = 1;
  if (map_regs_assign(m, share, 0) != MAP_OK) goto oom;
  /* channels are joined only where ids or ods run out */
  int join = m->used[MAP_REG_ID] > m->arch.id || m->used[MAP_REG_OD] > m->arch.od;
  if (join) {
    map_regs_reset(m);
    if (map_regs_assign(m, share, join) != MAP_OK) goto oom;
  }
  if (m->used[MAP_REG_RD] > m->arch.rd) { /* try a schedule with less pressure */
    map_regs_reset(m);
    if (map_regs_relieve(m) != MAP_OK || map_regs_assign(m, share, join) != MAP_OK) goto oom;
  }
  int st;
  if ((st = map_regs_check(m, msg, msgsz))) return st;
  for (int r = 0; r < m->nregs; r++) {
    const map_regfile_entry *x = &m->regs[r];
    if (x->reg.cls == MAP_REG_FD && x->depth_lb + x->extra > m->arch.fd_depth) {
      char where[16];
      snprintf(where, sizeof where, "fd%d", x->reg.idx);
      return fit_nofit(&m->fit, msg, msgsz, FIT_RES_FD_DEPTH, "pe.fd_depth", x->depth_lb + x->extra,
                       m->arch.fd_depth, where, "fd depth: %s needs a depth of at least %d, pe.fd_depth = %d",
                       where, x->depth_lb + x->extra, m->arch.fd_depth);
    }
  }
  return MAP_OK;
oom:
  snprintf(msg, msgsz, "out of memory");
  return MAP_ERR_INTERNAL;
}
