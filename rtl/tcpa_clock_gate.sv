// tcpa_clock_gate: a latch-based integrated clock gate, as lowRISC's
// prim_clock_gating: the enable is taken while the clock is low (the
// latch is transparent) and held while it is high, so clk_o is clk_i with
// whole pulses removed, never a glitch. A unit clocked by clk_o sees the
// rising edges of clk_i in which en_i was high during the low phase
// before. tcpa_top stops the array's clocks with it while the loader
// writes something else, and the loader its start registers while they
// keep their values (docs/rtl.md "Clock gating"): a simulator then
// evaluates none of the stopped units' logic.
module tcpa_clock_gate (
  input  logic clk_i,
  input  logic en_i,
  output logic clk_o
);
  logic en_q;

  always_latch begin
    if (!clk_i) en_q = en_i;
  end

  assign clk_o = clk_i & en_q;
endmodule
