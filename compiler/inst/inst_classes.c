/*
 * inst_classes.c: processor classes (section 6.1, Definition 6.3, Equation
 * 2, Algorithm 1). For each PST leaf g, its intra-tile patterns partition
 * the PEs K by their fibre split(K, domain(g)): two PEs are in the same
 * inter-tile domain when no J lies in one fibre and not the other. That
 * relation is computed in isl without enumerating PEs:
 *   bad = { K1 -> K2 : exists J: (J,K1) in g and (J,K2) not in g },
 *   same = (K x K) \ (bad u bad^-1),
 * and the inter-tile domains are its classes (lexmin representative, its
 * image under `same`, removed, repeated: one round per pattern). The set
 * of all of them over all leaves is the condition set C of Algorithm 1,
 * which partitions K into the processor classes. Access spaces are
 * conditions too (an AG's enable is part of what a PE is configured with).
 * On a 2-D region K has two free coordinates and everything above holds
 * unchanged (Algorithm 1 over the K vector); the classes are numbered by
 * their smallest PE number k = r tc + c, which represents them.
 *
 * Channel writes on the region's far edge (1-D and 2-D). The mapper writes
 * a channel's od only where a consumer iteration exists, so the PEs whose
 * neighbour along the channel lies outside the region (the last PE of a
 * 1xC region for an eastward channel, the last row of a 2-D one for a
 * southward channel) leave the od write out and would form classes of
 * their own (bitextract and matmul on 1x16: 2 instead of the paper's 1;
 * matmul on 2-D regions: 4 instead of 2). Before the partition, such a
 * leaf is widened on those PEs to the pattern of the PE before them along
 * the channel, within the iterations the op runs there (its operand
 * leaves), and the od is recorded in x->od_cut for those PEs: their
 * wrappers leave out every connection the od drives
 * (inst_classes_cut_sinks, called by inst_emit.c), so the write happens
 * and its token vanishes at the od, which drives no sink (docs/timing.md
 * 10, rule 6): nothing leaves the region, whatever lies beyond it (a PE
 * of another region, the array border's banks). Only one-hop channels
 * whose od serves no output bank and no other op are widened, and only
 * where no other op writes the od in those iterations
 * (docs/instantiate.md, step 2).
 */
#include <stdlib.h>
#include <string.h>

#include <isl/map.h>
#include <isl/space.h>
#include <isl/point.h>
#include <isl/val.h>

#include "inst.h"

/* Returns the map { K -> J } of a set over [J, K]. */
static __isl_give isl_map *inst_k_to_j(const inst *x, __isl_keep isl_set *s) {
  isl_map *mp = isl_map_from_range(isl_set_copy(s));
  return isl_map_move_dims(mp, isl_dim_in, 0, isl_dim_out, (unsigned)x->n, (unsigned)x->n);
}

/* Returns the tile box { K -> J : K in kdom, 0 <= J < E }. */
static __isl_give isl_map *inst_kj_box(const inst *x) {
  isl_set *jb = inst_ext_domain(x, x->P);
  return isl_map_from_domain_and_range(isl_set_copy(x->kdom), jb);
}

/* Appends the inter-tile domains of leaf set s to list (*n, growing);
 * returns 0, -1 on error. Equal domains are kept once. */
