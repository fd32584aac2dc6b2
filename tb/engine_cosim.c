/*
 * engine_cosim.c: the comparison of the `cosim` engine, in true lockstep
 * (engine_cosim_lockstep): the RTL harness runs as a subprocess streaming
 * its events through a pipe as binary records (engine_rtl_start; docs/trace.md
 * "Binary event stream": read straight into trace_event, no text; a stream
 * starting with `#` is read as a text trace), the C model is stepped in
 * process one cycle at a time, and after each cycle both sides' events of
 * that cycle go through the lockstep checker (tb/lockstep.h). At the first
 * divergence both stop (the harness is terminated and reaped), and the
 * report gives its cycle, PE, unit, both events and the last events of
 * that PE. Memory and time stay bounded by the divergence, not the run.
 *
 * engine_cosim_check compares two complete trace files the same way
 * (offline, `tcpa cosim-check`). The waveform is a second step
 * (engine_cosim_waveform): after the RTL has been rerun with its FST
 * limited to the cycles around the divergence, a GTKWave save file
 * (tb/gtkw.h) opens it with a marker at the divergence and the PE's signals
 * grouped. docs/trace.md, "Lockstep protocol".
 *
 * engine_cosim_compare puts the two sides together after a divergence
 * (docs/trace.md "Model and RTL in one waveform"): DIR/rtl.fst and
 * DIR/model.fst merged into DIR/compare.fst (tb/wave_merge.h), its save
 * file DIR/compare.gtkw (tb/gtkw.h: model above RTL, the divergent FU's
 * instruction, operands and result first), and in the report the
 * divergent instruction decoded with its operands and result on both sides,
 * read from the two FSTs at the cycle it issued.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "divergence_unit.h"
#include "gtkw.h"
#include "lockstep.h"
#include "wave_merge.h"
#include "engine.h"
#include "isa.h"
#include "model_fst.h"

/* Returns 0 after writing the save file gtkw of the RTL's FST fst around
 * divergence d (and the translate filter of its instruction words beside
 * it), notes on f; -1 with msg (engine.h). */
int engine_cosim_waveform(const char *fst, const char *gtkw, const engine_divergence *d, int window,
                          FILE *f, char *msg, size_t msgsz) {
  char scope[512], comment[200], why[400];
  gtkw_signals sigs = {0};
  gtkw_view v = {0};
  if (access(fst, R_OK) != 0) {
    snprintf(msg, msgsz, "the RTL wrote no waveform %s", fst);
    return -1;
  }
  gtkw_pe_scope(scope, sizeof scope, NULL, d->row < 0 ? 0 : d->row, d->col < 0 ? 0 : d->col);
  if (gtkw_view_at(&v, d->t0, d->period, d->cycle, window)) {
    snprintf(msg, msgsz, "cycle %" PRIu64 " does not fit the FST's time", d->cycle);
    return -1;
  }
  uint64_t t_first, t_last; /* the view inside the dump: no empty pane */
  if (!wave_merge_time_range(fst, &t_first, &t_last)) {
    if (v.start < t_first && t_first <= v.marker) v.start = t_first;
    if (v.end > t_last && t_last > v.marker) v.end = t_last;
  }
  v.fst_path = fst;
  v.pe_scope = scope;
  snprintf(comment, sizeof comment, "divergence at cycle %" PRIu64 ", PE (%d,%d), %s", d->cycle, d->row,
           d->col, d->what);
  v.comment = comment;
  char focus[48] = ""; /* the divergent FU / register first in the save file */
  if (d->rec.diff != LOCKSTEP_DIFF_NONE) divergence_unit_focus(&d->rec, focus, sizeof focus);
  v.focus = focus[0] ? focus : NULL;
  char filter[8400] = "", cwd[4096] = "";
  const char *slash = strrchr(gtkw, '/');
  if (gtkw[0] == '/' || getcwd(cwd, sizeof cwd)) { /* the instructions decoded: a translate filter of the words */
    snprintf(filter, sizeof filter, "%s%s%.*s%s%s", cwd, cwd[0] ? "/" : "", slash ? (int)(slash - gtkw) : 0, gtkw,
             slash ? "/" : "", ENGINE_INSN_FILTER);
    if (!wave_merge_insn_filter(fst, filter, why, sizeof why)) v.insn_filter = filter;
    else fprintf(f, "  (waveform: %s; the instruction words are not decoded)\n", why);
  }
  if (gtkw_fst_signals(fst, scope, &sigs, why, sizeof why))
    fprintf(f, "  (waveform: %s; the save file has the marker but no signal list)\n", why);
  else if (d->unit[0] && gtkw_fst_unit_signals(fst, "", d->unit, &sigs, why, sizeof why))
    fprintf(f, "  (waveform: %s; the unit's signals are not in the save file)\n", why);
  v.unit_names = d->unit[0] ? d->unit : NULL;
  int rc = gtkw_write(gtkw, &v, &sigs, msg, msgsz);
  gtkw_signals_free(&sigs);
  if (!rc)
    fprintf(f, "  waveform:          gtkwave %s %s (cycles %" PRIu64 "..%" PRIu64 " dumped, marker at time %" PRIu64
               " = cycle %" PRIu64 ")\n",
            fst, gtkw, d->cycle > (uint64_t)window ? d->cycle - (uint64_t)window : 0, d->cycle + (uint64_t)window,
            v.marker, d->cycle);
  return rc;
}

/* ---- both sides in one waveform, the divergent instruction ---------------- */

/* One side's view of an FU's instruction in one cycle, read from its FST. */
typedef struct {
  int have;          /* the FST covers the cycle */
  int decoded;       /* word is a valid instruction */
  isa_insn in;
  uint32_t word[ISA_WORDS];
  uint32_t op[3];    /* operand values (val) */
  int issued;        /* dbg_issue_o's bit of the FU */
  int has_result;
  uint32_t result;   /* the FU's write-back value in the write cycle */
} engine_insn_view;

/* Returns 0 and the bits of signal `rel` of PE scope pe in fst at time t
 * in buf; -1 when missing. */
static int engine_fst_bits(const char *fst, const char *pe, const char *rel, uint64_t t, char *buf, size_t sz) {
  char name[700];
  snprintf(name, sizeof name, "%s.%s", pe, rel);
  return wave_merge_value_at(fst, name, t, buf, sz);
}

