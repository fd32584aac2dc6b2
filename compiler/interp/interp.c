/*
 * interp.c: the reference interpreter of interp.h.
 *
 * Preparation (once per run): the parameters are folded into the constant
 * of every affine expression; each equation's condition becomes a flat list
 * of constraints over the indices, its right-hand side a flat list of
 * instructions in post-order (each instruction's operands are earlier
 * slots of a scratch array), and the equations are put in a topological
 * order of their offset-zero dependences. The bounding box of the
 * iteration space comes from isl (poly.h); internal variables are dense
 * arrays over that box plus a byte per instance saying whether it is
 * defined.
 *
 * Evaluation: an iterative odometer over the indices (no recursion that
 * grows with the problem), where the bounds of dimension d at each step
 * are the box intersected with the constraints of `par` whose innermost
 * index is d, evaluated for the outer indices: every point visited is in
 * the iteration space and no point is visited for nothing. At each point
 * the equations whose condition holds are evaluated in order; every read
 * and write is checked (undefined instance, out of extents, written twice).
 */
#include "interp.h"

#include <isl/ctx.h>
#include <isl/ilp.h>
#include <isl/set.h>
#include <isl/val.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "poly.h"

/* An affine expression of the indices, the parameters folded in. */
typedef struct {
  int64_t coef[AST_MAX_DIMS];
  int64_t k;
} interp_aff;

/* aff >= 0, or aff == 0 when is_eq. */
typedef struct {
  interp_aff aff;
  int is_eq;
  int level; /* the innermost index with a non-zero coefficient, or -1 */
} interp_con;

typedef enum { INTERP_CONST, INTERP_VAR, INTERP_IN, INTERP_OP } interp_ins_kind;

/* One node of a right-hand side; its result goes to scratch slot i. */
typedef struct {
  interp_ins_kind kind;
  ast_op op;          /* OP */
  int a[3];           /* OP: slots of the operands */
  int32_t value;      /* CONST */
  int var;            /* VAR */
  int64_t off[AST_MAX_DIMS];
  int nnz;            /* VAR: dimensions with a non-zero offset ... */
  int nz[AST_MAX_DIMS]; /* ... listed here */
  int64_t delta;      /* VAR: linear offset in the variable's box */
  int array;          /* IN: an input (or output) array */
  interp_aff idx[AST_MAX_DIMS];
  const ast_expr *src;
} interp_ins;

/* One equation, prepared. */
typedef struct {
  const ast_eq *src;
  int ncon;
  interp_con *con;  /* all conjunctions, one after the other */
  int nconj;
  int *conj_end;    /* conjunction c is con[conj_end[c-1] .. conj_end[c]-1] */
  int always;       /* the condition is "true" */
  int nins;
  interp_ins *ins;
  interp_aff idx[AST_MAX_DIMS]; /* is_out: the element written */
} interp_eq;

/* Everything one run needs. */
typedef struct {
  const ast_program *p;
  const int64_t *params;
  interp_array *arrays;
  int nd;
  int64_t blo[AST_MAX_DIMS], bhi[AST_MAX_DIMS], stride[AST_MAX_DIMS];
  size_t volume;
  int empty;          /* the iteration space has no point */
  int32_t **val;      /* per internal variable */
  uint8_t **def;
  uint8_t **written;  /* per array: outputs only */
  interp_eq *eqs;
  int *order;
  int32_t *tmp;       /* scratch slots, as many as the longest rhs */
  int nspace;
  interp_con *space;  /* constraints of `par`, sorted by level */
  int level_end[AST_MAX_DIMS + 1]; /* level d is space[level_end[d-1]..] */
  int64_t idx[AST_MAX_DIMS];
  uint64_t instances, iterations;
} interp_run;

/* ------------------------------------------------------------------ */
/* Operations                                                           */

/* Returns the two's-complement reading of u (no implementation-defined
 * conversion). */
static inline int32_t interp_wrap(uint32_t u) {
  return u <= (uint32_t)INT32_MAX ? (int32_t)u
                                  : (int32_t)(u - 0x80000000u) + INT32_MIN;
}

