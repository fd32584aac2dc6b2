/*
 * tcpa_rt.h: the host runtime of a TCPA (docs/runtime.md), the one public
 * header of libtcpa_rt. A host program opens an array (an architecture
 * file and an engine), loads symbolic configurations made by
 * `tcpa compile` (.sym), allocates regions of PEs, and for each kernel:
 * sets its parameters, instantiates it into a region, writes its input
 * arrays, starts it, waits for it (with a timeout in cycles), reads its
 * output arrays; then changes parameters or inputs and runs it again
 * without compiling anything, and frees what it allocated. Several
 * kernels run at once, each in its own region. A problem too large for
 * its region's banks runs in chunks (tcpa_rt_run_tiled, docs/tiling.md).
 *
 * Every call returns a tcpa_rt_status; the sentence that says what went
 * wrong is apart (tcpa_rt_message), and so is the refusal as data
 * (tcpa_rt_last_error: which resource, needed, available, the region in
 * the way). No call aborts the host process on bad input.
 *
 * Objects are owned by their array: tcpa_rt_close frees every kernel and
 * region still allocated. Nothing here is thread-safe: one array is used
 * by one thread at a time.
 */
#ifndef TCPA_RT_H
#define TCPA_RT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a call returns (as ADF's return_code). */
typedef enum {
  TCPA_RT_OK = 0,
  TCPA_RT_INVALID,     /* a bad argument: NULL, an unknown name, a value
                          outside the program's domain, a wrong count */
  TCPA_RT_STATE,       /* a call out of order: start before instantiate,
                          read before done, free while running */
  TCPA_RT_FILE,        /* a file that cannot be read or is not well formed */
  TCPA_RT_NOFIT,       /* a region or resource refused (tcpa_rt_last_error
                          says which, needed and available) */
  TCPA_RT_TIMEOUT,     /* wait: the cycles ran out, the kernel still runs */
  TCPA_RT_ENGINE,      /* the engine refused the configuration or faulted */
  TCPA_RT_UNSUPPORTED, /* an engine or feature not supported yet */
  TCPA_RT_INTERNAL     /* out of memory, or a bug of the runtime */
} tcpa_rt_status;

/* The engines an array runs on. */
typedef enum {
  TCPA_RT_ENGINE_MODEL = 0, /* the cycle-accurate C model (docs/model.md) */
  TCPA_RT_ENGINE_RTL,       /* the Verilated RTL: not supported yet */
  TCPA_RT_ENGINE_COSIM,     /* model and RTL in lockstep: not supported yet */
  TCPA_RT_ENGINE_SYSTEMC    /* SystemC: not supported yet */
} tcpa_rt_engine;

/* Why a call was refused, as data (tcpa_rt_error.why). */
typedef enum {
  TCPA_RT_WHY_NONE = 0,
  TCPA_RT_WHY_OUTSIDE,     /* the region does not fit inside the array */
  TCPA_RT_WHY_OVERLAP,     /* the region overlaps an allocated one (.region) */
  TCPA_RT_WHY_NO_GC,       /* every global controller drives a region */
  TCPA_RT_WHY_NO_ROOM,     /* first fit: no free rectangle of that size */
  TCPA_RT_WHY_RESOURCE,    /* the kernel does not fit the region (.resource) */
  TCPA_RT_WHY_STREAMS,     /* the engine holds as many streams in flight as
                              it can: wait for a kernel first */
  TCPA_RT_WHY_DEPENDENCE   /* tcpa_rt_run_tiled: the program's dependences
                              let no loop be cut (tcpa_rt_tile_info says
                              why, per loop) */
} tcpa_rt_why;

/* The last refusal of an array, as data: what code acts on. */
typedef struct {
  tcpa_rt_status status; /* of the last call that failed (TCPA_RT_OK: none) */
  tcpa_rt_why why;
  int region;            /* TCPA_RT_WHY_OVERLAP: the id of the region in the
                            way; else -1 */
  char resource[32];     /* the architecture key that ran out ("array.rows",
                            "gc.count", "pe.imem", ...); "" none */
  long long needed, available; /* of that resource; -1: not a count */
} tcpa_rt_error;

typedef struct tcpa_rt_array tcpa_rt_array;
typedef struct tcpa_rt_region tcpa_rt_region;
typedef struct tcpa_rt_kernel tcpa_rt_kernel;

