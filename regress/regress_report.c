/*
 * regress_report.c: the outputs of `tcpa regress` (regress_report.h).
 *
 * Buckets: the runs that do not meet their expectation, grouped by the
 * one-line form of their signature (regress_signature_text), largest
 * bucket first, ties in order of first appearance.
 *
 * junit.xml follows the common JUnit schema: <testsuites> with a
 * <testsuite> per suite name; a run that is ok has no child (or <skipped>
 * when it did not fit, as allowed); verdict fail is a <failure> whose type
 * is the signature; invalid, timeout and crash are <error>s. Every
 * testcase carries the seed and the command line in <properties> and
 * <system-out>.
 *
 * Both carry the tool's version and git revision (version.h): summary.json
 * as tool_version and git_revision, junit.xml as <property>s of each
 * <testsuite>.
 *
 * report.html has no external reference: CSS in a <style>, plots as
 * inline <svg> scatter plots (one colour per program, a legend) drawn by
 * report_svg_scatter. It lists the ten slowest runs, and links each run's
 * files that exist when it is written (stdout.txt, stderr.txt,
 * divergence.txt, rtl.fst, model.fst, divergence.gtkw) by paths relative
 * to the report's directory (realpath of both, then "../" up to their
 * common ancestor: a merged report links into the shards' directories).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "datafile.h"
#include "diag.h"
#include "fcov.h"
#include "json.h"
#include "regress_exec.h"
#include "regress_fit.h"
#include "regress_json.h"
#include "regress_report.h"
#include "version.h"

static void report_escape(FILE *f, const char *s);

/* A bucket of failures with one root cause (regress_report_bucket_key). */
typedef struct {
  char *text;
  const regress_signature *sig;
  size_t *runs;
  size_t n;
} report_bucket;

char *regress_report_bucket_key(const regress_signature *s) {
  regress_signature k = *s;
  k.unit = s->unit_class ? s->unit_class : "";
  return regress_signature_text(&k);
}

/* Returns the buckets of l (sorted) in *out and their count. */
static size_t report_buckets_make(const regress_list *l, report_bucket **out) {
  report_bucket *b = calloc(l->n + 1, sizeof *b);
  size_t nb = 0;
  for (size_t i = 0; b && i < l->n; i++) {
    if (l->v[i].ok || l->v[i].verdict == REGRESS_PENDING) continue;
    char *t = regress_report_bucket_key(&l->v[i].sig);
    size_t k = 0;
    while (k < nb && strcmp(b[k].text, t)) k++;
    if (k == nb) {
      b[nb].text = t;
      b[nb].sig = &l->v[i].sig;
      b[nb].runs = calloc(l->n, sizeof *b[nb].runs);
      nb++;
    } else {
      free(t);
    }
    if (b[k].runs) b[k].runs[b[k].n++] = i;
  }
  /* stable: largest first (insertion sort keeps ties in order) */
  for (size_t i = 1; i < nb; i++) {
    report_bucket x = b[i];
    size_t j = i;
    while (j > 0 && b[j - 1].n < x.n) {
      b[j] = b[j - 1];
      j--;
    }
    b[j] = x;
  }
  *out = b;
  return nb;
}

/* Returns the number of distinct units (coordinates) of bucket b's runs,
 * after writing them with their run counts to f ("side n bank 0 (58),
 * side w bank 0 (12)"; esc: HTML-escaped). */
static size_t report_bucket_units(FILE *f, const regress_list *l, const report_bucket *b, int esc) {
  size_t shown = 0;
  for (size_t k = 0; k < b->n; k++) {
    const char *u = l->v[b->runs[k]].sig.unit ? l->v[b->runs[k]].sig.unit : "";
    size_t first = k, count = 0;
    for (size_t j = 0; j < b->n; j++) {
      const char *v = l->v[b->runs[j]].sig.unit ? l->v[b->runs[j]].sig.unit : "";
      if (!strcmp(u, v)) {
        if (j < first) first = j;
        count++;
      }
    }
    if (first != k || !*u) continue;
    if (f) {
      fputs(shown ? ", " : "", f);
      if (esc) report_escape(f, u);
      else fputs(u, f);
      fprintf(f, " (%zu)", count);
    }
    shown++;
  }
  return shown;
}

/* Frees buckets. */
static void report_buckets_free(report_bucket *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(b[i].text);
    free(b[i].runs);
  }
  free(b);
}

size_t regress_report_buckets(const regress_list *l) {
  report_bucket *b;
  size_t n = report_buckets_make(l, &b);
  report_buckets_free(b, n);
  return n;
}

/* Writes s with the XML/HTML special characters escaped (and control
 * characters other than tab and newline dropped). */
static void report_escape(FILE *f, const char *s) {
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '<') fputs("&lt;", f);
    else if (c == '>') fputs("&gt;", f);
    else if (c == '&') fputs("&amp;", f);
    else if (c == '"') fputs("&quot;", f);
    else if (c == '\'') fputs("&#39;", f);
    else if (c < 0x20 && c != '\n' && c != '\t') continue;
    else fputc(c, f);
  }
}

/* Counts runs per verdict into n[] (indexed by regress_verdict); returns
 * the number not ok. */
static size_t report_counts(const regress_list *l, size_t n[7]) {
  size_t bad = 0;
  memset(n, 0, 7 * sizeof *n);
  for (size_t i = 0; i < l->n; i++) {
    n[l->v[i].verdict]++;
    bad += !l->v[i].ok;
  }
  return bad;
}

size_t regress_report_nofit_at_bound(const regress_list *l) {
  size_t at = 0;
  for (size_t i = 0; i < l->n; i++)
    at += l->v[i].verdict == REGRESS_NOFIT && l->v[i].nofit && fit_record_at_bound(l->v[i].nofit);
  return at;
}

