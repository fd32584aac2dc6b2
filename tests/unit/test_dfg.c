/* covers: docs/dfg.md "The format as accepted", "The mapping", "Operations", "ctrl=", "Refused" */
/*
 * test_dfg.c: unit tests of the DFG reader and its translation (dfg.h).
 *
 * Table-driven. Each parse case is a text: whether it parses, and for an
 * invalid one the line and column of the error and a piece of its
 * message; for a valid one the counts of arrays, sub-DFGs, ports and
 * operations of its last sub-DFG. Each emit case is a valid DFG text and
 * the sub-DFG to translate: a refusal's line, column and message piece,
 * or pieces the program must contain; every program made is parsed and
 * checked by the loop language's own front end (parse.h, check.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "check.h"
#include "dfg.h"
#include "parse.h"
#include "test.h"

typedef struct {
  const char *text;
  int ok;
  int line, col;       /* the error's place (ok == 0) */
  const char *msg;     /* a piece of its message */
  int narrays, nsubs, nports, nops; /* ok == 1: counts (the last sub-DFG's ports, ops) */
} parse_case;

static const parse_case parse_cases[] = {
    /* valid: the spellings of DSAGEN's examples and of its format description */
    {"Array array_a 131072 dma\nArray: b 9248 dma\nspm s 16\nrec r 4\n", 1, 0, 0, NULL, 4, 1, 0, 0},
    {"Input64 a[4] source=array_a\nInput64: B source=b stated\nOutput32: O[2] destination=c\n", 1, 0, 0, NULL, 0, 1,
     3, 0},
    {"Input A\nX = Mul_I64(A, $Reg0)\nY = X\nZ = -5\nW = Add(A, 0x10)\n", 1, 0, 0, NULL, 0, 1, 1, 4},
    {"#pragma group frequency 0\nArray a 8 dma\n----\n#pragma group frequency 90\n#pragma reuse=0.66\n"
     "Input64: A source=a\n\n--------\n# comment\nInput: B\n",
     1, 0, 0, NULL, 1, 3, 1, 0},
    {"Input: K\nInput: X\nZ = Acc64(X, ctrl=$K_State & 8{0: d, 8: r|b1})\n", 1, 0, 0, NULL, 0, 1, 2, 1},
    {"Input: K\nZ = Acc64(K, ctrl=K{1: r})\n\xe2\x80\x94-\nInput: Q\n", 1, 0, 0, NULL, 0, 2, 1, 0},
    {"", 1, 0, 0, NULL, 0, 1, 0, 0},
    {"InputVec: I [0, 1, 2]   # trailing comment\nInput: BE [2]\nOutputVec: O [0,1]\n", 1, 0, 0, NULL, 0, 1, 3, 0},
    /* invalid: the place and the reason */
    {"Array a 16 flash\n", 0, 1, 12, "unknown array kind 'flash'", 0, 0, 0, 0},
    {"Array a -3 dma\n", 0, 1, 10, "expected 1 or more", 0, 0, 0, 0},
    {"Array a dma\n", 0, 1, 9, "the array's size", 0, 0, 0, 0},
    {"Array a 4 dma\nArray a 8 dma\n", 0, 2, 7, "declared again", 0, 0, 0, 0},
    {"Input48 A\n", 0, 1, 6, "port width '48'", 0, 0, 0, 0},
    {"Input64 A[0] source=a\n", 0, 1, 11, "vectorization degree 0", 0, 0, 0, 0},
    {"Input64 A[2 source=a\n", 0, 1, 13, "expected ']'", 0, 0, 0, 0},
    {"Input64 A sauce=a\n", 0, 1, 11, "unknown Input attribute 'sauce'", 0, 0, 0, 0},
    {"InputVec: A [0, 2]\n", 0, 1, 17, "lane 2: expected 1", 0, 0, 0, 0},
    {"InputVec: A\n", 0, 1, 12, "expected '[' and the lanes", 0, 0, 0, 0},
    {"Output64 A source=a\n", 0, 1, 12, "unknown Output attribute 'source'", 0, 0, 0, 0},
    {"Input A\nInput A\n", 0, 2, 7, "port A declared again", 0, 0, 0, 0},
    {"X = Add(A, B\n", 0, 1, 13, "expected ',' or ')'", 0, 0, 0, 0},
    {"X = Add(A, B) junk\n", 0, 1, 15, "unexpected text", 0, 0, 0, 0},
    {"X Add(A)\n", 0, 1, 3, "expected '='", 0, 0, 0, 0},
    {"X = Add(A, ctrl=K{1: z})\n", 0, 1, 22, "unknown control flag 'z'", 0, 0, 0, 0},
    {"X = Add(A, ctrl=K{1 r})\n", 0, 1, 21, "expected ':'", 0, 0, 0, 0},
    {"X = Add(A, self=K)\n", 0, 1, 12, "'self=' is not supported", 0, 0, 0, 0},
    {"X = Add(A, 99999999999999999999)\n", 0, 1, 12, "not an integer of 64 bits", 0, 0, 0, 0},
    {"A, B, C = DivRem64(X, Y)\n", 0, 1, 5, "more than two results", 0, 0, 0, 0},
    {"A, B = X\n", 0, 1, 4, "two results need an operation", 0, 0, 0, 0},
    {"A, = DivRem64(X, Y)\n", 0, 1, 4, "a second result", 0, 0, 0, 0},
    {"Indirect64: I\n", 0, 1, 1, "Indirect64 ports are not supported", 0, 0, 0, 0},
    {"----\n#pragma group frequency lots\n", 0, 2, 25, "#pragma group frequency", 0, 0, 0, 0},
    {"#pragma group unroll 3.5\n", 0, 1, 22, "unroll", 0, 0, 0, 0},
    {"X = \n", 0, 1, 5, "after '='", 0, 0, 0, 0},
    {"Input64: \n", 0, 1, 10, "the port's name", 0, 0, 0, 0},
};

