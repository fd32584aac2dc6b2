/*
 * map_isl.c: the isl context of one compile and what it keeps
 * (docs/symbolic.md "Sets").
 *
 * A compile makes one map_isl; every try of its mapping search makes its
 * sets in it. The mapper keeps its polyhedra as text (what the .sym
 * writes), and the same texts come back in every try: the condition
 * spaces of the ops and edges, the PST's leaves, the index maps, the
 * bounds. So the context keeps, per compile, a table of the texts it was
 * asked to read, each with the isl object parsed from it once (a set, a
 * map or a piecewise affine expression), and the answers isl gave about
 * pairs of them:
 *  - equality: the texts known equal form classes (union-find, equality
 *    being an equivalence), so a pair in one class is equal without isl;
 *    two sets whose fingerprints (the points of a small grid they hold,
 *    map_isl_fp_make) differ are different without isl;
 *  - every other answer (not equal, disjoint or not) and every text made
 *    from a pair (union, intersection, coalesced) in a table keyed by the
 *    pair of texts and the question.
 * A question isl is asked once per compile for a pair of texts, however
 * many tries and steps ask it. Identical texts are one entry: equal
 * without a parse. The table only grows; it is freed with the context.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/mat.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/val.h>

#include "map.h"

/* What a text is read as. */
typedef enum { MAP_ISL_SET, MAP_ISL_MAP, MAP_ISL_PW_AFF } map_isl_kind;

/* What is kept about a pair of texts: the answers to questions (the
 * pair in either order) and the texts made from them (in that order). */
typedef enum {
  MAP_ISL_Q_EQUAL,
  MAP_ISL_Q_DISJOINT,
  MAP_ISL_T_COALESCE, /* text a coalesced (b = a) */
  MAP_ISL_T_UNION,    /* a union b, coalesced */
  MAP_ISL_T_MEET,     /* a intersected with b, coalesced; answer: empty */
  MAP_ISL_Q_CONVEX    /* 1 when a union b, coalesced, is one basic set */
} map_isl_question;

/* One text read in the context, with its object (isl_set, isl_map or
 * isl_pw_aff, owned): parsed when first asked for, or the set a step
 * made the text from (map_isl_set_text, map_isl_keep). The steps ask
 * their questions of it (isl's __isl_keep functions), which may rewrite
 * its inner form in place (normalized, redundancies marked), never the
 * set it stands for. So a text that is printed (a union, an
 * intersection, coalesced) is made from the texts parsed anew
 * (map_isl_make): the .sym stays a function of the texts alone, not of
 * the questions asked before; such a text is made once per compile and
 * pair, and kept. */
typedef struct {
  char *txt;
  uint64_t hash;
  map_isl_kind kind;
  int parsed; /* 1: obj was parsed (NULL: the text does not parse) */
  void *obj;
  int parent; /* union-find of the equality classes */
  int fp_state; /* sets: 0 fingerprint not made yet, 1 made, 2 none */
  uint64_t fp;
} map_isl_entry;

/* An answer about entries a and b: key (a, b, question) + 1, 0 for
 * empty; a text made from them (owned) or NULL. */
typedef struct {
  uint64_t key;
  int answer;
  char *txt;
} map_isl_pair;

struct map_isl_table {
  map_isl_entry *e;
  int n, cap;
  int *slot;  /* open addressing over e: index + 1, 0 for empty */
  int nslot;  /* a power of two, > 2 n */
  map_isl_pair *pair;
  int npair, cappair; /* cappair a power of two, > 2 npair */
};

map_isl *map_isl_new(void) {
  map_isl *i = calloc(1, sizeof *i);
  if (!i) return NULL;
  if (!(i->ctx = isl_ctx_alloc()) || !(i->texts = calloc(1, sizeof *i->texts))) {
    isl_ctx_free(i->ctx);
    free(i);
    return NULL;
  }
  isl_options_set_on_error(i->ctx, ISL_ON_ERROR_CONTINUE);
  i->refs = 1;
  return i;
}

map_isl *map_isl_get(map_isl *i) {
  if (i) i->refs++;
  return i;
}

/* Frees object o of kind (NULL allowed). */
static void map_isl_obj_free(void *o, map_isl_kind kind) {
  switch (kind) {
  case MAP_ISL_SET: isl_set_free(o); break;
  case MAP_ISL_MAP: isl_map_free(o); break;
  case MAP_ISL_PW_AFF: isl_pw_aff_free(o); break;
  }
}

