/*
 * map.h: the symbolic configuration in memory: the result of symbolic
 * mapping (section 5 of the paper) of an RDG onto a region of PEs whose size
 * and whose loop bounds are unknown until instantiation.
 *
 * map_build() runs the steps in order, each in its own file:
 *   map_tile.c   LSGP tiling (5.1): bounds lo/hi of every dimension, the
 *                mapped dimension tiled with symbolic size p over t PEs,
 *                edges split by processor displacement delta (Theta/Delta),
 *                one op per variable and operation, common
 *                subexpressions, output and operand forwarding,
 *                destinations per condition space, copy operations where
 *                one instruction still cannot serve all registers a value
 *                needs (one register destination per instruction, one
 *                reader cycle per fd);
 *   map_sched.c  symbolic modulo scheduling (5.2): ResMII, RecMII, II,
 *                offsets tau, FUs, the linear schedule lambda = (lJ, lK);
 *   map_regs.c   register allocation (5.3): rd, fd (depth), id/od, I/O;
 *   map_route.c  propagation channels (5.4) on the reduced topology graph;
 *   map_pst.c    the polyhedral syntax tree (5.5);
 *   map_access.c access mappings (5.6).
 * map_dom.c keeps the condition spaces as isl sets beside their text, in
 * the compile's one isl context (map_isl), and compares them by isl;
 * map_isl.c is that context: each text it reads parsed once per compile,
 * each question about a pair of texts asked of isl once.
 * sym_write.c / sym_read.c write and read the .sym text (docs/symbolic.md).
 *
 * Coordinates. The iteration I (n dims, program order) is tiled as
 *   I_k = lo_k + p_k * K_k + J_k,   0 <= J_k < E_k,
 * where for the mapped dimension m: p_m = E_m = p (symbolic, a new
 * parameter), 0 <= K_m < t (t PEs, a new parameter); for every other
 * dimension K_k = 0 and E_k = hi_k - lo_k + 1 (a piecewise affine function
 * of the program parameters). Tiled sets are written over the 2n
 * dimensions [J_0..J_{n-1}, K_0..K_{n-1}] (paper: I* = J (+) K), so that a
 * second mapped dimension (2-D regions) only adds a p and a t.
 *
 * 2-D regions (axis 2). Dimension `mapped[0]` is tiled onto the rows with
 * tile size p over t PE rows, dimension `mapped[1]` onto the columns with
 * tile size pc over tc PE columns (jkspace parameters [p, t, pc, tc]).
 * A dependence is split by both tile displacements (theta[0], theta[1]) in
 * {0, sign d_mapped[0]} x {0, sign d_mapped[1]}; theta is the
 * processor displacement (rows, columns), diagonals included (two hops).
 * lambda^K = (LR, LC), LR = lk_p[0] * pi * p * S_mapped[0] + lk_c[0], LC =
 * lk_p[1] * pi * pc * S_mapped[1] + lk_c[1]; PE (r, c) starts at r LR + c LC (plus the
 * offset making every start delay >= 0).
 *
 * Because p*K is not affine, a tiled condition space is kept as a pair
 * (ispace, jkspace): ispace an isl set over I with the program parameters,
 * jkspace an isl set over (J, K) with parameters p and t; the tiled set is
 * { (J,K) in jkspace : lo + P K + J in ispace }, affine once p is known.
 *
 * Schedule. Iterations of a tile run sequentially in the scan order
 * order[0] (fastest) .. order[n-1]; the sequence number of J is
 * s(J) = sum_r J_{order[r]} * prod_{r' < r} E_{order[r']}, and
 * lambda^J . J = pi * s(J). The inter-tile schedule of the mapped dimension
 * is lambda^K_m = kp * pi * p * S_m + kc, S_m = prod of the extents scanned
 * faster than m (1 when m is scanned fastest). An operation v of iteration
 * (J, K) issues at lambda^J J + lambda^K K + tau[v].
 */
#ifndef TCPA_MAP_H
#define TCPA_MAP_H

