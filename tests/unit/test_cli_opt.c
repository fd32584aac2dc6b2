/* covers: docs/user-guide.md "Options, --help and --version" */
/*
 * test_cli_opt.c: the option parser of cli/cli_opt.h on a table of
 * command lines, each parsed to the end or to the first error and written
 * as a trace ("P(prog) --seed(7) ERR(--map)"): positional arguments in
 * order, `--opt=V` and `--opt V`, attached short values, abbreviations,
 * `--`, "-" as an argument, unknown options, missing values, a value given
 * to a flag, ambiguity; each parse also leaves argv as it was (not
 * permuted), and the parses run one after another in one process (getopt's
 * state reset). Then cli_opt_int_text on a table of texts and ranges.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opt.h"
#include "test.h"

enum { OPT_SEED = CLI_OPT_LONG, OPT_MAP, OPT_MASK, OPT_DOT };

static const struct option test_longopts[] = {{"help", no_argument, NULL, 'h'},
                                              {"seed", required_argument, NULL, OPT_SEED},
                                              {"map", required_argument, NULL, OPT_MAP},
                                              {"mask", no_argument, NULL, OPT_MASK},
                                              {"dot", no_argument, NULL, OPT_DOT},
                                              {NULL, 0, NULL, 0}};

/* Returns the trace of parsing the space-separated words of line (after a
 * command name) into buf; sets *same when argv is unchanged afterwards. */
static const char *test_trace(const char *line, char *buf, size_t size, int *same) {
  char copy[256], *argv[32], *orig[32];
  int argc = 0;
  snprintf(copy, sizeof copy, "%s", line);
  argv[argc++] = "cmd";
  for (char *w = strtok(copy, " "); w && argc < 31; w = strtok(NULL, " ")) argv[argc++] = w;
  argv[argc] = NULL;
  memcpy(orig, argv, sizeof argv);
  cli_opt p;
  cli_opt_init(&p, "cmd", argc, argv, "ho:", test_longopts);
  size_t n = 0;
  buf[0] = '\0';
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END && n < size;) {
    const char *sep = n ? " " : "";
    if (c == CLI_OPT_ARG) n += (size_t)snprintf(buf + n, size - n, "%sP(%s)", sep, p.arg);
    else if (c == CLI_OPT_ERROR) {
      n += (size_t)snprintf(buf + n, size - n, "%sERR(%s)", sep, p.name);
      break;
    } else n += (size_t)snprintf(buf + n, size - n, "%s%s(%s)", sep, p.name, p.arg ? p.arg : "");
  }
  *same = !memcmp(orig, argv, sizeof argv);
  return buf;
}

static void test_parse_table(void) {
  static const struct { const char *line, *want; } cases[] = {
      {"prog --seed 7", "P(prog) --seed(7)"},
      {"--seed=7 prog", "--seed(7) P(prog)"},
      {"a --dot b", "P(a) --dot() P(b)"},
      {"prog --seed", "P(prog) ERR(--seed)"},
      {"--se=3", "--seed(3)"},
      {"--se 3", "--seed(3)"},
      {"--seed -3", "--seed(-3)"},
      {"--seed= x", "--seed() P(x)"},
      {"--frob x", "ERR(--frob)"},
      {"--frob=1", "ERR(--frob)"},
      {"--dot=1", "ERR(--dot)"},
      {"--ma=1", "ERR(--ma)"},
      {"--map", "ERR(--map)"},
      {"--mas", "--mask()"},
      {"-oX -o Y", "-o(X) -o(Y)"},
      {"-o", "ERR(-o)"},
      {"-Z", "ERR(-Z)"},
      {"-hZ", "-h() ERR(-Z)"},
      {"-ho", "-h() ERR(-o)"},
      {"-hoX", "-h() -o(X)"},
      {"-- --dot -x", "P(--dot) P(-x)"},
      {"a -- b", "P(a) P(b)"},
      {"a - b", "P(a) P(-) P(b)"},
      {"", ""},
      {"--help x", "--help() P(x)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char buf[256];
    int same = 0;
    const char *got = test_trace(cases[i].line, buf, sizeof buf, &same);
    TEST_CHECK(!strcmp(got, cases[i].want), "'%s' parses to '%s' (got '%s')", cases[i].line, cases[i].want, got);
    TEST_CHECK(same, "'%s' leaves argv in its order", cases[i].line);
  }
}

static void test_int_table(void) {
  static const struct { const char *s; int64_t lo, hi; int ok; int64_t v; } cases[] = {
      {"12", 0, 100, 1, 12},       {"0", 0, 100, 1, 0},         {"+7", 0, 100, 1, 7},
      {"-5", -10, 10, 1, -5},      {"0x1f", 0, 100, 1, 31},     {"0XFF", 0, 255, 1, 255},
      {"-0x10", -16, 0, 1, -16},   {"100", 0, 100, 1, 100},     {"101", 0, 100, 0, 0},
      {"-1", 0, 100, 0, 0},        {"010", 0, 100, 0, 0},       {"0x", 0, 100, 0, 0},
      {"", 0, 100, 0, 0},          {" 5", 0, 100, 0, 0},        {"5 ", 0, 100, 0, 0},
      {"5x", 0, 100, 0, 0},        {"x5", 0, 100, 0, 0},        {"--5", -10, 10, 0, 0},
      {"9223372036854775807", 0, INT64_MAX, 1, INT64_MAX},
      {"9223372036854775808", 0, INT64_MAX, 0, 0},
      {"0xffffffff", 1, 0xffffffff, 1, 0xffffffff},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int64_t v = -12345;
    int rc = cli_opt_int_text(cases[i].s, cases[i].lo, cases[i].hi, &v);
    if (cases[i].ok)
      TEST_CHECK(rc == 0 && v == cases[i].v, "'%s' in [%lld, %lld] is %lld", cases[i].s, (long long)cases[i].lo,
                 (long long)cases[i].hi, (long long)cases[i].v);
    else
      TEST_CHECK(rc == -1 && v == -12345, "'%s' in [%lld, %lld] is refused, *v untouched", cases[i].s,
                 (long long)cases[i].lo, (long long)cases[i].hi);
  }
}

int main(void) {
  test_parse_table();
  test_int_table();
  return test_done();
}
