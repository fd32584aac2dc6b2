/* covers: docs/instantiate.md "Input FIFO depth",
 *   docs/timing.md "5. Interconnect" */
/*
 * test_inst_fifo.c: the input-FIFO occupancy of inst_fifo.c
 * (inst_fifo_occupancy): tokens pushed and popped at the ends of given
 * cycles, pop before push in one cycle (docs/timing.md 5). Each case is
 * also checked against a cycle-by-cycle simulation of a FIFO of unbounded
 * depth written here, on random schedules.
 */
#include <stdint.h>
#include <stdlib.h>

#include "inst.h"
#include "test.h"

/* Returns the largest occupancy of a FIFO simulated cycle by cycle. */
static int64_t sim_occupancy(const int64_t *push, int np, int64_t ps, const int64_t *pop, int nq, int64_t qs) {
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int i = 0; i < np; i++) {
    if (push[i] + ps < lo) lo = push[i] + ps;
    if (push[i] + ps > hi) hi = push[i] + ps;
  }
  for (int i = 0; i < nq; i++) {
    if (pop[i] + qs < lo) lo = pop[i] + qs;
    if (pop[i] + qs > hi) hi = pop[i] + qs;
  }
  int64_t occ = 0, best = 0;
  for (int64_t y = lo; np + nq && y <= hi; y++) {
    for (int i = 0; i < nq; i++)
      if (pop[i] + qs == y && occ > 0) occ--;
    for (int i = 0; i < np; i++)
      if (push[i] + ps == y) occ++;
    if (occ > best) best = occ;
  }
  return best;
}

int main(void) {
  /* a producer one token per cycle from 0, a consumer every other cycle
   * from cycle 1: the backlog grows to 5 of 10 (after cycle 9: 10 pushed, 5 popped) */
  int64_t push[10], pop[10];
  for (int i = 0; i < 10; i++) {
    push[i] = i;
    pop[i] = 1 + 2 * i;
  }
  TEST_CHECK(inst_fifo_occupancy(push, 10, 0, pop, 10, 0) == 5, "fast producer, slow consumer: 5 tokens");
  /* read in the cycle after each push: never more than one */
  for (int i = 0; i < 10; i++) pop[i] = push[i] + 1;
  TEST_CHECK(inst_fifo_occupancy(push, 10, 0, pop, 10, 0) == 1, "read one cycle after the push: 1 token");
  /* the consumer starting 3 cycles later (its start delay): 4 in flight */
  TEST_CHECK(inst_fifo_occupancy(push, 10, 0, pop, 10, 3) == 4, "consumer delayed by 3 cycles: 4 tokens");
  /* the producer's shift (delay + hops) works the same way */
  TEST_CHECK(inst_fifo_occupancy(push, 10, -3, pop, 10, 0) == 4, "producer 3 cycles early: 4 tokens");
  /* pop and push in one cycle: the pop comes first, the occupancy stays */
  int64_t p2[3] = {0, 1, 2}, q2[2] = {1, 2};
  TEST_CHECK(inst_fifo_occupancy(p2, 3, 0, q2, 2, 0) == 1, "pop before push in one cycle: 1 token, not 2");
  /* a pop of an empty FIFO pops nothing (a later push still counts) */
  int64_t p3[2] = {5, 6}, q3[1] = {0};
  TEST_CHECK(inst_fifo_occupancy(p3, 2, 0, q3, 1, 0) == 2, "pop of an empty FIFO does not go negative");
  TEST_CHECK(inst_fifo_occupancy(NULL, 0, 0, NULL, 0, 0) == 0, "no tokens: 0");

  /* random sorted schedules against the cycle-by-cycle simulation */
  srand(7);
  int bad = 0, cases = 300;
  for (int c = 0; c < cases; c++) {
    int np = rand() % 40, nq = rand() % 40;
    int64_t a[40], b[40], t = 0;
    for (int i = 0; i < np; i++) a[i] = t += 1 + rand() % 3;
    t = rand() % 20;
    for (int i = 0; i < nq; i++) b[i] = t += 1 + rand() % 4;
    int64_t ps = rand() % 11 - 5, qs = rand() % 11 - 5;
    if (inst_fifo_occupancy(a, np, ps, b, nq, qs) != sim_occupancy(a, np, ps, b, nq, qs)) bad++;
  }
  TEST_CHECK(bad == 0, "%d random schedules: occupancy equals the cycle-by-cycle simulation (%d differ)", cases,
             bad);
  return test_done();
}
