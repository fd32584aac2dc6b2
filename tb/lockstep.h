/*
 * lockstep.h: the lockstep checker. It compares the trace events
 * (docs/trace.md, common/trace.h) of two engines, the C model ("model",
 * expected) and the RTL ("rtl", actual), cycle by cycle, and stops at the
 * first divergence with everything needed to explain it: the cycle, the PE,
 * the unit (FU, register, side and port or bank), the event kind, both
 * events (or the one that has no partner), and the last events of that PE
 * on both sides.
 *
 * It is fed, not reading files itself, so the same core serves two drivers:
 * `tcpa cosim-check MODEL.trace RTL.trace` (lockstep_files_check, reading two
 * trace files) and, later, an in-process C++ driver that steps the Verilated
 * RTL and the model together and calls, every cycle,
 *
 *     lockstep_feed_model(ls, &e) for each model event of cycle t,
 *     lockstep_feed_rtl(ls, &e)   for each RTL event of cycle t,
 *     lockstep_end_cycle(ls, t)   -> LOCKSTEP_DIVERGED stops the run.
 *
 * Within a cycle the events of each side are put into the canonical order
 * of trace.md (trace_event_compare) and merged: equal events match; two
 * events of the same slot (kind, PE and unit) with different values are a
 * value divergence; otherwise the first event in canonical order that has
 * no partner is missing on the other side. Event kinds outside the filter
 * are dropped on entry. Both sides must announce their header (version and
 * architecture fingerprint) with lockstep_header; a different version or
 * fingerprint is refused before any event is compared.
 */
#ifndef TCPA_LOCKSTEP_H
#define TCPA_LOCKSTEP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LOCKSTEP_WINDOW_DEFAULT 8 /* events of the PE shown per side */
#define LOCKSTEP_KINDS_ALL ((1u << TRACE_KIND_COUNT) - 1u)

typedef enum { LOCKSTEP_MODEL = 0, LOCKSTEP_RTL = 1 } lockstep_side;

/* State of a check. */
typedef enum {
  LOCKSTEP_RUNNING = 0,  /* equal so far */
  LOCKSTEP_DIVERGED = 1, /* a divergence was found; see lockstep_result */
  LOCKSTEP_REFUSED = 2,  /* headers differ (version or fingerprint) */
  LOCKSTEP_ERROR = 3     /* misuse: events out of cycle order, no memory */
} lockstep_status;

/* What kind of divergence. */
typedef enum {
  LOCKSTEP_DIFF_NONE,
  LOCKSTEP_DIFF_VALUE,   /* same slot, different fields (values, pc, ...) */
  LOCKSTEP_DIFF_MISSING, /* the model has an event the RTL lacks */
  LOCKSTEP_DIFF_EXTRA,   /* the RTL has an event the model lacks */
  LOCKSTEP_DIFF_VERSION, /* trace format versions differ */
  LOCKSTEP_DIFF_FINGERPRINT /* architecture fingerprints differ */
} lockstep_diff;

/* The first divergence. */
typedef struct {
  lockstep_diff diff;
  uint64_t cycle;
  int row, col;          /* the PE; -1, -1 for the whole machine */
  trace_kind kind;
  char unit[48];         /* "FU 1 rd3", "id2", "side e port 0", "" */
  int has_model, has_rtl;
  trace_event model, rtl; /* expected and actual (when present) */
  uint64_t fp_model, fp_rtl;
  int version_model, version_rtl;
} lockstep_divergence;

typedef struct lockstep lockstep;

/* Returns a new checker comparing the event kinds in `kinds` (a bit per
 * trace_kind; LOCKSTEP_KINDS_ALL for all) and keeping `window` events per
 * PE and side for the report (>= 1); NULL when out of memory. */
lockstep *lockstep_new(unsigned kinds, int window);

/* Frees a checker (NULL is fine). */
void lockstep_free(lockstep *ls);

/* Returns the status after announcing one side's trace header; when both
 * sides are known and differ in version or fingerprint: LOCKSTEP_REFUSED. */
lockstep_status lockstep_header(lockstep *ls, lockstep_side side, int version,
                                uint64_t fingerprint);

/* Returns the status after queueing event e of the model (expected) or of
 * the RTL (actual) for the cycle being collected. Events must not go back
 * to a cycle that was already ended (LOCKSTEP_ERROR). After a divergence
 * feeding does nothing. */
lockstep_status lockstep_feed(lockstep *ls, lockstep_side side,
                              const trace_event *e);
lockstep_status lockstep_feed_model(lockstep *ls, const trace_event *e);
lockstep_status lockstep_feed_rtl(lockstep *ls, const trace_event *e);

/* Returns the status after comparing every queued event of cycles <=
 * `cycle` (both sides have emitted all their events of those cycles). */
lockstep_status lockstep_end_cycle(lockstep *ls, uint64_t cycle);

/* Returns the status after comparing whatever is still queued (both
 * traces ended). */
lockstep_status lockstep_finish(lockstep *ls);

/* Returns the current status. */
lockstep_status lockstep_status_get(const lockstep *ls);

/* Returns the divergence (diff NONE while the traces agree). */
const lockstep_divergence *lockstep_result(const lockstep *ls);

/* Returns the reason of LOCKSTEP_ERROR (empty otherwise). */
const char *lockstep_error_message(const lockstep *ls);

/* Writes the human-readable report to f: on divergence the cycle, PE,
 * unit, kind, expected and actual events and the last events of the PE on
 * both sides (the divergent line marked `>`); on agreement a summary with
 * the event count per kind and per PE. */
void lockstep_report_write(const lockstep *ls, FILE *f);

/* Writes into buf the first field in which two events of the same slot
 * (a value divergence) differ, with both values: "value: model 0x00000078,
 * RTL 0x00000068" (pc, word, step or count, direction, address, value,
 * vector or flag, cycles); "" when they do not differ. */
void lockstep_differs(const trace_event *m, const trace_event *r, char *buf, size_t sz);

/* Returns the number of events compared equal so far. */
uint64_t lockstep_matched(const lockstep *ls);

/* Returns a bit set of trace kinds from a comma-separated list of event
 * names ("wr,push,bank"); 0 with the offending name in bad when a name is
 * unknown. */
unsigned lockstep_kinds_parse(const char *list, char *bad, size_t badsz);

/* ---- reading trace files ------------------------------------------------ */

/* FST timing an RTL trace may declare in a comment line
 * `# fst t0=<time> period=<time>` before its first event: the FST time at
 * which cycle 0 is shown (the harness's falling-edge dump of cycle 0) and
 * the clock period, in the FST's time units. Defaults t0 = 0 and the
 * period of tb/rtl_main.cpp, whose tick() dumps at two consecutive times
 * (clock low, clock high) per cycle. */
#define LOCKSTEP_FST_PERIOD_DEFAULT 2
typedef struct {
  uint64_t t0, period;
  int declared; /* the comment was present */
} lockstep_fst_timing;

/* Returns 0 after reading `# fst t0=T period=P` (a trace file's comment
 * line) into *t when the line is one; -1 for any other line. */
int lockstep_fst_parse(const char *line, lockstep_fst_timing *t);

/* Returns the status after checking the trace files `model_path` and
 * `rtl_path` through ls (streaming, one cycle at a time). Unreadable or
 * malformed files are LOCKSTEP_ERROR with FILE:LINE:COL in the message.
 * When timing is not NULL it receives the RTL trace's `# fst` line. */
lockstep_status lockstep_files_check(lockstep *ls, const char *model_path,
                                     const char *rtl_path,
                                     lockstep_fst_timing *timing);

#ifdef __cplusplus
}
#endif

#endif
