/*
 * engine_harness.c: the harness cache: finding, building and running a
 * Verilated harness for any architecture configuration, the one way the
 * `rtl`/`cosim` engines (tcpa-rtl), the `systemc` engine (tcpa-sc), the
 * fault-injection tests (tcpa-rtl with mutants), the sign-off's coverage
 * model and `tcpa harness` get one (engine.h; docs/rtl.md "Harness cache").
 *
 * A harness is keyed by a 64-bit FNV-1a hash over everything that goes into
 * its build:
 *   - its kind (rtl, mutants, sc, cov: tb/harness.mk gives their flags);
 *   - the configuration's parameter package and C header, generated here
 *     from the effective configuration (arch_config_write_sv, _h), so the
 *     INI file may live anywhere and only its effective values count;
 *   - every file of rtl/ (*.sv, *.svh, *.vlt) and tb/harness.mk (the
 *     Verilator recipe and its flags);
 *   - the sources of the generated copies of C contracts (the generators
 *     common/gen/gen_*.c, docs/rtl.md "Generated packages", with the
 *     headers they include: common/isa.h, common/stream.h,
 *     common/trace.h, ...; and common/trace.c, which gives the event
 *     names) and of the harness (tb/rtl_main.cpp, ...), each with the
 *     project headers it includes, found by following `#include "..."`
 *     lines;
 *   - BUILD/lib/libtcpa.a for the harness that links the C model;
 *   - the output of `verilator --version` (memoized in
 *     BUILD/harness/verilator.key for the executable's path, inode, size
 *     and modification time: starting the Perl script costs more than the
 *     rest of the lookup).
 * The harness lives in BUILD/harness/<kind>-<key>/ (BUILD: the build
 * directory holding the running tcpa, BUILD/bin/tcpa; the source tree is
 * its parent). A binary there is complete (the recipe links it under a
 * temporary name and renames it), so one that exists is used as it is; a
 * missing one is built by `make -C ROOT BUILD=<b> harness HARNESS_DIR=...
 * HARNESS_KIND=...` with a progress line on stderr and a heartbeat every
 * 30 s naming its live log (common/step.c). inputs.txt in the
 * directory lists every input with its own hash, to tell why a key changed.
 * $ENV (TCPA_RTL, TCPA_SC), when set, names a binary instead.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine.h"
#include "step.h"

#define HARNESS_PATH 4096
#define HARNESS_MAX_FILES 256

/* The inputs of one key: file names (relative to the root) and hashes. */
typedef struct {
  char *name[HARNESS_MAX_FILES];
  uint64_t hash[HARNESS_MAX_FILES];
  int n;
  int overflow;
} harness_inputs;

