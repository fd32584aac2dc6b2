/* covers: docs/timing.md "2. Global controller", "5. Interconnect",
 *   "6. Address generators", "8. Faults" */
/*
 * test_model_net.c: the C model (model.h) across PEs and banks: a two-PE
 * chain od -> wrapper -> hop -> id FIFO with its hop timing (and the
 * underflow/leftover of reading one cycle early); control signals with
 * start delays in a 1x3 region (full trace); address generators reading
 * and writing banks over a 2-D iteration space (enable, stray, agmiss,
 * agrange); FIFO overflow with a pop in the same cycle; stream rejections;
 * a 16-PE run of 50000 cycles timed. Expected values come from the rules of
 * docs/timing.md, derived in the comments.
 */
#include <time.h>

#include "test_model_tb.h"

static const stream_rect PE00 = {0, 0, 1, 1};

/* ---- two-PE chain ------------------------------------------------------------------ */

/* PE (0,0) writes 42 to od0 at cycle 0; its wrapper drives east output 0
 * from od0; PE (0,1) reads west input 0 into id0 and adds 1 at local time
 * `at` (its start delay is 1). */
static void chain_run(int at, tb *b, model **mp) {
  tb_init(b, tb_default_arch());
  stream_rect p0 = {0, 0, 1, 1}, p1 = {0, 1, 1, 1}, both = {0, 0, 1, 2};
  static const char *const src[] = {"mov od0, #42 ; halt"};
  const char *dst[8];
  for (int i = 0; i < at; i++) dst[i] = "nop";
  dst[at] = "add rd0, id0, #1 ; halt";
  tb_prog(b, p0, 0, src, 1);
  tb_prog(b, p1, 0, dst, at + 1);
  int w0[] = {tb_sink_out(b, STREAM_SIDE_EAST, 0), tb_src_od(b, 0)};
  int w1[] = {tb_sink_id(b, 0), tb_src_in(b, STREAM_SIDE_WEST, 0)};
  tb_wrapper(b, p0, w0, 1);
  tb_wrapper(b, p1, w1, 1);
  /* ii 1, one dim of bound 1; delay0 0, delay_row 0, delay_col 1 */
  uint32_t gc[] = {1, 1, 1, 0, 0, 0, 1, 0};
  tb_gc(b, 0, both, gc, 8);
  tb_start(b, 0, both);
  *mp = tb_model(b);
  if (*mp) model_run(*mp, 100);
}

static void test_chain(void) {
  tb b;
  model *m;
  /* mov issued at t = 0 with L = 1: od0 written at end of 0, token on od0
   * and (combinationally) on east output 0 in cycle 1 (hop at (0,0)); one
   * hop: on (0,1)'s west input 0 = sink id0 in cycle 2, pushed at the end
   * of 2, readable from 3 = t + L + 1 + h = 0 + 1 + 1 + 1. PE (0,1) starts
   * at d = 1, so its pc 2 issues at cycle 3: the add pops 42, rd0 = 43. */
  chain_run(2, &b, &m);
  TEST_CHECK(m, "chain: stream accepted (%s)", b.why);
  if (m) {
    const char *want =
        "0 start 0,0\n"
        "0 issue 0,0 0 0\n"
        "0 halt 0,0 0\n"
        "0 wr 0,0 0 od0 0x0000002a\n"
        "1 start 0,1\n"
        "1 issue 0,1 0 0\n"
        "1 hop 0,0 e 0 0x0000002a\n"
        "2 issue 0,1 0 1\n"
        "2 push 0,1 id0 0x0000002a\n"
        "3 issue 0,1 0 2\n"
        "3 halt 0,1 0\n"
        "3 pop 0,1 id0 0x0000002a\n"
        "3 wr 0,1 0 rd0 0x0000002b\n"
        "3 done - 4\n";
    TEST_CHECK(tb_trace_is(&b, want), "chain: trace line for line");
    model_pe_view v;
    model_pe_state(m, 0, 1, &v);
    TEST_CHECK(v.rd[0] == 43 && v.delay == 1, "chain: rd0 of (0,1) is 43");
    model_free(m);
  }
  tb_free(&b);
  /* One cycle early (local time 1 = cycle 2): the word is pushed only at
   * the end of 2, so the read finds the FIFO empty: underflow, value 0,
   * rd0 = 1; the word stays: leftover in the done cycle (end of 2). */
  chain_run(1, &b, &m);
  TEST_CHECK(m, "chain early: stream accepted (%s)", b.why);
  if (m) {
    TEST_CHECK(tb_has(&b, "2 fault 0,1 underflow id0"), "chain early: underflow at 2");
    TEST_CHECK(!tb_has(&b, "2 pop 0,1 id0 0x00000000"), "chain early: no pop line");
    TEST_CHECK(tb_has(&b, "2 wr 0,1 0 rd0 0x00000001"), "chain early: empty read is 0");
    TEST_CHECK(tb_has(&b, "2 fault 0,1 leftover id0") && tb_has(&b, "2 done - 3"),
               "chain early: leftover word in the done cycle");
    TEST_CHECK(model_faults(m, TRACE_FAULT_COUNT) == 2, "chain early: two faults");
    model_free(m);
  }
  tb_free(&b);
}

