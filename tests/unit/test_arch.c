/* covers: docs/arch.md "Format", "Keys", "Errors", "Fingerprint" */
/*
 * test_arch.c: unit tests of the architecture configurations (arch.h).
 *
 * Table-driven: each case is an INI text, written to a temporary file and
 * loaded; the table says whether it loads, how many errors it reports, a
 * piece of the first message (with its line and column), and the values of
 * a few fields afterwards. Further tables check that the fingerprint stays
 * the same across spellings and changes with every single key, and that
 * the INI dump and the SystemVerilog package carry every value.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "diag.h"
#include "test.h"

#define F(field, v) {offsetof(arch_config, field), v, #field}

typedef struct {
  size_t off;
  int want;
  const char *name;
} field_check;

typedef struct {
  const char *name, *text;
  int ok;            /* arch_config_load returns 0 */
  int errors;        /* errors it prints */
  const char *msg;   /* a piece of stderr, e.g. ":3:1: error: unknown key" */
  field_check vals[4];
  int nvals;
} load_case;

static const load_case load_cases[] = {
    {"empty file gives the defaults", "", 1, 0, NULL,
     {F(rows, 4), F(alu, 2), F(lat_div, 8), F(bank_depth, 1024)}, 4},
    {"missing keys take defaults", "[array]\nrows = 1\ncols = 8\n", 1, 0, NULL,
     {F(rows, 1), F(cols, 8), F(alu, 2), F(fd_depth, 32)}, 4},
    {"comments and inline comments", "# top\n; top\n[pe] ; pe\nalu = 3 ; three\nmul = 2 # two\n",
     1, 0, NULL, {F(alu, 3), F(mul, 2)}, 2},
    {"colon, spaces, CRLF", "[ latency ]\r\n   div : 12\r\n\tmul=5\r\n", 1, 0, NULL,
     {F(lat_div, 12), F(lat_mul, 5), F(lat_alu, 1)}, 3},
    {"UTF-8 BOM", "\xEF\xBB\xBF[gc]\ndims = 2\n", 1, 0, NULL, {F(gc_dims, 2)}, 1},
    {"a section may be opened twice", "[pe]\nalu = 4\n[gc]\nsignals = 3\n[pe]\nrd = 7\n", 1, 0,
     NULL, {F(alu, 4), F(rd, 7), F(gc_signals, 3)}, 3},
    {"plus sign and upper bounds",
     "[array]\nrows = +64\n[pe]\nalu = 8\nbranch_targets = 4\n[iobuf]\ndepth = 1048576\n", 1, 0,
     NULL, {F(rows, 64), F(alu, 8), F(branch_targets, 4), F(bank_depth, 1048576)}, 4},
    {"lower bounds", "[pe]\nalu = 1\nmul = 0\nrd = 0\nbranch_targets = 2\n", 1, 0, NULL,
     {F(alu, 1), F(mul, 0), F(rd, 0), F(branch_targets, 2)}, 4},
    {"no newline at the end", "[interconnect]\nports = 16", 1, 0, NULL, {F(ports, 16)}, 1},

    {"unknown section", "[array]\n[memory]\nsize = 1\n", 0, 1,
     ":2:2: error: unknown section '[memory]' (known sections: array, pe,", {{0}}, 0},
    {"unknown key", "[pe]\nalus = 3\n", 0, 1,
     ":2:1: error: unknown key 'pe.alus' (known keys of [pe]: alu, mul, div,", {{0}}, 0},
    {"suggestion for a misspelt key", "[pe]\nfifodepth = 3\n", 0, 1,
     "note: did you mean 'pe.fifo_depth'?", {{0}}, 0},
    {"key of another section", "[gc]\nbanks = 3\n", 0, 1, "note: 'banks' is a key of [iobuf]",
     {{0}}, 0},
    {"duplicate key", "[array]\nrows = 2\nrows = 2\n", 0, 1,
     ":3:1: error: duplicate key 'array.rows'", {{0}}, 0},
    {"non-integer", "[array]\nrows = 2x\n", 0, 1,
     ":2:8: error: value '2x' of 'array.rows' is not a decimal integer", {{0}}, 0},
    {"two numbers", "[array]\nrows = 2 3\n", 0, 1, "is not a decimal integer", {{0}}, 0},
    {"sign alone", "[array]\nrows = -\n", 0, 1, "is not a decimal integer", {{0}}, 0},
    {"above the range", "[gc]\ndims = 9\n", 0, 1,
     ":2:8: error: value 9 of 'gc.dims' is out of range 1..8", {{0}}, 0},
    {"below the range", "[pe]\nalu = 0\n", 0, 1, "value 0 of 'pe.alu' is out of range 1..8",
     {{0}}, 0},
    {"bank depth above 2^20", "[iobuf]\ndepth = 1048577\n", 0, 1, "out of range 1..1048576",
     {{0}}, 0},
    {"overflowing value", "[iobuf]\ndepth = 99999999999999999999\n", 0, 1, "out of range",
     {{0}}, 0},
    {"branch targets not a power of two", "[pe]\nbranch_targets = 3\n", 0, 1,
     ":2:18: error: value 3 of 'pe.branch_targets' is not a power of two >= 2", {{0}}, 0},
    {"branch targets 1", "[pe]\nbranch_targets = 1\n", 0, 1, "out of range 2..4", {{0}}, 0},
    {"missing value", "[pe]\nrd =\n", 0, 1, ":2:5: error: missing value for 'pe.rd'", {{0}}, 0},
    {"key outside any section", "rows = 2\n", 0, 1,
     ":1:1: error: key 'rows' is outside any section", {{0}}, 0},
    {"unclosed header (no cascade)", "[array]\n[pe\nalu = 2\nrows = 3\n", 0, 1,
     ":2:1: error: section header has no closing ']'", {{0}}, 0},
    {"text after a header, keys still checked", "[pe] x\nalu = 99\n", 0, 2,
     ":1:6: error: unexpected text after the section header", {{0}}, 0},
    {"line without =", "[pe]\nalu 2\n", 0, 1,
     ":2:1: error: expected 'key = value', '[section]' or a comment", {{0}}, 0},
    {"= without key", "[pe]\n = 2\n", 0, 1, ":2:2: error: missing key before '='", {{0}}, 0},
    {"empty section name", "[]\n", 0, 1, ":1:1: error: empty section name", {{0}}, 0},
    {"line too long",
     "[pe]\nalu = 2 ; "
     "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890"
     "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890"
     "0123456789012345678901234567890123456789\n",
     0, 1, ":2:1: error: line is too long", {{0}}, 0},
    {"every error is reported",
     "[array]\nrows = 0\n[pe]\nalu = x\nalu = 2\n[nope]\n[gc]\ndims = 0\njunk\n", 0, 6,
     ":2:8: error: value 0 of 'array.rows' is out of range", {{0}}, 0},
};

