/* covers: docs/stream.md "Words and bytes", "Header", "Packets" */
/*
 * test_stream.c: the configuration stream (stream.h): a stream with one
 * packet of every type is written, checked byte by byte in its header,
 * read back packet by packet, saved and loaded; then every header fault
 * (short, magic, version, fingerprint, length, CRC) and every packet fault
 * (truncated, type, rectangle, payload, order) is provoked and must be
 * rejected with its own code. The CRC of hand-made streams is computed here
 * with zlib directly, independently of the writer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "stream.h"
#include "test.h"

/* docs/arch.md defaults, spelled out so the test needs no INI file. */
static arch_config test_arch(void) {
  arch_config c = {.rows = 4, .cols = 4, .alu = 2, .mul = 1, .div = 0,
                   .rd = 4, .fd = 4, .fd_depth = 32, .id = 4, .od = 4,
                   .fifo_depth = 8, .imem = 32, .branch_targets = 2,
                   .lat_alu = 1, .lat_mul = 2, .lat_div = 8, .ports = 4,
                   .gc_signals = 8, .gc_dims = 6, .gc_history = 128, .banks = 4,
                   .bank_depth = 1024};
  return c;
}

static isa_word asm_word(const char *text) {
  isa_insn in;
  isa_word w = {{0}};
  if (isa_insn_parse(text, &in, NULL, NULL, 0) == ISA_OK) isa_encode(&in, &w);
  return w;
}

typedef struct {
  stream_packet_type type;
  int index, side;
  stream_rect rect;
  uint32_t payload[64];
  uint32_t n;
} expect_pkt;

static expect_pkt pkts[8];
static int npkts;

/* Writes one packet and remembers it for the read-back comparison. */
static int put(stream_writer *w, stream_packet_type type, int index, int side,
               stream_rect rect, const uint32_t *payload, uint32_t n) {
  int rc = stream_writer_packet(w, type, index, side, rect, payload, n);
  if (rc == STREAM_OK) {
    expect_pkt *e = &pkts[npkts++];
    e->type = type, e->index = index, e->side = side, e->rect = rect;
    if (n) memcpy(e->payload, payload, n * sizeof *payload);
    e->n = n;
  }
  return rc;
}

/* Builds the sample stream (one packet of every type) into *buf. */
static int build_sample(const arch_config *cfg, uint8_t **buf, size_t *len) {
  stream_writer w;
  stream_writer_init(&w, cfg);
  npkts = 0;
  int bad = 0;
  isa_word prog[3] = {asm_word("shr fd0, id0, #1"),
                      asm_word("and {rd1, od0}, id0, #1 ; br c0 ? L2 : L0"),
                      asm_word("nop ; halt")};
  uint32_t pw[3 * ISA_WORDS];
  memcpy(pw, prog, sizeof pw);
  stream_rect all = {0, 0, 4, 4}, row0 = {0, 0, 1, 3}, pe00 = {0, 0, 1, 1};
  bad |= put(&w, STREAM_PKT_PROGRAM, 1, 0, all, pw, 3 * ISA_WORDS);
  uint32_t fd[4] = {1, 32, 1, 4};
  bad |= put(&w, STREAM_PKT_REGCFG, 0, 0, all, fd, 4);
  uint32_t wr[20] = {0};
  wr[0] = 1 + 4 + 3 * 4 + 0; /* id0 <- west input 0 */
  wr[4 + 1 * 4 + 0] = 1 + 0; /* east output 0 <- od0 */
  bad |= put(&w, STREAM_PKT_WRAPPER, 0, 0, all, wr, 20);
  /* ii 2, 1 dim of 6, 1 epilog step, delays 0 + 12*col; c0 = (j0 - 4 == 0) */
  uint32_t gc[] = {2, 1, 6, 1, 0, 0, 12, 1, 0, 1, STREAM_CONS_EQ, 1,
                   (uint32_t)-4};
  bad |= put(&w, STREAM_PKT_GC, 0, 0, row0, gc, sizeof gc / 4);
  /* read bank: base 0 + 6*col + 1*j0, enabled when j0 >= 0 */
  uint32_t ag[] = {STREAM_AG_READ, 1, 0, 0, 0, 6, 1, 1, STREAM_CONS_GE, 1, 0};
  bad |= put(&w, STREAM_PKT_AG, 2, STREAM_SIDE_NORTH, row0, ag, sizeof ag / 4);
  uint32_t data[] = {1000, 7, 8, 9};
  bad |= put(&w, STREAM_PKT_IODATA, 2, STREAM_SIDE_NORTH, pe00, data, 4);
  bad |= put(&w, STREAM_PKT_START, 0, 0, row0, NULL, 0);
  int rc = stream_writer_finish(&w, buf, len);
  stream_writer_free(&w);
  return bad ? bad : rc;
}

