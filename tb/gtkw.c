/*
 * gtkw.c: GTKWave save files for a lockstep divergence (gtkw.h).
 *
 * The signal list is read from the FST by running GTKWave's `fst2vcd` and
 * parsing the VCD header it prints ($scope / $var / $upscope up to
 * $enddefinitions); the child is stopped as soon as the header is read, so
 * a large dump costs nothing. The save file uses GTKWave's line format:
 * `[dumpfile]`, `[timestart]` (left edge of the view), `*ZOOM MARKER` then
 * the 26 named markers (-1: unset), `[treeopen]` for each level of the PE
 * scope, and the traces: `@FLAGS` sets the display flags of the following
 * names (0x22 hex, 0x28 binary, both right-justified; 0x800200 opens a
 * group, 0x1000200 closes it, the group's name on a `-` line). A focus
 * unit (the divergent FU or register, named as in the checker's report) is
 * mapped to the RTL's names (docs/rtl.md "Signal names": rdK is
 * u_regfile.rd_q[K], FU F is g_fu[F].u_fu, ...) and its main signals (pc,
 * instruction, write-back; a register's value, an fd's or FIFO's head,
 * pointers or count and strobes) come first in a group of their own, then
 * every sub-scope of the PE as usual.
 *
 * Ready to read (docs/trace.md "Waveform at the divergence"): the window
 * is GTKW_WINDOW_W x GTKW_WINDOW_H, the signal tree (SST) collapsed, the
 * signal pane GTKW_SIGNALS_PIXELS wide, and every trace inside the PE
 * carries an alias (`+{name} full.name`): its name below the PE's scope,
 * which the group's label gives, with spaces for dots (GTKWave shows an
 * alias only from its last dot on), so names and values fit. 32-bit values are
 * data: in the focus group each is shown twice, in hex and in signed
 * decimal (flags 0x424); one-bit signals in binary, the rest in hex. With
 * a translate filter file (gtkw_view.insn_filter: `^1 FILE` before a trace
 * with flag 0x2000) the focus FU's `word` is shown a second time as its
 * disassembly (`...u_fu.insn`).
 * GTKWave draws pixelsperframe (200) / 2^-zoom pixels per time unit, so the
 * zoom that fits `span` units into GTKW_WAVE_PIXELS is
 * log2(GTKW_WAVE_PIXELS / (200 * span)).
 *
 * gtkw_compare_write writes the save file of a merged FST (tb/wave_merge.h):
 * each signal of the PE as a pair, the model's (expected) above the RTL's
 * (actual), the divergent FU's decoded instruction, operands, result,
 * registers and ports first, and the mismatch signals.
 */
#include "gtkw.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define GTKW_WINDOW_W 1600      /* [size]: the window */
#define GTKW_WINDOW_H 1000
#define GTKW_SST_PIXELS 1       /* the signal tree: collapsed to nothing */
#define GTKW_SIGNALS_PIXELS 600 /* the signal pane: names and values */
#define GTKW_WAVE_PIXELS (GTKW_WINDOW_W - GTKW_SST_PIXELS - GTKW_SIGNALS_PIXELS - 30) /* the wave pane */
#define GTKW_PIXELS_PER_FRAME 200.0 /* GTKWave's default pixelsperframe */
#define GTKW_MAX_HEADER (64u << 20) /* VCD header bytes read at most */

int gtkw_pe_scope(char *buf, size_t sz, const char *pattern, int row, int col) {
  const char *p = pattern ? pattern : GTKW_PE_SCOPE_DEFAULT;
  size_t n = 0;
  char num[16];
  for (; *p; p++) {
    const char *add = NULL;
    char one[2] = {*p, 0};
    if (p[0] == '%' && (p[1] == 'r' || p[1] == 'c')) {
      snprintf(num, sizeof num, "%d", p[1] == 'r' ? row : col);
      add = num;
      p++;
    } else {
      add = one;
    }
    for (const char *a = add; *a; a++, n++)
      if (n + 1 < sz) buf[n] = *a;
  }
  if (sz) buf[n < sz ? n : sz - 1] = 0;
  return (int)n;
}

int gtkw_view_at(gtkw_view *v, uint64_t t0, uint64_t period, uint64_t cycle, int window) {
  if (window < 1) window = 1;
  if (period == 0 || cycle > (UINT64_MAX - t0) / period / 2) return -1;
  memset(v, 0, sizeof *v);
  uint64_t w = (uint64_t)window * period;
  v->marker = t0 + cycle * period;
  v->start = v->marker > w ? v->marker - w : 0;
  v->end = v->marker + w + period; /* the divergence cycle itself in full */
  return 0;
}

/* Vectors wider than this are left out of a save file (see below). */
#define GTKW_MAX_BITS 4096

int gtkw_signals_add(gtkw_signals *s, const char *name, int width) {
  for (int i = 0; i < s->n; i++)
    if (!strcmp(s->v[i].name, name)) return 0;
  if (s->n == s->cap) {
    int nc = s->cap ? 2 * s->cap : 32;
    gtkw_signal *p = realloc(s->v, (size_t)nc * sizeof *p);
    if (!p) return -1;
    s->v = p;
    s->cap = nc;
  }
  if (!(s->v[s->n].name = strdup(name))) return -1;
  s->v[s->n++].width = width;
  return 0;
}

