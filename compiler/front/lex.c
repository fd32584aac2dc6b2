/*
 * lex.c: splits a .pla source text into tokens (lex.h).
 *
 * One pass over the text, keeping line and column; white space and the
 * three kinds of comments are skipped between tokens. Operators are matched
 * longest first (`>>>` before `>>` before `>=` before `>`). The token array
 * grows by doubling. The first lexical error is printed and ends the scan.
 */
#include "lex.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

typedef struct {
  const char *file;
  const char *src;
  const char *p; /* current position */
  int line, col;
  lex_token *tok;
  int n, cap;
} lex_state;

static const struct {
  const char *text;
  lex_kind kind;
} lex_keywords[] = {
    {"program", LEX_KW_PROGRAM}, {"in", LEX_KW_IN},   {"out", LEX_KW_OUT},
    {"int32", LEX_KW_INT32},     {"par", LEX_KW_PAR}, {"if", LEX_KW_IF},
    {"and", LEX_KW_AND},         {"or", LEX_KW_OR},
};

/* Operators and punctuation, longest spellings first. */
static const struct {
  const char *text;
  lex_kind kind;
} lex_ops[] = {
    {">>>", LEX_SHRU}, {"<<", LEX_SHL},    {">>", LEX_SHR},     {"<=", LEX_LE},
    {">=", LEX_GE},    {"==", LEX_EQ},     {"!=", LEX_NE},      {"(", LEX_LPAREN},
    {")", LEX_RPAREN}, {"[", LEX_LBRACKET}, {"]", LEX_RBRACKET}, {"{", LEX_LBRACE},
    {"}", LEX_RBRACE}, {",", LEX_COMMA},   {";", LEX_SEMI},     {"=", LEX_ASSIGN},
    {"?", LEX_QUESTION}, {":", LEX_COLON}, {"+", LEX_PLUS},     {"-", LEX_MINUS},
    {"*", LEX_STAR},   {"/", LEX_SLASH},   {"%", LEX_PERCENT},  {"~", LEX_TILDE},
    {"!", LEX_BANG},   {"&", LEX_AMP},     {"^", LEX_CARET},    {"|", LEX_PIPE},
    {"<", LEX_LT},     {">", LEX_GT},
};

#define LEX_COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))

const char *lex_kind_name(lex_kind k) {
  switch (k) {
  case LEX_EOF: return "end of file";
  case LEX_IDENT: return "identifier";
  case LEX_INT: return "integer literal";
  default: break;
  }
  for (int i = 0; i < LEX_COUNT(lex_keywords); i++)
    if (lex_keywords[i].kind == k) return lex_keywords[i].text;
  for (int i = 0; i < LEX_COUNT(lex_ops); i++)
    if (lex_ops[i].kind == k) return lex_ops[i].text;
  return "?";
}

/* Returns the current location of the scanner. */
static ast_loc lex_here(const lex_state *s) {
  ast_loc l = {s->file, s->line, s->col};
  return l;
}

/* Moves the scanner `n` characters ahead, counting lines and columns. */
static void lex_advance(lex_state *s, int n) {
  for (int i = 0; i < n && *s->p; i++, s->p++) {
    if (*s->p == '\n') {
      s->line++;
      s->col = 1;
    } else {
      s->col++;
    }
  }
}

/* Skips white space and comments; returns 0, or -1 after printing an error
 * for an unterminated block comment. */
static int lex_skip_space(lex_state *s) {
  for (;;) {
    char c = *s->p;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      lex_advance(s, 1);
    } else if (c == '#' || (c == '/' && s->p[1] == '/')) {
      while (*s->p && *s->p != '\n') lex_advance(s, 1);
    } else if (c == '/' && s->p[1] == '*') {
      ast_loc start = lex_here(s);
      lex_advance(s, 2);
      while (*s->p && !(s->p[0] == '*' && s->p[1] == '/')) lex_advance(s, 1);
      if (!*s->p) {
        diag_error(&start, s->src, "unterminated comment: '/*' has no matching '*/'");
        return -1;
      }
      lex_advance(s, 2);
    } else {
      return 0;
    }
  }
}

