/*
 * step.c: a long step as a child process with a heartbeat (step.h).
 *
 * The child gets /dev/null as its input and the log (appended) as its
 * output; the parent polls it every 100 ms (waitpid WNOHANG) and, every
 * `every` seconds of wall time, prints one line with the elapsed time and
 * the path of the live log, so that a user watching a 5-minute Verilator
 * build or Yosys run knows it is alive and where to look
 * (docs/user-guide.md "Progress of long steps").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "step.h"

double step_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

char *step_duration(double seconds, char *buf, size_t size) {
  long s = (long)(seconds + 0.5);
  if (s < 60) snprintf(buf, size, "%lds", s);
  else snprintf(buf, size, "%ldm%02lds", s / 60, s % 60);
  return buf;
}

/* In the child: redirects its input and output as s says, sets its
 * environment and executes argv; never returns. */
static void step_child(char *const *argv, const step_opts *s) {
  int fi = open("/dev/null", O_RDONLY);
  if (fi < 0) _exit(126);
  dup2(fi, 0);
  if (s->log) {
    int fd = open(s->log, O_WRONLY | O_CREAT | O_APPEND, 0666);
    if (fd < 0) _exit(126);
    dup2(fd, 1);
    dup2(fd, 2);
  } else {
    dup2(2, 1);
  }
  for (int i = 0; s->env && s->env[i]; i += 2) setenv(s->env[i], s->env[i + 1], 1);
  execvp(argv[0], argv);
  _exit(127);
}

int step_heartbeat_seconds(int every) {
  const char *e = getenv("TCPA_HEARTBEAT");
  long v = e && *e ? strtol(e, NULL, 10) : 0;
  if (every > 0) return every;
  return v >= 1 && v <= 3600 ? (int)v : 30;
}

int step_run(char *const *argv, const step_opts *s, double *seconds) {
  double t0 = step_now();
  if (seconds) *seconds = 0;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) step_child(argv, s);
  int every = step_heartbeat_seconds(s->every), st = 0;
  const char *live = s->live ? s->live : s->log ? s->log : "(this output)";
  double next = t0 + every;
  for (;;) {
    pid_t w = waitpid(pid, &st, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return -1;
    double now = step_now();
    if (s->progress && now >= next) {
      char d[32];
      fprintf(s->progress, "tcpa: %s: still running, %s; live log: %s\n", s->what, step_duration(now - t0, d, sizeof d),
              live);
      fflush(s->progress);
      next += every;
    }
    struct timespec nap = {0, 100 * 1000 * 1000};
    nanosleep(&nap, NULL);
  }
  if (seconds) *seconds = step_now() - t0;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
