/*
 * rt_engine.c: start and wait of the host runtime on the C model
 * (tcpa_rt.h, docs/runtime.md "Running").
 *
 * tcpa_rt_start emits the kernel's configuration stream (inst_emit, with
 * its input values as IODATA packets, docs/stream.md) and adds it to the
 * run: the streams of the kernels in flight, run together by one model
 * (model_new_multi, docs/timing.md section 11), each from its start
 * cycle. A stream's start cycle is the earliest its loading window
 * allows: its W = 6 + LENGTH words are loaded after the cycle the run has
 * reached and after the previous stream's start (t_k - W_k >= t_(k-1)).
 * The model takes its streams when it is made, so a stream added to a
 * run already under way makes a new model of all the run's streams,
 * stepped again to the cycle the run had reached: the model is
 * deterministic and a region runs as it would alone (section 11), so the
 * regions already running see the same cycles. When every kernel of the
 * run is done, the next start begins a new run at cycle 0.
 *
 * tcpa_rt_wait steps the model until the kernel's region is done, at
 * most the timeout's cycles. After every cycle, the outputs of each
 * region done in that cycle are read from the banks (model_bank_read at
 * the places inst_layout_each gave), before a later stream can load
 * those banks again.
 */
#include <stdlib.h>
#include <string.h>

#include "rt_impl.h"

void rt_engine_free(rt_run *run) {
  model_free(run->m);
  for (int i = 0; i < run->n; i++) free(run->bytes[i]);
  memset(run, 0, sizeof *run);
}

void rt_engine_forget(tcpa_rt_array *a, const tcpa_rt_kernel *k) {
  for (int i = 0; i < a->run.n; i++)
    if (a->run.who[i] == k) a->run.who[i] = NULL;
}

/* Returns 1 when no kernel of the run still runs. */
static int rt_engine_idle(const rt_run *run) {
  for (int i = 0; i < run->n; i++)
    if (run->who[i] && run->who[i]->state == RT_K_RUNNING) return 0;
  return 1;
}

/* Returns 1 when the region of stream i is done, its cycles (start to
 * done) in *cycles. A model of one stream keeps no regions apart
 * (model.h): its region is done when the model is. */
static int rt_engine_region_done(const rt_run *run, int i, uint64_t *cycles) {
  model_region_view v;
  if (run->n == 1) {
    *cycles = model_cycles(run->m);
    return model_done(run->m);
  }
  if (model_region_get(run->m, i, &v) || !v.done) return 0;
  *cycles = v.cycles;
  return 1;
}

/* Reads the outputs of the kernel of stream i, done after `cycles`, from
 * the banks. */
static void rt_engine_gather(rt_run *run, int i, uint64_t cycles) {
  tcpa_rt_kernel *k = run->who[i];
  run->gathered[i] = 1;
  if (!k) return;
  for (size_t p = 0; p < k->nplace; p++) {
    const inst_place *pl = &k->place[p];
    uint32_t w = 0;
    model_bank_read(run->m, pl->row, pl->col, pl->side, pl->bank, (uint32_t)pl->addr, &w);
    rt_buf *b = &k->buf[pl->array];
    if (pl->lin >= 0 && (size_t)pl->lin < b->n) b->data[pl->lin] = (int32_t)w;
  }
  k->cycles = cycles;
  k->state = RT_K_DONE;
}

/* Runs one cycle of the run's model and reads the outputs of the regions
 * done in it. */
static void rt_engine_step(rt_run *run) {
  model_step(run->m);
  for (int i = 0; i < run->n; i++) {
    uint64_t cycles;
    if (!run->gathered[i] && rt_engine_region_done(run, i, &cycles)) rt_engine_gather(run, i, cycles);
  }
}

/* Returns TCPA_RT_OK after emitting k's stream (its inputs as IODATA)
 * into *bytes, *len. */
static tcpa_rt_status rt_engine_emit(tcpa_rt_kernel *k, uint8_t **bytes, size_t *len) {
  tcpa_rt_array *a = k->a;
  int n = k->m.narrays;
  int32_t **vals = calloc((size_t)n + 1, sizeof *vals);
  int64_t *count = calloc((size_t)n + 1, sizeof *count);
  if (!vals || !count) {
    free(vals);
    free(count);
    return rt_array_fail(a, TCPA_RT_INTERNAL, "start: out of memory");
  }
  for (int i = 0; i < n; i++)
    if (!k->buf[i].is_out) vals[i] = k->buf[i].data, count[i] = (int64_t)k->buf[i].n;
  inst_data d = {vals, count};
  stream_writer w;
  stream_writer_init(&w, &a->cfg);
  char msg[512] = "";
  tcpa_rt_status s = TCPA_RT_OK;
  int st = inst_emit(&k->x, &d, &w, msg, sizeof msg);
  if (st == INST_ERR_NOFIT) {
    const fit_item *it = k->x.fit.n ? &k->x.fit.item[0] : NULL;
    s = rt_array_refuse(a, TCPA_RT_NOFIT, TCPA_RT_WHY_RESOURCE, -1, it ? it->key : "", it ? it->need : -1,
                        it ? it->have : -1, "start %s: %s", k->m.name, msg);
  } else if (st) {
    s = rt_array_fail(a, TCPA_RT_INVALID, "start %s: %s", k->m.name, msg);
  } else if ((st = stream_writer_finish(&w, bytes, len))) {
    s = rt_array_fail(a, TCPA_RT_INTERNAL, "start %s: the stream: %s (%s)", k->m.name, w.msg, stream_error_name(st));
  }
  stream_writer_free(&w);
  free(vals);
  free(count);
  return s;
}

