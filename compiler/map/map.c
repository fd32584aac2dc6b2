/*
 * map.c: the driver of symbolic mapping: map_build() runs the steps of
 * section 5 in order (map.h) and map_config_free() releases the result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map.h"

const char *map_reg_str(map_reg r, int32_t value, char *buf, size_t size) {
  static const char *const cls[] = {"-", "rd", "fd", "id", "od", "#"};
  if (r.cls == MAP_REG_NONE) snprintf(buf, size, "-");
  else if (r.cls == MAP_REG_IMM) snprintf(buf, size, "#%d", (int)value);
  else snprintf(buf, size, "%s%d", cls[r.cls], r.idx);
  return buf;
}

/* Copies the names of the program into *m; returns 0 or -1. */
static int map_copy_names(map_config *m, const ast_program *p) {
  m->name = map_strdup(p->name);
  for (int k = 0; k < p->nparams; k++) m->param_name[k] = map_strdup(p->param[k]);
  for (int k = 0; k < p->ndims; k++) m->dim_name[k] = map_strdup(p->index[k]);
  m->narrays = p->narrays;
  m->array_name = calloc((size_t)p->narrays + 1, sizeof *m->array_name);
  if (!m->name || !m->array_name) return -1;
  for (int a = 0; a < p->narrays; a++)
    if (!(m->array_name[a] = map_strdup(p->arrays[a].name))) return -1;
  return 0;
}

/* Puts back the record *keep of an earlier try into m and its message
 * into msg (a later try that does not fit either reports the first). */
static void map_build_restore(map_config *m, const fit_record *keep, char *msg, size_t msgsz) {
  m->fit = *keep;
  fit_record_format(&m->fit, msg, msgsz);
}

/* Returns MAP_OK after the steps (map_build, map_build_2d). */
static int map_build_any(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                         int mapped2, int ii_min, int level, const map_opts *o, map_config *m, char *msg,
                         size_t msgsz);

int map_build(const ast_program *p, const rdg *g, const arch_config *arch,
              int mapped, int axis, map_config *m, char *msg, size_t msgsz) {
  return map_build_any(p, g, arch, mapped, axis, -1, 0, 0, NULL, m, msg, msgsz);
}

int map_build_2d(const ast_program *p, const rdg *g, const arch_config *arch, int rdim, int cdim,
                 map_config *m, char *msg, size_t msgsz) {
  return map_build_any(p, g, arch, rdim, 2, cdim, 0, 0, NULL, m, msg, msgsz);
}

int map_build_opts(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                   int mapped2, const map_opts *o, map_config *m, char *msg, size_t msgsz) {
  return map_build_any(p, g, arch, mapped, axis, mapped2, 0, 0, o, m, msg, msgsz);
}

int map_build_ii(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis, int mapped2,
                 int ii_min, map_config *m, char *msg, size_t msgsz) {
  return map_build_any(p, g, arch, mapped, axis, mapped2, ii_min, 0, NULL, m, msg, msgsz);
}

int map_build_level(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis, int mapped2,
                    int ii_min, int level, const map_opts *o, map_config *m, char *msg, size_t msgsz) {
  return map_build_any(p, g, arch, mapped, axis, mapped2, ii_min, level, o, m, msg, msgsz);
}

int map_opts_off_parse(const char *list, unsigned *off, char *msg, size_t msgsz) {
  static const char *const names[] = {"cse", "forward", "dests", "share", "reread"};
  const int n = (int)(sizeof names / sizeof names[0]);
  *off = 0;
  for (const char *s = list; *s;) {
    size_t len = strcspn(s, ",");
    int k = 0;
    while (k < n && (strlen(names[k]) != len || strncmp(s, names[k], len))) k++;
    if (k == n) {
      snprintf(msg, msgsz, "unknown rewrite '%.*s' (known: cse, forward, dests, share, reread)", (int)len, s);
      return -1;
    }
    *off |= 1u << k;
    s += len + (s[len] == ',');
  }
  return 0;
}

static int map_build_steps(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                           int mapped2, int ii_min, int ii_bump, int no_cse, const map_opts *o, map_config *m,
                           char *msg, size_t msgsz);
static int map_build_levels(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                            int mapped2, int ii_min, int level, int bump, int *rd_only, const map_opts *o,
                            map_config *m, char *msg, size_t msgsz);
