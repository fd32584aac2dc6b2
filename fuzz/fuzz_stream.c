/*
 * fuzz_stream.c: libFuzzer target for the C model's stream loader. The
 * input bytes are a configuration stream (docs/stream.md) for the
 * architecture whose fingerprint its header names among the embedded
 * default (configs/default.ini) and the files of fuzz_cfg_files
 * (read once from the working directory, when there:
 * big1d.ini has the multipliers and dividers the default lacks); any other
 * fingerprint loads against the default. model_new() checks and applies
 * it; when it is accepted, the machine runs at most
 * FUZZ_MAX_CYCLES cycles with a trace sink that reads every event. Refusals
 * are expected; a crash, a leak, undefined behaviour or a hang is a bug.
 * Each input is loaded twice: as it is (so the header checks themselves
 * are fuzzed), then repaired: cut to whole words, with the header's magic,
 * version, fingerprint, payload length and CRC-32 rewritten to match, so
 * that libFuzzer's mutations of the payload reach the packet checks and
 * the machine instead of stopping at the CRC. Built by `make fuzz`
 * (docs/fuzz.md).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "arch.h"
#include "diag.h"
#include "model.h"
#include "stream.h"

#define FUZZ_MAX_CYCLES 2000

#define FUZZ_NCFG 4
static const char *const fuzz_cfg_files[] = {"configs/big1d.ini", "configs/linear.ini",
                                             "configs/wide.ini"};
static arch_config fuzz_cfg[FUZZ_NCFG]; /* [0]: the embedded default */
static uint64_t fuzz_fp[FUZZ_NCFG];
static int fuzz_ncfg;
static uint64_t fuzz_events;

/* Counts one trace event (the sink reads it, so a bad event is seen). */
static void fuzz_sink(const trace_event *e, void *ctx) {
  (void)ctx;
  fuzz_events += (uint64_t)e->cycle & 1u;
}

/* Loads the configurations (once); aborts when the default does not load. */
static void fuzz_init(void) {
  if (fuzz_ncfg) return;
  if (arch_config_load_default(&fuzz_cfg[0])) abort();
  fuzz_fp[0] = arch_config_fingerprint(&fuzz_cfg[0]);
  fuzz_ncfg = 1;
  for (size_t i = 0; i < sizeof fuzz_cfg_files / sizeof *fuzz_cfg_files; i++) {
    FILE *f = fopen(fuzz_cfg_files[i], "r");
    if (!f) continue;
    fclose(f);
    if (arch_config_load(fuzz_cfg_files[i], &fuzz_cfg[fuzz_ncfg]) == 0) {
      fuzz_fp[fuzz_ncfg] = arch_config_fingerprint(&fuzz_cfg[fuzz_ncfg]);
      fuzz_ncfg++;
    }
  }
  diag_reset();
}

/* Returns the index of the configuration whose fingerprint is the one in
 * the header of data[0..size), else 0 (the default). */
static int fuzz_pick(const uint8_t *data, size_t size) {
  if (size < 4 * (STREAM_H_FP_HI + 1)) return 0;
  uint64_t fp = 0;
  for (int k = 7; k >= 0; k--) fp = fp << 8 | data[4 * STREAM_H_FP_LO + k];
  for (int i = 0; i < fuzz_ncfg; i++)
    if (fuzz_fp[i] == fp) return i;
  return 0;
}

/* Runs the stream data[0..size) when the model accepts it: at most
 * FUZZ_MAX_CYCLES cycles. Returns 1 when it was accepted, else 0. */
static int fuzz_run(const uint8_t *data, size_t size) {
  model_error err;
  model *m = model_new(&fuzz_cfg[fuzz_pick(data, size)], data, size, &err);
  if (!m) return 0;
  model_set_trace(m, fuzz_sink, NULL);
  for (int c = 0; c < FUZZ_MAX_CYCLES && !model_step(m); c++) {
  }
  model_free(m);
  return 1;
}

/* Writes the little-endian word v at word index i of b. */
static void fuzz_put(uint8_t *b, int i, uint32_t v) {
  for (int k = 0; k < 4; k++) b[4 * i + k] = (uint8_t)(v >> (8 * k));
}

/* Returns 0 (libFuzzer's contract); loads and runs data[0..size), then the
 * same stream with a header that matches it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_init();
  fuzz_run(data, size);
  size_t n = size / 4 * 4;
  if (n < 4 * STREAM_HEADER_WORDS) return 0;
  uint8_t *b = malloc(n);
  if (!b) return 0;
  memcpy(b, data, n);
  uint64_t fp = fuzz_fp[fuzz_pick(data, size)];
  size_t hdr = 4 * STREAM_HEADER_WORDS;
  fuzz_put(b, STREAM_H_MAGIC, STREAM_MAGIC);
  fuzz_put(b, STREAM_H_VERSION, STREAM_VERSION);
  fuzz_put(b, STREAM_H_FP_LO, (uint32_t)fp);
  fuzz_put(b, STREAM_H_FP_HI, (uint32_t)(fp >> 32));
  fuzz_put(b, STREAM_H_LENGTH, (uint32_t)((n - hdr) / 4));
  fuzz_put(b, STREAM_H_CRC, (uint32_t)crc32(crc32(0L, Z_NULL, 0), b + hdr, (uInt)(n - hdr)));
  fuzz_run(b, n);
  free(b);
  return 0;
}
