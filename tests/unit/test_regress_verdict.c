/* covers: docs/regress.md "Verdicts and buckets", docs/user-guide.md
 *   "summary.json" */
/*
 * test_regress_verdict.c: the failure signature and bucket of a cosim
 * divergence (regress/regress_verdict.c, regress_report_bucket_key) from
 * the record of the divergence as `tcpa run` writes it into summary.json
 * (tb/divergence_unit.c divergence_record_json), never from its one-line
 * text. Table: one row per trace event kind and per difference (value,
 * missing, extra): a pair of events goes through the real lockstep
 * checker (tb/lockstep.h), its record is written as JSON, read back
 * (regress_json) and turned into a signature; each row names the kind,
 * the unit class, the stage, the diff and the bucket key, and two rows of
 * one root cause at other coordinates share a key. Then
 * regress_verdict_judge on a run directory whose summary.json keeps the
 * record while its human-readable line is reworded gives the same
 * signature; a line without a record is "unrecorded", never parsed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "divergence_unit.h"
#include "json.h"
#include "lockstep.h"
#include "regress.h"
#include "regress_json.h"
#include "regress_report.h"
#include "regress_verdict.h"
#include "test.h"

#define FP 0x1f2e3d4c5b6a7988ull

/* One row: the model's event and the RTL's (has_*: present; a value
 * divergence has both, the same slot), and what the signature must be. */
typedef struct {
  int has_m, has_r;
  trace_event m, r;
  const char *kind, *unit_class, *stage, *diff, *key;
} verdict_case;

#define EV(...) ((trace_event){__VA_ARGS__})

