/* covers: docs/regress.md "Sign-off", docs/testplan.md "In the sign-off" */
/*
 * test_signoff_report.c: the fit part of the sign-off report
 * (regress/signoff_report.c, docs/regress.md "Sign-off"): from a table of
 * runs (program, parameters, region, verdict, message), the report states
 * "fitting runs: F of N" with F the runs that fit (pass, fail, timeout,
 * crash) and draws one row per program and parameters and one column per
 * region, each cell "fits" or the resource that ran out (needed/available);
 * a 1-D program that ran on the first row or column of an RxC region
 * (summary.json's line) "fits (row)" or "fits (column)", counted as
 * fitting and apart; the count equals the fitting cells when each cell has
 * one run, in report.md and report.html. Also the cells of
 * signoff_fit_cell alone, and the verdict (signoff_verdict_judge): FAIL
 * when a step or a run failed, INCOMPLETE when fewer runs fit than the
 * floor --min-fit (or none ran), PASS otherwise, stated with the fit
 * ratio at the top of both reports; the testplan's section (its features'
 * runs passed, bins hit, modules' coverage, status) and line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "regress.h"
#include "signoff.h"
#include "signoff_nofit.h"
#include "test.h"

typedef struct {
  const char *name, *params, *pes;
  regress_verdict verdict;
  const char *message;
  const char *line; /* summary.json's line, or NULL */
  fit_resource res; /* nofit: the record's one item */
  const char *key;
  int need, have;
  int bound; /* the item's lower bound (-1: none known) */
} run_case;

static const run_case runs[] = {
    {"bitextract", "N=13", "1x1", REGRESS_PASS, NULL, NULL, FIT_RES_NONE, NULL, 0, 0, -1},
    {"bitextract", "N=13", "1x2", REGRESS_PASS, NULL, NULL, FIT_RES_NONE, NULL, 0, 0, -1},
    {"bitextract", "N=13", "2x2", REGRESS_PASS, NULL, "1x2", FIT_RES_NONE, NULL, 0, 0, -1},
    {"satarith", "N=8", "1x2", REGRESS_NOFIT, "registers rd: needs 5, pe.rd = 4", NULL, FIT_RES_RD, "pe.rd", 5, 4, -1},
    {"satarith", "N=8", "2x2", REGRESS_FAIL, "outputs differ", "1x2", FIT_RES_NONE, NULL, 0, 0, -1},
    {"jacobi", "T=2 N=4", "1x1", REGRESS_NOFIT, "functional units: 1 operation needs a div unit ('/'), pe.div = 0", NULL,
     FIT_RES_FU, "pe.div", 1, 0, 1},
    {"jacobi", "T=2 N=4", "1x2", REGRESS_NOFIT, "functional units: 1 operation needs a div unit ('/'), pe.div = 0", NULL,
     FIT_RES_FU, "pe.div", 1, 0, 1},
    {"jacobi", "T=2 N=4", "2x2", REGRESS_NOFIT, "functional units: 1 operation needs a div unit ('/'), pe.div = 0", NULL,
     FIT_RES_FU, "pe.div", 1, 0, 1},
    {"band", "N=5 W=4", "1x1", REGRESS_NOFIT, "registers rd: needs 5, pe.rd = 4", NULL, FIT_RES_RD, "pe.rd", 5, 4, -1},
    {"band", "N=5 W=4", "1x2", REGRESS_FAIL, "outputs differ", NULL, FIT_RES_NONE, NULL, 0, 0, -1},
    {"band", "N=5 W=4", "2x2", REGRESS_TIMEOUT, NULL, NULL, FIT_RES_NONE, NULL, 0, 0, -1},
};
#define NRUNS (sizeof runs / sizeof *runs)

/* Returns the number of times needle occurs in hay. */
static int count_of(const char *hay, const char *needle) {
  int n = 0;
  for (const char *p = hay ? strstr(hay, needle) : NULL; p; p = strstr(p + 1, needle)) n++;
  return n;
}

