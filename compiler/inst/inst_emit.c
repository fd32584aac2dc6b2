/*
 * inst_emit.c: the configuration stream of an instantiation (steps 3 and 4
 * of section 6 of the paper, section 6.4; docs/stream.md).
 *
 * Packets (inst_emit), in this order: REGCFG (fd depths) and WRAPPER (the
 * propagation channels of the .sym replicated on every PE, plus each
 * access's port to its bank) for the whole region; PROGRAM per processor
 * class, FU and run of consecutive PEs; GC 0 (pi, the extents in scan order
 * as bounds, epilog steps, start delays lambda^K, the signal terms); AG per
 * access and run of PEs with the same enable; IODATA; START.
 *
 * Timing. An input read at offset o < 0 from its iteration's start (the
 * mapper's tau - 2) would need a negative AG phase; instead every program
 * starts with sigma = ceil(-o / pi) empty steps, AG phases are sigma * pi +
 * offset, and the signals are shifted by sigma steps (succ(., sigma)), so
 * that the kernel of iteration J, which now runs in step s(J) + sigma,
 * reads the value meant for J. With sigma >= 2 the prolog is a loop on a
 * signal of its own (inst_prolog), whose sets are already over GC steps
 * (1 in steps 0..sigma-2, 0 in every later step) and are not shifted.
 *
 * Terms. A signal's ones, simplified against its care set, are one GC term
 * per basic set; pairs of them are merged into their convex hull where the
 * hull is one term and meets no zero, when that gives the signal fewer
 * terms (docs/instantiate.md "Control signals and the loop bounds").
 * Each signal's terms are built once per set of inputs and kept in
 * x->gc_memo (keyed by references to its sets, so any writer of them
 * makes the next count build them anew; docs/instantiate.md "Built once").
 */
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/space.h>
#include <isl/val.h>

#include "inst.h"

/* A growing payload. */
typedef struct {
  uint32_t *w;
  int n, cap, bad;
} inst_buf;

/* Appends one word. */
static void inst_w(inst_buf *b, int64_t v) {
  if (v < INT32_MIN || v > (int64_t)UINT32_MAX) b->bad = 1;
  if (b->n == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 64;
    uint32_t *nw = realloc(b->w, (size_t)b->cap * sizeof *nw);
    if (!nw) {
      b->bad = 1;
      return;
    }
    b->w = nw;
  }
  b->w[b->n++] = (uint32_t)v;
}

/* Returns the rectangle of PEs k0..k1 (inclusive) of a 1-D region; of a
 * 2-D one, the PEs used (k0 = 0, k1 = t - 1) or PE k0 (k0 == k1). */
static stream_rect inst_rect(const inst *x, int k0, int k1) {
  stream_rect r;
  if (x->m->axis == MAP_AXIS_2D) {
    int r0, c0;
    inst_pe_rc(x, k0, &r0, &c0);
    if (k0 == k1) r = (stream_rect){r0, c0, 1, 1};
    else r = (stream_rect){0, 0, x->tr, x->tc};
  } else if (x->m->axis) {
    r = (stream_rect){k0, 0, k1 - k0 + 1, 1};
  } else {
    r = (stream_rect){0, k0, 1, k1 - k0 + 1};
  }
  return r;
}

/* Constraint writer state (isl callback). */
typedef struct {
  const inst *x;
  inst_buf *b;
  int n;
} inst_cons;

/* Returns isl_stat_ok after writing constraint c (kind, coefs in GC order,
 * constant). */
static isl_stat inst_cons_put(__isl_take isl_constraint *c, void *user) {
  inst_cons *cs = user;
  inst_w(cs->b, isl_constraint_is_equality(c) ? STREAM_CONS_EQ : STREAM_CONS_GE);
  for (int g = 0; g < cs->x->n; g++) {
    isl_val *v = isl_constraint_get_coefficient_val(c, isl_dim_set, cs->x->m->order[g]);
    inst_w(cs->b, isl_val_get_num_si(v));
    isl_val_free(v);
  }
  isl_val *v = isl_constraint_get_constant_val(c);
  inst_w(cs->b, isl_val_get_num_si(v));
  isl_val_free(v);
  isl_constraint_free(c);
  cs->n++;
  return isl_stat_ok;
}

/* Returns the number of constraints of bs, or -1 when it has divs. */
static int inst_cons_count(__isl_keep isl_basic_set *bs) {
  if (isl_basic_set_dim(bs, isl_dim_div) > 0) return -1;
  isl_constraint_list *l = isl_basic_set_get_constraint_list(bs);
  int n = (int)isl_constraint_list_n_constraint(l);
  isl_constraint_list_free(l);
  return n;
}

/* Returns 0 after writing ncons and the constraints of bs to b. */
static int inst_cons_write(const inst *x, __isl_keep isl_basic_set *bs, inst_buf *b) {
  inst_w(b, inst_cons_count(bs));
  inst_cons cs = {x, b, 0};
  return isl_basic_set_foreach_constraint(bs, inst_cons_put, &cs) < 0 ? -1 : 0;
}

/* GC term writer state. */
typedef struct {
  const inst *x;
  inst_buf *b;   /* NULL: count only */
  uint32_t word; /* the term's signal word: signal and PE range (stream.md) */
  int nterms, bad;
} inst_terms;

/* Returns isl_stat_ok after writing basic set bs as a term (signal word
 * t->word), or only counting it when t->b is NULL. */
static isl_stat inst_term_put(__isl_take isl_basic_set *bs, void *user) {
  inst_terms *t = user;
  int nc = inst_cons_count(bs);
  if (nc < 0 || nc > STREAM_MAX_CONS(&t->x->arch)) t->bad = 1;
  if (t->b) {
    inst_w(t->b, t->word);
    if (!t->bad) inst_cons_write(t->x, bs, t->b);
  }
  t->nterms++;
  isl_basic_set_free(bs);
  return isl_stat_ok;
}

void inst_signal_free(const inst *x, inst_signal *g) {
  for (int c = 0; c < x->npc && g->ones; c++) isl_set_free(g->ones[c]);
  for (int c = 0; c < x->npc && g->zeros; c++) isl_set_free(g->zeros[c]);
  free(g->ones);
  free(g->zeros);
  isl_set_free(g->ones_all);
  isl_set_free(g->zeros_all);
  g->ones = g->zeros = NULL;
  g->ones_all = g->zeros_all = NULL;
}

/* Returns a copy of s, or the empty set of sp's space when s is NULL. */
static __isl_give isl_set *inst_set_or_empty(__isl_keep isl_set *s, __isl_keep isl_space *sp) {
  return s ? isl_set_copy(s) : isl_set_empty(isl_space_copy(sp));
}

