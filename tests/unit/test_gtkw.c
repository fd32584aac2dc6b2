/* covers: docs/rtl.md "Signal names",
 *   docs/trace.md "The lockstep checker and its report" */
/*
 * test_gtkw.c: the focus of a divergence save file (tb/gtkw.h): the unit
 * the lockstep checker names ("wr FU 1 rd3", "pop id2", ...) is mapped to
 * the RTL's per-register and per-unit names (docs/rtl.md "Signal names")
 * and its signals open the save file in a group of their own, before the
 * PE's sub-scopes, each named by an alias below the PE's scope and the
 * 32-bit ones in hex and signed decimal; the view fits the window into the
 * wave pane (GTKWave's zoom); the save file of a merged FST puts the
 * model's signal above the RTL's, the divergent FU's instruction,
 * operands and result first.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gtkw.h"
#include "test.h"

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
  static const int width[] = {24, 32, 32, 8, 8, 1, 32};
  gtkw_signals s = {0};
  char name[256];
  for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
    snprintf(name, sizeof name, "%s.%s", pe, rel[i]);
    gtkw_signals_add(&s, name, width[i]);
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
    char want[2048];
    snprintf(want, sizeof want,
             "@800200\n-divergence: wr FU 1 rd1\n@22\n+{u_regfile rd_q[1][31:0]} %s.u_regfile.rd_q[1][31:0]\n"
             "@424\n+{u_regfile rd_q[1][31:0] dec} %s.u_regfile.rd_q[1][31:0]\n"
             "@22\n+{g_fu[1] u_fu pc_q[7:0]} %s.g_fu[1].u_fu.pc_q[7:0]\n"
             "@28\n+{g_fu[1] u_fu flag_q} %s.g_fu[1].u_fu.flag_q\n@1000200\n-divergence: wr FU 1 rd1\n",
             pe, pe, pe, pe);
    const char *g = strstr(t, want);
    const char *own = strstr(t, "\n-PE (0,1)\n");
    const char *regs = strstr(t, "\n-PE (0,1) u_regfile\n");
    TEST_CHECK(g && own && regs && g < own && own < regs,
               "the focus group (rd_q[1] in hex and signed decimal, FU 1's signals) comes first, then the PE's groups");
    snprintf(want, sizeof want, "+{u_regfile rd_q[0][31:0]} %s.u_regfile.rd_q[0][31:0]", pe);
    const char *r0 = strstr(t, want);
    TEST_CHECK(r0 && r0 > regs, "the other registers only in their unit's group, by their name below the PE");
  }
  free(t);
  /* with a translate filter, the FU's word a second time, decoded */
  gtkw_signals_add(&s, "TOP.tcpa_top.g_row[0].g_col[1].u_pe.g_fu[1].u_fu.word[127:0]", 128);
  v.insn_filter = "/tmp/insn.txt";
  rc = gtkw_write(path, &v, &s, msg, sizeof msg);
  t = slurp(path);
  snprintf(name, sizeof name, "^1 /tmp/insn.txt\n@2022\n+{g_fu[1] u_fu insn} %s.g_fu[1].u_fu.word[127:0]\n@22\n"
           "+{g_fu[1] u_fu word[127:0]} %s.g_fu[1].u_fu.word[127:0]\n", pe, pe);
  TEST_CHECK(rc == 0 && t && strstr(t, name), "with a filter file: the FU's word decoded (flag 0x2000, ^1 FILE), then raw");
  const char *o_insn = t ? strstr(t, "+{g_fu[1] u_fu insn}") : NULL, *o_rd = t ? strstr(t, "+{u_regfile rd_q[1][31:0]}") : NULL;
  const char *o_pc = t ? strstr(t, "+{g_fu[1] u_fu pc_q[7:0]}") : NULL;
  TEST_CHECK(o_insn && o_rd && o_pc && o_insn < o_rd && o_rd < o_pc,
             "focus order: the instruction, then the registers, then the FU's pc (not the FST's order)");
  free(t);
  v.insn_filter = NULL;
  v.focus = "sig";
  rc = gtkw_write(path, &v, &s, msg, sizeof msg);
  t = slurp(path);
  TEST_CHECK(rc == 0 && t && !strstr(t, "divergence:"), "no focus group when the unit names no register or FU");
  free(t);
  unlink(path);
  gtkw_signals_free(&s);
}

