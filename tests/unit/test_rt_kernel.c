/* covers: docs/runtime.md "Kernels" "Statuses and errors" */
/*
 * test_rt_kernel.c: kernels of the runtime (runtime/rt_kernel.c) on the
 * model: matmul compiled once, then a table of calls in order, each with
 * the status it must return: the bad ones (a missing .sym, one that is
 * not a .sym, one of another architecture, NULL handles, an unknown
 * parameter, a parameter outside the program's domain, an unset one, an
 * unknown array, a wrong count, writing an output, reading before start
 * and before done, starting twice, waiting on a kernel never started, a
 * kernel in a region that already has one) each a status and a message,
 * the process alive; and the good ones, whose outputs must equal the
 * reference interpreter's, then again after an update of a parameter
 * (instantiated anew, nothing compiled).
 */
#include "rt_fixture.h"
#include "test.h"

enum { LOAD, LOAD_MISSING, PARAM, INST, INST_OTHER, WRITE, WRITE_OUT, FILL, START, WAIT, READ, CHECK, UPDATE,
       INFO, FREE_REGION };

/* One call: op, a name, a value (count, parameter value), the status. */
typedef struct {
  int op;
  const char *name;
  long long value;
  tcpa_rt_status want;
} call;

static const call calls[] = {
    {LOAD_MISSING, "no/such.sym", 0, TCPA_RT_FILE},
    {LOAD, NULL, 0, TCPA_RT_OK},
    {INFO, "A", 0, TCPA_RT_STATE},             /* before instantiate */
    {START, NULL, 0, TCPA_RT_STATE},           /* before instantiate */
    {PARAM, "Q", 3, TCPA_RT_INVALID},          /* unknown parameter */
    {PARAM, "N", 0, TCPA_RT_INVALID},          /* every parameter >= 1 */
    {PARAM, "N", 4, TCPA_RT_OK},
    {PARAM, "M", 3, TCPA_RT_OK},
    {INST, NULL, 0, TCPA_RT_INVALID},          /* K not set */
    {PARAM, "K", 5, TCPA_RT_OK},
    {INST, NULL, 0, TCPA_RT_OK},
    {INST_OTHER, NULL, 0, TCPA_RT_NOFIT},      /* a second kernel in the same region */
    {INFO, "A", 20, TCPA_RT_OK},               /* 4 x 5 */
    {INFO, "Z", 0, TCPA_RT_INVALID},
    {WRITE, "A", 19, TCPA_RT_INVALID},         /* one value short */
    {WRITE, "Z", 20, TCPA_RT_INVALID},
    {WRITE_OUT, "C", 12, TCPA_RT_INVALID},     /* an output */
    {FILL, "A", 1, TCPA_RT_OK},
    {FILL, "B", 2, TCPA_RT_OK},
    {READ, "C", 12, TCPA_RT_STATE},            /* before start */
    {WAIT, NULL, 0, TCPA_RT_STATE},            /* never started */
    {START, NULL, 0, TCPA_RT_OK},
    {START, NULL, 0, TCPA_RT_STATE},           /* runs already */
    {READ, "C", 12, TCPA_RT_STATE},            /* before done */
    {WRITE, "A", 20, TCPA_RT_STATE},           /* while it runs */
    {UPDATE, "N", 2, TCPA_RT_STATE},           /* while it runs */
    {FREE_REGION, NULL, 0, TCPA_RT_STATE},     /* a kernel is in it */
    {WAIT, NULL, 0, TCPA_RT_OK},
    {READ, "C", 11, TCPA_RT_INVALID},
    {READ, "A", 20, TCPA_RT_INVALID},          /* an input */
    {CHECK, "C", 0, TCPA_RT_OK},
    {UPDATE, "N", 0, TCPA_RT_INVALID},
    {UPDATE, "K", 1500, TCPA_RT_NOFIT},        /* fd0 deeper than pe.fd_depth */
    {PARAM, "K", 2, TCPA_RT_OK},
    {INST, NULL, 0, TCPA_RT_OK},               /* back after the refusal */
    {UPDATE, "N", 7, TCPA_RT_OK},              /* 7 x 2: A reshaped, zero */
    {INFO, "A", 14, TCPA_RT_OK},
    {FILL, "A", 3, TCPA_RT_OK},
    {START, NULL, 0, TCPA_RT_OK},
    {WAIT, NULL, 0, TCPA_RT_OK},
    {CHECK, "C", 0, TCPA_RT_OK},
    {UPDATE, "M", 1, TCPA_RT_OK},              /* B keeps its shape? no: 2 x 1 */
    {FILL, "B", 4, TCPA_RT_OK},
    {START, NULL, 0, TCPA_RT_OK},
    {WAIT, NULL, 0, TCPA_RT_OK},
    {CHECK, "C", 0, TCPA_RT_OK},
};

