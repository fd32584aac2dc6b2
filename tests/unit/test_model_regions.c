/* covers: docs/timing.md "11. Several regions",
 *   docs/trace.md "Several regions", docs/stream.md "Several streams in one run" */
/*
 * test_model_regions.c: runs of several streams on the C model
 * (model_new_multi). Each stream is one PE on the north border: a read AG
 * takes an input word from north bank 0 at cycle 0, FU 0 waits (a
 * `nop N`), adds an immediate and halts, the result goes out on od0 to
 * north bank 1, where a write AG takes it. By timing.md: the bank word is
 * pushed into id0 at the end of 1; with `nop N` at pc 0 the add issues at
 * N, od0's token hops at N + 1 and reaches the bank at N + 2, the write
 * event's phase; done at N + 2, so a region runs N + 3 cycles alone.
 *
 * Checked, table-driven: each region's own cycles and output beside
 * another equal those alone, and the PE's own trace lines are the alone
 * trace shifted by its start cycle (isolation); the rstart, rdone and gc G
 * lines; a stream touching a running region (its PEs, its GC) is refused
 * with STREAM_ERR_BUSY naming the region, while one loaded after that
 * region's done is not; a region reloaded after done runs as alone; start
 * cycles whose loading windows overlap are refused before anything runs.
 */
#include "test_model_tb.h"

/* One region of a test: PE (0, col), GC g, input x, immediate k, `nop N`
 * at pc 0 (N >= 2). */
typedef struct {
  int col, gc;
  uint32_t x, k;
  int nop;
} rg_spec;

/* Returns the stream of spec s (malloc'ed, length in *len); NULL after
 * failing the test with why. */
static uint8_t *rg_stream(const rg_spec *s, size_t *len) {
  tb b;
  tb_init(&b, tb_default_arch());
  stream_rect pe = {0, s->col, 1, 1};
  char nop[32], add[64];
  snprintf(nop, sizeof nop, "nop %d", s->nop);
  snprintf(add, sizeof add, "add od0, id0, #%u ; halt", s->k);
  const char *const prog[] = {nop, add};
  tb_prog(&b, pe, 0, prog, 2);
  int wr[] = {tb_sink_id(&b, 0), tb_src_in(&b, STREAM_SIDE_NORTH, 0), tb_sink_out(&b, STREAM_SIDE_NORTH, 1),
              tb_src_od(&b, 0)};
  tb_wrapper(&b, pe, wr, 2);
  uint32_t gc[] = {1, 1, 1, 0, 0, 0, 0, 0}; /* ii 1, one step, no signals */
  tb_gc(&b, s->gc, pe, gc, 8);
  uint32_t rd_ag[] = {STREAM_AG_READ, 1, 0, 0, 0, 0, 0, 0};
  uint32_t wr_ag[] = {STREAM_AG_WRITE, 1, (uint32_t)s->nop + 2, 0, 0, 0, 0, 0};
  tb_pkt(&b, STREAM_PKT_AG, 0, STREAM_SIDE_NORTH, pe, rd_ag, 8);
  tb_pkt(&b, STREAM_PKT_AG, 1, STREAM_SIDE_NORTH, pe, wr_ag, 8);
  uint32_t io[] = {0, s->x};
  tb_pkt(&b, STREAM_PKT_IODATA, 0, STREAM_SIDE_NORTH, pe, io, 2);
  tb_start(&b, s->gc, pe);
  uint8_t *buf = NULL;
  if (!b.bad && stream_writer_finish(&b.w, &buf, len)) tb_fail(&b, "finish", b.w.msg);
  TEST_CHECK(!b.bad, "stream of PE (0,%d) built (%s)", s->col, b.why);
  tb_free(&b);
  return buf;
}

/* Returns the stream's words (its loading window, timing.md 11). */
static uint64_t rg_words(size_t len) { return len / 4; }

/* A run of n regions: their streams, the model, its trace. */
typedef struct {
  uint8_t *bytes[4];
  size_t len[4];
  model_stream_in in[4];
  tb b; /* the trace */
  model *m;
  model_error err;
} rg_run;

/* Starts a run of specs s[0..n), stream k at start[k] (start[k] < 0: the
 * earliest its loading window allows, plus -start[k] - 1). */
