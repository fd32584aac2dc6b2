/*
 * cli_run.c: `tcpa run PROGRAM.pla` (docs/user-guide.md): reads the options
 * into a run_opts (every syntax error names the option, exit 2) and runs
 * it (run_program_file, run.h: the program, the reference, the engines,
 * --out-dir, the summary).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "run.h"

/* Prints the usage of `tcpa run` to f. */
static void run_usage(FILE *f) {
  fputs("usage: tcpa run PROGRAM.pla [--arch FILE] [--param NAME=VALUE]...\n"
        "                [--pes RxC] [--map INDEX[,INDEX]]\n"
        "                [--engine ref|model|rtl|cosim|systemc] [--in NAME=FILE]...\n"
        "                [--seed N] [--out-dir DIR] [--window N] [--fst FILE]\n"
        "                [--no-fifo-check] [--share-all] [--prolog-nops] [--no-waits]\n"
        "                [--disable LIST] [--traces always|on-failure]\n"
        "                [--inputs uniform|edge]\n\n"
        "Runs PROGRAM for the given parameter values on the chosen engine and\n"
        "checks it against the reference interpreter. A problem whose arrays do\n"
        "not fit the region's banks (or whose fds exceed pe.fd_depth) runs on the\n"
        "model in chunks cut by the host along the loops its dependences allow\n"
        "(docs/tiling.md); refused with each loop's reason when none may be cut.\n\n"
        "  --arch FILE        architecture configuration (default: configs/default.ini,\n"
        "                     embedded in the binary)\n"
        "  --param NAME=VALUE value of a program parameter (every one is required)\n"
        "  --pes RxC[@R0,C0]  region of PEs, R rows by C columns (default 1x1), its first PE\n"
        "                     at array row R0, column C0 (default 0,0)\n"
        "  --map I[,I]        loop indices tiled onto the rows and columns\n"
        "  --engine E         ref: the reference interpreter only; model: the C\n"
        "                     cycle-accurate model; rtl: the Verilated RTL; cosim:\n"
        "                     model and RTL, traces compared cycle by cycle\n"
        "                     (default cosim); systemc: model and RTL as SystemC\n"
        "                     modules in lockstep under the SystemC kernel (tcpa-sc);\n"
        "                     each checked against ref\n"
        "  --in NAME=FILE     values of an input array (data-file format); inputs\n"
        "                     not given are uniform random in [-1000, 1000]\n"
        "  --seed N           seed of the random inputs (default 1)\n"
        "  --inputs D         the random inputs' distribution: uniform (default) in\n"
        "                     [-1000, 1000], or edge: half of them 0, 1, -1, -2^31 or\n"
        "                     2^31-1, a quarter any 32-bit word, a quarter uniform\n"
        "  --out-dir DIR      write DIR/NAME.txt per output (the engine's values,\n"
        "                     pass or fail), DIR/ref/NAME.txt (the reference's),\n"
        "                     DIR/diff.txt on a mismatch, DIR/inputs/NAME.txt\n"
        "                     per input, DIR/summary.json, and for the engines the\n"
        "                     stream config.bin, its listing config.lst and the\n"
        "                     traces model.trace, rtl.trace (rtl.fst, divergence.gtkw)\n"
        "  --profile          with --out-dir: where the cycles went, from the run's trace\n"
        "                     (tcpa profile: per PE and FU, per bank, per region; the\n"
        "                     tables and a utilization heat map in DIR/profile/)\n"
        "  --traces WHEN      with --out-dir: always (the default) keep the traces\n"
        "                     (model.fst for model); on-failure: model and cosim keep\n"
        "                     them only for a run that fails, running it again to\n"
        "                     write them (a passing run then costs what one without\n"
        "                     --out-dir does; fcov.json from the model's events)\n"
        "  --window N         cosim: at a divergence at cycle c, rerun the RTL with its\n"
        "                     waveform DIR/rtl.fst limited to cycles c-N..c+N and write\n"
        "                     DIR/divergence.gtkw and DIR/divergence.txt (default 20)\n"
        "  --fst FILE         model: write the model's waveform (the RTL's signal names;\n"
        "                     default DIR/model.fst with --out-dir); rtl: the RTL's\n"
        "  --no-fifo-check, --share-all, --prolog-nops, --no-waits\n"
        "                     instantiate as `tcpa instantiate` does with them (for\n"
        "                     comparing with what they turn off; tcpa instantiate --help)\n"
        "  --disable LIST     map as `tcpa compile --disable LIST` does (the mapper's\n"
        "                     rewrites cse, forward, dests, share, reread turned off)\n\n"
        "exit status: 0 pass, 1 mismatch, 2 invalid input, 3 does not fit\n", f);
}

