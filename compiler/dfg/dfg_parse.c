/*
 * dfg_parse.c: the reader of DSAGEN's DFG files (docs/dfg.md "The format
 * as accepted").
 *
 * The format is line-oriented, so is the reader: each line is one
 * statement, read left to right by a cursor that knows its column.
 * A line is blank, a comment (`#...`), a pragma (`#pragma group frequency
 * N`, `#pragma group unroll N`; other pragmas are the DSE's port hints and
 * are skipped), a separator (`----`: a new sub-DFG), an array
 * declaration (`Array[:] NAME SIZE KIND` as DSAGEN's examples write it,
 * or `KIND NAME SIZE` as its format description does), a port
 * (`Input64: A[2] source=a stated`, `Output ... destination=b`, the older
 * `InputVec: A [0, 1, 2, 3]`) or an
 * operation (`X = Op(A, $Reg0, 3, ctrl=$A_State & 8{0: d, 8: r})`,
 * `X = Y`, `X = 5`, `Q, R = DivRem64(A, B)`). Names are only collected here; dfg_emit.c resolves
 * them. The first error stops the read with its line and column.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dfg.h"

/* A cursor in one line. */
typedef struct {
  const char *s;    /* the line (not terminated by a newline: len) */
  int len, pos, line;
  dfg_error *err;
} dfg_cur;

/* Returns -1 after storing the error at column col (1-based) of c's line. */
static int dfg_fail(dfg_cur *c, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  c->err->line = c->line;
  c->err->col = col;
  vsnprintf(c->err->msg, sizeof c->err->msg, fmt, ap);
  va_end(ap);
  return -1;
}

/* Returns the character at the cursor (0 at the end of the line). */
static int dfg_peek(const dfg_cur *c) { return c->pos < c->len ? (unsigned char)c->s[c->pos] : 0; }

/* Returns the cursor's column (1-based). */
static int dfg_col(const dfg_cur *c) { return c->pos + 1; }

/* Moves the cursor over blanks. */
static void dfg_blank(dfg_cur *c) {
  while (c->pos < c->len && (c->s[c->pos] == ' ' || c->s[c->pos] == '\t' || c->s[c->pos] == '\r')) c->pos++;
}

/* Returns 1 (moving past it) when the next non-blank character is ch. */
static int dfg_eat(dfg_cur *c, int ch) {
  dfg_blank(c);
  if (dfg_peek(c) != ch) return 0;
  c->pos++;
  return 1;
}

/* Returns 1 when the rest of the line is blank or a `#` comment. */
static int dfg_at_end(dfg_cur *c) {
  dfg_blank(c);
  return c->pos >= c->len || c->s[c->pos] == '#';
}

/* Returns 0 after reading an identifier into name (cap DFG_NAME) and
 * its column into *col; -1 (error naming `what`) when there is none. */
static int dfg_ident(dfg_cur *c, char *name, int *col, const char *what) {
  dfg_blank(c);
  int p = c->pos;
  if (!(isalpha(dfg_peek(c)) || dfg_peek(c) == '_'))
    return dfg_fail(c, dfg_col(c), "expected %s, got %s", what, p < c->len ? "something else" : "the end of the line");
  while (c->pos < c->len && (isalnum((unsigned char)c->s[c->pos]) || c->s[c->pos] == '_')) c->pos++;
  if (c->pos - p >= DFG_NAME) return dfg_fail(c, p + 1, "%s longer than %d characters", what, DFG_NAME - 1);
  memcpy(name, c->s + p, (size_t)(c->pos - p));
  name[c->pos - p] = 0;
  if (col) *col = p + 1;
  return 0;
}

/* Returns 0 after reading an integer (decimal or 0x hex, optional `-`)
 * into *v; -1 (error naming `what`) when there is none or it overflows. */
