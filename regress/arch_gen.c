/*
 * arch_gen.c: random valid architecture configurations (arch_gen.h,
 * docs/rtl.md section "Every valid configuration").
 *
 * A table lists every key of the [pe], [latency], [interconnect], [gc] and
 * [iobuf] sections with its range (docs/arch.md; the unit test
 * tests/unit/test_arch_gen.c loads every generated configuration through
 * arch.c, so a range that drifts from arch.c's fails there). Each key is
 * drawn half of the time from its edge values (min, max, 1, the powers of
 * two in range) and otherwise uniformly. The array shape is drawn apart:
 * a quarter 1x1, a quarter a single row or column, the rest any shape with
 * rows * cols <= max_pes.
 */
#include "arch_gen.h"

#include <stddef.h>

#include "rng.h"

typedef struct {
  size_t offset; /* of the int field in arch_config */
  int min, max;
  int pow2;      /* only powers of two are valid */
} arch_gen_key;

#define ARCH_GEN_F(f) offsetof(arch_config, f)

static const arch_gen_key arch_gen_keys[] = {
    {ARCH_GEN_F(alu), 1, 8, 0},          {ARCH_GEN_F(mul), 0, 8, 0},
    {ARCH_GEN_F(div), 0, 8, 0},          {ARCH_GEN_F(rd), 0, 32, 0},
    {ARCH_GEN_F(fd), 0, 32, 0},          {ARCH_GEN_F(fd_depth), 1, 1024, 0},
    {ARCH_GEN_F(id), 0, 32, 0},          {ARCH_GEN_F(od), 0, 8, 0},
    {ARCH_GEN_F(fifo_depth), 1, 1024, 0}, {ARCH_GEN_F(imem), 1, 256, 0},
    {ARCH_GEN_F(branch_targets), 2, 4, 1}, {ARCH_GEN_F(lat_alu), 1, 64, 0},
    {ARCH_GEN_F(lat_mul), 1, 64, 0},     {ARCH_GEN_F(lat_div), 1, 64, 0},
    {ARCH_GEN_F(ports), 1, 16, 0},       {ARCH_GEN_F(gc_signals), 1, 32, 0},
    {ARCH_GEN_F(gc_dims), 1, 8, 0},      {ARCH_GEN_F(gc_history), 2, 512, 0},
    {ARCH_GEN_F(banks), 1, 16, 0},       {ARCH_GEN_F(bank_depth), 1, 1 << 20, 0},
};

/* Returns one of the edge values of [min, max]: min, max, 1 when in range,
 * or a power of two in range, each about equally often. */
static int arch_gen_edge(rng_state *r, int min, int max) {
  int pick = rng_state_range(r, 0, 3);
  if (pick == 0) return min;
  if (pick == 1) return max;
  if (pick == 2 && min <= 1 && 1 <= max) return 1;
  int lo = 0, hi = 0; /* exponents of the powers of two in range */
  while ((1 << lo) < min) lo++;
  for (hi = lo; hi < 30 && (2 << hi) <= max; hi++) {}
  if ((1 << lo) > max) return min;
  return 1 << rng_state_range(r, lo, hi);
}

/* Returns a value of key k: an edge value or a uniform one, a power of two
 * where the key demands one. */
static int arch_gen_value(rng_state *r, const arch_gen_key *k) {
  if (k->pow2) {
    int v = arch_gen_edge(r, k->min, k->max);
    while (v & (v - 1)) v &= v - 1; /* only an in-range min can be non-pow2 */
    return v < k->min ? k->min : v;
  }
  if (rng_state_range(r, 0, 1)) return arch_gen_edge(r, k->min, k->max);
  return rng_state_range(r, k->min, k->max);
}

/* Fills rows and cols of *cfg with a shape of at most max_pes PEs (and at
 * most 64 a side); returns nothing. */
static void arch_gen_shape(rng_state *r, int max_pes, arch_config *cfg) {
  int side = max_pes < 64 ? max_pes : 64;
  int kind = rng_state_range(r, 0, 3);
  if (kind == 0) {
    cfg->rows = cfg->cols = 1;
  } else if (kind == 1) {
    int n = rng_state_range(r, 0, 1) ? side : rng_state_range(r, 1, side);
    int row = rng_state_range(r, 0, 1);
    cfg->rows = row ? 1 : n;
    cfg->cols = row ? n : 1;
  } else {
    cfg->rows = rng_state_range(r, 1, side);
    int cmax = max_pes / cfg->rows;
    if (cmax > 64) cmax = 64;
    cfg->cols = rng_state_range(r, 1, cmax);
  }
}

int arch_gen_config(uint64_t seed, int max_pes, arch_config *cfg) {
  if (max_pes < 1) return -1;
  rng_state r = rng_state_seed_named(seed, "arch_gen");
  arch_config c = arch_config_default();
  arch_gen_shape(&r, max_pes, &c);
  for (size_t i = 0; i < sizeof arch_gen_keys / sizeof arch_gen_keys[0]; i++) {
    const arch_gen_key *k = &arch_gen_keys[i];
    *(int *)((char *)&c + k->offset) = arch_gen_value(&r, k);
  }
  *cfg = c;
  return 0;
}
