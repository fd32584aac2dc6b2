/*
 * inst_io.c: I/O placement of 1-D regions (section 6.2 of the paper;
 * docs/instantiate.md) and the layout of every output element.
 *
 * I/O placement (inst_place_io). Every access gets its own bank on the
 * region's border side (north for 1xC, west for Rx1; bank b is wrapper port
 * b), except an input that shares a channel's id (read only on the first
 * PE, docs/symbolic.md "Registers"): it gets the bank behind the channel's
 * port on the side the channel arrives from (west for 1xC, north for Rx1),
 * which is the array border at the first PE, so the one WRAPPER of the
 * region connects that id to the bank there and to the channel elsewhere.
 * When the region's side has no bank left for an access (or no bank sits
 * behind the channel's port), inst_io_spread places the region per PE:
 * the accesses that fitted keep their banks on the PEs that access them,
 * and each other access takes, on every PE that accesses it, the first
 * free bank of that PE's array border sides (the region's side first, then
 * north, east, south, west; a port a channel uses is not free); the
 * WRAPPER sinks, AGs and IODATA are then per PE as in 2-D (x->wsink,
 * pside/pbank; inst_emit.c). A program that fits one side keeps the one
 * WRAPPER and its stream of before. An access's index map is affine: element e = C I + c0, I = lo + P K +
 * J; arrays are numbered row-major over their accessed bounding box from 0
 * (the element's linear index, as data files and the layout give it). A
 * bank is tile-local: it holds the elements its PE's tile accesses,
 * row-major over the box of element indices one tile spans (ext, the
 * largest over the PEs), so the bank address of iteration J is
 * stride.J + a0 with stride = w.C, w the row-major weights of that box
 * (the same on every PE: each PE has its own bank), and a0 making the
 * tile's addresses start at 0. The problem size a region runs is thus set
 * by iobuf.depth per bank, not by the arrays' sizes. Reads get the
 * input values at those addresses (IODATA per PE); writes leave the results
 * there (inst_layout prints where).
 *
 * inst_io_unseq and inst_io_address are shared with the stream emission
 * (inst_emit.c: IODATA); inst_layout prints where each output lands.
 */
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/val.h>

#include "inst.h"

/* An affine index map: element[r] = sum coef[r][d] I[d] + konst[r]. */
typedef struct {
  int nout;
  int64_t coef[AST_MAX_DIMS][AST_MAX_DIMS];
  int64_t konst[AST_MAX_DIMS];
} inst_affine;

/* isl callback: takes the single piece of a pw_multi_aff. */
static isl_stat inst_piece(__isl_take isl_set *set, __isl_take isl_multi_aff *ma, void *user) {
  isl_multi_aff **out = user;
  isl_set_free(set);
  if (*out) {
    isl_multi_aff_free(ma);
    return isl_stat_error;
  }
  *out = ma;
  return isl_stat_ok;
}

/* Returns 0 and the affine form of index map text `txt`; -1 when it is not
 * one affine piece. */
