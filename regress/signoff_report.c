/*
 * signoff_report.c: the report of a sign-off (docs/regress.md "Sign-off",
 * signoff.h), written twice from one function, as Markdown (DIR/report.md)
 * and as HTML (DIR/report.html): the verdict PASS, FAIL or INCOMPLETE at
 * the top with how much ran (the fitting runs of all, against the floor
 * --min-fit; signoff_verdict_judge decides), the
 * tool's version and git revision (version.h), the steps, the runs not as
 * expected with their failure signatures, the count of fitting runs and a
 * table of fit per program and region (the resource that ran out where a
 * program does not fit; "fits (row)" where a 1-D program ran on a line of
 * an RxC region), every run that does not fit with
 * its resource (needed, available, over by, the lower bound and whose
 * shortfall it is: at a bound the architecture's, else the compiler's,
 * fit.h) and the change of the
 * configuration that makes it fit (signoff_nofit.h), coverage per
 * module (with links to the genhtml pages and the annotated sources), the
 * functional coverage of the regression per group with its holes (fcov.h),
 * the testplan measured on the runs (testplan.h: per feature its runs
 * passed, bins hit and its modules' coverage; the features closed under
 * the verdict) and Yosys cells per module. Each file is written to a temporary
 * file and renamed (datafile.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafile.h"
#include "regress.h"
#include "signoff.h"
#include "signoff_nofit.h"
#include "version.h"

/* The two report formats. */
typedef enum { SIGNOFF_MD, SIGNOFF_HTML } signoff_fmt;

/* Writes text escaped for the format. */
static void signoff_text(FILE *f, signoff_fmt fmt, const char *s) {
  for (; s && *s; s++) {
    if (fmt == SIGNOFF_HTML && strchr("<>&\"", *s))
      fputs(*s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '&' ? "&amp;" : "&quot;", f);
    else if (fmt == SIGNOFF_MD && *s == '|') fputs("\\|", f);
    else if (*s == '\n') fputc(' ', f);
    else fputc(*s, f);
  }
}

/* Writes a heading. */
static void signoff_heading(FILE *f, signoff_fmt fmt, const char *s) {
  fputs(fmt == SIGNOFF_MD ? "\n## " : "<h2>", f);
  signoff_text(f, fmt, s);
  fputs(fmt == SIGNOFF_MD ? "\n\n" : "</h2>\n", f);
}

/* Writes a table row of n cells (header row when head). */
static void signoff_row(FILE *f, signoff_fmt fmt, int head, int n, const char *const *cells) {
  if (fmt == SIGNOFF_HTML) {
    fputs("<tr>", f);
    for (int i = 0; i < n; i++) {
      fputs(head ? "<th>" : "<td>", f);
      signoff_text(f, fmt, cells[i]);
      fputs(head ? "</th>" : "</td>", f);
    }
    fputs("</tr>\n", f);
    return;
  }
  fputs("|", f);
  for (int i = 0; i < n; i++) {
    fputc(' ', f);
    signoff_text(f, fmt, cells[i]);
    fputs(" |", f);
  }
  fputc('\n', f);
  if (head) {
    fputs("|", f);
    for (int i = 0; i < n; i++) fputs("---|", f);
    fputc('\n', f);
  }
}

/* Begins / ends a table. */
static void signoff_table(FILE *f, signoff_fmt fmt, int end) {
  if (fmt == SIGNOFF_HTML) fputs(end ? "</table>\n" : "<table>\n", f);
  else if (end) fputc('\n', f);
}

