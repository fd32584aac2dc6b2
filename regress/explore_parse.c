/*
 * explore_parse.c: the files of `tcpa explore` (docs/explore.md): the
 * space, the workload, and the INI text of one point.
 *
 * The space is an INI file in the syntax of docs/arch.md whose values are
 * lists and ranges: `alu = 1,2`, `rd = 2..6`, `depth = 64, 256..258`. A
 * key is known when the full dump of a configuration (arch_config_write_ini)
 * has it in that section; every value is checked against the key's range
 * by loading it through arch.c itself (the text handed over keeps the
 * space file's line numbers, so its messages point into the space file).
 *
 * A point's INI is the base configuration's full dump with the lines of
 * the varied keys rewritten, so it loads through arch_config_load_text
 * like any file a user writes, and `tcpa signoff` takes it as it is.
 *
 * The workload is one entry a line: PROGRAM PARAMS RxC WEIGHT, PARAMS a
 * comma-separated list of NAME=VALUE (or `-`); `#` starts a comment.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "diag.h"
#include "explore.h"

/* Returns the malloc'ed full INI dump of cfg. */
static char *explore_dump(const arch_config *cfg) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NULL;
  arch_config_write_ini(cfg, f);
  fclose(f);
  return buf;
}

/* Returns s with leading and trailing blanks removed (in place). */
static char *explore_trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  return s;
}

/* Returns 1 when the dump `dump` has key `key` in section `sec`. */
static int explore_key_known(const char *dump, const char *sec, const char *key) {
  char want[64];
  snprintf(want, sizeof want, "[%s]", sec);
  const char *p = strstr(dump, want);
  if (!p) return 0;
  p += strlen(want);
  for (const char *l = strchr(p, '\n'); l && l[1] && l[1] != '['; l = strchr(l + 1, '\n')) {
    size_t k = strlen(key);
    if (!strncmp(l + 1, key, k) && (l[1 + k] == ' ' || l[1 + k] == '=')) return 1;
  }
  return 0;
}

/* Returns 0 after parsing one integer at *s (advancing it); -1. */
static int explore_int(const char **s, int *v) {
  char *end;
  errno = 0;
  long x = strtol(*s, &end, 10);
  if (end == *s || errno || x < -1000000000L || x > 1000000000L) return -1;
  *v = (int)x;
  *s = end;
  return 0;
}

/* Returns 0 after reading the list of values `text` (comma-separated
 * integers and lo..hi ranges) into *a; -1 with why in msg. */
static int explore_values_parse(const char *text, explore_axis *a, char *msg, size_t msgsz) {
  const char *s = text;
  a->n = 0;
  for (;;) {
    while (isspace((unsigned char)*s)) s++;
    int lo, hi;
    if (explore_int(&s, &lo) != 0) {
      snprintf(msg, msgsz, "expected an integer, a list 1,2,4 or a range lo..hi, got '%s'", s);
      return -1;
    }
    hi = lo;
    while (isspace((unsigned char)*s)) s++;
    if (s[0] == '.' && s[1] == '.') {
      s += 2;
      while (isspace((unsigned char)*s)) s++;
      if (explore_int(&s, &hi) != 0 || hi < lo) {
        snprintf(msg, msgsz, "range %d..: expected an upper bound >= %d", lo, lo);
        return -1;
      }
    }
    for (long v = lo; v <= hi; v++) {
      for (int k = 0; k < a->n; k++)
        if (a->value[k] == v) {
          snprintf(msg, msgsz, "value %ld given twice", v);
          return -1;
        }
      if (a->n == EXPLORE_MAX_VALUES) {
        snprintf(msg, msgsz, "more than %d values for one key", EXPLORE_MAX_VALUES);
        return -1;
      }
      a->value[a->n++] = (int)v;
    }
    while (isspace((unsigned char)*s)) s++;
    if (!*s) return 0;
    if (*s != ',') {
      snprintf(msg, msgsz, "expected ',' or the end of the line, got '%s'", s);
      return -1;
    }
    s++;
  }
}

