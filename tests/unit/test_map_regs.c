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
 *  - sharing happens: band needs fewer rds than it has rd values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch.h"
#include "cli.h"
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
static void build(fixture *f, const char *name, const char *text, const arch_config *a) {
  memset(f, 0, sizeof *f);
  f->p = text ? parse_string(name, text) : parse_file(name);
  if (!f->p) { f->st = -1; return; }
  f->g = rdg_build(f->p);
  f->st = f->g ? map_build(f->p, f->g, a, 0, 0, &f->m, f->msg, sizeof f->msg) : -1;
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

#define SIM_ITERS 8 /* iterations whose reads are checked */
#define SIM_MORE 6  /* later iterations that may still write */

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

/* The brute-force check of the rd allocation of m (see the top). */
static void check_rd_sim(const char *name, const map_config *m) {
  int ii = m->ii, bad_bind = 0, overlap = 0, wrong = 0, reads = 0;
  /* every rd read names the register its producer writes */
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (reads_rd(x) && (m->ops[x->src].dst.cls != MAP_REG_RD || m->ops[x->src].dst.idx != x->rreg.idx)) bad_bind++;
  }
  TEST_CHECK(!bad_bind, "%s: every rd read is of the register its producer writes (%d not)", name, bad_bind);
  /* live instances of every rd producer over SIM_ITERS + SIM_MORE iterations */
  int cap = (SIM_ITERS + SIM_MORE) * (m->nops + 1), n = 0;
  live *L = calloc((size_t)cap, sizeof *L);
  if (!L) return;
  for (int j = 0; j < SIM_ITERS + SIM_MORE; j++)
    for (int o = 0; o < m->nops; o++) {
      if (m->ops[o].dst.cls != MAP_REG_RD) continue;
      long from = (long)j * ii + m->ops[o].tau + m->ops[o].lat, to = from;
      for (int e = 0; e < m->nedges; e++) {
        const map_edge *x = &m->edges[e];
        if (reads_rd(x) && x->src == o && (long)j * ii + m->ops[x->dst].tau > to) to = (long)j * ii + m->ops[x->dst].tau;
      }
      L[n++] = (live){o, j, reg_of(m, o, j), from, to};
    }
  /* no register holds two live values in one cycle (the producers of one
   * variable are never active in the same iteration) */
  for (int a = 0; a < n; a++)
    for (int b = a + 1; b < n; b++) {
      if (L[a].reg != L[b].reg || L[a].to < L[b].from || L[b].to < L[a].from) continue;
      if (L[a].j == L[b].j && m->ops[L[a].op].var == m->ops[L[b].op].var) continue;
      if (overlap++ < 3)
        printf("# %s: rd%d holds op %d (iteration %d, cycles %ld..%ld) and op %d (iteration %d, %ld..%ld)\n", name,
               L[a].reg, L[a].op, L[a].j, L[a].from, L[a].to, L[b].op, L[b].j, L[b].from, L[b].to);
    }
  /* every read of iterations 0..SIM_ITERS-1 sees its producer's write:
   * the last write to the register readable by the read's cycle */
  for (int j = 0; j < SIM_ITERS; j++)
    for (int e = 0; e < m->nedges; e++) {
      const map_edge *x = &m->edges[e];
      if (!reads_rd(x)) continue;
      long t = (long)j * ii + m->ops[x->dst].tau;
      int reg = reg_of(m, x->src, j), last = -1;
      for (int w = 0; w < n; w++)
        if (L[w].reg == reg && L[w].from <= t && (last < 0 || L[w].from > L[last].from ||
                                                  (L[w].from == L[last].from && L[w].op == x->src)))
          last = w;
      reads++;
      if (last < 0 || L[last].j != j || m->ops[L[last].op].var != m->ops[x->src].var) wrong++;
    }
  free(L);
  TEST_CHECK(!overlap, "%s: over %d iterations no rd holds two live values in one cycle (%d clashes)", name,
             SIM_ITERS + SIM_MORE, overlap);
  TEST_CHECK(reads > 0 || !m->used[MAP_REG_RD], "%s: rd reads simulated", name);
  TEST_CHECK(!wrong, "%s: each of %d rd reads sees its own producer and iteration (%d do not)", name, reads, wrong);
}

