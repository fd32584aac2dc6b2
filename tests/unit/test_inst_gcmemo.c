/* covers: docs/instantiate.md "Control signals and the loop bounds" */
/*
 * test_inst_gcmemo.c: the memo of each control signal's GC terms
 * (x->gc_memo, inst_emit.c; docs/instantiate.md "Control signals and the
 * loop bounds"). For a table of instantiations whose signals are coloured
 * per processor class (PE ranges, merged pieces, inverted polarities):
 * every signal's count and the whole stream equal those built without the
 * memo (x->gc_memo NULL: each form built anew for every count, as before
 * the memo; gcd N=7 S=5 on 1x2 of configs/big1d.ini is a case where
 * taking the hull pass's pieces when no pair merges changes the stream);
 * a change of a signal's sets the memo is not told of (its ones and zeros
 * swapped by hand, a set freed and built anew) is seen, and swapping back
 * finds the first entry again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst.h"
#include "parse.h"
#include "rdg.h"
#include "sym.h"
#include "test.h"

/* One instantiation: a program mapped at II `ii` (0: the mapper's) with
 * its accumulations padded or not, on a 1-D region (rdim < 0) or tiled
 * rows rdim, columns cdim, of configuration `arch` (NULL: the default). */
typedef struct {
  const char *arch, *file;
  int pad, ii, rdim, cdim;
  int np;
  const char *pn[3];
  int64_t pv[3];
  int rows, cols;
} gcm_case;

static const gcm_case cases[] = {
    {NULL, "regress/programs/trimv.pla", 1, 3, -1, -1, 1, {"N"}, {7}, 1, 2},
    {NULL, "regress/programs/trimv.pla", 1, 3, -1, -1, 1, {"N"}, {7}, 1, 3},
    {NULL, "regress/programs/trimv.pla", 1, 3, -1, -1, 1, {"N"}, {7}, 1, 4},
    {NULL, "regress/programs/matmul.pla", 0, 0, 0, 1, 3, {"N", "M", "K"}, {4, 4, 4}, 2, 2},
    {NULL, "regress/programs/fir.pla", 0, 0, 0, 1, 2, {"N", "T"}, {13, 5}, 2, 2},
    {"configs/big1d.ini", "regress/programs/gcd.pla", 0, 0, -1, -1, 2, {"N", "S"}, {7, 5}, 1, 2},
    {"configs/big1d.ini", "regress/programs/jacobi.pla", 0, 0, -1, -1, 2, {"T", "N"}, {8, 9}, 1, 3},
    {"configs/big1d.ini", "regress/programs/trimv.pla", 0, 0, -1, -1, 1, {"N"}, {7}, 1, 3},
};

/* Returns the stream of x (malloc'ed, *len bytes), NULL when it is not
 * written. */
static uint8_t *gcm_stream(inst *x, const arch_config *a, size_t *len) {
  stream_writer w;
  char msg[512];
  uint8_t *buf = NULL;
  stream_writer_init(&w, a);
  if (inst_emit(x, NULL, &w, msg, sizeof msg) != INST_OK || stream_writer_finish(&w, &buf, len) != STREAM_OK) {
    free(buf);
    buf = NULL;
  }
  stream_writer_free(&w);
  return buf;
}

/* Returns the GC terms of signal s counted without the memo. */
static int gcm_fresh(inst *x, int s) {
  inst_gc_memo *mm = x->gc_memo;
  x->gc_memo = NULL;
  int n = inst_gc_sig_nterms(x, s);
  x->gc_memo = mm;
  return n;
}

/* Swaps the ones and zeros of signal s by hand (not through the polarity
 * step, so the memo is not told). */
static void gcm_swap(inst *x, int s) {
  inst_signal *g = &x->sig[s];
  for (int c = 0; c < x->npc; c++) {
    isl_set *t = g->ones[c];
    g->ones[c] = g->zeros[c];
    g->zeros[c] = t;
  }
  isl_set *t = g->ones_all;
  g->ones_all = g->zeros_all;
  g->zeros_all = t;
}

/* Checks the memo of instantiation i against counts and streams built
 * without it, and against changes of a signal's sets. */
