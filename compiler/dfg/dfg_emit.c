/*
 * dfg_emit.c: one sub-DFG as a loop program (docs/dfg.md "The mapping").
 *
 * The program runs over the stream's element index e, 0 <= e < N (N its
 * one parameter). Every DFG value becomes something an expression can
 * name: an input port's element a read of its input array (`A[e]`, lanes
 * as a second dimension `A[e,k]`, a stated port's state in column 0), an
 * operation's result an internal variable `v_X[e]` defined by one
 * equation, `$RegN` a scalar input `RegN` (a run-time value), an integer
 * an immediate. An output port's elements are written to its output array
 * (`O[e]`, `O[e,k]`). A port on a `rec` array of S elements with L lanes
 * is a loop-carried dependence of distance D = S / L: its element k at e
 * is the rec array's initial contents (input `R_init`) for e < D, the
 * value the Output on the same array wrote at e - D after; the last D
 * steps' values are the array's final contents (output `R_final`), and
 * the program requires N >= D. `Acc` accumulates along e, its reset
 * (a second operand, or `ctrl=` entries with the flag r) a select.
 *
 * Names are resolved in file order (a value is used after its line) and
 * every refusal names the operation or flag and its place.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dfg.h"

/* How a value is written in an expression. */
enum { EMIT_LIT, EMIT_ARR1, EMIT_ARR2 };

typedef struct {
  char dfg[DFG_NAME];  /* its name in the DFG ("$Reg0" for a register) */
  char base[80];       /* the program's array, variable, register or literal */
  int form, lane;
  int line, col;
} emit_val;

/* A port reading a rec array. */
typedef struct {
  int port;                 /* index in the sub-DFG */
  const dfg_array *arr;
  int lanes;
  int64_t dist;
  char init[DFG_NAME + 8], fin[DFG_NAME + 8];
  int written;
} emit_rec;

typedef struct {
  const dfg_file *f;
  const dfg_sub *s;
  emit_val *val;
  int nval;
  char (*name)[DFG_NAME + 8];
  int nname;
  emit_rec rec[8];
  int nrec;
  FILE *ins, *outs, *eqs, *hdr;
  int nin, nout;
  dfg_error *err;
} emit_ctx;

/* Returns -1 after storing an error at (line, col). */
static int emit_fail(emit_ctx *x, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  x->err->line = line;
  x->err->col = col;
  vsnprintf(x->err->msg, sizeof x->err->msg, fmt, ap);
  va_end(ap);
  return -1;
}

/* Returns 1 when the program already uses identifier n. */
static int emit_name_used(const emit_ctx *x, const char *n) {
  for (int i = 0; i < x->nname; i++)
    if (!strcmp(x->name[i], n)) return 1;
  return 0;
}

/* Returns 0 after recording n as a program identifier. */
static int emit_name_add(emit_ctx *x, const char *n) {
  void *p = realloc(x->name, (size_t)(x->nname + 1) * sizeof *x->name);
  if (!p) return -1;
  x->name = p;
  snprintf(x->name[x->nname++], sizeof *x->name, "%s", n);
  return 0;
}

/* Returns 0 after choosing a fresh program identifier for `want` into out
 * (size DFG_NAME + 8): want itself, else p_WANT, p_WANT_2, ... */
static int emit_name_take(emit_ctx *x, const char *want, char *out) {
  char buf[DFG_NAME + 8];
  snprintf(buf, sizeof buf, "%s", want);
  for (int k = 1; emit_name_used(x, buf); k++)
    snprintf(buf, sizeof buf, k == 1 ? "p_%.60s" : "p_%.56s_%d", want, k);
  snprintf(out, DFG_NAME + 8, "%s", buf);
  return emit_name_add(x, buf);
}

/* Returns the value named n, or NULL. */
static emit_val *emit_val_find(emit_ctx *x, const char *n) {
  for (int i = 0; i < x->nval; i++)
    if (!strcmp(x->val[i].dfg, n)) return &x->val[i];
  return NULL;
}

