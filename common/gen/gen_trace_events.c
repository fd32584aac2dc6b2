/*
 * gen_trace_events.c: prints the C/C++ header tcpa_trace_events.h, the copy
 * of the trace event contract of common/trace.h (docs/trace.md) that the
 * C++ harnesses of tb/ use: the enums trace_kind (TRACE_START ...
 * TRACE_KIND_COUNT) and trace_fault_kind (TRACE_FAULT_UNDERFLOW ...
 * TRACE_FAULT_COUNT) with the names and values of trace.h, in its order,
 * and trace_events_kind_name / trace_events_fault_name returning the text
 * of each as common/trace.c writes it (the generator is linked with
 * trace.c and asks it). The enums sit under trace.h's own guard
 * TCPA_TRACE_KINDS_DEFINED, so a file may include both headers in any
 * order. Only the names of the enumerators are listed here (C has no
 * reflection), in any order: they are printed sorted by their C value, so
 * the header follows trace.h's order. A missing or extra name fails the
 * build (the count is checked against TRACE_KIND_COUNT, and the values
 * must be 0 .. count-1), and tests/gen_copies.sh checks the list against
 * trace.h. The Makefile compiles and runs it into
 * build/gen/tcpa_trace_events.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/* One enumerator: its C name and value. */
typedef struct {
  const char *name;
  int value;
} gen_item;

static const gen_item gen_kinds[] = {
    {"TRACE_START", TRACE_START},   {"TRACE_SIG", TRACE_SIG},       {"TRACE_STEP", TRACE_STEP},
    {"TRACE_GC", TRACE_GC},         {"TRACE_ISSUE", TRACE_ISSUE},   {"TRACE_INSN", TRACE_INSN},
    {"TRACE_HALT", TRACE_HALT},     {"TRACE_POP", TRACE_POP},       {"TRACE_FDRD", TRACE_FDRD},
    {"TRACE_WR", TRACE_WR},         {"TRACE_RF", TRACE_RF},         {"TRACE_FLAG", TRACE_FLAG},
    {"TRACE_HOP", TRACE_HOP},       {"TRACE_PUSH", TRACE_PUSH},     {"TRACE_FIFO", TRACE_FIFO},
    {"TRACE_BANK", TRACE_BANK},     {"TRACE_BANKWR", TRACE_BANKWR}, {"TRACE_AG", TRACE_AG},
    {"TRACE_FAULT", TRACE_FAULT},   {"TRACE_MEM", TRACE_MEM},       {"TRACE_DONE", TRACE_DONE},
    {"TRACE_RSTART", TRACE_RSTART}, {"TRACE_RDONE", TRACE_RDONE}};

static const gen_item gen_faults[] = {
    {"TRACE_FAULT_UNDERFLOW", TRACE_FAULT_UNDERFLOW}, {"TRACE_FAULT_OVERFLOW", TRACE_FAULT_OVERFLOW},
    {"TRACE_FAULT_WCONFLICT", TRACE_FAULT_WCONFLICT}, {"TRACE_FAULT_STRAY", TRACE_FAULT_STRAY},
    {"TRACE_FAULT_AGMISS", TRACE_FAULT_AGMISS},       {"TRACE_FAULT_AGRANGE", TRACE_FAULT_AGRANGE},
    {"TRACE_FAULT_LEFTOVER", TRACE_FAULT_LEFTOVER},   {"TRACE_FAULT_TIMEOUT", TRACE_FAULT_TIMEOUT}};

#define GEN_N(a) (sizeof(a) / sizeof((a)[0]))
_Static_assert(GEN_N(gen_kinds) == TRACE_KIND_COUNT, "gen_kinds must list every trace_kind");
_Static_assert(GEN_N(gen_faults) == TRACE_FAULT_COUNT, "gen_faults must list every trace_fault_kind");

