/*
 * map_sched.c: symbolic modulo scheduling (paper section 5.2).
 *
 * 1. Scan order: the mapped dimension is scanned fastest when every
 *    dependence stays lexicographically positive in that order (then
 *    lambda^K is affine in p); otherwise the program order, innermost
 *    (last) dimension fastest, which the language guarantees positive.
 * 2. ResMII = max over FU classes of ceil(slots of the class / units),
 *    slots the fewest groups of its ops with pairwise disjoint condition
 *    spaces (ops of one group may share a unit's slot when they are in the
 *    same stage: map_sched_slot_free); a piecewise program gets II >= 2;
 *    RecMII = the smallest II with no positive cycle in the graph of
 *    intra-PE edges weighted lat - II * dist, dist = the smallest sequence
 *    distance s(d) over all valid extents (map_seq_dist_lb); tie edges
 *    (operand forwarding) weigh 0 both ways, so tied ops share an offset.
 * 3. Iterative modulo scheduling (Rau) with a resource reservation table
 *    per FU unit and a budget, then a bounded depth-first search over the
 *    slots [est, est + II) when IMS gives up; II grows only when neither
 *    finds a schedule, and ii_reason says why.
 * 4. lambda^K of the mapped dimension: for a channel from the previous PE
 *    (theta = +1) the consumer of (J, K) and the producer of
 *    (J - d + p e_m, K - e_m) satisfy
 *      lambda^K - pi p S_m + pi s(d) >= tau[src] - tau[dst] + lat_e,
 *    so lambda^K = pi p S_m + kc with kc = max(lat terms - pi s_lb(d));
 *    theta = -1 channels give upper bounds, checked against kc.
 *    Intra-PE edges hold by step 3 since pi s(d) >= pi s_lb(d).
 *    2-D: a channel with tile displacement (tr, tc) gives
 *      tr kR + tc kC >= tau[src] - tau[dst] + lat_e - pi s_lb(d),
 *    kX = LX - pi p_X S_X (lk_p = 1, some channel toward higher PEs along
 *    X) or kX = LX (lk_p = 0, then -LX + pi p_X S_X >= -LX + pi p_min_X);
 *    a small fixpoint raises (or, lk_p = 0, lowers) one k per violated
 *    channel until all hold, else NOFIT. lat_e counts two hops for a
 *    diagonal.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/val.h>

#include "map.h"
#include "poly.h"

int64_t map_seq_dist(const map_config *m, const int64_t *d, const int64_t *E) {
  int64_t s = 0, w = 1;
  for (int r = 0; r < m->ndims; r++) {
    int k = m->order[r];
    s += d[k] * w;
    w *= E[k];
  }
  return s;
}

int64_t map_seq_dist_lb(const map_config *m, const map_edge *e) {
  int64_t E[AST_MAX_DIMS];
  for (int k = 0; k < m->ndims; k++) {
    int64_t a = e->d[k] < 0 ? -e->d[k] : e->d[k];
    E[k] = a + 1;
    /* a mapped dimension's extent is the tile size p >= p_min; an edge
     * inside the tile along it (theta 0) has instances only when
     * p >= |d_m| + 1, one crossing tiles (theta != 0) already at p = |d_m| */
    if (k == m->mapped[0] && (e->theta[0] || E[k] < m->p_min[0])) E[k] = m->p_min[0];
    if (m->axis == MAP_AXIS_2D && k == m->mapped[1] && (e->theta[1] || E[k] < m->p_min[1])) E[k] = m->p_min[1];
  }
  return map_seq_dist(m, e->d, E);
}

int64_t map_stride_dim(const map_config *m, int dim, const int64_t *E) {
  int64_t w = 1;
  for (int r = 0; r < m->ndims && m->order[r] != dim; r++) w *= E[m->order[r]];
  return w;
}

int64_t map_stride_mapped(const map_config *m, const int64_t *E) { return map_stride_dim(m, m->mapped[0], E); }

/* Returns 1 when extents E have tiles of at least p_wide[0] (x p_wide[1]), so
 * that the wide constants of lambda^K hold. */
static int map_sched_is_wide(const map_config *m, const int64_t *E) {
  return m->wide && E[m->mapped[0]] >= m->p_wide[0] && (m->axis != MAP_AXIS_2D || E[m->mapped[1]] >= m->p_wide[1]);
}

int64_t map_lambda_k(const map_config *m, const int64_t *E) {
  int64_t c = map_sched_is_wide(m, E) ? m->lk_cw[0] : m->lk_c[0];
  return m->lk_p[0] * (int64_t)m->ii * E[m->mapped[0]] * map_stride_mapped(m, E) + c;
}

int64_t map_lambda_k2(const map_config *m, const int64_t *E) {
  if (m->axis != MAP_AXIS_2D) return 0;
  int64_t c = map_sched_is_wide(m, E) ? m->lk_cw[1] : m->lk_c[1];
  return m->lk_p[1] * (int64_t)m->ii * E[m->mapped[1]] * map_stride_dim(m, m->mapped[1], E) + c;
}

