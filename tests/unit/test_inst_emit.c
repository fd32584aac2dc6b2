/* covers: docs/instantiate.md "What each step computes",
 *   "The paper's running example", docs/stream.md "Packets" */
/*
 * test_inst_emit.c: the FU programs and the stream instantiation emits
 * (inst_proggen.c, inst_emit.c; docs/instantiate.md "What each step
 * computes"): the paper's running example (inst_fixture.h), alu1's
 * program word by word, the last PE's never writing od0, and the stream
 * the reader accepts with one program packet per class and FU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst.h"
#include "inst_fixture.h"
#include "stream.h"
#include "test.h"

/* The running example's programs and stream: alu1 of the first
 * processor class word by word (the kernel classes' code, the branch of
 * q2, the halt), the last PE (a partial tile) never writing od0, and a
 * stream of 2 classes x 2 FUs = 4 program packets the reader accepts. */
static void test_paper_emit(void) {
  arch_config cfg;
  map_config m;
  inst x;
  if (!paper_ok(&x, &m, &cfg)) return;
  inst_fuprog *a1 = x.npc == 2 ? &x.pc[0].fp[1] : NULL;
  TEST_CHECK(a1 && a1->nk == 4 && a1->k[1].nsig == 1, "alu1 of P1: 4 kernel classes, q2 with its signal");
  if (!a1 || a1->nk != 4 || a1->k[1].nsig != 1) goto done;
  {
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
    char msg[512] = "";
    int st = inst_emit(&x, NULL, &w, msg, sizeof msg);
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

int main(void) {
  test_paper_emit();
  return test_done();
}
