/*
 * isa.c: the instruction set of isa.h: one table of opcodes (mnemonic, FU
 * class, operand count), the semantics of every operation (isa_op_eval,
 * shared by the C model and every other evaluator), the encoder and decoder
 * of instruction words, the checks against an architecture configuration,
 * and the assembly text in both directions (format and parse, which round
 * trip: parse(format(i)) == i for every valid instruction i).
 *
 * Validation is one function (insn_validate) used by both the encoder and
 * the decoder, so a word decodes if and only if its instruction encodes.
 */
#include "isa.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const isa_op_info op_table[ISA_OP_COUNT] = {
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

/* Returns the two's complement reading of v (no implementation-defined
 * conversion). */
static int32_t s32(uint32_t v) {
  int32_t r;
  memcpy(&r, &v, sizeof r);
  return r;
}

/* Returns a >> s with sign fill, for 0 <= s < 32, without relying on the
 * implementation-defined right shift of negative numbers. */
static int32_t shr_arith(int32_t a, unsigned s) {
  uint32_t u = (uint32_t)a >> s;
  if (a < 0 && s > 0) u |= ~(0xffffffffu >> s);
  return s32(u);
}

int32_t isa_op_eval(isa_op op, int32_t a, int32_t b, int32_t c) {
  uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
  unsigned sh = ub & 31u;
  switch (op) {
  case ISA_OP_NOP: return 0;
  case ISA_OP_MOV: return a;
  case ISA_OP_NEG: return s32(0u - ua);
  case ISA_OP_NOT: return s32(~ua);
  case ISA_OP_LNOT: return a == 0;
  case ISA_OP_MUL: return s32(ua * ub);
  case ISA_OP_DIV:
    if (b == 0) return -1;
    if (a == INT32_MIN && b == -1) return INT32_MIN;
    return a / b;
  case ISA_OP_MOD:
    if (b == 0) return a;
    if (a == INT32_MIN && b == -1) return 0;
    return a % b;
  case ISA_OP_ADD: return s32(ua + ub);
  case ISA_OP_SUB: return s32(ua - ub);
  case ISA_OP_SHL: return s32(ua << sh);
  case ISA_OP_SHR: return shr_arith(a, sh);
  case ISA_OP_SHRU: return s32(ua >> sh);
  case ISA_OP_LT: return a < b;
  case ISA_OP_LE: return a <= b;
  case ISA_OP_GT: return a > b;
  case ISA_OP_GE: return a >= b;
  case ISA_OP_EQ: return a == b;
  case ISA_OP_NE: return a != b;
  case ISA_OP_AND: return s32(ua & ub);
  case ISA_OP_XOR: return s32(ua ^ ub);
  case ISA_OP_OR: return s32(ua | ub);
  case ISA_OP_SEL: return a != 0 ? b : c;
  case ISA_OP_MIN: return a < b ? a : b;
  case ISA_OP_MAX: return a > b ? a : b;
  case ISA_OP_ABS: return a < 0 ? s32(0u - ua) : a;
  case ISA_OP_COUNT: break;
  }
  return 0;
}

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
  if (!has_imm && in->imm != 0) return ISA_ERR_IMM;
  return branch_valid(in);
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
  out->imm = s32(ISA_GET_IMM(w));
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

/* ---- assembly text: format ----------------------------------------------- */

/* A bounded string builder: keeps counting past the end like snprintf. */
typedef struct {
  char *buf;
  size_t size, len;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t room = b->len < b->size ? b->size - b->len : 0;
  int n = vsnprintf(room ? b->buf + b->len : NULL, room, fmt, ap);
  va_end(ap);
  if (n > 0) b->len += (size_t)n;
}

static void sb_opnd(sbuf *b, isa_opnd o, int32_t imm) {
  static const char *const pre[] = {"?", "rd", "fd", "id", "od"};
  if (o.cls == ISA_CLS_IMM)
    sb_printf(b, "#%ld", (long)imm);
  else
    sb_printf(b, "%s%d", o.cls <= ISA_CLS_OD ? pre[o.cls] : "?", o.idx);
}

static void sb_cond(sbuf *b, int s) {
  if (s < ISA_COND_FLAG)
    sb_printf(b, "c%d", s);
  else
    sb_printf(b, "f%d", s - ISA_COND_FLAG);
}