/* Reads into v FU fu's instruction of cycle `at` (time t_at, mid-cycle)
 * and its write-back in cycle `wr` (time t_wr) from fst. */
static void engine_insn_read(const char *fst, const char *pe, int fu, uint64_t t_at, uint64_t t_wr,
                             engine_insn_view *v) {
  char bits[512], rel[64];
  isa_word w;
  memset(v, 0, sizeof *v);
  snprintf(rel, sizeof rel, "g_fu[%d].u_fu.word", fu);
  if (engine_fst_bits(fst, pe, rel, t_at, bits, sizeof bits) || strchr(bits, 'x')) return;
  v->have = 1;
  for (int k = 0; k < ISA_WORDS; k++) v->word[k] = w.w[k] = wave_merge_field(bits, 32 * k);
  v->decoded = isa_decode(&w, &v->in) == ISA_OK;
  snprintf(rel, sizeof rel, "g_fu[%d].u_fu.val", fu);
  if (!engine_fst_bits(fst, pe, rel, t_at, bits, sizeof bits))
    for (int k = 0; k < 3; k++) v->op[k] = wave_merge_field(bits, 32 * k);
  if (!engine_fst_bits(fst, pe, "dbg_issue_o", t_at, bits, sizeof bits))
    v->issued = (int)(wave_merge_field(bits, fu) & 1);
  if (!engine_fst_bits(fst, pe, "dbg_wr_o", t_wr, bits, sizeof bits) && (wave_merge_field(bits, fu) & 1) &&
      !engine_fst_bits(fst, pe, "dbg_wr_val_o", t_wr, bits, sizeof bits)) {
    v->has_result = 1;
    v->result = wave_merge_field(bits, 32 * fu);
  }
}

/* Writes operand o (immediate imm) as the disassembler names it ("id0",
 * "#-5") to buf; returns buf. */
static const char *engine_opnd_name(isa_opnd o, int32_t imm, char *buf, size_t sz) {
  static const char *const pre[] = {"-", "rd", "fd", "id", "od"}; /* isa_cls */
  if (o.cls == ISA_CLS_IMM) snprintf(buf, sz, "#%d", imm);
  else snprintf(buf, sz, "%s%d", o.cls < sizeof pre / sizeof *pre ? pre[o.cls] : "?", o.idx);
  return buf;
}

/* Writes one side's lines of the instruction report. */
static void engine_insn_print(FILE *f, const char *side, const engine_insn_view *v, const engine_insn_view *ref) {
  char text[256], nm[32];
  if (!v->have) {
    fprintf(f, "    %-17s(not in its waveform at that cycle)\n", side);
    return;
  }
  if (v->decoded) isa_insn_format(&v->in, text, sizeof text);
  else
    snprintf(text, sizeof text, "(not an instruction: 0x%08x%08x%08x%08x)", v->word[3], v->word[2], v->word[1],
             v->word[0]);
  fprintf(f, "    %-17s%s%s\n", side, text, v->issued ? "" : "  (not issued)");
  const isa_insn *in = v->decoded ? &v->in : &ref->in; /* each side's operands as its instruction names them */
  const isa_op_info *op = isa_op_get(in->op);
  int nsrc = op ? op->nsrc : 0;
  if (nsrc) {
    fprintf(f, "      operands:      ");
    for (int k = 0; k < nsrc && k < 3; k++)
      fprintf(f, "%s%c = %s = 0x%08x (%d)", k ? ", " : "", 'a' + k, engine_opnd_name(in->src[k], in->imm, nm, sizeof nm),
              v->op[k], (int32_t)v->op[k]);
    fputc('\n', f);
  }
  if (v->has_result) fprintf(f, "      result:        0x%08x (%d)\n", v->result, (int32_t)v->result);
}

/* Returns the cycle at which FU fu issued the instruction whose write-back
 * is at cycle c (the model's view: the latest issue i <= c whose latency
 * ends at c), or c. */
static uint64_t engine_issue_cycle(const char *mfst, const char *pe, int fu, const arch_config *arch,
                                   const engine_divergence *d) {
  for (uint64_t back = 0; back <= 16 && back <= d->cycle && arch; back++) {
    uint64_t i = d->cycle - back;
    engine_insn_view v;
    uint64_t t = d->t0 + i * d->period + d->period / 2;
    engine_insn_read(mfst, pe, fu, t, t, &v);
    if (v.have && v.decoded && v.issued && v.in.op != ISA_OP_NOP &&
        i + (uint64_t)isa_op_latency(v.in.op, arch) - 1 == d->cycle)
      return i;
  }
  return d->cycle;
}

/* Appends the registers of instruction in (destination, ods, register
 * sources) to buf as "od0 id0 ...". */
static void engine_insn_regs(const isa_insn *in, char *buf, size_t sz) {
  char nm[32];
  size_t n = strlen(buf);
  if (in->dst.cls != ISA_CLS_NONE && n < sz)
    n += (size_t)snprintf(buf + n, sz - n, " %s", engine_opnd_name(in->dst, 0, nm, sizeof nm));
  for (int k = 0; k < ISA_MAX_OD && n < sz; k++)
    if (in->odmask >> k & 1) n += (size_t)snprintf(buf + n, sz - n, " od%d", k);
  const isa_op_info *op = isa_op_get(in->op);
  for (int k = 0; op && k < op->nsrc && k < 3 && n < sz; k++)
    if (in->src[k].cls != ISA_CLS_IMM && in->src[k].cls != ISA_CLS_NONE)
      n += (size_t)snprintf(buf + n, sz - n, " %s", engine_opnd_name(in->src[k], 0, nm, sizeof nm));
}

/* Sets the save file's operand count and labels (lab: their storage) and
 * adds the registers of instruction in to regs. */
static void engine_compare_insn(gtkw_compare *c, const isa_insn *in, char lab[3][32], char *regs, size_t regsz) {
  const isa_op_info *op = isa_op_get(in->op);
  c->nops = op ? op->nsrc : 0;
  for (int k = 0; k < c->nops && k < 3; k++) c->oplabel[k] = engine_opnd_name(in->src[k], in->imm, lab[k], 32);
  engine_insn_regs(in, regs, regsz);
}

