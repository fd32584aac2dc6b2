/* covers: docs/instantiate.md "The prolog" */
/*
 * test_inst_prolog.c: the prolog as a loop (inst_prolog, inst_proggen.c).
 * Table-driven: each case maps a benchmark (regress/programs) onto a 1-D or
 * 2-D region of an architecture file and instantiates it twice, once as
 * built and once with inst_opts.prolog_nops (the prolog as sigma * pi
 * nops, the former form), both with inst_opts.no_waits (every nop a word:
 * the loop is made only then). For every FU program it checks:
 *   - the form: a loop exactly when sigma >= 2 and a signal is free; the
 *     loop's program is (sigma - 1) * pi words shorter than the nops one;
 *   - the behaviour: the words are run step by step through the prolog with
 *     the control signals the GC terms give (inst_gc_ones evaluated at the
 *     GC step's J), every word issued is a `nop`, and at cycle sigma * pi
 *     the pc is the start node's first word;
 *   - after the prolog the two programs are the same words (the loop's
 *     targets moved by the words saved);
 *   - the prolog signal is one GC term.
 * A case with gc.signals equal to the signals the kernels need checks the
 * fallback: no loop, the nops, the reason recorded (a case whose kernel
 * signals leave no GC term checks INST_PROLOG_TERMS the same way).
 * A third instantiation with waits (the default, docs/isa.md `nop N`)
 * checks that the prolog is then one `nop N` word of at least sigma * pi
 * cycles (more when the start kernel's first slots are nops too), with no
 * loop and no signal, and that no program is longer than the loop's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/point.h>
#include <isl/val.h>

#include "inst.h"
#include "parse.h"
#include "rdg.h"
#include "test.h"

typedef struct {
  const char *prog, *arch;
  int rdim, cdim;         /* cdim < 0: 1-D along columns of dimension rdim */
  const char *params[8];  /* NAME=VALUE */
  int rows, cols;
  int min_sigma;          /* the case is meant to have at least this sigma */
  int tight;              /* 1: gc.signals = the kernels' signals (no room) */
} prolog_case;

static const prolog_case cases[] = {
    {"matmul", "configs/big1d.ini", 0, 1, {"N=16", "M=16", "K=2"}, 4, 4, 8, 0},
    {"matmul", "configs/big1d.ini", 0, 1, {"N=16", "M=16", "K=2"}, 4, 4, 8, 1},
    {"matmul", "configs/big1d.ini", 0, 1, {"N=8", "M=8", "K=2"}, 4, 4, 0, 0},
    {"fir", "configs/big1d.ini", 0, -1, {"N=8", "T=4"}, 1, 4, 0, 0},
};

/* One instantiation of a case. */
typedef struct {
  ast_program *p;
  rdg *g;
  map_config m;
  arch_config a;
  inst x;
  int mapped, ok;
} prolog_run;

/* Returns 1 when signal s is 1 in GC step `step` of x (inst_gc_ones at the
 * step's J: mixed radix in scan order, the slowest dimension unbounded). */
static int sig_at(const inst *x, int s, int64_t step) {
  isl_set *ones = inst_gc_ones(x, s);
  isl_point *pt = isl_point_zero(isl_set_get_space(ones));
  for (int g = 0; g < x->n; g++) {
    int d = x->m->order[g];
    int64_t v = g == x->n - 1 ? step : step % x->E[d];
    step = g == x->n - 1 ? 0 : step / x->E[d];
    pt = isl_point_set_coordinate_val(pt, isl_dim_set, d, isl_val_int_from_si(isl_set_get_ctx(ones), v));
  }
  isl_set *p = isl_set_from_point(pt);
  int in = isl_set_is_subset(p, ones) == isl_bool_true;
  isl_set_free(p);
  isl_set_free(ones);
  return in;
}

/* Returns the pc after word in issues in GC step `step` (-1: halt). */
static int next_pc(const inst *x, const isa_insn *in, int pc, int64_t step) {
  switch (in->br) {
  case ISA_BR_NEXT: return pc + 1;
  case ISA_BR_GOTO: return in->target[0];
  case ISA_BR_COND: {
    int idx = 0;
    for (int b = 0; b < in->nsel; b++) idx |= sig_at(x, in->sel[b], step) << b;
    return in->target[idx];
  }
  default: return -1;
  }
}

/* Returns 1 when the prolog of f runs only nops for sigma * pi cycles and
 * then reaches the start node's first word. */
static int prolog_runs(const inst *x, const inst_fuprog *f) {
  int pc = 0, ii = x->m->ii;
  for (int64_t c = 0; c < (int64_t)x->sigma * ii; c++) {
    if (pc < 0 || pc >= f->nwords) return 0;
    char txt[160];
    isa_insn_format(&f->insns[pc], txt, sizeof txt);
    if (strncmp(txt, "nop", 3)) return 0;
    pc = next_pc(x, &f->insns[pc], pc, c / ii);
  }
  return pc == f->k[0].pc;
}