/* Writes the per-module coverage table. */
static void signoff_report_coverage(FILE *f, signoff_fmt fmt, const signoff_state *s) {
  signoff_heading(f, fmt, "Coverage per module (line: line and block points; toggle: signal bits)");
  if (s->html)
    fputs(fmt == SIGNOFF_HTML ? "<p>Line by line: <a href=\"coverage-html/index.html\">coverage-html/index.html</a> "
                                "(genhtml), annotated/ (verilator_coverage --annotate).</p>\n"
                              : "Line by line: coverage-html/index.html (genhtml), annotated/ (verilator_coverage "
                                "--annotate).\n\n",
          f);
  static const char *const hd[] = {"module", "line covered", "line points", "line %", "toggle covered",
                                   "toggle points", "toggle %"};
  signoff_table(f, fmt, 0);
  signoff_row(f, fmt, 1, 7, hd);
  for (int i = 1; i <= s->ncov; i++) {
    const signoff_cov *c = &s->cov[i == s->ncov ? 0 : i];
    char b[6][32];
    snprintf(b[0], 32, "%ld", c->line_hit);
    snprintf(b[1], 32, "%ld", c->line_all);
    snprintf(b[2], 32, "%.1f", c->line_all ? 100.0 * (double)c->line_hit / (double)c->line_all : 0.0);
    snprintf(b[3], 32, "%ld", c->tog_hit);
    snprintf(b[4], 32, "%ld", c->tog_all);
    snprintf(b[5], 32, "%.1f", c->tog_all ? 100.0 * (double)c->tog_hit / (double)c->tog_all : 0.0);
    const char *row[] = {c->module, b[0], b[1], b[2], b[3], b[4], b[5]};
    signoff_row(f, fmt, 0, 7, row);
  }
  signoff_table(f, fmt, 1);
}

/* Writes the functional coverage of the regression: per group the bins
 * hit, defined, the share and every hole (fcov.h). */
static void signoff_report_fcov(FILE *f, signoff_fmt fmt, const signoff_state *s) {
  signoff_heading(f, fmt, "Functional coverage (bins from the ISA and the configuration; holes: bins never hit)");
  size_t hit, all;
  fcov_totals(&s->fcov, &hit, &all);
  char text[256];
  snprintf(text, sizeof text, "%zu of %zu bins hit (%.1f%%) over %llu runs; regress/fcov.json, regress/fcov.txt.",
           hit, all, all ? 100.0 * (double)hit / (double)all : 0.0, (unsigned long long)s->fcov.runs);
  fputs(fmt == SIGNOFF_HTML ? "<p>" : "", f);
  signoff_text(f, fmt, text);
  fputs(fmt == SIGNOFF_HTML ? "</p>\n" : "\n\n", f);
  static const char *const hd[] = {"group", "bins hit", "bins", "%", "hits", "holes"};
  signoff_table(f, fmt, 0);
  signoff_row(f, fmt, 1, 6, hd);
  for (size_t i = 0; i < s->fcov.n; i++) {
    const char *name = s->fcov.v[i].name;
    size_t g = strcspn(name, "."), gh = 0, ga = 0, seen = 0;
    for (size_t j = 0; j < i && !seen; j++) seen = !strncmp(s->fcov.v[j].name, name, g + 1);
    if (seen) continue;
    unsigned long long hits = 0;
    char *holes = calloc(1, 1);
    size_t hl = 0;
    for (size_t j = i; j < s->fcov.n; j++) {
      const fcov_bin *b = &s->fcov.v[j];
      if (strncmp(b->name, name, g + 1)) continue;
      ga++;
      gh += b->count > 0;
      hits += b->count;
      char *h = b->count || !holes ? holes : realloc(holes, hl + strlen(b->name) + 3);
      if (!h) continue;
      holes = h;
      if (!b->count) hl += (size_t)sprintf(holes + hl, "%s%s", hl ? ", " : "", b->name);
    }
    char grp[FCOV_NAME], c[4][32];
    snprintf(grp, sizeof grp, "%.*s", (int)g, name);
    snprintf(c[0], 32, "%zu", gh);
    snprintf(c[1], 32, "%zu", ga);
    snprintf(c[2], 32, "%.1f", ga ? 100.0 * (double)gh / (double)ga : 0.0);
    snprintf(c[3], 32, "%llu", hits);
    const char *row[] = {grp, c[0], c[1], c[2], c[3], holes && *holes ? holes : "none"};
    signoff_row(f, fmt, 0, 6, row);
    free(holes);
  }
  signoff_table(f, fmt, 1);
}

