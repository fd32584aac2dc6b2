/*
 * ast.c: small helpers over the program tree of ast.h: evaluating affine
 * expressions, naming operations, and freeing a program.
 */
#include "ast.h"

#include <stdlib.h>

int ast_aff_is_param_only(const ast_aff *a) {
  for (int d = 0; d < AST_MAX_DIMS; d++)
    if (a->index[d]) return 0;
  return 1;
}

int64_t ast_aff_eval(const ast_aff *a, const int64_t *params,
                     const int64_t *indices) {
  int64_t v = a->konst;
  for (int p = 0; p < AST_MAX_PARAMS; p++)
    if (a->param[p]) v += a->param[p] * params[p];
  for (int d = 0; d < AST_MAX_DIMS; d++)
    if (a->index[d]) v += a->index[d] * indices[d];
  return v;
}

const char *ast_op_name(ast_op op) {
  static const char *const names[AST_OP_COUNT] = {
      [AST_OP_MOV] = "mov", [AST_OP_NEG] = "-",    [AST_OP_NOT] = "~",
      [AST_OP_LNOT] = "!",  [AST_OP_MUL] = "*",    [AST_OP_DIV] = "/",
      [AST_OP_MOD] = "%",   [AST_OP_ADD] = "+",    [AST_OP_SUB] = "-",
      [AST_OP_SHL] = "<<",  [AST_OP_SHR] = ">>",   [AST_OP_SHRU] = ">>>",
      [AST_OP_LT] = "<",    [AST_OP_LE] = "<=",    [AST_OP_GT] = ">",
      [AST_OP_GE] = ">=",   [AST_OP_EQ] = "==",    [AST_OP_NE] = "!=",
      [AST_OP_AND] = "&",   [AST_OP_XOR] = "^",    [AST_OP_OR] = "|",
      [AST_OP_SEL] = "?:",  [AST_OP_MIN] = "min",  [AST_OP_MAX] = "max",
      [AST_OP_ABS] = "abs"};
  return op >= 0 && op < AST_OP_COUNT ? names[op] : "?";
}

/* Frees an expression tree. */
static void ast_expr_free(ast_expr *e) {
  if (!e) return;
  for (int i = 0; i < 3; i++) ast_expr_free(e->arg[i]);
  free(e);
}

/* Frees the constraint arrays of a condition. */
static void ast_cond_free(ast_cond *c) {
  for (int i = 0; i < c->n; i++) free(c->conj[i].c);
  free(c->conj);
}

void ast_program_free(ast_program *p) {
  if (!p) return;
  for (int i = 0; i < p->neqs; i++) {
    ast_expr_free(p->eqs[i].rhs);
    ast_cond_free(&p->eqs[i].cond);
  }
  free(p->eqs);
  for (int i = 0; i < p->nvars; i++) free(p->vars[i].name);
  free(p->vars);
  for (int i = 0; i < p->narrays; i++) free(p->arrays[i].name);
  free(p->arrays);
  free(p->space.c);
  free(p->param_space.c);
  for (int i = 0; i < p->nparams; i++) free(p->param[i]);
  for (int i = 0; i < p->ndims; i++) free(p->index[i]);
  free(p->name);
  free(p->source);
  free(p->file);
  free(p);
}
