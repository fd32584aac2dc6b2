/*
 * engine_harness.c: finding, building and running a Verilated harness, the
 * one way the `rtl`/`cosim` engines (tcpa-rtl) and the `systemc` engine
 * (tcpa-sc) do it (engine.h, engine_harness).
 *
 * A harness is built per named configuration: configs/<cfg>.ini of the
 * source tree (the parent of the build directory BUILD holding the running
 * tcpa, BUILD/bin/tcpa) whose fingerprint equals the run's architecture
 * ("default" for the embedded one). Its binary is BUILD/<default> for the
 * default configuration and BUILD/<per_cfg with %s = cfg> otherwise. $ENV,
 * when set, names the binary instead. A binary is reused when it exists,
 * no source it depends on (the .sv files of rtl/, the files of tb/ named
 * by the harness's prefixes) is newer, its parameters header carries the
 * fingerprint (when the harness has one) and BUILD/lib/libtcpa.a is not
 * newer (when it links the model); otherwise `make -C ROOT BUILD=<name> <binary>` builds it with
 * a progress line on stderr. An architecture with no file in configs/ is an
 * input error: the RTL is generated per configuration file.
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

#define HARNESS_PATH 4096

/* Returns 0 and the build directory (BUILD) and source root (its parent,
 * holding the Makefile) of the running tcpa; -1 with msg. */
static int engine_harness_tree(const engine_harness *h, char *build, char *root, char *msg, size_t msgsz) {
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
      snprintf(mk, sizeof mk, "%s/Makefile", root);
      if (access(mk, R_OK) == 0) return 0;
    }
  }
  snprintf(msg, msgsz, "%s: cannot find the source tree (Makefile, rtl/) above the tcpa binary's build "
           "directory; set %s to a %s binary", h->what, h->env, h->name);
  return -1;
}

/* Returns 0 and the name of the configs/<name>.ini under root whose
 * fingerprint is fp ("default" for the embedded one); -1 when none. */
static int engine_harness_cfg_name(const char *root, uint64_t fp, char *name, size_t namesz) {
  arch_config a;
  if (arch_config_load_default(&a) == 0 && arch_config_fingerprint(&a) == fp) {
    snprintf(name, namesz, "default");
    return 0;
  }
  char dir[HARNESS_PATH + 16];
  snprintf(dir, sizeof dir, "%s/configs", root);
  DIR *d = opendir(dir);
  struct dirent *e;
  int found = -1;
  while (d && found && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    char path[2 * HARNESS_PATH];
    if (len < 5 || strcmp(e->d_name + len - 4, ".ini")) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (arch_config_load(path, &a) == 0 && arch_config_fingerprint(&a) == fp) {
      snprintf(name, namesz, "%.*s", (int)(len - 4), e->d_name);
      found = 0;
    }
  }
  if (d) closedir(d);
  return found;
}

/* Returns the modification time of path, or 0 when it does not exist. */
static time_t engine_harness_mtime(const char *path) {
  struct stat st;
  return stat(path, &st) ? 0 : st.st_mtime;
}

/* Returns 1 when tb file name n is a source of harness h. */
static int engine_harness_tb_source(const engine_harness *h, const char *n) {
  for (int i = 0; h->tb_prefixes[i]; i++)
    if (!strncmp(n, h->tb_prefixes[i], strlen(h->tb_prefixes[i]))) return 1;
  return 0;
}

/* Returns 1 when an RTL source or a tb source of h under root is newer
 * than `when`. */
static int engine_harness_stale(const engine_harness *h, const char *root, time_t when) {
  static const char *const dirs[] = {"rtl", "tb"};
  int stale = 0;
  for (int i = 0; i < 2 && !stale; i++) {
    char dir[HARNESS_PATH + 8];
    snprintf(dir, sizeof dir, "%s/%s", root, dirs[i]);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && !stale && (e = readdir(d))) {
      const char *n = e->d_name;
      int rel = i == 0 ? strstr(n, ".sv") != NULL : engine_harness_tb_source(h, n);
      char path[2 * HARNESS_PATH];
      snprintf(path, sizeof path, "%s/%s", dir, n);
      if (rel && engine_harness_mtime(path) > when) stale = 1;
    }
    if (d) closedir(d);
  }
  return stale;
}

