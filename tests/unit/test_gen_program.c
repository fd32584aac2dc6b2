/* covers: docs/fuzz.md "Random programs" */
/*
 * test_gen_program.c: unit tests of the random program generator and its
 * shrinker (regress/gen_program.h, docs/fuzz.md "Random programs").
 *
 * Table-driven: each case is a range of seeds. Every program of the range
 * must parse and pass check_program (valid by construction: the five rules
 * of docs/language.md), print the same text when generated again, and, for
 * the first `shrink` seeds of the range, every one-step simplification the
 * shrinker applies must give a valid program strictly smaller by
 * gp_program_size. Over each range the table asks for what the generator
 * must cover: 1 to 4 dimensions, both triangular kinds, a dependence with a
 * negative and one with a zero component, three pieces, an output split,
 * a parameter constraint, scalars, every operator, a zero divisor and a
 * shift by 32 or more, INT_MIN.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ast.h"
#include "check.h"
#include "gen_program.h"
#include "parse.h"
#include "test.h"

typedef struct {
  const char *name;
  unsigned long long first, count;
  int shrink; /* seeds of the range whose every simplification is checked */
} gp_case;

static const gp_case gp_cases[] = {
    {"seeds 1..300", 1, 300, 12},
    {"seeds 2^40..+200", 1ull << 40, 200, 6},
    {"seeds 2^64-150..2^64-1", 0ull - 150, 150, 4},
};

/* What a range of seeds produced. */
typedef struct {
  int invalid, unstable, bad_shrink, shrinks;
  int dims[GP_MAX_DIMS + 1], low, up, neg, zero, pieces3, outsplit, pmin, scalar;
  int ops[GP_OP_COUNT], sel, div0, shift32, intmin;
} gp_tally;

/* Returns the text of p in a malloc'ed string. */
static char *gp_text(const gp_program *p) {
  char *s = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&s, &len);
  if (!f) abort();
  gp_program_print(p, f);
  fclose(f);
  return s;
}

/* Returns 1 when the text parses and passes every rule (messages to
 * /dev/null; the first bad text is printed). */
static int gp_valid(const char *text) {
  static int shown;
  fflush(stderr);
  int saved = dup(2);
  FILE *null = fopen("/dev/null", "w");
  if (null) dup2(fileno(null), 2);
  ast_program *a = parse_string("gen.pla", text);
  int ok = a && check_program(a) == 0;
  if (a) ast_program_free(a);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  if (null) fclose(null);
  if (!ok && !shown++) fprintf(stderr, "# invalid program:\n%s", text);
  return ok;
}

/* Counts the features of expression e into t. */
static void gp_tally_expr(const gp_program *p, const gp_expr *e, gp_tally *t) {
  if (!e) return;
  if (e->kind == GP_E_UN || e->kind == GP_E_BIN || e->kind == GP_E_CALL) t->ops[e->op]++;
  t->sel += e->kind == GP_E_SEL;
  if (e->kind == GP_E_BIN && (e->op == GP_OP_DIV || e->op == GP_OP_MOD) && e->b->kind == GP_E_CONST &&
      e->b->val == 0)
    t->div0++;
  if (e->kind == GP_E_BIN && e->op >= GP_OP_SHL && e->op <= GP_OP_SHRU && e->b->kind == GP_E_CONST &&
      (e->b->val >= 32 || e->b->val < 0))
    t->shift32++;
  if (e->kind == GP_E_CONST && e->val == INT32_MIN) t->intmin++;
  if (e->kind == GP_E_VAR) {
    int lead = -1;
    for (int d = 0; d < p->ndims; d++)
      if (e->off[d] && lead < 0) lead = d;
    for (int d = lead + 1; lead >= 0 && d < p->ndims; d++) {
      t->neg += e->off[d] < 0;
      t->zero += e->off[d] == 0;
    }
  }
  gp_tally_expr(p, e->a, t), gp_tally_expr(p, e->b, t), gp_tally_expr(p, e->c, t);
}