void gtkw_signals_free(gtkw_signals *s) {
  for (int i = 0; i < s->n; i++) free(s->v[i].name);
  free(s->v);
  s->v = NULL;
  s->n = s->cap = 0;
}

/* The signals of a focus unit's scope worth a look at a divergence (base
 * names: without the range or an array index); NULL-terminated. */
static const char *const gtkw_fu_leaves[] = {"pc_q", "word", "op", "val", "issue_o", "halt_o", "halted_q",
                                             "flag_q", "src_val_i", "wb_o", "wb_dst_o",
                                             "wb_odmask_o", "wb_val_o", NULL};
static const char *const gtkw_fd_leaves[] = {"head_o", "r_q", "w_q", "depth_q", "rd_i", "we_i",
                                             "wdata_i", NULL};
static const char *const gtkw_fifo_leaves[] = {"head_o", "cnt_q", "empty_o", "pop_i", "push_i",
                                               "push_data_i", "drop_o", NULL};

/* Returns 1 when rel is signal `reg` (followed by nothing or its range) or,
 * with leaves, a signal directly in scope `reg` (ending in '.') whose base
 * name is one of leaves. */
static int gtkw_rel_is(const char *rel, const char *reg, const char *const *leaves) {
  size_t n = strlen(reg);
  if (strncmp(rel, reg, n)) return 0;
  const char *rest = rel + n;
  if (!leaves) return rest[0] == 0 || rest[0] == '[';
  size_t b = strcspn(rest, "[.");
  if (rest[b] == '.') return 0; /* deeper scope */
  for (; *leaves; leaves++)
    if (strlen(*leaves) == b && !strncmp(rest, *leaves, b)) return 1;
  return 0;
}

int gtkw_focus_match(const char *rel, const char *focus) {
  if (!focus) return 0;
  char want[64];
  const char *s = focus;
  while (*s) {
    while (*s == ' ') s++;
    const char *e = s;
    while (*e && *e != ' ') e++;
    size_t n = (size_t)(e - s);
    int k = -1;
    const char *const *leaves = NULL;
    want[0] = 0;
    if (n == 2 && !strncmp(s, "FU", 2)) {
      if (sscanf(e, " %d", &k) == 1 && k >= 0) snprintf(want, sizeof want, "g_fu[%d].u_fu.", k);
      leaves = gtkw_fu_leaves;
    } else if (n >= 3 && n < 12 && strspn(s + 2, "0123456789") == n - 2) {
      k = atoi(s + 2);
      if (!strncmp(s, "rd", 2)) snprintf(want, sizeof want, "u_regfile.rd_q[%d]", k);
      else if (!strncmp(s, "od", 2)) snprintf(want, sizeof want, "od_q[%d]", k);
      else if (!strncmp(s, "fd", 2)) snprintf(want, sizeof want, "g_fd[%d].u_fd.", k), leaves = gtkw_fd_leaves;
      else if (!strncmp(s, "id", 2))
        snprintf(want, sizeof want, "g_fifo[%d].u_fifo.", k), leaves = gtkw_fifo_leaves;
    }
    if (want[0] && gtkw_rel_is(rel, want, leaves)) return 1;
    s = e;
  }
  return 0;
}

int gtkw_unit_match(const char *name, const char *names) {
  for (const char *s = names; s && *s;) {
    while (*s == ' ') s++;
    size_t n = strcspn(s, " ");
    if (n && !strncmp(name, s, n) && (name[n] == 0 || name[n] == '.' || name[n] == '[')) return 1;
    s += n;
  }
  return 0;
}

/* Returns the next whitespace-separated token of *p (length in *len) and
 * advances *p; NULL at the end. */
static const char *gtkw_token(const char **p, size_t *len) {
  const char *s = *p;
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
  if (!*s) return *p = s, NULL;
  const char *e = s;
  while (*e && *e != ' ' && *e != '\t' && *e != '\n' && *e != '\r') e++;
  *len = (size_t)(e - s);
  *p = e;
  return s;
}

/* Returns 1 when token t (length n) equals s. */
static int gtkw_tok_is(const char *t, size_t n, const char *s) {
  return strlen(s) == n && !strncmp(t, s, n);
}

