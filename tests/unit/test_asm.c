/* covers: docs/asm.md "Lines", "Packet headers", "Bodies",
 *   docs/stream.md "Packets" */
/*
 * test_asm.c: the .tasm assembler and disassembler (asm.h). Every fixture
 * of regress/streams assembles and survives disasm -> asm byte for byte; a
 * stream built with the writer directly (every packet type, negative
 * coefficients, every wrapper port) round-trips too; named fields, labels
 * and raw words produce the payload words of docs/stream.md; errors carry
 * the right line and column.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "stream.h"
#include "test.h"

static arch_config cfg;

/* Returns 0 and the stream bytes of assembling `text`; -1 on errors (the
 * first in *err). */
static int assemble(const char *text, uint8_t **buf, size_t *len, asm_error *err) {
  stream_writer w;
  asm_error e;
  int rc = asm_text_assemble("t.tasm", text, &cfg, &w, err ? err : &e);
  *buf = NULL, *len = 0;
  if (rc == 0 && stream_writer_finish(&w, buf, len) != STREAM_OK) rc = -1;
  stream_writer_free(&w);
  return rc;
}

/* Returns the malloc'ed disassembly of buf (NULL on failure). */
static char *disassemble(const uint8_t *buf, size_t len) {
  char *text = NULL, msg[256];
  size_t tl = 0;
  FILE *f = open_memstream(&text, &tl);
  if (!f) return NULL;
  int rc = asm_stream_disassemble(buf, len, &cfg, f, msg, sizeof msg);
  fclose(f);
  if (rc != STREAM_OK) {
    printf("# disassembly failed: %s\n", msg);
    free(text);
    return NULL;
  }
  return text;
}

/* Returns 1 when buf disassembles to a text that assembles to buf. */
static int round_trip(const uint8_t *buf, size_t len) {
  char *text = disassemble(buf, len);
  if (!text) return 0;
  uint8_t *b2;
  size_t l2;
  int ok = assemble(text, &b2, &l2, NULL) == 0 && l2 == len && !memcmp(buf, b2, len);
  if (!ok) printf("# round trip failed for:\n%s", text);
  free(text);
  free(b2);
  return ok;
}

/* Returns the payload word k of packet number `pk` of a stream. */
static uint32_t payload_word(const uint8_t *buf, size_t len, int pk, int k, stream_packet *out) {
  stream_reader r;
  stream_packet p;
  uint32_t v = 0xdeadbeef;
  if (stream_reader_open(&r, buf, len, &cfg) == STREAM_OK) {
    for (int i = 0; stream_reader_next(&r, &p) == 1; i++)
      if (i == pk) {
        if ((uint32_t)k < p.nwords) v = p.payload[k];
        if (out) *out = p, out->payload = NULL;
        break;
      }
  }
  stream_reader_close(&r);
  return v;
}

static void test_fixtures(void) {
  static const char *const names[] = {"alu_single", "timing_example", "underflow_early",
                                      "hop_two_pe", "ag_bank", "nop_wait", "nop_wait_plain"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    char path[128];
    snprintf(path, sizeof path, "regress/streams/%s.tasm", names[i]);
    stream_writer w;
    asm_error e;
    int rc = asm_file_assemble(path, &cfg, &w, &e);
    uint8_t *buf = NULL;
    size_t len = 0;
    if (rc == 0) rc = stream_writer_finish(&w, &buf, &len);
    stream_writer_free(&w);
    TEST_CHECK(rc == 0, "fixture %s assembles (%d:%d %s)", names[i], e.line, e.col, e.msg);
    TEST_CHECK(rc == 0 && round_trip(buf, len), "fixture %s: disasm -> asm gives the same bytes",
               names[i]);
    free(buf);
  }
}

