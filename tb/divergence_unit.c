/*
 * divergence_unit.c: the unit behind a lockstep divergence
 * (divergence_unit.h). Each kind has a writer: the AG kinds (bank,
 * bankwr, ag, mem) print the AG's FST scope, the listing's `access` line
 * of the same side and bank, the AG's address equation as the stream
 * configures it (model_ag_view_get) and its step, J and address in the
 * divergence cycle (for `mem`: the step whose access the address is);
 * step and gc print the PE's step counter or the GC with J and, for a
 * vector that differs, the terms of each signal that differs
 * (model_gc_terms_format); fifo, pop and push print the channel: the
 * wrapper select of the FIFO's sink followed from PE to PE
 * (docs/stream.md "WRAPPER sinks and sources") to the od register or
 * bank that produces its words, and the FUs whose programs read it.
 *
 * The divergence as data (divergence_unit_class, _fu, _reg,
 * divergence_record_json) is read from the checker's record and the
 * fields of its events (common/trace.h), never from the text made of
 * them: summary.json's `divergence_record` and the comparison's choice of
 * FU, register and mismatch class come from here.
 */
#include "divergence_unit.h"

#include <inttypes.h>
#include <string.h>

#include "isa.h"
#include "stream.h"

static const char *const unit_side_words[] = {"north", "east", "south", "west"};

int divergence_unit_kind(trace_kind k) {
  switch (k) {
  case TRACE_BANK:
  case TRACE_BANKWR:
  case TRACE_AG:
  case TRACE_MEM:
  case TRACE_STEP:
  case TRACE_GC:
  case TRACE_FIFO:
  case TRACE_POP:
  case TRACE_PUSH: return 1;
  default: return 0;
  }
}

void divergence_ag_scope(char *buf, size_t sz, int row, int col, int side, int bank) {
  snprintf(buf, sz, "TOP.tcpa_top.g_row[%d].g_col[%d].g_side[%d].g_bank[%d].g_ag.u_ag", row, col, side, bank);
}

/* Returns 1 when c knows the program's index of each of the n GC
 * dimensions (c->gc_order). */
static int unit_ordered(const engine_config *c, int n) {
  if (!c || c->gc_ndims != n || n > MODEL_UNIT_DIMS) return 0;
  for (int g = 0; g < n; g++)
    if (c->gc_order[g] < 0 || c->gc_order[g] >= n) return 0;
  return 1;
}

/* Writes the vector of n values in GC order J into buf: in the program's
 * index order "(j0, j1, j2) = (1, 0, 2)" when c knows it, else "(0, 1,
 * 2)". */
static void unit_vec(const engine_config *c, const int32_t *J, int n, char *buf, size_t sz) {
  int32_t P[MODEL_UNIT_DIMS];
  int ord = unit_ordered(c, n);
  size_t k = 0;
  if (n > MODEL_UNIT_DIMS) n = MODEL_UNIT_DIMS;
  for (int g = 0; g < n; g++) P[ord ? c->gc_order[g] : g] = J[g];
  if (ord) {
    k = (size_t)snprintf(buf, sz, "(");
    for (int d = 0; d < n && k < sz; d++) k += (size_t)snprintf(buf + k, sz - k, "%sj%d", d ? ", " : "", d);
    if (k < sz) k += (size_t)snprintf(buf + k, sz - k, ") = ");
  }
  if (k < sz) k += (size_t)snprintf(buf + k, sz - k, "(");
  for (int d = 0; d < n && k < sz; d++) k += (size_t)snprintf(buf + k, sz - k, "%s%d", d ? ", " : "", P[d]);
  if (k < sz) snprintf(buf + k, sz - k, ")");
}

/* Writes the GC's loop order "j1, j0, j2" (fastest first) into buf, or
 * "" when c does not know it. */
static void unit_loop_order(const engine_config *c, int n, char *buf, size_t sz) {
  size_t k = 0;
  buf[0] = 0;
  for (int g = 0; unit_ordered(c, n) && g < n && k < sz; g++)
    k += (size_t)snprintf(buf + k, sz - k, "%sj%d", g ? ", " : "", c->gc_order[g]);
}

