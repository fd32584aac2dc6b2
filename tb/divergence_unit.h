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
#include "json.h"
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

/* ---- the divergence as data (docs/user-guide.md "summary.json",
 * `divergence_record`): what code decides on, read from the checker's
 * record and its events, never from the one-line text made of them. ---- */

/* Returns the name of a difference: "value", "missing" (in the RTL),
 * "extra" (in the RTL), "version", "fingerprint"; "none". */
const char *divergence_diff_name(lockstep_diff diff);

/* Returns the event of d that names its unit (the model's when it has
 * one, else the RTL's; both occupy the same slot in a value divergence);
 * NULL when d has neither. */
const trace_event *divergence_event(const lockstep_divergence *d);

/* Writes into buf the class of d's unit: the unit without its
 * coordinates (FU, register and bank numbers, sides, addresses), the root
 * cause a regression buckets by: "FU" (issue insn flag halt), "FU -> rd"
 * (wr: the destination's class), "id" "fd" "od" "rd" (pop fdrd rf fifo
 * push), "port" (hop), "bank" (bank bankwr ag mem), "step counter",
 * "global controller", "control signals" (sig), the fault's kind
 * ("underflow"), "" (start, done, no event). */
void divergence_unit_class(const lockstep_divergence *d, char *buf, size_t sz);

/* Returns the FU of d's unit (issue insn flag halt wr), else -1. */
int divergence_unit_fu(const lockstep_divergence *d);

/* Writes d's register ("rd3": wr's destination; pop fdrd rf fifo push's
 * register) into buf; "" for the other kinds. */
void divergence_unit_reg(const lockstep_divergence *d, char *buf, size_t sz);

/* Writes into buf the focus of a save file (tb/gtkw.h gtkw_view.focus)
 * for d's unit, from its FU and register: "FU 1 rd3" (wr), "FU 2" (issue
 * insn flag halt), "id2" (pop fdrd rf fifo push), "" for the others. */
void divergence_unit_focus(const lockstep_divergence *d, char *buf, size_t sz);

/* Writes d as member `key` of the JSON object being written by w: an
 * object with cycle, pe ([row, col], null for the machine), kind (the
 * trace event kind), unit (for people) and unit_class, fu, register,
 * side, bank, port, address and fault (null where the kind has none),
 * diff and the two events in the trace's text, expected and got (null:
 * none on that side); null when d is no divergence. */
void divergence_record_json(json_writer *w, const char *key, const lockstep_divergence *d);

#ifdef __cplusplus
}
#endif

#endif
