// tcpa_sig_eval: the control signals one PE sees (timing.md section 2),
// evaluated in the PE itself from its own step walk, so that no start delay
// is bounded by a buffer (docs/rtl.md "Control signals").
//
// Every constraint k in use of the started GC's terms has one 32-bit
// accumulator holding its affine value konst[k] + sum(coef[k][d] * J[d]) at
// the PE's current J(s): it is konst[k] while the PE is not running (J = 0)
// (and for good when the constraint is not in use), and when
// the PE's tcpa_stepper advances J with dimension d incrementing (adv_i,
// inc_i one-hot; the lower dimensions wrap from bound - 1 to 0) it adds the
// step increment delta[k][d] = coef[k][d] - sum(e < d) coef[k][e] * (b[e] - 1),
// which the GC forms once while its packet is loaded (tcpa_gc). Additions
// modulo 2^32, so the value is the one of timing.md section 10 item 4.
// Constraint k holds when its value is 0 (kind 1) or >= 0 as a signed
// number (kind 0), or when it is not in use; a term holds when it is active
// and all its constraints hold; signal i is the OR of its terms. The PE
// gates the vector with its own "active" (u >= 0 and s < S).
// The accumulators are clocked through a clock gate of their own
// (tcpa_clock_gate) that runs only in the cycles where they are written:
// when J advances, and while the PE is not running. A simulator then
// evaluates the adders, the constraints and the terms (384 constraints on
// big1d.ini) only at the PE's steps, not in every cycle, and the
// constraints of a term only while the term is active (docs/rtl.md "Clock
// gating", docs/testing.md "Simulator speed").
`include "rtl/tcpa_assert.svh"
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

  logic [NC*32-1:0] acc;    // the accumulators, flat (Yosys 0.23 has no packed 2-D arrays)
  logic [NTERM-1:0] thold;  // term t active and all its constraints hold
  logic             hold;
  logic             acc_clk;

  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  // the dimension whose increment is added: the highest bit set in inc_i
  // (one-hot while the PE runs); none set, nothing is added
  logic [31:0] dsel;
  logic        dany;

  always_comb begin
    dsel = '0;
    dany = 1'b0;
    for (int unsigned d = 0; d < NDIM; d++)
      if (inc_i[d]) begin
        dsel = d;
        dany = 1'b1;
      end
    // mutant 38: the step counter's wrap is lost: every advance adds the
    // increment of dimension 0, as if no lower dimension ever wrapped
    `TCPA_MUTATE(38, begin dsel = '0; dany = 1'b1; end)
  end

  // the accumulators' clock runs when J advances and while the PE is not
  // running (at every other edge none of them would change)
  tcpa_clock_gate u_acc_cg (
    .clk_i (clk_i),
    .en_i  (!rst_ni || !run_i || adv_i),
    .clk_o (acc_clk)
  );

  // konst[k] while the PE is not running; the step increment added when J
  // advances, to the constraints in use (an unused one is never looked at:
  // it keeps konst[k]). One register, one adder and one 32-bit NDIM:1
  // multiplexer (a part select of delta_i) per constraint: a simulator
  // copies no vector of all NC accumulators when one of them changes, and
  // selects the increments of the constraints in use only
  // (docs/testing.md "Sampled copies, accumulators, the bus's clock").
  for (genvar k = 0; k < NC; k++) begin : g_acc
    logic [31:0] acc_q;
    always_ff @(posedge acc_clk or negedge rst_ni) begin
      if (!rst_ni) acc_q <= '0;
      else if (!run_i) acc_q <= konst_i[k*32 +: 32];
      else if (adv_i && dany && cuse_i[k]) acc_q <= acc_q + delta_i[(k*NDIM + dsel)*32 +: 32];
    end
    assign acc[k*32 +: 32] = acc_q;
  end

  // term t holds when it is active and each of its constraints holds
  // (== 0 or >= 0) or is not in use; the constraints of an inactive term
  // are not looked at
  for (genvar t = 0; t < NTERM; t++) begin : g_term
    logic th;
    always_comb begin
      th = 1'b0;
      if (tact_i[t]) begin
        th = 1'b1;
        for (int unsigned c = 0; c < NCONS; c++)
          if (cuse_i[t*NCONS + c] &&
              ((kind_i[t*NCONS + c] == tcpa_stream_pkg::CONS_EQ) ? (acc[(t*NCONS + c)*32 +: 32] != 32'd0)
                                                                 : acc[(t*NCONS + c)*32 + 31]))
            th = 1'b0;
      end
    end
    assign thold[t] = th;
  end

  // signal i: some active term of i has all its constraints true at J(s)
  always_comb begin
    sig_o = '0;
    hold = 1'b0;
    for (int unsigned t = 0; t < NTERM; t++) begin
      hold = thold[t];
      // bit tsig of sig_o; none when tsig >= NSIG (shifted out)
      if (hold) sig_o = sig_o | (SIG1 << tsig_i[t*8 +: 8]);
    end
    // mutant 4: control signal c0 stuck at 0
    `TCPA_MUTATE(4, sig_o[0] = 1'b0;)
    // mutant 20: control signal c1 stuck at 1
    `TCPA_MUTATE(20, sig_o[(NSIG > 1) ? 1 : 0] = 1'b1;)
  end

  // invariants (docs/rtl.md "Assertions"): J advances one dimension at a
  // time while the PE runs, and every term in use names an existing
  // signal (the loader checks a term's signal against gc.signals)
`ifdef TCPA_ASSERT_ON
  logic tsig_ok;
  always_comb begin
    tsig_ok = 1'b1;
    for (int unsigned t = 0; t < NTERM; t++)
      if (tact_i[t] && 32'(tsig_i[t*8 +: 8]) >= NSIG) tsig_ok = 1'b0;
  end
`endif
  `TCPA_ASSERT_IF(SigEvalIncOneHot, $onehot(inc_i), run_i && adv_i, clk_i, rst_ni)
  `TCPA_ASSERT(SigEvalTermSignalInRange, tsig_ok, clk_i, rst_ni)
endmodule
