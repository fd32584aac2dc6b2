/* covers: docs/language.md "A first program",
 *   docs/symbolic.md "What each step computes" */
/*
 * test_rdg.c: tests of the reduced dependence graph (rdg.h) on the two
 * examples of docs/language.md and on lowering cases: node and edge counts,
 * dependence vectors, operand positions, index functions, temporaries,
 * constant sharing, adjacency lists and the DOT text.
 */
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "rdg.h"
#include "spec_examples.h"
#include "test.h"

static const char *bits_src =
    SPEC_BITEXTRACT_SRC;

static const char *matmul_src =
    SPEC_MATMUL_SRC;

/* Returns how many nodes of kind k the graph has. */
static int count_nodes(const rdg *g, rdg_node_kind k) {
  int n = 0;
  for (int i = 0; i < g->nnodes; i++) n += g->nodes[i].kind == k;
  return n;
}

/* Returns how many edges of kind k the graph has. */
static int count_edges(const rdg *g, rdg_edge_kind k) {
  int n = 0;
  for (int i = 0; i < g->nedges; i++) n += g->edges[i].kind == k;
  return n;
}

/* Returns the op node of equation `eq` defining rdg variable `var`, or -1. */
static int op_node(const rdg *g, int eq, int var) {
  for (int i = 0; i < g->nnodes; i++)
    if (g->nodes[i].kind == RDG_NODE_OP && g->nodes[i].eq == eq && g->nodes[i].var == var) return i;
  return -1;
}

/* Returns the first edge from src to dst, or -1. */
static int edge_between(const rdg *g, int src, int dst) {
  for (int i = 0; i < g->nedges; i++)
    if (g->edges[i].src == src && g->edges[i].dst == dst) return i;
  return -1;
}