static void rg_run_new(rg_run *r, const rg_spec *s, const int64_t *start, int n) {
  memset(r, 0, sizeof *r);
  tb_init(&r->b, tb_default_arch());
  uint64_t prev = 0;
  for (int k = 0; k < n; k++) {
    r->bytes[k] = rg_stream(&s[k], &r->len[k]);
    uint64_t t = start[k] >= 0 ? (uint64_t)start[k] : prev + rg_words(r->len[k]) + (uint64_t)(-start[k] - 1);
    if (k == 0) t = start[0] >= 0 ? (uint64_t)start[0] : 0;
    r->in[k] = (model_stream_in){r->bytes[k], r->len[k], t};
    prev = t;
  }
  r->m = model_new_multi(&r->b.cfg, r->in, n, &r->err);
  if (r->m) model_set_trace(r->m, tb_sink, &r->b);
}

static void rg_run_free(rg_run *r) {
  model_free(r->m);
  for (int k = 0; k < 4; k++) free(r->bytes[k]);
  tb_free(&r->b);
}

/* Returns north bank 1's word 0 of PE (0, col) (0 when unreadable). */
static uint32_t rg_out(const model *m, int col) {
  uint32_t v = 0;
  return model_bank_read(m, 0, col, STREAM_SIDE_NORTH, 1, 0, &v) ? 0 : v;
}

/* Returns the lines of trace text t at PE (0, col), each cycle less
 * `shift` (malloc'ed): a region's own events, on its own clock. */
static char *rg_pe_lines(const char *t, int col, uint64_t shift) {
  size_t cap = strlen(t ? t : "") + 1, n = 0;
  char *out = calloc(cap, 1), place[16];
  snprintf(place, sizeof place, " 0,%d", col);
  for (const char *p = t; p && *p;) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)len, p);
    char *sp = strchr(line, ' ');
    if (sp && strstr(line, place) == strchr(sp + 1, ' ')) {
      unsigned long long cyc = strtoull(line, NULL, 10);
      n += (size_t)snprintf(out + n, cap - n, "%llu%s\n", cyc - shift, sp);
    }
    p = e ? e + 1 : p + len;
  }
  return out;
}

/* Isolation: each region's cycles, output and own trace lines beside the
 * others are those alone (shifted by its start); the run's trace has its
 * rstart, rdone and gc G lines. */
