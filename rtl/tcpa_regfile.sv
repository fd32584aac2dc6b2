// tcpa_regfile: the general-purpose registers rd0.. of a PE. Every FU has a
// write port (its write-back); all writes of a cycle take effect at its end,
// and when two FUs write the same register the higher FU number wins
// (timing.md section 3; the conflict itself is traced by the harness from
// the wr events). All registers are readable combinationally.
// The registers are an unpacked array, one element per register, so that a
// waveform names each one: rd_q[K] is rdK (docs/rtl.md "Signal names").
// With pe.rd = 0 one slot remains, never written: it reads as zero.
// A write index is an operand's IDX field (tcpa_isa_pkg::ISA_SIZE_IDX bits).
`include "rtl/tcpa_assert.svh"

module tcpa_regfile (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic                            clr_i,   // restart: every register 0
  input  logic [tcpa_pkg::NFU-1:0]        we_i,
  input  logic [tcpa_pkg::NFU*tcpa_isa_pkg::ISA_SIZE_IDX-1:0] widx_i,
  input  logic [tcpa_pkg::NFU*32-1:0]     wdata_i,
  output logic [tcpa_pkg::NRD_S*32-1:0]   rd_o,
  // trace (docs/trace.md `rf`): register k is written at the end of the
  // cycle (we_o[k]) with wd_o[k], after the arbitration
  output logic [tcpa_pkg::NRD_S-1:0]      we_o,
  output logic [tcpa_pkg::NRD_S*32-1:0]   wd_o
);
  localparam int unsigned NRD = tcpa_pkg::NRD;
  localparam int unsigned NFU = tcpa_pkg::NFU;
  localparam int unsigned NRD_S = tcpa_pkg::NRD_S;
  localparam int unsigned XW    = tcpa_isa_pkg::ISA_SIZE_IDX;

  // the bits of a register index (widx_i has XW; a one-slot file keeps 1)
  localparam int unsigned IW = (NRD_S > 1) ? $clog2(NRD_S) : 1;

  (* mem2reg *) logic [31:0] rd_q [NRD_S];  // Yosys: registers, not a memory
  (* mem2reg *) logic [31:0] rd_d [NRD_S];

  // each register keeps its value unless an FU writes it; FUs in
  // increasing order, so the higher FU wins. One indexed write per FU,
  // not a compare per register and FU: a simulator evaluates NFU writes
  // instead of NRD * NFU tests in every cycle (docs/testing.md "Sampled
  // copies, accumulators, the bus's clock"); an index beyond the file
  // writes nothing
  always_comb begin
    for (int unsigned k = 0; k < NRD_S; k++) rd_d[k] = rd_q[k];
    we_o = '0;
    for (int unsigned f = 0; f < NFU; f++) begin
      if (we_i[f] && NRD != 0 && 32'(widx_i[f*XW +: XW]) < NRD_S) begin
        rd_d[widx_i[f*XW +: IW]] = wdata_i[f*32 +: 32];
        we_o[widx_i[f*XW +: IW]] = 1'b1;
      end
    end
    if (clr_i) for (int unsigned k = 0; k < NRD_S; k++) rd_d[k] = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned k = 0; k < NRD_S; k++) rd_q[k] <= '0;
    end else begin
      for (int unsigned k = 0; k < NRD_S; k++) rd_q[k] <= rd_d[k];
    end
  end

  always_comb begin
    for (int unsigned k = 0; k < NRD_S; k++) rd_o[k*32 +: 32] = rd_q[k];
  end

  always_comb begin
    for (int unsigned k = 0; k < NRD_S; k++) wd_o[k*32 +: 32] = rd_d[k];
  end

  // invariants (docs/rtl.md "Assertions"): the write enables are known
  // after reset; a register is written only when an FU writes (at most
  // one write per FU, so no more registers than enabled ports); a file
  // with no register (pe.rd = 0) is never written
`ifdef TCPA_ASSERT_ON
  int unsigned nwe, nports;
  always_comb begin
    nwe = 0;
    nports = 0;
    for (int unsigned k = 0; k < NRD_S; k++) nwe += 32'(we_o[k]);
    for (int unsigned f = 0; f < NFU; f++) nports += 32'(we_i[f]);
  end
`endif
  `TCPA_ASSERT(RegfileWeKnown, !$isunknown(we_i), clk_i, rst_ni)
  `TCPA_ASSERT(RegfileWritesFromPorts, nwe <= nports, clk_i, rst_ni)
  `TCPA_ASSERT(RegfileEmptyNotWritten, NRD != 0 || we_o == '0, clk_i, rst_ni)
endmodule
