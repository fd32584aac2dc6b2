/*
 * job.c: `tcpa run JOB.ini`, several programs at once, each on its own
 * region (docs/user-guide.md "Jobs", docs/timing.md section 11).
 *
 * A job file lists runs in `[run NAME]` sections, in stream order: each a
 * program with its parameters, region (`pes = RxC@ROW,COL`), tiled
 * indices, input seed, global controller and start cycle. Each run is
 * prepared as `tcpa run PROGRAM.pla` prepares one (run_prepare: parse,
 * check, parameters, inputs, reference, configuration stream, all with
 * the same options), its GC and START packets on its own GC.
 *
 * Engine `ref` stops there (every reference ran). Engine `model` runs each
 * program alone on the C model (engine_model_run, as `tcpa run`), then
 * all the streams together from their start cycles (model_new_multi), and
 * checks that each program's outputs equal its reference and that its
 * region's own cycles equal its done cycles alone (isolation). --out-dir
 * gets each run's outputs (NAME/ARRAY.txt, one value a line in the
 * reference's order) and stream (NAME/config.bin), the run's trace
 * (model.trace) and summary.json with the per-region cycles.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <unistd.h>

#include "diag.h"
#include "engine_flow.h"
#include "json.h"
#include "model.h"
#include "run.h"
#include "trace.h"

#define JOB_MAX 4      /* runs: one per global controller */
#define JOB_LINE 512
#define JOB_MAX_IN 16  /* in and feed lines of one run */
#define JOB_MAX_CYCLES_MIN 100000ull

/* One `[run NAME]` section. */
typedef struct {
  char name[64];
  char program[JOB_LINE];
  char params[JOB_LINE]; /* NAME=VALUE ... */
  char pes[64];
  char map[64];
  char start[64]; /* a cycle, `auto` or `auto+N` */
  uint64_t seed;
  int gc;         /* -1: the run's index */
  int line;       /* of its header, for messages */
  int nin;        /* `in = ARRAY=FILE` and `feed = ARRAY=RUN.OUTPUT`, in order */
  char in[JOB_MAX_IN][JOB_LINE];
  int in_feed[JOB_MAX_IN]; /* 1: a feed */
  int in_line[JOB_MAX_IN];
  char in_path[JOB_MAX_IN][JOB_LINE]; /* a feed's file, written by job_feeds */
} job_run;

typedef struct {
  const char *path;
  job_run run[JOB_MAX];
  int n;
  char arch[JOB_LINE];
} job_file;

/* Returns s with leading and trailing blanks removed (in place). */
static char *job_trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r')) s[--n] = 0;
  return s;
}

/* Returns 0 after storing key = value of the current section (r NULL:
 * before any section); -1 after printing FILE:LINE: why. */
static int job_key(job_file *j, job_run *r, const char *key, const char *val, int line) {
  if (!r) {
    if (!strcmp(key, "arch")) return snprintf(j->arch, sizeof j->arch, "%s", val) < 0 ? -1 : 0;
    diag_error_plain("%s:%d: '%s' before the first [run NAME] (only arch = FILE goes there)", j->path, line, key);
    return -1;
  }
  char *dst = !strcmp(key, "program") ? r->program : !strcmp(key, "pes") ? r->pes : !strcmp(key, "map") ? r->map
              : !strcmp(key, "start") ? r->start : NULL;
  size_t cap = dst == r->pes || dst == r->map || dst == r->start ? 64 : JOB_LINE;
  if (dst) {
    snprintf(dst, cap, "%s", val);
    return 0;
  }
  if (!strcmp(key, "in") || !strcmp(key, "feed")) {
    const char *eq = strchr(val, '=');
    if (!eq || eq == val || !eq[1] || r->nin == JOB_MAX_IN) {
      diag_error_plain("%s:%d: %s = '%s': expected %s%s", j->path, line, key, val,
                       key[0] == 'i' ? "ARRAY=FILE" : "ARRAY=RUN.OUTPUT",
                       r->nin == JOB_MAX_IN ? " (too many for one run)" : "");
      return -1;
    }
    r->in_feed[r->nin] = key[0] == 'f';
    r->in_line[r->nin] = line;
    snprintf(r->in[r->nin++], JOB_LINE, "%s", val);
    return 0;
  }
  if (!strcmp(key, "param")) {
    size_t n = strlen(r->params);
    snprintf(r->params + n, sizeof r->params - n, "%s%s", n ? " " : "", val);
    return 0;
  }
  int64_t v;
  if (!strcmp(key, "seed") || !strcmp(key, "gc")) {
    int gc = key[0] == 'g';
    if (run_int_parse(val, 0, gc ? 3 : INT32_MAX, &v)) {
      diag_error_plain("%s:%d: %s = '%s': expected %s", j->path, line, key, val,
                       gc ? "a global controller 0..3" : "a seed 0 or more");
      return -1;
    }
    if (gc) r->gc = (int)v;
    else r->seed = (uint64_t)v;
    return 0;
  }
  diag_error_plain("%s:%d: unknown key '%s' (program, param, pes, map, start, seed, gc, in, feed)", j->path, line, key);
  return -1;
}