int map_edge_cross(const map_edge *e) { return e->theta[0] != 0 || e->theta[1] != 0; }

int map_edge_latency(const map_config *m, const map_edge *e) {
  if (e->kind == MAP_EDGE_TIE) return 0; /* issued in one cycle */
  int l = m->ops[e->src].lat;
  int hops = (e->theta[0] != 0) + (e->theta[1] != 0);
  return hops ? l + 1 + hops : l; /* od write, hops, FIFO push (timing.md 5) */
}

/* Returns 1 when every dependence is lexicographically positive in the
 * scan order m->order (most significant: order[n-1]). */
static int map_sched_order_ok(const map_config *m) {
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP) continue;
    for (int r = m->ndims - 1; r >= 0; r--) {
      int64_t v = x->d[m->order[r]];
      if (v < 0) return 0;
      if (v > 0) break;
    }
  }
  return 1;
}

/* Chooses the scan order (see the top of the file). */
static void map_sched_choose_order(map_config *m) {
  int n = 0;
  if (m->axis == MAP_AXIS_2D) m->order[n++] = m->mapped[1];
  m->order[n++] = m->mapped[0];
  for (int k = m->ndims - 1; k >= 0; k--)
    if (k != m->mapped[0] && (m->axis != MAP_AXIS_2D || k != m->mapped[1])) m->order[n++] = k;
  if (map_sched_order_ok(m)) return;
  for (int r = 0; r < m->ndims; r++) m->order[r] = m->ndims - 1 - r;
}

/* Returns 1 when edge e constrains the modulo schedule (intra-PE DEP). */
static int map_sched_local(const map_edge *e) {
  return (e->kind == MAP_EDGE_DEP || e->kind == MAP_EDGE_TIE) && !map_edge_cross(e) && e->src >= 0 && e->dst >= 0;
}

/* Returns 1 when the graph has a cycle of positive weight lat - ii*dist. */
static int map_sched_positive_cycle(const map_config *m, int ii) {
  int n = m->nops;
  int64_t *D = malloc((size_t)n * (size_t)n * sizeof *D);
  const int64_t NEG = INT64_MIN / 4;
  int pos = 0;
  if (!D) return 1;
  for (int i = 0; i < n * n; i++) D[i] = NEG;
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (!map_sched_local(x)) continue;
    int64_t w = map_edge_latency(m, x) - (int64_t)ii * map_seq_dist_lb(m, x);
    int64_t *c = &D[x->src * n + x->dst];
    if (w > *c) *c = w;
  }
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++) {
      if (D[i * n + k] == NEG) continue;
      for (int j = 0; j < n; j++) {
        if (D[k * n + j] == NEG) continue;
        int64_t w = D[i * n + k] + D[k * n + j];
        if (w > D[i * n + j]) D[i * n + j] = w;
      }
    }
  for (int i = 0; i < n; i++)
    if (D[i * n + i] > 0) pos = 1;
  free(D);
  return pos;
}

/* Returns RecMII: the smallest II >= 1 without a positive cycle. */
static int map_sched_recmii(const map_config *m) {
  int bound = 1;
  for (int i = 0; i < m->nops; i++) bound += m->ops[i].lat + 2;
  for (int ii = 1; ii <= bound; ii++)
    if (!map_sched_positive_cycle(m, ii)) return ii;
  return bound;
}

/* Returns floor(t / ii): the stage of offset t. */
static int64_t map_sched_stage(int64_t t, int ii) { return t >= 0 ? t / ii : -((-t + ii - 1) / ii); }

/* Returns 1 when op v at offset tv and op o at offset to may share a slot
 * of one unit: their condition spaces are disjoint and they are in the
 * same stage. */
static int map_sched_pair_ok(const map_config *m, int v, int o, int64_t tv, int64_t to) {
  return m->excl && m->excl[v * m->nops + o] && map_sched_stage(tv, m->ii) == map_sched_stage(to, m->ii);
}

int map_sched_slot_free(const map_config *m, int v, int u, int64_t t, const unsigned char *on) {
  int ii = m->ii;
  for (int o = 0; o < m->nops; o++) {
    if (o == v || (on && !on[o]) || m->ops[o].fu != u || ((m->ops[o].tau - t) % ii + ii) % ii) continue;
    if (!map_sched_pair_ok(m, v, o, t, m->ops[o].tau)) return 0;
  }
  return 1;
}

/* Iterative modulo scheduling at `ii`; returns 1 and sets tau/fu on
 * success, 0 when the budget runs out. A slot holds one op, or several
 * of disjoint condition spaces and one stage (map_sched_slot_free). */
