/*
 * rdg_dot.c: writes a reduced dependence graph in Graphviz DOT (rdg.h),
 * drawn like Figure 3 of the paper. Operation nodes are boxes labelled with
 * the variable they define (or the output they write), the operation in
 * brackets and the equation's condition; input and output nodes are rounded
 * boxes; constants are circles. Dependence edges carry d (when not 0) and
 * the operand position (A, B, C); input and output edges carry the index
 * function Q. Affine expressions are printed with the program's names.
 */
#include <stdio.h>
#include <string.h>

#include "rdg.h"

/* Appends formatted text to buf (size bytes) at *len, truncating safely. */
static void rdg_dot_append(char *buf, size_t size, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#include <stdarg.h>
static void rdg_dot_append(char *buf, size_t size, size_t *len, const char *fmt, ...) {
  if (*len >= size) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf + *len, size - *len, fmt, ap);
  va_end(ap);
  if (n > 0) *len += (size_t)n;
  if (*len >= size) *len = size - 1;
}

/* Appends `coef*name` as a term of a sum to buf; `first` says whether it
 * starts the sum. */
static void rdg_dot_term(char *buf, size_t size, size_t *len, int64_t coef, const char *name, int *first) {
  if (!coef) return;
  int neg = coef < 0;
  int64_t mag = neg ? -coef : coef;
  if (*first)
    rdg_dot_append(buf, size, len, "%s", neg ? "-" : "");
  else
    rdg_dot_append(buf, size, len, " %s ", neg ? "-" : "+");
  if (name && mag == 1)
    rdg_dot_append(buf, size, len, "%s", name);
  else if (name)
    rdg_dot_append(buf, size, len, "%lld*%s", (long long)mag, name);
  else
    rdg_dot_append(buf, size, len, "%lld", (long long)mag);
  *first = 0;
}

char *rdg_aff_str(const ast_program *p, const ast_aff *a, char *buf, size_t size) {
  size_t len = 0;
  int first = 1;
  buf[0] = 0;
  for (int d = 0; d < p->ndims; d++) rdg_dot_term(buf, size, &len, a->index[d], p->index[d], &first);
  for (int k = 0; k < p->nparams; k++) rdg_dot_term(buf, size, &len, a->param[k], p->param[k], &first);
  rdg_dot_term(buf, size, &len, a->konst, NULL, &first);
  if (first) rdg_dot_append(buf, size, &len, "0");
  return buf;
}

/* Appends one constraint, written `i >= E`, `i <= E` or `i == E` when a
 * single index has coefficient +-1, else `AFF >= 0` / `AFF == 0`. */
static void rdg_dot_constraint(const ast_program *p, const ast_constraint *c, char *buf, size_t size, size_t *len) {
  int idx = -1, nidx = 0;
  for (int d = 0; d < p->ndims; d++)
    if (c->aff.index[d]) {
      nidx++;
      idx = d;
    }
  char s[256];
  if (nidx == 1 && (c->aff.index[idx] == 1 || c->aff.index[idx] == -1)) {
    ast_aff rest = c->aff;
    int64_t sign = c->aff.index[idx];
    rest.index[idx] = 0;
    if (sign == 1) { /* i + rest >= 0: i >= -rest */
      for (int k = 0; k < AST_MAX_PARAMS; k++) rest.param[k] = -rest.param[k];
      rest.konst = -rest.konst;
    }
    rdg_dot_append(buf, size, len, "%s %s %s", p->index[idx], c->is_eq ? "==" : sign == 1 ? ">=" : "<=",
                   rdg_aff_str(p, &rest, s, sizeof s));
    return;
  }
  rdg_dot_append(buf, size, len, "%s %s 0", rdg_aff_str(p, &c->aff, s, sizeof s), c->is_eq ? "==" : ">=");
}

