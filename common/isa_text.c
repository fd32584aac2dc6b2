/*
 * isa_text.c: the assembly text of one instruction of isa.h (docs/isa.md),
 * in both directions: isa_insn_format writes it (e.g. `add rd0, id1, #3 ;
 * br c0 ? L4 : L2`), isa_insn_parse reads it back with a small
 * recursive-descent parser that reports the column of the offending token.
 * A nop with IMM = n > 0 is `nop N`, N = n + 1 cycles (docs/isa.md).
 * The two round trip: parse(format(i)) == i for every valid instruction i;
 * a parsed instruction is checked by the encoder's structural rules.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

/* Returns the two's complement reading of v (no implementation-defined
 * conversion). */
static int32_t isa_text_s32(uint32_t v) {
  int32_t r;
  memcpy(&r, &v, sizeof r);
  return r;
}

/* ---- assembly text: format ----------------------------------------------- */

/* A bounded string builder: keeps counting past the end like snprintf. */
typedef struct {
  char *buf;
  size_t size, len;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t room = b->len < b->size ? b->size - b->len : 0;
  int n = vsnprintf(room ? b->buf + b->len : NULL, room, fmt, ap);
  va_end(ap);
  if (n > 0) b->len += (size_t)n;
}

/* Writes operand o (`rd0`, `#-5` with the immediate imm, ...). */
static void sb_opnd(sbuf *b, isa_opnd o, int32_t imm) {
  static const char *const pre[] = {"?", "rd", "fd", "id", "od"};
  if (o.cls == ISA_CLS_IMM)
    sb_printf(b, "#%ld", (long)imm);
  else
    sb_printf(b, "%s%d", o.cls <= ISA_CLS_OD ? pre[o.cls] : "?", o.idx);
}

/* Writes condition source s: a control signal `cN` or an FU flag `fN`. */
static void sb_cond(sbuf *b, int s) {
  if (s < ISA_COND_FLAG)
    sb_printf(b, "c%d", s);
  else
    sb_printf(b, "f%d", s - ISA_COND_FLAG);
}

/* Writes the destination list: `rd0`, `{rd0, od1}`, or `_` when empty. */
static void sb_dests(sbuf *b, const isa_insn *in) {
  int n = (in->dst.cls != ISA_CLS_NONE);
  for (int k = 0; k < ISA_MAX_OD; k++) n += (in->odmask >> k) & 1;
  if (n == 0) {
    sb_printf(b, "_");
    return;
  }
  if (n > 1) sb_printf(b, "{");
  int first = 1;
  if (in->dst.cls != ISA_CLS_NONE) {
    sb_opnd(b, in->dst, 0);
    first = 0;
  }
  for (int k = 0; k < ISA_MAX_OD; k++)
    if ((in->odmask >> k) & 1) {
      sb_printf(b, "%sod%d", first ? "" : ", ", k);
      first = 0;
    }
  if (n > 1) sb_printf(b, "}");
}

/* Writes the branch part (` ; goto L3`, ...; nothing for `next`). */
static void sb_branch(sbuf *b, const isa_insn *in) {
  switch (in->br) {
  case ISA_BR_NEXT: break;
  case ISA_BR_HALT: sb_printf(b, " ; halt"); break;
  case ISA_BR_GOTO: sb_printf(b, " ; goto L%d", in->target[0]); break;
  case ISA_BR_COND:
    sb_printf(b, " ; br ");
    for (int i = in->nsel - 1; i >= 0; i--) {
      sb_cond(b, in->sel[i]);
      if (i) sb_printf(b, ", ");
    }
    sb_printf(b, " ?");
    for (int t = (1 << in->nsel) - 1; t >= 0; t--)
      sb_printf(b, " L%d%s", in->target[t], t ? " :" : "");
    break;
  }
}

