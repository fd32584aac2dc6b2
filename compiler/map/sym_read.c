/*
 * sym_read.c: reads the .sym text written by sym_write.c back into a
 * map_config. Each line is split into tokens (words, or double-quoted isl
 * text); each record is read field by field in the writer's order, with
 * its keywords checked, so that a damaged file is reported by line. The
 * records are a table (sym_records) of the keyword that starts a line and
 * the function that reads the rest of it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym.h"

#define SYM_MAX_TOK 96

typedef struct {
  int n, at;
  char *tok[SYM_MAX_TOK];
  int bad;
} sym_line;

/* Splits buf in place into tokens; returns the count. */
static int sym_split(char *buf, sym_line *l) {
  l->n = l->at = l->bad = 0;
  char *s = buf;
  while (*s && l->n < SYM_MAX_TOK) {
    while (*s == ' ' || *s == '\n' || *s == '\r') s++;
    if (!*s) break;
    if (*s == '"') {
      l->tok[l->n++] = ++s;
      while (*s && *s != '"') s++;
      if (*s) *s++ = 0;
    } else {
      l->tok[l->n++] = s;
      while (*s && *s != ' ' && *s != '\n') s++;
      if (*s) *s++ = 0;
    }
  }
  return l->n;
}

/* Returns the next token ("" and sets bad when there is none). */
static const char *sym_tok(sym_line *l) {
  if (l->at >= l->n) {
    l->bad = 1;
    return "";
  }
  return l->tok[l->at++];
}

/* Consumes the keyword kw (sets bad when it is not there). */
static void sym_kw(sym_line *l, const char *kw) {
  if (strcmp(sym_tok(l), kw)) l->bad = 1;
}

/* Returns the next token as an integer. */
static int64_t sym_int(sym_line *l) {
  const char *t = sym_tok(l);
  char *end;
  int64_t v = strtoll(t, &end, 10);
  if (!*t || *end) l->bad = 1;
  return v;
}

/* Returns the next token as a copy. */
static char *sym_str(sym_line *l) { return map_strdup(sym_tok(l)); }

/* Returns the next token as a register. */
static map_reg sym_reg(sym_line *l) {
  const char *t = sym_tok(l);
  static const char *const cls[] = {"rd", "fd", "id", "od"};
  map_reg r = {MAP_REG_NONE, 0};
  if (!strcmp(t, "#")) r.cls = MAP_REG_IMM;
  else if (strcmp(t, "-")) {
    for (int c = 0; c < 4; c++)
      if (!strncmp(t, cls[c], 2)) r.cls = MAP_REG_RD + c;
    if (r.cls == MAP_REG_NONE || !t[2]) l->bad = 1;
    else r.idx = atoi(t + 2);
  }
  return r;
}

/* Reads a comma-separated vector of n entries. */
static void sym_vec(sym_line *l, int64_t *d, int n) {
  const char *t = sym_tok(l);
  if (!n) {
    if (strcmp(t, "-")) l->bad = 1;
    return;
  }
  for (int k = 0; k < n; k++) {
    char *end;
    d[k] = strtoll(t, &end, 10);
    if (end == t || (k + 1 < n && *end != ',') || (k + 1 == n && *end)) l->bad = 1;
    t = *end ? end + 1 : end;
  }
}

/* Reads a dom (two strings). */
static map_dom sym_dom(sym_line *l) {
  map_dom d = {0};
  d.ispace = sym_str(l);
  d.jkspace = sym_str(l);
  return d;
}

/* Reads "A" (1-D) or "A,B" (2-D, two == 1) into *a and *b; returns 0, -1
 * when the form does not match. */
static int sym_pair(sym_line *l, int *a, int *b, int two) {
  const char *t = sym_tok(l);
  char *end;
  *a = (int)strtol(t, &end, 10);
  *b = 0;
  if (end == t) return -1;
  if (!two) return *end ? -1 : 0;
  if (*end != ',') return -1;
  const char *u = end + 1;
  *b = (int)strtol(u, &end, 10);
  return end == u || *end ? -1 : 0;
}

/* Returns the index of name in names[0..n-1], or -1. */
static int sym_find(const char *name, const char *const *names, int n) {
  for (int i = 0; i < n; i++)
    if (!strcmp(name, names[i])) return i;
  return -1;
}

/* The state of one read: the configuration and, per list record (ops,
 * edges, ...), how many entries its count line announced. */
