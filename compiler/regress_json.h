/*
 * regress_json.h: a small JSON reader for `tcpa regress`: it reads the
 * summary.json of `tcpa run` (the run's verdict fields) and the
 * summary.json of earlier regressions (--merge, --rerun-failed) into a
 * tree. Numbers are doubles (summary fields are below 2^53); strings are
 * decoded (\uXXXX as UTF-8, surrogate pairs joined).
 */
#ifndef TCPA_REGRESS_JSON_H
#define TCPA_REGRESS_JSON_H

#include <stddef.h>

typedef enum {
  REGRESS_JSON_NULL, REGRESS_JSON_BOOL, REGRESS_JSON_NUM,
  REGRESS_JSON_STR, REGRESS_JSON_ARR, REGRESS_JSON_OBJ
} regress_json_type;

/* A value; arrays and objects hold n items (objects with their keys). */
typedef struct regress_json {
  regress_json_type type;
  double num;                 /* NUM; BOOL: 0 or 1 */
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

#endif