static int dfg_int(dfg_cur *c, int64_t *v, const char *what) {
  dfg_blank(c);
  int p = c->pos;
  const char *s = c->s + p;
  int neg = *s == '-' && p < c->len;
  if (!isdigit((unsigned char)s[neg]) || p + neg >= c->len)
    return dfg_fail(c, p + 1, "expected %s, got %s", what, p < c->len ? "something else" : "the end of the line");
  char buf[40];
  int n = 0;
  while (p + n < c->len && n < (int)sizeof buf - 1 && (isalnum((unsigned char)s[n]) || (n == 0 && neg))) {
    buf[n] = s[n];
    n++;
  }
  buf[n] = 0;
  char *end;
  errno = 0;
  long long x = strtoll(buf, &end, 0);
  if (*end || errno) return dfg_fail(c, p + 1, "%s '%s': not an integer of 64 bits", what, buf);
  c->pos += n;
  *v = x;
  return 0;
}

/* Returns 1 when name equals word ignoring case. */
static int dfg_is(const char *name, const char *word) { return !strcasecmp(name, word); }

/* Returns a pointer to a new zeroed element of the dynamic array *a of
 * *n elements of size sz, or NULL when memory runs out. */
static void *dfg_push(void *a, int *n, size_t sz) {
  void **arr = a;
  void *p = realloc(*arr, (size_t)(*n + 1) * sz);
  if (!p) return NULL;
  *arr = p;
  memset((char *)p + (size_t)*n * sz, 0, sz);
  return (char *)p + (size_t)(*n)++ * sz;
}

/* Returns the array kind named `w`, or -1. */
static int dfg_kind(const char *w) {
  static const char *names[] = {"dma", "spm", "rec", "gen", "reg"};
  for (int i = 0; i < 5; i++)
    if (dfg_is(w, names[i])) return i;
  return -1;
}

/* Returns 0 after reading the rest of a declaration `NAME SIZE KIND`
 * (kind < 0) or `NAME SIZE` (kind given first) into f; -1. */
static int dfg_array_line(dfg_cur *c, dfg_file *f, int kind) {
  dfg_array a = {.line = c->line};
  if (dfg_ident(c, a.name, &a.col, "an array name") || dfg_int(c, &a.size, "the array's size in elements"))
    return -1;
  if (a.size < 1) return dfg_fail(c, dfg_col(c) - 1, "array %s: size %lld: expected 1 or more", a.name, (long long)a.size);
  if (kind < 0) {
    char w[DFG_NAME];
    int col;
    if (dfg_ident(c, w, &col, "the array's kind (dma, spm, rec, gen or reg)")) return -1;
    if ((kind = dfg_kind(w)) < 0)
      return dfg_fail(c, col, "unknown array kind '%s' (dma, spm, rec, gen or reg)", w);
  }
  a.kind = (dfg_array_kind)kind;
  if (!dfg_at_end(c)) return dfg_fail(c, dfg_col(c), "unexpected text after the array declaration");
  for (int i = 0; i < f->narrays; i++)
    if (!strcmp(f->array[i].name, a.name))
      return dfg_fail(c, a.col, "array %s declared again (first at line %d)", a.name, f->array[i].line);
  dfg_array *p = dfg_push(&f->array, &f->narrays, sizeof *p);
  if (!p) return dfg_fail(c, 1, "out of memory");
  *p = a;
  return 0;
}

/* Returns 0 after reading a port line whose keyword (Input/Output and
 * the width that follows it) starts at kw; -1. */
