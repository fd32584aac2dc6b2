/* covers: docs/language.md "Structure", "Equations", "Conditions",
 *   "Data expressions" */
/*
 * test_parse.c: tests of the parser (parse.h). Table-driven: program texts
 * with the error message they must produce (checked as a substring of the
 * captured stderr), and valid texts whose trees are inspected (names,
 * affine coefficients, normalised conditions in DNF, operator precedence,
 * literal folding). Then robustness: every truncation of a valid program,
 * junk bytes and deep nesting must give an error, never a crash.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "parse.h"
#include "test.h"

static char err_buf[8192];

/* Parses `src` with stderr captured into err_buf; returns the program. */
static ast_program *parse_capture(const char *src) {
  fflush(stderr);
  FILE *tmp = tmpfile();
  int saved = dup(2);
  dup2(fileno(tmp), 2);
  ast_program *p = parse_string("t.pla", src);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t got = fread(err_buf, 1, sizeof err_buf - 1, tmp);
  err_buf[got] = 0;
  fclose(tmp);
  return p;
}

#define HEAD "program p(N, M) { in int32 A[N, M], s; out int32 B[N], o; par (0 <= i < N, 0 <= j < M) {\n"
#define TAIL "\n} }"

typedef struct {
  const char *body; /* equations between HEAD and TAIL, or a whole text if it starts with '!' */
  const char *err;  /* expected substring of the error */
} parse_error_case;

