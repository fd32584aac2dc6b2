/*
 * inst_concretize.c: concretization (step 1 of section 6): the program
 * parameters, the tile size p = max(p_min, ceil(E_m / t)) and the number of
 * PEs used ceil(E_m / p) replace every symbol of the .sym (2-D: the same
 * for the columns' dimension, pc = max(p_min[1], ceil(E_m2 / cols)); the PEs
 * are numbered k = r tc + c). Each bound lo/hi
 * is evaluated (an isl pw_aff with the parameters fixed), giving the extents
 * E_k; the scan order gives s(J); the lambda-k record gives lambda^K; each
 * fd's depth is s(d) + extra. Every PST leaf and access space becomes the
 * concrete isl set { (J, K) in jkspace : lo + P K + J in ispace } with p
 * and t fixed. Also here: the helpers over J every later step uses
 * (extended domain, successor, fibre, first sequence number, Algorithm 1).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/space.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/val.h>

#include "inst.h"

int inst_cat(char *buf, size_t sz, size_t *len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsnprintf(buf + *len, sz - *len, fmt, ap);
  va_end(ap);
  if (r < 0 || (size_t)r >= sz - *len) return -1;
  *len += (size_t)r;
  return 0;
}

/* Returns s with every parameter fixed to its value (names/vals) and the
 * parameters projected out; NULL when a parameter has no value. */
static __isl_give isl_set *inst_fix_params(__isl_take isl_set *s, int n, char *const *names,
                                           const int64_t *vals) {
  if (!s) return NULL;
  int np = (int)isl_set_dim(s, isl_dim_param);
  for (int i = 0; i < np; i++) {
    const char *nm = isl_set_get_dim_name(s, isl_dim_param, i);
    int k = 0;
    while (k < n && (!nm || strcmp(names[k], nm))) k++;
    if (k == n) return isl_set_free(s);
    s = isl_set_fix_si(s, isl_dim_param, i, (int)vals[k]);
  }
  return isl_set_project_out(s, isl_dim_param, 0, (unsigned)np);
}

/* Returns 0 and the single value of a one-point one-dimensional set in *v
 * (takes s); -1 when it is empty or not a single point. */
static int inst_single_value(__isl_take isl_set *s, int64_t *v) {
  if (!s) return -1;
  if (isl_set_is_empty(s) != isl_bool_false || isl_set_is_singleton(s) != isl_bool_true) {
    isl_set_free(s);
    return -1;
  }
  isl_point *pt = isl_set_sample_point(s);
  isl_val *val = isl_point_get_coordinate_val(pt, isl_dim_set, 0);
  *v = isl_val_get_num_si(val);
  isl_val_free(val);
  isl_point_free(pt);
  return 0;
}

/* Returns 0 and the value of pw_aff text `txt` for the program parameters. */
static int inst_eval_pwaff(inst *x, const char *txt, int64_t *v) {
  isl_pw_aff *pa = isl_pw_aff_read_from_str(x->ctx, txt);
  if (!pa) return -1;
  isl_set *s = isl_set_from_pw_aff(pa);
  s = inst_fix_params(s, x->m->nparams, x->m->param_name, x->params);
  return inst_single_value(s, v);
}

/* Returns the names list "j0, ..., k0, ..." for n dims into buf. */
static void inst_jk_names(int n, int withk, char *buf, size_t sz) {
  size_t len = 0;
  buf[0] = 0;
  for (int k = 0; k < n; k++) inst_cat(buf, sz, &len, "%sj%d", k ? ", " : "", k);
  if (withk)
    for (int k = 0; k < n; k++) inst_cat(buf, sz, &len, ", k%d", k);
}

/* Returns the constraint text (with a trailing "and ") bounding K_k to the
 * PEs used: 0 <= k < t along the mapped dimensions, k = 0 elsewhere. */
static const char *inst_kbox(const inst *x, int k) {
  static char buf[64];
  const map_config *m = x->m;
  if (m->axis == MAP_AXIS_2D && (k == m->mapped[0] || k == m->mapped[1]))
    snprintf(buf, sizeof buf, "0 <= k%d < %d and ", k, k == m->mapped[0] ? x->tr : x->tc);
  else if (m->axis != MAP_AXIS_2D && k == m->mapped[0])
    snprintf(buf, sizeof buf, "0 <= k%d < %d and ", k, x->t);
  else
    snprintf(buf, sizeof buf, "k%d = 0 and ", k);
  return buf;
}