/* The shape of one array of a kernel (tcpa_rt_array_info). */
typedef struct {
  int is_output;         /* 0: an input (write it), 1: an output (read it) */
  int ndims;             /* 0: a scalar */
  long long extent[8];   /* row-major extents, [0] the slowest */
  size_t count;          /* elements: the product of the extents */
} tcpa_rt_array_shape;

/* Returns the name of status s ("ok", "invalid", ...). */
const char *tcpa_rt_status_name(tcpa_rt_status s);

/* Returns the sentence of the last failed call on a (""  when none; a
 * NULL array: the last tcpa_rt_open failure). Valid until the next call. */
const char *tcpa_rt_message(const tcpa_rt_array *a);

/* Returns TCPA_RT_OK and the last refusal of a in *e. */
tcpa_rt_status tcpa_rt_last_error(const tcpa_rt_array *a, tcpa_rt_error *e);

/* Returns TCPA_RT_OK and a new array in *a: architecture file arch_path
 * (NULL: the embedded default, configs/default.ini) on engine `engine`.
 * TCPA_RT_FILE for an unreadable or invalid file, TCPA_RT_UNSUPPORTED for
 * an engine not supported yet (*a NULL; tcpa_rt_message(NULL) says why). */
tcpa_rt_status tcpa_rt_open(const char *arch_path, tcpa_rt_engine engine, tcpa_rt_array **a);

/* Frees a and everything it owns (kernels, regions); NULL is fine. */
void tcpa_rt_close(tcpa_rt_array *a);

/* Returns TCPA_RT_OK and the rows and columns of the array. */
tcpa_rt_status tcpa_rt_array_size(const tcpa_rt_array *a, int *rows, int *cols);

/* ---- regions ---- */

/* Returns TCPA_RT_OK and in *r the region of rows x cols PEs whose first
 * PE is the array's (row0, col0), driven by a free global controller;
 * TCPA_RT_NOFIT when it leaves the array, overlaps an allocated region or
 * no controller is free (tcpa_rt_last_error says which). */
tcpa_rt_status tcpa_rt_region_alloc(tcpa_rt_array *a, int rows, int cols, int row0, int col0, tcpa_rt_region **r);

/* Returns tcpa_rt_region_alloc's result for the first free rectangle of
 * rows x cols PEs, rows first then columns (row-major order of its first
 * PE); TCPA_RT_NOFIT, why TCPA_RT_WHY_NO_ROOM, when none is free. */
tcpa_rt_status tcpa_rt_region_alloc_fit(tcpa_rt_array *a, int rows, int cols, tcpa_rt_region **r);

/* Returns TCPA_RT_OK and region r's place: id (its number while
 * allocated), rows, cols, first PE and its global controller (any
 * pointer may be NULL). */
tcpa_rt_status tcpa_rt_region_info(const tcpa_rt_region *r, int *id, int *rows, int *cols, int *row0, int *col0,
                                   int *gc);

/* Returns TCPA_RT_OK after freeing region r; TCPA_RT_STATE while a kernel
 * instantiated into it has not been freed or moved away. */
tcpa_rt_status tcpa_rt_region_free(tcpa_rt_region *r);

/* ---- kernels ---- */

/* Returns TCPA_RT_OK and in *k the kernel of symbolic configuration
 * sym_path (made by `tcpa compile` for this architecture); TCPA_RT_FILE
 * when it cannot be read, TCPA_RT_INVALID when it was compiled for
 * another architecture. */
tcpa_rt_status tcpa_rt_kernel_load(tcpa_rt_array *a, const char *sym_path, tcpa_rt_kernel **k);

/* Returns what tcpa_rt_kernel_load does, for a symbolic configuration
 * held in memory (sym_text: a .sym's whole text, NUL-terminated, as
 * `tcpa host` embeds it) and named `what` in messages (NULL: "(embedded
 * .sym)"). */
tcpa_rt_status tcpa_rt_kernel_load_text(tcpa_rt_array *a, const char *what, const char *sym_text,
                                        tcpa_rt_kernel **k);

/* Frees kernel k (running or not: a running kernel is dropped from the
 * engine's bookkeeping, its region's PEs left as they are). */
void tcpa_rt_kernel_free(tcpa_rt_kernel *k);

