/*
 * test_fit.c: the no-fit record (compiler/map/fit.h): the message made
 * from its items (joined by "; ", then the note), fit_nofit's one-item
 * record, the lookups the mapping search uses (has, only, closest), the
 * resource names of summary.json both ways, and a full record.
 */
#include <string.h>

#include "fit.h"
#include "test.h"

typedef struct {
  const char *what;
  fit_resource res[3];
  int64_t need[3], have[3];
  fit_resource only[4]; /* fit_record_only's set */
  int only_want;
  int closest; /* index of fit_record_closest's item */
} lookup_case;

static const lookup_case cases[] = {
    {"rd alone", {FIT_RES_RD}, {5}, {4}, {FIT_RES_RD}, 1, 0},
    {"rd and id, only rd asked", {FIT_RES_RD, FIT_RES_ID}, {8, 5}, {4, 4}, {FIT_RES_RD}, 0, 1},
    {"what channels take", {FIT_RES_ID, FIT_RES_OD}, {5, 5}, {4, 3}, {FIT_RES_PORTS, FIT_RES_IO_BANKS, FIT_RES_ID, FIT_RES_OD}, 1, 0},
    {"a schedule: no counts", {FIT_RES_SCHEDULE}, {-1}, {-1}, {FIT_RES_RD}, 0, 0},
    {"sides: the closest", {FIT_RES_IO_CHANNELS, FIT_RES_IO_CHANNELS, FIT_RES_IO_CHANNELS}, {7, 4, 6}, {2, 3, 4},
     {FIT_RES_IO_CHANNELS}, 1, 1},
};

int main(void) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const lookup_case *c = &cases[i];
    fit_record r = {0};
    for (int k = 0; k < 3 && c->res[k]; k++) fit_record_add(&r, c->res[k], "pe.x", c->need[k], c->have[k], "", "i%d", k);
    int nset = 0;
    while (nset < 4 && c->only[nset]) nset++;
    TEST_CHECK(fit_record_only(&r, c->only, nset) == c->only_want, "%s: only", c->what);
    TEST_CHECK(fit_record_has(&r, c->res[0]) && !fit_record_has(&r, FIT_RES_FD_DEPTH), "%s: has", c->what);
    TEST_CHECK(fit_record_closest(&r) == &r.item[c->closest], "%s: closest is item %d", c->what, c->closest);
  }
  fit_record r = {0};
  TEST_CHECK(!fit_record_only(&r, (fit_resource[]){FIT_RES_RD}, 1) && !fit_record_closest(&r),
             "an empty record: nothing only, no closest");
  fit_record_add(&r, FIT_RES_RD, "pe.rd", 8, 4, "", "registers rd: needs %d, pe.rd = %d", 8, 4);
  fit_record_add(&r, FIT_RES_ID, "pe.id", 5, 4, "", "id: needs %d, pe.id = %d", 5, 4);
  snprintf(r.note, sizeof r.note, " (and a note)");
  char b[256];
  TEST_CHECK(!strcmp(fit_record_format(&r, b, sizeof b),
                     "registers rd: needs 8, pe.rd = 4; id: needs 5, pe.id = 4 (and a note)"),
             "the message: the items joined, then the note (%s)", b);
  TEST_CHECK(!strcmp(fit_record_format(&r, b, 12), "registers r"), "a short buffer: cut, terminated (%s)", b);
  char m[128];
  TEST_CHECK(fit_nofit(&r, m, sizeof m, FIT_RES_IMEM, "pe.imem", 40, 32, "processor class 0, alu0",
                       "%s: needs %d words", "processor class 0, alu0", 40) == FIT_ERR_NOFIT &&
                 r.n == 1 && !r.note[0] && r.item[0].res == FIT_RES_IMEM && !strcmp(r.item[0].key, "pe.imem") &&
                 r.item[0].need == 40 && r.item[0].have == 32 && !strcmp(m, "processor class 0, alu0: needs 40 words"),
             "fit_nofit: one item, the record emptied first, the message (%s)", m);
  int named = 1;
  for (int k = 1; k < FIT_RES_COUNT; k++)
    named &= fit_resource_parse(fit_resource_name((fit_resource)k)) == (fit_resource)k &&
             strcmp(fit_resource_name((fit_resource)k), "none") != 0;
  TEST_CHECK(named, "every resource has a name that reads back");
  TEST_CHECK(fit_resource_parse("no such") == FIT_RES_NONE && fit_resource_parse(NULL) == FIT_RES_NONE,
             "an unknown name: none");
  fit_record full = {0};
  int added = 0;
  for (int k = 0; k < FIT_MAX_ITEMS + 2; k++) added += fit_record_add(&full, FIT_RES_RD, "", 1, 0, "", "x") != NULL;
  TEST_CHECK(added == FIT_MAX_ITEMS && full.n == FIT_MAX_ITEMS, "a full record takes no more items (%d)", added);
  TEST_CHECK(FIT_ERR_NOFIT == 3 && FIT_ERR_INPUT == 2 && FIT_OK == 0, "the status values are the exit codes");
  return test_done();
}
