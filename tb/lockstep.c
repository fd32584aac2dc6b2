/*
 * lockstep.c: the lockstep checker of lockstep.h.
 *
 * Each side (model, RTL) has a queue of the events fed for the cycle being
 * collected. lockstep_end_cycle sorts both queues canonically
 * (trace_event_compare; a queue already in that order, as both engines
 * emit it, is only checked) and walks them together: equal events match; at
 * the first pair that differs, the divergence is a value difference when
 * both events occupy the same slot (kind, PE and unit, lockstep_slot_same),
 * else the event that sorts first has no partner on the other side. Matched
 * events go into a per-side, per-PE ring of the last `window` events, which
 * the report prints together with the events of the divergence cycle up to
 * the divergent one. lockstep_files_check drives the core from two trace
 * files, one cycle at a time, so memory stays bounded by one cycle's events.
 */
#include "lockstep.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  trace_event *v;
  size_t n, cap;
} lockstep_vec;

/* Places (row, col) in -1..LOCKSTEP_GRID-1 find their PE history by a
 * table (lockstep.pe_at), others by a search. */
#define LOCKSTEP_GRID 64

/* Recent events of one PE on one side. */
typedef struct {
  int row, col;
  trace_event *ring; /* window entries */
  int head, count;
  uint64_t total;
} lockstep_pe;

struct lockstep {
  unsigned kinds;
  int window;
  lockstep_status status;
  lockstep_divergence div;
  int have_hdr[2], version[2];
  uint64_t fp[2];
  lockstep_vec q[2];
  int64_t ended;   /* last cycle compared, -1 before the first */
  uint64_t last_cycle; /* highest cycle compared */
  lockstep_pe *pes[2];
  int npes[2], cappes[2];
  int pe_hint[2];      /* the PE found last (lockstep_pe_get) */
  int pe_at[2][(LOCKSTEP_GRID + 1) * (LOCKSTEP_GRID + 1)]; /* 1 + index in pes of (row, col), 0: none */
  uint64_t matched, per_kind[TRACE_KIND_COUNT];
  lockstep_vec ctx[2]; /* report context of the divergence */
  int ctx_mark[2];     /* index of the divergent line in ctx, -1: none */
  char err[512];
};

static const char *const lockstep_side_names[] = {"model", "RTL"};
static const char *const lockstep_reg_names[] = {"-", "rd", "fd", "id", "od", "imm"};
static const char lockstep_side_chars[] = "nesw";

/* Returns LOCKSTEP_ERROR after recording the reason. */
static lockstep_status lockstep_fail(lockstep *ls, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static lockstep_status lockstep_fail(lockstep *ls, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ls->err, sizeof ls->err, fmt, ap);
  va_end(ap);
  return ls->status = LOCKSTEP_ERROR;
}

/* Returns 0 after appending e to v, -1 when out of memory. */
static int lockstep_vec_push(lockstep_vec *v, const trace_event *e) {
  if (v->n == v->cap) {
    size_t nc = v->cap ? 2 * v->cap : 64;
    trace_event *p = realloc(v->v, nc * sizeof *p);
    if (!p) return -1;
    v->v = p;
    v->cap = nc;
  }
  v->v[v->n++] = *e;
  return 0;
}

lockstep *lockstep_new(unsigned kinds, int window) {
  lockstep *ls = calloc(1, sizeof *ls);
  if (!ls) return NULL;
  ls->kinds = kinds & LOCKSTEP_KINDS_ALL;
  ls->window = window >= 1 ? window : 1;
  ls->ended = -1;
  ls->ctx_mark[0] = ls->ctx_mark[1] = -1;
  return ls;
}

void lockstep_free(lockstep *ls) {
  if (!ls) return;
  for (int s = 0; s < 2; s++) {
    free(ls->q[s].v);
    free(ls->ctx[s].v);
    for (int i = 0; i < ls->npes[s]; i++) free(ls->pes[s][i].ring);
    free(ls->pes[s]);
  }
  free(ls);
}

