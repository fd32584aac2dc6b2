/*
 * cli_signoff.c: `tcpa signoff --arch A.ini --out-dir DIR` (docs/regress.md
 * "Sign-off"): the checks an architecture configuration must pass, in
 * order, each step's output kept in DIR:
 *
 *   1. the RTL parameter package of A.ini (tcpa arch --sv), rewritten only
 *      when its text changes, so that make reuses earlier builds;
 *   2. lint: verilator --lint-only -Wall on the RTL with that package
 *      (DIR/lint.log);
 *   3. synthesis: scripts/synth.sh through the Makefile's SIGNOFF_DIR rule
 *      (Yosys cells per module and the flattened total, DIR/rtl/synth/);
 *   4. the Verilated harness with line and toggle coverage (tcpa-rtl-cov,
 *      the `cov` harness of the harness cache, engine_harness.c);
 *   5. the suite (default regress/suites/full) in cosim on A.ini, every run
 *      on every region A.ini offers (`tcpa regress --arch A.ini --engine
 *      cosim --pes all`), the RTL being the coverage harness (TCPA_RTL)
 *      writing its counters into DIR/cov (TCPA_COVERAGE_DIR);
 *   6. coverage: the counters merged by verilator_coverage into
 *      DIR/coverage.dat, line (line and block points) and toggle coverage
 *      counted per module from it.
 *
 * Then DIR/report.md and DIR/report.html (verdict PASS or FAIL at the top,
 * the tool's version and git revision (version.h), the steps, cells per module, coverage per module, the failure buckets,
 * and every run that does not fit with its resource: needed, available,
 * over by), and DIR/junit.xml (the regression's). A step that fails skips
 * the steps that need it. PASS: every step passed and every run met its
 * expectation. Exit 0 PASS, 1 FAIL, 2 invalid input (options, A.ini).
 * Runs from the project's root directory (rtl/, scripts/, Makefile).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "cli.h"
#include "cli_opt.h"
#include "datafile.h"
#include "diag.h"
#include "engine.h"
#include "fileio.h"
#include "regress.h"
#include "regress_report.h"
#include "signoff_nofit.h"
#include "version.h"

#define SIGNOFF_PATH 4096  /* buffers for paths inside DIR */
#define SIGNOFF_DIRLEN 2048 /* DIR itself (absolute); longer is refused */
#define SIGNOFF_MAX_MODULES 64

/* One step's outcome. */
typedef struct {
  const char *name;
  int ran, ok;
  double seconds; /* wall time of the step */
  char detail[512];
  const char *log; /* relative to DIR */
} signoff_step;

enum { ST_PARAMS, ST_LINT, ST_SYNTH, ST_BUILD, ST_REGRESS, ST_COVER, ST_N };

/* Coverage points of one module and type. */
typedef struct {
  char module[64];
  long line_hit, line_all, tog_hit, tog_all;
} signoff_cov;

/* Everything the report shows. */
typedef struct {
  const char *arch, *dir, *suite;
  char adir[SIGNOFF_DIRLEN];     /* absolute DIR */
  char rtl[SIGNOFF_DIRLEN + 8];  /* absolute DIR/rtl */
  char covbin[4400];             /* the coverage harness (the harness cache) */
  signoff_step st[ST_N];
  char cells[SIGNOFF_MAX_MODULES][3][64]; /* module, cells, variants */
  int ncells;
  long total_cells;
  signoff_cov cov[SIGNOFF_MAX_MODULES + 1]; /* [0]: total */
  int ncov;
  regress_list runs;
  int jobs, timeout;
  double seconds; /* wall time of the whole sign-off */
} signoff_state;

