/* covers: docs/regress.md "Functional coverage",
 *   "What the coverage counts" */
/*
 * test_fcov.c: unit tests of the functional coverage of runs
 * (regress/fcov.c, docs/regress.md "Functional coverage"): the bins a
 * configuration defines; the counts of the worked example of
 * docs/timing.md section 9 run on the C model (opcodes, operands,
 * branches, FIFO levels, routes per direction, AG sides and enables,
 * control-signal edges), counted from its stream and its trace; a
 * hand-written trace for the target a `br` took and the fd depths of a
 * REGCFG packet; a malformed trace refused with its line; merging, the
 * JSON file's round trip and the report's holes. Prints TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fcov.h"
#include "test.h"
#include "test_model_tb.h"

static const stream_rect PE00 = {0, 0, 1, 1};

/* Returns the count of bin name in s, or -1 when s has no such bin. */
static long long count_of(const fcov_set *s, const char *name) {
  const fcov_bin *b = fcov_bin_find(s, name);
  return b ? (long long)b->count : -1;
}

/* Returns 0 after counting the stream of b and the trace text into s;
 * -1 with msg. */
static int count_text(fcov_set *s, tb *b, const uint8_t *buf, size_t len, const char *trace, char *msg,
                      size_t msgsz) {
  FILE *f = fmemopen((void *)trace, strlen(trace), "r");
  if (!f) return -1;
  int rc = fcov_run_count(s, &b->cfg, buf, len, f, msg, msgsz);
  fclose(f);
  return rc;
}

