/* covers: docs/user-guide.md "Progress of long steps" */
/*
 * test_step.c: table-driven tests of a long step run as a child with a
 * heartbeat (common/step.c, docs/user-guide.md "Progress of long
 * steps"): the durations as printed, the exit status of the child, its
 * output appended to the log, its environment, and the heartbeats: one
 * per interval, each with the elapsed time and the live log's path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "step.h"
#include "test.h"

/* One duration and its text. */
static const struct {
  double seconds;
  const char *want;
} durations[] = {{0, "0s"}, {0.4, "0s"}, {0.6, "1s"}, {59.4, "59s"}, {59.6, "1m00s"}, {284, "4m44s"}, {3725, "62m05s"}};

/* One child: its shell command, the heartbeat interval, and what must
 * come out (exit status, the log's text, heartbeat lines at least and at
 * most). */
typedef struct {
  const char *sh;
  int every;
  int status;
  const char *log;
  int beats_min, beats_max;
} step_case;

static const step_case cases[] = {
    {"echo out; echo err >&2", 5, 0, "out\nerr\n", 0, 0},
    {"exit 3", 5, 3, "", 0, 0},
    {"echo $STEP_TEST_VAR", 5, 0, "forty-two\n", 0, 0},
    {"sleep 2.5; echo done", 1, 0, "done\n", 2, 3},
    {"kill -9 $$", 5, -1, "", 0, 0},
};

/* Returns the malloc'ed text of path ("" when missing). */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  char *t = calloc(1, 65536);
  if (f && t) t[fread(t, 1, 65535, f)] = '\0';
  if (f) fclose(f);
  return t;
}

/* Returns the number of lines of text that start with prefix and name live. */
static int beats(const char *text, const char *prefix, const char *live) {
  int n = 0;
  for (const char *p = text; p && *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    char line[1024];
    snprintf(line, sizeof line, "%.*s", (int)len, p);
    if (!strncmp(line, prefix, strlen(prefix)) && strstr(line, live)) n++;
    p = nl ? nl + 1 : NULL;
  }
  return n;
}

/* Runs one case with its log and heartbeats in the directory dir. */
static void test_case(const step_case *c, const char *dir, int k) {
  char log[512], live[512], hb[512];
  snprintf(log, sizeof log, "%s/step%d.log", dir, k);
  snprintf(live, sizeof live, "%s/live%d.txt", dir, k);
  snprintf(hb, sizeof hb, "%s/beats%d.txt", dir, k);
  FILE *progress = fopen(hb, "w");
  const char *env[] = {"STEP_TEST_VAR", "forty-two", NULL};
  char *argv[] = {"sh", "-c", (char *)c->sh, NULL};
  step_opts s = {"test step", log, live, env, c->every, progress};
  double secs = -1;
  int st = step_run(argv, &s, &secs);
  fclose(progress);
  char *text = slurp(log), *b = slurp(hb);
  int n = beats(b, "tcpa: test step: still running, ", live);
  TEST_CHECK(st == c->status, "'%s': exit status %d (want %d)", c->sh, st, c->status);
  TEST_CHECK(!strcmp(text, c->log), "'%s': log holds '%s' (want '%s')", c->sh, text, c->log);
  TEST_CHECK(n >= c->beats_min && n <= c->beats_max && n == beats(b, "tcpa:", ""),
             "'%s': %d heartbeats naming the live log (want %d to %d, nothing else)", c->sh, n, c->beats_min,
             c->beats_max);
  TEST_CHECK(secs >= 0 && (c->beats_min == 0 || secs >= 2.4), "'%s': wall time %.2f s measured", c->sh, secs);
  if (c->beats_min >= 2)
    TEST_CHECK(strstr(b, "still running, 1s; live log: ") && strstr(b, "still running, 2s; live log: "),
               "'%s': the heartbeats count the elapsed time (1s, 2s): %s", c->sh, b);
  free(text);
  free(b);
}

int main(void) {
  char d[32];
  for (size_t i = 0; i < sizeof durations / sizeof *durations; i++)
    TEST_CHECK(!strcmp(step_duration(durations[i].seconds, d, sizeof d), durations[i].want),
               "%.1f s is '%s' (want '%s')", durations[i].seconds, d, durations[i].want);
  char dir[] = "/tmp/test_step-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) test_case(&cases[i], dir, (int)i);
  /* a missing program: 127, its message in the log */
  char log[600], *argv[] = {"/nonexistent/tcpa-no-such-tool", NULL};
  snprintf(log, sizeof log, "%s/missing.log", dir);
  step_opts s = {"missing", log, NULL, NULL, 5, NULL};
  TEST_CHECK(step_run(argv, &s, NULL) == 127, "a program that cannot be executed is exit 127");
  /* $TCPA_HEARTBEAT sets the interval when the step gives none */
  char hb[600];
  snprintf(hb, sizeof hb, "%s/env-beats.txt", dir);
  FILE *progress = fopen(hb, "w");
  char *sl[] = {"sleep", "1.5", NULL};
  setenv("TCPA_HEARTBEAT", "1", 1);
  step_opts e = {"env step", log, NULL, NULL, 0, progress};
  step_run(sl, &e, NULL);
  fclose(progress);
  char *b = slurp(hb);
  TEST_CHECK(beats(b, "tcpa: env step: still running, 1s; live log: ", log) == 1,
             "TCPA_HEARTBEAT=1: one heartbeat in 1.5 s naming the log as the live log: '%s'", b);
  free(b);
  char cmd[100];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd)) return 1;
  return test_done();
}