static void test_round_trip(void) {
  arch_config cfg = test_arch();
  uint8_t *buf;
  size_t len;
  TEST_CHECK(build_sample(&cfg, &buf, &len) == STREAM_OK && npkts == 7,
             "sample stream with one packet of each of 7 types written");
  if (!buf) return;
  TEST_CHECK(memcmp(buf, "TCPA", 4) == 0, "file starts with the bytes TCPA");
  TEST_CHECK(buf[4] == 3 && buf[5] == 0 && buf[6] == 0 && buf[7] == 0,
             "version 3, little-endian");
  uint64_t fp = arch_config_fingerprint(&cfg);
  uint64_t got = 0;
  for (int i = 7; i >= 0; i--) got = got << 8 | buf[8 + i];
  TEST_CHECK(got == fp, "fingerprint at bytes 8..15");
  uint32_t lenw = buf[16] | buf[17] << 8 | buf[18] << 16 | (uint32_t)buf[19] << 24;
  TEST_CHECK(lenw == (len - 24) / 4, "length word counts payload words (%u)",
             lenw);
  uint32_t crc = buf[20] | buf[21] << 8 | buf[22] << 16 | (uint32_t)buf[23] << 24;
  TEST_CHECK(crc == (uint32_t)crc32(crc32(0, Z_NULL, 0), buf + 24,
                                    (uInt)(len - 24)),
             "CRC-32 of the payload bytes at bytes 20..23");
  TEST_CHECK(buf[24] == STREAM_PKT_PROGRAM && buf[25] == 1,
             "first packet: type byte then FU index byte");

  stream_reader r;
  int rc = stream_reader_open(&r, buf, len, &cfg);
  TEST_CHECK(rc == STREAM_OK, "reader accepts the sample (%s)", r.msg);
  stream_packet p;
  int i = 0, same = 1;
  while (rc == STREAM_OK && (rc = stream_reader_next(&r, &p)) == 1) {
    const expect_pkt *e = &pkts[i++];
    if (p.type != e->type || p.index != e->index || p.side != e->side ||
        memcmp(&p.rect, &e->rect, sizeof p.rect) || p.nwords != e->n ||
        (e->n && memcmp(p.payload, e->payload, e->n * 4)))
      same = 0;
    rc = STREAM_OK;
  }
  TEST_CHECK(rc == 0 && i == 7 && same,
             "every packet reads back as written (%d packets, rc %d: %s)", i,
             rc, r.msg);
  TEST_CHECK(stream_reader_next(&r, &p) == 0, "end stays end");
  stream_reader_close(&r);

  char path[] = "/tmp/test_stream_XXXXXX";
  int fd = mkstemp(path);
  if (fd >= 0) close(fd);
  stream_writer w;
  stream_writer_init(&w, &cfg);
  stream_writer_packet(&w, STREAM_PKT_START, 0, 0, (stream_rect){0, 0, 1, 1},
                       NULL, 0);
  uint8_t *img = NULL, *loaded = NULL;
  size_t ilen = 0, llen = 0;
  stream_writer_finish(&w, &img, &ilen);
  rc = stream_writer_save(&w, path);
  TEST_CHECK(rc == STREAM_OK && stream_file_load(path, &loaded, &llen) == 0 &&
                 llen == ilen && memcmp(img, loaded, ilen) == 0,
             "save and load give the bytes finish gives (%zu bytes)", ilen);
  TEST_CHECK(ilen == 40, "smallest stream: header + START = 40 bytes");
  remove(path);
  free(loaded);
  free(img);
  rc = stream_writer_save(&w, "/nonexistent-dir/x.bin");
  TEST_CHECK(rc == STREAM_ERR_IO && access("/nonexistent-dir/x.bin", F_OK) != 0,
             "unwritable path -> STREAM_ERR_IO, no file");
  stream_writer_free(&w);
  free(buf);
}