/* Writes the AG's address equation into buf: its base with the PE's row
 * and column terms folded in, then a stride per dimension, in the
 * program's indices as the listing writes an access ("0 + 3*j0 + 0*j1 +
 * 1*j2") when c knows the GC's loop order, else per GC dimension ("0 +
 * 0*J0 + 3*J1 + 1*J2"). */
static void unit_ag_equation(const model_ag_view *v, const engine_config *c, char *buf, size_t sz) {
  uint32_t b = (uint32_t)v->base + (uint32_t)v->row_coef * (uint32_t)v->drow + (uint32_t)v->col_coef * (uint32_t)v->dcol;
  int n = v->ndims < MODEL_UNIT_DIMS ? v->ndims : MODEL_UNIT_DIMS, ord = unit_ordered(c, n);
  int32_t coef[MODEL_UNIT_DIMS];
  for (int g = 0; g < n; g++) coef[ord ? c->gc_order[g] : g] = v->stride[g];
  size_t k = (size_t)snprintf(buf, sz, "%d", (int32_t)b);
  for (int d = 0; d < n && k < sz; d++) k += (size_t)snprintf(buf + k, sz - k, " + %d*%c%d", coef[d], ord ? 'j' : 'J', d);
}

/* Writes the listing's `access` lines of bank `bank` on side `side` to f
 * (an access placed there, for every PE or in its per-PE bank list) whose
 * direction is the AG's mode (a read AG serves reads); returns how many. */
static int unit_access_lines(FILE *f, const char *listing, int side, int bank, int mode) {
  char main_pat[48], list_pat[48];
  const char *dir = mode == STREAM_AG_WRITE ? ": write " : mode == STREAM_AG_READ ? ": read " : ":";
  int n = 0;
  snprintf(main_pat, sizeof main_pat, ", %s bank %d,", unit_side_words[side], bank);
  snprintf(list_pat, sizeof list_pat, " %s %d", unit_side_words[side], bank);
  for (const char *p = listing; p && *p;) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char line[1024];
    snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
    const char *banks = strstr(line, "; banks:");
    int hit = !strncmp(line, "access ", 7) && strstr(line, dir) && (strstr(line, main_pat) || (banks && strstr(banks, list_pat)));
    if (hit) fprintf(f, "  %-18s %s (config.lst)\n", n++ ? "" : "access:", line);
    p = e ? e + 1 : p + len;
  }
  return n;
}

/* Returns the step s < S of AG v (a write AG) whose address is addr, J in
 * J; -1 when none of its first `limit` steps has it. */
static int64_t unit_ag_step_of(const model *m, int row, int col, int side, int bank, const model_ag_view *v,
                               uint32_t addr, int32_t *J, int64_t limit) {
  for (int64_t s = 0; s < v->steps && s < limit; s++) {
    model_ag_view w;
    uint64_t t = (uint64_t)(v->delay + s * v->ii + v->phase);
    if (model_ag_view_get(m, row, col, side, bank, t, &w) || w.step != s) continue;
    if (w.addr == addr && w.enabled) {
      memcpy(J, w.J, sizeof w.J);
      return s;
    }
  }
  return -1;
}

