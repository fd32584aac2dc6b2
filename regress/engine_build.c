/*
 * engine_build.c: the compile half of `tcpa run --engine model|rtl|cosim`:
 * program -> RDG -> symbolic mapping (map_build, as `tcpa compile`) ->
 * instantiation (inst_run + inst_emit, as `tcpa instantiate`) with the
 * run's input values (a 1xC or Rx1 region: one tiled dimension; RxC: two,
 * passed as ENGINE_DIMS_2D in `dim`; a program of one loop dimension on
 * an RxC region runs on one line of it, engine_line_pick) -> the stream,
 * the listing and the placement of the
 * output elements (inst_layout_each: the places whose lines `tcpa
 * instantiate --layout` writes), plus the predicted latencies
 * (engine_predict.c).
 *
 * Input values go from the reference's row-major order over the declared
 * extents to the instantiation's row-major order over the accessed
 * bounding box (inst.h array_ext); output indices come back the other way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine_flow.h"
#include "inst.h"
#include "map.h"
#include "map_search.h"
#include "rdg.h"
#include "stream.h"

/* Returns the reference's linear index of element `lin` of array a as the
 * instantiation numbers it (bounding box of x), or -1 outside the
 * declared extents. */
static int64_t engine_index_to_ref(const inst *x, int a, const interp_array *ref, int64_t lin) {
  return interp_array_index_of(ref, x->array_nd[a], x->array_ext[a], lin);
}

/* Returns 0 after filling d with the input values of ref in x's element
 * order (elements outside the declared extents are 0); -1 out of memory. */
static int engine_inputs_convert(const inst *x, const ast_program *p, const interp_array *ref,
                                 inst_data *d) {
  d->vals = calloc((size_t)p->narrays + 1, sizeof *d->vals);
  d->count = calloc((size_t)p->narrays + 1, sizeof *d->count);
  if (!d->vals || !d->count) return -1;
  for (int a = 0; a < p->narrays && a < 64; a++) {
    if (p->arrays[a].kind != AST_ARRAY_IN) continue;
    int64_t n = 1;
    for (int r = 0; r < x->array_nd[a]; r++) n *= x->array_ext[a][r];
    d->count[a] = n;
    d->vals[a] = calloc((size_t)n + 1, sizeof **d->vals);
    if (!d->vals[a]) return -1;
    for (int64_t i = 0; i < n; i++) {
      int64_t j = engine_index_to_ref(x, a, &ref[a], i);
      d->vals[a][i] = j >= 0 && (size_t)j < ref[a].n ? ref[a].data[j] : 0;
    }
  }
  return 0;
}

/* Frees the converted inputs. */
static void engine_inputs_free(inst_data *d, int narrays) {
  for (int a = 0; d->vals && a < narrays; a++) free(d->vals[a]);
  free(d->vals);
  free(d->count);
}

/* What engine_layout_add collects into: the configuration's places and
 * the first failure's message. */
typedef struct {
  const inst *x;
  const ast_program *p;
  const interp_array *ref;
  engine_config *c;
  size_t cap;
  char *msg;
  size_t msgsz;
  int rc;
} engine_layout_ctx;

/* Adds one output placement to the configuration (inst_place_fn), its
 * index in the reference's order; records the first failure. */
static void engine_layout_add(const inst_place *pl, void *ctx) {
  engine_layout_ctx *l = ctx;
  if (l->rc) return;
  int64_t j = engine_index_to_ref(l->x, pl->array, &l->ref[pl->array], pl->lin);
  if (j < 0 || (size_t)j >= l->ref[pl->array].n) {
    snprintf(l->msg, l->msgsz, "internal: layout places %s[%lld], outside the array", l->p->arrays[pl->array].name,
             (long long)pl->lin);
    l->rc = -1;
    return;
  }
  engine_config *c = l->c;
  if (c->nplace == l->cap) {
    engine_place *np = realloc(c->place, 2 * l->cap * sizeof *np);
    if (!np) {
      snprintf(l->msg, l->msgsz, "out of memory");
      l->rc = -1;
      return;
    }
    c->place = np;
    l->cap *= 2;
  }
  c->place[c->nplace++] = (engine_place){pl->array, (size_t)j, pl->row, pl->col, pl->side, pl->bank,
                                         (uint32_t)pl->addr};
}

/* Returns 0 after collecting where inst_layout_each places each output
 * element into c->place (indices in the reference's order); -1 with msg. */
static int engine_layout_read(const inst *x, const ast_program *p, const interp_array *ref,
                              engine_config *c, char *msg, size_t msgsz) {
  engine_layout_ctx l = {x, p, ref, c, 16, msg, msgsz, 0};
  c->place = malloc(l.cap * sizeof *c->place);
  if (!c->place) {
    snprintf(msg, msgsz, "out of memory");
    return -1;
  }
  inst_layout_each(x, engine_layout_add, &l);
  return l.rc;
}

