// tcpa_top: the TCPA of one architecture configuration: the configuration
// loader, the global controllers, the array of array.rows x array.cols PEs
// with their interconnect links, and for every border PE side its I/O
// banks with address generators (tcpa_ag). Configuration comes in through
// the stream port; after a good stream the loader pulses start, the chosen
// global controller runs one cycle ahead, and run_o is high from cycle 0 of
// timing.md on.
//
// Several regions (docs/timing.md "Several regions"): every START makes a
// region, the rectangle of the START packet driven by its GC; up to four
// run at once, each started by a stream of its own (the loader takes the
// next stream while the others run and refuses, as BUSY, what would write
// into a running region). Every PE holds, from the start pulse of the
// region that contains it, the number of its GC (psel_q) and its run flag
// (prun_q): its step counter, start delay, signal terms and its border
// AGs follow that GC's packet. A region is done (gdone) in the first cycle
// in which the done condition of timing.md section 7 holds for its PEs,
// their links and their AGs; its cycles are counted from its own cycle 0.
// done_o: every started region is done and no stream is being loaded (a
// harness that has more streams to feed goes on). The dbg_* ports carry the trace events of every PE
// (index p = row * cols + col), AG (index (p * 4 + side) * NBANK + bank) and
// border port (index (p * 4 + side) * ports + port) for the harness, and a
// read port into every bank for dumping results. Every PE, GC and AG is
// clocked through a clock gate (tcpa_clock_gate) that stops it in the
// cycles where its state cannot change: while the loader writes other
// units, and in the run when it has nothing to do (docs/rtl.md "Clock
// gating").
`include "rtl/tcpa_assert.svh"
`include "rtl/tcpa_mutation.svh"

// A debug event vector: with TCPA_DEBUG_PORTS the output port itself, so
// that no simulator copies a whole wide vector (4096 bits for the banks'
// words on big1d.ini) into its port whenever one slice changes; without
// it the internal net of that name (docs/rtl.md "Clock gating")
`ifdef TCPA_DEBUG_PORTS
`define TCPA_DBG(NAME) NAME``_o
`else
`define TCPA_DBG(NAME) NAME
`endif

module tcpa_top (
  input  logic                                    clk_i,
  input  logic                                    rst_ni,
  input  logic                                    cfg_valid_i,
  output logic                                    cfg_ready_o,
  input  logic [31:0]                             cfg_data_i,
  input  logic                                    cfg_last_i,
  output logic                                    err_o,
  output logic [3:0]                              err_code_o,
  output logic                                    run_o,
  output logic                                    done_o
`ifdef TCPA_DEBUG_PORTS
  ,
  // trace events per PE
  output logic [tcpa_pkg::NPE-1:0]                dbg_start_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NSIG-1:0] dbg_sig_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NFU-1:0]  dbg_issue_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NFU*tcpa_pkg::PC_W-1:0] dbg_pc_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NFU-1:0]  dbg_halt_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NFU-1:0]  dbg_wr_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NFU*tcpa_isa_pkg::ISA_SIZE_OPND-1:0] dbg_wr_dst_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NFU*tcpa_isa_pkg::ISA_SIZE_ODMASK-1:0] dbg_wr_odmask_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NFU*32-1:0] dbg_wr_val_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NID_S-1:0] dbg_idrd_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NID_S-1:0] dbg_idempty_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NID_S*32-1:0] dbg_idhead_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NID_S-1:0] dbg_push_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NID_S*32-1:0] dbg_push_val_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NID_S-1:0] dbg_drop_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NFD_S-1:0] dbg_fdrd_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NFD_S*32-1:0] dbg_fdval_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NWP-1:0]  dbg_hop_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NWP*32-1:0] dbg_hop_val_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NWP-1:0]  dbg_stray_o,
  // trace events per AG
  output logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK-1:0]    dbg_bank_o,
  output logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK-1:0]    dbg_bank_wr_o,
  output logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK*32-1:0] dbg_bank_addr_o,
  output logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK*32-1:0] dbg_bank_val_o,
  output logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK-1:0]    dbg_agmiss_o,
  output logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK-1:0]    dbg_agrange_o,
  // bank contents
  input  logic [tcpa_pkg::BADDR_W-1:0]                  dbg_rd_addr_i,
  output logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK*32-1:0] dbg_rd_data_o,
  // state (docs/trace.md "State events"): per PE, per AG, the started GC
  output logic [tcpa_pkg::NPE*32-1:0]                   dbg_step_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NFU*tcpa_isa_pkg::ISA_WORD_BITS-1:0]    dbg_word_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NFU-1:0]        dbg_flag_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NRD_S-1:0]      dbg_rfwe_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NRD_S*32-1:0]   dbg_rfwd_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NFD_S-1:0]      dbg_fdwe_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NFD_S*32-1:0]   dbg_fdwd_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NOD_S-1:0]      dbg_odwe_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NOD_S*32-1:0]   dbg_odwd_o,
  output logic [tcpa_pkg::NPE*tcpa_pkg::NID_S*16-1:0]   dbg_fifocnt_o,
  output logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK-1:0]    dbg_bankwe_o,
  output logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK*32-1:0] dbg_bankwa_o,
  output logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK*32-1:0] dbg_bankwd_o,
  // per GC g: its `gc` event (begin, step, signals), its region's first
  // cycle (rstart), its region done in this cycle (rdone) after
  // dbg_gc_cycles_o[g] cycles of its own
  output logic [tcpa_pkg::NGC-1:0]                      dbg_gc_begin_o,
  output logic [tcpa_pkg::NGC*32-1:0]                   dbg_gc_step_o,
  output logic [tcpa_pkg::NGC*tcpa_pkg::NSIG-1:0]       dbg_gc_sig_o,
  output logic [tcpa_pkg::NGC-1:0]                      dbg_gc_rstart_o,
  output logic [tcpa_pkg::NGC-1:0]                      dbg_gc_rdone_o,
  output logic [tcpa_pkg::NGC*32-1:0]                   dbg_gc_cycles_o,
  output logic [tcpa_pkg::NGC*64-1:0]                   dbg_gc_rect_o,  // {cols, rows, col0, row0}
  // per PE, while a stream loads (docs/timing.md section 11): the PE left
  // its region for the stream (dbg_phide_o: a PE or AG packet of the
  // stream reached it, or the stream configures its region's GC), its
  // configuration cleared by the stream (dbg_pclear_o); the loader writes
  // an IODATA word into a bank in this cycle (dbg_cfg_io_o)
  output logic [tcpa_pkg::NPE-1:0]                      dbg_phide_o,
  output logic [tcpa_pkg::NPE-1:0]                      dbg_pclear_o,
  output logic                                          dbg_cfg_io_o