/* The lines of a bank, bankwr, ag or mem divergence. */
static void unit_ag_write(FILE *f, const lockstep_divergence *d, const model *m, const engine_config *c) {
  const char *listing = c ? c->listing : NULL;
  const trace_event *e = d->has_model ? &d->model : &d->rtl;
  int side = e->side & 3, bank = e->port;
  model_ag_view v;
  char scope[200], eq[300], J[160], order[80];
  divergence_ag_scope(scope, sizeof scope, d->row, d->col, side, bank);
  if (model_ag_view_get(m, d->row, d->col, side, bank, d->cycle, &v)) {
    fprintf(f, "  unit:              no bank %d on the %s side of PE (%d,%d) in the configuration\n", bank,
            unit_side_words[side], d->row, d->col);
    return;
  }
  static const char *const modes[] = {"off", "read: bank -> PE", "write: PE -> bank"};
  fprintf(f, "  unit:              the address generator of bank %d on the %s side of PE (%d,%d) (%s), %s\n", bank,
          unit_side_words[side], d->row, d->col, modes[v.mode >= 0 && v.mode <= 2 ? v.mode : 0], scope);
  if (!unit_access_lines(f, listing, side, bank, v.mode))
    fprintf(f, "  access:            none of the listing's accesses is placed at %s bank %d\n", unit_side_words[side],
            bank);
  unit_ag_equation(&v, c, eq, sizeof eq);
  int nd = v.ndims < MODEL_UNIT_DIMS ? v.ndims : MODEL_UNIT_DIMS;
  unit_loop_order(c, nd, order, sizeof order);
  fprintf(f, "  address equation:  %s (the stream's AG: base %d, row %d*%d, column %d*%d, its strides in the GC's loop order%s%s),"
             " phase %d, %d enable constraint%s\n", eq, v.base, v.row_coef, v.drow, v.col_coef, v.dcol,
          order[0] ? " " : ", J", order, v.phase, v.ncons, v.ncons == 1 ? "" : "s");
  if (d->kind == TRACE_MEM) {
    int32_t Jw[MODEL_UNIT_DIMS] = {0};
    int64_t s = v.mode == STREAM_AG_WRITE ? unit_ag_step_of(m, d->row, d->col, side, bank, &v, e->addr, Jw, 1 << 20)
                                          : -1;
    if (s >= 0) {
      unit_vec(c, Jw, nd, J, sizeof J);
      fprintf(f, "  iteration:         address %u is written at the AG's step %" PRId64 ", J = %s, cycle %" PRId64
                 " (d(r,c) %" PRId64 " + step * pi %d + phase %d)\n", e->addr, s, J,
              v.delay + s * v.ii + v.phase, v.delay, v.ii, v.phase);
    } else {
      fprintf(f, "  iteration:         address %u is %s (the `mem` lines list every word written since reset)\n",
              e->addr, v.mode == STREAM_AG_WRITE ? "not an address of the AG's enabled steps: an input word (IODATA)"
                                                 : "an input word (IODATA) of a read bank");
    }
    return;
  }
  if (v.step >= v.steps) {
    fprintf(f, "  iteration:         cycle %" PRIu64 " is after the AG's last step S - 1 = %" PRId64 " (d(r,c) %" PRId64
               ", pi %d, phase %d): its counter holds\n", d->cycle, v.steps - 1, v.delay, v.ii, v.phase);
  } else if (v.step < 0) {
    fprintf(f, "  iteration:         cycle %" PRIu64 " is before the AG's first step (d(r,c) %" PRId64 " + phase %d):"
               " its counter holds its first address, J = 0: address %u by the equation\n", d->cycle, v.delay, v.phase,
            v.addr);
  } else {
    unit_vec(c, v.J, nd, J, sizeof J);
    fprintf(f, "  iteration:         cycle %" PRIu64 " is the AG's step %" PRId64 " of %" PRId64 " (d(r,c) %" PRId64
               ", pi %d, phase %d)%s, J = %s: address %u by the equation%s\n", d->cycle, v.step, v.steps, v.delay,
            v.ii, v.phase, v.at_event ? ", its access cycle" : "", J, v.addr,
            v.at_event && !v.enabled ? " (its enable does not hold there: no access)" : "");
  }
}

