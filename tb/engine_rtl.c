/*
 * engine_rtl.c: the `rtl` engine: the configuration stream on the Verilog
 * RTL under Verilator, through its harness `tcpa-rtl` (tb/rtl_main.cpp,
 * docs/rtl.md) run as a subprocess:
 *
 *   tcpa-rtl WORK/config.bin --trace T [--fst F [--fst-window A:B]] --max-cycles N
 *            --dump-banks WORK/banks --dump-depth D
 *
 * Finding the binary: engine_harness.c ($TCPA_RTL, or the harness cache:
 * the harness of the run's effective configuration and the current
 * sources, built when missing; docs/rtl.md "Harness cache").
 *
 * After the run: the trace gives the done cycles, the last output bank
 * write and the faults; the bank dumps (<side>_<row>_<col>_<bank>.txt, one
 * `0x%08x` word per line) give the outputs. The dumps hold the words up to
 * the highest address an output is placed at (engine_outputs_depth): the
 * harness reads each address through its debug port at the cost of a
 * cycle, and a 4x4 run's outputs use a few of the 1024.
 *
 * Live runs (engine_rtl_start, for the lockstep driver of `cosim`): the
 * harness runs in its own process group with `--trace-bin /dev/fd/3`, its
 * events as binary records (docs/trace.md "Binary event stream"), fd 3
 * the write end of a pipe (set to 1 MB: the harness runs at most that far
 * ahead of its reader, a few hundred cycles of a 4x4 array) whose read end
 * is returned.
 * engine_rtl_finish either waits for it or stops it: closes the read end
 * (its next write fails), sends SIGTERM to its group (SIGKILL after 10 s)
 * and reaps it; the harness writes how many cycles it ran into its results
 * file (--results WORK/rtl-results, key=value lines, docs/rtl.md "Results
 * file"), which is read back as data.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "trace.h"

#define ENGINE_PATH 4096
/* The capacity of the pipe of a live run and of its reader's buffer: the
 * harness writes each cycle's records at once and does not wait for the
 * checker while the pipe has room; the checker reads many cycles a time
 * (tb/engine_cosim.c naps while the pipe is empty rather than waking at
 * each write), and the harness runs at most 1 MB of records (about 8700
 * events) ahead of it (docs/trace.md "Lockstep protocol"). */
#define ENGINE_RTL_PIPE (1 << 20)
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031 /* Linux: fcntl to set a pipe's capacity */
#endif

int engine_rtl_locate(const arch_config *arch, const char *arch_path, char *bin, size_t binsz,
                      char *msg, size_t msgsz) {
  return engine_harness_locate(&engine_harness_rtl, arch, arch_path, bin, binsz, msg, msgsz);
}

/* Bank dumps of one run, loaded on demand. */
typedef struct {
  const char *dir;
  const arch_config *arch;
  uint32_t **bank;  /* [(row*cols+col)*4+side)*banks+bank]: depth words, or NULL */
  char *tried;
} engine_rtl_banks;

/* Reads one word of the RTL's bank dumps (engine_bank_fn). */
static int engine_rtl_bank(void *ctx, int row, int col, int side, int bank, uint32_t addr, uint32_t *v) {
  engine_rtl_banks *b = ctx;
  const arch_config *a = b->arch;
  if (row < 0 || row >= a->rows || col < 0 || col >= a->cols || side < 0 || side > 3 || bank < 0 ||
      bank >= a->banks || addr >= (uint32_t)a->bank_depth)
    return -1;
  size_t i = (((size_t)row * (size_t)a->cols + (size_t)col) * 4 + (size_t)side) * (size_t)a->banks + (size_t)bank;
  if (!b->tried[i]) {
    b->tried[i] = 1;
    char path[ENGINE_PATH + 64];
    snprintf(path, sizeof path, "%s/%c_%d_%d_%d.txt", b->dir, "nesw"[side], row, col, bank);
    FILE *f = fopen(path, "r");
    if (f && (b->bank[i] = calloc((size_t)a->bank_depth, sizeof **b->bank))) {
      unsigned x;
      for (int k = 0; k < a->bank_depth && fscanf(f, "%x", &x) == 1; k++) b->bank[i][k] = x;
    }
    if (f) fclose(f);
  }
  if (!b->bank[i]) return -1;
  *v = b->bank[i][addr];
  return 0;
}

