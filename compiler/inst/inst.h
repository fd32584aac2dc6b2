/*
 * inst.h: instantiation (section 6 of the paper, docs/instantiate.md): from
 * a symbolic configuration (map.h, read back from a .sym) and concrete
 * parameter values and a region size, the concrete configuration stream
 * (docs/stream.md) of a 1-D region (1xC or Rx1) or, for a 2-D .sym, of an
 * RxC region. PEs are numbered linearly: k = r * tc + c for PE (r, c) of
 * the region (in 1-D, k is the index along the region's axis), and every
 * per-PE array ([t]) and inst_split use that number.
 *
 * The steps, one file each, run in this order on one inst object:
 *   inst_concretize.c  parameters substituted: extents E, tile size p, PEs
 *                      t, the scan sequence s(J), lambda^K, fd depths; every
 *                      PST leaf and access space as a concrete isl set over
 *                      [J.., K..]; the successor map succ(J, n);
 *   inst_classes.c     Algorithm 1 (partition by conditions), intra-tile
 *                      patterns and processor classes;
 *   inst_fold.c        per class and FU: specialization, folding
 *                      (Algorithm 2), kernel classes and their kernels;
 *   inst_cfg.c         control-flow graphs (Algorithm 3) with a halt edge;
 *   inst_signals.c     control-signal allocation (6.2): local partial
 *                      signals, interference graph, greedy colouring into
 *                      gc.signals, GC terms;
 *   inst_proggen.c     program generation (Algorithm 4) into ISA words, with
 *                      branch out-degree reduction to pe.branch_targets;
 *   inst_io.c          I/O placement of 1-D regions: a bank per access on
 *                      the border (per PE over several border sides when
 *                      the region's side runs out), addresses, the output
 *                      layout;
 *   inst_emit.c        GC, AG, REGCFG, WRAPPER and IODATA packets (6.4) and
 *                      the stream;
 *   inst_listing.c     the human-readable listing;
 *   inst_dot.c         the picture: classes and CFGs as a Graphviz digraph.
 *
 * All isl sets are concrete (no parameters) over J = [j0..j(n-1)] (program
 * dimension order) or [J, K]. Sequence numbers: s(J) = sum seq[k] * J_k,
 * the scan order's mixed radix with the slowest dimension unbounded (the
 * epilog pseudo-iterations continue it, as the GC does in timing.md 2).
 */
#ifndef TCPA_INST_H
#define TCPA_INST_H

#include <stdint.h>
#include <stdio.h>

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>

#include "arch.h"
#include "isa.h"
#include "map.h"
#include "stream.h"

/* Status codes: fit_status (fit.h, the CLI exit codes) under the
 * instantiator's names. */
enum { INST_OK = FIT_OK, INST_ERR_INPUT = FIT_ERR_INPUT, INST_ERR_NOFIT = FIT_ERR_NOFIT,
       INST_ERR_INTERNAL = FIT_ERR_INTERNAL };

/* One kernel class of a functional-unit program: its iterations and the
 * kernel (pi instructions, one per slot) issued in them. */
typedef struct {
  isl_set *q;         /* the kernel class Q over J */
  int64_t first;      /* smallest s(J) in Q (layout order) */
  isa_insn *slot;     /* [ii] the kernel, branch parts `next` */
  int *op;            /* [ii] the map op issued in each slot, -1 none */
  int nsig;           /* control signals of the node (N_v) */
  int sig[8];         /* global signal of bit b of the target index */
  int pc;             /* first word of the node in the program */
  uint8_t tgt[256];   /* [1 << nsig] index -> the node's outgoing edge taken
                       * (its number among them; inst_signals.c) */
  int tail_of;        /* tail_len > 0: the node whose words it continues in */
  int tail_len;       /* slots shared with tail_of (0: none; inst_merge.c) */
  int pre_of;         /* pre_len > 0: the node whose first words it runs */
  int pre_len;        /* slots shared with pre_of (0: none; inst_signals.c) */
  int pre_sig;        /* the signal pre_of's word pre_len - 1 branches on */
} inst_kclass;

