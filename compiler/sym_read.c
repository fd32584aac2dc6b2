/*
 * sym_read.c: reads the .sym text written by sym_write.c back into a
 * map_config. Each line is split into tokens (words, or double-quoted isl
 * text); each record is read field by field in the writer's order, with
 * its keywords checked, so that a damaged file is reported by line.
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
  map_dom d;
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

/* Reads one record of line l into m; returns 0 or -1. */
static int sym_record(sym_line *l, map_config *m, int64_t *cap) {
  static const char *const kinds[] = {"dep", "in", "const", "out", "tie"};
  static const char *const slots[] = {"dest", "srcA", "srcB", "srcC", "od"};
  static const char *const fus[] = {"alu", "mul", "div", "any"};
  const char *kw = sym_tok(l);
  if (!strcmp(kw, "program")) m->name = sym_str(l);
  else if (!strcmp(kw, "arch-fingerprint")) m->fingerprint = strtoull(sym_tok(l), NULL, 16);
  else if (!strcmp(kw, "arch")) {
    sym_kw(l, "alu"); m->arch.alu = (int)sym_int(l);
    sym_kw(l, "mul"); m->arch.mul = (int)sym_int(l);
    sym_kw(l, "div"); m->arch.div = (int)sym_int(l);
    sym_kw(l, "lat"); m->arch.lat_alu = (int)sym_int(l);
    m->arch.lat_mul = (int)sym_int(l);
    m->arch.lat_div = (int)sym_int(l);
  } else if (!strcmp(kw, "params")) {
    m->nparams = (int)sym_int(l);
    if (m->nparams < 0 || m->nparams > AST_MAX_PARAMS) return -1;
    for (int k = 0; k < m->nparams; k++) m->param_name[k] = sym_str(l);
  } else if (!strcmp(kw, "dims")) {
    m->ndims = (int)sym_int(l);
    if (m->ndims < 1 || m->ndims > AST_MAX_DIMS) return -1;
    for (int k = 0; k < m->ndims; k++) m->dim_name[k] = sym_str(l);
  } else if (!strcmp(kw, "arrays")) {
    m->narrays = (int)sym_int(l);
    if (m->narrays < 0 || m->narrays > 1024 || m->array_name) return -1;
    m->array_name = calloc((size_t)m->narrays + 1, sizeof *m->array_name);
    if (!m->array_name) return -1;
    for (int k = 0; k < m->narrays; k++) m->array_name[k] = sym_str(l);
  } else if (!strcmp(kw, "mapped")) {
    m->mapped = (int)sym_int(l);
    sym_kw(l, "axis");
    const char *ax = sym_tok(l);
    m->axis = !strcmp(ax, "both") ? 2 : !strcmp(ax, "rows");
    sym_kw(l, "p_min");
    m->p_min = (int)sym_int(l);
    if (m->axis != 2) m->mapped2 = -1;
  } else if (!strcmp(kw, "mapped2")) {
    m->mapped2 = (int)sym_int(l);
    sym_kw(l, "p_min");
    m->p_min2 = (int)sym_int(l);
    if (m->axis != 2 || m->mapped2 < 0 || m->mapped2 >= AST_MAX_DIMS || m->mapped2 == m->mapped) return -1;
  } else if (!strcmp(kw, "bound")) {
    int64_t k = sym_int(l);
    if (k < 0 || k >= m->ndims || m->lo[k]) return -1;
    m->lo[k] = sym_str(l);
    m->hi[k] = sym_str(l);
  } else if (!strcmp(kw, "order")) {
    for (int r = 0; r < m->ndims; r++) m->order[r] = (int)sym_int(l);
  } else if (!strcmp(kw, "mii")) {
    sym_kw(l, "res"); m->resmii_all = (int)sym_int(l);
    sym_kw(l, "rec"); m->recmii = (int)sym_int(l);
    for (int c = 0; c < ISA_FU_ANY; c++) {
      sym_kw(l, fus[c]);
      m->nclass[c] = (int)sym_int(l);
      m->units[c] = (int)sym_int(l);
    }
  } else if (!strcmp(kw, "ii")) {
    m->ii = (int)sym_int(l);
    snprintf(m->ii_reason, sizeof m->ii_reason, "%s", sym_tok(l));
  } else if (!strcmp(kw, "lambda-k")) {
    m->lk_p = (int)sym_int(l);
    m->lk_c = sym_int(l);
  } else if (!strcmp(kw, "lambda-k-wide")) {
    m->wide = 1;
    m->p_wide = (int)sym_int(l);
    m->lk_cw = sym_int(l);
  } else if (!strcmp(kw, "lambda-k2-wide")) {
    if (m->axis != 2 || !m->wide) return -1;
    m->p_wide2 = (int)sym_int(l);
    m->lk_cw2 = sym_int(l);
  } else if (!strcmp(kw, "lambda-k2")) {
    if (m->axis != 2) return -1;
    m->lk_p2 = (int)sym_int(l);
    m->lk_c2 = sym_int(l);
  } else if (!strcmp(kw, "estimate")) {
    sym_kw(l, "imem"); m->imem_estimate = (int)sym_int(l);
    sym_kw(l, "signals"); m->signals_estimate = (int)sym_int(l);
  } else if (!strcmp(kw, "ops") || !strcmp(kw, "edges") || !strcmp(kw, "regs") || !strcmp(kw, "routes") ||
             !strcmp(kw, "accesses") || !strcmp(kw, "pst")) {
    int64_t n = sym_int(l);
    if (n < 0 || n > 1000000) return -1;
    size_t sz = (size_t)n + 1;
    if (kw[0] == 'o' && !m->ops) m->ops = calloc(sz, sizeof *m->ops), cap[0] = n;
    else if (kw[0] == 'e' && !m->edges) m->edges = calloc(sz, sizeof *m->edges), cap[1] = n;
    else if (kw[0] == 'r' && kw[2] == 'g' && !m->regs) m->regs = calloc(sz, sizeof *m->regs), cap[2] = n;
    else if (kw[0] == 'r' && kw[2] == 'u' && !m->routes) m->routes = calloc(sz, sizeof *m->routes), cap[3] = n;
    else if (kw[0] == 'a' && !m->access) m->access = calloc(sz, sizeof *m->access), cap[4] = n;
    else if (kw[0] == 'p' && !m->leaves) m->leaves = calloc(sz, sizeof *m->leaves), cap[5] = n;
    else return -1;
  } else if (!strcmp(kw, "op")) {
    if (!m->ops || m->nops >= cap[0] || sym_int(l) != m->nops) return -1;
    map_op *o = &m->ops[m->nops++];
    sym_kw(l, "node"); o->rdg_node = (int)sym_int(l);
    int op = isa_op_lookup(sym_tok(l));
    if (op < 0) return -1;
    o->op = (isa_op)op;
    o->nargs = (int)sym_int(l);
    sym_kw(l, "var"); o->var = (int)sym_int(l);
    sym_kw(l, "class");
    o->cls = (isa_fu_class)sym_find(sym_tok(l), fus, 4);
    if ((int)o->cls < 0) return -1;
    sym_kw(l, "lat"); o->lat = (int)sym_int(l);
    sym_kw(l, "tau"); o->tau = (int)sym_int(l);
    sym_kw(l, "fu"); o->fu = (int)sym_int(l);
    sym_kw(l, "dst"); o->dst = sym_reg(l);
    o->dom = sym_dom(l);
  } else if (!strcmp(kw, "edge")) {
    if (!m->edges || m->nedges >= cap[1] || sym_int(l) != m->nedges) return -1;
    map_edge *e = &m->edges[m->nedges++];
    int k = sym_find(sym_tok(l), kinds, 5);
    if (k < 0) return -1;
    e->kind = (map_edge_kind)k;
    e->src = (int)sym_int(l);
    e->dst = (int)sym_int(l);
    sym_kw(l, "pos"); e->pos = (int)sym_int(l);
    sym_kw(l, "d"); sym_vec(l, e->d, m->ndims);
    sym_kw(l, "theta");
    if (sym_pair(l, &e->theta, &e->theta2, m->axis == 2)) return -1;
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
  } else if (!strcmp(kw, "reg")) {
    if (!m->regs || m->nregs >= cap[2]) return -1;
    map_regfile_entry *r = &m->regs[m->nregs++];
    r->reg = sym_reg(l);
    sym_kw(l, "copies"); r->copies = (int)sym_int(l);
    sym_kw(l, "depth-lb"); r->depth_lb = (int)sym_int(l);
    sym_kw(l, "extra"); r->extra = (int)sym_int(l);
    sym_kw(l, "d"); sym_vec(l, r->d, m->ndims);
    if (r->reg.cls >= MAP_REG_RD && r->reg.cls <= MAP_REG_OD) m->used[r->reg.cls] += r->copies;
  } else if (!strcmp(kw, "route")) {
    if (!m->routes || m->nroutes >= cap[3] || sym_int(l) != m->nroutes) return -1;
    map_route *r = &m->routes[m->nroutes++];
    sym_kw(l, "edge"); r->edge = (int)sym_int(l);
    sym_kw(l, "delta");
    if (sym_pair(l, &r->delta, &r->delta2, m->axis == 2)) return -1;
    r->od = sym_reg(l);
    const char *a = sym_tok(l), *b = sym_tok(l);
    r->out_side = a[0];
    r->in_side = b[0];
    r->port = atoi(a + (a[0] ? 1 : 0));
    if (l->at < l->n && strchr("NESW", l->tok[l->at][0]) && l->tok[l->at][0]) { /* second hop */
      a = sym_tok(l);
      b = sym_tok(l);
      r->out_side2 = a[0];
      r->in_side2 = b[0];
      r->port2 = atoi(a + 1);
    }
    r->id = sym_reg(l);
    sym_kw(l, "hops"); r->hops = (int)sym_int(l);
    if (r->hops != (r->out_side2 ? 2 : 1)) return -1;
  } else if (!strcmp(kw, "access")) {
    if (!m->access || m->naccess >= cap[4] || sym_int(l) != m->naccess) return -1;
    map_access *a = &m->access[m->naccess++];
    a->is_out = !strcmp(sym_tok(l), "out");
    sym_kw(l, "edge"); a->edge = (int)sym_int(l);
    sym_kw(l, "array"); a->array = (int)sym_int(l);
    sym_kw(l, "reg"); a->reg = sym_reg(l);
    sym_kw(l, "offset"); a->offset = (int)sym_int(l);
    sym_kw(l, "index"); a->index = sym_str(l);
    a->space = sym_dom(l);
  } else if (!strcmp(kw, "leaf")) {
    if (!m->leaves || m->nleaves >= cap[5]) return -1;
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
  } else
    return -1;
  return l->bad || l->at != l->n ? -1 : 0;
}