/* Writes the <testcase> of run r. */
static void report_junit_case(FILE *f, const regress_run *r) {
  char *cmd = regress_exec_command(r), *sig = regress_signature_text(&r->sig);
  fputs("    <testcase classname=\"", f);
  report_escape(f, r->suite);
  fputc('.', f);
  report_escape(f, r->name);
  fputs("\" name=\"", f);
  report_escape(f, r->id);
  fprintf(f, "\" time=\"%.3f\">\n", r->seconds);
  fprintf(f, "      <properties><property name=\"seed\" value=\"%" PRIu64 "\"/>"
             "<property name=\"verdict\" value=\"%s\"/></properties>\n",
          r->seed, regress_verdict_name(r->verdict));
  const char *msg = r->message ? r->message : "";
  if (r->verdict == REGRESS_NOFIT && r->ok) {
    fputs("      <skipped message=\"does not fit: ", f);
    report_escape(f, msg);
    fputs("\"/>\n", f);
  } else if (!r->ok) {
    int failure = r->verdict == REGRESS_FAIL || r->verdict == REGRESS_NOFIT || r->verdict == REGRESS_PASS;
    const char *tag = failure ? "failure" : "error";
    fprintf(f, "      <%s type=\"", tag);
    report_escape(f, *sig ? sig : regress_verdict_name(r->verdict));
    fputs("\" message=\"", f);
    report_escape(f, regress_verdict_name(r->verdict));
    fputs(": ", f);
    report_escape(f, *msg ? msg : sig);
    fputs("\">", f);
    report_escape(f, sig);
    fprintf(f, "</%s>\n", tag);
  }
  fputs("      <system-out>", f);
  report_escape(f, cmd);
  fprintf(f, "\nseed %" PRIu64 "\ndirectory ", r->seed);
  report_escape(f, r->dir);
  fputs("\n</system-out>\n    </testcase>\n", f);
  free(cmd);
  free(sig);
}

/* Writes junit.xml's content. */
static void report_junit(FILE *f, const regress_list *l) {
  size_t n[7];
  report_counts(l, n);
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"tcpa regress\">\n", f);
  for (size_t i = 0; i < l->n; i++) {
    int first = 1;
    for (size_t k = 0; k < i; k++)
      if (!strcmp(l->v[k].suite, l->v[i].suite)) first = 0;
    if (!first) continue;
    size_t tests = 0, fail = 0, err = 0, skip = 0;
    double t = 0;
    for (size_t k = i; k < l->n; k++) {
      const regress_run *r = &l->v[k];
      if (strcmp(r->suite, l->v[i].suite)) continue;
      tests++;
      t += r->seconds;
      if (r->verdict == REGRESS_NOFIT && r->ok) skip++;
      else if (!r->ok && (r->verdict == REGRESS_FAIL || r->verdict == REGRESS_NOFIT || r->verdict == REGRESS_PASS))
        fail++;
      else if (!r->ok) err++;
    }
    fputs("  <testsuite name=\"", f);
    report_escape(f, l->v[i].suite);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\">\n", tests, fail,
            err, skip, t);
    fputs("    <properties><property name=\"tool\" value=\"tcpa regress\"/><property name=\"tool_version\" value=\"", f);
    report_escape(f, version_tool());
    fputs("\"/><property name=\"git_revision\" value=\"", f);
    report_escape(f, version_git_rev());
    fputs("\"/></properties>\n", f);
    for (size_t k = i; k < l->n; k++)
      if (!strcmp(l->v[k].suite, l->v[i].suite)) report_junit_case(f, &l->v[k]);
    fputs("  </testsuite>\n", f);
  }
  fputs("</testsuites>\n", f);
}

/* Writes an integer field, null when negative. */
static void report_json_int(json_writer *w, const char *key, int64_t v) {
  if (v < 0) json_writer_null(w, key);
  else json_writer_int(w, key, v);
}

/* Writes the signature object of r (null when none). */
static void report_json_sig(json_writer *w, const regress_signature *s) {
  if (!s->check) {
    json_writer_null(w, "signature");
    return;
  }
  char *t = regress_signature_text(s);
  json_writer_begin_object(w, "signature");
  json_writer_string(w, "text", t);
  json_writer_string(w, "check", s->check);
  json_writer_string(w, "kind", s->kind ? s->kind : "");
  json_writer_string(w, "unit", s->unit ? s->unit : "");
  json_writer_string(w, "unit_class", s->unit_class ? s->unit_class : "");
  json_writer_string(w, "stage", s->stage ? s->stage : "");
  json_writer_string(w, "diff", s->diff ? s->diff : "");
  json_writer_end_object(w);
  free(t);
}

