/* covers: docs/trace.md "Model and RTL in one waveform" */
/*
 * test_wave_merge.c: the RTL's and the model's FSTs merged into one
 * (tb/wave_merge.h, docs/trace.md "Model and RTL in one waveform"). Two
 * small FSTs are written here with GTKWave's FST writer, in the names and
 * time base of the real ones (1 ns = 1000 ps per cycle): one PE, FU 0
 * running `max od0, id0, #-5`, its operand b -5 in the model and 0 in the
 * RTL from cycle 1, so its write-back differs in cycle 1; in cycle 2 only
 * FU 1 writes and FU 0's (unused) value field differs; the RTL's FST
 * starts at cycle 1 as the window of a divergence does. The merged FST
 * must start at cycle 1, say `wr` differs in cycle 1 and nowhere else,
 * carry the decoded instruction and the operands of each side, and a
 * merge of FSTs in different time units is refused. With the two traces
 * beside them (a bank word at done in cycle 3 that differs), `mem` rises
 * in cycle 3 for PE (0,0) and the array, 0 before and without traces.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wave_merge.h"
#include "test.h"
#include "fstapi.h"
#include "isa.h"

/* Writes the value v (width bits, v[0] the lowest 32) of handle h. */
static void put(void *ctx, fstHandle h, int width, const uint32_t *v) {
  char bits[256];
  for (int b = 0; b < width; b++) bits[width - 1 - b] = (char)('0' + (v[b / 32] >> (b % 32) & 1));
  bits[width] = 0;
  fstWriterEmitValueChange(ctx, h, bits);
}

/* Writes a test FST at path: side 0 the RTL (from cycle 1), 1 the model;
 * timescale ts. Returns 0. */
static int write_side(const char *path, int side, int ts) {
  void *ctx = fstWriterCreate(path, 1);
  if (!ctx) return -1;
  fstWriterSetTimescale(ctx, ts);
  fstWriterSetScope(ctx, FST_ST_VCD_MODULE, "TOP", NULL);
  fstHandle clk = fstWriterCreateVar(ctx, FST_VT_SV_LOGIC, FST_VD_IMPLICIT, 1, "clk_i", 0);
  fstWriterSetScope(ctx, FST_ST_VCD_MODULE, "tcpa_top", NULL);
  fstHandle done = fstWriterCreateVar(ctx, FST_VT_SV_LOGIC, FST_VD_IMPLICIT, 1, "done_o", 0);
  fstWriterSetScope(ctx, FST_ST_VCD_MODULE, "g_row[0]", NULL);
  fstWriterSetScope(ctx, FST_ST_VCD_MODULE, "g_col[0]", NULL);
  fstWriterSetScope(ctx, FST_ST_VCD_MODULE, "u_pe", NULL);
  fstHandle start = fstWriterCreateVar(ctx, FST_VT_SV_LOGIC, FST_VD_IMPLICIT, 1, "dbg_start_o", 0);
  fstHandle wr = fstWriterCreateVar(ctx, FST_VT_SV_LOGIC, FST_VD_IMPLICIT, 2, "dbg_wr_o [1:0]", 0);
  fstHandle wrv = fstWriterCreateVar(ctx, FST_VT_SV_LOGIC, FST_VD_IMPLICIT, 64, "dbg_wr_val_o [63:0]", 0);
  fstWriterSetScope(ctx, FST_ST_VCD_MODULE, "g_fu[0]", NULL);
  fstWriterSetScope(ctx, FST_ST_VCD_MODULE, "u_fu", NULL);
  fstHandle word = fstWriterCreateVar(ctx, FST_VT_SV_LOGIC, FST_VD_IMPLICIT, 128, "word [127:0]", 0);
  fstHandle val = fstWriterCreateVar(ctx, FST_VT_SV_LOGIC, FST_VD_IMPLICIT, 96, "val [95:0]", 0);
  for (int k = 0; k < 5; k++) fstWriterSetUpscope(ctx);
  fstWriterSetUpscope(ctx);
  fstWriterSetUpscope(ctx);
  isa_insn in;
  isa_word w;
  int col;
  char msg[100];
  memset(&w, 0, sizeof w);
  if (isa_insn_parse("max od0, id0, #-5", &in, &col, msg, sizeof msg) != ISA_OK || isa_encode(&in, &w) != ISA_OK)
    return -1;
  uint32_t zero[4] = {0}, one[1] = {1};
  for (int t = side == 0 ? 1 : 0; t < 4; t++) {
    uint32_t b = side == 1 || t == 0 ? (uint32_t)-5 : 0;
    uint32_t opv[3] = {(uint32_t)-7, b, 0};
    uint32_t wrbits[1] = {t == 1 ? 1u : t == 2 ? 2u : 0u};
    /* cycle 1: FU 0 writes max(-7, b); cycle 2: FU 1 writes 9, FU 0's
     * field (not written) is 1 in the RTL only */
    uint32_t wv[2] = {t == 1 ? b : t == 2 && side == 0 ? 1u : 0u, t == 2 ? 9u : 0u};
    fstWriterEmitTimeChange(ctx, (uint64_t)t * 1000);
    put(ctx, clk, 1, one);
    put(ctx, done, 1, zero);
    put(ctx, start, 1, t == 0 ? one : zero);
    put(ctx, wr, 2, wrbits);
    put(ctx, wrv, 64, wv);
    put(ctx, word, 128, w.w);
    put(ctx, val, 96, opv);
    fstWriterEmitTimeChange(ctx, (uint64_t)t * 1000 + 500);
    put(ctx, clk, 1, zero);
  }
  fstWriterClose(ctx);
  return 0;
}