static int inst_patterns(const inst *x, __isl_keep isl_set *s, isl_set ***list, int *n, int *cap) {
  isl_map *mp = inst_k_to_j(x, s);
  isl_map *mc = isl_map_subtract(inst_kj_box(x), isl_map_copy(mp));
  isl_map *bad = isl_map_apply_range(mp, isl_map_reverse(mc));
  isl_map *rev = isl_map_reverse(isl_map_copy(bad));
  bad = isl_map_union(bad, rev);
  isl_map *all = isl_map_from_domain_and_range(isl_set_copy(x->kdom), isl_set_copy(x->kdom));
  isl_map *same = isl_map_coalesce(isl_map_subtract(all, bad));
  isl_set *rem = isl_set_copy(x->kdom);
  int rc = 0;
  while (rem && isl_set_is_empty(rem) == isl_bool_false) {
    isl_set *rep = isl_set_lexmin(isl_set_copy(rem));
    isl_set *cls = isl_set_coalesce(isl_set_apply(rep, isl_map_copy(same)));
    rem = isl_set_subtract(rem, isl_set_copy(cls));
    int dup = 0;
    for (int i = 0; i < *n && !dup; i++) dup = isl_set_is_equal((*list)[i], cls) == isl_bool_true;
    if (dup || !cls) {
      isl_set_free(cls);
      if (!cls) rc = -1;
      if (!cls) break;
      continue;
    }
    if (*n == *cap) {
      *cap *= 2;
      isl_set **nl = realloc(*list, (size_t)*cap * sizeof **list);
      if (!nl) {
        isl_set_free(cls);
        rc = -1;
        break;
      }
      *list = nl;
    }
    (*list)[(*n)++] = cls;
  }
  if (!rem) rc = -1;
  isl_set_free(rem);
  isl_map_free(same);
  return rc;
}

/* Returns the map { [J, K] -> [J, K + delta] } (with_j) or { K -> K +
 * delta } of route rt's displacement on the tiled dimensions. */
static __isl_give isl_map *inst_classes_shift(const inst *x, const map_route *rt, int with_j) {
  char buf[1024];
  size_t len = 0;
  int bad = inst_cat(buf, sizeof buf, &len, "{ [");
  for (int side = 0; side < 2; side++) { /* the domain tuple, then the range */
    for (int d = 0; with_j && d < x->n; d++) bad |= inst_cat(buf, sizeof buf, &len, "j%d, ", d);
    for (int d = 0; d < x->n; d++) {
      int off = d == x->m->mapped[0] ? rt->delta[0] : d == x->m->mapped[1] ? rt->delta[1] : 0;
      if (side) bad |= inst_cat(buf, sizeof buf, &len, "%sk%d + %d", d ? ", " : "", d, off);
      else bad |= inst_cat(buf, sizeof buf, &len, "%sk%d", d ? ", " : "", d);
    }
    bad |= inst_cat(buf, sizeof buf, &len, side ? "] }" : "] -> [");
  }
  return bad ? NULL : isl_map_read_from_str(x->ctx, buf);
}

/* Returns the one-hop route of channel od reg whose od nothing else uses
 * (no output access, every route on it one hop with one displacement),
 * NULL when there is none. */
static const map_route *inst_classes_route(const inst *x, map_reg reg) {
  const map_config *m = x->m;
  const map_route *rt = NULL;
  for (int i = 0; i < m->nroutes; i++) {
    const map_route *r = &m->routes[i];
    if (r->od.cls != reg.cls || r->od.idx != reg.idx) continue;
    if (r->hops != 1 || (rt && (rt->delta[0] != r->delta[0] || rt->delta[1] != r->delta[1]))) return NULL;
    rt = r;
  }
  for (int a = 0; rt && a < m->naccess; a++)
    if (m->access[a].is_out && m->access[a].reg.cls == reg.cls && m->access[a].reg.idx == reg.idx) return NULL;
  return rt;
}

/* Returns the union over [J, K] of the leaves of op o in slot `slot`
 * (NULL: none, or an isl error). */
static __isl_give isl_set *inst_classes_op_slot(const inst *x, int o, int slot) {
  isl_set *u = NULL;
  for (int i = 0; i < x->m->nleaves; i++) {
    if (x->m->leaves[i].op != o || x->m->leaves[i].slot != slot) continue;
    u = u ? isl_set_union(u, isl_set_copy(x->leaf[i])) : isl_set_copy(x->leaf[i]);
  }
  return u ? isl_set_coalesce(u) : NULL;
}

