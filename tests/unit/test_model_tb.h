/*
 * test_model_tb.h: a small bench for the C model tests (test_model*.c):
 * builds a configuration stream packet by packet with stream_writer and
 * hand-assembled programs (isa_insn_parse), starts the model on it and
 * captures the trace as text, one line per event.
 *
 * Every helper records failures in tb->bad with a message, so a test that
 * builds a wrong stream fails loudly instead of testing nothing.
 */
#ifndef TEST_MODEL_TB_H
#define TEST_MODEL_TB_H

#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stream.h"
#include "test.h"

typedef struct {
  arch_config cfg;
  stream_writer w;
  int bad;
  char why[512];
  char *trace; /* captured event lines (the datapath events) */
  size_t tlen, tcap;
  char *state; /* the state events (docs/trace.md "State events") */
  size_t slen, scap;
} tb;

/* docs/arch.md defaults, spelled out so the tests need no INI file. */
static inline arch_config tb_default_arch(void) {
  arch_config c = {.rows = 4, .cols = 4, .alu = 2, .mul = 1, .div = 0,
                   .rd = 4, .fd = 4, .fd_depth = 32, .id = 4, .od = 4,
                   .fifo_depth = 8, .imem = 32, .branch_targets = 2,
                   .lat_alu = 1, .lat_mul = 2, .lat_div = 8, .ports = 4,
                   .gc_signals = 8, .gc_dims = 6, .gc_history = 128, .banks = 4,
                   .bank_depth = 1024};
  return c;
}

static inline void tb_init(tb *b, arch_config cfg) {
  memset(b, 0, sizeof *b);
  b->cfg = cfg;
  stream_writer_init(&b->w, &cfg);
}

static inline void tb_free(tb *b) {
  stream_writer_free(&b->w);
  free(b->trace);
  free(b->state);
}

/* Records that building the stream failed. */
static inline void tb_fail(tb *b, const char *what, const char *msg) {
  if (!b->bad) snprintf(b->why, sizeof b->why, "%s: %s", what, msg);
  b->bad = 1;
}

/* Appends a raw packet. */
static inline void tb_pkt(tb *b, stream_packet_type type, int index, int side,
                          stream_rect r, const uint32_t *words, uint32_t n) {
  if (stream_writer_packet(&b->w, type, index, side, r, words, n))
    tb_fail(b, "packet", b->w.msg);
}

/* Appends the program of FU `fu` for rectangle r from assembly lines. */
static inline void tb_prog(tb *b, stream_rect r, int fu, const char *const *lines,
                           int n) {
  isa_word words[256];
  for (int i = 0; i < n; i++) {
    isa_insn in;
    int col = 0;
    char msg[200] = "";
    memset(&words[i], 0, sizeof words[i]);
    if (isa_insn_parse(lines[i], &in, &col, msg, sizeof msg) != ISA_OK ||
        isa_encode(&in, &words[i]) != ISA_OK) {
      tb_fail(b, lines[i], msg);
      return;
    }
  }
  if (stream_writer_program(&b->w, r, fu, words, n)) tb_fail(b, "program", b->w.msg);
}

/* Wrapper sink and source numbers (stream.md). */
static inline int tb_sink_id(const tb *b, int k) { (void)b; return k; }
static inline int tb_sink_out(const tb *b, int side, int port) {
  return b->cfg.id + side * b->cfg.ports + port;
}
static inline int tb_src_od(const tb *b, int k) { (void)b; return k; }
static inline int tb_src_in(const tb *b, int side, int port) {
  return b->cfg.od + side * b->cfg.ports + port;
}

/* Appends a WRAPPER packet: pairs[2i] sink <- pairs[2i+1] source. */
static inline void tb_wrapper(tb *b, stream_rect r, const int *pairs, int npairs) {
  uint32_t w[256] = {0};
  for (int i = 0; i < npairs; i++) w[pairs[2 * i]] = 1u + (uint32_t)pairs[2 * i + 1];
  tb_pkt(b, STREAM_PKT_WRAPPER, 0, 0, r, w, (uint32_t)(b->cfg.id + 4 * b->cfg.ports));
}

/* Appends a GC packet from its payload words (stream.md layout). */
static inline void tb_gc(tb *b, int g, stream_rect r, const uint32_t *w, uint32_t n) {
  tb_pkt(b, STREAM_PKT_GC, g, 0, r, w, n);
}

/* Appends START of GC g on rectangle r. */
static inline void tb_start(tb *b, int g, stream_rect r) {
  tb_pkt(b, STREAM_PKT_START, g, 0, r, NULL, 0);
}

/* Returns 1 when e is one of the state events of docs/trace.md. */
static inline int tb_is_state(const trace_event *e) {
  switch (e->kind) {
  case TRACE_STEP: case TRACE_GC: case TRACE_INSN: case TRACE_RF: case TRACE_FLAG:
  case TRACE_FIFO: case TRACE_BANKWR: case TRACE_AG: case TRACE_MEM: return 1;
  default: return 0;
  }
}

/* Trace sink: appends the event's text and a newline to b->trace (the
 * state events to b->state). */
static inline void tb_sink(const trace_event *e, void *ctx) {
  tb *b = ctx;
  char line[256];
  int n = trace_event_format(e, line, sizeof line);
  char **buf = tb_is_state(e) ? &b->state : &b->trace;
  size_t *len = tb_is_state(e) ? &b->slen : &b->tlen, *cap0 = tb_is_state(e) ? &b->scap : &b->tcap;
  if (*len + (size_t)n + 2 > *cap0) {
    size_t cap = *cap0 ? 2 * *cap0 : 4096;
    while (cap < *len + (size_t)n + 2) cap *= 2;
    char *t = realloc(*buf, cap);
    if (!t) return;
    *buf = t;
    *cap0 = cap;
  }
  memcpy(*buf + *len, line, (size_t)n);
  *len += (size_t)n;
  (*buf)[(*len)++] = '\n';
  (*buf)[*len] = 0;
}

/* Returns the model of the stream built so far (trace captured), or NULL
 * after recording why. */
static inline model *tb_model(tb *b) {
  uint8_t *buf = NULL;
  size_t len = 0;
  if (b->bad) return NULL;
  if (stream_writer_finish(&b->w, &buf, &len)) {
    tb_fail(b, "finish", b->w.msg);
    return NULL;
  }
  model_error err;
  model *m = model_new(&b->cfg, buf, len, &err);
  free(buf);
  if (!m) {
    tb_fail(b, "model_new", err.msg);
    return NULL;
  }
  model_set_trace(m, tb_sink, b);
  return m;
}

/* Returns 1 when the captured trace contains the line `line`. */
static inline int tb_has(const tb *b, const char *line) {
  size_t n = strlen(line);
  for (const char *p = b->trace; p && (p = strstr(p, line)); p++)
    if ((p == b->trace || p[-1] == '\n') && p[n] == '\n') return 1;
  return 0;
}

/* Returns 1 when the captured state events equal `want`; else prints both. */
static inline int tb_state_is(const tb *b, const char *want) {
  const char *got = b->state ? b->state : "";
  if (!strcmp(got, want)) return 1;
  printf("# expected state events:\n%s# got:\n%s", want, got);
  return 0;
}

/* Returns 1 when the captured trace equals `want`; else prints both. */
static inline int tb_trace_is(const tb *b, const char *want) {
  const char *got = b->trace ? b->trace : "";
  if (!strcmp(got, want)) return 1;
  printf("# expected trace:\n%s# got:\n%s", want, got);
  return 0;
}

#endif