/* Returns TCPA_RT_OK after making the run's model anew from its streams
 * and stepping it to cycle `to` (the cycle the previous model reached). */
static tcpa_rt_status rt_engine_remake(tcpa_rt_array *a, uint64_t to) {
  rt_run *run = &a->run;
  model_error err;
  model *m = model_new_multi(&a->cfg, run->in, run->n, &err);
  if (!m) return rt_array_fail(a, TCPA_RT_ENGINE, "start: the C model refuses the streams: %s", err.msg);
  model_free(run->m);
  run->m = m;
  while (model_cycles(m) < to && !model_failed(m, NULL)) model_step(m);
  return TCPA_RT_OK;
}

tcpa_rt_status tcpa_rt_start(tcpa_rt_kernel *k) {
  if (!k) return TCPA_RT_INVALID;
  tcpa_rt_array *a = k->a;
  if (k->state == RT_K_LOADED)
    return rt_array_fail(a, TCPA_RT_STATE, "start %s: the kernel is not instantiated", k->m.name);
  if (k->state == RT_K_RUNNING)
    return rt_array_fail(a, TCPA_RT_STATE, "start %s: it runs already; wait for it first", k->m.name);
  rt_run *run = &a->run;
  if (rt_engine_idle(run)) rt_engine_free(run);
  if (run->n == STREAM_GCS)
    return rt_array_refuse(a, TCPA_RT_NOFIT, TCPA_RT_WHY_STREAMS, -1, "", STREAM_GCS + 1, STREAM_GCS,
                           "start %s: the model runs %d streams already; wait for the kernels in flight first",
                           k->m.name, STREAM_GCS);
  uint8_t *bytes;
  size_t len;
  tcpa_rt_status s = rt_engine_emit(k, &bytes, &len);
  if (s) return s;
  uint64_t now = run->m ? model_cycles(run->m) : 0, words = len / 4;
  uint64_t after = run->n ? run->in[run->n - 1].start : 0;
  if (now > after) after = now;
  int i = run->n++;
  run->bytes[i] = bytes;
  run->in[i] = (model_stream_in){bytes, len, i ? after + words : 0};
  run->who[i] = k;
  run->gathered[i] = 0;
  k->slot = i;
  k->state = RT_K_RUNNING;
  if ((s = rt_engine_remake(a, now))) {
    k->state = RT_K_READY;
    run->who[i] = NULL;
    free(bytes);
    run->n--;
    return s;
  }
  return rt_array_ok(a);
}

tcpa_rt_status tcpa_rt_wait(tcpa_rt_kernel *k, unsigned long long timeout, unsigned long long *cycles) {
  if (!k) return TCPA_RT_INVALID;
  tcpa_rt_array *a = k->a;
  rt_run *run = &a->run;
  if (k->state != RT_K_RUNNING && k->state != RT_K_DONE)
    return rt_array_fail(a, TCPA_RT_STATE, "wait %s: the kernel was not started", k->m.name);
  if (k->state == RT_K_DONE) {
    if (cycles) *cycles = k->cycles;
    return rt_array_ok(a);
  }
  uint64_t limit = timeout ? timeout : TCPA_RT_WAIT_MAX, ran = 0;
  while (k->state == RT_K_RUNNING && ran < limit && !model_failed(run->m, NULL) && !model_done(run->m)) {
    rt_engine_step(run);
    ran++;
  }
  model_error err;
  if (model_failed(run->m, &err)) {
    k->state = RT_K_READY;
    return rt_array_fail(a, TCPA_RT_ENGINE, "wait %s: the C model stopped: %s", k->m.name, err.msg);
  }
  if (k->state == RT_K_RUNNING && model_done(run->m)) {
    k->state = RT_K_READY;
    return rt_array_fail(a, TCPA_RT_ENGINE, "wait %s: the model is done but its region never was", k->m.name);
  }
  if (k->state == RT_K_RUNNING)
    return rt_array_refuse(a, TCPA_RT_TIMEOUT, TCPA_RT_WHY_NONE, -1, "", -1, (long long)limit,
                           "wait %s: not done after %llu more cycles (cycle %llu of the run); it still runs",
                           k->m.name, (unsigned long long)limit, (unsigned long long)model_cycles(run->m));
  uint64_t faults = model_faults(run->m, TRACE_FAULT_COUNT);
  if (cycles) *cycles = k->cycles;
  if (faults != run->faults) {
    unsigned long long nf = faults - run->faults;
    run->faults = faults;
    return rt_array_fail(a, TCPA_RT_ENGINE, "wait %s: the model raised %llu fault%s in the run (its outputs are read "
                         "but suspect)", k->m.name, nf, nf == 1 ? "" : "s");
  }
  return rt_array_ok(a);
}
