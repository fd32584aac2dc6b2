// tcpa_imem: the instruction memory of one FU: pe.imem words of 128 bits,
// kept as four 32-bit memories (w0..w3, isa.md) so the loader writes one
// stream word per cycle. A PROGRAM packet sets the program length; words at
// or beyond it read as zero (`nop ; next`), so a later, shorter program
// needs no clearing. Read is asynchronous (fetch in the issue cycle).
`include "rtl/tcpa_mutation.svh"

module tcpa_imem (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      len_we_i,
  input  logic [31:0]               len_i,     // instructions
  input  logic                      we_i,
  input  logic [31:0]               waddr_i,   // payload word index
  input  logic [31:0]               wdata_i,
  input  logic [tcpa_pkg::PC_W-1:0] raddr_i,
  output logic [127:0]              rdata_o,
  output logic                      loaded_o   // a program was loaded
);
  localparam int unsigned IMEM = tcpa_pkg::IMEM;
  localparam int unsigned AW   = (IMEM > 1) ? $clog2(IMEM) : 1;

  logic [31:0] mem0 [IMEM];
  logic [31:0] mem1 [IMEM];
  logic [31:0] mem2 [IMEM];
  logic [31:0] mem3 [IMEM];
  logic [31:0] len_q, len_d;
  logic [AW-1:0] wa, ra;
  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  assign wa = waddr_i[AW+1:2];
  assign ra = raddr_i[AW-1:0];
  assign len_d = len_we_i ? len_i : len_q;

  // memories: the RAM template (no reset; contents guarded by len_q)
  always_ff @(posedge clk_i) begin
    if (we_i && waddr_i[1:0] == 2'd0) mem0[wa] <= wdata_i;
    if (we_i && waddr_i[1:0] == 2'd1) mem1[wa] <= wdata_i;
    if (we_i && waddr_i[1:0] == 2'd2) mem2[wa] <= wdata_i;
    if (we_i && waddr_i[1:0] == 2'd3) mem3[wa] <= wdata_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) len_q <= '0;
    else len_q <= len_d;
  end

  always_comb begin
    rdata_o = '0;
    if ({24'd0, raddr_i} < len_q && {24'd0, raddr_i} < IMEM)
      rdata_o = {mem3[ra], mem2[ra], mem1[ra], mem0[ra]};
    // mutant 25: off by one: the length compare drops the last instruction
    // (it reads as `nop ; next`)
    `TCPA_MUTATE(25, if ({24'd0, raddr_i} + 32'd1 == len_q) rdata_o = '0;)
  end
  assign loaded_o = (len_q != 32'd0);
endmodule
