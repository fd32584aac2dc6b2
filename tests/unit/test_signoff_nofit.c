/*
 * test_signoff_nofit.c: signoff_nofit_parse on a table of the tools'
 * does-not-fit messages (as the sign-off of configs/default.ini and the
 * tests meet them): the resource, the need and the availability each
 * message gives, and "" / -1 where a message gives none.
 */
#include <string.h>

#include "signoff_nofit.h"
#include "test.h"

typedef struct {
  const char *msg;
  const char *resource;
  long need, have;
} nofit_case;

static const nofit_case cases[] = {
    {"registers rd: needs 5, pe.rd = 4", "pe.rd", 5, 4},
    {"registers fd: needs 6, pe.fd = 4", "pe.fd", 6, 4},
    {"processor class 0, alu1: the program needs 37 instruction words, pe.imem is 32", "pe.imem", 37, 32},
    {"functional units: 1 operation needs a div unit ('/'), pe.div = 0", "pe.div", 1, 0},
    {"control signals: 11 needed (greedy colouring of 30 local signals), gc.signals is 8", "gc.signals", 11, 8},
    {"global controller: the control signals need 18 terms, at most 16 (2 x gc.signals) with 12 "
     "constraints each (2 x gc.dims)",
     "gc.signals", 18, 16},
    {"I/O banks: 9 input/output accesses need a bank and a wrapper port each, iobuf.banks = 4", "iobuf.banks", 9,
     4},
    {"I/O banks: 9 input/output accesses need a bank and a wrapper port each; 2 border sides x "
     "interconnect.ports 2 = 4 available",
     "interconnect.ports", 9, 4},
    {"I/O banks: 9 input/output accesses need a bank and a wrapper port each; a PE of a 1-D region has at "
     "most 2 border sides x iobuf.banks 2 = 4",
     "iobuf.banks", 9, 4},
    {"I/O banks: access 2 (output of y) finds no free bank on PE 1 (row 0, column 1); sides tried: north; "
     "banks needed 3, available 2 (its array border sides x min(iobuf.banks 2, interconnect.ports 4), less the "
     "ports of channels)",
     "iobuf.banks", 3, 2},
    {"I/O banks: access 6 (output of q) finds no free bank on PE 1 (row 0, column 1); sides tried: north; "
     "banks needed 8, available 6 (its array border sides x min(iobuf.banks 8, interconnect.ports 6), less the "
     "ports of channels)",
     "interconnect.ports", 8, 6},
    {"I/O routing: PE (1,1) is not on the array border and the interconnect cannot carry access 2 "
     "(output of parg) to it: north side, column 1 (1 hops): channels needed 5, available 4; west side, row 1 "
     "(1 hops): channels needed 6, available 4 (a channel is a bank of the border PE and its port in every "
     "wrapper on the way: min(iobuf.banks 4, interconnect.ports 4), less the ports the propagation channels "
     "take)",
     "I/O channels", 5, 4},
    {"I/O routing: PE (2,2) ...: north side, column 2 (2 hops): channels needed 7, available 2; south side, "
     "column 2 (1 hops): channels needed 4, available 3",
     "I/O channels", 4, 3},
    {"region 2x2: an RxC region tiles two loop dimensions onto its rows and columns, program 'bitextract' has 1",
     "loop dimensions", 2, 1},
    {"pe.fifo_depth: channel od0 -> id1 from PE (0,0) into PE (0,1) holds up to 9 values, pe.fifo_depth = 8",
     "pe.fifo_depth", 9, 8},
    {"--pes 5x2: the region does not fit the processor array of default.ini, which has 4 rows and 4 columns",
     "array.rows", 5, 4},
    {"--pes 2x7: the region does not fit the processor array of default.ini, which has 4 rows and 4 columns",
     "array.cols", 7, 4},
    {"region 1x9 does not fit the 2x8 array", "array.cols", 9, 8},
    {"region 3x3 does not fit the 2x8 array", "array.rows", 3, 2},
    {"something else entirely", "", -1, -1},
    {NULL, "", -1, -1},
};

int main(void) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const nofit_case *c = &cases[i];
    signoff_nofit r = signoff_nofit_parse(c->msg);
    TEST_CHECK(!strcmp(r.resource, c->resource) && r.need == c->need && r.have == c->have,
               "case %zu: resource '%s' (want '%s'), need %ld (%ld), have %ld (%ld)", i, r.resource,
               c->resource, r.need, c->need, r.have, c->have);
  }
  return test_done();
}
