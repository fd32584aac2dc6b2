/*
 * regress_json.c: the JSON reader of regress_json.h, a recursive-descent
 * parser over the whole text (RFC 8259 values, nesting limited to 64
 * levels). Each value is parsed into a regress_json node; arrays and
 * objects grow their item arrays by doubling. A number is checked against
 * the RFC's grammar before strtod reads its double; an integer's digits
 * are also accumulated in a uint64_t (with an overflow check) for its
 * exact value.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "regress_json.h"

#define JSON_MAX_DEPTH 64

typedef struct {
  const char *s, *start;
  char *msg;
  size_t msgsz;
  int failed;
} json_reader;

/* Records the first error at the reader's position; returns -1. */
static int json_fail(json_reader *r, const char *what) {
  if (!r->failed) snprintf(r->msg, r->msgsz, "%s at byte %zu", what, (size_t)(r->s - r->start));
  r->failed = 1;
  return -1;
}

/* Skips whitespace. */
static void json_ws(json_reader *r) {
  while (*r->s == ' ' || *r->s == '\t' || *r->s == '\n' || *r->s == '\r') r->s++;
}

static int json_value(json_reader *r, regress_json *v, int depth);

/* Appends the UTF-8 form of code point c to buf at *n. */
static void json_utf8(char *buf, size_t *n, uint32_t c) {
  if (c < 0x80) buf[(*n)++] = (char)c;
  else if (c < 0x800) {
    buf[(*n)++] = (char)(0xc0 | (c >> 6));
    buf[(*n)++] = (char)(0x80 | (c & 0x3f));
  } else if (c < 0x10000) {
    buf[(*n)++] = (char)(0xe0 | (c >> 12));
    buf[(*n)++] = (char)(0x80 | ((c >> 6) & 0x3f));
    buf[(*n)++] = (char)(0x80 | (c & 0x3f));
  } else {
    buf[(*n)++] = (char)(0xf0 | (c >> 18));
    buf[(*n)++] = (char)(0x80 | ((c >> 12) & 0x3f));
    buf[(*n)++] = (char)(0x80 | ((c >> 6) & 0x3f));
    buf[(*n)++] = (char)(0x80 | (c & 0x3f));
  }
}

/* Returns 0 and the 4 hex digits at s in *c; -1. */
static int json_hex4(const char *s, uint32_t *c) {
  *c = 0;
  for (int i = 0; i < 4; i++) {
    char h = s[i];
    int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
    if (d < 0) return -1;
    *c = *c * 16 + (uint32_t)d;
  }
  return 0;
}

/* Returns 0 after reading a string (at its opening quote) into *out. */
static int json_string(json_reader *r, char **out) {
  const char *s = ++r->s;
  size_t cap = 0;
  while (s[cap] && s[cap] != '"') cap += s[cap] == '\\' && s[cap + 1] ? 2 : 1;
  char *buf = malloc(cap * 2 + 8);
  size_t n = 0;
  if (!buf) return json_fail(r, "out of memory");
  for (;;) {
    unsigned char c = (unsigned char)*r->s;
    if (c == '"') break;
    if (c == '\0' || c < 0x20) {
      free(buf);
      return json_fail(r, c ? "control character in a string" : "unterminated string");
    }
    if (c != '\\') {
      buf[n++] = (char)c;
      r->s++;
      continue;
    }
    char e = r->s[1];
    const char *esc = "\"\\/bfnrt", *val = "\"\\/\b\f\n\r\t";
    const char *p = e ? strchr(esc, e) : NULL;
    if (p) {
      buf[n++] = val[p - esc];
      r->s += 2;
      continue;
    }
    uint32_t cp, lo;
    if (e != 'u' || json_hex4(r->s + 2, &cp)) {
      free(buf);
      return json_fail(r, "bad escape in a string");
    }
    r->s += 6;
    if (cp >= 0xd800 && cp < 0xdc00 && r->s[0] == '\\' && r->s[1] == 'u' && !json_hex4(r->s + 2, &lo) &&
        lo >= 0xdc00 && lo < 0xe000) {
      cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
      r->s += 6;
    }
    json_utf8(buf, &n, cp);
  }
  r->s++;
  buf[n] = '\0';
  *out = buf;
  return 0;
}

