// tcpa_wrapper: the interconnect wrapper of a PE (timing.md section 5,
// stream.md WRAPPER): a combinational crossbar. Every sink (PE input ports
// id0.., then wrapper outputs n, e, s, w 0..P-1) takes the token of the
// source its select names (0: none; else 1 + source number: od0.., then
// wrapper inputs n, e, s, w 0..P-1), in the same cycle.
`include "rtl/tcpa_assert.svh"
`include "rtl/tcpa_mutation.svh"

module tcpa_wrapper (
  input  logic                                       clk_i,   // assertions only
  input  logic                                       rst_ni,  // assertions only
  input  logic [tcpa_pkg::NSINK*tcpa_pkg::SEL_W-1:0] sel_i,
  input  logic [tcpa_pkg::NSRC-1:0]                  src_valid_i,
  input  logic [tcpa_pkg::NSRC*32-1:0]               src_data_i,
  output logic [tcpa_pkg::NSINK-1:0]                 sink_valid_o,
  output logic [tcpa_pkg::NSINK*32-1:0]              sink_data_o
);
  localparam int unsigned NSRC  = tcpa_pkg::NSRC;
  localparam int unsigned NSINK = tcpa_pkg::NSINK;
  localparam int unsigned SW    = tcpa_pkg::SEL_W;

  // the selects that name a source, 1..NSRC, as a constant table: the
  // comparison s <= NSRC is constant where NSRC = 2^SW - 1 (Verilator's
  // CMPCONST on such configurations, e.g. pe.od = 3 with one port)
  logic [(2**SW)-1:0] sel_ok;
  for (genvar v = 0; v < 2**SW; v++) begin : g_sel_ok
    assign sel_ok[v] = v != 0 && v <= NSRC;
  end

  logic [SW-1:0] s;

  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  always_comb begin
    sink_valid_o = '0;
    sink_data_o = '0;
    s = '0;
    for (int unsigned k = 0; k < NSINK; k++) begin
      s = sel_i[k*SW +: SW];
      if (sel_ok[s]) begin
        sink_valid_o[k] = src_valid_i[({{(32-SW){1'b0}}, s} - 32'd1) % NSRC];
        sink_data_o[k*32 +: 32] = src_data_i[(({{(32-SW){1'b0}}, s} - 32'd1) % NSRC)*32 +: 32];
      end
    end
    // mutant 16: wrapper port swap: sinks 0 and 1 (id0, id1) are crossed
    `TCPA_MUTATE(16, sink_valid_o[1:0] = {sink_valid_o[0], sink_valid_o[1]};
                     sink_data_o[63:0] = {sink_data_o[31:0], sink_data_o[63:32]};)
  end

  // invariants (docs/rtl.md "Assertions"): a sink carries a token only
  // when its select names a source that has one, and then that source's
  // value (the crossbar moves tokens, it makes none)
  logic unused_clk;  // the clock and reset serve the assertions only
  assign unused_clk = ^{clk_i, rst_ni};
`ifdef TCPA_ASSERT_ON
  logic tok_from_src;
  logic [SW-1:0] as;
  always_comb begin
    tok_from_src = 1'b1;
    as = '0;
    for (int unsigned k = 0; k < NSINK; k++) begin
      as = sel_i[k*SW +: SW];
      if (sink_valid_o[k] &&
          !(sel_ok[as] && src_valid_i[(32'(as) - 32'd1) % NSRC] &&
            sink_data_o[k*32 +: 32] == src_data_i[((32'(as) - 32'd1) % NSRC)*32 +: 32]))
        tok_from_src = 1'b0;
    end
  end
`endif
  `TCPA_ASSERT(WrapperTokenFromSource, tok_from_src, clk_i, rst_ni)
endmodule
