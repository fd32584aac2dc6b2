/* covers: docs/symbolic.md "Why it does not fit", "What fits" */
/*
 * test_fit.c: the no-fit record (compiler/map/fit.h): the message made
 * from its items (joined by "; ", then the note), fit_nofit's one-item
 * record, the lookups the mapping search uses (has, only, closest), the
 * resource names of summary.json both ways, and a full record;
 * then a table of benchmarks that do not fit a configuration, mapped
 * (map.h): the record names every resource that ran out with its key,
 * what the program needs and what the configuration has, and the message
 * printed is the record's.
 */
#include <string.h>

#include "arch.h"
#include "fit.h"
#include "map.h"
#include "parse.h"
#include "rdg.h"
#include "test.h"

typedef struct {
  const char *what;
  fit_resource res[3];
  int64_t need[3], have[3];
  fit_resource only[4]; /* fit_record_only's set */
  int only_want;
  int closest; /* index of fit_record_closest's item */
} lookup_case;

static const lookup_case cases[] = {
    {"rd alone", {FIT_RES_RD}, {5}, {4}, {FIT_RES_RD}, 1, 0},
    {"rd and id, only rd asked", {FIT_RES_RD, FIT_RES_ID}, {8, 5}, {4, 4}, {FIT_RES_RD}, 0, 1},
    {"what channels take", {FIT_RES_ID, FIT_RES_OD}, {5, 5}, {4, 3}, {FIT_RES_PORTS, FIT_RES_IO_BANKS, FIT_RES_ID, FIT_RES_OD}, 1, 0},
    {"a schedule: no counts", {FIT_RES_SCHEDULE}, {-1}, {-1}, {FIT_RES_RD}, 0, 0},
    {"sides: the closest", {FIT_RES_IO_CHANNELS, FIT_RES_IO_CHANNELS, FIT_RES_IO_CHANNELS}, {7, 4, 6}, {2, 3, 4},
     {FIT_RES_IO_CHANNELS}, 1, 1},
};

/* A benchmark that does not fit a configuration, and the record's items. */
typedef struct {
  const char *prog, *ini;
  int n;
  struct {
    fit_resource res;
    const char *key;
    int64_t need, have;
    const char *where;
  } item[2];
} mapped_case;

static const mapped_case mapped_cases[] = {
    /* two divisions, no divider: the schedule's FU check */
    {"gcd", "configs/default.ini", 1, {{FIT_RES_FU, "pe.div", 2, 0, "div"}}},
    /* two classes over their counts at once: both recorded */
    {"satarith", "configs/default.ini", 2, {{FIT_RES_RD, "pe.rd", 8, 4, ""}, {FIT_RES_ID, "pe.id", 5, 4, ""}}},
    /* wide.ini's two fds and three ods: both short */
    {"jacobi", "configs/wide.ini", 2, {{FIT_RES_FD, "pe.fd", 3, 2, ""}, {FIT_RES_OD, "pe.od", 4, 3, ""}}},
};

/* Maps each case's benchmark on its configuration (1-D, the first
 * dimension tiled) and checks the record item by item. */
static void test_mapped(void) {
  for (size_t i = 0; i < sizeof mapped_cases / sizeof *mapped_cases; i++) {
    const mapped_case *c = &mapped_cases[i];
    char path[256];
    snprintf(path, sizeof path, "regress/programs/%s.pla", c->prog);
    arch_config a;
    ast_program *p = parse_file(path);
    rdg *g = p ? rdg_build(p) : NULL;
    if (!g || arch_config_load(c->ini, &a)) {
      TEST_CHECK(0, "%s and %s load", path, c->ini);
      rdg_free(g);
      ast_program_free(p);
      continue;
    }
    map_config m;
    char msg[1024], made[1024];
    int st = map_build_opts(p, g, &a, 0, 0, -1, NULL, &m, msg, sizeof msg);
    TEST_CHECK(st == MAP_ERR_NOFIT && m.fit.n == c->n, "%s on %s: does not fit, %d items (%d, %d: %s)", c->prog,
               c->ini, c->n, st, m.fit.n, msg);
    for (int k = 0; k < c->n && k < m.fit.n; k++) {
      const fit_item *it = &m.fit.item[k];
      TEST_CHECK(it->res == c->item[k].res && !strcmp(it->key, c->item[k].key) && it->need == c->item[k].need &&
                     it->have == c->item[k].have && !strcmp(it->where, c->item[k].where),
                 "%s on %s: item %d is %s %s %lld/%lld '%s' (got %s %s %lld/%lld '%s')", c->prog, c->ini, k,
                 fit_resource_name(c->item[k].res), c->item[k].key, (long long)c->item[k].need,
                 (long long)c->item[k].have, c->item[k].where, fit_resource_name(it->res), it->key,
                 (long long)it->need, (long long)it->have, it->where);
    }
    TEST_CHECK(!strcmp(fit_record_format(&m.fit, made, sizeof made), msg),
               "%s on %s: the message is the record's (%s)", c->prog, c->ini, msg);
    map_config_free(&m);
    rdg_free(g);
    ast_program_free(p);
  }
}

/* Lower bounds on items: set by resource and key, kept at the largest;
 * the message says them; a record fails at its bound when an item's
 * bound exceeds what the configuration has. */