typedef struct {
  map_config *m;
  int64_t cap[6]; /* SYM_CAP_* */
} sym_reader;

enum { SYM_CAP_OPS, SYM_CAP_EDGES, SYM_CAP_REGS, SYM_CAP_ROUTES, SYM_CAP_ACCESS, SYM_CAP_LEAVES };

static const char *const sym_fus[] = {"alu", "mul", "div", "any"};

/* "program NAME": returns 0. */
static int sym_rec_program(sym_line *l, sym_reader *r) {
  r->m->name = sym_str(l);
  return 0;
}

/* "arch-fingerprint HEX": returns 0. */
static int sym_rec_fingerprint(sym_line *l, sym_reader *r) {
  r->m->fingerprint = strtoull(sym_tok(l), NULL, 16);
  return 0;
}

/* "arch alu N mul N div N lat A M D": returns 0. */
static int sym_rec_arch(sym_line *l, sym_reader *r) {
  map_config *m = r->m;
  sym_kw(l, "alu"); m->arch.alu = (int)sym_int(l);
  sym_kw(l, "mul"); m->arch.mul = (int)sym_int(l);
  sym_kw(l, "div"); m->arch.div = (int)sym_int(l);
  sym_kw(l, "lat"); m->arch.lat_alu = (int)sym_int(l);
  m->arch.lat_mul = (int)sym_int(l);
  m->arch.lat_div = (int)sym_int(l);
  return 0;
}

/* "params N NAME...": returns 0, -1 for a bad count. */
static int sym_rec_params(sym_line *l, sym_reader *r) {
  map_config *m = r->m;
  m->nparams = (int)sym_int(l);
  if (m->nparams < 0 || m->nparams > AST_MAX_PARAMS) return -1;
  for (int k = 0; k < m->nparams; k++) m->param_name[k] = sym_str(l);
  return 0;
}

/* "dims N NAME...": returns 0, -1 for a bad count. */
static int sym_rec_dims(sym_line *l, sym_reader *r) {
  map_config *m = r->m;
  m->ndims = (int)sym_int(l);
  if (m->ndims < 1 || m->ndims > AST_MAX_DIMS) return -1;
  for (int k = 0; k < m->ndims; k++) m->dim_name[k] = sym_str(l);
  return 0;
}

/* "arrays N NAME...": returns 0, -1 for a bad count or a second one. */
static int sym_rec_arrays(sym_line *l, sym_reader *r) {
  map_config *m = r->m;
  m->narrays = (int)sym_int(l);
  if (m->narrays < 0 || m->narrays > 1024 || m->array_name) return -1;
  m->array_name = calloc((size_t)m->narrays + 1, sizeof *m->array_name);
  if (!m->array_name) return -1;
  for (int k = 0; k < m->narrays; k++) m->array_name[k] = sym_str(l);
  return 0;
}

/* "mapped I axis cols|rows|both p_min P": returns 0. */
static int sym_rec_mapped(sym_line *l, sym_reader *r) {
  map_config *m = r->m;
  m->mapped[0] = (int)sym_int(l);
  sym_kw(l, "axis");
  const char *ax = sym_tok(l);
  m->axis = !strcmp(ax, "both") ? 2 : !strcmp(ax, "rows");
  sym_kw(l, "p_min");
  m->p_min[0] = (int)sym_int(l);
  if (m->axis != MAP_AXIS_2D) m->mapped[1] = -1;
  return 0;
}

/* "mapped2 J p_min P" (2-D): returns 0, -1 when it does not fit 'mapped'. */
static int sym_rec_mapped2(sym_line *l, sym_reader *r) {
  map_config *m = r->m;
  m->mapped[1] = (int)sym_int(l);
  sym_kw(l, "p_min");
  m->p_min[1] = (int)sym_int(l);
  if (m->axis != MAP_AXIS_2D || m->mapped[1] < 0 || m->mapped[1] >= AST_MAX_DIMS || m->mapped[1] == m->mapped[0]) return -1;
  return 0;
}

/* "bound K LO HI": returns 0, -1 for a bad or repeated dimension. */
static int sym_rec_bound(sym_line *l, sym_reader *r) {
  map_config *m = r->m;
  int64_t k = sym_int(l);
  if (k < 0 || k >= m->ndims || m->lo[k]) return -1;
  m->lo[k] = sym_str(l);
  m->hi[k] = sym_str(l);
  return 0;
}

