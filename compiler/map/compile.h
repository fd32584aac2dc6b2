/*
 * compile.h: `tcpa compile` as a library (docs/symbolic.md): parses and
 * checks a program, maps it symbolically (map.h) and writes its symbolic
 * configuration (sym.h).
 */
#ifndef TCPA_COMPILE_H
#define TCPA_COMPILE_H

#include "map.h"
#include "map_search.h"

/* The request: the command line of `tcpa compile` (cli_compile.c). */
typedef struct {
  const char *path, *arch, *map, *out;
  int axis; /* --rows: 1 */
  map_opts mopts; /* --no-tile1 */
  int verbose;    /* -v: each attempt of the mapping search and why it was dropped */
  int bounds;     /* --bounds: the region's lower bounds printed first (map_bounds.h) */
  map_search_check check; /* --pes and --param given: each attempt instantiated
                             (cli_compile.c); NULL: an attempt fits when it maps */
  void *check_ctx;
  int *pes_rows, *pes_cols; /* --pes RxC (NULL: none): compile_run sets the
                               region's shape from it as tcpa run does (a 1-D
                               program on one line of an RxC region) */
} compile_opts;

/* The outcomes of compile_run: the exit statuses of `tcpa compile`. */
enum { COMPILE_OK = 0, COMPILE_INPUT = 2, COMPILE_NOFIT = 3 };

/* Returns COMPILE_OK after printing the mapping's report and writing the
 * .sym atomically; COMPILE_INPUT or COMPILE_NOFIT (the resource named)
 * after a message. */
int compile_run(const compile_opts *o);

#endif