/* Returns op(a, b, c); see interp_op_apply. */
static inline int32_t interp_apply(ast_op op, int32_t a, int32_t b, int32_t c) {
  uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
  switch (op) {
  case AST_OP_MOV: return a;
  case AST_OP_NEG: return interp_wrap(0u - ua);
  case AST_OP_NOT: return interp_wrap(~ua);
  case AST_OP_LNOT: return a == 0;
  case AST_OP_MUL: return interp_wrap(ua * ub);
  case AST_OP_DIV:
    if (b == 0) return -1;
    if (a == INT32_MIN && b == -1) return INT32_MIN;
    return a / b; /* C99 and later truncate toward zero */
  case AST_OP_MOD:
    if (b == 0) return a;
    if (a == INT32_MIN && b == -1) return 0;
    return a % b;
  case AST_OP_ADD: return interp_wrap(ua + ub);
  case AST_OP_SUB: return interp_wrap(ua - ub);
  case AST_OP_SHL: return interp_wrap(ua << (ub & 31u));
  case AST_OP_SHR: /* arithmetic: shift the complement of negatives */
    return a < 0 ? interp_wrap(~(~ua >> (ub & 31u))) : interp_wrap(ua >> (ub & 31u));
  case AST_OP_SHRU: return interp_wrap(ua >> (ub & 31u));
  case AST_OP_LT: return a < b;
  case AST_OP_LE: return a <= b;
  case AST_OP_GT: return a > b;
  case AST_OP_GE: return a >= b;
  case AST_OP_EQ: return a == b;
  case AST_OP_NE: return a != b;
  case AST_OP_AND: return interp_wrap(ua & ub);
  case AST_OP_XOR: return interp_wrap(ua ^ ub);
  case AST_OP_OR: return interp_wrap(ua | ub);
  case AST_OP_SEL: return a != 0 ? b : c;
  case AST_OP_MIN: return a < b ? a : b;
  case AST_OP_MAX: return a > b ? a : b;
  case AST_OP_ABS: return a < 0 ? interp_wrap(0u - ua) : a;
  default: return 0;
  }
}

int32_t interp_op_apply(ast_op op, int32_t a, int32_t b, int32_t c) {
  return interp_apply(op, a, b, c);
}

/* ------------------------------------------------------------------ */
/* Arrays                                                               */

/* Returns the most memory, in bytes, a run may take for its arrays and
 * variables: half the physical memory (4 GiB when it cannot be known), so
 * that an oversized problem is refused with a message instead of being
 * killed by the system half-way. */
static uint64_t interp_memory_limit(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || size <= 0) return (uint64_t)4 << 30;
  return (uint64_t)pages * (uint64_t)size / 2;
}

/* Returns 0 when `bytes` more fit under the limit (adding them to *used);
 * -1 after printing an error at loc naming `what`. */
static int interp_memory_take(const ast_program *p, const ast_loc *loc,
                              uint64_t *used, uint64_t bytes, const char *what) {
  uint64_t limit = interp_memory_limit();
  if (bytes <= limit && *used <= limit - bytes) {
    *used += bytes;
    return 0;
  }
  diag_error(loc, p->source,
             "%s would bring the reference interpreter's memory to %.1f GiB, "
             "more than its limit of %.1f GiB (half the machine's memory)",
             what, (double)(*used + bytes) / (1 << 30), (double)limit / (1 << 30));
  return -1;
}

/* Returns a printable list of the parameter values ("N=4, M=2"). */
static const char *interp_params_text(const ast_program *p, const int64_t *params,
                                      char *buf, size_t size) {
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < p->nparams && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, "%s%s=%lld", i ? ", " : "",
                            p->param[i], (long long)params[i]);
  return buf;
}

int interp_arrays_init(const ast_program *p, const int64_t *params,
                       interp_array *arrays) {
  char pbuf[256], what[160];
  uint64_t used = 0;
  memset(arrays, 0, sizeof *arrays * (size_t)p->narrays);
  for (int a = 0; a < p->narrays; a++) {
    const ast_array *arr = &p->arrays[a];
    interp_array *ia = &arrays[a];
    ia->ndims = arr->ndims;
    uint64_t n = 1;
    for (int d = 0; d < arr->ndims; d++) {
      int64_t e = ast_aff_eval(&arr->extent[d], params, NULL);
      if (e < 0) {
        diag_error(&arr->loc, p->source,
                   "extent %d of array '%s' is %lld (negative) for %s", d + 1,
                   arr->name, (long long)e,
                   interp_params_text(p, params, pbuf, sizeof pbuf));
        goto error;
      }
      ia->extent[d] = e;
      if (e && n > ((uint64_t)1 << 40) / (uint64_t)e) {
        diag_error(&arr->loc, p->source,
                   "array '%s' has more than 2^40 elements for %s", arr->name,
                   interp_params_text(p, params, pbuf, sizeof pbuf));
        goto error;
      }
      n *= (uint64_t)e;
    }
    ia->n = (size_t)n;
    snprintf(what, sizeof what, "array '%s' (%llu elements)", arr->name,
             (unsigned long long)n);
    if (interp_memory_take(p, &arr->loc, &used, n * sizeof *ia->data, what) != 0)
      goto error;
    ia->data = calloc(ia->n ? ia->n : 1, sizeof *ia->data);
    if (!ia->data) {
      diag_error(&arr->loc, p->source,
                 "not enough memory for the %zu elements of array '%s'", ia->n,
                 arr->name);
      goto error;
    }
  }
  return 0;
error:
  interp_arrays_free(p, arrays);
  return -1;
}