/* Returns 1 when instruction in reads register `reg` ("id2", "fd0"). */
static int engine_insn_reads(const isa_insn *in, const char *reg) {
  char nm[32];
  const isa_op_info *op = isa_op_get(in->op);
  for (int k = 0; op && k < op->nsrc && k < 3; k++)
    if (in->src[k].cls != ISA_CLS_IMM && !strcmp(engine_opnd_name(in->src[k], 0, nm, sizeof nm), reg)) return 1;
  return 0;
}

/* For a divergence of no FU (pop, fdrd, push, hop, ...): writes to f the
 * instructions the PE's FUs issued in the divergence cycle on either side,
 * with their operands; returns the FU whose instruction reads the unit's
 * register (a pop's idK, an fdrd's fdK), else the first that issued, or
 * -1. */
static int engine_issuing_print(const char *mfst, const char *rfst, const char *pe, const engine_divergence *d,
                                FILE *f) {
  uint64_t t = d->t0 + d->cycle * d->period + d->period / 2;
  char reg[16];
  divergence_unit_reg(&d->rec, reg, sizeof reg);
  int best = -1, reads = 0, any = 0;
  for (int fu = 0; fu < ISA_MAX_FUS; fu++) {
    engine_insn_view vm, vr;
    engine_insn_read(mfst, pe, fu, t, t, &vm);
    engine_insn_read(rfst, pe, fu, t, t, &vr);
    if (!vm.have && !vr.have) break; /* no such FU */
    if (!(vm.issued && vm.in.op != ISA_OP_NOP) && !(vr.issued && vr.in.op != ISA_OP_NOP)) continue;
    const engine_insn_view *ref = vm.decoded ? &vm : &vr;
    if (!any++)
      fprintf(f, "  instructions:      issued by PE (%d,%d) in cycle %" PRIu64 " (from model.fst and rtl.fst)\n", d->row,
              d->col, d->cycle);
    fprintf(f, "   FU %d\n", fu);
    engine_insn_print(f, "model:", &vm, ref);
    engine_insn_print(f, "RTL:", &vr, ref);
    int r = reg[0] && engine_insn_reads(&ref->in, reg);
    if (best < 0 || (r && !reads)) best = fu, reads = r;
  }
  return best;
}

/* Returns 0 after writing DIR/compare.fst and DIR/compare.gtkw and the
 * divergent instruction's lines on f; -1 with msg (engine.h). */
int engine_cosim_compare(const char *dir, const arch_config *arch, const engine_divergence *d, int window,
                         FILE *f, char *msg, size_t msgsz) {
  char rfst[4200], mfst[4200], cfst[4200], cgtkw[4200], pe[512], why[400], comment[300], regs[200] = "";
  char rtr[4200], mtr[4200];
  snprintf(rtr, sizeof rtr, "%s/rtl.trace", dir);
  snprintf(mtr, sizeof mtr, "%s/model.trace", dir);
  snprintf(rfst, sizeof rfst, "%s/rtl.fst", dir);
  snprintf(mfst, sizeof mfst, "%s/model.fst", dir);
  snprintf(cfst, sizeof cfst, "%s/compare.fst", dir);
  snprintf(cgtkw, sizeof cgtkw, "%s/compare.gtkw", dir);
  wave_merge_info info;
  if (wave_merge_write(rfst, mfst, rtr, mtr, cfst, &info, msg, msgsz)) return -1;
  engine_divergence first = {0};
  int agree = !d && !info.first_found;
  if (agree) fprintf(f, "  (%s and %s agree wherever both have values)\n", rfst, mfst);
  if (!d) { /* the first cycle where they differ in the merged waveform */
    first.period = MODEL_FST_UNIT;
    first.cycle = info.first_time / first.period;
    first.row = info.first_row, first.col = info.first_col;
    snprintf(first.what, sizeof first.what, "%s", agree ? "none" : wave_merge_class_name(info.first_class));
    if (agree) first.cycle = info.start / first.period, first.row = first.col = 0;
    d = &first;
  }
  gtkw_pe_scope(pe, sizeof pe, NULL, d->row < 0 ? 0 : d->row, d->col < 0 ? 0 : d->col);
  gtkw_compare c;
  memset(&c, 0, sizeof c);
  if (gtkw_view_at(&c.view, d->t0, d->period, d->cycle, window)) {
    snprintf(msg, msgsz, "cycle %" PRIu64 " does not fit the FST's time", d->cycle);
    return -1;
  }
  if (c.view.start < info.start) c.view.start = info.start; /* where both sides have values */
  if (c.view.end > info.end && info.end > c.view.marker) c.view.end = info.end;
  if (agree) { /* nothing to point at: the whole of it */
    c.view.start = c.view.marker = info.start;
    c.view.end = info.end > info.start ? info.end : info.start + d->period;
  }
  c.view.fst_path = cfst;
  c.view.pe_scope = pe;
  snprintf(comment, sizeof comment, "divergence at cycle %" PRIu64 ", PE (%d,%d): %s", d->cycle, d->row, d->col,
           d->what);
  c.view.comment = comment;
  char title[120];
  snprintf(title, sizeof title, "%s%s", agree ? "model and RTL agree" : "divergence: ", agree ? "" : d->what);
  if (agree) snprintf(comment, sizeof comment, "model and RTL agree wherever both have values");
  c.title = title;
  c.row = d->row < 0 ? 0 : d->row, c.col = d->col < 0 ? 0 : d->col;
  /* the divergence's FU, kind and register from the checker's record (a
     divergence found in the merged waveform: its mismatch class) */
  int known = d->rec.diff != LOCKSTEP_DIFF_NONE;
  trace_kind kind = d->rec.kind;
  c.fu = known ? divergence_unit_fu(&d->rec) : -1;
  if (d == &first && !agree) c.mclass = wave_merge_class_name(info.first_class);
  for (int k = 0; known && k < WAVE_MERGE_CLASSES; k++)
    if (trace_kind_name(kind) && !strcmp(trace_kind_name(kind), wave_merge_class_name(k)))
      c.mclass = wave_merge_class_name(k);
  /* the unit's own register ("rd3" of a wr to rd3, "id2" of a pop) */
  if (known) divergence_unit_reg(&d->rec, regs + 1, sizeof regs - 1);
  if (regs[1]) regs[0] = ' ';
  char oplab[3][32];
  /* a unit of no FU and no register (an AG, the step counter): its own
     lines (divergence_unit_write), not the instructions of the cycle */
  int unit_only = d->unit[0] && !(known && (kind == TRACE_FIFO || kind == TRACE_POP || kind == TRACE_PUSH));
  if (c.fu < 0 && d->row >= 0 && !agree && !unit_only) c.fu = engine_issuing_print(mfst, rfst, pe, d, f);
  else if (c.fu >= 0) {
    uint64_t i = engine_issue_cycle(mfst, pe, c.fu, arch, d);
    uint64_t t_at = d->t0 + i * d->period + d->period / 2, t_wr = d->t0 + d->cycle * d->period + d->period / 2;
    engine_insn_view vm, vr;
    engine_insn_read(mfst, pe, c.fu, t_at, t_wr, &vm);
    engine_insn_read(rfst, pe, c.fu, t_at, t_wr, &vr);
    const engine_insn_view *ref = vm.decoded ? &vm : &vr;
    fprintf(f, "  instruction:       FU %d, issued in cycle %" PRIu64 "%s (from model.fst and rtl.fst)\n", c.fu, i,
            i == d->cycle ? "" : ", written back in the divergence cycle");
    engine_insn_print(f, "model:", &vm, ref);
    engine_insn_print(f, "RTL:", &vr, ref);
    if (ref->decoded) engine_compare_insn(&c, &ref->in, oplab, regs, sizeof regs);
  }
  if (c.fu >= 0 && !c.nops) { /* an FU found by engine_issuing_print: its operands in the save file */
    engine_insn_view vm;
    uint64_t t = d->t0 + d->cycle * d->period + d->period / 2;
    engine_insn_read(mfst, pe, c.fu, t, t, &vm);
    if (vm.decoded) engine_compare_insn(&c, &vm.in, oplab, regs, sizeof regs);
  }
  c.regs = regs;
  c.unit_names = d->unit[0] ? d->unit : NULL;
  c.mclass_machine = d->row < 0;
  gtkw_signals sigs = {0};
  if (gtkw_compare_signals(cfst, pe, &sigs, why, sizeof why))
    fprintf(f, "  (side by side: %s; the save file has the marker but no signal list)\n", why);
  else if (d->unit[0] && (gtkw_fst_unit_signals(cfst, "model.", d->unit, &sigs, why, sizeof why) ||
                          gtkw_fst_unit_signals(cfst, "rtl.", d->unit, &sigs, why, sizeof why)))
    fprintf(f, "  (side by side: %s; the unit's signals are not in the save file)\n", why);
  int rc = gtkw_compare_write(cgtkw, &c, &sigs, msg, msgsz);
  gtkw_signals_free(&sigs);
  if (!rc)
    fprintf(f, "  side by side:      gtkwave %s %s (model above RTL, mismatch signals; tcpa wave %s --compare)\n", cfst,
            cgtkw, dir);
  return rc;
}

