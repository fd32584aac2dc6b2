/*
 * main.c: the `tcpa` command. Dispatches on the subcommand name to the
 * cli_* function that implements it (cli.h), each of which reads its own
 * options (cli_opt.h); prints the overall help, and with --version (-V)
 * the tool's version and git revision (version.h, docs/user-guide.md).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "version.h"

typedef struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} main_subcommand;

static const main_subcommand main_subcommands[] = {
    {"check", cli_check, "check a program against the language rules; --dot prints its RDG"},
    {"run", cli_run, "compile, instantiate and run a program; check it against the reference"},
    {"compile", cli_compile, "map a program symbolically; write its symbolic configuration (.sym)"},
    {"host", cli_host, "compile a program and write a C host program that runs it through the runtime"},
    {"instantiate", cli_instantiate, "instantiate a .sym for parameter values and a region; write the stream"},
    {"sim", cli_sim, "run a configuration stream on the cycle-accurate C model"},
    {"arch", cli_arch, "check an architecture configuration; print its fingerprint or RTL parameters"},
    {"asm", cli_asm, "assemble a configuration stream from its text form (.tasm)"},
    {"disasm", cli_disasm, "print a configuration stream as .tasm text"},
    {"cosim-check", cli_lockstep, "compare a model trace with an RTL trace; report the first divergence"},
    {"lint", cli_lint, "lint the RTL of an architecture configuration (verilator -Wall, the waivers)"},
    {"testplan", cli_testplan, "check the testplan (docs/testplan.yml); measure it on a regression"},
    {"signoff", cli_signoff, "sign off an architecture: lint, synthesis, full suite in cosim, coverage"},
    {"profile", cli_profile, "where a run's cycles went: per PE and FU, per bank, per region, from its trace"},
    {"explore", cli_explore, "design-space exploration: a workload over a space of configurations, Pareto front"},
    {"import-dfg", cli_import_dfg, "turn a DSAGEN DFG file into loop programs, a job and an explore workload"},
    {"regress", cli_regress, "run suites of runs in parallel; JUnit XML, JSON summary, HTML report"},
    {"harness", cli_harness, "build (when missing) and print the Verilated harness of a configuration"},
    {"wave", cli_wave, "open GTKWave on a run directory's waveform (rtl.fst, model.fst) and .gtkw"},
    {"gen", cli_gen, "random valid configurations, streams and programs (gen arch|stream|program)"},
    {"stream-poke", cli_stream_poke, "fault injection: flip bits of a stream word, fix the CRC; --fields maps words"},
};

#define MAIN_NSUB (int)(sizeof main_subcommands / sizeof main_subcommands[0])

/* Prints the overall usage to `f`. */
static void main_usage(FILE *f) {
  fputs("usage: tcpa COMMAND [ARGS...]\n"
        "       tcpa --version | --help\n\n"
        "A verification testbench for tightly coupled processor arrays.\n\n"
        "commands:\n", f);
  for (int i = 0; i < MAIN_NSUB; i++)
    fprintf(f, "  %-12s %s\n", main_subcommands[i].name, main_subcommands[i].summary);
  fputs("\n'tcpa COMMAND --help' describes one command; 'tcpa --version' prints the\n"
        "version and the git revision of this build.\n"
        "exit status: 0 pass, 1 mismatch, 2 invalid input, 3 does not fit\n", f);
}

/* Prints `tcpa VERSION (git REV)` on stdout; returns the exit status. */
static int main_version(void) {
  printf("tcpa %s (git %s)\n", version_tool(), version_git_rev());
  return fflush(stdout) ? CLI_EXIT_INPUT : CLI_EXIT_OK;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    main_usage(stderr);
    return CLI_EXIT_INPUT;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    main_usage(stdout);
    return CLI_EXIT_OK;
  }
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) return main_version();
  for (int i = 0; i < MAIN_NSUB; i++)
    if (!strcmp(argv[1], main_subcommands[i].name))
      return main_subcommands[i].run(argc - 1, argv + 1);
  fprintf(stderr, "tcpa: error: unknown %s '%s'\n", argv[1][0] == '-' ? "option" : "command", argv[1]);
  main_usage(stderr);
  return CLI_EXIT_INPUT;
}
