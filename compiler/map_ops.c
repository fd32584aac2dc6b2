/*
 * map_ops.c: the opcode (isa.h) that implements each operation of the
 * language (ast.h, docs/language.md), for the mapper's tiling step
 * (map_tile.c). It lives on the compiler side so that the instruction set
 * does not depend on the language's syntax tree.
 */
#include "map.h"

/* language operation -> opcode */
static const isa_op from_ast[AST_OP_COUNT] = {
    [AST_OP_MOV] = ISA_OP_MOV,   [AST_OP_NEG] = ISA_OP_NEG,
    [AST_OP_NOT] = ISA_OP_NOT,   [AST_OP_LNOT] = ISA_OP_LNOT,
    [AST_OP_MUL] = ISA_OP_MUL,   [AST_OP_DIV] = ISA_OP_DIV,
    [AST_OP_MOD] = ISA_OP_MOD,   [AST_OP_ADD] = ISA_OP_ADD,
    [AST_OP_SUB] = ISA_OP_SUB,   [AST_OP_SHL] = ISA_OP_SHL,
    [AST_OP_SHR] = ISA_OP_SHR,   [AST_OP_SHRU] = ISA_OP_SHRU,
    [AST_OP_LT] = ISA_OP_LT,     [AST_OP_LE] = ISA_OP_LE,
    [AST_OP_GT] = ISA_OP_GT,     [AST_OP_GE] = ISA_OP_GE,
    [AST_OP_EQ] = ISA_OP_EQ,     [AST_OP_NE] = ISA_OP_NE,
    [AST_OP_AND] = ISA_OP_AND,   [AST_OP_XOR] = ISA_OP_XOR,
    [AST_OP_OR] = ISA_OP_OR,     [AST_OP_SEL] = ISA_OP_SEL,
    [AST_OP_MIN] = ISA_OP_MIN,   [AST_OP_MAX] = ISA_OP_MAX,
    [AST_OP_ABS] = ISA_OP_ABS,
};

/* Returns the opcode that implements a language operation (map.h). */
isa_op isa_op_from_ast(ast_op op) {
  if ((int)op < 0 || op >= AST_OP_COUNT) return ISA_OP_NOP;
  return from_ast[op];
}
