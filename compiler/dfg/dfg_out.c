/*
 * dfg_out.c: the files `tcpa import-dfg` writes (docs/dfg.md "What is
 * written"): BASE_K.pla for each sub-DFG K that has ports or operations,
 * BASE.job.ini listing the programs that share an array with another
 * (the job file of docs/user-guide.md "Jobs"), and BASE.wl, the workload
 * of `tcpa explore` (docs/explore.md "The workload") with each sub-DFG's
 * `#pragma group frequency` as its weight.
 *
 * Every text is made in memory first: a sub-DFG that cannot be mapped
 * stops the import before anything is written. Each file is then written
 * under a temporary name and renamed.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dfg.h"
#include "fileio.h"

/* One program to write. */
typedef struct {
  int sub;
  char name[DFG_NAME + 16];
  char *text;
  size_t len;
  int64_t n;   /* the stream length of its job run and workload entry */
  int group;   /* union-find parent over shared arrays */
} out_prog;

/* Returns -1 after storing a message with no place in the DFG. */
static int out_fail(dfg_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err->line = err->col = 0;
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
  return -1;
}

/* Returns the root of program i's sharing group. */
static int out_root(out_prog *p, int i) {
  while (p[i].group != i) i = p[i].group = p[p[i].group].group;
  return i;
}

/* Returns 1 when sub-DFG s has a port on array `name`. */
static int out_uses(const dfg_sub *s, const char *name) {
  for (int i = 0; i < s->nports; i++)
    if (!strcmp(s->port[i].array, name)) return 1;
  return 0;
}

/* Returns 1 when `name` is the first port of f (in file order) naming
 * it and is not a declared rec array: each array a port names, once. */
static int out_array_first(const dfg_file *f, int sub, int port) {
  const char *name = f->sub[sub].port[port].array;
  const dfg_array *a = dfg_array_find(f, name);
  if (!name[0] || (a && a->kind == DFG_ARR_REC)) return 0;
  for (int k = 0; k <= sub; k++)
    for (int i = 0; i < (k == sub ? port : f->sub[k].nports); i++)
      if (!strcmp(f->sub[k].port[i].array, name)) return 0;
  return 1;
}

/* Returns the stream length the arrays of sub-DFG s allow: the least
 * size / lanes over its ports on declared arrays other than rec; 16 when
 * no port names a declared array. */
static int64_t out_len(const dfg_file *f, const dfg_sub *s) {
  int64_t n = 0;
  for (int i = 0; i < s->nports; i++) {
    const dfg_array *a = s->port[i].array[0] ? dfg_array_find(f, s->port[i].array) : NULL;
    if (!a || a->kind == DFG_ARR_REC) continue;
    int64_t l = a->size / (s->port[i].lanes ? s->port[i].lanes : 1);
    if (l >= 1 && (!n || l < n)) n = l;
  }
  return n ? n : 16;
}

/* Returns 0 after writing len bytes of text to path through a temporary
 * file renamed at the end. */
static int out_file(const char *path, const char *text, size_t len, dfg_error *err) {
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
  FILE *fp = fopen(tmp, "w");
  if (!fp) return out_fail(err, "%s: cannot write: %s", tmp, strerror(errno));
  int bad = fwrite(text, 1, len, fp) != len;
  bad |= fclose(fp) != 0;
  if (bad || rename(tmp, path)) {
    int e = errno;
    remove(tmp);
    return out_fail(err, "%s: cannot write: %s", path, strerror(e));
  }
  return 0;
}

/* Writes into `base` (size DFG_NAME) the identifier made of the file
 * name `src` without its folders and extension. */
static void out_base(const char *src, char *base) {
  const char *b = strrchr(src, '/');
  b = b ? b + 1 : src;
  int n = 0;
  if (!isalpha((unsigned char)*b)) base[n++] = 'd';
  for (; *b && *b != '.' && n < DFG_NAME - 20; b++) base[n++] = isalnum((unsigned char)*b) ? *b : '_';
  base[n] = 0;
}

/* Returns the number of regions of o->rows x o->cols placed without
 * overlap at the corners of the o->arch_rows x o->arch_cols array (every
 * PE of a corner region is on the border, where the I/O banks are), their
 * origins in r0[], c0[] (at most 4). */
