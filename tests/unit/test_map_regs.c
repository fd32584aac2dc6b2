/* covers: docs/symbolic.md "What each step computes", "What fits" */
/*
 * test_map_regs.c: register allocation of the symbolic mapper (map_regs.c).
 *
 *  - a table: every benchmark of regress/programs on configs/default.ini
 *    and configs/wide.ini either maps or does not fit with the resource
 *    named (and `tcpa compile` exits 0 or 3 accordingly);
 *  - a brute-force check of every allocation that maps (the table's, and
 *    every benchmark on a large architecture): the modulo schedule is
 *    unrolled over consecutive iterations, every rd write and read is
 *    placed at its cycle (docs/timing.md: a result of an op issued at t
 *    with latency L is readable from t + L; a read sees the state at the
 *    start of its cycle), and the test checks that no two values are live
 *    in one register in the same cycle and that every read finds the value
 *    of its own producer and iteration; the register entries do not
 *    overlap and add up to the count;
 *  - small programs with a known answer: a chain whose values are never
 *    live together needs one rd, two values live together need two;
 *  - sharing happens: band needs fewer rds than it has rd values;
 *  - an input of the first PE on a channel's id (firstpe), and a
 *    propagated input read again when the program does not fit (prop);
 *  - a chain read again (diag: u[i,j] = u[i-1,j-1] from x[i] at j = 0 and
 *    0 at i = 0): the rewritten program computes the same outputs as the
 *    one written (interp.c), and maps without the chain's fd and channel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <isl/ctx.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include "arch.h"
#include "cli.h"
#include "interp.h"
#include "map.h"
#include "parse.h"
#include "rdg.h"
#include "test.h"

typedef struct {
  ast_program *p;
  rdg *g;
  map_config m;
  int st;
  char msg[512];
} fixture;

/* Maps program text (or file when text is NULL) on arch a; fills *f. */
static void build_opts(fixture *f, const char *name, const char *text, const arch_config *a, const map_opts *o) {
  memset(f, 0, sizeof *f);
  f->p = text ? parse_string(name, text) : parse_file(name);
  if (!f->p) { f->st = -1; return; }
  f->g = rdg_build(f->p);
  f->st = f->g ? map_build_opts(f->p, f->g, a, 0, 0, -1, o, &f->m, f->msg, sizeof f->msg) : -1;
}

/* Parses and maps program text (or file `name`) on a with default options. */
static void build(fixture *f, const char *name, const char *text, const arch_config *a) {
  build_opts(f, name, text, a, NULL);
}

static void release(fixture *f) {
  map_config_free(&f->m);
  rdg_free(f->g);
  ast_program_free(f->p);
}

/* Returns the entry of register class/index (idx inside its copies), or -1. */
static int entry_of(const map_config *m, int cls, int idx) {
  for (int r = 0; r < m->nregs; r++)
    if (m->regs[r].reg.cls == cls && idx >= m->regs[r].reg.idx && idx < m->regs[r].reg.idx + m->regs[r].copies)
      return r;
  return -1;
}

/* Returns 1 when edge e reads an rd (a d = 0 value inside the PE). */
static int reads_rd(const map_edge *e) { return e->kind == MAP_EDGE_DEP && e->rreg.cls == MAP_REG_RD; }

/* Entries: every register of a class belongs to exactly one entry, and the
 * copies add up to used[]. */
static void check_entries(const char *name, const map_config *m) {
  int bad = 0;
  for (int cls = MAP_REG_RD; cls <= MAP_REG_OD; cls++) {
    int sum = 0;
    for (int r = 0; r < m->nregs; r++)
      if (m->regs[r].reg.cls == cls) sum += m->regs[r].copies;
    if (sum != m->used[cls]) bad++;
    for (int i = 0; i < m->used[cls]; i++) {
      int n = 0;
      for (int r = 0; r < m->nregs; r++)
        if (m->regs[r].reg.cls == cls && i >= m->regs[r].reg.idx && i < m->regs[r].reg.idx + m->regs[r].copies) n++;
      if (n != 1) bad++;
    }
  }
  TEST_CHECK(!bad, "%s: register entries are disjoint and add up to the counts (%d problems)", name, bad);
}

#define SIM_PARAM 3   /* every program parameter's value in the simulation */
#define SIM_MAXPTS 1024 /* iterations simulated at most */

/* One rd value instance: producer op o of iteration j holds register reg
 * over cycles [from, to]. */
typedef struct {
  int op, j, reg;
  long from, to;
} live;

/* Returns the register iteration j of op o writes (its rd, rotated). */
static int reg_of(const map_config *m, int o, int j) {
  int r = entry_of(m, MAP_REG_RD, m->ops[o].dst.idx);
  int k = r >= 0 ? m->regs[r].copies : 1;
  return m->ops[o].dst.idx + j % k;
}

/* The concrete iterations of one PE (region 1x1, every parameter
 * SIM_PARAM): the bounding box of the ops' condition spaces, numbered in
 * the scan order (sequence number s(J), iterations II apart). */
typedef struct {
  const map_config *m;
  long lo[AST_MAX_DIMS], ext[AST_MAX_DIMS];
  int box; /* 0: collecting the bounds; 1: marking */
  unsigned char *mark;
  int n; /* box size */
} sim_iters;