/* A CFG edge (Algorithm 3): control passes from kernel class `from` to `to`
 * (-1: halt) after the iterations T (source side, see docs). */
typedef struct {
  int from, to;
  isl_set *t;
} inst_edge;

/* The program of one FU in one processor class. */
typedef struct {
  int fu;
  int empty;          /* no instruction in this class: no PROGRAM packet */
  int64_t epilog;     /* epilog pseudo-iterations after the tile */
  isl_set *dom;       /* J u E of this FU program */
  isl_set **folded;   /* [nleaves] folded leaf domains (NULL: other FU) */
  int nk;
  inst_kclass *k;
  int ne;
  inst_edge *e;
  int nwords;
  isa_word *words;
  isa_insn *insns;    /* [nwords] the same, decoded (for the listing) */
  int nk_orig;        /* kernel classes before merging (inst_merge.c) */
  int body_orig;      /* words of one copy of the unmerged CFG's kernels */
  int halt_orig;      /* 1: the unmerged program needs a `nop ; halt` word */
  int halt_late;      /* 1: a branch reaches the halt, in the `nop ; halt` word
                         after the kernels: the FU halts one cycle after its
                         last step (engine_predict.c) */
  int nwords_orig;    /* words of the program without the size reductions */
} inst_fuprog;

/* A processor class: the PEs k (index along the region) that run it. */
typedef struct {
  isl_set *pes;       /* over K */
  int rep;            /* a representative PE (smallest k) */
  inst_fuprog *fp;    /* [nfu] */
} inst_pclass;

/* A global control signal: per processor class c, where it is 1 (ones[c])
 * and where 0 (zeros[c]) over J, the rest don't care; NULL: nowhere. The
 * GC terms tell the classes apart by PE ranges (docs/stream.md), so the
 * classes' parts never interfere (inst_signals.c). */
typedef struct {
  isl_set **ones, **zeros; /* [npc] */
  isl_set *ones_all, *zeros_all; /* the union over the classes, built in colouring
                                  * order (the terms of a colour that is one
                                  * function of J on all PEs, inst_emit.c) */
} inst_signal;

/* Per access: the bank chosen and the placement on each PE. In 2-D (and
 * in 1-D when the region's side runs out of banks, inst_io.c; else the
 * per-PE arrays are NULL) the side, bank and route differ per PE:
 * pside/pbank are the side and bank of the border PE (prow, pcol) whose
 * bank serves PE k, hops the pass-through hops between them (0: the PE's
 * own bank; always in 1-D). */
typedef struct {
  int side, bank;     /* stream_side, bank index (1-D; per PE: of its first PE) */
  int *pside, *pbank, *prow, *pcol, *hops; /* [t], -1 side: PE k has no access */
  int64_t *lag;       /* [t] bank event of PE k's access on the border PE's AG, relative to
                         PE k's own: d(k) - d(border PE) -/+ hops (read/write); 0 in 1-D */
  int64_t *elem_lin;  /* [t * P] linear element per (k, s(J)); -1 none */
  int64_t stride[AST_MAX_DIMS]; /* address = a0 + stride . J on every PE */
  int64_t a0, range;  /* range: bank words a tile spans */
} inst_io;

/* Options of an instantiation (inst_run_opts); all zero: the defaults.
 * Each turns a transformation off or forces it everywhere, to compare with
 * it (`tcpa instantiate` and `tcpa run`: --no-fifo-check, --share-all,
 * --prolog-nops; docs/instantiate.md). */
typedef struct {
  int no_fifo_check; /* 1: skip inst_fifo_check (to show the overflow it prevents) */
  int share_all;     /* 1: share kernel tails and prefixes in every program,
                        not only in those that need more than pe.imem words */
  int prolog_nops;   /* 1: the prolog as sigma * pi nops, never a loop */
  int no_waits;      /* 1: every nop a word of its own, no `nop N` (docs/isa.md) */
  int waits_blind;   /* 1: kernel sharing counts every nop as a word (inst_run.c
                        retries so when a program with waits exceeds pe.imem) */
  int sig_global;    /* 1: every control signal one function of J on all PEs (GC
                        terms without PE ranges; inst_run_opts falls back to it) */
  int gc;            /* the global controller of the GC and START packets
                        (0; a job's runs each their own, docs/user-guide.md) */
  int row0, col0;    /* the region's origin in the array (--pes RxC@ROW,COL;
                        docs/instantiate.md "Origin"): the region's PE (r, c)
                        is the array's (row0 + r, col0 + c) */
} inst_opts;