/* Returns 1 when the prolog of f (with waits, docs/isa.md `nop N`) is at
 * most 2 nop words lasting sigma * pi cycles up to the start node's first
 * word, or into a nop word that the start node's first word joined. */
static int prolog_waits(const inst *x, const inst_fuprog *f) {
  int64_t pro = (int64_t)x->sigma * x->m->ii, c = 0;
  int pc = 0;
  while (c < pro) {
    if (pc < 0 || pc >= f->nwords || f->insns[pc].op != ISA_OP_NOP) return 0;
    int64_t n = 1 + (int64_t)(uint32_t)f->insns[pc].imm;
    if (c + n > pro) return pc == f->k[0].pc;
    c += n;
    pc = next_pc(x, &f->insns[pc], pc, (c - 1) / x->m->ii);
  }
  return pc == f->k[0].pc && pc <= 2;
}

/* Returns 1 when words a[from_a..] and b[from_b..] encode the same, the
 * targets of a moved by from_b - from_a. */
static int same_after(const inst_fuprog *a, int from_a, const inst_fuprog *b, int from_b) {
  if (a->nwords - from_a != b->nwords - from_b) return 0;
  for (int i = 0; i < a->nwords - from_a; i++) {
    isa_insn u = a->insns[from_a + i];
    int nt = u.br == ISA_BR_GOTO ? 1 : u.br == ISA_BR_COND ? 1 << u.nsel : 0;
    for (int t = 0; t < nt; t++) u.target[t] = (uint16_t)(u.target[t] + from_b - from_a);
    isa_word wu, wv;
    if (isa_encode(&u, &wu) || isa_encode(&b->insns[from_b + i], &wv) || memcmp(&wu, &wv, sizeof wu)) return 0;
  }
  return 1;
}

/* Returns 1 after mapping and instantiating case c into r (nops: the
 * prolog forced to nops; gc_signals >= 0 overrides gc.signals). */
static int run_case(const prolog_case *c, int nops, int waits, int gc_signals, prolog_run *r) {
  char path[256], msg[512];
  memset(r, 0, sizeof *r);
  snprintf(path, sizeof path, "regress/programs/%s.pla", c->prog);
  r->p = parse_file(path);
  r->g = r->p ? rdg_build(r->p) : NULL;
  if (!r->g || arch_config_load(c->arch, &r->a)) return 0;
  if (gc_signals >= 0) r->a.gc_signals = gc_signals;
  int st = c->cdim >= 0 ? map_build_2d(r->p, r->g, &r->a, c->rdim, c->cdim, &r->m, msg, sizeof msg)
                        : map_build(r->p, r->g, &r->a, c->rdim, 0, &r->m, msg, sizeof msg);
  r->mapped = 1; /* a mapping that does not fit still holds what it built (map.h) */
  if (st != MAP_OK) {
    fprintf(stderr, "# %s: %s\n", c->prog, msg);
    return 0;
  }
  char *pn[8];
  int64_t pv[8];
  char names[8][32];
  int np = 0;
  for (; np < 8 && c->params[np]; np++) {
    snprintf(names[np], sizeof names[np], "%.*s", (int)(strchr(c->params[np], '=') - c->params[np]),
             c->params[np]);
    pn[np] = names[np];
    pv[np] = atoll(strchr(c->params[np], '=') + 1);
  }
  inst_opts io = {.prolog_nops = nops, .no_waits = !waits};
  st = inst_run_opts(&r->x, &io, &r->m, &r->a, np, pn, pv, c->rows, c->cols, msg, sizeof msg);
  if (st != INST_OK) fprintf(stderr, "# %s: %s\n", c->prog, msg);
  r->ok = st == INST_OK;
  return r->ok;
}

/* Frees what run_case built. */
static void release(prolog_run *r) {
  if (r->x.ctx) inst_free(&r->x);
  if (r->mapped) map_config_free(&r->m);
  rdg_free(r->g);
  ast_program_free(r->p);
}

/* Checks case i instantiated with waits against loop, its instantiation
 * without them. */
