/*
 * regress_fit.c: the no-fit record in JSON (regress_fit.h): written member
 * by member with json_writer, read back with regress_json.
 */
#include "regress_fit.h"

#include <stdlib.h>

void regress_fit_write(json_writer *w, const char *key, const fit_record *r) {
  json_writer_begin_array(w, key);
  for (int i = 0; i < r->n; i++) {
    const fit_item *it = &r->item[i];
    json_writer_begin_object(w, NULL);
    json_writer_string(w, "resource", fit_resource_name(it->res));
    json_writer_string(w, "key", it->key);
    if (it->need >= 0) json_writer_int(w, "needed", it->need);
    else json_writer_null(w, "needed");
    if (it->have >= 0) json_writer_int(w, "available", it->have);
    else json_writer_null(w, "available");
    if (it->bound >= 0) json_writer_int(w, "bound", it->bound);
    else json_writer_null(w, "bound");
    json_writer_string(w, "where", it->where);
    json_writer_end_object(w);
  }
  json_writer_end_array(w);
}

fit_record *regress_fit_read(const regress_json *o, const char *key) {
  const regress_json *a = regress_json_get(o, key);
  if (!a || a->type != REGRESS_JSON_ARR || !a->n) return NULL;
  fit_record *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  for (size_t i = 0; i < a->n && r->n < FIT_MAX_ITEMS; i++) {
    const regress_json *it = &a->items[i];
    if (it->type != REGRESS_JSON_OBJ) continue;
    fit_item *x = fit_record_add(r, fit_resource_parse(regress_json_str(it, "resource")),
                                 regress_json_str(it, "key"), regress_json_i64(it, "needed", -1),
                                 regress_json_i64(it, "available", -1), regress_json_str(it, "where"), "%s", "");
    if (x) x->bound = regress_json_i64(it, "bound", -1);
  }
  if (!r->n) {
    free(r);
    return NULL;
  }
  return r;
}
