/*
 * cli_harness.c: `tcpa harness [--arch FILE] [--kind K] [--check | --key]`.
 *
 * Finds the Verilated harness of kind K (rtl, mutants, sc, cov) for the
 * architecture configuration FILE (any INI file; the embedded default
 * without --arch) in the harness cache, builds it when it is missing, and
 * prints its path on stdout (docs/rtl.md "Harness cache"). --check only
 * says whether it is built (exit 0) or not (exit 1), --key prints the key,
 * the directory and the binary without building. The engines find their
 * harness the same way (engine_harness.c); this command lets scripts,
 * tests and the Makefile build one ahead of a regression.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "engine.h"

/* Prints the usage of `tcpa harness` to f. */
static void cli_harness_usage(FILE *f) {
  fputs("usage: tcpa harness [--arch FILE] [--kind rtl|mutants|sc|cov] [--check | --key]\n\n"
        "Builds (when missing) the Verilated harness of an architecture\n"
        "configuration and prints its path. Harnesses are cached under\n"
        "BUILD/harness/, keyed by a hash of the effective configuration, the\n"
        "RTL, the generated packages' sources, the harness sources, the\n"
        "Verilator recipe and the Verilator version (docs/rtl.md).\n\n"
        "  --arch FILE   the architecture configuration (default: the embedded\n"
        "                configs/default.ini); any INI file, anywhere\n"
        "  --kind K      rtl (tcpa-rtl, default), mutants (tcpa-rtl with the\n"
        "                fault-injection hooks), sc (tcpa-sc, SystemC), cov\n"
        "                (tcpa-rtl-cov, line and toggle coverage)\n"
        "  --check       build nothing; exit 0 when it is built, 1 when not\n"
        "  --key         build nothing; print key, directory, binary, built\n"
        "  -h, --help    print this help\n\n"
        "exit status: 0 built (path printed), 1 not built (--check),\n"
        "2 invalid input or the build failed\n", f);
}

/* The options of `tcpa harness`. */
typedef struct {
  const char *arch_path, *kind;
  int check, key;
} cli_harness_opts;

/* Returns 0 after reading the arguments into *o, 1 for --help, -1 after
 * printing what is wrong (cli_opt.h). */
static int cli_harness_parse(int argc, char **argv, cli_harness_opts *o) {
  enum { OPT_ARCH = CLI_OPT_LONG, OPT_KIND, OPT_CHECK, OPT_KEY };
  static const struct option longopts[] = {{"arch", required_argument, NULL, OPT_ARCH},
                                           {"kind", required_argument, NULL, OPT_KIND},
                                           {"check", no_argument, NULL, OPT_CHECK},
                                           {"key", no_argument, NULL, OPT_KEY},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  cli_opt p;
  cli_opt_init(&p, "harness", argc, argv, "h", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    switch (c) {
    case 'h': return 1;
    case OPT_ARCH: o->arch_path = p.arg; break;
    case OPT_KIND: o->kind = p.arg; break;
    case OPT_CHECK: o->check = 1; break;
    case OPT_KEY: o->key = 1; break;
    case CLI_OPT_ARG:
      diag_error_plain("harness: unexpected argument '%s' (see 'tcpa harness --help')", p.arg);
      return -1;
    default: return -1;
    }
  }
  return 0;
}

int cli_harness(int argc, char **argv) {
  cli_harness_opts o = {NULL, "rtl", 0, 0};
  int r = cli_harness_parse(argc, argv, &o);
  if (r) {
    if (r > 0) cli_harness_usage(stdout);
    return r > 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT;
  }
  const char *arch_path = o.arch_path, *kind = o.kind;
  int check = o.check, key = o.key;
  const engine_harness *h = engine_harness_by_kind(kind);
  if (!h) {
    diag_error_plain("harness: --kind %s: expected rtl, mutants, sc or cov", kind);
    return CLI_EXIT_INPUT;
  }
  arch_config arch;
  if ((arch_path ? arch_config_load(arch_path, &arch) : arch_config_load_default(&arch)) != 0)
    return CLI_EXIT_INPUT;
  engine_harness_info info;
  char msg[1024];
  if (engine_harness_find(h, &arch, arch_path, !check && !key, &info, msg, sizeof msg) != ENGINE_OK) {
    diag_error_plain("harness: %s", msg);
    return CLI_EXIT_INPUT;
  }
  if (key) {
    printf("key %016" PRIx64 "\ndir %s\nbin %s\nbuilt %s\n", info.key, info.dir, info.bin,
           info.present ? "yes" : "no");
    return CLI_EXIT_OK;
  }
  if (check) {
    printf("%s %s\n", info.bin, info.present ? "built" : "not built");
    return info.present ? CLI_EXIT_OK : 1;
  }
  printf("%s\n", info.bin);
  return CLI_EXIT_OK;
}