static int inst_affine_read(const inst *x, const char *txt, inst_affine *a) {
  memset(a, 0, sizeof *a);
  isl_map *mp = isl_map_read_from_str(x->ctx, txt);
  if (!mp) return -1;
  int np = (int)isl_map_dim(mp, isl_dim_param);
  for (int i = 0; i < np; i++) {
    const char *nm = isl_map_get_dim_name(mp, isl_dim_param, i);
    for (int k = 0; k < x->m->nparams; k++)
      if (nm && !strcmp(nm, x->m->param_name[k])) mp = isl_map_fix_si(mp, isl_dim_param, i, (int)x->params[k]);
  }
  mp = isl_map_project_out(mp, isl_dim_param, 0, (unsigned)np);
  isl_pw_multi_aff *pma = isl_pw_multi_aff_from_map(mp);
  isl_multi_aff *ma = NULL;
  int bad = isl_pw_multi_aff_foreach_piece(pma, inst_piece, &ma) < 0 || !ma;
  isl_pw_multi_aff_free(pma);
  if (bad) {
    isl_multi_aff_free(ma);
    return -1;
  }
  a->nout = (int)isl_multi_aff_dim(ma, isl_dim_out);
  for (int r = 0; r < a->nout && !bad; r++) {
    isl_aff *af = isl_multi_aff_get_aff(ma, r);
    if (isl_aff_dim(af, isl_dim_div) > 0) bad = 1;
    for (int d = 0; d < x->n; d++) {
      isl_val *v = isl_aff_get_coefficient_val(af, isl_dim_in, d);
      if (!isl_val_is_int(v)) bad = 1;
      a->coef[r][d] = isl_val_get_num_si(v);
      isl_val_free(v);
    }
    isl_val *v = isl_aff_get_constant_val(af);
    if (!isl_val_is_int(v)) bad = 1;
    a->konst[r] = isl_val_get_num_si(v);
    isl_val_free(v);
    isl_aff_free(af);
  }
  isl_multi_aff_free(ma);
  return bad ? -1 : 0;
}

/* Returns the stream side of route side letter c (N, E, S, W). */
static int inst_io_side(char c) {
  return c == 'N' ? STREAM_SIDE_NORTH : c == 'E' ? STREAM_SIDE_EAST : c == 'S' ? STREAM_SIDE_SOUTH : STREAM_SIDE_WEST;
}

/* Computes the iteration I of (J, PE k). */
static void inst_iter(const inst *x, const int64_t *J, int k, int64_t *I) {
  int r = k, c = 0;
  if (x->m->axis == MAP_AXIS_2D) inst_pe_rc(x, k, &r, &c);
  for (int d = 0; d < x->n; d++)
    I[d] = x->lo[d] + J[d] + (d == x->m->mapped[0] ? x->p * r : 0) +
           (x->m->axis == MAP_AXIS_2D && d == x->m->mapped[1] ? x->p2 * c : 0);
}

/* Computes J from a sequence number s < P. */
void inst_io_unseq(const inst *x, int64_t s, int64_t *J) {
  for (int r = 0; r < x->n; r++) {
    int d = x->m->order[r];
    J[d] = s % x->E[d];
    s /= x->E[d];
  }
}

/* isl callback state: collects the points of a fibre as sequence numbers. */
typedef struct {
  const inst *x;
  char *mark; /* [P] */
} inst_pts;

/* Returns isl_stat_ok after marking the point's sequence number. */
static isl_stat inst_pt_mark(__isl_take isl_point *pt, void *user) {
  inst_pts *ps = user;
  int64_t s = inst_point_seq(ps->x, pt);
  isl_point_free(pt);
  if (s >= 0 && s < ps->x->P) ps->mark[s] = 1;
  return isl_stat_ok;
}

/* Per access: the largest extent, over the PEs, of the box of element
 * indices one PE's tile accesses (the tile-local bank layout). */
typedef int64_t inst_tile_ext[AST_MAX_DIMS];

/* Widens ext to the box [lo, hi] of one PE's elements (nout indices). */
static void inst_tile_box_add(inst_tile_ext ext, const int64_t *lo, const int64_t *hi, int nout) {
  for (int r = 0; r < nout; r++)
    if (hi[r] >= lo[r] && hi[r] - lo[r] + 1 > ext[r]) ext[r] = hi[r] - lo[r] + 1;
}

/* Returns 0 after computing each access's elements per (PE, J), the arrays'
 * bounding boxes and each access's tile box extents text[a]. */