/* Returns 0 after reading the job file j->path; -1 after printing why. */
static int job_read(job_file *j) {
  FILE *f = fopen(j->path, "r");
  if (!f) {
    diag_error_plain("%s: cannot read the job: %s", j->path, strerror(errno));
    return -1;
  }
  char buf[JOB_LINE];
  int line = 0, bad = 0;
  job_run *r = NULL;
  while (!bad && fgets(buf, sizeof buf, f)) {
    line++;
    char *s = job_trim(buf);
    if (!*s || *s == '#' || *s == ';') continue;
    if (*s == '[') {
      char name[64] = "";
      if (sscanf(s, "[run %63[^]]]", name) != 1 || !*job_trim(name)) {
        diag_error_plain("%s:%d: expected a section [run NAME], got '%s'", j->path, line, s);
        bad = 1;
      } else if (j->n == JOB_MAX) {
        diag_error_plain("%s:%d: more than %d runs (one per global controller)", j->path, line, JOB_MAX);
        bad = 1;
      } else {
        r = &j->run[j->n++];
        memset(r, 0, sizeof *r);
        snprintf(r->name, sizeof r->name, "%s", job_trim(name));
        snprintf(r->pes, sizeof r->pes, "1x1");
        snprintf(r->start, sizeof r->start, "auto");
        r->seed = 1, r->gc = -1, r->line = line;
        for (int k = 0; k + 1 < j->n; k++)
          if (!strcmp(j->run[k].name, r->name)) {
            diag_error_plain("%s:%d: a second run named '%s'", j->path, line, r->name);
            bad = 1;
          }
      }
      continue;
    }
    char *eq = strchr(s, '=');
    if (!eq) {
      diag_error_plain("%s:%d: expected KEY = VALUE, got '%s'", j->path, line, s);
      bad = 1;
      continue;
    }
    *eq = 0;
    if (job_key(j, r, job_trim(s), job_trim(eq + 1), line)) bad = 1;
  }
  fclose(f);
  if (!bad && !j->n) {
    diag_error_plain("%s: no [run NAME] section", j->path);
    bad = 1;
  }
  for (int k = 0; k < j->n && !bad; k++)
    if (!j->run[k].program[0]) {
      diag_error_plain("%s:%d: run '%s' has no program = FILE", j->path, j->run[k].line, j->run[k].name);
      bad = 1;
    }
  return bad ? -1 : 0;
}

/* Returns 0 after filling the request of run r of the job (from the
 * command line's o: engine, architecture unless the job names one);
 * -1 after printing why. The pairs point into r. */
static int job_opts(const job_file *j, job_run *r, int k, const run_opts *o, run_opts *ro) {
  *ro = *o;
  ro->program = r->program;
  ro->out_dir = NULL;
  ro->fst = NULL;
  ro->nin = 0;
  ro->nparam = 0;
  ro->seed = r->seed;
  ro->map = r->map[0] ? r->map : NULL;
  if (j->arch[0]) ro->arch = j->arch;
  ro->inst.gc = r->gc >= 0 ? r->gc : k;
  for (char *save = NULL, *t = strtok_r(r->params, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
    char *eq = strchr(t, '=');
    if (!eq || eq == t || ro->nparam == RUN_MAX_OPTS) {
      diag_error_plain("%s:%d: run '%s': param '%s' is not NAME=VALUE", j->path, r->line, r->name, t);
      return -1;
    }
    *eq = 0;
    ro->param[ro->nparam++] = (run_pair){t, t, eq + 1};
  }
  for (int i = 0; i < r->nin; i++) {
    char *eq = strchr(r->in[i], '=');
    *eq = 0; /* job_key checked there is one */
    ro->in[ro->nin++] = (run_pair){r->in[i], r->in[i], r->in_feed[i] ? r->in_path[i] : eq + 1};
  }
  int at_r = 0, at_c = 0; /* cli_opt_pes_text's grammar, here without the CLI's library */
  char x = 0, tail[64] = "";
  int n = sscanf(r->pes, "%dx%d%63s", &ro->pes_r, &ro->pes_c, tail);
  if (n == 3 && sscanf(tail, "@%d,%d%c", &at_r, &at_c, &x) != 2) n = 0;
  if (n < 2 || ro->pes_r < 1 || ro->pes_c < 1 || at_r < 0 || at_c < 0) {
    diag_error_plain("%s:%d: run '%s': pes = '%s' is not RxC or RxC@ROW,COL", j->path, r->line, r->name, r->pes);
    return -1;
  }
  ro->inst.row0 = at_r, ro->inst.col0 = at_c;
  return 0;
}

/* Returns 0 and the start cycle of stream k in *t (prev: stream k - 1's,
 * words: stream k's length in words): `auto` the earliest its loading
 * window allows, `auto+N` N cycles later, else the number; -1 after
 * printing why. */
static int job_start(const job_file *j, const job_run *r, int k, uint64_t prev, uint64_t words, uint64_t *t) {
  int64_t v = 0;
  if (!strncmp(r->start, "auto", 4)) {
    if (r->start[4] && (r->start[4] != '+' || run_int_parse(r->start + 5, 0, INT32_MAX, &v))) goto bad;
    *t = k == 0 ? 0 : prev + words + (uint64_t)v;
    return 0;
  }
  if (run_int_parse(r->start, 0, INT64_MAX / 4, &v)) goto bad;
  *t = (uint64_t)v;
  return 0;
bad:
  diag_error_plain("%s:%d: run '%s': start = '%s' is not a cycle, auto or auto+N", j->path, r->line, r->name,
                   r->start);
  return -1;
}

/* What became of one run of the job. */
typedef struct {
  run_prep prep;
  int prepared;
  uint64_t start;
  engine_result alone, beside;
  model_region_view region;
  size_t differ;   /* output elements beside the others that differ from the reference */
  int ok;
} job_out;

/* Returns 0 after writing run o's outputs beside the others into
 * DIR/NAME/ARRAY.txt and its stream, on its own GC, into
 * DIR/NAME/config.bin (for `tcpa-rtl S0.bin S1.bin@T ...`); -1 after
 * printing why. */
static int job_outputs_write(const char *dir, const job_run *r, const job_out *o) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, r->name);
  if (run_mkdir_p(path)) return -1;
  snprintf(path, sizeof path, "%s/%s/config.bin", dir, r->name);
  FILE *s = fopen(path, "wb");
  if (!s || fwrite(o->prep.c.stream, 1, o->prep.c.stream_len, s) != o->prep.c.stream_len || fclose(s)) {
    diag_error_plain("%s: %s", path, strerror(errno));
    return -1;
  }
  const ast_program *p = o->prep.p;
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind == AST_ARRAY_IN || !o->beside.out || !o->beside.out[a]) continue;
    snprintf(path, sizeof path, "%s/%s/%s.txt", dir, r->name, p->arrays[a].name);
    FILE *f = fopen(path, "w");
    if (!f) {
      diag_error_plain("%s: %s", path, strerror(errno));
      return -1;
    }
    for (size_t i = 0; i < o->prep.arrays[a].n; i++)
      fprintf(f, "%d\n", o->beside.seen[a][i] ? o->beside.out[a][i] : RUN_UNPLACED);
    fclose(f);
  }
  return 0;
}