void engine_rtl_note(engine_result *r, const trace_event *e, uint64_t *count) {
  if (e->kind == TRACE_BANK && e->bank_write && e->cycle + 1 > r->cycles) r->cycles = e->cycle + 1;
  if (e->kind == TRACE_DONE) {
    r->done = 1;
    r->done_cycles = e->cycles;
  }
  if (e->kind == TRACE_FAULT && e->fault < TRACE_FAULT_COUNT) {
    count[e->fault]++;
    r->faults++;
  }
}

void engine_rtl_fault_text(engine_result *r, const uint64_t *count) {
  size_t len = 0;
  r->fault_text[0] = 0;
  for (int k = 0; k < TRACE_FAULT_COUNT; k++)
    if (count[k] && len < sizeof r->fault_text)
      len += (size_t)snprintf(r->fault_text + len, sizeof r->fault_text - len, "%s%s %llu", len ? ", " : "",
                              trace_fault_name((trace_fault_kind)k), (unsigned long long)count[k]);
}

/* Returns 0 after reading the RTL trace's done, last bank write and
 * faults into r; -1 with msg when it cannot be read or is malformed. */
static int engine_rtl_trace_scan(const char *path, engine_result *r, char *msg, size_t msgsz) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, msgsz, "%s: cannot read the RTL trace: %s", path, strerror(errno));
    return -1;
  }
  uint64_t count[TRACE_FAULT_COUNT] = {0};
  char *line = NULL, err[160];
  size_t cap = 0;
  long no = 0;
  int rc = 0;
  while (getline(&line, &cap, f) > 0) {
    trace_event e;
    no++;
    int k = trace_line_parse(line, &e, err, sizeof err);
    if (k == TRACE_LINE_ERROR) {
      snprintf(msg, msgsz, "%s:%ld: %s", path, no, err);
      rc = -1;
      break;
    }
    if (k == TRACE_LINE_EVENT) engine_rtl_note(r, &e, count);
  }
  free(line);
  fclose(f);
  engine_rtl_fault_text(r, count);
  return rc;
}

/* Returns 0 after reading the done, faults and bank writes of the RTL's
 * digest stream `path` (docs/trace.md "Digest stream": its digest records
 * skipped; a file starting with `#` is read as a text trace) into r; -1
 * with msg when it cannot be read or is malformed. */
static int engine_rtl_digest_scan(const char *path, engine_result *r, char *msg, size_t msgsz) {
  FILE *f = fopen(path, "rb");
  trace_bin_header h;
  trace_event e;
  uint64_t count[TRACE_FAULT_COUNT] = {0};
  char why[300] = "";
  int rc = 0;
  long no = 0;
  if (!f) {
    snprintf(msg, msgsz, "%s: cannot read the RTL's digest stream: %s", path, strerror(errno));
    return -1;
  }
  int c0 = getc(f);
  if (c0 == '#') { /* a text trace (a test's fake harness), read as --trace's */
    fclose(f);
    return engine_rtl_trace_scan(path, r, msg, msgsz);
  }
  ungetc(c0, f);
  if (fread(&h, sizeof h, 1, f) != 1 || trace_bin_header_check(&h, why, sizeof why) || !trace_bin_header_digest(&h)) {
    snprintf(msg, msgsz, "%s: not a digest stream%s%s", path, why[0] ? ": " : "", why[0] ? why : "");
    fclose(f);
    return -1;
  }
  for (size_t k; (k = fread(&e, 1, sizeof e, f)) > 0;) {
    no++;
    if (k < sizeof e) {
      snprintf(msg, msgsz, "%s: ends inside record %ld (%zu of %zu bytes)", path, no, k, sizeof e);
      rc = -1;
      break;
    }
    if ((int)e.kind == TRACE_DIGEST_KIND) continue;
    if (trace_bin_event_check(&e, why, sizeof why)) {
      snprintf(msg, msgsz, "%s: record %ld: %s", path, no, why);
      rc = -1;
      break;
    }
    engine_rtl_note(r, &e, count);
  }
  fclose(f);
  engine_rtl_fault_text(r, count);
  return rc;
}

