/*
 * rt_tile_api.c: tcpa_rt_run_tiled, the host-tiled run of tcpa_rt.h
 * (docs/tiling.md, docs/runtime.md "Problems larger than the banks"). It
 * reads the program the kernel was compiled from (the .sym keeps no
 * equations), binds its parameters from the kernel's (rt_ref_bind), rules
 * on its loops (rt_tile_rule_make), and with a loop to cut plans the
 * chunks (rt_tile_plan_make) and runs them (rt_tile_run) on the host's
 * whole arrays, kept as the interpreter keeps them (interp.h: row-major
 * over the declared extents). The verdict and what ran go into a
 * tcpa_rt_tile_info as data.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "parse.h"
#include "rt_impl.h"
#include "rt_tile.h"

_Static_assert((int)TCPA_RT_TILE_WHY_OUTPUT == (int)RT_TILE_WHY_OUTPUT &&
                   (int)TCPA_RT_TILE_WHY_CARRIED == (int)RT_TILE_WHY_CARRIED &&
                   (int)TCPA_RT_TILE_ACCUM == (int)RT_TILE_ACCUM,
               "tcpa_rt.h's tiling codes are rt_tile.h's");

/* Fills info's verdict per loop from rule r of p. */
static void rt_tile_api_rule(const ast_program *p, const rt_tile_rule *r, tcpa_rt_tile_info *info) {
  info->ndims = p->ndims;
  for (int d = 0; d < p->ndims && d < 8; d++) {
    const rt_tile_loop *l = &r->loop[d];
    info->kind[d] = (tcpa_rt_tile_kind)l->kind;
    info->why[d] = l->kind == RT_TILE_FIXED ? (tcpa_rt_tile_why)l->why : TCPA_RT_TILE_WHY_NONE;
    info->line[d] = l->kind == RT_TILE_FIXED && l->eq >= 0 ? p->eqs[l->eq].loc.line : 0;
  }
}

/* Returns the status of the chunks of p (rule r, parameters params) run
 * on k and r with the host's arrays, what ran in info. */
static tcpa_rt_status rt_tile_api_chunks(tcpa_rt_kernel *k, tcpa_rt_region *reg, const ast_program *p,
                                         const rt_tile_rule *r, const int64_t *params, int32_t *const *arrays,
                                         tcpa_rt_tile_info *info) {
  interp_array *ia = calloc((size_t)p->narrays + 1, sizeof *ia);
  if (!ia) return rt_array_fail(k->a, TCPA_RT_INTERNAL, "run_tiled: out of memory");
  if (interp_arrays_init(p, params, ia) != 0) {
    free(ia);
    return rt_array_fail(k->a, TCPA_RT_INVALID, "run_tiled %s: the arrays' extents are out of range", p->name);
  }
  for (int a = 0; a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_IN) memcpy(ia[a].data, arrays[a], ia[a].n * sizeof *arrays[a]);
  rt_tile_plan pl;
  rt_tile_stats st;
  tcpa_rt_status s = rt_tile_plan_make(k, reg, p, r, params, &pl);
  if (!s) s = rt_tile_run(k, reg, p, r, params, &pl, ia, &st);
  if (!s) {
    for (int a = 0; a < p->narrays; a++)
      if (p->arrays[a].kind == AST_ARRAY_OUT) memcpy(arrays[a], ia[a].data, ia[a].n * sizeof *arrays[a]);
    for (int d = 0; d < p->ndims && d < 8; d++) info->extent[d] = pl.extent[d], info->chunk[d] = pl.chunk[d];
    info->chunks = st.chunks;
    info->instantiations = st.instantiations;
    info->tries = pl.tries;
    info->cycles = st.cycles;
    info->max_cycles = st.max_cycles;
  }
  interp_arrays_free(p, ia);
  free(ia);
  return s;
}

tcpa_rt_status tcpa_rt_run_tiled(tcpa_rt_kernel *k, tcpa_rt_region *reg, const char *pla_path, int32_t *const *arrays,
                                 tcpa_rt_tile_info *info) {
  if (!k) return TCPA_RT_INVALID;
  tcpa_rt_array *a = k->a;
  tcpa_rt_tile_info scratch;
  if (!info) info = &scratch;
  memset(info, 0, sizeof *info);
  if (!reg || !pla_path || !arrays) return rt_array_fail(a, TCPA_RT_INVALID, "run_tiled: NULL argument");
  if (k->state == RT_K_RUNNING)
    return rt_array_fail(a, TCPA_RT_STATE, "run_tiled %s: it runs; wait for it first", k->m.name);
  for (int i = 0; i < k->m.nparams; i++)
    if (!k->pset[i])
      return rt_array_fail(a, TCPA_RT_INVALID, "run_tiled %s: parameter %s is not set (tcpa_rt_param_set)",
                           k->m.name, k->m.param_name[i]);
  ast_program *p = parse_file(pla_path);
  if (!p || check_program(p) != 0) {
    ast_program_free(p);
    return rt_array_fail(a, TCPA_RT_FILE, "run_tiled: %s: cannot read the program", pla_path);
  }
  int64_t params[AST_MAX_PARAMS] = {0};
  rt_tile_rule r;
  tcpa_rt_status s = rt_ref_bind(k, p, pla_path, params);
  int n = s ? 0 : rt_tile_rule_make(p, &r);
  if (!s && n < 0) s = rt_array_fail(a, TCPA_RT_INVALID, "run_tiled %s: more than 16 arrays", p->name);
  if (!s) rt_tile_api_rule(p, &r, info);
  if (!s && n == 0) {
    char why[512];
    s = rt_array_refuse(a, TCPA_RT_NOFIT, TCPA_RT_WHY_DEPENDENCE, -1, "", -1, -1,
                        "run_tiled %s: no loop may be cut (docs/tiling.md), nothing run: %s", p->name,
                        rt_tile_rule_text(p, &r, 0, why, sizeof why));
  }
  if (!s) s = rt_tile_api_chunks(k, reg, p, &r, params, arrays, info);
  if (!s) rt_array_ok(a);
  ast_program_free(p);
  return s;
}