#include <stdint.h>
#include <stdio.h>

#include <isl/ctx.h>
#include <isl/aff_type.h>
#include <isl/map_type.h>
#include <isl/set_type.h>

#include "arch.h"
#include "ast.h"
#include "fit.h"
#include "isa.h"
#include "rdg.h"

#define MAP_SYM_VERSION 1    /* the .sym of a 1-D mapping */
#define MAP_SYM_VERSION_2D 2 /* the .sym of a 2-D mapping (reads version 1 too) */
#define MAP_MAX_FUS ISA_MAX_FUS

/* The isl context of one compile: the tries of a mapping search and the
 * configuration it keeps share it (docs/symbolic.md "Sets"). Counted
 * references: map_isl_new gives one, map_isl_get takes another, and the
 * last map_isl_put frees the context (after every set in it). */
typedef struct map_isl {
  isl_ctx *ctx;
  int refs;
  /* the texts read in the context, each with its isl object, the
   * answers isl gave about pairs of them and the texts made from them
   * (map_isl.c) */
  struct map_isl_table *texts;
} map_isl;

/* Returns a new context (one reference; isl errors are returned, not
 * printed), or NULL out of memory. */
map_isl *map_isl_new(void);

/* Returns i with one more reference (NULL: NULL). */
map_isl *map_isl_get(map_isl *i);

/* Drops one reference of i (NULL allowed); the last frees the context. */
void map_isl_put(map_isl *i);

/* Return the set (map, piecewise affine expression) that text txt stands
 * for in i's context: parsed the first time the compile asks for that
 * text and kept by i until it is freed (so __isl_keep: copy it to keep
 * it); NULL when i or txt is NULL or the text does not parse. */
__isl_keep isl_set *map_isl_set(map_isl *i, const char *txt);
__isl_keep isl_map *map_isl_map(map_isl *i, const char *txt);
__isl_keep isl_pw_aff *map_isl_pw_aff(map_isl *i, const char *txt);

/* Returns the text (a new string; NULL on an error) of set s (taken),
 * coalesced; i keeps s as that text's set (no parse when a step asks
 * for it). */
char *map_isl_set_text(map_isl *i, __isl_take isl_set *s);

/* Return the text (a new string; NULL on an error) of the set of text a
 * coalesced; of the union of the sets of texts a and b, coalesced; of
 * their intersection, coalesced (*empty set when it is empty): what isl
 * prints for the texts parsed anew, made once per compile and pair of
 * texts (map_isl.c). */
char *map_isl_set_coalesce_text(map_isl *i, const char *a);
char *map_isl_set_union_text(map_isl *i, const char *a, const char *b);
char *map_isl_set_meet_text(map_isl *i, const char *a, const char *b, int *empty);

/* Returns 1 when the union of the sets of texts a and b, coalesced, is
 * one basic set (one conjunction), 0 when not or on an error. */
int map_isl_set_union_convex(map_isl *i, const char *a, const char *b);

/* Return 1 when isl proves the sets (maps) of texts a and b equal, or the
 * sets disjoint; 0 when not, on an error, or when i is NULL. Each pair of
 * texts is asked of isl once per compile (map_isl.c); identical texts
 * are equal without asking. */
int map_isl_set_equal(map_isl *i, const char *a, const char *b);
int map_isl_map_equal(map_isl *i, const char *a, const char *b);
int map_isl_set_disjoint(map_isl *i, const char *a, const char *b);

/* Register classes of a PE (section 3.2). */
typedef enum { MAP_REG_NONE, MAP_REG_RD, MAP_REG_FD, MAP_REG_ID, MAP_REG_OD, MAP_REG_IMM } map_reg_cls;

/* Loop dimensions a region tiles at most: index 0 is the mapped dimension
 * (a 1-D region's only one, a 2-D region's rows'), index 1 a 2-D region's
 * columns'. The per-tile fields below are arrays of this size. */
#define MAP_NTILED 2

