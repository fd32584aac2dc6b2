/*
 * engine_repro.c: the reproduction bundle of a failing cosim run
 * (docs/user-guide.md, "Reproduction bundle"): everything needed to rerun
 * the same run with one command on another machine with tcpa installed,
 * in DIR/repro/:
 *
 *   repro.sh          `sh repro.sh [OUTDIR]`: the same `tcpa run` on the
 *                     files of the bundle (TCPA=... picks the binary)
 *   command.txt       the command line as given, its directory, the seed,
 *                     the divergence found
 *   program.pla       the program (its text as parsed)
 *   arch.ini          the architecture (the --arch file, or the embedded
 *                     default's text)
 *   inputs/NAME.txt   every input array's values (data-file format), so
 *                     that the rerun does not depend on the random inputs
 *   program.sym       the symbolic configuration (as `tcpa compile`)
 *   config.bin, config.lst   the stream and its listing
 *   divergence.txt, divergence.gtkw, rtl.fst, model.fst, compare.fst,
 *   compare.gtkw      copies of the report and the waveforms (`tcpa wave
 *                     DIR/repro`, `tcpa wave DIR/repro --compare`)
 *
 * Every file is written atomically (datafile_tmp); the bundle is written
 * after the divergence files, so the copies are of this run's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datafile.h"
#include "diag.h"
#include "fileio.h"
#include "engine_flow.h"
#include "map.h"
#include "rdg.h"
#include "sym.h"

#define REPRO_PATH 4400

/* Returns 0 after writing len bytes of data to dir/name atomically; -1
 * with msg. */
static int repro_put(const char *dir, const char *name, const void *data, size_t len, char *msg,
                     size_t msgsz) {
  char path[REPRO_PATH];
  datafile_tmp t;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (datafile_tmp_open(&t, path)) {
    snprintf(msg, msgsz, "%s: cannot write", path);
    return -1;
  }
  if (fwrite(data, 1, len, t.f) != len) {
    datafile_tmp_abort(&t);
    snprintf(msg, msgsz, "%s: cannot write: %s", path, strerror(errno));
    return -1;
  }
  if (datafile_tmp_commit(&t)) {
    snprintf(msg, msgsz, "%s: cannot write", path);
    return -1;
  }
  return 0;
}

/* Returns 0 after copying file `from` to dir/name (nothing when `from`
 * does not exist); -1 with msg. */
static int repro_copy(const char *from, const char *dir, const char *name, char *msg, size_t msgsz) {
  FILE *f = fopen(from, "rb");
  if (!f) return 0;
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  char chunk[65536];
  size_t n;
  while (m && (n = fread(chunk, 1, sizeof chunk, f)) > 0) fwrite(chunk, 1, n, m);
  fclose(f);
  if (!m) {
    snprintf(msg, msgsz, "out of memory");
    return -1;
  }
  fclose(m);
  int rc = repro_put(dir, name, buf ? buf : "", len, msg, msgsz);
  free(buf);
  return rc;
}

/* Returns 0 after writing program.sym: the mapping of c found again by
 * the same search (map_search.c is deterministic); -1 with msg. */
static int repro_sym(const char *dir, const ast_program *p, const arch_config *arch, const int64_t *params,
                     const interp_array *ref, int rows, int cols, const engine_config *c, const map_opts *mo,
                     const inst_opts *io, char *msg, size_t msgsz) {
  rdg *g = NULL;
  map_config m;
  int dim = c->dim2 >= 0 ? ENGINE_DIMS_2D(c->dim, c->dim2) : c->dim;
  int st = engine_map_rebuild(p, arch, params, ref, rows, cols, dim, mo, io, &m, &g, msg, msgsz);
  char *text = NULL;
  size_t len = 0;
  int rc = -1;
  if (st == MAP_OK) {
    FILE *f = open_memstream(&text, &len);
    if (f && !sym_write(&m, f)) {
      fclose(f);
      rc = repro_put(dir, "program.sym", text, len, msg, msgsz);
    } else {
      if (f) fclose(f);
      snprintf(msg, msgsz, "cannot write the symbolic configuration");
    }
  }
  free(text);
  map_config_free(&m);
  rdg_free(g);
  return rc;
}

/* Returns 0 after writing inputs/NAME.txt for every input array of p. */
static int repro_inputs(const char *dir, const ast_program *p, const interp_array *ref, char *msg,
                        size_t msgsz) {
  char sub[REPRO_PATH + 16], path[2 * REPRO_PATH];
  snprintf(sub, sizeof sub, "%s/inputs", dir);
  if (mkdir(sub, 0777) != 0 && errno != EEXIST) {
    snprintf(msg, msgsz, "%s: cannot create: %s", sub, strerror(errno));
    return -1;
  }
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind != AST_ARRAY_IN) continue;
    snprintf(path, sizeof path, "%s/%s.txt", sub, p->arrays[a].name);
    if (datafile_write(path, ref[a].data, ref[a].ndims, ref[a].extent)) {
      snprintf(msg, msgsz, "%s: cannot write", path);
      return -1;
    }
  }
  return 0;
}

/* Writes the `tcpa run` arguments of the rerun (after the program) to f. */
static void repro_args(FILE *f, const ast_program *p, const int64_t *params, int rows, int cols,
                       const engine_config *c, const engine_run_opts *o) {
  fputs(" --arch \"$here/arch.ini\"", f);
  for (int i = 0; i < p->nparams; i++) fprintf(f, " --param %s=%" PRId64, p->param[i], params[i]);
  fprintf(f, " --pes %dx%d --map %s", rows, cols, p->index[c->dim]);
  if (c->axis == MAP_AXIS_2D) fprintf(f, ",%s", p->index[c->dim2]);
  for (int a = 0; a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_IN)
      fprintf(f, " --in %s=\"$here/inputs/%s.txt\"", p->arrays[a].name, p->arrays[a].name);
  fprintf(f, " --seed %" PRIu64 " --engine cosim", o->seed);
  if (o->window > 0) fprintf(f, " --window %d", o->window);
}

