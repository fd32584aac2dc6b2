/*
 * run_tile.c: `tcpa run` of a problem whose arrays do not fit its region
 * (docs/tiling.md): run.c comes here when the engine's build was refused
 * for want of bank words or fd depth (FIT_RES_BANK_DEPTH,
 * FIT_RES_FD_DEPTH), resources a smaller problem needs less of. Nothing
 * has run then. The program is ruled on (rt_tile_rule_make: which loops
 * may be cut, and why the others not); with no loop to cut, the run is
 * refused with each loop's reason (exit 3) and nothing runs. Else the
 * program is mapped by the mapping search of `tcpa run` for the region,
 * each attempt instantiated in ever smaller chunks until one fits or
 * another resource runs out (its .sym written to DIR/tiled.sym with
 * --out-dir, else to a temporary file), and
 * the host runtime runs it on the model in chunks (tcpa_rt_run_tiled:
 * the call a host program makes), each chunk an
 * instantiation with the chunk's parameters on the region. The gathered
 * outputs are compared with the reference interpreter's on the whole
 * problem. Other engines are refused (exit 2): the runtime runs on the
 * model only (docs/runtime.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "inst.h"
#include "map_search.h"
#include "rdg.h"
#include "rt_tile.h"
#include "run.h"
#include "sym.h"

/* What the mapping search's check instantiates with (run_tile_check). */
typedef struct {
  const ast_program *p;
  const run_opts *o;
  const arch_config *cfg;
  const int64_t *params;
  const rt_tile_rule *r;
  int rows, cols;
} run_tile_search;

/* map_search_check: instantiates m as the runtime will (its options, the
 * region's origin) for the whole problem and, while that is refused only
 * for want of bank words or fd depth, for every cut loop's extent halved
 * again: a mapping fits when some chunk of it does. */
static int run_tile_check(void *ctx, const map_config *m, fit_record *why, int *words, char *msg, size_t msgsz) {
  const run_tile_search *s = ctx;
  static const fit_resource sized[] = {FIT_RES_BANK_DEPTH, FIT_RES_FD_DEPTH};
  int64_t q[AST_MAX_PARAMS];
  memcpy(q, s->params, sizeof q);
  inst_opts io = {0};
  io.row0 = s->o->inst.row0, io.col0 = s->o->inst.col0;
  for (;;) {
    inst x;
    int st = inst_run_opts(&x, &io, m, s->cfg, s->p->nparams, (char **)s->p->param, q, s->rows, s->cols, msg, msgsz);
    int halve = st == INST_ERR_NOFIT && fit_record_only(&x.fit, sized, 2);
    if (st == INST_ERR_NOFIT) *why = x.fit;
    if (st == INST_OK) *words = inst_program_words(&x);
    inst_free(&x);
    int changed = 0;
    for (int d = 0; halve && d < s->p->ndims; d++) {
      int P = s->r->loop[d].param;
      if (s->r->loop[d].kind != RT_TILE_FIXED && q[P] > 1) q[P] = (q[P] + 1) / 2, changed = 1;
    }
    if (!changed) return st == INST_OK ? FIT_OK : st == INST_ERR_NOFIT ? FIT_ERR_NOFIT : FIT_ERR_INPUT;
  }
}

/* Returns 0 after mapping p for o's region (rows x cols, narrowed to a
 * line for a 1-D program) with the mapping search of `tcpa run`, each
 * attempt checked in chunks (run_tile_check), and writing its .sym to
 * path; -1 after printing why. */