/* Writes the table of runs that do not fit. */
static void signoff_report_nofit(FILE *f, signoff_fmt fmt, const signoff_state *s) {
  signoff_heading(f, fmt, "Programs that do not fit");
  static const char *const hd[] = {"program", "parameters", "region", "resource", "needed", "available",
                                   "over by", "bound", "fault", "where", "change", "message"};
  int any = 0;
  for (size_t i = 0; i < s->runs.n; i++) {
    const regress_run *r = &s->runs.v[i];
    if (r->verdict != REGRESS_NOFIT) continue;
    if (!any++) {
      signoff_table(f, fmt, 0);
      signoff_row(f, fmt, 1, 12, hd);
    }
    /* one row per resource that ran out; the change, the message and whose
     * shortfall it is (at a lower bound: the architecture's) on the first */
    const fit_item *it[FIT_MAX_ITEMS];
    int k = signoff_nofit_items(r->nofit, it, FIT_MAX_ITEMS);
    char change[256];
    signoff_nofit_change(r->nofit, change, sizeof change);
    for (int j = 0; j < (k ? k : 1); j++) {
      char need[32] = "?", have[32] = "?", over[32] = "?", res[64] = "?", bound[32] = "?";
      const fit_item *x = k ? it[j] : NULL;
      if (x) signoff_nofit_resource(x, res, sizeof res);
      if (x && x->need >= 0) snprintf(need, sizeof need, "%lld", (long long)x->need);
      if (x && x->have >= 0) snprintf(have, sizeof have, "%lld", (long long)x->have);
      if (x && x->need >= 0 && x->have >= 0) snprintf(over, sizeof over, "%lld", (long long)(x->need - x->have));
      if (x && x->bound >= 0) snprintf(bound, sizeof bound, "%lld", (long long)x->bound);
      const char *fault = j ? "" : r->nofit && fit_record_at_bound(r->nofit) ? "architecture" : "compiler";
      const char *row[] = {r->name, r->params, r->pes, res, need, have, over, bound, fault, x ? x->where : "",
                           j == 0 ? change : "", j == 0 && r->message ? r->message : ""};
      signoff_row(f, fmt, 0, 12, row);
    }
  }
  if (any) signoff_table(f, fmt, 1);
  else fputs(fmt == SIGNOFF_MD ? "Every run fits.\n" : "<p>Every run fits.</p>\n", f);
}

/* Returns the index of the first run of l with the name, parameters and
 * region of run r, a run that does not fit before any other (so a cell
 * names the resource when one of its runs ran out); -1 for none. */
static long signoff_fit_run(const regress_list *l, const char *name, const char *params, const char *pes) {
  long first = -1;
  for (size_t i = 0; i < l->n; i++) {
    const regress_run *r = &l->v[i];
    if (strcmp(r->name, name) || strcmp(r->params ? r->params : "", params) || strcmp(r->pes, pes)) continue;
    if (r->verdict == REGRESS_NOFIT) return (long)i;
    if (first < 0) first = (long)i;
  }
  return first;
}

/* Returns 1 when run i of l has the name and parameters (row) or the
 * region (column) of an earlier run. */
static int signoff_fit_seen(const regress_list *l, size_t i, int column) {
  const regress_run *r = &l->v[i];
  for (size_t j = 0; j < i; j++) {
    const regress_run *q = &l->v[j];
    if (column ? !strcmp(q->pes, r->pes)
               : !strcmp(q->name, r->name) && !strcmp(q->params ? q->params : "", r->params ? r->params : ""))
      return 1;
  }
  return 0;
}

/* Writes the count of fitting runs and the table of fit per program (and
 * parameters) and region: "fits", or the resource that ran out. */