static const parse_error_case error_cases[] = {
    {"x[i,j] = A[i,j] B[i] = 1;", "2:17: error: expected ';' after equation, found 'B'"},
    {"x[i,j] = A[i,j] + ;", "expected an operand (a name, an integer or '('), found ';'"},
    {"x[i,j] = (A[i,j] + 1;", "expected ')' to close the parenthesis, found ';'"},
    {"x[i,j] = A[i*j, j];", "non-affine expression: 'i' times 'j'"},
    {"x[i,j] = A[i/2, j];", "'/' is not allowed in an affine expression"},
    {"x[i,j] = A[i, j] + N;", "parameter 'N' may not appear in a data expression"},
    {"x[i,j] = i;", "index 'i' may not appear in a data expression"},
    {"x[i,j] = B[i];", "rule 1 (single assignment): output 'B' is read"},
    {"x[i,j] = o;", "rule 1 (single assignment): output 'o' is read"},
    {"A[i,j] = 1;", "rule 1 (single assignment): input 'A' is written"},
    {"s = 1;", "rule 1 (single assignment): input 's' is written"},
    {"B[i] = y[i,j];", "2:8: error: rule 2 (every use defined): internal variable 'y' is used but no equation defines it"},
    {"x[j,i] = 1;", "internal variable 'x' must be defined as 'x[i,j]'"},
    {"x[i] = 1;", "internal variable 'x' must be defined as 'x[i,j]'"},
    {"x = 1;", "internal variable 'x' must be defined as 'x[i,j]'"},
    {"x[i,j] = 1; B[i] = x[i];", "internal variable 'x' is used with 1 index"},
    {"x[i,j] = 1; B[i] = x[i, 2*j];", "index 2 of internal variable 'x' is '2*j'"},
    {"x[i,j] = 1; B[i] = x[i, j+N];", "index 2 of internal variable 'x' is 'j+N'"},
    {"x[i,j] = 1; B[i] = x[j, i];", "index 1 of internal variable 'x' is 'j'"},
    {"x[i,j] = 1; B[i] = x;", "internal variable 'x' needs its indices"},
    {"x[i,j] = A[i];", "input 'A' has 2 dimensions but is used with 1 index"},
    {"x[i,j] = A;", "input 'A' has 2 dimensions but is used with 0 indices"},
    {"x[i,j] = s[0];", "input 's' is a scalar: use it without indices"},
    {"B[i,j] = 1;", "output 'B' has 1 dimension but is defined with 2 indices"},
    {"o[i] = 1;", "output 'o' is a scalar: define it without indices"},
    {"N = 1;", "cannot define parameter 'N'"},
    {"i = 1;", "cannot define index 'i'"},
    {"x[i,j] = foo(1);", "unknown function 'foo'"},
    {"x[i,j] = min(1);", "expected ',' between the two arguments, found ')'"},
    {"x[i,j] = abs(1, 2);", "expected ')' after the argument of abs, found ','"},
    {"x[i,j] = zz;", "unknown name 'zz'"},
    {"x[i,j] = 1 ? 2;", "expected ':' in 'c ? a : b', found ';'"},
    {"x[i,j] = 4294967296;", "integer literal '4294967296' does not fit in 32 bits"},
    {"x[i,j] = -2147483649;", "integer literal '-2147483649' does not fit in 32 bits"},
    {"x[i,j] = 1 if (i);", "expected a comparison (< <= == != >= >) after 'i', found ')'"},
    {"x[i,j] = 1 if (i == 0;", "expected ')' to close the condition, found ';'"},
    {"x[i,j] = 1 if (x == 0);", "'x' is an internal variable: condition expressions may only name"},
    {"x[i,j] = 1 if (k == 0);", "unknown name 'k' in an affine expression"},
    {"x[i,j] = 1 if (i * j == 0);", "non-affine expression: 'i' times 'j'"},
    {"x[i,j] = 1 if i == 0;", "expected '(' after 'if', found 'i'"},
    {"x[i,j] 1;", "expected '=' after the left-hand side of the equation, found '1'"},
    {"x[i,j] = 1;;", "expected an equation (NAME[...] = ...) or '}', found ';'"},
    {"x[i,j] = 1 /* oops;", "unterminated comment"},
    {"!program (N) {", "expected the program's name after 'program', found '('"},
    {"!prog p(N) {", "expected 'program' at the start of the file, found 'prog'"},
    {"!program p(N, N) {", "'N' is declared twice: it is already a parameter"},
    {"!program p(N) { in int32 A[N], A; }", "'A' is declared twice: it is already an input"},
    {"!program p(N) { in int32 N; }", "'N' is declared twice: it is already a parameter"},
    {"!program p(N) { in A[N]; }", "expected 'int32' after 'in', found 'A'"},
    {"!program p(N) { in int32 A[i]; }", "'i' is not a parameter: an array extent may only name parameters and constants"},
    {"!program p(N) { in int32 A[N]  out int32 B; }", "expected ';' after the declaration, found 'out'"},
    {"!program p(N) { x[i] = 1; }", "expected a declaration ('in' or 'out') or 'par', found 'x'"},
    {"!program p(N) { par (0 <= i != N) { } }", "'!=' is not allowed in par"},
    {"!program p(N) { par (N >= 2) { } }", "par names no index"},
    {"!program p(N) { par (0 <= i < N { } }", "expected ')' after the constraints of par, found '{'"},
    {"!program p(N) { par (0 <= i < N) { x[i] = 1; }", "expected '}' to close the program, found end of file"},
    {"!program p(N) { par (0 <= i < N) { x[i] = 1;", "expected '}' to close par, found end of file"},
    {"!program p(N) { par (0 <= i < N) { x[i] = 1; } } junk", "expected end of file after the program, found 'junk'"},
    {"!program p(A,B,C,D,E,F,G,H,I) {", "too many parameters: at most 8"},
    {"!program p(N) { in int32 s; par (0 <= i < N, s < 3) { } }", "'s' is an input: par expressions may only name"},
    {"!", "expected 'program' at the start of the file, found end of file"},
    {"x[i,j] = A[i * 2147483647 * 2147483647 * 2147483647, j];", "affine expression too large"},
    {"x[i,j] = A[i + 65536 * 65536 * 65536, j];", "affine expression too large"},
};

static void test_errors(void) {
  for (size_t c = 0; c < sizeof error_cases / sizeof error_cases[0]; c++) {
    const parse_error_case *k = &error_cases[c];
    char src[1024];
    if (k->body[0] == '!')
      snprintf(src, sizeof src, "%s", k->body + 1);
    else
      snprintf(src, sizeof src, HEAD "%s" TAIL, k->body);
    ast_program *p = parse_capture(src);
    int ok = !p && strstr(err_buf, k->err) != NULL;
    TEST_CHECK(ok, "error case %zu: %s", c, k->err);
    if (!ok) printf("#   got: %s", err_buf);
    ast_program_free(p);
  }
}

/* Returns 1 when aff has exactly the given index/param/const coefficients
 * (first two indices, first two params). */