/* ---- control signals with start delays ------------------------------------------------ */

static void test_signals(void) {
  tb b;
  tb_init(&b, tb_default_arch());
  stream_rect row = {0, 0, 1, 3};
  /* Each PE loops at pc 0 until it sees c0, then writes rd0 and halts. */
  static const char *const prog[] = {"nop ; br c0 ? L1 : L0", "mov rd0, #1 ; halt"};
  tb_prog(&b, row, 0, prog, 2);
  /* ii 2, one dim of bound 3, no epilog (S = 3); d(0,c) = c.
   * c0 = (j0 - 1 >= 0), c1 = (j0 - 2 == 0). */
  uint32_t gc[] = {2, 1, 3, 0, 0, 0, 1, 2,
                   0, 1, STREAM_CONS_GE, 1, (uint32_t)-1,
                   1, 1, STREAM_CONS_EQ, 1, (uint32_t)-2};
  tb_gc(&b, 0, row, gc, 18);
  tb_start(&b, 0, row);
  model *m = tb_model(&b);
  TEST_CHECK(m, "signals: stream accepted (%s)", b.why);
  if (!m) return tb_free(&b);
  TEST_CHECK(model_run(m, 100) == 0, "signals: done");
  /* PE (0,c) at cycle t: u = t - c, step u / 2: vector 0 in step 0, 0x1 in
   * step 1, 0x3 in step 2, 0 from step 3 = S. The branch at u = 2 (t = c+2)
   * sees c0 = 1 and goes to pc 1, which issues at t = c + 3 and halts.
   * Done when the last PE (0,2) halts at 5 (its write completes at 5). */
  const char *want =
      "0 start 0,0\n"
      "0 issue 0,0 0 0\n"
      "1 start 0,1\n"
      "1 issue 0,0 0 0\n"
      "1 issue 0,1 0 0\n"
      "2 start 0,2\n"
      "2 sig 0,0 0x00000001\n"
      "2 issue 0,0 0 0\n"
      "2 issue 0,1 0 0\n"
      "2 issue 0,2 0 0\n"
      "3 sig 0,1 0x00000001\n"
      "3 issue 0,0 0 1\n"
      "3 issue 0,1 0 0\n"
      "3 issue 0,2 0 0\n"
      "3 halt 0,0 0\n"
      "3 wr 0,0 0 rd0 0x00000001\n"
      "4 sig 0,0 0x00000003\n"
      "4 sig 0,2 0x00000001\n"
      "4 issue 0,1 0 1\n"
      "4 issue 0,2 0 0\n"
      "4 halt 0,1 0\n"
      "4 wr 0,1 0 rd0 0x00000001\n"
      "5 sig 0,1 0x00000003\n"
      "5 issue 0,2 0 1\n"
      "5 halt 0,2 0\n"
      "5 wr 0,2 0 rd0 0x00000001\n"
      "5 done - 6\n";
  TEST_CHECK(tb_trace_is(&b, want), "signals: trace line for line");
  model_free(m);
  /* Stepping on past done changes nothing. */
  tb_free(&b);
}

/* ---- address generators ------------------------------------------------------------------ */

typedef struct {
  uint64_t t;
  uint32_t addr, value;
} ag_write;

typedef struct {
  const char *name;
  int wphase;          /* write AG phase */
  uint32_t wbase;      /* write AG base */
  int enable_j0;       /* write AG enabled only when j0 >= 1 */
  ag_write wr[6];      /* expected bank writes: cycle, address, value */
  int nwr;
  uint32_t zero[2];    /* addresses that must stay 0 (0: none) */
  const char *faults[4]; /* trace lines that must be present */
  uint64_t nfaults;
} ag_case;

