/*
 * cli_gen_stream.c: `tcpa gen stream`: the random valid configuration
 * stream of a seed (regress/gen_stream.h), written as a .bin or its .tasm
 * text; with --check, the streams of a range of seeds each run on the C
 * model and the RTL in lockstep (regress/stream_fuzz.h), a verdict line per
 * seed, and every divergence shrunk to a small reproducer (.bin and .tasm)
 * in --out-dir; with --fields, the field coverage of the streams
 * (regress/fieldcov.h): every value class of every field the format allows
 * on the architecture, and each one no stream hit, by name. docs/fuzz.md
 * "Random streams on both engines" and docs/user-guide.md describe it.
 */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "asm.h"
#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "engine.h"
#include "fcov.h"
#include "fieldcov.h"
#include "gen_stream.h"
#include "model.h"
#include "stream_fuzz.h"

#define GEN_STREAM_MAX_CYCLES 2000
#define GEN_STREAM_BUDGET 400

typedef struct {
  const char *arch, *out, *rtl, *out_dir;
  uint64_t seed_lo, seed_hi;
  int have_seed, tasm, check, shrink, budget, fields, values;
  uint64_t max_cycles;
} cli_gen_stream_opts;

/* Prints the usage of `tcpa gen stream` to f. */
static void cli_gen_stream_usage(FILE *f) {
  fputs("usage: tcpa gen stream [--arch FILE] --seed N [-o FILE] [--tasm]\n"
        "       tcpa gen stream [--arch FILE] --seeds A-B --check [--max-cycles N]\n"
        "                       [--rtl BIN] [--out-dir DIR] [--budget N] [--no-shrink]\n"
        "       tcpa gen stream [--arch FILE] --seeds A-B [--fields] [--values] [--check ...]\n\n"
        "Writes the random valid configuration stream of seed N for the\n"
        "architecture (docs/fuzz.md): programs of every opcode, every branch\n"
        "form, every register class, wrapper routes in every direction, AGs in\n"
        "every mode, GC terms, a random started region, bank data. The same\n"
        "seed and architecture give the same bytes.\n\n"
        "With --check, runs the stream of every seed of A-B on the C model and\n"
        "the RTL in lockstep and prints a verdict per seed; a divergence is\n"
        "shrunk (delta debugging) to DIR/seed-N.min.bin and .min.tasm, with the\n"
        "first divergence of both the original and the shrunk stream.\n\n"
        "With --fields, counts the field coverage of the streams (docs/regress.md\n"
        "\"Field coverage\"): every value class of every packet and instruction\n"
        "field the format allows on the architecture; with --values, the operand\n"
        "values of every FU in a run of the C model (\"Operand values\"); prints\n"
        "the classes hit and names each one no stream hit (`missed: NAME`).\n\n"
        "  --arch FILE       architecture configuration (default: the embedded one)\n"
        "  --seed N          one seed (0..2^63-1)\n"
        "  --seeds A-B       the seeds A to B (with --check)\n"
        "  -o FILE           write the stream (.bin; the .tasm text with --tasm)\n"
        "  --tasm            write the disassembly (tcpa disasm) instead of the\n"
        "                    bytes; on stdout without -o\n"
        "  --check           run each stream on both engines and compare them\n"
        "  --max-cycles N    both engines stop with a timeout fault after N cycles\n"
        "                    (default 2000; also the model's runs of --values)\n"
        "  --rtl BIN         the RTL harness to run (default: the harness of the\n"
        "                    architecture, built when missing; e.g. a script running\n"
        "                    the mutants harness with +mutant=N)\n"
        "  --out-dir DIR     where reproducers go (default: gen-stream-out)\n"
        "  --budget N        at most N candidate streams per shrink (default 400)\n"
        "  --no-shrink       keep a diverging stream as it is (DIR/seed-N.bin)\n"
        "  --fields          count the field coverage of the streams of the seeds\n"
        "  --values          count the operand values of each FU in model runs\n"
        "  -h, --help        print this help\n\n"
        "The seed, the packets and the size go to stderr.\n"
        "exit status: 0 written, or every stream agreed (and, with --fields or\n"
        "--values, every class hit); 1 some stream diverged or a class was missed;\n"
        "2 bad option or architecture, a stream an engine refused or failed on\n", f);
}

