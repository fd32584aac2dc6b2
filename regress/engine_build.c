/*
 * engine_build.c: the compile half of `tcpa run --engine model|rtl|cosim`:
 * program -> RDG -> symbolic mapping (map_build, as `tcpa compile`) ->
 * instantiation (inst_run + inst_emit, as `tcpa instantiate`) with the
 * run's input values (a 1xC or Rx1 region: one tiled dimension; RxC: two,
 * passed as ENGINE_DIMS_2D in `dim`; a program of one loop dimension on
 * an RxC region runs on one line of it, engine_line_pick) -> the stream,
 * the listing and the placement of the
 * output elements (read back from inst_layout's text, the same lines
 * `tcpa instantiate --layout` writes), plus the predicted latencies
 * (engine_predict.c).
 *
 * Input values go from the reference's row-major order over the declared
 * extents to the instantiation's row-major order over the accessed
 * bounding box (inst.h array_ext); output indices come back the other way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_flow.h"
#include "inst.h"
#include "map.h"
#include "rdg.h"
#include "stream.h"

/* Returns the reference's linear index of element `lin` of array a as the
 * instantiation numbers it (bounding box of x), or -1 outside the
 * declared extents. */
static int64_t engine_index_to_ref(const inst *x, int a, const interp_array *ref, int64_t lin) {
  int nd = x->array_nd[a];
  int64_t e[AST_MAX_DIMS];
  for (int r = nd - 1; r >= 0; r--) {
    int64_t ext = x->array_ext[a][r] > 0 ? x->array_ext[a][r] : 1;
    e[r] = lin % ext;
    lin /= ext;
  }
  if (lin != 0 || nd != ref->ndims) return nd == 0 && ref->ndims == 0 && lin == 0 ? 0 : -1;
  int64_t out = 0;
  for (int r = 0; r < nd; r++) {
    if (e[r] < 0 || e[r] >= ref->extent[r]) return -1;
    out = out * ref->extent[r] + e[r];
  }
  return out;
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

/* Returns the side number (0..3: n e s w) of a layout letter, or -1. */
static int engine_side_of(char s) {
  const char *p = strchr("nesw", s);
  return s && p ? (int)(p - "nesw") : -1;
}

/* Returns 0 after reading inst_layout's lines into c->place (indices in
 * the reference's order); -1 with msg. */
static int engine_layout_read(const inst *x, const ast_program *p, const interp_array *ref,
                              engine_config *c, char *msg, size_t msgsz) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) {
    snprintf(msg, msgsz, "out of memory");
    return -1;
  }
  inst_layout(x, f);
  fclose(f);
  size_t cap = 16;
  c->place = malloc(cap * sizeof *c->place);
  int rc = c->place ? 0 : -1;
  for (char *line = text, *nl; rc == 0 && line && *line; line = nl ? nl + 1 : NULL) {
    nl = strchr(line, '\n');
    if (nl) *nl = 0;
    char name[256], side;
    long long lin, addr;
    int row, col, bank;
    if (sscanf(line, "%255s %lld %d %d %c %d %lld", name, &lin, &row, &col, &side, &bank, &addr) != 7) {
      snprintf(msg, msgsz, "internal: layout line '%s' unreadable", line);
      rc = -1;
      break;
    }
    int a = 0;
    while (a < p->narrays && strcmp(p->arrays[a].name, name)) a++;
    int64_t j = a < p->narrays ? engine_index_to_ref(x, a, &ref[a], lin) : -1;
    if (j < 0 || (size_t)j >= ref[a].n) {
      snprintf(msg, msgsz, "internal: layout places %s[%lld], outside the array", name, lin);
      rc = -1;
      break;
    }
    if (c->nplace == cap) {
      engine_place *np = realloc(c->place, 2 * cap * sizeof *np);
      if (!np) {
        rc = -1;
        break;
      }
      c->place = np;
      cap *= 2;
    }
    c->place[c->nplace++] = (engine_place){a, (size_t)j, row, col, engine_side_of(side), bank, (uint32_t)addr};
  }
  free(text);
  if (rc && !msg[0]) snprintf(msg, msgsz, "out of memory");
  return rc;
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

/* Returns ENGINE_OK after instantiating m into c (stream, listing, layout,
 * prediction); an ENGINE_* status with msg otherwise. */
