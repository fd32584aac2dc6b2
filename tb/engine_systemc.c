/*
 * engine_systemc.c: the `systemc` engine (`tcpa run --engine systemc`): the
 * Verilated RTL as a SystemC module beside the C model as an sc_module,
 * under the SystemC kernel, compared cycle by cycle in process by the
 * lockstep checker. That all happens in the harness `tcpa-sc`
 * (tb/sc_main.cpp, docs/rtl.md "SystemC"), run here as a subprocess:
 *
 *   tcpa-sc WORK/sc-config.bin --max-cycles N --report WORK/sc-report.txt
 *           --verdict WORK/sc-verdict.txt --trace-model MT --trace-rtl RT
 *           --dump-banks WORK/sc-banks --dump-model-banks WORK/sc-model-banks
 *           [--arch FILE]
 *
 * It stops at the first divergence. Its verdict file gives, per side, done,
 * the done cycles, the last bank write and the faults, where it stopped
 * and the cycles each side ran (out->lockstep, as cosim fills it), and at
 * a divergence its place and one-line description; its report file is the lockstep
 * report (the format of cosim). At a divergence the report is followed by
 * the lines of its unit, as cosim writes them (docs/trace.md "The unit of a
 * state event"): the divergence itself, as data, is found again by the
 * lockstep checker in the two trace files tcpa-sc wrote (it must be the
 * verdict's), and its unit asked of a C model loaded with the run's stream
 * (tb/divergence_replay.h); its FST names go to out->lockstep.div.unit, for
 * the save files. The outputs of both sides come from the
 * bank dumps (tcpa-rtl's format) through the configuration's placement;
 * engine_run.c checks them against the reference when the traces agree,
 * and at a divergence reruns tcpa-rtl to its end for the waveform around
 * it and the RTL's outputs, as for cosim (the verdict says where cycle 0
 * lies in tcpa-rtl's FST).
 *
 * Finding the binary: engine_harness.c ($TCPA_SC, or the harness cache:
 * the harness of the run's effective configuration, the current sources
 * and BUILD/lib/libtcpa.a, the model it links; built when missing;
 * docs/rtl.md "Harness cache").
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "divergence_replay.h"
#include "engine.h"
#include "lockstep.h"

#define SC_PATH 4096
#define SC_MAX_CYCLES_MIN 100000ull /* as engine_run.c's other engines */

/* Returns 0 after reading the verdict file path into the results and out
 * (diverged, divergence); -1 with msg when it is missing or malformed. */
static int engine_sc_verdict(const char *path, engine_outcome *out, char *msg, size_t msgsz) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, msgsz, "%.400s: cannot read the verdict of tcpa-sc: %s", path, strerror(errno));
    return -1;
  }
  char *line = NULL;
  size_t cap = 0;
  int status = 0, sides = 0, rc = 0;
  while (!rc && getline(&line, &cap, f) > 0) {
    line[strcspn(line, "\n")] = 0;
    char who[8] = "", *sp = strchr(line, ' ');
    const char *rest = sp ? sp + 1 : "";
    int done = 0, n = 0;
    uint64_t dc = 0, cy = 0, fa = 0;
    if (!strncmp(line, "status ", 7)) {
      status = !strcmp(rest, "agree") ? 1 : !strcmp(rest, "diverged") ? 2 : 0;
      out->diverged = status == 2;
    } else if (!strncmp(line, "side ", 5)) {
      if (sscanf(rest, "%7s %d %" SCNu64 " %" SCNu64 " %" SCNu64 "%n", who, &done, &dc, &cy, &fa, &n) != 5 ||
          rest[n] || (strcmp(who, "model") && strcmp(who, "rtl"))) {
        rc = -1;
        break;
      }
      engine_result *r = !strcmp(who, "model") ? &out->model : &out->rtl;
      r->done = done;
      r->done_cycles = dc;
      r->cycles = cy;
      r->faults = fa;
      sides++;
    } else if (!strncmp(line, "faults ", 7) && sscanf(rest, "%7s%n", who, &n) == 1 && rest[n] == ' ') {
      engine_result *r = !strcmp(who, "model") ? &out->model : &out->rtl;
      snprintf(r->fault_text, sizeof r->fault_text, "%s", rest + n + 1);
    } else if (!strncmp(line, "line ", 5)) {
      snprintf(out->divergence, sizeof out->divergence, "%s", rest);
      snprintf(out->lockstep.line, sizeof out->lockstep.line, "%s", rest);
    } else if (!strncmp(line, "stop ", 5)) {
      engine_lockstep *l = &out->lockstep;
      if (sscanf(rest, "%" SCNu64 " %" SCNu64 " %" SCNu64, &l->stop_cycle, &l->model_cycles, &l->rtl_cycles) != 3)
        rc = -1;
      out->lockstep_ran = !rc;
    } else if (!strncmp(line, "divergence ", 11)) {
      engine_divergence *d = &out->lockstep.div;
      if (sscanf(rest, "%" SCNu64 " %d %d", &d->cycle, &d->row, &d->col) != 3) rc = -1;
    } else if (!strncmp(line, "fst ", 4)) {
      engine_divergence *d = &out->lockstep.div;
      if (sscanf(rest, "%" SCNu64 " %" SCNu64, &d->t0, &d->period) != 2) rc = -1;
    } else if (!strncmp(line, "what ", 5)) {
      snprintf(out->lockstep.div.what, sizeof out->lockstep.div.what, "%s", rest);
    }
  }
  free(line);
  fclose(f);
  out->lockstep.stopped_early = out->diverged; /* tcpa-sc stops both sides there */
  if (rc || !status || sides != 2 || !out->lockstep_ran || (status == 2 && !out->divergence[0])) {
    snprintf(msg, msgsz, "%.400s: not a complete verdict of tcpa-sc", path);
    return -1;
  }
  return 0;
}

