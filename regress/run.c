/*
 * run.c: `tcpa run PROGRAM.pla` (docs/user-guide.md), after cli_run.c has
 * read the options (every syntax error names the option, exit 2).
 *
 * Steps: parse and check the program (exit 2); load the architecture (exit 2);
 * bind the parameters (all required, none unknown, inside the program's
 * parameter domain); check the PE region against the array (exit 3); make
 * the inputs (from --in files, or random from --seed); run the reference
 * interpreter; for the engines model, rtl and cosim, map, instantiate and
 * run the configuration and compare (engine.h, engine_run); write
 * --out-dir; print a short summary on stdout (both run_out.c). A build
 * refused for want of bank words or fd depth only, which a smaller
 * problem needs less of, runs in chunks instead (run_tile.c,
 * docs/tiling.md).
 *
 * Random inputs: each element uniform over [-1000, 1000], from a splitmix64
 * stream per input array seeded by (--seed, the array's name) (rng.h), so
 * that products of a few values do not wrap trivially and that giving one
 * input from a file leaves the values of the others unchanged.
 *
 * The reference interpreter (interp.h) always runs first: its outputs are
 * the expected values. A runtime violation of the language rules it finds
 * is invalid input (exit 2). With `ref` alone the run passes when the
 * interpreter completes.
 *
 * Tiled dimension: --map names one index, or two for the rows and the
 * columns in that order (the columns' for a 1xC region, the rows' for Rx1;
 * both on an RxC region); without --map, dimension 0 (RxC: dimensions 0
 * and 1). A 1-D --map on an RxC region is invalid input, but for a
 * program of one loop dimension, which runs on the region's first row or
 * column (engine_flow.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "ast.h"
#include "check.h"
#include "datafile.h"
#include "diag.h"
#include "engine_flow.h"
#include "interp.h"
#include "parse.h"
#include "profile.h"
#include "rng.h"
#include "run.h"

#define RUN_RANDOM_LO (-1000)
#define RUN_RANDOM_HI 1000

/* Returns a random input of --inputs edge: half of them edge values
 * (zero, one, minus one, the extremes: a tenth each), a quarter any
 * 32-bit word, a quarter uniform in [RUN_RANDOM_LO, RUN_RANDOM_HI], so
 * that every FU sees operands of each class (docs/regress.md "Operand
 * values"). */
static int32_t run_input_edge(rng_state *r) {
  static const int32_t edge[] = {0, 1, -1, INT32_MIN, INT32_MAX};
  int k = rng_state_range(r, 0, 3);
  if (k <= 1) return edge[rng_state_range(r, 0, (int32_t)(sizeof edge / sizeof edge[0]) - 1)];
  if (k == 2) return (int32_t)(uint32_t)rng_state_next(r);
  return rng_state_range(r, RUN_RANDOM_LO, RUN_RANDOM_HI);
}

const char *const run_engine_names[5] = {"ref", "model", "rtl", "cosim", "systemc"};

/* Returns 0 and sets *v to the decimal (or 0x) integer `s` if it lies in
 * [lo, hi]; -1 otherwise (run.h). */
int run_int_parse(const char *s, int64_t lo, int64_t hi, int64_t *v) {
  char *end;
  if (!*s) return -1;
  errno = 0;
  long long x = strtoll(s, &end, 0);
  if (errno || *end || end == s || x < lo || x > hi) return -1;
  if (s[0] == '0' && s[1] && s[1] != 'x' && s[1] != 'X') return -1; /* no octal */
  *v = x;
  return 0;
}

/* Returns the id of the named parameter of p, or -1. */
static int run_param_find(const ast_program *p, const char *name) {
  for (int i = 0; i < p->nparams; i++)
    if (!strcmp(p->param[i], name)) return i;
  return -1;
}

/* Returns a printable list of the program's parameter names. */
static const char *run_param_list(const ast_program *p, char *buf, size_t size) {
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < p->nparams && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", p->param[i]);
  if (!p->nparams) snprintf(buf, size, "none");
  return buf;
}