/* Writes the destination list: `rd0`, `{rd0, od1}`, or `_` when empty. */
static void sb_dests(sbuf *b, const isa_insn *in) {
  int n = (in->dst.cls != ISA_CLS_NONE);
  for (int k = 0; k < ISA_MAX_OD; k++) n += (in->odmask >> k) & 1;
  if (n == 0) {
    sb_printf(b, "_");
    return;
  }
  if (n > 1) sb_printf(b, "{");
  int first = 1;
  if (in->dst.cls != ISA_CLS_NONE) {
    sb_opnd(b, in->dst, 0);
    first = 0;
  }
  for (int k = 0; k < ISA_MAX_OD; k++)
    if ((in->odmask >> k) & 1) {
      sb_printf(b, "%sod%d", first ? "" : ", ", k);
      first = 0;
    }
  if (n > 1) sb_printf(b, "}");
}

static void sb_branch(sbuf *b, const isa_insn *in) {
  switch (in->br) {
  case ISA_BR_NEXT: break;
  case ISA_BR_HALT: sb_printf(b, " ; halt"); break;
  case ISA_BR_GOTO: sb_printf(b, " ; goto L%d", in->target[0]); break;
  case ISA_BR_COND:
    sb_printf(b, " ; br ");
    for (int i = in->nsel - 1; i >= 0; i--) {
      sb_cond(b, in->sel[i]);
      if (i) sb_printf(b, ", ");
    }
    sb_printf(b, " ?");
    for (int t = (1 << in->nsel) - 1; t >= 0; t--)
      sb_printf(b, " L%d%s", in->target[t], t ? " :" : "");
    break;
  }
}

int isa_insn_format(const isa_insn *in, char *buf, size_t bufsz) {
  sbuf b = {buf, bufsz, 0};
  if (bufsz) buf[0] = 0;
  const isa_op_info *info = isa_op_get(in->op);
  if (!info) {
    sb_printf(&b, "?op%d", (int)in->op);
    return (int)b.len;
  }
  sb_printf(&b, "%s", info->name);
  if (in->op != ISA_OP_NOP) {
    sb_printf(&b, " ");
    sb_dests(&b, in);
    for (int i = 0; i < info->nsrc; i++) {
      sb_printf(&b, ", ");
      sb_opnd(&b, in->src[i], in->imm);
    }
  }
  sb_branch(&b, in);
  return (int)b.len;
}

/* ---- assembly text: parse ------------------------------------------------ */

typedef struct {
  const char *text, *p;
  char *msg;
  size_t msgsz;
  int col; /* column of the error */
} parser;

static void skip_space(parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\t') ps->p++;
}

/* Returns ISA_ERR_SYNTAX after recording an error at the current spot. */
static int perr(parser *ps, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int perr(parser *ps, const char *fmt, ...) {
  ps->col = (int)(ps->p - ps->text) + 1;
  if (ps->msg && ps->msgsz) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->msg, ps->msgsz, fmt, ap);
    va_end(ap);
  }
  return ISA_ERR_SYNTAX;
}

/* Returns 1 and consumes `c` when it is the next non-blank character. */
static int accept(parser *ps, char c) {
  skip_space(ps);
  if (*ps->p != c) return 0;
  ps->p++;
  return 1;
}

/* Returns 1 at the end of the text (or of the instruction, at `//`). */
static int at_end(parser *ps) {
  skip_space(ps);
  return *ps->p == 0 || *ps->p == '\n' || *ps->p == '\r' ||
         (ps->p[0] == '/' && ps->p[1] == '/');
}

/* Reads an identifier [A-Za-z_][A-Za-z0-9_]* into buf; returns its length. */
static int word(parser *ps, char *buf, size_t n) {
  skip_space(ps);
  size_t len = 0;
  if (!isalpha((unsigned char)*ps->p) && *ps->p != '_') return 0;
  while (isalnum((unsigned char)ps->p[len]) || ps->p[len] == '_') len++;
  if (len >= n) return 0;
  memcpy(buf, ps->p, len);
  buf[len] = 0;
  ps->p += len;
  return (int)len;
}