/* The lines of a step or gc divergence. */
static void unit_gc_write(FILE *f, const lockstep_divergence *d, const model *m, const engine_config *c) {
  model_gc_view g;
  char J[160], b[160], order[80];
  if (model_gc_view_get(m, d->row, d->col, d->cycle, &g)) {
    fprintf(f, "  unit:              no global controller is started in the configuration\n");
    return;
  }
  int nd = g.ndims < MODEL_UNIT_DIMS ? g.ndims : MODEL_UNIT_DIMS;
  unit_vec(NULL, g.bound, nd, b, sizeof b);
  unit_loop_order(c, nd, order, sizeof order);
  if (d->kind == TRACE_STEP) {
    fprintf(f, "  unit:              the step counter of PE (%d,%d), TOP.tcpa_top.g_row[%d].g_col[%d].u_pe.u_stepper\n",
            d->row, d->col, d->row, d->col);
    unit_vec(c, g.pe_J, nd, J, sizeof J);
    if (!g.in_region)
      fprintf(f, "  iteration:         the PE is outside the started region: its counter stays 0\n");
    else if (g.pe_step >= g.steps)
      fprintf(f, "  iteration:         cycle %" PRIu64 " is after the PE's last step S - 1 = %" PRId64 " (from cycle d(r,c) + S"
                 " * pi = %" PRId64 " its counter stays at S = %" PRId64 "; d(r,c) %" PRId64 ", pi %d)\n", d->cycle,
              g.steps - 1, g.delay + g.steps * g.ii, g.steps, g.delay, g.ii);
    else
      fprintf(f, "  iteration:         cycle %" PRIu64 " is step %" PRId64 " of the PE (s = min((t - d(r,c)) / pi, S),"
                 " d(r,c) %" PRId64 ", pi %d, S %" PRId64 "), J = %s\n", d->cycle, g.pe_step, g.delay, g.ii,
              g.steps, J);
  } else {
    fprintf(f, "  unit:              global controller %d (TOP.tcpa_top.g_gc[%d].u_gc) of the region %dx%d at (%d,%d)\n",
            g.gc, g.gc, g.rows, g.cols, g.row0, g.col0);
  }
  fprintf(f, "  loop:              pi %d, bounds %s%s%s%s, epilog %d: S = %" PRId64 " steps, %d terms\n", g.ii, b,
          order[0] ? " of " : "", order, order[0] ? " (fastest first)" : "", g.epilog, g.steps, g.nterms);
  if (d->kind != TRACE_GC) return;
  if (g.gc_step < 0 && d->cycle + 1 >= (uint64_t)(g.steps * g.ii)) {
    fprintf(f, "  iteration:         cycle %" PRIu64 " is after the GC's last step: step S - 1 = %" PRId64
               " began in cycle %" PRId64 " (step s begins in cycle s * pi - 1)\n", d->cycle, g.steps - 1,
            (g.steps - 1) * g.ii - 1);
  } else if (g.gc_step < 0) {
    fprintf(f, "  iteration:         the GC begins no step in cycle %" PRIu64 " (step s begins in cycle s * pi - 1)\n",
            d->cycle);
  } else {
    unit_vec(c, g.gc_J, nd, J, sizeof J);
    fprintf(f, "  iteration:         cycle %" PRIu64 " = step %" PRId64 " * pi - 1: the GC begins step %" PRId64
               ", J = %s, vector 0x%08x\n", d->cycle, g.gc_step, g.gc_step, J, g.gc_vector);
  }
  uint32_t diff = d->has_model && d->has_rtl ? d->model.value ^ d->rtl.value : 0;
  for (int i = 0; i < 32; i++) {
    if (!(diff >> i & 1)) continue;
    char terms[600];
    int n = model_gc_terms_format(m, i, unit_ordered(c, g.ndims) ? c->gc_order : NULL, terms, sizeof terms);
    fprintf(f, "  signal c%d:         model %u, RTL %u; %s%s\n", i, d->model.value >> i & 1, d->rtl.value >> i & 1,
            n ? "its terms: " : "no term", n ? terms : "");
  }
}

/* Writes the source of select sel of PE (r, c) into buf, following a
 * wrapper input to the neighbour whose output drives it. */
