/*
 * rt_array.c: the array of the host runtime (tcpa_rt.h, docs/runtime.md):
 * open (the architecture, arch.h, and the engine), close (every kernel
 * and region it owns), and the one way every call reports a failure: a
 * tcpa_rt_status returned, the sentence kept in the array for
 * tcpa_rt_message, and the refusal as data (tcpa_rt_error) for the code
 * that acts on it. A failure of tcpa_rt_open, which has no array yet,
 * is kept in a static buffer.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_impl.h"

static char rt_open_msg[RT_MSG];

static const char *const rt_status_names[] = {"ok",     "invalid", "state",       "file",    "nofit",
                                              "timeout", "engine", "unsupported", "internal"};

const char *tcpa_rt_status_name(tcpa_rt_status s) {
  return (unsigned)s < sizeof rt_status_names / sizeof *rt_status_names ? rt_status_names[s] : "unknown";
}

const char *tcpa_rt_message(const tcpa_rt_array *a) { return a ? a->msg : rt_open_msg; }

tcpa_rt_status tcpa_rt_last_error(const tcpa_rt_array *a, tcpa_rt_error *e) {
  if (!a || !e) return TCPA_RT_INVALID;
  *e = a->err;
  return TCPA_RT_OK;
}

/* Returns s after filling a's refusal and message (rt_impl.h). */
static tcpa_rt_status rt_array_vrefuse(tcpa_rt_array *a, tcpa_rt_status s, tcpa_rt_why why, int region,
                                       const char *resource, long long needed, long long available, const char *fmt,
                                       va_list ap) {
  a->err = (tcpa_rt_error){s, why, region, "", needed, available};
  snprintf(a->err.resource, sizeof a->err.resource, "%s", resource ? resource : "");
  vsnprintf(a->msg, sizeof a->msg, fmt, ap);
  return s;
}

tcpa_rt_status rt_array_fail(tcpa_rt_array *a, tcpa_rt_status s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  rt_array_vrefuse(a, s, TCPA_RT_WHY_NONE, -1, "", -1, -1, fmt, ap);
  va_end(ap);
  return s;
}

tcpa_rt_status rt_array_refuse(tcpa_rt_array *a, tcpa_rt_status s, tcpa_rt_why why, int region, const char *resource,
                               long long needed, long long available, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  rt_array_vrefuse(a, s, why, region, resource, needed, available, fmt, ap);
  va_end(ap);
  return s;
}

tcpa_rt_status rt_array_ok(tcpa_rt_array *a) {
  a->err = (tcpa_rt_error){TCPA_RT_OK, TCPA_RT_WHY_NONE, -1, "", -1, -1};
  a->msg[0] = '\0';
  return TCPA_RT_OK;
}

tcpa_rt_status tcpa_rt_open(const char *arch_path, tcpa_rt_engine engine, tcpa_rt_array **out) {
  rt_open_msg[0] = '\0';
  if (!out) {
    snprintf(rt_open_msg, sizeof rt_open_msg, "tcpa_rt_open: no place for the array (NULL)");
    return TCPA_RT_INVALID;
  }
  *out = NULL;
  if (engine != TCPA_RT_ENGINE_MODEL) {
    static const char *const names[] = {"model", "rtl", "cosim", "systemc"};
    snprintf(rt_open_msg, sizeof rt_open_msg, "tcpa_rt_open: engine %s is not supported yet (only model)",
             (unsigned)engine < 4 ? names[engine] : "unknown");
    return (unsigned)engine < 4 ? TCPA_RT_UNSUPPORTED : TCPA_RT_INVALID;
  }
  tcpa_rt_array *a = calloc(1, sizeof *a);
  if (!a) {
    snprintf(rt_open_msg, sizeof rt_open_msg, "tcpa_rt_open: out of memory");
    return TCPA_RT_INTERNAL;
  }
  if (arch_path ? arch_config_load(arch_path, &a->cfg) : arch_config_load_default(&a->cfg)) {
    snprintf(rt_open_msg, sizeof rt_open_msg, "tcpa_rt_open: %s: not a valid architecture file (see stderr)",
             arch_path);
    free(a);
    return TCPA_RT_FILE;
  }
  a->engine = engine;
  for (int g = 0; g < STREAM_GCS; g++) a->region[g] = (tcpa_rt_region){a, 0, g, 0, 0, 0, 0};
  rt_array_ok(a);
  *out = a;
  return TCPA_RT_OK;
}

void tcpa_rt_close(tcpa_rt_array *a) {
  if (!a) return;
  while (a->kernels) tcpa_rt_kernel_free(a->kernels);
  rt_engine_free(&a->run);
  free(a);
}

tcpa_rt_status tcpa_rt_array_size(const tcpa_rt_array *a, int *rows, int *cols) {
  if (!a) return TCPA_RT_INVALID;
  if (rows) *rows = a->cfg.rows;
  if (cols) *cols = a->cfg.cols;
  return TCPA_RT_OK;
}
