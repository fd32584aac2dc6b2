/* covers: docs/instantiate.md "Program size reductions" */
/*
 * test_inst_merge.c: merging of kernel classes with identical code
 * (inst_merge_fu, compiler/inst/inst_merge.c). A table of small 1-D CFGs, each
 * written as kernel classes (iteration set, code: one character per slot,
 * '.' nop, a letter `mov rdX, id0`; optional fold distances per slot) and
 * edges (from, to or -1 for halt, transition space), with the expected
 * number of kernel classes merged away and the expected edges afterwards
 * (compared as sets of (from, to, isl-equal transition space)). Every case
 * is also checked for behaviour: for every iteration j of the domain the
 * merged CFG has exactly one node holding j, with the code of j's original
 * kernel, exactly one edge out of it holding j, and that edge leads to the
 * node holding j + 1 (or to halt where the original halted); the iteration
 * sets still partition the domain. Shared tails (inst_merge_tail): hosts,
 * roots and edges (leaving from the root, targets unchanged) on a table
 * case, with the same behaviour check (edges taken from the root).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/set.h>

#include "inst.h"
#include "test.h"

#define MAXN 8
#define MAXE 16

typedef struct {
  int from, to;
  const char *t;
} edge_spec;

typedef struct {
  const char *name;
  int ii;
  int nk;
  const char *q[MAXN];     /* iteration sets over [j] */
  const char *code[MAXN];  /* ii characters each */
  const char *fold[MAXN];  /* NULL: fold 0 everywhere; else ii digits */
  int ne;
  edge_spec e[MAXE];
  int removed;             /* expected return value */
  int ne_after;
  edge_spec after[MAXE];
} merge_case;

