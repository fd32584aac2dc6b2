/*
 * isa.h: the instruction set of a functional unit (FU) and its encoding: the
 * one place that fixes the bit layout. The assembler, the disassembler, the
 * instantiator's program generator, the C model and the RTL decoder (through
 * the generated parameter package) all follow it. docs/isa.md explains it.
 *
 * Orthogonal instruction processing: every FU runs its own program from its
 * own instruction memory and has its own branch unit, so every instruction
 * word is a pair (functional instruction, branch instruction). The branch
 * part says where the FU's program counter goes next: `next` (pc + 1),
 * `goto T0`, `halt`, or `br`: a multi-target branch that forms an index from
 * up to ISA_SEL_COUNT condition bits (global control signals c0.. or FU
 * flags f0..) and jumps to target[index].
 *
 * An instruction word is ISA_WORD_BITS = 128 bits, kept as ISA_WORDS 32-bit
 * words (w[0] holds bits 0..31, ...). It is fixed-width so that the pc
 * indexes the memory directly, one word is fetched per cycle with no length
 * decoding, branch targets are plain word indices, and the configuration
 * loader (32-bit stream words, one per cycle) writes exactly ISA_WORDS words
 * per instruction. 64 bits are not enough for a full 32-bit immediate plus
 * three register sources plus ISA_MAX_TARGETS absolute targets; splitting
 * constants over two instructions would change the schedules the compiler
 * computes. No field crosses a 32-bit boundary, so the RTL decoder and the
 * stream loader never combine two stream words into one field.
 *
 *      31  30 29     22 21     14 13      6 5      0
 * w[0]: | -- |  SRCB   |  SRCA   |  DST    |   OP   |
 *      31   26 25  20 19 18 17 16 15      8 7      0
 * w[1]: | BSEL1| BSEL0|BNSEL|BKIND| ODMASK  |  SRCC  |
 *      31                                          0
 * w[2]: |                   IMM                    |
 *      31     24 23     16 15      8 7             0
 * w[3]: |  BT3   |  BT2    |  BT1    |     BT0      |
 *
 *  an operand (DST, SRCA, SRCB, SRCC) is   | CLS (3) | IDX (5) |
 *                                           7       5 4       0
 *
 * OP     opcode (isa_op)
 * DST    register destination: class NONE, RD or FD, and its index
 * ODMASK additional destinations: bit k set writes od k too
 * SRCx   sources: class NONE (unused), RD, FD, ID, or IMM (reads IMM)
 * IMM    the 32-bit immediate shared by every IMM source (zero if none);
 *        for `nop`, the repeat count n, read unsigned: the word occupies
 *        the FU for n + 1 cycles and its branch is evaluated in the last
 *        (text `nop N`, N = n + 1; docs/isa.md "Multi-cycle nop")
 * BKIND  isa_branch_kind
 * BNSEL  number of condition selectors used by `br` (1..ISA_SEL_COUNT)
 * BSELi  condition source of bit i of the target index: a value v < 32 is
 *        control signal c<v>, v >= 32 the flag of FU v - 32
 * BTi    target pcs; `goto` uses BT0, `br` uses BT0..BT(2^BNSEL - 1)
 *
 * Every field not used by an instruction is zero; isa_decode rejects a word
 * that breaks this, so every valid word has exactly one assembly text.
 * The sizes come from the architecture maxima below (ISA_*_BITS); the
 * positions from the sizes. An all-zero word is `nop` with branch `next`.
 */
#ifndef TCPA_ISA_H
#define TCPA_ISA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arch.h"

/* ---- architecture maxima the encoding covers ---------------------------- */
#define ISA_REGIDX_BITS 5 /* register index field */
#define ISA_MAX_REGS (1 << ISA_REGIDX_BITS) /* pe.rd, pe.fd, pe.id <= 32 */
#define ISA_MAX_OD 8                /* pe.od <= 8: one ODMASK bit each */
#define ISA_PC_BITS 8               /* pc and branch-target field */
#define ISA_MAX_IMEM (1 << ISA_PC_BITS) /* pe.imem <= 256 */
#define ISA_SEL_COUNT 2 /* condition selectors of one branch */
#define ISA_MAX_TARGETS (1 << ISA_SEL_COUNT) /* pe.branch_targets <= 4 */
#define ISA_COND_BITS 6 /* condition source: signal or FU flag */
#define ISA_MAX_SIGNALS (1 << (ISA_COND_BITS - 1)) /* gc.signals <= 32 */
#define ISA_MAX_FUS (1 << (ISA_COND_BITS - 1)) /* alu + mul + div <= 32 */
#define ISA_COND_FLAG ISA_MAX_SIGNALS /* first condition source that is a flag */

