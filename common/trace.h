/*
 * trace.h: the per-cycle trace events of docs/trace.md: the event record,
 * its canonical text (one line per event, a header line with the format
 * version and the architecture fingerprint), the parser of that text and
 * the canonical order of events within a cycle.
 *
 * Both engines (the C model here, the RTL through its harness) write this
 * text; the lockstep checker (tb/) reads two traces with trace_line_parse
 * and compares them. Because the text is canonical, two events are equal
 * iff their formatted lines are equal, and trace_event_compare() is the
 * sort order of trace.md ("Ordering"): cycle, event kind in the table's
 * order, row, column, then the event's fields.
 */
#ifndef TCPA_TRACE_H
#define TCPA_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace_digest.h"

#define TRACE_VERSION 1
#define TRACE_DETAIL_MAX 32 /* fault DETAIL, terminating NUL included */
/* The row of an event whose place is a global controller (rstart, rdone,
 * gc of a run of several regions): its column is the GC, the text `G`. */
#define TRACE_PLACE_GC (-2)
#define TRACE_GCS 4 /* GC places 0..3 (STREAM_GCS) */

/* The two enums below are copied, generated, into the C++ harnesses'
 * tcpa_trace_events.h (common/gen/gen_trace_events.c) under this same
 * guard, so that either header may be included first. */
#ifndef TCPA_TRACE_KINDS_DEFINED
#define TCPA_TRACE_KINDS_DEFINED
/* Event kinds: START .. DONE in the canonical order of trace.md, then the
 * kinds of runs of several regions, appended so that the binary records'
 * kind numbers of one region stay as they were (their place in the order
 * is trace_kind_rank's: RSTART first, RDONE just before DONE). */
typedef enum {
  TRACE_START, TRACE_SIG, TRACE_STEP, TRACE_GC, TRACE_ISSUE, TRACE_INSN,
  TRACE_HALT, TRACE_POP, TRACE_FDRD, TRACE_WR, TRACE_RF, TRACE_FLAG,
  TRACE_HOP, TRACE_PUSH, TRACE_FIFO, TRACE_BANK, TRACE_BANKWR, TRACE_AG,
  TRACE_FAULT, TRACE_MEM, TRACE_DONE, TRACE_RSTART, TRACE_RDONE, TRACE_KIND_COUNT
} trace_kind;

/* Fault kinds of timing.md section 8. */
typedef enum {
  TRACE_FAULT_UNDERFLOW, TRACE_FAULT_OVERFLOW, TRACE_FAULT_WCONFLICT,
  TRACE_FAULT_STRAY, TRACE_FAULT_AGMISS, TRACE_FAULT_AGRANGE,
  TRACE_FAULT_LEFTOVER, TRACE_FAULT_TIMEOUT, TRACE_FAULT_COUNT
} trace_fault_kind;
#endif

/* One event. Only the fields of its kind are meaningful; the others are
 * zero (trace_line_parse leaves them zero, so parsed events compare equal
 * with memcmp-free trace_event_compare). */
typedef struct {
  uint64_t cycle;
  trace_kind kind;
  int row, col;        /* the PE; -1, -1 for the whole machine (`-`);
                          TRACE_PLACE_GC, G for global controller G */
  int fu;              /* issue, insn, halt, wr, flag: FU number */
  int pc;              /* issue */
  int reg_cls, reg_idx; /* pop, fdrd, wr, rf, push, fifo: isa_cls, index */
  int side, port;      /* hop: side 0..3 (n e s w) and port; bank, bankwr,
                          ag, mem: side and bank */
  int bank_write;      /* bank: 0 `rd`, 1 `wr` */
  uint32_t addr;       /* bank, bankwr, ag, mem: address */
  uint32_t value;      /* sig, gc: signal vector; pop fdrd wr rf hop push
                          bank bankwr mem: the word; flag: 0 or 1 */
  uint32_t num;        /* step, gc: step; fifo: occupancy */
  uint32_t word[4];    /* insn: instruction word, word[0] lowest */
  trace_fault_kind fault;            /* fault */
  char detail[TRACE_DETAIL_MAX];     /* fault: one token, no spaces */
  uint64_t cycles;     /* done, rdone */
} trace_event;

/* Returns the name of an event kind ("start", "sig", ...), NULL if none. */
const char *trace_kind_name(trace_kind k);

/* Returns the position of kind k in the canonical order (trace.md
 * "Ordering"): 0 for rstart, then start .. mem, rdone, done. */
int trace_kind_rank(trace_kind k);

/* Returns the name of a fault kind ("underflow", ...), NULL if none. */
const char *trace_fault_name(trace_fault_kind f);

/* Writes the text of e without a newline (e.g. `3 hop 0,0 e 0 0x00000000`)
 * into buf; returns the length it needs (as snprintf). */
