/*
 * cli_run.c: `tcpa run PROGRAM.pla` (docs/user-guide.md).
 *
 * Steps: read the options (every syntax error names the option, exit 2);
 * parse and check the program (exit 2); load the architecture (exit 2);
 * bind the parameters (all required, none unknown, inside the program's
 * parameter domain); check the PE region against the array (exit 3); make
 * the inputs (from --in files, or random from --seed); run the reference
 * interpreter; for the engines model, rtl and cosim, map, instantiate and
 * run the configuration and compare (engine.h, engine_run); write
 * --out-dir; print a short summary on stdout.
 *
 * Random inputs: each element uniform over [-1000, 1000], from a splitmix64
 * stream per input array seeded by (--seed, the array's name) (rng.h), so
 * that products of a few values do not wrap trivially and that giving one
 * input from a file leaves the values of the others unchanged.
 *
 * The reference interpreter (interp.h) always runs first: its outputs are
 * the expected values. A runtime violation of the language rules it finds
 * is invalid input (exit 2). With `ref` alone the run passes when the
 * interpreter completes.
 *
 * Tiled dimension: --map names one index, or two for the rows and the
 * columns in that order (the columns' for a 1xC region, the rows' for Rx1;
 * both on an RxC region); without --map, dimension 0 (RxC: dimensions 0
 * and 1). A 1-D --map on an RxC region is invalid input.
 *
 * --out-dir DIR (docs/user-guide.md, "Output files"): DIR/inputs/NAME.txt
 * per input; DIR/ref/NAME.txt per output, the reference interpreter's
 * values; DIR/NAME.txt per output, the values of the engine that ran, read
 * back from its banks through the output placement (engine_result: the
 * model's for model, the RTL's for rtl, cosim and systemc; for ref the
 * reference's), an element with no value from the engine written as
 * RUN_UNPLACED; on a failed run DIR/diff.txt, the count of the elements of
 * DIR/NAME.txt that differ from the reference and the first RUN_DIFF_SHOW
 * of them; the engines' files (config.bin, config.lst, traces;
 * engine_run.c); then DIR/summary.json last, whose `outputs` says which
 * engine wrote which file. All in the data-file format (datafile.h),
 * written whether the run passed or not; each file atomically, so a file
 * present is a complete file, and a file of an earlier run that this run
 * does not write (DIR/NAME.txt when the engine gathered no outputs,
 * diff.txt on a pass) is removed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arch.h"
#include "ast.h"
#include "check.h"
#include "cli.h"
#include "cli_opt.h"
#include "datafile.h"
#include "diag.h"
#include "engine.h"
#include "fileio.h"
#include "interp.h"
#include "json.h"
#include "parse.h"
#include "rng.h"
#include "stream.h"
#include "version.h"

#define RUN_MAX_OPTS 64   /* --param and --in options each */
#define RUN_RANDOM_LO (-1000)
#define RUN_RANDOM_HI 1000

typedef enum { RUN_ENGINE_REF, RUN_ENGINE_MODEL, RUN_ENGINE_RTL, RUN_ENGINE_COSIM, RUN_ENGINE_SYSTEMC } run_engine;

static const char *const run_engine_names[] = {"ref", "model", "rtl", "cosim", "systemc"};

/* A NAME=VALUE option as given. */
typedef struct {
  const char *opt; /* the whole argument, for messages */
  char *name;
  char *value;
} run_pair;

/* The command line, read. */
typedef struct {
  const char *program;
  const char *arch;
  run_pair param[RUN_MAX_OPTS];
  int nparam;
  run_pair in[RUN_MAX_OPTS];
  int nin;
  int pes_r, pes_c;
  const char *map; /* as given, checked against the program later */
  run_engine engine;
  uint64_t seed;
  const char *out_dir;
  int window; /* --window: cycles each side of a cosim divergence (0: default) */
  const char *fst; /* --fst: the waveform (model: its own FST; rtl: the RTL's) */
  int argc;        /* the command line, for a reproduction bundle */
  char **argv;
  int help;
  inst_opts inst; /* --no-fifo-check, --share-all, --prolog-nops */
} run_opts;