static void test_bitextract(void) {
  ast_program *p = parse_string("bits.pla", bits_src);
  rdg *g = p ? rdg_build(p) : NULL;
  TEST_CHECK(g != NULL, "bitextract: RDG built");
  if (!g) {
    ast_program_free(p);
    return;
  }
  TEST_CHECK(count_nodes(g, RDG_NODE_OP) == 4 && rdg_count_ops(g) == 4, "4 op nodes");
  TEST_CHECK(count_nodes(g, RDG_NODE_IN) == 1 && count_nodes(g, RDG_NODE_OUT) == 1, "1 input, 1 output node");
  TEST_CHECK(count_nodes(g, RDG_NODE_CONST) == 1 && rdg_find_const(g, 1) >= 0, "one constant node, value 1");
  int x = rdg_find_var(g, "x"), y = rdg_find_var(g, "y");
  TEST_CHECK(x == 0 && y == 1 && g->vars[x].ndefs == 2 && g->vars[y].ndefs == 1, "x has 2 definitions, y 1");
  int s1 = op_node(g, 0, x), s2 = op_node(g, 1, x), s3 = op_node(g, 2, y), s4 = op_node(g, 3, -1);
  TEST_CHECK(s1 >= 0 && s2 >= 0 && s3 >= 0 && s4 >= 0, "one op node per equation");
  if (s1 < 0 || s2 < 0 || s3 < 0 || s4 < 0) goto done;
  TEST_CHECK(g->nodes[s1].op == AST_OP_MOV && g->nodes[s2].op == AST_OP_MOV && g->nodes[s3].op == AST_OP_SHR &&
                 g->nodes[s4].op == AST_OP_AND,
             "ops: mov mov >> &");
  int e = edge_between(g, s3, s2);
  TEST_CHECK(e >= 0 && g->edges[e].kind == RDG_EDGE_DEP && g->edges[e].d[0] == 1 && g->edges[e].pos == 0,
             "dependence edge S3 -> S2 with d = (1), operand A");
  e = edge_between(g, s1, s3);
  TEST_CHECK(e >= 0 && g->edges[e].d[0] == 0 && edge_between(g, s2, s3) >= 0, "S1 and S2 both feed S3 with d = 0");
  TEST_CHECK(edge_between(g, s1, s4) >= 0 && edge_between(g, s2, s4) >= 0, "S1 and S2 both feed S4");
  int c1 = rdg_find_const(g, 1);
  e = edge_between(g, c1, s3);
  TEST_CHECK(e >= 0 && g->edges[e].kind == RDG_EDGE_CONST && g->edges[e].pos == 1, "constant 1 is operand B of S3");
  TEST_CHECK(edge_between(g, c1, s4) >= 0, "the same constant node feeds S4");
  e = edge_between(g, g->array_node[0], s1);
  TEST_CHECK(e >= 0 && g->edges[e].kind == RDG_EDGE_IN && g->edges[e].ndims == 0, "input edge v -> S1, scalar");
  e = edge_between(g, s4, g->array_node[1]);
  TEST_CHECK(e >= 0 && g->edges[e].kind == RDG_EDGE_OUT && g->edges[e].ndims == 1 && g->edges[e].idx[0].index[0] == 1 &&
                 g->edges[e].idx[0].konst == 0,
             "output edge S4 -> bits with Q = (i)");
  TEST_CHECK(count_edges(g, RDG_EDGE_DEP) == 5 && count_edges(g, RDG_EDGE_IN) == 1 &&
                 count_edges(g, RDG_EDGE_CONST) == 2 && count_edges(g, RDG_EDGE_OUT) == 1,
             "edges: 5 dependence, 1 input, 2 constant, 1 output");
  TEST_CHECK(g->nodes[s3].nin == 3 && g->edges[g->nodes[s3].in[0]].pos == 0 && g->edges[g->nodes[s3].in[2]].pos == 1,
             "S3 in-list ordered by operand position");
  TEST_CHECK(g->nodes[s1].nout == 2, "S1 feeds two nodes");
  TEST_CHECK(g->nodes[s2].cond.n == 1 && g->nodes[s2].cond.conj[0].n == 1 &&
                 g->nodes[s2].cond.conj[0].c[0].aff.konst == -1,
             "S2 keeps its condition i - 1 >= 0");
  TEST_CHECK(g->nodes[s2].loc.line == 6, "S2 keeps its location");
  /* DOT */
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  TEST_CHECK(rdg_dot_print(g, p, f) == 0, "DOT written");
  fclose(f);
  TEST_CHECK(text && strstr(text, "digraph \"bitextract\"") && strstr(text, "[>>]") && strstr(text, "i >= 1") &&
                 strstr(text, "d=(1)") && strstr(text, "shape=circle, label=\"1\"") && strstr(text, "Q=(i)"),
             "DOT has the op, the condition, d, the constant and Q");
  free(text);
done:
  rdg_free(g);
  ast_program_free(p);
}

