/* covers: docs/isa.md "Word layout", "Operations", "Flags", "Branches",
 *   "Assembly text", "Checks against an architecture" */
/*
 * test_isa.c: the instruction set (isa.h): the semantics of every operation
 * at its edge cases, the opcode table's mnemonics,
 * the bit positions of the layout, encode/decode and format/parse round
 * trips over every opcode and the extremes of every field, and the
 * rejections of malformed words, text and instructions that exceed an
 * architecture.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "isa.h"
#include "test.h"

/* Returns the architecture of docs/arch.md's defaults, spelled out here so
 * that the test does not depend on the INI loader. */
static arch_config test_arch(void) {
  arch_config c = {.rows = 4, .cols = 4, .alu = 2, .mul = 1, .div = 0,
                   .rd = 4, .fd = 4, .fd_depth = 32, .id = 4, .od = 4,
                   .fifo_depth = 8, .imem = 32, .branch_targets = 2,
                   .lat_alu = 1, .lat_mul = 2, .lat_div = 8, .ports = 4,
                   .gc_signals = 8, .gc_dims = 6, .gc_history = 128, .banks = 4,
                   .bank_depth = 1024};
  return c;
}

typedef struct {
  isa_op op;
  int32_t a, b, c, want;
} eval_case;

static const eval_case eval_cases[] = {
    {ISA_OP_NOP, 5, 6, 7, 0},
    {ISA_OP_MOV, -7, 0, 0, -7},
    {ISA_OP_NEG, INT32_MIN, 0, 0, INT32_MIN},
    {ISA_OP_NEG, 5, 0, 0, -5},
    {ISA_OP_NOT, 0, 0, 0, -1},
    {ISA_OP_LNOT, 0, 0, 0, 1},
    {ISA_OP_LNOT, -3, 0, 0, 0},
    {ISA_OP_MUL, 65536, 65536, 0, 0},
    {ISA_OP_MUL, INT32_MAX, 2, 0, -2},
    {ISA_OP_MUL, -3, 7, 0, -21},
    {ISA_OP_DIV, 7, 2, 0, 3},
    {ISA_OP_DIV, -7, 2, 0, -3},
    {ISA_OP_DIV, 7, -2, 0, -3},
    {ISA_OP_DIV, 5, 0, 0, -1},
    {ISA_OP_DIV, 0, 0, 0, -1},
    {ISA_OP_DIV, INT32_MIN, -1, 0, INT32_MIN},
    {ISA_OP_MOD, 7, 2, 0, 1},
    {ISA_OP_MOD, -7, 2, 0, -1},
    {ISA_OP_MOD, 7, -2, 0, 1},
    {ISA_OP_MOD, 5, 0, 0, 5},
    {ISA_OP_MOD, -5, 0, 0, -5},
    {ISA_OP_MOD, INT32_MIN, -1, 0, 0},
    {ISA_OP_ADD, INT32_MAX, 1, 0, INT32_MIN},
    {ISA_OP_SUB, INT32_MIN, 1, 0, INT32_MAX},
    {ISA_OP_SHL, 1, 31, 0, INT32_MIN},
    {ISA_OP_SHL, 1, 32, 0, 1},
    {ISA_OP_SHL, 3, 33, 0, 6},
    {ISA_OP_SHL, 1, -1, 0, INT32_MIN},
    {ISA_OP_SHR, -8, 1, 0, -4},
    {ISA_OP_SHR, -1, 31, 0, -1},
    {ISA_OP_SHR, INT32_MIN, 31, 0, -1},
    {ISA_OP_SHR, 8, 35, 0, 1},
    {ISA_OP_SHR, -8, 0, 0, -8},
    {ISA_OP_SHRU, -8, 1, 0, 0x7ffffffc},
    {ISA_OP_SHRU, -1, 31, 0, 1},
    {ISA_OP_SHRU, -1, 32, 0, -1},
    {ISA_OP_LT, -1, 0, 0, 1},
    {ISA_OP_LT, 0, 0, 0, 0},
    {ISA_OP_LE, 0, 0, 0, 1},
    {ISA_OP_GT, INT32_MIN, INT32_MAX, 0, 0},
    {ISA_OP_GE, INT32_MAX, INT32_MIN, 0, 1},
    {ISA_OP_EQ, 4, 4, 0, 1},
    {ISA_OP_NE, 4, 4, 0, 0},
    {ISA_OP_AND, 0x0f0f, 0x00ff, 0, 0x000f},
    {ISA_OP_XOR, -1, 0x0f, 0, -16},
    {ISA_OP_OR, 0x0f00, 0x00f0, 0, 0x0ff0},
    {ISA_OP_SEL, 0, 10, 20, 20},
    {ISA_OP_SEL, -5, 10, 20, 10},
    {ISA_OP_MIN, -3, 2, 0, -3},
    {ISA_OP_MAX, -3, 2, 0, 2},
    {ISA_OP_ABS, -5, 0, 0, 5},
    {ISA_OP_ABS, INT32_MIN, 0, 0, INT32_MIN},
    {ISA_OP_ABS, 9, 0, 0, 9},
};