/* Returns the program's name of k ("" for NULL). */
const char *tcpa_rt_kernel_name(const tcpa_rt_kernel *k);

/* Returns TCPA_RT_OK after setting parameter `name` of k to value (taken
 * at the next tcpa_rt_instantiate); TCPA_RT_INVALID for an unknown name
 * or a value outside 1 .. 2^31-1 (every parameter is >= 1). */
tcpa_rt_status tcpa_rt_param_set(tcpa_rt_kernel *k, const char *name, long long value);

/* Returns TCPA_RT_OK after instantiating k for its parameters into region
 * r (natively from the .sym: nothing is compiled). Every parameter must
 * be set. Input arrays start at zero. TCPA_RT_INVALID for a missing
 * parameter, values outside the program's domain or a region of the wrong
 * shape (1xC for a .sym compiled for columns, Rx1 for rows, any RxC for
 * one compiled with --map I,J); TCPA_RT_NOFIT when the kernel does not fit
 * the region (tcpa_rt_last_error: the resource); TCPA_RT_STATE while k
 * runs. On failure k keeps no instantiation. */
tcpa_rt_status tcpa_rt_instantiate(tcpa_rt_kernel *k, tcpa_rt_region *r);

/* Returns tcpa_rt_param_set's result and then, if k is instantiated, the
 * result of instantiating it again into its region for the new value:
 * ADF's update() of a run-time parameter. Input values are kept when
 * their array keeps its shape, else zero. */
tcpa_rt_status tcpa_rt_update(tcpa_rt_kernel *k, const char *name, long long value);

/* Returns TCPA_RT_OK and the shape of array `name` of instantiated k;
 * TCPA_RT_INVALID for an unknown name, TCPA_RT_STATE before
 * tcpa_rt_instantiate. */
tcpa_rt_status tcpa_rt_array_info(const tcpa_rt_kernel *k, const char *name, tcpa_rt_array_shape *s);

/* Returns TCPA_RT_OK after copying vals[0..n) (row-major) into input
 * array `name` of instantiated k, for its next start; TCPA_RT_INVALID for
 * an unknown name, an output, or n other than the array's count. */
tcpa_rt_status tcpa_rt_write(tcpa_rt_kernel *k, const char *name, const int32_t *vals, size_t n);

/* Returns TCPA_RT_OK after starting instantiated k with its inputs (a
 * configuration stream made and handed to the engine, loaded beside the
 * kernels already running); TCPA_RT_STATE when k is not instantiated or
 * still runs; TCPA_RT_NOFIT, why TCPA_RT_WHY_STREAMS, when the engine
 * holds four streams in flight. */
tcpa_rt_status tcpa_rt_start(tcpa_rt_kernel *k);

/* Returns TCPA_RT_OK once k is done (its cycles, start to done, in
 * *cycles, may be NULL), running the engine for at most timeout cycles
 * (0: up to TCPA_RT_WAIT_MAX); TCPA_RT_TIMEOUT when the cycles ran out
 * first (k keeps running: wait again); TCPA_RT_STATE when k was not
 * started; TCPA_RT_ENGINE when the engine stopped or faulted. */
tcpa_rt_status tcpa_rt_wait(tcpa_rt_kernel *k, unsigned long long timeout, unsigned long long *cycles);
#define TCPA_RT_WAIT_MAX 100000000ull

/* Returns TCPA_RT_OK after copying output array `name` of k's last run
 * (row-major) into vals[0..n); TCPA_RT_STATE before that run is done,
 * TCPA_RT_INVALID for an unknown name, an input, or n other than the
 * array's count. */
tcpa_rt_status tcpa_rt_read(const tcpa_rt_kernel *k, const char *name, int32_t *vals, size_t n);

/* Returns tcpa_rt_write's result for the values of the data file at
 * `path` (docs/user-guide.md "Data files": whitespace-separated integers,
 * row-major, exactly the array's count); TCPA_RT_FILE when the file
 * cannot be read or does not hold them (the message names it; the data
 * file reader also prints FILE:LINE:COLUMN on stderr). */
tcpa_rt_status tcpa_rt_write_file(tcpa_rt_kernel *k, const char *name, const char *path);

/* Returns tcpa_rt_read's result after writing output array `name` of k's
 * last run to the data file at `path` (one innermost row per line, a
 * blank line between 2-D slices, as tcpa run writes), atomically;
 * TCPA_RT_FILE when it cannot be written (nothing is left half-written). */