static void test_isolation(void) {
  static const struct {
    const char *name;
    int n;
    rg_spec s[3];
    int64_t start[3];
  } cases[] = {
      {"two regions, the second loaded while the first runs", 2,
       {{0, 0, 6, 10, 50}, {3, 1, 7, 20, 2}}, {0, -3}},
      {"three regions on GCs 2, 0, 3", 3,
       {{1, 2, 100, 1, 40}, {2, 0, 5, 5, 3}, {3, 3, 9, 1, 4}}, {0, -1, -1}},
      {"the second started long after the first is done", 2,
       {{0, 0, 1, 2, 2}, {3, 1, 3, 4, 2}}, {0, 200}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    rg_run all;
    rg_run_new(&all, cases[i].s, cases[i].start, cases[i].n);
    TEST_CHECK(all.m != NULL, "%s: run accepted (%s)", cases[i].name, all.err.msg);
    if (!all.m) {
      rg_run_free(&all);
      continue;
    }
    TEST_CHECK(model_run(all.m, 2000) == 0, "%s: done", cases[i].name);
    uint64_t last = 0;
    for (int k = 0; k < cases[i].n; k++) {
      const rg_spec *s = &cases[i].s[k];
      rg_run one;
      int64_t zero = 0;
      rg_run_new(&one, s, &zero, 1);
      if (!one.m || model_run(one.m, 2000)) {
        TEST_CHECK(0, "%s: region %d alone runs", cases[i].name, k);
        rg_run_free(&one);
        continue;
      }
      model_region_view v;
      TEST_CHECK(model_region_get(all.m, k, &v) == 0 && v.started && v.done && v.gc == s->gc &&
                     v.row0 == 0 && v.col0 == s->col && v.rows == 1 && v.cols == 1,
                 "%s: region %d: GC %d on PE (0,%d)", cases[i].name, k, v.gc, v.col0);
      uint64_t alone = model_cycles(one.m);
      TEST_CHECK(alone == (uint64_t)s->nop + 3, "%s: region %d alone: %llu cycles (nop %d + 3)", cases[i].name,
                 k, (unsigned long long)alone, s->nop);
      TEST_CHECK(v.cycles == alone, "%s: region %d: %llu cycles beside the others, %llu alone", cases[i].name, k,
                 (unsigned long long)v.cycles, (unsigned long long)alone);
      TEST_CHECK(rg_out(all.m, s->col) == s->x + s->k && rg_out(one.m, s->col) == s->x + s->k,
                 "%s: region %d: output %u beside, %u alone, %u expected", cases[i].name, k, rg_out(all.m, s->col),
                 rg_out(one.m, s->col), s->x + s->k);
      char *a = rg_pe_lines(all.b.trace, s->col, v.start_cycle), *b1 = rg_pe_lines(one.b.trace, s->col, 0);
      TEST_CHECK(a && b1 && !strcmp(a, b1) && strlen(a) > 50, "%s: region %d: its PE's trace is its trace alone",
                 cases[i].name, k);
      if (a && b1 && strcmp(a, b1)) printf("# beside:\n%s# alone:\n%s", a, b1);
      free(a);
      free(b1);
      char line[64];
      snprintf(line, sizeof line, "%llu rdone %d %llu", (unsigned long long)(v.start_cycle + v.cycles - 1), s->gc,
               (unsigned long long)v.cycles);
      TEST_CHECK(tb_has(&all.b, line), "%s: '%s'", cases[i].name, line);
      snprintf(line, sizeof line, "%llu rstart %d", (unsigned long long)v.start_cycle, s->gc);
      TEST_CHECK(k == 0 ? !strstr(all.b.trace, " rstart 0\n") || s->gc != 0 : tb_has(&all.b, line),
                 "%s: region %d: rstart at its start cycle", cases[i].name, k);
      if (v.start_cycle + v.cycles > last) last = v.start_cycle + v.cycles;
      rg_run_free(&one);
    }
    char done[48];
    snprintf(done, sizeof done, "%llu done - %llu", (unsigned long long)(last - 1), (unsigned long long)last);
    TEST_CHECK(tb_has(&all.b, done) && model_cycles(all.m) == last, "%s: '%s' when the last region is done",
               cases[i].name, done);
    TEST_CHECK(!strstr(all.b.trace, " gc - "), "%s: no gc line at `-` with several streams", cases[i].name);
    rg_run_free(&all);
  }
}

/* A region whose GC runs 4 steps of ii 2 (one term, true in every
 * step) has gc lines at S*ii - 1 = 1, 3, 5: at `-` with one stream, at
 * its GC (2) beside a second stream. */
static void test_gc_lines(void) {
  tb b;
  tb_init(&b, tb_default_arch());
  stream_rect pe = {0, 0, 1, 1};
  const char *const prog[] = {"nop 10", "nop ; halt"};
  tb_prog(&b, pe, 0, prog, 2);
  uint32_t gc[] = {2, 1, 4, 0, 0, 0, 0, 1, 0, 1, STREAM_CONS_GE, 1, 0}; /* c0 = j0 >= 0 */
  tb_gc(&b, 2, pe, gc, 13);
  tb_start(&b, 2, pe);
  uint8_t *s0 = NULL;
  size_t len0 = 0;
  TEST_CHECK(!b.bad && !stream_writer_finish(&b.w, &s0, &len0), "gc lines: stream built (%s)", b.why);
  rg_spec other = {3, 1, 1, 1, 2};
  size_t len1 = 0;
  uint8_t *s1 = rg_stream(&other, &len1);
  for (int n = 1; n <= 2 && s0 && s1; n++) {
    model_stream_in in[2] = {{s0, len0, 0}, {s1, len1, rg_words(len1) + 1}};
    tb t;
    tb_init(&t, tb_default_arch());
    model_error err = {0, ""};
    model *m = model_new_multi(&t.cfg, in, n, &err);
    if (m) model_set_trace(m, tb_sink, &t);
    TEST_CHECK(m && model_run(m, 500) == 0, "gc lines, %d stream(s): done (%s)", n, err.msg);
    const char *want1 = n == 1 ? "1 gc - 1 0x00000001\n" : "1 gc 2 1 0x00000001\n";
    const char *want3 = n == 1 ? "5 gc - 3 0x00000001\n" : "5 gc 2 3 0x00000001\n";
    TEST_CHECK(t.state && strstr(t.state, want1) && strstr(t.state, want3), "gc lines, %d stream(s): %.19s",
               n, want1);
    model_free(m);
    tb_free(&t);
  }
  free(s0);
  free(s1);
  tb_free(&b);
}

/* The loader's refusals (timing.md 11): a stream whose first word comes
 * while region 0 (PE (0,0), GC 0, 53 cycles) runs is refused when it
 * touches that region's PE or GC, accepted when it touches neither or
 * comes after its done. */
static void test_busy(void) {
  static const struct {
    const char *name;
    rg_spec s1;
    int64_t late; /* cycles after the earliest start */
    int busy;
  } cases[] = {
      {"PE packets on the running region's PE", {0, 1, 4, 4, 2}, 2, 1},
      {"a GC and START of the running region's GC elsewhere", {2, 0, 4, 4, 2}, 2, 1},
      {"another PE and GC", {2, 1, 4, 4, 2}, 2, 0},
      {"the same PE after the region's done", {0, 1, 4, 4, 2}, 60, 0},
      {"the same GC after the region's done", {3, 0, 4, 4, 2}, 60, 0},
  };
  rg_spec s0 = {0, 0, 6, 10, 50};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    rg_spec s[2] = {s0, cases[i].s1};
    int64_t start[2] = {0, -1 - cases[i].late};
    rg_run r;
    rg_run_new(&r, s, start, 2);
    TEST_CHECK(r.m != NULL, "%s: run accepted up front (%s)", cases[i].name, r.err.msg);
    if (!r.m) {
      rg_run_free(&r);
      continue;
    }
    int rc = model_run(r.m, 2000);
    model_error e = {0, ""};
    int failed = model_failed(r.m, &e);
    if (cases[i].busy) {
      uint64_t first = r.in[1].start - rg_words(r.len[1]);
      TEST_CHECK(rc == -1 && failed && e.code == STREAM_ERR_BUSY && strstr(e.msg, "stream 1") &&
                     strstr(e.msg, "running region of GC 0") && model_cycles(r.m) == first &&
                     !strstr(r.b.trace ? r.b.trace : "", " done "),
                 "%s: refused BUSY before cycle %llu, no done (rc %d, stopped at %llu: %s)", cases[i].name,
                 (unsigned long long)first, rc, (unsigned long long)model_cycles(r.m), e.msg);
    } else {
      model_region_view v;
      TEST_CHECK(rc == 0 && !failed && model_region_get(r.m, 1, &v) == 0 && v.done && v.cycles == 5 &&
                     rg_out(r.m, s[1].col) == s[1].x + s[1].k,
                 "%s: accepted, 5 cycles, output %u (rc %d: %s)", cases[i].name, rg_out(r.m, s[1].col), rc, e.msg);
    }
    rg_run_free(&r);
  }
}

