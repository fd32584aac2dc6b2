/*
 * signoff_nofit.c: what the sign-off report says about a run that does not
 * fit, read from the run's no-fit record (compiler/map/fit.h: every
 * resource that ran out, with its configuration key, need, availability
 * and where), which `tcpa run` writes into summary.json and `tcpa regress`
 * keeps per run. Nothing here reads the message: it is only shown.
 *
 * A run fits when it was mapped and instantiated (pass, fail, timeout,
 * crash); the cell of the report's fit table names the resources of a run
 * that does not (signoff_fit_cell), and says "fits (row)" or "fits
 * (column)" for a program of one loop dimension that ran on the first row
 * or column of an RxC region (summary.json's line), not a 2-D tiling.
 * The change that makes a run fit (signoff_nofit_change) raises every key
 * that ran out, to the value that covers the need: one key when one
 * resource ran out, all of them when several did.
 */
#include "signoff_nofit.h"

#include <stdio.h>
#include <string.h>

#include "regress.h"

const char *signoff_nofit_resource(const fit_item *it, char *buf, size_t n) {
  if (it->key[0]) {
    snprintf(buf, n, "%s", it->key);
    return buf;
  }
  snprintf(buf, n, "%s", fit_resource_name(it->res));
  for (char *p = buf; *p; p++)
    if (*p == '_') *p = ' ';
  return buf;
}

/* Returns the item of r of resource res with the smallest shortfall (the
 * side closest to fitting, for I/O channels), else its first. */
static const fit_item *nofit_closest_of(const fit_record *r, fit_resource res) {
  const fit_item *best = NULL;
  for (int i = 0; i < r->n; i++) {
    const fit_item *it = &r->item[i];
    if (it->res != res) continue;
    if (!best || (it->need >= 0 && it->have >= 0 &&
                  (best->need < 0 || best->have < 0 || it->need - it->have < best->need - best->have)))
      best = it;
  }
  return best;
}

int signoff_nofit_items(const fit_record *r, const fit_item **out, int max) {
  int n = 0;
  for (int i = 0; r && i < r->n && n < max; i++) {
    int seen = 0;
    for (int j = 0; j < i; j++) seen |= r->item[j].res == r->item[i].res;
    if (!seen) out[n++] = nofit_closest_of(r, r->item[i].res);
  }
  return n;
}

/* Returns the value key of item it must be raised to for it to fit:
 * need for a count in the key's units, half of it rounded up for the
 * global controller's terms (2 x gc.signals) and an enable's constraints
 * (2 x gc.dims); -1 when the count is not in the key's units (I/O banks
 * and channels of every side, branch levels in II slots) or not a count. */
static int64_t nofit_target(const fit_item *it) {
  if (it->need < 0 || it->have < 0) return -1;
  switch (it->res) {
  case FIT_RES_GC_TERMS:
  case FIT_RES_CONSTRAINTS: return (it->need + 1) / 2;
  case FIT_RES_IO_BANKS:
  case FIT_RES_IO_CHANNELS:
  case FIT_RES_BRANCH: return -1;
  default: return it->need;
  }
}

char *signoff_nofit_change(const fit_record *r, char *buf, size_t n) {
  const fit_item *it[FIT_MAX_ITEMS];
  int k = signoff_nofit_items(r, it, FIT_MAX_ITEMS);
  buf[0] = '\0';
  for (int i = 0; i < k; i++)
    if (!it[i]->key[0]) {
      char res[64];
      snprintf(buf, n, "none: the %s is the program's", signoff_nofit_resource(it[i], res, sizeof res));
      return buf;
    }
  size_t len = 0;
  for (int i = 0; i < k && len < n; i++) {
    int64_t to = nofit_target(it[i]);
    len += (size_t)snprintf(buf + len, n - len, "%s%s", i == 0 ? "raise " : i == k - 1 ? " and " : ", ", it[i]->key);
    if (to >= 0 && len < n) len += (size_t)snprintf(buf + len, n - len, " to %lld", (long long)to);
  }
  return buf;
}

int signoff_fit_verdict(int v) {
  return v == REGRESS_PASS || v == REGRESS_FAIL || v == REGRESS_TIMEOUT || v == REGRESS_CRASH;
}

size_t signoff_fit_count(const regress_list *l) {
  size_t n = 0;
  for (size_t i = 0; i < l->n; i++) n += (size_t)signoff_fit_verdict(l->v[i].verdict);
  return n;
}

const char *signoff_fit_line(const char *line) {
  return !line ? NULL : !strncmp(line, "1x", 2) ? "row" : "column";
}

char *signoff_fit_cell(int v, const fit_record *nofit, const char *line, char *buf, size_t n) {
  if (signoff_fit_verdict(v)) {
    const char *on = signoff_fit_line(line);
    char fits[32];
    snprintf(fits, sizeof fits, on ? "fits (%s)" : "fits", on);
    if (v == REGRESS_PASS) snprintf(buf, n, "%s", fits);
    else snprintf(buf, n, "%s, %s", fits, regress_verdict_name((regress_verdict)v));
  } else if (v == REGRESS_NOFIT) {
    const fit_item *it[FIT_MAX_ITEMS];
    int k = signoff_nofit_items(nofit, it, FIT_MAX_ITEMS);
    size_t len = 0;
    buf[0] = '\0';
    if (!k) snprintf(buf, n, "does not fit");
    for (int i = 0; i < k && len < n; i++) {
      char res[64];
      signoff_nofit_resource(it[i], res, sizeof res);
      if (it[i]->need >= 0 && it[i]->have >= 0)
        len += (size_t)snprintf(buf + len, n - len, "%s%s %lld/%lld", i ? ", " : "", res, (long long)it[i]->need,
                                (long long)it[i]->have);
      else
        len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", res);
    }
  } else {
    snprintf(buf, n, "%s", v == REGRESS_INVALID ? "invalid" : "not run");
  }
  return buf;
}