/* The view of a divergence at cycle 10 of an FST with 1 ns (1000 ps)
 * cycles, 4 cycles on each side: marker at 10 ns, the window 6..15 ns
 * fills the wave pane of the [size] window (zoom z: GTKWave draws
 * 200 * 2^z pixels per unit). */
static void test_view_zoom(void) {
  gtkw_view v;
  int rv = gtkw_view_at(&v, 0, 1000, 10, 4);
  TEST_CHECK(rv == 0 && v.marker == 10000 && v.start == 6000 && v.end == 15000,
             "view: marker at cycle 10 (10000 ps), cycles 6..14 in full (%llu..%llu)", (unsigned long long)v.start,
             (unsigned long long)v.end);
  TEST_CHECK(gtkw_view_at(&v, 0, 1000, 2, 20) == 0 && v.start == 0 && v.end == 23000,
             "view: clamped at time 0 near the start");
  gtkw_view_at(&v, 0, 1000, 10, 4);
  v.fst_path = "/tmp/x.fst";
  v.pe_scope = "TOP.tcpa_top.g_row[0].g_col[0].u_pe";
  gtkw_signals s = {0};
  char path[64], msg[200];
  snprintf(path, sizeof path, "/tmp/test_gtkw_z%d.gtkw", (int)getpid());
  int rc = gtkw_write(path, &v, &s, msg, sizeof msg);
  char *t = slurp(path);
  double z = 0;
  unsigned long long marker = 0, start = 0;
  int w = 0, h = 0, sig = 0, sst = 0;
  const char *zl = t ? strstr(t, "\n*") : NULL, *sl = t ? strstr(t, "[size]") : NULL;
  const char *ts = t ? strstr(t, "[timestart]") : NULL, *sw = t ? strstr(t, "[signals_width]") : NULL;
  const char *tw = t ? strstr(t, "[sst_width]") : NULL;
  int ok = rc == 0 && zl && sscanf(zl, "\n*%lf %llu", &z, &marker) == 2 && sl && sscanf(sl, "[size] %d %d", &w, &h) == 2 &&
           ts && sscanf(ts, "[timestart] %llu", &start) == 1 && sw && sscanf(sw, "[signals_width] %d", &sig) == 1 &&
           tw && sscanf(tw, "[sst_width] %d", &sst) == 1;
  double px = 200.0 * pow(2.0, z) * 9000.0, pane = w - sig - sst;
  TEST_CHECK(ok && marker == 10000 && start == 6000 && px > 0.9 * pane - 40 && px < pane,
             "save file: marker 10000, view from 6000, the 9 cycles span %.0f px of the %.0f px wave pane", px, pane);
  TEST_CHECK(ok && w >= 1600 && h >= 1000 && sig >= 400 && strstr(t, "[sst_expanded] 0"),
             "save file: a 1600x1000 window, a signal pane %d px wide, the tree collapsed", sig);
  free(t);
  unlink(path);
}

