/*
 * fieldcov.c: field coverage of configuration streams (fieldcov.h,
 * docs/regress.md "Field coverage").
 *
 * The table fc_specs holds one row per field of docs/stream.md and
 * docs/isa.md: its bin name pattern, its kind (an unsigned value from 0,
 * a count from 1, a signed value, a signed 32-bit word with its extremes,
 * an enumeration, a wrapper select, a branch condition source, a register
 * index), the configuration bound of its largest legal value and what it
 * repeats over (packet types for the packet header, dimensions for bounds,
 * strides and constraint coefficients, fds, wrapper sinks, FU classes for
 * instruction fields). The instruction fields are read from the word with
 * the positions and sizes of common/isa.h (fc_insn_fields), the opcodes
 * from the ISA's own table (isa_op_get); enumerations whose values depend
 * on the configuration (operand classes, opcodes of an FU class, branch
 * selector counts) define a bin only for the values the configuration
 * allows. fieldcov_new defines, for every field instance, one bin per
 * value class that can occur on the configuration, disjoint classes:
 *
 *   unsigned from 0: zero, nonzero (0 < v < max), max
 *   count from 1:    one, more (1 < v < max), max
 *   signed:          zero, pos, neg
 *   32-bit word:     zero, pos, neg, max (2^31-1), min (-2^31)
 *
 * (no `max` where the format sets no bound). fieldcov_packet counts one
 * packet: a field counts where it acts (an AG's fields when its mode is
 * not off, a row coefficient or delay slope when its rectangle spans two
 * rows or more, a source operand the opcode reads, a target the branch
 * uses).
 */
#include "fieldcov.h"

#include <stdlib.h>
#include <string.h>

#include "isa.h"

/* ---- the field table ------------------------------------------------------ */

typedef enum {
  FK_UNS,  /* 0..max: zero nonzero max */
  FK_CNT,  /* 1..max: one more max */
  FK_SGN,  /* signed: zero pos neg */
  FK_S32,  /* 32-bit word: zero pos neg max min */
  FK_ENUM, /* each legal value (fc_enum_name) */
  FK_SEL,  /* wrapper select: off od n e s w max */
  FK_BSEL, /* branch condition: sig0 sig sigmax flag0 flag flagmax */
  FK_IDX   /* register index: zero nonzero max of its register class */
} fc_kind;

typedef enum { FR_ONE, FR_TYPE, FR_DIMS, FR_FD, FR_SINK, FR_FUCLS } fc_rep;

/* The configuration bound of a field's largest legal value. */
typedef enum {
  FB_NONE, FB_ROW, FB_COL, FB_ROWS, FB_COLS, FB_FU, FB_GC, FB_BANK, FB_DIMS, FB_CONS, FB_TERMS, FB_SIGNAL,
  FB_FDDEPTH, FB_ADDR, FB_DEPTH, FB_DELAY, FB_ODMASK, FB_PC
} fc_bound;

typedef enum {
  F_ROW0, F_COL0, F_ROWS, F_COLS, F_PROG_FU, F_GC_INDEX, F_START_INDEX, F_AG_BANK, F_AG_SIDE, F_IO_BANK,
  F_IO_SIDE, F_REGCFG, F_WRAPPER,
  F_GC_II, F_GC_NDIMS, F_GC_BOUND, F_GC_EPILOG, F_GC_DELAY0, F_GC_DROW, F_GC_DCOL, F_GC_NTERMS, F_GC_SIGNAL,
  F_GC_ROWLO, F_GC_ROWSKIP, F_GC_COLLO, F_GC_COLSKIP, F_GC_NCONS, F_GC_KIND, F_GC_COEF, F_GC_KONST,
  F_AG_MODE, F_AG_NDIMS, F_AG_PHASE, F_AG_BASE, F_AG_RCOEF, F_AG_CCOEF, F_AG_STRIDE, F_AG_NCONS, F_AG_KIND,
  F_AG_COEF, F_AG_KONST,
  F_IO_START, F_IO_WORDS, F_IO_DATA,
  F_OP, F_DST_CLS, F_DST_IDX, F_ODMASK, F_SRCA_CLS, F_SRCA_IDX, F_SRCB_CLS, F_SRCB_IDX, F_SRCC_CLS,
  F_SRCC_IDX, F_IMM, F_NOP_N, F_BKIND, F_BNSEL, F_BSEL0, F_BSEL1, F_BT0, F_BT1, F_BT2, F_BT3,
  F_COUNT
} fc_field;

typedef struct {
  const char *name; /* bin name up to the class; %s or %d: the repetition */
  fc_kind kind;
  fc_bound bound;
  fc_rep rep;
} fc_spec;