int64_t interp_array_index_of(const interp_array *r, int nd, const int64_t *box, int64_t lin) {
  int64_t e[AST_MAX_DIMS];
  if (nd != r->ndims || nd > AST_MAX_DIMS) return -1;
  for (int d = nd - 1; d >= 0; d--) {
    int64_t ext = box[d] > 0 ? box[d] : 1;
    e[d] = lin % ext;
    lin /= ext;
  }
  if (lin != 0) return -1;
  int64_t out = 0;
  for (int d = 0; d < nd; d++) {
    if (e[d] < 0 || e[d] >= r->extent[d]) return -1;
    out = out * r->extent[d] + e[d];
  }
  return out;
}

void interp_arrays_free(const ast_program *p, interp_array *arrays) {
  for (int a = 0; a < p->narrays; a++) {
    free(arrays[a].data);
    arrays[a].data = NULL;
  }
}

/* ------------------------------------------------------------------ */
/* Preparation                                                          */

/* Returns `a` with the parameters folded into its constant. */
static interp_aff interp_aff_fold(const ast_aff *a, const int64_t *params) {
  interp_aff r;
  r.k = a->konst;
  for (int i = 0; i < AST_MAX_PARAMS; i++)
    if (a->param[i]) r.k += a->param[i] * params[i];
  for (int d = 0; d < AST_MAX_DIMS; d++) r.coef[d] = a->index[d];
  return r;
}

/* Returns the value of `a` at the point `idx` of `nd` dimensions. */
static inline int64_t interp_aff_at(const interp_aff *a, const int64_t *idx, int nd) {
  int64_t v = a->k;
  for (int d = 0; d < nd; d++) v += a->coef[d] * idx[d];
  return v;
}

/* Returns the constraint `c` prepared. */
static interp_con interp_con_make(const ast_constraint *c, const int64_t *params,
                                  int nd) {
  interp_con r;
  r.aff = interp_aff_fold(&c->aff, params);
  r.is_eq = c->is_eq;
  r.level = -1;
  for (int d = 0; d < nd; d++)
    if (r.aff.coef[d]) r.level = d;
  return r;
}

/* Returns 1 when the constraint holds at `idx`. */
static inline int interp_con_holds(const interp_con *c, const int64_t *idx, int nd) {
  int64_t v = interp_aff_at(&c->aff, idx, nd);
  return c->is_eq ? v == 0 : v >= 0;
}

/* Returns the number of nodes of an expression tree. */
static int interp_expr_size(const ast_expr *e) {
  int n = 1;
  if (e->kind == AST_EXPR_OP)
    for (int i = 0; i < e->nargs && i < 3; i++) n += interp_expr_size(e->arg[i]);
  return n;
}

/* Returns the slot of `e` after appending its instructions (post-order) to
 * q->ins; recursion is over the expression tree only. */
static int interp_expr_compile(interp_run *r, interp_eq *q, const ast_expr *e) {
  interp_ins in;
  memset(&in, 0, sizeof in);
  in.src = e;
  switch (e->kind) {
  case AST_EXPR_CONST:
    in.kind = INTERP_CONST;
    in.value = e->value;
    break;
  case AST_EXPR_VAR:
    in.kind = INTERP_VAR;
    in.var = e->var;
    for (int d = 0; d < r->nd; d++) {
      in.off[d] = e->off[d];
      if (e->off[d]) in.nz[in.nnz++] = d;
      in.delta += e->off[d] * r->stride[d];
    }
    break;
  case AST_EXPR_IN:
    in.kind = INTERP_IN;
    in.array = e->array;
    for (int d = 0; d < r->p->arrays[e->array].ndims; d++)
      in.idx[d] = interp_aff_fold(&e->idx[d], r->params);
    break;
  case AST_EXPR_OP:
    in.kind = INTERP_OP;
    in.op = e->op;
    for (int i = 0; i < e->nargs && i < 3; i++)
      in.a[i] = interp_expr_compile(r, q, e->arg[i]);
    break;
  }
  q->ins[q->nins] = in;
  return q->nins++;
}

