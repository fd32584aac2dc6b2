/*
 * arch.c: architecture configurations (docs/arch.md).
 *
 * One table, arch_keys[], lists every key: its section, name, field of
 * arch_config, default, range and meaning. Loading, defaults, the
 * fingerprint, the INI dump and the SystemVerilog package all walk that
 * table, so a key added there is handled everywhere.
 *
 * Loading reads the whole file into memory and hands it to inih through
 * ini_parse_stream() with our own fgets-like reader. The reader counts
 * lines (Debian's inih passes no line number to the handler), remembers the
 * raw current line (for columns and the caret), and checks the shape of
 * each line itself (section headers, `key = value`), so that every syntax
 * error is reported, not only the first one inih returns. The handler then
 * checks section, key, duplicates and value. Every error is printed through
 * diag.h and loading goes on to the end of the file.
 */
#include "arch.h"
#include "isa.h" /* ranges the instruction encoding can address */

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "fileio.h"

enum {
  ARCH_KEY_POW2 = 1, /* the value must be a power of two */
  ARCH_KEY_EXT = 2   /* a key this project adds to the specified ones (docs/arch.md): it enters the
                        fingerprint only when set away from its default, so
                        the fingerprints of spec-only files do not change */
};

typedef struct {
  const char *section, *key;
  size_t offset; /* of the int field in arch_config */
  int def, min, max;
  unsigned flags;
  const char *doc;
} arch_key;

#define ARCH_F(f) offsetof(arch_config, f)

static const arch_key arch_keys[] = {
    {"array", "rows", ARCH_F(rows), 4, 1, 64, 0, "PE rows"},
    {"array", "cols", ARCH_F(cols), 4, 1, 64, 0, "PE columns"},
    {"pe", "alu", ARCH_F(alu), 2, 1, 8, 0, "integer ALUs per PE"},
    {"pe", "mul", ARCH_F(mul), 1, 0, 8, 0, "multipliers per PE"},
    {"pe", "div", ARCH_F(div), 0, 0, 8, 0, "dividers per PE"},
    {"pe", "rd", ARCH_F(rd), 4, 0, ISA_MAX_REGS, 0, "general-purpose registers"},
    {"pe", "fd", ARCH_F(fd), 4, 0, ISA_MAX_REGS, 0, "feedback registers"},
    {"pe", "fd_depth", ARCH_F(fd_depth), 32, 1, 1024, 0,
     "largest depth of one feedback register"},
    {"pe", "id", ARCH_F(id), 4, 0, ISA_MAX_REGS, 0, "input registers (FIFO heads)"},
    {"pe", "od", ARCH_F(od), 4, 0, ISA_MAX_OD, 0, "output registers"},
    {"pe", "fifo_depth", ARCH_F(fifo_depth), 8, 1, 1024, 0,
     "words in each input FIFO"},
    {"pe", "imem", ARCH_F(imem), 32, 1, ISA_MAX_IMEM, 0,
     "instruction words per functional-unit program memory"},
    {"pe", "branch_targets", ARCH_F(branch_targets), 2, 2, ISA_MAX_TARGETS, ARCH_KEY_POW2,
     "targets of one conditional branch"},
    {"latency", "alu", ARCH_F(lat_alu), 1, 1, 64, 0, "ALU cycles from issue to result"},
    {"latency", "mul", ARCH_F(lat_mul), 2, 1, 64, 0,
     "multiplier cycles from issue to result"},
    {"latency", "div", ARCH_F(lat_div), 8, 1, 64, 0,
     "divider cycles from issue to result"},
    {"interconnect", "ports", ARCH_F(ports), 4, 1, ARCH_MAX_PORTS, 0,
     "data channels per wrapper side, each way"},
    {"gc", "signals", ARCH_F(gc_signals), 8, 1, ISA_MAX_SIGNALS, 0,
     "global control signals"},
    {"gc", "dims", ARCH_F(gc_dims), 6, 1, 8, 0,
     "loop dimensions the global controller counts"},
    {"gc", "history", ARCH_F(gc_history), ARCH_GC_HISTORY_DEFAULT, 2, 512, ARCH_KEY_EXT,
     "legacy, ignored: the PEs evaluate the control signals themselves"},
    {"iobuf", "banks", ARCH_F(banks), 4, 1, 16, 0,
     "memory banks behind each border PE side"},
    {"iobuf", "depth", ARCH_F(bank_depth), 1024, 1, 1 << 20, 0,
     "32-bit words in each bank"},
};

