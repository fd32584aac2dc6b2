/*
 * stream_poke.h: `tcpa stream-poke` as a library (docs/stream.md): fault
 * injection into a configuration stream (one word's bits flipped, the CRC
 * recomputed) and the map of its payload words, for aiming a poke.
 */
#ifndef TCPA_STREAM_POKE_H
#define TCPA_STREAM_POKE_H

#include <stdint.h>

/* The request (`tcpa stream-poke --help`). */
typedef struct {
  const char *in, *out;
  long word;        /* -1: not given */
  uint32_t mask;
  int have_mask, fields;
} stream_poke_opts;

/* The outcomes of stream_poke_run: the exit statuses of `tcpa stream-poke`. */
enum { STREAM_POKE_OK = 0, STREAM_POKE_INPUT = 2 };

/* Returns STREAM_POKE_OK after printing the word map of o->in (o->fields)
 * or writing o->in with o->mask flipped in word o->word and a fresh CRC to
 * o->out; STREAM_POKE_INPUT after a message (unreadable, not a stream, a
 * header word, a word past the end, a packet past the end). */
int stream_poke_run(const stream_poke_opts *o);

#endif