/* The maps inst_succ built, by n: the same few n (-1 for the CFG's
 * predecessors, the fold distances, sigma) recur for every kernel class,
 * leaf and signal, and building a map (2^(n-1) pieces parsed) cost half
 * of an instantiation. */
enum { INST_SUCC_MEMO = 16 };
typedef struct {
  int64_t n[INST_SUCC_MEMO];
  isl_map *map[INST_SUCC_MEMO];
  int count;
  isl_map *scan; /* inst_first_seq's J -> J in scan order (slowest first), or NULL */
  int64_t ext_steps[INST_SUCC_MEMO]; /* inst_ext_domain's sets by step count */
  isl_set *ext[INST_SUCC_MEMO];
  int ext_count;
} inst_succ_memo;

/* The GC terms of one signal as inst_gc_sig_terms computed them (the
 * words of the GC packet, docs/stream.md "GC payload"), with the inputs
 * they came from: references to the signal's sets (held, so that no set a
 * writer frees and builds anew can take the address of one recorded
 * here: a writer that changes a signal's sets changes the key), sigma,
 * the GC epilog, whether it is the prolog signal, the colouring form and
 * the classes (inst_emit.c). */
typedef struct {
  int used;           /* 1: holds a result for the inputs below */
  isl_set **key;      /* [2 npc + 2]: ones[c], zeros[c], ones_all, zeros_all */
  int sigma, prolog, by_class, npc;
  int64_t epilog;
  int rc, nterms, bad; /* inst_gc_sig_terms's status, terms, not expressible */
  int merge;          /* per class: the pieces merged into hulls */
  uint32_t *w;        /* the terms' words (signal word, constraints) */
  int nw, wbad;       /* words; a value beyond 32 bits */
} inst_gc_memo_entry;

/* Per signal its last two results, the newest first: a polarity flip
 * swaps the signal's sets, and flipping back finds the first polarity's
 * terms again (inst_signals_polarity). */
typedef struct {
  inst_gc_memo_entry e[ISA_MAX_SIGNALS][2];
} inst_gc_memo;