/* What every concrete tiled set shares (inst_tiled), read from text once
 * per instantiation: the tiling map, the box, the last jkspace read (the
 * doms of a .sym mostly share it) and the sets made so far, by dom (doms
 * with the same texts give the same set: a copy of it). */
typedef struct {
  isl_multi_aff *ma;   /* [J, K] -> lo + P K + J */
  isl_set *box;        /* the tile box and the region over [J, K] */
  const char *jk_txt;  /* the jkspace of jk */
  isl_set *jk;         /* its parameters fixed */
  const map_dom **dom; /* [n] the doms made */
  isl_set **set;       /* [n] their sets */
  int n;
} inst_tiled_memo;

/* Frees the memo's sets and arrays. */
static void inst_tiled_memo_free(inst_tiled_memo *tm) {
  isl_multi_aff_free(tm->ma);
  isl_set_free(tm->box);
  isl_set_free(tm->jk);
  for (int i = 0; i < tm->n; i++) isl_set_free(tm->set[i]);
  free(tm->dom);
  free(tm->set);
}

/* Returns 0 after reading the tiling map and the box of x into tm (cap:
 * the doms it will hold); -1 on error. */
static int inst_tiled_memo_init(inst *x, inst_tiled_memo *tm, int cap) {
  const map_config *m = x->m;
  char names[512], buf[2048];
  size_t len = 0;
  memset(tm, 0, sizeof *tm);
  tm->dom = calloc((size_t)cap + 1, sizeof *tm->dom);
  tm->set = calloc((size_t)cap + 1, sizeof *tm->set);
  inst_jk_names(x->n, 1, names, sizeof names);
  inst_cat(buf, sizeof buf, &len, "{ [%s] -> [", names);
  for (int k = 0; k < x->n; k++) {
    if (k == m->mapped[0] || (m->axis == MAP_AXIS_2D && k == m->mapped[1]))
      inst_cat(buf, sizeof buf, &len, "%s%lld + %lld * k%d + j%d", k ? ", " : "", (long long)x->lo[k],
               (long long)(k == m->mapped[0] ? x->p : x->p2), k, k);
    else
      inst_cat(buf, sizeof buf, &len, "%s%lld + j%d", k ? ", " : "", (long long)x->lo[k], k);
  }
  inst_cat(buf, sizeof buf, &len, "] }");
  tm->ma = isl_multi_aff_read_from_str(x->ctx, buf);
  /* within the tile box and the region */
  len = 0;
  inst_cat(buf, sizeof buf, &len, "{ [%s] : ", names);
  for (int k = 0; k < x->n; k++) {
    inst_cat(buf, sizeof buf, &len, "0 <= j%d < %lld and ", k, (long long)x->E[k]);
    inst_cat(buf, sizeof buf, &len, "%s", inst_kbox(x, k));
  }
  inst_cat(buf, sizeof buf, &len, "0 = 0 }");
  tm->box = isl_set_read_from_str(x->ctx, buf);
  return tm->dom && tm->set && tm->ma && tm->box ? 0 : -1;
}

/* Returns the concrete tiled set of a dom (ispace, jkspace) over [J, K]. */
static __isl_give isl_set *inst_tiled(inst *x, inst_tiled_memo *tm, const map_dom *d) {
  const map_config *m = x->m;
  for (int i = 0; i < tm->n; i++)
    if (!strcmp(tm->dom[i]->ispace, d->ispace) && !strcmp(tm->dom[i]->jkspace, d->jkspace))
      return isl_set_copy(tm->set[i]);
  isl_multi_aff *ma = isl_multi_aff_copy(tm->ma);
  isl_set *is = isl_set_read_from_str(x->ctx, d->ispace);
  is = inst_fix_params(is, m->nparams, m->param_name, x->params);
  if (!tm->jk_txt || strcmp(tm->jk_txt, d->jkspace)) {
    char *pn[4] = {"p", "t", "pc", "tc"};
    int64_t pv[4] = {x->p, m->axis == MAP_AXIS_2D ? x->tr : x->t, x->p2, x->tc};
    isl_set_free(tm->jk);
    tm->jk = inst_fix_params(isl_set_read_from_str(x->ctx, d->jkspace), m->axis == MAP_AXIS_2D ? 4 : 2, pn, pv);
    tm->jk_txt = tm->jk ? d->jkspace : NULL;
  }
  isl_set *jk = isl_set_copy(tm->jk);
  if (!ma || !is || !jk) {
    isl_multi_aff_free(ma);
    isl_set_free(is);
    isl_set_free(jk);
    return NULL;
  }
  is = isl_set_preimage_multi_aff(is, ma);
  jk = isl_set_reset_tuple_id(jk);
  is = isl_set_reset_tuple_id(is);
  isl_set *r = isl_set_intersect(is, jk);
  r = isl_set_coalesce(isl_set_intersect(r, isl_set_copy(tm->box)));
  if (r) {
    tm->dom[tm->n] = d;
    tm->set[tm->n++] = isl_set_copy(r);
  }
  return r;
}