/* Returns 0 after defining value n (at line, col) as (base, form, lane);
 * -1 when n is defined already. */
static int emit_val_add(emit_ctx *x, const char *n, const char *base, int form, int lane, int line, int col) {
  emit_val *old = emit_val_find(x, n);
  if (old) return emit_fail(x, line, col, "'%s' is defined again (first at line %d)", n, old->line);
  char b[sizeof old->base]; /* base may point into x->val, which realloc moves */
  snprintf(b, sizeof b, "%s", base);
  base = b;
  void *p = realloc(x->val, (size_t)(x->nval + 1) * sizeof *x->val);
  if (!p) return emit_fail(x, line, col, "out of memory");
  x->val = p;
  emit_val *v = &x->val[x->nval++];
  snprintf(v->dfg, sizeof v->dfg, "%s", n);
  snprintf(v->base, sizeof v->base, "%s", base);
  v->form = form;
  v->lane = lane;
  v->line = line;
  v->col = col;
  return 0;
}

/* Prints v as read at e - off into buf (size 128); returns buf. */
static char *emit_val_str(const emit_val *v, int64_t off, char *buf) {
  char e[32];
  if (off) snprintf(e, sizeof e, "e-%lld", (long long)off);
  else snprintf(e, sizeof e, "e");
  if (v->form == EMIT_LIT) snprintf(buf, 128, "%s", v->base);
  else if (v->form == EMIT_ARR1) snprintf(buf, 128, "%s[%s]", v->base, e);
  else snprintf(buf, 128, "%s[%s,%d]", v->base, e, v->lane);
  return buf;
}

/* Returns the value of operand a (a register is declared as a scalar
 * input at its first use); NULL after the error. */
static emit_val *emit_arg(emit_ctx *x, const dfg_arg *a) {
  char key[DFG_NAME + 2], lit[40];
  if (a->kind == DFG_ARG_CONST) {
    if (a->imm < INT32_MIN || a->imm > UINT32_MAX) {
      emit_fail(x, a->line, a->col, "constant %lld does not fit in 32 bits (the array's datapath)", (long long)a->imm);
      return NULL;
    }
    snprintf(lit, sizeof lit, a->imm < 0 ? "(%lld)" : "%lld", (long long)a->imm);
    snprintf(key, sizeof key, "#%s", lit);
    emit_val *v = emit_val_find(x, key);
    if (!v && emit_val_add(x, key, lit, EMIT_LIT, 0, a->line, a->col)) return NULL;
    return v ? v : &x->val[x->nval - 1];
  }
  if (a->kind == DFG_ARG_REG) {
    snprintf(key, sizeof key, "$%s", a->name);
    emit_val *v = emit_val_find(x, key);
    if (v) return v;
    char n[DFG_NAME + 8];
    if (emit_name_take(x, a->name, n) || emit_val_add(x, key, n, EMIT_LIT, 0, a->line, a->col)) return NULL;
    fprintf(x->ins, "%s%s", x->nin++ ? ", " : "", n);
    fprintf(x->hdr, "//   $%s => the scalar input %s (a run-time value)\n", a->name, n);
    return &x->val[x->nval - 1];
  }
  emit_val *v = emit_val_find(x, a->name);
  if (!v) emit_fail(x, a->line, a->col, "'%s' is not defined before this line (a port element or a result)", a->name);
  return v;
}

/* One operation of the ISA: normalized DFG names, operands, expression
 * ($0, $1, $2 the operands). */
typedef struct {
  const char *names;
  int nargs;
  const char *expr;
  const char *expr2; /* the second result's, for two-result operations */
} emit_optab;