static int map_sched_ims(map_config *m, int ii) {
  int n = m->nops, ok = 0;
  m->ii = ii;
  unsigned char *sched = calloc((size_t)n + 1, 1);
  int64_t *height = calloc((size_t)n + 1, sizeof *height);
  int nunits = isa_fu_count(&m->arch);
  int *last = malloc((size_t)(n + 1) * sizeof *last);
  if (!sched || !height || !last) goto done;
  for (int i = 0; i < n; i++) last[i] = -1;
  /* heights: longest weighted path to any sink (no positive cycle) */
  for (int it = 0; it < n + 1; it++)
    for (int e = 0; e < m->nedges; e++) {
      const map_edge *x = &m->edges[e];
      if (!map_sched_local(x)) continue;
      int64_t h = height[x->dst] + map_edge_latency(m, x) - (int64_t)ii * map_seq_dist_lb(m, x);
      if (h > height[x->src]) height[x->src] = h;
    }
  int budget = 200 * n + 100;
  while (budget-- > 0) {
    int v = -1;
    for (int i = 0; i < n; i++)
      if (!sched[i] && (v < 0 || height[i] > height[v])) v = i;
    if (v < 0) { ok = 1; break; }
    int64_t est = 0;
    for (int e = 0; e < m->nedges; e++) {
      const map_edge *x = &m->edges[e];
      if (!map_sched_local(x) || x->dst != v || !sched[x->src]) continue;
      int64_t t = m->ops[x->src].tau + map_edge_latency(m, x) - (int64_t)ii * map_seq_dist_lb(m, x);
      if (t > est) est = t;
    }
    if (last[v] >= est) est = last[v] + 1;
    int t_found = -1, u_found = -1;
    for (int64_t t = est; t < est + ii && t_found < 0; t++)
      for (int u = 0; u < nunits; u++)
        if (isa_fu_class_of(&m->arch, u) == m->ops[v].cls && map_sched_slot_free(m, v, u, t, sched)) {
          t_found = (int)t;
          u_found = u;
          break;
        }
    if (t_found < 0) { /* evict the occupants of the first unit at est that clash with v */
      t_found = (int)est;
      for (int u = 0; u < nunits; u++)
        if (isa_fu_class_of(&m->arch, u) == m->ops[v].cls) { u_found = u; break; }
      if (u_found < 0) goto done;
      m->ops[v].tau = t_found;
      for (int o = 0; o < n; o++) {
        if (!sched[o] || o == v || m->ops[o].fu != u_found) continue;
        if (((m->ops[o].tau - t_found) % ii + ii) % ii) continue;
        if (!map_sched_pair_ok(m, v, o, t_found, m->ops[o].tau)) sched[o] = 0;
      }
    }
    m->ops[v].tau = t_found;
    m->ops[v].fu = u_found;
    sched[v] = 1;
    last[v] = t_found;
    /* unschedule successors and predecessors now violated */
    for (int e = 0; e < m->nedges; e++) {
      const map_edge *x = &m->edges[e];
      if (!map_sched_local(x)) continue;
      int64_t need = map_edge_latency(m, x) - (int64_t)ii * map_seq_dist_lb(m, x);
      int a = x->src, b = x->dst;
      if (sched[a] && sched[b] && m->ops[b].tau < m->ops[a].tau + need) {
        int w = a == v ? b : a;
        if (w == v) continue;
        sched[w] = 0;
      }
    }
  }
done:
  free(sched);
  free(height);
  free(last);
  return ok;
}

typedef struct {
  map_config *m;
  int ii, nunits, *order;
  unsigned char *placed;
  long nodes;
} map_sched_dfs;

/* Depth-first search placing ops order[i..] in [est, est + II); returns 1
 * when all are placed with every edge between placed ops respected. */
static int map_sched_dfs_place(map_sched_dfs *s, int i) {
  map_config *m = s->m;
  if (i == m->nops) return 1;
  if (++s->nodes > 200000) return 0;
  int v = s->order[i];
  int64_t est = 0;
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (!map_sched_local(x) || x->dst != v || !s->placed[x->src]) continue;
    int64_t t = m->ops[x->src].tau + map_edge_latency(m, x) - (int64_t)s->ii * map_seq_dist_lb(m, x);
    if (t > est) est = t;
  }
  for (int64_t t = est; t < est + s->ii; t++)
    for (int u = 0; u < s->nunits; u++) {
      if (isa_fu_class_of(&m->arch, u) != m->ops[v].cls || !map_sched_slot_free(m, v, u, t, s->placed)) continue;
      int ok = 1; /* edges to already placed successors */
      for (int e = 0; e < m->nedges && ok; e++) {
        const map_edge *x = &m->edges[e];
        if (!map_sched_local(x) || x->src != v || !s->placed[x->dst]) continue;
        if (m->ops[x->dst].tau < t + map_edge_latency(m, x) - (int64_t)s->ii * map_seq_dist_lb(m, x)) ok = 0;
      }
      if (!ok) continue;
      m->ops[v].tau = (int)t;
      m->ops[v].fu = u;
      s->placed[v] = 1;
      if (map_sched_dfs_place(s, i + 1)) return 1;
      s->placed[v] = 0;
      break; /* units of a class are interchangeable: try the next slot */
    }
  return 0;
}

/* Exhaustive fallback for small graphs when IMS gives up: returns 1 and
 * sets tau/fu on success. */
