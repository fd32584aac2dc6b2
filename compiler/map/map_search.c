/*
 * map_search.c: the mapping search (map_search.h, docs/symbolic.md "The
 * mapping search"). Two tables drive it.
 *
 * map_search_passes: the passes that look for a mapping that fits. Each
 * is a ladder of attempts (map_request) from a rewrite level, plain or
 * with the accumulations padded; within a pass, an attempt that maps but
 * does not instantiate for want of control flow (branch levels, signals,
 * GC terms, program words: the record says) is tried again at its II + 1
 * (twice at most), anything else at the conservative rewrite levels 3,
 * then 4. A pass runs when none before fitted and its condition on the
 * first attempt's record holds: an fd deeper than pe.fd_depth calls for
 * the padded program at once (one producer per accumulation, one fd a
 * chain may split, inst_chain.c), then the conservative levels; control
 * flow for the padded program. A region of one PE that still does not
 * fit for want of what channels take (ports, banks, ids, ods) runs the
 * passes again mapped as one tile (map_opts.one_pe).
 *
 * map_search_better: the attempts for a lower II, run after the first
 * fit while its II is above the II bound, the smallest II any attempt's
 * schedule could have had (map_config.ii_lb: max(ResMII, RecMII), 2 for
 * a piecewise program): the program read again, the other rewrite
 * levels (fir with pe.od = 3 fits at level 2 with II 3; its inputs read
 * again reach II 2). A candidate replaces the best when its II is lower,
 * or equal with fewer program words. Two budgets bound them: attempts
 * (MAP_SEARCH_BUDGET) and the CPU seconds of the whole search
 * (MAP_SEARCH_SECONDS): no attempt for a lower II starts after them, so a
 * program whose every mapping is slow costs at most one more.
 *
 * The record of a search that finds nothing carries the region's lower
 * bounds (map_bounds.h) beside needed and available.
 */
#include "map_search.h"

#include <string.h>

#include "map_bounds.h"
#include <time.h>

/* When a pass runs (besides: nothing fitted before it). */
typedef enum {
  SEARCH_ALWAYS,  /* the first pass */
  SEARCH_FD_DEEP, /* the first attempt mapped, and an fd was too deep */
  SEARCH_CONTROL  /* otherwise, the first attempt ran out of control flow */
} map_search_when;

typedef struct {
  const char *name;
  int pad;             /* the accumulations padded (map_opts.pad) */
  int conservative;    /* 1: from rewrite level 3 */
  int tries;           /* attempts at most, counted from 0 (1 when conservative) */
  map_search_when when;
  int stop_on_fd_deep; /* the first attempt's fd too deep ends the pass */
  int control_only;    /* only a control-flow failure goes on */
} map_search_pass;

static const map_search_pass map_search_passes[] = {
    {"all rewrites", 0, 0, 5, SEARCH_ALWAYS, 1, 0},
    {"accumulations padded (an fd too deep)", 1, 0, 3, SEARCH_FD_DEEP, 0, 1},
    {"conservative rewrites (an fd too deep)", 0, 1, 5, SEARCH_FD_DEEP, 0, 0},
    {"accumulations padded (control flow)", 1, 0, 3, SEARCH_CONTROL, 0, 1},
};

typedef struct {
  const char *name;
  int reread; /* map_opts.reread */
  int level;
} map_search_try;

static const map_search_try map_search_better[] = {
    {"inputs read again", 1, 0}, {"chains read again", 2, 0}, {"rewrite level 1", 0, 1},
    {"rewrite level 2", 0, 2},   {"rewrite level 3", 0, 3},   {"rewrite level 4", 0, 4},
};

/* The state of one search. */
typedef struct {
  const ast_program *p;
  const rdg *g;
  const arch_config *arch;
  const map_search_opts *so;
  map_config best;      /* the best mapping so far (best_ii 0: none) */
  map_request best_rq;
  int best_ii, best_words;
  int attempts, bound;
  clock_t t0;           /* CPU time at the start */
  fit_record first;     /* the first attempt's record */
  int fd_deep;          /* the first attempt mapped and an fd was too deep */
  char *msg;
  size_t msgsz;
  map_isl *isl;         /* the isl context every attempt shares */
} map_search;

/* Returns 1 when record r is about control flow, which a higher II may
 * relieve (more slots per kernel for its branches, fewer kernels). */
static int map_search_control(const fit_record *r) {
  return fit_record_has(r, FIT_RES_BRANCH) || fit_record_has(r, FIT_RES_SIGNALS) ||
         fit_record_has(r, FIT_RES_IMEM) || fit_record_has(r, FIT_RES_GC_TERMS);
}

/* Returns 1 when record r names only what channels take (wrapper ports,
 * the banks behind them, registers id and od). */
