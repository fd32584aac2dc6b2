/*
 * host_gen.h: `tcpa host` as a library (docs/runtime.md "Host programs"):
 * compiles a loop program as `tcpa compile --pes --param` does and
 * writes a C host program that embeds its symbolic configuration and runs
 * it through the host runtime (tcpa_rt.h), with the Makefile that builds
 * it against the installed runtime.
 */
#ifndef TCPA_HOST_GEN_H
#define TCPA_HOST_GEN_H

#include <stdint.h>

#define HOST_GEN_MAX_PARAMS 32

/* The request: the command line of `tcpa host` (cli_host.c). */
typedef struct {
  const char *path;    /* the program (.pla) */
  const char *arch;    /* its architecture file; NULL: the embedded default */
  const char *map;     /* --map I[,J]; NULL: the default */
  const char *out_dir; /* -o DIR: made when missing */
  int axis;            /* --rows: 1 */
  int rows, cols, row0, col0; /* --pes RxC@R0,C0 (default 1x1@0,0) */
  int nparam;          /* --param NAME=VALUE: the program's default values */
  char *pname[HOST_GEN_MAX_PARAMS];
  int64_t pval[HOST_GEN_MAX_PARAMS];
} host_gen_opts;

/* The outcomes of host_gen_run: the exit statuses of `tcpa host`. */
enum { HOST_GEN_OK = 0, HOST_GEN_INPUT = 2, HOST_GEN_NOFIT = 3 };

/* Returns HOST_GEN_OK after writing DIR/NAME.sym, DIR/NAME_host.c and
 * DIR/Makefile (NAME: the program file's base name), each atomically;
 * HOST_GEN_INPUT or HOST_GEN_NOFIT after a message (the compiler's: the
 * resource that ran out), with none of the three written. */
int host_gen_run(const host_gen_opts *o);

#endif
