/*
 * gen_isa_pkg.c: prints the SystemVerilog package tcpa_isa_pkg (field
 * positions and sizes of the 128-bit instruction word, operand classes,
 * branch kinds and opcodes, each a `localparam int unsigned`; the opcodes,
 * branch kinds and operand classes once more as typed enums, opcode_e
 * (OPC_*), br_kind_e (BK_*) and opnd_cls_e (OC_*); and the instruction
 * word itself as the packed struct insn_t, with the operand struct
 * opnd_t) from the macros and enums of common/isa.h, so the RTL decoder
 * and the C tools share one source of truth for the encoding (docs/rtl.md
 * "Generated packages").
 *
 * insn_t is built from a table of the word's fields (gen_isa_fields: a
 * name, a type, isa.h's position and size macros): sorted by position,
 * the gaps between fields become reserved members rsvd<pos>, and the
 * program fails (exit 1, nothing printed) when two fields overlap, a
 * field crosses a 32-bit word or the members do not fill ISA_WORD_BITS.
 * A change of a field's size or position in isa.h thus moves the member
 * in the struct, and the RTL, which reads the word only through it,
 * decodes the new layout (tests/rtl_isa_layout.sh). The Makefile compiles
 * and runs it into build/gen/tcpa_isa_pkg.sv; tests/gen_copies.sh checks
 * it against isa.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

/* Prints one `localparam int unsigned NAME = VALUE;` line. */
static void gen_param(const char *name, int value) {
  printf("  localparam int unsigned %s = %d;\n", name, value);
}

/* The opcodes of isa.h by name; the RTL names OP_<X> (localparam) and
 * OPC_<X> (member of opcode_e) come from these. */
static const struct {
  const char *name;
  int op;
} gen_isa_ops[] = {
    {"NOP", ISA_OP_NOP},   {"MOV", ISA_OP_MOV},   {"NEG", ISA_OP_NEG},   {"NOT", ISA_OP_NOT},
    {"LNOT", ISA_OP_LNOT}, {"MUL", ISA_OP_MUL},   {"DIV", ISA_OP_DIV},   {"MOD", ISA_OP_MOD},
    {"ADD", ISA_OP_ADD},   {"SUB", ISA_OP_SUB},   {"SHL", ISA_OP_SHL},   {"SHR", ISA_OP_SHR},
    {"SHRU", ISA_OP_SHRU}, {"LT", ISA_OP_LT},     {"LE", ISA_OP_LE},     {"GT", ISA_OP_GT},
    {"GE", ISA_OP_GE},     {"EQ", ISA_OP_EQ},     {"NE", ISA_OP_NE},     {"AND", ISA_OP_AND},
    {"XOR", ISA_OP_XOR},   {"OR", ISA_OP_OR},     {"SEL", ISA_OP_SEL},   {"MIN", ISA_OP_MIN},
    {"MAX", ISA_OP_MAX},   {"ABS", ISA_OP_ABS}};
#define GEN_ISA_NOPS (sizeof gen_isa_ops / sizeof gen_isa_ops[0])
_Static_assert(GEN_ISA_NOPS == ISA_OP_COUNT, "gen_isa_ops must list every opcode of isa.h");

/* Prints `typedef enum logic [ISA_SIZE_OP-1:0] {...} opcode_e;`. */
static void gen_opcode_enum(void) {
  printf("  // the opcodes as a type (same values as the OP_* above)\n"
         "  typedef enum logic [%d:0] {\n", ISA_SIZE_OP - 1);
  for (size_t i = 0; i < GEN_ISA_NOPS; i++)
    printf("    OPC_%s = %d'd%d%s\n", gen_isa_ops[i].name, ISA_SIZE_OP, gen_isa_ops[i].op,
           i + 1 < GEN_ISA_NOPS ? "," : "");
  printf("  } opcode_e;\n");
}

/* Prints `typedef enum logic [W-1:0] {...} NAME;` with the members
 * PREFIX<names[i]> = values[i]. */
static void gen_enum(const char *name, int width, const char *prefix, const char *const *names,
                     const int *values, size_t n) {
  printf("  typedef enum logic [%d:0] {\n", width - 1);
  for (size_t i = 0; i < n; i++)
    printf("    %s%s = %d'd%d%s\n", prefix, names[i], width, values[i], i + 1 < n ? "," : "");
  printf("  } %s;\n", name);
}

