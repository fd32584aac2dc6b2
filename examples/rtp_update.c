/*
 * rtp_update.c: a run-time parameter updated between runs, as ADF's
 * graph.update(): an FIR filter over one signal x of N samples, run with
 * T = 2, then 4, then 3 taps. Each update instantiates the kernel again
 * into its region (nothing compiled); the signal keeps its values (its
 * array keeps its shape, docs/runtime.md "Kernels") and only the taps
 * a[T] are written anew. Every y is checked against the reference
 * interpreter and against the filter computed here from the signal as
 * written once (which the second and third runs see only if the runtime
 * kept it).
 *
 *   rtp_update FIR.sym FIR.pla [ARCH.ini]
 *
 * Exit 0 when every output equals the reference's, 1 when one differs,
 * 2 on an error.
 */
#include <stdio.h>

#include "example.h"

#define N 24 /* samples */

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: rtp_update FIR.sym FIR.pla [ARCH.ini]\n");
    return EXAMPLE_ERROR;
  }
  tcpa_rt_kernel *k;
  tcpa_rt_region *r;
  example_try(tcpa_rt_open(argc > 3 ? argv[3] : NULL, TCPA_RT_ENGINE_MODEL, &example_array), "open");
  example_try(tcpa_rt_kernel_load(example_array, argv[1], &k), argv[1]);
  example_try(tcpa_rt_region_alloc(example_array, 1, 2, 0, 0, &r), "region 1x2@0,0");
  example_try(tcpa_rt_param_set(k, "N", N), "N");
  example_try(tcpa_rt_param_set(k, "T", 2), "T");
  example_try(tcpa_rt_instantiate(k, r), "instantiate");
  int32_t x[N], a[8], y[N];
  for (int i = 0; i < N; i++) x[i] = (int32_t)((i * 37) % 19) - 9;
  example_try(tcpa_rt_write(k, "x", x, N), "write x"); /* once */
  static const int taps[] = {2, 4, 3};
  size_t wrong = 0;
  for (int i = 0; i < 3; i++) {
    int t = taps[i];
    if (i) example_try(tcpa_rt_update(k, "T", t), "update T");
    for (int j = 0; j < t; j++) a[j] = (int32_t)(j + 1) * (i + 2) - 4;
    example_try(tcpa_rt_write(k, "a", a, (size_t)t), "write a");
    unsigned long long cycles;
    example_try(tcpa_rt_start(k), "start");
    example_try(tcpa_rt_wait(k, 1000000, &cycles), "wait");
    size_t bad = example_check(k, argv[2], "y");
    example_try(tcpa_rt_read(k, "y", y, N), "read y");
    for (int n = 0; n < N; n++) { /* y[n] = sum_j a[j] x[n - j], x[< 0] = 0 */
      int32_t want = 0;
      for (int j = 0; j < t && j <= n; j++) want += a[j] * x[n - j];
      if (y[n] != want && bad++ < 5) fprintf(stderr, "fir T=%d: y[%d] = %d, the filter gives %d\n", t, n, y[n], want);
    }
    printf("fir N=%d T=%d: %llu cycles, y %s\n", N, t, cycles,
           bad ? "differs from the reference" : "equals the reference and the filter");
    wrong += bad;
  }
  tcpa_rt_close(example_array);
  return wrong ? EXAMPLE_WRONG : EXAMPLE_PASS;
}