static const fc_spec fc_specs[F_COUNT] = {
    /* packet header (docs/stream.md "Packets"), per packet type */
    [F_ROW0] = {"field.%s.row0", FK_UNS, FB_ROW, FR_TYPE},
    [F_COL0] = {"field.%s.col0", FK_UNS, FB_COL, FR_TYPE},
    [F_ROWS] = {"field.%s.rows", FK_CNT, FB_ROWS, FR_TYPE},
    [F_COLS] = {"field.%s.cols", FK_CNT, FB_COLS, FR_TYPE},
    [F_PROG_FU] = {"field.program.fu", FK_UNS, FB_FU, FR_ONE},
    [F_GC_INDEX] = {"field.gc.index", FK_UNS, FB_GC, FR_ONE},
    [F_START_INDEX] = {"field.start.index", FK_UNS, FB_GC, FR_ONE},
    [F_AG_BANK] = {"field.ag.bank", FK_UNS, FB_BANK, FR_ONE},
    [F_AG_SIDE] = {"field.ag.side", FK_ENUM, FB_NONE, FR_ONE},
    [F_IO_BANK] = {"field.iodata.bank", FK_UNS, FB_BANK, FR_ONE},
    [F_IO_SIDE] = {"field.iodata.side", FK_ENUM, FB_NONE, FR_ONE},
    /* REGCFG: the depth of each fd; WRAPPER: the select of each sink */
    [F_REGCFG] = {"field.regcfg.fd%d", FK_CNT, FB_FDDEPTH, FR_FD},
    [F_WRAPPER] = {"field.wrapper.%s", FK_SEL, FB_NONE, FR_SINK},
    /* GC payload */
    [F_GC_II] = {"field.gc.ii", FK_CNT, FB_NONE, FR_ONE},
    [F_GC_NDIMS] = {"field.gc.ndims", FK_CNT, FB_DIMS, FR_ONE},
    [F_GC_BOUND] = {"field.gc.bound%d", FK_CNT, FB_NONE, FR_DIMS},
    [F_GC_EPILOG] = {"field.gc.epilog", FK_UNS, FB_NONE, FR_ONE},
    [F_GC_DELAY0] = {"field.gc.delay0", FK_UNS, FB_DELAY, FR_ONE},
    [F_GC_DROW] = {"field.gc.delay_row", FK_SGN, FB_NONE, FR_ONE},
    [F_GC_DCOL] = {"field.gc.delay_col", FK_SGN, FB_NONE, FR_ONE},
    [F_GC_NTERMS] = {"field.gc.nterms", FK_UNS, FB_TERMS, FR_ONE},
    [F_GC_SIGNAL] = {"field.gc.term.signal", FK_UNS, FB_SIGNAL, FR_ONE},
    [F_GC_ROWLO] = {"field.gc.term.row_lo", FK_UNS, FB_NONE, FR_ONE},
    [F_GC_ROWSKIP] = {"field.gc.term.row_skip", FK_UNS, FB_NONE, FR_ONE},
    [F_GC_COLLO] = {"field.gc.term.col_lo", FK_UNS, FB_NONE, FR_ONE},
    [F_GC_COLSKIP] = {"field.gc.term.col_skip", FK_UNS, FB_NONE, FR_ONE},
    [F_GC_NCONS] = {"field.gc.term.ncons", FK_UNS, FB_CONS, FR_ONE},
    [F_GC_KIND] = {"field.gc.cons.kind", FK_ENUM, FB_NONE, FR_ONE},
    [F_GC_COEF] = {"field.gc.cons.coef%d", FK_SGN, FB_NONE, FR_DIMS},
    [F_GC_KONST] = {"field.gc.cons.konst", FK_SGN, FB_NONE, FR_ONE},
    /* AG payload */
    [F_AG_MODE] = {"field.ag.mode", FK_ENUM, FB_NONE, FR_ONE},
    [F_AG_NDIMS] = {"field.ag.ndims", FK_CNT, FB_DIMS, FR_ONE},
    [F_AG_PHASE] = {"field.ag.phase", FK_UNS, FB_NONE, FR_ONE},
    [F_AG_BASE] = {"field.ag.base", FK_SGN, FB_NONE, FR_ONE},
    [F_AG_RCOEF] = {"field.ag.row_coef", FK_SGN, FB_NONE, FR_ONE},
    [F_AG_CCOEF] = {"field.ag.col_coef", FK_SGN, FB_NONE, FR_ONE},
    [F_AG_STRIDE] = {"field.ag.stride%d", FK_SGN, FB_NONE, FR_DIMS},
    [F_AG_NCONS] = {"field.ag.ncons", FK_UNS, FB_CONS, FR_ONE},
    [F_AG_KIND] = {"field.ag.cons.kind", FK_ENUM, FB_NONE, FR_ONE},
    [F_AG_COEF] = {"field.ag.cons.coef%d", FK_SGN, FB_NONE, FR_DIMS},
    [F_AG_KONST] = {"field.ag.cons.konst", FK_SGN, FB_NONE, FR_ONE},
    /* IODATA */
    [F_IO_START] = {"field.iodata.start", FK_UNS, FB_ADDR, FR_ONE},
    [F_IO_WORDS] = {"field.iodata.words", FK_CNT, FB_DEPTH, FR_ONE},
    [F_IO_DATA] = {"field.iodata.data", FK_S32, FB_NONE, FR_ONE},
    /* instruction words (docs/isa.md), per FU class */
    [F_OP] = {"insn.%s.op", FK_ENUM, FB_NONE, FR_FUCLS},
    [F_DST_CLS] = {"insn.%s.dst.cls", FK_ENUM, FB_NONE, FR_FUCLS},
    [F_DST_IDX] = {"insn.%s.dst.idx", FK_IDX, FB_NONE, FR_FUCLS},
    [F_ODMASK] = {"insn.%s.odmask", FK_UNS, FB_ODMASK, FR_FUCLS},
    [F_SRCA_CLS] = {"insn.%s.srca.cls", FK_ENUM, FB_NONE, FR_FUCLS},
    [F_SRCA_IDX] = {"insn.%s.srca.idx", FK_IDX, FB_NONE, FR_FUCLS},
    [F_SRCB_CLS] = {"insn.%s.srcb.cls", FK_ENUM, FB_NONE, FR_FUCLS},
    [F_SRCB_IDX] = {"insn.%s.srcb.idx", FK_IDX, FB_NONE, FR_FUCLS},
    [F_SRCC_CLS] = {"insn.%s.srcc.cls", FK_ENUM, FB_NONE, FR_FUCLS},
    [F_SRCC_IDX] = {"insn.%s.srcc.idx", FK_IDX, FB_NONE, FR_FUCLS},
    [F_IMM] = {"insn.%s.imm", FK_S32, FB_NONE, FR_FUCLS},
    [F_NOP_N] = {"insn.%s.nop_n", FK_UNS, FB_NONE, FR_FUCLS},
    [F_BKIND] = {"insn.%s.bkind", FK_ENUM, FB_NONE, FR_FUCLS},
    [F_BNSEL] = {"insn.%s.bnsel", FK_ENUM, FB_NONE, FR_FUCLS},
    [F_BSEL0] = {"insn.%s.bsel0", FK_BSEL, FB_NONE, FR_FUCLS},
    [F_BSEL1] = {"insn.%s.bsel1", FK_BSEL, FB_NONE, FR_FUCLS},
    [F_BT0] = {"insn.%s.bt0", FK_UNS, FB_PC, FR_FUCLS},
    [F_BT1] = {"insn.%s.bt1", FK_UNS, FB_PC, FR_FUCLS},
    [F_BT2] = {"insn.%s.bt2", FK_UNS, FB_PC, FR_FUCLS},
    [F_BT3] = {"insn.%s.bt3", FK_UNS, FB_PC, FR_FUCLS},
};

