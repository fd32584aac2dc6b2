/*
 * inst_fifo.c: the input-FIFO depth check of an instantiation
 * (docs/instantiate.md, "Input FIFO depth"). A propagation channel (a
 * map_route: od of the producer PE -> hops -> id of the consumer PE) holds
 * the tokens written but not yet read; when more than pe.fifo_depth are in
 * flight the FIFO overflows at run time (docs/timing.md 5). The check is
 * exact for the concrete schedule: an op of iteration J issued at local
 * cycle pi s(J) + tau (plus the PE's start delay d(k); the common prolog
 * cancels) with latency L writes its od at the end of t + L - 1, the token
 * is on the consumer's input sink h hops later and pushed at the end of
 * cycle t + L + h; a read of the id in cycle u pops at the end of u (one
 * pop per cycle whatever the number of readers). The occupancy after cycle
 * y is the pushes up to y minus the pops up to y (pop before push in one
 * cycle), and the FIFO overflows exactly when it exceeds the depth.
 *
 * The cycles come from the concrete PST leaves: the od leaves (slot 4) of
 * the producer PE and the source leaves (slots 1..3) reading the id on the
 * consumer PE, enumerated point by point. The lists depend only on the PE's
 * processor class, so they are computed once per class and register.
 * The points are enumerated natively where the set allows it (no
 * parameters, no existential variables, bounded: each basic set's
 * constraints as integers, its bounding box scanned, a point counted in the
 * first basic set holding it; inst_fifo_scan), else by isl_set_foreach_point
 * (several microseconds a point: most of the check before); the lists are
 * sorted afterwards, so the order of enumeration does not matter.
 * inst_opts.no_fifo_check (--no-fifo-check) skips the check (tests use it
 * to show that one word less than the computed occupancy overflows).
 */
#include <stdlib.h>
#include <string.h>

#include <isl/constraint.h>
#include <isl/ilp.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include "inst.h"

/* One write or read: the iteration's sequence number s(J) and the cycle. */
typedef struct {
  int64_t s, c;
} inst_fifo_ev;

/* A growable list of events; v: their cycles, sorted (after inst_fifo_cycles). */
typedef struct {
  inst_fifo_ev *e;
  int64_t *v;
  int n, cap;
  int bad;      /* writes: e[bad] comes no later than e[bad - 1] (-1: in order) */
} inst_fifo_list;

/* foreach_point state: where the cycles go and the constant added. */
typedef struct {
  const inst *x;
  inst_fifo_list *out;
  int64_t add;
  int oom;
} inst_fifo_acc;

/* Returns 0 after appending (s, c) to l, -1 when out of memory. */
static int inst_fifo_push(inst_fifo_list *l, int64_t s, int64_t c) {
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 64;
    inst_fifo_ev *e = realloc(l->e, (size_t)cap * sizeof *e);
    if (!e) return -1;
    l->e = e;
    l->cap = cap;
  }
  l->e[l->n].s = s;
  l->e[l->n++].c = c;
  return 0;
}

/* Returns isl_stat_ok after appending pi * s(J) + add for point J. */
static isl_stat inst_fifo_point(__isl_take isl_point *pt, void *user) {
  inst_fifo_acc *a = user;
  int64_t s = inst_point_seq(a->x, pt);
  isl_point_free(pt);
  if (inst_fifo_push(a->out, s, (int64_t)a->x->m->ii * s + a->add)) {
    a->oom = 1;
    return isl_stat_error;
  }
  return isl_stat_ok;
}

/* The most box points inst_fifo_scan visits natively (beyond: isl). */
#define INST_FIFO_SCAN_MAX 20000000LL

/* A basic set as integer constraints over J: row r holds n coefficients
 * and the constant, the row >= 0 (== 0 where eq[r]); lo..hi its box. */
typedef struct {
  int nrow, cap;
  int64_t *a;
  char *eq;
  int64_t lo[AST_MAX_DIMS], hi[AST_MAX_DIMS];
} inst_fifo_poly;

/* The basic sets of a set being converted (inst_fifo_polys). */
typedef struct {
  int n, npoly, cap, fail;
  inst_fifo_poly *p;
} inst_fifo_polys;