typedef struct {
  int cls; /* map_reg_cls */
  int idx;
} map_reg;

/* A tiled condition space (see the top of this file). Owned strings, the
 * text the .sym writes, and beside them the isl sets they stand for,
 * parsed once in the compile's context when first asked for
 * (map_dom_iset, map_dom_jkset) and owned by the dom; a text is replaced
 * with map_dom_ispace_set, which drops its set. */
typedef struct {
  char *ispace;  /* isl set over I, program parameters */
  char *jkspace; /* isl set over [J.., K..], parameters p, t */
  isl_set *iset;  /* ispace parsed, or NULL until asked for */
  isl_set *jkset; /* jkspace parsed, or NULL until asked for */
} map_dom;

typedef struct {
  int rdg_node;  /* the RDG operation node, or -1 for a copy the mapper added */
  isa_op op;
  int nargs;
  int var;       /* RDG variable defined, or -1 (writes only an output) */
  map_dom dom;   /* condition space */
  isa_fu_class cls;
  int lat;       /* latency on this architecture */
  int tau;       /* start offset within an iteration */
  int fu;        /* FU number in the PE's numbering (isa_fu_class_of) */
  map_reg dst;   /* its register destination: rd, fd or none */
} map_op;

/* MAP_EDGE_TIE: operand forwarding (map_tile.c). A tie from a `mov` M to
 * a reader C (pos >= 0) says that C's operand pos reads M's source
 * register (the PST copies M's source leaves over the tie's use) in the
 * cycle M reads it: the two issue at one offset (a FIFO head read by both
 * is popped once); the tie back from C to M (pos -1) keeps them together.
 * Ties carry no register; only the schedule sees them (latency 0). */
typedef enum { MAP_EDGE_DEP, MAP_EDGE_IN, MAP_EDGE_CONST, MAP_EDGE_OUT, MAP_EDGE_TIE } map_edge_kind;

typedef struct {
  map_edge_kind kind;
  int src, dst;  /* op indices; IN: src -1; OUT: dst -1 */
  int pos;       /* operand position in dst; -1 for OUT */
  int64_t d[AST_MAX_DIMS]; /* DEP: dependence vector */
  int theta[MAP_NTILED]; /* DEP: tile displacement along each tiled dimension
                            (map_config.mapped): 0, +1, -1; [1] 0 in 1-D */
  int32_t value; /* CONST */
  int array;     /* IN, OUT: ast_program.arrays index */
  char *index;   /* IN, OUT: isl map I -> array element */
  map_dom use;   /* iterations (of dst; of src for OUT) in which the edge carries a value */
  map_dom def;   /* DEP: iterations of src whose value travels over this edge */
  map_reg rreg;  /* register dst reads (rd, fd, id, imm) */
  map_reg wreg;  /* DEP across PEs: od src writes; OUT: od */
  int group;     /* register group (map_regs.c) */
  int route;     /* DEP across PEs: index into map.routes, else -1 */
} map_edge;

/* A register with its users: one rd/fd/id/od of the PE. */
typedef struct {
  map_reg reg;
  int64_t d[AST_MAX_DIMS]; /* fd: the dependence whose values it keeps */
  int depth_lb;            /* fd: depth for the smallest extents (constant) */
  int copies;              /* rd: registers of the rotating tuple (k of 5.3) */
  int extra;               /* fd: 1 when the read comes after the write in the
                              iteration, so the depth is s(d) + 1 */
} map_regfile_entry;

/* A propagation channel (5.4): od -> wrapper ports -> id. A diagonal
 * displacement takes two hops: od -> out_side port -> (hop) in_side port of
 * the intermediate PE, whose wrapper connects it to out_side[1] port[1] ->
 * (hop) in_side[1] port[1] of the consumer -> id. */
