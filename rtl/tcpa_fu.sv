// tcpa_fu: one functional unit (timing.md section 3): instruction memory,
// program counter, decoder, the operation of its class, a result pipeline
// of the class latency L and the branch unit. It issues imem[pc] every cycle
// from its start (run_i: the PE's local time u >= 0, and a program loaded)
// until it issues a halt. Sources (class and index) go to the PE, which
// returns their values in the same cycle; the result of an instruction
// issued at t is written (wb_*) at the end of t + L - 1. The flag is
// `result != 0` of the last write.
//
// A nop whose IMM n is not 0 (`nop N`, N = n + 1; docs/isa.md "Multi-cycle
// nop", docs/timing.md section 3) issues once and loads the wait counter
// wait_q with n; while wait_q is not 0 the FU issues nothing, holds its pc
// and counts down; the branch unit's result is taken in the last cycle of
// the word (wait_q == 1, or the issue cycle of any other word), with that
// cycle's signals and flags.
//
// The word is read only through the generated struct tcpa_isa_pkg::insn_t
// (docs/rtl.md "Generated packages"): a field's size or position changed
// in common/isa.h carries into the decoding with no edit here.
`include "rtl/tcpa_mutation.svh"
`include "rtl/tcpa_assert.svh"

module tcpa_fu #(
  parameter logic [7:0]  IDX = 8'd0,   // FU number (alu, then mul, then div)
  parameter int unsigned LAT = 1       // latency of the FU's class
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // restart (docs/timing.md section 11): pc 0, not halted, flag 0, no
  // wait, nothing in flight after this cycle
  input  logic                        clr_i,
  // configuration clear (docs/timing.md section 11): no program from the
  // end of this cycle on, unless this cycle's PROGRAM header gives one
  input  logic                        cfg_clr_i,
  // configuration bus, already filtered to this PE
  input  logic                        bus_we_i,
  input  logic                        bus_begin_i,
  input  tcpa_stream_pkg::pkt_kind_e  bus_type_i,
  input  logic [7:0]                  bus_index_i,
  input  logic [31:0]                 bus_addr_i,
  input  logic [31:0]                 bus_data_i,
  // control
  input  logic                        run_i,
  input  logic [tcpa_pkg::NSIG-1:0]   sig_i,
  input  logic [tcpa_pkg::NFU-1:0]    flag_i,
  // operands
  output logic [3*tcpa_isa_pkg::ISA_SIZE_OPND-1:0] src_o,  // SRCA, SRCB, SRCC operands
  input  logic [3*32-1:0]             src_val_i,  // their register values
  // issue
  output logic                        issue_o,
  output logic [tcpa_pkg::PC_W-1:0]   pc_o,
  output logic                        halt_o,
  output logic                        loaded_o,
  output logic                        halted_o,   // halted (before this cycle)
  output logic                        inflight_o, // a result is written after this cycle
  // write-back
  output logic                        wb_o,
  output logic [tcpa_isa_pkg::ISA_SIZE_OPND-1:0]   wb_dst_o,
  output logic [tcpa_isa_pkg::ISA_SIZE_ODMASK-1:0] wb_odmask_o,
  output logic [31:0]                 wb_val_o,
  output logic                        flag_o,
  output logic [tcpa_isa_pkg::ISA_WORD_BITS-1:0] word_o  // the instruction at pc (trace only)
);
  localparam int unsigned PC_W = tcpa_pkg::PC_W;
  localparam int unsigned NP   = (LAT > 1) ? LAT - 1 : 1;  // pipeline stages
  localparam int unsigned OW   = tcpa_isa_pkg::ISA_SIZE_OPND;
  localparam int unsigned MW   = tcpa_isa_pkg::ISA_SIZE_ODMASK;
  localparam int unsigned IW   = tcpa_isa_pkg::ISA_SIZE_IMM;
  localparam int unsigned PW   = 1 + OW + MW + 32;         // valid, dst, odmask, value

  logic [PC_W-1:0]  pc_q, pc_d;
  logic             halted_q, halted_d;
  logic [IW-1:0]    wait_q, wait_d;    // waiting cycles left of a nop N
  logic             active, waiting, last, nop_wait;
  logic [IW-1:0]    imm;
  logic             flag_q, flag_d;
  logic [NP*PW-1:0] pipe_q, pipe_d;
  logic [tcpa_isa_pkg::ISA_WORD_BITS-1:0] word;  // imem[pc], flat (the FST's `word`)
  tcpa_isa_pkg::insn_t   insn;                     // the same word, its fields
  logic             issue, bhalt;
  logic [PC_W-1:0]  bnext;
  tcpa_isa_pkg::opcode_e op;
  logic [3*OW-1:0]  opnd;
  logic [3*32-1:0]  val;
  logic [31:0]      opv;
  logic [PW-1:0]    res, wb;
  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL
  // mutant 5: the result one cycle later
  `TCPA_MUTANT_ONLY(
    logic [PW-1:0] late_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) late_q <= '0;
      else late_q <= res;
    end
  )

  logic pgm_hdr;  // this FU's PROGRAM header: its program length
  assign pgm_hdr = bus_begin_i && bus_type_i == tcpa_stream_pkg::PKT_PROGRAM && bus_index_i == IDX;

  tcpa_imem u_imem (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .len_we_i (pgm_hdr || cfg_clr_i),
    .len_i    (pgm_hdr ? bus_data_i >> 2 : 32'd0),
    .we_i     (bus_we_i && bus_type_i == tcpa_stream_pkg::PKT_PROGRAM && bus_index_i == IDX),
    .waddr_i  (bus_addr_i),
    .wdata_i  (bus_data_i),
    .raddr_i  (pc_q),
    .rdata_o  (word),
    .loaded_o (loaded_o)
  );

  // started, program loaded, not halted: the FU issues, or waits in a nop N
  assign active = run_i && loaded_o && !halted_q;
  assign waiting = (wait_q != '0);
  assign issue = active && !waiting;
  assign insn = word;
  // the reserved bits (tcpa_isa_pkg::ISA_RSVD_MASK): zero in a valid word,
  // not looked at
  logic unused_rsvd;
  assign unused_rsvd = ^(insn & tcpa_isa_pkg::ISA_RSVD_MASK);
  assign op = insn.op;
  assign imm = insn.imm;
  // the word issued now is a nop N (N >= 2): it waits imm cycles
  assign nop_wait = (op == tcpa_isa_pkg::OPC_NOP) && (imm != '0);
  // the word's last cycle: its branch is evaluated now
  assign last = active && (waiting ? (wait_q == IW'(1)) : !nop_wait);
  assign opnd = {insn.srcc, insn.srcb, insn.srca};
  assign src_o = issue ? opnd : '0;

  // operand values: the immediate here, registers from the PE; all 0 in a
  // cycle without issue (docs/trace.md, FST signals)
  always_comb begin
    val = '0;
    for (int unsigned k = 0; k < 3; k++) begin
      if (opnd[k*OW + tcpa_isa_pkg::ISA_POS_OPND_CLS +: tcpa_isa_pkg::ISA_SIZE_CLS] ==
          tcpa_isa_pkg::OC_IMM)
        val[k*32 +: 32] = 32'(imm);
      else
        val[k*32 +: 32] = src_val_i[k*32 +: 32];
      // mutant 1: SRCB takes the register path even for an immediate
      `TCPA_MUTATE(1, if (k == 1) val[k*32 +: 32] = src_val_i[k*32 +: 32];)
    end
    if (!issue) val = '0;
  end

  tcpa_branch_unit u_branch (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .pc_i     (pc_q),
    .kind_i   (insn.bkind),
    .nsel_i   (insn.bnsel),
    .sel_i    (insn.bsel),
    .target_i (insn.bt),
    .sig_i    (sig_i),
    .flag_i   (flag_i),
    .next_o   (bnext),
    .halt_o   (bhalt)
  );

  tcpa_op_eval u_op (
    .op_i (op),
    .a_i  (val[31:0]),
    .b_i  (val[63:32]),
    .c_i  (val[95:64]),
    .y_o  (opv)
  );
  // mutant 27's quotient
  `TCPA_MUTANT_ONLY(
    logic [31:0] quot;
    tcpa_op_eval u_quot (
      .op_i (tcpa_isa_pkg::OPC_DIV),
      .a_i  (val[31:0]),
      .b_i  (val[63:32]),
      .c_i  (val[95:64]),
      .y_o  (quot)
    );
  )

  // the issued result, then the pipeline of LAT - 1 stages
  assign res = {issue && op != tcpa_isa_pkg::OPC_NOP, insn.dst, insn.odmask, opv};

  always_comb begin
    pipe_d = pipe_q;
    wb = res;
    inflight_o = 1'b0;
    if (LAT > 1) begin
      wb = pipe_q[(NP-1)*PW +: PW];
      inflight_o = res[PW-1];
      for (int unsigned k = 0; k + 1 < NP; k++) begin
        if (pipe_q[k*PW + PW - 1]) inflight_o = 1'b1;
      end
      pipe_d = pipe_q << PW;
      pipe_d[0 +: PW] = res;
    end
    // mutant 5: a latency-1 FU writes its result one cycle late
    `TCPA_MUTATE(5, if (LAT == 1) begin
                      wb = late_q;
                      inflight_o = res[PW-1];
                    end)
    // mutant 9: wrong ALU result mux: `and` computes a | b
    `TCPA_MUTATE(9, if (LAT == 1 && op == tcpa_isa_pkg::OPC_AND) wb[31:0] = val[31:0] | val[63:32];)
    // mutant 11: latency off by one: a multi-cycle FU writes one cycle early
    `TCPA_MUTATE(11, if (LAT > 1) wb = (NP > 1) ? pipe_q[(NP-2)*PW +: PW] : res;)
    // mutant 26: wrong operand: the multiplier computes a * a
    `TCPA_MUTATE(26, if (LAT > 1 && op == tcpa_isa_pkg::OPC_MUL) pipe_d[31:0] = val[31:0] * val[31:0];)
    // mutant 27: wrong result mux: the divider's `mod` returns the quotient
    `TCPA_MUTATE(27, if (LAT > 1 && op == tcpa_isa_pkg::OPC_MOD)
                       pipe_d[31:0] = quot;)
    if (clr_i) pipe_d = '0;
  end

  always_comb begin
    pc_d = pc_q;
    halted_d = halted_q;
    flag_d = flag_q;
    wait_d = wait_q;
    if (issue && nop_wait) wait_d = imm;
    else if (active && waiting) wait_d = wait_q - IW'(1);
    if (last) begin
      pc_d = bnext;
      halted_d = bhalt;
    end
    if (wb[PW-1]) flag_d = (wb[31:0] != 32'd0);
    // mutant 28: wrong bit: the flag is the result's sign bit (result < 0),
    // not result != 0
    `TCPA_MUTATE(28, if (wb[PW-1]) flag_d = wb[31];)
    // mutant 10: stuck control signal: halt is never latched (the FU runs on)
    `TCPA_MUTATE(10, halted_d = halted_q;)
    // mutant 43: wait counter off by one: a nop N waits one cycle less
    // (its branch is taken in its next-to-last cycle)
    `TCPA_MUTATE(43, if (issue && nop_wait) wait_d = imm - IW'(1);
                     if (issue && nop_wait && imm == IW'(1)) begin
                       pc_d = bnext;
                       halted_d = bhalt;
                     end)
    if (clr_i) begin
      pc_d = '0;
      halted_d = 1'b0;
      flag_d = 1'b0;
      wait_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_q <= '0;
      halted_q <= 1'b0;
      wait_q <= '0;
      flag_q <= 1'b0;
      pipe_q <= '0;
    end else begin
      pc_q <= pc_d;
      halted_q <= halted_d;
      wait_q <= wait_d;
      flag_q <= flag_d;
      pipe_q <= pipe_d;
    end
  end

  assign issue_o = issue;
  assign pc_o = pc_q;
  assign halt_o = last && bhalt;
  assign halted_o = halted_q;
  assign wb_o = wb[PW-1];
  assign wb_dst_o = wb[PW-2 -: OW];
  assign wb_odmask_o = wb[PW-2-OW -: MW];
  assign wb_val_o = wb[31:0];
  assign flag_o = flag_q;
  assign word_o = word;

  // a waiting FU sits on the nop N that started the wait, not halted, and
  // the count left is at most that nop's repeat count (IMM)
  `TCPA_ASSERT_IF(FuWaitOnNop, (op == tcpa_isa_pkg::OPC_NOP) && (wait_q <= imm) && !halted_q,
                  waiting, clk_i, rst_ni)
endmodule
