/*
 * engine_systemc.c: the `systemc` engine (`tcpa run --engine systemc`): the
 * Verilated RTL as a SystemC module beside the C model as an sc_module,
 * under the SystemC kernel, compared cycle by cycle in process by the
 * lockstep checker. That all happens in the harness `tcpa-sc`
 * (tb/sc_main.cpp, docs/rtl.md "SystemC"), run here as a subprocess:
 *
 *   tcpa-sc WORK/sc-config.bin --max-cycles N --report WORK/sc-report.txt
 *           --verdict WORK/sc-verdict.txt --trace-model MT --trace-rtl RT
 *           --dump-banks WORK/sc-banks --dump-model-banks WORK/sc-model-banks
 *           [--arch FILE]
 *
 * It stops at the first divergence. Its verdict file gives, per side, done,
 * the done cycles, the last bank write and the faults, where it stopped
 * and the cycles each side ran (out->lockstep, as cosim fills it), and at
 * a divergence its place and one-line description; its report file is the lockstep
 * report (the format of cosim). The outputs of both sides come from the
 * bank dumps (tcpa-rtl's format) through the configuration's placement;
 * engine_run.c checks them against the reference when the traces agree,
 * and at a divergence reruns tcpa-rtl for the waveform around it as for
 * cosim (the verdict says where cycle 0 lies in tcpa-rtl's FST).
 *
 * Finding the binary: $TCPA_SC when set; otherwise BUILD/bin/tcpa-sc for
 * configs/default.ini, BUILD/rtl/sc-<cfg>/tcpa-sc for the configs/<cfg>.ini
 * with the run's fingerprint (BUILD: the build directory of the running
 * tcpa, its parent the source tree). A missing binary, or one older than a
 * source of the RTL or of the harness or than BUILD/lib/libtcpa.a (the
 * model it links), is built with `make -C ROOT BUILD=... <binary>` (a
 * progress line on stderr).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diag.h"
#include "engine.h"

#define SC_PATH 4096
#define SC_MAX_CYCLES_MIN 100000ull /* as engine_run.c's other engines */

/* Returns the modification time of path, or 0 when it does not exist. */
static time_t engine_sc_mtime(const char *path) {
  struct stat st;
  return stat(path, &st) ? 0 : st.st_mtime;
}

/* Returns 0 and the build directory (BUILD) and the source tree (its
 * parent, holding the Makefile) of the running tcpa; -1 with msg. */
static int engine_sc_tree(char *build, char *root, char *msg, size_t msgsz) {
  char exe[SC_PATH];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  for (int up = 0; up < 3; up++) {
    char *s = strrchr(exe, '/');
    if (!s || s == exe) break;
    *s = 0;
    if (up == 1) snprintf(build, SC_PATH, "%s", exe);
    if (up == 2) {
      snprintf(root, SC_PATH, "%s", exe);
      char mk[SC_PATH + 16];
      snprintf(mk, sizeof mk, "%s/Makefile", root);
      if (access(mk, R_OK) == 0) return 0;
    }
  }
  snprintf(msg, msgsz, "--engine systemc: cannot find the source tree (Makefile) above the tcpa binary's "
           "build directory; set TCPA_SC to a tcpa-sc binary");
  return -1;
}

/* Returns 0 and the name of the configs/<name>.ini under root whose
 * fingerprint is fp ("default" for the embedded one); -1 when none. */
