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

  // Returns condition source `sel`: a control signal or an FU flag.
  function automatic logic cond(input logic [5:0] sel, input logic [tcpa_pkg::NSIG-1:0] sig,
                                input logic [tcpa_pkg::NFU-1:0] flag);
    cond = 1'b0;
    if ({26'd0, sel} < FLAG) begin
      if ({26'd0, sel} < tcpa_pkg::NSIG) cond = sig[{26'd0, sel} % tcpa_pkg::NSIG];
    end else if ({26'd0, sel} - FLAG < tcpa_pkg::NFU) begin
      cond = flag[({26'd0, sel} - FLAG) % tcpa_pkg::NFU];
    end
  endfunction

  logic [1:0] idx;
  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  always_comb begin
    idx = {(nsel_i == 2'd2) && cond(sel1_i, sig_i, flag_i), cond(sel0_i, sig_i, flag_i)};
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
    // mutant 12: wrong mux select: a one-condition br reads condition sel0 + 1
    `TCPA_MUTATE(12, if (kind_i == tcpa_isa_pkg::BR_COND[1:0] && nsel_i == 2'd1)
                       next_o = target_i[{31'd0, cond(sel0_i + 6'd1, sig_i, flag_i)}*PC_W +: PC_W];)
  end
endmodule