/* Fills d and line from the lockstep checker's divergence ld. */
static void engine_cosim_describe(const lockstep_divergence *ld, const lockstep_fst_timing *t,
                                  engine_divergence *d, char *line, size_t linesz) {
  static const char *const what[] = {"none", "different values", "missing in the RTL",
                                     "extra in the RTL", "version", "fingerprint"}; /* for people only */
  char ev[128] = "", ea[128] = "";
  if (ld->has_model) trace_event_format(&ld->model, ev, sizeof ev);
  if (ld->has_rtl) trace_event_format(&ld->rtl, ea, sizeof ea);
  d->cycle = ld->cycle;
  d->row = ld->row;
  d->col = ld->col;
  d->t0 = t->t0;
  d->period = t->period;
  d->rec = *ld;
  snprintf(d->what, sizeof d->what, "%s%s%s", trace_kind_name(ld->kind), ld->unit[0] ? " " : "", ld->unit);
  divergence_unit_names(ld, 0, d->unit, sizeof d->unit); /* the started GC: engine_cosim_once */
  snprintf(line, linesz, "cycle %" PRIu64 ", PE (%d,%d), %s: %s; expected '%s', got '%s'", ld->cycle, ld->row,
           ld->col, d->what, what[ld->diff <= LOCKSTEP_DIFF_FINGERPRINT ? ld->diff : 0],
           ld->has_model ? ev : "(nothing)", ld->has_rtl ? ea : "(nothing)");
}

int engine_cosim_check(const char *model_trace, const char *rtl_trace, FILE *report, engine_divergence *d,
                       char *line, size_t linesz, char *msg, size_t msgsz) {
  line[0] = 0;
  memset(d, 0, sizeof *d);
  lockstep *ls = lockstep_new(LOCKSTEP_KINDS_ALL, LOCKSTEP_WINDOW_DEFAULT);
  if (!ls) {
    snprintf(msg, msgsz, "out of memory");
    return -1;
  }
  lockstep_fst_timing timing;
  lockstep_status st = lockstep_files_check(ls, model_trace, rtl_trace, &timing);
  int rc = 0;
  if (st == LOCKSTEP_ERROR || st == LOCKSTEP_REFUSED) {
    snprintf(msg, msgsz, "the traces cannot be compared: %s",
             st == LOCKSTEP_ERROR ? lockstep_error_message(ls) : "different versions or fingerprints");
    rc = -1;
  } else if (st == LOCKSTEP_DIVERGED) {
    engine_cosim_describe(lockstep_result(ls), &timing, d, line, linesz);
    if (report) lockstep_report_write(ls, report);
    rc = 1;
  }
  lockstep_free(ls);
  return rc;
}

/* ---- the lockstep run --------------------------------------------------- */

#define ENGINE_COSIM_BUF (1u << 20)  /* the reader's buffer (bytes; grows for a long text line) */
#define ENGINE_COSIM_NAP_NS 500000L  /* the reader's nap while the pipe is empty: 0.5 ms */

