/*
 * inst_run.c: the instantiation pipeline in order (inst.h): concretize,
 * processor classes, folding and kernel classes, CFGs, control signals,
 * the prolog shift sigma for early input reads, program generation and the
 * placement of I/O accesses in banks. The stream is written by inst_emit.
 */
#include "inst.h"

/* Returns sigma: the empty steps every program starts with so that each
 * bank event's phase sigma * pi + offset is >= 0 (timing.md 6). */
static int inst_sigma(const inst *x) {
  int lo = 0;
  for (int a = 0; a < x->m->naccess; a++)
    if (x->m->access[a].offset < lo) lo = x->m->access[a].offset;
  return (-lo + x->m->ii - 1) / x->m->ii;
}

int inst_run(inst *x, const map_config *m, const arch_config *arch, int nparam, char **pname,
             const int64_t *pval, int rows, int cols, char *msg, size_t msgsz) {
  msg[0] = 0;
  int st = inst_concretize(x, m, arch, nparam, pname, pval, rows, cols, msg, msgsz);
  if (!st) st = inst_classes(x, msg, msgsz);
  if (!st) st = inst_fold(x, msg, msgsz);
  if (!st) st = inst_cfg(x, msg, msgsz);
  if (!st) st = inst_signals(x, msg, msgsz);
  if (!st) x->sigma = inst_sigma(x);
  if (!st) st = inst_proggen(x, msg, msgsz);
  if (!st) st = inst_place_io(x, msg, msgsz);
  return st;
}