static const merge_case cases[] = {
    {"chain ABAB becomes a two-node loop", 2, 4,
     {"{ [j] : j = 0 }", "{ [j] : j = 1 }", "{ [j] : j = 2 }", "{ [j] : j = 3 }"},
     {"A.", ".B", "A.", ".B"}, {NULL}, 4,
     {{0, 1, "{ [j] : j = 0 }"}, {1, 2, "{ [j] : j = 1 }"}, {2, 3, "{ [j] : j = 2 }"}, {3, -1, "{ [j] : j = 3 }"}},
     2, 3,
     {{0, 1, "{ [j] : j = 0 or j = 2 }"}, {1, 0, "{ [j] : j = 1 }"}, {1, -1, "{ [j] : j = 3 }"}}},
    {"distinct codes: nothing merges", 2, 3,
     {"{ [j] : j = 0 }", "{ [j] : 1 <= j <= 3 }", "{ [j] : j = 4 }"},
     {"A.", "AB", ".B"}, {NULL}, 4,
     {{0, 1, "{ [j] : j = 0 }"}, {1, 1, "{ [j] : 1 <= j <= 2 }"}, {1, 2, "{ [j] : j = 3 }"}, {2, -1, "{ [j] : j = 4 }"}},
     0, 4,
     {{0, 1, "{ [j] : j = 0 }"}, {1, 1, "{ [j] : 1 <= j <= 2 }"}, {1, 2, "{ [j] : j = 3 }"}, {2, -1, "{ [j] : j = 4 }"}}},
    {"loop, separator, second loop: self edges joined", 3, 3,
     {"{ [j] : 0 <= j <= 2 }", "{ [j] : j = 3 }", "{ [j] : 4 <= j <= 5 }"},
     {"AB.", "..C", "AB."}, {NULL}, 5,
     {{0, 0, "{ [j] : 0 <= j <= 1 }"}, {0, 1, "{ [j] : j = 2 }"}, {1, 2, "{ [j] : j = 3 }"},
      {2, 2, "{ [j] : j = 4 }"}, {2, -1, "{ [j] : j = 5 }"}},
     1, 4,
     {{0, 0, "{ [j] : 0 <= j <= 1 or j = 4 }"}, {0, 1, "{ [j] : j = 2 }"}, {0, -1, "{ [j] : j = 5 }"},
      {1, 0, "{ [j] : j = 3 }"}}},
    {"same instructions, different fold distance: kept apart", 2, 3,
     {"{ [j] : j = 0 }", "{ [j] : j = 1 }", "{ [j] : j = 2 }"},
     {"AB", "..", "AB"}, {"00", "00", "01"}, 3,
     {{0, 1, "{ [j] : j = 0 }"}, {1, 2, "{ [j] : j = 1 }"}, {2, -1, "{ [j] : j = 2 }"}},
     0, 3,
     {{0, 1, "{ [j] : j = 0 }"}, {1, 2, "{ [j] : j = 1 }"}, {2, -1, "{ [j] : j = 2 }"}}},
    {"same fold distances merge", 2, 3,
     {"{ [j] : j = 0 }", "{ [j] : j = 1 }", "{ [j] : j = 2 }"},
     {"AB", "..", "AB"}, {"01", "00", "01"}, 3,
     {{0, 1, "{ [j] : j = 0 }"}, {1, 2, "{ [j] : j = 1 }"}, {2, -1, "{ [j] : j = 2 }"}},
     1, 3,
     {{0, 1, "{ [j] : j = 0 }"}, {0, -1, "{ [j] : j = 2 }"}, {1, 0, "{ [j] : j = 1 }"}}},
    {"all identical: one node", 1, 3,
     {"{ [j] : j = 0 }", "{ [j] : 1 <= j <= 4 }", "{ [j] : j = 5 }"},
     {"A", "A", "A"}, {NULL}, 4,
     {{0, 1, "{ [j] : j = 0 }"}, {1, 1, "{ [j] : 1 <= j <= 3 }"}, {1, 2, "{ [j] : j = 4 }"}, {2, -1, "{ [j] : j = 5 }"}},
     2, 2,
     {{0, 0, "{ [j] : 0 <= j <= 4 }"}, {0, -1, "{ [j] : j = 5 }"}}},
    {"two pairs (fir alu0: q3/q5, q4/q6)", 2, 7,
     {"{ [j] : j = 0 }", "{ [j] : j = 1 }", "{ [j] : j = 2 or j = 5 or j = 8 }", "{ [j] : j = 3 }",
      "{ [j] : j = 4 }", "{ [j] : j = 6 }", "{ [j] : j = 7 }"},
     {".A", "BA", "..", "CD", ".D", "CD", ".D"}, {NULL}, 9,
     {{0, 1, "{ [j] : j = 0 }"}, {1, 2, "{ [j] : j = 1 }"}, {2, 3, "{ [j] : j = 2 }"},
      {2, 5, "{ [j] : j = 5 }"}, {2, -1, "{ [j] : j = 8 }"}, {3, 4, "{ [j] : j = 3 }"},
      {4, 2, "{ [j] : j = 4 }"}, {5, 6, "{ [j] : j = 6 }"}, {6, 2, "{ [j] : j = 7 }"}},
     2, 6,
     {{0, 1, "{ [j] : j = 0 }"}, {1, 2, "{ [j] : j = 1 }"}, {2, 3, "{ [j] : j = 2 or j = 5 }"},
      {2, -1, "{ [j] : j = 8 }"}, {3, 4, "{ [j] : j = 3 or j = 6 }"}, {4, 2, "{ [j] : j = 4 or j = 7 }"}}},
    {"two programs' prologues share the epilogue code", 2, 5,
     {"{ [j] : j = 0 }", "{ [j] : 1 <= j <= 3 }", "{ [j] : j = 4 }", "{ [j] : j = 5 }", "{ [j] : j = 6 }"},
     {"..", "AB", "..", "A.", ".."}, {NULL}, 6,
     {{0, 1, "{ [j] : j = 0 }"}, {1, 1, "{ [j] : 1 <= j <= 2 }"}, {1, 2, "{ [j] : j = 3 }"},
      {2, 3, "{ [j] : j = 4 }"}, {3, 4, "{ [j] : j = 5 }"}, {4, -1, "{ [j] : j = 6 }"}},
     2, 6,
     {{0, 1, "{ [j] : j = 0 }"}, {0, 2, "{ [j] : j = 4 }"}, {0, -1, "{ [j] : j = 6 }"},
      {1, 1, "{ [j] : 1 <= j <= 2 }"}, {1, 0, "{ [j] : j = 3 }"}, {2, 0, "{ [j] : j = 5 }"}}},
};

