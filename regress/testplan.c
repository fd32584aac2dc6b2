/*
 * testplan.c: the testplan (testplan.h, docs/testplan.md).
 *
 * The plan is YAML (docs/testplan.yml), read with libyaml's document API:
 * a mapping with `testplan: 1` and `features:`, a sequence of mappings
 * with the keys name, desc, tests, runs, bins and rtl (the last four
 * sequences of strings). Every string keeps the line it was read from, so
 * that a problem of the check names its place in the plan.
 *
 * The check resolves every name against the tree (tests/NAME.sh or
 * tests/unit/NAME.c, rtl/NAME.sv), the suite's programs and the bins the
 * configurations define; a bin that no feature claims is a problem too,
 * so that a new coverage group cannot be added without its feature.
 *
 * The measure reads each run's DIR/fcov.json (fcov.h): a run exercises a
 * feature when its program is one the feature's `runs` names or when it
 * hit one of the feature's bins. Which features a bin belongs to is
 * decided once per bin of the merged coverage (a bitmap per bin, the bins
 * sorted by name), then each run's hit bins are looked up by name.
 */
#include "testplan.h"

#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

/* ---- loading ------------------------------------------------------------ */

/* Returns a malloc'ed copy of the scalar node n, or NULL when n is not a
 * scalar (or out of memory). */
static char *testplan_scalar(const yaml_node_t *n) {
  if (!n || n->type != YAML_SCALAR_NODE) return NULL;
  char *s = malloc(n->data.scalar.length + 1);
  if (!s) return NULL;
  memcpy(s, n->data.scalar.value, n->data.scalar.length);
  s[n->data.scalar.length] = 0;
  return s;
}

/* Returns 0 after setting msg to "path:line:column: what" at node n; -1. */
static int testplan_err(char *msg, size_t msgsz, const char *path, const yaml_node_t *n, const char *what,
                        const char *arg) {
  snprintf(msg, msgsz, "%s:%zu:%zu: %s%s%s", path, n ? n->start_mark.line + 1 : 0,
           n ? n->start_mark.column + 1 : 0, what, arg ? " " : "", arg ? arg : "");
  return -1;
}

/* Returns 0 after reading the sequence of strings n into l; -1 with msg. */
static int testplan_list_load(yaml_document_t *d, const yaml_node_t *n, testplan_list *l, const char *path,
                              char *msg, size_t msgsz) {
  if (n->type != YAML_SEQUENCE_NODE) return testplan_err(msg, msgsz, path, n, "expected a list [a, b, ...]", NULL);
  size_t k = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
  l->v = calloc(k ? k : 1, sizeof *l->v);
  l->line = calloc(k ? k : 1, sizeof *l->line);
  if (!l->v || !l->line) return testplan_err(msg, msgsz, path, n, "out of memory", NULL);
  for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
    yaml_node_t *e = yaml_document_get_node(d, *i);
    char *s = testplan_scalar(e);
    if (!s || !*s) {
      free(s);
      return testplan_err(msg, msgsz, path, e, "expected a non-empty string", NULL);
    }
    l->line[l->n] = (int)e->start_mark.line + 1;
    l->v[l->n++] = s;
  }
  return 0;
}

/* Returns 0 after reading the feature mapping n into f; -1 with msg. */
static int testplan_feature_load(yaml_document_t *d, const yaml_node_t *n, testplan_feature *f, const char *path,
                                 char *msg, size_t msgsz) {
  if (n->type != YAML_MAPPING_NODE)
    return testplan_err(msg, msgsz, path, n, "a feature is a mapping (name:, desc:, tests:, ...)", NULL);
  for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < n->data.mapping.pairs.top; q++) {
    yaml_node_t *k = yaml_document_get_node(d, q->key), *v = yaml_document_get_node(d, q->value);
    char *key = testplan_scalar(k);
    int rc = 0;
    if (!key) rc = testplan_err(msg, msgsz, path, k, "expected a key", NULL);
    else if (!strcmp(key, "name") || !strcmp(key, "desc")) {
      char **to = key[0] == 'n' ? &f->name : &f->desc;
      free(*to);
      *to = testplan_scalar(v);
      if (!*to || !**to) rc = testplan_err(msg, msgsz, path, v, key[0] == 'n' ? "name: expected a string" : "desc: expected a string", NULL);
      if (key[0] == 'n') f->line = (int)v->start_mark.line + 1;
    } else if (!strcmp(key, "tests")) rc = testplan_list_load(d, v, &f->tests, path, msg, msgsz);
    else if (!strcmp(key, "runs")) rc = testplan_list_load(d, v, &f->runs, path, msg, msgsz);
    else if (!strcmp(key, "bins")) rc = testplan_list_load(d, v, &f->bins, path, msg, msgsz);
    else if (!strcmp(key, "rtl")) rc = testplan_list_load(d, v, &f->rtl, path, msg, msgsz);
    else rc = testplan_err(msg, msgsz, path, k, "unknown key (name, desc, tests, runs, bins, rtl):", key);
    free(key);
    if (rc) return -1;
  }
  if (!f->name) return testplan_err(msg, msgsz, path, n, "a feature without name:", NULL);
  return 0;
}

