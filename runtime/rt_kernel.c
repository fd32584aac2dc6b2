/*
 * rt_kernel.c: kernels of the host runtime (tcpa_rt.h, docs/runtime.md
 * "Kernels"). A kernel is a symbolic configuration read from its .sym
 * (sym_read, docs/symbolic.md) with the parameter values the host set.
 * tcpa_rt_instantiate runs the instantiator (inst_run_opts,
 * docs/instantiate.md) for those values into the region, its global
 * controller and origin the region's: the processor classes, programs
 * and the I/O placement, kept until the kernel starts, when the stream is
 * emitted with the input values (rt_engine.c). It also sizes the
 * kernel's arrays: each over the bounding box of its accesses, row-major
 * (inst.h array_ext), inputs zero until written, and collects where each
 * output element lands in the banks (inst_layout_each).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_impl.h"
#include "sym.h"

/* Returns TCPA_RT_OK and *out, the kernel read from f (its .sym, named
 * `what` in messages) and added to a's kernels; TCPA_RT_FILE for a
 * configuration that is not well formed, TCPA_RT_INVALID for one of
 * another architecture. f stays open. */
static tcpa_rt_status rt_kernel_read(tcpa_rt_array *a, FILE *f, const char *what, tcpa_rt_kernel **out) {
  tcpa_rt_kernel *k = calloc(1, sizeof *k);
  if (!k) return rt_array_fail(a, TCPA_RT_INTERNAL, "kernel_load: out of memory");
  char msg[512];
  if (sym_read(f, &k->m, msg, sizeof msg)) {
    free(k);
    return rt_array_fail(a, TCPA_RT_FILE, "%s: %s", what, msg);
  }
  if (k->m.fingerprint != arch_config_fingerprint(&a->cfg)) {
    tcpa_rt_status s = rt_array_fail(a, TCPA_RT_INVALID,
                                     "%s: compiled for another architecture (fingerprint 0x%016llx, the array's "
                                     "0x%016llx)",
                                     what, (unsigned long long)k->m.fingerprint,
                                     (unsigned long long)arch_config_fingerprint(&a->cfg));
    map_config_free(&k->m);
    free(k);
    return s;
  }
  k->a = a;
  k->next = a->kernels;
  a->kernels = k;
  *out = k;
  return rt_array_ok(a);
}

tcpa_rt_status tcpa_rt_kernel_load(tcpa_rt_array *a, const char *sym_path, tcpa_rt_kernel **out) {
  if (!a) return TCPA_RT_INVALID;
  if (!out || !sym_path) return rt_array_fail(a, TCPA_RT_INVALID, "kernel_load: NULL argument");
  *out = NULL;
  FILE *f = fopen(sym_path, "r");
  if (!f) return rt_array_fail(a, TCPA_RT_FILE, "%s: cannot read the symbolic configuration", sym_path);
  tcpa_rt_status s = rt_kernel_read(a, f, sym_path, out);
  fclose(f);
  return s;
}

tcpa_rt_status tcpa_rt_kernel_load_text(tcpa_rt_array *a, const char *what, const char *sym_text,
                                        tcpa_rt_kernel **out) {
  if (!a) return TCPA_RT_INVALID;
  if (!out || !sym_text) return rt_array_fail(a, TCPA_RT_INVALID, "kernel_load_text: NULL argument");
  *out = NULL;
  if (!what) what = "(embedded .sym)";
  FILE *f = fmemopen((void *)sym_text, strlen(sym_text), "r");
  if (!f) return rt_array_fail(a, TCPA_RT_INTERNAL, "%s: cannot read the text (fmemopen)", what);
  tcpa_rt_status s = rt_kernel_read(a, f, what, out);
  fclose(f);
  return s;
}

/* Frees k's instantiation, arrays and placements (back to LOADED). */
static void rt_kernel_uninstantiate(tcpa_rt_kernel *k) {
  if (k->have_x) inst_free(&k->x);
  k->have_x = 0;
  for (int i = 0; k->buf && i < k->m.narrays; i++) free(k->buf[i].data);
  free(k->buf);
  free(k->place);
  k->buf = NULL, k->place = NULL, k->nplace = 0;
  k->r = NULL;
  k->state = RT_K_LOADED;
}

