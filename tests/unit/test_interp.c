/* covers: docs/language.md "The iteration space", "Equations",
 *   "Conditions", "Data expressions" */
/*
 * test_interp.c: the reference interpreter (interp.h).
 *
 * 1. Every operation of the language on its edge cases, table-driven, the
 *    expected values written out by hand from docs/language.md.
 * 2. Small programs parsed from text and run, their outputs compared with
 *    plain C loops over the same inputs: the spec's bitextract and matmul,
 *    a triangular space, an equality in `par`, a space whose outer bound
 *    comes only from an inner constraint, `or` conditions, equations listed
 *    against their offset-zero dependence order, every operator in a data
 *    expression, and the instance counts.
 * 3. Runtime violations (programs the checker would reject, given straight
 *    to the interpreter): each fails with the expected message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interp.h"
#include "parse.h"
#include "spec_examples.h"
#include "test.h"

/* ------------------------------------------------------------------ */
/* 1. Operations                                                       */

typedef struct {
  ast_op op;
  int32_t a, b, c, want;
} test_op_case;

#define MIN INT32_MIN
#define MAX INT32_MAX

static const test_op_case test_op_cases[] = {
    {AST_OP_MOV, 7, 0, 0, 7},
    {AST_OP_NEG, 5, 0, 0, -5},
    {AST_OP_NEG, MIN, 0, 0, MIN},
    {AST_OP_NEG, 0, 0, 0, 0},
    {AST_OP_NOT, 0, 0, 0, -1},
    {AST_OP_NOT, MIN, 0, 0, MAX},
    {AST_OP_LNOT, 0, 0, 0, 1},
    {AST_OP_LNOT, -3, 0, 0, 0},
    {AST_OP_LNOT, MIN, 0, 0, 0},
    {AST_OP_MUL, 6, -7, 0, -42},
    {AST_OP_MUL, 65536, 65536, 0, 0},
    {AST_OP_MUL, MAX, 2, 0, -2},
    {AST_OP_MUL, MIN, -1, 0, MIN},
    {AST_OP_MUL, 100000, 100000, 0, 1410065408},
    {AST_OP_DIV, 7, 2, 0, 3},
    {AST_OP_DIV, -7, 2, 0, -3},
    {AST_OP_DIV, 7, -2, 0, -3},
    {AST_OP_DIV, -7, -2, 0, 3},
    {AST_OP_DIV, 5, 0, 0, -1},
    {AST_OP_DIV, 0, 0, 0, -1},
    {AST_OP_DIV, MIN, 0, 0, -1},
    {AST_OP_DIV, MIN, -1, 0, MIN},
    {AST_OP_DIV, MIN, 1, 0, MIN},
    {AST_OP_DIV, MIN, 2, 0, -1073741824},
    {AST_OP_MOD, 7, 2, 0, 1},
    {AST_OP_MOD, -7, 2, 0, -1},
    {AST_OP_MOD, 7, -2, 0, 1},
    {AST_OP_MOD, -7, -2, 0, -1},
    {AST_OP_MOD, 5, 0, 0, 5},
    {AST_OP_MOD, -5, 0, 0, -5},
    {AST_OP_MOD, MIN, 0, 0, MIN},
    {AST_OP_MOD, MIN, -1, 0, 0},
    {AST_OP_MOD, MIN, 3, 0, -2},
    {AST_OP_ADD, MAX, 1, 0, MIN},
    {AST_OP_ADD, MIN, -1, 0, MAX},
    {AST_OP_ADD, -3, 5, 0, 2},
    {AST_OP_SUB, MIN, 1, 0, MAX},
    {AST_OP_SUB, 0, MIN, 0, MIN},
    {AST_OP_SUB, 3, 5, 0, -2},
    {AST_OP_SHL, 1, 31, 0, MIN},
    {AST_OP_SHL, 1, 32, 0, 1},
    {AST_OP_SHL, 1, 33, 0, 2},
    {AST_OP_SHL, 3, -1, 0, MIN},
    {AST_OP_SHL, -1, 4, 0, -16},
    {AST_OP_SHL, 0x40000000, 1, 0, MIN},
    {AST_OP_SHR, -16, 2, 0, -4},
    {AST_OP_SHR, -1, 31, 0, -1},
    {AST_OP_SHR, MIN, 31, 0, -1},
    {AST_OP_SHR, MIN, 32, 0, MIN},
    {AST_OP_SHR, -7, 1, 0, -4},
    {AST_OP_SHR, 64, 3, 0, 8},
    {AST_OP_SHR, 64, 35, 0, 8},
    {AST_OP_SHR, MAX, -2, 0, 1},
    {AST_OP_SHRU, -16, 2, 0, 0x3ffffffc},
    {AST_OP_SHRU, -1, 31, 0, 1},
    {AST_OP_SHRU, MIN, 31, 0, 1},
    {AST_OP_SHRU, -1, 32, 0, -1},
    {AST_OP_SHRU, -1, 0, 0, -1},
    {AST_OP_SHRU, 64, 3, 0, 8},
    {AST_OP_LT, -1, 0, 0, 1},
    {AST_OP_LT, 0, -1, 0, 0},
    {AST_OP_LT, MIN, MAX, 0, 1},
    {AST_OP_LT, 3, 3, 0, 0},
    {AST_OP_LE, 3, 3, 0, 1},
    {AST_OP_LE, MAX, MIN, 0, 0},
    {AST_OP_GT, 0, -1, 0, 1},
    {AST_OP_GT, MIN, MAX, 0, 0},
    {AST_OP_GE, 3, 3, 0, 1},
    {AST_OP_GE, -4, 3, 0, 0},
    {AST_OP_EQ, 5, 5, 0, 1},
    {AST_OP_EQ, 5, -5, 0, 0},
    {AST_OP_NE, 5, -5, 0, 1},
    {AST_OP_NE, MIN, MIN, 0, 0},
    {AST_OP_AND, 0x0ff0, 0x00ff, 0, 0x00f0},
    {AST_OP_AND, -1, MIN, 0, MIN},
    {AST_OP_XOR, -1, 0x0f0f0f0f, 0, (int32_t)0xf0f0f0f0},
    {AST_OP_XOR, 6, 3, 0, 5},
    {AST_OP_OR, MIN, 1, 0, MIN + 1},
    {AST_OP_OR, 6, 3, 0, 7},
    {AST_OP_SEL, 1, 10, 20, 10},
    {AST_OP_SEL, 0, 10, 20, 20},
    {AST_OP_SEL, -1, 10, 20, 10},
    {AST_OP_SEL, MIN, 10, 20, 10},
    {AST_OP_MIN, -3, 2, 0, -3},
    {AST_OP_MIN, MIN, MAX, 0, MIN},
    {AST_OP_MAX, -3, 2, 0, 2},
    {AST_OP_MAX, MIN, MAX, 0, MAX},
    {AST_OP_ABS, -5, 0, 0, 5},
    {AST_OP_ABS, 5, 0, 0, 5},
    {AST_OP_ABS, 0, 0, 0, 0},
    {AST_OP_ABS, MIN, 0, 0, MIN},
    {AST_OP_ABS, MIN + 1, 0, 0, MAX},
};