/* Returns 0 and *v when isl value val (taken) is an integer fitting in
 * 2^40 in magnitude, -1 otherwise. */
static int inst_fifo_int(__isl_take isl_val *val, int64_t *v) {
  int ok = val && isl_val_is_int(val) == isl_bool_true;
  if (ok) {
    *v = isl_val_get_num_si(val);
    ok = *v > -(1LL << 40) && *v < (1LL << 40);
  }
  isl_val_free(val);
  return ok ? 0 : -1;
}

/* isl callback: appends constraint c (taken) to the last poly. */
static isl_stat inst_fifo_poly_row(__isl_take isl_constraint *c, void *user) {
  inst_fifo_polys *ps = user;
  inst_fifo_poly *p = &ps->p[ps->npoly - 1];
  int n = ps->n;
  if (p->nrow == p->cap) {
    int cap = p->cap ? 2 * p->cap : 16;
    int64_t *a = realloc(p->a, (size_t)cap * (size_t)(n + 1) * sizeof *a);
    char *eq = a ? realloc(p->eq, (size_t)cap) : NULL;
    if (a) p->a = a;
    if (!eq) {
      isl_constraint_free(c);
      return isl_stat_error;
    }
    p->eq = eq;
    p->cap = cap;
  }
  int64_t *row = &p->a[(size_t)p->nrow * (size_t)(n + 1)];
  int bad = inst_fifo_int(isl_constraint_get_constant_val(c), &row[n]);
  for (int d = 0; d < n && !bad; d++) bad = inst_fifo_int(isl_constraint_get_coefficient_val(c, isl_dim_set, d), &row[d]);
  p->eq[p->nrow++] = isl_constraint_is_equality(c) == isl_bool_true;
  isl_constraint_free(c);
  return bad ? isl_stat_error : isl_stat_ok;
}

/* isl callback: converts basic set b (taken) into a new poly with its box. */
static isl_stat inst_fifo_poly_add(__isl_take isl_basic_set *b, void *user) {
  inst_fifo_polys *ps = user;
  int ok = isl_basic_set_dim(b, isl_dim_div) == 0 && isl_basic_set_dim(b, isl_dim_param) == 0 &&
           (int)isl_basic_set_dim(b, isl_dim_set) == ps->n;
  if (ok && ps->npoly == ps->cap) {
    int cap = ps->cap ? 2 * ps->cap : 8;
    inst_fifo_poly *p = realloc(ps->p, (size_t)cap * sizeof *p);
    if (p) ps->p = p, ps->cap = cap;
    else ok = 0;
  }
  if (ok) {
    memset(&ps->p[ps->npoly++], 0, sizeof *ps->p);
    ok = isl_basic_set_foreach_constraint(b, inst_fifo_poly_row, ps) == isl_stat_ok;
  }
  inst_fifo_poly *p = ok ? &ps->p[ps->npoly - 1] : NULL;
  isl_set *s = isl_set_from_basic_set(b);
  for (int d = 0; ok && d < ps->n; d++)
    ok = !inst_fifo_int(isl_set_dim_min_val(isl_set_copy(s), d), &p->lo[d]) &&
         !inst_fifo_int(isl_set_dim_max_val(isl_set_copy(s), d), &p->hi[d]);
  isl_set_free(s);
  if (!ok) ps->fail = 1;
  return ok ? isl_stat_ok : isl_stat_error;
}

/* Frees the polys. */
static void inst_fifo_polys_free(inst_fifo_polys *ps) {
  for (int i = 0; i < ps->npoly; i++) free(ps->p[i].a), free(ps->p[i].eq);
  free(ps->p);
}

/* Returns 1 when J satisfies every constraint of p (n dimensions). */
static int inst_fifo_poly_holds(const inst_fifo_poly *p, int n, const int64_t *J) {
  for (int r = 0; r < p->nrow; r++) {
    const int64_t *row = &p->a[(size_t)r * (size_t)(n + 1)];
    int64_t v = row[n];
    for (int d = 0; d < n; d++) v += row[d] * J[d];
    if (p->eq[r] ? v != 0 : v < 0) return 0;
  }
  return 1;
}