isl_set *inst_ext_domain(const inst *x, int64_t steps) {
  inst_succ_memo *memo = x->succ_memo; /* read from text once per step count (10 % of a conv instantiation) */
  for (int i = 0; memo && i < memo->ext_count; i++)
    if (memo->ext_steps[i] == steps) return isl_set_copy(memo->ext[i]);
  char names[512], buf[2048];
  size_t len = 0;
  int last = x->m->order[x->n - 1];
  inst_jk_names(x->n, 0, names, sizeof names);
  inst_cat(buf, sizeof buf, &len, "{ [%s] : ", names);
  for (int k = 0; k < x->n; k++) {
    if (k == last) inst_cat(buf, sizeof buf, &len, "j%d >= 0 and ", k);
    else inst_cat(buf, sizeof buf, &len, "0 <= j%d < %lld and ", k, (long long)x->E[k]);
  }
  for (int k = 0; k < x->n; k++) inst_cat(buf, sizeof buf, &len, "%lld * j%d + ", (long long)x->seq[k], k);
  inst_cat(buf, sizeof buf, &len, "0 < %lld }", (long long)steps);
  isl_set *d = isl_set_read_from_str(x->ctx, buf);
  if (d && memo && memo->ext_count < INST_SUCC_MEMO) {
    memo->ext_steps[memo->ext_count] = steps;
    memo->ext[memo->ext_count++] = isl_set_copy(d);
  }
  return d;
}

/* Returns 0 after adding the constraint sum(ca[d] a_d) + sum(cb[d] b_d) + k
 * (== 0 when eq, else >= 0) to *bm (taken and given back); -1 on error. */
static int inst_succ_con(isl_basic_map **bm, int n, const int64_t *ca, const int64_t *cb, int64_t k, int eq) {
  isl_local_space *ls = isl_local_space_from_space(isl_basic_map_get_space(*bm));
  isl_constraint *c = eq ? isl_constraint_alloc_equality(ls) : isl_constraint_alloc_inequality(ls);
  for (int d = 0; d < n; d++) {
    if (ca[d]) c = isl_constraint_set_coefficient_si(c, isl_dim_in, d, (int)ca[d]);
    if (cb[d]) c = isl_constraint_set_coefficient_si(c, isl_dim_out, d, (int)cb[d]);
  }
  c = isl_constraint_set_constant_val(c, isl_val_int_from_si(isl_basic_map_get_ctx(*bm), k));
  *bm = isl_basic_map_add_constraint(*bm, c);
  return *bm ? 0 : -1;
}

/* Returns the piece of the successor map for carry (n >= 0) or borrow
 * (n < 0) pattern `pat` (bit r: position r of the scan order carries or
 * borrows): { a -> a + delta : a in the extended box, the pattern's
 * conditions }, a translation, so applying it keeps a set free of
 * existential variables; NULL on error. Built constraint by constraint
 * (reading it from text cost about 0.5 ms a piece, 2^(n-1) pieces a map). */