/* Prints the usage of `tcpa run` to f. */
static void run_usage(FILE *f) {
  fputs("usage: tcpa run PROGRAM.pla [--arch FILE] [--param NAME=VALUE]...\n"
        "                [--pes RxC] [--map INDEX[,INDEX]]\n"
        "                [--engine ref|model|rtl|cosim|systemc] [--in NAME=FILE]...\n"
        "                [--seed N] [--out-dir DIR] [--window N] [--fst FILE]\n"
        "                [--no-fifo-check] [--share-all] [--prolog-nops]\n\n"
        "Runs PROGRAM for the given parameter values on the chosen engine and\n"
        "checks it against the reference interpreter.\n\n"
        "  --arch FILE        architecture configuration (default: configs/default.ini,\n"
        "                     embedded in the binary)\n"
        "  --param NAME=VALUE value of a program parameter (every one is required)\n"
        "  --pes RxC          region of PEs, R rows by C columns (default 1x1)\n"
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
        "  --out-dir DIR      write DIR/NAME.txt per output (the engine's values,\n"
        "                     pass or fail), DIR/ref/NAME.txt (the reference's),\n"
        "                     DIR/diff.txt on a mismatch, DIR/inputs/NAME.txt\n"
        "                     per input, DIR/summary.json, and for the engines the\n"
        "                     stream config.bin, its listing config.lst and the\n"
        "                     traces model.trace, rtl.trace (rtl.fst, divergence.gtkw)\n"
        "  --window N         cosim: at a divergence at cycle c, rerun the RTL with its\n"
        "                     waveform DIR/rtl.fst limited to cycles c-N..c+N and write\n"
        "                     DIR/divergence.gtkw and DIR/divergence.txt (default 20)\n"
        "  --fst FILE         model: write the model's waveform (the RTL's signal names;\n"
        "                     default DIR/model.fst with --out-dir); rtl: the RTL's\n"
        "  --no-fifo-check, --share-all, --prolog-nops\n"
        "                     instantiate as `tcpa instantiate` does with them (for\n"
        "                     comparing with what they turn off; tcpa instantiate --help)\n\n"
        "exit status: 0 pass, 1 mismatch, 2 invalid input, 3 does not fit\n", f);
}

/* Returns 0 and sets *v to the decimal (or 0x) integer `s` if it lies in
 * [lo, hi]; -1 otherwise. */