/* Returns 0 after reading "A-B" (or "A") into *lo, *hi; -1 otherwise. */
static int cli_gen_stream_range(const char *s, uint64_t *lo, uint64_t *hi) {
  char a[64];
  const char *dash = strchr(s, '-');
  int64_t x, y;
  if (!dash) {
    if (cli_opt_int_text(s, 0, INT64_MAX, &x)) return -1;
    *lo = *hi = (uint64_t)x;
    return 0;
  }
  if ((size_t)(dash - s) >= sizeof a) return -1;
  memcpy(a, s, (size_t)(dash - s));
  a[dash - s] = 0;
  if (cli_opt_int_text(a, 0, INT64_MAX, &x) || cli_opt_int_text(dash + 1, 0, INT64_MAX, &y) || y < x)
    return -1;
  *lo = (uint64_t)x, *hi = (uint64_t)y;
  return 0;
}

/* Returns 0 and the options in *o, 1 for --help, -1 after an error. */
static int cli_gen_stream_parse(int argc, char **argv, cli_gen_stream_opts *o) {
  enum { OPT_ARCH = CLI_OPT_LONG, OPT_SEED, OPT_SEEDS, OPT_TASM, OPT_CHECK, OPT_MAX, OPT_RTL,
         OPT_DIR, OPT_BUDGET, OPT_NOSHRINK, OPT_FIELDS, OPT_VALUES };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},          {"arch", required_argument, NULL, OPT_ARCH},
      {"seed", required_argument, NULL, OPT_SEED}, {"seeds", required_argument, NULL, OPT_SEEDS},
      {"tasm", no_argument, NULL, OPT_TASM},      {"check", no_argument, NULL, OPT_CHECK},
      {"max-cycles", required_argument, NULL, OPT_MAX}, {"rtl", required_argument, NULL, OPT_RTL},
      {"out-dir", required_argument, NULL, OPT_DIR}, {"budget", required_argument, NULL, OPT_BUDGET},
      {"no-shrink", no_argument, NULL, OPT_NOSHRINK}, {"fields", no_argument, NULL, OPT_FIELDS},
      {"values", no_argument, NULL, OPT_VALUES},
      {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  o->max_cycles = GEN_STREAM_MAX_CYCLES;
  o->budget = GEN_STREAM_BUDGET;
  o->shrink = 1;
  o->out_dir = "gen-stream-out";
  cli_opt p;
  cli_opt_init(&p, "gen stream", argc, argv, "ho:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    int64_t n;
    switch (c) {
    case 'h': return 1;
    case 'o': o->out = p.arg; break;
    case OPT_ARCH: o->arch = p.arg; break;
    case OPT_SEED:
    case OPT_SEEDS:
      if (cli_gen_stream_range(p.arg, &o->seed_lo, &o->seed_hi) ||
          (c == OPT_SEED && o->seed_lo != o->seed_hi)) {
        diag_error_plain("gen stream: %s: expected %s, got '%s'", p.name,
                         c == OPT_SEED ? "a seed 0..2^63-1" : "A-B with A <= B", p.arg);
        return -1;
      }
      o->have_seed = 1;
      break;
    case OPT_TASM: o->tasm = 1; break;
    case OPT_CHECK: o->check = 1; break;
    case OPT_MAX:
      if (cli_opt_int(&p, 1, 100000000, "a number of cycles", &n)) return -1;
      o->max_cycles = (uint64_t)n;
      break;
    case OPT_RTL: o->rtl = p.arg; break;
    case OPT_DIR: o->out_dir = p.arg; break;
    case OPT_BUDGET:
      if (cli_opt_int(&p, 1, 1000000, "a number of candidates", &n)) return -1;
      o->budget = (int)n;
      break;
    case OPT_NOSHRINK: o->shrink = 0; break;
    case OPT_FIELDS: o->fields = 1; break;
    case OPT_VALUES: o->values = 1; break;
    case CLI_OPT_ARG:
      diag_error_plain("gen stream: unexpected argument '%s'", p.arg);
      return -1;
    default: return -1;
    }
  }
  if (!o->have_seed) return diag_error_plain("gen stream: --seed N (or --seeds A-B) is required"), -1;
  int many = o->check || o->fields || o->values;
  if (!many && o->seed_lo != o->seed_hi)
    return diag_error_plain("gen stream: --seeds gives several streams: with --check, --fields or --values only"), -1;
  if (many && (o->out || o->tasm))
    return diag_error_plain("gen stream: -o and --tasm write one stream: not with --check, --fields or --values"), -1;
  if (!many && !o->out && !o->tasm)
    return diag_error_plain("gen stream: -o FILE or --tasm is required (where the stream goes)"), -1;
  return 0;
}