static int dfg_port_line(dfg_cur *c, dfg_sub *s, const char *kw, int kwcol) {
  dfg_port pt = {.line = c->line, .width = 64};
  pt.out = toupper((unsigned char)kw[0]) == 'O';
  const char *w = kw + (pt.out ? 6 : 5);
  int vec = !strcasecmp(w, "Vec"); /* the older InputVec: A [0, 1, 2, 3] */
  if (*w && !vec) {
    char *end;
    long v = strtol(w, &end, 10);
    if (*end || (v != 8 && v != 16 && v != 32 && v != 64))
      return dfg_fail(c, kwcol + (int)(w - kw), "port width '%s': expected 8, 16, 32 or 64", w);
    pt.width = (int)v;
  }
  dfg_eat(c, ':');
  if (dfg_ident(c, pt.name, &pt.col, "the port's name")) return -1;
  if (vec) {
    if (!dfg_eat(c, '[')) return dfg_fail(c, dfg_col(c), "expected '[' and the lanes after %s %s", kw, pt.name);
    do {
      int64_t l;
      int col = (dfg_blank(c), dfg_col(c));
      if (dfg_int(c, &l, "a lane number")) return -1;
      if (l != pt.lanes || l >= 64)
        return dfg_fail(c, col, "lane %lld: expected %d (the lanes count from 0, in order, at most 64)", (long long)l,
                        pt.lanes);
      pt.lanes++;
    } while (dfg_eat(c, ','));
    if (!dfg_eat(c, ']')) return dfg_fail(c, dfg_col(c), "expected ',' or ']' in the lanes");
  } else if (dfg_eat(c, '[')) {
    int64_t l;
    int col = (dfg_blank(c), dfg_col(c));
    if (dfg_int(c, &l, "the vectorization degree")) return -1;
    if (l < 1 || l > 64) return dfg_fail(c, col, "vectorization degree %lld: expected 1 to 64", (long long)l);
    pt.lanes = (int)l;
    if (!dfg_eat(c, ']')) return dfg_fail(c, dfg_col(c), "expected ']' after the vectorization degree");
  }
  while (!dfg_at_end(c)) {
    char key[DFG_NAME];
    int col;
    if (dfg_ident(c, key, &col, pt.out ? "destination=ARRAY or stated" : "source=ARRAY or stated")) return -1;
    if (dfg_is(key, "stated")) {
      pt.stated = 1;
      continue;
    }
    const char *want = pt.out ? "destination" : "source";
    if (!dfg_is(key, want))
      return dfg_fail(c, col, "unknown %s attribute '%s' (%s=ARRAY, stated)", pt.out ? "Output" : "Input", key, want);
    if (!dfg_eat(c, '=')) return dfg_fail(c, dfg_col(c), "expected '=' after %s", want);
    if (pt.array[0]) return dfg_fail(c, col, "%s given twice", want);
    if (dfg_ident(c, pt.array, NULL, "an array name")) return -1;
  }
  for (int i = 0; i < s->nports; i++)
    if (!strcmp(s->port[i].name, pt.name))
      return dfg_fail(c, pt.col, "port %s declared again in this sub-DFG (first at line %d)", pt.name, s->port[i].line);
  dfg_port *p = dfg_push(&s->port, &s->nports, sizeof *p);
  if (!p) return dfg_fail(c, 1, "out of memory");
  *p = pt;
  return 0;
}

/* Returns 0 after reading one operand (a name, `$NAME`, an integer) into a. */
static int dfg_operand(dfg_cur *c, dfg_arg *a) {
  dfg_blank(c);
  a->line = c->line;
  a->col = dfg_col(c);
  int ch = dfg_peek(c);
  if (ch == '$') {
    c->pos++;
    if (dfg_ident(c, a->name, NULL, "a name after '$'")) return -1;
    /* $RegN is a register; $A_State a port's state element */
    const char *d = a->name + 3;
    int reg = !strncmp(a->name, "Reg", 3) && *d;
    while (reg && *d) reg = isdigit((unsigned char)*d++);
    a->kind = reg ? DFG_ARG_REG : DFG_ARG_VALUE;
    return 0;
  }
  if (isdigit(ch) || ch == '-') {
    a->kind = DFG_ARG_CONST;
    return dfg_int(c, &a->imm, "an operand");
  }
  a->kind = DFG_ARG_VALUE;
  return dfg_ident(c, a->name, NULL, "an operand (a name, $RegN or an integer)");
}