static void test_eval(void) {
  for (size_t i = 0; i < sizeof eval_cases / sizeof eval_cases[0]; i++) {
    const eval_case *t = &eval_cases[i];
    int32_t got = isa_op_eval(t->op, t->a, t->b, t->c);
    TEST_CHECK(got == t->want, "eval %s(%d, %d, %d) = %d (got %d)",
               isa_op_get(t->op)->name, t->a, t->b, t->c, t->want, got);
  }
}

/* The mnemonics are unique and found again by lookup. */
static void test_table(void) {
  int lookups = 1;
  for (int op = 0; op < ISA_OP_COUNT; op++)
    lookups &= isa_op_lookup(isa_op_get((isa_op)op)->name) == op;
  TEST_CHECK(lookups, "every mnemonic looks up to its opcode");
  TEST_CHECK(isa_op_lookup("addi") == -1, "unknown mnemonic -> -1");
  TEST_CHECK(isa_op_get(ISA_OP_COUNT) == NULL, "opcode out of range -> NULL");
}

/* The layout: positions chained from sizes, fields where the diagram
 * says, and setting one field leaves every other bit alone. */
static void test_layout(void) {
  TEST_CHECK(ISA_POS_DST == 6 && ISA_POS_SRCA == 14 && ISA_POS_SRCB == 22,
             "w0 positions 6/14/22");
  TEST_CHECK(ISA_POS_ODMASK == 40 && ISA_POS_BKIND == 48 &&
                 ISA_POS_BNSEL == 50 && ISA_POS_BSEL(0) == 52 &&
                 ISA_POS_BSEL(1) == 58,
             "w1 positions 40/48/50/52/58");
  TEST_CHECK(ISA_POS_BT(0) == 96 && ISA_POS_BT(3) == 120, "w3 targets");
  isa_word w = {{0}};
  ISA_SET_BT(&w, 3, 0xff);
  TEST_CHECK(w.w[3] == 0xff000000u && !w.w[0] && !w.w[1] && !w.w[2],
             "BT3 is the top byte of w[3]");
  w = (isa_word){{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}};
  ISA_SET_SRCA(&w, 0);
  TEST_CHECK(w.w[0] == ~(0xffu << 14) && w.w[1] == 0xffffffffu,
             "clearing SRCA clears bits 14..21 only");
  TEST_CHECK(ISA_GET_SRCB(&w) == 0xff && ISA_GET_DST(&w) == 0xff,
             "neighbouring fields untouched");
  isa_word z = {{0}};
  isa_insn in;
  TEST_CHECK(isa_decode(&z, &in) == ISA_OK && in.op == ISA_OP_NOP &&
                 in.br == ISA_BR_NEXT,
             "the all-zero word is nop ; next");
}

static int opnd_eq(isa_opnd a, isa_opnd b) {
  return a.cls == b.cls && a.idx == b.idx;
}

