/*
 * stream.h: the concrete configuration stream (docs/stream.md), the only
 * thing that passes from the instantiator to the machines (C model, RTL).
 *
 * A stream is a sequence of 32-bit little-endian words: a header (magic,
 * version, the fingerprint of the architecture configuration it was made
 * for, the payload length in words, the CRC-32 of the payload bytes), then
 * the payload: packets. A packet names its type, a unit index (FU, global
 * controller or bank), a border side, a rectangle of PEs it applies to (so
 * one program is written once per processor class, not once per PE), and
 * its own payload words. The RTL loader takes one word per cycle.
 *
 * The writer builds a stream packet by packet and checks every packet with
 * the same validator the reader uses, so it cannot write a stream the
 * reader rejects. The reader checks the header (each fault with its own
 * error code and message) and then hands out packets one by one, each
 * checked against the architecture configuration.
 */
#ifndef TCPA_STREAM_H
#define TCPA_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "isa.h"

#define STREAM_MAGIC 0x41504354u /* bytes 'T' 'C' 'P' 'A' in file order */
#define STREAM_VERSION 3u /* 2: WRAPPER selects packed four to a word; 3: GC term PE ranges */
#define STREAM_HEADER_WORDS 6
#define STREAM_PACKET_WORDS 4 /* packet header */
#define STREAM_GCS 4          /* global controllers: one per corner */
#define STREAM_SIDES 4
/* A WRAPPER payload word holds the source selects of four sinks, one byte
 * each: sink s in bits 8*(s%4) .. 8*(s%4)+7 of word s/4 (docs/stream.md). */
#define STREAM_WRAPPER_SEL_BITS 8
#define STREAM_WRAPPER_SELS (32 / STREAM_WRAPPER_SEL_BITS)

/* Header word indices. */
enum {
  STREAM_H_MAGIC, STREAM_H_VERSION, STREAM_H_FP_LO, STREAM_H_FP_HI,
  STREAM_H_LENGTH, STREAM_H_CRC
};

typedef enum {
  STREAM_PKT_PROGRAM = 1, /* one FU's program memory (index: FU) */
  STREAM_PKT_REGCFG = 2,  /* register-file configuration: fd depths */
  STREAM_PKT_WRAPPER = 3, /* interconnect wrapper: source of each sink */
  STREAM_PKT_GC = 4,      /* global controller (index: GC): loop, signals */
  STREAM_PKT_AG = 5,      /* address generator of bank `index` on `side` */
  STREAM_PKT_IODATA = 6,  /* initial contents of bank `index` on `side` */
  STREAM_PKT_START = 7    /* start GC `index` on the region; last packet */
} stream_packet_type;

typedef enum {
  STREAM_SIDE_NORTH, STREAM_SIDE_EAST, STREAM_SIDE_SOUTH, STREAM_SIDE_WEST
} stream_side;

/* AG modes (payload word 0 of an AG packet). */
typedef enum { STREAM_AG_OFF, STREAM_AG_READ, STREAM_AG_WRITE } stream_ag_mode;

/* Constraint kinds in GC terms and AG enables. */
typedef enum { STREAM_CONS_GE = 0, STREAM_CONS_EQ = 1 } stream_cons_kind;

typedef struct {
  int row0, col0, rows, cols;
} stream_rect;

typedef struct {
  stream_packet_type type;
  int index;             /* FU, GC or bank; 0 for the others */
  int side;              /* stream_side for AG and IODATA; else 0 */
  stream_rect rect;
  uint32_t nwords;
  const uint32_t *payload; /* host order; owned by the reader or caller;
                            * WRAPPER: one select per sink, unpacked (the
                            * writer packs, the reader unpacks) */
  size_t offset;         /* byte offset of the packet in the stream */
} stream_packet;

typedef enum {
  STREAM_OK = 0,
  STREAM_ERR_SHORT = -1,       /* shorter than a header, or not whole words */
  STREAM_ERR_MAGIC = -2,       /* not a configuration stream */
  STREAM_ERR_VERSION = -3,     /* made by another version of the format */
  STREAM_ERR_FINGERPRINT = -4, /* made for another architecture */
  STREAM_ERR_LENGTH = -5,      /* payload length disagrees with the size */
  STREAM_ERR_CRC = -6,         /* payload corrupted */
  STREAM_ERR_TRUNCATED = -7,   /* a packet runs past the payload */
  STREAM_ERR_TYPE = -8,        /* unknown packet type or reserved bits */
  STREAM_ERR_RECT = -9,        /* rectangle outside the array or border */
  STREAM_ERR_PAYLOAD = -10,    /* payload malformed or exceeds the arch */
  STREAM_ERR_ORDER = -11,      /* packet after START, or no START */
  STREAM_ERR_IO = -12,         /* file cannot be read or written */
  STREAM_ERR_NOMEM = -13,
  STREAM_ERR_BUSY = -14        /* loads or starts a running region (a run of
                                * several streams, docs/timing.md 11) */
} stream_error;

