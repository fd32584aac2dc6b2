/* covers: docs/symbolic.md "What fits" */
/*
 * test_map_fit.c: what does not fit the symbolic mapper (docs/symbolic.md
 * "What fits"): a table of programs on architectures short of one
 * resource (units, registers of each class, I/O banks), each refused with
 * the resource named; the control-signal and program-memory estimates
 * are figures of the .sym, not bounds the mapper refuses on (the
 * instantiator checks the emitted programs).
 */
#include <string.h>

#include "map_fixture.h"
#include "test.h"

/* Does-not-fit cases: the message names the resource. */
static void test_nofit(void) {
  struct { const char *prog; const char *key; int val; const char *want; } cases[] = {
      {"regress/programs/matmul.pla", "mul", 0, "pe.mul = 0"},
      {"regress/programs/fir.pla", "rd", 0, "registers rd"}, /* rd 1 since operand forwarding */
      {"regress/programs/bitextract.pla", "fd", 0, "registers fd"},
      /* (bitextract maps with id 1 and banks 1: x, read at i = 0 only, on
       * its channel's id and the bank behind it, map_regs.c) */
      {"regress/programs/dotprod.pla", "id", 2, "registers id"},
      {"regress/programs/bitextract.pla", "od", 1, "registers od"},
      /* (dotprod with banks 2 maps: its accesses over the north and the
       * west side of the first PE, test_io_sides) */
      {"regress/programs/dotprod.pla", "banks", 1, "I/O banks"},
      {"regress/programs/gcd.pla", "div", 0, "pe.div = 0"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    arch_config a = arch_config_default();
    if (!strcmp(cases[i].key, "mul")) a.mul = cases[i].val;
    if (!strcmp(cases[i].key, "rd")) a.rd = cases[i].val;
    if (!strcmp(cases[i].key, "fd")) a.fd = cases[i].val;
    if (!strcmp(cases[i].key, "id")) a.id = cases[i].val;
    if (!strcmp(cases[i].key, "od")) a.od = cases[i].val;
    if (!strcmp(cases[i].key, "imem")) a.imem = cases[i].val;
    if (!strcmp(cases[i].key, "signals")) a.gc_signals = cases[i].val;
    if (!strcmp(cases[i].key, "banks")) a.banks = cases[i].val;
    if (!strcmp(cases[i].key, "div")) a.div = cases[i].val;
    fixture f;
    build(&f, cases[i].prog, NULL, a, 0);
    TEST_CHECK(f.st == MAP_ERR_NOFIT && strstr(f.msg, cases[i].want), "%s with %s = %d: does not fit, '%s' (%s)",
               cases[i].prog, cases[i].key, cases[i].val, cases[i].want, f.msg);
    release(&f);
  }
}

/* The control-signal estimate is a figure of the .sym, not a bound the
 * mapper refuses on (docs/symbolic.md, estimates): with gc.signals below
 * it the mapping still succeeds (the instantiator checks the real count;
 * matmul on big1d.ini 4x4 instantiates with 4 signals where the estimate
 * said 6, test_inst_prolog's tight case). */
static void test_signals_estimate(void) {
  arch_config a = arch_config_default();
  a.gc_signals = 1;
  fixture f;
  build(&f, "regress/programs/bitextract.pla", NULL, a, 0);
  TEST_CHECK(f.st == MAP_OK && f.m.signals_estimate > a.gc_signals,
             "bitextract with gc.signals = 1 maps (estimate %d, status %d: %s)", f.m.signals_estimate, f.st, f.msg);
  release(&f);
}

/* Program memory is not checked by the mapper (docs/symbolic.md,
 * estimates): runs of nops become one `nop N` word, so II + 1 is no
 * bound; the instantiator checks the emitted programs (test_inst_emit).
 * bitextract maps with pe.imem 2 at II 2, and at ALU latency 20 / MUL
 * latency 40 at II 40 with pe.imem 32 (it runs with 13 words per unit at
 * most, tests/imem_cli.sh). */
static void test_imem_estimate(void) {
  struct { int imem, lat_alu, lat_mul, ii; } cases[] = {{2, 1, 2, 2}, {32, 20, 40, 40}, {1, 20, 40, 40}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    arch_config a = arch_config_default();
    a.imem = cases[i].imem;
    a.lat_alu = cases[i].lat_alu;
    a.lat_mul = cases[i].lat_mul;
    fixture f;
    build(&f, "regress/programs/bitextract.pla", NULL, a, 0);
    TEST_CHECK(f.st == MAP_OK && f.m.ii == cases[i].ii && f.m.ii >= a.imem,
               "bitextract, pe.imem %d, latencies %d/%d: maps at II %d (II %d, status %d: %s)", a.imem, a.lat_alu,
               a.lat_mul, cases[i].ii, f.m.ii, f.st, f.msg);
    release(&f);
  }
}

int main(void) {
  test_nofit();
  test_signals_estimate();
  test_imem_estimate();
  return test_done();
}