lockstep_status lockstep_header(lockstep *ls, lockstep_side side, int version,
                                uint64_t fingerprint) {
  if (ls->status != LOCKSTEP_RUNNING) return ls->status;
  ls->have_hdr[side] = 1;
  ls->version[side] = version;
  ls->fp[side] = fingerprint;
  if (!ls->have_hdr[0] || !ls->have_hdr[1]) return ls->status;
  lockstep_divergence *d = &ls->div;
  d->version_model = ls->version[0], d->version_rtl = ls->version[1];
  d->fp_model = ls->fp[0], d->fp_rtl = ls->fp[1];
  d->row = d->col = -1;
  if (ls->version[0] != ls->version[1]) d->diff = LOCKSTEP_DIFF_VERSION;
  else if (ls->fp[0] != ls->fp[1]) d->diff = LOCKSTEP_DIFF_FINGERPRINT;
  else return ls->status;
  return ls->status = LOCKSTEP_REFUSED;
}

lockstep_status lockstep_feed(lockstep *ls, lockstep_side side,
                              const trace_event *e) {
  if (ls->status != LOCKSTEP_RUNNING) return ls->status;
  if (ls->ended >= 0 && e->cycle <= (uint64_t)ls->ended)
    return lockstep_fail(ls, "%s event of cycle %" PRIu64 " fed after cycle %" PRId64
                         " was compared", lockstep_side_names[side], e->cycle, ls->ended);
  if ((unsigned)e->kind >= TRACE_KIND_COUNT)
    return lockstep_fail(ls, "%s event of unknown kind %d", lockstep_side_names[side],
                         (int)e->kind);
  if (!(ls->kinds & (1u << e->kind))) return ls->status;
  if (lockstep_vec_push(&ls->q[side], e)) return lockstep_fail(ls, "out of memory");
  return ls->status;
}

lockstep_status lockstep_feed_model(lockstep *ls, const trace_event *e) {
  return lockstep_feed(ls, LOCKSTEP_MODEL, e);
}

lockstep_status lockstep_feed_rtl(lockstep *ls, const trace_event *e) {
  return lockstep_feed(ls, LOCKSTEP_RTL, e);
}

/* qsort comparator in canonical trace order. */
static int lockstep_cmp(const void *a, const void *b) {
  return trace_event_compare(a, b);
}

/* Returns 1 when the events of v are in canonical order already (both
 * engines emit them so: the sort is then skipped). */
static int lockstep_sorted(const lockstep_vec *v) {
  for (size_t i = 1; i < v->n; i++)
    if (trace_event_compare(&v->v[i - 1], &v->v[i]) > 0) return 0;
  return 1;
}

/* Returns 1 when a and b occupy the same slot: kind, PE and unit (FU,
 * register, side and port or bank, fault kind and detail). */
static int lockstep_slot_same(const trace_event *a, const trace_event *b) {
  if (a->kind != b->kind || a->row != b->row || a->col != b->col) return 0;
  switch (a->kind) {
  case TRACE_ISSUE:
  case TRACE_INSN:
  case TRACE_FLAG:
  case TRACE_HALT: return a->fu == b->fu;
  case TRACE_WR: return a->fu == b->fu && a->reg_cls == b->reg_cls && a->reg_idx == b->reg_idx;
  case TRACE_POP:
  case TRACE_FDRD:
  case TRACE_RF:
  case TRACE_FIFO:
  case TRACE_PUSH: return a->reg_cls == b->reg_cls && a->reg_idx == b->reg_idx;
  case TRACE_HOP:
  case TRACE_BANK:
  case TRACE_BANKWR:
  case TRACE_AG: return a->side == b->side && a->port == b->port;
  case TRACE_MEM: return a->side == b->side && a->port == b->port && a->addr == b->addr;
  case TRACE_FAULT: return a->fault == b->fault && !strcmp(a->detail, b->detail);
  default: return 1;
  }
}

/* Writes a register name (rd3) into buf. */
static void lockstep_reg(char *buf, size_t sz, int cls, int idx) {
  const char *n = cls >= 0 && cls < 6 ? lockstep_reg_names[cls] : "?";
  snprintf(buf, sz, "%s%d", n, idx);
}