/* Reads an integer (decimal or 0x hex, optional '-') in [lo, hi]. */
static int number(parser *ps, long long lo, long long hi, long long *v) {
  skip_space(ps);
  const char *s = ps->p;
  int neg = (*s == '-');
  if (neg) s++;
  if (!isdigit((unsigned char)*s)) return perr(ps, "expected a number");
  char *end;
  errno = 0;
  unsigned long long u = strtoull(s, &end, 0);
  if (errno || isalnum((unsigned char)*end) || u > (1ull << 40))
    return perr(ps, "malformed or too large number");
  long long x = neg ? -(long long)u : (long long)u;
  if (x < lo || x > hi)
    return perr(ps, "number %lld out of range %lld..%lld", x, lo, hi);
  *v = x;
  ps->p = end;
  return ISA_OK;
}

/* Splits a name like "rd12" into class and index; returns 1 on success. */
static int reg_name(const char *w, isa_cls *cls, int *idx) {
  static const struct { const char *pre; isa_cls cls; } t[] = {
      {"rd", ISA_CLS_RD}, {"fd", ISA_CLS_FD},
      {"id", ISA_CLS_ID}, {"od", ISA_CLS_OD}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    size_t n = strlen(t[i].pre);
    if (strncmp(w, t[i].pre, n) || !isdigit((unsigned char)w[n])) continue;
    char *end;
    long v = strtol(w + n, &end, 10);
    if (*end || v >= ISA_MAX_REGS || (w[n] == '0' && w[n + 1])) return 0;
    *cls = t[i].cls;
    *idx = (int)v;
    return 1;
  }
  return 0;
}

/* Parses one destination (rdN, fdN or odN) into `in`. */
static int parse_dest(parser *ps, isa_insn *in) {
  const char *start = (skip_space(ps), ps->p);
  char w[16];
  isa_cls cls;
  int idx;
  if (!word(ps, w, sizeof w) || !reg_name(w, &cls, &idx)) {
    ps->p = start;
    return perr(ps, "expected a destination register (rdN, fdN, odN)");
  }
  if (cls == ISA_CLS_OD) {
    if (idx >= ISA_MAX_OD || ((in->odmask >> idx) & 1)) {
      ps->p = start;
      return perr(ps, "output register %s invalid or repeated", w);
    }
    in->odmask |= 1u << idx;
  } else if (cls == ISA_CLS_ID || in->dst.cls != ISA_CLS_NONE) {
    ps->p = start;
    return perr(ps, "%s cannot be a destination here (one rd or fd, any od)",
                w);
  } else {
    in->dst.cls = (uint8_t)cls;
    in->dst.idx = (uint8_t)idx;
  }
  return ISA_OK;
}

/* Parses the destination list: `_`, one register, or `{r, r, ...}`. */
static int parse_dests(parser *ps, isa_insn *in) {
  int rc;
  if (accept(ps, '_')) return ISA_OK;
  if (!accept(ps, '{')) return parse_dest(ps, in);
  do {
    if ((rc = parse_dest(ps, in))) return rc;
  } while (accept(ps, ','));
  return accept(ps, '}') ? ISA_OK : perr(ps, "expected '}' or ','");
}

/* Parses source i: rdN, fdN, idN or #imm. */
static int parse_src(parser *ps, isa_insn *in, int i, int *has_imm) {
  skip_space(ps);
  const char *at = ps->p;
  if (accept(ps, '#')) {
    long long v;
    int rc = number(ps, INT32_MIN, UINT32_MAX, &v);
    if (rc) return rc;
    int32_t imm = s32((uint32_t)v);
    if (*has_imm && imm != in->imm) {
      ps->p = at;
      return perr(ps, "a second, different immediate (one 32-bit immediate "
                      "per instruction)");
    }
    in->imm = imm;
    *has_imm = 1;
    in->src[i].cls = ISA_CLS_IMM;
    return ISA_OK;
  }
  const char *start = ps->p;
  char w[16];
  isa_cls cls;
  int idx;
  if (!word(ps, w, sizeof w) || !reg_name(w, &cls, &idx) || cls == ISA_CLS_OD) {
    ps->p = start;
    return perr(ps, "expected a source (rdN, fdN, idN or #imm)");
  }
  in->src[i].cls = (uint8_t)cls;
  in->src[i].idx = (uint8_t)idx;
  return ISA_OK;
}

/* Parses a label `L<pc>` into *pc. */
static int parse_label(parser *ps, uint16_t *pc) {
  skip_space(ps);
  const char *start = ps->p;
  if (*ps->p != 'L') return perr(ps, "expected a label L<pc>");
  ps->p++;
  if (!isdigit((unsigned char)*ps->p)) return perr(ps, "expected a label L<pc>");
  long long v;
  int rc = number(ps, 0, ISA_MAX_IMEM - 1, &v);
  if (rc) {
    ps->col = (int)(start - ps->text) + 1; /* point at the label */
    return rc;
  }
  *pc = (uint16_t)v;
  return ISA_OK;
}