static int inst_io_elements(inst *x, inst_affine *aff, inst_tile_ext *text, char *msg, size_t msgsz) {
  const map_config *m = x->m;
  int64_t hi[64][AST_MAX_DIMS];
  memset(hi, 0, sizeof hi);
  char *mark = malloc((size_t)x->P);
  if (!mark) return INST_ERR_INTERNAL;
  /* pass 1: bounding boxes; pass 2: linear elements */
  for (int pass = 0; pass < 2; pass++)
    for (int a = 0; a < m->naccess; a++) {
      int arr = m->access[a].array;
      for (int k = 0; k < x->t; k++) {
        int64_t tlo[AST_MAX_DIMS], thi[AST_MAX_DIMS];
        for (int r = 0; r < AST_MAX_DIMS; r++) tlo[r] = INT64_MAX, thi[r] = INT64_MIN;
        memset(mark, 0, (size_t)x->P);
        inst_pts ps = {x, mark};
        isl_set *fib = inst_split(x, x->acc[a], k);
        isl_set_foreach_point(fib, inst_pt_mark, &ps);
        isl_set_free(fib);
        for (int64_t s = 0; s < x->P; s++) {
          int64_t *lin = &x->io[a].elem_lin[k * x->P + s];
          if (pass == 0) *lin = -1;
          if (!mark[s]) continue;
          int64_t J[AST_MAX_DIMS], I[AST_MAX_DIMS], e[AST_MAX_DIMS];
          inst_io_unseq(x, s, J);
          inst_iter(x, J, k, I);
          for (int r = 0; r < aff[a].nout; r++) {
            e[r] = aff[a].konst[r];
            for (int d = 0; d < x->n; d++) e[r] += aff[a].coef[r][d] * I[d];
            if (e[r] < 0) {
              snprintf(msg, msgsz, "access %d: element index %lld is negative", a, (long long)e[r]);
              free(mark);
              return INST_ERR_INPUT;
            }
            if (pass == 0 && e[r] + 1 > hi[arr][r]) hi[arr][r] = e[r] + 1;
            if (e[r] < tlo[r]) tlo[r] = e[r];
            if (e[r] > thi[r]) thi[r] = e[r];
          }
          if (pass == 1) {
            int64_t l = 0;
            for (int r = 0; r < aff[a].nout; r++) l = l * x->array_ext[arr][r] + e[r];
            *lin = l;
          }
        }
        if (pass == 0) inst_tile_box_add(text[a], tlo, thi, aff[a].nout);
      }
      if (pass == 0) {
        x->array_nd[arr] = aff[a].nout;
        for (int r = 0; r < aff[a].nout; r++)
          if (hi[arr][r] > x->array_ext[arr][r]) x->array_ext[arr][r] = hi[arr][r];
      }
    }
  free(mark);
  return INST_OK;
}

/* Returns the stride of J_d in the bank address of access af: its elements
 * row-major over the tile's box of extents ext (an index outside any tile
 * has extent 1), so that a bank holds what its tile accesses and no more. */
static int64_t inst_stride(const inst_affine *af, const inst_tile_ext ext, int d) {
  int64_t s = 0, w = 1;
  for (int r = af->nout - 1; r >= 0; r--) {
    s += w * af->coef[r][d];
    w *= ext[r] > 0 ? ext[r] : 1;
  }
  return s;
}

/* Returns the bank address of J for access a. */
int64_t inst_io_address(const inst *x, int a, const int64_t *J) {
  int64_t v = x->io[a].a0;
  for (int d = 0; d < x->n; d++) v += x->io[a].stride[d] * J[d];
  return v;
}

/* Per-PE placement of a 1-D region whose accesses do not all fit the
 * region's side (inst_io_spread): banks and wrapper ports taken, per PE,
 * side and port. */
typedef struct {
  inst *x;
  int nb, np, nsink;
  char *used; /* [t * 4 * np] */
} inst_spread;

/* Returns the used flag of (PE k, side, port). */
static char *inst_spread_used(inst_spread *s, int k, int side, int port) {
  return &s->used[((size_t)k * 4 + (size_t)side) * (size_t)s->np + (size_t)port];
}

/* Returns 1 when PE k of the region lies on the array border `side` (the
 * region starts at its origin; banks sit on the array border,
 * docs/arch.md). */