static int map_build_rereads(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                             int mapped2, int ii_min, int level, int bump, int *rd_only, const map_opts *o,
                             map_config *m, char *msg, size_t msgsz);

/* Returns map_build_levels' result for p with its accumulations padded
 * (map_reread_pad; m owns that program), NOFIT when p has none. */
static int map_build_padded(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                            int mapped2, int ii_min, int level, const map_opts *o, map_config *m, char *msg,
                            size_t msgsz) {
  memset(m, 0, sizeof *m);
  map_reread *r = map_reread_pad(p);
  if (!r || !(r->g = rdg_build(&r->prog))) {
    map_reread_free(r);
    return fit_nofit(&m->fit, msg, msgsz, FIT_RES_NONE, "", -1, -1, "", "no accumulation to pad");
  }
  int rd_only = 0;
  int st = map_build_levels(&r->prog, r->g, arch, mapped, axis, mapped2, ii_min, level, 0, &rd_only, o, m, msg,
                            msgsz);
  if (st == MAP_OK) {
    m->reread = r;
    return st;
  }
  m->prog = p;
  m->g = g;
  map_reread_free(r);
  return st;
}

static int map_build_one(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                         int mapped2, int ii_min, int level, const map_opts *o, map_config *m, char *msg,
                         size_t msgsz);

/* Returns map_build_one's result; for a 1-D region whose mapping does not
 * fit, that of the same tries with the I/O accesses allowed over every
 * border side a PE of the region can have (map_access.c; which PE uses
 * which side is decided at instantiation, inst_io.c), and the first message
 * when that does not fit either, unless it was about the banks. Mappings
 * that fit one side's banks are unchanged. */
static int map_build_any(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                         int mapped2, int ii_min, int level, const map_opts *o, map_config *m, char *msg,
                         size_t msgsz) {
  int st = map_build_one(p, g, arch, mapped, axis, mapped2, ii_min, level, o, m, msg, msgsz);
  if (st != MAP_ERR_NOFIT || axis == MAP_AXIS_2D || (o && o->spread_io)) return st;
  map_opts o2 = o ? *o : (map_opts){0};
  o2.spread_io = 1;
  fit_record keep = m->fit;
  map_config_free(m);
  st = map_build_one(p, g, arch, mapped, axis, mapped2, ii_min, level, &o2, m, msg, msgsz);
  if (st == MAP_ERR_NOFIT && !fit_record_has(&keep, FIT_RES_IO_BANKS)) map_build_restore(m, &keep, msg, msgsz);
  return st;
}

/* Returns map_build_rereads' result; when nothing fits and some level ran
 * out of registers rd only, that of the same tries with every such level
 * mapped again at an II one, then two, above the one it had (more slack for pressure relief,
 * map_regs.c: editdist on default.ini), and the first message when that
 * does not fit either. Mappings that fit without it are unchanged. */
static int map_build_one(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                         int mapped2, int ii_min, int level, const map_opts *o, map_config *m, char *msg,
                         size_t msgsz) {
  int rd_only = 0;
  if (o && o->pad) return map_build_padded(p, g, arch, mapped, axis, mapped2, ii_min, level, o, m, msg, msgsz);
  int st = map_build_rereads(p, g, arch, mapped, axis, mapped2, ii_min, level, 0, &rd_only, o, m, msg, msgsz);
  if (st != MAP_ERR_NOFIT || !rd_only) return st;
  fit_record keep = m->fit;
  for (int bump = 1; bump <= 2 && st == MAP_ERR_NOFIT; bump++) {
    map_config_free(m);
    st = map_build_rereads(p, g, arch, mapped, axis, mapped2, ii_min, level, bump, &rd_only, o, m, msg, msgsz);
  }
  if (st == MAP_ERR_NOFIT) map_build_restore(m, &keep, msg, msgsz);
  return st;
}

/* Returns map_build_levels' result, and when nothing fits, that of the
 * program with its propagated inputs read again (map_reread.c) if it
 * fits, then with its chains read again too; map_build_levels:
 * map_build_steps' result, and when it does not
 * fit, that of the next try with fewer rewrites (m->no_cse 1..4: no common subexpressions
 * of different variables, whose op's value needs an fd or channel of its
 * own; then outputs keep their `mov`, one od per producer otherwise; then
 * no operand forwarding and no destinations per condition, the copies of
 * before; then one op per equation and no shared slots, the mapping of
 * before); when none fits, the last try's message. */
