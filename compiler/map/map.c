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

/* What every try of one mapping request shares (map_build_req). */
typedef struct {
  const ast_program *p;
  const rdg *g;
  const arch_config *arch;
  int mapped, axis, mapped2;
  const map_opts *o; /* never NULL */
  char *msg;
  size_t msgsz;
  int *ii_bound;     /* the smallest max(ResMII, RecMII) of the tries so far */
  map_isl *isl;      /* the context every try's sets live in */
} map_job;

/* Puts back the record *keep of an earlier try into m and its message
 * into msg (a later try that does not fit either reports the first). */
static void map_build_restore(const map_job *j, map_config *m, const fit_record *keep) {
  m->fit = *keep;
  fit_record_format(&m->fit, j->msg, j->msgsz);
}

static int map_build_one(const map_job *j, int ii_min, int level, map_config *m);
static int map_build_spread(const map_job *j0, const map_request *rq, map_config *m);

int map_build_req(const ast_program *p, const rdg *g, const arch_config *arch, const map_request *rq, map_config *m,
                  char *msg, size_t msgsz) {
  int bound = 0;
  map_job j = {p, g, arch, rq->mapped, rq->axis, rq->axis == MAP_AXIS_2D ? rq->mapped2 : -1, &rq->o, msg, msgsz,
               &bound, rq->isl ? map_isl_get(rq->isl) : map_isl_new()};
  if (!j.isl) {
    memset(m, 0, sizeof *m);
    snprintf(msg, msgsz, "out of memory");
    return MAP_ERR_INTERNAL;
  }
  int st = map_build_spread(&j, rq, m);
  map_isl_put(j.isl); /* m keeps its own reference */
  return st;
}

/* Returns map_build_one's result for request rq (job j), and for a 1-D
 * region that does not fit, that of the same tries with the accesses on
 * every border side (below). */
static int map_build_spread(const map_job *j0, const map_request *rq, map_config *m) {
  map_job j = *j0;
  int st = map_build_one(&j, rq->ii_min, rq->level, m);
  m->ii_bound = *j.ii_bound;
  if (st != MAP_ERR_NOFIT || rq->axis == MAP_AXIS_2D || rq->o.spread_io) return st;
  /* a 1-D region whose mapping does not fit: the same tries with the I/O
   * accesses allowed over every border side a PE of the region can have
   * (map_access.c; which PE uses which side is decided at instantiation,
   * inst_io.c), and the first record when that does not fit either,
   * unless it was about the banks. Mappings that fit one side's banks
   * are unchanged. */
  map_opts o2 = rq->o;
  o2.spread_io = 1;
  j.o = &o2;
  fit_record keep = m->fit;
  map_config_free(m);
  st = map_build_one(&j, rq->ii_min, rq->level, m);
  if (st == MAP_ERR_NOFIT && !fit_record_has(&keep, FIT_RES_IO_BANKS)) map_build_restore(&j, m, &keep);
  m->ii_bound = *j.ii_bound;
  return st;
}

/* Returns map_build_req's result for a request without options. */
static int map_build_plain(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                           int mapped2, const map_opts *o, int ii_min, int level, map_config *m, char *msg,
                           size_t msgsz) {
  map_request rq = {mapped, axis, mapped2, ii_min, level, o ? *o : (map_opts){0}, NULL};
  return map_build_req(p, g, arch, &rq, m, msg, msgsz);
}

int map_build(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis, map_config *m,
              char *msg, size_t msgsz) {
  return map_build_plain(p, g, arch, mapped, axis, -1, NULL, 0, 0, m, msg, msgsz);
}

int map_build_2d(const ast_program *p, const rdg *g, const arch_config *arch, int rdim, int cdim, map_config *m,
                 char *msg, size_t msgsz) {
  return map_build_plain(p, g, arch, rdim, MAP_AXIS_2D, cdim, NULL, 0, 0, m, msg, msgsz);
}

int map_build_opts(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                   int mapped2, const map_opts *o, map_config *m, char *msg, size_t msgsz) {
  return map_build_plain(p, g, arch, mapped, axis, mapped2, o, 0, 0, m, msg, msgsz);
}