/* Prints the usage of `tcpa signoff` to f. */
static void signoff_usage(FILE *f) {
  fputs("usage: tcpa signoff --arch A.ini [--out-dir DIR] [--suite FILE] [-j N] [--timeout S]\n\n"
        "Signs off an architecture configuration: lints and synthesizes its RTL, builds\n"
        "its Verilated harness with coverage, runs the suite in cosim on every region of\n"
        "the array, collects line and toggle coverage, and writes DIR/report.md,\n"
        "DIR/report.html (PASS or FAIL at the top) and DIR/junit.xml.\n\n"
        "  --arch A.ini   the configuration (required)\n"
        "  --out-dir DIR  default build/signoff/<name of A.ini>\n"
        "  --suite FILE   the suite (default regress/suites/full)\n"
        "  -j N           runs at a time (default: the number of cores)\n"
        "  --timeout S    seconds per run (default 900)\n"
        "  -h, --help     print this help\n\n"
        "exit status: 0 PASS, 1 FAIL, 2 invalid input\n", f);
}

/* Returns the exit status of argv run with stdout and stderr appended to
 * log, the environment variables env[0]=env[1], ... (NULL-terminated
 * pairs) set; -1 when it cannot run or is killed. */
static int signoff_exec(char *const *argv, const char *log, const char *const *env) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0666);
    int fi = open("/dev/null", O_RDONLY);
    if (fd < 0 || fi < 0) _exit(126);
    dup2(fi, 0);
    dup2(fd, 1);
    dup2(fd, 2);
    for (int i = 0; env && env[i]; i += 2) setenv(env[i], env[i + 1], 1);
    execvp(argv[0], argv);
    _exit(127);
  }
  int st;
  if (waitpid(pid, &st, 0) < 0) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Returns the monotonic clock in seconds. */
static double signoff_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Returns buf holding "DIR/name". */
static char *signoff_path(char *buf, const signoff_state *s, const char *name) {
  snprintf(buf, SIGNOFF_PATH, "%s/%s", s->adir, name);
  return buf;
}

/* Returns 0 after creating dir (and parents); -1. */
static int signoff_mkdir_p(const char *dir) {
  return fileio_mkdir_p(dir, NULL, 0);
}

/* Step 1: the parameter package (rewritten only when it changes). */
static void signoff_params(signoff_state *s) {
  signoff_step *st = &s->st[ST_PARAMS];
  char pkg[SIGNOFF_PATH], tmp[SIGNOFF_PATH + 8], log[SIGNOFF_PATH];
  snprintf(pkg, sizeof pkg, "%s/tcpa_params_pkg.sv", s->rtl);
  snprintf(tmp, sizeof tmp, "%s.new", pkg);
  char *argv[] = {"/proc/self/exe", "arch", (char *)s->arch, "--sv", "-o", tmp, NULL};
  char *isa[] = {"make", "-s", "gen", NULL}; /* the generated packages (docs/rtl.md) */
  st->ran = 1;
  signoff_path(log, s, "params.log");
  remove(log);
  if (signoff_exec(argv, log, NULL) != 0 || signoff_exec(isa, log, NULL) != 0) {
    snprintf(st->detail, sizeof st->detail, "tcpa arch --sv or the generated packages failed (params.log)");
    return;
  }
  size_t a, b;
  char *x = fileio_read_all(tmp, &a), *y = fileio_read_all(pkg, &b);
  if (y && a == b && !memcmp(x, y, a)) remove(tmp);
  else rename(tmp, pkg);
  free(x);
  free(y);
  st->ok = 1;
  snprintf(st->detail, sizeof st->detail, "rtl/tcpa_params_pkg.sv");
}

/* Returns a malloc'ed, NULL-terminated list of rtl/tcpa_*.sv, tcpa_pkg.sv
 * first, then the others sorted. */
