/*
 * ast.h: a .pla program as the parser builds it (docs/language.md).
 *
 * The parser resolves every name while it reads, so the tree holds ids, not
 * strings: parameters, index names, arrays and internal variables are each
 * numbered in order of appearance. Index and condition expressions are
 * affine and are kept as coefficient vectors over the parameters and the
 * indices; conditions are kept in disjunctive normal form, each constraint
 * normalised to `aff >= 0` or `aff == 0` (`!=` is split into `<` or `>`).
 * Data expressions are trees of ast_expr; the RDG (rdg.h) lowers them to one
 * operation per node.
 *
 * Every node keeps its source location so that later stages (the isl checks,
 * the interpreter, the mapper) can point at the spot they complain about.
 */
#ifndef TCPA_AST_H
#define TCPA_AST_H

#include <stdint.h>

#include "diag.h"

#define AST_MAX_PARAMS 8 /* program parameters */
#define AST_MAX_DIMS 8   /* iteration-space dimensions and array ranks */

/* A place in the program's file (its `file` is ast_program.file). */
typedef diag_loc ast_loc;

/* sum(param[p] * P_p) + sum(index[d] * i_d) + konst */
typedef struct {
  int64_t param[AST_MAX_PARAMS];
  int64_t index[AST_MAX_DIMS];
  int64_t konst;
} ast_aff;

/* aff >= 0, or aff == 0 when is_eq */
typedef struct {
  ast_aff aff;
  int is_eq;
} ast_constraint;

/* conjunction; n == 0 is "true" */
typedef struct {
  int n;
  ast_constraint *c;
} ast_conj;

/* disjunction of conjunctions; an equation without `if` has one empty conj */
typedef struct {
  int n;
  ast_conj *conj;
} ast_cond;

typedef enum { AST_ARRAY_IN, AST_ARRAY_OUT } ast_array_kind;

typedef struct {
  char *name;
  ast_array_kind kind;
  int ndims; /* 0: a scalar */
  ast_aff extent[AST_MAX_DIMS]; /* parameters and constants only */
  ast_loc loc;
} ast_array;

/* An internal variable: introduced by being defined. */
typedef struct {
  char *name;
  ast_loc loc; /* first definition */
} ast_var;

/* Operations of the language (data expressions). AST_OP_MOV is a plain copy,
 * used for equations whose right-hand side is a single operand. */
typedef enum {
  AST_OP_MOV,
  AST_OP_NEG,  /* -a */
  AST_OP_NOT,  /* ~a */
  AST_OP_LNOT, /* !a */
  AST_OP_MUL,
  AST_OP_DIV,
  AST_OP_MOD,
  AST_OP_ADD,
  AST_OP_SUB,
  AST_OP_SHL,  /* << */
  AST_OP_SHR,  /* >> arithmetic */
  AST_OP_SHRU, /* >>> logical */
  AST_OP_LT,
  AST_OP_LE,
  AST_OP_GT,
  AST_OP_GE,
  AST_OP_EQ,
  AST_OP_NE,
  AST_OP_AND,
  AST_OP_XOR,
  AST_OP_OR,
  AST_OP_SEL, /* c ? a : b */
  AST_OP_MIN,
  AST_OP_MAX,
  AST_OP_ABS,
  AST_OP_COUNT
} ast_op;

typedef enum {
  AST_EXPR_CONST, /* integer literal */
  AST_EXPR_VAR,   /* internal variable with a uniform offset */
  AST_EXPR_IN,    /* input array element or input scalar */
  AST_EXPR_OP     /* operation on 1 to 3 operands */
} ast_expr_kind;

typedef struct ast_expr {
  ast_expr_kind kind;
  ast_loc loc;
  int32_t value;              /* CONST */
  int var;                    /* VAR: index into ast_program.vars */
  int64_t off[AST_MAX_DIMS];  /* VAR: added to each index: x[i-1,j] has off {-1,0};
                                 the dependence vector d of the paper is -off */
  int array;                  /* IN: index into ast_program.arrays */
  ast_aff idx[AST_MAX_DIMS];  /* IN: one affine index per array dimension */
  ast_op op;                  /* OP */
  int nargs;                  /* OP: 1, 2 or 3 */
  struct ast_expr *arg[3];    /* OP */
} ast_expr;

typedef struct {
  ast_loc loc;      /* start of the left-hand side */
  int is_out;       /* defines an output array element (else an internal var) */
  int var;          /* !is_out: the internal variable defined */
  int array;        /* is_out: the output array written */
  ast_aff idx[AST_MAX_DIMS]; /* is_out: its affine indices */
  ast_expr *rhs;
  ast_cond cond;    /* condition, without the iteration space */
  ast_loc cond_loc; /* location of `if`, or of the equation if none */
} ast_eq;

typedef struct {
  char *file;   /* path as given */
  char *source; /* whole text, for carets under errors */
  char *name;
  ast_loc loc;
  int nparams;
  char *param[AST_MAX_PARAMS];
  int ndims;
  char *index[AST_MAX_DIMS];
  ast_conj space;       /* constraints of `par` naming at least one index */
  ast_conj param_space; /* constraints of `par` naming parameters only */
  ast_loc par_loc;
  int narrays;
  ast_array *arrays;
  int nvars;
  ast_var *vars;
  int neqs;
  ast_eq *eqs;
} ast_program;

/* Returns 1 when the affine expression names no index (parameters and
 * constants only), else 0. */
int ast_aff_is_param_only(const ast_aff *a);

/* Returns the value of `a` for the given parameter and index values. */
int64_t ast_aff_eval(const ast_aff *a, const int64_t *params,
                     const int64_t *indices);

/* Frees the program and everything it owns; NULL is allowed. */
void ast_program_free(ast_program *p);

/* Returns the source spelling of an operation ("+", "min", ...). */
const char *ast_op_name(ast_op op);

#endif
