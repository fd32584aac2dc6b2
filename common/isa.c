/*
 * isa.c: the instruction set of isa.h: one table of opcodes (mnemonic, FU
 * class, operand count), the semantics of every operation (isa_op_eval,
 * in isa.h, inline: shared by the C model and every other evaluator), the encoder and decoder
 * of instruction words and the checks against an architecture
 * configuration. The assembly text of an instruction is isa_text.c.
 *
 * Validation is one function (insn_validate) used by both the encoder and
 * the decoder, so a word decodes if and only if its instruction encodes.
 */
#include "isa.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const isa_op_info op_table[ISA_OP_COUNT] = {
    /* nop: IMM is a repeat count, not a source (isa_insn_cycles) */
    [ISA_OP_NOP] = {"nop", ISA_FU_ANY, 0},
    [ISA_OP_MOV] = {"mov", ISA_FU_ALU, 1},
    [ISA_OP_NEG] = {"neg", ISA_FU_ALU, 1},
    [ISA_OP_NOT] = {"not", ISA_FU_ALU, 1},
    [ISA_OP_LNOT] = {"lnot", ISA_FU_ALU, 1},
    [ISA_OP_MUL] = {"mul", ISA_FU_MUL, 2},
    [ISA_OP_DIV] = {"div", ISA_FU_DIV, 2},
    [ISA_OP_MOD] = {"mod", ISA_FU_DIV, 2},
    [ISA_OP_ADD] = {"add", ISA_FU_ALU, 2},
    [ISA_OP_SUB] = {"sub", ISA_FU_ALU, 2},
    [ISA_OP_SHL] = {"shl", ISA_FU_ALU, 2},
    [ISA_OP_SHR] = {"shr", ISA_FU_ALU, 2},
    [ISA_OP_SHRU] = {"shru", ISA_FU_ALU, 2},
    [ISA_OP_LT] = {"lt", ISA_FU_ALU, 2},
    [ISA_OP_LE] = {"le", ISA_FU_ALU, 2},
    [ISA_OP_GT] = {"gt", ISA_FU_ALU, 2},
    [ISA_OP_GE] = {"ge", ISA_FU_ALU, 2},
    [ISA_OP_EQ] = {"eq", ISA_FU_ALU, 2},
    [ISA_OP_NE] = {"ne", ISA_FU_ALU, 2},
    [ISA_OP_AND] = {"and", ISA_FU_ALU, 2},
    [ISA_OP_XOR] = {"xor", ISA_FU_ALU, 2},
    [ISA_OP_OR] = {"or", ISA_FU_ALU, 2},
    [ISA_OP_SEL] = {"sel", ISA_FU_ALU, 3},
    [ISA_OP_MIN] = {"min", ISA_FU_ALU, 2},
    [ISA_OP_MAX] = {"max", ISA_FU_ALU, 2},
    [ISA_OP_ABS] = {"abs", ISA_FU_ALU, 1},
};

const isa_op_info *isa_op_get(isa_op op) {
  if ((int)op < 0 || op >= ISA_OP_COUNT) return NULL;
  return &op_table[op];
}

int isa_op_lookup(const char *name) {
  for (int i = 0; i < ISA_OP_COUNT; i++)
    if (strcmp(op_table[i].name, name) == 0) return i;
  return -1;
}

const char *isa_fu_name(isa_fu_class fu) {
  static const char *const names[] = {"alu", "mul", "div", "any"};
  return (int)fu >= 0 && fu <= ISA_FU_ANY ? names[fu] : "?";
}

/* ---- semantics ----------------------------------------------------------- */

/* ---- structural validation ----------------------------------------------- */

/* Returns ISA_OK when a source operand at position i (nsrc sources) is legal. */
static int src_valid(isa_opnd o, int i, int nsrc) {
  if (o.idx >= ISA_MAX_REGS) return ISA_ERR_OPERAND;
  if (i >= nsrc)
    return o.cls == ISA_CLS_NONE && o.idx == 0 ? ISA_OK : ISA_ERR_OPERAND;
  switch (o.cls) {
  case ISA_CLS_RD: case ISA_CLS_FD: case ISA_CLS_ID: return ISA_OK;
  case ISA_CLS_IMM: return o.idx == 0 ? ISA_OK : ISA_ERR_OPERAND;
  default: return ISA_ERR_OPERAND;
  }
}

