/*
 * rdg.c: builds the reduced dependence graph of a program (rdg.h).
 *
 * Two passes. The first lowers every equation: each operation of its
 * right-hand side becomes an op node, operands first, so that a compound
 * expression turns into a chain of temporaries (`c.t1`, `c.t2`, ...) under
 * the equation's condition; each operand is remembered as a variable use
 * (with its offset), an input read or a constant. The second pass, once
 * every variable knows all of its defining nodes (forward references are
 * allowed), turns each operand into edges: one dependence edge per defining
 * node, or an input or constant edge; nodes writing outputs get an output
 * edge. Finally each node's adjacency lists are filled.
 */
#include "rdg.h"

#include <stdlib.h>
#include <string.h>

/* An operand of an op node, as lowered in the first pass. */
typedef struct {
  enum { RDG_OPND_VAR, RDG_OPND_IN, RDG_OPND_CONST } kind;
  int var;                   /* VAR: rdg variable */
  int64_t off[AST_MAX_DIMS]; /* VAR: offset of the use */
  int array;                 /* IN */
  const ast_aff *idx;        /* IN: the program's index functions */
  int32_t value;             /* CONST */
} rdg_operand;

typedef struct {
  const ast_program *p;
  rdg *g;
  int nodes_cap, edges_cap, vars_cap;
  rdg_operand (*opnd)[3]; /* per node */
  int *temps;             /* per program variable and output: temporaries made */
} rdg_builder;

/* Returns the id of a new zeroed node of kind `k`, or -1. */
static int rdg_node_add(rdg_builder *b, rdg_node_kind k) {
  rdg *g = b->g;
  if (g->nnodes == b->nodes_cap) {
    int cap = b->nodes_cap ? 2 * b->nodes_cap : 16;
    rdg_node *n = realloc(g->nodes, (size_t)cap * sizeof *n);
    if (!n) return -1;
    g->nodes = n;
    rdg_operand (*o)[3] = realloc(b->opnd, (size_t)cap * sizeof *o);
    if (!o) return -1;
    b->opnd = o;
    b->nodes_cap = cap;
  }
  rdg_node *n = &g->nodes[g->nnodes];
  memset(n, 0, sizeof *n);
  memset(b->opnd[g->nnodes], 0, sizeof b->opnd[g->nnodes]);
  n->kind = k;
  n->var = -1;
  n->array = -1;
  n->eq = -1;
  return g->nnodes++;
}

/* Returns the id of a new edge of kind `k` from src to dst, or -1. */
static int rdg_edge_add(rdg_builder *b, rdg_edge_kind k, int src, int dst, int pos) {
  rdg *g = b->g;
  if (g->nedges == b->edges_cap) {
    int cap = b->edges_cap ? 2 * b->edges_cap : 16;
    rdg_edge *e = realloc(g->edges, (size_t)cap * sizeof *e);
    if (!e) return -1;
    g->edges = e;
    b->edges_cap = cap;
  }
  rdg_edge *e = &g->edges[g->nedges];
  memset(e, 0, sizeof *e);
  e->kind = k;
  e->src = src;
  e->dst = dst;
  e->pos = pos;
  e->array = -1;
  return g->nedges++;
}

/* Returns the id of a new variable named `name` (taken over), or -1. */
static int rdg_var_add(rdg_builder *b, char *name, int is_temp) {
  rdg *g = b->g;
  if (!name) return -1;
  if (g->nvars == b->vars_cap) {
    int cap = b->vars_cap ? 2 * b->vars_cap : 16;
    rdg_var *v = realloc(g->vars, (size_t)cap * sizeof *v);
    if (!v) {
      free(name);
      return -1;
    }
    g->vars = v;
    b->vars_cap = cap;
  }
  rdg_var *v = &g->vars[g->nvars];
  memset(v, 0, sizeof *v);
  v->name = name;
  v->is_temp = is_temp;
  return g->nvars++;
}

/* Records node `n` as a definition of variable `v`; returns 0 or -1. */
static int rdg_var_def(rdg *g, int v, int n) {
  rdg_var *var = &g->vars[v];
  int *d = realloc(var->defs, (size_t)(var->ndefs + 1) * sizeof *d);
  if (!d) return -1;
  d[var->ndefs++] = n;
  var->defs = d;
  return 0;
}

