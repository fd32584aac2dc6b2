/* covers: docs/runtime.md "Running" "Statuses and errors" */
/*
 * test_rt_engine.c: start and wait of the runtime on the model
 * (runtime/rt_engine.c). A table of scenarios, each kernels in regions
 * and an order of starts and waits: one kernel alone (its cycles noted),
 * two at once (each one's outputs equal to the reference and its cycles
 * equal to its cycles alone: the regions do not disturb each other), a
 * wait that times out and the kernel finishing on the next wait, a
 * kernel started while another is under way (the run remade and stepped
 * again to where it was), a second start of one instantiation with other
 * inputs, a 2-D kernel on a 2x2 region beside a 1-D one. Then the bad
 * calls on a running array: a region overlapping a running one, a fifth
 * stream in flight; each a status and a message.
 */
#include "rt_fixture.h"
#include "test.h"

/* A kernel of a scenario: the benchmark, its parameters, its region. */
typedef struct {
  const char *prog;
  const char *params; /* "N=4 M=3 K=5" */
  int rows, cols, row0, col0;
  const char *out;    /* an output array checked */
} kspec;

enum { START_ALL, WAIT_ALL, START0, START1, WAIT0, WAIT1, TIMEOUT0, REFILL0, END };

typedef struct {
  const char *name;
  kspec k[2];
  int nk;
  int steps[8];
} scenario;

static const scenario scenarios[] = {
    {"matmul alone", {{"matmul", "N=4 M=3 K=5", 1, 2, 0, 0, "C"}}, 1, {START0, WAIT0, END}},
    {"dotprod alone", {{"dotprod", "N=50", 1, 2, 0, 2, "dot"}}, 1, {START0, WAIT0, END}},
    {"both at once",
     {{"matmul", "N=4 M=3 K=5", 1, 2, 0, 0, "C"}, {"dotprod", "N=50", 1, 2, 0, 2, "dot"}},
     2,
     {START_ALL, WAIT1, WAIT0, END}},
    {"a timeout, then done",
     {{"matmul", "N=4 M=3 K=5", 1, 2, 0, 0, "C"}},
     1,
     {START0, TIMEOUT0, WAIT0, END}},
    {"dotprod started while matmul runs",
     {{"matmul", "N=4 M=3 K=5", 1, 2, 0, 0, "C"}, {"dotprod", "N=50", 1, 2, 0, 2, "dot"}},
     2,
     {START0, TIMEOUT0, START1, WAIT0, WAIT1, END}},
    {"one instantiation, two inputs", {{"matmul", "N=4 M=3 K=5", 1, 2, 0, 0, "C"}}, 1,
     {START0, WAIT0, REFILL0, START0, WAIT0, END}},
    {"2-D matmul on 2x2 beside 1-D matmul on 1x2",
     {{"matmul2d", "N=4 M=4 K=3", 2, 2, 2, 0, "C"}, {"matmul", "N=4 M=3 K=5", 1, 2, 0, 0, "C"}},
     2,
     {START_ALL, WAIT0, WAIT1, END}},
};

static char dir[] = "/tmp/test_rt_engineXXXXXX";
static unsigned long long alone[2]; /* cycles of scenarios 0 and 1 */

/* Returns the kernel of spec s instantiated into a new region of a with
 * inputs filled from seed; NULL after a failed check. */