static void signoff_report_fit(FILE *f, signoff_fmt fmt, const signoff_state *s) {
  const regress_list *l = &s->runs;
  size_t fit = signoff_fit_count(l), nofit = 0, lines = 0, at = 0;
  for (size_t i = 0; i < l->n; i++) {
    nofit += l->v[i].verdict == REGRESS_NOFIT;
    at += l->v[i].verdict == REGRESS_NOFIT && l->v[i].nofit && fit_record_at_bound(l->v[i].nofit);
    lines += signoff_fit_verdict(l->v[i].verdict) && l->v[i].line;
  }
  signoff_heading(f, fmt, "Fit per program and region");
  char text[512], on[128] = "";
  if (lines)
    snprintf(on, sizeof on, "%zu of them 1-D programs on the first row or column of an RxC region, "
             "fits (row) or fits (column); ", lines);
  snprintf(text, sizeof text,
           "fitting runs: %zu of %zu (%s%zu do not fit, %zu at a lower bound: no mapping fits, the "
           "architecture's; %zu above their bounds: the compiler's; a cell: the resource that ran out, "
           "needed/available)",
           fit, l->n, on, nofit, at, nofit - at);
  fputs(fmt == SIGNOFF_HTML ? "<p>" : "", f);
  signoff_text(f, fmt, text);
  fputs(fmt == SIGNOFF_HTML ? "</p>\n" : "\n\n", f);
  const char **cols = calloc(l->n + 2, sizeof *cols), **row = calloc(l->n + 2, sizeof *row);
  char(*cells)[96] = calloc(l->n + 2, sizeof *cells);
  if (!cols || !row || !cells || !l->n) goto done;
  size_t nc = 2;
  cols[0] = "program";
  cols[1] = "parameters";
  for (size_t i = 0; i < l->n; i++)
    if (!signoff_fit_seen(l, i, 1)) cols[nc++] = l->v[i].pes;
  signoff_table(f, fmt, 0);
  signoff_row(f, fmt, 1, (int)nc, cols);
  for (size_t i = 0; i < l->n; i++) {
    const regress_run *r = &l->v[i];
    if (signoff_fit_seen(l, i, 0)) continue;
    size_t k = 0;
    row[k++] = r->name;
    row[k++] = r->params ? r->params : "";
    for (size_t c = 2; c < nc; c++) {
      long j = signoff_fit_run(l, r->name, row[1], cols[c]);
      if (j < 0) snprintf(cells[c], sizeof *cells, "-");
      else signoff_fit_cell(l->v[j].verdict, l->v[j].nofit, l->v[j].line, cells[c], sizeof *cells);
      row[k++] = cells[c];
    }
    signoff_row(f, fmt, 0, (int)k, row);
  }
  signoff_table(f, fmt, 1);
done:
  free(cols);
  free(row);
  free(cells);
}

/* Sets *line, *tog to the line and toggle coverage (percent; -1: no
 * point) of the RTL modules of feature f in s. */
static void signoff_testplan_rtl(const signoff_state *s, const testplan_feature *f, double *line, double *tog) {
  long lh = 0, la = 0, th = 0, ta = 0;
  for (int i = 1; i < s->ncov; i++)
    for (size_t j = 0; j < f->rtl.n; j++)
      if (!strcmp(s->cov[i].module, f->rtl.v[j])) {
        lh += s->cov[i].line_hit;
        la += s->cov[i].line_all;
        th += s->cov[i].tog_hit;
        ta += s->cov[i].tog_all;
      }
  *line = la ? 100.0 * (double)lh / (double)la : -1;
  *tog = ta ? 100.0 * (double)th / (double)ta : -1;
}

/* Writes the testplan's features measured on the regression (testplan.h,
 * docs/testplan.md): per feature its tests, the runs that exercise it and
 * passed, its bins hit, the line and toggle coverage of its modules, and
 * closed or why not. */