/* Writes the unit an event belongs to ("FU 1 -> rd3", "id2", "side e port
 * 0") into buf. */
static void lockstep_unit(const trace_event *e, char *buf, size_t sz) {
  char r[16];
  buf[0] = 0;
  switch (e->kind) {
  case TRACE_ISSUE:
  case TRACE_INSN:
  case TRACE_FLAG:
  case TRACE_HALT: snprintf(buf, sz, "FU %d", e->fu); break;
  case TRACE_STEP: snprintf(buf, sz, "step counter"); break;
  case TRACE_GC:
    if (e->row == TRACE_PLACE_GC) snprintf(buf, sz, "region of GC %d", e->col);
    else snprintf(buf, sz, "global controller");
    break;
  case TRACE_RSTART:
  case TRACE_RDONE: snprintf(buf, sz, "region of GC %d", e->col); break;
  case TRACE_BANKWR:
  case TRACE_AG:
    snprintf(buf, sz, "side %c bank %d", lockstep_side_chars[e->side & 3], e->port);
    break;
  case TRACE_MEM:
    snprintf(buf, sz, "side %c bank %d address %u", lockstep_side_chars[e->side & 3], e->port,
             e->addr);
    break;
  case TRACE_WR:
    lockstep_reg(r, sizeof r, e->reg_cls, e->reg_idx);
    snprintf(buf, sz, "FU %d -> %s", e->fu, r);
    break;
  case TRACE_POP:
  case TRACE_FDRD:
  case TRACE_RF:
  case TRACE_FIFO:
  case TRACE_PUSH: lockstep_reg(buf, sz, e->reg_cls, e->reg_idx); break;
  case TRACE_HOP:
    snprintf(buf, sz, "side %c port %d", lockstep_side_chars[e->side & 3], e->port);
    break;
  case TRACE_BANK:
    snprintf(buf, sz, "side %c bank %d", lockstep_side_chars[e->side & 3], e->port);
    break;
  case TRACE_FAULT:
    snprintf(buf, sz, "%s %s", trace_fault_name(e->fault) ? trace_fault_name(e->fault) : "?",
             e->detail);
    break;
  case TRACE_SIG: snprintf(buf, sz, "control signals"); break;
  default: break;
  }
}

/* Returns the history of PE (row, col) on `side`, created if new; NULL
 * when out of memory. */
static lockstep_pe *lockstep_pe_get(lockstep *ls, int side, int row, int col) {
  int *at = row >= -1 && col >= -1 && row < LOCKSTEP_GRID && col < LOCKSTEP_GRID
                ? &ls->pe_at[side][(row + 1) * (LOCKSTEP_GRID + 1) + col + 1]
                : NULL;
  if (at && *at) return &ls->pes[side][*at - 1];
  int n = ls->npes[side], h = ls->pe_hint[side];
  for (int k = 0; k < n; k++) { /* from the one after the last found: a kind's events go PE by PE */
    int i = h + 1 + k < n ? h + 1 + k : h + 1 + k - n;
    if (ls->pes[side][i].row == row && ls->pes[side][i].col == col) {
      ls->pe_hint[side] = i;
      return &ls->pes[side][i];
    }
  }
  if (ls->npes[side] == ls->cappes[side]) {
    int nc = ls->cappes[side] ? 2 * ls->cappes[side] : 16;
    lockstep_pe *p = realloc(ls->pes[side], (size_t)nc * sizeof *p);
    if (!p) return NULL;
    ls->pes[side] = p;
    ls->cappes[side] = nc;
  }
  lockstep_pe *pe = &ls->pes[side][ls->npes[side]];
  memset(pe, 0, sizeof *pe);
  pe->row = row, pe->col = col;
  if (!(pe->ring = calloc((size_t)ls->window, sizeof *pe->ring))) return NULL;
  if (at) *at = ls->npes[side] + 1;
  ls->pe_hint[side] = ls->npes[side]++;
  return pe;
}

/* Returns 0 after recording the events of the compared cycle in the
 * per-PE histories. */
