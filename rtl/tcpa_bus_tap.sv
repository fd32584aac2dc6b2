// tcpa_bus_tap: the configuration bus (tcpa_pkg::cfg_bus_t) as one group
// of units sees it: the PEs, or the AGs of one side of the array. It is
// a register beside the loader's own bus register, written at the same
// edges with the same word (bus_next_i, the loader's next bus word) when
// take_i says that word is for the group, so the group sees its packets'
// headers and payload words in the same cycles as on the loader's bus,
// and in the other cycles an idle bus (its last word with we and hdr
// clear). Its clock runs only for the group's words and the cycle after
// one (docs/rtl.md "Clock gating"): the decoding of the group's units
// (every AG's mine and field selection, every PE's rectangle hit) is then
// evaluated only for words that can concern them, not for every word of
// the stream.
`include "rtl/tcpa_assert.svh"

module tcpa_bus_tap (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               take_i,      // bus_next_i is for this group
  input  tcpa_pkg::cfg_bus_t bus_next_i,  // the loader's bus after this edge
  output tcpa_pkg::cfg_bus_t bus_o
);
  tcpa_pkg::cfg_bus_t bus_q, bus_d;
  logic               tclk;

  always_comb begin
    bus_d = bus_q;
    bus_d.we = 1'b0;
    bus_d.hdr = 1'b0;
    if (take_i) bus_d = bus_next_i;
  end

  tcpa_clock_gate u_cg (
    .clk_i (clk_i),
    .en_i  (!rst_ni || take_i || bus_q.we || bus_q.hdr),
    .clk_o (tclk)
  );

  always_ff @(posedge tclk or negedge rst_ni) begin
    if (!rst_ni) bus_q <= '0;
    else bus_q <= bus_d;
  end

  assign bus_o = bus_q;

  // invariants (docs/rtl.md "Assertions"): a word of the group's bus is a
  // header or a payload word, never both, and both flags are known
  `TCPA_ASSERT(BusTapOneKind, !(bus_q.we && bus_q.hdr), clk_i, rst_ni)
  `TCPA_ASSERT(BusTapFlagsKnown, !$isunknown({bus_q.we, bus_q.hdr}), clk_i, rst_ni)
endmodule