static int map_build_rereads(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                             int mapped2, int ii_min, int level, int bump, int *rd_only, const map_opts *o,
                             map_config *m, char *msg, size_t msgsz) {
  int st = map_build_levels(p, g, arch, mapped, axis, mapped2, ii_min, level, bump, rd_only, o, m, msg, msgsz);
  if (st != MAP_ERR_NOFIT || (o && (o->off & MAP_OFF_REREAD))) return st;
  /* inputs read again instead of propagated (map_reread.c); the first
   * message stays when that does not fit either */
  fit_record keep = m->fit;
  int st2 = MAP_ERR_NOFIT;
  /* then chains read again too (fir's u): only when the plain re-read
   * does not fit, so that what fits with it stays as it is */
  for (int chains = 0; chains <= 1 && st2 == MAP_ERR_NOFIT; chains++) {
    map_reread *r = map_reread_build(p, chains);
    if (!r || !(r->g = rdg_build(&r->prog))) {
      map_reread_free(r);
      continue;
    }
    map_config_free(m);
    st2 = map_build_levels(&r->prog, r->g, arch, mapped, axis, mapped2, ii_min, level, bump, rd_only, o, m, msg,
                           msgsz);
    if (st2 == MAP_OK) {
      m->reread = r;
      return MAP_OK;
    }
    m->prog = p;
    m->g = g;
    map_reread_free(r);
  }
  if (st2 == MAP_ERR_NOFIT) map_build_restore(m, &keep, msg, msgsz);
  return st2 == MAP_ERR_NOFIT ? st : st2;
}

/* Returns 1 when registers rd, and nothing else, ran out (record r). */
static int map_build_rd_only(const fit_record *r) {
  static const fit_resource rd[] = {FIT_RES_RD};
  return fit_record_only(r, rd, 1);
}

/* Returns map_build_steps' result from rewrite level `level` on, each
 * level tried while the previous one does not fit (map_build_any); sets
 * *rd_only when a level ran out of registers rd only; with `bump`, such a
 * level is mapped again at its II + bump (and that result kept). */
static int map_build_levels(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                            int mapped2, int ii_min, int level, int bump, int *rd_only, const map_opts *o,
                            map_config *m, char *msg, size_t msgsz) {
  int st = MAP_ERR_NOFIT;
  for (int l = level; l <= 4 && st == MAP_ERR_NOFIT; l++) {
    if (l > level) map_config_free(m);
    st = map_build_steps(p, g, arch, mapped, axis, mapped2, ii_min, 0, l, o, m, msg, msgsz);
    if (st == MAP_ERR_NOFIT && m->ii > 0 && map_build_rd_only(&m->fit)) *rd_only = 1;
    if (st == MAP_ERR_NOFIT && bump && m->ii > 0 && map_build_rd_only(&m->fit)) {
      int ii = m->ii + bump;
      map_config_free(m);
      st = map_build_steps(p, g, arch, mapped, axis, mapped2, ii > ii_min ? ii : ii_min, ii > ii_min ? bump : 0, l,
                           o, m, msg, msgsz);
    }
  }
  return st;
}

/* Returns MAP_OK when every op's result lands by the last output event of
 * its iteration (the latest output access offset), as the run pipeline's
 * latency prediction assumes (engine_predict.c: results in flight after a
 * halt land before the last bank event of the step); else NOFIT, which
 * makes map_build_any try with fewer rewrites (an output `mov` at the end
 * kept this true before output forwarding). Not checked at level 3 or
 * without outputs. */
static int map_build_lands(map_config *m, char *msg, size_t msgsz) {
  int last = -1;
  for (int a = 0; a < m->naccess; a++)
    if (m->access[a].is_out && m->access[a].offset > last) last = m->access[a].offset;
  if (last < 0 || m->no_cse >= 3) return MAP_OK;
  for (int o = 0; o < m->nops; o++)
    if (m->ops[o].tau + m->ops[o].lat > last)
      return fit_nofit(&m->fit, msg, msgsz, FIT_RES_SCHEDULE, "", -1, -1, "",
                       "schedule: op %d's result lands at offset %d, after the last output event (%d)", o,
                       m->ops[o].tau + m->ops[o].lat, last);
  return MAP_OK;
}

