/* covers: docs/regress.md "Sign-off" */
/*
 * test_signoff_nofit.c: what the sign-off report makes of a no-fit record
 * (fit.h): the resource each item is shown as (its configuration key,
 * else its resource's name), one item per resource (for I/O channels the
 * side closest to fitting), and the fit table's cell listing every
 * resource that ran out with need/have, and the change of the
 * configuration that makes the run fit (one key, or every key that ran
 * out). The records are built as the tools build them; no message is
 * read.
 */
#include <string.h>

#include "signoff_nofit.h"
#include "test.h"

typedef struct {
  fit_resource res;
  const char *key;
  int need, have;
} item_spec;

typedef struct {
  const char *what;
  item_spec items[4];
  const char *cell; /* signoff_fit_cell of a nofit run */
} cell_case;

static const cell_case cases[] = {
    {"one register class", {{FIT_RES_RD, "pe.rd", 5, 4}}, "pe.rd 5/4"},
    {"every class that ran out", {{FIT_RES_RD, "pe.rd", 8, 4}, {FIT_RES_ID, "pe.id", 5, 4}}, "pe.rd 8/4, pe.id 5/4"},
    {"a divider", {{FIT_RES_FU, "pe.div", 1, 0}}, "pe.div 1/0"},
    {"I/O channels: the side closest to fitting",
     {{FIT_RES_IO_CHANNELS, "iobuf.banks", 7, 2}, {FIT_RES_IO_CHANNELS, "iobuf.banks", 4, 3}},
     "iobuf.banks 4/3"},
    {"no configuration key: the resource's name", {{FIT_RES_REGION_DIMS, "", 2, 1}}, "region dimensions 2/1"},
    {"no counts: the name alone", {{FIT_RES_SCHEDULE, "", -1, -1}}, "schedule"},
    {"nothing recorded", {{FIT_RES_NONE, NULL, 0, 0}}, "does not fit"},
};

typedef struct {
  const char *what;
  item_spec items[4];
  const char *change; /* signoff_nofit_change */
} change_case;

static const change_case changes[] = {
    {"one key suffices: raise it to the need", {{FIT_RES_RD, "pe.rd", 5, 4}}, "raise pe.rd to 5"},
    {"a divider", {{FIT_RES_FU, "pe.div", 1, 0}}, "raise pe.div to 1"},
    {"several keys: all of them",
     {{FIT_RES_RD, "pe.rd", 4, 3}, {FIT_RES_ID, "pe.id", 9, 4}, {FIT_RES_OD, "pe.od", 9, 4}},
     "raise pe.rd to 4, pe.id to 9 and pe.od to 9"},
    {"terms: 2 x gc.signals, rounded up", {{FIT_RES_GC_TERMS, "gc.signals", 7, 4}}, "raise gc.signals to 4"},
    {"constraints: 2 x gc.dims", {{FIT_RES_CONSTRAINTS, "gc.dims", 14, 12}}, "raise gc.dims to 7"},
    {"banks of every side: the key without a value", {{FIT_RES_IO_BANKS, "iobuf.banks", 7, 6}}, "raise iobuf.banks"},
    {"I/O channels: the closest side, one key",
     {{FIT_RES_IO_CHANNELS, "iobuf.banks", 7, 2}, {FIT_RES_IO_CHANNELS, "iobuf.banks", 4, 3}},
     "raise iobuf.banks"},
    {"a resource without a key: no change of the configuration",
     {{FIT_RES_RD, "pe.rd", 5, 4}, {FIT_RES_SCHEDULE, "", -1, -1}},
     "none: the schedule is the program's"},
    {"nothing recorded", {{FIT_RES_NONE, NULL, 0, 0}}, ""},
};

int main(void) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const cell_case *c = &cases[i];
    fit_record r = {0};
    for (int k = 0; k < 4 && c->items[k].res != FIT_RES_NONE; k++)
      fit_record_add(&r, c->items[k].res, c->items[k].key, c->items[k].need, c->items[k].have, "", "item %d", k);
    char b[128];
    signoff_fit_cell(REGRESS_NOFIT, r.n ? &r : NULL, NULL, b, sizeof b);
    TEST_CHECK(!strcmp(b, c->cell), "%s: cell '%s' (want '%s')", c->what, b, c->cell);
  }
  for (size_t i = 0; i < sizeof changes / sizeof changes[0]; i++) {
    const change_case *c = &changes[i];
    fit_record r = {0};
    for (int k = 0; k < 4 && c->items[k].res != FIT_RES_NONE; k++)
      fit_record_add(&r, c->items[k].res, c->items[k].key, c->items[k].need, c->items[k].have, "", "item %d", k);
    char b[256];
    signoff_nofit_change(r.n ? &r : NULL, b, sizeof b);
    TEST_CHECK(!strcmp(b, c->change), "change: %s: '%s' (want '%s')", c->what, b, c->change);
  }
  fit_record r = {0};
  fit_record_add(&r, FIT_RES_IO_CHANNELS, "iobuf.banks", 7, 2, "north", "a");
  fit_record_add(&r, FIT_RES_RD, "pe.rd", 5, 4, "", "b");
  fit_record_add(&r, FIT_RES_IO_CHANNELS, "iobuf.banks", 4, 3, "west", "c");
  const fit_item *it[FIT_MAX_ITEMS];
  int n = signoff_nofit_items(&r, it, FIT_MAX_ITEMS);
  TEST_CHECK(n == 2 && it[0] == &r.item[2] && it[1] == &r.item[1],
             "one item per resource, in order, the closest side (%d items)", n);
  TEST_CHECK(signoff_nofit_items(NULL, it, FIT_MAX_ITEMS) == 0, "no record: no items");
  return test_done();
}