int main(void) {
  char dir[] = "/tmp/test_rt_kernelXXXXXX", sym[512];
  if (!mkdtemp(dir) || rt_fixture_compile(dir, "matmul", NULL, sym, sizeof sym)) {
    TEST_CHECK(0, "matmul compiles into a temporary directory");
    return test_done();
  }
  tcpa_rt_array *a;
  tcpa_rt_region *r;
  TEST_CHECK(!tcpa_rt_open(NULL, TCPA_RT_ENGINE_MODEL, &a) && !tcpa_rt_region_alloc(a, 1, 2, 0, 1, &r),
             "open the array and allocate a 1x2 region at 0,1");
  tcpa_rt_kernel *k = NULL, *other = NULL;
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
    const call *c = &calls[i];
    tcpa_rt_status st = TCPA_RT_INTERNAL;
    tcpa_rt_array_shape s = {0};
    int32_t vals[64] = {0};
    long differ = 0;
    switch (c->op) {
    case LOAD: st = tcpa_rt_kernel_load(a, sym, &k); break;
    case LOAD_MISSING: st = tcpa_rt_kernel_load(a, c->name, &other); break;
    case PARAM: st = tcpa_rt_param_set(k, c->name, c->value); break;
    case INST: st = tcpa_rt_instantiate(k, r); break;
    case INST_OTHER:
      if (!tcpa_rt_kernel_load(a, sym, &other) && !tcpa_rt_param_set(other, "N", 1) &&
          !tcpa_rt_param_set(other, "M", 1) && !tcpa_rt_param_set(other, "K", 1))
        st = tcpa_rt_instantiate(other, r);
      tcpa_rt_kernel_free(other);
      break;
    case WRITE: st = tcpa_rt_write(k, c->name, vals, (size_t)c->value); break;
    case WRITE_OUT: st = tcpa_rt_write(k, c->name, vals, (size_t)c->value); break;
    case FILL: st = rt_fixture_fill(k, c->name, (int)c->value); break;
    case START: st = tcpa_rt_start(k); break;
    case WAIT: st = tcpa_rt_wait(k, 0, NULL); break;
    case READ: st = tcpa_rt_read(k, c->name, vals, (size_t)c->value); break;
    case CHECK:
      differ = rt_fixture_differ(k, "matmul", c->name);
      st = differ == 0 ? TCPA_RT_OK : TCPA_RT_ENGINE;
      break;
    case UPDATE: st = tcpa_rt_update(k, c->name, c->value); break;
    case INFO:
      st = tcpa_rt_array_info(k, c->name, &s);
      if (!st && s.count != (size_t)c->value) st = TCPA_RT_INTERNAL;
      break;
    case FREE_REGION: st = tcpa_rt_region_free(r); break;
    }
    TEST_CHECK(st == c->want, "call %zu (op %d %s %lld): %s, want %s; %s", i, c->op, c->name ? c->name : "",
               c->value, tcpa_rt_status_name(st), tcpa_rt_status_name(c->want),
               st ? tcpa_rt_message(a) : (differ ? "outputs differ" : "no message"));
    if (c->want != TCPA_RT_OK && c->op != CHECK && c->op != INFO)
      TEST_CHECK(tcpa_rt_message(a)[0] != '\0', "call %zu: a message says why", i);
  }
  char junk[600];
  snprintf(junk, sizeof junk, "%s/junk.sym", dir);
  FILE *f = fopen(junk, "w");
  if (f) fputs("not a symbolic configuration\n", f), fclose(f);
  TEST_CHECK(tcpa_rt_kernel_load(a, junk, &other) == TCPA_RT_FILE && strstr(tcpa_rt_message(a), "junk.sym"),
             "a file that is not a .sym: file, named (%s)", tcpa_rt_message(a));
  tcpa_rt_array *big;
  TEST_CHECK(!tcpa_rt_open("configs/big1d.ini", TCPA_RT_ENGINE_MODEL, &big) &&
                 tcpa_rt_kernel_load(big, sym, &other) == TCPA_RT_INVALID &&
                 strstr(tcpa_rt_message(big), "another architecture"),
             "a .sym of another architecture: invalid (%s)", tcpa_rt_message(big));
  tcpa_rt_close(big);
  TEST_CHECK(tcpa_rt_param_set(NULL, "N", 1) == TCPA_RT_INVALID && tcpa_rt_start(NULL) == TCPA_RT_INVALID &&
                 tcpa_rt_wait(NULL, 0, NULL) == TCPA_RT_INVALID && tcpa_rt_read(NULL, "C", NULL, 0) == TCPA_RT_INVALID,
             "calls on no kernel (NULL): invalid");
  tcpa_rt_error e;
  tcpa_rt_update(k, "K", 1500);
  tcpa_rt_last_error(a, &e);
  TEST_CHECK(e.status == TCPA_RT_NOFIT && e.why == TCPA_RT_WHY_RESOURCE && e.resource[0] && e.needed > e.available,
             "a kernel too large: the resource as data (%s %lld > %lld)", e.resource, e.needed, e.available);
  tcpa_rt_close(a);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  TEST_CHECK(system(cmd) == 0, "temporary directory removed");
  return test_done();
}