/* Writes the condition of an op node into buf (`and`, `or`). */
static void rdg_dot_cond(const ast_program *p, const ast_cond *c, char *buf, size_t size) {
  size_t len = 0;
  buf[0] = 0;
  if (c->n == 1 && c->conj[0].n == 0) {
    rdg_dot_append(buf, size, &len, "all of par");
    return;
  }
  for (int i = 0; i < c->n; i++) {
    if (i) rdg_dot_append(buf, size, &len, " or ");
    if (c->n > 1 && c->conj[i].n > 1) rdg_dot_append(buf, size, &len, "(");
    for (int k = 0; k < c->conj[i].n; k++) {
      if (k) rdg_dot_append(buf, size, &len, " and ");
      rdg_dot_constraint(p, &c->conj[i].c[k], buf, size, &len);
    }
    if (c->n > 1 && c->conj[i].n > 1) rdg_dot_append(buf, size, &len, ")");
  }
}

/* Writes the index function of an input or output edge: `Q=(i, k)`. */
static void rdg_dot_q(const ast_program *p, const rdg_edge *e, char *buf, size_t size) {
  size_t len = 0;
  char s[256];
  rdg_dot_append(buf, size, &len, "Q=(");
  for (int d = 0; d < e->ndims; d++)
    rdg_dot_append(buf, size, &len, "%s%s", d ? ", " : "", rdg_aff_str(p, &e->idx[d], s, sizeof s));
  rdg_dot_append(buf, size, &len, ")");
}

/* Writes one node statement. */
static void rdg_dot_node(const rdg *g, const ast_program *p, int i, FILE *f) {
  const rdg_node *n = &g->nodes[i];
  char cond[1024];
  switch (n->kind) {
  case RDG_NODE_IN:
  case RDG_NODE_OUT:
    fprintf(f, "  n%d [shape=box, style=rounded, label=\"%s\\n[%s]\"];\n", i, p->arrays[n->array].name,
            n->kind == RDG_NODE_IN ? "input" : "output");
    break;
  case RDG_NODE_CONST:
    fprintf(f, "  n%d [shape=circle, label=\"%d\"];\n", i, (int)n->value);
    break;
  case RDG_NODE_OP:
    rdg_dot_cond(p, &n->cond, cond, sizeof cond);
    fprintf(f, "  n%d [shape=box, label=\"S%d: %s\\n[%s]\\n%s\"];\n", i, n->eq + 1,
            n->var >= 0 ? g->vars[n->var].name : p->arrays[n->array].name, ast_op_name(n->op), cond);
    break;
  }
}

/* Writes one edge statement. */
static void rdg_dot_edge(const rdg *g, const ast_program *p, int i, FILE *f) {
  const rdg_edge *e = &g->edges[i];
  char label[512] = "";
  size_t len = 0;
  if (e->kind == RDG_EDGE_DEP) {
    int nonzero = 0;
    for (int d = 0; d < g->ndims; d++) nonzero |= e->d[d] != 0;
    if (nonzero) {
      rdg_dot_append(label, sizeof label, &len, "d=(");
      for (int d = 0; d < g->ndims; d++)
        rdg_dot_append(label, sizeof label, &len, "%s%lld", d ? ", " : "", (long long)e->d[d]);
      rdg_dot_append(label, sizeof label, &len, ")\\n");
    }
  } else if (e->kind == RDG_EDGE_IN || e->kind == RDG_EDGE_OUT) {
    rdg_dot_q(p, e, label + len, sizeof label - len);
    len = strlen(label);
    rdg_dot_append(label, sizeof label, &len, "\\n");
  }
  if (e->pos >= 0) rdg_dot_append(label, sizeof label, &len, "%c", 'A' + e->pos);
  else if (len >= 2) label[len - 2] = 0; /* drop the trailing \n */
  fprintf(f, "  n%d -> n%d [label=\"%s\"%s];\n", e->src, e->dst, label,
          e->kind == RDG_EDGE_DEP ? "" : ", style=bold");
}

int rdg_dot_print(const rdg *g, const ast_program *p, FILE *f) {
  fprintf(f, "// reduced dependence graph of %s (%s)\n", p->name, p->file);
  fprintf(f, "digraph \"%s\" {\n  node [fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\"];\n", p->name);
  for (int i = 0; i < g->nnodes; i++) rdg_dot_node(g, p, i, f);
  for (int i = 0; i < g->nedges; i++) rdg_dot_edge(g, p, i, f);
  fputs("}\n", f);
  return ferror(f) ? -1 : 0;
}
