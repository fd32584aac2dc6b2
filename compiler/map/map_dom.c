/*
 * map_dom.c: the mapper's sets as isl objects (docs/symbolic.md "Sets").
 * A tiled condition space (map_dom, map.h) keeps its two texts, which the
 * .sym writer prints, and beside them the isl sets they stand for,
 * parsed in the compile's context (map_config.isl) the first time a step
 * asks and freed with the dom. Sets are compared by isl: two texts of the
 * same set, however written (constraints in another order or form), are
 * equal; identical texts are equal without a parse.
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

/* Returns *set, parsed from txt in m's context when still NULL (the set
 * is a cache of the text: a const dom may fill it, hence the casts). */
static __isl_keep isl_set *map_dom_parse(const map_config *m, const char *txt, isl_set *const *set) {
  isl_set **s = (isl_set **)set;
  if (!*s && txt && m->isl) *s = isl_set_read_from_str(m->isl->ctx, txt);
  return *s;
}

__isl_keep isl_set *map_dom_iset(const map_config *m, const map_dom *d) {
  return map_dom_parse(m, d->ispace, &d->iset);
}

__isl_keep isl_set *map_dom_jkset(const map_config *m, const map_dom *d) {
  return map_dom_parse(m, d->jkspace, &d->jkset);
}

/* Returns 1 when texts a and b are identical, or isl proves their sets
 * (parsed into *sa and *sb when still NULL) equal. */
static int map_dom_text_equal(const map_config *m, const char *a, isl_set *const *sa, const char *b,
                              isl_set *const *sb) {
  if (!a || !b) return 0;
  if (!strcmp(a, b)) return 1;
  isl_set *x = map_dom_parse(m, a, sa), *y = map_dom_parse(m, b, sb);
  return x && y && isl_set_is_equal(x, y) == isl_bool_true;
}

int map_dom_ispace_equal(const map_config *m, const map_dom *a, const map_dom *b) {
  return map_dom_text_equal(m, a->ispace, &a->iset, b->ispace, &b->iset);
}

int map_dom_jkspace_equal(const map_config *m, const map_dom *a, const map_dom *b) {
  return map_dom_text_equal(m, a->jkspace, &a->jkset, b->jkspace, &b->jkset);
}

int map_dom_equal(const map_config *m, const map_dom *a, const map_dom *b) {
  return map_dom_ispace_equal(m, a, b) && map_dom_jkspace_equal(m, a, b);
}

int map_dom_ispace_disjoint(const map_config *m, const map_dom *a, const map_dom *b) {
  isl_set *x = map_dom_iset(m, a), *y = map_dom_iset(m, b);
  return x && y && isl_set_is_disjoint(x, y) == isl_bool_true;
}

int map_index_equal(const map_config *m, const char *a, const char *b) {
  if (!a || !b || !strcmp(a, b)) return a && b;
  if (!m->isl) return 0;
  isl_map *x = isl_map_read_from_str(m->isl->ctx, a);
  isl_map *y = isl_map_read_from_str(m->isl->ctx, b);
  isl_bool eq = x && y ? isl_map_is_equal(x, y) : isl_bool_error;
  isl_map_free(x);
  isl_map_free(y);
  return eq == isl_bool_true;
}
