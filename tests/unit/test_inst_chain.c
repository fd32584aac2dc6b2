/* covers: docs/symbolic.md "fd chains", docs/timing.md "4. Registers" */
/*
 * test_inst_chain.c: fd chains (compiler/inst/inst_chain.c, docs/symbolic.md
 * "Registers"): a delay deeper than pe.fd_depth split over two fds by a
 * chain mov.
 *   - inst_chain_split, table-driven: the offset and depths it picks, or
 *     that none fits; every split it returns is run through a cycle
 *     simulation of the two FIFOs (docs/timing.md 4: a read sees the word
 *     before the same cycle's write; one write and one read per iteration)
 *     in which each read must return the value of its own iteration, and
 *     the same delay through one fd of pe.fd_depth words must not (the
 *     case that fails without a chain);
 *   - instantiation: matmul N = M = K = 32 on 4x4 of configs/default.ini
 *     (--map 0,1, accumulation padded as the run pipeline asks) gets one
 *     chain, fd depths within pe.fd_depth summing to the delay; N = M = K
 *     = 16 gets none (what fit before is untouched); with pe.fd = 3 there
 *     is no fd left and it does not fit, saying so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst.h"
#include "parse.h"
#include "rdg.h"
#include "test.h"

/* Returns 1 when values written at the end of cycle j*ii + w - 1 (j = 0 ..
 * n-1) into a ring of depth dx, moved by a mov issued at j*ii + tau (latency
 * lat) into a ring of depth dy (dx == 0: no mov, one ring of depth dy read
 * directly), and read at (j + s)*ii + r, all return j. */
static int sim_chain(int ii, int s, int w, int r, int lat, int tau, int dx, int dy, int n) {
  int *ringx = calloc((size_t)dx + 1, sizeof *ringx), *ringy = calloc((size_t)dy + 1, sizeof *ringy);
  int rx = 0, wx = 0, ry = 0, wy = 0, ok = 1;
  int64_t last = (int64_t)(n + s + 2) * ii + tau + r + lat + 4;
  int pend_val = 0, pend = 0; /* the mov's result in flight (lat cycles) */
  int64_t pend_at = -1;
  for (int64_t c = 0; c < last && ok; c++) {
    /* reads of cycle c */
    int64_t jr = c - r;
    if (jr >= 0 && jr % ii == 0 && jr / ii - s >= 0 && jr / ii - s < n) {
      int got = ringy[ry];
      ry = (ry + 1) % dy;
      ok = got == (int)(jr / ii - s);
    }
    int mv = 0, mvv = 0;
    if (dx) {
      int64_t jm = c - tau;
      if (jm >= 0 && jm % ii == 0 && jm / ii < n) {
        mvv = ringx[rx];
        rx = (rx + 1) % dx;
        mv = 1;
      }
    }
    /* writes at the end of cycle c */
    int64_t jw = c - (w - 1);
    if (jw >= 0 && jw % ii == 0 && jw / ii < n) {
      if (dx) {
        ringx[wx] = (int)(jw / ii);
        wx = (wx + 1) % dx;
      } else {
        ringy[wy] = (int)(jw / ii);
        wy = (wy + 1) % dy;
      }
    }
    if (pend && pend_at == c) {
      ringy[wy] = pend_val;
      wy = (wy + 1) % dy;
      pend = 0;
    }
    if (mv) {
      if (lat == 1) {
        ringy[wy] = mvv;
        wy = (wy + 1) % dy;
      } else {
        pend = 1, pend_val = mvv, pend_at = c + lat - 1;
      }
    }
  }
  free(ringx);
  free(ringy);
  return ok;
}

typedef struct {
  int ii, s, w_min, w_max, r_min, r_max, lat, fdd, res;
  int tau, dx, dy; /* tau < 0: no split */
} split_case;

static const split_case splits[] = {
    /* matmul 32^3 on 4x4, --map 0,1 padded: the add at tau 3 (lat 1)
     * writes and reads c, s(d) = 64 iterations, free slot residue 1 */
    {2, 64, 4, 4, 3, 3, 1, 32, 1, 67, 32, 32},
    /* the same at residue 0: tau 66 gives X 32, Y 33; 68 gives X 33 */
    {2, 64, 4, 4, 3, 3, 1, 32, 0, -1, 0, 0},
    /* a reader after the writer's result (extra 1: one fd needs 65, and
     * the mov's own cycle makes it 33 + 32 at best) */
    {2, 64, 3, 3, 3, 3, 1, 32, 0, -1, 0, 0},
    {2, 64, 3, 3, 3, 3, 1, 32, 1, -1, 0, 0},
    /* two writers of the fd (results readable at 3 and 4) */
    {2, 40, 3, 4, 4, 4, 1, 32, 1, 21, 10, 32},
    {2, 40, 3, 4, 4, 4, 1, 32, 0, 20, 9, 32},
    /* II 3, the smallest offset (2) leaves Y 5 deep */
    {3, 5, 2, 2, 1, 1, 1, 4, 2, 5, 2, 4},
    /* too long for two fds */
    {2, 70, 4, 4, 3, 3, 1, 32, 1, -1, 0, 0},
    {1, 10, 1, 1, 0, 0, 1, 6, 0, 4, 4, 6},
    /* an ALU latency of 2: the mov's result lands a cycle later */
    {2, 20, 4, 4, 3, 3, 2, 12, 1, 19, 8, 12},
};