/* Returns 1 when two instructions have the same fields. */
static int insn_eq(const isa_insn *a, const isa_insn *b) {
  if (a->op != b->op || !opnd_eq(a->dst, b->dst) || a->odmask != b->odmask ||
      a->imm != b->imm || a->br != b->br || a->nsel != b->nsel)
    return 0;
  for (int i = 0; i < 3; i++)
    if (!opnd_eq(a->src[i], b->src[i])) return 0;
  for (int i = 0; i < ISA_SEL_COUNT; i++)
    if (a->sel[i] != b->sel[i]) return 0;
  for (int i = 0; i < ISA_MAX_TARGETS; i++)
    if (a->target[i] != b->target[i]) return 0;
  return 1;
}

/* Builds variant v of opcode op: destinations, sources and branch drawn
 * from the extremes of each field. */
static isa_insn make_variant(isa_op op, int v) {
  static const isa_opnd dsts[] = {{ISA_CLS_NONE, 0}, {ISA_CLS_RD, 0},
                                  {ISA_CLS_RD, 31}, {ISA_CLS_FD, 31}};
  static const isa_opnd srcs[] = {{ISA_CLS_RD, 0}, {ISA_CLS_ID, 31},
                                  {ISA_CLS_FD, 17}, {ISA_CLS_IMM, 0}};
  static const int32_t imms[] = {INT32_MIN, -1, INT32_MAX, 0};
  isa_insn in;
  memset(&in, 0, sizeof in);
  in.op = op;
  int nsrc = isa_op_get(op)->nsrc;
  if (op == ISA_OP_NOP) /* nop, nop 2, nop 4294967296 */
    in.imm = (v / 5) % 3 == 0 ? 0 : (v / 5) % 3 == 1 ? 1 : -1;
  else {
    in.dst = dsts[v % 4];
    in.odmask = (v / 4) % 3 == 0 ? 0 : (v / 4) % 3 == 1 ? 0xffu : 0x81u;
  }
  for (int i = 0; i < nsrc; i++) {
    in.src[i] = srcs[(v + i) % 4];
    if (in.src[i].cls == ISA_CLS_IMM) in.imm = imms[v % 4];
  }
  switch (v % 5) {
  case 0: in.br = ISA_BR_NEXT; break;
  case 1: in.br = ISA_BR_HALT; break;
  case 2: in.br = ISA_BR_GOTO; in.target[0] = 255; break;
  case 3:
    in.br = ISA_BR_COND; in.nsel = 1; in.sel[0] = 63;
    in.target[0] = 0; in.target[1] = 255;
    break;
  case 4:
    in.br = ISA_BR_COND; in.nsel = 2; in.sel[0] = 0; in.sel[1] = 32;
    for (int t = 0; t < 4; t++) in.target[t] = (uint16_t)(t * 85);
    break;
  }
  return in;
}

static void test_round_trips(void) {
  int n = 0, enc_ok = 1, dec_ok = 1, text_ok = 1;
  char first_bad[160] = "";
  for (int op = 0; op < ISA_OP_COUNT; op++)
    for (int v = 0; v < 60; v++) {
      isa_insn in = make_variant((isa_op)op, v), back, parsed;
      isa_word w;
      char text[160], again[160], msg[160];
      int col;
      n++;
      if (isa_encode(&in, &w) != ISA_OK) {
        enc_ok = 0;
        continue;
      }
      if (isa_decode(&w, &back) != ISA_OK || !insn_eq(&in, &back)) dec_ok = 0;
      isa_insn_format(&in, text, sizeof text);
      if (isa_insn_parse(text, &parsed, &col, msg, sizeof msg) != ISA_OK ||
          !insn_eq(&in, &parsed)) {
        if (text_ok) snprintf(first_bad, sizeof first_bad, "%s", text);
        text_ok = 0;
      }
      isa_insn_format(&parsed, again, sizeof again);
      if (strcmp(text, again) != 0) text_ok = 0;
    }
  TEST_CHECK(enc_ok, "all %d variants encode", n);
  TEST_CHECK(dec_ok, "decode(encode(i)) == i for all %d variants", n);
  TEST_CHECK(text_ok, "parse(format(i)) == i for all %d variants %s", n,
             first_bad);
}

typedef struct {
  const char *text;
  int rc;      /* expected result */
  int col;     /* expected error column, when rc != ISA_OK */
  const char *canon; /* expected format of the parsed instruction */
} parse_case;

