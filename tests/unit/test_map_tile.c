/* covers: docs/symbolic.md "What each step computes", "Tile size 1",
 *   "2-D regions" */
/*
 * test_map_tile.c: the tiling of the symbolic mapper (map_tile.c,
 * docs/symbolic.md "Tile size 1", "2-D regions"): the smallest tile size
 * p_min of each benchmark and the wide lambda^K constants of tiles of at
 * least 2 (2 x 2 in 2-D); a 2-D mapping splits a dependence (1,1) into its
 * four tile displacements, the diagonal one routed over two hops, and
 * runs out of ports naming the side.
 */
#include <string.h>

#include "map_fixture.h"
#include "test.h"

/* 2-D mapping of fir (i rows, j columns): x's dependence (1,1) splits into
 * four edges, the diagonal one two hops (latency lat + 1 + 2) routed
 * through the intermediate wrapper, and every channel side has a port. */
static void test_2d_fir(void) {
  arch_config a = arch_config_default();
  a.rd = a.fd = a.id = 16;
  a.od = 8;
  a.banks = a.ports = 16;
  fixture f;
  build2d(&f, "regress/programs/fir.pla", a);
  TEST_CHECK(f.st == MAP_OK && f.m.axis == 2 && f.m.mapped[0] == 0 && f.m.mapped[1] == 1, "fir maps 2-D (%s)", f.msg);
  int th[2][2] = {{0, 0}, {0, 0}}, diag_lat = 0;
  for (int e = 0; f.st == MAP_OK && e < f.m.nedges; e++) {
    const map_edge *x = &f.m.edges[e];
    if (x->kind != MAP_EDGE_DEP || x->d[0] != 1 || x->d[1] != 1 || x->src < 0)
      continue;
    th[x->theta[0]][x->theta[1]] = 1;
    if (x->theta[0] && x->theta[1]) diag_lat = map_edge_latency(&f.m, x) == f.m.ops[x->src].lat + 3;
  }
  TEST_CHECK(th[0][0] && th[0][1] && th[1][0] && th[1][1], "fir 2-D: d = (1,1) split into (0,0) (0,1) (1,0) (1,1)");
  TEST_CHECK(diag_lat, "fir 2-D: the diagonal channel's latency counts two hops");
  int two = 0, sides_ok = 1;
  for (int r = 0; r < f.m.nroutes; r++) {
    const map_route *rt = &f.m.routes[r];
    if (rt->delta[0] && rt->delta[1]) {
      two = rt->hops == 2 && strchr("EW", rt->out_side[0]) && strchr("NS", rt->out_side[1]) &&
            rt->in_side[0] == (rt->out_side[0] == 'E' ? 'W' : 'E') && rt->in_side[1] == (rt->out_side[1] == 'S' ? 'N' : 'S');
    } else {
      sides_ok &= rt->hops == 1 && rt->out_side[0] == (rt->delta[0] > 0 ? 'S' : rt->delta[0] < 0 ? 'N' : rt->delta[1] > 0 ? 'E' : 'W');
    }
  }
  TEST_CHECK(two, "fir 2-D: the diagonal route is E/W then S/N over two hops");
  TEST_CHECK(sides_ok, "fir 2-D: straight routes leave by the side of their displacement");
  TEST_CHECK(f.m.lk_p[0] == 1 && f.m.lk_p[1] == 1, "fir 2-D: both lambda^K have the pi*p*S term (values flow down and right)");
  release(&f);
  /* too few ports: the channels toward the south do not fit */
  a.ports = 1;
  build2d(&f, "regress/programs/fir.pla", a);
  TEST_CHECK(f.st == MAP_ERR_NOFIT && strstr(f.msg, "propagation channels toward the") &&
             strstr(f.msg, "interconnect.ports = 1"), "fir 2-D with 1 port: does not fit, names the side (%s)", f.msg);
  release(&f);
}

/* Tile size 1 (map_sched_tile1): matmul on i,j of configs/default.ini
 * gets p_min 1 x 1 with the same schedule, and keeps the lambda^K
 * constants of 2 x 2 tiles and more; trimv 1-D too; fir on i keeps p_min
 * 2 (its schedule needs the iteration distances of two-iteration tiles);
 * jacobi on i too (t-carried values would come back to the same PE one
 * iteration later, not two), and jacobi on t, which is scanned after i (a
 * smaller extent is not a lower bound of s(d) there). */
static void test_tile1(void) {
  arch_config a = arch_config_default();
  fixture f;
  build2d(&f, "regress/programs/matmul.pla", a);
  TEST_CHECK(f.st == MAP_OK && f.m.p_min[0] == 1 && f.m.p_min[1] == 1, "matmul i,j: p_min 1 x 1 (%d x %d, %s)",
             f.m.p_min[0], f.m.p_min[1], f.msg);
  TEST_CHECK(f.st == MAP_OK && f.m.wide && f.m.p_wide[0] == 2 && f.m.p_wide[1] == 2 && f.m.lk_cw[0] < f.m.lk_c[0] &&
                 f.m.lk_cw[1] <= f.m.lk_c[1],
             "matmul i,j: wide lambda^K for 2x2 tiles and more (rows c %lld < %lld)", (long long)f.m.lk_cw[0],
             (long long)f.m.lk_c[0]);
  int64_t E1[AST_MAX_DIMS] = {1, 1, 4}, E2[AST_MAX_DIMS] = {2, 2, 4};
  TEST_CHECK(f.st == MAP_OK && map_lambda_k(&f.m, E1) == f.m.ii * 1 * 1 + f.m.lk_c[0] &&
                 map_lambda_k(&f.m, E2) == f.m.ii * 2 * 2 + f.m.lk_cw[0],
             "matmul i,j: lambda^K takes the wide constant only for tiles of at least 2 x 2");
  release(&f);
  build(&f, "regress/programs/trimv.pla", NULL, a, 0);
  TEST_CHECK(f.st == MAP_OK && f.m.p_min[0] == 1 && f.m.wide && f.m.p_wide[0] == 2, "trimv 1-D on i: p_min 1 (%d, %s)",
             f.m.p_min[0], f.msg);
  release(&f);
  build(&f, "regress/programs/fir.pla", NULL, a, 0);
  TEST_CHECK(f.st == MAP_OK && f.m.p_min[0] == 1 && f.m.wide && f.m.p_wide[0] == 2,
             "fir 1-D on i: p_min 1 (its II 2 schedule allows it since operand forwarding) (%d, %s)", f.m.p_min[0],
             f.msg);
  release(&f);
  a.rd = a.fd = a.id = a.od = 8;
  a.banks = a.ports = 8;
  a.div = 1;
  build(&f, "regress/programs/jacobi.pla", NULL, a, 1);
  TEST_CHECK(f.st == MAP_OK && f.m.order[0] == 1 && f.m.p_min[0] == 2 && !f.m.wide,
             "jacobi on i: p_min 2 (its schedule needs it) (%d, %s)", f.m.p_min[0], f.msg);
  release(&f);
  build(&f, "regress/programs/jacobi.pla", NULL, a, 0);
  TEST_CHECK(f.st == MAP_OK && f.m.order[0] != 0 && f.m.p_min[0] == 2 && !f.m.wide,
             "jacobi on t (scanned after i): p_min 2 (%d, %s)", f.m.p_min[0], f.msg);
  release(&f);
}

int main(void) {
  test_tile1();
  test_2d_fir();
  return test_done();
}