#define ARCH_NKEYS (int)(sizeof arch_keys / sizeof arch_keys[0])

static const char *const arch_sections[] = {"array", "pe", "latency",
                                            "interconnect", "gc", "iobuf"};

#define ARCH_NSECTIONS (int)(sizeof arch_sections / sizeof arch_sections[0])

/* The state of one load: the text, the reader's position, the current line
 * and which keys were set where. */
typedef struct {
  const char *path;
  char *text; /* the whole file, NUL-terminated */
  size_t len, pos;
  int line;          /* number of the line last handed to inih */
  const char *cur;   /* that line, raw */
  size_t cur_len;    /* its length without the line end */
  int first_syntax;  /* first line with a syntax error we reported, or 0 */
  bool bad_header;   /* the last section header was malformed */
  int set_line[ARCH_NKEYS];
  arch_config *cfg;
  int errors;
} arch_loader;

/* Returns a pointer to the int field of `cfg` that key `k` holds. */
static int *arch_field(arch_config *cfg, int k) {
  return (int *)((char *)cfg + arch_keys[k].offset);
}

/* Returns the value of key `k` in `cfg`. */
static int arch_field_get(const arch_config *cfg, int k) {
  return *(const int *)((const char *)cfg + arch_keys[k].offset);
}

arch_config arch_config_default(void) {
  arch_config cfg;
  memset(&cfg, 0, sizeof cfg);
  for (int k = 0; k < ARCH_NKEYS; k++) *arch_field(&cfg, k) = arch_keys[k].def;
  return cfg;
}

/* Returns the index of `section` in arch_sections[], or -1. */
static int arch_section_find(const char *section) {
  for (int i = 0; i < ARCH_NSECTIONS; i++)
    if (!strcmp(arch_sections[i], section)) return i;
  return -1;
}

/* Returns the index of key `name` of `section` in arch_keys[], or -1. */
static int arch_key_find(const char *section, const char *name) {
  for (int k = 0; k < ARCH_NKEYS; k++)
    if (!strcmp(arch_keys[k].section, section) && !strcmp(arch_keys[k].key, name))
      return k;
  return -1;
}

/* Prints an error at line `ld->line`, column `col` of the file. */
static void arch_error(arch_loader *ld, int col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void arch_error(arch_loader *ld, int col, const char *fmt, ...) {
  diag_loc loc = {ld->path, ld->line, col};
  va_list ap;
  va_start(ap, fmt);
  diag_verror(&loc, ld->text, fmt, ap);
  va_end(ap);
  ld->errors++;
}

/* Returns the list of known sections, comma-separated, in `buf`. */
static const char *arch_section_list(char *buf, size_t size) {
  size_t n = 0;
  buf[0] = '\0';
  for (int i = 0; i < ARCH_NSECTIONS && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", arch_sections[i]);
  return buf;
}

/* Returns the list of the keys of `section`, comma-separated, in `buf`. */
static const char *arch_key_list(const char *section, char *buf, size_t size) {
  size_t n = 0;
  buf[0] = '\0';
  for (int k = 0; k < ARCH_NKEYS && n < size; k++)
    if (!strcmp(arch_keys[k].section, section))
      n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", arch_keys[k].key);
  return buf;
}

/* Returns the edit distance between `a` and `b` (capped at 9). */
static int arch_edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 31 || lb > 31) return 9;
  int d[32][32];
  for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
  for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
  for (size_t i = 1; i <= la; i++)
    for (size_t j = 1; j <= lb; j++) {
      int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
      d[i][j] = best;
    }
  return d[la][lb] > 9 ? 9 : d[la][lb];
}

