/* covers: docs/symbolic.md "What each step computes", "shared slots",
 *   "Operand forwarding" */
/*
 * test_map_sched.c: the modulo schedule of the symbolic mapper
 * (map_sched.c, docs/symbolic.md "What each step computes"): a table of
 * programs and architectures with the expected ResMII, RecMII and II (the
 * paper's running example with two ALUs at II 2, small recurrences with
 * latency.mul = 3); matmul, fir and trimv at II = max(ResMII, RecMII)
 * with one op per variable and operation, the slots the ops need and
 * their ties (forwarded operands issue with their mov); a program whose
 * operand forwarding once made a cycle of distance 0; and a brute-force
 * check that the symbolic schedule respects every dependence instance
 * for many loop bounds and region sizes, on 1-D regions and on 2-D ones
 * (two tiled dimensions, diagonal channels with two hops of latency).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include "map_fixture.h"
#include "test.h"

static const char *REC_MUL = /* s[i] = s[i-1] * a[i]: a recurrence through a mul */
    "program recmul(N) { in int32 a[N]; out int32 y;\n"
    " par (0 <= i < N) { s[i] = a[i] if (i == 0); s[i] = s[i-1] * a[i] if (i >= 1);\n"
    " y = s[i] if (i == N-1); } }\n";
static const char *REC_MUL2 = /* distance 2: RecMII halves */
    "program recmul2(N) { in int32 a[N]; out int32 y;\n"
    " par (0 <= i < N) { s[i] = a[i] if (i <= 1); s[i] = s[i-2] * a[i] if (i >= 2);\n"
    " y = s[i] if (i == N-1); } }\n";
static const char *REC_CHAIN = /* s -> mul -> add -> s: lat_mul + lat_alu */
    "program chain(N) { in int32 a[N]; out int32 y;\n"
    " par (0 <= i < N) { s[i] = a[i] if (i == 0); s[i] = s[i-1] * 3 + a[i] if (i >= 1);\n"
    " y = s[i] if (i == N-1); } }\n";

typedef struct {
  const char *name, *text;
  int alu, mul, lat_mul;
  int resmii, recmii, ii;
} mii_case;

/* The table of ResMII/RecMII/II. */
static void test_mii_table(void) {
  const mii_case cases[] = {
      {"regress/programs/bitextract.pla", NULL, 2, 1, 2, 2, 2, 2},
      {"regress/programs/bitextract.pla", NULL, 4, 1, 2, 1, 2, 2},
      {"regress/programs/bitextract.pla", NULL, 1, 1, 2, 3, 2, 3}, /* x's two cases: one mov */
      /* y = s is written by s's producers (no output mov), so s has only
       * its fd use and no writer copy: the recurrence is the mul alone
       * (3 over distance 1); s's mov (i = 0) is the only ALU op */
      {"recmul", REC_MUL, 2, 1, 3, 1, 3, 3},
      {"recmul2", REC_MUL2, 2, 1, 3, 1, 2, 2}, /* distance 2 */
      {"chain", REC_CHAIN, 2, 1, 3, 1, 4, 4},  /* mul 3 + add 1 */
      {"chain", REC_CHAIN, 2, 1, 2, 1, 3, 3},
      /* s's mov (i = 0) and add (i >= 1) share the one ALU's slot */
      {"chain", REC_CHAIN, 1, 1, 2, 1, 3, 3},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const mii_case *c = &cases[i];
    arch_config a = arch_config_default();
    a.alu = c->alu;
    a.mul = c->mul;
    a.lat_mul = c->lat_mul;
    a.rd = a.fd = a.id = 16;
    a.od = 8;
    fixture f;
    build(&f, c->name, c->text, a, 0);
    TEST_CHECK(f.st == MAP_OK, "%s alu %d latency.mul %d maps (%s)", c->name, c->alu, c->lat_mul, f.msg);
    if (f.st == MAP_OK) {
      TEST_CHECK(f.m.resmii_all == c->resmii, "%s alu %d: ResMII %d (want %d)", c->name, c->alu, f.m.resmii_all,
                 c->resmii);
      TEST_CHECK(f.m.recmii == c->recmii, "%s latency.mul %d: RecMII %d (want %d)", c->name, c->lat_mul,
                 f.m.recmii, c->recmii);
      TEST_CHECK(f.m.ii == c->ii, "%s alu %d: II %d (want %d)", c->name, c->alu, f.m.ii, c->ii);
    }
    release(&f);
  }
}

