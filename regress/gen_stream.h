/*
 * gen_stream.h: random valid configuration streams (docs/fuzz.md "Random
 * streams on both engines"), for constrained-random verification of the C
 * model against the RTL, `tcpa gen stream` and the model's own fuzz test
 * (tests/unit/test_model_fuzz.c).
 *
 * From a seed (common/rng.h) and any architecture configuration, the
 * generator draws a stream packet by packet that is valid by construction
 * (docs/stream.md): programs of every opcode of each FU's class drawn from
 * the ISA's own table (isa_op_get), every branch form (next, goto, br on
 * one or two conditions from control signals or FU flags, halt), every
 * register class (rd, fd, id, od, imm), fd depths, wrapper routes from and
 * to every side, AGs in every mode with enable constraints, GC terms,
 * start delays, bank data and a random started region of a random global
 * controller. Every packet is checked with isa_insn_check and by the
 * stream writer (common/stream.h), so the stream reader, the C model and
 * the RTL loader accept it. What it runs into (a timeout, faults such as
 * underflow or agrange) is documented behaviour both engines share.
 *
 * A stream is kept as a list of packets (gen_stream) rather than bytes so
 * that the shrinker (regress/stream_fuzz.h) can drop packets, instructions
 * and terms and write the smaller stream again.
 */
#ifndef TCPA_GEN_STREAM_H
#define TCPA_GEN_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "stream.h"

/* One packet: the arguments of stream_writer_packet, payload owned.
 * WRAPPER payloads hold one select per sink (unpacked). */
typedef struct {
  stream_packet_type type;
  int index, side;
  stream_rect rect;
  uint32_t *payload;
  uint32_t nwords;
} gen_packet;

/* A generated stream: its architecture, seed and packets (START last). */
typedef struct {
  arch_config cfg;
  uint64_t seed;
  gen_packet *pkt;
  int n, cap;
} gen_stream;

/* Returns 0 and fills *s (to be freed with gen_stream_free) with the
 * random valid stream of `seed` for cfg; -1 with msg when cfg exceeds the
 * encoding (isa_arch_check) or memory runs out. The same seed and
 * configuration give the same packets on every platform. */
int gen_stream_make(const arch_config *cfg, uint64_t seed, gen_stream *s, char *msg,
                    size_t msgsz);

/* Returns 0 and the stream's bytes (malloc'ed) in *buf, *len through the
 * stream writer; -1 with the writer's reason in msg when a packet is
 * refused (never for a stream of gen_stream_make; possible for a shrunk
 * one). */
int gen_stream_bytes(const gen_stream *s, uint8_t **buf, size_t *len, char *msg, size_t msgsz);

/* Returns 0 after writing the stream to path (temporary file renamed into
 * place); -1 with msg. */
int gen_stream_save(const gen_stream *s, const char *path, char *msg, size_t msgsz);

/* Returns 0 and a deep copy of src in *dst; -1 when memory runs out. */
int gen_stream_copy(gen_stream *dst, const gen_stream *src);

/* Returns 0 after removing packet k (its payload freed); -1 when k is out
 * of range. */
int gen_stream_drop(gen_stream *s, int k);

/* Frees what *s owns. */
void gen_stream_free(gen_stream *s);

#endif