/* GC: ii 1, two dimensions of bounds (3, 2): S = 6, J(s) = (s mod 3, s / 3).
 * Read AG west bank 1: base 10, strides (1, 3): address 10 + j0 + 3 j1 =
 * 10 + s, holding s + 1 (IODATA). Read at t = s, pushed into id1 at the end
 * of s + 1, popped at s + 2 by `add od0, id1, id1` (one pop, both sources
 * see the head): od0 = 2 (s + 1) at end of s + 2, token on od0 and wrapper
 * output n0 at s + 3, at the north bank 0 at s + 4: phase 4 catches it.
 * Write address base + j0 + 5 j1: 1, 2, 3, 6, 7, 8 for base 1. */
static const ag_case ag_cases[] = {
    /* every step s written at cycle s + 4 */
    {"ag all", 4, 1, 0,
     {{4, 1, 2}, {5, 2, 4}, {6, 3, 6}, {7, 6, 8}, {8, 7, 10}, {9, 8, 12}}, 6,
     {0, 0}, {NULL}, 0},
    /* enable j0 >= 1: steps 0 and 3 (j0 = 0) have no write event: their
     * tokens arrive at s + 4 = 4 and 7 with no event: stray */
    {"ag enable", 4, 1, 1, {{5, 2, 4}, {6, 3, 6}, {8, 7, 10}, {9, 8, 12}}, 4,
     {1, 6}, {"4 fault 0,0 stray n0", "7 fault 0,0 stray n0"}, 2},
    /* base 1020: steps 3..5 address 1025, 1026, 1027 >= depth 1024 (events
     * at 7, 8, 9): agrange, nothing written, tokens dropped */
    {"ag range", 4, 1020, 0, {{4, 1020, 2}, {5, 1021, 4}, {6, 1022, 6}}, 3,
     {0, 0},
     {"7 fault 0,0 agrange n0", "8 fault 0,0 agrange n0", "9 fault 0,0 agrange n0"}, 3},
    /* phase 3: event s at s + 3 sees the token of step s - 1 (value 2 s):
     * event 0 at 3 has none (agmiss); the last token arrives at 9, after the
     * last event (8): stray */
    {"ag early", 3, 1, 0, {{4, 2, 2}, {5, 3, 4}, {6, 6, 6}, {7, 7, 8}, {8, 8, 10}}, 5,
     {1, 0}, {"3 fault 0,0 agmiss n0", "9 fault 0,0 stray n0"}, 2},
};

/* Returns how many lines of the captured trace contain `what`. */
static int count_lines(const tb *b, const char *what) {
  int n = 0;
  for (const char *p = b->trace; p && (p = strstr(p, what)); p++) n++;
  return n;
}

/* Checks the bank reads, writes and faults of one AG case on m. */
static void ag_check(const ag_case *c, const tb *b, const model *m) {
  char line[64];
  for (int s = 0; s < 6; s++) {
    snprintf(line, sizeof line, "%d bank 0,0 w 1 rd %d 0x%08x", s, 10 + s, s + 1);
    TEST_CHECK(tb_has(b, line), "%s: %s", c->name, line);
  }
  for (int k = 0; k < c->nwr; k++) {
    const ag_write *w = &c->wr[k];
    snprintf(line, sizeof line, "%llu bank 0,0 n 0 wr %u 0x%08x",
             (unsigned long long)w->t, w->addr, w->value);
    TEST_CHECK(tb_has(b, line), "%s: %s", c->name, line);
    uint32_t v = 0;
    int rc = model_bank_read(m, 0, 0, STREAM_SIDE_NORTH, 0, w->addr, &v);
    TEST_CHECK(rc == 0 && v == w->value, "%s: n0[%u] = %u (got %u)", c->name,
               w->addr, w->value, v);
  }
  TEST_CHECK(count_lines(b, " n 0 wr ") == c->nwr, "%s: %d bank writes", c->name, c->nwr);
  for (int k = 0; k < 2 && c->zero[k]; k++) {
    uint32_t v = 1;
    model_bank_read(m, 0, 0, STREAM_SIDE_NORTH, 0, c->zero[k], &v);
    TEST_CHECK(v == 0, "%s: n0[%u] not written", c->name, c->zero[k]);
  }
  for (int k = 0; k < 4 && c->faults[k]; k++)
    TEST_CHECK(tb_has(b, c->faults[k]), "%s: %s", c->name, c->faults[k]);
  TEST_CHECK(model_faults(m, TRACE_FAULT_COUNT) == c->nfaults, "%s: %llu faults (got %llu)",
             c->name, (unsigned long long)c->nfaults,
             (unsigned long long)model_faults(m, TRACE_FAULT_COUNT));
}

