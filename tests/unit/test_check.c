/* covers: docs/language.md "The five rules" */
/*
 * test_check.c: the rule checks of check.c, table driven. Each case is a
 * program text, the rule number of the first error check_program must
 * report (0: the program is valid) and, optionally, a piece of text the
 * messages must contain (a witness). The messages are captured by
 * redirecting stderr into a temporary file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "parse.h"
#include "spec_examples.h"
#include "test.h"

typedef struct {
  const char *name;
  int rule;         /* rule of the first error, 0 for a valid program */
  const char *want; /* text the messages contain, or NULL */
  const char *text;
} check_case;

static const check_case cases[] = {
    {"spec example: bit extraction", 0, NULL,
     SPEC_BITEXTRACT_SRC},
    {"spec example: matmul", 0, NULL,
     SPEC_MATMUL_SRC},
    {"triangular space, prefix sums per row", 0, NULL,
     "program tri(N) {\n"
     "  in int32 A[N, N];\n"
     "  out int32 S[N];\n"
     "  par (0 <= i < N, 0 <= j <= i) {\n"
     "    s[i,j] = A[i,j] if (j == 0);\n"
     "    s[i,j] = s[i,j-1] + A[i,j] if (j >= 1);\n"
     "    S[i] = s[i,j] if (j == i);\n"
     "  }\n"
     "}\n"},
    {"negative component x[i-1,j+1] (lex positive vector (1,-1))", 0, NULL,
     "program skew(N, M) {\n"
     "  in int32 A[M];\n"
     "  out int32 C[N, M];\n"
     "  par (0 <= i < N, 0 <= j < M) {\n"
     "    x[i,j] = A[j] if (i == 0 or j == M-1);\n"
     "    x[i,j] = x[i-1,j+1] + 1 if (i >= 1 and j <= M-2);\n"
     "    C[i,j] = x[i,j];\n"
     "  }\n"
     "}\n"},
    {"parameter constraint makes a constant read legal", 0, NULL,
     "program third(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 s;\n"
     "  par (N >= 3, 0 <= i < N) {\n"
     "    s = A[2] if (i == 0);\n"
     "  }\n"
     "}\n"},
    {"scalars in and out, reduction", 0, NULL,
     "program red(N) {\n"
     "  in int32 v, A[N];\n"
     "  out int32 s;\n"
     "  par (0 <= i < N) {\n"
     "    x[i] = v + A[i] if (i == 0);\n"
     "    x[i] = x[i-1] + A[i] if (i >= 1);\n"
     "    s = x[i] if (i == N-1);\n"
     "  }\n"
     "}\n"},
    {"acyclic chain of offset-zero uses", 0, NULL,
     "program chain(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N) {\n"
     "    c[i] = b[i] + a[i];\n"
     "    b[i] = a[i] * 2;\n"
     "    a[i] = A[i];\n"
     "    C[i] = c[i];\n"
     "  }\n"
     "}\n"},
    {"offset-zero uses between disjoint condition spaces are no cycle", 0, NULL,
     "program nocycle(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N) {\n"
     "    a[i] = c[i] if (i <= 2);\n"
     "    a[i] = A[i] if (i >= 3);\n"
     "    b[i] = a[i] if (i >= 2 and i <= 4);\n"
     "    b[i] = A[i] if (i <= 1 or i >= 5);\n"
     "    c[i] = b[i] if (i <= 1 or i >= 3);\n"
     "    c[i] = A[i] if (i == 2);\n"
     "    C[i] = a[i] + b[i] + c[i];\n"
     "  }\n"
     "}\n"},
    {"2-D output written along a diagonal band, transposed", 0, NULL,
     "program transpose(N, M) {\n"
     "  in int32 A[N, M];\n"
     "  out int32 T[M, N];\n"
     "  par (0 <= i < N, 0 <= j < M) {\n"
     "    T[j, i] = A[i, j] if (i != j or i == 0 or i >= 1);\n"
     "  }\n"
     "}\n"},
    {"select reads all operands; uses defined", 0, NULL,
     "program sel(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N) {\n"
     "    x[i] = A[i] if (i == 0);\n"
     "    x[i] = x[i-1] > A[i] ? x[i-1] : A[i] if (i >= 1);\n"
     "    C[i] = x[i];\n"
     "  }\n"
     "}\n"},
    {"space bounded only through a sum of indices", 0, NULL,
     "program anti(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i, 0 <= j, i + j < N) {\n"
     "    x[i,j] = A[i] if (j == 0);\n"
     "    x[i,j] = x[i,j-1] + 1 if (j >= 1);\n"
     "    C[i] = x[i,j] if (i + j == N - 1);\n"
     "  }\n"
     "}\n"},
    {"unbounded iteration space (no rule number)", -1, "unbounded along (0,1)",
     "program unb(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N, j >= 0) {\n"
     "    C[i] = A[i] if (j == 0);\n"
     "  }\n"
     "}\n"},
    {"even and odd elements written by two equations", 0, NULL,
     "program interleave(N) {\n"
     "  in int32 A[N], B[N];\n"
     "  out int32 C[2*N];\n"
     "  par (0 <= i < N) {\n"
     "    C[2*i] = A[i];\n"
     "    C[2*i+1] = B[i];\n"
     "  }\n"
     "}\n"},
    {"rule 5: strided writes leave the odd elements", 5, "element C[1] of output C",
     "program interleave(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[2*N];\n"
     "  par (0 <= i < N) {\n"
     "    C[2*i] = A[i];\n"
     "  }\n"
     "}\n"},
    {"rule 1: strided writes collide at C[2] for N >= 2", 1, "C[2] is written twice",
     "program interleave(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[2*N+1];\n"
     "  par (0 <= i < N) {\n"
     "    C[2*i] = A[i];\n"
     "    C[2*i+1] = A[i] if (i >= 1);\n"
     "    C[i+1] = A[i] if (i == 1);\n"
     "    C[1] = A[i] if (i == 0);\n"
     "    C[2*N] = A[i] if (i == 0);\n"
     "  }\n"
     "}\n"},
    /* rule 1 */
    {"rule 1: two definitions overlap at i = 1", 1, "at i = 1 with N = 2",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N) {\n"
     "    x[i] = A[i] if (i <= 1);\n"
     "    x[i] = x[i-1] if (i >= 1);\n"
     "    C[i] = x[i];\n"
     "  }\n"
     "}\n"},
    {"rule 1: two equations write C[0]", 1, "C[0] is written twice",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N) {\n"
     "    C[i] = A[i];\n"
     "    C[0] = A[0] if (i == 0);\n"
     "  }\n"
     "}\n"},
    {"rule 1: scalar output written at every iteration", 1,
     "writes s twice, at i = 0 and at i = 1 with N = 2",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 s;\n"
     "  par (0 <= i < N) {\n"
     "    s = A[i];\n"
     "  }\n"
     "}\n"},
    {"rule 1: output written at a non-injective index", 1, "C[0] twice",
     "program p(N) {\n"
     "  in int32 A[N, N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N, 0 <= j < N) {\n"
     "    C[i] = A[i, j];\n"
     "  }\n"
     "}\n"},
    /* rule 2 */
    {"rule 2: bit extraction without the condition reads y[i-1] at i = 0", 2,
     "reads y[i-1] outside the iteration space, e.g. at i = 0 with N = 1",
     "program bitextract(N) {\n"
     "  in  int32 v;\n"
     "  out int32 bits[N];\n"
     "  par (0 <= i < N) {\n"
     "    x[i]    = y[i-1];\n"
     "    y[i]    = x[i] >> 1;\n"
     "    bits[i] = x[i] & 1;\n"
     "  }\n"
     "}\n"},
    {"rule 2: x read where it is not defined", 2, "x[1] at i = 1 with N = 2",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N) {\n"
     "    x[i] = A[i] if (i == 0);\n"
     "    C[i] = x[i];\n"
     "  }\n"
     "}\n"},
    {"rule 2: undefined only for N >= 4 (hole at i = 3)", 2, "with N = 4",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N) {\n"
     "    x[i] = A[i] if (i <= 2 or i >= 4);\n"
     "    C[i] = x[i];\n"
     "  }\n"
     "}\n"},
    {"rule 2: hole at i = 1000 found symbolically (N >= 1001 only)", 2,
     "x[1000] at i = 1000 with N = 1001",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N) {\n"
     "    x[i] = A[i] if (i != 1000);\n"
     "    C[i] = x[i];\n"
     "  }\n"
     "}\n"},
    /* rule 3 */
    {"rule 3: reads a later iteration", 3, "dependence vector (-1)",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N) {\n"
     "    x[i] = x[i+1] if (i < N-1);\n"
     "    x[i] = A[i] if (i == N-1);\n"
     "    C[i] = x[i];\n"
     "  }\n"
     "}\n"},
    {"rule 3: lex negative (-1,1) vector", 3, "(-1,1)",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N, N];\n"
     "  par (0 <= i < N, 0 <= j < N) {\n"
     "    x[i,j] = x[i+1,j-1] if (i < N-1 and j >= 1);\n"
     "    x[i,j] = A[i] if (i == N-1 or j == 0);\n"
     "    C[i,j] = x[i,j];\n"
     "  }\n"
     "}\n"},
    {"rule 3: offset-zero cycle a -> b -> a", 3, "a -> b -> a",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N) {\n"
     "    a[i] = b[i] + A[i];\n"
     "    b[i] = a[i];\n"
     "    C[i] = a[i];\n"
     "  }\n"
     "}\n"},
    {"rule 3: self cycle only where conditions meet", 3, "at i = 5 with N = 6",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N) {\n"
     "    a[i] = A[i] if (i <= 4);\n"
     "    a[i] = a[i] + 1 if (i >= 5);\n"
     "    C[i] = a[i];\n"
     "  }\n"
     "}\n"},
    {"rule 3: three-equation cycle only at i = 2", 3,
     "a -> b -> c -> a, e.g. at i = 2 with N = 3",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N) {\n"
     "    a[i] = c[i] if (i <= 2);\n"
     "    a[i] = A[i] if (i >= 3);\n"
     "    b[i] = a[i] if (i >= 2);\n"
     "    b[i] = A[i] if (i <= 1);\n"
     "    c[i] = b[i] + 1;\n"
     "    C[i] = c[i];\n"
     "  }\n"
     "}\n"},
    /* rule 4 */
    {"rule 4: read past the end", 4, "A[1] at i = 0 with N = 1",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N) {\n"
     "    C[i] = A[i+1];\n"
     "  }\n"
     "}\n"},
    {"rule 4: constant read legal only for N >= 3", 4, "A[2] at i = 0 with N = 1",
     "program third(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 s;\n"
     "  par (0 <= i < N) {\n"
     "    s = A[2] if (i == 0);\n"
     "  }\n"
     "}\n"},
    {"rule 4: write past the end on a triangle", 4, "writes C[i,j+1]",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N, N];\n"
     "  par (0 <= i < N, 0 <= j < N) {\n"
     "    C[i, j+1] = A[i] if (j <= i);\n"
     "    C[i, j] = A[i] if (j == 0 or j > i + 1);\n"
     "  }\n"
     "}\n"},
    /* rule 5 */
    {"rule 5: C[0] never written", 5, "element C[0] of output C is never written",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[N];\n"
     "  par (0 <= i < N) {\n"
     "    C[i] = A[i] if (i >= 1);\n"
     "  }\n"
     "}\n"},
    {"rule 5: scalar never written when N = 1", 5, "output s is never written, e.g. with N = 1",
     "program p(N) {\n"
     "  in int32 A[N];\n"
     "  out int32 s;\n"
     "  par (0 <= i < N) {\n"
     "    s = A[i] if (i == 1);\n"
     "  }\n"
     "}\n"},
    {"rule 5: extent larger than the space for M > 4", 5, "C[4]",
     "program p(N, M) {\n"
     "  in int32 A[N];\n"
     "  out int32 C[M];\n"
     "  par (M >= 4, 0 <= i < 4, 0 <= k < N) {\n"
     "    C[i] = A[k] if (k == 0);\n"
     "  }\n"
     "}\n"},
};