typedef struct {
  int edge;      /* the split DEP edge */
  int delta[MAP_NTILED]; /* processor displacement along each tiled dimension
                            ([0] rows in 2-D, [1] columns; [1] 0 in 1-D) */
  map_reg od, id;
  /* per hop h (0, and 1 when hops == 2; else 0): */
  char out_side[2]; /* 'E', 'W', 'S', 'N': wrapper sink the od (hop 1: the
                       intermediate PE's wrapper) drives */
  char in_side[2];  /* the neighbour's wrapper source it arrives at */
  int port[2];      /* wrapper port index on both sides */
  int hops;
} map_route;

/* One access mapping (5.6). */
typedef struct {
  int edge;
  int is_out;
  int array;
  map_reg reg;   /* id (input) or od (output) */
  char *index;   /* isl map I -> element */
  map_dom space; /* access space A */
  int offset;    /* cycle of the bank event relative to lambda* I* (see docs) */
} map_access;

/* A PST leaf: one operand alternative of one instruction. */
typedef struct {
  int op;        /* map_op index */
  int slot;      /* 0: dest, 1..3: src A..C, 4: od mask member */
  map_reg reg;   /* register, or IMM with value */
  int32_t value;
  map_dom dom;
} map_pst_leaf;

/* The shape of a region and so which loop dimensions its PEs tile. */
typedef enum {
  MAP_AXIS_COLS = 0, /* a 1xC region: dimension `mapped` along the columns */
  MAP_AXIS_ROWS = 1, /* an Rx1 region: dimension `mapped` along the rows */
  MAP_AXIS_2D = 2    /* an RxC region: `mapped[0]` along the rows, `mapped[1]` the columns */
} map_axis;

/* A program whose propagated inputs are read again (map_reread.c): a
 * shallow copy of the original (sharing names, conditions and arrays) with
 * its own equations array and new right-hand sides, and its RDG. */
typedef struct {
  ast_program prog;
  rdg *g;
  ast_expr **exprs; /* the new right-hand sides */
  int nexprs;
  int nvars;        /* variables rewritten */
  ast_constraint **cons; /* chains: the constraints of the new conditions */
  ast_conj **conjs;      /* chains: their conjunctions */
  int ncons;
  int nchains;      /* variables rewritten as chains (map_reread_build) */
  int nexpr_roots;  /* variables whose root is an expression of inputs
                       (with chains; editdist's sa = a[i-1] & 3) */
} map_reread;

/* Returns the program p with every variable whose equations are copies of
 * one input element along directions that leave its index unchanged
 * reading that element in each equation (g not built yet), or NULL when
 * no variable qualifies (or out of memory). p must outlive it. With
 * `chains`, also every variable whose equations are roots (an input
 * element or a constant) and copies v[I] = v[I - d] of one d along which
 * the index changes (fir's u[i,j] = u[i-1,j-1]): each iteration reads the
 * root its chain starts from (u[i,j] = x[i-j] if i >= j, 0 if i < j),
 * and a root may be an expression of inputs and constants (editdist's
 * sa[i,j] = a[i-1] & 3, computed again in every iteration); NULL then
 * also when no variable is a chain or has such a root. */
map_reread *map_reread_build(isl_ctx *ctx, const ast_program *p, int chains);

/* Returns the program p with every equation that starts an accumulation
 * (v = x where another equation of v is v = v[I - d] + y) written as
 * v = 0 + x, so that both cases are one `+` and a reader of v at the end
 * of the accumulation reads one producer (band's y[i] = s[i,j] on the
 * degenerate case N = 1 beside the general one: one od, one bank instead
 * of two); NULL when no equation qualifies (or out of memory). p must
 * outlive it. Its variables count (nvars) is the equations rewritten. */
map_reread *map_reread_pad(const ast_program *p);

/* Frees r (and its RDG); NULL is allowed. */
void map_reread_free(map_reread *r);