/* Returns 1 when case c gives what it says. */
static int parse_one(const parse_case *c) {
  dfg_file f;
  dfg_error e;
  int rc = dfg_file_parse(c->text, &f, &e);
  if (!c->ok) {
    int good = rc == -1 && e.line == c->line && e.col == c->col && strstr(e.msg, c->msg);
    if (!good) printf("#   got rc %d at %d:%d: %s\n", rc, e.line, e.col, e.msg);
    return good;
  }
  if (rc) {
    printf("#   unexpected error at %d:%d: %s\n", e.line, e.col, e.msg);
    return 0;
  }
  const dfg_sub *s = &f.sub[f.nsubs - 1];
  int good = f.narrays == c->narrays && f.nsubs == c->nsubs && s->nports == c->nports && s->nops == c->nops;
  if (!good) printf("#   got %d arrays, %d subs, %d ports, %d ops\n", f.narrays, f.nsubs, s->nports, s->nops);
  dfg_file_free(&f);
  return good;
}

/* The details one parse keeps: lanes, widths, arrays, operands, ctrl. */
static void parse_details(void) {
  dfg_file f;
  dfg_error e;
  const char *t = "Input32: A[2] source=a stated\nX = Acc64(A_0, ctrl=$A_State & 8{0: d, 8: r|b1})\n"
                  "Y = Add_I64(X, $Reg3)\nZ = Sub(Y, -7)\n#pragma group frequency 2.5\n";
  TEST_CHECK(!dfg_file_parse(t, &f, &e), "details: parses");
  const dfg_sub *s = &f.sub[0];
  TEST_CHECK(s->port[0].lanes == 2 && s->port[0].width == 32 && s->port[0].stated && !strcmp(s->port[0].array, "a"),
             "details: Input32 A[2] source=a stated");
  const dfg_op *x = &s->op[0];
  TEST_CHECK(x->has_ctrl && !strcmp(x->ctrl.name, "A_State") && x->ctrl_mask == 8 && x->nent == 2 &&
                 x->ent[0].key == 0 && x->ent[0].flags == DFG_CTRL_D && x->ent[1].key == 8 &&
                 x->ent[1].flags == (DFG_CTRL_R | DFG_CTRL_B1) && x->ent[1].col == 40,
             "details: ctrl=$A_State & 8{0: d, 8: r|b1}");
  TEST_CHECK(s->op[1].arg[1].kind == DFG_ARG_REG && !strcmp(s->op[1].arg[1].name, "Reg3") && s->op[1].op_col == 5,
             "details: $Reg3 is a register, the operation at column 5");
  TEST_CHECK(s->op[2].arg[1].kind == DFG_ARG_CONST && s->op[2].arg[1].imm == -7, "details: -7 is an immediate");
  TEST_CHECK(s->freq == 2.5, "details: #pragma group frequency 2.5");
  dfg_file_free(&f);
}

