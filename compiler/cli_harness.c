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
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "cli.h"
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

int cli_harness(int argc, char **argv) {
  static const struct option longopts[] = {{"arch", required_argument, NULL, 'a'},
                                           {"kind", required_argument, NULL, 'k'},
                                           {"check", no_argument, NULL, 'c'},
                                           {"key", no_argument, NULL, 'K'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  const char *arch_path = NULL, *kind = "rtl";
  int check = 0, key = 0, c;
  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    switch (c) {
    case 'a': arch_path = optarg; break;
    case 'k': kind = optarg; break;
    case 'c': check = 1; break;
    case 'K': key = 1; break;
    case 'h': cli_harness_usage(stdout); return CLI_EXIT_OK;
    case ':':
      diag_error_plain("harness: %s needs a value (see 'tcpa harness --help')", argv[optind - 1]);
      return CLI_EXIT_INPUT;
    default:
      diag_error_plain("harness: unknown option '%s' (see 'tcpa harness --help')", argv[optind - 1]);
      return CLI_EXIT_INPUT;
    }
  }
  if (optind < argc) {
    diag_error_plain("harness: unexpected argument '%s' (see 'tcpa harness --help')", argv[optind]);
    return CLI_EXIT_INPUT;
  }
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