/* Checks every row of the operation table. */
static void test_ops(void) {
  int n = (int)(sizeof test_op_cases / sizeof *test_op_cases);
  for (int i = 0; i < n; i++) {
    const test_op_case *t = &test_op_cases[i];
    int32_t got = interp_op_apply(t->op, t->a, t->b, t->c);
    TEST_CHECK(got == t->want, "op %s(%d, %d, %d) == %d (got %d)",
               ast_op_name(t->op), (int)t->a, (int)t->b, (int)t->c, (int)t->want,
               (int)got);
  }
}

/* ------------------------------------------------------------------ */
/* Running programs                                                    */

static char test_err[8192]; /* stderr of the last run */

/* A parsed program with its arrays, ready to run. */
typedef struct {
  ast_program *p;
  int64_t params[AST_MAX_PARAMS];
  interp_array arrays[16];
  interp_stats stats;
  int rc;
} test_prog;

/* Returns the id of the array named `name` in t's program, or -1. */
static int test_array(const test_prog *t, const char *name) {
  for (int a = 0; a < t->p->narrays; a++)
    if (!strcmp(t->p->arrays[a].name, name)) return a;
  return -1;
}

/* Returns the data of array `name` (never NULL: a dummy when missing). */
static int32_t *test_data(test_prog *t, const char *name) {
  static int32_t dummy[4096];
  int a = test_array(t, name);
  return a >= 0 && t->arrays[a].data ? t->arrays[a].data : dummy;
}