/* Returns 0 after reading the root mapping of d into p; -1 with msg. */
static int testplan_doc_load(yaml_document_t *d, testplan *p, const char *path, char *msg, size_t msgsz) {
  yaml_node_t *root = yaml_document_get_root_node(d), *feats = NULL;
  if (!root || root->type != YAML_MAPPING_NODE)
    return testplan_err(msg, msgsz, path, root, "expected a mapping with testplan: 1 and features:", NULL);
  int version = 0;
  for (yaml_node_pair_t *q = root->data.mapping.pairs.start; q < root->data.mapping.pairs.top; q++) {
    yaml_node_t *k = yaml_document_get_node(d, q->key), *v = yaml_document_get_node(d, q->value);
    char *key = testplan_scalar(k), *val = testplan_scalar(v);
    int bad = !key;
    if (key && !strcmp(key, "testplan")) version = val && !strcmp(val, "1") ? 1 : -1;
    else if (key && !strcmp(key, "features")) feats = v;
    else bad = 1;
    if (bad) testplan_err(msg, msgsz, path, k, "unknown key (testplan, features):", key);
    free(key);
    free(val);
    if (bad) return -1;
  }
  if (version != 1) return testplan_err(msg, msgsz, path, root, "testplan: 1 is required (the format's version)", NULL);
  if (!feats || feats->type != YAML_SEQUENCE_NODE)
    return testplan_err(msg, msgsz, path, feats ? feats : root, "features: expected a list of features", NULL);
  size_t k = (size_t)(feats->data.sequence.items.top - feats->data.sequence.items.start);
  p->v = calloc(k ? k : 1, sizeof *p->v);
  if (!p->v) return testplan_err(msg, msgsz, path, feats, "out of memory", NULL);
  for (yaml_node_item_t *i = feats->data.sequence.items.start; i < feats->data.sequence.items.top; i++) {
    yaml_node_t *n = yaml_document_get_node(d, *i);
    testplan_feature *f = &p->v[p->n++];
    if (testplan_feature_load(d, n, f, path, msg, msgsz)) return -1;
    for (size_t j = 0; j + 1 < p->n; j++)
      if (!strcmp(p->v[j].name, f->name)) return testplan_err(msg, msgsz, path, n, "a feature named twice:", f->name);
  }
  return 0;
}

/* Returns 0 after reading the plan at path into p (testplan.h); -1. */
int testplan_load(const char *path, testplan *p, char *msg, size_t msgsz) {
  memset(p, 0, sizeof *p);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(msg, msgsz, "%s: cannot open the testplan", path);
    return -1;
  }
  yaml_parser_t y;
  yaml_document_t d;
  int rc = -1;
  if (!yaml_parser_initialize(&y)) {
    fclose(f);
    snprintf(msg, msgsz, "%s: out of memory", path);
    return -1;
  }
  yaml_parser_set_input_file(&y, f);
  if (!yaml_parser_load(&y, &d)) {
    snprintf(msg, msgsz, "%s:%zu:%zu: %s", path, y.problem_mark.line + 1, y.problem_mark.column + 1,
             y.problem ? y.problem : "not YAML");
  } else {
    p->path = strdup(path);
    rc = p->path ? testplan_doc_load(&d, p, path, msg, msgsz) : -1;
    yaml_document_delete(&d);
  }
  yaml_parser_delete(&y);
  fclose(f);
  if (rc) testplan_free(p);
  return rc;
}

/* Frees the strings of l. */
static void testplan_list_free(testplan_list *l) {
  for (size_t i = 0; i < l->n; i++) free(l->v[i]);
  free(l->v);
  free(l->line);
}

/* Frees what p owns. */
void testplan_free(testplan *p) {
  for (size_t i = 0; i < p->n; i++) {
    testplan_feature *f = &p->v[i];
    free(f->name);
    free(f->desc);
    testplan_list_free(&f->tests);
    testplan_list_free(&f->runs);
    testplan_list_free(&f->bins);
    testplan_list_free(&f->rtl);
  }
  free(p->v);
  free(p->path);
  memset(p, 0, sizeof *p);
}

/* ---- the check ---------------------------------------------------------- */

/* Returns 1 when root/fmt(name) is a readable file. */
static int testplan_file(const char *root, const char *fmt, const char *name) {
  char rel[1024], path[2048];
  snprintf(rel, sizeof rel, fmt, name);
  snprintf(path, sizeof path, "%s/%s", root, rel);
  return access(path, R_OK) == 0;
}