/* Returns 0 after preparing equation `e` into r->eqs[e]; -1 on error. */
static int interp_eq_prepare(interp_run *r, int e) {
  const ast_program *p = r->p;
  const ast_eq *src = &p->eqs[e];
  interp_eq *q = &r->eqs[e];
  q->src = src;
  if (src->is_out && p->arrays[src->array].kind != AST_ARRAY_OUT) {
    diag_error(&src->loc, p->source, "equation writes input array '%s'",
               p->arrays[src->array].name);
    return -1;
  }
  int ncon = 0;
  for (int c = 0; c < src->cond.n; c++) ncon += src->cond.conj[c].n;
  q->con = calloc((size_t)ncon + 1, sizeof *q->con);
  q->conj_end = calloc((size_t)src->cond.n + 1, sizeof *q->conj_end);
  q->ins = calloc((size_t)interp_expr_size(src->rhs), sizeof *q->ins);
  if (!q->con || !q->conj_end || !q->ins) {
    diag_error_plain("out of memory");
    return -1;
  }
  for (int c = 0; c < src->cond.n; c++) {
    for (int k = 0; k < src->cond.conj[c].n; k++)
      q->con[q->ncon++] = interp_con_make(&src->cond.conj[c].c[k], r->params, r->nd);
    q->conj_end[q->nconj++] = q->ncon;
    if (src->cond.conj[c].n == 0) q->always = 1;
  }
  interp_expr_compile(r, q, src->rhs);
  if (src->is_out)
    for (int d = 0; d < p->arrays[src->array].ndims; d++)
      q->idx[d] = interp_aff_fold(&src->idx[d], r->params);
  return 0;
}

/* Returns 1 when equation q reads variable v with every offset zero. */
static int interp_eq_reads_here(const interp_eq *q, int v) {
  for (int i = 0; i < q->nins; i++) {
    const interp_ins *in = &q->ins[i];
    if (in->kind == INTERP_VAR && in->var == v && in->nnz == 0) return 1;
  }
  return 0;
}

/* Returns 0 after putting the equations in a topological order of their
 * offset-zero dependences (Kahn, earliest equation first); -1 after
 * reporting a cycle. */
static int interp_order_make(interp_run *r) {
  const ast_program *p = r->p;
  int n = p->neqs, rc = -1;
  char *edge = calloc((size_t)n * (size_t)n + 1, 1); /* edge[f*n+e]: f before e */
  int *indeg = calloc((size_t)n + 1, sizeof *indeg);
  char *done = calloc((size_t)n + 1, 1);
  if (!edge || !indeg || !done) {
    diag_error_plain("out of memory");
    goto error;
  }
  for (int e = 0; e < n; e++)
    for (int f = 0; f < n; f++)
      if (!p->eqs[f].is_out && interp_eq_reads_here(&r->eqs[e], p->eqs[f].var)) {
        edge[f * n + e] = 1;
        indeg[e]++;
      }
  for (int k = 0; k < n; k++) {
    int pick = -1;
    for (int e = 0; e < n && pick < 0; e++)
      if (!done[e] && indeg[e] == 0) pick = e;
    if (pick < 0) {
      for (int e = 0; e < n; e++)
        if (!done[e]) {
          diag_error(&p->eqs[e].loc, p->source,
                     "the offset-zero dependences of this equation form a cycle "
                     "(rule 3)");
          break;
        }
      goto error;
    }
    done[pick] = 1;
    r->order[k] = pick;
    for (int e = 0; e < n; e++)
      if (edge[pick * n + e]) indeg[e]--;
  }
  rc = 0;
error:
  free(edge);
  free(indeg);
  free(done);
  return rc;
}

/* Returns 0 after setting r->blo/bhi to the bounding box of the iteration
 * space (r->empty when it has no point); -1 after printing an error. */
static int interp_box_make(interp_run *r) {
  const ast_program *p = r->p;
  isl_ctx *ctx = isl_ctx_alloc();
  int rc = -1;
  if (!ctx) {
    diag_error_plain("cannot allocate an isl context");
    return -1;
  }
  isl_set *s = poly_set_fix_params(poly_space(ctx, p), p, r->params);
  if (!s) {
    diag_error(&p->par_loc, p->source, "cannot build the iteration space");
    goto error;
  }
  isl_bool empty = isl_set_is_empty(s);
  if (empty < 0) goto error;
  if (empty) {
    r->empty = 1;
    rc = 0;
    goto error;
  }
  for (int d = 0; d < r->nd; d++) {
    isl_val *lo = isl_set_dim_min_val(isl_set_copy(s), d);
    isl_val *hi = isl_set_dim_max_val(isl_set_copy(s), d);
    int ok = lo && hi && isl_val_is_int(lo) && isl_val_is_int(hi);
    if (ok) {
      r->blo[d] = isl_val_get_num_si(lo);
      r->bhi[d] = isl_val_get_num_si(hi);
    }
    isl_val_free(lo);
    isl_val_free(hi);
    if (!ok) {
      diag_error(&p->par_loc, p->source,
                 "the iteration space is unbounded in index '%s'", p->index[d]);
      goto error;
    }
  }
  rc = 0;
error:
  isl_set_free(s);
  isl_ctx_free(ctx);
  return rc;
}

