/*
 * fit.c: the record of why a program does not fit (fit.h): items added by
 * the steps that run out, the message made from them, and the lookups the
 * mapping search and the reports use instead of reading the message.
 */
#include "fit.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const fit_names[FIT_RES_COUNT] = {
    [FIT_RES_NONE] = "none",
    [FIT_RES_RD] = "registers_rd",
    [FIT_RES_FD] = "registers_fd",
    [FIT_RES_ID] = "registers_id",
    [FIT_RES_OD] = "registers_od",
    [FIT_RES_FD_DEPTH] = "fd_depth",
    [FIT_RES_FIFO_DEPTH] = "fifo_depth",
    [FIT_RES_IMEM] = "instruction_memory",
    [FIT_RES_BRANCH] = "branch_levels",
    [FIT_RES_FU] = "functional_units",
    [FIT_RES_PORTS] = "ports",
    [FIT_RES_IO_BANKS] = "io_banks",
    [FIT_RES_IO_CHANNELS] = "io_channels",
    [FIT_RES_BANK_DEPTH] = "bank_depth",
    [FIT_RES_SIGNALS] = "control_signals",
    [FIT_RES_GC_TERMS] = "gc_terms",
    [FIT_RES_CONSTRAINTS] = "constraints",
    [FIT_RES_ENABLE_FORM] = "enable_form",
    [FIT_RES_LOOP_DIMS] = "loop_dimensions",
    [FIT_RES_REGION_DIMS] = "region_dimensions",
    [FIT_RES_ARRAY_ROWS] = "array_rows",
    [FIT_RES_ARRAY_COLS] = "array_cols",
    [FIT_RES_SCHEDULE] = "schedule",
    [FIT_RES_CHANNEL_ORDER] = "channel_order",
    [FIT_RES_START_DELAY] = "start_delay",
    [FIT_RES_TILE] = "tile_size",
    [FIT_RES_ENCODING] = "encoding",
    [FIT_RES_CFG] = "cfg_successors",
};

void fit_record_clear(fit_record *r) {
  r->n = 0;
  r->note[0] = '\0';
}

/* Returns the item appended to r with its fields (text from fmt, ap). */
static fit_item *fit_record_vadd(fit_record *r, fit_resource res, const char *key, int64_t need, int64_t have,
                                 const char *where, const char *fmt, va_list ap) {
  if (r->n >= FIT_MAX_ITEMS) return NULL;
  fit_item *it = &r->item[r->n++];
  it->res = res;
  snprintf(it->key, sizeof it->key, "%s", key ? key : "");
  it->need = need;
  it->have = have;
  /* a region's rows and columns are what was asked for: any mapping on
   * that region needs them (docs/symbolic.md "Lower bounds") */
  it->bound = res == FIT_RES_ARRAY_ROWS || res == FIT_RES_ARRAY_COLS ? need : -1;
  snprintf(it->where, sizeof it->where, "%s", where ? where : "");
  vsnprintf(it->text, sizeof it->text, fmt, ap);
  return it;
}

fit_item *fit_record_add(fit_record *r, fit_resource res, const char *key, int64_t need, int64_t have,
                         const char *where, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fit_item *it = fit_record_vadd(r, res, key, need, have, where, fmt, ap);
  va_end(ap);
  return it;
}

int fit_nofit(fit_record *r, char *msg, size_t msgsz, fit_resource res, const char *key, int64_t need,
              int64_t have, const char *where, const char *fmt, ...) {
  fit_record_clear(r);
  va_list ap;
  va_start(ap, fmt);
  fit_record_vadd(r, res, key, need, have, where, fmt, ap);
  va_end(ap);
  if (msg && msgsz) fit_record_format(r, msg, msgsz);
  return FIT_ERR_NOFIT;
}

char *fit_record_format(const fit_record *r, char *buf, size_t n) {
  size_t len = 0;
  if (!n) return buf;
  buf[0] = '\0';
  for (int i = 0; i < r->n && len < n; i++) {
    len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? "; " : "", r->item[i].text);
    if (len < n && r->item[i].bound >= 0)
      len += (size_t)snprintf(buf + len, n - len, " (any mapping needs at least %lld)", (long long)r->item[i].bound);
  }
  if (len < n && r->note[0]) snprintf(buf + len, n - len, "%s", r->note);
  return buf;
}

int fit_record_has(const fit_record *r, fit_resource res) {
  for (int i = 0; i < r->n; i++)
    if (r->item[i].res == res) return 1;
  return 0;
}

int fit_record_only(const fit_record *r, const fit_resource *set, int n) {
  if (!r->n) return 0;
  for (int i = 0; i < r->n; i++) {
    int k = 0;
    while (k < n && set[k] != r->item[i].res) k++;
    if (k == n) return 0;
  }
  return 1;
}

const fit_item *fit_record_closest(const fit_record *r) {
  const fit_item *best = NULL;
  for (int i = 0; i < r->n; i++) {
    const fit_item *it = &r->item[i];
    if (it->need < 0 || it->have < 0) continue;
    if (!best || it->need - it->have < best->need - best->have) best = it;
  }
  return best ? best : r->n ? &r->item[0] : NULL;
}

void fit_record_bound(fit_record *r, fit_resource res, const char *key, int64_t bound) {
  for (int i = 0; i < r->n; i++) {
    fit_item *it = &r->item[i];
    if (it->res == res && (!key || !strcmp(it->key, key)) && bound > it->bound) it->bound = bound;
  }
}

int fit_record_at_bound(const fit_record *r) {
  for (int i = 0; i < r->n; i++)
    if (r->item[i].bound >= 0 && r->item[i].have >= 0 && r->item[i].bound > r->item[i].have) return 1;
  return 0;
}

const char *fit_resource_name(fit_resource res) {
  return res >= 0 && res < FIT_RES_COUNT && fit_names[res] ? fit_names[res] : "none";
}

fit_resource fit_resource_parse(const char *s) {
  for (int k = 1; s && k < FIT_RES_COUNT; k++)
    if (!strcmp(fit_names[k], s)) return (fit_resource)k;
  return FIT_RES_NONE;
}
