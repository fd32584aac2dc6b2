/*
 * trace.c: the trace events of trace.h / docs/trace.md: formatting, parsing
 * and the canonical order.
 *
 * The parser splits a line into space-separated tokens, reads the fields
 * of the event kind named by the second token, and then formats the event
 * it read and compares that text with the line: any line that is not the
 * exact canonical text (leading zeros, upper-case hex, two spaces, ...) is
 * refused, so parse and format are inverse on every accepted line.
 */
#include "trace.h"

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "isa.h"
#include "trace_digest.h"

static const char *const trace_kind_names[TRACE_KIND_COUNT] = {
    "start", "sig", "step", "gc", "issue", "insn", "halt",
    "pop", "fdrd", "wr", "rf", "flag", "hop", "push", "fifo",
    "bank", "bankwr", "ag", "fault", "mem", "done", "rstart", "rdone"};

static const char *const trace_fault_names[TRACE_FAULT_COUNT] = {
    "underflow", "overflow", "wconflict", "stray",
    "agmiss", "agrange", "leftover", "timeout"};

static const char trace_side_chars[4] = {'n', 'e', 's', 'w'};

const char *trace_kind_name(trace_kind k) {
  return (unsigned)k < TRACE_KIND_COUNT ? trace_kind_names[k] : NULL;
}

int trace_kind_rank(trace_kind k) {
  if (k == TRACE_RSTART) return 0;
  if (k == TRACE_RDONE) return TRACE_DONE + 1;
  return k == TRACE_DONE ? TRACE_DONE + 2 : (int)k + 1;
}

const char *trace_fault_name(trace_fault_kind f) {
  return (unsigned)f < TRACE_FAULT_COUNT ? trace_fault_names[f] : NULL;
}

/* Returns the text prefix of a register class ("rd", "fd", "od", "id"). */
static const char *trace_reg_prefix(int cls) {
  switch (cls) {
  case ISA_CLS_RD: return "rd";
  case ISA_CLS_FD: return "fd";
  case ISA_CLS_OD: return "od";
  case ISA_CLS_ID: return "id";
  default: return "??";
  }
}

/* The text of one event being formed (trace_event_format): at most a few
 * dozen characters, appended without printf. */
typedef struct {
  char s[320];
  int n;
} trace_text;

/* Appends string z (NULL: nothing) to t. */
static void trace_put_s(trace_text *t, const char *z) {
  while (z && *z && t->n < (int)sizeof t->s - 1) t->s[t->n++] = *z++;
}

/* Appends character c to t. */
static void trace_put_c(trace_text *t, char c) {
  if (t->n < (int)sizeof t->s - 1) t->s[t->n++] = c;
}