/* Returns 0 after writing DIR/summary.json of the job; -1 after an
 * error. */
static int job_summary_write(const char *dir, const job_file *j, const run_opts *o, const job_out *out,
                             const char *verdict, uint64_t cycles) {
  char path[4200];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    diag_error_plain("%s: %s", path, strerror(errno));
    return -1;
  }
  json_writer w = json_writer_make(f);
  json_writer_begin_object(&w, NULL);
  json_writer_string(&w, "job", j->path);
  json_writer_string(&w, "engine", run_engine_names[o->engine]);
  json_writer_string(&w, "verdict", verdict);
  json_writer_uint(&w, "cycles", cycles);
  json_writer_begin_array(&w, "regions");
  for (int k = 0; k < j->n; k++) {
    const job_out *x = &out[k];
    json_writer_begin_object(&w, NULL);
    json_writer_string(&w, "name", j->run[k].name);
    json_writer_string(&w, "program", j->run[k].program);
    json_writer_int(&w, "gc", x->region.gc);
    json_writer_int(&w, "row0", x->region.row0);
    json_writer_int(&w, "col0", x->region.col0);
    json_writer_int(&w, "rows", x->region.rows);
    json_writer_int(&w, "cols", x->region.cols);
    json_writer_uint(&w, "start_cycle", x->start);
    json_writer_uint(&w, "cycles", x->region.cycles);
    json_writer_uint(&w, "cycles_alone", x->alone.done_cycles);
    json_writer_uint(&w, "outputs_differing", x->differ);
    json_writer_begin_array(&w, "feeds");
    for (int i = 0; i < j->run[k].nin; i++) {
      if (!j->run[k].in_feed[i]) continue;
      json_writer_begin_object(&w, NULL);
      json_writer_string(&w, "input", j->run[k].in[i]); /* NAME: job_opts cut NAME=SPEC at the '=' */
      json_writer_string(&w, "from", strchr(j->run[k].in[i], 0) + 1);
      json_writer_string(&w, "file", j->run[k].in_path[i]);
      json_writer_end_object(&w);
    }
    json_writer_end_array(&w);
    json_writer_string(&w, "verdict", x->ok ? "pass" : "fail");
    json_writer_end_object(&w);
  }
  json_writer_end_array(&w);
  json_writer_end_object(&w);
  fputc('\n', f);
  return fclose(f) ? -1 : 0;
}

/* Reads a bank word of the model (engine_bank_fn). */
static int job_bank(void *ctx, int row, int col, int side, int bank, uint32_t addr, uint32_t *v) {
  return model_bank_read((const model *)ctx, row, col, side, bank, addr, v);
}

/* Returns the exit status of the engine `model` part of the job: each
 * run alone, then all together (its trace into the file trace, NULL:
 * DIR/model.trace with --out-dir, else none); fills out[] and *cycles. */