static int run_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *v) {
  char *end;
  if (!*s) return -1;
  errno = 0;
  long long x = strtoll(s, &end, 0);
  if (errno || *end || end == s || x < lo || x > hi) return -1;
  if (s[0] == '0' && s[1] && s[1] != 'x' && s[1] != 'X') return -1; /* no octal */
  *v = x;
  return 0;
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

/* Returns 0 after reading "RxC" into *r, *c; -1 after an error. */
static int run_pes_parse(const char *arg, int *r, int *c) {
  char buf[64];
  const char *x = strchr(arg, 'x');
  int64_t rv, cv;
  if (!x || (size_t)(x - arg) >= sizeof buf) goto bad;
  memcpy(buf, arg, (size_t)(x - arg));
  buf[x - arg] = '\0';
  if (run_parse_int(buf, 1, 1 << 16, &rv) || run_parse_int(x + 1, 1, 1 << 16, &cv))
    goto bad;
  *r = (int)rv;
  *c = (int)cv;
  return 0;
bad:
  diag_error_plain("--pes: expected RxC with positive integers R and C (rows by "
                   "columns, e.g. 2x4), got '%s'", arg);
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
  RUN_OPT_PROLOG_NOPS
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
  case RUN_OPT_PES: return run_pes_parse(v, &o->pes_r, &o->pes_c);
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
  case RUN_OPT_FST: o->fst = v; return 0;
  case RUN_OPT_NO_FIFO_CHECK: o->inst.no_fifo_check = 1; return 0;
  case RUN_OPT_SHARE_ALL: o->inst.share_all = 1; return 0;
  case RUN_OPT_PROLOG_NOPS: o->inst.prolog_nops = 1; return 0;
  case RUN_OPT_WINDOW: {
    int64_t w;
    if (run_parse_int(v, 1, 1000000, &w) != 0) {
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
  if (!o->program && !o->help) {
    diag_error_plain("no program given (usage: tcpa run PROGRAM.pla ...; see "
                     "'tcpa run --help')");
    return -1;
  }
  return 0;
}

/* Returns the id of the named parameter of p, or -1. */
static int run_param_find(const ast_program *p, const char *name) {
  for (int i = 0; i < p->nparams; i++)
    if (!strcmp(p->param[i], name)) return i;
  return -1;
}

/* Returns a printable list of the program's parameter names. */
static const char *run_param_list(const ast_program *p, char *buf, size_t size) {
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < p->nparams && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", p->param[i]);
  if (!p->nparams) snprintf(buf, size, "none");
  return buf;
}

/* Returns 0 after binding every parameter of p from the --param options into
 * params; -1 after printing every error. */
static int run_params_bind(const ast_program *p, const run_opts *o, int64_t *params) {
  char list[256];
  int given[AST_MAX_PARAMS] = {0}, bad = 0;
  for (int k = 0; k < o->nparam; k++) {
    const run_pair *pr = &o->param[k];
    int id = run_param_find(p, pr->name);
    if (id < 0) {
      diag_error_plain("--param %s=%s: program '%s' has no parameter '%s' (its "
                       "parameters: %s)", pr->name, pr->value, p->name, pr->name,
                       run_param_list(p, list, sizeof list));
      bad = 1;
      continue;
    }
    if (given[id]) {
      diag_error_plain("--param %s: given twice", pr->name);
      bad = 1;
      continue;
    }
    if (run_parse_int(pr->value, INT32_MIN, INT32_MAX, &params[id]) != 0) {
      diag_error_plain("--param %s=%s: expected a decimal integer that fits in "
                       "32 bits", pr->name, pr->value);
      bad = 1;
      continue;
    }
    given[id] = 1;
  }
  for (int i = 0; i < p->nparams; i++)
    if (!given[i] && !bad) {
      diag_error_plain("missing --param %s=VALUE (program '%s' has parameters %s; "
                       "all are required)", p->param[i], p->name,
                       run_param_list(p, list, sizeof list));
      bad = 1;
    }
  if (bad) return -1;
  if (!check_params_valid(p, params)) {
    char vals[256];
    size_t len = 0;
    vals[0] = '\0';
    for (int i = 0; i < p->nparams && len < sizeof vals; i++)
      len += (size_t)snprintf(vals + len, sizeof vals - len, "%s%s=%lld",
                              i ? " " : "", p->param[i], (long long)params[i]);
    diag_error(&p->par_loc, p->source,
               "--param: the values %s are outside the parameter domain of "
               "program '%s' (every parameter >= 1 and the parameter-only "
               "constraints of par)", vals, p->name);
    return -1;
  }
  return 0;
}

/* Returns the loop dimension of p that the --map token names (an index
 * name, or a dimension number 0..ndims-1), or -1. */
static int run_map_index(const ast_program *p, const char *tok) {
  if (tok[0] >= '0' && tok[0] <= '9') {
    int d = atoi(tok);
    return d < p->ndims ? d : -1;
  }
  for (int k = 0; k < p->ndims; k++)
    if (!strcmp(p->index[k], tok)) return k;
  return -1;
}

/* Returns 0 when every index named by --map is an index of p, each at most
 * once; -1 after an error. */
static int run_map_check(const ast_program *p, const char *map) {
  char buf[128];
  int seen[AST_MAX_DIMS] = {0};
  if (!map) return 0;
  snprintf(buf, sizeof buf, "%s", map);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    int d = run_map_index(p, tok);
    if (d < 0) {
      diag_error_plain("--map %s: program '%s' has no loop index '%s'", map, p->name, tok);
      return -1;
    }
    if (seen[d]++) {
      diag_error_plain("--map %s: index '%s' named twice", map, tok);
      return -1;
    }
  }
  return 0;
}

/* Returns the loop dimension tiled onto the region: the index --map names
 * for it (one index: that one; two: the first for the rows of an Rx1
 * region, the second for the columns of a 1xC one), else dimension 0. */
static int run_map_dim(const ast_program *p, const run_opts *o) {
  char buf[128], *names[2] = {NULL, NULL};
  int n = 0;
  if (!o->map) return 0;
  snprintf(buf, sizeof buf, "%s", o->map);
  for (char *tok = strtok(buf, ","); tok && n < 2; tok = strtok(NULL, ",")) names[n++] = tok;
  int d[2] = {0, 0};
  for (int i = 0; i < n; i++)
    if (run_map_index(p, names[i]) >= 0) d[i] = run_map_index(p, names[i]);
  if (o->pes_r > 1 && o->pes_c > 1) return n == 2 ? ENGINE_DIMS_2D(d[0], d[1]) : d[0];
  return n == 2 && o->pes_r == 1 && o->pes_c > 1 ? d[1] : d[0];
}

/* Writes the tiled loop index ("i"), or both of a 2-D region ("i,j": rows,
 * columns), into buf. */
static void run_tiled_dims(const ast_program *p, const engine_config *c, char *buf, size_t size) {
  if (c->axis == 2 && c->dim2 >= 0) snprintf(buf, size, "%s,%s", p->index[c->dim], p->index[c->dim2]);
  else snprintf(buf, size, "%s", p->index[c->dim]);
}

/* Returns the id of the named array of p, or -1. */
static int run_array_find(const ast_program *p, const char *name) {
  for (int i = 0; i < p->narrays; i++)
    if (!strcmp(p->arrays[i].name, name)) return i;
  return -1;
}

/* Returns 0 after filling every input array: from its --in file, else at
 * random; from[a] is set to the file or NULL. -1 after printing errors. */
static int run_inputs_make(const ast_program *p, const run_opts *o,
                           interp_array *arrays, const char **from) {
  int bad = 0;
  for (int a = 0; a < p->narrays; a++) from[a] = NULL;
  for (int k = 0; k < o->nin; k++) {
    int a = run_array_find(p, o->in[k].name);
    if (a < 0 || p->arrays[a].kind != AST_ARRAY_IN) {
      diag_error_plain("--in %s=%s: program '%s' has no input array '%s'%s",
                       o->in[k].name, o->in[k].value, p->name, o->in[k].name,
                       a >= 0 ? " (it is an output)" : "");
      bad = 1;
    } else if (from[a]) {
      diag_error_plain("--in %s: given twice", o->in[k].name);
      bad = 1;
    } else {
      from[a] = o->in[k].value;
    }
  }
  if (bad) return -1;
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind != AST_ARRAY_IN) continue;
    if (from[a]) {
      char what[160];
      snprintf(what, sizeof what, "input '%s' (%zu value%s)", p->arrays[a].name,
               arrays[a].n, arrays[a].n == 1 ? "" : "s");
      if (datafile_read(from[a], what, arrays[a].data, arrays[a].n) != 0) bad = 1;
      continue;
    }
    rng_state r = rng_state_seed_named(o->seed, p->arrays[a].name);
    for (size_t i = 0; i < arrays[a].n; i++)
      arrays[a].data[i] = rng_state_range(&r, RUN_RANDOM_LO, RUN_RANDOM_HI);
  }
  return bad ? -1 : 0;
}