/* Returns 1 when the test named t exists under root: "tests/X.sh" a
 * script, "test_X" a unit test (tests/unit/test_X.c). */
static int testplan_test_exists(const char *root, const char *t) {
  size_t n = strlen(t);
  if (!strncmp(t, "tests/", 6) && n > 9 && !strcmp(t + n - 3, ".sh") && !strchr(t + 6, '/'))
    return testplan_file(root, "%s", t);
  if (!strncmp(t, "test_", 5) && !strchr(t, '/')) return testplan_file(root, "tests/unit/%s.c", t);
  return 0;
}

/* Returns 1 when bin name belongs to f (testplan.h). */
int testplan_feature_has_bin(const testplan_feature *f, const char *name) {
  for (size_t i = 0; i < f->bins.n; i++)
    if (!fnmatch(f->bins.v[i], name, 0)) return 1;
  return 0;
}

/* Returns 1 when a bin of s matches the glob g. */
static int testplan_glob_any_bin(const fcov_set *s, const char *g) {
  for (size_t i = 0; i < s->n; i++)
    if (!fnmatch(g, s->v[i].name, 0)) return 1;
  return 0;
}

/* Returns 1 when a run of l has a program name matching the glob g. */
static int testplan_glob_any_run(const regress_list *l, const char *g) {
  for (size_t i = 0; i < l->n; i++)
    if (l->v[i].name && !fnmatch(g, l->v[i].name, 0)) return 1;
  return 0;
}

/* Returns the number of problems of p (testplan.h), printed on out. */
int testplan_check(const testplan *p, const char *root, const fcov_set *defined, const regress_list *suite,
                   FILE *out) {
  int bad = 0;
  for (size_t i = 0; i < p->n; i++) {
    const testplan_feature *f = &p->v[i];
    for (size_t j = 0; j < f->tests.n; j++)
      if (!testplan_test_exists(root, f->tests.v[j]) && ++bad)
        fprintf(out, "%s:%d: feature %s: test %s does not exist (tests/NAME.sh or test_NAME of tests/unit/)\n",
                p->path, f->tests.line[j], f->name, f->tests.v[j]);
    for (size_t j = 0; j < f->runs.n; j++)
      if (!testplan_glob_any_run(suite, f->runs.v[j]) && ++bad)
        fprintf(out, "%s:%d: feature %s: run %s names no program of the sign-off's suite\n", p->path,
                f->runs.line[j], f->name, f->runs.v[j]);
    for (size_t j = 0; j < f->bins.n; j++)
      if (!testplan_glob_any_bin(defined, f->bins.v[j]) && ++bad)
        fprintf(out, "%s:%d: feature %s: bin %s matches no functional coverage bin of the configurations\n",
                p->path, f->bins.line[j], f->name, f->bins.v[j]);
    for (size_t j = 0; j < f->rtl.n; j++)
      if (!testplan_file(root, "rtl/%s.sv", f->rtl.v[j]) && ++bad)
        fprintf(out, "%s:%d: feature %s: RTL module %s has no rtl/%s.sv\n", p->path, f->rtl.line[j], f->name,
                f->rtl.v[j], f->rtl.v[j]);
  }
  for (size_t i = 0; i < defined->n; i++) {
    int owned = 0;
    for (size_t k = 0; k < p->n && !owned; k++) owned = testplan_feature_has_bin(&p->v[k], defined->v[i].name);
    if (!owned && ++bad)
      fprintf(out, "%s: bin %s belongs to no feature (add a pattern to the feature it shows)\n", p->path,
              defined->v[i].name);
  }
  return bad;
}

/* ---- the measure -------------------------------------------------------- */

/* A bin of the merged coverage and the features it belongs to. */
typedef struct {
  const char *name;
  uint8_t *of; /* [feature]: 1 when the bin belongs to it */
} testplan_owner;

/* Returns the order of two owners by name (qsort, bsearch). */
static int testplan_owner_cmp(const void *a, const void *b) {
  return strcmp(((const testplan_owner *)a)->name, ((const testplan_owner *)b)->name);
}

/* Returns 1 when the program of run r is one that f's `runs` names. */
static int testplan_run_named(const testplan_feature *f, const regress_run *r) {
  for (size_t j = 0; j < f->runs.n; j++)
    if (r->name && !fnmatch(f->runs.v[j], r->name, 0)) return 1;
  return 0;
}

/* Sets ex[0..p->n) to 1 for each feature one of whose bins run r hit
 * (its DIR/fcov.json; nothing when it has none). */