/* "order D...": returns 0. */
static int sym_rec_order(sym_line *l, sym_reader *r) {
  for (int k = 0; k < r->m->ndims; k++) r->m->order[k] = (int)sym_int(l);
  return 0;
}

/* "mii res N rec N alu OPS UNITS mul ... div ...": returns 0. */
static int sym_rec_mii(sym_line *l, sym_reader *r) {
  map_config *m = r->m;
  sym_kw(l, "res"); m->resmii_all = (int)sym_int(l);
  sym_kw(l, "rec"); m->recmii = (int)sym_int(l);
  for (int c = 0; c < ISA_FU_ANY; c++) {
    sym_kw(l, sym_fus[c]);
    m->nclass[c] = (int)sym_int(l);
    m->units[c] = (int)sym_int(l);
  }
  return 0;
}

/* "ii N REASON": returns 0. */
static int sym_rec_ii(sym_line *l, sym_reader *r) {
  r->m->ii = (int)sym_int(l);
  snprintf(r->m->ii_reason, sizeof r->m->ii_reason, "%s", sym_tok(l));
  return 0;
}

/* "lambda-k P C": returns 0. */
static int sym_rec_lambda_k(sym_line *l, sym_reader *r) {
  r->m->lk_p[0] = (int)sym_int(l);
  r->m->lk_c[0] = sym_int(l);
  return 0;
}

/* "lambda-k-wide P C": returns 0. */
static int sym_rec_lambda_k_wide(sym_line *l, sym_reader *r) {
  r->m->wide = 1;
  r->m->p_wide[0] = (int)sym_int(l);
  r->m->lk_cw[0] = sym_int(l);
  return 0;
}

/* "lambda-k2-wide P C" (2-D, after lambda-k-wide): returns 0 or -1. */
static int sym_rec_lambda_k2_wide(sym_line *l, sym_reader *r) {
  if (r->m->axis != MAP_AXIS_2D || !r->m->wide) return -1;
  r->m->p_wide[1] = (int)sym_int(l);
  r->m->lk_cw[1] = sym_int(l);
  return 0;
}

/* "lambda-k2 P C" (2-D): returns 0 or -1. */
static int sym_rec_lambda_k2(sym_line *l, sym_reader *r) {
  if (r->m->axis != MAP_AXIS_2D) return -1;
  r->m->lk_p[1] = (int)sym_int(l);
  r->m->lk_c[1] = sym_int(l);
  return 0;
}

/* "estimate imem N signals N": returns 0. */
static int sym_rec_estimate(sym_line *l, sym_reader *r) {
  sym_kw(l, "imem"); r->m->imem_estimate = (int)sym_int(l);
  sym_kw(l, "signals"); r->m->signals_estimate = (int)sym_int(l);
  return 0;
}

/* Returns the count N of a list record ("ops N", ...), -1 when it is out
 * of range. */
static int64_t sym_count(sym_line *l) {
  int64_t n = sym_int(l);
  return n < 0 || n > 1000000 ? -1 : n;
}

/* "ops N": returns 0, -1 for a bad count or a second one. */
static int sym_rec_ops(sym_line *l, sym_reader *r) {
  int64_t n = sym_count(l);
  if (n < 0 || r->m->ops) return -1;
  r->m->ops = calloc((size_t)n + 1, sizeof *r->m->ops);
  r->cap[SYM_CAP_OPS] = n;
  return 0;
}

/* "edges N": returns 0, -1 for a bad count or a second one. */
static int sym_rec_edges(sym_line *l, sym_reader *r) {
  int64_t n = sym_count(l);
  if (n < 0 || r->m->edges) return -1;
  r->m->edges = calloc((size_t)n + 1, sizeof *r->m->edges);
  r->cap[SYM_CAP_EDGES] = n;
  return 0;
}

/* "regs N": returns 0, -1 for a bad count or a second one. */
static int sym_rec_regs(sym_line *l, sym_reader *r) {
  int64_t n = sym_count(l);
  if (n < 0 || r->m->regs) return -1;
  r->m->regs = calloc((size_t)n + 1, sizeof *r->m->regs);
  r->cap[SYM_CAP_REGS] = n;
  return 0;
}