/* Fills s with the runs of the table and a title; returns 0. */
static int state_fill(signoff_state *s, const char *dir) {
  s->arch = "test.ini";
  s->suite = "test.suite";
  snprintf(s->adir, sizeof s->adir, "%s", dir);
  for (size_t i = 0; i < NRUNS; i++) {
    regress_run *r = regress_list_add(&s->runs);
    if (!r) return -1;
    char id[128];
    snprintf(id, sizeof id, "%s_%s", runs[i].name, runs[i].pes);
    r->id = regress_strdup(id);
    r->name = regress_strdup(runs[i].name);
    r->params = regress_strdup(runs[i].params);
    r->pes = regress_strdup(runs[i].pes);
    r->verdict = runs[i].verdict;
    r->ok = 1;
    r->message = regress_strdup(runs[i].message);
    r->line = regress_strdup(runs[i].line);
    if (runs[i].verdict == REGRESS_NOFIT && (r->nofit = calloc(1, sizeof *r->nofit))) {
      fit_item *it =
          fit_record_add(r->nofit, runs[i].res, runs[i].key, runs[i].need, runs[i].have, "", "%s", runs[i].message);
      if (it) it->bound = runs[i].bound;
    }
  }
  return 0;
}

/* The cells on their own. */
static void test_cells(void) {
  char b[96];
  TEST_CHECK(!strcmp(signoff_fit_cell(REGRESS_PASS, NULL, NULL, b, sizeof b), "fits"), "pass: fits (%s)", b);
  TEST_CHECK(!strcmp(signoff_fit_cell(REGRESS_FAIL, NULL, NULL, b, sizeof b), "fits, fail"), "fail: fits, fail (%s)", b);
  TEST_CHECK(!strcmp(signoff_fit_cell(REGRESS_PASS, NULL, "1x4", b, sizeof b), "fits (row)"),
             "pass on the first row of an RxC region: fits (row) (%s)", b);
  TEST_CHECK(!strcmp(signoff_fit_cell(REGRESS_PASS, NULL, "4x1", b, sizeof b), "fits (column)"),
             "pass on the first column: fits (column) (%s)", b);
  TEST_CHECK(!strcmp(signoff_fit_cell(REGRESS_TIMEOUT, NULL, "1x2", b, sizeof b), "fits (row), timeout"),
             "timeout on a row: fits (row), timeout (%s)", b);
  fit_record fd = {0};
  fit_record_add(&fd, FIT_RES_FD, "pe.fd", 6, 4, "", "registers fd: needs 6, pe.fd = 4");
  TEST_CHECK(!strcmp(signoff_fit_cell(REGRESS_NOFIT, &fd, NULL, b, sizeof b), "pe.fd 6/4"), "nofit: pe.fd 6/4 (%s)",
             b);
  TEST_CHECK(!strcmp(signoff_fit_cell(REGRESS_NOFIT, NULL, NULL, b, sizeof b), "does not fit"),
             "nofit without a record: does not fit (%s)", b);
  TEST_CHECK(!strcmp(signoff_fit_cell(REGRESS_INVALID, NULL, NULL, b, sizeof b), "invalid"), "invalid (%s)", b);
  TEST_CHECK(!signoff_fit_verdict(REGRESS_NOFIT) && !signoff_fit_verdict(REGRESS_INVALID) &&
                 !signoff_fit_verdict(REGRESS_PENDING) && signoff_fit_verdict(REGRESS_CRASH),
             "fits: pass, fail, timeout, crash; not nofit, invalid, pending");
}