static int aff_is(const ast_aff *a, int64_t i0, int64_t i1, int64_t p0, int64_t p1, int64_t k) {
  return a->index[0] == i0 && a->index[1] == i1 && a->param[0] == p0 && a->param[1] == p1 && a->konst == k;
}

static const char *bits_src =
    "// bits[i] = (v >> i) & 1 for 0 <= i < N\n"
    "program bitextract(N) {\n"
    "  in  int32 v;                 // a scalar input\n"
    "  out int32 bits[N];\n"
    "  par (0 <= i < N) {\n"
    "    x[i]    = v        if (i == 0);\n"
    "    x[i]    = y[i-1]   if (i >= 1);\n"
    "    y[i]    = x[i] >> 1;\n"
    "    bits[i] = x[i] & 1;\n"
    "  }\n"
    "}\n";

static void test_bitextract(void) {
  ast_program *p = parse_capture(bits_src);
  TEST_CHECK(p != NULL, "bitextract parses");
  if (!p) return;
  TEST_CHECK(!strcmp(p->name, "bitextract") && p->nparams == 1 && !strcmp(p->param[0], "N"), "name and parameter");
  TEST_CHECK(p->ndims == 1 && !strcmp(p->index[0], "i"), "one index i");
  TEST_CHECK(p->space.n == 2 && p->param_space.n == 0, "space has 2 constraints");
  if (p->space.n == 2) {
    TEST_CHECK(aff_is(&p->space.c[0].aff, 1, 0, 0, 0, 0) && !p->space.c[0].is_eq, "0 <= i is i >= 0");
    TEST_CHECK(aff_is(&p->space.c[1].aff, -1, 0, 1, 0, -1), "i < N is N - i - 1 >= 0");
  }
  TEST_CHECK(p->narrays == 2 && p->arrays[0].kind == AST_ARRAY_IN && p->arrays[0].ndims == 0 &&
                 p->arrays[1].kind == AST_ARRAY_OUT && p->arrays[1].ndims == 1 &&
                 aff_is(&p->arrays[1].extent[0], 0, 0, 1, 0, 0),
             "arrays v (scalar input) and bits[N] (output)");
  TEST_CHECK(p->nvars == 2 && !strcmp(p->vars[0].name, "x") && !strcmp(p->vars[1].name, "y"), "variables x, y");
  TEST_CHECK(p->vars[1].loc.line == 8, "y's location is its definition (line 8), got %d", p->vars[1].loc.line);
  TEST_CHECK(p->neqs == 4, "4 equations");
  if (p->neqs == 4) {
    const ast_eq *e = p->eqs;
    TEST_CHECK(!e[0].is_out && e[0].var == 0 && e[0].rhs->kind == AST_EXPR_IN && e[0].rhs->array == 0,
               "S1: x = v");
    TEST_CHECK(e[0].cond.n == 1 && e[0].cond.conj[0].n == 1 && e[0].cond.conj[0].c[0].is_eq &&
                   aff_is(&e[0].cond.conj[0].c[0].aff, 1, 0, 0, 0, 0),
               "S1 condition i == 0");
    TEST_CHECK(e[1].rhs->kind == AST_EXPR_VAR && e[1].rhs->var == 1 && e[1].rhs->off[0] == -1, "S2 reads y[i-1]");
    TEST_CHECK(e[1].cond.n == 1 && aff_is(&e[1].cond.conj[0].c[0].aff, 1, 0, 0, 0, -1), "S2 condition i - 1 >= 0");
    TEST_CHECK(e[1].cond_loc.line == 7 && e[1].cond_loc.col == 24, "S2 cond_loc at 'if' (7:24), got %d:%d",
               e[1].cond_loc.line, e[1].cond_loc.col);
    TEST_CHECK(e[2].rhs->kind == AST_EXPR_OP && e[2].rhs->op == AST_OP_SHR && e[2].rhs->arg[1]->value == 1,
               "S3: x >> 1");
    TEST_CHECK(e[2].cond.n == 1 && e[2].cond.conj[0].n == 0, "S3 has no condition: one empty conjunction");
    TEST_CHECK(e[3].is_out && e[3].array == 1 && aff_is(&e[3].idx[0], 1, 0, 0, 0, 0) &&
                   e[3].rhs->op == AST_OP_AND,
               "S4: bits[i] = x & 1");
    TEST_CHECK(e[3].loc.line == 9 && e[3].loc.col == 5, "S4 at 9:5");
  }
  ast_program_free(p);
}