__isl_give isl_set *inst_gc_class_ones(const inst *x, int s, int c, isl_set **carep) {
  isl_set *all = inst_ext_domain(x, x->P + x->epilog + x->sigma);
  isl_space *sp = isl_set_get_space(all);
  isl_set *ones = inst_set_or_empty(x->sig[s].ones[c], sp);
  isl_set *care = isl_set_union(isl_set_copy(ones), inst_set_or_empty(x->sig[s].zeros[c], sp));
  isl_space_free(sp);
  if (x->prolog_loop && s == x->prolog_sig) {
    /* the prolog signal is 0 in every step after the prolog, not only in
     * its last: program generation shares kernel words with the loop's
     * `nop ; br cP` word (inst_proggen.c), which must then fall through */
    isl_set_free(care);
    care = isl_set_copy(all);
  } else {
    /* kernel signals are over iterations J, which run sigma steps late */
    ones = inst_succ(x, ones, x->sigma);
    care = inst_succ(x, care, x->sigma);
  }
  care = isl_set_intersect(care, all);
  ones = isl_set_intersect(ones, isl_set_copy(care));
  if (carep) *carep = care;
  else isl_set_free(care);
  return ones;
}

/* isl callback: appends a basic set to the list of inst_gc_merge. */
static isl_stat inst_gc_bset_add(__isl_take isl_basic_set *b, void *user) {
  isl_basic_set_list **l = user;
  *l = isl_basic_set_list_add(*l, b);
  return *l ? isl_stat_ok : isl_stat_error;
}

/* Returns 1 when basic set h can be one term (no existentials, at most
 * 2 x gc.dims constraints) and holds no point of zeros (h kept). */
static int inst_gc_term_ok(const inst *x, __isl_keep isl_basic_set *h, __isl_keep isl_set *zeros) {
  int nc = inst_cons_count(h);
  if (nc < 0 || nc > STREAM_MAX_CONS(&x->arch)) return 0;
  isl_set *i = isl_set_intersect(isl_set_from_basic_set(isl_basic_set_copy(h)), isl_set_copy(zeros));
  int ok = isl_set_is_empty(i) == isl_bool_true;
  isl_set_free(i);
  return ok;
}

/* Returns t (taken) with pairs of its basic sets replaced by their convex
 * hull while the hull can be one term and holds no point of zeros: the
 * terms cover the same ones with fewer pieces (a hull may take points
 * where the signal is a don't-care). */
static __isl_give isl_set *inst_gc_merge(const inst *x, __isl_take isl_set *t, __isl_keep isl_set *zeros) {
  isl_basic_set_list *l = isl_basic_set_list_alloc(isl_set_get_ctx(t), 4);
  if (!l || isl_set_foreach_basic_set(t, inst_gc_bset_add, &l) < 0) {
    isl_basic_set_list_free(l);
    return t;
  }
  int n = (int)isl_basic_set_list_n_basic_set(l), merged = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      isl_set *u = isl_set_union(isl_set_from_basic_set(isl_basic_set_list_get_basic_set(l, i)),
                                 isl_set_from_basic_set(isl_basic_set_list_get_basic_set(l, j)));
      isl_basic_set *h = isl_basic_set_remove_redundancies(isl_set_convex_hull(u));
      if (h && inst_gc_term_ok(x, h, zeros)) {
        l = isl_basic_set_list_set_basic_set(l, i, h);
        l = isl_basic_set_list_drop(l, (unsigned)j, 1);
        n--;
        merged = 1;
        j = i; /* try the new piece against every other again */
      } else {
        isl_basic_set_free(h);
      }
    }
  if (!merged || !l) {
    isl_basic_set_list_free(l);
    return t;
  }
  isl_set *r = isl_set_empty(isl_set_get_space(t));
  for (int i = 0; i < n; i++) r = isl_set_union(r, isl_set_from_basic_set(isl_basic_set_list_get_basic_set(l, i)));
  isl_basic_set_list_free(l);
  if (!r) return t;
  isl_set_free(t);
  return r;
}

/* Returns the terms' J set of a group of classes: its ones simplified
 * against its care set (both taken), within the GC's steps, pieces
 * merged where their hull meets no zero (inst_gc_merge). */
static __isl_give isl_set *inst_gc_simplify(const inst *x, __isl_take isl_set *ones, __isl_take isl_set *care,
                                           int merge) {
  isl_set *all = inst_ext_domain(x, x->P + x->epilog + x->sigma);
  isl_set *zeros = merge ? isl_set_intersect(isl_set_subtract(isl_set_copy(care), isl_set_copy(ones)),
                                             isl_set_copy(all))
                         : NULL;
  ones = isl_set_coalesce(isl_set_gist(ones, care));
  ones = isl_set_intersect(ones, isl_set_copy(all));
  ones = isl_set_coalesce(isl_set_gist(ones, all));
  if (merge) ones = inst_gc_merge(x, ones, zeros);
  isl_set_free(zeros);
  return ones;
}

/* Returns 1 when the sets a and b over J share no point (both kept). */
static int inst_disjoint(__isl_keep isl_set *a, __isl_keep isl_set *b) {
  isl_set *i = isl_set_intersect(isl_set_copy(a), isl_set_copy(b));
  int e = isl_set_is_empty(i) == isl_bool_true;
  isl_set_free(i);
  return e;
}

/* One signal's classes as the terms see them (inst_gc_sig_terms). */
typedef struct {
  int npc, ng;
  isl_set **one, **zero; /* [npc] per class, over GC steps */
  isl_set **gone, **gcare; /* [ng] per group */
  int *grp;              /* [npc] the group of each class */
} inst_tgroups;

/* One term being built: a basic set over J and the PEs it must apply to
 * (on the region's grid, tr x tc). */
typedef struct {
  isl_basic_set *b;
  char *pes;
} inst_piece;

/* Pieces of one signal (isl callback state). */
typedef struct {
  const inst *x;
  inst_piece *p;
  int n, cap, bad;
  char *mask; /* the group's PEs */
} inst_pieces;

/* Returns isl_stat_ok after adding basic set bs (taken) with the group's
 * PEs, or the PEs to the piece of an equal basic set. */
static isl_stat inst_piece_add(__isl_take isl_basic_set *bs, void *user) {
  inst_pieces *ps = user;
  int ncell = ps->x->tr * ps->x->tc;
  for (int i = 0; i < ps->n; i++)
    if (isl_basic_set_is_equal(ps->p[i].b, bs) == isl_bool_true) {
      for (int k = 0; k < ncell; k++) ps->p[i].pes[k] |= ps->mask[k];
      isl_basic_set_free(bs);
      return isl_stat_ok;
    }
  if (ps->n == ps->cap) {
    int cap = ps->cap ? 2 * ps->cap : 16;
    inst_piece *np = realloc(ps->p, (size_t)cap * sizeof *np);
    if (!np) {
      ps->bad = 1;
      isl_basic_set_free(bs);
      return isl_stat_error;
    }
    ps->p = np;
    ps->cap = cap;
  }
  char *pes = malloc((size_t)ncell);
  if (!pes) {
    ps->bad = 1;
    isl_basic_set_free(bs);
    return isl_stat_error;
  }
  memcpy(pes, ps->mask, (size_t)ncell);
  ps->p[ps->n++] = (inst_piece){bs, pes};
  return isl_stat_ok;
}

/* Returns 1 when basic set b holds no J where a class with a PE in rows
 * r0..r1, columns c0..c1 of the grid but not in pes needs a 0. */
