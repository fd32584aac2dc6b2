/*
 * json.h: a tiny streaming JSON writer, enough for summary.json. Values are
 * written in order as they come; the writer keeps, per nesting level,
 * whether a comma is due, and indents two spaces per level. Inside an
 * object every value takes a key; inside an array or at the top, key is
 * NULL.
 */
#ifndef TCPA_JSON_H
#define TCPA_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

typedef struct {
  FILE *f;
  int depth;
  int count[JSON_MAX_DEPTH]; /* values written so far at each level */
} json_writer;

/* Returns a writer that writes to `f`. */
json_writer json_writer_make(FILE *f);

/* Each of these writes one value (after `"key": ` when key is not NULL). */
void json_writer_begin_object(json_writer *w, const char *key);
void json_writer_end_object(json_writer *w);
void json_writer_begin_array(json_writer *w, const char *key);
void json_writer_end_array(json_writer *w);
void json_writer_string(json_writer *w, const char *key, const char *s);
void json_writer_int(json_writer *w, const char *key, int64_t v);
void json_writer_uint(json_writer *w, const char *key, uint64_t v);
void json_writer_double(json_writer *w, const char *key, double v);
void json_writer_null(json_writer *w, const char *key);
void json_writer_bool(json_writer *w, const char *key, int v);

#endif
