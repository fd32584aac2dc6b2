/*
 * regress_suite.c: reads a suite file (regress_suite.h, docs/regress.md)
 * and expands it into runs.
 *
 * The file is read line by line; `#` starts a comment. A line is a
 * directive followed by whitespace-separated words:
 *
 *   suite NAME              the suite's name (default: the file's name)
 *   set KEY=VALUE...        defaults for the `run` lines that follow
 *   run PROGRAM KEY=VALUE...  runs of PROGRAM
 *
 * Keys: arch, engine, pes, map, seeds (or seed), expect, timeout, window,
 * scale (small or real: a run line of another scale than --scale asks for
 * expands to nothing);
 * any other KEY=VALUE is a program parameter (`param:NAME=V` for a
 * parameter whose name is one of the keys). Values of arch, engine, pes,
 * map, seeds and parameters are comma-separated lists; an integer range
 * `A..B` stands for A, A+1, ..., B. A `run` line expands, in this order of
 * nesting (outermost first), over architectures, engines, regions, maps,
 * parameter values (in the order written, the last one innermost) and
 * seeds. `pes=1d` is every 1-D region of the architecture (1x1 .. 1xC,
 * 2x1 .. Rx1), `pes=all` every RxC region. `seeds=random:K` draws K seeds
 * from the run's key (regress_suite_seed). A bare program name is
 * regress/programs/NAME.pla, a bare architecture name configs/NAME.ini,
 * both in the source tree of the running tcpa; any other relative path is
 * relative to the suite file's directory, so a suite runs from anywhere.
 * Each run line is checked against its program (parsed once per suite,
 * parse.h): every parameter key is one of the program's parameters, each
 * of them is given, every value is an integer and every combination lies
 * in the program's parameter domain (check_params_valid); so a misspelt
 * key is an error at its FILE:LINE:COL before anything runs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "check.h"
#include "diag.h"
#include "fileio.h"
#include "parse.h"
#include "regress_suite.h"
#include "rng.h"

#define SUITE_MAX_PARAMS 16
#define SUITE_MAX_VALUES 4096 /* values of one list after expansion */

/* The keys of a `set` or `run` line, as written (owned strings). */
typedef struct {
  char *arch, *engine, *pes, *map, *seeds, *expect, *timeout, *window, *scale;
  char *pname[SUITE_MAX_PARAMS], *pval[SUITE_MAX_PARAMS];
  int np;
  int col[16], line[16]; /* where each key's value is written (a `set` line
                            or the run line), for messages */
  int pcol[SUITE_MAX_PARAMS], pline[SUITE_MAX_PARAMS]; /* where each parameter is */
} suite_keys;

/* A program a run line names, parsed once per suite (its parameters). */
typedef struct {
  char *path;
  ast_program *prog; /* NULL: it did not parse (errors printed once) */
} suite_prog;

/* The parser's position. */
typedef struct {
  const char *path;
  const char *text;
  int line;
  const char *line_start;
  int errors;
  char *name; /* the suite's name */
  const regress_suite_opts *o;
  regress_list *out;
  char *dir;  /* the suite file's directory: relative paths in it start there */
  char *root; /* the source tree of the running tcpa (regress/programs,
                 configs): where bare names are looked up */
  char *cwd;  /* shown paths under it are shown relative to it */
  suite_prog *progs;
  int nprogs;
} suite_parser;

/* A list of values, expanded. */
typedef struct {
  char **v;
  int n;
} suite_values;

enum { K_ARCH, K_ENGINE, K_PES, K_MAP, K_SEEDS, K_EXPECT, K_TIMEOUT, K_WINDOW, K_SCALE, K_NKEYS };
static const char *const suite_key_names[K_NKEYS] = {"arch",   "engine",  "pes",     "map",   "seeds",
                                                     "expect", "timeout", "window", "scale"};

/* Prints an error at column col of the current line. */
__attribute__((format(printf, 3, 4))) static void suite_error(suite_parser *sp, int col, const char *fmt, ...) {
  diag_loc loc = {sp->path, sp->line, col};
  va_list ap;
  va_start(ap, fmt);
  diag_verror(&loc, sp->text, fmt, ap);
  va_end(ap);
  sp->errors++;
}

/* Prints an error at line:col (a key given on an earlier `set` line has its
 * own line; 0 means the current line). */
__attribute__((format(printf, 4, 5))) static void suite_error_at(suite_parser *sp, int line, int col,
                                                                 const char *fmt, ...) {
  diag_loc loc = {sp->path, line ? line : sp->line, col};
  va_list ap;
  va_start(ap, fmt);
  diag_verror(&loc, sp->text, fmt, ap);
  va_end(ap);
  sp->errors++;
}

