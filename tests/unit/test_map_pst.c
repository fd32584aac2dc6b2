/* covers: docs/symbolic.md "What each step computes", docs/timing.md "4. Registers" */
/*
 * test_map_pst.c: the PST of the symbolic mapper (map_pst.c, the paper's
 * section 5.5; docs/symbolic.md "What each step computes"), on every
 * benchmark on a large architecture: every source operand of an op has
 * leaves covering the op's space, and an fd is written exactly in the
 * iterations whose value its readers read d later (an fd is a FIFO,
 * docs/timing.md 4).
 */
#include <stdio.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>

#include "map_fixture.h"
#include "test.h"

/* Returns the union of the ispaces of the leaves of op o in slot `slot`
 * (with register class cls and index idx when cls >= 0). */
static isl_set *leaf_union(isl_ctx *ctx, const map_config *m, int o, int slot, int cls, int idx) {
  isl_set *u = NULL;
  for (int l = 0; l < m->nleaves; l++) {
    const map_pst_leaf *lf = &m->leaves[l];
    if ((o >= 0 && lf->op != o) || lf->slot != slot || (cls >= 0 && (lf->reg.cls != cls || lf->reg.idx != idx)))
      continue;
    isl_set *s = isl_set_read_from_str(ctx, lf->dom.ispace);
    u = u ? isl_set_union(u, s) : s;
  }
  return u;
}

/* Returns set s (over I) moved by +d. */
static isl_set *shift(isl_ctx *ctx, isl_set *s, int n, const int64_t *d) {
  char buf[512];
  size_t o = (size_t)snprintf(buf, sizeof buf, "{ [");
  for (int k = 0; k < n; k++) o += (size_t)snprintf(buf + o, sizeof buf - o, "%sa%d", k ? ", " : "", k);
  o += (size_t)snprintf(buf + o, sizeof buf - o, "] -> [");
  for (int k = 0; k < n; k++)
    o += (size_t)snprintf(buf + o, sizeof buf - o, "%sa%d + %lld", k ? ", " : "", k, (long long)d[k]);
  snprintf(buf + o, sizeof buf - o, "] }");
  return isl_set_apply(s, isl_map_read_from_str(ctx, buf));
}

/* PST invariants on every benchmark (a large architecture): every source
 * operand of an op has leaves covering the op's space (gcd's eq once had a
 * srcA leaf only for s = 1), and an fd is written exactly in the
 * iterations whose value its readers read d later (an fd is a FIFO,
 * timing.md 4; fir once wrote it in every iteration). */
static void test_pst_invariants(void) {
  const char *progs[] = {"bitextract", "dotprod", "fir", "gcd", "editdist", "maxpool", "trimv", "matmul",
                         "jacobi", "conv", "satarith", "band"};
  arch_config a = arch_config_default();
  a.rd = 32;
  a.fd = a.id = a.ports = a.banks = 16;
  a.od = 8;
  a.div = 1;
  a.imem = 256;
  a.gc_signals = 32;
  a.gc_dims = 8;
  for (size_t i = 0; i < sizeof progs / sizeof *progs; i++) {
    char path[128];
    snprintf(path, sizeof path, "regress/programs/%s.pla", progs[i]);
    fixture f;
    build(&f, path, NULL, a, 0);
    TEST_CHECK(f.st == MAP_OK, "%s maps on a large PE (%s)", progs[i], f.msg);
    if (f.st != MAP_OK) { release(&f); continue; }
    isl_ctx *ctx = isl_ctx_alloc();
    int cover = 1, fifo = 1;
    for (int o = 0; o < f.m.nops; o++) {
      isl_set *dom = isl_set_read_from_str(ctx, f.m.ops[o].dom.ispace);
      for (int pos = 0; pos < f.m.ops[o].nargs; pos++) {
        isl_set *u = leaf_union(ctx, &f.m, o, 1 + pos, -1, 0);
        if (!u || isl_set_is_subset(dom, u) != isl_bool_true) {
          printf("# %s: op %d operand %d not covered\n", progs[i], o, pos);
          cover = 0;
        }
        isl_set_free(u);
      }
      isl_set_free(dom);
    }
    for (int r = 0; r < f.m.nregs; r++) {
      const map_regfile_entry *e = &f.m.regs[r];
      if (e->reg.cls != MAP_REG_FD || e->d[f.m.mapped[0]]) continue; /* per-PE sets differ along the tiles */
      isl_set *w = leaf_union(ctx, &f.m, -1, 0, MAP_REG_FD, e->reg.idx), *rd = NULL;
      for (int s = 1; s <= 3; s++) {
        isl_set *x = leaf_union(ctx, &f.m, -1, s, MAP_REG_FD, e->reg.idx);
        if (x) rd = rd ? isl_set_union(rd, x) : x;
      }
      if (!w || !rd) continue;
      w = shift(ctx, w, f.m.ndims, e->d);
      if (isl_set_is_equal(w, rd) != isl_bool_true) {
        printf("# %s: fd%d written (moved by d) != read\n", progs[i], e->reg.idx);
        fifo = 0;
      }
      isl_set_free(w);
      isl_set_free(rd);
    }
    TEST_CHECK(cover, "%s: every operand's leaves cover its op's space", progs[i]);
    TEST_CHECK(fifo, "%s: every fd is written exactly where it is read d later", progs[i]);
    isl_ctx_free(ctx);
    release(&f);
  }
}

int main(void) {
  test_pst_invariants();
  return test_done();
}