static const verdict_case cases[] = {
    {1, 1, EV(.cycle = 3, .kind = TRACE_ISSUE, .row = 0, .col = 1, .fu = 2, .pc = 4),
     EV(.cycle = 3, .kind = TRACE_ISSUE, .row = 0, .col = 1, .fu = 2, .pc = 5), "issue", "FU", "issue", "value",
     "divergence: issue FU @ issue (value)"},
    {1, 1, EV(.cycle = 3, .kind = TRACE_INSN, .row = 1, .col = 0, .fu = 0, .word = {1, 0, 0, 0}),
     EV(.cycle = 3, .kind = TRACE_INSN, .row = 1, .col = 0, .fu = 0, .word = {2, 0, 0, 0}), "insn", "FU", "issue",
     "value", "divergence: insn FU @ issue (value)"},
    {1, 0, EV(.cycle = 9, .kind = TRACE_HALT, .row = 0, .col = 0, .fu = 1), EV(0), "halt", "FU", "issue", "missing",
     "divergence: halt FU @ issue (missing)"},
    {0, 1, EV(0), EV(.cycle = 4, .kind = TRACE_FLAG, .row = 0, .col = 0, .fu = 1, .value = 1), "flag", "FU",
     "write-back", "extra", "divergence: flag FU @ write-back (extra)"},
    {1, 1, EV(.cycle = 12, .kind = TRACE_WR, .row = 0, .col = 1, .fu = 1, .reg_cls = 1, .reg_idx = 3, .value = 1),
     EV(.cycle = 12, .kind = TRACE_WR, .row = 0, .col = 1, .fu = 1, .reg_cls = 1, .reg_idx = 3, .value = 2), "wr",
     "FU -> rd", "write-back", "value", "divergence: wr FU -> rd @ write-back (value)"},
    /* the same root cause at another PE, FU and register: the same key */
    {1, 1, EV(.cycle = 40, .kind = TRACE_WR, .row = 2, .col = 3, .fu = 0, .reg_cls = 1, .reg_idx = 7, .value = 1),
     EV(.cycle = 40, .kind = TRACE_WR, .row = 2, .col = 3, .fu = 0, .reg_cls = 1, .reg_idx = 7, .value = 9), "wr",
     "FU -> rd", "write-back", "value", "divergence: wr FU -> rd @ write-back (value)"},
    {1, 0, EV(.cycle = 5, .kind = TRACE_WR, .row = 0, .col = 0, .fu = 1, .reg_cls = 4, .reg_idx = 1, .value = 1),
     EV(0), "wr", "FU -> od", "write-back", "missing", "divergence: wr FU -> od @ write-back (missing)"},
    {1, 0, EV(.cycle = 6, .kind = TRACE_POP, .row = 0, .col = 1, .reg_cls = 3, .reg_idx = 2, .value = 5), EV(0), "pop",
     "id", "operand read", "missing", "divergence: pop id @ operand read (missing)"},
    {1, 1, EV(.cycle = 6, .kind = TRACE_FDRD, .row = 0, .col = 1, .reg_cls = 2, .reg_idx = 0, .value = 5),
     EV(.cycle = 6, .kind = TRACE_FDRD, .row = 0, .col = 1, .reg_cls = 2, .reg_idx = 0, .value = 6), "fdrd", "fd",
     "operand read", "value", "divergence: fdrd fd @ operand read (value)"},
    {1, 1, EV(.cycle = 8, .kind = TRACE_RF, .row = 0, .col = 0, .reg_cls = 1, .reg_idx = 1, .value = 5),
     EV(.cycle = 8, .kind = TRACE_RF, .row = 0, .col = 0, .reg_cls = 1, .reg_idx = 1, .value = 4), "rf", "rd",
     "write-back", "value", "divergence: rf rd @ write-back (value)"},
    {0, 1, EV(0), EV(.cycle = 8, .kind = TRACE_PUSH, .row = 0, .col = 0, .reg_cls = 4, .reg_idx = 0, .value = 4),
     "push", "od", "output", "extra", "divergence: push od @ output (extra)"},
    {1, 1, EV(.cycle = 8, .kind = TRACE_FIFO, .row = 1, .col = 1, .reg_cls = 3, .reg_idx = 1, .num = 2),
     EV(.cycle = 8, .kind = TRACE_FIFO, .row = 1, .col = 1, .reg_cls = 3, .reg_idx = 1, .num = 3), "fifo", "id",
     "interconnect", "value", "divergence: fifo id @ interconnect (value)"},
    {1, 0, EV(.cycle = 7, .kind = TRACE_HOP, .row = 0, .col = 0, .side = 1, .port = 0, .value = 1), EV(0), "hop",
     "port", "interconnect", "missing", "divergence: hop port @ interconnect (missing)"},
    {1, 1, EV(.cycle = 2, .kind = TRACE_BANK, .row = 0, .col = 0, .side = 0, .port = 0, .addr = 1, .value = 1),
     EV(.cycle = 2, .kind = TRACE_BANK, .row = 0, .col = 0, .side = 0, .port = 0, .addr = 1, .value = 0), "bank",
     "bank", "memory", "value", "divergence: bank bank @ memory (value)"},
    /* the same bank fault at the west bank 2 of another PE: the same key */
    {1, 1, EV(.cycle = 2, .kind = TRACE_BANK, .row = 1, .col = 0, .side = 3, .port = 2, .addr = 1, .value = 1),
     EV(.cycle = 2, .kind = TRACE_BANK, .row = 1, .col = 0, .side = 3, .port = 2, .addr = 1, .value = 0), "bank",
     "bank", "memory", "value", "divergence: bank bank @ memory (value)"},
    {0, 1, EV(0), EV(.cycle = 2, .kind = TRACE_BANKWR, .row = 0, .col = 0, .side = 2, .port = 1, .addr = 3, .value = 1),
     "bankwr", "bank", "memory", "extra", "divergence: bankwr bank @ memory (extra)"},
    {1, 1, EV(.cycle = 2, .kind = TRACE_AG, .row = 0, .col = 0, .side = 0, .port = 0, .addr = 1),
     EV(.cycle = 2, .kind = TRACE_AG, .row = 0, .col = 0, .side = 0, .port = 0, .addr = 2), "ag", "bank", "memory",
     "value", "divergence: ag bank @ memory (value)"},
    {1, 1, EV(.cycle = 20, .kind = TRACE_MEM, .row = 0, .col = 0, .side = 2, .port = 1, .addr = 5, .value = 1),
     EV(.cycle = 20, .kind = TRACE_MEM, .row = 0, .col = 0, .side = 2, .port = 1, .addr = 5, .value = 3), "mem", "bank",
     "memory", "value", "divergence: mem bank @ memory (value)"},
    {1, 1, EV(.cycle = 4, .kind = TRACE_STEP, .row = 0, .col = 1, .num = 3),
     EV(.cycle = 4, .kind = TRACE_STEP, .row = 0, .col = 1, .num = 4), "step", "step counter", "control", "value",
     "divergence: step step counter @ control (value)"},
    {1, 1, EV(.cycle = 4, .kind = TRACE_GC, .row = -1, .col = -1, .num = 3, .value = 1),
     EV(.cycle = 4, .kind = TRACE_GC, .row = -1, .col = -1, .num = 3, .value = 5), "gc", "global controller",
     "control", "value", "divergence: gc global controller @ control (value)"},
    {1, 1, EV(.cycle = 4, .kind = TRACE_SIG, .row = 0, .col = 0, .value = 1),
     EV(.cycle = 4, .kind = TRACE_SIG, .row = 0, .col = 0, .value = 3), "sig", "control signals", "control", "value",
     "divergence: sig control signals @ control (value)"},
    {1, 0, EV(.cycle = 0, .kind = TRACE_START, .row = 0, .col = 1), EV(0), "start", "", "control", "missing",
     "divergence: start @ control (missing)"},
    {0, 1, EV(0), EV(.cycle = 9, .kind = TRACE_FAULT, .row = 0, .col = 0, .fault = TRACE_FAULT_UNDERFLOW, .detail = "id2"),
     "fault", "underflow", "fault", "extra", "divergence: fault underflow @ fault (extra)"},
    {1, 0, EV(.cycle = 30, .kind = TRACE_DONE, .row = -1, .col = -1, .cycles = 30), EV(0), "done", "", "done",
     "missing", "divergence: done @ done (missing)"},
};