#define NLOAD (int)(sizeof load_cases / sizeof load_cases[0])

/* Returns a new temporary file's path holding `text` (caller frees). */
static char *write_temp(const char *text) {
  char *path = strdup("/tmp/test_arch_XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) {
    perror("mkstemp");
    exit(1);
  }
  size_t n = strlen(text);
  if (write(fd, text, n) != (ssize_t)n) {
    perror("write");
    exit(1);
  }
  close(fd);
  return path;
}

/* Returns the result of loading `text` into *cfg; what it prints on stderr
 * goes to `err` (up to `size` bytes) and the error count to *errors. */
static int load_text(const char *text, arch_config *cfg, char *err, size_t size, int *errors) {
  char *path = write_temp(text);
  FILE *cap = tmpfile();
  fflush(stderr);
  int saved = dup(2);
  dup2(fileno(cap), 2);
  diag_reset();
  int r = arch_config_load(path, cfg);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  *errors = diag_error_count();
  rewind(cap);
  size_t n = fread(err, 1, size - 1, cap);
  err[n] = '\0';
  fclose(cap);
  unlink(path);
  free(path);
  return r;
}

/* Returns the fingerprint of `text`, which must load. */
static uint64_t fingerprint_of(const char *text) {
  arch_config cfg;
  char err[4096];
  int errors;
  if (load_text(text, &cfg, err, sizeof err, &errors) != 0) {
    printf("# unexpected load failure:\n# %s", err);
    return 0;
  }
  return arch_config_fingerprint(&cfg);
}

/* Runs the load cases. */
static void test_load_cases(void) {
  for (int i = 0; i < NLOAD; i++) {
    const load_case *c = &load_cases[i];
    arch_config cfg;
    memset(&cfg, 0x5a, sizeof cfg);
    arch_config before = cfg;
    char err[8192];
    int errors;
    int r = load_text(c->text, &cfg, err, sizeof err, &errors);
    if (!TEST_CHECK((r == 0) == c->ok, "load %s: %s", c->ok ? "accepts" : "rejects", c->name))
      printf("#   stderr: %s\n", err);
    TEST_CHECK(errors == c->errors, "load %s: %d error(s) (got %d)", c->name, c->errors, errors);
    if (c->msg && !TEST_CHECK(strstr(err, c->msg) != NULL, "load %s: message '%s'", c->name, c->msg))
      printf("#   stderr: %s\n", err);
    if (!c->ok)
      TEST_CHECK(!memcmp(&cfg, &before, sizeof cfg), "load %s: leaves *cfg untouched", c->name);
    for (int v = 0; v < c->nvals; v++) {
      int got = *(const int *)((const char *)&cfg + c->vals[v].off);
      TEST_CHECK(got == c->vals[v].want, "load %s: %s = %d (got %d)", c->name, c->vals[v].name,
                 c->vals[v].want, got);
    }
  }
}