static __isl_give isl_map *inst_succ_piece(const inst *x, const int64_t *digit, int neg, unsigned pat) {
  int n = x->n, last = n - 1;
  int64_t delta[AST_MAX_DIMS], in = 0, ca[AST_MAX_DIMS] = {0}, cb[AST_MAX_DIMS] = {0};
  int bad = 0;
  isl_basic_map *bm = isl_basic_map_universe(isl_space_alloc(x->ctx, 0, (unsigned)n, (unsigned)n));
  for (int r = 0; r < n && !bad; r++) {
    int d = x->m->order[r];
    int64_t sum = (neg ? -digit[r] : digit[r]) + (neg ? -in : in); /* a_d + sum, before the wrap */
    ca[d] = 1;
    if (r == last) {
      delta[d] = sum;
      bad = inst_succ_con(&bm, n, ca, cb, 0, 0) || inst_succ_con(&bm, n, ca, cb, sum, 0); /* a >= 0, a + sum >= 0 */
      ca[d] = 0;
      continue;
    }
    int c = (int)(pat >> r & 1);
    bad = inst_succ_con(&bm, n, ca, cb, 0, 0); /* 0 <= a */
    ca[d] = -1;
    bad = bad || inst_succ_con(&bm, n, ca, cb, x->E[d] - 1, 0); /* a < E */
    if (!neg) {
      delta[d] = sum - c * x->E[d];
      ca[d] = c ? 1 : -1; /* c: a + sum >= E; else a + sum < E */
      bad = bad || inst_succ_con(&bm, n, ca, cb, c ? sum - x->E[d] : x->E[d] - 1 - sum, 0);
    } else {
      delta[d] = sum + c * x->E[d];
      ca[d] = c ? -1 : 1; /* c: a + sum < 0; else a + sum >= 0 */
      bad = bad || inst_succ_con(&bm, n, ca, cb, c ? -sum - 1 : sum, 0);
    }
    ca[d] = 0;
    in = c;
  }
  for (int k = 0; k < n && !bad; k++) { /* b = a + delta */
    ca[k] = 1, cb[k] = -1;
    bad = inst_succ_con(&bm, n, ca, cb, delta[k], 1);
    ca[k] = 0, cb[k] = 0;
  }
  if (bad) {
    isl_basic_map_free(bm);
    return NULL;
  }
  return isl_map_from_basic_map(bm);
}

/* Returns the map { J -> succ(J, n) } (a copy of the memo's, built and
 * kept on first use); NULL on error. */
static __isl_give isl_map *inst_succ_map(const inst *x, int64_t n) {
  inst_succ_memo *memo = x->succ_memo;
  for (int i = 0; memo && i < memo->count; i++)
    if (memo->n[i] == n) return isl_map_copy(memo->map[i]);
  /* |n| in the mixed radix of the scan order; the slowest digit unbounded */
  int neg = n < 0;
  int64_t digit[AST_MAX_DIMS], rest = neg ? -n : n;
  for (int r = 0; r < x->n; r++) {
    int d = x->m->order[r];
    if (r == x->n - 1) digit[r] = rest;
    else {
      digit[r] = rest % x->E[d];
      rest /= x->E[d];
    }
  }
  /* one translation per carry pattern: exact, and no existential variables
   * (projecting a linear s(b) - s(a) = n would need divisions) */
  isl_map *mp = NULL;
  for (unsigned pat = 0; pat < 1u << (x->n - 1); pat++) {
    isl_map *pc = inst_succ_piece(x, digit, neg, pat);
    if (!pc) {
      isl_map_free(mp);
      return NULL;
    }
    mp = mp ? isl_map_union(mp, pc) : pc;
  }
  if (mp && memo && memo->count < INST_SUCC_MEMO) {
    memo->n[memo->count] = n;
    memo->map[memo->count++] = isl_map_copy(mp);
  }
  return mp;
}

isl_set *inst_succ(const inst *x, isl_set *s, int64_t n) {
  if (!s || n == 0) return s;
  isl_map *mp = inst_succ_map(x, n);
  if (!mp) {
    isl_set_free(s);
    return NULL;
  }
  return isl_set_coalesce(isl_set_apply(s, mp));
}

void inst_pe_rc(const inst *x, int k, int *r, int *c) {
  if (x->m->axis == MAP_AXIS_2D) {
    *r = x->tc ? k / x->tc : 0;
    *c = x->tc ? k % x->tc : 0;
  } else if (x->m->axis == MAP_AXIS_ROWS) {
    *r = k;
    *c = 0;
  } else {
    *r = 0;
    *c = k;
  }
}

int64_t inst_pe_delay(const inst *x, int k) {
  int r, c;
  inst_pe_rc(x, k, &r, &c);
  int64_t lr = x->m->axis == MAP_AXIS_COLS ? 0 : x->lk, lc = x->m->axis == MAP_AXIS_COLS ? x->lk : x->lk2;
  int64_t d0 = (lr < 0 ? -lr * (x->tr - 1) : 0) + (lc < 0 ? -lc * (x->tc - 1) : 0);
  return d0 + lr * r + lc * c;
}