/* Returns a pointer to the slot of key k in keys. */
static char **suite_key_slot(suite_keys *keys, int k) {
  char **slots[K_NKEYS] = {&keys->arch,   &keys->engine,  &keys->pes,    &keys->map,  &keys->seeds,
                           &keys->expect, &keys->timeout, &keys->window, &keys->scale};
  return slots[k];
}

/* Frees what keys own. */
static void suite_keys_free(suite_keys *keys) {
  for (int k = 0; k < K_NKEYS; k++) free(*suite_key_slot(keys, k));
  for (int i = 0; i < keys->np; i++) {
    free(keys->pname[i]);
    free(keys->pval[i]);
  }
  memset(keys, 0, sizeof *keys);
}

/* Copies the keys set in `from` over those of `to` (parameters appended or
 * replaced by name). */
static void suite_keys_merge(suite_keys *to, const suite_keys *from) {
  for (int k = 0; k < K_NKEYS; k++) {
    char *v = *suite_key_slot((suite_keys *)from, k);
    if (!v) continue;
    char **slot = suite_key_slot(to, k);
    free(*slot);
    *slot = regress_strdup(v);
    to->col[k] = from->col[k];
    to->line[k] = from->line[k];
  }
  for (int i = 0; i < from->np; i++) {
    int j = 0;
    while (j < to->np && strcmp(to->pname[j], from->pname[i])) j++;
    if (j == to->np) {
      if (to->np == SUITE_MAX_PARAMS) continue;
      to->pname[to->np++] = regress_strdup(from->pname[i]);
    } else {
      free(to->pval[j]);
    }
    to->pval[j] = regress_strdup(from->pval[i]);
    to->pcol[j] = from->pcol[i];
    to->pline[j] = from->pline[i];
  }
}

/* Returns 1 when s is an identifier. */
static int suite_ident(const char *s) {
  if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) return 0;
  for (s++; *s; s++)
    if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
      return 0;
  return 1;
}

/* Returns 0 after storing word (KEY=VALUE at column col) into keys; -1
 * after an error. */
static int suite_word_parse(suite_parser *sp, const char *word, int col, suite_keys *keys) {
  const char *eq = strchr(word, '=');
  if (!eq || eq == word || !eq[1]) {
    suite_error(sp, col, "expected KEY=VALUE, got '%s'", word);
    return -1;
  }
  char key[128];
  size_t klen = (size_t)(eq - word);
  if (klen >= sizeof key) {
    suite_error(sp, col, "key too long");
    return -1;
  }
  memcpy(key, word, klen);
  key[klen] = '\0';
  const char *val = eq + 1;
  int vcol = col + (int)klen + 1;
  if (!strcmp(key, "seed")) strcpy(key, "seeds");
  for (int k = 0; k < K_NKEYS; k++)
    if (!strcmp(key, suite_key_names[k])) {
      char **slot = suite_key_slot(keys, k);
      if (*slot) {
        suite_error(sp, col, "'%s' given twice", key);
        return -1;
      }
      *slot = regress_strdup(val);
      keys->col[k] = vcol;
      keys->line[k] = sp->line;
      return 0;
    }
  const char *pname = strncmp(key, "param:", 6) ? key : key + 6;
  if (!suite_ident(pname)) {
    suite_error(sp, col, "'%s' is neither a key (arch, engine, pes, map, seeds, expect, timeout, window, scale) "
                "nor a parameter name", key);
    return -1;
  }
  for (int i = 0; i < keys->np; i++)
    if (!strcmp(keys->pname[i], pname)) {
      suite_error(sp, col, "parameter '%s' given twice", pname);
      return -1;
    }
  if (keys->np == SUITE_MAX_PARAMS) {
    suite_error(sp, col, "more than %d parameters", SUITE_MAX_PARAMS);
    return -1;
  }
  keys->pname[keys->np] = regress_strdup(pname);
  keys->pcol[keys->np] = col;
  keys->pline[keys->np] = sp->line;
  keys->pval[keys->np++] = regress_strdup(val);
  return 0;
}

/* Frees a list of values. */
static void suite_values_free(suite_values *v) {
  for (int i = 0; i < v->n; i++) free(v->v[i]);
  free(v->v);
  v->v = NULL;
  v->n = 0;
}

/* Returns 0 after appending s to v; -1 when the list is too long. */
static int suite_values_add(suite_values *v, const char *s) {
  if (v->n >= SUITE_MAX_VALUES) return -1;
  if (v->n % 64 == 0) {
    char **nv = realloc(v->v, (size_t)(v->n + 64) * sizeof *nv);
    if (!nv) return -1;
    v->v = nv;
  }
  v->v[v->n++] = regress_strdup(s);
  return 0;
}

/* Returns 0 and *x when s is a decimal integer (optional sign); -1. */
static int suite_int(const char *s, int64_t *x) {
  char *end;
  if (!*s) return -1;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || *end) return -1;
  *x = v;
  return 0;
}