static int engine_sc_cfg_name(const char *root, uint64_t fp, char *name, size_t namesz) {
  arch_config a;
  if (arch_config_load_default(&a) == 0 && arch_config_fingerprint(&a) == fp) {
    snprintf(name, namesz, "default");
    return 0;
  }
  char dir[SC_PATH + 16];
  snprintf(dir, sizeof dir, "%s/configs", root);
  DIR *d = opendir(dir);
  struct dirent *e;
  int found = -1;
  while (d && found && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    char path[2 * SC_PATH];
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

/* Returns 1 when a source of the RTL or of the SystemC harness under root
 * is newer than `when`. */
static int engine_sc_stale(const char *root, time_t when) {
  static const char *const dirs[] = {"rtl", "tb"};
  int stale = 0;
  for (int i = 0; i < 2 && !stale; i++) {
    char dir[SC_PATH + 8];
    snprintf(dir, sizeof dir, "%s/%s", root, dirs[i]);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && !stale && (e = readdir(d))) {
      const char *n = e->d_name;
      int rel = i == 0 ? strstr(n, ".sv") != NULL
                       : !strncmp(n, "rtl_", 4) || !strncmp(n, "sc_", 3) || !strncmp(n, "lockstep", 8);
      char path[2 * SC_PATH];
      snprintf(path, sizeof path, "%s/%s", dir, n);
      if (rel && engine_sc_mtime(path) > when) stale = 1;
    }
    if (d) closedir(d);
  }
  return stale;
}

/* Returns the exit status of argv with stdout and stderr to fd `out` (-1:
 * inherited; 2: stderr for both); -1 when it cannot be started. */
static int engine_sc_spawn(char *const argv[], int out) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (out >= 0) {
      dup2(out, 1);
      dup2(out, 2);
    }
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* Returns ENGINE_OK after finding (or building) the tcpa-sc binary of
 * architecture arch into bin; ENGINE_ERR_INPUT with msg. */
static int engine_sc_locate(const arch_config *arch, char *bin, size_t binsz, char *msg, size_t msgsz) {
  const char *env = getenv("TCPA_SC");
  if (env && *env) {
    snprintf(bin, binsz, "%s", env);
    if (access(bin, X_OK) == 0) return ENGINE_OK;
    snprintf(msg, msgsz, "TCPA_SC=%s: not an executable file", env);
    return ENGINE_ERR_INPUT;
  }
  char build[SC_PATH], root[SC_PATH], name[256], target[SC_PATH + 300], lib[SC_PATH + 32];
  if (engine_sc_tree(build, root, msg, msgsz)) return ENGINE_ERR_INPUT;
  uint64_t fp = arch_config_fingerprint(arch);
  if (engine_sc_cfg_name(root, fp, name, sizeof name)) {
    snprintf(msg, msgsz, "--engine systemc: the RTL is built per configuration file configs/<name>.ini "
             "(make systemc SC_CFG=<name>); no file in %.600s/configs has the fingerprint 0x%016" PRIx64,
             root, fp);
    return ENGINE_ERR_INPUT;
  }
  if (!strcmp(name, "default")) snprintf(target, sizeof target, "%s/bin/tcpa-sc", build);
  else snprintf(target, sizeof target, "%s/rtl/sc-%s/tcpa-sc", build, name);
  snprintf(lib, sizeof lib, "%s/lib/libtcpa.a", build);
  time_t when = engine_sc_mtime(target);
  snprintf(bin, binsz, "%s", target);
  if (when && access(target, X_OK) == 0 && !engine_sc_stale(root, when) && engine_sc_mtime(lib) <= when)
    return ENGINE_OK;
  const char *bname = strrchr(build, '/') + 1;
  char bvar[SC_PATH + 8], rel[2 * SC_PATH];
  snprintf(bvar, sizeof bvar, "BUILD=%s", bname);
  snprintf(rel, sizeof rel, "%s%s", bname, target + strlen(build));
  fprintf(stderr, "tcpa run: building the SystemC engine for configs/%s.ini: make -C %s %s %s "
          "(Verilator, a few minutes)\n", name, root, bvar, rel);
  char *argv[] = {"make", "-C", root, bvar, rel, NULL};
  int rc = engine_sc_spawn(argv, 2);
  if (rc != 0 || access(target, X_OK) != 0) {
    snprintf(msg, msgsz, "--engine systemc: building %.700s failed (make exit %d)", target, rc);
    return ENGINE_ERR_INPUT;
  }
  return ENGINE_OK;
}

/* Returns 0 after reading the verdict file path into the results and out
 * (diverged, divergence); -1 with msg when it is missing or malformed. */
static int engine_sc_verdict(const char *path, engine_outcome *out, char *msg, size_t msgsz) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, msgsz, "%.400s: cannot read the verdict of tcpa-sc: %s", path, strerror(errno));
    return -1;
  }
  char *line = NULL;
  size_t cap = 0;
  int status = 0, sides = 0, rc = 0;
  while (!rc && getline(&line, &cap, f) > 0) {
    line[strcspn(line, "\n")] = 0;
    char who[8] = "", *sp = strchr(line, ' ');
    const char *rest = sp ? sp + 1 : "";
    int done = 0, n = 0;
    uint64_t dc = 0, cy = 0, fa = 0;
    if (!strncmp(line, "status ", 7)) {
      status = !strcmp(rest, "agree") ? 1 : !strcmp(rest, "diverged") ? 2 : 0;
      out->diverged = status == 2;
    } else if (!strncmp(line, "side ", 5)) {
      if (sscanf(rest, "%7s %d %" SCNu64 " %" SCNu64 " %" SCNu64 "%n", who, &done, &dc, &cy, &fa, &n) != 5 ||
          rest[n] || (strcmp(who, "model") && strcmp(who, "rtl"))) {
        rc = -1;
        break;
      }
      engine_result *r = !strcmp(who, "model") ? &out->model : &out->rtl;
      r->done = done;
      r->done_cycles = dc;
      r->cycles = cy;
      r->faults = fa;
      sides++;
    } else if (!strncmp(line, "faults ", 7) && sscanf(rest, "%7s%n", who, &n) == 1 && rest[n] == ' ') {
      engine_result *r = !strcmp(who, "model") ? &out->model : &out->rtl;
      snprintf(r->fault_text, sizeof r->fault_text, "%s", rest + n + 1);
    } else if (!strncmp(line, "line ", 5)) {
      snprintf(out->divergence, sizeof out->divergence, "%s", rest);
      snprintf(out->lockstep.line, sizeof out->lockstep.line, "%s", rest);
    } else if (!strncmp(line, "stop ", 5)) {
      engine_lockstep *l = &out->lockstep;
      if (sscanf(rest, "%" SCNu64 " %" SCNu64 " %" SCNu64, &l->stop_cycle, &l->model_cycles, &l->rtl_cycles) != 3)
        rc = -1;
      out->lockstep_ran = !rc;
    } else if (!strncmp(line, "divergence ", 11)) {
      engine_divergence *d = &out->lockstep.div;
      if (sscanf(rest, "%" SCNu64 " %d %d", &d->cycle, &d->row, &d->col) != 3) rc = -1;
    } else if (!strncmp(line, "fst ", 4)) {
      engine_divergence *d = &out->lockstep.div;
      if (sscanf(rest, "%" SCNu64 " %" SCNu64, &d->t0, &d->period) != 2) rc = -1;
    } else if (!strncmp(line, "what ", 5)) {
      snprintf(out->lockstep.div.what, sizeof out->lockstep.div.what, "%s", rest);
    }
  }
  free(line);
  fclose(f);
  out->lockstep.stopped_early = out->diverged; /* tcpa-sc stops both sides there */
  if (rc || !status || sides != 2 || !out->lockstep_ran || (status == 2 && !out->divergence[0])) {
    snprintf(msg, msgsz, "%.400s: not a complete verdict of tcpa-sc", path);
    return -1;
  }
  return 0;
}