isl_set *inst_split(const inst *x, isl_set *s, int k) {
  isl_set *r = isl_set_copy(s);
  int m = x->m->mapped[0];
  if (x->m->axis == MAP_AXIS_2D) {
    int pr, pc;
    inst_pe_rc(x, k, &pr, &pc);
    r = isl_set_fix_si(r, isl_dim_set, (unsigned)(x->n + m), pr);
    r = isl_set_fix_si(r, isl_dim_set, (unsigned)(x->n + x->m->mapped[1]), pc);
    r = isl_set_project_out(r, isl_dim_set, (unsigned)x->n, (unsigned)x->n);
    return isl_set_coalesce(r);
  }
  r = isl_set_fix_si(r, isl_dim_set, (unsigned)(x->n + m), k);
  r = isl_set_project_out(r, isl_dim_set, (unsigned)x->n, (unsigned)x->n);
  return isl_set_coalesce(r);
}

/* isl callback: keeps the smallest s(J) of the points of a set. */
typedef struct {
  const inst *x;
  int64_t best;
} inst_seq_acc;

/* Returns the sequence number of the lexicographic minimum in scan order. */
int64_t inst_first_seq(const inst *x, isl_set *s) {
  if (!s || isl_set_is_empty(s) != isl_bool_false) return -1;
  /* s(J) is increasing in the scan order (slowest dimension first); the
   * permutation is read once and kept in the memo */
  isl_map *scan = x->succ_memo && x->succ_memo->scan ? isl_map_copy(x->succ_memo->scan) : NULL;
  if (!scan) {
    char buf[1024];
    size_t len = 0;
    inst_cat(buf, sizeof buf, &len, "{ [");
    for (int k = 0; k < x->n; k++) inst_cat(buf, sizeof buf, &len, "%sa%d", k ? ", " : "", k);
    inst_cat(buf, sizeof buf, &len, "] -> [");
    for (int k = 0; k < x->n; k++) inst_cat(buf, sizeof buf, &len, "%sa%d", k ? ", " : "", x->m->order[x->n - 1 - k]);
    inst_cat(buf, sizeof buf, &len, "] }");
    scan = isl_map_read_from_str(x->ctx, buf);
    if (x->succ_memo) x->succ_memo->scan = isl_map_copy(scan);
  }
  isl_set *r = isl_set_apply(isl_set_copy(s), scan);
  r = isl_set_lexmin(r);
  isl_point *pt = isl_set_sample_point(r);
  int64_t seq = 0;
  for (int k = 0; k < x->n; k++) {
    isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_set, k);
    seq += x->seq[x->m->order[x->n - 1 - k]] * isl_val_get_num_si(v);
    isl_val_free(v);
  }
  isl_point_free(pt);
  return seq;
}

int64_t inst_point_seq(const inst *x, __isl_keep isl_point *pt) {
  int64_t s = 0;
  for (int k = 0; k < x->n; k++) {
    isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_set, k);
    s += x->seq[k] * isl_val_get_num_si(v);
    isl_val_free(v);
  }
  return s;
}

int inst_partition(isl_set *d, isl_set **c, int nc, isl_set ***out) {
  int n = 1, cap = 8;
  isl_set **D = malloc((size_t)cap * sizeof *D);
  if (!D || !d) {
    free(D);
    isl_set_free(d);
    return -1;
  }
  D[0] = d;
  for (int i = 0; i < nc; i++) {
    if (!c[i]) continue;
    isl_set **N = malloc((size_t)(2 * n + 1) * sizeof *N);
    int nn = 0;
    if (!N) break;
    for (int j = 0; j < n; j++) {
      isl_set *in = isl_set_coalesce(isl_set_intersect(isl_set_copy(D[j]), isl_set_copy(c[i])));
      isl_set *out2 = isl_set_coalesce(isl_set_subtract(D[j], isl_set_copy(c[i])));
      if (isl_set_is_empty(in) == isl_bool_false) N[nn++] = in;
      else isl_set_free(in);
      if (isl_set_is_empty(out2) == isl_bool_false) N[nn++] = out2;
      else isl_set_free(out2);
    }
    free(D);
    D = N;
    n = nn;
  }
  *out = D;
  return n;
}

char *inst_set_str(isl_set *s) {
  return isl_set_to_str(s);
}

/* Returns INST_OK when the largest start delay of the region, |lambda^K| *
 * (t - 1) cycles (2-D: |LR| (tr - 1) + |LC| (tc - 1)), fits the 31-bit
 * start-delay counters of the PEs and AGs (docs/timing.md 2: the PEs
 * evaluate the control signals themselves, so no signal history bounds
 * it); INST_ERR_NOFIT naming the resource otherwise. */