/* Returns a deep copy of a condition in *dst; returns 0 or -1. */
static int rdg_cond_copy(ast_cond *dst, const ast_cond *src) {
  dst->n = 0;
  dst->conj = calloc((size_t)(src->n ? src->n : 1), sizeof *dst->conj);
  if (!dst->conj) return -1;
  for (int i = 0; i < src->n; i++) {
    const ast_conj *s = &src->conj[i];
    ast_conj *d = &dst->conj[i];
    d->c = malloc((size_t)(s->n ? s->n : 1) * sizeof *d->c);
    if (!d->c) return -1;
    if (s->n) memcpy(d->c, s->c, (size_t)s->n * sizeof *d->c);
    d->n = s->n;
    dst->n++;
  }
  return 0;
}

/* Returns the id of a new temporary for equation `eq`, named after what
 * the equation defines ("c.t1"), or -1. */
static int rdg_temp_add(rdg_builder *b, int eq) {
  const ast_eq *e = &b->p->eqs[eq];
  const char *base = e->is_out ? b->p->arrays[e->array].name : b->p->vars[e->var].name;
  int slot = e->is_out ? b->p->nvars + e->array : e->var;
  size_t len = strlen(base) + 16;
  char *name = malloc(len);
  if (!name) return -1;
  snprintf(name, len, "%s.t%d", base, ++b->temps[slot]);
  return rdg_var_add(b, name, 1);
}

/* The `var` of rdg_lower() asking for a new temporary, numbered after the
 * temporaries of the operands (so c.t1 is computed before c.t2). */
#define RDG_NEW_TEMP (-2)

static int rdg_lower(rdg_builder *b, int eq, const ast_expr *e, int var, int array);
static int rdg_lower_consts(rdg_builder *b, int eq, rdg_operand *o, int nargs);

/* Lowers an operand expression into *o; an operation becomes a temporary
 * defined by its own node. Returns 0 or -1. */
static int rdg_lower_operand(rdg_builder *b, int eq, const ast_expr *e, rdg_operand *o) {
  memset(o, 0, sizeof *o);
  switch (e->kind) {
  case AST_EXPR_CONST:
    o->kind = RDG_OPND_CONST;
    o->value = e->value;
    return 0;
  case AST_EXPR_VAR:
    o->kind = RDG_OPND_VAR;
    o->var = e->var;
    memcpy(o->off, e->off, sizeof o->off);
    return 0;
  case AST_EXPR_IN:
    o->kind = RDG_OPND_IN;
    o->array = e->array;
    o->idx = e->idx;
    return 0;
  case AST_EXPR_OP: {
    int n = rdg_lower(b, eq, e, RDG_NEW_TEMP, -1);
    if (n < 0) return -1;
    o->kind = RDG_OPND_VAR;
    o->var = b->g->nodes[n].var;
    return 0;
  }
  }
  return -1;
}

/* Returns 0 after making every literal operand of o[0..nargs) whose value
 * differs from an earlier literal operand's a temporary defined by a MOV of
 * it: an instruction has one immediate, shared by all its IMM sources
 * (docs/isa.md), so `3 + 1` is `t = 1; 3 + t`; -1 when out of memory. */
static int rdg_lower_consts(rdg_builder *b, int eq, rdg_operand *o, int nargs) {
  for (int i = 1; i < nargs; i++) {
    if (o[i].kind != RDG_OPND_CONST) continue;
    int clash = 0;
    for (int j = 0; j < i; j++) clash |= o[j].kind == RDG_OPND_CONST && o[j].value != o[i].value;
    if (!clash) continue;
    ast_expr lit;
    memset(&lit, 0, sizeof lit);
    lit.kind = AST_EXPR_CONST;
    lit.value = o[i].value;
    lit.loc = b->p->eqs[eq].loc;
    int n = rdg_lower(b, eq, &lit, RDG_NEW_TEMP, -1);
    if (n < 0) return -1;
    memset(&o[i], 0, sizeof o[i]);
    o[i].kind = RDG_OPND_VAR;
    o[i].var = b->g->nodes[n].var;
  }
  return 0;
}