/* Returns ispace with every parameter fixed to SIM_PARAM (NULL on error). */
static isl_set *sim_set(isl_ctx *ctx, const char *ispace) {
  isl_set *s = isl_set_read_from_str(ctx, ispace);
  if (!s) return NULL;
  isl_size np = isl_set_dim(s, isl_dim_param);
  for (int k = 0; k < np; k++) s = isl_set_fix_si(s, isl_dim_param, k, SIM_PARAM);
  return s;
}

/* isl_set_foreach_point callback: grows the box or marks the point. */
static isl_stat sim_point(__isl_take isl_point *pt, void *user) {
  sim_iters *it = user;
  long x[AST_MAX_DIMS];
  for (int k = 0; k < it->m->ndims; k++) {
    isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_set, k);
    x[k] = isl_val_get_num_si(v);
    isl_val_free(v);
  }
  isl_point_free(pt);
  if (!it->box) {
    for (int k = 0; k < it->m->ndims; k++) {
      if (!it->ext[k] || x[k] < it->lo[k]) {
        long hi = it->ext[k] ? it->lo[k] + it->ext[k] - 1 : x[k];
        it->lo[k] = x[k];
        it->ext[k] = hi - x[k] + 1;
      }
      if (x[k] > it->lo[k] + it->ext[k] - 1) it->ext[k] = x[k] - it->lo[k] + 1;
    }
    return isl_stat_ok;
  }
  long s = 0, stride = 1;
  for (int r = 0; r < it->m->ndims; r++) {
    int k = it->m->order[r];
    s += (x[k] - it->lo[k]) * stride;
    stride *= it->ext[k];
  }
  if (s >= 0 && s < it->n) it->mark[s] = 1;
  return isl_stat_ok;
}

/* Returns in mark[0..n) the iterations (sequence numbers) of ispace. */
static int sim_mark(isl_ctx *ctx, sim_iters *it, const char *ispace, unsigned char *mark) {
  isl_set *s = sim_set(ctx, ispace);
  if (!s) return -1;
  it->mark = mark;
  memset(mark, 0, (size_t)it->n);
  isl_stat st = isl_set_foreach_point(s, sim_point, it);
  isl_set_free(s);
  return st == isl_stat_ok ? 0 : -1;
}

/* The brute-force check of the rd allocation of m (see the top): the
 * iterations of one PE with concrete parameters; an op writes only in the
 * iterations of its condition space, an edge reads only in its use space. */
static void check_rd_sim(const char *name, const map_config *m) {
  int ii = m->ii, bad_bind = 0, overlap = 0, wrong = 0, reads = 0;
  /* every rd read names the register its producer writes */
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (reads_rd(x) && (m->ops[x->src].dst.cls != MAP_REG_RD || m->ops[x->src].dst.idx != x->rreg.idx)) bad_bind++;
  }
  TEST_CHECK(!bad_bind, "%s: every rd read is of the register its producer writes (%d not)", name, bad_bind);
  isl_ctx *ctx = isl_ctx_alloc();
  sim_iters it = {.m = m};
  int ok = 1;
  for (int o = 0; o < m->nops && ok; o++) {
    isl_set *s = sim_set(ctx, m->ops[o].dom.ispace);
    ok = s && isl_set_foreach_point(s, sim_point, &it) == isl_stat_ok;
    isl_set_free(s);
  }
  it.n = 1;
  for (int k = 0; k < m->ndims; k++) it.n *= (int)it.ext[k];
  it.box = 1;
  TEST_CHECK(ok && it.n > 0 && it.n <= SIM_MAXPTS, "%s: %d iterations to simulate", name, it.n);
  if (!ok || it.n <= 0 || it.n > SIM_MAXPTS) { isl_ctx_free(ctx); return; }
  unsigned char *opm = calloc((size_t)m->nops * (size_t)it.n, 1), *use = calloc((size_t)it.n, 1);
  live *L = calloc((size_t)it.n * (size_t)m->nops + 1, sizeof *L);
  int n = 0, span = 0, *first = calloc((size_t)it.n + 1, sizeof *first);
  ok = opm && use && L && first;
  for (int o = 0; o < m->nops; o++)
    if (m->ops[o].tau + m->ops[o].lat > span) span = m->ops[o].tau + m->ops[o].lat;
  span = span / ii + 2; /* iterations whose instances may meet in time */
  for (int o = 0; o < m->nops && ok; o++) ok = !sim_mark(ctx, &it, m->ops[o].dom.ispace, &opm[(size_t)o * it.n]);
  for (int j = 0; j < it.n && ok; j++) {
    first[j] = n;
    for (int o = 0; o < m->nops; o++) {
      if (m->ops[o].dst.cls != MAP_REG_RD || !opm[(size_t)o * it.n + j]) continue;
      long from = (long)j * ii + m->ops[o].tau + m->ops[o].lat, to = from;
      for (int e = 0; e < m->nedges; e++) {
        const map_edge *x = &m->edges[e];
        if (reads_rd(x) && x->src == o && (long)j * ii + m->ops[x->dst].tau > to) to = (long)j * ii + m->ops[x->dst].tau;
      }
      L[n++] = (live){o, j, reg_of(m, o, j), from, to};
    }
  }
  if (first) first[it.n] = n;
  /* no register holds two live values in one cycle */
  for (int a = 0; a < n && ok; a++)
    for (int b = a + 1; b < n && L[b].j <= L[a].j + span; b++) {
      if (L[a].reg != L[b].reg || L[a].to < L[b].from || L[b].to < L[a].from) continue;
      if (L[a].j == L[b].j && m->ops[L[a].op].var == m->ops[L[b].op].var) continue;
      if (overlap++ < 3)
        printf("# %s: rd%d holds op %d (iteration %d, cycles %ld..%ld) and op %d (iteration %d, %ld..%ld)\n", name,
               L[a].reg, L[a].op, L[a].j, L[a].from, L[a].to, L[b].op, L[b].j, L[b].from, L[b].to);
    }
  /* every read sees its producer's write: the last write to the register
   * readable by the read's cycle */
  for (int e = 0; e < m->nedges && ok; e++) {
    const map_edge *x = &m->edges[e];
    if (!reads_rd(x)) continue;
    if ((ok = !sim_mark(ctx, &it, x->use.ispace, use)) == 0) break;
    for (int j = 0; j < it.n; j++) {
      if (!use[j]) continue;
      long t = (long)j * ii + m->ops[x->dst].tau;
      int reg = reg_of(m, x->src, j), last = -1;
      int w0 = first[j - span > 0 ? j - span : 0], w1 = first[j + span < it.n ? j + span : it.n];
      for (int w = w0; w < w1; w++)
        if (L[w].reg == reg && L[w].from <= t && (last < 0 || L[w].from > L[last].from ||
                                                  (L[w].from == L[last].from && L[w].op == x->src)))
          last = w;
      reads++;
      if (last < 0 || L[last].j != j || m->ops[L[last].op].var != m->ops[x->src].var) wrong++;
    }
  }
  free(L);
  free(first);
  free(opm);
  free(use);
  isl_ctx_free(ctx);
  TEST_CHECK(ok, "%s: condition spaces enumerated", name);
  TEST_CHECK(!overlap, "%s: over %d iterations no rd holds two live values in one cycle (%d clashes)", name, it.n,
             overlap);
  TEST_CHECK(reads > 0 || !m->used[MAP_REG_RD], "%s: rd reads simulated", name);
  TEST_CHECK(!wrong, "%s: each of %d rd reads sees its own producer and iteration (%d do not)", name, reads, wrong);
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

