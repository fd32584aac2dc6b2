/* covers: docs/symbolic.md "What each step computes", "What fits",
 *   "Re-reading propagated inputs" */
/*
 * test_map_route.c: channels, accesses and I/O sides of the symbolic
 * mapper (map_route.c, map_access.c; docs/symbolic.md "What each step
 * computes"): the running example's registers and its channel eastward
 * (Figure 3); a 2-D matmul's inputs read on the ids of the channels from
 * the west and the north; 1-D accesses spread over several border sides
 * when one side's banks do not suffice; and the padded accumulation
 * (map_reread_pad) giving trimv's output one producer and one access.
 */
#include <string.h>

#include "map_fixture.h"
#include "test.h"

/* The running example: registers of Figure 3 (rd0 for x, fd0 for y
 * inside a PE, an od/id pair for y across PEs, an id for v, an od for
 * bits), and the channel eastward. */
static void test_running_example(void) {
  fixture f;
  build(&f, "regress/programs/bitextract.pla", NULL, arch_config_default(), 0);
  TEST_CHECK(f.st == MAP_OK, "bitextract maps");
  if (f.st != MAP_OK) { release(&f); return; }
  TEST_CHECK(f.m.used[MAP_REG_RD] == 1, "bitextract: one rd (x), got %d", f.m.used[MAP_REG_RD]);
  TEST_CHECK(f.m.used[MAP_REG_FD] == 1, "bitextract: one fd (y, d = 1), got %d", f.m.used[MAP_REG_FD]);
  TEST_CHECK(f.m.used[MAP_REG_ID] == 1 && f.m.used[MAP_REG_OD] == 2,
             "bitextract: id 1 (v on the channel's id, read on the first PE only), od 2 (channel, bits), got id %d",
             f.m.used[MAP_REG_ID]);
  int fd_ok = 0;
  for (int r = 0; r < f.m.nregs; r++)
    if (f.m.regs[r].reg.cls == MAP_REG_FD) fd_ok = f.m.regs[r].depth_lb == 1 && f.m.regs[r].extra == 0;
  TEST_CHECK(fd_ok, "bitextract: fd0 depth lambda^J d / pi = 1");
  TEST_CHECK(f.m.nroutes == 1 && f.m.routes[0].out_side[0] == 'E' && f.m.routes[0].in_side[0] == 'W' &&
                 f.m.routes[0].delta[0] == 1,
             "bitextract: one channel east -> west, delta 1");
  TEST_CHECK(f.m.lk_p[0] == 1 && f.m.order[0] == 0, "bitextract: lambda^K = pi*p + c");
  TEST_CHECK(f.m.naccess == 2, "bitextract: access mappings for v and bits");
  release(&f);
}

/* 2-D matmul (i rows, j columns): A, read only at j = 0 (the region's first
 * column), takes the id of a's channel from the west (theta (0,1)); B, read
 * only at i = 0 (the first row), the id of b's channel from the north
 * (theta (1,0)); map_access_on_channel names those routes, so the ids are
 * the two channels' and no more. */
static void test_2d_first_inputs(void) {
  fixture f;
  memset(&f, 0, sizeof f);
  arch_config a = arch_config_default();
  f.p = parse_file("regress/programs/matmul.pla");
  f.g = rdg_build(f.p);
  f.st = map_build_2d(f.p, f.g, &a, 0, 1, &f.m, f.msg, sizeof f.msg);
  TEST_CHECK(f.st == MAP_OK, "matmul maps 2-D (%s)", f.msg);
  if (f.st != MAP_OK) { release(&f); return; }
  int seen = 0;
  for (int i = 0; i < f.m.naccess; i++) {
    const map_access *ac = &f.m.access[i];
    if (ac->is_out) continue;
    const char *name = f.m.array_name[ac->array];
    int r = map_access_on_channel(&f.m, i);
    char want = !strcmp(name, "A") ? 'W' : 'N';
    TEST_CHECK(r >= 0 && f.m.routes[r].in_side[0] == want && f.m.routes[r].hops == 1 &&
                   f.m.routes[r].id.idx == ac->reg.idx,
               "matmul 2-D: %s on the id of the channel from the %s (route %d)", name, want == 'W' ? "west" : "north", r);
    seen++;
  }
  TEST_CHECK(seen == 2, "matmul 2-D: two inputs (got %d)", seen);
  TEST_CHECK(f.m.used[MAP_REG_ID] == 2, "matmul 2-D: id 2 (the channels'; A and B share them), got %d",
             f.m.used[MAP_REG_ID]);
  release(&f);
}

