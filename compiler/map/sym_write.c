/*
 * sym_write.c: writes a map_config as .sym text (docs/symbolic.md): one
 * record per line, a keyword then fields in a fixed order; isl text in
 * double quotes; registers as rd0/fd1/id2/od3, `-` for none, `#` for the
 * immediate; vectors comma-separated.
 */
#include <inttypes.h>
#include <stdio.h>

#include "sym.h"

static const char *const sym_edge_kind[] = {"dep", "in", "const", "out", "tie"};
static const char *const sym_slot[] = {"dest", "srcA", "srcB", "srcC", "od"};

/* Writes the vector d (n entries) comma-separated. */
static void sym_write_vec(FILE *f, const int64_t *d, int n) {
  for (int k = 0; k < n; k++) fprintf(f, "%s%" PRId64, k ? "," : "", d[k]);
  if (!n) fputs("-", f);
}

/* Writes a register. */
static void sym_write_reg(FILE *f, map_reg r) {
  char b[16];
  if (r.cls == MAP_REG_IMM) fputs("#", f);
  else fputs(map_reg_str(r, 0, b, sizeof b), f);
}

/* Writes a dom as two quoted strings. */
static void sym_write_dom(FILE *f, const map_dom *d) {
  fprintf(f, " \"%s\" \"%s\"", d->ispace ? d->ispace : "", d->jkspace ? d->jkspace : "");
}

/* Writes the header records. */
static void sym_write_head(const map_config *m, FILE *f) {
  fprintf(f, "tcpa-sym %d\n", m->axis == MAP_AXIS_2D ? MAP_SYM_VERSION_2D : MAP_SYM_VERSION);
  fprintf(f, "program %s\n", m->name);
  fprintf(f, "arch-fingerprint 0x%016" PRIx64 "\n", m->fingerprint);
  fprintf(f, "arch alu %d mul %d div %d lat %d %d %d\n", m->arch.alu, m->arch.mul, m->arch.div,
          m->arch.lat_alu, m->arch.lat_mul, m->arch.lat_div);
  fprintf(f, "params %d", m->nparams);
  for (int k = 0; k < m->nparams; k++) fprintf(f, " %s", m->param_name[k]);
  fprintf(f, "\ndims %d", m->ndims);
  for (int k = 0; k < m->ndims; k++) fprintf(f, " %s", m->dim_name[k]);
  fprintf(f, "\narrays %d", m->narrays);
  for (int k = 0; k < m->narrays; k++) fprintf(f, " %s", m->array_name[k]);
  fprintf(f, "\nmapped %d axis %s p_min %d\n", m->mapped[0], m->axis == MAP_AXIS_2D ? "both" : m->axis ? "rows" : "cols",
          m->p_min[0]);
  if (m->axis == MAP_AXIS_2D) fprintf(f, "mapped2 %d p_min %d\n", m->mapped[1], m->p_min[1]);
  for (int k = 0; k < m->ndims; k++) fprintf(f, "bound %d \"%s\" \"%s\"\n", k, m->lo[k], m->hi[k]);
  fprintf(f, "order");
  for (int r = 0; r < m->ndims; r++) fprintf(f, " %d", m->order[r]);
  fprintf(f, "\nmii res %d rec %d alu %d %d mul %d %d div %d %d\n", m->resmii_all, m->recmii,
          m->nclass[ISA_FU_ALU], m->units[ISA_FU_ALU], m->nclass[ISA_FU_MUL], m->units[ISA_FU_MUL],
          m->nclass[ISA_FU_DIV], m->units[ISA_FU_DIV]);
  fprintf(f, "ii %d \"%s\"\n", m->ii, m->ii_reason);
  fprintf(f, "lambda-k %d %" PRId64 "\n", m->lk_p[0], m->lk_c[0]);
  if (m->wide) fprintf(f, "lambda-k-wide %d %" PRId64 "\n", m->p_wide[0], m->lk_cw[0]);
  if (m->axis == MAP_AXIS_2D) fprintf(f, "lambda-k2 %d %" PRId64 "\n", m->lk_p[1], m->lk_c[1]);
  if (m->axis == MAP_AXIS_2D && m->wide) fprintf(f, "lambda-k2-wide %d %" PRId64 "\n", m->p_wide[1], m->lk_cw[1]);
  fprintf(f, "estimate imem %d signals %d\n", m->imem_estimate, m->signals_estimate);
}

