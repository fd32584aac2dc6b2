/* covers: docs/language.md "Lexical rules" */
/*
 * test_lex.c: table-driven tests of the lexer (lex.h): token kinds and
 * spellings, positions, comments, literal values and their 32-bit limits,
 * longest-match operators, and the errors for bad input (message checked
 * through a capture of stderr).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "lex.h"
#include "test.h"

/* Runs the lexer on `src` with stderr captured into `err` (size bytes);
 * returns the tokens (NULL on error) and their count in *n. */
static lex_token *lex_capture(const char *src, int *n, char *err, size_t size) {
  fflush(stderr);
  FILE *tmp = tmpfile();
  int saved = dup(2);
  dup2(fileno(tmp), 2);
  lex_token *t = lex_tokenize("t.pla", src, n);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t got = fread(err, 1, size - 1, tmp);
  err[got] = 0;
  fclose(tmp);
  return t;
}

typedef struct {
  const char *src;
  const char *kinds; /* one letter per token: see kind_letter() */
} lex_case;

/* Returns a letter for a token kind: i identifier, n integer, k keyword,
 * the spelling's first char for punctuation, E end of file. */
static char kind_letter(const lex_token *t) {
  if (t->kind == LEX_EOF) return 'E';
  if (t->kind == LEX_IDENT) return 'i';
  if (t->kind == LEX_INT) return 'n';
  if (t->kind >= LEX_KW_PROGRAM && t->kind <= LEX_KW_OR) return 'k';
  return t->text[0];
}

static void test_kinds(void) {
  static const lex_case cases[] = {
      {"program p(N)", "ki(i)E"},
      {"a>>>b >> c >= d > e", "i>i>i>i>iE"},
      {"x // comment\n y # other\n z", "iiiE"},
      {"x /* block \n over lines */ y", "iiE"},
      {"a?b:c", "i?i:iE"},
      {"in out int32 par if and or", "kkkkkkkE"},
      {"inx outy _a1 A_b", "iiiiE"},
      {"0x1F 42 0", "nnnE"},
      {"a!=b==c<=d<<e", "i!i=i<i<iE"},
      {"", "E"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int n;
    char err[512];
    lex_token *t = lex_capture(cases[c].src, &n, err, sizeof err);
    char got[64] = "";
    for (int i = 0; t && i < n && i < 63; i++) got[i] = kind_letter(&t[i]);
    TEST_CHECK(t && !strcmp(got, cases[c].kinds), "lex kinds of case %zu: got %s want %s", c, got,
               cases[c].kinds);
    free(t);
  }
}

static void test_kinds_exact(void) {
  int n;
  char err[512];
  lex_token *t = lex_capture("a >>> b >> c > d", &n, err, sizeof err);
  TEST_CHECK(t && n == 8 && t[1].kind == LEX_SHRU && t[3].kind == LEX_SHR && t[5].kind == LEX_GT,
             "longest match: >>> then >> then >");
  free(t);
  t = lex_capture("x != y == z", &n, err, sizeof err);
  TEST_CHECK(t && t[1].kind == LEX_NE && t[3].kind == LEX_EQ, "!= and == are single tokens");
  free(t);
  t = lex_capture("par if and or program", &n, err, sizeof err);
  TEST_CHECK(t && t[0].kind == LEX_KW_PAR && t[1].kind == LEX_KW_IF && t[2].kind == LEX_KW_AND &&
                 t[3].kind == LEX_KW_OR && t[4].kind == LEX_KW_PROGRAM,
             "keywords recognised");
  free(t);
}

static void test_positions(void) {
  int n;
  char err[512];
  lex_token *t = lex_capture("ab\n  /* c\n */ cd # x\n\tef", &n, err, sizeof err);
  TEST_CHECK(t && n == 4, "position test: 3 tokens and EOF");
  if (t && n == 4) {
    TEST_CHECK(t[0].loc.line == 1 && t[0].loc.col == 1, "ab at 1:1 (got %d:%d)", t[0].loc.line, t[0].loc.col);
    TEST_CHECK(t[1].loc.line == 3 && t[1].loc.col == 5, "cd at 3:5 (got %d:%d)", t[1].loc.line, t[1].loc.col);
    TEST_CHECK(t[2].loc.line == 4 && t[2].loc.col == 2, "ef at 4:2 (got %d:%d)", t[2].loc.line, t[2].loc.col);
    TEST_CHECK(t[1].len == 2 && !strncmp(t[1].text, "cd", 2), "spelling of cd");
    TEST_CHECK(!strcmp(t[0].loc.file, "t.pla"), "file name kept");
  }
  free(t);
}

typedef struct {
  const char *src;
  uint32_t value;
} lex_value_case;

static void test_values(void) {
  static const lex_value_case cases[] = {
      {"0", 0},
      {"42", 42},
      {"0x1f", 31},
      {"0XFF", 255},
      {"2147483647", 2147483647u},
      {"2147483648", 2147483648u},
      {"4294967295", 4294967295u},
      {"0xFFFFFFFF", 4294967295u},
      {"00012", 12},
      {"0x00000000FFFFFFFF", 4294967295u},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int n;
    char err[512];
    lex_token *t = lex_capture(cases[c].src, &n, err, sizeof err);
    TEST_CHECK(t && n == 2 && t[0].kind == LEX_INT && t[0].value == cases[c].value, "value of %s is %u",
               cases[c].src, (unsigned)cases[c].value);
    free(t);
  }
}

typedef struct {
  const char *src;
  const char *err; /* substring of the message */
} lex_error_case;

static void test_errors(void) {
  static const lex_error_case cases[] = {
      {"4294967296", "1:1: error: integer literal '4294967296' does not fit in 32 bits"},
      {"0x100000000", "does not fit in 32 bits"},
      {"99999999999999999999999999", "does not fit in 32 bits"},
      {"a\n  /* never closed", "2:3: error: unterminated comment"},
      {"a @ b", "1:3: error: unexpected character '@'"},
      {"a \x01 b", "unexpected byte 0x01"},
      {"x \xff", "unexpected byte 0xFF"},
      {"12ab", "malformed integer literal '12ab'"},
      {"0x", "malformed integer literal '0x'"},
      {"0xg1", "malformed integer literal '0xg1'"},
      {"a $", "unexpected character '$'"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int n;
    char err[1024];
    lex_token *t = lex_capture(cases[c].src, &n, err, sizeof err);
    TEST_CHECK(!t && strstr(err, cases[c].err), "lex error case %zu: want '%s'", c, cases[c].err);
    if (!strstr(err, cases[c].err)) printf("#   got: %s", err);
    free(t);
  }
}

int main(void) {
  test_kinds();
  test_kinds_exact();
  test_positions();
  test_values();
  test_errors();
  return test_done();
}