static char **signoff_rtl_sources(int *n) {
  DIR *d = opendir("rtl");
  struct dirent *e;
  char **v = calloc(256, sizeof *v);
  *n = 0;
  if (!v) return NULL;
  v[(*n)++] = regress_strdup("rtl/tcpa_pkg.sv");
  while (d && (e = readdir(d)) && *n < 255) {
    size_t l = strlen(e->d_name);
    if (strncmp(e->d_name, "tcpa_", 5) || l < 4 || strcmp(e->d_name + l - 3, ".sv") ||
        !strcmp(e->d_name, "tcpa_pkg.sv"))
      continue;
    char buf[600];
    snprintf(buf, sizeof buf, "rtl/%s", e->d_name);
    v[(*n)++] = regress_strdup(buf);
  }
  if (d) closedir(d);
  for (int i = 2; i < *n; i++)
    for (int j = i; j > 1 && strcmp(v[j - 1], v[j]) > 0; j--) {
      char *t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  return v;
}

/* Returns the number of lines of file path starting with prefix. */
static int signoff_count_lines(const char *path, const char *prefix) {
  size_t len;
  char *t = fileio_read_all(path, &len);
  int n = 0;
  for (char *p = t; p && *p;) {
    if (!strncmp(p, prefix, strlen(prefix))) n++;
    p = strchr(p, '\n');
    if (p) p++;
  }
  free(t);
  return n;
}

/* Step 2: lint. */
static void signoff_lint(signoff_state *s) {
  signoff_step *st = &s->st[ST_LINT];
  char log[SIGNOFF_PATH], pkg[SIGNOFF_PATH];
  int n;
  char **src = signoff_rtl_sources(&n);
  char *argv[300] = {"verilator", "--lint-only", "-Wall", "--top-module", "tcpa_top", "rtl/lint_waivers.vlt", pkg,
                     "build/gen/tcpa_isa_pkg.sv", "build/gen/tcpa_stream_pkg.sv"};
  int k = 9;
  for (int i = 0; src && i < n; i++) argv[k++] = src[i];
  argv[k] = NULL;
  snprintf(pkg, sizeof pkg, "%s/tcpa_params_pkg.sv", s->rtl);
  signoff_path(log, s, "lint.log");
  remove(log);
  st->ran = 1;
  int rc = signoff_exec(argv, log, NULL);
  int w = signoff_count_lines(log, "%Warning"), e = signoff_count_lines(log, "%Error");
  st->ok = rc == 0 && w == 0 && e == 0;
  snprintf(st->detail, sizeof st->detail, "verilator --lint-only -Wall: exit %d, %d warning%s, %d error%s (%d files)",
           rc, w, w == 1 ? "" : "s", e, e == 1 ? "" : "s", n + 3);
  for (int i = 0; src && i < n; i++) free(src[i]);
  free(src);
}

/* Returns the make exit status of target DIR/rtl/<target> (log appended). */
static int signoff_make(signoff_state *s, const char *target, const char *logname) {
  char var[SIGNOFF_PATH + 16], tgt[SIGNOFF_PATH], log[SIGNOFF_PATH];
  snprintf(var, sizeof var, "SIGNOFF_DIR=%s", s->rtl);
  snprintf(tgt, sizeof tgt, "%s/%s", s->rtl, target);
  char *argv[] = {"make", "-s", var, tgt, NULL};
  signoff_path(log, s, logname);
  remove(log);
  return signoff_exec(argv, log, NULL);
}

/* Step 3: synthesis and its cell table. */
static void signoff_synth(signoff_state *s) {
  signoff_step *st = &s->st[ST_SYNTH];
  char path[SIGNOFF_PATH + 16];
  st->ran = 1;
  int rc = signoff_make(s, "synth/table.txt", "synth.log");
  snprintf(path, sizeof path, "%s/synth/table.txt", s->rtl);
  size_t len;
  char *t = rc == 0 ? fileio_read_all(path, &len) : NULL;
  for (char *line = t; line && *line;) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = '\0';
    char m[64], c[64], v[64] = "";
    long total;
    if (sscanf(line, "TOTAL (flattened) %ld", &total) == 1) s->total_cells = total;
    else if (sscanf(line, "%63s %63s %63s", m, c, v) >= 2 && s->ncells < SIGNOFF_MAX_MODULES) {
      snprintf(s->cells[s->ncells][0], 64, "%s", m);
      snprintf(s->cells[s->ncells][1], 64, "%s", c);
      snprintf(s->cells[s->ncells][2], 64, "%s", v);
      s->ncells++;
    }
    line = nl ? nl + 1 : NULL;
  }
  free(t);
  st->ok = rc == 0 && s->total_cells > 0;
  snprintf(st->detail, sizeof st->detail, rc ? "make exit %d (synth.log)" : "Yosys: %d modules, %ld cells in total (flattened)",
           rc ? rc : s->ncells, s->total_cells);
}

