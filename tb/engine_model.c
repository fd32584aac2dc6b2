/*
 * engine_model.c: the `model` engine: the configuration stream on the
 * cycle-accurate C model (cmodel/model.h), in process. A trace sink sees
 * every event: it remembers the last output bank write (for `cycles`) and,
 * when asked, writes the trace text (docs/trace.md) to a temporary file
 * renamed into place after the run; with o->fst the model's own waveform
 * (cmodel/model_fst.h) is written too. After done, the outputs are read from
 * the model's banks through the placement of the configuration.
 *
 * The sink and the result gathering are shared with the lockstep driver
 * (engine_cosim.c), which steps the model itself, cycle by cycle.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "model.h"
#include "model_fst.h"

void engine_model_event(const trace_event *e, void *ctx) {
  engine_model_sink *s = ctx;
  engine_model_sink_note(s, e);
  if (s->f) trace_event_write(s->f, e);
  if (s->next) s->next(e, s->next_ctx);
  if (s->tap) s->tap(e, s->tap_ctx);
}

/* Reads a bank word of the model (engine_bank_fn). */
static int engine_model_bank(void *ctx, int row, int col, int side, int bank, uint32_t addr, uint32_t *v) {
  return model_bank_read((const model *)ctx, row, col, side, bank, addr, v);
}

/* Writes "kind N, kind N" of the faults of m into buf. */
static void engine_model_faults(const model *m, char *buf, size_t sz) {
  size_t len = 0;
  buf[0] = 0;
  for (int k = 0; k < TRACE_FAULT_COUNT && len < sz; k++) {
    uint64_t n = model_faults(m, (trace_fault_kind)k);
    if (n)
      len += (size_t)snprintf(buf + len, sz - len, "%s%s %llu", len ? ", " : "",
                              trace_fault_name((trace_fault_kind)k), (unsigned long long)n);
  }
}

int engine_model_trace_close(FILE *f, const char *tmp, const char *path, char *msg, size_t msgsz) {
  int bad = ferror(f);
  if (fclose(f)) bad = 1;
  if (!bad && !rename(tmp, path)) return 0;
  snprintf(msg, msgsz, "%s: cannot write the trace: %s", path, strerror(errno));
  remove(tmp);
  return -1;
}

int engine_model_run(const engine_config *c, const arch_config *arch, const engine_opts *o,
                     engine_result *r, char *msg, size_t msgsz) {
  model_error err;
  if (engine_result_init(r, c)) {
    snprintf(msg, msgsz, "out of memory");
    return ENGINE_ERR_INPUT;
  }
  model *m = model_new(arch, c->stream, c->stream_len, &err);
  if (!m) {
    snprintf(msg, msgsz, "the C model refuses the stream: %s", err.msg);
    return ENGINE_ERR_INPUT;
  }
  engine_model_sink sink = {NULL, 0, 0, NULL, NULL, o->tap, o->tap_ctx};
  char tmp[4200];
  if (o->trace) {
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", o->trace, (long)getpid());
    if (!(sink.f = fopen(tmp, "w"))) {
      snprintf(msg, msgsz, "%s: cannot write the trace: %s", o->trace, strerror(errno));
      model_free(m);
      return ENGINE_ERR_INPUT;
    }
    trace_header_write(sink.f, c->fingerprint);
    fputs("# engine C model (tcpa run)\n", sink.f);
  }
  model_fst *w = NULL;
  if (o->fst && !(w = model_fst_open(o->fst, arch, 0, msg, msgsz))) {
    if (sink.f) fclose(sink.f);
    if (sink.f) remove(tmp);
    model_free(m);
    return ENGINE_ERR_INPUT;
  }
  sink.next = w ? model_fst_sink : NULL;
  sink.next_ctx = w;
  model_set_trace(m, engine_model_event, &sink);
  if (w) model_fst_run(m, w, o->max_cycles);
  else model_run(m, o->max_cycles); /* a timeout leaves model_done 0 */
  int st = ENGINE_OK;
  if (sink.f && engine_model_trace_close(sink.f, tmp, o->trace, msg, msgsz)) st = ENGINE_ERR_INPUT;
  if (model_fst_close(w, msg, msgsz)) st = ENGINE_ERR_INPUT;
  engine_model_result(m, &sink, c, r);
  model_free(m);
  return st;
}

void engine_model_result(const model *m, const engine_model_sink *s, const engine_config *c,
                         engine_result *r) {
  r->done = model_done(m);
  r->done_cycles = r->done ? s->done_cycles : 0;
  r->cycles = s->last_write;
  r->faults = model_faults(m, TRACE_FAULT_COUNT);
  engine_model_faults(m, r->fault_text, sizeof r->fault_text);
  engine_outputs_gather(c, r, engine_model_bank, (void *)m);
}

int engine_model_fst(const engine_config *c, const arch_config *arch, const char *fst, uint64_t t0,
                     uint64_t max_cycles, char *msg, size_t msgsz) {
  model_error err;
  model *m = model_new(arch, c->stream, c->stream_len, &err);
  if (!m) {
    snprintf(msg, msgsz, "the C model refuses the stream: %s", err.msg);
    return ENGINE_ERR_INPUT;
  }
  model_fst *w = model_fst_open(fst, arch, t0, msg, msgsz);
  int st = w ? ENGINE_OK : ENGINE_ERR_INPUT;
  if (w) {
    model_set_trace(m, model_fst_sink, w);
    model_fst_run(m, w, max_cycles);
    if (model_fst_close(w, msg, msgsz)) st = ENGINE_ERR_INPUT;
  }
  model_free(m);
  return st;
}