typedef struct {
  const char *text;
  int sub;
  int line, col;         /* 0: it maps */
  const char *want[4];   /* pieces of the message, or of the program */
} emit_case;

static const emit_case emit_cases[] = {
    /* mapped */
    {"Input64 a[4] source=x\nc_0 = add(a_0, a3)\nc_1 = Mul_I64(a_1, $Reg0)\nOutput64 c destination=y\n", 0, 0, 0,
     {"in  int32 a[N, 4], Reg0;", "out int32 c[N, 2];", "v_c_0[e] = a[e,0] + a[e,3];", "c[e,1] = v_c_1[e];"}},
    {"rec r 2\nInput: X\nInput: P source=r\nS = Add(X, P)\nOutput: S destination=r\n", 0, 0, 0,
     {"par (0 <= e < N, N >= 2)", "v_P[e] = r_init[1*e + 0] if (e < 2);", "v_P[e] = v_S[e-2] if (e >= 2);",
      "r_final[1*e - 1*N + 2] = v_S[e] if (e >= N - 2);"}},
    {"Input: K\nInput: X\nZ = Acc64(X, ctrl=K & 7{1: r, 2: r})\nOutput: Z\n", 0, 0, 0,
     {"v_Z[e] = k_Z[e-1] + X[e] if (e >= 1);", "k_Z[e] = ((K[e] & 7) == 1) | ((K[e] & 7) == 2) ? 0 : v_Z[e];",
      "v_Z[e] = X[e] if (e == 0);", NULL}},
    {"Input: A stated\nInput: N\nM = Select(A, N, A_State)\nT = Acc(M)\nOutput: T\n", 0, 0, 0,
     {"in  int32 A[N, 2], p_N[N];", "v_M[e] = (A[e,0] & 1) ? p_N[e] : A[e,1];", "v_T[e] = v_T[e-1] + v_M[e] if (e >= 1);",
      NULL}},
    {"Input: in\nX = ICmpSLT(in, 5)\nY = X\nOutput: Y\n", 0, 0, 0,
     {"in  int32 p_in[N];", "v_X[e] = p_in[e] < 5;", "Y[e] = v_X[e];", NULL}},
    {"Input: A\nInput: B\nQ, R = DivRem64(A, B)\nS = Add(Q, R)\nOutput: S\n", 0, 0, 0,
     {"v_Q[e] = A[e] / B[e];", "v_R[e] = A[e] % B[e];", "v_S[e] = v_Q[e] + v_R[e];", NULL}},
    {"InputVec: I [0, 1]\nInputVec: C [0, 1]\nO0 = Add64(I0, C1)\nO1 = Mul64(I1, C0)\nOutputVec: O [0, 1]\n", 0, 0, 0,
     {"in  int32 I[N, 2], C[N, 2];", "v_O0[e] = I[e,0] + C[e,1];", "O[e,1] = v_O1[e];", NULL}},
    {"Input: A\nB = Add(A, 1)\nC = Add(B, 2)\nD = Add(C, 3)\nE = Add(D, 4)\nF = Add(E, 5)\nT = Acc(7, $Reg1)\n"
     "Output: T\nOutput: F\n", 0, 0, 0,
     {"v_T[e] = 7 if (e == 0);", "v_T[e] = k_T[e-1] + 7 if (e >= 1);", "k_T[e] = (Reg1 != 0) ? 0 : v_T[e];", NULL}},
    /* refused: the operation or flag, its place */
    {"Input: A\nX = FAdd64(A, A)\nOutput: X\n", 0, 2, 5, {"operation 'FAdd64' has no equivalent", NULL}},
    {"Input: A\nX = Add16x4(A, A)\nOutput: X\n", 0, 2, 5, {"operation 'Add16x4'", NULL}},
    {"Input: A\nX = Add(A)\nOutput: X\n", 0, 2, 5, {"Add takes 2 operands, got 1", NULL}},
    {"Input: A\nX = DivRem64(A, A)\nOutput: X\n", 0, 2, 1, {"DivRem64 has two results", NULL}},
    {"Input: A\nX, Y = Add(A, A)\nOutput: X\n", 0, 2, 4, {"Add has one result, two are given", NULL}},
    {"Input: A\nX, X = DivRem(A, A)\nOutput: X\n", 0, 2, 4, {"'X' is defined again", NULL}},
    {"Input: A\nX = Add(A, B)\nOutput: X\n", 0, 2, 12, {"'B' is not defined", NULL}},
    {"Input: A\nX = Add(A, A)\nX = Sub(A, A)\nOutput: X\n", 0, 3, 1, {"'X' is defined again (first at line 2)", NULL}},
    {"Input: A\nInput: K\nX = Add(A, A, ctrl=K{0: d})\nOutput: X\n", 0, 3, 22, {"control flag d (discard)", NULL}},
    {"Input: A\nInput: K\nX = Acc64(A, ctrl=K{0: r, 1: b2})\nOutput: X\n", 0, 3, 27, {"b2 (backpressure)", NULL}},
    {"Input: A\nInput: K\nX = Add(A, A, ctrl=K{0: r})\nOutput: X\n", 0, 3, 15, {"expressible on Acc only", NULL}},
    {"Input: A\nX = Add(A, 5000000000)\nOutput: X\n", 0, 2, 12, {"does not fit in 32 bits", NULL}},
    {"Input: A\nOutput: B\n", 0, 2, 9, {"no value B", NULL}},
    {"Input: A\nX = Add(A, A)\n", 0, 1, 1, {"no Output port", NULL}},
    {"rec r 3\nInput: P[2] source=r\nOutput: S destination=r\n", 0, 2, 8, {"not a multiple", NULL}},
    {"rec r 4\nInput: P[2] source=r\nInput: A\nX = A\nOutput: X destination=r\n", 0, 5, 9,
     {"Output X has 1 lanes, the Input P reading rec array r has 2", NULL}},
    {"rec r 2\nInput: P source=r\nInput: A\nX = Add(A, P)\nOutput: X destination=y\n", 0, 2, 8,
     {"read by P but written by no Output", NULL}},
    {"Input: A\nOutput: B destination=o stated\n", 0, 2, 9, {"stated Output", NULL}},
};

