/*
 * host_gen.c: `tcpa host` (docs/runtime.md "Host programs"), host code
 * generation as DaCe does it for its programs: the loop program is
 * compiled into a .sym by compile_run (the mapping `tcpa compile --pes
 * --param` and `tcpa run` choose for that region and those values), read
 * back (sym_read: the program's name, parameters and arrays), and two
 * files are written beside it:
 *
 *   NAME_host.c  a C11 host program that embeds the .sym's text and the
 *                parameter values given, and runs it through the host
 *                runtime (tcpa_rt.h): open, load, allocate the region,
 *                set the parameters (each overridable on its command
 *                line), instantiate, write each input from its data file,
 *                start, wait, write each output's data file;
 *   Makefile     builds it against the installed runtime (pkg-config
 *                tcpa_rt, `make install PREFIX=...`).
 *
 * Each file is written to a temporary file and renamed (datafile_tmp), so
 * a failure leaves none of them half-written; on failure the .sym is
 * removed too.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "host_gen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "datafile.h"
#include "diag.h"
#include "fileio.h"
#include "inst.h"
#include "sym.h"

/* Returns a malloc'ed copy of path's base name without its extension,
 * every character that is not a C identifier's replaced by '_' (a leading
 * digit prefixed by 'k'); NULL when out of memory. */
static char *host_gen_stem(const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  size_t n = strcspn(b, ".");
  if (n == 0) b = "kernel", n = 6;
  char *s = malloc(n + 2);
  if (!s) return NULL;
  size_t j = 0;
  if (isdigit((unsigned char)b[0])) s[j++] = 'k';
  for (size_t i = 0; i < n; i++) s[j++] = isalnum((unsigned char)b[i]) ? b[i] : '_';
  s[j] = 0;
  return s;
}

/* Returns a malloc'ed "dir/stem suffix" path; NULL when out of memory. */
static char *host_gen_path(const char *dir, const char *stem, const char *suffix) {
  size_t n = strlen(dir) + strlen(stem) + strlen(suffix) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s%s", dir, stem, suffix);
  return p;
}

/* Writes s to f as the body of a C string literal (escaped). */
static void host_gen_cstr(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '\\' || *s == '"') fprintf(f, "\\%c", *s);
    else if (*s == '\t') fputs("\\t", f);
    else if (isprint((unsigned char)*s)) fputc(*s, f);
    else fprintf(f, "\\%03o", (unsigned char)*s);
  }
}

/* Writes text to f as a C string literal, one source line per line of
 * the text. */
static void host_gen_text(FILE *f, const char *text) {
  const char *line = text;
  while (*line) {
    const char *nl = strchr(line, '\n');
    size_t n = nl ? (size_t)(nl - line) : strlen(line);
    char *l = strndup(line, n);
    fputs("  \"", f);
    if (l) host_gen_cstr(f, l);
    fputs(nl ? "\\n\"\n" : "\"\n", f);
    free(l);
    line += n + (nl != NULL);
  }
}

/* Returns the value given for parameter name in o, 0 when none is. */
static int64_t host_gen_param(const host_gen_opts *o, const char *name) {
  for (int i = 0; i < o->nparam; i++)
    if (!strcmp(o->pname[i], name)) return o->pval[i];
  return 0;
}

/* Writes the host program's tables: the .sym text, the architecture, the
 * region, the parameters and the arrays of m. */