/* Returns 0 after splitting `text` (a comma list, ranges A..B allowed when
 * `ranges`) into v; -1 after an error at column col. */
static int suite_split(suite_parser *sp, const char *key, const char *text, int line, int col, int ranges,
                       suite_values *v) {
  char *buf = regress_strdup(text), *save = NULL;
  int rc = 0;
  if (text[0] == ',' || text[strlen(text) - 1] == ',' || strstr(text, ",,")) {
    suite_error_at(sp, line, col, "%s: empty item in the list '%s'", key, text);
    free(buf);
    return -1;
  }
  for (char *tok = strtok_r(buf, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
    char *dots = ranges ? strstr(tok, "..") : NULL;
    if (!dots) {
      if (suite_values_add(v, tok)) rc = -1;
      continue;
    }
    *dots = '\0';
    int64_t a, b;
    if (suite_int(tok, &a) || suite_int(dots + 2, &b) || b < a) {
      suite_error_at(sp, line, col, "%s: expected a range A..B of integers with A <= B, got '%s..%s'", key, tok,
                  dots + 2);
      rc = -2;
      break;
    }
    for (int64_t x = a; x <= b && !rc; x++) {
      char num[32];
      snprintf(num, sizeof num, "%" PRId64, x);
      if (suite_values_add(v, num)) rc = -1;
    }
  }
  if (rc == -1) suite_error_at(sp, line, col, "%s: more than %d values", key, SUITE_MAX_VALUES);
  free(buf);
  return rc ? -1 : 0;
}

/* Returns a malloc'ed path as it is shown and passed to the runs: p
 * relative to the current directory when it lies under it, else p. */
static char *suite_shown(const suite_parser *sp, const char *p) {
  size_t n = sp->cwd ? strlen(sp->cwd) : 0;
  if (n && p[0] == '/' && !strncmp(p, sp->cwd, n) && p[n] == '/' && p[n + 1]) return regress_strdup(p + n + 1);
  return regress_strdup(p);
}

/* Returns a malloc'ed path for a name in a suite: a bare name (no '/', no
 * suffix ext) is ROOT/sub/NAME.ext in the tcpa source tree; an absolute
 * path is itself; another path is relative to dir (the suite file's
 * directory; "." for the command line's). */
static char *suite_path(const suite_parser *sp, const char *dir, const char *name, const char *sub,
                        const char *ext) {
  size_t nl = strlen(name), el = strlen(ext);
  char buf[8192];
  if (!strchr(name, '/') && !(nl > el && !strcmp(name + nl - el, ext)))
    snprintf(buf, sizeof buf, "%s/%s/%s%s", sp->root, sub, name, ext);
  else if (name[0] == '/' || !strcmp(dir, "."))
    snprintf(buf, sizeof buf, "%s", name);
  else
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
  return suite_shown(sp, buf);
}

int regress_suite_tree(char *root, char *build, size_t size) {
  char exe[4096], probe[4200];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = '\0';
  for (int up = 0; up < 3; up++) {
    char *s = strrchr(exe, '/');
    if (!s || s == exe) return -1;
    *s = '\0';
    if (up == 1 && build) snprintf(build, size, "%s", exe);
  }
  snprintf(probe, sizeof probe, "%s/regress/programs", exe);
  if (access(probe, R_OK) != 0) return -1;
  snprintf(root, size, "%s", exe);
  return 0;
}

/* Returns the malloc'ed source tree of the running tcpa (BUILD/bin/tcpa:
 * the parent of BUILD) when it holds regress/programs; else ".". */
static char *suite_root_find(void) {
  char root[4096];
  return regress_strdup(regress_suite_tree(root, NULL, sizeof root) ? "." : root);
}

/* Returns the malloc'ed directory of path ("." when it has none). */
static char *suite_dirname(const char *path) {
  const char *s = strrchr(path, '/');
  if (!s) return regress_strdup(".");
  if (s == path) return regress_strdup("/");
  char *d = regress_strdup(path);
  d[s - path] = '\0';
  return d;
}

/* Returns a malloc'ed copy of the file name of path without dir and ext. */
static char *suite_basename(const char *path, const char *ext) {
  const char *b = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  char *s = regress_strdup(b);
  size_t n = strlen(s), e = strlen(ext);
  if (n > e && !strcmp(s + n - e, ext)) s[n - e] = '\0';
  return s;
}

/* Returns 0 after expanding a `pes=` item (RxC, 1d, all) for architecture
 * arch into v; -1 after an error. */
static int suite_pes_expand(suite_parser *sp, const char *item, const char *arch, int line, int col,
                            suite_values *v) {
  if (strcmp(item, "1d") && strcmp(item, "all")) {
    int r, c;
    char x;
    if (sscanf(item, "%d%c%d", &r, &x, &c) != 3 || x != 'x' || r < 1 || c < 1) {
      suite_error_at(sp, line, col, "pes: expected RxC (e.g. 1x4), 1d or all, got '%s'", item);
      return -1;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%dx%d", r, c);
    return suite_values_add(v, buf);
  }
  arch_config cfg;
  if (arch_config_load(arch, &cfg) != 0) {
    suite_error_at(sp, line, col, "pes=%s: cannot read the architecture '%s'", item, arch);
    return -1;
  }
  for (int r = 1; r <= cfg.rows; r++)
    for (int c = 1; c <= cfg.cols; c++) {
      if (!strcmp(item, "1d") && r > 1 && c > 1) continue;
      char buf[64];
      snprintf(buf, sizeof buf, "%dx%d", r, c);
      if (suite_values_add(v, buf)) return -1;
    }
  return 0;
}

/* Returns a malloc'ed id: the run's fields joined, characters outside
 * [A-Za-z0-9._-] replaced by '-'. */
static char *suite_id_make(const char *name, const char *params, const char *pes, const char *map,
                           const char *engine, const char *arch, const char *seed) {
  char *abase = suite_basename(arch, ".ini");
  char buf[1024];
  snprintf(buf, sizeof buf, "%s_%s_%s%s%s_%s_%s%s%s", name, *params ? params : "noparams", pes,
           map ? "_map-" : "", map ? map : "", engine, abase, seed ? "_s" : "", seed ? seed : "");
  free(abase);
  /* "N=13 T=3" -> "N13-T3" */
  char *o = buf;
  for (char *s = buf; *s; s++) {
    if (*s == '=') continue;
    int okc = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '.' ||
              *s == '_' || *s == '-';
    *o++ = okc ? *s : '-';
  }
  *o = '\0';
  return regress_strdup(buf);
}

/* Returns 1 when l already has a run with this id. */
static int suite_id_taken(const regress_list *l, const char *id) {
  for (size_t i = 0; i < l->n; i++)
    if (l->v[i].id && !strcmp(l->v[i].id, id)) return 1;
  return 0;
}

/* One combination of a run line's lists, before the seeds. */
typedef struct {
  const char *program, *name, *arch, *engine, *pes, *map;
  char params[512];
  regress_expect expect;
  int timeout, window;
  const ast_program *prog; /* the program's parameters, for its domain */
  int pidx[SUITE_MAX_PARAMS]; /* the program's index of each parameter key */
  int64_t pvals[AST_MAX_PARAMS];
} suite_combo;

/* Appends the runs of combination c, one per seed of `seeds`. */
static int suite_combo_emit(suite_parser *sp, const suite_combo *c, const char *seeds, int sline, int scol) {
  suite_values sv = {0};
  int rc = 0;
  char *key = suite_id_make(c->name, c->params, c->pes, c->map, c->engine, c->arch, NULL);
  if (!strncmp(seeds, "random:", 7)) {
    int64_t k;
    if (suite_int(seeds + 7, &k) || k < 1 || k > SUITE_MAX_VALUES) {
      suite_error_at(sp, sline, scol, "seeds: expected random:K with K from 1 to %d, got '%s'", SUITE_MAX_VALUES,
                     seeds);
      free(key);
      return -1;
    }
    for (int i = 0; i < (int)k; i++) {
      char num[32];
      snprintf(num, sizeof num, "%" PRIu64, regress_suite_seed(key, i, sp->o->seed_base));
      suite_values_add(&sv, num);
    }
  } else if (suite_split(sp, "seeds", seeds, sline, scol, 1, &sv)) {
    free(key);
    return -1;
  }
  for (int i = 0; i < sv.n && !rc; i++) {
    char *end;
    errno = 0;
    unsigned long long s = strtoull(sv.v[i], &end, 10);
    if (errno || *end || sv.v[i][0] < '0' || sv.v[i][0] > '9') {
      suite_error_at(sp, sline, scol, "seeds: '%s' is not a non-negative integer", sv.v[i]);
      rc = -1;
      break;
    }
    regress_run *r = regress_list_add(sp->out);
    if (!r) {
      rc = -1;
      break;
    }
    char *id = suite_id_make(c->name, c->params, c->pes, c->map, c->engine, c->arch, sv.v[i]);
    for (int dup = 2; suite_id_taken(sp->out, id); dup++) {
      char buf[1100];
      snprintf(buf, sizeof buf, "%s-%d", id, dup);
      free(id);
      id = regress_strdup(buf);
    }
    r->id = id;
    r->suite = regress_strdup(sp->name);
    r->program = regress_strdup(c->program);
    r->name = regress_strdup(c->name);
    r->params = regress_strdup(c->params);
    r->pes = regress_strdup(c->pes);
    r->map = regress_strdup(c->map);
    r->arch = regress_strdup(c->arch);
    r->engine = regress_strdup(c->engine);
    r->seed = s;
    r->expect = c->expect;
    r->timeout = c->timeout;
    r->window = c->window;
    char where[1100];
    snprintf(where, sizeof where, "%s:%d", sp->path, sp->line);
    r->where = regress_strdup(where);
  }
  free(key);
  suite_values_free(&sv);
  return rc;
}

/* Expands the parameter lists from index i on into c->params and emits
 * each combination. */
static int suite_params_expand(suite_parser *sp, suite_combo *c, const suite_keys *k, suite_values *pv, int i,
                               size_t len) {
  if (i == k->np && !check_params_valid(c->prog, c->pvals)) {
    suite_error_at(sp, k->pline[0], k->pcol[0],
                   "%s %s: outside the program's parameter domain (each parameter >= 1 and the "
                   "parameter constraints of its `par`)", c->name, c->params);
    return -1;
  }
  if (i == k->np)
    return suite_combo_emit(sp, c, sp->o->seeds ? sp->o->seeds : k->seeds ? k->seeds : "1", k->line[K_SEEDS],
                            k->col[K_SEEDS]);
  for (int j = 0; j < pv[i].n; j++) {
    snprintf(c->params + len, sizeof c->params - len, "%s%s=%s", len ? " " : "", k->pname[i], pv[i].v[j]);
    suite_int(pv[i].v[j], &c->pvals[c->pidx[i]]); /* checked by suite_params_check */
    if (suite_params_expand(sp, c, k, pv, i + 1, strlen(c->params))) return -1;
  }
  c->params[len] = '\0';
  return 0;
}

/* Returns 0 after checking a small integer key (timeout, window); -1. */
static int suite_small_int(suite_parser *sp, const suite_keys *k, int key, int max, int *out) {
  const char *v = *suite_key_slot((suite_keys *)k, key);
  int64_t x;
  *out = 0;
  if (!v) return 0;
  if (suite_int(v, &x) || x < 1 || x > max) {
    suite_error_at(sp, k->line[key], k->col[key], "%s: expected an integer from 1 to %d, got '%s'",
                   suite_key_names[key], max, v);
    return -1;
  }
  *out = (int)x;
  return 0;
}

/* Returns the program at path, parsed once per suite; NULL when it does
 * not parse (its errors printed, once). */
static const ast_program *suite_prog_get(suite_parser *sp, const char *path) {
  for (int i = 0; i < sp->nprogs; i++)
    if (!strcmp(sp->progs[i].path, path)) return sp->progs[i].prog;
  suite_prog *np = realloc(sp->progs, (size_t)(sp->nprogs + 1) * sizeof *np);
  if (!np) return NULL;
  sp->progs = np;
  np[sp->nprogs].path = regress_strdup(path);
  np[sp->nprogs].prog = parse_file(path);
  return np[sp->nprogs++].prog;
}

/* Returns 0 after checking the parameters of the effective keys k against
 * program p (run line's program at column pcol): each one a parameter of
 * p, each of p's given, every value an integer; fills c->pidx. -1 after
 * printing the errors. */
static int suite_params_check(suite_parser *sp, const ast_program *p, int pcol, const suite_keys *k,
                              const suite_values *pv, suite_combo *c) {
  char names[256] = "";
  for (int j = 0; j < p->nparams; j++)
    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", j ? ", " : "", p->param[j]);
  int bad = 0;
  for (int i = 0; i < k->np; i++) {
    int j = 0;
    while (j < p->nparams && strcmp(p->param[j], k->pname[i])) j++;
    if (j == p->nparams) {
      suite_error_at(sp, k->pline[i], k->pcol[i],
                     "unknown key '%s': neither a key (arch, engine, pes, map, seeds, expect, timeout, window, "
                     "scale) nor a parameter of %s (%s)", k->pname[i], p->name, p->nparams ? names : "none");
      bad = 1;
      continue;
    }
    c->pidx[i] = j;
    for (int v = 0; v < pv[i].n; v++) {
      int64_t x;
      if (suite_int(pv[i].v[v], &x)) {
        suite_error_at(sp, k->pline[i], k->pcol[i] + (int)strlen(k->pname[i]) + 1,
                       "%s: expected an integer (or a list, a range A..B), got '%s'", k->pname[i], pv[i].v[v]);
        bad = 1;
        break;
      }
    }
  }
  for (int j = 0; j < p->nparams; j++) {
    int i = 0;
    while (i < k->np && strcmp(p->param[j], k->pname[i])) i++;
    if (i == k->np) {
      suite_error(sp, pcol, "%s needs its parameter %s (%s=VALUE; its parameters: %s)", p->name, p->param[j],
                  p->param[j], names);
      bad = 1;
    }
  }
  return bad ? -1 : 0;
}

/* Returns 0 after expanding a run line of `prog` (at column pcol) with its
 * effective keys k. */
static int suite_run_expand(suite_parser *sp, const char *prog, int pcol, const suite_keys *k) {
  suite_combo c = {0};
  suite_values archs = {0}, engines = {0}, maps = {0}, pv[SUITE_MAX_PARAMS] = {{0}};
  int rc = -1;
  char *program = suite_path(sp, sp->dir, prog, "regress/programs", ".pla");
  char *name = suite_basename(program, ".pla");
  c.program = program;
  c.name = name;
  if (access(program, R_OK) != 0) {
    suite_error(sp, pcol, "program '%s': %s", program, strerror(errno));
    goto error;
  }
  c.prog = suite_prog_get(sp, program);
  if (!c.prog) {
    suite_error(sp, pcol, "program '%s' does not parse (its errors above)", program);
    goto error;
  }
  const regress_suite_opts *o = sp->o;
  const char *scale = k->scale ? k->scale : "small";
  if (strcmp(scale, "small") && strcmp(scale, "real")) {
    suite_error_at(sp, k->line[K_SCALE], k->col[K_SCALE], "scale: expected small or real, got '%s'", scale);
    goto error;
  }
  if (o->scale && strcmp(o->scale, scale)) {
    rc = 0; /* not of the scale asked for: no runs */
    goto error;
  }
  if (suite_split(sp, "arch", o->arch ? o->arch : k->arch ? k->arch : "default", k->line[K_ARCH], k->col[K_ARCH], 0,
                  &archs) ||
      suite_split(sp, "engine", o->engine ? o->engine : k->engine ? k->engine : "model", k->line[K_ENGINE],
                  k->col[K_ENGINE], 0,
                  &engines) ||
      (k->map && suite_split(sp, "map", k->map, k->line[K_MAP], k->col[K_MAP], 0, &maps)))
    goto error;
  for (int i = 0; i < engines.n; i++)
    if (strcmp(engines.v[i], "ref") && strcmp(engines.v[i], "model") && strcmp(engines.v[i], "rtl") &&
        strcmp(engines.v[i], "cosim")) {
      suite_error_at(sp, k->line[K_ENGINE], k->col[K_ENGINE], "engine: expected ref, model, rtl or cosim, got '%s'",
                     engines.v[i]);
      goto error;
    }
  for (int i = 0; i < maps.n; i++)
    for (char *s = maps.v[i]; *s; s++)
      if (*s == ':') *s = ',';
  const char *ex = k->expect ? k->expect : "any";
  if (!strcmp(ex, "any")) c.expect = REGRESS_EXPECT_ANY;
  else if (!strcmp(ex, "pass")) c.expect = REGRESS_EXPECT_PASS;
  else if (!strcmp(ex, "nofit")) c.expect = REGRESS_EXPECT_NOFIT;
  else {
    suite_error_at(sp, k->line[K_EXPECT], k->col[K_EXPECT], "expect: expected any, pass or nofit, got '%s'", ex);
    goto error;
  }
  if (suite_small_int(sp, k, K_TIMEOUT, 86400, &c.timeout) || suite_small_int(sp, k, K_WINDOW, 1000000, &c.window))
    goto error;
  for (int i = 0; i < k->np; i++)
    if (suite_split(sp, k->pname[i], k->pval[i], k->pline[i], k->pcol[i], 1, &pv[i])) goto error;
  if (suite_params_check(sp, c.prog, pcol, k, pv, &c)) goto error;
  rc = 0;
  for (int a = 0; a < archs.n && !rc; a++) {
    char *arch = suite_path(sp, o->arch ? "." : sp->dir, archs.v[a], "configs", ".ini");
    suite_values pes = {0};
    if (access(arch, R_OK) != 0) {
      suite_error_at(sp, k->line[K_ARCH], k->col[K_ARCH], "architecture '%s': %s", arch, strerror(errno));
      rc = -1;
    }
    char *pbuf = regress_strdup(o->pes ? o->pes : k->pes ? k->pes : "1x1");
    char *save = NULL;
    for (char *t = rc ? NULL : strtok_r(pbuf, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save))
      rc = suite_pes_expand(sp, t, arch, k->line[K_PES], k->col[K_PES], &pes);
    free(pbuf);
    c.arch = arch;
    for (int e = 0; e < engines.n && !rc; e++)
      for (int r = 0; r < pes.n && !rc; r++)
        for (int m = 0; m < (maps.n ? maps.n : 1) && !rc; m++) {
          c.engine = engines.v[e];
          c.pes = pes.v[r];
          c.map = maps.n ? maps.v[m] : NULL;
          c.params[0] = '\0';
          rc = suite_params_expand(sp, &c, k, pv, 0, 0);
        }
    suite_values_free(&pes);
    free(arch);
  }
error:
  suite_values_free(&archs);
  suite_values_free(&engines);
  suite_values_free(&maps);
  for (int i = 0; i < SUITE_MAX_PARAMS; i++) suite_values_free(&pv[i]);
  free(program);
  free(name);
  return rc;
}

/* Returns the malloc'ed path of the architecture of job file `path`: its
 * `arch = FILE` line before the first section (as the job runner reads
 * it, from the current directory), else the command line's --arch, else
 * configs/default.ini. */
static char *suite_job_arch(const suite_parser *sp, const char *path) {
  size_t len;
  char *text = fileio_read_all(path, &len), *arch = NULL;
  for (char *save = NULL, *l = text ? strtok_r(text, "\n", &save) : NULL; l && *l != '['; l = strtok_r(NULL, "\n", &save)) {
    while (*l == ' ' || *l == '\t') l++;
    if (strncmp(l, "arch", 4)) continue;
    char *v = l + 4;
    while (*v == ' ' || *v == '\t') v++;
    if (*v++ != '=') continue;
    while (*v == ' ' || *v == '\t') v++;
    size_t n = strcspn(v, " \t\r#;");
    v[n] = '\0';
    arch = regress_strdup(v);
    break;
  }
  free(text);
  if (arch) return arch;
  return sp->o->arch ? suite_path(sp, ".", sp->o->arch, "configs", ".ini")
                     : suite_path(sp, sp->dir, "default", "configs", ".ini");
}

/* Returns 0 after appending the runs of a `job FILE` line (at column
 * pcol) with its effective keys k: one per engine, the job file's own
 * programs, regions and architecture (docs/regress.md "Jobs"). */
static int suite_job_expand(suite_parser *sp, const char *file, int pcol, const suite_keys *k) {
  suite_values engines = {0};
  int rc = -1;
  char *path = suite_path(sp, sp->dir, file, "regress/jobs", ".ini");
  char *name = suite_basename(path, ".ini");
  suite_combo c = {.program = path, .name = name, .pes = "job", .expect = REGRESS_EXPECT_PASS};
  if (access(path, R_OK) != 0) {
    suite_error(sp, pcol, "job '%s': %s", path, strerror(errno));
    goto out;
  }
  if (k->pes || k->map || k->arch || k->np) {
    suite_error(sp, pcol, "job '%s': a job file names its own programs, parameters, regions and architecture "
                          "(keys here: engine, expect, timeout)", path);
    goto out;
  }
  if (suite_split(sp, "engine", sp->o->engine ? sp->o->engine : k->engine ? k->engine : "model", k->line[K_ENGINE],
                  k->col[K_ENGINE], 0, &engines))
    goto out;
  const char *ex = k->expect ? k->expect : "pass";
  c.expect = !strcmp(ex, "any") ? REGRESS_EXPECT_ANY : !strcmp(ex, "nofit") ? REGRESS_EXPECT_NOFIT : REGRESS_EXPECT_PASS;
  if (suite_small_int(sp, k, K_TIMEOUT, 86400, &c.timeout)) goto out;
  char *arch = suite_job_arch(sp, path);
  c.arch = arch;
  rc = 0;
  for (int e = 0; e < engines.n && !rc; e++) {
    if (strcmp(engines.v[e], "model") && strcmp(engines.v[e], "rtl") && strcmp(engines.v[e], "cosim")) {
      suite_error_at(sp, k->line[K_ENGINE], k->col[K_ENGINE], "engine of a job: expected model, rtl or cosim, got '%s'",
                     engines.v[e]);
      rc = -1;
      break;
    }
    c.engine = engines.v[e];
    size_t before = sp->out->n;
    rc = suite_combo_emit(sp, &c, "1", sp->line, pcol);
    for (size_t i = before; i < sp->out->n; i++) sp->out->v[i].job = 1;
  }
  free(arch);
out:
  suite_values_free(&engines);
  free(path);
  free(name);
  return rc;
}

/* Parses one line (NUL-terminated copy in buf, same offsets as the text);
 * `defaults` collects `set` keys. */
static void suite_line_parse(suite_parser *sp, char *buf, suite_keys *defaults) {
  char *hash = strchr(buf, '#');
  if (hash) *hash = '\0';
  char *words[256];
  int cols[256], n = 0;
  for (char *s = buf; *s;) {
    while (*s == ' ' || *s == '\t' || *s == '\r') s++;
    if (!*s) break;
    if (n == 256) {
      suite_error(sp, (int)(s - buf) + 1, "more than 256 words on a line");
      return;
    }
    cols[n] = (int)(s - buf) + 1;
    words[n++] = s;
    while (*s && *s != ' ' && *s != '\t' && *s != '\r') s++;
    if (*s) *s++ = '\0';
  }
  if (n == 0) return;
  if (!strcmp(words[0], "suite")) {
    if (n != 2 || !suite_ident(words[1])) {
      suite_error(sp, cols[0], "expected 'suite NAME' with NAME an identifier");
      return;
    }
    free(sp->name);
    sp->name = regress_strdup(words[1]);
    return;
  }
  int is_job = !strcmp(words[0], "job");
  int is_run = is_job || !strcmp(words[0], "run");
  if (!is_run && strcmp(words[0], "set")) {
    suite_error(sp, cols[0], "unknown directive '%s' (expected suite, set, run or job)", words[0]);
    return;
  }
  if (is_run && n < 2) {
    suite_error(sp, cols[0], is_job ? "expected 'job FILE KEY=VALUE...'" : "expected 'run PROGRAM KEY=VALUE...'");
    return;
  }
  suite_keys line = {0};
  int bad = 0;
  for (int i = is_run ? 2 : 1; i < n; i++) bad |= suite_word_parse(sp, words[i], cols[i], &line) != 0;
  if (!bad && !is_run) suite_keys_merge(defaults, &line);
  if (!bad && is_run) {
    suite_keys eff = {0};
    suite_keys_merge(&eff, defaults);
    suite_keys_merge(&eff, &line);
    if (is_job) {
      suite_keys own = {0}; /* a job takes its line's keys and the suite's engine, expect and timeout */
      suite_keys_merge(&own, &line);
      for (int key = 0; key < K_NKEYS; key++) {
        char **from = suite_key_slot(defaults, key), **to = suite_key_slot(&own, key);
        if (*from && !*to && (key == K_ENGINE || key == K_TIMEOUT || key == K_EXPECT)) {
          *to = regress_strdup(*from);
          own.line[key] = defaults->line[key], own.col[key] = defaults->col[key];
        }
      }
      suite_job_expand(sp, words[1], cols[1], &own);
      suite_keys_free(&own);
    } else {
      suite_run_expand(sp, words[1], cols[1], &eff);
    }
    suite_keys_free(&eff);
  }
  suite_keys_free(&line);
}

int regress_suite_load(const char *path, const regress_suite_opts *o, regress_list *l) {
  size_t len;
  char *text = fileio_read_all(path, &len);
  if (!text) {
    diag_error_plain("suite '%s': %s", path, strerror(errno));
    return -1;
  }
  char cwd[4096];
  suite_parser sp = {path, text, 0, text, 0, suite_basename(path, ".suite"), o, l,
                     suite_dirname(path), suite_root_find(), getcwd(cwd, sizeof cwd) ? cwd : NULL, NULL, 0};
  suite_keys defaults = {0};
  size_t first = l->n;
  for (const char *s = text; *s;) {
    const char *e = strchr(s, '\n');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    char *buf = malloc(n + 1);
    if (!buf) break;
    memcpy(buf, s, n);
    buf[n] = '\0';
    sp.line++;
    sp.line_start = s;
    suite_line_parse(&sp, buf, &defaults);
    free(buf);
    s += n + (e ? 1 : 0);
  }
  /* a `suite` line after some runs names those too */
  for (size_t i = first; i < l->n; i++) {
    free(l->v[i].suite);
    l->v[i].suite = regress_strdup(sp.name);
  }
  if (!sp.errors && l->n == first) {
    diag_error_plain("suite '%s': no runs", path);
    sp.errors++;
  }
  suite_keys_free(&defaults);
  for (int i = 0; i < sp.nprogs; i++) {
    free(sp.progs[i].path);
    if (sp.progs[i].prog) ast_program_free(sp.progs[i].prog);
  }
  free(sp.progs);
  free(sp.dir);
  free(sp.root);
  free(sp.name);
  free(text);
  return sp.errors ? -1 : 0;
}

int regress_suite_shard_parse(const char *s, int *k, int *n) {
  int64_t a, b;
  const char *slash = strchr(s, '/');
  char buf[32];
  if (!slash || (size_t)(slash - s) >= sizeof buf) return -1;
  memcpy(buf, s, (size_t)(slash - s));
  buf[slash - s] = '\0';
  if (suite_int(buf, &a) || suite_int(slash + 1, &b) || b < 1 || b > 100000 || a < 1 || a > b) return -1;
  *k = (int)a;
  *n = (int)b;
  return 0;
}

void regress_suite_shard(regress_list *l, int k, int n) {
  size_t w = 0;
  for (size_t p = 0; p < l->n; p++) {
    if ((int)(p % (size_t)n) == k - 1) l->v[w++] = l->v[p];
    else regress_run_free(&l->v[p]);
  }
  l->n = w;
}

uint64_t regress_suite_seed(const char *key, int k, uint64_t base) {
  rng_state r = rng_state_seed_named(base + (uint64_t)k, key);
  return rng_state_next(&r) & 0x7fffffffu;
}
