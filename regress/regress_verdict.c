/*
 * regress_verdict.c: verdicts and failure signatures (regress_verdict.h).
 *
 * Verdict: timed out -> timeout; killed by a signal, or an exit status
 * outside 0..3 -> crash; else exit 0 pass, 1 fail, 2 invalid, 3 nofit. The
 * run meets its expectation (ok) when: expect=any, pass or nofit; expect=
 * pass, pass; expect=nofit, nofit.
 *
 * Signature of a failure (docs/regress.md "Buckets"), in this order from
 * summary.json: a cosim divergence (check "divergence", from the fields
 * of its `divergence_record`: the event kind, the unit and its class, the
 * kind's pipeline stage, and value/missing/extra; the one-line
 * `divergence` is for people and never read: a divergence without a
 * record is "unrecorded"); else faults (check "faults"), differing outputs
 * ("outputs"), no done event ("done"), cycle counts other than the
 * schedule's ("cycles"), each with the engine as its stage; a failed run
 * without summary.json is "summary". Other verdicts: "invalid", "timeout",
 * "crash" (kind: the signal or the exit status), "nofit" (expected to
 * pass), "fits" (expected not to fit).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "regress_fit.h"
#include "regress_json.h"
#include "regress_verdict.h"

const char *regress_verdict_stage(const char *kind) {
  static const char *const map[][2] = {
      {"start", "control"},      {"sig", "control"},       {"step", "control"},    {"gc", "control"},
      {"issue", "issue"},        {"insn", "issue"},        {"halt", "issue"},      {"pop", "operand read"},
      {"fdrd", "operand read"},  {"wr", "write-back"},     {"rf", "write-back"},   {"flag", "write-back"},
      {"hop", "interconnect"},   {"push", "output"},       {"fifo", "interconnect"}, {"bank", "memory"},
      {"bankwr", "memory"},      {"ag", "memory"},         {"mem", "memory"},      {"fault", "fault"},
      {"done", "done"}};
  for (size_t i = 0; kind && i < sizeof map / sizeof *map; i++)
    if (!strcmp(kind, map[i][0])) return map[i][1];
  return "unknown";
}

/* Sets the fields of sig (freeing the old ones); unit_class NULL: "". */
static void verdict_sig_set(regress_signature *sig, const char *check, const char *kind, const char *unit,
                            const char *stage, const char *diff) {
  free(sig->check);
  free(sig->kind);
  free(sig->unit);
  free(sig->unit_class);
  free(sig->stage);
  free(sig->diff);
  sig->check = regress_strdup(check);
  sig->kind = regress_strdup(kind ? kind : "");
  sig->unit = regress_strdup(unit ? unit : "");
  sig->unit_class = regress_strdup("");
  sig->stage = regress_strdup(stage ? stage : "");
  sig->diff = regress_strdup(diff ? diff : "");
}

int regress_verdict_divergence(const regress_json *rec, regress_signature *sig) {
  static const char *const diffs[] = {"value", "missing", "extra"};
  const char *kind = rec && rec->type == REGRESS_JSON_OBJ ? regress_json_str(rec, "kind") : NULL;
  const char *unit = kind ? regress_json_str(rec, "unit") : NULL;
  const char *cls = kind ? regress_json_str(rec, "unit_class") : NULL;
  const char *diff = kind ? regress_json_str(rec, "diff") : NULL;
  int known = 0;
  for (size_t i = 0; diff && i < sizeof diffs / sizeof *diffs; i++) known |= !strcmp(diff, diffs[i]);
  if (!kind || !unit || !cls || !known) return -1;
  verdict_sig_set(sig, "divergence", kind, unit, regress_verdict_stage(kind), diff);
  free(sig->unit_class);
  sig->unit_class = regress_strdup(cls);
  return 0;
}

/* Returns the integer member key of o exactly, -1 when absent, null or
 * not an integer. */
static int64_t verdict_num(const regress_json *o, const char *key) {
  return regress_json_i64(o, key, -1);
}

/* Fills the signature of a failed run (exit 1) from its summary.json s. */
static void verdict_fail_signature(regress_run *r, const regress_json *s) {
  if (!s) {
    verdict_sig_set(&r->sig, "summary", "missing", "", r->engine, "");
    return;
  }
  if (regress_verdict_divergence(regress_json_get(s, "divergence_record"), &r->sig) == 0) return;
  if (regress_json_str(s, "divergence")) { /* diverged, but no record of it */
    verdict_sig_set(&r->sig, "divergence", "unrecorded", "", "unknown", "");
    return;
  }
  const char *check = "unknown";
  if (verdict_num(s, "faults") > 0) check = "faults";
  else if (verdict_num(s, "mismatches") > 0) check = "outputs";
  else if (verdict_num(s, "done_cycles") < 0 ||
           (!strcmp(r->engine, "cosim") && verdict_num(s, "rtl_done_cycles") < 0))
    check = "done";
  else if (verdict_num(s, "done_cycles") != verdict_num(s, "predicted_done_cycles") ||
           verdict_num(s, "cycles") != verdict_num(s, "predicted_cycles") ||
           (!strcmp(r->engine, "cosim") &&
            (verdict_num(s, "rtl_done_cycles") != verdict_num(s, "predicted_done_cycles") ||
             verdict_num(s, "rtl_cycles") != verdict_num(s, "predicted_cycles"))))
    check = "cycles";
  verdict_sig_set(&r->sig, check, "", "", r->engine, "");
}

