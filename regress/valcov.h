/*
 * valcov.h: operand value coverage of runs (docs/regress.md "Operand
 * values"): for every FU of a PE and every operation class it executes
 * (arith, unary, mul, div, cmp, minmax, shift, logic), bins for the value
 * class of its first operand, its second operand (for shifts: the shift
 * amount), the result (zero, positive, negative, -2^31, 2^31-1; a
 * comparison: 0 or 1) and equal operands. The bins are group `value` of a
 * functional coverage set (fcov.h), counted by the run's walk (fcov.c)
 * from the events of its trace: the instruction issued, the registers as
 * the `rf` events wrote them, the words `pop` and `fdrd` read in the
 * issue's cycle, the immediate; the result is the operation of
 * docs/isa.md applied to them (isa_op_eval). An operand whose value the
 * events do not give (an fd read that does not advance) is not counted.
 */
#ifndef TCPA_VALCOV_H
#define TCPA_VALCOV_H

#include <stdint.h>

#include "arch.h"
#include "fcov.h"
#include "isa.h"

typedef struct valcov valcov;

#define VALCOV_CLASSES 8 /* operation classes: arith unary mul div cmp minmax shift logic */

/* Returns the operation class (0..VALCOV_CLASSES-1) of op, or -1 for the
 * opcodes not counted (nop, lnot, sel). */
int valcov_op_class(isa_op op);

/* Returns a value counter for cfg counting into s, its bins defined in s
 * (zero counts); NULL when out of memory. */
valcov *valcov_new(fcov_set *s, const arch_config *cfg);

/* Records an issue of instruction in (kept until the cycle ends) by FU fu
 * of PE pe (row * cols + col) in the current cycle. */
void valcov_issue(valcov *v, int pe, int fu, const isa_insn *in);

/* Records the word read from idK (pop) or fdK (fdrd) of PE pe in the
 * current cycle. */
void valcov_read(valcov *v, int pe, int cls, int k, uint32_t value);

/* Records a register write (`rf`) of PE pe at the end of the current
 * cycle. */
void valcov_write(valcov *v, int pe, int cls, int k, uint32_t value);

/* Ends the cycle: counts the operands and results of its issues, then
 * applies its register writes. */
void valcov_cycle_end(valcov *v);

/* Returns 0 after adding to `to` the value bins of `from` with the FUs of
 * one kind taken together: value.alu1.minmax.a.min counts into
 * value.alu.minmax.a.min (every bin defined, zeros included); -1 when out
 * of memory. What a random program reaches: which ALU runs an operation
 * is the scheduler's choice. */
int valcov_by_kind(fcov_set *to, const fcov_set *from);

/* Frees v (the set it counts into stays). */
void valcov_free(valcov *v);

#endif