/* The modulo schedule is still valid (allocation may move ops to lower
 * the pressure): every intra-PE dependence holds at its smallest distance,
 * no FU slot is used twice, straight channels from the previous PE (2-D:
 * along either tiled dimension) satisfy lambda^K, offsets >= 0. */
static void check_schedule(const char *name, const map_config *m) {
  int bad = 0;
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP && x->kind != MAP_EDGE_TIE) continue;
    int64_t need = map_edge_latency(m, x) - (int64_t)m->ii * map_seq_dist_lb(m, x);
    int64_t have = m->ops[x->dst].tau - m->ops[x->src].tau;
    if (!x->theta[0] && !x->theta[1] && have < need) bad++;
    for (int t = 0; t < MAP_NTILED; t++) /* a straight channel from the previous PE along t */
      if (x->theta[t] > 0 && !x->theta[1 - t] && m->lk_p[t] && m->lk_c[t] < need - have) bad++;
  }
  for (int a = 0; a < m->nops; a++) {
    if (m->ops[a].tau < 0) bad++;
    for (int b = a + 1; b < m->nops; b++) /* a slot: one op, or ops of disjoint spaces in one stage */
      if (m->ops[a].fu == m->ops[b].fu && m->ops[a].tau % m->ii == m->ops[b].tau % m->ii &&
          (m->ops[a].tau / m->ii != m->ops[b].tau / m->ii || !ops_disjoint(&m->ops[a], &m->ops[b])))
        bad++;
  }
  TEST_CHECK(!bad, "%s: the modulo schedule respects dependences and FU slots (%d violations)", name, bad);
}

/* Returns the rds the values read through an rd would need unshared (the
 * copies of each distinct variable's register): what the allocator used
 * before it shared registers. */
static int rd_unshared(const map_config *m) {
  int n = 0;
  for (int e = 0; e < m->nedges; e++) {
    if (!reads_rd(&m->edges[e])) continue;
    int v = m->ops[m->edges[e].src].var, seen = 0;
    for (int f = 0; f < e && !seen; f++) seen = reads_rd(&m->edges[f]) && m->ops[m->edges[f].src].var == v;
    int r = entry_of(m, MAP_REG_RD, m->edges[e].rreg.idx);
    if (!seen) n += r >= 0 ? m->regs[r].copies : 1;
  }
  return n;
}

static const char *const BENCH[] = {"band", "bitextract", "conv", "dotprod", "editdist", "fir",
                                    "gcd", "jacobi", "matmul", "maxpool", "satarith", "trimv"};
#define NBENCH (int)(sizeof BENCH / sizeof *BENCH)

typedef struct {
  const char *prog;
  const char *def; /* configs/default.ini: NULL maps, else the message part */
  const char *wide; /* configs/wide.ini */
} outcome;

/* What each benchmark gives on the two shipped configurations. */
static const outcome TABLE[] = {
    /* band on default.ini: maps with its accesses over two border sides
     * (map.c's second pass; it runs on 1x1, docs/symbolic.md "What fits") */
    {"band", NULL, "registers rd: needs"},
    {"bitextract", NULL, NULL},
    /* conv: its propagated inputs read again (map_reread.c) */
    {"conv", NULL, "loop dimensions"},
    /* dotprod: bias on the id of a channel (first PE only) */
    {"dotprod", NULL, "registers rd: needs"},
    /* editdist: sa and sb computed again (map_reread.c), one channel of D
     * for two consumers (map_regs.c), II 8 where rd ran out at II 7 (map.c) */
    {"editdist", NULL, "registers rd: needs"},
    /* fir, matmul and trimv on wide.ini (iobuf.banks 2): over two border
     * sides, as band on default.ini */
    {"fir", NULL, NULL},
    {"gcd", "pe.div = 0", "registers rd: needs"},
    {"jacobi", "pe.div = 0", "registers fd: needs 3, pe.fd = 2"},
    {"matmul", NULL, NULL},
    {"maxpool", NULL, "registers rd: needs"},
    /* 8: the second literal of `? 0x80000000 : 0x7fffffff` is a MOV temporary (rdg.h) */
    {"satarith", "registers rd: needs 8, pe.rd = 4; id: needs 5, pe.id = 4", "registers rd: needs"},
    {"trimv", NULL, NULL},
};