/* Returns the right-hand side of the single equation of `body`, or NULL;
 * the program is stored in *pp for freeing. */
static const ast_expr *rhs_of(const char *rhs, ast_program **pp) {
  char src[1024];
  snprintf(src, sizeof src, HEAD "x[i,j] = %s;" TAIL, rhs);
  *pp = parse_capture(src);
  if (!*pp) printf("#   %s", err_buf);
  return *pp && (*pp)->neqs == 1 ? (*pp)->eqs[0].rhs : NULL;
}

/* Returns 1 when `e` is an operation `op` on `n` operands. */
static int is_op(const ast_expr *e, ast_op op, int n) {
  return e && e->kind == AST_EXPR_OP && e->op == op && e->nargs == n;
}

static void test_expressions(void) {
  ast_program *p;
  const ast_expr *e;
  e = rhs_of("s + A[i,j] * 2", &p);
  TEST_CHECK(is_op(e, AST_OP_ADD, 2) && is_op(e->arg[1], AST_OP_MUL, 2), "* binds tighter than +");
  ast_program_free(p);
  e = rhs_of("s - 1 - 2", &p);
  TEST_CHECK(is_op(e, AST_OP_SUB, 2) && is_op(e->arg[0], AST_OP_SUB, 2) && e->arg[1]->value == 2,
             "- is left-associative");
  ast_program_free(p);
  e = rhs_of("s << 1 + 2", &p);
  TEST_CHECK(is_op(e, AST_OP_SHL, 2) && is_op(e->arg[1], AST_OP_ADD, 2), "+ binds tighter than <<");
  ast_program_free(p);
  e = rhs_of("s >>> 3 < 4", &p);
  TEST_CHECK(is_op(e, AST_OP_LT, 2) && is_op(e->arg[0], AST_OP_SHRU, 2), ">>> binds tighter than <");
  ast_program_free(p);
  e = rhs_of("s < 1 == 2 > s", &p);
  TEST_CHECK(is_op(e, AST_OP_EQ, 2) && is_op(e->arg[0], AST_OP_LT, 2) && is_op(e->arg[1], AST_OP_GT, 2),
             "< binds tighter than ==");
  ast_program_free(p);
  e = rhs_of("s | 1 ^ 2 & 3 != 4", &p);
  TEST_CHECK(is_op(e, AST_OP_OR, 2) && is_op(e->arg[1], AST_OP_XOR, 2) && is_op(e->arg[1]->arg[1], AST_OP_AND, 2) &&
                 is_op(e->arg[1]->arg[1]->arg[1], AST_OP_NE, 2),
             "precedence of | ^ & !=");
  ast_program_free(p);
  e = rhs_of("s ? 1 : s ? 2 : 3", &p);
  TEST_CHECK(is_op(e, AST_OP_SEL, 3) && e->arg[1]->value == 1 && is_op(e->arg[2], AST_OP_SEL, 3),
             "?: is right-associative");
  ast_program_free(p);
  e = rhs_of("s | 1 ? 2 : 3", &p);
  TEST_CHECK(is_op(e, AST_OP_SEL, 3) && is_op(e->arg[0], AST_OP_OR, 2), "| binds tighter than ?:");
  ast_program_free(p);
  e = rhs_of("-s * ~s", &p);
  TEST_CHECK(is_op(e, AST_OP_MUL, 2) && is_op(e->arg[0], AST_OP_NEG, 1) && is_op(e->arg[1], AST_OP_NOT, 1),
             "unary binds tighter than *");
  ast_program_free(p);
  e = rhs_of("!!s", &p);
  TEST_CHECK(is_op(e, AST_OP_LNOT, 1) && is_op(e->arg[0], AST_OP_LNOT, 1), "!! nests");
  ast_program_free(p);
  e = rhs_of("(s + 1) * 2", &p);
  TEST_CHECK(is_op(e, AST_OP_MUL, 2) && is_op(e->arg[0], AST_OP_ADD, 2), "parentheses");
  ast_program_free(p);
  e = rhs_of("min(s, max(1, abs(-s)))", &p);
  TEST_CHECK(is_op(e, AST_OP_MIN, 2) && is_op(e->arg[1], AST_OP_MAX, 2) && is_op(e->arg[1]->arg[1], AST_OP_ABS, 1) &&
                 is_op(e->arg[1]->arg[1]->arg[0], AST_OP_NEG, 1),
             "calls min max abs");
  ast_program_free(p);
  e = rhs_of("-5", &p);
  TEST_CHECK(e && e->kind == AST_EXPR_CONST && e->value == -5, "-5 folds into a literal");
  ast_program_free(p);
  e = rhs_of("-2147483648", &p);
  TEST_CHECK(e && e->kind == AST_EXPR_CONST && e->value == INT32_MIN, "-2147483648 is INT_MIN");
  ast_program_free(p);
  e = rhs_of("4294967295", &p);
  TEST_CHECK(e && e->kind == AST_EXPR_CONST && e->value == -1, "4294967295 is -1");
  ast_program_free(p);
  e = rhs_of("0xFFFFFFFF", &p);
  TEST_CHECK(e && e->kind == AST_EXPR_CONST && e->value == -1, "0xFFFFFFFF is -1");
  ast_program_free(p);
  e = rhs_of("0x80000000", &p);
  TEST_CHECK(e && e->kind == AST_EXPR_CONST && e->value == INT32_MIN, "0x80000000 is INT_MIN");
  ast_program_free(p);
  e = rhs_of("s - -1", &p);
  TEST_CHECK(is_op(e, AST_OP_SUB, 2) && e->arg[1]->kind == AST_EXPR_CONST && e->arg[1]->value == -1,
             "s - -1 folds the second -");
  ast_program_free(p);
  e = rhs_of("A[2*i + N - 1, (j - M) * -3]", &p);
  TEST_CHECK(e && e->kind == AST_EXPR_IN && aff_is(&e->idx[0], 2, 0, 1, 0, -1) && aff_is(&e->idx[1], 0, -3, 0, 3, 0),
             "affine input indices folded");
  ast_program_free(p);
  p = parse_capture(HEAD "x[i,j] = y[i-1, j+2];" TAIL);
  TEST_CHECK(!p && strstr(err_buf, "'y' is used but no equation defines it"),
             "use of an undefined internal variable is an error");
  ast_program_free(p);
}

