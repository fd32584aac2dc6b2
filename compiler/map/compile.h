/*
 * compile.h: `tcpa compile` as a library (docs/symbolic.md): parses and
 * checks a program, maps it symbolically (map.h) and writes its symbolic
 * configuration (sym.h).
 */
#ifndef TCPA_COMPILE_H
#define TCPA_COMPILE_H

#include "map.h"

/* The request: the command line of `tcpa compile` (cli_compile.c). */
typedef struct {
  const char *path, *arch, *map, *out;
  int axis; /* --rows: 1 */
  map_opts mopts; /* --no-tile1 */
} compile_opts;

/* The outcomes of compile_run: the exit statuses of `tcpa compile`. */
enum { COMPILE_OK = 0, COMPILE_INPUT = 2, COMPILE_NOFIT = 3 };

/* Returns COMPILE_OK after printing the mapping's report and writing the
 * .sym atomically; COMPILE_INPUT or COMPILE_NOFIT (the resource named)
 * after a message. */
int compile_run(const compile_opts *o);

#endif