/* Appends a token; returns it, or NULL when memory runs out. */
static lex_token *lex_push(lex_state *s, lex_kind kind, int len) {
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 64;
    lex_token *t = realloc(s->tok, (size_t)cap * sizeof *t);
    if (!t) return NULL;
    s->tok = t;
    s->cap = cap;
  }
  lex_token *t = &s->tok[s->n++];
  memset(t, 0, sizeof *t);
  t->kind = kind;
  t->loc = lex_here(s);
  t->text = s->p;
  t->len = len;
  return t;
}

/* Scans an integer literal at the current position; returns 0, or -1 after
 * printing an error (bad digits, value beyond 32 bits). */
static int lex_number(lex_state *s) {
  const char *p = s->p;
  int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
  const char *d = hex ? p + 2 : p;
  uint64_t v = 0;
  int big = 0, ndig = 0;
  for (; hex ? isxdigit((unsigned char)*d) : isdigit((unsigned char)*d); d++, ndig++) {
    int digit = isdigit((unsigned char)*d) ? *d - '0' : tolower((unsigned char)*d) - 'a' + 10;
    v = v * (hex ? 16 : 10) + (uint64_t)digit;
    if (v > 0xFFFFFFFFull) {
      big = 1;
      v = 0xFFFFFFFFull + 1;
    }
  }
  const char *end = d;
  while (isalnum((unsigned char)*end) || *end == '_') end++;
  int len = (int)(end - p);
  ast_loc here = lex_here(s);
  if ((hex && ndig == 0) || end != d) {
    diag_error(&here, s->src, "malformed integer literal '%.*s'", len > 40 ? 40 : len, p);
    return -1;
  }
  if (big) {
    diag_error(&here, s->src,
               "integer literal '%.*s' does not fit in 32 bits (at most 4294967295 or 0xFFFFFFFF)",
               len > 40 ? 40 : len, p);
    return -1;
  }
  lex_token *t = lex_push(s, LEX_INT, len);
  if (!t) return -1;
  t->value = (uint32_t)v;
  lex_advance(s, len);
  return 0;
}

/* Scans an identifier or keyword; returns 0, or -1 when memory runs out. */
static int lex_word(lex_state *s) {
  int len = 0;
  while (isalnum((unsigned char)s->p[len]) || s->p[len] == '_') len++;
  lex_kind kind = LEX_IDENT;
  for (int i = 0; i < LEX_COUNT(lex_keywords); i++)
    if ((int)strlen(lex_keywords[i].text) == len && !strncmp(lex_keywords[i].text, s->p, (size_t)len))
      kind = lex_keywords[i].kind;
  if (!lex_push(s, kind, len)) return -1;
  lex_advance(s, len);
  return 0;
}

/* Scans an operator or punctuation; returns 0, or -1 after printing an
 * error for a character that starts no token. */
static int lex_operator(lex_state *s) {
  for (int i = 0; i < LEX_COUNT(lex_ops); i++) {
    int len = (int)strlen(lex_ops[i].text);
    if (!strncmp(lex_ops[i].text, s->p, (size_t)len)) {
      if (!lex_push(s, lex_ops[i].kind, len)) return -1;
      lex_advance(s, len);
      return 0;
    }
  }
  ast_loc here = lex_here(s);
  unsigned char c = (unsigned char)*s->p;
  if (isprint(c))
    diag_error(&here, s->src, "unexpected character '%c'", c);
  else
    diag_error(&here, s->src, "unexpected byte 0x%02X (not part of the language)", c);
  return -1;
}

lex_token *lex_tokenize(const char *file, const char *source, int *ntokens) {
  lex_state s = {file, source, source, 1, 1, NULL, 0, 0};
  for (;;) {
    if (lex_skip_space(&s)) goto error;
    char c = *s.p;
    int r;
    if (!c) break;
    if (isdigit((unsigned char)c))
      r = lex_number(&s);
    else if (isalpha((unsigned char)c) || c == '_')
      r = lex_word(&s);
    else
      r = lex_operator(&s);
    if (r) goto error;
  }
  if (!lex_push(&s, LEX_EOF, 0)) goto error;
  *ntokens = s.n;
  return s.tok;
error:
  free(s.tok);
  *ntokens = 0;
  return NULL;
}
