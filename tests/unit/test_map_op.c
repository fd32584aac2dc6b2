/* covers: docs/isa.md "Operations", docs/language.md "Data expressions" */
/*
 * test_map_op.c: the opcode of each language operation (compiler/map/
 * map_op.c, docs/isa.md): every operation of docs/language.md maps to an
 * opcode of the right unit class and arity, one to one.
 */
#include "map.h"
#include "test.h"

/* Every language operation maps to an opcode of the right class and arity,
 * and the mnemonics are unique and found again by lookup. */
static void test_map_op(void) {
  int seen[ISA_OP_COUNT] = {0};
  for (int o = 0; o < AST_OP_COUNT; o++) {
    isa_op op = map_op_isa((ast_op)o);
    const isa_op_info *info = isa_op_get(op);
    isa_fu_class want = o == AST_OP_MUL ? ISA_FU_MUL
                        : (o == AST_OP_DIV || o == AST_OP_MOD) ? ISA_FU_DIV
                                                               : ISA_FU_ALU;
    int arity = o == AST_OP_SEL ? 3
                : (o == AST_OP_MOV || o == AST_OP_NEG || o == AST_OP_NOT ||
                   o == AST_OP_LNOT || o == AST_OP_ABS) ? 1 : 2;
    TEST_CHECK(op != ISA_OP_NOP && info->fu == want && info->nsrc == arity,
               "language op %s maps to %s on %s with %d sources",
               ast_op_name((ast_op)o), info->name, isa_fu_name(info->fu),
               info->nsrc);
    seen[op]++;
  }
  int dup = 0;
  for (int op = 1; op < ISA_OP_COUNT; op++) dup |= seen[op] != 1;
  TEST_CHECK(!dup, "language ops and opcodes correspond one to one");
  TEST_CHECK(map_op_isa(AST_OP_COUNT) == ISA_OP_NOP, "an operation out of range -> nop");
}

int main(void) {
  test_map_op();
  return test_done();
}
