// tcpa_assert.svh: the assertion macros of the TCPA RTL, in the style of
// lowRISC's prim_assert.sv (docs/rtl.md "Assertions"). Included (path from
// the source root, where every Verilator and Yosys run of the project
// starts) at the top of a module file that states invariants.
//
//   `TCPA_ASSERT(NAME, PROP, CLK, RST_N)
//   `TCPA_ASSERT_IF(NAME, PROP, EN, CLK, RST_N)
//
// NAME: the boolean PROP holds at every rising edge of CLK while RST_N is
// high (the second form: at those edges where EN holds too, lowRISC's
// ASSERT_IF, `EN |-> PROP`). A failure prints, through $error, the
// assertion's hierarchical name and "[ASSERT FAILED] NAME".
//
// The check is an immediate assertion in a process woken by the rising
// edge, which reads the values from before the edge, as a concurrent
// assertion's sampled values are: the same check, at the same edges.
// For a concurrent assertion, the simulator of the harnesses (5.006)
// copies every variable it reads into a sampled copy at every evaluation,
// whether or not an edge comes (3183 copies on big1d.ini, a tenth of a
// run: docs/testing.md "Sampled copies, accumulators, the bus's clock");
// an immediate assertion costs only its test.
//
// The assertions exist only in simulation with +define+TCPA_ASSERT_ON
// (tb/harness.mk sets it, with Verilator's --assert, for every harness);
// with SYNTHESIS defined (Yosys defines it) or without TCPA_ASSERT_ON the
// macros expand to nothing, so synthesis and the plain lint never see them.
`ifndef TCPA_ASSERT_SVH
`define TCPA_ASSERT_SVH

`ifndef SYNTHESIS
`ifdef TCPA_ASSERT_ON
`define TCPA_ASSERT(NAME, PROP, CLK, RST_N) \
  always @(posedge CLK) \
    if (RST_N) NAME: assert (PROP) else $error("[ASSERT FAILED] %s", `"NAME`");
`endif
`endif

`ifndef TCPA_ASSERT
`define TCPA_ASSERT(NAME, PROP, CLK, RST_N)
`endif

`define TCPA_ASSERT_IF(NAME, PROP, EN, CLK, RST_N) \
  `TCPA_ASSERT(NAME, !(EN) || (PROP), CLK, RST_N)

`endif  // TCPA_ASSERT_SVH
