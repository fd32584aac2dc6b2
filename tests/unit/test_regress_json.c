/* covers: docs/regress.md "Outputs" */
/*
 * test_regress_json.c: table-driven tests of the JSON reader of `tcpa
 * regress` (regress/regress_json.c, docs/regress.md): numbers keep their
 * exact 64-bit integer beside the double (2^53+1, 2^63-1, 2^64-1, -2^63,
 * the flags saying which of int64_t and uint64_t they fit), the strict
 * RFC 8259 number grammar (leading zeros, '+', '.5', '1.', hex, NaN,
 * Infinity refused, with the byte offset of the error), the accessors,
 * and a summary.json read back by regress_report_load with its seeds
 * exact.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "regress_json.h"
#include "regress_report.h"
#include "test.h"

/* A number that must parse: its exact forms and double. */
typedef struct {
  const char *text;
  unsigned exact; /* REGRESS_JSON_I64 | REGRESS_JSON_U64 */
  int64_t i64;
  uint64_t u64;
  double num;
} num_case;

static const num_case good[] = {
    {"0", 3, 0, 0, 0},
    {"-0", 3, 0, 0, -0.0},
    {"7", 3, 7, 7, 7},
    {"-12", 1, -12, 0, -12},
    {"9007199254740992", 3, 9007199254740992LL, 9007199254740992ULL, 9007199254740992.0},
    {"9007199254740993", 3, 9007199254740993LL, 9007199254740993ULL, 9007199254740992.0}, /* 2^53+1 */
    {"9223372036854775807", 3, INT64_MAX, 9223372036854775807ULL, 9223372036854775808.0}, /* 2^63-1 */
    {"9223372036854775808", 2, 0, 9223372036854775808ULL, 9223372036854775808.0},        /* 2^63 */
    {"18446744073709551615", 2, 0, UINT64_MAX, 18446744073709551616.0},                  /* 2^64-1 */
    {"18446744073709551616", 0, 0, 0, 18446744073709551616.0},                           /* 2^64 */
    {"-9223372036854775808", 1, INT64_MIN, 0, -9223372036854775808.0},                   /* -2^63 */
    {"-9223372036854775809", 0, 0, 0, -9223372036854775808.0},
    {"99999999999999999999999", 0, 0, 0, 1e23},
    {"1.5", 0, 0, 0, 1.5},
    {"-0.25", 0, 0, 0, -0.25},
    {"1e3", 0, 0, 0, 1000},
    {"1E+2", 0, 0, 0, 100},
    {"2.5e-1", 0, 0, 0, 0.25},
    {"0.0", 0, 0, 0, 0},
    {"1e-400", 0, 0, 0, 0},
};

/* A text that must be refused, with the error and its byte offset. */
typedef struct {
  const char *text, *error;
} bad_case;

static const bad_case bad[] = {
    {"01", "leading zero in a number at byte 0"},
    {"-01", "leading zero in a number at byte 1"},
    {"00", "leading zero in a number at byte 0"},
    {"+1", "expected a value at byte 0"},
    {".5", "expected a value at byte 0"},
    {"-.5", "expected a digit after '-' at byte 1"},
    {"1.", "expected a digit after '.' in a number at byte 2"},
    {"1.e5", "expected a digit after '.' in a number at byte 2"},
    {"1e", "expected a digit in the exponent of a number at byte 2"},
    {"1e+", "expected a digit in the exponent of a number at byte 3"},
    {"0x10", "malformed number at byte 1"},
    {"0X1F", "malformed number at byte 1"},
    {"NaN", "expected a value at byte 0"},
    {"nan", "expected a value at byte 0"},
    {"Infinity", "expected a value at byte 0"},
    {"-Infinity", "expected a digit after '-' at byte 1"},
    {"inf", "expected a value at byte 0"},
    {"1e400", "number out of range at byte 0"},
    {"-1e400", "number out of range at byte 0"},
    {"1.5.2", "malformed number at byte 3"},
    {"12a", "malformed number at byte 2"},
    {"1-2", "malformed number at byte 1"},
    {"--1", "expected a digit after '-' at byte 1"},
    {"-", "expected a digit after '-' at byte 1"},
    {"[1, 02]", "leading zero in a number at byte 4"},
    {"{\"seed\": +5}", "expected a value at byte 9"},
    {"{\"seed\": 0x5}", "malformed number at byte 10"},
    {"", "expected a value at byte 0"},
};

/* Checks one good number, alone and as a member of an object. */
static void test_good(const num_case *c) {
  char msg[256] = "", text[256];
  regress_json *j = regress_json_parse(c->text, msg, sizeof msg);
  if (!TEST_CHECK(j && j->type == REGRESS_JSON_NUM, "number %s parses (%s)", c->text, msg)) {
    regress_json_free(j);
    return;
  }
  TEST_CHECK(j->exact == c->exact, "number %s: exact flags %u (want %u)", c->text, j->exact, c->exact);
  if (c->exact & REGRESS_JSON_I64)
    TEST_CHECK(j->i64 == c->i64, "number %s: int64 %" PRId64 " (want %" PRId64 ")", c->text, j->i64, c->i64);
  if (c->exact & REGRESS_JSON_U64)
    TEST_CHECK(j->u64 == c->u64, "number %s: uint64 %" PRIu64 " (want %" PRIu64 ")", c->text, j->u64, c->u64);
  TEST_CHECK(j->num == c->num, "number %s: double %.17g (want %.17g)", c->text, j->num, c->num);
  regress_json_free(j);
  snprintf(text, sizeof text, "{\"a\": true, \"n\": %s}", c->text);
  j = regress_json_parse(text, msg, sizeof msg);
  uint64_t u = 12345;
  int got = regress_json_u64(j, "n", &u);
  int want = c->exact & REGRESS_JSON_U64 ? 0 : -1;
  TEST_CHECK(j && got == want && (want ? u == 12345 : u == c->u64), "regress_json_u64 of %s: %d, %" PRIu64,
             c->text, got, u);
  int64_t i = regress_json_i64(j, "n", -77);
  TEST_CHECK(i == (c->exact & REGRESS_JSON_I64 ? c->i64 : -77), "regress_json_i64 of %s: %" PRId64, c->text, i);
  regress_json_free(j);
}

