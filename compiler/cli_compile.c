/*
 * cli_compile.c: `tcpa compile PROG.pla [--arch A.ini] [--map I[,J]] -o P.sym`.
 * Parses and checks the program, builds its RDG, maps it symbolically
 * (map.h: tiling, modulo scheduling, registers, channels, PST, access
 * mappings) onto a 1-D region (--map I), or a 2-D one (--map I,J: I onto
 * the rows, J onto the columns), prints the bounds and the II reached, and
 * writes the symbolic configuration (sym.h) to a temporary file renamed to
 * P.sym. Exit 0, 2 invalid input, 3 does not fit (the resource named).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "check.h"
#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "map.h"
#include "parse.h"
#include "rdg.h"
#include "sym.h"

/* Prints the usage of `tcpa compile` to f. */
static void cli_compile_usage(FILE *f) {
  fputs("usage: tcpa compile PROG.pla [--arch A.ini] [--map I[,J]] [--rows] -o P.sym\n\n"
        "Maps a loop program symbolically (tile size p and region size t stay\n"
        "parameters) and writes the symbolic configuration.\n\n"
        "  --arch A.ini  architecture configuration (default: the embedded default)\n"
        "  --map I       the loop dimension tiled onto the PEs (index name or number; default 0)\n"
        "  --map I,J     a 2-D region: I tiled onto the rows, J onto the columns\n"
        "  --rows        map onto an Rx1 region (default 1xC)\n"
        "  -o P.sym      output file\n"
        "  -h, --help    print this help\n\n"
        "exit status: 0 written, 2 invalid input, 3 does not fit the architecture\n",
        f);
}

/* Prints the bounds, II and schedule of m to stdout. */
static void cli_compile_report(const char *path, const map_config *m) {
  if (m->axis == 2)
    printf("%s: mapped dimensions %s onto the rows (tile size p >= %d over t PE rows) and %s onto the "
           "columns (pc >= %d over tc PE columns) of an RxC region\n",
           path, m->dim_name[m->mapped], m->p_min, m->dim_name[m->mapped2], m->p_min2);
  else
    printf("%s: mapped dimension %s onto a %s region, tile size p (>= %d) over t PEs\n", path,
           m->dim_name[m->mapped], m->axis ? "Rx1" : "1xC", m->p_min);
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
  if (m->lk_p)
    printf("%d*p%s %c %" PRId64 "\n", m->ii, m->order[0] == m->mapped ? "" : "*S", m->lk_c < 0 ? '-' : '+',
           m->lk_c < 0 ? -m->lk_c : m->lk_c);
  else printf("%" PRId64 "\n", m->lk_c);
  if (m->axis == 2) {
    printf("          columns: lambda^K2 = ");
    if (m->lk_p2) printf("%d*pc*S %c %" PRId64 "\n", m->ii, m->lk_c2 < 0 ? '-' : '+', m->lk_c2 < 0 ? -m->lk_c2 : m->lk_c2);
    else printf("%" PRId64 "\n", m->lk_c2);
  }
  if (m->wide && m->axis == 2)
    printf("          tiles of at least %d x %d: constants %" PRId64 " (rows) and %" PRId64 " (columns)\n",
           m->p_wide, m->p_wide2, m->lk_cw, m->lk_cw2);
  else if (m->wide)
    printf("          tiles of at least %d: constant %" PRId64 "\n", m->p_wide, m->lk_cw);
  printf("registers: rd %d/%d, fd %d/%d, id %d/%d, od %d/%d; channels %d; accesses %d\n",
         m->used[MAP_REG_RD], m->arch.rd, m->used[MAP_REG_FD], m->arch.fd, m->used[MAP_REG_ID], m->arch.id,
         m->used[MAP_REG_OD], m->arch.od, m->nroutes, m->naccess);
  int ties = 0;
  for (int e = 0; e < m->nedges; e++) ties += m->edges[e].kind == MAP_EDGE_TIE && m->edges[e].pos >= 0;
  printf("operations: %d lowered equations -> %d ops per iteration\n", m->g ? rdg_count_ops(m->g) : -1, m->nops);
  printf("copies: %d writer (a value needed in two registers in one iteration), %d reader, %d input; "
         "%d forwarded operands\n", m->ncopies[2], m->ncopies[1], m->ncopies[0], ties);
}

/* Writes m to `out` through a temporary file; returns the exit status. */
static int cli_compile_write(const map_config *m, const char *out) {
  size_t n = strlen(out) + 16;
  char *tmp = malloc(n);
  if (!tmp) return CLI_EXIT_INPUT;
  snprintf(tmp, n, "%s.tmp", out);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    diag_error_plain("compile: cannot write '%s'", tmp);
    free(tmp);
    return CLI_EXIT_INPUT;
  }
  int bad = sym_write(m, f);
  bad |= fclose(f) != 0;
  if (bad || rename(tmp, out)) {
    remove(tmp);
    diag_error_plain("compile: cannot write '%s'", out);
    free(tmp);
    return CLI_EXIT_INPUT;
  }
  free(tmp);
  return CLI_EXIT_OK;
}