/* Returns 1 after appending an event for every point of u (as
 * inst_fifo_point does) by scanning the boxes of its basic sets; 0 when u
 * does not allow it (nothing appended: the caller asks isl), -1 when out
 * of memory. */
static int inst_fifo_scan(inst_fifo_acc *a, __isl_keep isl_set *u) {
  const inst *x = a->x;
  int n = x->n;
  inst_fifo_polys ps = {n, 0, 0, 0, NULL};
  if (isl_set_dim(u, isl_dim_param) != 0 || (int)isl_set_dim(u, isl_dim_set) != n ||
      isl_set_foreach_basic_set(u, inst_fifo_poly_add, &ps) != isl_stat_ok || ps.fail) {
    inst_fifo_polys_free(&ps);
    return 0;
  }
  int64_t total = 0;
  for (int i = 0; i < ps.npoly; i++) {
    int64_t box = 1;
    for (int d = 0; d < n && box; d++) {
      int64_t w = ps.p[i].hi[d] - ps.p[i].lo[d] + 1;
      box = w <= 0 ? 0 : box > INST_FIFO_SCAN_MAX / w ? INST_FIFO_SCAN_MAX + 1 : box * w;
    }
    total += box;
    if (total > INST_FIFO_SCAN_MAX) {
      inst_fifo_polys_free(&ps);
      return 0;
    }
  }
  int rc = 1;
  for (int i = 0; i < ps.npoly && rc == 1; i++) {
    const inst_fifo_poly *p = &ps.p[i];
    int64_t J[AST_MAX_DIMS];
    int empty = 0;
    for (int d = 0; d < n; d++) {
      J[d] = p->lo[d];
      empty |= p->lo[d] > p->hi[d];
    }
    while (!empty) {
      int in = inst_fifo_poly_holds(p, n, J);
      for (int j = 0; j < i && in; j++) in = !inst_fifo_poly_holds(&ps.p[j], n, J);
      if (in) {
        int64_t s = 0;
        for (int d = 0; d < n; d++) s += x->seq[d] * J[d];
        if (inst_fifo_push(a->out, s, (int64_t)x->m->ii * s + a->add)) {
          rc = -1;
          break;
        }
      }
      int d = n - 1; /* the next point of the box */
      while (d >= 0 && J[d] == p->hi[d]) J[d] = p->lo[d], d--;
      if (d < 0) break;
      J[d]++;
    }
  }
  inst_fifo_polys_free(&ps);
  return rc;
}

/* qsort comparison of two events by cycle, then iteration. */
static int inst_fifo_cmp_c(const void *a, const void *b) {
  const inst_fifo_ev *x = a, *y = b;
  return x->c != y->c ? (x->c > y->c) - (x->c < y->c) : (x->s > y->s) - (x->s < y->s);
}

/* qsort comparison of two events by iteration, then cycle. */
static int inst_fifo_cmp_s(const void *a, const void *b) {
  const inst_fifo_ev *x = a, *y = b;
  return x->s != y->s ? (x->s > y->s) - (x->s < y->s) : (x->c > y->c) - (x->c < y->c);
}

/* Returns 0 after filling l->v with the cycles of l's events: for writes
 * (tokens) in iteration order, which must be strictly increasing in time
 * (else l->bad is the first event out of order: two tokens in one cycle,
 * or a token overtaking an earlier iteration's, and the FIFO would hand
 * the consumer the wrong values); for reads sorted, one per cycle (several
 * reads of one id in a cycle pop once). -1 when out of memory. */
static int inst_fifo_sort(inst_fifo_list *l, int write) {
  l->bad = -1;
  l->v = malloc((size_t)(l->n + 1) * sizeof *l->v);
  if (!l->v) return -1;
  if (l->n) qsort(l->e, (size_t)l->n, sizeof *l->e, write ? inst_fifo_cmp_s : inst_fifo_cmp_c);
  int w = 0;
  for (int i = 0; i < l->n; i++) {
    if (write && i && l->e[i].c <= l->e[i - 1].c && l->bad < 0) l->bad = i;
    if (write || !w || l->v[w - 1] != l->e[i].c) l->v[w++] = l->e[i].c;
  }
  l->n = w;
  return 0;
}

