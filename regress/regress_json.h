/*
 * regress_json.h: a small JSON reader for `tcpa regress`: it reads the
 * summary.json of `tcpa run` (the run's verdict fields) and the
 * summary.json of earlier regressions (--merge, --rerun-failed) into a
 * tree. Numbers follow RFC 8259 strictly (-?(0|[1-9][0-9]*)(.[0-9]+)?
 * ([eE][+-]?[0-9]+)?: no leading zero, '+', '.5', '1.', hex, NaN or
 * Infinity) and are kept as a double and, for an integer (no fraction, no
 * exponent), exactly as well: as int64_t and uint64_t where it fits, with
 * flags saying which, so that seeds up to 2^64-1 and counters survive a
 * round trip (a double holds integers exactly only up to 2^53). Strings
 * are decoded (\uXXXX as UTF-8, surrogate pairs joined).
 */
#ifndef TCPA_REGRESS_JSON_H
#define TCPA_REGRESS_JSON_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
  REGRESS_JSON_NULL, REGRESS_JSON_BOOL, REGRESS_JSON_NUM,
  REGRESS_JSON_STR, REGRESS_JSON_ARR, REGRESS_JSON_OBJ
} regress_json_type;

/* Flags of a number written as an integer (no fraction, no exponent). */
#define REGRESS_JSON_I64 1u /* it fits int64_t: in i64 */
#define REGRESS_JSON_U64 2u /* it fits uint64_t: in u64 */

/* A value; arrays and objects hold n items (objects with their keys). */
typedef struct regress_json {
  regress_json_type type;
  double num;                 /* NUM (nearest double); BOOL: 0 or 1 */
  int64_t i64;                /* NUM with REGRESS_JSON_I64: exact */
  uint64_t u64;               /* NUM with REGRESS_JSON_U64: exact */
  unsigned exact;             /* NUM: REGRESS_JSON_I64 | REGRESS_JSON_U64 */
  char *str;                  /* STR */
  struct regress_json *items; /* ARR, OBJ */
  char **keys;                /* OBJ */
  size_t n;
} regress_json;

/* Returns the tree of `text` (malloc'ed), or NULL with the reason and its
 * byte offset in msg. */
regress_json *regress_json_parse(const char *text, char *msg, size_t msgsz);

/* Returns the tree of the file at path, or NULL with the reason in msg. */
regress_json *regress_json_load(const char *path, char *msg, size_t msgsz);

/* Frees a tree returned by regress_json_parse (NULL is fine). */
void regress_json_free(regress_json *j);

/* Returns the member `key` of object o, or NULL (o NULL or not an object). */
const regress_json *regress_json_get(const regress_json *o, const char *key);

/* Returns the string member `key` of o, or NULL when absent or not a string. */
const char *regress_json_str(const regress_json *o, const char *key);

/* Returns the number member `key` of o, or `dflt` when absent or not a number. */
double regress_json_num(const regress_json *o, const char *key, double dflt);

/* Returns the integer member `key` of o exactly, or `dflt` when absent, not
 * a number, not an integer, or outside int64_t. */
int64_t regress_json_i64(const regress_json *o, const char *key, int64_t dflt);

/* Returns 0 and the integer member `key` of o exactly in *v; -1 when it is
 * absent, not a number, not an integer, or outside 0..2^64-1 (*v unchanged). */
int regress_json_u64(const regress_json *o, const char *key, uint64_t *v);

#endif