/* Returns the result of opening (and, when open passes, reading to the end)
 * a stream buffer. */
static int read_all(const uint8_t *buf, size_t len, const arch_config *cfg,
                    char *msg) {
  stream_reader r;
  stream_packet p;
  int rc = stream_reader_open(&r, buf, len, cfg);
  while (rc == STREAM_OK && (rc = stream_reader_next(&r, &p)) == 1) rc = 0;
  snprintf(msg, 256, "%s", r.msg);
  stream_reader_close(&r);
  return rc;
}

static void put32(uint8_t *b, uint32_t v) {
  for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> 8 * i);
}

/* Builds a raw stream from host-order payload words with a correct header
 * (length, CRC by zlib); returns its length. */
static size_t raw_stream(const arch_config *cfg, const uint32_t *words,
                         size_t n, uint8_t *out) {
  uint64_t fp = arch_config_fingerprint(cfg);
  put32(out, STREAM_MAGIC);
  put32(out + 4, STREAM_VERSION);
  put32(out + 8, (uint32_t)fp);
  put32(out + 12, (uint32_t)(fp >> 32));
  put32(out + 16, (uint32_t)n);
  for (size_t i = 0; i < n; i++) put32(out + 24 + 4 * i, words[i]);
  put32(out + 20, (uint32_t)crc32(crc32(0, Z_NULL, 0), out + 24,
                                  (uInt)(4 * n)));
  return 24 + 4 * n;
}

static void test_header_faults(void) {
  arch_config cfg = test_arch();
  uint8_t *good, *b;
  size_t len;
  char msg[256];
  if (build_sample(&cfg, &good, &len) != STREAM_OK) return;
  b = malloc(len);
  int seen[16] = {0};

  struct { const char *name; int want; } cases[] = {
      {"payload bit flipped", STREAM_ERR_CRC},
      {"wrong magic", STREAM_ERR_MAGIC},
      {"version 1 (WRAPPER a word per sink)", STREAM_ERR_VERSION},
      {"fingerprint of another architecture", STREAM_ERR_FINGERPRINT},
      {"last word cut off", STREAM_ERR_LENGTH},
      {"length word one too large", STREAM_ERR_LENGTH},
      {"10 bytes", STREAM_ERR_SHORT},
      {"not a whole number of words", STREAM_ERR_SHORT},
  };
  for (int k = 0; k < (int)(sizeof cases / sizeof cases[0]); k++) {
    memcpy(b, good, len);
    size_t l = len;
    arch_config c = cfg;
    switch (k) {
    case 0: b[len - 30] ^= 0x10; break;
    case 1: b[0] = 'X'; break;
    case 2: b[4] = 1; break;
    case 3: c.rows = 5; break;
    case 4: l -= 4; break;
    case 5: b[16]++; break;
    case 6: l = 10; break;
    case 7: l -= 2; break;
    }
    int rc = read_all(b, l, &c, msg);
    TEST_CHECK(rc == cases[k].want && msg[0],
               "%s -> %s (got %d: %s)", cases[k].name,
               stream_error_name(cases[k].want), rc, msg);
    seen[-rc & 15] = 1;
  }
  int distinct = 0;
  for (int i = 0; i < 16; i++) distinct += seen[i];
  TEST_CHECK(distinct == 6, "six distinct header error codes (%d)", distinct);
  free(b);
  free(good);
}