static void unit_source(const model *m, const arch_config *a, int r, int c, int sel, char *buf, size_t sz) {
  size_t n = 0;
  buf[0] = 0;
  for (int hop = 0; hop < 4 * (a->rows + a->cols) && n < sz; hop++) {
    if (sel <= 0) {
      snprintf(buf + n, sz - n, "unconnected");
      return;
    }
    int src = sel - 1;
    if (src < a->od) {
      snprintf(buf + n, sz - n, "od%d of PE (%d,%d)", src, r, c);
      return;
    }
    int side = (src - a->od) / a->ports, port = (src - a->od) % a->ports;
    int border = (side == 0 && r == 0) || (side == 1 && c == a->cols - 1) || (side == 2 && r == a->rows - 1) ||
                 (side == 3 && c == 0);
    if (border) {
      if (port < a->banks)
        snprintf(buf + n, sz - n, "bank %d on the %s side of PE (%d,%d) (its AG)", port, unit_side_words[side], r, c);
      else
        snprintf(buf + n, sz - n, "the %s border's port %d of PE (%d,%d) (no bank)", unit_side_words[side], port, r, c);
      return;
    }
    n += (size_t)snprintf(buf + n, sz - n, "%s port %d of PE (%d,%d) <- ", unit_side_words[side], port, r, c);
    static const int dr[] = {-1, 0, 1, 0}, dc[] = {0, 1, 0, -1};
    r += dr[side], c += dc[side];
    int opposite = (side + 2) & 3;
    sel = model_sink_select(m, r, c, a->id + opposite * a->ports + port);
  }
}

/* The lines of a fifo, pop or push divergence. */
static void unit_fifo_write(FILE *f, const lockstep_divergence *d, const model *m, const arch_config *a) {
  const trace_event *e = d->has_model ? &d->model : &d->rtl;
  if (e->reg_cls != ISA_CLS_ID) return;
  int k = e->reg_idx;
  char src[600];
  fprintf(f, "  unit:              input FIFO id%d of PE (%d,%d), TOP.tcpa_top.g_row[%d].g_col[%d].u_pe.g_fifo[%d].u_fifo"
             " (depth %d)\n", k, d->row, d->col, d->row, d->col, k, a->fifo_depth);
  unit_source(m, a, d->row, d->col, model_sink_select(m, d->row, d->col, k), src, sizeof src);
  fprintf(f, "  producer:          %s\n", src);
  int any = 0, nfu = a->alu + a->mul + a->div;
  for (int fu = 0; fu < nfu; fu++) {
    uint64_t pcs = model_fu_reads(m, d->row, d->col, fu, ISA_CLS_ID, k);
    if (!pcs) continue;
    fprintf(f, "  %-18s FU %d at pc", any++ ? "" : "consumers:", fu);
    for (int pc = 0; pc < 64; pc++)
      if (pcs >> pc & 1) fprintf(f, " %d", pc);
    fputc('\n', f);
  }
  if (!any) fprintf(f, "  consumers:         no FU's program reads id%d\n", k);
}

void divergence_unit_write(FILE *f, const lockstep_divergence *d, const model *m, const arch_config *arch,
                           const engine_config *c) {
  if (!m || d->diff < LOCKSTEP_DIFF_VALUE || d->diff > LOCKSTEP_DIFF_EXTRA || !divergence_unit_kind(d->kind)) return;
  switch (d->kind) {
  case TRACE_BANK:
  case TRACE_BANKWR:
  case TRACE_AG:
  case TRACE_MEM: unit_ag_write(f, d, m, c); break;
  case TRACE_STEP:
  case TRACE_GC: unit_gc_write(f, d, m, c); break;
  default: unit_fifo_write(f, d, m, arch); break;
  }
}

