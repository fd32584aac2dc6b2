/*
 * rdg.h: the reduced dependence graph (RDG) of a program, section 4 of the
 * paper (Witterauf et al., "Symbolic Loop Compilation for TCPAs").
 *
 * rdg_build() lowers every equation to one operation per node: a compound
 * right-hand side such as `c[i,j,k] = c[i,j,k-1] + a[i,j,k] * b[i,j,k]`
 * becomes a temporary internal variable `c.t1[i,j,k] = a[..] * b[..]` and
 * `c[i,j,k] = c[i,j,k-1] + c.t1[i,j,k]`, both under the equation's
 * condition. A right-hand side that is a single operand becomes a MOV.
 * An instruction has one immediate (docs/isa.md): of the literal operands
 * of one operation that differ, all but the first become temporaries
 * defined by a MOV (`3 + 1` is `t = 1; 3 + t`).
 *
 * Nodes (rdg.nodes):
 *  - RDG_NODE_OP: one per (lowered) equation: op, nargs operands, the
 *    variable it defines (or the output it writes), its source equation,
 *    location and condition (the condition space is the iteration space of
 *    `par` intersected with `cond`; poly.h turns it into an isl set).
 *  - RDG_NODE_IN: one per declared input array or scalar.
 *  - RDG_NODE_OUT: one per declared output array or scalar.
 *  - RDG_NODE_CONST: one per distinct literal value used as an operand.
 *
 * Edges (rdg.edges), each from a producer `src` to a consumer `dst`:
 *  - RDG_EDGE_DEP: op -> op. The consumer reads the internal variable the
 *    producer defines, at iteration I - d (d = -offset of the use; d = 0 for
 *    temporaries). An operand that reads a variable with k defining
 *    equations has k edges, one from each, all with the same pos.
 *  - RDG_EDGE_IN: input node -> op; the consumer reads element
 *    idx[0..ndims-1](I) of the input (affine in indices and parameters;
 *    ndims == 0 for a scalar).
 *  - RDG_EDGE_CONST: constant node -> op.
 *  - RDG_EDGE_OUT: op -> output node; the producer writes element
 *    idx[0..ndims-1](I) of the output. pos is -1.
 * pos is the operand position in the consumer, 0-based (the paper's A is 0,
 * B is 1, the third operand of ?: is 2).
 *
 * Each node lists its incoming and outgoing edge ids (in, out); for an op
 * node `in` is ordered by pos. Variables (rdg.vars) are the program's
 * internal variables (same ids as ast_program.vars) followed by the
 * temporaries; each lists the op nodes defining it.
 *
 * The graph copies everything it needs from the program (names, conditions,
 * index functions), so it may outlive the ast_program.
 */
#ifndef TCPA_RDG_H
#define TCPA_RDG_H

#include <stdint.h>
#include <stdio.h>

#include "ast.h"

typedef enum { RDG_NODE_OP, RDG_NODE_IN, RDG_NODE_OUT, RDG_NODE_CONST } rdg_node_kind;

typedef enum { RDG_EDGE_DEP, RDG_EDGE_IN, RDG_EDGE_CONST, RDG_EDGE_OUT } rdg_edge_kind;

typedef struct {
  rdg_node_kind kind;
  /* RDG_NODE_OP */
  ast_op op;
  int nargs;     /* 1, 2 or 3 */
  int var;       /* variable defined (index into rdg.vars), or -1 when the
                    node writes an output (see `array`) */
  int eq;        /* source equation (index into ast_program.eqs) */
  ast_loc loc;   /* the operator in the source (the equation's LHS for MOV) */
  ast_cond cond; /* the equation's condition (owned copy; DNF of ast.h) */
  /* RDG_NODE_OP writing an output, RDG_NODE_IN, RDG_NODE_OUT */
  int array;     /* index into ast_program.arrays, or -1 */
  /* RDG_NODE_CONST */
  int32_t value;
  /* adjacency: edge ids */
  int nin, nout;
  int *in, *out;
} rdg_node;

typedef struct {
  rdg_edge_kind kind;
  int src, dst; /* node ids */
  int pos;      /* operand position in dst (0-based); -1 for RDG_EDGE_OUT */
  int64_t d[AST_MAX_DIMS]; /* DEP: dependence vector (first ndims entries) */
  int array;               /* IN, OUT: the array */
  int ndims;               /* IN, OUT: its rank */
  ast_aff idx[AST_MAX_DIMS]; /* IN, OUT: index function Q I + q, per dimension */
} rdg_edge;

typedef struct {
  char *name;   /* "c" for program variables, "c.t1" for temporaries */
  int is_temp;  /* introduced by lowering a compound expression */
  int ndefs;
  int *defs;    /* op node ids defining it */
} rdg_var;

typedef struct rdg {
  int ndims, nparams; /* of the program */
  int nnodes, nedges, nvars;
  rdg_node *nodes;
  rdg_edge *edges;
  rdg_var *vars;
  int *array_node; /* node id of each ast_program.arrays entry */
} rdg;

/* Returns the RDG of a parsed program (whose names resolve, as parse.h
 * guarantees), or NULL when memory runs out. */
rdg *rdg_build(const ast_program *p);

/* Frees the graph; NULL is allowed. */
void rdg_free(rdg *g);

/* Returns the number of operation nodes. */
int rdg_count_ops(const rdg *g);

/* Returns the id of the constant node with `value`, or -1 if none. */
int rdg_find_const(const rdg *g, int32_t value);

/* Returns the id of the variable named `name` (program or temporary), or -1. */
int rdg_find_var(const rdg *g, const char *name);

/* Writes the graph in Graphviz DOT to `f`, drawn like Figure 3 of the paper:
 * operation nodes as boxes (variable, [op], condition), inputs and outputs
 * as rounded boxes, constants as circles; edges labelled with d or Q and
 * the operand position. `p` supplies the names. Returns 0, or -1 on a write
 * error. */
int rdg_dot_print(const rdg *g, const ast_program *p, FILE *f);

/* Writes the affine expression `a` as text ("i - 1", "N + 2*j", "0") using
 * the program's names into buf; returns buf. */
char *rdg_aff_str(const ast_program *p, const ast_aff *a, char *buf, size_t size);

#endif
