/*
 * regress_exec.c: the parallel runner of `tcpa regress` (regress_exec.h).
 *
 * A slot holds one run at a time; up to `jobs` slots are busy. A run is a
 * child process of the same binary: `tcpa run` (stdout.txt and stderr.txt
 * in the run's directory), whose summary.json gives the verdict's fields
 * and, for a run that passed on an engine, its instantiation time
 * (`instantiate_seconds`, regress_verdict.c). Every child gets its own process group, so that a
 * timeout (SIGKILL to the group) also ends what it started (the RTL
 * harness). The loop polls: it reaps finished children (waitpid WNOHANG),
 * kills those past their deadline, starts pending runs, redraws the
 * progress line (on a terminal; elsewhere, when no run has finished for
 * 30 s, a heartbeat line naming the longest-running run and its live
 * log), and sleeps 20 ms. SIGINT and SIGTERM kill every running
 * group and end the loop.
 *
 * The run's directory is emptied before it starts, so nothing of an
 * earlier run can be taken for this one's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "fileio.h"
#include "regress_exec.h"
#include "regress_verdict.h"
#include "step.h"

/* One busy slot. */
typedef struct {
  size_t run;     /* index into the list */
  pid_t pid;      /* 0: free */
  double start, deadline, run_start;
  int timed_out;
  regress_exit x; /* how `tcpa run` ended */
} exec_slot;

static volatile sig_atomic_t exec_stop;

/* Records an interrupt. */
static void exec_on_signal(int sig) { exec_stop = sig; }

/* Returns the monotonic time in seconds. */
static double exec_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A growable argument vector. */
typedef struct {
  char **v;
  int n, cap;
} exec_args;

/* Appends a formatted argument. */
__attribute__((format(printf, 2, 3))) static void exec_arg(exec_args *a, const char *fmt, ...) {
  if (a->n + 2 > a->cap) {
    a->cap = a->cap ? a->cap * 2 : 32;
    char **v = realloc(a->v, (size_t)a->cap * sizeof *v);
    if (!v) abort();
    a->v = v;
  }
  char *s = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&s, &len);
  if (!f) abort();
  va_list ap;
  va_start(ap, fmt);
  vfprintf(f, fmt, ap);
  va_end(ap);
  fclose(f);
  a->v[a->n++] = s;
  a->v[a->n] = NULL;
}

/* Appends --param NAME=VALUE for every parameter of r. */
static void exec_params(exec_args *a, const regress_run *r) {
  char *buf = regress_strdup(r->params), *save = NULL;
  for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
    exec_arg(a, "--param");
    exec_arg(a, "%s", t);
  }
  free(buf);
}

char **regress_exec_argv(const regress_run *r) {
  exec_args a = {0};
  exec_arg(&a, "tcpa");
  exec_arg(&a, "run");
  exec_arg(&a, "%s", r->program);
  if (r->job) { /* a job file carries its programs and regions; its architecture
                   (its arch line, else the suite's --arch) in r->arch */
    exec_arg(&a, "--arch");
    exec_arg(&a, "%s", r->arch);
    exec_arg(&a, "--engine");
    exec_arg(&a, "%s", r->engine);
    exec_arg(&a, "--out-dir");
    exec_arg(&a, "%s", r->dir ? r->dir : ".");
    return a.v;
  }
  exec_arg(&a, "--arch");
  exec_arg(&a, "%s", r->arch);
  exec_arg(&a, "--engine");
  exec_arg(&a, "%s", r->engine);
  exec_arg(&a, "--pes");
  exec_arg(&a, "%s", r->pes);
  if (r->map) {
    exec_arg(&a, "--map");
    exec_arg(&a, "%s", r->map);
  }
  exec_params(&a, r);
  exec_arg(&a, "--seed");
  exec_arg(&a, "%" PRIu64, r->seed);
  if (r->window) {
    exec_arg(&a, "--window");
    exec_arg(&a, "%d", r->window);
  }
  if (r->waves && (!strcmp(r->engine, "model") || !strcmp(r->engine, "rtl"))) {
    exec_arg(&a, "--fst");
    exec_arg(&a, "%s/%s.fst", r->dir ? r->dir : ".", r->engine);
  }
  if (!r->keep_traces) {
    exec_arg(&a, "--traces");
    exec_arg(&a, "on-failure");
  }
  exec_arg(&a, "--out-dir");
  exec_arg(&a, "%s", r->dir ? r->dir : ".");
  return a.v;
}

