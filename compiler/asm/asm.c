/*
 * asm.c: assembler and disassembler of whole configuration streams (.tasm,
 * docs/asm.md).
 *
 * The assembler reads line by line. `//` starts a comment. A line whose
 * first word is a packet type (program, regcfg, wrapper, gc, ag, iodata,
 * start) closes the current packet and opens a new one; `fingerprint 0x..`
 * before the first packet checks the architecture; every other line belongs
 * to the open packet's body. Bodies are collected (instructions as text,
 * labels with their pcs, named fields as numbers) and turned into payload
 * words when the packet closes: instructions go through isa_insn_parse after
 * symbolic labels in their branch part are replaced by `L<pc>` (columns are
 * mapped back), then isa_insn_check and isa_encode; named fields are laid
 * out in the order of docs/stream.md. The packet is then handed to
 * stream_writer_packet, whose validator is the last word. Errors do not stop
 * the run: each is printed with its place and the line skipped, so one run
 * reports them all.
 *
 * The disassembler reads a stream with stream_reader and prints each packet
 * in the canonical form of the same syntax (named fields, one instruction
 * per line with its pc as a comment), which assembles to the same bytes.
 */
#include "asm.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "diag.h"
#include "fileio.h"
#include "isa.h"

#define ASM_MAXD AST_MAX_DIMS /* gc.dims is at most this (docs/arch.md) */
#define ASM_WORD_MIN (-2147483648LL)
#define ASM_WORD_MAX 4294967295LL

static const char *const asm_type_names[] = {
    NULL, "program", "regcfg", "wrapper", "gc", "ag", "iodata", "start"};
static const char asm_side_chars[] = "nesw";

/* Named fields of GC and AG bodies (bits of asm_packet.seen). */
enum {
  F_II = 1, F_BOUNDS = 2, F_EPILOG = 4, F_DELAY = 8,
  F_MODE = 16, F_PHASE = 32, F_BASE = 64, F_STRIDE = 128, F_ADDRESS = 256
};

enum { BODY_NONE, BODY_RAW, BODY_NAMED };

typedef struct {
  int kind; /* stream_cons_kind */
  int64_t coef[ASM_MAXD], konst;
  int maxdim; /* highest j index used, -1 if none */
  int line, col;
} asm_cons;

typedef struct {
  int signal;
  asm_cons *cons;
  int ncons, cap;
} asm_term;

typedef struct {
  char *name;
  int pc, line, col;
} asm_label;

typedef struct {
  char *text; /* the instruction, label definitions removed */
  int line, col; /* of text[0] */
} asm_iline;

typedef struct {
  uint32_t *v;
  size_t n, cap;
} asm_words;

/* The packet being collected. */
typedef struct {
  int active;
  int bad; /* a body line failed: the packet is not written */
  stream_packet_type type;
  int index, side;
  stream_rect rect;
  int line, col; /* the header */
  int body;
  asm_words raw;   /* `word` lines */
  asm_words fixed; /* regcfg depths, wrapper sinks, iodata data */
  asm_iline *insns;
  int ninsns, capinsns;
  asm_label *labels;
  int nlabels, caplabels;
  unsigned seen;
  int64_t ii, epilog, delay[3], mode, phase, base[3], address;
  int64_t dims[ASM_MAXD]; /* GC bounds or AG strides */
  int ndims;
  asm_term *terms; /* GC terms; AG: terms[0] is the enable */
  int nterms, capterms;
} asm_packet;

typedef struct {
  const char *name, *text;
  const arch_config *cfg;
  stream_writer *w;
  asm_error *err;
  int nerr;
  int npackets;
  asm_packet pk;
} asm_state;

/* A cursor on one line (comment removed). */
typedef struct {
  asm_state *st;
  const char *s;
  int pos, line;
} asm_cur;

/* ---- errors ----------------------------------------------------------- */

/* Returns -1 after printing an error at line:col and recording it. */
static int asm_fail(asm_state *st, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int asm_fail(asm_state *st, int line, int col, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ast_loc loc = {st->name, line, col};
  diag_error(&loc, st->text, "%s", msg);
  if (st->err && st->nerr == 0) {
    st->err->line = line;
    st->err->col = col;
    snprintf(st->err->msg, sizeof st->err->msg, "%s", msg);
  }
  st->nerr++;
  if (st->err) st->err->count = st->nerr;
  return -1;
}

/* Returns -1 after printing an error at the cursor's column. */
#define CUR_FAIL(c, ...) asm_fail((c)->st, (c)->line, (c)->pos + 1, __VA_ARGS__)

/* ---- growable arrays ----------------------------------------------------- */

/* Returns 0 after making room for one more element of size sz in *p. */
static int asm_grow(void **p, int *cap, int n, size_t sz) {
  if (n < *cap) return 0;
  int nc = *cap ? 2 * *cap : 8;
  void *q = realloc(*p, (size_t)nc * sz);
  if (!q) return -1;
  *p = q;
  *cap = nc;
  return 0;
}

/* Returns 0 after appending v to a word vector, -1 when out of memory. */
static int asm_words_push(asm_words *a, uint32_t v) {
  if (a->n == a->cap) {
    size_t nc = a->cap ? 2 * a->cap : 64;
    uint32_t *q = realloc(a->v, nc * sizeof *q);
    if (!q) return -1;
    a->v = q;
    a->cap = nc;
  }
  a->v[a->n++] = v;
  return 0;
}

/* Frees everything the packet collected and marks it inactive. */
static void asm_packet_clear(asm_packet *pk) {
  free(pk->raw.v);
  free(pk->fixed.v);
  for (int i = 0; i < pk->ninsns; i++) free(pk->insns[i].text);
  free(pk->insns);
  for (int i = 0; i < pk->nlabels; i++) free(pk->labels[i].name);
  free(pk->labels);
  for (int i = 0; i < pk->nterms; i++) free(pk->terms[i].cons);
  free(pk->terms);
  memset(pk, 0, sizeof *pk);
}

/* ---- the scanner -------------------------------------------------------- */

/* Skips blanks; returns the next character (0 at the end). */
static int cur_peek(asm_cur *c) {
  while (c->s[c->pos] == ' ' || c->s[c->pos] == '\t' || c->s[c->pos] == '\r')
    c->pos++;
  return (unsigned char)c->s[c->pos];
}

/* Returns 1 and consumes ch when it is the next character. */
static int cur_accept(asm_cur *c, int ch) {
  if (cur_peek(c) != ch) return 0;
  c->pos++;
  return 1;
}

/* Returns the length of the word ([A-Za-z_][A-Za-z0-9_]*) copied to buf
 * (consumed), or 0 when none is next. */
static int cur_word(asm_cur *c, char *buf, size_t sz) {
  cur_peek(c);
  const char *p = c->s + c->pos;
  if (!isalpha((unsigned char)*p) && *p != '_') return 0;
  int n = 0;
  while (isalnum((unsigned char)p[n]) || p[n] == '_') n++;
  snprintf(buf, sz, "%.*s", n, p);
  c->pos += n;
  return n;
}

/* Returns 0 and the integer (decimal or 0x hex, optional sign) in *v,
 * checked to lie in lo..hi; -1 after an error naming `what`. */
static int cur_int(asm_cur *c, int64_t lo, int64_t hi, const char *what,
                   int64_t *v) {
  cur_peek(c);
  int start = c->pos;
  const char *p = c->s + c->pos;
  int neg = 0;
  if (*p == '-' || *p == '+') neg = *p++ == '-';
  int base = 10;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) base = 16, p += 2;
  if (!isxdigit((unsigned char)*p) || (base == 10 && !isdigit((unsigned char)*p)))
    return CUR_FAIL(c, "expected a number (%s)", what);
  int64_t m = 0;
  int big = 0;
  while (base == 16 ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p)) {
    int d = isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;
    if (m > ((int64_t)1 << 40)) big = 1;
    else m = m * base + d;
    p++;
  }
  if (isalnum((unsigned char)*p) || *p == '_')
    return c->pos = (int)(p - c->s), CUR_FAIL(c, "unexpected character in a number");
  if (neg) m = -m;
  if (big || m < lo || m > hi)
    return c->pos = start, CUR_FAIL(c, "%s %.*s out of range %" PRId64 "..%" PRId64,
                                    what, (int)(p - (c->s + start)), c->s + start, lo, hi);
  c->pos = (int)(p - c->s);
  *v = m;
  return 0;
}