/* Returns 0 after creating directory `dir` (and its parents) if missing;
 * -1 after an error. */
static int run_mkdir_p(const char *dir) {
  char failed[1024];
  if (fileio_mkdir_p(dir, failed, sizeof failed) == 0) return 0;
  if (errno == ENOTDIR && !strcmp(failed, dir))
    diag_error_plain("--out-dir: '%s' is not a directory", dir);
  else
    diag_error_plain("--out-dir: cannot create directory '%s': %s", failed, strerror(errno));
  return -1;
}

/* Returns the malloc'ed path DIR/SUB/NAME.txt (DIR/NAME.txt when sub is
 * NULL), or NULL when out of memory. */
static char *run_out_path(const char *dir, const char *sub, const char *name) {
  size_t len = strlen(dir) + (sub ? strlen(sub) : 0) + strlen(name) + 8;
  char *path = malloc(len);
  if (path) snprintf(path, len, "%s/%s%s%s.txt", dir, sub ? sub : "", sub ? "/" : "", name);
  return path;
}

/* Returns 0 after writing every array of the given kind to DIR/SUB/NAME.txt;
 * -1 after an error. */
static int run_arrays_write(const ast_program *p, const interp_array *arrays,
                            ast_array_kind kind, const char *dir, const char *sub) {
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind != kind) continue;
    char *path = run_out_path(dir, sub, p->arrays[a].name);
    if (!path) return -1;
    int rc = datafile_write(path, arrays[a].data, arrays[a].ndims, arrays[a].extent);
    free(path);
    if (rc != 0) return -1;
  }
  return 0;
}

/* The value DIR/NAME.txt holds for an element the engine's output
 * placement never placed (no PE writes it): diff.txt names each one. */
#define RUN_UNPLACED INT32_MIN
#define RUN_DIFF_SHOW 20 /* differing elements listed in diff.txt */

/* What --out-dir received of the outputs (summary.json's `outputs`). */
typedef struct {
  const char *engine; /* whose values DIR/NAME.txt hold: "ref", "model" or
                         "rtl"; NULL: none written (no outputs gathered) */
  int ref_written;    /* DIR/ref/NAME.txt */
  size_t total;       /* output elements */
  size_t differing;   /* of DIR/NAME.txt from the reference */
  size_t unplaced;    /* elements no PE writes (written as RUN_UNPLACED) */
  const char *diff;   /* the diff file's name in DIR; NULL: not written */
} run_outputs;

/* Returns 0 after writing the engine result r's outputs to DIR/NAME.txt
 * (elements not placed as RUN_UNPLACED) and counting them in *outs; -1
 * after an error. */
static int run_engine_arrays_write(const ast_program *p, const interp_array *ref, const engine_result *r,
                                   const char *dir, run_outputs *outs) {
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind != AST_ARRAY_OUT) continue;
    int32_t *vals = malloc((ref[a].n + 1) * sizeof *vals);
    char *path = run_out_path(dir, NULL, p->arrays[a].name);
    int rc = -1;
    if (vals && path) {
      for (size_t i = 0; i < ref[a].n; i++) {
        vals[i] = r->seen[a][i] ? r->out[a][i] : RUN_UNPLACED;
        outs->unplaced += !r->seen[a][i];
      }
      rc = datafile_write(path, vals, ref[a].ndims, ref[a].extent);
    }
    free(vals);
    free(path);
    if (rc != 0) return -1;
  }
  return 0;
}

/* Returns the name of the diff file: diff.txt, unless an output array is
 * called `diff` (its DIR/diff.txt): then diff-outputs.txt. */
static const char *run_diff_name(const ast_program *p) {
  for (int a = 0; a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_OUT && !strcmp(p->arrays[a].name, "diff")) return "diff-outputs.txt";
  return "diff.txt";
}

/* Returns 0 after writing DIR/<outs->diff>: the count of the elements of
 * r's outputs that differ from the reference ref, then the first
 * RUN_DIFF_SHOW of them (array, index, expected, actual); -1 after an
 * error. */
static int run_diff_write(const ast_program *p, const interp_array *ref, const engine_result *r,
                          const char *dir, const run_outputs *outs) {
  char *text = NULL, *path = malloc(strlen(dir) + strlen(outs->diff) + 2);
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  datafile_tmp t;
  int rc = -1;
  if (!path || !m) goto done;
  sprintf(path, "%s/%s", dir, outs->diff);
  engine_outputs_compare(p, ref, r, m, RUN_DIFF_SHOW);
  fclose(m);
  m = NULL;
  if (datafile_tmp_open(&t, path) != 0) goto done;
  fprintf(t.f, "differing %zu of %zu output elements\n", outs->differing, outs->total);
  fprintf(t.f, "# the engine's values (%s) in NAME.txt, the reference interpreter's in ref/NAME.txt;\n"
               "# an element no PE writes is written as %d ('got nothing')\n", outs->engine,
          (int)RUN_UNPLACED);
  if (outs->differing > RUN_DIFF_SHOW) fprintf(t.f, "# the first %d:\n", RUN_DIFF_SHOW);
  if (!outs->differing)
    fputs("# the outputs equal the reference: the run failed for another reason (stderr, summary.json)\n", t.f);
  fputs(text ? text : "", t.f);
  rc = datafile_tmp_commit(&t);
done:
  if (m) fclose(m);
  free(text);
  free(path);
  return rc;
}