/* Parses one equation with condition `cond`; returns its condition. */
static const ast_cond *cond_of(const char *cond, ast_program **pp) {
  char src[1024];
  snprintf(src, sizeof src, HEAD "x[i,j] = 1 if (%s);" TAIL, cond);
  *pp = parse_capture(src);
  if (!*pp) printf("#   %s", err_buf);
  return *pp && (*pp)->neqs == 1 ? &(*pp)->eqs[0].cond : NULL;
}

static void test_conditions(void) {
  ast_program *p;
  const ast_cond *c;
  c = cond_of("i != 0", &p);
  TEST_CHECK(c && c->n == 2 && c->conj[0].n == 1 && c->conj[1].n == 1 &&
                 aff_is(&c->conj[0].c[0].aff, -1, 0, 0, 0, -1) && aff_is(&c->conj[1].c[0].aff, 1, 0, 0, 0, -1),
             "i != 0 is (-i-1 >= 0) or (i-1 >= 0)");
  ast_program_free(p);
  c = cond_of("1 <= i < N - 1", &p);
  TEST_CHECK(c && c->n == 1 && c->conj[0].n == 2 && aff_is(&c->conj[0].c[0].aff, 1, 0, 0, 0, -1) &&
                 aff_is(&c->conj[0].c[1].aff, -1, 0, 1, 0, -2),
             "chained 1 <= i < N-1");
  ast_program_free(p);
  c = cond_of("i == 0 or j == 0 and i > 2", &p);
  TEST_CHECK(c && c->n == 2 && c->conj[0].n == 1 && c->conj[1].n == 2, "and binds tighter than or");
  ast_program_free(p);
  c = cond_of("(i == 0 or i == 2) and (j == 1 or j == 3), i < N", &p);
  TEST_CHECK(c && c->n == 4 && c->conj[0].n == 3 && c->conj[3].n == 3, "and distributes over or (DNF)");
  ast_program_free(p);
  c = cond_of("(i + 1) * 2 >= j", &p);
  TEST_CHECK(c && c->n == 1 && c->conj[0].n == 1 && aff_is(&c->conj[0].c[0].aff, 2, -1, 0, 0, 2),
             "parenthesised affine expression in a condition");
  ast_program_free(p);
  c = cond_of("((i > j))", &p);
  TEST_CHECK(c && c->n == 1 && aff_is(&c->conj[0].c[0].aff, 1, -1, 0, 0, -1), "nested parenthesised condition");
  ast_program_free(p);
  c = cond_of("i == M - 1", &p);
  TEST_CHECK(c && c->conj[0].c[0].is_eq && aff_is(&c->conj[0].c[0].aff, 1, 0, 0, -1, 1), "i == M - 1");
  ast_program_free(p);
}

