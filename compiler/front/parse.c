/*
 * parse.c: the recursive-descent parser of the loop language (parse.h).
 *
 * The text is first split into tokens (lex.h); the parser then walks them
 * with one token of lookahead (a bounded scan decides whether a '(' in a
 * condition opens a sub-condition or an affine expression). Names are
 * resolved while reading: parameters come from the program head, arrays from
 * the declarations, index names from `par` (a name first met there becomes
 * the next index), and any other name used with brackets is an internal
 * variable (forward references allowed; rule 2 reports the ones never
 * defined once all equations are read).
 *
 * Index and condition expressions are folded into ast_aff coefficient
 * vectors as they are read; conditions are built in disjunctive normal form
 * (`and` distributes over `or`), each comparison normalised to aff >= 0 or
 * aff == 0. Data expressions become ast_expr trees with the precedence of
 * docs/language.md. Every function returns -1 or NULL after printing an
 * error, and its caller frees what it built; the first error ends the parse
 * (except rule 2, whose errors are all reported). Recursion is bounded.
 */
#include "parse.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "fileio.h"
#include "lex.h"

#define PARSE_MAX_DEPTH 256   /* nesting of parentheses and unary operators */
#define PARSE_MAX_CONJ 256    /* conjunctions of one condition in DNF */
#define PARSE_MAX_COEFF ((int64_t)1 << 40) /* bound on affine coefficients */

typedef enum { NAME_NONE, NAME_PARAM, NAME_INDEX, NAME_ARRAY, NAME_VAR } parse_name_kind;

/* Where an affine expression appears: decides which names it may use. */
typedef enum { AFF_EXTENT, AFF_PAR, AFF_INDEX, AFF_COND } parse_aff_ctx;

typedef struct {
  const char *src;
  lex_token *tok;
  int ntok, pos;
  ast_program *prog;
  int depth;
  int arrays_cap, vars_cap, eqs_cap;
  ast_loc *var_use; /* first use of each internal variable */
  int *var_defined; /* 1 once an equation defines it */
} parser;

/* ---- tokens ------------------------------------------------------------ */

/* Returns the current token. */
static const lex_token *parse_peek(const parser *ps) { return &ps->tok[ps->pos]; }

/* Returns the token `k` ahead of the current one (EOF past the end). */
static const lex_token *parse_peek_at(const parser *ps, int k) {
  int i = ps->pos + k;
  return &ps->tok[i < ps->ntok ? i : ps->ntok - 1];
}

/* Returns the current token and moves past it (never past EOF). */
static const lex_token *parse_next(parser *ps) {
  const lex_token *t = &ps->tok[ps->pos];
  if (t->kind != LEX_EOF) ps->pos++;
  return t;
}

/* Returns 1 and consumes the token when it has kind `k`, else 0. */
static int parse_accept(parser *ps, lex_kind k) {
  if (parse_peek(ps)->kind != k) return 0;
  parse_next(ps);
  return 1;
}

/* Returns a quoted description of a token for messages, in buf. */
static const char *parse_tok_desc(const lex_token *t, char *buf, size_t size) {
  if (t->kind == LEX_EOF) return "end of file";
  int len = t->len > 40 ? 40 : t->len;
  snprintf(buf, size, "'%.*s'%s", len, t->text, t->len > 40 ? "..." : "");
  return buf;
}

