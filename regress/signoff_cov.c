/*
 * signoff_cov.c: the coverage step of the sign-off (docs/regress.md
 * "Sign-off", signoff.h), through Verilator's and lcov's own tools:
 *
 *   1. verilator_coverage --write merges the counter files the coverage
 *      harness wrote into DIR/cov (one per run, cov-*) into
 *      DIR/coverage.dat;
 *   2. verilator_coverage --write-info writes it as the lcov tracefile
 *      DIR/coverage.info (one DA record per source line: the line's
 *      largest count), from which the lines found and hit are counted;
 *   3. verilator_coverage --annotate DIR/annotated --annotate-min 1 writes
 *      every RTL source with the count of each line, a line with a point
 *      never hit marked `%000000`;
 *   4. genhtml renders coverage.info as DIR/coverage-html/index.html.
 *
 * The report's table per module counts points, which the tracefile of
 * Verilator 5.006 does not keep apart (one record per line, line and
 * toggle points together): each point line of coverage.dat ("C
 * '...\001page\002v_TYPE/module ...' COUNT") is counted per module and in
 * total, v_line and v_branch points as line coverage, v_toggle points as
 * toggle coverage; a point is covered when its count is above zero. The
 * regression's functional coverage (DIR/regress/fcov.json, fcov.h) is read
 * here too.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "signoff.h"

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

/* Counts the points of the merged coverage file text t (modified) into
 * s->cov. */
static void signoff_cov_parse(signoff_state *s, char *t) {
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
}

/* Counts the DA records (source lines with a point) of the lcov tracefile
 * at path into *all, those with a count above zero into *hit. */
static void signoff_cov_lines(const char *path, long *hit, long *all) {
  size_t len;
  char *t = fileio_read_all(path, &len);
  *hit = *all = 0;
  for (char *line = t; line && *line;) {
    long ln, cnt;
    if (sscanf(line, "DA:%ld,%ld", &ln, &cnt) == 2) {
      (*all)++;
      *hit += cnt > 0;
    }
    line = strchr(line, '\n');
    if (line) line++;
  }
  free(t);
}

/* Returns the exit status of verilator_coverage merging the files cov-*
 * of directory cov into dat (log appended to log), -1 when there is none
 * or it cannot run, -2 out of memory; *files: how many. */
static int signoff_cov_merge(const char *cov, const char *dat, const char *log, int *files) {
  char **argv = calloc(100000, sizeof *argv);
  int n = 0;
  DIR *d = opendir(cov);
  struct dirent *e;
  *files = 0;
  if (!argv) {
    if (d) closedir(d);
    return -2;
  }
  argv[n++] = "verilator_coverage";
  argv[n++] = "--write";
  argv[n++] = (char *)dat;
  int first = n;
  while (d && (e = readdir(d)) && n < 99999) {
    if (strncmp(e->d_name, "cov-", 4)) continue;
    char *p = malloc(SIGNOFF_PATH + 300);
    if (!p) break;
    snprintf(p, SIGNOFF_PATH + 300, "%s/%s", cov, e->d_name);
    argv[n++] = p;
  }
  if (d) closedir(d);
  *files = n - first;
  int rc = *files ? signoff_exec("coverage", argv, log, NULL, NULL) : -1;
  for (int i = first; i < n; i++) free(argv[i]);
  free(argv);
  return rc;
}

/* Returns the exit status of `verilator_coverage --write-info info dat`
 * (log appended); -1. */
static int signoff_cov_info(const char *dat, const char *info, const char *log) {
  char *argv[] = {"verilator_coverage", "--write-info", (char *)info, (char *)dat, NULL};
  return signoff_exec("coverage", argv, log, NULL, NULL);
}

/* Returns 0 after the annotated sources (DIR/annotated) and the HTML pages
 * (DIR/coverage-html, genhtml of DIR/coverage.info); -1 (why in detail). */