static void test_packet_faults(void) {
  arch_config cfg = test_arch();
  uint8_t b[1024];
  char msg[256];
  /* START on PE (0,0) */
  uint32_t start[] = {STREAM_PKT_START, 0, 1 | 1u << 16, 0};
  uint32_t w[64];
  struct { const char *name; int want; uint32_t words[12]; size_t n; } cases[] = {
      {"no START", STREAM_ERR_ORDER, {STREAM_PKT_REGCFG, 0, 1 | 1u << 16, 4,
                                      1, 1, 1, 1}, 8},
      {"packet header cut", STREAM_ERR_TRUNCATED, {STREAM_PKT_START, 0}, 2},
      {"payload past the end", STREAM_ERR_TRUNCATED,
       {STREAM_PKT_REGCFG, 0, 1 | 1u << 16, 9, 1, 1, 1, 1}, 8},
      {"unknown type 9", STREAM_ERR_TYPE, {9, 0, 1 | 1u << 16, 0}, 4},
      {"reserved bits", STREAM_ERR_TYPE,
       {STREAM_PKT_START | 1u << 20, 0, 1 | 1u << 16, 0}, 4},
      {"rectangle past the array", STREAM_ERR_RECT,
       {STREAM_PKT_START, 3 | 3u << 16, 2 | 1u << 16, 0}, 4},
      {"empty rectangle", STREAM_ERR_RECT, {STREAM_PKT_START, 0, 0, 0}, 4},
      {"fd depth 33", STREAM_ERR_PAYLOAD,
       {STREAM_PKT_REGCFG, 0, 1 | 1u << 16, 4, 1, 33, 1, 1}, 8},
      {"fd depth 0", STREAM_ERR_PAYLOAD,
       {STREAM_PKT_REGCFG, 0, 1 | 1u << 16, 4, 1, 0, 1, 1}, 8},
      {"program for FU 3 of 3", STREAM_ERR_PAYLOAD,
       {STREAM_PKT_PROGRAM | 3u << 8, 0, 1 | 1u << 16, 4, 0, 0, 0, 0}, 8},
      {"program not whole instructions", STREAM_ERR_PAYLOAD,
       {STREAM_PKT_PROGRAM, 0, 1 | 1u << 16, 2, 0, 0}, 6},
      {"AG not on its border", STREAM_ERR_RECT,
       {STREAM_PKT_AG | STREAM_SIDE_SOUTH << 16, 0, 1 | 1u << 16, 0}, 4},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    size_t n = cases[k].n;
    memcpy(w, cases[k].words, n * 4);
    if (k != 0 && cases[k].want != STREAM_ERR_TRUNCATED) {
      memcpy(w + n, start, sizeof start);
      n += 4;
    }
    size_t l = raw_stream(&cfg, w, n, b);
    int rc = read_all(b, l, &cfg, msg);
    TEST_CHECK(rc == cases[k].want && strstr(msg, "byte "),
               "%s -> %s (got %d: %s)", cases[k].name,
               stream_error_name(cases[k].want), rc, msg);
  }
  size_t l = raw_stream(&cfg, start, 4, b);
  TEST_CHECK(read_all(b, l, &cfg, msg) == 0, "hand-made START-only stream "
             "is accepted (%s)", msg);
  memcpy(w, start, sizeof start);
  memcpy(w + 4, start, sizeof start);
  l = raw_stream(&cfg, w, 8, b);
  TEST_CHECK(read_all(b, l, &cfg, msg) == STREAM_ERR_ORDER,
             "packet after START -> order error (%s)", msg);
}