/* Returns 1 when isl proves the condition spaces of ops a and b disjoint. */
static int ops_disjoint(const map_op *a, const map_op *b) {
  isl_ctx *ctx = isl_ctx_alloc();
  isl_set *x = isl_set_read_from_str(ctx, a->dom.ispace), *y = isl_set_read_from_str(ctx, b->dom.ispace);
  int d = x && y && isl_set_is_disjoint(x, y) == isl_bool_true;
  isl_set_free(x);
  isl_set_free(y);
  isl_ctx_free(ctx);
  return d;
}

/* matmul, fir and trimv: II = max(ResMII, RecMII) with the slots the ops
 * need, one op per variable and operation (the movs of a, b, c, u, v are
 * one each, their readers take the movs' sources), the product of both
 * cases computed once (matmul's `a * b` for k = 0 and k >= 1: one mul),
 * and no output `mov` (the producers write the output's od). */
static void test_benchmarks(void) {
  const char *progs[] = {"regress/programs/matmul.pla", "regress/programs/fir.pla", "regress/programs/trimv.pla"};
  const int want_alu[] = {3, 3, 2}, want_mul[] = {1, 1, 1}, want_ii[] = {2, 2, 2};
  for (int i = 0; i < 3; i++) {
    arch_config a = arch_config_default();
    a.rd = a.fd = a.id = 16;
    a.od = 8;
    a.lat_mul = 3;
    fixture f;
    build(&f, progs[i], NULL, a, 0);
    TEST_CHECK(f.st == MAP_OK, "%s maps (%s)", progs[i], f.msg);
    if (f.st != MAP_OK) { release(&f); continue; }
    int alu = 0, mul = 0;
    for (int o = 0; o < f.m.nops; o++) {
      alu += f.m.ops[o].cls == ISA_FU_ALU;
      mul += f.m.ops[o].cls == ISA_FU_MUL;
    }
    TEST_CHECK(alu == want_alu[i] && mul == want_mul[i], "%s: %d ALU ops (want %d), %d mul ops (want %d)", progs[i],
               alu, want_alu[i], mul, want_mul[i]);
    int sa = f.m.nslots[ISA_FU_ALU], sm = f.m.nslots[ISA_FU_MUL];
    TEST_CHECK(sa <= alu && sm <= mul && sm == 1, "%s: slots alu %d <= %d, mul %d <= %d",
               progs[i], sa, alu, sm, mul);
    int res = (sa + 1) / 2 > sm ? (sa + 1) / 2 : sm;
    TEST_CHECK(f.m.resmii_all == res, "%s: ResMII %d = max(ceil(%d/2), %d/1)", progs[i], f.m.resmii_all, sa, sm);
    int mii = res > f.m.recmii ? res : f.m.recmii;
    /* a piecewise program keeps II >= 2 (a kernel of one slot has one branch) */
    TEST_CHECK(f.m.ii == (mii > 2 ? mii : 2) && f.m.ii == want_ii[i] && (f.m.ii == mii || f.m.ii_reason[0]),
               "%s: II %d = max(MII %d, 2) (want %d)", progs[i], f.m.ii, mii, want_ii[i]);
    /* modulo constraints: a unit's slot holds one op, or ops of disjoint
     * condition spaces in one stage */
    for (int x = 0; x < f.m.nops; x++)
      for (int y = x + 1; y < f.m.nops; y++)
        if (f.m.ops[x].fu == f.m.ops[y].fu && f.m.ops[x].tau % f.m.ii == f.m.ops[y].tau % f.m.ii &&
            (f.m.ops[x].tau / f.m.ii != f.m.ops[y].tau / f.m.ii || !ops_disjoint(&f.m.ops[x], &f.m.ops[y])))
          TEST_CHECK(0, "%s: ops %d and %d share FU %d in slot %d", progs[i], x, y, f.m.ops[x].fu,
                     f.m.ops[x].tau % f.m.ii);
    /* forwarded operands: the mov and its reader issue in one cycle */
    int ties = 0;
    for (int e = 0; e < f.m.nedges; e++) {
      const map_edge *x = &f.m.edges[e];
      if (x->kind != MAP_EDGE_TIE) continue;
      ties++;
      TEST_CHECK(f.m.ops[x->src].tau == f.m.ops[x->dst].tau, "%s: tie %d: ops %d and %d at one offset", progs[i], e,
                 x->src, x->dst);
    }
    TEST_CHECK(ties > 0, "%s: the multiply reads the movs' sources (%d ties)", progs[i], ties);
    for (int o = 0; o < f.m.nops; o++)
      if (f.m.ops[o].rdg_node >= 0 && f.m.ops[o].var >= f.m.g->nvars && f.m.ops[o].op == ISA_OP_MOV)
        TEST_CHECK(0, "%s: op %d is an output mov", progs[i], o);
    release(&f);
  }
}