/* Returns 0 when nothing but blanks is left; else -1 after an error. */
static int cur_end(asm_cur *c) {
  if (cur_peek(c)) return CUR_FAIL(c, "unexpected text '%s'", c->s + c->pos);
  return 0;
}

/* Returns the number N when `word` is `prefix` followed by decimal digits
 * only (N < 1000), else -1. */
static int asm_numbered(const char *word, const char *prefix) {
  size_t n = strlen(prefix);
  if (strncmp(word, prefix, n) || !word[n]) return -1;
  for (const char *p = word + n; *p; p++)
    if (!isdigit((unsigned char)*p)) return -1;
  if (strlen(word + n) > 3) return -1;
  return atoi(word + n);
}

/* Returns the side (0..3) named by a word (n, e, s, w or the full name),
 * or -1. */
static int asm_side_lookup(const char *w) {
  static const char *const full[] = {"north", "east", "south", "west"};
  for (int i = 0; i < 4; i++)
    if ((w[0] == asm_side_chars[i] && !w[1]) || !strcmp(w, full[i])) return i;
  return -1;
}

/* ---- affine constraints: EXPR (>=|<=|==|>|<) EXPR over j0..j7 ----------- */

/* Returns 0 after adding sign * (one term of an affine expression) to *k;
 * -1 after an error. */
static int asm_aff_term(asm_cur *c, int sign, asm_cons *k) {
  char w[32];
  int64_t v = 1;
  if (isdigit(cur_peek(c))) {
    if (cur_int(c, 0, (int64_t)1 << 31, "coefficient", &v)) return -1;
    if (!cur_accept(c, '*')) {
      k->konst += sign * v;
      return 0;
    }
  }
  int save = (cur_peek(c), c->pos);
  if (!cur_word(c, w, sizeof w))
    return CUR_FAIL(c, "expected a number or an iteration index j0..j%d", ASM_MAXD - 1);
  int d = asm_numbered(w, "j");
  if (d < 0 || d >= ASM_MAXD)
    return c->pos = save, CUR_FAIL(c, "'%s' is not an iteration index j0..j%d", w, ASM_MAXD - 1);
  k->coef[d] += sign * v;
  if (d > k->maxdim) k->maxdim = d;
  return 0;
}

/* Returns 0 after adding sign * (an affine expression) to *k. */
static int asm_aff(asm_cur *c, int sign, asm_cons *k) {
  int s = 1;
  if (cur_accept(c, '-')) s = -1;
  else cur_accept(c, '+');
  if (asm_aff_term(c, sign * s, k)) return -1;
  for (;;) {
    if (cur_accept(c, '+')) s = 1;
    else if (cur_accept(c, '-')) s = -1;
    else return 0;
    if (asm_aff_term(c, sign * s, k)) return -1;
  }
}

/* Returns 0 and one constraint `A rel B` normalized to `A - B >= 0` (or
 * `== 0`) in *k. */
static int asm_cons_parse(asm_cur *c, asm_cons *k) {
  memset(k, 0, sizeof *k);
  k->maxdim = -1;
  k->line = c->line;
  cur_peek(c);
  k->col = c->pos + 1;
  if (asm_aff(c, 1, k)) return -1;
  cur_peek(c);
  const char *p = c->s + c->pos;
  int flip = 0, strict = 0;
  if (!strncmp(p, ">=", 2)) c->pos += 2;
  else if (!strncmp(p, "<=", 2)) c->pos += 2, flip = 1;
  else if (!strncmp(p, "==", 2)) c->pos += 2, k->kind = STREAM_CONS_EQ;
  else if (*p == '>') c->pos++, strict = 1;
  else if (*p == '<') c->pos++, strict = 1, flip = 1;
  else return CUR_FAIL(c, "expected a comparison (>=, <=, ==, >, <)");
  if (asm_aff(c, -1, k)) return -1;
  if (flip) {
    for (int d = 0; d < ASM_MAXD; d++) k->coef[d] = -k->coef[d];
    k->konst = -k->konst;
  }
  if (strict) k->konst -= 1;
  for (int d = 0; d < ASM_MAXD; d++)
    if (k->coef[d] < INT32_MIN || k->coef[d] > INT32_MAX)
      return asm_fail(c->st, k->line, k->col, "coefficient of j%d exceeds 32 bits", d);
  if (k->konst < INT32_MIN || k->konst > INT32_MAX)
    return asm_fail(c->st, k->line, k->col, "constant exceeds 32 bits");
  return 0;
}

/* Returns 0 after appending the comma-separated constraints of the rest of
 * the line to term t. */
static int asm_cons_list(asm_cur *c, asm_term *t) {
  do {
    if (asm_grow((void **)&t->cons, &t->cap, t->ncons, sizeof *t->cons))
      return CUR_FAIL(c, "out of memory");
    if (asm_cons_parse(c, &t->cons[t->ncons])) return -1;
    t->ncons++;
  } while (cur_accept(c, ','));
  return cur_end(c);
}

/* Prints one constraint as `AFFINE >= 0` or `AFFINE == 0` over nd dims. */
static void asm_cons_print(FILE *out, const int32_t *coef, int nd,
                           int32_t konst, int kind) {
  int first = 1;
  for (int d = 0; d < nd; d++) {
    int64_t v = coef[d];
    if (!v) continue;
    int64_t a = v < 0 ? -v : v;
    fputs(first ? (v < 0 ? "-" : "") : (v < 0 ? " - " : " + "), out);
    if (a != 1) fprintf(out, "%" PRId64 "*", a);
    fprintf(out, "j%d", d);
    first = 0;
  }
  if (first) fprintf(out, "%" PRId32, konst);
  else if (konst)
    fprintf(out, " %c %" PRId64, konst < 0 ? '-' : '+',
            konst < 0 ? -(int64_t)konst : (int64_t)konst);
  fputs(kind == STREAM_CONS_EQ ? " == 0" : " >= 0", out);
}