static void signoff_report_testplan(FILE *f, signoff_fmt fmt, const signoff_state *s) {
  signoff_heading(f, fmt, "Testplan (features, the runs that exercise them, their coverage)");
  char text[512];
  snprintf(text, sizeof text, "%s, docs/testplan.md: a feature is closed when it names a test, a run exercises it, "
           "none failed and every one of its bins was hit.", s->plan.path);
  fputs(fmt == SIGNOFF_HTML ? "<p>" : "", f);
  signoff_text(f, fmt, text);
  fputs(fmt == SIGNOFF_HTML ? "</p>\n" : "\n\n", f);
  static const char *const hd[] = {"feature", "tests", "runs passed", "bins hit", "RTL line %", "RTL toggle %",
                                   "status"};
  signoff_table(f, fmt, 0);
  signoff_row(f, fmt, 1, 7, hd);
  for (size_t k = 0; k < s->plan.n; k++) {
    const testplan_feature *ft = &s->plan.v[k];
    const testplan_stat *t = &s->tp[k];
    char tests[512] = "none", c[4][32], why[128];
    for (size_t j = 0, n = 0; j < ft->tests.n && n < sizeof tests; j++)
      n += (size_t)snprintf(tests + n, sizeof tests - n, "%s%s", j ? ", " : "", ft->tests.v[j]);
    double line, tog;
    signoff_testplan_rtl(s, ft, &line, &tog);
    snprintf(c[0], 32, "%zu/%zu", t->passed, t->runs);
    snprintf(c[1], 32, "%zu/%zu", t->hit, t->all);
    if (line < 0) snprintf(c[2], 32, "-");
    else snprintf(c[2], 32, "%.1f", line);
    if (tog < 0) snprintf(c[3], 32, "-");
    else snprintf(c[3], 32, "%.1f", tog);
    const char *row[] = {ft->name, tests, c[0], c[1], c[2], c[3], testplan_stat_why(ft, t, why, sizeof why)};
    signoff_row(f, fmt, 0, 7, row);
  }
  signoff_table(f, fmt, 1);
}

/* Writes the one line of the testplan under the verdict: features closed
 * of those on the configuration, and the names of those not closed. */
static void signoff_report_testplan_line(FILE *f, signoff_fmt fmt, const signoff_state *s) {
  size_t closed = 0, absent = 0, n = 0;
  char open[2048] = "";
  for (size_t k = 0; k < s->plan.n; k++) {
    closed += (size_t)s->tp[k].closed;
    absent += (size_t)s->tp[k].absent;
    if (!s->tp[k].closed && !s->tp[k].absent && n < sizeof open)
      n += (size_t)snprintf(open + n, sizeof open - n, "%s%s", n ? ", " : "", s->plan.v[k].name);
  }
  char text[2300];
  snprintf(text, sizeof text, "Testplan: %zu of %zu features closed%s%s%s.", closed, s->plan.n - absent,
           absent ? " (the others not on this configuration)" : "", n ? "; not closed: " : "", open);
  fputs(fmt == SIGNOFF_HTML ? "<p class=\"testplan\">" : "\n", f);
  signoff_text(f, fmt, text);
  fputs(fmt == SIGNOFF_HTML ? "</p>\n" : "\n", f);
}

/* Writes the runs that were not as expected, with their signatures. */
static void signoff_report_failures(FILE *f, signoff_fmt fmt, const signoff_state *s) {
  signoff_heading(f, fmt, "Runs not as expected");
  static const char *const hd[] = {"run", "verdict", "seed", "signature", "message"};
  int any = 0;
  for (size_t i = 0; i < s->runs.n; i++) {
    const regress_run *r = &s->runs.v[i];
    if (r->ok) continue;
    if (!any++) {
      signoff_table(f, fmt, 0);
      signoff_row(f, fmt, 1, 5, hd);
    }
    char seed[32], *sig = regress_signature_text(&r->sig);
    snprintf(seed, sizeof seed, "%" PRIu64, r->seed);
    const char *row[] = {r->id, regress_verdict_name(r->verdict), seed, sig, r->message ? r->message : ""};
    signoff_row(f, fmt, 0, 5, row);
    free(sig);
  }
  if (any) signoff_table(f, fmt, 1);
  else fputs(fmt == SIGNOFF_MD ? "None.\n" : "<p>None.</p>\n", f);
}

