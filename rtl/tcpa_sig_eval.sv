// tcpa_sig_eval: the control signals one PE sees (timing.md section 2),
// evaluated in the PE itself from its own step walk, so that no start delay
// is bounded by a buffer (docs/rtl.md "Control signals").
//
// Every constraint k of the started GC's terms has one 32-bit accumulator
// holding its affine value konst[k] + sum(coef[k][d] * J[d]) at the PE's
// current J(s): it is konst[k] while the PE is not running (J = 0), and when
// the PE's tcpa_stepper advances J with dimension d incrementing (adv_i,
// inc_i one-hot; the lower dimensions wrap from bound - 1 to 0) it adds the
// step increment delta[k][d] = coef[k][d] - sum(e < d) coef[k][e] * (b[e] - 1),
// which the GC forms once while its packet is loaded (tcpa_gc). Additions
// modulo 2^32, so the value is the one of timing.md section 10 item 4.
// Constraint k holds when its value is 0 (kind 1) or >= 0 as a signed
// number (kind 0), or when it is not in use; a term holds when it is active
// and all its constraints hold; signal i is the OR of its terms. The PE
// gates the vector with its own "active" (u >= 0 and s < S).
`include "rtl/tcpa_mutation.svh"

module tcpa_sig_eval (
  input  logic                                               clk_i,
  input  logic                                               rst_ni,
  input  logic                                               run_i,   // PE running
  input  logic                                               adv_i,   // J advances
  input  logic [tcpa_pkg::NDIM-1:0]                          inc_i,   // one-hot
  input  logic [tcpa_pkg::NTERM-1:0]                         tact_i,  // term in use
  input  logic [tcpa_pkg::NTERM*8-1:0]                       tsig_i,  // term's signal
  input  logic [tcpa_pkg::NTERM*tcpa_pkg::NCONS-1:0]         cuse_i,
  input  logic [tcpa_pkg::NTERM*tcpa_pkg::NCONS-1:0]         kind_i,  // 1: == 0
  input  logic [tcpa_pkg::NTERM*tcpa_pkg::NCONS*32-1:0]      konst_i,
  input  logic [tcpa_pkg::NTERM*tcpa_pkg::NCONS*tcpa_pkg::NDIM*32-1:0] delta_i,
  output logic [tcpa_pkg::NSIG-1:0]                          sig_o
);
  localparam int unsigned NDIM  = tcpa_pkg::NDIM;
  localparam int unsigned NTERM = tcpa_pkg::NTERM;
  localparam int unsigned NCONS = tcpa_pkg::NCONS;
  localparam int unsigned NSIG  = tcpa_pkg::NSIG;
  localparam int unsigned NC    = NTERM * NCONS;
  localparam logic [NSIG-1:0] SIG1 = 1;  // signal 0's bit

  logic [NC*32-1:0] acc_q;  // flat: Yosys 0.23 has no packed 2-D arrays
  logic [NC-1:0]    chold;
  logic             hold;

  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  // the dimension whose increment is added: the highest bit set in inc_i
  // (one-hot while the PE runs); none set, nothing is added
  int unsigned dsel;
  logic        dany;

  always_comb begin
    dsel = 0;
    dany = 1'b0;
    for (int unsigned d = 0; d < NDIM; d++)
      if (inc_i[d]) begin
        dsel = d;
        dany = 1'b1;
      end
    // mutant 38: the step counter's wrap is lost: every advance adds the
    // increment of dimension 0, as if no lower dimension ever wrapped
    `TCPA_MUTATE(38, begin dsel = 0; dany = 1'b1; end)
  end

  // konst[k] while the PE is not running; the step increment added when J
  // advances (one adder per constraint). The accumulators are written only
  // then, so a simulator skips the cycles between advances
  // (docs/testing.md "Simulator speed").
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) acc_q <= '0;
    else if (!run_i) acc_q <= konst_i;
    else if (adv_i)
      for (int unsigned k = 0; k < NC; k++)
        acc_q[k*32 +: 32] <= acc_q[k*32 +: 32] + (dany ? delta_i[(k*NDIM + dsel)*32 +: 32] : 32'd0);
  end

  // one continuous assignment per constraint (constant bit positions: a
  // procedural loop over NC constraints costs a simulator a variable part
  // select per constraint and cycle)
  for (genvar k = 0; k < NC; k++) begin : g_hold
    assign chold[k] = !cuse_i[k] || (kind_i[k] ? (acc_q[k*32 +: 32] == 32'd0) : !acc_q[k*32 + 31]);
  end

  // signal i: some active term of i has all its constraints true at J(s)
  always_comb begin
    sig_o = '0;
    hold = 1'b0;
    for (int unsigned t = 0; t < NTERM; t++) begin
      hold = tact_i[t] && (&chold[t*NCONS +: NCONS]);
      // bit tsig of sig_o; none when tsig >= NSIG (shifted out)
      if (hold) sig_o = sig_o | (SIG1 << tsig_i[t*8 +: 8]);
    end
    // mutant 4: control signal c0 stuck at 0
    `TCPA_MUTATE(4, sig_o[0] = 1'b0;)
    // mutant 20: control signal c1 stuck at 1
    `TCPA_MUTATE(20, sig_o[(NSIG > 1) ? 1 : 0] = 1'b1;)
  end
endmodule
