/*
 * inst_fold.c: specialization, folding and kernel classes (section 6.1).
 * For processor class pc (its smallest PE as representative: every PE of a
 * class has the same fibres) and FU fu, each leaf g of fu is specialized to
 * its fibre split(K, domain(g)) and folded (Algorithm 2): an instruction at
 * offset tau issues in slot tau mod pi of the kernel of iteration
 * succ(J, floor(tau/pi)), so the fibre is moved by that many successors.
 * Iterations past the tile are the epilog pseudo-iterations. The kernel
 * classes are Algorithm 1 applied to the program domain J u E with the
 * folded leaf domains as conditions; each class is a set on which every
 * leaf is either wholly present or wholly absent, so its kernel is read off
 * the leaves present: per slot one instruction (op, dest, od mask, sources),
 * `nop` where nothing issues. An instruction left without any destination
 * (its value is not needed in these iterations) and reading no id or fd
 * (a read pops the FIFO head or advances the read pointer) is dead:
 * it becomes `nop`, which lets more kernels merge (inst_merge.c).
 */
#include <stdlib.h>
#include <string.h>

#include "inst.h"

/* Returns 1 when instruction in has no effect a program can observe: no
 * destination register, no od, no id source (reading an id pops its FIFO).
 * Its only effect is the FU's flag, and generated programs never branch on
 * flags (loop control uses control signals), so it may issue as `nop`. */
static int inst_insn_dead(const isa_insn *in) {
  if (in->op == ISA_OP_NOP || in->dst.cls != ISA_CLS_NONE || in->odmask) return 0;
  for (int i = 0; i < 3; i++) /* an fd read advances its read pointer (docs/timing.md 4) */
    if (in->src[i].cls == ISA_CLS_ID || in->src[i].cls == ISA_CLS_FD) return 0;
  return 1;
}

/* Returns INST_OK after building the kernel of class q from the leaves
 * present in it; INST_ERR_INTERNAL (msg) when the PST is inconsistent. */
static int inst_kernel(inst *x, inst_fuprog *f, inst_kclass *q, char *msg, size_t msgsz) {
  const map_config *m = x->m;
  int ii = m->ii;
  q->slot = calloc((size_t)ii, sizeof *q->slot);
  q->op = calloc((size_t)ii, sizeof *q->op);
  int *owner = malloc((size_t)ii * sizeof *owner);
  int *have = calloc((size_t)m->nops + 1, sizeof *have);
  if (!q->slot || !q->op || !owner || !have) {
    free(owner);
    free(have);
    return INST_ERR_INTERNAL;
  }
  for (int s = 0; s < ii; s++) owner[s] = -1;
  int st = INST_OK;
  for (int i = 0; i < m->nleaves && !st; i++) {
    if (!f->folded[i]) continue;
    isl_set *in = isl_set_intersect(isl_set_copy(q->q), isl_set_copy(f->folded[i]));
    int present = isl_set_is_empty(in) == isl_bool_false;
    isl_set_free(in);
    if (!present) continue;
    const map_pst_leaf *lf = &m->leaves[i];
    const map_op *op = &m->ops[lf->op];
    int s = op->tau % ii;
    if (owner[s] >= 0 && owner[s] != lf->op) {
      snprintf(msg, msgsz, "FU %d slot %d: ops %d and %d issue together", f->fu, s, owner[s], lf->op);
      st = INST_ERR_INTERNAL;
      break;
    }
    owner[s] = lf->op;
    isa_insn *in2 = &q->slot[s];
    in2->op = op->op;
    if (lf->slot == 0) {
      in2->dst.cls = (uint8_t)lf->reg.cls;
      in2->dst.idx = (uint8_t)lf->reg.idx;
    } else if (lf->slot == 4) {
      in2->odmask |= 1u << lf->reg.idx;
    } else {
      isa_opnd *o = &in2->src[lf->slot - 1];
      o->cls = (uint8_t)lf->reg.cls;
      o->idx = lf->reg.cls == MAP_REG_IMM ? 0 : (uint8_t)lf->reg.idx;
      if (lf->reg.cls == MAP_REG_IMM) in2->imm = lf->value;
      have[lf->op] |= 1 << (lf->slot - 1);
    }
  }
  for (int s = 0; s < ii && !st; s++) {
    q->op[s] = owner[s];
    if (owner[s] < 0) continue;
    int need = m->ops[owner[s]].nargs;
    if (have[owner[s]] != (1 << need) - 1) {
      snprintf(msg, msgsz, "op %d issues without all of its %d sources", owner[s], need);
      st = INST_ERR_INTERNAL;
    } else if (inst_insn_dead(&q->slot[s])) {
      memset(&q->slot[s], 0, sizeof q->slot[s]);
      q->op[s] = -1;
    }
  }
  free(owner);
  free(have);
  return st;
}