int sym_read(FILE *f, map_config *m, char *msg, size_t msgsz) {
  char *buf = NULL;
  size_t bufcap = 0;
  int lineno = 0, ended = 0, version = 0;
  sym_line l;
  int64_t cap[6] = {0};
  memset(m, 0, sizeof *m);
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
    if (!l.n || sym_record(&l, m, cap)) {
      snprintf(msg, msgsz, "line %d: malformed record '%s'", lineno, l.n ? l.tok[0] : "");
      goto error;
    }
  }
  free(buf);
  if (ended && (m->axis == 2) != (version == MAP_SYM_VERSION_2D)) {
    snprintf(msg, msgsz, "line 1: version %d does not match the region axis of the file", version);
    map_config_free(m);
    return -1;
  }
  if (ended && m->wide && (m->p_wide < m->p_min || (m->axis == 2 && m->p_wide2 < m->p_min2))) {
    snprintf(msg, msgsz, "lambda-k-wide: the wide tile sizes must be at least p_min (and 2-D needs lambda-k2-wide)");
    map_config_free(m);
    return -1;
  }
  if (!m->wide) { /* no tile size 1: the wide constants are lambda-k's */
    m->p_wide = m->p_min;
    m->p_wide2 = m->p_min2;
    m->lk_cw = m->lk_c;
    m->lk_cw2 = m->lk_c2;
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
