// tcpa_imem: the instruction memory of one FU: pe.imem words of
// tcpa_isa_pkg::ISA_WORD_BITS bits, kept as ISA_WORDS 32-bit memories
// (g_word[k].mem holds bits 32k.., isa.md) so the loader writes one stream
// word per cycle. A PROGRAM packet sets the program length; words at or
// beyond it read as zero (`nop ; next`), so a later, shorter program needs
// no clearing. Read is asynchronous (fetch in the issue cycle).
`include "rtl/tcpa_assert.svh"
`include "rtl/tcpa_mutation.svh"

module tcpa_imem (
  input  logic                                    clk_i,
  input  logic                                    rst_ni,
  input  logic                                    len_we_i,
  input  logic [31:0]                             len_i,     // instructions
  input  logic                                    we_i,
  input  logic [31:0]                             waddr_i,   // payload word index
  input  logic [31:0]                             wdata_i,
  input  logic [tcpa_pkg::PC_W-1:0]               raddr_i,
  output logic [tcpa_isa_pkg::ISA_WORD_BITS-1:0]  rdata_o,
  output logic                                    loaded_o   // a program was loaded
);
  localparam int unsigned IMEM  = tcpa_pkg::IMEM;
  localparam int unsigned AW    = (IMEM > 1) ? $clog2(IMEM) : 1;
  localparam int unsigned WORDS = tcpa_isa_pkg::ISA_WORDS;
  // the bits of a payload word index that say which 32-bit word of an
  // instruction it is
  localparam int unsigned WW    = (WORDS > 1) ? $clog2(WORDS) : 1;

  logic [31:0] len_q, len_d;
  logic [AW-1:0] wa, ra;
  logic [tcpa_isa_pkg::ISA_WORD_BITS-1:0] rword;
  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  assign wa = waddr_i[AW+WW-1:WW];
  assign ra = raddr_i[AW-1:0];
  assign len_d = len_we_i ? len_i : len_q;

  // memories: the RAM template (no reset; contents guarded by len_q)
  for (genvar k = 0; k < WORDS; k++) begin : g_word
    logic [31:0] mem [IMEM];
    always_ff @(posedge clk_i) begin
      if (we_i && 32'(waddr_i[WW-1:0]) == k) mem[wa] <= wdata_i;
    end
    assign rword[k*32 +: 32] = mem[ra];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) len_q <= '0;
    else len_q <= len_d;
  end

  always_comb begin
    rdata_o = '0;
    if (32'(raddr_i) < len_q && 32'(raddr_i) < IMEM) rdata_o = rword;
    // mutant 25: off by one: the length compare drops the last instruction
    // (it reads as `nop ; next`)
    `TCPA_MUTATE(25, if (32'(raddr_i) + 32'd1 == len_q) rdata_o = '0;)
  end
  assign loaded_o = (len_q != 32'd0);

  // invariants (docs/rtl.md "Assertions"): no write beyond the memory (the
  // loader checks a PROGRAM packet's length against pe.imem), no program
  // longer than it, and the length known after reset
  `TCPA_ASSERT_IF(ImemWriteInRange, 32'(wa) < IMEM && waddr_i < IMEM * WORDS, we_i, clk_i, rst_ni)
  `TCPA_ASSERT(ImemLenInRange, len_q <= IMEM, clk_i, rst_ni)
  `TCPA_ASSERT(ImemLenKnown, !$isunknown(len_q), clk_i, rst_ni)
endmodule
