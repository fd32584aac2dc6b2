/*
 * inst_fixture.h: what the instantiator's unit tests (tests/unit/
 * test_inst_*.c) share: the paper's running example (its PST of section
 * 5.5, bit extraction: alu0 `move` at tau 0, alu1 `shri` at tau 1 and
 * `andi` at tau 2, II = 2) written as a .sym text, since this project's
 * mapper schedules bitextract differently (docs/instantiate.md "The
 * paper's running example"), instantiated for N = 16 on 3 PEs; and
 * set_is, an isl set compared with a text. Static inline, so that a test
 * that uses one of them only compiles without warnings.
 */
#ifndef INST_FIXTURE_H
#define INST_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst.h"
#include "sym.h"
#include "test.h"

#define ALL_I "\"[N] -> { [i] : 0 <= i < N }\""
#define ALL_JK "\"[p, t] -> { [j0, k0] : 0 <= j0 < p and 0 <= k0 < t }\""

static const char *const paper_sym =
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

/* Returns 1 when isl set s equals the set written as text; prints both as
 * a TAP comment when not. */
static inline int set_is(const inst *x, isl_set *s, const char *text) {
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

/* Returns 0 after reading the paper's PST into *m (for the default
 * architecture, *cfg) and instantiating it for N = 16 on 1x3 into *x;
 * otherwise non-zero with the reason in msg (*m and *x need freeing only
 * on 0: map_config_free, inst_free). */
static inline int paper_run(inst *x, map_config *m, arch_config *cfg, char *msg, size_t msgsz) {
  arch_config_load_default(cfg);
  FILE *f = fmemopen((void *)paper_sym, strlen(paper_sym), "r");
  int rd = sym_read(f, m, msg, msgsz);
  fclose(f);
  if (rd) return -1;
  m->fingerprint = arch_config_fingerprint(cfg);
  char *pn[1] = {"N"};
  int64_t pv[1] = {16};
  int st = inst_run(x, m, cfg, 1, pn, pv, 1, 3, msg, msgsz);
  if (st != INST_OK) {
    inst_free(x);
    map_config_free(m);
  }
  return st;
}

/* Returns 1 after paper_run succeeded (one check, its message on failure),
 * 0 otherwise (nothing to free then). */
static inline int paper_ok(inst *x, map_config *m, arch_config *cfg) {
  char msg[512];
  int st = paper_run(x, m, cfg, msg, sizeof msg);
  TEST_CHECK(st == 0, "the paper's PST reads and instantiates for N=16 on 1x3 (%s)", msg);
  return st == 0;
}

#endif
