/*
 * regress_fit.h: the no-fit record (compiler/map/fit.h) in JSON, as
 * `tcpa run` writes it into summary.json ("nofit") and `tcpa regress`
 * into its own summary.json, and as both are read back (docs/user-guide.md
 * "summary.json", docs/regress.md).
 */
#ifndef TCPA_REGRESS_FIT_H
#define TCPA_REGRESS_FIT_H

#include "fit.h"
#include "json.h"
#include "regress_json.h"

/* Writes r as the array `key` of w: one object per item with resource
 * (fit_resource_name), key, needed, available (null when not a count),
 * bound (the least any mapping needs, map_bounds.h; null when none is
 * known) and where. */
void regress_fit_write(json_writer *w, const char *key, const fit_record *r);

/* Returns the record of the array member `key` of o (as regress_fit_write
 * writes it; malloc'ed, FIT_MAX_ITEMS items at most), or NULL when absent
 * or empty. The items' sentences are not kept: the record is data. */
fit_record *regress_fit_read(const regress_json *o, const char *key);

#endif
