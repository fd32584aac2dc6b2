/*
 * sim_run.c: `tcpa sim STREAM.bin [--arch FILE] [--trace FILE]
 * [--max-cycles N] [--dump-banks DIR] [--fst FILE] [--stats]` after its options are
 * read (sim_run.h, cli_sim.c): runs a configuration stream on the
 * cycle-accurate C model (cmodel/model.h) and prints the cycle count, the
 * done status and the faults.
 *
 * The architecture is the embedded default unless --arch names an INI
 * file; the stream must carry its fingerprint. The trace (docs/trace.md)
 * and the bank dumps are written to temporary files renamed into place
 * once complete. --fst writes the model's own waveform (cmodel/model_fst.h:
 * the RTL's hierarchy and names; docs/trace.md). Exit status: 2 for an invalid stream, architecture or
 * option; 1 when the run does not finish within --max-cycles (default
 * 10^7) or raises a fault; 0 otherwise. --stats adds a line with the
 * stepping loop's cycles, started PEs, CPU seconds (clock_gettime of the
 * process's CPU clock around model_run alone: no start, no loading) and
 * PE-cycles per second (docs/testing.md "Simulator speed").
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "diag.h"
#include "model.h"
#include "model_fst.h"
#include "sim_run.h"
#include "stream.h"

/* Returns a FILE for a temporary file next to `path` (its name in tmp),
 * or NULL after printing why. */
static FILE *sim_tmp_open(const char *path, char *tmp, size_t tmpsz) {
  snprintf(tmp, tmpsz, "%s.tmp%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) diag_error_plain("sim: %s: cannot write: %s", path, strerror(errno));
  return f;
}

/* Returns 0 after closing f and renaming tmp to path; -1 (tmp removed)
 * after printing why. */
static int sim_tmp_close(FILE *f, const char *tmp, const char *path) {
  int bad = ferror(f);
  if (fclose(f) != 0) bad = 1;
  if (!bad && rename(tmp, path) == 0) return 0;
  diag_error_plain("sim: %s: cannot write: %s", path, strerror(errno));
  remove(tmp);
  return -1;
}

/* Returns 0 after writing the banks holding a nonzero word into dir. */
static int sim_dump(const model *m, const arch_config *cfg, const char *dir) {
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    diag_error_plain("sim: %s: cannot create directory: %s", dir, strerror(errno));
    return -1;
  }
  static const char sides[] = "nesw";
  for (int r = 0; r < cfg->rows; r++)
    for (int c = 0; c < cfg->cols; c++)
      for (int s = 0; s < 4; s++)
        for (int b = 0; b < cfg->banks; b++) {
          uint32_t v = 0, a;
          for (a = 0; a < (uint32_t)cfg->bank_depth; a++)
            if (model_bank_read(m, r, c, s, b, a, &v) || v) break;
          if (a == (uint32_t)cfg->bank_depth || !v) continue;
          char path[4096], tmp[4200];
          snprintf(path, sizeof path, "%s/bank_%d_%d_%c_%d.txt", dir, r, c, sides[s], b);
          FILE *f = sim_tmp_open(path, tmp, sizeof tmp);
          if (!f) return -1;
          for (a = 0; a < (uint32_t)cfg->bank_depth; a++)
            if (!model_bank_read(m, r, c, s, b, a, &v) && v)
              fprintf(f, "%u 0x%08x\n", a, v);
          if (sim_tmp_close(f, tmp, path)) return -1;
        }
  return 0;
}

/* Prints the result line and the faults to out; returns the exit status. */
static int sim_report(const model *m, const sim_opts *o, int timeout,
                          FILE *out) {
  uint64_t nf = model_faults(m, TRACE_FAULT_COUNT);
  if (timeout)
    fprintf(out, "%s: not done within %llu cycles\n", o->stream, o->max_cycles);
  else
    fprintf(out, "%s: done in %llu cycles\n", o->stream,
            (unsigned long long)model_cycles(m));
  if (nf) {
    fprintf(out, "faults: %llu (", (unsigned long long)nf);
    const char *sep = "";
    for (int k = 0; k < TRACE_FAULT_COUNT; k++) {
      uint64_t n = model_faults(m, (trace_fault_kind)k);
      if (!n) continue;
      fprintf(out, "%s%s %llu", sep, trace_fault_name((trace_fault_kind)k), (unsigned long long)n);
      sep = ", ";
    }
    fprintf(out, ")\n");
  }
  return timeout || nf ? SIM_FAIL : SIM_OK;
}