static int inst_piece_harmless(const inst *x, const inst_tgroups *tg, __isl_keep isl_basic_set *b,
                               const char *pes, int r0, int r1, int c0, int c1) {
  char *seen = calloc((size_t)tg->npc, 1);
  int ok = seen != NULL, r, c;
  isl_set *bs = isl_set_from_basic_set(isl_basic_set_copy(b));
  for (int k = 0; k < x->t && ok; k++) {
    inst_pe_rc(x, k, &r, &c);
    int pc = x->pe_class[k];
    if (r < r0 || r > r1 || c < c0 || c > c1 || pes[r * x->tc + c] || seen[pc]) continue;
    seen[pc] = 1;
    ok = inst_disjoint(bs, tg->zero[pc]);
  }
  isl_set_free(bs);
  free(seen);
  return ok;
}

/* Returns 0 after writing the term of piece pc with PE range rows r0..r1,
 * columns c0..c1 of the grid (relative to the region's origin). */
static int inst_piece_put(inst_terms *tm, int sig, __isl_keep isl_basic_set *b, int r0, int r1, int c0, int c1,
                          isl_set **pe0) {
  const inst *x = tm->x;
  tm->word = STREAM_TERM_WORD(sig, r0, x->tr - 1 - r1, c0, x->tc - 1 - c1);
  if (pe0 && r0 == 0 && c0 == 0) *pe0 = isl_set_union(*pe0, isl_set_from_basic_set(isl_basic_set_copy(b)));
  return inst_term_put(isl_basic_set_copy(b), tm) == isl_stat_ok ? 0 : -1;
}

/* Returns 0 after writing the terms of one piece: a single PE range, the
 * whole region or else the bounding box of its PEs, where the extra PEs'
 * classes need no 0 on the piece; else its PEs as rectangles (row runs
 * extended downwards). */
static int inst_piece_emit(inst_terms *tm, int sig, const inst_tgroups *tg, inst_piece *pc, isl_set **pe0) {
  const inst *x = tm->x;
  int nr = x->tr, ncol = x->tc, r0 = nr, r1 = -1, c0 = ncol, c1 = -1, rc = 0;
  for (int i = 0; i < nr * ncol; i++)
    if (pc->pes[i]) {
      int r = i / ncol, c = i % ncol;
      r0 = r < r0 ? r : r0, r1 = r > r1 ? r : r1, c0 = c < c0 ? c : c0, c1 = c > c1 ? c : c1;
    }
  if (r1 < 0) return 0;
  if (inst_piece_harmless(x, tg, pc->b, pc->pes, 0, nr - 1, 0, ncol - 1))
    return inst_piece_put(tm, sig, pc->b, 0, nr - 1, 0, ncol - 1, pe0);
  if (inst_piece_harmless(x, tg, pc->b, pc->pes, r0, r1, c0, c1))
    return inst_piece_put(tm, sig, pc->b, r0, r1, c0, c1, pe0);
  for (int i = 0; i < nr * ncol && !rc; i++) {
    if (!pc->pes[i]) continue;
    r0 = r1 = i / ncol;
    c0 = c1 = i % ncol;
    while (c1 + 1 < ncol && pc->pes[r0 * ncol + c1 + 1]) c1++;
    for (int full = 1; full && r1 + 1 < nr;) {
      for (int cc = c0; cc <= c1 && full; cc++) full = pc->pes[(r1 + 1) * ncol + cc];
      if (full) r1++;
    }
    for (int rr = r0; rr <= r1; rr++)
      for (int cc = c0; cc <= c1; cc++) pc->pes[rr * ncol + cc] = 0;
    rc = inst_piece_put(tm, sig, pc->b, r0, r1, c0, c1, pe0);
  }
  return rc;
}

/* Returns 0 after writing (or counting) the terms of signal s coloured as
 * one function of J on all PEs: its ones simplified against its care set,
 * one term per basic set, each for every PE (added to *pe0 when pe0 is not
 * NULL). */
static int inst_gc_sig_terms_all(const inst *x, int s, inst_terms *tm, isl_set **pe0) {
  const inst_signal *g = &x->sig[s];
  isl_set *all = inst_ext_domain(x, x->P + x->epilog + x->sigma);
  isl_set *ones = isl_set_copy(g->ones_all);
  isl_set *care = isl_set_union(isl_set_copy(g->ones_all), isl_set_copy(g->zeros_all));
  if (x->prolog_loop && s == x->prolog_sig) {
    isl_set_free(care);
    care = isl_set_copy(all);
  } else {
    ones = inst_succ(x, ones, x->sigma);
    care = inst_succ(x, care, x->sigma);
  }
  care = isl_set_intersect(care, isl_set_copy(all));
  ones = isl_set_coalesce(isl_set_gist(ones, care));
  ones = isl_set_intersect(ones, isl_set_copy(all));
  ones = isl_set_coalesce(isl_set_gist(ones, all));
  if (!ones) return -1;
  int rc = 0;
  if (isl_set_is_empty(ones) == isl_bool_false) {
    tm->word = STREAM_TERM_WORD(s, 0, 0, 0, 0);
    rc = isl_set_foreach_basic_set(ones, inst_term_put, tm) < 0 ? -1 : 0;
    if (pe0) *pe0 = isl_set_union(*pe0, isl_set_copy(ones));
  }
  isl_set_free(ones);
  return rc;
}

/* Returns 0 after writing (or counting) the terms of signal s into tm,
 * the pieces merged into hulls when `merge`; the
 * union of those that apply to PE 0 into *pe0 when pe0 is not NULL. The
 * classes are grouped, first fit in class order, so that within a group no
 * class needs a 1 where another needs a 0; all classes in one group is
 * the J-only form. Each group's ones, simplified against its care set,
 * give its pieces (basic sets); equal pieces of several groups are one,
 * and each piece gets the PE ranges of inst_piece_emit. */