/* "routes N": returns 0, -1 for a bad count or a second one. */
static int sym_rec_routes(sym_line *l, sym_reader *r) {
  int64_t n = sym_count(l);
  if (n < 0 || r->m->routes) return -1;
  r->m->routes = calloc((size_t)n + 1, sizeof *r->m->routes);
  r->cap[SYM_CAP_ROUTES] = n;
  return 0;
}

/* "accesses N": returns 0, -1 for a bad count or a second one. */
static int sym_rec_accesses(sym_line *l, sym_reader *r) {
  int64_t n = sym_count(l);
  if (n < 0 || r->m->access) return -1;
  r->m->access = calloc((size_t)n + 1, sizeof *r->m->access);
  r->cap[SYM_CAP_ACCESS] = n;
  return 0;
}

/* "pst N": returns 0, -1 for a bad count or a second one. */
static int sym_rec_pst(sym_line *l, sym_reader *r) {
  int64_t n = sym_count(l);
  if (n < 0 || r->m->leaves) return -1;
  r->m->leaves = calloc((size_t)n + 1, sizeof *r->m->leaves);
  r->cap[SYM_CAP_LEAVES] = n;
  return 0;
}

/* "op K node N OP NARGS var V class C lat L tau T fu F dst R DOM": returns
 * 0, -1 out of order or for an unknown operation or class. */
static int sym_rec_op(sym_line *l, sym_reader *r) {
  map_config *m = r->m;
  if (!m->ops || m->nops >= r->cap[SYM_CAP_OPS] || sym_int(l) != m->nops) return -1;
  map_op *o = &m->ops[m->nops++];
  sym_kw(l, "node"); o->rdg_node = (int)sym_int(l);
  int op = isa_op_lookup(sym_tok(l));
  if (op < 0) return -1;
  o->op = (isa_op)op;
  o->nargs = (int)sym_int(l);
  sym_kw(l, "var"); o->var = (int)sym_int(l);
  sym_kw(l, "class");
  o->cls = (isa_fu_class)sym_find(sym_tok(l), sym_fus, 4);
  if ((int)o->cls < 0) return -1;
  sym_kw(l, "lat"); o->lat = (int)sym_int(l);
  sym_kw(l, "tau"); o->tau = (int)sym_int(l);
  sym_kw(l, "fu"); o->fu = (int)sym_int(l);
  sym_kw(l, "dst"); o->dst = sym_reg(l);
  o->dom = sym_dom(l);
  return 0;
}

/* "edge K KIND SRC DST pos P d D theta T value V array A group G route R
 * rreg R wreg R index I USE DEF": returns 0, -1 out of order or for an
 * unknown kind or a bad theta. */
static int sym_rec_edge(sym_line *l, sym_reader *r) {
  static const char *const kinds[] = {"dep", "in", "const", "out", "tie"};
  map_config *m = r->m;
  if (!m->edges || m->nedges >= r->cap[SYM_CAP_EDGES] || sym_int(l) != m->nedges) return -1;
  map_edge *e = &m->edges[m->nedges++];
  int k = sym_find(sym_tok(l), kinds, 5);
  if (k < 0) return -1;
  e->kind = (map_edge_kind)k;
  e->src = (int)sym_int(l);
  e->dst = (int)sym_int(l);
  sym_kw(l, "pos"); e->pos = (int)sym_int(l);
  sym_kw(l, "d"); sym_vec(l, e->d, m->ndims);
  sym_kw(l, "theta");
  if (sym_pair(l, &e->theta[0], &e->theta[1], m->axis == MAP_AXIS_2D)) return -1;
  sym_kw(l, "value"); e->value = (int32_t)sym_int(l);
  sym_kw(l, "array"); e->array = (int)sym_int(l);
  sym_kw(l, "group"); e->group = (int)sym_int(l);
  sym_kw(l, "route"); e->route = (int)sym_int(l);
  sym_kw(l, "rreg"); e->rreg = sym_reg(l);
  sym_kw(l, "wreg"); e->wreg = sym_reg(l);
  sym_kw(l, "index");
  const char *ix = sym_tok(l);
  e->index = *ix ? map_strdup(ix) : NULL;
  e->use = sym_dom(l);
  e->def = sym_dom(l);
  return 0;
}

