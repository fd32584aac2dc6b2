/* covers: docs/instantiate.md "What each step computes",
 *   "The paper's running example" */
/*
 * test_inst.c: instantiation (compiler/inst*.c) on the paper's running
 * example. The PST of section 5.5 (bit extraction: alu0 `move` at tau 0,
 * alu1 `shri` at tau 1 and `andi` at tau 2, II = 2) is written here as a
 * .sym text, since this project's mapper schedules bitextract differently
 * (see docs/instantiate.md: it puts the i = 0 copy on alu0 and the others on
 * alu1, reads the input through id0 and the channel through id1, and keeps
 * every tau < II, so nothing folds); instantiated for N = 16 on 3 PEs it
 * must give p = 6, the processor classes {k < 2} and {k = 2}, and for alu1
 * of the first class the kernel classes the method gives: {j = 0},
 * {1 <= j <= 4}, {j = 5}, {j = 6}. The paper lists {j=0}, {1<=j<4}, {j=4},
 * {j=5}, which is its own Figure 6 shifted by one from j = 1 on: in its
 * folded PST, od0 is written in slot 1 only for j = p-1 = 5 and the `andi`
 * of slot 0 runs for 1 <= j <= 6, so Algorithm 1 separates {5} and the
 * epilog {6}; the transition spaces it prints (q2 -> q3 at j = 4) are
 * exactly ours on the source side, and the one signal, 1 at j = 4, agrees.
 * Also: Algorithm 1 alone, the CFG, the signal, the alu1 program word by
 * word, and the fd depth and lambda^K of concretization.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst.h"
#include "parse.h"
#include "rdg.h"
#include "sym.h"
#include "test.h"

#define ALL_I "\"[N] -> { [i] : 0 <= i < N }\""
#define ALL_JK "\"[p, t] -> { [j0, k0] : 0 <= j0 < p and 0 <= k0 < t }\""

static const char *paper_sym =
    "tcpa-sym 1\n"
    "program paper\n"
    "arch-fingerprint 0x0\n"
    "arch alu 2 mul 1 div 0 lat 1 2 8\n"
    "params 1 N\n"
    "dims 1 i\n"
    "arrays 2 in bits\n"
    "mapped 0 axis cols p_min 1\n"
    "bound 0 \"[N] -> { [(0)] : N > 0 }\" \"[N] -> { [(-1 + N)] : N > 0 }\"\n"
    "order 0\n"
    "mii res 2 rec 1 alu 3 2 mul 0 1 div 0 0\n"
    "ii 2 \"\"\n"
    "lambda-k 1 0\n"
    "estimate imem 3 signals 1\n"
    "ops 3\n"
    "op 0 node 0 mov 1 var 0 class alu lat 1 tau 0 fu 0 dst rd0 " ALL_I " " ALL_JK "\n"
    "op 1 node 1 shr 2 var 1 class alu lat 1 tau 1 fu 1 dst rd1 " ALL_I " " ALL_JK "\n"
    "op 2 node 2 and 2 var 2 class alu lat 1 tau 2 fu 1 dst - " ALL_I " " ALL_JK "\n"
    "edges 0\n"
    "regs 1\n"
    "reg fd0 copies 1 depth-lb 1 extra 0 d 1\n"
    "routes 0\n"
    "accesses 0\n"
    "pst 10\n"
    "leaf fu 0 tau 0 op 0 mov dest rd0 0 " ALL_I " " ALL_JK "\n"
    "leaf fu 0 tau 0 op 0 mov srcA id0 0 " ALL_I " \"[p, t] -> { [j0 = 0, k0] : 0 <= k0 < t }\"\n"
    "leaf fu 0 tau 0 op 0 mov srcA rd1 0 " ALL_I " \"[p, t] -> { [j0, k0] : 0 < j0 < p and 0 <= k0 < t }\"\n"
    "leaf fu 1 tau 1 op 1 shr od od0 0 " ALL_I " \"[p, t] -> { [j0, k0] : j0 = p - 1 and 0 <= k0 < t - 1 }\"\n"
    "leaf fu 1 tau 1 op 1 shr dest rd1 0 " ALL_I " \"[p, t] -> { [j0, k0] : 0 <= j0 < p - 1 and 0 <= k0 < t }\"\n"
    "leaf fu 1 tau 1 op 1 shr srcA rd0 0 " ALL_I " " ALL_JK "\n"
    "leaf fu 1 tau 1 op 1 shr srcB # 1 " ALL_I " " ALL_JK "\n"
    "leaf fu 1 tau 2 op 2 and od od1 0 " ALL_I " " ALL_JK "\n"
    "leaf fu 1 tau 2 op 2 and srcA rd0 0 " ALL_I " " ALL_JK "\n"
    "leaf fu 1 tau 2 op 2 and srcB # 1 " ALL_I " " ALL_JK "\n"
    "end\n";

/* Returns 1 when isl set s equals the set written as text. */
static int set_is(const inst *x, isl_set *s, const char *text) {
  isl_set *t = isl_set_read_from_str(x->ctx, text);
  int eq = s && t && isl_set_is_equal(s, t) == isl_bool_true;
  if (!eq) {
    char *a = s ? isl_set_to_str(s) : NULL;
    printf("# got %s, want %s\n", a ? a : "NULL", text);
    free(a);
  }
  isl_set_free(t);
  return eq;
}