/* Returns the instruction slot character c stands for. */
static isa_insn insn_of(char c) {
  isa_insn in;
  memset(&in, 0, sizeof in);
  if (c == '.') return in;
  in.op = ISA_OP_MOV;
  in.dst.cls = ISA_CLS_RD;
  in.dst.idx = (uint8_t)(c - 'A');
  in.src[0].cls = ISA_CLS_ID;
  return in;
}

/* Returns 0 after filling f from case c (program over ctx). */
static int build(isl_ctx *ctx, const merge_case *c, inst_fuprog *f) {
  memset(f, 0, sizeof *f);
  f->nk = c->nk;
  f->k = calloc((size_t)c->nk, sizeof *f->k);
  f->e = calloc((size_t)c->ne, sizeof *f->e);
  if (!f->k || !f->e) return -1;
  for (int v = 0; v < c->nk; v++) {
    inst_kclass *k = &f->k[v];
    k->q = isl_set_read_from_str(ctx, c->q[v]);
    k->first = v;
    k->slot = calloc((size_t)c->ii, sizeof *k->slot);
    k->op = calloc((size_t)c->ii, sizeof *k->op);
    if (!k->q || !k->slot || !k->op) return -1;
    for (int s = 0; s < c->ii; s++) {
      char ch = c->code[v][s];
      k->slot[s] = insn_of(ch);
      int fd = c->fold[v] ? c->fold[v][s] - '0' : 0;
      k->op[s] = ch == '.' ? -1 : (ch - 'A') + 10 * fd;
    }
  }
  f->ne = c->ne;
  for (int i = 0; i < c->ne; i++) {
    f->e[i].from = c->e[i].from;
    f->e[i].to = c->e[i].to;
    f->e[i].t = isl_set_read_from_str(ctx, c->e[i].t);
    if (!f->e[i].t) return -1;
  }
  return 0;
}

/* Frees what build allocated. */
static void release(inst_fuprog *f) {
  for (int v = 0; v < f->nk; v++) {
    isl_set_free(f->k[v].q);
    free(f->k[v].slot);
    free(f->k[v].op);
  }
  for (int i = 0; i < f->ne; i++) isl_set_free(f->e[i].t);
  free(f->k);
  free(f->e);
}

/* Returns 1 when integer j is in s. */
static int holds(__isl_keep isl_set *s, int j) {
  isl_set *p = isl_set_fix_si(isl_set_copy(s), isl_dim_set, 0, j);
  int r = isl_set_is_empty(p) == isl_bool_false;
  isl_set_free(p);
  return r;
}

/* Returns the node of f holding j (-1 none, -2 several). */
static int node_of(const inst_fuprog *f, int j) {
  int found = -1;
  for (int v = 0; v < f->nk; v++)
    if (holds(f->k[v].q, j)) found = found == -1 ? v : -2;
  return found;
}

/* Returns the code character of slot s of node v (inverse of insn_of). */
static char code_of(const inst_fuprog *f, int v, int s) {
  const isa_insn *in = &f->k[v].slot[s];
  return in->op == ISA_OP_NOP ? '.' : (char)('A' + in->dst.idx);
}

/* Returns 1 when the merged f behaves like the original case c on every j
 * of the domain (see the file comment); prints the first difference. */