static int job_model(const job_file *j, const run_opts *o, job_out *out, uint64_t *cycles, const char *trace) {
  model_stream_in in[JOB_MAX];
  uint64_t max = JOB_MAX_CYCLES_MIN, prev = 0;
  for (int k = 0; k < j->n; k++) {
    job_out *x = &out[k];
    const engine_config *c = &x->prep.c;
    engine_opts eo = {.max_cycles = c->pred_done * 4 + JOB_MAX_CYCLES_MIN, .fst_to = -1};
    char msg[1024];
    if (engine_model_run(c, &x->prep.cfg, &eo, &x->alone, msg, sizeof msg) != ENGINE_OK) {
      diag_error_plain("run '%s' alone: %s", j->run[k].name, msg);
      return ENGINE_ERR_INPUT;
    }
    if (job_start(j, &j->run[k], k, prev, c->stream_len / 4, &x->start)) return ENGINE_ERR_INPUT;
    prev = x->start;
    in[k] = (model_stream_in){c->stream, c->stream_len, x->start};
    max += x->start + c->pred_done * 4;
  }
  model_error err;
  model *m = model_new_multi(&out[0].prep.cfg, in, j->n, &err);
  if (!m) {
    diag_error_plain("%s: the C model refuses the job: %s", j->path, err.msg);
    return ENGINE_ERR_INPUT;
  }
  FILE *tf = NULL;
  char tpath[4200];
  if (trace || o->out_dir) {
    snprintf(tpath, sizeof tpath, "%s", trace ? trace : "");
    if (!trace) snprintf(tpath, sizeof tpath, "%s/model.trace", o->out_dir);
    if (!(tf = fopen(tpath, "w"))) {
      diag_error_plain("%s: %s", tpath, strerror(errno));
      model_free(m);
      return ENGINE_ERR_INPUT;
    }
    model_set_trace_file(m, tf);
  }
  /* each program's outputs are read from the banks in its region's done
   * cycle: a later stream may load the same banks again */
  int gathered[JOB_MAX] = {0}, rc = 0;
  while (!model_done(m) && !model_failed(m, NULL) && model_cycles(m) < max) {
    model_step(m);
    for (int k = 0; k < j->n; k++) {
      model_region_view v;
      if (gathered[k] || model_region_get(m, k, &v) || !v.done) continue;
      if (engine_result_init(&out[k].beside, &out[k].prep.c)) break;
      engine_outputs_gather(&out[k].prep.c, &out[k].beside, job_bank, m);
      gathered[k] = 1;
    }
  }
  if (model_failed(m, NULL)) rc = -1;
  else if (!model_done(m)) rc = model_run(m, max); /* the timeout fault */
  if (j->n == 1 && model_done(m) && !gathered[0] && engine_result_init(&out[0].beside, &out[0].prep.c) == 0) {
    engine_outputs_gather(&out[0].prep.c, &out[0].beside, job_bank, m); /* one stream: model_new keeps no */
    gathered[0] = 1;                                                       /* region view; its done is the run's */
  }
  if (tf) fclose(tf);
  if (rc < 0) {
    model_failed(m, &err);
    diag_error_plain("%s: the C model stopped the job: %s", j->path, err.msg);
    model_free(m);
    return ENGINE_ERR_INPUT;
  }
  *cycles = model_cycles(m);
  int st = rc ? ENGINE_MISMATCH : ENGINE_OK;
  if (rc) diag_error_plain("%s: the job did not finish within %llu cycles", j->path, (unsigned long long)max);
  for (int k = 0; k < j->n; k++) {
    job_out *x = &out[k];
    model_region_get(m, k, &x->region);
    if (j->n == 1) { /* the region is the run's (model_new_multi of one stream is model_new) */
      x->region.gc = j->run[0].gc >= 0 ? j->run[0].gc : 0;
      x->region.started = 1, x->region.done = model_done(m), x->region.cycles = model_cycles(m);
    }
    if (!gathered[k] && engine_result_init(&x->beside, &x->prep.c)) {
      model_free(m);
      return ENGINE_ERR_INPUT;
    }
    x->differ = engine_outputs_compare(x->prep.p, x->prep.arrays, &x->beside, stderr, 5);
    size_t alone_differ = engine_outputs_compare(x->prep.p, x->prep.arrays, &x->alone, stderr, 5);
    x->ok = !rc && x->region.done && !x->differ && !alone_differ && x->alone.done &&
            x->region.cycles == x->alone.done_cycles && !x->alone.faults;
    if (!x->ok) st = ENGINE_MISMATCH;
  }
  if (model_faults(m, TRACE_FAULT_COUNT)) {
    diag_error_plain("%s: %llu faults in the job's run (see model.trace with --out-dir)", j->path,
                     (unsigned long long)model_faults(m, TRACE_FAULT_COUNT));
    st = ENGINE_MISMATCH;
  }
  model_free(m);
  return st;
}

/* The RTL's part of a job: its harness, its work directory and what the
 * run of all streams together came to. */
typedef struct {
  char bin[4096];
  char work[4096];
  char trace[4200];
  uint64_t cycles; /* the run's, from the results file */
} job_rtl;

/* Returns 0 after reading the harness's results file path (docs/rtl.md
 * "Results file") into the regions of out[0..n-1] and *cycles; -1 when it
 * cannot be read or names a region it should not. */
static int job_results_read(const char *path, job_out *out, int n, uint64_t *cycles) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[512], outcome[32] = "";
  int seen = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long long v;
    int k, gc, r0, c0, rs, cs;
    long long start, cyc;
    if (sscanf(line, "outcome=%31s", outcome) == 1) continue;
    if (sscanf(line, "cycles=%llu", &v) == 1) *cycles = v;
    if (sscanf(line, "region%d=gc %d row0 %d col0 %d rows %d cols %d start %lld cycles %lld", &k, &gc, &r0, &c0, &rs,
               &cs, &start, &cyc) != 8 || k < 0 || k >= n)
      continue;
    out[k].region = (model_region_view){gc, r0, c0, rs, cs, (uint64_t)start, gc >= 0, cyc > 0,
                                        cyc > 0 ? (uint64_t)cyc : 0};
    seen++;
  }
  fclose(f);
  return seen == n ? 0 : -1;
}

