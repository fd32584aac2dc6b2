/*
 * regress_list.c: the records of a regression (regress.h): the growable
 * list of runs, freeing, filtering by globs on the run ids (--filter,
 * --exclude), the names of verdicts and expectations and the one-line
 * form of a failure signature.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regress.h"

static const char *const regress_verdict_names[] = {"pending", "pass",    "fail", "invalid",
                                                    "nofit",   "timeout", "crash"};

char *regress_strdup(const char *s) {
  if (!s) return NULL;
  char *d = strdup(s);
  if (!d) {
    fputs("tcpa: error: out of memory\n", stderr);
    abort();
  }
  return d;
}

regress_run *regress_list_add(regress_list *l) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 64;
    regress_run *v = realloc(l->v, cap * sizeof *v);
    if (!v) return NULL;
    l->v = v;
    l->cap = cap;
  }
  regress_run *r = &l->v[l->n++];
  memset(r, 0, sizeof *r);
  r->exit_code = -1;
  r->cycles = r->pes_used = r->ii = r->config_bytes = -1;
  r->inst_seconds = -1;
  return r;
}

/* Frees what a signature owns. */
static void regress_signature_free(regress_signature *s) {
  free(s->check);
  free(s->kind);
  free(s->unit);
  free(s->unit_class);
  free(s->stage);
  free(s->diff);
  memset(s, 0, sizeof *s);
}

void regress_run_free(regress_run *r) {
  char **s[] = {&r->id, &r->suite, &r->program, &r->name, &r->params, &r->pes, &r->map,
                &r->arch, &r->engine, &r->where, &r->message, &r->dir, &r->line};
  for (size_t i = 0; i < sizeof s / sizeof *s; i++) {
    free(*s[i]);
    *s[i] = NULL;
  }
  regress_signature_free(&r->sig);
  free(r->nofit);
  r->nofit = NULL;
}

void regress_list_free(regress_list *l) {
  for (size_t i = 0; i < l->n; i++) regress_run_free(&l->v[i]);
  free(l->v);
  memset(l, 0, sizeof *l);
}

/* Returns 1 when id matches one of the n globs. */
static int regress_glob_any(const char *id, const char *const *globs, int n) {
  for (int i = 0; i < n; i++)
    if (fnmatch(globs[i], id, 0) == 0) return 1;
  return 0;
}

size_t regress_list_filter(regress_list *l, const char *const *keep, int nkeep, const char *const *drop, int ndrop) {
  size_t w = 0;
  for (size_t i = 0; i < l->n; i++) {
    regress_run *r = &l->v[i];
    if ((nkeep && !regress_glob_any(r->id, keep, nkeep)) || regress_glob_any(r->id, drop, ndrop)) {
      regress_run_free(r);
      continue;
    }
    l->v[w++] = *r;
  }
  l->n = w;
  return w;
}

const char *regress_verdict_name(regress_verdict v) {
  return (unsigned)v < sizeof regress_verdict_names / sizeof *regress_verdict_names
             ? regress_verdict_names[v]
             : "pending";
}

regress_verdict regress_verdict_parse(const char *s) {
  for (size_t i = 0; s && i < sizeof regress_verdict_names / sizeof *regress_verdict_names; i++)
    if (!strcmp(s, regress_verdict_names[i])) return (regress_verdict)i;
  return REGRESS_PENDING;
}

const char *regress_expect_name(regress_expect e) {
  return e == REGRESS_EXPECT_PASS ? "pass" : e == REGRESS_EXPECT_NOFIT ? "nofit" : "any";
}

char *regress_signature_text(const regress_signature *s) {
  if (!s->check) return regress_strdup("");
  char *t = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&t, &len);
  if (!f) return regress_strdup("");
  fprintf(f, "%s", s->check);
  if (s->kind && *s->kind) fprintf(f, ": %s", s->kind);
  if (s->unit && *s->unit) fprintf(f, " %s", s->unit);
  if (s->stage && *s->stage) fprintf(f, " @ %s", s->stage);
  if (s->diff && *s->diff) fprintf(f, " (%s)", s->diff);
  fclose(f);
  return t;
}