static int map_search_channels(const fit_record *r) {
  static const fit_resource chan[] = {FIT_RES_PORTS, FIT_RES_IO_BANKS, FIT_RES_ID, FIT_RES_OD};
  return fit_record_only(r, chan, 4);
}

/* Writes the head of an attempt's log line. */
static void map_search_log_head(const map_search *s, const char *pass, const map_request *rq) {
  FILE *f = s->so->log;
  if (!f) return;
  fprintf(f, "attempt %d (%s): level %d, II >= %d%s%s%s%s\n", s->attempts, pass, rq->level, rq->ii_min,
          rq->o.pad ? ", padded" : "", rq->o.one_pe ? ", one tile" : "",
          rq->o.reread == 1 ? ", inputs read again" : "", rq->o.reread == 2 ? ", chains read again" : "");
}

/* Returns 1 when a mapping of II ii and `words` program words is better
 * than the best so far. */
static int map_search_better_than(const map_search *s, int ii, int words) {
  if (!s->best_ii) return 1;
  if (ii != s->best_ii) return ii < s->best_ii;
  return words >= 0 && s->best_words >= 0 && words < s->best_words;
}

/* Returns the status of attempt rq: FIT_OK when it mapped and passed the
 * check (it is kept when better than the best), FIT_ERR_NOFIT with the
 * record in *why, or an error. *mapped says whether it mapped, *ii and
 * *used its II and the rewrite level the mapper ended at. */
static int map_search_attempt(map_search *s, const char *pass, const map_request *rq, fit_record *why, int *mapped,
                              int *ii, int *used) {
  map_config m;
  s->attempts++;
  map_search_log_head(s, pass, rq);
  int st = map_build_req(s->p, s->g, s->arch, rq, &m, s->msg, s->msgsz);
  if (m.ii_bound && (!s->bound || m.ii_bound < s->bound)) s->bound = m.ii_bound;
  *mapped = st == FIT_OK;
  *ii = m.ii;
  *used = m.no_cse;
  fit_record_clear(why);
  int words = -1;
  if (st == FIT_ERR_NOFIT) *why = m.fit;
  if (st == FIT_OK && s->so->check) st = s->so->check(s->so->ctx, &m, why, &words, s->msg, s->msgsz);
  FILE *f = s->so->log;
  if (f && *mapped)
    fprintf(f, "  -> maps at II %d (rewrite level %d, II bound %d)", m.ii, m.no_cse, m.ii_bound);
  if (f && st == FIT_OK && words >= 0) fprintf(f, ", instantiates: %d program words", words);
  if (f && st != FIT_OK) fprintf(f, "%s dropped: %s", *mapped ? "," : "  ->", s->msg);
  if (st == FIT_OK && map_search_better_than(s, m.ii, words)) {
    if (f) fprintf(f, "; the best so far");
    map_config_free(&s->best);
    s->best = m;
    s->best_rq = *rq;
    s->best_ii = m.ii;
    s->best_words = words;
    if (s->so->keep) s->so->keep(s->so->ctx);
  } else {
    if (f && st == FIT_OK) fprintf(f, "; not better than II %d", s->best_ii);
    map_config_free(&m);
  }
  if (f) fputc('\n', f);
  return st;
}

/* Returns the status of pass ps (one_pe: mapped as one tile): the ladder
 * of its attempts, to the first that fits or fails other than for want of
 * a resource. The first attempt of the first pass sets s->first and
 * s->fd_deep. */
static int map_search_pass_run(map_search *s, const map_search_pass *ps, int one_pe) {
  map_request rq = {s->so->mapped, s->so->axis, s->so->mapped2, 0, ps->conservative ? 3 : 0, s->so->o, s->isl};
  rq.o.pad |= ps->pad;
  rq.o.one_pe = one_pe;
  rq.o.log = s->so->log;
  int st = FIT_ERR_NOFIT;
  for (int tries = ps->conservative; tries < ps->tries; tries++) {
    fit_record why;
    int mapped, ii, used;
    st = map_search_attempt(s, ps->name, &rq, &why, &mapped, &ii, &used);
    if (mapped) rq.ii_min = ii + 1;
    if (ps->stop_on_fd_deep && !tries) {
      s->first = why;
      s->fd_deep = st == FIT_ERR_NOFIT && mapped && fit_record_has(&why, FIT_RES_FD_DEPTH);
      if (s->fd_deep) return st;
    }
    if (st != FIT_ERR_NOFIT || !mapped || used >= 4) break;
    if (ps->control_only && !map_search_control(&why)) break;
    if (used >= 3) rq.ii_min = 0, rq.level = 4;
    else if (tries >= 2 || !map_search_control(&why)) rq.ii_min = 0, rq.level = 3;
  }
  return st;
}

/* Returns the status of the passes (one_pe: mapped as one tile) up to the
 * first that fits. */
