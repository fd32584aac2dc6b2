/*
 * fieldcov.h: field coverage of configuration streams (docs/regress.md
 * "Field coverage"): for every field of every packet of docs/stream.md
 * (packet header, GC, AG, REGCFG, WRAPPER, IODATA) and every field of an
 * instruction word of docs/isa.md, one bin per value class the field can
 * take on a configuration: zero, non-zero, negative where signed, the
 * largest legal value, the extremes of a 32-bit word, each enumerated
 * value. The bins are groups `field` (packets) and `insn` (instruction
 * words, per FU class) of a functional coverage set (fcov.h), so they are
 * saved, loaded and merged by `tcpa run` and `tcpa regress` as the other
 * bins are.
 *
 * A bin is named GROUP.FIELD.CLASS (`field.ag.col_coef.neg`,
 * `insn.alu.srcb.cls.imm`); the classes of one field are disjoint, so a
 * field that holds one value everywhere hits one bin, and
 * fieldcov_report_flat lists the fields that never left one class.
 */
#ifndef TCPA_FIELDCOV_H
#define TCPA_FIELDCOV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arch.h"
#include "fcov.h"
#include "stream.h"

typedef struct fieldcov fieldcov;

/* Returns a field counter for cfg counting into s, with every field bin of
 * cfg defined in s (zero counts; bins already there kept); NULL when out
 * of memory. */
fieldcov *fieldcov_new(fcov_set *s, const arch_config *cfg);

/* Counts the fields of packet p, as stream_reader_next hands it out
 * (checked; WRAPPER selects unpacked). */
void fieldcov_packet(fieldcov *f, const stream_packet *p);

/* Frees f (the set it counts into stays). */
void fieldcov_free(fieldcov *f);

/* Returns 0 after counting every packet of the stream buf[0..len) for cfg
 * into s (field bins defined; s->runs unchanged); -1 with the reader's
 * reason in msg. */
int fieldcov_stream_count(fcov_set *s, const arch_config *cfg, const uint8_t *buf, size_t len, char *msg,
                          size_t msgsz);

/* Returns whether bin name is a field bin (groups `field` and `insn`). */
int fieldcov_is_field_bin(const char *name);

/* Writes the fields of s seen in exactly one of two or more value classes
 * (`field.gc.ii=one`), at most max of them (0: all), after a line
 * counting them, each line prefixed by indent; returns how many there
 * are. Writes nothing when s has no field bin. */
int fieldcov_report_flat(FILE *f, const fcov_set *s, const char *indent, int max);

/* Returns the number of field bins of s never hit; writes each to f (one
 * line `missed: NAME`) when f is not NULL. */
int fieldcov_report_missed(FILE *f, const fcov_set *s);

#endif