int sym_write(const map_config *m, FILE *f) {
  sym_write_head(m, f);
  fprintf(f, "ops %d\n", m->nops);
  for (int i = 0; i < m->nops; i++) {
    const map_op *o = &m->ops[i];
    fprintf(f, "op %d node %d %s %d var %d class %s lat %d tau %d fu %d dst ", i, o->rdg_node,
            isa_op_get(o->op)->name, o->nargs, o->var, isa_fu_name(o->cls), o->lat, o->tau, o->fu);
    sym_write_reg(f, o->dst);
    sym_write_dom(f, &o->dom);
    fputc('\n', f);
  }
  fprintf(f, "edges %d\n", m->nedges);
  for (int i = 0; i < m->nedges; i++) {
    const map_edge *e = &m->edges[i];
    fprintf(f, "edge %d %s %d %d pos %d d ", i, sym_edge_kind[e->kind], e->src, e->dst, e->pos);
    sym_write_vec(f, e->d, m->ndims);
    if (m->axis == MAP_AXIS_2D) fprintf(f, " theta %d,%d", e->theta[0], e->theta[1]);
    else fprintf(f, " theta %d", e->theta[0]);
    fprintf(f, " value %d array %d group %d route %d rreg ", (int)e->value, e->array, e->group, e->route);
    sym_write_reg(f, e->rreg);
    fputs(" wreg ", f);
    sym_write_reg(f, e->wreg);
    fprintf(f, " index \"%s\"", e->index ? e->index : "");
    sym_write_dom(f, &e->use);
    sym_write_dom(f, &e->def);
    fputc('\n', f);
  }
  fprintf(f, "regs %d\n", m->nregs);
  for (int i = 0; i < m->nregs; i++) {
    const map_regfile_entry *r = &m->regs[i];
    fputs("reg ", f);
    sym_write_reg(f, r->reg);
    fprintf(f, " copies %d depth-lb %d extra %d d ", r->copies, r->depth_lb, r->extra);
    sym_write_vec(f, r->d, m->ndims);
    fputc('\n', f);
  }
  fprintf(f, "routes %d\n", m->nroutes);
  for (int i = 0; i < m->nroutes; i++) {
    const map_route *r = &m->routes[i];
    if (m->axis == MAP_AXIS_2D) fprintf(f, "route %d edge %d delta %d,%d ", i, r->edge, r->delta[0], r->delta[1]);
    else fprintf(f, "route %d edge %d delta %d ", i, r->edge, r->delta[0]);
    sym_write_reg(f, r->od);
    fprintf(f, " %c%d %c%d ", r->out_side[0], r->port[0], r->in_side[0], r->port[0]);
    if (r->hops == 2) fprintf(f, "%c%d %c%d ", r->out_side[1], r->port[1], r->in_side[1], r->port[1]);
    sym_write_reg(f, r->id);
    fprintf(f, " hops %d\n", r->hops);
  }
  fprintf(f, "accesses %d\n", m->naccess);
  for (int i = 0; i < m->naccess; i++) {
    const map_access *a = &m->access[i];
    fprintf(f, "access %d %s edge %d array %d reg ", i, a->is_out ? "out" : "in", a->edge, a->array);
    sym_write_reg(f, a->reg);
    fprintf(f, " offset %d index \"%s\"", a->offset, a->index);
    sym_write_dom(f, &a->space);
    fputc('\n', f);
  }
  fprintf(f, "pst %d\n", m->nleaves);
  for (int i = 0; i < m->nleaves; i++) {
    const map_pst_leaf *l = &m->leaves[i];
    const map_op *o = &m->ops[l->op];
    fprintf(f, "leaf fu %d tau %d op %d %s %s ", o->fu, o->tau, l->op, isa_op_get(o->op)->name,
            sym_slot[l->slot]);
    sym_write_reg(f, l->reg);
    fprintf(f, " %d", (int)l->value);
    sym_write_dom(f, &l->dom);
    fputc('\n', f);
  }
  fputs("end\n", f);
  return ferror(f) ? -1 : 0;
}
