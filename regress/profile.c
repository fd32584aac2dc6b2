/*
 * profile.c: a run's profile from its event trace (profile.h,
 * docs/profile.md).
 *
 * One pass over the trace's lines (trace_line_parse_at). An `insn` event
 * gives the word an FU issues at a pc (it comes beside the `issue` of the
 * same cycle, and only when the word changed), so the last word seen per
 * (PE, FU, pc) is kept and each `issue` is classed by its decoded
 * operation: a `nop N` counts one nop issue and N - 1 cycles waited, any
 * other operation one operation cycle. `halt` ends the FU's run. `bank`
 * events count each AG access of a bank as a read or a write, by the PE
 * that owns the AG and its side and bank. `done`, `rstart` and `rdone`
 * give the cycles of the run and of each region; `fault` events are
 * counted. The tables and the heat map are written from that record.
 */
#include "profile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "datafile.h"
#include "diag.h"
#include "engine.h"
#include "isa.h"
#include "plot.h"
#include "trace.h"

/* The word last issued per (PE, FU, pc), a small open hash. */
typedef struct {
  uint64_t key; /* (pe * PROFILE_MAX_FUS + fu) << 16 | pc, + 1 (0: empty) */
  isa_insn in;
} profile_word;

typedef struct {
  profile_word *slot;
  size_t cap, n;
} profile_words;

/* Returns the slot of key in w (empty or holding key), growing w when it
 * is half full; NULL when out of memory. */
static profile_word *profile_words_find(profile_words *w, uint64_t key) {
  if (2 * (w->n + 1) > w->cap) {
    size_t cap = w->cap ? 2 * w->cap : 1024;
    profile_word *s = calloc(cap, sizeof *s);
    if (!s) return NULL;
    for (size_t i = 0; i < w->cap; i++) {
      if (!w->slot[i].key) continue;
      size_t j = (size_t)(w->slot[i].key * 0x9e3779b97f4a7c15ULL) & (cap - 1);
      while (s[j].key) j = (j + 1) & (cap - 1);
      s[j] = w->slot[i];
    }
    free(w->slot);
    w->slot = s, w->cap = cap;
  }
  size_t j = (size_t)(key * 0x9e3779b97f4a7c15ULL) & (w->cap - 1);
  while (w->slot[j].key && w->slot[j].key != key) j = (j + 1) & (w->cap - 1);
  return &w->slot[j];
}

/* Returns the FU record of PE (r, c), FU u of p, growing p's grid to hold
 * it; NULL when out of range or memory. */
static profile_fu *profile_fu_at(profile *p, int r, int c, int u) {
  if (r < 0 || c < 0 || u < 0 || u >= PROFILE_MAX_FUS || (r + 1) * (c + 1) > PROFILE_MAX_PES) return NULL;
  if (r >= p->rows || c >= p->cols || u >= p->nfu) {
    int rows = r >= p->rows ? r + 1 : p->rows, cols = c >= p->cols ? c + 1 : p->cols, nfu = u >= p->nfu ? u + 1 : p->nfu;
    profile_fu *f = calloc((size_t)rows * (size_t)cols * (size_t)nfu, sizeof *f);
    if (!f) return NULL;
    for (size_t i = 0; i < (size_t)rows * (size_t)cols * (size_t)nfu; i++) f[i].first = f[i].halt = UINT64_MAX;
    for (int y = 0; y < p->rows; y++)
      for (int x = 0; x < p->cols; x++)
        for (int k = 0; k < p->nfu; k++) f[(y * cols + x) * nfu + k] = p->fu[(y * p->cols + x) * p->nfu + k];
    free(p->fu);
    p->fu = f, p->rows = rows, p->cols = cols, p->nfu = nfu;
  }
  return &p->fu[(r * p->cols + c) * p->nfu + u];
}

/* Returns nothing; counts an access of bank (side, bank) of PE (r, c). */
static void profile_bank_count(profile *p, const trace_event *e) {
  int i = 0;
  for (; i < p->nbanks; i++) {
    const profile_bank *b = &p->bank[i];
    if (b->row == e->row && b->col == e->col && b->side == e->side && b->bank == e->port) break;
  }
  if (i == p->nbanks) {
    if (p->nbanks == PROFILE_MAX_BANKS) return;
    p->bank[p->nbanks++] = (profile_bank){e->row, e->col, e->side, e->port, 0, 0};
  }
  if (e->bank_write) p->bank[i].writes++;
  else p->bank[i].reads++;
}