static int inst_delay_check(inst *x, char *msg, size_t msgsz) {
  int64_t dmax = (x->lk < 0 ? -x->lk : x->lk) * (x->t - 1);
  if (x->m->axis == MAP_AXIS_2D) /* |LR| (tr - 1) + |LC| (tc - 1) */
    dmax = (x->lk < 0 ? -x->lk : x->lk) * (x->tr - 1) + (x->lk2 < 0 ? -x->lk2 : x->lk2) * (x->tc - 1);
  if (dmax <= INT32_MAX) return INST_OK;
  return fit_nofit(&x->fit, msg, msgsz, FIT_RES_START_DELAY, "", dmax, INT32_MAX, "",
                   "start delay: the last PE starts %lld cycles after the first, "
                   "the start-delay counters count to 2^31 - 1",
                   (long long)dmax);
}

/* Returns INST_OK after evaluating extents, p, t and the schedule. */
static int inst_extents(inst *x, char *msg, size_t msgsz) {
  const map_config *m = x->m;
  for (int k = 0; k < x->n; k++) {
    int64_t lo, hi;
    if (inst_eval_pwaff(x, m->lo[k], &lo) || inst_eval_pwaff(x, m->hi[k], &hi) || hi < lo) {
      snprintf(msg, msgsz, "the loop over %s is empty or undefined for these parameter values",
               m->dim_name[k]);
      return INST_ERR_INPUT;
    }
    x->lo[k] = lo;
    x->E[k] = hi - lo + 1;
  }
  int64_t em = x->E[m->mapped[0]];
  x->ext = em;
  int treq = m->axis == MAP_AXIS_2D ? x->rows : x->t_req;
  x->p = (em + treq - 1) / treq;
  if (x->p < m->p_min[0]) x->p = m->p_min[0];
  x->t = (int)((em + x->p - 1) / x->p);
  x->E[m->mapped[0]] = x->p;
  if (m->axis == MAP_AXIS_2D) {
    int64_t ec = x->E[m->mapped[1]];
    x->ext2 = ec;
    x->p2 = (ec + x->cols - 1) / x->cols;
    if (x->p2 < m->p_min[1]) x->p2 = m->p_min[1];
    x->tr = x->t;
    x->tc = (int)((ec + x->p2 - 1) / x->p2);
    x->t = x->tr * x->tc;
    x->E[m->mapped[1]] = x->p2;
  } else {
    x->tr = m->axis ? x->t : 1;
    x->tc = m->axis ? 1 : x->t;
  }
  int64_t acc = 1;
  for (int r = 0; r < x->n; r++) {
    x->seq[m->order[r]] = acc;
    acc *= x->E[m->order[r]];
    if (acc > (1 << 30)) {
      return fit_nofit(&x->fit, msg, msgsz, FIT_RES_TILE, "", acc, 1 << 30, "",
                       "a tile of %lld iterations is too large", (long long)acc);
    }
  }
  x->P = acc;
  x->lk = map_lambda_k(m, x->E);
  x->lk2 = map_lambda_k2(m, x->E);
  return inst_delay_check(x, msg, msgsz);
}

/* Returns INST_OK after computing every fd's depth s(d) + extra; an fd
 * deeper than pe.fd_depth is split over two by a chain mov (inst_chain.c). */
static int inst_fd_depths(inst *x, char *msg, size_t msgsz) {
  for (int i = 0; i < ISA_MAX_REGS; i++) x->fd_depth[i] = 1;
  for (int i = 0; i < x->m->nregs; i++) {
    const map_regfile_entry *r = &x->m->regs[i];
    if (r->reg.cls != MAP_REG_FD) continue;
    /* an fd whose distance is at least an extent (E_m = p: tile size 1)
     * carries nothing inside the PE: never used, depth 1 */
    int dead = 0;
    for (int k = 0; k < x->n; k++) dead |= (r->d[k] < 0 ? -r->d[k] : r->d[k]) >= x->E[k];
    if (dead) continue;
    int64_t dep = map_seq_dist(x->m, r->d, x->E) + r->extra;
    if (dep > x->arch.fd_depth && dep >= 1) {
      int st = inst_chain(x, i, dep, msg, msgsz);
      if (st) return st;
      r = &x->m->regs[i];
      dep = map_seq_dist(x->m, r->d, x->E) + r->extra;
    }
    if (dep < 1 || dep > x->arch.fd_depth) {
      char where[16];
      snprintf(where, sizeof where, "fd%d", r->reg.idx);
      return fit_nofit(&x->fit, msg, msgsz, FIT_RES_FD_DEPTH, "pe.fd_depth", dep, x->arch.fd_depth, where,
                       "%s needs depth %lld, pe.fd_depth is %d", where, (long long)dep, x->arch.fd_depth);
    }
    if (r->reg.idx >= 0 && r->reg.idx < ISA_MAX_REGS) x->fd_depth[r->reg.idx] = (int)dep;
  }
  return INST_OK;
}

