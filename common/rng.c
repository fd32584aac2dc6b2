/*
 * rng.c: splitmix64 (Steele, Lea, Flood: "Fast splittable pseudorandom
 * number generators", 2014): a 64-bit counter advanced by the golden-ratio
 * increment and scrambled by two xor-shift-multiply rounds. Named streams
 * mix a 64-bit FNV-1a hash of the name into the seed.
 */
#include "rng.h"

rng_state rng_state_seed(uint64_t seed) {
  rng_state r = {seed};
  return r;
}

/* Returns the 64-bit FNV-1a hash of a string. */
static uint64_t rng_hash_string(const char *s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 0x100000001b3ull;
  }
  return h;
}

rng_state rng_state_seed_named(uint64_t seed, const char *name) {
  rng_state r = {seed};
  /* one step of the generator decorrelates neighbouring seeds first */
  uint64_t mixed = rng_state_next(&r);
  return rng_state_seed(mixed ^ rng_hash_string(name));
}

uint64_t rng_state_next(rng_state *r) {
  uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int32_t rng_state_range(rng_state *r, int32_t lo, int32_t hi) {
  uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1; /* 1 .. 2^32 */
  uint64_t x = rng_state_next(r) >> 32;                      /* 32 bits */
  uint64_t k = (x * span) >> 32;                             /* 0 .. span-1 */
  return (int32_t)(uint32_t)((uint64_t)(int64_t)lo + k);
}