static int inst_io_border(const inst *x, int k, int side) {
  int r, c;
  inst_pe_rc(x, k, &r, &c);
  r += x->opt.row0;
  c += x->opt.col0;
  return side == STREAM_SIDE_NORTH ? r == 0 : side == STREAM_SIDE_SOUTH ? r == x->arch.rows - 1
         : side == STREAM_SIDE_WEST ? c == 0 : c == x->arch.cols - 1;
}

/* Returns 1 when access a has an element on PE k. */
static int inst_io_on_pe(const inst *x, int a, int k) {
  for (int64_t s = 0; s < x->P; s++)
    if (x->io[a].elem_lin[k * x->P + s] >= 0) return 1;
  return 0;
}

/* Returns the sides PE k tries, in order: the region's side (north for
 * 1xC, west for Rx1) first, then north, east, south, west; *n their number
 * (array border sides only). */
static void inst_io_sides(const inst *x, int k, int *side, int *n) {
  int prim = x->m->axis ? STREAM_SIDE_WEST : STREAM_SIDE_NORTH;
  *n = 0;
  if (inst_io_border(x, k, prim)) side[(*n)++] = prim;
  for (int d = 0; d < 4; d++)
    if (d != prim && inst_io_border(x, k, d)) side[(*n)++] = d;
}

int inst_io_pe_alloc(inst *x) {
  for (int a = 0; a < x->m->naccess; a++) {
    inst_io *io = &x->io[a];
    io->pside = malloc((size_t)x->t * sizeof *io->pside);
    io->pbank = calloc((size_t)x->t, sizeof *io->pbank);
    io->prow = calloc((size_t)x->t, sizeof *io->prow);
    io->pcol = calloc((size_t)x->t, sizeof *io->pcol);
    io->hops = calloc((size_t)x->t, sizeof *io->hops);
    io->lag = calloc((size_t)x->t, sizeof *io->lag);
    if (!io->pside || !io->pbank || !io->prow || !io->pcol || !io->hops || !io->lag) return INST_ERR_INTERNAL;
    for (int k = 0; k < x->t; k++) io->pside[k] = -1;
  }
  return INST_OK;
}

/* Returns INST_OK after allocating the per-PE arrays of every access (no
 * bank anywhere yet, each PE's row and column) and the WRAPPER sinks of
 * every PE. */
static int inst_spread_alloc(inst_spread *s) {
  inst *x = s->x;
  if (inst_io_pe_alloc(x)) return INST_ERR_INTERNAL;
  for (int a = 0; a < x->m->naccess; a++)
    for (int k = 0; k < x->t; k++) inst_pe_rc(x, k, &x->io[a].prow[k], &x->io[a].pcol[k]);
  x->wsink = calloc((size_t)x->t * (size_t)s->nsink, sizeof *x->wsink);
  s->used = calloc((size_t)x->t * 4 * (size_t)s->np, 1);
  return x->wsink && s->used ? INST_OK : INST_ERR_INTERNAL;
}

/* Connects access a to its bank (side, b) in the wrapper of PE k and marks
 * the port taken. */
static void inst_spread_wire(inst_spread *s, int a, int k, int side, int b) {
  inst *x = s->x;
  const map_access *ac = &x->m->access[a];
  uint32_t *sink = x->wsink + (size_t)k * (size_t)s->nsink;
  if (ac->is_out) sink[x->arch.id + side * x->arch.ports + b] = 1u + (uint32_t)ac->reg.idx;
  else sink[ac->reg.idx] = 1u + (uint32_t)(x->arch.od + side * x->arch.ports + b);
  *inst_spread_used(s, k, side, b) = 1;
}

/* Returns 1 when the port of route q is, on PE k, the bank of an input
 * read through the channel's id (a bank an access uses, not lost to the
 * channel). */
static int inst_spread_chan_bank(const inst *x, int q, int k) {
  for (int e = 0; e < x->m->naccess; e++)
    if (map_access_on_channel(x->m, e) == q && x->io[e].bank >= 0 && inst_io_on_pe(x, e, k)) return 1;
  return 0;
}

