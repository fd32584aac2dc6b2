/* covers: docs/regress.md "Operand values", docs/isa.md */
/*
 * test_valcov.c: unit tests of the operand value coverage of runs
 * (regress/valcov.c, docs/regress.md "Operand values"): the bins a
 * configuration defines per FU and operation class; the classes a
 * hand-written trace hits, one row per operand, from the sources the
 * events give (an rd as `rf` wrote it at the end of an earlier cycle, the
 * word `pop` read in the cycle, the immediate), nothing for an
 * operand they do not give (an fd without `fdrd`); the result from the
 * operation of docs/isa.md; the bins taken together by FU kind
 * (valcov_by_kind). Prints TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fcov.h"
#include "test.h"
#include "test_model_tb.h"
#include "valcov.h"

/* Returns the count of bin name in s, or -1 when s has no such bin. */
static long long count_of(const fcov_set *s, const char *name) {
  const fcov_bin *b = fcov_bin_find(s, name);
  return b ? (long long)b->count : -1;
}

/* The bins of the default configuration (alu0, alu1, mul0; no divider). */
static void test_define(void) {
  arch_config cfg = tb_default_arch();
  fcov_set s = {0};
  valcov *v = valcov_new(&s, &cfg);
  TEST_CHECK(v != NULL, "define: value counter made");
  static const struct {
    const char *name;
    int defined;
  } cases[] = {
      {"value.alu0.cmp.a.neg", 1},   {"value.alu1.minmax.b.min", 1}, {"value.alu1.minmax.eq", 1},
      {"value.alu0.cmp.r.one", 1},   {"value.alu0.cmp.r.neg", 0},    {"value.alu0.shift.amt.31", 1},
      {"value.alu0.shift.amt.wrap", 1}, {"value.alu0.shift.b.neg", 0}, {"value.alu0.shift.eq", 0},
      {"value.alu0.unary.b.zero", 0}, {"value.alu0.unary.r.max", 1},  {"value.mul0.mul.r.min", 1},
      {"value.mul0.cmp.a.zero", 0},  {"value.alu0.mul.a.zero", 0},    {"value.div0.div.a.zero", 0},
      {"value.alu2.arith.a.zero", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    TEST_CHECK((count_of(&s, cases[i].name) == 0) == cases[i].defined, "define: %s %s", cases[i].name,
               cases[i].defined ? "defined" : "not defined");
  valcov_free(v);
  fcov_free(&s);
}

/* A hand-written trace over a program of alu0 on PE (0,0). */
static void test_count(void) {
  tb b;
  tb_init(&b, tb_default_arch());
  static const char *const prog[] = {"add rd0, rd1, #5", "max rd2, rd1, #-5", "lt rd3, id0, id0",
                                     "shl rd0, rd1, #33", "lt rd3, fd0, #1"};
  tb_prog(&b, (stream_rect){0, 0, 1, 1}, 0, prog, 5);
  uint32_t gc[] = {1, 1, 8, 0, 0, 0, 0, 0};
  tb_gc(&b, 0, (stream_rect){0, 0, 1, 1}, gc, 8);
  tb_start(&b, 0, (stream_rect){0, 0, 1, 1});
  uint8_t *buf = NULL;
  size_t len = 0;
  char msg[256] = "";
  TEST_CHECK(!b.bad && stream_writer_finish(&b.w, &buf, &len) == 0, "count: stream built (%s)", b.why);
  const char *trace = "# tcpa-trace 1 fp=0x0000000000000000\n"
                      "0 issue 0,0 0 0\n"            /* add: rd1 = 0 (reset), #5 */
                      "0 rf 0,0 rd1 0x80000000\n"    /* rd1 = -2^31 from the next cycle on */
                      "1 issue 0,0 0 1\n"            /* max: rd1 = -2^31, #-5 */
                      "2 issue 0,0 0 2\n"            /* lt: id0 and id0, the word popped: 7 */
                      "2 pop 0,0 id0 0x00000007\n"
                      "3 issue 0,0 0 3\n"            /* shl: -2^31 by 33 (mod 32: 1) */
                      "4 issue 0,0 0 4\n";           /* lt: fd0 not read by an fdrd: unknown */
  FILE *f = fmemopen((void *)trace, strlen(trace), "r");
  fcov_set s = {0};
  TEST_CHECK(f && fcov_run_count(&s, &b.cfg, buf, len, f, msg, sizeof msg) == 0, "count: trace read (%s)", msg);
  if (f) fclose(f);
  static const struct {
    const char *name;
    long long count;
  } cases[] = {
      {"value.alu0.arith.a.zero", 1}, {"value.alu0.arith.b.pos", 1},   {"value.alu0.arith.r.pos", 1},
      {"value.alu0.arith.eq", 0},     {"value.alu0.minmax.a.min", 1},  {"value.alu0.minmax.b.neg", 1},
      {"value.alu0.minmax.r.neg", 1}, {"value.alu0.minmax.r.min", 0},  {"value.alu0.cmp.a.pos", 1},
      {"value.alu0.cmp.b.pos", 2},    {"value.alu0.cmp.eq", 1},        {"value.alu0.cmp.r.zero", 1},
      {"value.alu0.cmp.r.one", 0},    {"value.alu0.cmp.a.zero", 0},    {"value.alu0.shift.a.min", 1},
      {"value.alu0.shift.amt.wrap", 1}, {"value.alu0.shift.amt.mid", 0}, {"value.alu0.shift.r.zero", 1},
      {"value.alu1.arith.a.zero", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    TEST_CHECK(count_of(&s, cases[i].name) == cases[i].count, "count: %s = %lld (got %lld)", cases[i].name,
               cases[i].count, count_of(&s, cases[i].name));
  free(buf);
  tb_free(&b);
  fcov_free(&s);
}

/* The value bins by FU kind (valcov_by_kind): alu0's and alu1's counts
 * added under value.alu..., mul0's under value.mul...; every bin of the
 * configuration there, zeros included; no other group taken. */
static void test_by_kind(void) {
  arch_config cfg = tb_default_arch();
  fcov_set s = {0}, k = {0};
  TEST_CHECK(fcov_bins_define(&s, &cfg) == 0, "the bins of the default configuration");
  fcov_bin_find(&s, "value.alu0.minmax.b.max")->count = 2;
  fcov_bin_find(&s, "value.alu1.minmax.b.max")->count = 3;
  fcov_bin_find(&s, "value.mul0.mul.r.min")->count = 1;
  fcov_bin_find(&s, "op.alu.max")->count = 5;
  s.runs = 4;
  TEST_CHECK(valcov_by_kind(&k, &s) == 0, "by kind");
  static const struct {
    const char *name;
    long long count;
  } cases[] = {
      {"value.alu.minmax.b.max", 5}, /* alu0 + alu1 */
      {"value.mul.mul.r.min", 1},
      {"value.alu.minmax.b.min", 0}, /* defined, not hit */
      {"value.alu.shift.amt.31", 0},
      {"value.alu0.minmax.b.max", -1}, /* no FU number */
      {"op.alu.max", -1},            /* only the group value */
      {"value.div.div.a.zero", -1},  /* no divider */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    TEST_CHECK(count_of(&k, cases[i].name) == cases[i].count, "by kind: %s = %lld (got %lld)", cases[i].name,
               cases[i].count, count_of(&k, cases[i].name));
  size_t nfu = 0;
  for (size_t i = 0; i < s.n; i++) nfu += !strncmp(s.v[i].name, "value.alu0.", 11) + !strncmp(s.v[i].name, "value.mul0.", 11);
  TEST_CHECK(k.n == nfu && k.runs == 4, "by kind: as many bins as one ALU's and one multiplier's (%zu, %zu), the runs",
             k.n, nfu);
  fcov_free(&s);
  fcov_free(&k);
}

int main(void) {
  test_define();
  test_count();
  test_by_kind();
  return test_done();
}