/* Returns the flag named w (d, r, b1, b2, a), or 0. */
static unsigned dfg_flag(const char *w) {
  static const struct { const char *n; unsigned f; } t[] = {
      {"d", DFG_CTRL_D}, {"r", DFG_CTRL_R}, {"b1", DFG_CTRL_B1}, {"b2", DFG_CTRL_B2}, {"a", DFG_CTRL_A}};
  for (int i = 0; i < 5; i++)
    if (!strcmp(w, t[i].n)) return t[i].f;
  return 0;
}

/* Returns 0 after reading `ctrl=SRC [& MASK] [{KEY: F|F, ...}]` (the
 * cursor after `ctrl`) into op. */
static int dfg_ctrl(dfg_cur *c, dfg_op *op) {
  if (op->has_ctrl) return dfg_fail(c, op->ctrl_col, "ctrl= given twice");
  op->has_ctrl = 1;
  op->ctrl_mask = -1;
  if (dfg_operand(c, &op->ctrl)) return -1;
  if (op->ctrl.kind != DFG_ARG_VALUE) return dfg_fail(c, op->ctrl.col, "ctrl=: expected a value or $PORT_State");
  if (dfg_eat(c, '&') && dfg_int(c, &op->ctrl_mask, "a mask after '&'")) return -1;
  if (!dfg_eat(c, '{')) return 0;
  do {
    if (op->nent == DFG_CTRL) return dfg_fail(c, dfg_col(c), "more than %d ctrl= entries", DFG_CTRL);
    dfg_blank(c);
    op->ent[op->nent].line = c->line;
    op->ent[op->nent].col = dfg_col(c);
    if (dfg_int(c, &op->ent[op->nent].key, "a control value")) return -1;
    if (!dfg_eat(c, ':')) return dfg_fail(c, dfg_col(c), "expected ':' after the control value");
    unsigned fl = 0;
    do {
      char w[DFG_NAME];
      int col;
      if (dfg_ident(c, w, &col, "a control flag (d, r, b1, b2, a)")) return -1;
      unsigned one = dfg_flag(w);
      if (!one) return dfg_fail(c, col, "unknown control flag '%s' (d, r, b1, b2, a)", w);
      fl |= one;
    } while (dfg_eat(c, '|'));
    op->ent[op->nent++].flags = fl;
  } while (dfg_eat(c, ','));
  if (!dfg_eat(c, '}')) return dfg_fail(c, dfg_col(c), "expected ',' or '}' in the ctrl= table");
  return 0;
}

/* Returns 0 after reading an operation line whose result `res` started
 * at rcol (the cursor after `=`). */
