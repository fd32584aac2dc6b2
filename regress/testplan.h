/*
 * testplan.h: the testplan (docs/testplan.yml, docs/testplan.md): every
 * feature of the TCPA with the tests that verify it, the sign-off runs
 * that exercise it and the coverage items that show it (functional
 * coverage bins, fcov.h, by glob; RTL modules for line and toggle
 * coverage). Read with libyaml; checked against the tree (every test,
 * suite program, bin pattern and module it names exists; every bin a
 * configuration of configs/ defines belongs to a feature), and measured
 * against a regression (the runs that exercise each feature, how many
 * passed, the bins hit of its items).
 */
#ifndef TCPA_TESTPLAN_H
#define TCPA_TESTPLAN_H

#include <stddef.h>
#include <stdio.h>

#include "fcov.h"
#include "regress.h"

/* A list of strings with the line each was read from. */
typedef struct {
  char **v;
  int *line;
  size_t n;
} testplan_list;

/* One feature: its name, what it is, and what verifies and shows it. */
typedef struct {
  char *name, *desc;
  int line;            /* the line of its `name:` in the plan */
  testplan_list tests; /* tests/NAME.sh or test_NAME (tests/unit/test_NAME.c) */
  testplan_list runs;  /* program names of the sign-off suite (globs) */
  testplan_list bins;  /* fcov bin names (globs, fnmatch) */
  testplan_list rtl;   /* RTL modules (rtl/NAME.sv) */
} testplan_feature;

/* A testplan: its file and its features in order. */
typedef struct {
  char *path;
  testplan_feature *v;
  size_t n;
} testplan;

/* Returns 0 after reading the plan at path into p; -1 with the reason in
 * msg as "path:line:column: what" (not YAML, a key the format does not
 * have, a feature without a name, a name given twice). */
int testplan_load(const char *path, testplan *p, char *msg, size_t msgsz);

/* Frees what p owns. */
void testplan_free(testplan *p);

/* Returns the number of problems of p, each printed on out as
 * "path:line: feature F: what": a test that does not exist under root
 * (tests/NAME.sh, tests/unit/NAME.c), a run that names no program of
 * suite, a bin pattern that matches no bin of defined, a module without
 * rtl/NAME.sv, a bin of defined that no feature's pattern matches. */
int testplan_check(const testplan *p, const char *root, const fcov_set *defined, const regress_list *suite,
                   FILE *out);

/* What a regression shows of one feature. */
typedef struct {
  size_t runs;   /* runs that exercise it: a program its `runs` names, or a
                    bin of its items hit (a run that does not fit runs nothing) */
  size_t passed; /* of those, the runs that passed */
  size_t failed; /* of those, the runs that did not (fail, timeout, crash, ...) */
  size_t hit, all; /* its bins (in the merged coverage) hit, and defined */
  int absent;    /* it names bins but the configuration defines none of
                    them and no run exercises it (a unit it does not have) */
  int closed;    /* tests named, a run exercises it, none failed, every bin hit */
} testplan_stat;

/* Returns 0 after measuring every feature of p on the runs l (each run's
 * functional coverage read from its directory's fcov.json, where it has
 * one) and their merged coverage merged, into st[0..p->n); -1 when out of
 * memory. */
int testplan_measure(const testplan *p, const regress_list *l, const fcov_set *merged, testplan_stat *st);

/* Returns 1 when bin name belongs to feature f (one of its patterns
 * matches), else 0. */
int testplan_feature_has_bin(const testplan_feature *f, const char *name);

/* Writes the per-feature table of p and st as text on out: feature,
 * tests, runs passed / exercising, bins hit / defined, closed or why not;
 * then the count of features closed. */
void testplan_report_text(FILE *out, const testplan *p, const testplan_stat *st);

/* Returns buf (size bytes) saying why feature f with stat s is not closed
 * ("no test; no run; 2 runs failed; 3 bins not hit"), or "closed", or
 * "not on this configuration". */
const char *testplan_stat_why(const testplan_feature *f, const testplan_stat *s, char *buf, size_t size);

#endif
