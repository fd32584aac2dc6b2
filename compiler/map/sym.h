/*
 * sym.h: the symbolic configuration file (.sym, docs/symbolic.md): a
 * versioned line-based text form of map_config that keeps every parameter
 * symbolic (isl sets and maps as isl text). sym_write then sym_read then
 * sym_write gives the same text.
 */
#ifndef TCPA_SYM_H
#define TCPA_SYM_H

#include <stdio.h>

#include "map.h"

/* Writes *m to f; returns 0, or -1 on a write error. */
int sym_write(const map_config *m, FILE *f);

/* Returns 0 and fills *m (prog and g NULL; arch holds only the values the
 * file records) from the .sym text read from f; returns -1 after writing
 * "line N: what is wrong" to msg. */
int sym_read(FILE *f, map_config *m, char *msg, size_t msgsz);

#endif