/* Returns the checker's record of the row's pair of events in *d (0), or
 * -1 when it finds no divergence. */
static int case_diverge(const verdict_case *c, lockstep_divergence *d) {
  lockstep *ls = lockstep_new(LOCKSTEP_KINDS_ALL, 4);
  lockstep_header(ls, LOCKSTEP_MODEL, TRACE_VERSION, FP);
  lockstep_header(ls, LOCKSTEP_RTL, TRACE_VERSION, FP);
  if (c->has_m) lockstep_feed_model(ls, &c->m);
  if (c->has_r) lockstep_feed_rtl(ls, &c->r);
  int rc = lockstep_finish(ls) == LOCKSTEP_DIVERGED ? 0 : -1;
  if (!rc) *d = *lockstep_result(ls);
  lockstep_free(ls);
  return rc;
}

/* Returns the malloc'ed JSON text of an object holding d as member key. */
static char *case_json(const char *key, const lockstep_divergence *d) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  json_writer w = json_writer_make(f);
  json_writer_begin_object(&w, NULL);
  divergence_record_json(&w, key, d);
  json_writer_end_object(&w);
  fclose(f);
  return text;
}

/* Checks one row: record -> JSON -> signature -> bucket key. */
static void test_case(size_t i, const verdict_case *c) {
  lockstep_divergence d;
  if (!TEST_CHECK(case_diverge(c, &d) == 0, "row %zu (%s %s): the checker finds a divergence", i, c->kind, c->diff))
    return;
  char *text = case_json("divergence_record", &d), msg[200] = "";
  regress_json *j = regress_json_parse(text, msg, sizeof msg);
  const regress_json *rec = j ? regress_json_get(j, "divergence_record") : NULL;
  regress_signature sig = {0};
  int rc = regress_verdict_divergence(rec, &sig);
  char *key = rc ? NULL : regress_report_bucket_key(&sig);
  TEST_CHECK(rc == 0 && !strcmp(sig.check, "divergence") && !strcmp(sig.kind, c->kind) &&
                 !strcmp(sig.unit_class, c->unit_class) && !strcmp(sig.stage, c->stage) &&
                 !strcmp(sig.diff, c->diff) && !strcmp(sig.unit, d.unit) && key && !strcmp(key, c->key),
             "row %zu: %s %s -> kind %s, unit '%s' of class '%s', %s, %s; bucket '%s' (got %s, '%s', '%s', %s, %s, "
             "'%s')",
             i, c->kind, c->diff, c->kind, d.unit, c->unit_class, c->stage, c->diff, c->key, sig.kind ? sig.kind : "-",
             sig.unit_class ? sig.unit_class : "-", sig.unit ? sig.unit : "-", sig.stage ? sig.stage : "-",
             sig.diff ? sig.diff : "-", key ? key : "-");
  /* the place: cycle and PE as numbers (null for the machine) */
  const regress_json *pe = rec ? regress_json_get(rec, "pe") : NULL;
  int machine = d.row < 0;
  TEST_CHECK(rec && regress_json_i64(rec, "cycle", -1) == (int64_t)d.cycle &&
                 (machine ? pe && pe->type == REGRESS_JSON_NULL
                          : pe && pe->type == REGRESS_JSON_ARR && pe->n == 2 && pe->items[0].num == d.row &&
                                pe->items[1].num == d.col),
             "row %zu: divergence_record's cycle %llu and pe %s", i, (unsigned long long)d.cycle,
             machine ? "null" : "[row, col]");
  free(key);
  free(sig.check), free(sig.kind), free(sig.unit), free(sig.unit_class), free(sig.stage), free(sig.diff);
  regress_json_free(j);
  free(text);
}