static tcpa_rt_kernel *kernel_make(tcpa_rt_array *a, const kspec *s, int seed, tcpa_rt_region **rp) {
  char sym[512];
  snprintf(sym, sizeof sym, "%s/%s.sym", dir, s->prog);
  tcpa_rt_kernel *k;
  tcpa_rt_region *r;
  if (!TEST_CHECK(!tcpa_rt_kernel_load(a, sym, &k), "load %s: %s", sym, tcpa_rt_message(a))) return NULL;
  char buf[64], *save = NULL;
  snprintf(buf, sizeof buf, "%s", s->params);
  for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
    char *eq = strchr(t, '=');
    *eq = 0;
    tcpa_rt_param_set(k, t, atoll(eq + 1));
  }
  if (!TEST_CHECK(!tcpa_rt_region_alloc(a, s->rows, s->cols, s->row0, s->col0, &r) && !tcpa_rt_instantiate(k, r),
                  "%s on %dx%d@%d,%d: %s", s->prog, s->rows, s->cols, s->row0, s->col0, tcpa_rt_message(a)))
    return NULL;
  if (rp) *rp = r;
  const char *ins[] = {"A", "B", "a", "b", "bias"};
  for (size_t i = 0; i < sizeof ins / sizeof *ins; i++) rt_fixture_fill(k, ins[i], seed + (int)i);
  return k;
}

/* Runs scenario sc; returns nothing, checks everything. */
static void scenario_run(const scenario *sc, int index) {
  tcpa_rt_array *a;
  tcpa_rt_open(NULL, TCPA_RT_ENGINE_MODEL, &a);
  tcpa_rt_kernel *k[2] = {0};
  for (int i = 0; i < sc->nk; i++)
    if (!(k[i] = kernel_make(a, &sc->k[i], 10 * i + 1, NULL))) {
      tcpa_rt_close(a);
      return;
    }
  unsigned long long cyc[2] = {0, 0};
  for (int s = 0; sc->steps[s] != END; s++) {
    int op = sc->steps[s], i = op == START1 || op == WAIT1;
    tcpa_rt_status st;
    switch (op) {
    case START_ALL:
      for (int j = 0; j < sc->nk; j++)
        TEST_CHECK(!tcpa_rt_start(k[j]), "%s: start %s (%s)", sc->name, sc->k[j].prog, tcpa_rt_message(a));
      break;
    case START0:
    case START1:
      TEST_CHECK(!tcpa_rt_start(k[i]), "%s: start %s (%s)", sc->name, sc->k[i].prog, tcpa_rt_message(a));
      break;
    case WAIT0:
    case WAIT1:
      st = tcpa_rt_wait(k[i], 0, &cyc[i]);
      TEST_CHECK(!st, "%s: wait %s: %s (%s)", sc->name, sc->k[i].prog, tcpa_rt_status_name(st), tcpa_rt_message(a));
      TEST_CHECK(rt_fixture_differ(k[i], strncmp(sc->k[i].prog, "matmul", 6) ? sc->k[i].prog : "matmul",
                                   sc->k[i].out) == 0,
                 "%s: %s.%s equals the reference interpreter's", sc->name, sc->k[i].prog, sc->k[i].out);
      break;
    case TIMEOUT0: {
      tcpa_rt_error e;
      st = tcpa_rt_wait(k[0], 20, NULL);
      tcpa_rt_last_error(a, &e);
      int32_t c[64];
      TEST_CHECK(st == TCPA_RT_TIMEOUT && e.available == 20 && tcpa_rt_message(a)[0],
                 "%s: a wait of 20 cycles times out (%s)", sc->name, tcpa_rt_message(a));
      TEST_CHECK(tcpa_rt_read(k[0], sc->k[0].out, c, 12) == TCPA_RT_STATE, "%s: read before done: state (%s)",
                 sc->name, tcpa_rt_message(a));
      break;
    }
    case REFILL0:
      TEST_CHECK(!rt_fixture_fill(k[0], "A", 77) && !rt_fixture_fill(k[0], "B", 78), "%s: new inputs", sc->name);
      break;
    }
  }
  for (int i = 0; i < sc->nk; i++) {
    if (!strcmp(sc->k[i].prog, "matmul2d")) continue; /* no run alone to compare with */
    int j = !strcmp(sc->k[i].prog, "matmul") ? 0 : 1;
    if (index < 2) alone[j] = cyc[i];
    else
      TEST_CHECK(cyc[i] == alone[j] && cyc[i] > 0, "%s: %s took %llu cycles, %llu alone", sc->name, sc->k[i].prog,
                 cyc[i], alone[j]);
  }
  tcpa_rt_close(a);
}