/* The unit lines a copy of tcpa-sc's report is followed by
 * (engine_sc_unit_write): the trace files, the architecture, the run. */
typedef struct {
  const char *mt, *rt;
  const arch_config *arch;
  engine_outcome *out;
} engine_sc_unit;

/* Writes to f the lines of the unit of tcpa-sc's divergence: the
 * divergence found again in the trace files u->mt and u->rt by the
 * lockstep checker, its unit asked of the run's stream
 * (divergence_replay_unit), its FST names into out->lockstep.div.unit and
 * the checker's record into out->lockstep.div.rec (tcpa-sc's verdict file
 * names the divergence only in words); a note instead, and no record,
 * when the traces do not give the verdict's divergence. */
static void engine_sc_unit_write(FILE *f, const engine_sc_unit *u) {
  char msg[600] = "";
  lockstep *ls = lockstep_new(LOCKSTEP_KINDS_ALL, LOCKSTEP_WINDOW_DEFAULT);
  lockstep_fst_timing timing;
  engine_divergence *ed = &u->out->lockstep.div;
  if (!ls) {
    snprintf(msg, sizeof msg, "out of memory");
  } else if (lockstep_files_check(ls, u->mt, u->rt, &timing) == LOCKSTEP_DIVERGED) {
    const lockstep_divergence *d = lockstep_result(ls);
    if (d->cycle != ed->cycle || d->row != ed->row || d->col != ed->col)
      snprintf(msg, sizeof msg, "the traces diverge at cycle %" PRIu64 ", PE (%d,%d), not where tcpa-sc stopped",
               d->cycle, d->row, d->col);
    else {
      ed->rec = *d;
      divergence_replay_unit(f, d, u->arch, &u->out->c, ed->unit, sizeof ed->unit, msg, sizeof msg);
    }
  } else {
    snprintf(msg, sizeof msg, "the traces %.200s and %.200s do not diverge: %.100s", u->mt, u->rt,
             lockstep_status_get(ls) == LOCKSTEP_ERROR ? lockstep_error_message(ls) : "they agree");
  }
  if (msg[0]) fprintf(f, "  unit:              (not found: %s)\n", msg);
  lockstep_free(ls);
}

/* Returns 0 after copying file `from` to `to` through `to`.tmp and a
 * rename (to NULL: nothing), followed by the unit's lines of u (NULL:
 * none); -1. */
static int engine_sc_copy(const char *from, const char *to, const engine_sc_unit *u) {
  if (!to) return 0;
  char tmp[SC_PATH + 40];
  snprintf(tmp, sizeof tmp, "%s.tmp", to);
  FILE *in = fopen(from, "rb"), *o = fopen(tmp, "wb");
  char buf[4096];
  size_t n;
  int bad = !in || !o;
  while (!bad && (n = fread(buf, 1, sizeof buf, in)) > 0) bad = fwrite(buf, 1, n, o) != n;
  if (in) fclose(in);
  if (!bad && u) engine_sc_unit_write(o, u);
  if (o && fclose(o)) bad = 1;
  if (bad || rename(tmp, to)) {
    remove(tmp);
    diag_error_plain("%s: cannot write: %s", to, strerror(errno));
    return -1;
  }
  return 0;
}