static int inst_gc_sig_terms_m(const inst *x, int s, inst_terms *tm, isl_set **pe0, int merge) {
  int npc = x->npc, rc = 0, ncell = x->tr * x->tc;
  inst_tgroups tg = {npc, 0, calloc((size_t)npc, sizeof(isl_set *)), calloc((size_t)npc, sizeof(isl_set *)),
                     calloc((size_t)npc, sizeof(isl_set *)), calloc((size_t)npc, sizeof(isl_set *)),
                     calloc((size_t)npc, sizeof(int))};
  inst_pieces ps = {x, NULL, 0, 0, 0, calloc((size_t)ncell, 1)};
  if (!tg.one || !tg.zero || !tg.gone || !tg.gcare || !tg.grp || !ps.mask) rc = -1;
  for (int c = 0; c < npc && !rc; c++) {
    isl_set *care = NULL;
    tg.one[c] = inst_gc_class_ones(x, s, c, &care);
    tg.zero[c] = isl_set_subtract(care, isl_set_copy(tg.one[c]));
    int g = 0;
    for (; g < tg.ng; g++) {
      isl_set *gzero = isl_set_subtract(isl_set_copy(tg.gcare[g]), isl_set_copy(tg.gone[g]));
      int fit = inst_disjoint(tg.one[c], gzero) && inst_disjoint(tg.gone[g], tg.zero[c]);
      isl_set_free(gzero);
      if (fit) break;
    }
    if (g == tg.ng) {
      tg.gone[g] = isl_set_copy(tg.one[c]);
      tg.gcare[g] = isl_set_union(isl_set_copy(tg.one[c]), isl_set_copy(tg.zero[c]));
      tg.ng++;
    } else {
      tg.gone[g] = isl_set_union(tg.gone[g], isl_set_copy(tg.one[c]));
      tg.gcare[g] = isl_set_union(tg.gcare[g], isl_set_union(isl_set_copy(tg.one[c]), isl_set_copy(tg.zero[c])));
    }
    tg.grp[c] = g;
  }
  for (int g = 0; g < tg.ng && !rc; g++) {
    isl_set *ts = inst_gc_simplify(x, isl_set_copy(tg.gone[g]), isl_set_copy(tg.gcare[g]), merge);
    memset(ps.mask, 0, (size_t)ncell);
    for (int k = 0, r, c; k < x->t; k++) {
      inst_pe_rc(x, k, &r, &c);
      if (tg.grp[x->pe_class[k]] == g) ps.mask[r * x->tc + c] = 1;
    }
    if (!ts || isl_set_foreach_basic_set(ts, inst_piece_add, &ps) < 0 || ps.bad) rc = -1;
    isl_set_free(ts);
  }
  for (int i = 0; i < ps.n && !rc; i++) rc = inst_piece_emit(tm, s, &tg, &ps.p[i], pe0);
  for (int i = 0; i < ps.n; i++) {
    isl_basic_set_free(ps.p[i].b);
    free(ps.p[i].pes);
  }
  free(ps.p);
  free(ps.mask);
  for (int c = 0; c < npc; c++) {
    if (tg.one) isl_set_free(tg.one[c]);
    if (tg.zero) isl_set_free(tg.zero[c]);
    if (tg.gone) isl_set_free(tg.gone[c]);
    if (tg.gcare) isl_set_free(tg.gcare[c]);
  }
  free(tg.one);
  free(tg.zero);
  free(tg.gone);
  free(tg.gcare);
  free(tg.grp);
  return rc;
}

/* Returns 1 when signal s is the prolog loop's (its sets over GC steps). */
static int inst_gc_is_prolog(const inst *x, int s) { return x->prolog_loop && s == x->prolog_sig; }

/* Returns the number of sets in a memo entry's key for npc classes. */
static int inst_gc_memo_nkey(int npc) { return 2 * npc + 2; }

/* Returns the set of signal s that key slot i of a memo entry holds. */
static isl_set *inst_gc_memo_set(const inst *x, int s, int i) {
  const inst_signal *g = &x->sig[s];
  if (i == 2 * x->npc) return g->ones_all;
  if (i == 2 * x->npc + 1) return g->zeros_all;
  isl_set **v = i < x->npc ? g->ones : g->zeros;
  return v ? v[i % x->npc] : NULL;
}

/* Frees what memo entry e holds and clears it. */
static void inst_gc_memo_clear(inst_gc_memo_entry *e) {
  for (int i = 0; e->key && i < inst_gc_memo_nkey(e->npc); i++) isl_set_free(e->key[i]);
  free(e->key);
  free(e->w);
  *e = (inst_gc_memo_entry){0};
}

void inst_gc_memo_free(inst_gc_memo *mm) {
  for (int s = 0; mm && s < ISA_MAX_SIGNALS; s++) {
    inst_gc_memo_clear(&mm->e[s][0]);
    inst_gc_memo_clear(&mm->e[s][1]);
  }
  free(mm);
}

/* Returns 1 when memo entry e holds the terms of signal s as it is now:
 * the same sets (the entry holds references to them, so an equal address
 * is the same set), sigma, epilog, prolog signal, form and classes. */
static int inst_gc_memo_match(const inst *x, int s, const inst_gc_memo_entry *e) {
  if (!e->used || e->sigma != x->sigma || e->epilog != x->epilog || e->prolog != inst_gc_is_prolog(x, s) ||
      e->by_class != x->sig_by_class || e->npc != x->npc)
    return 0;
  for (int i = 0; i < inst_gc_memo_nkey(x->npc); i++)
    if (e->key[i] != inst_gc_memo_set(x, s, i)) return 0;
  return 1;
}

/* Returns the status of the terms of signal s (x's classes) with or
 * without merging into tm, written into the fresh buffer b. */
static int inst_gc_sig_try(const inst *x, int s, int merge, inst_terms *tm, inst_buf *b) {
  *b = (inst_buf){0};
  *tm = (inst_terms){x, b, 0, 0, 0};
  return inst_gc_sig_terms_m(x, s, tm, NULL, merge);
}

/* Fills memo entry e (cleared) with the terms of signal s: for colours
 * per class the pieces merged into hulls (inst_gc_merge) when that gives
 * fewer terms than without, so that no signal takes more terms than the
 * plain pieces; the key only when its references could be taken (else e
 * stays unused). Both forms are built, the hulls first, also when no
 * pair merges: the plain pieces can then differ from the hull pass's in
 * isl's form (other constraints for the same sets: gcd N=7 S=5 on 1x2 of
 * configs/big1d.ini), and the streams stay those of before the memo. */
static void inst_gc_memo_fill(const inst *x, int s, inst_gc_memo_entry *e) {
  inst_buf b = {0}, b0 = {0};
  inst_terms tm = {x, &b, 0, 0, 0}, t0 = {x, &b0, 0, 0, 0};
  int rc, merge = 0;
  if (!x->sig_by_class) {
    rc = inst_gc_sig_terms_all(x, s, &tm, NULL);
  } else {
    rc = inst_gc_sig_try(x, s, 1, &tm, &b);
    merge = rc == 0 && !tm.bad;
    int rc0 = inst_gc_sig_try(x, s, 0, &t0, &b0);
    merge = merge && (rc0 != 0 || t0.bad || tm.nterms < t0.nterms);
    if (!merge) {
      free(b.w);
      rc = rc0, tm = t0, b = b0;
    } else {
      free(b0.w);
    }
  }
  *e = (inst_gc_memo_entry){0, NULL, x->sigma, inst_gc_is_prolog(x, s), x->sig_by_class, x->npc, x->epilog,
                            rc, tm.nterms, tm.bad, merge, b.w, b.n, b.bad};
  e->key = malloc((size_t)inst_gc_memo_nkey(x->npc) * sizeof *e->key);
  for (int i = 0; e->key && i < inst_gc_memo_nkey(x->npc); i++) e->key[i] = isl_set_copy(inst_gc_memo_set(x, s, i));
  e->used = e->key != NULL;
}

/* Returns the memo entry of signal s's terms, computed now unless the
 * memo holds them (the newest entry first; a hit on the older makes it
 * the newest); tmp when the memo has no room for s (the caller clears
 * it). */
static const inst_gc_memo_entry *inst_gc_memo_get(const inst *x, int s, inst_gc_memo_entry *tmp) {
  *tmp = (inst_gc_memo_entry){0};
  if (!x->gc_memo || s < 0 || s >= ISA_MAX_SIGNALS) {
    inst_gc_memo_fill(x, s, tmp);
    return tmp;
  }
  inst_gc_memo_entry *e = x->gc_memo->e[s];
  if (inst_gc_memo_match(x, s, &e[0])) return &e[0];
  if (inst_gc_memo_match(x, s, &e[1])) {
    inst_gc_memo_entry t = e[0];
    e[0] = e[1], e[1] = t;
    return &e[0];
  }
  inst_gc_memo_clear(&e[1]);
  e[1] = e[0];
  inst_gc_memo_fill(x, s, &e[0]);
  return &e[0];
}