/* Returns the FNV-1a hash of n bytes, continuing from h. */
static uint64_t harness_fnv(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

#define HARNESS_FNV_INIT 0xcbf29ce484222325ull

/* Returns 0 and the build directory (BUILD) and source root (its parent,
 * holding the Makefile) of the running tcpa; -1 with msg. */
static int harness_tree(const engine_harness *h, char *build, char *root, char *msg, size_t msgsz) {
  char exe[HARNESS_PATH];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  for (int up = 0; up < 3; up++) {
    char *s = strrchr(exe, '/');
    if (!s || s == exe) break;
    *s = 0;
    if (up == 1) snprintf(build, HARNESS_PATH, "%s", exe);
    if (up == 2) {
      snprintf(root, HARNESS_PATH, "%s", exe);
      char mk[HARNESS_PATH + 16];
      snprintf(mk, sizeof mk, "%s/tb/harness.mk", root);
      if (access(mk, R_OK) == 0) return 0;
    }
  }
  snprintf(msg, msgsz, "%s: cannot find the source tree (tb/harness.mk, rtl/) above the tcpa binary's build "
           "directory; set %s to a %s binary", h->what, h->env, h->name);
  return -1;
}

/* Returns 1 when input `rel` is already in in. */
static int harness_inputs_has(const harness_inputs *in, const char *rel) {
  for (int i = 0; i < in->n; i++)
    if (!strcmp(in->name[i], rel)) return 1;
  return 0;
}

/* Returns the hash of the whole file path; *ok is 0 when it cannot be read. */
static uint64_t harness_file_hash(const char *path, int *ok) {
  FILE *f = fopen(path, "rb");
  uint64_t h = HARNESS_FNV_INIT;
  *ok = f != NULL;
  char buf[65536];
  size_t got;
  while (f && (got = fread(buf, 1, sizeof buf, f)) > 0) h = harness_fnv(h, buf, got);
  if (f) fclose(f);
  return h;
}

/* Adds root/rel to in (once); returns 0, or -1 when it cannot be read. */
static int harness_inputs_add(harness_inputs *in, const char *root, const char *rel) {
  if (harness_inputs_has(in, rel)) return 0;
  if (in->n == HARNESS_MAX_FILES) {
    in->overflow = 1;
    return -1;
  }
  char path[2 * HARNESS_PATH];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  int ok;
  uint64_t hash = harness_file_hash(path, &ok);
  if (!ok) return -1;
  in->name[in->n] = strdup(rel);
  in->hash[in->n++] = hash;
  return 0;
}

/* Returns 1 when root/rel is a readable file. */
static int harness_exists(const char *root, const char *rel) {
  char path[2 * HARNESS_PATH];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  return access(path, R_OK) == 0;
}

/* Adds the C/C++ source root/rel and, recursively, every project header it
 * includes with `#include "x"` (looked up beside it, then in common/,
 * cmodel/ and tb/, the folders a harness may include from; system headers
 * are not followed). Returns 0, or -1 when rel cannot be read. */
static int harness_inputs_add_source(harness_inputs *in, const char *root, const char *rel) {
  static const char *const dirs[] = {"", "common/", "cmodel/", "tb/"};
  if (harness_inputs_has(in, rel)) return 0;
  if (harness_inputs_add(in, root, rel) != 0) return -1;
  char path[2 * HARNESS_PATH], line[1024];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  FILE *f = fopen(path, "r");
  const char *slash = strrchr(rel, '/');
  int dirlen = slash ? (int)(slash - rel + 1) : 0;
  while (f && fgets(line, sizeof line, f)) {
    char inc[512];
    if (sscanf(line, " # include \"%511[^\"]\"", inc) != 1) continue;
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
      char cand[HARNESS_PATH];
      if (d == 0) snprintf(cand, sizeof cand, "%.*s%s", dirlen, rel, inc);
      else snprintf(cand, sizeof cand, "%s%s", dirs[d], inc);
      if (harness_exists(root, cand)) {
        harness_inputs_add_source(in, root, cand);
        break;
      }
    }
  }
  if (f) fclose(f);
  return 0;
}

/* Returns the strcmp order of two names (qsort). */
static int harness_name_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds every file of root/dir whose name ends with one of the suffixes,
 * in name order. */
static void harness_inputs_add_dir(harness_inputs *in, const char *root, const char *dir,
                                   const char *const *suffixes) {
  char path[2 * HARNESS_PATH];
  snprintf(path, sizeof path, "%s/%s", root, dir);
  DIR *d = opendir(path);
  char *names[HARNESS_MAX_FILES];
  int n = 0;
  struct dirent *e;
  while (d && n < HARNESS_MAX_FILES && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    for (int s = 0; suffixes[s]; s++) {
      size_t sl = strlen(suffixes[s]);
      if (len > sl && !strcmp(e->d_name + len - sl, suffixes[s])) {
        names[n++] = strdup(e->d_name);
        break;
      }
    }
  }
  if (d) closedir(d);
  qsort(names, (size_t)n, sizeof names[0], harness_name_cmp);
  for (int i = 0; i < n; i++) {
    char rel[HARNESS_PATH];
    snprintf(rel, sizeof rel, "%s/%s", dir, names[i]);
    harness_inputs_add(in, root, rel);
    free(names[i]);
  }
}

/* Frees the names of in. */
static void harness_inputs_free(harness_inputs *in) {
  for (int i = 0; i < in->n; i++) free(in->name[i]);
  in->n = 0;
}

