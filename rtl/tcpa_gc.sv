// tcpa_gc: global controller idx_i (a port, not a parameter, so synthesis
// elaborates one module for all four). Stores its GC packet (docs/stream.md) from
// the configuration bus: ii, bounds, epilog, the start-delay coefficients,
// the region origin and the signal terms. The number of steps
// S = prod(bounds) + epilog is formed while the bounds arrive.
//
// The GC does not evaluate the terms itself: every PE of the started region
// does, at its own step (tcpa_sig_eval, timing.md section 2), so that no
// start delay is bounded. For that the GC turns each constraint's
// coefficients into step increments while they arrive: when J advances with
// dimension d incrementing, the lower dimensions wrap from b[e] - 1 to 0, so
// the constraint's value changes by
//   delta[k][d] = coef[k][d] - sum(e < d) coef[k][e] * (b[e] - 1).
// The bounds precede the terms in the packet and a constraint's
// coefficients arrive in dimension order, one word per cycle, so a running
// sum (wsum, cleared at the constraint's kind word) gives each delta as its
// word arrives: one multiplier, one adder, one subtractor per GC; the delta
// is stored where the coefficient was. The PEs add these, modulo 2^32.
`include "rtl/tcpa_assert.svh"

module tcpa_gc (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic [7:0]                          idx_i,     // GC number (a constant)
  input  tcpa_pkg::cfg_bus_t                  bus_i,
  input  logic                                run_i,     // started, from the start pulse on
  output logic [31:0]                         ii_o,
  output logic [31:0]                         ndims_o,
  output logic [tcpa_pkg::NDIM*32-1:0]        bound_o,
  output logic [31:0]                         nsteps_o,
  output logic [31:0]                         delay0_o,
  output logic [31:0]                         delay_row_o,
  output logic [31:0]                         delay_col_o,
  output logic [15:0]                         row0_o,
  output logic [15:0]                         col0_o,
  output logic [15:0]                         rows_o,   // the packet's rectangle, for the terms' PE ranges
  output logic [15:0]                         cols_o,
  // the terms, for the PEs' tcpa_sig_eval
  output logic [tcpa_pkg::NTERM-1:0]          tact_o,
  output logic [tcpa_pkg::NTERM*8-1:0]        tsig_o,
  // each term's PE range (docs/stream.md, signal word bits 8..31): row_lo,
  // row_skip, col_lo, col_skip, 6 bits each, row_lo lowest
  output logic [tcpa_pkg::NTERM*24-1:0]       trng_o,
  output logic [tcpa_pkg::NTERM*tcpa_pkg::NCONS-1:0] cuse_o,
  output logic [tcpa_pkg::NTERM*tcpa_pkg::NCONS-1:0] kind_o,
  output logic [tcpa_pkg::NTERM*tcpa_pkg::NCONS*32-1:0] konst_o,
  output logic [tcpa_pkg::NTERM*tcpa_pkg::NCONS*tcpa_pkg::NDIM*32-1:0] delta_o,
  // trace (docs/trace.md `gc`): the GC begins step dbg_step_o in this
  // cycle (dbg_begin_o) with signal vector dbg_sig_o
  output logic                                dbg_begin_o,
  output logic [31:0]                         dbg_step_o,
  output logic [tcpa_pkg::NSIG-1:0]           dbg_sig_o
);
  localparam int unsigned NDIM  = tcpa_pkg::NDIM;
  localparam int unsigned NTERM = tcpa_pkg::NTERM;
  localparam int unsigned NCONS = tcpa_pkg::NCONS;
  localparam int unsigned NC    = NTERM * NCONS;

  // fields of the configuration bus this unit does not look at
  logic unused_bus;
  assign unused_bus = ^{bus_i.side, bus_i.addr};

  logic [31:0]          ii_q, nd_q, epi_q, prod_q;
  logic [31:0]          dl0_q, dlr_q, dlc_q, nt_q;
  logic [15:0]          row0_q, col0_q, rows_q, cols_q;
  logic [NTERM*24-1:0]  trng_q;
  logic [NDIM*32-1:0]   bound_q;
  logic [NTERM*8-1:0]   tsig_q;
  logic [NTERM*8-1:0]   tnc_q;
  logic [NC-1:0]        kind_q;
  logic [NC*NDIM*32-1:0] delta_q;
  logic [NC*32-1:0]     konst_q;

  logic                 mine;
  tcpa_stream_pkg::cons_kind_word_t ckind_word;  // the bus word, its KIND typed
  logic [31:0]          wrapv, wsum_q;
  logic [NC-1:0]        cuse;
  logic [NTERM-1:0]     tact;
  int unsigned          ci;

  assign ckind_word = bus_i.data;
  assign mine = (bus_i.ptype == tcpa_stream_pkg::PKT_GC) && (bus_i.index == idx_i);

  // b[d] - 1 of the coefficient word's dimension d: the constraint's value
  // loses wrapv * coef[d] when dimension d wraps; ci: the word's constraint
  always_comb begin
    wrapv = '0;
    for (int unsigned d = 0; d < NDIM; d++)
      if ({24'd0, bus_i.d} == d) wrapv = bound_q[d*32 +: 32] - 32'd1;
    ci = {24'd0, bus_i.t} * NCONS + {24'd0, bus_i.c};
  end

  // term t is in use below the term count; constraint c of term t (number
  // t * NCONS + c) below the term's constraint count
  always_comb begin
    cuse = '0;
    for (int unsigned t = 0; t < NTERM; t++) begin
      tact[t] = (t < nt_q);
      for (int unsigned c = 0; c < NCONS; c++)
        cuse[t*NCONS + c] = (c < {24'd0, tnc_q[t*8 +: 8]});
    end
  end

  // the packet's registers on a clock of their own that runs only while
  // the packet loads: the logic that reads them (the top's selection of
  // the started GC, the PEs' terms) is not evaluated in the other cycles,
  // among them every cycle of the run (docs/rtl.md "Clock gating"); and
  // in reset, which Verilator applies at the clock edges while rst_ni is low
  logic cfg_clk;
  tcpa_clock_gate u_cfg_cg (
    .clk_i (clk_i),
    .en_i  (!rst_ni || (mine && (bus_i.hdr || bus_i.we))),
    .clk_o (cfg_clk)
  );

  always_ff @(posedge cfg_clk or negedge rst_ni) begin
    if (!rst_ni) begin
      ii_q <= 32'd1;
      nd_q <= 32'd1;
      epi_q <= '0;
      prod_q <= 32'd1;
      dl0_q <= '0;
      dlr_q <= '0;
      dlc_q <= '0;
      nt_q <= '0;
      row0_q <= '0;
      col0_q <= '0;
      rows_q <= '0;
      cols_q <= '0;
      trng_q <= '0;
      bound_q <= '0;
      tsig_q <= '0;
      tnc_q <= '0;
      kind_q <= '0;
      delta_q <= '0;
      wsum_q <= '0;
      konst_q <= '0;
    end else if (mine && bus_i.hdr) begin
      // the registers are written only by their own words, no copy of the
      // others is formed (docs/testing.md "Simulator speed")
      row0_q <= bus_i.row0;
      col0_q <= bus_i.col0;
      rows_q <= bus_i.rows;
      cols_q <= bus_i.cols;
      prod_q <= 32'd1;
      bound_q <= '0;
      delta_q <= '0;
      nt_q <= '0;
    end else if (mine && bus_i.we) begin
      case (bus_i.field)
        tcpa_pkg::F_II: ii_q <= bus_i.data;
        tcpa_pkg::F_NDIMS: nd_q <= bus_i.data;
        tcpa_pkg::F_BOUND: begin
          for (int unsigned d = 0; d < NDIM; d++)
            if ({24'd0, bus_i.d} == d) bound_q[d*32 +: 32] <= bus_i.data;
          prod_q <= prod_q * bus_i.data;
        end
        tcpa_pkg::F_EPILOG: epi_q <= bus_i.data;
        tcpa_pkg::F_DELAY0: dl0_q <= bus_i.data;
        tcpa_pkg::F_DELAYR: dlr_q <= bus_i.data;
        tcpa_pkg::F_DELAYC: dlc_q <= bus_i.data;
        tcpa_pkg::F_NTERMS: nt_q <= bus_i.data;
        tcpa_pkg::F_TSIG:
          for (int unsigned t = 0; t < NTERM; t++)
            if ({24'd0, bus_i.t} == t) begin
              tsig_q[t*8 +: 8] <= bus_i.data[7:0];
              trng_q[t*24 +: 24] <= bus_i.data[31:8];
            end
        tcpa_pkg::F_TNCONS:
          for (int unsigned t = 0; t < NTERM; t++)
            if ({24'd0, bus_i.t} == t) tnc_q[t*8 +: 8] <= bus_i.data[7:0];
        tcpa_pkg::F_CKIND: begin
          for (int unsigned k = 0; k < NC; k++)
            if (ci == k) kind_q[k] <= ckind_word.kind;
          wsum_q <= '0;
        end
        tcpa_pkg::F_CCOEF: begin
          for (int unsigned k = 0; k < NC; k++)
            for (int unsigned d = 0; d < NDIM; d++)
              if (ci == k && {24'd0, bus_i.d} == d) delta_q[(k*NDIM + d)*32 +: 32] <= bus_i.data - wsum_q;
          wsum_q <= wsum_q + wrapv * bus_i.data;
        end
        tcpa_pkg::F_CKONST:
          for (int unsigned k = 0; k < NC; k++)
            if (ci == k) konst_q[k*32 +: 32] <= bus_i.data;
        default: ;
      endcase
    end
  end

  // invariants (docs/rtl.md "Assertions"): the stored GC packet has the
  // ranges the loader checks (it applies nothing past a packet error)
  `TCPA_ASSERT(GcIiPositive, ii_q != 32'd0 && !ii_q[31], clk_i, rst_ni)
  `TCPA_ASSERT(GcNdimsInRange, nd_q >= 32'd1 && nd_q <= NDIM, clk_i, rst_ni)
  `TCPA_ASSERT(GcNtermsInRange, nt_q <= NTERM, clk_i, rst_ni)

  assign ii_o = ii_q;
  assign ndims_o = nd_q;
  assign bound_o = bound_q;
  assign nsteps_o = prod_q + epi_q;
  assign delay0_o = dl0_q;
  assign delay_row_o = dlr_q;
  assign delay_col_o = dlc_q;
  assign row0_o = row0_q;
  assign col0_o = col0_q;
  assign rows_o = rows_q;
  assign cols_o = cols_q;
  assign trng_o = trng_q;
  assign tact_o = tact;
  assign tsig_o = tsig_q;
  assign cuse_o = cuse;
  assign kind_o = kind_q;
  assign konst_o = konst_q;
  assign delta_o = delta_q;
  // The trace's `gc` event (docs/trace.md): the GC's own step walk from the
  // start pulse (one cycle before cycle 0) and the vector of its step,
  // formed as a PE with start delay 0 forms its own (tcpa_sig_eval). Only
  // the debug ports read it: a flattening synthesis removes it, while the
  // per-module count of `make synth` includes it (docs/rtl.md).
  logic              sbegin, sactive, sadv;
  logic [31:0]       sstep;
  logic [NDIM-1:0]   sinc;
  logic [tcpa_pkg::NSIG-1:0] ssig;

  tcpa_stepper u_dbg_stepper (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .run_i     (run_i),
    .delay_i   (32'd0),
    .ii_i      (ii_q),
    .ndims_i   (nd_q),
    .bound_i   (bound_q),
    .nsteps_i  (prod_q + epi_q),
    .started_o (),
    .first_o   (),
    .active_o  (sactive),
    .begin_o   (sbegin),
    .last_o    (),
    .step_o    (sstep),
    .adv_o     (sadv),
    .inc_o     (sinc),
    .clr_o     ()
  );

  tcpa_sig_eval u_dbg_sig (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .run_i   (run_i),
    .adv_i   (sadv),
    .inc_i   (sinc),
    .tact_i  (tact),
    .tsig_i  (tsig_q),
    .cuse_i  (cuse),
    .kind_i  (kind_q),
    .konst_i (konst_q),
    .delta_i (delta_q),
    .sig_o   (ssig)
  );

  assign dbg_begin_o = sbegin;
  assign dbg_step_o = sstep;
  assign dbg_sig_o = sactive ? ssig : '0;
endmodule