static void test_ags(void) {
  for (size_t i = 0; i < sizeof ag_cases / sizeof ag_cases[0]; i++) {
    const ag_case *c = &ag_cases[i];
    tb b;
    tb_init(&b, tb_default_arch());
    const char *prog[8] = {"nop", "nop"};
    for (int k = 2; k < 8; k++) prog[k] = k < 7 ? "add od0, id1, id1" : "add od0, id1, id1 ; halt";
    tb_prog(&b, PE00, 0, prog, 8);
    int w[] = {tb_sink_id(&b, 1), tb_src_in(&b, STREAM_SIDE_WEST, 1),
               tb_sink_out(&b, STREAM_SIDE_NORTH, 0), tb_src_od(&b, 0)};
    tb_wrapper(&b, PE00, w, 2);
    uint32_t gc[] = {1, 2, 3, 2, 0, 0, 0, 0, 0};
    tb_gc(&b, 0, PE00, gc, 9);
    uint32_t rag[] = {STREAM_AG_READ, 2, 0, 10, 0, 0, 1, 3, 0};
    tb_pkt(&b, STREAM_PKT_AG, 1, STREAM_SIDE_WEST, PE00, rag, 9);
    uint32_t wag[] = {STREAM_AG_WRITE, 2, (uint32_t)c->wphase, c->wbase, 0, 0, 1, 5,
                      (uint32_t)c->enable_j0, STREAM_CONS_GE, 1, 0, (uint32_t)-1};
    tb_pkt(&b, STREAM_PKT_AG, 0, STREAM_SIDE_NORTH, PE00, wag, c->enable_j0 ? 13 : 9);
    uint32_t io[] = {10, 1, 2, 3, 4, 5, 6};
    tb_pkt(&b, STREAM_PKT_IODATA, 1, STREAM_SIDE_WEST, PE00, io, 7);
    tb_start(&b, 0, PE00);
    model *m = tb_model(&b);
    TEST_CHECK(m, "%s: stream accepted (%s)", c->name, b.why);
    if (!m) {
      tb_free(&b);
      continue;
    }
    /* Done: halt at 7; the last token reaches the bank at 9 (written by
     * the last event 5 + 4, or stray); the last read event is at 5. */
    TEST_CHECK(model_run(m, 100) == 0 && model_cycles(m) == 10, "%s: done in cycle 9 (%llu)",
               c->name, (unsigned long long)model_cycles(m));
    ag_check(c, &b, m);
    model_free(m);
    tb_free(&b);
  }
}

/* ---- FIFO overflow -------------------------------------------------------------------------- */