/* ---- word geometry ------------------------------------------------------- */
#define ISA_WORD_BITS 128
#define ISA_WORDS (ISA_WORD_BITS / 32)

typedef struct {
  uint32_t w[ISA_WORDS];
} isa_word;

/* ---- field sizes ---------------------------------------------------------- */
#define ISA_SIZE_CLS 3
#define ISA_SIZE_IDX ISA_REGIDX_BITS
#define ISA_SIZE_OPND (ISA_SIZE_CLS + ISA_SIZE_IDX)
#define ISA_SIZE_OP 6
#define ISA_SIZE_DST ISA_SIZE_OPND
#define ISA_SIZE_SRC ISA_SIZE_OPND
#define ISA_SIZE_ODMASK ISA_MAX_OD
#define ISA_SIZE_BKIND 2
#define ISA_SIZE_BNSEL 2 /* holds 0..ISA_SEL_COUNT */
#define ISA_SIZE_BSEL ISA_COND_BITS
#define ISA_SIZE_IMM 32
#define ISA_SIZE_BT ISA_PC_BITS

/* ---- field positions (bit numbers in the 128-bit word) ------------------- */
#define ISA_POS_OP 0
#define ISA_POS_DST (ISA_POS_OP + ISA_SIZE_OP)
#define ISA_POS_SRCA (ISA_POS_DST + ISA_SIZE_DST)
#define ISA_POS_SRCB (ISA_POS_SRCA + ISA_SIZE_SRC)
#define ISA_END_W0 (ISA_POS_SRCB + ISA_SIZE_SRC) /* bits above: reserved */
#define ISA_POS_SRCC 32
#define ISA_POS_ODMASK (ISA_POS_SRCC + ISA_SIZE_SRC)
#define ISA_POS_BKIND (ISA_POS_ODMASK + ISA_SIZE_ODMASK)
#define ISA_POS_BNSEL (ISA_POS_BKIND + ISA_SIZE_BKIND)
#define ISA_POS_BSEL(i) (ISA_POS_BNSEL + ISA_SIZE_BNSEL + (i) * ISA_SIZE_BSEL)
#define ISA_END_W1 ISA_POS_BSEL(ISA_SEL_COUNT)
#define ISA_POS_IMM 64
#define ISA_END_W2 (ISA_POS_IMM + ISA_SIZE_IMM)
#define ISA_POS_BT(i) (96 + (i) * ISA_SIZE_BT)
#define ISA_END_W3 ISA_POS_BT(ISA_MAX_TARGETS)
/* within an operand */
#define ISA_POS_OPND_IDX 0
#define ISA_POS_OPND_CLS (ISA_POS_OPND_IDX + ISA_SIZE_IDX)

/* No field crosses a 32-bit word; each word's fields fit in it. */
_Static_assert(ISA_END_W0 <= 32, "w[0] fields overflow");
_Static_assert(ISA_END_W1 <= 64, "w[1] fields overflow");
_Static_assert(ISA_END_W2 <= 96, "w[2] fields overflow");
_Static_assert(ISA_END_W3 <= 128, "w[3] fields overflow");
_Static_assert((1 << ISA_SIZE_BNSEL) > ISA_SEL_COUNT, "BNSEL too small");

/* ---- field access ---------------------------------------------------------
 * ISA_MASK(n): n low ones. isa_field_get/set read and write the field of
 * `size` bits at bit `pos` of the 128-bit word (never crossing a word). */
#define ISA_MASK(n) ((n) >= 32 ? 0xffffffffu : ((1u << (n)) - 1u))

/* Returns the field of `size` bits at bit `pos` of `w`. */
static inline uint32_t isa_field_get(const isa_word *w, int pos, int size) {
  return (w->w[pos / 32] >> (pos % 32)) & ISA_MASK(size);
}

/* Sets the field of `size` bits at bit `pos` of `w` to the low bits of v. */
static inline void isa_field_set(isa_word *w, int pos, int size, uint32_t v) {
  uint32_t m = ISA_MASK(size) << (pos % 32);
  w->w[pos / 32] = (w->w[pos / 32] & ~m) | ((v << (pos % 32)) & m);
}