typedef struct {
  isl_ctx *ctx;
  const map_config *m;
  arch_config arch;
  int n;                           /* loop dimensions */
  int64_t params[AST_MAX_PARAMS];
  int64_t lo[AST_MAX_DIMS], E[AST_MAX_DIMS], seq[AST_MAX_DIMS];
  int64_t P;                       /* iterations of a tile: prod E */
  int64_t p;                       /* tile size (2-D: of the rows' dimension) */
  int t, t_req;                    /* PEs used, PEs of the region (2-D: tr*tc, rows*cols) */
  int rows, cols;                  /* the region */
  int tr, tc;                      /* PE rows and columns used (1-D: 1 x t or t x 1) */
  int64_t p2;                      /* 2-D: tile size of the columns' dimension */
  int64_t ext, ext2;               /* extents of the tiled dimension(s) before tiling
                                    * (a last tile holds ext - (t - 1) p iterations) */
  int64_t lk;                      /* lambda^K (2-D: of the rows, delay_row) */
  int64_t lk2;                     /* 2-D: lambda^K of the columns (delay_col) */
  int fd_depth[ISA_MAX_REGS];
  isl_set **leaf;                  /* [nleaves] over [J, K] */
  isl_set **acc;                   /* [naccess] over [J, K] */
  isl_set *kdom;                   /* the PEs: over K */
  int nfu;
  /* classes */
  int npc;
  inst_pclass *pc;
  int *pe_class;                   /* [t] */
  int npattern;                    /* distinct inter-tile domains */
  int npc_algo;                    /* classes of Algorithm 1, before inst_classes_merge */
  uint32_t *od_cut;                /* [t] or NULL: bit j set: PE k writes od j toward a
                                    * neighbour outside the region, its wrapper leaves out
                                    * every connection od j drives (inst_classes.c) */
  /* signals */
  int nsig;
  inst_signal sig[ISA_MAX_SIGNALS];
  int nlocal;                      /* local signals before colouring */
  int sig_by_class;                /* 1: signals coloured per processor class (PE ranges) */
  int sigma;                       /* prolog steps (early input reads) */
  int prolog_loop;                 /* 1: the prolog is one pi-word block looping on
                                    * signal prolog_sig (inst_prolog); 0: sigma * pi nops */
  int prolog_sig;                  /* prolog_loop: its signal; sig[] over GC steps, not J */
  int shared;                      /* 1: kernel sharing chosen (inst_signals) */
  fit_record fit;                  /* INST_ERR_NOFIT: what ran out (fit.h); the
                                    * message is made from it */
  int passes;                      /* instantiations inst_run_pass ran (2: retried
                                    * without waits in the sharing, inst_run.c) */
  int prolog_why;                  /* sigma >= 2 without the loop: INST_PROLOG_* */
  int64_t epilog;                  /* GC epilog steps */
  inst_io *io;                     /* [naccess] */
  uint32_t *wsink;                 /* 2-D, 1-D placed per PE: [t * (pe.id + 4 ports)] WRAPPER
                                      sinks of each PE; NULL: one WRAPPER for the region */
  int64_t array_ext[64][AST_MAX_DIMS]; /* per array: bounding box extents */
  int array_nd[64];
  inst_opts opt;                   /* the options of inst_run_opts */
  inst_succ_memo *succ_memo;       /* inst_succ's maps (mutable behind a const inst) */
  inst_gc_memo *gc_memo;           /* each signal's GC terms (mutable behind a const inst;
                                    * NULL: every form built anew on every call) */
  map_config *own;                 /* fd chains (inst_chain.c): the mapping with its chain
                                    * movs, a shallow copy m points to; NULL: none */
} inst;

/* Returns INST_OK and fills *x (concretization); INST_ERR_INPUT for a
 * missing/unknown parameter or a region of the wrong shape, INST_ERR_NOFIT
 * for a region larger than the array or an fd too deep; msg says why. */
int inst_concretize(inst *x, const map_config *m, const arch_config *arch, int nparam,
                    char **pname, const int64_t *pval, int rows, int cols, char *msg, size_t msgsz);

/* Frees everything x owns (and its isl context). */
void inst_free(inst *x);

/* Returns the set { J : 0 <= J_d < E_d for every dimension but the slowest,
 * J_slowest >= 0, s(J) < steps } (the tile plus epilog pseudo-iterations). */
__isl_give isl_set *inst_ext_domain(const inst *x, int64_t steps);

/* Returns 0 and the chain mov's offset *tau (residue `residue` mod ii)
 * with the depths *dx of the fd its writers write and *dy of the fd its
 * readers read, for a delay of s iterations from writes readable at w_min
 * .. w_max to reads issued at r_min .. r_max, the mov's latency lat: the
 * smallest offset whose depths are both <= fd_depth (inst_chain.c); -1
 * when none is. */
int inst_chain_split(int ii, int64_t s, int w_min, int w_max, int r_min, int r_max, int lat, int fd_depth,
                     int residue, int *tau, int64_t *dx, int64_t *dy);

/* Returns INST_OK after splitting the fd of register record r of x->m,
 * whose depth dep exceeds pe.fd_depth, over itself and a free fd chained
 * by a mov in a free ALU slot (x->m then points to x->own);
 * INST_ERR_NOFIT with the reason in msg when no free fd, slot or offset
 * fits. */
int inst_chain(inst *x, int r, int64_t dep, char *msg, size_t msgsz);

/* Frees x->own (inst_free). */
void inst_chain_free(inst *x);

/* Returns succ(S, n): the n-th successors of the iterations of S over J. */
__isl_give isl_set *inst_succ(const inst *x, __isl_take isl_set *s, int64_t n);

/* Sets *r, *c to the region row and column of PE number k. */
void inst_pe_rc(const inst *x, int k, int *r, int *c);

/* Returns the start delay of PE k (the GC packet's delay0 + delay_row r +
 * delay_col c, timing.md 2). */