/* Returns the value of signal name of fst at time t as bits ("" when
 * missing). */
static const char *at(const char *fst, const char *name, uint64_t t) {
  static char buf[512];
  if (wave_merge_value_at(fst, name, t, buf, sizeof buf)) buf[0] = 0;
  return buf;
}

/* The mem class: from two trace files whose words at done (cycle 3)
 * differ for PE (0,0), or are equal. */
static void test_mem(const char *rtl, const char *mod, const char *out) {
  char rt[64], mt[64], msg[300];
  snprintf(rt, sizeof rt, "/tmp/test_wm_rt%d.trace", (int)getpid());
  snprintf(mt, sizeof mt, "/tmp/test_wm_mt%d.trace", (int)getpid());
  static const char *const rtl_words[] = {"0x00000005", "0x00000004"};
  for (int differ = 1; differ >= 0; differ--) {
    FILE *a = fopen(rt, "w"), *b = fopen(mt, "w");
    if (a) fprintf(a, "# tcpa-trace 1 fp=0x0000000000000001\n# fst t0=0 period=1000\n3 mem 0,0 n 0 2 %s\n3 done - 4\n",
                   rtl_words[differ ? 0 : 1]);
    if (b) fprintf(b, "# tcpa-trace 1 fp=0x0000000000000001\n3 mem 0,0 n 0 2 0x00000004\n3 done - 4\n");
    if (a) fclose(a);
    if (b) fclose(b);
    wave_merge_info info;
    int rc = wave_merge_write(rtl, mod, rt, mt, out, &info, msg, sizeof msg);
    char pe[8], arr[8], before[8]; /* at() returns its static buffer */
    snprintf(pe, sizeof pe, "%s", at(out, "mismatch.g_row[0].g_col[0].mem", 3000));
    snprintf(arr, sizeof arr, "%s", at(out, "mismatch.mem", 3500));
    snprintf(before, sizeof before, "%s", at(out, "mismatch.g_row[0].g_col[0].mem", 2500));
    const char *want = differ ? "1" : "0";
    TEST_CHECK(rc == 0 && info.mem_compared && !strcmp(pe, want) && !strcmp(arr, want) && !strcmp(before, "0") &&
                   (!differ || !strcmp(at(out, "mismatch.any", 3500), "1")),
               "words at done %s: mismatch mem of PE (0,0) %s in cycle 3 (got %s, array %s, cycle 2 %s)",
               differ ? "differ" : "equal", want, pe, arr, before);
  }
  unlink(rt), unlink(mt);
}