/* Removes the files an earlier run may have left in DIR that this one
 * does not write (they must not pass for this one's): DIR/NAME.txt of
 * every output (when `outputs`), DIR/ref/NAME.txt (when `ref`) and the
 * diff file (when `diff`). */
static void run_stale_remove(const ast_program *p, const char *dir, int outputs, int ref, int diff) {
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind != AST_ARRAY_OUT) continue;
    for (int k = 0; k < 2; k++) {
      char *path = (k ? ref : outputs) ? run_out_path(dir, k ? "ref" : NULL, p->arrays[a].name) : NULL;
      if (path) remove(path);
      free(path);
    }
  }
  char *path = diff ? malloc(strlen(dir) + 32) : NULL;
  if (path) {
    sprintf(path, "%s/%s", dir, run_diff_name(p));
    remove(path);
  }
  free(path);
}

/* Returns the engine result whose outputs DIR/NAME.txt receives (the
 * model's for model, the RTL's for rtl, cosim and systemc) and its name in
 * *who; NULL when that engine gathered none. */
static const engine_result *run_engine_outputs(run_engine engine, const engine_outcome *eo, const char **who) {
  int model = engine == RUN_ENGINE_MODEL;
  const engine_result *r = model ? &eo->model : &eo->rtl;
  *who = model ? "model" : "rtl";
  return (model ? eo->ran_model : eo->ran_rtl) && r->gathered && r->out ? r : NULL;
}

/* What one run produced, for the summary. */
typedef struct {
  const char *status; /* "pass" or "fail" */
  interp_stats stats;
  const char **from;  /* per array: the --in file, or NULL (random) */
  const engine_outcome *eo; /* model, rtl, cosim: what the engines found */
  int ref_ok;         /* the reference interpreter completed: its outputs hold */
  run_outputs outs;   /* what --out-dir received (run_outputs_write) */
} run_result;

/* Returns 0 after writing the outputs to --out-dir DIR: the reference's to
 * DIR/ref/NAME.txt, the engine's (for ref: the reference's) to
 * DIR/NAME.txt and, on a failed run, the diff file; files an earlier run
 * left and this one does not write are removed; -1 after an error. */
static int run_outputs_write(const ast_program *p, const run_opts *o, const interp_array *arrays,
                             run_result *res) {
  run_outputs *outs = &res->outs;
  const engine_result *r = NULL;
  const char *who = "ref";
  memset(outs, 0, sizeof *outs);
  for (int a = 0; a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_OUT) outs->total += arrays[a].n;
  if (!res->ref_ok) { /* the interpreter failed: no outputs at all */
    run_stale_remove(p, o->out_dir, 1, 1, 1);
    return 0;
  }
  size_t len = strlen(o->out_dir) + 8;
  char *sub = malloc(len);
  if (!sub) return -1;
  snprintf(sub, len, "%s/ref", o->out_dir);
  int bad = run_mkdir_p(sub) != 0 || run_arrays_write(p, arrays, AST_ARRAY_OUT, o->out_dir, "ref") != 0;
  free(sub);
  if (bad) return -1;
  outs->ref_written = 1;
  if (res->eo && !(r = run_engine_outputs(o->engine, res->eo, &who))) {
    run_stale_remove(p, o->out_dir, 1, 0, 1); /* the engine gathered no outputs */
    return 0;
  }
  outs->engine = who;
  if (!r) { /* ref */
    run_stale_remove(p, o->out_dir, 0, 0, 1);
    return run_arrays_write(p, arrays, AST_ARRAY_OUT, o->out_dir, NULL);
  }
  if (run_engine_arrays_write(p, arrays, r, o->out_dir, outs) != 0) return -1;
  outs->differing = engine_outputs_compare(p, arrays, r, stderr, 0); /* show 0: prints nothing */
  if (!strcmp(res->status, "pass")) {
    run_stale_remove(p, o->out_dir, 0, 0, 1);
    return 0;
  }
  outs->diff = run_diff_name(p);
  return run_diff_write(p, arrays, r, o->out_dir, outs);
}

/* Writes a cycle count, or null when the engine did not run or finish. */
static void run_json_cycles(json_writer *w, const char *key, int ran, const engine_result *r, int done) {
  if (!ran || !r->done) json_writer_null(w, key);
  else json_writer_uint(w, key, done ? r->done_cycles : r->cycles);
}

/* Returns the bytes of the IODATA packets (headers included) in the
 * little-endian stream buf[0..len): the input data it carries, which
 * summary.json's config_bytes_nodata leaves out (docs/stream.md). */
static size_t run_stream_data_bytes(const uint8_t *buf, size_t len) {
  size_t bytes = 0;
  for (size_t at = 4 * STREAM_HEADER_WORDS; buf && at + 4 * STREAM_PACKET_WORDS <= len;) {
    const uint8_t *h = buf + at;
    uint32_t n = (uint32_t)h[12] | (uint32_t)h[13] << 8 | (uint32_t)h[14] << 16 | (uint32_t)h[15] << 24;
    size_t plen = 4 * (STREAM_PACKET_WORDS + (size_t)n);
    if (plen > len - at) break;
    if (h[0] == STREAM_PKT_IODATA) bytes += plen;
    at += plen;
  }
  return bytes;
}