/* Returns 0 after writing (or counting) the terms of signal s into tm:
 * the memo's (inst_gc_memo_get); when pe0 is not NULL the terms are built
 * anew, as the memo chose them, for the union of those that apply to
 * PE 0 into *pe0. Without a memo, each form anew for every count, the
 * hulls kept when they give fewer terms (what the memo must equal,
 * tests/unit/test_inst_gcmemo.c). */
static int inst_gc_sig_terms(const inst *x, int s, inst_terms *tm, isl_set **pe0) {
  if (!x->gc_memo) { /* every form built anew for each count (the reference) */
    if (!x->sig_by_class) return inst_gc_sig_terms_all(x, s, tm, pe0);
    inst_terms a = {x, NULL, 0, 0, 0}, b = {x, NULL, 0, 0, 0};
    int merge = inst_gc_sig_terms_m(x, s, &a, NULL, 1) == 0 && !a.bad &&
                (inst_gc_sig_terms_m(x, s, &b, NULL, 0) != 0 || b.bad || a.nterms < b.nterms);
    return inst_gc_sig_terms_m(x, s, tm, pe0, merge);
  }
  inst_gc_memo_entry tmp;
  const inst_gc_memo_entry *e = inst_gc_memo_get(x, s, &tmp);
  int rc = e->rc;
  if (pe0) {
    rc = x->sig_by_class ? inst_gc_sig_terms_m(x, s, tm, pe0, e->merge) : inst_gc_sig_terms_all(x, s, tm, pe0);
  } else {
    for (int i = 0; tm->b && i < e->nw; i++) inst_w(tm->b, e->w[i]);
    if (tm->b && e->wbad) tm->b->bad = 1;
    tm->nterms += e->nterms;
    tm->bad |= e->bad;
  }
  inst_gc_memo_clear(&tmp);
  return rc;
}

__isl_give isl_set *inst_gc_ones(const inst *x, int s) {
  inst_terms tm = {x, NULL, 0, 0, 0};
  isl_set *all = inst_ext_domain(x, 1);
  isl_set *pe0 = isl_set_empty(isl_set_get_space(all));
  isl_set_free(all);
  if (inst_gc_sig_terms(x, s, &tm, &pe0) < 0) {
    isl_set_free(pe0);
    return NULL;
  }
  return isl_set_coalesce(pe0);
}

int inst_gc_sig_nterms(const inst *x, int s) {
  inst_terms tm = {x, NULL, 0, 0, 0};
  return inst_gc_sig_terms(x, s, &tm, NULL) < 0 || tm.bad ? -1 : tm.nterms;
}

int inst_gc_nterms(const inst *x) {
  inst_terms tm = {x, NULL, 0, 0, 0};
  for (int s = 0; s < x->nsig; s++)
    if (inst_gc_sig_terms(x, s, &tm, NULL) < 0) tm.bad = 1;
  return tm.bad ? -1 : tm.nterms;
}

/* Returns INST_OK after appending the GC packet. */
static int inst_emit_gc(inst *x, stream_writer *w, char *msg, size_t msgsz) {
  inst_buf b = {0};
  inst_w(&b, x->m->ii);
  inst_w(&b, x->n);
  for (int g = 0; g < x->n; g++) inst_w(&b, x->E[x->m->order[g]]);
  inst_w(&b, x->epilog + x->sigma);
  int64_t lr = x->m->axis == MAP_AXIS_COLS ? 0 : x->lk, lc = x->m->axis == MAP_AXIS_COLS ? x->lk : x->m->axis == MAP_AXIS_2D ? x->lk2 : 0;
  inst_w(&b, inst_pe_delay(x, 0));
  inst_w(&b, lr);
  inst_w(&b, lc);
  int at = b.n;
  inst_w(&b, 0);
  inst_terms tm = {x, &b, 0, 0, 0};
  for (int s = 0; s < x->nsig; s++)
    if (inst_gc_sig_terms(x, s, &tm, NULL) < 0) tm.bad = 1;
  if (tm.bad || tm.nterms > STREAM_GC_MAX_TERMS(&x->arch)) {
    fit_nofit(&x->fit, msg, msgsz, FIT_RES_GC_TERMS, "gc.signals", tm.nterms, STREAM_GC_MAX_TERMS(&x->arch), "",
              "global controller: the control signals need %d terms%s, at most %d (2 x gc.signals) with %d "
              "constraints each (2 x gc.dims)",
              tm.nterms, tm.bad ? " (some not expressible)" : "", STREAM_GC_MAX_TERMS(&x->arch),
              STREAM_MAX_CONS(&x->arch));
    free(b.w);
    return INST_ERR_NOFIT;
  }
  if (b.bad) {
    free(b.w);
    return INST_ERR_INTERNAL;
  }
  b.w[at] = (uint32_t)tm.nterms;
  int rc = stream_writer_packet(w, STREAM_PKT_GC, x->opt.gc, 0, inst_at(x, inst_rect(x, 0, x->t - 1)), b.w, (uint32_t)b.n);
  free(b.w);
  if (rc) fit_nofit(&x->fit, msg, msgsz, FIT_RES_ENCODING, "", -1, -1, "", "GC packet: %s", w->msg);
  return rc ? INST_ERR_NOFIT : INST_OK;
}

static int inst_emit_ag_at(inst *x, stream_writer *w, int a, int k0, stream_rect rc, int side, int bank,
                           int64_t lag, __isl_keep isl_set *en, char *msg, size_t msgsz);

/* Returns INST_OK after appending the AG packet of access a for PEs
 * k0..k1 with enable set en (over J). */
static int inst_emit_ag1(inst *x, stream_writer *w, int a, int k0, int k1, __isl_keep isl_set *en,
                         char *msg, size_t msgsz) {
  return inst_emit_ag_at(x, w, a, k0, inst_rect(x, k0, k1), x->io[a].side, x->io[a].bank, 0, en, msg, msgsz);
}

/* Returns INST_OK after writing into *b the AG payload of access a for PE
 * k0 (enable set en, over J), its events `lag` cycles after the PE's own
 * (inst.h); else INST_ERR_NOFIT with the reason in msg (b freed). */