/* The instruction fields of common/isa.h, each with its position and size
 * in the 128-bit word: the counter reads them from the raw word. */
typedef struct {
  fc_field cls, idx; /* operands: class and index fields; else cls only */
  int pos, size;
} fc_insn_field;

static const fc_insn_field fc_insn_fields[] = {
    {F_OP, F_COUNT, ISA_POS_OP, ISA_SIZE_OP},
    {F_DST_CLS, F_DST_IDX, ISA_POS_DST, ISA_SIZE_DST},
    {F_SRCA_CLS, F_SRCA_IDX, ISA_POS_SRCA, ISA_SIZE_SRC},
    {F_SRCB_CLS, F_SRCB_IDX, ISA_POS_SRCB, ISA_SIZE_SRC},
    {F_SRCC_CLS, F_SRCC_IDX, ISA_POS_SRCC, ISA_SIZE_SRC},
    {F_ODMASK, F_COUNT, ISA_POS_ODMASK, ISA_SIZE_ODMASK},
    {F_IMM, F_COUNT, ISA_POS_IMM, ISA_SIZE_IMM},
    {F_BKIND, F_COUNT, ISA_POS_BKIND, ISA_SIZE_BKIND},
    {F_BNSEL, F_COUNT, ISA_POS_BNSEL, ISA_SIZE_BNSEL},
    {F_BSEL0, F_COUNT, ISA_POS_BSEL(0), ISA_SIZE_BSEL},
    {F_BSEL1, F_COUNT, ISA_POS_BSEL(1), ISA_SIZE_BSEL},
    {F_BT0, F_COUNT, ISA_POS_BT(0), ISA_SIZE_BT},
    {F_BT1, F_COUNT, ISA_POS_BT(1), ISA_SIZE_BT},
    {F_BT2, F_COUNT, ISA_POS_BT(2), ISA_SIZE_BT},
    {F_BT3, F_COUNT, ISA_POS_BT(3), ISA_SIZE_BT},
};
_Static_assert(ISA_SEL_COUNT == 2 && ISA_MAX_TARGETS == 4, "fc_insn_fields: one row per selector and target");

#define FC_CLASSES 32 /* classes of one field: at most ISA_OP_COUNT values */
_Static_assert(ISA_OP_COUNT <= FC_CLASSES, "an opcode per class");

/* Range classes (FK_UNS, FK_CNT, FK_SGN, FK_S32, FK_IDX). */
enum { C_ZERO, C_ONE, C_MID, C_MAX, C_NEG, C_POS, C_MIN };
/* Wrapper select classes (FK_SEL): off, od, the four sides, the last source. */
enum { S_OFF, S_OD, S_N, S_E, S_S, S_W, S_MAX };
/* Branch condition classes (FK_BSEL). */
enum { B_SIG0, B_SIG, B_SIGMAX, B_FLAG0, B_FLAG, B_FLAGMAX };

static const char *const fc_type_names[] = {"program", "regcfg", "wrapper", "gc", "ag", "iodata", "start"};
static const char *const fc_sides = "nesw";

struct fieldcov {
  fcov_set *s;
  arch_config cfg;
  int base[F_COUNT], nrep[F_COUNT]; /* instances of each field: base .. base + nrep - 1 */
  int64_t hi[F_COUNT];              /* the largest legal value; -1: no bound */
  long *bin;                        /* [instance][FC_CLASSES]: the bin, -1 none */
  int ninst;
};