/* Writes the fields of a model/rtl/cosim run: the mapping, the cycles
 * measured and predicted, the divergence (docs/user-guide.md). */
static void run_summary_engine(json_writer *w, const ast_program *p, const run_opts *o,
                               const engine_outcome *eo) {
  const engine_config *c = &eo->c;
  /* the engine whose cycles are reported: the model unless rtl alone */
  const engine_result *r = o->engine == RUN_ENGINE_RTL ? &eo->rtl : &eo->model;
  int ran = o->engine == RUN_ENGINE_RTL ? eo->ran_rtl : eo->ran_model;
  run_json_cycles(w, "cycles", ran, r, 0);
  if (!eo->built) {
    json_writer_null(w, "ii");
    json_writer_null(w, "processor_classes");
    json_writer_null(w, "config_bytes");
    return;
  }
  json_writer_int(w, "ii", c->ii);
  json_writer_int(w, "processor_classes", c->npc);
  json_writer_uint(w, "config_bytes", c->stream_len);
  json_writer_uint(w, "config_bytes_nodata", c->stream_len - run_stream_data_bytes(c->stream, c->stream_len));
  json_writer_int(w, "resmii", c->resmii);
  json_writer_int(w, "recmii", c->recmii);
  json_writer_int(w, "p", c->p);
  json_writer_int(w, "pes_used", c->t);
  char dims[256];
  run_tiled_dims(p, c, dims, sizeof dims);
  json_writer_string(w, "tiled_dimension", dims);
  json_writer_int(w, "control_signals", c->nsig);
  json_writer_uint(w, "predicted_cycles", c->pred_cycles);
  json_writer_uint(w, "predicted_done_cycles", c->pred_done);
  run_json_cycles(w, "done_cycles", ran, r, 1);
  if (o->engine == RUN_ENGINE_COSIM || o->engine == RUN_ENGINE_SYSTEMC) {
    run_json_cycles(w, "rtl_cycles", eo->ran_rtl, &eo->rtl, 0);
    run_json_cycles(w, "rtl_done_cycles", eo->ran_rtl, &eo->rtl, 1);
    if (eo->diverged) json_writer_string(w, "divergence", eo->divergence);
    else json_writer_null(w, "divergence");
    if (eo->lockstep_ran) { /* where the lockstep run stopped (engine.h) */
      json_writer_bool(w, "stopped_early", eo->diverged);
      json_writer_uint(w, "stop_cycle", eo->lockstep.stop_cycle);
      json_writer_uint(w, "model_cycles_simulated", eo->lockstep.model_cycles);
      json_writer_uint(w, "rtl_cycles_simulated", eo->lockstep.rtl_cycles);
      json_writer_bool(w, "rtl_stopped_by_checker", eo->lockstep.stopped_early);
    }
  }
  json_writer_uint(w, "mismatches", eo->mismatches);
  json_writer_uint(w, "faults", (ran ? r->faults : 0) +
                                    ((o->engine == RUN_ENGINE_COSIM || o->engine == RUN_ENGINE_SYSTEMC) && eo->ran_rtl ? eo->rtl.faults : 0));
}

/* Writes summary.json's `outputs`: whose values DIR/NAME.txt hold, the
 * files, the reference's directory, the differing and unplaced elements
 * and the diff file (docs/user-guide.md, "summary.json"). */
static void run_summary_outputs(json_writer *w, const ast_program *p, const run_outputs *outs) {
  json_writer_begin_object(w, "outputs");
  if (outs->engine) json_writer_string(w, "engine", outs->engine);
  else json_writer_null(w, "engine");
  json_writer_begin_object(w, "files");
  for (int a = 0; outs->engine && a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_OUT) {
      char *name = run_out_path(".", NULL, p->arrays[a].name); /* "./NAME.txt" */
      if (name) json_writer_string(w, p->arrays[a].name, name + 2);
      free(name);
    }
  json_writer_end_object(w);
  if (outs->ref_written) json_writer_string(w, "reference_dir", "ref");
  else json_writer_null(w, "reference_dir");
  if (outs->engine) {
    json_writer_uint(w, "elements", outs->total);
    json_writer_uint(w, "differing", outs->differing);
    json_writer_uint(w, "unplaced", outs->unplaced);
  } else {
    json_writer_null(w, "elements");
    json_writer_null(w, "differing");
    json_writer_null(w, "unplaced");
  }
  if (outs->diff) json_writer_string(w, "diff", outs->diff);
  else json_writer_null(w, "diff");
  json_writer_end_object(w);
}