/* Returns 0 after writing the disassembly of s to path (stdout when NULL)
 * through a temporary file renamed into place; -1 after printing why. */
static int cli_gen_stream_tasm(const gen_stream *s, const char *path) {
  uint8_t *buf;
  size_t len;
  char msg[512] = "", tmp[4200];
  if (gen_stream_bytes(s, &buf, &len, msg, sizeof msg))
    return diag_error_plain("gen stream: %s", msg), -1;
  FILE *f = stdout;
  if (path) {
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    if (!(f = fopen(tmp, "w"))) {
      free(buf);
      return diag_error_plain("gen stream: cannot write '%s': %s", path, strerror(errno)), -1;
    }
  }
  fprintf(f, "// tcpa gen stream --seed %" PRIu64 "\n", s->seed);
  int rc = asm_stream_disassemble(buf, len, &s->cfg, f, msg, sizeof msg) != STREAM_OK;
  free(buf);
  if (rc) diag_error_plain("gen stream: %s", msg);
  if (path) {
    if (fclose(f) || rc || rename(tmp, path)) {
      if (!rc) diag_error_plain("gen stream: cannot write '%s': %s", path, strerror(errno));
      remove(tmp);
      return -1;
    }
  } else if (fflush(stdout)) {
    return diag_error_plain("gen stream: cannot write the output: %s", strerror(errno)), -1;
  }
  return rc ? -1 : 0;
}

/* Returns 0 after writing the stream of seed o->seed_lo (-o, --tasm). */
static int cli_gen_stream_one(const cli_gen_stream_opts *o, const arch_config *cfg) {
  gen_stream s;
  char msg[512];
  if (gen_stream_make(cfg, o->seed_lo, &s, msg, sizeof msg))
    return diag_error_plain("gen stream: %s", msg), CLI_EXIT_INPUT;
  int rc = o->tasm ? cli_gen_stream_tasm(&s, o->out) : gen_stream_save(&s, o->out, msg, sizeof msg);
  if (rc && !o->tasm) diag_error_plain("gen stream: %s", msg);
  if (!rc)
    fprintf(stderr, "tcpa gen stream: seed %" PRIu64 ": %d packets, %d instructions%s%s\n", o->seed_lo,
            s.n, stream_fuzz_size(&s), o->out ? " -> " : "", o->out ? o->out : "");
  gen_stream_free(&s);
  return rc ? CLI_EXIT_INPUT : CLI_EXIT_OK;
}

/* Removes one file or directory (an nftw callback); returns 0. */
static int cli_gen_stream_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

/* Returns 0 after writing DIR/seed-N<suffix>.bin and .tasm of s; -1. */
static int cli_gen_stream_keep(const cli_gen_stream_opts *o, const gen_stream *s, const char *suffix) {
  char bin[4200], tasm[4200], msg[512];
  snprintf(bin, sizeof bin, "%s/seed-%" PRIu64 "%s.bin", o->out_dir, s->seed, suffix);
  snprintf(tasm, sizeof tasm, "%s/seed-%" PRIu64 "%s.tasm", o->out_dir, s->seed, suffix);
  if (gen_stream_save(s, bin, msg, sizeof msg)) return diag_error_plain("gen stream: %s", msg), -1;
  if (cli_gen_stream_tasm(s, tasm)) return -1;
  printf("  reproducer: %s %s (%d packets, %d instructions)\n", bin, tasm, s->n, stream_fuzz_size(s));
  return 0;
}

/* Prints the divergence of stream s (original and shrunk) and keeps the
 * reproducers; returns 0, or -1 when a file cannot be written. */
