/*
 * regress_suite.h: suite files of `tcpa regress` (docs/regress.md, format
 * in section "Suite files"): a suite is a text file of `suite`, `set` and
 * `run` lines; each `run` line expands over its lists (architectures,
 * engines, regions, parameter values, seeds) into runs, in a fixed order,
 * so that the same file always gives the same runs with the same seeds.
 * Sharding keeps every N-th run.
 */
#ifndef TCPA_REGRESS_SUITE_H
#define TCPA_REGRESS_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include "regress.h"

/* What the command line imposes on every run of a suite (NULL / 0: the
 * suite's own). */
typedef struct {
  const char *arch;   /* --arch: every run on this architecture */
  const char *engine; /* --engine */
  const char *pes;    /* a `pes=` value replacing the suite's (e.g. "1d") */
  uint64_t seed_base; /* --seed-base: mixed into `seeds=random:K` */
  const char *seeds;  /* --seeds: decimal seeds "S1,S2,..." replacing every
                         run line's `seeds=` (NULL: the suite's) */
  const char *scale;  /* --scale: only the run lines of this `scale=`
                         ("small" or "real"; NULL: all) */
} regress_suite_opts;

/* Returns 0 after appending the runs of the suite file `path` to l (run
 * ids unique within l); -1 after printing every error as
 * FILE:LINE:COL: error: ... */
int regress_suite_load(const char *path, const regress_suite_opts *o, regress_list *l);

/* Returns 0 after writing the source tree of the running tcpa (its binary
 * is BUILD/bin/tcpa; the tree, BUILD's parent, holds regress/programs,
 * configs/ and rtl/) into root and, when not NULL, BUILD into build (size
 * bytes each); -1 when the binary does not sit in such a tree. */
int regress_suite_tree(char *root, char *build, size_t size);

/* Returns 0 and sets *k, *n from "K/N" (1 <= K <= N <= 100000); -1. */
int regress_suite_shard_parse(const char *s, int *k, int *n);

/* Keeps the runs of shard k of n: those at positions p (0-based, in suite
 * order) with p % n == k - 1; frees the others. */
void regress_suite_shard(regress_list *l, int k, int n);

/* Returns the seed number k of `seeds=random:K` for a run whose key (its
 * id without the seed) is `key`: a 31-bit value derived from the key, k
 * and base, the same on every machine. */
uint64_t regress_suite_seed(const char *key, int k, uint64_t base);

#endif