/* Returns INST_OK after taking the parameter values from the command line. */
static int inst_params(inst *x, int nparam, char **pname, const int64_t *pval, char *msg,
                       size_t msgsz) {
  const map_config *m = x->m;
  for (int i = 0; i < nparam; i++) {
    int k = 0;
    while (k < m->nparams && strcmp(m->param_name[k], pname[i])) k++;
    if (k == m->nparams) {
      snprintf(msg, msgsz, "program %s has no parameter '%s'", m->name, pname[i]);
      return INST_ERR_INPUT;
    }
  }
  for (int k = 0; k < m->nparams; k++) {
    int i = 0;
    while (i < nparam && strcmp(m->param_name[k], pname[i])) i++;
    if (i == nparam) {
      snprintf(msg, msgsz, "parameter %s needs a value (--param %s=VALUE)", m->param_name[k],
               m->param_name[k]);
      return INST_ERR_INPUT;
    }
    if (pval[i] < -(1 << 30) || pval[i] > (1 << 30)) {
      snprintf(msg, msgsz, "parameter %s=%lld is out of range", pname[i], (long long)pval[i]);
      return INST_ERR_INPUT;
    }
    x->params[k] = pval[i];
  }
  return INST_OK;
}

/* Returns INST_OK after checking the region shape and size. */
static int inst_region(inst *x, int rows, int cols, char *msg, size_t msgsz) {
  const map_config *m = x->m;
  if (rows < 1 || cols < 1 || (m->axis == MAP_AXIS_COLS && rows != 1) || (m->axis == MAP_AXIS_ROWS && cols != 1)) {
    if (rows > 1 && cols > 1)
      snprintf(msg, msgsz, "region %dx%d: this configuration was compiled for a %s region (compile with "
               "--map I,J for an RxC region)", rows, cols, m->axis ? "Rx1" : "1xC");
    else
    snprintf(msg, msgsz, "region %dx%d: this configuration was compiled for a %s region", rows, cols,
             m->axis ? "Rx1" : "1xC");
    return INST_ERR_INPUT;
  }
  if (rows > x->arch.rows || cols > x->arch.cols) {
    int r = rows > x->arch.rows;
    return fit_nofit(&x->fit, msg, msgsz, r ? FIT_RES_ARRAY_ROWS : FIT_RES_ARRAY_COLS, r ? "array.rows" : "array.cols",
                     r ? rows : cols, r ? x->arch.rows : x->arch.cols, "",
                     "region %dx%d does not fit the %dx%d array", rows, cols, x->arch.rows, x->arch.cols);
  }
  x->rows = rows;
  x->cols = cols;
  x->t_req = m->axis == MAP_AXIS_2D ? rows * cols : m->axis ? rows : cols;
  return INST_OK;
}