/* Writes summary.json's content to f. */
static void run_summary_json(FILE *f, const ast_program *p, const run_opts *o,
                             const int64_t *params, const run_result *res) {
  json_writer w = json_writer_make(f);
  json_writer_begin_object(&w, NULL);
  json_writer_string(&w, "program", p->name);
  json_writer_string(&w, "program_file", o->program);
  json_writer_string(&w, "tool_version", version_tool());
  json_writer_string(&w, "git_rev", version_git_rev());
  json_writer_string(&w, "engine", run_engine_names[o->engine]);
  json_writer_string(&w, "status", res->status);
  json_writer_begin_array(&w, "pes");
  json_writer_int(&w, NULL, o->pes_r);
  json_writer_int(&w, NULL, o->pes_c);
  json_writer_end_array(&w);
  json_writer_begin_object(&w, "params");
  for (int i = 0; i < p->nparams; i++) json_writer_int(&w, p->param[i], params[i]);
  json_writer_end_object(&w);
  json_writer_uint(&w, "seed", o->seed);
  json_writer_begin_object(&w, "inputs");
  for (int a = 0; a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_IN)
      json_writer_string(&w, p->arrays[a].name, res->from[a] ? res->from[a] : "random");
  json_writer_end_object(&w);
  json_writer_string(&w, "arch", o->arch ? o->arch : arch_default_ini_name);
  run_summary_outputs(&w, p, &res->outs);
  if (res->eo) run_summary_engine(&w, p, o, res->eo);
  else {
    /* `cycles` is absent for ref (docs/user-guide.md). ii, processor_classes and
     * config_bytes describe a mapped configuration, which the ref engine
     * does not build: null. */
    json_writer_null(&w, "ii");
    json_writer_null(&w, "processor_classes");
    json_writer_null(&w, "config_bytes");
  }
  json_writer_uint(&w, "instances", res->stats.instances);
  json_writer_uint(&w, "iterations", res->stats.iterations);
  json_writer_double(&w, "ref_seconds", res->stats.seconds);
  json_writer_end_object(&w);
}

/* Returns 0 after writing --out-dir: inputs, outputs (run_outputs_write,
 * noted in res->outs), then summary.json; -1 after an error. */
static int run_out_dir_write(const ast_program *p, const run_opts *o,
                             const int64_t *params, const interp_array *arrays,
                             run_result *res) {
  size_t len = strlen(o->out_dir) + 32;
  char *sub = malloc(len);
  int rc = -1;
  if (!sub) return -1;
  snprintf(sub, len, "%s/inputs", o->out_dir);
  if (run_mkdir_p(o->out_dir) != 0 || run_mkdir_p(sub) != 0) goto error;
  if (run_arrays_write(p, arrays, AST_ARRAY_IN, o->out_dir, "inputs") != 0) goto error;
  if (run_outputs_write(p, o, arrays, res) != 0) goto error;
  snprintf(sub, len, "%s/summary.json", o->out_dir);
  datafile_tmp t;
  if (datafile_tmp_open(&t, sub) != 0) goto error;
  run_summary_json(t.f, p, o, params, res);
  rc = datafile_tmp_commit(&t);
error:
  free(sub);
  return rc;
}

/* Prints the engine lines of the human summary: one engine's cycles. */
static void run_summary_print_cycles(const char *who, int ran, const engine_result *r) {
  if (!ran) return;
  if (!r->done) {
    printf("%-9s not done\n", who);
    return;
  }
  printf("%-9s last output written in cycle %llu (cycles %llu), done %llu", who,
         (unsigned long long)(r->cycles ? r->cycles - 1 : 0), (unsigned long long)r->cycles,
         (unsigned long long)r->done_cycles);
  if (r->faults) printf(", faults: %s", r->fault_text);
  printf("\n");
}

/* Prints the mapping and the cycles of a model/rtl/cosim run on stdout. */
static void run_summary_print_engine(const ast_program *p, const engine_outcome *eo) {
  const engine_config *c = &eo->c;
  if (!eo->built) return;
  char dims[256];
  run_tiled_dims(p, c, dims, sizeof dims);
  printf("mapping   %s tiled onto %d PE%s, p = %lld, II %d (ResMII %d, RecMII %d), "
         "%d processor class%s, stream %zu bytes\n", dims, c->t, c->t == 1 ? "" : "s",
         (long long)c->p, c->ii, c->resmii, c->recmii, c->npc, c->npc == 1 ? "" : "es", c->stream_len);
  printf("predicted cycles %llu, done %llu\n", (unsigned long long)c->pred_cycles,
         (unsigned long long)c->pred_done);
  run_summary_print_cycles("model", eo->ran_model, &eo->model);
  run_summary_print_cycles("rtl", eo->ran_rtl, &eo->rtl);
  if (eo->ran_model && eo->ran_rtl)
    printf("cosim     %s\n", eo->diverged ? eo->divergence : "traces agree");
  if (eo->lockstep_ran && eo->diverged)
    printf("stopped   at cycle %llu, early: RTL %llu cycles simulated, model %llu, of %llu predicted\n",
           (unsigned long long)eo->lockstep.stop_cycle, (unsigned long long)eo->lockstep.rtl_cycles,
           (unsigned long long)eo->lockstep.model_cycles, (unsigned long long)eo->c.pred_done);
}

/* Prints the outputs line of the human summary: whose values --out-dir
 * DIR holds and, on a mismatch, the diff file. */