int64_t inst_pe_delay(const inst *x, int k);

/* Appends printf text to buf (size sz, used *len); returns 0, -1 when full
 * (the isl texts the steps build). */
int inst_cat(char *buf, size_t sz, size_t *len, const char *fmt, ...);

/* Returns the fibre { J : (J, K=k) in s } of a set over [J, K] (split). */
__isl_give isl_set *inst_split(const inst *x, __isl_keep isl_set *s, int k);

/* Returns s(J) = sum seq[k] * J_k of the point pt (J in dimension order). */
int64_t inst_point_seq(const inst *x, __isl_keep isl_point *pt);

/* Returns s(J) of the lexicographically... the smallest sequence number in
 * a nonempty set over J, or -1 when empty. */
int64_t inst_first_seq(const inst *x, __isl_keep isl_set *s);

/* Algorithm 1: returns the number of parts and in *out the nonempty parts
 * of d according to the conditions c[0..nc-1] (NULL entries skipped);
 * takes d; -1 on error. */
int inst_partition(__isl_take isl_set *d, isl_set **c, int nc, isl_set ***out);

/* Returns INST_OK after computing the processor classes. */
int inst_classes(inst *x, char *msg, size_t msgsz);

/* Returns INST_OK after merging the processor classes whose programs are
 * equal word for word on every FU (inst_classes.c); INST_ERR_INTERNAL. */
int inst_classes_merge(inst *x);

/* Clears, in the nsink WRAPPER sinks `sink` of PE k, every sink driven by
 * an od x->od_cut marks on k (an od write widened onto the region's far
 * edge, inst_classes.c); returns the number of sinks cleared. */
int inst_classes_cut_sinks(const inst *x, int k, uint32_t *sink, int nsink);

/* Frees the program of one FU of a processor class. */
void inst_fuprog_free(const inst *x, inst_fuprog *f);

/* Returns INST_OK after folding and computing kernel classes and kernels
 * for every processor class and FU. */
int inst_fold(inst *x, char *msg, size_t msgsz);

/* Returns INST_OK after building the CFG of every FU program. */
int inst_cfg(inst *x, char *msg, size_t msgsz);

/* Merges the kernel classes of f whose kernels are identical (the ii
 * instructions and, per slot, the fold distance fold[op] = floor(tau / ii)
 * of the op issued; fold NULL: instructions only): the merged node has the
 * union of the iteration sets and of the outgoing edges, parallel edges
 * joined. Returns the number of kernel classes removed, -1 on error. */
int inst_merge_fu(inst_fuprog *f, int ii, const int *fold);

/* Returns the number of last slots kernel classes v and w of f have in
 * common (same instruction and fold distance, as inst_merge_fu). */
int inst_merge_suffix(const inst_fuprog *f, int v, int w, int ii, const int *fold);

/* Makes node v of f continue in node w's words from slot ii - m on (its
 * last m slots equal w's): v's outgoing edges move to the root of w's
 * chain (parallel edges joined) and every node's host is re-resolved.
 * Returns 0, -1 on error. */
int inst_merge_tail(inst_fuprog *f, int v, int w, int m);

/* Returns the number of first slots kernel classes v and w of f have in
 * common (same instruction and fold distance). */
int inst_merge_prefix(const inst_fuprog *f, int v, int w, int ii, const int *fold);

/* Returns the root of node v's tail chain (v itself when it has none). */
int inst_merge_root(const inst_fuprog *f, int v);

/* Returns the words program generation gives a kernel of ii slots whose
 * CFG node has d outgoing edges (halt included), pe.branch_targets bt. */
int inst_node_words(int ii, int bt, int d);

/* Returns INST_OK after allocating control signals; INST_ERR_NOFIT when
 * more than gc.signals are needed (msg: needed and available). */
int inst_signals(inst *x, char *msg, size_t msgsz);

/* Why a prolog of sigma >= 2 steps stays sigma * pi nops (inst.prolog_why). */
enum { INST_PROLOG_NOSIG = 1, INST_PROLOG_TERMS, INST_PROLOG_OFF, INST_PROLOG_WAIT };