/* Returns the hash of what `cmd` prints on stdout (0 when it cannot run). */
static uint64_t harness_command_hash(const char *cmd) {
  FILE *p = popen(cmd, "r");
  if (!p) return 0;
  uint64_t h = HARNESS_FNV_INIT;
  char buf[4096];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, p)) > 0) h = harness_fnv(h, buf, got);
  return pclose(p) == 0 ? h : 0;
}

/* Returns 0 and the path of the executable `name` (itself when it holds a
 * slash, else the first match on $PATH) in path; -1 when none. */
static int harness_which(const char *name, char *path, size_t sz) {
  if (strchr(name, '/')) {
    snprintf(path, sz, "%s", name);
    return access(path, X_OK);
  }
  const char *dirs = getenv("PATH");
  for (const char *d = dirs; d && *d;) {
    size_t n = strcspn(d, ":");
    snprintf(path, sz, "%.*s/%s", (int)n, n ? d : ".", name);
    if (access(path, X_OK) == 0) return 0;
    d += n + (d[n] == ':');
  }
  return -1;
}

/* Returns the hash of `verilator --version` (0 when it cannot run), from
 * the memo BUILD/harness/verilator.key when that names the same executable
 * (path, inode, size and modification time, and those of verilator_bin
 * beside it) as `verilator` resolves to:
 * the script is a Perl program, and starting it took about a third of the
 * lookup of a present harness (docs/testing.md "Simulator speed"). */
