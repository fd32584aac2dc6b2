// tcpa_assert.svh: the assertion macros of the TCPA RTL, in the style of
// lowRISC's prim_assert.sv (docs/rtl.md "Assertions"). Included (path from
// the source root, where every Verilator and Yosys run of the project
// starts) at the top of a module file that states invariants.
//
//   `TCPA_ASSERT(NAME, PROP, CLK, RST_N)
//
// is the concurrent assertion NAME: PROP holds at every rising edge of CLK
// while RST_N is high (disable iff !RST_N). A failure prints, through
// $error, the assertion's hierarchical name and "[ASSERT FAILED] NAME".
// The assertions exist only in simulation with +define+TCPA_ASSERT_ON
// (tb/harness.mk sets it, with Verilator's --assert, for every harness);
// with SYNTHESIS defined (Yosys defines it) or without TCPA_ASSERT_ON the
// macro expands to nothing, so synthesis and the plain lint never see it.
`ifndef TCPA_ASSERT_SVH
`define TCPA_ASSERT_SVH

`ifndef SYNTHESIS
`ifdef TCPA_ASSERT_ON
`define TCPA_ASSERT(NAME, PROP, CLK, RST_N) \
  NAME: assert property (@(posedge CLK) disable iff (!(RST_N)) (PROP)) \
    else $error("[ASSERT FAILED] %s", `"NAME`");
`endif
`endif

`ifndef TCPA_ASSERT
`define TCPA_ASSERT(NAME, PROP, CLK, RST_N)
`endif

`endif  // TCPA_ASSERT_SVH
