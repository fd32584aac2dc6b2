// tcpa_bank: one I/O buffer bank of iobuf.depth 32-bit words: one write port
// (IODATA from the loader or the write AG) and two asynchronous read ports
// (the read AG, and the harness' dump port). Contents are not reset: banks
// start zeroed at power-up (FPGA block RAM, Verilator zero init).
`include "rtl/tcpa_assert.svh"
`include "rtl/tcpa_mutation.svh"

module tcpa_bank (
  input  logic                         clk_i,
  input  logic                         we_i,
  input  logic [tcpa_pkg::BADDR_W-1:0] waddr_i,
  input  logic [31:0]                  wdata_i,
  input  logic [tcpa_pkg::BADDR_W-1:0] raddr_i,
  output logic [31:0]                  rdata_o,
  input  logic [tcpa_pkg::BADDR_W-1:0] dbg_addr_i,
  output logic [31:0]                  dbg_data_o
);
  logic [31:0] mem [tcpa_pkg::BANK_DEPTH];

  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
  end

  assign rdata_o = mem[raddr_i];
  // mutant 42: off by one at the end-of-run read: the dump port reads the
  // next word
  assign dbg_data_o = `TCPA_MUTANT_EXPR(42, mem[dbg_addr_i + 1'b1], mem[dbg_addr_i]);

  // invariants (docs/rtl.md "Assertions"): the write enable is known and a
  // write lands in the bank (the AG writes only in range, agrange; the
  // loader checks an IODATA packet's length against iobuf.depth). The
  // bank has no reset: the checks hold at every edge.
  `TCPA_ASSERT(BankWeKnown, !$isunknown(we_i), clk_i, 1'b1)
  `TCPA_ASSERT_IF(BankWriteInRange, 32'(waddr_i) < tcpa_pkg::BANK_DEPTH, we_i, clk_i, 1'b1)
endmodule