/* Returns 0 when every value of a is in its key's range: each loaded by
 * arch.c from a text whose key sits on a->line (its messages then name
 * the space file's line); -1 after arch.c printed why. */
static int explore_values_check(const char *name, const explore_axis *a) {
  size_t n = (size_t)a->line + 128;
  char *text = malloc(n);
  if (!text) return -1;
  int bad = 0;
  for (int k = 0; k < a->n && !bad; k++) {
    size_t len = 0;
    for (int l = 1; l < a->line - 1; l++) text[len++] = '\n';
    snprintf(text + len, n - len, "[%s]\n%s = %d\n", a->section, a->key, a->value[k]);
    arch_config cfg;
    bad = arch_config_load_text(name, text, &cfg) != 0;
  }
  free(text);
  return bad ? -1 : 0;
}

/* Returns 0 after reading the space (explore.h); -1 after the errors. */
int explore_space_parse(const char *name, const char *text, explore_space *s) {
  memset(s, 0, sizeof *s);
  s->path = name;
  arch_config def = arch_config_default();
  char *dump = explore_dump(&def), *copy = strdup(text);
  if (!dump || !copy) {
    free(dump);
    free(copy);
    diag_error_plain("%s: out of memory", name);
    return -1;
  }
  char sec[24] = "";
  int bad = 0, line = 0;
  for (char *l = copy, *next; l; l = next) {
    next = strchr(l, '\n');
    if (next) *next++ = '\0';
    line++;
    diag_loc loc = {name, line, 1};
    char *c = strpbrk(l, ";#");
    if (c) *c = '\0';
    char *t = explore_trim(l);
    loc.col = (int)(t - l) + 1;
    if (!*t) continue;
    if (*t == '[') {
      char *e = strchr(t, ']');
      if (!e) {
        diag_error(&loc, text, "expected ']' closing the section name");
        bad = 1;
        continue;
      }
      *e = '\0';
      snprintf(sec, sizeof sec, "%s", explore_trim(t + 1));
      char probe[40];
      snprintf(probe, sizeof probe, "[%s]", sec);
      if (!strstr(dump, probe)) {
        diag_error(&loc, text, "unknown section '[%s]' (the sections of docs/arch.md: array, pe, latency, "
                   "interconnect, gc, iobuf)", sec);
        bad = 1;
        sec[0] = '\0';
      }
      continue;
    }
    char *eq = strpbrk(t, "=:");
    if (!eq) {
      diag_error(&loc, text, "expected KEY = VALUES");
      bad = 1;
      continue;
    }
    *eq = '\0';
    char *key = explore_trim(t), *vals = explore_trim(eq + 1);
    if (!sec[0]) {
      diag_error(&loc, text, "key '%s' outside a known [section]", key);
      bad = 1;
      continue;
    }
    if (!explore_key_known(dump, sec, key)) {
      diag_error(&loc, text, "unknown key '%s' in section [%s] (docs/arch.md \"Keys\")", key, sec);
      bad = 1;
      continue;
    }
    for (int k = 0; k < s->naxes; k++)
      if (!strcmp(s->axis[k].section, sec) && !strcmp(s->axis[k].key, key)) {
        diag_error(&loc, text, "key %s.%s given twice (first on line %d)", sec, key, s->axis[k].line);
        bad = 1;
      }
    if (bad) continue;
    if (s->naxes == EXPLORE_MAX_AXES) {
      diag_error(&loc, text, "more than %d keys varied", EXPLORE_MAX_AXES);
      bad = 1;
      continue;
    }
    explore_axis *a = &s->axis[s->naxes];
    snprintf(a->section, sizeof a->section, "%s", sec);
    snprintf(a->key, sizeof a->key, "%s", key);
    a->line = line;
    char msg[256];
    if (explore_values_parse(vals, a, msg, sizeof msg) != 0) {
      loc.col = (int)(vals - l) + 1;
      diag_error(&loc, text, "%s.%s: %s", sec, key, msg);
      bad = 1;
      continue;
    }
    if (explore_values_check(name, a) != 0) {
      bad = 1;
      continue;
    }
    s->naxes++;
  }
  free(dump);
  free(copy);
  if (!bad && explore_space_points(s) > EXPLORE_MAX_SPACE) {
    diag_error_plain("%s: more than %llu points", name, (unsigned long long)EXPLORE_MAX_SPACE);
    bad = 1;
  }
  return bad ? -1 : 0;
}