/* Step 4: the coverage harness, from the harness cache (built once per
 * configuration and set of sources; docs/rtl.md "Harness cache"). */
static void signoff_build(signoff_state *s) {
  signoff_step *st = &s->st[ST_BUILD];
  st->ran = 1;
  arch_config cfg;
  engine_harness_info info;
  char msg[1024] = "";
  int rc = arch_config_load(s->arch, &cfg) != 0 ? ENGINE_ERR_INPUT
           : engine_harness_find(&engine_harness_cov, &cfg, s->arch, 1, &info, msg, sizeof msg);
  st->ok = rc == ENGINE_OK;
  if (st->ok) snprintf(s->covbin, sizeof s->covbin, "%s", info.bin);
  snprintf(st->detail, sizeof st->detail, st->ok ? "%.300s (verilator --coverage-line --coverage-toggle)" : "%.300s",
           st->ok ? info.bin : msg);
}

/* Removes the files in dir. */
static void signoff_empty(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    char p[SIGNOFF_PATH + 300];
    if (e->d_name[0] == '.') continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    remove(p);
  }
  if (d) closedir(d);
}

/* Step 5: the suite in cosim on every region. */
static void signoff_regress(signoff_state *s) {
  signoff_step *st = &s->st[ST_REGRESS];
  char out[SIGNOFF_PATH], cov[SIGNOFF_PATH], bin[sizeof s->covbin], log[SIGNOFF_PATH], j[32], t[32], sum[SIGNOFF_PATH];
  signoff_path(out, s, "regress");
  signoff_path(cov, s, "cov");
  snprintf(bin, sizeof bin, "%s", s->covbin);
  snprintf(j, sizeof j, "%d", s->jobs);
  snprintf(t, sizeof t, "%d", s->timeout);
  signoff_mkdir_p(cov);
  signoff_empty(cov);
  char *argv[] = {"/proc/self/exe", "regress", (char *)s->suite, "--arch", (char *)s->arch, "--engine", "cosim",
                  "--pes", "all", "--out-dir", out, "-j", j, "--timeout", t, NULL};
  const char *env[] = {"TCPA_RTL", bin, "TCPA_COVERAGE_DIR", cov, NULL};
  signoff_path(log, s, "regress.log");
  remove(log);
  st->ran = 1;
  int rc = signoff_exec(argv, log, env);
  signoff_path(sum, s, "regress/summary.json");
  if (rc > 1 || rc < 0 || regress_report_load(sum, &s->runs) != 0) {
    snprintf(st->detail, sizeof st->detail, "tcpa regress exit %d (regress.log)", rc);
    return;
  }
  size_t n[7] = {0}, bad = 0;
  for (size_t i = 0; i < s->runs.n; i++) {
    n[s->runs.v[i].verdict]++;
    bad += !s->runs.v[i].ok;
  }
  st->ok = rc == 0 && bad == 0;
  snprintf(st->detail, sizeof st->detail,
           "%zu runs: %zu pass, %zu fail, %zu invalid, %zu nofit, %zu timeout, %zu crash; %zu not as expected, "
           "in %zu bucket%s", s->runs.n, n[REGRESS_PASS], n[REGRESS_FAIL], n[REGRESS_INVALID], n[REGRESS_NOFIT],
           n[REGRESS_TIMEOUT], n[REGRESS_CRASH], bad, regress_report_buckets(&s->runs),
           regress_report_buckets(&s->runs) == 1 ? "" : "s");
}

