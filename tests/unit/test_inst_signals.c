/* covers: docs/instantiate.md "Control signals and the loop bounds",
 *   "The paper's running example", docs/timing.md "2. Global controller" */
/*
 * test_inst_signals.c: the control signals of instantiation
 * (inst_signals.c; docs/instantiate.md "Control signals and the loop
 * bounds"): the running example's one signal (inst_fixture.h); its count
 * against gc.signals and gc.history for perfect and imperfect tilings;
 * the polarity of each signal and merged pieces bringing trimv's GC terms
 * within 2 x gc.signals; and the retry without waits run only for the
 * shortfalls sharing decides.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst.h"
#include "inst_fixture.h"
#include "parse.h"
#include "rdg.h"
#include "test.h"

/* The running example's control signal (paper, section 6.2): q2 of alu1
 * has one, cs1 = 1 at j = 4 and 0 at 1 <= j <= 3. */
static void test_paper_signal(void) {
  arch_config cfg;
  map_config m;
  inst x;
  if (!paper_ok(&x, &m, &cfg)) return;
  inst_fuprog *a1 = x.npc == 2 ? &x.pc[0].fp[1] : NULL;
  TEST_CHECK(a1 && a1->nk == 4 && a1->k[1].nsig == 1 && x.nsig >= 1, "q2 has one control signal");
  if (a1 && a1->nk == 4 && a1->k[1].nsig == 1) {
    const inst_signal *s = &x.sig[a1->k[1].sig[0]];
    isl_set *care = isl_set_read_from_str(x.ctx, "{ [j0] : 1 <= j0 <= 4 }");
    isl_set *on = isl_set_intersect(isl_set_copy(s->ones[0]), isl_set_copy(care));
    isl_set *off = isl_set_intersect(isl_set_copy(s->zeros[0]), care);
    TEST_CHECK(set_is(&x, on, "{ [j0 = 4] }") && set_is(&x, off, "{ [j0] : 1 <= j0 <= 3 }"),
               "cs1 = 1 at j = 4, 0 at 1..3 (section 6.2)");
    isl_set_free(on);
    isl_set_free(off);
  }
  inst_free(&x);
  map_config_free(&m);
}

/* The running example on 1x3 against the control path's limits
 * (docs/timing.md 2, docs/instantiate.md "Control signals and the loop
 * bounds"): gc.history (legacy) bounds no start delay; with no signal
 * available (gc.signals 0, below the key's range, to force the exit) the
 * count is the same for perfect and imperfect tilings, and the message
 * names no imperfect tiling. */
static void test_signals_bounds(void) {
  static const struct {
    int64_t n;
    int signals, history, want;
    const char *msg; /* in the message; NULL: no "imperfect" in it */
  } cases[] = {
      /* p 20: the last PE starts 80 cycles late, beyond 1 step of ii 2 */
      {60, 8, 2, INST_OK, NULL},
      /* 6 + 6 + 6, perfect: 2 signals */
      {18, 0, 128, INST_ERR_NOFIT, "control signals: 2 needed"},
      /* the partial last tile needs no signal of its own: its parts are
       * told apart by the GC terms' PE ranges (docs/instantiate.md
       * "Control signals and the loop bounds"), so no "imperfect" either */
      {16, 0, 128, INST_ERR_NOFIT, "control signals: 2 needed (greedy colouring of 6 local signals; "
                                   "processor class 0 needs 2), gc.signals is 0"},
      {13, 0, 128, INST_ERR_NOFIT, "control signals: 2 needed"},
  };
  FILE *f = fmemopen((void *)paper_sym, strlen(paper_sym), "r");
  map_config m;
  char msg[512];
  int rd = sym_read(f, &m, msg, sizeof msg);
  fclose(f);
  TEST_CHECK(rd == 0, "the paper's PST reads as a .sym (%s)", msg);
  if (rd) return;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arch_config cfg;
    arch_config_load_default(&cfg);
    cfg.gc_signals = cases[i].signals;
    cfg.gc_history = cases[i].history;
    m.fingerprint = arch_config_fingerprint(&cfg);
    inst x;
    char *pn[1] = {"N"};
    int64_t pv[1] = {cases[i].n};
    int st = inst_run(&x, &m, &cfg, 1, pn, pv, 1, 3, msg, sizeof msg);
    int named = st == INST_OK ? msg[0] == 0 : strstr(msg, cases[i].msg) != NULL;
    if (st != INST_OK) named = named && strstr(msg, "imperfect") == NULL;
    TEST_CHECK(st == cases[i].want && named,
               "N=%lld, gc.signals %d, gc.history %d: status %d (want %d): %s", (long long)cases[i].n,
               cases[i].signals, cases[i].history, st, cases[i].want, msg);
    inst_free(&x);
  }
  map_config_free(&m);
}

