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

#include "diag.h"
#include "engine_flow.h"
#include "json.h"
#include "model.h"
#include "run.h"

#define JOB_MAX 4      /* runs: one per global controller */
#define JOB_LINE 512
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
  diag_error_plain("%s:%d: unknown key '%s' (program, param, pes, map, start, seed, gc)", j->path, line, key);
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
 * run alone, then all together; fills out[] and *cycles. */
static int job_model(const job_file *j, const run_opts *o, job_out *out, uint64_t *cycles) {
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
  if (o->out_dir) {
    snprintf(tpath, sizeof tpath, "%s/model.trace", o->out_dir);
    if ((tf = fopen(tpath, "w"))) model_set_trace_file(m, tf);
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

int run_job_file(const run_opts *o) {
  job_file j;
  memset(&j, 0, sizeof j);
  j.path = o->program;
  if (job_read(&j)) return ENGINE_ERR_INPUT;
  if (o->engine != RUN_ENGINE_REF && o->engine != RUN_ENGINE_MODEL) {
    diag_error_plain("%s: a job runs on --engine ref or model (rtl, cosim and systemc: not yet)", j.path);
    return ENGINE_ERR_INPUT;
  }
  job_out out[JOB_MAX];
  memset(out, 0, sizeof out);
  int st = ENGINE_OK;
  for (int k = 0; k < j.n && st == ENGINE_OK; k++) {
    run_opts ro;
    if (job_opts(&j, &j.run[k], k, o, &ro)) {
      st = ENGINE_ERR_INPUT;
      break;
    }
    out[k].prepared = 1;
    st = run_prepare(&ro, &out[k].prep);
    if (st != ENGINE_OK) diag_error_plain("%s:%d: run '%s' could not be prepared", j.path, j.run[k].line, j.run[k].name);
  }
  uint64_t cycles = 0;
  if (st == ENGINE_OK && o->engine == RUN_ENGINE_MODEL) {
    if (o->out_dir && run_mkdir_p(o->out_dir)) st = ENGINE_ERR_INPUT;
    else st = job_model(&j, o, out, &cycles);
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
      printf("run       %s: %s on %dx%d@%d,%d, GC %d, start %llu: %llu cycles (alone %llu), outputs %s, %s\n",
             j.run[k].name, j.run[k].program, x->region.rows, x->region.cols, x->region.row0, x->region.col0,
             x->region.gc, (unsigned long long)x->start, (unsigned long long)x->region.cycles,
             (unsigned long long)x->alone.done_cycles, x->differ ? "differ" : "equal to the reference",
             x->ok ? "pass" : "fail");
      (void)c;
    }
    if (o->engine == RUN_ENGINE_MODEL) printf("model     the job done in %llu cycles\n", (unsigned long long)cycles);
    printf("verdict   %s\n", verdict);
    if (o->out_dir && o->engine == RUN_ENGINE_MODEL) {
      for (int k = 0; k < j.n; k++)
        if (job_outputs_write(o->out_dir, &j.run[k], &out[k])) st = ENGINE_ERR_INPUT;
      if (job_summary_write(o->out_dir, &j, o, out, verdict, cycles)) st = ENGINE_ERR_INPUT;
    }
  }
  for (int k = 0; k < j.n; k++) {
    engine_result_free(&out[k].alone);
    engine_result_free(&out[k].beside);
    if (out[k].prepared) run_prep_free(&out[k].prep);
  }
  return st;
}