/* The branch kinds and operand classes of isa.h as enums (br_kind_e,
 * opnd_cls_e), as wide as their fields. */
static void gen_kind_enums(void) {
  static const char *const bk_names[] = {"NEXT", "GOTO", "COND", "HALT"};
  static const int bk_values[] = {ISA_BR_NEXT, ISA_BR_GOTO, ISA_BR_COND, ISA_BR_HALT};
  static const char *const oc_names[] = {"NONE", "RD", "FD", "ID", "OD", "IMM"};
  static const int oc_values[] = {ISA_CLS_NONE, ISA_CLS_RD, ISA_CLS_FD,
                                  ISA_CLS_ID,   ISA_CLS_OD, ISA_CLS_IMM};
  printf("  // the branch kinds (BKIND) and operand classes (CLS) as types\n");
  gen_enum("br_kind_e", ISA_SIZE_BKIND, "BK_", bk_names, bk_values, 4);
  gen_enum("opnd_cls_e", ISA_SIZE_CLS, "OC_", oc_names, oc_values, 6);
}

/* A field of the instruction word: its member name, its SystemVerilog
 * type (NULL: a plain vector of `size` bits), its position and size. */
typedef struct {
  const char *name;
  const char *type;
  int pos;
  int size;
} gen_isa_field;

/* The branch selectors and targets are arrays of equal fields side by
 * side (isa.h's ISA_POS_BSEL(i), ISA_POS_BT(i)); each is one member, a
 * flat vector whose element i sits at bits i * ISA_SIZE_BSEL (BT). */
_Static_assert(ISA_POS_BSEL(1) - ISA_POS_BSEL(0) == ISA_SIZE_BSEL, "BSELi not side by side");
_Static_assert(ISA_POS_BT(1) - ISA_POS_BT(0) == ISA_SIZE_BT, "BTi not side by side");
_Static_assert(ISA_SIZE_OPND == ISA_SIZE_SRC && ISA_SIZE_OPND == ISA_SIZE_DST,
               "operand fields must be opnd_t wide");
_Static_assert(ISA_SIZE_CLS + ISA_SIZE_IDX == ISA_SIZE_OPND &&
                   (ISA_POS_OPND_CLS == 0 || ISA_POS_OPND_IDX == 0) &&
                   ISA_POS_OPND_CLS + ISA_POS_OPND_IDX == ISA_SIZE_OPND - ISA_SIZE_CLS - ISA_SIZE_IDX +
                   (ISA_POS_OPND_CLS ? ISA_SIZE_IDX : ISA_SIZE_CLS),
               "CLS and IDX must tile an operand");

/* The fields of the word, in any order (gen_struct sorts them). */
static const gen_isa_field gen_isa_fields[] = {
    {"op", "opcode_e", ISA_POS_OP, ISA_SIZE_OP},
    {"dst", "opnd_t", ISA_POS_DST, ISA_SIZE_DST},
    {"srca", "opnd_t", ISA_POS_SRCA, ISA_SIZE_SRC},
    {"srcb", "opnd_t", ISA_POS_SRCB, ISA_SIZE_SRC},
    {"srcc", "opnd_t", ISA_POS_SRCC, ISA_SIZE_SRC},
    {"odmask", NULL, ISA_POS_ODMASK, ISA_SIZE_ODMASK},
    {"bkind", "br_kind_e", ISA_POS_BKIND, ISA_SIZE_BKIND},
    {"bnsel", NULL, ISA_POS_BNSEL, ISA_SIZE_BNSEL},
    {"bsel", NULL, ISA_POS_BSEL(0), ISA_SEL_COUNT * ISA_SIZE_BSEL},
    {"imm", NULL, ISA_POS_IMM, ISA_SIZE_IMM},
    {"bt", NULL, ISA_POS_BT(0), ISA_MAX_TARGETS * ISA_SIZE_BT},
};
#define GEN_ISA_NFIELDS (sizeof gen_isa_fields / sizeof gen_isa_fields[0])