/* Writes one run object. */
static void report_json_run(json_writer *w, const regress_run *r) {
  char *cmd = regress_exec_command(r);
  json_writer_begin_object(w, NULL);
  json_writer_string(w, "id", r->id);
  json_writer_string(w, "suite", r->suite);
  json_writer_string(w, "program", r->program);
  json_writer_string(w, "name", r->name);
  json_writer_string(w, "params", r->params);
  json_writer_string(w, "pes", r->pes);
  if (r->map) json_writer_string(w, "map", r->map);
  else json_writer_null(w, "map");
  json_writer_string(w, "arch", r->arch);
  json_writer_string(w, "engine", r->engine);
  json_writer_uint(w, "seed", r->seed);
  json_writer_string(w, "expect", regress_expect_name(r->expect));
  json_writer_int(w, "timeout", r->timeout);
  json_writer_int(w, "window", r->window);
  json_writer_bool(w, "waves", r->waves);
  json_writer_bool(w, "keep_traces", r->keep_traces);
  json_writer_string(w, "where", r->where ? r->where : "");
  json_writer_string(w, "verdict", regress_verdict_name(r->verdict));
  json_writer_bool(w, "ok", r->ok);
  json_writer_int(w, "exit", r->exit_code);
  json_writer_int(w, "signal", r->term_signal);
  json_writer_double(w, "seconds", r->seconds);
  if (r->message) json_writer_string(w, "message", r->message);
  else json_writer_null(w, "message");
  if (r->nofit) regress_fit_write(w, "nofit", r->nofit);
  else json_writer_null(w, "nofit");
  report_json_sig(w, &r->sig);
  report_json_int(w, "cycles", r->cycles);
  report_json_int(w, "pes_used", r->pes_used);
  if (r->line) json_writer_string(w, "line", r->line);
  else json_writer_null(w, "line");
  report_json_int(w, "ii", r->ii);
  report_json_int(w, "config_bytes", r->config_bytes);
  if (r->inst_seconds < 0) json_writer_null(w, "instantiate_seconds");
  else json_writer_double(w, "instantiate_seconds", r->inst_seconds);
  json_writer_string(w, "dir", r->dir ? r->dir : "");
  json_writer_string(w, "command", cmd);
  json_writer_end_object(w);
  free(cmd);
}

/* Writes summary.json's content. */
static void report_json(FILE *f, const regress_list *l, const char *shard, double harness_seconds) {
  size_t n[7], bad = report_counts(l, n);
  report_bucket *b;
  size_t nb = report_buckets_make(l, &b);
  json_writer w = json_writer_make(f);
  json_writer_begin_object(&w, NULL);
  json_writer_string(&w, "tool", "tcpa regress");
  json_writer_string(&w, "tool_version", version_tool());
  json_writer_string(&w, "git_revision", version_git_rev());
  if (shard) json_writer_string(&w, "shard", shard);
  else json_writer_null(&w, "shard");
  json_writer_double(&w, "harness_build_seconds", harness_seconds); /* apart from every run's seconds */
  json_writer_int(&w, "total", (int64_t)l->n);
  json_writer_int(&w, "not_ok", (int64_t)bad);
  json_writer_bool(&w, "ok", bad == 0);
  json_writer_begin_object(&w, "counts");
  for (int v = REGRESS_PENDING; v <= REGRESS_CRASH; v++)
    json_writer_int(&w, regress_verdict_name((regress_verdict)v), (int64_t)n[v]);
  json_writer_end_object(&w);
  json_writer_begin_array(&w, "buckets");
  for (size_t i = 0; i < nb; i++) {
    json_writer_begin_object(&w, NULL);
    json_writer_int(&w, "count", (int64_t)b[i].n);
    json_writer_string(&w, "key", b[i].text);
    report_json_sig(&w, b[i].sig);
    json_writer_begin_array(&w, "units"); /* the coordinates the root cause showed at */
    for (size_t k = 0; k < b[i].n; k++) {
      const char *u = l->v[b[i].runs[k]].sig.unit;
      size_t count = 0, j = 0;
      while (j < k && strcmp(l->v[b[i].runs[j]].sig.unit ? l->v[b[i].runs[j]].sig.unit : "", u ? u : "")) j++;
      if (j < k || !u || !*u) continue;
      for (j = k; j < b[i].n; j++) count += !strcmp(l->v[b[i].runs[j]].sig.unit ? l->v[b[i].runs[j]].sig.unit : "", u);
      json_writer_begin_object(&w, NULL);
      json_writer_string(&w, "unit", u);
      json_writer_int(&w, "runs", (int64_t)count);
      json_writer_end_object(&w);
    }
    json_writer_end_array(&w);
    json_writer_begin_array(&w, "runs");
    for (size_t k = 0; k < b[i].n; k++) json_writer_string(&w, NULL, l->v[b[i].runs[k]].id);
    json_writer_end_array(&w);
    json_writer_end_object(&w);
  }
  json_writer_end_array(&w);
  json_writer_begin_array(&w, "runs");
  for (size_t i = 0; i < l->n; i++) report_json_run(&w, &l->v[i]);
  json_writer_end_array(&w);
  json_writer_end_object(&w);
  fputc('\n', f);
  report_buckets_free(b, nb);
}

/* A point of a scatter plot. */
typedef struct {
  double x, y;
  const char *series;
} report_point;

/* Returns a "nice" upper bound >= v for an axis (1, 2, 5 times 10^k). */
static double report_nice(double v) {
  if (v <= 0) return 1;
  double p = pow(10, floor(log10(v)));
  for (int i = 0; i < 3; i++) {
    double m = (double[]){1, 2, 5}[i] * p;
    if (m >= v) return m;
  }
  return 10 * p;
}

/* Returns the colour of series number k. */
static const char *report_colour(size_t k) {
  static const char *const c[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                  "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"};
  return c[k % (sizeof c / sizeof *c)];
}

/* Writes an inline SVG scatter plot of the points (one colour per series,
 * a legend on the right). */