/* ---- packet headers ------------------------------------------------------ */

/* Returns 0 and one range of a rectangle (`*`, `N` or `N..M`) in *lo, *n;
 * `limit` is the array's extent. */
static int asm_range(asm_cur *c, int limit, int *lo, int *n) {
  if (cur_accept(c, '*')) {
    *lo = 0, *n = limit;
    return 0;
  }
  int64_t a, b;
  if (cur_int(c, 0, 0xffff, "PE row or column", &a)) return -1;
  b = a;
  cur_peek(c);
  if (!strncmp(c->s + c->pos, "..", 2)) {
    c->pos += 2;
    int at = c->pos;
    if (cur_int(c, 0, 0xffff, "PE row or column", &b)) return -1;
    if (b < a) return c->pos = at, CUR_FAIL(c, "range %" PRId64 "..%" PRId64 " is empty", a, b);
  }
  *lo = (int)a, *n = (int)(b - a + 1);
  return 0;
}

/* Returns 0 and the FU number named by a word (`alu1`) or a number. */
static int asm_fu_parse(asm_cur *c, int *fu) {
  char w[32], name[32];
  const arch_config *cfg = c->st->cfg;
  int nfu = isa_fu_count(cfg), at = (cur_peek(c), c->pos);
  if (isdigit(cur_peek(c))) {
    int64_t v;
    if (cur_int(c, 0, nfu - 1, "FU number", &v)) return -1;
    *fu = (int)v;
    return 0;
  }
  if (!cur_word(c, w, sizeof w)) return CUR_FAIL(c, "expected an FU (alu0, mul0, ... or a number)");
  for (int k = 0; k < nfu; k++)
    if (!strcmp(w, isa_fu_format(cfg, k, name, sizeof name))) {
      *fu = k;
      return 0;
    }
  c->pos = at;
  return CUR_FAIL(c, "no FU '%s' in a PE of this architecture (alu %d, mul %d, div %d)",
                  w, cfg->alu, cfg->mul, cfg->div);
}

/* Returns the rectangle of every PE on border `side`. */
static stream_rect asm_border(int side, const arch_config *cfg) {
  switch (side) {
  case STREAM_SIDE_NORTH: return (stream_rect){0, 0, 1, cfg->cols};
  case STREAM_SIDE_SOUTH: return (stream_rect){cfg->rows - 1, 0, 1, cfg->cols};
  case STREAM_SIDE_WEST: return (stream_rect){0, 0, cfg->rows, 1};
  default: return (stream_rect){0, cfg->cols - 1, cfg->rows, 1};
  }
}

/* Returns 0 after reading the keys of a packet header (after the type
 * word) into st->pk. */
static int asm_header_keys(asm_cur *c, asm_packet *pk) {
  enum { K_PE = 1, K_FU = 2, K_GC = 4, K_SIDE = 8, K_BANK = 16 };
  static const unsigned allowed[] = {0, K_PE | K_FU, K_PE, K_PE, K_PE | K_GC,
                                     K_PE | K_SIDE | K_BANK, K_PE | K_SIDE | K_BANK,
                                     K_PE | K_GC};
  unsigned need = allowed[pk->type], have = 0;
  char w[32];
  if ((need & K_GC) && isdigit(cur_peek(c))) { /* `gc 0 ...`, `start 0 ...` */
    int64_t v;
    if (cur_int(c, 0, STREAM_GCS - 1, "global controller", &v)) return -1;
    pk->index = (int)v;
    have |= K_GC;
  }
  while (cur_peek(c)) {
    int at = c->pos;
    if (!cur_word(c, w, sizeof w)) return CUR_FAIL(c, "expected a key (pe, fu, gc, side, bank)");
    unsigned k = !strcmp(w, "pe") ? K_PE : !strcmp(w, "fu") ? K_FU : !strcmp(w, "gc") ? K_GC
               : !strcmp(w, "side") ? K_SIDE : !strcmp(w, "bank") ? K_BANK : 0;
    if (!k || !(k & need))
      return c->pos = at, CUR_FAIL(c, "'%s' is not a key of a %s packet", w, asm_type_names[pk->type]);
    if (have & k) return c->pos = at, CUR_FAIL(c, "'%s' given twice", w);
    have |= k;
    int64_t v;
    if (k == K_PE) {
      if (asm_range(c, c->st->cfg->rows, &pk->rect.row0, &pk->rect.rows)) return -1;
      if (!cur_accept(c, ',')) return CUR_FAIL(c, "expected ',' between PE rows and columns");
      if (asm_range(c, c->st->cfg->cols, &pk->rect.col0, &pk->rect.cols)) return -1;
    } else if (k == K_FU) {
      if (asm_fu_parse(c, &pk->index)) return -1;
    } else if (k == K_GC) {
      if (cur_int(c, 0, STREAM_GCS - 1, "global controller", &v)) return -1;
      pk->index = (int)v;
    } else if (k == K_BANK) {
      if (cur_int(c, 0, 255, "bank", &v)) return -1;
      pk->index = (int)v;
    } else {
      int sat = (cur_peek(c), c->pos);
      if (!cur_word(c, w, sizeof w) || (pk->side = asm_side_lookup(w)) < 0)
        return c->pos = sat, CUR_FAIL(c, "expected a side: n, e, s or w");
    }
  }
  if (!(have & K_PE) && (need & K_SIDE) && (have & K_SIDE)) {
    pk->rect = asm_border(pk->side, c->st->cfg);
    have |= K_PE;
  }
  static const char *const names[] = {"pe", "fu", "gc", "side", "bank"};
  for (int b = 0; b < 5; b++)
    if ((need & (1u << b)) && !(have & (1u << b)))
      return CUR_FAIL(c, "a %s packet needs '%s'", asm_type_names[pk->type], names[b]);
  return 0;
}

/* Returns 0 after opening a packet of `type` from its header line. */
static int asm_header(asm_cur *c, stream_packet_type type, int col) {
  asm_state *st = c->st;
  asm_packet *pk = &st->pk;
  asm_packet_clear(pk);
  pk->active = 1;
  pk->type = type;
  pk->line = c->line;
  pk->col = col;
  if (asm_header_keys(c, pk)) {
    pk->active = -1; /* broken: skip its body */
    return -1;
  }
  const arch_config *cfg = st->cfg;
  if (type == STREAM_PKT_REGCFG)
    for (int i = 0; i < cfg->fd; i++)
      if (asm_words_push(&pk->fixed, 1)) return CUR_FAIL(c, "out of memory");
  if (type == STREAM_PKT_WRAPPER)
    for (int i = 0; i < cfg->id + STREAM_SIDES * cfg->ports; i++)
      if (asm_words_push(&pk->fixed, 0)) return CUR_FAIL(c, "out of memory");
  return 0;
}