/* Returns 0 after binding every parameter of p from the --param options into
 * params; -1 after printing every error. */
static int run_params_bind(const ast_program *p, const run_opts *o, int64_t *params) {
  char list[256];
  int given[AST_MAX_PARAMS] = {0}, bad = 0;
  for (int k = 0; k < o->nparam; k++) {
    const run_pair *pr = &o->param[k];
    int id = run_param_find(p, pr->name);
    if (id < 0) {
      diag_error_plain("--param %s=%s: program '%s' has no parameter '%s' (its "
                       "parameters: %s)", pr->name, pr->value, p->name, pr->name,
                       run_param_list(p, list, sizeof list));
      bad = 1;
      continue;
    }
    if (given[id]) {
      diag_error_plain("--param %s: given twice", pr->name);
      bad = 1;
      continue;
    }
    if (run_int_parse(pr->value, INT32_MIN, INT32_MAX, &params[id]) != 0) {
      diag_error_plain("--param %s=%s: expected a decimal integer that fits in "
                       "32 bits", pr->name, pr->value);
      bad = 1;
      continue;
    }
    given[id] = 1;
  }
  for (int i = 0; i < p->nparams; i++)
    if (!given[i] && !bad) {
      diag_error_plain("missing --param %s=VALUE (program '%s' has parameters %s; "
                       "all are required)", p->param[i], p->name,
                       run_param_list(p, list, sizeof list));
      bad = 1;
    }
  if (bad) return -1;
  if (!check_params_valid(p, params)) {
    char vals[256];
    size_t len = 0;
    vals[0] = '\0';
    for (int i = 0; i < p->nparams && len < sizeof vals; i++)
      len += (size_t)snprintf(vals + len, sizeof vals - len, "%s%s=%lld",
                              i ? " " : "", p->param[i], (long long)params[i]);
    diag_error(&p->par_loc, p->source,
               "--param: the values %s are outside the parameter domain of "
               "program '%s' (every parameter >= 1 and the parameter-only "
               "constraints of par)", vals, p->name);
    return -1;
  }
  return 0;
}

/* Returns the loop dimension of p that the --map token names (an index
 * name, or a dimension number 0..ndims-1), or -1. */
static int run_map_index(const ast_program *p, const char *tok) {
  if (tok[0] >= '0' && tok[0] <= '9') {
    int d = atoi(tok);
    return d < p->ndims ? d : -1;
  }
  for (int k = 0; k < p->ndims; k++)
    if (!strcmp(p->index[k], tok)) return k;
  return -1;
}

/* Returns 0 when every index named by --map is an index of p, each at most
 * once; -1 after an error. */
static int run_map_check(const ast_program *p, const char *map) {
  char buf[128];
  int seen[AST_MAX_DIMS] = {0};
  if (!map) return 0;
  snprintf(buf, sizeof buf, "%s", map);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    int d = run_map_index(p, tok);
    if (d < 0) {
      diag_error_plain("--map %s: program '%s' has no loop index '%s'", map, p->name, tok);
      return -1;
    }
    if (seen[d]++) {
      diag_error_plain("--map %s: index '%s' named twice", map, tok);
      return -1;
    }
  }
  return 0;
}

/* Returns the loop dimension tiled onto the region: the index --map names
 * for it (one index: that one; two: the first for the rows of an Rx1
 * region, the second for the columns of a 1xC one), else dimension 0. */
static int run_map_dim(const ast_program *p, const run_opts *o) {
  char buf[128], *names[2] = {NULL, NULL};
  int n = 0;
  if (!o->map) return 0;
  snprintf(buf, sizeof buf, "%s", o->map);
  for (char *tok = strtok(buf, ","); tok && n < 2; tok = strtok(NULL, ",")) names[n++] = tok;
  int d[2] = {0, 0};
  for (int i = 0; i < n; i++)
    if (run_map_index(p, names[i]) >= 0) d[i] = run_map_index(p, names[i]);
  if (o->pes_r > 1 && o->pes_c > 1) return n == 2 ? ENGINE_DIMS_2D(d[0], d[1]) : d[0];
  return n == 2 && o->pes_r == 1 && o->pes_c > 1 ? d[1] : d[0];
}