void regress_exec_argv_free(char **argv) {
  for (int i = 0; argv && argv[i]; i++) free(argv[i]);
  free(argv);
}

char *regress_exec_command(const regress_run *r) {
  char **argv = regress_exec_argv(r), *s = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&s, &len);
  if (!f) abort();
  for (int i = 0; argv[i]; i++) {
    if (i) fputc(' ', f);
    fileio_shell_quote(f, argv[i]);
  }
  fclose(f);
  regress_exec_argv_free(argv);
  return s;
}

/* Removes everything inside dir (not dir itself). */
static void exec_empty_dir(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    size_t n = strlen(dir) + strlen(e->d_name) + 2;
    char *p = malloc(n);
    if (!p) break;
    snprintf(p, n, "%s/%s", dir, e->d_name);
    if (remove(p) != 0) {
      exec_empty_dir(p);
      rmdir(p);
    }
    free(p);
  }
  if (d) closedir(d);
}

/* Returns 0 after creating dir and its parents; -1 after an error. */
static int exec_mkdir_p(const char *dir) {
  char failed[1024];
  if (fileio_mkdir_p(dir, failed, sizeof failed) == 0) return 0;
  diag_error_plain("cannot create directory '%s': %s", failed, strerror(errno));
  return -1;
}

/* Returns the pid of a child running argv under `self` with stdout and
 * stderr to the files out and err (err NULL: both to out, appended);
 * -1 after an error. */
static pid_t exec_spawn(const char *self, char **argv, const char *out, const char *err) {
  pid_t pid = fork();
  if (pid < 0) {
    diag_error_plain("fork: %s", strerror(errno));
    return -1;
  }
  if (pid == 0) {
    setpgid(0, 0);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    int fo = open(out, O_WRONLY | O_CREAT | (err ? O_TRUNC : O_APPEND), 0666);
    int fe = err ? open(err, O_WRONLY | O_CREAT | O_TRUNC, 0666) : fo;
    int fi = open("/dev/null", O_RDONLY);
    if (fo < 0 || fe < 0 || fi < 0) _exit(126);
    dup2(fi, 0);
    dup2(fo, 1);
    dup2(fe, 2);
    execv(self, argv);
    _exit(127);
  }
  setpgid(pid, pid);
  return pid;
}

/* Returns the path dir/name in buf. */
static const char *exec_path(char *buf, size_t sz, const char *dir, const char *name) {
  snprintf(buf, sz, "%s/%s", dir, name);
  return buf;
}

/* Returns 0 after starting `tcpa run` of run r in slot s. */
static int exec_start(exec_slot *s, regress_run *r, const regress_exec_opts *o) {
  char out[4200], err[4200];
  char **argv = regress_exec_argv(r);
  exec_path(out, sizeof out, r->dir, "stdout.txt");
  exec_path(err, sizeof err, r->dir, "stderr.txt");
  s->pid = exec_spawn(o->self, argv, out, err);
  regress_exec_argv_free(argv);
  if (s->pid < 0) {
    s->pid = 0;
    return -1;
  }
  s->start = exec_now();
  s->run_start = s->start;
  int t = r->timeout ? r->timeout : o->timeout;
  s->deadline = s->start + t;
  s->timed_out = 0;
  return 0;
}

/* Prints the line of a finished run on o->log. */
static void exec_report_line(const regress_run *r, size_t done, size_t total, const regress_exec_opts *o) {
  char *sig = regress_signature_text(&r->sig);
  fprintf(o->log, "[%zu/%zu] %-7s %6.1fs  seed %-10" PRIu64 " %s%s%s%s%s\n", done, total,
          regress_verdict_name(r->verdict), r->seconds, r->seed, r->id, *sig ? "  -- " : "", sig,
          r->message && (r->verdict == REGRESS_NOFIT || !r->ok) ? "  -- " : "",
          r->message && (r->verdict == REGRESS_NOFIT || !r->ok) ? r->message : "");
  fflush(o->log);
  free(sig);
}

/* Judges the run of slot s, whose child ended with wait status st (the
 * slot is then free). */
static void exec_finished(exec_slot *s, int st, regress_list *l, const regress_exec_opts *o) {
  regress_run *r = &l->v[s->run];
  double now = exec_now();
  s->pid = 0;
  s->x.timed_out = s->timed_out;
  s->x.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  s->x.term_signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
  s->x.seconds = now - s->run_start;
  regress_verdict_judge(r, &s->x);
  if (!o->time_inst) r->inst_seconds = -1;
}