int inst_concretize(inst *x, const map_config *m, const arch_config *arch, int nparam, char **pname,
                    const int64_t *pval, int rows, int cols, char *msg, size_t msgsz) {
  memset(x, 0, sizeof *x);
  x->m = m;
  x->arch = *arch;
  x->n = m->ndims;
  x->nfu = isa_fu_count(arch);
  x->ctx = isl_ctx_alloc();
  if (!x->ctx) return INST_ERR_INTERNAL;
  x->succ_memo = calloc(1, sizeof *x->succ_memo); /* NULL: inst_succ builds every map anew */
  x->gc_memo = calloc(1, sizeof *x->gc_memo);     /* NULL: the GC terms counted anew each time */
  isl_options_set_on_error(x->ctx, ISL_ON_ERROR_CONTINUE);
  if (m->fingerprint != arch_config_fingerprint(arch)) {
    snprintf(msg, msgsz, "the configuration was compiled for another architecture (fingerprint 0x%016llx, this one 0x%016llx)",
             (unsigned long long)m->fingerprint, (unsigned long long)arch_config_fingerprint(arch));
    return INST_ERR_INPUT;
  }
  int st = inst_params(x, nparam, pname, pval, msg, msgsz);
  if (!st) st = inst_region(x, rows, cols, msg, msgsz);
  if (!st) st = inst_extents(x, msg, msgsz);
  if (!st) st = inst_fd_depths(x, msg, msgsz);
  if (st) return st;
  m = x->m; /* with its fd chains, if any */
  x->leaf = calloc((size_t)m->nleaves + 1, sizeof *x->leaf);
  x->acc = calloc((size_t)m->naccess + 1, sizeof *x->acc);
  if (!x->leaf || !x->acc) return INST_ERR_INTERNAL;
  inst_tiled_memo tm;
  if (inst_tiled_memo_init(x, &tm, m->nleaves + m->naccess)) {
    inst_tiled_memo_free(&tm);
    return INST_ERR_INTERNAL;
  }
  for (int i = 0; i < m->nleaves && !st; i++)
    if (!(x->leaf[i] = inst_tiled(x, &tm, &m->leaves[i].dom))) {
      snprintf(msg, msgsz, "PST leaf %d: its condition space cannot be concretized", i);
      st = INST_ERR_INPUT;
    }
  for (int i = 0; i < m->naccess && !st; i++)
    if (!(x->acc[i] = inst_tiled(x, &tm, &m->access[i].space))) {
      snprintf(msg, msgsz, "access %d: its space cannot be concretized", i);
      st = INST_ERR_INPUT;
    }
  inst_tiled_memo_free(&tm);
  if (st) return st;
  char buf[1024];
  size_t len = 0;
  inst_cat(buf, sizeof buf, &len, "{ [");
  for (int k = 0; k < x->n; k++) inst_cat(buf, sizeof buf, &len, "%sk%d", k ? ", " : "", k);
  inst_cat(buf, sizeof buf, &len, "] : ");
  for (int k = 0; k < x->n; k++) inst_cat(buf, sizeof buf, &len, "%s", inst_kbox(x, k));
  inst_cat(buf, sizeof buf, &len, "0 = 0 }");
  x->kdom = isl_set_read_from_str(x->ctx, buf);
  return x->kdom ? INST_OK : INST_ERR_INTERNAL;
}

void inst_fuprog_free(const inst *x, inst_fuprog *f) {
  isl_set_free(f->dom);
  if (f->folded)
    for (int i = 0; i < x->m->nleaves; i++) isl_set_free(f->folded[i]);
  free(f->folded);
  for (int i = 0; i < f->nk; i++) {
    isl_set_free(f->k[i].q);
    free(f->k[i].slot);
    free(f->k[i].op);
  }
  free(f->k);
  for (int i = 0; i < f->ne; i++) isl_set_free(f->e[i].t);
  free(f->e);
  free(f->words);
  free(f->insns);
}

void inst_free(inst *x) {
  if (!x->ctx) return;
  if (x->m) {
    for (int i = 0; x->leaf && i < x->m->nleaves; i++) isl_set_free(x->leaf[i]);
    for (int i = 0; x->acc && i < x->m->naccess; i++) isl_set_free(x->acc[i]);
    for (int i = 0; x->io && i < x->m->naccess; i++) free(x->io[i].elem_lin);
  }
  inst_io_reset(x);
  free(x->leaf);
  free(x->acc);
  free(x->io);
  isl_set_free(x->kdom);
  for (int i = 0; x->succ_memo && i < x->succ_memo->count; i++) isl_map_free(x->succ_memo->map[i]);
  if (x->succ_memo) isl_map_free(x->succ_memo->scan);
  for (int i = 0; x->succ_memo && i < x->succ_memo->ext_count; i++) isl_set_free(x->succ_memo->ext[i]);
  free(x->succ_memo);
  inst_gc_memo_free(x->gc_memo);
  for (int c = 0; c < x->npc; c++) {
    isl_set_free(x->pc[c].pes);
    for (int f = 0; x->pc[c].fp && f < x->nfu; f++) inst_fuprog_free(x, &x->pc[c].fp[f]);
    free(x->pc[c].fp);
  }
  free(x->pc);
  free(x->pe_class);
  free(x->od_cut);
  for (int s = 0; s < x->nsig; s++) inst_signal_free(x, &x->sig[s]);
  inst_chain_free(x); /* last: the frees above read x->m */
  isl_ctx_free(x->ctx);
  memset(x, 0, sizeof *x);
}
