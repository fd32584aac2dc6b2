// tcpa_branch_unit: the next pc of an FU from the branch part of the
// instruction it issues (docs/isa.md): next (pc + 1, wrapping at pe.imem),
// goto BT0, br (target index formed from up to ISA_SEL_COUNT condition
// bits: control signals c<j> as seen by the PE, or FU flags f<k>), halt.
// The fields come from tcpa_isa_pkg::insn_t (tcpa_fu): the kind as the
// typed br_kind_e, the selectors and targets as flat vectors of
// ISA_SEL_COUNT and ISA_MAX_TARGETS elements.
`include "rtl/tcpa_assert.svh"
`include "rtl/tcpa_mutation.svh"

module tcpa_branch_unit (
  input  logic                                       clk_i,   // assertions only
  input  logic                                       rst_ni,  // assertions only
  input  logic [tcpa_pkg::PC_W-1:0]                  pc_i,
  input  tcpa_isa_pkg::br_kind_e                     kind_i,
  input  logic [tcpa_isa_pkg::ISA_SIZE_BNSEL-1:0]    nsel_i,
  input  logic [tcpa_isa_pkg::ISA_SEL_COUNT*tcpa_isa_pkg::ISA_SIZE_BSEL-1:0] sel_i,
  input  logic [tcpa_isa_pkg::ISA_MAX_TARGETS*tcpa_isa_pkg::ISA_SIZE_BT-1:0] target_i,
  input  logic [tcpa_pkg::NSIG-1:0]                  sig_i,
  input  logic [tcpa_pkg::NFU-1:0]                   flag_i,
  output logic [tcpa_pkg::PC_W-1:0]                  next_o,
  output logic                                       halt_o
);
  localparam int unsigned PC_W = tcpa_pkg::PC_W;
  localparam int unsigned FLAG = tcpa_isa_pkg::ISA_COND_FLAG;
  localparam int unsigned NSEL = tcpa_isa_pkg::ISA_SEL_COUNT;
  localparam int unsigned SW   = tcpa_isa_pkg::ISA_SIZE_BSEL;
  localparam int unsigned BW   = tcpa_isa_pkg::ISA_SIZE_BT;

  logic [NSEL-1:0]    idx;
  logic [NSEL*SW-1:0] csel;  // sel(NSEL-1) .. sel0
  logic [NSEL-1:0]    cnd;
  logic [31:0]        s;     // the condition source of selector k
  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL
  // the target index with bit 0 inverted (mutant 6)
  `TCPA_MUTANT_ONLY(logic [NSEL-1:0] idx_flip;
                    always_comb begin
                      idx_flip = idx;
                      idx_flip[0] = !idx[0];
                    end)

  // condition k of the selectors: a control signal or an FU flag
  // (a loop, not a function: Verilator names an inlined function's
  // temporaries per instance, so that each PE got a copy of its own of the
  // code, docs/testing.md "Simulator speed")
  always_comb begin
    csel = sel_i;
    // mutant 12: wrong mux select: a one-condition br reads condition sel0 + 1
    `TCPA_MUTATE(12, if (kind_i == tcpa_isa_pkg::BK_COND && 32'(nsel_i) == 32'd1)
                       csel[0 +: SW] = sel_i[0 +: SW] + SW'(1);)
    cnd = '0;
    s = '0;
    for (int unsigned k = 0; k < NSEL; k++) begin
      s = 32'(csel[k*SW +: SW]);
      if (s < FLAG) begin
        if (s < tcpa_pkg::NSIG) cnd[k] = sig_i[s % tcpa_pkg::NSIG];
      end else if (s - FLAG < tcpa_pkg::NFU) begin
        cnd[k] = flag_i[(s - FLAG) % tcpa_pkg::NFU];
      end
    end
  end

  // the target index: bit 0 is condition 0; bit k > 0 condition k when
  // the branch uses more than k selectors (BNSEL, at most ISA_SEL_COUNT)
  always_comb begin
    idx = cnd;
    for (int unsigned k = 1; k < NSEL; k++)
      idx[k] = (32'(nsel_i) > k) && (32'(nsel_i) <= NSEL) && cnd[k];
  end

  always_comb begin
    halt_o = 1'b0;
    next_o = pc_i;
    unique case (kind_i)
      tcpa_isa_pkg::BK_NEXT:
        next_o = (32'(pc_i) + 32'd1 >= tcpa_pkg::IMEM) ? '0 : pc_i + 1'b1;
      tcpa_isa_pkg::BK_GOTO: next_o = target_i[0 +: PC_W];
      tcpa_isa_pkg::BK_COND: next_o = target_i[32'(idx)*BW +: PC_W];
      tcpa_isa_pkg::BK_HALT: halt_o = 1'b1;
      default: halt_o = 1'b1;
    endcase
    // mutant 6: br takes the other target (bit 0 of the index inverted)
    `TCPA_MUTATE(6, if (kind_i == tcpa_isa_pkg::BK_COND)
                      next_o = target_i[32'(idx_flip)*BW +: PC_W];)
    // mutant 12 (above): a one-condition br reads condition sel0 + 1
  end

  // invariants (docs/rtl.md "Assertions"): the unit halts on `halt` only;
  // `next` from a pc inside pe.imem stays inside (it wraps at the end); a
  // `br` forms its index from no more conditions than BNSEL says
  logic unused_clk;  // the clock and reset serve the assertions only
  assign unused_clk = ^{clk_i, rst_ni};
  `TCPA_ASSERT(BranchHaltIffHalt, halt_o == (kind_i == tcpa_isa_pkg::BK_HALT), clk_i, rst_ni)
  `TCPA_ASSERT_IF(BranchNextInImem, 32'(next_o) < tcpa_pkg::IMEM,
                  kind_i == tcpa_isa_pkg::BK_NEXT && 32'(pc_i) < tcpa_pkg::IMEM, clk_i, rst_ni)
  `TCPA_ASSERT_IF(BranchIdxWithinNsel, 32'(idx) < (32'd1 << 32'(nsel_i)),
                  kind_i == tcpa_isa_pkg::BK_COND && 32'(nsel_i) <= NSEL, clk_i, rst_ni)
endmodule
