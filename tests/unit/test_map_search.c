/* covers: docs/symbolic.md "The mapping search", "Why it does not fit: the record" */
/*
 * test_map_search.c: the mapping search (compiler/map/map_search.c).
 *
 *  - the best mapping, not the first: fir on configs/default.ini with
 *    pe.od 2, 3 and 4 reaches II 2 (with pe.od = 3 the first attempt
 *    that fits is II 3 at rewrite level 2; its inputs read again give
 *    II 2), and the search stops at the II bound, or where its time
 *    budget is spent (II 3 then);
 *  - the next attempt is chosen by the no-fit record of the check, never
 *    by its message: a table of checks that refuse mappings for one
 *    resource (branch levels below some II, an fd too deep unless the
 *    program is padded, what channels take unless mapped as one tile on
 *    a 1x1 region, always) and the attempt that wins, or the record
 *    returned when none does;
 *  - the log (`tcpa compile -v`): one line per attempt and why it was
 *    dropped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "map.h"
#include "map_search.h"
#include "parse.h"
#include "rdg.h"
#include "test.h"

/* How a stub check refuses a mapping. */
typedef enum {
  REFUSE_NONE,       /* every mapping instantiates */
  REFUSE_BRANCH_II3, /* branch levels below II 3 */
  REFUSE_FD_UNPADDED,/* an fd too deep unless the program was rewritten (padded) */
  REFUSE_CHANNELS,   /* wrapper ports unless mapped as one tile */
  REFUSE_ALWAYS_IMEM /* instruction memory, always */
} refuse_kind;

typedef struct {
  refuse_kind kind;
  int calls;
} stub;

/* map_search_check: refuses m as s->kind says, with a record whose
 * message says nothing the search could read (the search must decide on
 * the record). */
static int stub_check(void *ctx, const map_config *m, fit_record *why, int *words, char *msg, size_t msgsz) {
  stub *s = ctx;
  s->calls++;
  *words = 10 * m->ii;
  fit_resource res = FIT_RES_NONE;
  switch (s->kind) {
  case REFUSE_NONE: break;
  case REFUSE_BRANCH_II3: res = m->ii < 3 ? FIT_RES_BRANCH : FIT_RES_NONE; break;
  case REFUSE_FD_UNPADDED: res = m->reread ? FIT_RES_NONE : FIT_RES_FD_DEPTH; break;
  case REFUSE_CHANNELS: res = m->one_pe ? FIT_RES_NONE : FIT_RES_PORTS; break;
  case REFUSE_ALWAYS_IMEM: res = FIT_RES_IMEM; break;
  }
  if (res == FIT_RES_NONE) return FIT_OK;
  return fit_nofit(why, msg, msgsz, res, "pe.x", 9, 1, "stub", "refused %d", s->calls);
}

typedef struct {
  const char *what, *prog;
  int od;             /* pe.od (0: default.ini's) */
  refuse_kind refuse; /* -1: no check */
  int one_pe;         /* map_search_opts.one_pe */
  int want_st, want_ii;
  int want_pad, want_one_pe, want_reread; /* the winning request's options (-1: any) */
  fit_resource want_res;                  /* FIT_ERR_NOFIT: the record's first item */
  double seconds;                         /* map_search_opts.seconds (0: the default) */
} search_case;

static const search_case cases[] = {
    {"fir, pe.od 4", "fir", 0, -1, 0, FIT_OK, 2, 0, 0, -1, FIT_RES_NONE, 0},
    {"fir, pe.od 3: the re-read program's II 2, not the first fit's II 3", "fir", 3, -1, 0, FIT_OK, 2, 0, 0, 1,
     FIT_RES_NONE, 0},
    {"fir, pe.od 2", "fir", 2, -1, 0, FIT_OK, 2, 0, 0, -1, FIT_RES_NONE, 0},
    {"fir, pe.od 3, instantiated", "fir", 3, REFUSE_NONE, 0, FIT_OK, 2, 0, 0, 1, FIT_RES_NONE, 0},
    {"matmul: branch levels short below II 3: II + 1", "matmul", 0, REFUSE_BRANCH_II3, 0, FIT_OK, 3, 0, 0, 0,
     FIT_RES_NONE, 0},
    {"matmul: an fd too deep: the padded program next", "matmul", 0, REFUSE_FD_UNPADDED, 0, FIT_OK, 2, 1, 0, 0,
     FIT_RES_NONE, 0},
    {"matmul: ports short on 1x1: mapped as one tile", "matmul", 0, REFUSE_CHANNELS, 1, FIT_OK, 2, 0, 1, 0,
     FIT_RES_NONE, 0},
    {"matmul: ports short, not 1x1: no fit, the record's", "matmul", 0, REFUSE_CHANNELS, 0, FIT_ERR_NOFIT, 0, 0, 0,
     0, FIT_RES_PORTS, 0},
    {"matmul: imem short always: no fit, the first record", "matmul", 0, REFUSE_ALWAYS_IMEM, 0, FIT_ERR_NOFIT, 0, 0,
     0, 0, FIT_RES_IMEM, 0},
    {"gcd: no divider", "gcd", 0, -1, 0, FIT_ERR_NOFIT, 0, 0, 0, 0, FIT_RES_FU, 0},
    {"fir, pe.od 3, the time budget spent: the first fit's II 3 stays", "fir", 3, -1, 0, FIT_OK, 3, 0, 0, 0,
     FIT_RES_NONE, 1e-9},
};