/* Frees what entry e owns. */
static void map_isl_entry_free(map_isl_entry *e) {
  map_isl_obj_free(e->obj, e->kind);
  free(e->txt);
}

void map_isl_put(map_isl *i) {
  if (!i || --i->refs > 0) return;
  struct map_isl_table *t = i->texts;
  for (int k = 0; k < t->n; k++) map_isl_entry_free(&t->e[k]);
  for (int k = 0; k < t->cappair; k++) free(t->pair[k].txt);
  free(t->e);
  free(t->slot);
  free(t->pair);
  free(t);
  isl_ctx_free(i->ctx);
  free(i);
}

/* Returns the FNV-1a hash of text s read as kind. */
static uint64_t map_isl_hash(const char *s, map_isl_kind kind) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)kind;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* Returns 0 after doubling t's slots (rehashing the entries), -1 out of
 * memory. */
static int map_isl_rehash(struct map_isl_table *t) {
  int n = t->nslot ? 2 * t->nslot : 64;
  int *s = calloc((size_t)n, sizeof *s);
  if (!s) return -1;
  for (int k = 0; k < t->n; k++) {
    size_t h = (size_t)t->e[k].hash & (size_t)(n - 1);
    while (s[h]) h = (h + 1) & (size_t)(n - 1);
    s[h] = k + 1;
  }
  free(t->slot);
  t->slot = s;
  t->nslot = n;
  return 0;
}

/* Returns the object parsed from txt as kind in ctx (NULL: no parse). */
static void *map_isl_parse(isl_ctx *ctx, const char *txt, map_isl_kind kind) {
  switch (kind) {
  case MAP_ISL_SET: return isl_set_read_from_str(ctx, txt);
  case MAP_ISL_MAP: return isl_map_read_from_str(ctx, txt);
  case MAP_ISL_PW_AFF: return isl_pw_aff_read_from_str(ctx, txt);
  }
  return NULL;
}

/* Returns the index of txt's entry of kind in i's table, made on the
 * first ask (nothing parsed yet); -1 out of memory or without a text. */
static int map_isl_entry_of(map_isl *i, const char *txt, map_isl_kind kind) {
  struct map_isl_table *t = i->texts;
  if (!txt) return -1;
  uint64_t h = map_isl_hash(txt, kind);
  if (t->nslot) {
    for (size_t s = (size_t)h & (size_t)(t->nslot - 1); t->slot[s]; s = (s + 1) & (size_t)(t->nslot - 1)) {
      const map_isl_entry *e = &t->e[t->slot[s] - 1];
      if (e->hash == h && e->kind == kind && !strcmp(e->txt, txt)) return t->slot[s] - 1;
    }
  }
  if (2 * (t->n + 1) >= t->nslot && map_isl_rehash(t)) return -1;
  if (t->n == t->cap) {
    int cap = t->cap ? 2 * t->cap : 64;
    map_isl_entry *e = realloc(t->e, (size_t)cap * sizeof *e);
    if (!e) return -1;
    t->e = e;
    t->cap = cap;
  }
  map_isl_entry *e = &t->e[t->n];
  if (!(e->txt = map_strdup(txt))) return -1;
  e->hash = h;
  e->kind = kind;
  e->parsed = 0;
  e->obj = NULL;
  e->fp_state = 0;
  e->fp = 0;
  e->parent = t->n;
  size_t s = (size_t)h & (size_t)(t->nslot - 1);
  while (t->slot[s]) s = (s + 1) & (size_t)(t->nslot - 1);
  t->slot[s] = t->n + 1;
  return t->n++;
}

/* Returns entry e's question object, parsed on the first call; NULL
 * when its text does not parse. */
static void *map_isl_entry_obj(map_isl *i, map_isl_entry *e) {
  if (!e->parsed) {
    e->obj = map_isl_parse(i->ctx, e->txt, e->kind);
    e->parsed = 1;
  }
  return e->obj;
}

/* Returns the question object of txt as kind (kept by i), or NULL. */
static void *map_isl_obj(map_isl *i, const char *txt, map_isl_kind kind) {
  if (!i) return NULL;
  int k = map_isl_entry_of(i, txt, kind);
  return k < 0 ? NULL : map_isl_entry_obj(i, &i->texts->e[k]);
}

