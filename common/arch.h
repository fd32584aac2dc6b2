/*
 * arch.h: architecture configurations (docs/arch.md): the synthesis-time
 * parameters of one TCPA, read from an INI file, with defaults for missing
 * keys, range checks, a fingerprint over every effective value, and the
 * generator of the RTL's parameter package.
 */
#ifndef TCPA_ARCH_H
#define TCPA_ARCH_H

#include <stdint.h>
#include <stdio.h>

typedef struct {
  int rows, cols;                     /* [array] */
  int alu, mul, div;                  /* [pe] functional units */
  int rd, fd, fd_depth, id, od;       /* [pe] registers */
  int fifo_depth, imem, branch_targets; /* [pe] */
  int lat_alu, lat_mul, lat_div;      /* [latency] */
  int ports;                          /* [interconnect] */
  int gc_signals, gc_dims, gc_history; /* [gc] */
  int banks, bank_depth;              /* [iobuf] */
} arch_config;

/* Returns the configuration with every key at its default (docs/arch.md). */
arch_config arch_config_default(void);

/* Returns 0 and fills *cfg from the INI file at `path`; returns -1 after
 * printing every error (file:line: unknown section or key, bad value, value
 * out of range) through diag.h. */
int arch_config_load(const char *path, arch_config *cfg);

/* Returns 0 and fills *cfg from the INI text `text`, reported as file
 * `name`; returns -1 after printing every error. */
int arch_config_load_text(const char *name, const char *text, arch_config *cfg);

/* The embedded default configuration: the text of configs/default.ini,
 * compiled into the binary (build/gen/arch_default_ini.c, made by the
 * Makefile), so that `tcpa` needs no file when --arch is not given. */
extern const char arch_default_ini_name[];
extern const char arch_default_ini_text[];

/* Returns arch_config_load_text() of the embedded default. */
int arch_config_load_default(arch_config *cfg);

/* Returns the fingerprint of a configuration: a stable 64-bit hash of every
 * effective value, independent of comments, order and defaults spelled out. */
uint64_t arch_config_fingerprint(const arch_config *cfg);

/* Writes the RTL parameter package (SystemVerilog) for `cfg` to `out`. */
void arch_config_write_sv(const arch_config *cfg, FILE *out);

/* Writes the same parameters as a C header (#define TCPA_<SECTION>_<KEY>)
 * for the C++ harnesses to `out`. */
void arch_config_write_h(const arch_config *cfg, FILE *out);

/* Data width of every PE, register and bank word (fixed by docs/arch.md). */
#define ARCH_DATA_WIDTH 32

/* Largest interconnect.ports (the key's range in arch.c). */
#define ARCH_MAX_PORTS 16

/* gc.history (a key this project added to the specified ones, docs/arch.md):
 * legacy. It sized a ring of control-signal history in the global controller
 * that bounded the start delays; the PEs now evaluate the signals at their
 * own step (docs/timing.md section 2), so the key is read, range-checked and
 * kept in the fingerprint (when not at its default) but bounds nothing. */
#define ARCH_GC_HISTORY_DEFAULT 128

/* Writes `cfg` to `out` as an INI file with every key, defaults included;
 * loading it gives a configuration with the same fingerprint. */
void arch_config_write_ini(const arch_config *cfg, FILE *out);

#endif