/* Returns 1 when case c gives what it says; the programs it makes are
 * parsed and checked by the front end. */
static int emit_one(const emit_case *c) {
  dfg_file f;
  dfg_error e;
  if (dfg_file_parse(c->text, &f, &e)) {
    printf("#   does not parse: %d:%d: %s\n", e.line, e.col, e.msg);
    return 0;
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  int64_t rec = 0;
  int rc = dfg_sub_emit(&f, c->sub, "t", "t.dfg", m, &rec, &e);
  fclose(m);
  dfg_file_free(&f);
  int good = 1;
  if (c->line) {
    good = rc == -1 && e.line == c->line && e.col == c->col && strstr(e.msg, c->want[0]);
    if (!good) printf("#   got rc %d at %d:%d: %s\n", rc, e.line, e.col, e.msg);
  } else if (rc) {
    printf("#   refused at %d:%d: %s\n", e.line, e.col, e.msg);
    good = 0;
  } else {
    for (int i = 0; i < 4 && c->want[i]; i++)
      if (!strstr(buf, c->want[i])) {
        printf("#   missing '%s' in:\n%s", c->want[i], buf);
        good = 0;
      }
    ast_program *p = parse_string("t.pla", buf);
    if (!p || check_program(p)) {
      printf("#   the program does not pass the front end:\n%s", buf);
      good = 0;
    }
    if (p) ast_program_free(p);
  }
  free(buf);
  return good;
}

int main(void) {
  for (size_t i = 0; i < sizeof parse_cases / sizeof parse_cases[0]; i++) {
    const parse_case *c = &parse_cases[i];
    TEST_CHECK(parse_one(c), "parse %zu: %s %.40s", i, c->ok ? "valid" : "invalid", c->ok ? "" : c->msg);
  }
  parse_details();
  for (size_t i = 0; i < sizeof emit_cases / sizeof emit_cases[0]; i++) {
    const emit_case *c = &emit_cases[i];
    TEST_CHECK(emit_one(c), "emit %zu: %s %.50s", i, c->line ? "refused:" : "mapped", c->line ? c->want[0] : "");
  }
  return test_done();
}
