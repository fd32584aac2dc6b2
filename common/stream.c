/*
 * stream.c: the configuration stream of stream.h: writer, reader and the
 * one packet validator both use. Words are kept in host order in memory
 * and converted to little-endian bytes at the file boundary; the CRC is
 * zlib's crc32() over the payload bytes as stored (little-endian).
 *
 * Packet validation walks the payload with a cursor (pcur) that refuses to
 * read past the end, so a malformed payload is reported, never read out of
 * bounds.
 */
#include "stream.h"

#include <errno.h>
#include "fileio.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

const char *stream_error_name(int code) {
  switch (code) {
  case STREAM_OK: return "ok";
  case STREAM_ERR_SHORT: return "stream too short";
  case STREAM_ERR_MAGIC: return "bad magic number";
  case STREAM_ERR_VERSION: return "unsupported version";
  case STREAM_ERR_FINGERPRINT: return "architecture fingerprint mismatch";
  case STREAM_ERR_LENGTH: return "payload length mismatch";
  case STREAM_ERR_CRC: return "payload CRC mismatch";
  case STREAM_ERR_TRUNCATED: return "truncated packet";
  case STREAM_ERR_TYPE: return "unknown packet type";
  case STREAM_ERR_RECT: return "bad PE rectangle";
  case STREAM_ERR_PAYLOAD: return "bad packet payload";
  case STREAM_ERR_ORDER: return "bad packet order";
  case STREAM_ERR_IO: return "i/o error";
  case STREAM_ERR_NOMEM: return "out of memory";
  case STREAM_ERR_BUSY: return "region busy";
  default: return "unknown error";
  }
}

/* Writes a message into msg and returns code. */
static int fail(char *msg, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *msg, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, 256, fmt, ap);
  va_end(ap);
  return code;
}