static int map_sched_exhaustive(map_config *m, int ii) {
  map_sched_dfs s = {.m = m, .ii = ii, .nunits = isa_fu_count(&m->arch)};
  m->ii = ii;
  int ok = 0;
  s.order = malloc((size_t)(m->nops + 1) * sizeof *s.order);
  s.placed = calloc((size_t)m->nops + 1, sizeof *s.placed);
  if (s.order && s.placed) {
    /* topological order of the d = 0 edges (by repeated relaxation) */
    int n = 0;
    while (n < m->nops) {
      int progress = 0;
      for (int v = 0; v < m->nops; v++) {
        int ready = !s.placed[v];
        for (int e = 0; e < m->nedges && ready; e++) {
          const map_edge *x = &m->edges[e];
          if (map_sched_local(x) && x->dst == v && !s.placed[x->src] && map_seq_dist_lb(m, x) == 0 && x->src != v &&
              !(x->kind == MAP_EDGE_TIE && x->pos < 0)) /* a tie back closes a cycle */
            ready = 0;
        }
        if (ready) { s.order[n++] = v; s.placed[v] = 1; progress = 1; }
      }
      if (!progress) break;
    }
    memset(s.placed, 0, (size_t)m->nops * sizeof *s.placed);
    if (n == m->nops) ok = map_sched_dfs_place(&s, 0);
  }
  free(s.order);
  free(s.placed);
  return ok;
}

/* Computes lambda^K (see the top of the file); returns MAP_OK or NOFIT. */
static int map_sched_lambda_k(map_config *m, char *msg, size_t msgsz) {
  int have_pos = 0, have_neg = 0;
  int64_t kc_lo = INT64_MIN, kc_hi = INT64_MAX;
  const int64_t ii = m->ii;
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP || !x->theta[0]) continue;
    int64_t c = m->ops[x->src].tau - m->ops[x->dst].tau + map_edge_latency(m, x);
    int64_t s = map_seq_dist_lb(m, x);
    if (x->theta[0] > 0) {
      have_pos = 1;
      if (c - ii * s > kc_lo) kc_lo = c - ii * s;
    } else {
      have_neg = 1;
      if (ii * s - c < kc_hi) kc_hi = ii * s - c;
    }
  }
  if (!have_pos && !have_neg) {
    m->lk_p[0] = 0;
    m->lk_c[0] = 0;
    return MAP_OK;
  }
  if (!have_pos) { /* values flow only toward lower PEs: lambda^K <= 0 */
    int64_t hi = kc_hi + ii * m->p_min[0]; /* lambda^K <= pi p S + pi s - c */
    m->lk_p[0] = 0;
    m->lk_c[0] = hi < 0 ? hi : 0;
    return MAP_OK;
  }
  m->lk_p[0] = 1;
  m->lk_c[0] = kc_lo;
  if (have_neg && kc_lo > kc_hi) {
    return fit_nofit(&m->fit, msg, msgsz, FIT_RES_SCHEDULE, "", -1, -1, m->prog->index[m->mapped[0]],
                     "schedule: values flow both ways along dimension %s and no inter-tile schedule "
                     "lambda^K = pi*p*S + c satisfies both (c >= %" PRId64 " and c <= %" PRId64 ")",
                     m->prog->index[m->mapped[0]], kc_lo, kc_hi);
  }
  return MAP_OK;
}

/* Computes the 2-D lambda^K = (LR, LC) (see the top of the file); returns
 * MAP_OK or NOFIT naming the conflicting channels. */