static int inst_ag_payload(inst *x, int a, int k0, int64_t lag, __isl_keep isl_set *en, inst_buf *b,
                           char *msg, size_t msgsz) {
  const map_access *ac = &x->m->access[a];
  isl_set *all = inst_ext_domain(x, x->P + x->epilog + x->sigma);
  isl_set *g = isl_set_coalesce(isl_set_gist(isl_set_copy(en), all));
  int nb = isl_set_n_basic_set(g);
  isl_basic_set *bs = nb == 1 ? isl_set_simple_hull(isl_set_copy(g)) : NULL;
  isl_set_free(g);
  int nc = bs ? inst_cons_count(bs) : -1, ndiv = bs ? (int)isl_basic_set_dim(bs, isl_dim_div) : 0;
  if (!bs || nc < 0 || nc > STREAM_MAX_CONS(&x->arch)) {
    isl_basic_set_free(bs);
    char where[96];
    snprintf(where, sizeof where, "access %d (%s), PE %d", a, x->m->array_name[ac->array], k0);
    if (nb != 1)
      fit_nofit(&x->fit, msg, msgsz, FIT_RES_ENABLE_FORM, "", nb, 1, where,
                "access %d (%s): the enable of PE %d is a union of %d conjunctions, an address generator's is one "
                "(a property of the program: the access's condition has `or`)",
                a, x->m->array_name[ac->array], k0, nb);
    else if (nc < 0)
      fit_nofit(&x->fit, msg, msgsz, FIT_RES_ENABLE_FORM, "", ndiv, 0, where,
                "access %d (%s): the enable of PE %d has %d existentially quantified variables (a stride or a "
                "modulo), an address generator's has none (a property of the program)",
                a, x->m->array_name[ac->array], k0, ndiv);
    else
      fit_nofit(&x->fit, msg, msgsz, FIT_RES_CONSTRAINTS, "gc.dims", nc, STREAM_MAX_CONS(&x->arch), where,
                "access %d (%s): the enable of PE %d needs %d constraints, at most %d (2 x gc.dims, gc.dims = %d)", a,
                x->m->array_name[ac->array], k0, nc, STREAM_MAX_CONS(&x->arch), x->arch.gc_dims);
    return INST_ERR_NOFIT;
  }
  *b = (inst_buf){0};
  inst_w(b, ac->is_out ? STREAM_AG_WRITE : STREAM_AG_READ);
  inst_w(b, x->n);
  inst_w(b, (int64_t)x->sigma * x->m->ii + ac->offset + lag);
  inst_w(b, x->io[a].a0);
  inst_w(b, 0);
  inst_w(b, 0);
  for (int gd = 0; gd < x->n; gd++) inst_w(b, x->io[a].stride[x->m->order[gd]]);
  inst_cons_write(x, bs, b);
  isl_basic_set_free(bs);
  if (b->bad) {
    free(b->w);
    b->w = NULL;
    fit_nofit(&x->fit, msg, msgsz, FIT_RES_ENCODING, "", -1, -1, "", "AG packet of access %d: value out of 32 bits", a);
    return INST_ERR_NOFIT;
  }
  return INST_OK;
}

/* Returns INST_OK after appending the AG packet of access a for the PEs of
 * rectangle rect (of PE k0's enable en), on bank (side, bank), its events
 * `lag` cycles after the PE's own (inst.h). */
static int inst_emit_ag_at(inst *x, stream_writer *w, int a, int k0, stream_rect rect, int side, int bank,
                           int64_t lag, __isl_keep isl_set *en, char *msg, size_t msgsz) {
  inst_buf b;
  int st = inst_ag_payload(x, a, k0, lag, en, &b, msg, msgsz);
  if (st) return st;
  int rc = stream_writer_packet(w, STREAM_PKT_AG, bank, side, inst_at(x, rect), b.w, (uint32_t)b.n);
  free(b.w);
  if (rc) {
    fit_nofit(&x->fit, msg, msgsz, FIT_RES_ENCODING, "", -1, -1, "", "AG packet of access %d: %s", a, w->msg);
    return INST_ERR_NOFIT;
  }
  return INST_OK;
}

/* One AG packet of a 2-D region before merging: bank (side, bank) of
 * border PE (row, col), its payload. */
typedef struct {
  int side, bank, row, col, done;
  inst_buf b;
} inst_ag_item;

/* Returns 1 when items i and j are on the same side and bank and carry
 * the same payload. */
static int inst_ag_eq(const inst_ag_item *i, const inst_ag_item *j) {
  return i->side == j->side && i->bank == j->bank && i->b.n == j->b.n &&
         !memcmp(i->b.w, j->b.w, (size_t)i->b.n * sizeof *i->b.w);
}

/* Returns INST_OK after appending the merged AG packets of items it[0..n):
 * one per run, along the border side, of banks with equal payloads (the
 * north and south runs along a row, the east and west ones along a
 * column), so that the stream grows with the distinct payloads, not with
 * the PEs (docs/instantiate.md). at[] indexes items by (side, bank, row,
 * col) of the region. */
static int inst_ag_merge(inst *x, stream_writer *w, inst_ag_item *it, int n, const int *at, char *msg,
                         size_t msgsz) {
  int nb = x->arch.banks, R = x->tr, C = x->tc;
  for (int i = 0; i < n; i++) {
    if (it[i].done) continue;
    int ns = it[i].side == STREAM_SIDE_NORTH || it[i].side == STREAM_SIDE_SOUTH;
    stream_rect rc = {it[i].row, it[i].col, 1, 1};
    for (;;) {
      int r = rc.row0 + (ns ? 0 : rc.rows), c = rc.col0 + (ns ? rc.cols : 0);
      if (r >= R || c >= C) break;
      int j = at[((it[i].side * nb + it[i].bank) * R + r) * C + c];
      if (j < 0 || it[j].done || !inst_ag_eq(&it[i], &it[j])) break;
      it[j].done = 1;
      if (ns) rc.cols++;
      else rc.rows++;
    }
    it[i].done = 1;
    if (stream_writer_packet(w, STREAM_PKT_AG, it[i].bank, it[i].side, inst_at(x, rc), it[i].b.w, (uint32_t)it[i].b.n)) {
      fit_nofit(&x->fit, msg, msgsz, FIT_RES_ENCODING, "", -1, -1, "", "AG packet: %s", w->msg);
      return INST_ERR_NOFIT;
    }
  }
  return INST_OK;
}

/* Returns INST_OK after appending the AG packets of a 2-D region, on the
 * bank serving each (access, PE) (inst_io2d.c): the payload of every
 * (access, PE) is built first (an inner PE's bank lies on a border PE, its
 * events delayed by the hops), then runs along a border side of equal
 * payloads on the same bank become one packet (inst_ag_merge). */
static int inst_emit_ags_2d(inst *x, stream_writer *w, char *msg, size_t msgsz) {
  size_t nat = (size_t)4 * (size_t)x->arch.banks * (size_t)x->tr * (size_t)x->tc;
  inst_ag_item *it = calloc((size_t)x->m->naccess * (size_t)x->t + 1, sizeof *it);
  int *at = malloc((nat + 1) * sizeof *at);
  int n = 0, st = it && at ? INST_OK : INST_ERR_INTERNAL;
  for (size_t i = 0; at && i < nat; i++) at[i] = -1;
  for (int a = 0; a < x->m->naccess && !st; a++) {
    const inst_io *io = &x->io[a];
    for (int k = 0; k < x->t && !st; k++) {
      if (io->pside[k] < 0) continue;
      isl_set *en = inst_split(x, x->acc[a], k);
      inst_ag_item *p = &it[n];
      *p = (inst_ag_item){io->pside[k], io->pbank[k], io->prow[k], io->pcol[k], 0, {0}};
      st = inst_ag_payload(x, a, k, io->lag[k], en, &p->b, msg, msgsz);
      isl_set_free(en);
      if (st) break;
      size_t ix = (((size_t)p->side * (size_t)x->arch.banks + (size_t)p->bank) * (size_t)x->tr + (size_t)p->row) *
                      (size_t)x->tc + (size_t)p->col;
      if (p->bank < 0 || p->bank >= x->arch.banks || p->row >= x->tr || p->col >= x->tc || at[ix] >= 0) {
        /* not a bank of the region, or a bank serving two accesses: no merging */
        p->done = 0;
      } else {
        at[ix] = n;
      }
      n++;
    }
  }
  if (!st) st = inst_ag_merge(x, w, it, n, at, msg, msgsz);
  for (int i = 0; it && i < n; i++) free(it[i].b.w);
  free(it);
  free(at);
  return st;
}