void tcpa_rt_kernel_free(tcpa_rt_kernel *k) {
  if (!k) return;
  tcpa_rt_array *a = k->a;
  rt_engine_forget(a, k);
  for (tcpa_rt_kernel **p = &a->kernels; *p; p = &(*p)->next)
    if (*p == k) {
      *p = k->next;
      break;
    }
  rt_kernel_uninstantiate(k);
  map_config_free(&k->m);
  free(k);
}

const char *tcpa_rt_kernel_name(const tcpa_rt_kernel *k) { return k && k->m.name ? k->m.name : ""; }

/* Returns the index of parameter `name` of k, or -1. */
static int rt_kernel_param_find(const tcpa_rt_kernel *k, const char *name) {
  for (int i = 0; i < k->m.nparams; i++)
    if (!strcmp(k->m.param_name[i], name)) return i;
  return -1;
}

/* Writes k's parameter names, comma-separated, into buf. */
static const char *rt_kernel_param_list(const tcpa_rt_kernel *k, char *buf, size_t size) {
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < k->m.nparams && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", k->m.param_name[i]);
  if (!k->m.nparams) snprintf(buf, size, "none");
  return buf;
}

tcpa_rt_status tcpa_rt_param_set(tcpa_rt_kernel *k, const char *name, long long value) {
  if (!k) return TCPA_RT_INVALID;
  char list[256];
  int i = name ? rt_kernel_param_find(k, name) : -1;
  if (i < 0)
    return rt_array_fail(k->a, TCPA_RT_INVALID, "kernel %s has no parameter '%s' (its parameters: %s)", k->m.name,
                         name ? name : "(NULL)", rt_kernel_param_list(k, list, sizeof list));
  if (value < 1 || value > INT32_MAX)
    return rt_array_fail(k->a, TCPA_RT_INVALID, "kernel %s: %s = %lld is outside 1 .. %d (every parameter >= 1)",
                         k->m.name, name, value, INT32_MAX);
  k->pval[i] = value;
  k->pset[i] = 1;
  return rt_array_ok(k->a);
}

int rt_kernel_array_find(const tcpa_rt_kernel *k, const char *name) {
  for (int i = 0; name && i < k->m.narrays; i++)
    if (!strcmp(k->m.array_name[i], name)) return i;
  return -1;
}

/* Collects one output placement into the kernel (inst_place_fn); a
 * failed allocation leaves nplace at SIZE_MAX. */
static void rt_kernel_place_add(const inst_place *pl, void *ctx) {
  tcpa_rt_kernel *k = ctx;
  if (k->nplace == SIZE_MAX) return;
  if (!(k->nplace & (k->nplace + 1))) { /* 0, 1, 3, 7, ...: grow to twice */
    inst_place *np = realloc(k->place, (2 * k->nplace + 2) * sizeof *np);
    if (!np) {
      k->nplace = SIZE_MAX;
      return;
    }
    k->place = np;
  }
  k->place[k->nplace++] = *pl;
}

/* Returns 0 after sizing k's arrays from its instantiation, inputs
 * taken from old (the previous arrays, NULL: none) where an array keeps
 * its shape; -1 out of memory. */
static int rt_kernel_arrays_make(tcpa_rt_kernel *k, const rt_buf *old) {
  const map_config *m = &k->m;
  k->buf = calloc((size_t)m->narrays + 1, sizeof *k->buf);
  if (!k->buf) return -1;
  for (int c = 0; c < m->naccess; c++)
    if (m->access[c].is_out) k->buf[m->access[c].array].is_out = 1;
  for (int i = 0; i < m->narrays; i++) {
    rt_buf *b = &k->buf[i];
    b->nd = k->x.array_nd[i];
    b->n = 1;
    for (int r = 0; r < b->nd; r++) {
      b->ext[r] = k->x.array_ext[i][r];
      b->n *= (size_t)b->ext[r];
    }
    if (!(b->data = calloc(b->n + 1, sizeof *b->data))) return -1;
    if (old && !b->is_out && old[i].nd == b->nd && !memcmp(old[i].ext, b->ext, sizeof b->ext))
      memcpy(b->data, old[i].data, b->n * sizeof *b->data);
  }
  inst_layout_each(&k->x, rt_kernel_place_add, k);
  return k->nplace == SIZE_MAX ? -1 : 0;
}

