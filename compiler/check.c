/* check.c: placeholder until the isl checks land; accepts every program. */
#include "check.h"

#include <stddef.h>

int check_program(const ast_program *p) {
  (void)p;
  return 0;
}

int check_params_valid(const ast_program *p, const int64_t *params) {
  for (int i = 0; i < p->nparams; i++)
    if (params[i] < 1) return 0;
  for (int i = 0; i < p->param_space.n; i++) {
    int64_t v = ast_aff_eval(&p->param_space.c[i].aff, params, NULL);
    if (p->param_space.c[i].is_eq ? v != 0 : v < 0) return 0;
  }
  return 1;
}