static void host_gen_tables(FILE *f, const host_gen_opts *o, const map_config *m, const char *sym_text,
                            const char *arch_abs) {
  fputs("/* the symbolic configuration (tcpa compile's .sym) */\nstatic const char sym_text[] =\n", f);
  host_gen_text(f, sym_text);
  fputs(";\n\n/* the architecture it was compiled for (NULL: the runtime's embedded default) */\n"
        "static const char *arch_default = ",
        f);
  if (arch_abs) {
    fputc('"', f);
    host_gen_cstr(f, arch_abs);
    fputs("\";\n", f);
  } else {
    fputs("NULL;\n", f);
  }
  fprintf(f, "\n/* the region: rows, columns, first row, first column */\nstatic int region[4] = {%d, %d, %d, %d};\n",
          o->rows, o->cols, o->row0, o->col0);
  fputs("\n/* the parameters and the values given to tcpa host (0: none, --param required) */\n", f);
  fprintf(f, "#define NPARAMS %d\nstatic const char *param_name[NPARAMS + 1] = {", m->nparams);
  for (int i = 0; i < m->nparams; i++) {
    fputc('"', f);
    host_gen_cstr(f, m->param_name[i]);
    fputs("\", ", f);
  }
  fprintf(f, "NULL};\nstatic long long param_value[NPARAMS + 1] = {");
  for (int i = 0; i < m->nparams; i++) fprintf(f, "%lld, ", (long long)host_gen_param(o, m->param_name[i]));
  fprintf(f, "0};\n\n/* the arrays, inputs and outputs (tcpa_rt_array_info says which) */\n"
             "#define NARRAYS %d\nstatic const char *array_name[NARRAYS + 1] = {",
          m->narrays);
  for (int i = 0; i < m->narrays; i++) {
    fputc('"', f);
    host_gen_cstr(f, m->array_name[i]);
    fputs("\", ", f);
  }
  fputs("NULL};\n\n", f);
}