/* Prints a note suggesting the key meant by unknown key `name` of
 * `section`: the same name in another section, or a close one in this. */
static void arch_key_suggest(const char *section, const char *name) {
  for (int k = 0; k < ARCH_NKEYS; k++)
    if (!strcmp(arch_keys[k].key, name)) {
      diag_note("'%s' is a key of [%s]", name, arch_keys[k].section);
      return;
    }
  int best = -1, best_d = 3;
  for (int k = 0; k < ARCH_NKEYS; k++) {
    if (strcmp(arch_keys[k].section, section)) continue;
    int d = arch_edit_distance(name, arch_keys[k].key);
    if (d < best_d) best = k, best_d = d;
  }
  if (best >= 0) diag_note("did you mean '%s.%s'?", section, arch_keys[best].key);
}

/* Returns a pointer past the leading white space of `s`. */
static const char *arch_skip_space(const char *s, const char *end) {
  while (s < end && isspace((unsigned char)*s)) s++;
  return s;
}

/* Returns the first of `chars` in [s, end) that is not inside an inline
 * comment (a ';' or '#' after white space, as inih reads it), or `end`. */
static const char *arch_find_chars(const char *s, const char *end, const char *chars) {
  bool was_space = false;
  for (; s < end; s++) {
    if (strchr(chars, *s)) return s;
    if (was_space && (*s == ';' || *s == '#')) return end;
    was_space = isspace((unsigned char)*s);
  }
  return end;
}

/* Returns the column (1-based) of `p` in the current line. */
static int arch_col(const arch_loader *ld, const char *p) {
  return (int)(p - ld->cur) + 1;
}

/* Records a syntax error of the current line at `p` (NULL: column 1). */
static void arch_syntax_error(arch_loader *ld, const char *p, const char *msg) {
  arch_error(ld, p ? arch_col(ld, p) : 1, "%s", msg);
  if (!ld->first_syntax) ld->first_syntax = ld->line;
}

/* Checks a `[section]` line starting at `s` (the '['). */
static void arch_check_header(arch_loader *ld, const char *s, const char *end) {
  const char *close = arch_find_chars(s + 1, end, "]");
  ld->bad_header = true; /* until it proves well-formed */
  if (close == end) {
    arch_syntax_error(ld, s, "section header has no closing ']'");
    return;
  }
  const char *a = arch_skip_space(s + 1, close), *b = close;
  while (b > a && isspace((unsigned char)b[-1])) b--;
  char name[64];
  if (b - a >= (ptrdiff_t)sizeof name) b = a + sizeof name - 1;
  memcpy(name, a, (size_t)(b - a));
  name[b - a] = '\0';
  if (!name[0]) {
    arch_syntax_error(ld, s, "empty section name");
    return;
  }
  ld->bad_header = false; /* inih takes the section, whatever follows */
  const char *rest = arch_skip_space(close + 1, end);
  if (rest < end && *rest != ';' && *rest != '#')
    arch_syntax_error(ld, rest, "unexpected text after the section header");
  if (arch_section_find(name) < 0) {
    char list[256];
    arch_error(ld, arch_col(ld, a), "unknown section '[%s]' (known sections: %s)",
               name, arch_section_list(list, sizeof list));
  }
}

/* Checks the shape of the current line: blank, comment, `[section]` or
 * `key = value`; reports what is wrong with it. */
static void arch_check_line(arch_loader *ld) {
  const char *s = ld->cur, *end = ld->cur + ld->cur_len;
  if (ld->line == 1 && ld->cur_len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) s += 3;
  s = arch_skip_space(s, end);
  if (s == end || *s == ';' || *s == '#') return;
  if (*s == '[') {
    arch_check_header(ld, s, end);
    return;
  }
  const char *eq = arch_find_chars(s, end, "=:");
  if (eq == end)
    arch_syntax_error(ld, s, "expected 'key = value', '[section]' or a comment");
  else if (eq == s)
    arch_syntax_error(ld, s, "missing key before '='");
}

