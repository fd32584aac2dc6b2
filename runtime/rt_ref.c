/*
 * rt_ref.c: the reference interpreter for host programs that check their
 * kernels (tcpa_rt_reference, docs/runtime.md "Checking"). The program is
 * parsed and checked (parse.h, check.h) and must be the kernel's (same
 * name and parameters); it runs (interp.h) on the kernel's parameter
 * values and input arrays as last written. The interpreter keeps each
 * array row-major over its declared extents, the runtime over the
 * bounding box of the accesses (inst.h array_ext): interp_array_index_of
 * converts an element's index from one to the other, as for the engines.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "interp.h"
#include "parse.h"
#include "rt_impl.h"

/* Returns the interpreter's index of element `lin` of buffer b (the
 * runtime's order), or -1 outside array r's declared extents. */
static int64_t rt_ref_index(const rt_buf *b, const interp_array *r, size_t lin) {
  return interp_array_index_of(r, b->nd, b->ext, (int64_t)lin);
}

tcpa_rt_status rt_ref_bind(const tcpa_rt_kernel *k, const ast_program *p, const char *path, int64_t *params) {
  if (strcmp(p->name, k->m.name) || p->nparams != k->m.nparams || p->narrays != k->m.narrays)
    return rt_array_fail(k->a, TCPA_RT_INVALID, "reference: %s holds program %s, not kernel %s's", path, p->name,
                         k->m.name);
  for (int i = 0; i < p->nparams; i++) {
    int j = 0;
    while (j < k->m.nparams && strcmp(k->m.param_name[j], p->param[i])) j++;
    if (j == k->m.nparams)
      return rt_array_fail(k->a, TCPA_RT_INVALID, "reference: %s: parameter %s is not kernel %s's", path,
                           p->param[i], k->m.name);
    params[i] = k->pval[j];
  }
  return TCPA_RT_OK;
}

/* Returns TCPA_RT_OK after running p on k's inputs into arrays. */
static tcpa_rt_status rt_ref_run(const tcpa_rt_kernel *k, const ast_program *p, const int64_t *params,
                                 interp_array *arrays) {
  for (int i = 0; i < p->narrays; i++) {
    if (p->arrays[i].kind != AST_ARRAY_IN) continue;
    int j = rt_kernel_array_find(k, p->arrays[i].name);
    if (j < 0) continue; /* never accessed: the interpreter's zeros */
    const rt_buf *b = &k->buf[j];
    for (size_t e = 0; e < b->n; e++) {
      int64_t r = rt_ref_index(b, &arrays[i], e);
      if (r >= 0 && (size_t)r < arrays[i].n) arrays[i].data[r] = b->data[e];
    }
  }
  if (interp_program_run(p, params, arrays, NULL))
    return rt_array_fail(k->a, TCPA_RT_INVALID, "reference: the interpreter refuses the run of %s (see stderr)",
                         p->name);
  return TCPA_RT_OK;
}

tcpa_rt_status tcpa_rt_reference(const tcpa_rt_kernel *k, const char *pla_path, const char *name, int32_t *vals,
                                 size_t n) {
  if (!k) return TCPA_RT_INVALID;
  if (!pla_path || !vals) return rt_array_fail(k->a, TCPA_RT_INVALID, "reference: NULL argument");
  if (k->state == RT_K_LOADED)
    return rt_array_fail(k->a, TCPA_RT_STATE, "reference %s: the kernel is not instantiated", k->m.name);
  int out = rt_kernel_array_find(k, name);
  if (out < 0 || !k->buf[out].is_out || k->buf[out].n != n)
    return rt_array_fail(k->a, TCPA_RT_INVALID, "reference %s.%s: not an output of %zu elements", k->m.name,
                         name ? name : "(NULL)", n);
  ast_program *p = parse_file(pla_path);
  if (!p) return rt_array_fail(k->a, TCPA_RT_FILE, "reference: %s: cannot read or parse the program", pla_path);
  tcpa_rt_status s = TCPA_RT_OK;
  int64_t params[AST_MAX_PARAMS] = {0};
  interp_array *arrays = calloc((size_t)p->narrays + 1, sizeof *arrays);
  int made = 0;
  if (!arrays) s = rt_array_fail(k->a, TCPA_RT_INTERNAL, "reference: out of memory");
  else if (check_program(p))
    s = rt_array_fail(k->a, TCPA_RT_FILE, "reference: %s: the program breaks the language's rules", pla_path);
  else if (!(s = rt_ref_bind(k, p, pla_path, params)) && !(made = !interp_arrays_init(p, params, arrays)))
    s = rt_array_fail(k->a, TCPA_RT_INVALID, "reference: %s: the arrays' extents are invalid", pla_path);
  if (made && !(s = rt_ref_run(k, p, params, arrays))) {
    int i = 0;
    while (i < p->narrays && strcmp(p->arrays[i].name, name)) i++;
    const rt_buf *b = &k->buf[out];
    if (i == p->narrays) s = rt_array_fail(k->a, TCPA_RT_INVALID, "reference: %s has no array %s", pla_path, name);
    for (size_t e = 0; !s && e < n; e++) {
      int64_t r = rt_ref_index(b, &arrays[i], e);
      vals[e] = r >= 0 && (size_t)r < arrays[i].n ? arrays[i].data[r] : 0;
    }
  }
  if (made) interp_arrays_free(p, arrays);
  free(arrays);
  ast_program_free(p);
  return s ? s : rt_array_ok(k->a);
}