/* Returns 0 after writing the listing of x into c->listing; -1. */
static int engine_listing_make(const inst *x, engine_config *c) {
  size_t len = 0;
  FILE *f = open_memstream(&c->listing, &len);
  if (!f) return -1;
  inst_listing(x, f);
  return fclose(f) ? -1 : 0;
}

/* Returns 0 after setting c's array count and each output array's element
 * count (the reference's); -1 when out of memory. */
static int engine_outputs_size(const ast_program *p, const interp_array *ref, engine_config *c) {
  c->narrays = p->narrays;
  c->out_n = calloc((size_t)p->narrays + 1, sizeof *c->out_n);
  if (!c->out_n) return -1;
  for (int a = 0; a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_OUT) c->out_n[a] = ref[a].n;
  return 0;
}

/* Returns the ENGINE_* status of a MAP_* or INST_* status. */
static int engine_status_of(int st) {
  return st == MAP_ERR_NOFIT ? ENGINE_ERR_NOFIT : ENGINE_ERR_INPUT;
}

/* Returns the seconds of the monotonic clock. */
static double engine_build_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Returns ENGINE_OK after instantiating m into c (stream, listing, layout,
 * prediction, the seconds the instantiation and the emission took); an
 * ENGINE_* status with msg otherwise. */
static int engine_instantiate(const map_config *m, const ast_program *p, const arch_config *arch,
                              const int64_t *params, const interp_array *ref, int rows, int cols,
                              const inst_opts *io, engine_config *c, fit_record *fit, int *words, char *msg,
                              size_t msgsz) {
  inst x;
  inst_data data = {0};
  stream_writer w;
  stream_writer_init(&w, arch);
  char *pname[AST_MAX_PARAMS];
  for (int i = 0; i < p->nparams; i++) pname[i] = p->param[i];
  double t0 = engine_build_now();
  int st = inst_run_opts(&x, io, m, arch, p->nparams, pname, params, rows, cols, msg, msgsz);
  c->inst_seconds = engine_build_now() - t0;
  if (st) {
    if (st == INST_ERR_NOFIT) *fit = x.fit;
    st = engine_status_of(st);
    goto done;
  }
  if (engine_inputs_convert(&x, p, ref, &data)) {
    snprintf(msg, msgsz, "out of memory");
    st = ENGINE_ERR_INPUT;
    goto done;
  }
  t0 = engine_build_now();
  st = inst_emit(&x, &data, &w, msg, msgsz);
  c->emit_seconds = engine_build_now() - t0;
  if (st) {
    if (st == INST_ERR_NOFIT) *fit = x.fit;
    st = engine_status_of(st);
    goto done;
  }
  int sst = stream_writer_finish(&w, &c->stream, &c->stream_len);
  if (sst) {
    snprintf(msg, msgsz, "the stream: %s (%s)", w.msg, stream_error_name(sst));
    st = ENGINE_ERR_INPUT;
    goto done;
  }
  if (engine_listing_make(&x, c) || engine_layout_read(&x, p, ref, c, msg, msgsz)) {
    if (!msg[0]) snprintf(msg, msgsz, "out of memory");
    st = ENGINE_ERR_INPUT;
    goto done;
  }
  if (engine_outputs_size(p, ref, c)) {
    snprintf(msg, msgsz, "out of memory");
    st = ENGINE_ERR_INPUT;
    goto done;
  }
  *words = inst_program_words(&x);
  c->p = x.p;
  c->t = x.t;
  c->gc_ndims = x.n < MODEL_UNIT_DIMS ? x.n : MODEL_UNIT_DIMS;
  for (int g = 0; g < c->gc_ndims; g++) c->gc_order[g] = m->order[g];
  c->npc = x.npc;
  c->nsig = x.nsig;
  engine_predict(&x, &c->pred_done, &c->pred_cycles);
done:
  stream_writer_free(&w);
  engine_inputs_free(&data, p->narrays);
  inst_free(&x);
  return st;
}

/* What the mapping search's check instantiates with (map_search.h). */
typedef struct {
  const ast_program *p;
  const arch_config *arch;
  const int64_t *params;
  const interp_array *ref;
  int rows, cols;
  const inst_opts *io;
  engine_config proto; /* the fields every attempt's configuration starts with */
  engine_config cur;   /* the last attempt's */
  engine_config best;  /* the best's (map_search_keep) */
  int have_best;
} engine_search;

/* map_search_check: instantiates m into s->cur (stream, listing, layout,
 * prediction); the words its programs take. */
static int engine_search_check(void *ctx, const map_config *m, fit_record *why, int *words, char *msg,
                               size_t msgsz) {
  engine_search *s = ctx;
  engine_config_free(&s->cur);
  s->cur = s->proto;
  s->cur.ii = m->ii;
  s->cur.resmii = m->resmii_all;
  s->cur.recmii = m->recmii;
  int st = engine_instantiate(m, s->p, s->arch, s->params, s->ref, s->rows, s->cols, s->io, &s->cur, why, words,
                              msg, msgsz);
  return st == ENGINE_ERR_NOFIT ? FIT_ERR_NOFIT : st == ENGINE_OK ? FIT_OK : FIT_ERR_INPUT;
}

