/*
 * rt_datafile.c: a kernel's arrays to and from data files (tcpa_rt.h
 * tcpa_rt_write_file, tcpa_rt_read_file; docs/runtime.md "Data files"),
 * in the format of docs/user-guide.md "Data files" that `tcpa run --in`
 * reads and `--out-dir` writes, so that a host program's files and tcpa's
 * compare line for line. The values go through tcpa_rt_write and
 * tcpa_rt_read, which check the name, the direction and the state; the
 * files through common/datafile.c (atomic writes).
 */
#include <stdlib.h>

#include "datafile.h"
#include "rt_impl.h"

tcpa_rt_status tcpa_rt_write_file(tcpa_rt_kernel *k, const char *name, const char *path) {
  if (!k) return TCPA_RT_INVALID;
  tcpa_rt_array_shape s;
  tcpa_rt_status st = tcpa_rt_array_info(k, name, &s);
  if (st) return st;
  if (s.is_output) return tcpa_rt_write(k, name, NULL, s.count); /* its refusal: an output */
  if (!path) return rt_array_fail(k->a, TCPA_RT_INVALID, "write_file %s.%s: no file (NULL)", k->m.name, name);
  int32_t *v = malloc((s.count + 1) * sizeof *v);
  if (!v) return rt_array_fail(k->a, TCPA_RT_INTERNAL, "write_file %s.%s: out of memory", k->m.name, name);
  char what[96];
  snprintf(what, sizeof what, "input %s", name);
  if (datafile_read(path, what, v, s.count)) {
    free(v);
    return rt_array_fail(k->a, TCPA_RT_FILE, "write_file %s.%s: %s does not hold the array's %zu values", k->m.name,
                         name, path, s.count);
  }
  st = tcpa_rt_write(k, name, v, s.count);
  free(v);
  return st;
}

tcpa_rt_status tcpa_rt_read_file(const tcpa_rt_kernel *k, const char *name, const char *path) {
  if (!k) return TCPA_RT_INVALID;
  tcpa_rt_array_shape s;
  tcpa_rt_status st = tcpa_rt_array_info(k, name, &s);
  if (st) return st;
  int32_t *v = malloc((s.count + 1) * sizeof *v);
  if (!v) return rt_array_fail(k->a, TCPA_RT_INTERNAL, "read_file %s.%s: out of memory", k->m.name, name);
  st = tcpa_rt_read(k, name, v, s.count);
  if (!st && !path) st = rt_array_fail(k->a, TCPA_RT_INVALID, "read_file %s.%s: no file (NULL)", k->m.name, name);
  if (!st) {
    int64_t ext[8];
    for (int d = 0; d < s.ndims && d < 8; d++) ext[d] = s.extent[d];
    if (datafile_write(path, v, s.ndims, ext))
      st = rt_array_fail(k->a, TCPA_RT_FILE, "read_file %s.%s: cannot write %s", k->m.name, name, path);
  }
  free(v);
  return st;
}