static int map_sched_lambda_k_2d(map_config *m, char *msg, size_t msgsz) {
  const int64_t ii = m->ii;
  int pos[2] = {0, 0}, any[2] = {0, 0};
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP || !map_edge_cross(x)) continue;
    int th[2] = {x->theta[0], x->theta[1]};
    for (int i = 0; i < 2; i++) {
      pos[i] |= th[i] > 0;
      any[i] |= th[i] != 0;
    }
  }
  /* kX = LX - pi p_X S_X when lk_p = 1; LX itself when 0 (no channel
   * toward higher PEs along X: LX <= 0 preferred) */
  int64_t k[2] = {0, 0};
  int pmin[2] = {m->p_min[0], m->p_min[1]};
  /* start from the channels along one axis only (the 1-D bounds): the
   * smallest kX they allow (lk_p = 1), the largest kX <= 0 (lk_p = 0) */
  int have[2] = {0, 0};
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP || !map_edge_cross(x) || (x->theta[0] && x->theta[1])) continue;
    int i = x->theta[0] ? 0 : 1, th = x->theta[0] ? x->theta[0] : x->theta[1];
    int64_t b = m->ops[x->src].tau - m->ops[x->dst].tau + map_edge_latency(m, x) - ii * map_seq_dist_lb(m, x);
    if (pos[i] && th > 0 && (!have[i] || b > k[i])) k[i] = b, have[i] = 1;
    if (!pos[i] && th < 0 && -(b - ii * pmin[i]) < k[i]) k[i] = -(b - ii * pmin[i]);
  }
  for (int it = 0; it < 4096; it++) {
    int bad = -1;
    for (int e = 0; e < m->nedges && bad < 0; e++) {
      const map_edge *x = &m->edges[e];
      if (x->kind != MAP_EDGE_DEP || !map_edge_cross(x)) continue;
      int th[2] = {x->theta[0], x->theta[1]};
      int64_t b = m->ops[x->src].tau - m->ops[x->dst].tau + map_edge_latency(m, x) - ii * map_seq_dist_lb(m, x);
      int64_t lhs = 0;
      for (int i = 0; i < 2; i++) {
        lhs += th[i] * k[i];
        if (!pos[i] && th[i] < 0) b -= ii * pmin[i]; /* -LX + pi p_X S_X >= -LX + pi p_min */
      }
      if (lhs >= b) continue;
      int64_t need = b - lhs;
      /* raise a k with a positive coefficient (lk_p = 1), or lower one with
       * a negative coefficient and lk_p = 0 */
      int fixed = 0;
      for (int i = 1; i >= 0 && !fixed; i--)
        if (th[i] > 0 && pos[i]) k[i] += need, fixed = 1;
      for (int i = 1; i >= 0 && !fixed; i--)
        if (th[i] < 0 && !pos[i]) k[i] -= need, fixed = 1;
      if (!fixed) bad = e;
      else bad = -2;
      if (bad >= 0) {
        return fit_nofit(&m->fit, msg, msgsz, FIT_RES_SCHEDULE, "", -1, -1, "",
                         "schedule: values flow both ways along %s/%s (channel of edge %d, displacement (%d,%d)) "
                         "and no inter-tile schedule lambda^K = (pi*p*S + c_rows, pi*pc*S + c_cols) satisfies "
                         "every channel",
                         m->dim_name[m->mapped[0]], m->dim_name[m->mapped[1]], e, x->theta[0], x->theta[1]);
      }
    }
    if (bad == -1) {
      m->lk_p[0] = pos[0];
      m->lk_c[0] = k[0];
      m->lk_p[1] = pos[1];
      m->lk_c[1] = k[1];
      (void)any;
      return MAP_OK;
    }
  }
  return fit_nofit(&m->fit, msg, msgsz, FIT_RES_SCHEDULE, "", -1, -1, "",
                   "schedule: no inter-tile schedule lambda^K = (pi*p*S + c_rows, pi*pc*S + c_cols) satisfies "
                   "every channel of the 2-D region along %s/%s (values flow both ways)",
                   m->dim_name[m->mapped[0]], m->dim_name[m->mapped[1]]);
}

/* Returns lambda^K's status (map_sched_lambda_k or _2d); *m gets the
 * constants. With p_min = max |d| + 1 the wide constants are the same. */
static int map_sched_lambda_k_any(map_config *m, char *msg, size_t msgsz) {
  int st = m->axis == MAP_AXIS_2D ? map_sched_lambda_k_2d(m, msg, msgsz) : map_sched_lambda_k(m, msg, msgsz);
  m->wide = 0;
  m->p_wide[0] = m->p_min[0];
  m->p_wide[1] = m->p_min[1];
  m->lk_cw[0] = m->lk_c[0];
  m->lk_cw[1] = m->lk_c[1];
  return st;
}

/* Returns 1 when the mapped dimensions are the fastest of the scan order. */
static int map_sched_mapped_fastest(const map_config *m) {
  if (m->axis != MAP_AXIS_2D) return m->order[0] == m->mapped[0];
  return (m->order[0] == m->mapped[0] && m->order[1] == m->mapped[1]) ||
         (m->order[0] == m->mapped[1] && m->order[1] == m->mapped[0]);
}

int map_sched_tile1(map_config *m) {
  int pn = 1, pn2 = 1;
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP) continue;
    int64_t a = x->d[m->mapped[0]] < 0 ? -x->d[m->mapped[0]] : x->d[m->mapped[0]];
    if (a > pn) pn = (int)a;
    if (m->axis != MAP_AXIS_2D) continue;
    a = x->d[m->mapped[1]] < 0 ? -x->d[m->mapped[1]] : x->d[m->mapped[1]];
    if (a > pn2) pn2 = (int)a;
  }
  if ((pn >= m->p_min[0] && (m->axis != MAP_AXIS_2D || pn2 >= m->p_min[1])) || !map_sched_mapped_fastest(m)) return 0;
  map_config w = *m; /* shallow: reads ops and edges, writes only scalars */
  w.p_min[0] = pn < m->p_min[0] ? pn : m->p_min[0];
  if (m->axis == MAP_AXIS_2D) w.p_min[1] = pn2 < m->p_min[1] ? pn2 : m->p_min[1];
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (map_sched_local(x) && m->ops[x->dst].tau - m->ops[x->src].tau <
                                  map_edge_latency(m, x) - (int64_t)m->ii * map_seq_dist_lb(&w, x))
      return 0;
  }
  char msg[512];
  if (map_sched_lambda_k_any(&w, msg, sizeof msg) != MAP_OK || w.lk_p[0] != m->lk_p[0] || w.lk_p[1] != m->lk_p[1]) return 0;
  m->wide = 1;
  m->p_wide[0] = m->p_min[0];
  m->p_wide[1] = m->axis == MAP_AXIS_2D ? m->p_min[1] : 0;
  m->lk_cw[0] = m->lk_c[0];
  m->lk_cw[1] = m->lk_c[1];
  m->p_min[0] = w.p_min[0];
  m->p_min[1] = w.p_min[1];
  m->lk_c[0] = w.lk_c[0];
  m->lk_c[1] = w.lk_c[1];
  for (int e = 0; e < m->nedges; e++) { /* the fds' smallest depths */
    const map_edge *x = &m->edges[e];
    if (x->kind == MAP_EDGE_DEP && x->group >= 0 && x->group < m->nregs && m->regs[x->group].reg.cls == MAP_REG_FD)
      m->regs[x->group].depth_lb = (int)map_seq_dist_lb(m, x);
  }
  return 1;
}

