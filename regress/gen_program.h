/*
 * gen_program.h: random loop programs that are valid by construction
 * (docs/fuzz.md, section "Random programs"), in the spirit of Csmith and
 * YARPGen for C compilers: `tcpa gen program --seed N` prints one, the
 * runner (gen_run.h) takes each through the whole flow against the
 * reference interpreter and shrinks a failing one (gp_shrink_*).
 *
 * A program is kept as a small structure (gp_program), printed as text in
 * the language of docs/language.md. Every rule of `tcpa check` holds by
 * construction:
 *   - the iteration space has 1 to 4 dimensions, each `0 <= x < P`, or
 *     triangular `0 <= x <= y` / `y <= x < P` against an earlier
 *     rectangular dimension y; every dimension's extent is a parameter;
 *   - an internal variable is defined on the whole space by up to three
 *     pieces: piece k holds where C_k (the guard of its uses plus a split)
 *     holds and no earlier C_j does, the last piece where no C_j holds;
 *     the guard of a use at offset o is every constraint of `par` shifted
 *     by o, so every use reads inside the space (rules 1, 2);
 *   - offsets are lexicographically negative (dependences lexicographically
 *     positive, zero and negative components allowed) or zero; a zero
 *     offset reads only an earlier variable (rule 3);
 *   - input reads are `x + c` or `P-1-x + c` with the extent padded by c;
 *     an output is indexed by dimensions that range over a full box once
 *     the others are fixed at a bound of theirs (rules 4, 5).
 * The same seed gives the same structure and text on every platform (rng.h).
 */
#ifndef TCPA_GEN_PROGRAM_H
#define TCPA_GEN_PROGRAM_H

#include <stdint.h>
#include <stdio.h>

#define GP_MAX_DIMS 4
#define GP_MAX_PARAMS 4
#define GP_MAX_VARS 5
#define GP_MAX_PIECES 3
#define GP_MAX_INPUTS 3
#define GP_MAX_SCALARS 2
#define GP_MAX_OUTPUTS 3
#define GP_MAX_ATOMS 12   /* atoms of one clause */
#define GP_MAX_CLAUSES 16 /* clauses of one condition (a conjunction) */

/* The kinds of dimension: `0 <= x < P`, `0 <= x <= y`, `y <= x < P_y`. */
typedef enum { GP_DIM_RECT, GP_DIM_LOW, GP_DIM_UP } gp_dim_kind;

typedef struct {
  gp_dim_kind kind;
  int param; /* RECT: the bound's parameter; LOW, UP: the base's */
  int base;  /* LOW, UP: the earlier rectangular dimension y */
} gp_dim;

/* An affine form of the indices and parameters: sum x*dc + sum P*pc + k. */
typedef struct {
  int dc[GP_MAX_DIMS];
  int pc[GP_MAX_PARAMS];
  int k;
} gp_form;

typedef enum { GP_REL_GE, GP_REL_EQ, GP_REL_NE } gp_rel; /* form >= 0, == 0, != 0 */

typedef struct {
  gp_form f;
  gp_rel rel;
} gp_atom;

/* A disjunction of atoms. */
typedef struct {
  gp_atom a[GP_MAX_ATOMS];
  int n;
} gp_clause;

/* A conjunction of clauses (no clause: true). */
typedef struct {
  gp_clause c[GP_MAX_CLAUSES];
  int n;
} gp_cond;

typedef enum {
  GP_E_CONST, GP_E_IN, GP_E_SCALAR, GP_E_VAR, GP_E_UN, GP_E_BIN, GP_E_SEL, GP_E_CALL
} gp_expr_kind;

/* The operators, in the language's spelling (gp_op_text). */
typedef enum {
  GP_OP_NEG, GP_OP_NOT, GP_OP_LNOT, GP_OP_ABS, /* unary */
  GP_OP_ADD, GP_OP_SUB, GP_OP_MUL, GP_OP_DIV, GP_OP_MOD, GP_OP_SHL, GP_OP_SHR, GP_OP_SHRU,
  GP_OP_LT, GP_OP_LE, GP_OP_GT, GP_OP_GE, GP_OP_EQ, GP_OP_NE, GP_OP_AND, GP_OP_XOR, GP_OP_OR,
  GP_OP_MIN, GP_OP_MAX, /* calls */
  GP_OP_COUNT
} gp_op;

