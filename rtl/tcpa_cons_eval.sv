// tcpa_cons_eval: the step walk and the enable constraints of a unit whose
// events are guarded by affine constraints on the iteration vector J (the
// global controller's signal terms, an address generator's enable;
// timing.md sections 2 and 6, stream.md GC and AG). It holds the unit's
// tcpa_stepper (start delay delay_i) and one tcpa_affine accumulator per
// constraint k, which follows J(s) with additions only. Constraint k is
// konst[k] + sum(coef[k][d] * J[d]) == 0 when kind_i[k] is 1, >= 0 when 0;
// hold_o[k] says it holds at J(s), or that it is not in use (use_i[k] = 0).
// The stepper's outputs go out so that the unit can follow J with its own
// accumulators (the AG's address) and time its events (begin_o).
`include "rtl/tcpa_mutation.svh"

module tcpa_cons_eval #(
  parameter int unsigned N = 1  // constraints
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  // the step walk (tcpa_stepper)
  input  logic                                  run_i,
  input  logic [31:0]                           delay_i,
  input  logic [31:0]                           ii_i,
  input  logic [31:0]                           ndims_i,
  input  logic [tcpa_pkg::NDIM*32-1:0]          bound_i,
  input  logic [31:0]                           nsteps_i,
  output logic                                  begin_o,  // active, phase 0
  output logic                                  last_o,   // u >= 0 and s >= S-1
  output logic [31:0]                           step_o,
  output logic                                  adv_o,
  output logic [tcpa_pkg::NDIM-1:0]             inc_o,
  output logic [tcpa_pkg::NDIM-1:0]             clr_o,
  // the constraints: empty accumulators (J = 0) while clear_i
  input  logic                                  clear_i,
  input  logic [N-1:0]                          use_i,
  input  logic [N-1:0]                          kind_i,   // 1: == 0, 0: >= 0
  input  logic [N*tcpa_pkg::NDIM*32-1:0]        coef_i,   // constraint k at k*NDIM*32
  input  logic [N*32-1:0]                       konst_i,
  output logic [N-1:0]                          hold_o
);
  localparam int unsigned NDIM = tcpa_pkg::NDIM;

  logic [N*32-1:0] cval;  // flat: Yosys 0.23 has no packed 2-D arrays
  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  tcpa_stepper u_stepper (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .run_i     (run_i),
    .delay_i   (delay_i),
    .ii_i      (ii_i),
    .ndims_i   (ndims_i),
    .bound_i   (bound_i),
    .nsteps_i  (nsteps_i),
    .started_o (),
    .first_o   (),
    .active_o  (),
    .begin_o   (begin_o),
    .last_o    (last_o),
    .step_o    (step_o),
    .adv_o     (adv_o),
    .inc_o     (inc_o),
    .clr_o     (clr_o)
  );

  for (genvar k = 0; k < N; k++) begin : g_cons
    tcpa_affine u_affine (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .clear_i (clear_i),
      .adv_i   (adv_o),
      .inc_i   (inc_o),
      .clr_i   (clr_o),
      .coef_i  (coef_i[k*NDIM*32 +: NDIM*32]),
      .konst_i (konst_i[k*32 +: 32]),
      .value_o (cval[k*32 +: 32])
    );
  end

  always_comb begin
    hold_o = '1;
    for (int unsigned k = 0; k < N; k++) begin
      if (use_i[k] && ((kind_i[k] == tcpa_stream_pkg::CONS_EQ) ? (cval[k*32 +: 32] != 32'd0)
                                                              : cval[k*32 + 31]))
        hold_o[k] = 1'b0;
      // mutant 30: off by one: a `>= 0` constraint fails at 0 (evaluated as > 0)
      `TCPA_MUTATE(30, if (use_i[k] && kind_i[k] == tcpa_stream_pkg::CONS_GE && cval[k*32 +: 32] == 32'd0) hold_o[k] = 1'b0;)
    end
  end
endmodule
