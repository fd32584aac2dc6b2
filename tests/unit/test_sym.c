/* covers: docs/symbolic.md "The .sym format" */
/*
 * test_sym.c: the .sym round trip: every benchmark that compiles with the
 * default architecture is written, read back and written again, and the
 * two texts must be identical; damaged files are refused with a line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "map.h"
#include "parse.h"
#include "rdg.h"
#include "sym.h"
#include "test.h"

/* Returns the text sym_write gives for m (malloc'd). */
static char *text_of(const map_config *m) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  sym_write(m, f);
  fclose(f);
  return buf;
}

/* Returns the result of sym_read on text (0/-1); msg gets the reason. */
static int read_text(const char *text, map_config *m, char *msg, size_t sz) {
  FILE *f = fmemopen((void *)text, strlen(text), "r");
  int r = sym_read(f, m, msg, sz);
  fclose(f);
  return r;
}

/* Round-trips program `path`; returns 1 when the texts agree. */
static void round_trip_any(const char *path, int two) {
  ast_program *p = parse_file(path);
  TEST_CHECK(p != NULL, "%s parses", path);
  if (!p) return;
  rdg *g = rdg_build(p);
  arch_config a = arch_config_default();
  a.rd = a.fd = a.id = 32;
  a.od = two ? 16 : 8;
  a.banks = a.ports = 16;
  a.div = 1;
  map_config m;
  char msg[512];
  int st = two ? map_build_2d(p, g, &a, 0, 1, &m, msg, sizeof msg) : map_build(p, g, &a, 0, 0, &m, msg, sizeof msg);
  TEST_CHECK(st == MAP_OK, "%s maps (%s)", path, msg);
  if (st == MAP_OK) {
    char *t1 = text_of(&m);
    map_config r;
    int rr = read_text(t1, &r, msg, sizeof msg);
    TEST_CHECK(rr == 0, "%s reads back (%s)", path, msg);
    if (!rr) {
      char *t2 = text_of(&r);
      TEST_CHECK(!strcmp(t1, t2), "%s: write, read, write gives the same text", path);
      TEST_CHECK(r.ii == m.ii && r.nops == m.nops && r.nleaves == m.nleaves, "%s: counts survive", path);
      TEST_CHECK(r.p_min[0] == m.p_min[0] && r.wide == m.wide && r.p_wide[0] == m.p_wide[0] && r.lk_cw[0] == m.lk_cw[0] &&
                     (!two || (r.p_wide[1] == m.p_wide[1] && r.lk_cw[1] == m.lk_cw[1])),
                 "%s: p_min %d and the wide lambda-k (%d: p >= %d, c %lld) survive", path, r.p_min[0], r.wide,
                 r.p_wide[0], (long long)r.lk_cw[0]);
      if (two && m.wide) { /* lambda-k-wide without lambda-k2-wide is refused */
        char *nw = malloc(strlen(t1) + 1);
        strcpy(nw, t1);
        char *w2 = strstr(nw, "\nlambda-k2-wide ");
        if (w2) memmove(w2 + 1, strchr(w2 + 1, '\n') + 1, strlen(strchr(w2 + 1, '\n') + 1) + 1);
        map_config y;
        TEST_CHECK(w2 && read_text(nw, &y, msg, sizeof msg) < 0 && strstr(msg, "lambda-k2-wide"),
                   "%s 2-D: lambda-k-wide without lambda-k2-wide refused (%s)", path, msg);
        free(nw);
      }
      TEST_CHECK(!strncmp(t1, two ? "tcpa-sym 2\n" : "tcpa-sym 1\n", 11), "%s: version %d", path, two ? 2 : 1);
      if (two) {
        int diag = 0, pairs = 1;
        for (int i = 0; i < r.nroutes; i++) diag |= r.routes[i].hops == 2 && r.routes[i].out_side[1];
        for (int i = 0; i < r.nedges; i++)
          pairs &= r.edges[i].theta[0] == m.edges[i].theta[0] && r.edges[i].theta[1] == m.edges[i].theta[1];
        TEST_CHECK(r.axis == 2 && r.mapped[1] == m.mapped[1] && r.p_min[1] == m.p_min[1] && r.lk_p[1] == m.lk_p[1] &&
                       r.lk_c[1] == m.lk_c[1] && pairs,
                   "%s 2-D: mapped2, p_min2, lambda-k2 and theta pairs survive", path);
        if (strstr(path, "fir")) TEST_CHECK(diag, "%s 2-D: a two-hop route survives", path);
        /* a 2-D file claiming version 1 is refused */
        char *v1 = malloc(strlen(t1) + 1);
        strcpy(v1, t1);
        v1[9] = '1';
        map_config y;
        TEST_CHECK(read_text(v1, &y, msg, sizeof msg) < 0, "%s 2-D: version 1 header refused (%s)", path, msg);
        free(v1);
      } else {
        TEST_CHECK(r.axis != 2 && r.mapped[1] == -1, "%s: a version 1 file reads as 1-D", path);
      }
      /* damage: drop the last line, change the version, truncate a record */
      size_t n = strlen(t1);
      char *bad = malloc(n + 1);
      memcpy(bad, t1, n + 1);
      bad[n - 4] = 0; /* "end\n" gone */
      map_config x;
      TEST_CHECK(read_text(bad, &x, msg, sizeof msg) < 0 && strstr(msg, "without 'end'"),
                 "%s: missing end refused (%s)", path, msg);
      memcpy(bad, t1, n + 1);
      bad[9] = '9';
      TEST_CHECK(read_text(bad, &x, msg, sizeof msg) < 0 && strstr(msg, "line 1"), "%s: wrong version refused", path);
      memcpy(bad, t1, n + 1);
      char *op = strstr(bad, "\nop 0 ");
      if (op) memcpy(op + 1, "op 7 ", 5);
      TEST_CHECK(op && read_text(bad, &x, msg, sizeof msg) < 0 && strstr(msg, "malformed"),
                 "%s: wrong op number refused (%s)", path, msg);
      free(bad);
      free(t2);
      map_config_free(&r);
    }
    free(t1);
  }
  map_config_free(&m);
  rdg_free(g);
  ast_program_free(p);
}

/* Round trip of the 1-D mapping of path. */
static void round_trip(const char *path) { round_trip_any(path, 0); }

int main(void) {
  const char *progs[] = {"bitextract", "matmul", "fir", "trimv", "dotprod", "gcd", "editdist", "maxpool"};
  for (size_t i = 0; i < sizeof progs / sizeof *progs; i++) {
    char path[128];
    snprintf(path, sizeof path, "regress/programs/%s.pla", progs[i]);
    round_trip(path);
    if (strcmp(progs[i], "bitextract") && strcmp(progs[i], "dotprod")) round_trip_any(path, 1);
  }
  return test_done();
}