/* Algorithm 1 on its own: {0..9} by {x < 5} and {x even}. */
static void test_partition(void) {
  isl_ctx *ctx = isl_ctx_alloc();
  isl_set *c[3] = {isl_set_read_from_str(ctx, "{ [x] : x < 5 }"), NULL,
                   isl_set_read_from_str(ctx, "{ [x] : exists e : x = 2e }")};
  isl_set **out = NULL;
  int n = inst_partition(isl_set_read_from_str(ctx, "{ [x] : 0 <= x < 10 }"), c, 3, &out);
  TEST_CHECK(n == 4, "Algorithm 1: 4 parts (got %d)", n);
  int total = 0;
  for (int i = 0; i < n; i++) {
    isl_set *a = isl_set_read_from_str(ctx, "{ [x] : 0 <= x < 5 and exists e : x = 2e }");
    total += isl_set_is_equal(out[i], a) == isl_bool_true;
    isl_set_free(a);
    isl_set_free(out[i]);
  }
  TEST_CHECK(total == 1, "Algorithm 1: one part is {x < 5, even}");
  free(out);
  isl_set_free(c[0]);
  isl_set_free(c[2]);
  isl_ctx_free(ctx);
}

/* The running example. */
static void test_paper(void) {
  arch_config cfg;
  arch_config_load_default(&cfg);
  FILE *f = fmemopen((void *)paper_sym, strlen(paper_sym), "r");
  map_config m;
  char msg[512];
  int rd = sym_read(f, &m, msg, sizeof msg);
  fclose(f);
  TEST_CHECK(rd == 0, "the paper's PST reads as a .sym (%s)", msg);
  if (rd) return;
  m.fingerprint = arch_config_fingerprint(&cfg);
  inst x;
  char *pn[1] = {"N"};
  int64_t pv[1] = {16};
  int st = inst_run(&x, &m, &cfg, 1, pn, pv, 1, 3, msg, sizeof msg);
  TEST_CHECK(st == INST_OK, "instantiation N=16 on 1x3 (%s)", msg);
  if (st) goto done;
  TEST_CHECK(x.p == 6 && x.t == 3, "p = ceil(16/3) = 6 on t = 3 PEs (got p %lld, t %d)", (long long)x.p, x.t);
  TEST_CHECK(x.lk == 12, "lambda^K = pi * p = 12 (got %lld)", (long long)x.lk);
  TEST_CHECK(x.fd_depth[0] == 1, "fd0 depth lambda^J d / pi = 1");
  TEST_CHECK(x.npc == 2, "two processor classes (got %d)", x.npc);
  if (x.npc != 2) goto done;
  TEST_CHECK(set_is(&x, x.pc[0].pes, "{ [k0] : 0 <= k0 < 2 }"), "P1 = {k < 2}");
  TEST_CHECK(set_is(&x, x.pc[1].pes, "{ [k0 = 2] }"), "P2 = {k = 2}");
  inst_fuprog *a1 = &x.pc[0].fp[1];
  TEST_CHECK(a1->epilog == 1, "alu1: one epilog pseudo-iteration (andi at tau 2)");
  TEST_CHECK(a1->nk == 4, "alu1 of P1: 4 kernel classes (got %d)", a1->nk);
  if (a1->nk == 4) {
    TEST_CHECK(set_is(&x, a1->k[0].q, "{ [j0 = 0] }"), "Q1 = {j = 0}");
    TEST_CHECK(set_is(&x, a1->k[1].q, "{ [j0] : 1 <= j0 <= 4 }"), "Q2 = {1 <= j <= 4}");
    TEST_CHECK(set_is(&x, a1->k[2].q, "{ [j0 = 5] }"), "Q3 = {j = 5}");
    TEST_CHECK(set_is(&x, a1->k[3].q, "{ [j0 = 6] }"), "Q4 = {j = 6} (epilog)");
    /* CFG of Figure 7: q1 -> q2, q2 -> q2 (1..3), q2 -> q3 (4), q3 -> q4, q4 -> halt */
    int ok = a1->ne == 5;
    for (int e = 0; ok && e < a1->ne; e++) {
      int fr = a1->e[e].from, to = a1->e[e].to;
      if (fr == 1 && to == 1) ok = set_is(&x, a1->e[e].t, "{ [j0] : 1 <= j0 <= 3 }");
      else if (fr == 1 && to == 2) ok = set_is(&x, a1->e[e].t, "{ [j0 = 4] }");
      else ok = (fr == 0 && to == 1) || (fr == 2 && to == 3) || (fr == 3 && to == -1);
    }
    TEST_CHECK(ok, "CFG: 5 edges, q2 loops on 1..3 and leaves at 4, q4 halts");
    TEST_CHECK(a1->k[1].nsig == 1 && x.nsig >= 1, "q2 has one control signal");
    if (a1->k[1].nsig == 1) {
      const inst_signal *s = &x.sig[a1->k[1].sig[0]];
      isl_set *care = isl_set_read_from_str(x.ctx, "{ [j0] : 1 <= j0 <= 4 }");
      isl_set *on = isl_set_intersect(isl_set_copy(s->ones[0]), isl_set_copy(care));
      isl_set *off = isl_set_intersect(isl_set_copy(s->zeros[0]), care);
      TEST_CHECK(set_is(&x, on, "{ [j0 = 4] }") && set_is(&x, off, "{ [j0] : 1 <= j0 <= 3 }"),
                 "cs1 = 1 at j = 4, 0 at 1..3 (section 6.2)");
      isl_set_free(on);
      isl_set_free(off);
    }
    static const char *want[] = {
        "nop",
        "shr rd1, rd0, #1",
        "and od1, rd0, #1",
        "shr rd1, rd0, #1 ; br c0 ? L4 : L2",
        "and od1, rd0, #1",
        "shr od0, rd0, #1",
        "and od1, rd0, #1",
        "nop ; halt",
    };
    int nw = (int)(sizeof want / sizeof want[0]);
    TEST_CHECK(a1->nwords == nw && x.sigma == 0, "alu1 program: %d words (got %d)", nw, a1->nwords);
    for (int w = 0; w < nw && w < a1->nwords; w++) {
      char txt[128];
      isa_insn_format(&a1->insns[w], txt, sizeof txt);
      int sig = a1->k[1].sig[0];
      char exp[128];
      snprintf(exp, sizeof exp, "%s", want[w]);
      if (w == 3) snprintf(exp, sizeof exp, "shr rd1, rd0, #1 ; br c%d ? L4 : L2", sig);
      TEST_CHECK(!strcmp(txt, exp), "alu1 word %d: '%s' (want '%s')", w, txt, exp);
    }
  }
  /* the last PE (a partial tile, j < 4) sends nothing over od0 */
  inst_fuprog *b1 = &x.pc[1].fp[1];
  int od0 = 0, shr = 0;
  for (int w = 0; w < b1->nwords; w++) {
    od0 |= b1->insns[w].odmask & 1;
    shr += b1->insns[w].op == ISA_OP_SHR;
  }
  TEST_CHECK(!od0 && shr > 0, "P2 alu1: shifts but never writes od0");
  {
    stream_writer w;
    stream_writer_init(&w, &cfg);
    st = inst_emit(&x, NULL, &w, msg, sizeof msg);
    TEST_CHECK(st == INST_OK, "the stream is written (%s)", msg);
    uint8_t *buf = NULL;
    size_t len = 0;
    TEST_CHECK(stream_writer_finish(&w, &buf, &len) == STREAM_OK, "the stream is complete");
    stream_reader r;
    int ok = stream_reader_open(&r, buf, len, &cfg) == STREAM_OK;
    stream_packet p;
    int k, programs = 0;
    while (ok && (k = stream_reader_next(&r, &p)) == 1) programs += p.type == STREAM_PKT_PROGRAM;
    TEST_CHECK(ok && programs == 4, "the reader accepts it: 2 classes x 2 FUs = 4 program packets (got %d)",
               programs);
    stream_reader_close(&r);
    free(buf);
    stream_writer_free(&w);
  }
done:
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

/* 2-D: fir (i rows, j columns) on 3x2 of a 4x4 array with N=7, T=5:
 * p = 3, pc = 3 (imperfect in both), 3x2 PEs, PE numbers k = r*tc + c,
 * start delays d0 + LR r + LC c, classes that partition the PEs, and
 * every access served by a border PE of its column (north) or row (west)
 * over exactly r or c hops, its own bank when on the border. */
static void test_2d(void) {
  ast_program *p = parse_file("regress/programs/fir.pla");
  rdg *g = p ? rdg_build(p) : NULL;
  arch_config a = arch_config_default();
  a.rd = a.fd = a.id = 16;
  a.od = 16;
  a.imem = 256;
  a.gc_signals = 16;
  a.banks = a.ports = 8;
  map_config m;
  char msg[512];
  int st = g ? map_build_2d(p, g, &a, 0, 1, &m, msg, sizeof msg) : -1;
  TEST_CHECK(st == MAP_OK, "fir maps onto 2-D (%s)", msg);
  if (st != MAP_OK) goto done;
  inst x;
  char *pn[2] = {"N", "T"};
  int64_t pv[2] = {7, 5};
  st = inst_run(&x, &m, &a, 2, pn, pv, 3, 2, msg, sizeof msg);
  TEST_CHECK(st == INST_OK, "fir N=7 T=5 instantiates on 3x2 (%s)", msg);
  if (st == INST_OK) {
    TEST_CHECK(x.p == 3 && x.p2 == 3 && x.tr == 3 && x.tc == 2 && x.t == 6, "p %lld pc %lld, %dx%d PEs (want 3, 3, 3x2)",
               (long long)x.p, (long long)x.p2, x.tr, x.tc);
    int delays = 1, rc = 1;
    for (int k = 0; k < x.t; k++) {
      int r, c;
      inst_pe_rc(&x, k, &r, &c);
      rc &= r == k / 2 && c == k % 2;
      delays &= inst_pe_delay(&x, k) - inst_pe_delay(&x, 0) == x.lk * r + x.lk2 * c && inst_pe_delay(&x, k) >= 0;
    }
    TEST_CHECK(rc && delays, "PE numbers r*tc + c; start delays d0 + LR r + LC c >= 0 (LR %lld, LC %lld)",
               (long long)x.lk, (long long)x.lk2);
    int cover = 1;
    for (int k = 0; k < x.t; k++) cover &= x.pe_class[k] >= 0 && x.pe_class[k] < x.npc && x.pc[x.pe_class[k]].rep <= k;
    TEST_CHECK(cover && x.npc >= 4, "%d processor classes partition the 6 PEs, each represented by its smallest", x.npc);
    int served = 1, any_hop = 0;
    for (int ac = 0; ac < m.naccess; ac++)
      for (int k = 0; k < x.t; k++) {
        const inst_io *io = &x.io[ac];
        if (io->pside[k] < 0) continue;
        int r, c;
        inst_pe_rc(&x, k, &r, &c);
        if (io->hops[k] == 0) served &= io->prow[k] == r && io->pcol[k] == c;
        else if (io->pside[k] == STREAM_SIDE_NORTH) served &= io->prow[k] == 0 && io->pcol[k] == c && io->hops[k] == r;
        else served &= io->pside[k] == STREAM_SIDE_WEST && io->pcol[k] == 0 && io->prow[k] == r && io->hops[k] == c;
        any_hop |= io->hops[k] > 0;
      }
    TEST_CHECK(served, "every access is served by its own border bank or a north/west chain of r or c hops");
    TEST_CHECK(any_hop, "y of the inner column (c = 1 of a 4-column array) travels through a chain");
  }
  inst_free(&x);
  map_config_free(&m);
done:
  rdg_free(g);
  ast_program_free(p);
}

/* 2-D wrappers (inst_io2d.c, io2d_reroute): matmul on the whole 8x8
 * array with 8 banks and ports, so that inner PEs' outputs go over
 * pass-through chains of up to 3 hops: the chains shift their port by one
 * per hop, so the inner wrappers of rows 1 and 2 (north half) are equal
 * (straight chains made every row differ), and no sink drives a bank port
 * of the array border that no access of that border PE uses (a fill
 * reaching a bank would be a stray token). */
static void test_2d_wrappers(void) {
  ast_program *p = parse_file("regress/programs/matmul.pla");
  rdg *g = p ? rdg_build(p) : NULL;
  arch_config a = arch_config_default();
  a.rows = a.cols = 8;
  a.rd = a.fd = a.id = a.od = 8;
  a.imem = 256;
  a.gc_signals = 16;
  a.banks = a.ports = 8;
  map_config m;
  char msg[512];
  int st = g ? map_build_2d(p, g, &a, 0, 1, &m, msg, sizeof msg) : -1;
  TEST_CHECK(st == MAP_OK, "matmul maps onto 2-D (%s)", msg);
  if (st != MAP_OK) goto done;
  inst x;
  char *pn[3] = {"N", "M", "K"};
  int64_t pv[3] = {16, 16, 2};
  st = inst_run(&x, &m, &a, 3, pn, pv, 8, 8, msg, sizeof msg);
  TEST_CHECK(st == INST_OK, "matmul N=M=16 K=2 instantiates on 8x8 (%s)", msg);
  if (st == INST_OK) {
    int nsink = a.id + 4 * a.ports, hops = 0;
    for (int ac = 0; ac < m.naccess; ac++)
      for (int k = 0; k < x.t; k++) hops |= x.io[ac].pside[k] >= 0 && x.io[ac].hops[k] >= 2;
    size_t row = (size_t)(x.tc - 2) * (size_t)nsink * sizeof *x.wsink;
    const uint32_t *r1 = x.wsink + (size_t)(1 * x.tc + 1) * (size_t)nsink;
    const uint32_t *r2 = x.wsink + (size_t)(2 * x.tc + 1) * (size_t)nsink;
    TEST_CHECK(hops && !memcmp(r1, r2, row), "chains of 2 hops and more; rows 1 and 2 have equal inner wrappers");
    int stray = 0;
    for (int k = 0; k < x.t; k++) {
      int r, c;
      inst_pe_rc(&x, k, &r, &c);
      for (int side = 0; side < 4; side++) {
        int border = side == STREAM_SIDE_NORTH ? r == 0 : side == STREAM_SIDE_SOUTH ? r == a.rows - 1
                     : side == STREAM_SIDE_WEST ? c == 0 : c == a.cols - 1;
        for (int q = 0; border && q < a.ports; q++) {
          if (!x.wsink[(size_t)k * (size_t)nsink + (size_t)(a.id + side * a.ports + q)]) continue;
          int used = 0;
          for (int ac = 0; ac < m.naccess; ac++)
            for (int j = 0; j < x.t; j++)
              used |= x.io[ac].pside[j] == side && x.io[ac].pbank[j] == q && x.io[ac].prow[j] == r &&
                      x.io[ac].pcol[j] == c && m.access[ac].is_out;
          stray += !used;
        }
      }
    }
    TEST_CHECK(stray == 0, "no sink drives a border bank port no output access uses (%d do)", stray);
  }
  inst_free(&x);
  map_config_free(&m);
done:
  rdg_free(g);
  ast_program_free(p);
}

/* Channel writes on the far edge (inst_classes.c): with full tiles the
 * last row and column of a 2-D region write the channels' ods too, so
 * matmul has one processor class; with partial last tiles they keep
 * classes of their own. */
static void test_2d_far_edge(void) {
  static const struct {
    int64_t n, mm;
    int rows, cols, want;
  } cases[] = {{4, 4, 2, 2, 1}, {6, 6, 3, 3, 1}, {4, 8, 2, 4, 1}, {16, 16, 4, 4, 1}, {5, 5, 3, 3, 4}};
  ast_program *p = parse_file("regress/programs/matmul.pla");
  rdg *g = p ? rdg_build(p) : NULL;
  arch_config a = arch_config_default();
  map_config m;
  char msg[512];
  int st = g ? map_build_2d(p, g, &a, 0, 1, &m, msg, sizeof msg) : -1;
  TEST_CHECK(st == MAP_OK, "matmul maps onto 2-D on default.ini (%s)", msg);
  if (st != MAP_OK) goto done;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    inst x;
    char *pn[3] = {"N", "M", "K"};
    int64_t pv[3] = {cases[i].n, cases[i].mm, 3};
    st = inst_run(&x, &m, &a, 3, pn, pv, cases[i].rows, cases[i].cols, msg, sizeof msg);
    TEST_CHECK(st == INST_OK && x.npc == cases[i].want, "matmul N=%lld M=%lld K=3 on %dx%d: %d processor classes (want %d; %s)",
               (long long)cases[i].n, (long long)cases[i].mm, cases[i].rows, cases[i].cols, st == INST_OK ? x.npc : -1,
               cases[i].want, st == INST_OK ? "ok" : msg);
    inst_free(&x);
  }
  map_config_free(&m);
done:
  rdg_free(g);
  ast_program_free(p);
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

/* Returns 1 when every access of every PE of x sits on a bank of an array
 * border side of that PE, below min(banks, ports), no two of one PE on the
 * same (side, bank); *sides gets the sides used (bit per side). */
static int io_banks_ok(const inst *x, unsigned *sides) {
  int nb = x->arch.banks < x->arch.ports ? x->arch.banks : x->arch.ports, ok = 1;
  *sides = 0;
  for (int k = 0; k < x->t; k++)
    for (int a = 0; a < x->m->naccess; a++) {
      int sd = x->io[a].pside[k], b = x->io[a].pbank[k], r, c;
      if (sd < 0) continue;
      inst_pe_rc(x, k, &r, &c);
      *sides |= 1u << sd;
      ok &= b >= 0 && b < nb && x->io[a].hops[k] == 0 && x->io[a].prow[k] == r && x->io[a].pcol[k] == c;
      ok &= sd == STREAM_SIDE_NORTH ? r == 0 : sd == STREAM_SIDE_SOUTH ? r == x->arch.rows - 1
            : sd == STREAM_SIDE_WEST ? c == 0 : c == x->arch.cols - 1;
      for (int e = 0; e < a; e++) ok &= !(x->io[e].pside[k] == sd && x->io[e].pbank[k] == b);
    }
  return ok;
}

/* 1-D accesses over several border sides (inst_io.c, inst_io_spread):
 * with iobuf.banks 2, trimv's three accesses take the north and the west
 * banks of a 1x1 region, the north and south ones of 1x4 on an array of
 * one row (east on its last PE, tried before south); 1x4 of the 4x4 array does not fit (its inner PEs have the
 * north side only) and says so; a program that fits one side is not
 * placed per PE (one WRAPPER, the stream of before). */
static void test_io_sides(void) {
  struct {
    const char *prog, *pname;
    int64_t pval;
    int rows, banks, pr, pc, st;
    unsigned sides; /* the sides used (bit per stream side); 0: one WRAPPER, no per-PE placement */
    const char *want;
  } cases[] = {
      {"regress/programs/trimv.pla", "N", 5, 4, 2, 1, 1, INST_OK,
       1u << STREAM_SIDE_NORTH | 1u << STREAM_SIDE_WEST, NULL},
      {"regress/programs/trimv.pla", "N", 8, 1, 2, 1, 4, INST_OK,
       1u << STREAM_SIDE_NORTH | 1u << STREAM_SIDE_EAST | 1u << STREAM_SIDE_SOUTH, NULL}, /* the last PE: east */
      {"regress/programs/trimv.pla", "N", 8, 4, 2, 1, 4, INST_ERR_NOFIT, 0,
       "finds no free bank on PE 1 (row 0, column 1); sides tried: north; banks needed 3, available 2"},
      {"regress/programs/trimv.pla", "N", 8, 4, 4, 1, 4, INST_OK, 0, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    ast_program *p = parse_file(cases[i].prog);
    rdg *g = p ? rdg_build(p) : NULL;
    arch_config a = arch_config_default();
    a.rows = cases[i].rows;
    a.banks = cases[i].banks;
    map_config m;
    char msg[512] = "";
    int st = g ? map_build(p, g, &a, 0, 0, &m, msg, sizeof msg) : -1;
    TEST_CHECK(st == MAP_OK, "case %zu: %s maps (%s)", i, cases[i].prog, msg);
    if (st == MAP_OK) {
      inst x;
      char *pn[1] = {(char *)cases[i].pname};
      st = inst_run(&x, &m, &a, 1, pn, &cases[i].pval, cases[i].pr, cases[i].pc, msg, sizeof msg);
      TEST_CHECK(st == cases[i].st && (!cases[i].want || strstr(msg, cases[i].want)),
                 "case %zu: %s on %dx%d of a %d-row array, banks %d: status %d (want %d): %s", i, cases[i].prog,
                 cases[i].pr, cases[i].pc, a.rows, a.banks, st, cases[i].st, msg);
      if (st == INST_OK) {
        unsigned used = 0;
        int ok = !cases[i].sides ? !x.wsink && !x.io[0].pside : x.wsink && io_banks_ok(&x, &used);
        TEST_CHECK(ok && used == cases[i].sides, "case %zu: sides used 0x%x (want 0x%x), banks distinct per PE on its border",
                   i, used, cases[i].sides);
      }
      inst_free(&x);
      map_config_free(&m);
    }
    rdg_free(g);
    ast_program_free(p);
  }
}

int main(void) {
  test_io_sides();
  test_polarity();
  test_2d();
  test_2d_wrappers();
  test_2d_far_edge();
  test_partition();
  test_paper();
  test_signals_bounds();
  test_retry_passes();
  return test_done();
}
