/* covers: docs/tiling.md "The rule" */
/*
 * test_rt_tile.c: the rule of host-tiled execution
 * (runtime/rt_tile_rule.c): for the benchmark programs, the programs of
 * tests/tiling/ and small programs written here, each loop's verdict as
 * data (free, accumulation, or fixed with the reason's code and the
 * equation's line), how each output is gathered along a cut loop, and
 * that the sentence printed for a refusal names the loop, the line and
 * the variable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "parse.h"
#include "rt_tile.h"
#include "test.h"

/* One program: its file (@NAME: written here, into a temporary
 * folder), each loop's verdict ('F' free, 'A'
 * accumulation, or a reason: 'B' bounds, 'S' shared, 'C' carried, 'I'
 * index, 'K' condition, 'P' partial, 'O' output), the reason's line of
 * the first fixed loop (0: none) and a word its sentence must hold. */
typedef struct {
  const char *path;
  const char *kinds;
  int line;
  const char *word;
} tile_case;

static const tile_case cases[] = {
    {"regress/programs/matmul.pla", "FFA", 0, NULL},
    {"regress/programs/dotprod.pla", "A", 0, NULL},
    {"regress/programs/satarith.pla", "F", 0, NULL},
    {"regress/programs/gcd.pla", "FC", 19, "reads q at another iteration of s"},
    {"regress/programs/fir.pla", "CC", 18, "reads u at another iteration of i"},
    {"regress/programs/jacobi.pla", "CK", 17, "reads u"},
    {"regress/programs/editdist.pla", "BB", 0, "bounds"},
    {"regress/programs/conv.pla", "FCCAKK", 21, "reads w"},
    {"tests/tiling/stencil3.pla", "F", 0, NULL},
    {"tests/tiling/prefix.pla", "P", 12, "partial result"},
    {"@shared.pla", "SS", 0, "also bounds another loop"},
    {"@index.pla", "I", 8, "indexes x with i"},
    {"@last.pla", "O", 9, "writes y without i"},
};

/* Small programs written before the table runs: a parameter bounding two
 * loops, an index 2*i, an output written at the last iteration from a
 * plain variable. */
static const char *const sources[][2] = {
    {"@shared.pla",
     "program sq(N) {\n  in int32 x[N, N];\n  out int32 y[N, N];\n  par (0 <= i < N, 0 <= j < N) {\n"
     "    y[i, j] = x[i, j] + 1;\n  }\n}\n"},
    {"@index.pla",
     "program ev(N) {\n  in int32 x[2*N];\n  out int32 y[N];\n  par (0 <= i < N) {\n"
     "    a[i] = 0 if (i == 0);\n    a[i] = a[i-1] if (i >= 1);\n\n    y[i] = x[2*i] + a[i];\n  }\n}\n"},
    {"@last.pla",
     "program last(N) {\n  in int32 x[N];\n  out int32 y;\n  par (0 <= i < N) {\n"
     "    v[i] = x[i] * 3;\n\n\n\n    y = v[i] if (i == N-1);\n  }\n}\n"},
};

/* Returns the letter of loop verdict l. */
static char tile_letter(const rt_tile_loop *l) {
  if (l->kind == RT_TILE_FREE) return 'F';
  if (l->kind == RT_TILE_ACCUM) return 'A';
  static const char why[] = "-BSCIKPO";
  return why[l->why];
}

static char dir[64] = "/tmp/test_rt_tile.XXXXXX";

/* Returns the file of path: @NAME in the temporary folder, else path. */
static const char *tile_path(const char *path, char *buf, size_t size) {
  if (path[0] != '@') return path;
  snprintf(buf, size, "%s/%s", dir, path + 1);
  return buf;
}

int main(void) {
  char buf[128];
  if (!mkdtemp(dir)) return 1;
  for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) {
    FILE *f = fopen(tile_path(sources[i][0], buf, sizeof buf), "w");
    if (f) fputs(sources[i][1], f), fclose(f);
  }
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    const tile_case *tc = &cases[c];
    ast_program *p = parse_file(tile_path(tc->path, buf, sizeof buf));
    if (!TEST_CHECK(p && check_program(p) == 0, "%s parses and checks", tc->path)) continue;
    rt_tile_rule r;
    int n = rt_tile_rule_make(p, &r), want = 0;
    char got[AST_MAX_DIMS + 1] = "", text[512] = "";
    for (int d = 0; d < p->ndims; d++) {
      got[d] = tile_letter(&r.loop[d]);
      want += got[d] == 'F' || got[d] == 'A';
      if (!text[0] && r.loop[d].kind == RT_TILE_FIXED) {
        rt_tile_rule_text(p, &r, d, text, sizeof text);
        if (tc->line) TEST_CHECK(p->eqs[r.loop[d].eq].loc.line == tc->line, "%s: loop %s's reason at line %d",
                                 tc->path, p->index[d], tc->line);
      }
    }
    TEST_CHECK(!strcmp(got, tc->kinds) && n == want, "%s: loops %s (want %s), %d may be cut", tc->path, got,
               tc->kinds, n);
    if (tc->word) TEST_CHECK(strstr(text, tc->word) != NULL, "%s: the refusal says '%s' (%s)", tc->path, tc->word, text);
    ast_program_free(p);
  }
  /* how outputs gather along matmul's k and dotprod's i */
  ast_program *p = parse_file("regress/programs/matmul.pla");
  rt_tile_rule r;
  if (TEST_CHECK(p && check_program(p) == 0, "matmul parses")) {
    rt_tile_rule_make(p, &r);
    TEST_CHECK(r.out[2][2] == RT_TILE_OUT_REDUCE && r.op[2][2] == AST_OP_ADD && r.out[0][2] == RT_TILE_OUT_WINDOW,
               "matmul: C added along k, windowed along i");
    TEST_CHECK(r.dim_mask[0][0] == 1u && r.dim_mask[0][1] == 4u && r.dim_mask[1][1] == 2u,
               "matmul: A follows i then k, B's columns follow j");
  }
  ast_program_free(p);
  p = parse_file("regress/programs/dotprod.pla");
  if (TEST_CHECK(p && check_program(p) == 0, "dotprod parses")) {
    rt_tile_rule_make(p, &r);
    TEST_CHECK(r.out[0][3] == RT_TILE_OUT_CARRY && r.carry[0][3] == 2 && r.out[0][4] == RT_TILE_OUT_REDUCE &&
                   r.op[0][4] == AST_OP_MAX,
               "dotprod: dot carried from bias, maxdiff combined by max");
  }
  ast_program_free(p);
  for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) remove(tile_path(sources[i][0], buf, sizeof buf));
  remove(dir);
  return test_done();
}