static int dfg_op_line(dfg_cur *c, dfg_sub *s, const char *res, int rcol) {
  dfg_op op = {.line = c->line, .col = rcol};
  snprintf(op.res, sizeof op.res, "%s", res);
  dfg_blank(c);
  int ch = dfg_peek(c);
  if (ch == '$' || ch == '-' || isdigit(ch)) {
    if (dfg_operand(c, &op.arg[0])) return -1;
    op.nargs = 1;
  } else {
    char name[DFG_NAME];
    int col;
    if (dfg_ident(c, name, &col, "an operation, a name or an integer after '='")) return -1;
    if (!dfg_eat(c, '(')) {
      op.arg[0] = (dfg_arg){.kind = DFG_ARG_VALUE, .line = c->line, .col = col};
      snprintf(op.arg[0].name, sizeof op.arg[0].name, "%s", name);
      op.nargs = 1;
      if (!dfg_at_end(c))
        return dfg_fail(c, dfg_col(c), "unexpected text after '%s' (an operation is NAME(OPERANDS))", name);
    } else {
      snprintf(op.op, sizeof op.op, "%s", name);
      op.op_col = col;
      if (!dfg_eat(c, ')')) {
        do {
          dfg_blank(c);
          int acol = dfg_col(c);
          /* `ctrl=...` or another NAME= argument */
          int save = c->pos;
          char key[DFG_NAME];
          if (isalpha(dfg_peek(c)) && !dfg_ident(c, key, NULL, "") && dfg_eat(c, '=')) {
            if (strcmp(key, "ctrl"))
              return dfg_fail(c, acol, "operand '%s=' is not supported (only ctrl=, docs/dfg.md)", key);
            op.ctrl_col = acol;
            if (dfg_ctrl(c, &op)) return -1;
            continue;
          }
          c->pos = save;
          if (op.nargs == DFG_ARGS) return dfg_fail(c, acol, "more than %d operands", DFG_ARGS);
          if (dfg_operand(c, &op.arg[op.nargs++])) return -1;
        } while (dfg_eat(c, ','));
        if (!dfg_eat(c, ')')) return dfg_fail(c, dfg_col(c), "expected ',' or ')' in the operands of %s", name);
      }
      if (!dfg_at_end(c)) return dfg_fail(c, dfg_col(c), "unexpected text after the operation");
    }
  }
  if (ch == '$' || ch == '-' || isdigit(ch)) {
    if (!dfg_at_end(c)) return dfg_fail(c, dfg_col(c), "unexpected text after the operand");
  }
  dfg_op *p = dfg_push(&s->op, &s->nops, sizeof *p);
  if (!p) return dfg_fail(c, 1, "out of memory");
  *p = op;
  return 0;
}

/* Returns 0 after reading a `#pragma ...` line (the cursor after
 * `pragma`) into s. */
static int dfg_pragma(dfg_cur *c, dfg_sub *s) {
  char w[DFG_NAME], key[DFG_NAME];
  int col;
  if (dfg_ident(c, w, &col, "a pragma (group, cmd, repeat, reuse)")) return -1;
  if (strcmp(w, "group")) return 0; /* the DSE's port hints: skipped */
  if (dfg_ident(c, key, &col, "frequency or unroll")) return -1;
  dfg_blank(c);
  int vcol = dfg_col(c);
  char *end;
  errno = 0;
  double v = strtod(c->s + c->pos, &end);
  int n = (int)(end - (c->s + c->pos));
  if (!n || n > c->len - c->pos || errno || !(v >= 0) || v > 1e9)
    return dfg_fail(c, vcol, "#pragma group %s: expected a number from 0 to 1e9", key);
  c->pos += n;
  if (!dfg_at_end(c)) return dfg_fail(c, dfg_col(c), "unexpected text after #pragma group %s", key);
  if (!strcmp(key, "frequency")) s->freq = v;
  else if (!strcmp(key, "unroll")) {
    if (v < 1 || v != (int)v || v > 64) return dfg_fail(c, vcol, "#pragma group unroll: expected an integer 1 to 64");
    s->unroll = (int)v;
  }
  return 0;
}

/* Returns 1 when the line is a sub-DFG separator: two or more `-` (an
 * em dash, as the format's description prints it, counts as one). */
static int dfg_is_separator(const char *s, int len) {
  int dashes = 0;
  for (int i = 0; i < len; i++) {
    if (s[i] == '-') dashes++;
    else if (!strncmp(s + i, "\xe2\x80\x94", 3)) dashes++, i += 2;
    else if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return 0;
  }
  return dashes >= 2;
}

/* Returns a new sub-DFG starting at `line` in f, or NULL. */
static dfg_sub *dfg_sub_new(dfg_file *f, int line) {
  dfg_sub *s = dfg_push(&f->sub, &f->nsubs, sizeof *s);
  if (s) {
    s->freq = 1;
    s->unroll = 1;
    s->line = line;
  }
  return s;
}