/* Fills m->excl: 1 for two ops of one FU class whose condition spaces
 * (ispace) isl proves disjoint. Returns 0, or -1 when memory runs out. */
static int map_sched_excl(map_config *m) {
  free(m->excl);
  m->excl = calloc((size_t)m->nops * (size_t)m->nops + 1, 1);
  if (!m->excl) return -1;
  if ((m->off & MAP_OFF_SHARE) || m->no_cse >= 4) return 0;
  if (!m->isl) return -1;
  for (int a = 0; a < m->nops; a++) /* each pair asked of isl once per compile (map_isl.c) */
    for (int b = a + 1; b < m->nops; b++)
      if (m->ops[a].cls == m->ops[b].cls)
        m->excl[a * m->nops + b] = m->excl[b * m->nops + a] =
            (unsigned char)map_dom_ispace_disjoint(m, &m->ops[a].dom, &m->ops[b].dom);
  return 0;
}

/* Returns 1 when the ops list[0..n) can be coloured with k colours, no
 * two of one colour overlapping (backtracking from list[i]; a colour not
 * used yet is tried once, colours being interchangeable). */
static int map_sched_colour_k(const map_config *m, const int *list, int n, int k, int *col, int i, long *budget) {
  if (i == n) return 1;
  if (--*budget < 0) return 0;
  int top = -1;
  for (int j = 0; j < i; j++)
    if (col[j] > top) top = col[j];
  for (int c = 0; c < k && c <= top + 1; c++) {
    int ok = 1;
    for (int j = 0; j < i && ok; j++) ok = col[j] != c || m->excl[list[i] * m->nops + list[j]];
    if (!ok) continue;
    col[i] = c;
    if (map_sched_colour_k(m, list, n, k, col, i + 1, budget)) return 1;
  }
  col[i] = -1;
  return 0;
}

/* Returns the slots one iteration needs for the ops of class c: the
 * fewest groups of ops with pairwise disjoint condition spaces (what the
 * busiest kernel class issues; the number of ops when the search budget
 * runs out). */
static int map_sched_class_slots(const map_config *m, int c) {
  int n = 0, *list = malloc((size_t)m->nops * sizeof *list + 1), *col = malloc((size_t)m->nops * sizeof *col + 1);
  if (!list || !col) {
    free(list);
    free(col);
    return m->nclass[c];
  }
  for (int i = 0; i < m->nops; i++)
    if (m->ops[i].cls == (isa_fu_class)c) list[n++] = i;
  int k = n;
  for (int t = 1; t < n && m->excl; t++) {
    long budget = 100000;
    if (map_sched_colour_k(m, list, n, t, col, 0, &budget)) { k = t; break; }
  }
  free(list);
  free(col);
  return k;
}

/* Returns MAP_OK when every op's FU class has units; else NOFIT. */
static int map_sched_resmii(map_config *m, char *msg, size_t msgsz) {
  int units[ISA_FU_ANY] = {m->arch.alu, m->arch.mul, m->arch.div};
  memset(m->nclass, 0, sizeof m->nclass);
  memset(m->nslots, 0, sizeof m->nslots);
  for (int i = 0; i < m->nops; i++) m->nclass[m->ops[i].cls]++;
  m->resmii_all = 1;
  for (int c = 0; c < ISA_FU_ANY; c++) {
    m->units[c] = units[c];
    m->resmii[c] = 0;
    if (!m->nclass[c]) continue;
    if (!units[c]) {
      const char *key = c == ISA_FU_MUL ? "pe.mul" : c == ISA_FU_DIV ? "pe.div" : "pe.alu";
      int v = -1;
      for (int i = 0; i < m->nops && v < 0; i++)
        if (m->ops[i].cls == (isa_fu_class)c) v = m->ops[i].rdg_node;
      return fit_nofit(&m->fit, msg, msgsz, FIT_RES_FU, key, m->nclass[c], 0, isa_fu_name(c),
                       "functional units: %d operation%s need%s a %s unit ('%s'), %s = 0", m->nclass[c],
                       m->nclass[c] == 1 ? "" : "s", m->nclass[c] == 1 ? "s" : "", isa_fu_name(c),
                       v >= 0 ? ast_op_name(m->g->nodes[v].op) : "?", key);
    }
    m->nslots[c] = map_sched_class_slots(m, c);
    m->resmii[c] = (m->nslots[c] + units[c] - 1) / units[c];
    if (m->resmii[c] > m->resmii_all) m->resmii_all = m->resmii[c];
  }
  return MAP_OK;
}