/* Returns 0 after parsing `text` and setting up its arrays for the given
 * parameter values; -1 when the text does not parse. */
static int test_load(test_prog *t, const char *text, const int64_t *params) {
  memset(t, 0, sizeof *t);
  t->p = parse_string("t.pla", text);
  if (!t->p) return -1;
  for (int i = 0; i < t->p->nparams; i++) t->params[i] = params[i];
  if (interp_arrays_init(t->p, t->params, t->arrays) != 0) {
    ast_program_free(t->p);
    t->p = NULL;
    return -1;
  }
  return 0;
}

/* Runs t's program, capturing stderr into test_err; returns its result. */
static int test_exec(test_prog *t) {
  fflush(stderr);
  FILE *tmp = tmpfile();
  int saved = dup(2);
  dup2(fileno(tmp), 2);
  t->rc = interp_program_run(t->p, t->params, t->arrays, &t->stats);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t len = fread(test_err, 1, sizeof test_err - 1, tmp);
  test_err[len] = '\0';
  fclose(tmp);
  return t->rc;
}

/* Frees t. */
static void test_free(test_prog *t) {
  if (!t->p) return;
  interp_arrays_free(t->p, t->arrays);
  ast_program_free(t->p);
  t->p = NULL;
}

/* A small deterministic generator for test inputs. */
static uint32_t test_rand_state = 12345;
static int32_t test_rand(int32_t lo, int32_t hi) {
  test_rand_state = test_rand_state * 1103515245u + 12345u;
  int64_t span = (int64_t)hi - lo + 1;
  return (int32_t)(lo + (int64_t)((test_rand_state >> 8) % (uint64_t)span));
}

/* ------------------------------------------------------------------ */
/* 2. Programs with known results                                      */

static const char *const test_bitextract =
    SPEC_BITEXTRACT_SRC;

/* bitextract for several values and N: bits[i] = (v >> i) & 1. */
static void test_prog_bitextract(void) {
  const int32_t values[] = {0, 1, 0x5a5a5a5a, -1, INT32_MIN, 12345};
  for (int k = 0; k < 6; k++) {
    int64_t params[] = {k == 4 ? 32 : 8 + k};
    test_prog t;
    if (!TEST_CHECK(test_load(&t, test_bitextract, params) == 0, "bitextract parses")) return;
    test_data(&t, "v")[0] = values[k];
    int ok = test_exec(&t) == 0;
    int32_t *bits = test_data(&t, "bits");
    for (int i = 0; i < params[0]; i++) {
      int32_t want = (int32_t)(((uint32_t)values[k] >> i) & 1u); /* i <= 31 */
      if (bits[i] != want) ok = 0;
    }
    TEST_CHECK(ok, "bitextract v=%d N=%d: bits[i] == (v >> i) & 1", (int)values[k],
               (int)params[0]);
    /* x, y and bits each once per iteration */
    TEST_CHECK(t.stats.instances == (uint64_t)(3 * params[0]) &&
                   t.stats.iterations == (uint64_t)params[0],
               "bitextract N=%d: %d instances over %d iterations (got %llu, %llu)",
               (int)params[0], (int)(3 * params[0]), (int)params[0],
               (unsigned long long)t.stats.instances,
               (unsigned long long)t.stats.iterations);
    test_free(&t);
  }
}

static const char *const test_matmul =
    SPEC_MATMUL_SRC;