typedef struct gp_expr {
  gp_expr_kind kind;
  gp_op op;
  int32_t val;              /* CONST */
  int ref;                  /* IN, SCALAR, VAR: which one */
  int off[GP_MAX_DIMS];     /* VAR: the offset; IN: the pad used per index */
  struct gp_expr *a, *b, *c; /* operands (SEL: c ? a : b) */
} gp_expr;

/* One equation: LHS = e if (cond). */
typedef struct {
  gp_expr *e;
  gp_cond cond;
} gp_eq;

/* An internal variable v<k>: pieces in order (gp_program_fix_pieces). */
typedef struct {
  gp_eq piece[GP_MAX_PIECES];
  gp_atom split[GP_MAX_PIECES]; /* the split of piece k (has_split) */
  int has_split[GP_MAX_PIECES];
  int npieces;
} gp_var;

/* An input array A<k>: index t reads dimension dim[t], reversed or not,
 * extent the dimension's parameter + pad[t]. */
typedef struct {
  int n;
  int dim[GP_MAX_DIMS];
  int rev[GP_MAX_DIMS];
  int pad[GP_MAX_DIMS];
} gp_input;

/* An output O<k>: indexed by the dimensions keep[] (in order, reversed
 * where rev), the others fixed at their low (0) or high (1) bound; one
 * equation, or two split by `split` and its negation. */
typedef struct {
  int keep[GP_MAX_DIMS];
  int rev[GP_MAX_DIMS];
  int fixhi[GP_MAX_DIMS];
  gp_expr *e[2];
  gp_atom split;
  int nsplit; /* 1 or 2 equations */
} gp_output;

typedef struct {
  uint64_t seed;
  int ndims, nparams, nvars, ninputs, nscalars, noutputs;
  gp_dim dim[GP_MAX_DIMS];
  int pmin[GP_MAX_PARAMS];  /* a constraint P >= pmin when above 1 */
  int pval[GP_MAX_PARAMS];  /* the values the runner uses */
  gp_var var[GP_MAX_VARS];
  gp_input in[GP_MAX_INPUTS];
  gp_output out[GP_MAX_OUTPUTS];
} gp_program;

/* Returns 0 after filling *p with the program of `seed`; free it with
 * gp_program_free. */
int gp_program_generate(uint64_t seed, gp_program *p);

/* Frees the expressions of p. */
void gp_program_free(gp_program *p);

/* Returns 0 after copying src into *dst (expressions duplicated). */
int gp_program_copy(gp_program *dst, const gp_program *src);

/* Rebuilds the conditions of every piece of every variable and output
 * from their uses and splits (after a change of expressions or pieces). */
void gp_program_fix(gp_program *p);

/* Writes the program text to f: the seed and parameter comments, then
 * the program (docs/language.md). */
void gp_program_print(const gp_program *p, FILE *f);

/* Writes the parameter values as "N=5 M=3" to f. */
void gp_program_params_print(const gp_program *p, FILE *f);

/* The program's name for its seed, "g<seed>". */
void gp_program_name(const gp_program *p, char *buf, size_t size);

/* Returns the number of one-step simplifications gp_shrink_apply knows
 * for p (deleting equations, operands, outputs, lowering parameters...). */
int gp_shrink_count(const gp_program *p);

/* Returns 0 after applying simplification `k` (0 <= k < gp_shrink_count)
 * to *p, leaving a valid program strictly smaller by gp_program_size;
 * -1 when that simplification does not apply (p unchanged). */
int gp_shrink_apply(gp_program *p, int k);

/* Returns a measure of the size of p (the shrinker only goes down). */
long gp_program_size(const gp_program *p);

#endif