static void run_summary_print_outputs(const char *dir, const run_outputs *outs) {
  if (!outs->ref_written) return;
  if (!outs->engine) {
    printf("outputs   none from the engine; the reference's in %s/ref/\n", dir);
    return;
  }
  printf("outputs   %s/NAME.txt (%s), the reference's in %s/ref/", dir, outs->engine, dir);
  if (outs->diff)
    printf(", %zu of %zu elements differ (%s/%s)", outs->differing, outs->total, dir, outs->diff);
  printf("\n");
}

/* Prints the human summary of a run on stdout. */
static void run_summary_print(const ast_program *p, const run_opts *o,
                              const int64_t *params, const run_result *res) {
  printf("program   %s (%s)\nparams   ", p->name, o->program);
  for (int i = 0; i < p->nparams; i++)
    printf(" %s=%lld", p->param[i], (long long)params[i]);
  printf("\nengine    %s, pes %dx%d\ninputs   ", run_engine_names[o->engine],
         o->pes_r, o->pes_c);
  int any = 0;
  for (int a = 0; a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_IN) {
      any = 1;
      if (res->from[a])
        printf(" %s=%s", p->arrays[a].name, res->from[a]);
      else
        printf(" %s=random(seed %llu)", p->arrays[a].name,
               (unsigned long long)o->seed);
    }
  printf("%s\n", any ? "" : " none");
  double s = res->stats.seconds;
  printf("reference %llu equation instances in %.6f s (%.1f M/s)\n",
         (unsigned long long)res->stats.instances, s,
         s > 0 ? (double)res->stats.instances / s / 1e6 : 0.0);
  if (res->eo) run_summary_print_engine(p, res->eo);
  if (o->out_dir) run_summary_print_outputs(o->out_dir, &res->outs);
  printf("verdict   %s\n", res->status);
}

/* Returns the exit status of a run of the parsed and checked program p. */
static int run_program(const ast_program *p, const run_opts *o) {
  int64_t params[AST_MAX_PARAMS] = {0};
  arch_config cfg;
  int arch_rc = o->arch ? arch_config_load(o->arch, &cfg) : arch_config_load_default(&cfg);
  if (arch_rc != 0) return CLI_EXIT_INPUT;
  const char *arch_name = o->arch ? o->arch : arch_default_ini_name;
  if (run_params_bind(p, o, params) != 0) return CLI_EXIT_INPUT;
  if (run_map_check(p, o->map) != 0) return CLI_EXIT_INPUT;
  if (o->map && !strchr(o->map, ',') && o->pes_r > 1 && o->pes_c > 1) {
    diag_error_plain("--map %s: a %dx%d region tiles two loop indices, one onto its rows and one onto its "
                     "columns (--map I,J)", o->map, o->pes_r, o->pes_c);
    return CLI_EXIT_INPUT;
  }
  if (o->pes_r > cfg.rows || o->pes_c > cfg.cols) {
    diag_error_plain("--pes %dx%d: the region does not fit the processor array "
                     "of %s, which has %d rows and %d columns", o->pes_r, o->pes_c,
                     arch_name, cfg.rows, cfg.cols);
    return CLI_EXIT_NOFIT;
  }
  interp_array *arrays = calloc((size_t)p->narrays + 1, sizeof *arrays);
  const char **from = calloc((size_t)p->narrays + 1, sizeof *from);
  int rc = CLI_EXIT_INPUT;
  if (!arrays || !from) goto error;
  if (interp_arrays_init(p, params, arrays) != 0) goto error;
  if (run_inputs_make(p, o, arrays, from) != 0) goto error_arrays;
  run_result res = {"fail", {0, 0, 0.0}, from, NULL, 0, {0}};
  int ok = interp_program_run(p, params, arrays, &res.stats) == 0;
  res.ref_ok = ok;
  rc = ok ? CLI_EXIT_OK : CLI_EXIT_INPUT;
  engine_outcome eo;
  int have_eo = 0;
  if (ok && o->engine != RUN_ENGINE_REF) {
    if (o->out_dir && run_mkdir_p(o->out_dir) != 0) {
      rc = CLI_EXIT_INPUT;
      goto error_arrays;
    }
    engine_run_opts ro = {.kind = (engine_kind)o->engine, .out_dir = o->out_dir, .arch_path = o->arch,
                          .window = o->window, .fst = o->fst, .argc = o->argc, .argv = o->argv,
                          .program_path = o->program, .seed = o->seed, .inst = o->inst};
    rc = engine_run(p, &cfg, params, arrays, o->pes_r, o->pes_c, run_map_dim(p, o), &ro, &eo);
    have_eo = 1;
    res.eo = &eo;
    if (rc == CLI_EXIT_NOFIT) goto error_eo; /* nothing ran: no summary */
  }
  res.status = rc == CLI_EXIT_OK ? "pass" : "fail";
  if (o->out_dir && run_out_dir_write(p, o, params, arrays, &res) != 0)
    rc = CLI_EXIT_INPUT;
  run_summary_print(p, o, params, &res);
error_eo:
  if (have_eo) engine_outcome_free(&eo);
error_arrays:
  interp_arrays_free(p, arrays);
error:
  free(arrays);
  free(from);
  return rc;
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
  ast_program *p = parse_file(o.program);
  if (!p) goto done;
  if (check_program(p) == 0) rc = run_program(p, &o);
  ast_program_free(p);
done:
  run_opts_free(&o);
  return rc;
}