__isl_keep isl_set *map_isl_set(map_isl *i, const char *txt) { return map_isl_obj(i, txt, MAP_ISL_SET); }

__isl_keep isl_map *map_isl_map(map_isl *i, const char *txt) { return map_isl_obj(i, txt, MAP_ISL_MAP); }

__isl_keep isl_pw_aff *map_isl_pw_aff(map_isl *i, const char *txt) { return map_isl_obj(i, txt, MAP_ISL_PW_AFF); }

/* Returns the representative of entry k's equality class. */
static int map_isl_class(struct map_isl_table *t, int k) {
  while (t->e[k].parent != k) k = t->e[k].parent = t->e[t->e[k].parent].parent;
  return k;
}

/* Returns the key of the pair (a, b) and question q (either order for
 * the questions Q_EQUAL and Q_DISJOINT). */
static uint64_t map_isl_pair_key(int a, int b, map_isl_question q) {
  if (a > b && q <= MAP_ISL_Q_DISJOINT) {
    int c = a;
    a = b;
    b = c;
  }
  return (((uint64_t)a << 34) | ((uint64_t)b << 3) | (uint64_t)q) + 1;
}

/* Returns the slot of key in t's pairs: its own or the empty one where
 * it goes. */
static size_t map_isl_pair_slot(const struct map_isl_table *t, uint64_t key) {
  size_t m = (size_t)t->cappair - 1, s = (size_t)(key * 0x9e3779b97f4a7c15ull >> 17) & m;
  while (t->pair[s].key && t->pair[s].key != key) s = (s + 1) & m;
  return s;
}

/* Returns the pair of key in t, or NULL when none is kept. */
static const map_isl_pair *map_isl_pair_get(const struct map_isl_table *t, uint64_t key) {
  if (!t->cappair) return NULL;
  const map_isl_pair *p = &t->pair[map_isl_pair_slot(t, key)];
  return p->key ? p : NULL;
}

/* Keeps answer r to the pair's question and text txt (copied; NULL
 * allowed); nothing when out of memory: the table is only a memo. */
static void map_isl_pair_put(struct map_isl_table *t, uint64_t key, int r, const char *txt) {
  if (2 * (t->npair + 1) >= t->cappair) {
    int cap = t->cappair ? 2 * t->cappair : 256;
    map_isl_pair *old = t->pair, *p = calloc((size_t)cap, sizeof *p);
    int n = t->cappair;
    if (!p) return;
    t->pair = p;
    t->cappair = cap;
    for (int k = 0; k < n; k++)
      if (old[k].key) t->pair[map_isl_pair_slot(t, old[k].key)] = old[k];
    free(old);
  }
  size_t s = map_isl_pair_slot(t, key);
  char *c = NULL;
  if (txt && !(c = map_strdup(txt))) return;
  if (!t->pair[s].key) t->npair++;
  free(t->pair[s].txt);
  t->pair[s].key = key;
  t->pair[s].answer = r;
  t->pair[s].txt = c;
}

/* The fingerprint of a set: which points of a small grid it holds, every
 * parameter set to v and every set dimension in -1 .. v, v the largest
 * of MAP_ISL_FP_V down to 2 for which the grid has at most MAP_ISL_FP_PTS
 * points (none for sets of more dimensions). Two equal sets hold the
 * same points, so two different fingerprints prove two sets different
 * without asking isl (most pairs the steps compare are different sets:
 * the PST's leaf conditions). Taken from the constraints of the set's
 * basic sets, which must have no existentially quantified variables
 * (else no fingerprint: isl decides). */
#define MAP_ISL_FP_V 12
#define MAP_ISL_FP_PTS 8192

/* A basic set's constraints, columns [constant, params, dims]. */
typedef struct {
  int neq, nineq, ncol;
  int64_t *eq, *ineq; /* neq (nineq) rows of ncol */
} map_isl_fp_bset;

typedef struct {
  map_isl_fp_bset *b;
  int n, cap, ok;
} map_isl_fp_sets;

/* Returns 0 after copying mat's rows into *rows (ncol each), -1 when an
 * entry is not a small integer or memory runs out. */