tcpa_rt_status tcpa_rt_read_file(const tcpa_rt_kernel *k, const char *name, const char *path);

/* Returns TCPA_RT_OK after running the reference interpreter of program
 * pla_path (the source k's .sym was compiled from) on k's parameters and
 * input arrays as last written, and copying its output array `name` into
 * vals[0..n) in tcpa_rt_read's order: the values k's run must produce.
 * TCPA_RT_FILE when the program cannot be read, TCPA_RT_INVALID when it
 * is not k's program or the interpreter refuses the run. */
tcpa_rt_status tcpa_rt_reference(const tcpa_rt_kernel *k, const char *pla_path, const char *name, int32_t *vals,
                                 size_t n);

/* ---- problems larger than the banks (docs/tiling.md) ---- */

/* What a loop is to tcpa_rt_run_tiled (tcpa_rt_tile_info.kind). */
typedef enum {
  TCPA_RT_TILE_FIXED = 0, /* cannot be cut: .why says why */
  TCPA_RT_TILE_FREE,      /* no value flows between its chunks */
  TCPA_RT_TILE_ACCUM      /* accumulations: combined, or carried from chunk
                             to chunk as the initial value */
} tcpa_rt_tile_kind;

/* Why a loop cannot be cut (docs/tiling.md "The rule"). */
typedef enum {
  TCPA_RT_TILE_WHY_NONE = 0,
  TCPA_RT_TILE_WHY_BOUNDS,    /* not 0 <= i < P for a parameter P */
  TCPA_RT_TILE_WHY_SHARED,    /* P also bounds another loop, or is in an
                                 index or another condition */
  TCPA_RT_TILE_WHY_CARRIED,   /* a value read at another iteration, neither
                                 a propagation nor an accumulation */
  TCPA_RT_TILE_WHY_INDEX,     /* an index names i other than as i + c alike */
  TCPA_RT_TILE_WHY_CONDITION, /* a condition names i elsewhere */
  TCPA_RT_TILE_WHY_PARTIAL,   /* a partial result read elsewhere */
  TCPA_RT_TILE_WHY_OUTPUT     /* an output written without i otherwise */
} tcpa_rt_tile_why;

/* What tcpa_rt_run_tiled decided and did, as data. */
typedef struct {
  int ndims;                      /* the program's loops */
  tcpa_rt_tile_kind kind[8];      /* per loop */
  tcpa_rt_tile_why why[8];        /* per fixed loop: why */
  int line[8];                    /* per fixed loop: the reason's source line (0: none) */
  long long extent[8], chunk[8];  /* per loop: the whole's extent, a chunk's
                                     (equal: not cut) */
  long long chunks;               /* chunks run */
  int instantiations;             /* of the chunks (one per chunk shape) */
  int tries;                      /* instantiations tried for the sizes */
  unsigned long long cycles;      /* the chunks' cycles, summed (start to done each) */
  unsigned long long max_cycles;  /* the longest chunk's */
} tcpa_rt_tile_info;

/* Returns TCPA_RT_OK after running kernel k, its parameters set for the
 * whole problem, on region r in chunks along the loops the dependences
 * of program pla_path (the source of k's .sym) allow: each chunk an
 * instantiation with the chunk's parameters, its inputs written, its
 * outputs gathered (docs/tiling.md). arrays[i] holds the program's i-th
 * array, in declaration order, row-major over its declared extents:
 * inputs are read, outputs written. *info (may be NULL) says which loops
 * were cut and how. TCPA_RT_NOFIT, why TCPA_RT_WHY_DEPENDENCE, when no
 * loop may be cut (nothing run; info->why per loop), why
 * TCPA_RT_WHY_RESOURCE when even the smallest chunks do not fit;
 * TCPA_RT_FILE when the program cannot be read, TCPA_RT_INVALID when it
 * is not k's or a parameter is not set, TCPA_RT_STATE while k runs. k is
 * left instantiated for its last chunk. */
tcpa_rt_status tcpa_rt_run_tiled(tcpa_rt_kernel *k, tcpa_rt_region *r, const char *pla_path, int32_t *const *arrays,
                                 tcpa_rt_tile_info *info);

#ifdef __cplusplus
}
#endif

#endif