static void report_svg_scatter(FILE *f, const report_point *p, size_t n, const char *xlabel, const char *ylabel) {
  const double W = 640, H = 320, L = 70, R = 170, T = 15, B = 45;
  double xmax = 1, ymax = 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i].x > xmax) xmax = p[i].x;
    if (p[i].y > ymax) ymax = p[i].y;
  }
  xmax = ceil(xmax);
  ymax = report_nice(ymax);
  double pw = W - L - R, ph = H - T - B;
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-size=\"11\" "
             "font-family=\"sans-serif\">\n", W, H);
  fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#444\"/>\n", L, T,
          pw, ph);
  for (int k = 0; k <= 4; k++) {
    double y = T + ph - ph * k / 4, v = ymax * k / 4;
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>", L, y, L + pw, y);
    fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 4, y + 4, v);
  }
  int xstep = xmax > 20 ? (int)ceil(xmax / 10) : 1;
  for (int x = 1; x <= (int)xmax; x += xstep) {
    double px = L + pw * x / (xmax + 1);
    fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%d</text>\n", px, T + ph + 14, x);
  }
  fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">", L + pw / 2, H - 8);
  report_escape(f, xlabel);
  fprintf(f, "</text>\n<text x=\"14\" y=\"%.0f\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.0f)\">",
          T + ph / 2, T + ph / 2);
  report_escape(f, ylabel);
  fputs("</text>\n", f);
  const char *seen[64];
  size_t nseen = 0;
  for (size_t i = 0; i < n; i++) {
    size_t k = 0;
    while (k < nseen && strcmp(seen[k], p[i].series)) k++;
    if (k == nseen && nseen < 64) {
      seen[nseen++] = p[i].series;
      double ly = T + 12 + 14 * (double)k;
      fprintf(f, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"4\" fill=\"%s\"/><text x=\"%.0f\" y=\"%.0f\">", L + pw + 14,
              ly - 4, report_colour(k), L + pw + 22, ly);
      report_escape(f, p[i].series);
      fputs("</text>\n", f);
    }
    double px = L + pw * p[i].x / (xmax + 1), py = T + ph - ph * p[i].y / ymax;
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" fill-opacity=\"0.75\"><title>", px, py,
            report_colour(k));
    report_escape(f, p[i].series);
    fprintf(f, ": %g at %g PEs</title></circle>\n", p[i].y, p[i].x);
  }
  if (n == 0) fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">no data</text>\n", L + pw / 2, T + ph / 2);
  fputs("</svg>\n", f);
}

/* Returns the number of PEs of r for the plots: those used, else the
 * region's R*C. */
static double report_pes(const regress_run *r) {
  if (r->pes_used > 0) return (double)r->pes_used;
  int a = 1, b = 1;
  sscanf(r->pes, "%dx%d", &a, &b);
  return (double)a * b;
}

/* Writes the two plots of report.html; a plot without points is left
 * out, with the reason. */
static void report_html_plots(FILE *f, const regress_list *l, const regress_report_info *info) {
  report_point *p = calloc(l->n + 1, sizeof *p);
  size_t n = 0, timed = 0;
  if (!p) return;
  for (size_t i = 0; i < l->n; i++)
    if (l->v[i].verdict == REGRESS_PASS && l->v[i].cycles > 0)
      p[n++] = (report_point){report_pes(&l->v[i]), (double)l->v[i].cycles, l->v[i].name};
  fputs("<h2>Cycles against PEs</h2>\n", f);
  if (n) {
    fputs("<p>Passing engine runs: cycles to the last output written (summary.json <code>cycles</code>) against "
          "the PEs used; one colour per program.</p>\n", f);
    report_svg_scatter(f, p, n, "PEs used", "cycles");
  } else {
    fputs("<p>No plot: no engine run passed (the plot shows passing runs only).</p>\n", f);
  }
  for (size_t i = 0; i < l->n; i++) timed += l->v[i].inst_seconds >= 0;
  n = 0;
  for (size_t i = 0; i < l->n; i++) {
    const regress_run *r = &l->v[i];
    if (r->verdict != REGRESS_PASS || !strcmp(r->engine, "ref")) continue;
    if (timed && r->inst_seconds < 0) continue;
    p[n++] = (report_point){report_pes(r), (timed ? r->inst_seconds : r->seconds) * 1000, r->name};
  }
  if (timed) {
    fputs("<h2>Instantiation time against PEs</h2>\n<p>Wall time of <code>tcpa instantiate</code> (its "
          "<code>--time</code> figure: instantiation alone, the symbolic configuration compiled beforehand) "
          "for each passing engine run, against the PEs used.</p>\n", f);
    report_svg_scatter(f, p, n, "PEs used", "instantiate (ms)");
  } else if (n) {
    fprintf(f, "<h2>Run time against PEs</h2>\n<p>%s; this is the wall time of the whole <code>tcpa run</code> "
               "of each passing engine run instead.</p>\n",
            info->merged ? "The merged regressions carry no instantiation time"
            : info->time_inst ? "No passing engine run was timed"
                              : "Instantiation was not timed (--no-time-instantiate)");
    report_svg_scatter(f, p, n, "PEs used", "tcpa run (ms)");
  } else {
    fprintf(f, "<h2>Instantiation time against PEs</h2>\n<p>No plot: %s.</p>\n",
            info->time_inst && !info->merged
                ? "instantiation is timed after each passing engine run (not ref), and none passed"
                : "no engine run passed");
  }
  free(p);
}

/* Writes into out (size sz) the relative path from directory base to
 * target, both absolute and canonical (realpath): "ID", "../shard1/ID". */
static void report_relpath(const char *base, const char *target, char *out, size_t sz) {
  size_t i = 0, common;
  while (base[i] && base[i] == target[i]) i++;
  if ((base[i] == '\0' && (target[i] == '/' || target[i] == '\0')) || (base[i] == '/' && target[i] == '\0'))
    common = i;
  else {
    common = i;
    while (common > 0 && base[common] != '/') common--;
  }
  size_t n = 0;
  out[0] = '\0';
  for (const char *s = base + common; *s; s++)
    if (*s != '/' && (s == base || s[-1] == '/') && n + 4 < sz) n += (size_t)snprintf(out + n, sz - n, "../");
  const char *rest = target + common;
  while (*rest == '/') rest++;
  snprintf(out + n, sz - n, "%s", *rest || n ? rest : ".");
  if (n && !*rest) out[n - 1] = '\0'; /* "../.." without the trailing slash */
}

