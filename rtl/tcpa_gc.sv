// tcpa_gc: global controller idx_i (a port, not a parameter, so synthesis
// elaborates one module for all four). Stores its GC packet (docs/stream.md) from
// the configuration bus: ii, bounds, epilog, the start-delay coefficients,
// the region origin and the signal terms. The number of steps
// S = prod(bounds) + epilog is formed while the bounds arrive.
//
// Running (run_i from the start pulse on, one cycle before cycle 0 of the
// PEs), it walks the steps itself and evaluates the terms' constraints at
// J(s) (tcpa_cons_eval, delay 0, shared with the AGs); at phase 0 of step s it stores
// the signal vector of s in a ring of HIST vectors, so it is in place one
// cycle before any PE reaches step s. A PE with start delay d reads the
// vector of its own step from the ring (timing.md section 2: the GC's value
// delayed by d); this needs d <= (HIST - 1) * ii (docs/rtl.md).
`include "rtl/tcpa_assert.svh"
`include "rtl/tcpa_mutation.svh"

module tcpa_gc (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic [7:0]                          idx_i,     // GC number (a constant)
  input  tcpa_pkg::cfg_bus_t                  bus_i,
  input  logic                                run_i,
  output logic [31:0]                         ii_o,
  output logic [31:0]                         ndims_o,
  output logic [tcpa_pkg::NDIM*32-1:0]        bound_o,
  output logic [31:0]                         nsteps_o,
  output logic [31:0]                         delay0_o,
  output logic [31:0]                         delay_row_o,
  output logic [31:0]                         delay_col_o,
  output logic [15:0]                         row0_o,
  output logic [15:0]                         col0_o,
  output logic [tcpa_pkg::HIST*tcpa_pkg::NSIG-1:0] hist_o,
  // trace (docs/trace.md `gc`): the GC begins step dbg_step_o in this
  // cycle (dbg_begin_o) with signal vector dbg_sig_o
  output logic                                dbg_begin_o,
  output logic [31:0]                         dbg_step_o,
  output logic [tcpa_pkg::NSIG-1:0]           dbg_sig_o
);
  localparam int unsigned NDIM  = tcpa_pkg::NDIM;
  localparam int unsigned NTERM = tcpa_pkg::NTERM;
  localparam int unsigned NCONS = tcpa_pkg::NCONS;
  localparam int unsigned NSIG  = tcpa_pkg::NSIG;
  localparam int unsigned HIST  = tcpa_pkg::HIST;
  localparam int unsigned NC    = NTERM * NCONS;

  // fields of the configuration bus this unit does not look at
  logic unused_bus;
  assign unused_bus = ^{bus_i.side, bus_i.rows, bus_i.cols, bus_i.addr};

  logic [31:0]          ii_q, ii_d, nd_q, nd_d, epi_q, epi_d, prod_q, prod_d;
  logic [31:0]          dl0_q, dl0_d, dlr_q, dlr_d, dlc_q, dlc_d, nt_q, nt_d;
  logic [15:0]          row0_q, row0_d, col0_q, col0_d;
  logic [NDIM*32-1:0]   bound_q, bound_d;
  logic [NTERM*8-1:0]   tsig_q, tsig_d;
  logic [NTERM*8-1:0]   tnc_q, tnc_d;
  logic [NC-1:0]        kind_q, kind_d;
  logic [NC*NDIM*32-1:0] coef_q, coef_d;
  logic [NC*32-1:0]     konst_q, konst_d;
  logic [HIST*NSIG-1:0] hist_q, hist_d;

  logic                 mine, sbegin;
  logic [31:0]          sstep;
  logic [NC-1:0]        cuse, chold;
  logic [NSIG-1:0]      sig;
  logic                 hold;
  int unsigned          ci;

  assign mine = (bus_i.ptype == tcpa_stream_pkg::PKT_GC) && (bus_i.index == idx_i);

  always_comb begin
    ii_d = ii_q;
    nd_d = nd_q;
    epi_d = epi_q;
    prod_d = prod_q;
    dl0_d = dl0_q;
    dlr_d = dlr_q;
    dlc_d = dlc_q;
    nt_d = nt_q;
    row0_d = row0_q;
    col0_d = col0_q;
    bound_d = bound_q;
    tsig_d = tsig_q;
    tnc_d = tnc_q;
    kind_d = kind_q;
    coef_d = coef_q;
    konst_d = konst_q;
    ci = {24'd0, bus_i.t} * NCONS + {24'd0, bus_i.c};
    if (mine && bus_i.hdr) begin
      row0_d = bus_i.row0;
      col0_d = bus_i.col0;
      prod_d = 32'd1;
      bound_d = '0;
      coef_d = '0;
      nt_d = '0;
    end
    if (mine && bus_i.we) begin
      case (bus_i.field)
        tcpa_pkg::F_II: ii_d = bus_i.data;
        tcpa_pkg::F_NDIMS: nd_d = bus_i.data;
        tcpa_pkg::F_BOUND: begin
          for (int unsigned d = 0; d < NDIM; d++)
            if ({24'd0, bus_i.d} == d) bound_d[d*32 +: 32] = bus_i.data;
          prod_d = prod_q * bus_i.data;
        end
        tcpa_pkg::F_EPILOG: epi_d = bus_i.data;
        tcpa_pkg::F_DELAY0: dl0_d = bus_i.data;
        tcpa_pkg::F_DELAYR: dlr_d = bus_i.data;
        tcpa_pkg::F_DELAYC: dlc_d = bus_i.data;
        tcpa_pkg::F_NTERMS: nt_d = bus_i.data;
        tcpa_pkg::F_TSIG:
          for (int unsigned t = 0; t < NTERM; t++)
            if ({24'd0, bus_i.t} == t) tsig_d[t*8 +: 8] = bus_i.data[7:0];
        tcpa_pkg::F_TNCONS:
          for (int unsigned t = 0; t < NTERM; t++)
            if ({24'd0, bus_i.t} == t) tnc_d[t*8 +: 8] = bus_i.data[7:0];
        tcpa_pkg::F_CKIND:
          for (int unsigned k = 0; k < NC; k++)
            if (ci == k) kind_d[k] = bus_i.data[0];
        tcpa_pkg::F_CCOEF:
          for (int unsigned k = 0; k < NC; k++)
            for (int unsigned d = 0; d < NDIM; d++)
              if (ci == k && {24'd0, bus_i.d} == d) coef_d[(k*NDIM + d)*32 +: 32] = bus_i.data;
        tcpa_pkg::F_CKONST:
          for (int unsigned k = 0; k < NC; k++)
            if (ci == k) konst_d[k*32 +: 32] = bus_i.data;
        default: ;
      endcase
    end
  end

  // constraint c of term t (number t * NCONS + c) is in use when c is
  // below the term's constraint count
  always_comb begin
    cuse = '0;
    for (int unsigned t = 0; t < NTERM; t++)
      for (int unsigned c = 0; c < NCONS; c++)
        cuse[t*NCONS + c] = (c < {24'd0, tnc_q[t*8 +: 8]});
  end

  tcpa_cons_eval #(
    .N (NC)
  ) u_cons (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .run_i    (run_i),
    .delay_i  (32'd0),
    .ii_i     (ii_q),
    .ndims_i  (nd_q),
    .bound_i  (bound_q),
    .nsteps_i (prod_q + epi_q),
    .begin_o  (sbegin),
    .last_o   (),
    .step_o   (sstep),
    .adv_o    (),
    .inc_o    (),
    .clr_o    (),
    .clear_i  (!run_i),
    .use_i    (cuse),
    .kind_i   (kind_q),
    .coef_i   (coef_q),
    .konst_i  (konst_q),
    .hold_o   (chold)
  );

  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  // signal i: some term of i has all its constraints true at J(s)
  always_comb begin
    sig = '0;
    hold = 1'b0;
    for (int unsigned t = 0; t < NTERM; t++) begin
      hold = (t < nt_q) && (&chold[t*NCONS +: NCONS]);
      for (int unsigned i = 0; i < NSIG; i++)
        if (hold && {24'd0, tsig_q[t*8 +: 8]} == i) sig[i] = 1'b1;
    end
    // mutant 4: control signal c0 stuck at 0
    `TCPA_MUTATE(4, sig[0] = 1'b0;)
    // mutant 20: control signal c1 stuck at 1
    `TCPA_MUTATE(20, sig[(NSIG > 1) ? 1 : 0] = 1'b1;)
  end

  always_comb begin
    hist_d = hist_q;
    for (int unsigned h = 0; h < HIST; h++)
      if (sbegin && sstep % HIST == h) hist_d[h*NSIG +: NSIG] = sig;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
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
      bound_q <= '0;
      tsig_q <= '0;
      tnc_q <= '0;
      kind_q <= '0;
      coef_q <= '0;
      konst_q <= '0;
      hist_q <= '0;
    end else begin
      ii_q <= ii_d;
      nd_q <= nd_d;
      epi_q <= epi_d;
      prod_q <= prod_d;
      dl0_q <= dl0_d;
      dlr_q <= dlr_d;
      dlc_q <= dlc_d;
      nt_q <= nt_d;
      row0_q <= row0_d;
      col0_q <= col0_d;
      bound_q <= bound_d;
      tsig_q <= tsig_d;
      tnc_q <= tnc_d;
      kind_q <= kind_d;
      coef_q <= coef_d;
      konst_q <= konst_d;
      hist_q <= hist_d;
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
  assign hist_o = hist_q;
  assign dbg_begin_o = sbegin;
  assign dbg_step_o = sstep;
  assign dbg_sig_o = sig;
endmodule