static int run_tile_sym(const ast_program *p, const run_opts *o, const arch_config *cfg, const int64_t *params,
                        const rt_tile_rule *r, int rows, int cols, int dim, const char *path) {
  int dim2 = -1;
  int axis = rows > 1 && cols > 1 ? MAP_AXIS_2D : rows > 1 ? MAP_AXIS_ROWS : MAP_AXIS_COLS;
  if (axis == MAP_AXIS_2D) {
    dim2 = dim >= AST_MAX_DIMS ? dim / AST_MAX_DIMS - 1 : dim + 1;
    dim %= AST_MAX_DIMS;
  }
  rdg *g = rdg_build(p);
  if (!g) {
    diag_error_plain("%s: cannot build the dependence graph", o->program);
    return -1;
  }
  run_tile_search ts = {p, o, cfg, params, r, rows, cols};
  map_search_opts so = {.mapped = dim, .axis = axis, .mapped2 = dim2, .o = o->mopts,
                        .one_pe = rows == 1 && cols == 1, .check = run_tile_check, .ctx = &ts};
  map_config m;
  map_search_result res;
  char msg[1024];
  int rc = -1;
  if (map_search_run(p, g, cfg, &so, &m, &res, msg, sizeof msg) != FIT_OK) {
    diag_error_plain("%s: tiled run: the program does not map: %s", o->program, msg);
  } else {
    FILE *f = fopen(path, "w");
    int bad = !f || sym_write(&m, f) != 0;
    if (f && fclose(f) != 0) bad = 1;
    if (bad) diag_error_plain("tiled run: cannot write '%s'", path);
    rc = bad ? -1 : 0;
  }
  map_config_free(&m);
  rdg_free(g);
  return rc;
}

/* Prints each loop's verdict of r on stderr (the refusal: none may be cut). */
static void run_tile_refuse(const ast_program *p, const rt_tile_rule *r, const char *why) {
  char line[512];
  diag_error_plain("%s; it cannot be run in chunks either (docs/tiling.md), nothing was run:", why);
  for (int d = 0; d < p->ndims; d++) fprintf(stderr, "  %s\n", rt_tile_rule_text(p, r, d, line, sizeof line));
}

/* What summary.json's `tiling` says (run_tile_json). */
typedef struct {
  const ast_program *p;
  const rt_tile_rule *r;
  const tcpa_rt_tile_info *info; /* what ran; NULL: nothing */
  const int64_t *params;
  size_t differing, total;
} run_tile_report;

/* Writes the members of summary.json of a tiled run (run_out_json_write). */
static void run_tile_json(json_writer *w, const void *ctx) {
  const run_tile_report *t = ctx;
  char line[512];
  const tcpa_rt_tile_info *in = t->info;
  json_writer_uint(w, "cycles", in ? in->cycles : 0);
  json_writer_begin_object(w, "tiling");
  json_writer_begin_array(w, "loops");
  for (int d = 0; d < t->p->ndims; d++) {
    const rt_tile_loop *l = &t->r->loop[d];
    static const char *const kinds[] = {"fixed", "free", "accumulation"};
    json_writer_begin_object(w, NULL);
    json_writer_string(w, "index", t->p->index[d]);
    json_writer_string(w, "kind", kinds[l->kind]);
    if (l->param >= 0) json_writer_string(w, "param", t->p->param[l->param]);
    else json_writer_null(w, "param");
    if (in && l->kind != RT_TILE_FIXED) {
      json_writer_int(w, "extent", in->extent[d]);
      json_writer_int(w, "chunk", in->chunk[d]);
    }
    json_writer_string(w, "rule", rt_tile_rule_text(t->p, t->r, d, line, sizeof line));
    json_writer_end_object(w);
  }
  json_writer_end_array(w);
  if (in) {
    json_writer_begin_object(w, "chunk_params");
    for (int i = 0; i < t->p->nparams; i++) {
      int64_t v = t->params[i];
      for (int d = 0; d < t->p->ndims; d++)
        if (t->r->loop[d].param == i && in->chunk[d] < in->extent[d]) v = in->chunk[d];
      json_writer_int(w, t->p->param[i], v);
    }
    json_writer_end_object(w);
    json_writer_int(w, "plan_tries", in->tries);
    json_writer_int(w, "chunks", in->chunks);
    json_writer_int(w, "instantiations", in->instantiations);
    json_writer_uint(w, "max_chunk_cycles", in->max_cycles);
    json_writer_uint(w, "differing", t->differing);
    json_writer_uint(w, "elements", t->total);
  }
  json_writer_end_object(w);
}