/* Returns 1 when leaf j (another op's) writes register reg somewhere in w. */
static int inst_classes_writes_in(const inst *x, int j, map_reg reg, __isl_keep isl_set *w) {
  const map_pst_leaf *lf = &x->m->leaves[j];
  if ((lf->slot != 0 && lf->slot != 4) || lf->reg.cls != reg.cls || lf->reg.idx != reg.idx) return 0;
  return isl_set_is_disjoint(x->leaf[j], w) != isl_bool_true;
}

/* isl callback data: a class number, or the od bits to cut. */
typedef struct {
  inst *x;
  int cls;
} inst_mark;

/* Returns the PE number k (k = r tc + c in 2-D) of point pt over K, -1
 * outside the region; takes pt. */
static long inst_point_pe(const inst *x, __isl_take isl_point *pt) {
  isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_set, x->m->mapped[0]);
  long k = isl_val_get_num_si(v);
  isl_val_free(v);
  if (x->m->axis == MAP_AXIS_2D) { /* k = r * tc + c */
    v = isl_point_get_coordinate_val(pt, isl_dim_set, x->m->mapped[1]);
    long c = isl_val_get_num_si(v);
    isl_val_free(v);
    k = c >= 0 && c < x->tc ? k * x->tc + c : -1;
  }
  isl_point_free(pt);
  return k >= 0 && k < x->t ? k : -1;
}

/* Returns isl_stat_ok after marking point pt's PE with the class. */
static isl_stat inst_mark_pe(__isl_take isl_point *pt, void *user) {
  inst_mark *mk = user;
  long k = inst_point_pe(mk->x, pt);
  if (k >= 0) mk->x->pe_class[k] = mk->cls;
  return isl_stat_ok;
}

/* Returns isl_stat_ok after adding the od bits mk->cls to point pt's PE
 * in x->od_cut (allocated on first use), isl_stat_error when out of memory. */
static isl_stat inst_mark_cut(__isl_take isl_point *pt, void *user) {
  inst_mark *mk = user;
  inst *x = mk->x;
  long k = inst_point_pe(x, pt);
  if (!x->od_cut) x->od_cut = calloc((size_t)x->t, sizeof *x->od_cut);
  if (!x->od_cut) return isl_stat_error;
  if (k >= 0) x->od_cut[k] |= (uint32_t)mk->cls;
  return isl_stat_ok;
}

/* Returns 0 after widening leaf i, when it writes a channel's od, onto the
 * PEs whose neighbour along the channel is outside the region, and
 * recording the od in x->od_cut of those PEs (see the top of this file);
 * -1 on an isl error. */
static int inst_classes_widen_leaf(inst *x, int i) {
  const map_pst_leaf *lf = &x->m->leaves[i];
  if (lf->slot != 4 || lf->reg.cls != MAP_REG_OD) return 0;
  const map_route *rt = inst_classes_route(x, lf->reg);
  if (!rt) return 0;
  isl_set *inner = isl_set_apply(isl_set_copy(x->kdom), isl_map_reverse(inst_classes_shift(x, rt, 0)));
  isl_set *edge = isl_set_subtract(isl_set_copy(x->kdom), inner);
  isl_set *jedge = isl_set_flat_product(isl_set_universe(isl_space_set_alloc(x->ctx, 0, (unsigned)x->n)), edge);
  isl_set *src = inst_classes_op_slot(x, lf->op, 1);
  if (!jedge || !src || isl_set_is_disjoint(x->leaf[i], jedge) != isl_bool_true) {
    isl_set_free(jedge);
    isl_set_free(src);
    return jedge ? 0 : -1;
  }
  isl_set *w = isl_set_apply(isl_set_copy(x->leaf[i]), inst_classes_shift(x, rt, 1));
  w = isl_set_intersect(isl_set_intersect(w, jedge), src);
  if (!w) return -1;
  int clash = isl_set_is_empty(w) != isl_bool_false;
  for (int j = 0; j < x->m->nleaves && !clash; j++)
    clash = x->m->leaves[j].op != lf->op && inst_classes_writes_in(x, j, lf->reg, w);
  if (clash) {
    isl_set_free(w);
    return 0;
  }
  /* the PEs written on: w's K (its J projected out) */
  isl_set *pes = isl_set_project_out(isl_set_copy(w), isl_dim_set, 0, (unsigned)x->n);
  inst_mark mk = {x, (int)(1u << lf->reg.idx)};
  int bad = !pes || isl_set_foreach_point(pes, inst_mark_cut, &mk) < 0;
  isl_set_free(pes);
  x->leaf[i] = isl_set_coalesce(isl_set_union(x->leaf[i], w));
  return x->leaf[i] && !bad ? 0 : -1;
}