/* Returns 0 after allocating the storage of the internal variables over the
 * box; -1 after printing an error. */
static int interp_storage_make(interp_run *r) {
  const ast_program *p = r->p;
  uint64_t vol = 1;
  for (int d = r->nd - 1; d >= 0; d--) {
    r->stride[d] = (int64_t)vol;
    uint64_t ext = (uint64_t)(r->bhi[d] - r->blo[d] + 1);
    if (vol > ((uint64_t)1 << 40) / ext) {
      diag_error(&p->par_loc, p->source,
                 "the iteration space's bounding box has more than 2^40 points");
      return -1;
    }
    vol *= ext;
  }
  r->volume = (size_t)vol;
  uint64_t used = 0; /* the arrays' data first */
  for (int a = 0; a < p->narrays; a++) used += r->arrays[a].n * sizeof *r->arrays[a].data;
  char what[160];
  snprintf(what, sizeof what, "%d internal variable%s over %llu points each",
           p->nvars, p->nvars == 1 ? "" : "s", (unsigned long long)vol);
  if (interp_memory_take(p, &p->par_loc, &used,
                         vol * (uint64_t)p->nvars * (sizeof **r->val + 1), what) != 0)
    return -1;
  r->val = calloc((size_t)p->nvars + 1, sizeof *r->val);
  r->def = calloc((size_t)p->nvars + 1, sizeof *r->def);
  if (!r->val || !r->def) goto nomem;
  for (int v = 0; v < p->nvars; v++) {
    r->val[v] = malloc(r->volume * sizeof **r->val);
    r->def[v] = calloc(r->volume, 1);
    if (!r->val[v] || !r->def[v]) goto nomem;
  }
  return 0;
nomem:
  diag_error(&p->par_loc, p->source,
             "not enough memory for %d internal variables of %zu instances each",
             p->nvars, r->volume);
  return -1;
}

/* Returns 0 after sorting the constraints of `par` by level (the innermost
 * index they name); -1 on error. */
static int interp_space_prepare(interp_run *r) {
  const ast_program *p = r->p;
  r->space = calloc((size_t)p->space.n + 1, sizeof *r->space);
  if (!r->space) {
    diag_error_plain("out of memory");
    return -1;
  }
  r->nspace = 0;
  for (int d = -1; d < r->nd; d++) {
    for (int k = 0; k < p->space.n; k++) {
      interp_con c = interp_con_make(&p->space.c[k], r->params, r->nd);
      if (c.level != d) continue;
      /* a constraint naming no index: false means no point at all */
      if (d < 0 && !interp_con_holds(&c, r->idx, 0)) r->empty = 1;
      if (d >= 0) r->space[r->nspace++] = c;
    }
    if (d >= 0) r->level_end[d] = r->nspace;
  }
  return 0;
}

/* Returns 0 after all the preparation of a run; -1 after an error. */
static int interp_run_prepare(interp_run *r) {
  const ast_program *p = r->p;
  if (interp_box_make(r) != 0) return -1;
  if (interp_space_prepare(r) != 0) return -1;
  if (!r->empty && interp_storage_make(r) != 0) return -1;
  r->eqs = calloc((size_t)p->neqs + 1, sizeof *r->eqs);
  r->order = calloc((size_t)p->neqs + 1, sizeof *r->order);
  r->written = calloc((size_t)p->narrays + 1, sizeof *r->written);
  if (!r->eqs || !r->order || !r->written) goto nomem;
  int maxins = 1;
  for (int e = 0; e < p->neqs; e++) {
    if (interp_eq_prepare(r, e) != 0) return -1;
    if (r->eqs[e].nins > maxins) maxins = r->eqs[e].nins;
  }
  r->tmp = calloc((size_t)maxins, sizeof *r->tmp);
  if (!r->tmp) goto nomem;
  for (int a = 0; a < p->narrays; a++)
    if (p->arrays[a].kind == AST_ARRAY_OUT) {
      r->written[a] = calloc(r->arrays[a].n + 1, 1);
      if (!r->written[a]) goto nomem;
    }
  return interp_order_make(r);
nomem:
  diag_error_plain("out of memory");
  return -1;
}

