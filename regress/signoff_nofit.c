/*
 * signoff_nofit.c: reads the resource, the need and the availability out
 * of the message of a run that does not fit, for the sign-off report.
 *
 * The messages are the tools' own (map_*.c, inst_*.c, engine_run.c); each
 * names the configuration key it ran out of and two numbers. Three shapes
 * are recognized before the general one:
 *   - I/O routing: "... channels needed N, available M; ..." once per side
 *     the access could be routed from: the side closest to fitting counts;
 *   - 1-D I/O banks per PE: "... banks needed N, available M (... min(iobuf.banks
 *     B, interconnect.ports P) ...)": the smaller of the two keys;
 *   - a program of too few loop dimensions for a 2-D region: "an RxC
 *     region tiles two loop dimensions ..., program 'P' has N": loop
 *     dimensions, 2 needed (a 1-D program runs on one line of the region
 *     instead, docs/user-guide.md `--pes`, so `tcpa run` no longer says it);
 *   - a region larger than the array ("--pes RxC: the region does not fit
 *     ..., which has R rows and C columns", "region RxC does not fit the
 *     RxC array"): array.rows or array.cols, the first one exceeded.
 * Otherwise the resource is the first configuration key (`pe.rd`,
 * `gc.signals`, ...) in the message, the need the number after "needs",
 * "need" or "holds up to" (or the first number before "need": "11
 * needed", "1 operation needs"),
 * and the availability the number after " is ", " = ", "at most " or
 * "which has " following the key.
 *
 * A run fits when it was mapped and instantiated (pass, fail, timeout,
 * crash); the cell of the report's fit table names the resource of a run
 * that does not (signoff_fit_cell), and says "fits (row)" or "fits
 * (column)" for a program of one loop dimension that ran on the first row
 * or column of an RxC region (summary.json's line), not a 2-D tiling.
 */
#include "signoff_nofit.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regress.h"

/* Returns the integer right after the first occurrence of one of the words
 * in s (skipping spaces), or -1. */
static long nofit_num_after(const char *s, const char *const *words) {
  for (int i = 0; words[i]; i++) {
    const char *p = strstr(s, words[i]);
    if (!p) continue;
    p += strlen(words[i]);
    while (*p == ' ') p++;
    if (isdigit((unsigned char)*p)) return strtol(p, NULL, 10);
  }
  return -1;
}

/* Returns 1 after filling r from the I/O routing clauses "channels needed
 * N, available M" of msg (the one with the smallest shortfall), else 0. */
static int nofit_io_channels(const char *msg, signoff_nofit *r) {
  static const char key[] = "channels needed ";
  int found = 0;
  for (const char *p = strstr(msg, key); p; p = strstr(p + 1, key)) {
    long need, have;
    if (sscanf(p + strlen(key), "%ld, available %ld", &need, &have) != 2) continue;
    if (!found || need - have < r->need - r->have) r->need = need, r->have = have;
    found = 1;
  }
  if (found) snprintf(r->resource, sizeof r->resource, "I/O channels");
  return found;
}

/* Returns 1 after filling r from the 1-D bank clause "banks needed N,
 * available M" of msg (inst_io.c), its resource the key of
 * "min(iobuf.banks B, interconnect.ports P)" that is smaller, else 0. */
static int nofit_io_banks(const char *msg, signoff_nofit *r) {
  const char *p = strstr(msg, "banks needed "), *q = strstr(msg, "min(iobuf.banks ");
  long need, have;
  int b = 0, ports = 0;
  if (!p || sscanf(p, "banks needed %ld, available %ld", &need, &have) != 2) return 0;
  if (!q || sscanf(q, "min(iobuf.banks %d, interconnect.ports %d)", &b, &ports) != 2) ports = b;
  snprintf(r->resource, sizeof r->resource, b <= ports ? "iobuf.banks" : "interconnect.ports");
  r->need = need;
  r->have = have;
  return 1;
}

/* Returns 1 after filling r for a program of fewer loop dimensions than
 * the region tiles ("... tiles two loop dimensions ..., program 'P' has
 * N"), else 0. */
