/*
 * fuzz_json.c: libFuzzer target for the JSON reader of `tcpa regress`
 * (regress/regress_json.c: the summary.json of `tcpa run` and of earlier
 * regressions, read by --merge and --rerun-failed). The input bytes (cut
 * at the first NUL) are parsed with regress_json_parse(); a refused text
 * must come with a message; an accepted tree is walked, every accessor is
 * called on every object member, and every number is checked against
 * itself: an exact integer (REGRESS_JSON_I64 or _U64) must agree with its
 * double (both are the nearest double of the same integer) and with the
 * other exact form where both fit, else abort(). Errors are expected; a
 * crash, a leak, undefined behaviour or a failed check is a bug. Built by
 * `make fuzz` (docs/fuzz.md).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "regress_json.h"

/* Aborts unless the exact forms of number v agree with its double. */
static void fuzz_number_check(const regress_json *v) {
  if ((v->exact & REGRESS_JSON_U64) && (double)v->u64 != v->num) abort();
  if ((v->exact & REGRESS_JSON_I64) && (double)v->i64 != v->num) abort();
  if ((v->exact & REGRESS_JSON_I64) && (v->exact & REGRESS_JSON_U64) && (v->i64 < 0 || (uint64_t)v->i64 != v->u64))
    abort();
  if (!(v->exact & REGRESS_JSON_I64) && (v->exact & REGRESS_JSON_U64) && v->u64 <= (uint64_t)INT64_MAX) abort();
}

/* Walks the tree at v (depth-first), checking numbers and calling the
 * accessors on every member of every object. */
static void fuzz_walk(const regress_json *v) {
  if (v->type == REGRESS_JSON_NUM) fuzz_number_check(v);
  if (v->type == REGRESS_JSON_STR && !v->str) abort();
  for (size_t i = 0; i < v->n; i++) {
    if (v->type == REGRESS_JSON_OBJ) {
      const char *k = v->keys[i];
      if (!regress_json_get(v, k)) abort();
      uint64_t u;
      int got = regress_json_u64(v, k, &u);
      (void)got;
      (void)regress_json_i64(v, k, -1);
      (void)regress_json_num(v, k, 0);
      (void)regress_json_str(v, k);
    }
    fuzz_walk(&v->items[i]);
  }
}

/* Returns 0 (libFuzzer's contract); parses data[0..size) as JSON text. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1), msg[256] = "";
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  regress_json *j = regress_json_parse(text, msg, sizeof msg);
  if (!j && !msg[0]) abort(); /* a refusal says why */
  if (j) fuzz_walk(j);
  regress_json_free(j);
  free(text);
  return 0;
}
