/*
 * cli_lockstep.c: `tcpa cosim-check MODEL.trace RTL.trace [--events LIST]
 * [--window N] [--config STREAM [--listing FILE] [--arch FILE]]
 * [--gtkw FILE --fst FILE [--pe-scope PATTERN]]`.
 *
 * Compares the trace of the C model (expected) with the trace of the RTL
 * (actual) through the lockstep checker (tb/lockstep.h) and prints its
 * report on stdout: the summary when they agree (exit 0), the divergence
 * when they do not (exit 1). Unreadable or malformed traces, traces of
 * different architectures or format versions, and bad options exit 2. With
 * --config (the configuration stream the traces ran, `tcpa run --out-dir`'s
 * config.bin), a divergence of a state event is followed by the lines of
 * its unit (tb/divergence_replay.h, as a cosim run writes them: the AG with
 * the access it serves from --listing, its address equation and J; the
 * step counter; the GC and the signals that differ; the FIFO's producer and
 * consumers; docs/trace.md "The unit of a state event"). On a divergence,
 * --gtkw writes a GTKWave save file (tb/gtkw.h) for the RTL's FST with a
 * marker at the divergence cycle, the divergent PE's signals and the
 * unit's first.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "divergence_replay.h"
#include "fileio.h"
#include "gtkw.h"
#include "lockstep.h"
#include "cli.h"
#include "cli_opt.h"
#include "diag.h"

typedef struct {
  const char *model, *rtl, *gtkw, *fst, *pe_scope;
  const char *config, *listing, *arch; /* the configuration of the run (--config) */
  unsigned kinds;
  int window;
} cli_lockstep_opts;

/* Prints the usage of `tcpa cosim-check` to f. */
static void cli_lockstep_usage(FILE *f) {
  fputs("usage: tcpa cosim-check MODEL.trace RTL.trace [--events LIST] [--window N]\n"
        "                          [--config STREAM [--listing FILE] [--arch FILE]]\n"
        "                          [--gtkw FILE --fst FILE [--pe-scope PATTERN]]\n\n"
        "Compares two traces (docs/trace.md) cycle by cycle, the C model's as the\n"
        "expected one and the RTL's as the actual one, and reports the first\n"
        "divergence: cycle, PE, unit, event kind, both events and the last events\n"
        "of that PE in both traces.\n\n"
        "  --events LIST     compare only these event kinds (comma-separated, e.g.\n"
        "                    wr,push,bank); default all\n"
        "  --window N        events of the PE shown per trace, and cycles on each\n"
        "                    side of the divergence in the GTKWave view (default 8)\n"
        "  --config STREAM   the configuration stream the traces ran (tcpa run\n"
        "                    --out-dir's config.bin): a divergence of a state event\n"
        "                    (bank, bankwr, ag, mem, step, gc, fifo, pop, push) is\n"
        "                    followed by its unit, as tcpa run --engine cosim writes\n"
        "                    it: the address generator, its address equation and the\n"
        "                    iteration J; the step counter; the GC and the signals\n"
        "                    that differ with their terms; the FIFO's producer and\n"
        "                    consumers (J in the GC's loop order: J0, J1, ...)\n"
        "  --listing FILE    with --config: the run's listing (config.lst), for the\n"
        "                    access an address generator serves\n"
        "  --arch FILE       with --config: the architecture of the run (default:\n"
        "                    configs/default.ini, embedded); it must be the traces'\n"
        "  --gtkw FILE       on a divergence, write a GTKWave save file for...\n"
        "  --fst FILE        ...the RTL's waveform: marker at the divergence, the\n"
        "                    PE's signals grouped, zoomed to the window\n"
        "  --pe-scope PAT    scope of PE (%r, %c) in the FST (default\n"
        "                    " GTKW_PE_SCOPE_DEFAULT ")\n"
        "  -h, --help        print this help\n\n"
        "exit status: 0 the traces agree, 1 they diverge, 2 invalid input (a trace\n"
        "unreadable or malformed, of another architecture or format version, or a\n"
        "bad option)\n", f);
}