/* Returns 1 when cross-PE edges x and y carry one value to one operand
 * over the same displacement: map_regs.c gives them one channel. */
static int map_sched_same_channel(const map_config *m, const map_edge *x, const map_edge *y) {
  return x->kind == MAP_EDGE_DEP && y->kind == MAP_EDGE_DEP && map_edge_cross(x) && map_edge_cross(y) &&
         x->src >= 0 && y->src >= 0 && x->src != y->src && m->ops[x->src].var == m->ops[y->src].var &&
         x->theta[0] == y->theta[0] && x->theta[1] == y->theta[1] && !memcmp(x->d, y->d, sizeof x->d) && x->dst == y->dst &&
         x->pos == y->pos;
}

int map_edges_same_fd(const map_config *m, const map_edge *x, const map_edge *y) {
  int nonzero = 0;
  for (int k = 0; k < AST_MAX_DIMS; k++) nonzero |= x->d[k] != 0;
  return nonzero && x->kind == MAP_EDGE_DEP && y->kind == MAP_EDGE_DEP && !map_edge_cross(x) &&
         !map_edge_cross(y) && x->src >= 0 && y->src >= 0 && x->src != y->src &&
         m->ops[x->src].var == m->ops[y->src].var && !memcmp(x->d, y->d, sizeof x->d);
}

int map_op_shares_fd(const map_config *m, int v) {
  for (int e = 0; e < m->nedges; e++)
    for (int f = 0; f < m->nedges; f++)
      if (m->edges[e].src == v && map_edges_same_fd(m, &m->edges[e], &m->edges[f])) return 1;
  return 0;
}

/* Returns 1 when two producers of one fd value still write II or more
 * cycles apart after alignment: consecutive iterations alternating between
 * them would write the fd in one cycle (wconflict) or out of order. */
static int map_sched_fd_apart(const map_config *m) {
  for (int e = 0; e < m->nedges; e++)
    for (int f = 0; f < m->nedges; f++) {
      const map_edge *x = &m->edges[e], *y = &m->edges[f];
      if (!map_edges_same_fd(m, x, y)) continue;
      int64_t wa = (int64_t)m->ops[x->src].tau + m->ops[x->src].lat;
      int64_t wb = (int64_t)m->ops[y->src].tau + m->ops[y->src].lat;
      if (wb - wa >= m->ii) return 1;
    }
  return 0;
}

/* Returns 1 when op v may issue at offset t: every intra-PE edge into and
 * out of v holds and a unit of v's class has slot t mod II free (the unit
 * is stored in *unit). */
static int map_sched_fits_at(const map_config *m, int v, int64_t t, int *unit) {
  int ii = m->ii;
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (!map_sched_local(x) || x->src == x->dst || (x->src != v && x->dst != v)) continue;
    int64_t need = map_edge_latency(m, x) - (int64_t)ii * map_seq_dist_lb(m, x);
    int64_t ts = x->src == v ? t : m->ops[x->src].tau, td = x->dst == v ? t : m->ops[x->dst].tau;
    if (td < ts + need) return 0;
  }
  int nunits = isa_fu_count(&m->arch);
  for (int u = 0; u < nunits; u++) {
    if (isa_fu_class_of(&m->arch, u) != m->ops[v].cls) continue;
    if (map_sched_slot_free(m, v, u, t, NULL)) {
      *unit = u;
      return 1;
    }
  }
  return 0;
}

/* Returns 1 when op v issuing at offset t reads each channel stream it
 * reads (value, d, theta) less than II cycles from every other consumer
 * operand of that stream, so that one id may serve them (map_regs.c). */
static int map_sched_reads_gathered(const map_config *m, int v, int64_t t) {
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP || !map_edge_cross(x) || x->dst != v || x->src < 0) continue;
    for (int f = 0; f < m->nedges; f++) {
      const map_edge *y = &m->edges[f];
      if (y->kind != MAP_EDGE_DEP || !map_edge_cross(y) || y->dst == v || y->src < 0 ||
          m->ops[y->src].var != m->ops[x->src].var || y->theta[0] != x->theta[0] || y->theta[1] != x->theta[1] ||
          memcmp(y->d, x->d, sizeof x->d))
        continue;
      int64_t gap = t - m->ops[y->dst].tau;
      if (gap >= m->ii || -gap >= m->ii) return 0;
    }
  }
  return 1;
}

/* Write-offset alignment (docs/symbolic.md): the producers of one channel
 * or of one fd value (ops of a piecewise variable) whose results are
 * written (tau + lat) II or more
 * cycles before another producer's are moved later, to the latest write
 * offset if possible, else as close to it as the intra-PE edges and the
 * reservation table allow; where one cannot come within II cycles, the
 * instantiator checks the concrete order of the tokens (inst_fifo.c: exit
 * 3 "channel order" when two would cross); producers of one fd that stay
 * II or more apart make map_sched try the next II. With gather_reads,
 * the latest offset at which the moved op reads every channel stream
 * less than II from the stream's other readers is taken first (jacobi's
 * boundary copy and the sum read u[t-1,i] from the north in one id).
 * Runs before lambda^K, which is computed from the new offsets. */
