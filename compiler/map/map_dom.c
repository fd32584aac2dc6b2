/*
 * map_dom.c: the mapper's sets as isl objects (docs/symbolic.md "Sets").
 * A tiled condition space (map_dom, map.h) keeps its two texts, which the
 * .sym writer prints, and beside them the isl sets they stand for,
 * taken from the compile's context (map_config.isl, which parses each
 * text once, map_isl.c) the first time a step asks, and dropped with the
 * dom. Sets are compared by isl: two texts of the same set, however
 * written (constraints in another order or form), are equal; identical
 * texts are equal without a parse; the context asks isl once per pair of
 * texts and remembers the answer.
 */
#include <stdlib.h>
#include <string.h>

#include <isl/map.h>
#include <isl/set.h>

#include "map.h"

map_dom map_dom_copy(const map_dom *d) {
  map_dom c = {map_strdup(d->ispace), map_strdup(d->jkspace), isl_set_copy(d->iset), isl_set_copy(d->jkset)};
  return c;
}

void map_dom_free(map_dom *d) {
  free(d->ispace);
  free(d->jkspace);
  isl_set_free(d->iset);
  isl_set_free(d->jkset);
  d->ispace = d->jkspace = NULL;
  d->iset = d->jkset = NULL;
}

void map_dom_ispace_set(map_dom *d, char *txt) {
  free(d->ispace);
  d->ispace = txt;
  d->iset = isl_set_free(d->iset);
}

void map_dom_jkspace_set(map_dom *d, char *txt) {
  free(d->jkspace);
  d->jkspace = txt;
  d->jkset = isl_set_free(d->jkset);
}

/* Returns *set, the compile's set of txt (map_isl_set: parsed once per
 * compile), when still NULL (the set is a cache of the text: a const dom
 * may fill it, hence the casts). */
static __isl_keep isl_set *map_dom_parse(const map_config *m, const char *txt, isl_set *const *set) {
  isl_set **s = (isl_set **)set;
  if (!*s && txt && m->isl) *s = isl_set_copy(map_isl_set(m->isl, txt));
  return *s;
}

__isl_keep isl_set *map_dom_iset(const map_config *m, const map_dom *d) {
  return map_dom_parse(m, d->ispace, &d->iset);
}

__isl_keep isl_set *map_dom_jkset(const map_config *m, const map_dom *d) {
  return map_dom_parse(m, d->jkspace, &d->jkset);
}

/* Returns 1 when texts a and b are identical, or isl proves their sets
 * equal (asked once per compile and pair of texts, map_isl.c). */
static int map_dom_text_equal(const map_config *m, const char *a, const char *b) {
  if (!a || !b) return 0;
  return !strcmp(a, b) || map_isl_set_equal(m->isl, a, b);
}

int map_dom_ispace_equal(const map_config *m, const map_dom *a, const map_dom *b) {
  return map_dom_text_equal(m, a->ispace, b->ispace);
}

int map_dom_jkspace_equal(const map_config *m, const map_dom *a, const map_dom *b) {
  return map_dom_text_equal(m, a->jkspace, b->jkspace);
}

int map_dom_equal(const map_config *m, const map_dom *a, const map_dom *b) {
  return map_dom_ispace_equal(m, a, b) && map_dom_jkspace_equal(m, a, b);
}

int map_dom_ispace_disjoint(const map_config *m, const map_dom *a, const map_dom *b) {
  return a->ispace && b->ispace && map_isl_set_disjoint(m->isl, a->ispace, b->ispace);
}

int map_index_equal(const map_config *m, const char *a, const char *b) {
  if (!a || !b || !strcmp(a, b)) return a && b;
  return map_isl_map_equal(m->isl, a, b);
}
