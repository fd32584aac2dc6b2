// tcpa_op_eval: the result of opcode op_i on a_i, b_i, c_i (isa.md,
// isa_op_eval): the ALU of an FU, combinational. A module, not a function
// of tcpa_fu: Verilator names the temporaries of an inlined function by a
// counter that runs across the PEs, so that each PE's evaluation became a
// C++ function of its own, 16 copies of the same code (docs/testing.md
// "Simulator speed"). The opcode is the generated enum
// tcpa_isa_pkg::opcode_e (docs/rtl.md "Generated packages"); nop and any
// code that names no operation give 0.
module tcpa_op_eval (
  input  tcpa_isa_pkg::opcode_e op_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  output logic [31:0] y_o
);
  logic signed [31:0] sa, sb;
  assign sa = a_i;
  assign sb = b_i;

  always_comb begin
    y_o = '0;
    unique case (op_i)
      tcpa_isa_pkg::OPC_MOV:  y_o = a_i;
      tcpa_isa_pkg::OPC_NEG:  y_o = 32'd0 - a_i;
      tcpa_isa_pkg::OPC_NOT:  y_o = ~a_i;
      tcpa_isa_pkg::OPC_LNOT: y_o = {31'd0, a_i == 32'd0};
      tcpa_isa_pkg::OPC_MUL:  y_o = a_i * b_i;
      tcpa_isa_pkg::OPC_DIV:
        if (b_i == 32'd0) y_o = 32'hFFFFFFFF;
        else if (a_i == 32'h80000000 && b_i == 32'hFFFFFFFF) y_o = 32'h80000000;
        else y_o = sa / sb;
      tcpa_isa_pkg::OPC_MOD:
        if (b_i == 32'd0) y_o = a_i;
        else if (a_i == 32'h80000000 && b_i == 32'hFFFFFFFF) y_o = 32'd0;
        else y_o = sa % sb;
      tcpa_isa_pkg::OPC_ADD:  y_o = a_i + b_i;
      tcpa_isa_pkg::OPC_SUB:  y_o = a_i - b_i;
      tcpa_isa_pkg::OPC_SHL:  y_o = a_i << b_i[4:0];
      tcpa_isa_pkg::OPC_SHR:  y_o = sa >>> b_i[4:0];
      tcpa_isa_pkg::OPC_SHRU: y_o = a_i >> b_i[4:0];
      tcpa_isa_pkg::OPC_LT:   y_o = {31'd0, sa < sb};
      tcpa_isa_pkg::OPC_LE:   y_o = {31'd0, sa <= sb};
      tcpa_isa_pkg::OPC_GT:   y_o = {31'd0, sa > sb};
      tcpa_isa_pkg::OPC_GE:   y_o = {31'd0, sa >= sb};
      tcpa_isa_pkg::OPC_EQ:   y_o = {31'd0, a_i == b_i};
      tcpa_isa_pkg::OPC_NE:   y_o = {31'd0, a_i != b_i};
      tcpa_isa_pkg::OPC_AND:  y_o = a_i & b_i;
      tcpa_isa_pkg::OPC_XOR:  y_o = a_i ^ b_i;
      tcpa_isa_pkg::OPC_OR:   y_o = a_i | b_i;
      tcpa_isa_pkg::OPC_SEL:  y_o = (a_i != 32'd0) ? b_i : c_i;
      tcpa_isa_pkg::OPC_MIN:  y_o = (sa < sb) ? a_i : b_i;
      tcpa_isa_pkg::OPC_MAX:  y_o = (sa > sb) ? a_i : b_i;
      tcpa_isa_pkg::OPC_ABS:  y_o = sa[31] ? 32'd0 - a_i : a_i;
      default: y_o = '0;
    endcase
  end
endmodule
