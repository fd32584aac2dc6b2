/*
 * cli_lint.c: `tcpa lint --arch A.ini [--out-dir DIR]` (docs/user-guide.md
 * "Linting a configuration"): lints the RTL as configured by A.ini, any
 * configuration file, in or out of configs/.
 *
 * It reads A.ini (a bad one: its errors, exit 2), writes the RTL parameter
 * package of its effective values (arch_config_write_sv) to
 * DIR/tcpa_params_pkg.sv, brings the generated packages of the build up to
 * date (`make gen`, docs/rtl.md "Generated packages"), and runs
 * `verilator --lint-only -Wall --top-module tcpa_top` on the project's
 * one waiver file rtl/lint_waivers.vlt, that package, the generated ones
 * and rtl/tcpa_*.sv, with its output in DIR/lint.log (a heartbeat on
 * stderr every 30 s while it runs, step_run, common/step.c). It prints the
 * verdict with the counts, the first warnings, the log, and the waivers in
 * effect (each `lint_off` of the waiver file with its rule, file, match and
 * the reason written above it; also in DIR/waivers.txt). The source tree
 * (rtl/, the Makefile) is the one of the running tcpa (BUILD/bin/tcpa), so
 * it runs from any directory. $VERILATOR names another verilator.
 * Exit 0 clean, 1 warnings or errors, 2 a bad configuration or option.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "fileio.h"
#include "regress.h"
#include "regress_suite.h"
#include "step.h"

#define LINT_PATH 4096
#define LINT_MAX_SOURCES 256
#define LINT_SHOW_WARNINGS 10

/* Prints the usage of `tcpa lint` to f. */
static void lint_usage(FILE *f) {
  fputs("usage: tcpa lint --arch A.ini [--out-dir DIR]\n\n"
        "Lints the RTL as configured by A.ini (any configuration file): writes its\n"
        "parameter package and runs verilator --lint-only -Wall on the RTL with the\n"
        "project's waiver file (rtl/lint_waivers.vlt). Prints the verdict, the first\n"
        "warnings, the lint log and the waivers in effect.\n\n"
        "  --arch A.ini   the configuration (required)\n"
        "  --out-dir DIR  default build/lint/<name of A.ini>: tcpa_params_pkg.sv,\n"
        "                 lint.log, waivers.txt\n"
        "  -h, --help     print this help\n\n"
        "environment: VERILATOR (default verilator)\n"
        "exit status: 0 clean, 1 warnings or errors, 2 a bad configuration or option\n",
        f);
}

/* Returns 0 after writing the parameter package of cfg to path (through
 * path.tmp, renamed); -1 after printing why. */