signoff_verdict signoff_verdict_judge(int steps_ok, size_t fit, size_t total, int min_fit) {
  if (!steps_ok) return SIGNOFF_VERDICT_FAIL;
  if (total == 0 || (double)fit * 100.0 < (double)min_fit * (double)total) return SIGNOFF_VERDICT_INCOMPLETE;
  return SIGNOFF_VERDICT_PASS;
}

const char *signoff_verdict_name(signoff_verdict v) {
  return v == SIGNOFF_VERDICT_PASS ? "PASS" : v == SIGNOFF_VERDICT_INCOMPLETE ? "INCOMPLETE" : "FAIL";
}

int signoff_verdict_status(signoff_verdict v) {
  return v == SIGNOFF_VERDICT_PASS ? SIGNOFF_PASS : v == SIGNOFF_VERDICT_INCOMPLETE ? SIGNOFF_INCOMPLETE : SIGNOFF_FAIL;
}

char *signoff_verdict_text(signoff_verdict v, int ran, size_t fit, size_t total, int min_fit) {
  char *t = malloc(320);
  if (!t) return NULL;
  double pct = total ? 100.0 * (double)fit / (double)total : 0.0;
  if (!ran)
    snprintf(t, 320, "the regression did not run: how many runs fit is not known (floor --min-fit %d %%)", min_fit);
  else if (v == SIGNOFF_VERDICT_INCOMPLETE)
    snprintf(t, 320, "only %zu of %zu runs fit (%.1f %%), under the floor --min-fit %d %%: what ran passed, but too "
             "little of the suite ran to sign off", fit, total, pct, min_fit);
  else
    snprintf(t, 320, "%zu of %zu runs fit (%.1f %%; floor --min-fit %d %%)", fit, total, pct, min_fit);
  return t;
}

/* Writes the verdict with how much ran, the title and the tool's version. */
static void signoff_report_title(FILE *f, signoff_fmt fmt, const signoff_state *s, signoff_verdict v) {
  char title[SIGNOFF_PATH + 64];
  const char *name = signoff_verdict_name(v);
  char *ratio = signoff_verdict_text(v, s->st[SIGNOFF_ST_REGRESS].ran, signoff_fit_count(&s->runs), s->runs.n,
                                     s->min_fit);
  snprintf(title, sizeof title, "Sign-off of %s: %s", s->arch, name);
  if (fmt == SIGNOFF_HTML) {
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", f);
    signoff_text(f, fmt, title);
    fputs("</title><style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}"
          "td,th{border:1px solid #ccc;padding:2px 6px;font-size:90%;text-align:left}</style></head><body>\n", f);
    fprintf(f, "<h1 style=\"color:%s\">%s</h1>\n<p class=\"fit\"><b>", v == SIGNOFF_VERDICT_PASS ? "#070"
                                                                   : v == SIGNOFF_VERDICT_INCOMPLETE ? "#a60"
                                                                                                     : "#b00",
            name);
    signoff_text(f, fmt, ratio);
    fputs("</b></p>\n<h1>", f);
    signoff_text(f, fmt, title);
    fputs("</h1>\n", f);
  } else {
    fprintf(f, "# %s\n\n**%s**\n\n# Sign-off of %s\n", name, ratio ? ratio : "", s->arch);
  }
  free(ratio);
  char tool[128];
  snprintf(tool, sizeof tool, "Tool: tcpa %s (git %s).", version_tool(), version_git_rev());
  fputs(fmt == SIGNOFF_HTML ? "<p>" : "\n", f);
  signoff_text(f, fmt, tool);
  fputs(fmt == SIGNOFF_HTML ? "</p>\n" : "\n", f);
}