/* Returns INST_OK after giving access a (no bank of the region's side
 * left) a free bank on every PE that accesses it, the first free one of the
 * sides inst_io_sides orders; INST_ERR_NOFIT naming the access, the PE, the
 * sides tried and the banks needed and available. */
static int inst_spread_place(inst_spread *s, int a, char *msg, size_t msgsz) {
  inst *x = s->x;
  const map_config *m = x->m;
  static const char *nm[] = {"north", "east", "south", "west"};
  for (int k = 0; k < x->t; k++) {
    if (!inst_io_on_pe(x, a, k)) continue;
    int side[4], ns, found = 0;
    inst_io_sides(x, k, side, &ns);
    for (int i = 0; i < ns && !found; i++)
      for (int b = 0; b < s->nb && !found; b++)
        if (!*inst_spread_used(s, k, side[i], b)) {
          x->io[a].pside[k] = side[i];
          x->io[a].pbank[k] = b;
          inst_spread_wire(s, a, k, side[i], b);
          found = 1;
        }
    if (found) continue;
    int need = 0, avail = 0, r, c;
    for (int e = 0; e < m->naccess; e++) need += inst_io_on_pe(x, e, k);
    for (int i = 0; i < ns; i++)
      for (int b = 0; b < s->nb; b++) {
        int chan = 0;
        for (int q = 0; q < m->nroutes; q++)
          chan |= m->routes[q].port[0] == b && !inst_spread_chan_bank(x, q, k) &&
                  (inst_io_side(m->routes[q].in_side[0]) == side[i] || inst_io_side(m->routes[q].out_side[0]) == side[i]);
        avail += !chan;
      }
    inst_pe_rc(x, k, &r, &c);
    r += x->opt.row0; /* the array's row and column */
    c += x->opt.col0;
    char tried[64] = "";
    for (int i = 0, len = 0; i < ns && len < (int)sizeof tried; i++)
      len += snprintf(tried + len, sizeof tried - (size_t)len, "%s %s", i ? "," : "", nm[side[i]]);
    char where[96];
    snprintf(where, sizeof where, "access %d (%s of %s), PE (%d,%d)", a, m->access[a].is_out ? "output" : "input",
             m->array_name[m->access[a].array], r, c);
    const char *key = x->arch.banks <= x->arch.ports ? "iobuf.banks" : "interconnect.ports";
    return fit_nofit(&x->fit, msg, msgsz, FIT_RES_IO_BANKS, key, need, avail, where,
                     "I/O banks: access %d (%s of %s) finds no free bank on PE %d (row %d, column %d); sides "
                     "tried:%s%s; banks needed %d, available %d (its array border sides x min(iobuf.banks %d, "
                     "interconnect.ports %d), less the ports of channels)",
                     a, m->access[a].is_out ? "output" : "input", m->array_name[m->access[a].array], k, r, c,
                     tried, ns ? "" : " none (no side of the PE on the array border)", need, avail, x->arch.banks, x->arch.ports);
  }
  return INST_OK;
}

/* Returns INST_OK after the per-PE placement of a 1-D region some of
 * whose accesses (bank -1) found no bank on the region's side: the
 * channels' ports and the accesses placed region-wide (every PE, as
 * without spreading) are taken first, then each such access gets a free
 * bank of a border side of each PE that accesses it (inst_spread_place);
 * the WRAPPER sinks become per PE (x->wsink), emitted as in 2-D. */