/* Counts the features of p into t. */
static void gp_tally_program(const gp_program *p, gp_tally *t) {
  t->dims[p->ndims]++;
  for (int d = 0; d < p->ndims; d++) t->low += p->dim[d].kind == GP_DIM_LOW, t->up += p->dim[d].kind == GP_DIM_UP;
  for (int q = 0; q < p->nparams; q++) t->pmin += p->pmin[q] > 1;
  t->scalar += p->nscalars > 0;
  for (int v = 0; v < p->nvars; v++) {
    t->pieces3 += p->var[v].npieces == 3;
    for (int k = 0; k < p->var[v].npieces; k++) gp_tally_expr(p, p->var[v].piece[k].e, t);
  }
  for (int o = 0; o < p->noutputs; o++) {
    t->outsplit += p->out[o].nsplit == 2;
    for (int s = 0; s < p->out[o].nsplit; s++) gp_tally_expr(p, p->out[o].e[s], t);
  }
}

/* Checks every simplification of p: valid and smaller. */
static void gp_shrink_all(const gp_program *p, gp_tally *t) {
  int n = gp_shrink_count(p);
  for (int k = 0; k < n; k++) {
    gp_program c;
    gp_program_copy(&c, p);
    if (gp_shrink_apply(&c, k) == 0) {
      t->shrinks++;
      char *text = gp_text(&c);
      if (!gp_valid(text) || gp_program_size(&c) >= gp_program_size(p)) t->bad_shrink++;
      free(text);
    }
    gp_program_free(&c);
  }
}

/* Runs one case into t. */
static void gp_case_run(const gp_case *c, gp_tally *t) {
  memset(t, 0, sizeof *t);
  for (unsigned long long i = 0; i < c->count; i++) {
    gp_program p, q;
    gp_program_generate(c->first + i, &p);
    gp_program_generate(c->first + i, &q);
    char *a = gp_text(&p), *b = gp_text(&q);
    t->invalid += !gp_valid(a);
    t->unstable += strcmp(a, b) != 0;
    gp_tally_program(&p, t);
    if ((int)i < c->shrink) gp_shrink_all(&p, t);
    free(a), free(b);
    gp_program_free(&p), gp_program_free(&q);
  }
}

int main(void) {
  static const char *const op_names[GP_OP_COUNT] = {
      "-x", "~", "!", "abs", "+", "-", "*", "/", "%", "<<", ">>", ">>>",
      "<", "<=", ">", ">=", "==", "!=", "&", "^", "|", "min", "max"};
  for (size_t i = 0; i < sizeof gp_cases / sizeof gp_cases[0]; i++) {
    const gp_case *c = &gp_cases[i];
    gp_tally t;
    gp_case_run(c, &t);
    TEST_CHECK(t.invalid == 0, "%s: every program passes check (%d do not)", c->name, t.invalid);
    TEST_CHECK(t.unstable == 0, "%s: the same seed gives the same text (%d differ)", c->name, t.unstable);
    TEST_CHECK(t.shrinks > 0 && t.bad_shrink == 0,
               "%s: every simplification is valid and smaller (%d of %d are not)", c->name, t.bad_shrink,
               t.shrinks);
    for (int d = 1; d <= GP_MAX_DIMS; d++) TEST_CHECK(t.dims[d] > 0, "%s: %d-D programs (%d)", c->name, d, t.dims[d]);
    TEST_CHECK(t.low > 0 && t.up > 0, "%s: triangular spaces 0 <= x <= y (%d) and y <= x < P (%d)", c->name, t.low,
               t.up);
    TEST_CHECK(t.neg > 0 && t.zero > 0, "%s: dependences with negative (%d) and zero (%d) components", c->name,
               t.neg, t.zero);
    TEST_CHECK(t.pieces3 > 0 && t.outsplit > 0, "%s: three pieces (%d), split outputs (%d)", c->name, t.pieces3,
               t.outsplit);
    TEST_CHECK(t.pmin > 0 && t.scalar > 0, "%s: parameter constraints (%d), scalars (%d)", c->name, t.pmin,
               t.scalar);
    int missing = -1;
    for (int o = 0; o < GP_OP_COUNT; o++)
      if (!t.ops[o]) missing = o;
    TEST_CHECK(missing < 0 && t.sel > 0, "%s: every operator and ?: (missing: %s; %d selects)", c->name,
               missing < 0 ? "none" : op_names[missing], t.sel);
    TEST_CHECK(t.div0 > 0 && t.shift32 > 0 && t.intmin > 0, "%s: x / 0 (%d), shifts by >= 32 or < 0 (%d), INT_MIN (%d)",
               c->name, t.div0, t.shift32, t.intmin);
  }
  return test_done();
}