/* Operand forwarding never ties two readers of a `mov` when one feeds
 * the other in the same iteration (tied ops issue in one cycle): random
 * program 31008 (tcpa gen program, shrunk; docs/fuzz.md) made a cycle of
 * distance 0 on configs/big1d.ini, which the scheduler searched through
 * every II for hours. Maps at the first level now. */
static void test_forward_chain(void) {
  static const char *prog =
      "program g31008(N) { out int32 O0;\n par (0 <= i < N) {\n"
      "  v0[i] = v1[i-1] if (i >= 1); v0[i] = 0 if (i <= 0); v1[i] = 0; v2[i] = 0;\n"
      "  O0 = (v1[i] ^ (v1[i] ? 0 : 0)) if (i == 0); } }\n";
  arch_config a;
  TEST_CHECK(arch_config_load("configs/big1d.ini", &a) == 0, "configs/big1d.ini loads");
  fixture f;
  build(&f, "g31008", prog, a, 0);
  TEST_CHECK(f.st == MAP_OK && f.m.no_cse == 0, "g31008 maps at the first level on big1d (st %d, level %d: %s)",
             f.st, f.m.no_cse, f.msg);
  release(&f);
}

/* Returns the value of bound text s (a 1-point set) at params. */
static int64_t eval_bound(isl_ctx *ctx, const char *s, const ast_program *p, const int64_t *params) {
  isl_set *set = isl_set_read_from_str(ctx, s);
  for (int k = 0; k < p->nparams; k++) {
    int pos = isl_set_find_dim_by_name(set, isl_dim_param, p->param[k]);
    if (pos >= 0) set = isl_set_fix_si(set, isl_dim_param, (unsigned)pos, (int)params[k]);
  }
  isl_point *pt = isl_set_sample_point(set);
  isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_set, 0);
  int64_t r = isl_val_get_num_si(v);
  isl_val_free(v);
  isl_point_free(pt);
  return r;
}

typedef struct {
  const map_config *m;
  const map_edge *e;
  int64_t lo[AST_MAX_DIMS], E[AST_MAX_DIMS], p, p2;
  int checked, bad;
} verify_ctx;

/* Returns the issue time of op o in iteration I (tile p; 2-D: tiles p x
 * p2, *K2 the column tile). */