static const emit_optab emit_ops[] = {
    {" add ", 2, "$0 + $1", NULL},
    {" sub ", 2, "$0 - $1", NULL},
    {" mul ", 2, "$0 * $1", NULL},
    {" div sdiv ", 2, "$0 / $1", NULL},
    {" mod rem srem ", 2, "$0 % $1", NULL},
    {" and ", 2, "$0 & $1", NULL},
    {" or ", 2, "$0 | $1", NULL},
    {" xor ", 2, "$0 ^ $1", NULL},
    {" not ", 1, "~$0", NULL},
    {" neg ", 1, "-$0", NULL},
    {" lnot ", 1, "!$0", NULL},
    {" lshf shl sll ", 2, "$0 << $1", NULL},
    {" rshf lshr srl shru ", 2, "$0 >>> $1", NULL},
    {" ashr sra arshf shr ", 2, "$0 >> $1", NULL},
    {" min smin ", 2, "min($0, $1)", NULL},
    {" max smax ", 2, "max($0, $1)", NULL},
    {" abs ", 1, "abs($0)", NULL},
    {" relu ", 1, "max($0, 0)", NULL},
    {" eq icmpeq cmpeq ", 2, "$0 == $1", NULL},
    {" ne icmpne cmpne ", 2, "$0 != $1", NULL},
    {" lt icmpslt icmplt ", 2, "$0 < $1", NULL},
    {" le icmpsle icmple ", 2, "$0 <= $1", NULL},
    {" gt icmpsgt icmpgt icmpg ", 2, "$0 > $1", NULL},
    {" ge icmpsge icmpge ", 2, "$0 >= $1", NULL},
    {" select sel ", 3, "($2 & 1) ? $1 : $0", NULL},
    {" copy mov pass ", 1, "$0", NULL},
    {" divrem sdivrem ", 2, "$0 / $1", "$0 % $1"},
    {" acc ", 0, NULL, NULL}, /* two forms: dfg_emit_acc */
};

/* Returns the table entry of operation `op` (case and `_` ignored, a
 * trailing I64, I32, 64 or 32 dropped), or NULL. */
static const emit_optab *emit_op_find(const char *op) {
  char n[DFG_NAME + 2];
  int k = 1;
  n[0] = ' ';
  for (const char *p = op; *p && k < DFG_NAME; p++)
    if (*p != '_') n[k++] = (char)tolower((unsigned char)*p);
  n[k] = 0;
  static const char *suffix[] = {"i64", "i32", "64", "32", ""};
  for (int s = 0; s < 5; s++) {
    size_t l = strlen(suffix[s]), len = strlen(n);
    if (len <= l + 1 || strcmp(n + len - l, suffix[s])) continue;
    char m[DFG_NAME + 4];
    snprintf(m, sizeof m, "%.*s ", (int)(len - l), n);
    for (size_t i = 0; i < sizeof emit_ops / sizeof emit_ops[0]; i++)
      if (strstr(emit_ops[i].names, m)) return &emit_ops[i];
  }
  return NULL;
}

/* Writes template t with $K replaced by the operand texts a[K]. */
static void emit_expand(FILE *out, const char *t, char a[][128]) {
  for (; *t; t++)
    if (*t == '$' && t[1] >= '0' && t[1] <= '2') fputs(a[*++t - '0'], out);
    else fputc(*t, out);
}

/* Returns the name of the first flag in `flags` (for messages). */
static const char *emit_flag_name(unsigned flags) {
  return flags & DFG_CTRL_D ? "d (discard)" : flags & DFG_CTRL_B1 ? "b1 (backpressure)"
         : flags & DFG_CTRL_B2 ? "b2 (backpressure)" : flags & DFG_CTRL_A ? "a (abstain)" : "r (reset)";
}

/* Returns 0 after writing the reset condition of an Acc op into cond
 * (size 512; "" when it never resets); -1 after a refusal. */