/* The bank words the RTL wrote up to a region's done cycle (replayed from
 * its trace's `bankwr` lines), read as engine_bank_fn. */
typedef struct {
  const arch_config *arch;
  uint32_t *word; /* [((row * cols + col) * 4 + side) * banks + bank][depth] */
} job_banks;

/* Reads a bank word of the replay (engine_bank_fn). */
static int job_banks_read(void *ctx, int row, int col, int side, int bank, uint32_t addr, uint32_t *v) {
  const job_banks *b = ctx;
  const arch_config *a = b->arch;
  if (addr >= (uint32_t)a->bank_depth) return -1;
  *v = b->word[((size_t)((row * a->cols + col) * 4 + side) * (size_t)a->banks + (size_t)bank) *
                   (size_t)a->bank_depth + addr];
  return 0;
}

/* Returns 0 after filling x->beside with run x's outputs as the RTL's
 * trace `path` left its banks at the end of cycle `last` (its region's
 * done cycle); -1 with msg. */
static int job_rtl_outputs(const char *path, const arch_config *arch, uint64_t last, job_out *x, char *msg,
                           size_t msgsz) {
  size_t nb = (size_t)arch->rows * (size_t)arch->cols * 4 * (size_t)arch->banks;
  job_banks b = {arch, calloc(nb * (size_t)arch->bank_depth, sizeof(uint32_t))};
  FILE *f = fopen(path, "r");
  if (!b.word || !f || engine_result_init(&x->beside, &x->prep.c)) {
    snprintf(msg, msgsz, "%.900s: %s", path, f ? "out of memory" : strerror(errno));
    if (f) fclose(f);
    free(b.word);
    return -1;
  }
  char *line = NULL, err[160];
  size_t cap = 0;
  int rc = 0;
  while (getline(&line, &cap, f) > 0) {
    trace_event e;
    int k = trace_line_parse(line, &e, err, sizeof err);
    if (k == TRACE_LINE_ERROR) {
      snprintf(msg, msgsz, "%.800s: %s", path, err);
      rc = -1;
      break;
    }
    if (k != TRACE_LINE_EVENT || e.cycle > last) continue;
    if (e.kind == TRACE_BANKWR && e.addr < (uint32_t)arch->bank_depth)
      b.word[((size_t)((e.row * arch->cols + e.col) * 4 + e.side) * (size_t)arch->banks + (size_t)e.port) *
                 (size_t)arch->bank_depth + e.addr] = e.value;
  }
  free(line);
  fclose(f);
  if (!rc) engine_outputs_gather(&x->prep.c, &x->beside, job_banks_read, &b);
  free(b.word);
  return rc;
}

/* Returns the exit status of the RTL's part of a job: each run alone
 * (engine_rtl_run), then every stream in one tcpa-rtl from its start
 * cycle (docs/rtl.md "Running": S0.bin S1.bin@T1 ...) with its text trace
 * in r->trace; fills the regions, cycles alone and outputs of out[] (with
 * the model (cosim) the start cycles are the model's, else computed
 * here) and r->cycles. */
