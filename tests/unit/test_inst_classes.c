/* covers: docs/instantiate.md "What each step computes",
 *   "The paper's running example", "2-D regions" */
/*
 * test_inst_classes.c: the processor and kernel classes of instantiation
 * (inst_classes.c, inst_partition; docs/instantiate.md "What each step
 * computes"): Algorithm 1 on its own; the paper's running example at
 * N = 16 on 3 PEs (p = 6, the classes {k < 2} and {k = 2}, alu1's kernel
 * classes, inst_fixture.h); fir on 3x2 of a 4x4 array (PE numbers, start
 * delays, classes that partition the PEs, accesses served over chains of
 * r or c hops); and the far edge, one class with full tiles: matmul on
 * 2-D regions, bitextract and matmul on 1x4, 1x16 and 1x32.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst.h"
#include "inst_fixture.h"
#include "parse.h"
#include "rdg.h"
#include "test.h"

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

/* The running example's classes (paper, section 6): p = 6 on t = 3, two
 * processor classes {k < 2} and {k = 2}, and for alu1 of the first the
 * kernel classes {j = 0}, {1 <= j <= 4}, {j = 5} and the epilog {j = 6}.
 * The paper lists {j=0}, {1<=j<4}, {j=4}, {j=5}, which is its own Figure
 * 6 shifted by one from j = 1 on: in its folded PST, od0 is written in
 * slot 1 only for j = p-1 = 5 and the `andi` of slot 0 runs for
 * 1 <= j <= 6, so Algorithm 1 separates {5} and the epilog {6}. */
static void test_paper_classes(void) {
  arch_config cfg;
  map_config m;
  inst x;
  if (!paper_ok(&x, &m, &cfg)) return;
  TEST_CHECK(x.p == 6 && x.t == 3, "p = ceil(16/3) = 6 on t = 3 PEs (got p %lld, t %d)", (long long)x.p, x.t);
  TEST_CHECK(x.lk == 12, "lambda^K = pi * p = 12 (got %lld)", (long long)x.lk);
  TEST_CHECK(x.fd_depth[0] == 1, "fd0 depth lambda^J d / pi = 1");
  TEST_CHECK(x.npc == 2, "two processor classes (got %d)", x.npc);
  if (x.npc == 2) {
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
    }
  }
  inst_free(&x);
  map_config_free(&m);
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

/* Channel writes on the far edge of a 1xC region (inst_classes.c):
 * bitextract and matmul with full tiles have one processor class, the
 * paper's Table 1; the last PE, and only it, has the channel's od in
 * od_cut; with a partial last tile it keeps a class of its own. Then
 * inst_classes_cut_sinks clears on that PE exactly the sinks the od drives. */
static void test_1d_far_edge(void) {
  static const struct {
    const char *prog;
    int np;
    int64_t pv[3];
    int cols, want;
  } cases[] = {{"bitextract", 1, {8}, 4, 1},       {"bitextract", 1, {32}, 16, 1}, {"bitextract", 1, {64}, 32, 1},
               {"bitextract", 1, {13}, 4, 2},      {"matmul", 3, {8, 3, 4}, 4, 1}, {"matmul", 3, {32, 2, 2}, 16, 1},
               {"matmul", 3, {7, 3, 4}, 4, 2}};
  char *pn[3] = {"N", "M", "K"};
  arch_config a = arch_config_default();
  a.cols = 32;
  a.imem = 256;
  a.fd_depth = 1024;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char path[64], msg[512];
    snprintf(path, sizeof path, "regress/programs/%s.pla", cases[i].prog);
    ast_program *p = parse_file(path);
    rdg *g = p ? rdg_build(p) : NULL;
    map_config m;
    int st = g ? map_build(p, g, &a, 0, 0, &m, msg, sizeof msg) : -1;
    TEST_CHECK(st == MAP_OK, "%s maps onto 1xC (%s)", cases[i].prog, st == MAP_OK ? "ok" : msg);
    if (st == MAP_OK) {
      inst x;
      st = inst_run(&x, &m, &a, cases[i].np, pn, cases[i].pv, 1, cases[i].cols, msg, sizeof msg);
      TEST_CHECK(st == INST_OK && x.npc == cases[i].want, "%s N=%lld on 1x%d: %d processor classes (want %d; %s)",
                 cases[i].prog, (long long)cases[i].pv[0], cases[i].cols, st == INST_OK ? x.npc : -1, cases[i].want,
                 st == INST_OK ? "ok" : msg);
      if (st == INST_OK && cases[i].want == 1) {
        int only_last = x.od_cut != NULL;
        for (int k = 0; only_last && k < x.t; k++) only_last = (x.od_cut[k] != 0) == (k == x.t - 1);
        TEST_CHECK(only_last, "%s on 1x%d: the last PE alone has its channel's od cut", cases[i].prog, cases[i].cols);
        if (only_last) {
          /* every sink driven by a cut od is cleared, every other kept */
          uint32_t sink[64] = {0}, want[64] = {0};
          int nsink = a.id + 4 * a.ports, ncut = 0;
          for (int s = 0; s < nsink; s++) {
            sink[s] = 1u + (uint32_t)(s % (a.od + 2));
            int cut = sink[s] - 1u < 32u && (x.od_cut[x.t - 1] >> (sink[s] - 1u) & 1u);
            want[s] = cut ? 0 : sink[s];
            ncut += cut;
          }
          int n = inst_classes_cut_sinks(&x, x.t - 1, sink, nsink);
          TEST_CHECK(n == ncut && ncut > 0 && !memcmp(sink, want, sizeof sink), "%s: cut_sinks clears the %d sinks of the cut od (got %d)",
                     cases[i].prog, ncut, n);
          TEST_CHECK(inst_classes_cut_sinks(&x, 0, sink + 0, 0) == 0 && inst_classes_cut_sinks(&x, 0, want, nsink) == 0,
                     "%s: a PE without cut ods keeps every sink", cases[i].prog);
        }
      }
      inst_free(&x);
      map_config_free(&m);
    }
    rdg_free(g);
    ast_program_free(p);
  }
}

int main(void) {
  test_partition();
  test_paper_classes();
  test_2d();
  test_2d_far_edge();
  test_1d_far_edge();
  return test_done();
}
