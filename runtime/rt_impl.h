/*
 * rt_impl.h: what the files of the host runtime (tcpa_rt.h,
 * docs/runtime.md) share and no host program sees:
 *
 *   rt_array.c   the array: open, close, statuses, messages, refusals;
 *   rt_region.c  regions: a rectangle or the first fit, one global
 *                controller each, overlaps refused;
 *   rt_kernel.c  kernels: the .sym (sym.h), parameters, instantiation
 *                (inst.h) into a region, input and output arrays;
 *   rt_engine.c  start and wait on the C model: the streams of the
 *                kernels in flight run together (model_new_multi,
 *                docs/timing.md section 11), outputs read from the banks
 *                in each region's done cycle;
 *   rt_ref.c     the reference interpreter on a kernel's parameters and
 *                inputs (interp.h), for host programs that check.
 *
 * The host-tiled execution (rt_tile.h, rt_tile_*.c, docs/tiling.md) is
 * built on the public calls; rt_tile_api.c, tcpa_rt_run_tiled, is the
 * one of its files that reads a kernel's parameters from here.
 */
#ifndef TCPA_RT_IMPL_H
#define TCPA_RT_IMPL_H

#include <stdint.h>

#include "arch.h"
#include "inst.h"
#include "map.h"
#include "model.h"
#include "stream.h"
#include "tcpa_rt.h"

#define RT_MSG 1024

/* A kernel's life (tcpa_rt_kernel.state). */
enum { RT_K_LOADED, RT_K_READY, RT_K_RUNNING, RT_K_DONE };

struct tcpa_rt_region {
  tcpa_rt_array *a;
  int used;                  /* 1: allocated */
  int id;                    /* its slot, the global controller it drives */
  int rows, cols, row0, col0;
};

/* One array of a kernel, in the instantiation's row-major order over the
 * bounding box of its accesses (inst.h array_ext). */
typedef struct {
  int is_out;
  int nd;
  int64_t ext[AST_MAX_DIMS];
  size_t n;
  int32_t *data;             /* inputs: for the next start; outputs: the
                                last run's values */
} rt_buf;

struct tcpa_rt_kernel {
  tcpa_rt_array *a;
  tcpa_rt_kernel *next;      /* the array's list */
  map_config m;              /* read from the .sym */
  int64_t pval[AST_MAX_PARAMS];
  int pset[AST_MAX_PARAMS];
  int state;                 /* RT_K_* */
  tcpa_rt_region *r;         /* READY on: the region it is instantiated into */
  inst x;                    /* READY on: the instantiation */
  int have_x;
  rt_buf *buf;               /* [m.narrays], READY on */
  inst_place *place;         /* every output element (inst_layout_each) */
  size_t nplace;
  int slot;                  /* RUNNING, DONE: its stream in the engine's run */
  uint64_t cycles;           /* DONE: start to done */
};

/* The streams running together on the model (rt_engine.c). */
typedef struct {
  model *m;
  int n;                     /* streams */
  model_stream_in in[STREAM_GCS];
  uint8_t *bytes[STREAM_GCS];
  tcpa_rt_kernel *who[STREAM_GCS]; /* NULL: dropped (freed kernel) */
  int gathered[STREAM_GCS];  /* its outputs were read in its done cycle */
  uint64_t faults;           /* the model's faults when last looked at */
} rt_run;

struct tcpa_rt_array {
  arch_config cfg;
  tcpa_rt_engine engine;
  tcpa_rt_region region[STREAM_GCS];
  tcpa_rt_kernel *kernels;
  rt_run run;
  tcpa_rt_error err;
  char msg[RT_MSG];
};

/* Returns s after recording it in a's last refusal (why NONE, no
 * resource) with the printf message. */
tcpa_rt_status rt_array_fail(tcpa_rt_array *a, tcpa_rt_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Returns s after recording a refusal with its data: why, the region in
 * the way (-1), the resource key ("" none), needed and available. */
tcpa_rt_status rt_array_refuse(tcpa_rt_array *a, tcpa_rt_status s, tcpa_rt_why why, int region, const char *resource,
                               long long needed, long long available, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));

/* Clears a's last refusal (a call that succeeds). */
tcpa_rt_status rt_array_ok(tcpa_rt_array *a);

/* Returns the index of array `name` of k, or -1. */
int rt_kernel_array_find(const tcpa_rt_kernel *k, const char *name);

/* Drops kernel k from the run it is in (a freed kernel); rt_engine.c. */
void rt_engine_forget(tcpa_rt_array *a, const tcpa_rt_kernel *k);

/* Returns TCPA_RT_OK after binding p's parameters from k's values (by
 * name) into params; TCPA_RT_INVALID when p (read from path) is not k's
 * program (rt_ref.c). */
tcpa_rt_status rt_ref_bind(const tcpa_rt_kernel *k, const ast_program *p, const char *path, int64_t *params);

/* Frees the run's model and streams (rt_engine.c). */
void rt_engine_free(rt_run *run);

#endif