static int map_isl_fp_rows(__isl_take isl_mat *mat, int64_t **rows, int *nrows, int ncol) {
  isl_size r = mat ? isl_mat_rows(mat) : -1, c = mat ? isl_mat_cols(mat) : -1;
  int st = r < 0 || c != ncol ? -1 : 0;
  *rows = st ? NULL : malloc(((size_t)r * (size_t)ncol + 1) * sizeof **rows);
  if (!*rows) st = -1;
  for (int i = 0; i < r && !st; i++)
    for (int j = 0; j < ncol && !st; j++) {
      isl_val *v = isl_mat_get_element_val(mat, i, j);
      if (!v || isl_val_is_int(v) != isl_bool_true) {
        st = -1;
      } else {
        long x = isl_val_get_num_si(v);
        if (x > (1L << 30) || x < -(1L << 30)) st = -1;
        else (*rows)[(size_t)i * (size_t)ncol + (size_t)j] = x;
      }
      isl_val_free(v);
    }
  *nrows = st ? 0 : r;
  isl_mat_free(mat);
  return st;
}

/* isl_set_foreach_basic_set callback: appends bset's constraints to the
 * map_isl_fp_sets *user (its ok cleared when it has existentials). */
static isl_stat map_isl_fp_bset_add(__isl_take isl_basic_set *bset, void *user) {
  map_isl_fp_sets *f = user;
  isl_size nd = isl_basic_set_dim(bset, isl_dim_div), np = isl_basic_set_dim(bset, isl_dim_param),
           ns = isl_basic_set_dim(bset, isl_dim_set);
  int ncol = 1 + np + ns;
  map_isl_fp_bset *b = NULL;
  if (nd != 0 || np < 0 || ns < 0) f->ok = 0;
  if (f->ok && f->n == f->cap) {
    int cap = f->cap ? 2 * f->cap : 4;
    map_isl_fp_bset *nb = realloc(f->b, (size_t)cap * sizeof *nb);
    if (nb) f->b = nb, f->cap = cap;
    else f->ok = 0;
  }
  if (f->ok) {
    b = &f->b[f->n++];
    memset(b, 0, sizeof *b);
    b->ncol = ncol;
    if (map_isl_fp_rows(isl_basic_set_equalities_matrix(bset, isl_dim_cst, isl_dim_param, isl_dim_set, isl_dim_div),
                        &b->eq, &b->neq, ncol) ||
        map_isl_fp_rows(isl_basic_set_inequalities_matrix(bset, isl_dim_cst, isl_dim_param, isl_dim_set,
                                                          isl_dim_div),
                        &b->ineq, &b->nineq, ncol))
      f->ok = 0;
  }
  isl_basic_set_free(bset);
  return f->ok ? isl_stat_ok : isl_stat_error;
}

/* Returns 1 when row (ncol) evaluated at x (x[0] = 1) is zero (eq) or
 * non-negative. */
static int map_isl_fp_row_holds(const int64_t *row, const int64_t *x, int ncol, int eq) {
  int64_t s = 0;
  for (int j = 0; j < ncol; j++) s += row[j] * x[j];
  return eq ? s == 0 : s >= 0;
}

/* Returns 1 when basic set b holds point x. */
static int map_isl_fp_holds(const map_isl_fp_bset *b, const int64_t *x) {
  for (int i = 0; i < b->neq; i++)
    if (!map_isl_fp_row_holds(b->eq + (size_t)i * (size_t)b->ncol, x, b->ncol, 1)) return 0;
  for (int i = 0; i < b->nineq; i++)
    if (!map_isl_fp_row_holds(b->ineq + (size_t)i * (size_t)b->ncol, x, b->ncol, 0)) return 0;
  return 1;
}