static void test_merge(void) {
  char rtl[64], mod[64], out[64], bad[64], msg[300];
  int pid = (int)getpid();
  snprintf(rtl, sizeof rtl, "/tmp/test_wm_r%d.fst", pid);
  snprintf(mod, sizeof mod, "/tmp/test_wm_m%d.fst", pid);
  snprintf(out, sizeof out, "/tmp/test_wm_o%d.fst", pid);
  snprintf(bad, sizeof bad, "/tmp/test_wm_b%d.fst", pid);
  TEST_CHECK(write_side(rtl, 0, -12) == 0 && write_side(mod, 1, -12) == 0 && write_side(bad, 1, -9) == 0,
             "three test FSTs written");
  wave_merge_info info;
  int rc = wave_merge_write(rtl, mod, NULL, NULL, out, &info, msg, sizeof msg);
  TEST_CHECK(rc == 0 && info.start == 1000 && info.end == 3500 && info.timescale == -12,
             "merged: from cycle 1 (where both have values) to 3.5 ns, in ps (%s)", rc ? msg : "ok");
  TEST_CHECK(info.first_found && info.first_time == 1000 && info.first_row == 0 && info.first_col == 0 &&
                 !strcmp(wave_merge_class_name(info.first_class), "wr"),
             "the first difference: cycle 1, PE (0,0), class %s", wave_merge_class_name(info.first_class));
  const char *pe = "TOP.tcpa_top.g_row[0].g_col[0].u_pe";
  char name[300];
  TEST_CHECK(!strcmp(at(out, "mismatch.wr", 1500), "1") && !strcmp(at(out, "mismatch.g_row[0].g_col[0].wr", 1500), "1") &&
                 !strcmp(at(out, "mismatch.g_row[0].g_col[0].any", 1500), "1") && !strcmp(at(out, "mismatch.any", 1500), "1"),
             "mismatch wr and any are 1 in cycle 1, for the array and for PE (0,0)");
  TEST_CHECK(!strcmp(at(out, "mismatch.wr", 2500), "0") && !strcmp(at(out, "mismatch.any", 3500), "0") &&
                 !strcmp(at(out, "mismatch.issue", 1500), "0"),
             "0 in cycle 2 (FU 0's value field differs where FU 0 writes nothing), in cycle 3, and for issue");
  snprintf(name, sizeof name, "model.%s.g_fu[0].u_fu.op_b", pe);
  uint32_t mb = wave_merge_field(at(out, name, 1500), 0);
  snprintf(name, sizeof name, "rtl.%s.g_fu[0].u_fu.op_b", pe);
  uint32_t rb = wave_merge_field(at(out, name, 1500), 0);
  snprintf(name, sizeof name, "rtl.%s.g_fu[0].u_fu.op_a", pe);
  uint32_t ra = wave_merge_field(at(out, name, 1500), 0);
  snprintf(name, sizeof name, "model.%s.g_fu[0].u_fu.result", pe);
  uint32_t mr = wave_merge_field(at(out, name, 1500), 0);
  TEST_CHECK(mb == (uint32_t)-5 && rb == 0 && ra == (uint32_t)-7 && mr == (uint32_t)-5,
             "operands and result per side: model b %d, RTL b %d, RTL a %d, model result %d", (int)mb, (int)rb, (int)ra,
             (int)mr);
  snprintf(name, sizeof name, "rtl.%s.g_fu[0].u_fu.insn", pe);
  const char *insn = at(out, name, 1500);
  TEST_CHECK(!strncmp(insn, "max od0, id0, #-5", 17), "the RTL's instruction decoded: '%s'", insn);
  snprintf(name, sizeof name, "model.%s.dbg_wr_val_o", pe);
  TEST_CHECK(wave_merge_field(at(out, name, 2500), 32) == 9, "the inputs' own signals are there, under rtl and model");
  char filt[64];
  snprintf(filt, sizeof filt, "/tmp/test_wm_f%d.txt", pid);
  rc = wave_merge_insn_filter(rtl, filt, msg, sizeof msg);
  FILE *ff = fopen(filt, "r");
  char line[300] = "", last[300] = "";
  int lines = 0;
  while (ff && fgets(line, sizeof line, ff))
    if (line[0] != '#') lines++, snprintf(last, sizeof last, "%s", line);
  if (ff) fclose(ff);
  TEST_CHECK(rc == 0 && lines == 1 && strlen(last) > 33 && last[32] == ' ' && !strncmp(last + 33, "max od0, id0, #-5", 17),
             "translate filter: one line per instruction word, 32 hex digits and its text: %s", last);
  unlink(filt);
  rc = wave_merge_write(rtl, bad, NULL, NULL, out, &info, msg, sizeof msg);
  TEST_CHECK(rc == -1 && strstr(msg, "different time units"), "different time units refused: %s", msg);
  rc = wave_merge_write("/nonexistent/rtl.fst", mod, NULL, NULL, out, &info, msg, sizeof msg);
  TEST_CHECK(rc == -1 && strstr(msg, "cannot read '/nonexistent/rtl.fst'"), "a missing FST is named: %s", msg);
  test_mem(rtl, mod, out);
  unlink(rtl), unlink(mod), unlink(out), unlink(bad);
}

int main(void) {
  test_merge();
  return test_done();
}