/* Returns the order of two fields by position, highest first (qsort). */
static int gen_field_cmp(const void *a, const void *b) {
  const gen_isa_field *x = a, *y = b;
  return (y->pos > x->pos) - (y->pos < x->pos);
}

/* Prints one member of `size` bits: `TYPE name;` or `logic [S-1:0] name;`. */
static void gen_member(const char *type, const char *name, int size, int pos) {
  char decl[64];
  if (type)
    snprintf(decl, sizeof decl, "%s", type);
  else
    snprintf(decl, sizeof decl, "logic [%d:0]", size - 1);
  printf("    %-16s %s;%*s// bits %d..%d\n", decl, name, (int)(10 - strlen(name)), "", pos,
         pos + size - 1);
}

/* Sorts the fields into f (highest position first); returns 0, or -1
 * with a message on stderr when they do not fit the word: an overlap, a
 * field past ISA_WORD_BITS or across a 32-bit word. */
static int gen_fields_sort(gen_isa_field *f) {
  memcpy(f, gen_isa_fields, sizeof gen_isa_fields);
  qsort(f, GEN_ISA_NFIELDS, sizeof f[0], gen_field_cmp);
  int top = ISA_WORD_BITS; /* lowest bit of the fields above */
  for (size_t i = 0; i < GEN_ISA_NFIELDS; i++) {
    int end = f[i].pos + f[i].size;
    if (f[i].size <= 0 || f[i].pos < 0 || end > top) {
      fprintf(stderr, "gen_isa_pkg: field %s (bits %d..%d) overlaps the field above it or the word's end (%d)\n",
              f[i].name, f[i].pos, end - 1, top);
      return -1;
    }
    if (f[i].pos / 32 != (end - 1) / 32) {
      fprintf(stderr, "gen_isa_pkg: field %s (bits %d..%d) crosses a 32-bit word\n", f[i].name,
              f[i].pos, end - 1);
      return -1;
    }
    top = f[i].pos;
  }
  return 0;
}

/* Prints opnd_t and insn_t from the sorted fields f (members from the
 * most significant down, gaps as rsvd<pos>). */
static void gen_structs(const gen_isa_field *f) {
  printf("  // an operand field (DST, SRCA..SRCC): class and index\n"
         "  typedef struct packed {\n");
  if (ISA_POS_OPND_CLS > ISA_POS_OPND_IDX) {
    gen_member("opnd_cls_e", "cls", ISA_SIZE_CLS, ISA_POS_OPND_CLS);
    gen_member(NULL, "idx", ISA_SIZE_IDX, ISA_POS_OPND_IDX);
  } else {
    gen_member(NULL, "idx", ISA_SIZE_IDX, ISA_POS_OPND_IDX);
    gen_member("opnd_cls_e", "cls", ISA_SIZE_CLS, ISA_POS_OPND_CLS);
  }
  printf("  } opnd_t;\n");
  printf("  // the instruction word (isa.h's diagram), most significant member first;\n"
         "  // bsel holds BSEL0.. and bt BT0.. (element i at bits i * size)\n"
         "  typedef struct packed {\n");
  int top = ISA_WORD_BITS;
  for (size_t i = 0; i < GEN_ISA_NFIELDS; i++) {
    int end = f[i].pos + f[i].size;
    if (end < top) {
      char name[32];
      snprintf(name, sizeof name, "rsvd%d", end);
      gen_member(NULL, name, top - end, end);
    }
    gen_member(f[i].type, f[i].name, f[i].size, f[i].pos);
    top = f[i].pos;
  }
  if (top > 0) gen_member(NULL, "rsvd0", top, 0);
  printf("  } insn_t;\n");
  /* the reserved bits (the gaps), as a mask of the word */
  unsigned char used[ISA_WORD_BITS] = {0};
  for (size_t i = 0; i < GEN_ISA_NFIELDS; i++)
    for (int b = f[i].pos; b < f[i].pos + f[i].size; b++) used[b] = 1;
  printf("  // the reserved bits of the word (no field): 1\n"
         "  localparam logic [%d:0] ISA_RSVD_MASK = %d'h", ISA_WORD_BITS - 1, ISA_WORD_BITS);
  for (int d = (ISA_WORD_BITS + 3) / 4 - 1; d >= 0; d--) {
    int v = 0;
    for (int b = 0; b < 4; b++)
      if (d * 4 + b < ISA_WORD_BITS && !used[d * 4 + b]) v |= 1 << b;
    printf("%x", v);
  }
  printf(";\n");
}