/* Returns the largest legal value of bound b on cfg (-1: none). */
static int64_t fc_bound_value(fc_bound b, const arch_config *c) {
  int nbank = c->banks < c->ports ? c->banks : c->ports;
  switch (b) {
  case FB_NONE: return -1;
  case FB_ROW: return c->rows - 1;
  case FB_COL: return c->cols - 1;
  case FB_ROWS: return c->rows;
  case FB_COLS: return c->cols;
  case FB_FU: return isa_fu_count(c) - 1;
  case FB_GC: return STREAM_GCS - 1;
  case FB_BANK: return nbank - 1;
  case FB_DIMS: return c->gc_dims;
  case FB_CONS: return STREAM_MAX_CONS(c);
  case FB_TERMS: return STREAM_GC_MAX_TERMS(c);
  case FB_SIGNAL: return c->gc_signals - 1;
  case FB_FDDEPTH: return c->fd_depth;
  case FB_ADDR: return c->bank_depth - 1;
  case FB_DEPTH: return c->bank_depth;
  case FB_DELAY: return INT32_MAX;
  case FB_ODMASK: return (int64_t)((1u << c->od) - 1u);
  case FB_PC: return c->imem - 1;
  }
  return -1;
}

/* Returns the number of repetitions of rep on cfg. */
static int fc_rep_count(fc_rep rep, const arch_config *c) {
  switch (rep) {
  case FR_ONE: return 1;
  case FR_TYPE: return 7;
  case FR_DIMS: return c->gc_dims;
  case FR_FD: return c->fd;
  case FR_SINK: return c->id + 4 * c->ports;
  case FR_FUCLS: return 3;
  }
  return 0;
}

/* Returns the number of FUs of class cls on cfg. */
static int fc_fus(const arch_config *c, int cls) {
  return cls == ISA_FU_ALU ? c->alu : cls == ISA_FU_MUL ? c->mul : c->div;
}

/* Returns the most sources an opcode of FU class cls reads. */
static int fc_max_src(int cls) {
  int n = 0;
  for (int op = 0; op < ISA_OP_COUNT; op++) {
    const isa_op_info *i = isa_op_get((isa_op)op);
    if ((int)i->fu == cls && i->nsrc > n) n = i->nsrc;
  }
  return n;
}

/* Returns the registers of operand class cls on cfg (0 for none, imm). */
static int fc_regs(const arch_config *c, int cls) {
  return cls == ISA_CLS_RD ? c->rd : cls == ISA_CLS_FD ? c->fd : cls == ISA_CLS_ID ? c->id : 0;
}

/* Returns whether instance rep of field f exists on cfg (an FU class the
 * PE has, a source its opcodes read, a selector or target its branches
 * may use). */
static int fc_rep_exists(fc_field f, int rep, const arch_config *c) {
  if (fc_specs[f].rep != FR_FUCLS) return 1;
  if (!fc_fus(c, rep)) return 0;
  switch (f) {
  case F_SRCA_CLS: case F_SRCA_IDX: return fc_max_src(rep) >= 1;
  case F_SRCB_CLS: case F_SRCB_IDX: return fc_max_src(rep) >= 2;
  case F_SRCC_CLS: case F_SRCC_IDX: return fc_max_src(rep) >= 3;
  case F_BSEL1: return c->branch_targets >= 4;
  case F_BT1: return c->branch_targets >= 2;
  case F_BT2: case F_BT3: return c->branch_targets >= 4;
  default: return 1;
  }
}

/* Returns the name of value v of enumerated field f on cfg for FU class
 * cls (instruction fields), or NULL when cfg does not allow it. */
static const char *fc_enum_name(fc_field f, int v, int cls, const arch_config *c) {
  static const char *const modes[] = {"off", "read", "write"}, *const kinds[] = {"ge", "eq"};
  static const char *const sides[] = {"n", "e", "s", "w"}, *const bkinds[] = {"next", "goto", "br", "halt"};
  static const char *const opnd[] = {"none", "rd", "fd", "id", "od", "imm"}, *const nsel[] = {"0", "1", "2"};
  switch (f) {
  case F_AG_SIDE: case F_IO_SIDE: return v >= 0 && v < 4 ? sides[v] : NULL;
  case F_AG_MODE: return v >= 0 && v < 3 ? modes[v] : NULL;
  case F_GC_KIND: case F_AG_KIND: return v >= 0 && v < 2 ? kinds[v] : NULL;
  case F_BKIND: return v >= 0 && v < 4 ? bkinds[v] : NULL;
  case F_BNSEL: return v >= 1 && v <= ISA_SEL_COUNT && (1 << v) <= c->branch_targets ? nsel[v] : NULL;
  case F_OP: {
    const isa_op_info *i = v >= 0 && v < ISA_OP_COUNT ? isa_op_get((isa_op)v) : NULL;
    return i && ((int)i->fu == cls || i->fu == ISA_FU_ANY) ? i->name : NULL;
  }
  case F_DST_CLS:
    if (v == ISA_CLS_NONE) return opnd[v];
    return (v == ISA_CLS_RD || v == ISA_CLS_FD) && fc_regs(c, v) ? opnd[v] : NULL;
  case F_SRCA_CLS: case F_SRCB_CLS: case F_SRCC_CLS:
    if (v == ISA_CLS_IMM) return opnd[v]; /* a source the opcode reads is never none */
    return v >= ISA_CLS_RD && v <= ISA_CLS_ID && fc_regs(c, v) ? opnd[v] : NULL;
  default: return NULL;
  }
}