/* Returns 1 when a top-scope variable is a clock or reset worth showing. */
static int gtkw_is_clock(const char *ref, size_t n) {
  static const char *const names[] = {"clk_i", "rst_ni", "clk", "clock", "rst", "rst_n", "reset"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (gtkw_tok_is(ref, n, names[i])) return 1;
  return 0;
}

int gtkw_vcd_header_signals(const char *vcd_text, const char *scope, gtkw_signals *out) {
  char path[1024] = "";
  size_t plen = 0, slen = strlen(scope);
  int depth = 0;
  const char *p = vcd_text, *t;
  size_t n;
  while ((t = gtkw_token(&p, &n))) {
    if (gtkw_tok_is(t, n, "$enddefinitions")) return 0;
    if (gtkw_tok_is(t, n, "$scope")) {
      const char *kind = gtkw_token(&p, &n), *name = kind ? gtkw_token(&p, &n) : NULL;
      if (!name || plen + n + 2 > sizeof path) return -1;
      if (plen) path[plen++] = '.';
      memcpy(path + plen, name, n);
      path[plen += n] = 0;
      depth++;
    } else if (gtkw_tok_is(t, n, "$upscope")) {
      if (!depth--) return -1;
      char *dot = strrchr(path, '.');
      plen = dot ? (size_t)(dot - path) : 0;
      path[plen] = 0;
    } else if (gtkw_tok_is(t, n, "$var")) {
      size_t wn, rn;
      const char *type = gtkw_token(&p, &n), *w = type ? gtkw_token(&p, &wn) : NULL;
      const char *id = w ? gtkw_token(&p, &n) : NULL, *ref = id ? gtkw_token(&p, &rn) : NULL;
      if (!ref) return -1;
      /* a vector's range (`dbg_pc_o [23:0]`) is part of GTKWave's name of
       * it, written without the space (`dbg_pc_o[23:0]`) */
      const char *after = p, *range;
      size_t gn;
      if (!(range = gtkw_token(&after, &gn)) || range[0] != '[') range = NULL, gn = 0;
      else p = after;
      char full[1400];
      snprintf(full, sizeof full, "%s%s%.*s%.*s", path, plen ? "." : "", (int)rn, ref, (int)gn,
               range ? range : "");
      int under = !strncmp(full, scope, slen) && (full[slen] == '.' || full[slen] == '[' || full[slen] == 0);
      /* a vector wider than GTKW_MAX_BITS (the GC terms' 36864-bit
       * delta_i) is left out: GTKWave 3.3 hangs drawing it as text */
      if ((under || (depth == 1 && gtkw_is_clock(ref, rn))) && atoi(w) <= GTKW_MAX_BITS &&
          gtkw_signals_add(out, full, atoi(w)))
        return -1;
      continue; /* the rest up to $end is skipped below */
    } else if (t[0] != '$' || gtkw_tok_is(t, n, "$end")) {
      continue;
    }
    /* skip to the $end of this section ($scope and $upscope included) */
    while ((t = gtkw_token(&p, &n)) && !gtkw_tok_is(t, n, "$end")) {}
    if (!t) return -1;
  }
  return -1; /* no $enddefinitions */
}

/* Returns the malloc'ed VCD header that fst2vcd prints for fst_path (up to
 * and including $enddefinitions); NULL with the reason in msg. */
static char *gtkw_fst_header(const char *fst_path, char *msg, size_t msgsz) {
  int fd[2];
  if (access(fst_path, R_OK) != 0) {
    snprintf(msg, msgsz, "cannot read '%s': %s", fst_path, strerror(errno));
    return NULL;
  }
  if (pipe(fd) != 0) {
    snprintf(msg, msgsz, "pipe: %s", strerror(errno));
    return NULL;
  }
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(msg, msgsz, "fork: %s", strerror(errno));
    close(fd[0]), close(fd[1]);
    return NULL;
  }
  if (pid == 0) {
    int nul = open("/dev/null", O_WRONLY);
    dup2(fd[1], 1);
    if (nul >= 0) dup2(nul, 2);
    close(fd[0]), close(fd[1]);
    execlp("fst2vcd", "fst2vcd", "-f", fst_path, (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  int done = 0;
  while (buf && !done && len < GTKW_MAX_HEADER) {
    if (len + 4096 + 1 > cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) free(buf);
      buf = nb;
      if (!buf) break;
    }
    ssize_t r = read(fd[0], buf + len, cap - len - 1);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    size_t from = len > 16 ? len - 16 : 0;
    len += (size_t)r;
    buf[len] = 0;
    if (strstr(buf + from, "$enddefinitions")) done = 1;
  }
  close(fd[0]);
  kill(pid, SIGTERM); /* our own child; the header is all we need */
  int st;
  waitpid(pid, &st, 0);
  if (!buf) {
    snprintf(msg, msgsz, "out of memory");
    return NULL;
  }
  if (!done) {
    snprintf(msg, msgsz, "fst2vcd gave no VCD header for '%s'%s", fst_path,
             WIFEXITED(st) && WEXITSTATUS(st) == 127 ? " (fst2vcd not found: install gtkwave)"
                                                    : "");
    free(buf);
    return NULL;
  }
  return buf;
}

int gtkw_fst_signals(const char *fst_path, const char *scope, gtkw_signals *out,
                     char *msg, size_t msgsz) {
  char *hdr = gtkw_fst_header(fst_path, msg, msgsz);
  if (!hdr) return -1;
  int rc = gtkw_vcd_header_signals(hdr, scope, out);
  if (rc) snprintf(msg, msgsz, "malformed VCD header from fst2vcd for '%s'", fst_path);
  free(hdr);
  return rc;
}

int gtkw_fst_unit_signals(const char *fst_path, const char *side, const char *unit, gtkw_signals *out,
                          char *msg, size_t msgsz) {
  for (const char *u = unit; *u;) {
    while (*u == ' ') u++;
    size_t n = strcspn(u, " ");
    char tok[700];
    snprintf(tok, sizeof tok, "%s%.*s", side, (int)(n < 600 ? n : 600), u);
    if (n && gtkw_fst_signals(fst_path, tok, out, msg, msgsz)) return -1;
    u += n;
  }
  return 0;
}

/* Returns the group key of a signal: its sub-scope below `scope` ("" for
 * the PE's own signals), or NULL for signals outside the scope. The key is
 * written to buf. */
static const char *gtkw_group_of(const char *name, const char *scope, char *buf, size_t sz) {
  size_t sl = strlen(scope);
  if (strncmp(name, scope, sl) || name[sl] != '.') return NULL;
  const char *rel = name + sl + 1, *dot = strrchr(rel, '.');
  snprintf(buf, sz, "%.*s", dot ? (int)(dot - rel) : 0, rel);
  return buf;
}

/* Writes one trace: display flags (hex), then the name with an alias when
 * one is given. */
static void gtkw_trace(FILE *f, unsigned flags, const char *alias, const char *name) {
  fprintf(f, "@%x\n", flags);
  if (alias) fprintf(f, "+{%s} ", alias);
  fprintf(f, "%s\n", name);
}

/* Returns the display flags of a signal of `width` bits: binary for one
 * bit, hex (right-justified) otherwise; signed decimal when `dec`. */
static unsigned gtkw_flags(int width, int dec) {
  return dec ? 0x424u : width == 1 ? 0x28u : 0x22u;
}

/* Returns the alias of signal s: its name below scope (after "scope."),
 * the dots made spaces (GTKWave shows only the part of an alias after its
 * last dot), in buf. */
static const char *gtkw_rel(const char *s, const char *scope, char *buf, size_t sz) {
  size_t n = strlen(scope);
  snprintf(buf, sz, "%s", !strncmp(s, scope, n) && s[n] == '.' ? s + n + 1 : s);
  for (char *p = buf; *p; p++)
    if (*p == '.') *p = ' ';
  return buf;
}

/* Writes the traces of one group: the signals whose key equals `key`
 * (NULL: outside the scope). */
static void gtkw_write_group(FILE *f, const gtkw_view *v, const gtkw_signals *s,
                             const char *key, const char *label) {
  char k[512];
  int any = 0;
  for (int i = 0; i < s->n; i++) {
    const char *g = gtkw_group_of(s->v[i].name, v->pe_scope, k, sizeof k);
    if (key ? (!g || strcmp(g, key)) : g != NULL) continue;
    if (!key && gtkw_unit_match(s->v[i].name, v->unit_names)) continue; /* in the focus group */
    if (!any) fprintf(f, "@800200\n-%s\n", label);
    any = 1;
    char alias[600];
    gtkw_trace(f, gtkw_flags(s->v[i].width, 0), key ? gtkw_rel(s->v[i].name, v->pe_scope, alias, sizeof alias) : NULL,
               s->v[i].name);
  }
  if (any) fprintf(f, "@1000200\n-%s\n", label);
}

#define GTKW_FOCUS_RANKS 5

/* Returns the place of signal rel (below the PE) in the focus group: 0 the
 * FU's instruction, 1 its operands, 2 its write-back (result), 3 the
 * registers, 4 the rest (pc, strobes, pointers). */
static int gtkw_focus_rank(const char *rel) {
  const char *leaf = strrchr(rel, '.');
  leaf = leaf ? leaf + 1 : rel;
  size_t n = strcspn(leaf, "[");
  if (strstr(rel, "u_fu.")) {
    if (n == 4 && !strncmp(leaf, "word", 4)) return 0;
    if ((n == 3 && !strncmp(leaf, "val", 3)) || (n == 9 && !strncmp(leaf, "src_val_i", 9))) return 1;
    if (!strncmp(leaf, "wb_", 3)) return 2;
    return 4;
  }
  if (!strncmp(rel, "u_regfile.", 10) || !strncmp(rel, "od_q[", 5) || (n == 6 && !strncmp(leaf, "head_o", 6))) return 3;
  return 4;
}

/* Writes the group of the focus unit's signals (nothing without one). */
static void gtkw_write_focus(FILE *f, const gtkw_view *v, const gtkw_signals *s) {
  size_t sl = strlen(v->pe_scope);
  char label[300];
  snprintf(label, sizeof label, "divergence: %s", v->focus ? v->focus : "");
  int any = 0;
  for (const char *u = v->unit_names; u && *u;) { /* the unit's scopes and signals, in their order */
    while (*u == ' ') u++;
    size_t n = strcspn(u, " ");
    char tok[400];
    snprintf(tok, sizeof tok, "%.*s", (int)(n < sizeof tok ? n : sizeof tok - 1), u);
    for (int i = 0; n && i < s->n; i++) {
      if (!gtkw_unit_match(s->v[i].name, tok)) continue;
      if (!any) fprintf(f, "@800200\n-%s\n", label);
      any = 1;
      char rel[600];
      const char *dot = strrchr(tok, '.'); /* the alias: the name below the token's parent scope */
      gtkw_rel(s->v[i].name, dot ? "" : tok, rel, sizeof rel);
      if (dot) {
        size_t pl = (size_t)(dot - tok);
        snprintf(rel, sizeof rel, "%s", s->v[i].name + pl + 1);
        for (char *q = rel; *q; q++)
          if (*q == '.') *q = ' ';
      }
      gtkw_trace(f, gtkw_flags(s->v[i].width, 0), rel, s->v[i].name);
      if (s->v[i].width == 32) {
        char alias[700];
        snprintf(alias, sizeof alias, "%s dec", rel);
        gtkw_trace(f, gtkw_flags(32, 1), alias, s->v[i].name);
      }
    }
    u += n;
  }
  for (int k = 0; k < s->n * GTKW_FOCUS_RANKS && v->focus; k++) {
    int i = k % s->n; /* rank k / n: instruction, operands, result, registers, the rest */
    const char *name = s->v[i].name;
    if (strncmp(name, v->pe_scope, sl) || name[sl] != '.' || !gtkw_focus_match(name + sl + 1, v->focus) ||
        gtkw_focus_rank(name + sl + 1) != k / s->n)
      continue;
    if (!any) fprintf(f, "@800200\n-%s\n", label);
    any = 1;
    char rel[600];
    gtkw_rel(name, v->pe_scope, rel, sizeof rel);
    if (v->insn_filter && s->v[i].width == 128 && strstr(rel, "u_fu word[")) {
      char alias[700]; /* the instruction decoded through the filter file */
      snprintf(alias, sizeof alias, "%.*s insn", (int)(strstr(rel, " word[") - rel), rel);
      fprintf(f, "^1 %s\n", v->insn_filter);
      gtkw_trace(f, 0x2022, alias, name);
    }
    gtkw_trace(f, gtkw_flags(s->v[i].width, 0), rel, name);
    if (s->v[i].width == 32) {
      char alias[700];
      snprintf(alias, sizeof alias, "%s dec", rel);
      gtkw_trace(f, gtkw_flags(32, 1), alias, name);
    }
  }
  if (any) fprintf(f, "@1000200\n-%s\n", label);
}

/* Returns "(R,C)" for a PE scope naming g_row[R].g_col[C] (static
 * buffer), else the scope itself. */
static const char *gtkw_pe_name(const char *scope) {
  static char buf[64];
  int r, c;
  const char *g = strstr(scope, "g_row[");
  if (g && sscanf(g, "g_row[%d].g_col[%d]", &r, &c) == 2) {
    snprintf(buf, sizeof buf, "(%d,%d)", r, c);
    return buf;
  }
  return scope;
}

/* Writes the header of a save file: dump file, window, zoom and marker,
 * tree, pane sizes. */
static void gtkw_emit_head(FILE *f, const char *fst_abs, const gtkw_view *v, const char *writer) {
  double span = (double)(v->end - v->start);
  double zoom = span > 0 ? log2((double)GTKW_WAVE_PIXELS / (GTKW_PIXELS_PER_FRAME * span)) : 0.0;
  fprintf(f, "[*]\n[*] %s\n[*] written by %s (tb/gtkw.c)\n[*]\n", v->comment ? v->comment : "lockstep divergence",
          writer);
  fprintf(f, "[dumpfile] \"%s\"\n", fst_abs);
  fprintf(f, "[timestart] %llu\n", (unsigned long long)v->start);
  fprintf(f, "[size] %d %d\n[pos] 0 0\n", GTKW_WINDOW_W, GTKW_WINDOW_H);
  fprintf(f, "*%.6f %llu", zoom, (unsigned long long)v->marker);
  for (int i = 0; i < 26; i++) fputs(" -1", f);
  fputc('\n', f);
  for (const char *d = v->pe_scope; (d = strchr(d, '.')); d++)
    fprintf(f, "[treeopen] %.*s.\n", (int)(d - v->pe_scope), v->pe_scope);
  fprintf(f, "[treeopen] %s.\n", v->pe_scope);
  fprintf(f, "[sst_width] %d\n[signals_width] %d\n[sst_expanded] 0\n[sst_vpaned_height] 300\n", GTKW_SST_PIXELS,
          GTKW_SIGNALS_PIXELS);
}

/* Writes the whole save file to f. */
static void gtkw_emit(FILE *f, const char *fst_abs, const gtkw_view *v, const gtkw_signals *s) {
  gtkw_emit_head(f, fst_abs, v, "tcpa cosim-check");
  gtkw_write_group(f, v, s, NULL, "top");
  gtkw_write_focus(f, v, s);
  /* groups in order of first appearance: the PE's own signals, then each
   * sub-scope (functional units, registers, wrapper, ...) */
  char k[512], k2[512];
  for (int i = 0; i < s->n; i++) {
    const char *g = gtkw_group_of(s->v[i].name, v->pe_scope, k, sizeof k);
    if (!g) continue;
    int seen = 0;
    for (int j = 0; j < i && !seen; j++) {
      const char *h = gtkw_group_of(s->v[j].name, v->pe_scope, k2, sizeof k2);
      seen = h && !strcmp(h, g);
    }
    if (seen) continue;
    char label[600];
    snprintf(label, sizeof label, "PE %s%s%s", gtkw_pe_name(v->pe_scope), g[0] ? " " : "", g);
    gtkw_write_group(f, v, s, g, label);
  }
}

/* ---- the save file of a merged FST (model and RTL side by side) ----------- */

/* Returns the index in s of the signal `side`.`pe`.`rel` (rel without its
 * range: the name equals it or goes on with '['), or -1. */
static int gtkw_find(const gtkw_signals *s, const char *side, const char *pe, const char *rel) {
  char want[1024];
  int n = snprintf(want, sizeof want, "%s%s%s%s%s", side, pe[0] ? "." : "", pe, rel[0] ? "." : "", rel);
  if (n < 0 || (size_t)n >= sizeof want) return -1;
  for (int i = 0; i < s->n; i++) {
    const char *x = s->v[i].name;
    if (!strncmp(x, want, (size_t)n) && (x[n] == 0 || x[n] == '[')) return i;
  }
  return -1;
}

/* Writes the pair of `rel` in PE scope `pe`: the model's (expected) above
 * the RTL's (actual), aliased "model label" / "RTL label"; both in signed
 * decimal too when `dec` and the signal is 32 bits wide. Returns 1 when
 * both sides have it. */
static int gtkw_pair(FILE *f, const gtkw_signals *s, const char *pe, const char *rel, const char *label, int dec) {
  int m = gtkw_find(s, "model", pe, rel), r = gtkw_find(s, "rtl", pe, rel);
  if (m < 0 || r < 0) return 0;
  char am[400], ar[400];
  int w = s->v[r].width;
  snprintf(am, sizeof am, "model %s", label);
  snprintf(ar, sizeof ar, "RTL %s", label);
  gtkw_trace(f, gtkw_flags(w, 0), am, s->v[m].name);
  gtkw_trace(f, gtkw_flags(w, 0), ar, s->v[r].name);
  if (dec && w == 32) {
    snprintf(am, sizeof am, "model %s dec", label);
    snprintf(ar, sizeof ar, "RTL %s dec", label);
    gtkw_trace(f, gtkw_flags(w, 1), am, s->v[m].name);
    gtkw_trace(f, gtkw_flags(w, 1), ar, s->v[r].name);
  }
  return 1;
}

/* Writes mismatch signal `name` of the PE's (pe NULL: the machine's)
 * mismatch scope, aliased "mismatch name". */
static void gtkw_mismatch(FILE *f, const gtkw_signals *s, const char *pe, const char *name) {
  char alias[200];
  int i = gtkw_find(s, "mismatch", pe ? pe : "", name);
  if (i < 0) return;
  snprintf(alias, sizeof alias, "mismatch %s", name);
  gtkw_trace(f, 0x28, alias, s->v[i].name);
}

/* Returns the name below the PE of the main signal of register `reg`
 * ("rd3": u_regfile.rd_q[3], "od0": od_q[0], "id1": the FIFO's head,
 * "fd2": the fd's head) in buf, or NULL. */
static const char *gtkw_reg_rel(const char *reg, char *buf, size_t sz) {
  int k;
  char c[3] = {0};
  if (sscanf(reg, "%2[a-z]%d", c, &k) != 2 || k < 0) return NULL;
  if (!strcmp(c, "rd")) snprintf(buf, sz, "u_regfile.rd_q[%d]", k);
  else if (!strcmp(c, "od")) snprintf(buf, sz, "od_q[%d]", k);
  else if (!strcmp(c, "id")) snprintf(buf, sz, "g_fifo[%d].u_fifo.head_o", k);
  else if (!strcmp(c, "fd")) snprintf(buf, sz, "g_fd[%d].u_fd.head_o", k);
  else return NULL;
  return buf;
}

/* Writes the pairs of the unit's signals (c->unit_names: scopes or
 * signals) that both sides have, in the model's order. */
static void gtkw_compare_unit(FILE *f, const gtkw_compare *c, const gtkw_signals *s) {
  for (const char *u = c->unit_names; u && *u;) {
    while (*u == ' ') u++;
    size_t n = strcspn(u, " ");
    char tok[400];
    snprintf(tok, sizeof tok, "model.%.*s", (int)(n < 300 ? n : 300), u);
    const char *dot = strrchr(tok, '.');
    size_t pl = dot ? (size_t)(dot - tok) : 0;
    for (int i = 0; n && i < s->n; i++) {
      const char *x = s->v[i].name;
      if (!gtkw_unit_match(x, tok)) continue;
      char rel[600], lab[600];
      snprintf(rel, sizeof rel, "%s", x + 6); /* below "model." */
      char *last = strrchr(rel, '[');
      if (last && strchr(last, ':')) *last = 0; /* the name without its range */
      snprintf(lab, sizeof lab, "%s", rel + (pl > 6 ? pl - 6 + 1 : 0));
      for (char *q = lab; *q; q++)
        if (*q == '.') *q = ' ';
      gtkw_pair(f, s, "", rel, lab, 1);
    }
    u += n;
  }
}

/* Writes the focus group: the divergent FU's instruction, operands and
 * result, the registers, the ports, each as a pair. */
static void gtkw_compare_focus(FILE *f, const gtkw_compare *c, const gtkw_signals *s, const char *pe,
                               const char *mpe) {
  char label[400], rel[200], lab[200];
  snprintf(label, sizeof label, "%s", c->title ? c->title : "divergence");
  fprintf(f, "@800200\n-%s\n", label);
  gtkw_mismatch(f, s, mpe, "any");
  if (c->mclass) gtkw_mismatch(f, s, c->mclass_machine ? NULL : mpe, c->mclass);
  gtkw_compare_unit(f, c, s);
  if (c->fu >= 0) {
    static const char *const ops[] = {"op_a", "op_b", "op_c"};
    snprintf(rel, sizeof rel, "g_fu[%d].u_fu.insn", c->fu);
    snprintf(lab, sizeof lab, "insn");
    gtkw_pair(f, s, pe, rel, lab, 0);
    for (int k = 0; k < c->nops && k < 3; k++) {
      snprintf(rel, sizeof rel, "g_fu[%d].u_fu.%s", c->fu, ops[k]);
      snprintf(lab, sizeof lab, "%s%s%s", ops[k], c->oplabel[k] ? " " : "", c->oplabel[k] ? c->oplabel[k] : "");
      gtkw_pair(f, s, pe, rel, lab, 1);
    }
    snprintf(rel, sizeof rel, "g_fu[%d].u_fu.result", c->fu);
    snprintf(lab, sizeof lab, "result");
    gtkw_pair(f, s, pe, rel, lab, 1);
  }
  for (const char *r = c->regs; r && *r;) {
    while (*r == ' ') r++;
    size_t n = strcspn(r, " ");
    char reg[32];
    snprintf(reg, sizeof reg, "%.*s", (int)(n < 31 ? n : 31), r);
    int again = 0; /* named before in the list */
    for (const char *q = c->regs; q < r && !again; q++)
      again = (q == c->regs || q[-1] == ' ') && !strncmp(q, r, n) && (q[n] == ' ' || q[n] == 0);
    if (n && !again && gtkw_reg_rel(reg, rel, sizeof rel)) gtkw_pair(f, s, pe, rel, reg, 1);
    r += n;
  }
  gtkw_pair(f, s, pe, "dbg_hop_o", "hop ports", 0); /* their values: in the events group */
  if (c->fu >= 0) {
    snprintf(rel, sizeof rel, "g_fu[%d].u_fu.pc_q", c->fu);
    snprintf(lab, sizeof lab, "pc");
    gtkw_pair(f, s, pe, rel, lab, 0);
  }
  fprintf(f, "@1000200\n-%s\n", label);
}

/* Writes the whole save file of a merged FST to f. */
static void gtkw_compare_emit(FILE *f, const char *fst_abs, const gtkw_compare *c, const gtkw_signals *s) {
  char rpe[600], mpe[64], label[700], rel[600];
  const char *pe = c->view.pe_scope;
  gtkw_view v = c->view;
  snprintf(rpe, sizeof rpe, "rtl.%s", pe);
  v.pe_scope = rpe;
  snprintf(mpe, sizeof mpe, "g_row[%d].g_col[%d]", c->row, c->col);
  gtkw_emit_head(f, fst_abs, &v, "tcpa wave --compare");
  int clk = gtkw_find(s, "rtl", "TOP", "clk_i");
  if (clk >= 0) gtkw_trace(f, 0x28, "clock", s->v[clk].name);
  gtkw_compare_focus(f, c, s, pe, mpe);
  /* the PE's event ports, then everything else both sides have */
  for (int pass = 0; pass < 2; pass++) {
    snprintf(label, sizeof label, "PE (%d,%d) %s", c->row, c->col, pass ? "state" : "events");
    fprintf(f, "@800200\n-%s\n", label);
    if (!pass) {
      static const char *const cls[] = {"start", "sig", "step",  "issue", "insn", "halt", "wr",   "rf",
                                        "flag",  "pop", "fdrd",  "push",  "fifo", "hop",  "bank", "bankwr",
                                        "ag",    "mem"};
      for (size_t k = 0; k < sizeof cls / sizeof *cls; k++) gtkw_mismatch(f, s, mpe, cls[k]);
    }
    size_t ml = strlen("model.") + strlen(pe);
    for (int i = 0; i < s->n; i++) {
      const char *x = s->v[i].name;
      if (strncmp(x, "model.", 6) || strncmp(x + 6, pe, strlen(pe)) || x[ml] != '.') continue;
      snprintf(rel, sizeof rel, "%s", x + ml + 1);
      int port = !strncmp(rel, "dbg_", 4);
      if (port != !pass) continue;
      char *br = strchr(rel, '[');
      /* the name without its range (an array element keeps its index) */
      if (br && strchr(br, ':')) {
        char *last = strrchr(rel, '[');
        if (strchr(last, ':')) *last = 0;
      }
      gtkw_pair(f, s, pe, rel, rel, 0);
    }
    fprintf(f, "@1000200\n-%s\n", label);
  }
  snprintf(label, sizeof label, "mismatch, whole array");
  fprintf(f, "@800200\n-%s\n", label);
  static const char *const all[] = {"any", "start", "sig",  "step", "gc",   "issue", "insn", "halt",
                                    "wr",  "rf",    "flag", "pop",  "fdrd", "push",  "fifo", "hop",
                                    "bank", "bankwr", "ag", "mem", "done"};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) gtkw_mismatch(f, s, NULL, all[k]);
  fprintf(f, "@1000200\n-%s\n", label);
}

int gtkw_compare_signals(const char *fst_path, const char *pe_scope, gtkw_signals *out, char *msg,
                         size_t msgsz) {
  char *hdr = gtkw_fst_header(fst_path, msg, msgsz);
  if (!hdr) return -1;
  char scope[700];
  int rc = 0;
  static const char *const sides[] = {"model", "rtl"};
  for (int k = 0; k < 2 && !rc; k++) {
    snprintf(scope, sizeof scope, "%s.%s", sides[k], pe_scope);
    rc = gtkw_vcd_header_signals(hdr, scope, out);
  }
  /* the clock, the array's mismatch signals (every merged FST has them)
   * and the PE's; not every signal of the array: the list is searched
   * linearly */
  static const char *const top[] = {"rtl.TOP.clk_i",   "mismatch.any",    "mismatch.start", "mismatch.sig",
                                    "mismatch.step",   "mismatch.gc",     "mismatch.issue", "mismatch.insn",
                                    "mismatch.halt",   "mismatch.wr",     "mismatch.rf",    "mismatch.flag",
                                    "mismatch.pop",    "mismatch.fdrd",   "mismatch.push",  "mismatch.fifo",
                                    "mismatch.hop",    "mismatch.bank",   "mismatch.bankwr", "mismatch.ag",
                                    "mismatch.mem",    "mismatch.done"};
  for (size_t k = 0; !rc && k < sizeof top / sizeof *top; k++) rc = gtkw_signals_add(out, top[k], 1);
  const char *g = strstr(pe_scope, "g_row[");
  int r, c;
  if (!rc && g && sscanf(g, "g_row[%d].g_col[%d]", &r, &c) == 2) {
    snprintf(scope, sizeof scope, "mismatch.g_row[%d].g_col[%d]", r, c);
    rc = gtkw_vcd_header_signals(hdr, scope, out);
  }
  if (rc) snprintf(msg, msgsz, "malformed VCD header from fst2vcd for '%s'", fst_path);
  free(hdr);
  return rc;
}

/* Writes the save file with emit_fn(f, fst_abs, ctx, sigs) to path
 * atomically; returns 0, or -1 with msg. */
static int gtkw_save(const char *path, const char *fst_path,
                     void (*emit_fn)(FILE *, const char *, const void *, const gtkw_signals *), const void *ctx,
                     const gtkw_signals *sigs, char *msg, size_t msgsz) {
  char cwd[4096], *fst_abs = NULL, *tmp = NULL;
  size_t pl = strlen(path) + 16;
  if (fst_path[0] == '/') fst_abs = strdup(fst_path);
  else if (getcwd(cwd, sizeof cwd)) {
    size_t n = strlen(cwd) + strlen(fst_path) + 2;
    if ((fst_abs = malloc(n))) snprintf(fst_abs, n, "%s/%s", cwd, fst_path);
  }
  if (!fst_abs || !(tmp = malloc(pl))) {
    snprintf(msg, msgsz, "out of memory or no current directory");
    free(fst_abs);
    return -1;
  }
  snprintf(tmp, pl, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  int rc = -1;
  if (!f) {
    snprintf(msg, msgsz, "cannot write '%s': %s", path, strerror(errno));
    if (fd >= 0) close(fd), unlink(tmp);
  } else {
    emit_fn(f, fst_abs, ctx, sigs);
    int bad = fflush(f) != 0 || ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (bad || rename(tmp, path) != 0) {
      snprintf(msg, msgsz, "cannot write '%s': %s", path, strerror(errno));
      unlink(tmp);
    } else {
      rc = 0;
    }
  }
  free(tmp);
  free(fst_abs);
  return rc;
}

/* gtkw_save's emitter of a single FST's save file. */
static void gtkw_emit_view(FILE *f, const char *fst_abs, const void *ctx, const gtkw_signals *s) {
  gtkw_emit(f, fst_abs, ctx, s);
}

/* gtkw_save's emitter of a merged FST's save file. */
static void gtkw_emit_compare(FILE *f, const char *fst_abs, const void *ctx, const gtkw_signals *s) {
  gtkw_compare_emit(f, fst_abs, ctx, s);
}

int gtkw_write(const char *path, const gtkw_view *v, const gtkw_signals *sigs, char *msg, size_t msgsz) {
  return gtkw_save(path, v->fst_path, gtkw_emit_view, v, sigs, msg, msgsz);
}

int gtkw_compare_write(const char *path, const gtkw_compare *c, const gtkw_signals *sigs, char *msg,
                       size_t msgsz) {
  return gtkw_save(path, c->view.fst_path, gtkw_emit_compare, c, sigs, msg, msgsz);
}