/* The host program's code after its tables (the same for every program). */
static const char host_gen_main[] =
    "static tcpa_rt_array *array;\n"
    "\n"
    "/* Returns when s is TCPA_RT_OK; otherwise prints what failed with the\n"
    " * runtime's status and message, closes the array and exits 2. */\n"
    "static void try(tcpa_rt_status s, const char *what) {\n"
    "  if (s == TCPA_RT_OK) return;\n"
    "  fprintf(stderr, \"error: %s: %s: %s\\n\", what, tcpa_rt_status_name(s), array ? tcpa_rt_message(array) : \"\");\n"
    "  tcpa_rt_close(array);\n"
    "  exit(2);\n"
    "}\n"
    "\n"
    "/* Prints the usage to f. */\n"
    "static void usage(FILE *f) {\n"
    "  fprintf(f, \"usage: %s [--arch FILE] [--pes RxC[@R,C]] [--param NAME=VALUE]...\\n\"\n"
    "             \"       [--in ARRAY=FILE]... [--out-dir DIR]\\n\\n\"\n"
    "             \"Runs the embedded kernel through the TCPA host runtime: every input\\n\"\n"
    "             \"array from its data file (--in), every output written to DIR/ARRAY.txt\\n\"\n"
    "             \"(default: the current directory). Exit 0 done, 2 an error.\\n\", PROGRAM);\n"
    "}\n"
    "\n"
    "/* Returns the index of name in list (NULL-terminated), -1 when absent. */\n"
    "static int find(const char **list, const char *name, size_t len) {\n"
    "  for (int i = 0; list[i]; i++)\n"
    "    if (strlen(list[i]) == len && !strncmp(list[i], name, len)) return i;\n"
    "  return -1;\n"
    "}\n"
    "\n"
    "/* Returns the value of option argv[*i] (its next argument, consumed);\n"
    " * exits 2 when it has none. */\n"
    "static const char *value(int argc, char **argv, int *i) {\n"
    "  if (*i + 1 >= argc) {\n"
    "    fprintf(stderr, \"error: %s needs a value\\n\", argv[*i]);\n"
    "    exit(2);\n"
    "  }\n"
    "  return argv[++*i];\n"
    "}\n"
    "\n"
    "/* Returns the index of NAME of NAME=REST in list, *rest after the '=';\n"
    " * exits 2 for an unknown name or no '='. */\n"
    "static int pair(const char *opt, const char *arg, const char **list, const char **rest) {\n"
    "  const char *eq = strchr(arg, '=');\n"
    "  int i = eq ? find(list, arg, (size_t)(eq - arg)) : -1;\n"
    "  if (i < 0) {\n"
    "    fprintf(stderr, \"error: %s %s: %s\\n\", opt, arg, eq ? \"no such name in the program\" : \"not NAME=VALUE\");\n"
    "    exit(2);\n"
    "  }\n"
    "  *rest = eq + 1;\n"
    "  return i;\n"
    "}\n"
    "\n"
    "int main(int argc, char **argv) {\n"
    "  const char *arch = arch_default, *out_dir = \".\", *in_file[NARRAYS + 1] = {0}, *rest;\n"
    "  for (int i = 1; i < argc; i++) {\n"
    "    if (!strcmp(argv[i], \"--help\") || !strcmp(argv[i], \"-h\")) {\n"
    "      usage(stdout);\n"
    "      return 0;\n"
    "    } else if (!strcmp(argv[i], \"--arch\")) {\n"
    "      arch = value(argc, argv, &i);\n"
    "    } else if (!strcmp(argv[i], \"--out-dir\")) {\n"
    "      out_dir = value(argc, argv, &i);\n"
    "    } else if (!strcmp(argv[i], \"--pes\")) {\n"
    "      const char *v = value(argc, argv, &i);\n"
    "      region[2] = region[3] = 0;\n"
    "      if (sscanf(v, \"%dx%d@%d,%d\", &region[0], &region[1], &region[2], &region[3]) < 2) {\n"
    "        fprintf(stderr, \"error: --pes %s: not RxC[@R,C]\\n\", v);\n"
    "        return 2;\n"
    "      }\n"
    "    } else if (!strcmp(argv[i], \"--param\")) {\n"
    "      int p = pair(\"--param\", value(argc, argv, &i), param_name, &rest);\n"
    "      char *end;\n"
    "      param_value[p] = strtoll(rest, &end, 0);\n"
    "      if (*end || !*rest) {\n"
    "        fprintf(stderr, \"error: --param %s: '%s' is not an integer\\n\", param_name[p], rest);\n"
    "        return 2;\n"
    "      }\n"
    "    } else if (!strcmp(argv[i], \"--in\")) {\n"
    "      int a = pair(\"--in\", value(argc, argv, &i), array_name, &rest);\n"
    "      in_file[a] = rest;\n"
    "    } else {\n"
    "      fprintf(stderr, \"error: unknown argument '%s'\\n\", argv[i]);\n"
    "      usage(stderr);\n"
    "      return 2;\n"
    "    }\n"
    "  }\n"
    "  tcpa_rt_kernel *k;\n"
    "  tcpa_rt_region *r;\n"
    "  try(tcpa_rt_open(arch, TCPA_RT_ENGINE_MODEL, &array), arch ? arch : \"the default architecture\");\n"
    "  try(tcpa_rt_kernel_load_text(array, PROGRAM \".sym (embedded)\", sym_text, &k), \"load\");\n"
    "  try(tcpa_rt_region_alloc(array, region[0], region[1], region[2], region[3], &r), \"region\");\n"
    "  for (int p = 0; p < NPARAMS; p++) {\n"
    "    if (!param_value[p]) {\n"
    "      fprintf(stderr, \"error: parameter %s has no value: give --param %s=VALUE\\n\", param_name[p], param_name[p]);\n"
    "      tcpa_rt_close(array);\n"
    "      return 2;\n"
    "    }\n"
    "    try(tcpa_rt_param_set(k, param_name[p], param_value[p]), param_name[p]);\n"
    "  }\n"
    "  try(tcpa_rt_instantiate(k, r), \"instantiate\");\n"
    "  for (int a = 0; a < NARRAYS; a++) {\n"
    "    tcpa_rt_array_shape s;\n"
    "    try(tcpa_rt_array_info(k, array_name[a], &s), array_name[a]);\n"
    "    if (s.is_output) continue;\n"
    "    if (!in_file[a]) {\n"
    "      fprintf(stderr, \"error: input %s has no data file: give --in %s=FILE\\n\", array_name[a], array_name[a]);\n"
    "      tcpa_rt_close(array);\n"
    "      return 2;\n"
    "    }\n"
    "    try(tcpa_rt_write_file(k, array_name[a], in_file[a]), in_file[a]);\n"
    "  }\n"
    "  if (mkdir(out_dir, 0777) && errno != EEXIST) {\n"
    "    fprintf(stderr, \"error: --out-dir %s: cannot make it\\n\", out_dir);\n"
    "    tcpa_rt_close(array);\n"
    "    return 2;\n"
    "  }\n"
    "  unsigned long long cycles;\n"
    "  try(tcpa_rt_start(k), \"start\");\n"
    "  try(tcpa_rt_wait(k, 0, &cycles), \"wait\");\n"
    "  for (int a = 0; a < NARRAYS; a++) {\n"
    "    tcpa_rt_array_shape s;\n"
    "    try(tcpa_rt_array_info(k, array_name[a], &s), array_name[a]);\n"
    "    if (!s.is_output) continue;\n"
    "    char path[4096];\n"
    "    snprintf(path, sizeof path, \"%s/%s.txt\", out_dir, array_name[a]);\n"
    "    try(tcpa_rt_read_file(k, array_name[a], path), path);\n"
    "    printf(\"%s: output %s written to %s\\n\", PROGRAM, array_name[a], path);\n"
    "  }\n"
    "  printf(\"%s: done in %llu cycles on %dx%d@%d,%d\\n\", PROGRAM, cycles, region[0], region[1], region[2], region[3]);\n"
    "  tcpa_rt_close(array);\n"
    "  return 0;\n"
    "}\n";