static void test_named_fields(void) {
  const char *src =
      "gc 1 pe 0..1,*\n"
      "  ii 3\n  bounds 4 5\n  epilog 2\n  delay 3 2 -1\n"
      "  term c2: j0 - 3 >= 0, 2*j1 == j0 + 1\n  term c0\n"
      "ag side s bank 2 pe 3,1\n  mode write\n  phase 7\n  base 100 -3 4\n  stride 1 -8\n"
      "  enable j1 < 4\n"
      "start gc 1 pe 0..1,0..3\n";
  uint8_t *b;
  size_t n;
  asm_error e;
  int rc = assemble(src, &b, &n, &e);
  TEST_CHECK(rc == 0, "named GC and AG fields assemble (%d:%d %s)", e.line, e.col, e.msg);
  if (rc) return;
  /* GC: ii ndims b0 b1 epilog d0 dr dc nterms | sig ncons (kind c0 c1 k)x2 | sig 0 */
  static const int32_t gc[] = {3, 2, 4, 5, 2, 3, 2, -1, 2, 2, 2, 0, 1, 0, -3,
                               1, -1, 2, -1, 0, 0};
  stream_packet p = {0};
  int ok = 1;
  for (size_t k = 0; k < sizeof gc / sizeof *gc; k++)
    ok &= payload_word(b, n, 0, (int)k, &p) == (uint32_t)gc[k];
  TEST_CHECK(ok && p.nwords == sizeof gc / sizeof *gc, "GC payload laid out as docs/stream.md");
  TEST_CHECK(p.type == STREAM_PKT_GC && p.index == 1 && p.rect.row0 == 0 && p.rect.rows == 2 &&
                 p.rect.col0 == 0 && p.rect.cols == 4, "gc header: index 1, rows 0..1, all columns");
  /* AG: mode ndims phase base row col s0 s1 ncons kind c0 c1 k  (j1 < 4: -j1 + 3 >= 0) */
  static const int32_t ag[] = {2, 2, 7, 100, -3, 4, 1, -8, 1, 0, 0, -1, 3};
  ok = 1;
  for (size_t k = 0; k < sizeof ag / sizeof *ag; k++)
    ok &= payload_word(b, n, 1, (int)k, &p) == (uint32_t)ag[k];
  TEST_CHECK(ok && p.nwords == sizeof ag / sizeof *ag, "AG payload laid out as docs/stream.md");
  TEST_CHECK(p.side == STREAM_SIDE_SOUTH && p.index == 2 && p.rect.row0 == 3,
             "ag header: south bank 2 of PE (3,1)");
  TEST_CHECK(round_trip(b, n), "named fields round-trip");
  free(b);
}

static void test_raw_equals_named(void) {
  const char *named = "regcfg pe 1,1\n  fd1 = 5, fd3 = 2\n"
                      "wrapper pe 1,1\n  id0 = w3, n1 = od2\n  e0 = s0\n"
                      "iodata side e bank 1\n  address 7\n  data -1 0x10\n  data 3\n"
                      "start 0 pe 0,0\n";
  /* sinks: id0..3, n0..3, e0..3, s0..3, w0..3; sources od0..3 (0..3),
   * n (4..7), e (8..11), s (12..15), w (16..19); value = 1 + source. */
  const char *raw = "regcfg pe 1,1\n  word 1 5 1 2\n"
                    "wrapper pe 1,1\n  word 20 0 0 0  0 3 0 0  13 0 0 0\n"
                    "  word 0 0 0 0  0 0 0 0\n"
                    "iodata side e bank 1 pe 0..3,3\n  word 7 0xffffffff 16 3\n"
                    "start gc 0 pe 0,0\n";
  uint8_t *b1, *b2;
  size_t n1, n2;
  asm_error e1, e2;
  int r1 = assemble(named, &b1, &n1, &e1), r2 = assemble(raw, &b2, &n2, &e2);
  TEST_CHECK(r1 == 0, "regcfg/wrapper/iodata named fields assemble (%d:%d %s)", e1.line, e1.col,
             e1.msg);
  TEST_CHECK(r2 == 0, "raw words assemble (%d:%d %s)", e2.line, e2.col, e2.msg);
  TEST_CHECK(r1 == 0 && r2 == 0 && n1 == n2 && !memcmp(b1, b2, n1),
             "named fields give the raw words (iodata without pe: the whole east border)");
  TEST_CHECK(r1 == 0 && round_trip(b1, n1), "regcfg/wrapper/iodata round-trip");
  free(b1);
  free(b2);
}