int inst_classes(inst *x, char *msg, size_t msgsz) {
  int n = 0, cap = 16;
  isl_set **list = malloc((size_t)cap * sizeof *list);
  if (!list) return INST_ERR_INTERNAL;
  int bad = 0;
  for (int i = 0; i < x->m->nleaves && !bad; i++) bad = inst_classes_widen_leaf(x, i);
  for (int i = 0; i < x->m->nleaves && !bad; i++) bad = inst_patterns(x, x->leaf[i], &list, &n, &cap);
  for (int i = 0; i < x->m->naccess && !bad; i++) bad = inst_patterns(x, x->acc[i], &list, &n, &cap);
  x->npattern = n;
  isl_set **parts = NULL;
  int np = bad ? -1 : inst_partition(isl_set_copy(x->kdom), list, n, &parts);
  for (int i = 0; i < n; i++) isl_set_free(list[i]);
  free(list);
  if (np <= 0) {
    free(parts);
    snprintf(msg, msgsz, "processor classes could not be computed (isl)");
    return INST_ERR_INTERNAL;
  }
  x->pc = calloc((size_t)np, sizeof *x->pc);
  x->pe_class = calloc((size_t)x->t, sizeof *x->pe_class);
  if (!x->pc || !x->pe_class) {
    for (int i = 0; i < np; i++) isl_set_free(parts[i]);
    free(parts);
    return INST_ERR_INTERNAL;
  }
  /* order the classes by their smallest PE number (k = r tc + c in 2-D) */
  x->npc = x->npc_algo = np;
  for (int i = 0; i < np; i++) {
    x->pc[i].pes = parts[i];
    x->pc[i].rep = -1;
    inst_mark mk = {x, i};
    if (isl_set_foreach_point(x->pc[i].pes, inst_mark_pe, &mk) < 0) {
      free(parts);
      return INST_ERR_INTERNAL;
    }
  }
  free(parts);
  for (int k = x->t - 1; k >= 0; k--) x->pc[x->pe_class[k]].rep = k;
  for (int i = 1; i < np; i++)
    for (int j = i; j > 0 && x->pc[j].rep < x->pc[j - 1].rep; j--) {
      inst_pclass tmp = x->pc[j];
      x->pc[j] = x->pc[j - 1];
      x->pc[j - 1] = tmp;
    }
  for (int i = 0; i < np; i++) {
    inst_mark mk = {x, i};
    if (isl_set_foreach_point(x->pc[i].pes, inst_mark_pe, &mk) < 0) return INST_ERR_INTERNAL;
  }
  return INST_OK;
}

/* Returns 1 when sets a and b (NULL: empty) are disjoint, 0, -1 on error. */
static int inst_classes_disjoint(__isl_keep isl_set *a, __isl_keep isl_set *b) {
  if (!a || !b) return 1;
  isl_bool r = isl_set_is_disjoint(a, b);
  return r < 0 ? -1 : r == isl_bool_true;
}

/* Returns 1 when processor classes a and b have equal programs on every
 * FU (both empty, or the same words) and their parts of every control
 * signal agree (no J where one needs 1 and the other 0: the GC terms of a
 * class are its signals' parts, inst_signals.c), 0, -1 on error. */