/* Returns the number of output elements of got that differ from ref,
 * the total in *total; prints the first few on stderr. */
static size_t run_tile_compare(const ast_program *p, const interp_array *ref, const interp_array *got, size_t *total) {
  size_t bad = 0;
  *total = 0;
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind != AST_ARRAY_OUT) continue;
    *total += ref[a].n;
    for (size_t i = 0; i < ref[a].n; i++)
      if (ref[a].data[i] != got[a].data[i] && bad++ < 5)
        fprintf(stderr, "tiled run: %s[%zu] (row-major) is %d, the reference's %d\n", p->arrays[a].name, i,
                got[a].data[i], ref[a].data[i]);
  }
  return bad;
}

/* Prints the human summary of a tiled run that ran (info). */
static void run_tile_print(const ast_program *p, const run_opts *o, const int64_t *params, const rt_tile_rule *r,
                           const tcpa_rt_tile_info *in, const run_tile_report *rep, int rc) {
  printf("program   %s (%s)\nparams   ", p->name, o->program);
  for (int i = 0; i < p->nparams; i++) printf(" %s=%lld", p->param[i], (long long)params[i]);
  printf("\nengine    %s, pes %dx%d, tiled by the host (docs/tiling.md)\ntiling   ", run_engine_names[o->engine],
         o->pes_r, o->pes_c);
  for (int d = 0; d < p->ndims; d++)
    if (in->chunk[d] < in->extent[d])
      printf(" %s in chunks of %lld (%s %lld, %s)", p->index[d], in->chunk[d], p->param[r->loop[d].param],
             in->extent[d], in->kind[d] == TCPA_RT_TILE_ACCUM ? "accumulations carried" : "independent");
  printf("\nchunks    %lld, %d instantiation%s (%d tried for the sizes)\n", in->chunks, in->instantiations,
         in->instantiations == 1 ? "" : "s", in->tries);
  printf("model     cycles %llu over all chunks, the longest chunk %llu\n", in->cycles, in->max_cycles);
  if (o->out_dir)
    printf("outputs   %s/NAME.txt (the chunks' gathered), the reference's in %s/ref/\n", o->out_dir, o->out_dir);
  if (rep->differing) printf("outputs   %zu of %zu elements differ from the reference\n", rep->differing, rep->total);
  printf("verdict   %s\n", rc == ENGINE_OK ? "pass" : "fail");
}

/* Returns the exit status of the chunks run on the open array through
 * tcpa_rt_run_tiled (the call a host program makes), compared with the
 * reference's outputs in arrays; the summary printed and written. */
static int run_tile_chunks(const ast_program *p, const run_opts *o, const int64_t *params, interp_array *arrays,
                           tcpa_rt_array *ra, const char *sym, const rt_tile_rule *r, int rows, int cols,
                           const char *why) {
  tcpa_rt_region *reg;
  tcpa_rt_kernel *k;
  tcpa_rt_tile_info info;
  run_tile_report rep = {p, r, NULL, params, 0, 0};
  interp_array *got = calloc((size_t)p->narrays + 1, sizeof *got);
  int32_t **data = calloc((size_t)p->narrays + 1, sizeof *data);
  int rc = ENGINE_ERR_INPUT;
  if (!got || !data || interp_arrays_init(p, params, got) != 0) goto done;
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind == AST_ARRAY_IN) memcpy(got[a].data, arrays[a].data, arrays[a].n * sizeof *arrays[a].data);
    data[a] = got[a].data;
  }
  tcpa_rt_status s = tcpa_rt_region_alloc(ra, rows, cols, o->inst.row0, o->inst.col0, &reg);
  if (!s) s = tcpa_rt_kernel_load(ra, sym, &k);
  for (int i = 0; !s && i < p->nparams; i++) s = tcpa_rt_param_set(k, p->param[i], params[i]);
  if (!s) s = tcpa_rt_run_tiled(k, reg, o->program, data, &info);
  if (s == TCPA_RT_NOFIT) {
    diag_error_plain("%s; in chunks, the smallest the rule allows does not fit either: %s", why, tcpa_rt_message(ra));
    rc = ENGINE_ERR_NOFIT;
    goto done;
  }
  if (s) {
    diag_error_plain("tiled run: %s", tcpa_rt_message(ra));
    rc = s == TCPA_RT_INVALID || s == TCPA_RT_FILE ? ENGINE_ERR_INPUT : ENGINE_MISMATCH;
    goto done;
  }
  rep.info = &info;
  rep.differing = run_tile_compare(p, arrays, got, &rep.total);
  rc = rep.differing ? ENGINE_MISMATCH : ENGINE_OK;
  run_tile_print(p, o, params, r, &info, &rep, rc);