/* Returns a short fixed description of an error code. */
const char *stream_error_name(int code);

/* ---- writer -------------------------------------------------------------- */
typedef struct {
  arch_config cfg;
  uint32_t *words; /* payload so far, host order */
  size_t n, cap;
  int started;     /* a START packet was written */
  char msg[256];   /* why the last call failed */
} stream_writer;

/* Starts an empty stream for architecture cfg. */
void stream_writer_init(stream_writer *w, const arch_config *cfg);

/* Returns STREAM_OK after appending a packet; else an error code, the
 * reason in w->msg, and the stream unchanged. */
int stream_writer_packet(stream_writer *w, stream_packet_type type, int index,
                         int side, stream_rect rect, const uint32_t *payload,
                         uint32_t nwords);

/* Returns what stream_writer_packet returns, for a PROGRAM packet holding
 * the n instructions of FU `fu` (loaded at pc 0..n-1). */
int stream_writer_program(stream_writer *w, stream_rect rect, int fu,
                          const isa_word *prog, int n);

/* Returns STREAM_OK and a malloc'ed byte image (header + payload,
 * little-endian) in *buf, *len; STREAM_ERR_ORDER when no START was
 * written. */
int stream_writer_finish(stream_writer *w, uint8_t **buf, size_t *len);

/* Returns STREAM_OK after writing the stream to `path` through a temporary
 * file renamed into place (never half a file). */
int stream_writer_save(stream_writer *w, const char *path);

/* Frees the writer's memory. */
void stream_writer_free(stream_writer *w);

/* ---- reader -------------------------------------------------------------- */
typedef struct {
  arch_config cfg;
  uint32_t *words; /* payload, host order */
  uint32_t *sels;  /* WRAPPER selects unpacked: packet at pos uses sels + 4*pos */
  size_t n, pos;
  int started;
  int npackets;
  char msg[256];   /* the last error, with the byte offset */
} stream_reader;

/* Returns STREAM_OK when buf[0..len) is a stream for cfg whose header and
 * CRC check out; else the first failing check's code, the reason in
 * r->msg. The reader copies what it needs; buf may be freed after.
 * stream_reader_close is safe (and needed after success) in every case. */
int stream_reader_open(stream_reader *r, const uint8_t *buf, size_t len,
                       const arch_config *cfg);

/* Returns 1 and the next packet (checked against the architecture) in *p,
 * 0 at the end (after START), or an error code with the reason in r->msg.
 * p->payload stays valid until stream_reader_close. */
int stream_reader_next(stream_reader *r, stream_packet *p);

/* Frees the reader's memory. */
void stream_reader_close(stream_reader *r);

/* Returns STREAM_OK and the malloc'ed contents of a file in *buf, *len. */
int stream_file_load(const char *path, uint8_t **buf, size_t *len);

/* ---- payload layouts: offsets shared by writer, reader and the engines ---
 * GC payload: ii, ndims, bound[ndims], epilog, delay0, delay_row,
 * delay_col, nterms, then per term: signal, ncons, ncons constraints; a
 * constraint is kind, coef[ndims], konst (all int32). AG payload: mode,
 * ndims, phase, base, row_coef, col_coef, stride[ndims], ncons,
 * constraints. IODATA payload: start address, words. See docs/stream.md. */
#define STREAM_GC_MAX_TERMS(cfg) (2 * (cfg)->gc_signals)

/* A GC term's signal word (docs/stream.md "GC payload"): the signal in bits
 * 0..7, the PE range in four 6-bit fields: row_lo, row_skip, col_lo,
 * col_skip (the term applies to rows ROW0 + row_lo .. ROW0 + ROWS - 1 -
 * row_skip and the same for the columns; all 0: every PE). */
#define STREAM_TERM_SIGNAL(w) ((w) & 0xFFu)
#define STREAM_TERM_FIELD(w, f) (((w) >> (8 + 6 * (f))) & 63u) /* f: 0 row_lo .. 3 col_skip */
#define STREAM_TERM_RANGE_MAX 63
#define STREAM_TERM_WORD(sig, rlo, rskip, clo, cskip)                                               \
  ((uint32_t)(sig) | (uint32_t)(rlo) << 8 | (uint32_t)(rskip) << 14 | (uint32_t)(clo) << 20 |        \
   (uint32_t)(cskip) << 26)
/* Most steps S = prod(bounds) + epilog of one GC packet: the step counters
 * of the PEs, AGs and the RTL loader are 32 bits (docs/timing.md section 2). */
#define STREAM_GC_MAX_STEPS 0xFFFFFFFFull
#define STREAM_MAX_CONS(cfg) (2 * (cfg)->gc_dims)

#endif