#define ISA_GET_OP(w) isa_field_get((w), ISA_POS_OP, ISA_SIZE_OP)
#define ISA_SET_OP(w, v) isa_field_set((w), ISA_POS_OP, ISA_SIZE_OP, (v))
#define ISA_GET_DST(w) isa_field_get((w), ISA_POS_DST, ISA_SIZE_DST)
#define ISA_SET_DST(w, v) isa_field_set((w), ISA_POS_DST, ISA_SIZE_DST, (v))
#define ISA_GET_SRCA(w) isa_field_get((w), ISA_POS_SRCA, ISA_SIZE_SRC)
#define ISA_SET_SRCA(w, v) isa_field_set((w), ISA_POS_SRCA, ISA_SIZE_SRC, (v))
#define ISA_GET_SRCB(w) isa_field_get((w), ISA_POS_SRCB, ISA_SIZE_SRC)
#define ISA_SET_SRCB(w, v) isa_field_set((w), ISA_POS_SRCB, ISA_SIZE_SRC, (v))
#define ISA_GET_SRCC(w) isa_field_get((w), ISA_POS_SRCC, ISA_SIZE_SRC)
#define ISA_SET_SRCC(w, v) isa_field_set((w), ISA_POS_SRCC, ISA_SIZE_SRC, (v))
#define ISA_GET_ODMASK(w) isa_field_get((w), ISA_POS_ODMASK, ISA_SIZE_ODMASK)
#define ISA_SET_ODMASK(w, v) \
  isa_field_set((w), ISA_POS_ODMASK, ISA_SIZE_ODMASK, (v))
#define ISA_GET_IMM(w) isa_field_get((w), ISA_POS_IMM, ISA_SIZE_IMM)
#define ISA_SET_IMM(w, v) isa_field_set((w), ISA_POS_IMM, ISA_SIZE_IMM, (v))
#define ISA_GET_BKIND(w) isa_field_get((w), ISA_POS_BKIND, ISA_SIZE_BKIND)
#define ISA_SET_BKIND(w, v) \
  isa_field_set((w), ISA_POS_BKIND, ISA_SIZE_BKIND, (v))
#define ISA_GET_BNSEL(w) isa_field_get((w), ISA_POS_BNSEL, ISA_SIZE_BNSEL)
#define ISA_SET_BNSEL(w, v) \
  isa_field_set((w), ISA_POS_BNSEL, ISA_SIZE_BNSEL, (v))
#define ISA_GET_BSEL(w, i) isa_field_get((w), ISA_POS_BSEL(i), ISA_SIZE_BSEL)
#define ISA_SET_BSEL(w, i, v) \
  isa_field_set((w), ISA_POS_BSEL(i), ISA_SIZE_BSEL, (v))
#define ISA_GET_BT(w, i) isa_field_get((w), ISA_POS_BT(i), ISA_SIZE_BT)
#define ISA_SET_BT(w, i, v) isa_field_set((w), ISA_POS_BT(i), ISA_SIZE_BT, (v))
/* operand fields */
#define ISA_OPND(cls, idx) \
  ((uint32_t)(cls) << ISA_POS_OPND_CLS | (uint32_t)(idx) << ISA_POS_OPND_IDX)
#define ISA_OPND_CLS(o) (((o) >> ISA_POS_OPND_CLS) & ISA_MASK(ISA_SIZE_CLS))
#define ISA_OPND_IDX(o) (((o) >> ISA_POS_OPND_IDX) & ISA_MASK(ISA_SIZE_IDX))

/* ---- opcodes, FU classes, operand classes, branch kinds ------------------ */
typedef enum {
  ISA_OP_NOP, /* must stay 0: the all-zero word is `nop ; next` */
  ISA_OP_MOV, ISA_OP_NEG, ISA_OP_NOT, ISA_OP_LNOT,
  ISA_OP_MUL, ISA_OP_DIV, ISA_OP_MOD,
  ISA_OP_ADD, ISA_OP_SUB,
  ISA_OP_SHL, ISA_OP_SHR, ISA_OP_SHRU,
  ISA_OP_LT, ISA_OP_LE, ISA_OP_GT, ISA_OP_GE, ISA_OP_EQ, ISA_OP_NE,
  ISA_OP_AND, ISA_OP_XOR, ISA_OP_OR,
  ISA_OP_SEL, ISA_OP_MIN, ISA_OP_MAX, ISA_OP_ABS,
  ISA_OP_COUNT
} isa_op;
_Static_assert(ISA_OP_COUNT <= (1 << ISA_SIZE_OP), "OP field too small");

/* FU classes of docs/arch.md; ISA_FU_ANY: nop, which every FU executes. */
typedef enum { ISA_FU_ALU, ISA_FU_MUL, ISA_FU_DIV, ISA_FU_ANY } isa_fu_class;