/* The modulo schedule is still valid (allocation may move ops to lower
 * the pressure): every intra-PE dependence holds at its smallest distance,
 * no FU slot is used twice, channels satisfy lambda^K, offsets >= 0. */
static void check_schedule(const char *name, const map_config *m) {
  int bad = 0;
  for (int e = 0; e < m->nedges; e++) {
    const map_edge *x = &m->edges[e];
    if (x->kind != MAP_EDGE_DEP) continue;
    int64_t need = map_edge_latency(m, x) - (int64_t)m->ii * map_seq_dist_lb(m, x->d);
    int64_t have = m->ops[x->dst].tau - m->ops[x->src].tau;
    if (!x->theta && have < need) bad++;
    if (x->theta > 0 && m->lk_p && m->lk_c < need - have) bad++;
  }
  for (int a = 0; a < m->nops; a++) {
    if (m->ops[a].tau < 0) bad++;
    for (int b = a + 1; b < m->nops; b++)
      if (m->ops[a].fu == m->ops[b].fu && m->ops[a].tau % m->ii == m->ops[b].tau % m->ii) bad++;
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
    {"band", "registers rd: needs", "registers rd: needs"},
    {"bitextract", NULL, NULL},
    {"conv", "registers fd: needs 6, pe.fd = 4", "loop dimensions"},
    {"dotprod", "registers id: needs", "registers rd: needs"},
    {"editdist", "registers rd: needs", "registers rd: needs"},
    {"fir", NULL, "registers rd: needs"},
    {"gcd", "pe.div = 0", "registers rd: needs"},
    {"jacobi", "pe.div = 0", "registers fd: needs 3, pe.fd = 2"},
    {"matmul", NULL, "registers rd: needs"},
    {"maxpool", "registers rd: needs", "registers rd: needs"},
    {"satarith", "registers rd: needs 6, pe.rd = 4", "registers rd: needs"},
    {"trimv", NULL, "registers id: needs 4, pe.id = 3"},
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

/* The table on configs/default.ini and configs/wide.ini. */
static void test_table(void) {
  const char *inis[2] = {"configs/default.ini", "configs/wide.ini"};
  for (int c = 0; c < 2; c++) {
    arch_config a;
    if (arch_config_load(inis[c], &a)) { TEST_CHECK(0, "%s loads", inis[c]); continue; }
    int fits = 0;
    for (size_t i = 0; i < sizeof TABLE / sizeof *TABLE; i++) {
      const char *want = c ? TABLE[i].wide : TABLE[i].def;
      char path[256], name[300];
      snprintf(path, sizeof path, "regress/programs/%s.pla", TABLE[i].prog);
      snprintf(name, sizeof name, "%s on %s", TABLE[i].prog, inis[c]);
      fixture f;
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
      int st = cli_status(TABLE[i].prog, inis[c]);
      if (st >= 0)
        TEST_CHECK(st == (want ? CLI_EXIT_NOFIT : CLI_EXIT_OK), "%s: tcpa compile exits %d (want %d)", name, st,
                   want ? CLI_EXIT_NOFIT : CLI_EXIT_OK);
      release(&f);
    }
    printf("# %s: %d of %zu benchmarks map\n", inis[c], fits, sizeof TABLE / sizeof *TABLE);
  }
}

/* Every benchmark on a large architecture: the allocation checked by
 * brute force, and no more rds than values. */
static void test_large(void) {
  arch_config a = arch_config_default();
  a.rd = a.fd = a.id = 32;
  a.od = 8;
  a.div = 1;
  a.banks = a.ports = 16;
  for (int i = 0; i < NBENCH; i++) {
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
    for (int rd = need - 1; rd >= 1; rd--) {
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
  test_table();
  test_large();
  return test_done();
}