/* matmul for a few shapes, against the triple loop (wrapping products). */
static void test_prog_matmul(void) {
  const int shapes[][3] = {{1, 1, 1}, {3, 4, 5}, {7, 2, 9}, {5, 5, 1}};
  for (int s = 0; s < 4; s++) {
    int64_t params[] = {shapes[s][0], shapes[s][1], shapes[s][2]};
    int N = shapes[s][0], M = shapes[s][1], K = shapes[s][2];
    test_prog t;
    if (!TEST_CHECK(test_load(&t, test_matmul, params) == 0, "matmul parses")) return;
    int32_t *A = test_data(&t, "A"), *B = test_data(&t, "B");
    /* large values so that products and sums wrap */
    for (int i = 0; i < N * K; i++) A[i] = test_rand(-2000000000, 2000000000);
    for (int i = 0; i < K * M; i++) B[i] = test_rand(-100000, 100000);
    int ok = test_exec(&t) == 0;
    int32_t *C = test_data(&t, "C");
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++) {
        uint32_t sum = 0;
        for (int k = 0; k < K; k++) sum += (uint32_t)A[i * K + k] * (uint32_t)B[k * M + j];
        if ((uint32_t)C[i * M + j] != sum) ok = 0;
      }
    TEST_CHECK(ok, "matmul %dx%dx%d equals the triple loop (wrapping)", N, M, K);
    uint64_t want = 3ull * N * M * K + (uint64_t)N * M;
    TEST_CHECK(t.stats.instances == want, "matmul %dx%dx%d: %llu instances (got %llu)",
               N, M, K, (unsigned long long)want, (unsigned long long)t.stats.instances);
    test_free(&t);
  }
}

/* A triangular space (0 <= j <= i < N): row sums of the lower triangle. */
static void test_prog_triangle(void) {
  const char *text =
      "program tri(N) {\n"
      "  in int32 L[N, N];\n"
      "  out int32 y[N];\n"
      "  par (0 <= i < N, 0 <= j <= i) {\n"
      "    s[i,j] = L[i,j]            if (j == 0);\n"
      "    s[i,j] = s[i,j-1] + L[i,j] if (j >= 1);\n"
      "    y[i]   = s[i,j]            if (j == i);\n"
      "  }\n"
      "}\n";
  int64_t params[] = {6};
  test_prog t;
  if (!TEST_CHECK(test_load(&t, text, params) == 0, "triangle parses")) return;
  int32_t *L = test_data(&t, "L");
  for (int i = 0; i < 36; i++) L[i] = test_rand(-50, 50);
  int ok = test_exec(&t) == 0;
  int32_t *y = test_data(&t, "y");
  for (int i = 0; i < 6; i++) {
    int32_t sum = 0;
    for (int j = 0; j <= i; j++) sum += L[i * 6 + j];
    if (y[i] != sum) ok = 0;
  }
  TEST_CHECK(ok, "triangle: row sums of the lower triangle");
  TEST_CHECK(t.stats.iterations == 21, "triangle N=6: 21 iterations visited (got %llu)",
             (unsigned long long)t.stats.iterations);
  test_free(&t);
}

/* The outer index bounded only through an inner one (0 <= i <= j < N, the
 * upper triangle) and an equality in `par` (a diagonal). */
static void test_prog_bounds(void) {
  const char *upper =
      "program up(N) {\n"
      "  in int32 U[N, N];\n"
      "  out int32 col[N];\n"
      "  par (0 <= i, i <= j, j < N) {\n"
      "    s[i,j] = U[i,j]            if (i == 0);\n"
      "    s[i,j] = s[i-1,j] + U[i,j] if (i >= 1);\n"
      "    col[j] = s[i,j]            if (i == j);\n"
      "  }\n"
      "}\n";
  int64_t params[] = {5};
  test_prog t;
  if (TEST_CHECK(test_load(&t, upper, params) == 0, "upper triangle parses")) {
    int32_t *U = test_data(&t, "U");
    for (int i = 0; i < 25; i++) U[i] = test_rand(-50, 50);
    int ok = test_exec(&t) == 0;
    int32_t *col = test_data(&t, "col");
    for (int j = 0; j < 5; j++) {
      int32_t sum = 0;
      for (int i = 0; i <= j; i++) sum += U[i * 5 + j];
      if (col[j] != sum) ok = 0;
    }
    TEST_CHECK(ok && t.stats.iterations == 15,
               "upper triangle: column sums, 15 iterations (got %llu) %s",
               (unsigned long long)t.stats.iterations, test_err);
    test_free(&t);
  }
  const char *diag =
      "program dg(N) {\n"
      "  in int32 A[N, N];\n"
      "  out int32 d[N];\n"
      "  par (0 <= i < N, 0 <= j < N, 2 * j == 2 * i) {\n"
      "    d[i] = A[i,j] * 3;\n"
      "  }\n"
      "}\n";
  if (TEST_CHECK(test_load(&t, diag, params) == 0, "diagonal space parses")) {
    int32_t *A = test_data(&t, "A");
    for (int i = 0; i < 25; i++) A[i] = i;
    int ok = test_exec(&t) == 0;
    int32_t *d = test_data(&t, "d");
    for (int i = 0; i < 5; i++)
      if (d[i] != 3 * (i * 5 + i)) ok = 0;
    TEST_CHECK(ok && t.stats.iterations == 5,
               "equality in par: the diagonal, 5 iterations (got %llu)",
               (unsigned long long)t.stats.iterations);
    test_free(&t);
  }
}

