/*
 * rng.h: a small seeded pseudo-random generator (splitmix64) for the random
 * input arrays of `tcpa run`. The same seed gives the same sequence on every
 * platform: the generator uses only 64-bit unsigned arithmetic.
 */
#ifndef TCPA_RNG_H
#define TCPA_RNG_H

#include <stdint.h>

typedef struct {
  uint64_t state;
} rng_state;

/* Returns a generator seeded with `seed` (any value, 0 included). */
rng_state rng_state_seed(uint64_t seed);

/* Returns a generator for one named stream of a seed: the stream of each
 * name is independent of the others, so that giving one input array from a
 * file does not change the random values of the others. */
rng_state rng_state_seed_named(uint64_t seed, const char *name);

/* Returns the next 64 random bits and advances the generator. */
uint64_t rng_state_next(rng_state *r);

/* Returns a value uniform over [lo, hi] (lo <= hi), by the multiply-shift
 * reduction of the high 32 bits (bias below 2^-32 per value). */
int32_t rng_state_range(rng_state *r, int32_t lo, int32_t hi);

#endif
