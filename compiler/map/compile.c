/*
 * compile.c: `tcpa compile PROG.pla [--arch A.ini] [--map I[,J]] -o P.sym`
 * after its options are read (compile.h, cli_compile.c).
 * Parses and checks the program, builds its RDG, maps it symbolically
 * (map.h: tiling, modulo scheduling, registers, channels, PST, access
 * mappings) onto a 1-D region (--map I), or a 2-D one (--map I,J: I onto
 * the rows, J onto the columns), prints the bounds and the II reached (with
 * --bounds, first the region's lower bounds: map_bounds.h), and
 * writes the symbolic configuration (sym.h) to a temporary file renamed to
 * P.sym. Exit 0, 2 invalid input, 3 does not fit (the resource named).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "check.h"
#include "compile.h"
#include "diag.h"
#include "map.h"
#include "map_bounds.h"
#include "map_search.h"
#include "parse.h"
#include "rdg.h"
#include "sym.h"

/* Returns the ops of m that implement RDG operations (its equations after
 * merging: one op per variable and operation, common subexpressions,
 * output forwarding; docs/symbolic.md), without the mapper's copies. */
static int compile_merged_ops(const map_config *m) {
  int n = 0;
  for (int o = 0; o < m->nops; o++) n += m->ops[o].rdg_node >= 0;
  return n;
}

/* Prints the bounds, II and schedule of m to stdout. */
static void compile_report(const char *path, const map_config *m) {
  if (m->axis == MAP_AXIS_2D)
    printf("%s: mapped dimensions %s onto the rows (tile size p >= %d over t PE rows) and %s onto the "
           "columns (pc >= %d over tc PE columns) of an RxC region\n",
           path, m->dim_name[m->mapped[0]], m->p_min[0], m->dim_name[m->mapped[1]], m->p_min[1]);
  else
    printf("%s: mapped dimension %s onto a %s region, tile size p (>= %d) over t PEs\n", path,
           m->dim_name[m->mapped[0]], m->axis ? "Rx1" : "1xC", m->p_min[0]);
  printf("ResMII %d (", m->resmii_all);
  int first = 1;
  for (int c = 0; c < ISA_FU_ANY; c++) {
    if (!m->nclass[c]) continue;
    printf("%s%s: %d ops", first ? "" : ", ", isa_fu_name(c), m->nclass[c]);
    if (m->nslots[c] && m->nslots[c] < m->nclass[c]) printf(" in %d slots", m->nslots[c]); /* disjoint ones share */
    printf(" / %d units", m->units[c]);
    first = 0;
  }
  printf("), RecMII %d, II %d%s%s\n", m->recmii, m->ii, m->ii_reason[0] ? ": " : "", m->ii_reason);
  printf("schedule: lambda^J = pi * s(J), scan order");
  for (int r = 0; r < m->ndims; r++) printf(" %s", m->dim_name[m->order[r]]);
  printf(" (fastest first); lambda^K = ");
  if (m->lk_p[0])
    printf("%d*p%s %c %" PRId64 "\n", m->ii, m->order[0] == m->mapped[0] ? "" : "*S", m->lk_c[0] < 0 ? '-' : '+',
           m->lk_c[0] < 0 ? -m->lk_c[0] : m->lk_c[0]);
  else printf("%" PRId64 "\n", m->lk_c[0]);
  if (m->axis == MAP_AXIS_2D) {
    printf("          columns: lambda^K2 = ");
    if (m->lk_p[1]) printf("%d*pc*S %c %" PRId64 "\n", m->ii, m->lk_c[1] < 0 ? '-' : '+', m->lk_c[1] < 0 ? -m->lk_c[1] : m->lk_c[1]);
    else printf("%" PRId64 "\n", m->lk_c[1]);
  }
  if (m->wide && m->axis == MAP_AXIS_2D)
    printf("          tiles of at least %d x %d: constants %" PRId64 " (rows) and %" PRId64 " (columns)\n",
           m->p_wide[0], m->p_wide[1], m->lk_cw[0], m->lk_cw[1]);
  else if (m->wide)
    printf("          tiles of at least %d: constant %" PRId64 "\n", m->p_wide[0], m->lk_cw[0]);
  printf("registers: rd %d/%d, fd %d/%d, id %d/%d, od %d/%d; channels %d; accesses %d\n",
         m->used[MAP_REG_RD], m->arch.rd, m->used[MAP_REG_FD], m->arch.fd, m->used[MAP_REG_ID], m->arch.id,
         m->used[MAP_REG_OD], m->arch.od, m->nroutes, m->naccess);
  int ties = 0;
  for (int e = 0; e < m->nedges; e++) ties += m->edges[e].kind == MAP_EDGE_TIE && m->edges[e].pos >= 0;
  printf("operations: %d lowered equations -> %d ops per iteration\n", m->g ? rdg_count_ops(m->g) : -1, m->nops);
  printf("merging: %d ops per iteration before (one per equation), %d after (one per variable and operation; "
         "rewrite level %d)\n", m->g ? rdg_count_ops(m->g) : -1, compile_merged_ops(m), m->no_cse);
  printf("copies: %d writer (a value needed in two registers in one iteration), %d reader, %d input; "
         "%d forwarded operands\n", m->ncopies[2], m->ncopies[1], m->ncopies[0], ties);
}

