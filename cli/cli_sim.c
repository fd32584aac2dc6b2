/*
 * cli_sim.c: `tcpa sim STREAM.bin [--arch FILE] [--trace FILE]
 * [--max-cycles N] [--dump-banks DIR] [--fst FILE]`: runs a configuration stream on the
 * cycle-accurate C model (cmodel/model.h) and prints the cycle count, the
 * done status and the faults.
 *
 * The architecture is the embedded default unless --arch names an INI
 * file; the stream must carry its fingerprint. The trace (docs/trace.md)
 * and the bank dumps are written to temporary files renamed into place
 * once complete. --fst writes the model's own waveform (cmodel/model_fst.h:
 * the RTL's hierarchy and names; docs/trace.md). Exit status: 2 for an invalid stream, architecture or
 * option; 1 when the run does not finish within --max-cycles (default
 * 10^7) or raises a fault; 0 otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch.h"
#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "model.h"
#include "model_fst.h"
#include "stream.h"

#define CLI_SIM_MAX_CYCLES 10000000ull

typedef struct {
  const char *stream, *arch, *trace, *dump, *fst;
  unsigned long long max_cycles;
} cli_sim_opts;

/* Prints the usage of `tcpa sim` to `f`. */
static void cli_sim_usage(FILE *f) {
  fputs("usage: tcpa sim STREAM.bin [--arch FILE] [--trace FILE] [--max-cycles N]\n"
        "                [--dump-banks DIR] [--fst FILE]\n\n"
        "Runs the configuration stream STREAM.bin (docs/stream.md) on the\n"
        "cycle-accurate C model (docs/model.md) and prints the cycles, whether\n"
        "the run reached done and the faults it raised.\n\n"
        "  --arch FILE       architecture configuration (default: the embedded\n"
        "                    default); the stream must carry its fingerprint\n"
        "  --trace FILE      write the trace (docs/trace.md) to FILE ('-': stdout)\n"
        "  --max-cycles N    stop with a timeout fault after N cycles (default 10^7)\n"
        "  --dump-banks DIR  write every border bank holding a nonzero word to\n"
        "                    DIR/bank_R_C_SIDE_B.txt, lines 'ADDR 0xVALUE'\n"
        "  --fst FILE        write the model's waveform (FST, the RTL's signal names;\n"
        "                    docs/trace.md): cycle t at times 2t and 2t+1\n"
        "  -h, --help        print this help\n\n"
        "exit status: 0 done without fault, 1 timeout or fault, 2 invalid\n"
        "stream, architecture or option\n", f);
}

/* Returns 0 and fills *o, 1 for --help, -1 after printing the problem. */
static int cli_sim_parse(int argc, char **argv, cli_sim_opts *o) {
  enum { OPT_ARCH = CLI_OPT_LONG, OPT_TRACE, OPT_DUMP, OPT_FST, OPT_MAX };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},          {"arch", required_argument, NULL, OPT_ARCH},
      {"trace", required_argument, NULL, OPT_TRACE}, {"dump-banks", required_argument, NULL, OPT_DUMP},
      {"fst", required_argument, NULL, OPT_FST},  {"max-cycles", required_argument, NULL, OPT_MAX},
      {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  o->max_cycles = CLI_SIM_MAX_CYCLES;
  cli_opt p;
  cli_opt_init(&p, "sim", argc, argv, "h", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    int64_t n;
    switch (c) {
    case 'h': return 1;
    case OPT_ARCH: o->arch = p.arg; break;
    case OPT_TRACE: o->trace = p.arg; break;
    case OPT_DUMP: o->dump = p.arg; break;
    case OPT_FST: o->fst = p.arg; break;
    case OPT_MAX:
      if (cli_opt_int(&p, 1, INT64_MAX, "a number of cycles", &n)) return -1;
      o->max_cycles = (unsigned long long)n;
      break;
    case CLI_OPT_ARG:
      if (o->stream) {
        diag_error_plain("sim: more than one STREAM ('%s' and '%s')", o->stream, p.arg);
        return -1;
      }
      o->stream = p.arg;
      break;
    default: return -1;
    }
  }
  if (!o->stream) {
    diag_error_plain("sim: no STREAM.bin given (see 'tcpa sim --help')");
    return -1;
  }
  return 0;
}