/* Returns the id of the named array of p, or -1. */
static int run_array_find(const ast_program *p, const char *name) {
  for (int i = 0; i < p->narrays; i++)
    if (!strcmp(p->arrays[i].name, name)) return i;
  return -1;
}

/* Returns 0 after filling every input array: from its --in file, else at
 * random; from[a] is set to the file or NULL. -1 after printing errors. */
static int run_inputs_make(const ast_program *p, const run_opts *o,
                           interp_array *arrays, const char **from) {
  int bad = 0;
  for (int a = 0; a < p->narrays; a++) from[a] = NULL;
  for (int k = 0; k < o->nin; k++) {
    int a = run_array_find(p, o->in[k].name);
    if (a < 0 || p->arrays[a].kind != AST_ARRAY_IN) {
      diag_error_plain("--in %s=%s: program '%s' has no input array '%s'%s",
                       o->in[k].name, o->in[k].value, p->name, o->in[k].name,
                       a >= 0 ? " (it is an output)" : "");
      bad = 1;
    } else if (from[a]) {
      diag_error_plain("--in %s: given twice", o->in[k].name);
      bad = 1;
    } else {
      from[a] = o->in[k].value;
    }
  }
  if (bad) return -1;
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind != AST_ARRAY_IN) continue;
    if (from[a]) {
      char what[160];
      snprintf(what, sizeof what, "input '%s' (%zu value%s)", p->arrays[a].name,
               arrays[a].n, arrays[a].n == 1 ? "" : "s");
      if (datafile_read(from[a], what, arrays[a].data, arrays[a].n) != 0) bad = 1;
      continue;
    }
    rng_state r = rng_state_seed_named(o->seed, p->arrays[a].name);
    for (size_t i = 0; i < arrays[a].n; i++)
      arrays[a].data[i] = o->inputs_edge ? run_input_edge(&r) : rng_state_range(&r, RUN_RANDOM_LO, RUN_RANDOM_HI);
  }
  return bad ? -1 : 0;
}

/* Returns ENGINE_OK after loading the architecture of o into *cfg, binding
 * the parameters into params and checking --map and --pes against p and
 * the array; else the exit status after printing why. */
static int run_request_check(const ast_program *p, const run_opts *o, arch_config *cfg, int64_t *params,
                             fit_record *fit) {
  int arch_rc = o->arch ? arch_config_load(o->arch, cfg) : arch_config_load_default(cfg);
  if (arch_rc != 0) return ENGINE_ERR_INPUT;
  const char *arch_name = o->arch ? o->arch : arch_default_ini_name;
  if (run_params_bind(p, o, params) != 0) return ENGINE_ERR_INPUT;
  if (run_map_check(p, o->map) != 0) return ENGINE_ERR_INPUT;
  if (o->map && !strchr(o->map, ',') && o->pes_r > 1 && o->pes_c > 1 && p->ndims > 1) {
    diag_error_plain("--map %s: a %dx%d region tiles two loop indices, one onto its rows and one onto its "
                     "columns (--map I,J)", o->map, o->pes_r, o->pes_c);
    return ENGINE_ERR_INPUT;
  }
  int need_r = o->inst.row0 + o->pes_r, need_c = o->inst.col0 + o->pes_c;
  if (need_r > cfg->rows || need_c > cfg->cols) {
    int r = need_r > cfg->rows;
    char msg[512], at[48] = "";
    if (o->inst.row0 || o->inst.col0) snprintf(at, sizeof at, "@%d,%d", o->inst.row0, o->inst.col0);
    fit_nofit(fit, msg, sizeof msg, r ? FIT_RES_ARRAY_ROWS : FIT_RES_ARRAY_COLS, r ? "array.rows" : "array.cols",
              r ? need_r : need_c, r ? cfg->rows : cfg->cols, "",
              "--pes %dx%d%s: the region does not fit the processor array of %s, which has %d rows and %d columns",
              o->pes_r, o->pes_c, at, arch_name, cfg->rows, cfg->cols);
    diag_error_plain("%s", msg);
    return ENGINE_ERR_NOFIT;
  }
  return ENGINE_OK;
}