static const parse_case parse_cases[] = {
    {"add rd0, id1, #3 ; br c0 ? L4 : L2", ISA_OK, 0,
     "add rd0, id1, #3 ; br c0 ? L4 : L2"},
    {"  shr   fd0,rd0,#1;goto L7 // comment", ISA_OK, 0,
     "shr fd0, rd0, #1 ; goto L7"},
    {"and {od1, rd2, od0}, rd0, #0x1", ISA_OK, 0,
     "and {rd2, od0, od1}, rd0, #1"},
    {"sel _, id0, #-5, #-5 ; br f2, c7 ? L3 : L2 : L1 : L0", ISA_OK, 0,
     "sel _, id0, #-5, #-5 ; br f2, c7 ? L3 : L2 : L1 : L0"},
    {"mov od3, #4294967295 ; next", ISA_OK, 0, "mov od3, #-1"},
    {"nop ; halt", ISA_OK, 0, "nop ; halt"},
    {"addi rd0, rd1, #1", ISA_ERR_SYNTAX, 1, NULL},
    {"add rd0, id1", ISA_ERR_SYNTAX, 13, NULL},
    {"add rd0, id1, #3, #4", ISA_ERR_SYNTAX, 17, NULL},
    {"add rd0, #1, #2", ISA_ERR_SYNTAX, 14, NULL},
    {"add id0, rd0, rd1", ISA_ERR_SYNTAX, 5, NULL},
    {"add {rd0, fd1}, rd0, rd1", ISA_ERR_SYNTAX, 11, NULL},
    {"add rd0, od1, rd1", ISA_ERR_SYNTAX, 10, NULL},
    {"add rd32, rd0, rd1", ISA_ERR_SYNTAX, 5, NULL},
    {"add rd0, rd0, #4294967296", ISA_ERR_SYNTAX, 16, NULL},
    {"add rd0, rd0, rd1 ; br c0 ? L1", ISA_ERR_SYNTAX, 31, NULL},
    {"add rd0, rd0, rd1 ; br c0, c1, c2 ? L1 : L0", ISA_ERR_SYNTAX, 31, NULL},
    {"add rd0, rd0, rd1 ; goto L256", ISA_ERR_SYNTAX, 26, NULL},
    {"add rd0, rd0, rd1 ; jump L2", ISA_ERR_SYNTAX, 21, NULL},
};

static void test_parse(void) {
  for (size_t i = 0; i < sizeof parse_cases / sizeof parse_cases[0]; i++) {
    const parse_case *t = &parse_cases[i];
    isa_insn in;
    char msg[160] = "", out[160] = "";
    int col = 0;
    int rc = isa_insn_parse(t->text, &in, &col, msg, sizeof msg);
    if (t->rc == ISA_OK) {
      isa_insn_format(&in, out, sizeof out);
      TEST_CHECK(rc == ISA_OK && strcmp(out, t->canon) == 0,
                 "parse '%s' -> '%s' (got %d '%s' %s)", t->text, t->canon, rc,
                 out, msg);
    } else {
      TEST_CHECK(rc == t->rc && col == t->col,
                 "parse '%s' fails at column %d (got %d at %d: %s)", t->text,
                 t->col, rc, col, msg);
    }
  }
  isa_insn in;
  char small[8];
  isa_insn_parse("add rd0, id1, #3 ; br c0 ? L4 : L2", &in, NULL, NULL, 0);
  int need = isa_insn_format(&in, small, sizeof small);
  TEST_CHECK(need == 34 && strcmp(small, "add rd0") == 0,
             "format truncates safely and reports the length needed (%d)",
             need);
}