static int inst_io_spread(inst *x, char *msg, size_t msgsz) {
  const map_config *m = x->m;
  inst_spread s = {x, x->arch.banks < x->arch.ports ? x->arch.banks : x->arch.ports, x->arch.ports,
                   x->arch.id + 4 * x->arch.ports, NULL};
  int st = inst_spread_alloc(&s);
  for (int k = 0; k < x->t && !st; k++) {
    uint32_t *sink = x->wsink + (size_t)k * (size_t)s.nsink;
    for (int r = 0; r < m->nroutes; r++) {
      const map_route *rt = &m->routes[r];
      int os = inst_io_side(rt->out_side[0]), is = inst_io_side(rt->in_side[0]);
      sink[x->arch.id + os * x->arch.ports + rt->port[0]] = 1u + (uint32_t)rt->od.idx;
      sink[rt->id.idx] = 1u + (uint32_t)(x->arch.od + is * x->arch.ports + rt->port[0]);
      *inst_spread_used(&s, k, os, rt->port[0]) = 1;
      *inst_spread_used(&s, k, is, rt->port[0]) = 1;
    }
  }
  /* the accesses placed region-wide keep their bank, on the PEs that
   * access them */
  for (int a = 0; a < m->naccess && !st; a++) {
    inst_io *io = &x->io[a];
    if (io->bank < 0) continue;
    for (int k = 0; k < x->t; k++)
      if (inst_io_on_pe(x, a, k)) {
        io->pside[k] = io->side, io->pbank[k] = io->bank;
        inst_spread_wire(&s, a, k, io->side, io->bank);
      }
  }
  for (int a = 0; a < m->naccess && !st; a++) {
    inst_io *io = &x->io[a];
    if (io->bank >= 0) continue;
    st = inst_spread_place(&s, a, msg, msgsz);
    for (int k = 0; k < x->t && !st && io->bank < 0; k++)
      if (io->pside[k] >= 0) io->side = io->pside[k], io->bank = io->pbank[k];
    if (!st && io->bank < 0) io->side = m->axis ? STREAM_SIDE_WEST : STREAM_SIDE_NORTH, io->bank = 0;
  }
  free(s.used);
  return st;
}

int inst_place_io(inst *x, char *msg, size_t msgsz) {
  const map_config *m = x->m;
  if (m->naccess > 64 || m->narrays > 64) {
    return fit_nofit(&x->fit, msg, msgsz, FIT_RES_IO_BANKS, "", m->naccess > 64 ? m->naccess : m->narrays, 64, "",
                     "more than 64 accesses or arrays");
  }
  x->io = calloc((size_t)m->naccess + 1, sizeof *x->io);
  inst_affine *aff = calloc((size_t)m->naccess + 1, sizeof *aff);
  inst_tile_ext *text = calloc((size_t)m->naccess + 1, sizeof *text);
  if (!x->io || !aff || !text) {
    free(aff);
    free(text);
    return INST_ERR_INTERNAL;
  }
  int nb = x->arch.banks < x->arch.ports ? x->arch.banks : x->arch.ports;
  int st = INST_OK, next = 0, spread = 0;
  for (int a = 0; a < m->naccess && !st; a++) {
    int r = m->axis != MAP_AXIS_2D ? map_access_on_channel(m, a) : -1;
    x->io[a].side = m->axis ? STREAM_SIDE_WEST : STREAM_SIDE_NORTH;
    x->io[a].bank = a;
    if (m->axis != MAP_AXIS_2D) x->io[a].bank = r >= 0 ? m->routes[r].port[0] : next++;
    if (r >= 0) x->io[a].side = inst_io_side(m->routes[r].in_side[0]);
    int off_border = x->io[a].side == STREAM_SIDE_NORTH ? x->opt.row0 > 0
                     : x->io[a].side == STREAM_SIDE_WEST ? x->opt.col0 > 0
                     : x->io[a].side == STREAM_SIDE_SOUTH ? x->opt.row0 + x->rows < x->arch.rows
                                                          : x->opt.col0 + x->cols < x->arch.cols;
    if (m->axis != MAP_AXIS_2D && (x->io[a].bank >= nb || off_border)) {
      /* no bank behind the channel's port, the region's side is full or
       * not on the array border (its origin): a bank of any border side,
       * per PE (inst_io_spread) */
      x->io[a].bank = -1;
      spread = 1;
    }
    x->io[a].elem_lin = malloc((size_t)(x->P * x->t) * sizeof *x->io[a].elem_lin);
    if (!x->io[a].elem_lin) st = INST_ERR_INTERNAL;
    else if (inst_affine_read(x, m->access[a].index, &aff[a])) {
      snprintf(msg, msgsz, "access %d (%s): the index map is not affine", a, m->array_name[m->access[a].array]);
      st = INST_ERR_INPUT;
    }
  }
  if (!st) st = inst_io_elements(x, aff, text, msg, msgsz);
  for (int a = 0; a < m->naccess && !st && m->axis != MAP_AXIS_2D; a++) {
    if (map_access_on_channel(m, a) < 0) continue;
    for (int64_t i = x->P; i < (int64_t)x->P * x->t && !st; i++)
      if (x->io[a].elem_lin[i] >= 0) {
        snprintf(msg, msgsz, "access %d (%s): read through a channel's port, but on PE %lld, not only the first",
                 a, m->array_name[m->access[a].array], (long long)(i / x->P));
        st = INST_ERR_INTERNAL;
      }
  }
  if (!st && spread) st = inst_io_spread(x, msg, msgsz);
  for (int a = 0; a < m->naccess && !st; a++) {
    inst_io *ad = &x->io[a];
    int64_t lo = 0, hi = 0;
    for (int d = 0; d < x->n; d++) {
      ad->stride[d] = inst_stride(&aff[a], text[a], d);
      int64_t span = ad->stride[d] * (x->E[d] - 1);
      if (span < 0) lo += span;
      else hi += span;
    }
    ad->a0 = -lo;
    ad->range = hi - lo + 1;
    if (ad->range > x->arch.bank_depth) {
      char where[96];
      snprintf(where, sizeof where, "access %d (%s)", a, m->array_name[m->access[a].array]);
      st = fit_nofit(&x->fit, msg, msgsz, FIT_RES_BANK_DEPTH, "iobuf.depth", ad->range, x->arch.bank_depth, where,
                     "%s: a tile spans %lld bank words, iobuf.depth is %d", where, (long long)ad->range,
                     x->arch.bank_depth);
    }
  }
  free(aff);
  free(text);
  if (!st && m->axis == MAP_AXIS_2D) st = inst_place_io_2d(x, msg, msgsz);
  return st;
}