/* Returns MAP_OK after the steps of section 5 in order (one try); ii_bump
 * > 0 says that ii_min is an II at which registers rd ran out plus it. */
static int map_build_steps(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                           int mapped2, int ii_min, int ii_bump, int no_cse, const map_opts *o, map_config *m,
                           char *msg, size_t msgsz) {
  int st;
  memset(m, 0, sizeof *m);
  m->ii_min = ii_min;
  m->ii_bump = ii_bump;
  m->no_cse = no_cse;
  m->off = o ? o->off : 0;
  m->spread_io = o ? o->spread_io : 0;
  m->one_pe = o ? o->one_pe : 0;
  msg[0] = 0;
  m->prog = p;
  m->g = g;
  m->arch = *arch;
  m->fingerprint = arch_config_fingerprint(arch);
  m->ndims = p->ndims;
  m->nparams = p->nparams;
  m->mapped[0] = mapped;
  m->axis = axis;
  m->mapped[1] = axis == MAP_AXIS_2D ? mapped2 : -1;
  if (map_copy_names(m, p)) {
    snprintf(msg, msgsz, "out of memory");
    return MAP_ERR_INTERNAL;
  }
  if (mapped < 0 || mapped >= p->ndims) {
    snprintf(msg, msgsz, "--map %d: the program has %d dimension%s (0..%d)", mapped, p->ndims,
             p->ndims == 1 ? "" : "s", p->ndims - 1);
    return MAP_ERR_INPUT;
  }
  if (axis == MAP_AXIS_2D && (mapped2 < 0 || mapped2 >= p->ndims || mapped2 == mapped)) {
    snprintf(msg, msgsz, "--map: a 2-D region needs two different loop dimensions (the program has %d)",
             p->ndims);
    return MAP_ERR_INPUT;
  }
  if (p->ndims > arch->gc_dims) {
    return fit_nofit(&m->fit, msg, msgsz, FIT_RES_LOOP_DIMS, "gc.dims", p->ndims, arch->gc_dims, "",
                     "loop dimensions: the program has %d, gc.dims = %d", p->ndims, arch->gc_dims);
  }
  if ((st = map_tile(m, msg, msgsz)) != MAP_OK) return st;
  if ((st = map_sched(m, msg, msgsz)) != MAP_OK) return st;
  if ((st = map_regs(m, msg, msgsz)) != MAP_OK) return st;
  if ((st = map_route_channels(m, msg, msgsz)) != MAP_OK) return st;
  if ((st = map_access_build(m, msg, msgsz)) != MAP_OK) return st;
  if ((st = map_build_lands(m, msg, msgsz)) != MAP_OK) return st;
  if ((st = map_pst(m, msg, msgsz)) != MAP_OK) return st;
  if (!o || !o->no_tile1) map_sched_tile1(m);
  return MAP_OK;
}

void map_config_free(map_config *m) {
  if (!m) return;
  free(m->name);
  for (int k = 0; k < AST_MAX_PARAMS; k++) free(m->param_name[k]);
  for (int k = 0; k < AST_MAX_DIMS; k++) {
    free(m->dim_name[k]);
    free(m->lo[k]);
    free(m->hi[k]);
  }
  for (int a = 0; m->array_name && a < m->narrays; a++) free(m->array_name[a]);
  free(m->array_name);
  for (int i = 0; i < m->nops; i++) map_dom_free(&m->ops[i].dom);
  free(m->excl);
  m->excl = NULL;
  free(m->ops);
  for (int i = 0; i < m->nedges; i++) {
    free(m->edges[i].index);
    map_dom_free(&m->edges[i].use);
    map_dom_free(&m->edges[i].def);
  }
  free(m->edges);
  free(m->regs);
  free(m->routes);
  for (int i = 0; i < m->naccess; i++) {
    free(m->access[i].index);
    map_dom_free(&m->access[i].space);
  }
  free(m->access);
  for (int i = 0; i < m->nleaves; i++) map_dom_free(&m->leaves[i].dom);
  free(m->leaves);
  map_reread_free(m->reread);
  memset(m, 0, sizeof *m);
}
