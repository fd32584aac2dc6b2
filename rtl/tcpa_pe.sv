// tcpa_pe: one processing element at (row_i, col_i) (ports tied to
// constants, so synthesis elaborates one PE module): its FUs (tcpa_fu), register
// file, feedback registers, input FIFOs, output registers and interconnect
// wrapper, plus the local step counter (tcpa_stepper) that gives it its
// start (local time u = t - d) and its step s with J(s), from which it
// evaluates the global controller's signal terms itself (tcpa_sig_eval):
// the control signals of its own step (timing.md section 2).
//
// Per cycle: sources are read (rd, fd ring[R], FIFO heads); a fd or id read
// by any issued instruction advances/pops once; write-backs update rd/fd/od
// with the higher FU winning; od k written at the end of x is a token on
// source od k in cycle x + 1; wrapper sinks drive the input FIFOs (pushed
// at the end of the cycle) and the wrapper outputs, which are registered
// into the link stage (wout_*_o): the neighbour sees them one cycle later.
// The dbg_* outputs are the per-cycle events of trace.md (read only by the
// simulation harness; they are plain wires of the datapath).
// The od registers are an unpacked array so that a waveform names each:
// od_q[K] is the last value written to odK (docs/rtl.md "Signal names").
`include "rtl/tcpa_assert.svh"
`include "rtl/tcpa_mutation.svh"