/* Returns the order of two items by value (qsort). */
static int gen_item_cmp(const void *a, const void *b) {
  const gen_item *x = a, *y = b;
  return (x->value > y->value) - (x->value < y->value);
}

/* Returns 0 after copying the n items into out sorted by value, when the
 * values are 0 .. n-1; else 1 after saying which value is out of place. */
static int gen_sort(const gen_item *items, size_t n, gen_item *out) {
  memcpy(out, items, n * sizeof *items);
  qsort(out, n, sizeof *out, gen_item_cmp);
  for (size_t i = 0; i < n; i++)
    if (out[i].value != (int)i) {
      fprintf(stderr, "gen_trace_events: %s is %d; the values must be 0 .. %zu\n", out[i].name,
              out[i].value, n - 1);
      return 1;
    }
  return 0;
}

/* Prints `typedef enum { ... COUNT = n } type;`. */
static void gen_enum(const char *type, const gen_item *items, size_t n, const char *count) {
  printf("typedef enum {\n");
  for (size_t i = 0; i < n; i++) printf("  %s = %d,\n", items[i].name, items[i].value);
  printf("  %s = %zu\n} %s;\n", count, n, type);
}

/* Prints `static inline const char *fn(int k)` returning name(k) of each
 * of the n values (NULL outside). */
static void gen_names(const char *fn, const char *count, size_t n, const char *(*name)(int)) {
  printf("static inline const char *%s(int k) {\n"
         "  static const char *const names[%s] = {",
         fn, count);
  for (size_t i = 0; i < n; i++) printf("%s\"%s\"", i ? ", " : "", name((int)i));
  printf("};\n  return k >= 0 && k < %s ? names[k] : (const char *)0;\n}\n", count);
}

/* Returns trace_kind_name(k) (an int-typed adapter for gen_names). */
static const char *gen_kind_name(int k) {
  return trace_kind_name((trace_kind)k);
}

/* Returns trace_fault_name(f) (an int-typed adapter for gen_names). */
static const char *gen_fault_name(int f) {
  return trace_fault_name((trace_fault_kind)f);
}

/* Returns 0 after printing the header on stdout; 1 when the values of a
 * table are not 0 .. count-1. */
int main(void) {
  gen_item kinds[GEN_N(gen_kinds)], faults[GEN_N(gen_faults)];
  if (gen_sort(gen_kinds, GEN_N(gen_kinds), kinds) || gen_sort(gen_faults, GEN_N(gen_faults), faults))
    return 1;
  printf("/* tcpa_trace_events.h: the trace event kinds and fault kinds of\n"
         " * common/trace.h (docs/trace.md), in its order and with its names, and\n"
         " * their text as common/trace.c writes it, for the C++ harnesses of tb/.\n"
         " * GENERATED by common/gen/gen_trace_events.c; do not edit. */\n"
         "#ifndef TCPA_TRACE_EVENTS_H\n"
         "#define TCPA_TRACE_EVENTS_H\n\n"
         "/* the enums of trace.h, under its guard: either header may come first */\n"
         "#ifndef TCPA_TRACE_KINDS_DEFINED\n"
         "#define TCPA_TRACE_KINDS_DEFINED\n");
  gen_enum("trace_kind", kinds, GEN_N(kinds), "TRACE_KIND_COUNT");
  gen_enum("trace_fault_kind", faults, GEN_N(faults), "TRACE_FAULT_COUNT");
  printf("#endif\n\n"
         "/* Returns the name of event kind k (\"start\", ...), NULL if none. */\n");
  gen_names("trace_events_kind_name", "TRACE_KIND_COUNT", GEN_N(gen_kinds), gen_kind_name);
  printf("\n/* Returns the name of fault kind k (\"underflow\", ...), NULL if none. */\n");
  gen_names("trace_events_fault_name", "TRACE_FAULT_COUNT", GEN_N(gen_faults), gen_fault_name);
  printf("\n#endif\n");
  return 0;
}