/* Returns 0 and the options in *o, 1 for --help, -1 after an error. */
static int cli_lockstep_parse(int argc, char **argv, cli_lockstep_opts *o) {
  enum { OPT_EVENTS = CLI_OPT_LONG, OPT_WINDOW, OPT_GTKW, OPT_FST, OPT_SCOPE, OPT_CONFIG, OPT_LISTING, OPT_ARCH };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},         {"events", required_argument, NULL, OPT_EVENTS},
      {"window", required_argument, NULL, OPT_WINDOW}, {"gtkw", required_argument, NULL, OPT_GTKW},
      {"fst", required_argument, NULL, OPT_FST}, {"pe-scope", required_argument, NULL, OPT_SCOPE},
      {"config", required_argument, NULL, OPT_CONFIG}, {"listing", required_argument, NULL, OPT_LISTING},
      {"arch", required_argument, NULL, OPT_ARCH}, {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  o->kinds = LOCKSTEP_KINDS_ALL;
  o->window = LOCKSTEP_WINDOW_DEFAULT;
  cli_opt p;
  cli_opt_init(&p, "cosim-check", argc, argv, "h", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    char bad[64];
    int64_t n;
    switch (c) {
    case 'h': return 1;
    case OPT_EVENTS:
      if (!(o->kinds = lockstep_kinds_parse(p.arg, bad, sizeof bad))) {
        diag_error_plain("cosim-check: --events: unknown event kind '%s' (start, sig, issue, "
                         "halt, pop, fdrd, wr, hop, push, bank, fault, done)", bad);
        return -1;
      }
      break;
    case OPT_WINDOW:
      if (cli_opt_int(&p, 1, 100000, "a number", &n)) return -1;
      o->window = (int)n;
      break;
    case OPT_GTKW: o->gtkw = p.arg; break;
    case OPT_FST: o->fst = p.arg; break;
    case OPT_SCOPE: o->pe_scope = p.arg; break;
    case OPT_CONFIG: o->config = p.arg; break;
    case OPT_LISTING: o->listing = p.arg; break;
    case OPT_ARCH: o->arch = p.arg; break;
    case CLI_OPT_ARG:
      if (o->rtl) {
        diag_error_plain("cosim-check: more than two traces given ('%s')", p.arg);
        return -1;
      }
      *(o->model ? &o->rtl : &o->model) = p.arg;
      break;
    default: return -1;
    }
  }
  if (!o->rtl) {
    diag_error_plain("cosim-check: needs two traces, MODEL.trace RTL.trace");
    return -1;
  }
  if (!o->gtkw != !o->fst) {
    diag_error_plain("cosim-check: --gtkw and --fst go together");
    return -1;
  }
  if ((o->listing || o->arch) && !o->config) {
    diag_error_plain("cosim-check: --%s goes with --config STREAM", o->listing ? "listing" : "arch");
    return -1;
  }
  return 0;
}

/* The configuration of --config, --listing and --arch. */
typedef struct {
  arch_config arch;
  engine_config c;    /* stream and listing only (no GC order: J in the GC's) */
} cli_lockstep_config;

/* Returns 0 after loading the files of --config, --listing and --arch into
 * k (nothing without --config); -1 after printing why not. */
static int cli_lockstep_config_load(const cli_lockstep_opts *o, cli_lockstep_config *k) {
  size_t len = 0;
  memset(k, 0, sizeof *k);
  if (!o->config) return 0;
  if (o->arch ? arch_config_load(o->arch, &k->arch) : arch_config_load_default(&k->arch)) return -1;
  if (!(k->c.stream = (uint8_t *)fileio_read_all(o->config, &len))) {
    diag_error_plain("cosim-check: %s: cannot read the configuration stream: %s", o->config, strerror(errno));
    return -1;
  }
  k->c.stream_len = len;
  if (o->listing && !(k->c.listing = fileio_read_all(o->listing, &len))) {
    diag_error_plain("cosim-check: %s: cannot read the listing: %s", o->listing, strerror(errno));
    return -1;
  }
  return 0;
}

/* Returns 0 after writing the GTKWave save file of the divergence (the
 * unit's FST names `unit` first, "" for none); -1 after printing why not. */