/* Returns the status of a failed instantiation st (INST_*), recorded. */
static tcpa_rt_status rt_kernel_inst_fail(tcpa_rt_kernel *k, const tcpa_rt_region *r, int st, const char *msg) {
  tcpa_rt_array *a = k->a;
  if (st == INST_ERR_NOFIT) {
    const fit_item *it = k->x.fit.n ? &k->x.fit.item[0] : NULL;
    return rt_array_refuse(a, TCPA_RT_NOFIT, TCPA_RT_WHY_RESOURCE, -1, it ? it->key : "", it ? it->need : -1,
                           it ? it->have : -1, "kernel %s on region %dx%d@%d,%d: %s", k->m.name, r->rows, r->cols,
                           r->row0, r->col0, msg);
  }
  return rt_array_fail(a, st == INST_ERR_INPUT ? TCPA_RT_INVALID : TCPA_RT_INTERNAL,
                       "kernel %s on region %dx%d@%d,%d: %s", k->m.name, r->rows, r->cols, r->row0, r->col0, msg);
}

tcpa_rt_status tcpa_rt_instantiate(tcpa_rt_kernel *k, tcpa_rt_region *r) {
  if (!k) return TCPA_RT_INVALID;
  tcpa_rt_array *a = k->a;
  if (!r || !r->used || r->a != a)
    return rt_array_fail(a, TCPA_RT_INVALID, "instantiate %s: not a region of this array", k->m.name);
  if (k->state == RT_K_RUNNING)
    return rt_array_fail(a, TCPA_RT_STATE, "instantiate %s: it runs; wait for it first", k->m.name);
  for (int i = 0; i < k->m.nparams; i++)
    if (!k->pset[i])
      return rt_array_fail(a, TCPA_RT_INVALID, "instantiate %s: parameter %s is not set (tcpa_rt_param_set)",
                           k->m.name, k->m.param_name[i]);
  for (const tcpa_rt_kernel *o = a->kernels; o; o = o->next)
    if (o != k && o->r == r)
      return rt_array_refuse(a, TCPA_RT_NOFIT, TCPA_RT_WHY_OVERLAP, r->id, "", -1, -1,
                             "instantiate %s: kernel %s is instantiated into region %d; free it first", k->m.name,
                             o->m.name, r->id);
  rt_buf *old = k->buf;
  k->buf = NULL;
  int narrays = k->m.narrays;
  rt_engine_forget(a, k);
  free(k->place);
  k->place = NULL, k->nplace = 0;
  if (k->have_x) inst_free(&k->x);
  k->have_x = 0;
  k->state = RT_K_LOADED;
  k->r = NULL;
  inst_opts o = {0};
  o.gc = r->id, o.row0 = r->row0, o.col0 = r->col0;
  char msg[1024] = "";
  int st = inst_run_opts(&k->x, &o, &k->m, &a->cfg, k->m.nparams, k->m.param_name, k->pval, r->rows, r->cols, msg,
                         sizeof msg);
  k->have_x = 1;
  tcpa_rt_status s = TCPA_RT_OK;
  if (st) s = rt_kernel_inst_fail(k, r, st, msg);
  else if (rt_kernel_arrays_make(k, old)) s = rt_array_fail(a, TCPA_RT_INTERNAL, "instantiate: out of memory");
  for (int i = 0; old && i < narrays; i++) free(old[i].data);
  free(old);
  if (s) {
    rt_kernel_uninstantiate(k);
    return s;
  }
  k->r = r;
  k->state = RT_K_READY;
  return rt_array_ok(a);
}