/* Returns the name of class k of field f (instance rep) on cfg, or NULL
 * when the class cannot occur there. */
static const char *fc_class_name(const fieldcov *fc, fc_field f, int rep, int k) {
  const arch_config *c = &fc->cfg;
  int64_t hi = fc->hi[f];
  switch (fc_specs[f].kind) {
  case FK_UNS:
    return k == C_ZERO ? "zero" : k == C_MID && (hi < 0 || hi >= 2) ? "nonzero" : k == C_MAX && hi >= 1 ? "max" : NULL;
  case FK_CNT:
    return k == C_ONE ? "one" : k == C_MID && (hi < 0 || hi >= 3) ? "more" : k == C_MAX && hi >= 2 ? "max" : NULL;
  case FK_SGN: return k == C_ZERO ? "zero" : k == C_POS ? "pos" : k == C_NEG ? "neg" : NULL;
  case FK_S32:
    return k == C_ZERO ? "zero" : k == C_POS ? "pos" : k == C_NEG ? "neg" : k == C_MAX ? "max" : k == C_MIN ? "min" : NULL;
  case FK_IDX: {
    int most = 0; /* the most registers of a class an operand of this field names */
    for (int cl = ISA_CLS_RD; cl <= (f == F_DST_IDX ? ISA_CLS_FD : ISA_CLS_ID); cl++)
      if (fc_regs(c, cl) > most) most = fc_regs(c, cl);
    return k == C_ZERO && most ? "zero" : k == C_MID && most >= 3 ? "nonzero" : k == C_MAX && most >= 2 ? "max" : NULL;
  }
  case FK_ENUM: return fc_enum_name(f, k, rep, c);
  case FK_SEL: {
    static const char *const names[] = {"off", "od", "n", "e", "s", "w", "max"};
    if (k == S_OD && !c->od) return NULL;
    if (k == S_W && c->ports < 2) return NULL;
    return k <= S_MAX ? names[k] : NULL;
  }
  case FK_BSEL: {
    static const char *const names[] = {"sig0", "sig", "sigmax", "flag0", "flag", "flagmax"};
    int n = k < B_FLAG0 ? c->gc_signals : isa_fu_count(c), j = k < B_FLAG0 ? k : k - B_FLAG0;
    if (k > B_FLAGMAX || (j == 1 && n < 3) || (j == 2 && n < 2)) return NULL;
    return names[k];
  }
  }
  return NULL;
}

/* Writes the name of instance rep of field f into buf. */
static void fc_inst_name(const fieldcov *fc, fc_field f, int rep, char *buf, size_t sz) {
  const arch_config *c = &fc->cfg;
  char sink[16];
  switch (fc_specs[f].rep) {
  case FR_TYPE: snprintf(buf, sz, fc_specs[f].name, fc_type_names[rep]); return;
  case FR_FUCLS: snprintf(buf, sz, fc_specs[f].name, isa_fu_name((isa_fu_class)rep)); return;
  case FR_SINK:
    if (rep < c->id) snprintf(sink, sizeof sink, "id%d", rep);
    else snprintf(sink, sizeof sink, "%c%d", fc_sides[(rep - c->id) / c->ports], (rep - c->id) % c->ports);
    snprintf(buf, sz, fc_specs[f].name, sink);
    return;
  case FR_DIMS: case FR_FD: snprintf(buf, sz, fc_specs[f].name, rep); return;
  case FR_ONE: snprintf(buf, sz, "%s", fc_specs[f].name); return;
  }
}

fieldcov *fieldcov_new(fcov_set *s, const arch_config *cfg) {
  fieldcov *fc = calloc(1, sizeof *fc);
  if (!fc) return NULL;
  fc->s = s;
  fc->cfg = *cfg;
  for (int f = 0; f < F_COUNT; f++) {
    fc->base[f] = fc->ninst;
    fc->nrep[f] = fc_rep_count(fc_specs[f].rep, cfg);
    fc->hi[f] = fc_bound_value(fc_specs[f].bound, cfg);
    fc->ninst += fc->nrep[f];
  }
  fc->bin = malloc((size_t)(fc->ninst ? fc->ninst : 1) * FC_CLASSES * sizeof *fc->bin);
  if (!fc->bin) return free(fc), NULL;
  int err = 0;
  for (int f = 0; f < F_COUNT; f++)
    for (int r = 0; r < fc->nrep[f]; r++) {
      long *b = &fc->bin[(size_t)(fc->base[f] + r) * FC_CLASSES];
      char inst[FCOV_NAME], name[FCOV_NAME + 16];
      fc_inst_name(fc, (fc_field)f, r, inst, sizeof inst);
      for (int k = 0; k < FC_CLASSES; k++) {
        const char *cn = fc_rep_exists((fc_field)f, r, cfg) ? fc_class_name(fc, (fc_field)f, r, k) : NULL;
        b[k] = -1;
        if (!cn) continue;
        snprintf(name, sizeof name, "%s.%s", inst, cn);
        if ((b[k] = fcov_bin_define(s, name)) < 0) err = 1;
      }
    }
  if (err) return fieldcov_free(fc), NULL;
  return fc;
}

