/*
 * test_model_fuzz.c: the C model on random valid streams (a fixed-seed
 * generator: random programs of every opcode and branch kind, wrappers, GC
 * terms, AGs that may run out of range, bank data, a random started
 * region). Whatever the configuration, the model must not crash (run under
 * `make debug` for ASan/UBSan) and its trace must keep the rules of
 * trace.md: events strictly increasing in the canonical order, every line
 * parsing back to the same event, one fault line per counted fault, the
 * run ending with exactly one `done` (the last line) or a `timeout` fault.
 */
#include "test_model_tb.h"

static uint64_t fz_state = 0x9e3779b97f4a7c15ull;

/* Returns a pseudo-random number in 0..n-1 (xorshift64*). */
static int fz(int n) {
  fz_state ^= fz_state >> 12;
  fz_state ^= fz_state << 25;
  fz_state ^= fz_state >> 27;
  return (int)((fz_state * 0x2545f4914f6cdd1dull >> 33) % (uint64_t)n);
}

/* Returns a random operand of a class allowed for a source. */
static isa_opnd fz_src(const arch_config *c) {
  static const int cls[] = {ISA_CLS_RD, ISA_CLS_FD, ISA_CLS_ID, ISA_CLS_IMM};
  isa_opnd o = {(uint8_t)cls[fz(4)], 0};
  int lim = o.cls == ISA_CLS_RD ? c->rd : o.cls == ISA_CLS_FD ? c->fd : c->id;
  if (o.cls != ISA_CLS_IMM) o.idx = (uint8_t)fz(lim);
  return o;
}

/* Returns 1 and a random instruction for FU fu in *w that passes
 * isa_insn_check; 0 when the draw did not. */
static int fz_insn(const arch_config *c, int fu, int n, isa_word *w) {
  isa_insn in;
  memset(&in, 0, sizeof in);
  in.op = (isa_op)fz(ISA_OP_COUNT);
  const isa_op_info *info = isa_op_get(in.op);
  if (info->fu != ISA_FU_ANY && info->fu != isa_fu_class_of(c, fu)) in.op = ISA_OP_NOP;
  info = isa_op_get(in.op);
  if (in.op != ISA_OP_NOP) {
    int d = fz(3);
    in.dst = (isa_opnd){(uint8_t)(d == 0 ? ISA_CLS_NONE : d == 1 ? ISA_CLS_RD : ISA_CLS_FD), 0};
    if (d) in.dst.idx = (uint8_t)fz(d == 1 ? c->rd : c->fd);
    in.odmask = (uint32_t)fz(1 << c->od) & (uint32_t)fz(1 << c->od);
    in.imm = fz(7) - 3;
    int has_imm = 0;
    for (int i = 0; i < info->nsrc; i++) {
      in.src[i] = fz_src(c);
      has_imm |= in.src[i].cls == ISA_CLS_IMM;
    }
    if (!has_imm) in.imm = 0;
  }
  in.br = (isa_branch_kind)fz(4);
  if (in.br == ISA_BR_GOTO) in.target[0] = (uint16_t)fz(n);
  if (in.br == ISA_BR_COND) {
    in.nsel = 1;
    for (int k = 0; k < 2; k++) in.target[k] = (uint16_t)fz(n);
    in.sel[0] = (uint8_t)(fz(2) ? fz(c->gc_signals) : ISA_COND_FLAG + fz(isa_fu_count(c)));
  }
  if (fz(3) && in.br == ISA_BR_HALT) in.br = ISA_BR_NEXT;
  memset(w, 0, sizeof *w);
  return isa_insn_check(&in, isa_fu_class_of(c, fu), c, NULL, 0) == ISA_OK &&
         isa_encode(&in, w) == ISA_OK;
}

/* Appends a random constraint list (at most max) over nd dims to w. */
static uint32_t fz_cons(uint32_t *w, int nd, int max) {
  uint32_t n = 0;
  int k = fz(max + 1);
  w[n++] = (uint32_t)k;
  for (int i = 0; i < k; i++) {
    w[n++] = (uint32_t)fz(2);
    for (int d = 0; d < nd; d++) w[n++] = (uint32_t)(fz(3) - 1);
    w[n++] = (uint32_t)(fz(5) - 2);
  }
  return n;
}