/* Returns INST_OK after folding and classifying FU program f of class c. */
static int inst_fold_fu(inst *x, inst_pclass *c, inst_fuprog *f, char *msg, size_t msgsz) {
  const map_config *m = x->m;
  f->folded = calloc((size_t)m->nleaves + 1, sizeof *f->folded);
  if (!f->folded) return INST_ERR_INTERNAL;
  f->empty = 1;
  for (int i = 0; i < m->nleaves; i++) {
    const map_op *op = &m->ops[m->leaves[i].op];
    if (op->fu != f->fu) continue;
    isl_set *fib = inst_split(x, x->leaf[i], c->rep);
    if (isl_set_is_empty(fib) != isl_bool_false) {
      isl_set_free(fib);
      continue;
    }
    int64_t n = op->tau / m->ii;
    f->folded[i] = inst_succ(x, fib, n);
    f->empty = 0;
    /* the epilog reaches as far as the last folded iteration */
    if (n > f->epilog) f->epilog = n;
  }
  if (f->empty) return INST_OK;
  f->dom = inst_ext_domain(x, x->P + f->epilog);
  isl_set **parts = NULL;
  int np = inst_partition(isl_set_copy(f->dom), f->folded, m->nleaves, &parts);
  if (np <= 0) {
    free(parts);
    snprintf(msg, msgsz, "kernel classes could not be computed (isl)");
    return INST_ERR_INTERNAL;
  }
  f->k = calloc((size_t)np, sizeof *f->k);
  if (!f->k) {
    for (int i = 0; i < np; i++) isl_set_free(parts[i]);
    free(parts);
    return INST_ERR_INTERNAL;
  }
  f->nk = np;
  for (int i = 0; i < np; i++) {
    f->k[i].q = parts[i];
    f->k[i].first = inst_first_seq(x, parts[i]);
  }
  free(parts);
  /* layout order: by first iteration, so class 0 holds J = 0 */
  for (int i = 1; i < np; i++)
    for (int j = i; j > 0 && f->k[j].first < f->k[j - 1].first; j--) {
      inst_kclass tmp = f->k[j];
      f->k[j] = f->k[j - 1];
      f->k[j - 1] = tmp;
    }
  for (int i = 0; i < np; i++) {
    int st = inst_kernel(x, f, &f->k[i], msg, msgsz);
    if (st) return st;
  }
  return INST_OK;
}

int inst_fold(inst *x, char *msg, size_t msgsz) {
  for (int c = 0; c < x->npc; c++) {
    x->pc[c].fp = calloc((size_t)x->nfu, sizeof *x->pc[c].fp);
    if (!x->pc[c].fp) return INST_ERR_INTERNAL;
    for (int f = 0; f < x->nfu; f++) {
      x->pc[c].fp[f].fu = f;
      int st = inst_fold_fu(x, &x->pc[c], &x->pc[c].fp[f], msg, msgsz);
      if (st) return st;
      if (x->pc[c].fp[f].epilog > x->epilog) x->epilog = x->pc[c].fp[f].epilog;
    }
  }
  return INST_OK;
}