/* The reader inih calls: returns the next line of the file in `str` (at
 * most num-1 bytes), or NULL at the end. Counts lines and checks each one;
 * a line too long for inih or holding a NUL byte is reported and handed on
 * as a blank line. */
static char *arch_ini_read_line(char *str, int num, void *stream) {
  arch_loader *ld = stream;
  if (ld->pos >= ld->len || num < 2) return NULL;
  char *s = ld->text + ld->pos;
  const char *nl = memchr(s, '\n', ld->len - ld->pos);
  size_t n = nl ? (size_t)(nl - s) + 1 : ld->len - ld->pos;
  ld->pos += n;
  ld->line++;
  ld->cur = s;
  ld->cur_len = n;
  while (ld->cur_len && (s[ld->cur_len - 1] == '\n' || s[ld->cur_len - 1] == '\r'))
    ld->cur_len--;
  char *nul = memchr(s, '\0', n);
  if (nul) {
    for (; nul; nul = memchr(nul, '\0', n - (size_t)(nul - s))) *nul = '?';
    arch_syntax_error(ld, NULL, "line contains a NUL byte (shown as '?')");
  } else if (n + 1 > (size_t)num) {
    char msg[80];
    snprintf(msg, sizeof msg, "line is too long (at most %d characters)", num - 3);
    arch_syntax_error(ld, NULL, msg);
    if (*arch_skip_space(s, s + ld->cur_len) == '[') ld->bad_header = true;
  } else {
    memcpy(str, s, n);
    str[n] = '\0';
    arch_check_line(ld);
    return str;
  }
  str[0] = '\n';
  str[1] = '\0';
  return str;
}

/* Returns the column of the value of the current `key = value` line. */
static int arch_value_col(const arch_loader *ld) {
  const char *end = ld->cur + ld->cur_len;
  const char *eq = arch_find_chars(ld->cur, end, "=:");
  if (eq == end) return 1;
  return arch_col(ld, arch_skip_space(eq + 1, end));
}

/* Returns the column of the key of the current `key = value` line. */
static int arch_key_col(const arch_loader *ld) {
  const char *s = ld->cur, *end = ld->cur + ld->cur_len;
  if (ld->line == 1 && ld->cur_len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) s += 3;
  return arch_col(ld, arch_skip_space(s, end));
}

/* Checks `value` for key `k` and stores it in ld->cfg; reports what is
 * wrong with it. */
static void arch_set_value(arch_loader *ld, int k, const char *value) {
  const arch_key *key = &arch_keys[k];
  int col = arch_value_col(ld);
  if (!*value) {
    arch_error(ld, col, "missing value for '%s.%s'", key->section, key->key);
    return;
  }
  const char *d = value + (*value == '+' || *value == '-');
  bool digits = *d != '\0';
  for (; *d; d++)
    if (!isdigit((unsigned char)*d)) digits = false;
  if (!digits) {
    arch_error(ld, col, "value '%s' of '%s.%s' is not a decimal integer", value,
               key->section, key->key);
    return;
  }
  errno = 0;
  long long v = strtoll(value, NULL, 10);
  if (errno == ERANGE || v < key->min || v > key->max) {
    arch_error(ld, col, "value %s of '%s.%s' is out of range %d..%d", value,
               key->section, key->key, key->min, key->max);
    return;
  }
  if ((key->flags & ARCH_KEY_POW2) && (v & (v - 1))) {
    arch_error(ld, col, "value %s of '%s.%s' is not a power of two >= 2", value,
               key->section, key->key);
    return;
  }
  *arch_field(ld->cfg, k) = (int)v;
}

/* The handler inih calls for each `key = value`: returns 1 (go on), the
 * errors being counted in the loader. */