/* Prints an error at token `t`; returns -1. */
static int parse_error_at(const parser *ps, const lex_token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int parse_error_at(const parser *ps, const lex_token *t, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_error(&t->loc, ps->src, "%s", msg);
  return -1;
}

/* Prints `expected WHAT WHERE, found TOKEN` at the current token; returns -1. */
static int parse_expected(const parser *ps, const char *what, const char *where) {
  char buf[64];
  const lex_token *t = parse_peek(ps);
  return parse_error_at(ps, t, "expected %s%s%s, found %s", what, *where ? " " : "", where,
                        parse_tok_desc(t, buf, sizeof buf));
}

/* Consumes a token of kind `k`; returns 0, or -1 after `expected 'X' WHERE`. */
static int parse_expect(parser *ps, lex_kind k, const char *where) {
  if (parse_accept(ps, k)) return 0;
  char what[32];
  snprintf(what, sizeof what, "'%s'", lex_kind_name(k));
  return parse_expected(ps, what, where);
}

/* Returns the source text of tokens [from, to) in buf (shortened if long). */
static const char *parse_span(const parser *ps, int from, int to, char *buf, size_t size) {
  if (to <= from) {
    snprintf(buf, size, "%s", "");
    return buf;
  }
  const char *s = ps->tok[from].text;
  const char *e = ps->tok[to - 1].text + ps->tok[to - 1].len;
  int len = (int)(e - s);
  if (len > 60)
    snprintf(buf, size, "%.57s...", s);
  else
    snprintf(buf, size, "%.*s", len, s);
  return buf;
}

/* Returns 1 when token `t` spells `name`. */
static int parse_tok_is(const lex_token *t, const char *name) {
  return t->kind == LEX_IDENT && (int)strlen(name) == t->len && !strncmp(t->text, name, (size_t)t->len);
}

/* Returns a fresh copy of the token's spelling, or NULL. */
static char *parse_tok_strdup(const lex_token *t) {
  char *s = malloc((size_t)t->len + 1);
  if (!s) return NULL;
  memcpy(s, t->text, (size_t)t->len);
  s[t->len] = 0;
  return s;
}

/* Enters one level of nesting; returns 0, or -1 after an error when too deep. */
static int parse_enter(parser *ps) {
  if (++ps->depth <= PARSE_MAX_DEPTH) return 0;
  return parse_error_at(ps, parse_peek(ps), "expression nested too deeply (more than %d levels)",
                        PARSE_MAX_DEPTH);
}

/* Leaves one level of nesting. */
static void parse_leave(parser *ps) { ps->depth--; }

/* ---- names ------------------------------------------------------------- */

/* Returns what identifier token `t` names, with its id in *id. */
static parse_name_kind parse_lookup(const parser *ps, const lex_token *t, int *id) {
  const ast_program *p = ps->prog;
  for (int i = 0; i < p->nparams; i++)
    if (parse_tok_is(t, p->param[i])) return *id = i, NAME_PARAM;
  for (int i = 0; i < p->ndims; i++)
    if (parse_tok_is(t, p->index[i])) return *id = i, NAME_INDEX;
  for (int i = 0; i < p->narrays; i++)
    if (parse_tok_is(t, p->arrays[i].name)) return *id = i, NAME_ARRAY;
  for (int i = 0; i < p->nvars; i++)
    if (parse_tok_is(t, p->vars[i].name)) return *id = i, NAME_VAR;
  return NAME_NONE;
}

/* Returns a description of what a name already is ("parameter", ...). */
static const char *parse_name_what(const parser *ps, parse_name_kind k, int id) {
  switch (k) {
  case NAME_PARAM: return "a parameter";
  case NAME_INDEX: return "an index";
  case NAME_ARRAY: return ps->prog->arrays[id].kind == AST_ARRAY_IN ? "an input" : "an output";
  case NAME_VAR: return "an internal variable";
  default: return "unknown";
  }
}

/* Checks that the identifier `t` is not yet declared; returns 0 or -1. */
static int parse_check_fresh(parser *ps, const lex_token *t) {
  int id;
  parse_name_kind k = parse_lookup(ps, t, &id);
  if (k == NAME_NONE) return 0;
  return parse_error_at(ps, t, "'%.*s' is declared twice: it is already %s", t->len, t->text,
                        parse_name_what(ps, k, id));
}

/* Returns the id of a new internal variable named by `t`, or -1. */
static int parse_var_add(parser *ps, const lex_token *t) {
  ast_program *p = ps->prog;
  if (p->nvars == ps->vars_cap) {
    int cap = ps->vars_cap ? 2 * ps->vars_cap : 16;
    ast_var *v = realloc(p->vars, (size_t)cap * sizeof *v);
    if (!v) return -1;
    p->vars = v;
    ast_loc *u = realloc(ps->var_use, (size_t)cap * sizeof *u);
    if (!u) return -1;
    ps->var_use = u;
    int *d = realloc(ps->var_defined, (size_t)cap * sizeof *d);
    if (!d) return -1;
    ps->var_defined = d;
    ps->vars_cap = cap;
  }
  char *name = parse_tok_strdup(t);
  if (!name) return -1;
  p->vars[p->nvars].name = name;
  p->vars[p->nvars].loc = t->loc;
  ps->var_use[p->nvars] = t->loc;
  ps->var_defined[p->nvars] = 0;
  return p->nvars++;
}

/* ---- affine expressions ------------------------------------------------ */

/* Returns 1 when `a` has no parameter and no index term (a constant). */
static int parse_aff_is_const(const ast_aff *a) {
  for (int i = 0; i < AST_MAX_PARAMS; i++)
    if (a->param[i]) return 0;
  for (int i = 0; i < AST_MAX_DIMS; i++)
    if (a->index[i]) return 0;
  return 1;
}

/* Returns 1 when |v| is within the bound on affine coefficients. */
static int parse_coeff_ok(int64_t v) { return v <= PARSE_MAX_COEFF && v >= -PARSE_MAX_COEFF; }

/* Sets *a = *a * k + *b * m; returns 0, or -1 when a coefficient grows
 * beyond the bound. */
static int parse_aff_combine(ast_aff *a, int64_t k, const ast_aff *b, int64_t m) {
  int64_t *va[] = {a->param, a->index, &a->konst};
  const int64_t *vb[] = {b->param, b->index, &b->konst};
  int n[] = {AST_MAX_PARAMS, AST_MAX_DIMS, 1};
  for (int g = 0; g < 3; g++)
    for (int i = 0; i < n[g]; i++) {
      int64_t x, y, v;
      if (__builtin_mul_overflow(va[g][i], k, &x) || __builtin_mul_overflow(vb[g][i], m, &y) ||
          __builtin_add_overflow(x, y, &v) || !parse_coeff_ok(v))
        return -1;
      va[g][i] = v;
    }
  return 0;
}

/* Returns the 32-bit reading of a literal, negated when `neg`. */
static int32_t parse_literal_value(uint32_t raw, int neg) {
  uint32_t u = neg ? (uint32_t)(0u - raw) : raw;
  return (int32_t)u;
}

/* Checks that `-LITERAL` at token `t` fits in 32 bits; returns 0 or -1. */
static int parse_check_negative_literal(const parser *ps, const lex_token *minus, const lex_token *t) {
  if (t->value <= 0x80000000u) return 0;
  return parse_error_at(ps, minus,
                        "integer literal '-%.*s' does not fit in 32 bits (at least -2147483648)",
                        t->len, t->text);
}

static int parse_aff_sum(parser *ps, ast_aff *out, parse_aff_ctx ctx);

/* Parses a name inside an affine expression into *out; returns 0 or -1. */
static int parse_aff_name(parser *ps, ast_aff *out, parse_aff_ctx ctx) {
  const lex_token *t = parse_next(ps);
  int id;
  parse_name_kind k = parse_lookup(ps, t, &id);
  if (k == NAME_NONE && ctx == AFF_PAR) {
    ast_program *p = ps->prog;
    if (p->ndims == AST_MAX_DIMS)
      return parse_error_at(ps, t, "too many index names in par: at most %d", AST_MAX_DIMS);
    if (!(p->index[p->ndims] = parse_tok_strdup(t))) return -1;
    id = p->ndims++;
    k = NAME_INDEX;
  }
  if (k == NAME_PARAM) {
    out->param[id] = 1;
    return 0;
  }
  if (k == NAME_INDEX && ctx != AFF_EXTENT) {
    out->index[id] = 1;
    return 0;
  }
  if (ctx == AFF_EXTENT)
    return parse_error_at(ps, t, "'%.*s' is not a parameter: an array extent may only name parameters and constants",
                          t->len, t->text);
  if (k == NAME_NONE)
    return parse_error_at(ps, t, "unknown name '%.*s' in an %s expression (expected an index of par, a parameter or a constant)",
                          t->len, t->text, ctx == AFF_INDEX ? "index" : "affine");
  return parse_error_at(ps, t, "'%.*s' is %s: %s expressions may only name indices, parameters and constants",
                        t->len, t->text, parse_name_what(ps, k, id),
                        ctx == AFF_INDEX ? "index" : ctx == AFF_PAR ? "par" : "condition");
}

/* Parses a factor: [-|+] factor, literal, name or ( sum ); returns 0 or -1. */
static int parse_aff_factor(parser *ps, ast_aff *out, parse_aff_ctx ctx) {
  memset(out, 0, sizeof *out);
  const lex_token *t = parse_peek(ps);
  int r = 0;
  if (parse_enter(ps)) return -1;
  if (t->kind == LEX_MINUS || t->kind == LEX_PLUS) {
    parse_next(ps);
    if (t->kind == LEX_MINUS && parse_peek(ps)->kind == LEX_INT) {
      const lex_token *lit = parse_next(ps);
      if (parse_check_negative_literal(ps, t, lit)) r = -1;
      else out->konst = parse_literal_value(lit->value, 1);
    } else {
      ast_aff zero = {0};
      ast_aff inner;
      r = parse_aff_factor(ps, &inner, ctx);
      if (!r && t->kind == LEX_MINUS && parse_aff_combine(&zero, 1, &inner, -1))
        r = parse_error_at(ps, t, "affine expression too large");
      if (!r) *out = t->kind == LEX_MINUS ? zero : inner;
    }
  } else if (t->kind == LEX_INT) {
    parse_next(ps);
    out->konst = parse_literal_value(t->value, 0);
  } else if (t->kind == LEX_IDENT) {
    r = parse_aff_name(ps, out, ctx);
  } else if (t->kind == LEX_LPAREN) {
    parse_next(ps);
    r = parse_aff_sum(ps, out, ctx);
    if (!r) r = parse_expect(ps, LEX_RPAREN, "to close the parenthesis");
  } else {
    r = parse_expected(ps, "an index, a parameter or an integer", "");
  }
  parse_leave(ps);
  return r;
}

/* Parses a product of factors, one side of each product constant;
 * returns 0 or -1. */
static int parse_aff_term(parser *ps, ast_aff *out, parse_aff_ctx ctx) {
  int start = ps->pos;
  if (parse_aff_factor(ps, out, ctx)) return -1;
  for (;;) {
    const lex_token *op = parse_peek(ps);
    if (op->kind == LEX_SLASH || op->kind == LEX_PERCENT || op->kind == LEX_SHL ||
        op->kind == LEX_SHR || op->kind == LEX_SHRU)
      return parse_error_at(ps, op, "'%s' is not allowed in an affine expression (only +, - and multiplication by a constant)",
                            lex_kind_name(op->kind));
    if (op->kind != LEX_STAR) return 0;
    int mid = ps->pos;
    parse_next(ps);
    ast_aff rhs;
    if (parse_aff_factor(ps, &rhs, ctx)) return -1;
    int lc = parse_aff_is_const(out), rc = parse_aff_is_const(&rhs);
    if (!lc && !rc) {
      char a[80], b[80];
      return parse_error_at(ps, &ps->tok[start], "non-affine expression: '%s' times '%s' (one side of '*' must be a constant)",
                            parse_span(ps, start, mid, a, sizeof a), parse_span(ps, mid + 1, ps->pos, b, sizeof b));
    }
    ast_aff zero = {0};
    int bad = lc ? parse_aff_combine(&zero, 0, &rhs, out->konst) : parse_aff_combine(&zero, 0, out, rhs.konst);
    if (bad) return parse_error_at(ps, op, "affine expression too large");
    *out = zero;
  }
}

/* Parses a sum of terms; returns 0 or -1. */
static int parse_aff_sum(parser *ps, ast_aff *out, parse_aff_ctx ctx) {
  if (parse_aff_term(ps, out, ctx)) return -1;
  for (;;) {
    const lex_token *op = parse_peek(ps);
    if (op->kind != LEX_PLUS && op->kind != LEX_MINUS) return 0;
    parse_next(ps);
    ast_aff rhs;
    if (parse_aff_term(ps, &rhs, ctx)) return -1;
    if (parse_aff_combine(out, 1, &rhs, op->kind == LEX_PLUS ? 1 : -1))
      return parse_error_at(ps, op, "affine expression too large");
  }
}

/* Parses `[ aff, ... ]` (the '[' is current) into idx; stores the count in
 * *n and the token span of each index in span[k] (start, end). Returns 0
 * or -1. */
static int parse_aff_list(parser *ps, ast_aff *idx, int *n, int (*span)[2], parse_aff_ctx ctx) {
  parse_next(ps); /* [ */
  *n = 0;
  do {
    if (*n == AST_MAX_DIMS)
      return parse_error_at(ps, parse_peek(ps), "too many indices: at most %d", AST_MAX_DIMS);
    span[*n][0] = ps->pos;
    if (parse_aff_sum(ps, &idx[*n], ctx)) return -1;
    span[*n][1] = ps->pos;
    (*n)++;
  } while (parse_accept(ps, LEX_COMMA));
  return parse_expect(ps, LEX_RBRACKET, "after the indices");
}

/* ---- conditions (DNF) -------------------------------------------------- */

/* Frees the conjunctions of a condition and empties it. */
static void parse_cond_clear(ast_cond *c) {
  for (int i = 0; i < c->n; i++) free(c->conj[i].c);
  free(c->conj);
  c->n = 0;
  c->conj = NULL;
}

/* Returns a condition with one conjunction of one constraint, or n = 0 when
 * memory runs out. */
static ast_cond parse_cond_single(const ast_aff *a, int is_eq) {
  ast_cond c = {0, NULL};
  c.conj = calloc(1, sizeof *c.conj);
  if (!c.conj) return c;
  c.conj[0].c = malloc(sizeof *c.conj[0].c);
  if (!c.conj[0].c) {
    free(c.conj);
    c.conj = NULL;
    return c;
  }
  c.conj[0].c[0].aff = *a;
  c.conj[0].c[0].is_eq = is_eq;
  c.conj[0].n = 1;
  c.n = 1;
  return c;
}

/* Appends b's conjunctions to a (a or b), emptying b; returns 0 or -1. */
static int parse_cond_or(ast_cond *a, ast_cond *b) {
  ast_conj *c = realloc(a->conj, (size_t)(a->n + b->n) * sizeof *c);
  if (!c) return -1;
  if (b->n) memcpy(c + a->n, b->conj, (size_t)b->n * sizeof *c);
  a->conj = c;
  a->n += b->n;
  free(b->conj);
  b->conj = NULL;
  b->n = 0;
  return 0;
}

/* Returns the smallest power of two >= n (n >= 1). */
static size_t parse_pow2_ceil(size_t n) {
  size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

/* Appends the constraints of conjunction y to x; returns 0 or -1. The
 * array is reallocated to a power-of-two size, which realloc keeps in place
 * while it fits, so a chain of n `and`s costs O(n), not O(n^2). */
static int parse_conj_concat(ast_conj *x, const ast_conj *y) {
  size_t n = (size_t)x->n + (size_t)y->n;
  ast_constraint *c = realloc(x->c, parse_pow2_ceil(n ? n : 1) * sizeof *c);
  if (!c) return -1;
  if (y->n) memcpy(c + x->n, y->c, (size_t)y->n * sizeof *c);
  x->c = c;
  x->n = (int)n;
  return 0;
}

/* Replaces a by (a and b) distributed into DNF, emptying b; returns 0 or -1. */
static int parse_cond_and(ast_cond *a, ast_cond *b) {
  if (a->n == 1 && b->n == 1) { /* the common case: one conjunction grows */
    if (parse_conj_concat(&a->conj[0], &b->conj[0])) return -1;
    parse_cond_clear(b);
    return 0;
  }
  int total = a->n * b->n;
  ast_cond r = {0, calloc((size_t)(total > 0 ? total : 1), sizeof(ast_conj))};
  if (!r.conj) return -1;
  for (int i = 0; i < a->n; i++)
    for (int j = 0; j < b->n; j++) {
      const ast_conj *x = &a->conj[i], *y = &b->conj[j];
      ast_conj *z = &r.conj[r.n];
      z->c = malloc((size_t)(x->n + y->n ? x->n + y->n : 1) * sizeof *z->c);
      if (!z->c) {
        parse_cond_clear(&r);
        return -1;
      }
      if (x->n) memcpy(z->c, x->c, (size_t)x->n * sizeof *z->c);
      if (y->n) memcpy(z->c + x->n, y->c, (size_t)y->n * sizeof *z->c);
      z->n = x->n + y->n;
      r.n++;
    }
  parse_cond_clear(a);
  parse_cond_clear(b);
  *a = r;
  return 0;
}

/* Returns the comparison `a OP b` as a condition in *out; `!=` gives two
 * conjunctions. Returns 0 or -1. */
static int parse_compare(lex_kind op, const ast_aff *a, const ast_aff *b, ast_cond *out) {
  ast_aff d = *a; /* a - b */
  ast_aff e = *b; /* b - a */
  if (parse_aff_combine(&d, 1, b, -1) || parse_aff_combine(&e, 1, a, -1)) return -1;
  ast_aff d1 = d, e1 = e;
  d1.konst -= 1;
  e1.konst -= 1;
  switch (op) {
  case LEX_LT: *out = parse_cond_single(&e1, 0); break;
  case LEX_LE: *out = parse_cond_single(&e, 0); break;
  case LEX_GT: *out = parse_cond_single(&d1, 0); break;
  case LEX_GE: *out = parse_cond_single(&d, 0); break;
  case LEX_EQ: *out = parse_cond_single(&d, 1); break;
  default: {
    *out = parse_cond_single(&e1, 0);
    ast_cond other = parse_cond_single(&d1, 0);
    if (!out->n || !other.n || parse_cond_or(out, &other)) {
      parse_cond_clear(out);
      parse_cond_clear(&other);
      return -1;
    }
  }
  }
  return out->n ? 0 : -1;
}

/* Returns 1 when `k` is a comparison operator. */
static int parse_is_relop(lex_kind k) {
  return k == LEX_LT || k == LEX_LE || k == LEX_GT || k == LEX_GE || k == LEX_EQ || k == LEX_NE;
}

/* Parses a chained comparison `aff OP aff [OP aff ...]` into *out; `!=`
 * only when allow_ne. Returns 0 or -1. */
static int parse_chain(parser *ps, ast_cond *out, parse_aff_ctx ctx, int allow_ne) {
  ast_aff left, right;
  int start = ps->pos;
  out->n = 0;
  out->conj = NULL;
  if (parse_aff_sum(ps, &left, ctx)) return -1;
  if (!parse_is_relop(parse_peek(ps)->kind)) {
    char buf[80];
    char where[128];
    snprintf(where, sizeof where, "after '%s'", parse_span(ps, start, ps->pos, buf, sizeof buf));
    return parse_expected(ps, "a comparison (< <= == != >= >)", where);
  }
  while (parse_is_relop(parse_peek(ps)->kind)) {
    const lex_token *op = parse_next(ps);
    if (op->kind == LEX_NE && !allow_ne) {
      parse_cond_clear(out);
      return parse_error_at(ps, op, "'!=' is not allowed in par (its constraints must form one convex set)");
    }
    if (parse_aff_sum(ps, &right, ctx)) {
      parse_cond_clear(out);
      return -1;
    }
    ast_cond c;
    if (parse_compare(op->kind, &left, &right, &c)) {
      parse_cond_clear(out);
      return parse_error_at(ps, op, "comparison too large");
    }
    if (out->conj == NULL) {
      *out = c;
    } else if (parse_cond_and(out, &c)) {
      parse_cond_clear(out);
      parse_cond_clear(&c);
      return -1;
    }
    left = right;
  }
  return 0;
}

/* Returns 1 when the '(' at the current token opens a sub-condition, 0 when
 * it opens an affine expression: affine expressions hold no comparison,
 * `and`, `or` or ',', so any of these before the matching ')' decides. */
static int parse_paren_is_cond(const parser *ps) {
  int depth = 0;
  for (int i = ps->pos; i < ps->ntok; i++) {
    lex_kind k = ps->tok[i].kind;
    if (k == LEX_LPAREN) depth++;
    else if (k == LEX_RPAREN && --depth == 0) return 0;
    else if (parse_is_relop(k) || k == LEX_KW_AND || k == LEX_KW_OR || k == LEX_COMMA) return 1;
    else if (k == LEX_EOF || k == LEX_SEMI || k == LEX_LBRACE) return 0;
  }
  return 0;
}

static int parse_cond_or_list(parser *ps, ast_cond *out);

/* Parses a parenthesised sub-condition or a chained comparison. */
static int parse_cond_atom(parser *ps, ast_cond *out) {
  if (parse_peek(ps)->kind == LEX_LPAREN && parse_paren_is_cond(ps)) {
    if (parse_enter(ps)) return -1;
    parse_next(ps);
    int r = parse_cond_or_list(ps, out);
    if (!r && parse_expect(ps, LEX_RPAREN, "to close the condition")) {
      parse_cond_clear(out);
      r = -1;
    }
    parse_leave(ps);
    return r;
  }
  return parse_chain(ps, out, AFF_COND, 1);
}

/* Checks the size of a condition in DNF; returns 0, or -1 after an error. */
static int parse_cond_size_ok(const parser *ps, ast_cond *c, const lex_token *at) {
  if (c->n <= PARSE_MAX_CONJ) return 0;
  parse_cond_clear(c);
  return parse_error_at(ps, at, "condition too complex: more than %d alternatives once 'and' is distributed over 'or'",
                        PARSE_MAX_CONJ);
}

/* Parses atoms joined by `and` or ','. */
static int parse_cond_and_list(parser *ps, ast_cond *out) {
  if (parse_cond_atom(ps, out)) return -1;
  while (parse_peek(ps)->kind == LEX_KW_AND || parse_peek(ps)->kind == LEX_COMMA) {
    const lex_token *op = parse_next(ps);
    ast_cond rhs;
    if (parse_cond_atom(ps, &rhs)) {
      parse_cond_clear(out);
      return -1;
    }
    if ((long)out->n * rhs.n > PARSE_MAX_CONJ) {
      parse_cond_clear(&rhs);
      parse_cond_clear(out);
      return parse_error_at(ps, op, "condition too complex: more than %d alternatives once 'and' is distributed over 'or'",
                            PARSE_MAX_CONJ);
    }
    if (parse_cond_and(out, &rhs)) {
      parse_cond_clear(out);
      parse_cond_clear(&rhs);
      return -1;
    }
  }
  return 0;
}

/* Parses conjunctions joined by `or`. */
static int parse_cond_or_list(parser *ps, ast_cond *out) {
  if (parse_cond_and_list(ps, out)) return -1;
  while (parse_peek(ps)->kind == LEX_KW_OR) {
    const lex_token *op = parse_next(ps);
    ast_cond rhs;
    if (parse_cond_and_list(ps, &rhs)) {
      parse_cond_clear(out);
      return -1;
    }
    if (parse_cond_or(out, &rhs)) {
      parse_cond_clear(out);
      parse_cond_clear(&rhs);
      return -1;
    }
    if (parse_cond_size_ok(ps, out, op)) return -1;
  }
  return 0;
}

/* ---- data expressions -------------------------------------------------- */

/* Frees an expression tree. */
static void parse_expr_free(ast_expr *e) {
  if (!e) return;
  for (int i = 0; i < 3; i++) parse_expr_free(e->arg[i]);
  free(e);
}

/* Returns a new expression node of kind `k` at `loc`, or NULL. */
static ast_expr *parse_expr_new(ast_expr_kind k, ast_loc loc) {
  ast_expr *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->kind = k;
  e->loc = loc;
  return e;
}

/* Returns the operation node op(a, b, c) (unused operands NULL); frees the
 * operands and returns NULL when one is missing or memory runs out. */
static ast_expr *parse_expr_op(ast_op op, ast_loc loc, int nargs, ast_expr *a, ast_expr *b, ast_expr *c) {
  ast_expr *args[3] = {a, b, c};
  ast_expr *e = NULL;
  int ok = 1;
  for (int i = 0; i < nargs; i++)
    if (!args[i]) ok = 0;
  if (ok) e = parse_expr_new(AST_EXPR_OP, loc);
  if (!e) {
    for (int i = 0; i < 3; i++) parse_expr_free(args[i]);
    return NULL;
  }
  e->op = op;
  e->nargs = nargs;
  for (int i = 0; i < 3; i++) e->arg[i] = args[i];
  return e;
}

static ast_expr *parse_expr(parser *ps);

/* Parses a use of an internal variable `var` at token `t` (brackets
 * current); returns the node or NULL. */
static ast_expr *parse_var_use(parser *ps, const lex_token *t, int var) {
  const ast_program *p = ps->prog;
  ast_aff idx[AST_MAX_DIMS];
  int span[AST_MAX_DIMS][2], n;
  int start = ps->pos - 1;
  if (parse_aff_list(ps, idx, &n, span, AFF_INDEX)) return NULL;
  char buf[80], want[128] = "";
  for (int d = 0; d < p->ndims; d++)
    snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", d ? "," : "", p->index[d]);
  if (n != p->ndims) {
    parse_error_at(ps, t, "internal variable '%.*s' is used with %d ind%s in '%s'; it needs %d, one per index of par (%.*s[%s] plus or minus constants)",
                   t->len, t->text, n, n == 1 ? "ex" : "ices", parse_span(ps, start, ps->pos, buf, sizeof buf),
                   p->ndims, t->len, t->text, want);
    return NULL;
  }
  ast_expr *e = parse_expr_new(AST_EXPR_VAR, t->loc);
  if (!e) return NULL;
  e->var = var;
  for (int d = 0; d < n; d++) {
    ast_aff unit = {0};
    unit.index[d] = 1;
    unit.konst = idx[d].konst;
    if (memcmp(&unit, &idx[d], sizeof unit)) {
      parse_error_at(ps, &ps->tok[span[d][0]],
                     "index %d of internal variable '%.*s' is '%s'; a use must be %s plus or minus a constant (uniform dependence)",
                     d + 1, t->len, t->text, parse_span(ps, span[d][0], span[d][1], buf, sizeof buf), p->index[d]);
      free(e);
      return NULL;
    }
    e->off[d] = idx[d].konst;
  }
  return e;
}

/* Parses a use of input or output array `a` at token `t`; returns the node
 * or NULL. */
static ast_expr *parse_array_use(parser *ps, const lex_token *t, int a) {
  const ast_array *arr = &ps->prog->arrays[a];
  if (arr->kind == AST_ARRAY_OUT) {
    parse_error_at(ps, t, "rule 1 (single assignment): output '%s' is read; outputs may only be written (copy the value into an internal variable and read that)",
                   arr->name);
    return NULL;
  }
  ast_expr *e = parse_expr_new(AST_EXPR_IN, t->loc);
  if (!e) return NULL;
  e->array = a;
  int n = 0;
  if (parse_peek(ps)->kind == LEX_LBRACKET) {
    int span[AST_MAX_DIMS][2];
    if (parse_aff_list(ps, e->idx, &n, span, AFF_INDEX)) {
      free(e);
      return NULL;
    }
  }
  if (n != arr->ndims) {
    if (arr->ndims == 0)
      parse_error_at(ps, t, "input '%s' is a scalar: use it without indices", arr->name);
    else
      parse_error_at(ps, t, "input '%s' has %d dimension%s but is used with %d ind%s",
                     arr->name, arr->ndims, arr->ndims == 1 ? "" : "s", n, n == 1 ? "ex" : "ices");
    free(e);
    return NULL;
  }
  return e;
}

/* Parses a call min(a, b), max(a, b) or abs(a) at token `t` ('(' current). */
static ast_expr *parse_call(parser *ps, const lex_token *t) {
  ast_op op = parse_tok_is(t, "abs") ? AST_OP_ABS : parse_tok_is(t, "min") ? AST_OP_MIN : AST_OP_MAX;
  int nargs = op == AST_OP_ABS ? 1 : 2;
  ast_expr *arg[2] = {NULL, NULL};
  parse_next(ps); /* ( */
  for (int i = 0; i < nargs; i++) {
    if (i && parse_peek(ps)->kind != LEX_COMMA) {
      parse_expected(ps, "','", op == AST_OP_ABS ? "" : "between the two arguments");
      goto error;
    }
    if (i) parse_next(ps);
    if (!(arg[i] = parse_expr(ps))) goto error;
  }
  if (parse_peek(ps)->kind != LEX_RPAREN) {
    char where[64];
    snprintf(where, sizeof where, "after the argument%s of %s", nargs == 1 ? "" : "s", ast_op_name(op));
    parse_expected(ps, "')'", where);
    goto error;
  }
  parse_next(ps);
  return parse_expr_op(op, t->loc, nargs, arg[0], arg[1], NULL);
error:
  parse_expr_free(arg[0]);
  parse_expr_free(arg[1]);
  return NULL;
}

/* Parses a name in a data expression: an input, an internal variable use or
 * a call. Returns the node or NULL. */
static ast_expr *parse_data_name(parser *ps) {
  const lex_token *t = parse_next(ps);
  int id;
  parse_name_kind k = parse_lookup(ps, t, &id);
  lex_kind next = parse_peek(ps)->kind;
  if (k == NAME_NONE && next == LEX_LPAREN) {
    if (parse_tok_is(t, "min") || parse_tok_is(t, "max") || parse_tok_is(t, "abs")) return parse_call(ps, t);
    parse_error_at(ps, t, "unknown function '%.*s' (the functions are min, max and abs)", t->len, t->text);
    return NULL;
  }
  switch (k) {
  case NAME_PARAM:
  case NAME_INDEX:
    parse_error_at(ps, t, "%s '%.*s' may not appear in a data expression (only in index and condition expressions)",
                   k == NAME_PARAM ? "parameter" : "index", t->len, t->text);
    return NULL;
  case NAME_ARRAY: return parse_array_use(ps, t, id);
  case NAME_NONE:
    if (next != LEX_LBRACKET) {
      parse_error_at(ps, t, "unknown name '%.*s': not a declared input, and an internal variable needs its indices ('%.*s[...]')",
                     t->len, t->text, t->len, t->text);
      return NULL;
    }
    if ((id = parse_var_add(ps, t)) < 0) return NULL;
    ps->var_use[id] = t->loc;
    return parse_var_use(ps, t, id);
  case NAME_VAR:
    if (next != LEX_LBRACKET) {
      parse_error_at(ps, t, "internal variable '%.*s' needs its indices ('%.*s[...]')", t->len, t->text, t->len, t->text);
      return NULL;
    }
    return parse_var_use(ps, t, id);
  }
  return NULL;
}

/* Parses a primary: literal, name, call or ( expr ). */
static ast_expr *parse_primary(parser *ps) {
  const lex_token *t = parse_peek(ps);
  if (t->kind == LEX_INT) {
    parse_next(ps);
    ast_expr *e = parse_expr_new(AST_EXPR_CONST, t->loc);
    if (e) e->value = parse_literal_value(t->value, 0);
    return e;
  }
  if (t->kind == LEX_IDENT) return parse_data_name(ps);
  if (t->kind == LEX_LPAREN) {
    parse_next(ps);
    ast_expr *e = parse_expr(ps);
    if (e && parse_expect(ps, LEX_RPAREN, "to close the parenthesis")) {
      parse_expr_free(e);
      return NULL;
    }
    return e;
  }
  parse_expected(ps, "an operand (a name, an integer or '(')", "");
  return NULL;
}

/* Parses a unary expression: - ~ ! applied to a unary, or a primary. A '-'
 * directly before a literal is folded into it. */
static ast_expr *parse_unary(parser *ps) {
  const lex_token *t = parse_peek(ps);
  if (parse_enter(ps)) return NULL;
  ast_expr *e;
  if (t->kind == LEX_MINUS && parse_peek_at(ps, 1)->kind == LEX_INT) {
    parse_next(ps);
    const lex_token *lit = parse_next(ps);
    e = NULL;
    if (!parse_check_negative_literal(ps, t, lit) && (e = parse_expr_new(AST_EXPR_CONST, t->loc)))
      e->value = parse_literal_value(lit->value, 1);
  } else if (t->kind == LEX_MINUS || t->kind == LEX_TILDE || t->kind == LEX_BANG) {
    parse_next(ps);
    ast_op op = t->kind == LEX_MINUS ? AST_OP_NEG : t->kind == LEX_TILDE ? AST_OP_NOT : AST_OP_LNOT;
    e = parse_expr_op(op, t->loc, 1, parse_unary(ps), NULL, NULL);
  } else {
    e = parse_primary(ps);
  }
  parse_leave(ps);
  return e;
}

/* One level of binary operators, from highest to lowest precedence. */
typedef struct {
  lex_kind tok;
  ast_op op;
} parse_binop;

static const parse_binop parse_levels[][4] = {
    {{LEX_STAR, AST_OP_MUL}, {LEX_SLASH, AST_OP_DIV}, {LEX_PERCENT, AST_OP_MOD}},
    {{LEX_PLUS, AST_OP_ADD}, {LEX_MINUS, AST_OP_SUB}},
    {{LEX_SHL, AST_OP_SHL}, {LEX_SHR, AST_OP_SHR}, {LEX_SHRU, AST_OP_SHRU}},
    {{LEX_LT, AST_OP_LT}, {LEX_LE, AST_OP_LE}, {LEX_GT, AST_OP_GT}, {LEX_GE, AST_OP_GE}},
    {{LEX_EQ, AST_OP_EQ}, {LEX_NE, AST_OP_NE}},
    {{LEX_AMP, AST_OP_AND}},
    {{LEX_CARET, AST_OP_XOR}},
    {{LEX_PIPE, AST_OP_OR}},
};

#define PARSE_NLEVELS (int)(sizeof parse_levels / sizeof parse_levels[0])

/* Parses a left-associative chain of the operators of level `lvl` (0 is
 * the highest precedence: * / %). Each operator makes the tree one level
 * deeper, so it counts as one level of nesting (the passes over the tree
 * recurse on its depth: a chain of 30000 '+' overflowed their stack). */
static ast_expr *parse_binary(parser *ps, int lvl) {
  if (lvl < 0) return parse_unary(ps);
  ast_expr *e = parse_binary(ps, lvl - 1);
  int levels = 0;
  while (e) {
    const lex_token *t = parse_peek(ps);
    int found = -1;
    for (int i = 0; i < 4; i++)
      if (parse_levels[lvl][i].tok == t->kind && t->kind != LEX_EOF) found = i;
    if (found < 0) break;
    levels++;
    if (parse_enter(ps)) {
      parse_expr_free(e);
      e = NULL;
      break;
    }
    parse_next(ps);
    e = parse_expr_op(parse_levels[lvl][found].op, t->loc, 2, e, parse_binary(ps, lvl - 1), NULL);
  }
  while (levels-- > 0) parse_leave(ps);
  return e;
}

/* Parses a full data expression: `c ? a : b` (right-associative) over the
 * binary operators. */
static ast_expr *parse_expr(parser *ps) {
  if (parse_enter(ps)) return NULL;
  ast_expr *c = parse_binary(ps, PARSE_NLEVELS - 1);
  const lex_token *q = parse_peek(ps);
  if (c && q->kind == LEX_QUESTION) {
    parse_next(ps);
    ast_expr *a = parse_expr(ps);
    if (a && parse_peek(ps)->kind != LEX_COLON) {
      parse_expected(ps, "':'", "in 'c ? a : b'");
      parse_expr_free(a);
      a = NULL;
    }
    ast_expr *b = NULL;
    if (a) {
      parse_next(ps);
      b = parse_expr(ps);
    }
    c = parse_expr_op(AST_OP_SEL, q->loc, 3, c, a, b);
  }
  parse_leave(ps);
  return c;
}

/* ---- program structure ------------------------------------------------- */

/* Parses `program NAME ( PARAM, ... ) {`; returns 0 or -1. */
static int parse_head(parser *ps) {
  ast_program *p = ps->prog;
  const lex_token *t = parse_peek(ps);
  if (t->kind != LEX_KW_PROGRAM) return parse_expected(ps, "'program'", "at the start of the file");
  p->loc = parse_next(ps)->loc;
  if (parse_peek(ps)->kind != LEX_IDENT) return parse_expected(ps, "the program's name", "after 'program'");
  if (!(p->name = parse_tok_strdup(parse_next(ps)))) return -1;
  if (parse_expect(ps, LEX_LPAREN, "after the program's name")) return -1;
  if (!parse_accept(ps, LEX_RPAREN)) {
    do {
      t = parse_peek(ps);
      if (t->kind != LEX_IDENT) return parse_expected(ps, "a parameter name", "");
      if (parse_check_fresh(ps, t)) return -1;
      if (p->nparams == AST_MAX_PARAMS)
        return parse_error_at(ps, t, "too many parameters: at most %d", AST_MAX_PARAMS);
      if (!(p->param[p->nparams] = parse_tok_strdup(parse_next(ps)))) return -1;
      p->nparams++;
    } while (parse_accept(ps, LEX_COMMA));
    if (parse_expect(ps, LEX_RPAREN, "after the parameters")) return -1;
  }
  return parse_expect(ps, LEX_LBRACE, "to open the program's body");
}

/* Parses one array of a declaration (`NAME` or `NAME[E, ...]`); returns 0
 * or -1. */
static int parse_array_decl(parser *ps, ast_array_kind kind) {
  ast_program *p = ps->prog;
  const lex_token *t = parse_peek(ps);
  if (t->kind != LEX_IDENT) return parse_expected(ps, "an array name", "in the declaration");
  if (parse_check_fresh(ps, t)) return -1;
  if (p->narrays == ps->arrays_cap) {
    int cap = ps->arrays_cap ? 2 * ps->arrays_cap : 8;
    ast_array *a = realloc(p->arrays, (size_t)cap * sizeof *a);
    if (!a) return -1;
    p->arrays = a;
    ps->arrays_cap = cap;
  }
  ast_array *a = &p->arrays[p->narrays];
  memset(a, 0, sizeof *a);
  a->kind = kind;
  a->loc = t->loc;
  if (!(a->name = parse_tok_strdup(parse_next(ps)))) return -1;
  p->narrays++;
  if (parse_peek(ps)->kind == LEX_LBRACKET) {
    int span[AST_MAX_DIMS][2];
    if (parse_aff_list(ps, a->extent, &a->ndims, span, AFF_EXTENT)) return -1;
  }
  return 0;
}

/* Parses the declarations `in|out int32 A[..], ...;` up to `par`. */
static int parse_decls(parser *ps) {
  for (;;) {
    lex_kind k = parse_peek(ps)->kind;
    if (k == LEX_KW_PAR) return 0;
    if (k != LEX_KW_IN && k != LEX_KW_OUT)
      return parse_expected(ps, "a declaration ('in' or 'out') or 'par'", "");
    parse_next(ps);
    if (parse_expect(ps, LEX_KW_INT32, k == LEX_KW_IN ? "after 'in'" : "after 'out'")) return -1;
    do {
      if (parse_array_decl(ps, k == LEX_KW_IN ? AST_ARRAY_IN : AST_ARRAY_OUT)) return -1;
    } while (parse_accept(ps, LEX_COMMA));
    if (parse_expect(ps, LEX_SEMI, "after the declaration")) return -1;
  }
}

/* Appends the constraints of a one-conjunction condition to `dst`. */
static int parse_conj_append(ast_conj *dst, const ast_constraint *c) {
  ast_constraint *n = realloc(dst->c, (size_t)(dst->n + 1) * sizeof *n);
  if (!n) return -1;
  n[dst->n++] = *c;
  dst->c = n;
  return 0;
}

/* Parses `par ( CONSTRAINT, ... )`, naming the indices; returns 0 or -1. */
static int parse_par_space(parser *ps) {
  ast_program *p = ps->prog;
  p->par_loc = parse_next(ps)->loc;
  if (parse_expect(ps, LEX_LPAREN, "after 'par'")) return -1;
  do {
    ast_cond c;
    if (parse_chain(ps, &c, AFF_PAR, 0)) return -1;
    int r = 0;
    for (int i = 0; i < c.conj[0].n && !r; i++) {
      const ast_constraint *k = &c.conj[0].c[i];
      r = parse_conj_append(ast_aff_is_param_only(&k->aff) ? &p->param_space : &p->space, k);
    }
    parse_cond_clear(&c);
    if (r) return -1;
  } while (parse_accept(ps, LEX_COMMA));
  if (parse_expect(ps, LEX_RPAREN, "after the constraints of par")) return -1;
  if (p->ndims == 0)
    return parse_error_at(ps, &ps->tok[ps->pos - 1], "par names no index: its constraints must name at least one index (for example 0 <= i < N)");
  return 0;
}

/* Parses the left-hand side of an equation into *eq; returns 0 or -1. */
static int parse_lhs(parser *ps, ast_eq *eq) {
  ast_program *p = ps->prog;
  const lex_token *t = parse_peek(ps);
  if (t->kind != LEX_IDENT) return parse_expected(ps, "an equation (NAME[...] = ...) or '}'", "");
  int start = ps->pos;
  parse_next(ps);
  eq->loc = t->loc;
  int id, n = 0, span[AST_MAX_DIMS][2];
  ast_aff idx[AST_MAX_DIMS];
  parse_name_kind k = parse_lookup(ps, t, &id);
  if (k == NAME_PARAM || k == NAME_INDEX)
    return parse_error_at(ps, t, "cannot define %s '%.*s': an equation defines an internal variable or an output",
                          k == NAME_PARAM ? "parameter" : "index", t->len, t->text);
  if (k == NAME_ARRAY && p->arrays[id].kind == AST_ARRAY_IN)
    return parse_error_at(ps, t, "rule 1 (single assignment): input '%s' is written; inputs may only be read",
                          p->arrays[id].name);
  if (parse_peek(ps)->kind == LEX_LBRACKET &&
      parse_aff_list(ps, idx, &n, span, k == NAME_ARRAY ? AFF_INDEX : AFF_INDEX))
    return -1;
  char buf[80];
  if (k == NAME_ARRAY) {
    const ast_array *a = &p->arrays[id];
    if (n != a->ndims) {
      if (a->ndims == 0) return parse_error_at(ps, t, "output '%s' is a scalar: define it without indices", a->name);
      return parse_error_at(ps, t, "output '%s' has %d dimension%s but is defined with %d ind%s", a->name,
                            a->ndims, a->ndims == 1 ? "" : "s", n, n == 1 ? "ex" : "ices");
    }
    eq->is_out = 1;
    eq->array = id;
    memcpy(eq->idx, idx, sizeof idx);
    return 0;
  }
  int plain = n == p->ndims;
  for (int d = 0; d < n && plain; d++) {
    ast_aff unit = {0};
    unit.index[d] = 1;
    plain = !memcmp(&unit, &idx[d], sizeof unit);
  }
  if (!plain) {
    char want[128] = "";
    for (int d = 0; d < p->ndims; d++)
      snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", d ? "," : "", p->index[d]);
    return parse_error_at(ps, t, "internal variable '%.*s' must be defined as '%.*s[%s]' (the indices of par, in order), found '%s'",
                          t->len, t->text, t->len, t->text, want, parse_span(ps, start, ps->pos, buf, sizeof buf));
  }
  if (k == NAME_NONE && (id = parse_var_add(ps, t)) < 0) return -1;
  if (!ps->var_defined[id]) p->vars[id].loc = t->loc;
  ps->var_defined[id] = 1;
  eq->var = id;
  return 0;
}

/* Parses one equation `LHS = EXPR [if (COND)];` and appends it. */
static int parse_equation(parser *ps) {
  ast_program *p = ps->prog;
  ast_eq eq;
  memset(&eq, 0, sizeof eq);
  if (parse_lhs(ps, &eq)) return -1;
  if (parse_expect(ps, LEX_ASSIGN, "after the left-hand side of the equation")) return -1;
  if (!(eq.rhs = parse_expr(ps))) return -1;
  eq.cond_loc = eq.loc;
  if (parse_peek(ps)->kind == LEX_KW_IF) {
    eq.cond_loc = parse_next(ps)->loc;
    if (parse_expect(ps, LEX_LPAREN, "after 'if'") || parse_cond_or_list(ps, &eq.cond)) goto error;
    if (parse_expect(ps, LEX_RPAREN, "to close the condition")) goto error;
  } else {
    eq.cond.conj = calloc(1, sizeof *eq.cond.conj);
    if (!eq.cond.conj) goto error;
    eq.cond.n = 1;
  }
  if (parse_peek(ps)->kind != LEX_SEMI) {
    parse_expected(ps, "';'", parse_peek(ps)->kind == LEX_IDENT || parse_peek(ps)->kind == LEX_RBRACE
                                  ? "after equation" : "after the expression");
    goto error;
  }
  parse_next(ps);
  if (p->neqs == ps->eqs_cap) {
    int cap = ps->eqs_cap ? 2 * ps->eqs_cap : 16;
    ast_eq *e = realloc(p->eqs, (size_t)cap * sizeof *e);
    if (!e) goto error;
    p->eqs = e;
    ps->eqs_cap = cap;
  }
  p->eqs[p->neqs++] = eq;
  return 0;
error:
  parse_expr_free(eq.rhs);
  parse_cond_clear(&eq.cond);
  return -1;
}

/* Reports every internal variable used but never defined (rule 2);
 * returns how many. */
static int parse_check_defined(parser *ps) {
  int bad = 0;
  for (int i = 0; i < ps->prog->nvars; i++)
    if (!ps->var_defined[i]) {
      diag_error(&ps->var_use[i], ps->src,
                 "rule 2 (every use defined): internal variable '%s' is used but no equation defines it",
                 ps->prog->vars[i].name);
      bad++;
    }
  return bad;
}

/* Parses the whole program; returns 0 or -1. */
static int parse_program(parser *ps) {
  if (parse_head(ps) || parse_decls(ps) || parse_par_space(ps)) return -1;
  if (parse_expect(ps, LEX_LBRACE, "to open the equations of par")) return -1;
  while (parse_peek(ps)->kind != LEX_RBRACE) {
    if (parse_peek(ps)->kind == LEX_EOF) return parse_expected(ps, "'}'", "to close par");
    if (parse_equation(ps)) return -1;
  }
  parse_next(ps);
  if (parse_expect(ps, LEX_RBRACE, "to close the program")) return -1;
  if (parse_peek(ps)->kind != LEX_EOF) return parse_expected(ps, "end of file", "after the program");
  return parse_check_defined(ps) ? -1 : 0;
}

ast_program *parse_string(const char *name, const char *text) {
  parser ps;
  memset(&ps, 0, sizeof ps);
  int errors_before = diag_error_count();
  ast_program *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->file = strdup(name ? name : "<input>");
  p->source = strdup(text);
  if (!p->file || !p->source) goto error;
  ps.prog = p;
  ps.src = p->source;
  ps.tok = lex_tokenize(p->file, p->source, &ps.ntok);
  if (!ps.tok) goto error;
  if (parse_program(&ps)) goto error;
  free(ps.tok);
  free(ps.var_use);
  free(ps.var_defined);
  return p;
error:
  if (diag_error_count() == errors_before) diag_error_plain("%s: out of memory while parsing", name ? name : "<input>");
  free(ps.tok);
  free(ps.var_use);
  free(ps.var_defined);
  ast_program_free(p);
  return NULL;
}

ast_program *parse_file(const char *path) {
  size_t n;
  char *buf = fileio_read_all(path, &n);
  if (!buf) {
    diag_error_plain("cannot read '%s': %s", path, strerror(errno));
    return NULL;
  }
  if (memchr(buf, 0, n)) {
    const char *z = memchr(buf, 0, n);
    int line = 1, col = 1;
    for (const char *s = buf; s < z; s++) {
      if (*s == '\n') line++, col = 1;
      else col++;
    }
    ast_loc loc = {path, line, col};
    diag_error(&loc, NULL, "unexpected NUL byte (is this a binary file?)");
    free(buf);
    return NULL;
  }
  ast_program *p = parse_string(path, buf);
  free(buf);
  return p;
}