/* Skewed bounds with coefficients and negative indices: the points visited
 * are exactly those of a brute-force count over the box. */
static void test_prog_skewed(void) {
  const char *text =
      "program sk(N) {\n"
      "  out int32 r;\n"
      "  par (-N <= i < N, 0 <= j <= N, 2*j >= i, 3*j <= 2*i + 2*N,\n"
      "       -N <= k <= N, 3*k == i + 2*j) {\n"
      "    r = 7 if (i == 0 and j == 0);\n"
      "  }\n"
      "}\n";
  for (int64_t n = 1; n <= 7; n += 3) {
    int64_t params[] = {n};
    test_prog t;
    if (!TEST_CHECK(test_load(&t, text, params) == 0, "skewed space parses")) return;
    int ok = test_exec(&t) == 0 && test_data(&t, "r")[0] == 7;
    uint64_t want = 0;
    for (int64_t i = -n; i < n; i++)
      for (int64_t j = 0; j <= n; j++)
        for (int64_t k = -n; k <= n; k++)
          if (2 * j >= i && 3 * j <= 2 * i + 2 * n && 3 * k == i + 2 * j) want++;
    TEST_CHECK(ok && t.stats.iterations == want,
               "skewed space N=%d: %llu points visited (got %llu)", (int)n,
               (unsigned long long)want, (unsigned long long)t.stats.iterations);
    test_free(&t);
  }
}

/* `or` conditions, equations listed before what they depend on, every
 * operator of the language in data expressions, a scalar output. */
static void test_prog_exprs(void) {
  const char *text =
      "program ex(N) {\n"
      "  in int32 a[N], b[N];\n"
      "  out int32 r[N], e[N], total;\n"
      "  par (0 <= i < N) {\n"
      "    r[i] = z[i] + 1;\n"                              /* uses z, defined below */
      "    z[i] = w[i] * 2;\n"
      "    w[i] = -a[i] + (~b[i]) + !a[i] - a[i] * b[i] + a[i] / b[i] + a[i] % b[i]\n"
      "           + (a[i] << b[i]) + (a[i] >> b[i]) + (a[i] >>> b[i])\n"
      "           + (a[i] < b[i]) + (a[i] <= b[i]) + (a[i] > b[i]) + (a[i] >= b[i])\n"
      "           + (a[i] == b[i]) + (a[i] != b[i]) + (a[i] & b[i]) + (a[i] ^ b[i])\n"
      "           + (a[i] | b[i]) + (a[i] ? b[i] : 7) + min(a[i], b[i])\n"
      "           + max(a[i], b[i]) + abs(a[i]);\n"
      "    e[i] = 1 if (i == 0 or i == N-1, i >= 0);\n"
      "    e[i] = 0 if (i >= 1 and i <= N-2);\n"
      "    t[i] = a[i] if (i == 0);\n"
      "    t[i] = t[i-1] + a[i] if (i >= 1);\n"
      "    total = t[i] if (i == N-1);\n"
      "  }\n"
      "}\n";
  int64_t params[] = {40};
  test_prog t;
  if (!TEST_CHECK(test_load(&t, text, params) == 0, "expression program parses")) return;
  int32_t *a = test_data(&t, "a"), *b = test_data(&t, "b");
  const int32_t edge[] = {0, 1, -1, INT32_MIN, INT32_MAX, 31, 32, 33};
  for (int i = 0; i < 40; i++) {
    a[i] = i < 8 ? edge[i] : test_rand(-3000, 3000);
    b[i] = i < 8 ? edge[7 - i] : (i % 5 == 0 ? 0 : test_rand(-40, 40));
  }
  int ok = test_exec(&t) == 0;
  int32_t *r = test_data(&t, "r"), *e = test_data(&t, "e"), *total = test_data(&t, "total");
  uint32_t sum = 0;
  for (int i = 0; i < 40; i++) {
    int32_t x = a[i], y = b[i];
    ast_op ops[] = {AST_OP_DIV, AST_OP_MOD, AST_OP_SHL, AST_OP_SHR, AST_OP_SHRU};
    uint32_t w = (uint32_t)interp_op_apply(AST_OP_NEG, x, 0, 0) + ~(uint32_t)y + (x == 0) -
                 (uint32_t)x * (uint32_t)y;
    for (int k = 0; k < 5; k++) w += (uint32_t)interp_op_apply(ops[k], x, y, 0);
    w += (uint32_t)((x < y) + (x <= y) + (x > y) + (x >= y) + (x == y) + (x != y));
    w += ((uint32_t)x & (uint32_t)y) + ((uint32_t)x ^ (uint32_t)y) + ((uint32_t)x | (uint32_t)y);
    w += (uint32_t)(x ? y : 7) + (uint32_t)(x < y ? x : y) + (uint32_t)(x > y ? x : y);
    w += (uint32_t)interp_op_apply(AST_OP_ABS, x, 0, 0);
    uint32_t want = w * 2u + 1u;
    if ((uint32_t)r[i] != want) ok = 0;
    if (e[i] != (i == 0 || i == 39)) ok = 0;
    sum += (uint32_t)x;
  }
  TEST_CHECK(ok, "every operator, or-conditions, reverse-listed equations %s", test_err);
  TEST_CHECK((uint32_t)total[0] == sum, "scalar output: the running total");
  test_free(&t);
}