/* Returns 0 after filling l with the local cycles at which PE k writes od
 * `reg` (slot 4; cycle t + L, the token on the od source) or reads id `reg`
 * (slots 1..3; the issue cycle t), see inst_fifo_sort; -1 on error. */
static int inst_fifo_cycles(const inst *x, int k, map_reg reg, int write, inst_fifo_list *l) {
  const map_config *m = x->m;
  for (int o = 0; o < m->nops; o++) {
    isl_set *u = NULL;
    for (int i = 0; i < m->nleaves; i++) {
      const map_pst_leaf *lf = &m->leaves[i];
      int slot_ok = write ? lf->slot == 4 : lf->slot >= 1 && lf->slot <= 3;
      if (lf->op != o || !slot_ok || lf->reg.cls != reg.cls || lf->reg.idx != reg.idx) continue;
      isl_set *f = inst_split(x, x->leaf[i], k);
      u = u ? isl_set_union(u, f) : f;
      if (!u) return -1;
    }
    if (!u) continue;
    u = isl_set_coalesce(u);
    inst_fifo_acc a = {x, l, m->ops[o].tau + (write ? m->ops[o].lat : 0), 0};
    int scanned = u ? inst_fifo_scan(&a, u) : 0;
    if (scanned < 0) a.oom = 1;
    isl_stat st = scanned ? isl_stat_ok : u ? isl_set_foreach_point(u, inst_fifo_point, &a) : isl_stat_error;
    isl_set_free(u);
    if (st < 0 || a.oom) return -1;
  }
  return inst_fifo_sort(l, write);
}

int64_t inst_fifo_occupancy(const int64_t *push, int np, int64_t push_shift, const int64_t *pop, int nq,
                            int64_t pop_shift) {
  int64_t occ = 0, best = 0;
  int i = 0, j = 0;
  while (i < np || j < nq) {
    int64_t yp = i < np ? push[i] + push_shift : INT64_MAX;
    int64_t yq = j < nq ? pop[j] + pop_shift : INT64_MAX;
    int64_t y = yp < yq ? yp : yq;
    if (yq == y) { /* the pop of cycle y comes first (an empty FIFO pops nothing) */
      if (occ > 0) occ--;
      j++;
    }
    if (yp == y) {
      occ++;
      i++;
    }
    if (occ > best) best = occ;
  }
  return best;
}

/* Per-class cycle lists of one channel: writes of its od, reads of its id. */
typedef struct {
  inst_fifo_list *w, *r; /* [npc] */
  char *have_w, *have_r; /* [npc] computed */
} inst_fifo_cache;

/* Returns the list of PE k's class (computing it on first use), NULL on error. */
static inst_fifo_list *inst_fifo_get(const inst *x, inst_fifo_list *lists, char *have, int k, map_reg reg,
                                     int write) {
  int c = x->pe_class[k];
  if (!have[c]) {
    if (inst_fifo_cycles(x, x->pc[c].rep, reg, write, &lists[c])) return NULL;
    have[c] = 1;
  }
  return &lists[c];
}

/* Returns the consumer PE of route rt from producer PE k, -1 outside the region. */
static int inst_fifo_consumer(const inst *x, const map_route *rt, int k) {
  int r, c;
  inst_pe_rc(x, k, &r, &c);
  if (x->m->axis == MAP_AXIS_2D) {
    r += rt->delta[0];
    c += rt->delta[1];
    return r >= 0 && r < x->tr && c >= 0 && c < x->tc ? r * x->tc + c : -1;
  }
  k += rt->delta[0];
  return k >= 0 && k < x->t ? k : -1;
}

/* Frees the lists of a cache. */
static void inst_fifo_cache_free(const inst *x, inst_fifo_cache *ch) {
  for (int c = 0; c < x->npc; c++) {
    if (ch->w) {
      free(ch->w[c].v);
      free(ch->w[c].e);
    }
    if (ch->r) {
      free(ch->r[c].v);
      free(ch->r[c].e);
    }
  }
  free(ch->w);
  free(ch->r);
  free(ch->have_w);
  free(ch->have_r);
}