/* Returns 0 after writing the stream of c to path; -1 with msg. */
static int engine_rtl_stream_write(const engine_config *c, const char *path, char *msg, size_t msgsz) {
  FILE *f = fopen(path, "wb");
  int bad = !f || fwrite(c->stream, 1, c->stream_len, f) != c->stream_len;
  if (f && fclose(f)) bad = 1;
  if (bad) snprintf(msg, msgsz, "%s: cannot write the stream: %s", path, strerror(errno));
  return bad ? -1 : 0;
}

int engine_rtl_run(const char *bin, const engine_config *c, const arch_config *arch, const engine_opts *o,
                   engine_result *r, char *msg, size_t msgsz) {
  if (engine_result_init(r, c)) {
    snprintf(msg, msgsz, "out of memory");
    return ENGINE_ERR_INPUT;
  }
  char stream[ENGINE_PATH + 32], banks[ENGINE_PATH + 32], trace[ENGINE_PATH + 32], log[ENGINE_PATH + 32],
      maxc[32], win[48], depth[16];
  snprintf(stream, sizeof stream, "%s/rtl-config.bin", o->work_dir);
  snprintf(banks, sizeof banks, "%s/rtl-banks", o->work_dir);
  snprintf(log, sizeof log, "%s/rtl.log", o->work_dir);
  snprintf(trace, sizeof trace, "%s", o->trace ? o->trace : "");
  if (!o->trace) snprintf(trace, sizeof trace, "%s/rtl.digest", o->work_dir); /* only what r needs */
  snprintf(maxc, sizeof maxc, "%llu", (unsigned long long)o->max_cycles);
  if (engine_rtl_stream_write(c, stream, msg, msgsz)) return ENGINE_ERR_INPUT;
  snprintf(depth, sizeof depth, "%" PRIu32, engine_outputs_depth(c));
  char *argv[18] = {(char *)bin, stream, o->trace ? "--trace" : "--trace-bin", trace, "--max-cycles", maxc,
                    "--dump-banks", banks, "--dump-depth", depth};
  int n = 10;
  if (!o->trace) argv[n++] = "--trace-mode", argv[n++] = "digest";
  if (o->fst) {
    argv[n++] = "--fst";
    argv[n++] = (char *)o->fst;
    if (o->fst_to >= 0) {
      snprintf(win, sizeof win, "%lld:%lld", (long long)(o->fst_from < 0 ? 0 : o->fst_from),
               (long long)o->fst_to);
      argv[n++] = "--fst-window";
      argv[n++] = win;
    }
  }
  argv[n] = NULL;
  int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  int rc = engine_harness_spawn(argv, fd, fd);
  if (fd >= 0) close(fd);
  if (rc < 0 || rc >= 2) {
    char last[600];
    engine_harness_last_line(log, last, sizeof last);
    snprintf(msg, msgsz, "%s exited with status %d%s%s", bin, rc, last[0] ? ": " : "", last);
    return ENGINE_ERR_INPUT;
  }
  if (o->trace ? engine_rtl_trace_scan(trace, r, msg, msgsz) : engine_rtl_digest_scan(trace, r, msg, msgsz))
    return ENGINE_ERR_INPUT;
  return engine_rtl_gather(banks, c, arch, r, msg, msgsz);
}

int engine_rtl_gather(const char *banks, const engine_config *c, const arch_config *arch,
                      engine_result *r, char *msg, size_t msgsz) {
  size_t nb = (size_t)arch->rows * (size_t)arch->cols * 4 * (size_t)arch->banks;
  engine_rtl_banks b = {banks, arch, calloc(nb + 1, sizeof(uint32_t *)), calloc(nb + 1, 1)};
  int st = ENGINE_OK;
  if (!b.bank || !b.tried) {
    snprintf(msg, msgsz, "out of memory");
    st = ENGINE_ERR_INPUT;
  } else {
    engine_outputs_gather(c, r, engine_rtl_bank, &b);
  }
  for (size_t i = 0; b.bank && i < nb; i++) free(b.bank[i]);
  free(b.bank);
  free(b.tried);
  return st;
}

/* Writes into buf the path of the results file of the live run whose log
 * is `log` (WORK/rtl.log): WORK/rtl-results. */
static void engine_rtl_results_path(const char *log, char *buf, size_t sz) {
  const char *slash = strrchr(log, '/');
  int dir = slash ? (int)(slash - log) : 1;
  snprintf(buf, sz, "%.*s/rtl-results", dir, slash ? log : ".");
}

/* Returns the `cycles` of the harness's results file (docs/rtl.md "Results
 * file": the cycles it clocked), 0 when the file or the key is missing. */