module tcpa_pe (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic [15:0]                         row_i,      // position (constants)
  input  logic [15:0]                         col_i,
  input  tcpa_pkg::cfg_bus_t                  bus_i,
  input  logic                                run_i,      // region running
  // restart (docs/timing.md section 11): the PE's run state (rd, od, fd
  // rings, FIFOs, pcs, flags, results in flight) takes its reset values at
  // the end of this cycle, its configuration stays
  input  logic                                clr_i,
  // configuration clear (docs/timing.md section 11, a stream's first PE or
  // AG packet here): no programs, fd depths 1, wrapper sinks unconnected
  // from the end of this cycle on (this cycle's packet header applies)
  input  logic                                cfg_clr_i,
  input  logic [31:0]                         delay_i,
  input  logic [31:0]                         ii_i,
  input  logic [31:0]                         ndims_i,
  input  logic [tcpa_pkg::NDIM*32-1:0]        bound_i,
  input  logic [31:0]                         nsteps_i,
  // the started GC's terms (tcpa_gc, tcpa_sig_eval)
  input  logic [tcpa_pkg::NTERM-1:0]          tact_i,
  input  logic [tcpa_pkg::NTERM*8-1:0]        tsig_i,
  input  logic [tcpa_pkg::NTERM*tcpa_pkg::NCONS-1:0] cuse_i,
  input  logic [tcpa_pkg::NTERM*tcpa_pkg::NCONS-1:0] kind_i,
  input  logic [tcpa_pkg::NTERM*tcpa_pkg::NCONS*32-1:0] konst_i,
  input  logic [tcpa_pkg::NTERM*tcpa_pkg::NCONS*tcpa_pkg::NDIM*32-1:0] delta_i,
  input  logic [tcpa_pkg::NWP-1:0]            win_valid_i,
  input  logic [tcpa_pkg::NWP*32-1:0]         win_data_i,
  output logic [tcpa_pkg::NWP-1:0]            wout_valid_o,
  output logic [tcpa_pkg::NWP*32-1:0]         wout_data_o,
  output logic                                quiet_o,
  // trace events
  output logic                                dbg_start_o,
  output logic [tcpa_pkg::NSIG-1:0]           dbg_sig_o,
  output logic [tcpa_pkg::NFU-1:0]            dbg_issue_o,
  output logic [tcpa_pkg::NFU*tcpa_pkg::PC_W-1:0]     dbg_pc_o,
  output logic [tcpa_pkg::NFU-1:0]            dbg_halt_o,
  output logic [tcpa_pkg::NFU-1:0]            dbg_wr_o,
  output logic [tcpa_pkg::NFU*tcpa_isa_pkg::ISA_SIZE_OPND-1:0]   dbg_wr_dst_o,
  output logic [tcpa_pkg::NFU*tcpa_isa_pkg::ISA_SIZE_ODMASK-1:0] dbg_wr_odmask_o,
  output logic [tcpa_pkg::NFU*32-1:0]         dbg_wr_val_o,
  output logic [tcpa_pkg::NID_S-1:0]          dbg_idrd_o,
  output logic [tcpa_pkg::NID_S-1:0]          dbg_idempty_o,
  output logic [tcpa_pkg::NID_S*32-1:0]       dbg_idhead_o,
  output logic [tcpa_pkg::NID_S-1:0]          dbg_push_o,
  output logic [tcpa_pkg::NID_S*32-1:0]       dbg_push_val_o,
  output logic [tcpa_pkg::NID_S-1:0]          dbg_drop_o,
  output logic [tcpa_pkg::NFD_S-1:0]          dbg_fdrd_o,
  output logic [tcpa_pkg::NFD_S*32-1:0]       dbg_fdval_o,
  output logic [tcpa_pkg::NWP-1:0]            dbg_hop_o,
  output logic [tcpa_pkg::NWP*32-1:0]         dbg_hop_val_o,
  // state (docs/trace.md "State events")
  output logic [31:0]                         dbg_step_o,
  output logic [tcpa_pkg::NFU*tcpa_isa_pkg::ISA_WORD_BITS-1:0] dbg_word_o,
  output logic [tcpa_pkg::NFU-1:0]            dbg_flag_o,
  output logic [tcpa_pkg::NRD_S-1:0]          dbg_rfwe_o,
  output logic [tcpa_pkg::NRD_S*32-1:0]       dbg_rfwd_o,
  output logic [tcpa_pkg::NFD_S-1:0]          dbg_fdwe_o,
  output logic [tcpa_pkg::NFD_S*32-1:0]       dbg_fdwd_o,
  output logic [tcpa_pkg::NOD_S-1:0]          dbg_odwe_o,
  output logic [tcpa_pkg::NOD_S*32-1:0]       dbg_odwd_o,
  output logic [tcpa_pkg::NID_S*16-1:0]       dbg_fifocnt_o
);
  localparam int unsigned NFU   = tcpa_pkg::NFU;
  localparam int unsigned NRD   = tcpa_pkg::NRD;
  localparam int unsigned NFD   = tcpa_pkg::NFD;
  localparam int unsigned NID   = tcpa_pkg::NID;
  localparam int unsigned NOD   = tcpa_pkg::NOD;
  localparam int unsigned NRD_S = tcpa_pkg::NRD_S;
  localparam int unsigned NFD_S = tcpa_pkg::NFD_S;
  localparam int unsigned NID_S = tcpa_pkg::NID_S;
  localparam int unsigned NOD_S = tcpa_pkg::NOD_S;

  // fields of the configuration bus this unit does not look at
  logic unused_bus;
  assign unused_bus = ^{bus_i.side, bus_i.field, bus_i.t, bus_i.c, bus_i.d};

  // operand fields (tcpa_isa_pkg::opnd_t): OW bits, an index of XW
  localparam int unsigned OW    = tcpa_isa_pkg::ISA_SIZE_OPND;
  localparam int unsigned XW    = tcpa_isa_pkg::ISA_SIZE_IDX;
  localparam int unsigned MW    = tcpa_isa_pkg::ISA_SIZE_ODMASK;
  localparam int unsigned NIDX  = 1 << XW;  // values of an index field
  localparam logic [NIDX:0] ONE = 1;

  // bit i: index i names one of the registers of a class (a class may have
  // none: a mask, not a comparison with a constant 0, keeps the lint quiet;
  // not a function either: Verilator names an inlined function's
  // temporaries per instance, so that each PE got a copy of its own of the
  // code, docs/testing.md "Simulator speed")
  localparam logic [NIDX-1:0] RD_IN = NIDX'((ONE << NRD) - ONE);
  localparam logic [NIDX-1:0] FD_IN = NIDX'((ONE << NFD) - ONE);
  localparam logic [NIDX-1:0] ID_IN = NIDX'((ONE << NID) - ONE);
  localparam logic [31:0] OD_IN = 32'((33'd1 << NOD) - 33'd1);
  localparam int unsigned NWP   = tcpa_pkg::NWP;

  localparam int unsigned NSIG  = tcpa_pkg::NSIG;
  localparam int unsigned NSRC  = tcpa_pkg::NSRC;
  localparam int unsigned NSINK = tcpa_pkg::NSINK;
  localparam int unsigned SW    = tcpa_pkg::SEL_W;
  localparam int unsigned PC_W  = tcpa_pkg::PC_W;

  logic hit, started, active, adv;
  logic [tcpa_pkg::NDIM-1:0] inc;
  logic [NSIG-1:0] sig, esig;
  logic [31:0]     step;

  // configuration held by the PE itself
  logic [NSINK*SW-1:0] wsel_q, wsel_d;
  // od tokens and link stage
  logic [NOD_S-1:0]    odtok_q, odtok_d;
  (* mem2reg *) logic [31:0] od_q [NOD_S];  // Yosys: registers, not a memory
  (* mem2reg *) logic [31:0] od_d [NOD_S];
  logic [NOD_S*32-1:0] odval;
  logic [NWP-1:0]      link_q, link_d;
  logic [NWP*32-1:0]   linkv_q, linkv_d;

  // FU side
  logic [NFU*3*OW-1:0] fsrc;
  tcpa_isa_pkg::opnd_t so, wdst;  // a source operand, a destination (loops below)
  logic [NFU*96-1:0]   fsrcv;
  logic [NFU-1:0]      fissue, fhalt, floaded, fhalted, finfl, fwb, fflag;
  logic [NFU*PC_W-1:0] fpc;
  logic [NFU*OW-1:0]  fdst;
  logic [NFU*MW-1:0]   fodm;
  logic [NFU*32-1:0]   fval;

  logic [NRD_S*32-1:0] rdv;
  logic [NFD_S*32-1:0] fdv;
  logic [NID_S*32-1:0] head;
  logic [NID_S-1:0]    empty, idrd, drop;
  logic [NFD_S-1:0]    fdrd, fdwe;
  logic [NFD_S*32-1:0] fdwd;
  logic [NFU-1:0]      rdwe;
  logic [NFU*XW-1:0]   rdwi;
  logic [NSRC-1:0]     srcv;
  logic [NSRC*32-1:0]  srcd;
  logic [NSINK-1:0]    sinkv;
  logic [NSINK*32-1:0] sinkd;

  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  assign hit = ({1'b0, bus_i.row0} <= {1'b0, row_i}) &&
               ({1'b0, row_i} < {1'b0, bus_i.row0} + {1'b0, bus_i.rows}) &&
               ({1'b0, bus_i.col0} <= {1'b0, col_i}) &&
               ({1'b0, col_i} < {1'b0, bus_i.col0} + {1'b0, bus_i.cols});

  tcpa_stepper u_stepper (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .run_i     (run_i),
    .delay_i   (delay_i),
    .ii_i      (ii_i),
    .ndims_i   (ndims_i),
    .bound_i   (bound_i),
    .nsteps_i  (nsteps_i),
    .started_o (started),
    .first_o   (dbg_start_o),
    .active_o  (active),
    .begin_o   (),
    .last_o    (),
    .step_o    (step),
    .adv_o     (adv),
    .inc_o     (inc),
    .clr_o     ()
  );

  tcpa_sig_eval u_sig (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .run_i   (run_i),
    .adv_i   (adv),
    .inc_i   (inc),
    .tact_i  (tact_i),
    .tsig_i  (tsig_i),
    .cuse_i  (cuse_i),
    .kind_i  (kind_i),
    .konst_i (konst_i),
    .delta_i (delta_i),
    .sig_o   (esig)
  );

  assign sig = active ? esig : '0;

  for (genvar f = 0; f < NFU; f++) begin : g_fu
    tcpa_fu #(
      .IDX (f[7:0]),
      .LAT ((f < tcpa_pkg::NALU) ? tcpa_pkg::LAT_ALU :
            (f < tcpa_pkg::NALU + tcpa_pkg::NMUL) ? tcpa_pkg::LAT_MUL : tcpa_pkg::LAT_DIV)
    ) u_fu (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .clr_i       (clr_i),
      .cfg_clr_i   (cfg_clr_i),
      .bus_we_i    (bus_i.we && hit),
      .bus_begin_i (bus_i.hdr && hit),
      .bus_type_i  (bus_i.ptype),
      .bus_index_i (bus_i.index),
      .bus_addr_i  (bus_i.addr),
      .bus_data_i  (bus_i.data),
      .run_i       (started),
      .sig_i       (sig),
      .flag_i      (fflag),
      .src_o       (fsrc[f*3*OW +: 3*OW]),
      .src_val_i   (fsrcv[f*96 +: 96]),
      .issue_o     (fissue[f]),
      .pc_o        (fpc[f*PC_W +: PC_W]),
      .halt_o      (fhalt[f]),
      .loaded_o    (floaded[f]),
      .halted_o    (fhalted[f]),
      .inflight_o  (finfl[f]),
      .wb_o        (fwb[f]),
      .wb_dst_o    (fdst[f*OW +: OW]),
      .wb_odmask_o (fodm[f*MW +: MW]),
      .wb_val_o    (fval[f*32 +: 32]),
      .flag_o      (fflag[f]),
      .word_o      (dbg_word_o[f*tcpa_isa_pkg::ISA_WORD_BITS +: tcpa_isa_pkg::ISA_WORD_BITS])
    );
  end

  // source values and the fd/id read strobes of this cycle
  always_comb begin
    fsrcv = '0;
    idrd = '0;
    fdrd = '0;
    so = '0;
    for (int unsigned f = 0; f < NFU; f++) begin
      for (int unsigned k = 0; k < 3; k++) begin
        so = fsrc[(f*3 + k)*OW +: OW];
        unique case (so.cls)
          tcpa_isa_pkg::OC_RD:
            if (RD_IN[so.idx])
              fsrcv[f*96 + k*32 +: 32] = rdv[(32'(so.idx) % NRD_S)*32 +: 32];
          tcpa_isa_pkg::OC_FD:
            if (FD_IN[so.idx]) begin
              fsrcv[f*96 + k*32 +: 32] = fdv[(32'(so.idx) % NFD_S)*32 +: 32];
              fdrd[32'(so.idx) % NFD_S] = 1'b1;
            end
          tcpa_isa_pkg::OC_ID:
            if (ID_IN[so.idx]) begin
              fsrcv[f*96 + k*32 +: 32] = head[(32'(so.idx) % NID_S)*32 +: 32];
              idrd[32'(so.idx) % NID_S] = 1'b1;
            end
          default: ;
        endcase
      end
    end
  end

  // write-back routing: rd, fd (higher FU wins), od tokens
  always_comb begin
    rdwe = '0;
    rdwi = '0;
    fdwe = '0;
    fdwd = '0;
    odtok_d = '0;
    for (int unsigned k = 0; k < NOD_S; k++) od_d[k] = od_q[k];
    wdst = '0;
    for (int unsigned f = 0; f < NFU; f++) begin
      wdst = fdst[f*OW +: OW];
      rdwi[f*XW +: XW] = wdst.idx;
      // mutant 13: register write to the wrong index (rd k writes rd k^1)
      `TCPA_MUTATE(13, rdwi[f*XW] = !wdst.idx[0];)
      if (fwb[f] && wdst.cls == tcpa_isa_pkg::OC_RD) rdwe[f] = 1'b1;
      if (fwb[f] && wdst.cls == tcpa_isa_pkg::OC_FD && FD_IN[wdst.idx]) begin
        fdwe[32'(wdst.idx) % NFD_S] = 1'b1;
        fdwd[(32'(wdst.idx) % NFD_S)*32 +: 32] = fval[f*32 +: 32];
      end
      for (int unsigned k = 0; k < NOD_S; k++) begin
        if (fwb[f] && fodm[f*MW + k] && OD_IN[k[4:0]]) begin
          odtok_d[k] = 1'b1;
          od_d[k] = fval[f*32 +: 32];
        end
      end
    end
    // mutant 14: dropped register enable: od values are never updated
    `TCPA_MUTATE(14, for (int unsigned k = 0; k < NOD_S; k++) od_d[k] = od_q[k];)
    if (clr_i) for (int unsigned k = 0; k < NOD_S; k++) od_d[k] = '0;
  end

  tcpa_regfile u_regfile (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clr_i   (clr_i),
    .we_i    (rdwe),
    .widx_i  (rdwi),
    .wdata_i (fval),
    .rd_o    (rdv),
    .we_o    (dbg_rfwe_o),
    .wd_o    (dbg_rfwd_o)
  );

  for (genvar k = 0; k < NFD; k++) begin : g_fd
    tcpa_fd u_fd (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .clr_i      (clr_i),
      .depth_we_i (cfg_clr_i || (bus_i.we && hit && bus_i.ptype == tcpa_stream_pkg::PKT_REGCFG && bus_i.addr == k)),
      .depth_i    (cfg_clr_i ? 32'd1 : bus_i.data),
      .rd_i       (fdrd[k]),
      .we_i       (fdwe[k]),
      .wdata_i    (fdwd[k*32 +: 32]),
      .head_o     (fdv[k*32 +: 32])
    );
  end

  if (NFD == 0) begin : g_nofd
    // no feedback register: the one fd slot reads as zero
    logic unused_fd;
    assign unused_fd = ^{fdrd, fdwe, fdwd};
    assign fdv = 32'd0;
  end

  // wrapper: sources od tokens, then inputs; sinks id FIFOs, then outputs
  // (with pe.od = 0 the one od slot is no source: odtok_q stays zero)
  if (NOD > 0) begin : g_odsrc
    assign srcv = {win_valid_i, odtok_q};
    assign srcd = {win_data_i, odval};
  end else begin : g_noodsrc
    logic unused_od;
    assign unused_od = ^{odtok_q, odval};
    assign srcv = win_valid_i;
    assign srcd = win_data_i;
  end
  always_comb begin
    for (int unsigned k = 0; k < NOD_S; k++) odval[k*32 +: 32] = od_q[k];
  end

  tcpa_wrapper u_wrapper (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .sel_i        (wsel_q),
    .src_valid_i  (srcv),
    .src_data_i   (srcd),
    .sink_valid_o (sinkv),
    .sink_data_o  (sinkd)
  );

  logic [NID_S*tcpa_pkg::FIFO_W-1:0] fcnt;
  for (genvar k = 0; k < NID; k++) begin : g_fifo
    tcpa_fifo u_fifo (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .clr_i       (clr_i),
      .pop_i       (idrd[k]),
      .push_i      (sinkv[k]),
      .push_data_i (sinkd[k*32 +: 32]),
      .head_o      (head[k*32 +: 32]),
      .empty_o     (empty[k]),
      .drop_o      (drop[k]),
      .cnt_o       (fcnt[k*tcpa_pkg::FIFO_W +: tcpa_pkg::FIFO_W])
    );
  end

  always_comb begin
    wsel_d = cfg_clr_i ? '0 : wsel_q;
    // a WRAPPER word holds the selects of sinks 4w .. 4w+3, a byte each
    if (bus_i.we && hit && bus_i.ptype == tcpa_stream_pkg::PKT_WRAPPER) begin
      for (int b = 0; b < tcpa_pkg::WSELS; b++) begin
        if (bus_i.addr * tcpa_pkg::WSELS + 32'(b) < NSINK)
          wsel_d[((bus_i.addr * tcpa_pkg::WSELS + 32'(b)) % NSINK)*SW +: SW] = bus_i.data[8*b +: SW];
      end
    end
    link_d = sinkv[NSINK-1:NID];
    linkv_d = sinkd[NSINK*32-1:NID*32];
    // mutant 15: dropped push into the link stage: no hop ever leaves a PE
    `TCPA_MUTATE(15, link_d = '0;)
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wsel_q <= '0;
      odtok_q <= '0;
      for (int unsigned k = 0; k < NOD_S; k++) od_q[k] <= '0;
      link_q <= '0;
      linkv_q <= '0;
    end else begin
      wsel_q <= wsel_d;
      odtok_q <= odtok_d;
      for (int unsigned k = 0; k < NOD_S; k++) od_q[k] <= od_d[k];
      link_q <= link_d;
      linkv_q <= linkv_d;
    end
  end

  // invariants (docs/rtl.md "Assertions"): every wrapper select names no
  // source or one that exists (the loader checks WRAPPER words)
`ifdef TCPA_ASSERT_ON
  logic wsel_legal;
  always_comb begin
    wsel_legal = 1'b1;
    for (int unsigned k = 0; k < NSINK; k++)
      if ({{(32-SW){1'b0}}, wsel_q[k*SW +: SW]} > NSRC) wsel_legal = 1'b0;
  end
`endif
  `TCPA_ASSERT(PeWrapperSelLegal, wsel_legal, clk_i, rst_ni)

  assign wout_valid_o = link_q;
  assign wout_data_o = linkv_q;

  // nothing left after this cycle: every loaded FU of a running PE halted
  // (or halts now), no result pending, no token on an od source or a link
  // in the next cycle (tokens of this cycle are delivered at its end)
  always_comb begin
    quiet_o = (odtok_d == '0) && (link_d == '0);
    for (int unsigned f = 0; f < NFU; f++) begin
      if (finfl[f]) quiet_o = 1'b0;
      if (run_i && floaded[f] && !fhalted[f] && !fhalt[f]) quiet_o = 1'b0;
    end
  end

  assign dbg_sig_o = sig;
  assign dbg_issue_o = fissue;
  assign dbg_halt_o = fhalt;
  assign dbg_wr_o = fwb;
  assign dbg_wr_dst_o = fdst;
  assign dbg_wr_odmask_o = fodm;
  assign dbg_wr_val_o = fval;
  assign dbg_idrd_o = idrd;
  assign dbg_idempty_o = empty;
  assign dbg_idhead_o = head;
  if (NID > 0) begin : g_idpush
    assign dbg_push_o = sinkv[NID-1:0];
    assign dbg_push_val_o = sinkd[NID*32-1:0];
  end else begin : g_noid
    // no FIFO: the one id slot is empty, never pushed, popped or dropped
    logic unused_idrd;
    assign unused_idrd = ^idrd;
    assign dbg_push_o = 1'b0;
    assign dbg_push_val_o = 32'd0;
    assign head = 32'd0;
    assign empty = 1'b1;
    assign drop = 1'b0;
    assign fcnt = '0;
  end
  assign dbg_drop_o = drop;
  assign dbg_fdrd_o = fdrd;
  assign dbg_fdval_o = fdv;
  assign dbg_hop_o = link_d;
  assign dbg_hop_val_o = linkv_d;
  assign dbg_step_o = step;
  assign dbg_flag_o = fflag;
  assign dbg_fdwe_o = fdwe;
  assign dbg_fdwd_o = fdwd;
  assign dbg_odwe_o = odtok_d;
  always_comb begin
    for (int unsigned k = 0; k < NOD_S; k++) dbg_odwd_o[k*32 +: 32] = od_d[k];
    dbg_fifocnt_o = '0;
    for (int unsigned k = 0; k < NID_S; k++)
      dbg_fifocnt_o[k*16 +: tcpa_pkg::FIFO_W] = fcnt[k*tcpa_pkg::FIFO_W +: tcpa_pkg::FIFO_W];
  end
  assign dbg_pc_o = fpc;
endmodule