/* Parses a condition source `c<i>` or `f<k>` into *sel. */
static int parse_cond(parser *ps, uint8_t *sel) {
  skip_space(ps);
  char kind = *ps->p;
  if ((kind != 'c' && kind != 'f') || !isdigit((unsigned char)ps->p[1]))
    return perr(ps, "expected a condition (c<signal> or f<fu>)");
  ps->p++;
  long long v;
  int rc = number(ps, 0, ISA_MAX_SIGNALS - 1, &v);
  if (rc) return rc;
  *sel = (uint8_t)(kind == 'c' ? v : v + ISA_COND_FLAG);
  return ISA_OK;
}

/* Parses `br s_{n-1}, ..., s0 ? L : ... : L` (after `br`). */
static int parse_cond_branch(parser *ps, isa_insn *in) {
  uint8_t sel[ISA_SEL_COUNT + 1];
  int n = 0, rc;
  do {
    if (n == ISA_SEL_COUNT)
      return perr(ps, "more than %d conditions", ISA_SEL_COUNT);
    if ((rc = parse_cond(ps, &sel[n++]))) return rc;
  } while (accept(ps, ','));
  if (!accept(ps, '?')) return perr(ps, "expected '?'");
  in->br = ISA_BR_COND;
  in->nsel = n;
  for (int i = 0; i < n; i++) in->sel[i] = sel[n - 1 - i];
  for (int t = (1 << n) - 1; t >= 0; t--) {
    if ((rc = parse_label(ps, &in->target[t]))) return rc;
    if (t && !accept(ps, ':'))
      return perr(ps, "expected ':' (a branch on %d conditions has %d "
                      "targets)", n, 1 << n);
  }
  return ISA_OK;
}

/* Parses the branch part after ';'. */
static int parse_branch(parser *ps, isa_insn *in) {
  const char *start = (skip_space(ps), ps->p);
  char w[8];
  if (!word(ps, w, sizeof w))
    return perr(ps, "expected next, goto, br or halt");
  if (strcmp(w, "next") == 0) in->br = ISA_BR_NEXT;
  else if (strcmp(w, "halt") == 0) in->br = ISA_BR_HALT;
  else if (strcmp(w, "goto") == 0) {
    in->br = ISA_BR_GOTO;
    return parse_label(ps, &in->target[0]);
  } else if (strcmp(w, "br") == 0) return parse_cond_branch(ps, in);
  else {
    ps->p = start;
    return perr(ps, "unknown branch '%s' (next, goto, br, halt)", w);
  }
  return ISA_OK;
}

/* Parses mnemonic and operands. */
static int parse_functional(parser *ps, isa_insn *in) {
  const char *start = (skip_space(ps), ps->p);
  char w[16];
  int rc, has_imm = 0;
  if (!word(ps, w, sizeof w)) return perr(ps, "expected a mnemonic");
  int op = isa_op_lookup(w);
  if (op < 0) {
    ps->p = start;
    return perr(ps, "unknown mnemonic '%s'", w);
  }
  in->op = (isa_op)op;
  if (op == ISA_OP_NOP) return ISA_OK;
  if ((rc = parse_dests(ps, in))) return rc;
  for (int i = 0; i < op_table[op].nsrc; i++) {
    if (!accept(ps, ','))
      return perr(ps, "%s takes %d sources", w, op_table[op].nsrc);
    if ((rc = parse_src(ps, in, i, &has_imm))) return rc;
  }
  return ISA_OK;
}

int isa_insn_parse(const char *text, isa_insn *out, int *col, char *msg,
                   size_t msgsz) {
  parser ps = {text, text, msg, msgsz, 1};
  memset(out, 0, sizeof *out);
  int rc = parse_functional(&ps, out);
  if (!rc && accept(&ps, ';')) rc = parse_branch(&ps, out);
  if (!rc && !at_end(&ps)) rc = perr(&ps, "unexpected text");
  if (!rc && (rc = insn_validate(out)))
    fail(rc, msg, msgsz, "malformed instruction (error %d)", rc);
  if (col) *col = ps.col;
  return rc;
}