static int job_rtl_run(const job_file *j, const run_opts *o, job_out *out, job_rtl *r, int have_starts) {
  uint64_t max = JOB_MAX_CYCLES_MIN, prev = 0;
  char *argv[2 * JOB_MAX + 12], paths[JOB_MAX][4300], msg[1024], maxc[32], results[4200], log[4200];
  int n = 0;
  argv[n++] = r->bin;
  for (int k = 0; k < j->n; k++) {
    job_out *x = &out[k];
    const engine_config *c = &x->prep.c;
    if (!have_starts) { /* cosim: the model ran each alone and chose the start cycles */
      char work[4300];
      snprintf(work, sizeof work, "%s/alone-%d", r->work, k);
      if (run_mkdir_p(work)) return ENGINE_ERR_INPUT;
      engine_opts eo = {.work_dir = work, .arch_path = o->arch,
                        .max_cycles = c->pred_done * 4 + JOB_MAX_CYCLES_MIN, .fst_to = -1};
      if (engine_rtl_run(r->bin, c, &x->prep.cfg, &eo, &x->alone, msg, sizeof msg) != ENGINE_OK) {
        diag_error_plain("run '%s' alone on the RTL: %s", j->run[k].name, msg);
        return ENGINE_ERR_INPUT;
      }
      if (job_start(j, &j->run[k], k, prev, c->stream_len / 4, &x->start)) return ENGINE_ERR_INPUT;
    }
    prev = x->start;
    max += x->start + c->pred_done * 4;
    snprintf(paths[k], sizeof paths[k], "%s/stream-%d.bin", r->work, k);
    FILE *f = fopen(paths[k], "wb");
    if (!f || fwrite(c->stream, 1, c->stream_len, f) != c->stream_len || fclose(f)) {
      diag_error_plain("%s: %s", paths[k], strerror(errno));
      return ENGINE_ERR_INPUT;
    }
    if (k) snprintf(paths[k] + strlen(paths[k]), sizeof paths[k] - strlen(paths[k]), "@%llu",
                    (unsigned long long)x->start);
    argv[n++] = paths[k];
  }
  snprintf(maxc, sizeof maxc, "%llu", (unsigned long long)max);
  snprintf(results, sizeof results, "%s/rtl-results", r->work);
  snprintf(log, sizeof log, "%s/rtl.log", r->work);
  argv[n++] = "--trace", argv[n++] = r->trace, argv[n++] = "--results", argv[n++] = results;
  argv[n++] = "--max-cycles", argv[n++] = maxc, argv[n] = NULL;
  int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  int rc = engine_harness_spawn(argv, fd, fd);
  if (fd >= 0) close(fd);
  if (rc < 0 || rc >= 2 || job_results_read(results, out, j->n, &r->cycles)) {
    char last[600];
    engine_harness_last_line(log, last, sizeof last);
    diag_error_plain("%s: the RTL stopped the job (tcpa-rtl exit %d)%s%s", j->path, rc, last[0] ? ": " : "", last);
    return ENGINE_ERR_INPUT;
  }
  int st = rc ? ENGINE_MISMATCH : ENGINE_OK;
  for (int k = 0; k < j->n; k++) {
    job_out *x = &out[k];
    engine_result_free(&x->beside);
    uint64_t last = x->region.done ? x->region.start_cycle + x->region.cycles - 1 : r->cycles;
    if (job_rtl_outputs(r->trace, &x->prep.cfg, last, x, msg, sizeof msg)) {
      diag_error_plain("%s", msg);
      return ENGINE_ERR_INPUT;
    }
  }
  return st;
}

/* Returns the status after checking each run of out[] (the engine
 * `who`): its region done, its outputs beside the others and alone equal
 * to its reference, its region's cycles equal to its cycles alone, no
 * fault; prints what differs. */
static int job_check(const job_file *j, const char *who, job_out *out) {
  int st = ENGINE_OK;
  for (int k = 0; k < j->n; k++) {
    job_out *x = &out[k];
    x->differ = engine_outputs_compare(x->prep.p, x->prep.arrays, &x->beside, stderr, 5);
    size_t alone_differ = engine_outputs_compare(x->prep.p, x->prep.arrays, &x->alone, stderr, 5);
    x->ok = x->region.done && !x->differ && !alone_differ && x->alone.done &&
            x->region.cycles == x->alone.done_cycles && !x->alone.faults;
    if (!x->ok) {
      diag_error_plain("%s: run '%s': %s%s%s%s", who, j->run[k].name, x->region.done ? "" : "not done; ",
                       x->differ ? "outputs differ from the reference; " : "",
                       x->region.cycles != x->alone.done_cycles ? "cycles differ from its cycles alone; " : "",
                       alone_differ || !x->alone.done || x->alone.faults ? "alone: failed" : "");
      st = ENGINE_MISMATCH;
    }
  }
  return st;
}

/* Prints, after a divergence at PE (row, col) in cycle t (row
 * TRACE_PLACE_GC: GC col's line; other row < 0: the machine), which
 * region it is in: the last started by t whose rectangle holds the PE, or
 * that GC col drives. */
static void job_divergence_region(const job_file *j, const job_out *out, int row, int col, uint64_t t) {
  int in = -1;
  for (int k = 0; k < j->n; k++) {
    const model_region_view *v = &out[k].region;
    int gc = row == TRACE_PLACE_GC && v->gc == col;
    if (v->start_cycle <= t && (gc || (row >= v->row0 && row < v->row0 + v->rows && col >= v->col0 &&
                                       col < v->col0 + v->cols)))
      in = k;
  }
  if (in < 0)
    fprintf(stderr, "  region:            none (%s)\n", row < 0 ? "a machine-wide event" : "a PE of no region");
  else
    fprintf(stderr, "  region:            %d, run '%s' (%s), GC %d, %dx%d@%d,%d from cycle %llu\n", in,
            j->run[in].name, j->run[in].program, out[in].region.gc, out[in].region.rows, out[in].region.cols,
            out[in].region.row0, out[in].region.col0, (unsigned long long)out[in].region.start_cycle);
}

/* Returns the exit status of the engines rtl and cosim on a job: rtl
 * checks the RTL's runs (job_rtl_run, job_check); cosim runs the job on
 * the model first (job_model, model.trace), then on the RTL from the same
 * start cycles, compares the two traces event by event in every cycle
 * (the lockstep checker, engine_cosim_check: the first divergence with
 * the region it lies in) and checks both engines' outputs and cycles. */