static int engine_instantiate(const map_config *m, const ast_program *p, const arch_config *arch,
                              const int64_t *params, const interp_array *ref, int rows, int cols,
                              const inst_opts *io, engine_config *c, fit_record *fit, char *msg, size_t msgsz) {
  inst x;
  inst_data data = {0};
  stream_writer w;
  stream_writer_init(&w, arch);
  char *pname[AST_MAX_PARAMS];
  for (int i = 0; i < p->nparams; i++) pname[i] = p->param[i];
  int st = inst_run_opts(&x, io, m, arch, p->nparams, pname, params, rows, cols, msg, msgsz);
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
  if ((st = inst_emit(&x, &data, &w, msg, msgsz))) {
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
  c->p = x.p;
  c->t = x.t;
  c->npc = x.npc;
  c->nsig = x.nsig;
  engine_predict(&x, &c->pred_done, &c->pred_cycles);
done:
  stream_writer_free(&w);
  engine_inputs_free(&data, p->narrays);
  inst_free(&x);
  return st;
}

/* Returns 1 when a does-not-fit record r is about control flow (branch
 * levels, control signals, GC terms, program memory), which a higher II
 * may relieve. */
static int engine_control_nofit(const fit_record *r) {
  return fit_record_has(r, FIT_RES_BRANCH) || fit_record_has(r, FIT_RES_SIGNALS) ||
         fit_record_has(r, FIT_RES_IMEM) || fit_record_has(r, FIT_RES_GC_TERMS);
}

/* Returns 1 when a does-not-fit record r names only what channels take
 * (wrapper ports, the banks behind them, registers id and od), which a
 * region of one PE mapped without channels may have left. */
static int engine_channel_nofit(const fit_record *r) {
  static const fit_resource chan[] = {FIT_RES_PORTS, FIT_RES_IO_BANKS, FIT_RES_ID, FIT_RES_OD};
  return fit_record_only(r, chan, 4);
}

/* What one pass of engine_config_build's attempts works on. */
typedef struct {
  const ast_program *p;
  const rdg *g;
  const arch_config *arch;
  const int64_t *params;
  const interp_array *ref;
  int rows, cols, dim, dim2;
  int line;             /* 1: rows x cols is a line of a larger RxC region */
  int one_pe;           /* 1: mapped without edges between tiles (map_opts.one_pe) */
  const map_opts *mo;
  const inst_opts *io;
} engine_build_job;

/* Frees what c holds of a failed attempt and sets it up for the next
 * (region, dimensions, fingerprint of job j). */
static void engine_config_reset(engine_config *c, const engine_build_job *j) {
  engine_config_free(c);
  c->dim = j->dim;
  c->dim2 = j->dim2;
  c->axis = j->rows > 1 && j->cols > 1 ? 2 : j->rows > 1 ? 1 : 0;
  c->line_rows = j->line ? j->rows : 0;
  c->line_cols = j->line ? j->cols : 0;
  c->fingerprint = arch_config_fingerprint(j->arch);
  c->map_off = j->mo ? j->mo->off : 0;
  c->map_one_pe = j->one_pe;
}

/* Returns the status of the attempts of one pass (padded or not, pad)
 * from attempt `from` (0, or 1: the conservative rewrites, level 3),
 * stopping at the first that fits or fails other than for want of a
 * resource; the first attempt's message goes to first (when pad is 0
 * and from is 0); *fd_deep is set when that message is an fd deeper than
 * pe.fd_depth (the padded pass may then fit at once); *attempts counts
 * the mappings built. */
static int engine_build_pass(const engine_build_job *j, int pad, int from, engine_config *c, fit_record *first,
                             fit_record *fit, int *fd_deep, int *attempts, char *msg, size_t msgsz) {
  map_opts po = j->mo ? *j->mo : (map_opts){0};
  po.pad = pad;
  po.one_pe = j->one_pe;
  int st = ENGINE_ERR_NOFIT;
  for (int tries = from, ii_min = 0, level = from ? 3 : 0; tries < (pad ? 3 : 5); tries++) {
    map_config m;
    int mapped = 0;
    st = map_build_level(j->p, j->g, j->arch, j->dim, c->axis, j->dim2, ii_min, level, &po, &m, msg, msgsz);
    (*attempts)++;
    fit_record_clear(fit);
    if (st == MAP_ERR_NOFIT) *fit = m.fit;
    if (st == MAP_OK) {
      mapped = 1;
      c->ii = m.ii;
      c->ii_min = ii_min;
      c->map_level = level;
      c->map_pad = pad;
      c->resmii = m.resmii_all;
      c->recmii = m.recmii;
      st = engine_instantiate(&m, j->p, j->arch, j->params, j->ref, j->rows, j->cols, j->io, c, fit, msg, msgsz);
      ii_min = m.ii + 1;
    } else {
      st = engine_status_of(st);
    }
    int used = m.no_cse;
    map_config_free(&m);
    if (!pad && !tries) {
      *first = *fit;
      *fd_deep = st == ENGINE_ERR_NOFIT && mapped && fit_record_has(fit, FIT_RES_FD_DEPTH);
      if (*fd_deep) return st; /* the padded pass first */
    }
    if (st != ENGINE_ERR_NOFIT || !mapped || used >= 4) break;
    if (pad && !engine_control_nofit(fit)) break;
    if (used >= 3) ii_min = 0, level = 4;
    else if (tries >= 2 || !engine_control_nofit(fit)) ii_min = 0, level = 3;
    engine_config_reset(c, j);
  }
  return st;
}

/* Returns the status of job j's passes (the order is said in
 * engine_config_build), with the message of its first attempt when
 * nothing fits; *attempts counts the mappings built. */
static int engine_build_tries(const engine_build_job *j, engine_config *c, int *attempts, fit_record *fit,
                              char *msg, size_t msgsz) {
  fit_record first = {0};
  int fd_deep = 0;
  int st = engine_build_pass(j, 0, 0, c, &first, fit, &fd_deep, attempts, msg, msgsz);
  if (st == ENGINE_ERR_NOFIT && fd_deep) {
    engine_config_reset(c, j);
    st = engine_build_pass(j, 1, 0, c, &first, fit, &fd_deep, attempts, msg, msgsz);
    if (st == ENGINE_ERR_NOFIT) {
      engine_config_reset(c, j);
      st = engine_build_pass(j, 0, 1, c, &first, fit, &fd_deep, attempts, msg, msgsz);
    }
  } else if (st == ENGINE_ERR_NOFIT && engine_control_nofit(&first)) {
    engine_config_reset(c, j);
    st = engine_build_pass(j, 1, 0, c, &first, fit, &fd_deep, attempts, msg, msgsz);
  }
  if (st == ENGINE_ERR_NOFIT && first.n) {
    *fit = first;
    fit_record_format(fit, msg, msgsz);
  }
  return st;
}

/* Returns 1 after narrowing the RxC region *rows x *cols (R > 1, C > 1)
 * to the line a program of one loop dimension runs on: its first row
 * (1xC) when C >= R, else its first column (Rx1), both at the region's
 * origin (docs/user-guide.md `--pes`); 0, the region unchanged, for a
 * program of two or more dimensions or a 1-D region. */
static int engine_line_pick(const ast_program *p, int *rows, int *cols) {
  if (p->ndims != 1 || *rows < 2 || *cols < 2) return 0;
  if (*cols >= *rows) *rows = 1;
  else *cols = 1;
  return 1;
}

int engine_config_build(const ast_program *p, const arch_config *arch, const int64_t *params,
                        const interp_array *ref, int rows, int cols, int dim, const map_opts *mo,
                        const inst_opts *io, engine_config *c, fit_record *fit, char *msg, size_t msgsz) {
  memset(c, 0, sizeof *c);
  fit_record_clear(fit);
  c->map_off = mo ? mo->off : 0;
  msg[0] = 0;
  int dim2 = -1;
  int line = engine_line_pick(p, &rows, &cols);
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
  /* a mapping that does not instantiate for lack of control flow (branch
   * levels, signals, program words) is tried again at II + 1, twice at
   * most; one that still does not (or fails otherwise) again with the
   * mapper's conservative rewrites (level 3, then 4: the mapping of
   * before); when the first failure was about control flow, then the
   * program with its accumulations padded (map_reread_pad: one producer
   * per accumulated value, fewer kernels and signals; trimv on 1x2) at
   * its II, II + 1 and II + 2. When the first failure is an fd too deep
   * (matmul 32^3 on 4x4), the padded program is tried right after it,
   * once, and the conservative rewrites only when that does not fit
   * either: padded, an accumulation has one producer, one fd, which a
   * chain (inst_chain.c) may split. The first attempt's message is kept
   * (docs/symbolic.md). A region of one PE where none of that fits for
   * want of what channels take goes
   * through the same tries once more mapped as one tile (map_opts.one_pe:
   * no channels, so no wrapper ports or registers for them), and the
   * message is then that pass's: what the PE itself lacks. */
  engine_build_job j = {p, g, arch, params, ref, rows, cols, dim, dim2, line, 0, mo, io};
  int attempts = 0;
  int st = engine_build_tries(&j, c, &attempts, fit, msg, msgsz);
  if (st == ENGINE_ERR_NOFIT && rows == 1 && cols == 1 && engine_channel_nofit(fit)) {
    /* a region of one PE: its one tile needs no channel (map_opts.one_pe) */
    j.one_pe = 1;
    engine_config_reset(c, &j);
    st = engine_build_tries(&j, c, &attempts, fit, msg, msgsz);
  }
  c->map_attempts = attempts;
  rdg_free(g);
  return st;
}
