/*
 * cli_sim.c: `tcpa sim STREAM.bin [--arch FILE] [--trace FILE]
 * [--max-cycles N] [--dump-banks DIR] [--fst FILE] [--stats]`: runs a
 * configuration stream on the
 * cycle-accurate C model and prints the cycle count, the done status and
 * the faults: reads the options into a sim_opts and runs the request
 * (sim_run, sim_run.c).
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

#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "sim_run.h"

/* Prints the usage of `tcpa sim` to `f`. */
static void cli_sim_usage(FILE *f) {
  fputs("usage: tcpa sim STREAM.bin [--arch FILE] [--trace FILE] [--max-cycles N]\n"
        "                [--dump-banks DIR] [--fst FILE] [--stats]\n\n"
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
        "  --stats           also print the stepping loop's cycles, started PEs,\n"
        "                    CPU seconds (loading excluded) and PE-cycles per second\n"
        "  -h, --help        print this help\n\n"
        "exit status: 0 done without fault, 1 timeout or fault, 2 invalid\n"
        "stream, architecture or option\n", f);
}

/* Returns 0 and fills *o, 1 for --help, -1 after printing the problem. */
static int cli_sim_parse(int argc, char **argv, sim_opts *o) {
  enum { OPT_ARCH = CLI_OPT_LONG, OPT_TRACE, OPT_DUMP, OPT_FST, OPT_MAX, OPT_STATS };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},          {"arch", required_argument, NULL, OPT_ARCH},
      {"trace", required_argument, NULL, OPT_TRACE}, {"dump-banks", required_argument, NULL, OPT_DUMP},
      {"fst", required_argument, NULL, OPT_FST},  {"max-cycles", required_argument, NULL, OPT_MAX},
      {"stats", no_argument, NULL, OPT_STATS},
      {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  o->max_cycles = SIM_MAX_CYCLES;
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
    case OPT_STATS: o->stats = 1; break;
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

int cli_sim(int argc, char **argv) {
  sim_opts o;
  int rc = cli_sim_parse(argc, argv, &o);
  if (rc) {
    if (rc > 0) cli_sim_usage(stdout);
    return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT;
  }
  return sim_run(&o);
}