/* The RTL side of a lockstep run: its binary event stream (docs/trace.md
 * "Binary event stream"), or a text trace from a harness that writes
 * text (a test's fake harness), one event ahead. */
typedef struct {
  int fd;               /* the read end of the harness's pipe (non-blocking) */
  unsigned char *buf;   /* bytes read from it: buf[pos..len) not yet taken */
  size_t bcap, pos, len;
  int eof;              /* the harness closed it (or a read failed) */
  FILE *tee;            /* the events as text (rtl.trace), or NULL */
  const char *who;      /* the harness, for errors */
  int started;          /* the header was read */
  int empty;            /* the stream had not a byte */
  int text;             /* the stream is text (starts with `#`) */
  int digest;           /* the stream is a digest stream (docs/trace.md "Digest stream") */
  char *line;           /* text: the line being read */
  size_t cap;
  long lineno;          /* records (or text lines) read */
  int have;             /* ev is the next event */
  trace_event ev;
  lockstep_fst_timing timing;
  engine_result *r;
  uint64_t count[TRACE_FAULT_COUNT];
  char err[600];
} engine_cosim_rtl;

/* Returns the bytes buffered (s->buf[s->pos..s->len)) after reading the
 * harness's pipe until at least `want` are, fewer only at the end of the
 * stream (s->eof; a read error ends it too) or when out of memory. The
 * pipe is non-blocking: while it is empty the reader naps
 * (ENGINE_COSIM_NAP_NS) instead of being woken by each of the harness's
 * writes (one a cycle), so that both sides move many cycles per switch. */
static size_t engine_cosim_rtl_fill(engine_cosim_rtl *s, size_t want) {
  while (s->len - s->pos < want && !s->eof) {
    if (s->pos && (s->pos == s->len || s->bcap - s->pos < want)) { /* move the rest to the front */
      memmove(s->buf, s->buf + s->pos, s->len - s->pos);
      s->len -= s->pos, s->pos = 0;
    }
    if (s->bcap - s->pos < want || s->len == s->bcap) {
      size_t nc = s->bcap ? 2 * s->bcap : ENGINE_COSIM_BUF;
      while (nc - s->pos < want) nc *= 2;
      unsigned char *b = realloc(s->buf, nc);
      if (!b) break;
      s->buf = b, s->bcap = nc;
    }
    ssize_t k = read(s->fd, s->buf + s->len, s->bcap - s->len);
    if (k > 0) {
      s->len += (size_t)k;
    } else if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      struct timespec nap = {0, ENGINE_COSIM_NAP_NS};
      nanosleep(&nap, NULL);
    } else if (k == 0 || errno != EINTR) {
      s->eof = 1;
    }
  }
  return s->len - s->pos;
}

/* Returns 0 after reading the header of the RTL's binary event stream:
 * version and fingerprint to the checker, the FST timing to s->timing, the
 * text trace's header lines (as the harness writes them with --trace) to
 * s->tee; -1 with s->err when the stream is empty or not this format. */
static int engine_cosim_rtl_header(engine_cosim_rtl *s, lockstep *ls) {
  trace_bin_header h;
  char why[400];
  size_t n = engine_cosim_rtl_fill(s, 1);
  s->started = 1;
  if (n == 0) {
    s->empty = 1;
    snprintf(s->err, sizeof s->err, "the RTL harness wrote no trace");
    return -1;
  }
  if (s->buf[s->pos] == '#') { /* text: read line by line from here */
    s->text = 1;
    return 0;
  }
  n = engine_cosim_rtl_fill(s, sizeof h);
  if (n >= sizeof h) {
    memcpy(&h, s->buf + s->pos, sizeof h);
    s->pos += sizeof h;
  }
  if (n < sizeof h) {
    snprintf(s->err, sizeof s->err, "%s: its binary event stream ends inside the header (%zu of %zu bytes)", s->who,
             n, sizeof h);
    return -1;
  }
  if (trace_bin_header_check(&h, why, sizeof why)) {
    snprintf(s->err, sizeof s->err, "%s: %s", s->who, why);
    return -1;
  }
  lockstep_header(ls, LOCKSTEP_RTL, (int)h.trace_version, h.fingerprint);
  s->digest = trace_bin_header_digest(&h);
  if (h.fst_period) s->timing.t0 = h.fst_t0, s->timing.period = h.fst_period, s->timing.declared = 1;
  if (s->tee)
    fprintf(s->tee, "# tcpa-trace %u fp=0x%016" PRIx64 "\n# engine tcpa-rtl\n# fst t0=%" PRIu64 " period=%" PRIu64 "\n",
            h.trace_version, h.fingerprint, h.fst_t0, h.fst_period);
  return 0;
}

/* Returns 1 after reading the next line of a text stream (with its
 * newline, when it has one) into s->line; 0 at the end (or out of memory). */
static int engine_cosim_rtl_getline(engine_cosim_rtl *s) {
  size_t scanned = 0;
  for (;;) {
    size_t avail = s->len - s->pos;
    const unsigned char *nl = memchr(s->buf + s->pos + scanned, '\n', avail - scanned);
    if (nl || s->eof) {
      size_t n = nl ? (size_t)(nl - (s->buf + s->pos)) + 1 : avail;
      if (n == 0) return 0;
      if (n + 1 > s->cap) {
        char *l = realloc(s->line, n + 1);
        if (!l) return 0;
        s->line = l, s->cap = n + 1;
      }
      memcpy(s->line, s->buf + s->pos, n);
      s->line[n] = 0;
      s->pos += n;
      return 1;
    }
    scanned = avail;
    if (engine_cosim_rtl_fill(s, avail + 1) <= avail && !s->eof) return 0;
  }
}

/* Returns 0 after reading the next RTL event of a text stream into s->ev
 * (s->have 0 at its end); the header goes to the checker, the `# fst`
 * comment to s->timing; -1 with s->err on a malformed line or a missing
 * header. Each line is parsed and checked for its canonical form. */