/* Returns 0 after splitting "NAME=VALUE" into pair; -1 after an error. */
static int run_pair_parse(const char *opt, const char *arg, run_pair *pair) {
  const char *eq = strchr(arg, '=');
  if (!eq || eq == arg || !eq[1]) {
    diag_error_plain("%s: expected NAME=VALUE, got '%s'", opt, arg);
    return -1;
  }
  pair->opt = opt;
  pair->name = strndup(arg, (size_t)(eq - arg));
  pair->value = strdup(eq + 1);
  if (!pair->name || !pair->value) {
    diag_error_plain("out of memory");
    return -1;
  }
  return 0;
}

/* Returns 0 after reading "RxC" or "RxC@ROW,COL" into *r, *c and the
 * origin *r0, *c0; -1 after an error. */
static int run_pes_parse(const char *arg, int *r, int *c, int *r0, int *c0) {
  if (!cli_opt_pes_text(arg, r, c, r0, c0)) return 0;
  diag_error_plain("--pes: expected RxC or RxC@ROW,COL with positive integers R and C (rows by "
                   "columns, e.g. 2x4) and the origin ROW,COL (e.g. 2x2@2,0), got '%s'", arg);
  return -1;
}

/* Returns 1 when c may start an identifier, 2 when it may continue one. */
static int run_ident_char(char c) {
  if (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return 1;
  return c >= '0' && c <= '9' ? 2 : 0;
}

/* Returns 0 after checking the syntax of --map: one or two identifiers or
 * dimension numbers, separated by a comma; -1 otherwise. */
static int run_map_syntax(const char *arg) {
  int n = 0;
  const char *s = arg;
  for (;;) {
    int kind = run_ident_char(*s);
    if (kind == 0) return -1;
    if (kind == 2)
      while (run_ident_char(*s) == 2) s++;
    else
      while (run_ident_char(*s)) s++;
    if (++n > 2) return -1;
    if (*s == '\0') return 0;
    if (*s++ != ',') return -1;
  }
}

/* Frees what run_opts_parse allocated. */
static void run_opts_free(run_opts *o) {
  for (int i = 0; i < o->nparam; i++) {
    free(o->param[i].name);
    free(o->param[i].value);
  }
  for (int i = 0; i < o->nin; i++) {
    free(o->in[i].name);
    free(o->in[i].value);
  }
}

/* The codes of the options of `tcpa run` (cli_opt.h). */
enum {
  RUN_OPT_ARCH = CLI_OPT_LONG, RUN_OPT_PARAM, RUN_OPT_PES, RUN_OPT_MAP, RUN_OPT_ENGINE, RUN_OPT_IN,
  RUN_OPT_SEED, RUN_OPT_OUT_DIR, RUN_OPT_WINDOW, RUN_OPT_FST, RUN_OPT_NO_FIFO_CHECK, RUN_OPT_SHARE_ALL,
  RUN_OPT_PROLOG_NOPS, RUN_OPT_NO_WAITS,
  RUN_OPT_DISABLE, RUN_OPT_TRACES, RUN_OPT_PROFILE, RUN_OPT_INPUTS
};

static const struct option run_longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {"arch", required_argument, NULL, RUN_OPT_ARCH},
    {"param", required_argument, NULL, RUN_OPT_PARAM},
    {"pes", required_argument, NULL, RUN_OPT_PES},
    {"map", required_argument, NULL, RUN_OPT_MAP},
    {"engine", required_argument, NULL, RUN_OPT_ENGINE},
    {"in", required_argument, NULL, RUN_OPT_IN},
    {"seed", required_argument, NULL, RUN_OPT_SEED},
    {"out-dir", required_argument, NULL, RUN_OPT_OUT_DIR},
    {"window", required_argument, NULL, RUN_OPT_WINDOW},
    {"fst", required_argument, NULL, RUN_OPT_FST},
    {"no-fifo-check", no_argument, NULL, RUN_OPT_NO_FIFO_CHECK},
    {"share-all", no_argument, NULL, RUN_OPT_SHARE_ALL},
    {"prolog-nops", no_argument, NULL, RUN_OPT_PROLOG_NOPS},
    {"no-waits", no_argument, NULL, RUN_OPT_NO_WAITS},
    {"disable", required_argument, NULL, RUN_OPT_DISABLE},
    {"traces", required_argument, NULL, RUN_OPT_TRACES},
    {"inputs", required_argument, NULL, RUN_OPT_INPUTS},
    {"profile", no_argument, NULL, RUN_OPT_PROFILE},
    {NULL, 0, NULL, 0}};

/* Returns 0 after reading option c of p (its value in p->arg) into o; -1
 * after an error. */
