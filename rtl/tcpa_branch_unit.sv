// tcpa_branch_unit: the next pc of an FU from the branch part of the
// instruction it issues (docs/isa.md): next (pc + 1, wrapping at pe.imem),
// goto BT0, br (target index formed from up to two condition bits: control
// signals c<j> as seen by the PE, or FU flags f<k>), halt.
`include "rtl/tcpa_mutation.svh"

module tcpa_branch_unit (
  input  logic [tcpa_pkg::PC_W-1:0]   pc_i,
  input  logic [1:0]                  kind_i,
  input  logic [1:0]                  nsel_i,
  input  logic [5:0]                  sel0_i,
  input  logic [5:0]                  sel1_i,
  input  logic [4*tcpa_pkg::PC_W-1:0] target_i,
  input  logic [tcpa_pkg::NSIG-1:0]   sig_i,
  input  logic [tcpa_pkg::NFU-1:0]    flag_i,
  output logic [tcpa_pkg::PC_W-1:0]   next_o,
  output logic                        halt_o
);
  localparam int unsigned PC_W = tcpa_pkg::PC_W;
  localparam int unsigned FLAG = tcpa_isa_pkg::ISA_COND_FLAG;

  logic [1:0]  idx;
  logic [11:0] csel;  // sel1, sel0
  logic [1:0]  cnd;
  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  // condition k of the two (sel0, sel1): a control signal or an FU flag
  // (a loop, not a function: Verilator names an inlined function's
  // temporaries per instance, so that each PE got a copy of its own of the
  // code, docs/testing.md "Simulator speed")
  always_comb begin
    csel = {sel1_i, sel0_i};
    // mutant 12: wrong mux select: a one-condition br reads condition sel0 + 1
    `TCPA_MUTATE(12, if (kind_i == tcpa_isa_pkg::BR_COND[1:0] && nsel_i == 2'd1)
                       csel[5:0] = sel0_i + 6'd1;)
    cnd = '0;
    for (int unsigned k = 0; k < 2; k++) begin
      if ({26'd0, csel[k*6 +: 6]} < FLAG) begin
        if ({26'd0, csel[k*6 +: 6]} < tcpa_pkg::NSIG)
          cnd[k] = sig_i[{26'd0, csel[k*6 +: 6]} % tcpa_pkg::NSIG];
      end else if ({26'd0, csel[k*6 +: 6]} - FLAG < tcpa_pkg::NFU) begin
        cnd[k] = flag_i[({26'd0, csel[k*6 +: 6]} - FLAG) % tcpa_pkg::NFU];
      end
    end
  end

  always_comb begin
    idx = {(nsel_i == 2'd2) && cnd[1], cnd[0]};
    halt_o = 1'b0;
    next_o = pc_i;
    case (kind_i)
      tcpa_isa_pkg::BR_NEXT[1:0]:
        next_o = ({24'd0, pc_i} + 32'd1 >= tcpa_pkg::IMEM) ? '0 : pc_i + 1'b1;
      tcpa_isa_pkg::BR_GOTO[1:0]: next_o = target_i[0 +: PC_W];
      tcpa_isa_pkg::BR_COND[1:0]: next_o = target_i[idx*PC_W +: PC_W];
      default: halt_o = 1'b1;
    endcase
    // mutant 6: br takes the other target (bit 0 of the index inverted)
    `TCPA_MUTATE(6, if (kind_i == tcpa_isa_pkg::BR_COND[1:0])
                      next_o = target_i[{30'd0, idx ^ 2'd1}*PC_W +: PC_W];)
    // mutant 12 (above): a one-condition br reads condition sel0 + 1
  end
endmodule
