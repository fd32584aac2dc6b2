/*
 * inst_listing.c: the human-readable listing of an instantiation
 * (docs/instantiate.md): the concrete schedule, the processor classes, and
 * per class and FU the kernel classes, the CFG with transition spaces and
 * signals, and the program in assembly (isa_insn_format, one word a line,
 * `qN:` before the first word of each kernel, `pro:` before the prolog's);
 * then the global signals and the I/O placement.
 */
#include <stdlib.h>

#include "inst.h"

/* Prints an isl set (or "{ }") to f. */
static void inst_lst_set(FILE *f, isl_set *s) {
  char *t = inst_set_str(s);
  fputs(t ? t : "?", f);
  free(t);
}

/* Returns 1 when processor classes c and d have the same parts of signal
 * g (NULL: none). */
static int inst_lst_same(const inst_signal *g, int c, int d) {
  for (int z = 0; z < 2; z++) {
    isl_set *a = z ? g->zeros[c] : g->ones[c], *b = z ? g->zeros[d] : g->ones[d];
    if (!a || !b) {
      if (a || b) return 0;
    } else if (isl_set_is_equal(a, b) != isl_bool_true) {
      return 0;
    }
  }
  return 1;
}

/* Writes signal s as `cS = 1 on {..}, 0 on {..}` once for every set of
 * processor classes with the same parts (inst_signals.c), followed by
 * `on processor classes ...` when those are not all the classes. */
static void inst_lst_signal(const inst *x, int s, FILE *f) {
  const inst_signal *g = &x->sig[s];
  if (!x->sig_by_class) { /* one function of J on every PE: the union */
    isl_set *o = NULL, *z = NULL;
    for (int c = 0; c < x->npc; c++) {
      if (!g->ones[c]) continue;
      o = o ? isl_set_union(o, isl_set_copy(g->ones[c])) : isl_set_copy(g->ones[c]);
      z = z ? isl_set_union(z, isl_set_copy(g->zeros[c])) : isl_set_copy(g->zeros[c]);
    }
    o = isl_set_coalesce(o);
    z = isl_set_coalesce(z);
    fprintf(f, "  c%d = 1 on ", s);
    inst_lst_set(f, o);
    fprintf(f, ", 0 on ");
    inst_lst_set(f, z);
    if (x->prolog_loop && s == x->prolog_sig) fprintf(f, " (the prolog loop's, over GC steps)");
    fputc('\n', f);
    isl_set_free(o);
    isl_set_free(z);
    return;
  }
  for (int c = 0; c < x->npc; c++) {
    int first = 1, all = 1;
    for (int d = 0; d < c && first; d++) first = !inst_lst_same(g, c, d);
    if (!first || !g->ones[c]) continue;
    for (int d = 0; d < x->npc && all; d++) all = inst_lst_same(g, c, d);
    fprintf(f, "  c%d = 1 on ", s);
    inst_lst_set(f, g->ones[c]);
    fprintf(f, ", 0 on ");
    inst_lst_set(f, g->zeros[c]);
    if (x->prolog_loop && s == x->prolog_sig) fprintf(f, " (the prolog loop's, over GC steps)");
    fputc('\n', f);
    if (all) continue;
    fprintf(f, "    on processor classes");
    for (int d = c, n = 0; d < x->npc; d++)
      if (inst_lst_same(g, c, d)) fprintf(f, "%s %d", n++ ? "," : "", d);
    fputc('\n', f);
  }
}

/* Prints, for access a of a 1-D region placed per PE (inst_io.c: banks on
 * several border sides), its bank on each run of PEs: `; banks: PEs 0..0
 * north 1, PEs 1..3 south 0`. */
static void inst_lst_banks(const inst *x, int a, FILE *f) {
  static const char *sides[] = {"north", "east", "south", "west"};
  const inst_io *io = &x->io[a];
  const char *sep = "; banks:";
  for (int k0 = 0, k1; k0 < x->t; k0 = k1) {
    for (k1 = k0 + 1; k1 < x->t && io->pside[k1] == io->pside[k0] && io->pbank[k1] == io->pbank[k0]; k1++) {
    }
    if (io->pside[k0] < 0) continue;
    fprintf(f, "%s PEs %d..%d %s %d", sep, k0, k1 - 1, sides[io->pside[k0]], io->pbank[k0]);
    sep = ",";
  }
}