static void map_sched_align(map_config *m) {
  for (int pass = 0, moved = 1; moved && pass < 8; pass++) {
    moved = 0;
    for (int e = 0; e < m->nedges; e++)
      for (int f = 0; f < m->nedges; f++) {
        const map_edge *x = &m->edges[e], *y = &m->edges[f];
        if (!map_sched_same_channel(m, x, y) && !map_edges_same_fd(m, x, y)) continue;
        map_op *a = &m->ops[x->src];
        const map_op *b = &m->ops[y->src];
        int64_t wa = (int64_t)a->tau + a->lat, wb = (int64_t)b->tau + b->lat;
        if (wb - wa < m->ii) continue;
        int64_t pick = -1;
        int pu = -1;
        for (int64_t t = wb - a->lat; t > wb - m->ii - a->lat; t--) {
          int u;
          if (t < a->tau || !map_sched_fits_at(m, x->src, t, &u)) continue;
          if (pick < 0) pick = t, pu = u;
          if (!m->gather_reads) break;
          if (map_sched_reads_gathered(m, x->src, t)) {
            pick = t, pu = u;
            break;
          }
        }
        if (pick >= 0) {
          a->tau = (int)pick;
          a->fu = pu;
          moved = 1;
        }
      }
  }
}

/* Returns 1 when the ops or their operands have more than one condition
 * space: the kernels then differ, and a kernel of II 1 has one slot, one
 * branch of pe.branch_targets targets, to choose the next (a .sym must
 * instantiate for every region: at II 1 piecewise programs often need
 * more; the run pipeline may still raise II further, engine_config.c). */
static int map_sched_conditional(const map_config *m) {
  const map_dom *first = m->nops ? &m->ops[0].dom : NULL;
  for (int o = 0; o < m->nops; o++)
    if (!map_dom_ispace_equal(m, &m->ops[o].dom, first)) return 1;
  for (int e = 0; e < m->nedges; e++)
    if (m->edges[e].kind != MAP_EDGE_OUT && (!first || !map_dom_ispace_equal(m, &m->edges[e].use, first))) return 1;
  return 0;
}

int map_sched(map_config *m, char *msg, size_t msgsz) {
  int st;
  map_sched_choose_order(m);
  if (map_sched_excl(m)) {
    snprintf(msg, msgsz, "out of memory");
    return MAP_ERR_INTERNAL;
  }
  if ((st = map_sched_resmii(m, msg, msgsz)) != MAP_OK) return st;
  m->recmii = map_sched_recmii(m);
  if (map_sched_positive_cycle(m, m->recmii)) { /* a cycle within one iteration: no II holds it (the */
    return fit_nofit(&m->fit, msg, msgsz, FIT_RES_SCHEDULE, "", -1, -1, "", /* next level tries) */
                     "schedule: a cycle of dependences and ties at distance 0");
  }
  int mii = m->resmii_all > m->recmii ? m->resmii_all : m->recmii;
  int start = m->ii_min > mii ? m->ii_min : mii;
  int piecewise = map_sched_conditional(m);
  int floor2 = start < 2 && piecewise;
  if (floor2) start = 2;
  m->ii_lb = mii < 2 && piecewise ? 2 : mii;
  int limit = start + m->nops * 4 + 16;
  m->ii_reason[0] = 0;
  int fd_apart = 0;
  for (int ii = start; ii <= limit; ii++) { /* II above pe.imem too: waits compress the gaps (inst_proggen.c) */
    if (map_sched_ims(m, ii) || map_sched_exhaustive(m, ii)) {
      m->ii = ii;
      map_sched_align(m);
      if (map_sched_fd_apart(m)) { /* the pieces of an fd value cannot be aligned at this II */
        fd_apart = 1;
        continue;
      }
      if (ii > start)
        snprintf(m->ii_reason, sizeof m->ii_reason,
                 fd_apart ? "the producers of an fd value write II or more cycles apart at II %d..%d"
                          : "no modulo schedule found at II %d..%d within the search budget",
                 start, ii - 1);
      else if (ii > mii && floor2)
        snprintf(m->ii_reason, sizeof m->ii_reason,
                 "piecewise program: at II 1 a kernel has one slot, one branch of pe.branch_targets "
                 "targets, to select the next");
      else if (ii > mii && m->ii_bump)
        snprintf(m->ii_reason, sizeof m->ii_reason,
                 "II %d asked for (more slack to relieve the rd pressure; at II %d registers rd ran out)", ii,
                 ii - m->ii_bump);
      else if (ii > mii)
        snprintf(m->ii_reason, sizeof m->ii_reason,
                 "II %d asked for (more slots per kernel for its branches; II %d did not instantiate)", ii, ii - 1);
      return map_sched_lambda_k_any(m, msg, msgsz);
    }
  }
  return fit_nofit(&m->fit, msg, msgsz, FIT_RES_SCHEDULE, "", -1, -1, "",
                   "schedule: no modulo schedule found for II %d..%d", start, limit);
}