/* The report of the table's runs. */
static void test_report(void) {
  char dir[] = "/tmp/test_signoff_report-XXXXXX";
  TEST_CHECK(mkdtemp(dir) != NULL, "a temporary directory");
  signoff_state *s = calloc(1, sizeof *s);
  if (!s || state_fill(s, dir)) {
    TEST_CHECK(0, "out of memory");
    free(s);
    return;
  }
  TEST_CHECK(signoff_fit_count(&s->runs) == 6, "6 of the 11 runs fit (got %zu)", signoff_fit_count(&s->runs));
  s->min_fit = 60;
  s->st[SIGNOFF_ST_REGRESS].ran = 1;
  TEST_CHECK(signoff_report_write(s, SIGNOFF_VERDICT_INCOMPLETE) == 0, "the report is written");
  char md[4200], html[4200];
  snprintf(md, sizeof md, "%s/report.md", dir);
  snprintf(html, sizeof html, "%s/report.html", dir);
  size_t len;
  char *m = fileio_read_all(md, &len), *h = fileio_read_all(html, &len);
  TEST_CHECK(m && strstr(m, "\nfitting runs: 6 of 11 (2 of them 1-D programs on the first row or column of an "
                          "RxC region, fits (row) or fits (column); 5 do not fit, 3 at a lower bound: no mapping "
                          "fits, the architecture's; 2 above their bounds: the compiler's; "),
             "report.md: fitting runs: 6 of 11, 2 on a line of an RxC region, 3 no-fits at a lower bound");
  TEST_CHECK(h && strstr(h, "<p>fitting runs: 6 of 11 ("), "report.html: fitting runs: 6 of 11");
  TEST_CHECK(m && strstr(m, "\n| program | parameters | 1x1 | 1x2 | 2x2 |\n"),
             "report.md: a column per region, in the order of the runs");
  TEST_CHECK(m && strstr(m, "\n| bitextract | N=13 | fits | fits | fits (row) |\n"),
             "report.md: bitextract fits on 1-D regions, and on the first row of 2x2, apart");
  TEST_CHECK(m && strstr(m, "\n| satarith | N=8 | - | pe.rd 5/4 | fits (row), fail |\n"),
             "report.md: satarith on the first row of 2x2 (and fails there)");
  TEST_CHECK(m && strstr(m, "\n| jacobi | T=2 N=4 | pe.div 1/0 | pe.div 1/0 | pe.div 1/0 |\n"),
             "report.md: jacobi needs a divider on every region");
  TEST_CHECK(m && strstr(m, "\n| band | N=5 W=4 | pe.rd 5/4 | fits, fail | fits, timeout |\n"),
             "report.md: band: pe.rd on 1x1, fits (and fails, times out) elsewhere");
  TEST_CHECK(m && strstr(m, "\n| program | parameters | region | resource | needed | available | over by | bound "
                          "| fault | where | change | message |\n"),
             "report.md: the no-fit table has a change column");
  TEST_CHECK(m && strstr(m, "\n| jacobi | T=2 N=4 | 1x1 | pe.div | 1 | 0 | 1 | 1 | architecture |  | raise pe.div to 1 | "
                          "functional units: "),
             "report.md: the no-fit table: jacobi at its lower bound (the architecture's), raise pe.div to 1");
  TEST_CHECK(m && strstr(m, "\n| satarith | N=8 | 1x2 | pe.rd | 5 | 4 | 1 | ? | compiler |  | raise pe.rd to 5 | "),
             "report.md: the no-fit table: satarith without a bound (the compiler's)");
  TEST_CHECK(count_of(m, "| raise ") == 5, "report.md: a change for each of the 5 runs that do not fit (%d)",
             count_of(m, "| raise "));
  TEST_CHECK(count_of(m, "| fits") == 6, "report.md: as many fitting cells as fitting runs (%d)", count_of(m, "| fits"));
  TEST_CHECK(count_of(m, "| fits (") == 2, "report.md: the two runs on a line marked (%d)", count_of(m, "| fits ("));
  TEST_CHECK(h && strstr(h, "<tr><td>jacobi</td><td>T=2 N=4</td><td>pe.div 1/0</td>"), "report.html: the same table");
  TEST_CHECK(m && !strncmp(m, "# INCOMPLETE\n\n**only 6 of 11 runs fit (54.5 %), under the floor --min-fit 60 %: "
                              "what ran passed, but too little of the suite ran to sign off**\n", 140),
             "report.md: INCOMPLETE first, with the fit ratio and the floor");
  TEST_CHECK(h && strstr(h, ">INCOMPLETE</h1>\n<p class=\"fit\"><b>only 6 of 11 runs fit (54.5 %), under the floor "),
             "report.html: INCOMPLETE first, with the fit ratio and the floor");
  free(m);
  free(h);
  remove(md);
  remove(html);
  rmdir(dir);
  regress_list_free(&s->runs);
  free(s);
}