/* Checks that a text is refused with the expected message. */
static void test_bad(const bad_case *c) {
  char msg[256] = "";
  regress_json *j = regress_json_parse(c->text, msg, sizeof msg);
  TEST_CHECK(!j && !strcmp(msg, c->error), "'%s' refused: '%s' (want '%s')", c->text, msg, c->error);
  regress_json_free(j);
}

/* Checks the accessors on members that are absent or of another type. */
static void test_accessors(void) {
  char msg[256];
  regress_json *j = regress_json_parse("{\"s\": \"x\", \"f\": 2.5, \"b\": true, \"z\": null, \"e\": 1e2}", msg,
                                       sizeof msg);
  uint64_t u = 9;
  TEST_CHECK(j && regress_json_u64(j, "s", &u) == -1 && regress_json_u64(j, "f", &u) == -1 &&
                 regress_json_u64(j, "b", &u) == -1 && regress_json_u64(j, "z", &u) == -1 &&
                 regress_json_u64(j, "e", &u) == -1 && regress_json_u64(j, "none", &u) == -1 && u == 9,
             "regress_json_u64 refuses a string, a fraction, a bool, null, an exponent, an absent key");
  TEST_CHECK(regress_json_i64(j, "f", -1) == -1 && regress_json_i64(j, "z", -1) == -1 &&
                 regress_json_i64(NULL, "f", 4) == 4,
             "regress_json_i64 gives the default for a fraction, null and no object");
  TEST_CHECK(regress_json_num(j, "f", 0) == 2.5 && regress_json_num(j, "e", 0) == 100,
             "regress_json_num keeps the doubles");
  regress_json_free(j);
}

/* Writes a minimal summary.json of tcpa regress with three runs seeded
 * 2^53+1, 2^63-1 and 2^64-1, reads it back, and checks the seeds. */
static void test_report_seeds(void) {
  static const char *const seeds[] = {"9007199254740993", "9223372036854775807", "18446744073709551615"};
  static const uint64_t want[] = {9007199254740993ULL, 9223372036854775807ULL, 18446744073709551615ULL};
  char path[] = "/tmp/test_regress_json.XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!TEST_CHECK(f != NULL, "temporary summary.json")) return;
  fputs("{\"tool\": \"tcpa regress\", \"runs\": [", f);
  for (int i = 0; i < 3; i++)
    fprintf(f, "%s{\"id\": \"r%d\", \"suite\": \"s\", \"program\": \"p.pla\", \"name\": \"p\", \"params\": \"\", "
               "\"pes\": \"1x1\", \"arch\": \"a.ini\", \"engine\": \"model\", \"seed\": %s, \"cycles\": "
               "9007199254740993, \"exit\": 1, \"ok\": false}",
            i ? ", " : "", i, seeds[i]);
  fputs("]}\n", f);
  fclose(f);
  regress_list l = {0};
  int rc = regress_report_load(path, &l);
  TEST_CHECK(rc == 0 && l.n == 3, "summary.json with 64-bit seeds loads (%zu runs)", l.n);
  for (size_t i = 0; rc == 0 && i < l.n && i < 3; i++)
    TEST_CHECK(l.v[i].seed == want[i], "seed %s read back exactly: %" PRIu64, seeds[i], l.v[i].seed);
  TEST_CHECK(rc == 0 && l.n > 0 && l.v[0].cycles == 9007199254740993LL && l.v[0].exit_code == 1,
             "counters read back exactly (cycles 2^53+1, exit 1)");
  regress_list_free(&l);
  /* a seed that is not an exact uint64 is refused, not rounded */
  static const char *const refused[] = {"18446744073709551616", "-1", "1.5", "\"7\""};
  for (int i = 0; i < 4; i++) {
    f = fopen(path, "w");
    fprintf(f, "{\"tool\": \"tcpa regress\", \"runs\": [{\"id\": \"r\", \"suite\": \"s\", \"program\": \"p\", "
               "\"name\": \"p\", \"params\": \"\", \"pes\": \"1x1\", \"arch\": \"a\", \"engine\": \"ref\", "
               "\"seed\": %s}]}",
            refused[i]);
    fclose(f);
    regress_list m = {0};
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 2); /* the error message is expected */
    int st = regress_report_load(path, &m);
    fflush(stderr);
    if (saved >= 0) dup2(saved, 2);
    if (saved >= 0) close(saved);
    if (null >= 0) close(null);
    TEST_CHECK(st == -1, "summary.json with seed %s refused", refused[i]);
    regress_list_free(&m);
  }
  remove(path);
}

int main(void) {
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) test_good(&good[i]);
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) test_bad(&bad[i]);
  test_accessors();
  test_report_seeds();
  return test_done();
}