/* Frees everything interp_run_prepare allocated. */
static void interp_run_free(interp_run *r) {
  const ast_program *p = r->p;
  if (r->val)
    for (int v = 0; v < p->nvars; v++) free(r->val[v]);
  if (r->def)
    for (int v = 0; v < p->nvars; v++) free(r->def[v]);
  free(r->val);
  free(r->def);
  if (r->written)
    for (int a = 0; a < p->narrays; a++) free(r->written[a]);
  free(r->written);
  if (r->eqs)
    for (int e = 0; e < p->neqs; e++) {
      free(r->eqs[e].con);
      free(r->eqs[e].conj_end);
      free(r->eqs[e].ins);
    }
  free(r->eqs);
  free(r->order);
  free(r->tmp);
  free(r->space);
}

/* ------------------------------------------------------------------ */
/* Runtime errors                                                       */

/* Returns `buf` holding "name[i0, i1, ...]" for the given element. */
static const char *interp_elem_text(const char *name, const int64_t *e, int n,
                                    char *buf, size_t size) {
  size_t len = (size_t)snprintf(buf, size, "%s", name);
  if (n > 0 && len < size) len += (size_t)snprintf(buf + len, size - len, "[");
  for (int d = 0; d < n && len < size; d++)
    len += (size_t)snprintf(buf + len, size - len, "%s%lld", d ? ", " : "",
                            (long long)e[d]);
  if (n > 0 && len < size) snprintf(buf + len, size - len, "]");
  return buf;
}

/* Prints the note that says at which iteration and parameters. */
static void interp_note_where(const interp_run *r) {
  char ibuf[256], pbuf[256];
  size_t len = 0;
  ibuf[0] = '\0';
  for (int d = 0; d < r->nd && len < sizeof ibuf; d++)
    len += (size_t)snprintf(ibuf + len, sizeof ibuf - len, "%s%s=%lld",
                            d ? ", " : "", r->p->index[d], (long long)r->idx[d]);
  diag_note("at iteration (%s) with %s", ibuf,
            interp_params_text(r->p, r->params, pbuf, sizeof pbuf));
}

/* Returns 1 when the point q lies in the iteration space. */
static int interp_point_in_space(const interp_run *r, const int64_t *q) {
  for (int d = 0; d < r->nd; d++)
    if (q[d] < r->blo[d] || q[d] > r->bhi[d]) return 0;
  for (int k = 0; k < r->nspace; k++)
    if (!interp_con_holds(&r->space[k], q, r->nd)) return 0;
  return 1;
}

/* Reports a read of an undefined internal variable instance; returns -1. */
static int interp_fail_var(const interp_run *r, const interp_ins *in) {
  int64_t q[AST_MAX_DIMS];
  char buf[256];
  for (int d = 0; d < r->nd; d++) q[d] = r->idx[d] + in->off[d];
  interp_elem_text(r->p->vars[in->var].name, q, r->nd, buf, sizeof buf);
  if (!interp_point_in_space(r, q))
    diag_error(&in->src->loc, r->p->source,
               "reads %s, which is outside the iteration space", buf);
  else
    diag_error(&in->src->loc, r->p->source,
               "reads %s, which no equation has defined at or before this "
               "iteration", buf);
  interp_note_where(r);
  return -1;
}

/* Reports an element outside an array's extents, read or written; -1. */
static int interp_fail_extent(const interp_run *r, const ast_loc *loc, int array,
                              const int64_t *e, const char *verb) {
  const ast_array *arr = &r->p->arrays[array];
  char buf[256], ext[256];
  interp_elem_text(arr->name, e, arr->ndims, buf, sizeof buf);
  interp_elem_text("", r->arrays[array].extent, arr->ndims, ext, sizeof ext);
  diag_error(loc, r->p->source, "%s %s, outside the extents %s of '%s'", verb,
             buf, ext, arr->name);
  interp_note_where(r);
  return -1;
}

/* ------------------------------------------------------------------ */
/* Evaluation                                                           */

/* Returns 0 and sets *lin to the row-major position of the element given by
 * the affine indices `idx` of `array` at the current point; -1 after
 * reporting an element outside the extents. */
static inline int interp_elem_at(const interp_run *r, int array,
                                 const interp_aff *idx, const ast_loc *loc,
                                 const char *verb, size_t *lin) {
  const interp_array *ia = &r->arrays[array];
  int64_t e[AST_MAX_DIMS];
  size_t l = 0;
  int bad = 0;
  for (int d = 0; d < ia->ndims; d++) {
    e[d] = interp_aff_at(&idx[d], r->idx, r->nd);
    if (e[d] < 0 || e[d] >= ia->extent[d]) bad = 1;
    l = l * (size_t)ia->extent[d] + (size_t)e[d];
  }
  if (bad) return interp_fail_extent(r, loc, array, e, verb);
  *lin = l;
  return 0;
}