/* Lowers expression `e` of equation `eq` into an op node defining variable
 * `var` (a new temporary when RDG_NEW_TEMP; none when -1, the node then
 * writes output `array`); returns the node id or -1. */
static int rdg_lower(rdg_builder *b, int eq, const ast_expr *e, int var, int array) {
  rdg_operand o[3];
  int nargs = 1;
  ast_op op = AST_OP_MOV;
  ast_loc loc = b->p->eqs[eq].loc;
  if (e->kind == AST_EXPR_OP) {
    op = e->op;
    nargs = e->nargs;
    loc = e->loc;
    for (int i = 0; i < nargs; i++)
      if (rdg_lower_operand(b, eq, e->arg[i], &o[i])) return -1;
    if (rdg_lower_consts(b, eq, o, nargs)) return -1;
  } else if (rdg_lower_operand(b, eq, e, &o[0])) {
    return -1;
  }
  if (var == RDG_NEW_TEMP && (var = rdg_temp_add(b, eq)) < 0) return -1;
  int n = rdg_node_add(b, RDG_NODE_OP);
  if (n < 0) return -1;
  rdg_node *node = &b->g->nodes[n];
  node->op = op;
  node->nargs = nargs;
  node->var = var;
  node->array = array;
  node->eq = eq;
  node->loc = loc;
  memcpy(b->opnd[n], o, (size_t)nargs * sizeof o[0]);
  if (rdg_cond_copy(&node->cond, &b->p->eqs[eq].cond)) return -1;
  if (var >= 0 && rdg_var_def(b->g, var, n)) return -1;
  return n;
}

int rdg_find_const(const rdg *g, int32_t value) {
  for (int i = 0; i < g->nnodes; i++)
    if (g->nodes[i].kind == RDG_NODE_CONST && g->nodes[i].value == value) return i;
  return -1;
}

int rdg_find_var(const rdg *g, const char *name) {
  for (int i = 0; i < g->nvars; i++)
    if (!strcmp(g->vars[i].name, name)) return i;
  return -1;
}

/* Adds the edges feeding operand `pos` of op node `n`; returns 0 or -1. */
static int rdg_connect_operand(rdg_builder *b, int n, int pos) {
  rdg *g = b->g;
  const rdg_operand *o = &b->opnd[n][pos];
  if (o->kind == RDG_OPND_CONST) {
    int32_t value = o->value; /* rdg_node_add may move b->opnd */
    int c = rdg_find_const(g, value);
    if (c < 0) {
      if ((c = rdg_node_add(b, RDG_NODE_CONST)) < 0) return -1;
      g->nodes[c].value = value;
    }
    return rdg_edge_add(b, RDG_EDGE_CONST, c, n, pos) < 0 ? -1 : 0;
  }
  if (o->kind == RDG_OPND_IN) {
    const ast_array *a = &b->p->arrays[o->array];
    int e = rdg_edge_add(b, RDG_EDGE_IN, g->array_node[o->array], n, pos);
    if (e < 0) return -1;
    g->edges[e].array = o->array;
    g->edges[e].ndims = a->ndims;
    memcpy(g->edges[e].idx, o->idx, (size_t)a->ndims * sizeof(ast_aff));
    return 0;
  }
  const rdg_var *v = &g->vars[o->var];
  for (int k = 0; k < v->ndefs; k++) {
    int e = rdg_edge_add(b, RDG_EDGE_DEP, v->defs[k], n, pos);
    if (e < 0) return -1;
    for (int d = 0; d < AST_MAX_DIMS; d++) g->edges[e].d[d] = -o->off[d];
  }
  return 0;
}

/* Adds every edge of the graph (second pass); returns 0 or -1. */
static int rdg_connect(rdg_builder *b) {
  rdg *g = b->g;
  int nops = g->nnodes; /* constant nodes are appended behind */
  for (int n = 0; n < nops; n++) {
    if (g->nodes[n].kind != RDG_NODE_OP) continue;
    for (int pos = 0; pos < g->nodes[n].nargs; pos++)
      if (rdg_connect_operand(b, n, pos)) return -1;
    int a = g->nodes[n].array;
    if (a >= 0) {
      int e = rdg_edge_add(b, RDG_EDGE_OUT, n, g->array_node[a], -1);
      if (e < 0) return -1;
      const ast_eq *eq = &b->p->eqs[g->nodes[n].eq];
      g->edges[e].array = a;
      g->edges[e].ndims = b->p->arrays[a].ndims;
      memcpy(g->edges[e].idx, eq->idx, sizeof eq->idx);
    }
  }
  return 0;
}

