/*
 * gtkw.h: GTKWave save files (.gtkw) that open an RTL waveform (FST) at a
 * lockstep divergence: a marker at the divergence time, the view zoomed to
 * a window of cycles around it, and the signals of the divergent PE in
 * groups (one per sub-scope of the PE, e.g. each FU).
 *
 * Signal names come from the FST itself when possible
 * (gtkw_fst_signals: the hierarchy as printed by GTKWave's `fst2vcd`); the
 * PE's scope is found from a naming pattern with %r and %c for the row and
 * column (GTKW_PE_SCOPE_DEFAULT, matching the RTL's generate blocks; see
 * docs/trace.md). Without fst2vcd or without matching signals the save file
 * still carries the marker and zoom and opens the PE's scope in the tree.
 *
 * Times are in the FST's time unit: cycle t starts at t0 + t * period.
 */
#ifndef TCPA_GTKW_H
#define TCPA_GTKW_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Hierarchical scope of PE (row %r, column %c) in the Verilated model's
 * FST: TOP, the harness's top instance, the generate blocks of the array. */
#define GTKW_PE_SCOPE_DEFAULT "TOP.tcpa_top.g_row[%r].g_col[%c].u_pe"

typedef struct {
  char *name; /* full hierarchical name, e.g. TOP.tcpa_top.g_row[0]...pc */
  int width;  /* bits; 1 is shown in binary, wider in hex */
} gtkw_signal;

typedef struct {
  gtkw_signal *v;
  int n, cap;
} gtkw_signals;

/* What the save file shows. */
typedef struct {
  const char *fst_path;  /* the dump file */
  const char *pe_scope;  /* expanded scope of the PE (gtkw_pe_scope) */
  uint64_t marker;       /* time of the divergence cycle */
  uint64_t start, end;   /* the visible window, start < end */
  const char *comment;   /* one line, e.g. the divergence; may be NULL */
  const char *focus;     /* the divergent unit's FU and register, "FU 1
                            rd3", "id2" (divergence_unit_focus, from the
                            checker's record); its FU's and
                            registers' signals are shown first, in a group
                            of their own (gtkw_focus_match); NULL: none */
  const char *insn_filter; /* a GTKWave translate filter file for the FUs'
                              `word` (wave_merge_insn_filter): the focus
                              FU's word is shown decoded too; NULL: none */
  const char *unit_names;  /* the divergent unit outside an FU or register
                              (an AG, the step counter, the GC, a FIFO):
                              space-separated full names of scopes (all
                              their signals) or signals, shown first in the
                              focus group (gtkw_unit_match); NULL: none */
} gtkw_view;

/* Returns the length of the scope of PE (row, col) written to buf from
 * `pattern` (NULL: GTKW_PE_SCOPE_DEFAULT), %r and %c replaced (as
 * snprintf). */
int gtkw_pe_scope(char *buf, size_t sz, const char *pattern, int row, int col);

/* Returns 0 and the view of a divergence at `cycle`: marker at
 * t0 + cycle*period, window of `window` cycles on each side (clamped at
 * time 0), every other field NULL (set them afterwards); -1 when the
 * times overflow. */
int gtkw_view_at(gtkw_view *v, uint64_t t0, uint64_t period, uint64_t cycle,
                 int window);

/* Returns 1 when signal `rel` (its name below the PE's scope, with its
 * range: "u_regfile.rd_q[3][31:0]", "g_fu[1].u_fu.pc_q[7:0]") is one to
 * show for the unit named in `focus` (see gtkw_view.focus): "rdK" selects
 * u_regfile.rd_q[K], "odK" od_q[K]; "FU F" the main signals of
 * g_fu[F].u_fu (pc_q, word, op, issue_o, halt_o, halted_q, flag_q,
 * src_val_i, wb_*), "fdK" of g_fd[K].u_fd (head_o, r_q, w_q, depth_q,
 * rd_i, we_i, wdata_i), "idK" of g_fifo[K].u_fifo (head_o, cnt_q, empty_o,
 * pop_i, push_i, push_data_i, drop_o); 0 otherwise (and for a NULL
 * focus). */
int gtkw_focus_match(const char *rel, const char *focus);