/* Returns 0 after printing the profile of the run in dir (its model.trace,
 * else its rtl.trace: docs/profile.md) and writing its tables and heat map
 * into dir/profile/; -1 after printing why. */
static int run_profile(const char *dir) {
  char trace[4200], out[4200];
  snprintf(trace, sizeof trace, "%s/model.trace", dir);
  FILE *f = fopen(trace, "r");
  if (!f) snprintf(trace, sizeof trace, "%s/rtl.trace", dir);
  else fclose(f);
  snprintf(out, sizeof out, "%s/profile", dir);
  profile pr;
  if (profile_read(trace, &pr) != 0) return -1;
  profile_print(&pr, stdout);
  int rc = run_mkdir_p(out) != 0 || profile_write(&pr, out) != 0 ? -1 : 0;
  if (!rc) printf("profile   %s/profile.tsv, banks.tsv, utilization.svg\n", out);
  profile_free(&pr);
  return rc;
}

/* Returns the exit status of a run of the parsed and checked program p. */
static int run_program(const ast_program *p, const run_opts *o) {
  int64_t params[AST_MAX_PARAMS] = {0};
  arch_config cfg;
  fit_record fit = {0};
  int check_rc = run_request_check(p, o, &cfg, params, &fit);
  if (check_rc == ENGINE_ERR_NOFIT && o->out_dir && run_out_nofit_write(p, o, params, &fit) != 0)
    return ENGINE_ERR_INPUT;
  if (check_rc != ENGINE_OK) return check_rc;
  fcov_set cov = {0}; /* --traces on-failure: the model's events counted (before any goto) */
  interp_array *arrays = calloc((size_t)p->narrays + 1, sizeof *arrays);
  const char **from = calloc((size_t)p->narrays + 1, sizeof *from);
  int rc = ENGINE_ERR_INPUT;
  if (!arrays || !from) goto error;
  if (interp_arrays_init(p, params, arrays) != 0) goto error;
  if (run_inputs_make(p, o, arrays, from) != 0) goto error_arrays;
  run_result res = {"fail", {0, 0, 0.0}, from, NULL, 0, {0}, NULL};
  int ok = interp_program_run(p, params, arrays, &res.stats) == 0;
  res.ref_ok = ok;
  rc = ok ? ENGINE_OK : ENGINE_ERR_INPUT;
  engine_outcome eo;
  int have_eo = 0;
  if (ok && o->engine != RUN_ENGINE_REF) {
    if (o->out_dir && run_mkdir_p(o->out_dir) != 0) {
      rc = ENGINE_ERR_INPUT;
      goto error_arrays;
    }
    engine_run_opts ro = {.kind = (engine_kind)o->engine, .out_dir = o->out_dir, .arch_path = o->arch,
                          .window = o->window, .fst = o->fst, .argc = o->argc, .argv = o->argv,
                          .program_path = o->program, .seed = o->seed,
                          .traces_on_failure = o->traces_on_failure, .fcov = &cov, .nofit_quiet = 1};
    rc = engine_run(p, &cfg, params, arrays, o->pes_r, o->pes_c, run_map_dim(p, o), &o->mopts, &o->inst, &ro, &eo,
                    &fit);
    have_eo = 1;
    res.eo = &eo;
    res.fcov = &cov;
    static const fit_resource sized[] = {FIT_RES_BANK_DEPTH, FIT_RES_FD_DEPTH};
    if (rc == ENGINE_ERR_NOFIT && fit_record_only(&fit, sized, 2)) { /* chunks need less: docs/tiling.md */
      rc = run_tiled(p, o, &cfg, params, run_map_dim(p, o), arrays, eo.nofit_msg);
      goto error_eo;
    }
    if (rc == ENGINE_ERR_NOFIT) { /* nothing ran: the summary says what ran out */
      if (eo.nofit_msg[0]) diag_error_plain("%s", eo.nofit_msg);
      if (o->out_dir && run_out_nofit_write(p, o, params, &fit) != 0) rc = ENGINE_ERR_INPUT;
      goto error_eo;
    }
  }
  res.status = rc == ENGINE_OK ? "pass" : "fail";
  if (o->out_dir && run_out_dir_write(p, o, params, arrays, &res) != 0)
    rc = ENGINE_ERR_INPUT;
  run_summary_print(p, o, params, &res);
  if (o->profile && o->out_dir && run_profile(o->out_dir) != 0 && rc == ENGINE_OK) rc = ENGINE_ERR_INPUT;
error_eo:
  if (have_eo) engine_outcome_free(&eo);
error_arrays:
  fcov_free(&cov);
  interp_arrays_free(p, arrays);
error:
  free(arrays);
  free(from);
  return rc;
}