static void check_waits(int i, const prolog_run *loop, int gc_signals) {
  const prolog_case *c = &cases[i];
  prolog_run w;
  int ok = run_case(c, 0, 1, gc_signals, &w);
  TEST_CHECK(ok, "case %d: instantiates with waits", i);
  if (!ok) {
    release(&w);
    return;
  }
  const inst *x = &w.x;
  int64_t pro = (int64_t)x->sigma * x->m->ii;
  int one = 1, shorter = 1, nfu = 0;
  for (int pc = 0; pc < x->npc; pc++)
    for (int f = 0; f < x->nfu; f++) {
      const inst_fuprog *a = &x->pc[pc].fp[f], *b = &loop->x.pc[pc].fp[f];
      if (a->empty || !pro) continue;
      nfu++;
      one &= prolog_waits(x, a);
      shorter &= a->nwords <= b->nwords;
    }
  TEST_CHECK(!x->prolog_loop && x->nsig == loop->x.nsig - loop->x.prolog_loop,
             "case %d: with waits no prolog loop and no prolog signal (%d signals)", i, x->nsig);
  TEST_CHECK(one, "case %d: with waits each of %d programs waits sigma * pi = %lld cycles in at most 2 nops", i,
             nfu, (long long)pro);
  TEST_CHECK(shorter, "case %d: with waits no program is longer than without", i);
  release(&w);
}

/* Checks case number i against its nops instantiation. */
static void check_case(int i) {
  const prolog_case *c = &cases[i];
  prolog_run ref, got;
  int ok = run_case(c, 1, 0, -1, &ref);
  TEST_CHECK(ok, "case %d (%s %dx%d): instantiates with the nops prolog", i, c->prog, c->rows, c->cols);
  int got_ok = ok && run_case(c, 0, 0, c->tight ? ref.x.nsig : -1, &got);
  if (ok)
    TEST_CHECK(got_ok, "case %d: instantiates as built (gc.signals %s)", i, c->tight ? "= the kernels' signals" : "as given");
  if (got_ok) {
    const inst *x = &got.x;
    int room = inst_gc_nterms(&ref.x) + 1 <= 2 * x->arch.gc_signals; /* the GC takes one more term */
    int ii = x->m->ii, loop = x->sigma >= 2 && !c->tight && room;
    int save = loop ? (x->sigma - 1) * ii : 0;
    TEST_CHECK(x->sigma == ref.x.sigma && x->sigma >= c->min_sigma, "case %d: sigma %d (nops: %d, at least %d)", i,
               x->sigma, ref.x.sigma, c->min_sigma);
    TEST_CHECK(x->prolog_loop == loop && x->nsig == ref.x.nsig + loop,
               "case %d: a loop %s (got %d), signals %d = %d + %d", i, loop ? "wanted" : "not wanted", x->prolog_loop,
               x->nsig, ref.x.nsig, loop);
    if (c->tight && x->sigma >= 2)
      TEST_CHECK(x->prolog_why == INST_PROLOG_NOSIG, "case %d: gc.signals %d full: nops, reason recorded", i,
                 x->arch.gc_signals);
    else if (!room && x->sigma >= 2)
      TEST_CHECK(x->prolog_why == INST_PROLOG_TERMS, "case %d: GC terms full (%d of %d): nops, reason recorded", i,
                 inst_gc_nterms(&ref.x), 2 * x->arch.gc_signals);
    int words = 1, runs = 1, same = 1, nfu = 0;
    for (int pc = 0; pc < x->npc; pc++)
      for (int f = 0; f < x->nfu; f++) {
        const inst_fuprog *a = &x->pc[pc].fp[f], *b = &ref.x.pc[pc].fp[f];
        if (a->empty) continue;
        nfu++;
        /* a kernel word the nops program shares with its prolog's last
         * nop is shared with the loop's `nop ; br` word too (cP is 0 after
         * the prolog): exactly (sigma - 1) * pi words fewer, and the same
         * words after the prolog */
        words &= a->nwords == b->nwords - save && inst_prolog_words(x) == (loop ? ii : x->sigma * ii);
        runs &= prolog_runs(x, a);
        same &= same_after(a, inst_prolog_words(x), b, x->sigma * ii);
      }
    TEST_CHECK(nfu > 0 && words, "case %d: %d FU programs, each %d words shorter than with nops", i, nfu, save);
    TEST_CHECK(runs, "case %d: the prolog issues only nops for sigma * pi = %d cycles, then the start kernel", i,
               x->sigma * ii);
    TEST_CHECK(same, "case %d: after the prolog the words equal the nops program's", i);
    if (loop) {
      isl_set *t = inst_gc_ones(x, x->prolog_sig);
      int n = t ? isl_set_n_basic_set(t) : -1;
      isl_set_free(t);
      TEST_CHECK(n == 1, "case %d: the prolog signal c%d is one GC term (got %d)", i, x->prolog_sig, n);
      TEST_CHECK(inst_gc_nterms(x) <= 2 * x->arch.gc_signals, "case %d: GC terms %d within 2 x gc.signals", i,
                 inst_gc_nterms(x));
    }
  }
  if (got_ok) check_waits(i, &got, c->tight ? ref.x.nsig : -1);
  if (ok) release(&got);
  release(&ref);
}

int main(void) {
  for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) check_case(i);
  return test_done();
}