static int lockstep_history_add(lockstep *ls, int side, const lockstep_vec *v) {
  for (size_t i = 0; i < v->n; i++) {
    lockstep_pe *pe = lockstep_pe_get(ls, side, v->v[i].row, v->v[i].col);
    if (!pe) return -1;
    pe->ring[pe->head] = v->v[i];
    if (++pe->head == ls->window) pe->head = 0;
    if (pe->count < ls->window) pe->count++;
    pe->total++;
  }
  return 0;
}

/* Returns 0 after building the report context of `side`: the last window
 * events of the divergent PE, i.e. its history and the events of the
 * divergence cycle that sort before `ref` (and `ref` itself, marked, when
 * the side has it: own != NULL). */
static int lockstep_context(lockstep *ls, int side, const trace_event *ref,
                            const trace_event *own) {
  lockstep_vec *c = &ls->ctx[side];
  const lockstep_divergence *d = &ls->div;
  c->n = 0;
  ls->ctx_mark[side] = -1;
  for (int i = 0; i < ls->npes[side]; i++) {
    lockstep_pe *pe = &ls->pes[side][i];
    if (pe->row != d->row || pe->col != d->col) continue;
    for (int k = 0; k < pe->count; k++) {
      int at = (pe->head - pe->count + k + ls->window) % ls->window;
      if (lockstep_vec_push(c, &pe->ring[at])) return -1;
    }
  }
  const lockstep_vec *q = &ls->q[side];
  for (size_t i = 0; i < q->n; i++) {
    const trace_event *e = &q->v[i];
    if (e->row != d->row || e->col != d->col) continue;
    if (e == own) {
      ls->ctx_mark[side] = (int)c->n;
      if (lockstep_vec_push(c, e)) return -1;
      break;
    }
    if (trace_event_compare(e, ref) >= 0) break;
    if (lockstep_vec_push(c, e)) return -1;
  }
  size_t drop = c->n > (size_t)ls->window ? c->n - (size_t)ls->window : 0;
  if (drop) {
    memmove(c->v, c->v + drop, (c->n - drop) * sizeof *c->v);
    c->n -= drop;
    if (ls->ctx_mark[side] >= 0) ls->ctx_mark[side] -= (int)drop;
  }
  return 0;
}

/* Returns LOCKSTEP_DIVERGED after recording a divergence between model
 * event m and RTL event r (either may be NULL: no partner). */
static lockstep_status lockstep_diverge(lockstep *ls, const trace_event *m,
                                        const trace_event *r) {
  lockstep_divergence *d = &ls->div;
  const trace_event *ref = m && r ? (trace_event_compare(m, r) < 0 ? m : r) : m ? m : r;
  d->diff = m && r ? LOCKSTEP_DIFF_VALUE : m ? LOCKSTEP_DIFF_MISSING : LOCKSTEP_DIFF_EXTRA;
  d->cycle = ref->cycle;
  d->row = ref->row, d->col = ref->col;
  d->kind = ref->kind;
  lockstep_unit(ref, d->unit, sizeof d->unit);
  d->has_model = m != NULL, d->has_rtl = r != NULL;
  if (m) d->model = *m;
  if (r) d->rtl = *r;
  if (lockstep_context(ls, 0, m ? m : r, m) || lockstep_context(ls, 1, r ? r : m, r))
    return lockstep_fail(ls, "out of memory");
  return ls->status = LOCKSTEP_DIVERGED;
}

/* Returns the status after comparing the two sorted queues. */
static lockstep_status lockstep_compare(lockstep *ls) {
  lockstep_vec *a = &ls->q[0], *b = &ls->q[1];
  size_t i = 0, j = 0;
  while (i < a->n && j < b->n) {
    const trace_event *m = &a->v[i], *r = &b->v[j];
    /* identical bytes are equal events (the usual case, cheap); else
     * compare field by field */
    int c = memcmp(m, r, sizeof *m) ? trace_event_compare(m, r) : 0;
    if (c == 0) {
      i++, j++;
      continue;
    }
    if (lockstep_slot_same(m, r)) return lockstep_diverge(ls, m, r);
    return c < 0 ? lockstep_diverge(ls, m, NULL) : lockstep_diverge(ls, NULL, r);
  }
  if (i < a->n) return lockstep_diverge(ls, &a->v[i], NULL);
  if (j < b->n) return lockstep_diverge(ls, NULL, &b->v[j]);
  for (size_t k = 0; k < a->n; k++) ls->per_kind[a->v[k].kind]++;
  ls->matched += a->n;
  if (a->n && a->v[a->n - 1].cycle > ls->last_cycle) ls->last_cycle = a->v[a->n - 1].cycle;
  return ls->status;
}