/* ------------------------------------------------------------------ */
/* 3. Runtime violations                                               */

/* Runs `text` (one parameter N) and checks that it fails with `want` in
 * the message. */
static void test_violation(const char *name, const char *text, int64_t n,
                           const char *want) {
  int64_t params[] = {n};
  test_prog t;
  if (!TEST_CHECK(test_load(&t, text, params) == 0, "%s: parses", name)) return;
  for (int a = 0; a < t.p->narrays; a++)
    for (size_t i = 0; i < t.arrays[a].n; i++) t.arrays[a].data[i] = (int32_t)i;
  int rc = test_exec(&t);
  TEST_CHECK(rc == -1 && strstr(test_err, want), "%s: fails with '%s'", name, want);
  if (!strstr(test_err, want)) {
    for (char *s = strtok(test_err, "\n"); s; s = strtok(NULL, "\n")) printf("#   %s\n", s);
  }
  test_free(&t);
}

static void test_violations(void) {
  test_violation("read before the space",
                 "program p(N) { in int32 a[N]; out int32 r[N];\n"
                 "  par (0 <= i < N) {\n"
                 "    x[i] = x[i-1] + a[i];\n"
                 "    r[i] = x[i];\n"
                 "  } }\n",
                 4, "t.pla:3:12: error: reads x[-1], which is outside the iteration space");
  test_violation("read of an instance never defined",
                 "program p(N) { in int32 a[N]; out int32 r[N];\n"
                 "  par (0 <= i < N) {\n"
                 "    x[i] = a[i] if (i >= 1);\n"
                 "    r[i] = x[i];\n"
                 "  } }\n",
                 4, "reads x[0], which no equation has defined");
  test_violation("iteration in the note",
                 "program p(N) { in int32 a[N]; out int32 r[N];\n"
                 "  par (0 <= i < N) {\n"
                 "    x[i] = a[i] if (i != 2);\n"
                 "    r[i] = x[i];\n"
                 "  } }\n",
                 4, "note: at iteration (i=2) with N=4");
  test_violation("read of a later instance",
                 "program p(N) { in int32 a[N]; out int32 r[N];\n"
                 "  par (0 <= i < N) {\n"
                 "    x[i] = a[i];\n"
                 "    r[i] = x[i+1] if (i < N-1);\n"
                 "    r[i] = 0 if (i == N-1);\n"
                 "  } }\n",
                 4, "reads x[1], which no equation has defined at or before");
  test_violation("input read out of extents",
                 "program p(N) { in int32 a[N]; out int32 r[N];\n"
                 "  par (0 <= i < N) {\n"
                 "    r[i] = a[i+1];\n"
                 "  } }\n",
                 3, "reads a[3], outside the extents [3] of 'a'");
  test_violation("output written out of extents",
                 "program p(N) { in int32 a[N]; out int32 r[N];\n"
                 "  par (0 <= i < N) {\n"
                 "    r[i-1] = a[i];\n"
                 "  } }\n",
                 3, "t.pla:3:5: error: writes r[-1], outside the extents [3] of 'r'");
  test_violation("output written twice",
                 "program p(N) { in int32 a[N]; out int32 r[N];\n"
                 "  par (0 <= i < N, 0 <= j < 2) {\n"
                 "    r[i] = a[i];\n"
                 "  } }\n",
                 3, "writes output element r[0] a second time");
  test_violation("output never written",
                 "program p(N) { in int32 a[N]; out int32 r[N];\n"
                 "  par (0 <= i < N) {\n"
                 "    r[i] = a[i] if (i >= 2);\n"
                 "  } }\n",
                 5, "output element r[0] is never written (rule 5); 2 of 5 elements");
  test_violation("variable defined twice",
                 "program p(N) { in int32 a[N]; out int32 r[N];\n"
                 "  par (0 <= i < N) {\n"
                 "    x[i] = a[i] if (i <= 2);\n"
                 "    x[i] = 0 if (i >= 2);\n"
                 "    r[i] = x[i];\n"
                 "  } }\n",
                 4, "t.pla:4:5: error: defines x[2] a second time");
  test_violation("offset-zero cycle",
                 "program p(N) { in int32 a[N]; out int32 r[N];\n"
                 "  par (0 <= i < N) {\n"
                 "    x[i] = y[i] + 1;\n"
                 "    y[i] = x[i];\n"
                 "    r[i] = x[i];\n"
                 "  } }\n",
                 4, "form a cycle");
}