/* Prints the CFG and program of FU program fp to f. */
static void inst_lst_fu(const inst *x, const inst_fuprog *fp, FILE *f) {
  char fu[16];
  isa_fu_format(&x->arch, fp->fu, fu, sizeof fu);
  if (fp->empty) {
    fprintf(f, "    %s: no instructions\n", fu);
    return;
  }
  fprintf(f, "    %s: %d kernel classes, epilog %lld, %d words (unreduced: %d kernel classes, %d words)\n", fu,
          fp->nk, (long long)fp->epilog, fp->nwords, fp->nk_orig, fp->nwords_orig);
  for (int v = 0; v < fp->nk; v++) {
    fprintf(f, "      q%d = ", v);
    inst_lst_set(f, fp->k[v].q);
    if (fp->k[v].nsig) {
      fprintf(f, "  signals");
      for (int b = fp->k[v].nsig - 1; b >= 0; b--) fprintf(f, " c%d", fp->k[v].sig[b]);
    }
    fputc('\n', f);
    if (fp->k[v].pre_len > 0)
      fprintf(f, "        shares its first %d slots: runs q%d's words, branching on c%d\n", fp->k[v].pre_len,
              fp->k[v].pre_of, fp->k[v].pre_sig);
    if (fp->k[v].tail_len > 0)
      fprintf(f, "        shares its last %d slots: continues in q%d at slot %d\n", fp->k[v].tail_len,
              fp->k[v].tail_of, x->m->ii - fp->k[v].tail_len);
    int i = 0;
    for (int e = 0; e < fp->ne; e++) {
      if (fp->e[e].from != v) continue;
      if (fp->e[e].to >= 0) fprintf(f, "        -> q%d", fp->e[e].to);
      else fprintf(f, "        -> halt");
      if (fp->k[v].nsig) {
        fprintf(f, " (index");
        for (int c = 0, sep = ' '; c < 1 << fp->k[v].nsig; c++)
          if (fp->k[v].tgt[c] == i) {
            fprintf(f, "%c%d", sep, c);
            sep = ',';
          }
        fputc(')', f);
      }
      fprintf(f, " after ");
      inst_lst_set(f, fp->e[e].t);
      fputc('\n', f);
      i++;
    }
  }
  for (int w = 0; w < fp->nwords; w++) {
    char txt[160];
    isa_insn_format(&fp->insns[w], txt, sizeof txt);
    int node = -1;
    for (int v = 0; v < fp->nk; v++)
      if (fp->k[v].pc == w) node = v;
    char tag[16] = "";
    if (node >= 0) snprintf(tag, sizeof tag, "q%d:", node);
    else if (w == 0 && x->sigma > 0) snprintf(tag, sizeof tag, "pro:");
    fprintf(f, "      L%-3d %-5s %s\n", w, tag, txt);
  }
}

void inst_listing(const inst *x, FILE *f) {
  const map_config *m = x->m;
  fprintf(f, "instantiation of %s:", m->name);
  for (int k = 0; k < m->nparams; k++) fprintf(f, " %s=%lld", m->param_name[k], (long long)x->params[k]);
  fprintf(f, " on a %dx%d region\n", x->rows, x->cols);
  fprintf(f, "extents E:");
  for (int k = 0; k < x->n; k++) fprintf(f, " %s=%lld", m->dim_name[k], (long long)x->E[k]);
  fprintf(f, "; p = %lld, t = %d PEs used of %d\n", (long long)x->p, x->t, x->t_req);
  fprintf(f, "schedule: pi = %d, lambda^J = pi * s(J), s(J) =", m->ii);
  for (int k = 0; k < x->n; k++) fprintf(f, "%s %lld*j%d", k ? " +" : "", (long long)x->seq[k], k);
  fprintf(f, "; lambda^K = %lld; prolog sigma = %d steps", (long long)x->lk, x->sigma);
  if (x->prolog_loop) fprintf(f, " (a loop of %d words on c%d)", m->ii, x->prolog_sig);
  else if (x->sigma > 1 && x->prolog_why == INST_PROLOG_WAIT)
    fprintf(f, " (nop %d: waits)", x->sigma * m->ii);
  else if (x->sigma > 1)
    fprintf(f, " (%d nops: %s)", x->sigma * m->ii,
            x->prolog_why == INST_PROLOG_OFF     ? "--prolog-nops"
            : x->prolog_why == INST_PROLOG_TERMS ? "no GC term left for a loop"
                                                 : "no control signal left for a loop");
  fprintf(f, "; GC epilog %lld steps\n", (long long)(x->epilog + x->sigma));
  fprintf(f, "fd depths:");
  for (int i = 0; i < x->arch.fd; i++) fprintf(f, " fd%d=%d", i, x->fd_depth[i]);
  fprintf(f, "\nprocessor classes: %d (from %d inter-tile domains", x->npc, x->npattern);
  if (x->npc_algo > x->npc) fprintf(f, "; %d before merging classes with equal programs", x->npc_algo);
  fprintf(f, ")\n");
  for (int c = 0; c < x->npc; c++) {
    fprintf(f, "  class %d: PEs ", c);
    inst_lst_set(f, x->pc[c].pes);
    fputc('\n', f);
    for (int u = 0; u < x->nfu; u++) inst_lst_fu(x, &x->pc[c].fp[u], f);
  }
  fprintf(f, "control signals: %d global (from %d local)\n", x->nsig, x->nlocal);
  for (int s = 0; s < x->nsig; s++) inst_lst_signal(x, s, f);
  static const char *sides[] = {"north", "east", "south", "west"};
  for (int a = 0; x->io && a < m->naccess; a++) {
    const map_access *ac = &m->access[a];
    fprintf(f, "access %d: %s %s via %s%d, %s bank %d, address %lld", a, ac->is_out ? "write" : "read",
            m->array_name[ac->array], ac->is_out ? "od" : "id", ac->reg.idx, sides[x->io[a].side], x->io[a].bank,
            (long long)x->io[a].a0);
    for (int k = 0; k < x->n; k++) fprintf(f, " + %lld*j%d", (long long)x->io[a].stride[k], k);
    fprintf(f, ", phase %d", x->sigma * m->ii + ac->offset);
    if (m->axis != MAP_AXIS_2D && x->io[a].pside) inst_lst_banks(x, a, f);
    fputc('\n', f);
  }
}
