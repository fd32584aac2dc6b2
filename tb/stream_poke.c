/*
 * stream_poke.c: `tcpa stream-poke IN.bin --word N --xor MASK -o OUT.bin`
 * and `tcpa stream-poke IN.bin --fields` after the options are read
 * (stream_poke.h, cli_poke.c): fault injection into a configuration
 * stream (docs/stream.md), for showing that the lockstep checker finds a
 * corrupted configuration at its first effect.
 *
 * --xor flips the bits MASK of stream word N (N counts 32-bit words from the
 * start of the file, so the header is words 0..5 and is refused: the poke
 * is meant to change what the machine does, not to be rejected at the door)
 * and recomputes the header's CRC-32 over the payload, so the loader of
 * either machine accepts the word as if the instantiator had written it.
 * Nothing else is checked: the result may be a stream the validator rejects
 * (that is the loader's business). The output is written to a temporary
 * file renamed into place.
 *
 * --fields prints the map needed to aim a poke without magic numbers: one
 * line per payload word,
 *
 *   WORD PKT TYPE INDEX SIDE ROW0,COL0 ROWSxCOLS FIELD VALUE [NAME@LO:SIZE ...]
 *
 * with TYPE the packet type's name, SIDE `n e s w` or `-`, FIELD the word's
 * meaning (`hdr0`..`hdr3` for the packet header, `pcK.wI` for word I of the
 * instruction at pc K, the GC/AG/IODATA field names of stream.md such as
 * `ii`, `bound0`, `delay_col`, `stride0`, `term1.cons0.konst`, `data0`), VALUE the word in hex, and
 * for instruction words the bit fields inside the word (isa.h positions,
 * relative to the 32-bit word). The walk uses only the packet headers and
 * the length fields inside GC/AG payloads; it does not validate.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "diag.h"
#include "fileio.h"
#include "isa.h"
#include "stream.h"
#include "stream_poke.h"

/* Returns word i (little-endian) of buf. */
static uint32_t stream_poke_get(const uint8_t *buf, size_t i) {
  const uint8_t *b = buf + 4 * i;
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Stores v as word i (little-endian) of buf. */
static void stream_poke_put(uint8_t *buf, size_t i, uint32_t v) {
  for (int k = 0; k < 4; k++) buf[4 * i + k] = (uint8_t)(v >> (8 * k));
}

/* Returns 0 when buf[0..len) has a stream header with a consistent LENGTH,
 * else -1 after printing what is wrong. The number of words is in *nw. */
static int stream_poke_header(const char *path, const uint8_t *buf, size_t len, size_t *nw) {
  if (len < 4 * STREAM_HEADER_WORDS || len % 4) {
    diag_error_plain("%s: not a configuration stream: %zu bytes (at least 24, whole "
                     "32-bit words)", path, len);
    return -1;
  }
  if (stream_poke_get(buf, STREAM_H_MAGIC) != STREAM_MAGIC) {
    diag_error_plain("%s: byte 0: bad magic 0x%08" PRIx32 " (expected 0x%08x)", path,
                     stream_poke_get(buf, STREAM_H_MAGIC), STREAM_MAGIC);
    return -1;
  }
  *nw = len / 4;
  uint32_t length = stream_poke_get(buf, STREAM_H_LENGTH);
  if ((size_t)length != *nw - STREAM_HEADER_WORDS) {
    diag_error_plain("%s: byte 16: LENGTH %" PRIu32 " but the file holds %zu payload words",
                     path, length, *nw - STREAM_HEADER_WORDS);
    return -1;
  }
  return 0;
}

/* Returns the CRC-32 (zlib) of the payload of the stream buf of nw words. */
static uint32_t stream_poke_crc(const uint8_t *buf, size_t nw) {
  uLong crc = crc32(0L, Z_NULL, 0);
  const uint8_t *p = buf + 4 * STREAM_HEADER_WORDS;
  size_t left = 4 * (nw - STREAM_HEADER_WORDS);
  while (left) {
    uInt k = left > (1u << 30) ? (1u << 30) : (uInt)left;
    crc = crc32(crc, p, k);
    p += k;
    left -= k;
  }
  return (uint32_t)crc;
}

/* Returns 0 after writing len bytes of buf to path through a temporary file
 * renamed into place; -1 (nothing left behind) after printing why not. */
static int stream_poke_save(const char *path, const uint8_t *buf, size_t len) {
  size_t n = strlen(path) + 16;
  char *tmp = malloc(n);
  if (!tmp) {
    diag_error_plain("stream-poke: out of memory");
    return -1;
  }
  snprintf(tmp, n, "%s.tmp", path);
  FILE *f = fopen(tmp, "wb");
  int ok = f && fwrite(buf, 1, len, f) == len;
  if (f && fclose(f) != 0) ok = 0;
  if (ok && rename(tmp, path) != 0) ok = 0;
  if (!ok) {
    diag_error_plain("%s: cannot write: %s", path, strerror(errno));
    remove(tmp);
  }
  free(tmp);
  return ok ? 0 : -1;
}

/* ---- --fields ------------------------------------------------------------ */

typedef struct {
  const uint8_t *buf;
  size_t nw;        /* words in the file */
  size_t pos;       /* next word to describe */
  char ctx[96];     /* "PKT TYPE INDEX SIDE ROW0,COL0 ROWSxCOLS" */
} stream_poke_walk;

/* Returns the name of packet type t (or "type<t>"), in a static buffer. */
static const char *stream_poke_type_name(uint32_t t) {
  static const char *const names[] = {"?", "program", "regcfg", "wrapper",
                                      "gc", "ag", "iodata", "start"};
  static char other[16];
  if (t >= 1 && t <= 7) return names[t];
  snprintf(other, sizeof other, "type%" PRIu32, t);
  return other;
}

/* Prints the line of the walk's next word (FIELD name, optional bit fields)
 * and advances; returns the word, or 0 past the end of the file. */
static uint32_t stream_poke_emit(stream_poke_walk *w, const char *field, const char *bits) {
  if (w->pos >= w->nw) return 0;
  uint32_t v = stream_poke_get(w->buf, w->pos);
  printf("%zu %s %s 0x%08" PRIx32 "%s%s\n", w->pos, w->ctx, field, v, bits ? " " : "",
         bits ? bits : "");
  w->pos++;
  return v;
}

/* Prints a constraint list (kind, coef[ndims], konst) named by prefix;
 * returns nothing. */
static void stream_poke_cons(stream_poke_walk *w, const char *prefix, uint32_t ndims) {
  char name[64];
  snprintf(name, sizeof name, "%s.kind", prefix);
  stream_poke_emit(w, name, NULL);
  for (uint32_t d = 0; d < ndims && d < 64; d++) {
    snprintf(name, sizeof name, "%s.coef%" PRIu32, prefix, d);
    stream_poke_emit(w, name, NULL);
  }
  snprintf(name, sizeof name, "%s.konst", prefix);
  stream_poke_emit(w, name, NULL);
}

/* Prints the GC payload of stream.md, ending at `end`; returns nothing. */
static void stream_poke_gc(stream_poke_walk *w, size_t end) {
  static const char *const tail[] = {"epilog", "delay0", "delay_row", "delay_col"};
  char name[64];
  stream_poke_emit(w, "ii", NULL);
  uint32_t nd = stream_poke_emit(w, "ndims", NULL);
  for (uint32_t d = 0; d < nd && d < 64 && w->pos < end; d++) {
    snprintf(name, sizeof name, "bound%" PRIu32, d);
    stream_poke_emit(w, name, NULL);
  }
  for (int k = 0; k < 4 && w->pos < end; k++) stream_poke_emit(w, tail[k], NULL);
  uint32_t nt = w->pos < end ? stream_poke_emit(w, "nterms", NULL) : 0;
  for (uint32_t t = 0; t < nt && t < 64 && w->pos < end; t++) {
    snprintf(name, sizeof name, "term%" PRIu32 ".signal", t);
    stream_poke_emit(w, name, NULL);
    snprintf(name, sizeof name, "term%" PRIu32 ".ncons", t);
    uint32_t nc = stream_poke_emit(w, name, NULL);
    for (uint32_t c = 0; c < nc && c < 64 && w->pos < end; c++) {
      snprintf(name, sizeof name, "term%" PRIu32 ".cons%" PRIu32, t, c);
      stream_poke_cons(w, name, nd);
    }
  }
}

/* Prints the AG payload of stream.md, ending at `end`; returns nothing. */
static void stream_poke_ag(stream_poke_walk *w, size_t end) {
  static const char *const head[] = {"phase", "base", "row_coef", "col_coef"};
  char name[64];
  stream_poke_emit(w, "mode", NULL);
  uint32_t nd = stream_poke_emit(w, "ndims", NULL);
  for (int k = 0; k < 4 && w->pos < end; k++) stream_poke_emit(w, head[k], NULL);
  for (uint32_t d = 0; d < nd && d < 64 && w->pos < end; d++) {
    snprintf(name, sizeof name, "stride%" PRIu32, d);
    stream_poke_emit(w, name, NULL);
  }
  uint32_t nc = w->pos < end ? stream_poke_emit(w, "ncons", NULL) : 0;
  for (uint32_t c = 0; c < nc && c < 64 && w->pos < end; c++) {
    snprintf(name, sizeof name, "cons%" PRIu32, c);
    stream_poke_cons(w, name, nd);
  }
}

/* Prints the words of a PROGRAM payload with the isa.h bit fields of each
 * instruction word; returns nothing. */
static void stream_poke_program(stream_poke_walk *w, size_t end) {
  char bits[ISA_WORDS][160], name[32];
  snprintf(bits[0], sizeof bits[0], "op@%d:%d dst@%d:%d srca@%d:%d srcb@%d:%d",
           ISA_POS_OP, ISA_SIZE_OP, ISA_POS_DST, ISA_SIZE_DST, ISA_POS_SRCA,
           ISA_SIZE_SRC, ISA_POS_SRCB, ISA_SIZE_SRC);
  snprintf(bits[1], sizeof bits[1],
           "srcc@%d:%d odmask@%d:%d bkind@%d:%d bnsel@%d:%d bsel0@%d:%d bsel1@%d:%d",
           ISA_POS_SRCC - 32, ISA_SIZE_SRC, ISA_POS_ODMASK - 32, ISA_SIZE_ODMASK,
           ISA_POS_BKIND - 32, ISA_SIZE_BKIND, ISA_POS_BNSEL - 32, ISA_SIZE_BNSEL,
           ISA_POS_BSEL(0) - 32, ISA_SIZE_BSEL, ISA_POS_BSEL(1) - 32, ISA_SIZE_BSEL);
  snprintf(bits[2], sizeof bits[2], "imm@%d:%d", ISA_POS_IMM - 64, ISA_SIZE_IMM);
  snprintf(bits[3], sizeof bits[3], "bt0@%d:%d bt1@%d:%d bt2@%d:%d bt3@%d:%d",
           ISA_POS_BT(0) - 96, ISA_SIZE_BT, ISA_POS_BT(1) - 96, ISA_SIZE_BT,
           ISA_POS_BT(2) - 96, ISA_SIZE_BT, ISA_POS_BT(3) - 96, ISA_SIZE_BT);
  for (size_t k = 0; w->pos < end; k++) {
    snprintf(name, sizeof name, "pc%zu.w%zu", k / ISA_WORDS, k % ISA_WORDS);
    stream_poke_emit(w, name, bits[k % ISA_WORDS]);
  }
}

/* Prints the words of a WRAPPER payload, four sink selects each
 * (`sinks4-7`, with the byte of each sink); returns nothing. */
static void stream_poke_wrapper(stream_poke_walk *w, size_t end) {
  char name[32], bits[96];
  for (size_t s = 0; w->pos < end; s += STREAM_WRAPPER_SELS) {
    snprintf(name, sizeof name, "sinks%zu-%zu", s, s + STREAM_WRAPPER_SELS - 1);
    int at = 0;
    for (int b = 0; b < STREAM_WRAPPER_SELS; b++)
      at += snprintf(bits + at, sizeof bits - (size_t)at, "%ssink%zu@%d:%d", b ? " " : "", s + (size_t)b,
                     b * STREAM_WRAPPER_SEL_BITS, STREAM_WRAPPER_SEL_BITS);
    stream_poke_emit(w, name, bits);
  }
}

/* Prints the payload words of the packet whose type is t (ending at end)
 * by their meaning; returns nothing. */
static void stream_poke_payload(stream_poke_walk *w, uint32_t t, size_t end) {
  char name[32];
  if (t == STREAM_PKT_PROGRAM) stream_poke_program(w, end);
  else if (t == STREAM_PKT_WRAPPER) stream_poke_wrapper(w, end);
  else if (t == STREAM_PKT_GC) stream_poke_gc(w, end);
  else if (t == STREAM_PKT_AG) stream_poke_ag(w, end);
  for (size_t k = 0; w->pos < end; k++) {
    if (t == STREAM_PKT_REGCFG) snprintf(name, sizeof name, "fd%zu.depth", k);
    else if (t == STREAM_PKT_IODATA && k == 0) snprintf(name, sizeof name, "start");
    else if (t == STREAM_PKT_IODATA) snprintf(name, sizeof name, "data%zu", k - 1);
    else snprintf(name, sizeof name, "extra%zu", k);
    stream_poke_emit(w, name, NULL);
  }
}

/* Prints the word map of the stream buf of nw words; returns the exit
 * status (2 when a packet runs past the end). */
static int stream_poke_fields(const char *path, const uint8_t *buf, size_t nw) {
  stream_poke_walk w = {buf, nw, STREAM_HEADER_WORDS, ""};
  for (int pkt = 0; w.pos < nw; pkt++) {
    if (w.pos + STREAM_PACKET_WORDS > nw) {
      diag_error_plain("%s: byte %zu: packet %d header runs past the end", path,
                       4 * w.pos, pkt);
      return STREAM_POKE_INPUT;
    }
    uint32_t h0 = stream_poke_get(buf, w.pos), h1 = stream_poke_get(buf, w.pos + 1);
    uint32_t h2 = stream_poke_get(buf, w.pos + 2), nwords = stream_poke_get(buf, w.pos + 3);
    uint32_t t = h0 & 0xff, side = (h0 >> 16) & 3;
    int sided = t == STREAM_PKT_AG || t == STREAM_PKT_IODATA;
    snprintf(w.ctx, sizeof w.ctx, "%d %s %" PRIu32 " %c %" PRIu32 ",%" PRIu32 " %" PRIu32
             "x%" PRIu32, pkt, stream_poke_type_name(t), (h0 >> 8) & 0xff,
             sided ? "nesw"[side] : '-', h1 & 0xffff, h1 >> 16, h2 & 0xffff, h2 >> 16);
    for (int k = 0; k < STREAM_PACKET_WORDS; k++) {
      char name[8];
      snprintf(name, sizeof name, "hdr%d", k);
      stream_poke_emit(&w, name, NULL);
    }
    size_t end = w.pos + nwords;
    if (nwords > nw - w.pos) {
      diag_error_plain("%s: byte %zu: packet %d (%" PRIu32 " payload words) runs past the "
                       "end", path, 4 * (w.pos - STREAM_PACKET_WORDS), pkt, nwords);
      return STREAM_POKE_INPUT;
    }
    stream_poke_payload(&w, t, end);
    w.pos = end;
  }
  return STREAM_POKE_OK;
}

/* Returns the exit status after flipping o->mask in word o->word of the
 * stream buf (nw words) and writing it with a fresh CRC to o->out. */
static int stream_poke_xor(const stream_poke_opts *o, uint8_t *buf, size_t nw) {
  if (o->word < STREAM_HEADER_WORDS) {
    diag_error_plain("stream-poke: --word %ld is a header word (0..%d): corrupt a payload "
                     "word (%d..%zu)", o->word, STREAM_HEADER_WORDS - 1,
                     STREAM_HEADER_WORDS, nw - 1);
    return STREAM_POKE_INPUT;
  }
  if ((size_t)o->word >= nw) {
    diag_error_plain("stream-poke: --word %ld is past the end of %s (words %d..%zu)",
                     o->word, o->in, STREAM_HEADER_WORDS, nw - 1);
    return STREAM_POKE_INPUT;
  }
  stream_poke_put(buf, (size_t)o->word, stream_poke_get(buf, (size_t)o->word) ^ o->mask);
  stream_poke_put(buf, STREAM_H_CRC, stream_poke_crc(buf, nw));
  return stream_poke_save(o->out, buf, 4 * nw) ? STREAM_POKE_INPUT : STREAM_POKE_OK;
}

/* Returns the outcome of the request o (stream_poke.h). */
int stream_poke_run(const stream_poke_opts *o) {
  int rc;
  size_t len, nw;
  uint8_t *buf = (uint8_t *)fileio_read_all(o->in, &len);
  if (!buf) {
    diag_error_plain("%s: cannot read: %s", o->in, strerror(errno));
    return STREAM_POKE_INPUT;
  }
  if (stream_poke_header(o->in, buf, len, &nw)) rc = STREAM_POKE_INPUT;
  else if (o->fields) rc = stream_poke_fields(o->in, buf, nw);
  else rc = stream_poke_xor(o, buf, nw);
  free(buf);
  return rc;
}