/* Returns the coverage record of module m (index 0 is the total). */
static signoff_cov *signoff_cov_of(signoff_state *s, const char *m) {
  for (int i = 1; i < s->ncov; i++)
    if (!strcmp(s->cov[i].module, m)) return &s->cov[i];
  if (s->ncov > SIGNOFF_MAX_MODULES) return &s->cov[0];
  signoff_cov *c = &s->cov[s->ncov++];
  memset(c, 0, sizeof *c);
  snprintf(c->module, sizeof c->module, "%s", m);
  return c;
}

/* Adds one coverage point (its page "v_TYPE/module", its count). */
static void signoff_cov_point(signoff_state *s, const char *page, long count) {
  const char *slash = strchr(page, '/');
  char type[32] = "", mod[64] = "";
  if (!slash || (size_t)(slash - page) >= sizeof type) return;
  memcpy(type, page, (size_t)(slash - page));
  snprintf(mod, sizeof mod, "%s", slash + 1);
  int toggle = !strcmp(type, "v_toggle"), line = !strcmp(type, "v_line") || !strcmp(type, "v_branch");
  if (!toggle && !line) return;
  signoff_cov *c[2] = {&s->cov[0], signoff_cov_of(s, mod)};
  for (int k = 0; k < (c[1] == c[0] ? 1 : 2); k++) {
    if (toggle) {
      c[k]->tog_all++;
      c[k]->tog_hit += count > 0;
    } else {
      c[k]->line_all++;
      c[k]->line_hit += count > 0;
    }
  }
}

/* Step 6: merge the counters and count them per module. */
static void signoff_coverage(signoff_state *s) {
  signoff_step *st = &s->st[ST_COVER];
  char cov[SIGNOFF_PATH], dat[SIGNOFF_PATH], log[SIGNOFF_PATH];
  signoff_path(cov, s, "cov");
  signoff_path(dat, s, "coverage.dat");
  signoff_path(log, s, "coverage.log");
  remove(log);
  remove(dat);
  st->ran = 1;
  memset(&s->cov[0], 0, sizeof s->cov[0]);
  snprintf(s->cov[0].module, sizeof s->cov[0].module, "total");
  s->ncov = 1;
  char **argv = calloc(100000, sizeof *argv);
  int n = 0;
  DIR *d = opendir(cov);
  struct dirent *e;
  if (!argv) return;
  argv[n++] = "verilator_coverage";
  argv[n++] = "--write";
  argv[n++] = dat;
  int first = n;
  while (d && (e = readdir(d)) && n < 99999) {
    if (strncmp(e->d_name, "cov-", 4)) continue;
    char *p = malloc(SIGNOFF_PATH + 300);
    if (!p) break;
    snprintf(p, SIGNOFF_PATH + 300, "%s/%s", cov, e->d_name);
    argv[n++] = p;
  }
  if (d) closedir(d);
  int files = n - first;
  int rc = files ? signoff_exec(argv, log, NULL) : -1;
  for (int i = first; i < n; i++) free(argv[i]);
  free(argv);
  size_t len;
  char *t = rc == 0 ? fileio_read_all(dat, &len) : NULL;
  for (char *line = t; line && *line;) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = '\0';
    char *pg = line[0] == 'C' ? strstr(line, "\001page\002") : NULL;
    char *q = line[0] == 'C' ? strrchr(line, '\'') : NULL;
    if (pg && q) {
      char page[128];
      size_t k = 0;
      for (pg += 6; *pg && *pg != '\001' && *pg != '\'' && k + 1 < sizeof page; pg++) page[k++] = *pg;
      page[k] = '\0';
      signoff_cov_point(s, page, strtol(q + 1, NULL, 10));
    }
    line = nl ? nl + 1 : NULL;
  }
  free(t);
  const signoff_cov *c = &s->cov[0];
  st->ok = rc == 0 && c->line_all > 0 && c->tog_all > 0;
  if (!files) snprintf(st->detail, sizeof st->detail, "no coverage file in cov/ (no run reached the RTL)");
  else if (rc) snprintf(st->detail, sizeof st->detail, "verilator_coverage exit %d (coverage.log)", rc);
  else
    snprintf(st->detail, sizeof st->detail, "%d run%s merged: line %.1f%% (%ld/%ld points), toggle %.1f%% (%ld/%ld)",
             files, files == 1 ? "" : "s", c->line_all ? 100.0 * (double)c->line_hit / (double)c->line_all : 0.0,
             c->line_hit, c->line_all, c->tog_all ? 100.0 * (double)c->tog_hit / (double)c->tog_all : 0.0,
             c->tog_hit, c->tog_all);
}

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