static int job_rtl_engines(const job_file *j, const run_opts *o, job_out *out, uint64_t *cycles) {
  job_rtl r;
  memset(&r, 0, sizeof r);
  char msg[1024];
  int cosim = o->engine == RUN_ENGINE_COSIM;
  if (engine_rtl_locate(&out[0].prep.cfg, o->arch, r.bin, sizeof r.bin, msg, sizeof msg)) {
    diag_error_plain("%s", msg);
    return ENGINE_ERR_INPUT;
  }
  const char *tmp = getenv("TMPDIR");
  snprintf(r.work, sizeof r.work, "%s/tcpa-job-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(r.work)) {
    diag_error_plain("cannot create a temporary directory '%s': %s", r.work, strerror(errno));
    return ENGINE_ERR_INPUT;
  }
  if (o->out_dir) snprintf(r.trace, sizeof r.trace, "%s/rtl.trace", o->out_dir);
  else snprintf(r.trace, sizeof r.trace, "%s/rtl.trace", r.work);
  int st = ENGINE_OK;
  char mtrace[4200];
  if (cosim) {
    snprintf(mtrace, sizeof mtrace, "%s/model.trace", o->out_dir ? o->out_dir : r.work);
    st = job_model(j, o, out, cycles, mtrace);
    if (st == ENGINE_MISMATCH) diag_error_plain("cosim: the model's part of the job failed");
  }
  if (st == ENGINE_OK || st == ENGINE_MISMATCH) {
    int rs = job_rtl_run(j, o, out, &r, cosim);
    if (rs == ENGINE_ERR_INPUT || st == ENGINE_OK) st = rs;
  }
  if (st == ENGINE_OK || st == ENGINE_MISMATCH) {
    if (!cosim) *cycles = r.cycles;
    if (job_check(j, "rtl", out) != ENGINE_OK) st = ENGINE_MISMATCH;
  }
  if (cosim && (st == ENGINE_OK || st == ENGINE_MISMATCH)) {
    engine_divergence d;
    char line[512] = "";
    int rc = engine_cosim_check(mtrace, r.trace, stderr, &d, line, sizeof line, msg, sizeof msg);
    if (rc < 0) {
      diag_error_plain("cosim: %s", msg);
      st = ENGINE_ERR_INPUT;
    } else if (rc) {
      job_divergence_region(j, out, d.row, d.col, d.cycle);
      st = ENGINE_MISMATCH;
    } else {
      printf("cosim     model and RTL agree in every event of every cycle, every region (%llu cycles)\n",
             (unsigned long long)*cycles);
    }
  }
  engine_rmtree(r.work);
  return st;
}

/* Returns 0 after writing the file of each feed of run k (`feed =
 * ARRAY=RUN.OUTPUT`: RUN an earlier run of the job, OUTPUT one of its
 * output arrays) into dir: DIR/ARRAY.txt, the reference's values of that
 * output (one a line, the reference's order), which the producer's run
 * must equal; its path into r->in_path. -1 after printing FILE:LINE: why. */
static int job_feeds(const job_file *j, job_run *r, int k, const job_out *out, const char *dir) {
  for (int i = 0; i < r->nin; i++) {
    if (!r->in_feed[i]) continue;
    const char *spec = strchr(r->in[i], '=') + 1;
    const char *dot = strrchr(spec, '.');
    int p = -1;
    for (int q = 0; dot && q < j->n; q++)
      if (strlen(j->run[q].name) == (size_t)(dot - spec) && !strncmp(j->run[q].name, spec, (size_t)(dot - spec))) p = q;
    if (p < 0 || p >= k) {
      diag_error_plain("%s:%d: run '%s': feed = %.*s=%s: %s", j->path, r->in_line[i], r->name,
                       (int)(strchr(r->in[i], '=') - r->in[i]), r->in[i], spec,
                       !dot ? "expected RUN.OUTPUT" : p < 0 ? "no run of that name in the job"
                                                          : "that run comes later (a feed reads an earlier run)");
      return -1;
    }
    const ast_program *pp = out[p].prep.p;
    int a = -1;
    for (int x = 0; x < pp->narrays; x++)
      if (!strcmp(pp->arrays[x].name, dot + 1)) a = x;
    if (a < 0 || pp->arrays[a].kind != AST_ARRAY_OUT) {
      diag_error_plain("%s:%d: run '%s': feed from %s: run '%s' (%s) has no output array '%s'", j->path,
                       r->in_line[i], r->name, spec, j->run[p].name, pp->name, dot + 1);
      return -1;
    }
    char path[4200];
    int len = snprintf(path, sizeof path, "%s/%.*s.txt", dir, (int)(strchr(r->in[i], '=') - r->in[i]), r->in[i]);
    if (len < 0 || (size_t)len >= sizeof r->in_path[i]) {
      diag_error_plain("%s:%d: run '%s': the feed's file name is too long (%s)", j->path, r->in_line[i], r->name, path);
      return -1;
    }
    FILE *f = fopen(path, "w");
    const interp_array *v = &out[p].prep.arrays[a];
    for (size_t e = 0; f && e < v->n; e++) fprintf(f, "%d\n", v->data[e]);
    if (!f || fclose(f)) {
      diag_error_plain("%s: cannot write the feed of run '%s': %s", path, r->name, strerror(errno));
      return -1;
    }
    memcpy(r->in_path[i], path, (size_t)len + 1);
  }
  return 0;
}

/* Returns 0 after making the directory of run r's feeds in dir (cap
 * bytes): DIR/NAME/inputs with --out-dir DIR, else NAME/ in the job's
 * scratch directory *scratch (made on first use: a mkdtemp directory that
 * job_scratch_remove removes); -1 after printing why. */