/* Returns a FILE for a temporary file next to `path` (its name in tmp),
 * or NULL after printing why. */
static FILE *cli_sim_tmp_open(const char *path, char *tmp, size_t tmpsz) {
  snprintf(tmp, tmpsz, "%s.tmp%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) diag_error_plain("sim: %s: cannot write: %s", path, strerror(errno));
  return f;
}

/* Returns 0 after closing f and renaming tmp to path; -1 (tmp removed)
 * after printing why. */
static int cli_sim_tmp_close(FILE *f, const char *tmp, const char *path) {
  int bad = ferror(f);
  if (fclose(f) != 0) bad = 1;
  if (!bad && rename(tmp, path) == 0) return 0;
  diag_error_plain("sim: %s: cannot write: %s", path, strerror(errno));
  remove(tmp);
  return -1;
}

/* Returns 0 after writing the banks holding a nonzero word into dir. */
static int cli_sim_dump(const model *m, const arch_config *cfg, const char *dir) {
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
          FILE *f = cli_sim_tmp_open(path, tmp, sizeof tmp);
          if (!f) return -1;
          for (a = 0; a < (uint32_t)cfg->bank_depth; a++)
            if (!model_bank_read(m, r, c, s, b, a, &v) && v)
              fprintf(f, "%u 0x%08x\n", a, v);
          if (cli_sim_tmp_close(f, tmp, path)) return -1;
        }
  return 0;
}

/* Prints the result line and the faults to out; returns the exit status. */
static int cli_sim_report(const model *m, const cli_sim_opts *o, int timeout,
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
  return timeout || nf ? CLI_EXIT_MISMATCH : CLI_EXIT_OK;
}

int cli_sim(int argc, char **argv) {
  cli_sim_opts o;
  int rc = cli_sim_parse(argc, argv, &o);
  if (rc) {
    if (rc > 0) cli_sim_usage(stdout);
    return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT;
  }
  arch_config cfg;
  if (o.arch ? arch_config_load(o.arch, &cfg) : arch_config_load_default(&cfg))
    return CLI_EXIT_INPUT;
  uint8_t *buf = NULL;
  size_t len = 0;
  if (stream_file_load(o.stream, &buf, &len)) {
    diag_error_plain("sim: %s: cannot read the stream: %s", o.stream, strerror(errno));
    return CLI_EXIT_INPUT;
  }
  model_error err;
  model *m = model_new(&cfg, buf, len, &err);
  free(buf);
  if (!m) {
    diag_error_plain("sim: %s: invalid stream: %s (%s)", o.stream, err.msg,
                     stream_error_name(err.code));
    return CLI_EXIT_INPUT;
  }
  FILE *tf = NULL;
  char tmp[4200];
  int to_stdout = o.trace && !strcmp(o.trace, "-");
  if (o.trace) {
    tf = to_stdout ? stdout : cli_sim_tmp_open(o.trace, tmp, sizeof tmp);
    if (!tf) {
      model_free(m);
      return CLI_EXIT_INPUT;
    }
    model_set_trace_file(m, tf);
  }
  model_fst *w = NULL;
  if (o.fst) {
    char msg[512];
    if (!(w = model_fst_open(o.fst, &cfg, 0, msg, sizeof msg))) {
      diag_error_plain("sim: %s", msg);
      if (tf && !to_stdout) cli_sim_tmp_close(tf, tmp, o.trace);
      model_free(m);
      return CLI_EXIT_INPUT;
    }
    model_set_trace(m, model_fst_sink, w);
  }
  int timeout = w ? model_fst_run(m, w, o.max_cycles) : model_run(m, o.max_cycles);
  int status = CLI_EXIT_OK;
  char fmsg[512];
  if (w && model_fst_close(w, fmsg, sizeof fmsg)) {
    diag_error_plain("sim: %s", fmsg);
    status = CLI_EXIT_INPUT;
  }
  if (tf && !to_stdout && cli_sim_tmp_close(tf, tmp, o.trace)) status = CLI_EXIT_INPUT;
  if (to_stdout) fflush(stdout);
  if (!status && o.dump && cli_sim_dump(m, &cfg, o.dump)) status = CLI_EXIT_INPUT;
  if (!status) status = cli_sim_report(m, &o, timeout, to_stdout ? stderr : stdout);
  model_free(m);
  return status;
}
