/*
 * check.h: the five rules of docs/language.md, checked symbolically with
 * isl for every parameter value (not by enumerating cases). Each error
 * names the rule, the equation (file:line:column) and, where one exists, a
 * witness iteration and parameter values.
 */
#ifndef TCPA_CHECK_H
#define TCPA_CHECK_H

#include "ast.h"

/* Returns the number of rule violations found in `p` (0: the program is
 * valid); each one is printed through diag.h. */
int check_program(const ast_program *p);

/* Returns 1 when the concrete parameter values satisfy the program's
 * parameter domain (every parameter >= 1 and the parameter-only constraints
 * of `par`), else 0. */
int check_params_valid(const ast_program *p, const int64_t *params);

#endif
