/*
 * map_search.h: the one mapping search of `tcpa compile`, `tcpa run`,
 * `tcpa regress` and `tcpa signoff` (docs/symbolic.md "The mapping
 * search"): a table of attempts (map_request: rewrite level, II, padding,
 * one tile, inputs read again) tried in one loop, each mapped and, when
 * the caller can, instantiated (a check it passes in); which attempt
 * comes next is decided by the no-fit record of the ones before (fit.h),
 * never by a message. It keeps the best mapping that fits (lowest II, then
 * fewest program words), not the first: after the first that fits, while
 * its II is above the II bound (the smallest II any attempt's schedule
 * could have had: max(ResMII, RecMII), 2 for a piecewise program), the
 * attempts for a lower II (inputs and chains read again, the other
 * rewrite levels) run, at most `budget` of them and none started after
 * `seconds` of CPU time.
 */
#ifndef TCPA_MAP_SEARCH_H
#define TCPA_MAP_SEARCH_H

#include <stdio.h>

#include "map.h"

/* Returns FIT_OK when mapping m instantiates (*words: its program words,
 * -1 when unknown), else FIT_ERR_NOFIT with what ran out in *why (and its
 * message in msg) or FIT_ERR_INPUT / FIT_ERR_INTERNAL with msg. */
typedef int (*map_search_check)(void *ctx, const map_config *m, fit_record *why, int *words, char *msg,
                                size_t msgsz);

/* Called when the mapping last passed to check becomes the best so far
 * (the caller keeps what check built for it). */
typedef void (*map_search_keep)(void *ctx);

typedef struct {
  int mapped, axis, mapped2; /* the region's shape and tiled dimensions (map_request) */
  map_opts o;                /* the user's options (rewrites off, no tile 1, padding) */
  int one_pe;                /* 1: the region is one PE (1x1): a pass mapped as one tile may run */
  map_search_check check;    /* NULL: an attempt fits when it maps */
  map_search_keep keep;      /* NULL: none */
  void *ctx;
  int budget;                /* attempts for a lower II after the first fit (0: MAP_SEARCH_BUDGET) */
  FILE *log;                 /* each attempt and why it was dropped (`tcpa compile -v`), NULL: none */
  double seconds;            /* CPU seconds of the search after which no attempt for a lower II
                                starts (0: MAP_SEARCH_SECONDS) */
} map_search_opts;

#define MAP_SEARCH_BUDGET 8
#define MAP_SEARCH_SECONDS 10.0

typedef struct {
  map_request rq; /* the attempt that won (map_build_req replays it) */
  int attempts;   /* attempts mapped */
  int words;      /* the winner's program words (check), -1 unknown */
  int ii_bound;   /* the smallest map_config.ii_lb of the attempts */
} map_search_result;

/* Returns FIT_OK with the best mapping in *m (free it with
 * map_config_free) and the attempt that gave it in *res; else FIT_ERR_NOFIT
 * with the record of the first attempt (of the one-tile pass, when it
 * ran), its items' lower bounds set (map_bounds.h), in m->fit and its
 * message in msg, or another status with msg. */
int map_search_run(const ast_program *p, const rdg *g, const arch_config *arch, const map_search_opts *so,
                   map_config *m, map_search_result *res, char *msg, size_t msgsz);

/* Returns 1 after narrowing the RxC region *rows x *cols (R > 1, C > 1)
 * to the line a program of one loop dimension runs on: its first row
 * (1xC) when C >= R, else its first column (Rx1), both at the region's
 * origin (docs/user-guide.md `--pes`); 0, the region unchanged, for a
 * program of two or more dimensions or a 1-D region. `tcpa run` and
 * `tcpa compile --pes` alike. */
int map_search_line(const ast_program *p, int *rows, int *cols);

#endif