/* Returns 0 and sets *out to the value of equation q's right-hand side at
 * the current point (linear position `base` in the box); -1 after a
 * reported violation. */
static inline int interp_eq_eval(interp_run *r, const interp_eq *q, size_t base,
                                 int32_t *out) {
  int32_t *t = r->tmp;
  for (int i = 0; i < q->nins; i++) {
    const interp_ins *in = &q->ins[i];
    switch (in->kind) {
    case INTERP_CONST:
      t[i] = in->value;
      break;
    case INTERP_VAR: {
      for (int k = 0; k < in->nnz; k++) {
        int d = in->nz[k];
        int64_t x = r->idx[d] + in->off[d];
        if (x < r->blo[d] || x > r->bhi[d]) return interp_fail_var(r, in);
      }
      size_t a = (size_t)((int64_t)base + in->delta);
      if (!r->def[in->var][a]) return interp_fail_var(r, in);
      t[i] = r->val[in->var][a];
      break;
    }
    case INTERP_IN: {
      size_t l = 0;
      if (interp_elem_at(r, in->array, in->idx, &in->src->loc, "reads", &l) != 0)
        return -1;
      if (r->written[in->array] && !r->written[in->array][l]) {
        char buf[256];
        int64_t e[AST_MAX_DIMS];
        for (int d = 0; d < r->arrays[in->array].ndims; d++)
          e[d] = interp_aff_at(&in->idx[d], r->idx, r->nd);
        diag_error(&in->src->loc, r->p->source,
                   "reads output element %s before it is written",
                   interp_elem_text(r->p->arrays[in->array].name, e,
                                    r->arrays[in->array].ndims, buf, sizeof buf));
        interp_note_where(r);
        return -1;
      }
      t[i] = r->arrays[in->array].data[l];
      break;
    }
    case INTERP_OP:
      t[i] = interp_apply(in->op, t[in->a[0]], t[in->a[1]], t[in->a[2]]);
      break;
    }
  }
  *out = t[q->nins - 1];
  return 0;
}

/* Returns 1 when the condition of q holds at the current point. */
static inline int interp_eq_holds(const interp_run *r, const interp_eq *q) {
  if (q->always) return 1;
  int start = 0;
  for (int c = 0; c < q->nconj; c++) {
    int ok = 1;
    for (int k = start; k < q->conj_end[c] && ok; k++)
      ok = interp_con_holds(&q->con[k], r->idx, r->nd);
    if (ok) return 1;
    start = q->conj_end[c];
  }
  return 0;
}

/* Returns 0 after storing value v as defined by q at the current point;
 * -1 after reporting a double definition or an element out of extents. */
static inline int interp_eq_store(interp_run *r, const interp_eq *q, size_t base,
                                  int32_t v) {
  const ast_eq *src = q->src;
  char buf[256];
  if (!src->is_out) {
    if (r->def[src->var][base]) {
      diag_error(&src->loc, r->p->source,
                 "defines %s a second time (rule 1: single assignment)",
                 interp_elem_text(r->p->vars[src->var].name, r->idx, r->nd, buf,
                                  sizeof buf));
      interp_note_where(r);
      return -1;
    }
    r->def[src->var][base] = 1;
    r->val[src->var][base] = v;
    return 0;
  }
  size_t l = 0;
  if (interp_elem_at(r, src->array, q->idx, &src->loc, "writes", &l) != 0) return -1;
  if (r->written[src->array][l]) {
    int64_t e[AST_MAX_DIMS];
    for (int d = 0; d < r->arrays[src->array].ndims; d++)
      e[d] = interp_aff_at(&q->idx[d], r->idx, r->nd);
    diag_error(&src->loc, r->p->source,
               "writes output element %s a second time (rule 5)",
               interp_elem_text(r->p->arrays[src->array].name, e,
                                r->arrays[src->array].ndims, buf, sizeof buf));
    interp_note_where(r);
    return -1;
  }
  r->written[src->array][l] = 1;
  r->arrays[src->array].data[l] = v;
  return 0;
}

/* Returns 0 after evaluating every equation that holds at the current
 * point; -1 after a reported violation. */