/* Returns the length of the text of in (isa.h), written to buf. */
int isa_insn_format(const isa_insn *in, char *buf, size_t bufsz) {
  sbuf b = {buf, bufsz, 0};
  if (bufsz) buf[0] = 0;
  const isa_op_info *info = isa_op_get(in->op);
  if (!info) {
    sb_printf(&b, "?op%d", (int)in->op);
    return (int)b.len;
  }
  sb_printf(&b, "%s", info->name);
  if (in->op == ISA_OP_NOP && in->imm != 0)
    sb_printf(&b, " %llu", (unsigned long long)isa_insn_cycles(in));
  if (in->op != ISA_OP_NOP) {
    sb_printf(&b, " ");
    sb_dests(&b, in);
    for (int i = 0; i < info->nsrc; i++) {
      sb_printf(&b, ", ");
      sb_opnd(&b, in->src[i], in->imm);
    }
  }
  sb_branch(&b, in);
  return (int)b.len;
}

/* ---- assembly text: parse ------------------------------------------------ */

typedef struct {
  const char *text, *p;
  char *msg;
  size_t msgsz;
  int col; /* column of the error */
} parser;

/* Moves past spaces and tabs. */
static void skip_space(parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\t') ps->p++;
}

/* Returns ISA_ERR_SYNTAX after recording an error at the current spot. */
static int perr(parser *ps, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int perr(parser *ps, const char *fmt, ...) {
  ps->col = (int)(ps->p - ps->text) + 1;
  if (ps->msg && ps->msgsz) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->msg, ps->msgsz, fmt, ap);
    va_end(ap);
  }
  return ISA_ERR_SYNTAX;
}

/* Returns 1 and consumes `c` when it is the next non-blank character. */
static int accept(parser *ps, char c) {
  skip_space(ps);
  if (*ps->p != c) return 0;
  ps->p++;
  return 1;
}

/* Returns 1 at the end of the text (or of the instruction, at `//`). */
static int at_end(parser *ps) {
  skip_space(ps);
  return *ps->p == 0 || *ps->p == '\n' || *ps->p == '\r' ||
         (ps->p[0] == '/' && ps->p[1] == '/');
}

/* Reads an identifier [A-Za-z_][A-Za-z0-9_]* into buf; returns its length. */
static int word(parser *ps, char *buf, size_t n) {
  skip_space(ps);
  size_t len = 0;
  if (!isalpha((unsigned char)*ps->p) && *ps->p != '_') return 0;
  while (isalnum((unsigned char)ps->p[len]) || ps->p[len] == '_') len++;
  if (len >= n) return 0;
  memcpy(buf, ps->p, len);
  buf[len] = 0;
  ps->p += len;
  return (int)len;
}

/* Reads an integer (decimal or 0x hex, optional '-') in [lo, hi]. */
static int number(parser *ps, long long lo, long long hi, long long *v) {
  skip_space(ps);
  const char *s = ps->p;
  int neg = (*s == '-');
  if (neg) s++;
  if (!isdigit((unsigned char)*s)) return perr(ps, "expected a number");
  char *end;
  errno = 0;
  unsigned long long u = strtoull(s, &end, 0);
  if (errno || isalnum((unsigned char)*end) || u > (1ull << 40))
    return perr(ps, "malformed or too large number");
  long long x = neg ? -(long long)u : (long long)u;
  if (x < lo || x > hi)
    return perr(ps, "number %lld out of range %lld..%lld", x, lo, hi);
  *v = x;
  ps->p = end;
  return ISA_OK;
}

/* Splits a name like "rd12" into class and index; returns 1 on success. */
static int reg_name(const char *w, isa_cls *cls, int *idx) {
  static const struct { const char *pre; isa_cls cls; } t[] = {
      {"rd", ISA_CLS_RD}, {"fd", ISA_CLS_FD},
      {"id", ISA_CLS_ID}, {"od", ISA_CLS_OD}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    size_t n = strlen(t[i].pre);
    if (strncmp(w, t[i].pre, n) || !isdigit((unsigned char)w[n])) continue;
    char *end;
    long v = strtol(w + n, &end, 10);
    if (*end || v >= ISA_MAX_REGS || (w[n] == '0' && w[n + 1])) return 0;
    *cls = t[i].cls;
    *idx = (int)v;
    return 1;
  }
  return 0;
}