/* Returns ISA_OK when the branch part of `in` is well formed. */
static int branch_valid(const isa_insn *in) {
  int used_sel = 0, used_t = 0;
  switch (in->br) {
  case ISA_BR_NEXT: case ISA_BR_HALT: break;
  case ISA_BR_GOTO: used_t = 1; break;
  case ISA_BR_COND:
    if (in->nsel < 1 || in->nsel > ISA_SEL_COUNT) return ISA_ERR_BRANCH;
    used_sel = in->nsel;
    used_t = 1 << in->nsel;
    break;
  default: return ISA_ERR_BRANCH;
  }
  if (in->br != ISA_BR_COND && in->nsel != 0) return ISA_ERR_BRANCH;
  for (int i = 0; i < ISA_SEL_COUNT; i++) {
    if (i < used_sel && in->sel[i] >= (1 << ISA_SIZE_BSEL)) return ISA_ERR_BRANCH;
    if (i >= used_sel && in->sel[i] != 0) return ISA_ERR_RESERVED;
  }
  for (int i = 0; i < ISA_MAX_TARGETS; i++) {
    if (i < used_t && in->target[i] >= ISA_MAX_IMEM) return ISA_ERR_BRANCH;
    if (i >= used_t && in->target[i] != 0) return ISA_ERR_RESERVED;
  }
  return ISA_OK;
}

/* Returns ISA_OK when `in` obeys every structural rule of docs/isa.md. */
static int insn_validate(const isa_insn *in) {
  const isa_op_info *info = isa_op_get(in->op);
  if (!info) return ISA_ERR_OP;
  int has_imm = 0, rc;
  if (in->op == ISA_OP_NOP) {
    if (in->dst.cls != ISA_CLS_NONE || in->dst.idx || in->odmask)
      return ISA_ERR_OPERAND;
  } else {
    if (in->dst.cls != ISA_CLS_NONE && in->dst.cls != ISA_CLS_RD &&
        in->dst.cls != ISA_CLS_FD)
      return ISA_ERR_OPERAND;
    if (in->dst.idx >= ISA_MAX_REGS ||
        (in->dst.cls == ISA_CLS_NONE && in->dst.idx))
      return ISA_ERR_OPERAND;
    if (in->odmask >> ISA_MAX_OD) return ISA_ERR_OPERAND;
  }
  for (int i = 0; i < 3; i++) {
    if ((rc = src_valid(in->src[i], i, info->nsrc))) return rc;
    has_imm |= in->src[i].cls == ISA_CLS_IMM;
  }
  /* a nop's IMM is its repeat count (docs/isa.md "Multi-cycle nop") */
  if (!has_imm && in->imm != 0 && in->op != ISA_OP_NOP) return ISA_ERR_IMM;
  return branch_valid(in);
}

uint64_t isa_insn_cycles(const isa_insn *in) {
  return in->op == ISA_OP_NOP ? (uint64_t)(uint32_t)in->imm + 1 : 1;
}

/* ---- encode / decode ----------------------------------------------------- */

static uint32_t opnd_pack(isa_opnd o) { return ISA_OPND(o.cls, o.idx); }

static isa_opnd opnd_unpack(uint32_t v) {
  isa_opnd o = {(uint8_t)ISA_OPND_CLS(v), (uint8_t)ISA_OPND_IDX(v)};
  return o;
}

int isa_encode(const isa_insn *in, isa_word *w) {
  int rc = insn_validate(in);
  if (rc) return rc;
  memset(w, 0, sizeof *w);
  ISA_SET_OP(w, (uint32_t)in->op);
  ISA_SET_DST(w, opnd_pack(in->dst));
  ISA_SET_SRCA(w, opnd_pack(in->src[0]));
  ISA_SET_SRCB(w, opnd_pack(in->src[1]));
  ISA_SET_SRCC(w, opnd_pack(in->src[2]));
  ISA_SET_ODMASK(w, in->odmask);
  ISA_SET_IMM(w, (uint32_t)in->imm);
  ISA_SET_BKIND(w, (uint32_t)in->br);
  ISA_SET_BNSEL(w, (uint32_t)in->nsel);
  for (int i = 0; i < ISA_SEL_COUNT; i++) ISA_SET_BSEL(w, i, in->sel[i]);
  for (int i = 0; i < ISA_MAX_TARGETS; i++) ISA_SET_BT(w, i, in->target[i]);
  return ISA_OK;
}

