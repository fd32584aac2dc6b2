/* covers: docs/instantiate.md "What each step computes",
 *   "The paper's running example" */
/*
 * test_inst_cfg.c: the control-flow graph of each FU program
 * (docs/instantiate.md "What each step computes"): the paper's running
 * example (inst_fixture.h), its Figure 7: five edges, q2 looping on
 * 1 <= j <= 3 and leaving at j = 4, q4 halting, and q2's branch word.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst.h"
#include "inst_fixture.h"
#include "test.h"

/* The running example's CFG (paper, Figure 7) for alu1 of the first
 * processor class: q1 -> q2, q2 -> q2 on 1 <= j <= 3, q2 -> q3 at j = 4,
 * q3 -> q4, q4 -> halt; q2's branch word selects L4 or L2 on its signal. */
static void test_paper_cfg(void) {
  arch_config cfg;
  map_config m;
  inst x;
  if (!paper_ok(&x, &m, &cfg)) return;
  inst_fuprog *a1 = x.npc == 2 ? &x.pc[0].fp[1] : NULL;
  TEST_CHECK(a1 && a1->nk == 4, "alu1 of P1: 4 kernel classes (got %d)", a1 ? a1->nk : -1);
  if (a1 && a1->nk == 4) {
    int ok = a1->ne == 5;
    for (int e = 0; ok && e < a1->ne; e++) {
      int fr = a1->e[e].from, to = a1->e[e].to;
      if (fr == 1 && to == 1) ok = set_is(&x, a1->e[e].t, "{ [j0] : 1 <= j0 <= 3 }");
      else if (fr == 1 && to == 2) ok = set_is(&x, a1->e[e].t, "{ [j0 = 4] }");
      else ok = (fr == 0 && to == 1) || (fr == 2 && to == 3) || (fr == 3 && to == -1);
    }
    TEST_CHECK(ok, "CFG: 5 edges, q2 loops on 1..3 and leaves at 4, q4 halts");
    char txt[128] = "", exp[128] = "";
    if (a1->nwords > 3 && a1->k[1].nsig == 1) {
      isa_insn_format(&a1->insns[3], txt, sizeof txt);
      snprintf(exp, sizeof exp, "shr rd1, rd0, #1 ; br c%d ? L4 : L2", a1->k[1].sig[0]);
    }
    TEST_CHECK(exp[0] && !strcmp(txt, exp), "q2's last word branches to L4 (q3) or L2 (q2): '%s' (want '%s')", txt, exp);
  }
  inst_free(&x);
  map_config_free(&m);
}

int main(void) {
  test_paper_cfg();
  return test_done();
}