/* Negative extents are refused before the run. */
static void test_extents(void) {
  const char *text = "program p(N) { in int32 a[N-3]; out int32 r[N];\n"
                     "  par (0 <= i < N) { r[i] = 0; } }\n";
  ast_program *p = parse_string("t.pla", text);
  if (!TEST_CHECK(p != NULL, "extent program parses")) return;
  int64_t params[] = {2};
  interp_array arrays[4];
  fflush(stderr);
  FILE *tmp = tmpfile();
  int saved = dup(2);
  dup2(fileno(tmp), 2);
  int rc = interp_arrays_init(p, params, arrays);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t len = fread(test_err, 1, sizeof test_err - 1, tmp);
  test_err[len] = '\0';
  fclose(tmp);
  TEST_CHECK(rc == -1 && strstr(test_err, "extent 1 of array 'a' is -1 (negative) for N=2"),
             "negative extent refused with its value");
  ast_program_free(p);
}

/* interp_array_index_of: elements of a box (the engines' order) mapped
 * onto the declared extents, table-driven. */
static void test_index_of(void) {
  interp_array r2 = {2, {3, 4}, 12, NULL}, r0 = {0, {0}, 1, NULL};
  static const struct {
    int two;             /* 1: r2 (3 x 4), 0: the scalar r0 */
    int nd;
    int64_t box[2], lin, want;
  } cases[] = {
      {1, 2, {3, 4}, 5, 5},    /* same extents: the same index */
      {1, 2, {3, 5}, 5, 4},    /* box (3 x 5): (1, 0) -> 1 * 4 + 0 */
      {1, 2, {3, 5}, 4, -1},   /* (0, 4): past the declared 4 columns */
      {1, 2, {2, 2}, 3, 5},    /* box (2 x 2): (1, 1) -> 5 */
      {1, 2, {3, 4}, 12, -1},  /* past the box */
      {1, 1, {12, 0}, 3, -1},  /* another rank */
      {1, 2, {0, 4}, 2, 2},    /* an extent 0 counts as 1 */
      {0, 0, {0, 0}, 0, 0},    /* a scalar */
      {0, 0, {0, 0}, 1, -1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int64_t got = interp_array_index_of(cases[i].two ? &r2 : &r0, cases[i].nd, cases[i].box, cases[i].lin);
    TEST_CHECK(got == cases[i].want, "index_of case %zu: %lld (want %lld)", i, (long long)got,
               (long long)cases[i].want);
  }
}

int main(void) {
  test_index_of();
  test_ops();
  test_prog_bitextract();
  test_prog_matmul();
  test_prog_triangle();
  test_prog_bounds();
  test_prog_skewed();
  test_prog_exprs();
  test_violations();
  test_extents();
  return test_done();
}