/* Returns INST_OK after choosing each kernel signal's polarity
 * (inst_signals.c): a signal whose zeros take fewer GC terms than its
 * ones is inverted (its ones and zeros swapped, and in every node that
 * branches on it the target index table mirrored along its bit). Run
 * after sigma is set, before the prolog. */
int inst_signals_polarity(inst *x);

/* Returns the GC terms signal s takes (inst_emit.c), -1 when one cannot
 * be written. */
int inst_gc_sig_nterms(const inst *x, int s);

/* Returns INST_OK after choosing the prolog's form (inst_signals.c): for
 * sigma >= 2, a loop of one pi-word block of nops whose last word branches
 * back while a new global signal is 1 (1 in GC steps 0..sigma-2, 0 in step
 * sigma-1; x->prolog_loop, x->prolog_sig, x->nsig + 1), when gc.signals,
 * the GC terms and pe.branch_targets allow; else sigma * pi nops
 * (x->prolog_why says why; x->opt.prolog_nops forces them, for
 * comparisons). Run after the placement sets sigma. */
int inst_prolog(inst *x, char *msg, size_t msgsz);

/* Returns the words of the prolog every FU program starts with: pi for a
 * loop, else sigma * pi. */
int inst_prolog_words(const inst *x);

/* Returns the GC steps where signal s is 1 on the PEs of processor class
 * c, as a set over J of the GC's extended domain, and in *care (may be
 * NULL) where its value matters there: kernel signals shifted by sigma
 * steps, the prolog signal as it is (inst_emit.c). */
__isl_give isl_set *inst_gc_class_ones(const inst *x, int s, int c, isl_set **care);

/* Returns the GC steps where the terms of signal s that apply to PE 0
 * hold, as a set over J (inst_emit.c builds the terms). */
__isl_give isl_set *inst_gc_ones(const inst *x, int s);

/* Frees the sets of signal g (x->npc classes). */
void inst_signal_free(const inst *x, inst_signal *g);

/* Frees the GC term memo mm (its entries' sets and words; NULL: nothing). */
void inst_gc_memo_free(inst_gc_memo *mm);

/* Returns the number of GC terms all signals need, -1 when one is not
 * expressible (existential variables or more than 2 x gc.dims constraints). */
int inst_gc_nterms(const inst *x);

/* Returns INST_OK after generating every FU program; INST_ERR_NOFIT when
 * one exceeds pe.imem or needs more branch levels than its kernel has. */
int inst_proggen(inst *x, char *msg, size_t msgsz);

/* Returns the largest number of tokens a FIFO holds (inst_fifo.c): tokens
 * pushed at the end of the sorted cycles push[0..np-1] + push_shift, popped
 * at the end of the sorted cycles pop[0..nq-1] + pop_shift (in one cycle the
 * pop comes first; a pop of an empty FIFO pops nothing). */
int64_t inst_fifo_occupancy(const int64_t *push, int np, int64_t push_shift, const int64_t *pop, int nq,
                            int64_t pop_shift);

/* Returns INST_OK when no propagation channel ever holds more than
 * pe.fifo_depth tokens in its consumer's input FIFO under the concrete
 * schedule; INST_ERR_NOFIT naming the channel, the PEs, the tokens and the
 * depth otherwise (inst_fifo.c). */
int inst_fifo_check(inst *x, char *msg, size_t msgsz);

/* Input values: array a's row-major values (vals[a] NULL: zeros). */
typedef struct {
  int32_t **vals;
  int64_t *count;
} inst_data;

/* Returns INST_OK after placing I/O accesses in banks (sides, banks,
 * addresses); INST_ERR_NOFIT when banks or bank depth do not suffice. */
int inst_place_io(inst *x, char *msg, size_t msgsz);

/* Computes the iteration J of sequence number s < P (inst_io.c). */
void inst_io_unseq(const inst *x, int64_t s, int64_t *J);

/* Returns the bank address of iteration J for access a (inst_io.c). */
int64_t inst_io_address(const inst *x, int a, const int64_t *J);

