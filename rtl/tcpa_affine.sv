// tcpa_affine: the value of an affine form konst + sum(coef[d] * J[d]) that
// follows the iteration vector J of a tcpa_stepper with additions only: one
// accumulator per dimension holds coef[d] * J[d]; when J advances, the
// incremented dimension adds its coefficient and the wrapped ones return to
// zero. clear_i (unit not running) empties the accumulators (J = 0).
`include "rtl/tcpa_assert.svh"
`include "rtl/tcpa_mutation.svh"

module tcpa_affine (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         clear_i,
  input  logic                         adv_i,
  input  logic [tcpa_pkg::NDIM-1:0]    inc_i,
  input  logic [tcpa_pkg::NDIM-1:0]    clr_i,
  input  logic [tcpa_pkg::NDIM*32-1:0] coef_i,
  input  logic [31:0]                  konst_i,
  output logic [31:0]                  value_o
);
  localparam int unsigned NDIM = tcpa_pkg::NDIM;

  logic [NDIM*32-1:0] acc_q, acc_d;
  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  always_comb begin
    acc_d = acc_q;
    value_o = konst_i;
    for (int unsigned d = 0; d < NDIM; d++) begin
      value_o = value_o + acc_q[d*32 +: 32];
      if (clear_i) acc_d[d*32 +: 32] = '0;
      else if (adv_i && inc_i[d]) acc_d[d*32 +: 32] = acc_q[d*32 +: 32] + coef_i[d*32 +: 32];
      else if (adv_i && clr_i[d]) acc_d[d*32 +: 32] = '0;
      // mutant 29: dropped clear: a wrapping dimension keeps its accumulator
      `TCPA_MUTATE(29, if (!clear_i && adv_i && !inc_i[d] && clr_i[d]) acc_d[d*32 +: 32] = acc_q[d*32 +: 32];)
    end
  end

  // the accumulators are written only when cleared or when J advances (a
  // simulator skips the idle cycles; docs/testing.md "Simulator speed")
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) acc_q <= '0;
    else if (clear_i || adv_i) acc_q <= acc_d;
  end

  // invariants (docs/rtl.md "Assertions"): when J advances one dimension
  // increments (one-hot) and the wrapped ones are others; the
  // accumulators are known after reset
  `TCPA_ASSERT_IF(AffineIncOneHot, $onehot(inc_i) && (inc_i & clr_i) == '0, adv_i && !clear_i,
                  clk_i, rst_ni)
  `TCPA_ASSERT(AffineAccKnown, !$isunknown(acc_q), clk_i, rst_ni)
endmodule