/* Writes the table of steps and the paragraph on the suite. */
static void signoff_report_steps(FILE *f, signoff_fmt fmt, const signoff_state *s) {
  signoff_heading(f, fmt, "Steps");
  static const char *const hd[] = {"step", "result", "detail", "log", "seconds"};
  signoff_table(f, fmt, 0);
  signoff_row(f, fmt, 1, 5, hd);
  for (int i = 0; i < SIGNOFF_ST_N; i++) {
    const signoff_step *st = &s->st[i];
    char sec[32] = "";
    if (st->ran) snprintf(sec, sizeof sec, "%.0f", st->seconds);
    const char *row[] = {st->name, !st->ran ? "skipped" : st->ok ? "pass" : "FAIL",
                         st->ran ? st->detail : "(an earlier step failed)", st->log, sec};
    signoff_row(f, fmt, 0, 5, row);
  }
  signoff_table(f, fmt, 1);
  char text[SIGNOFF_PATH];
  snprintf(text, sizeof text, "Suite %s in cosim on every region of the array (-j %d); JUnit XML: junit.xml; the "
                              "regression's own report: regress/report.html. Wall time of the sign-off: %.0f s.",
           s->suite, s->jobs, s->seconds);
  fputs(fmt == SIGNOFF_HTML ? "<p>" : "\n", f);
  signoff_text(f, fmt, text);
  fputs(fmt == SIGNOFF_HTML ? "</p>\n" : "\n", f);
}

/* Writes the table of Yosys cells per module (none without synthesis). */
static void signoff_report_cells(FILE *f, signoff_fmt fmt, const signoff_state *s) {
  if (!s->ncells) return;
  signoff_heading(f, fmt, "Synthesis: Yosys cells per module");
  static const char *const ch[] = {"module", "cells", "variants"};
  signoff_table(f, fmt, 0);
  signoff_row(f, fmt, 1, 3, ch);
  for (int i = 0; i < s->ncells; i++) {
    const char *row[] = {s->cells[i][0], s->cells[i][1], s->cells[i][2]};
    signoff_row(f, fmt, 0, 3, row);
  }
  char tot[32];
  snprintf(tot, sizeof tot, "%ld", s->total_cells);
  const char *row[] = {"TOTAL (flattened)", tot, ""};
  signoff_row(f, fmt, 0, 3, row);
  signoff_table(f, fmt, 1);
}

/* Writes the whole report in one format. */
static void signoff_report(FILE *f, signoff_fmt fmt, const signoff_state *s, signoff_verdict v) {
  signoff_report_title(f, fmt, s, v);
  if (s->tp) signoff_report_testplan_line(f, fmt, s);
  signoff_report_steps(f, fmt, s);
  signoff_report_failures(f, fmt, s);
  signoff_report_fit(f, fmt, s);
  signoff_report_nofit(f, fmt, s);
  if (s->st[SIGNOFF_ST_COVER].ok) signoff_report_coverage(f, fmt, s);
  if (s->fcov.n) signoff_report_fcov(f, fmt, s);
  if (s->tp) signoff_report_testplan(f, fmt, s);
  signoff_report_cells(f, fmt, s);
  if (fmt == SIGNOFF_HTML) fputs("</body></html>\n", f);
}

/* Returns 0 after writing DIR/name in format fmt; -1. */
static int signoff_report_file(const signoff_state *s, const char *name, signoff_fmt fmt, signoff_verdict v) {
  char path[SIGNOFF_PATH];
  datafile_tmp t;
  if (datafile_tmp_open(&t, signoff_path(path, s, name))) return -1;
  signoff_report(t.f, fmt, s, v);
  return datafile_tmp_commit(&t);
}

/* Returns 0 after writing DIR/report.md and DIR/report.html; -1. */
int signoff_report_write(const signoff_state *s, signoff_verdict v) {
  return signoff_report_file(s, "report.md", SIGNOFF_MD, v) | signoff_report_file(s, "report.html", SIGNOFF_HTML, v);
}