/* Parses one destination (rdN, fdN or odN) into `in`. */
static int parse_dest(parser *ps, isa_insn *in) {
  const char *start = (skip_space(ps), ps->p);
  char w[16];
  isa_cls cls;
  int idx;
  if (!word(ps, w, sizeof w) || !reg_name(w, &cls, &idx)) {
    ps->p = start;
    return perr(ps, "expected a destination register (rdN, fdN, odN)");
  }
  if (cls == ISA_CLS_OD) {
    if (idx >= ISA_MAX_OD || ((in->odmask >> idx) & 1)) {
      ps->p = start;
      return perr(ps, "output register %s invalid or repeated", w);
    }
    in->odmask |= 1u << idx;
  } else if (cls == ISA_CLS_ID || in->dst.cls != ISA_CLS_NONE) {
    ps->p = start;
    return perr(ps, "%s cannot be a destination here (one rd or fd, any od)",
                w);
  } else {
    in->dst.cls = (uint8_t)cls;
    in->dst.idx = (uint8_t)idx;
  }
  return ISA_OK;
}

/* Parses the destination list: `_`, one register, or `{r, r, ...}`. */
static int parse_dests(parser *ps, isa_insn *in) {
  int rc;
  if (accept(ps, '_')) return ISA_OK;
  if (!accept(ps, '{')) return parse_dest(ps, in);
  do {
    if ((rc = parse_dest(ps, in))) return rc;
  } while (accept(ps, ','));
  return accept(ps, '}') ? ISA_OK : perr(ps, "expected '}' or ','");
}

/* Parses source i: rdN, fdN, idN or #imm. */
static int parse_src(parser *ps, isa_insn *in, int i, int *has_imm) {
  skip_space(ps);
  const char *at = ps->p;
  if (accept(ps, '#')) {
    long long v;
    int rc = number(ps, INT32_MIN, UINT32_MAX, &v);
    if (rc) return rc;
    int32_t imm = isa_text_s32((uint32_t)v);
    if (*has_imm && imm != in->imm) {
      ps->p = at;
      return perr(ps, "a second, different immediate (one 32-bit immediate "
                      "per instruction)");
    }
    in->imm = imm;
    *has_imm = 1;
    in->src[i].cls = ISA_CLS_IMM;
    return ISA_OK;
  }
  const char *start = ps->p;
  char w[16];
  isa_cls cls;
  int idx;
  if (!word(ps, w, sizeof w) || !reg_name(w, &cls, &idx) || cls == ISA_CLS_OD) {
    ps->p = start;
    return perr(ps, "expected a source (rdN, fdN, idN or #imm)");
  }
  in->src[i].cls = (uint8_t)cls;
  in->src[i].idx = (uint8_t)idx;
  return ISA_OK;
}

/* Parses a label `L<pc>` into *pc. */
static int parse_label(parser *ps, uint16_t *pc) {
  skip_space(ps);
  const char *start = ps->p;
  if (*ps->p != 'L') return perr(ps, "expected a label L<pc>");
  ps->p++;
  if (!isdigit((unsigned char)*ps->p)) return perr(ps, "expected a label L<pc>");
  long long v;
  int rc = number(ps, 0, ISA_MAX_IMEM - 1, &v);
  if (rc) {
    ps->col = (int)(start - ps->text) + 1; /* point at the label */
    return rc;
  }
  *pc = (uint16_t)v;
  return ISA_OK;
}

/* Parses a condition source `c<i>` or `f<k>` into *sel. */
static int parse_cond(parser *ps, uint8_t *sel) {
  skip_space(ps);
  char kind = *ps->p;
  if ((kind != 'c' && kind != 'f') || !isdigit((unsigned char)ps->p[1]))
    return perr(ps, "expected a condition (c<signal> or f<fu>)");
  ps->p++;
  long long v;
  int rc = number(ps, 0, ISA_MAX_SIGNALS - 1, &v);
  if (rc) return rc;
  *sel = (uint8_t)(kind == 'c' ? v : v + ISA_COND_FLAG);
  return ISA_OK;
}

/* Parses `br s_{n-1}, ..., s0 ? L : ... : L` (after `br`). */
static int parse_cond_branch(parser *ps, isa_insn *in) {
  uint8_t sel[ISA_SEL_COUNT + 1];
  int n = 0, rc;
  do {
    if (n == ISA_SEL_COUNT)
      return perr(ps, "more than %d conditions", ISA_SEL_COUNT);
    if ((rc = parse_cond(ps, &sel[n++]))) return rc;
  } while (accept(ps, ','));
  if (!accept(ps, '?')) return perr(ps, "expected '?'");
  in->br = ISA_BR_COND;
  in->nsel = n;
  for (int i = 0; i < n; i++) in->sel[i] = sel[n - 1 - i];
  for (int t = (1 << n) - 1; t >= 0; t--) {
    if ((rc = parse_label(ps, &in->target[t]))) return rc;
    if (t && !accept(ps, ':'))
      return perr(ps, "expected ':' (a branch on %d conditions has %d "
                      "targets)", n, 1 << n);
  }
  return ISA_OK;
}

