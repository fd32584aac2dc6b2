/*
 * step.h: one step of a command that may take minutes (a lint, a
 * synthesis, a harness build, a regression): a child process whose output
 * goes to a log, with a heartbeat naming the elapsed time and the live log
 * (the file that grows while it runs), so that no long step is silent
 * (docs/user-guide.md "Progress of long steps").
 */
#ifndef TCPA_STEP_H
#define TCPA_STEP_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
  const char *what;       /* names the step in heartbeats: "lint", "synthesis" */
  const char *log;        /* stdout and stderr of the child, appended (NULL:
                             stdout to this process's stderr, stderr kept) */
  const char *live;       /* the file named as live log (NULL: log) */
  const char *const *env; /* NAME, VALUE pairs set in the child, NULL-ended */
  int every;              /* seconds between heartbeats (0: $TCPA_HEARTBEAT,
                             else 30) */
  FILE *progress;         /* where heartbeats go (NULL: none) */
} step_opts;

/* Returns the exit status of argv (argv[0] looked up in PATH) run as step
 * s, 127 when it cannot be executed, or -1 when it cannot start or is
 * killed by a signal; every s->every seconds it prints `tcpa: WHAT: still
 * running, 1m30s; live log: LIVE` on s->progress. Sets *seconds (when not
 * NULL) to its wall time. */
int step_run(char *const *argv, const step_opts *s, double *seconds);

/* Returns the seconds between heartbeats: every when > 0, else
 * $TCPA_HEARTBEAT (1 to 3600: tests shorten it), else 30. */
int step_heartbeat_seconds(int every);

/* Returns buf holding a duration as "42s" or "4m44s". */
char *step_duration(double seconds, char *buf, size_t size);

/* Returns the seconds of the monotonic clock. */
double step_now(void);

#endif