static void test_reject(void) {
  isa_insn in;
  isa_word w = {{0}};
  w.w[0] = 1u << 31;
  TEST_CHECK(isa_decode(&w, &in) == ISA_ERR_RESERVED, "reserved w0 bit");
  w = (isa_word){{ISA_OP_COUNT, 0, 0, 0}};
  TEST_CHECK(isa_decode(&w, &in) == ISA_ERR_OP, "opcode past the table");
  w = (isa_word){{ISA_OP_MOV | ISA_OPND(ISA_CLS_RD, 0) << ISA_POS_SRCA, 0, 5, 0}};
  TEST_CHECK(isa_decode(&w, &in) == ISA_ERR_IMM, "immediate without user");
  w = (isa_word){{0, 0, 0, 7}};
  TEST_CHECK(isa_decode(&w, &in) == ISA_ERR_RESERVED, "target of next");
  w = (isa_word){{0}};
  ISA_SET_BKIND(&w, ISA_BR_COND);
  TEST_CHECK(isa_decode(&w, &in) == ISA_ERR_BRANCH, "br with no selector");
  ISA_SET_BNSEL(&w, 3);
  TEST_CHECK(isa_decode(&w, &in) == ISA_ERR_BRANCH, "br with 3 selectors");
  w = (isa_word){{0}};
  ISA_SET_OP(&w, ISA_OP_ADD);
  TEST_CHECK(isa_decode(&w, &in) == ISA_ERR_OPERAND, "add without sources");
  ISA_SET_SRCA(&w, ISA_OPND(ISA_CLS_RD, 0));
  ISA_SET_SRCB(&w, ISA_OPND(ISA_CLS_IMM, 1));
  TEST_CHECK(isa_decode(&w, &in) == ISA_ERR_OPERAND, "immediate index 1");
  ISA_SET_SRCB(&w, ISA_OPND(ISA_CLS_RD, 1));
  TEST_CHECK(isa_decode(&w, &in) == ISA_OK, "add _, rd0, rd1 is valid");
  ISA_SET_SRCC(&w, ISA_OPND(ISA_CLS_RD, 2));
  TEST_CHECK(isa_decode(&w, &in) == ISA_ERR_OPERAND, "third source on add");
  ISA_SET_SRCC(&w, 0);
  ISA_SET_DST(&w, ISA_OPND(ISA_CLS_OD, 0));
  TEST_CHECK(isa_decode(&w, &in) == ISA_ERR_OPERAND, "od in DST (use ODMASK)");
  memset(&in, 0, sizeof in);
  in.op = ISA_OP_NOP;
  in.odmask = 1;
  TEST_CHECK(isa_encode(&in, &w) == ISA_ERR_OPERAND, "nop writing od0");
}

/* The multi-cycle nop (docs/isa.md "Multi-cycle nop"): text, encoding
 * and cycle count of `nop N`. */
typedef struct {
  const char *text;
  int rc;            /* expected parse result */
  int col;           /* expected error column when rc != ISA_OK */
  uint32_t imm;      /* expected IMM (repeat count) when rc == ISA_OK */
  uint64_t cycles;   /* expected isa_insn_cycles */
  const char *canon; /* expected format */
} nop_case;

static const nop_case nop_cases[] = {
    {"nop", ISA_OK, 0, 0, 1, "nop"},
    {"nop 1", ISA_OK, 0, 0, 1, "nop"},
    {"nop 1 ; halt", ISA_OK, 0, 0, 1, "nop ; halt"},
    {"nop 2", ISA_OK, 0, 1, 2, "nop 2"},
    {"nop   6;br c0 ? L3 : L9 // wait", ISA_OK, 0, 5, 6, "nop 6 ; br c0 ? L3 : L9"},
    {"nop 17 ; goto L0", ISA_OK, 0, 16, 17, "nop 17 ; goto L0"},
    {"nop 3 ; next", ISA_OK, 0, 2, 3, "nop 3"},
    {"nop 2147483649 ; halt", ISA_OK, 0, 0x80000000u, 2147483649ull,
     "nop 2147483649 ; halt"},
    {"nop 4294967296", ISA_OK, 0, 0xffffffffu, 4294967296ull, "nop 4294967296"},
    {"nop 4294967297", ISA_ERR_SYNTAX, 5, 0, 0, NULL},
    {"nop 99999999999999999999999", ISA_ERR_SYNTAX, 5, 0, 0, NULL},
    {"nop 0", ISA_ERR_SYNTAX, 5, 0, 0, NULL},
    {"nop -2", ISA_ERR_SYNTAX, 5, 0, 0, NULL},
    {"nop #2", ISA_ERR_SYNTAX, 5, 0, 0, NULL},
    {"nop 0x10", ISA_ERR_SYNTAX, 5, 0, 0, NULL},
    {"nop 2x", ISA_ERR_SYNTAX, 5, 0, 0, NULL},
    {"nop 2 3", ISA_ERR_SYNTAX, 7, 0, 0, NULL},
    {"nop rd0", ISA_ERR_SYNTAX, 5, 0, 0, NULL},
};

