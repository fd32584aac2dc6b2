/*
 * wave_merge.c: the RTL's and the model's FSTs merged into one
 * (wave_merge.h, docs/trace.md "Model and RTL in one waveform").
 *
 * Each input is read twice with GTKWave's FST reader: its hierarchy
 * (fstReaderIterateHier), replayed into the writer under a new top scope
 * (`rtl`, `model`) with every variable and alias recreated and the derived
 * signals of each FU (insn, op_a..op_c, result) declared beside its
 * `word`; then every value change (fstReaderIterBlocks2), kept in memory
 * as (time, side, handle, value). The two lists are merged by time: at each
 * time all changes of both sides are applied to the current values, then
 * the derived signals and the mismatch signals are recomputed from them
 * and whatever changed is written. Nothing is written before the first
 * time at which both sides have values (the RTL's FST of a divergence
 * starts with its window), so every mismatch value compares real values.
 *
 * wave_merge_value_at reads one signal at one time (the divergence report's
 * instruction and operands), wave_merge_insn_filter writes a GTKWave
 * translate filter of the instruction words an FST holds, and
 * wave_merge_time_range gives an FST's first and last time.
 *
 * Names are looked up without the space GTKWave puts before a range
 * (`dbg_wr_o [1:0]` is found as `dbg_wr_o[1:0]`, or by its base name
 * `dbg_wr_o` when the range does not matter).
 */
#include "wave_merge.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fstapi.h"
#include "isa.h"
#include "wave_mem.h"

#define WM_PATH 2048

static const char *const wm_class_names[WAVE_MERGE_CLASSES] = {
    "start", "sig", "issue", "halt", "wr", "pop", "push", "fdrd", "hop", "done", "insn",
    "step", "gc", "rf", "flag", "fifo", "bank", "bankwr", "ag", "mem"};

/* Where a group of ports lives: the PE's scope, the top's scope (the
 * machine's: gc, done), or each AG scope of the PE's border banks
 * (g_row[R].g_col[C].g_side[S].g_bank[B].g_ag.u_ag, beside u_pe). */
enum { WM_AT_PE, WM_AT_TOP, WM_AT_AG };

/* The event ports of a class, in groups: each group's valid bits (one per
 * event slot; NULL: the first field compared whole) and the value fields
 * of each slot (field k of a port at bits k*W..). A class differs when
 * one of its groups does. */
static const struct {
  int cls, at;
  const char *valid;
  const char *fields[3];
} wm_groups[] = {
    {0, WM_AT_PE, "dbg_start_o", {NULL}},
    {1, WM_AT_PE, NULL, {"dbg_sig_o", NULL}}, /* compared whole */
    {2, WM_AT_PE, "dbg_issue_o", {"dbg_pc_o", NULL}},
    {3, WM_AT_PE, "dbg_halt_o", {NULL}},
    {4, WM_AT_PE, "dbg_wr_o", {"dbg_wr_dst_o", "dbg_wr_odmask_o", "dbg_wr_val_o"}},
    {5, WM_AT_PE, "dbg_idrd_o", {NULL}},
    {6, WM_AT_PE, "dbg_push_o", {"dbg_push_val_o", NULL}},
    {7, WM_AT_PE, "dbg_fdrd_o", {"dbg_fdval_o", NULL}},
    {8, WM_AT_PE, "dbg_hop_o", {"dbg_hop_val_o", NULL}},
    {9, WM_AT_TOP, NULL, {"done_o", NULL}}, /* done: the top's done_o */
    {10, WM_AT_PE, "dbg_issue_o", {"dbg_word_o", NULL}}, /* insn: the issued word */
    {11, WM_AT_PE, NULL, {"dbg_step_o", NULL}}, /* step: the counter */
    {12, WM_AT_TOP, "dbg_gc_begin_o", {"dbg_gc_step_o", "dbg_gc_sig_o", NULL}},
    {13, WM_AT_PE, "dbg_rfwe_o", {"dbg_rfwd_o", NULL}}, /* rf: rd, fd and od write ports */
    {13, WM_AT_PE, "dbg_fdwe_o", {"dbg_fdwd_o", NULL}},
    {13, WM_AT_PE, "dbg_odwe_o", {"dbg_odwd_o", NULL}},
    {14, WM_AT_PE, NULL, {"dbg_flag_o", NULL}},
    {15, WM_AT_PE, NULL, {"dbg_fifocnt_o", NULL}},
    {16, WM_AT_AG, "acc_o", {"acc_wr_o", "acc_addr_o", "acc_val_o"}},
    {17, WM_AT_AG, "bank_we_o", {"bank_wa_o", "bank_wd_o", NULL}},
    {18, WM_AT_AG, NULL, {"acc_addr_o", NULL}}, /* ag: the address counter */
};
#define WM_GROUPS ((int)(sizeof wm_groups / sizeof *wm_groups))
#define WM_WR 4   /* wr: a slot without destination is no event (wm_wr_event) */
#define WM_DONE 9 /* the classes of the machine: done, gc */
#define WM_GC 12
#define WM_MEM 19 /* mem: from the traces (wave_mem.h), no port */

const char *wave_merge_class_name(int k) {
  return k >= 0 && k < WAVE_MERGE_CLASSES ? wm_class_names[k] : "?";
}

/* A variable of one input: its full name (scope.name, no space before the
 * range), base name length, width and output handle. */
typedef struct {
  char *name;
  size_t base; /* length of the name up to the range */
  fstHandle in, out;
  uint32_t len;
} wm_name;

/* A derived signal: its output handle and what it is computed from. */
typedef struct {
  int side;
  int kind;         /* 0 insn (from word), 1 a 32-bit field of src */
  fstHandle src;    /* input handle of the source (0: none found) */
  int lo;           /* field: its lowest bit */
  fstHandle out;
  char *src_name;   /* the source's name, resolved after the hierarchy */
  char *cur;        /* last value written (NULL: none) */
} wm_derived;