/* Returns the text of repro.sh (malloc'ed), NULL when out of memory. */
static char *repro_script(const ast_program *p, const int64_t *params, int rows, int cols,
                          const engine_config *c, const engine_run_opts *o, const char *divergence) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return NULL;
  fputs("#!/bin/sh\n"
        "# repro.sh: reruns the failing `tcpa run --engine cosim` this bundle was made\n"
        "# from, on the bundle's own files (program, architecture, inputs); needs\n"
        "# tcpa (and its RTL build) only. Usage: sh repro.sh [OUTDIR] (default: a\n"
        "# directory rerun/ beside this script); TCPA=/path/to/tcpa picks the binary.\n"
        "# Expected: exit 1 with the divergence\n#   ", f);
  fputs(divergence, f);
  fputs("\n# The original command line is in command.txt.\n"
        "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
        "out=${1:-$here/rerun}\n"
        "exec \"${TCPA:-tcpa}\" run \"$here/program.pla\"", f);
  repro_args(f, p, params, rows, cols, c, o);
  fputs(" --out-dir \"$out\"\n", f);
  fclose(f);
  return text;
}

/* Returns the text of command.txt (malloc'ed), NULL when out of memory. */
static char *repro_command(const engine_run_opts *o, const char *divergence) {
  char *text = NULL, cwd[REPRO_PATH];
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return NULL;
  fputs("command:   tcpa", f);
  for (int i = 0; i < o->argc && o->argv; i++) {
    fputc(' ', f);
    fileio_shell_quote(f, o->argv[i]);
  }
  fprintf(f, "\ndirectory: %s\nseed:      %" PRIu64 "\nprogram:   %s\narch:      %s\n",
          getcwd(cwd, sizeof cwd) ? cwd : "?", o->seed, o->program_path ? o->program_path : "?",
          o->arch_path ? o->arch_path : "(the embedded configs/default.ini)");
  const char *rtl = getenv("TCPA_RTL");
  if (rtl && *rtl) fprintf(f, "harness:   TCPA_RTL=%s (set it again for the rerun)\n", rtl);
  fprintf(f, "found:     %s\nrerun:     sh repro.sh [OUTDIR]\n", divergence);
  fclose(f);
  return text;
}

int engine_repro_write(const char *out_dir, const ast_program *p, const arch_config *arch,
                       const int64_t *params, const interp_array *ref, int rows, int cols,
                       const engine_config *c, const map_opts *mo, const inst_opts *io,
                       const engine_run_opts *o, const char *divergence, char *msg, size_t msgsz) {
  char dir[REPRO_PATH], from[2 * REPRO_PATH];
  snprintf(dir, sizeof dir, "%s/repro", out_dir);
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    snprintf(msg, msgsz, "%s: cannot create: %s", dir, strerror(errno));
    return -1;
  }
  char *script = repro_script(p, params, rows, cols, c, o, divergence);
  char *cmd = repro_command(o, divergence);
  const char *ini = arch_default_ini_text;
  char *ini_buf = NULL;
  size_t ini_len = 0;
  FILE *af = o->arch_path ? fopen(o->arch_path, "rb") : NULL;
  if (af) { /* the --arch file as given */
    FILE *m = open_memstream(&ini_buf, &ini_len);
    int ch;
    while (m && (ch = fgetc(af)) != EOF) fputc(ch, m);
    if (m) fclose(m);
    fclose(af);
    ini = ini_buf;
  }
  int rc = -1;
  if (!script || !cmd || !ini) {
    snprintf(msg, msgsz, o->arch_path && !af ? "%s: cannot read the architecture" : "out of memory",
             o->arch_path);
  } else if (!repro_put(dir, "repro.sh", script, strlen(script), msg, msgsz) &&
             !repro_put(dir, "command.txt", cmd, strlen(cmd), msg, msgsz) &&
             !repro_put(dir, "program.pla", p->source, strlen(p->source), msg, msgsz) &&
             !repro_put(dir, "arch.ini", ini, ini == ini_buf ? ini_len : strlen(ini), msg, msgsz) &&
             !repro_inputs(dir, p, ref, msg, msgsz) && !repro_sym(dir, p, arch, params, ref, rows, cols, c, mo, io, msg, msgsz) &&
             !repro_put(dir, "config.bin", c->stream, c->stream_len, msg, msgsz) &&
             !repro_put(dir, "config.lst", c->listing, strlen(c->listing), msg, msgsz)) {
    static const char *const copies[] = {"divergence.txt", "divergence.gtkw", "rtl.fst", "model.fst", "compare.fst",
                                         "compare.gtkw", ENGINE_INSN_FILTER};
    rc = 0;
    for (size_t i = 0; !rc && i < sizeof copies / sizeof *copies; i++) {
      snprintf(from, sizeof from, "%s/%s", out_dir, copies[i]);
      rc = repro_copy(from, dir, copies[i], msg, msgsz);
    }
    snprintf(from, sizeof from, "%s/repro.sh", dir);
    if (!rc) chmod(from, 0755);
  }
  free(script);
  free(cmd);
  free(ini_buf);
  return rc;
}