static int64_t issue2(const verify_ctx *v, const int64_t *I, int o, int64_t *K, int64_t *K2) {
  int64_t J[AST_MAX_DIMS];
  int mm = v->m->mapped[0];
  for (int k = 0; k < v->m->ndims; k++) J[k] = I[k] - v->lo[k];
  *K = J[mm] / v->p;
  J[mm] -= *K * v->p;
  *K2 = 0;
  if (v->m->axis == 2) {
    *K2 = J[v->m->mapped[1]] / v->p2;
    J[v->m->mapped[1]] -= *K2 * v->p2;
  }
  return v->m->ii * map_seq_dist(v->m, J, v->E) + map_lambda_k(v->m, v->E) * *K +
         map_lambda_k2(v->m, v->E) * *K2 + v->m->ops[o].tau;
}

/* Returns the issue time of op o in iteration I (1-D). */
static int64_t issue(const verify_ctx *v, const int64_t *I, int o, int64_t *K) {
  int64_t K2;
  return issue2(v, I, o, K, &K2);
}


static isl_stat verify_point(__isl_take isl_point *pt, void *user) {
  verify_ctx *v = user;
  int64_t I[AST_MAX_DIMS], S[AST_MAX_DIMS], K, Ks;
  for (int k = 0; k < v->m->ndims; k++) {
    isl_val *x = isl_point_get_coordinate_val(pt, isl_dim_set, k);
    I[k] = isl_val_get_num_si(x);
    isl_val_free(x);
    S[k] = I[k] - v->e->d[k];
  }
  isl_point_free(pt);
  int64_t K2, Ks2;
  int64_t tw = issue2(v, I, v->e->dst, &K, &K2), tv = issue2(v, S, v->e->src, &Ks, &Ks2);
  (void)issue;
  if (K - Ks != v->e->theta[0] || K2 - Ks2 != v->e->theta[1]) return isl_stat_ok; /* another split edge's */
  v->checked++;
  if (tw < tv + map_edge_latency(v->m, v->e)) v->bad++;
  return isl_stat_ok;
}

/* Brute force: every dependence instance for bounds params and t PEs
 * (tc > 0: a 2-D region of t rows and tc columns, dimensions 0 and 1). */
static void verify_any(const char *path, const int64_t *params, int t, int tc) {
  arch_config a = arch_config_default();
  a.rd = a.fd = a.id = 16;
  a.od = tc > 0 ? 16 : 8;
  a.div = 1;
  a.banks = a.ports = 16;
  fixture f;
  if (tc > 0) {
    build2d(&f, path, a);
  } else {
    build(&f, path, NULL, a, 0);
  }
  if (f.st != MAP_OK) { TEST_CHECK(0, "%s maps (%s)", path, f.msg); release(&f); return; }
  isl_ctx *ctx = isl_ctx_alloc();
  verify_ctx v = {.m = &f.m};
  for (int k = 0; k < f.m.ndims; k++) {
    v.lo[k] = eval_bound(ctx, f.m.lo[k], f.p, params);
    v.E[k] = eval_bound(ctx, f.m.hi[k], f.p, params) - v.lo[k] + 1;
  }
  int mm = f.m.mapped[0];
  v.p = (v.E[mm] + t - 1) / t;
  if (v.p < f.m.p_min[0]) v.p = f.m.p_min[0];
  v.E[mm] = v.p;
  if (tc > 0) {
    int m2 = f.m.mapped[1];
    v.p2 = (v.E[m2] + tc - 1) / tc;
    if (v.p2 < f.m.p_min[1]) v.p2 = f.m.p_min[1];
    v.E[m2] = v.p2;
  }
  for (int e = 0; e < f.m.nedges; e++) { /* ties too: reader and mov at one offset */
    if (f.m.edges[e].kind != MAP_EDGE_DEP && f.m.edges[e].kind != MAP_EDGE_TIE) continue;
    v.e = &f.m.edges[e];
    isl_set *s = isl_set_read_from_str(ctx, v.e->use.ispace);
    for (int k = 0; k < f.p->nparams; k++) {
      int pos = isl_set_find_dim_by_name(s, isl_dim_param, f.p->param[k]);
      if (pos >= 0) s = isl_set_fix_si(s, isl_dim_param, (unsigned)pos, (int)params[k]);
    }
    isl_set_foreach_point(s, verify_point, &v);
    isl_set_free(s);
  }
  TEST_CHECK(v.checked > 0 && v.bad == 0,
             "%s (%lld, %lld) on %dx%d PEs (p = %lld x %lld): %d dependence instances, %d violated", path,
             (long long)params[0], (long long)params[1], tc > 0 ? t : 1, tc > 0 ? tc : t, (long long)v.p,
             (long long)v.p2, v.checked, v.bad);
  isl_ctx_free(ctx);
  release(&f);
}