static void test_par(void) {
  ast_program *p = parse_capture("program t(N, M) { out int32 o[N]; par (N >= 3, 0 <= i < N, 0 <= j <= i, M == 2*N) {"
                                 " o[i] = 1 if (j == 0); } }");
  TEST_CHECK(p && p->ndims == 2 && p->param_space.n == 2 && p->space.n == 4, "param-only constraints split off");
  if (p && p->param_space.n == 2) {
    TEST_CHECK(aff_is(&p->param_space.c[0].aff, 0, 0, 1, 0, -3), "N >= 3 is N - 3 >= 0");
    TEST_CHECK(p->param_space.c[1].is_eq && aff_is(&p->param_space.c[1].aff, 0, 0, -2, 1, 0), "M == 2N");
    TEST_CHECK(aff_is(&p->space.c[3].aff, 1, -1, 0, 0, 0), "j <= i is i - j >= 0");
  }
  ast_program_free(p);
  p = parse_capture("program t() { out int32 o; par (0 <= i < 4) { o = 7 if (i == 3); } }");
  TEST_CHECK(p && p->nparams == 0 && p->eqs[0].is_out, "no parameters, scalar output");
  ast_program_free(p);
  const char *fwd = "program t(N) { out int32 o[N]; par (0 <= i < N) {"
                    " o[i] = y[i]; y[i] = 1 if (i == 0); y[i] = y[i-1] + 1 if (i > 0); } }";
  p = parse_capture(fwd);
  TEST_CHECK(p && p->nvars == 1 && p->vars[0].loc.col == (int)(strstr(fwd, "y[i] = 1") - fwd) + 1, "forward reference to y resolves, loc at definition (col %d)",
             p ? p->vars[0].loc.col : -1);
  ast_program_free(p);
}


/* The terms of the long `and` chain: 30000, but 3000 under
 * AddressSanitizer, whose realloc never resizes in place, so the chain
 * the parser builds in linear time is quadratic there (minutes). */
#if defined(__SANITIZE_ADDRESS__)
#define CHAIN_TERMS 3000
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHAIN_TERMS 3000
#endif
#endif
#ifndef CHAIN_TERMS
#define CHAIN_TERMS 30000
#endif

/* Appends n copies of c to the string s (in linear time: a strcat per
 * character was quadratic, minutes under AddressSanitizer). */