/* Appends the decimal digits of v to t (as %llu). */
static void trace_put_u(trace_text *t, unsigned long long v) {
  char d[24];
  int k = 0;
  do {
    d[k++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (k) trace_put_c(t, d[--k]);
}

/* Appends v in decimal to t (as %d). */
static void trace_put_d(trace_text *t, int v) {
  if (v < 0) trace_put_c(t, '-');
  trace_put_u(t, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);
}

/* Appends the 8 lower-case hex digits of v to t (as %08x). */
static void trace_put_x8(trace_text *t, uint32_t v) {
  static const char hex[] = "0123456789abcdef";
  for (int k = 7; k >= 0; k--) trace_put_c(t, hex[v >> (4 * k) & 15]);
}

/* Appends " 0x" and the 8 hex digits of v to t. */
static void trace_put_hex(trace_text *t, uint32_t v) {
  trace_put_s(t, " 0x");
  trace_put_x8(t, v);
}

/* Appends a space and v in decimal to t. */
static void trace_put_sd(trace_text *t, int v) {
  trace_put_c(t, ' ');
  trace_put_d(t, v);
}

/* Appends a space and v in decimal to t. */
static void trace_put_su(trace_text *t, unsigned long long v) {
  trace_put_c(t, ' ');
  trace_put_u(t, v);
}

/* Appends the fields after the place of e to t. */
static void trace_put_fields(trace_text *t, const trace_event *e) {
  const char *rp = trace_reg_prefix(e->reg_cls);
  char side[3] = {' ', trace_side_chars[e->side & 3], 0};
  switch (e->kind) {
  case TRACE_START: return;
  case TRACE_SIG: trace_put_hex(t, e->value); return;
  case TRACE_ISSUE: trace_put_sd(t, e->fu); trace_put_sd(t, e->pc); return;
  case TRACE_HALT: trace_put_sd(t, e->fu); return;
  case TRACE_STEP: trace_put_su(t, e->num); return;
  case TRACE_GC: trace_put_su(t, e->num); trace_put_hex(t, e->value); return;
  case TRACE_INSN:
    trace_put_sd(t, e->fu);
    trace_put_hex(t, e->word[3]);
    for (int k = 2; k >= 0; k--) trace_put_x8(t, e->word[k]);
    return;
  case TRACE_FLAG: trace_put_sd(t, e->fu); trace_put_su(t, e->value); return;
  case TRACE_RF:
  case TRACE_POP:
  case TRACE_FDRD:
  case TRACE_PUSH:
    trace_put_c(t, ' '), trace_put_s(t, rp), trace_put_d(t, e->reg_idx);
    trace_put_hex(t, e->value);
    return;
  case TRACE_FIFO: trace_put_c(t, ' '), trace_put_s(t, rp), trace_put_d(t, e->reg_idx), trace_put_su(t, e->num); return;
  case TRACE_BANKWR:
  case TRACE_MEM:
  case TRACE_AG:
    trace_put_s(t, side), trace_put_sd(t, e->port), trace_put_su(t, e->addr);
    if (e->kind != TRACE_AG) trace_put_hex(t, e->value);
    return;
  case TRACE_WR:
    trace_put_sd(t, e->fu);
    trace_put_c(t, ' '), trace_put_s(t, rp), trace_put_d(t, e->reg_idx);
    trace_put_hex(t, e->value);
    return;
  case TRACE_HOP: trace_put_s(t, side), trace_put_sd(t, e->port), trace_put_hex(t, e->value); return;
  case TRACE_BANK:
    trace_put_s(t, side), trace_put_sd(t, e->port);
    trace_put_s(t, e->bank_write ? " wr" : " rd"), trace_put_su(t, e->addr), trace_put_hex(t, e->value);
    return;
  case TRACE_FAULT: {
    const char *fn = trace_fault_name(e->fault);
    trace_put_c(t, ' '), trace_put_s(t, fn ? fn : "?"), trace_put_c(t, ' '), trace_put_s(t, e->detail);
    return;
  }
  case TRACE_DONE:
  case TRACE_RDONE: trace_put_su(t, (unsigned long long)e->cycles); return;
  default: return;
  }
}

int trace_event_format(const trace_event *e, char *buf, size_t bufsz) {
  /* one text appended piece by piece: the lockstep checker formats every
   * line it parses (canonical form) and the model every event it traces,
   * a hundred a cycle, so no printf (docs/testing.md "Simulator speed") */
  trace_text t = {.n = 0};
  const char *kn = trace_kind_name(e->kind);
  trace_put_u(&t, (unsigned long long)e->cycle);
  if (!kn) {
    trace_put_s(&t, " ?");
  } else {
    trace_put_c(&t, ' ');
    trace_put_s(&t, kn);
    trace_put_c(&t, ' ');
    if (e->row == TRACE_PLACE_GC) trace_put_d(&t, e->col);
    else if (e->row < 0) trace_put_c(&t, '-');
    else trace_put_d(&t, e->row), trace_put_c(&t, ','), trace_put_d(&t, e->col);
    trace_put_fields(&t, e);
  }
  if (bufsz) {
    size_t n = (size_t)t.n < bufsz - 1 ? (size_t)t.n : bufsz - 1;
    memcpy(buf, t.s, n);
    buf[n] = 0;
  }
  return t.n;
}

void trace_header_write(FILE *f, uint64_t fingerprint) {
  fprintf(f, "# tcpa-trace %d fp=0x%016llx\n", TRACE_VERSION,
          (unsigned long long)fingerprint);
}

void trace_event_write(FILE *f, const trace_event *e) {
  char buf[256];
  trace_event_format(e, buf, sizeof buf);
  fputs(buf, f);
  fputc('\n', f);
}

/* ---- parser ----------------------------------------------------------------- */

#define TRACE_MAX_TOKENS 10

typedef struct {
  const char *tok[TRACE_MAX_TOKENS];
  int len[TRACE_MAX_TOKENS];
  int col[TRACE_MAX_TOKENS]; /* 1-based */
  int n;
} trace_tokens;

/* Returns -1 after writing the reason into msg and its column into *colp,
 * or, when colp is NULL, "column N: reason" into msg. */
static int trace_fail(char *msg, size_t msgsz, int *colp, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int trace_fail(char *msg, size_t msgsz, int *colp, int col, const char *fmt, ...) {
  if (colp) *colp = col;
  if (msg && msgsz) {
    int k = colp ? 0 : snprintf(msg, msgsz, "column %d: ", col);
    va_list ap;
    va_start(ap, fmt);
    if (k >= 0 && (size_t)k < msgsz) vsnprintf(msg + k, msgsz - (size_t)k, fmt, ap);
    va_end(ap);
  }
  return TRACE_LINE_ERROR;
}

/* Returns 1 when token i equals the string s. */
static int trace_tok_is(const trace_tokens *t, int i, const char *s) {
  return (int)strlen(s) == t->len[i] && !strncmp(t->tok[i], s, (size_t)t->len[i]);
}

/* Returns 0 and the unsigned decimal value of token i in *v (at most
 * `max`); -1 if it is not one. */
static int trace_tok_dec(const trace_tokens *t, int i, uint64_t max,
                         uint64_t *v) {
  uint64_t x = 0;
  if (t->len[i] < 1 || t->len[i] > 20) return -1;
  for (int k = 0; k < t->len[i]; k++) {
    char c = t->tok[i][k];
    if (c < '0' || c > '9') return -1;
    if (x > (max - (uint64_t)(c - '0')) / 10) return -1;
    x = x * 10 + (uint64_t)(c - '0');
  }
  if (x > max) return -1; /* one digit above a small max passes the loop */
  *v = x;
  return 0;
}

/* Returns 0 and the value of a token `0x` + 8 hex digits; -1 otherwise. */
static int trace_tok_hex(const trace_tokens *t, int i, uint32_t *v) {
  if (t->len[i] != 10 || t->tok[i][0] != '0' || t->tok[i][1] != 'x') return -1;
  uint32_t x = 0;
  for (int k = 2; k < 10; k++) {
    char c = t->tok[i][k];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return -1;
    x = x << 4 | (uint32_t)d;
  }
  *v = x;
  return 0;
}

/* Returns 0 and the four words (w[3] first in the text) of a token `0x`
 * + 32 hex digits; -1 otherwise. */
static int trace_tok_hex128(const trace_tokens *t, int i, uint32_t w[4]) {
  if (t->len[i] != 34 || t->tok[i][0] != '0' || t->tok[i][1] != 'x') return -1;
  for (int k = 0; k < 4; k++) {
    uint32_t x = 0;
    for (int j = 0; j < 8; j++) {
      char c = t->tok[i][2 + 8 * k + j];
      int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) return -1;
      x = x << 4 | (uint32_t)d;
    }
    w[3 - k] = x;
  }
  return 0;
}

/* Returns 0 and the class and index of a register token (`rd3`, `id0`)
 * whose class is one of those allowed by the bit mask `cls_mask`. */
static int trace_tok_reg(const trace_tokens *t, int i, unsigned cls_mask,
                         int *cls, int *idx) {
  static const int classes[] = {ISA_CLS_RD, ISA_CLS_FD, ISA_CLS_OD, ISA_CLS_ID};
  if (t->len[i] < 3) return -1;
  for (int k = 0; k < 4; k++) {
    const char *p = trace_reg_prefix(classes[k]);
    if (!(cls_mask & 1u << classes[k]) || strncmp(t->tok[i], p, 2)) continue;
    trace_tokens one = {{t->tok[i] + 2}, {t->len[i] - 2}, {0}, 1};
    uint64_t v;
    if (trace_tok_dec(&one, 0, ISA_MAX_REGS - 1, &v)) return -1;
    *cls = classes[k];
    *idx = (int)v;
    return 0;
  }
  return -1;
}

/* Returns 0 and the side number of a token `n`, `e`, `s` or `w`. */
static int trace_tok_side(const trace_tokens *t, int i, int *side) {
  if (t->len[i] != 1) return -1;
  const char *p = memchr(trace_side_chars, t->tok[i][0], 4);
  if (!p) return -1;
  *side = (int)(p - trace_side_chars);
  return 0;
}

/* Returns 0 and the place of token i: `R,C`, or, when allow_machine, `-`,
 * or, when allow_gc, a GC number G (row TRACE_PLACE_GC, column G). */
static int trace_tok_place(const trace_tokens *t, int i, int allow_machine, int allow_gc,
                           int *row, int *col) {
  if (trace_tok_is(t, i, "-")) {
    if (!allow_machine) return -1;
    *row = *col = -1;
    return 0;
  }
  const char *comma = memchr(t->tok[i], ',', (size_t)t->len[i]);
  if (!comma) {
    uint64_t g;
    if (!allow_gc || trace_tok_dec(t, i, TRACE_GCS - 1, &g)) return -1;
    *row = TRACE_PLACE_GC;
    *col = (int)g;
    return 0;
  }
  int rl = (int)(comma - t->tok[i]);
  trace_tokens rc = {{t->tok[i], comma + 1}, {rl, t->len[i] - rl - 1}, {0}, 2};
  uint64_t r, c;
  if (trace_tok_dec(&rc, 0, 65535, &r) || trace_tok_dec(&rc, 1, 65535, &c))
    return -1;
  *row = (int)r;
  *col = (int)c;
  return 0;
}

/* Returns the number of fields after the place that event kind k has. */
static int trace_kind_nfields(trace_kind k) {
  static const int n[TRACE_KIND_COUNT] = {0, 1, 1, 2, 2, 2, 1, 2, 2, 3, 2,
                                          2, 3, 2, 2, 5, 4, 3, 2, 4, 1, 0, 1};
  return n[k];
}

/* Returns 0 after reading the fields (tokens 3..) of an event of kind
 * e->kind into e; -1 with the offending token's index in *bad. */
static int trace_fields_parse(const trace_tokens *t, trace_event *e, int *bad) {
  uint64_t v;
  int i = 3;
  switch (e->kind) {
  case TRACE_START:
    return 0;
  case TRACE_SIG:
    return (*bad = i, trace_tok_hex(t, i, &e->value));
  case TRACE_STEP:
  case TRACE_GC:
    if ((*bad = i, trace_tok_dec(t, i, UINT32_MAX, &v))) return -1;
    e->num = (uint32_t)v;
    if (e->kind == TRACE_STEP) return 0;
    return (*bad = ++i, trace_tok_hex(t, i, &e->value));
  case TRACE_INSN:
    if ((*bad = i, trace_tok_dec(t, i, ISA_MAX_FUS - 1, &v))) return -1;
    e->fu = (int)v;
    return (*bad = ++i, trace_tok_hex128(t, i, e->word));
  case TRACE_FLAG:
    if ((*bad = i, trace_tok_dec(t, i, ISA_MAX_FUS - 1, &v))) return -1;
    e->fu = (int)v;
    if ((*bad = ++i, trace_tok_dec(t, i, 1, &v))) return -1;
    e->value = (uint32_t)v;
    return 0;
  case TRACE_RF: {
    unsigned m = 1u << ISA_CLS_RD | 1u << ISA_CLS_FD | 1u << ISA_CLS_OD;
    if ((*bad = i, trace_tok_reg(t, i, m, &e->reg_cls, &e->reg_idx))) return -1;
    return (*bad = ++i, trace_tok_hex(t, i, &e->value));
  }
  case TRACE_FIFO:
    if ((*bad = i, trace_tok_reg(t, i, 1u << ISA_CLS_ID, &e->reg_cls, &e->reg_idx)))
      return -1;
    if ((*bad = ++i, trace_tok_dec(t, i, UINT32_MAX, &v))) return -1;
    e->num = (uint32_t)v;
    return 0;
  case TRACE_BANKWR:
  case TRACE_MEM:
  case TRACE_AG:
    if ((*bad = i, trace_tok_side(t, i, &e->side))) return -1;
    if ((*bad = ++i, trace_tok_dec(t, i, 65535, &v))) return -1;
    e->port = (int)v;
    if ((*bad = ++i, trace_tok_dec(t, i, UINT32_MAX, &v))) return -1;
    e->addr = (uint32_t)v;
    if (e->kind == TRACE_AG) return 0;
    return (*bad = ++i, trace_tok_hex(t, i, &e->value));
  case TRACE_ISSUE:
  case TRACE_HALT:
    if ((*bad = i, trace_tok_dec(t, i, ISA_MAX_FUS - 1, &v))) return -1;
    e->fu = (int)v;
    if (e->kind == TRACE_HALT) return 0;
    if ((*bad = ++i, trace_tok_dec(t, i, ISA_MAX_IMEM - 1, &v))) return -1;
    e->pc = (int)v;
    return 0;
  case TRACE_POP:
  case TRACE_PUSH:
  case TRACE_FDRD: {
    unsigned m = e->kind == TRACE_FDRD ? 1u << ISA_CLS_FD : 1u << ISA_CLS_ID;
    if ((*bad = i, trace_tok_reg(t, i, m, &e->reg_cls, &e->reg_idx))) return -1;
    return (*bad = ++i, trace_tok_hex(t, i, &e->value));
  }
  case TRACE_WR: {
    unsigned m = 1u << ISA_CLS_RD | 1u << ISA_CLS_FD | 1u << ISA_CLS_OD;
    if ((*bad = i, trace_tok_dec(t, i, ISA_MAX_FUS - 1, &v))) return -1;
    e->fu = (int)v;
    if ((*bad = ++i, trace_tok_reg(t, i, m, &e->reg_cls, &e->reg_idx))) return -1;
    return (*bad = ++i, trace_tok_hex(t, i, &e->value));
  }
  case TRACE_HOP:
  case TRACE_BANK:
    if ((*bad = i, trace_tok_side(t, i, &e->side))) return -1;
    if ((*bad = ++i, trace_tok_dec(t, i, 65535, &v))) return -1;
    e->port = (int)v;
    if (e->kind == TRACE_BANK) {
      *bad = ++i;
      if (trace_tok_is(t, i, "wr")) e->bank_write = 1;
      else if (!trace_tok_is(t, i, "rd")) return -1;
      if ((*bad = ++i, trace_tok_dec(t, i, UINT32_MAX, &v))) return -1;
      e->addr = (uint32_t)v;
    }
    return (*bad = ++i, trace_tok_hex(t, i, &e->value));
  case TRACE_FAULT:
    *bad = i;
    for (int f = 0; f < TRACE_FAULT_COUNT; f++)
      if (trace_tok_is(t, i, trace_fault_names[f])) {
        e->fault = (trace_fault_kind)f;
        *bad = ++i;
        if (t->len[i] < 1 || t->len[i] >= TRACE_DETAIL_MAX) return -1;
        memcpy(e->detail, t->tok[i], (size_t)t->len[i]);
        e->detail[t->len[i]] = 0;
        return 0;
      }
    return -1;
  case TRACE_RSTART:
    return 0;
  case TRACE_DONE:
  case TRACE_RDONE:
    if ((*bad = i, trace_tok_dec(t, i, UINT64_MAX, &v))) return -1;
    e->cycles = v;
    return 0;
  default:
    return -1;
  }
}

/* Returns the number of tokens of `line` split at single spaces (at most
 * TRACE_MAX_TOKENS + 1, so that too many tokens is detected). */
static int trace_split(const char *line, size_t len, trace_tokens *t) {
  t->n = 0;
  size_t i = 0;
  while (i <= len && t->n < TRACE_MAX_TOKENS) {
    size_t j = i;
    while (j < len && line[j] != ' ') j++;
    t->tok[t->n] = line + i;
    t->len[t->n] = (int)(j - i);
    t->col[t->n] = (int)i + 1;
    t->n++;
    if (j >= len) return t->n;
    i = j + 1;
  }
  return TRACE_MAX_TOKENS + 1;
}

/* trace_line_parse, with the column of an error in *colp (msg: the
 * reason alone) unless colp is NULL. */
static int trace_parse(const char *line, trace_event *e, int *colp, char *msg, size_t msgsz) {
  memset(e, 0, sizeof *e);
  size_t len = strlen(line);
  if (len && line[len - 1] == '\n') len--;
  if (len && line[len - 1] == '\r') len--;
  if (len == 0 || line[0] == '#') return TRACE_LINE_COMMENT;
  if (len > 200) return trace_fail(msg, msgsz, colp, 1, "line too long");
  trace_tokens t;
  int n = trace_split(line, len, &t);
  if (n < 3) return trace_fail(msg, msgsz, colp, 1, "expected CYCLE EVENT PLACE ...");
  uint64_t v;
  if (trace_tok_dec(&t, 0, UINT64_MAX, &v))
    return trace_fail(msg, msgsz, colp, 1, "cycle is not a decimal number");
  e->cycle = v;
  int k;
  for (k = 0; k < TRACE_KIND_COUNT; k++)
    if (trace_tok_is(&t, 1, trace_kind_names[k])) break;
  if (k == TRACE_KIND_COUNT)
    return trace_fail(msg, msgsz, colp, t.col[1], "unknown event '%.*s'", t.len[1],
                      t.tok[1]);
  e->kind = (trace_kind)k;
  int machine_ok = e->kind == TRACE_FAULT || e->kind == TRACE_DONE || e->kind == TRACE_GC;
  int gc_only = e->kind == TRACE_RSTART || e->kind == TRACE_RDONE;
  if (trace_tok_place(&t, 2, machine_ok, gc_only || e->kind == TRACE_GC, &e->row, &e->col) ||
      ((e->kind == TRACE_DONE || e->kind == TRACE_GC) && e->row >= 0) ||
      (gc_only && e->row != TRACE_PLACE_GC))
    return trace_fail(msg, msgsz, colp, t.col[2], "bad place '%.*s' for %s",
                      t.len[2], t.tok[2], trace_kind_names[k]);
  if (n != 3 + trace_kind_nfields(e->kind))
    return trace_fail(msg, msgsz, colp, 1, "%s takes %d fields, the line has %d",
                      trace_kind_names[k], trace_kind_nfields(e->kind), n - 3);
  int bad = 3;
  if (trace_fields_parse(&t, e, &bad))
    return trace_fail(msg, msgsz, colp, t.col[bad], "bad field '%.*s' of %s",
                      t.len[bad], t.tok[bad], trace_kind_names[k]);
  char canon[256];
  int cl = trace_event_format(e, canon, sizeof canon);
  if (cl != (int)len || strncmp(canon, line, len)) {
    int c = 0;
    while (c < cl && (size_t)c < len && canon[c] == line[c]) c++;
    return trace_fail(msg, msgsz, colp, c + 1, "not in canonical form (expected '%s')",
                      canon);
  }
  return TRACE_LINE_EVENT;
}

int trace_line_parse(const char *line, trace_event *e, char *msg, size_t msgsz) {
  return trace_parse(line, e, NULL, msg, msgsz);
}

int trace_line_parse_at(const char *line, trace_event *e, int *col, char *msg, size_t msgsz) {
  *col = 1;
  return trace_parse(line, e, col, msg, msgsz);
}

int trace_header_parse(const char *line, int *version, uint64_t *fingerprint) {
  int ver, n = 0;
  unsigned long long fp;
  if (sscanf(line, "# tcpa-trace %d fp=0x%16llx%n", &ver, &fp, &n) != 2 || n == 0)
    return -1;
  if (line[n] && line[n] != '\n' && line[n] != '\r') return -1;
  *version = ver;
  *fingerprint = fp;
  return 0;
}

/* ---- canonical order -------------------------------------------------------- */

/* Returns -1, 0 or 1 comparing two unsigned numbers. */
static int trace_cmp_u(uint64_t a, uint64_t b) { return (a > b) - (a < b); }

/* Returns the sort key of a place: PEs by row and column, then GCs by
 * number, `-` last. */
static uint64_t trace_place_key(const trace_event *e) {
  if (e->row == TRACE_PLACE_GC) return UINT64_MAX - TRACE_GCS + (uint32_t)e->col;
  if (e->row < 0) return UINT64_MAX;
  return (uint64_t)e->row << 32 | (uint32_t)e->col;
}

/* Returns the sort key of a register: rd, fd before od, then id; index. */
static int trace_reg_key(const trace_event *e) {
  int rank = e->reg_cls == ISA_CLS_RD ? 0 : e->reg_cls == ISA_CLS_FD ? 1
           : e->reg_cls == ISA_CLS_OD ? 2 : 3;
  return rank * 64 + e->reg_idx;
}

int trace_event_compare(const trace_event *a, const trace_event *b) {
  int c;
  if ((c = trace_cmp_u(a->cycle, b->cycle))) return c;
  if (a->kind != b->kind)
    return trace_cmp_u((unsigned)trace_kind_rank(a->kind), (unsigned)trace_kind_rank(b->kind));
  if ((c = trace_cmp_u(trace_place_key(a), trace_place_key(b)))) return c;
  switch (a->kind) {
  case TRACE_SIG:
    return trace_cmp_u(a->value, b->value);
  case TRACE_ISSUE:
    if ((c = trace_cmp_u((unsigned)a->fu, (unsigned)b->fu))) return c;
    return trace_cmp_u((unsigned)a->pc, (unsigned)b->pc);
  case TRACE_HALT:
    return trace_cmp_u((unsigned)a->fu, (unsigned)b->fu);
  case TRACE_STEP:
    return trace_cmp_u(a->num, b->num);
  case TRACE_GC:
    if ((c = trace_cmp_u(a->num, b->num))) return c;
    return trace_cmp_u(a->value, b->value);
  case TRACE_INSN:
    if ((c = trace_cmp_u((unsigned)a->fu, (unsigned)b->fu))) return c;
    for (int k = 3; k >= 0; k--)
      if ((c = trace_cmp_u(a->word[k], b->word[k]))) return c;
    return 0;
  case TRACE_FLAG:
    if ((c = trace_cmp_u((unsigned)a->fu, (unsigned)b->fu))) return c;
    return trace_cmp_u(a->value, b->value);
  case TRACE_RF:
  case TRACE_FIFO:
    if ((c = trace_cmp_u((unsigned)trace_reg_key(a), (unsigned)trace_reg_key(b))))
      return c;
    if ((c = trace_cmp_u(a->num, b->num))) return c;
    return trace_cmp_u(a->value, b->value);
  case TRACE_BANKWR:
  case TRACE_AG:
  case TRACE_MEM:
    if ((c = trace_cmp_u((unsigned)a->side, (unsigned)b->side))) return c;
    if ((c = trace_cmp_u((unsigned)a->port, (unsigned)b->port))) return c;
    if ((c = trace_cmp_u(a->addr, b->addr))) return c;
    return trace_cmp_u(a->value, b->value);
  case TRACE_WR:
  case TRACE_POP:
  case TRACE_FDRD:
  case TRACE_PUSH: /* FU (0 but for wr), register, value */
    if ((c = trace_cmp_u((unsigned)a->fu, (unsigned)b->fu))) return c;
    if ((c = trace_cmp_u((unsigned)trace_reg_key(a), (unsigned)trace_reg_key(b))))
      return c;
    return trace_cmp_u(a->value, b->value);
  case TRACE_HOP:
  case TRACE_BANK:
    if ((c = trace_cmp_u((unsigned)a->side, (unsigned)b->side))) return c;
    if ((c = trace_cmp_u((unsigned)a->port, (unsigned)b->port))) return c;
    if ((c = trace_cmp_u((unsigned)a->bank_write, (unsigned)b->bank_write))) return c;
    if ((c = trace_cmp_u(a->addr, b->addr))) return c;
    return trace_cmp_u(a->value, b->value);
  case TRACE_FAULT: {
    const char *fa = trace_fault_name(a->fault), *fb = trace_fault_name(b->fault);
    if ((c = strcmp(fa ? fa : "", fb ? fb : ""))) return c < 0 ? -1 : 1;
    c = strcmp(a->detail, b->detail);
    return (c > 0) - (c < 0);
  }
  case TRACE_DONE:
  case TRACE_RDONE:
    return trace_cmp_u(a->cycles, b->cycles);
  default:
    return 0;
  }
}

/* ---- the binary event stream ------------------------------------------------ */

/* The record layout of docs/trace.md "Binary event stream": the harness
 * (tb/rtl_collect.h, rtl_record) writes these offsets. */
_Static_assert(sizeof(trace_event) == TRACE_BIN_RECORD, "trace_event is not the binary record");
_Static_assert(TRACE_DIGEST_RECORD == TRACE_BIN_RECORD && TRACE_DIGEST_KIND_FAULT == TRACE_FAULT &&
                   TRACE_DIGEST_KIND_INSN == TRACE_INSN && TRACE_DIGEST_KIND_DONE == TRACE_DONE &&
                   TRACE_DIGEST_KIND_RDONE == TRACE_RDONE &&
                   offsetof(trace_event, word[1]) == 64 && offsetof(trace_event, cycles) == 112 &&
                   TRACE_DIGEST_DETAIL == offsetof(trace_event, detail) &&
                   TRACE_DIGEST_DETAIL_MAX == TRACE_DETAIL_MAX && offsetof(trace_event, kind) == 8,
               "trace_digest.h does not describe the binary record");
_Static_assert(sizeof(trace_kind) == 4 && sizeof(trace_fault_kind) == 4, "enums are not 32-bit");
_Static_assert(offsetof(trace_event, kind) == 8 && offsetof(trace_event, row) == 12 &&
                   offsetof(trace_event, fu) == 20 && offsetof(trace_event, reg_cls) == 28 &&
                   offsetof(trace_event, side) == 36 && offsetof(trace_event, bank_write) == 44 &&
                   offsetof(trace_event, addr) == 48 && offsetof(trace_event, num) == 56 &&
                   offsetof(trace_event, word) == 60 && offsetof(trace_event, fault) == 76 &&
                   offsetof(trace_event, detail) == 80 && offsetof(trace_event, cycles) == 112,
               "trace_event's layout differs from the binary record");
_Static_assert(sizeof(trace_bin_header) == 48, "trace_bin_header is not 48 bytes");

int trace_bin_header_check(const trace_bin_header *h, char *msg, size_t msgsz) {
  if (memcmp(h->magic, TRACE_BIN_MAGIC, 8) && memcmp(h->magic, TRACE_BIN_DIGEST_MAGIC, 8)) {
    int text = !memcmp(h->magic, "# tcpa-t", 8);
    snprintf(msg, msgsz, "%s (expected the binary event stream's magic 'tcpa-ev')",
             text ? "it writes a text trace, not binary records: a harness built before --trace-bin"
                  : "it does not start with the binary event stream's header");
    return -1;
  }
  if (h->version != TRACE_BIN_VERSION || h->record_size != TRACE_BIN_RECORD) {
    snprintf(msg, msgsz, "binary event stream version %u with %u-byte records; this tcpa reads version %d, %d bytes "
             "(rebuild the harness)", h->version, h->record_size, TRACE_BIN_VERSION, TRACE_BIN_RECORD);
    return -1;
  }
  return 0;
}

int trace_bin_header_digest(const trace_bin_header *h) { return !memcmp(h->magic, TRACE_BIN_DIGEST_MAGIC, 8); }

/* Returns 0 when the place of e suits its kind: a PE for most kinds, `-`
 * for fault, done and gc, a GC (0..3) for rstart, rdone and gc; -1 with
 * the reason in msg. */
static int trace_bin_place_check(const trace_event *e, char *msg, size_t msgsz) {
  const char *kn = trace_kind_names[e->kind];
  int machine = e->row == -1 && e->col == -1;
  int gc_place = e->row == TRACE_PLACE_GC && e->col >= 0 && e->col < TRACE_GCS;
  int gc_only = e->kind == TRACE_RSTART || e->kind == TRACE_RDONE;
  if (gc_place || gc_only) {
    if (gc_place && (gc_only || e->kind == TRACE_GC)) return 0;
    snprintf(msg, msgsz, "%s at place %d,%d (a GC place is for gc, rstart and rdone only, and needed by the "
             "last two)", kn, e->row, e->col);
    return -1;
  }
  if (!machine && (e->row < 0 || e->row > 65535 || e->col < 0 || e->col > 65535)) {
    snprintf(msg, msgsz, "%s at place %d,%d", kn, e->row, e->col);
    return -1;
  }
  if (machine ? !(e->kind == TRACE_FAULT || e->kind == TRACE_DONE || e->kind == TRACE_GC)
              : (e->kind == TRACE_DONE || e->kind == TRACE_GC)) {
    snprintf(msg, msgsz, "%s at place %s", kn, machine ? "-" : "of a PE");
    return -1;
  }
  return 0;
}

int trace_bin_event_check(const trace_event *e, char *msg, size_t msgsz) {
  if ((unsigned)e->kind >= TRACE_KIND_COUNT) {
    snprintf(msg, msgsz, "unknown event kind %d", (int)e->kind);
    return -1;
  }
  const char *kn = trace_kind_names[e->kind];
  if (trace_bin_place_check(e, msg, msgsz)) return -1;
  if (e->side < 0 || e->side > 3 || e->fu < 0 || e->fu >= ISA_MAX_FUS || e->reg_idx < 0 ||
      e->reg_idx >= ISA_MAX_REGS) {
    snprintf(msg, msgsz, "%s with side %d, FU %d or register index %d out of range", kn, e->side, e->fu,
             e->reg_idx);
    return -1;
  }
  switch (e->kind) {
  case TRACE_POP: case TRACE_PUSH: case TRACE_FIFO:
    if (e->reg_cls == ISA_CLS_ID) return 0;
    break;
  case TRACE_FDRD:
    if (e->reg_cls == ISA_CLS_FD) return 0;
    break;
  case TRACE_WR: case TRACE_RF:
    if (e->reg_cls == ISA_CLS_RD || e->reg_cls == ISA_CLS_FD || e->reg_cls == ISA_CLS_OD) return 0;
    break;
  case TRACE_FAULT: {
    size_t n = strnlen(e->detail, TRACE_DETAIL_MAX);
    if ((unsigned)e->fault >= TRACE_FAULT_COUNT || n == 0 || n == TRACE_DETAIL_MAX ||
        memchr(e->detail, ' ', n)) {
      snprintf(msg, msgsz, "fault of kind %d with a detail that is empty, has a space or no end", (int)e->fault);
      return -1;
    }
    return 0;
  }
  default:
    return 0;
  }
  snprintf(msg, msgsz, "%s with register class %d", kn, e->reg_cls);
  return -1;
}