static int cli_lockstep_gtkw(const cli_lockstep_opts *o, const lockstep_divergence *d,
                             const lockstep_fst_timing *t, const char *unit) {
  char scope[512], msg[512], comment[200];
  gtkw_signals sigs = {0};
  gtkw_view v = {0};
  int row = d->row < 0 ? 0 : d->row, col = d->col < 0 ? 0 : d->col;
  gtkw_pe_scope(scope, sizeof scope, o->pe_scope, row, col);
  if (gtkw_view_at(&v, t->t0, t->period, d->cycle, o->window)) {
    diag_error_plain("cosim-check: cycle %" PRIu64 " does not fit the FST's time", d->cycle);
    return -1;
  }
  v.fst_path = o->fst;
  v.pe_scope = scope;
  snprintf(comment, sizeof comment, "divergence at cycle %" PRIu64 ", PE (%d,%d), %s %s",
           d->cycle, d->row, d->col, trace_kind_name(d->kind), d->unit);
  v.comment = comment;
  v.focus = d->unit; /* the divergent FU / register first in the save file */
  if (gtkw_fst_signals(o->fst, scope, &sigs, msg, sizeof msg))
    fprintf(stderr, "tcpa: warning: %s; the save file has the marker but no signal list\n", msg);
  else if (sigs.n == 0)
    fprintf(stderr, "tcpa: warning: no signals under '%s' in %s (see --pe-scope)\n", scope,
            o->fst);
  /* the unit's scopes and signals (divergence_unit_names) */
  if (gtkw_fst_unit_signals(o->fst, "", unit, &sigs, msg, sizeof msg))
    fprintf(stderr, "tcpa: warning: %s; the unit's signals are not in the save file\n", msg);
  v.unit_names = unit[0] ? unit : NULL;
  int rc = gtkw_write(o->gtkw, &v, &sigs, msg, sizeof msg);
  gtkw_signals_free(&sigs);
  if (rc) {
    diag_error_plain("cosim-check: %s", msg);
    return -1;
  }
  printf("  waveform:          %s (GTKWave: gtkwave %s), marker at time %" PRIu64
         " = t0 %" PRIu64 " + cycle %" PRIu64 " x period %" PRIu64 "%s\n",
         o->gtkw, o->gtkw, v.marker, t->t0, d->cycle, t->period,
         t->declared ? "" : " (defaults: no '# fst' line in the RTL trace)");
  return 0;
}

int cli_lockstep(int argc, char **argv) {
  cli_lockstep_opts o;
  int r = cli_lockstep_parse(argc, argv, &o);
  if (r == 1) return cli_lockstep_usage(stdout), CLI_EXIT_OK;
  if (r < 0) return CLI_EXIT_INPUT;
  cli_lockstep_config k;
  if (cli_lockstep_config_load(&o, &k)) {
    free(k.c.stream);
    free(k.c.listing);
    return CLI_EXIT_INPUT;
  }
  lockstep *ls = lockstep_new(o.kinds, o.window);
  if (!ls) {
    free(k.c.stream);
    free(k.c.listing);
    return diag_error_plain("cosim-check: out of memory"), CLI_EXIT_INPUT;
  }
  lockstep_fst_timing timing;
  lockstep_status st = lockstep_files_check(ls, o.model, o.rtl, &timing);
  int code = CLI_EXIT_OK;
  if (st == LOCKSTEP_ERROR) {
    diag_error_plain("cosim-check: %s", lockstep_error_message(ls));
    code = CLI_EXIT_INPUT;
  } else if (st == LOCKSTEP_REFUSED) {
    lockstep_report_write(ls, stderr);
    code = CLI_EXIT_INPUT;
  } else {
    lockstep_report_write(ls, stdout);
    char unit[600] = "", msg[400];
    if (st == LOCKSTEP_DIVERGED && o.config &&
        divergence_replay_unit(stdout, lockstep_result(ls), &k.arch, &k.c, unit, sizeof unit, msg, sizeof msg)) {
      diag_error_plain("cosim-check: --config %s: %s", o.config, msg);
      code = CLI_EXIT_INPUT;
    } else if (st == LOCKSTEP_DIVERGED) {
      code = CLI_EXIT_MISMATCH;
      if (o.gtkw) cli_lockstep_gtkw(&o, lockstep_result(ls), &timing, unit);
    }
  }
  free(k.c.stream);
  free(k.c.listing);
  lockstep_free(ls);
  fflush(stdout);
  return code;
}
