/*
 * divergence_unit.h: the unit behind a lockstep divergence, named for
 * people (docs/trace.md "Divergence files of tcpa run --engine cosim"):
 * for the state events of an address generator (`bank`, `bankwr`, `ag`,
 * `mem`) the AG, the access it serves (the listing's line), its address
 * equation from the configuration stream and the iteration J of the
 * divergence cycle; for `step` the PE's step counter and J; for `gc` the
 * global controller, its step and J and the terms of each signal that
 * differs; for `fifo` (and `pop`, `push`) the channel: the wrapper source
 * that fills the FIFO, followed to the PE or bank that produces its words,
 * and the FUs that read it. Everything is asked of the C model's
 * configuration (cmodel/model.h, "the units behind a divergence"), none of
 * it from either run.
 */
#ifndef TCPA_DIVERGENCE_UNIT_H
#define TCPA_DIVERGENCE_UNIT_H

#include <stddef.h>
#include <stdio.h>

#include "arch.h"
#include "engine.h"
#include "lockstep.h"
#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns 1 when a divergence of kind k is one divergence_unit_write
 * explains (bank bankwr ag mem step gc fifo pop push). */
int divergence_unit_kind(trace_kind k);

/* Writes to f the lines naming the unit of divergence d of the run of
 * model m of architecture arch (its configuration: any cycle) of
 * configuration c (NULL: none): its listing names the accesses, its
 * gc_order the program's index of each GC dimension (J and the address
 * equations are then written in the listing's j0, j1, ...); nothing for
 * other kinds. */
void divergence_unit_write(FILE *f, const lockstep_divergence *d, const model *m, const arch_config *arch,
                           const engine_config *c);

/* Writes into buf the FST scope of the AG of bank `bank` on side `side`
 * of PE (row, col) (docs/rtl.md "Signal names":
 * TOP.tcpa_top.g_row[R].g_col[C].g_side[S].g_bank[B].g_ag.u_ag). */
void divergence_ag_scope(char *buf, size_t sz, int row, int col, int side, int bank);

/* Writes into buf the FST names of the unit of divergence d (GC gc is
 * the started one), space-separated, each a scope (all its signals) or a
 * signal, for the save files' first group: an AG kind the AG's scope; step
 * the PE's dbg_step_o and u_stepper; gc TOP.tcpa_top's dbg_gc_* ports and
 * g_gc[G].u_gc; fifo, pop, push the PE's dbg_fifocnt_o and the FIFO's
 * scope; "" for the other kinds. */
void divergence_unit_names(const lockstep_divergence *d, int gc, char *buf, size_t sz);

#ifdef __cplusplus
}
#endif

#endif
