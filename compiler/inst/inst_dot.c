/*
 * inst_dot.c: the picture of an instantiation (docs/instantiate.md
 * "Pictures"): a Graphviz digraph with one cluster per processor class
 * (its PEs as an isl set in the label), inside it one cluster per FU that
 * has instructions, and inside that the FU's CFG (Algorithm 3): one box
 * per kernel class (its set Q over J, its first word, the control
 * signals it branches on), an ellipse `halt`, and one edge per CFG edge
 * labelled with the signal indices that take it and its transition space
 * T. Node names are c<class>_<fu>_q<node> so that every class's CFG is a
 * graph of its own. `tcpa instantiate --dot F` writes it (and renders it
 * with Graphviz's `dot` when F ends in .svg or .png).
 */
#include <stdlib.h>

#include "inst.h"

/* Writes s to f as the inside of a DOT string: quotes and backslashes
 * escaped, newlines as \n. */
static void inst_dot_text(FILE *f, const char *s) {
  for (; s && *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    if (*s == '\n') fputs("\\n", f);
    else fputc(*s, f);
  }
}

/* Writes isl set q to f as DOT string text ("?" when it cannot be
 * printed). */
static void inst_dot_set(FILE *f, isl_set *q) {
  char *t = inst_set_str(q);
  inst_dot_text(f, t ? t : "?");
  free(t);
}

/* Writes the CFG of FU program fp of processor class c to f: a cluster. */
static void inst_dot_fu(const inst *x, int c, const inst_fuprog *fp, FILE *f) {
  char fu[16];
  isa_fu_format(&x->arch, fp->fu, fu, sizeof fu);
  fprintf(f, "    subgraph cluster_c%d_%s {\n      label=\"%s: %d kernel classes, %d words\";\n", c, fu, fu, fp->nk,
          fp->nwords);
  int halt = 0;
  for (int v = 0; v < fp->nk; v++) {
    fprintf(f, "      c%d_%s_q%d [shape=box, label=\"q%d (word %d)\\n", c, fu, v, v, fp->k[v].pc);
    inst_dot_set(f, fp->k[v].q);
    if (fp->k[v].nsig) {
      fputs("\\nsignals", f);
      for (int b = fp->k[v].nsig - 1; b >= 0; b--) fprintf(f, " c%d", fp->k[v].sig[b]);
    }
    fputs("\"];\n", f);
  }
  for (int v = 0; v < fp->nk; v++)
    for (int e = 0, i = 0; e < fp->ne; e++) {
      if (fp->e[e].from != v) continue;
      if (fp->e[e].to >= 0) fprintf(f, "      c%d_%s_q%d -> c%d_%s_q%d [label=\"", c, fu, v, c, fu, fp->e[e].to);
      else {
        fprintf(f, "      c%d_%s_q%d -> c%d_%s_halt [label=\"", c, fu, v, c, fu);
        halt = 1;
      }
      if (fp->k[v].nsig) {
        fputs("index", f);
        for (int s = 0, sep = ' '; s < 1 << fp->k[v].nsig; s++)
          if (fp->k[v].tgt[s] == i) {
            fprintf(f, "%c%d", sep, s);
            sep = ',';
          }
        fputs("\\n", f);
      }
      fputs("after ", f);
      inst_dot_set(f, fp->e[e].t);
      fputs("\"];\n", f);
      i++;
    }
  if (halt) fprintf(f, "      c%d_%s_halt [shape=ellipse, label=\"halt\"];\n", c, fu);
  fputs("    }\n", f);
}

/* Writes the picture of x to f (a Graphviz digraph). */
void inst_dot(const inst *x, FILE *f) {
  const map_config *m = x->m;
  fprintf(f, "digraph tcpa_instantiation {\n  label=\"");
  inst_dot_text(f, m->name);
  for (int k = 0; k < m->nparams; k++) fprintf(f, " %s=%lld", m->param_name[k], (long long)x->params[k]);
  fprintf(f, " on a %dx%d region: %d processor classes, II %d\";\n  labelloc=t;\n  fontname=\"monospace\";\n"
             "  node [fontname=\"monospace\", fontsize=10];\n  edge [fontname=\"monospace\", fontsize=9];\n",
          x->rows, x->cols, x->npc, m->ii);
  for (int c = 0; c < x->npc; c++) {
    fprintf(f, "  subgraph cluster_c%d {\n    label=\"processor class %d: PEs ", c, c);
    inst_dot_set(f, x->pc[c].pes);
    fputs("\";\n", f);
    int any = 0;
    for (int u = 0; u < x->nfu; u++)
      if (!x->pc[c].fp[u].empty) {
        inst_dot_fu(x, c, &x->pc[c].fp[u], f);
        any = 1;
      }
    if (!any) fprintf(f, "    c%d_idle [shape=plaintext, label=\"no instructions\"];\n", c);
    fputs("  }\n", f);
  }
  fputs("}\n", f);
}
