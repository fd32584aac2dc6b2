/* covers: docs/regress.md "Field coverage" */
/*
 * test_fieldcov.c: unit tests of the field coverage of streams
 * (regress/fieldcov.c, docs/regress.md "Field coverage"): the bins a
 * configuration defines and those it cannot have (a divider, a second
 * branch selector, a value class the bound leaves no room for); the
 * classes a hand-built stream hits, one table row per field (packet
 * header, GC, AG, REGCFG, WRAPPER, IODATA, instruction fields read at
 * their isa.h positions), with the rule that a field counts where it acts
 * (an AG's row coefficient only on two rows or more, nothing but the mode
 * of an AG that is off, the sources an opcode reads); the bins being part
 * of the functional coverage of a run (fcov_run_count) and of its JSON
 * round trip; the report of the fields left at one value class and of
 * the missed bins. Prints TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fcov.h"
#include "fieldcov.h"
#include "test.h"
#include "test_model_tb.h"

/* Returns the count of bin name in s, or -1 when s has no such bin. */
static long long count_of(const fcov_set *s, const char *name) {
  const fcov_bin *b = fcov_bin_find(s, name);
  return b ? (long long)b->count : -1;
}

/* The bins of the default configuration and of one with a divider and
 * four-target branches. */
static void test_define(void) {
  arch_config cfg = tb_default_arch(), big = cfg;
  big.div = 1, big.branch_targets = 4, big.fd = 1;
  fcov_set s = {0}, t = {0};
  fieldcov *fc = fieldcov_new(&s, &cfg), *fb = fieldcov_new(&t, &big);
  TEST_CHECK(fc && fb, "define: field counters made");
  static const struct {
    const char *name;
    int on_default, on_big;
  } cases[] = {
      {"field.ag.col_coef.neg", 1, 1},      {"field.ag.stride5.pos", 1, 1},   {"field.ag.stride6.pos", 0, 0},
      {"field.gc.cons.coef0.zero", 1, 1},   {"field.gc.ndims.max", 1, 1},     {"field.gc.ii.max", 0, 0},
      {"field.gc.delay0.max", 1, 1},        {"field.gc.term.signal.max", 1, 1}, {"field.regcfg.fd3.max", 1, 0},
      {"field.regcfg.fd0.more", 1, 1},      {"field.wrapper.id0.od", 1, 1},   {"field.wrapper.w3.max", 1, 1},
      {"field.wrapper.n0.off", 1, 1},       {"field.program.row0.max", 1, 1}, {"field.start.rows.max", 1, 1},
      {"field.iodata.data.min", 1, 1},      {"field.ag.mode.write", 1, 1},    {"field.ag.side.w", 1, 1},
      {"insn.alu.op.add", 1, 1},            {"insn.alu.op.mul", 0, 0},        {"insn.mul.op.mul", 1, 1},
      {"insn.div.op.div", 0, 1},            {"insn.mul.srcc.cls.rd", 0, 0},   {"insn.alu.srcc.cls.imm", 1, 1},
      {"insn.alu.srca.cls.id", 1, 1},       {"insn.alu.dst.cls.id", 0, 0},    {"insn.alu.imm.min", 1, 1},
      {"insn.alu.bsel0.flagmax", 1, 1},     {"insn.alu.bsel1.sig0", 0, 1},    {"insn.alu.bnsel.2", 0, 1},
      {"insn.alu.bt1.max", 1, 1},           {"insn.alu.bt3.zero", 0, 1},      {"insn.alu.odmask.max", 1, 1},
      {"insn.alu.dst.idx.max", 1, 1},       {"insn.alu.nop_n.nonzero", 1, 1},   {"insn.alu.dst.cls.none", 1, 1},
      {"insn.alu.srca.cls.none", 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    TEST_CHECK((count_of(&s, cases[i].name) == 0) == cases[i].on_default, "define: %s %s on default.ini",
               cases[i].name, cases[i].on_default ? "defined" : "not defined");
    TEST_CHECK((count_of(&t, cases[i].name) == 0) == cases[i].on_big, "define: %s %s with div, 4 targets, 1 fd",
               cases[i].name, cases[i].on_big ? "defined" : "not defined");
  }
  size_t field = 0;
  for (size_t i = 0; i < s.n; i++) field += fieldcov_is_field_bin(s.v[i].name);
  fcov_set u = {0};
  fcov_bins_define(&u, &cfg);
  TEST_CHECK(field == s.n && field > 400 && count_of(&u, "field.ag.row_coef.neg") == 0 &&
                 count_of(&u, "op.alu.add") == 0,
             "define: %zu field bins, all in groups field and insn, defined with the functional coverage's", field);
  fieldcov_free(fc);
  fieldcov_free(fb);
  fcov_free(&s);
  fcov_free(&t);
  fcov_free(&u);
}

/* Builds the stream of the counting test into *buf, *len; returns 0. */
static int build_stream(tb *b, uint8_t **buf, size_t *len) {
  tb_init(b, tb_default_arch());
  static const char *const alu[] = {"add rd3, id1, #-2147483648 ; br f2 ? L1 : L31", "sel fd0, rd0, rd1, #0",
                                    "nop 3 ; halt"};
  tb_prog(b, (stream_rect){1, 2, 2, 1}, 1, alu, 3);
  uint32_t depths[] = {1, 32, 5, 2};
  tb_pkt(b, STREAM_PKT_REGCFG, 0, 0, (stream_rect){0, 0, 4, 4}, depths, 4);
  /* sink id0 from od0, n0 from w3 (the last source), e1 unconnected */
  int pairs[] = {tb_sink_id(b, 0), tb_src_od(b, 0), tb_sink_out(b, 0, 0), tb_src_in(b, 3, 3)};
  tb_wrapper(b, (stream_rect){0, 0, 1, 1}, pairs, 2);
  /* an AG on the north border, two columns: the column coefficient acts,
   * the row one does not; one constraint (eq) over 2 dimensions */
  uint32_t ag[] = {STREAM_AG_READ, 2, 0, 7, 5, (uint32_t)-3, 0, 4, 1, STREAM_CONS_EQ, (uint32_t)-1, 0, 9};
  tb_pkt(b, STREAM_PKT_AG, 3, STREAM_SIDE_NORTH, (stream_rect){0, 1, 1, 2}, ag, 13);
  /* an AG that is off: only its mode counts */
  uint32_t off[] = {STREAM_AG_OFF, 1, 0, 0, 1, 1, 1, 0};
  tb_pkt(b, STREAM_PKT_AG, 0, STREAM_SIDE_WEST, (stream_rect){0, 0, 2, 1}, off, 8);
  uint32_t io[] = {1023, 0x7fffffffu};
  tb_pkt(b, STREAM_PKT_IODATA, 0, STREAM_SIDE_EAST, (stream_rect){3, 3, 1, 1}, io, 2);
  /* GC: ii 1, 1 dimension of 4, epilog 0, delays 0 0 -1 (two columns, one
   * row: the column slope acts), one term of signal 7 from col_lo 1 */
  uint32_t gc[] = {1, 1, 4, 0, 3, 0, (uint32_t)-1, 1, STREAM_TERM_WORD(7, 0, 0, 1, 0), 0};
  tb_gc(b, 2, (stream_rect){2, 0, 1, 2}, gc, 10);
  tb_start(b, 2, (stream_rect){2, 0, 1, 2});
  return b->bad || stream_writer_finish(&b->w, buf, len) ? -1 : 0;
}

/* The classes one hand-built stream hits, field by field. */
static void test_count(void) {
  tb b;
  uint8_t *buf = NULL;
  size_t len = 0;
  char msg[256] = "";
  TEST_CHECK(build_stream(&b, &buf, &len) == 0, "count: stream built (%s)", b.why);
  fcov_set s = {0};
  TEST_CHECK(fieldcov_stream_count(&s, &b.cfg, buf, len, msg, sizeof msg) == 0, "count: stream read (%s)", msg);
  static const struct {
    const char *name;
    long long count;
  } cases[] = {
      /* packet headers */
      {"field.program.row0.nonzero", 1}, {"field.program.col0.nonzero", 1}, {"field.program.rows.more", 1},
      {"field.program.cols.one", 1},     {"field.program.fu.nonzero", 1},   {"field.regcfg.rows.max", 1},
      {"field.ag.bank.max", 1},          {"field.ag.bank.zero", 1},         {"field.ag.side.n", 1},
      {"field.ag.side.w", 1},            {"field.iodata.side.e", 1},        {"field.gc.index.nonzero", 1},
      {"field.start.index.nonzero", 1},  {"field.start.row0.nonzero", 1},   {"field.gc.cols.more", 1},
      /* REGCFG: one of 1, fd_depth 32 the max, 5 and 2 more */
      {"field.regcfg.fd0.one", 1},       {"field.regcfg.fd1.max", 1},       {"field.regcfg.fd2.more", 1},
      {"field.regcfg.fd3.more", 1},      {"field.regcfg.fd3.one", 0},
      /* WRAPPER: each sink's select class */
      {"field.wrapper.id0.od", 1},       {"field.wrapper.n0.max", 1},       {"field.wrapper.n0.w", 0},
      {"field.wrapper.e1.off", 1},       {"field.wrapper.id1.off", 1},
      /* AG: mode of both; the rest of the read one only */
      {"field.ag.mode.read", 1},         {"field.ag.mode.off", 1},          {"field.ag.ndims.more", 1},
      {"field.ag.ndims.one", 0},         {"field.ag.phase.zero", 1},        {"field.ag.base.pos", 1},
      {"field.ag.base.zero", 0},         {"field.ag.row_coef.pos", 0},      {"field.ag.row_coef.zero", 0},
      {"field.ag.col_coef.neg", 1},      {"field.ag.stride0.zero", 1},      {"field.ag.stride1.pos", 1},
      {"field.ag.stride2.pos", 0},       {"field.ag.ncons.nonzero", 1},     {"field.ag.cons.kind.eq", 1},
      {"field.ag.cons.coef0.neg", 1},    {"field.ag.cons.coef1.zero", 1},   {"field.ag.cons.konst.pos", 1},
      /* GC */
      {"field.gc.ii.one", 1},            {"field.gc.ndims.one", 1},         {"field.gc.bound0.more", 1},
      {"field.gc.epilog.zero", 1},       {"field.gc.delay0.nonzero", 1},    {"field.gc.delay_row.zero", 0},
      {"field.gc.delay_col.neg", 1},     {"field.gc.nterms.nonzero", 1},    {"field.gc.term.signal.max", 1},
      {"field.gc.term.col_lo.nonzero", 1}, {"field.gc.term.row_lo.zero", 1}, {"field.gc.term.ncons.zero", 1},
      /* IODATA */
      {"field.iodata.start.max", 1},     {"field.iodata.words.one", 1},     {"field.iodata.data.max", 1},
      /* instructions of alu1: add, sel, nop */
      {"insn.alu.op.add", 1},            {"insn.alu.op.sel", 1},            {"insn.alu.op.nop", 1},
      {"insn.alu.dst.cls.rd", 1},        {"insn.alu.dst.cls.fd", 1},        {"insn.alu.dst.idx.max", 1},
      {"insn.alu.dst.idx.zero", 1},      {"insn.alu.srca.cls.id", 1},       {"insn.alu.srca.idx.nonzero", 1},
      {"insn.alu.srca.cls.rd", 1},       {"insn.alu.srcb.cls.imm", 1},      {"insn.alu.srcb.cls.rd", 1},
      {"insn.alu.srcc.cls.imm", 1},      {"insn.alu.imm.min", 1},
      {"insn.alu.imm.zero", 1},          {"insn.alu.nop_n.nonzero", 1},     {"insn.alu.odmask.zero", 2},
      {"insn.alu.bkind.br", 1},          {"insn.alu.bkind.next", 1},        {"insn.alu.bkind.halt", 1},
      {"insn.alu.bnsel.1", 1},           {"insn.alu.bsel0.flagmax", 1},     {"insn.alu.bt0.max", 1},
      {"insn.alu.bt1.nonzero", 1},           {"insn.mul.op.nop", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    TEST_CHECK(count_of(&s, cases[i].name) == cases[i].count, "count: %s = %lld (got %lld)", cases[i].name,
               cases[i].count, count_of(&s, cases[i].name));
  TEST_CHECK(s.runs == 0, "count: fieldcov_stream_count counts no run");

  /* part of a run's functional coverage, through the JSON file */
  fcov_set run = {0};
  FILE *t = fmemopen((void *)"# tcpa-trace 1 fp=0x0000000000000000\n", 37, "r");
  TEST_CHECK(t && fcov_run_count(&run, &b.cfg, buf, len, t, msg, sizeof msg) == 0 &&
                 count_of(&run, "field.ag.col_coef.neg") == 1 && count_of(&run, "insn.alu.imm.min") == 1 &&
                 run.runs == 1,
             "run: the field bins are counted with the run's functional coverage (%s)", msg);
  if (t) fclose(t);
  char path[] = "/tmp/test_fieldcov_XXXXXX";
  int fd = mkstemp(path);
  fcov_set back = {0};
  TEST_CHECK(fd >= 0 && fcov_save(&run, path) == 0 && fcov_load(&back, path, msg, sizeof msg) == 0 &&
                 fcov_load(&back, path, msg, sizeof msg) == 0 && count_of(&back, "field.ag.col_coef.neg") == 2 &&
                 count_of(&back, "field.ag.row_coef.neg") == 0,
             "files: field bins saved, loaded and merged (counts added)");
  if (fd >= 0) close(fd), remove(path);

  /* the report of the fields left at one value class */
  char *text = NULL;
  size_t tlen = 0;
  FILE *r = open_memstream(&text, &tlen);
  int flat = fieldcov_report_flat(r, &s, "", 0);
  fclose(r);
  TEST_CHECK(flat > 10 && strstr(text, "fields at one value class: ") && strstr(text, "\n  field.ag.col_coef=neg\n") &&
                 strstr(text, "\n  field.gc.ii=one\n") && !strstr(text, "field.ag.bank=") &&
                 !strstr(text, "field.ag.mode="),
             "report: %d fields at one class, listed with it; fields of two classes not", flat);
  free(text);
  r = open_memstream(&text, &tlen);
  int missed = fieldcov_report_missed(r, &s);
  fclose(r);
  TEST_CHECK(missed > 100 && strstr(text, "missed: field.ag.row_coef.pos\n") &&
                 !strstr(text, "missed: field.ag.col_coef.neg\n"),
             "report: %d bins missed, each named", missed);
  free(text);
  fcov_set none = {0};
  TEST_CHECK(fieldcov_stream_count(&none, &b.cfg, buf, len / 2, msg, sizeof msg) == -1 && strstr(msg, "stream"),
             "count: a cut stream is refused (%s)", msg);
  free(buf);
  tb_free(&b);
  fcov_free(&s);
  fcov_free(&run);
  fcov_free(&back);
  fcov_free(&none);
}

int main(void) {
  test_define();
  test_count();
  return test_done();
}