static int lint_params_write(const arch_config *cfg, const char *path) {
  char tmp[2 * LINT_PATH];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    diag_error_plain("lint: %s: %s", tmp, strerror(errno));
    return -1;
  }
  arch_config_write_sv(cfg, f);
  if (fclose(f) || rename(tmp, path)) {
    diag_error_plain("lint: %s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

/* Returns the number of entries of v, the RTL sources ROOT/rtl/tcpa_*.sv
 * (malloc'ed), tcpa_pkg.sv first, the others sorted. */
static int lint_sources(const char *root, char **v) {
  char dir[LINT_PATH + 8];
  snprintf(dir, sizeof dir, "%s/rtl", root);
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  while (d && (e = readdir(d)) && n < LINT_MAX_SOURCES) {
    size_t l = strlen(e->d_name);
    if (strncmp(e->d_name, "tcpa_", 5) || l < 4 || strcmp(e->d_name + l - 3, ".sv")) continue;
    char p[2 * LINT_PATH];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    v[n++] = regress_strdup(p);
  }
  if (d) closedir(d);
  for (int i = 1; i < n; i++) /* insertion sort; tcpa_pkg.sv first */
    for (int j = i; j > 0; j--) {
      int pj = strstr(v[j], "/tcpa_pkg.sv") != NULL, pk = strstr(v[j - 1], "/tcpa_pkg.sv") != NULL;
      if (!(pj || (!pk && strcmp(v[j - 1], v[j]) > 0))) break;
      char *t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  return n;
}

/* Returns a malloc'ed copy of the quoted value of option opt ("-file") in
 * line, or of "*" when it is absent. */
static char *lint_waiver_field(const char *line, const char *opt) {
  const char *p = strstr(line, opt);
  if (!p) return regress_strdup("*");
  p += strlen(opt);
  while (*p == ' ') p++;
  const char *q0 = *p == '"' ? p + 1 : p, *q1 = q0;
  while (*q1 && *q1 != (*p == '"' ? '"' : ' ')) q1++;
  char *s = malloc((size_t)(q1 - q0) + 1);
  if (!s) return regress_strdup("?");
  memcpy(s, q0, (size_t)(q1 - q0));
  s[q1 - q0] = '\0';
  return s;
}

/* Returns the number of waivers (lint_off lines) of the waiver file vlt,
 * after printing each to f: rule, file, match and the reason (the comment
 * lines above it); -1 when it cannot be read. */
static int lint_waivers_print(const char *vlt, FILE *f) {
  size_t len;
  char *t = fileio_read_all(vlt, &len);
  if (!t) return -1;
  char reason[1024] = "";
  int n = 0, in_comment = 0;
  for (char *line = t; line && *line;) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = '\0';
    while (*line == ' ') line++;
    if (!strncmp(line, "//", 2)) {
      const char *c = line + 2 + (line[2] == ' ');
      if (!in_comment) reason[0] = '\0';
      snprintf(reason + strlen(reason), sizeof reason - strlen(reason), "%s%s", reason[0] ? " " : "", c);
      in_comment = 1;
    } else if (!strncmp(line, "lint_off", 8)) {
      char *rule = lint_waiver_field(line, "-rule"), *file = lint_waiver_field(line, "-file"),
           *match = lint_waiver_field(line, "-match");
      fprintf(f, "  %-16s file %-22s match %-14s %s\n", rule, file, match, reason);
      free(rule);
      free(file);
      free(match);
      n++;
      in_comment = 0;
    } else {
      in_comment = 0;
      if (*line) reason[0] = '\0';
    }
    line = nl ? nl + 1 : NULL;
  }
  free(t);
  return n;
}

/* Returns the number of lines of the file at path that start with prefix,
 * after printing the first `show` of them (with "  " before) to f. */
static int lint_log_scan(const char *path, const char *prefix, int show, FILE *f) {
  size_t len;
  char *t = fileio_read_all(path, &len);
  int n = 0;
  for (char *line = t; line && *line;) {
    char *nl = strchr(line, '\n');
    if (!strncmp(line, prefix, strlen(prefix))) {
      if (n < show) fprintf(f, "  %.*s\n", (int)(nl ? nl - line : (long)strlen(line)), line);
      n++;
    }
    line = nl ? nl + 1 : NULL;
  }
  free(t);
  return n;
}

/* Returns 0 after reading the options; -1 after an error. */
static int lint_opts_parse(int argc, char **argv, const char **arch, const char **dir, int *help) {
  enum { OPT_ARCH = CLI_OPT_LONG, OPT_OUT };
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                           {"arch", required_argument, NULL, OPT_ARCH},
                                           {"out-dir", required_argument, NULL, OPT_OUT},
                                           {NULL, 0, NULL, 0}};
  cli_opt p;
  cli_opt_init(&p, "lint", argc, argv, "h", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    switch (c) {
    case 'h': *help = 1; return 0;
    case OPT_ARCH: *arch = p.arg; break;
    case OPT_OUT: *dir = p.arg; break;
    case CLI_OPT_ARG:
      diag_error_plain("lint: unexpected argument '%s' (see 'tcpa lint --help')", p.arg);
      return -1;
    default: return -1;
    }
  }
  if (!*arch) {
    diag_error_plain("lint: --arch A.ini is required (see 'tcpa lint --help')");
    return -1;
  }
  return 0;
}

/* Returns the exit status of `make -s -C root BUILD=build gen` (the
 * generated packages), its output appended to log. */
static int lint_gen(const char *root, const char *build, const char *log) {
  char bvar[LINT_PATH + 8];
  snprintf(bvar, sizeof bvar, "BUILD=%s", build);
  char *argv[] = {"env", "-u", "MAKEFLAGS", "-u", "MFLAGS", "-u", "MAKELEVEL", "make", "-s", "-C", (char *)root,
                  bvar, "gen", NULL};
  step_opts s = {"make gen", log, NULL, NULL, 0, stderr};
  return step_run(argv, &s, NULL);
}

int cli_lint(int argc, char **argv) {
  const char *arch = NULL, *dir = NULL;
  int help = 0;
  if (lint_opts_parse(argc, argv, &arch, &dir, &help)) return CLI_EXIT_INPUT;
  if (help) {
    lint_usage(stdout);
    return CLI_EXIT_OK;
  }
  arch_config cfg;
  if (arch_config_load(arch, &cfg) != 0) {
    diag_error_plain("lint: %s is not a valid configuration (docs/arch.md); nothing linted", arch);
    return CLI_EXIT_INPUT;
  }
  char root[LINT_PATH], build[LINT_PATH], dbuf[LINT_PATH];
  if (regress_suite_tree(root, build, sizeof root)) {
    diag_error_plain("lint: cannot find the source tree (rtl/) above the tcpa binary's build directory");
    return CLI_EXIT_INPUT;
  }
  if (!dir) {
    const char *b = strrchr(arch, '/') ? strrchr(arch, '/') + 1 : arch;
    size_t n = strlen(b);
    if (n > 4 && !strcmp(b + n - 4, ".ini")) n -= 4;
    snprintf(dbuf, sizeof dbuf, "build/lint/%.*s", (int)(n < 200 ? n : 200), b);
    dir = dbuf;
  }
  char pkg[LINT_PATH + 32], log[LINT_PATH + 32], wv[LINT_PATH + 32], vlt[LINT_PATH + 32], isa[LINT_PATH + 32],
      stream[LINT_PATH + 32];
  snprintf(pkg, sizeof pkg, "%s/tcpa_params_pkg.sv", dir);
  snprintf(log, sizeof log, "%s/lint.log", dir);
  snprintf(wv, sizeof wv, "%s/waivers.txt", dir);
  snprintf(vlt, sizeof vlt, "%s/rtl/lint_waivers.vlt", root);
  snprintf(isa, sizeof isa, "%s/gen/tcpa_isa_pkg.sv", build);
  snprintf(stream, sizeof stream, "%s/gen/tcpa_stream_pkg.sv", build);
  char failed[LINT_PATH];
  if (fileio_mkdir_p(dir, failed, sizeof failed)) {
    diag_error_plain("lint: cannot create %s: %s", failed, strerror(errno));
    return CLI_EXIT_INPUT;
  }
  remove(log);
  if (lint_params_write(&cfg, pkg)) return CLI_EXIT_INPUT;
  if (lint_gen(root, build, log) != 0) {
    diag_error_plain("lint: the generated packages could not be made (make gen; %s)", log);
    return CLI_EXIT_INPUT;
  }
  char *src[LINT_MAX_SOURCES];
  int nsrc = lint_sources(root, src);
  const char *verilator = getenv("VERILATOR") && *getenv("VERILATOR") ? getenv("VERILATOR") : "verilator";
  char inc[LINT_PATH + 8]; /* the RTL includes "rtl/x.svh" from the tree's root */
  snprintf(inc, sizeof inc, "-I%s", root);
  char *av[LINT_MAX_SOURCES + 16] = {(char *)verilator, "--lint-only", "-Wall", inc, "--top-module", "tcpa_top", vlt,
                                     pkg, isa, stream};
  int k = 10;
  for (int i = 0; i < nsrc; i++) av[k++] = src[i];
  av[k] = NULL;
  fprintf(stderr, "tcpa: lint: %s: verilator --lint-only -Wall on %d files; live log: %s\n", arch, nsrc + 3, log);
  double secs;
  step_opts step = {"lint", log, NULL, NULL, 0, stderr};
  int rc = step_run(av, &step, &secs);
  for (int i = 0; i < nsrc; i++) free(src[i]);
  if (rc == 127 || rc < 0) {
    diag_error_plain("lint: cannot run %s (exit %d; %s)", verilator, rc, log);
    return CLI_EXIT_INPUT;
  }
  char d[32];
  printf("tcpa lint: %s (%dx%d, fingerprint %016llx)\n", arch, cfg.rows, cfg.cols,
         (unsigned long long)arch_config_fingerprint(&cfg));
  int w = lint_log_scan(log, "%Warning", LINT_SHOW_WARNINGS, stdout);
  int e = lint_log_scan(log, "%Error", LINT_SHOW_WARNINGS, stdout);
  int clean = rc == 0 && w == 0 && e == 0;
  printf("%s: %d warning%s, %d error%s, verilator exit %d, %s\n", clean ? "clean" : "NOT CLEAN", w,
         w == 1 ? "" : "s", e, e == 1 ? "" : "s", rc, step_duration(secs, d, sizeof d));
  printf("lint log: %s\nparameter package: %s\n", log, pkg);
  FILE *f = fopen(wv, "w");
  int nw = f ? lint_waivers_print(vlt, f) : -1;
  if (f) fclose(f);
  printf("waivers in effect: %d, from %s (rule, file, match, reason; also %s):\n", nw, vlt, wv);
  lint_waivers_print(vlt, stdout);
  return clean ? CLI_EXIT_OK : CLI_EXIT_MISMATCH;
}