/* Writes m to `out` through a temporary file; returns the exit status. */
static int compile_write(const map_config *m, const char *out) {
  size_t n = strlen(out) + 16;
  char *tmp = malloc(n);
  if (!tmp) return COMPILE_INPUT;
  snprintf(tmp, n, "%s.tmp", out);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    diag_error_plain("compile: cannot write '%s'", tmp);
    free(tmp);
    return COMPILE_INPUT;
  }
  int bad = sym_write(m, f);
  bad |= fclose(f) != 0;
  if (bad || rename(tmp, out)) {
    remove(tmp);
    diag_error_plain("compile: cannot write '%s'", out);
    free(tmp);
    return COMPILE_INPUT;
  }
  free(tmp);
  return COMPILE_OK;
}

/* Returns the dimension named or numbered by s in p, or -1. */
static int compile_dim(const ast_program *p, const char *s) {
  for (int k = 0; k < p->ndims; k++)
    if (!strcmp(p->index[k], s)) return k;
  char *end;
  long v = strtol(s, &end, 10);
  return *s && !*end && v >= 0 && v < p->ndims ? (int)v : -1;
}

/* Returns 0 after resolving --map map_s (one dimension, or two for the
 * rows and the columns) of p into *dim and *dim2 (-1: 1-D); -1 after
 * printing what is wrong. */
static int compile_dims(const ast_program *p, const char *map_s, int axis, int *dim, int *dim2) {
  char first[128];
  const char *comma = strchr(map_s, ',');
  snprintf(first, sizeof first, "%.*s", comma ? (int)(comma - map_s) : (int)strlen(map_s), map_s);
  *dim = compile_dim(p, first);
  if (comma) *dim2 = compile_dim(p, comma + 1);
  if (*dim < 0 || (comma && *dim2 < 0)) {
    diag_error_plain("compile: --map %s: no such dimension in '%s'", map_s, p->name);
    return -1;
  }
  if (comma && *dim2 == *dim) {
    diag_error_plain("compile: --map %s: the rows and the columns need two different dimensions", map_s);
    return -1;
  }
  if (comma && axis) {
    diag_error_plain("compile: --map %s names two dimensions (an RxC region): --rows does not apply", map_s);
    return -1;
  }
  return 0;
}

/* Returns 0 after setting the region's shape (*axis, and *dim2 for an RxC
 * region without --map: the dimension after the rows') from --pes *rows x
 * *cols as tcpa run does: a program of one loop dimension runs on the
 * first row (C >= R) or column of an RxC region, which *rows or *cols then
 * become (docs/user-guide.md `--pes`); -1 after printing what is wrong. */
static int compile_region(const ast_program *p, const char *map_s, int *rows, int *cols, int *axis, int *dim2) {
  map_search_line(p, rows, cols);
  int two = *rows > 1 && *cols > 1;
  if (two != (*dim2 >= 0) && map_s) {
    diag_error_plain("compile: --map %s and --pes %dx%d: %s", map_s, *rows, *cols,
                     two ? "an RxC region tiles two loop dimensions (--map I,J)" : "a 1-D region tiles one");
    return -1;
  }
  if (two && *dim2 < 0) *dim2 = 1;
  *axis = two ? MAP_AXIS_2D : *rows > 1 ? MAP_AXIS_ROWS : MAP_AXIS_COLS;
  return 0;
}

/* Returns the outcome of the request o (compile.h). */
int compile_run(const compile_opts *o) {
  const char *path = o->path, *arch_path = o->arch, *map_s = o->map, *out = o->out;
  int axis = o->axis;
  arch_config arch;
  if (arch_path ? arch_config_load(arch_path, &arch) : arch_config_load_default(&arch)) return COMPILE_INPUT;
  ast_program *p = parse_file(path);
  if (!p) return COMPILE_INPUT;
  int status = COMPILE_INPUT;
  rdg *g = NULL;
  map_config m;
  memset(&m, 0, sizeof m);
  if (check_program(p) != 0) goto done;
  int dim = 0, dim2 = -1;
  if (map_s && compile_dims(p, map_s, axis, &dim, &dim2)) goto done;
  if (o->pes_rows && compile_region(p, map_s, o->pes_rows, o->pes_cols, &axis, &dim2)) goto done;
  g = rdg_build(p);
  if (!g) {
    diag_error_plain("%s: cannot build the dependence graph", path);
    goto done;
  }
  char msg[1024];
  /* the mapping search of tcpa run (map_search.c): the same attempts, the
   * best kept; instantiated when --pes and --param say how */
  int one_pe = o->pes_rows && *o->pes_rows == 1 && *o->pes_cols == 1;
  map_search_opts so = {.mapped = dim, .axis = dim2 >= 0 ? MAP_AXIS_2D : axis, .mapped2 = dim2, .o = o->mopts,
                        .one_pe = one_pe, .check = o->check, .ctx = o->check_ctx,
                        .log = o->verbose ? stderr : NULL};
  if (o->bounds) { /* the least any mapping needs, before the search's outcome */
    map_bounds b;
    map_bounds_compute(p, g, &arch, dim, dim2, one_pe, &b);
    map_bounds_print(&b, stdout);
    fflush(stdout);
  }
  map_search_result res;
  int st = map_search_run(p, g, &arch, &so, &m, &res, msg, sizeof msg);
  if (st == MAP_ERR_NOFIT) {
    diag_error_plain("%s: does not fit: %s", path, msg);
    status = COMPILE_NOFIT;
  } else if (st != MAP_OK) {
    diag_error_plain("%s: %s", path, msg);
  } else {
    compile_report(path, &m);
    status = compile_write(&m, out);
  }
done:
  map_config_free(&m);
  rdg_free(g);
  ast_program_free(p);
  return status;
}