static void testplan_run_hits(const testplan *p, const regress_run *r, const testplan_owner *own, size_t nown,
                              uint8_t *ex) {
  char path[4200], msg[256];
  fcov_set s = {0};
  if (!r->dir) return;
  snprintf(path, sizeof path, "%s/fcov.json", r->dir);
  if (access(path, R_OK) || fcov_load(&s, path, msg, sizeof msg)) {
    fcov_free(&s);
    return;
  }
  for (size_t i = 0; i < s.n; i++) {
    if (!s.v[i].count) continue;
    testplan_owner key = {s.v[i].name, NULL};
    const testplan_owner *o = bsearch(&key, own, nown, sizeof *own, testplan_owner_cmp);
    for (size_t k = 0; o && k < p->n; k++) ex[k] |= o->of[k];
  }
  fcov_free(&s);
}

/* Returns 0 after measuring p on l and merged into st (testplan.h); -1. */
int testplan_measure(const testplan *p, const regress_list *l, const fcov_set *merged, testplan_stat *st) {
  memset(st, 0, p->n * sizeof *st);
  testplan_owner *own = calloc(merged->n ? merged->n : 1, sizeof *own);
  uint8_t *bits = calloc(merged->n * p->n + 1, 1), *ex = calloc(p->n + 1, 1);
  if (!own || !bits || !ex) {
    free(own);
    free(bits);
    free(ex);
    return -1;
  }
  for (size_t i = 0; i < merged->n; i++) {
    own[i].name = merged->v[i].name;
    own[i].of = bits + i * p->n;
    for (size_t k = 0; k < p->n; k++) {
      own[i].of[k] = (uint8_t)testplan_feature_has_bin(&p->v[k], own[i].name);
      st[k].all += own[i].of[k];
      st[k].hit += own[i].of[k] && merged->v[i].count;
    }
  }
  qsort(own, merged->n, sizeof *own, testplan_owner_cmp);
  for (size_t r = 0; r < l->n; r++) {
    const regress_run *run = &l->v[r];
    if (run->verdict == REGRESS_NOFIT || run->verdict == REGRESS_PENDING) continue; /* ran nothing */
    memset(ex, 0, p->n);
    testplan_run_hits(p, run, own, merged->n, ex);
    for (size_t k = 0; k < p->n; k++) {
      if (!ex[k] && !testplan_run_named(&p->v[k], run)) continue;
      st[k].runs++;
      st[k].passed += run->verdict == REGRESS_PASS;
      st[k].failed += run->verdict != REGRESS_PASS;
    }
  }
  for (size_t k = 0; k < p->n; k++) {
    st[k].absent = p->v[k].bins.n && !st[k].all && !st[k].runs;
    st[k].closed = !st[k].absent && p->v[k].tests.n > 0 && st[k].runs > 0 && st[k].failed == 0 &&
                   st[k].hit == st[k].all;
  }
  free(own);
  free(bits);
  free(ex);
  return 0;
}

/* Returns why f is not closed, or "closed" (testplan.h). */
const char *testplan_stat_why(const testplan_feature *f, const testplan_stat *s, char *buf, size_t size) {
  if (s->closed) return "closed";
  if (s->absent) return "not on this configuration";
  size_t n = 0;
  buf[0] = 0;
  if (!f->tests.n) n += (size_t)snprintf(buf + n, size - n, "no test");
  if (!s->runs && n < size) n += (size_t)snprintf(buf + n, size - n, "%sno run", n ? "; " : "");
  if (s->failed && n < size)
    n += (size_t)snprintf(buf + n, size - n, "%s%zu run%s failed", n ? "; " : "", s->failed, s->failed == 1 ? "" : "s");
  if (s->hit < s->all && n < size)
    snprintf(buf + n, size - n, "%s%zu bin%s not hit", n ? "; " : "", s->all - s->hit, s->all - s->hit == 1 ? "" : "s");
  return buf;
}

/* Writes the per-feature table of p and st on out (testplan.h). */
void testplan_report_text(FILE *out, const testplan *p, const testplan_stat *st) {
  size_t closed = 0, absent = 0;
  fprintf(out, "%-22s %5s %13s %13s  %s\n", "feature", "tests", "runs passed", "bins hit", "status");
  for (size_t k = 0; k < p->n; k++) {
    char runs[32], bins[32], why[128];
    snprintf(runs, sizeof runs, "%zu/%zu", st[k].passed, st[k].runs);
    snprintf(bins, sizeof bins, "%zu/%zu", st[k].hit, st[k].all);
    fprintf(out, "%-22s %5zu %13s %13s  %s\n", p->v[k].name, p->v[k].tests.n, runs, bins,
            testplan_stat_why(&p->v[k], &st[k], why, sizeof why));
    closed += (size_t)st[k].closed;
    absent += (size_t)st[k].absent;
  }
  fprintf(out, "testplan: %zu of %zu features closed (a test named, a run, none failed, every bin hit)", closed,
          p->n - absent);
  if (absent) fprintf(out, "; %zu not on this configuration", absent);
  fputc('\n', out);
}
