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
static void round_trip(const char *path) {
  ast_program *p = parse_file(path);
  TEST_CHECK(p != NULL, "%s parses", path);
  if (!p) return;
  rdg *g = rdg_build(p);
  arch_config a = arch_config_default();
  a.rd = a.fd = a.id = 32;
  a.od = 8;
  a.banks = a.ports = 16;
  a.div = 1;
  map_config m;
  char msg[512];
  int st = map_build(p, g, &a, 0, 0, &m, msg, sizeof msg);
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

int main(void) {
  const char *progs[] = {"bitextract", "matmul", "fir", "trimv", "dotprod", "gcd", "editdist", "maxpool"};
  for (size_t i = 0; i < sizeof progs / sizeof *progs; i++) {
    char path[128];
    snprintf(path, sizeof path, "regress/programs/%s.pla", progs[i]);
    round_trip(path);
  }
  return test_done();
}