static int out_corners(const dfg_out_opts *o, int r0[4], int c0[4]) {
  int R = o->rows, C = o->cols, n = 0;
  if (R > o->arch_rows || C > o->arch_cols) return 0;
  const int cand[4][2] = {{0, 0}, {0, o->arch_cols - C}, {o->arch_rows - R, 0}, {o->arch_rows - R, o->arch_cols - C}};
  for (int k = 0; k < 4; k++) {
    int free = 1;
    for (int i = 0; i < n; i++)
      if (cand[k][0] < r0[i] + R && r0[i] < cand[k][0] + R && cand[k][1] < c0[i] + C && c0[i] < cand[k][1] + C)
        free = 0;
    if (free) {
      r0[n] = cand[k][0];
      c0[n++] = cand[k][1];
    }
  }
  return n;
}

/* Returns 0 after writing the job file text of the programs in sharing
 * groups of two or more into *text (NULL when there are none). */
static int out_job(const dfg_file *f, const dfg_out_opts *o, out_prog *p, int np, const char *base, char **text,
                   size_t *len, dfg_error *err) {
  int in_job[64] = {0}, nj = 0;
  for (int i = 0; i < np; i++)
    for (int j = 0; j < np; j++)
      if (i != j && out_root(p, i) == out_root(p, j)) {
        in_job[i] = 1;
        break;
      }
  for (int i = 0; i < np; i++) nj += in_job[i];
  *text = NULL;
  if (!nj) return 0;
  int r0[4], c0[4], room = out_corners(o, r0, c0);
  if (nj > room) {
    if (!o->quiet)
      fprintf(stderr,
              "import-dfg: note: %d sub-DFGs share arrays, %d regions of %dx%d fit in the corners of the %dx%d "
              "array: no %s.job.ini written\n",
              nj, room, o->rows, o->cols, o->arch_rows, o->arch_cols, base);
    return 0;
  }
  FILE *j = open_memstream(text, len);
  if (!j) return out_fail(err, "out of memory");
  fprintf(j, "# %s.job.ini: the sub-DFGs of %s that share arrays, run at once,\n"
             "# each on its own region (tcpa run %s/%s.job.ini --engine model, from\n"
             "# the folder tcpa import-dfg ran in; docs/dfg.md \"Jobs\"). Shared arrays:\n",
          base, o->src, o->dir, base);
  for (int k = 0; k < f->nsubs; k++)
    for (int q0 = 0; q0 < f->sub[k].nports; q0++) {
      if (!out_array_first(f, k, q0)) continue;
      const char *name = f->sub[k].port[q0].array;
      int users = 0;
      for (int i = 0; i < np; i++) users += in_job[i] && out_uses(&f->sub[p[i].sub], name);
      if (users < 2) continue;
      fprintf(j, "#   %s:", name);
      for (int i = 0, n = 0; i < np; i++) {
        const dfg_sub *s = &f->sub[p[i].sub];
        for (int q = 0; in_job[i] && q < s->nports; q++)
          if (!strcmp(s->port[q].array, name))
            fprintf(j, "%s %s %s (%s)", n++ ? "," : "", s->port[q].out ? "written by" : "read by", p[i].name,
                    s->port[q].name);
      }
      fprintf(j, "\n");
    }
  fprintf(j, "# Each run's inputs are drawn on their own (seed = 1): the job checks\n"
             "# each program against its reference and the regions' isolation, not\n"
             "# the data passed from one run to the next (docs/dfg.md \"Jobs\").\n");
  if (o->arch) fprintf(j, "\narch = %s\n", o->arch);
  for (int i = 0, r = 0; i < np; i++) {
    if (!in_job[i]) continue;
    fprintf(j, "\n[run %s]\nprogram = %s/%s.pla\nparam = N=%lld\npes = %dx%d@%d,%d\n", p[i].name, o->dir, p[i].name,
            (long long)p[i].n, o->rows, o->cols, r0[r], c0[r]);
    r++;
  }
  return fclose(j) ? out_fail(err, "out of memory") : 0;
}

