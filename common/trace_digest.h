/*
 * trace_digest.h: the digest of a cycle's trace events (docs/trace.md
 * "Digest stream"), computed the same way by the cosim driver from the C
 * model's events (tb/engine_cosim.c) and by the RTL harness from its own
 * (tb/rtl_main.cpp), so that a cycle in which both sides' events agree is
 * checked by comparing 16 bytes instead of every event.
 *
 * An event is taken as its binary record (docs/trace.md "Binary event
 * stream": the 120 bytes of trace_event), less its cycle: the 8-byte words
 * 1..7 of the record (kind to num and word[0]), and for the three kinds
 * with fields past those (insn: word[1..3]; fault: its kind and detail;
 * done: its cycles) words 8..14 as well, with the bytes of a fault's
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
#define TRACE_DIGEST_DETAIL 80     /* offset of the fault detail in the record */
#define TRACE_DIGEST_DETAIL_MAX 32 /* its bytes, NUL included */

/* The digest of one cycle: its events and the sum of their hashes. */
typedef struct {
  uint64_t count;
  uint64_t sum;
} trace_digest;

/* Returns the hash of one event given as its 120-byte record rec (the
 * cycle, bytes 0..7, not included). */
static inline uint64_t trace_digest_event(const void *rec) {
  static const uint64_t mul[15] = {
      0, 0x9e3779b97f4a7c15ull, 0xbf58476d1ce4e5b9ull, 0x94d049bb133111ebull, 0xd6e8feb86659fd93ull,
      0xa0761d6478bd642full, 0xe7037ed1a0b428dbull, 0x8ebc6af09c88c6e3ull, 0x589965cc75374cc3ull,
      0x1d8e4e27c47d124full, 0xc2b2ae3d27d4eb4full, 0x165667b19e3779f9ull, 0x27d4eb2f165667c5ull,
      0xff51afd7ed558ccdull, 0xc4ceb9fe1a85ec53ull};
  uint64_t w[15];
  memcpy(w, rec, 8 * 8);
  uint32_t kind = (uint32_t)w[1];
  uint64_t h = 0x243f6a8885a308d3ull;
  for (int i = 1; i < 8; i++) h += w[i] * mul[i];
  if (kind == TRACE_DIGEST_KIND_INSN || kind == TRACE_DIGEST_KIND_FAULT || kind == TRACE_DIGEST_KIND_DONE) {
    memcpy(w + 8, (const unsigned char *)rec + 8 * 8, 7 * 8);
    if (kind == TRACE_DIGEST_KIND_FAULT) { /* the detail up to its NUL */
      unsigned char *d = (unsigned char *)w + TRACE_DIGEST_DETAIL;
      size_t n = strnlen((const char *)d, TRACE_DIGEST_DETAIL_MAX);
      memset(d + n, 0, TRACE_DIGEST_DETAIL_MAX - n);
    }
    for (int i = 8; i < 15; i++) h += w[i] * mul[i];
  }
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