/* "reg R copies N depth-lb N extra N d D": returns 0, -1 past the count. */
static int sym_rec_reg(sym_line *l, sym_reader *r) {
  map_config *m = r->m;
  if (!m->regs || m->nregs >= r->cap[SYM_CAP_REGS]) return -1;
  map_regfile_entry *e = &m->regs[m->nregs++];
  e->reg = sym_reg(l);
  sym_kw(l, "copies"); e->copies = (int)sym_int(l);
  sym_kw(l, "depth-lb"); e->depth_lb = (int)sym_int(l);
  sym_kw(l, "extra"); e->extra = (int)sym_int(l);
  sym_kw(l, "d"); sym_vec(l, e->d, m->ndims);
  if (e->reg.cls >= MAP_REG_RD && e->reg.cls <= MAP_REG_OD) m->used[e->reg.cls] += e->copies;
  return 0;
}

/* "route K edge E delta D OD OUT IN [OUT2 IN2] ID hops H": returns 0, -1
 * out of order, for a bad delta or a hop count that does not match. */
static int sym_rec_route(sym_line *l, sym_reader *r) {
  map_config *m = r->m;
  if (!m->routes || m->nroutes >= r->cap[SYM_CAP_ROUTES] || sym_int(l) != m->nroutes) return -1;
  map_route *rt = &m->routes[m->nroutes++];
  sym_kw(l, "edge"); rt->edge = (int)sym_int(l);
  sym_kw(l, "delta");
  if (sym_pair(l, &rt->delta[0], &rt->delta[1], m->axis == MAP_AXIS_2D)) return -1;
  rt->od = sym_reg(l);
  const char *a = sym_tok(l), *b = sym_tok(l);
  rt->out_side[0] = a[0];
  rt->in_side[0] = b[0];
  rt->port[0] = atoi(a + (a[0] ? 1 : 0));
  if (l->at < l->n && strchr("NESW", l->tok[l->at][0]) && l->tok[l->at][0]) { /* second hop */
    a = sym_tok(l);
    b = sym_tok(l);
    rt->out_side[1] = a[0];
    rt->in_side[1] = b[0];
    rt->port[1] = atoi(a + 1);
  }
  rt->id = sym_reg(l);
  sym_kw(l, "hops"); rt->hops = (int)sym_int(l);
  if (rt->hops != (rt->out_side[1] ? 2 : 1)) return -1;
  return 0;
}

/* "access K in|out edge E array A reg R offset O index I SPACE": returns
 * 0, -1 out of order. */
static int sym_rec_access(sym_line *l, sym_reader *r) {
  map_config *m = r->m;
  if (!m->access || m->naccess >= r->cap[SYM_CAP_ACCESS] || sym_int(l) != m->naccess) return -1;
  map_access *a = &m->access[m->naccess++];
  a->is_out = !strcmp(sym_tok(l), "out");
  sym_kw(l, "edge"); a->edge = (int)sym_int(l);
  sym_kw(l, "array"); a->array = (int)sym_int(l);
  sym_kw(l, "reg"); a->reg = sym_reg(l);
  sym_kw(l, "offset"); a->offset = (int)sym_int(l);
  sym_kw(l, "index"); a->index = sym_str(l);
  a->space = sym_dom(l);
  return 0;
}

/* "leaf fu F tau T op K NAME SLOT REG VALUE DOM": returns 0, -1 past the
 * count, for an unknown operation or slot. */
static int sym_rec_leaf(sym_line *l, sym_reader *r) {
  static const char *const slots[] = {"dest", "srcA", "srcB", "srcC", "od"};
  map_config *m = r->m;
  if (!m->leaves || m->nleaves >= r->cap[SYM_CAP_LEAVES]) return -1;
  map_pst_leaf *p = &m->leaves[m->nleaves++];
  sym_kw(l, "fu"); sym_int(l);
  sym_kw(l, "tau"); sym_int(l);
  sym_kw(l, "op"); p->op = (int)sym_int(l);
  if (p->op < 0 || p->op >= m->nops) return -1;
  sym_tok(l);
  p->slot = sym_find(sym_tok(l), slots, 5);
  p->reg = sym_reg(l);
  p->value = (int32_t)sym_int(l);
  p->dom = sym_dom(l);
  if (p->slot < 0) return -1;
  return 0;
}

/* The records: the keyword that starts the line, the function that reads
 * the rest. */