static int run_opt_parse(const cli_opt *p, int c, run_opts *o) {
  const char *v = p->arg;
  switch (c) {
  case RUN_OPT_ARCH: o->arch = v; return 0;
  case RUN_OPT_PARAM:
    if (o->nparam >= RUN_MAX_OPTS) {
      diag_error_plain("--param: more than %d given", RUN_MAX_OPTS);
      return -1;
    }
    return run_pair_parse("--param", v, &o->param[o->nparam++]);
  case RUN_OPT_PES: return run_pes_parse(v, &o->pes_r, &o->pes_c, &o->inst.row0, &o->inst.col0);
  case RUN_OPT_MAP:
    if (run_map_syntax(v) != 0) {
      diag_error_plain("--map: expected one or two loop indices (names or numbers) separated by a "
                       "comma (e.g. i,j), got '%s'", v);
      return -1;
    }
    o->map = v;
    return 0;
  case RUN_OPT_ENGINE:
    for (int e = 0; e < 5; e++)
      if (!strcmp(v, run_engine_names[e])) {
        o->engine = (run_engine)e;
        return 0;
      }
    diag_error_plain("--engine: expected ref, model, rtl, cosim or systemc, got '%s'", v);
    return -1;
  case RUN_OPT_IN:
    if (o->nin >= RUN_MAX_OPTS) {
      diag_error_plain("--in: more than %d given", RUN_MAX_OPTS);
      return -1;
    }
    return run_pair_parse("--in", v, &o->in[o->nin++]);
  case RUN_OPT_SEED: {
    char *end;
    errno = 0;
    unsigned long long s = strtoull(v, &end, 10);
    if (errno || *end || end == v || v[0] == '-' || v[0] == '+') {
      diag_error_plain("--seed: expected a non-negative decimal integer below "
                       "2^64, got '%s'", v);
      return -1;
    }
    o->seed = s;
    return 0;
  }
  case RUN_OPT_OUT_DIR: o->out_dir = v; return 0;
  case RUN_OPT_PROFILE: o->profile = 1; return 0;
  case RUN_OPT_FST: o->fst = v; return 0;
  case RUN_OPT_NO_FIFO_CHECK: o->inst.no_fifo_check = 1; return 0;
  case RUN_OPT_SHARE_ALL: o->inst.share_all = 1; return 0;
  case RUN_OPT_PROLOG_NOPS: o->inst.prolog_nops = 1; return 0;
  case RUN_OPT_NO_WAITS: o->inst.no_waits = 1; return 0;
  case RUN_OPT_DISABLE: {
    char msg[256];
    if (map_opts_off_parse(v, &o->mopts.off, msg, sizeof msg)) {
      diag_error_plain("--disable: %s", msg);
      return -1;
    }
    return 0;
  }
  case RUN_OPT_INPUTS:
    if (strcmp(v, "uniform") && strcmp(v, "edge")) {
      diag_error_plain("--inputs: expected uniform or edge, got '%s'", v);
      return -1;
    }
    o->inputs_edge = !strcmp(v, "edge");
    return 0;
  case RUN_OPT_TRACES:
    if (strcmp(v, "always") && strcmp(v, "on-failure")) {
      diag_error_plain("--traces: expected always or on-failure, got '%s'", v);
      return -1;
    }
    o->traces_on_failure = !strcmp(v, "on-failure");
    return 0;
  case RUN_OPT_WINDOW: {
    int64_t w;
    if (run_int_parse(v, 1, 1000000, &w) != 0) {
      diag_error_plain("--window: expected a number of cycles from 1 to 1000000, got '%s'", v);
      return -1;
    }
    o->window = (int)w;
    return 0;
  }
  default: return -1; /* CLI_OPT_ERROR: cli_opt_next printed it */
  }
}

/* Returns 0 after reading the command line into o; -1 after an error. */
static int run_opts_parse(int argc, char **argv, run_opts *o) {
  memset(o, 0, sizeof *o);
  o->arch = NULL; /* the embedded configs/default.ini */
  o->pes_r = o->pes_c = 1;
  o->engine = RUN_ENGINE_COSIM;
  o->seed = 1;
  o->argc = argc, o->argv = argv;
  cli_opt p;
  cli_opt_init(&p, "run", argc, argv, "h", run_longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    if (c == 'h') {
      o->help = 1;
    } else if (c != CLI_OPT_ARG) {
      if (run_opt_parse(&p, c, o) != 0) return -1;
    } else if (!o->program) {
      o->program = p.arg;
    } else {
      diag_error_plain("more than one program given ('%s' and '%s')", o->program, p.arg);
      return -1;
    }
  }
  if (o->profile && (!o->out_dir || o->traces_on_failure || o->engine == RUN_ENGINE_REF)) {
    diag_error_plain("--profile reads the run's trace: it needs --out-dir DIR, an engine that runs the array "
                     "and --traces always");
    return -1;
  }
  if (!o->program && !o->help) {
    diag_error_plain("no program given (usage: tcpa run PROGRAM.pla ...; see "
                     "'tcpa run --help')");
    return -1;
  }
  return 0;
}

int cli_run(int argc, char **argv) {
  run_opts o;
  int rc = CLI_EXIT_INPUT;
  if (run_opts_parse(argc, argv, &o) != 0) goto done;
  if (o.help) {
    run_usage(stdout);
    rc = CLI_EXIT_OK;
    goto done;
  }
  rc = run_program_file(&o);
done:
  run_opts_free(&o);
  return rc;
}