static int cli_gen_stream_diverged(const cli_gen_stream_opts *o, gen_stream *s,
                                   const stream_fuzz_opts *fo, const stream_fuzz_verdict *v) {
  printf("seed %" PRIu64 ": DIVERGE: %s\n", s->seed, v->line);
  if (mkdir(o->out_dir, 0777) && errno != EEXIST)
    return diag_error_plain("gen stream: cannot make '%s': %s", o->out_dir, strerror(errno)), -1;
  if (cli_gen_stream_keep(o, s, "")) return -1;
  if (!o->shrink) {
    fputs(v->report ? v->report : "", stdout);
    return 0;
  }
  int n0 = s->n, i0 = stream_fuzz_size(s);
  int tried = stream_fuzz_shrink(s, fo, o->budget);
  stream_fuzz_verdict w;
  stream_fuzz_judge(s, fo, &w);
  printf("  shrunk: %d -> %d packets, %d -> %d instructions (%d candidates tried)\n", n0, s->n, i0,
         stream_fuzz_size(s), tried);
  printf("  first divergence of the shrunk stream: %s\n", w.line[0] ? w.line : w.msg);
  fputs(w.report ? w.report : "", stdout);
  free(w.report);
  return cli_gen_stream_keep(o, s, ".min");
}

/* Returns 0 after counting the functional coverage of stream s into fs:
 * its fields as it loads (fieldcov.h) and the operand values of a run of
 * the C model of at most max_cycles cycles (valcov.h, with the rest of
 * fcov.h); -1 after printing why (never for a stream of gen_stream_make). */
static int cli_gen_stream_count(const gen_stream *s, fcov_set *fs, const cli_gen_stream_opts *o) {
  uint8_t *buf = NULL;
  size_t len;
  char msg[512] = "";
  model_error err = {0};
  model *m = NULL;
  fcov_walk *w = NULL;
  int rc = gen_stream_bytes(s, &buf, &len, msg, sizeof msg);
  if (!rc && !o->values) { /* the fields only: no run */
    rc = fieldcov_stream_count(fs, &s->cfg, buf, len, msg, sizeof msg);
    fs->runs += !rc;
  } else if (!rc && !(w = fcov_walk_new(fs, &s->cfg, buf, len, msg, sizeof msg))) {
    rc = -1;
  } else if (!rc && !(m = model_new(&s->cfg, buf, len, &err))) {
    rc = -1;
    snprintf(msg, sizeof msg, "%s", err.msg);
  } else if (!rc) {
    model_set_trace(m, fcov_walk_event, w);
    model_run(m, o->max_cycles);
    fcov_walk_finish(w);
    w = NULL;
  }
  fcov_walk_drop(w);
  model_free(m);
  free(buf);
  if (rc) diag_error_plain("gen stream: seed %" PRIu64 ": %s", s->seed, msg);
  return rc;
}

/* Returns whether bin name is one --fields (groups field, insn) or
 * --values (group value) reports. */
static int cli_gen_stream_reported(const cli_gen_stream_opts *o, const char *name) {
  return (o->fields && fieldcov_is_field_bin(name)) || (o->values && !strncmp(name, "value.", 6));
}

/* Prints the field and operand value coverage of the streams in fs (the
 * classes hit, each one missed by name); returns the number missed. */
static int cli_gen_stream_fields_report(const cli_gen_stream_opts *o, const fcov_set *fs) {
  size_t hit = 0, all = 0;
  int missed = 0;
  for (size_t i = 0; i < fs->n; i++)
    if (cli_gen_stream_reported(o, fs->v[i].name)) all++, hit += fs->v[i].count > 0;
  printf("%s coverage: %zu of %zu %s classes hit over %llu streams\n", o->fields ? "field" : "value", hit, all,
         o->fields && o->values ? "field and value" : o->fields ? "field" : "value", (unsigned long long)fs->runs);
  for (size_t i = 0; i < fs->n; i++)
    if (cli_gen_stream_reported(o, fs->v[i].name) && !fs->v[i].count) {
      printf("missed: %s\n", fs->v[i].name);
      missed++;
    }
  return missed;
}

/* Returns the exit status after counting the field coverage of the
 * streams of every seed (--fields without --check). */
