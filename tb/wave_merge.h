/*
 * wave_merge.h: one waveform holding the RTL and the C model side by side
 * (docs/trace.md "Model and RTL in one waveform"). The RTL's FST
 * (tcpa-rtl --fst) and the model's (cmodel/model_fst.h) have the same
 * hierarchy and names and the same time base (one cycle = 1 ns); the
 * merged FST holds the RTL's signals under a scope `rtl` and the model's
 * under `model` (rtl.TOP.tcpa_top..., model.TOP.tcpa_top...), from the
 * first time both have values, plus:
 *
 *   - in every FU scope (`...g_fu[F].u_fu`) of either side, signals derived
 *     from that side's own: `insn` (a string: the instruction `word`
 *     disassembled, e.g. `max od0, id0, #-5 ; next`, common/isa.h),
 *     `op_a`, `op_b`, `op_c` (the operand values, the three 32-bit fields
 *     of `val`) and `result` (the FU's field of the PE's dbg_wr_val_o: the
 *     value it writes back in that cycle);
 *   - a scope `mismatch` with one 1-bit signal per compared event class
 *     (start sig issue halt wr pop push fdrd hop done insn, and the state
 *     events' step gc rf flag fifo bank bankwr ag) that is 1 in the
 *     cycles where the two sides' event ports of that class differ in some
 *     PE, `any` (their or), and per PE (`mismatch.g_row[R].g_col[C]`) the
 *     same signals for that PE alone (done and gc: the machine's only). An
 *     event port is compared where it carries an event: the valid bits
 *     (dbg_issue_o, dbg_wr_o, an AG's acc_o, ...) must be equal, and for
 *     each event the value fields of its slot (pc, the write's
 *     destination, od mask and value, ...); a state port (dbg_step_o, an
 *     AG's address counter) is compared whole. The AG classes compare each
 *     AG scope beside the PE (g_side[S].g_bank[B].g_ag.u_ag) that both
 *     sides have. `mem` (the banks' words at done, which neither FST
 *     holds) is computed from the two traces (wave_mem.h): 1 from the
 *     done cycle on in each PE whose `mem` events differ.
 *
 * Beside the merge: one signal's value at a time (wave_merge_value_at),
 * a translate filter file of the instruction words of an FST
 * (wave_merge_insn_filter), an FST's time range (wave_merge_time_range).
 *
 * The FSTs are read with GTKWave's FST reader (fstapi.c, as shipped with
 * Verilator) and the merged one written with its writer, to a temporary
 * file renamed into place.
 */
#ifndef TCPA_WAVE_MERGE_H
#define TCPA_WAVE_MERGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Event classes with a mismatch signal: trace.md's event ports in its
 * order, then insn (the issued instruction word), the state events
 * (step gc rf flag fifo bank bankwr ag) and mem, added after the others. */
#define WAVE_MERGE_CLASSES 20

/* What a merge found. */
typedef struct {
  uint64_t start, end;     /* times in the merged FST */
  int64_t timescale;       /* exponent of its unit (-12: ps) */
  int nvars;               /* variables written */
  int first_found;         /* some class differs somewhere */
  uint64_t first_time;     /* the first time `mismatch.any` is 1 */
  int first_row, first_col;   /* a PE that differs then */
  int first_class;         /* the class that differs then (index) */
  int mem_compared;        /* the traces' words at done were compared */
} wave_merge_info;

/* Returns the name of mismatch class k ("start", ... "done"). */
const char *wave_merge_class_name(int k);

/* Returns 0 after writing `out` (atomically) from the FSTs `rtl` and
 * `model` and the trace files `rtl_trace` and `model_trace` (for `mem`;
 * NULL or missing: mem not compared, its signals 0) (see above), what was
 * found in *info; -1 with the reason in msg (a file unreadable or not an
 * FST, different time units, nothing in common, a malformed trace line). */
int wave_merge_write(const char *rtl, const char *model, const char *rtl_trace, const char *model_trace,
                     const char *out, wave_merge_info *info, char *msg, size_t msgsz);

/* Returns 0 and the value at time `t` of signal `name` (its full name in
 * the FST, with the range as GTKWave writes it, e.g.
 * "TOP.tcpa_top.g_row[0].g_col[1].u_pe.g_fu[1].u_fu.val[95:0]", or
 * without the range: "...u_fu.val") as a
 * string of '0'/'1'/'x' bits, MSB first (a string signal: its text), in
 * buf; -1 when the file or the signal is missing. */
int wave_merge_value_at(const char *fst, const char *name, uint64_t t, char *buf, size_t bufsz);

/* Returns 0 after writing `out` (atomically): a GTKWave translate filter
 * file with one line per instruction word that an FU's `word` takes in the
 * FST `fst`, `HEX TEXT` (the 128 bits as GTKWave shows them in hex, 32
 * digits, and the disassembly, e.g. `max od0, id0, #-5 ; next`); -1 with
 * the reason in msg. */
int wave_merge_insn_filter(const char *fst, const char *out, char *msg, size_t msgsz);

/* Returns 0 and the first and last time of the FST `fst`; -1 when it
 * cannot be read. */
int wave_merge_time_range(const char *fst, uint64_t *start, uint64_t *end);

/* Returns bits lo..lo+31 (fewer past the end; 'x' and 'z' read as 0) of a
 * value string as wave_merge_value_at returns it. */
uint32_t wave_merge_field(const char *bits, int lo);

#ifdef __cplusplus
}
#endif

#endif