/* The testplan's section (docs/testplan.md): a plan of three features
 * measured on the table's runs (no run directory: runs by program name),
 * a few bins and one module's coverage; the rows and the line under the
 * verdict, in report.md and report.html. */
static void test_testplan(void) {
  char dir[] = "/tmp/test_signoff_tp-XXXXXX", plan[4200], msg[512];
  TEST_CHECK(mkdtemp(dir) != NULL, "a temporary directory");
  signoff_state *s = calloc(1, sizeof *s);
  if (!s || state_fill(s, dir)) {
    TEST_CHECK(0, "out of memory");
    free(s);
    return;
  }
  snprintf(plan, sizeof plan, "%s/plan.yml", dir);
  FILE *f = fopen(plan, "w");
  if (f) {
    fputs("testplan: 1\nfeatures:\n"
          "  - name: alpha\n    tests: [tests/rtl.sh]\n    runs: [bitextract]\n    bins: [op.*]\n"
          "    rtl: [tcpa_fu, tcpa_fifo]\n"
          "  - name: beta\n    tests: [test_isa]\n    runs: [band, jacobi]\n"
          "  - name: gamma\n    tests: []\n    bins: [fifo.*]\n"
          "  - name: delta\n    tests: [test_isa]\n    bins: [value.div0.*]\n",
          f);
    fclose(f);
  }
  TEST_CHECK(testplan_load(plan, &s->plan, msg, sizeof msg) == 0, "the plan reads (%s)", msg);
  fcov_bin_define(&s->fcov, "op.alu.add");
  fcov_bin_define(&s->fcov, "op.alu.sub");
  fcov_bin_define(&s->fcov, "fifo.full");
  s->fcov.v[0].count = 5;
  s->ncov = 3; /* [0] the total, [1..2] modules */
  snprintf(s->cov[1].module, sizeof s->cov[1].module, "tcpa_fu");
  s->cov[1].line_hit = 3, s->cov[1].line_all = 4, s->cov[1].tog_hit = 1, s->cov[1].tog_all = 8;
  snprintf(s->cov[2].module, sizeof s->cov[2].module, "tcpa_fifo");
  s->cov[2].line_hit = 1, s->cov[2].line_all = 4, s->cov[2].tog_hit = 1, s->cov[2].tog_all = 2;
  s->tp = calloc(s->plan.n, sizeof *s->tp);
  TEST_CHECK(s->tp && testplan_measure(&s->plan, &s->runs, &s->fcov, s->tp) == 0, "the plan is measured");
  if (!s->tp) return;
  s->st[SIGNOFF_ST_REGRESS].ran = 1;
  TEST_CHECK(signoff_report_write(s, SIGNOFF_VERDICT_FAIL) == 0, "the report is written");
  char md[4200], html[4200];
  snprintf(md, sizeof md, "%s/report.md", dir);
  snprintf(html, sizeof html, "%s/report.html", dir);
  size_t len;
  char *m = fileio_read_all(md, &len), *h = fileio_read_all(html, &len);
  /* alpha: bitextract's 3 runs pass; op.alu.add hit, op.alu.sub not; its
   * modules 4 of 8 lines (50.0 %), 2 of 10 toggles (20.0 %). beta: band
   * fails once and times out once (its 1x1 run does not fit), jacobi
   * never fits: 2 runs, none passed. */
  static const struct {
    int html;
    const char *needle, *what;
  } want[] = {
      {0, "\n| alpha | tests/rtl.sh | 3/3 | 1/2 | 50.0 | 20.0 | 1 bin not hit |\n",
       "alpha: 3 of 3 runs, 1 of 2 bins, its two modules' coverage"},
      {0, "\n| beta | test_isa | 0/2 | 0/0 | - | - | 2 runs failed |\n", "beta: 2 runs that fit, both failed, no module"},
      {0, "\n| gamma | none | 0/0 | 0/1 | - | - | no test; no run; 1 bin not hit |\n", "gamma: no test, no run, a hole"},
      {0, "\n| delta | test_isa | 0/0 | 0/0 | - | - | not on this configuration |\n",
       "delta: no divider bin defined, not on this configuration"},
      {0, "\nTestplan: 0 of 3 features closed (the others not on this configuration); not closed: alpha, beta, gamma.\n",
       "the testplan's line under the verdict"},
      {1, "<tr><td>alpha</td><td>tests/rtl.sh</td><td>3/3</td><td>1/2</td>", "the same table in HTML"},
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    const char *text = want[i].html ? h : m;
    TEST_CHECK(text && strstr(text, want[i].needle), "report.%s: %s", want[i].html ? "html" : "md", want[i].what);
  }
  free(m);
  free(h);
  remove(md);
  remove(html);
  remove(plan);
  rmdir(dir);
  regress_list_free(&s->runs);
  testplan_free(&s->plan);
  fcov_free(&s->fcov);
  free(s->tp);
  free(s);
}