/* ---- bodies ----------------------------------------------------------- */

/* Returns 0 after a `word V V ...` line (`word` at column at + 1). */
static int asm_body_raw(asm_cur *c, asm_packet *pk, int at) {
  if (pk->body == BODY_NAMED)
    return c->pos = at, CUR_FAIL(c, "raw words cannot be mixed with named fields or instructions");
  pk->body = BODY_RAW;
  if (!cur_peek(c)) return CUR_FAIL(c, "'word' needs at least one value");
  while (cur_peek(c)) {
    int64_t v;
    if (cur_int(c, ASM_WORD_MIN, ASM_WORD_MAX, "word", &v)) return -1;
    if (asm_words_push(&pk->raw, (uint32_t)v)) return CUR_FAIL(c, "out of memory");
  }
  return 0;
}

/* Returns 1 when a label name could be mistaken for a branch token. */
static int asm_label_reserved(const char *w) {
  return !strcmp(w, "next") || !strcmp(w, "word") || !strcmp(w, "goto") || !strcmp(w, "br") ||
         !strcmp(w, "halt") || asm_numbered(w, "L") >= 0 ||
         asm_numbered(w, "c") >= 0 || asm_numbered(w, "f") >= 0 ||
         isa_op_lookup(w) >= 0;
}

/* Returns 0 after a program line: labels `NAME:` then an instruction. */
static int asm_body_program(asm_cur *c, asm_packet *pk) {
  char w[64];
  for (;;) {
    int at = (cur_peek(c), c->pos);
    if (!cur_word(c, w, sizeof w) || !cur_accept(c, ':')) {
      c->pos = at;
      break;
    }
    if (asm_label_reserved(w))
      return c->pos = at, CUR_FAIL(c, "'%s' cannot be a label (a mnemonic or branch token)", w);
    for (int i = 0; i < pk->nlabels; i++)
      if (!strcmp(pk->labels[i].name, w))
        return c->pos = at, CUR_FAIL(c, "label '%s' already defined at line %d", w,
                                     pk->labels[i].line);
    if (asm_grow((void **)&pk->labels, &pk->caplabels, pk->nlabels, sizeof *pk->labels))
      return CUR_FAIL(c, "out of memory");
    asm_label *l = &pk->labels[pk->nlabels];
    if (!(l->name = strdup(w))) return CUR_FAIL(c, "out of memory");
    l->pc = pk->ninsns, l->line = c->line, l->col = at + 1;
    pk->nlabels++;
  }
  if (!cur_peek(c)) return 0;
  if (pk->body == BODY_RAW)
    return CUR_FAIL(c, "instructions cannot be mixed with raw words");
  pk->body = BODY_NAMED;
  if (asm_grow((void **)&pk->insns, &pk->capinsns, pk->ninsns, sizeof *pk->insns))
    return CUR_FAIL(c, "out of memory");
  asm_iline *il = &pk->insns[pk->ninsns];
  if (!(il->text = strdup(c->s + c->pos))) return CUR_FAIL(c, "out of memory");
  il->line = c->line, il->col = c->pos + 1;
  pk->ninsns++;
  return 0;
}

/* Returns 0 after `fdK = DEPTH, ...` (regcfg). */
static int asm_body_regcfg(asm_cur *c, asm_packet *pk) {
  char w[32];
  do {
    int at = (cur_peek(c), c->pos);
    int k = cur_word(c, w, sizeof w) ? asm_numbered(w, "fd") : -1;
    if (k < 0 || k >= c->st->cfg->fd)
      return c->pos = at, CUR_FAIL(c, "expected fd0..fd%d", c->st->cfg->fd - 1);
    if (!cur_accept(c, '=')) return CUR_FAIL(c, "expected '='");
    int64_t v;
    if (cur_int(c, 1, c->st->cfg->fd_depth, "fd depth", &v)) return -1;
    pk->fixed.v[k] = (uint32_t)v;
  } while (cur_accept(c, ','));
  return cur_end(c);
}

/* Returns the wrapper sink (>= 0) or source (>= 0) number of a port name,
 * or -1: `idK`/`odK` (sink/source `reg`), else side letter + port. */
static int asm_port_number(const char *w, const char *reg, int nreg,
                           const arch_config *cfg) {
  int k = asm_numbered(w, reg);
  if (k >= 0) return k < nreg ? k : -1;
  for (int s = 0; s < STREAM_SIDES; s++) {
    char pre[2] = {asm_side_chars[s], 0};
    k = asm_numbered(w, pre);
    if (k >= 0) return k < cfg->ports ? nreg + s * cfg->ports + k : -1;
  }
  return -1;
}

/* Returns 0 after `SINK = SOURCE, ...` (wrapper). */
static int asm_body_wrapper(asm_cur *c, asm_packet *pk) {
  const arch_config *cfg = c->st->cfg;
  char w[32];
  do {
    int at = (cur_peek(c), c->pos);
    int sink = cur_word(c, w, sizeof w) ? asm_port_number(w, "id", cfg->id, cfg) : -1;
    if (sink < 0)
      return c->pos = at, CUR_FAIL(c, "expected a sink: id0..id%d or a wrapper output "
                                   "n0..n%d, e.., s.., w..", cfg->id - 1, cfg->ports - 1);
    if (!cur_accept(c, '=')) return CUR_FAIL(c, "expected '='");
    at = (cur_peek(c), c->pos);
    int src = -2;
    if (cur_accept(c, '-')) src = -1;
    else if (cur_word(c, w, sizeof w)) {
      src = asm_port_number(w, "od", cfg->od, cfg);
      if (src < 0) src = -2;
    }
    if (src == -2)
      return c->pos = at, CUR_FAIL(c, "expected a source: od0..od%d, a wrapper input "
                                   "n0..n%d, e.., s.., w.., or - (unconnected)",
                                   cfg->od - 1, cfg->ports - 1);
    pk->fixed.v[sink] = (uint32_t)(src + 1);
  } while (cur_accept(c, ','));
  return cur_end(c);
}

/* Returns 0 after reading `n` int32 values (exactly n when exact, else 1..n,
 * count in *got) of field `what`. */
static int asm_ints(asm_cur *c, int64_t *v, int n, int exact, int *got,
                    int64_t lo, const char *what) {
  int k = 0;
  while (cur_peek(c)) {
    if (k == n) return CUR_FAIL(c, "'%s' takes at most %d values", what, n);
    if (cur_int(c, lo, INT32_MAX, what, &v[k])) return -1;
    k++;
  }
  if (exact ? k != n : k < 1)
    return CUR_FAIL(c, "'%s' needs %s%d value%s", what, exact ? "" : "at least ",
                    exact ? n : 1, (exact ? n : 1) == 1 ? "" : "s");
  if (got) *got = k;
  return 0;
}