/* Signal polarity (inst_signals_polarity) and merged pieces
 * (inst_emit.c): trimv N = 7 with its accumulation padded, at II 3 on
 * 1x2, takes 20 GC terms with every signal as coloured and at most 16
 * (2 x gc.signals) once the signals whose zeros take fewer terms are
 * inverted; choosing again inverts nothing more. */
static void test_polarity(void) {
  ast_program *p = parse_file("regress/programs/trimv.pla");
  rdg *g = p ? rdg_build(p) : NULL;
  arch_config a = arch_config_default();
  map_config m;
  char msg[512];
  map_opts o = {.pad = 1};
  int st = g ? map_build_level(p, g, &a, 0, 0, -1, 3, 0, &o, &m, msg, sizeof msg) : -1;
  TEST_CHECK(st == MAP_OK && m.ii == 3, "trimv padded maps at II 3 (st %d: %s)", st, msg);
  if (st != MAP_OK) goto done;
  inst x;
  char *pn[1] = {"N"};
  int64_t pv[1] = {7};
  st = inst_run(&x, &m, &a, 1, pn, pv, 1, 2, msg, sizeof msg);
  TEST_CHECK(st == INST_OK, "trimv N=7 padded instantiates on 1x2 at II 3 (%s)", msg);
  if (st == INST_OK) {
    int n = inst_gc_nterms(&x);
    TEST_CHECK(n >= 0 && n <= 2 * a.gc_signals, "GC terms %d <= %d", n, 2 * a.gc_signals);
    inst_signals_polarity(&x);
    TEST_CHECK(inst_gc_nterms(&x) == n, "polarity chosen again: still %d terms (%d)", n, inst_gc_nterms(&x));
    inst_free(&x);
  }
  /* 1x3: 19 terms with the polarity alone; pieces merged into their
   * hull where it meets no zero (inst_gc_merge) bring it within 16 */
  st = inst_run(&x, &m, &a, 1, pn, pv, 1, 3, msg, sizeof msg);
  TEST_CHECK(st == INST_OK, "trimv N=7 padded instantiates on 1x3 at II 3 (%s)", msg);
  if (st == INST_OK) {
    int n = inst_gc_nterms(&x);
    TEST_CHECK(n >= 0 && n <= 2 * a.gc_signals, "1x3: GC terms %d <= %d", n, 2 * a.gc_signals);
    inst_free(&x);
  }
  map_config_free(&m);
done:
  rdg_free(g);
  ast_program_free(p);
}

/* The retry without waits in the sharing (inst_run.c inst_run_pass) is
 * run for the shortfalls sharing decides (control signals, words) and
 * not for others (bank depth): bitextract on 1x4, N = 40. */
static void test_retry_passes(void) {
  static const struct {
    const char *key;
    int val, want, passes;
    const char *msg;
  } cases[] = {
      {"signals", 0, INST_ERR_NOFIT, 2, "control signals"},
      {"iobuf.depth", 4, INST_ERR_NOFIT, 1, "iobuf.depth"},
      {"none", 0, INST_OK, 1, NULL},
  };
  ast_program *p = parse_file("regress/programs/bitextract.pla");
  rdg *g = p ? rdg_build(p) : NULL;
  arch_config a = arch_config_default();
  map_config m;
  char msg[512];
  int st = g ? map_build(p, g, &a, 0, 0, &m, msg, sizeof msg) : MAP_ERR_INTERNAL;
  TEST_CHECK(st == MAP_OK, "bitextract maps (%s)", st == MAP_OK ? "" : msg);
  for (size_t i = 0; st == MAP_OK && i < sizeof cases / sizeof cases[0]; i++) {
    arch_config cfg = a;
    if (!strcmp(cases[i].key, "signals")) cfg.gc_signals = cases[i].val;
    if (!strcmp(cases[i].key, "iobuf.depth")) cfg.bank_depth = cases[i].val;
    m.fingerprint = arch_config_fingerprint(&cfg); /* the mapping does not depend on these keys */
    inst x;
    char *pn[1] = {"N"};
    int64_t pv[1] = {40};
    int ist = inst_run(&x, &m, &cfg, 1, pn, pv, 1, 4, msg, sizeof msg);
    int named = cases[i].msg ? strstr(msg, cases[i].msg) != NULL : ist == INST_OK;
    TEST_CHECK(ist == cases[i].want && named && x.passes == cases[i].passes,
               "%s %d: status %d (want %d), %d passes (want %d): %s", cases[i].key, cases[i].val, ist,
               cases[i].want, x.passes, cases[i].passes, msg);
    inst_free(&x);
  }
  if (st != MAP_ERR_INTERNAL) map_config_free(&m);
  rdg_free(g);
  ast_program_free(p);
}

int main(void) {
  test_paper_signal();
  test_signals_bounds();
  test_polarity();
  test_retry_passes();
  return test_done();
}
