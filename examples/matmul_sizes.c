/*
 * matmul_sizes.c: one matmul kernel called with three problem sizes in
 * turn on one region, nothing compiled again: the .sym is loaded once,
 * each size is a run-time update of the parameters N, M and K
 * (tcpa_rt_update instantiates anew into the same region), new inputs,
 * a start and a wait; every C is checked against the reference
 * interpreter (docs/runtime.md "Examples").
 *
 *   matmul_sizes MATMUL.sym MATMUL.pla [ARCH.ini]
 *
 * Exit 0 when every output equals the reference's, 1 when one differs,
 * 2 on an error (the runtime's message on stderr).
 */
#include <stdio.h>

#include "example.h"

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: matmul_sizes MATMUL.sym MATMUL.pla [ARCH.ini]\n");
    return EXAMPLE_ERROR;
  }
  tcpa_rt_kernel *k;
  tcpa_rt_region *r;
  example_try(tcpa_rt_open(argc > 3 ? argv[3] : NULL, TCPA_RT_ENGINE_MODEL, &example_array), "open");
  example_try(tcpa_rt_kernel_load(example_array, argv[1], &k), argv[1]);
  example_try(tcpa_rt_region_alloc(example_array, 1, 4, 0, 0, &r), "region 1x4@0,0");
  static const int size[3][3] = {{4, 4, 4}, {7, 3, 5}, {12, 8, 6}};
  size_t wrong = 0;
  for (int s = 0; s < 3; s++) {
    if (s == 0) {
      example_try(tcpa_rt_param_set(k, "N", size[s][0]), "N");
      example_try(tcpa_rt_param_set(k, "M", size[s][1]), "M");
      example_try(tcpa_rt_param_set(k, "K", size[s][2]), "K");
      example_try(tcpa_rt_instantiate(k, r), "instantiate");
    } else {
      example_try(tcpa_rt_update(k, "N", size[s][0]), "update N");
      example_try(tcpa_rt_update(k, "M", size[s][1]), "update M");
      example_try(tcpa_rt_update(k, "K", size[s][2]), "update K");
    }
    example_fill(k, "A", 2 * s);
    example_fill(k, "B", 2 * s + 1);
    unsigned long long cycles;
    example_try(tcpa_rt_start(k), "start");
    example_try(tcpa_rt_wait(k, 1000000, &cycles), "wait");
    size_t bad = example_check(k, argv[2], "C");
    printf("matmul N=%d M=%d K=%d: %llu cycles, C %s\n", size[s][0], size[s][1], size[s][2], cycles,
           bad ? "differs from the reference" : "equals the reference");
    wrong += bad;
  }
  tcpa_rt_close(example_array);
  return wrong ? EXAMPLE_WRONG : EXAMPLE_PASS;
}