typedef enum {
  ISA_CLS_NONE = 0, /* no operand */
  ISA_CLS_RD = 1,   /* general-purpose register: source or destination */
  ISA_CLS_FD = 2,   /* feedback register: source or destination */
  ISA_CLS_ID = 3,   /* input register (FIFO head): source only */
  ISA_CLS_OD = 4,   /* output register: destination only, via ODMASK */
  ISA_CLS_IMM = 5   /* the immediate: source only, index 0 */
} isa_cls;

typedef enum {
  ISA_BR_NEXT = 0, /* pc + 1 */
  ISA_BR_GOTO = 1, /* BT0 */
  ISA_BR_COND = 2, /* BT[index], index bit i = condition BSELi */
  ISA_BR_HALT = 3  /* the FU stops */
} isa_branch_kind;

typedef struct {
  uint8_t cls; /* isa_cls */
  uint8_t idx;
} isa_opnd;

/* A decoded instruction. */
typedef struct {
  isa_op op;
  isa_opnd dst;         /* NONE, RD or FD */
  uint32_t odmask;      /* bit k: also write od k */
  isa_opnd src[3];      /* NONE beyond the operation's operand count */
  int32_t imm;          /* value of IMM sources; 0 when there is none;
                           nop: the repeat count n (as uint32_t) */
  isa_branch_kind br;
  int nsel;             /* COND: 1..ISA_SEL_COUNT; else 0 */
  uint8_t sel[ISA_SEL_COUNT]; /* COND: condition sources; unused: 0 */
  uint16_t target[ISA_MAX_TARGETS]; /* GOTO: [0]; COND: [0..2^nsel-1] */
} isa_insn;

/* Static facts of one opcode. */
typedef struct {
  const char *name;  /* mnemonic */
  isa_fu_class fu;   /* FU class that executes it */
  int nsrc;          /* source operands: 0 to 3 */
} isa_op_info;

/* Error codes of isa_encode, isa_decode and isa_insn_check. */
typedef enum {
  ISA_OK = 0,
  ISA_ERR_OP = -1,       /* opcode out of range */
  ISA_ERR_OPERAND = -2,  /* operand class or index illegal for its place */
  ISA_ERR_IMM = -3,      /* nonzero immediate without an IMM source */
  ISA_ERR_BRANCH = -4,   /* branch kind, selectors or targets malformed */
  ISA_ERR_RESERVED = -5, /* a reserved or unused field is nonzero */
  ISA_ERR_ARCH = -6,     /* exceeds the architecture configuration */
  ISA_ERR_FU = -7,       /* opcode not executable by this FU class */
  ISA_ERR_SYNTAX = -8    /* assembly text not understood */
} isa_error;

/* Returns the static facts of `op` (NULL when op is out of range). */
const isa_op_info *isa_op_get(isa_op op);

/* Returns the opcode whose mnemonic is `name`, or -1. */
int isa_op_lookup(const char *name);


/* Returns the name of a FU class ("alu", "mul", "div", "any"). */
const char *isa_fu_name(isa_fu_class fu);

/* Returns ISA_OK and fills *w, or an isa_error when `in` is malformed
 * (the structural rules of docs/isa.md, independent of any arch). */
int isa_encode(const isa_insn *in, isa_word *w);

/* Returns ISA_OK and fills *out, or an isa_error when `w` is not a valid
 * word (illegal opcode or operand, nonzero reserved bits). */
int isa_decode(const isa_word *w, isa_insn *out);

/* Returns ISA_OK when `in` runs on an FU of class `fu` of a PE of `cfg`
 * (register indices, targets < pe.imem, selectors < gc.signals or the FU
 * count, 2^nsel <= pe.branch_targets); else an isa_error and, when msg is
 * not NULL, a sentence saying which resource, needed and available. */
int isa_insn_check(const isa_insn *in, isa_fu_class fu, const arch_config *cfg,
                   char *msg, size_t msgsz);

/* Returns ISA_OK when `cfg` stays within the maxima this encoding covers;
 * else ISA_ERR_ARCH with the key, value and maximum in msg. */
int isa_arch_check(const arch_config *cfg, char *msg, size_t msgsz);

/* ---- assembly text (isa_text.c) ----------------------------------------- */

/* Writes the assembly text of `in` (e.g. `add rd0, id1, #3 ; br c0 ? L4 :
 * L2`) to buf; returns the length it needs (as snprintf). */