/* verify_any on a 1-D region of t PEs. */
static void verify(const char *path, const int64_t *params, int t) { verify_any(path, params, t, 0); }

int main(void) {
  test_forward_chain();
  test_mii_table();
  test_benchmarks();
  const char *progs[] = {"regress/programs/bitextract.pla", "regress/programs/matmul.pla",
                         "regress/programs/fir.pla", "regress/programs/trimv.pla",
                         "regress/programs/editdist.pla", "regress/programs/gcd.pla"};
  int64_t pv[][3] = {{1, 1, 1}, {5, 3, 2}, {16, 4, 3}, {7, 7, 5}};
  int ts[] = {1, 2, 3, 5};
  /* the fast tier verifies the first two programs at two of the
   * parameter sets; the others in the full tier */
  int full = test_full_tier();
  size_t nprogs = full ? sizeof progs / sizeof *progs : 2;
  if (!full) printf("# fast tier: bitextract and matmul at 2 parameter sets; the rest in the full tier\n");
  for (size_t i = 0; i < nprogs; i++)
    for (int j = 0; j < 4; j += full ? 1 : 2) verify(progs[i], pv[j], ts[j]);
  /* tile size 1 (p = p_min = |d_m|): one PE per index of the mapped
   * dimension; every dependence crosses PEs */
  int64_t pv1[][3] = {{5, 3, 2}, {7, 7, 5}};
  int ts1[] = {5, 7};
  for (size_t i = 0; i < nprogs; i++)
    for (int j = 0; j < (full ? 2 : 1); j++) verify(progs[i], pv1[j], ts1[j]);
  /* 2-D regions: dimensions 0 and 1 onto rows and columns */
  const char *progs2[] = {"regress/programs/matmul.pla", "regress/programs/fir.pla", "regress/programs/trimv.pla",
                          "regress/programs/editdist.pla", "regress/programs/gcd.pla", "regress/programs/band.pla"};
  int64_t pv2[][3] = {{4, 4, 2}, {7, 5, 3}, {9, 6, 2}};
  int tr2[] = {2, 3, 2}, tc2[] = {2, 2, 4};
  for (size_t i = 0; i < sizeof progs2 / sizeof *progs2; i++)
    for (int j = 0; j < 3; j++) verify_any(progs2[i], pv2[j], tr2[j], tc2[j]);
  /* tile size 1 in both dimensions, in one of them, and wide tiles on a
   * 3x3 region (the wide lambda^K constants) */
  int64_t pv3[][3] = {{4, 4, 3}, {4, 4, 2}, {4, 4, 2}, {7, 5, 3}, {9, 7, 2}};
  int tr3[] = {4, 4, 2, 7, 3}, tc3[] = {4, 2, 4, 5, 3};
  for (size_t i = 0; i < sizeof progs2 / sizeof *progs2; i++)
    for (int j = 0; j < 5; j++) verify_any(progs2[i], pv3[j], tr3[j], tc3[j]);
  return test_done();
}
