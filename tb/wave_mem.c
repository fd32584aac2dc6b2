/*
 * wave_mem.c: the banks' words at done, compared from the two traces
 * (wave_mem.h; docs/trace.md "Model and RTL in one waveform").
 *
 * Each trace file is read once with the trace parser (common/trace.h):
 * its `mem` events are kept (PE, side, bank, address, value), its `done`
 * event gives the done cycle, and the RTL's `# fst` comment the FST time
 * base (lockstep.h). Both lists are sorted in trace order
 * (trace_event_compare) and walked side by side; a PE whose events differ
 * (present on one side only, or another value) is listed once.
 */
#include "wave_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "model_fst.h"
#include "trace.h"

/* The mem events and the done cycle of one trace. */
typedef struct {
  trace_event *ev;
  size_t n, cap;
  int done;
  uint64_t done_cycle;
  lockstep_fst_timing fst;
} wave_mem_side;

/* Returns 0 after appending e to s; -1 when out of memory. */
static int wave_mem_push(wave_mem_side *s, const trace_event *e) {
  if (s->n == s->cap) {
    size_t nc = s->cap ? 2 * s->cap : 256;
    trace_event *p = realloc(s->ev, nc * sizeof *p);
    if (!p) return -1;
    s->ev = p, s->cap = nc;
  }
  s->ev[s->n++] = *e;
  return 0;
}

/* Returns 0 after reading the trace `path` into s (a file that cannot be
 * opened: nothing, done 0); -1 with msg on a malformed line or out of
 * memory. */
static int wave_mem_read(const char *path, wave_mem_side *s, char *msg, size_t msgsz) {
  FILE *f = path ? fopen(path, "r") : NULL;
  if (!f) return 0;
  char line[1024], why[200];
  long lineno = 0;
  int rc = 0;
  while (!rc && fgets(line, sizeof line, f)) {
    lineno++;
    trace_event e;
    int k = trace_line_parse(line, &e, why, sizeof why);
    if (k == TRACE_LINE_COMMENT) {
      lockstep_fst_parse(line, &s->fst);
    } else if (k == TRACE_LINE_ERROR) {
      snprintf(msg, msgsz, "%s:%ld: %s", path, lineno, why);
      rc = -1;
    } else if (e.kind == TRACE_MEM) {
      if (wave_mem_push(s, &e)) snprintf(msg, msgsz, "out of memory"), rc = -1;
    } else if (e.kind == TRACE_DONE) {
      s->done = 1, s->done_cycle = e.cycle;
    }
  }
  fclose(f);
  return rc;
}

/* qsort comparator: trace order. */
static int wave_mem_cmp(const void *a, const void *b) { return trace_event_compare(a, b); }

/* Returns 0 after adding PE (row, col) to d once; -1 when out of memory. */
static int wave_mem_add(wave_mem_diff *d, int row, int col) {
  if (wave_mem_differs(d, row, col)) return 0;
  wave_mem_pe *p = realloc(d->pe, (size_t)(d->npe + 1) * sizeof *p);
  if (!p) return -1;
  d->pe = p;
  d->pe[d->npe++] = (wave_mem_pe){row, col};
  return 0;
}

/* Returns 0 after listing in d every PE whose events differ between the
 * sorted lists a and b; -1 when out of memory. */
static int wave_mem_walk(const wave_mem_side *a, const wave_mem_side *b, wave_mem_diff *d) {
  size_t i = 0, j = 0;
  while (i < a->n || j < b->n) {
    const trace_event *x = i < a->n ? &a->ev[i] : NULL, *y = j < b->n ? &b->ev[j] : NULL;
    int c = !x ? 1 : !y ? -1 : trace_event_compare(x, y);
    /* the same word (PE, side, bank, address) on both sides: the values */
    int same_word = x && y && x->row == y->row && x->col == y->col && x->side == y->side &&
                    x->port == y->port && x->addr == y->addr;
    if (same_word) {
      if (x->value != y->value && wave_mem_add(d, x->row, x->col)) return -1;
      i++, j++;
    } else if (c < 0) {
      if (wave_mem_add(d, x->row, x->col)) return -1;
      i++;
    } else {
      if (wave_mem_add(d, y->row, y->col)) return -1;
      j++;
    }
  }
  return 0;
}

int wave_mem_compare(const char *rtl_trace, const char *model_trace, wave_mem_diff *d, char *msg, size_t msgsz) {
  wave_mem_side s[2];
  memset(s, 0, sizeof s);
  memset(d, 0, sizeof *d);
  int rc = -1;
  if (wave_mem_read(rtl_trace, &s[0], msg, msgsz) || wave_mem_read(model_trace, &s[1], msg, msgsz)) goto error;
  if (!s[0].done || !s[1].done || s[0].done_cycle != s[1].done_cycle) {
    rc = 0;
    goto error; /* not compared */
  }
  for (int k = 0; k < 2; k++)
    if (s[k].n) qsort(s[k].ev, s[k].n, sizeof *s[k].ev, wave_mem_cmp); /* (no NULL to qsort) */
  d->compared = 1;
  d->cycle = s[0].done_cycle;
  uint64_t t0 = s[0].fst.declared ? s[0].fst.t0 : 0, per = s[0].fst.declared ? s[0].fst.period : MODEL_FST_UNIT;
  d->time = t0 + d->cycle * per;
  if (wave_mem_walk(&s[0], &s[1], d)) {
    snprintf(msg, msgsz, "out of memory");
    wave_mem_free(d);
    goto error;
  }
  rc = 0;
error:
  free(s[0].ev);
  free(s[1].ev);
  return rc;
}

int wave_mem_differs(const wave_mem_diff *d, int row, int col) {
  for (int i = 0; i < d->npe; i++)
    if (d->pe[i].row == row && d->pe[i].col == col) return 1;
  return 0;
}

void wave_mem_free(wave_mem_diff *d) {
  free(d->pe);
  d->pe = NULL;
  d->npe = 0;
}