/* Returns 0 after reading one line into f (s: the current sub-DFG). */
static int dfg_line(dfg_cur *c, dfg_file *f, dfg_sub **s) {
  if (dfg_is_separator(c->s, c->len)) {
    *s = dfg_sub_new(f, c->line + 1);
    return *s ? 0 : dfg_fail(c, 1, "out of memory");
  }
  dfg_blank(c);
  if (dfg_peek(c) == '#') {
    c->pos++;
    char w[DFG_NAME];
    int p = c->pos;
    dfg_blank(c);
    if (c->pos == p && isalpha(dfg_peek(c)) && !dfg_ident(c, w, NULL, "") && !strcmp(w, "pragma"))
      return dfg_pragma(c, *s);
    return 0; /* a comment */
  }
  if (dfg_at_end(c)) return 0;
  char first[DFG_NAME];
  int col;
  if (dfg_ident(c, first, &col, "a declaration, a port or an operation")) return -1;
  int kind = dfg_kind(first);
  if (dfg_is(first, "Array")) {
    dfg_eat(c, ':');
    return dfg_array_line(c, f, -1);
  }
  if (!strncasecmp(first, "Input", 5) || !strncasecmp(first, "Output", 6)) {
    dfg_blank(c);
    if (dfg_peek(c) != '=' && dfg_peek(c) != ',') return dfg_port_line(c, *s, first, col);
  }
  if (!strncasecmp(first, "Indirect", 8) || !strncasecmp(first, "TaskDep", 7))
    return dfg_fail(c, col, "%s ports are not supported (docs/dfg.md \"Refused\")", first);
  dfg_blank(c);
  if (kind >= 0 && dfg_peek(c) != '=' && dfg_peek(c) != ',') return dfg_array_line(c, f, kind);
  char second[DFG_NAME] = "";
  int col2 = 0;
  if (dfg_eat(c, ',') && dfg_ident(c, second, &col2, "a second result")) return -1;
  if (second[0] && dfg_peek((dfg_blank(c), c)) == ',')
    return dfg_fail(c, dfg_col(c), "more than two results (docs/dfg.md \"Refused\")");
  if (!dfg_eat(c, '='))
    return dfg_fail(c, dfg_col(c), "expected '=' after '%s' (a port starts with Input or Output, an array with Array)",
                    second[0] ? second : first);
  if (dfg_op_line(c, *s, first, col)) return -1;
  dfg_op *op = &(*s)->op[(*s)->nops - 1];
  snprintf(op->res2, sizeof op->res2, "%s", second);
  op->col2 = col2;
  if (second[0] && !op->op[0]) return dfg_fail(c, col2, "two results need an operation (Q, R = DivRem64(A, B))");
  return 0;
}

int dfg_file_parse(const char *text, dfg_file *f, dfg_error *err) {
  memset(f, 0, sizeof *f);
  memset(err, 0, sizeof *err);
  dfg_sub *s = dfg_sub_new(f, 1);
  dfg_cur c = {.err = err};
  if (!s) return dfg_fail(&c, 1, "out of memory");
  const char *p = text;
  for (int line = 1; *p; line++) {
    const char *nl = strchr(p, '\n');
    int len = nl ? (int)(nl - p) : (int)strlen(p);
    c.s = p;
    c.len = len;
    c.pos = 0;
    c.line = line;
    if (dfg_line(&c, f, &s)) {
      dfg_file_free(f);
      return -1;
    }
    p += len + (nl != NULL);
  }
  return 0;
}

void dfg_file_free(dfg_file *f) {
  for (int i = 0; i < f->nsubs; i++) {
    free(f->sub[i].port);
    free(f->sub[i].op);
  }
  free(f->sub);
  free(f->array);
  memset(f, 0, sizeof *f);
}

const dfg_array *dfg_array_find(const dfg_file *f, const char *name) {
  for (int i = 0; i < f->narrays; i++)
    if (!strcmp(f->array[i].name, name)) return &f->array[i];
  return NULL;
}

int dfg_sub_has_program(const dfg_sub *s) { return s->nports > 0 || s->nops > 0; }