typedef struct {
  /* input (prog and g are NULL in a configuration read back by sym_read) */
  const ast_program *prog;
  const rdg *g;
  char *name;                       /* program name */
  char *param_name[AST_MAX_PARAMS];
  char *dim_name[AST_MAX_DIMS];
  int narrays;
  char **array_name;
  arch_config arch;
  uint64_t fingerprint;
  int ndims, nparams;
  /* tiling */
  /* per tiled dimension t (MAP_NTILED: [0] the mapped dimension m, 2-D the
   * rows'; [1] 2-D only, the columns'): */
  int mapped[MAP_NTILED]; /* the loop dimension; [1] -1 in 1-D */
  map_axis axis;  /* the region's shape: which loop dimensions its PEs tile */
  char *lo[AST_MAX_DIMS], *hi[AST_MAX_DIMS]; /* isl pw_aff strings */
  int p_min[MAP_NTILED]; /* smallest tile size the schedule assumes */
  /* graph */
  int nops, nedges;
  map_op *ops;
  map_edge *edges;
  /* schedule */
  int resmii[ISA_FU_ANY]; /* per FU class */
  int units[ISA_FU_ANY];
  int nclass[ISA_FU_ANY];
  int nslots[ISA_FU_ANY];  /* per FU class: slots needed per iteration when ops of
                              disjoint condition spaces share one (<= nclass) */
  unsigned char *excl;     /* nops x nops: 1 when two ops' condition spaces are
                              disjoint (they may share a slot); NULL: none */
  int resmii_all, recmii, ii;
  int ii_lb;               /* the smallest II the schedule could have had:
                              max(ResMII, RecMII), at least 2 for a
                              piecewise program (map_sched.c); 0: not
                              scheduled. The mapping search's II bound */
  int ii_min;              /* the smallest II asked for (map_request.ii_min), 0: none */
  int ii_bump;             /* > 0: ii_min is the II at which registers rd ran
                              out plus ii_bump (map.c), not asked for */
  unsigned off;            /* map_off bits of the options: rewrites turned off */
  int spread_io;           /* 1-D: the accesses checked against every border
                              side a PE can have, not one (map.c, map_access.c) */
  int one_pe;              /* 1: mapped for a region of one PE (map_opts.one_pe):
                              no edges between tiles */
  int gather_reads;        /* 1: write-offset alignment moves an op that reads a
                              channel where its reads come less than II from
                              those of the stream's other readers (map_sched.c),
                              so that they may share an id and an od; asked for
                              when registers id and od run out (map.c) */
  int ncopies[3];          /* movs the mapper added: input, reader and writer copies
                              (a writer copy: a value needed in two registers in
                              one iteration) */
  int no_cse;              /* map_build's later tries (map_tile.c): 1: equal
                              subexpressions of different variables stay apart;
                              2: also outputs keep their `mov`; 3: also no operand
                              forwarding and no destinations per condition; 4:
                              also one op per equation and no shared slots */
  char ii_reason[256];
  int order[AST_MAX_DIMS];
  int lk_p[MAP_NTILED];     /* kp: 1 when lambda^K has the pi*p*S_m term */
  int64_t lk_c[MAP_NTILED]; /* kc */
  /* tile size 1 (p_min = |d_m| < p_wide = max |d_m| + 1): the constants of
   * lambda^K when the tiles are wider (p >= p_wide[0] and, 2-D, pc >=
   * p_wide[1]), where the sequence distances are larger; wide 0: lk_c
   * always */
  int wide;
  int p_wide[MAP_NTILED];
  int64_t lk_cw[MAP_NTILED];
  /* registers */
  int nregs;
  map_regfile_entry *regs;
  int used[MAP_REG_IMM]; /* per class: registers used */
  /* routes, accesses, PST */
  int nroutes;
  map_route *routes;
  int naccess;
  map_access *access;
  int nleaves;
  map_pst_leaf *leaves;
  int imem_estimate;
  int signals_estimate; /* ceil(log2(distinct condition spaces + 1)): a figure
                         * for the .sym, not a bound (signals are per program
                         * and PE class; inst_signals checks gc.signals) */
  fit_record fit;     /* MAP_ERR_NOFIT: what ran out (fit.h); the message
                         is made from it */
  int ii_bound;       /* the smallest ii_lb of the tries of
                         its request (map_build_req), 0: none scheduled */
  map_reread *reread; /* owned: the program mapped when the inputs it
                         propagates are read again (prog and g point into
                         it), else NULL */
  map_isl *isl;       /* a reference: the isl context of the compile (its
                         sets live there); NULL in a hand-made record */
} map_config;