/* Sorts a node's incoming edge ids by operand position (stable: insertion
 * sort, the lists hold a handful of edges). */
static void rdg_sort_by_pos(const rdg *g, int *ids, int n) {
  for (int i = 1; i < n; i++) {
    int x = ids[i], j = i;
    for (; j > 0 && g->edges[ids[j - 1]].pos > g->edges[x].pos; j--) ids[j] = ids[j - 1];
    ids[j] = x;
  }
}

/* Fills each node's in and out edge lists; returns 0 or -1. */
static int rdg_adjacency(rdg *g) {
  for (int i = 0; i < g->nedges; i++) {
    g->nodes[g->edges[i].src].nout++;
    g->nodes[g->edges[i].dst].nin++;
  }
  for (int i = 0; i < g->nnodes; i++) {
    rdg_node *n = &g->nodes[i];
    n->in = malloc((size_t)(n->nin ? n->nin : 1) * sizeof(int));
    n->out = malloc((size_t)(n->nout ? n->nout : 1) * sizeof(int));
    if (!n->in || !n->out) return -1;
    n->nin = n->nout = 0;
  }
  for (int i = 0; i < g->nedges; i++) {
    rdg_node *s = &g->nodes[g->edges[i].src], *d = &g->nodes[g->edges[i].dst];
    s->out[s->nout++] = i;
    d->in[d->nin++] = i;
  }
  for (int i = 0; i < g->nnodes; i++) rdg_sort_by_pos(g, g->nodes[i].in, g->nodes[i].nin);
  return 0;
}

rdg *rdg_build(const ast_program *p) {
  rdg_builder b;
  memset(&b, 0, sizeof b);
  b.p = p;
  b.g = calloc(1, sizeof *b.g);
  if (!b.g) return NULL;
  rdg *g = b.g;
  g->ndims = p->ndims;
  g->nparams = p->nparams;
  g->array_node = malloc((size_t)(p->narrays ? p->narrays : 1) * sizeof(int));
  b.temps = calloc((size_t)(p->nvars + p->narrays + 1), sizeof(int));
  if (!g->array_node || !b.temps) goto error;
  for (int a = 0; a < p->narrays; a++) {
    int n = rdg_node_add(&b, p->arrays[a].kind == AST_ARRAY_IN ? RDG_NODE_IN : RDG_NODE_OUT);
    if (n < 0) goto error;
    g->nodes[n].array = a;
    g->array_node[a] = n;
  }
  for (int v = 0; v < p->nvars; v++)
    if (rdg_var_add(&b, strdup(p->vars[v].name), 0) < 0) goto error;
  for (int i = 0; i < p->neqs; i++) {
    const ast_eq *eq = &p->eqs[i];
    if (rdg_lower(&b, i, eq->rhs, eq->is_out ? -1 : eq->var, eq->is_out ? eq->array : -1) < 0) goto error;
  }
  if (rdg_connect(&b) || rdg_adjacency(g)) goto error;
  free(b.opnd);
  free(b.temps);
  return g;
error:
  free(b.opnd);
  free(b.temps);
  rdg_free(g);
  return NULL;
}

void rdg_free(rdg *g) {
  if (!g) return;
  for (int i = 0; i < g->nnodes; i++) {
    rdg_node *n = &g->nodes[i];
    for (int c = 0; c < n->cond.n; c++) free(n->cond.conj[c].c);
    free(n->cond.conj);
    free(n->in);
    free(n->out);
  }
  for (int i = 0; i < g->nvars; i++) {
    free(g->vars[i].name);
    free(g->vars[i].defs);
  }
  free(g->nodes);
  free(g->edges);
  free(g->vars);
  free(g->array_node);
  free(g);
}

int rdg_count_ops(const rdg *g) {
  int n = 0;
  for (int i = 0; i < g->nnodes; i++) n += g->nodes[i].kind == RDG_NODE_OP;
  return n;
}