static int emit_acc_reset(emit_ctx *x, const dfg_op *op, char *cond) {
  char a[128];
  cond[0] = 0;
  if (op->nargs == 2) {
    emit_val *r = emit_arg(x, &op->arg[1]);
    if (!r) return -1;
    snprintf(cond, 512, "(%s != 0)", emit_val_str(r, 0, a));
  }
  if (!op->has_ctrl) return 0;
  emit_val *src = emit_arg(x, &op->ctrl);
  if (!src) return -1;
  char key[200];
  emit_val_str(src, 0, a);
  if (op->ctrl_mask >= 0) snprintf(key, sizeof key, "(%s & %lld)", a, (long long)op->ctrl_mask);
  else snprintf(key, sizeof key, "%s", a);
  for (int i = 0; i < op->nent; i++) {
    if (op->ent[i].flags & ~(unsigned)DFG_CTRL_R)
      return emit_fail(x, op->ent[i].line, op->ent[i].col,
                       "%s: control flag %s is not expressible (the stream's length or timing would depend on the "
                       "data; docs/dfg.md \"Refused\")", op->op, emit_flag_name(op->ent[i].flags & ~(unsigned)DFG_CTRL_R));
    size_t n = strlen(cond);
    snprintf(cond + n, 512 - n, "%s(%s == %lld)", n ? " | " : "", key, (long long)op->ent[i].key);
  }
  return 0;
}

/* Returns 0 after writing the equations of `X = Acc(x [, reset])`: the
 * running sum along e, restarted after an element whose reset holds. */
static int emit_acc(emit_ctx *x, const dfg_op *op, const char *var) {
  if (op->nargs < 1 || op->nargs > 2)
    return emit_fail(x, op->line, op->op_col, "%s takes 1 or 2 operands (value, reset), got %d", op->op, op->nargs);
  char a[128], cond[512], carry[DFG_NAME + 8], want[DFG_NAME + 8];
  emit_val *in = emit_arg(x, &op->arg[0]);
  if (!in) return -1;
  emit_val_str(in, 0, a); /* before the reset's operands grow the table */
  if (emit_acc_reset(x, op, cond)) return -1;
  fprintf(x->eqs, "    %s[e] = %s if (e == 0);\n", var, a);
  if (!cond[0]) {
    fprintf(x->eqs, "    %s[e] = %s[e-1] + %s if (e >= 1);\n", var, var, a);
    return 0;
  }
  snprintf(want, sizeof want, "k_%s", op->res);
  if (emit_name_take(x, want, carry)) return emit_fail(x, op->line, op->col, "out of memory");
  fprintf(x->eqs, "    %s[e] = %s[e-1] + %s if (e >= 1);\n", var, carry, a);
  fprintf(x->eqs, "    %s[e] = %s ? 0 : %s[e];\n", carry, cond, var);
  return 0;
}

