/* covers: docs/fuzz.md "Random streams on both engines",
 *   docs/model.md "Structure" */
/*
 * test_model_fuzz.c: the C model on random valid streams (the generator
 * of regress/gen_stream.h, docs/fuzz.md: random programs of every opcode
 * and branch kind, wrappers, GC terms, AGs that may run out of range, bank
 * data, a random started region), on the default architecture and on one
 * with dividers and two-condition branches. The same seed gives the same
 * bytes. Whatever the configuration, the model must not crash (run under
 * `make debug` for ASan/UBSan) and its trace must keep the rules of
 * trace.md: events strictly increasing in the canonical order, every line
 * parsing back to the same event, one fault line per counted fault, the
 * run ending with exactly one `done` (the last line) or a `timeout` fault.
 */
#include "gen_stream.h"
#include "test_model_tb.h"

/* Builds the random valid stream of `seed` (regress/gen_stream.h) into b. */
static void fz_stream(tb *b, uint64_t seed) {
  gen_stream s;
  char msg[256];
  if (gen_stream_make(&b->cfg, seed, &s, msg, sizeof msg)) {
    tb_fail(b, "gen_stream_make", msg);
    return;
  }
  for (int k = 0; k < s.n; k++) {
    const gen_packet *p = &s.pkt[k];
    tb_pkt(b, p->type, p->index, p->side, p->rect, p->payload, p->nwords);
  }
  gen_stream_free(&s);
}

/* Returns 1 when the streams of seed a and b for cfg have the same bytes. */
static int fz_same_bytes(const arch_config *cfg, uint64_t a, uint64_t b) {
  gen_stream s, t;
  uint8_t *x = NULL, *y = NULL;
  size_t nx = 0, ny = 0;
  char msg[256];
  int ok = !gen_stream_make(cfg, a, &s, msg, sizeof msg) && !gen_stream_make(cfg, b, &t, msg, sizeof msg) &&
           !gen_stream_bytes(&s, &x, &nx, msg, sizeof msg) && !gen_stream_bytes(&t, &y, &ny, msg, sizeof msg);
  int same = ok && nx == ny && !memcmp(x, y, nx);
  free(x), free(y);
  gen_stream_free(&s), gen_stream_free(&t);
  return same;
}

/* Checks the trace rules on the captured text; returns 1 when they hold. */
static int fz_trace_ok(const tb *b, const model *m, int timeout, char *why, size_t n) {
  trace_event prev, e;
  int have = 0, dones = 0, timeouts = 0;
  uint64_t faults = 0;
  const char *p = b->trace ? b->trace : "";
  while (*p) {
    const char *nl = strchr(p, '\n');
    char line[256];
    size_t len = (size_t)(nl - p);
    memcpy(line, p, len < 255 ? len : 255);
    line[len < 255 ? len : 255] = 0;
    char msg[200];
    if (trace_line_parse(line, &e, msg, sizeof msg) != TRACE_LINE_EVENT)
      return snprintf(why, n, "'%.80s' does not parse: %.80s", line, msg), 0;
    if (have && trace_event_compare(&prev, &e) >= 0)
      return snprintf(why, n, "'%.80s' out of order", line), 0;
    dones += e.kind == TRACE_DONE;
    faults += e.kind == TRACE_FAULT;
    timeouts += e.kind == TRACE_FAULT && e.fault == TRACE_FAULT_TIMEOUT;
    prev = e, have = 1, p = nl + 1;
  }
  if (faults != model_faults(m, TRACE_FAULT_COUNT))
    return snprintf(why, n, "%llu fault lines, %llu counted", (unsigned long long)faults,
                    (unsigned long long)model_faults(m, TRACE_FAULT_COUNT)), 0;
  if (timeout ? timeouts != 1 || dones : dones != 1 || prev.kind != TRACE_DONE ||
                                             prev.cycles != model_cycles(m))
    return snprintf(why, n, "bad ending (timeout %d, %d done lines)", timeout, dones), 0;
  return 1;
}

/* Runs the streams of seeds 0..n-1 on cfg; returns the number that ran. */
static int fz_run(arch_config cfg, const char *name, int n) {
  int ran = 0, finished = 0;
  for (int seed = 0; seed < n; seed++) {
    tb b;
    tb_init(&b, cfg);
    fz_stream(&b, (uint64_t)seed);
    model *m = tb_model(&b);
    if (!TEST_CHECK(m, "%s fuzz %d: random stream accepted (%s)", name, seed, b.why)) {
      tb_free(&b);
      continue;
    }
    int timeout = model_run(m, 400);
    char why[300] = "";
    TEST_CHECK(fz_trace_ok(&b, m, timeout, why, sizeof why), "%s fuzz %d: trace rules (%s)", name, seed, why);
    ran++;
    finished += !timeout;
    model_free(m);
    tb_free(&b);
  }
  printf("# %s: %d random streams, %d reached done\n", name, ran, finished);
  TEST_CHECK(finished > 0 && finished < ran, "%s fuzz: both done and timeout runs happen", name);
  return ran;
}

int main(void) {
  arch_config big = tb_default_arch();
  big.div = 1, big.alu = 3, big.branch_targets = 4, big.rd = 8, big.imem = 64;
  fz_run(tb_default_arch(), "default", 300);
  fz_run(big, "div+br4", 100);
  arch_config d = tb_default_arch();
  TEST_CHECK(fz_same_bytes(&d, 7, 7), "the same seed gives the same bytes");
  TEST_CHECK(!fz_same_bytes(&d, 7, 8), "seeds 7 and 8 give different streams");
  return test_done();
}