/* Writes the table of runs that do not fit. */
static void signoff_report_nofit(FILE *f, signoff_fmt fmt, const signoff_state *s) {
  signoff_heading(f, fmt, "Programs that do not fit");
  static const char *const hd[] = {"program", "parameters", "region", "resource", "needed", "available",
                                   "over by", "message"};
  int any = 0;
  for (size_t i = 0; i < s->runs.n; i++) {
    const regress_run *r = &s->runs.v[i];
    if (r->verdict != REGRESS_NOFIT) continue;
    if (!any++) {
      signoff_table(f, fmt, 0);
      signoff_row(f, fmt, 1, 8, hd);
    }
    signoff_nofit nf = signoff_nofit_parse(r->message);
    char need[32] = "?", have[32] = "?", over[32] = "?";
    if (nf.need >= 0) snprintf(need, sizeof need, "%ld", nf.need);
    if (nf.have >= 0) snprintf(have, sizeof have, "%ld", nf.have);
    if (nf.need >= 0 && nf.have >= 0) snprintf(over, sizeof over, "%ld", nf.need - nf.have);
    const char *row[] = {r->name, r->params, r->pes, nf.resource[0] ? nf.resource : "?", need, have, over,
                         r->message ? r->message : ""};
    signoff_row(f, fmt, 0, 8, row);
  }
  if (any) signoff_table(f, fmt, 1);
  else fputs(fmt == SIGNOFF_MD ? "Every run fits.\n" : "<p>Every run fits.</p>\n", f);
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

/* Writes the whole report in one format. */
static void signoff_report(FILE *f, signoff_fmt fmt, const signoff_state *s, int pass) {
  char title[SIGNOFF_PATH + 64];
  snprintf(title, sizeof title, "Sign-off of %s: %s", s->arch, pass ? "PASS" : "FAIL");
  if (fmt == SIGNOFF_HTML) {
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", f);
    signoff_text(f, fmt, title);
    fputs("</title><style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}"
          "td,th{border:1px solid #ccc;padding:2px 6px;font-size:90%;text-align:left}</style></head><body>\n", f);
    fprintf(f, "<h1 style=\"color:%s\">%s</h1>\n<h1>", pass ? "#070" : "#b00", pass ? "PASS" : "FAIL");
    signoff_text(f, fmt, title);
    fputs("</h1>\n", f);
  } else {
    fprintf(f, "# %s\n\n# Sign-off of %s\n", pass ? "PASS" : "FAIL", s->arch);
  }
  char tool[128];
  snprintf(tool, sizeof tool, "Tool: tcpa %s (git %s).", version_tool(), version_git_rev());
  fputs(fmt == SIGNOFF_HTML ? "<p>" : "\n", f);
  signoff_text(f, fmt, tool);
  fputs(fmt == SIGNOFF_HTML ? "</p>\n" : "\n", f);
  signoff_heading(f, fmt, "Steps");
  static const char *const hd[] = {"step", "result", "detail", "log", "seconds"};
  signoff_table(f, fmt, 0);
  signoff_row(f, fmt, 1, 5, hd);
  for (int i = 0; i < ST_N; i++) {
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
  signoff_report_failures(f, fmt, s);
  signoff_report_nofit(f, fmt, s);
  if (s->st[ST_COVER].ok) signoff_report_coverage(f, fmt, s);
  if (s->ncells) {
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
  if (fmt == SIGNOFF_HTML) fputs("</body></html>\n", f);
}

/* Returns 0 after writing DIR/name in format fmt; -1. */
static int signoff_report_file(const signoff_state *s, const char *name, signoff_fmt fmt, int pass) {
  char path[SIGNOFF_PATH];
  datafile_tmp t;
  if (datafile_tmp_open(&t, signoff_path(path, s, name))) return -1;
  signoff_report(t.f, fmt, s, pass);
  return datafile_tmp_commit(&t);
}

/* Returns 0 after copying file from to to (atomically); -1. */
static int signoff_copy(const char *from, const char *to) {
  size_t len;
  char *t = fileio_read_all(from, &len);
  datafile_tmp tmp;
  if (!t || datafile_tmp_open(&tmp, to)) {
    free(t);
    return -1;
  }
  fwrite(t, 1, len, tmp.f);
  free(t);
  return datafile_tmp_commit(&tmp);
}

/* Returns 0 after reading the options into s; -1 after an error. */
static int signoff_opts(int argc, char **argv, signoff_state *s, int *help, char *outbuf) {
  s->suite = "regress/suites/full";
  s->timeout = 900;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  s->jobs = cores > 0 ? (int)cores : 1;
  enum { OPT_ARCH = CLI_OPT_LONG, OPT_OUT, OPT_SUITE, OPT_TIMEOUT };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},         {"arch", required_argument, NULL, OPT_ARCH},
      {"out-dir", required_argument, NULL, OPT_OUT}, {"suite", required_argument, NULL, OPT_SUITE},
      {"timeout", required_argument, NULL, OPT_TIMEOUT}, {NULL, 0, NULL, 0}};
  cli_opt p;
  cli_opt_init(&p, "signoff", argc, argv, "hj:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    int64_t n;
    switch (c) {
    case 'h': *help = 1; return 0;
    case OPT_ARCH: s->arch = p.arg; break;
    case OPT_OUT: s->dir = p.arg; break;
    case OPT_SUITE: s->suite = p.arg; break;
    case 'j':
    case OPT_TIMEOUT:
      if (cli_opt_int(&p, 1, 604800, "a positive integer", &n)) return -1;
      *(c == 'j' ? &s->jobs : &s->timeout) = (int)n;
      break;
    case CLI_OPT_ARG:
      diag_error_plain("signoff: unexpected argument '%s' (see 'tcpa signoff --help')", p.arg);
      return -1;
    default: return -1;
    }
  }
  if (!s->arch) {
    diag_error_plain("--arch A.ini is required (see 'tcpa signoff --help')");
    return -1;
  }
  if (!s->dir) {
    const char *b = strrchr(s->arch, '/') ? strrchr(s->arch, '/') + 1 : s->arch;
    size_t n = strlen(b);
    if (n > 4 && !strcmp(b + n - 4, ".ini")) n -= 4;
    snprintf(outbuf, SIGNOFF_PATH, "build/signoff/%.*s", (int)(n < 200 ? n : 200), b);
    s->dir = outbuf;
  }
  return 0;
}

int cli_signoff(int argc, char **argv) {
  static signoff_state s;
  static char outbuf[SIGNOFF_PATH];
  int help = 0;
  memset(&s, 0, sizeof s);
  if (signoff_opts(argc, argv, &s, &help, outbuf)) return CLI_EXIT_INPUT;
  if (help) {
    signoff_usage(stdout);
    return CLI_EXIT_OK;
  }
  arch_config cfg;
  if (arch_config_load(s.arch, &cfg) != 0) return CLI_EXIT_INPUT;
  if (access("rtl/tcpa_top.sv", R_OK) || access("scripts/synth.sh", R_OK) || access("Makefile", R_OK)) {
    diag_error_plain("tcpa signoff runs from the project's root directory (rtl/, scripts/, Makefile)");
    return CLI_EXIT_INPUT;
  }
  if (access(s.suite, R_OK)) {
    diag_error_plain("--suite %s: %s", s.suite, strerror(errno));
    return CLI_EXIT_INPUT;
  }
  char rel[SIGNOFF_DIRLEN + 8], cwd[SIGNOFF_DIRLEN / 2];
  if (strlen(s.dir) >= SIGNOFF_DIRLEN / 2 - 8) {
    diag_error_plain("--out-dir: the path is too long");
    return CLI_EXIT_INPUT;
  }
  snprintf(rel, sizeof rel, "%s/rtl", s.dir);
  if (s.dir[0] == '/') snprintf(s.adir, sizeof s.adir, "%s", s.dir);
  else if (getcwd(cwd, sizeof cwd)) snprintf(s.adir, sizeof s.adir, "%.1000s/%.1000s", cwd, s.dir);
  if (signoff_mkdir_p(rel) || !s.adir[0]) {
    diag_error_plain("--out-dir %s: cannot create it: %s", s.dir, strerror(errno));
    return CLI_EXIT_INPUT;
  }
  snprintf(s.rtl, sizeof s.rtl, "%s/rtl", s.adir);
  static const char *const names[ST_N] = {"parameters", "lint", "synthesis", "coverage build", "regression",
                                          "coverage"};
  static const char *const logs[ST_N] = {"params.log", "lint.log", "synth.log, rtl/synth/",
                                         "build.log, rtl/build.log", "regress.log, regress/", "coverage.log"};
  for (int i = 0; i < ST_N; i++) {
    s.st[i].name = names[i];
    s.st[i].log = logs[i];
  }
  double start = signoff_now();
  void (*steps[ST_N])(signoff_state *) = {signoff_params, signoff_lint, signoff_synth, signoff_build,
                                          signoff_regress, signoff_coverage};
  for (int i = 0; i < ST_N; i++) {
    /* lint, synthesis and the build need the package only; the regression
     * the build; coverage the regression */
    int need = i == ST_PARAMS ? -1 : (i == ST_LINT || i == ST_SYNTH || i == ST_BUILD) ? ST_PARAMS : i - 1;
    /* coverage is counted whenever the regression ran, failing runs or not */
    if (need >= 0 && !(i == ST_COVER ? s.st[need].ran : s.st[need].ok)) continue;
    fprintf(stderr, "tcpa signoff: %s ... (progress: %s/%.*s)\n", names[i], s.dir, (int)strcspn(logs[i], ","), logs[i]);
    double t0 = signoff_now();
    steps[i](&s);
    s.st[i].seconds = signoff_now() - t0;
    fprintf(stderr, "tcpa signoff: %s: %s in %.0f s: %s\n", names[i], s.st[i].ok ? "pass" : "FAIL", s.st[i].seconds,
            s.st[i].detail);
  }
  s.seconds = signoff_now() - start;
  int pass = 1;
  for (int i = 0; i < ST_N; i++) pass &= s.st[i].ok;
  char from[SIGNOFF_PATH], to[SIGNOFF_PATH];
  signoff_path(from, &s, "regress/junit.xml");
  signoff_path(to, &s, "junit.xml");
  if (s.st[ST_REGRESS].ran && signoff_copy(from, to) != 0) pass = 0;
  int rc = signoff_report_file(&s, "report.md", SIGNOFF_MD, pass) | signoff_report_file(&s, "report.html", SIGNOFF_HTML, pass);
  printf("%s: %s/report.md, %s/report.html, %s/junit.xml\n", pass ? "PASS" : "FAIL", s.dir, s.dir, s.dir);
  regress_list_free(&s.runs);
  if (rc) return CLI_EXIT_INPUT;
  return pass ? CLI_EXIT_OK : CLI_EXIT_MISMATCH;
}