/* Returns 0 after mapping one operation line of the sub-DFG. */
static int emit_op(emit_ctx *x, const dfg_op *op) {
  char var[DFG_NAME + 8], want[DFG_NAME + 8];
  if (emit_val_find(x, op->res))
    return emit_fail(x, op->line, op->col, "'%s' is defined again (first at line %d)", op->res,
                     emit_val_find(x, op->res)->line);
  if (op->res2[0] && (emit_val_find(x, op->res2) || !strcmp(op->res, op->res2)))
    return emit_fail(x, op->line, op->col2, "'%s' is defined again (first at line %d)", op->res2,
                     emit_val_find(x, op->res2) ? emit_val_find(x, op->res2)->line : op->line);
  if (!op->op[0]) { /* X = Y, X = 5, X = $Reg0: another name of a value */
    emit_val *v = emit_arg(x, &op->arg[0]);
    return v ? emit_val_add(x, op->res, v->base, v->form, v->lane, op->line, op->col) : -1;
  }
  const emit_optab *t = emit_op_find(op->op);
  if (!t)
    return emit_fail(x, op->line, op->op_col,
                     "operation '%s' has no equivalent in the ISA (docs/dfg.md \"Operations\" lists those mapped)",
                     op->op);
  snprintf(want, sizeof want, "v_%s", op->res);
  if (emit_name_take(x, want, var)) return emit_fail(x, op->line, op->col, "out of memory");
  if (!t->expr) {
    if (emit_acc(x, op, var)) return -1;
    return emit_val_add(x, op->res, var, EMIT_ARR1, 0, op->line, op->col);
  }
  if (op->has_ctrl) {
    unsigned all = 0;
    int i = 0;
    for (; i < op->nent && !(op->ent[i].flags & ~(unsigned)DFG_CTRL_R); i++) all |= op->ent[i].flags;
    int line = i < op->nent ? op->ent[i].line : op->line, col = i < op->nent ? op->ent[i].col : op->ctrl_col;
    return emit_fail(x, line, col,
                     i < op->nent ? "%s: control flag %s is not expressible (the stream's length or timing would "
                                    "depend on the data; docs/dfg.md \"Refused\")"
                                  : "%s: ctrl= is expressible on Acc only (a reset of its running sum)",
                     op->op, emit_flag_name(i < op->nent ? op->ent[i].flags & ~(unsigned)DFG_CTRL_R : all));
  }
  if (!t->expr2 != !op->res2[0])
    return emit_fail(x, op->line, op->res2[0] ? op->col2 : op->col,
                     t->expr2 ? "%s has two results (Q, R = %s(A, B))" : "%s has one result, two are given", op->op,
                     op->op);
  if (op->nargs != t->nargs)
    return emit_fail(x, op->line, op->op_col, "%s takes %d operand%s, got %d", op->op, t->nargs,
                     t->nargs == 1 ? "" : "s", op->nargs);
  char a[3][128];
  for (int i = 0; i < op->nargs; i++) {
    emit_val *v = emit_arg(x, &op->arg[i]);
    if (!v) return -1;
    emit_val_str(v, 0, a[i]);
  }
  fprintf(x->eqs, "    %s[e] = ", var);
  emit_expand(x->eqs, t->expr, a);
  fprintf(x->eqs, ";\n");
  if (emit_val_add(x, op->res, var, EMIT_ARR1, 0, op->line, op->col)) return -1;
  if (!t->expr2) return 0;
  snprintf(want, sizeof want, "v_%s", op->res2);
  if (emit_name_take(x, want, var)) return emit_fail(x, op->line, op->col2, "out of memory");
  fprintf(x->eqs, "    %s[e] = ", var);
  emit_expand(x->eqs, t->expr2, a);
  fprintf(x->eqs, ";\n");
  return emit_val_add(x, op->res2, var, EMIT_ARR1, 0, op->line, op->col2);
}

/* Returns the kind of array a as a word. */
static const char *emit_kind(const dfg_array *a) {
  static const char *k[] = {"dma", "spm", "rec", "gen", "reg"};
  return k[a->kind];
}

/* Returns 0 after declaring input port p: its array and element values,
 * or its rec entry. */