static void test_overflow(void) {
  arch_config cfg = tb_default_arch();
  cfg.fifo_depth = 2;
  tb b;
  tb_init(&b, cfg);
  static const char *const prog[] = {"nop", "nop", "nop", "mov rd0, id0", "nop ; halt"};
  tb_prog(&b, PE00, 0, prog, 5);
  int w[] = {tb_sink_id(&b, 0), tb_src_in(&b, STREAM_SIDE_WEST, 0)};
  tb_wrapper(&b, PE00, w, 1);
  uint32_t gc[] = {1, 1, 4, 0, 0, 0, 0, 0};
  tb_gc(&b, 0, PE00, gc, 8);
  uint32_t rag[] = {STREAM_AG_READ, 1, 0, 0, 0, 0, 1, 0};
  tb_pkt(&b, STREAM_PKT_AG, 0, STREAM_SIDE_WEST, PE00, rag, 8);
  uint32_t io[] = {0, 1, 2, 3, 4};
  tb_pkt(&b, STREAM_PKT_IODATA, 0, STREAM_SIDE_WEST, PE00, io, 5);
  tb_start(&b, 0, PE00);
  model *m = tb_model(&b);
  TEST_CHECK(m, "overflow: stream accepted (%s)", b.why);
  if (!m) return tb_free(&b);
  model_run(m, 100);
  /* Reads at 0..3 of 1..4, pushes at the end of 1..4 (depth 2). End of 2:
   * full. Cycle 3: the pop removes 1, then 3 is appended: 2 words, no
   * overflow. Cycle 4: no pop, full: 4 is dropped (overflow). Done at the
   * end of 4 (halted, last event 3, no token left): 2 words left over. */
  const char *want =
      "0 start 0,0\n"
      "0 issue 0,0 0 0\n"
      "0 bank 0,0 w 0 rd 0 0x00000001\n"
      "1 issue 0,0 0 1\n"
      "1 push 0,0 id0 0x00000001\n"
      "1 bank 0,0 w 0 rd 1 0x00000002\n"
      "2 issue 0,0 0 2\n"
      "2 push 0,0 id0 0x00000002\n"
      "2 bank 0,0 w 0 rd 2 0x00000003\n"
      "3 issue 0,0 0 3\n"
      "3 pop 0,0 id0 0x00000001\n"
      "3 wr 0,0 0 rd0 0x00000001\n"
      "3 push 0,0 id0 0x00000003\n"
      "3 bank 0,0 w 0 rd 3 0x00000004\n"
      "4 issue 0,0 0 4\n"
      "4 halt 0,0 0\n"
      "4 fault 0,0 leftover id0\n"
      "4 fault 0,0 overflow id0\n"
      "4 done - 5\n";
  TEST_CHECK(tb_trace_is(&b, want), "overflow: trace line for line");
  model_pe_view v;
  model_pe_state(m, 0, 0, &v);
  TEST_CHECK(v.fifo_count[0] == 2 && v.fifo_head[0] == 2, "overflow: FIFO holds 2, 3");
  model_free(m);
  tb_free(&b);
}

/* ---- stream rejections --------------------------------------------------------------------- */

/* Returns the finished bytes of a small valid stream. */
static uint8_t *small_stream(const arch_config *cfg, size_t *len, int gc_index) {
  tb b;
  tb_init(&b, *cfg);
  static const char *const prog[] = {"mov rd0, #1 ; halt"};
  tb_prog(&b, PE00, 0, prog, 1);
  uint32_t gc[] = {1, 1, 1, 0, 0, 0, 0, 0};
  tb_gc(&b, gc_index, PE00, gc, 8);
  tb_start(&b, 0, PE00);
  uint8_t *buf = NULL;
  if (b.bad || stream_writer_finish(&b.w, &buf, len)) buf = NULL;
  tb_free(&b);
  return buf;
}

static void test_rejections(void) {
  arch_config cfg = tb_default_arch();
  size_t len = 0;
  uint8_t *buf = small_stream(&cfg, &len, 0);
  TEST_CHECK(buf, "reject: sample stream built");
  if (!buf) return;
  model_error err;
  model *m = model_new(&cfg, buf, len, &err);
  TEST_CHECK(m && model_run(m, 10) == 0 && model_cycles(m) == 1, "reject: valid stream runs");
  model_free(m);
  struct {
    const char *name;
    size_t byte;   /* byte to flip; SIZE_MAX: none */
    int other_arch, truncate;
    int code;
  } cases[] = {
      {"CRC byte flipped", 20, 0, 0, STREAM_ERR_CRC},
      {"payload byte flipped", 30, 0, 0, STREAM_ERR_CRC},
      {"magic", 0, 0, 0, STREAM_ERR_MAGIC},
      {"other architecture", SIZE_MAX, 1, 0, STREAM_ERR_FINGERPRINT},
      {"truncated", SIZE_MAX, 0, 1, STREAM_ERR_LENGTH},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint8_t *copy = malloc(len);
    memcpy(copy, buf, len);
    if (cases[i].byte != SIZE_MAX) copy[cases[i].byte] ^= 0x40;
    arch_config c2 = cfg;
    if (cases[i].other_arch) c2.fifo_depth = 16;
    m = model_new(&c2, copy, cases[i].truncate ? len - 4 : len, &err);
    TEST_CHECK(!m && err.code == cases[i].code && err.msg[0],
               "reject %s: code %d (got %d: %s)", cases[i].name, cases[i].code, err.code, err.msg);
    model_free(m);
    free(copy);
  }
  free(buf);
  /* START of GC 0 while only GC 1 was configured */
  buf = small_stream(&cfg, &len, 1);
  m = buf ? model_new(&cfg, buf, len, &err) : NULL;
  TEST_CHECK(buf && !m && strstr(err.msg, "global controller 0"),
             "reject: START of an unconfigured GC (%s)", err.msg);
  model_free(m);
  free(buf);
}