/* Returns the dimension named or numbered by s in p, or -1. */
static int cli_compile_dim(const ast_program *p, const char *s) {
  for (int k = 0; k < p->ndims; k++)
    if (!strcmp(p->index[k], s)) return k;
  char *end;
  long v = strtol(s, &end, 10);
  return *s && !*end && v >= 0 && v < p->ndims ? (int)v : -1;
}

/* The command line of `tcpa compile`. */
typedef struct {
  const char *path, *arch, *map, *out;
  int axis; /* --rows: 1 */
} cli_compile_opts;

/* Returns 0 after reading the command line into *o, 1 for --help, -1 after
 * printing what is wrong. */
static int cli_compile_parse(int argc, char **argv, cli_compile_opts *o) {
  enum { OPT_ARCH = CLI_OPT_LONG, OPT_MAP, OPT_ROWS };
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                           {"arch", required_argument, NULL, OPT_ARCH},
                                           {"map", required_argument, NULL, OPT_MAP},
                                           {"rows", no_argument, NULL, OPT_ROWS},
                                           {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  cli_opt p;
  cli_opt_init(&p, "compile", argc, argv, "ho:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    switch (c) {
    case 'h': return 1;
    case 'o': o->out = p.arg; break;
    case OPT_ARCH: o->arch = p.arg; break;
    case OPT_MAP: o->map = p.arg; break;
    case OPT_ROWS: o->axis = 1; break;
    case CLI_OPT_ARG:
      if (o->path) {
        diag_error_plain("compile: one program at a time: '%s' after '%s'", p.arg, o->path);
        return -1;
      }
      o->path = p.arg;
      break;
    default: return -1;
    }
  }
  if (!o->path || !o->out) {
    diag_error_plain("compile: %s", o->path ? "no output file given (-o P.sym)" : "no program given");
    cli_compile_usage(stderr);
    return -1;
  }
  return 0;
}

int cli_compile(int argc, char **argv) {
  cli_compile_opts o;
  int r = cli_compile_parse(argc, argv, &o);
  if (r) {
    if (r > 0) cli_compile_usage(stdout);
    return r > 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT;
  }
  const char *path = o.path, *arch_path = o.arch, *map_s = o.map, *out = o.out;
  int axis = o.axis;
  arch_config arch;
  if (arch_path ? arch_config_load(arch_path, &arch) : arch_config_load_default(&arch)) return CLI_EXIT_INPUT;
  ast_program *p = parse_file(path);
  if (!p) return CLI_EXIT_INPUT;
  int status = CLI_EXIT_INPUT;
  rdg *g = NULL;
  map_config m;
  memset(&m, 0, sizeof m);
  if (check_program(p) != 0) goto done;
  int dim = 0, dim2 = -1;
  if (map_s) {
    char first[128];
    const char *comma = strchr(map_s, ',');
    snprintf(first, sizeof first, "%.*s", comma ? (int)(comma - map_s) : (int)strlen(map_s), map_s);
    dim = cli_compile_dim(p, first);
    if (comma) dim2 = cli_compile_dim(p, comma + 1);
    if (dim < 0 || (comma && dim2 < 0)) {
      diag_error_plain("compile: --map %s: no such dimension in '%s'", map_s, p->name);
      goto done;
    }
    if (comma && dim2 == dim) {
      diag_error_plain("compile: --map %s: the rows and the columns need two different dimensions", map_s);
      goto done;
    }
    if (comma && axis) {
      diag_error_plain("compile: --map %s names two dimensions (an RxC region): --rows does not apply", map_s);
      goto done;
    }
  }
  g = rdg_build(p);
  if (!g) {
    diag_error_plain("%s: cannot build the dependence graph", path);
    goto done;
  }
  char msg[512];
  int st = dim2 >= 0 ? map_build_2d(p, g, &arch, dim, dim2, &m, msg, sizeof msg)
                      : map_build(p, g, &arch, dim, axis, &m, msg, sizeof msg);
  if (st == MAP_ERR_NOFIT) {
    diag_error_plain("%s: does not fit: %s", path, msg);
    status = CLI_EXIT_NOFIT;
  } else if (st != MAP_OK) {
    diag_error_plain("%s: %s", path, msg);
  } else {
    cli_compile_report(path, &m);
    status = cli_compile_write(&m, out);
  }
done:
  map_config_free(&m);
  rdg_free(g);
  ast_program_free(p);
  return status;
}
