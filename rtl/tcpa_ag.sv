// tcpa_ag: the address generator of bank bank_i on side side_i of the border
// PE (row_i, col_i) (constant ports: one module for synthesis), with its
// bank (timing.md section 6). It stores its AG packet (mode, phase, base +
// row/col offset of this PE, strides, enable constraints) and the IODATA
// words for its bank. Running, it follows the region's steps with start
// delay d(r,c) + phase (tcpa_cons_eval, shared with the GC): the event of
// step s is at phase 0 of its own step s, enabled when every constraint
// holds at J(s); the address follows J in a tcpa_affine. A read event reads the bank word (contents at
// the start of the cycle) and offers it (pending_*) for the PE's wrapper
// input one cycle later (tcpa_top registers it on the PE's clock); a
// write event writes the token arriving from the PE
// (arr_*) at the end of the cycle. Out-of-range addresses raise agrange and
// do nothing; a write event without a token raises agmiss.
`include "rtl/tcpa_assert.svh"
`include "rtl/tcpa_mutation.svh"

module tcpa_ag (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic [15:0]                  row_i,     // place (constants)
  input  logic [15:0]                  col_i,
  input  logic [1:0]                   side_i,
  input  logic [7:0]                   bank_i,
  input  tcpa_pkg::cfg_bus_t           bus_i,
  input  logic                         run_i,     // the PE's region runs
  // configuration clear (docs/timing.md section 11, a stream's first PE or
  // AG packet at this PE): the power-up configuration (mode off, every
  // field 0) from the end of this cycle on, this cycle's header applied
  input  logic                         cfg_clr_i,
  input  logic [31:0]                  delay_i,   // d(r,c)
  input  logic [31:0]                  ii_i,
  input  logic [31:0]                  ndims_i,
  input  logic [tcpa_pkg::NDIM*32-1:0] bound_i,
  input  logic [31:0]                  nsteps_i,
  input  logic                         arr_valid_i,
  input  logic [31:0]                  arr_data_i,
  output logic                         consume_o,  // an enabled write event
  output logic                         passed_o,   // no event left
  output logic                         pending_o,  // a read token next cycle
  output logic [31:0]                  pending_data_o,  // its word
  output logic                         on_o,       // a mode other than off
  output logic                         acc_o,      // bank access this cycle
  output logic                         acc_wr_o,
  output logic [31:0]                  acc_addr_o,
  output logic [31:0]                  acc_val_o,
  output logic                         agmiss_o,
  output logic                         agrange_o,
  input  logic [tcpa_pkg::BADDR_W-1:0] dbg_addr_i,
  output logic [31:0]                  dbg_data_o,
  // the bank's write port (trace: docs/trace.md `bankwr`, `mem`)
  output logic                         bank_we_o,
  output logic [tcpa_pkg::BADDR_W-1:0] bank_wa_o,
  output logic [31:0]                  bank_wd_o
);
  localparam int unsigned NDIM  = tcpa_pkg::NDIM;
  localparam int unsigned NCONS = tcpa_pkg::NCONS;
  localparam int unsigned AW    = tcpa_pkg::BADDR_W;

  // fields of the configuration bus this unit does not look at
  logic unused_bus;
  assign unused_bus = ^{bus_i.t};

  logic               hit, mine, mine_io;
  tcpa_stream_pkg::ag_mode_e mode_q, mode_d;
  tcpa_stream_pkg::ag_mode_word_t   mode_word;  // the bus word, its MODE typed
  tcpa_stream_pkg::cons_kind_word_t ckind_word;  // the bus word, its KIND typed
  logic [31:0]        phase_q, phase_d, base_q, base_d, nc_q, nc_d, io_q, io_d;
  logic [15:0]        row0_q, row0_d, col0_q, col0_d;
  logic [NDIM*32-1:0] stride_q, stride_d;
  logic [NCONS-1:0]   kind_q, kind_d;
  logic [NCONS*NDIM*32-1:0] coef_q;
  logic [NCONS*32-1:0] konst_q;
  logic               tok_d;
  logic [31:0]        tokv_d;

  logic               sbegin, slast, sadv;
  logic [NDIM-1:0]    sinc, sclr;
  logic [31:0]        addr, rdata;
  logic [NCONS-1:0]   cuse, chold;
  logic               en, ev, inrange, bwe;
  logic [AW-1:0]      bwa;
  logic [31:0]        bwd;
  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  assign hit = ({1'b0, bus_i.row0} <= {1'b0, row_i}) &&
               ({1'b0, row_i} < {1'b0, bus_i.row0} + {1'b0, bus_i.rows}) &&
               ({1'b0, bus_i.col0} <= {1'b0, col_i}) &&
               ({1'b0, col_i} < {1'b0, bus_i.col0} + {1'b0, bus_i.cols});
  assign mine = hit && bus_i.ptype == tcpa_stream_pkg::PKT_AG && bus_i.side == side_i && bus_i.index == bank_i;
  assign mine_io = hit && bus_i.ptype == tcpa_stream_pkg::PKT_IODATA && bus_i.side == side_i &&
                   bus_i.index == bank_i;

  assign mode_word = bus_i.data;
  assign ckind_word = bus_i.data;

  always_comb begin
    mode_d = mode_q;
    phase_d = phase_q;
    base_d = base_q;
    nc_d = nc_q;
    io_d = io_q;
    row0_d = row0_q;
    col0_d = col0_q;
    stride_d = stride_q;
    kind_d = kind_q;
    if (cfg_clr_i) begin
      mode_d = tcpa_stream_pkg::AG_OFF;
      phase_d = '0;
      base_d = '0;
      nc_d = '0;
      row0_d = '0;
      col0_d = '0;
      stride_d = '0;
      kind_d = '0;
    end
    if (mine && bus_i.hdr) begin
      row0_d = bus_i.row0;
      col0_d = bus_i.col0;
      stride_d = '0;
      nc_d = '0;
    end
    if (mine && bus_i.we) begin
      case (bus_i.field)
        tcpa_pkg::F_MODE: mode_d = mode_word.mode;
        tcpa_pkg::F_PHASE: phase_d = bus_i.data;
        tcpa_pkg::F_BASE: base_d = bus_i.data;
        tcpa_pkg::F_ROWCOEF: base_d = base_q + bus_i.data * ({16'd0, row_i} - {16'd0, row0_q});
        tcpa_pkg::F_COLCOEF: base_d = base_q + bus_i.data * ({16'd0, col_i} - {16'd0, col0_q});
        tcpa_pkg::F_STRIDE:
          for (int unsigned d = 0; d < NDIM; d++)
            if ({24'd0, bus_i.d} == d) stride_d[d*32 +: 32] = bus_i.data;
        tcpa_pkg::F_NCONS: nc_d = bus_i.data;
        tcpa_pkg::F_CKIND:
          for (int unsigned k = 0; k < NCONS; k++)
            if ({24'd0, bus_i.c} == k) kind_d[k] = ckind_word.kind;
        default: ;  // F_CCOEF, F_CKONST: written in the register block below
      endcase
    end
    if (mine_io && bus_i.we && bus_i.addr == 32'd0) io_d = bus_i.data;
    // mutant 2: every address of the AG is off by one (base + 1)
    `TCPA_MUTATE(2, if (mine && bus_i.we && bus_i.field == tcpa_pkg::F_BASE) base_d = bus_i.data + 32'd1;)
    // mutant 19: the stride write is lost (addresses stay at the base)
    `TCPA_MUTATE(19, if (mine && bus_i.we && bus_i.field == tcpa_pkg::F_STRIDE) stride_d = stride_q;)
  end

  // constraint k is in use when k is below the AG's constraint count
  always_comb begin
    cuse = '0;
    for (int unsigned k = 0; k < NCONS; k++) cuse[k] = (k < nc_q);
  end

  tcpa_cons_eval #(
    .N (NCONS)
  ) u_cons (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .run_i    (run_i && mode_q != tcpa_stream_pkg::AG_OFF),
    .delay_i  (delay_i + phase_q),
    .ii_i     (ii_i),
    .ndims_i  (ndims_i),
    .bound_i  (bound_i),
    .nsteps_i (nsteps_i),
    .begin_o  (sbegin),
    .last_o   (slast),
    .step_o   (),
    .adv_o    (sadv),
    .inc_o    (sinc),
    .clr_o    (sclr),
    .clear_i  (!run_i),
    .use_i    (cuse),
    .kind_i   (kind_q),
    .coef_i   (coef_q),
    .konst_i  (konst_q),
    .hold_o   (chold)
  );

  tcpa_affine u_addr (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clear_i (!run_i),
    .adv_i   (sadv),
    .inc_i   (sinc),
    .clr_i   (sclr),
    .coef_i  (stride_q),
    .konst_i (base_q),
    .value_o (addr)
  );

  assign en = &chold;

  assign ev = sbegin && en;
  assign inrange = addr < tcpa_pkg::BANK_DEPTH;

  tcpa_bank u_bank (
    .clk_i      (clk_i),
    .we_i       (bwe),
    .waddr_i    (bwa),
    .wdata_i    (bwd),
    .raddr_i    (addr[AW-1:0]),
    .rdata_o    (rdata),
    .dbg_addr_i (dbg_addr_i),
    .dbg_data_o (dbg_data_o)
  );

  always_comb begin
    bwe = 1'b0;
    bwa = addr[AW-1:0];
    bwd = arr_data_i;
    if (mine_io && bus_i.we && bus_i.addr != 32'd0) begin
      bwe = 1'b1;
      bwa = io_q[AW-1:0] + bus_i.addr[AW-1:0] - 1'b1;
      bwd = bus_i.data;
    end else if (ev && inrange && mode_q == tcpa_stream_pkg::AG_WRITE && arr_valid_i) begin
      bwe = 1'b1;
    end
    // mutant 23: stuck enable: a write AG's event writes nothing to the bank
    `TCPA_MUTATE(23, if (!(mine_io && bus_i.we)) bwe = 1'b0;)
    // mutant 24: off by one: an IODATA word lands one address higher
    `TCPA_MUTATE(24, if (mine_io && bus_i.we && bus_i.addr != 32'd0) bwa = io_q[AW-1:0] + bus_i.addr[AW-1:0];)
    // mutant 39: off by one at the bank: a write AG's word lands one address
    // higher (the AG's counter and its `bank ... wr` stay right)
    `TCPA_MUTATE(39, if (!(mine_io && bus_i.we) && bwe) bwa = addr[AW-1:0] + 1'b1;)
    // mutant 40: stray enable at the bank: a read AG's access also writes
    // the array-side word into its (input) bank, at the address it reads
    `TCPA_MUTATE(40, if (!(mine_io && bus_i.we) && ev && inrange && mode_q == tcpa_stream_pkg::AG_READ) bwe = 1'b1;)
    tok_d = ev && inrange && mode_q == tcpa_stream_pkg::AG_READ;
    tokv_d = tok_d ? rdata : 32'd0;
    // mutant 18: stuck control signal: a read AG's token valid is always 0
    `TCPA_MUTATE(18, tok_d = 1'b0;)
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q <= tcpa_stream_pkg::AG_OFF;
      phase_q <= '0;
      base_q <= '0;
      nc_q <= '0;
      io_q <= '0;
      row0_q <= '0;
      col0_q <= '0;
      stride_q <= '0;
      kind_q <= '0;
      coef_q <= '0;
      konst_q <= '0;
    end else begin
      mode_q <= mode_d;
      phase_q <= phase_d;
      base_q <= base_d;
      nc_q <= nc_d;
      io_q <= io_d;
      row0_q <= row0_d;
      col0_q <= col0_d;
      stride_q <= stride_d;
      kind_q <= kind_d;
      // the wide registers are written only when addressed (a simulator
      // skips them in the other cycles; docs/testing.md "Simulator speed")
      if ((mine && bus_i.hdr) || cfg_clr_i) coef_q <= '0;
      if (cfg_clr_i) konst_q <= '0;
      if (mine && bus_i.we && bus_i.field == tcpa_pkg::F_CCOEF)
        for (int unsigned k = 0; k < NCONS; k++)
          for (int unsigned d = 0; d < NDIM; d++)
            if ({24'd0, bus_i.c} == k && {24'd0, bus_i.d} == d)
              coef_q[(k*NDIM + d)*32 +: 32] <= bus_i.data;
      if (mine && bus_i.we && bus_i.field == tcpa_pkg::F_CKONST)
        for (int unsigned k = 0; k < NCONS; k++)
          if ({24'd0, bus_i.c} == k) konst_q[k*32 +: 32] <= bus_i.data;
    end
  end

  // invariants (docs/rtl.md "Assertions"): the mode is one of the three,
  // the constraint count is in range; a bank access is in range (an
  // out-of-range address is the agrange fault and accesses nothing); a
  // write event without a token (agmiss) writes nothing
  `TCPA_ASSERT(AgModeLegal,
               mode_q inside {tcpa_stream_pkg::AG_OFF, tcpa_stream_pkg::AG_READ, tcpa_stream_pkg::AG_WRITE},
               clk_i, rst_ni)
  `TCPA_ASSERT(AgNconsInRange, nc_q <= NCONS, clk_i, rst_ni)
  `TCPA_ASSERT_IF(AgAccessInRange, inrange, acc_o, clk_i, rst_ni)
  `TCPA_ASSERT_IF(AgMissWritesNothing, !bwe, agmiss_o && !mine_io, clk_i, rst_ni)

  assign bank_we_o = bwe;
  assign bank_wa_o = bwa;
  assign bank_wd_o = bwd;
  assign consume_o = ev && mode_q == tcpa_stream_pkg::AG_WRITE;
  assign pending_o = tok_d;
  assign pending_data_o = tokv_d;
  assign on_o = mode_q != tcpa_stream_pkg::AG_OFF;
  assign passed_o = !run_i || mode_q == tcpa_stream_pkg::AG_OFF || slast;
  assign acc_o = ev && inrange && (mode_q == tcpa_stream_pkg::AG_READ ||
                                   (mode_q == tcpa_stream_pkg::AG_WRITE && arr_valid_i));
  assign acc_wr_o = mode_q == tcpa_stream_pkg::AG_WRITE;
  assign acc_addr_o = addr;
  assign acc_val_o = (mode_q == tcpa_stream_pkg::AG_WRITE) ? arr_data_i : rdata;
  assign agmiss_o = ev && inrange && mode_q == tcpa_stream_pkg::AG_WRITE && !arr_valid_i;
  assign agrange_o = ev && !inrange;
endmodule