static uint64_t engine_rtl_results_cycles(const char *path) {
  FILE *f = fopen(path, "r");
  char line[512];
  uint64_t n = 0;
  while (f && fgets(line, sizeof line, f)) {
    unsigned long long v;
    if (sscanf(line, "cycles=%llu", &v) == 1) n = v;
  }
  if (f) fclose(f);
  return n;
}

int engine_rtl_start(const char *bin, const engine_config *c, const engine_opts *o, int digest,
                     engine_rtl_live *h, char *msg, size_t msgsz) {
  memset(h, 0, sizeof *h);
  h->pid = -1;
  char stream[ENGINE_PATH + 32], maxc[32], depth[16];
  snprintf(stream, sizeof stream, "%s/rtl-config.bin", o->work_dir);
  snprintf(h->banks, sizeof h->banks, "%s/rtl-banks", o->work_dir);
  snprintf(h->log, sizeof h->log, "%s/rtl.log", o->work_dir);
  snprintf(h->bin, sizeof h->bin, "%s", bin);
  snprintf(maxc, sizeof maxc, "%llu", (unsigned long long)o->max_cycles);
  snprintf(depth, sizeof depth, "%" PRIu32, engine_outputs_depth(c));
  if (engine_rtl_stream_write(c, stream, msg, msgsz)) return ENGINE_ERR_INPUT;
  char results[ENGINE_PATH + 32];
  engine_rtl_results_path(h->log, results, sizeof results);
  char *argv[] = {(char *)bin, stream, "--trace-bin", "/dev/fd/3", "--max-cycles", maxc, "--dump-banks", h->banks,
                  "--dump-depth", depth, "--results", results, digest ? "--trace-mode" : NULL, "digest", NULL};
  int p[2], logfd = open(h->log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (logfd < 0 || pipe(p) != 0) {
    snprintf(msg, msgsz, "cannot start %s: %s", bin, strerror(errno));
    if (logfd >= 0) close(logfd);
    return ENGINE_ERR_INPUT;
  }
  fcntl(p[0], F_SETPIPE_SZ, ENGINE_RTL_PIPE); /* best effort: keep the harness close */
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    dup2(logfd, 1);
    dup2(logfd, 2);
    if (p[1] != 3) {
      dup2(p[1], 3);
      close(p[1]);
    }
    if (p[0] != 3) close(p[0]);
    if (logfd != 3) close(logfd);
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  close(p[1]);
  close(logfd);
  if (pid < 0 || !(h->trace = fdopen(p[0], "rb")) || setvbuf(h->trace, NULL, _IOFBF, ENGINE_RTL_PIPE)) {
    snprintf(msg, msgsz, "cannot start %s: %s", bin, strerror(errno));
    close(p[0]);
    if (pid > 0) engine_rtl_finish(h, 1, NULL);
    return ENGINE_ERR_INPUT;
  }
  setpgid(pid, pid); /* also here: the child may not have run yet */
  h->pid = pid;
  return ENGINE_OK;
}

/* Returns the harness's exit status after waiting for pid (kill: SIGTERM
 * to its group first, SIGKILL after 10 s); -1 when it cannot be reaped. */
static int engine_rtl_reap(pid_t pid, int kill_it) {
  int status = 0;
  if (kill_it) kill(-pid, SIGTERM);
  for (int waited = 0;; waited++) {
    pid_t r = waitpid(pid, &status, kill_it ? WNOHANG : 0);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) return -1;
    if (r == 0) {
      if (waited == 1000) kill(-pid, SIGKILL);
      struct timespec ts = {0, 10000000};
      nanosleep(&ts, NULL);
    }
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int engine_rtl_finish(engine_rtl_live *h, int stop, uint64_t *ran) {
  if (h->trace) fclose(h->trace);
  h->trace = NULL;
  if (ran) *ran = 0;
  if (h->pid < 0) return -1;
  int rc = engine_rtl_reap(h->pid, stop);
  h->pid = -1;
  char results[ENGINE_PATH + 32];
  engine_rtl_results_path(h->log, results, sizeof results);
  if (ran) *ran = engine_rtl_results_cycles(results);
  return rc;
}

void engine_rtl_last_log(const engine_rtl_live *h, char *buf, size_t sz) {
  engine_harness_last_line(h->log, buf, sz);
}