void divergence_unit_names(const lockstep_divergence *d, int gc, char *buf, size_t sz) {
  const trace_event *e = d->has_model ? &d->model : &d->rtl;
  char pe[96];
  buf[0] = 0;
  if (d->diff < LOCKSTEP_DIFF_VALUE || d->diff > LOCKSTEP_DIFF_EXTRA) return;
  snprintf(pe, sizeof pe, "TOP.tcpa_top.g_row[%d].g_col[%d].u_pe", d->row, d->col);
  switch (d->kind) {
  case TRACE_BANK:
  case TRACE_BANKWR:
  case TRACE_AG:
  case TRACE_MEM: divergence_ag_scope(buf, sz, d->row, d->col, e->side & 3, e->port); break;
  case TRACE_STEP: snprintf(buf, sz, "%s.dbg_step_o %s.u_stepper", pe, pe); break;
  case TRACE_GC:
    snprintf(buf, sz, "TOP.tcpa_top.dbg_gc_begin_o TOP.tcpa_top.dbg_gc_step_o TOP.tcpa_top.dbg_gc_sig_o "
             "TOP.tcpa_top.g_gc[%d].u_gc", gc < 0 ? 0 : gc);
    break;
  case TRACE_FIFO:
  case TRACE_POP:
  case TRACE_PUSH:
    if (e->reg_cls == ISA_CLS_ID) snprintf(buf, sz, "%s.dbg_fifocnt_o %s.g_fifo[%d].u_fifo", pe, pe, e->reg_idx);
    break;
  default: break;
  }
}

/* ---- the divergence as data ---------------------------------------------- */

const char *divergence_diff_name(lockstep_diff diff) {
  switch (diff) {
  case LOCKSTEP_DIFF_VALUE: return "value";
  case LOCKSTEP_DIFF_MISSING: return "missing";
  case LOCKSTEP_DIFF_EXTRA: return "extra";
  case LOCKSTEP_DIFF_VERSION: return "version";
  case LOCKSTEP_DIFF_FINGERPRINT: return "fingerprint";
  default: return "none";
  }
}

const trace_event *divergence_event(const lockstep_divergence *d) {
  return d->has_model ? &d->model : d->has_rtl ? &d->rtl : NULL;
}

/* Returns the prefix of register class cls ("rd"), NULL for none. */
static const char *unit_reg_prefix(int cls) {
  switch (cls) {
  case ISA_CLS_RD: return "rd";
  case ISA_CLS_FD: return "fd";
  case ISA_CLS_ID: return "id";
  case ISA_CLS_OD: return "od";
  default: return NULL;
  }
}

/* Returns 1 when events of kind k name a register (reg_cls, reg_idx). */
static int unit_has_reg(trace_kind k) {
  return k == TRACE_WR || k == TRACE_POP || k == TRACE_FDRD || k == TRACE_RF || k == TRACE_FIFO || k == TRACE_PUSH;
}

/* Returns 1 when events of kind k name a side and bank (side, port). */
static int unit_has_bank(trace_kind k) {
  return k == TRACE_BANK || k == TRACE_BANKWR || k == TRACE_AG || k == TRACE_MEM;
}

void divergence_unit_class(const lockstep_divergence *d, char *buf, size_t sz) {
  const trace_event *e = divergence_event(d);
  const char *reg = e && unit_has_reg(e->kind) ? unit_reg_prefix(e->reg_cls) : NULL;
  buf[0] = 0;
  if (!e) return;
  switch (e->kind) {
  case TRACE_ISSUE:
  case TRACE_INSN:
  case TRACE_FLAG:
  case TRACE_HALT: snprintf(buf, sz, "FU"); break;
  case TRACE_WR: snprintf(buf, sz, "FU -> %s", reg ? reg : "?"); break;
  case TRACE_POP:
  case TRACE_FDRD:
  case TRACE_RF:
  case TRACE_FIFO:
  case TRACE_PUSH: snprintf(buf, sz, "%s", reg ? reg : "?"); break;
  case TRACE_HOP: snprintf(buf, sz, "port"); break;
  case TRACE_BANK:
  case TRACE_BANKWR:
  case TRACE_AG:
  case TRACE_MEM: snprintf(buf, sz, "bank"); break;
  case TRACE_STEP: snprintf(buf, sz, "step counter"); break;
  case TRACE_GC: snprintf(buf, sz, "global controller"); break;
  case TRACE_SIG: snprintf(buf, sz, "control signals"); break;
  case TRACE_FAULT: snprintf(buf, sz, "%s", trace_fault_name(e->fault) ? trace_fault_name(e->fault) : "?"); break;
  default: break;
  }
}