/* Writes s as a URL path: bytes other than [A-Za-z0-9._~/-] %-encoded. */
static void report_url(FILE *f, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("._~/-", c))
      fputc(c, f);
    else
      fprintf(f, "%%%02X", c);
  }
}

/* The files of a run the report links when they exist (a name ending in
 * '/' is a directory), with their link texts; the legend explains each. */
static const char *const report_files[][3] = {
    {"stdout.txt", "stdout", "the run's standard output"},
    {"stderr.txt", "stderr", "its standard error (errors, the reason it did not fit)"},
    {"divergence.txt", "divergence", "the first divergence of model and RTL, with its unit (cosim)"},
    {"compare.gtkw", "compare.gtkw", "GTKWave save file: model above RTL at the divergence (tcpa wave DIR)"},
    {"compare.fst", "compare.fst", "model and RTL waveforms merged around the divergence"},
    {"rtl.fst", "rtl.fst", "the RTL's waveform"},
    {"model.fst", "model.fst", "the C model's waveform"},
    {"divergence.gtkw", "gtkw", "GTKWave save file of the divergence window"},
    {"repro/", "repro/", "the reproduction bundle: inputs, stream, repro.sh, the report and waveforms"}};

/* Writes links, relative to the report directory `base` (canonical; NULL:
 * none), to the files of run r that exist (report_files). */
static void report_html_links(FILE *f, const regress_run *r, const char *base) {
  char *rd = base && r->dir ? realpath(r->dir, NULL) : NULL;
  if (!rd) return;
  char rel[PATH_MAX], path[PATH_MAX + 32];
  report_relpath(base, rd, rel, sizeof rel);
  int first = 1;
  for (size_t k = 0; k < sizeof report_files / sizeof *report_files; k++) {
    struct stat st;
    const char *name = report_files[k][0];
    int want_dir = name[strlen(name) - 1] == '/';
    snprintf(path, sizeof path, "%s/%s", rd, name);
    if (stat(path, &st) || !(want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode))) continue;
    fputs(first ? "" : " ", f);
    fputs("<a href=\"", f);
    report_url(f, rel);
    fprintf(f, "/%s\">%s</a>", name, report_files[k][1]);
    first = 0;
  }
  free(rd);
}

/* Writes the table of the ten slowest runs that ran (wall time of tcpa
 * run), slowest first, with the links to their files. */
static void report_html_slowest(FILE *f, const regress_list *l, const char *base) {
  enum { SLOWEST = 10 };
  size_t top[SLOWEST], n = 0;
  for (size_t i = 0; i < l->n; i++) {
    if (l->v[i].verdict == REGRESS_PENDING) continue;
    size_t j = n < SLOWEST ? n++ : SLOWEST;
    while (j > 0 && l->v[top[j - 1]].seconds < l->v[i].seconds) {
      if (j < SLOWEST) top[j] = top[j - 1];
      j--;
    }
    if (j < SLOWEST) top[j] = i;
  }
  fprintf(f, "<h2>Slowest runs</h2>\n<p>The %zu slowest runs (wall time of <code>tcpa run</code>).</p>\n"
             "<table class=\"slowest\"><tr><th>#</th><th>run</th><th>verdict</th><th>s</th><th>files</th></tr>\n", n);
  for (size_t k = 0; k < n; k++) {
    const regress_run *r = &l->v[top[k]];
    fprintf(f, "<tr class=\"%s\"><td>%zu</td><td>", regress_verdict_name(r->verdict), k + 1);
    report_escape(f, r->id);
    fprintf(f, "</td><td>%s</td><td>%.2f</td><td>", regress_verdict_name(r->verdict), r->seconds);
    report_html_links(f, r, base);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
}

/* Writes s as an HTML id fragment ("run-" and s, characters outside
 * [A-Za-z0-9._-] as '-'). */
static void report_anchor(FILE *f, const char *s) {
  fputs("run-", f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    int okc = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("._-", c);
    fputc(okc ? c : '-', f);
  }
}

/* Writes a link to the row of run id in the table of runs. */
static void report_run_link(FILE *f, const char *id) {
  fputs("<a href=\"#", f);
  report_anchor(f, id);
  fputs("\">", f);
  report_escape(f, id);
  fputs("</a>", f);
}

/* Writes the header: the tool, its version and git revision, when and
 * from where the regression was written (its commands are relative to
 * that directory). */
static void report_html_header(FILE *f, const regress_list *l, const char *title, const char *dir) {
  char when[64] = "", cwd[PATH_MAX] = "";
  time_t now = time(NULL);
  struct tm tm;
  if (gmtime_r(&now, &tm)) strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
  if (!getcwd(cwd, sizeof cwd)) snprintf(cwd, sizeof cwd, "?");
  fputs("<h1>", f);
  report_escape(f, title);
  fputs("</h1>\n<table class=\"meta\"><tr><th>tool</th><td>tcpa regress ", f);
  report_escape(f, version_tool());
  fputs("</td></tr>\n<tr><th>git revision</th><td>", f);
  report_escape(f, version_git_rev());
  fputs("</td></tr>\n<tr><th>written</th><td>", f);
  report_escape(f, when);
  fputs("</td></tr>\n<tr><th>run from</th><td><code>", f);
  report_escape(f, cwd);
  fputs("</code> (the commands below are relative to it)</td></tr>\n<tr><th>output</th><td><code>", f);
  report_escape(f, dir);
  fputs("</code></td></tr>\n<tr><th>suites</th><td>", f);
  for (size_t i = 0; i < l->n; i++) {
    int first = 1;
    for (size_t k = 0; k < i && first; k++) first = strcmp(l->v[k].suite, l->v[i].suite) != 0;
    if (!first) continue;
    fputs(i ? ", " : "", f);
    report_escape(f, l->v[i].suite);
  }
  fputs("</td></tr>\n</table>\n", f);
}

#define REPORT_FCOV_HOLES 8 /* holes per group in the report; fcov.txt has all */

/* Writes the coverage summary: the functional coverage of dir/fcov.json
 * (the regression's, merged: totals, then every group with its holes) and
 * where line and toggle coverage are. */
static void report_html_coverage(FILE *f, const char *dir) {
  char path[PATH_MAX + 16], msg[600];
  fcov_set s = {0};
  fputs("<h2>Coverage</h2>\n", f);
  snprintf(path, sizeof path, "%s/fcov.json", dir);
  if (access(path, R_OK) == 0 && fcov_load(&s, path, msg, sizeof msg) == 0) {
    size_t hit, all;
    fcov_totals(&s, &hit, &all);
    fprintf(f, "<p class=\"cov\">Functional coverage: <b>%zu of %zu bins hit (%.1f%%)</b> over %llu run%s "
               "(<a href=\"fcov.txt\">fcov.txt</a>, <a href=\"fcov.json\">fcov.json</a>; docs/regress.md "
               "\"Functional coverage\"). Per group, with its first holes (bins never hit; fcov.txt lists "
               "every one):</p>\n<pre class=\"fcov\">",
            hit, all, all ? 100.0 * (double)hit / (double)all : 0.0, (unsigned long long)s.runs,
            s.runs == 1 ? "" : "s");
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m) {
      fcov_report_text(m, &s, "", REPORT_FCOV_HOLES);
      fclose(m);
      report_escape(f, text);
    }
    free(text);
    fputs("</pre>\n", f);
  } else {
    fputs("<p class=\"cov\">Functional coverage: none (no run left fcov.json: ref runs, runs that do not fit "
          "and runs that did not start count nothing).</p>\n", f);
  }
  fcov_free(&s);
  const char *cov = getenv("TCPA_COVERAGE_DIR");
  if (cov && *cov) {
    fputs("<p class=\"cov\">Line and toggle coverage of the RTL: collected, each run's counters in <code>", f);
    report_escape(f, cov);
    fputs("</code> (the coverage harness; <code>tcpa signoff</code> merges them and reports per module).</p>\n", f);
  } else {
    fputs("<p class=\"cov\">Line and toggle coverage of the RTL: not collected by this regression (it needs the "
          "coverage harness: <code>tcpa signoff --arch A.ini --suite SUITE</code> collects and reports it).</p>\n",
          f);
  }
}

