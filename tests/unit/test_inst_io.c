/* covers: docs/instantiate.md "What each step computes", "2-D regions",
 *   docs/symbolic.md "What fits" */
/*
 * test_inst_io.c: the I/O of instantiation (inst_io.c, inst_io2d.c;
 * docs/instantiate.md "What each step computes", "2-D regions"): 1-D
 * accesses spread over several border sides of a PE's banks, or refused
 * naming the PE and the sides tried; and the 2-D wrappers of matmul on
 * 8x8, whose pass-through chains shift their port per hop and drive no
 * bank port no access uses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst.h"
#include "map.h"
#include "stream.h"
#include "parse.h"
#include "rdg.h"
#include "test.h"

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

int main(void) {
  test_io_sides();
  test_2d_wrappers();
  return test_done();
}