/* The bins a configuration defines, and those it does not. */
static void test_bins(void) {
  arch_config cfg = tb_default_arch();
  fcov_set s = {0};
  TEST_CHECK(fcov_bins_define(&s, &cfg) == 0, "bins: defined for the default configuration");
  static const struct {
    const char *name;
    int defined;
  } cases[] = {
      {"op.alu.add", 1},     {"op.mul.mul", 1},   {"op.alu.nop", 1},    {"op.mul.nop", 1},
      {"op.div.div", 0},     {"op.alu.mul", 0},   {"branch.br1", 1},    {"branch.br2", 0}, /* 2 targets */
      {"branch.target1", 1}, {"branch.target2", 0}, {"fifo.level1", 1}, {"fifo.level5-8", 1},
      {"fifo.full", 1},      {"fifo.level8", 0},  {"fd.depth1", 1},     {"fd.depth17-32", 1},
      {"fd.depth_max", 1},   {"route.w-id", 1},   {"route.od-od", 0},   {"ag.s.wr", 1},
      {"ag.enable0", 1},     {"ag.enable9-16", 1}, {"ag.enable_max", 1}, {"sig.c7.fall", 1},
      {"sig.c8.rise", 0},    {"bank.same_side", 1}, {"sig.high0", 1},   {"sig.high5-8", 1},
      {"sig.high_all", 1},   {"sig.high8", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    TEST_CHECK((count_of(&s, cases[i].name) == 0) == cases[i].defined, "bins: %s %s", cases[i].name,
               cases[i].defined ? "defined, at 0" : "not defined");
  size_t before = s.n;
  fcov_bins_define(&s, &cfg);
  TEST_CHECK(s.n == before, "bins: defining them again adds none (%zu)", s.n);
  arch_config deep = cfg;
  deep.fifo_depth = 16;
  fcov_bins_define(&s, &deep);
  TEST_CHECK(s.n == before + 1 && count_of(&s, "fifo.level9-16") == 0,
             "bins: a deeper FIFO adds its one bucket, the others named alike (%zu)", s.n - before);
  fcov_free(&s);
}

/* Builds the worked example of docs/timing.md section 9 into b (as
 * test_model.c does) and returns its stream in *buf, *len. */
static int worked_example(tb *b, uint8_t **buf, size_t *len) {
  tb_init(b, tb_default_arch());
  static const char *const prog[] = {"nop", "nop", "shr rd1, id0, #1", "and od0, rd1, #1", "nop",
                                     "add {rd2, od1}, id2, #10 ; halt"};
  tb_prog(b, PE00, 1, prog, 6);
  int wr[] = {tb_sink_id(b, 0), tb_src_in(b, STREAM_SIDE_WEST, 0), tb_sink_id(b, 2), tb_src_od(b, 0),
              tb_sink_out(b, STREAM_SIDE_NORTH, 0), tb_src_od(b, 1)};
  tb_wrapper(b, PE00, wr, 3);
  uint32_t gc[] = {2, 1, 1, 0, 0, 0, 0, 1, 0, 1, STREAM_CONS_EQ, 1, 0};
  tb_gc(b, 0, PE00, gc, 13);
  uint32_t rd_ag[] = {STREAM_AG_READ, 1, 0, 0, 0, 0, 0, 0};
  uint32_t wr_ag[] = {STREAM_AG_WRITE, 1, 7, 0, 0, 0, 0, 1, STREAM_CONS_GE, 0, 5};
  tb_pkt(b, STREAM_PKT_AG, 0, STREAM_SIDE_WEST, PE00, rd_ag, 8);
  tb_pkt(b, STREAM_PKT_AG, 0, STREAM_SIDE_NORTH, PE00, wr_ag, 11);
  uint32_t io[] = {0, 6};
  tb_pkt(b, STREAM_PKT_IODATA, 0, STREAM_SIDE_WEST, PE00, io, 2);
  tb_start(b, 0, PE00);
  return b->bad || stream_writer_finish(&b->w, buf, len) ? -1 : 0;
}

/* The worked example run on the model: every group counted. */
static void test_worked_example(void) {
  tb b;
  uint8_t *buf = NULL;
  size_t len = 0;
  char msg[256] = "";
  fcov_set s = {0};
  int ok = worked_example(&b, &buf, &len) == 0;
  model_error err;
  model *m = ok ? model_new(&b.cfg, buf, len, &err) : NULL;
  TEST_CHECK(m != NULL, "worked example: the model loads the stream (%s)", b.why);
  if (!m) goto done;
  model_set_trace(m, tb_sink, &b);
  TEST_CHECK(model_run(m, 100) == 0, "worked example: done within 100 cycles");
  model_free(m);
  TEST_CHECK(count_text(&s, &b, buf, len, b.trace ? b.trace : "", msg, sizeof msg) == 0,
             "worked example: counted (%s)", msg);
  static const struct {
    const char *name;
    long long want;
  } cases[] = {
      {"op.alu.nop", 3},      {"op.alu.shr", 1},       {"op.alu.and", 1},      {"op.alu.add", 1},
      {"op.alu.sub", 0},      {"op.mul.nop", 0},       {"branch.next", 5},     {"branch.halt", 1},
      {"branch.goto", 0},     {"operand.src.id", 2},   {"operand.src.imm", 3}, {"operand.src.rd", 1},
      {"operand.dst.rd", 2},  {"operand.dst.od", 2},   {"operand.dst.od2", 0}, {"fifo.level1", 2},
      {"fifo.empty", 2},      {"fifo.push_pop", 0},    {"fifo.full", 0},       {"route.w-id", 1},
      {"route.od-id", 1},     {"route.od-n", 1},       {"route.e-w", 0},       {"ag.w.rd", 1},
      {"ag.n.wr", 1},         {"ag.n.rd", 0},          {"ag.enable0", 1},      {"ag.enable1", 1},
      {"ag.enable.ge", 1},    {"ag.enable.eq", 0},     {"sig.c0.rise", 1},     {"sig.c0.fall", 1},
      {"sig.c1.rise", 0},     {"bank.two_sides", 0},   {"bank.read_write", 0}, {"sig.high1", 1},
      {"sig.high0", 1},       {"sig.high2", 0},        {"op.nop_wait", 0},     {"branch.wait_br", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    TEST_CHECK(count_of(&s, cases[i].name) == cases[i].want, "worked example: %s = %lld (got %lld)", cases[i].name,
               cases[i].want, count_of(&s, cases[i].name));
  TEST_CHECK(s.runs == 1, "worked example: one run counted");
done:
  free(buf);
  fcov_free(&s);
  tb_free(&b);
}

/* A hand-written trace: the target a br took, fd depths, bank patterns, a
 * malformed line. */
static void test_hand_trace(void) {
  tb b;
  tb_init(&b, tb_default_arch());
  static const char *const prog[] = {"mov rd0, #1 ; br c0 ? L3 : L2", "nop", "nop", "mov fd1, rd0 ; goto L0"};
  tb_prog(&b, PE00, 0, prog, 4);
  uint32_t depths[] = {1, 8, 32, 3};
  tb_pkt(&b, STREAM_PKT_REGCFG, 0, 0, PE00, depths, 4);
  uint32_t ag[] = {STREAM_AG_READ, 1, 0, 0, 0, 0, 0, 0};
  tb_pkt(&b, STREAM_PKT_AG, 0, STREAM_SIDE_WEST, PE00, ag, 8);
  tb_pkt(&b, STREAM_PKT_AG, 1, STREAM_SIDE_WEST, PE00, ag, 8);
  tb_pkt(&b, STREAM_PKT_AG, 0, STREAM_SIDE_NORTH, PE00, ag, 8);
  uint32_t gc[] = {1, 1, 4, 0, 0, 0, 0, 0};
  tb_gc(&b, 0, PE00, gc, 8);
  tb_start(&b, 0, PE00);
  uint8_t *buf = NULL;
  size_t len = 0;
  char msg[256] = "";
  TEST_CHECK(!b.bad && stream_writer_finish(&b.w, &buf, &len) == 0, "hand trace: stream built (%s)", b.why);
  fcov_set s = {0};
  const char *trace = "# tcpa-trace 1 fp=0x0000000000000000\n"
                      "0 issue 0,0 0 0\n"          /* br: c0 is 0 -> target 0 (L2) */
                      "0 bank 0,0 w 0 rd 0 0x00000001\n"
                      "0 bank 0,0 w 1 rd 0 0x00000001\n" /* two banks of one side */
                      "1 issue 0,0 0 2\n"
                      "1 bank 0,0 n 0 rd 0 0x00000001\n"
                      "1 bank 0,0 w 0 wr 4 0x00000001\n" /* two sides; bank w0 read and written */
                      "2 issue 0,0 0 3\n"
                      "2 fdrd 0,0 fd2 0x00000000\n"
                      "2 wr 0,0 0 fd1 0x00000001\n"
                      "3 issue 0,0 0 0\n"
                      "4 issue 0,0 0 3\n"          /* br again: target 1 (L3) */
                      "5 done - 6\n";
  TEST_CHECK(count_text(&s, &b, buf, len, trace, msg, sizeof msg) == 0, "hand trace: counted (%s)", msg);
  static const struct {
    const char *name;
    long long want;
  } cases[] = {
      {"branch.br1", 2},       {"branch.target0", 1},  {"branch.target1", 1}, {"branch.goto", 2},
      {"branch.next", 1},      {"branch.cond.signal", 2}, {"branch.cond.flag", 0}, {"op.alu.mov", 4},
      {"fd.depth5-8", 1},      {"fd.depth_max", 1},    {"fd.depth1", 0},       {"bank.same_side", 1},
      {"bank.two_sides", 1},   {"bank.read_write", 1}, {"ag.w.rd", 2},         {"ag.w.wr", 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    TEST_CHECK(count_of(&s, cases[i].name) == cases[i].want, "hand trace: %s = %lld (got %lld)", cases[i].name,
               cases[i].want, count_of(&s, cases[i].name));
  /* the same events one by one (fcov_walk_*, as tcpa run --traces
     on-failure counts the model's): the same set, bin for bin */
  fcov_set w = {0};
  fcov_walk *wk = fcov_walk_new(&w, &b.cfg, buf, len, msg, sizeof msg);
  TEST_CHECK(wk != NULL, "walk: made (%s)", msg);
  for (const char *q = trace; wk && *q;) {
    const char *nl = strchr(q, '\n');
    char line[128];
    snprintf(line, sizeof line, "%.*s", (int)(nl - q), q);
    trace_event e;
    if (trace_line_parse(line, &e, NULL, 0) == TRACE_LINE_EVENT) fcov_walk_event(&e, wk);
    q = nl + 1;
  }
  fcov_walk_finish(wk);
  int same = w.n == s.n && w.runs == 1 && s.runs == 1;
  for (size_t i = 0; same && i < s.n; i++)
    same = !strcmp(w.v[i].name, s.v[i].name) && w.v[i].count == s.v[i].count;
  TEST_CHECK(same, "walk: event by event, the set the trace text gives (%zu bins)", w.n);
  fcov_free(&w);
  fcov_set none = {0};
  TEST_CHECK(fcov_walk_new(&none, &b.cfg, buf, len / 2, msg, sizeof msg) == NULL && strstr(msg, "stream"),
             "walk: a truncated stream is refused (%s)", msg);
  fcov_free(&none);
  fcov_set bad = {0};
  int rc = count_text(&bad, &b, buf, len, "0 issue 0,0 0 0\n1 isue 0,0 0 1\n", msg, sizeof msg);
  TEST_CHECK(rc == -1 && strstr(msg, "line 2"), "hand trace: a malformed line is refused with its number (%s)", msg);
  rc = count_text(&bad, &b, buf, len / 2, "", msg, sizeof msg);
  TEST_CHECK(rc == -1 && strstr(msg, "stream"), "hand trace: a truncated stream is refused (%s)", msg);
  TEST_CHECK(bad.runs == 0, "hand trace: a refused run is not counted");
  fcov_free(&bad);

  /* merge, save, load, report */
  char path[] = "/tmp/test_fcov_XXXXXX";
  int fd = mkstemp(path);
  if (fd >= 0) close(fd);
  TEST_CHECK(fd >= 0 && fcov_save(&s, path) == 0, "files: saved");
  fcov_set back = {0};
  TEST_CHECK(fcov_load(&back, path, msg, sizeof msg) == 0 && fcov_load(&back, path, msg, sizeof msg) == 0,
             "files: loaded twice (%s)", msg);
  TEST_CHECK(back.n == s.n && back.runs == 2 && count_of(&back, "branch.br1") == 4 &&
                 count_of(&back, "op.alu.sub") == 0,
             "files: merged by name, counts and runs added (%zu bins, %llu runs)", back.n,
             (unsigned long long)back.runs);
  FILE *f = fopen(path, "w");
  if (f) fputs("{\"fcov\": 1, \"runs\": 1, \"bins\": {\"op.alu.add\": -3}}", f), fclose(f);
  TEST_CHECK(fcov_load(&back, path, msg, sizeof msg) == -1 && strstr(msg, "op.alu.add"),
             "files: a negative count is refused (%s)", msg);
  remove(path);
  char *text = NULL;
  size_t tlen = 0;
  FILE *r = open_memstream(&text, &tlen);
  fcov_report_text(r, &s, "", 2);
  fclose(r);
  TEST_CHECK(text && strstr(text, "over 1 run\n") && strstr(text, "  branch ") &&
                 strstr(text, "holes: branch.halt") && strstr(text, "(") && !strstr(text, "op.alu.add op.alu.sub op.alu"),
             "report: groups, holes, at most 2 per group");
  free(text);
  fcov_free(&back);
  fcov_free(&s);
  free(buf);
  tb_free(&b);
}

int main(void) {
  test_bins();
  test_worked_example();
  test_hand_trace();
  return test_done();
}