/* Prints a heartbeat on o->log (when no run has finished for a while and
 * no progress line is drawn): the runs done, the elapsed time, how many
 * are running and the longest-running one with its live log. */
static void exec_heartbeat(const exec_slot *slots, const regress_list *l, size_t done, double elapsed,
                           const regress_exec_opts *o) {
  const exec_slot *longest = NULL;
  int running = 0;
  for (int i = 0; i < o->jobs; i++) {
    if (!slots[i].pid) continue;
    running++;
    if (!longest || slots[i].run_start < longest->run_start) longest = &slots[i];
  }
  if (!longest) return;
  char d[32], e[32];
  const regress_run *r = &l->v[longest->run];
  fprintf(o->log, "[%zu/%zu] still running, %s: %d run%s; the longest %s for %s (live log: %s/stderr.txt)\n", done,
          l->n, step_duration(elapsed, d, sizeof d), running, running == 1 ? "" : "s", r->id,
          step_duration(exec_now() - longest->run_start, e, sizeof e), r->dir);
  fflush(o->log);
}

/* Redraws the progress line on stderr. */
static void exec_progress(size_t done, size_t total, int bad, double elapsed) {
  char eta[32] = "?:??";
  if (done > 0) {
    long rest = (long)(elapsed / (double)done * (double)(total - done) + 0.5);
    snprintf(eta, sizeof eta, "%ld:%02ld", rest / 60, rest % 60);
  }
  fprintf(stderr, "\r\033[K[%zu/%zu] %d fail  eta %s", done, total, bad, eta);
  fflush(stderr);
}

/* Kills every running child's group and reaps them. */
static void exec_kill_all(exec_slot *slots, int n) {
  for (int i = 0; i < n; i++)
    if (slots[i].pid > 0) {
      kill(-slots[i].pid, SIGKILL);
      kill(slots[i].pid, SIGKILL);
      waitpid(slots[i].pid, NULL, 0);
      slots[i].pid = 0;
    }
}

int regress_exec_all(regress_list *l, const regress_exec_opts *o) {
  exec_slot *slots = calloc((size_t)o->jobs, sizeof *slots);
  if (!slots) return -1;
  struct sigaction sa = {0}, old_int, old_term;
  sa.sa_handler = exec_on_signal;
  sigemptyset(&sa.sa_mask);
  exec_stop = 0;
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  size_t next = 0, done = 0;
  int bad = 0, rc = 0, busy = 0;
  double t0 = exec_now(), last_draw = 0, last_news = t0;
  int beat = step_heartbeat_seconds(0);
  while ((next < l->n || busy) && !exec_stop && !rc) {
    for (int i = 0; i < o->jobs && next < l->n; i++) {
      if (slots[i].pid) continue;
      regress_run *r = &l->v[next];
      exec_mkdir_p(r->dir);
      exec_empty_dir(r->dir);
      slots[i].run = next++;
      if (exec_start(&slots[i], r, o) != 0) {
        rc = -1;
        break;
      }
      busy++;
    }
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
      for (int i = 0; i < o->jobs; i++) {
        if (slots[i].pid != pid) continue;
        exec_finished(&slots[i], st, l, o);
        busy--;
        regress_run *r = &l->v[slots[i].run];
        done++;
        bad += !r->ok;
        if (o->progress) fputs("\r\033[K", stderr);
        exec_report_line(r, done, l->n, o);
        last_draw = 0;
        last_news = exec_now();
        break;
      }
    double now = exec_now();
    for (int i = 0; i < o->jobs; i++)
      if (slots[i].pid && now > slots[i].deadline && !slots[i].timed_out) {
        slots[i].timed_out = 1;
        kill(-slots[i].pid, SIGKILL);
        kill(slots[i].pid, SIGKILL);
      }
    if (o->progress && now - last_draw > 0.25) {
      exec_progress(done, l->n, bad, now - t0);
      last_draw = now;
    }
    if (!o->progress && busy && now - last_news >= beat) {
      exec_heartbeat(slots, l, done, now - t0, o);
      last_news = now;
    }
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
  }
  if (exec_stop) {
    exec_kill_all(slots, o->jobs);
    fprintf(stderr, "%stcpa regress: interrupted (signal %d); %zu of %zu runs done\n",
            o->progress ? "\r\033[K" : "", (int)exec_stop, done, l->n);
    rc = -1;
  } else if (rc) {
    exec_kill_all(slots, o->jobs);
  } else if (o->progress) {
    exec_progress(done, l->n, bad, exec_now() - t0);
    fputs("\n", stderr);
  }
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  free(slots);
  return rc;
}