/* Returns the end of the run of decimal digits at s (s when there is none). */
static const char *json_digits(const char *s) {
  while (*s >= '0' && *s <= '9') s++;
  return s;
}

/* Returns -1 after recording error `what` at position p. */
static int json_fail_at(json_reader *r, const char *p, const char *what) {
  r->s = p;
  return json_fail(r, what);
}

/* Sets the exact integer fields of v from the digits [d, end) (a valid
 * RFC 8259 integer part) and the sign. */
static void json_integer(regress_json *v, const char *d, const char *end, int neg) {
  uint64_t mag = 0;
  int over = 0;
  for (; d < end; d++) {
    unsigned dig = (unsigned)(*d - '0');
    if (mag > (UINT64_MAX - dig) / 10) over = 1;
    mag = mag * 10 + dig;
  }
  if (over) return; /* beyond 2^64-1: the double only */
  if (!neg) {
    v->exact |= REGRESS_JSON_U64;
    v->u64 = mag;
    if (mag <= (uint64_t)INT64_MAX) {
      v->exact |= REGRESS_JSON_I64;
      v->i64 = (int64_t)mag;
    }
  } else if (mag <= (uint64_t)INT64_MAX + 1) {
    v->exact |= REGRESS_JSON_I64;
    v->i64 = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
    if (mag == 0) { /* -0 */
      v->exact |= REGRESS_JSON_U64;
      v->u64 = 0;
    }
  }
}

/* Returns 0 after reading a number into v: RFC 8259 syntax
 * -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? and nothing else (no '+',
 * leading zero, '.5', '1.', hex, NaN, Infinity), the nearest double, and
 * for an integer its exact value where it fits int64_t and/or uint64_t. */
static int json_number(json_reader *r, regress_json *v) {
  const char *s = r->s, *p = s;
  int neg = *p == '-', integer = 1;
  if (neg) p++;
  if (*p < '0' || *p > '9') return neg ? json_fail_at(r, p, "expected a digit after '-'") : json_fail(r, "expected a value");
  const char *d = p;
  p = *p == '0' ? p + 1 : json_digits(p);
  if (*p >= '0' && *p <= '9') return json_fail_at(r, d, "leading zero in a number");
  const char *dend = p;
  if (*p == '.') {
    const char *q = json_digits(p + 1);
    if (q == p + 1) return json_fail_at(r, q, "expected a digit after '.' in a number");
    p = q;
    integer = 0;
  }
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    const char *q = json_digits(p);
    if (q == p) return json_fail_at(r, p, "expected a digit in the exponent of a number");
    p = q;
    integer = 0;
  }
  if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' || *p == '+' ||
      *p == '-')
    return json_fail_at(r, p, "malformed number");
  char *end;
  errno = 0;
  v->num = strtod(s, &end);
  if (end != p) return json_fail(r, "malformed number");
  if (v->num == HUGE_VAL || v->num == -HUGE_VAL) return json_fail(r, "number out of range");
  v->type = REGRESS_JSON_NUM;
  if (integer) json_integer(v, d, dend, neg);
  r->s = p;
  return 0;
}

/* Returns the next item slot of v (array or object), grown; NULL. */
static regress_json *json_item_add(regress_json *v, size_t *cap) {
  if (v->n == *cap) {
    size_t nc = *cap ? *cap * 2 : 8;
    regress_json *items = realloc(v->items, nc * sizeof *items);
    if (!items) return NULL;
    v->items = items;
    if (v->type == REGRESS_JSON_OBJ) {
      char **keys = realloc(v->keys, nc * sizeof *keys);
      if (!keys) return NULL;
      v->keys = keys;
    }
    *cap = nc;
  }
  regress_json *it = &v->items[v->n];
  memset(it, 0, sizeof *it);
  return it;
}