/* Writes the failure buckets: per root cause the run count, the key, the
 * units it showed at, and every member linked to its row. */
static void report_html_buckets(FILE *f, const regress_list *l, const report_bucket *b, size_t nb) {
  if (!nb) return;
  fputs("<h2>Failure buckets</h2>\n<p>Runs not as expected, grouped by root cause: the check and, for a "
        "divergence, the diverging event kind and the class of its unit (coordinates such as the side, "
        "bank, FU or register number dropped; the units column lists them), the pipeline stage and how it "
        "differs. Largest first.</p>\n<table class=\"buckets\"><tr><th>runs</th><th>root cause</th>"
        "<th>units (runs)</th><th>members</th></tr>\n", f);
  for (size_t i = 0; i < nb; i++) {
    fprintf(f, "<tr><td>%zu</td><td>", b[i].n);
    report_escape(f, *b[i].text ? b[i].text : "(none)");
    fputs("</td><td>", f);
    report_bucket_units(f, l, &b[i], 1);
    fputs("</td><td>", f);
    if (b[i].n > 8) fprintf(f, "<details><summary>%zu runs</summary>", b[i].n);
    for (size_t k = 0; k < b[i].n; k++) {
      fputs(k ? "<br>" : "", f);
      report_run_link(f, l->v[b[i].runs[k]].id);
    }
    if (b[i].n > 8) fputs("</details>", f);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
}

/* Writes the legend: every mark and colour of the report. */
static void report_html_legend(FILE *f) {
  fputs("<h2>Legend</h2>\n<table class=\"legend\">\n"
        "<tr><th>mark</th><th>meaning</th></tr>\n"
        "<tr class=\"pass\"><td>pass</td><td><code>tcpa run</code> exit 0: the outputs equal the reference's "
        "(and in cosim the model and the RTL agree event by event)</td></tr>\n"
        "<tr class=\"fail\"><td>fail</td><td>exit 1: outputs differ, or the engines diverged; the signature "
        "says which check</td></tr>\n"
        "<tr class=\"invalid\"><td>invalid</td><td>exit 2: invalid input (the message says which)</td></tr>\n"
        "<tr class=\"nofit\"><td>nofit</td><td>exit 3: the program does not fit the region; the message "
        "names the resource. Fine unless the run line says <code>expect=pass</code></td></tr>\n"
        "<tr class=\"timeout\"><td>timeout</td><td>killed after its timeout (<code>--timeout</code>, "
        "<code>timeout=</code>)</td></tr>\n"
        "<tr class=\"crash\"><td>crash</td><td>killed by a signal, or another exit status</td></tr>\n"
        "<tr class=\"pending\"><td>pending</td><td>not run (the regression was interrupted)</td></tr>\n"
        "<tr><td>(!)</td><td>the run is <b>not as expected</b>: its verdict does not meet the run line's "
        "<code>expect=</code> (any: pass or nofit; pass: pass; nofit: nofit). Only these make the regression "
        "FAIL and fall into buckets</td></tr>\n"
        "<tr><td>PASS / FAIL</td><td>every run as expected / at least one not</td></tr>\n"
        "<tr><td>cycles</td><td>summary.json <code>cycles</code>: the cycle of the last output written</td></tr>\n"
        "<tr><td>PEs</td><td>PEs used by the mapping (of the region's R&times;C)</td></tr>\n"
        "<tr><td>II</td><td>initiation interval of the schedule</td></tr>\n"
        "<tr><td>stream</td><td>bytes of the configuration stream</td></tr>\n"
        "<tr><td>s</td><td>wall time of <code>tcpa run</code> in seconds</td></tr>\n"
        "<tr><td>reproduce</td><td>the <code>tcpa run</code> command line of the run, from the directory the "
        "regression ran in (its seed included)</td></tr>\n", f);
  for (size_t k = 0; k < sizeof report_files / sizeof *report_files; k++)
    fprintf(f, "<tr><td>%s</td><td>%s</td></tr>\n", report_files[k][1], report_files[k][2]);
  fputs("</table>\n", f);
}

/* Writes report.html's content; dir is the report's directory. */
static void report_html(FILE *f, const regress_list *l, const regress_report_info *info, const char *dir) {
  size_t n[7], bad = report_counts(l, n);
  report_bucket *b;
  size_t nb = report_buckets_make(l, &b);
  fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", f);
  report_escape(f, info->title);
  fputs("</title>\n<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin-bottom:1em}"
        "td,th{border:1px solid #ccc;padding:2px 6px;font-size:90%;text-align:left;vertical-align:top}"
        ".pass{background:#dfd}.fail,.crash,.timeout,.invalid{background:#fdd}.nofit{background:#eee}"
        ".pending{background:#ffd}.verdict{font-size:150%;font-weight:bold}pre{background:#f6f6f6;padding:6px;white-space:pre-wrap}"
        "code{font-size:90%}:target{outline:2px solid #36c}</style></head><body>\n", f);
  report_html_header(f, l, info->title, dir);
  fprintf(f, "<p class=\"verdict\">%s</p>\n<p>%zu runs: %zu pass, %zu fail, %zu invalid, %zu nofit, "
             "%zu timeout, %zu crash, %zu not run; %zu not as expected (marked (!)), in %zu bucket%s.</p>\n",
          bad ? "FAIL" : "PASS", l->n, n[REGRESS_PASS], n[REGRESS_FAIL], n[REGRESS_INVALID], n[REGRESS_NOFIT],
          n[REGRESS_TIMEOUT], n[REGRESS_CRASH], n[REGRESS_PENDING], bad, nb, nb == 1 ? "" : "s");
  if (n[REGRESS_NOFIT]) {
    size_t at = regress_report_nofit_at_bound(l);
    fprintf(f, "<p>nofit: %zu at a lower bound (no mapping fits: the architecture's), %zu above their bounds "
               "or with none known (the compiler's).</p>\n", at, n[REGRESS_NOFIT] - at);
  }
  if (bad) {
    fputs("<p>Rerun the runs not as expected, with the same seeds and waveforms on:</p>\n<pre class=\"rerun\">"
          "tcpa regress --rerun-failed ", f);
    report_escape(f, dir);
    fputs("</pre>\n", f);
  }
  report_html_buckets(f, l, b, nb);
  report_html_coverage(f, dir);
  char *base = realpath(dir, NULL);
  report_html_slowest(f, l, base);
  report_html_plots(f, l, info);
  fputs("<h2>Runs</h2>\n<table class=\"runs\"><tr><th>run</th><th>verdict</th><th>seed</th><th>cycles</th>"
        "<th>PEs</th><th>II</th><th>stream</th><th>s</th><th>signature / message</th><th>files</th>"
        "<th>reproduce</th></tr>\n", f);
  for (size_t i = 0; i < l->n; i++) {
    const regress_run *r = &l->v[i];
    char *sig = regress_signature_text(&r->sig), *cmd = regress_exec_command(r);
    fprintf(f, "<tr id=\"");
    report_anchor(f, r->id);
    fprintf(f, "\" class=\"%s\"><td>", regress_verdict_name(r->verdict));
    report_escape(f, r->id);
    fprintf(f, "</td><td>%s%s</td><td>%" PRIu64 "</td>", regress_verdict_name(r->verdict), r->ok ? "" : " (!)",
            r->seed);
    int64_t nums[] = {r->cycles, r->pes_used, r->ii, r->config_bytes};
    for (int k = 0; k < 4; k++)
      if (nums[k] >= 0) fprintf(f, "<td>%" PRId64 "</td>", nums[k]);
      else fputs("<td></td>", f);
    fprintf(f, "<td>%.2f</td><td>", r->seconds);
    report_escape(f, sig);
    if (*sig && r->message) fputs("<br>", f);
    report_escape(f, r->message);
    fputs("</td><td>", f);
    report_html_links(f, r, base);
    fputs("</td><td><code class=\"cmd\">", f);
    report_escape(f, cmd);
    fputs("</code></td></tr>\n", f);
    free(sig);
    free(cmd);
  }
  free(base);
  fputs("</table>\n", f);
  report_html_legend(f);
  fputs("</body></html>\n", f);
  report_buckets_free(b, nb);
}

/* Returns 0 after writing dir/name through fn; -1. */
static int report_file(const char *dir, const char *name,
                       void (*fn)(FILE *, const regress_list *, const regress_report_info *, const char *),
                       const regress_list *l, const regress_report_info *info) {
  size_t len = strlen(dir) + strlen(name) + 2;
  char *path = malloc(len);
  if (!path) return -1;
  snprintf(path, len, "%s/%s", dir, name);
  datafile_tmp t;
  int rc = -1;
  if (datafile_tmp_open(&t, path) == 0) {
    fn(t.f, l, info, dir);
    rc = datafile_tmp_commit(&t);
  }
  free(path);
  return rc;
}

/* Adapters to report_file's signature. */
static void report_junit_fn(FILE *f, const regress_list *l, const regress_report_info *info, const char *dir) {
  (void)info;
  (void)dir;
  report_junit(f, l);
}
static void report_json_fn(FILE *f, const regress_list *l, const regress_report_info *info, const char *dir) {
  (void)dir;
  report_json(f, l, info->shard, info->harness_seconds);
}

int regress_report_write(const regress_list *l, const char *dir, const regress_report_info *info) {
  if (report_file(dir, "junit.xml", report_junit_fn, l, info)) return -1;
  if (report_file(dir, "summary.json", report_json_fn, l, info)) return -1;
  return report_file(dir, "report.html", report_html, l, info);
}

/* Returns a copy of the string member key of o, or NULL. */
static char *report_str(const regress_json *o, const char *key) {
  const char *s = regress_json_str(o, key);
  return s ? regress_strdup(s) : NULL;
}

/* Returns the integer member key of o when it is exact and fits an int,
 * else dflt. */
static int report_int(const regress_json *o, const char *key, int dflt) {
  int64_t v = regress_json_i64(o, key, dflt);
  return v >= INT_MIN && v <= INT_MAX ? (int)v : dflt;
}

/* Returns 0 after reading run object o into r; -1 when a required field
 * is missing; -2 when its seed is not an integer from 0 to 2^64-1. */
static int report_run_read(const regress_json *o, regress_run *r) {
  r->id = report_str(o, "id");
  r->suite = report_str(o, "suite");
  r->program = report_str(o, "program");
  r->name = report_str(o, "name");
  r->params = report_str(o, "params");
  r->pes = report_str(o, "pes");
  r->map = report_str(o, "map");
  r->arch = report_str(o, "arch");
  r->engine = report_str(o, "engine");
  r->where = report_str(o, "where");
  r->message = report_str(o, "message");
  r->nofit = regress_fit_read(o, "nofit");
  r->dir = report_str(o, "dir");
  r->line = report_str(o, "line");
  if (!r->id || !r->suite || !r->program || !r->name || !r->params || !r->pes || !r->arch || !r->engine)
    return -1;
  if (regress_json_u64(o, "seed", &r->seed)) return -2;
  const char *ex = regress_json_str(o, "expect");
  r->expect = ex && !strcmp(ex, "pass") ? REGRESS_EXPECT_PASS
              : ex && !strcmp(ex, "nofit") ? REGRESS_EXPECT_NOFIT
                                           : REGRESS_EXPECT_ANY;
  r->timeout = report_int(o, "timeout", 0);
  r->window = report_int(o, "window", 0);
  const regress_json *waves = regress_json_get(o, "waves");
  r->waves = waves && waves->type == REGRESS_JSON_BOOL && waves->num != 0;
  const regress_json *keep = regress_json_get(o, "keep_traces");
  r->keep_traces = keep && keep->type == REGRESS_JSON_BOOL && keep->num != 0;
  r->verdict = regress_verdict_parse(regress_json_str(o, "verdict"));
  const regress_json *ok = regress_json_get(o, "ok");
  r->ok = ok && ok->type == REGRESS_JSON_BOOL && ok->num != 0;
  r->exit_code = report_int(o, "exit", -1);
  r->term_signal = report_int(o, "signal", 0);
  r->seconds = regress_json_num(o, "seconds", 0);
  r->cycles = regress_json_i64(o, "cycles", -1);
  r->pes_used = regress_json_i64(o, "pes_used", -1);
  r->ii = regress_json_i64(o, "ii", -1);
  r->config_bytes = regress_json_i64(o, "config_bytes", -1);
  r->inst_seconds = regress_json_num(o, "instantiate_seconds", -1);
  const regress_json *s = regress_json_get(o, "signature");
  if (s && s->type == REGRESS_JSON_OBJ) {
    r->sig.check = report_str(s, "check");
    r->sig.kind = report_str(s, "kind");
    r->sig.unit = report_str(s, "unit");
    r->sig.unit_class = report_str(s, "unit_class");
    r->sig.stage = report_str(s, "stage");
    r->sig.diff = report_str(s, "diff");
  }
  return 0;
}

int regress_report_load(const char *path, regress_list *l) {
  char msg[512];
  regress_json *j = regress_json_load(path, msg, sizeof msg);
  if (!j) {
    diag_error_plain("%s", msg);
    return -1;
  }
  const regress_json *runs = regress_json_get(j, "runs");
  int rc = 0;
  if (!runs || runs->type != REGRESS_JSON_ARR || !regress_json_str(j, "tool")) {
    diag_error_plain("%s: not the summary.json of a tcpa regress (no \"tool\" and \"runs\")", path);
    rc = -1;
  }
  for (size_t i = 0; !rc && i < runs->n; i++) {
    regress_run *r = regress_list_add(l);
    int st = r ? report_run_read(&runs->items[i], r) : -1;
    if (st == -2)
      diag_error_plain("%s: run %zu (%s): \"seed\" is not an integer from 0 to 2^64-1", path, i + 1, r->id);
    else if (st)
      diag_error_plain("%s: run %zu lacks a required field (id, suite, program, name, params, pes, arch, engine)",
                       path, i + 1);
    rc = st ? -1 : 0;
  }
  regress_json_free(j);
  return rc;
}
