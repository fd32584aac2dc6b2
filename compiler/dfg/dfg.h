/*
 * dfg.h: DSAGEN's dataflow-graph files (`.dfg`, docs/dfg.md) as this
 * project reads them, and their translation into loop programs (`.pla`,
 * docs/language.md) for `tcpa import-dfg`.
 *
 * dfg_parse.c reads the text into a dfg_file: the arrays (declared
 * anywhere, shared by every sub-DFG), and per sub-DFG (separated by a
 * `----` line) its pragmas, ports and operations, each with its place in
 * the file. dfg_emit.c checks the names and operations of one sub-DFG and
 * writes its program; dfg_out.c writes a whole file's programs, the job
 * file of the sub-DFGs that share arrays and the workload of `tcpa
 * explore`. Every error is a dfg_error (line, column, text): the caller
 * prints it as FILE:LINE:COL (diag.h) and exits 2.
 */
#ifndef TCPA_DFG_H
#define TCPA_DFG_H

#include <stdint.h>
#include <stdio.h>

#define DFG_NAME 64     /* identifiers, with their terminator */
#define DFG_ARGS 4      /* operands of one operation */
#define DFG_CTRL 8      /* entries of one ctrl= table */

/* Where something is wrong: 1-based line and column, and why. */
typedef struct {
  int line, col;
  char msg[256];
} dfg_error;

/* The kinds of array (the format's `[array-type]`). */
typedef enum { DFG_ARR_DMA, DFG_ARR_SPM, DFG_ARR_REC, DFG_ARR_GEN, DFG_ARR_REG } dfg_array_kind;

/* `Array NAME SIZE KIND` (or `KIND NAME SIZE`). */
typedef struct {
  char name[DFG_NAME];
  int64_t size; /* elements */
  dfg_array_kind kind;
  int line, col;
} dfg_array;

/* `Input64: NAME[LANES] source=ARRAY stated` or an Output with destination=. */
typedef struct {
  char name[DFG_NAME];
  char array[DFG_NAME]; /* "" when the line names none */
  int out;              /* 1 for an Output */
  int width;            /* bits: 8, 16, 32 or 64 (64 when not written) */
  int lanes;            /* the vectorization degree; 0 when `[N]` is absent */
  int stated;
  int line, col;        /* of the port's name */
} dfg_port;

/* One operand: a value's name, a register `$RegN` or an integer. */
typedef enum { DFG_ARG_VALUE, DFG_ARG_REG, DFG_ARG_CONST } dfg_arg_kind;
typedef struct {
  dfg_arg_kind kind;
  char name[DFG_NAME]; /* value or register name (without `$`) */
  int64_t imm;
  int line, col;
} dfg_arg;

/* Flags of a ctrl= entry (the format's `{0: d, 8: r}`). */
enum { DFG_CTRL_D = 1, DFG_CTRL_R = 2, DFG_CTRL_B1 = 4, DFG_CTRL_B2 = 8, DFG_CTRL_A = 16 };

/* `RES = OP(ARGS, ctrl=SRC & MASK{KEY: FLAGS, ...})`, `RES = NAME` (a
 * rename) or `RES = INTEGER`; `RES, RES2 = OP(ARGS)` for an operation
 * with two results (DivRem). */
typedef struct {
  char res[DFG_NAME];
  char res2[DFG_NAME];  /* "" for one result */
  int col2;             /* of res2 */
  char op[DFG_NAME];    /* "" for a rename or a constant (then arg[0]) */
  dfg_arg arg[DFG_ARGS];
  int nargs;
  int has_ctrl;
  dfg_arg ctrl;         /* the control operand */
  int64_t ctrl_mask;    /* -1 when there is no `& MASK` */
  struct { int64_t key; unsigned flags; int line, col; } ent[DFG_CTRL];
  int nent;
  int line, col;        /* of the result's name */
  int op_col;           /* of the operation's name */
  int ctrl_col;         /* of `ctrl` */
} dfg_op;

/* One sub-DFG. */
typedef struct {
  double freq;        /* #pragma group frequency (1 when not given) */
  int unroll;         /* #pragma group unroll (1) */
  int line;           /* its first line */
  dfg_port *port;
  int nports;
  dfg_op *op;
  int nops;
} dfg_sub;

typedef struct {
  dfg_array *array;
  int narrays;
  dfg_sub *sub;
  int nsubs;
} dfg_file;

/* Returns 0 after parsing `text` into *f (to be freed with dfg_file_free);
 * -1 with the first error in *err (f then holds nothing). */
int dfg_file_parse(const char *text, dfg_file *f, dfg_error *err);

/* Frees what dfg_file_parse allocated in f. */
void dfg_file_free(dfg_file *f);

/* Returns the array named `name`, or NULL. */
const dfg_array *dfg_array_find(const dfg_file *f, const char *name);

/* Returns 1 when sub-DFG s has a port or an operation (a program). */
int dfg_sub_has_program(const dfg_sub *s);

/* Writes to `out` the loop program of sub-DFG `k` of f, named `prog`,
 * with `src` (the file's name) in its header comment; returns 0, or -1
 * with the first construct that cannot be mapped in *err (an operation
 * with no equivalent, an undefined or redefined name, a ctrl= flag that is
 * not expressible). *rec_len gets the longest recurrence distance (the
 * smallest stream length the program accepts, 1 without rec arrays). */
int dfg_sub_emit(const dfg_file *f, int k, const char *prog, const char *src, FILE *out,
                 int64_t *rec_len, dfg_error *err);

/* What dfg_dir_write writes beside the programs. */
typedef struct {
  const char *dir;      /* the output directory (made when missing) */
  const char *base;     /* programs are BASE_K.pla, BASE.job.ini, BASE.wl */
  const char *src;      /* the DFG file's name, for headers and messages */
  int64_t len;          /* stream length N for the job and workload; 0: from the arrays */
  int rows, cols;       /* the region of each program */
  const char *arch;     /* the job's `arch = FILE`, or NULL */
  int arch_rows, arch_cols; /* the array the job's regions are placed in */
  int quiet;
} dfg_out_opts;

/* Returns 0 after writing every program of f, the job file (when
 * sub-DFGs share an array) and the workload into o->dir, each file under
 * a temporary name renamed when complete, nothing written when a program
 * cannot be mapped; -1 with *err set (line 0: not a place in the DFG,
 * e.g. a file that cannot be written). */
int dfg_dir_write(const dfg_file *f, const dfg_out_opts *o, dfg_error *err);

#endif