static int engine_cosim_rtl_text(engine_cosim_rtl *s, lockstep *ls) {
  while (engine_cosim_rtl_getline(s)) {
    s->lineno++;
    if (s->tee) fputs(s->line, s->tee);
    if (s->lineno == 1) {
      int ver;
      uint64_t fp;
      if (trace_header_parse(s->line, &ver, &fp)) {
        snprintf(s->err, sizeof s->err, "the RTL trace does not start with '# tcpa-trace %d fp=0x...'",
                 TRACE_VERSION);
        return -1;
      }
      lockstep_header(ls, LOCKSTEP_RTL, ver, fp);
      continue;
    }
    char msg[200] = "";
    int k = trace_line_parse(s->line, &s->ev, msg, sizeof msg);
    if (k == TRACE_LINE_COMMENT) {
      lockstep_fst_parse(s->line, &s->timing);
      continue;
    }
    if (k == TRACE_LINE_ERROR) {
      snprintf(s->err, sizeof s->err, "RTL trace line %ld: %s", s->lineno, msg);
      return -1;
    }
    engine_rtl_note(s->r, &s->ev, s->count);
    s->have = 1;
    return 0;
  }
  return 0;
}

/* Returns 0 after reading the next RTL event into s->ev, a record taken as
 * it is (s->have 0 at the end of the stream); in a digest stream also a
 * digest record (kind TRACE_DIGEST_KIND); -1 with s->err on a record cut
 * short, one that cannot be an event, a cycle going back, or a missing
 * header. */
static int engine_cosim_rtl_next(engine_cosim_rtl *s, lockstep *ls) {
  char why[300];
  uint64_t prev = s->have ? s->ev.cycle : 0;
  s->have = 0;
  if (!s->started && engine_cosim_rtl_header(s, ls)) return -1;
  if (s->text) return engine_cosim_rtl_text(s, ls);
  size_t n = engine_cosim_rtl_fill(s, sizeof s->ev);
  if (n == 0) return 0;
  s->lineno++;
  if (n >= sizeof s->ev) {
    memcpy(&s->ev, s->buf + s->pos, sizeof s->ev);
    s->pos += sizeof s->ev;
  } else {
    snprintf(s->err, sizeof s->err, "%s: its binary event stream ends inside record %ld (%zu of %zu bytes)", s->who,
             s->lineno, n, sizeof s->ev);
    return -1;
  }
  if (s->digest && (int)s->ev.kind == TRACE_DIGEST_KIND && s->ev.cycle >= prev) {
    s->have = 1;
    return 0;
  }
  if (trace_bin_event_check(&s->ev, why, sizeof why) || s->ev.cycle < prev) {
    if (s->ev.cycle < prev) snprintf(why, sizeof why, "cycle %" PRIu64 " after cycle %" PRIu64, s->ev.cycle, prev);
    snprintf(s->err, sizeof s->err, "%s: binary event stream record %ld: %s", s->who, s->lineno, why);
    return -1;
  }
  if (s->tee) trace_event_write(s->tee, &s->ev);
  engine_rtl_note(s->r, &s->ev, s->count);
  s->have = 1;
  return 0;
}

/* The model side: the machine, its sink, its trace file; in a digest
 * run the digest of the cycle being stepped. */
typedef struct {
  model *m;
  engine_model_sink sink;
  char tmp[4200];
  uint64_t t;           /* digest run: the cycle being stepped */
  trace_digest dg;      /* ... the digest of its events so far */
  int stray;            /* ... an event of another cycle came (its cycle: stray_cycle) */
  uint64_t stray_cycle;
} engine_cosim_model;

/* Feeds one model event to the checker (model_trace_fn). */
static void engine_cosim_feed(const trace_event *e, void *ctx) {
  lockstep_feed_model(ctx, e);
}

/* Adds model event e to the digest of the cycle cm steps, noting the
 * first event of another cycle (stray). */
static inline void engine_cosim_digest_add(engine_cosim_model *cm, const trace_event *e) {
  if (e->cycle != cm->t && !cm->stray) cm->stray = 1, cm->stray_cycle = e->cycle;
  trace_digest_add(&cm->dg, e);
}

/* Adds one model event to the digest of the cycle being stepped
 * (model_trace_fn of a digest run). */
static void engine_cosim_digest(const trace_event *e, void *ctx) {
  engine_cosim_digest_add(ctx, e);
}

/* Adds a cycle's model events ev[0..n) to the digest of the cycle being
 * stepped, with the bookkeeping engine_model_event does for the result
 * (the last bank write, the done cycles): the model_batch_fn of a digest
 * run with no trace file and no tap, a loop instead of two calls through
 * sinks per event. */
static void engine_cosim_digest_batch(const trace_event *ev, size_t n, void *ctx) {
  engine_cosim_model *cm = ctx;
  for (size_t i = 0; i < n; i++) {
    engine_model_sink_note(&cm->sink, &ev[i]);
    engine_cosim_digest_add(cm, &ev[i]);
  }
}

/* Returns 0 after making the model of c with its sink (trace file o->trace
 * when set, events fed to ls, or to cm's digest when digest); -1 with msg. */
static int engine_cosim_model_new(engine_cosim_model *cm, const engine_config *c, const arch_config *arch,
                                  const engine_opts *o, lockstep *ls, int digest, char *msg, size_t msgsz) {
  model_error err;
  memset(cm, 0, sizeof *cm);
  cm->sink.next = digest ? engine_cosim_digest : engine_cosim_feed;
  cm->sink.next_ctx = digest ? (void *)cm : (void *)ls;
  cm->sink.tap = o->tap;
  cm->sink.tap_ctx = o->tap_ctx;
  if (!(cm->m = model_new(arch, c->stream, c->stream_len, &err))) {
    snprintf(msg, msgsz, "the C model refuses the stream: %s", err.msg);
    return -1;
  }
  if (o->trace) {
    snprintf(cm->tmp, sizeof cm->tmp, "%s.tmp%ld", o->trace, (long)getpid());
    if (!(cm->sink.f = fopen(cm->tmp, "w"))) {
      snprintf(msg, msgsz, "%s: cannot write the trace: %s", o->trace, strerror(errno));
      return -1;
    }
    trace_header_write(cm->sink.f, c->fingerprint);
    fputs("# engine C model (tcpa run --engine cosim, lockstep)\n", cm->sink.f);
  }
  if (digest && !cm->sink.f && !o->tap) /* a digest is a sum: order-free */
    model_set_trace_batch(cm->m, engine_cosim_digest_batch, cm);
  else
    model_set_trace(cm->m, engine_model_event, &cm->sink);
  model_set_trace_any_order(cm->m, digest && !cm->sink.f && !o->tap);
  lockstep_header(ls, LOCKSTEP_MODEL, TRACE_VERSION, c->fingerprint);
  return 0;
}

