/* covers: docs/testplan.md "The format", "`tcpa testplan`" */
/*
 * test_testplan.c: unit tests of the testplan (regress/testplan.c,
 * docs/testplan.md): plans that read and plans that do not, each refused
 * at its line and column with what is wrong; the check of a plan against
 * a tree (tests, suite programs, bin patterns, modules, bins no feature
 * claims), one problem per row; the measure of a plan on runs whose
 * functional coverage is in their directories (a run exercises a feature
 * by its program or by a bin of the feature it hit; a run that does not
 * fit runs nothing). Prints TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fcov.h"
#include "regress.h"
#include "test.h"
#include "testplan.h"

static char dir[] = "/tmp/test_testplan-XXXXXX";

/* Returns the path of file name in the test's directory (a static buffer
 * per call site: callers copy it). */
static const char *path_of(const char *name) {
  static char p[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
  return p[k];
}

/* Writes text to the file name in the test's directory. */
static void write_file(const char *name, const char *text) {
  FILE *f = fopen(path_of(name), "w");
  if (f) fputs(text, f), fclose(f);
}

/* Plans that do not read: the text and what the message must hold. */
static const struct {
  const char *text, *want;
} bad_plans[] = {
    {"testplan: 1\nfeatures: [\n", "plan.yml:3:1:"},                              /* not YAML */
    {"features: []\n", "testplan: 1 is required"},                                /* no version */
    {"testplan: 2\nfeatures: []\n", "testplan: 1 is required"},                   /* another version */
    {"testplan: 1\nplan: []\n", "plan.yml:2:1: unknown key (testplan, features): plan"},
    {"testplan: 1\nfeatures: {a: 1}\n", "features: expected a list"},
    {"testplan: 1\nfeatures:\n  - tests: [tests/rtl.sh]\n", "plan.yml:3:5: a feature without name:"},
    {"testplan: 1\nfeatures:\n  - name: a\n    tests: tests/rtl.sh\n", "plan.yml:4:12: expected a list"},
    {"testplan: 1\nfeatures:\n  - name: a\n    bins: [\"\"]\n", "plan.yml:4:12: expected a non-empty string"},
    {"testplan: 1\nfeatures:\n  - name: a\n    owner: me\n", "plan.yml:4:5: unknown key (name, desc, tests, runs, bins, rtl): owner"},
    {"testplan: 1\nfeatures:\n  - name: a\n  - name: a\n", "plan.yml:4:5: a feature named twice: a"},
};

/* Each bad plan is refused with its place and reason. */
static void test_load_bad(void) {
  for (size_t i = 0; i < sizeof bad_plans / sizeof *bad_plans; i++) {
    testplan p;
    char msg[512] = "";
    write_file("plan.yml", bad_plans[i].text);
    int rc = testplan_load(path_of("plan.yml"), &p, msg, sizeof msg);
    TEST_CHECK(rc == -1 && strstr(msg, bad_plans[i].want), "bad plan %zu refused: want '%s', got '%s'", i,
               bad_plans[i].want, msg);
  }
}

/* A plan that reads: its features, lists and lines. */
static const char good_plan[] = "testplan: 1\n"
                                "features:\n"
                                "  - name: alu\n"
                                "    desc: adds\n"
                                "    tests: [tests/a.sh, test_b]\n"
                                "    runs: [fir*]\n"
                                "    bins: [op.*.add]\n"
                                "    rtl: [tcpa_fu]\n"
                                "  - name: fifo\n"
                                "    tests: []\n"
                                "    bins: [fifo.*]\n";

/* The good plan's contents. */
static void test_load_good(testplan *p) {
  char msg[512] = "";
  write_file("plan.yml", good_plan);
  TEST_CHECK(testplan_load(path_of("plan.yml"), p, msg, sizeof msg) == 0, "the good plan reads (%s)", msg);
  TEST_CHECK(p->n == 2 && !strcmp(p->v[0].name, "alu") && !strcmp(p->v[0].desc, "adds") && p->v[0].line == 3,
             "two features, the first alu (adds) at line 3");
  TEST_CHECK(p->n == 2 && p->v[0].tests.n == 2 && !strcmp(p->v[0].tests.v[1], "test_b") && p->v[0].tests.line[1] == 5,
             "alu's tests: two, test_b at line 5");
  TEST_CHECK(p->n == 2 && p->v[1].tests.n == 0 && p->v[1].bins.n == 1, "fifo: no test, one bin pattern");
  TEST_CHECK(p->n == 2 && testplan_feature_has_bin(&p->v[0], "op.alu.add") &&
                 !testplan_feature_has_bin(&p->v[0], "op.alu.sub") && testplan_feature_has_bin(&p->v[1], "fifo.level3-4"),
             "bin patterns match by glob, dots included");
}

/* The check against a tree: one problem per row (what is missing, how
 * many problems in all). */
static void test_check(const testplan *p) {
  char root[600];
  snprintf(root, sizeof root, "%s/root", dir);
  static const char *const made[] = {"root", "root/tests", "root/tests/unit", "root/rtl"};
  for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
    char d[600];
    snprintf(d, sizeof d, "%s/%s", dir, made[i]);
    TEST_CHECK(mkdir(d, 0700) == 0, "mkdir %s", made[i]);
  }
  static const struct {
    const char *make; /* a file made in the tree before the check, or NULL */
    const char *bin;  /* a bin defined, or NULL */
    int problems;
    const char *want; /* in the output */
  } rows[] = {
      /* tests/a.sh, test_b, tcpa_fu missing; fifo.* matches no bin yet */
      {NULL, "op.alu.add", 4, "plan.yml:5: feature alu: test tests/a.sh does not exist"},
      {"root/tests/a.sh", NULL, 3, "test test_b does not exist"},
      {"root/tests/unit/test_b.c", NULL, 2, "plan.yml:8: feature alu: RTL module tcpa_fu has no rtl/tcpa_fu.sv"},
      {"root/rtl/tcpa_fu.sv", NULL, 1, "plan.yml:11: feature fifo: bin fifo.* matches no functional coverage bin"},
      {NULL, "fifo.full", 0, ": 0"},
      {NULL, "route.n-e", 1, "bin route.n-e belongs to no feature"},
  };
  fcov_set defined = {0};
  regress_list suite = {0};
  regress_run *r = regress_list_add(&suite);
  if (r) r->name = regress_strdup("fir");
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    if (rows[i].make) write_file(rows[i].make, "");
    if (rows[i].bin) fcov_bin_define(&defined, rows[i].bin);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    int n = f ? testplan_check(p, root, &defined, &suite, f) : -1;
    if (f) fprintf(f, ": %d\n", n), fclose(f);
    TEST_CHECK(n == rows[i].problems && out && strstr(out, rows[i].want), "check %zu: %d problems (got %d), '%s'", i,
               rows[i].problems, n, rows[i].want);
    free(out);
  }
  /* a run glob that names no program of the suite */
  free(suite.v[0].name);
  suite.v[0].name = regress_strdup("matmul");
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  int n = f ? testplan_check(p, root, &defined, &suite, f) : -1;
  if (f) fclose(f);
  TEST_CHECK(n == 2 && out && strstr(out, "plan.yml:6: feature alu: run fir* names no program"),
             "check: a run glob matching no program of the suite, at its line (%d problems)", n);
  free(out);
  regress_list_free(&suite);
  fcov_free(&defined);
}