static int interp_point_visit(interp_run *r) {
  size_t base = 0;
  for (int d = 0; d < r->nd; d++)
    base += (size_t)((r->idx[d] - r->blo[d]) * r->stride[d]);
  r->iterations++;
  for (int k = 0; k < r->p->neqs; k++) {
    const interp_eq *q = &r->eqs[r->order[k]];
    if (!interp_eq_holds(r, q)) continue;
    int32_t v;
    if (interp_eq_eval(r, q, base, &v) != 0) return -1;
    if (interp_eq_store(r, q, base, v) != 0) return -1;
    r->instances++;
  }
  return 0;
}

/* Returns floor(a / b) for b > 0. */
static inline int64_t interp_floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* Sets *lo, *hi to the range of index d given the outer indices. */
static void interp_level_bounds(const interp_run *r, int d, int64_t *lo, int64_t *hi) {
  int64_t l = r->blo[d], h = r->bhi[d];
  for (int k = d ? r->level_end[d - 1] : 0; k < r->level_end[d]; k++) {
    const interp_con *c = &r->space[k];
    int64_t cd = c->aff.coef[d];
    int64_t rest = interp_aff_at(&c->aff, r->idx, d); /* outer indices only */
    if (c->is_eq) {
      if (rest % cd != 0) {
        l = 1;
        h = 0;
        break;
      }
      int64_t v = -rest / cd;
      if (v > l) l = v;
      if (v < h) h = v;
    } else if (cd > 0) { /* cd*x + rest >= 0: x >= ceil(-rest/cd) */
      int64_t v = -interp_floor_div(rest, cd);
      if (v > l) l = v;
    } else { /* x <= floor(rest / -cd) */
      int64_t v = interp_floor_div(rest, -cd);
      if (v < h) h = v;
    }
  }
  *lo = l;
  *hi = h;
}

/* Returns 0 after visiting every point of the iteration space in
 * lexicographic order (an odometer, no recursion); -1 after a violation. */
static int interp_space_walk(interp_run *r) {
  int nd = r->nd;
  if (r->empty) return 0;
  if (nd == 0) return interp_point_visit(r);
  int64_t lo[AST_MAX_DIMS], hi[AST_MAX_DIMS];
  int d = 0;
  interp_level_bounds(r, 0, &lo[0], &hi[0]);
  r->idx[0] = lo[0];
  for (;;) {
    if (r->idx[d] > hi[d]) {
      if (d == 0) return 0;
      r->idx[--d]++;
      continue;
    }
    if (d == nd - 1) {
      if (interp_point_visit(r) != 0) return -1;
      r->idx[d]++;
      continue;
    }
    d++;
    interp_level_bounds(r, d, &lo[d], &hi[d]);
    r->idx[d] = lo[d];
  }
}

/* Returns 0 when every element of every output array was written; else
 * reports the first element missing of each array and returns -1. */
static int interp_outputs_check(const interp_run *r) {
  const ast_program *p = r->p;
  int rc = 0;
  for (int a = 0; a < p->narrays; a++) {
    if (p->arrays[a].kind != AST_ARRAY_OUT) continue;
    const interp_array *ia = &r->arrays[a];
    size_t missing = 0, first = 0;
    for (size_t i = 0; i < ia->n; i++)
      if (!r->written[a][i] && !missing++) first = i;
    if (!missing) continue;
    int64_t e[AST_MAX_DIMS];
    for (int d = ia->ndims - 1; d >= 0; d--) {
      e[d] = (int64_t)(first % (size_t)ia->extent[d]);
      first /= (size_t)ia->extent[d];
    }
    char buf[256], pbuf[256];
    diag_error(&p->arrays[a].loc, p->source,
               "output element %s is never written (rule 5); %zu of %zu "
               "elements of '%s' are not",
               interp_elem_text(p->arrays[a].name, e, ia->ndims, buf, sizeof buf),
               missing, ia->n, p->arrays[a].name);
    diag_note("with %s", interp_params_text(p, r->params, pbuf, sizeof pbuf));
    rc = -1;
  }
  return rc;
}

/* Returns the monotonic time in seconds. */
static double interp_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int interp_program_run(const ast_program *p, const int64_t *params,
                       interp_array *arrays, interp_stats *stats) {
  interp_run r;
  memset(&r, 0, sizeof r);
  r.p = p;
  r.params = params;
  r.arrays = arrays;
  r.nd = p->ndims;
  int rc = interp_run_prepare(&r);
  double t0 = interp_now();
  if (rc == 0) rc = interp_space_walk(&r);
  double t1 = interp_now();
  if (rc == 0) rc = interp_outputs_check(&r);
  if (stats) {
    stats->instances = r.instances;
    stats->iterations = r.iterations;
    stats->seconds = t1 - t0;
  }
  interp_run_free(&r);
  return rc;
}