static void test_nop_cycles(void) {
  for (size_t i = 0; i < sizeof nop_cases / sizeof nop_cases[0]; i++) {
    const nop_case *t = &nop_cases[i];
    isa_insn in, back;
    isa_word w;
    char msg[160] = "", out[160] = "";
    int col = 0, rc = isa_insn_parse(t->text, &in, &col, msg, sizeof msg);
    if (t->rc != ISA_OK) {
      TEST_CHECK(rc == t->rc && col == t->col, "'%s' rejected at column %d "
                 "(got %d at %d: %s)", t->text, t->col, rc, col, msg);
      continue;
    }
    TEST_CHECK(rc == ISA_OK && in.op == ISA_OP_NOP && (uint32_t)in.imm == t->imm &&
                   isa_insn_cycles(&in) == t->cycles,
               "'%s' is a nop of IMM %u, %llu cycles (got rc %d, IMM %u: %s)",
               t->text, t->imm, (unsigned long long)t->cycles, rc,
               (uint32_t)in.imm, msg);
    isa_insn_format(&in, out, sizeof out);
    TEST_CHECK(strcmp(out, t->canon) == 0, "'%s' formats as '%s' (got '%s')",
               t->text, t->canon, out);
    TEST_CHECK(isa_encode(&in, &w) == ISA_OK && ISA_GET_IMM(&w) == t->imm &&
                   ISA_GET_OP(&w) == ISA_OP_NOP && isa_decode(&w, &back) == ISA_OK &&
                   insn_eq(&in, &back),
               "'%s' encodes with IMM %u and decodes back", t->text, t->imm);
  }
  /* nop 1 is the plain nop: the all-zero word */
  isa_insn one;
  isa_word w;
  isa_insn_parse("nop 1", &one, NULL, NULL, 0);
  TEST_CHECK(isa_encode(&one, &w) == ISA_OK && !w.w[0] && !w.w[1] && !w.w[2] && !w.w[3],
             "nop 1 encodes as the all-zero word");
  /* every other unused field of a nop N stays zero (canonical words) */
  static const struct { int pos, size; uint32_t v; const char *what; int rc; } bad[] = {
      {ISA_POS_DST, ISA_SIZE_DST, ISA_OPND(ISA_CLS_RD, 1), "DST", ISA_ERR_OPERAND},
      {ISA_POS_SRCA, ISA_SIZE_SRC, ISA_OPND(ISA_CLS_IMM, 0), "SRCA = IMM", ISA_ERR_OPERAND},
      {ISA_POS_SRCB, ISA_SIZE_SRC, ISA_OPND(ISA_CLS_RD, 0), "SRCB", ISA_ERR_OPERAND},
      {ISA_POS_SRCC, ISA_SIZE_SRC, ISA_OPND(ISA_CLS_ID, 2), "SRCC", ISA_ERR_OPERAND},
      {ISA_POS_ODMASK, ISA_SIZE_ODMASK, 1, "ODMASK", ISA_ERR_OPERAND},
      {ISA_POS_BNSEL, ISA_SIZE_BNSEL, 1, "BNSEL of next", ISA_ERR_BRANCH},
      {ISA_POS_BSEL(0), ISA_SIZE_BSEL, 3, "BSEL0 of next", ISA_ERR_RESERVED},
      {ISA_POS_BT(0), ISA_SIZE_BT, 4, "BT0 of next", ISA_ERR_RESERVED},
      {ISA_END_W0, 32 - ISA_END_W0, 1, "w0 reserved bits", ISA_ERR_RESERVED},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    isa_insn out;
    w = (isa_word){{0, 0, 7, 0}}; /* nop 8 */
    TEST_CHECK(isa_decode(&w, &out) == ISA_OK && out.imm == 7, "nop 8 decodes");
    isa_field_set(&w, bad[i].pos, bad[i].size, bad[i].v);
    TEST_CHECK(isa_decode(&w, &out) == bad[i].rc,
               "nop 8 with %s set is rejected with %d (got %d)", bad[i].what,
               bad[i].rc, isa_decode(&w, &out));
  }
  /* other opcodes still reject an unused IMM */
  w = (isa_word){{ISA_OP_NEG | ISA_OPND(ISA_CLS_RD, 0) << ISA_POS_SRCA, 0, 1, 0}};
  isa_insn out;
  TEST_CHECK(isa_decode(&w, &out) == ISA_ERR_IMM, "neg _, rd0 with IMM 1 rejected");
  isa_insn_parse("add rd0, rd0, #5", &out, NULL, NULL, 0);
  TEST_CHECK(isa_insn_cycles(&out) == 1, "an add with IMM 5 takes one cycle");
}