/* Returns 0 after marking named field f as seen (an error if it was). */
static int asm_once(asm_cur *c, asm_packet *pk, unsigned f, const char *w, int at) {
  if (pk->seen & f) return c->pos = at, CUR_FAIL(c, "'%s' given twice in this packet", w);
  pk->seen |= f;
  return 0;
}

/* Returns 0 after appending a term (GC) or enable constraints (AG). */
static int asm_term_line(asm_cur *c, asm_packet *pk, int signal) {
  if (pk->type == STREAM_PKT_AG && pk->nterms == 1) return asm_cons_list(c, &pk->terms[0]);
  if (asm_grow((void **)&pk->terms, &pk->capterms, pk->nterms, sizeof *pk->terms))
    return CUR_FAIL(c, "out of memory");
  asm_term *t = &pk->terms[pk->nterms++];
  memset(t, 0, sizeof *t);
  t->signal = signal;
  if (pk->type == STREAM_PKT_GC && !cur_accept(c, ':')) return cur_end(c);
  return asm_cons_list(c, t);
}

/* Returns 0 after reading a GC term's optional PE range, `range ROW_LO
 * ROW_SKIP COL_LO COL_SKIP` (each 0..63, docs/stream.md "GC payload"),
 * into the signal word *sig; -1 after an error. */
static int asm_term_range(asm_cur *c, int *sig) {
  char s[16];
  int at = (cur_peek(c), c->pos);
  if (!cur_word(c, s, sizeof s)) return 0;
  if (strcmp(s, "range")) return c->pos = at, CUR_FAIL(c, "expected ':', 'range' or the end of the line");
  int64_t f[4];
  for (int k = 0; k < 4; k++)
    if (cur_int(c, 0, STREAM_TERM_RANGE_MAX, "range", &f[k])) return -1;
  *sig = (int)STREAM_TERM_WORD(*sig, f[0], f[1], f[2], f[3]);
  return 0;
}

/* Returns 0 after one named-field line of a GC, AG or IODATA body whose
 * key word `w` (at column at) was read. */
static int asm_body_fields(asm_cur *c, asm_packet *pk, const char *w, int at) {
  int gc = pk->type == STREAM_PKT_GC, ag = pk->type == STREAM_PKT_AG;
  int64_t one[1];
  int n;
  if (gc && !strcmp(w, "ii")) {
    if (asm_once(c, pk, F_II, w, at) || asm_ints(c, one, 1, 1, NULL, 1, "ii")) return -1;
    pk->ii = one[0];
  } else if (gc && !strcmp(w, "bounds")) {
    if (asm_once(c, pk, F_BOUNDS, w, at) || asm_ints(c, pk->dims, ASM_MAXD, 0, &n, 1, "bounds"))
      return -1;
    pk->ndims = n;
  } else if (gc && !strcmp(w, "epilog")) {
    if (asm_once(c, pk, F_EPILOG, w, at) || asm_ints(c, one, 1, 1, NULL, 0, "epilog")) return -1;
    pk->epilog = one[0];
  } else if (gc && !strcmp(w, "delay")) {
    if (asm_once(c, pk, F_DELAY, w, at) || asm_ints(c, pk->delay, 3, 1, NULL, INT32_MIN, "delay"))
      return -1;
  } else if (gc && !strcmp(w, "term")) {
    char s[32];
    int sat = (cur_peek(c), c->pos);
    int sig = cur_word(c, s, sizeof s) ? asm_numbered(s, "c") : -1;
    if (sig < 0 || sig >= c->st->cfg->gc_signals)
      return c->pos = sat, CUR_FAIL(c, "expected a control signal c0..c%d",
                                    c->st->cfg->gc_signals - 1);
    return asm_term_range(c, &sig) ? -1 : asm_term_line(c, pk, sig);
  } else if (ag && !strcmp(w, "mode")) {
    static const char *const modes[] = {"off", "read", "write"};
    char s[32];
    if (asm_once(c, pk, F_MODE, w, at)) return -1;
    int sat = (cur_peek(c), c->pos);
    cur_word(c, s, sizeof s);
    pk->mode = -1;
    for (int i = 0; i < 3; i++)
      if (!strcmp(s, modes[i])) pk->mode = i;
    if (pk->mode < 0) return c->pos = sat, CUR_FAIL(c, "expected a mode: off, read or write");
    return cur_end(c);
  } else if (ag && !strcmp(w, "phase")) {
    if (asm_once(c, pk, F_PHASE, w, at) || asm_ints(c, one, 1, 1, NULL, 0, "phase")) return -1;
    pk->phase = one[0];
  } else if (ag && !strcmp(w, "base")) {
    if (asm_once(c, pk, F_BASE, w, at) || asm_ints(c, pk->base, 3, 1, NULL, INT32_MIN, "base"))
      return -1;
  } else if (ag && !strcmp(w, "stride")) {
    if (asm_once(c, pk, F_STRIDE, w, at) ||
        asm_ints(c, pk->dims, ASM_MAXD, 0, &n, INT32_MIN, "stride"))
      return -1;
    pk->ndims = n;
  } else if (ag && !strcmp(w, "enable")) {
    return asm_term_line(c, pk, 0);
  } else if (pk->type == STREAM_PKT_IODATA && !strcmp(w, "address")) {
    int64_t v;
    if (asm_once(c, pk, F_ADDRESS, w, at) ||
        cur_int(c, 0, UINT32_MAX, "address", &v) || cur_end(c))
      return -1;
    pk->address = v;
  } else if (pk->type == STREAM_PKT_IODATA && !strcmp(w, "data")) {
    if (!cur_peek(c)) return CUR_FAIL(c, "'data' needs at least one value");
    while (cur_peek(c)) {
      int64_t v;
      if (cur_int(c, ASM_WORD_MIN, ASM_WORD_MAX, "data word", &v)) return -1;
      if (asm_words_push(&pk->fixed, (uint32_t)v)) return CUR_FAIL(c, "out of memory");
    }
  } else {
    static const char *const keys[] = {
        [STREAM_PKT_GC] = "ii, bounds, epilog, delay, term",
        [STREAM_PKT_AG] = "mode, phase, base, stride, enable",
        [STREAM_PKT_IODATA] = "address, data", [STREAM_PKT_START] = "none"};
    return c->pos = at, CUR_FAIL(c, "'%s' is not a field of a %s packet (fields: %s; or word)",
                                 w, asm_type_names[pk->type], keys[pk->type]);
  }
  return 0;
}