static uint64_t harness_verilator_hash(const char *build) {
  const char *v = getenv("VERILATOR");
  char exe[HARNESS_PATH], memo[HARNESS_PATH + 64], want[2 * HARNESS_PATH], line[2 * HARNESS_PATH + 64];
  char cmd[HARNESS_PATH + 64];
  struct stat st;
  v = v && *v ? v : "verilator";
  snprintf(cmd, sizeof cmd, "%s --version 2>/dev/null", v);
  if (harness_which(v, exe, sizeof exe) || stat(exe, &st) != 0) return harness_command_hash(cmd);
  int n = snprintf(want, sizeof want, "%s %llu %llu %lld.%09ld ", exe, (unsigned long long)st.st_ino,
                   (unsigned long long)st.st_size, (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
  char bin[HARNESS_PATH + 16]; /* the binary the script runs, beside it */
  const char *slash = strrchr(exe, '/');
  snprintf(bin, sizeof bin, "%.*s/verilator_bin", slash ? (int)(slash - exe) : 1, slash ? exe : ".");
  if (n > 0 && (size_t)n < sizeof want && stat(bin, &st) == 0)
    snprintf(want + n, sizeof want - (size_t)n, "%llu %llu %lld.%09ld ", (unsigned long long)st.st_ino,
             (unsigned long long)st.st_size, (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
  snprintf(memo, sizeof memo, "%s/harness/verilator.key", build);
  FILE *f = fopen(memo, "r");
  uint64_t h = 0;
  if (f && fgets(line, sizeof line, f) && !strncmp(line, want, strlen(want)) &&
      sscanf(line + strlen(want), "%" SCNx64, &h) == 1 && h) {
    fclose(f);
    return h;
  }
  if (f) fclose(f);
  if (!(h = harness_command_hash(cmd))) return 0;
  snprintf(line, sizeof line, "%s%016" PRIx64 "\n", want, h);
  char dir[HARNESS_PATH + 16];
  snprintf(dir, sizeof dir, "%s/harness", build);
  mkdir(dir, 0777);
  char tmp[HARNESS_PATH + 96];
  snprintf(tmp, sizeof tmp, "%s.%ld", memo, (long)getpid());
  if ((f = fopen(tmp, "w"))) { /* a memo that cannot be written only costs time */
    int bad = fputs(line, f) < 0;
    if (fclose(f) != 0 || bad || rename(tmp, memo) != 0) remove(tmp);
  }
  return h;
}

/* Returns the text that `write` prints for arch (malloc'd), or NULL. */
static char *harness_text(const arch_config *arch, void (*write)(const arch_config *, FILE *)) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NULL;
  write(arch, f);
  if (fclose(f) != 0) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* Returns 0 after collecting every input of harness h on arch under root
 * (the configuration texts excepted) into in; -1 with msg naming a source
 * that cannot be read. */
static int harness_inputs_collect(const engine_harness *h, const char *root, const char *build,
                                  harness_inputs *in, char *msg, size_t msgsz) {
  static const char *const rtl_suffixes[] = {".sv", ".svh", ".vlt", NULL};
  harness_inputs_add_dir(in, root, "rtl", rtl_suffixes);
  static const char *const generators[] = {"common/gen/gen_isa_pkg.c",        "common/gen/gen_stream_pkg.c",
                                           "common/gen/gen_trace_events.c",   "common/trace.c",
                                           "common/gen/gen_stream_errors.c", "common/stream.c", NULL};
  int bad = harness_inputs_add(in, root, "tb/harness.mk");
  for (int i = 0; !bad && generators[i]; i++) {
    bad = harness_inputs_add_source(in, root, generators[i]);
    if (bad) snprintf(msg, msgsz, "%s: cannot read %s/%s, a generator source", h->what, root, generators[i]);
  }
  for (int i = 0; !bad && h->sources[i]; i++) {
    const char *s = h->sources[i];
    size_t len = strlen(s);
    bad = len > 2 && (!strcmp(s + len - 2, ".c") || !strcmp(s + len - 4, ".cpp") || !strcmp(s + len - 2, ".h"))
              ? harness_inputs_add_source(in, root, s)
              : harness_inputs_add(in, root, s);
    if (bad) snprintf(msg, msgsz, "%s: cannot read %s/%s, a source of %s", h->what, root, s, h->name);
  }
  if (!bad && h->links_model) {
    char lib[HARNESS_PATH + 32];
    snprintf(lib, sizeof lib, "%s/lib/libtcpa.a", build);
    int ok;
    uint64_t hash = harness_file_hash(lib, &ok);
    if (!ok) {
      snprintf(msg, msgsz, "%s: %s is missing (make)", h->what, lib);
      return -1;
    }
    in->name[in->n] = strdup("BUILD/lib/libtcpa.a");
    in->hash[in->n++] = hash;
  }
  if (!bad && in->overflow) snprintf(msg, msgsz, "%s: more than %d input files", h->what, HARNESS_MAX_FILES);
  if (!bad && in->n == 0) snprintf(msg, msgsz, "%s: no RTL sources under %s/rtl", h->what, root);
  return bad || in->overflow || in->n == 0 ? -1 : 0;
}

/* Returns the key of harness h: its kind, the two configuration texts, the
 * inputs and the Verilator version, hashed in that order. */
static uint64_t harness_key(const engine_harness *h, const char *sv, const char *hdr,
                            const harness_inputs *in, uint64_t verilator) {
  uint64_t k = harness_fnv(HARNESS_FNV_INIT, h->kind, strlen(h->kind) + 1);
  k = harness_fnv(k, sv, strlen(sv) + 1);
  k = harness_fnv(k, hdr, strlen(hdr) + 1);
  for (int i = 0; i < in->n; i++) {
    k = harness_fnv(k, in->name[i], strlen(in->name[i]) + 1);
    k = harness_fnv(k, &in->hash[i], sizeof in->hash[i]);
  }
  return harness_fnv(k, &verilator, sizeof verilator);
}

/* Returns 0 after writing text to path through a temporary file; -1. */
static int harness_write(const char *path, const char *text) {
  char tmp[2 * HARNESS_PATH + 96];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) return -1;
  int bad = fputs(text, f) < 0;
  bad |= fclose(f) != 0;
  if (bad || rename(tmp, path) != 0) {
    remove(tmp);
    return -1;
  }
  return 0;
}

/* Returns 0 after writing the configuration texts, the effective INI and
 * inputs.txt into dir; -1 with msg. */
static int harness_dir_fill(const char *dir, const arch_config *arch, const char *sv, const char *hdr,
                            const harness_inputs *in, uint64_t verilator, char *msg, size_t msgsz) {
  char path[2 * HARNESS_PATH + 64];
  char *ini = harness_text(arch, arch_config_write_ini);
  char *list = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&list, &len);
  for (int i = 0; f && i < in->n; i++) fprintf(f, "%016" PRIx64 "  %s\n", in->hash[i], in->name[i]);
  if (f) fprintf(f, "%016" PRIx64 "  verilator --version\n", verilator);
  int bad = !f || fclose(f) != 0 || !ini;
  const char *names[] = {"tcpa_params_pkg.sv", "tcpa_params.h", "arch.ini", "inputs.txt"};
  const char *texts[] = {sv, hdr, ini, list};
  for (int i = 0; i < 4 && !bad; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    bad = harness_write(path, texts[i]) != 0;
    if (bad) snprintf(msg, msgsz, "cannot write %.600s: %s", path, strerror(errno));
  }
  free(ini);
  free(list);
  return bad ? -1 : 0;
}

/* Returns 0 after creating dir and its parents; -1. */
static int harness_mkdir_p(const char *dir) {
  char p[2 * HARNESS_PATH];
  snprintf(p, sizeof p, "%s", dir);
  for (char *s = p + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      if (mkdir(p, 0777) != 0 && errno != EEXIST) return -1;
      *s = '/';
    }
  return mkdir(p, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

static const char *const harness_src_rtl[] = {"tb/rtl_main.cpp", NULL};
static const char *const harness_src_sc[] = {"tb/sc_main.cpp", "tb/sc_model.cpp", "tb/sc_tb.cpp", NULL};
static const char *const harness_src_cov[] = {"tb/rtl_main.cpp", "scripts/signoff-coverage.vlt", NULL};
const engine_harness engine_harness_rtl = {"tcpa-rtl", "rtl", "--engine rtl", "TCPA_RTL", harness_src_rtl, 0};
const engine_harness engine_harness_mutants = {"tcpa-rtl", "mutants", "the mutants harness", "TCPA_RTL_MUTANTS",
                                               harness_src_rtl, 0};
const engine_harness engine_harness_sc = {"tcpa-sc", "sc", "--engine systemc", "TCPA_SC", harness_src_sc, 1};
const engine_harness engine_harness_cov = {"tcpa-rtl-cov", "cov", "the coverage harness", "TCPA_RTL_COV",
                                           harness_src_cov, 0};

const engine_harness *engine_harness_by_kind(const char *kind) {
  const engine_harness *all[] = {&engine_harness_rtl, &engine_harness_mutants, &engine_harness_sc,
                                 &engine_harness_cov};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (!strcmp(all[i]->kind, kind)) return all[i];
  return NULL;
}

int engine_harness_spawn(char *const argv[], int out, int err) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (out >= 0) dup2(out, 1);
    if (err >= 0) dup2(err, 2);
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

void engine_harness_last_line(const char *path, char *buf, size_t sz) {
  FILE *f = fopen(path, "r");
  char line[512];
  buf[0] = 0;
  while (f && fgets(line, sizeof line, f))
    if (line[0] && line[0] != '\n') {
      line[strcspn(line, "\n")] = 0;
      snprintf(buf, sz, "%s", line);
    }
  if (f) fclose(f);
}

/* Returns ENGINE_OK after building the harness h in dir with make (its
 * wall time in *seconds; a heartbeat every 30 s naming dir/build.log, the
 * live log of the recipe); else ENGINE_ERR_INPUT with msg. */
static int harness_build(const engine_harness *h, const char *root, const char *build, const char *dir,
                         const char *arch_path, uint64_t key, const char *bin, double *seconds, char *msg,
                         size_t msgsz) {
  const char *bname = strrchr(build, '/') ? strrchr(build, '/') + 1 : build;
  char bvar[HARNESS_PATH + 8], dvar[2 * HARNESS_PATH + 16], kvar[64], live[2 * HARNESS_PATH], what[128], d[32];
  snprintf(bvar, sizeof bvar, "BUILD=%s", bname);
  snprintf(dvar, sizeof dvar, "HARNESS_DIR=%s", dir);
  snprintf(kvar, sizeof kvar, "HARNESS_KIND=%s", h->kind);
  snprintf(live, sizeof live, "%s/build.log", dir);
  snprintf(what, sizeof what, "building %s (%s)", h->name, h->kind);
  fprintf(stderr, "tcpa: building %s (%s) for %s, key %016" PRIx64 ": Verilator, a few minutes; log %s\n", h->name,
          h->kind, arch_path ? arch_path : "the default configuration", key, live);
  /* a build of its own: none of a calling make's job-server variables */
  char *argv[] = {"env",     "-u", "MAKEFLAGS", "-u", "MFLAGS", "-u",    "MAKELEVEL", "make", "-s",
                  "--no-print-directory", "-C", (char *)root, bvar, "harness", dvar, kvar, NULL};
  step_opts st = {what, NULL, live, NULL, 0, stderr};
  int rc = step_run(argv, &st, seconds);
  if (rc != 0 || access(bin, X_OK) != 0) {
    snprintf(msg, msgsz, "%s: building %s failed (make exit %d; log %.600s)", h->what, h->name, rc, live);
    return ENGINE_ERR_INPUT;
  }
  fprintf(stderr, "tcpa: built %s in %s\n", bin, step_duration(*seconds, d, sizeof d));
  return ENGINE_OK;
}

int engine_harness_find(const engine_harness *h, const arch_config *arch, const char *arch_path, int build_it,
                        engine_harness_info *info, char *msg, size_t msgsz) {
  memset(info, 0, sizeof *info);
  const char *env = getenv(h->env);
  if (env && *env) {
    snprintf(info->bin, sizeof info->bin, "%s", env);
    info->present = access(info->bin, X_OK) == 0;
    if (info->present) return ENGINE_OK;
    snprintf(msg, msgsz, "%s=%s: not an executable file", h->env, env);
    return ENGINE_ERR_INPUT;
  }
  char build[HARNESS_PATH], root[HARNESS_PATH];
  if (harness_tree(h, build, root, msg, msgsz)) return ENGINE_ERR_INPUT;
  harness_inputs in = {0};
  char *sv = harness_text(arch, arch_config_write_sv), *hdr = harness_text(arch, arch_config_write_h);
  int rc = ENGINE_ERR_INPUT;
  if (!sv || !hdr) {
    snprintf(msg, msgsz, "%s: out of memory", h->what);
    goto error;
  }
  if (harness_inputs_collect(h, root, build, &in, msg, msgsz) != 0) goto error;
  const char *verilator = getenv("VERILATOR");
  uint64_t vhash = harness_verilator_hash(build);
  if (!vhash) {
    snprintf(msg, msgsz, "%s: Verilator does not run (%s --version); scripts/setup.sh installs it", h->what,
             verilator && *verilator ? verilator : "verilator");
    goto error;
  }
  info->key = harness_key(h, sv, hdr, &in, vhash);
  snprintf(info->dir, sizeof info->dir, "%s/harness/%s-%016" PRIx64, build, h->kind, info->key);
  snprintf(info->bin, sizeof info->bin, "%s/%s", info->dir, h->name);
  info->present = access(info->bin, X_OK) == 0;
  rc = ENGINE_OK;
  if (info->present || !build_it) goto error;
  if (harness_mkdir_p(info->dir) != 0) {
    snprintf(msg, msgsz, "cannot create %.600s: %s", info->dir, strerror(errno));
    rc = ENGINE_ERR_INPUT;
    goto error;
  }
  rc = harness_dir_fill(info->dir, arch, sv, hdr, &in, vhash, msg, msgsz) ? ENGINE_ERR_INPUT
       : harness_build(h, root, build, info->dir, arch_path, info->key, info->bin, &info->build_seconds, msg,
                       msgsz);
  info->built = rc == ENGINE_OK;
  info->present = rc == ENGINE_OK;
error:
  harness_inputs_free(&in);
  free(sv);
  free(hdr);
  return rc;
}

int engine_harness_locate(const engine_harness *h, const arch_config *arch, const char *arch_path,
                          char *bin, size_t binsz, char *msg, size_t msgsz) {
  engine_harness_info info;
  int rc = engine_harness_find(h, arch, arch_path, 1, &info, msg, msgsz);
  if (rc == ENGINE_OK) snprintf(bin, binsz, "%s", info.bin);
  return rc;
}