static int arch_ini_handler(void *user, const char *section, const char *name,
                            const char *value) {
  arch_loader *ld = user;
  char sec[64], list[256];
  const char *a = section;
  while (isspace((unsigned char)*a)) a++;
  snprintf(sec, sizeof sec, "%s", a);
  for (size_t n = strlen(sec); n && isspace((unsigned char)sec[n - 1]);) sec[--n] = '\0';
  if (!*name || ld->bad_header) return 1; /* reported by arch_check_line */
  if (!*sec) {
    arch_error(ld, arch_key_col(ld), "key '%s' is outside any section (known sections: %s)",
               name, arch_section_list(list, sizeof list));
    return 1;
  }
  if (arch_section_find(sec) < 0) return 1; /* reported at its header */
  int k = arch_key_find(sec, name);
  if (k < 0) {
    arch_error(ld, arch_key_col(ld), "unknown key '%s.%s' (known keys of [%s]: %s)", sec,
               name, sec, arch_key_list(sec, list, sizeof list));
    arch_key_suggest(sec, name);
    return 1;
  }
  if (ld->set_line[k]) {
    arch_error(ld, arch_key_col(ld), "duplicate key '%s.%s'", sec, name);
    diag_note("'%s.%s' was first set on line %d", sec, name, ld->set_line[k]);
    return 1;
  }
  ld->set_line[k] = ld->line;
  arch_set_value(ld, k, value);
  return 1;
}

/* Returns the contents of `path` (NUL-terminated, length in *len), or NULL
 * after printing why it cannot be read. */
static char *arch_read_file(const char *path, size_t *len) {
  char *buf = fileio_read_all(path, len);
  if (!buf) diag_error_plain("cannot read '%s': %s", path, strerror(errno));
  return buf;
}

/* Returns inih's result for the loader's text, with inih set to our
 * dialect (no multi-line values, ';' and '#' comments) meanwhile. */
static int arch_ini_run(arch_loader *ld) {
  static char comment_prefixes[] = ";#";
  bool multiline = ini_allow_multiline;
  char *inline_prefixes = ini_inline_comment_prefixes;
  ini_allow_multiline = false;
  ini_inline_comment_prefixes = comment_prefixes;
  int r = ini_parse_stream(arch_ini_read_line, ld, arch_ini_handler, ld);
  ini_allow_multiline = multiline;
  ini_inline_comment_prefixes = inline_prefixes;
  return r;
}

static int arch_config_load_owned(const char *path, char *text, size_t len,
                                  arch_config *cfg);

int arch_config_load(const char *path, arch_config *cfg) {
  size_t len;
  char *text = arch_read_file(path, &len);
  if (!text) return -1;
  return arch_config_load_owned(path, text, len, cfg);
}

int arch_config_load_text(const char *name, const char *text, arch_config *cfg) {
  size_t len = strlen(text);
  char *copy = malloc(len + 1);
  if (!copy) {
    diag_error_plain("cannot parse '%s': out of memory", name);
    return -1;
  }
  memcpy(copy, text, len + 1);
  return arch_config_load_owned(name, copy, len, cfg);
}

int arch_config_load_default(arch_config *cfg) {
  return arch_config_load_text(arch_default_ini_name, arch_default_ini_text, cfg);
}

/* Returns 0 and fills *cfg from `text` (len bytes, freed here) read from
 * `path`; returns -1 after printing every error. */
static int arch_config_load_owned(const char *path, char *text, size_t len,
                                  arch_config *cfg) {
  arch_loader ld;
  memset(&ld, 0, sizeof ld);
  ld.path = path;
  ld.text = text;
  ld.len = len;
  arch_config tmp = arch_config_default();
  ld.cfg = &tmp;
  int r = arch_ini_run(&ld);
  if (r > 0 && r != ld.first_syntax && ld.first_syntax == 0) {
    ld.line = r;
    arch_error(&ld, 1, "the INI parser rejected this line");
  } else if (r < 0) {
    diag_error_plain("cannot parse '%s': out of memory", path);
    ld.errors++;
  }
  free(ld.text);
  if (ld.errors) return -1;
  *cfg = tmp;
  return 0;
}

/* Returns the FNV-1a 64-bit hash of `n` bytes at `p`, continuing from `h`. */
static uint64_t arch_fnv1a(uint64_t h, const char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

uint64_t arch_config_fingerprint(const arch_config *cfg) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (int k = 0; k < ARCH_NKEYS; k++) {
    char line[128];
    if ((arch_keys[k].flags & ARCH_KEY_EXT) && arch_field_get(cfg, k) == arch_keys[k].def)
      continue;
    int n = snprintf(line, sizeof line, "%s.%s=%d\n", arch_keys[k].section,
                     arch_keys[k].key, arch_field_get(cfg, k));
    h = arch_fnv1a(h, line, (size_t)n);
  }
  return h;
}