/* Returns a malloc'ed message for people from the run's stderr.txt: its
 * first line with "error:" (without the "tcpa: error: " prefix); NULL when
 * none. Only shown: a run that does not fit takes its message from
 * summary.json's nofit_message (made from the record), and nothing is
 * decided on this text. */
static char *verdict_error_line(const regress_run *r) {
  char path[4200];
  snprintf(path, sizeof path, "%s/stderr.txt", r->dir);
  size_t len;
  char *text = fileio_read_all(path, &len), *msg = NULL;
  if (!text) return NULL;
  for (char *line = text; line && *line && !msg;) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = '\0';
    char *err = strstr(line, "error: ");
    if (err) msg = regress_strdup(err + 7);
    line = nl ? nl + 1 : NULL;
  }
  free(text);
  return msg;
}

/* Reads the numbers of the report from summary.json s, its line ([R, C])
 * as "RxC" and, for a run that passed on an engine, the seconds its
 * instantiation took (instantiate_seconds; -1 when absent or null). */
static void verdict_numbers(regress_run *r, const regress_json *s) {
  const regress_json *inst = regress_json_get(s, "instantiate_seconds");
  r->inst_seconds = r->verdict == REGRESS_PASS && inst && inst->type == REGRESS_JSON_NUM ? inst->num : -1;
  r->cycles = verdict_num(s, "cycles");
  r->pes_used = verdict_num(s, "pes_used");
  r->ii = verdict_num(s, "ii");
  r->config_bytes = verdict_num(s, "config_bytes");
  const regress_json *line = regress_json_get(s, "line");
  free(r->line);
  r->line = NULL;
  if (line && line->type == REGRESS_JSON_ARR && line->n == 2 && line->items[0].type == REGRESS_JSON_NUM &&
      line->items[1].type == REGRESS_JSON_NUM) {
    char buf[48];
    snprintf(buf, sizeof buf, "%dx%d", (int)line->items[0].num, (int)line->items[1].num);
    r->line = regress_strdup(buf);
  }
}

void regress_verdict_judge(regress_run *r, const regress_exit *x) {
  char path[4200], msg[512];
  regress_signature none = {0};
  verdict_sig_set(&r->sig, "", "", "", "", "");
  free(r->sig.check);
  r->sig.check = NULL; /* no signature unless one is set below */
  (void)none;
  r->exit_code = x->exit_code;
  r->term_signal = x->term_signal;
  r->seconds = x->seconds;
  if (x->timed_out) r->verdict = REGRESS_TIMEOUT;
  else if (x->term_signal || x->exit_code < 0 || x->exit_code > 3) r->verdict = REGRESS_CRASH;
  else r->verdict = (regress_verdict)(REGRESS_PASS + x->exit_code);
  snprintf(path, sizeof path, "%s/summary.json", r->dir);
  regress_json *s = r->verdict == REGRESS_PASS || r->verdict == REGRESS_FAIL || r->verdict == REGRESS_NOFIT
                        ? regress_json_load(path, msg, sizeof msg)
                        : NULL;
  r->inst_seconds = -1;
  if (s) verdict_numbers(r, s);
  free(r->message);
  free(r->nofit);
  r->nofit = r->verdict == REGRESS_NOFIT ? regress_fit_read(s, "nofit") : NULL;
  const char *nm = r->verdict == REGRESS_NOFIT ? regress_json_str(s, "nofit_message") : NULL;
  r->message = nm ? regress_strdup(nm) : verdict_error_line(r);
  switch (r->verdict) {
  case REGRESS_PASS: r->ok = r->expect != REGRESS_EXPECT_NOFIT; break;
  case REGRESS_NOFIT: r->ok = r->expect != REGRESS_EXPECT_PASS; break;
  default: r->ok = 0;
  }
  if (r->verdict == REGRESS_FAIL) verdict_fail_signature(r, s);
  else if (r->verdict == REGRESS_INVALID) verdict_sig_set(&r->sig, "invalid", "", "", "", "");
  else if (r->verdict == REGRESS_TIMEOUT) verdict_sig_set(&r->sig, "timeout", "", "", "", "");
  else if (r->verdict == REGRESS_CRASH) {
    char what[64];
    if (x->term_signal) snprintf(what, sizeof what, "signal %d", x->term_signal);
    else snprintf(what, sizeof what, "exit %d", x->exit_code);
    verdict_sig_set(&r->sig, "crash", what, "", "", "");
  } else if (!r->ok && r->verdict == REGRESS_NOFIT)
    verdict_sig_set(&r->sig, "nofit", "", "", "", "");
  else if (!r->ok && r->verdict == REGRESS_PASS)
    verdict_sig_set(&r->sig, "fits", "", "", "", "");
  regress_json_free(s);
}
