/*
 * test_gtkw.c: the focus of a divergence save file (tb/gtkw.h): the unit
 * the lockstep checker names ("wr FU 1 rd3", "pop id2", ...) is mapped to
 * the RTL's per-register and per-unit names (docs/rtl.md "Signal names")
 * and its signals open the save file in a group of their own, before the
 * PE's sub-scopes.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../tb/gtkw.h"
#include "../test.h"

/* Returns the malloc'ed contents of path (NULL when unreadable). */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap);
  if (b) {
    n = fread(b, 1, cap - 1, f);
    b[n] = 0;
  }
  fclose(f);
  return b;
}

static void test_focus_match(void) {
  TEST_CHECK(gtkw_focus_match("u_regfile.rd_q[3][31:0]", "wr FU 1 rd3"), "rd3 is u_regfile.rd_q[3]");
  TEST_CHECK(!gtkw_focus_match("u_regfile.rd_q[31][31:0]", "wr FU 1 rd3") &&
                 !gtkw_focus_match("u_regfile.rd_q[1][31:0]", "wr FU 1 rd3"),
             "rd3 is neither rd_q[31] nor rd_q[1]");
  TEST_CHECK(gtkw_focus_match("g_fu[1].u_fu.pc_q[7:0]", "wr FU 1 rd3") &&
                 gtkw_focus_match("g_fu[1].u_fu.wb_val_o[31:0]", "wr FU 1 -> rd3") &&
                 gtkw_focus_match("g_fu[1].u_fu.word[127:0]", "issue FU 1") &&
                 !gtkw_focus_match("g_fu[0].u_fu.pc_q[7:0]", "wr FU 1 rd3") &&
                 !gtkw_focus_match("g_fu[10].u_fu.pc_q[7:0]", "issue FU 1"),
             "FU 1 is g_fu[1] (not g_fu[0], not g_fu[10]): pc, instruction, write-back");
  TEST_CHECK(!gtkw_focus_match("g_fu[1].u_fu.PW[31:0]", "issue FU 1") &&
                 !gtkw_focus_match("g_fu[1].u_fu.pipe_q[97:0]", "issue FU 1") &&
                 !gtkw_focus_match("g_fu[1].u_fu.u_imem.word[31:0]", "issue FU 1") &&
                 !gtkw_focus_match("g_fu[1].u_fu.pc_qq[7:0]", "issue FU 1"),
             "not the FU's parameters, pipeline, sub-scopes or a longer name");
  TEST_CHECK(gtkw_focus_match("g_fd[0].u_fd.r_q[4:0]", "fdrd fd0") &&
                 !gtkw_focus_match("g_fd[0].u_fd.ring[7][31:0]", "fdrd fd0") &&
                 gtkw_focus_match("g_fifo[2].u_fifo.cnt_q[3:0]", "pop id2") &&
                 !gtkw_focus_match("g_fifo[2].u_fifo.buf_q[255:0]", "pop id2"),
             "fd: pointers, not the ring; FIFO: the count, not the buffer");
  TEST_CHECK(gtkw_focus_match("od_q[2][31:0]", "FU 0 od2") && !gtkw_focus_match("od_q[2][31:0]", "FU 0 od1"),
             "od2 is od_q[2] in the PE's own scope");
  TEST_CHECK(gtkw_focus_match("g_fifo[2].u_fifo.head_o[31:0]", "pop id2") &&
                 gtkw_focus_match("g_fd[0].u_fd.head_o[31:0]", "fdrd fd0") &&
                 !gtkw_focus_match("g_fd[0].u_fd.head_o[31:0]", "fdrd fd1"),
             "id2 is g_fifo[2], fd0 is g_fd[0]");
  TEST_CHECK(!gtkw_focus_match("dbg_pc_o[23:0]", "fdrd fd0") && !gtkw_focus_match("g_fu[1].x", NULL) &&
                 !gtkw_focus_match("g_fu[1].x", "side e port 0") && !gtkw_focus_match("g_fu[1].x", "FU"),
             "no match: another signal, no focus, a hop, a bare FU");
}

static void test_focus_group(void) {
  const char *pe = "TOP.tcpa_top.g_row[0].g_col[1].u_pe";
  static const char *const rel[] = {"dbg_pc_o[23:0]", "u_regfile.rd_q[0][31:0]", "u_regfile.rd_q[1][31:0]",
                                    "g_fu[0].u_fu.pc_q[7:0]", "g_fu[1].u_fu.pc_q[7:0]", "g_fu[1].u_fu.flag_q",
                                    "g_fu[1].u_fu.NP[31:0]"};
  gtkw_signals s = {0};
  char name[256];
  for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
    snprintf(name, sizeof name, "%s.%s", pe, rel[i]);
    gtkw_signals_add(&s, name, strchr(rel[i], ':') ? 32 : 1);
  }
  gtkw_view v;
  TEST_CHECK(gtkw_view_at(&v, 0, 2, 10, 3) == 0 && v.focus == NULL && v.comment == NULL,
             "gtkw_view_at leaves no stale focus");
  v.fst_path = "/tmp/x.fst";
  v.pe_scope = pe;
  v.focus = "wr FU 1 rd1";
  char path[64], msg[200];
  snprintf(path, sizeof path, "/tmp/test_gtkw_%d.gtkw", (int)getpid());
  int rc = gtkw_write(path, &v, &s, msg, sizeof msg);
  char *t = slurp(path);
  TEST_CHECK(rc == 0 && t, "save file written");
  if (t) {
    char want[1024];
    snprintf(want, sizeof want,
             "@800200\n-divergence: wr FU 1 rd1\n@22\n%s.u_regfile.rd_q[1][31:0]\n@22\n%s.g_fu[1].u_fu.pc_q[7:0]\n"
             "@28\n%s.g_fu[1].u_fu.flag_q\n@1000200\n-divergence: wr FU 1 rd1\n",
             pe, pe, pe);
    const char *g = strstr(t, want);
    const char *own = strstr(t, "\n-TOP.tcpa_top.g_row[0].g_col[1].u_pe\n");
    const char *regs = strstr(t, "\n-TOP.tcpa_top.g_row[0].g_col[1].u_pe.u_regfile\n");
    TEST_CHECK(g && own && regs && g < own && own < regs,
               "the focus group (rd_q[1], FU 1's signals) comes first, then the PE's groups");
    snprintf(want, sizeof want, "%s.u_regfile.rd_q[0][31:0]", pe);
    const char *r0 = strstr(t, want);
    TEST_CHECK(r0 && r0 > regs, "the other registers only in their unit's group");
  }
  free(t);
  v.focus = "sig";
  rc = gtkw_write(path, &v, &s, msg, sizeof msg);
  t = slurp(path);
  TEST_CHECK(rc == 0 && t && !strstr(t, "divergence:"), "no focus group when the unit names no register or FU");
  free(t);
  unlink(path);
  gtkw_signals_free(&s);
}

int main(void) {
  test_focus_match();
  test_focus_group();
  return test_done();
}
