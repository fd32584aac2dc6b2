/*
 * cli.h: the subcommands of `tcpa` and the exit statuses of docs/user-guide.md.
 *
 * main.c dispatches on the first argument to one cli_* function per
 * subcommand, each in its own file (cli_check.c, cli_run.c, ...). Each
 * returns the process exit status.
 */
#ifndef TCPA_CLI_H
#define TCPA_CLI_H

enum {
  CLI_EXIT_OK = 0,       /* the run passed, the check found nothing */
  CLI_EXIT_MISMATCH = 1, /* outputs differ from the reference, engines diverged */
  CLI_EXIT_INPUT = 2,    /* invalid input: file:line:column or the option */
  CLI_EXIT_NOFIT = 3     /* does not fit the architecture or the region */
};

/* `tcpa check PROG.pla [--dot]`: returns the exit status. */
int cli_check(int argc, char **argv);

/* `tcpa run PROG.pla ...` (docs/user-guide.md): returns the exit status. */
int cli_run(int argc, char **argv);

/* `tcpa arch FILE [--fingerprint|--sv|--dump]`: returns the exit status. */
int cli_arch(int argc, char **argv);

/* `tcpa asm SRC.tasm [--arch A.ini] -o OUT.bin`: returns the exit status. */
int cli_asm(int argc, char **argv);

/* `tcpa disasm IN.bin [--arch A.ini] [-o OUT]`: returns the exit status. */
int cli_disasm(int argc, char **argv);

/* `tcpa compile PROG.pla [--arch A.ini] [--map I] -o P.sym`: returns the
 * exit status. */
int cli_compile(int argc, char **argv);

/* `tcpa sim STREAM.bin [--arch FILE] [--trace FILE] [--max-cycles N]
 * [--dump-banks DIR]`: runs a stream on the C model; returns the exit
 * status. */
int cli_sim(int argc, char **argv);

/* `tcpa cosim-check MODEL.trace RTL.trace [--events LIST] [--window N]
 * [--gtkw FILE --fst FILE]`: returns the exit status (0 agree, 1 diverge). */
int cli_lockstep(int argc, char **argv);

/* `tcpa instantiate P.sym --param N=V... --pes RxC -o P.bin [--listing F]
 * [--layout F] [--arch A.ini] [--in N=FILE]...`: the concrete stream
 * (cli_instantiate.c, docs/instantiate.md). */
int cli_instantiate(int argc, char **argv);

/* `tcpa stream-poke IN.bin --word N --xor MASK -o OUT.bin` or `--fields`:
 * fault injection into a stream, CRC recomputed (cli_poke.c). */
int cli_stream_poke(int argc, char **argv);

/* `tcpa harness [--arch A.ini] [--kind K] [--check | --key]`: builds or
 * finds a Verilated harness in the cache (cli_harness.c). */
int cli_harness(int argc, char **argv);

/* `tcpa regress SUITE...`, `--rerun-failed DIR`, `--merge DIR...`: runs
 * suites of `tcpa run` in parallel; junit.xml, summary.json, report.html
 * (cli_regress.c, docs/regress.md). */
int cli_regress(int argc, char **argv);

/* `tcpa lint --arch A.ini [--out-dir DIR]`: verilator --lint-only -Wall
 * on the RTL of that configuration with the waiver file; returns 0 clean,
 * 1 warnings, 2 a bad configuration (cli_lint.c). */
int cli_lint(int argc, char **argv);

/* `tcpa explore --workload W --space S ...` (docs/explore.md): returns the
 * exit status. */
int cli_explore(int argc, char **argv);

/* `tcpa host PROG.pla [--arch A.ini] [--pes RxC[@R,C]] [--param N=V]... -o DIR`
 * (cli_host.c, docs/runtime.md "Host programs"): a C host program and its
 * Makefile embedding the program's .sym; returns the exit status. */
int cli_host(int argc, char **argv);

/* `tcpa profile TRACE [-o DIR]` (cli_profile.c, docs/profile.md). */
int cli_profile(int argc, char **argv);

/* `tcpa import-dfg FILE.dfg -o DIR [--len N] [--pes RxC] [--arch A.ini]` (docs/dfg.md):
 * loop programs, a job and a workload from a DSAGEN DFG file; returns the
 * exit status. */
int cli_import_dfg(int argc, char **argv);

/* `tcpa signoff --arch A.ini [--out-dir DIR] [--suite FILE]`: lint,
 * synthesis, coverage harness, the suite in cosim on every region,
 * coverage; DIR/report.md, report.html, junit.xml (cli_signoff.c). */
int cli_signoff(int argc, char **argv);

/* `tcpa wave RUNDIR [--print] [--model]`: GTKWave on a run's waveform and
 * save file (cli_wave.c). */
int cli_wave(int argc, char **argv);

/* `tcpa gen arch --seed N [--max-pes K]`: prints a random valid
 * architecture configuration (cli_gen.c, arch_gen.h). */
int cli_gen(int argc, char **argv);

/* `tcpa gen stream ...`: random configuration streams, written or run on
 * both engines (cli_gen_stream.c, regress/gen_stream.h); argv[0] is
 * "stream". */
int cli_gen_stream(int argc, char **argv);

/* `tcpa testplan [--plan FILE] [--suite FILE] [--regress DIR]`: checks
 * the testplan and measures it on a regression (cli_testplan.c,
 * docs/testplan.md). */
int cli_testplan(int argc, char **argv);

#endif