static int emit_input(emit_ctx *x, int pi) {
  const dfg_port *p = &x->s->port[pi];
  const dfg_array *arr = p->array[0] ? dfg_array_find(x->f, p->array) : NULL;
  int lanes = p->lanes ? p->lanes : 1;
  char n[DFG_NAME + 8], el[DFG_NAME + 16], want[DFG_NAME + 24];
  if (arr && arr->kind == DFG_ARR_REC) {
    if (p->stated) return emit_fail(x, p->line, p->col, "a stated port on a rec array is not supported");
    for (int i = 0; i < x->nrec; i++)
      if (x->rec[i].arr == arr)
        return emit_fail(x, p->line, p->col, "rec array %s is read by a second port (first %s)", arr->name,
                         x->s->port[x->rec[i].port].name);
    if (arr->size % lanes)
      return emit_fail(x, p->line, p->col, "rec array %s: %lld elements is not a multiple of the port's %d lanes",
                       arr->name, (long long)arr->size, lanes);
    if (x->nrec == 8) return emit_fail(x, p->line, p->col, "more than 8 rec arrays in one sub-DFG");
    emit_rec *r = &x->rec[x->nrec++];
    *r = (emit_rec){.port = pi, .arr = arr, .lanes = lanes, .dist = arr->size / lanes};
    snprintf(want, sizeof want, "%s_init", arr->name);
    if (emit_name_take(x, want, r->init)) return -1;
    snprintf(want, sizeof want, "%s_final", arr->name);
    if (emit_name_take(x, want, r->fin)) return -1;
    fprintf(x->ins, "%s%s[%lld]", x->nin++ ? ", " : "", r->init, (long long)arr->size);
    fprintf(x->outs, "%s%s[%lld]", x->nout++ ? ", " : "", r->fin, (long long)arr->size);
    fprintf(x->hdr, "//   Input%d %s", p->width, p->name);
    if (p->lanes) fprintf(x->hdr, "[%d]", p->lanes);
    fprintf(x->hdr, " <- rec array %s (%lld elements) => a recurrence of distance %lld,\n"
                    "//     initial values %s, final values %s\n",
            arr->name, (long long)arr->size, (long long)r->dist, r->init, r->fin);
    for (int k = 0; k < lanes; k++) {
      if (p->lanes) snprintf(el, sizeof el, "%s_%d", p->name, k);
      else snprintf(el, sizeof el, "%s", p->name);
      snprintf(want, sizeof want, "v_%s", el);
      if (emit_name_take(x, want, n) || emit_val_add(x, el, n, EMIT_ARR1, 0, p->line, p->col)) return -1;
      if (p->lanes) {
        snprintf(el, sizeof el, "%s%d", p->name, k);
        if (emit_val_add(x, el, n, EMIT_ARR1, 0, p->line, p->col)) return -1;
      }
    }
    return 0;
  }
  if (emit_name_take(x, p->name, n)) return -1;
  int cols = lanes + p->stated;
  if (!p->lanes && !p->stated) fprintf(x->ins, "%s%s[N]", x->nin++ ? ", " : "", n);
  else fprintf(x->ins, "%s%s[N, %d]", x->nin++ ? ", " : "", n, cols);
  fprintf(x->hdr, "//   Input%d %s", p->width, p->name);
  if (p->lanes) fprintf(x->hdr, "[%d]", p->lanes);
  if (arr) fprintf(x->hdr, " <- array %s (%s, %lld elements)", arr->name, emit_kind(arr), (long long)arr->size);
  else if (p->array[0]) fprintf(x->hdr, " <- array %s (not declared)", p->array);
  fprintf(x->hdr, " => in %s%s%s\n", n, !p->lanes && !p->stated ? "[N]" : "[N, lane]",
          p->stated ? " (column 0: the state)" : "");
  if (p->stated) {
    snprintf(el, sizeof el, "%s_State", p->name);
    if (emit_val_add(x, el, n, EMIT_ARR2, 0, p->line, p->col)) return -1;
  }
  if (!p->lanes) return emit_val_add(x, p->name, n, p->stated ? EMIT_ARR2 : EMIT_ARR1, p->stated, p->line, p->col);
  for (int k = 0; k < lanes; k++) {
    snprintf(el, sizeof el, "%s_%d", p->name, k);
    if (emit_val_add(x, el, n, EMIT_ARR2, k + p->stated, p->line, p->col)) return -1;
    snprintf(el, sizeof el, "%s%d", p->name, k);
    if (emit_val_add(x, el, n, EMIT_ARR2, k + p->stated, p->line, p->col)) return -1;
  }
  return 0;
}

/* Returns the value an output port writes in lane k (names O, O_k, Ok),
 * or NULL. */
static emit_val *emit_out_lane(emit_ctx *x, const dfg_port *p, int k, int scalar) {
  char el[DFG_NAME + 16];
  if (scalar) return emit_val_find(x, p->name);
  snprintf(el, sizeof el, "%s_%d", p->name, k);
  emit_val *v = emit_val_find(x, el);
  if (v) return v;
  snprintf(el, sizeof el, "%s%d", p->name, k);
  return emit_val_find(x, el);
}