static int job_feed_dir(const run_opts *o, const job_run *r, char *scratch, size_t ssz, char *dir, size_t cap) {
  if (!o->out_dir && !scratch[0]) {
    snprintf(scratch, ssz, "/tmp/tcpa-job-XXXXXX");
    if (!mkdtemp(scratch)) {
      diag_error_plain("cannot make a scratch directory for the job's feeds: %s", strerror(errno));
      scratch[0] = 0;
      return -1;
    }
  }
  snprintf(dir, cap, o->out_dir ? "%s/%s/inputs" : "%s/%s", o->out_dir ? o->out_dir : scratch, r->name);
  return run_mkdir_p(dir);
}

/* Removes the job's scratch directory (its feeds' files) when it made one. */
static void job_scratch_remove(const job_file *j, const char *scratch) {
  if (!scratch[0]) return;
  char path[4400];
  for (int k = 0; k < j->n; k++) {
    for (int i = 0; i < j->run[k].nin; i++)
      if (j->run[k].in_feed[i] && j->run[k].in_path[i][0]) remove(j->run[k].in_path[i]);
    snprintf(path, sizeof path, "%s/%s", scratch, j->run[k].name);
    rmdir(path);
  }
  rmdir(scratch);
}

int run_job_file(const run_opts *o) {
  job_file j;
  memset(&j, 0, sizeof j);
  j.path = o->program;
  if (job_read(&j)) return ENGINE_ERR_INPUT;
  if (o->engine == RUN_ENGINE_SYSTEMC) {
    diag_error_plain("%s: a job runs on --engine ref, model, rtl or cosim (systemc: not yet)", j.path);
    return ENGINE_ERR_INPUT;
  }
  job_out out[JOB_MAX];
  memset(out, 0, sizeof out);
  int st = ENGINE_OK;
  char scratch[64] = "", dir[4200];
  for (int k = 0; k < j.n && st == ENGINE_OK; k++) {
    run_opts ro;
    int feeds = 0;
    for (int i = 0; i < j.run[k].nin; i++) feeds |= j.run[k].in_feed[i];
    if ((feeds && (job_feed_dir(o, &j.run[k], scratch, sizeof scratch, dir, sizeof dir) ||
                   job_feeds(&j, &j.run[k], k, out, dir))) ||
        job_opts(&j, &j.run[k], k, o, &ro)) {
      st = ENGINE_ERR_INPUT;
      break;
    }
    out[k].prepared = 1;
    st = run_prepare(&ro, &out[k].prep);
    if (st != ENGINE_OK) diag_error_plain("%s:%d: run '%s' could not be prepared", j.path, j.run[k].line, j.run[k].name);
  }
  uint64_t cycles = 0;
  if (st == ENGINE_OK && o->engine != RUN_ENGINE_REF) {
    if (o->out_dir && run_mkdir_p(o->out_dir)) st = ENGINE_ERR_INPUT;
    else if (o->engine == RUN_ENGINE_MODEL) st = job_model(&j, o, out, &cycles, NULL);
    else st = job_rtl_engines(&j, o, out, &cycles);
  }
  if (st == ENGINE_OK || st == ENGINE_MISMATCH) {
    const char *verdict = st == ENGINE_OK ? "pass" : "fail";
    printf("job       %s: %d run%s, engine %s\n", j.path, j.n, j.n == 1 ? "" : "s", run_engine_names[o->engine]);
    for (int k = 0; k < j.n; k++) {
      const job_out *x = &out[k];
      const engine_config *c = &x->prep.c;
      if (o->engine == RUN_ENGINE_REF) {
        printf("run       %s: %s, reference done\n", j.run[k].name, j.run[k].program);
        continue;
      }
      for (int i = 0; i < j.run[k].nin; i++)
        if (j.run[k].in_feed[i])
          printf("feed      %s.%s <- %s (the producer's output, as its reference computes it)\n", j.run[k].name,
                 j.run[k].in[i], strchr(j.run[k].in[i], 0) + 1);
      printf("run       %s: %s on %dx%d@%d,%d, GC %d, start %llu: %llu cycles (alone %llu), outputs %s, %s\n",
             j.run[k].name, j.run[k].program, x->region.rows, x->region.cols, x->region.row0, x->region.col0,
             x->region.gc, (unsigned long long)x->start, (unsigned long long)x->region.cycles,
             (unsigned long long)x->alone.done_cycles, x->differ ? "differ" : "equal to the reference",
             x->ok ? "pass" : "fail");
      (void)c;
    }
    if (o->engine != RUN_ENGINE_REF)
      printf("%-9s the job done in %llu cycles\n", run_engine_names[o->engine], (unsigned long long)cycles);
    printf("verdict   %s\n", verdict);
    if (o->out_dir && o->engine != RUN_ENGINE_REF) {
      for (int k = 0; k < j.n; k++)
        if (job_outputs_write(o->out_dir, &j.run[k], &out[k])) st = ENGINE_ERR_INPUT;
      if (job_summary_write(o->out_dir, &j, o, out, verdict, cycles)) st = ENGINE_ERR_INPUT;
    }
  }
  job_scratch_remove(&j, scratch);
  for (int k = 0; k < j.n; k++) {
    engine_result_free(&out[k].alone);
    engine_result_free(&out[k].beside);
    if (out[k].prepared) run_prep_free(&out[k].prep);
  }
  return st;
}