/* A region reloaded after its done, with another program and input on
 * the same PE and GC: its registers, FIFOs and FUs restart, it runs as
 * alone, and its output replaces the first one's. */
static void test_reload(void) {
  rg_spec s[2] = {{1, 3, 6, 10, 2}, {1, 3, 40, 2, 7}};
  int64_t start[2] = {0, -21};
  rg_run r;
  rg_run_new(&r, s, start, 2);
  TEST_CHECK(r.m && model_run(r.m, 2000) == 0, "reload: done (%s)", r.err.msg);
  model_region_view v0, v1;
  if (!r.m || model_region_get(r.m, 0, &v0) || model_region_get(r.m, 1, &v1)) {
    rg_run_free(&r);
    return;
  }
  TEST_CHECK(v0.cycles == 5 && v1.cycles == 10 && v1.start_cycle > v0.cycles, "reload: 5 then 10 cycles (%llu, %llu)",
             (unsigned long long)v0.cycles, (unsigned long long)v1.cycles);
  TEST_CHECK(rg_out(r.m, 1) == 42, "reload: output 42 (got %u)", rg_out(r.m, 1));
  char line[64];
  snprintf(line, sizeof line, "%llu start 0,1", (unsigned long long)v1.start_cycle);
  TEST_CHECK(tb_has(&r.b, line), "reload: '%s'", line);
  rg_run_free(&r);
}

/* Start cycles that break the rules are refused before anything runs. */
static void test_plan(void) {
  rg_spec s[2] = {{0, 0, 1, 1, 2}, {3, 1, 1, 1, 2}};
  static const struct {
    const char *name;
    int64_t start[2];
    const char *why;
  } cases[] = {
      {"stream 0 not at 0", {3, 400}, "stream 0 starts at cycle 3"},
      {"the second loaded before the first starts", {0, 5}, "stream 1"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    rg_run r;
    rg_run_new(&r, s, cases[i].start, 2);
    TEST_CHECK(!r.m && r.err.code == STREAM_ERR_ORDER && strstr(r.err.msg, cases[i].why), "%s: refused (%s)",
               cases[i].name, r.err.msg);
    rg_run_free(&r);
  }
}

int main(void) {
  test_isolation();
  test_gc_lines();
  test_busy();
  test_reload();
  test_plan();
  return test_done();
}