/* Returns the CPU seconds the process has used. */
static double sim_cpu_seconds(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)) return 0;
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Prints the --stats line of a run of m that stepped for `sec` CPU
 * seconds: cycles, started PEs, seconds, PE-cycles and cycles per second. */
static void sim_stats_print(const model *m, const arch_config *cfg, double sec, FILE *out) {
  int npe = 0;
  for (int r = 0; r < cfg->rows; r++)
    for (int c = 0; c < cfg->cols; c++) {
      model_pe_view v;
      if (!model_pe_state(m, r, c, &v) && v.started) npe++;
    }
  double cyc = (double)model_cycles(m);
  fprintf(out, "stats: cycles %llu pes %d step_seconds %.6f pe_cycles_per_s %.0f cycles_per_s %.0f\n",
          (unsigned long long)model_cycles(m), npe, sec, sec > 0 ? cyc * npe / sec : 0,
          sec > 0 ? cyc / sec : 0);
}

/* Returns a model loaded with the stream of o on its architecture (*cfg
 * set), or NULL after printing why. */
static model *sim_model_open(const sim_opts *o, arch_config *cfg) {
  if (o->arch ? arch_config_load(o->arch, cfg) : arch_config_load_default(cfg)) return NULL;
  uint8_t *buf = NULL;
  size_t len = 0;
  if (stream_file_load(o->stream, &buf, &len)) {
    diag_error_plain("sim: %s: cannot read the stream: %s", o->stream, strerror(errno));
    return NULL;
  }
  model_error err;
  model *m = model_new(cfg, buf, len, &err);
  free(buf);
  if (!m)
    diag_error_plain("sim: %s: invalid stream: %s (%s)", o->stream, err.msg,
                     stream_error_name(err.code));
  return m;
}

/* Returns the outcome of the request o (sim_run.h). */
int sim_run(const sim_opts *o) {
  arch_config cfg;
  model *m = sim_model_open(o, &cfg);
  if (!m) return SIM_INPUT;
  FILE *tf = NULL;
  char tmp[4200];
  int to_stdout = o->trace && !strcmp(o->trace, "-");
  if (o->trace) {
    tf = to_stdout ? stdout : sim_tmp_open(o->trace, tmp, sizeof tmp);
    if (!tf) {
      model_free(m);
      return SIM_INPUT;
    }
    model_set_trace_file(m, tf);
  }
  model_fst *w = NULL;
  if (o->fst) {
    char msg[512];
    if (!(w = model_fst_open(o->fst, &cfg, 0, msg, sizeof msg))) {
      diag_error_plain("sim: %s", msg);
      if (tf && !to_stdout) sim_tmp_close(tf, tmp, o->trace);
      model_free(m);
      return SIM_INPUT;
    }
    model_set_trace(m, model_fst_sink, w);
  }
  double t0 = sim_cpu_seconds();
  int timeout = w ? model_fst_run(m, w, o->max_cycles) : model_run(m, o->max_cycles);
  double step_sec = sim_cpu_seconds() - t0;
  int status = SIM_OK;
  char fmsg[512];
  if (w && model_fst_close(w, fmsg, sizeof fmsg)) {
    diag_error_plain("sim: %s", fmsg);
    status = SIM_INPUT;
  }
  if (tf && !to_stdout && sim_tmp_close(tf, tmp, o->trace)) status = SIM_INPUT;
  if (to_stdout) fflush(stdout);
  if (!status && o->dump && sim_dump(m, &cfg, o->dump)) status = SIM_INPUT;
  if (!status) status = sim_report(m, o, timeout, to_stdout ? stderr : stdout);
  if (o->stats && status != SIM_INPUT) sim_stats_print(m, &cfg, step_sec, to_stdout ? stderr : stdout);
  model_free(m);
  return status;
}