/* An issue whose word may still come (an `insn` of the same cycle
 * follows every `issue` of it: docs/trace.md "Ordering"). */
typedef struct {
  int row, col, fu, pc;
} profile_issue;

/* The reader's state beside the profile. */
typedef struct {
  profile_words words;
  profile_issue *pend;
  size_t npend, cap;
  uint64_t cycle;
} profile_reader;

/* Returns the key of (PE (r, c), FU u, pc) in the word table. */
static uint64_t profile_key(int r, int c, int u, int pc) {
  return ((((uint64_t)(r * 64 + c) * PROFILE_MAX_FUS + (uint64_t)u) << 16) | (uint64_t)(pc & 0xffff)) + 1;
}

/* Returns 0 after classing every pending issue by its word (operation,
 * or nop and its waits) and emptying the list; -1 out of memory. */
static int profile_flush(profile *p, profile_reader *rd) {
  for (size_t i = 0; i < rd->npend; i++) {
    const profile_issue *x = &rd->pend[i];
    profile_fu *f = profile_fu_at(p, x->row, x->col, x->fu);
    profile_word *s = profile_words_find(&rd->words, profile_key(x->row, x->col, x->fu, x->pc));
    if (!f || !s) return -1;
    if (!s->key || s->in.op == ISA_OP_NOP) {
      f->nops++;
      if (s->key) f->waits += isa_insn_cycles(&s->in) - 1;
    } else {
      f->ops++;
    }
  }
  rd->npend = 0;
  return 0;
}

/* Returns 0 after taking an issue or insn event e into p; -1 out of
 * memory. */
static int profile_issue_take(profile *p, profile_reader *rd, const trace_event *e) {
  if (e->kind == TRACE_ISSUE) {
    profile_fu *f = profile_fu_at(p, e->row, e->col, e->fu);
    if (!f) return -1;
    if (f->first == UINT64_MAX) f->first = e->cycle;
    if (rd->npend == rd->cap) {
      size_t cap = rd->cap ? 2 * rd->cap : 256;
      profile_issue *n = realloc(rd->pend, cap * sizeof *n);
      if (!n) return -1;
      rd->pend = n, rd->cap = cap;
    }
    rd->pend[rd->npend++] = (profile_issue){e->row, e->col, e->fu, e->pc};
    return 0;
  }
  for (size_t i = 0; i < rd->npend; i++) { /* the word of this cycle's issue of the FU */
    const profile_issue *x = &rd->pend[i];
    if (x->row != e->row || x->col != e->col || x->fu != e->fu) continue;
    uint64_t key = profile_key(x->row, x->col, x->fu, x->pc);
    profile_word *s = profile_words_find(&rd->words, key);
    if (!s) return -1;
    if (!s->key) rd->words.n++;
    s->key = key;
    isa_word word;
    memcpy(word.w, e->word, sizeof word.w);
    if (isa_decode(&word, &s->in) != ISA_OK) s->in.op = ISA_OP_NOP, s->in.imm = 0;
    break;
  }
  return 0;
}

/* Returns 0 after taking event e into p; -1 when out of memory. */
static int profile_event(profile *p, profile_reader *rd, const trace_event *e) {
  if (e->cycle != rd->cycle && profile_flush(p, rd) != 0) return -1;
  rd->cycle = e->cycle;
  switch (e->kind) {
  case TRACE_ISSUE:
  case TRACE_INSN: return profile_issue_take(p, rd, e);
  case TRACE_HALT: {
    profile_fu *f = profile_fu_at(p, e->row, e->col, e->fu);
    if (!f) return -1;
    f->halt = e->cycle;
    break;
  }
  case TRACE_BANK: profile_bank_count(p, e); break;
  case TRACE_DONE: p->done = e->cycles; break;
  case TRACE_FAULT: p->faults++; break;
  case TRACE_RSTART:
    if (e->col >= 0 && e->col < 4) p->rstart[e->col] = e->cycle;
    break;
  case TRACE_RDONE:
    if (e->col >= 0 && e->col < 4) {
      p->rdone[e->col] = e->cycles;
      if (e->col + 1 > p->nregions) p->nregions = e->col + 1;
    }
    break;
  default: break;
  }
  return 0;
}