/* Returns 0 after one body line of the open packet. */
static int asm_body(asm_cur *c, asm_packet *pk) {
  char w[32];
  int at = (cur_peek(c), c->pos);
  if (cur_word(c, w, sizeof w) && !strcmp(w, "word")) return asm_body_raw(c, pk, at);
  c->pos = at;
  if (pk->type == STREAM_PKT_PROGRAM) return asm_body_program(c, pk);
  if (pk->body == BODY_RAW)
    return CUR_FAIL(c, "named fields cannot be mixed with raw words");
  pk->body = BODY_NAMED;
  if (pk->type == STREAM_PKT_REGCFG) return asm_body_regcfg(c, pk);
  if (pk->type == STREAM_PKT_WRAPPER) return asm_body_wrapper(c, pk);
  if (!cur_word(c, w, sizeof w)) return CUR_FAIL(c, "expected a field name");
  return asm_body_fields(c, pk, w, at);
}

/* ---- closing a packet ------------------------------------------------- */

/* Returns a malloc'ed copy of instruction text with symbolic labels in its
 * branch part replaced by L<pc>; map[i] is the column (0-based) in `t` of
 * character i of the result. NULL after an error. */
static char *asm_labels_subst(asm_state *st, const asm_packet *pk,
                              const asm_iline *il, int **map) {
  const char *t = il->text;
  size_t len = strlen(t), cap = 2 * len + 16, n = 0;
  char *o = malloc(cap);
  int *m = malloc(cap * sizeof *m);
  if (!o || !m) goto oom;
  const char *semi = strchr(t, ';');
  size_t i = 0;
  while (i < len) {
    int word = semi && t + i > semi && (isalpha((unsigned char)t[i]) || t[i] == '_') &&
               (i == 0 || !(isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_' || t[i - 1] == '#'));
    size_t wl = 0;
    if (word)
      while (isalnum((unsigned char)t[i + wl]) || t[i + wl] == '_') wl++;
    char name[64], rep[24];
    int r = -1;
    if (word && wl < sizeof name) {
      snprintf(name, sizeof name, "%.*s", (int)wl, t + i);
      if (!asm_label_reserved(name)) {
        for (int k = 0; k < pk->nlabels; k++)
          if (!strcmp(pk->labels[k].name, name)) r = pk->labels[k].pc;
        if (r < 0) {
          asm_fail(st, il->line, il->col + (int)i, "undefined label '%s'", name);
          goto fail;
        }
      }
    }
    if (r >= 0) snprintf(rep, sizeof rep, "L%d", r);
    size_t add = r >= 0 ? strlen(rep) : (word ? wl : 1);
    if (n + add + 1 > cap) {
      cap = 2 * (n + add + 1);
      char *o2 = realloc(o, cap);
      if (!o2) goto oom;
      o = o2;
      int *m2 = realloc(m, cap * sizeof *m);
      if (!m2) goto oom;
      m = m2;
    }
    for (size_t k = 0; k < add; k++) {
      o[n + k] = r >= 0 ? rep[k] : t[i + k];
      m[n + k] = (int)(r >= 0 ? i : i + k);
    }
    n += add;
    i += word ? wl : 1;
  }
  o[n] = 0;
  m[n] = (int)len;
  *map = m;
  return o;
oom:
  asm_fail(st, il->line, il->col, "out of memory");
fail:
  free(o);
  free(m);
  return NULL;
}

/* Returns 0 after assembling one instruction line into *word. */
static int asm_insn(asm_state *st, const asm_packet *pk, const asm_iline *il,
                    isa_word *word) {
  int *map = NULL, col = 1, rc = -1;
  char *text = asm_labels_subst(st, pk, il, &map);
  if (!text) return -1;
  isa_insn in;
  char msg[200] = "";
  if (isa_insn_parse(text, &in, &col, msg, sizeof msg) != ISA_OK) {
    size_t tl = strlen(text);
    int at = col >= 1 && (size_t)col <= tl + 1 ? map[col - 1] : 0;
    asm_fail(st, il->line, il->col + at, "%s", msg[0] ? msg : "not an instruction");
  } else if (isa_insn_check(&in, isa_fu_class_of(st->cfg, pk->index), st->cfg, msg,
                            sizeof msg) != ISA_OK) {
    char fu[16];
    asm_fail(st, il->line, il->col, "instruction does not fit FU %s: %s",
             isa_fu_format(st->cfg, pk->index, fu, sizeof fu), msg);
  } else if (isa_encode(&in, word) != ISA_OK) {
    asm_fail(st, il->line, il->col, "instruction cannot be encoded");
  } else {
    rc = 0;
  }
  free(text);
  free(map);
  return rc;
}

/* Returns 0 after laying out the named GC or AG fields as payload words. */
static int asm_layout_loops(asm_state *st, asm_packet *pk, asm_words *o) {
  int gc = pk->type == STREAM_PKT_GC;
  unsigned req = gc ? F_II | F_BOUNDS : F_MODE | F_STRIDE;
  if ((pk->seen & req) != req)
    return asm_fail(st, pk->line, pk->col, "a %s packet needs '%s'",
                    gc ? "gc" : "ag", gc ? ((pk->seen & F_II) ? "bounds" : "ii")
                                         : ((pk->seen & F_MODE) ? "stride" : "mode"));
  int bad = 0;
  if (gc) {
    bad |= asm_words_push(o, (uint32_t)pk->ii);
    bad |= asm_words_push(o, (uint32_t)pk->ndims);
    for (int d = 0; d < pk->ndims; d++) bad |= asm_words_push(o, (uint32_t)pk->dims[d]);
    bad |= asm_words_push(o, (uint32_t)pk->epilog);
    for (int k = 0; k < 3; k++) bad |= asm_words_push(o, (uint32_t)pk->delay[k]);
    bad |= asm_words_push(o, (uint32_t)pk->nterms);
  } else {
    bad |= asm_words_push(o, (uint32_t)pk->mode);
    bad |= asm_words_push(o, (uint32_t)pk->ndims);
    bad |= asm_words_push(o, (uint32_t)pk->phase);
    for (int k = 0; k < 3; k++) bad |= asm_words_push(o, (uint32_t)pk->base[k]);
    for (int d = 0; d < pk->ndims; d++) bad |= asm_words_push(o, (uint32_t)pk->dims[d]);
    if (pk->nterms == 0) bad |= asm_words_push(o, 0);
  }
  for (int t = 0; t < pk->nterms; t++) {
    asm_term *tm = &pk->terms[t];
    if (gc) bad |= asm_words_push(o, (uint32_t)tm->signal);
    bad |= asm_words_push(o, (uint32_t)tm->ncons);
    for (int k = 0; k < tm->ncons; k++) {
      asm_cons *cn = &tm->cons[k];
      if (cn->maxdim >= pk->ndims)
        return asm_fail(st, cn->line, cn->col, "constraint uses j%d; the packet has %d "
                        "dimension%s (j0..j%d)", cn->maxdim, pk->ndims,
                        pk->ndims == 1 ? "" : "s", pk->ndims - 1);
      bad |= asm_words_push(o, (uint32_t)cn->kind);
      for (int d = 0; d < pk->ndims; d++) bad |= asm_words_push(o, (uint32_t)cn->coef[d]);
      bad |= asm_words_push(o, (uint32_t)cn->konst);
    }
  }
  return bad ? asm_fail(st, pk->line, pk->col, "out of memory") : 0;
}

/* Returns 0 after building the payload of the named body into *o. */
static int asm_layout(asm_state *st, asm_packet *pk, asm_words *o) {
  int bad = 0;
  switch (pk->type) {
  case STREAM_PKT_PROGRAM:
    if (pk->ninsns == 0)
      return asm_fail(st, pk->line, pk->col, "a program packet needs at least one instruction");
    for (int i = 0; i < pk->ninsns; i++) {
      isa_word wd;
      if (asm_insn(st, pk, &pk->insns[i], &wd)) {
        bad = 1;
        continue;
      }
      for (int k = 0; k < ISA_WORDS; k++)
        if (asm_words_push(o, wd.w[k])) return asm_fail(st, pk->line, pk->col, "out of memory");
    }
    return bad ? -1 : 0;
  case STREAM_PKT_GC:
  case STREAM_PKT_AG: return asm_layout_loops(st, pk, o);
  case STREAM_PKT_IODATA:
    bad |= asm_words_push(o, (uint32_t)pk->address);
    /* fall through */
  case STREAM_PKT_REGCFG:
  case STREAM_PKT_WRAPPER:
    for (size_t i = 0; i < pk->fixed.n; i++) bad |= asm_words_push(o, pk->fixed.v[i]);
    return bad ? asm_fail(st, pk->line, pk->col, "out of memory") : 0;
  case STREAM_PKT_START: return 0;
  }
  return -1;
}

/* Returns 0 after closing the open packet: payload built and written. */
static int asm_packet_close(asm_state *st) {
  asm_packet *pk = &st->pk;
  int rc = 0;
  if (pk->active == 1) {
    asm_words o = {0};
    const asm_words *pay = &pk->raw;
    if (pk->body != BODY_RAW && (!pk->bad || pk->type == STREAM_PKT_PROGRAM)) {
      rc = asm_layout(st, pk, &o); /* programs: report instruction errors too */
      pay = &o;
    }
    if (pk->bad) rc = -1;
    if (!rc && pay->n > UINT32_MAX)
      rc = asm_fail(st, pk->line, pk->col, "packet too long");
    if (!rc && stream_writer_packet(st->w, pk->type, pk->index, pk->side, pk->rect,
                                    pay->v, (uint32_t)pay->n) != STREAM_OK)
      rc = asm_fail(st, pk->line, pk->col, "%s packet rejected: %s",
                    asm_type_names[pk->type], st->w->msg);
    if (!rc) st->npackets++;
    free(o.v);
  }
  asm_packet_clear(pk);
  return rc;
}

/* ---- lines ------------------------------------------------------------- */

/* Returns 0 after `fingerprint 0x...`: it must match the architecture. */
static int asm_fingerprint(asm_cur *c) {
  asm_state *st = c->st;
  if (st->pk.active || st->npackets || st->w->n)
    return CUR_FAIL(c, "'fingerprint' must come before the first packet");
  cur_peek(c);
  int at = c->pos;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(c->s + c->pos, &end, 0);
  if (end == c->s + c->pos || errno) return CUR_FAIL(c, "expected a fingerprint (0x + 16 hex digits)");
  c->pos = (int)(end - c->s);
  if (cur_end(c)) return -1;
  unsigned long long fp = (unsigned long long)arch_config_fingerprint(st->cfg);
  if (v != fp)
    return c->pos = at, CUR_FAIL(c, "stream written for architecture fingerprint 0x%016llx, "
                                 "but the architecture given has 0x%016llx (see --arch)", v, fp);
  return 0;
}

/* Returns 0 after one line (comment already cut off). */
static int asm_line(asm_cur *c) {
  asm_state *st = c->st;
  char w[32];
  if (!cur_peek(c)) return 0;
  int at = c->pos;
  if (cur_word(c, w, sizeof w) && cur_peek(c) != ':') {
    for (int t = STREAM_PKT_PROGRAM; t <= STREAM_PKT_START; t++)
      if (!strcmp(w, asm_type_names[t])) {
        asm_packet_close(st);
        return asm_header(c, (stream_packet_type)t, at + 1);
      }
    if (!strcmp(w, "fingerprint")) return asm_fingerprint(c);
  }
  c->pos = at;
  if (st->pk.active == -1) return 0; /* body of a broken header */
  if (!st->pk.active)
    return CUR_FAIL(c, "expected a packet header (program, regcfg, wrapper, gc, ag, "
                    "iodata, start) or 'fingerprint'");
  if (asm_body(c, &st->pk)) st->pk.bad = 1;
  return st->pk.bad ? -1 : 0;
}

int asm_text_assemble(const char *name, const char *text,
                      const arch_config *cfg, stream_writer *w,
                      asm_error *err) {
  asm_state st = {name, text, cfg, w, err, 0, 0, {0}};
  stream_writer_init(w, cfg);
  if (err) memset(err, 0, sizeof *err);
  int line = 0;
  char *buf = NULL;
  size_t cap = 0;
  for (const char *p = text; *p;) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    line++;
    if (n + 1 > cap) {
      cap = 2 * (n + 1);
      char *nb = realloc(buf, cap);
      if (!nb) {
        asm_fail(&st, line, 1, "out of memory");
        break;
      }
      buf = nb;
    }
    memcpy(buf, p, n);
    buf[n] = 0;
    char *cm = strstr(buf, "//");
    if (cm) *cm = 0;
    asm_cur c = {&st, buf, 0, line};
    asm_line(&c);
    p = e ? e + 1 : p + n;
  }
  free(buf);
  asm_packet_close(&st);
  if (!st.nerr && !w->started)
    asm_fail(&st, line + 1, 1, "the stream has no start packet (it must end with "
             "'start gc N pe ROWS,COLS')");
  return st.nerr ? -1 : 0;
}

int asm_file_assemble(const char *path, const arch_config *cfg,
                      stream_writer *w, asm_error *err) {
  size_t len;
  char *text = fileio_read_all(path, &len);
  if (!text) {
    stream_writer_init(w, cfg);
    if (err) {
      memset(err, 0, sizeof *err);
      snprintf(err->msg, sizeof err->msg, "cannot read '%s': %s", path, strerror(errno));
      err->count = 1;
    }
    diag_error_plain("cannot read '%s': %s", path, strerror(errno));
    return -1;
  }
  if (strlen(text) != len) {
    free(text);
    stream_writer_init(w, cfg);
    diag_error_plain("'%s' contains a NUL byte: not a .tasm text", path);
    if (err) {
      memset(err, 0, sizeof *err);
      snprintf(err->msg, sizeof err->msg, "NUL byte in the text");
      err->count = 1;
    }
    return -1;
  }
  int rc = asm_text_assemble(path, text, cfg, w, err);
  free(text);
  return rc;
}

/* ---- disassembler ------------------------------------------------------- */

/* Prints a rectangle as ` pe R,C` with inclusive ranges. */
static void dis_rect(FILE *out, const stream_rect *r) {
  fprintf(out, " pe %d", r->row0);
  if (r->rows > 1) fprintf(out, "..%d", r->row0 + r->rows - 1);
  fprintf(out, ",%d", r->col0);
  if (r->cols > 1) fprintf(out, "..%d", r->col0 + r->cols - 1);
  fputc('\n', out);
}

/* Prints a port name: PE register `reg`K below nreg, else side + port. */
static void dis_port(FILE *out, uint32_t k, const char *reg, int nreg,
                     const arch_config *cfg) {
  if (k < (uint32_t)nreg) fprintf(out, "%s%u", reg, k);
  else {
    k -= (uint32_t)nreg;
    fprintf(out, "%c%u", asm_side_chars[k / (uint32_t)cfg->ports], k % (uint32_t)cfg->ports);
  }
}

/* Prints `n` constraints from p (kind, coef[nd], konst each), separated
 * by commas; returns the position after them. */
static const uint32_t *dis_cons(FILE *out, const uint32_t *p, uint32_t n, int nd) {
  for (uint32_t k = 0; k < n; k++) {
    int32_t coef[ASM_MAXD];
    for (int d = 0; d < nd && d < ASM_MAXD; d++) coef[d] = (int32_t)p[1 + d];
    fputs(k ? ", " : " ", out);
    asm_cons_print(out, coef, nd, (int32_t)p[1 + nd], (int)p[0]);
    p += 2 + nd;
  }
  return p;
}

/* Prints `key v v ...` with n signed values. */
static void dis_ints(FILE *out, const char *key, const uint32_t *p, int n) {
  fprintf(out, "    %s", key);
  for (int i = 0; i < n; i++) fprintf(out, " %" PRId32, (int32_t)p[i]);
  fputc('\n', out);
}

/* Prints the body of a GC packet (validated by the reader). */
static void dis_gc(FILE *out, const stream_packet *p) {
  const uint32_t *q = p->payload;
  int nd = (int)q[1];
  dis_ints(out, "ii", q, 1);
  dis_ints(out, "bounds", q + 2, nd);
  q += 2 + nd;
  dis_ints(out, "epilog", q, 1);
  dis_ints(out, "delay", q + 1, 3);
  uint32_t nterms = q[4];
  q += 5;
  for (uint32_t t = 0; t < nterms; t++) {
    fprintf(out, "    term c%u", STREAM_TERM_SIGNAL(q[0]));
    if (q[0] >> 8)
      fprintf(out, " range %u %u %u %u", STREAM_TERM_FIELD(q[0], 0), STREAM_TERM_FIELD(q[0], 1),
              STREAM_TERM_FIELD(q[0], 2), STREAM_TERM_FIELD(q[0], 3));
    uint32_t nc = q[1];
    if (nc) fputc(':', out);
    q = dis_cons(out, q + 2, nc, nd);
    fputc('\n', out);
  }
}

/* Prints the body of an AG packet (validated by the reader). */
static void dis_ag(FILE *out, const stream_packet *p) {
  static const char *const modes[] = {"off", "read", "write"};
  const uint32_t *q = p->payload;
  int nd = (int)q[1];
  fprintf(out, "    mode %s\n", modes[q[0]]);
  dis_ints(out, "phase", q + 2, 1);
  dis_ints(out, "base", q + 3, 3);
  dis_ints(out, "stride", q + 6, nd);
  q += 6 + nd;
  if (q[0]) {
    fputs("    enable", out);
    dis_cons(out, q + 1, q[0], nd);
    fputc('\n', out);
  }
}

/* Prints the body of a PROGRAM packet, one instruction per line with its
 * pc as a comment. */
static void dis_program(FILE *out, const stream_packet *p) {
  for (uint32_t i = 0; i < p->nwords / ISA_WORDS; i++) {
    isa_word w;
    isa_insn in;
    char text[160];
    memcpy(w.w, p->payload + i * ISA_WORDS, sizeof w.w);
    if (isa_decode(&w, &in) != ISA_OK) snprintf(text, sizeof text, "?");
    else isa_insn_format(&in, text, sizeof text);
    fprintf(out, "    %-40s // %u\n", text, i);
  }
}

/* Prints one packet: header line and body. */
static void dis_packet(FILE *out, const stream_packet *p, const arch_config *cfg) {
  char fu[16];
  fputs(asm_type_names[p->type], out);
  switch (p->type) {
  case STREAM_PKT_PROGRAM: fprintf(out, " fu %s", isa_fu_format(cfg, p->index, fu, sizeof fu)); break;
  case STREAM_PKT_GC: fprintf(out, " %d", p->index); break;
  case STREAM_PKT_START: fprintf(out, " gc %d", p->index); break;
  case STREAM_PKT_AG:
  case STREAM_PKT_IODATA: fprintf(out, " side %c bank %d", asm_side_chars[p->side], p->index); break;
  default: break;
  }
  dis_rect(out, &p->rect);
  switch (p->type) {
  case STREAM_PKT_PROGRAM: dis_program(out, p); break;
  case STREAM_PKT_REGCFG:
    for (uint32_t i = 0; i < p->nwords; i++) fprintf(out, "    fd%u = %u\n", i, p->payload[i]);
    break;
  case STREAM_PKT_WRAPPER:
    for (uint32_t i = 0; i < p->nwords; i++) {
      if (!p->payload[i]) continue;
      fputs("    ", out);
      dis_port(out, i, "id", cfg->id, cfg);
      fputs(" = ", out);
      dis_port(out, p->payload[i] - 1, "od", cfg->od, cfg);
      fputc('\n', out);
    }
    break;
  case STREAM_PKT_GC: dis_gc(out, p); break;
  case STREAM_PKT_AG: dis_ag(out, p); break;
  case STREAM_PKT_IODATA:
    fprintf(out, "    address %u\n", p->payload[0]);
    for (uint32_t i = 1; i < p->nwords; i += 8) {
      fputs("    data", out);
      for (uint32_t k = i; k < p->nwords && k < i + 8; k++)
        fprintf(out, " %" PRId32, (int32_t)p->payload[k]);
      fputc('\n', out);
    }
    break;
  case STREAM_PKT_START: break;
  }
}

int asm_stream_disassemble(const uint8_t *buf, size_t len,
                           const arch_config *cfg, FILE *out, char *msg,
                           size_t msgsz) {
  stream_reader r;
  int rc = stream_reader_open(&r, buf, len, cfg);
  if (rc == STREAM_OK) {
    fprintf(out, "// configuration stream (tcpa disasm): %zu bytes\n"
                 "fingerprint 0x%016llx\n", len,
            (unsigned long long)arch_config_fingerprint(cfg));
    stream_packet p;
    while ((rc = stream_reader_next(&r, &p)) == 1) {
      fputc('\n', out);
      dis_packet(out, &p, cfg);
    }
  }
  if (rc < 0 && msg) snprintf(msg, msgsz, "%s", r.msg);
  stream_reader_close(&r);
  return rc < 0 ? rc : STREAM_OK;
}