static void gcm_check(int i, inst *x, const arch_config *a) {
  TEST_CHECK(x->gc_memo != NULL, "case %d: the inst has a memo", i);
  if (!x->gc_memo) return;
  int total = 0, flipped = -1;
  for (int s = 0; s < x->nsig; s++) {
    int n = inst_gc_sig_nterms(x, s), f = gcm_fresh(x, s);
    TEST_CHECK(n == f && n >= 0 && x->gc_memo->e[s][0].used, "case %d signal %d: %d terms from the memo, %d without",
               i, s, n, f);
    total += n;
    if (flipped >= 0 || !x->sig[s].ones || !x->sig[s].zeros || (x->prolog_loop && s == x->prolog_sig)) continue;
    gcm_swap(x, s); /* a change the memo is not told of */
    int m = inst_gc_sig_nterms(x, s), mf = gcm_fresh(x, s);
    TEST_CHECK(m == mf, "case %d signal %d swapped by hand: %d terms from the memo, %d without", i, s, m, mf);
    if (m != n) flipped = s;
    gcm_swap(x, s);
    TEST_CHECK(inst_gc_sig_nterms(x, s) == n && x->gc_memo->e[s][1].used,
               "case %d signal %d swapped back: %d terms again, the other polarity kept", i, s, n);
  }
  TEST_CHECK(flipped >= 0, "case %d: some signal's swapped sets take another number of terms", i);
  TEST_CHECK(inst_gc_nterms(x) == total, "case %d: %d terms in all (%d)", i, total, inst_gc_nterms(x));
  size_t l1 = 0, l2 = 0;
  uint8_t *s1 = gcm_stream(x, a, &l1);
  inst_gc_memo *mm = x->gc_memo;
  x->gc_memo = NULL;
  uint8_t *s2 = gcm_stream(x, a, &l2);
  x->gc_memo = mm;
  TEST_CHECK(s1 && s2 && l1 == l2 && !memcmp(s1, s2, l1), "case %d: the stream (%zu bytes) equals the one without the memo (%zu)",
             i, l1, l2);
  free(s1);
  free(s2);
  /* a set freed and built anew (the same set): the memo builds the terms again */
  if (x->nsig > 0 && x->sig[0].ones && x->sig[0].ones[0]) {
    isl_set *old = x->sig[0].ones[0];
    char *txt = isl_set_to_str(old);
    x->sig[0].ones[0] = isl_set_read_from_str(x->ctx, txt);
    free(txt);
    isl_set_free(old);
    int n = inst_gc_sig_nterms(x, 0);
    TEST_CHECK(x->gc_memo->e[0][0].key && x->gc_memo->e[0][0].key[0] == x->sig[0].ones[0] && n == gcm_fresh(x, 0),
               "case %d: signal 0 with a set built anew: its terms built again (%d)", i, n);
  }
}

/* Maps and instantiates case i, then checks its memo. */
static void gcm_case_run(int i) {
  const gcm_case *k = &cases[i];
  ast_program *p = parse_file(k->file);
  rdg *g = p ? rdg_build(p) : NULL;
  arch_config a = arch_config_default();
  map_config m;
  char msg[512] = "";
  if (k->arch && arch_config_load(k->arch, &a) != 0) {
    TEST_CHECK(0, "case %d: %s loads", i, k->arch);
    g = NULL;
  }
  map_opts o = {.pad = k->pad};
  int st = !g ? -1
           : k->rdim >= 0 ? map_build_2d(p, g, &a, k->rdim, k->cdim, &m, msg, sizeof msg)
                          : map_build_level(p, g, &a, 0, 0, -1, k->ii, 0, &o, &m, msg, sizeof msg);
  TEST_CHECK(st == MAP_OK, "case %d: %s maps (%s)", i, k->file, msg);
  if (st == MAP_OK) {
    inst x;
    st = inst_run(&x, &m, &a, k->np, (char **)k->pn, k->pv, k->rows, k->cols, msg, sizeof msg);
    TEST_CHECK(st == INST_OK && x.sig_by_class, "case %d: instantiates on %dx%d, signals per class (%s)", i,
               k->rows, k->cols, msg);
    if (st == INST_OK && x.sig_by_class) gcm_check(i, &x, &a);
    inst_free(&x);
    map_config_free(&m);
  }
  rdg_free(g);
  ast_program_free(p);
}

int main(void) {
  for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) gcm_case_run(i);
  return test_done();
}