/* One value change of an input. */
typedef struct {
  uint64_t time;
  fstHandle h;
  char *val;
} wm_change;

/* One input FST. */
typedef struct {
  void *rd;
  fstHandle maxh;
  fstHandle *out;   /* input handle -> output handle */
  uint32_t *len;    /* input handle -> width (0: a string) */
  char **cur;       /* input handle -> current value */
  wm_name *names;
  int nnames, capnames;
  wm_change *ch;
  size_t nch, capch;
  int oom;
} wm_side;

/* The ports of one AG of a PE that both sides have (WM_AT_AG groups). */
struct wm_ag {
  fstHandle valid[WM_GROUPS][2];    /* per group, per side */
  fstHandle field[WM_GROUPS][2][3];
};

/* The mismatch signals of one PE (or the machine: row -1). */
typedef struct {
  int row, col;
  fstHandle out[WAVE_MERGE_CLASSES + 1]; /* classes, then any */
  fstHandle valid[WM_GROUPS][2];    /* per group, per side: valid port */
  fstHandle field[WM_GROUPS][2][3]; /* per group, per side: value fields */
  struct wm_ag *ag;                 /* its AGs (WM_AT_AG groups) */
  int nag, capag;
  char now[WAVE_MERGE_CLASSES + 1];       /* values written ('0','1', 0 none) */
} wm_pe;

typedef struct {
  wm_side s[2]; /* 0 rtl, 1 model */
  void *wr;
  wm_derived *d;
  int nd, capd;
  wm_pe *pe;    /* [0]: the machine */
  int npe, cappe;
  int nvars;
  int oom;
  wave_mem_diff mem; /* the PEs whose words at done differ, from when */
} wm;

/* Returns p grown to hold n + 1 elements of size sz (capacity in *cap);
 * NULL when out of memory (p is then still valid). */
static void *wm_grow(void *p, int n, int *cap, size_t sz) {
  if (n < *cap) return p;
  int nc = *cap ? 2 * *cap : 64;
  void *q = realloc(p, (size_t)nc * sz);
  if (q) *cap = nc;
  return q;
}

/* Returns a copy of the first n bytes of s (NUL-terminated), or NULL. */
static char *wm_strndup(const char *s, size_t n) {
  char *p = malloc(n + 1);
  if (p) memcpy(p, s, n), p[n] = 0;
  return p;
}

/* Adds the name scope.name (the space before a range removed) of input
 * handle h to side s. */
static void wm_name_add(wm_side *s, const char *scope, const char *name, fstHandle h, fstHandle out,
                        uint32_t len) {
  wm_name *n = wm_grow(s->names, s->nnames, &s->capnames, sizeof *n);
  if (!n) {
    s->oom = 1;
    return;
  }
  s->names = n;
  char full[WM_PATH];
  size_t k = (size_t)snprintf(full, sizeof full, "%s%s", scope, scope[0] ? "." : "");
  size_t base = 0;
  for (const char *p = name; *p && k + 1 < sizeof full; p++) {
    if (*p == ' ' && p[1] == '[') {
      base = k;
      continue;
    }
    full[k++] = *p;
  }
  full[k] = 0;
  wm_name *e = &s->names[s->nnames];
  if (!(e->name = strdup(full))) {
    s->oom = 1;
    return;
  }
  e->base = base ? base : k;
  e->in = h, e->out = out, e->len = len;
  s->nnames++;
}