lockstep_status lockstep_end_cycle(lockstep *ls, uint64_t cycle) {
  if (ls->status != LOCKSTEP_RUNNING) return ls->status;
  for (int s = 0; s < 2; s++) {
    lockstep_vec *q = &ls->q[s];
    for (size_t i = 0; i < q->n; i++)
      if (q->v[i].cycle > cycle)
        return lockstep_fail(ls, "%s event of cycle %" PRIu64 " queued when cycle %" PRIu64
                             " ended", lockstep_side_names[s], q->v[i].cycle, cycle);
    if (!lockstep_sorted(q)) qsort(q->v, q->n, sizeof *q->v, lockstep_cmp);
  }
  if (lockstep_compare(ls) != LOCKSTEP_RUNNING) return ls->status;
  for (int s = 0; s < 2; s++) {
    if (lockstep_history_add(ls, s, &ls->q[s])) return lockstep_fail(ls, "out of memory");
    ls->q[s].n = 0;
  }
  if (cycle > INT64_MAX) return lockstep_fail(ls, "cycle %" PRIu64 " too large", cycle);
  ls->ended = (int64_t)cycle;
  return ls->status;
}

lockstep_status lockstep_finish(lockstep *ls) {
  if (ls->status != LOCKSTEP_RUNNING) return ls->status;
  uint64_t hi = 0;
  for (int s = 0; s < 2; s++)
    for (size_t i = 0; i < ls->q[s].n; i++)
      if (ls->q[s].v[i].cycle > hi) hi = ls->q[s].v[i].cycle;
  if (!ls->q[0].n && !ls->q[1].n) return ls->status;
  return lockstep_end_cycle(ls, hi);
}

lockstep_status lockstep_status_get(const lockstep *ls) { return ls->status; }

const lockstep_divergence *lockstep_result(const lockstep *ls) { return &ls->div; }

const char *lockstep_error_message(const lockstep *ls) { return ls->err; }

uint64_t lockstep_matched(const lockstep *ls) { return ls->matched; }

unsigned lockstep_kinds_parse(const char *list, char *bad, size_t badsz) {
  unsigned set = 0;
  const char *p = list;
  if (bad && badsz) bad[0] = 0;
  for (;;) {
    size_t n = strcspn(p, ",");
    int k;
    for (k = 0; k < TRACE_KIND_COUNT; k++) {
      const char *name = trace_kind_name((trace_kind)k);
      if (name && strlen(name) == n && !strncmp(p, name, n)) break;
    }
    if (k == TRACE_KIND_COUNT) {
      if (bad) snprintf(bad, badsz, "%.*s", (int)n, p);
      return 0;
    }
    set |= 1u << k;
    if (!p[n]) return set;
    p += n + 1;
  }
}

/* ---- the report ----------------------------------------------------------- */

/* Writes the place of the divergence: "PE (r,c)" or "the machine". */
static void lockstep_place(const lockstep_divergence *d, char *buf, size_t sz) {
  if (d->row == TRACE_PLACE_GC) snprintf(buf, sz, "the region of GC %d", d->col);
  else if (d->row < 0) snprintf(buf, sz, "the whole machine (-)");
  else snprintf(buf, sz, "PE (%d,%d)", d->row, d->col);
}

/* Writes one event line, or "(none)". */
static void lockstep_event_line(FILE *f, const char *label, const trace_event *e) {
  char line[256];
  if (e) trace_event_format(e, line, sizeof line);
  fprintf(f, "  %-18s %s\n", label, e ? line : "(no such event)");
}