int isa_decode(const isa_word *w, isa_insn *out) {
  memset(out, 0, sizeof *out);
  if (w->w[0] >> ISA_END_W0) return ISA_ERR_RESERVED;
  if (ISA_END_W1 < 64 && (w->w[1] >> (ISA_END_W1 - 32))) return ISA_ERR_RESERVED;
  if (ISA_END_W3 < 128 && (w->w[3] >> (ISA_END_W3 - 96))) return ISA_ERR_RESERVED;
  out->op = (isa_op)ISA_GET_OP(w);
  out->dst = opnd_unpack(ISA_GET_DST(w));
  out->src[0] = opnd_unpack(ISA_GET_SRCA(w));
  out->src[1] = opnd_unpack(ISA_GET_SRCB(w));
  out->src[2] = opnd_unpack(ISA_GET_SRCC(w));
  out->odmask = ISA_GET_ODMASK(w);
  out->imm = isa_s32(ISA_GET_IMM(w));
  out->br = (isa_branch_kind)ISA_GET_BKIND(w);
  out->nsel = (int)ISA_GET_BNSEL(w);
  for (int i = 0; i < ISA_SEL_COUNT; i++) out->sel[i] = (uint8_t)ISA_GET_BSEL(w, i);
  for (int i = 0; i < ISA_MAX_TARGETS; i++)
    out->target[i] = (uint16_t)ISA_GET_BT(w, i);
  return insn_validate(out);
}

/* ---- architecture checks ------------------------------------------------- */

int isa_fu_count(const arch_config *cfg) {
  return cfg->alu + cfg->mul + cfg->div;
}

isa_fu_class isa_fu_class_of(const arch_config *cfg, int fu) {
  if (fu < cfg->alu) return ISA_FU_ALU;
  if (fu < cfg->alu + cfg->mul) return ISA_FU_MUL;
  return ISA_FU_DIV;
}

const char *isa_fu_format(const arch_config *cfg, int fu, char *buf,
                          size_t bufsz) {
  isa_fu_class c = isa_fu_class_of(cfg, fu);
  int first = c == ISA_FU_ALU ? 0 : c == ISA_FU_MUL ? cfg->alu
                                                    : cfg->alu + cfg->mul;
  snprintf(buf, bufsz, "%s%d", isa_fu_name(c), fu - first);
  return buf;
}

int isa_op_latency(isa_op op, const arch_config *cfg) {
  const isa_op_info *info = isa_op_get(op);
  if (!info) return 1;
  switch (info->fu) {
  case ISA_FU_ALU: return cfg->lat_alu;
  case ISA_FU_MUL: return cfg->lat_mul;
  case ISA_FU_DIV: return cfg->lat_div;
  default: return 1;
  }
}

/* Writes a message into msg (when not NULL) and returns code. */
static int fail(int code, char *msg, size_t msgsz, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(int code, char *msg, size_t msgsz, const char *fmt, ...) {
  if (msg && msgsz) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msgsz, fmt, ap);
    va_end(ap);
  }
  return code;
}

/* Returns ISA_OK when register operand o exists in cfg. */
static int opnd_check(isa_opnd o, const arch_config *cfg, char *msg,
                      size_t msgsz) {
  static const char *const key[] = {"", "pe.rd", "pe.fd", "pe.id"};
  int have = o.cls == ISA_CLS_RD ? cfg->rd : o.cls == ISA_CLS_FD ? cfg->fd
             : o.cls == ISA_CLS_ID ? cfg->id : -1;
  if (have >= 0 && o.idx >= have)
    return fail(ISA_ERR_ARCH, msg, msgsz,
                "register %s%d needs %s >= %d, the architecture has %d",
                key[o.cls] + 3, o.idx, key[o.cls], o.idx + 1, have);
  return ISA_OK;
}