/* Every key with a valid value other than its default, in the documented
 * order of the fingerprint. */
typedef struct {
  const char *name;
  size_t off;
  int def, other;
} key_case;

#define K(n, f, d, o) {n, offsetof(arch_config, f), d, o}

static const key_case key_cases[] = {
    K("array.rows", rows, 4, 2), K("array.cols", cols, 4, 8),
    K("pe.alu", alu, 2, 3), K("pe.mul", mul, 1, 0), K("pe.div", div, 0, 1),
    K("pe.rd", rd, 4, 5), K("pe.fd", fd, 4, 6), K("pe.fd_depth", fd_depth, 32, 16),
    K("pe.id", id, 4, 3), K("pe.od", od, 4, 2), K("pe.fifo_depth", fifo_depth, 8, 9),
    K("pe.imem", imem, 32, 64), K("pe.branch_targets", branch_targets, 2, 4),
    K("latency.alu", lat_alu, 1, 2), K("latency.mul", lat_mul, 2, 3),
    K("latency.div", lat_div, 8, 7), K("interconnect.ports", ports, 4, 1),
    K("gc.signals", gc_signals, 8, 9), K("gc.dims", gc_dims, 6, 5),
    K("iobuf.banks", banks, 4, 16), K("iobuf.depth", bank_depth, 1024, 1025),
};

#define NKEYS (int)(sizeof key_cases / sizeof key_cases[0])

/* Returns the INI text setting key `k` to `value` (in a static buffer). */
static const char *key_text(const key_case *k, int value) {
  static char buf[128];
  const char *dot = strchr(k->name, '.');
  snprintf(buf, sizeof buf, "[%.*s]\n%s = %d\n", (int)(dot - k->name), k->name, dot + 1, value);
  return buf;
}

/* Checks the defaults and that each key alone changes the fingerprint. */
static void test_fingerprint_keys(void) {
  arch_config def = arch_config_default();
  uint64_t fp_def = arch_config_fingerprint(&def), fps[NKEYS];
  for (int i = 0; i < NKEYS; i++) {
    const key_case *k = &key_cases[i];
    TEST_CHECK(*(int *)((char *)&def + k->off) == k->def, "default of %s is %d", k->name, k->def);
    TEST_CHECK(fingerprint_of(key_text(k, k->def)) == fp_def,
               "fingerprint: %s spelled out at its default changes nothing", k->name);
    arch_config cfg;
    char err[4096];
    int errors;
    TEST_CHECK(load_text(key_text(k, k->other), &cfg, err, sizeof err, &errors) == 0 &&
                   *(int *)((char *)&cfg + k->off) == k->other,
               "%s = %d loads into its field", k->name, k->other);
    fps[i] = arch_config_fingerprint(&cfg);
    TEST_CHECK(fps[i] != fp_def, "fingerprint: %s = %d differs from the default", k->name,
               k->other);
  }
  int distinct = 1;
  for (int i = 0; i < NKEYS; i++)
    for (int j = 0; j < i; j++)
      if (fps[i] == fps[j]) distinct = 0;
  TEST_CHECK(distinct, "fingerprint: the %d one-key changes give %d different values", NKEYS,
             NKEYS);
}

/* Returns FNV-1a 64 of the documented canonical text of `cfg`. */
static uint64_t fnv_canonical(const arch_config *cfg) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (int i = 0; i < NKEYS; i++) {
    char line[128];
    snprintf(line, sizeof line, "%s=%d\n", key_cases[i].name,
             *(const int *)((const char *)cfg + key_cases[i].off));
    for (const char *p = line; *p; p++) {
      h ^= (unsigned char)*p;
      h *= 0x100000001b3ULL;
    }
  }
  return h;
}

typedef struct {
  const char *name, *a, *b;
  int same;
} fp_case;