/* Returns 1 when the params header `hdr` records fingerprint fp. */
static int engine_harness_fp_match(const char *hdr, uint64_t fp) {
  FILE *f = fopen(hdr, "r");
  char line[256];
  int ok = 0;
  while (f && !ok && fgets(line, sizeof line, f)) {
    unsigned long long v;
    if (sscanf(line, "#define TCPA_ARCH_FINGERPRINT 0x%llx", &v) == 1) ok = v == fp;
  }
  if (f) fclose(f);
  return ok;
}

/* Returns 1 when the built binary `target` of configuration `name` can be
 * used as it is. */
static int engine_harness_fresh(const engine_harness *h, const char *build, const char *root,
                                const char *name, const char *target, uint64_t fp) {
  time_t when = engine_harness_mtime(target);
  if (!when || access(target, X_OK) != 0 || engine_harness_stale(h, root, when)) return 0;
  char path[HARNESS_PATH + 300];
  if (h->params_header) {
    snprintf(path, sizeof path, "%s/%s", build, h->params_header);
    char hdr[2 * HARNESS_PATH];
    snprintf(hdr, sizeof hdr, path, name);
    if (!engine_harness_fp_match(hdr, fp)) return 0;
  }
  if (h->links_model) {
    snprintf(path, sizeof path, "%s/lib/libtcpa.a", build);
    if (engine_harness_mtime(path) > when) return 0;
  }
  return 1;
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

int engine_harness_locate(const engine_harness *h, const arch_config *arch, const char *arch_path,
                          char *bin, size_t binsz, char *msg, size_t msgsz) {
  const char *env = getenv(h->env);
  if (env && *env) {
    snprintf(bin, binsz, "%s", env);
    if (access(bin, X_OK) == 0) return ENGINE_OK;
    snprintf(msg, msgsz, "%s=%s: not an executable file", h->env, env);
    return ENGINE_ERR_INPUT;
  }
  char build[HARNESS_PATH], root[HARNESS_PATH], name[256];
  if (engine_harness_tree(h, build, root, msg, msgsz)) return ENGINE_ERR_INPUT;
  uint64_t fp = arch_config_fingerprint(arch);
  if (engine_harness_cfg_name(root, fp, name, sizeof name)) {
    snprintf(msg, msgsz, "%s: the RTL is generated per configuration file configs/<name>.ini (%s); no "
             "file in %.600s/configs has the fingerprint 0x%016" PRIx64 " of %.600s: copy it there to run "
             "it on the RTL", h->what, h->make_hint, root, fp, arch_path ? arch_path : "the architecture");
    return ENGINE_ERR_INPUT;
  }
  char rel[HARNESS_PATH], target[2 * HARNESS_PATH];
  if (!strcmp(name, "default")) snprintf(rel, sizeof rel, "%s", h->bin_default);
  else snprintf(rel, sizeof rel, h->bin_per_cfg, name);
  snprintf(target, sizeof target, "%s/%s", build, rel);
  snprintf(bin, binsz, "%s", target);
  if (engine_harness_fresh(h, build, root, name, target, fp)) return ENGINE_OK;
  const char *bname = strrchr(build, '/') ? strrchr(build, '/') + 1 : build;
  char bvar[HARNESS_PATH + 8], tgt_rel[2 * HARNESS_PATH];
  snprintf(bvar, sizeof bvar, "BUILD=%s", bname);
  snprintf(tgt_rel, sizeof tgt_rel, "%s/%s", bname, rel);
  fprintf(stderr, "tcpa run: building %s for configs/%s.ini (fingerprint 0x%016" PRIx64 "): make -C %s %s %s "
          "(Verilator, a few minutes)\n", h->name, name, fp, root, bvar, tgt_rel);
  char *argv[] = {"make", "-C", root, bvar, tgt_rel, NULL};
  int rc = engine_harness_spawn(argv, 2, -1);
  if (rc != 0 || access(target, X_OK) != 0) {
    snprintf(msg, msgsz, "%s: building %.700s failed (make exit %d)", h->what, target, rc);
    return ENGINE_ERR_INPUT;
  }
  return ENGINE_OK;
}