int divergence_unit_fu(const lockstep_divergence *d) {
  const trace_event *e = divergence_event(d);
  if (!e) return -1;
  switch (e->kind) {
  case TRACE_ISSUE:
  case TRACE_INSN:
  case TRACE_FLAG:
  case TRACE_HALT:
  case TRACE_WR: return e->fu;
  default: return -1;
  }
}

void divergence_unit_reg(const lockstep_divergence *d, char *buf, size_t sz) {
  const trace_event *e = divergence_event(d);
  const char *p = e && unit_has_reg(e->kind) ? unit_reg_prefix(e->reg_cls) : NULL;
  if (p) snprintf(buf, sz, "%s%d", p, e->reg_idx);
  else if (sz) buf[0] = 0;
}

/* Writes member key of w: the integer v when has, else null. */
static void unit_json_int(json_writer *w, const char *key, int has, int64_t v) {
  if (has) json_writer_int(w, key, v);
  else json_writer_null(w, key);
}

/* Writes member key of w: event e in the trace's text (has), else null. */
static void unit_json_event(json_writer *w, const char *key, int has, const trace_event *e) {
  char text[160];
  if (!has) {
    json_writer_null(w, key);
    return;
  }
  trace_event_format(e, text, sizeof text);
  json_writer_string(w, key, text);
}

void divergence_record_json(json_writer *w, const char *key, const lockstep_divergence *d) {
  const trace_event *e = d ? divergence_event(d) : NULL;
  if (!e || d->diff < LOCKSTEP_DIFF_VALUE || d->diff > LOCKSTEP_DIFF_EXTRA) {
    json_writer_null(w, key);
    return;
  }
  char cls[64], reg[16], side[2] = {"nesw"[e->side & 3], 0};
  divergence_unit_class(d, cls, sizeof cls);
  divergence_unit_reg(d, reg, sizeof reg);
  int fu = divergence_unit_fu(d), bank = unit_has_bank(e->kind), hop = e->kind == TRACE_HOP;
  json_writer_begin_object(w, key);
  json_writer_uint(w, "cycle", d->cycle);
  if (d->row >= 0 && d->col >= 0) {
    json_writer_begin_array(w, "pe");
    json_writer_int(w, NULL, d->row);
    json_writer_int(w, NULL, d->col);
    json_writer_end_array(w);
  } else {
    json_writer_null(w, "pe");
  }
  json_writer_string(w, "kind", trace_kind_name(d->kind) ? trace_kind_name(d->kind) : "?");
  json_writer_string(w, "unit", d->unit);
  json_writer_string(w, "unit_class", cls);
  unit_json_int(w, "fu", fu >= 0, fu);
  if (reg[0]) json_writer_string(w, "register", reg);
  else json_writer_null(w, "register");
  if (bank || hop) json_writer_string(w, "side", side);
  else json_writer_null(w, "side");
  unit_json_int(w, "bank", bank, e->port);
  unit_json_int(w, "port", hop, e->port);
  unit_json_int(w, "address", e->kind == TRACE_MEM, e->addr);
  if (e->kind == TRACE_FAULT && trace_fault_name(e->fault)) json_writer_string(w, "fault", trace_fault_name(e->fault));
  else json_writer_null(w, "fault");
  json_writer_string(w, "diff", divergence_diff_name(d->diff));
  unit_json_event(w, "expected", d->has_model, &d->model);
  unit_json_event(w, "got", d->has_rtl, &d->rtl);
  json_writer_end_object(w);
}

void divergence_unit_focus(const lockstep_divergence *d, char *buf, size_t sz) {
  char reg[16];
  int fu = divergence_unit_fu(d);
  divergence_unit_reg(d, reg, sizeof reg);
  if (fu >= 0) snprintf(buf, sz, "FU %d%s%s", fu, reg[0] ? " " : "", reg);
  else snprintf(buf, sz, "%s", reg);
}