/* Writes the context lines of one side. */
static void lockstep_report_context(const lockstep *ls, FILE *f, int side, const char *place) {
  const lockstep_vec *c = &ls->ctx[side];
  fprintf(f, "  last %zu event%s of %s in the %s:\n", c->n, c->n == 1 ? "" : "s", place,
          lockstep_side_names[side]);
  if (!c->n) fputs("      (none)\n", f);
  for (size_t i = 0; i < c->n; i++) {
    char line[256];
    trace_event_format(&c->v[i], line, sizeof line);
    fprintf(f, "    %c %s\n", (int)i == ls->ctx_mark[side] ? '>' : ' ', line);
  }
}

/* Writes the names of the compared kinds ("all" or a list). */
static void lockstep_report_kinds(const lockstep *ls, FILE *f) {
  if (ls->kinds == LOCKSTEP_KINDS_ALL) {
    fputs("all kinds", f);
    return;
  }
  fputs("kinds", f);
  for (int k = 0, n = 0; k < TRACE_KIND_COUNT; k++)
    if (ls->kinds & (1u << k)) fprintf(f, "%s%s", n++ ? "," : " ", trace_kind_name((trace_kind)k));
}

/* Writes the field of a value divergence in which m and r (same slot)
 * differ, with both values, into buf ("value: model 0x..., RTL 0x..."):
 * the first that differs in the order the event's text has them. */
void lockstep_differs(const trace_event *m, const trace_event *r, char *buf, size_t sz) {
  buf[0] = 0;
  if (m->pc != r->pc) {
    snprintf(buf, sz, "pc: model %d, RTL %d", m->pc, r->pc);
  } else if (memcmp(m->word, r->word, sizeof m->word)) {
    snprintf(buf, sz, "word: model 0x%08x%08x%08x%08x, RTL 0x%08x%08x%08x%08x", m->word[3],
             m->word[2], m->word[1], m->word[0], r->word[3], r->word[2], r->word[1], r->word[0]);
  } else if (m->num != r->num) {
    snprintf(buf, sz, "%s: model %u, RTL %u", m->kind == TRACE_FIFO ? "count" : "step", m->num,
             r->num);
  } else if (m->bank_write != r->bank_write) {
    snprintf(buf, sz, "direction: model %s, RTL %s", m->bank_write ? "wr" : "rd",
             r->bank_write ? "wr" : "rd");
  } else if (m->addr != r->addr) {
    snprintf(buf, sz, "address: model %u, RTL %u", m->addr, r->addr);
  } else if (m->value != r->value) {
    const char *n = m->kind == TRACE_SIG || m->kind == TRACE_GC ? "vector"
                    : m->kind == TRACE_FLAG                   ? "flag"
                                                              : "value";
    if (m->kind == TRACE_FLAG)
      snprintf(buf, sz, "%s: model %u, RTL %u", n, m->value, r->value);
    else
      snprintf(buf, sz, "%s: model 0x%08x, RTL 0x%08x", n, m->value, r->value);
  } else if (m->cycles != r->cycles) {
    snprintf(buf, sz, "cycles: model %" PRIu64 ", RTL %" PRIu64, m->cycles, r->cycles);
  }
}

/* Writes the report of a divergence. */
static void lockstep_report_divergence(const lockstep *ls, FILE *f) {
  const lockstep_divergence *d = &ls->div;
  char place[48];
  lockstep_place(d, place, sizeof place);
  const char *kind = trace_kind_name(d->kind);
  const char *what = d->diff == LOCKSTEP_DIFF_VALUE ? "different values in the two traces"
                     : d->diff == LOCKSTEP_DIFF_MISSING ? "in the model, missing in the RTL"
                                                        : "in the RTL, missing in the model";
  fprintf(f, "lockstep: DIVERGENCE at cycle %" PRIu64 ", %s\n", d->cycle, place);
  fprintf(f, "  event:             %s%s%s%s: %s\n", kind, d->unit[0] ? " (" : "", d->unit,
          d->unit[0] ? ")" : "", what);
  lockstep_event_line(f, "expected (model):", d->has_model ? &d->model : NULL);
  lockstep_event_line(f, "actual (RTL):", d->has_rtl ? &d->rtl : NULL);
  if (d->diff == LOCKSTEP_DIFF_VALUE) {
    char diff[160];
    lockstep_differs(&d->model, &d->rtl, diff, sizeof diff);
    if (diff[0]) fprintf(f, "  differs:           %s\n", diff);
  }
  fprintf(f, "  before it:         %" PRIu64 " events agreed", ls->matched);
  if (ls->ended >= 0) fprintf(f, " in cycles 0..%" PRId64, ls->ended);
  fputs(" (", f);
  lockstep_report_kinds(ls, f);
  fputs(" compared)\n", f);
  lockstep_report_context(ls, f, 0, place);
  lockstep_report_context(ls, f, 1, place);
}