static void test_labels(void) {
  const char *sym = "program fu mul0 pe 0,0\n"
                    "top: nop ; br c1 ? out : top\n"
                    "  mul rd0, rd1, #-7\n"
                    "out:\n"
                    "  nop ; goto top\n"
                    "start gc 0 pe 0,0\n";
  const char *num = "program fu 2 pe 0,0\n"
                    "  nop ; br c1 ? L2 : L0\n"
                    "  mul rd0, rd1, #-7\n"
                    "  nop ; goto L0\n"
                    "start gc 0 pe 0,0\n";
  uint8_t *b1, *b2;
  size_t n1, n2;
  int r1 = assemble(sym, &b1, &n1, NULL), r2 = assemble(num, &b2, &n2, NULL);
  TEST_CHECK(r1 == 0 && r2 == 0 && n1 == n2 && !memcmp(b1, b2, n1),
             "labels (forward and backward, alone on a line) resolve to their pcs; fu by name "
             "or number");
  free(b1);
  free(b2);
}

/* Checks that `src` fails with its first error at line:col, message
 * containing `needle`. */
static void expect_error(const char *src, int line, int col, const char *needle,
                         const char *what) {
  uint8_t *b;
  size_t n;
  asm_error e;
  int rc = assemble(src, &b, &n, &e);
  TEST_CHECK(rc == -1 && e.line == line && e.col == col && strstr(e.msg, needle),
             "%s: error at %d:%d containing '%s' (got %d:%d '%s')", what, line, col, needle,
             e.line, e.col, e.msg);
  free(b);
}

static void test_errors(void) {
  expect_error("program fu alu0 pe 0,0\n  nop ; goto nowhere\nstart gc 0 pe 0,0\n", 2, 14,
               "undefined label 'nowhere'", "undefined label");
  expect_error("program fu alu0 pe 0,0\n  add rd0, id1, #3, #4\nstart gc 0 pe 0,0\n", 2, 19,
               "", "isa parse error column mapped into the line");
  expect_error("program fu alu0 pe 0,0\n  w: nop 0 ; goto w\nstart gc 0 pe 0,0\n", 2, 10,
               "1..4294967296", "nop 0: the cycle count of nop N is 1..2^32, column in the line");
  expect_error("program fu alu0 pe 0,0\n  x: nop ; br c0 ? x : L9\n  add rd0, rd1, #3 ; br c0 ? x : "
               "rd9\nstart gc 0 pe 0,0\n",
               3, 34, "", "isa parse error after a substituted label keeps its column");
  expect_error("program fu alu0 pe 0,0\n  mul rd0, rd1, rd2\nstart gc 0 pe 0,0\n", 2, 3,
               "does not fit FU alu0", "operation on the wrong FU class");
  expect_error("program fu alu0 pe 0,0\n  nop\n", 3, 1, "no start packet", "missing start");
  expect_error("gc 0 pe 0,0\n  ii 1\n  bounds 2\n  term c0: j1 >= 0\nstart gc 0 pe 0,0\n", 4, 12,
               "uses j1", "constraint beyond the GC's dimensions");
  expect_error("gc 0 pe 0,0\n  ii 1\n  word 3\n", 3, 3, "cannot be mixed", "raw after named");
  expect_error("regcfg pe 0,0\n  fd0 = 33\nstart gc 0 pe 0,0\n", 2, 9, "out of range 1..32",
               "fd depth beyond pe.fd_depth");
  expect_error("wrapper pe 0,0\n  id4 = od0\nstart gc 0 pe 0,0\n", 2, 3, "expected a sink",
               "sink beyond pe.id");
  expect_error("start gc 0 pe 2..1,0\n", 1, 18, "is empty", "empty PE range");
  expect_error("start gc 0 pe 0,4\n", 1, 1, "outside the 4x4 array",
               "rectangle outside the array (writer's validator)");
  expect_error("ag side n bank 0 pe 1,0\n  mode read\n  stride 1\nstart gc 0 pe 0,0\n", 1, 1,
               "north border", "AG not on its border");
  expect_error("fingerprint 0x1234\nstart gc 0 pe 0,0\n", 1, 13, "fingerprint",
               "fingerprint of another architecture");
  expect_error("  nop\n", 1, 3, "expected a packet header", "body before any header");
  expect_error("gc 0 pe 0,0 side n\n", 1, 13, "not a key of a gc packet", "key of another type");
  expect_error("gc 0 pe 0,0\n  bounds 2\nstart gc 0 pe 0,0\n", 1, 1, "needs 'ii'",
               "gc without ii");
  expect_error("start gc 0 pe 0,0\nstart gc 0 pe 0,0\n", 2, 1, "after the START",
               "packet after start");
}