/* Returns the last non-empty line of file path in buf (empty if none). */
static void engine_sc_last_line(const char *path, char *buf, size_t sz) {
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

/* Returns 0 after copying file `from` to `to` through `to`.tmp and a
 * rename (to NULL: nothing); -1. */
static int engine_sc_copy(const char *from, const char *to) {
  if (!to) return 0;
  char tmp[SC_PATH + 8];
  snprintf(tmp, sizeof tmp, "%s.tmp", to);
  FILE *in = fopen(from, "rb"), *o = fopen(tmp, "wb");
  char buf[4096];
  size_t n;
  int bad = !in || !o;
  while (!bad && (n = fread(buf, 1, sizeof buf, in)) > 0) bad = fwrite(buf, 1, n, o) != n;
  if (in) fclose(in);
  if (o && fclose(o)) bad = 1;
  if (bad || rename(tmp, to)) {
    remove(tmp);
    diag_error_plain("%s: cannot write: %s", to, strerror(errno));
    return -1;
  }
  return 0;
}

/* Prints the report file `report` of a divergence on stderr. */
static void engine_sc_report_print(const char *report) {
  FILE *f = fopen(report, "r");
  char buf[4096];
  size_t n;
  while (f && (n = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, n, stderr);
  if (f) fclose(f);
}

/* Returns the status after running tcpa-sc `bin` on the stream in work and
 * reading back its verdict and outputs into out. */
static int engine_sc_exec(const char *bin, const ast_program *p, const arch_config *arch,
                          const interp_array *ref, const engine_run_opts *o, const char *work,
                          engine_outcome *out) {
  char stream[SC_PATH + 32], report[SC_PATH + 32], verdict[SC_PATH + 32], mt[SC_PATH + 32],
      rt[SC_PATH + 32], banks[SC_PATH + 32], mbanks[SC_PATH + 32], log[SC_PATH + 32], maxc[32],
      msg[600] = "", last[600];
  const char *dir = o->out_dir ? o->out_dir : work;
  snprintf(stream, sizeof stream, "%s/sc-config.bin", work);
  snprintf(report, sizeof report, "%s/sc-report.txt", work);
  snprintf(verdict, sizeof verdict, "%s/sc-verdict.txt", work);
  snprintf(banks, sizeof banks, "%s/sc-banks", work);
  snprintf(mbanks, sizeof mbanks, "%s/sc-model-banks", work);
  snprintf(log, sizeof log, "%s/sc.log", work);
  snprintf(mt, sizeof mt, "%s/model.trace", dir);
  snprintf(rt, sizeof rt, "%s/rtl.trace", dir);
  snprintf(maxc, sizeof maxc, "%llu", (unsigned long long)(out->c.pred_done * 4 + SC_MAX_CYCLES_MIN));
  FILE *f = fopen(stream, "wb");
  int bad = !f || fwrite(out->c.stream, 1, out->c.stream_len, f) != out->c.stream_len;
  if (f && fclose(f)) bad = 1;
  if (bad) {
    diag_error_plain("systemc: %s: cannot write the stream: %s", stream, strerror(errno));
    return ENGINE_ERR_INPUT;
  }
  char *argv[24] = {(char *)bin, stream, "--max-cycles", maxc, "--report", report, "--verdict", verdict,
                    "--trace-model", mt, "--trace-rtl", rt, "--dump-banks", banks,
                    "--dump-model-banks", mbanks};
  int n = 16;
  if (o->arch_path) {
    argv[n++] = "--arch";
    argv[n++] = (char *)o->arch_path;
  }
  argv[n] = NULL;
  int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  int rc = engine_sc_spawn(argv, fd);
  if (fd >= 0) close(fd);
  if (rc < 0 || rc >= 2) {
    engine_sc_last_line(log, last, sizeof last);
    diag_error_plain("systemc: %s exited with status %d%s%s", bin, rc, last[0] ? ": " : "", last);
    return ENGINE_ERR_INPUT;
  }
  if (engine_result_init(&out->model, p, ref) || engine_result_init(&out->rtl, p, ref)) {
    diag_error_plain("systemc: out of memory");
    return ENGINE_ERR_INPUT;
  }
  if (engine_sc_verdict(verdict, out, msg, sizeof msg)) {
    diag_error_plain("systemc: %s", msg);
    return ENGINE_ERR_INPUT;
  }
  out->ran_model = out->ran_rtl = 1;
  if (out->diverged) {
    char *txt = NULL;
    diag_error_plain("systemc: the model and the RTL diverge: %s", out->divergence);
    engine_sc_report_print(report);
    if (o->out_dir && (txt = malloc(strlen(o->out_dir) + 32)))
      sprintf(txt, "%s/divergence.txt", o->out_dir);
    int st = o->out_dir && (!txt || engine_sc_copy(report, txt)) ? ENGINE_ERR_INPUT : ENGINE_MISMATCH;
    free(txt);
    return st;
  }
  char gmsg[128];
  if (engine_rtl_gather(mbanks, &out->c, arch, &out->model, gmsg, sizeof gmsg) ||
      engine_rtl_gather(banks, &out->c, arch, &out->rtl, gmsg, sizeof gmsg)) {
    diag_error_plain("systemc: %s", gmsg);
    return ENGINE_ERR_INPUT;
  }
  return ENGINE_OK;
}

int engine_systemc_run(const ast_program *p, const arch_config *arch, const interp_array *ref,
                       const engine_run_opts *o, const char *work, engine_outcome *out) {
  char bin[SC_PATH + 512], msg[1024] = "";
  if (o->out_dir) {
    static const char *const stale[] = {"divergence.txt", "divergence.gtkw", "rtl.fst", "model.fst"};
    for (int i = 0; i < 4; i++) {
      char path[SC_PATH + 32];
      snprintf(path, sizeof path, "%s/%s", o->out_dir, stale[i]);
      remove(path); /* files of an earlier run must not pass for this one's */
    }
  }
  if (engine_sc_locate(arch, bin, sizeof bin, msg, sizeof msg)) {
    diag_error_plain("%s", msg);
    return ENGINE_ERR_INPUT;
  }
  return engine_sc_exec(bin, p, arch, ref, o, work, out);
}