/* One verdict: the steps' outcome, fitting runs, runs, floor, verdict. */
static const struct {
  int steps_ok;
  size_t fit, total;
  int min_fit;
  signoff_verdict want;
} verdicts[] = {
    {1, 120, 192, 50, SIGNOFF_VERDICT_PASS},       /* 62.5 % over 50 % */
    {1, 37, 108, 50, SIGNOFF_VERDICT_INCOMPLETE},  /* 34.3 %: the sign-off that said PASS */
    {1, 37, 108, 0, SIGNOFF_VERDICT_PASS},         /* no floor */
    {1, 54, 108, 50, SIGNOFF_VERDICT_PASS},        /* exactly on the floor */
    {1, 53, 108, 50, SIGNOFF_VERDICT_INCOMPLETE},  /* one run under it */
    {1, 108, 108, 100, SIGNOFF_VERDICT_PASS},      /* every run must fit, and does */
    {1, 107, 108, 100, SIGNOFF_VERDICT_INCOMPLETE},
    {1, 0, 0, 0, SIGNOFF_VERDICT_INCOMPLETE},      /* nothing ran */
    {0, 120, 192, 50, SIGNOFF_VERDICT_FAIL},       /* a failure outranks the floor */
    {0, 37, 108, 50, SIGNOFF_VERDICT_FAIL},
};

/* The verdict, its name, exit status and statement of how much ran. */
static void test_verdicts(void) {
  for (size_t i = 0; i < sizeof verdicts / sizeof *verdicts; i++) {
    signoff_verdict v =
        signoff_verdict_judge(verdicts[i].steps_ok, verdicts[i].fit, verdicts[i].total, verdicts[i].min_fit);
    TEST_CHECK(v == verdicts[i].want, "steps %s, %zu of %zu fit, --min-fit %d: %s (want %s)",
               verdicts[i].steps_ok ? "ok" : "failed", verdicts[i].fit, verdicts[i].total, verdicts[i].min_fit,
               signoff_verdict_name(v), signoff_verdict_name(verdicts[i].want));
  }
  TEST_CHECK(signoff_verdict_status(SIGNOFF_VERDICT_PASS) == 0 && signoff_verdict_status(SIGNOFF_VERDICT_FAIL) == 1 &&
                 signoff_verdict_status(SIGNOFF_VERDICT_INCOMPLETE) == 3,
             "exit statuses: PASS 0, FAIL 1, INCOMPLETE 3");
  char *t = signoff_verdict_text(SIGNOFF_VERDICT_PASS, 1, 120, 192, 50);
  TEST_CHECK(t && !strcmp(t, "120 of 192 runs fit (62.5 %; floor --min-fit 50 %)"), "PASS text: '%s'", t);
  free(t);
  t = signoff_verdict_text(SIGNOFF_VERDICT_INCOMPLETE, 1, 37, 108, 50);
  TEST_CHECK(t && strstr(t, "only 37 of 108 runs fit (34.3 %), under the floor --min-fit 50 %"), "INCOMPLETE text: '%s'",
             t);
  free(t);
  t = signoff_verdict_text(SIGNOFF_VERDICT_FAIL, 0, 0, 0, 50);
  TEST_CHECK(t && strstr(t, "the regression did not run"), "FAIL before the regression: '%s'", t);
  free(t);
}

int main(void) {
  test_verdicts();
  test_cells();
  test_report();
  test_testplan();
  return test_done();
}