/* The bad calls on a running array: an overlapping region, a fifth
 * stream in flight. */
static void busy_calls(void) {
  tcpa_rt_array *a;
  tcpa_rt_open(NULL, TCPA_RT_ENGINE_MODEL, &a);
  kspec s = {"dotprod", "N=50", 1, 1, 0, 0, "dot"};
  tcpa_rt_kernel *k[4];
  tcpa_rt_region *reg[4];
  for (int i = 0; i < 4; i++) { /* the corners: two border sides each */
    s.row0 = i / 2 * 3, s.col0 = i % 2 * 3;
    if (!(k[i] = kernel_make(a, &s, i, &reg[i]))) return;
    TEST_CHECK(!tcpa_rt_start(k[i]), "busy: start dotprod %d", i);
  }
  tcpa_rt_region *r = (tcpa_rt_region *)1;
  tcpa_rt_error e;
  tcpa_rt_status st = tcpa_rt_region_alloc(a, 2, 2, 1, 1, &r);
  tcpa_rt_last_error(a, &e);
  TEST_CHECK(st == TCPA_RT_NOFIT && !r && e.why == TCPA_RT_WHY_NO_GC,
             "busy: a fifth region is refused: no controller free (%s)", tcpa_rt_message(a));
  TEST_CHECK(tcpa_rt_region_free(reg[3]) == TCPA_RT_STATE, "busy: a region with a kernel in it is not freed (%s)",
             tcpa_rt_message(a));
  tcpa_rt_kernel_free(k[3]); /* running: dropped */
  TEST_CHECK(!tcpa_rt_region_free(reg[3]), "busy: its region freed once the kernel is");
  st = tcpa_rt_region_alloc(a, 2, 2, 2, 0, &r);
  tcpa_rt_last_error(a, &e);
  TEST_CHECK(st == TCPA_RT_NOFIT && !r && e.why == TCPA_RT_WHY_OVERLAP && e.region == 2,
             "busy: a region overlapping a running one is refused (%s)", tcpa_rt_message(a));
  TEST_CHECK(!tcpa_rt_wait(k[0], 0, NULL), "busy: dotprod 0 done");
  st = tcpa_rt_start(k[0]);
  tcpa_rt_last_error(a, &e);
  TEST_CHECK(st == TCPA_RT_NOFIT && e.why == TCPA_RT_WHY_STREAMS, "busy: a fifth stream in flight (%s)",
             tcpa_rt_message(a));
  for (int i = 1; i < 3; i++) TEST_CHECK(!tcpa_rt_wait(k[i], 0, NULL), "busy: dotprod %d done", i);
  TEST_CHECK(!tcpa_rt_start(k[0]) && !tcpa_rt_wait(k[0], 0, NULL) && rt_fixture_differ(k[0], "dotprod", "dot") == 0,
             "busy: once all are done, a new run; dotprod again equals the reference");
  int rows;
  TEST_CHECK(tcpa_rt_array_size(a, &rows, NULL) == TCPA_RT_OK, "the process is alive after every refusal");
  tcpa_rt_close(a);
}

int main(void) {
  char sym[512];
  if (!mkdtemp(dir) || rt_fixture_compile(dir, "matmul", NULL, sym, sizeof sym) ||
      rt_fixture_compile(dir, "dotprod", NULL, sym, sizeof sym) ||
      rt_fixture_compile(dir, "matmul", "i,j", sym, sizeof sym)) {
    TEST_CHECK(0, "matmul (1-D and 2-D) and dotprod compile");
    return test_done();
  }
  for (size_t i = 0; i < sizeof scenarios / sizeof *scenarios; i++) scenario_run(&scenarios[i], (int)i);
  busy_calls();
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  TEST_CHECK(system(cmd) == 0, "temporary directory removed");
  return test_done();
}