static void test_writer_faults(void) {
  arch_config cfg = test_arch();
  stream_writer w;
  stream_writer_init(&w, &cfg);
  stream_rect pe = {0, 0, 1, 1};
  isa_word mul = asm_word("mul rd0, rd1, rd2");
  TEST_CHECK(stream_writer_program(&w, pe, 0, &mul, 1) == STREAM_ERR_PAYLOAD &&
                 strstr(w.msg, "runs on a mul"),
             "mul in an ALU program rejected: %s", w.msg);
  TEST_CHECK(stream_writer_program(&w, pe, 2, &mul, 1) == STREAM_OK,
             "mul in the multiplier's program accepted");
  isa_word far = asm_word("nop ; goto L40");
  TEST_CHECK(stream_writer_program(&w, pe, 0, &far, 1) == STREAM_ERR_PAYLOAD &&
                 strstr(w.msg, "pe.imem"),
             "branch past pe.imem rejected: %s", w.msg);
  uint32_t wr[20] = {[3] = 1 + 4 + 16};
  TEST_CHECK(stream_writer_packet(&w, STREAM_PKT_WRAPPER, 0, 0, pe, wr, 20) ==
                 STREAM_ERR_PAYLOAD,
             "wrapper source past the sources rejected: %s", w.msg);
  uint32_t gc[] = {2, 7, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0};
  TEST_CHECK(stream_writer_packet(&w, STREAM_PKT_GC, 0, 0, pe, gc, 14) ==
                 STREAM_ERR_PAYLOAD && strstr(w.msg, "gc.dims"),
             "7 loop dimensions on gc.dims 6 rejected: %s", w.msg);
  uint32_t gc2[] = {2, 1, 6, 0, 0, 0, (uint32_t)-1, 0};
  TEST_CHECK(stream_writer_packet(&w, STREAM_PKT_GC, 0, 0,
                                  (stream_rect){0, 0, 1, 2}, gc2, 8) ==
                 STREAM_ERR_PAYLOAD && strstr(w.msg, "start delay -1"),
             "negative start delay rejected: %s", w.msg);
  /* No signal history bounds the start delays, even with gc.history 2
   * (legacy, docs/arch.md): only the 31-bit delay counters and the 32-bit
   * step counters do (docs/timing.md section 2). ii 2, two dimensions of
   * bounds B0 x B1 plus epilog E, delay_col D on a 1x2 region. */
  static const struct {
    uint32_t b0, b1, e, d;
    int want;
    const char *msg; /* in the error message, or NULL */
  } gcs[] = {
      {4, 1, 0, 7, STREAM_OK, NULL},                   /* beyond (2 - 1) * 2 */
      {4, 1, 0, 100000, STREAM_OK, NULL},
      {4, 1, 0, 0x7fffffff, STREAM_OK, NULL},          /* 2^31 - 1 */
      {4, 1, 0, 0x80000000u, STREAM_ERR_PAYLOAD, "start delay -2147483648 of PE (0,1) out of range"},
      {65535, 65537, 0, 0, STREAM_OK, NULL},           /* 2^32 - 1 steps */
      {65536, 65535, 65535, 0, STREAM_OK, NULL},       /* 2^32 - 1 with the epilog */
      {65536, 65535, 65536, 0, STREAM_ERR_PAYLOAD, "more than 4294967295 steps"},
      {65536, 65536, 0, 0, STREAM_ERR_PAYLOAD, "more than 4294967295 steps"},
      {0x7fffffff, 0x7fffffff, 0x7fffffff, 0, STREAM_ERR_PAYLOAD, "more than 4294967295 steps"},
  };
  arch_config small = test_arch();
  small.gc_history = 2;
  for (size_t i = 0; i < sizeof gcs / sizeof gcs[0]; i++) {
    stream_writer w2;
    stream_writer_init(&w2, &small);
    uint32_t gc3[] = {2, 2, gcs[i].b0, gcs[i].b1, gcs[i].e, 0, 0, gcs[i].d, 0};
    int rc = stream_writer_packet(&w2, STREAM_PKT_GC, 0, 0, (stream_rect){0, 0, 1, 2}, gc3, 9);
    TEST_CHECK(rc == gcs[i].want && (!gcs[i].msg || strstr(w2.msg, gcs[i].msg)),
               "GC %u x %u + %u steps, delay_col %u: %d (want %d) %s", gcs[i].b0, gcs[i].b1,
               gcs[i].e, gcs[i].d, rc, gcs[i].want, rc ? w2.msg : "");
    stream_writer_free(&w2);
  }
  uint32_t io[] = {1023, 1, 2};
  TEST_CHECK(stream_writer_packet(&w, STREAM_PKT_IODATA, 0, STREAM_SIDE_WEST,
                                  (stream_rect){2, 0, 1, 1}, io, 3) ==
                 STREAM_ERR_PAYLOAD && strstr(w.msg, "iobuf.depth"),
             "bank data past iobuf.depth rejected: %s", w.msg);
  uint8_t *buf;
  size_t len;
  TEST_CHECK(stream_writer_finish(&w, &buf, &len) == STREAM_ERR_ORDER &&
                 buf == NULL,
             "finish without START rejected");
  TEST_CHECK(stream_writer_packet(&w, STREAM_PKT_START, 0, 0, pe, NULL, 0) ==
                 STREAM_OK, "START accepted");
  TEST_CHECK(stream_writer_packet(&w, STREAM_PKT_START, 0, 0, pe, NULL, 0) ==
                 STREAM_ERR_ORDER, "second START rejected");
  TEST_CHECK(stream_writer_finish(&w, &buf, &len) == STREAM_OK &&
                 len == 24 + 4 * (8 + 4),
             "rejected packets left the stream unchanged (%zu bytes)", len);
  free(buf);
  stream_writer_free(&w);
}