/* map_search_keep: the last attempt's configuration becomes the best. */
static void engine_search_keep(void *ctx) {
  engine_search *s = ctx;
  engine_config_free(&s->best);
  s->best = s->cur;
  memset(&s->cur, 0, sizeof s->cur);
  s->have_best = 1;
}

/* Returns engine_config_build's result; with keep non-NULL, the mapping
 * chosen too in *keep and the RDG of p it may point to in *keep_g (both
 * NULL or zeroed unless ENGINE_OK: map_config_free, then rdg_free). */
static int engine_build_search(const ast_program *p, const arch_config *arch, const int64_t *params,
                               const interp_array *ref, int rows, int cols, int dim, const map_opts *mo,
                               const inst_opts *io, engine_config *c, fit_record *fit, map_config *keep,
                               rdg **keep_g, char *msg, size_t msgsz) {
  if (keep) memset(keep, 0, sizeof *keep), *keep_g = NULL;
  memset(c, 0, sizeof *c);
  fit_record_clear(fit);
  c->map_off = mo ? mo->off : 0;
  msg[0] = 0;
  int dim2 = -1;
  int line = map_search_line(p, &rows, &cols);
  c->line_rows = line ? rows : 0;
  c->line_cols = line ? cols : 0;
  c->axis = rows > 1 ? 1 : 0;
  if (rows > 1 && cols > 1) { /* 2-D: ENGINE_DIMS_2D, or dim and dim + 1 */
    c->axis = 2;
    dim2 = dim >= AST_MAX_DIMS ? dim / AST_MAX_DIMS - 1 : dim + 1;
    dim = dim % AST_MAX_DIMS;
    if (p->ndims < 2 || dim2 >= p->ndims) {
      fit_nofit(fit, msg, msgsz, FIT_RES_REGION_DIMS, "", 2, p->ndims, "",
                "region %dx%d: an RxC region tiles two loop dimensions onto its rows and columns, program '%s' "
                "has %d", rows, cols, p->name, p->ndims);
      return ENGINE_ERR_NOFIT;
    }
  }
  c->dim = dim;
  c->dim2 = dim2;
  c->fingerprint = arch_config_fingerprint(arch);
  rdg *g = rdg_build(p);
  if (!g) {
    snprintf(msg, msgsz, "cannot build the dependence graph");
    return ENGINE_ERR_INPUT;
  }
  /* the mapping search (map_search.c, docs/symbolic.md "The mapping
   * search"): every attempt instantiated with the run's parameters and
   * inputs, the best kept */
  engine_search es = {p, arch, params, ref, rows, cols, io, *c, {0}, {0}, 0};
  map_search_opts so = {.mapped = dim, .axis = c->axis, .mapped2 = dim2, .o = mo ? *mo : (map_opts){0},
                        .one_pe = rows == 1 && cols == 1, .check = engine_search_check,
                        .keep = engine_search_keep, .ctx = &es};
  map_config m;
  map_search_result res;
  int st = map_search_run(p, g, arch, &so, &m, &res, msg, msgsz);
  if (st == FIT_OK) {
    *c = es.best;
    memset(&es.best, 0, sizeof es.best);
    c->ii_min = res.rq.ii_min;
    c->map_level = res.rq.level;
    c->map_pad = res.rq.o.pad;
    c->map_one_pe = res.rq.o.one_pe;
    c->map_off = res.rq.o.off;
  } else if (st == FIT_ERR_NOFIT) {
    *fit = m.fit;
  }
  c->map_attempts = res.attempts;
  engine_config_free(&es.cur);
  engine_config_free(&es.best);
  if (keep && st == FIT_OK) {
    *keep = m;
    *keep_g = g;
  } else {
    map_config_free(&m);
    rdg_free(g);
  }
  return st == FIT_OK ? ENGINE_OK : st == FIT_ERR_NOFIT ? ENGINE_ERR_NOFIT : ENGINE_ERR_INPUT;
}

int engine_config_build(const ast_program *p, const arch_config *arch, const int64_t *params,
                        const interp_array *ref, int rows, int cols, int dim, const map_opts *mo,
                        const inst_opts *io, engine_config *c, fit_record *fit, char *msg, size_t msgsz) {
  return engine_build_search(p, arch, params, ref, rows, cols, dim, mo, io, c, fit, NULL, NULL, msg, msgsz);
}

int engine_map_rebuild(const ast_program *p, const arch_config *arch, const int64_t *params,
                       const interp_array *ref, int rows, int cols, int dim, const map_opts *mo, const inst_opts *io,
                       map_config *m, rdg **g, char *msg, size_t msgsz) {
  engine_config c;
  fit_record fit;
  int st = engine_build_search(p, arch, params, ref, rows, cols, dim, mo, io, &c, &fit, m, g, msg, msgsz);
  engine_config_free(&c);
  return st;
}