/* Status of the mapping steps: fit_status (fit.h) under the mapper's names. */
enum { MAP_OK = FIT_OK, MAP_ERR_INPUT = FIT_ERR_INPUT, MAP_ERR_NOFIT = FIT_ERR_NOFIT, MAP_ERR_INTERNAL = FIT_ERR_INTERNAL };

/* The mapper's rewrites that can be turned off, to compare a mapping with
 * and without one (`tcpa compile --disable LIST`, docs/symbolic.md). */
typedef enum {
  MAP_OFF_CSE = 1 << 0,     /* cse: equal subexpressions computed once */
  MAP_OFF_FORWARD = 1 << 1, /* forward: operands read where they are written */
  MAP_OFF_DESTS = 1 << 2,   /* dests: destinations per condition space */
  MAP_OFF_SHARE = 1 << 3,   /* share: disjoint condition spaces share a slot */
  MAP_OFF_REREAD = 1 << 4   /* reread: propagated inputs read again */
} map_off;

/* Options of the mapping; all zero (or NULL): the defaults. */
typedef struct map_opts {
  int no_tile1; /* 1: keep p_min = max |d| + 1, no tile size 1 (to compare
                   with it; `tcpa compile --no-tile1`) */
  unsigned off; /* map_off bits: rewrites turned off */
  int pad;      /* 1: map the program with its accumulations padded
                   (map_reread_pad; the run pipeline's retry when control
                   flow does not instantiate, engine_build.c) */
  int spread_io; /* 1: a 1-D region's accesses may use every border side
                    of a PE (map.c's second pass when one side's banks do
                    not suffice; map_access.c) */
  int one_pe;    /* 1: the region is one PE (1x1), so every mapped dimension
                    is one tile: the split edges between tiles (theta != 0)
                    carry no value and are not made, and neither are their
                    channels and wrapper ports (map_tile.c; set by the
                    mapping search, map_search.c) */
  int reread;    /* 0: the program read again (map_reread.c) only when
                    nothing else fits; 1: its propagated inputs read again
                    from the start; 2: its chains too (the mapping search's
                    tries for a lower II, map_search.c) */
  FILE *log;     /* each step try and why it was dropped (`tcpa compile
                    -v`); NULL: none */
} map_opts;

/* One mapping request: the region's shape and tiled dimensions, the II
 * and rewrite level the mapper starts from, and the options. The mapping
 * search (map_search.h) tries requests in turn; a request replays. */
typedef struct map_request {
  int mapped;   /* the tiled dimension (2-D: the rows') */
  int axis;     /* map_axis: 1xC, Rx1 or RxC */
  int mapped2;  /* 2-D: the columns' dimension; else ignored */
  int ii_min;   /* the II at least (0: the smallest the schedule reaches);
                   a higher II gives the kernels more slots for their
                   branches (pe.branch_targets per slot) and fewer kernel
                   classes */
  int level;    /* the rewrite level the mapper starts from (0: all
                   rewrites; 3: no common subexpressions, output or operand
                   forwarding or destinations per condition; 4: also one op
                   per equation and no shared slots) */
  map_opts o;
  map_isl *isl; /* the compile's isl context the tries share (borrowed;
                   NULL: the request makes its own) */
} map_request;

/* Returns MAP_OK and fills *m with the symbolic configuration of program
 * `p` (RDG `g`, both outliving *m) on `arch` for request rq; or
 * MAP_ERR_NOFIT (m->fit says what ran out, fit.h) / MAP_ERR_INPUT, the
 * message in msg. The mapper's own fallbacks of one request, in order:
 * rewrite levels rq->level..4; the program with its propagated inputs,
 * then its chains, read again; registers rd short: II + 1, + 2; 1-D: the
 * I/O accesses on every border side. *m is initialized either way: the
 * caller frees it with map_config_free. */