/* Returns the number of points of s. */
size_t explore_space_points(const explore_space *s) {
  size_t n = 1;
  for (int k = 0; k < s->naxes; k++) {
    n *= (size_t)s->axis[k].n;
    if (n > EXPLORE_MAX_SPACE) return n; /* no overflow: at most 10^12 x 64 */
  }
  return n;
}

/* Returns the index of point i's value of axis k (the last axis fastest). */
int explore_space_pick(const explore_space *s, size_t i, int k) {
  for (int j = s->naxes - 1; j > k; j--) i /= (size_t)s->axis[j].n;
  return (int)(i % (size_t)s->axis[k].n);
}

/* Returns 0 after writing point i's INI text into buf; -1. */
int explore_point_ini(const explore_space *s, const arch_config *base, size_t i, char *buf, size_t n) {
  char *dump = explore_dump(base);
  if (!dump) return -1;
  size_t len = 0;
  char sec[24] = "";
  int rc = 0;
  for (char *l = dump, *next; l && *l; l = next) {
    next = strchr(l, '\n');
    if (next) *next++ = '\0';
    const char *out = l;
    char repl[160];
    if (l[0] == '[') {
      sscanf(l + 1, "%23[^]]", sec);
    } else {
      for (int k = 0; k < s->naxes; k++) {
        const explore_axis *a = &s->axis[k];
        size_t kl = strlen(a->key);
        if (strcmp(a->section, sec) || strncmp(l, a->key, kl) || (l[kl] != ' ' && l[kl] != '=')) continue;
        snprintf(repl, sizeof repl, "%s = %d ; explored", a->key, a->value[explore_space_pick(s, i, k)]);
        out = repl;
      }
    }
    int w = snprintf(buf + len, n - len, "%s\n", out);
    if (w < 0 || (size_t)w >= n - len) {
      rc = -1;
      break;
    }
    len += (size_t)w;
  }
  free(dump);
  return rc;
}

/* Returns 0 after reading one entry's NAME=VALUE list `t` into e; -1 with msg. */
static int explore_params_parse(char *t, explore_entry *e, char *msg, size_t msgsz) {
  if (!strcmp(t, "-")) return 0;
  for (char *tok = strtok(t, ","); tok; tok = strtok(NULL, ",")) {
    char *eq = strchr(tok, '=');
    char *end;
    if (!eq || eq == tok) {
      snprintf(msg, msgsz, "expected NAME=VALUE, got '%s'", tok);
      return -1;
    }
    *eq = '\0';
    errno = 0;
    long long v = strtoll(eq + 1, &end, 10);
    if (errno || *end || end == eq + 1 || v < 1 || v > INT32_MAX) {
      snprintf(msg, msgsz, "parameter %s: expected a positive integer, got '%s'", tok, eq + 1);
      return -1;
    }
    if (e->nparams == EXPLORE_MAX_PARAMS) {
      snprintf(msg, msgsz, "more than %d parameters", EXPLORE_MAX_PARAMS);
      return -1;
    }
    snprintf(e->pname[e->nparams], sizeof e->pname[0], "%s", tok);
    e->pvalue[e->nparams++] = v;
  }
  return 0;
}

/* Returns 0 after reading one entry line's four fields into e; -1 with
 * the field's column in *col and why in msg. */
