/* covers: docs/rtl.md "Every valid configuration" */
/*
 * test_arch_gen.c: unit tests of the random configuration generator
 * (arch_gen.h, docs/rtl.md "Every valid configuration").
 *
 * Table-driven: each case is a seed range and a bound on the PEs; every
 * configuration generated is written as INI and loaded back through arch.c
 * (so it is valid), must respect the bound, and must be the same on a
 * second call (reproducible). Over each range the table asks for the edge
 * values the generator is biased to: a 1x1 array, a 1xN row, no
 * multiplier, a register class with no register, ports 1 and 16. A last
 * table checks that a bad bound is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "arch_gen.h"
#include "test.h"

typedef struct {
  const char *name;
  uint64_t first, count; /* seeds first .. first + count - 1 */
  int max_pes;
} gen_case;

static const gen_case gen_cases[] = {
    {"seeds 0..199, default bound", 0, 200, ARCH_GEN_MAX_PES_DEFAULT},
    {"seeds 1000..1199, one PE", 1000, 200, 1},
    {"seeds 2^63..+199, 64 PEs", 1ull << 63, 200, 64},
    {"seeds 5000..5199, 4096 PEs (64x64)", 5000, 200, 4096},
};

/* What a range of seeds produced. */
typedef struct {
  int invalid, over, unstable;
  int one_by_one, row, no_mul, empty_class, ports1, ports16, distinct;
} gen_tally;

/* Returns 0 when cfg, written as INI and loaded back, gives the same
 * fingerprint; -1 when arch.c refuses it or loads something else. */
static int gen_roundtrip(const arch_config *cfg) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return -1;
  arch_config_write_ini(cfg, f);
  fclose(f);
  arch_config back;
  int rc = arch_config_load_text("gen.ini", text, &back);
  free(text);
  if (rc) return -1;
  return arch_config_fingerprint(&back) == arch_config_fingerprint(cfg) ? 0 : -1;
}

/* Returns the tally of the configurations of the seeds of case c. */
static gen_tally gen_run(const gen_case *c) {
  gen_tally t;
  memset(&t, 0, sizeof t);
  uint64_t prev = 0;
  for (uint64_t i = 0; i < c->count; i++) {
    arch_config a, b;
    if (arch_gen_config(c->first + i, c->max_pes, &a) ||
        arch_gen_config(c->first + i, c->max_pes, &b)) {
      t.invalid++;
      continue;
    }
    if (arch_config_fingerprint(&a) != arch_config_fingerprint(&b)) t.unstable++;
    if (gen_roundtrip(&a)) t.invalid++;
    if (a.rows * a.cols > c->max_pes) t.over++;
    t.one_by_one += a.rows == 1 && a.cols == 1;
    t.row += a.rows == 1 && a.cols > 1;
    t.no_mul += a.mul == 0;
    t.empty_class += a.rd == 0 || a.fd == 0 || a.id == 0 || a.od == 0;
    t.ports1 += a.ports == 1;
    t.ports16 += a.ports == 16;
    t.distinct += i == 0 || arch_config_fingerprint(&a) != prev;
    prev = arch_config_fingerprint(&a);
  }
  return t;
}

int main(void) {
  for (size_t i = 0; i < sizeof gen_cases / sizeof gen_cases[0]; i++) {
    const gen_case *c = &gen_cases[i];
    gen_tally t = gen_run(c);
    TEST_CHECK(t.invalid == 0, "%s: every configuration loads back (%d do not)", c->name,
               t.invalid);
    TEST_CHECK(t.unstable == 0, "%s: the same seed gives the same configuration", c->name);
    TEST_CHECK(t.over == 0, "%s: at most %d PEs (%d over)", c->name, c->max_pes, t.over);
    TEST_CHECK(t.one_by_one > 0, "%s: a 1x1 array (%d)", c->name, t.one_by_one);
    if (c->max_pes > 1) TEST_CHECK(t.row > 0, "%s: a 1xN row (%d)", c->name, t.row);
    TEST_CHECK(t.no_mul > 0, "%s: no multiplier (%d)", c->name, t.no_mul);
    TEST_CHECK(t.empty_class > 0, "%s: a register class with no register (%d)", c->name,
               t.empty_class);
    TEST_CHECK(t.ports1 > 0 && t.ports16 > 0, "%s: ports 1 (%d) and 16 (%d)", c->name,
               t.ports1, t.ports16);
    TEST_CHECK(t.distinct > (int)c->count * 9 / 10, "%s: successive seeds differ (%d of %d)",
               c->name, t.distinct, (int)c->count);
  }
  static const int bad_bounds[] = {0, -1};
  for (size_t i = 0; i < sizeof bad_bounds / sizeof bad_bounds[0]; i++) {
    arch_config cfg = arch_config_default();
    uint64_t fp = arch_config_fingerprint(&cfg);
    TEST_CHECK(arch_gen_config(1, bad_bounds[i], &cfg) == -1 &&
                   arch_config_fingerprint(&cfg) == fp,
               "max_pes %d is refused and leaves the configuration alone", bad_bounds[i]);
  }
  return test_done();
}
