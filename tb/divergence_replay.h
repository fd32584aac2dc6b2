/*
 * divergence_replay.h: the unit behind a divergence found after the run,
 * from the two trace files (`tcpa cosim-check`, the `systemc` engine):
 * the same lines and FST names as a cosim run gives (tb/divergence_unit.h,
 * docs/trace.md "The unit of a state event"), asked of a C model loaded
 * with the run's configuration stream and not stepped (the unit writers
 * ask only its configuration: any cycle). A cosim run asks its own model,
 * the one it steps; all three go through divergence_unit_write and
 * divergence_unit_names.
 */
#ifndef TCPA_DIVERGENCE_REPLAY_H
#define TCPA_DIVERGENCE_REPLAY_H

#include <stddef.h>
#include <stdio.h>

#include "arch.h"
#include "engine.h"
#include "lockstep.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns 0 after writing to f the unit lines of divergence d
 * (divergence_unit_write; nothing for a kind it does not explain) of
 * configuration c (its stream; its listing and GC order when it has them)
 * on architecture arch, and the unit's FST names into names
 * (divergence_unit_names with the started GC; "" for an FU's or a
 * register's); -1 with msg when the traces are of another architecture
 * than arch (d's fingerprints) or the C model refuses c's stream. */
int divergence_replay_unit(FILE *f, const lockstep_divergence *d, const arch_config *arch,
                           const engine_config *c, char *names, size_t namesz, char *msg, size_t msgsz);

#ifdef __cplusplus
}
#endif

#endif