static int nofit_region_dims(const char *msg, signoff_nofit *r) {
  const char *p = strstr(msg, "tiles two loop dimensions");
  const char *has = p ? strstr(p, "' has ") : NULL;
  if (!has) return 0;
  snprintf(r->resource, sizeof r->resource, "loop dimensions");
  r->need = 2;
  r->have = strtol(has + strlen("' has "), NULL, 10);
  return 1;
}

/* Returns 1 after filling r for a region larger than the array, else 0. */
static int nofit_region_size(const char *msg, signoff_nofit *r) {
  int pr, pc, ar, ac;
  const char *p = strstr(msg, "--pes "), *q = strstr(msg, "which has "), *g = strstr(msg, "region ");
  int ok = (p && q && sscanf(p, "--pes %dx%d", &pr, &pc) == 2 &&
            sscanf(q, "which has %d rows and %d columns", &ar, &ac) == 2) ||
           (g && sscanf(g, "region %dx%d does not fit the %dx%d array", &pr, &pc, &ar, &ac) == 4);
  if (!ok) return 0;
  int rows = pr > ar || pc <= ac;
  snprintf(r->resource, sizeof r->resource, rows ? "array.rows" : "array.cols");
  r->need = rows ? pr : pc;
  r->have = rows ? ar : ac;
  return 1;
}

/* Copies into r the first configuration key (section.key) named in msg. */
static void nofit_key(const char *msg, signoff_nofit *r) {
  static const char *const sections[] = {"pe.", "gc.", "iobuf.", "array.", "interconnect.", "latency.", NULL};
  for (int i = 0; sections[i] && !r->resource[0]; i++) {
    const char *p = strstr(msg, sections[i]);
    if (!p) continue;
    size_t k = 0;
    while ((isalnum((unsigned char)p[k]) || p[k] == '_' || p[k] == '.') && k + 1 < sizeof r->resource) k++;
    while (k && p[k - 1] == '.') k--;
    memcpy(r->resource, p, k);
    r->resource[k] = '\0';
  }
}

/* Returns the need: the number after "needs"/"need", else the first number
 * between the last ':' before "need" and that word ("11 needed"), or -1. */
static long nofit_need(const char *msg) {
  static const char *const need[] = {"needs ", "need ", "holds up to ", NULL};
  long n = nofit_num_after(msg, need);
  const char *w = strstr(msg, "need"), *from = msg;
  for (const char *p = msg; n < 0 && w && p < w; p++)
    if (*p == ':') from = p + 1;
  for (const char *p = from; n < 0 && w && p < w; p++)
    if (isdigit((unsigned char)*p)) n = strtol(p, NULL, 10);
  return n;
}

signoff_nofit signoff_nofit_parse(const char *msg) {
  signoff_nofit r = {"", -1, -1};
  if (!msg || nofit_io_channels(msg, &r) || nofit_io_banks(msg, &r) || nofit_region_dims(msg, &r) ||
      nofit_region_size(msg, &r))
    return r;
  nofit_key(msg, &r);
  static const char *const have[] = {" is ", " = ", "at most ", "which has ", NULL};
  r.need = nofit_need(msg);
  const char *after = r.resource[0] ? strstr(msg, r.resource) : NULL;
  r.have = after ? nofit_num_after(after, have) : -1;
  if (r.have < 0) r.have = nofit_num_after(msg, have);
  return r;
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

char *signoff_fit_cell(int v, const char *msg, const char *line, char *buf, size_t n) {
  if (signoff_fit_verdict(v)) {
    const char *on = signoff_fit_line(line);
    char fits[32];
    snprintf(fits, sizeof fits, on ? "fits (%s)" : "fits", on);
    if (v == REGRESS_PASS) snprintf(buf, n, "%s", fits);
    else snprintf(buf, n, "%s, %s", fits, regress_verdict_name((regress_verdict)v));
  } else if (v == REGRESS_NOFIT) {
    signoff_nofit nf = signoff_nofit_parse(msg);
    if (!nf.resource[0]) snprintf(buf, n, "does not fit");
    else if (nf.need >= 0 && nf.have >= 0) snprintf(buf, n, "%s %ld/%ld", nf.resource, nf.need, nf.have);
    else snprintf(buf, n, "%s", nf.resource);
  } else {
    snprintf(buf, n, "%s", v == REGRESS_INVALID ? "invalid" : "not run");
  }
  return buf;
}
