// tcpa_stepper: the step sequence of timing.md section 2 for one unit with a
// start delay (a PE, an address generator, or the global controller itself).
// From the first cycle with run_i high it counts cycles; once delay_i cycles
// have passed (local time u >= 0) it counts phases 0..ii-1 and steps
// 0..S-1 and keeps the iteration vector J in mixed radix (dimension 0
// fastest, the last dimension unbounded, so the epilog continues it).
// At the last phase of a step adv_o says J advances at the end of the cycle,
// inc_o (one-hot) which dimension increments and clr_o which lower
// dimensions wrap to 0: the affine evaluators (tcpa_affine) follow J with
// additions only.
`include "rtl/tcpa_assert.svh"
`include "rtl/tcpa_mutation.svh"

module tcpa_stepper (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  input  logic                              run_i,
  input  logic [31:0]                       delay_i,
  input  logic [31:0]                       ii_i,
  input  logic [31:0]                       ndims_i,
  input  logic [tcpa_pkg::NDIM*32-1:0]      bound_i,
  input  logic [31:0]                       nsteps_i,
  output logic                              started_o,   // u >= 0
  output logic                              first_o,     // u == 0
  output logic                              active_o,    // u >= 0 and s < S
  output logic                              begin_o,     // active, phase 0
  output logic                              last_o,      // u >= 0 and s >= S-1
  output logic [31:0]                       step_o,
  output logic                              adv_o,
  output logic [tcpa_pkg::NDIM-1:0]         inc_o,
  output logic [tcpa_pkg::NDIM-1:0]         clr_o
);
  localparam int unsigned NDIM = tcpa_pkg::NDIM;

  logic [31:0]        cnt_q, cnt_d;
  logic               was_q, was_d;
  logic [31:0]        ph_q, ph_d;
  logic [31:0]        s_q, s_d;
  logic [NDIM*32-1:0] j_q, j_d;
  logic               started, active, adv, found;
  logic [NDIM-1:0]    inc, clr;

  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  assign started = run_i && (cnt_q >= delay_i);
  assign active = started && (s_q < nsteps_i);
  assign adv = active && (ph_q + 32'd1 >= ii_i);

  // the dimension that increments: the first that does not wrap
  always_comb begin
    inc = '0;
    clr = '0;
    found = 1'b0;
    for (int unsigned d = 0; d < NDIM; d++) begin
      if (!found) begin
        if (d + 1 >= ndims_i || j_q[d*32 +: 32] + 32'd1 < bound_i[d*32 +: 32]) begin
          inc[d] = 1'b1;
          found = 1'b1;
        end else begin
          clr[d] = 1'b1;
        end
      end
    end
  end

  always_comb begin
    cnt_d = cnt_q;
    was_d = started;
    ph_d = ph_q;
    s_d = s_q;
    j_d = j_q;
    if (!run_i) begin
      cnt_d = '0;
      ph_d = '0;
      s_d = '0;
      j_d = '0;
    end else if (!started) begin
      cnt_d = cnt_q + 32'd1;
    end else if (active) begin
      if (adv) begin
        ph_d = '0;
        s_d = s_q + 32'd1;
        for (int unsigned d = 0; d < NDIM; d++) begin
          if (inc[d]) j_d[d*32 +: 32] = j_q[d*32 +: 32] + 32'd1;
          if (clr[d]) j_d[d*32 +: 32] = '0;
        end
      end else begin
        ph_d = ph_q + 32'd1;
      end
    end
    // mutant 22: off by one: the delay counter restarts at 1, so every unit
    // with a start delay (PE, AG phase) starts one cycle early
    `TCPA_MUTATE(22, if (!run_i) cnt_d = 32'd1;)
    // mutant 41: lost saturation: after its last step the counter runs on,
    // one step per ii cycles, as if the unit were still active
    `TCPA_MUTATE(41, if (started && !active) begin
      if (ph_q + 32'd1 >= ii_i) begin
        ph_d = '0;
        s_d = s_q + 32'd1;
      end else begin
        ph_d = ph_q + 32'd1;
      end
    end)
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
      was_q <= 1'b0;
      ph_q <= '0;
      s_q <= '0;
      j_q <= '0;
    end else begin
      cnt_q <= cnt_d;
      was_q <= was_d;
      ph_q <= ph_d;
      s_q <= s_d;
      j_q <= j_d;
    end
  end

  // invariants (docs/rtl.md "Assertions"): the phase stays below ii while
  // the unit is active; exactly one dimension increments, none of those
  // that wrap (ndims_i is in 1..NDIM: the loader checks it)
  `TCPA_ASSERT_IF(StepPhaseInRange, ph_q < ii_i, active, clk_i, rst_ni)
  `TCPA_ASSERT(StepIncOneHot, $onehot(inc), clk_i, rst_ni)
  `TCPA_ASSERT(StepIncClrDisjoint, (inc & clr) == '0, clk_i, rst_ni)

  assign started_o = started;
  assign first_o = started && !was_q;
  assign active_o = active;
  assign begin_o = active && (ph_q == 32'd0);
  assign last_o = started && (s_q + 32'd1 >= nsteps_i);
  assign step_o = s_q;
  assign adv_o = adv;
  assign inc_o = inc;
  assign clr_o = clr;
endmodule