/* ---- timeout and speed --------------------------------------------------------------------- */

static void test_timeout(void) {
  tb b;
  tb_init(&b, tb_default_arch());
  static const char *const prog[] = {"nop ; goto L0"};
  tb_prog(&b, PE00, 0, prog, 1);
  uint32_t gc[] = {1, 1, 1, 0, 0, 0, 0, 0};
  tb_gc(&b, 0, PE00, gc, 8);
  tb_start(&b, 0, PE00);
  model *m = tb_model(&b);
  TEST_CHECK(m, "timeout: stream accepted (%s)", b.why);
  if (!m) return tb_free(&b);
  /* An endless loop: cycles 0..9 run; the fault is in cycle 9, last. */
  TEST_CHECK(model_run(m, 10) == 1 && !model_done(m), "timeout: not done in 10 cycles");
  const char *tail = "9 issue 0,0 0 0\n9 fault - timeout 10\n";
  size_t n = b.trace ? strlen(b.trace) : 0;
  TEST_CHECK(n >= strlen(tail) && !strcmp(b.trace + n - strlen(tail), tail),
             "timeout: fault line last in cycle 9");
  model_free(m);
  tb_free(&b);
}

/* A long run: 50000 iterations of every FU of 16 PEs reach their counts
 * and done in the cycle the loop bounds give. */
static void test_long_run(void) {
  tb b;
  tb_init(&b, tb_default_arch());
  stream_rect all = {0, 0, 4, 4};
  /* Every FU of 16 PEs counts in a loop controlled by c0 = (j0 <= 49998);
   * ii 1, 50000 steps: the PEs leave the loop when c0 falls. */
  static const char *const alu[] = {"add rd0, rd0, #1 ; br c0 ? L0 : L1", "nop ; halt"};
  static const char *const alu1[] = {"add rd2, rd2, #2 ; br c0 ? L0 : L1", "nop ; halt"};
  static const char *const mul[] = {"mul rd1, rd0, #3 ; br c0 ? L0 : L1", "nop ; halt"};
  tb_prog(&b, all, 0, alu, 2);
  tb_prog(&b, all, 1, alu1, 2);
  tb_prog(&b, all, 2, mul, 2);
  uint32_t gc[] = {1, 1, 50000, 0, 0, 0, 0, 1, 0, 1, STREAM_CONS_GE, (uint32_t)-1, 49998};
  tb_gc(&b, 0, all, gc, 13);
  tb_start(&b, 0, all);
  model *m = tb_model(&b);
  TEST_CHECK(m, "long run: stream accepted (%s)", b.why);
  if (!m) return tb_free(&b);
  model_set_trace(m, NULL, NULL);
  clock_t c0 = clock();
  int rc = model_run(m, 100000);
  double sec = (double)(clock() - c0) / CLOCKS_PER_SEC;
  /* c0 is 1 in steps 0..49998: the branch goes back to pc 0 at cycles
   * 0..49998 and to pc 1 at 49999; halt at 50000; the mul result (L 2) of
   * 49999 lands at the end of 50000: done, 50001 cycles. */
  TEST_CHECK(rc == 0 && model_cycles(m) == 50001, "long run: done after 50001 cycles (%llu)",
             (unsigned long long)model_cycles(m));
  model_pe_view v;
  model_pe_state(m, 3, 3, &v);
  TEST_CHECK(v.rd[0] == 50000 && v.rd[2] == 100000 && v.rd[1] == 3 * 49999,
             "long run: 50000 iterations of each FU (rd0 %u, rd1 %u, rd2 %u)", v.rd[0],
             v.rd[1], v.rd[2]);
  /* its time is information, not a check: speed is make bench's table
   * (docs/testing.md "Simulator speed") */
  printf("# 16 PEs, 50001 cycles: %.3f s\n", sec);
  model_free(m);
  tb_free(&b);
}

int main(void) {
  test_chain();
  test_signals();
  test_ags();
  test_overflow();
  test_rejections();
  test_timeout();
  test_long_run();
  return test_done();
}