/* Returns 1 when signal `name` (full, with its range) is one of the
 * space-separated `names` (a signal, with or without its range, or a
 * scope the signal is in); 0 otherwise (and for NULL names). */
int gtkw_unit_match(const char *name, const char *names);

/* Returns 0 after appending a copy of name (width bits) to s; -1 when out
 * of memory. */
int gtkw_signals_add(gtkw_signals *s, const char *name, int width);

/* Frees the names and the array. */
void gtkw_signals_free(gtkw_signals *s);

/* Returns 0 and, appended to *out, the signals declared in a VCD header
 * (text up to $enddefinitions) whose scope is `scope` or below it, plus the
 * clock and reset of the top scope; -1 when the text is malformed. */
int gtkw_vcd_header_signals(const char *vcd_text, const char *scope, gtkw_signals *out);

/* Returns 0 and the signals of `scope` (a scope: everything below it; or
 * a signal's full name without its range: that signal) in the FST
 * `fst_path` (read with fst2vcd, which must be on the PATH) appended to
 * *out; -1 with the reason in msg when the tool or the file fails. */
int gtkw_fst_signals(const char *fst_path, const char *scope, gtkw_signals *out,
                     char *msg, size_t msgsz);

/* Returns 0 after appending to *out the signals of the FST `fst_path`
 * named by the space-separated scopes or signals of `unit` (a divergence's
 * unit, divergence_unit.h), each prefixed with `side` ("", or "model." /
 * "rtl." in a merged FST); -1 with the reason in msg. */
int gtkw_fst_unit_signals(const char *fst_path, const char *side, const char *unit, gtkw_signals *out,
                          char *msg, size_t msgsz);

/* Returns 0 after writing the save file `path` atomically (temporary file
 * renamed): the view v and the signals grouped by their sub-scope below
 * v->pe_scope (after a group of the focus unit's signals, if any); -1
 * with the reason in msg. */
int gtkw_write(const char *path, const gtkw_view *v, const gtkw_signals *sigs,
               char *msg, size_t msgsz);

/* The save file of a merged FST (tb/wave_merge.h): model and RTL side by
 * side at a divergence. */
typedef struct {
  gtkw_view view;          /* fst_path: the merged FST; pe_scope: the PE's
                              scope in either side (TOP....u_pe) */
  const char *title;       /* the label of the first group (short: the
                              signal pane is as wide as the longest) */
  int row, col;            /* the PE */
  int fu;                  /* the divergent FU, -1: none */
  int nops;                /* operands its instruction reads (0..3) */
  const char *oplabel[3];  /* what each operand is ("id0", "#-5"), or NULL */
  const char *regs;        /* registers to show, space-separated ("od0
                              id0"), or NULL */
  const char *mclass;      /* the mismatch class of the divergence ("wr"),
                              or NULL */
  int mclass_machine;      /* that class is the machine's (gc, done): its
                              signal is mismatch.KIND, not the PE's */
  const char *unit_names;  /* as gtkw_view.unit_names, without the side
                              (`TOP....u_ag`): each signal both sides have
                              is shown as a pair; NULL: none */
} gtkw_compare;

/* Returns 0 and, appended to *out, the signals of a merged FST that its
 * save file uses: both sides' signals of PE scope pe_scope, the RTL's
 * clock, the array's mismatch signals and the PE's; -1 with the reason in
 * msg. */
int gtkw_compare_signals(const char *fst_path, const char *pe_scope, gtkw_signals *out, char *msg,
                         size_t msgsz);

/* Returns 0 after writing the save file `path` of a merged FST
 * atomically: the view of c->view (window, marker, panes), then groups:
 * the divergence (the PE's mismatch signals, the FU's instruction, its
 * operands and result in hex and signed decimal, the registers, the hop
 * ports' valid bits, the FU's pc), the PE's event ports, its registers and state, the
 * array's mismatch signals; each signal a pair, the model's (expected)
 * above the RTL's (actual). -1 with the reason in msg. */
int gtkw_compare_write(const char *path, const gtkw_compare *c, const gtkw_signals *sigs, char *msg,
                       size_t msgsz);

#ifdef __cplusplus
}
#endif

#endif
