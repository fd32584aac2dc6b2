/*
 * engine_predict.c: the latency the schedule predicts for an instantiated
 * configuration, from timing.md and the numbers the instantiation chose
 * (docs/user-guide.md, "Cycles"):
 *
 *   d(k)   = d0 + lambda^K * k     start delay of PE k (d0 = -lambda^K (t-1)
 *                                  when lambda^K < 0, else 0; GC packet; 2-D:
 *                                  d0 + LR r + LC c, inst_pe_delay)
 *   S      = P + epilog + sigma    GC steps (tile iterations, epilog steps,
 *                                  prolog steps)
 *   phase  = sigma * pi + offset   an access's AG phase (+ lag for an access
 *                                  served through pass-through hops, inst.h)
 *
 * An AG's event of step s is at d(k) + s*pi + phase (timing.md 6). The
 * last output write is the largest such cycle over the output accesses, the
 * PEs and the steps in which the PE writes an element; `cycles` is it + 1.
 * The machine is done (timing.md 7) when every AG has passed its last event
 * d(k) + (S-1)*pi + phase and every FU program (sigma prolog steps, then
 * P + its epilog steps) has issued its final word, at local time
 * (sigma + P + epilog_fu) * pi - 1, one cycle later when a branch
 * reaches its halt (the `nop ; halt` word after the kernels, halt_late in
 * inst.h); `done` is the later of the two + 1.
 * Results still in flight after a halt always land before the last AG
 * event of the same step (an output's write event comes after its od write)
 * so they do not appear in the formula; a mismatch with an engine's done
 * shows when that argument fails.
 */
#include "engine_flow.h"

/* Returns the start delay of PE k of x (the GC packet's delays). */
static int64_t engine_delay(const inst *x, int k) { return inst_pe_delay(x, k); }

/* Returns the start delay of the AG serving access a of PE k: its own
 * PE's, or the border PE's whose bank serves it (2-D pass-through). */
static int64_t engine_ag_delay(const inst *x, int a, int k) {
  const inst_io *io = &x->io[a];
  return io->lag ? engine_delay(x, io->prow[k] * x->tc + io->pcol[k]) : engine_delay(x, k);
}

/* Returns the lag of access a's bank events for PE k (2-D pass-through). */
static int64_t engine_lag(const inst *x, int a, int k) { return x->io[a].lag ? x->io[a].lag[k] : 0; }

/* Returns 1 when access a places an element on PE k. */
static int engine_access_on(const inst *x, int a, int k) {
  for (int64_t s = 0; s < x->P; s++)
    if (x->io[a].elem_lin[k * x->P + s] >= 0) return 1;
  return 0;
}

void engine_predict(const inst *x, uint64_t *done, uint64_t *cycles) {
  const int64_t pi = x->m->ii, S = x->P + x->epilog + x->sigma;
  int64_t last_done = -1, last_write = -1;
  for (int k = 0; k < x->t; k++) {
    int64_t d = engine_delay(x, k);
    for (int a = 0; a < x->m->naccess; a++) {
      if (!engine_access_on(x, a, k)) continue;
      int64_t dag = engine_ag_delay(x, a, k);
      int64_t phase = x->sigma * pi + x->m->access[a].offset + engine_lag(x, a, k);
      int64_t ag_last = dag + (S - 1) * pi + phase;
      if (ag_last > last_done) last_done = ag_last;
      if (!x->m->access[a].is_out) continue;
      for (int64_t s = x->P - 1; s >= 0; s--)
        if (x->io[a].elem_lin[k * x->P + s] >= 0) {
          if (dag + s * pi + phase > last_write) last_write = dag + s * pi + phase;
          break;
        }
    }
    const inst_pclass *pc = &x->pc[x->pe_class[k]];
    for (int f = 0; f < x->nfu; f++) {
      if (pc->fp[f].empty) continue;
      int64_t halt = d + (x->sigma + x->P + pc->fp[f].epilog) * pi - 1 + pc->fp[f].halt_late;
      if (halt > last_done) last_done = halt;
    }
  }
  *done = (uint64_t)(last_done + 1);
  *cycles = (uint64_t)(last_write + 1);
}