/* Returns 0 after writing output port p (its array, or its rec array's
 * recurrence and final values). */
static int emit_output(emit_ctx *x, const dfg_port *p) {
  const dfg_array *arr = p->array[0] ? dfg_array_find(x->f, p->array) : NULL;
  if (p->stated) return emit_fail(x, p->line, p->col, "a stated Output port is not supported (docs/dfg.md \"Refused\")");
  /* the lanes: declared, or those of the values O_0, O_1, ... */
  int scalar = !p->lanes && emit_val_find(x, p->name), lanes = p->lanes;
  if (!lanes && !scalar)
    while (lanes < 64 && emit_out_lane(x, p, lanes, 0)) lanes++;
  if (!lanes && !scalar)
    return emit_fail(x, p->line, p->col, "Output %s: no value %s (or %s_0, %s_1, ...) is defined", p->name, p->name,
                     p->name, p->name);
  int nl = scalar ? 1 : lanes;
  char a[128], n[DFG_NAME + 8];
  for (int k = 0; k < nl; k++)
    if (!emit_out_lane(x, p, k, scalar))
      return emit_fail(x, p->line, p->col, "Output %s[%d]: no value %s_%d is defined", p->name, lanes, p->name, k);
  if (arr && arr->kind == DFG_ARR_REC) {
    emit_rec *r = NULL;
    for (int i = 0; i < x->nrec; i++)
      if (x->rec[i].arr == arr) r = &x->rec[i];
    if (!r) return emit_fail(x, p->line, p->col, "rec array %s is written by %s but read by no Input of this sub-DFG",
                             arr->name, p->name);
    if (r->written) return emit_fail(x, p->line, p->col, "rec array %s is written by a second Output", arr->name);
    if (nl != r->lanes)
      return emit_fail(x, p->line, p->col, "Output %s has %d lanes, the Input %s reading rec array %s has %d", p->name,
                       nl, x->s->port[r->port].name, arr->name, r->lanes);
    r->written = 1;
    const dfg_port *in = &x->s->port[r->port];
    fprintf(x->hdr, "//   Output%d %s -> rec array %s (read back by %s)\n", p->width, p->name, arr->name, in->name);
    for (int k = 0; k < nl; k++) {
      emit_val *src = emit_out_lane(x, p, k, scalar);
      char el[DFG_NAME + 16];
      if (in->lanes) snprintf(el, sizeof el, "%s_%d", in->name, k);
      else snprintf(el, sizeof el, "%s", in->name);
      const char *var = emit_val_find(x, el)->base;
      fprintf(x->eqs, "    %s[e] = %s[%d*e + %d] if (e < %lld);\n", var, r->init, nl, k, (long long)r->dist);
      fprintf(x->eqs, "    %s[e] = %s if (e >= %lld);\n", var, emit_val_str(src, r->dist, a), (long long)r->dist);
      fprintf(x->eqs, "    %s[%d*e - %d*N + %lld] = %s if (e >= N - %lld);\n", r->fin, nl, nl,
              (long long)(nl * r->dist + k), emit_val_str(src, 0, a), (long long)r->dist);
    }
    return 0;
  }
  if (emit_name_take(x, p->name, n)) return -1;
  fprintf(x->outs, "%s%s[N%s]", x->nout++ ? ", " : "", n, scalar ? "" : (snprintf(a, sizeof a, ", %d", nl), a));
  fprintf(x->hdr, "//   Output%d %s", p->width, p->name);
  if (!scalar) fprintf(x->hdr, "[%d]", nl);
  if (arr) fprintf(x->hdr, " -> array %s (%s, %lld elements)", arr->name, emit_kind(arr), (long long)arr->size);
  else if (p->array[0]) fprintf(x->hdr, " -> array %s (not declared)", p->array);
  fprintf(x->hdr, " => out %s%s\n", n, scalar ? "[N]" : "[N, lane]");
  for (int k = 0; k < nl; k++) {
    emit_val_str(emit_out_lane(x, p, k, scalar), 0, a);
    if (scalar) fprintf(x->eqs, "    %s[e] = %s;\n", n, a);
    else fprintf(x->eqs, "    %s[e,%d] = %s;\n", n, k, a);
  }
  return 0;
}