/* 1-D accesses over several border sides (map.c's second pass,
 * map_access.c): a mapping that fits one side's banks is the one of before
 * (spread_io 0); one that needs more maps with spread_io 1 within the
 * sides one PE can have, and beyond them the message says so. */
static void test_io_sides(void) {
  struct { const char *prog; int rows, banks, st, spread; const char *want; } cases[] = {
      {"regress/programs/dotprod.pla", 4, 4, MAP_OK, 0, NULL},
      {"regress/programs/dotprod.pla", 4, 2, MAP_OK, 1, NULL},
      {"regress/programs/trimv.pla", 4, 2, MAP_OK, 1, NULL},
      {"regress/programs/trimv.pla", 4, 1, MAP_ERR_NOFIT, 0, "at most 2 border sides x iobuf.banks 1 = 2"},
      {"regress/programs/trimv.pla", 1, 1, MAP_OK, 1, NULL}, /* one row: north and south too */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    arch_config a = arch_config_default();
    a.rows = cases[i].rows;
    a.banks = cases[i].banks;
    fixture f;
    build(&f, cases[i].prog, NULL, a, 0);
    TEST_CHECK(f.st == cases[i].st && (f.st || f.m.spread_io == cases[i].spread) &&
                   (!cases[i].want || strstr(f.msg, cases[i].want)),
               "%s on %d rows, banks %d: status %d (want %d), spread_io %d (want %d): %s", cases[i].prog,
               cases[i].rows, cases[i].banks, f.st, cases[i].st, f.m.spread_io, cases[i].spread, f.msg);
    release(&f);
  }
}

/* Returns the output accesses of m. */
static int out_accesses(const map_config *m) {
  int n = 0;
  for (int a = 0; a < m->naccess; a++) n += m->access[a].is_out;
  return n;
}

/* map_reread_pad: trimv's s = L * v (j == 0) becomes s = 0 + L * v, one
 * add with the accumulation s = s' + L * v; mapped with map_opts.pad the
 * output y has one producer, one od and one access (two without); a
 * program without an accumulation has nothing to pad. */
static void test_pad(void) {
  arch_config a = arch_config_default();
  fixture f;
  build(&f, "regress/programs/trimv.pla", NULL, a, 0);
  TEST_CHECK(f.st == MAP_OK && out_accesses(&f.m) == 2, "trimv unpadded: y has 2 output accesses (%d)",
             out_accesses(&f.m));
  map_reread *r = map_reread_pad(f.p);
  TEST_CHECK(r && r->nvars == 1, "trimv: one equation padded (%d)", r ? r->nvars : -1);
  int found = 0;
  for (int e = 0; r && e < r->prog.neqs; e++) {
    const ast_expr *x = r->prog.eqs[e].rhs;
    if (x != f.p->eqs[e].rhs)
      found += x->kind == AST_EXPR_OP && x->op == AST_OP_ADD && x->arg[0]->kind == AST_EXPR_CONST &&
               x->arg[0]->value == 0 && x->arg[1] == f.p->eqs[e].rhs && x->arg[1]->op == AST_OP_MUL;
  }
  TEST_CHECK(found == 1, "trimv: s = L * v rewritten as 0 + L * v (%d)", found);
  map_reread_free(r);
  map_config m;
  char msg[512];
  map_opts o = {.pad = 1};
  int st = map_build_opts(f.p, f.g, &a, 0, 0, -1, &o, &m, msg, sizeof msg);
  TEST_CHECK(st == MAP_OK && m.reread && out_accesses(&m) == 1, "trimv padded: y has 1 output access (st %d, %d: %s)",
             st, st == MAP_OK ? out_accesses(&m) : -1, msg);
  if (st == MAP_OK) map_config_free(&m);
  release(&f);
  build(&f, "regress/programs/bitextract.pla", NULL, a, 0);
  r = map_reread_pad(f.p);
  TEST_CHECK(!r, "bitextract: no accumulation to pad");
  map_reread_free(r);
  st = map_build_opts(f.p, f.g, &a, 0, 0, -1, &o, &m, msg, sizeof msg);
  TEST_CHECK(st == MAP_ERR_NOFIT, "bitextract with pad: does not fit, nothing to pad (%d: %s)", st, msg);
  map_config_free(&m);
  release(&f);
}

int main(void) {
  test_running_example();
  test_2d_first_inputs();
  test_io_sides();
  test_pad();
  return test_done();
}