/* Runs the search of case c (its log into *log, malloc'ed). */
static void test_case(const search_case *c, char **log) {
  char path[256], msg[1024];
  snprintf(path, sizeof path, "regress/programs/%s.pla", c->prog);
  arch_config a;
  ast_program *p = parse_file(path);
  rdg *g = p ? rdg_build(p) : NULL;
  if (!g || arch_config_load("configs/default.ini", &a)) {
    TEST_CHECK(0, "%s: %s and default.ini load", c->what, path);
    rdg_free(g);
    ast_program_free(p);
    return;
  }
  if (c->od) a.od = c->od;
  stub s = {c->refuse == (refuse_kind)-1 ? REFUSE_NONE : c->refuse, 0};
  size_t loglen = 0;
  FILE *f = open_memstream(log, &loglen);
  map_search_opts so = {.mapped2 = -1, .one_pe = c->one_pe, .check = c->refuse == (refuse_kind)-1 ? NULL : stub_check,
                        .ctx = &s, .log = f, .seconds = c->seconds};
  map_config m;
  map_search_result res;
  int st = map_search_run(p, g, &a, &so, &m, &res, msg, sizeof msg);
  fclose(f);
  TEST_CHECK(st == c->want_st, "%s: status %d (want %d: %s)", c->what, st, c->want_st, msg);
  if (st == FIT_OK && c->want_st == FIT_OK) {
    TEST_CHECK(m.ii == c->want_ii && res.rq.o.pad == c->want_pad && res.rq.o.one_pe == c->want_one_pe &&
                   (c->want_reread < 0 || res.rq.o.reread == c->want_reread),
               "%s: II %d (want %d), padded %d, one tile %d, read again %d, %d attempts", c->what, m.ii, c->want_ii,
               res.rq.o.pad, res.rq.o.one_pe, res.rq.o.reread, res.attempts);
    TEST_CHECK(res.ii_bound > 0 && res.ii_bound <= m.ii, "%s: the II bound %d is at most the II", c->what,
               res.ii_bound);
    /* one isl context per search: the mapping kept holds the only
     * reference left (every dropped attempt gave its own back) */
    TEST_CHECK(m.isl && m.isl->refs == 1 && !res.rq.isl, "%s: the kept mapping alone holds the search's isl context "
               "(%d references)", c->what, m.isl ? m.isl->refs : -1);
    /* the winning request replays: map_build_req gives the same II, in
     * the context it is given, with the same text of the tile boxes */
    map_config again;
    char msg2[1024];
    map_request rq = res.rq;
    rq.isl = m.isl;
    int st2 = map_build_req(p, g, &a, &rq, &again, msg2, sizeof msg2);
    TEST_CHECK(st2 == MAP_OK && again.ii == m.ii && again.no_cse == m.no_cse,
               "%s: the winner's request replays (II %d, level %d: %s)", c->what, again.ii, again.no_cse, msg2);
    TEST_CHECK(again.isl == m.isl && m.isl->refs == 2 && again.nops == m.nops && m.nops > 0 &&
                   !strcmp(again.ops[0].dom.jkspace, m.ops[0].dom.jkspace),
               "%s: the replay shares the context (%d references) and writes the same tile box", c->what,
               m.isl ? m.isl->refs : -1);
    map_config_free(&again);
    TEST_CHECK(m.isl->refs == 1, "%s: freeing the replay gives its reference back", c->what);
  }
  if (st == FIT_ERR_NOFIT && c->want_st == FIT_ERR_NOFIT) {
    char made[1024];
    TEST_CHECK(m.fit.n >= 1 && m.fit.item[0].res == c->want_res, "%s: the record names %s (got %s)", c->what,
               fit_resource_name(c->want_res), fit_resource_name(m.fit.n ? m.fit.item[0].res : FIT_RES_NONE));
    TEST_CHECK(!strcmp(fit_record_format(&m.fit, made, sizeof made), msg), "%s: the message is the record's (%s)",
               c->what, msg);
  }
  map_config_free(&m);
  rdg_free(g);
  ast_program_free(p);
}

/* Returns the lines of log that start with prefix. */
static int count_lines(const char *log, const char *prefix) {
  int n = 0;
  for (const char *l = log; l && *l;) {
    n += !strncmp(l, prefix, strlen(prefix));
    const char *nl = strchr(l, '\n');
    l = nl ? nl + 1 : NULL;
  }
  return n;
}

int main(void) {
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *log = NULL;
    test_case(&cases[i], &log);
    if (!log) continue;
    if (i == 1) {
      /* fir with pe.od = 3: two attempts, the first kept until the second
       * reaches the bound */
      TEST_CHECK(count_lines(log, "attempt ") == 2 && strstr(log, "maps at II 3") &&
                     strstr(log, "maps at II 2") && strstr(log, "reaches the II bound 2: done"),
                 "the log: each attempt, its II, the bound reached (%s)", log);
    }
    if (i == 10)
      TEST_CHECK(count_lines(log, "attempt ") == 1 && strstr(log, "the time budget is spent"),
                 "the log says the time budget stopped the search (%s)", log);
    if (i == 4)
      TEST_CHECK(strstr(log, "dropped: refused 1") != NULL, "the log says why an attempt was dropped (%s)", log);
    free(log);
  }
  return test_done();
}