void fieldcov_free(fieldcov *f) {
  if (!f) return;
  free(f->bin);
  free(f);
}

/* ---- counting ---------------------------------------------------------------- */

/* Counts class k of instance rep of field f (nothing when it has no bin). */
static void fc_hit(fieldcov *fc, fc_field f, int rep, int k) {
  if (rep < 0 || rep >= fc->nrep[f] || k < 0 || k >= FC_CLASSES) return;
  long b = fc->bin[(size_t)(fc->base[f] + rep) * FC_CLASSES + (size_t)k];
  if (b >= 0) fc->s->v[b].count++;
}

/* Returns the range class of v for a field of kind kind whose largest
 * legal value is hi (-1: none). */
static int fc_range_class(fc_kind kind, int64_t v, int64_t hi) {
  switch (kind) {
  case FK_CNT: return v == 1 ? C_ONE : hi >= 2 && v == hi ? C_MAX : C_MID;
  case FK_SGN: return v == 0 ? C_ZERO : v > 0 ? C_POS : C_NEG;
  case FK_S32:
    return v == 0 ? C_ZERO : v == INT32_MAX ? C_MAX : v == INT32_MIN ? C_MIN : v > 0 ? C_POS : C_NEG;
  default: return v == 0 ? C_ZERO : hi >= 1 && v == hi ? C_MAX : C_MID;
  }
}

/* Counts value v of instance rep of field f. */
static void fc_value(fieldcov *fc, fc_field f, int rep, int64_t v) {
  fc_kind k = fc_specs[f].kind;
  fc_hit(fc, f, rep, k == FK_ENUM ? (int)v : fc_range_class(k, v, fc->hi[f]));
}

/* Returns payload word i of p as a signed value (0 past the end). */
static int64_t fc_s(const stream_packet *p, uint32_t i) {
  return i < p->nwords ? (int64_t)isa_s32(p->payload[i]) : 0;
}

/* Returns payload word i of p unsigned (0 past the end). */
static int64_t fc_u(const stream_packet *p, uint32_t i) {
  return i < p->nwords ? (int64_t)p->payload[i] : 0;
}

/* Counts a constraint list at word at of p over nd dimensions (fields
 * kind, coef, konst); returns the word after it. */
static uint32_t fc_cons(fieldcov *fc, const stream_packet *p, uint32_t at, int nd, fc_field kind, fc_field ncons_f) {
  int64_t n = fc_u(p, at++);
  fc_value(fc, ncons_f, 0, n);
  for (int64_t k = 0; k < n && at < p->nwords; k++) {
    fc_value(fc, kind, 0, fc_u(p, at++));
    for (int d = 0; d < nd; d++) fc_value(fc, kind + 1, d, fc_s(p, at++)); /* coefD */
    fc_value(fc, kind + 2, 0, fc_s(p, at++));                                 /* konst */
  }
  return at;
}
_Static_assert(F_GC_COEF == F_GC_KIND + 1 && F_GC_KONST == F_GC_KIND + 2 && F_AG_COEF == F_AG_KIND + 1 &&
                   F_AG_KONST == F_AG_KIND + 2,
               "fc_cons: kind, coef, konst in a row");

/* Counts the fields of a GC payload (docs/stream.md "GC payload"). */
static void fc_gc(fieldcov *fc, const stream_packet *p) {
  uint32_t at = 0;
  fc_value(fc, F_GC_II, 0, fc_u(p, at++));
  int nd = (int)fc_u(p, at++);
  fc_value(fc, F_GC_NDIMS, 0, nd);
  for (int d = 0; d < nd; d++) fc_value(fc, F_GC_BOUND, d, fc_u(p, at++));
  fc_value(fc, F_GC_EPILOG, 0, fc_u(p, at++));
  fc_value(fc, F_GC_DELAY0, 0, fc_s(p, at++));
  if (p->rect.rows >= 2) fc_value(fc, F_GC_DROW, 0, fc_s(p, at));
  if (p->rect.cols >= 2) fc_value(fc, F_GC_DCOL, 0, fc_s(p, at + 1));
  at += 2;
  int64_t nt = fc_u(p, at++);
  fc_value(fc, F_GC_NTERMS, 0, nt);
  for (int64_t t = 0; t < nt && at < p->nwords; t++) {
    uint32_t w = p->payload[at++];
    fc_value(fc, F_GC_SIGNAL, 0, STREAM_TERM_SIGNAL(w));
    for (int k = 0; k < 4; k++) fc_value(fc, F_GC_ROWLO + k, 0, STREAM_TERM_FIELD(w, k));
    at = fc_cons(fc, p, at, nd, F_GC_KIND, F_GC_NCONS);
  }
}
_Static_assert(F_GC_COLSKIP == F_GC_ROWLO + 3, "fc_gc: the four range fields in a row");

/* Counts the fields of an AG payload (docs/stream.md "AG payload"): the
 * mode always, the rest when the AG is not off. */