static void test_bounds(void) {
  fit_record r = {0};
  fit_record_add(&r, FIT_RES_FU, "pe.div", 2, 0, "div", "functional units: div");
  fit_record_add(&r, FIT_RES_FU, "pe.mul", 1, 0, "mul", "functional units: mul");
  fit_record_add(&r, FIT_RES_RD, "pe.rd", 8, 4, "", "registers rd");
  TEST_CHECK(r.item[0].bound == -1 && r.item[2].bound == -1 && !fit_record_at_bound(&r),
             "new items have no bound; no bound: not at a bound");
  fit_record_bound(&r, FIT_RES_FU, "pe.div", 1);
  fit_record_bound(&r, FIT_RES_RD, NULL, 3);
  fit_record_bound(&r, FIT_RES_RD, "pe.rd", 2);
  TEST_CHECK(r.item[0].bound == 1 && r.item[1].bound == -1 && r.item[2].bound == 3,
             "bounds set by resource and key (pe.div 1, pe.mul none), never lowered (rd 3 after 2)");
  char b[256];
  TEST_CHECK(!strcmp(fit_record_format(&r, b, sizeof b),
                     "functional units: div (any mapping needs at least 1); functional units: mul; registers rd (any "
                     "mapping needs at least 3)"),
             "the message says each known bound (%s)", b);
  TEST_CHECK(fit_record_at_bound(&r), "pe.div: bound 1 > 0 available: at a bound (the architecture's)");
  fit_record q = {0};
  fit_record_add(&q, FIT_RES_ID, "pe.id", 10, 8, "", "id");
  fit_record_bound(&q, FIT_RES_ID, "pe.id", 8);
  TEST_CHECK(!fit_record_at_bound(&q), "id: needs 10, bound 8 = available 8: above the bound (the compiler's)");
  fit_record_bound(&q, FIT_RES_ID, "pe.id", 9);
  TEST_CHECK(fit_record_at_bound(&q), "id: bound 9 > available 8: at a bound");
  /* a region larger than the array: the rows asked for are their own bound */
  fit_record a = {0};
  fit_record_add(&a, FIT_RES_ARRAY_ROWS, "array.rows", 4, 1, "", "region 4x1");
  fit_record_add(&a, FIT_RES_ARRAY_COLS, "array.cols", 3, 3, "", "region 4x3");
  TEST_CHECK(a.item[0].bound == 4 && a.item[1].bound == 3 && fit_record_at_bound(&a),
             "array rows and columns: the need is the bound (4 rows on 1: at a bound)");
}

int main(void) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const lookup_case *c = &cases[i];
    fit_record r = {0};
    for (int k = 0; k < 3 && c->res[k]; k++) fit_record_add(&r, c->res[k], "pe.x", c->need[k], c->have[k], "", "i%d", k);
    int nset = 0;
    while (nset < 4 && c->only[nset]) nset++;
    TEST_CHECK(fit_record_only(&r, c->only, nset) == c->only_want, "%s: only", c->what);
    TEST_CHECK(fit_record_has(&r, c->res[0]) && !fit_record_has(&r, FIT_RES_FD_DEPTH), "%s: has", c->what);
    TEST_CHECK(fit_record_closest(&r) == &r.item[c->closest], "%s: closest is item %d", c->what, c->closest);
  }
  fit_record r = {0};
  TEST_CHECK(!fit_record_only(&r, (fit_resource[]){FIT_RES_RD}, 1) && !fit_record_closest(&r),
             "an empty record: nothing only, no closest");
  fit_record_add(&r, FIT_RES_RD, "pe.rd", 8, 4, "", "registers rd: needs %d, pe.rd = %d", 8, 4);
  fit_record_add(&r, FIT_RES_ID, "pe.id", 5, 4, "", "id: needs %d, pe.id = %d", 5, 4);
  snprintf(r.note, sizeof r.note, " (and a note)");
  char b[256];
  TEST_CHECK(!strcmp(fit_record_format(&r, b, sizeof b),
                     "registers rd: needs 8, pe.rd = 4; id: needs 5, pe.id = 4 (and a note)"),
             "the message: the items joined, then the note (%s)", b);
  TEST_CHECK(!strcmp(fit_record_format(&r, b, 12), "registers r"), "a short buffer: cut, terminated (%s)", b);
  char m[128];
  TEST_CHECK(fit_nofit(&r, m, sizeof m, FIT_RES_IMEM, "pe.imem", 40, 32, "processor class 0, alu0",
                       "%s: needs %d words", "processor class 0, alu0", 40) == FIT_ERR_NOFIT &&
                 r.n == 1 && !r.note[0] && r.item[0].res == FIT_RES_IMEM && !strcmp(r.item[0].key, "pe.imem") &&
                 r.item[0].need == 40 && r.item[0].have == 32 && !strcmp(m, "processor class 0, alu0: needs 40 words"),
             "fit_nofit: one item, the record emptied first, the message (%s)", m);
  int named = 1;
  for (int k = 1; k < FIT_RES_COUNT; k++)
    named &= fit_resource_parse(fit_resource_name((fit_resource)k)) == (fit_resource)k &&
             strcmp(fit_resource_name((fit_resource)k), "none") != 0;
  TEST_CHECK(named, "every resource has a name that reads back");
  TEST_CHECK(fit_resource_parse("no such") == FIT_RES_NONE && fit_resource_parse(NULL) == FIT_RES_NONE,
             "an unknown name: none");
  fit_record full = {0};
  int added = 0;
  for (int k = 0; k < FIT_MAX_ITEMS + 2; k++) added += fit_record_add(&full, FIT_RES_RD, "", 1, 0, "", "x") != NULL;
  TEST_CHECK(added == FIT_MAX_ITEMS && full.n == FIT_MAX_ITEMS, "a full record takes no more items (%d)", added);
  TEST_CHECK(FIT_ERR_NOFIT == 3 && FIT_ERR_INPUT == 2 && FIT_OK == 0, "the status values are the exit codes");
  test_bounds();
  test_mapped();
  return test_done();
}