static const struct {
  const char *kw;
  int (*read)(sym_line *l, sym_reader *r);
} sym_records[] = {
    {"program", sym_rec_program},
    {"arch-fingerprint", sym_rec_fingerprint},
    {"arch", sym_rec_arch},
    {"params", sym_rec_params},
    {"dims", sym_rec_dims},
    {"arrays", sym_rec_arrays},
    {"mapped", sym_rec_mapped},
    {"mapped2", sym_rec_mapped2},
    {"bound", sym_rec_bound},
    {"order", sym_rec_order},
    {"mii", sym_rec_mii},
    {"ii", sym_rec_ii},
    {"lambda-k", sym_rec_lambda_k},
    {"lambda-k-wide", sym_rec_lambda_k_wide},
    {"lambda-k2-wide", sym_rec_lambda_k2_wide},
    {"lambda-k2", sym_rec_lambda_k2},
    {"estimate", sym_rec_estimate},
    {"ops", sym_rec_ops},
    {"edges", sym_rec_edges},
    {"regs", sym_rec_regs},
    {"routes", sym_rec_routes},
    {"accesses", sym_rec_accesses},
    {"pst", sym_rec_pst},
    {"op", sym_rec_op},
    {"edge", sym_rec_edge},
    {"reg", sym_rec_reg},
    {"route", sym_rec_route},
    {"access", sym_rec_access},
    {"leaf", sym_rec_leaf},
};

/* Reads one record of line l into r->m; returns 0, or -1 for an unknown
 * keyword, a bad field or tokens left over. */
static int sym_record(sym_line *l, sym_reader *r) {
  const char *kw = sym_tok(l);
  for (size_t i = 0; i < sizeof sym_records / sizeof sym_records[0]; i++)
    if (!strcmp(kw, sym_records[i].kw)) {
      if (sym_records[i].read(l, r)) return -1;
      return l->bad || l->at != l->n ? -1 : 0;
    }
  return -1;
}

/* Returns 0 after reading f into m (sym.h); -1 with msg. */
int sym_read(FILE *f, map_config *m, char *msg, size_t msgsz) {
  char *buf = NULL;
  size_t bufcap = 0;
  int lineno = 0, ended = 0, version = 0;
  sym_line l;
  memset(m, 0, sizeof *m);
  sym_reader r = {m, {0}};
  msg[0] = 0;
  while (getline(&buf, &bufcap, f) >= 0) {
    lineno++;
    if (ended) {
      snprintf(msg, msgsz, "line %d: text after 'end'", lineno);
      goto error;
    }
    sym_split(buf, &l);
    if (lineno == 1) {
      if (l.n != 2 || strcmp(l.tok[0], "tcpa-sym") ||
          (atoi(l.tok[1]) != MAP_SYM_VERSION && atoi(l.tok[1]) != MAP_SYM_VERSION_2D)) {
        snprintf(msg, msgsz, "line 1: not a tcpa-sym %d or %d file", MAP_SYM_VERSION, MAP_SYM_VERSION_2D);
        goto error;
      }
      version = atoi(l.tok[1]);
      continue;
    }
    if (l.n == 1 && !strcmp(l.tok[0], "end")) {
      ended = 1;
      continue;
    }
    if (!l.n || sym_record(&l, &r)) {
      snprintf(msg, msgsz, "line %d: malformed record '%s'", lineno, l.n ? l.tok[0] : "");
      goto error;
    }
  }
  free(buf);
  if (ended && (m->axis == MAP_AXIS_2D) != (version == MAP_SYM_VERSION_2D)) {
    snprintf(msg, msgsz, "line 1: version %d does not match the region axis of the file", version);
    map_config_free(m);
    return -1;
  }
  if (ended && m->wide && (m->p_wide[0] < m->p_min[0] || (m->axis == MAP_AXIS_2D && m->p_wide[1] < m->p_min[1]))) {
    snprintf(msg, msgsz, "lambda-k-wide: the wide tile sizes must be at least p_min (and 2-D needs lambda-k2-wide)");
    map_config_free(m);
    return -1;
  }
  if (!m->wide) { /* no tile size 1: the wide constants are lambda-k's */
    m->p_wide[0] = m->p_min[0];
    m->p_wide[1] = m->p_min[1];
    m->lk_cw[0] = m->lk_c[0];
    m->lk_cw[1] = m->lk_c[1];
  }
  if (!ended) {
    snprintf(msg, msgsz, "line %d: the file ends without 'end'", lineno);
    map_config_free(m);
    return -1;
  }
  return 0;
error:
  free(buf);
  map_config_free(m);
  return -1;
}