tcpa_rt_status tcpa_rt_update(tcpa_rt_kernel *k, const char *name, long long value) {
  if (!k) return TCPA_RT_INVALID;
  if (k->state == RT_K_RUNNING)
    return rt_array_fail(k->a, TCPA_RT_STATE, "update %s: it runs; wait for it first", k->m.name);
  tcpa_rt_status s = tcpa_rt_param_set(k, name, value);
  if (s || k->state == RT_K_LOADED) return s;
  return tcpa_rt_instantiate(k, k->r);
}

/* Returns TCPA_RT_OK and the index of array `name` of k in *i, checked
 * to be instantiated, of kind is_out (-1: either) and of n elements (n
 * SIZE_MAX: any); else the refusal. */
static tcpa_rt_status rt_kernel_array_get(const tcpa_rt_kernel *k, const char *what, const char *name, int is_out,
                                          size_t n, int *i) {
  tcpa_rt_array *a = k->a;
  if (k->state == RT_K_LOADED)
    return rt_array_fail(a, TCPA_RT_STATE, "%s %s.%s: the kernel is not instantiated", what, k->m.name,
                         name ? name : "(NULL)");
  *i = rt_kernel_array_find(k, name);
  if (*i < 0) return rt_array_fail(a, TCPA_RT_INVALID, "%s: kernel %s has no array '%s'", what, k->m.name,
                                   name ? name : "(NULL)");
  const rt_buf *b = &k->buf[*i];
  if (is_out >= 0 && b->is_out != is_out)
    return rt_array_fail(a, TCPA_RT_INVALID, "%s %s.%s: it is an %s", what, k->m.name, name,
                         b->is_out ? "output" : "input");
  if (n != SIZE_MAX && n != b->n)
    return rt_array_fail(a, TCPA_RT_INVALID, "%s %s.%s: %zu values given, the array has %zu", what, k->m.name, name,
                         n, b->n);
  return TCPA_RT_OK;
}

tcpa_rt_status tcpa_rt_array_info(const tcpa_rt_kernel *k, const char *name, tcpa_rt_array_shape *s) {
  if (!k || !s) return TCPA_RT_INVALID;
  int i;
  tcpa_rt_status st = rt_kernel_array_get(k, "array_info", name, -1, SIZE_MAX, &i);
  if (st) return st;
  const rt_buf *b = &k->buf[i];
  memset(s, 0, sizeof *s);
  s->is_output = b->is_out;
  s->ndims = b->nd;
  for (int r = 0; r < b->nd && r < 8; r++) s->extent[r] = b->ext[r];
  s->count = b->n;
  return rt_array_ok(k->a);
}

tcpa_rt_status tcpa_rt_write(tcpa_rt_kernel *k, const char *name, const int32_t *vals, size_t n) {
  if (!k) return TCPA_RT_INVALID;
  int i;
  tcpa_rt_status st = rt_kernel_array_get(k, "write", name, 0, n, &i);
  if (st) return st;
  if (!vals) return rt_array_fail(k->a, TCPA_RT_INVALID, "write %s.%s: no values (NULL)", k->m.name, name);
  if (k->state == RT_K_RUNNING)
    return rt_array_fail(k->a, TCPA_RT_STATE, "write %s.%s: the kernel runs; wait for it first", k->m.name, name);
  memcpy(k->buf[i].data, vals, n * sizeof *vals);
  return rt_array_ok(k->a);
}

tcpa_rt_status tcpa_rt_read(const tcpa_rt_kernel *k, const char *name, int32_t *vals, size_t n) {
  if (!k) return TCPA_RT_INVALID;
  int i;
  tcpa_rt_status st = rt_kernel_array_get(k, "read", name, 1, n, &i);
  if (st) return st;
  if (k->state != RT_K_DONE)
    return rt_array_fail(k->a, TCPA_RT_STATE, "read %s.%s: the kernel has not run to done since it was %s",
                         k->m.name, name, k->state == RT_K_RUNNING ? "started (wait for it)" : "instantiated");
  if (!vals) return rt_array_fail(k->a, TCPA_RT_INVALID, "read %s.%s: no place for the values (NULL)", k->m.name, name);
  memcpy(vals, k->buf[i].data, n * sizeof *vals);
  return rt_array_ok(k->a);
}