static const fp_case fp_cases[] = {
    {"order and comments", "[array]\nrows = 2\n[pe]\nalu = 3\n",
     "; c\n[pe]\nalu=3 ; three\n\n[array]\n# c\nrows: 2\n", 1},
    {"leading zeros", "[pe]\nimem = 64\n", "[pe]\nimem = 0064\n", 1},
    {"swapped values", "[array]\nrows = 2\ncols = 3\n", "[array]\nrows = 3\ncols = 2\n", 0},
    {"same value, other key", "[latency]\nalu = 3\n", "[latency]\nmul = 3\n", 0},
};

/* Checks the fingerprint against its definition and the pair table. */
static void test_fingerprint_pairs(void) {
  arch_config def = arch_config_default(), cfg = def;
  TEST_CHECK(arch_config_fingerprint(&def) == fnv_canonical(&def),
             "fingerprint of the defaults is FNV-1a 64 of the canonical text");
  cfg.imem = 4096;
  cfg.rows = 1;
  TEST_CHECK(arch_config_fingerprint(&cfg) == fnv_canonical(&cfg),
             "fingerprint of a changed configuration is FNV-1a 64 of the canonical text");
  for (size_t i = 0; i < sizeof fp_cases / sizeof fp_cases[0]; i++) {
    const fp_case *c = &fp_cases[i];
    uint64_t a = fingerprint_of(c->a), b = fingerprint_of(c->b);
    TEST_CHECK(a && b && (a == b) == c->same, "fingerprint %s: %s", c->same ? "equal" : "differs",
               c->name);
  }
}

/* Returns what `write` prints for `cfg`, in a malloc'ed string. */
static char *capture(void (*write)(const arch_config *, FILE *), const arch_config *cfg) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  write(cfg, f);
  fclose(f);
  return buf;
}

/* Checks that the dump reloads to the same configuration and that the
 * package carries every value. */
static void test_dump_and_sv(void) {
  arch_config cfg = arch_config_default();
  for (int i = 0; i < NKEYS; i += 2) *(int *)((char *)&cfg + key_cases[i].off) = key_cases[i].other;
  char *ini = capture(arch_config_write_ini, &cfg);
  arch_config back;
  char err[4096];
  int errors;
  TEST_CHECK(load_text(ini, &back, err, sizeof err, &errors) == 0 &&
                 !memcmp(&back, &cfg, sizeof cfg) &&
                 arch_config_fingerprint(&back) == arch_config_fingerprint(&cfg),
             "dump: the INI dump reloads to the same configuration and fingerprint");
  free(ini);

  char *sv = capture(arch_config_write_sv, &cfg);
  TEST_CHECK(strstr(sv, "package tcpa_params_pkg;") && strstr(sv, "endpackage") &&
                 strstr(sv, "GENERATED"),
             "sv: a generated package tcpa_params_pkg");
  int all = 1;
  for (int i = 0; i < NKEYS; i++) {
    char name[64], want[128];
    snprintf(name, sizeof name, "%s", key_cases[i].name);
    for (char *p = name; *p; p++) *p = *p == '.' ? '_' : (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
    snprintf(want, sizeof want, "localparam int unsigned %s ", name);
    const char *at = strstr(sv, want);
    int v = -1;
    if (at) sscanf(strchr(at, '=') + 1, "%d", &v);
    if (v != *(int *)((char *)&cfg + key_cases[i].off)) {
      printf("#   %s: got %d\n", name, v);
      all = 0;
    }
  }
  TEST_CHECK(all, "sv: every key is a localparam with its value");
  char fp[64];
  snprintf(fp, sizeof fp, "ARCH_FINGERPRINT = 64'h%016llx;",
           (unsigned long long)arch_config_fingerprint(&cfg));
  TEST_CHECK(strstr(sv, fp) != NULL, "sv: the fingerprint is a 64-bit localparam");
  free(sv);
}

/* Checks that a file that cannot be read is an error. */
static void test_unreadable(void) {
  arch_config cfg;
  diag_reset();
  fflush(stderr);
  int saved = dup(2);
  FILE *cap = tmpfile();
  dup2(fileno(cap), 2);
  int r1 = arch_config_load("/nonexistent/arch.ini", &cfg);
  int r2 = arch_config_load("/tmp", &cfg);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char err[1024];
  rewind(cap);
  err[fread(err, 1, sizeof err - 1, cap)] = '\0';
  fclose(cap);
  TEST_CHECK(r1 == -1 && strstr(err, "cannot read '/nonexistent/arch.ini'"),
             "a missing file is an error naming it");
  TEST_CHECK(r2 == -1 && strstr(err, "cannot read '/tmp'"), "a directory is an error naming it");
}

int main(void) {
  test_load_cases();
  test_fingerprint_keys();
  test_fingerprint_pairs();
  test_dump_and_sv();
  test_unreadable();
  return test_done();
}