/* Writes the summary of agreeing traces: counts per kind and per PE. */
static void lockstep_report_summary(const lockstep *ls, FILE *f) {
  fprintf(f, "lockstep: the traces agree: %" PRIu64 " events", ls->matched);
  if (ls->matched) fprintf(f, " in cycles 0..%" PRIu64, ls->last_cycle);
  fputs(" (", f);
  lockstep_report_kinds(ls, f);
  fputs(" compared)\n  per kind:", f);
  for (int k = 0; k < TRACE_KIND_COUNT; k++)
    if (ls->per_kind[k]) fprintf(f, " %s %" PRIu64, trace_kind_name((trace_kind)k), ls->per_kind[k]);
  fputs("\n  per PE:  ", f);
  for (int i = 0; i < ls->npes[0]; i++) {
    const lockstep_pe *pe = &ls->pes[0][i];
    if (pe->row == TRACE_PLACE_GC) fprintf(f, " gc%d %" PRIu64, pe->col, pe->total);
    else if (pe->row < 0) fprintf(f, " - %" PRIu64, pe->total);
    else fprintf(f, " (%d,%d) %" PRIu64, pe->row, pe->col, pe->total);
  }
  fputc('\n', f);
}

void lockstep_report_write(const lockstep *ls, FILE *f) {
  const lockstep_divergence *d = &ls->div;
  switch (ls->status) {
  case LOCKSTEP_RUNNING: lockstep_report_summary(ls, f); break;
  case LOCKSTEP_DIVERGED: lockstep_report_divergence(ls, f); break;
  case LOCKSTEP_REFUSED:
    if (d->diff == LOCKSTEP_DIFF_VERSION)
      fprintf(f, "lockstep: REFUSED: trace format version %d (model) and %d (RTL) differ\n",
              d->version_model, d->version_rtl);
    else
      fprintf(f, "lockstep: REFUSED: the traces are of different architectures: fingerprint "
              "0x%016" PRIx64 " (model) and 0x%016" PRIx64 " (RTL)\n", d->fp_model, d->fp_rtl);
    break;
  case LOCKSTEP_ERROR: fprintf(f, "lockstep: error: %s\n", ls->err); break;
  }
}

/* ---- trace files ---------------------------------------------------------- */

/* One trace file being read, with one event of look-ahead. */
typedef struct {
  const char *path;
  FILE *f;
  char *line;
  size_t cap;
  int lineno;
  int have; /* ev holds the next event */
  trace_event ev;
} lockstep_reader;

int lockstep_fst_parse(const char *line, lockstep_fst_timing *t) {
  unsigned long long t0, per;
  int n = 0;
  if (sscanf(line, "# fst t0=%llu period=%llu%n", &t0, &per, &n) != 2 || !n || per == 0)
    return -1;
  t->t0 = t0, t->period = per, t->declared = 1;
  return 0;
}

/* Returns the status after reading the next event of r into r->ev (r->have
 * is 0 at the end of the file); header and comments are handled here. */