done:
  if (o->out_dir && rep.info &&
      (run_out_arrays_write(p, arrays, AST_ARRAY_IN, o->out_dir, "inputs") != 0 ||
       run_out_arrays_write(p, arrays, AST_ARRAY_OUT, o->out_dir, "ref") != 0 ||
       run_out_arrays_write(p, got, AST_ARRAY_OUT, o->out_dir, NULL) != 0))
    rc = ENGINE_ERR_INPUT;
  const char *status = rc == ENGINE_OK ? "pass" : rc == ENGINE_ERR_NOFIT ? "nofit" : "fail";
  if (o->out_dir && run_out_json_write(p, o, params, status, run_tile_json, &rep) != 0) rc = ENGINE_ERR_INPUT;
  if (got) interp_arrays_free(p, got);
  free(got);
  free(data);
  return rc;
}

int run_tiled(const ast_program *p, const run_opts *o, const arch_config *cfg, const int64_t *params, int dim,
              interp_array *arrays, const char *why) {
  rt_tile_rule r;
  if (rt_tile_rule_make(p, &r) <= 0) {
    run_tile_refuse(p, &r, why);
    run_tile_report rep = {p, &r, NULL, params, 0, 0};
    if (o->out_dir && run_out_json_write(p, o, params, "nofit", run_tile_json, &rep) != 0) return ENGINE_ERR_INPUT;
    return ENGINE_ERR_NOFIT;
  }
  if (o->engine != RUN_ENGINE_MODEL) {
    diag_error_plain("%s; a run in chunks (docs/tiling.md) is made by the host runtime, on the model only: "
                     "--engine %s is not supported for it (use --engine model)", why, run_engine_names[o->engine]);
    return ENGINE_ERR_INPUT;
  }
  char sym[4200];
  int tmp = !o->out_dir;
  if (tmp) {
    snprintf(sym, sizeof sym, "%s/tcpa-tile-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    int fd = mkstemp(sym);
    if (fd < 0) {
      diag_error_plain("tiled run: cannot make a temporary file in %s", sym);
      return ENGINE_ERR_INPUT;
    }
    close(fd);
  } else {
    if (run_mkdir_p(o->out_dir) != 0) return ENGINE_ERR_INPUT;
    snprintf(sym, sizeof sym, "%s/tiled.sym", o->out_dir);
  }
  int rc = ENGINE_ERR_INPUT;
  tcpa_rt_array *ra = NULL;
  int rows = o->pes_r, cols = o->pes_c;
  map_search_line(p, &rows, &cols);
  if (run_tile_sym(p, o, cfg, params, &r, rows, cols, dim, sym) != 0) goto done;
  if (tcpa_rt_open(o->arch, TCPA_RT_ENGINE_MODEL, &ra)) {
    diag_error_plain("tiled run: %s", tcpa_rt_message(NULL));
    goto done;
  }
  rc = run_tile_chunks(p, o, params, arrays, ra, sym, &r, rows, cols, why);
done:
  tcpa_rt_close(ra);
  if (tmp) remove(sym);
  return rc;
}