/* Returns 0 after writing the host program of m to path, -1 after a
 * message. */
static int host_gen_write_c(const char *path, const host_gen_opts *o, const map_config *m, const char *stem,
                            const char *sym_text, const char *arch_abs) {
  datafile_tmp t;
  if (datafile_tmp_open(&t, path)) return -1;
  FILE *f = t.f;
  fprintf(f,
          "/*\n"
          " * %s_host.c: a host program for the loop program %s\n"
          " * (%s), written by `tcpa host` (docs/runtime.md\n"
          " * \"Host programs\"). It embeds the\n"
          " * symbolic configuration `tcpa compile` made for a %dx%d region and runs\n"
          " * it through the TCPA host runtime (tcpa_rt.h, C model engine).\n"
          " *\n"
          " *   %s_host [--arch FILE] [--pes RxC[@R,C]] [--param NAME=VALUE]...\n"
          " *           [--in ARRAY=FILE]... [--out-dir DIR]\n"
          " *\n"
          " * Every input array is read from its data file, every output written\n"
          " * to DIR/ARRAY.txt (docs/user-guide.md \"Data files\"). Exit 0 done, 2\n"
          " * an error (the runtime's status and message on stderr).\n"
          " */\n"
          "#define _POSIX_C_SOURCE 200809L /* mkdir */\n#include <errno.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
          "#include <string.h>\n#include <sys/stat.h>\n\n#include \"tcpa_rt.h\"\n\n"
          "#define PROGRAM \"%s_host\"\n\n",
          stem, m->name, o->path, o->rows, o->cols, stem, stem);
  host_gen_tables(f, o, m, sym_text, arch_abs);
  fputs(host_gen_main, f);
  return datafile_tmp_commit(&t);
}

/* Returns 0 after writing the Makefile of stem's host program to path,
 * -1 after a message. */
static int host_gen_write_make(const char *path, const char *stem) {
  datafile_tmp t;
  if (datafile_tmp_open(&t, path)) return -1;
  fprintf(t.f,
          "# Makefile of %s_host, written by `tcpa host` (docs/runtime.md \"Host\n"
          "# programs\"): builds it against the installed TCPA host runtime, found\n"
          "# by pkg-config (`make install PREFIX=DIR` in the tcpa tree, then\n"
          "# PKG_CONFIG_PATH=DIR/lib/pkgconfig).\n"
          "PKG_CONFIG ?= pkg-config\n"
          "CFLAGS ?= -O2 -g\n"
          "TCPA_RT_CFLAGS = $(shell $(PKG_CONFIG) --cflags tcpa_rt)\n"
          "TCPA_RT_LIBS = $(shell $(PKG_CONFIG) --libs tcpa_rt)\n\n"
          "%s_host: %s_host.c\n"
          "\t$(CC) -std=c11 -Wall -Wextra $(CFLAGS) $(TCPA_RT_CFLAGS) $< -o $@ $(TCPA_RT_LIBS)\n\n"
          ".PHONY: clean\nclean:\n\trm -f %s_host\n",
          stem, stem, stem, stem);
  return datafile_tmp_commit(&t);
}