int map_build_req(const ast_program *p, const rdg *g, const arch_config *arch, const map_request *rq,
                  map_config *m, char *msg, size_t msgsz);

/* Short forms of map_build_req, for the tests: a 1-D region (axis 0 or 1)
 * with default options; a 2-D region (rows' dimension rdim, columns'
 * cdim); options o (NULL: defaults, mapped2 < 0 unless axis 2); and an
 * II and rewrite level to start from. */
int map_build(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis, map_config *m,
              char *msg, size_t msgsz);
int map_build_2d(const ast_program *p, const rdg *g, const arch_config *arch, int rdim, int cdim, map_config *m,
                 char *msg, size_t msgsz);
int map_build_opts(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis,
                   int mapped2, const map_opts *o, map_config *m, char *msg, size_t msgsz);
int map_build_level(const ast_program *p, const rdg *g, const arch_config *arch, int mapped, int axis, int mapped2,
                    int ii_min, int level, const map_opts *o, map_config *m, char *msg, size_t msgsz);

/* Returns 0 after setting *off to the map_off bits of the comma-separated
 * names in `list` (cse, forward, dests, share, reread); -1 with the
 * unknown name and the known ones in msg. */
int map_opts_off_parse(const char *list, unsigned *off, char *msg, size_t msgsz);


/* Returns 1 when op v may issue on unit u at offset t: every other op on
 * u in the same slot (t mod II) has a condition space disjoint from v's
 * and the same stage (floor(t / II)), so that no kernel issues both
 * (folding moves both by the same number of iterations). `on` (NULL: all)
 * says which ops count as placed. */
int map_sched_slot_free(const map_config *m, int v, int u, int64_t t, const unsigned char *on);

/* Returns 1 when DEP edge e crosses PEs (a tile displacement is nonzero). */
int map_edge_cross(const map_edge *e);

/* Returns 1 when intra-PE DEP edges x and y carry the same value through
 * one fd (same variable, same non-zero d) from two different producers
 * (the pieces of a piecewise variable): their write offsets tau + lat must
 * stay less than II apart (map_sched.c, write-offset alignment). */
int map_edges_same_fd(const map_config *m, const map_edge *x, const map_edge *y);

/* Returns 1 when op v is a producer of an fd value with another producer
 * (map_edges_same_fd): register pressure relief must not move it. */
int map_op_shares_fd(const map_config *m, int v);

/* Returns the opcode that implements language operation op (map_op.c);
 * ISA_OP_NOP for none. */
isa_op map_op_isa(ast_op op);

/* Returns S of mapped dimension `dim` (the product of the extents scanned
 * faster than it) for extents E. */
int64_t map_stride_dim(const map_config *m, int dim, const int64_t *E);

/* Returns the columns' lambda^K (2-D; 0 in 1-D) for extents E (the wide
 * constant lk_cw[1] when the tiles are at least p_wide[0] x p_wide[1]). */
int64_t map_lambda_k2(const map_config *m, const int64_t *E);

/* Frees everything *m owns (not the program or the RDG). */
void map_config_free(map_config *m);

/* Step functions, in order; each returns a MAP_* status and on failure a
 * message in msg. */
int map_tile(map_config *m, char *msg, size_t msgsz);
int map_sched(map_config *m, char *msg, size_t msgsz);
int map_regs(map_config *m, char *msg, size_t msgsz);
int map_route_channels(map_config *m, char *msg, size_t msgsz);
int map_pst(map_config *m, char *msg, size_t msgsz);

int map_access_build(map_config *m, char *msg, size_t msgsz);

