/*
 * profile.h: where a run's cycles went (docs/profile.md), computed from
 * its event trace (docs/trace.md), so that the C model's trace and the
 * RTL's give the same profile when they agree: per PE and FU the cycles
 * it issued an operation, issued a `nop` (or waited in a `nop N`), and
 * was idle (before its first issue or after its halt); per bank the reads
 * and writes of the AGs; the run's cycles and each region's (several
 * streams: rstart .. rdone). The TCPA has no stalls (docs/timing.md
 * section 3: a FIFO read that finds nothing is an `underflow` fault), so
 * there is no stalled column; faults are counted instead.
 */
#ifndef TCPA_PROFILE_H
#define TCPA_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#define PROFILE_MAX_PES 4096
#define PROFILE_MAX_FUS 32
#define PROFILE_MAX_BANKS 1024

/* One FU of one PE. */
typedef struct {
  uint64_t ops, nops, waits; /* issues of an operation, of a nop; cycles waited in `nop N` */
  uint64_t first, halt;      /* first issue cycle, halt cycle (UINT64_MAX: none) */
} profile_fu;

/* One bank, named by the PE whose AG uses it and its side and index. */
typedef struct {
  int row, col, side, bank;
  uint64_t reads, writes;
} profile_bank;

typedef struct {
  int rows, cols, nfu;     /* the PEs and FUs seen in the trace */
  profile_fu *fu;          /* [rows * cols * nfu]: PE (r, c), FU u at (r * cols + c) * nfu + u */
  int nbanks;
  profile_bank bank[PROFILE_MAX_BANKS];
  uint64_t done;           /* the done event's cycles (0: no done) */
  uint64_t faults;
  int nregions;
  uint64_t rstart[4], rdone[4]; /* per GC: start cycle and its own cycles (UINT64_MAX: none) */
} profile;

/* Returns 0 after reading the trace at path into *p (free with
 * profile_free); -1 after printing PATH:LINE:COL: why. */
int profile_read(const char *path, profile *p);

/* Frees what profile_read allocated. */
void profile_free(profile *p);

/* Returns the utilization of PE (r, c) in [0, 1]: its operations' issue
 * cycles over its FUs times the run's cycles. */
double profile_pe_utilization(const profile *p, int r, int c);

/* Writes the profile's tables to f (the PEs and FUs, the banks, the
 * regions). */
void profile_print(const profile *p, FILE *f);

/* Returns 0 after writing DIR/profile.tsv, DIR/banks.tsv and the
 * utilization heat map DIR/utilization.svg (gnuplot); -1 after printing
 * why. */
int profile_write(const profile *p, const char *dir);

#endif