static int cli_gen_stream_fields(const cli_gen_stream_opts *o, const arch_config *cfg) {
  fcov_set fs = {0};
  int bad = fcov_bins_define(&fs, cfg) != 0; /* every class defined, hit or not */
  for (uint64_t seed = o->seed_lo; !bad; seed++) {
    gen_stream s;
    char msg[512];
    if (gen_stream_make(cfg, seed, &s, msg, sizeof msg)) {
      diag_error_plain("gen stream: %s", msg);
      bad = 1;
      break;
    }
    bad = cli_gen_stream_count(&s, &fs, o) != 0;
    gen_stream_free(&s);
    if (seed == o->seed_hi) break;
  }
  int missed = bad ? 0 : cli_gen_stream_fields_report(o, &fs);
  fcov_free(&fs);
  return bad ? CLI_EXIT_INPUT : missed ? CLI_EXIT_MISMATCH : CLI_EXIT_OK;
}

/* Returns the exit status after judging the streams of every seed. */
static int cli_gen_stream_check(const cli_gen_stream_opts *o, const arch_config *cfg) {
  char bin[4300], msg[600], work[] = "/tmp/tcpa-gen-stream-XXXXXX";
  if (o->rtl) snprintf(bin, sizeof bin, "%s", o->rtl);
  else if (engine_rtl_locate(cfg, o->arch, bin, sizeof bin, msg, sizeof msg))
    return diag_error_plain("gen stream: %s", msg), CLI_EXIT_INPUT;
  if (!mkdtemp(work)) return diag_error_plain("gen stream: cannot make a scratch directory"), CLI_EXIT_INPUT;
  stream_fuzz_opts fo = {bin, work, o->max_cycles};
  int agree = 0, done = 0, diverge = 0, invalid = 0;
  fcov_set fs = {0};
  int count = o->fields || o->values;
  if (count && fcov_bins_define(&fs, cfg)) invalid++; /* every class defined, hit or not */
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (uint64_t seed = o->seed_lo;; seed++) {
    gen_stream s;
    stream_fuzz_verdict v = {0};
    if (gen_stream_make(cfg, seed, &s, v.msg, sizeof v.msg)) {
      diag_error_plain("gen stream: %s", v.msg);
      invalid++;
      break;
    }
    if (count && cli_gen_stream_count(&s, &fs, o)) invalid++;
    switch (stream_fuzz_judge(&s, &fo, &v)) {
    case STREAM_FUZZ_AGREE:
      agree++, done += v.done;
      printf("seed %" PRIu64 ": agree (%s, %" PRIu64 " cycles, %" PRIu64 " faults; %d packets, %d instructions)\n",
             seed, v.done ? "done" : "timeout", v.cycles, v.faults, s.n, stream_fuzz_size(&s));
      break;
    case STREAM_FUZZ_DIVERGE:
      diverge++;
      if (cli_gen_stream_diverged(o, &s, &fo, &v)) invalid++;
      break;
    default:
      invalid++;
      printf("seed %" PRIu64 ": INVALID: %s\n", seed, v.msg);
    }
    fflush(stdout);
    free(v.report);
    gen_stream_free(&s);
    if (seed == o->seed_hi) break;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  nftw(work, cli_gen_stream_rm, 16, FTW_DEPTH | FTW_PHYS);
  printf("%d streams: %d agree (%d done, %d timeout), %d diverge, %d invalid; %.1f s\n",
         agree + diverge + invalid, agree, done, agree - done, diverge, invalid,
         (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
  int missed = count && !invalid ? cli_gen_stream_fields_report(o, &fs) : 0;
  fcov_free(&fs);
  return invalid ? CLI_EXIT_INPUT : diverge || missed ? CLI_EXIT_MISMATCH : CLI_EXIT_OK;
}

int cli_gen_stream(int argc, char **argv) {
  cli_gen_stream_opts o;
  int r = cli_gen_stream_parse(argc, argv, &o);
  if (r == 1) return cli_gen_stream_usage(stdout), CLI_EXIT_OK;
  if (r < 0) return CLI_EXIT_INPUT;
  arch_config cfg;
  if (o.arch ? arch_config_load(o.arch, &cfg) : arch_config_load_default(&cfg)) return CLI_EXIT_INPUT;
  if (o.check) return cli_gen_stream_check(&o, &cfg);
  if (o.fields || o.values) return cli_gen_stream_fields(&o, &cfg);
  return cli_gen_stream_one(&o, &cfg);
}