static lockstep_status lockstep_read(lockstep *ls, lockstep_reader *r, int side,
                                     lockstep_fst_timing *timing) {
  r->have = 0;
  for (;;) {
    errno = 0;
    ssize_t n = getline(&r->line, &r->cap, r->f);
    if (n < 0) {
      if (errno && errno != EINVAL)
        return lockstep_fail(ls, "%s: cannot read: %s", r->path, strerror(errno));
      if (r->lineno == 0)
        return lockstep_fail(ls, "%s:1:1: error: empty file, expected the header "
                             "'# tcpa-trace 1 fp=0x...'", r->path);
      return ls->status;
    }
    r->lineno++;
    if (r->lineno == 1) {
      int ver;
      uint64_t fp;
      if (trace_header_parse(r->line, &ver, &fp))
        return lockstep_fail(ls, "%s:1:1: error: expected the header '# tcpa-trace %d fp=0x<16 "
                             "hex digits>' (docs/trace.md)", r->path, TRACE_VERSION);
      if (lockstep_header(ls, (lockstep_side)side, ver, fp) != LOCKSTEP_RUNNING) return ls->status;
      continue;
    }
    char msg[200] = "";
    int col = 1;
    int k = trace_line_parse_at(r->line, &r->ev, &col, msg, sizeof msg);
    if (k == TRACE_LINE_COMMENT) {
      if (timing && side == LOCKSTEP_RTL) lockstep_fst_parse(r->line, timing);
      continue;
    }
    if (k == TRACE_LINE_ERROR) return lockstep_fail(ls, "%s:%d:%d: error: %s", r->path, r->lineno, col, msg);
    r->have = 1;
    return ls->status;
  }
}

/* Returns the status after feeding every event of r of cycle `cycle` and
 * reading on; events must not go back in cycle. */
static lockstep_status lockstep_feed_cycle(lockstep *ls, lockstep_reader *r, int side,
                                           uint64_t cycle, lockstep_fst_timing *timing) {
  while (r->have && r->ev.cycle == cycle) {
    if (lockstep_feed(ls, (lockstep_side)side, &r->ev) != LOCKSTEP_RUNNING) return ls->status;
    if (lockstep_read(ls, r, side, timing) != LOCKSTEP_RUNNING) return ls->status;
    if (r->have && r->ev.cycle < cycle)
      return lockstep_fail(ls, "%s:%d:1: error: cycle %" PRIu64 " after cycle %" PRIu64
                           " (events must be in cycle order)", r->path, r->lineno,
                           r->ev.cycle, cycle);
  }
  return ls->status;
}

lockstep_status lockstep_files_check(lockstep *ls, const char *model_path,
                                     const char *rtl_path,
                                     lockstep_fst_timing *timing) {
  lockstep_reader rd[2] = {{.path = model_path}, {.path = rtl_path}};
  if (timing) *timing = (lockstep_fst_timing){0, LOCKSTEP_FST_PERIOD_DEFAULT, 0};
  for (int s = 0; s < 2 && ls->status == LOCKSTEP_RUNNING; s++)
    if (!(rd[s].f = fopen(rd[s].path, "r")))
      lockstep_fail(ls, "%s: cannot open: %s", rd[s].path, strerror(errno));
  /* both headers first, so a refusal comes before any comparison */
  for (int s = 0; s < 2 && ls->status == LOCKSTEP_RUNNING; s++)
    lockstep_read(ls, &rd[s], s, timing);
  while (ls->status == LOCKSTEP_RUNNING && (rd[0].have || rd[1].have)) {
    uint64_t cyc = !rd[0].have ? rd[1].ev.cycle
                 : !rd[1].have ? rd[0].ev.cycle
                 : rd[0].ev.cycle < rd[1].ev.cycle ? rd[0].ev.cycle : rd[1].ev.cycle;
    for (int s = 0; s < 2 && ls->status == LOCKSTEP_RUNNING; s++)
      lockstep_feed_cycle(ls, &rd[s], s, cyc, timing);
    if (ls->status == LOCKSTEP_RUNNING) lockstep_end_cycle(ls, cyc);
  }
  if (ls->status == LOCKSTEP_RUNNING) lockstep_finish(ls);
  for (int s = 0; s < 2; s++) {
    if (rd[s].f) fclose(rd[s].f);
    free(rd[s].line);
  }
  return ls->status;
}