/* Returns 0 after reading the trace at path into *p (profile.h). */
int profile_read(const char *path, profile *p) {
  memset(p, 0, sizeof *p);
  for (int g = 0; g < 4; g++) p->rstart[g] = p->rdone[g] = UINT64_MAX;
  FILE *f = fopen(path, "r");
  if (!f) {
    diag_error_plain("profile: %s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  profile_reader rd = {0};
  char line[4096], msg[256];
  int rc = 0;
  for (long ln = 1; fgets(line, sizeof line, f); ln++) {
    trace_event e;
    int col = 1;
    int k = trace_line_parse_at(line, &e, &col, msg, sizeof msg);
    if (k == TRACE_LINE_COMMENT) continue;
    if (k == TRACE_LINE_ERROR) {
      diag_error_plain("%s:%ld:%d: %s", path, ln, col, msg);
      rc = -1;
      break;
    }
    if (profile_event(p, &rd, &e) != 0) {
      diag_error_plain("%s:%ld: PE (%d,%d) FU %d: outside the profile's %d PEs and %d FUs, or out of memory", path, ln,
                       e.row, e.col, e.fu, PROFILE_MAX_PES, PROFILE_MAX_FUS);
      rc = -1;
      break;
    }
  }
  if (rc == 0 && profile_flush(p, &rd) != 0) rc = -1;
  fclose(f);
  free(rd.words.slot);
  free(rd.pend);
  if (rc == 0 && !p->done) {
    diag_error_plain("%s: no done event: the run did not end (docs/trace.md)", path);
    rc = -1;
  }
  if (rc) profile_free(p);
  return rc;
}

/* Frees what profile_read allocated. */
void profile_free(profile *p) {
  free(p->fu);
  p->fu = NULL;
}

/* Returns the utilization of PE (r, c) (profile.h). */
double profile_pe_utilization(const profile *p, int r, int c) {
  if (!p->done || !p->nfu) return 0;
  uint64_t ops = 0;
  for (int u = 0; u < p->nfu; u++) ops += p->fu[(r * p->cols + c) * p->nfu + u].ops;
  return (double)ops / ((double)p->done * p->nfu);
}

/* Returns the cycles FU f of a run of `done` cycles was idle: before its
 * first issue, and after its halt. */
static uint64_t profile_fu_idle(const profile_fu *f, uint64_t done) {
  if (f->first == UINT64_MAX) return done;
  uint64_t busy = f->ops + f->nops + f->waits;
  return busy >= done ? 0 : done - busy;
}

/* Writes the profile's tables to f (profile.h). */
void profile_print(const profile *p, FILE *f) {
  static const char *sides = "nesw";
  fprintf(f, "profile: %llu cycles, %d x %d PEs, %d FUs each, %llu faults\n", (unsigned long long)p->done, p->rows,
          p->cols, p->nfu, (unsigned long long)p->faults);
  fprintf(f, "  %-7s %-4s %9s %9s %9s %9s %6s\n", "PE", "FU", "ops", "nops", "waits", "idle", "util");
  for (int r = 0; r < p->rows; r++)
    for (int c = 0; c < p->cols; c++)
      for (int u = 0; u < p->nfu; u++) {
        const profile_fu *x = &p->fu[(r * p->cols + c) * p->nfu + u];
        if (x->first == UINT64_MAX) continue;
        char pe[32];
        snprintf(pe, sizeof pe, "%d,%d", r, c);
        fprintf(f, "  %-7s %-4d %9llu %9llu %9llu %9llu %5.1f%%\n", pe, u, (unsigned long long)x->ops,
                (unsigned long long)x->nops, (unsigned long long)x->waits,
                (unsigned long long)profile_fu_idle(x, p->done), 100.0 * (double)x->ops / (double)p->done);
      }
  for (int i = 0; i < p->nbanks; i++)
    fprintf(f, "  bank %d,%d %c%d: %llu reads, %llu writes\n", p->bank[i].row, p->bank[i].col, sides[p->bank[i].side & 3],
            p->bank[i].bank, (unsigned long long)p->bank[i].reads, (unsigned long long)p->bank[i].writes);
  for (int g = 0; g < p->nregions; g++)
    if (p->rdone[g] != UINT64_MAX)
      fprintf(f, "  region of GC %d: %llu cycles from its start (cycle %llu)\n", g, (unsigned long long)p->rdone[g],
              (unsigned long long)(p->rstart[g] == UINT64_MAX ? 0 : p->rstart[g]));
}

/* Returns 0 after drawing DIR/utilization.svg from DIR/utilization.dat
 * with gnuplot; -1. */
static int profile_heatmap(const profile *p, const char *dir) {
  char dat[4200], gp[4200], svg[4200];
  datafile_tmp t;
  snprintf(dat, sizeof dat, "%s/utilization.dat", dir);
  snprintf(gp, sizeof gp, "%s/utilization.gp", dir);
  snprintf(svg, sizeof svg, "%s/utilization.svg", dir);
  if (datafile_tmp_open(&t, dat)) return -1;
  FILE *f = t.f;
  fprintf(f, "# column row utilization_percent (tcpa profile)\n");
  for (int r = 0; r < p->rows; r++) {
    for (int c = 0; c < p->cols; c++) fprintf(f, "%d %d %.1f\n", c, r, 100.0 * profile_pe_utilization(p, r, c));
    fputc('\n', f);
  }
  if (datafile_tmp_commit(&t) || datafile_tmp_open(&t, gp)) return -1;
  f = t.f;
  fprintf(f,
          "set terminal svg size 640,520 dynamic\nset output '%s.tmp'\n"
          "set title 'PE utilization: operation issues / (FUs x %llu cycles)'\n"
          "set xlabel 'column'\nset ylabel 'row'\nset yrange [%d.5:-0.5]\nset xrange [-0.5:%d.5]\n"
          "set cbrange [0:100]\nset cblabel '%%'\nset palette defined (0 'white', 50 'orange', 100 'red')\n"
          "set xtics 1\nset ytics 1\n"
          "plot '%s' using 1:2:3 with image notitle, '' using 1:2:(sprintf('%%.0f%%%%', $3)) with labels notitle\n",
          svg, (unsigned long long)p->done, p->rows - 1, p->cols - 1, dat);
  if (datafile_tmp_commit(&t)) return -1;
  return plot_gnuplot_run("profile", gp, svg);
}

/* Returns 0 after writing the tables and the heat map (profile.h). */
int profile_write(const profile *p, const char *dir) {
  char path[4200];
  static const char *sides = "nesw";
  datafile_tmp t;
  snprintf(path, sizeof path, "%s/profile.tsv", dir);
  if (datafile_tmp_open(&t, path)) return -1;
  FILE *f = t.f;
  fprintf(f, "row\tcol\tfu\tops\tnops\twaits\tidle\tfirst\thalt\n");
  for (int r = 0; r < p->rows; r++)
    for (int c = 0; c < p->cols; c++)
      for (int u = 0; u < p->nfu; u++) {
        const profile_fu *x = &p->fu[(r * p->cols + c) * p->nfu + u];
        if (x->first == UINT64_MAX) continue;
        fprintf(f, "%d\t%d\t%d\t%llu\t%llu\t%llu\t%llu\t%llu\t", r, c, u, (unsigned long long)x->ops,
                (unsigned long long)x->nops, (unsigned long long)x->waits,
                (unsigned long long)profile_fu_idle(x, p->done), (unsigned long long)x->first);
        if (x->halt == UINT64_MAX) fprintf(f, "-\n");
        else fprintf(f, "%llu\n", (unsigned long long)x->halt);
      }
  if (datafile_tmp_commit(&t)) return -1;
  snprintf(path, sizeof path, "%s/banks.tsv", dir);
  if (datafile_tmp_open(&t, path)) return -1;
  f = t.f;
  fprintf(f, "row\tcol\tside\tbank\treads\twrites\n");
  for (int i = 0; i < p->nbanks; i++)
    fprintf(f, "%d\t%d\t%c\t%d\t%llu\t%llu\n", p->bank[i].row, p->bank[i].col, sides[p->bank[i].side & 3],
            p->bank[i].bank, (unsigned long long)p->bank[i].reads, (unsigned long long)p->bank[i].writes);
  if (datafile_tmp_commit(&t)) return -1;
  return profile_heatmap(p, dir);
}