/* Returns 0 after setting *fp to set s's fingerprint, -1 when it has none. */
static int map_isl_fp_make(__isl_keep isl_set *s, uint64_t *fp) {
  isl_size np = isl_set_dim(s, isl_dim_param), ns = isl_set_dim(s, isl_dim_set);
  if (np < 0 || ns < 0) return -1;
  int v = MAP_ISL_FP_V;
  long pts = 1;
  for (; v >= 2; v--) {
    pts = 1;
    for (int k = 0; k < ns && pts <= MAP_ISL_FP_PTS; k++) pts *= v + 2;
    if (pts <= MAP_ISL_FP_PTS) break;
  }
  if (v < 2) return -1;
  map_isl_fp_sets f = {NULL, 0, 0, 1};
  int64_t x[1 + 2 * 64];
  if (1 + np + ns > (isl_size)(sizeof x / sizeof *x) || isl_set_foreach_basic_set(s, &map_isl_fp_bset_add, &f) < 0)
    f.ok = 0;
  uint64_t h = 1469598103934665603ull;
  x[0] = 1;
  for (int k = 0; k < np; k++) x[1 + k] = v;
  for (long p = 0; p < pts && f.ok; p++) {
    long q = p;
    for (int k = 0; k < ns; k++, q /= v + 2) x[1 + np + k] = q % (v + 2) - 1;
    int in = 0;
    for (int b = 0; b < f.n && !in; b++) in = map_isl_fp_holds(&f.b[b], x);
    h = (h ^ (uint64_t)(in + 1)) * 1099511628211ull;
  }
  for (int b = 0; b < f.n; b++) {
    free(f.b[b].eq);
    free(f.b[b].ineq);
  }
  free(f.b);
  *fp = h;
  return f.ok ? 0 : -1;
}

/* Returns 1 when entries a and b (sets) have fingerprints and they
 * differ: the sets are different. */
static int map_isl_fp_differ(map_isl *i, map_isl_entry *a, map_isl_entry *b) {
  map_isl_entry *e[2] = {a, b};
  for (int k = 0; k < 2; k++)
    if (!e[k]->fp_state) {
      void *o = map_isl_entry_obj(i, e[k]);
      e[k]->fp_state = o && !map_isl_fp_make(o, &e[k]->fp) ? 1 : 2;
    }
  return a->fp_state == 1 && b->fp_state == 1 && a->fp != b->fp;
}

/* Returns isl's answer to question q on the objects of entries a and b
 * (of one kind), 0 when not or on an error. */
static int map_isl_ask(map_isl *i, map_isl_entry *a, map_isl_entry *b, map_isl_question q) {
  isl_bool r = isl_bool_error;
  void *x = map_isl_entry_obj(i, a), *y = map_isl_entry_obj(i, b);
  if (!x || !y) return 0;
  if (a->kind == MAP_ISL_SET && q == MAP_ISL_Q_EQUAL && map_isl_fp_differ(i, a, b)) return 0;
  if (a->kind == MAP_ISL_SET && q == MAP_ISL_Q_EQUAL) r = isl_set_is_equal(x, y);
  else if (a->kind == MAP_ISL_SET) r = isl_set_is_disjoint(x, y);
  else if (a->kind == MAP_ISL_MAP && q == MAP_ISL_Q_EQUAL) r = isl_map_is_equal(x, y);
  else if (a->kind == MAP_ISL_MAP) r = isl_map_is_disjoint(x, y);
  return r == isl_bool_true;
}

/* Returns isl's answer to question q about texts a and b read as kind,
 * asked at most once per compile (see the top of this file). */
static int map_isl_pair_ask(map_isl *i, const char *a, const char *b, map_isl_kind kind, map_isl_question q) {
  if (!i || !a || !b) return 0;
  int x = map_isl_entry_of(i, a, kind), y = map_isl_entry_of(i, b, kind);
  if (x < 0 || y < 0) return 0;
  struct map_isl_table *t = i->texts;
  if (q == MAP_ISL_Q_EQUAL) {
    x = map_isl_class(t, x);
    y = map_isl_class(t, y);
    if (x == y) return map_isl_entry_obj(i, &t->e[x]) != NULL;
  }
  uint64_t key = map_isl_pair_key(x, y, q);
  const map_isl_pair *p = map_isl_pair_get(t, key);
  if (p) return p->answer;
  int r = map_isl_ask(i, &t->e[x], &t->e[y], q);
  if (q == MAP_ISL_Q_EQUAL && r) t->e[y].parent = x;
  else map_isl_pair_put(t, key, r, NULL);
  return r;
}

int map_isl_set_equal(map_isl *i, const char *a, const char *b) {
  return map_isl_pair_ask(i, a, b, MAP_ISL_SET, MAP_ISL_Q_EQUAL);
}

int map_isl_map_equal(map_isl *i, const char *a, const char *b) {
  return map_isl_pair_ask(i, a, b, MAP_ISL_MAP, MAP_ISL_Q_EQUAL);
}

int map_isl_set_disjoint(map_isl *i, const char *a, const char *b) {
  return map_isl_pair_ask(i, a, b, MAP_ISL_SET, MAP_ISL_Q_DISJOINT);
}