/* Returns INST_OK after choosing, for a 2-D region, the bank of every
 * access on every PE that has one (its own on the array border, else one
 * reached by pass-through hops from the north or west border) and the
 * WRAPPER sinks of every PE (x->wsink); INST_ERR_NOFIT naming the side,
 * row or column and the channels needed and available when the
 * interconnect cannot carry an access (inst_io2d.c). */
int inst_place_io_2d(inst *x, char *msg, size_t msgsz);

/* Returns INST_OK after allocating the per-PE placement arrays of every
 * access (pside -1: no bank on any PE yet; the others zero; inst_io.c),
 * INST_ERR_INTERNAL when out of memory. */
int inst_io_pe_alloc(inst *x);

/* Frees the per-PE placement of every access (pside, pbank, prow, pcol,
 * hops, lag; set to NULL) and the WRAPPER sinks x->wsink: what
 * inst_place_io_2d (or inst_place_io per PE) allocates, freed by inst_free and before each new
 * placement attempt (inst_io2d.c). */
void inst_io_reset(inst *x);

/* Returns INST_OK after appending every packet (REGCFG, PROGRAM, WRAPPER,
 * GC, AG, IODATA, START) to w. */
int inst_emit(inst *x, const inst_data *data, stream_writer *w, char *msg, size_t msgsz);

/* Writes the human-readable listing of x to f. */
void inst_listing(const inst *x, FILE *f);

/* Writes the processor classes and each class's CFGs of x to f as a
 * Graphviz digraph (docs/instantiate.md "Pictures"). */
void inst_dot(const inst *x, FILE *f);

/* Returns rectangle r of the region (its PEs numbered from the region's
 * first) as the array's: shifted by the origin (inst_opts.row0, col0). */
static inline stream_rect inst_at(const inst *x, stream_rect r) {
  r.row0 += x->opt.row0;
  r.col0 += x->opt.col0;
  return r;
}

/* Where one output element lands after done: bank word addr of bank
 * `bank` on side `side` (stream_side) of the array's PE (row, col). */
typedef struct {
  int array;          /* the program's array */
  int64_t lin;        /* row-major index over the array's bounding box
                         (array_ext) */
  int row, col, side, bank;
  int64_t addr;
} inst_place;

/* Receives one placement (inst_layout_each). */
typedef void (*inst_place_fn)(const inst_place *pl, void *ctx);

/* Calls fn(pl, ctx) for every element an output access writes, in the
 * order of inst_layout's lines. */
void inst_layout_each(const inst *x, inst_place_fn fn, void *ctx);

/* Writes "ARRAY INDEX ROW COL SIDE BANK ADDR" lines for every element an
 * output access writes (where the harness finds it after done) to f. */
void inst_layout(const inst *x, FILE *f);

/* Returns a printable form of an isl set over J (malloc'ed). */
char *inst_set_str(__isl_keep isl_set *s);

/* Runs every step (concretize .. proggen and placement); INST_OK or the
 * first failing status. */
int inst_run(inst *x, const map_config *m, const arch_config *arch, int nparam, char **pname,
             const int64_t *pval, int rows, int cols, char *msg, size_t msgsz);

/* Returns inst_run's result with options o (NULL: the defaults). */
int inst_run_opts(inst *x, const inst_opts *o, const map_config *m, const arch_config *arch, int nparam,
                  char **pname, const int64_t *pval, int rows, int cols, char *msg, size_t msgsz);

/* Returns the words of every FU program of every processor class of x
 * (what the mapping search compares at equal II). */
int inst_program_words(const inst *x);

/* What inst_check instantiates with: the parameter values and the region
 * (as `tcpa instantiate --param --pes`), the options (NULL: defaults). */
typedef struct {
  const inst_opts *o;
  int nparam;
  char **pname;
  const int64_t *pval;
  int rows, cols;
} inst_check_ctx;

/* map_search_check (map_search.h) for `tcpa compile --pes --param`:
 * returns INST_OK when m instantiates and its stream is written (inputs
 * zero) on m's architecture with ctx's (an inst_check_ctx) parameters and
 * region, *words its program words; else the status, *why what ran out. */
int inst_check(void *ctx, const map_config *m, fit_record *why, int *words, char *msg, size_t msgsz);

#endif