static int explore_entry_parse(char *l, explore_entry *e, int *col, char *msg, size_t msgsz) {
  char *f[5];
  int nf = 0;
  for (char *s = l; nf < 5;) {
    while (isspace((unsigned char)*s)) s++;
    if (!*s) break;
    f[nf++] = s;
    while (*s && !isspace((unsigned char)*s)) s++;
    if (*s) *s++ = '\0';
  }
  if (nf != 4) {
    *col = 1;
    snprintf(msg, msgsz, "expected 4 fields (PROGRAM PARAMS RxC WEIGHT), got %d", nf);
    return -1;
  }
  snprintf(e->program, sizeof e->program, "%s", f[0]);
  *col = (int)(f[1] - l) + 1;
  if (explore_params_parse(f[1], e, msg, msgsz) != 0) return -1;
  *col = (int)(f[2] - l) + 1;
  char x;
  if (sscanf(f[2], "%dx%d%c", &e->rows, &e->cols, &x) != 2 || e->rows < 1 || e->cols < 1 || e->rows > 64 ||
      e->cols > 64) {
    snprintf(msg, msgsz, "region: expected RxC (1x1 .. 64x64), got '%s'", f[2]);
    return -1;
  }
  *col = (int)(f[3] - l) + 1;
  char *end;
  e->weight = strtod(f[3], &end);
  if (*end || end == f[3] || !(e->weight > 0) || e->weight > 1e9) {
    snprintf(msg, msgsz, "weight: expected a positive number, got '%s'", f[3]);
    return -1;
  }
  return 0;
}

/* Returns 0 after reading the workload (explore.h); -1 after the errors. */
int explore_workload_parse(const char *name, const char *text, explore_workload *w) {
  memset(w, 0, sizeof *w);
  w->path = name;
  char *copy = strdup(text);
  if (!copy) return -1;
  int bad = 0, line = 0;
  for (char *l = copy, *next; l; l = next) {
    next = strchr(l, '\n');
    if (next) *next++ = '\0';
    line++;
    char *c = strchr(l, '#');
    if (c) *c = '\0';
    if (!*explore_trim(l)) continue;
    if (w->n == EXPLORE_MAX_ENTRIES) {
      diag_loc loc = {name, line, 1};
      diag_error(&loc, text, "more than %d entries", EXPLORE_MAX_ENTRIES);
      bad = 1;
      break;
    }
    explore_entry *e = &w->e[w->n];
    memset(e, 0, sizeof *e);
    e->line = line;
    char msg[256];
    int col = 1;
    if (explore_entry_parse(l, e, &col, msg, sizeof msg) != 0) {
      diag_loc loc = {name, line, col};
      diag_error(&loc, text, "%s", msg);
      bad = 1;
      continue;
    }
    w->n++;
  }
  free(copy);
  if (!bad && w->n == 0) {
    diag_error_plain("%s: no entries (expected lines PROGRAM PARAMS RxC WEIGHT)", name);
    bad = 1;
  }
  return bad ? -1 : 0;
}

/* Returns the area proxy of cfg (docs/explore.md "Area"). */
double explore_area_proxy(const arch_config *c) {
  double fus = (double)c->alu + c->mul + c->div;
  double pe = 16.0 * c->alu + 64.0 * c->mul + 96.0 * c->div   /* FU equivalents */
              + c->rd + c->od + (double)c->id * c->fifo_depth  /* register and FIFO words */
              + (double)c->fd * c->fd_depth + fus * c->imem    /* feedback and instruction words */
              + 8.0 * c->ports;                                /* wrapper ports, 4 sides x 2 ways */
  double sides = 2.0 * (c->rows + c->cols);                    /* border PE sides with banks */
  return (double)c->rows * c->cols * pe + sides * c->banks * (double)c->bank_depth;
}

/* Returns how many points are on the Pareto front (explore.h). */
size_t explore_pareto(size_t n, const double *area, const double *cycles, const int *ok, int *front) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    front[i] = ok[i];
    for (size_t j = 0; j < n && front[i]; j++)
      if (j != i && ok[j] && area[j] <= area[i] && cycles[j] <= cycles[i] &&
          (area[j] < area[i] || cycles[j] < cycles[i]))
        front[i] = 0;
    k += (size_t)front[i];
  }
  return k;
}