/* Runs model cycle t (and its timeout fault when t is the last allowed);
 * returns 1 when the model has nothing more to emit after it. */
static int engine_cosim_model_step(model *m, uint64_t t, uint64_t max) {
  if (model_done(m) || model_cycles(m) >= max) return 1;
  if (model_cycles(m) == t) model_step(m);
  if (!model_done(m) && model_cycles(m) >= max) model_run(m, max); /* the timeout fault */
  return model_done(m) || model_cycles(m) >= max;
}

/* Returns the lockstep status after walking both engines cycle by cycle
 * until the checker stops or both have ended; *model_over tells whether
 * the model ended, *last the last cycle compared. */
static lockstep_status engine_cosim_walk(lockstep *ls, engine_cosim_model *cm, engine_cosim_rtl *rs,
                                         uint64_t max, uint64_t *last, char *msg, size_t msgsz) {
  int over = 0;
  for (uint64_t t = 0;; t++) {
    if (over && rs->have && rs->ev.cycle > t) t = rs->ev.cycle; /* only the RTL is left */
    over = engine_cosim_model_step(cm->m, t, max);
    while (rs->have && rs->ev.cycle <= t) {
      if (lockstep_feed_rtl(ls, &rs->ev) != LOCKSTEP_RUNNING) break;
      if (engine_cosim_rtl_next(rs, ls)) {
        snprintf(msg, msgsz, "%s", rs->err);
        return LOCKSTEP_ERROR;
      }
    }
    *last = t;
    if (lockstep_end_cycle(ls, t) != LOCKSTEP_RUNNING) return lockstep_status_get(ls);
    if (over && !rs->have) return lockstep_finish(ls);
  }
}

/* Returns the lockstep status after walking both engines of a digest run
 * cycle by cycle (docs/trace.md "Digest stream"): each cycle the model's
 * digest against the RTL's digest record (none: no events), until they
 * differ (LOCKSTEP_DIVERGED, *last the cycle) or both have ended
 * (LOCKSTEP_RUNNING); LOCKSTEP_REFUSED for another trace version or
 * fingerprint, LOCKSTEP_ERROR with msg. */
static lockstep_status engine_cosim_walk_digest(lockstep *ls, engine_cosim_model *cm, engine_cosim_rtl *rs,
                                                uint64_t max, uint64_t *last, char *msg, size_t msgsz) {
  int over = 0;
  if (lockstep_status_get(ls) != LOCKSTEP_RUNNING) return lockstep_status_get(ls);
  for (uint64_t t = 0;; t++) {
    if (over && rs->have && rs->ev.cycle > t) t = rs->ev.cycle; /* only the RTL is left */
    cm->t = t, cm->dg = (trace_digest){0, 0};
    over = engine_cosim_model_step(cm->m, t, max);
    if (cm->stray) {
      snprintf(msg, msgsz, "the C model emitted an event of cycle %" PRIu64 " in cycle %" PRIu64, cm->stray_cycle, t);
      return LOCKSTEP_ERROR;
    }
    trace_digest rd = {0, 0};
    *last = t;
    while (rs->have && rs->ev.cycle <= t) {
      if ((int)rs->ev.kind == TRACE_DIGEST_KIND) {
        if (rs->ev.cycle < t || rd.count) return LOCKSTEP_DIVERGED; /* events in a cycle the model had none */
        rd.count = rs->ev.num, rd.sum = rs->ev.cycles;
      }
      if (engine_cosim_rtl_next(rs, ls)) {
        snprintf(msg, msgsz, "%s", rs->err);
        return LOCKSTEP_ERROR;
      }
    }
    if (rd.count != cm->dg.count || rd.sum != cm->dg.sum) return LOCKSTEP_DIVERGED;
    if (over && !rs->have) return LOCKSTEP_RUNNING;
  }
}

/* Returns 1 (diverged), 0 (agreed) or -1 (msg) from the checker's final
 * status st; a divergence fills out and writes the report. */
static int engine_cosim_outcome(lockstep *ls, lockstep_status st, const engine_cosim_rtl *rs,
                                engine_lockstep *out, FILE *report, char *msg, size_t msgsz) {
  if (st == LOCKSTEP_DIVERGED) {
    engine_cosim_describe(lockstep_result(ls), &rs->timing, &out->div, out->line, sizeof out->line);
    lockstep_report_write(ls, report);
    out->diverged = 1;
    return 1;
  }
  if (st == LOCKSTEP_RUNNING) return 0;
  if (st == LOCKSTEP_REFUSED) {
    const lockstep_divergence *r = lockstep_result(ls);
    snprintf(msg, msgsz, "the traces cannot be compared: trace format %d, fingerprint 0x%016" PRIx64
             " (model) and %d, 0x%016" PRIx64 " (RTL)", r->version_model, r->fp_model, r->version_rtl, r->fp_rtl);
  } else if (!msg[0]) {
    snprintf(msg, msgsz, "%s", lockstep_error_message(ls));
  }
  return -1;
}

/* Returns rc after stopping (rc != 0) or waiting for the harness h and
 * noting the cycles it simulated in out; a harness that failed turns rc 0
 * into -1, and its last log line explains a missing trace (msg). */
static int engine_cosim_reap(engine_rtl_live *h, int rc, const engine_cosim_rtl *rs, const engine_result *rr,
                             engine_lockstep *out, char *msg, size_t msgsz) {
  if (h->pid < 0) return rc;
  int hs = engine_rtl_finish(h, rc != 0, &out->rtl_cycles);
  char last[600];
  out->stopped_early = hs == 4;
  if (!out->stopped_early) out->rtl_cycles = rr->done ? rr->done_cycles : (rs->have ? rs->ev.cycle + 1 : 0);
  engine_rtl_last_log(h, last, sizeof last);
  if (rc == 0 && (hs < 0 || hs >= 2)) {
    snprintf(msg, msgsz, "%s exited with status %d%s%s", h->bin, hs, last[0] ? ": " : "", last);
    return -1;
  }
  if (rc == -1 && rs->empty && last[0]) /* exit 3: usage (docs/rtl.md), e.g. an option it does not know */
    snprintf(msg, msgsz, "%s: %s%s", h->bin, last,
             hs == 3 ? " (exit 3, usage or I/O: if the harness was built before the binary event stream, rebuild it: "
                       "tcpa harness)"
                     : "");
  return rc;
}