/* Parses the branch part after ';'. */
static int parse_branch(parser *ps, isa_insn *in) {
  const char *start = (skip_space(ps), ps->p);
  char w[8];
  if (!word(ps, w, sizeof w))
    return perr(ps, "expected next, goto, br or halt");
  if (strcmp(w, "next") == 0) in->br = ISA_BR_NEXT;
  else if (strcmp(w, "halt") == 0) in->br = ISA_BR_HALT;
  else if (strcmp(w, "goto") == 0) {
    in->br = ISA_BR_GOTO;
    return parse_label(ps, &in->target[0]);
  } else if (strcmp(w, "br") == 0) return parse_cond_branch(ps, in);
  else {
    ps->p = start;
    return perr(ps, "unknown branch '%s' (next, goto, br, halt)", w);
  }
  return ISA_OK;
}

/* Parses the optional cycle count N of `nop N` (decimal, 1 .. 2^32) into
 * the repeat count IMM = N - 1 (docs/isa.md "Multi-cycle nop"). */
static int parse_nop_cycles(parser *ps, isa_insn *in) {
  skip_space(ps);
  if (at_end(ps) || *ps->p == ';') return ISA_OK;
  const char *s = ps->p;
  if (!isdigit((unsigned char)*s))
    return perr(ps, "expected the cycle count N of `nop N` (decimal), ';' or "
                    "the end");
  size_t len = 0;
  while (isdigit((unsigned char)s[len])) len++;
  unsigned long long n = 0;
  for (size_t i = 0; i < len && n <= (1ull << 32); i++)
    n = n * 10 + (unsigned long long)(s[i] - '0');
  if (isalnum((unsigned char)s[len]) || s[len] == '_' || n < 1 ||
      n > (1ull << 32))
    return perr(ps, "nop cycle count must be a decimal number 1..4294967296");
  in->imm = isa_text_s32((uint32_t)(n - 1));
  ps->p = s + len;
  return ISA_OK;
}

/* Parses mnemonic and operands. */
static int parse_functional(parser *ps, isa_insn *in) {
  const char *start = (skip_space(ps), ps->p);
  char w[16];
  int rc, has_imm = 0;
  if (!word(ps, w, sizeof w)) return perr(ps, "expected a mnemonic");
  int op = isa_op_lookup(w);
  if (op < 0) {
    ps->p = start;
    return perr(ps, "unknown mnemonic '%s'", w);
  }
  in->op = (isa_op)op;
  if (op == ISA_OP_NOP) return parse_nop_cycles(ps, in);
  if ((rc = parse_dests(ps, in))) return rc;
  for (int i = 0; i < isa_op_get((isa_op)op)->nsrc; i++) {
    if (!accept(ps, ','))
      return perr(ps, "%s takes %d sources", w, isa_op_get((isa_op)op)->nsrc);
    if ((rc = parse_src(ps, in, i, &has_imm))) return rc;
  }
  return ISA_OK;
}

/* Returns ISA_OK after reading one line of assembly text into out (isa.h). */
int isa_insn_parse(const char *text, isa_insn *out, int *col, char *msg,
                   size_t msgsz) {
  parser ps = {text, text, msg, msgsz, 1};
  memset(out, 0, sizeof *out);
  int rc = parse_functional(&ps, out);
  if (!rc && accept(&ps, ';')) rc = parse_branch(&ps, out);
  if (!rc && !at_end(&ps)) rc = perr(&ps, "unexpected text");
  isa_word w; /* the encoder checks the structural rules */
  if (!rc && (rc = isa_encode(out, &w)) && msg && msgsz)
    snprintf(msg, msgsz, "malformed instruction (error %d)", rc);
  if (col) *col = ps.col;
  return rc;
}