/* A WRAPPER packet's selects on the wire: 4 per word, a byte each, sink s
 * in byte s % 4 of word s / 4, zero padding; the reader gives them back one
 * per sink and refuses a byte past the sources or nonzero padding. The
 * test architecture has 4 id + 16 wrapper outputs = 20 sinks (5 words)
 * and 4 od + 16 wrapper inputs = 20 sources; a 3-id one has 19 sinks, so
 * byte 3 of word 4 is padding. */
static void test_wrapper_packing(void) {
  arch_config cfg = test_arch(), cfg3 = test_arch();
  cfg3.id = 3;
  const struct {
    const arch_config *cfg;
    uint32_t w4;      /* payload word 4 (sinks 16..19) on the wire */
    int rc;           /* what the reader says */
    const char *what;
  } cases[] = {
      {&cfg, 0x14000000u, STREAM_OK, "sink 19 <- source 19 (select 20 = all sources)"},
      {&cfg, 0x15000000u, STREAM_ERR_PAYLOAD, "select 21 past the 20 sources"},
      {&cfg, 0x00ff0000u, STREAM_ERR_PAYLOAD, "select 255"},
      {&cfg3, 0x00000005u, STREAM_OK, "3 id: padding byte 0"},
      {&cfg3, 0x01000005u, STREAM_ERR_PAYLOAD, "3 id: padding byte 1"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const arch_config *c = cases[i].cfg;
    uint32_t sinks = (uint32_t)(c->id + 4 * c->ports);
    uint32_t words[] = {STREAM_PKT_WRAPPER, 0, 1u | 1u << 16, 5, 0x04030201u, 0, 0, 0, cases[i].w4,
                        STREAM_PKT_START, 0, 1u | 1u << 16, 0};
    uint8_t raw[24 + 4 * 16];
    size_t len = raw_stream(c, words, sizeof words / 4, raw);
    stream_reader r;
    stream_packet p;
    int rc = stream_reader_open(&r, raw, len, c);
    if (rc == STREAM_OK) rc = stream_reader_next(&r, &p);
    uint32_t last = cases[i].w4 >> 8 * ((sinks - 1) % 4) & 0xff; /* the last sink's byte */
    int ok = cases[i].rc == STREAM_OK ? rc == 1 && p.nwords == sinks && p.payload[0] == 1 && p.payload[3] == 4 &&
                                            p.payload[16] == (cases[i].w4 & 0xff) && p.payload[sinks - 1] == last
                                      : rc == cases[i].rc;
    TEST_CHECK(ok, "wrapper on the wire, %s: reader %d (%s)", cases[i].what, rc, rc == 1 ? "read" : r.msg);
    stream_reader_close(&r);
  }
  /* the writer packs: 20 selects become 5 words, sink s in byte s % 4 */
  stream_writer w;
  stream_writer_init(&w, &cfg);
  uint32_t sel[20];
  for (uint32_t s = 0; s < 20; s++) sel[s] = (s * 7) % 21;
  int rc = stream_writer_packet(&w, STREAM_PKT_WRAPPER, 0, 0, (stream_rect){0, 0, 1, 1}, sel, 20);
  int ok = rc == STREAM_OK && w.n == STREAM_PACKET_WORDS + 5 && w.words[3] == 5;
  for (uint32_t s = 0; ok && s < 20; s++)
    ok = (w.words[STREAM_PACKET_WORDS + s / 4] >> 8 * (s % 4) & 0xff) == sel[s];
  TEST_CHECK(ok, "writer: 20 selects packed into 5 words, a byte each (%d, %zu words)", rc, w.n);
  stream_writer_free(&w);
}

int main(void) {
  test_round_trip();
  test_wrapper_packing();
  test_header_faults();
  test_packet_faults();
  test_writer_faults();
  return test_done();
}