static uint32_t le_get(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

static void le_put(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

static int32_t s32(uint32_t v) {
  int32_t r;
  memcpy(&r, &v, sizeof r);
  return r;
}

/* Returns the CRC-32 of n words as little-endian bytes. */
static uint32_t words_crc(const uint32_t *w, size_t n) {
  uLong crc = crc32(0L, Z_NULL, 0);
  uint8_t chunk[1024];
  size_t i = 0;
  while (i < n) {
    size_t k = 0;
    for (; k < sizeof chunk / 4 && i < n; k++, i++) le_put(chunk + 4 * k, w[i]);
    crc = crc32(crc, chunk, (uInt)(4 * k));
  }
  return (uint32_t)crc;
}

/* ---- packet validation ---------------------------------------------------- */

typedef struct {
  const uint32_t *w;
  uint32_t n, i;
  int bad; /* read past the end */
} pcur;

/* Returns the next payload word, or 0 and marks the cursor bad at the end. */
static uint32_t take(pcur *c) {
  if (c->i >= c->n) {
    c->bad = 1;
    return 0;
  }
  return c->w[c->i++];
}

static int rect_ok(const stream_rect *r, const arch_config *cfg) {
  return r->rows >= 1 && r->cols >= 1 && r->row0 >= 0 && r->col0 >= 0 &&
         r->row0 + r->rows <= cfg->rows && r->col0 + r->cols <= cfg->cols;
}

/* Returns 1 when every PE of r lies on the border `side`. */
static int on_border(const stream_rect *r, int side, const arch_config *cfg) {
  switch (side) {
  case STREAM_SIDE_NORTH: return r->row0 == 0 && r->rows == 1;
  case STREAM_SIDE_SOUTH: return r->row0 + r->rows == cfg->rows && r->rows == 1;
  case STREAM_SIDE_WEST: return r->col0 == 0 && r->cols == 1;
  case STREAM_SIDE_EAST: return r->col0 + r->cols == cfg->cols && r->cols == 1;
  default: return 0;
  }
}

static int check_program(const stream_packet *p, const arch_config *cfg,
                         char *msg) {
  if (p->index >= isa_fu_count(cfg))
    return fail(msg, STREAM_ERR_PAYLOAD, "program for FU %d, the PE has %d",
                p->index, isa_fu_count(cfg));
  if (p->nwords == 0 || p->nwords % ISA_WORDS ||
      p->nwords / ISA_WORDS > (uint32_t)cfg->imem)
    return fail(msg, STREAM_ERR_PAYLOAD,
                "program of %u words: needs 1..%d instructions of %d words",
                p->nwords, cfg->imem, ISA_WORDS);
  isa_fu_class cls = isa_fu_class_of(cfg, p->index);
  for (uint32_t i = 0; i < p->nwords / ISA_WORDS; i++) {
    isa_word w;
    isa_insn in;
    char why[160] = "";
    memcpy(w.w, p->payload + i * ISA_WORDS, sizeof w.w);
    int rc = isa_decode(&w, &in);
    if (rc == ISA_OK) rc = isa_insn_check(&in, cls, cfg, why, sizeof why);
    if (rc != ISA_OK)
      return fail(msg, STREAM_ERR_PAYLOAD, "instruction %u: %s", i,
                  why[0] ? why : "not a valid instruction word");
  }
  return STREAM_OK;
}

static int check_regcfg(const stream_packet *p, const arch_config *cfg,
                        char *msg) {
  if (p->nwords != (uint32_t)cfg->fd)
    return fail(msg, STREAM_ERR_PAYLOAD,
                "register configuration of %u words, pe.fd is %d", p->nwords,
                cfg->fd);
  for (uint32_t i = 0; i < p->nwords; i++)
    if (p->payload[i] < 1 || p->payload[i] > (uint32_t)cfg->fd_depth)
      return fail(msg, STREAM_ERR_PAYLOAD,
                  "fd%u depth %u outside 1..pe.fd_depth = %d", i,
                  p->payload[i], cfg->fd_depth);
  return STREAM_OK;
}

/* Every source number + 1 fits a select byte. */
_Static_assert(ISA_MAX_OD + STREAM_SIDES * ARCH_MAX_PORTS < (1 << STREAM_WRAPPER_SEL_BITS),
               "wrapper sources exceed a select byte");

/* Returns the number of payload words of a WRAPPER packet for nsinks. */
static uint32_t wrapper_words(uint32_t nsinks) {
  return (nsinks + STREAM_WRAPPER_SELS - 1) / STREAM_WRAPPER_SELS;
}

/* Packs the selects sel[0..nsinks) (each < 2^STREAM_WRAPPER_SEL_BITS,
 * checked before) into wrapper_words(nsinks) words at out; the bytes past
 * the last sink are 0. */
static void wrapper_pack(const uint32_t *sel, uint32_t nsinks, uint32_t *out) {
  memset(out, 0, wrapper_words(nsinks) * sizeof *out);
  for (uint32_t s = 0; s < nsinks; s++)
    out[s / STREAM_WRAPPER_SELS] |= sel[s] << (STREAM_WRAPPER_SEL_BITS * (s % STREAM_WRAPPER_SELS));
}

/* Returns STREAM_OK after unpacking the nwords words of a WRAPPER payload
 * into the selects sel[0..nsinks) for cfg; an error when the word count is
 * not wrapper_words(nsinks) or a byte past the last sink is not 0. */
static int wrapper_unpack(const uint32_t *words, uint32_t nwords, const arch_config *cfg, uint32_t *sel,
                          uint32_t *nsinks, char *msg) {
  uint32_t sinks = (uint32_t)(cfg->id + STREAM_SIDES * cfg->ports), mask = (1u << STREAM_WRAPPER_SEL_BITS) - 1;
  if (nwords != wrapper_words(sinks))
    return fail(msg, STREAM_ERR_PAYLOAD, "wrapper configuration of %u words, needs %u: one byte per sink, "
                "%u sinks", nwords, wrapper_words(sinks), sinks);
  for (uint32_t s = 0; s < nwords * STREAM_WRAPPER_SELS; s++) {
    uint32_t v = words[s / STREAM_WRAPPER_SELS] >> (STREAM_WRAPPER_SEL_BITS * (s % STREAM_WRAPPER_SELS)) & mask;
    if (s < sinks) sel[s] = v;
    else if (v)
      return fail(msg, STREAM_ERR_PAYLOAD, "wrapper word %u: byte %u past the last sink is 0x%02x, "
                  "must be 0", s / STREAM_WRAPPER_SELS, s % STREAM_WRAPPER_SELS, v);
  }
  *nsinks = sinks;
  return STREAM_OK;
}

static int check_wrapper(const stream_packet *p, const arch_config *cfg,
                         char *msg) {
  uint32_t sinks = (uint32_t)(cfg->id + STREAM_SIDES * cfg->ports);
  uint32_t sources = (uint32_t)(cfg->od + STREAM_SIDES * cfg->ports);
  if (p->nwords != sinks)
    return fail(msg, STREAM_ERR_PAYLOAD,
                "wrapper configuration of %u selects, needs one per sink: %u",
                p->nwords, sinks);
  for (uint32_t i = 0; i < sinks; i++)
    if (p->payload[i] > sources)
      return fail(msg, STREAM_ERR_PAYLOAD,
                  "sink %u selects source %u, there are %u", i, p->payload[i],
                  sources);
  return STREAM_OK;
}

/* Reads ncons constraints over nd dimensions; returns STREAM_OK or error. */
static int check_constraints(pcur *c, int nd, const arch_config *cfg,
                             char *msg) {
  uint32_t ncons = take(c);
  if (ncons > (uint32_t)STREAM_MAX_CONS(cfg))
    return fail(msg, STREAM_ERR_PAYLOAD, "%u constraints, at most %d "
                "(2 x gc.dims)", ncons, STREAM_MAX_CONS(cfg));
  for (uint32_t k = 0; k < ncons && !c->bad; k++) {
    uint32_t kind = take(c);
    if (kind > STREAM_CONS_EQ)
      return fail(msg, STREAM_ERR_PAYLOAD, "constraint kind %u", kind);
    for (int d = 0; d <= nd; d++) take(c); /* coefficients and constant */
  }
  return STREAM_OK;
}

/* Reads ndims (1..gc.dims) into *nd. */
static int check_ndims(pcur *c, const arch_config *cfg, int *nd, char *msg) {
  uint32_t v = take(c);
  if (v < 1 || v > (uint32_t)cfg->gc_dims)
    return fail(msg, STREAM_ERR_PAYLOAD, "%u dimensions, gc.dims is %d", v,
                cfg->gc_dims);
  *nd = (int)v;
  return STREAM_OK;
}

/* Returns STREAM_OK when the start delays are in 0..2^31-1 on every PE of
 * the region (the units' delay counters, docs/timing.md section 2). */
static int check_delays(const stream_packet *p, int32_t d0, int32_t dr, int32_t dc,
                        char *msg) {
  for (int r = 0; r < p->rect.rows; r++)
    for (int col = 0; col < p->rect.cols; col++) {
      long long d = (long long)d0 + (long long)dr * r + (long long)dc * col;
      if (d < 0 || d > INT32_MAX)
        return fail(msg, STREAM_ERR_PAYLOAD,
                    "start delay %lld of PE (%d,%d) out of range", d,
                    p->rect.row0 + r, p->rect.col0 + col);
    }
  return STREAM_OK;
}

static int check_gc(const stream_packet *p, const arch_config *cfg, char *msg) {
  pcur c = {p->payload, p->nwords, 0, 0};
  int nd, rc;
  if (p->index >= STREAM_GCS)
    return fail(msg, STREAM_ERR_PAYLOAD, "global controller %d of %d",
                p->index, STREAM_GCS);
  int32_t ii = s32(take(&c));
  if (ii < 1 && !c.bad)
    return fail(msg, STREAM_ERR_PAYLOAD, "initiation interval below 1");
  if ((rc = check_ndims(&c, cfg, &nd, msg))) return rc;
  uint64_t steps = 1; /* prod(bounds) + epilog, saturated past the limit */
  for (int d = 0; d < nd; d++) {
    int32_t b = s32(take(&c));
    if (b < 1 && !c.bad)
      return fail(msg, STREAM_ERR_PAYLOAD, "bound of dimension %d below 1", d);
    if (b > 0) steps = steps * (uint64_t)b > STREAM_GC_MAX_STEPS ? STREAM_GC_MAX_STEPS + 1
                                                                : steps * (uint64_t)b;
  }
  int32_t epilog = s32(take(&c));
  if (epilog < 0)
    return fail(msg, STREAM_ERR_PAYLOAD, "negative epilog step count");
  if (!c.bad && steps + (uint64_t)epilog > STREAM_GC_MAX_STEPS)
    return fail(msg, STREAM_ERR_PAYLOAD, "global controller of more than %llu steps "
                "(product of the bounds plus epilog): the step counters are 32 bits",
                (unsigned long long)STREAM_GC_MAX_STEPS);
  int32_t d0 = s32(take(&c)), dr = s32(take(&c)), dc = s32(take(&c));
  if (!c.bad && (rc = check_delays(p, d0, dr, dc, msg))) return rc;
  uint32_t nterms = take(&c);
  if (nterms > (uint32_t)STREAM_GC_MAX_TERMS(cfg))
    return fail(msg, STREAM_ERR_PAYLOAD, "%u signal terms, at most %d "
                "(2 x gc.signals)", nterms, STREAM_GC_MAX_TERMS(cfg));
  for (uint32_t t = 0; t < nterms && !c.bad; t++) {
    uint32_t sig = STREAM_TERM_SIGNAL(take(&c)); /* bits 8..31: any PE range */
    if (sig >= (uint32_t)cfg->gc_signals)
      return fail(msg, STREAM_ERR_PAYLOAD, "term %u drives signal %u, "
                  "gc.signals is %d", t, sig, cfg->gc_signals);
    if ((rc = check_constraints(&c, nd, cfg, msg))) return rc;
  }
  if (c.bad || c.i != c.n)
    return fail(msg, STREAM_ERR_PAYLOAD, "global controller payload of %u "
                "words does not match its contents", p->nwords);
  return STREAM_OK;
}

/* Returns STREAM_OK when bank/side/rect of an AG or IODATA packet fit. */
static int check_bank(const stream_packet *p, const arch_config *cfg,
                      char *msg) {
  if (p->index >= cfg->banks || p->index >= cfg->ports)
    return fail(msg, STREAM_ERR_PAYLOAD, "bank %d: iobuf.banks is %d and "
                "interconnect.ports %d", p->index, cfg->banks, cfg->ports);
  if (!on_border(&p->rect, p->side, cfg))
    return fail(msg, STREAM_ERR_RECT, "rectangle is not on the %s border",
                (const char *[]){"north", "east", "south", "west"}[p->side & 3]);
  return STREAM_OK;
}

static int check_ag(const stream_packet *p, const arch_config *cfg, char *msg) {
  pcur c = {p->payload, p->nwords, 0, 0};
  int nd, rc;
  if ((rc = check_bank(p, cfg, msg))) return rc;
  if (take(&c) > STREAM_AG_WRITE)
    return fail(msg, STREAM_ERR_PAYLOAD, "address generator mode %u",
                p->payload[0]);
  if ((rc = check_ndims(&c, cfg, &nd, msg))) return rc;
  if (s32(take(&c)) < 0)
    return fail(msg, STREAM_ERR_PAYLOAD, "negative address generator phase");
  for (int k = 0; k < 3 + nd; k++) take(&c); /* base, row, col, strides */
  if ((rc = check_constraints(&c, nd, cfg, msg))) return rc;
  if (c.bad || c.i != c.n)
    return fail(msg, STREAM_ERR_PAYLOAD, "address generator payload of %u "
                "words does not match its contents", p->nwords);
  return STREAM_OK;
}

static int check_iodata(const stream_packet *p, const arch_config *cfg,
                        char *msg) {
  int rc = check_bank(p, cfg, msg);
  if (rc) return rc;
  if (p->nwords < 1)
    return fail(msg, STREAM_ERR_PAYLOAD, "bank data without a start address");
  uint64_t end = (uint64_t)p->payload[0] + (p->nwords - 1);
  if (end > (uint64_t)cfg->bank_depth)
    return fail(msg, STREAM_ERR_PAYLOAD, "bank data up to address %llu, "
                "iobuf.depth is %d", (unsigned long long)end, cfg->bank_depth);
  return STREAM_OK;
}

/* Returns STREAM_OK when packet p is valid for cfg (started: a START was
 * seen before it). */
static int packet_check(const stream_packet *p, const arch_config *cfg,
                        int started, char *msg) {
  if (started)
    return fail(msg, STREAM_ERR_ORDER, "packet after the START packet");
  if (p->type < STREAM_PKT_PROGRAM || p->type > STREAM_PKT_START)
    return fail(msg, STREAM_ERR_TYPE, "unknown packet type %d", p->type);
  if (!rect_ok(&p->rect, cfg))
    return fail(msg, STREAM_ERR_RECT,
                "rectangle rows %d..%d, columns %d..%d outside the %dx%d array",
                p->rect.row0, p->rect.row0 + p->rect.rows - 1, p->rect.col0,
                p->rect.col0 + p->rect.cols - 1, cfg->rows, cfg->cols);
  int banked = p->type == STREAM_PKT_AG || p->type == STREAM_PKT_IODATA;
  if ((!banked && p->side != 0) || p->side < 0 || p->side >= STREAM_SIDES ||
      p->index < 0 || p->index > 255)
    return fail(msg, STREAM_ERR_TYPE, "bad index %d or side %d", p->index,
                p->side);
  if (!banked && p->type != STREAM_PKT_PROGRAM && p->type != STREAM_PKT_GC &&
      p->type != STREAM_PKT_START && p->index != 0)
    return fail(msg, STREAM_ERR_TYPE, "packet type %d takes no index",
                p->type);
  switch (p->type) {
  case STREAM_PKT_PROGRAM: return check_program(p, cfg, msg);
  case STREAM_PKT_REGCFG: return check_regcfg(p, cfg, msg);
  case STREAM_PKT_WRAPPER: return check_wrapper(p, cfg, msg);
  case STREAM_PKT_GC: return check_gc(p, cfg, msg);
  case STREAM_PKT_AG: return check_ag(p, cfg, msg);
  case STREAM_PKT_IODATA: return check_iodata(p, cfg, msg);
  case STREAM_PKT_START:
    if (p->index >= STREAM_GCS || p->nwords)
      return fail(msg, STREAM_ERR_PAYLOAD, "START of GC %d with %u words",
                  p->index, p->nwords);
    return STREAM_OK;
  }
  return STREAM_ERR_TYPE;
}

/* ---- writer ---------------------------------------------------------------- */

void stream_writer_init(stream_writer *w, const arch_config *cfg) {
  memset(w, 0, sizeof *w);
  w->cfg = *cfg;
}

/* Returns 0 after making room for `more` words, -1 when out of memory. */
static int writer_reserve(stream_writer *w, size_t more) {
  if (w->n + more <= w->cap) return 0;
  size_t cap = w->cap ? w->cap : 256;
  while (cap < w->n + more) cap *= 2;
  uint32_t *nw = realloc(w->words, cap * sizeof *nw);
  if (!nw) return -1;
  w->words = nw;
  w->cap = cap;
  return 0;
}

int stream_writer_packet(stream_writer *w, stream_packet_type type, int index,
                         int side, stream_rect rect, const uint32_t *payload,
                         uint32_t nwords) {
  stream_packet p = {type, index, side, rect, nwords, payload,
                     (STREAM_HEADER_WORDS + w->n) * 4};
  if (rect.row0 > 0xffff || rect.col0 > 0xffff || rect.rows > 0xffff ||
      rect.cols > 0xffff)
    return fail(w->msg, STREAM_ERR_RECT, "rectangle fields exceed 16 bits");
  int rc = packet_check(&p, &w->cfg, w->started, w->msg);
  if (rc) return rc;
  uint32_t raw = type == STREAM_PKT_WRAPPER ? wrapper_words(nwords) : nwords;
  if (writer_reserve(w, STREAM_PACKET_WORDS + (size_t)raw))
    return fail(w->msg, STREAM_ERR_NOMEM, "out of memory");
  uint32_t *o = w->words + w->n;
  o[0] = (uint32_t)type | (uint32_t)index << 8 | (uint32_t)side << 16;
  o[1] = (uint32_t)rect.row0 | (uint32_t)rect.col0 << 16;
  o[2] = (uint32_t)rect.rows | (uint32_t)rect.cols << 16;
  o[3] = raw;
  if (type == STREAM_PKT_WRAPPER) wrapper_pack(payload, nwords, o + STREAM_PACKET_WORDS);
  else if (nwords) memcpy(o + STREAM_PACKET_WORDS, payload, nwords * sizeof *o);
  w->n += STREAM_PACKET_WORDS + raw;
  if (type == STREAM_PKT_START) w->started = 1;
  return STREAM_OK;
}

int stream_writer_program(stream_writer *w, stream_rect rect, int fu,
                          const isa_word *prog, int n) {
  if (n < 0 || n > ISA_MAX_IMEM)
    return fail(w->msg, STREAM_ERR_PAYLOAD, "program of %d instructions", n);
  uint32_t buf[ISA_MAX_IMEM * ISA_WORDS];
  for (int i = 0; i < n; i++)
    memcpy(buf + i * ISA_WORDS, prog[i].w, sizeof prog[i].w);
  return stream_writer_packet(w, STREAM_PKT_PROGRAM, fu, 0, rect, buf,
                              (uint32_t)(n * ISA_WORDS));
}

int stream_writer_finish(stream_writer *w, uint8_t **buf, size_t *len) {
  *buf = NULL;
  *len = 0;
  if (!w->started)
    return fail(w->msg, STREAM_ERR_ORDER, "no START packet was written");
  if (w->n > UINT32_MAX)
    return fail(w->msg, STREAM_ERR_LENGTH, "stream too long");
  size_t total = (STREAM_HEADER_WORDS + w->n) * 4;
  uint8_t *b = malloc(total);
  if (!b) return fail(w->msg, STREAM_ERR_NOMEM, "out of memory");
  uint64_t fp = arch_config_fingerprint(&w->cfg);
  le_put(b + 4 * STREAM_H_MAGIC, STREAM_MAGIC);
  le_put(b + 4 * STREAM_H_VERSION, STREAM_VERSION);
  le_put(b + 4 * STREAM_H_FP_LO, (uint32_t)fp);
  le_put(b + 4 * STREAM_H_FP_HI, (uint32_t)(fp >> 32));
  le_put(b + 4 * STREAM_H_LENGTH, (uint32_t)w->n);
  le_put(b + 4 * STREAM_H_CRC, words_crc(w->words, w->n));
  for (size_t i = 0; i < w->n; i++)
    le_put(b + 4 * (STREAM_HEADER_WORDS + i), w->words[i]);
  *buf = b;
  *len = total;
  return STREAM_OK;
}

int stream_writer_save(stream_writer *w, const char *path) {
  uint8_t *buf;
  size_t len;
  int rc = stream_writer_finish(w, &buf, &len);
  if (rc) return rc;
  size_t plen = strlen(path);
  char *tmp = malloc(plen + 32);
  if (!tmp) {
    free(buf);
    return fail(w->msg, STREAM_ERR_NOMEM, "out of memory");
  }
  snprintf(tmp, plen + 32, "%s.tmp%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  int ok = f && fwrite(buf, 1, len, f) == len;
  if (f && fclose(f) != 0) ok = 0;
  if (ok && rename(tmp, path) != 0) ok = 0;
  if (!ok) {
    remove(tmp);
    rc = fail(w->msg, STREAM_ERR_IO, "%s: cannot write the stream", path);
  }
  free(tmp);
  free(buf);
  return rc;
}

void stream_writer_free(stream_writer *w) {
  free(w->words);
  w->words = NULL;
  w->n = w->cap = 0;
}

/* ---- reader ---------------------------------------------------------------- */

int stream_reader_open(stream_reader *r, const uint8_t *buf, size_t len,
                       const arch_config *cfg) {
  memset(r, 0, sizeof *r);
  r->cfg = *cfg;
  if (len < STREAM_HEADER_WORDS * 4 || len % 4)
    return fail(r->msg, STREAM_ERR_SHORT, "stream of %zu bytes: not a whole "
                "number of words, or shorter than the %d-byte header", len,
                STREAM_HEADER_WORDS * 4);
  uint32_t h[STREAM_HEADER_WORDS];
  for (int i = 0; i < STREAM_HEADER_WORDS; i++) h[i] = le_get(buf + 4 * i);
  if (h[STREAM_H_MAGIC] != STREAM_MAGIC)
    return fail(r->msg, STREAM_ERR_MAGIC, "byte 0: magic 0x%08x, expected "
                "0x%08x (\"TCPA\"): not a configuration stream",
                h[STREAM_H_MAGIC], STREAM_MAGIC);
  if (h[STREAM_H_VERSION] != STREAM_VERSION)
    return fail(r->msg, STREAM_ERR_VERSION, "byte 4: stream version %u, this "
                "reader reads version %u", h[STREAM_H_VERSION], STREAM_VERSION);
  uint64_t fp = (uint64_t)h[STREAM_H_FP_HI] << 32 | h[STREAM_H_FP_LO];
  uint64_t want = arch_config_fingerprint(cfg);
  if (fp != want)
    return fail(r->msg, STREAM_ERR_FINGERPRINT, "byte 8: stream made for "
                "architecture 0x%016llx, this one is 0x%016llx",
                (unsigned long long)fp, (unsigned long long)want);
  size_t have = len / 4 - STREAM_HEADER_WORDS;
  if (h[STREAM_H_LENGTH] != have)
    return fail(r->msg, STREAM_ERR_LENGTH, "byte 16: header says %u payload "
                "words, the stream holds %zu", h[STREAM_H_LENGTH], have);
  r->words = malloc((have ? have : 1) * sizeof *r->words);
  r->sels = malloc((have ? have : 1) * STREAM_WRAPPER_SELS * sizeof *r->sels);
  if (!r->words || !r->sels) {
    stream_reader_close(r);
    return fail(r->msg, STREAM_ERR_NOMEM, "out of memory");
  }
  r->n = have;
  for (size_t i = 0; i < have; i++)
    r->words[i] = le_get(buf + 4 * (STREAM_HEADER_WORDS + i));
  uint32_t crc = words_crc(r->words, have);
  if (crc != h[STREAM_H_CRC]) {
    stream_reader_close(r);
    return fail(r->msg, STREAM_ERR_CRC, "byte 20: payload CRC-32 0x%08x, "
                "header says 0x%08x: the stream is corrupted", crc,
                h[STREAM_H_CRC]);
  }
  return STREAM_OK;
}

int stream_reader_next(stream_reader *r, stream_packet *p) {
  memset(p, 0, sizeof *p);
  if (r->pos == r->n) {
    if (!r->started)
      return fail(r->msg, STREAM_ERR_ORDER, "byte %zu: the stream ends "
                  "without a START packet", (STREAM_HEADER_WORDS + r->n) * 4);
    return 0;
  }
  size_t at = (STREAM_HEADER_WORDS + r->pos) * 4;
  if (r->n - r->pos < STREAM_PACKET_WORDS)
    return fail(r->msg, STREAM_ERR_TRUNCATED, "byte %zu: packet header "
                "runs past the end of the payload", at);
  const uint32_t *h = r->words + r->pos;
  if (h[0] >> 18)
    return fail(r->msg, STREAM_ERR_TYPE, "byte %zu: packet %d: reserved "
                "bits set in 0x%08x", at, r->npackets, h[0]);
  p->type = (stream_packet_type)(h[0] & 0xff);
  p->index = (int)(h[0] >> 8 & 0xff);
  p->side = (int)(h[0] >> 16 & 3);
  p->rect = (stream_rect){(int)(h[1] & 0xffff), (int)(h[1] >> 16),
                          (int)(h[2] & 0xffff), (int)(h[2] >> 16)};
  p->nwords = h[3];
  p->offset = at;
  if (p->nwords > r->n - r->pos - STREAM_PACKET_WORDS)
    return fail(r->msg, STREAM_ERR_TRUNCATED, "byte %zu: packet %d has %u "
                "payload words, only %zu remain", at, r->npackets, p->nwords,
                r->n - r->pos - STREAM_PACKET_WORDS);
  p->payload = h + STREAM_PACKET_WORDS;
  uint32_t raw = p->nwords;
  char why[256];
  int rc = STREAM_OK;
  if (p->type == STREAM_PKT_WRAPPER) {
    uint32_t *sel = r->sels + (size_t)STREAM_WRAPPER_SELS * r->pos;
    rc = wrapper_unpack(p->payload, raw, &r->cfg, sel, &p->nwords, why);
    p->payload = sel;
  }
  if (!rc) rc = packet_check(p, &r->cfg, r->started, why);
  if (rc)
    return fail(r->msg, rc, "byte %zu: packet %d (type %d): %.200s", at,
                r->npackets, (int)p->type, why);
  r->pos += STREAM_PACKET_WORDS + raw;
  r->npackets++;
  if (p->type == STREAM_PKT_START) r->started = 1;
  return 1;
}

void stream_reader_close(stream_reader *r) {
  free(r->words);
  free(r->sels);
  r->words = NULL;
  r->sels = NULL;
  r->n = r->pos = 0;
}

int stream_file_load(const char *path, uint8_t **buf, size_t *len) {
  *buf = NULL;
  *len = 0;
  char *text = fileio_read_all(path, len);
  if (!text) return errno == ENOMEM ? STREAM_ERR_NOMEM : STREAM_ERR_IO;
  *buf = (uint8_t *)text;
  return STREAM_OK;
}