/* Returns 0 after printing the package on stdout, 1 when isa.h's fields
 * do not tile the word. */
int main(void) {
  gen_isa_field fields[GEN_ISA_NFIELDS];
  if (gen_fields_sort(fields) != 0) return 1;
  printf("// tcpa_isa_pkg: instruction-word layout of common/isa.h.\n"
         "// GENERATED by common/gen/gen_isa_pkg.c; do not edit.\n"
         "package tcpa_isa_pkg;\n");
  gen_param("ISA_WORD_BITS", ISA_WORD_BITS);
  gen_param("ISA_WORDS", ISA_WORDS);
  gen_param("ISA_PC_BITS", ISA_PC_BITS);
  gen_param("ISA_SEL_COUNT", ISA_SEL_COUNT);
  gen_param("ISA_MAX_TARGETS", ISA_MAX_TARGETS);
  gen_param("ISA_COND_FLAG", ISA_COND_FLAG);
  gen_param("ISA_SIZE_CLS", ISA_SIZE_CLS);
  gen_param("ISA_SIZE_IDX", ISA_SIZE_IDX);
  gen_param("ISA_SIZE_OPND", ISA_SIZE_OPND);
  gen_param("ISA_SIZE_OP", ISA_SIZE_OP);
  gen_param("ISA_SIZE_ODMASK", ISA_SIZE_ODMASK);
  gen_param("ISA_SIZE_BKIND", ISA_SIZE_BKIND);
  gen_param("ISA_SIZE_BNSEL", ISA_SIZE_BNSEL);
  gen_param("ISA_SIZE_BSEL", ISA_SIZE_BSEL);
  gen_param("ISA_SIZE_IMM", ISA_SIZE_IMM);
  gen_param("ISA_SIZE_BT", ISA_SIZE_BT);
  gen_param("ISA_POS_OP", ISA_POS_OP);
  gen_param("ISA_POS_DST", ISA_POS_DST);
  gen_param("ISA_POS_SRCA", ISA_POS_SRCA);
  gen_param("ISA_POS_SRCB", ISA_POS_SRCB);
  gen_param("ISA_POS_SRCC", ISA_POS_SRCC);
  gen_param("ISA_POS_ODMASK", ISA_POS_ODMASK);
  gen_param("ISA_POS_BKIND", ISA_POS_BKIND);
  gen_param("ISA_POS_BNSEL", ISA_POS_BNSEL);
  gen_param("ISA_POS_BSEL0", ISA_POS_BSEL(0));
  gen_param("ISA_POS_BSEL1", ISA_POS_BSEL(1));
  gen_param("ISA_POS_IMM", ISA_POS_IMM);
  gen_param("ISA_POS_BT0", ISA_POS_BT(0));
  gen_param("ISA_POS_OPND_IDX", ISA_POS_OPND_IDX);
  gen_param("ISA_POS_OPND_CLS", ISA_POS_OPND_CLS);
  gen_param("CLS_NONE", ISA_CLS_NONE);
  gen_param("CLS_RD", ISA_CLS_RD);
  gen_param("CLS_FD", ISA_CLS_FD);
  gen_param("CLS_ID", ISA_CLS_ID);
  gen_param("CLS_IMM", ISA_CLS_IMM);
  gen_param("BR_NEXT", ISA_BR_NEXT);
  gen_param("BR_GOTO", ISA_BR_GOTO);
  gen_param("BR_COND", ISA_BR_COND);
  gen_param("BR_HALT", ISA_BR_HALT);
  for (size_t i = 0; i < GEN_ISA_NOPS; i++) {
    char name[32];
    snprintf(name, sizeof name, "OP_%s", gen_isa_ops[i].name);
    gen_param(name, gen_isa_ops[i].op);
  }
  gen_opcode_enum();
  gen_kind_enums();
  gen_structs(fields);
  printf("endpackage\n");
  return 0;
}
