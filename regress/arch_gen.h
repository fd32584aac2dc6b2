/*
 * arch_gen.h: random valid architecture configurations (docs/rtl.md,
 * section "Every valid configuration"), for the lint sweep of the RTL
 * (tests/lint_sweep.sh) and `tcpa gen arch`.
 *
 * Every key of spec/arch.md (docs/arch.md) is drawn within its range, with
 * a bias to the edge values where RTL bugs hide: the minimum and maximum,
 * 1, 0 (no register of a class, no multiplier), powers of two. The array
 * shape is drawn with at most max_pes PEs so that a lint stays quick, with
 * 1x1, 1xN and Nx1 arrays often. The same seed gives the same
 * configuration on every platform (rng.h).
 */
#ifndef TCPA_ARCH_GEN_H
#define TCPA_ARCH_GEN_H

#include <stdint.h>

#include "arch.h"

/* Default bound on rows * cols of a generated configuration. */
#define ARCH_GEN_MAX_PES_DEFAULT 16

/* Returns 0 and fills *cfg with the configuration of `seed`, with
 * rows * cols <= max_pes; returns -1 (and leaves *cfg alone) when max_pes
 * is below 1. */
int arch_gen_config(uint64_t seed, int max_pes, arch_config *cfg);

#endif