/* Checks one row of splits[]. */
static void check_split(int i) {
  const split_case *c = &splits[i];
  int tau = -1;
  int64_t dx = 0, dy = 0;
  int st = inst_chain_split(c->ii, c->s, c->w_min, c->w_max, c->r_min, c->r_max, c->lat, c->fdd, c->res, &tau, &dx,
                            &dy);
  if (c->tau < 0) {
    TEST_CHECK(st != 0, "split %d: no offset fits", i);
    return;
  }
  TEST_CHECK(st == 0 && tau == c->tau && dx == c->dx && dy == c->dy,
             "split %d: tau %d (want %d), depths %lld + %lld (want %d + %d)", i, tau, c->tau, (long long)dx,
             (long long)dy, c->dx, c->dy);
  if (st) return;
  TEST_CHECK(tau % c->ii == c->res && dx <= c->fdd && dy <= c->fdd, "split %d: in its slot, depths <= %d", i, c->fdd);
  /* simulate every writer/reader offset combination of the case */
  int ok = 1;
  for (int w = c->w_min; w <= c->w_max; w++)
    for (int r = c->r_min; r <= c->r_max; r++)
      ok &= sim_chain(c->ii, c->s, w, r, c->lat, tau, (int)dx, (int)dy, 3 * c->s + 7);
  TEST_CHECK(ok, "split %d: the chain delivers every value to its own reader (simulated)", i);
  /* without the chain: one fd of pe.fd_depth words loses values */
  int one = 1;
  for (int w = c->w_min; w <= c->w_max; w++)
    for (int r = c->r_min; r <= c->r_max; r++) one &= sim_chain(c->ii, c->s, w, r, c->lat, 0, 0, c->fdd, 3 * c->s + 7);
  TEST_CHECK(!one, "split %d: one fd of %d words does not hold the delay", i, c->fdd);
  /* one word less on either fd breaks it (the depths are the smallest) */
  if (dx > 1) TEST_CHECK(!sim_chain(c->ii, c->s, c->w_min, c->r_max, c->lat, tau, (int)dx - 1, (int)dy, 3 * c->s + 7),
                         "split %d: X one word shorter fails", i);
  if (dy > 1) TEST_CHECK(!sim_chain(c->ii, c->s, c->w_min, c->r_max, c->lat, tau, (int)dx, (int)dy - 1, 3 * c->s + 7),
                         "split %d: Y one word shorter fails", i);
}

/* Returns the inst_run status of matmul N=M=K=n on 4x4 (--map 0,1, padded)
 * on configs/default.ini with pe.fd = nfd; x filled (caller frees). */
static int run_matmul(int n, int nfd, inst *x, char *msg, size_t msgsz, map_config *m, int *mapped) {
  ast_program *p = parse_file("regress/programs/matmul.pla");
  rdg *g = p ? rdg_build(p) : NULL;
  arch_config a;
  int st = -1;
  *mapped = 0;
  memset(x, 0, sizeof *x);
  if (g && !arch_config_load("configs/default.ini", &a)) {
    a.fd = nfd;
    map_opts o = {0};
    o.pad = 1;
    int ms = map_build_level(p, g, &a, 0, 2, 1, 0, 0, &o, m, msg, msgsz);
    *mapped = 1;
    if (ms == MAP_OK) {
      char *pn[3] = {"N", "M", "K"};
      int64_t pv[3] = {n, n, n};
      st = inst_run(x, m, &a, 3, pn, pv, 4, 4, msg, msgsz);
    } else {
      snprintf(msg + strlen(msg), msgsz - strlen(msg), " (mapping)");
    }
  }
  rdg_free(g);
  ast_program_free(p);
  return st;
}

/* Checks the chain on matmul. */
static void check_matmul(void) {
  char msg[512] = "";
  inst x;
  map_config m;
  int mapped;
  int st = run_matmul(32, 4, &x, msg, sizeof msg, &m, &mapped);
  TEST_CHECK(st == INST_OK, "matmul 32^3 on 4x4 instantiates (%s)", msg);
  if (st == INST_OK) {
    int chains = 0, deep = 0, sum = 0;
    for (int i = 0; i < x.m->nops; i++) chains += x.m->ops[i].rdg_node == -1 && x.m->ops[i].tau >= 32 * x.m->ii;
    for (int k = 0; k < x.arch.fd; k++) {
      deep += x.fd_depth[k] > x.arch.fd_depth;
      if (x.fd_depth[k] >= 16) sum += x.fd_depth[k];
    }
    TEST_CHECK(x.own && chains == 1, "matmul 32^3: one chain mov (%d)", chains);
    TEST_CHECK(deep == 0 && sum == 64, "matmul 32^3: fds within pe.fd_depth, the chained pair 64 deep (%d)", sum);
  }
  if (x.ctx) inst_free(&x);
  if (mapped) map_config_free(&m);
  st = run_matmul(16, 4, &x, msg, sizeof msg, &m, &mapped);
  TEST_CHECK(st == INST_OK && !x.own, "matmul 16^3: no chain (%s)", msg);
  if (x.ctx) inst_free(&x);
  if (mapped) map_config_free(&m);
  st = run_matmul(32, 3, &x, msg, sizeof msg, &m, &mapped);
  TEST_CHECK(st == INST_ERR_NOFIT && strstr(msg, "one more fd"), "matmul 32^3 with pe.fd = 3: no fd left (%s)", msg);
  if (x.ctx) inst_free(&x);
  if (mapped) map_config_free(&m);
}

int main(void) {
  for (int i = 0; i < (int)(sizeof splits / sizeof splits[0]); i++) check_split(i);
  check_matmul();
  return test_done();
}
