/*
 * instantiate.h: `tcpa instantiate` as a library (docs/instantiate.md):
 * reads a symbolic configuration (sym.h), instantiates it for parameter
 * values and a region (inst.h) and writes the configuration stream, the
 * listing and the layout.
 */
#ifndef TCPA_INSTANTIATE_H
#define TCPA_INSTANTIATE_H

#include <stdint.h>

#include "inst.h"

#define INSTANTIATE_MAX 64 /* --param and --in options each */

/* The request (`tcpa instantiate --help`); the names are malloc'ed, freed
 * by the caller. */
typedef struct {
  const char *sym, *out, *listing, *layout, *arch;
  const char *dot; /* --dot F: the picture (F.svg or F.png rendered by Graphviz) */
  int nparam;
  char *pname[INSTANTIATE_MAX];
  int64_t pval[INSTANTIATE_MAX];
  int nin;
  char *in_name[INSTANTIATE_MAX];
  const char *in_file[INSTANTIATE_MAX];
  int rows, cols;
  int time;
  int format;     /* --format: stream_export_format (0: bin, the stream) */
  inst_opts inst; /* --no-fifo-check, --share-all, --prolog-nops */
} instantiate_opts;

/* The outcomes of instantiate_run: the exit statuses of `tcpa instantiate`. */
enum { INSTANTIATE_OK = 0, INSTANTIATE_INPUT = 2, INSTANTIATE_NOFIT = 3 };

/* Returns INSTANTIATE_OK after writing the stream (and the listing and
 * layout asked for) and printing a summary; INSTANTIATE_INPUT or
 * INSTANTIATE_NOFIT (INST_* statuses) after a message; nothing is
 * half-written. */
int instantiate_run(const instantiate_opts *o);

#endif