static void append_n(char *s, char c, int n) {
  size_t l = strlen(s);
  memset(s + l, c, (size_t)n);
  s[l + (size_t)n] = 0;
}
static void test_robustness(void) {
  size_t len = strlen(bits_src);
  int crashes = 0, accepted = 0;
  char *buf = malloc(len + 1);
  for (size_t n = 0; n + 1 < len; n++) { /* the last byte is a newline */
    memcpy(buf, bits_src, n);
    buf[n] = 0;
    ast_program *p = parse_capture(buf);
    if (p) accepted++;
    if (!p && !strstr(err_buf, "error:")) crashes++;
    ast_program_free(p);
  }
  free(buf);
  TEST_CHECK(crashes == 0, "every truncation gives an error message");
  TEST_CHECK(accepted == 0, "no truncation is accepted (%d were)", accepted);
  /* deep nesting */
  char *deep = malloc(200000);
  strcpy(deep, HEAD "x[i,j] = ");
  append_n(deep, '(', 50000);
  strcat(deep, "1;" TAIL);
  ast_program *p = parse_capture(deep);
  TEST_CHECK(!p && strstr(err_buf, "nested too deeply"), "50000 parentheses: nested too deeply");
  ast_program_free(p);
  strcpy(deep, HEAD "x[i,j] = ");
  append_n(deep, '-', 50000);
  strcat(deep, "s;" TAIL);
  p = parse_capture(deep);
  TEST_CHECK(!p && strstr(err_buf, "nested too deeply"), "50000 unary minus: nested too deeply");
  ast_program_free(p);
  strcpy(deep, HEAD "x[i,j] = A[");
  append_n(deep, '(', 50000);
  strcat(deep, "i, j];" TAIL);
  p = parse_capture(deep);
  TEST_CHECK(!p && strstr(err_buf, "nested too deeply"), "deep affine nesting: nested too deeply");
  ast_program_free(p);
  strcpy(deep, HEAD "x[i,j] = 1 if (");
  append_n(deep, '(', 20000);
  strcat(deep, "i > 0;" TAIL);
  p = parse_capture(deep);
  TEST_CHECK(!p && strstr(err_buf, "error:"), "deep condition nesting: an error");
  ast_program_free(p);
  /* a long chain of `and`s: one conjunction, built in linear time (it was
   * quadratic: every `and` copied the whole conjunction) */
  {
    const int nt = CHAIN_TERMS;
    size_t cap = (size_t)nt * 20 + 4096;
    char *chain = malloc(cap), *w = chain;
    w += sprintf(w, HEAD "x[i,j] = 1 if (");
    for (int k = 0; k < nt; k++) w += sprintf(w, k ? " and i >= %d" : "i >= %d", -k - 1);
    sprintf(w, ");" TAIL);
    p = parse_capture(chain);
    const ast_cond *c = p && p->neqs ? &p->eqs[0].cond : NULL;
    TEST_CHECK(c && c->n == 1 && c->conj[0].n == nt, "%d `and` terms: one conjunction of %d (%d, %d)", nt, nt,
               c ? c->n : -1, c ? c->conj[0].n : -1);
    TEST_CHECK(c && c->conj[0].n == nt && c->conj[0].c[0].aff.konst == 1 &&
                   c->conj[0].c[nt - 1].aff.konst == nt && c->conj[0].c[nt - 1].aff.index[0] == 1,
               "%d `and` terms: first i + 1 >= 0, last i + %d >= 0, in order", nt, nt);
    ast_program_free(p);
    free(chain);
  }
  /* a condition whose DNF explodes */
  strcpy(deep, HEAD "x[i,j] = 1 if (");
  for (int k = 0; k < 20; k++) strcat(deep, k ? " and i != 0" : "i != 0");
  strcat(deep, ");" TAIL);
  p = parse_capture(deep);
  TEST_CHECK(!p && strstr(err_buf, "condition too complex"), "2^20 alternatives: condition too complex");
  ast_program_free(p);
  free(deep);
  /* pseudo-random junk */
  unsigned seed = 12345;
  char junk[512];
  int junk_ok = 1;
  for (int r = 0; r < 300; r++) {
    for (int k = 0; k < 511; k++) {
      seed = seed * 1103515245u + 12345u;
      junk[k] = (char)(1 + (seed >> 16) % 255);
    }
    junk[511] = 0;
    p = parse_capture(junk);
    if (p || !strstr(err_buf, "error:")) junk_ok = 0;
    ast_program_free(p);
  }
  TEST_CHECK(junk_ok, "random junk is rejected with an error");
  /* token soup from the language's own alphabet */
  static const char *words[] = {"program", "p", "(", ")", "{", "}", "[", "]", "N", "i", "par", "in", "out", "int32",
                                ",", ";", "=", "if", "<", "0", "+", "-", "*", "?", ":", "x", "and", "or"};
  int soup_ok = 1;
  for (int r = 0; r < 500; r++) {
    junk[0] = 0;
    for (int k = 0; k < 40; k++) {
      seed = seed * 1103515245u + 12345u;
      strcat(junk, words[(seed >> 16) % (sizeof words / sizeof words[0])]);
      strcat(junk, " ");
    }
    p = parse_capture(junk);
    if (!p && !strstr(err_buf, "error:")) soup_ok = 0;
    ast_program_free(p);
  }
  TEST_CHECK(soup_ok, "token soup never fails silently");
}

int main(void) {
  test_errors();
  test_bitextract();
  test_expressions();
  test_conditions();
  test_par();
  test_robustness();
  return test_done();
}
