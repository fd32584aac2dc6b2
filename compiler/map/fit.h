/*
 * fit.h: the status of the compiler and the instantiator, and the record
 * of why a program does not fit (docs/symbolic.md "What fits").
 *
 * A step that runs out of a resource fills a fit_record: one item per
 * resource that ran out (every register class over its count, every side
 * an I/O access was tried on, ...), each with the resource (an enum), the
 * configuration key that sizes it (`pe.rd`, `iobuf.banks`), how much the
 * program needs and how much the configuration has, where (PE, processor
 * class, unit, access) and a sentence for people. The message printed is
 * made from the record (fit_record_format); code that decides something
 * (the mapping search, the sign-off's table, summary.json) reads the
 * items' fields, never the sentence.
 *
 * An item may carry a lower bound (map_bounds.h): the least any mapping
 * of the program on the region could need of its resource. A record
 * with an item whose bound exceeds what the configuration has fails at
 * its bound, the architecture's shortfall (fit_record_at_bound); any
 * other fails above its bounds (or with none known), which a better
 * compiler might avoid.
 */
#ifndef TCPA_FIT_H
#define TCPA_FIT_H

#include <stddef.h>
#include <stdint.h>

/* Status of every step of the compiler and the instantiator: the CLI exit
 * codes (spec/cli.md). */
typedef enum { FIT_OK = 0, FIT_ERR_INPUT = 2, FIT_ERR_NOFIT = 3, FIT_ERR_INTERNAL = 4 } fit_status;

/* What ran out. */
typedef enum {
  FIT_RES_NONE = 0,
  FIT_RES_RD,            /* registers rd of a PE (pe.rd) */
  FIT_RES_FD,            /* registers fd (pe.fd) */
  FIT_RES_ID,            /* input registers id (pe.id) */
  FIT_RES_OD,            /* output registers od (pe.od) */
  FIT_RES_FD_DEPTH,      /* depth of an fd (pe.fd_depth) */
  FIT_RES_FIFO_DEPTH,    /* values a channel holds (pe.fifo_depth) */
  FIT_RES_IMEM,          /* instruction words of a unit (pe.imem) */
  FIT_RES_BRANCH,        /* branch levels of a kernel in its II slots (pe.branch_targets) */
  FIT_RES_FU,            /* functional units of a class (pe.alu, pe.mul, pe.div) */
  FIT_RES_PORTS,         /* wrapper ports toward a neighbour (interconnect.ports) */
  FIT_RES_IO_BANKS,      /* I/O banks (iobuf.banks or interconnect.ports) */
  FIT_RES_IO_CHANNELS,   /* I/O channels to an inner PE of a 2-D region */
  FIT_RES_BANK_DEPTH,    /* words of a bank (iobuf.depth) */
  FIT_RES_SIGNALS,       /* control signals (gc.signals) */
  FIT_RES_GC_TERMS,      /* terms of the global controller (2 x gc.signals) */
  FIT_RES_CONSTRAINTS,   /* constraints of an enable (2 x gc.dims) */
  FIT_RES_ENABLE_FORM,   /* an AG enable not one conjunction without existentials (the program's) */
  FIT_RES_LOOP_DIMS,     /* loop dimensions (gc.dims) */
  FIT_RES_REGION_DIMS,   /* loop dimensions a region tiles (2 for RxC) */
  FIT_RES_ARRAY_ROWS,    /* rows of the processor array (array.rows) */
  FIT_RES_ARRAY_COLS,    /* columns (array.cols) */
  FIT_RES_SCHEDULE,      /* no schedule (modulo, inter-tile, result landing) */
  FIT_RES_CHANNEL_ORDER, /* a channel's values out of iteration order */
  FIT_RES_START_DELAY,   /* start-delay counters (31 bits) */
  FIT_RES_TILE,          /* iterations of a tile (2^30) */
  FIT_RES_ENCODING,      /* a field of an instruction or a packet out of range */
  FIT_RES_CFG,           /* successors of a control-flow node */
  FIT_RES_COUNT
} fit_resource;

#define FIT_MAX_ITEMS 8

/* One resource that ran out. */
typedef struct {
  fit_resource res;
  char key[32];      /* the configuration key that sizes it ("pe.rd"), "" for none */
  int64_t need, have; /* -1: not a count */
  int64_t bound;      /* the least any mapping needs (map_bounds.h), in the key's units; -1: none known */
  char where[96];    /* "processor class 1, alu0", "PE (1,2)", "fd3", "access 2 (y)", "" */
  char text[320];    /* the sentence for people */
} fit_item;

/* Why a mapping or an instantiation does not fit. */
typedef struct {
  int n;                        /* items; 0: none recorded */
  fit_item item[FIT_MAX_ITEMS];
  char note[320];               /* said once after the items, for people */
} fit_record;

/* Empties r. */
void fit_record_clear(fit_record *r);

/* Returns the item appended to r (resource res, key, need, have, where,
 * the sentence from fmt), or NULL when r is full (FIT_MAX_ITEMS). */
fit_item *fit_record_add(fit_record *r, fit_resource res, const char *key, int64_t need, int64_t have,
                         const char *where, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Returns FIT_ERR_NOFIT after emptying r, adding the one item (as
 * fit_record_add) and writing r's message into msg: what a step that
 * runs out of one resource returns. */
int fit_nofit(fit_record *r, char *msg, size_t msgsz, fit_resource res, const char *key, int64_t need,
              int64_t have, const char *where, const char *fmt, ...) __attribute__((format(printf, 9, 10)));

/* Writes r's message into buf (size n): the items' sentences (each with
 * ", any mapping needs at least B" when its bound is known) joined by
 * "; ", then the note; returns buf. */
char *fit_record_format(const fit_record *r, char *buf, size_t n);

/* Returns 1 when an item of r is resource res. */
int fit_record_has(const fit_record *r, fit_resource res);

/* Returns 1 when every item of r is one of the n resources of set (r not
 * empty). */
int fit_record_only(const fit_record *r, const fit_resource *set, int n);

/* Returns the item of r with the smallest shortfall need - have among
 * those with both counts, else the first; NULL when r is empty. */
const fit_item *fit_record_closest(const fit_record *r);

/* Sets the bound of every item of r of resource res whose key is key
 * (NULL: any key) to bound, when larger than the item's bound. */
void fit_record_bound(fit_record *r, fit_resource res, const char *key, int64_t bound);

/* Returns 1 when r fails at a lower bound: an item's bound exceeds what
 * the configuration has (no mapping fits: the architecture's shortfall);
 * 0 when it fails above its bounds or none is known (the compiler's). */
int fit_record_at_bound(const fit_record *r);

/* Returns the name of res as summary.json writes it ("registers_rd"). */
const char *fit_resource_name(fit_resource res);

/* Returns the resource named s (fit_resource_name), FIT_RES_NONE when none. */
fit_resource fit_resource_parse(const char *s);

#endif