/* Returns 0 after reading an array or object (at its bracket) into v. */
static int json_container(json_reader *r, regress_json *v, int depth) {
  int obj = *r->s == '{';
  char close = obj ? '}' : ']';
  size_t cap = 0;
  v->type = obj ? REGRESS_JSON_OBJ : REGRESS_JSON_ARR;
  r->s++;
  json_ws(r);
  if (*r->s == close) {
    r->s++;
    return 0;
  }
  for (;;) {
    json_ws(r);
    regress_json *it = json_item_add(v, &cap);
    if (!it) return json_fail(r, "out of memory");
    if (obj) {
      if (*r->s != '"') return json_fail(r, "expected a key");
      if (json_string(r, &v->keys[v->n])) return -1;
      json_ws(r);
      if (*r->s != ':') {
        free(v->keys[v->n]);
        return json_fail(r, "expected ':'");
      }
      r->s++;
    }
    v->n++;
    if (json_value(r, it, depth + 1)) return -1;
    json_ws(r);
    if (*r->s == ',') {
      r->s++;
      continue;
    }
    if (*r->s == close) {
      r->s++;
      return 0;
    }
    return json_fail(r, obj ? "expected ',' or '}'" : "expected ',' or ']'");
  }
}

/* Returns 0 after reading one value into v (zeroed by the caller). */
static int json_value(json_reader *r, regress_json *v, int depth) {
  if (depth > JSON_MAX_DEPTH) return json_fail(r, "nested too deeply");
  json_ws(r);
  static const struct {
    const char *word;
    regress_json_type t;
    double num;
  } words[] = {{"null", REGRESS_JSON_NULL, 0}, {"true", REGRESS_JSON_BOOL, 1}, {"false", REGRESS_JSON_BOOL, 0}};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (!strncmp(r->s, words[i].word, strlen(words[i].word))) {
      v->type = words[i].t;
      v->num = words[i].num;
      r->s += strlen(words[i].word);
      return 0;
    }
  if (*r->s == '"') {
    v->type = REGRESS_JSON_STR;
    return json_string(r, &v->str);
  }
  if (*r->s == '[' || *r->s == '{') return json_container(r, v, depth);
  return json_number(r, v);
}

/* Frees what v owns (not v itself). */
static void json_node_free(regress_json *v) {
  for (size_t i = 0; i < v->n; i++) {
    json_node_free(&v->items[i]);
    if (v->keys) free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->str);
}

regress_json *regress_json_parse(const char *text, char *msg, size_t msgsz) {
  json_reader r = {text, text, msg, msgsz, 0};
  regress_json *v = calloc(1, sizeof *v);
  if (!v) {
    snprintf(msg, msgsz, "out of memory");
    return NULL;
  }
  if (json_value(&r, v, 0) == 0) {
    json_ws(&r);
    if (*r.s) json_fail(&r, "text after the value");
  }
  if (r.failed) {
    regress_json_free(v);
    return NULL;
  }
  return v;
}

regress_json *regress_json_load(const char *path, char *msg, size_t msgsz) {
  size_t len;
  char *text = fileio_read_all(path, &len);
  if (!text) {
    snprintf(msg, msgsz, "%s: %s", path, strerror(errno));
    return NULL;
  }
  char why[256];
  regress_json *j = regress_json_parse(text, why, sizeof why);
  if (!j) snprintf(msg, msgsz, "%s: %s", path, why);
  free(text);
  return j;
}

void regress_json_free(regress_json *j) {
  if (!j) return;
  json_node_free(j);
  free(j);
}

const regress_json *regress_json_get(const regress_json *o, const char *key) {
  if (!o || o->type != REGRESS_JSON_OBJ) return NULL;
  for (size_t i = 0; i < o->n; i++)
    if (!strcmp(o->keys[i], key)) return &o->items[i];
  return NULL;
}

const char *regress_json_str(const regress_json *o, const char *key) {
  const regress_json *v = regress_json_get(o, key);
  return v && v->type == REGRESS_JSON_STR ? v->str : NULL;
}

double regress_json_num(const regress_json *o, const char *key, double dflt) {
  const regress_json *v = regress_json_get(o, key);
  return v && v->type == REGRESS_JSON_NUM ? v->num : dflt;
}

int64_t regress_json_i64(const regress_json *o, const char *key, int64_t dflt) {
  const regress_json *v = regress_json_get(o, key);
  return v && v->type == REGRESS_JSON_NUM && (v->exact & REGRESS_JSON_I64) ? v->i64 : dflt;
}

int regress_json_u64(const regress_json *o, const char *key, uint64_t *out) {
  const regress_json *v = regress_json_get(o, key);
  if (!v || v->type != REGRESS_JSON_NUM || !(v->exact & REGRESS_JSON_U64)) return -1;
  *out = v->u64;
  return 0;
}