/* Returns HOST_GEN_OK after compiling o's program into sym_path (the
 * mapping search instantiating each attempt on o's region and values, as
 * `tcpa compile --pes --param` does); the compiler's status after its
 * message. */
static int host_gen_compile(const host_gen_opts *o, const char *sym_path) {
  int rows = o->rows, cols = o->cols;
  inst_check_ctx ctx = {NULL, o->nparam, (char **)o->pname, o->pval, rows, cols};
  compile_opts c;
  memset(&c, 0, sizeof c);
  c.path = o->path, c.arch = o->arch, c.map = o->map, c.out = sym_path, c.axis = o->axis;
  c.pes_rows = &ctx.rows, c.pes_cols = &ctx.cols;
  if (o->nparam) c.check = inst_check, c.check_ctx = &ctx;
  int st = compile_run(&c);
  return st == COMPILE_OK ? HOST_GEN_OK : st == COMPILE_NOFIT ? HOST_GEN_NOFIT : HOST_GEN_INPUT;
}

/* Returns HOST_GEN_OK after writing the host program and Makefile of the
 * .sym at sym_path into o->out_dir; HOST_GEN_INPUT after a message. */
static int host_gen_emit(const host_gen_opts *o, const char *stem, const char *sym_path) {
  int st = HOST_GEN_INPUT;
  char *text = NULL, *arch_abs = NULL, *c_path = host_gen_path(o->out_dir, stem, "_host.c");
  char *mk_path = host_gen_path(o->out_dir, "Makefile", "");
  map_config m;
  memset(&m, 0, sizeof m);
  int have_m = 0;
  FILE *f = fopen(sym_path, "r");
  char msg[512] = "cannot read it";
  if (f && !sym_read(f, &m, msg, sizeof msg)) have_m = 1;
  if (f) fclose(f);
  text = fileio_read_all(sym_path, NULL);
  if (!have_m || !text) {
    diag_error_plain("host: %s: %s", sym_path, msg);
    goto done;
  }
  if (o->arch && !(arch_abs = realpath(o->arch, NULL))) {
    diag_error_plain("host: %s: cannot resolve the architecture file's path", o->arch);
    goto done;
  }
  if (!c_path || !mk_path) {
    diag_error_plain("host: out of memory");
    goto done;
  }
  if (host_gen_write_c(c_path, o, &m, stem, text, arch_abs)) goto done;
  if (host_gen_write_make(mk_path, stem)) {
    remove(c_path);
    goto done;
  }
  st = HOST_GEN_OK;
done:
  if (have_m) map_config_free(&m);
  free(text), free(arch_abs), free(c_path), free(mk_path);
  return st;
}

int host_gen_run(const host_gen_opts *o) {
  char failed[4096];
  if (fileio_mkdir_p(o->out_dir, failed, sizeof failed)) {
    diag_error_plain("host: cannot make the directory '%s'", failed);
    return HOST_GEN_INPUT;
  }
  char *stem = host_gen_stem(o->path), *sym_path = stem ? host_gen_path(o->out_dir, stem, ".sym") : NULL;
  if (!sym_path) {
    free(stem);
    diag_error_plain("host: out of memory");
    return HOST_GEN_INPUT;
  }
  int st = host_gen_compile(o, sym_path);
  if (st == HOST_GEN_OK) {
    st = host_gen_emit(o, stem, sym_path);
    if (st != HOST_GEN_OK) remove(sym_path);
  }
  if (st == HOST_GEN_OK) printf("host: wrote %s/%s_host.c, %s/Makefile, %s\n", o->out_dir, stem, o->out_dir, sym_path);
  free(stem), free(sym_path);
  return st;
}