/* The save file of a merged FST: pairs, model above RTL, the FU first. */
static void test_compare(void) {
  const char *pe = "TOP.tcpa_top.g_row[0].g_col[1].u_pe";
  static const char *const rel[] = {"g_fu[0].u_fu.insn", "g_fu[0].u_fu.op_a[31:0]", "g_fu[0].u_fu.op_b[31:0]",
                                    "g_fu[0].u_fu.op_c[31:0]", "g_fu[0].u_fu.result[31:0]", "od_q[0][31:0]",
                                    "g_fifo[0].u_fifo.head_o[31:0]", "dbg_wr_o[1:0]", "dbg_hop_o[7:0]",
                                    "g_fu[0].u_fu.pc_q[7:0]", "u_regfile.rd_q[0][31:0]"};
  static const int width[] = {0, 32, 32, 32, 32, 32, 32, 2, 8, 8, 32};
  gtkw_signals s = {0};
  char name[300];
  for (int side = 0; side < 2; side++)
    for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
      if (side == 0 && i == 10) continue; /* rd_q[0] only in the RTL: no pair */
      snprintf(name, sizeof name, "%s.%s.%s", side ? "rtl" : "model", pe, rel[i]);
      gtkw_signals_add(&s, name, width[i]);
    }
  gtkw_signals_add(&s, "rtl.TOP.clk_i", 1);
  gtkw_signals_add(&s, "mismatch.g_row[0].g_col[1].any", 1);
  gtkw_signals_add(&s, "mismatch.g_row[0].g_col[1].wr", 1);
  gtkw_signals_add(&s, "mismatch.wr", 1);
  gtkw_compare c;
  memset(&c, 0, sizeof c);
  gtkw_view_at(&c.view, 0, 1000, 2, 20);
  c.view.fst_path = "/tmp/compare.fst";
  c.view.pe_scope = pe;
  c.view.comment = "divergence at cycle 2, PE (0,1): wr FU 0 -> od0";
  c.title = "divergence: wr FU 0 -> od0";
  c.row = 0, c.col = 1, c.fu = 0, c.nops = 2;
  c.oplabel[0] = "id0", c.oplabel[1] = "#-5";
  c.regs = " od0 od0 id0";
  c.mclass = "wr";
  char path[64], msg[200];
  snprintf(path, sizeof path, "/tmp/test_gtkw_c%d.gtkw", (int)getpid());
  int rc = gtkw_compare_write(path, &c, &s, msg, sizeof msg);
  char *t = slurp(path);
  TEST_CHECK(rc == 0 && t, "compare save file written");
  if (t) {
    char want[1024];
    snprintf(want, sizeof want,
             "@22\n+{model op_b #-5} model.%s.g_fu[0].u_fu.op_b[31:0]\n"
             "@22\n+{RTL op_b #-5} rtl.%s.g_fu[0].u_fu.op_b[31:0]\n"
             "@424\n+{model op_b #-5 dec} model.%s.g_fu[0].u_fu.op_b[31:0]\n"
             "@424\n+{RTL op_b #-5 dec} rtl.%s.g_fu[0].u_fu.op_b[31:0]\n",
             pe, pe, pe, pe);
    const char *opb = strstr(t, want);
    TEST_CHECK(opb != NULL, "operand b: the model's above the RTL's, in hex, then in signed decimal");
    const char *grp = strstr(t, "-divergence: wr FU 0 -> od0\n");
    const char *mm = strstr(t, "+{mismatch wr} mismatch.g_row[0].g_col[1].wr");
    const char *insn = strstr(t, "+{model insn} model.");
    const char *res = strstr(t, "+{model result} model.");
    const char *od = strstr(t, "+{model od0} model.");
    const char *od2 = od ? strstr(od + 1, "+{model od0} model.") : NULL;
    const char *id = strstr(t, "+{RTL id0} rtl.");
    const char *ports = strstr(t, "+{model hop ports}");
    const char *end = grp ? strstr(grp + 1, "-divergence: wr FU 0") : NULL;
    TEST_CHECK(grp && mm && insn && opb && res && od && id && ports && end && grp < mm && mm < insn && insn < opb &&
                   opb < res && res < od && od < id && id < ports && ports < end,
               "divergence group: mismatch, instruction, operands, result, registers, ports, in that order");
    TEST_CHECK(od && (!od2 || od2 > end), "a register named twice in the list is shown once");
    const char *opc = strstr(t, "op_c");
    TEST_CHECK(opc && end && opc > end && !strstr(t, "rd_q[0]"),
               "the divergence group has only the operands the instruction reads; only signals both sides have");
    TEST_CHECK(strstr(t, "+{mismatch wr} mismatch.wr\n") && strstr(t, "+{clock} rtl.TOP.clk_i"),
               "the array's mismatch signals and the clock");
  }
  free(t);
  unlink(path);
  gtkw_signals_free(&s);
}

int main(void) {
  test_focus_match();
  test_focus_group();
  test_view_zoom();
  test_compare();
  return test_done();
}