static void test_arch_checks(void) {
  arch_config cfg = test_arch();
  char msg[200];
  isa_insn in;
  TEST_CHECK(isa_arch_check(&cfg, msg, sizeof msg) == ISA_OK, "defaults fit");
  cfg.od = 9;
  TEST_CHECK(isa_arch_check(&cfg, msg, sizeof msg) == ISA_ERR_ARCH &&
                 strstr(msg, "pe.od = 9"),
             "pe.od = 9 exceeds the encoding: %s", msg);
  cfg = test_arch();
  static const struct { const char *text; isa_fu_class fu; int rc;
                        const char *needle; } cases[] = {
      {"add rd3, fd3, id3 ; br c7 ? L31 : L0", ISA_FU_ALU, ISA_OK, ""},
      {"add rd4, rd0, rd0", ISA_FU_ALU, ISA_ERR_ARCH, "pe.rd >= 5"},
      {"add od4, rd0, rd0", ISA_FU_ALU, ISA_ERR_ARCH, "pe.od"},
      {"mul rd0, rd0, rd0", ISA_FU_ALU, ISA_ERR_FU, "runs on a mul"},
      {"mul rd0, rd0, rd0", ISA_FU_MUL, ISA_OK, ""},
      {"nop ; goto L32", ISA_FU_MUL, ISA_ERR_ARCH, "pe.imem >= 33"},
      {"nop ; br c8 ? L1 : L0", ISA_FU_ALU, ISA_ERR_ARCH, "gc.signals >= 9"},
      {"nop ; br f2 ? L1 : L0", ISA_FU_ALU, ISA_OK, ""},
      {"nop ; br f3 ? L1 : L0", ISA_FU_ALU, ISA_ERR_ARCH, "flag f3"},
      {"nop ; br c1, c0 ? L3 : L2 : L1 : L0", ISA_FU_ALU, ISA_ERR_ARCH,
       "pe.branch_targets >= 4"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int prc = isa_insn_parse(cases[i].text, &in, NULL, NULL, 0);
    msg[0] = 0;
    int rc = isa_insn_check(&in, cases[i].fu, &cfg, msg, sizeof msg);
    TEST_CHECK(prc == ISA_OK && rc == cases[i].rc &&
                   strstr(msg, cases[i].needle),
               "check '%s' on %s -> %d (got %d: %s)", cases[i].text,
               isa_fu_name(cases[i].fu), cases[i].rc, rc, msg);
  }
  char name[16];
  TEST_CHECK(isa_fu_count(&cfg) == 3 && isa_fu_class_of(&cfg, 2) == ISA_FU_MUL &&
                 strcmp(isa_fu_format(&cfg, 2, name, sizeof name), "mul0") == 0,
             "FU numbering alu0 alu1 mul0");
  TEST_CHECK(isa_op_latency(ISA_OP_MUL, &cfg) == 2 &&
                 isa_op_latency(ISA_OP_ADD, &cfg) == 1 &&
                 isa_op_latency(ISA_OP_DIV, &cfg) == 8,
             "latencies by FU class");
}

int main(void) {
  test_eval();
  test_table();
  test_layout();
  test_round_trips();
  test_parse();
  test_reject();
  test_nop_cycles();
  test_arch_checks();
  return test_done();
}