/* Returns as engine_cosim_lockstep after one lockstep run, comparing
 * events (digest 0) or, in a digest run (digest 1, no trace files), the
 * digests of each cycle: 2 when they differ, *differs their cycle (the
 * harness stopped, nothing reported). */
static int engine_cosim_once(const char *bin, const engine_config *c, const arch_config *arch,
                             const engine_opts *mo, const engine_opts *ro, engine_result *mr,
                             engine_result *rr, engine_lockstep *out, FILE *report, int digest,
                             uint64_t *differs, char *msg, size_t msgsz) {
  memset(out, 0, sizeof *out);
  lockstep *ls = lockstep_new(LOCKSTEP_KINDS_ALL, LOCKSTEP_WINDOW_DEFAULT);
  engine_cosim_model cm = {0};
  engine_cosim_rtl rs = {0};
  engine_rtl_live h = {.pid = -1};
  char rtmp[4200] = "";
  int rc = -1;
  rs.timing = (lockstep_fst_timing){0, LOCKSTEP_FST_PERIOD_DEFAULT, 0};
  rs.r = rr;
  msg[0] = 0;
  if (!ls) {
    snprintf(msg, msgsz, "out of memory");
    goto done;
  }
  if (engine_cosim_model_new(&cm, c, arch, mo, ls, digest, msg, msgsz)) goto done;
  if (ro->trace) {
    snprintf(rtmp, sizeof rtmp, "%s.tmp%ld", ro->trace, (long)getpid());
    if (!(rs.tee = fopen(rtmp, "w"))) {
      snprintf(msg, msgsz, "%s: cannot write the trace: %s", ro->trace, strerror(errno));
      goto done;
    }
  }
  if (engine_rtl_start(bin, c, ro, digest, &h, msg, msgsz)) goto done;
  rs.fd = fileno(h.trace);
  fcntl(rs.fd, F_SETFL, fcntl(rs.fd, F_GETFL) | O_NONBLOCK); /* engine_cosim_rtl_fill naps */
  rs.who = h.bin;
  lockstep_status st = LOCKSTEP_ERROR;
  if (engine_cosim_rtl_next(&rs, ls)) snprintf(msg, msgsz, "%s", rs.err);
  else if (rs.digest && digest) st = engine_cosim_walk_digest(ls, &cm, &rs, mo->max_cycles, &out->stop_cycle, msg, msgsz);
  else if (!rs.digest) st = engine_cosim_walk(ls, &cm, &rs, mo->max_cycles, &out->stop_cycle, msg, msgsz);
  else snprintf(msg, msgsz, "%s wrote a digest stream, not the events asked for", h.bin);
  out->model_cycles = model_cycles(cm.m);
  if (rs.digest && digest && st == LOCKSTEP_DIVERGED) {
    *differs = out->stop_cycle;
    rc = 2;
  } else {
    rc = engine_cosim_outcome(ls, st, &rs, out, report, msg, msgsz);
    if (rc == 1) {
      model_gc_view g;
      const lockstep_divergence *ld = lockstep_result(ls);
      divergence_unit_write(report, ld, cm.m, arch, c);
      divergence_unit_names(ld, model_gc_view_get(cm.m, -1, -1, 0, &g) ? 0 : g.gc, out->div.unit,
                            sizeof out->div.unit);
    }
  }
done:
  rc = engine_cosim_reap(&h, rc, &rs, rr, out, msg, msgsz);
  engine_rtl_fault_text(rr, rs.count);
  if (rc == 0 && engine_rtl_gather(h.banks, c, arch, rr, msg, msgsz)) rc = -1;
  if (rs.tee && (fclose(rs.tee) || rename(rtmp, ro->trace))) {
    remove(rtmp);
    if (rc >= 0) snprintf(msg, msgsz, "%s: cannot write the trace: %s", ro->trace, strerror(errno));
    rc = -1;
  }
  if (cm.sink.f && engine_model_trace_close(cm.sink.f, cm.tmp, mo->trace, msg, msgsz)) rc = -1;
  if (cm.m && rc == 0) engine_model_result(cm.m, &cm.sink, c, mr);
  model_free(cm.m);
  free(rs.line);
  free(rs.buf);
  lockstep_free(ls);
  return rc;
}

/* Clears what a run noted in r (done, cycles, faults), outputs kept. */
static void engine_cosim_result_clear(engine_result *r) {
  r->done = 0, r->done_cycles = r->cycles = r->faults = 0;
  r->fault_text[0] = 0;
}

int engine_cosim_lockstep(const char *bin, const engine_config *c, const arch_config *arch,
                          const engine_opts *mo, const engine_opts *ro, engine_result *mr,
                          engine_result *rr, engine_lockstep *out, FILE *report, char *msg,
                          size_t msgsz) {
  uint64_t differs = 0;
  if (mo->trace || ro->trace) return engine_cosim_once(bin, c, arch, mo, ro, mr, rr, out, report, 0, NULL, msg, msgsz);
  int rc = engine_cosim_once(bin, c, arch, mo, ro, mr, rr, out, report, 1, &differs, msg, msgsz);
  if (rc != 2) return rc;
  engine_cosim_result_clear(mr);
  engine_cosim_result_clear(rr);
  fprintf(report, "lockstep: the digests of cycle %" PRIu64 " differ; the run repeated comparing events "
                  "(docs/trace.md \"Digest stream\")\n", differs);
  rc = engine_cosim_once(bin, c, arch, mo, ro, mr, rr, out, report, 0, NULL, msg, msgsz);
  if (rc == 0) {
    snprintf(msg, msgsz, "the digests of cycle %" PRIu64 " differ but the events agree when compared one by one "
             "(a fault of the testbench: docs/trace.md \"Digest stream\")", differs);
    return -1;
  }
  return rc;
}