static int inst_classes_same(const inst *x, int a, int b) {
  for (int f = 0; f < x->nfu; f++) {
    const inst_fuprog *p = &x->pc[a].fp[f], *q = &x->pc[b].fp[f];
    if (p->empty != q->empty) return 0;
    if (p->empty) continue;
    if (p->nwords != q->nwords || memcmp(p->words, q->words, (size_t)p->nwords * sizeof *p->words)) return 0;
  }
  for (int s = 0; s < x->nsig; s++) {
    const inst_signal *g = &x->sig[s];
    if (!g->ones || !g->zeros) continue;
    int r = inst_classes_disjoint(g->ones[a], g->zeros[b]);
    if (r == 1) r = inst_classes_disjoint(g->zeros[a], g->ones[b]);
    if (r != 1) return r;
  }
  return 1;
}

/* Returns the union of *a and b (either NULL: empty) in *a, taking b;
 * -1 on error. */
static int inst_classes_unite(isl_set **a, __isl_take isl_set *b) {
  if (!b) return 0;
  *a = *a ? isl_set_coalesce(isl_set_union(*a, b)) : b;
  return *a ? 0 : -1;
}

/* Returns 0 after joining class c into class d: its PEs and its parts of
 * the control signals; frees its programs; -1 on error. */
static int inst_classes_join(inst *x, int d, int c) {
  x->pc[d].pes = isl_set_coalesce(isl_set_union(x->pc[d].pes, x->pc[c].pes));
  x->pc[c].pes = NULL;
  for (int f = 0; f < x->nfu; f++) inst_fuprog_free(x, &x->pc[c].fp[f]);
  free(x->pc[c].fp);
  x->pc[c].fp = NULL;
  int bad = !x->pc[d].pes;
  for (int s = 0; s < x->nsig; s++) {
    inst_signal *g = &x->sig[s];
    if (!g->ones || !g->zeros) continue;
    bad |= inst_classes_unite(&g->ones[d], g->ones[c]) | inst_classes_unite(&g->zeros[d], g->zeros[c]);
    g->ones[c] = g->zeros[c] = NULL;
  }
  return bad ? -1 : 0;
}

/* Moves class c to index n (n <= c), its signal parts with it. */
static void inst_classes_move(inst *x, int n, int c) {
  if (n == c) return;
  x->pc[n] = x->pc[c];
  x->pc[c].pes = NULL;
  x->pc[c].fp = NULL;
  for (int s = 0; s < x->nsig; s++) {
    inst_signal *g = &x->sig[s];
    if (!g->ones || !g->zeros) continue;
    g->ones[n] = g->ones[c], g->zeros[n] = g->zeros[c];
    g->ones[c] = g->zeros[c] = NULL;
  }
}

int inst_classes_merge(inst *x) {
  int *to = malloc((size_t)x->npc * sizeof *to);
  if (!to) return INST_ERR_INTERNAL;
  int n = 0, st = INST_OK;
  for (int c = 0; c < x->npc && !st; c++) {
    int d = 0, r = 0;
    while (d < n && !(r = inst_classes_same(x, d, c))) d++;
    if (r < 0) st = INST_ERR_INTERNAL;
    to[c] = d;
    if (st || d < n) {
      if (!st && inst_classes_join(x, d, c)) st = INST_ERR_INTERNAL;
      continue;
    }
    inst_classes_move(x, n++, c);
  }
  if (!st) {
    for (int k = 0; k < x->t; k++) x->pe_class[k] = to[x->pe_class[k]];
    x->npc = n;
  }
  free(to);
  return st;
}

int inst_classes_cut_sinks(const inst *x, int k, uint32_t *sink, int nsink) {
  uint32_t cut = x->od_cut && k >= 0 && k < x->t ? x->od_cut[k] : 0;
  int n = 0;
  for (int s = 0; cut && s < nsink; s++)
    if (sink[s] && sink[s] - 1u < 32u && (cut >> (sink[s] - 1u) & 1u)) {
      sink[s] = 0;
      n++;
    }
  return n;
}