static int signoff_cov_render(signoff_state *s, const char *dat, const char *log, char *detail, size_t size) {
  char info[SIGNOFF_PATH], ann[SIGNOFF_PATH], html[SIGNOFF_PATH];
  signoff_path(info, s, "coverage.info");
  signoff_path(ann, s, "annotated");
  signoff_path(html, s, "coverage-html");
  char *annotate[] = {"verilator_coverage", "--annotate", ann, "--annotate-min", "1", (char *)dat, NULL};
  char *genhtml[] = {"genhtml", "--quiet", "--output-directory", html, info, NULL};
  if (signoff_cov_info(dat, info, log) != 0 || signoff_exec("coverage", annotate, log, NULL, NULL) != 0) {
    snprintf(detail, size, "verilator_coverage --write-info or --annotate failed (coverage.log)");
    return -1;
  }
  int rc = signoff_exec("coverage", genhtml, log, NULL, NULL);
  char index[SIGNOFF_PATH + 16];
  snprintf(index, sizeof index, "%s/index.html", html);
  s->html = rc == 0 && access(index, R_OK) == 0;
  if (!s->html) snprintf(detail, size, "genhtml exit %d (coverage.log; scripts/setup.sh installs lcov)", rc);
  return s->html ? 0 : -1;
}

/* Step 6: merges the counters, counts the points per module, writes the
 * tracefile, the annotated sources and the HTML pages; reads the
 * regression's functional coverage (signoff.h). */
void signoff_coverage(signoff_state *s) {
  signoff_step *st = &s->st[SIGNOFF_ST_COVER];
  char cov[SIGNOFF_PATH], dat[SIGNOFF_PATH], log[SIGNOFF_PATH], fj[SIGNOFF_PATH], info[SIGNOFF_PATH], msg[600];
  signoff_path(cov, s, "cov");
  signoff_path(dat, s, "coverage.dat");
  signoff_path(log, s, "coverage.log");
  signoff_path(fj, s, "regress/fcov.json");
  signoff_path(info, s, "coverage.info");
  remove(log);
  remove(dat);
  remove(info);
  st->ran = 1;
  memset(&s->cov[0], 0, sizeof s->cov[0]);
  snprintf(s->cov[0].module, sizeof s->cov[0].module, "total");
  s->ncov = 1;
  s->html = 0;
  fcov_free(&s->fcov);
  if (access(fj, R_OK) == 0 && fcov_load(&s->fcov, fj, msg, sizeof msg))
    fprintf(stderr, "tcpa signoff: warning: %s\n", msg);
  int files;
  int rc = signoff_cov_merge(cov, dat, log, &files);
  if (rc == -2) return;
  if (!files) {
    snprintf(st->detail, sizeof st->detail, "no coverage file in cov/ (no run reached the RTL)");
    return;
  }
  if (rc) {
    snprintf(st->detail, sizeof st->detail, "verilator_coverage exit %d (coverage.log)", rc);
    return;
  }
  size_t len;
  char *t = fileio_read_all(dat, &len);
  signoff_cov_parse(s, t);
  free(t);
  if (signoff_cov_render(s, dat, log, st->detail, sizeof st->detail)) return;
  long lhit, lall;
  signoff_cov_lines(info, &lhit, &lall);
  const signoff_cov *c = &s->cov[0];
  st->ok = c->line_all > 0 && c->tog_all > 0 && lall > 0;
  snprintf(st->detail, sizeof st->detail,
           "%d run%s merged: line %.1f%% (%ld/%ld points), toggle %.1f%% (%ld/%ld); source lines %.1f%% (%ld/%ld, "
           "coverage.info); coverage-html/index.html, annotated/",
           files, files == 1 ? "" : "s", c->line_all ? 100.0 * (double)c->line_hit / (double)c->line_all : 0.0,
           c->line_hit, c->line_all, c->tog_all ? 100.0 * (double)c->tog_hit / (double)c->tog_all : 0.0, c->tog_hit,
           c->tog_all, lall ? 100.0 * (double)lhit / (double)lall : 0.0, lhit, lall);
}