static int same_behaviour(isl_ctx *ctx, const merge_case *c, const inst_fuprog *f) {
  for (int j = 0; j < 32; j++) {
    int a = -1;
    for (int v = 0; v < c->nk; v++) {
      isl_set *q = isl_set_read_from_str(ctx, c->q[v]);
      if (holds(q, j)) a = v;
      isl_set_free(q);
    }
    int x = node_of(f, j);
    if (a < 0) {
      if (x != -1) return printf("#   j=%d: outside the domain but in node %d\n", j, x), 0;
      continue;
    }
    if (x < 0) return printf("#   j=%d: in %s node\n", j, x == -1 ? "no" : "several"), 0;
    for (int s = 0; s < c->ii; s++)
      if (code_of(f, x, s) != c->code[a][s]) return printf("#   j=%d: code differs in slot %d\n", j, s), 0;
    int b = -2;
    for (int i = 0; i < c->ne; i++) {
      isl_set *t = isl_set_read_from_str(ctx, c->e[i].t);
      if (c->e[i].from == a && holds(t, j)) b = c->e[i].to;
      isl_set_free(t);
    }
    for (int y = x; f->k[y].tail_len > 0; y = f->k[y].tail_of)
      for (int s = c->ii - f->k[y].tail_len; s < c->ii; s++)
        if (code_of(f, y, s) != code_of(f, f->k[y].tail_of, s))
          return printf("#   j=%d: node %d shares slot %d with a different word\n", j, y, s), 0;
    int r = inst_merge_root(f, x), taken = 0, to = -2;
    for (int i = 0; i < f->ne; i++)
      if (f->e[i].from == r && holds(f->e[i].t, j)) {
        taken++;
        to = f->e[i].to;
      }
    if (taken != 1) return printf("#   j=%d: %d edges of node %d (root %d) hold it\n", j, taken, x, r), 0;
    if (b == -1 && to != -1) return printf("#   j=%d: halt lost\n", j), 0;
    if (b >= 0 && (to < 0 || !holds(f->k[to].q, j + 1)))
      return printf("#   j=%d: the edge does not lead to the node of j+1\n", j), 0;
  }
  return 1;
}

/* Returns 1 when the edges of f are exactly the expected ones of c. */
static int edges_match(isl_ctx *ctx, const merge_case *c, const inst_fuprog *f) {
  if (f->ne != c->ne_after) return printf("#   %d edges, expected %d\n", f->ne, c->ne_after), 0;
  for (int i = 0; i < c->ne_after; i++) {
    isl_set *t = isl_set_read_from_str(ctx, c->after[i].t);
    int found = 0;
    for (int e = 0; e < f->ne; e++)
      if (f->e[e].from == c->after[i].from && f->e[e].to == c->after[i].to &&
          isl_set_is_equal(f->e[e].t, t) == isl_bool_true)
        found = 1;
    isl_set_free(t);
    if (!found) return printf("#   no edge %d -> %d after %s\n", c->after[i].from, c->after[i].to, c->after[i].t), 0;
  }
  return 1;
}

/* Returns 1 when node iteration sets are nonempty, sorted by first and
 * the start node keeps j = 0. */
static int nodes_ordered(const inst_fuprog *f) {
  for (int v = 0; v < f->nk; v++)
    if (v && f->k[v].first <= f->k[v - 1].first) return 0;
  return f->nk == 0 || holds(f->k[0].q, 0);
}