/* The unit's coordinates in the record: FU, register, side and bank. */
static void test_fields(void) {
  lockstep_divergence d;
  case_diverge(&cases[4], &d); /* wr FU 1 -> rd3 at PE (0,1) */
  char *text = case_json("r", &d), msg[200];
  regress_json *j = regress_json_parse(text, msg, sizeof msg);
  const regress_json *r = j ? regress_json_get(j, "r") : NULL;
  TEST_CHECK(r && regress_json_i64(r, "fu", -1) == 1 && regress_json_str(r, "register") &&
                 !strcmp(regress_json_str(r, "register"), "rd3") && regress_json_get(r, "bank")->type == REGRESS_JSON_NULL &&
                 !strcmp(regress_json_str(r, "expected"), "12 wr 0,1 1 rd3 0x00000001") &&
                 !strcmp(regress_json_str(r, "got"), "12 wr 0,1 1 rd3 0x00000002"),
             "wr: fu 1, register rd3, no bank, both events in the trace's text");
  regress_json_free(j);
  free(text);
  case_diverge(&cases[17], &d); /* mem side s bank 1 address 5 */
  text = case_json("r", &d);
  j = regress_json_parse(text, msg, sizeof msg);
  r = j ? regress_json_get(j, "r") : NULL;
  TEST_CHECK(r && regress_json_str(r, "side") && !strcmp(regress_json_str(r, "side"), "s") &&
                 regress_json_i64(r, "bank", -1) == 1 && regress_json_i64(r, "address", -1) == 5 &&
                 regress_json_get(r, "fu")->type == REGRESS_JSON_NULL,
             "mem: side s, bank 1, address 5, no FU");
  regress_json_free(j);
  free(text);
  text = case_json("r", NULL);
  TEST_CHECK(strstr(text, "\"r\": null") != NULL, "no divergence: null");
  free(text);
}

/* Writes DIR/summary.json of a failed cosim run: the one-line divergence
 * `line` and, when rec is not NULL, its record. */
static void summary_write(const char *dir, const char *line, const lockstep_divergence *rec) {
  char path[300];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  FILE *f = fopen(path, "w");
  json_writer w = json_writer_make(f);
  json_writer_begin_object(&w, NULL);
  json_writer_string(&w, "status", "fail");
  json_writer_string(&w, "divergence", line);
  if (rec) divergence_record_json(&w, "divergence_record", rec);
  json_writer_uint(&w, "mismatches", 0);
  json_writer_uint(&w, "faults", 0);
  json_writer_end_object(&w);
  fclose(f);
}

/* Returns the malloc'ed signature text of the run in dir judged as exit 1. */
static char *judge(char *dir) {
  regress_run r = {0};
  r.dir = dir;
  r.engine = "cosim";
  regress_exit x = {1, 0, 0, 0.1};
  regress_verdict_judge(&r, &x);
  char *t = regress_signature_text(&r.sig), *k = regress_report_bucket_key(&r.sig);
  char *both = malloc(strlen(t) + strlen(k) + 4);
  sprintf(both, "%s | %s", t, k);
  free(t), free(k);
  free(r.sig.check), free(r.sig.kind), free(r.sig.unit), free(r.sig.unit_class), free(r.sig.stage),
      free(r.sig.diff), free(r.message), free(r.nofit), free(r.line);
  return both;
}

/* A reworded human-readable line changes neither signature nor bucket. */
static void test_reworded(void) {
  char dir[] = "/tmp/tcpa-verdict-XXXXXX";
  if (!TEST_CHECK(mkdtemp(dir) != NULL, "a temporary run directory")) return;
  lockstep_divergence d;
  case_diverge(&cases[13], &d); /* bank side n bank 0 */
  summary_write(dir, "cycle 2, PE (0,0), bank side n bank 0: different values; expected '...', got '...'", &d);
  char *a = judge(dir);
  summary_write(dir, "PE (9,9), hop side e port 0: missing in the RTL; extra in the RTL; error: wr FU 3", &d);
  char *b = judge(dir);
  summary_write(dir, "", &d);
  char *c = judge(dir);
  TEST_CHECK(!strcmp(a, "divergence: bank side n bank 0 @ memory (value) | divergence: bank bank @ memory (value)") &&
                 !strcmp(a, b) && !strcmp(a, c),
             "the line reworded (or empty), the record kept: the same signature and bucket ('%s', '%s', '%s')", a, b, c);
  summary_write(dir, "cycle 2, PE (0,0), bank side n bank 0: different values; expected '...', got '...'", NULL);
  char *u = judge(dir);
  TEST_CHECK(!strcmp(u, "divergence: unrecorded @ unknown | divergence: unrecorded @ unknown"),
             "the line without a record: unrecorded, the line not parsed ('%s')", u);
  free(a), free(b), free(c), free(u);
  char path[300];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  remove(path);
  rmdir(dir);
}

int main(void) {
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) test_case(i, &cases[i]);
  test_fields();
  test_reworded();
  return test_done();
}