static int map_search_passes_run(map_search *s, int one_pe) {
  int st = FIT_ERR_NOFIT;
  for (size_t i = 0; i < sizeof map_search_passes / sizeof *map_search_passes && st == FIT_ERR_NOFIT; i++) {
    const map_search_pass *ps = &map_search_passes[i];
    if ((ps->when == SEARCH_FD_DEEP && !s->fd_deep) ||
        (ps->when == SEARCH_CONTROL && (s->fd_deep || !map_search_control(&s->first))))
      continue;
    st = map_search_pass_run(s, ps, one_pe);
  }
  return st;
}

/* Returns 1 when the search has spent its CPU seconds. */
static int map_search_late(const map_search *s) {
  double limit = s->so->seconds > 0 ? s->so->seconds : MAP_SEARCH_SECONDS;
  return (double)(clock() - s->t0) / CLOCKS_PER_SEC > limit;
}

/* Runs the attempts for a lower II than the best's (same padding and
 * tiling), while it is above the bound, within the budgets. */
static void map_search_improve(map_search *s) {
  int budget = s->so->budget > 0 ? s->so->budget : MAP_SEARCH_BUDGET;
  for (size_t i = 0; i < sizeof map_search_better / sizeof *map_search_better && budget > 0; i++) {
    if (s->best_ii <= s->bound) {
      if (s->so->log) fprintf(s->so->log, "II %d reaches the II bound %d: done\n", s->best_ii, s->bound);
      return;
    }
    if (map_search_late(s)) {
      if (s->so->log) fprintf(s->so->log, "II %d above the II bound %d: the time budget is spent\n", s->best_ii,
                              s->bound);
      return;
    }
    const map_search_try *t = &map_search_better[i];
    if ((t->reread && (s->so->o.off & MAP_OFF_REREAD)) || s->best_rq.o.pad) continue;
    map_request rq = s->best_rq;
    rq.ii_min = 0;
    rq.level = t->level;
    rq.o.reread = t->reread;
    /* a level the best's request went through again gives the best again */
    if (!t->reread && !s->best_rq.o.reread && t->level <= s->best.no_cse) continue;
    fit_record why;
    int mapped, ii, used;
    budget--;
    int st = map_search_attempt(s, t->name, &rq, &why, &mapped, &ii, &used);
    if (st != FIT_OK && st != FIT_ERR_NOFIT) return; /* an error: the best stays */
  }
  if (s->so->log && s->best_ii > s->bound)
    fprintf(s->so->log, "II %d above the II bound %d: no attempt left%s\n", s->best_ii, s->bound,
            budget > 0 ? "" : " within the budget");
}

int map_search_run(const ast_program *p, const rdg *g, const arch_config *arch, const map_search_opts *so,
                   map_config *m, map_search_result *res, char *msg, size_t msgsz) {
  map_search s = {.p = p, .g = g, .arch = arch, .so = so, .best_words = -1, .msg = msg, .msgsz = msgsz,
                  .t0 = clock(), .isl = map_isl_new()};
  memset(res, 0, sizeof *res);
  if (!s.isl) {
    memset(m, 0, sizeof *m);
    snprintf(msg, msgsz, "out of memory");
    return FIT_ERR_INTERNAL;
  }
  int st = map_search_passes_run(&s, 0);
  if (st == FIT_ERR_NOFIT && so->one_pe && map_search_channels(&s.first)) {
    /* a region of one PE: its one tile needs no channel (map_opts.one_pe) */
    s.fd_deep = 0;
    fit_record_clear(&s.first);
    st = map_search_passes_run(&s, 1);
  }
  if (st == FIT_OK && s.best_ii) map_search_improve(&s);
  res->attempts = s.attempts;
  res->ii_bound = s.bound;
  map_isl_put(s.isl); /* the mapping kept holds its own reference */
  if (s.best_ii) {
    *m = s.best;
    res->rq = s.best_rq;
    res->rq.o.log = NULL;
    res->rq.isl = NULL;
    res->words = s.best_words;
    return FIT_OK;
  }
  memset(m, 0, sizeof *m);
  if (st == FIT_ERR_NOFIT) { /* the record with the region's lower bounds (map_bounds.h) */
    map_bounds b;
    map_bounds_compute(p, g, arch, so->mapped, so->axis == MAP_AXIS_2D ? so->mapped2 : -1, so->one_pe, &b);
    m->fit = s.first;
    map_bounds_apply(&b, &m->fit);
    fit_record_format(&m->fit, msg, msgsz);
  }
  return st;
}

int map_search_line(const ast_program *p, int *rows, int *cols) {
  if (p->ndims != 1 || *rows < 2 || *cols < 2) return 0;
  if (*cols >= *rows) *rows = 1;
  else *cols = 1;
  return 1;
}