int isa_insn_format(const isa_insn *in, char *buf, size_t bufsz);

/* Returns ISA_OK and fills *out from one line of assembly text (the format
 * of isa_insn_format; spaces free, `;` starts the branch part, `//` a
 * comment); on error returns an isa_error, sets *col to the 1-based column of
 * the offending token and writes the reason to msg. */
int isa_insn_parse(const char *text, isa_insn *out, int *col, char *msg,
                   size_t msgsz);

/* Returns the number of FUs of a PE of cfg (pe.alu + pe.mul + pe.div). */
int isa_fu_count(const arch_config *cfg);

/* Returns the class of FU number `fu` in the PE's numbering: alu0.. first,
 * then mul0.., then div0.. (the numbering of flags f<k> and of stream
 * program packets). */
isa_fu_class isa_fu_class_of(const arch_config *cfg, int fu);

/* Returns the name of FU number `fu` ("alu0", "mul1", ...) in buf. */
const char *isa_fu_format(const arch_config *cfg, int fu, char *buf,
                          size_t bufsz);

/* Returns the number of cycles instruction `in` occupies its FU: IMM + 1
 * (up to 2^32) for a nop, 1 for every other instruction. */
uint64_t isa_insn_cycles(const isa_insn *in);

/* Returns the latency in cycles of `op` on a PE of cfg (nop: 1). */
int isa_op_latency(isa_op op, const arch_config *cfg);

/* ---- semantics (inline: the model issues one operation per FU and
 * cycle) ---------------------------------------------------------------- */

/* Returns the two's complement reading of v (no implementation-defined
 * conversion). */
static inline int32_t isa_s32(uint32_t v) {
  int32_t r;
  memcpy(&r, &v, sizeof r);
  return r;
}

/* Returns a >> s with sign fill, for 0 <= s < 32, without relying on the
 * implementation-defined right shift of negative numbers. */
static inline int32_t isa_shr_arith(int32_t a, unsigned s) {
  uint32_t u = (uint32_t)a >> s;
  if (a < 0 && s > 0) u |= ~(0xffffffffu >> s);
  return isa_s32(u);
}

/* Returns the result of `op` on a, b, c with the exact semantics of the
 * language (docs/language.md): wrap modulo 2^32, truncating / and %,
 * x/0 == -1, x%0 == x, INT_MIN/-1 == INT_MIN, INT_MIN%-1 == 0, shift
 * amounts taken mod 32, >> arithmetic, >>> logical, sel a ? b : c.
 * Unused operands are ignored; nop returns 0. */
static inline int32_t isa_op_eval(isa_op op, int32_t a, int32_t b, int32_t c) {
  uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
  unsigned sh = ub & 31u;
  switch (op) {
  case ISA_OP_NOP: return 0;
  case ISA_OP_MOV: return a;
  case ISA_OP_NEG: return isa_s32(0u - ua);
  case ISA_OP_NOT: return isa_s32(~ua);
  case ISA_OP_LNOT: return a == 0;
  case ISA_OP_MUL: return isa_s32(ua * ub);
  case ISA_OP_DIV:
    if (b == 0) return -1;
    if (a == INT32_MIN && b == -1) return INT32_MIN;
    return a / b;
  case ISA_OP_MOD:
    if (b == 0) return a;
    if (a == INT32_MIN && b == -1) return 0;
    return a % b;
  case ISA_OP_ADD: return isa_s32(ua + ub);
  case ISA_OP_SUB: return isa_s32(ua - ub);
  case ISA_OP_SHL: return isa_s32(ua << sh);
  case ISA_OP_SHR: return isa_shr_arith(a, sh);
  case ISA_OP_SHRU: return isa_s32(ua >> sh);
  case ISA_OP_LT: return a < b;
  case ISA_OP_LE: return a <= b;
  case ISA_OP_GT: return a > b;
  case ISA_OP_GE: return a >= b;
  case ISA_OP_EQ: return a == b;
  case ISA_OP_NE: return a != b;
  case ISA_OP_AND: return isa_s32(ua & ub);
  case ISA_OP_XOR: return isa_s32(ua ^ ub);
  case ISA_OP_OR: return isa_s32(ua | ub);
  case ISA_OP_SEL: return a != 0 ? b : c;
  case ISA_OP_MIN: return a < b ? a : b;
  case ISA_OP_MAX: return a > b ? a : b;
  case ISA_OP_ABS: return a < 0 ? isa_s32(0u - ua) : a;
  case ISA_OP_COUNT: break;
  }
  return 0;
}

#endif
