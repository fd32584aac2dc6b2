/*
 * trace_digest.h: the digest of a cycle's trace events (docs/trace.md
 * "Digest stream"), computed the same way by the cosim driver from the C
 * model's events (tb/engine_cosim.c) and by the RTL harness from its own
 * (tb/rtl_main.cpp), so that a cycle in which both sides' events agree is
 * checked by comparing 16 bytes instead of every event.
 *
 * An event is taken as its binary record (docs/trace.md "Binary event
 * stream": the 120 bytes of trace_event), less its cycle: the 8-byte words
 * 1..7 of the record (kind to num and word[0]), and for the four kinds
 * with fields past those (insn: word[1..3]; fault: its kind and detail;
 * done and rdone: its cycles) words 8..14 as well, with the bytes of a fault's
 * detail after its NUL taken as zero (the checker compares the detail as
 * a string). The words past 7 of other kinds are fields not of their
 * kind, which the checker does not compare either. Each word is
 * multiplied by its own odd constant and the products summed with a
 * constant (no chain of dependent multiplies: they run side by side),
 * then the sum is finalised by MurmurHash3's 64-bit mix. A cycle's digest
 * is the number of its events and the sum of their hashes (mod 2^64):
 * independent of the order in which the events were collected, as the
 * checker compares the two sides' events as sets in canonical order.
 * Plain C, also compiled as C++ by the harness: static inline, no C-only
 * constructs.
 */
#ifndef TCPA_TRACE_DIGEST_H
#define TCPA_TRACE_DIGEST_H

#include <stdint.h>
#include <string.h>

#define TRACE_DIGEST_MAGIC "tcpa-dg\n" /* a digest stream's header magic, 8 bytes */
#define TRACE_DIGEST_KIND 256          /* the kind of a digest record */
#define TRACE_DIGEST_RECORD 120 /* bytes of the record hashed (TRACE_BIN_RECORD) */
#define TRACE_DIGEST_KIND_INSN 5   /* TRACE_INSN: its word[1..3] are hashed */
#define TRACE_DIGEST_KIND_FAULT 18 /* TRACE_FAULT: its detail is normalised */
#define TRACE_DIGEST_KIND_DONE 20  /* TRACE_DONE: its cycles are hashed */
#define TRACE_DIGEST_KIND_RDONE 22 /* TRACE_RDONE: its cycles are hashed */
#define TRACE_DIGEST_DETAIL 80     /* offset of the fault detail in the record */
#define TRACE_DIGEST_DETAIL_MAX 32 /* its bytes, NUL included */

/* The digest of one cycle: its events and the sum of their hashes. */
typedef struct {
  uint64_t count;
  uint64_t sum;
} trace_digest;

/* Returns the 8-byte word i of record p (its bytes 8i..8i+7). */
static inline uint64_t trace_digest_word(const unsigned char *p, int i) {
  uint64_t w;
  memcpy(&w, p + 8 * i, 8);
  return w;
}

/* Returns the sum of the products of words 8..14 of the record of a
 * kind with fields past word 7 (insn, fault, done, rdone) with their constants,
 * a fault's detail taken up to its NUL. */
static inline uint64_t trace_digest_tail(const unsigned char *p, uint32_t kind) {
  static const uint64_t mul[7] = {0x589965cc75374cc3ull, 0x1d8e4e27c47d124full, 0xc2b2ae3d27d4eb4full,
                                  0x165667b19e3779f9ull, 0x27d4eb2f165667c5ull, 0xff51afd7ed558ccdull,
                                  0xc4ceb9fe1a85ec53ull};
  uint64_t w[7];
  memcpy(w, p + 8 * 8, sizeof w);
  if (kind == TRACE_DIGEST_KIND_FAULT) { /* the detail up to its NUL */
    unsigned char *d = (unsigned char *)w + (TRACE_DIGEST_DETAIL - 8 * 8);
    size_t n = strnlen((const char *)d, TRACE_DIGEST_DETAIL_MAX);
    memset(d + n, 0, TRACE_DIGEST_DETAIL_MAX - n);
  }
  uint64_t h = 0;
  for (int i = 0; i < 7; i++) h += w[i] * mul[i];
  return h;
}

/* Returns the hash of one event given as its 120-byte record rec (the
 * cycle, bytes 0..7, not included). Words 1..7 are written out one by
 * one: every event pays for them, and a loop over a table of constants
 * took 74 instructions an event where this takes 44. */
static inline uint64_t trace_digest_event(const void *rec) {
  const unsigned char *p = (const unsigned char *)rec;
  uint64_t w1 = trace_digest_word(p, 1);
  uint32_t kind = (uint32_t)w1;
  uint64_t h = 0x243f6a8885a308d3ull + w1 * 0x9e3779b97f4a7c15ull + trace_digest_word(p, 2) * 0xbf58476d1ce4e5b9ull +
               trace_digest_word(p, 3) * 0x94d049bb133111ebull + trace_digest_word(p, 4) * 0xd6e8feb86659fd93ull +
               trace_digest_word(p, 5) * 0xa0761d6478bd642full + trace_digest_word(p, 6) * 0xe7037ed1a0b428dbull +
               trace_digest_word(p, 7) * 0x8ebc6af09c88c6e3ull;
  if (kind == TRACE_DIGEST_KIND_INSN || kind == TRACE_DIGEST_KIND_FAULT || kind == TRACE_DIGEST_KIND_DONE ||
      kind == TRACE_DIGEST_KIND_RDONE)
    h += trace_digest_tail(p, kind);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

/* Adds the event of record rec to the digest d. */
static inline void trace_digest_add(trace_digest *d, const void *rec) {
  d->count++;
  d->sum += trace_digest_event(rec);
}

#endif