int main(void) {
  isl_ctx *ctx = isl_ctx_alloc();
  int fold[100];
  for (int i = 0; i < 100; i++) fold[i] = i / 10;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const merge_case *c = &cases[i];
    inst_fuprog f;
    if (!TEST_CHECK(build(ctx, c, &f) == 0, "%s: built", c->name)) continue;
    int r = inst_merge_fu(&f, c->ii, fold);
    TEST_CHECK(r == c->removed, "%s: %d kernel classes merged away (got %d)", c->name, c->removed, r);
    TEST_CHECK(f.nk == c->nk - c->removed, "%s: %d kernel classes remain (got %d)", c->name, c->nk - c->removed,
               f.nk);
    TEST_CHECK(edges_match(ctx, c, &f), "%s: the expected edges", c->name);
    TEST_CHECK(same_behaviour(ctx, c, &f), "%s: same kernels and successors for every j", c->name);
    TEST_CHECK(nodes_ordered(&f), "%s: nodes in order of first iteration, start node first", c->name);
    int again = inst_merge_fu(&f, c->ii, fold);
    TEST_CHECK(again == 0, "%s: a second merge finds nothing (fixpoint)", c->name);
    release(&f);
  }
  /* shared tails: n0 = XAB and n1 = YAB share 2 slots, then n2 = ZCB
   * shares 1 with n0, whose own words end before slot 2: its host is n1;
   * the edge n2 -> n0 must keep entering n0 (its own first word) */
  {
    static const merge_case tc = {"tails", 3, 3,
                                  {"{ [j] : j = 0 or j = 3 }", "{ [j] : j = 1 }", "{ [j] : j = 2 }"},
                                  {"XAB", "YAB", "ZCB"}, {NULL}, 4,
                                  {{0, 1, "{ [j] : j = 0 }"}, {0, -1, "{ [j] : j = 3 }"}, {1, 2, "{ [j] : j = 1 }"},
                                   {2, 0, "{ [j] : j = 2 }"}},
                                  0, 4,
                                  {{1, 1, "{ [j] : j = 0 }"}, {1, 2, "{ [j] : j = 1 }"}, {1, 0, "{ [j] : j = 2 }"},
                                   {1, -1, "{ [j] : j = 3 }"}}};
    inst_fuprog f;
    build(ctx, &tc, &f);
    TEST_CHECK(inst_merge_suffix(&f, 0, 1, 3, fold) == 2, "tails: XAB and YAB share 2 slots");
    TEST_CHECK(inst_merge_suffix(&f, 2, 0, 3, fold) == 1, "tails: ZCB and XAB share 1 slot");
    TEST_CHECK(inst_merge_prefix(&f, 0, 1, 3, fold) == 0 && inst_merge_prefix(&f, 0, 0, 3, fold) == 3,
               "prefixes: XAB and YAB share none, XAB and itself all 3 slots");
    TEST_CHECK(inst_merge_tail(&f, 0, 1, 2) == 0, "tails: n0 continues in n1");
    TEST_CHECK(inst_merge_tail(&f, 1, 0, 2) == -1, "tails: n1 cannot continue in its own chain");
    TEST_CHECK(inst_merge_tail(&f, 2, 0, 1) == 0, "tails: n2 continues in n0's chain");
    TEST_CHECK(f.k[0].tail_of == 1 && f.k[0].tail_len == 2 && f.k[2].tail_of == 1 && f.k[2].tail_len == 1 &&
                   f.k[1].tail_len == 0,
               "tails: hosts n1 (n0 at slot 1) and n1 (n2 at slot 2, past n0's own words)");
    TEST_CHECK(inst_merge_root(&f, 2) == 1 && inst_merge_root(&f, 0) == 1, "tails: n1 is the root");
    TEST_CHECK(edges_match(ctx, &tc, &f), "tails: every edge leaves from the root, targets unchanged (n2 -> n0 too)");
    TEST_CHECK(same_behaviour(ctx, &tc, &f), "tails: same kernels and successors for every j");
    release(&f);
  }
  /* prefixes: first slots equal, fold distances included */
  {
    inst_fuprog f;
    build(ctx, &cases[3], &f); /* AB / .. / AB with folds 00 00 01 */
    TEST_CHECK(inst_merge_prefix(&f, 0, 2, 2, fold) == 1, "prefixes: AB and AB (B folded differently) share 1 slot");
    TEST_CHECK(inst_merge_prefix(&f, 0, 2, 2, NULL) == 2, "prefixes: without fold distances all 2 slots");
    TEST_CHECK(inst_merge_prefix(&f, 0, 1, 2, fold) == 0, "prefixes: AB and .. share none");
    release(&f);
  }
  /* without fold distances the instructions alone decide */
  {
    inst_fuprog f;
    build(ctx, &cases[3], &f);
    TEST_CHECK(inst_merge_fu(&f, cases[3].ii, NULL) == 1, "fold NULL: instructions alone decide");
    release(&f);
  }
  isl_ctx_free(ctx);
  return test_done();
}