/* Returns 0 after writing the workload text into *text. */
static int out_workload(const dfg_file *f, const dfg_out_opts *o, const out_prog *p, int np, const char *base,
                        char **text, size_t *len, dfg_error *err) {
  FILE *w = open_memstream(text, len);
  if (!w) return out_fail(err, "out of memory");
  fprintf(w, "# %s.wl: the sub-DFGs of %s as a workload of tcpa explore\n"
             "# (docs/explore.md \"The workload\", docs/dfg.md): PROGRAM PARAMS RxC WEIGHT,\n"
             "# the weight is the sub-DFG's #pragma group frequency.\n",
          base, o->src);
  for (int i = 0; i < np; i++) {
    double fr = f->sub[p[i].sub].freq;
    if (fr > 0)
      fprintf(w, "%s.pla N=%lld %dx%d %g\n", p[i].name, (long long)p[i].n, o->rows, o->cols, fr);
    else
      fprintf(w, "# %s.pla left out: #pragma group frequency 0 (a weight must be positive)\n", p[i].name);
  }
  return fclose(w) ? out_fail(err, "out of memory") : 0;
}

/* Returns 0 after writing every file of the import (the texts made). */
static int out_write_all(const dfg_out_opts *o, out_prog *p, int np, const char *base, char *job, size_t jlen,
                         char *wl, size_t wlen, dfg_error *err) {
  char failed[4096], path[4200];
  if (fileio_mkdir_p(o->dir, failed, sizeof failed))
    return out_fail(err, "%s: cannot make the folder: %s", failed, strerror(errno));
  for (int i = 0; i < np; i++) {
    snprintf(path, sizeof path, "%s/%s.pla", o->dir, p[i].name);
    if (out_file(path, p[i].text, p[i].len, err)) return -1;
    if (!o->quiet) printf("import-dfg: %s (sub-DFG %d, N=%lld)\n", path, p[i].sub, (long long)p[i].n);
  }
  if (job) {
    snprintf(path, sizeof path, "%s/%s.job.ini", o->dir, base);
    if (out_file(path, job, jlen, err)) return -1;
    if (!o->quiet) printf("import-dfg: %s (the sub-DFGs that share arrays)\n", path);
  }
  snprintf(path, sizeof path, "%s/%s.wl", o->dir, base);
  if (out_file(path, wl, wlen, err)) return -1;
  if (!o->quiet) printf("import-dfg: %s (the workload of tcpa explore)\n", path);
  return 0;
}

int dfg_dir_write(const dfg_file *f, const dfg_out_opts *o, dfg_error *err) {
  char base[DFG_NAME];
  out_base(o->src, base);
  out_prog p[64];
  int np = 0, rc = -1;
  char *job = NULL, *wl = NULL;
  size_t jlen = 0, wlen = 0;
  memset(err, 0, sizeof *err);
  for (int k = 0; k < f->nsubs; k++) {
    if (!dfg_sub_has_program(&f->sub[k])) continue;
    if (np == 64) {
      out_fail(err, "more than 64 sub-DFGs with ports or operations");
      goto done;
    }
    out_prog *q = &p[np];
    *q = (out_prog){.sub = k, .group = np};
    snprintf(q->name, sizeof q->name, "%s_%d", base, k);
    FILE *m = open_memstream(&q->text, &q->len);
    int64_t rec = 1;
    if (!m) {
      out_fail(err, "out of memory");
      goto done;
    }
    int bad = dfg_sub_emit(f, k, q->name, o->src, m, &rec, err);
    fclose(m);
    np++;
    if (bad) goto done;
    q->n = o->len ? o->len : out_len(f, &f->sub[k]);
    if (q->n < rec) {
      if (o->len) {
        out_fail(err, "--len %lld is below the recurrence distance %lld of sub-DFG %d (line %d)", (long long)o->len,
                 (long long)rec, k, f->sub[k].line);
        goto done;
      }
      q->n = rec;
    }
  }
  if (!np) {
    out_fail(err, "no sub-DFG has a port or an operation: nothing to import");
    goto done;
  }
  for (int i = 0; i < np; i++)
    for (int q = 0; q < f->sub[p[i].sub].nports; q++)
      for (int j = i + 1; j < np; j++)
        if (out_array_first(f, p[i].sub, q) && out_uses(&f->sub[p[j].sub], f->sub[p[i].sub].port[q].array))
          p[out_root(p, j)].group = out_root(p, i);
  if (out_job(f, o, p, np, base, &job, &jlen, err) || out_workload(f, o, p, np, base, &wl, &wlen, err)) goto done;
  rc = out_write_all(o, p, np, base, job, jlen, wl, wlen, err);
done:
  for (int i = 0; i < np; i++) free(p[i].text);
  free(job);
  free(wl);
  return rc;
}