/* Returns INST_OK after appending the AG packets of every access, one per
 * run of consecutive PEs with equal enables. */
static int inst_emit_ags(inst *x, stream_writer *w, char *msg, size_t msgsz) {
  if (x->wsink) return inst_emit_ags_2d(x, w, msg, msgsz); /* 2-D, or 1-D with banks per PE */
  for (int a = 0; a < x->m->naccess; a++) {
    int k0 = 0;
    isl_set *cur = inst_split(x, x->acc[a], 0);
    for (int k = 1; k <= x->t; k++) {
      isl_set *nx = k < x->t ? inst_split(x, x->acc[a], k) : NULL;
      if (nx && isl_set_is_equal(nx, cur) == isl_bool_true) {
        isl_set_free(nx);
        continue;
      }
      int st = INST_OK;
      if (isl_set_is_empty(cur) == isl_bool_false) st = inst_emit_ag1(x, w, a, k0, k - 1, cur, msg, msgsz);
      isl_set_free(cur);
      if (st) {
        isl_set_free(nx);
        return st;
      }
      cur = nx;
      k0 = k;
    }
  }
  return INST_OK;
}

/* Returns the WRAPPER sink number of wrapper port (side, port). */
static int inst_sink_port(const inst *x, int side, int port) {
  return x->arch.id + side * x->arch.ports + port;
}

/* Returns the source number of wrapper input (side, port). */
static int inst_src_port(const inst *x, int side, int port) {
  return x->arch.od + side * x->arch.ports + port;
}

/* Returns the stream side of a route letter. */
static int inst_side_of(char c) {
  return c == 'N' ? STREAM_SIDE_NORTH : c == 'E' ? STREAM_SIDE_EAST : c == 'S' ? STREAM_SIDE_SOUTH : STREAM_SIDE_WEST;
}

/* Returns the number of rows from r on (at least 1) whose wrappers equal
 * row r's, PE by PE. */
static int inst_wrapper_rows(const inst *x, int r, int nsink) {
  size_t row = (size_t)x->tc * (size_t)nsink;
  int r1 = r + 1;
  while (r1 < x->tr && !memcmp(x->wsink + (size_t)r * row, x->wsink + (size_t)r1 * row, row * sizeof *x->wsink))
    r1++;
  return r1 - r;
}

/* Returns INST_OK after appending the WRAPPER packets of a 2-D region:
 * one per run of PEs of a row with identical sinks (x->wsink), over every
 * following row equal to it (rows whose pass-through chains are alike,
 * inst_io2d.c, take one packet). */
static int inst_emit_wrappers_2d(inst *x, stream_writer *w, int nsink, char *msg, size_t msgsz) {
  size_t sz = (size_t)nsink * sizeof *x->wsink;
  for (int r = 0, nr; r < x->tr; r += nr) {
    nr = inst_wrapper_rows(x, r, nsink);
    for (int c0 = 0; c0 < x->tc;) {
      const uint32_t *s0 = x->wsink + (size_t)(r * x->tc + c0) * (size_t)nsink;
      int c1 = c0 + 1;
      while (c1 < x->tc && !memcmp(s0, x->wsink + (size_t)(r * x->tc + c1) * (size_t)nsink, sz)) c1++;
      stream_rect rc = {r, c0, nr, c1 - c0};
      if (stream_writer_packet(w, STREAM_PKT_WRAPPER, 0, 0, inst_at(x, rc), s0, (uint32_t)nsink)) {
        fit_nofit(&x->fit, msg, msgsz, FIT_RES_ENCODING, "", -1, -1, "", "WRAPPER packet: %s", w->msg);
        return INST_ERR_NOFIT;
      }
      c0 = c1;
    }
  }
  return INST_OK;
}

/* Returns INST_OK after appending the REGCFG and WRAPPER packets. */
static int inst_emit_region(inst *x, stream_writer *w, char *msg, size_t msgsz) {
  stream_rect all = inst_rect(x, 0, x->t - 1);
  uint32_t fd[ISA_MAX_REGS];
  for (int i = 0; i < x->arch.fd; i++) fd[i] = (uint32_t)x->fd_depth[i];
  int rc = x->arch.fd ? stream_writer_packet(w, STREAM_PKT_REGCFG, 0, 0, inst_at(x, all), fd, (uint32_t)x->arch.fd) : 0;
  int nsink = x->arch.id + 4 * x->arch.ports;
  if (x->wsink) { /* 2-D, or 1-D with banks per PE (inst_io.c) */
    if (rc) {
      fit_nofit(&x->fit, msg, msgsz, FIT_RES_ENCODING, "", -1, -1, "", "region packets: %s", w->msg);
      return INST_ERR_NOFIT;
    }
    for (int k = 0; k < x->t; k++) inst_classes_cut_sinks(x, k, x->wsink + (size_t)k * (size_t)nsink, nsink);
    return inst_emit_wrappers_2d(x, w, nsink, msg, msgsz);
  }
  uint32_t *sink = calloc((size_t)nsink, sizeof *sink);
  if (!sink) return INST_ERR_INTERNAL;
  for (int r = 0; r < x->m->nroutes; r++) {
    const map_route *rt = &x->m->routes[r];
    sink[inst_sink_port(x, inst_side_of(rt->out_side[0]), rt->port[0])] = 1u + (uint32_t)rt->od.idx;
    sink[rt->id.idx] = 1u + (uint32_t)inst_src_port(x, inst_side_of(rt->in_side[0]), rt->port[0]);
  }
  for (int a = 0; a < x->m->naccess; a++) {
    const map_access *ac = &x->m->access[a];
    if (ac->is_out) sink[inst_sink_port(x, x->io[a].side, x->io[a].bank)] = 1u + (uint32_t)ac->reg.idx;
    else sink[ac->reg.idx] = 1u + (uint32_t)inst_src_port(x, x->io[a].side, x->io[a].bank);
  }
  if (!rc) rc = stream_writer_packet(w, STREAM_PKT_WRAPPER, 0, 0, inst_at(x, all), sink, (uint32_t)nsink);
  /* the PEs whose channel writes leave the region (inst_classes.c): the
   * region's wrapper without those ods' connections, per run of PEs */
  for (int k0 = 0, k1; !rc && x->od_cut && k0 < x->t; k0 = k1) {
    for (k1 = k0 + 1; k1 < x->t && x->od_cut[k1] == x->od_cut[k0];) k1++;
    if (!x->od_cut[k0]) continue;
    uint32_t *cut = malloc((size_t)nsink * sizeof *cut);
    if (!cut) rc = -1;
    if (!cut) break;
    memcpy(cut, sink, (size_t)nsink * sizeof *cut);
    inst_classes_cut_sinks(x, k0, cut, nsink);
    rc = stream_writer_packet(w, STREAM_PKT_WRAPPER, 0, 0, inst_at(x, inst_rect(x, k0, k1 - 1)), cut, (uint32_t)nsink);
    free(cut);
  }
  free(sink);
  if (rc) {
    fit_nofit(&x->fit, msg, msgsz, FIT_RES_ENCODING, "", -1, -1, "", "region packets: %s", w->msg);
    return INST_ERR_NOFIT;
  }
  return INST_OK;
}