/* Returns the text of set u (taken), coalesced, as a new string, and
 * the set in *out; with `empty`, *empty is set when u is empty (asked
 * after coalescing, as the steps always did). NULL on an error. */
static char *map_isl_set_str(__isl_take isl_set *u, int *empty, __isl_give isl_set **out) {
  char *s, *c;
  u = isl_set_coalesce(u);
  if (!u) return NULL;
  if (empty) *empty = isl_set_is_empty(u) == isl_bool_true;
  s = isl_set_to_str(u);
  c = map_strdup(s);
  free(s);
  *out = u;
  return c;
}

/* Keeps set u (taken) as the object of text txt when it has none yet:
 * the questions about txt need no parse. */
static void map_isl_keep(map_isl *i, const char *txt, __isl_take isl_set *u) {
  int k = txt && u ? map_isl_entry_of(i, txt, MAP_ISL_SET) : -1;
  if (k >= 0 && !i->texts->e[k].parsed) {
    i->texts->e[k].obj = u;
    i->texts->e[k].parsed = 1;
  } else {
    isl_set_free(u);
  }
}

/* Returns the text made by op from texts a and b, each parsed anew
 * (see map_isl_entry), as a new string, and its set in *out; *answer
 * set to the op's figure (T_MEET: empty; Q_CONVEX: one basic set, the
 * text ""); NULL on an error. */
static char *map_isl_make(isl_ctx *ctx, const char *a, const char *b, map_isl_question op, int *answer,
                          __isl_give isl_set **out) {
  isl_set *x = isl_set_read_from_str(ctx, a), *u;
  *answer = 0;
  *out = NULL;
  if (op == MAP_ISL_T_COALESCE) return map_isl_set_str(x, NULL, out);
  isl_set *y = isl_set_read_from_str(ctx, b);
  if (op == MAP_ISL_T_MEET) return map_isl_set_str(isl_set_intersect(x, y), answer, out);
  u = isl_set_union(x, y);
  if (op == MAP_ISL_T_UNION) return map_isl_set_str(u, NULL, out);
  u = isl_set_coalesce(u); /* Q_CONVEX */
  isl_size n = u ? isl_set_n_basic_set(u) : 0;
  isl_set_free(u);
  *answer = n == 1;
  return map_strdup("");
}

/* Returns the text op makes of texts a and b (a new string, NULL on an
 * error), made once per compile and pair, *answer its figure. */
static char *map_isl_text(map_isl *i, const char *a, const char *b, map_isl_question op, int *answer) {
  *answer = 0;
  if (!i || !a || !b) return NULL;
  int x = map_isl_entry_of(i, a, MAP_ISL_SET), y = map_isl_entry_of(i, b, MAP_ISL_SET);
  if (x < 0 || y < 0) return NULL;
  uint64_t key = map_isl_pair_key(x, y, op);
  const map_isl_pair *p = map_isl_pair_get(i->texts, key);
  if (p) {
    *answer = p->answer;
    return map_strdup(p->txt);
  }
  isl_set *u;
  char *txt = map_isl_make(i->ctx, a, b, op, answer, &u);
  if (txt) map_isl_pair_put(i->texts, key, *answer, txt);
  if (op != MAP_ISL_Q_CONVEX) map_isl_keep(i, txt, u);
  else isl_set_free(u);
  return txt;
}

char *map_isl_set_text(map_isl *i, __isl_take isl_set *s) {
  isl_set *u = NULL;
  char *txt = s ? map_isl_set_str(s, NULL, &u) : NULL;
  if (i) map_isl_keep(i, txt, u);
  else isl_set_free(u);
  return txt;
}

char *map_isl_set_coalesce_text(map_isl *i, const char *a) {
  int unused;
  return map_isl_text(i, a, a, MAP_ISL_T_COALESCE, &unused);
}

char *map_isl_set_union_text(map_isl *i, const char *a, const char *b) {
  int unused;
  return map_isl_text(i, a, b, MAP_ISL_T_UNION, &unused);
}

char *map_isl_set_meet_text(map_isl *i, const char *a, const char *b, int *empty) {
  return map_isl_text(i, a, b, MAP_ISL_T_MEET, empty);
}

int map_isl_set_union_convex(map_isl *i, const char *a, const char *b) {
  int convex;
  free(map_isl_text(i, a, b, MAP_ISL_Q_CONVEX, &convex));
  return convex;
}