`endif
);
  localparam int unsigned ROWS  = tcpa_pkg::ROWS;
  localparam int unsigned COLS  = tcpa_pkg::COLS;
  localparam int unsigned NPE   = tcpa_pkg::NPE;
  localparam int unsigned NGC   = tcpa_pkg::NGC;
  localparam int unsigned NDIM  = tcpa_pkg::NDIM;
  localparam int unsigned NSIG  = tcpa_pkg::NSIG;
  localparam int unsigned NPORT = tcpa_pkg::NPORT;
  localparam int unsigned NWP   = tcpa_pkg::NWP;
  localparam int unsigned NBANK = tcpa_pkg::NBANK;
  // the terms of a GC (tcpa_sig_eval): term flags, signals, constraint
  // flags, constants and step increments, flat
  localparam int unsigned NTERM = tcpa_pkg::NTERM;
  localparam int unsigned NC    = NTERM * tcpa_pkg::NCONS;

  // trace events and bank read port: with TCPA_DEBUG_PORTS the dbg_*
  // output ports themselves (`TCPA_DBG), without it internal nets that
  // synthesis removes
  logic [tcpa_pkg::BADDR_W-1:0]                  dbg_rd_addr;
`ifndef TCPA_DEBUG_PORTS
  logic [tcpa_pkg::NPE-1:0]                      dbg_start;
  logic [tcpa_pkg::NPE*tcpa_pkg::NSIG-1:0]       dbg_sig;
  logic [tcpa_pkg::NPE*tcpa_pkg::NFU-1:0]        dbg_issue;
  logic [tcpa_pkg::NPE*tcpa_pkg::NFU*tcpa_pkg::PC_W-1:0]      dbg_pc;
  logic [tcpa_pkg::NPE*tcpa_pkg::NFU-1:0]        dbg_halt;
  logic [tcpa_pkg::NPE*tcpa_pkg::NFU-1:0]        dbg_wr;
  logic [tcpa_pkg::NPE*tcpa_pkg::NFU*tcpa_isa_pkg::ISA_SIZE_OPND-1:0]      dbg_wr_dst;
  logic [tcpa_pkg::NPE*tcpa_pkg::NFU*tcpa_isa_pkg::ISA_SIZE_ODMASK-1:0]      dbg_wr_odmask;
  logic [tcpa_pkg::NPE*tcpa_pkg::NFU*32-1:0]     dbg_wr_val;
  logic [tcpa_pkg::NPE*tcpa_pkg::NID_S-1:0]      dbg_idrd;
  logic [tcpa_pkg::NPE*tcpa_pkg::NID_S-1:0]      dbg_idempty;
  logic [tcpa_pkg::NPE*tcpa_pkg::NID_S*32-1:0]   dbg_idhead;
  logic [tcpa_pkg::NPE*tcpa_pkg::NID_S-1:0]      dbg_push;
  logic [tcpa_pkg::NPE*tcpa_pkg::NID_S*32-1:0]   dbg_push_val;
  logic [tcpa_pkg::NPE*tcpa_pkg::NID_S-1:0]      dbg_drop;
  logic [tcpa_pkg::NPE*tcpa_pkg::NFD_S-1:0]      dbg_fdrd;
  logic [tcpa_pkg::NPE*tcpa_pkg::NFD_S*32-1:0]   dbg_fdval;
  logic [tcpa_pkg::NPE*tcpa_pkg::NWP-1:0]        dbg_hop;
  logic [tcpa_pkg::NPE*tcpa_pkg::NWP*32-1:0]     dbg_hop_val;
  logic [tcpa_pkg::NPE*tcpa_pkg::NWP-1:0]        dbg_stray;
  logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK-1:0]    dbg_bank;
  logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK-1:0]    dbg_bank_wr;
  logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK*32-1:0] dbg_bank_addr;
  logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK*32-1:0] dbg_bank_val;
  logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK-1:0]    dbg_agmiss;
  logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK-1:0]    dbg_agrange;
  logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK*32-1:0] dbg_rd_data;
  logic [tcpa_pkg::NPE*32-1:0]                   dbg_step;
  logic [tcpa_pkg::NPE*tcpa_pkg::NFU*tcpa_isa_pkg::ISA_WORD_BITS-1:0]    dbg_word;
  logic [tcpa_pkg::NPE*tcpa_pkg::NFU-1:0]        dbg_flag;
  logic [tcpa_pkg::NPE*tcpa_pkg::NRD_S-1:0]      dbg_rfwe;
  logic [tcpa_pkg::NPE*tcpa_pkg::NRD_S*32-1:0]   dbg_rfwd;
  logic [tcpa_pkg::NPE*tcpa_pkg::NFD_S-1:0]      dbg_fdwe;
  logic [tcpa_pkg::NPE*tcpa_pkg::NFD_S*32-1:0]   dbg_fdwd;
  logic [tcpa_pkg::NPE*tcpa_pkg::NOD_S-1:0]      dbg_odwe;
  logic [tcpa_pkg::NPE*tcpa_pkg::NOD_S*32-1:0]   dbg_odwd;
  logic [tcpa_pkg::NPE*tcpa_pkg::NID_S*16-1:0]   dbg_fifocnt;
  logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK-1:0]    dbg_bankwe;
  logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK*32-1:0] dbg_bankwa;
  logic [tcpa_pkg::NPE*4*tcpa_pkg::NBANK*32-1:0] dbg_bankwd;
`endif
  logic [NGC-1:0]                                g_begin;
  logic [NGC*32-1:0]                             g_step;
  logic [NGC*NSIG-1:0]                           g_sig;

  // configuration bus; the loader's next word; the PEs' and each side's
  // AGs' copies of it (tcpa_bus_tap: one variable each, so that a
  // simulator evaluates a group's decoding only for the group's words)
  tcpa_pkg::cfg_bus_t bus, bus_next, pe_bus, ag_bus_n, ag_bus_e, ag_bus_s, ag_bus_w;
  logic        start, ldr_idle, start_next;
  logic [1:0]  sgc, sgc_next;
  logic [15:0] srow0, scol0, srows, scols;
  logic        run_q, run_d;

  // regions: per GC, started (grun_q, from its first start pulse on; its
  // trace stepper runs from then on and restarts at every start pulse:
  // gc_run stops it in the cycle before one), done
  // (gdone_q, from the end of its done cycle to its next start pulse), its
  // region's cycles so far (gcyc_q) and rectangle (grect_q: cols, rows,
  // col0, row0 from the top); per PE, the GC of its region (psel_q) and its
  // run flag (prun_q, from its region's cycle 0 on); per PE, during a
  // stream: reached by a PE or AG packet of it (ptouch_q), out of its
  // region for it (phide_q), and this cycle's clear of its configuration
  // (pcfgclr) and leaving of its region (pleave)
  logic [NGC-1:0]    grun_q, grun_d, gdone_q, gdone_d, gstart, gbusy, gfin, gfin_x, gc_run, gcfg;
  logic [NGC*32-1:0] gcyc_q, gcyc_d;
  logic [NGC*64-1:0] grect_q, grect_d;
  logic [NPE-1:0]    prun_q, prun_d, shit;
  logic [NPE-1:0]    ptouch_q, ptouch_d, phide_q, phide_d, pcfgclr, pleave, phdr;
  logic [NPE*2-1:0]  psel_q, psel_d;

  // global controllers (flat: Yosys 0.23 has no packed 2-D arrays)
  logic [NGC*32-1:0]      g_ii, g_nd, g_ns, g_d0, g_dr, g_dc;
  logic [NGC*NDIM*32-1:0] g_bound;
  logic [NGC*16-1:0]      g_row0, g_col0, g_rows, g_cols;
  logic [NGC*NTERM*24-1:0] g_trng;
  logic [NGC*NTERM-1:0]   g_tact;
  logic [NGC*NTERM*8-1:0] g_tsig;
  logic [NGC*NC-1:0]      g_cuse, g_kind;
  logic [NGC*NC*32-1:0]   g_konst;
  logic [NGC*NC*NDIM*32-1:0] g_delta;

  // array
  logic [NPE*NWP-1:0]     wout_v, win_v;
  logic [NPE*NWP*32-1:0]  wout_d, win_d;
  logic [NPE-1:0]         quiet, inreg;
  logic [NPE*32-1:0]      delay;
  logic [NPE*4*NBANK-1:0] ag_tok, ag_consume, ag_passed, ag_pend;
  logic [NPE*4*NBANK*32-1:0] ag_tokv;
  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  tcpa_cfg_loader u_loader (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .cfg_valid_i  (cfg_valid_i),
    .cfg_ready_o  (cfg_ready_o),
    .cfg_data_i   (cfg_data_i),
    .cfg_last_i   (cfg_last_i),
    .bus_o        (bus),
    .bus_next_o   (bus_next),
    .start_o      (start),
    .start_gc_o   (sgc),
    .start_row0_o (srow0),
    .start_col0_o (scol0),
    .start_rows_o (srows),
    .start_cols_o (scols),
    .start_next_o (start_next),
    .start_next_gc_o (sgc_next),
    .busy_i       (grun_d & ~gdone_d),
    .busy_rect_i  (grect_q),
    .err_o        (err_o),
    .err_code_o   (err_code_o),
    .idle_o       (ldr_idle)
  );

  // the regions (docs/timing.md "Several regions"): the start pulse of GC
  // sgc makes the PEs of its rectangle (shit) its own from the next cycle,
  // its region's cycle 0, on; the region is done in the first cycle from
  // then on in which its PEs, their links and AGs are quiet (gfin); a GC
  // is busy while its region runs
  for (genvar p = 0; p < NPE; p++) begin : g_shit
    localparam int unsigned R = p / COLS;
    localparam int unsigned C = p % COLS;
    assign shit[p] = ({16'd0, srow0} <= R) && (R < {16'd0, srow0} + {16'd0, srows}) &&
                     ({16'd0, scol0} <= C) && (C < {16'd0, scol0} + {16'd0, scols});
  end
  always_comb begin
    for (int unsigned g = 0; g < NGC; g++) begin
      gstart[g] = start && ({30'd0, sgc} == g);
      // mutant 46: one START starting two GCs: the start pulse of GC g also
      // restarts the controller of GC g ^ 1 (its stepper and `gc` lines;
      // the region bookkeeping of g ^ 1 stays)
      gc_run[g] = `TCPA_MUTANT_EXPR(46, (start && ({30'd0, sgc ^ 2'd1} == g)) || gstart[g] ||
                                    (grun_q[g] && !(start_next && (({30'd0, sgc_next} == g) ||
                                                                  ({30'd0, sgc_next ^ 2'd1} == g)))),
                                    gstart[g] || (grun_q[g] && !(start_next && {30'd0, sgc_next} == g)));
    end
    gbusy = grun_q & ~gdone_q;
    grun_d = (grun_q & ~gcfg) | gstart;
    gdone_d = (gdone_q | (gbusy & gfin_x)) & ~gstart;
    gcyc_d = gcyc_q;
    grect_d = grect_q;
    for (int unsigned g = 0; g < NGC; g++) begin
      if (gstart[g]) begin
        gcyc_d[g*32 +: 32] = '0;
        grect_d[g*64 +: 64] = {scols, srows, scol0, srow0};
      end else if (gbusy[g] && !gfin[g]) begin
        gcyc_d[g*32 +: 32] = gcyc_q[g*32 +: 32] + 32'd1;
      end
    end
    prun_d = (prun_q & ~pleave) | (shit & {NPE{start}});
    psel_d = psel_q;
    for (int unsigned p = 0; p < NPE; p++)
      if (start && shit[p]) psel_d[p*2 +: 2] = sgc;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      grun_q <= '0;
      gdone_q <= '0;
      gcyc_q <= '0;
      grect_q <= '0;
      prun_q <= '0;
      psel_q <= '0;
      ptouch_q <= '0;
      phide_q <= '0;
    end else begin
      grun_q <= grun_d;
      gdone_q <= gdone_d;
      gcyc_q <= gcyc_d;
      grect_q <= grect_d;
      prun_q <= prun_d;
      psel_q <= psel_d;
      ptouch_q <= ptouch_d;
      phide_q <= phide_d;
    end
  end

  // the groups' copies of the bus: a PROGRAM, REGCFG or WRAPPER packet
  // for the PEs, an AG or IODATA packet for the AGs of its side
  logic bus_next_word, pe_take, ag_take;
  assign bus_next_word = bus_next.we || bus_next.hdr;
  assign pe_take = bus_next_word &&
                   (bus_next.ptype == tcpa_stream_pkg::PKT_PROGRAM || bus_next.ptype == tcpa_stream_pkg::PKT_REGCFG ||
                    bus_next.ptype == tcpa_stream_pkg::PKT_WRAPPER);
  assign ag_take = bus_next_word &&
                   (bus_next.ptype == tcpa_stream_pkg::PKT_AG || bus_next.ptype == tcpa_stream_pkg::PKT_IODATA);
  tcpa_bus_tap u_pe_tap (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .take_i     (pe_take),
    .bus_next_i (bus_next),
    .bus_o      (pe_bus)
  );
  tcpa_bus_tap u_ag_tap_n (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .take_i     (ag_take && bus_next.side == 2'd0),
    .bus_next_i (bus_next),
    .bus_o      (ag_bus_n)
  );
  tcpa_bus_tap u_ag_tap_e (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .take_i     (ag_take && bus_next.side == 2'd1),
    .bus_next_i (bus_next),
    .bus_o      (ag_bus_e)
  );
  tcpa_bus_tap u_ag_tap_s (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .take_i     (ag_take && bus_next.side == 2'd2),
    .bus_next_i (bus_next),
    .bus_o      (ag_bus_s)
  );
  tcpa_bus_tap u_ag_tap_w (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .take_i     (ag_take && bus_next.side == 2'd3),
    .bus_next_i (bus_next),
    .bus_o      (ag_bus_w)
  );

  // run_q changes once (at the start pulse): clocked only then, so that
  // the array's logic that reads it is not evaluated in every loading
  // cycle; and in reset (every gate is open while rst_ni is low: Verilator
  // applies the asynchronous reset at the clock edges while it is low)
  logic run_clk;
  assign run_d = run_q || start;
  tcpa_clock_gate u_run_cg (
    .clk_i (clk_i),
    .en_i  (!rst_ni || run_d != run_q),
    .clk_o (run_clk)
  );
  always_ff @(posedge run_clk or negedge rst_ni) begin
    if (!rst_ni) run_q <= 1'b0;
    else run_q <= run_d;
  end
  assign run_o = run_q;

  // The array's clocks (docs/rtl.md "Clock gating"): while the bus carries
  // a payload word of a GC, AG, IODATA or PE packet before the start, only
  // the units it writes are clocked (the GC's words also clock every PE,
  // whose constraint accumulators follow the GCs' constants while not
  // running); in every other cycle (idle bus, packet headers, the start
  // pulse, the run) all of them are. A unit not clocked would keep its
  // state anyway: not running, nothing but the bus changes it.
  logic            gate, pe_word, gc_word, ag_word;
  logic [ROWS-1:0] rhit;
  logic [COLS-1:0] chit;
  logic [NGC-1:0]  gc_clk;
  // (comparisons, not `inside`: Yosys 0.23 has no set membership)
  assign pe_word = bus.ptype == tcpa_stream_pkg::PKT_PROGRAM || bus.ptype == tcpa_stream_pkg::PKT_REGCFG ||
                   bus.ptype == tcpa_stream_pkg::PKT_WRAPPER;
  assign gc_word = bus.ptype == tcpa_stream_pkg::PKT_GC;
  assign ag_word = bus.ptype == tcpa_stream_pkg::PKT_AG || bus.ptype == tcpa_stream_pkg::PKT_IODATA;
  assign gate = bus.we && !start && !run_q && (pe_word || gc_word || ag_word);
  for (genvar r = 0; r < ROWS; r++) begin : g_rhit
    assign rhit[r] = ({16'd0, bus.row0} <= r) && (r < {16'd0, bus.row0} + {16'd0, bus.rows});
  end
  for (genvar c = 0; c < COLS; c++) begin : g_chit
    assign chit[c] = ({16'd0, bus.col0} <= c) && (c < {16'd0, bus.col0} + {16'd0, bus.cols});
  end
  // A stream's packets take PEs out of their regions (docs/timing.md
  // section 11): the first PE or AG packet of the stream that reaches a PE
  // clears the PE's configuration (at its header, before its words); that
  // PE, and every PE of GC g's region when the stream has a GC packet for
  // g, leaves its region: it stops at once (the region is done: nothing
  // of it runs) and the harness hides its state until the stream's start
  // pulse, so that what it traces changes at t_k as documented
  for (genvar p = 0; p < NPE; p++) begin : g_phdr
    assign phdr[p] = bus.hdr && (pe_word || bus.ptype == tcpa_stream_pkg::PKT_AG) &&
                     rhit[p / COLS] && chit[p % COLS];
  end
  always_comb begin
    for (int unsigned g = 0; g < NGC; g++)
      gcfg[g] = bus.hdr && gc_word && ({24'd0, bus.index} == g);
    pcfgclr = phdr & ~ptouch_q;
    for (int unsigned p = 0; p < NPE; p++)
      pleave[p] = phdr[p] || (prun_q[p] && gcfg[psel_q[p*2 +: 2]]);
    ptouch_d = start ? '0 : ptouch_q | phdr;
    phide_d = start ? '0 : phide_q | pleave;
  end

  // a GC is clocked before the first start, and then from its start pulse
  // on (one cycle ahead of its region), while a stream loads (its trace
  // stepper's accumulators take the constants of its packet after the
  // packet's last word, as before the first start) and for its own packets
  for (genvar g = 0; g < NGC; g++) begin : g_gc_cg
    tcpa_clock_gate u_cg (
      .clk_i (clk_i),
      .en_i  (!rst_ni || (!gate && (!run_q || !ldr_idle || gstart[g] || grun_q[g])) ||
              (gc_word && bus.index == g[7:0])),
      .clk_o (gc_clk[g])
    );
  end

  for (genvar g = 0; g < NGC; g++) begin : g_gc
    tcpa_gc u_gc (
      .clk_i       (gc_clk[g]),
      .rst_ni      (rst_ni),
      .idx_i       (g[7:0]),
      .bus_i       (bus),
      .run_i       (gc_run[g]),
      .ii_o        (g_ii[g*32 +: 32]),
      .ndims_o     (g_nd[g*32 +: 32]),
      .bound_o     (g_bound[g*NDIM*32 +: NDIM*32]),
      .nsteps_o    (g_ns[g*32 +: 32]),
      .delay0_o    (g_d0[g*32 +: 32]),
      .delay_row_o (g_dr[g*32 +: 32]),
      .delay_col_o (g_dc[g*32 +: 32]),
      .row0_o      (g_row0[g*16 +: 16]),
      .col0_o      (g_col0[g*16 +: 16]),
      .rows_o      (g_rows[g*16 +: 16]),
      .cols_o      (g_cols[g*16 +: 16]),
      .trng_o      (g_trng[g*NTERM*24 +: NTERM*24]),
      .tact_o      (g_tact[g*NTERM +: NTERM]),
      .tsig_o      (g_tsig[g*NTERM*8 +: NTERM*8]),
      .cuse_o      (g_cuse[g*NC +: NC]),
      .kind_o      (g_kind[g*NC +: NC]),
      .konst_o     (g_konst[g*NC*32 +: NC*32]),
      .delta_o     (g_delta[g*NC*NDIM*32 +: NC*NDIM*32]),
      .dbg_begin_o (g_begin[g]),
      .dbg_step_o  (g_step[g*32 +: 32]),
      .dbg_sig_o   (g_sig[g*NSIG +: NSIG])
    );
  end

  for (genvar r = 0; r < ROWS; r++) begin : g_row
    for (genvar c = 0; c < COLS; c++) begin : g_col
      localparam int unsigned P = r * COLS + c;
      // this PE's gated clock, one net that its PE and the read tokens of
      // its border banks (g_ag below) are clocked by: a bit of an array
      // vector would do on a larger array, but on a 1x1 array Verilator
      // 5.006 names the trigger of pe_clk[0] and of the vector the same
      // and its C++ does not compile (tests/rtl_1x1.sh)
      logic pe_clk;

      // this PE's GC: the one whose region contains it (psel_q); the PE
      // runs from its region's cycle 0 on (a PE of a region being started
      // again stops for the start pulse's cycle, so that its step counter
      // starts afresh)
      logic [1:0]           gs;
      logic [31:0]          ii, nd, ns, d0, dr, dc;
      logic [NDIM*32-1:0]   bound;
      logic [15:0]          grow0, gcol0, grows, gcols;
      logic [NTERM*24-1:0]  trng;
      logic [NTERM-1:0]     tact;
      logic [NTERM*8-1:0]   tsig;
      logic [NC-1:0]        cuse, kind;
      logic [NC*32-1:0]     konst;
      logic [NC*NDIM*32-1:0] delta;
      // (in the start pulse's cycle already the starting GC: the PE's
      // accumulators load its constants while the PE does not run)
      // mutant 45: GC select from the neighbouring region: a PE takes the GC
      // select of its west neighbour (PW, itself in column 0), so the first
      // column of a region right of another follows that region's GC
      `TCPA_MUTANT_ONLY(localparam int unsigned PW = P - ((c > 0) ? 1 : 0);)
      assign gs = `TCPA_MUTANT_EXPR(45, (start && shit[PW]) ? sgc : psel_q[PW*2 +: 2],
                                    (start && shit[P]) ? sgc : psel_q[P*2 +: 2]);
      assign ii = g_ii[gs*32 +: 32];
      assign nd = g_nd[gs*32 +: 32];
      assign ns = g_ns[gs*32 +: 32];
      assign d0 = g_d0[gs*32 +: 32];
      assign dr = g_dr[gs*32 +: 32];
      assign dc = g_dc[gs*32 +: 32];
      assign bound = g_bound[gs*NDIM*32 +: NDIM*32];
      assign grow0 = g_row0[gs*16 +: 16];
      assign gcol0 = g_col0[gs*16 +: 16];
      assign grows = g_rows[gs*16 +: 16];
      assign gcols = g_cols[gs*16 +: 16];
      assign trng = g_trng[gs*NTERM*24 +: NTERM*24];
      assign tact = g_tact[gs*NTERM +: NTERM];
      assign tsig = g_tsig[gs*NTERM*8 +: NTERM*8];
      assign cuse = g_cuse[gs*NC +: NC];
      assign kind = g_kind[gs*NC +: NC];
      assign konst = g_konst[gs*NC*32 +: NC*32];
      assign delta = g_delta[gs*NC*NDIM*32 +: NC*NDIM*32];

      assign inreg[P] = prun_q[P] && !(start && shit[P]);
      assign delay[P*32 +: 32] = d0 + dr * (r - {16'd0, grow0}) + dc * (c - {16'd0, gcol0});

      // the terms whose PE range holds this PE (timing.md section 2): its
      // offset in the GC's rectangle within row_lo .. ROWS - 1 - row_skip
      // and col_lo .. COLS - 1 - col_skip; a PE left of or above the origin
      // wraps to a large offset and is outside (it is outside the region)
      localparam logic [15:0] R16 = 16'(r);
      localparam logic [15:0] C16 = 16'(c);
      logic [16:0]      pdr, pdc;
      logic [NTERM-1:0] ptact;
      assign pdr = {1'b0, R16 - grow0};
      assign pdc = {1'b0, C16 - gcol0};
      always_comb
        for (int unsigned t = 0; t < NTERM; t++)
          ptact[t] = tact[t] && pdr >= {11'd0, trng[t*24 +: 6]} && pdr + {11'd0, trng[t*24 + 6 +: 6]} < {1'b0, grows} &&
                     pdc >= {11'd0, trng[t*24 + 12 +: 6]} && pdc + {11'd0, trng[t*24 + 18 +: 6]} < {1'b0, gcols};

      // wrapper inputs: the neighbour's link register, or the bank's read token
      for (genvar k = 0; k < NPORT; k++) begin : g_port
        if (r > 0) begin : g_n
          // mutant 33: swapped side: the north input takes the upper
          // neighbour's north-going link instead of its south-going one
          assign win_v[P*NWP + 0*NPORT + k] = `TCPA_MUTANT_EXPR(33, wout_v[(P - COLS)*NWP + 0*NPORT + k],
                                                                wout_v[(P - COLS)*NWP + 2*NPORT + k]);
          assign win_d[(P*NWP + 0*NPORT + k)*32 +: 32] =
              `TCPA_MUTANT_EXPR(33, wout_d[((P - COLS)*NWP + 0*NPORT + k)*32 +: 32],
                                wout_d[((P - COLS)*NWP + 2*NPORT + k)*32 +: 32]);
        end else if (k < NBANK) begin : g_nb
          assign win_v[P*NWP + 0*NPORT + k] = ag_tok[(P*4 + 0)*NBANK + k];
          assign win_d[(P*NWP + 0*NPORT + k)*32 +: 32] = ag_tokv[((P*4 + 0)*NBANK + k)*32 +: 32];
        end else begin : g_nz
          assign win_v[P*NWP + 0*NPORT + k] = 1'b0;
          assign win_d[(P*NWP + 0*NPORT + k)*32 +: 32] = '0;
        end
        if (c + 1 < COLS) begin : g_e
          assign win_v[P*NWP + 1*NPORT + k] = wout_v[(P + 1)*NWP + 3*NPORT + k];
          assign win_d[(P*NWP + 1*NPORT + k)*32 +: 32] = wout_d[((P + 1)*NWP + 3*NPORT + k)*32 +: 32];
        end else if (k < NBANK) begin : g_eb
          assign win_v[P*NWP + 1*NPORT + k] = ag_tok[(P*4 + 1)*NBANK + k];
          assign win_d[(P*NWP + 1*NPORT + k)*32 +: 32] = ag_tokv[((P*4 + 1)*NBANK + k)*32 +: 32];
        end else begin : g_ez
          assign win_v[P*NWP + 1*NPORT + k] = 1'b0;
          assign win_d[(P*NWP + 1*NPORT + k)*32 +: 32] = '0;
        end
        if (r + 1 < ROWS) begin : g_s
          assign win_v[P*NWP + 2*NPORT + k] = wout_v[(P + COLS)*NWP + 0*NPORT + k];
          assign win_d[(P*NWP + 2*NPORT + k)*32 +: 32] = wout_d[((P + COLS)*NWP + 0*NPORT + k)*32 +: 32];
        end else if (k < NBANK) begin : g_sb
          assign win_v[P*NWP + 2*NPORT + k] = ag_tok[(P*4 + 2)*NBANK + k];
          assign win_d[(P*NWP + 2*NPORT + k)*32 +: 32] = ag_tokv[((P*4 + 2)*NBANK + k)*32 +: 32];
        end else begin : g_sz
          assign win_v[P*NWP + 2*NPORT + k] = 1'b0;
          assign win_d[(P*NWP + 2*NPORT + k)*32 +: 32] = '0;
        end
        if (c > 0) begin : g_w
          // mutant 34: swapped port: the west input's port k takes the left
          // neighbour's east-going port k ^ 1
          assign win_v[P*NWP + 3*NPORT + k] = `TCPA_MUTANT_EXPR(34, wout_v[(P - 1)*NWP + 1*NPORT + (k ^ 1) % NPORT],
                                                                wout_v[(P - 1)*NWP + 1*NPORT + k]);
          assign win_d[(P*NWP + 3*NPORT + k)*32 +: 32] =
              `TCPA_MUTANT_EXPR(34, wout_d[((P - 1)*NWP + 1*NPORT + (k ^ 1) % NPORT)*32 +: 32],
                                wout_d[((P - 1)*NWP + 1*NPORT + k)*32 +: 32]);
        end else if (k < NBANK) begin : g_wb
          assign win_v[P*NWP + 3*NPORT + k] = ag_tok[(P*4 + 3)*NBANK + k];
          assign win_d[(P*NWP + 3*NPORT + k)*32 +: 32] = ag_tokv[((P*4 + 3)*NBANK + k)*32 +: 32];
        end else begin : g_wz
          assign win_v[P*NWP + 3*NPORT + k] = 1'b0;
          assign win_d[(P*NWP + 3*NPORT + k)*32 +: 32] = '0;
        end
      end

      tcpa_clock_gate u_pe_cg (
        .clk_i (clk_i),
        .en_i  (!rst_ni || !gate || gc_word || (pe_word && rhit[r] && chit[c])),
        .clk_o (pe_clk)
      );

      tcpa_pe u_pe (
        .clk_i           (pe_clk),
        .rst_ni          (rst_ni),
        .row_i           (r[15:0]),
        .col_i           (c[15:0]),
        .bus_i           (pe_bus),
        .run_i           (inreg[P]),
        .clr_i           (start && shit[P]),
        .cfg_clr_i       (pcfgclr[P]),
        .delay_i         (delay[P*32 +: 32]),
        .ii_i            (ii),
        .ndims_i         (nd),
        .bound_i         (bound),
        .nsteps_i        (ns),
        .tact_i          (ptact),
        .tsig_i          (tsig),
        .cuse_i          (cuse),
        .kind_i          (kind),
        .konst_i         (konst),
        .delta_i         (delta),
        .win_valid_i     (win_v[P*NWP +: NWP]),
        .win_data_i      (win_d[P*NWP*32 +: NWP*32]),
        .wout_valid_o    (wout_v[P*NWP +: NWP]),
        .wout_data_o     (wout_d[P*NWP*32 +: NWP*32]),
        .quiet_o         (quiet[P]),
        .dbg_start_o     (`TCPA_DBG(dbg_start)[P]),
        .dbg_sig_o       (`TCPA_DBG(dbg_sig)[P*NSIG +: NSIG]),
        .dbg_issue_o     (`TCPA_DBG(dbg_issue)[P*tcpa_pkg::NFU +: tcpa_pkg::NFU]),
        .dbg_pc_o        (`TCPA_DBG(dbg_pc)[P*tcpa_pkg::NFU*tcpa_pkg::PC_W +: tcpa_pkg::NFU*tcpa_pkg::PC_W]),
        .dbg_halt_o      (`TCPA_DBG(dbg_halt)[P*tcpa_pkg::NFU +: tcpa_pkg::NFU]),
        .dbg_wr_o        (`TCPA_DBG(dbg_wr)[P*tcpa_pkg::NFU +: tcpa_pkg::NFU]),
        .dbg_wr_dst_o    (`TCPA_DBG(dbg_wr_dst)[P*tcpa_pkg::NFU*tcpa_isa_pkg::ISA_SIZE_OPND +: tcpa_pkg::NFU*tcpa_isa_pkg::ISA_SIZE_OPND]),
        .dbg_wr_odmask_o (`TCPA_DBG(dbg_wr_odmask)[P*tcpa_pkg::NFU*tcpa_isa_pkg::ISA_SIZE_ODMASK +: tcpa_pkg::NFU*tcpa_isa_pkg::ISA_SIZE_ODMASK]),
        .dbg_wr_val_o    (`TCPA_DBG(dbg_wr_val)[P*tcpa_pkg::NFU*32 +: tcpa_pkg::NFU*32]),
        .dbg_idrd_o      (`TCPA_DBG(dbg_idrd)[P*tcpa_pkg::NID_S +: tcpa_pkg::NID_S]),
        .dbg_idempty_o   (`TCPA_DBG(dbg_idempty)[P*tcpa_pkg::NID_S +: tcpa_pkg::NID_S]),
        .dbg_idhead_o    (`TCPA_DBG(dbg_idhead)[P*tcpa_pkg::NID_S*32 +: tcpa_pkg::NID_S*32]),
        .dbg_push_o      (`TCPA_DBG(dbg_push)[P*tcpa_pkg::NID_S +: tcpa_pkg::NID_S]),
        .dbg_push_val_o  (`TCPA_DBG(dbg_push_val)[P*tcpa_pkg::NID_S*32 +: tcpa_pkg::NID_S*32]),
        .dbg_drop_o      (`TCPA_DBG(dbg_drop)[P*tcpa_pkg::NID_S +: tcpa_pkg::NID_S]),
        .dbg_fdrd_o      (`TCPA_DBG(dbg_fdrd)[P*tcpa_pkg::NFD_S +: tcpa_pkg::NFD_S]),
        .dbg_fdval_o     (`TCPA_DBG(dbg_fdval)[P*tcpa_pkg::NFD_S*32 +: tcpa_pkg::NFD_S*32]),
        .dbg_hop_o       (`TCPA_DBG(dbg_hop)[P*NWP +: NWP]),
        .dbg_hop_val_o   (`TCPA_DBG(dbg_hop_val)[P*NWP*32 +: NWP*32]),
        .dbg_step_o      (`TCPA_DBG(dbg_step)[P*32 +: 32]),
        .dbg_word_o      (`TCPA_DBG(dbg_word)[P*tcpa_pkg::NFU*tcpa_isa_pkg::ISA_WORD_BITS +: tcpa_pkg::NFU*tcpa_isa_pkg::ISA_WORD_BITS]),
        .dbg_flag_o      (`TCPA_DBG(dbg_flag)[P*tcpa_pkg::NFU +: tcpa_pkg::NFU]),
        .dbg_rfwe_o      (`TCPA_DBG(dbg_rfwe)[P*tcpa_pkg::NRD_S +: tcpa_pkg::NRD_S]),
        .dbg_rfwd_o      (`TCPA_DBG(dbg_rfwd)[P*tcpa_pkg::NRD_S*32 +: tcpa_pkg::NRD_S*32]),
        .dbg_fdwe_o      (`TCPA_DBG(dbg_fdwe)[P*tcpa_pkg::NFD_S +: tcpa_pkg::NFD_S]),
        .dbg_fdwd_o      (`TCPA_DBG(dbg_fdwd)[P*tcpa_pkg::NFD_S*32 +: tcpa_pkg::NFD_S*32]),
        .dbg_odwe_o      (`TCPA_DBG(dbg_odwe)[P*tcpa_pkg::NOD_S +: tcpa_pkg::NOD_S]),
        .dbg_odwd_o      (`TCPA_DBG(dbg_odwd)[P*tcpa_pkg::NOD_S*32 +: tcpa_pkg::NOD_S*32]),
        .dbg_fifocnt_o   (`TCPA_DBG(dbg_fifocnt)[P*tcpa_pkg::NID_S*16 +: tcpa_pkg::NID_S*16])
      );

      // border sides: banks with AGs; tokens leaving the array meet them
      for (genvar s = 0; s < 4; s++) begin : g_side
        localparam bit BORDER = (s == 0 && r == 0) || (s == 1 && c == COLS - 1) ||
                                (s == 2 && r == ROWS - 1) || (s == 3 && c == 0);
        for (genvar k = 0; k < NPORT; k++) begin : g_stray
          if (BORDER && k < NBANK) begin : g_b
            assign `TCPA_DBG(dbg_stray)[P*NWP + s*NPORT + k] =
                wout_v[P*NWP + s*NPORT + k] && !ag_consume[(P*4 + s)*NBANK + k];
          end else if (BORDER) begin : g_nb
            // no bank behind this port (iobuf.banks < ports): a token
            // leaving here is a stray; its data goes nowhere
            logic unused_stray_d;
            assign unused_stray_d = ^wout_d[(P*NWP + s*NPORT + k)*32 +: 32];
            assign `TCPA_DBG(dbg_stray)[P*NWP + s*NPORT + k] = wout_v[P*NWP + s*NPORT + k];
          end else begin : g_in
            assign `TCPA_DBG(dbg_stray)[P*NWP + s*NPORT + k] = 1'b0;
          end
        end
        for (genvar b = 0; b < NBANK; b++) begin : g_bank
          localparam int unsigned A = (P*4 + s)*NBANK + b;
          if (BORDER) begin : g_ag
            // an AG whose mode is off does nothing in the run: not clocked
            logic        ag_clk, ag_on;
            logic [31:0] pendv;
            // mutant 47: a bank write crossing regions: where the PE before
            // this one along the side (PN: west on the north and south
            // sides, north on the east and west ones) runs in another
            // region than this PE, this AG writes the token leaving PN's
            // port instead of its own PE's
            `TCPA_MUTANT_ONLY(localparam int unsigned PN = P - ((s % 2 == 0) ? ((c > 0) ? 1 : 0) : ((r > 0) ? COLS : 0));
                              logic xwr;
                              assign xwr = prun_q[PN] && psel_q[PN*2 +: 2] != psel_q[P*2 +: 2];)
            tcpa_clock_gate u_ag_cg (
              .clk_i (clk_i),
              .en_i  (!rst_ni || (!gate && (ag_on || !run_q || phide_q[P] || pcfgclr[P])) ||
                      (ag_word && rhit[r] && chit[c] && bus.side == s[1:0] && bus.index == b[7:0])),
              .clk_o (ag_clk)
            );
            tcpa_ag u_ag (
              .clk_i       (ag_clk),
              .rst_ni      (rst_ni),
              .row_i       (r[15:0]),
              .col_i       (c[15:0]),
              .side_i      (s[1:0]),
              .bank_i      (b[7:0]),
              .bus_i       ((s == 0) ? ag_bus_n : (s == 1) ? ag_bus_e : (s == 2) ? ag_bus_s : ag_bus_w),
              .run_i       (inreg[P]),
              .cfg_clr_i   (pcfgclr[P]),
              .delay_i     (delay[P*32 +: 32]),
              .ii_i        (ii),
              .ndims_i     (nd),
              .bound_i     (bound),
              .nsteps_i    (ns),
              .arr_valid_i (`TCPA_MUTANT_EXPR(47, xwr ? wout_v[PN*NWP + s*NPORT + b] : wout_v[P*NWP + s*NPORT + b],
                                              wout_v[P*NWP + s*NPORT + b])),
              .arr_data_i  (`TCPA_MUTANT_EXPR(47, xwr ? wout_d[(PN*NWP + s*NPORT + b)*32 +: 32] :
                                                    wout_d[(P*NWP + s*NPORT + b)*32 +: 32],
                                              wout_d[(P*NWP + s*NPORT + b)*32 +: 32])),
              .consume_o   (ag_consume[A]),
              .passed_o    (ag_passed[A]),
              .pending_o   (ag_pend[A]),
              .pending_data_o (pendv),
              .on_o        (ag_on),
              .acc_o       (`TCPA_DBG(dbg_bank)[A]),
              .acc_wr_o    (`TCPA_DBG(dbg_bank_wr)[A]),
              .acc_addr_o  (`TCPA_DBG(dbg_bank_addr)[A*32 +: 32]),
              .acc_val_o   (`TCPA_DBG(dbg_bank_val)[A*32 +: 32]),
              .agmiss_o    (`TCPA_DBG(dbg_agmiss)[A]),
              .agrange_o   (`TCPA_DBG(dbg_agrange)[A]),
              .dbg_addr_i  (dbg_rd_addr),
              .dbg_data_o  (`TCPA_DBG(dbg_rd_data)[A*32 +: 32]),
              .bank_we_o   (`TCPA_DBG(dbg_bankwe)[A]),
              .bank_wa_o   (`TCPA_DBG(dbg_bankwa)[A*32 +: tcpa_pkg::BADDR_W]),
              .bank_wd_o   (`TCPA_DBG(dbg_bankwd)[A*32 +: 32])
            );
            // the read token on its way into the PE (the AG reads the bank
            // word in the event's cycle, the PE's port takes it in the
            // next): registered on the PE's clock, which runs whenever the
            // AG's can make a token (the run) and in the cycles it cannot
            // (the token is then zero, as it was), so that the loading of
            // a bank, which clocks its AG, does not wake the PEs' port
            // wrappers that read the links (docs/rtl.md "Clock gating")
            logic        tok_q;
            logic [31:0] tokv_q;
            always_ff @(posedge pe_clk or negedge rst_ni) begin
              if (!rst_ni) begin
                tok_q <= 1'b0;
                tokv_q <= '0;
              end else begin
                tok_q <= ag_pend[A];
                tokv_q <= pendv;
              end
            end
            assign ag_tok[A] = tok_q;
            assign ag_tokv[A*32 +: 32] = tokv_q;
            if (tcpa_pkg::BADDR_W < 32) begin : g_wa
              assign `TCPA_DBG(dbg_bankwa)[A*32 + tcpa_pkg::BADDR_W +: 32 - tcpa_pkg::BADDR_W] = '0;
            end
          end else begin : g_none
            assign ag_tok[A] = 1'b0;
            assign ag_tokv[A*32 +: 32] = '0;
            assign ag_consume[A] = 1'b0;
            assign ag_passed[A] = 1'b1;
            assign ag_pend[A] = 1'b0;
            assign `TCPA_DBG(dbg_bank)[A] = 1'b0;
            assign `TCPA_DBG(dbg_bank_wr)[A] = 1'b0;
            assign `TCPA_DBG(dbg_bank_addr)[A*32 +: 32] = '0;
            assign `TCPA_DBG(dbg_bank_val)[A*32 +: 32] = '0;
            assign `TCPA_DBG(dbg_agmiss)[A] = 1'b0;
            assign `TCPA_DBG(dbg_agrange)[A] = 1'b0;
            assign `TCPA_DBG(dbg_rd_data)[A*32 +: 32] = '0;
            assign `TCPA_DBG(dbg_bankwe)[A] = 1'b0;
            assign `TCPA_DBG(dbg_bankwa)[A*32 +: 32] = '0;
            assign `TCPA_DBG(dbg_bankwd)[A*32 +: 32] = '0;
          end
        end
      end
    end
  end

  // Returns 1 when rectangles a and b ({cols, rows, col0, row0}) overlap.
  function automatic logic rect_overlap(input logic [63:0] a, input logic [63:0] b);
    rect_overlap = {1'b0, a[15:0]} < {1'b0, b[15:0]} + {1'b0, b[47:32]} &&
                   {1'b0, b[15:0]} < {1'b0, a[15:0]} + {1'b0, a[47:32]} &&
                   {1'b0, a[31:16]} < {1'b0, b[31:16]} + {1'b0, b[63:48]} &&
                   {1'b0, b[31:16]} < {1'b0, a[31:16]} + {1'b0, a[63:48]};
  endfunction

  // done (timing.md section 7) per region: every PE of the region quiet,
  // every AG of its border PEs past its last event, no read token pending
  // mutant 35: a term forgotten: done looks at the PEs only, not the AGs
  logic [NPE-1:0] pfin;
  for (genvar p = 0; p < NPE; p++) begin : g_pfin
    assign pfin[p] = quiet[p] &&
                     `TCPA_MUTANT_EXPR(35, 1'b1, (&ag_passed[p*4*NBANK +: 4*NBANK]) && (~|ag_pend[p*4*NBANK +: 4*NBANK]));
  end
  // mutant 44: done of one region taken for another's: GC g's region is
  // done when the PEs of GC g ^ 1's region are quiet
  for (genvar g = 0; g < NGC; g++) begin : g_gfin_x
    assign gfin_x[g] = `TCPA_MUTANT_EXPR(44, gfin[g ^ 1], gfin[g]);
  end
  always_comb begin
    gfin = '1;
    for (int unsigned p = 0; p < NPE; p++)
      for (int unsigned g = 0; g < NGC; g++)
        if (prun_q[p] && {30'd0, psel_q[p*2 +: 2]} == g && !pfin[p]) gfin[g] = 1'b0;
  end
  assign done_o = run_q && ldr_idle && !start && ((gbusy & ~gfin) == '0);

  // invariants (docs/rtl.md "Assertions"): the run, once started, never
  // stops; a START only for a free GC, into no running region's
  // rectangle (the loader's BUSY); a PE in at most one running region:
  // the rectangles of running regions are disjoint
  `TCPA_ASSERT_IF(TopRunSticky, run_q, $past(run_q), clk_i, rst_ni)
  `TCPA_ASSERT_IF(TopStartFreeGc, !gbusy[sgc], start, clk_i, rst_ni)
  for (genvar g = 0; g < NGC; g++) begin : g_gc_assert
    for (genvar h = g + 1; h < NGC; h++) begin : g_pair
      `TCPA_ASSERT_IF(TopRegionsDisjoint, !rect_overlap(grect_q[g*64 +: 64], grect_q[h*64 +: 64]),
                      gbusy[g] && gbusy[h], clk_i, rst_ni)
    end
  end
`ifdef TCPA_DEBUG_PORTS
  // the harnesses' view (tb/rtl_collect.h, docs/rtl.md "Trace extraction")
  assign dbg_rd_addr = dbg_rd_addr_i;
  assign dbg_gc_begin_o = g_begin;
  assign dbg_gc_step_o = g_step;
  assign dbg_gc_sig_o = g_sig;
  for (genvar g = 0; g < NGC; g++) begin : g_dbg_gc
    assign dbg_gc_rstart_o[g] = gbusy[g] && gcyc_q[g*32 +: 32] == 32'd0;
    assign dbg_gc_cycles_o[g*32 +: 32] = gcyc_q[g*32 +: 32] + 32'd1;
  end
  assign dbg_gc_rdone_o = gbusy & gfin;
  assign dbg_gc_rect_o = grect_q;
  assign dbg_phide_o = phide_q;
  assign dbg_pclear_o = ptouch_q;
  assign dbg_cfg_io_o = bus.we && bus.ptype == tcpa_stream_pkg::PKT_IODATA;
`else
  assign dbg_rd_addr = '0;
  logic unused_dbg;
  assign unused_dbg = ^{dbg_start,
                        dbg_sig,
                        dbg_issue,
                        dbg_pc,
                        dbg_halt,
                        dbg_wr,
                        dbg_wr_dst,
                        dbg_wr_odmask,
                        dbg_wr_val,
                        dbg_idrd,
                        dbg_idempty,
                        dbg_idhead,
                        dbg_push,
                        dbg_push_val,
                        dbg_drop,
                        dbg_fdrd,
                        dbg_fdval,
                        dbg_hop,
                        dbg_hop_val,
                        dbg_stray,
                        dbg_bank,
                        dbg_bank_wr,
                        dbg_bank_addr,
                        dbg_bank_val,
                        dbg_agmiss,
                        dbg_agrange,
                        dbg_rd_data,
                        dbg_step, dbg_word, dbg_flag, dbg_rfwe, dbg_rfwd,
                        dbg_fdwe, dbg_fdwd, dbg_odwe, dbg_odwd, dbg_fifocnt,
                        dbg_bankwe, dbg_bankwa, dbg_bankwd, g_begin, g_step, g_sig, gcyc_q};
`endif
endmodule

`undef TCPA_DBG