/* Builds one random stream into b. */
static void fz_stream(tb *b) {
  const arch_config *c = &b->cfg;
  stream_rect reg = {fz(2), fz(2), 1 + fz(3), 1 + fz(3)};
  for (int fu = 0; fu < isa_fu_count(c); fu++) {
    if (!fz(4)) continue;
    int n = 1 + fz(8);
    isa_word prog[8];
    for (int i = 0; i < n; i++)
      while (!fz_insn(c, fu, n, &prog[i])) {
      }
    if (stream_writer_program(&b->w, reg, fu, prog, n)) tb_fail(b, "program", b->w.msg);
  }
  uint32_t depths[32];
  for (int k = 0; k < c->fd; k++) depths[k] = 1 + (uint32_t)fz(4);
  tb_pkt(b, STREAM_PKT_REGCFG, 0, 0, reg, depths, (uint32_t)c->fd);
  for (int r = 0; r < c->rows; r++)
    for (int col = 0; col < c->cols; col++) {
      uint32_t w[64] = {0};
      int nsinks = c->id + 4 * c->ports;
      for (int s = 0; s < nsinks; s++)
        if (!fz(4)) w[s] = 1 + (uint32_t)fz(c->od + 4 * c->ports);
      tb_pkt(b, STREAM_PKT_WRAPPER, 0, 0, (stream_rect){r, col, 1, 1}, w, (uint32_t)nsinks);
    }
  int nd = 1 + fz(2);
  uint32_t g[128], n = 0;
  g[n++] = 1 + (uint32_t)fz(3);
  g[n++] = (uint32_t)nd;
  for (int d = 0; d < nd; d++) g[n++] = 1 + (uint32_t)fz(4);
  g[n++] = (uint32_t)fz(3);
  g[n++] = (uint32_t)fz(2), g[n++] = (uint32_t)fz(3), g[n++] = (uint32_t)fz(3);
  int nt = fz(4);
  g[n++] = (uint32_t)nt;
  for (int t = 0; t < nt; t++) {
    g[n++] = (uint32_t)fz(c->gc_signals);
    n += fz_cons(g + n, nd, 2);
  }
  tb_gc(b, 0, reg, g, n);
  for (int side = 0; side < 4; side++)
    for (int k = 0; k < 3; k++) {
      int r = side == STREAM_SIDE_NORTH ? 0 : side == STREAM_SIDE_SOUTH ? c->rows - 1 : fz(c->rows);
      int col = side == STREAM_SIDE_WEST ? 0 : side == STREAM_SIDE_EAST ? c->cols - 1 : fz(c->cols);
      stream_rect pe = {r, col, 1, 1};
      int bank = fz(c->banks < c->ports ? c->banks : c->ports);
      uint32_t a[64], m = 0;
      a[m++] = (uint32_t)fz(3);
      a[m++] = (uint32_t)nd;
      a[m++] = (uint32_t)fz(6);
      a[m++] = (uint32_t)fz(8), a[m++] = 0, a[m++] = 0;
      for (int d = 0; d < nd; d++) a[m++] = (uint32_t)(fz(6) - 2);
      m += fz_cons(a + m, nd, 1);
      tb_pkt(b, STREAM_PKT_AG, bank, side, pe, a, m);
      uint32_t io[5] = {(uint32_t)fz(4), (uint32_t)fz(100), (uint32_t)fz(100), 7, 9};
      tb_pkt(b, STREAM_PKT_IODATA, bank, side, pe, io, 5);
    }
  tb_start(b, 0, reg);
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

int main(void) {
  int ran = 0, finished = 0;
  for (int seed = 0; seed < 300; seed++) {
    tb b;
    tb_init(&b, tb_default_arch());
    fz_stream(&b);
    model *m = tb_model(&b);
    if (!TEST_CHECK(m, "fuzz %d: random stream accepted (%s)", seed, b.why)) {
      tb_free(&b);
      continue;
    }
    int timeout = model_run(m, 400);
    char why[300] = "";
    TEST_CHECK(fz_trace_ok(&b, m, timeout, why, sizeof why), "fuzz %d: trace rules (%s)", seed, why);
    ran++;
    finished += !timeout;
    model_free(m);
    tb_free(&b);
  }
  printf("# %d random streams, %d reached done\n", ran, finished);
  TEST_CHECK(finished > 0 && finished < ran, "fuzz: both done and timeout runs happen");
  return test_done();
}