/* Returns INST_OK after appending the programs of class c on rectangle rc. */
static int inst_emit_class_rect(inst *x, stream_writer *w, int c, stream_rect rc, char *msg, size_t msgsz) {
  for (int f = 0; f < x->nfu; f++) {
    const inst_fuprog *fp = &x->pc[c].fp[f];
    if (fp->empty) continue;
    if (stream_writer_program(w, inst_at(x, rc), f, fp->words, fp->nwords)) {
      fit_nofit(&x->fit, msg, msgsz, FIT_RES_ENCODING, "", -1, -1, "", "program of class %d FU %d: %s", c, f, w->msg);
      return INST_ERR_NOFIT;
    }
  }
  return INST_OK;
}

/* Returns INST_OK after appending the PROGRAM packets of a 2-D region: each
 * processor class as rectangles (greedy: from its first PE not yet
 * covered, as wide as the class goes along the row, then as many rows
 * down as the whole width stays in the class). */
static int inst_emit_programs_2d(inst *x, stream_writer *w, char *msg, size_t msgsz) {
  char *done = calloc((size_t)x->t, 1);
  if (!done) return INST_ERR_INTERNAL;
  int st = INST_OK;
  for (int k = 0; k < x->t && !st; k++) {
    if (done[k]) continue;
    int cls = x->pe_class[k], r0 = k / x->tc, c0 = k % x->tc, c1 = c0, r1 = r0;
    while (c1 + 1 < x->tc && !done[r0 * x->tc + c1 + 1] && x->pe_class[r0 * x->tc + c1 + 1] == cls) c1++;
    for (int ok = 1; ok && r1 + 1 < x->tr;) {
      for (int c = c0; c <= c1 && ok; c++)
        ok = !done[(r1 + 1) * x->tc + c] && x->pe_class[(r1 + 1) * x->tc + c] == cls;
      if (ok) r1++;
    }
    for (int r = r0; r <= r1; r++)
      for (int c = c0; c <= c1; c++) done[r * x->tc + c] = 1;
    st = inst_emit_class_rect(x, w, cls, (stream_rect){r0, c0, r1 - r0 + 1, c1 - c0 + 1}, msg, msgsz);
  }
  free(done);
  return st;
}

/* Returns INST_OK after appending the PROGRAM packets. */
static int inst_emit_programs(inst *x, stream_writer *w, char *msg, size_t msgsz) {
  if (x->m->axis == MAP_AXIS_2D) return inst_emit_programs_2d(x, w, msg, msgsz);
  for (int c = 0; c < x->npc; c++)
    for (int k0 = 0; k0 < x->t; k0++) {
      if (x->pe_class[k0] != c || (k0 > 0 && x->pe_class[k0 - 1] == c)) continue;
      int k1 = k0;
      while (k1 + 1 < x->t && x->pe_class[k1 + 1] == c) k1++;
      for (int f = 0; f < x->nfu; f++) {
        const inst_fuprog *fp = &x->pc[c].fp[f];
        if (fp->empty) continue;
        if (stream_writer_program(w, inst_at(x, inst_rect(x, k0, k1)), f, fp->words, fp->nwords)) {
          fit_nofit(&x->fit, msg, msgsz, FIT_RES_ENCODING, "", -1, -1, "", "program of class %d FU %d: %s", c, f, w->msg);
          return INST_ERR_NOFIT;
        }
      }
    }
  return INST_OK;
}

/* Returns INST_OK after appending the IODATA packets of input accesses. */
static int inst_emit_iodata(inst *x, const inst_data *data, stream_writer *w, char *msg, size_t msgsz) {
  for (int a = 0; a < x->m->naccess; a++) {
    const map_access *ac = &x->m->access[a];
    if (ac->is_out) continue;
    int64_t range = x->io[a].range;
    uint32_t *buf = malloc((size_t)(range + 1) * sizeof *buf);
    if (!buf) return INST_ERR_INTERNAL;
    for (int k = 0; k < x->t; k++) {
      memset(buf, 0, (size_t)(range + 1) * sizeof *buf);
      int64_t lo = range, hi = -1;
      for (int64_t s = 0; s < x->P; s++) {
        int64_t lin = x->io[a].elem_lin[k * x->P + s];
        if (lin < 0) continue;
        int64_t J[AST_MAX_DIMS];
        inst_io_unseq(x, s, J);
        int64_t ad = inst_io_address(x, a, J);
        int32_t v = 0;
        if (data && data->vals && data->vals[ac->array] && lin < data->count[ac->array])
          v = data->vals[ac->array][lin];
        buf[ad + 1] = (uint32_t)v;
        if (ad < lo) lo = ad;
        if (ad > hi) hi = ad;
      }
      if (hi < 0) continue;
      buf[lo] = (uint32_t)lo;
      int bank = x->io[a].bank, side = x->io[a].side;
      stream_rect rc = inst_rect(x, k, k);
      if (x->io[a].pside) {
        bank = x->io[a].pbank[k];
        side = x->io[a].pside[k];
        rc = (stream_rect){x->io[a].prow[k], x->io[a].pcol[k], 1, 1};
      }
      if (stream_writer_packet(w, STREAM_PKT_IODATA, bank, side, inst_at(x, rc), buf + lo, (uint32_t)(hi - lo + 2))) {
        fit_nofit(&x->fit, msg, msgsz, FIT_RES_ENCODING, "", -1, -1, "", "IODATA of access %d: %s", a, w->msg);
        free(buf);
        return INST_ERR_NOFIT;
      }
    }
    free(buf);
  }
  return INST_OK;
}

int inst_emit(inst *x, const inst_data *data, stream_writer *w, char *msg, size_t msgsz) {
  int st = inst_emit_region(x, w, msg, msgsz);
  if (!st) st = inst_emit_programs(x, w, msg, msgsz);
  if (!st) st = inst_emit_gc(x, w, msg, msgsz);
  if (!st) st = inst_emit_ags(x, w, msg, msgsz);
  if (!st) st = inst_emit_iodata(x, data, w, msg, msgsz);
  if (!st && stream_writer_packet(w, STREAM_PKT_START, x->opt.gc, 0, inst_at(x, inst_rect(x, 0, x->t - 1)), NULL, 0)) {
    fit_nofit(&x->fit, msg, msgsz, FIT_RES_ENCODING, "", -1, -1, "", "START packet: %s", w->msg);
    st = INST_ERR_NOFIT;
  }
  return st;
}