/* Orders names by base name, then full name. */
static int wm_name_cmp(const void *a, const void *b) {
  const wm_name *x = a, *y = b;
  size_t n = x->base < y->base ? x->base : y->base;
  int c = strncmp(x->name, y->name, n);
  if (c) return c;
  if (x->base != y->base) return x->base < y->base ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* Returns the entry of side s whose base name (the name without its range)
 * is `base`, or NULL (names sorted). */
static const wm_name *wm_find(const wm_side *s, const char *base) {
  size_t bl = strlen(base);
  int lo = 0, hi = s->nnames - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    const wm_name *e = &s->names[mid];
    size_t n = e->base < bl ? e->base : bl;
    int c = strncmp(e->name, base, n);
    if (!c && e->base != bl) c = e->base < bl ? -1 : 1;
    if (!c) return e;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}

/* Declares a derived signal (in the writer's current scope) of side `side`
 * computed from the variable named src_name. */
static void wm_derive(wm *m, int side, int kind, const char *name, const char *src_name, int lo) {
  wm_derived *d = wm_grow(m->d, m->nd, &m->capd, sizeof *d);
  if (!d || !(src_name = strdup(src_name))) {
    m->oom = 1;
    return;
  }
  m->d = d;
  d = &m->d[m->nd++];
  memset(d, 0, sizeof *d);
  d->side = side, d->kind = kind, d->lo = lo, d->src_name = (char *)src_name;
  d->out = kind == 0 ? fstWriterCreateVar(m->wr, FST_VT_GEN_STRING, FST_VD_IMPLICIT, 0, name, 0)
                     : fstWriterCreateVar(m->wr, FST_VT_SV_LOGIC, FST_VD_IMPLICIT, 32, name, 0);
  m->nvars++;
}

/* Declares the derived signals of the FU scope `scope` (its `word` just
 * declared) of side `side`. */
static void wm_derive_fu(wm *m, int side, const char *scope) {
  char src[WM_PATH + 32];
  const char *fu = strstr(scope, ".g_fu[");
  snprintf(src, sizeof src, "%s.word", scope);
  wm_derive(m, side, 0, "insn", src, 0);
  snprintf(src, sizeof src, "%s.val", scope);
  static const char *const ops[] = {"op_a [31:0]", "op_b [31:0]", "op_c [31:0]"};
  for (int k = 0; k < 3; k++) wm_derive(m, side, 1, ops[k], src, 32 * k);
  int f = fu ? atoi(fu + 6) : 0;
  snprintf(src, sizeof src, "%.*s.dbg_wr_val_o", fu ? (int)(fu - scope) : 0, scope);
  wm_derive(m, side, 1, "result [31:0]", src, 32 * f);
}

/* Returns 0 after replaying the hierarchy of side `side` into the writer
 * under scope `top`; -1 when out of memory. */
static int wm_hier(wm *m, int side, const char *top) {
  wm_side *s = &m->s[side];
  char path[WM_PATH] = "";
  size_t plen = 0;
  struct fstHier *h;
  fstWriterSetScope(m->wr, FST_ST_VCD_MODULE, top, NULL);
  while ((h = fstReaderIterateHier(s->rd))) {
    if (h->htyp == FST_HT_SCOPE) {
      fstWriterSetScope(m->wr, h->u.scope.typ, h->u.scope.name, h->u.scope.component);
      if (plen + h->u.scope.name_length + 2 < sizeof path) {
        if (plen) path[plen++] = '.';
        memcpy(path + plen, h->u.scope.name, h->u.scope.name_length);
        path[plen += h->u.scope.name_length] = 0;
      }
    } else if (h->htyp == FST_HT_UPSCOPE) {
      fstWriterSetUpscope(m->wr);
      char *dot = strrchr(path, '.');
      plen = dot ? (size_t)(dot - path) : 0;
      path[plen] = 0;
    } else if (h->htyp == FST_HT_VAR) {
      fstHandle in = h->u.var.handle;
      if (in > s->maxh) continue;
      int alias = h->u.var.is_alias && s->out[in];
      fstHandle out = fstWriterCreateVar(m->wr, h->u.var.typ, h->u.var.direction, h->u.var.length,
                                         h->u.var.name, alias ? s->out[in] : 0);
      m->nvars++;
      if (!alias) {
        s->out[in] = out;
        s->len[in] = h->u.var.typ == FST_VT_GEN_STRING ? 0 : h->u.var.length;
      }
      wm_name_add(s, path, h->u.var.name, in, s->out[in], h->u.var.length);
      size_t pl = strlen(path);
      if (!strncmp(h->u.var.name, "word", 4) && (h->u.var.name[4] == 0 || h->u.var.name[4] == ' ') &&
          pl >= 5 && !strcmp(path + pl - 5, ".u_fu"))
        wm_derive_fu(m, side, path);
    }
  }
  fstWriterSetUpscope(m->wr);
  return s->oom || m->oom ? -1 : 0;
}

/* Stores one value change of an input (fstReaderIterBlocks2 callbacks). */
static void wm_change_add(wm_side *s, uint64_t time, fstHandle h, const unsigned char *v, uint32_t n) {
  if (s->oom || h == 0 || h > s->maxh) return;
  if (s->nch == s->capch) {
    size_t nc = s->capch ? 2 * s->capch : 4096;
    wm_change *c = realloc(s->ch, nc * sizeof *c);
    if (!c) {
      s->oom = 1;
      return;
    }
    s->ch = c, s->capch = nc;
  }
  wm_change *c = &s->ch[s->nch];
  if (!(c->val = wm_strndup((const char *)v, n))) {
    s->oom = 1;
    return;
  }
  c->time = time, c->h = h;
  s->nch++;
}

/* fstReaderIterBlocks2 callback of a fixed-width value (NUL-terminated). */
static void wm_on_value(void *u, uint64_t time, fstHandle h, const unsigned char *v) {
  wm_change_add(u, time, h, v, (uint32_t)strlen((const char *)v));
}

/* fstReaderIterBlocks2 callback of a variable-length value (a string). */
static void wm_on_varlen(void *u, uint64_t time, fstHandle h, const unsigned char *v, uint32_t n) {
  wm_change_add(u, time, h, v, n);
}

/* Returns 0 after opening `path` as side s: its handle tables and all of
 * its value changes; -1 with msg. */
static int wm_side_open(wm_side *s, const char *path, char *msg, size_t msgsz) {
  if (access(path, R_OK) != 0) {
    snprintf(msg, msgsz, "cannot read '%s': %s", path, strerror(errno));
    return -1;
  }
  if (!(s->rd = fstReaderOpen(path))) {
    snprintf(msg, msgsz, "'%s' is not an FST waveform", path);
    return -1;
  }
  s->maxh = fstReaderGetMaxHandle(s->rd);
  size_t n = (size_t)s->maxh + 1;
  if (!(s->out = calloc(n, sizeof *s->out)) || !(s->len = calloc(n, sizeof *s->len)) ||
      !(s->cur = calloc(n, sizeof *s->cur))) {
    snprintf(msg, msgsz, "out of memory");
    return -1;
  }
  fstReaderSetFacProcessMaskAll(s->rd);
  fstReaderIterBlocks2(s->rd, wm_on_value, wm_on_varlen, s, NULL);
  if (s->oom) {
    snprintf(msg, msgsz, "out of memory reading '%s'", path);
    return -1;
  }
  return 0;
}

/* Frees side s. */
static void wm_side_free(wm_side *s) {
  if (s->rd) fstReaderClose(s->rd);
  for (fstHandle h = 0; s->cur && h <= s->maxh; h++) free(s->cur[h]);
  for (int i = 0; i < s->nnames; i++) free(s->names[i].name);
  for (size_t i = 0; i < s->nch; i++) free(s->ch[i].val);
  free(s->out), free(s->len), free(s->cur), free(s->names), free(s->ch);
}

uint32_t wave_merge_field(const char *bits, int lo) {
  size_t n = strlen(bits);
  uint32_t v = 0;
  for (int b = 0; b < 32; b++) {
    size_t i = (size_t)(lo + b);
    if (i >= n) break;
    if (bits[n - 1 - i] == '1') v |= 1u << b;
  }
  return v;
}

/* Returns 1 when bit i (0: LSB) of a value string is set. */
static int wm_bit(const char *bits, uint32_t len, uint32_t i) {
  return bits && i < len && strlen(bits) == len && bits[len - 1 - i] == '1';
}

/* Returns 1 when field k (width w) of two value strings differs. */
static int wm_field_differs(const char *a, const char *b, uint32_t len, uint32_t k, uint32_t w) {
  if (!a || !b) return 0;
  size_t la = strlen(a), lb = strlen(b);
  for (uint32_t i = k * w; i < (k + 1) * w && i < len; i++) {
    char x = i < la ? a[la - 1 - i] : '0', y = i < lb ? b[lb - 1 - i] : '0';
    if (x != y) return 1;
  }
  return 0;
}

/* Returns the current value of input handle h of side s (NULL: none). */
static const char *wm_cur(const wm *m, int side, fstHandle h) {
  return h ? m->s[side].cur[h] : NULL;
}

/* Returns bits k*w .. k*w+w-1 (w <= 32) of value string v of len bits. */
static uint32_t wm_field_val(const char *v, uint32_t len, uint32_t k, uint32_t w) {
  uint32_t x = 0;
  size_t lv = v ? strlen(v) : 0;
  for (uint32_t i = 0; i < w && i < 32 && k * w + i < len; i++)
    if (k * w + i < lv && v[lv - 1 - (k * w + i)] == '1') x |= (uint32_t)1 << i;
  return x;
}

/* Returns 1 when slot e of side `side`'s wr ports (valid, then the
 * fields dst and odmask) carries a write event: its valid bit set and a
 * destination, rd or fd (dst class 1 or 2), or an od. The RTL's write
 * port of an instruction writing nowhere (`mov _, id0`, a pop) has its
 * valid bit set and no destination: the harness makes no event of it
 * (tb/rtl_collect.h), nor does the model. */
static int wm_wr_event(const wm *m, int side, const fstHandle valid[2], const fstHandle field[2][3], uint32_t slots,
                       uint32_t e) {
  if (!wm_bit(wm_cur(m, side, valid[side]), slots, e)) return 0;
  fstHandle fd = field[side][0], fo = field[side][1];
  uint32_t cls = fd ? wm_field_val(wm_cur(m, side, fd), m->s[side].len[fd], e, 8) >> 5 : 1;
  uint32_t odm = fo ? wm_field_val(wm_cur(m, side, fo), m->s[side].len[fo], e, 8) : 0;
  return cls == 1 || cls == 2 || odm != 0;
}

/* Returns 1 when port group g differs between the two sides now, its
 * ports' input handles in valid and field (per side). */
static int wm_ports_differ(const wm *m, const fstHandle valid[2], const fstHandle field[2][3], int wr) {
  fstHandle vr = valid[0], vm = valid[1];
  if (!vr || !vm) { /* a port compared whole */
    fstHandle fr = field[0][0], fm = field[1][0];
    if (!fr || !fm) return 0;
    const char *a = wm_cur(m, 0, fr), *b = wm_cur(m, 1, fm);
    return a && b && strcmp(a, b) != 0;
  }
  const char *a = wm_cur(m, 0, vr), *b = wm_cur(m, 1, vm);
  if (!a || !b) return 0;
  uint32_t slots = m->s[0].len[vr];
  if (!wr && strcmp(a, b)) return 1;
  for (uint32_t e = 0; wr && e < slots; e++)
    if (wm_wr_event(m, 0, valid, field, slots, e) != wm_wr_event(m, 1, valid, field, slots, e)) return 1;
  for (int f = 0; f < 3; f++) {
    fstHandle fr = field[0][f], fm = field[1][f];
    if (!fr || !fm || !slots) continue;
    uint32_t len = m->s[0].len[fr], w = len / slots;
    for (uint32_t e = 0; e < slots; e++)
      if ((wr ? wm_wr_event(m, 0, valid, field, slots, e) : wm_bit(a, slots, e)) &&
          wm_field_differs(wm_cur(m, 0, fr), wm_cur(m, 1, fm), len, e, w))
        return 1;
  }
  return 0;
}

/* Returns 1 when port group g of PE p differs between the two sides now
 * (an AG group: in one of its AGs). */
static int wm_group_differs(const wm *m, const wm_pe *p, int g) {
  if (wm_groups[g].at != WM_AT_AG) return wm_ports_differ(m, p->valid[g], p->field[g], wm_groups[g].cls == WM_WR);
  for (int a = 0; a < p->nag; a++)
    if (wm_ports_differ(m, p->ag[a].valid[g], p->ag[a].field[g], 0)) return 1;
  return 0;
}

/* Returns 1 when class k of PE p differs between the two sides at time t
 * (mem: from the done cycle on, where the traces' words differ). */
static int wm_class_differs(const wm *m, const wm_pe *p, int k, uint64_t t) {
  if (k == WM_MEM) return m->mem.compared && t >= m->mem.time && wave_mem_differs(&m->mem, p->row, p->col);
  for (int g = 0; g < WM_GROUPS; g++)
    if (wm_groups[g].cls == k && wm_group_differs(m, p, g)) return 1;
  return 0;
}

/* Looks up the ports of group g in scope `scope` on both sides into
 * valid and field. */
static void wm_group_ports(wm *m, int g, const char *scope, fstHandle valid[2], fstHandle field[2][3]) {
  char name[WM_PATH + 64];
  for (int side = 0; side < 2; side++) {
    const wm_name *e;
    if (wm_groups[g].valid) {
      snprintf(name, sizeof name, "%s.%s", scope, wm_groups[g].valid);
      if ((e = wm_find(&m->s[side], name))) valid[side] = e->in;
    }
    for (int f = 0; f < 3 && wm_groups[g].fields[f]; f++) {
      snprintf(name, sizeof name, "%s.%s", scope, wm_groups[g].fields[f]);
      if ((e = wm_find(&m->s[side], name))) field[side][f] = e->in;
    }
  }
}

/* Returns 0 after looking up the ports of the groups of PE prefix `pre`
 * (`...g_col[C].u_pe`; NULL: the machine) on both sides into p, with the
 * AGs beside the PE that both sides have; -1 when out of memory. */
static int wm_pe_ports(wm *m, wm_pe *p, const char *pre) {
  for (int g = 0; g < WM_GROUPS; g++) {
    int at = wm_groups[g].at;
    if (!pre ? at == WM_AT_TOP : at == WM_AT_PE) wm_group_ports(m, g, pre ? pre : "TOP.tcpa_top", p->valid[g], p->field[g]);
  }
  if (!pre) return 0;
  char ag[WM_PATH + 64], acc[WM_PATH + 80];
  size_t base = strlen(pre) - strlen(".u_pe");
  for (int side = 0; side < 4; side++)
    for (int b = 0; b < 64; b++) {
      snprintf(ag, sizeof ag, "%.*s.g_side[%d].g_bank[%d].g_ag.u_ag", (int)base, pre, side, b);
      snprintf(acc, sizeof acc, "%s.acc_o", ag);
      if (!wm_find(&m->s[0], acc) || !wm_find(&m->s[1], acc)) continue;
      struct wm_ag *a = wm_grow(p->ag, p->nag, &p->capag, sizeof *a);
      if (!a) return -1;
      p->ag = a;
      a = &p->ag[p->nag++];
      memset(a, 0, sizeof *a);
      for (int g = 0; g < WM_GROUPS; g++)
        if (wm_groups[g].at == WM_AT_AG) wm_group_ports(m, g, ag, a->valid[g], a->field[g]);
    }
  return 0;
}

/* Returns 1 when class k is the machine's (done, gc), not a PE's. */
static int wm_class_machine(int k) { return k == WM_DONE || k == WM_GC; }

/* Declares the mismatch scope: the machine's signals, then each PE's (the
 * PEs of the model's FST, found by their dbg_start_o). */
static int wm_mismatch_declare(wm *m) {
  fstWriterSetScope(m->wr, FST_ST_VCD_MODULE, "mismatch", NULL);
  const wm_side *ms = &m->s[1];
  for (int i = -1; i < ms->nnames; i++) {
    int r = -1, c = -1;
    char pre[WM_PATH];
    if (i >= 0) {
      const char *nm = ms->names[i].name;
      size_t n = strlen(nm);
      if (n < 17 || strcmp(nm + n - 17, ".u_pe.dbg_start_o") ||
          sscanf(nm, "TOP.tcpa_top.g_row[%d].g_col[%d]", &r, &c) != 2)
        continue;
      snprintf(pre, sizeof pre, "%.*s", (int)(n - 12), nm);
    }
    wm_pe *p = wm_grow(m->pe, m->npe, &m->cappe, sizeof *p);
    if (!p) return -1;
    m->pe = p;
    p = &m->pe[m->npe++];
    memset(p, 0, sizeof *p);
    p->row = r, p->col = c;
    char sc[64];
    if (i >= 0) {
      snprintf(sc, sizeof sc, "g_row[%d]", r);
      fstWriterSetScope(m->wr, FST_ST_VCD_MODULE, sc, NULL);
      snprintf(sc, sizeof sc, "g_col[%d]", c);
      fstWriterSetScope(m->wr, FST_ST_VCD_MODULE, sc, NULL);
    }
    if (wm_pe_ports(m, p, i >= 0 ? pre : NULL)) return -1;
    for (int k = 0; k <= WAVE_MERGE_CLASSES; k++) {
      if (i >= 0 && k < WAVE_MERGE_CLASSES && wm_class_machine(k)) continue; /* done, gc: the machine's */
      p->out[k] = fstWriterCreateVar(m->wr, FST_VT_SV_LOGIC, FST_VD_IMPLICIT, 1,
                                     k < WAVE_MERGE_CLASSES ? wm_class_names[k] : "any", 0);
      m->nvars++;
    }
    if (i >= 0) fstWriterSetUpscope(m->wr), fstWriterSetUpscope(m->wr);
  }
  fstWriterSetUpscope(m->wr);
  return 0;
}

/* Returns the text of a derived signal from its source's value. */
static void wm_derived_text(const wm_derived *d, const char *v, char *buf, size_t sz) {
  if (d->kind == 0) {
    isa_word w;
    isa_insn in;
    memset(&w, 0, sizeof w);
    if (strchr(v, 'x') || strchr(v, 'z')) {
      snprintf(buf, sz, "x");
      return;
    }
    for (int k = 0; k < ISA_WORDS; k++) w.w[k] = wave_merge_field(v, 32 * k);
    if (isa_decode(&w, &in) == ISA_OK) isa_insn_format(&in, buf, sz);
    else snprintf(buf, sz, "(not an instruction: 0x%08x%08x%08x%08x)", w.w[3], w.w[2], w.w[1], w.w[0]);
    return;
  }
  uint32_t x = wave_merge_field(v, d->lo);
  for (int b = 0; b < 32 && (size_t)b + 1 < sz; b++) buf[31 - b] = (char)('0' + (x >> b & 1));
  buf[32] = 0;
}

/* Writes every derived and mismatch signal whose value changed (all at
 * the first call: first). */
static void wm_update(wm *m, uint64_t t, wave_merge_info *info) {
  char buf[512];
  for (int i = 0; i < m->nd; i++) {
    wm_derived *d = &m->d[i];
    const char *v = wm_cur(m, d->side, d->src);
    if (!v) continue;
    wm_derived_text(d, v, buf, sizeof buf);
    if (d->cur && !strcmp(d->cur, buf)) continue;
    free(d->cur);
    d->cur = strdup(buf);
    if (d->kind == 0) fstWriterEmitVariableLengthValueChange(m->wr, d->out, buf, (uint32_t)strlen(buf));
    else fstWriterEmitValueChange(m->wr, d->out, buf);
  }
  char all[WAVE_MERGE_CLASSES + 1];
  memset(all, '0', sizeof all);
  for (int i = m->npe - 1; i >= 0; i--) { /* the PEs, then the machine with their or */
    wm_pe *p = &m->pe[i];
    char now[WAVE_MERGE_CLASSES + 1];
    for (int k = 0; k < WAVE_MERGE_CLASSES; k++) {
      int diff = wm_class_differs(m, p, k, t) || (i == 0 && all[k] == '1');
      now[k] = diff ? '1' : '0';
      if (diff) all[k] = all[WAVE_MERGE_CLASSES] = '1';
      if (diff && i > 0 && !info->first_found) {
        info->first_found = 1, info->first_time = t, info->first_row = p->row, info->first_col = p->col;
        info->first_class = k;
      }
    }
    now[WAVE_MERGE_CLASSES] = i == 0 ? all[WAVE_MERGE_CLASSES] : '0';
    for (int k = 0; k < WAVE_MERGE_CLASSES; k++)
      if (now[k] == '1') now[WAVE_MERGE_CLASSES] = '1';
    for (int k = 0; i == 0 && k < WAVE_MERGE_CLASSES && !info->first_found; k++)
      if (wm_class_machine(k) && now[k] == '1')
        info->first_found = 1, info->first_time = t, info->first_row = -1, info->first_col = -1, info->first_class = k;
    for (int k = 0; k <= WAVE_MERGE_CLASSES; k++) {
      if (!p->out[k] || p->now[k] == now[k]) continue;
      char v[2] = {now[k], 0};
      fstWriterEmitValueChange(m->wr, p->out[k], v);
      p->now[k] = now[k];
    }
  }
}

/* Applies change c of side `side` to the current values; writes it when
 * `emit`. */
static void wm_apply(wm *m, int side, const wm_change *c, int emit) {
  wm_side *s = &m->s[side];
  free(s->cur[c->h]);
  s->cur[c->h] = strdup(c->val);
  if (!s->cur[c->h]) m->oom = 1;
  if (!emit || !s->out[c->h]) return;
  if (s->len[c->h] == 0)
    fstWriterEmitVariableLengthValueChange(m->wr, s->out[c->h], c->val, (uint32_t)strlen(c->val));
  else
    fstWriterEmitValueChange(m->wr, s->out[c->h], c->val);
}

/* Writes the current value of every variable of both sides (the first
 * time). */
static void wm_emit_all(wm *m) {
  for (int side = 0; side < 2; side++) {
    wm_side *s = &m->s[side];
    for (fstHandle h = 1; h <= s->maxh; h++) {
      if (!s->cur[h] || !s->out[h]) continue;
      if (s->len[h] == 0)
        fstWriterEmitVariableLengthValueChange(m->wr, s->out[h], s->cur[h], (uint32_t)strlen(s->cur[h]));
      else
        fstWriterEmitValueChange(m->wr, s->out[h], s->cur[h]);
    }
  }
}

/* Replays both sides' changes in time order from `start` on (and the
 * done cycle's time of a mem comparison, which may change nothing). */
static void wm_replay(wm *m, uint64_t start, wave_merge_info *info) {
  size_t i[2] = {0, 0};
  int first = 1;
  uint64_t mem_t = m->mem.npe ? m->mem.time : UINT64_MAX;
  for (;;) {
    uint64_t t = UINT64_MAX;
    for (int side = 0; side < 2; side++)
      if (i[side] < m->s[side].nch && m->s[side].ch[i[side]].time < t) t = m->s[side].ch[i[side]].time;
    if (mem_t < t && mem_t >= start) t = mem_t;
    if (t == UINT64_MAX) break;
    if (t >= mem_t) mem_t = UINT64_MAX;
    if (t < start) t = start - 1; /* before both have values: apply only */
    int emit = t >= start;
    if (emit) fstWriterEmitTimeChange(m->wr, t);
    for (int side = 0; side < 2; side++)
      while (i[side] < m->s[side].nch && m->s[side].ch[i[side]].time <= t)
        wm_apply(m, side, &m->s[side].ch[i[side]++], emit && !first);
    if (!emit) continue;
    if (first) wm_emit_all(m);
    first = 0;
    wm_update(m, t, info);
    info->end = t;
  }
}

/* Resolves the sources of the derived signals by name. */
static void wm_derived_resolve(wm *m) {
  for (int i = 0; i < m->nd; i++) {
    const wm_name *e = wm_find(&m->s[m->d[i].side], m->d[i].src_name);
    m->d[i].src = e ? e->in : 0;
  }
}

/* Returns the first time at which side s has a value change (UINT64_MAX:
 * none). */
static uint64_t wm_first_time(const wm_side *s) { return s->nch ? s->ch[0].time : UINT64_MAX; }

/* Frees everything of m but the writer. */
static void wm_free(wm *m) {
  wm_side_free(&m->s[0]);
  wm_side_free(&m->s[1]);
  for (int i = 0; i < m->nd; i++) free(m->d[i].src_name), free(m->d[i].cur);
  free(m->d);
  for (int i = 0; i < m->npe; i++) free(m->pe[i].ag);
  free(m->pe);
  wave_mem_free(&m->mem);
}

int wave_merge_write(const char *rtl, const char *model, const char *rtl_trace, const char *model_trace,
                     const char *out, wave_merge_info *info, char *msg, size_t msgsz) {
  wm m;
  memset(&m, 0, sizeof m);
  memset(info, 0, sizeof *info);
  char tmp[WM_PATH + 32];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", out, (long)getpid());
  int rc = -1;
  if (wm_side_open(&m.s[0], rtl, msg, msgsz) || wm_side_open(&m.s[1], model, msg, msgsz)) goto done;
  if (wave_mem_compare(rtl_trace, model_trace, &m.mem, msg, msgsz)) goto done;
  info->mem_compared = m.mem.compared;
  signed char ts = fstReaderGetTimescale(m.s[0].rd);
  if (ts != fstReaderGetTimescale(m.s[1].rd)) {
    snprintf(msg, msgsz, "'%s' and '%s' have different time units (10^%d and 10^%d s): rerun both", rtl, model,
             ts, fstReaderGetTimescale(m.s[1].rd));
    goto done;
  }
  uint64_t a = wm_first_time(&m.s[0]), b = wm_first_time(&m.s[1]), start = a > b ? a : b;
  if (start == UINT64_MAX) {
    snprintf(msg, msgsz, "'%s' or '%s' holds no value", rtl, model);
    goto done;
  }
  if (!(m.wr = fstWriterCreate(tmp, 1))) {
    snprintf(msg, msgsz, "cannot write '%s': %s", out, strerror(errno));
    goto done;
  }
  fstWriterSetTimescale(m.wr, ts);
  fstWriterSetVersion(m.wr, "tcpa wave --compare (tb/wave_merge.c)");
  if (wm_hier(&m, 0, "rtl") || wm_hier(&m, 1, "model")) {
    snprintf(msg, msgsz, "out of memory");
    goto done;
  }
  for (int side = 0; side < 2; side++)
    qsort(m.s[side].names, (size_t)m.s[side].nnames, sizeof *m.s[side].names, wm_name_cmp);
  wm_derived_resolve(&m);
  if (wm_mismatch_declare(&m)) {
    snprintf(msg, msgsz, "out of memory");
    goto done;
  }
  wm_replay(&m, start, info);
  if (m.oom) {
    snprintf(msg, msgsz, "out of memory");
    goto done;
  }
  info->start = start;
  info->timescale = ts;
  info->nvars = m.nvars;
  fstWriterClose(m.wr);
  m.wr = NULL;
  if (rename(tmp, out) != 0) {
    snprintf(msg, msgsz, "cannot write '%s': %s", out, strerror(errno));
    goto done;
  }
  rc = 0;
done:
  if (m.wr) fstWriterClose(m.wr);
  if (rc) remove(tmp);
  wm_free(&m);
  return rc;
}

/* The search of wave_merge_value_at for a string: the last value at or
 * before `t`. */
typedef struct {
  uint64_t t;
  char *buf;
  size_t sz;
  int seen;
} wm_at_str;

/* fstReaderIterBlocks2 callback: a string's change (variable length). */
static void wm_on_varlen_at(void *u, uint64_t time, fstHandle h, const unsigned char *v, uint32_t n) {
  wm_at_str *q = u;
  (void)h;
  if (time > q->t) return;
  snprintf(q->buf, q->sz, "%.*s", (int)n, (const char *)v);
  q->seen = 1;
}

/* fstReaderIterBlocks2 callback: a fixed-width change (NUL-terminated). */
static void wm_on_value_at(void *u, uint64_t time, fstHandle h, const unsigned char *v) {
  wm_on_varlen_at(u, time, h, v, (uint32_t)strlen((const char *)v));
}

/* Returns 1 after following a scope or upscope entry h of the FST
 * hierarchy in the dotted path (its length in *plen, room for sz bytes);
 * 0 for any other entry. A scope too deep for the path is not entered. */
static int wm_hier_path(const struct fstHier *h, char *path, size_t sz, size_t *plen) {
  if (h->htyp == FST_HT_SCOPE) {
    if (*plen + h->u.scope.name_length + 2 < sz) {
      if (*plen) path[(*plen)++] = '.';
      memcpy(path + *plen, h->u.scope.name, h->u.scope.name_length);
      path[*plen += h->u.scope.name_length] = 0;
    }
    return 1;
  }
  if (h->htyp == FST_HT_UPSCOPE) {
    char *dot = strrchr(path, '.');
    *plen = dot ? (size_t)(dot - path) : 0;
    path[*plen] = 0;
    return 1;
  }
  return 0;
}

/* Returns 1 when the FST variable name v (`word [127:0]`) is `want`, with
 * its range (`word[127:0]`) or without it (`word`). */
static int wm_var_is(const char *v, const char *want) {
  const char *sp = strstr(v, " [");
  size_t base = sp ? (size_t)(sp - v) : strlen(v);
  if (strncmp(v, want, base)) return 0;
  if (!want[base]) return 1;
  return sp && !strcmp(want + base, sp + 1);
}

int wave_merge_value_at(const char *fst, const char *name, uint64_t t, char *buf, size_t bufsz) {
  void *rd = access(fst, R_OK) == 0 ? fstReaderOpen(fst) : NULL;
  if (!rd) return -1;
  char path[WM_PATH] = "";
  size_t plen = 0;
  struct fstHier *h;
  fstHandle found = 0;
  uint32_t len = 0;
  int is_str = 0;
  while (!found && (h = fstReaderIterateHier(rd))) {
    if (wm_hier_path(h, path, sizeof path, &plen)) continue;
    if (h->htyp == FST_HT_VAR && !strncmp(path, name, plen) && name[plen] == '.' &&
        wm_var_is(h->u.var.name, name + plen + 1)) {
      found = h->u.var.handle, len = h->u.var.length, is_str = h->u.var.typ == FST_VT_GEN_STRING;
    }
  }
  int rc = -1;
  if (found && is_str) { /* a string: its last change at or before t */
    wm_at_str q = {t, buf, bufsz, 0};
    fstReaderClrFacProcessMaskAll(rd);
    fstReaderSetFacProcessMask(rd, found);
    fstReaderIterBlocks2(rd, wm_on_value_at, wm_on_varlen_at, &q, NULL);
    rc = q.seen ? 0 : -1;
  } else if (found && len + 1 <= bufsz) {
    char *tmp = malloc((size_t)len + 64);
    fstReaderClrFacProcessMaskAll(rd);
    fstReaderSetFacProcessMask(rd, found);
    if (tmp && fstReaderGetValueFromHandleAtTime(rd, t, found, tmp)) {
      snprintf(buf, bufsz, "%s", tmp);
      rc = 0;
    }
    free(tmp);
  }
  fstReaderClose(rd);
  return rc;
}

/* The words seen by wave_merge_insn_filter: each value once. */
typedef struct {
  char **v;
  int n, cap;
  fstHandle *h; /* the `word` handles, sorted; nh of them */
  int nh;
  int oom;
} wm_words;

/* fstReaderIterBlocks2 callback: notes a `word` value. */
static void wm_on_word(void *u, uint64_t time, fstHandle h, const unsigned char *v) {
  wm_words *w = u;
  (void)time;
  int in = 0;
  for (int i = 0; i < w->nh && !in; i++) in = w->h[i] == h;
  if (!in || strchr((const char *)v, 'x') || strchr((const char *)v, 'z')) return;
  for (int i = 0; i < w->n; i++)
    if (!strcmp(w->v[i], (const char *)v)) return;
  char **p = wm_grow(w->v, w->n, &w->cap, sizeof *p);
  if (!p) {
    w->oom = 1;
    return;
  }
  w->v = p;
  if (!(p[w->n] = strdup((const char *)v))) {
    w->oom = 1;
    return;
  }
  w->n++;
}

/* Orders value strings. */
static int wm_str_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int wave_merge_insn_filter(const char *fst, const char *out, char *msg, size_t msgsz) {
  void *rd = access(fst, R_OK) == 0 ? fstReaderOpen(fst) : NULL;
  if (!rd) {
    snprintf(msg, msgsz, "cannot read '%s' as an FST", fst);
    return -1;
  }
  wm_words w;
  memset(&w, 0, sizeof w);
  char path[WM_PATH] = "";
  size_t plen = 0;
  struct fstHier *h;
  while ((h = fstReaderIterateHier(rd))) { /* every `word` of an FU scope */
    if (wm_hier_path(h, path, sizeof path, &plen)) continue;
    if (h->htyp == FST_HT_VAR && h->u.var.length == ISA_WORD_BITS && plen >= 5 &&
        !strcmp(path + plen - 5, ".u_fu") && !strncmp(h->u.var.name, "word", 4) &&
        (h->u.var.name[4] == 0 || h->u.var.name[4] == ' ')) {
      fstHandle *p = realloc(w.h, (size_t)(w.nh + 1) * sizeof *p);
      if (!p) break;
      w.h = p;
      w.h[w.nh++] = h->u.var.handle;
    }
  }
  fstReaderSetFacProcessMaskAll(rd);
  if (w.nh) fstReaderIterBlocks2(rd, wm_on_word, NULL, &w, NULL);
  fstReaderClose(rd);
  int rc = -1;
  char tmp[WM_PATH + 32];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", out, (long)getpid());
  FILE *f = w.oom ? NULL : fopen(tmp, "w");
  if (!f) {
    snprintf(msg, msgsz, w.oom ? "out of memory" : "cannot write '%s': %s", out, strerror(errno));
  } else {
    qsort(w.v, (size_t)w.n, sizeof *w.v, wm_str_cmp);
    fprintf(f, "# %s: the instruction words of '%s' disassembled (GTKWave translate filter, tb/wave_merge.c)\n",
            out, fst);
    for (int i = 0; i < w.n; i++) {
      isa_word iw;
      isa_insn in;
      char text[256];
      for (int k = 0; k < ISA_WORDS; k++) iw.w[k] = wave_merge_field(w.v[i], 32 * k);
      if (isa_decode(&iw, &in) != ISA_OK) continue;
      isa_insn_format(&in, text, sizeof text);
      fprintf(f, "%08X%08X%08X%08X %s\n", iw.w[3], iw.w[2], iw.w[1], iw.w[0], text);
    }
    rc = fclose(f) == 0 && rename(tmp, out) == 0 ? 0 : -1;
    if (rc) {
      snprintf(msg, msgsz, "cannot write '%s': %s", out, strerror(errno));
      remove(tmp);
    }
  }
  for (int i = 0; i < w.n; i++) free(w.v[i]);
  free(w.v);
  free(w.h);
  return rc;
}

int wave_merge_time_range(const char *fst, uint64_t *start, uint64_t *end) {
  void *rd = access(fst, R_OK) == 0 ? fstReaderOpen(fst) : NULL;
  if (!rd) return -1;
  *start = fstReaderGetStartTime(rd);
  *end = fstReaderGetEndTime(rd);
  fstReaderClose(rd);
  return 0;
}