/* Returns 0 after mapping every port and operation of x->s. */
static int emit_body(emit_ctx *x) {
  static const char *reserved[] = {"program", "in", "out", "int32", "par", "if", "and", "or", "min", "max", "abs",
                                   "N", "e"};
  for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
    if (emit_name_add(x, reserved[i])) return emit_fail(x, 0, 0, "out of memory");
  const dfg_sub *s = x->s;
  for (int i = 0; i < s->nports; i++)
    if (!s->port[i].out && emit_input(x, i)) return -1;
  for (int i = 0; i < s->nops; i++)
    if (emit_op(x, &s->op[i])) return -1;
  int outs = 0;
  for (int i = 0; i < s->nports; i++)
    if (s->port[i].out) {
      if (emit_output(x, &s->port[i])) return -1;
      outs++;
    }
  for (int i = 0; i < x->nrec; i++)
    if (!x->rec[i].written) {
      const dfg_port *p = &s->port[x->rec[i].port];
      return emit_fail(x, p->line, p->col, "rec array %s is read by %s but written by no Output of this sub-DFG",
                       x->rec[i].arr->name, p->name);
    }
  if (!outs) return emit_fail(x, s->line, 1, "this sub-DFG has no Output port (a program needs an output)");
  return 0;
}

/* Returns the malloc'ed text of memstream buffer after closing f. */
static void emit_close(FILE **f) {
  if (*f) fclose(*f);
  *f = NULL;
}

int dfg_sub_emit(const dfg_file *f, int k, const char *prog, const char *src, FILE *out, int64_t *rec_len,
                 dfg_error *err) {
  emit_ctx x = {.f = f, .s = &f->sub[k], .err = err};
  char *ins = NULL, *outs = NULL, *eqs = NULL, *hdr = NULL;
  size_t nins, nouts, neqs, nhdr;
  x.ins = open_memstream(&ins, &nins);
  x.outs = open_memstream(&outs, &nouts);
  x.eqs = open_memstream(&eqs, &neqs);
  x.hdr = open_memstream(&hdr, &nhdr);
  memset(err, 0, sizeof *err);
  int rc = x.ins && x.outs && x.eqs && x.hdr ? emit_body(&x) : emit_fail(&x, 0, 0, "out of memory");
  int64_t dmax = 1;
  for (int i = 0; i < x.nrec; i++)
    if (x.rec[i].dist > dmax) dmax = x.rec[i].dist;
  emit_close(&x.ins);
  emit_close(&x.outs);
  emit_close(&x.eqs);
  emit_close(&x.hdr);
  if (!rc) {
    fprintf(out, "// %s: sub-DFG %d of %s (from line %d), imported by `tcpa import-dfg`\n", prog, k, src,
            f->sub[k].line);
    fprintf(out, "// (docs/dfg.md \"The mapping\"): one iteration per stream element e, 0 <= e < N.\n");
    fprintf(out, "// #pragma group frequency %g (the weight of its workload entry)\n", f->sub[k].freq);
    fputs(hdr, out);
    fprintf(out, "program %s(N) {\n", prog);
    if (x.nin) fprintf(out, "  in  int32 %s;\n", ins);
    fprintf(out, "  out int32 %s;\n", outs);
    if (dmax > 1 || x.nrec) fprintf(out, "  par (0 <= e < N, N >= %lld) {\n", (long long)dmax);
    else fprintf(out, "  par (0 <= e < N) {\n");
    fputs(eqs, out);
    fprintf(out, "  }\n}\n");
    if (rec_len) *rec_len = dmax;
  }
  free(ins);
  free(outs);
  free(eqs);
  free(hdr);
  free(x.val);
  free(x.name);
  return rc;
}