static void test_writer_stream(void) {
  stream_writer w;
  stream_writer_init(&w, &cfg);
  stream_rect all = {0, 0, cfg.rows, cfg.cols}, one = {2, 1, 1, 1};
  uint32_t reg[4] = {1, 32, 7, 1};
  int rc = stream_writer_packet(&w, STREAM_PKT_REGCFG, 0, 0, all, reg, 4);
  uint32_t wr[20];
  for (int i = 0; i < 20; i++) wr[i] = (uint32_t)(19 - i) % 21;
  rc |= stream_writer_packet(&w, STREAM_PKT_WRAPPER, 0, 0, one, wr, 20);
  uint32_t gc[] = {1, 3, 2, 2, 2, 0, 0, 0, 0, 1, 0, 1, 0, 0x80000000u, 0x7fffffffu, 1, 0xffffffffu};
  rc |= stream_writer_packet(&w, STREAM_PKT_GC, 3, 0, all, gc, sizeof gc / 4);
  isa_insn in;
  isa_word prog[2];
  int col;
  char msg[100];
  rc |= isa_insn_parse("sel {fd1, od0, od3}, id0, #-5, rd2 ; br f2 ? L31 : L0", &in, &col, msg,
                       sizeof msg);
  rc |= isa_encode(&in, &prog[0]);
  rc |= isa_insn_parse("nop ; halt", &in, &col, msg, sizeof msg);
  rc |= isa_encode(&in, &prog[1]);
  rc |= stream_writer_program(&w, one, 1, prog, 2);
  uint32_t io[] = {1020, 0, 0x80000000u, 0xffffffffu, 5};
  rc |= stream_writer_packet(&w, STREAM_PKT_IODATA, 3, STREAM_SIDE_WEST,
                             (stream_rect){0, 0, cfg.rows, 1}, io, 5);
  rc |= stream_writer_packet(&w, STREAM_PKT_START, 3, 0, all, NULL, 0);
  uint8_t *buf = NULL;
  size_t len = 0;
  if (!rc) rc = stream_writer_finish(&w, &buf, &len);
  stream_writer_free(&w);
  TEST_CHECK(rc == 0, "writer-built stream with extreme values is valid");
  TEST_CHECK(rc == 0 && round_trip(buf, len), "writer-built stream: disasm -> asm gives the same "
             "bytes (INT32 extremes, every wrapper port, empty and 3-dimensional terms)");
  if (len > 30) {
    buf[len - 1] ^= 1; /* CRC now fails */
    char *t = disassemble(buf, len);
    TEST_CHECK(t == NULL, "disasm refuses a corrupted stream");
    free(t);
  }
  free(buf);
}

int main(void) {
  if (arch_config_load_default(&cfg) != 0) {
    printf("not ok 1 - default architecture loads\n");
    return 1;
  }
  test_fixtures();
  test_named_fields();
  test_raw_equals_named();
  test_labels();
  test_errors();
  test_writer_stream();
  return test_done();
}