/* Returns `s` in upper case in `buf`. */
static const char *arch_upper(const char *s, char *buf, size_t size) {
  size_t i = 0;
  for (; s[i] && i + 1 < size; i++) buf[i] = (char)toupper((unsigned char)s[i]);
  buf[i] = '\0';
  return buf;
}

void arch_config_write_sv(const arch_config *cfg, FILE *out) {
  unsigned long long fp = (unsigned long long)arch_config_fingerprint(cfg);
  fprintf(out,
          "// tcpa_params_pkg: the parameters of one TCPA architecture configuration.\n"
          "// GENERATED by `tcpa arch FILE --sv` from the architecture INI file\n"
          "// (docs/arch.md); do not edit: change the INI file and regenerate.\n"
          "// Architecture fingerprint: 0x%016llx\n"
          "package tcpa_params_pkg;\n"
          "  localparam int unsigned DATA_WIDTH = %d;  // bits of every data word\n",
          fp, ARCH_DATA_WIDTH);
  const char *section = "";
  for (int k = 0; k < ARCH_NKEYS; k++) {
    char s[32], key[32], name[64];
    if (strcmp(section, arch_keys[k].section))
      fprintf(out, "  // [%s]\n", section = arch_keys[k].section);
    snprintf(name, sizeof name, "%s_%s", arch_upper(arch_keys[k].section, s, sizeof s),
             arch_upper(arch_keys[k].key, key, sizeof key));
    fprintf(out, "  localparam int unsigned %-27s = %d;  // %s\n", name,
            arch_field_get(cfg, k), arch_keys[k].doc);
  }
  fprintf(out,
          "  // fingerprint of all the values above (docs/arch.md)\n"
          "  localparam logic [63:0] ARCH_FINGERPRINT = 64'h%016llx;\n"
          "endpackage\n",
          fp);
}

void arch_config_write_h(const arch_config *cfg, FILE *out) {
  fprintf(out,
          "/* tcpa_params.h: the parameters of one TCPA architecture configuration\n"
          " * for the C++ harnesses. GENERATED by tcpa (arch_config_write_h) from the\n"
          " * architecture INI file (docs/arch.md), beside tcpa_params_pkg.sv; do not\n"
          " * edit. */\n"
          "#define TCPA_DATA_WIDTH %d\n",
          ARCH_DATA_WIDTH);
  for (int k = 0; k < ARCH_NKEYS; k++) {
    char s[32], key[32];
    fprintf(out, "#define TCPA_%s_%s %d\n", arch_upper(arch_keys[k].section, s, sizeof s),
            arch_upper(arch_keys[k].key, key, sizeof key), arch_field_get(cfg, k));
  }
  fprintf(out, "#define TCPA_ARCH_FINGERPRINT 0x%016llxull\n",
          (unsigned long long)arch_config_fingerprint(cfg));
}

void arch_config_write_ini(const arch_config *cfg, FILE *out) {
  fprintf(out,
          "; Effective architecture configuration: every key, defaults included.\n"
          "; fingerprint 0x%016llx\n",
          (unsigned long long)arch_config_fingerprint(cfg));
  const char *section = "";
  for (int k = 0; k < ARCH_NKEYS; k++) {
    const arch_key *key = &arch_keys[k];
    if (strcmp(section, key->section))
      fprintf(out, "\n[%s]\n", section = key->section);
    char lhs[64];
    snprintf(lhs, sizeof lhs, "%s = %d", key->key, arch_field_get(cfg, k));
    fprintf(out, "%-24s ; %s (default %d, %d..%d%s)\n", lhs, key->doc, key->def,
            key->min, key->max, key->flags & ARCH_KEY_POW2 ? ", a power of two" : "");
  }
}