/* Returns ISA_OK when the branch of `in` fits cfg. */
static int branch_check(const isa_insn *in, const arch_config *cfg, char *msg,
                        size_t msgsz) {
  int nt = in->br == ISA_BR_GOTO ? 1 : in->br == ISA_BR_COND ? 1 << in->nsel : 0;
  for (int i = 0; i < nt; i++)
    if (in->target[i] >= cfg->imem)
      return fail(ISA_ERR_ARCH, msg, msgsz,
                  "branch target L%d needs pe.imem >= %d, the architecture has %d",
                  in->target[i], in->target[i] + 1, cfg->imem);
  if (in->br != ISA_BR_COND) return ISA_OK;
  if (nt > cfg->branch_targets)
    return fail(ISA_ERR_ARCH, msg, msgsz,
                "branch with %d targets needs pe.branch_targets >= %d, the "
                "architecture has %d", nt, nt, cfg->branch_targets);
  for (int i = 0; i < in->nsel; i++) {
    int s = in->sel[i];
    if (s < ISA_COND_FLAG && s >= cfg->gc_signals)
      return fail(ISA_ERR_ARCH, msg, msgsz,
                  "control signal c%d needs gc.signals >= %d, the architecture "
                  "has %d", s, s + 1, cfg->gc_signals);
    if (s >= ISA_COND_FLAG && s - ISA_COND_FLAG >= isa_fu_count(cfg))
      return fail(ISA_ERR_ARCH, msg, msgsz,
                  "flag f%d needs %d functional units, the PE has %d",
                  s - ISA_COND_FLAG, s - ISA_COND_FLAG + 1, isa_fu_count(cfg));
  }
  return ISA_OK;
}

int isa_insn_check(const isa_insn *in, isa_fu_class fu, const arch_config *cfg,
                   char *msg, size_t msgsz) {
  int rc = insn_validate(in);
  if (rc) return fail(rc, msg, msgsz, "malformed instruction (error %d)", rc);
  const isa_op_info *info = isa_op_get(in->op);
  if (info->fu != ISA_FU_ANY && info->fu != fu)
    return fail(ISA_ERR_FU, msg, msgsz, "%s runs on a %s, not on a %s",
                info->name, isa_fu_name(info->fu), isa_fu_name(fu));
  if ((rc = opnd_check(in->dst, cfg, msg, msgsz))) return rc;
  for (int i = 0; i < 3; i++)
    if ((rc = opnd_check(in->src[i], cfg, msg, msgsz))) return rc;
  if (cfg->od < 32 && (in->odmask >> cfg->od))
    return fail(ISA_ERR_ARCH, msg, msgsz,
                "output register mask 0x%x needs more than pe.od = %d",
                (unsigned)in->odmask, cfg->od);
  return branch_check(in, cfg, msg, msgsz);
}

int isa_arch_check(const arch_config *cfg, char *msg, size_t msgsz) {
  struct { const char *key; int value, max; } lim[] = {
      {"pe.rd", cfg->rd, ISA_MAX_REGS},
      {"pe.fd", cfg->fd, ISA_MAX_REGS},
      {"pe.id", cfg->id, ISA_MAX_REGS},
      {"pe.od", cfg->od, ISA_MAX_OD},
      {"pe.imem", cfg->imem, ISA_MAX_IMEM},
      {"pe.branch_targets", cfg->branch_targets, ISA_MAX_TARGETS},
      {"gc.signals", cfg->gc_signals, ISA_MAX_SIGNALS},
      {"pe.alu + pe.mul + pe.div", isa_fu_count(cfg), ISA_MAX_FUS},
  };
  for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++)
    if (lim[i].value > lim[i].max)
      return fail(ISA_ERR_ARCH, msg, msgsz,
                  "%s = %d exceeds %d, the most the instruction encoding "
                  "covers", lim[i].key, lim[i].value, lim[i].max);
  return ISA_OK;
}