static void test_matmul(void) {
  ast_program *p = parse_string("matmul.pla", matmul_src);
  rdg *g = p ? rdg_build(p) : NULL;
  TEST_CHECK(g != NULL, "matmul: RDG built");
  if (!g) {
    ast_program_free(p);
    return;
  }
  TEST_CHECK(rdg_count_ops(g) == 8, "8 op nodes (7 equations, c = c + a*b lowered to 2), got %d", rdg_count_ops(g));
  int t = rdg_find_var(g, "c.t1"), c = rdg_find_var(g, "c");
  TEST_CHECK(t >= 0 && g->vars[t].is_temp && g->vars[t].ndefs == 1, "temporary c.t1 with one definition");
  if (t < 0 || c < 0) goto done;
  int mul = g->vars[t].defs[0];
  int add = op_node(g, 5, c);
  TEST_CHECK(g->nodes[mul].op == AST_OP_MUL && g->nodes[mul].eq == 5, "c.t1 = a * b, from equation 6");
  TEST_CHECK(add >= 0 && g->nodes[add].op == AST_OP_ADD, "c = c + c.t1");
  if (add < 0) goto done;
  int e = edge_between(g, mul, add);
  TEST_CHECK(e >= 0 && g->edges[e].pos == 1 && g->edges[e].d[0] == 0 && g->edges[e].d[2] == 0,
             "c.t1 feeds operand B of the add with d = 0");
  int self = edge_between(g, add, add);
  TEST_CHECK(self >= 0 && g->edges[self].d[2] == 1 && g->edges[self].d[0] == 0 && g->edges[self].pos == 0,
             "c[i,j,k-1] gives a self edge with d = (0,0,1)");
  int s5 = op_node(g, 4, c);
  e = s5 >= 0 ? edge_between(g, s5, add) : -1;
  TEST_CHECK(e >= 0 && g->edges[e].d[2] == 1, "c from equation 5 also feeds the add with d = (0,0,1)");
  TEST_CHECK(g->nodes[mul].cond.n == 1 && g->nodes[mul].cond.conj[0].c[0].aff.index[2] == 1 &&
                 g->nodes[mul].cond.conj[0].c[0].aff.konst == -1,
             "the temporary has its equation's condition k >= 1");
  int a0 = op_node(g, 0, rdg_find_var(g, "a"));
  e = a0 >= 0 ? edge_between(g, g->array_node[0], a0) : -1;
  TEST_CHECK(e >= 0 && g->edges[e].ndims == 2 && g->edges[e].idx[0].index[0] == 1 && g->edges[e].idx[1].index[2] == 1,
             "input edge A -> a with Q = (i, k)");
  int out = op_node(g, 6, -1);
  e = out >= 0 ? edge_between(g, out, g->array_node[2]) : -1;
  TEST_CHECK(e >= 0 && g->edges[e].kind == RDG_EDGE_OUT && g->edges[e].idx[1].index[1] == 1, "output edge to C with Q = (i, j)");
  TEST_CHECK(count_nodes(g, RDG_NODE_CONST) == 0, "no constants");
done:
  rdg_free(g);
  ast_program_free(p);
}

static void test_lowering(void) {
  ast_program *p = parse_string("l.pla",
                                "program l(N) { in int32 A[N]; out int32 B[N];"
                                " par (0 <= i < N) {"
                                "  x[i] = 7;"
                                "  B[i] = (A[i] + 1) * (x[i] - 7) ? -x[i] : min(A[i], 1); } }");
  rdg *g = p ? rdg_build(p) : NULL;
  TEST_CHECK(g != NULL, "lowering: RDG built");
  if (!g) {
    ast_program_free(p);
    return;
  }
  /* x = 7 (mov); B.t1 = A+1, B.t2 = x-7, B.t3 = t1*t2, B.t4 = -x, B.t5 = min, B = sel */
  TEST_CHECK(rdg_count_ops(g) == 7, "7 op nodes, got %d", rdg_count_ops(g));
  TEST_CHECK(count_nodes(g, RDG_NODE_CONST) == 2 && rdg_find_const(g, 7) >= 0 && rdg_find_const(g, 1) >= 0,
             "constants 7 and 1, shared");
  int sel = op_node(g, 1, -1);
  TEST_CHECK(sel >= 0 && g->nodes[sel].op == AST_OP_SEL && g->nodes[sel].nargs == 3 && g->nodes[sel].nin == 3 &&
                 g->nodes[sel].array == 1,
             "the equation's node is the ?: writing B, with 3 operands");
  TEST_CHECK(rdg_find_var(g, "B.t5") >= 0 && rdg_find_var(g, "B.t6") < 0, "temporaries B.t1 .. B.t5");
  int t3 = rdg_find_var(g, "B.t3");
  TEST_CHECK(t3 >= 0 && g->nodes[g->vars[t3].defs[0]].op == AST_OP_MUL, "B.t3 is the product");
  int mov = op_node(g, 0, rdg_find_var(g, "x"));
  TEST_CHECK(mov >= 0 && g->nodes[mov].op == AST_OP_MOV && g->nodes[mov].nin == 1 &&
                 g->edges[g->nodes[mov].in[0]].kind == RDG_EDGE_CONST,
             "x = 7 is a mov fed by a constant edge");
  TEST_CHECK(mov >= 0 && g->nodes[mov].nout == 2, "x feeds two temporaries");
  rdg_free(g);
  ast_program_free(p);
}

int main(void) {
  test_bitextract();
  test_matmul();
  test_lowering();
  return test_done();
}