static void fc_ag(fieldcov *fc, const stream_packet *p) {
  fc_value(fc, F_AG_MODE, 0, fc_u(p, 0));
  if (fc_u(p, 0) == STREAM_AG_OFF) return;
  int nd = (int)fc_u(p, 1);
  fc_value(fc, F_AG_NDIMS, 0, nd);
  fc_value(fc, F_AG_PHASE, 0, fc_u(p, 2));
  fc_value(fc, F_AG_BASE, 0, fc_s(p, 3));
  if (p->rect.rows >= 2) fc_value(fc, F_AG_RCOEF, 0, fc_s(p, 4));
  if (p->rect.cols >= 2) fc_value(fc, F_AG_CCOEF, 0, fc_s(p, 5));
  for (int d = 0; d < nd; d++) fc_value(fc, F_AG_STRIDE, d, fc_s(p, 6 + (uint32_t)d));
  fc_cons(fc, p, 6 + (uint32_t)nd, nd, F_AG_KIND, F_AG_NCONS);
}

/* Returns the class of wrapper select sel (FK_SEL) on cfg. */
static int fc_sel_class(const arch_config *c, uint32_t sel) {
  int nsrc = c->od + 4 * c->ports;
  if (sel == 0) return S_OFF;
  if ((int)sel == nsrc) return S_MAX;
  if ((int)sel <= c->od) return S_OD;
  return S_N + ((int)sel - 1 - c->od) / c->ports;
}

/* Returns the class of branch condition source v (FK_BSEL) on cfg. */
static int fc_bsel_class(const arch_config *c, uint32_t v) {
  int flag = v >= ISA_COND_FLAG, j = flag ? (int)v - ISA_COND_FLAG : (int)v;
  int n = flag ? isa_fu_count(c) : c->gc_signals;
  return (flag ? B_FLAG0 : B_SIG0) + (j == 0 ? 0 : j == n - 1 ? 2 : 1);
}

/* Counts an operand field (class and index) of FU class cls. */
static void fc_operand(fieldcov *fc, fc_field cls_f, fc_field idx_f, int cls, uint32_t opnd) {
  int oc = (int)ISA_OPND_CLS(opnd), idx = (int)ISA_OPND_IDX(opnd), n = fc_regs(&fc->cfg, oc);
  fc_hit(fc, cls_f, cls, oc);
  if (n) fc_hit(fc, idx_f, cls, idx == 0 ? C_ZERO : idx == n - 1 ? C_MAX : C_MID);
}

/* Counts the fields of one instruction word of FU class cls: the ones
 * the instruction uses (its sources, its IMM, its branch's selectors and
 * targets), each read from the word at its isa.h position. */
static void fc_insn(fieldcov *fc, int cls, const isa_word *w) {
  isa_insn in;
  if (isa_decode(w, &in) != ISA_OK) return;
  const isa_op_info *info = isa_op_get(in.op);
  int ntarget = in.br == ISA_BR_GOTO ? 1 : in.br == ISA_BR_COND ? 1 << in.nsel : 0, has_imm = 0;
  for (size_t k = 0; k < sizeof fc_insn_fields / sizeof fc_insn_fields[0]; k++) {
    const fc_insn_field *x = &fc_insn_fields[k];
    uint32_t v = isa_field_get(w, x->pos, x->size);
    fc_field f = x->cls;
    if (x->idx != F_COUNT) { /* an operand */
      int src = f == F_DST_CLS ? -1 : ((int)f - (int)F_SRCA_CLS) / 2;
      if (in.op == ISA_OP_NOP || src >= info->nsrc) continue;
      has_imm |= src >= 0 && ISA_OPND_CLS(v) == ISA_CLS_IMM;
      fc_operand(fc, f, x->idx, cls, v);
    } else if (f == F_IMM) {
      if (in.op == ISA_OP_NOP) fc_value(fc, F_NOP_N, cls, v);
      else if (has_imm) fc_value(fc, F_IMM, cls, isa_s32(v));
    } else if (f == F_ODMASK) {
      if (in.op != ISA_OP_NOP) fc_value(fc, f, cls, v);
    } else if (f == F_BNSEL) {
      if (in.br == ISA_BR_COND) fc_value(fc, f, cls, v);
    } else if (f == F_BSEL0 || f == F_BSEL1) {
      if ((int)f - (int)F_BSEL0 < in.nsel) fc_hit(fc, f, cls, fc_bsel_class(&fc->cfg, v));
    } else if (f >= F_BT0 && f <= F_BT3) {
      if ((int)f - (int)F_BT0 < ntarget) fc_value(fc, f, cls, v);
    } else {
      fc_value(fc, f, cls, v); /* op, bkind */
    }
  }
}
_Static_assert(F_SRCB_CLS == F_SRCA_CLS + 2 && F_SRCC_CLS == F_SRCA_CLS + 4, "fc_insn: sources in a row");

