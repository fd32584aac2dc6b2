/*
 * cli_opt.h: the one option parser of the `tcpa` subcommands
 * (docs/user-guide.md, "Options"): getopt_long with the messages and exit
 * statuses of docs/user-guide.md, and the value checks several commands share
 * (integers with a range, NAME=VALUE pairs).
 *
 * A command lists its options as a `struct option` table (long-only
 * options take codes from CLI_OPT_LONG up) and its short options as a
 * getopt string, then calls cli_opt_next until CLI_OPT_END. Arguments stay
 * in the order given (argv is not permuted): a positional argument comes
 * back as CLI_OPT_ARG in p->arg, an option as its code with its value in
 * p->arg; everything after `--` is positional. `--opt VALUE` and
 * `--opt=VALUE` are the same; a long option may be abbreviated to a prefix
 * that names only it. An unknown option, a missing value or a value given
 * to an option that takes none prints `tcpa: error: CMD: ...` naming the
 * option and pointing to `tcpa CMD --help`, and returns CLI_OPT_ERROR: the
 * command then exits 2 (CLI_EXIT_INPUT).
 */
#ifndef TCPA_CLI_OPT_H
#define TCPA_CLI_OPT_H

#include <getopt.h>
#include <stdint.h>

enum {
  CLI_OPT_END = -1,   /* no argument left */
  CLI_OPT_ERROR = -2, /* a bad option: the message is printed */
  CLI_OPT_ARG = 1,    /* a positional argument, in p->arg */
  CLI_OPT_LONG = 256  /* the first code of the long-only options */
};

/* The state of one parse of a command line. */
typedef struct {
  const char *cmd;                /* the subcommand, for messages: "run" */
  int argc;
  char **argv;                    /* argv[0] is the subcommand's name */
  const struct option *longopts;
  char shortopts[64];             /* "-:" and the command's short options */
  const char *arg;                /* the option's value, or the positional */
  char name[64];                  /* the option returned: "--seed", "-o" */
  int rest;                       /* after `--` or the end: next index */
} cli_opt;

/* Starts a parse of argv[1..argc) for command cmd with the getopt short
 * options `shortopts` ("ho:") and the long options `longopts` (terminated
 * by a zero entry). Resets getopt's state. */
void cli_opt_init(cli_opt *p, const char *cmd, int argc, char **argv, const char *shortopts,
                  const struct option *longopts);

/* Returns the code of the next option (its value in p->arg, its name in
 * p->name), CLI_OPT_ARG for a positional argument (in p->arg),
 * CLI_OPT_END after the last argument, or CLI_OPT_ERROR after printing
 * what is wrong. */
int cli_opt_next(cli_opt *p);

/* Returns 0 and the integer p->arg in *v when it is decimal or 0x hex
 * (optional sign; no octal) and within [lo, hi]; -1 after printing
 * `CMD: OPT: expected WHAT from LO to HI, got 'ARG'` (what: "an integer"
 * when NULL). */
int cli_opt_int(const cli_opt *p, int64_t lo, int64_t hi, const char *what, int64_t *v);

/* Returns 0 after splitting p->arg, "NAME=VALUE" with both parts nonempty,
 * into a malloc'ed copy of NAME in *name and a pointer to VALUE (inside
 * p->arg) in *value; -1 after printing `CMD: OPT: expected NAME=WHAT, got
 * 'ARG'` (what: "VALUE", "FILE"). */
int cli_opt_pair(const cli_opt *p, const char *what, char **name, const char **value);

/* Returns 0 and the region of s, "RxC" or "RxC@ROW,COL" (the region's
 * origin in the array, docs/user-guide.md "Regions"; 0,0 without it), in
 * *rows, *cols, *row0, *col0 (R, C from 1, ROW, COL from 0, each at most
 * 65535); -1 otherwise. Prints nothing. */
int cli_opt_pes_text(const char *s, int *rows, int *cols, int *row0, int *col0);

/* Returns 0 and the integer s in *v when it is decimal or 0x hex (optional
 * sign; no octal) and within [lo, hi]; -1 otherwise. Prints nothing. */
int cli_opt_int_text(const char *s, int64_t lo, int64_t hi, int64_t *v);

#endif
