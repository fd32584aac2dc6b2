/*
 * pipeline.c: two kernels in a pipeline on two regions: matmul (C = A B,
 * N x N) on one, trimv (y = the lower triangle of L times x) on the
 * other, trimv's L the matmul's C. Three batches flow through it: while
 * trimv works on batch b, matmul already works on batch b + 1, both
 * regions running at once (docs/runtime.md "Running"). Every C and y is
 * checked against the reference interpreter.
 *
 *   pipeline MATMUL.sym MATMUL.pla TRIMV.sym TRIMV.pla [ARCH.ini]
 *
 * Exit 0 when every output equals the reference's, 1 when one differs,
 * 2 on an error.
 */
#include <stdio.h>

#include "example.h"

#define N 6
#define BATCHES 3

/* Starts matmul on batch b's inputs. */
static void matmul_start(tcpa_rt_kernel *mm, int b) {
  example_fill(mm, "A", 10 * b);
  example_fill(mm, "B", 10 * b + 1);
  example_try(tcpa_rt_start(mm), "start matmul");
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: pipeline MATMUL.sym MATMUL.pla TRIMV.sym TRIMV.pla [ARCH.ini]\n");
    return EXAMPLE_ERROR;
  }
  tcpa_rt_kernel *mm, *tv;
  tcpa_rt_region *r1, *r2;
  example_try(tcpa_rt_open(argc > 5 ? argv[5] : NULL, TCPA_RT_ENGINE_MODEL, &example_array), "open");
  example_try(tcpa_rt_kernel_load(example_array, argv[1], &mm), argv[1]);
  example_try(tcpa_rt_kernel_load(example_array, argv[3], &tv), argv[3]);
  example_try(tcpa_rt_region_alloc_fit(example_array, 1, 2, &r1), "a 1x2 region for matmul");
  example_try(tcpa_rt_region_alloc_fit(example_array, 1, 2, &r2), "a 1x2 region for trimv");
  example_try(tcpa_rt_param_set(mm, "N", N), "N");
  example_try(tcpa_rt_param_set(mm, "M", N), "M");
  example_try(tcpa_rt_param_set(mm, "K", N), "K");
  example_try(tcpa_rt_param_set(tv, "N", N), "N");
  example_try(tcpa_rt_instantiate(mm, r1), "instantiate matmul");
  example_try(tcpa_rt_instantiate(tv, r2), "instantiate trimv");
  size_t wrong = 0;
  int32_t c[N * N];
  matmul_start(mm, 0);
  for (int b = 0; b < BATCHES; b++) {
    unsigned long long mc, tc;
    example_try(tcpa_rt_wait(mm, 1000000, &mc), "wait matmul");
    wrong += example_check(mm, argv[2], "C");
    example_try(tcpa_rt_read(mm, "C", c, N * N), "read C");
    example_try(tcpa_rt_write(tv, "L", c, N * N), "write L");
    example_fill(tv, "x", 100 + b);
    example_try(tcpa_rt_start(tv), "start trimv");
    if (b + 1 < BATCHES) matmul_start(mm, b + 1); /* beside trimv */
    example_try(tcpa_rt_wait(tv, 1000000, &tc), "wait trimv");
    size_t bad = example_check(tv, argv[4], "y");
    printf("batch %d: matmul %llu cycles, trimv %llu cycles, y %s\n", b, mc, tc,
           bad ? "differs from the reference" : "equals the reference");
    wrong += bad;
  }
  tcpa_rt_close(example_array);
  return wrong ? EXAMPLE_WRONG : EXAMPLE_PASS;
}