void fieldcov_packet(fieldcov *fc, const stream_packet *p) {
  const arch_config *c = &fc->cfg;
  int t = (int)p->type - 1;
  fc_value(fc, F_ROW0, t, p->rect.row0);
  fc_value(fc, F_COL0, t, p->rect.col0);
  fc_value(fc, F_ROWS, t, p->rect.rows);
  fc_value(fc, F_COLS, t, p->rect.cols);
  switch (p->type) {
  case STREAM_PKT_PROGRAM: {
    fc_value(fc, F_PROG_FU, 0, p->index);
    int cls = (int)isa_fu_class_of(c, p->index);
    for (uint32_t i = 0; i + ISA_WORDS <= p->nwords; i += ISA_WORDS) {
      isa_word w;
      memcpy(w.w, p->payload + i, sizeof w.w);
      fc_insn(fc, cls, &w);
    }
    break;
  }
  case STREAM_PKT_REGCFG:
    for (int k = 0; k < c->fd && (uint32_t)k < p->nwords; k++) fc_value(fc, F_REGCFG, k, p->payload[k]);
    break;
  case STREAM_PKT_WRAPPER:
    for (int s = 0; s < fc->nrep[F_WRAPPER] && (uint32_t)s < p->nwords; s++)
      fc_hit(fc, F_WRAPPER, s, fc_sel_class(c, p->payload[s]));
    break;
  case STREAM_PKT_GC:
    fc_value(fc, F_GC_INDEX, 0, p->index);
    fc_gc(fc, p);
    break;
  case STREAM_PKT_AG:
    fc_value(fc, F_AG_BANK, 0, p->index);
    fc_value(fc, F_AG_SIDE, 0, p->side);
    fc_ag(fc, p);
    break;
  case STREAM_PKT_IODATA:
    fc_value(fc, F_IO_BANK, 0, p->index);
    fc_value(fc, F_IO_SIDE, 0, p->side);
    fc_value(fc, F_IO_START, 0, fc_u(p, 0));
    if (p->nwords >= 2) fc_value(fc, F_IO_WORDS, 0, p->nwords - 1);
    for (uint32_t i = 1; i < p->nwords; i++) fc_value(fc, F_IO_DATA, 0, fc_s(p, i));
    break;
  case STREAM_PKT_START: fc_value(fc, F_START_INDEX, 0, p->index); break;
  }
}

int fieldcov_stream_count(fcov_set *s, const arch_config *cfg, const uint8_t *buf, size_t len, char *msg,
                          size_t msgsz) {
  fieldcov *fc = fieldcov_new(s, cfg);
  if (!fc) return snprintf(msg, msgsz, "out of memory"), -1;
  stream_reader r;
  stream_packet p;
  int rc = stream_reader_open(&r, buf, len, cfg);
  while (rc == STREAM_OK && (rc = stream_reader_next(&r, &p)) == 1) {
    rc = STREAM_OK;
    fieldcov_packet(fc, &p);
  }
  if (rc != 0) snprintf(msg, msgsz, "the stream: %s", r.msg[0] ? r.msg : stream_error_name(rc));
  stream_reader_close(&r);
  fieldcov_free(fc);
  return rc == 0 ? 0 : -1;
}

/* ---- reports ------------------------------------------------------------------ */

int fieldcov_is_field_bin(const char *name) {
  return !strncmp(name, "field.", 6) || !strncmp(name, "insn.", 5);
}

/* Returns the length of the field part of a bin's name (before the class). */
static size_t fc_field_len(const char *name) {
  const char *dot = strrchr(name, '.');
  return dot ? (size_t)(dot - name) : strlen(name);
}

/* Returns whether bins a and b are classes of one field. */
static int fc_same_field(const char *a, const char *b) {
  size_t n = fc_field_len(a);
  return fc_field_len(b) == n && !strncmp(a, b, n);
}

int fieldcov_report_flat(FILE *f, const fcov_set *s, const char *indent, int max) {
  int flat = 0, fields = 0, any = 0;
  for (int pass = 0; pass < 2; pass++) {
    int shown = 0;
    for (size_t i = 0; i < s->n; i++) {
      if (!fieldcov_is_field_bin(s->v[i].name)) continue;
      any = 1;
      int first = 1;
      for (size_t j = 0; j < i && first; j++) first = !fc_same_field(s->v[j].name, s->v[i].name);
      if (!first) continue;
      size_t classes = 0, hit = 0, at = i;
      for (size_t j = i; j < s->n; j++)
        if (fc_same_field(s->v[j].name, s->v[i].name)) {
          classes++;
          if (s->v[j].count) hit++, at = j;
        }
      if (pass == 0) {
        fields += hit > 0 && classes >= 2;
        flat += hit == 1 && classes >= 2;
        continue;
      }
      if (hit != 1 || classes < 2) continue;
      if (max && shown == max) {
        fprintf(f, "%s  ... (%d more)\n", indent, flat - shown);
        break;
      }
      fprintf(f, "%s  %.*s=%s\n", indent, (int)fc_field_len(s->v[at].name), s->v[at].name,
              s->v[at].name + fc_field_len(s->v[at].name) + 1);
      shown++;
    }
    if (pass == 0 && any)
      fprintf(f, "%sfields at one value class: %d of %d fields seen (field=class)\n", indent, flat, fields);
    if (!any) break;
  }
  return flat;
}

int fieldcov_report_missed(FILE *f, const fcov_set *s) {
  int n = 0;
  for (size_t i = 0; i < s->n; i++)
    if (fieldcov_is_field_bin(s->v[i].name) && !s->v[i].count) {
      n++;
      if (f) fprintf(f, "missed: %s\n", s->v[i].name);
    }
  return n;
}