/* Returns INST_OK when route i carries its tokens in iteration order and
 * never holds more than pe.fifo_depth of them on any PE, INST_ERR_NOFIT
 * with the message otherwise. */
static int inst_fifo_route(inst *x, int i, char *msg, size_t msgsz) {
  const map_route *rt = &x->m->routes[i];
  size_t npc = (size_t)x->npc;
  inst_fifo_cache ch = {calloc(npc, sizeof(inst_fifo_list)), calloc(npc, sizeof(inst_fifo_list)),
                        calloc(npc, 1), calloc(npc, 1)};
  int st = ch.w && ch.r && ch.have_w && ch.have_r ? INST_OK : INST_ERR_INTERNAL;
  for (int k = 0; k < x->t && st == INST_OK; k++) {
    int kc = inst_fifo_consumer(x, rt, k);
    if (kc < 0) continue;
    inst_fifo_list *w = inst_fifo_get(x, ch.w, ch.have_w, k, rt->od, 1);
    inst_fifo_list *r = w ? inst_fifo_get(x, ch.r, ch.have_r, kc, rt->id, 0) : NULL;
    if (!r) {
      st = INST_ERR_INTERNAL;
      snprintf(msg, msgsz, "internal: FIFO occupancy of channel %d could not be computed (isl)", i);
      break;
    }
    char od[16], id[16];
    map_reg_str(rt->od, 0, od, sizeof od);
    map_reg_str(rt->id, 0, id, sizeof id);
    if (w->bad >= 0) {
      int pr, pcl;
      const inst_fifo_ev *a = &w->e[w->bad - 1], *b = &w->e[w->bad];
      inst_pe_rc(x, k, &pr, &pcl);
      char where[96];
      snprintf(where, sizeof where, "%s -> %s from PE (%d,%d)", od, id, pr, pcl);
      st = fit_nofit(&x->fit, msg, msgsz, FIT_RES_CHANNEL_ORDER, "", -1, -1, where,
                     "channel order: channel %s: the value of iteration s(J) = %lld is on the od "
                     "in local cycle %lld, not after that of iteration s(J) = %lld (cycle %lld); the ops defining "
                     "it write (tau + lat) II = %d or more cycles apart",
                     where, (long long)b->s, (long long)b->c, (long long)a->s, (long long)a->c, x->m->ii);
      break;
    }
    int64_t n = inst_fifo_occupancy(w->v, w->n, inst_pe_delay(x, k) + rt->hops, r->v, r->n, inst_pe_delay(x, kc));
    if (n > x->arch.fifo_depth) {
      int pr, pcl, cr, ccl;
      inst_pe_rc(x, k, &pr, &pcl);
      inst_pe_rc(x, kc, &cr, &ccl);
      char where[96];
      snprintf(where, sizeof where, "%s -> %s from PE (%d,%d) into PE (%d,%d)", od, id, pr, pcl, cr, ccl);
      st = fit_nofit(&x->fit, msg, msgsz, FIT_RES_FIFO_DEPTH, "pe.fifo_depth", n, x->arch.fifo_depth, where,
                     "pe.fifo_depth: channel %s holds up to %lld values, pe.fifo_depth = %d", where, (long long)n,
                     x->arch.fifo_depth);
    }
  }
  inst_fifo_cache_free(x, &ch);
  return st;
}

int inst_fifo_check(inst *x, char *msg, size_t msgsz) {
  if (x->opt.no_fifo_check) return INST_OK; /* to show the overflow it prevents */
  for (int i = 0; i < x->m->nroutes; i++) {
    int dup = 0; /* routes sharing od, displacement and id are one channel */
    for (int j = 0; j < i && !dup; j++) {
      const map_route *a = &x->m->routes[i], *b = &x->m->routes[j];
      dup = a->od.cls == b->od.cls && a->od.idx == b->od.idx && a->id.cls == b->id.cls && a->id.idx == b->id.idx &&
            a->delta[0] == b->delta[0] && a->delta[1] == b->delta[1];
    }
    if (dup) continue;
    int st = inst_fifo_route(x, i, msg, msgsz);
    if (st) return st;
  }
  return INST_OK;
}
