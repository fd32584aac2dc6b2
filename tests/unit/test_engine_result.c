/* covers: docs/user-guide.md "tcpa run", "summary.json" */
/*
 * test_engine_result.c: the outputs of an engine run (tb/engine_result.c and
 * regress/engine_compare.c,
 * docs/user-guide.md "Output files"): engine_outputs_gather reads each
 * placed element from the banks and marks it seen (an element without a
 * placement, or whose bank word cannot be read, stays unseen) and sets
 * `gathered`; engine_outputs_compare counts an unseen element as differing;
 * engine_result_outputs_move hands the outputs of one result to another
 * (the RTL rerun after a cosim divergence); engine_outputs_depth gives the
 * bank words a harness must dump for the gather. Table-driven: a program with
 * one 2x3 output, placements and bank words per row.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_flow.h"
#include "interp.h"
#include "parse.h"
#include "test.h"

#define T_N 6 /* elements of C[2, 3] */

/* The bank of the test: word addr holds 100 + addr; addr 99 cannot be read. */
static int t_bank(void *ctx, int row, int col, int side, int bank, uint32_t addr, uint32_t *v) {
  (void)ctx, (void)row, (void)col, (void)side, (void)bank;
  if (addr == 99) return -1;
  *v = 100 + addr;
  return 0;
}

typedef struct {
  const char *name;
  int nplace;                 /* placements of elements 0..nplace-1 */
  uint32_t addr[T_N];         /* each one's bank address */
  int32_t ref[T_N];           /* the reference's values */
  unsigned char seen[T_N];    /* expected */
  size_t differing;           /* expected from engine_outputs_compare */
  uint32_t depth;             /* expected from engine_outputs_depth */
} t_case;

static const t_case t_cases[] = {
    {"every element placed, equal to the reference", 6, {0, 1, 2, 3, 4, 5},
     {100, 101, 102, 103, 104, 105}, {1, 1, 1, 1, 1, 1}, 0, 6},
    {"one value wrong", 6, {0, 1, 2, 3, 4, 5}, {100, 101, 102, 103, 7, 105}, {1, 1, 1, 1, 1, 1}, 1, 6},
    {"two elements without a placement: unseen, differing", 4, {0, 1, 2, 3},
     {100, 101, 102, 103, 0, 0}, {1, 1, 1, 1, 0, 0}, 2, 4},
    {"a bank word that cannot be read: unseen", 6, {0, 99, 2, 3, 4, 5},
     {100, 199, 102, 103, 104, 105}, {1, 0, 1, 1, 1, 1}, 1, 100},
    {"addresses out of order: the dump depth is the highest + 1", 6, {7, 3, 40, 0, 5, 6},
     {107, 103, 140, 100, 105, 106}, {1, 1, 1, 1, 1, 1}, 0, 41},
    {"nothing placed: every element unseen, a dump of one word", 0, {0}, {0}, {0}, 6, 1},
};

/* Returns 1 when r's outputs of array a hold exactly the case's seen flags
 * and, where seen, the bank's words. */
static int t_outputs_match(const engine_result *r, int a, const t_case *tc) {
  for (int i = 0; i < T_N; i++) {
    if (r->seen[a][i] != tc->seen[i]) return 0;
    if (tc->seen[i] && r->out[a][i] != (int32_t)(100 + tc->addr[i])) return 0;
  }
  return 1;
}

int main(void) {
  ast_program *p = parse_string("t.pla", "program t(N) {\n  in int32 x[N];\n  out int32 C[2, 3];\n"
                                         "  par (0 <= i < 2, 0 <= j < 3) {\n    C[i,j] = x[0];\n  }\n}\n");
  int64_t params[1] = {1};
  interp_array *ref = calloc(4, sizeof *ref);
  if (!TEST_CHECK(p && ref && interp_arrays_init(p, params, ref) == 0, "the test program parses")) return test_done();
  int out = -1;
  for (int a = 0; a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_OUT) out = a;
  TEST_CHECK(out >= 0 && ref[out].n == T_N, "C has %d elements", T_N);
  for (size_t k = 0; out >= 0 && k < sizeof t_cases / sizeof *t_cases; k++) {
    const t_case *tc = &t_cases[k];
    engine_place place[T_N];
    engine_config c = {0};
    size_t out_n[4] = {0};
    out_n[out] = ref[out].n;
    c.narrays = p->narrays;
    c.out_n = out_n;
    for (int i = 0; i < tc->nplace; i++)
      place[i] = (engine_place){out, (size_t)i, 0, 0, 0, 0, tc->addr[i]};
    c.place = place;
    c.nplace = (size_t)tc->nplace;
    memcpy(ref[out].data, tc->ref, sizeof tc->ref);
    TEST_CHECK(engine_outputs_depth(&c) == tc->depth, "%s: dump depth %u (got %u)", tc->name, tc->depth,
               engine_outputs_depth(&c));
    engine_result r;
    if (!TEST_CHECK(engine_result_init(&r, &c) == 0 && !r.gathered, "%s: init, nothing gathered", tc->name))
      continue;
    engine_outputs_gather(&c, &r, t_bank, NULL);
    TEST_CHECK(r.gathered && t_outputs_match(&r, out, tc), "%s: gathered, seen and values", tc->name);
    size_t bad = engine_outputs_compare(p, ref, &r, stderr, 0);
    TEST_CHECK(bad == tc->differing, "%s: %zu differing (expected %zu)", tc->name, bad, tc->differing);
    engine_result to;
    engine_result_init(&to, &c);
    to.done = 1;
    engine_result_outputs_move(&to, &r);
    TEST_CHECK(to.gathered && to.done && t_outputs_match(&to, out, tc) && !r.out && !r.seen && !r.gathered,
               "%s: moved to another result (its own fields kept), none left behind", tc->name);
    engine_result_free(&r);
    engine_result_free(&to);
  }
  interp_arrays_free(p, ref);
  free(ref);
  ast_program_free(p);
  return test_done();
}