/* The measure on three runs: fir passes (named by alu's runs, no
 * coverage file), matmul fails and hit fifo.full, gcd does not fit. */
static void test_measure(const testplan *p) {
  static const char *const names[] = {"fir", "matmul", "gcd"};
  static const regress_verdict verdicts[] = {REGRESS_PASS, REGRESS_FAIL, REGRESS_NOFIT};
  regress_list l = {0};
  for (int i = 0; i < 3; i++) {
    regress_run *r = regress_list_add(&l);
    if (!r) return;
    r->name = regress_strdup(names[i]);
    r->verdict = verdicts[i];
    r->dir = regress_strdup(path_of(names[i]));
  }
  TEST_CHECK(mkdir(l.v[1].dir, 0700) == 0 && mkdir(l.v[2].dir, 0700) == 0, "run directories");
  fcov_set one = {0};
  fcov_bin_define(&one, "fifo.full");
  fcov_bin_define(&one, "op.alu.add");
  one.v[0].count = 4;
  one.runs = 1;
  char fj[600];
  snprintf(fj, sizeof fj, "%s/fcov.json", l.v[1].dir);
  TEST_CHECK(fcov_save(&one, fj) == 0, "matmul's fcov.json");
  snprintf(fj, sizeof fj, "%s/fcov.json", l.v[2].dir);
  fcov_bin_find(&one, "op.alu.add")->count = 1; /* a run that does not fit: never counted */
  TEST_CHECK(fcov_save(&one, fj) == 0, "gcd's fcov.json");
  fcov_set merged = {0};
  fcov_bin_define(&merged, "op.alu.add");
  fcov_bin_define(&merged, "fifo.full");
  fcov_bin_define(&merged, "fifo.empty");
  merged.v[1].count = 4;
  testplan_stat st[2];
  TEST_CHECK(testplan_measure(p, &l, &merged, st) == 0, "measured");
  char why[128];
  TEST_CHECK(st[0].runs == 1 && st[0].passed == 1 && st[0].failed == 0 && st[0].hit == 0 && st[0].all == 1 &&
                 !st[0].closed && !strcmp(testplan_stat_why(&p->v[0], &st[0], why, sizeof why), "1 bin not hit"),
             "alu: fir by name, passed; op.alu.add not hit: %s", why);
  TEST_CHECK(st[1].runs == 1 && st[1].passed == 0 && st[1].failed == 1 && st[1].hit == 1 && st[1].all == 2 &&
                 !strcmp(testplan_stat_why(&p->v[1], &st[1], why, sizeof why), "no test; 1 run failed; 1 bin not hit"),
             "fifo: matmul by its bin, failed; 1 of 2 bins: %s", why);
  fcov_free(&one);
  fcov_free(&merged);
  for (int i = 1; i < 3; i++) {
    snprintf(fj, sizeof fj, "%s/fcov.json", l.v[i].dir);
    remove(fj);
    rmdir(l.v[i].dir);
  }
  regress_list_free(&l);
}

int main(void) {
  if (!mkdtemp(dir)) {
    TEST_CHECK(0, "a temporary directory");
    return test_done();
  }
  test_load_bad();
  testplan p;
  test_load_good(&p);
  test_check(&p);
  test_measure(&p);
  testplan_free(&p);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  TEST_CHECK(system(cmd) == 0, "the temporary directory removed");
  return test_done();
}