/* Returns the rule number after the first "error: rule " in `s`, -1 when
 * there is an error without a rule, 0 when there is no error. */
static int first_rule(const char *s) {
  const char *e = strstr(s, "error: ");
  if (!e) return 0;
  if (strncmp(e + 7, "rule ", 5)) return -1;
  return atoi(e + 12);
}

/* Returns the stderr output of check_program(p) (malloc'd); *n gets its
 * return value. */
static char *run_check(const ast_program *p, int *n) {
  FILE *tmp = tmpfile();
  int saved = dup(2);
  fflush(stderr);
  dup2(fileno(tmp), 2);
  *n = check_program(p);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  long len = ftell(tmp);
  char *buf = calloc((size_t)(len > 0 ? len : 0) + 1, 1);
  rewind(tmp);
  if (len > 0 && fread(buf, 1, (size_t)len, tmp) != (size_t)len) buf[0] = 0;
  fclose(tmp);
  return buf;
}

/* Runs one case; reports its checks. */
static void run_case(const check_case *c) {
  ast_program *p = parse_string("case.pla", c->text);
  if (!TEST_CHECK(p != NULL, "%s: parses", c->name)) return;
  int n;
  char *out = run_check(p, &n);
  int rule = first_rule(out);
  if (getenv("CHECK_VERBOSE")) printf("%s", out);
  TEST_CHECK((n == 0) == (c->rule == 0), "%s: %d error(s), want %s", c->name, n,
             c->rule ? "some" : "none");
  if (!TEST_CHECK(rule == c->rule, "%s: first error is rule %d, want %d", c->name,
                  rule, c->rule))
    printf("#   %s", out);
  if (c->want && !TEST_CHECK(strstr(out, c->want) != NULL, "%s: says '%s'", c->name,
                             c->want))
    printf("#   %s", out);
  free(out);
  ast_program_free(p);
}

/* check_params_valid against the parameter-only constraints of `par`. */
static void test_params_valid(void) {
  ast_program *p = parse_string("pv.pla",
                                "program pv(N, M) {\n"
                                "  in int32 A[N];\n  out int32 C[N];\n"
                                "  par (N >= 3, M <= N, 0 <= i < N) { C[i] = A[i]; }\n"
                                "}\n");
  if (!TEST_CHECK(p != NULL, "params: parses")) return;
  TEST_CHECK(check_params_valid(p, (int64_t[]){3, 3}), "N = 3, M = 3 valid");
  TEST_CHECK(!check_params_valid(p, (int64_t[]){2, 1}), "N = 2 invalid (N >= 3)");
  TEST_CHECK(!check_params_valid(p, (int64_t[]){4, 5}), "M = 5 > N invalid");
  TEST_CHECK(!check_params_valid(p, (int64_t[]){4, 0}), "M = 0 invalid (>= 1)");
  ast_program_free(p);
}

int main(void) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
  test_params_valid();
  return test_done();
}