int run_prepare(const run_opts *o, run_prep *rp) {
  memset(rp, 0, sizeof *rp);
  if (!(rp->p = parse_file(o->program))) return ENGINE_ERR_INPUT;
  if (check_program(rp->p) != 0) return ENGINE_ERR_INPUT;
  fit_record fit = {0};
  int rc = run_request_check(rp->p, o, &rp->cfg, rp->params, &fit);
  if (rc != ENGINE_OK) return rc;
  rp->arrays = calloc((size_t)rp->p->narrays + 1, sizeof *rp->arrays);
  rp->from = calloc((size_t)rp->p->narrays + 1, sizeof *rp->from);
  if (!rp->arrays || !rp->from || interp_arrays_init(rp->p, rp->params, rp->arrays) != 0 ||
      run_inputs_make(rp->p, o, rp->arrays, rp->from) != 0)
    return ENGINE_ERR_INPUT;
  interp_stats st;
  if (interp_program_run(rp->p, rp->params, rp->arrays, &st) != 0) return ENGINE_ERR_INPUT;
  if (o->engine == RUN_ENGINE_REF) return ENGINE_OK;
  char msg[1024];
  rc = engine_config_build(rp->p, &rp->cfg, rp->params, rp->arrays, o->pes_r, o->pes_c, run_map_dim(rp->p, o),
                           &o->mopts, &o->inst, &rp->c, &fit, msg, sizeof msg);
  if (rc != ENGINE_OK) {
    diag_error_plain("%s: %s", o->program, msg);
    return rc;
  }
  rp->have_c = 1;
  return ENGINE_OK;
}

void run_prep_free(run_prep *rp) {
  if (rp->have_c) engine_config_free(&rp->c);
  if (rp->arrays && rp->p) interp_arrays_free(rp->p, rp->arrays);
  free(rp->arrays);
  free(rp->from);
  if (rp->p) ast_program_free(rp->p);
  memset(rp, 0, sizeof *rp);
}

int run_is_job(const char *path) {
  size_t n = path ? strlen(path) : 0;
  return n > 4 && !strcmp(path + n - 4, ".ini");
}

/* Returns the exit status of `tcpa run` for request o (run.h). */
int run_program_file(const run_opts *o) {
  if (run_is_job(o->program)) return run_job_file(o);
  int rc = ENGINE_ERR_INPUT;
  ast_program *p = parse_file(o->program);
  if (!p) return rc;
  if (check_program(p) == 0) rc = run_program(p, o);
  ast_program_free(p);
  return rc;
}
