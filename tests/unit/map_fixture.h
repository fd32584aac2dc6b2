/*
 * map_fixture.h: what the symbolic mapper's unit tests (tests/unit/
 * test_map_*.c) share: a program parsed from text or a file, its RDG, and
 * its mapping on an architecture, onto a 1-D region (build) or a 2-D one
 * (build2d, dimensions 0 and 1 onto rows and columns). Static inline, so
 * that a test that uses one of them only compiles without warnings.
 */
#ifndef MAP_FIXTURE_H
#define MAP_FIXTURE_H

#include <string.h>

#include "map.h"
#include "parse.h"
#include "rdg.h"

typedef struct {
  ast_program *p;
  rdg *g;
  map_config m;
  int st;
  char msg[512];
} fixture;

/* Maps program text (or file when text is NULL) on arch a, dimension
 * `mapped` onto a 1xC region; fills *f (f->st the map_build status, -1
 * when the program does not parse). */
static inline void build(fixture *f, const char *name, const char *text, arch_config a, int mapped) {
  memset(f, 0, sizeof *f);
  f->p = text ? parse_string(name, text) : parse_file(name);
  if (!f->p) { f->st = -1; return; }
  f->g = rdg_build(f->p);
  f->st = map_build(f->p, f->g, &a, mapped, 0, &f->m, f->msg, sizeof f->msg);
}

/* Maps program file `path` on arch a onto a 2-D region, dimension 0 onto
 * the rows and 1 onto the columns; fills *f as build does. */
static inline void build2d(fixture *f, const char *path, arch_config a) {
  memset(f, 0, sizeof *f);
  f->p = parse_file(path);
  f->g = f->p ? rdg_build(f->p) : NULL;
  f->st = f->g ? map_build_2d(f->p, f->g, &a, 0, 1, &f->m, f->msg, sizeof f->msg) : -1;
}

/* Frees what build or build2d made. */
static inline void release(fixture *f) {
  map_config_free(&f->m);
  rdg_free(f->g);
  ast_program_free(f->p);
}

#endif
