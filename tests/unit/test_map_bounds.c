/* covers: docs/symbolic.md "Lower bounds" */
/*
 * test_map_bounds.c: lower bounds of what a program needs on a region
 * (compiler/map/map_bounds.c): a table of benchmarks and small programs on
 * regions (1-D, 2-D, one PE) with the bounds each must get (functional
 * units of the classes used, loop dimensions, ids and ods from the
 * directions computed values cross and the I/O, ports, rds from one
 * operation's computed operands, fds from the values carried inside a
 * tile, program words, banks), whether one is
 * over the configuration, and the bounds set on a no-fit record.
 */
#include <string.h>

#include "arch.h"
#include "fit.h"
#include "map_bounds.h"
#include "parse.h"
#include "rdg.h"
#include "test.h"

/* Computed values from two directions (no input: the ids are the
 * channels'). */
static const char *const wave_prog =
    "program wave(N, M) {\n"
    "  out int32 o[N];\n"
    "  par (0 <= i < N, 0 <= j < M) {\n"
    "    y[i,j] = 1 if (i == 0 or j == 0);\n"
    "    y[i,j] = y[i-1,j] + y[i,j-1] if (i >= 1 and j >= 1);\n"
    "    o[i] = y[i,j] if (j == M-1);\n"
    "  }\n"
    "}\n";

/* A diagonal dependence of a computed value (2-D: it arrives over one of
 * two sides), no input. */
static const char *const diag_prog =
    "program diag(N, M) {\n"
    "  out int32 o[N];\n"
    "  par (0 <= i < N, 0 <= j < M) {\n"
    "    y[i,j] = 1 if (i == 0 or j == 0);\n"
    "    y[i,j] = y[i-1,j-1] + 1 if (i >= 1 and j >= 1);\n"
    "    o[i] = y[i,j] if (j == M-1);\n"
    "  }\n"
    "}\n";

typedef struct {
  const char *what, *prog, *ini; /* prog "wave", "diag": the texts above */
  int mapped, mapped2, one_pe;
  int alu, mul, div; /* FU bounds: 1 or 0 (no bound: the class is unused) */
  int dims, id, od, ports;
  int over;   /* map_bounds_over */
  int set_id; /* pe.id set to this (0: the file's) */
  int rd, fd, imem, banks; /* the bounds of pe.rd, pe.fd, pe.imem, iobuf.banks (imem: matmul's two
                            * multiplies, of c and c.t1 on the same operands, are one instruction) */
} bounds_case;

static const bounds_case cases[] = {
    {"bitextract 1-D: one direction, an input, an output", "regress/programs/bitextract.pla",
     "configs/default.ini", 0, -1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1},
    {"bitextract on one PE: no channel, the I/O's id and od", "regress/programs/bitextract.pla",
     "configs/default.ini", 0, -1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1},
    {"gcd 1-D along i: no dependence crosses, a divider short", "regress/programs/gcd.pla", "configs/default.ini", 0,
     -1, 0, 1, 1, 1, 2, 1, 1, 0, 1, 0, 2, 2, 3, 1},
    {"gcd 2-D on big1d: one direction (along s), within the configuration", "regress/programs/gcd.pla",
     "configs/big1d.ini", 0, 1, 0, 1, 1, 1, 2, 1, 1, 1, 0, 0, 2, 0, 2, 1},
    {"matmul 2-D: its input chains are copies (read again), no direction", "regress/programs/matmul.pla",
     "configs/default.ini", 0, 1, 0, 1, 1, 0, 3, 1, 1, 0, 0, 0, 1, 1, 1, 1},
    {"wave 2-D: two directions, no input", "wave", "configs/default.ini", 0, 1, 0, 1, 0, 0, 2, 2, 2, 1, 0, 0, 1, 0, 1, 1},
    {"wave 2-D with pe.id 1: over", "wave", "configs/default.ini", 0, 1, 0, 1, 0, 0, 2, 2, 2, 1, 1, 1, 1, 0, 1, 1},
    {"wave 1-D along j: one direction", "wave", "configs/default.ini", 1, -1, 0, 1, 0, 0, 2, 1, 1, 1, 0, 0, 1, 1, 1, 1},
    {"wave on one PE: no id, the output's od", "wave", "configs/default.ini", 0, 1, 1, 1, 0, 0, 2, 0, 1, 0, 0, 0, 1, 0, 1, 1},
    {"diag 2-D: a diagonal, over one of two sides", "diag", "configs/default.ini", 0, 1, 0, 1, 0, 0, 2, 1, 1, 1, 0, 0, 1, 0, 1, 1},
    {"diag 1-D along i: one direction", "diag", "configs/default.ini", 0, -1, 0, 1, 0, 0, 2, 1, 1, 1, 0, 0, 1, 0, 1, 1},
};

