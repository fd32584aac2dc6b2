/*
 * json.c: the streaming JSON writer of json.h. Strings are escaped per
 * RFC 8259 (quote, backslash, control characters as \uXXXX); bytes >= 0x80
 * are passed through (UTF-8 stays UTF-8). Non-finite doubles become null.
 */
#include "json.h"

#include <math.h>

json_writer json_writer_make(FILE *f) {
  json_writer w = {0};
  w.f = f;
  return w;
}

/* Writes a string literal with escapes. */
static void json_put_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') {
      fputc('\\', f);
      fputc(*p, f);
    } else if (*p == '\n') {
      fputs("\\n", f);
    } else if (*p == '\t') {
      fputs("\\t", f);
    } else if (*p < 0x20) {
      fprintf(f, "\\u%04x", *p);
    } else {
      fputc(*p, f);
    }
  }
  fputc('"', f);
}

/* Writes the separator, the indentation and the key that precede a value. */
static void json_begin_value(json_writer *w, const char *key) {
  if (w->depth > 0) {
    fputs(w->count[w->depth] ? ",\n" : "\n", w->f);
    for (int i = 0; i < w->depth; i++) fputs("  ", w->f);
  }
  w->count[w->depth]++;
  if (key) {
    json_put_string(w->f, key);
    fputs(": ", w->f);
  }
}

/* Opens a nesting level with `open` ('{' or '['). */
static void json_open(json_writer *w, const char *key, char open) {
  json_begin_value(w, key);
  fputc(open, w->f);
  if (w->depth + 1 < JSON_MAX_DEPTH) w->depth++;
  w->count[w->depth] = 0;
}

/* Closes a nesting level with `close`. */
static void json_close(json_writer *w, char close) {
  int had = w->count[w->depth];
  if (w->depth > 0) w->depth--;
  if (had) {
    fputc('\n', w->f);
    for (int i = 0; i < w->depth; i++) fputs("  ", w->f);
  }
  fputc(close, w->f);
  if (w->depth == 0) fputc('\n', w->f);
}

void json_writer_begin_object(json_writer *w, const char *key) { json_open(w, key, '{'); }
void json_writer_end_object(json_writer *w) { json_close(w, '}'); }
void json_writer_begin_array(json_writer *w, const char *key) { json_open(w, key, '['); }
void json_writer_end_array(json_writer *w) { json_close(w, ']'); }

void json_writer_string(json_writer *w, const char *key, const char *s) {
  json_begin_value(w, key);
  if (s)
    json_put_string(w->f, s);
  else
    fputs("null", w->f);
}

void json_writer_int(json_writer *w, const char *key, int64_t v) {
  json_begin_value(w, key);
  fprintf(w->f, "%lld", (long long)v);
}

void json_writer_uint(json_writer *w, const char *key, uint64_t v) {
  json_begin_value(w, key);
  fprintf(w->f, "%llu", (unsigned long long)v);
}

void json_writer_double(json_writer *w, const char *key, double v) {
  json_begin_value(w, key);
  if (isfinite(v))
    fprintf(w->f, "%.9g", v);
  else
    fputs("null", w->f);
}

void json_writer_null(json_writer *w, const char *key) {
  json_begin_value(w, key);
  fputs("null", w->f);
}

void json_writer_bool(json_writer *w, const char *key, int v) {
  json_begin_value(w, key);
  fputs(v ? "true" : "false", w->f);
}