/* Returns the exit status of `tcpa compile` on prog and arch, or -1 when
 * the binary is not there. */
static int cli_status(const char *prog, const char *ini) {
  const char *tcpa = getenv("TCPA");
  char cmd[1024];
  if (!tcpa) tcpa = "build/bin/tcpa";
  FILE *f = fopen(tcpa, "rb");
  if (!f) return -1;
  fclose(f);
  snprintf(cmd, sizeof cmd, "'%s' compile regress/programs/%s.pla --arch %s -o /tmp/test_map_regs_%d.sym >/dev/null 2>&1",
           tcpa, prog, ini, (int)getpid());
  int st = system(cmd);
  snprintf(cmd, sizeof cmd, "/tmp/test_map_regs_%d.sym", (int)getpid());
  remove(cmd);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The table on configs/default.ini and configs/wide.ini (the fast tier:
 * default.ini, without the CLI's exit status). */
static void test_table(void) {
  const char *inis[2] = {"configs/default.ini", "configs/wide.ini"};
  int full = test_full_tier();
  if (!full) printf("# fast tier: the rows of default.ini that fit, but band and editdist; the others, wide.ini and tcpa compile's exit status in the full tier\n");
  for (int c = 0; c < (full ? 2 : 1); c++) {
    arch_config a;
    if (arch_config_load(inis[c], &a)) { TEST_CHECK(0, "%s loads", inis[c]); continue; }
    int fits = 0;
    for (size_t i = 0; i < sizeof TABLE / sizeof *TABLE; i++) {
      const char *want = c ? TABLE[i].wide : TABLE[i].def;
      char path[256], name[300];
      snprintf(path, sizeof path, "regress/programs/%s.pla", TABLE[i].prog);
      snprintf(name, sizeof name, "%s on %s", TABLE[i].prog, inis[c]);
      fixture f;
      /* the fast tier leaves failing searches and the two slowest maps
       * (band 11 s, editdist 6 s: the mapper's retries) to the full tier */
      if (!full && (want || !strcmp(TABLE[i].prog, "band") || !strcmp(TABLE[i].prog, "editdist"))) continue;
      build(&f, path, NULL, &a);
      if (want) {
        TEST_CHECK(f.st == MAP_ERR_NOFIT && strstr(f.msg, want), "%s: does not fit, '%s' (%d: %s)", name, want, f.st,
                   f.msg);
      } else {
        TEST_CHECK(f.st == MAP_OK, "%s: maps (%s)", name, f.msg);
        fits += f.st == MAP_OK;
        if (f.st == MAP_OK) {
          TEST_CHECK(f.m.used[MAP_REG_RD] <= a.rd, "%s: rd %d <= pe.rd %d", name, f.m.used[MAP_REG_RD], a.rd);
          check_entries(name, &f.m);
          check_schedule(name, &f.m);
          check_rd_sim(name, &f.m);
        }
      }
      int st = full ? cli_status(TABLE[i].prog, inis[c]) : -2;
      if (st == -1) TEST_CHECK(0, "%s: tcpa compile runs (TCPA or build/bin/tcpa)", name);
      if (st >= 0)
        TEST_CHECK(st == (want ? CLI_EXIT_NOFIT : CLI_EXIT_OK), "%s: tcpa compile exits %d (want %d)", name, st,
                   want ? CLI_EXIT_NOFIT : CLI_EXIT_OK);
      release(&f);
    }
    printf("# %s: %d of %zu benchmarks map\n", inis[c], fits, sizeof TABLE / sizeof *TABLE);
  }
}

/* Every benchmark on a large architecture: the allocation checked by
 * brute force, and no more rds than values; then (full tier) with fewer
 * rds, down to the first pe.rd that does not fit. */
static void test_large(void) {
  int full = test_full_tier();
  if (!full) printf("# fast tier: every other benchmark on the large architecture; the rest and fewer rds in the full tier\n");
  arch_config a = arch_config_default();
  a.rd = a.fd = a.id = 32;
  a.od = 8;
  a.div = 1;
  a.banks = a.ports = 16;
  for (int i = 0; i < NBENCH; i += full ? 1 : 2) {
    char path[256];
    snprintf(path, sizeof path, "regress/programs/%s.pla", BENCH[i]);
    fixture f;
    build(&f, path, NULL, &a);
    if (f.st != MAP_OK) {
      printf("# %s does not map on the large architecture: %s\n", BENCH[i], f.msg);
      release(&f);
      continue;
    }
    check_entries(BENCH[i], &f.m);
    check_schedule(BENCH[i], &f.m);
    check_rd_sim(BENCH[i], &f.m);
    int unshared = rd_unshared(&f.m);
    TEST_CHECK(f.m.used[MAP_REG_RD] <= unshared, "%s: %d rds, no more than %d unshared", BENCH[i],
               f.m.used[MAP_REG_RD], unshared);
    if (!strcmp(BENCH[i], "band"))
      TEST_CHECK(f.m.used[MAP_REG_RD] < unshared, "band: values share rds (%d rds, %d unshared)",
                 f.m.used[MAP_REG_RD], unshared);
    /* fewer rds: the allocator may move ops to fit; whatever maps must
     * still be a valid schedule and allocation */
    int need = f.m.used[MAP_REG_RD];
    release(&f);
    for (int rd = need - 1; full && rd >= 1; rd--) {
      arch_config b = a;
      char name[300];
      b.rd = rd;
      snprintf(name, sizeof name, "%s with pe.rd = %d", BENCH[i], rd);
      build(&f, path, NULL, &b);
      if (f.st == MAP_OK) {
        TEST_CHECK(f.m.used[MAP_REG_RD] <= rd, "%s: maps with rd %d", name, f.m.used[MAP_REG_RD]);
        check_entries(name, &f.m);
        check_schedule(name, &f.m);
        check_rd_sim(name, &f.m);
      } else {
        TEST_CHECK(f.st == MAP_ERR_NOFIT && strstr(f.msg, "registers rd: needs"), "%s: does not fit, rd named (%s)",
                   name, f.msg);
        release(&f);
        break; /* fewer rds fit no better; a failing search costs seconds */
      }
      release(&f);
    }
  }
}

static const char *CHAIN = /* t, u never live together (one ALU, II 3) */
    "program chain(N) { in int32 a[N]; out int32 y[N];\n"
    " par (0 <= i < N) { t[i] = a[i] + 1; u[i] = t[i] + 2; y[i] = u[i] + 3; } }\n";
static const char *PAIR = /* t is live while u is written */
    "program pair(N) { in int32 a[N]; out int32 y[N];\n"
    " par (0 <= i < N) { t[i] = a[i] + 1; u[i] = a[i] + 2; y[i] = t[i] + u[i]; } }\n";

static const char *EXCL = /* t and u: same cycles, exclusive conditions */
    "program excl(N) { in int32 a[N]; out int32 y[N];\n"
    " par (0 <= i < N) { t[i] = a[i] + 1 if (i == 0); u[i] = a[i] - 2 if (i >= 1);\n"
    " y[i] = t[i] + 3 if (i == 0); y[i] = u[i] + 4 if (i >= 1); } }\n";
static const char *OVERL = /* the same with intersecting conditions */
    "program overl(N) { in int32 a[N]; out int32 y[N];\n"
    " par (0 <= i < N) { t[i] = a[i] + 1 if (i <= 1); u[i] = a[i] - 2 if (i >= 1);\n"
    " y[i] = t[i] + 3 if (i == 0); y[i] = t[i] + u[i] if (i == 1); y[i] = u[i] + 4 if (i >= 2); } }\n";

/* Values of exclusive conditions share an rd (the rule of
 * map_regs_op_conflict): name, text, rds expected (2 before the rule). */
static const struct {
  const char *name, *text;
  int rd;
} EXCL_TABLE[] = {{"excl", NULL, 1}, {"overl", NULL, 2}};

/* The table of condition sharing on one ALU (tau of t and u differ by one
 * cycle, both held in the same iteration cycles otherwise). */
static void test_excl(void) {
  arch_config a = arch_config_default();
  a.alu = 1;
  a.banks = a.ports = 16;
  for (size_t i = 0; i < sizeof EXCL_TABLE / sizeof *EXCL_TABLE; i++) {
    fixture f;
    build(&f, EXCL_TABLE[i].name, i ? OVERL : EXCL, &a);
    TEST_CHECK(f.st == MAP_OK, "%s maps (%s)", EXCL_TABLE[i].name, f.msg);
    if (f.st == MAP_OK) {
      TEST_CHECK(f.m.used[MAP_REG_RD] == EXCL_TABLE[i].rd, "%s: %d rds (want %d)", EXCL_TABLE[i].name,
                 f.m.used[MAP_REG_RD], EXCL_TABLE[i].rd);
      check_rd_sim(EXCL_TABLE[i].name, &f.m);
    }
    release(&f);
  }
}

static const char *PIECES = /* a[i], b[i] read under i == 0 and i >= 1 */
    "program pieces(N) { in int32 a[N], b[N]; out int32 y[N];\n"
    " par (0 <= i < N) { y[i] = a[i] * b[i] + a[i] if (i == 0); y[i] = a[i] - b[i] if (i >= 1); } }\n";

/* Input pieces (map_tile_input_copies): with 4 banks the six accesses of
 * pieces (a and b per condition piece, y per piece) did not fit (exit 3,
 * I/O banks); now each element is read once over the union of its
 * pieces: 2 ids and 4 accesses (a, b, y twice). */
static void test_pieces(void) {
  arch_config a = arch_config_default();
  a.banks = a.ports = a.id = 4;
  fixture f;
  build(&f, "pieces", PIECES, &a);
  TEST_CHECK(f.st == MAP_OK, "pieces maps with 4 banks (%s)", f.msg);
  if (f.st == MAP_OK) {
    TEST_CHECK(f.m.used[MAP_REG_ID] == 2 && f.m.naccess == 4, "pieces: 2 ids (%d) and 4 accesses (%d)",
               f.m.used[MAP_REG_ID], f.m.naccess);
    check_rd_sim("pieces", &f.m);
  }
  release(&f);
}

static const char *FIRSTPE = /* bias at i == 0 only: on the first PE */
    "program firstpe(N) { in int32 a[N], bias; out int32 r;\n"
    " par (0 <= i < N) { s[i] = bias + a[i] if (i == 0); s[i] = s[i-1] + a[i] if (i >= 1);\n"
    " r = s[i] if (i == N-1); } }\n";

/* An input of the first PE shares a channel's id (map_regs_share_first):
 * a, bias and the channel of s would need 3 ids; bias reads the channel's
 * id wherever it is free (so the first PE runs the others' words, not
 * only when ids run out: pe.id = 2 and 3 alike), its access is on the
 * channel (map_access_on_channel) and takes no bank of the region's side
 * (2 banks for a and r). */
static void test_first_pe(void) {
  arch_config a = arch_config_default();
  for (int id = 2; id <= 3; id++) {
    a.id = id;
    a.banks = a.ports = 4;
    fixture f;
    build(&f, "firstpe", FIRSTPE, &a);
    TEST_CHECK(f.st == MAP_OK, "firstpe maps with pe.id = %d (%s)", id, f.msg);
    if (f.st == MAP_OK) {
      int on = 0;
      for (int x = 0; x < f.m.naccess; x++) on += map_access_on_channel(&f.m, x) >= 0;
      TEST_CHECK(f.m.used[MAP_REG_ID] == 2 && on == 1,
                 "firstpe, pe.id = %d: %d ids, %d inputs on a channel's id (want 2, 1)", id,
                 f.m.used[MAP_REG_ID], on);
      check_rd_sim("firstpe", &f.m);
    }
    release(&f);
  }
}

static const char *PROP = /* x[j] propagated along i */
    "program prop(N, M) { in int32 x[M]; out int32 y[N, M];\n"
    " par (0 <= i < N, 0 <= j < M) { w[i,j] = x[j] if (i == 0); w[i,j] = w[i-1,j] if (i >= 1);\n"
    " y[i,j] = w[i,j] + 1; } }\n";

/* Propagated inputs read again (map_reread.c): prop's w costs an fd and a
 * channel; with pe.fd = 0 it maps only with x read in every iteration (no
 * fd, no route); `--disable reread` keeps the message of the program as
 * written. */
static void test_reread(void) {
  arch_config a = arch_config_default();
  a.fd = 0;
  fixture f;
  build(&f, "prop", PROP, &a);
  TEST_CHECK(f.st == MAP_OK && f.m.reread && f.m.reread->nvars == 1,
             "prop with pe.fd = 0 maps with one variable read again (%s)", f.msg);
  if (f.st == MAP_OK) {
    TEST_CHECK(f.m.used[MAP_REG_FD] == 0 && f.m.nroutes == 0, "prop: %d fds, %d routes (want 0, 0)",
               f.m.used[MAP_REG_FD], f.m.nroutes);
    check_rd_sim("prop", &f.m);
  }
  release(&f);
  map_opts no_reread = {.off = MAP_OFF_REREAD};
  build_opts(&f, "prop", PROP, &a, &no_reread);
  TEST_CHECK(f.st == MAP_ERR_NOFIT && strstr(f.msg, "fd: needs 1, pe.fd = 0"),
             "prop with --disable reread: does not fit, fd 1/0 (%s)", f.msg);
  release(&f);
  a.fd = 4;
  build(&f, "prop", PROP, &a);
  TEST_CHECK(f.st == MAP_OK && !f.m.reread && f.m.used[MAP_REG_FD] == 1,
             "prop with pe.fd = 4: maps as written, one fd (%s)", f.msg);
  release(&f);
}

static const char *DIAG = /* u: a chain along (1,1) from two roots */
    "program diag(N, M) { in int32 x[N]; out int32 y[N, M];\n"
    " par (0 <= i < N, 0 <= j < M) { u[i,j] = x[i] if (j == 0); u[i,j] = 0 if (i == 0 and j >= 1);\n"
    " u[i,j] = u[i-1,j-1] if (i >= 1 and j >= 1); y[i,j] = u[i,j] + 1; } }\n";

/* Returns 1 when programs p and q (the same arrays) compute the same
 * outputs for parameters (n, m) from the same inputs. */
static int same_outputs(const ast_program *p, const ast_program *q, int64_t n, int64_t m) {
  int64_t par[AST_MAX_PARAMS] = {n, m};
  interp_array a[8], b[8];
  if (p->narrays > 8 || interp_arrays_init(p, par, a)) return 0;
  if (interp_arrays_init(q, par, b)) {
    interp_arrays_free(p, a);
    return 0;
  }
  for (int k = 0; k < p->narrays; k++)
    for (size_t e = 0; e < a[k].n; e++) a[k].data[e] = b[k].data[e] = (int32_t)(7 * e + 3 * k + 1);
  int same = !interp_program_run(p, par, a, NULL) && !interp_program_run(q, par, b, NULL);
  for (int k = 0; k < p->narrays && same; k++)
    same = !memcmp(a[k].data, b[k].data, a[k].n * sizeof *a[k].data);
  interp_arrays_free(p, a);
  interp_arrays_free(q, b);
  return same;
}

/* Chains read again (map_reread.c): diag's u costs an fd (and a channel
 * when i crosses PEs); with pe.fd = 0 it maps only with u = x[i-j] where
 * i >= j and 0 elsewhere, read in every iteration: no fd, no route. The
 * rewritten program computes what diag computes (several sizes, N < M and
 * N > M); with `--disable reread`, or with the fds it needs, nothing is
 * rewritten. */
static void test_chain(void) {
  arch_config a = arch_config_default();
  a.fd = 0;
  fixture f;
  build(&f, "diag", DIAG, &a);
  TEST_CHECK(f.st == MAP_OK && f.m.reread && f.m.reread->nchains == 1,
             "diag with pe.fd = 0 maps with one chain read again (%s)", f.msg);
  if (f.st == MAP_OK && f.m.reread) {
    TEST_CHECK(f.m.used[MAP_REG_FD] == 0 && f.m.nroutes == 0, "diag: %d fds, %d routes (want 0, 0)",
               f.m.used[MAP_REG_FD], f.m.nroutes);
    const int64_t sizes[][2] = {{1, 1}, {3, 5}, {5, 3}, {4, 4}, {6, 2}};
    for (int k = 0; k < 5; k++)
      TEST_CHECK(same_outputs(f.p, &f.m.reread->prog, sizes[k][0], sizes[k][1]),
                 "diag N=%d M=%d: the chain read again computes the same y", (int)sizes[k][0], (int)sizes[k][1]);
    check_rd_sim("diag", &f.m);
  }
  release(&f);
  map_opts no_reread = {.off = MAP_OFF_REREAD};
  build_opts(&f, "diag", DIAG, &a, &no_reread);
  TEST_CHECK(f.st == MAP_ERR_NOFIT && strstr(f.msg, "fd: needs"),
             "diag with --disable reread: does not fit for lack of fds (%s)", f.msg);
  release(&f);
  a.fd = 4;
  build(&f, "diag", DIAG, &a);
  TEST_CHECK(f.st == MAP_OK && !f.m.reread && f.m.used[MAP_REG_FD] >= 1,
             "diag with pe.fd = 4: maps as written, with an fd (%s)", f.msg);
  release(&f);
}

static const char *EPROP = /* x[j] & 3 propagated along i */
    "program eprop(N, M) { in int32 x[M]; out int32 y[N, M];\n"
    " par (0 <= i < N, 0 <= j < M) { w[i,j] = x[j] & 3 if (i == 0); w[i,j] = w[i-1,j] if (i >= 1);\n"
    " y[i,j] = w[i,j] + 1; } }\n";

/* A root that is an expression of inputs (map_reread.c, with chains):
 * eprop's w = x[j] & 3 propagated along i costs an fd; with pe.fd = 0 it
 * maps only with w computed again in every iteration (no fd, no route),
 * and the rewritten program computes what eprop computes. */
static void test_expr_root(void) {
  arch_config a = arch_config_default();
  a.fd = 0;
  fixture f;
  build(&f, "eprop", EPROP, &a);
  TEST_CHECK(f.st == MAP_OK && f.m.reread && f.m.reread->nexpr_roots == 1,
             "eprop with pe.fd = 0 maps with one expression root computed again (%s)", f.msg);
  if (f.st == MAP_OK && f.m.reread) {
    TEST_CHECK(f.m.used[MAP_REG_FD] == 0 && f.m.nroutes == 0, "eprop: %d fds, %d routes (want 0, 0)",
               f.m.used[MAP_REG_FD], f.m.nroutes);
    TEST_CHECK(same_outputs(f.p, &f.m.reread->prog, 4, 3), "eprop N=4 M=3: the same y");
    check_rd_sim("eprop", &f.m);
  }
  release(&f);
}

/* II raised for rd (map.c): editdist on configs/default.ini runs out of
 * rds at II 7 on every level; at II 8 pressure relief fits it in 4. */
static void test_ii_bump(void) {
  arch_config a;
  fixture f;
  if (arch_config_load("configs/default.ini", &a)) {
    TEST_CHECK(0, "configs/default.ini loads");
    return;
  }
  build(&f, "regress/programs/editdist.pla", NULL, &a);
  TEST_CHECK(f.st == MAP_OK && f.m.ii_bump > 0 && f.m.used[MAP_REG_RD] <= 4,
             "editdist on default.ini: maps at an II raised for rd (II %d, bump %d, rd %d; %s)", f.m.ii,
             f.m.ii_bump, f.m.used[MAP_REG_RD], f.msg);
  if (f.st == MAP_OK) check_rd_sim("editdist-bump", &f.m);
  release(&f);
}

/* Joined channels (map_regs.c): editdist's D crosses to the next PE along
 * (1,0) for two consumers in disjoint iterations (D[i-1,j] + 1 at j = 0
 * and inside the min at j >= 1); with pe.id = pe.od = 5 (6 each with a
 * channel per consumer) it maps with one channel serving both. */
static void test_join(void) {
  arch_config a = arch_config_default();
  a.rd = a.fd = 8;
  a.id = a.od = 5;
  a.imem = 128;
  fixture f;
  build(&f, "regress/programs/editdist.pla", NULL, &a);
  TEST_CHECK(f.st == MAP_OK, "editdist with pe.id = pe.od = 5 maps (%s)", f.msg);
  if (f.st == MAP_OK) {
    TEST_CHECK(f.m.used[MAP_REG_ID] <= 5 && f.m.used[MAP_REG_OD] <= 5, "editdist: id %d, od %d (want <= 5)",
               f.m.used[MAP_REG_ID], f.m.used[MAP_REG_OD]);
    int joined = 0;
    for (int e = 0; e < f.m.nedges; e++)
      for (int g = e + 1; g < f.m.nedges; g++) {
        const map_edge *x = &f.m.edges[e], *y = &f.m.edges[g];
        joined += x->kind == MAP_EDGE_DEP && y->kind == MAP_EDGE_DEP && map_edge_cross(x) && x->group == y->group &&
                  x->dst != y->dst;
      }
    TEST_CHECK(joined > 0, "editdist: a channel id read by two consumers (%d pairs)", joined);
    check_rd_sim("editdist-join", &f.m);
  }
  release(&f);
}

/* Returns the number of ods read through two or more ids (a token stream
 * fanned out, map_regs.c), and in *gathered the pairs of channel edges of
 * different consumers reading one id. */
static int fanned_out(const map_config *m, int *gathered) {
  int n = 0;
  *gathered = 0;
  for (int r = 0; r < m->nregs; r++) {
    if (m->regs[r].reg.cls != MAP_REG_OD) continue;
    int first = -1, more = 0;
    for (int e = 0; e < m->nedges; e++) {
      const map_edge *x = &m->edges[e];
      if (x->kind != MAP_EDGE_DEP || !map_edge_cross(x) || x->wreg.idx != m->regs[r].reg.idx) continue;
      if (first < 0) first = x->rreg.idx;
      else more |= x->rreg.idx != first;
    }
    n += more;
  }
  for (int e = 0; e < m->nedges; e++)
    for (int g = e + 1; g < m->nedges; g++) {
      const map_edge *x = &m->edges[e], *y = &m->edges[g];
      *gathered += x->kind == MAP_EDGE_DEP && y->kind == MAP_EDGE_DEP && map_edge_cross(x) && map_edge_cross(y) &&
                   x->rreg.cls == MAP_REG_ID && x->group == y->group && x->dst != y->dst;
    }
  return n;
}

/* One token stream per (value, d, direction) (map_regs.c, map_sched.c):
 * gcd and jacobi on a 2-D region of configs/big1d.ini (pe.id = pe.od = 8)
 * needed id 10, od 9 and id 9, od 9 with a channel per consumer operand;
 * gcd's q and p now go east on one od each, fanned out to an id per
 * reading cycle, and jacobi's boundary copy and sum read u[t-1,i] from
 * the north through one id (the copy gathered near the sum's cycle). */
static void test_stream(void) {
  arch_config a;
  if (arch_config_load("configs/big1d.ini", &a)) {
    TEST_CHECK(0, "configs/big1d.ini loads");
    return;
  }
  static const char *const progs[] = {"gcd", "jacobi"};
  for (int i = 0; i < 2; i++) {
    char path[128];
    snprintf(path, sizeof path, "regress/programs/%s.pla", progs[i]);
    fixture f;
    memset(&f, 0, sizeof f);
    f.p = parse_file(path);
    f.g = f.p ? rdg_build(f.p) : NULL;
    f.st = f.g ? map_build_2d(f.p, f.g, &a, 0, 1, &f.m, f.msg, sizeof f.msg) : -1;
    TEST_CHECK(f.st == MAP_OK, "%s on a 2-D region of big1d.ini maps (%s)", progs[i], f.msg);
    if (f.st == MAP_OK) {
      TEST_CHECK(f.m.used[MAP_REG_ID] <= a.id && f.m.used[MAP_REG_OD] <= a.od, "%s: id %d, od %d (<= %d, %d)",
                 progs[i], f.m.used[MAP_REG_ID], f.m.used[MAP_REG_OD], a.id, a.od);
      int gathered, fan = fanned_out(&f.m, &gathered);
      if (i == 0) TEST_CHECK(fan == 2, "gcd: p and q each on one od read through two ids (%d ods fanned out)", fan);
      else TEST_CHECK(gathered > 0, "jacobi: one id read by two consumers (%d pairs)", gathered);
      check_entries(progs[i], &f.m);
      check_schedule(progs[i], &f.m);
    }
    release(&f);
  }
}

/* Known answers on one ALU. */
static void test_small(void) {
  arch_config a = arch_config_default();
  a.alu = 1;
  fixture f;
  build(&f, "chain", CHAIN, &a);
  TEST_CHECK(f.st == MAP_OK && f.m.ii == 3, "chain maps at II 3 (%s)", f.msg);
  if (f.st == MAP_OK) {
    TEST_CHECK(f.m.used[MAP_REG_RD] == 1, "chain: t and u share one rd (used %d)", f.m.used[MAP_REG_RD]);
    check_rd_sim("chain", &f.m);
  }
  release(&f);
  build(&f, "pair", PAIR, &a);
  TEST_CHECK(f.st == MAP_OK, "pair maps (%s)", f.msg);
  if (f.st == MAP_OK) {
    TEST_CHECK(f.m.used[MAP_REG_RD] == 2, "pair: t and u live together need two rds (used %d)", f.m.used[MAP_REG_RD]);
    check_rd_sim("pair", &f.m);
  }
  release(&f);
  a.rd = 1;
  build(&f, "pair", PAIR, &a);
  TEST_CHECK(f.st == MAP_ERR_NOFIT && strstr(f.msg, "registers rd: needs 2, pe.rd = 1"),
             "pair with pe.rd = 1: does not fit, needs 2 (%s)", f.msg);
  release(&f);
}

int main(void) {
  test_small();
  test_excl();
  test_pieces();
  test_first_pe();
  test_reread();
  test_chain();
  test_join();
  test_stream();
  test_expr_root();
  test_ii_bump();
  test_table();
  test_large();
  return test_done();
}