void inst_layout_each(const inst *x, inst_place_fn fn, void *ctx) {
  for (int a = 0; a < x->m->naccess; a++) {
    const map_access *ac = &x->m->access[a];
    if (!ac->is_out) continue;
    for (int k = 0; k < x->t; k++)
      for (int64_t s = 0; s < x->P; s++) {
        int64_t lin = x->io[a].elem_lin[k * x->P + s];
        if (lin < 0) continue;
        int64_t J[AST_MAX_DIMS];
        inst_io_unseq(x, s, J);
        inst_place pl = {ac->array, lin, x->m->axis ? k : 0, x->m->axis ? 0 : k, x->io[a].side, x->io[a].bank, 0};
        if (x->io[a].pside) {
          pl.row = x->io[a].prow[k];
          pl.col = x->io[a].pcol[k];
          pl.side = x->io[a].pside[k];
          pl.bank = x->io[a].pbank[k];
        }
        pl.row += x->opt.row0; /* the array's PE */
        pl.col += x->opt.col0;
        pl.addr = inst_io_address(x, a, J);
        fn(&pl, ctx);
      }
  }
}

/* Prints one placement as a layout line (inst_place_fn). */
static void inst_layout_line(const inst_place *pl, void *ctx) {
  const inst *x = ((void **)ctx)[0];
  fprintf(((void **)ctx)[1], "%s %lld %d %d %c %d %lld\n", x->m->array_name[pl->array], (long long)pl->lin, pl->row,
          pl->col, "nesw"[pl->side], pl->bank, (long long)pl->addr);
}

void inst_layout(const inst *x, FILE *f) {
  void *ctx[2] = {(void *)x, f};
  inst_layout_each(x, inst_layout_line, ctx);
}