/* Prints the report file `report` of a divergence on stderr. */
static void engine_sc_report_print(const char *report) {
  FILE *f = fopen(report, "r");
  char buf[4096];
  size_t n;
  while (f && (n = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, n, stderr);
  if (f) fclose(f);
}

/* Returns the status after running tcpa-sc `bin` on the stream in work and
 * reading back its verdict and outputs into out. */
static int engine_sc_exec(const char *bin, const arch_config *arch, const engine_run_opts *o,
                          const char *work, engine_outcome *out) {
  char stream[SC_PATH + 32], report[SC_PATH + 32], verdict[SC_PATH + 32], mt[SC_PATH + 32],
      rt[SC_PATH + 32], banks[SC_PATH + 32], mbanks[SC_PATH + 32], log[SC_PATH + 32], maxc[32],
      msg[600] = "", last[600], divtxt[SC_PATH + 32];
  const char *dir = o->out_dir ? o->out_dir : work;
  snprintf(stream, sizeof stream, "%s/sc-config.bin", work);
  snprintf(report, sizeof report, "%s/sc-report.txt", work);
  snprintf(verdict, sizeof verdict, "%s/sc-verdict.txt", work);
  snprintf(banks, sizeof banks, "%s/sc-banks", work);
  snprintf(mbanks, sizeof mbanks, "%s/sc-model-banks", work);
  snprintf(log, sizeof log, "%s/sc.log", work);
  snprintf(divtxt, sizeof divtxt, "%s/sc-divergence.txt", work);
  snprintf(mt, sizeof mt, "%s/model.trace", dir);
  snprintf(rt, sizeof rt, "%s/rtl.trace", dir);
  snprintf(maxc, sizeof maxc, "%llu", (unsigned long long)(out->c.pred_done * 4 + SC_MAX_CYCLES_MIN));
  FILE *f = fopen(stream, "wb");
  int bad = !f || fwrite(out->c.stream, 1, out->c.stream_len, f) != out->c.stream_len;
  if (f && fclose(f)) bad = 1;
  if (bad) {
    diag_error_plain("systemc: %s: cannot write the stream: %s", stream, strerror(errno));
    return ENGINE_ERR_INPUT;
  }
  char *argv[24] = {(char *)bin, stream, "--max-cycles", maxc, "--report", report, "--verdict", verdict,
                    "--trace-model", mt, "--trace-rtl", rt, "--dump-banks", banks,
                    "--dump-model-banks", mbanks};
  int n = 16;
  if (o->arch_path) {
    argv[n++] = "--arch";
    argv[n++] = (char *)o->arch_path;
  }
  argv[n] = NULL;
  int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  int rc = engine_harness_spawn(argv, fd, fd);
  if (fd >= 0) close(fd);
  if (rc < 0 || rc >= 2) {
    engine_harness_last_line(log, last, sizeof last);
    diag_error_plain("systemc: %s exited with status %d%s%s", bin, rc, last[0] ? ": " : "", last);
    return ENGINE_ERR_INPUT;
  }
  if (engine_result_init(&out->model, &out->c) || engine_result_init(&out->rtl, &out->c)) {
    diag_error_plain("systemc: out of memory");
    return ENGINE_ERR_INPUT;
  }
  if (engine_sc_verdict(verdict, out, msg, sizeof msg)) {
    diag_error_plain("systemc: %s", msg);
    return ENGINE_ERR_INPUT;
  }
  out->ran_model = out->ran_rtl = 1;
  if (out->diverged) {
    char *txt = NULL;
    diag_error_plain("systemc: the model and the RTL diverge: %s", out->divergence);
    engine_sc_unit u = {mt, rt, arch, out};
    if (engine_sc_copy(report, divtxt, &u)) return ENGINE_ERR_INPUT;
    engine_sc_report_print(divtxt);
    if (o->out_dir && (txt = malloc(strlen(o->out_dir) + 32)))
      sprintf(txt, "%s/divergence.txt", o->out_dir);
    int st = o->out_dir && (!txt || engine_sc_copy(divtxt, txt, NULL)) ? ENGINE_ERR_INPUT : ENGINE_MISMATCH;
    free(txt);
    return st;
  }
  char gmsg[128];
  if (engine_rtl_gather(mbanks, &out->c, arch, &out->model, gmsg, sizeof gmsg) ||
      engine_rtl_gather(banks, &out->c, arch, &out->rtl, gmsg, sizeof gmsg)) {
    diag_error_plain("systemc: %s", gmsg);
    return ENGINE_ERR_INPUT;
  }
  return ENGINE_OK;
}

int engine_systemc_run(const arch_config *arch, const engine_run_opts *o, const char *work, engine_outcome *out) {
  char bin[SC_PATH + 512], msg[1024] = "";
  if (o->out_dir) {
    static const char *const stale[] = {"divergence.txt", "divergence.gtkw", "rtl.fst", "model.fst"};
    for (int i = 0; i < 4; i++) {
      char path[SC_PATH + 32];
      snprintf(path, sizeof path, "%s/%s", o->out_dir, stale[i]);
      remove(path); /* files of an earlier run must not pass for this one's */
    }
  }
  if (engine_harness_locate(&engine_harness_sc, arch, o->arch_path, bin, sizeof bin, msg, sizeof msg)) {
    diag_error_plain("%s", msg);
    return ENGINE_ERR_INPUT;
  }
  return engine_sc_exec(bin, arch, o, work, out);
}
