/*
 * wave_mem.h: the banks' words at done, compared from the two traces, for
 * the merged waveform's `mismatch mem` signals (docs/trace.md "Model and
 * RTL in one waveform").
 *
 * Neither FST holds the banks' contents: the `mem` events of the traces
 * (one per bank word written since reset, in the done cycle, trace.md
 * "State events") are the only record of them. wave_mem_compare reads the
 * RTL's and the model's trace files, and when both reached `done` in the
 * same cycle lists the PEs whose `mem` events differ (a word on one side
 * only, or another value), with the FST time of that cycle (the RTL
 * trace's `# fst t0= period=` line, else t0 0 and the model's 1 ns).
 */
#ifndef TCPA_WAVE_MEM_H
#define TCPA_WAVE_MEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A PE whose words differ. */
typedef struct {
  int row, col;
} wave_mem_pe;

/* What the comparison found. */
typedef struct {
  int compared;       /* both traces reached done in the same cycle */
  uint64_t cycle;     /* that cycle */
  uint64_t time;      /* its FST time (t0 + cycle * period) */
  wave_mem_pe *pe;    /* the PEs whose mem events differ */
  int npe;
} wave_mem_diff;

/* Returns 0 after filling *d from the trace files `rtl_trace` and
 * `model_trace` (a missing or unreadable file, or a run that did not reach
 * done on both sides in the same cycle: compared 0, no PE); -1 with the
 * reason in msg when a file holds a malformed event line or memory runs
 * out. Free d with wave_mem_free. */
int wave_mem_compare(const char *rtl_trace, const char *model_trace, wave_mem_diff *d, char *msg, size_t msgsz);

/* Returns 1 when PE (row, col) is in d's list. */
int wave_mem_differs(const wave_mem_diff *d, int row, int col);

/* Frees what wave_mem_compare allocated in d. */
void wave_mem_free(wave_mem_diff *d);

#ifdef __cplusplus
}
#endif

#endif