int map_build_level(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis, int mapped2,
                    int ii_min, int level, const map_opts *o, map_config *m, char *msg, size_t msgsz) {
  return map_build_plain(p, g, arch, mapped, axis, mapped2, o, ii_min, level, m, msg, msgsz);
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

static int map_build_steps(const map_job *j, const ast_program *p, const rdg *g, int ii_min, int ii_bump,
                           int no_cse, map_config *m);
static int map_build_levels(const map_job *j, const ast_program *p, const rdg *g, int ii_min, int level, int bump,
                            int *rd_only, map_config *m);
static int map_build_rereads(const map_job *j, int ii_min, int level, int bump, int *rd_only, map_config *m);

/* Returns map_build_levels' result for the program r (a padded or re-read
 * copy of j's; m owns it when it fits), NOFIT when r is NULL (none to
 * build: `none` says why). */
static int map_build_variant(const map_job *j, map_reread *r, const char *none, int ii_min, int level, int bump,
                             int *rd_only, map_config *m) {
  memset(m, 0, sizeof *m);
  if (!r || !(r->g = rdg_build(&r->prog))) {
    map_reread_free(r);
    return fit_nofit(&m->fit, j->msg, j->msgsz, FIT_RES_NONE, "", -1, -1, "", "%s", none);
  }
  int st = map_build_levels(j, &r->prog, r->g, ii_min, level, bump, rd_only, m);
  if (st == MAP_OK) {
    m->reread = r;
    return st;
  }
  m->prog = j->p;
  m->g = j->g;
  map_reread_free(r);
  return st;
}

/* Returns map_build_rereads' result; when nothing fits and some level ran
 * out of registers rd only, that of the same tries with every such level
 * mapped again at an II one, then two, above the one it had (more slack
 * for pressure relief, map_regs.c: editdist on default.ini), and the
 * first record when that does not fit either. Mappings that fit without
 * it are unchanged. With map_opts.pad, the program with its
 * accumulations padded (map_reread_pad) at each level instead. */
static int map_build_one(const map_job *j, int ii_min, int level, map_config *m) {
  int rd_only = 0;
  if (j->o->pad)
    return map_build_variant(j, map_reread_pad(j->p), "no accumulation to pad", ii_min, level, 0, &rd_only, m);
  int st = map_build_rereads(j, ii_min, level, 0, &rd_only, m);
  if (st != MAP_ERR_NOFIT || !rd_only) return st;
  fit_record keep = m->fit;
  for (int bump = 1; bump <= 2 && st == MAP_ERR_NOFIT; bump++) {
    map_config_free(m);
    st = map_build_rereads(j, ii_min, level, bump, &rd_only, m);
  }
  if (st == MAP_ERR_NOFIT) map_build_restore(j, m, &keep);
  return st;
}

/* Returns map_build_levels' result, and when nothing fits, that of the
 * program with its propagated inputs read again (map_reread.c) if it
 * fits, then with its chains read again too (only when the plain re-read
 * does not fit, so that what fits with it stays as it is), the first
 * record when none fits. map_opts.reread 1 or 2 maps that re-read
 * program at once (the mapping search's tries for a lower II). */
static int map_build_rereads(const map_job *j, int ii_min, int level, int bump, int *rd_only, map_config *m) {
  if (j->o->reread)
    return map_build_variant(j, map_reread_build(j->isl->ctx, j->p, j->o->reread - 1),
                             "no input or chain to read again", ii_min, level, bump, rd_only, m);
  int st = map_build_levels(j, j->p, j->g, ii_min, level, bump, rd_only, m);
  if (st != MAP_ERR_NOFIT || (j->o->off & MAP_OFF_REREAD)) return st;
  fit_record keep = m->fit;
  int st2 = MAP_ERR_NOFIT;
  for (int chains = 0; chains <= 1 && st2 == MAP_ERR_NOFIT; chains++) {
    map_reread *r = map_reread_build(j->isl->ctx, j->p, chains);
    if (!r) continue;
    map_config_free(m);
    st2 = map_build_variant(j, r, "", ii_min, level, bump, rd_only, m);
  }
  if (st2 == MAP_ERR_NOFIT) map_build_restore(j, m, &keep);
  return st2 == MAP_ERR_NOFIT ? st : st2;
}

/* Lowers the job's II bound to the smallest II try m's schedule could
 * have had (map_config.ii_lb) when m was scheduled that far. */
static void map_build_bound(const map_job *j, const map_config *m) {
  if (m->ii_lb > 0 && (!*j->ii_bound || m->ii_lb < *j->ii_bound)) *j->ii_bound = m->ii_lb;
}

/* Returns 1 when registers rd, and nothing else, ran out (record r). */
static int map_build_rd_only(const fit_record *r) {
  static const fit_resource rd[] = {FIT_RES_RD};
  return fit_record_only(r, rd, 1);
}

/* Writes one line of the log (map_opts.log): the try (rewrite level, II
 * asked for, the program's variant) and what it gave. */
static void map_build_log(const map_job *j, const ast_program *p, int level, int ii_min, int st, const map_config *m) {
  if (!j->o->log) return;
  const char *variant = j->o->pad ? ", padded" : p != j->p ? ", inputs read again" : "";
  fprintf(j->o->log, "    map: level %d, II >= %d%s%s%s: ", level, ii_min, variant,
          j->o->spread_io ? ", I/O on every side" : "", j->o->one_pe ? ", one tile" : "");
  if (st == MAP_OK) fprintf(j->o->log, "maps at II %d\n", m->ii);
  else fprintf(j->o->log, "dropped: %s\n", j->msg);
}

/* Returns map_build_steps' result from rewrite level `level` on, each
 * level tried while the previous one does not fit (m->no_cse 1..4: no
 * common subexpressions of different variables, whose op's value needs
 * an fd or channel of its own; then outputs keep their `mov`, one od per
 * producer otherwise; then no operand forwarding and no destinations per
 * condition, the copies of before; then one op per equation and no
 * shared slots, the mapping of before); when none fits, the last try's
 * record. Sets *rd_only when a level ran out of registers rd only; with
 * `bump`, such a level is mapped again at its II + bump (and that result
 * kept). */
static int map_build_levels(const map_job *j, const ast_program *p, const rdg *g, int ii_min, int level, int bump,
                            int *rd_only, map_config *m) {
  int st = MAP_ERR_NOFIT;
  for (int l = level; l <= 4 && st == MAP_ERR_NOFIT; l++) {
    if (l > level) map_config_free(m);
    st = map_build_steps(j, p, g, ii_min, 0, l, m);
    map_build_log(j, p, l, ii_min, st, m);
    map_build_bound(j, m);
    if (st == MAP_ERR_NOFIT && m->ii > 0 && map_build_rd_only(&m->fit)) *rd_only = 1;
    if (st == MAP_ERR_NOFIT && bump && m->ii > 0 && map_build_rd_only(&m->fit)) {
      int ii = m->ii + bump;
      map_config_free(m);
      st = map_build_steps(j, p, g, ii > ii_min ? ii : ii_min, ii > ii_min ? bump : 0, l, m);
      map_build_log(j, p, l, ii > ii_min ? ii : ii_min, st, m);
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

static int map_build_steps_at(const map_job *j, const ast_program *p, const rdg *g, int ii_min, int ii_bump,
                              int no_cse, int gather, map_config *m);

/* Returns MAP_OK after the steps of section 5 in order (one try); ii_bump
 * > 0 says that ii_min is an II at which registers rd ran out plus it.
 * When only registers id and od run out, the try is made once more with
 * the readers of a token stream gathered (map_config.gather_reads), and
 * its first record kept if that does not fit either. */
static int map_build_steps(const map_job *j, const ast_program *p, const rdg *g, int ii_min, int ii_bump,
                           int no_cse, map_config *m) {
  static const fit_resource chan[] = {FIT_RES_ID, FIT_RES_OD};
  int st = map_build_steps_at(j, p, g, ii_min, ii_bump, no_cse, 0, m);
  if (st != MAP_ERR_NOFIT || !m->fit.n || !fit_record_only(&m->fit, chan, 2)) return st;
  fit_record keep = m->fit;
  map_config_free(m);
  st = map_build_steps_at(j, p, g, ii_min, ii_bump, no_cse, 1, m);
  if (st == MAP_ERR_NOFIT) map_build_restore(j, m, &keep);
  return st;
}

/* Returns MAP_OK after the steps of section 5 in order (one try, with
 * map_config.gather_reads = gather). */
static int map_build_steps_at(const map_job *j, const ast_program *p, const rdg *g, int ii_min, int ii_bump,
                              int no_cse, int gather, map_config *m) {
  const arch_config *arch = j->arch;
  const map_opts *o = j->o;
  int mapped = j->mapped, axis = j->axis, mapped2 = j->mapped2;
  char *msg = j->msg;
  size_t msgsz = j->msgsz;
  int st;
  memset(m, 0, sizeof *m);
  m->isl = map_isl_get(j->isl);
  m->ii_min = ii_min;
  m->ii_bump = ii_bump;
  m->no_cse = no_cse;
  m->off = o ? o->off : 0;
  m->spread_io = o ? o->spread_io : 0;
  m->one_pe = o ? o->one_pe : 0;
  m->gather_reads = gather;
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
  map_isl_put(m->isl);
  memset(m, 0, sizeof *m);
}