int trace_event_format(const trace_event *e, char *buf, size_t bufsz);

/* Writes the header line `# tcpa-trace 1 fp=0x...` and a newline to f. */
void trace_header_write(FILE *f, uint64_t fingerprint);

/* Writes one event line (with its newline) to f. */
void trace_event_write(FILE *f, const trace_event *e);

/* Line classes returned by trace_line_parse. */
enum { TRACE_LINE_ERROR = -1, TRACE_LINE_COMMENT = 0, TRACE_LINE_EVENT = 1 };

/* Returns TRACE_LINE_EVENT and fills *e when `line` (trailing newline
 * allowed) is an event line in the exact canonical text; TRACE_LINE_COMMENT
 * for a line starting with `#` (the header included) or an empty line;
 * TRACE_LINE_ERROR with the reason and its 1-based column in msg
 * otherwise. A line that parses formats back to the same text. */
int trace_line_parse(const char *line, trace_event *e, char *msg,
                     size_t msgsz);

/* As trace_line_parse, but an error's 1-based column goes to *col (1
 * otherwise) and msg holds the reason alone: what a reader that reports
 * FILE:LINE:COL takes (tb/lockstep.c). */
int trace_line_parse_at(const char *line, trace_event *e, int *col, char *msg, size_t msgsz);

/* Returns 0 and the version and fingerprint of a header line
 * `# tcpa-trace V fp=0x<16 hex>`; -1 when the line is not a header. */
int trace_header_parse(const char *line, int *version, uint64_t *fingerprint);

/* Returns <0, 0 or >0 as a sorts before, equals or after b in the
 * canonical order of trace.md: cycle; kind; row, column (`-` after every
 * PE); then the first field (FU; register: rd/fd before od, then index;
 * side n e s w, then port or bank) and the remaining fields as written
 * (numbers numerically, `rd` before `wr`, fault kind and detail as text). */
int trace_event_compare(const trace_event *a, const trace_event *b);

/* ---- the binary event stream (docs/trace.md "Binary event stream") ----
 * What the harness writes to tcpa in a cosim run (tcpa-rtl --trace-bin):
 * one header, then one fixed-size record per event, each record the bytes
 * of a trace_event as laid out here (little-endian, 120 bytes, no
 * padding; trace.c checks the layout at compile time), so that the reader
 * takes them straight into its event struct: no text, no parsing. */
#define TRACE_BIN_MAGIC "tcpa-ev\n" /* 8 bytes, no NUL */
#define TRACE_BIN_VERSION 1
#define TRACE_BIN_RECORD 120        /* bytes of one record: sizeof(trace_event) */
/* The digest stream (docs/trace.md "Digest stream"; tcpa-rtl --trace-bin
 * FILE --trace-mode digest): the same header under its own magic, then per
 * cycle the records of the kinds the driver reads the RTL's result from
 * (done, fault, bank writes) and one digest record (common/trace_digest.h)
 * of all the cycle's events: kind TRACE_BIN_DIGEST, num the events, cycles
 * the sum of their hashes. */
#define TRACE_BIN_DIGEST_MAGIC TRACE_DIGEST_MAGIC /* trace_digest.h */
#define TRACE_BIN_DIGEST TRACE_DIGEST_KIND             /* the kind of a digest record */

/* The header of a binary event stream: 48 bytes. */
typedef struct {
  char magic[8];           /* TRACE_BIN_MAGIC */
  uint32_t version;        /* TRACE_BIN_VERSION */
  uint32_t record_size;    /* TRACE_BIN_RECORD */
  uint32_t trace_version;  /* TRACE_VERSION of the events */
  uint32_t reserved;       /* 0 */
  uint64_t fingerprint;    /* the architecture fingerprint (as the text header) */
  uint64_t fst_t0, fst_period; /* as the text trace's `# fst` line */
} trace_bin_header;

/* Returns 0 when h is a header of this binary format (magic, version and
 * record size); -1 with the reason in msg (a stream that is not binary,
 * e.g. text from a harness that does not know the binary mode, is named
 * as such). */
int trace_bin_header_check(const trace_bin_header *h, char *msg, size_t msgsz);

/* Returns 1 when h (checked) is the header of a digest stream, 0 when of
 * an event stream. */
int trace_bin_header_digest(const trace_bin_header *h);

/* Returns 0 when the record e can be compared and formatted: a known kind,
 * a place (`-` only for fault, done, gc), a known fault kind and a
 * NUL-terminated detail without spaces for a fault, side 0..3 and a
 * register class of its kind; -1 with the reason in msg. Not a check of
 * the canonical text: the fields are taken as they are. */
int trace_bin_event_check(const trace_event *e, char *msg, size_t msgsz);

#endif