/* Returns the bound of resource res and key in b, -1 when absent. */
static long long bound_of(const map_bounds *b, fit_resource res, const char *key) {
  for (int i = 0; i < b->n; i++)
    if (b->b[i].res == res && !strcmp(b->b[i].key, key)) return (long long)b->b[i].bound;
  return -1;
}

/* Each case's bounds, and the bounds set on a record of the case. */
static void test_cases(void) {
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const bounds_case *c = &cases[i];
    arch_config a;
    ast_program *p = !strcmp(c->prog, "wave")   ? parse_string("wave.pla", wave_prog)
                     : !strcmp(c->prog, "diag") ? parse_string("diag.pla", diag_prog)
                                                : parse_file(c->prog);
    rdg *g = p ? rdg_build(p) : NULL;
    if (!g || arch_config_load(c->ini, &a)) {
      TEST_CHECK(0, "%s: %s and %s load", c->what, c->prog, c->ini);
      rdg_free(g);
      ast_program_free(p);
      continue;
    }
    if (c->set_id) a.id = c->set_id;
    map_bounds b;
    map_bounds_compute(p, g, &a, c->mapped, c->mapped2, c->one_pe, &b);
    long long alu = bound_of(&b, FIT_RES_FU, "pe.alu"), mul = bound_of(&b, FIT_RES_FU, "pe.mul"),
              dv = bound_of(&b, FIT_RES_FU, "pe.div"), dims = bound_of(&b, FIT_RES_LOOP_DIMS, "gc.dims"),
              id = bound_of(&b, FIT_RES_ID, "pe.id"), od = bound_of(&b, FIT_RES_OD, "pe.od"),
              ports = bound_of(&b, FIT_RES_PORTS, "interconnect.ports"), rd = bound_of(&b, FIT_RES_RD, "pe.rd"),
              fd = bound_of(&b, FIT_RES_FD, "pe.fd"), imem = bound_of(&b, FIT_RES_IMEM, "pe.imem"),
              banks = bound_of(&b, FIT_RES_IO_BANKS, "iobuf.banks");
    TEST_CHECK(alu == (c->alu ? 1 : -1) && mul == (c->mul ? 1 : -1) && dv == (c->div ? 1 : -1) && dims == c->dims &&
                   id == c->id && od == c->od && ports == (c->ports ? 1 : -1) && map_bounds_over(&b) == c->over,
               "%s: alu %lld mul %lld div %lld dims %lld id %lld od %lld ports %lld over %d", c->what, alu, mul, dv,
               dims, id, od, ports, map_bounds_over(&b));
    TEST_CHECK(rd == c->rd && fd == c->fd && imem == c->imem && banks == c->banks,
               "%s: rd %lld fd %lld imem %lld banks %lld", c->what, rd, fd, imem, banks);
    /* a record of what ran out gets the bounds of its resources */
    fit_record r = {0};
    fit_record_add(&r, FIT_RES_ID, "pe.id", 10, a.id, "", "id");
    fit_record_add(&r, FIT_RES_RD, "pe.rd", 10, a.rd, "", "rd");
    fit_record_add(&r, FIT_RES_IO_BANKS, "iobuf.banks", 6, 0, "PE 1", "banks of an inner PE");
    fit_record_add(&r, FIT_RES_IO_BANKS, "iobuf.banks", 6, 4, "PE 0", "banks of a side");
    fit_record_add(&r, FIT_RES_SIGNALS, "gc.signals", 10, a.gc_signals, "", "signals");
    map_bounds_apply(&b, &r);
    /* banks: an inner PE's 0 may grow through other PEs' channels, so
     * its item's bound stays within it; signals have no bound */
    TEST_CHECK(r.item[0].bound == c->id && r.item[1].bound == c->rd && r.item[2].bound == 0 &&
                   r.item[3].bound == c->banks && r.item[4].bound == -1,
               "%s: the record's items have bounds id %d, rd %d, banks 0 and %d, signals none", c->what, c->id,
               c->rd, c->banks);
    rdg_free(g);
    ast_program_free(p);
  }
}

int main(void) {
  test_cases();
  return test_done();
}
