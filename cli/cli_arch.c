/*
 * cli_arch.c: `tcpa arch FILE [--fingerprint | --dump | --sv] [-o OUT]`.
 *
 * Loads an architecture configuration (arch.h) and prints, by default, a
 * line `FILE: OK, fingerprint 0x...` and a summary; --fingerprint only the
 * fingerprint; --dump the effective configuration as INI; --sv the RTL
 * parameter package. With -o the output goes to OUT through a temporary
 * file in the same directory, renamed into place once complete.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "cli.h"
#include "cli_opt.h"
#include "diag.h"

typedef enum { CLI_ARCH_SUMMARY, CLI_ARCH_FINGERPRINT, CLI_ARCH_DUMP, CLI_ARCH_SV } cli_arch_mode;

typedef struct {
  const char *file, *out;
  cli_arch_mode mode;
} cli_arch_opts;

/* Prints the usage of `tcpa arch` to `f`. */
static void cli_arch_usage(FILE *f) {
  fputs("usage: tcpa arch FILE [--fingerprint | --dump | --sv] [-o OUT]\n\n"
        "Checks the architecture configuration FILE (INI, docs/arch.md).\n\n"
        "  (default)      print 'FILE: OK, fingerprint 0x...' and a summary\n"
        "  --fingerprint  print only the fingerprint (0x + 16 hex digits)\n"
        "  --dump         print the effective configuration as INI, every key\n"
        "                 with defaults filled in (loads to the same fingerprint)\n"
        "  --sv           print the SystemVerilog package tcpa_params_pkg\n"
        "  -o OUT         write the --dump or --sv output to OUT (atomically)\n"
        "  -h, --help     print this help\n\n"
        "exit status: 0 valid, 2 invalid input (every error is printed as\n"
        "FILE:LINE:COL: error: ...) or bad option\n", f);
}

/* Returns 0 and fills *o from the arguments, 1 for --help, or -1 after
 * printing what is wrong with them. */
static int cli_arch_parse(int argc, char **argv, cli_arch_opts *o) {
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                           {"fingerprint", no_argument, NULL, CLI_OPT_LONG + CLI_ARCH_FINGERPRINT},
                                           {"dump", no_argument, NULL, CLI_OPT_LONG + CLI_ARCH_DUMP},
                                           {"sv", no_argument, NULL, CLI_OPT_LONG + CLI_ARCH_SV},
                                           {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  cli_opt p;
  cli_opt_init(&p, "arch", argc, argv, "ho:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    if (c == 'h') return 1;
    if (c > CLI_OPT_LONG) {
      cli_arch_mode m = (cli_arch_mode)(c - CLI_OPT_LONG);
      if (o->mode != CLI_ARCH_SUMMARY && o->mode != m) {
        diag_error_plain("arch: %s cannot be combined with another output option", p.name);
        return -1;
      }
      o->mode = m;
    } else if (c == 'o') {
      o->out = p.arg;
    } else if (c != CLI_OPT_ARG) {
      return -1;
    } else if (o->file) {
      diag_error_plain("arch: more than one FILE ('%s' and '%s')", o->file, p.arg);
      return -1;
    } else {
      o->file = p.arg;
    }
  }
  if (!o->file) {
    diag_error_plain("arch: no configuration FILE given (see 'tcpa arch --help')");
    return -1;
  }
  if (o->out && o->mode != CLI_ARCH_DUMP && o->mode != CLI_ARCH_SV) {
    diag_error_plain("arch: -o goes with --dump or --sv");
    return -1;
  }
  return 0;
}

/* Prints the default report: the OK line and a compact summary. */
static void cli_arch_summary(const char *file, const arch_config *c, FILE *f) {
  fprintf(f, "%s: OK, fingerprint 0x%016llx\n", file,
          (unsigned long long)arch_config_fingerprint(c));
  fprintf(f, "  array         %dx%d PEs\n", c->rows, c->cols);
  fprintf(f, "  pe            units alu %d, mul %d, div %d; registers rd %d, fd %d (depth <= %d), "
             "id %d, od %d\n", c->alu, c->mul, c->div, c->rd, c->fd, c->fd_depth, c->id, c->od);
  fprintf(f, "                fifo %d words, imem %d words, %d-way branches\n", c->fifo_depth,
          c->imem, c->branch_targets);
  fprintf(f, "  latency       alu %d, mul %d, div %d cycles\n", c->lat_alu, c->lat_mul, c->lat_div);
  fprintf(f, "  interconnect  %d ports per side, each way\n", c->ports);
  fprintf(f, "  gc            %d signals, %d loop dimensions\n", c->gc_signals, c->gc_dims);
  fprintf(f, "  iobuf         %d banks of %d words\n", c->banks, c->bank_depth);
}

/* Writes the chosen output of `c` to `f`. */
static void cli_arch_emit(const cli_arch_opts *o, const arch_config *c, FILE *f) {
  switch (o->mode) {
  case CLI_ARCH_SUMMARY: cli_arch_summary(o->file, c, f); break;
  case CLI_ARCH_FINGERPRINT:
    fprintf(f, "0x%016llx\n", (unsigned long long)arch_config_fingerprint(c));
    break;
  case CLI_ARCH_DUMP: arch_config_write_ini(c, f); break;
  case CLI_ARCH_SV: arch_config_write_sv(c, f); break;
  }
}

/* Returns 0 after writing the output to o->out through a temporary file
 * renamed into place, or -1 after printing why it failed (no file left). */
static int cli_arch_write_file(const cli_arch_opts *o, const arch_config *c) {
  size_t n = strlen(o->out) + 16;
  char *tmp = malloc(n);
  if (!tmp) return diag_error_plain("arch: out of memory"), -1;
  snprintf(tmp, n, "%s.tmpXXXXXX", o->out);
  int fd = mkstemp(tmp);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    diag_error_plain("arch: cannot write '%s': %s", o->out, strerror(errno));
    if (fd >= 0) close(fd), unlink(tmp);
    free(tmp);
    return -1;
  }
  cli_arch_emit(o, c, f);
  int bad = fflush(f) != 0 || ferror(f);
  int err = errno;
  if (fclose(f) != 0 && !bad) bad = 1, err = errno;
  if (!bad && rename(tmp, o->out) != 0) bad = 1, err = errno;
  if (bad) {
    diag_error_plain("arch: cannot write '%s': %s", o->out, strerror(err));
    unlink(tmp);
  }
  free(tmp);
  return bad ? -1 : 0;
}

int cli_arch(int argc, char **argv) {
  cli_arch_opts o;
  int r = cli_arch_parse(argc, argv, &o);
  if (r == 1) {
    cli_arch_usage(stdout);
    return CLI_EXIT_OK;
  }
  if (r < 0) return CLI_EXIT_INPUT;
  arch_config cfg;
  if (arch_config_load(o.file, &cfg) != 0) return CLI_EXIT_INPUT;
  if (o.out) return cli_arch_write_file(&o, &cfg) ? CLI_EXIT_INPUT : CLI_EXIT_OK;
  cli_arch_emit(&o, &cfg, stdout);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    diag_error_plain("arch: cannot write the output: %s", strerror(errno));
    return CLI_EXIT_INPUT;
  }
  return CLI_EXIT_OK;
}
