/* covers: docs/instantiate.md "What each step computes",
 *   "The paper's running example", docs/stream.md "Packets" */
/*
 * test_inst_emit.c: the FU programs and the stream instantiation emits
 * (inst_proggen.c, inst_emit.c; docs/instantiate.md "What each step
 * computes"): the paper's running example (inst_fixture.h), alu1's
 * program word by word, the last PE's never writing od0, the stream
 * the reader accepts with one program packet per class and FU, and
 * instruction memory checked on the emitted programs: one no-fit item per
 * unit over pe.imem, with its words.
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

/* Returns the status of the paper's PST instantiated for N = 16 on 1x3
 * with pe.imem = imem (x and m freed), its record in *why and the words of
 * unit (class c, FU f) in words[c * 2 + f] when it fits (at most 3
 * classes of 2 FUs; -1 for an empty unit). */
static int paper_imem(int imem, fit_record *why, int words[6], char *msg, size_t msgsz) {
  arch_config cfg;
  arch_config_load_default(&cfg);
  cfg.imem = imem;
  map_config m;
  FILE *f = fmemopen((void *)paper_sym, strlen(paper_sym), "r");
  int st = sym_read(f, &m, msg, msgsz);
  fclose(f);
  if (st) return -1;
  m.fingerprint = arch_config_fingerprint(&cfg);
  char *pn[1] = {"N"};
  int64_t pv[1] = {16};
  inst x;
  st = inst_run(&x, &m, &cfg, 1, pn, pv, 1, 3, msg, msgsz);
  *why = x.fit;
  for (int u = 0; u < 6; u++) words[u] = -1;
  for (int c = 0; !st && c < x.npc && c < 3; c++)
    for (int u = 0; u < x.nfu && u < 2; u++)
      if (!x.pc[c].fp[u].empty) words[c * 2 + u] = x.pc[c].fp[u].nwords;
  inst_free(&x);
  map_config_free(&m);
  return st;
}

/* Instruction memory is checked on the emitted programs (after waits;
 * kernel tails are shared only in programs over pe.imem, so the words
 * below 256 are not those at 256): the paper's example fits pe.imem 256;
 * at pe.imem 1 every unit is over, at 3 some are: the record has one
 * item per unit over (resource instruction memory, key pe.imem, a unit of
 * the example named once, its words above pe.imem, pe.imem), every unit
 * at 1, and the message names instruction memory. */
static void test_imem_units(void) {
  fit_record why;
  int words[6], w2[6];
  char msg[1024];
  int st = paper_imem(256, &why, words, msg, sizeof msg);
  TEST_CHECK(st == INST_OK, "the paper's example fits pe.imem 256 (%s)", msg);
  if (st) return;
  int units = 0;
  for (int u = 0; u < 6; u++) units += words[u] >= 0;
  const int cases[] = {1, 3};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int imem = cases[i];
    st = paper_imem(imem, &why, w2, msg, sizeof msg);
    int named[6] = {0}, items_ok = why.n > 0;
    for (int k = 0; k < why.n; k++) {
      const fit_item *it = &why.item[k];
      int c = -1, f = -1;
      items_ok &= sscanf(it->where, "processor class %d, alu%d", &c, &f) == 2 && c >= 0 && c < 3 && f >= 0 &&
                  f < 2 && words[c * 2 + f] >= 0 && !named[c * 2 + f]++;
      items_ok &= it->res == FIT_RES_IMEM && !strcmp(it->key, "pe.imem") && it->need > imem && it->have == imem;
    }
    TEST_CHECK(st == INST_ERR_NOFIT && items_ok && (imem > 1 || why.n == units) &&
                   strstr(msg, "instruction memory: ") == msg,
               "pe.imem %d: does not fit, one item per unit over (status %d, %d items of %d units): %s", imem, st,
               why.n, units, msg);
  }
}

int main(void) {
  test_paper_emit();
  test_imem_units();
  return test_done();
}