/* Returns the route (of one hop) whose id access a (an input) reads, or
 * -1: such an input is read only on the first PE of the region (1-D) or
 * of its row or column (2-D; map_regs.c), whose wrapper input of the
 * route's port (in_side[0], port[0]) is on the array border; the
 * instantiator puts the input's bank there. */
int map_access_on_channel(const map_config *m, int a);

/* Tile size 1: lowers p_min[0] (p_min[1]) of a finished mapping to max |d_m|
 * (at least 1) when its schedule stays valid there: the mapped dimensions
 * are scanned fastest (so map_seq_dist_lb, taking E_m = p_min for a
 * tile-crossing edge, is a lower bound), every intra-PE edge holds with the
 * smaller distances, and a lambda^K of the same form exists; the constants
 * of the wider tiles are kept as lk_cw from p_wide. Nothing else
 * of the mapping changes. Returns 1 when lowered, else 0. */
int map_sched_tile1(map_config *m);

/* Returns the sequence distance s(d) of dependence d in the scan order for
 * the given extents E (E[mapped] = p). */
int64_t map_seq_dist(const map_config *m, const int64_t *d, const int64_t *E);

/* Returns the smallest s(d) of edge e's dependence d over all valid extents
 * (each E_k >= |d_k| + 1, except a mapped dimension: E_m = p >= p_min, and
 * >= |d_m| + 1 too when e stays inside the tile along m): the distance the
 * modulo schedule may assume. */
int64_t map_seq_dist_lb(const map_config *m, const map_edge *e);

/* Returns S_m, the product of the extents scanned faster than the mapped
 * dimension, for extents E. */
int64_t map_stride_mapped(const map_config *m, const int64_t *E);

/* Returns lambda^K_m for extents E (E[mapped] = p): the wide constant
 * lk_cw when the tiles are at least p_wide[0] (x p_wide[1]), else lk_c. */
int64_t map_lambda_k(const map_config *m, const int64_t *E);

/* Returns the communication latency of a DEP edge: the producer's latency,
 * plus 1 + hops when it crosses PEs (docs/timing.md section 5; hops is 2
 * for a diagonal displacement). */
int map_edge_latency(const map_config *m, const map_edge *e);

/* Returns "rd0", "fd1", "id2", "od3" or "#5" for a register in buf. */
const char *map_reg_str(map_reg r, int32_t value, char *buf, size_t size);

/* Returns a newly allocated copy of s (NULL on NULL). */
char *map_strdup(const char *s);

/* Returns the dom (copies of both strings and of its sets). */
map_dom map_dom_copy(const map_dom *d);
void map_dom_free(map_dom *d);

/* Replace d's ispace (jkspace) text with txt (taken; freed when d is)
 * and drop its parsed set. */
void map_dom_ispace_set(map_dom *d, char *txt);
void map_dom_jkspace_set(map_dom *d, char *txt);

/* Return d's ispace (jkspace) as an isl set in m's context, parsed on the
 * first call and kept in d (a cache: d's value, its text, is unchanged,
 * so d may be const); NULL when m has no context or the text does not
 * parse. */
__isl_keep isl_set *map_dom_iset(const map_config *m, const map_dom *d);
__isl_keep isl_set *map_dom_jkset(const map_config *m, const map_dom *d);

/* Return 1 when isl proves the two sets of texts a and b equal (the same
 * set however it is written), 0 when not or on an error: ispace texts,
 * jkspace texts, both of two doms, and index maps (map_edge.index). Equal
 * texts are equal without asking isl. */
int map_dom_ispace_equal(const map_config *m, const map_dom *a, const map_dom *b);
int map_dom_jkspace_equal(const map_config *m, const map_dom *a, const map_dom *b);
int map_dom_equal(const map_config *m, const map_dom *a, const map_dom *b);
int map_index_equal(const map_config *m, const char *a, const char *b);

/* Returns 1 when isl proves the ispaces of a and b disjoint (their parsed
 * sets), 0 when they may meet or on an error. */
int map_dom_ispace_disjoint(const map_config *m, const map_dom *a, const map_dom *b);

#endif
