// tcpa_cfg_loader: takes the configuration stream (docs/stream.md) one
// 32-bit word per cycle through a valid/ready port (last marks the final
// word of the file) and drives the configuration bus (tcpa_pkg::cfg_bus_t)
// that every PE, global controller and address generator listens to.
//
// Header: magic, version and fingerprint (against the package's
// ARCH_FINGERPRINT) are checked as they arrive; a failure stops the loader at
// once, so nothing is applied. Payload: packets are parsed on the fly (the
// GC and AG payloads are variable, the loader tags every word with its field
// and term/constraint/dimension indices) and applied as they arrive, one
// registered bus word per accepted word. The CRC-32 (zlib: reflected, poly
// 0xEDB88320, init and final xor all ones) is computed word by word. At the
// last word the loader reports, in the order of stream.md: LENGTH (the last
// word is not at 6 + LENGTH - 1), CRC, then the first packet error seen
// (TYPE, RECT, TRUNCATED, PAYLOAD, ORDER; applying stops at it), else ORDER
// when no START came. Only a stream with no error raises start_o (one cycle,
// one cycle after the last word); a rejected stream never starts anything.
//
// Several regions (docs/timing.md "Several regions"): after a good stream
// the loader waits for the next stream's header, while the started regions
// run; busy_i says which GCs will drive a running region after this edge
// and busy_rect_i their rectangles. The running set is latched when the
// stream's first word is taken (timing.md section 11: the regions not done
// by the end of that cycle; their rectangles stay as they are until the
// stream's own START). A packet that would write into a running region (a PE, AG or
// IODATA packet whose rectangle overlaps one, a GC or START packet of a
// busy GC, a START whose rectangle overlaps one) is the packet error BUSY:
// it is not applied, nor is anything after it. idle_o: between streams.
`include "rtl/tcpa_assert.svh"
`include "rtl/tcpa_mutation.svh"

module tcpa_cfg_loader (
  input  logic        clk_i,
  input  logic        rst_ni,
  // stream port
  input  logic        cfg_valid_i,
  output logic        cfg_ready_o,
  input  logic [31:0] cfg_data_i,
  input  logic        cfg_last_i,
  // configuration bus (registered), and what it shows after this edge
  output tcpa_pkg::cfg_bus_t bus_o,
  output tcpa_pkg::cfg_bus_t bus_next_o,
  // the running regions: GC g drives one (busy_i[g]) in the rectangle
  // busy_rect_i[g*64 +: 64] = {cols, rows, col0, row0}, 16 bits each
  input  logic [tcpa_pkg::NGC-1:0]    busy_i,
  input  logic [tcpa_pkg::NGC*64-1:0] busy_rect_i,
  // start of the configured region
  output logic        start_o,
  output logic [1:0]  start_gc_o,
  output logic [15:0] start_row0_o,
  output logic [15:0] start_col0_o,
  output logic [15:0] start_rows_o,
  output logic [15:0] start_cols_o,
  // the start pulse comes in the next cycle, for GC start_next_gc_o
  output logic        start_next_o,
  output logic [1:0]  start_next_gc_o,
  // rejection
  output logic        err_o,
  output tcpa_stream_pkg::err_e err_code_o,
  // no stream is being loaded (before the first word or after a stream's last)
  output logic        idle_o
);
  localparam int unsigned ROWS  = tcpa_pkg::ROWS;
  localparam int unsigned COLS  = tcpa_pkg::COLS;
  localparam logic [63:0] FP    = tcpa_params_pkg::ARCH_FINGERPRINT;
  // the most steps S = prod(bounds) + epilog a GC may run: its units'
  // step counters are 32 bits wide (docs/timing.md section 2)
  localparam logic [63:0] MAX_STEPS = 64'hFFFF_FFFF;

  // loader states: stream header (also between streams), packet header,
  // packet payload, rejected
  typedef enum logic [1:0] {
    S_HDR  = 2'd0,
    S_PKT  = 2'd1,
    S_PAY  = 2'd2,
    S_ERR  = 2'd3
  } state_e;

  // Returns the CRC-32 register after one more little-endian word.
  function automatic logic [31:0] crc_word(input logic [31:0] crc, input logic [31:0] data);
    logic [31:0] c;
    c = crc ^ data;
    for (int i = 0; i < 32; i++) begin
      c = c[0] ? ((c >> 1) ^ 32'hEDB88320) : (c >> 1);
    end
    crc_word = c;
  endfunction

  state_e      st_q, st_d;
  logic [2:0]  wcnt_q, wcnt_d;         // word within header / packet header
  logic [31:0] len_q, len_d;           // LENGTH
  logic [31:0] crc_exp_q, crc_exp_d;   // header CRC
  logic [31:0] crc_q, crc_d;
  logic [31:0] pos_q, pos_d;           // payload words taken so far
  tcpa_stream_pkg::err_e perr_q, perr_d;  // first packet error
  logic        started_q, started_d;   // START packet seen
  // packet header: its type, index, side and rectangle are the bus's
  // fields (bus_q, below), which hold for the packet's whole length
  logic [31:0] pn_q, pn_d;             // NWORDS
  logic [31:0] pidx_q, pidx_d;         // payload word index
  // payload parser
  logic [4:0]  fld_q, fld_d;
  logic [7:0]  t_q, t_d, c_q, c_d, d_q, d_d;
  logic [31:0] nd_q, nd_d, nt_q, nt_d, nc_q, nc_d;
  logic [31:0] gd0_q, gd0_d, gdr_q, gdr_d;  // GC: delay0, delay_row
  logic [32:0] gst_q, gst_d;                // GC: prod(bounds) so far, at most 2^32
  // start
  logic [1:0]  sgc_q, sgc_d;
  logic [15:0] srow0_q, srow0_d, scol0_q, scol0_d, srows_q, srows_d, scols_q, scols_d;
  logic        start_q, start_d;
  tcpa_stream_pkg::err_e err_q, err_d;
  // the registered bus (bus_o), and its next word (bus_next_o): the
  // packet header's fields and the payload word's
  tcpa_pkg::cfg_bus_t bus_q, bus_d;

  logic        acc;
  tcpa_stream_pkg::err_e hdr_err;  // error found in a packet header word
  tcpa_stream_pkg::err_e pay_err;  // error found in a payload word
  tcpa_stream_pkg::pkt_kind_word_t ptype_word;  // the stream word, its TYPE typed
  logic [4:0]  nfld;        // field of the next payload word
  logic [31:0] remain;      // payload words after this one
  logic [31:0] fin_crc;
  logic        busy_hit;    // the packet header's rectangle or GC is busy
  logic [tcpa_pkg::NGC-1:0] lbusy_q, lbusy_d;  // the running set of this stream
  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  assign cfg_ready_o = 1'b1;
  assign ptype_word = cfg_data_i;
  assign acc = cfg_valid_i && cfg_ready_o;
  assign remain = len_q - pos_q - 32'd1;

  // BUSY (docs/timing.md "Several regions"): the packet header in bus_q
  // writes into a running region: its rectangle overlaps one (PE, AG,
  // IODATA, START packets) or its GC drives one (GC, START packets)
  always_comb begin
    busy_hit = 1'b0;
    for (int unsigned g = 0; g < tcpa_pkg::NGC; g++) begin
      logic [16:0] r0, c0, nr, nc;
      logic        ovl;
      r0 = {1'b0, busy_rect_i[g*64 +: 16]};
      c0 = {1'b0, busy_rect_i[g*64 + 16 +: 16]};
      nr = {1'b0, busy_rect_i[g*64 + 32 +: 16]};
      nc = {1'b0, busy_rect_i[g*64 + 48 +: 16]};
      ovl = {1'b0, bus_q.row0} < r0 + nr && r0 < {1'b0, bus_q.row0} + {1'b0, bus_q.rows} &&
            {1'b0, bus_q.col0} < c0 + nc && c0 < {1'b0, bus_q.col0} + {1'b0, bus_q.cols};
      if (lbusy_q[g]) begin
        if (bus_q.ptype == tcpa_stream_pkg::PKT_GC || bus_q.ptype == tcpa_stream_pkg::PKT_START) begin
          if ({24'd0, bus_q.index} == g) busy_hit = 1'b1;
        end
        // mutant 48: skipped check: a packet (PE, AG, IODATA, START) whose
        // rectangle overlaps a running region is accepted
        if (bus_q.ptype != tcpa_stream_pkg::PKT_GC && `TCPA_MUTANT_EXPR(48, 1'b0, ovl)) busy_hit = 1'b1;
      end
    end
  end

  // packet header checks on word wcnt_q (3: NWORDS), rectangle from regs
  always_comb begin
    hdr_err = tcpa_stream_pkg::E_NONE;
    if (wcnt_q == 3'd0) begin
      if (started_q) hdr_err = tcpa_stream_pkg::E_ORDER;
      else if (cfg_data_i[31:18] != 14'd0 || cfg_data_i[7:0] == 8'd0 || cfg_data_i[7:0] > 8'd7)
        hdr_err = tcpa_stream_pkg::E_TYPE;
    end else if (wcnt_q == 3'd3) begin
      if (bus_q.rows == 16'd0 || bus_q.cols == 16'd0 ||
          {16'd0, bus_q.row0} + {16'd0, bus_q.rows} > ROWS ||
          {16'd0, bus_q.col0} + {16'd0, bus_q.cols} > COLS)
        hdr_err = tcpa_stream_pkg::E_RECT;
      else if (bus_q.ptype == tcpa_stream_pkg::PKT_AG &&
               !((bus_q.side == 2'd0 && bus_q.row0 == 16'd0 && bus_q.rows == 16'd1) ||
                 (bus_q.side == 2'd2 && {16'd0, bus_q.row0} == ROWS - 1 && bus_q.rows == 16'd1) ||
                 (bus_q.side == 2'd3 && bus_q.col0 == 16'd0 && bus_q.cols == 16'd1) ||
                 (bus_q.side == 2'd1 && {16'd0, bus_q.col0} == COLS - 1 && bus_q.cols == 16'd1)))
        hdr_err = tcpa_stream_pkg::E_RECT;
      else if (cfg_data_i > remain)
        hdr_err = tcpa_stream_pkg::E_TRUNCATED;
      else begin
        unique case (bus_q.ptype)
          tcpa_stream_pkg::PKT_PROGRAM:
            if ({24'd0, bus_q.index} >= tcpa_pkg::NFU || cfg_data_i[1:0] != 2'd0 ||
                cfg_data_i == 32'd0 || cfg_data_i > 4 * tcpa_pkg::IMEM)
              hdr_err = tcpa_stream_pkg::E_PAYLOAD;
          tcpa_stream_pkg::PKT_REGCFG:
            if (cfg_data_i != tcpa_pkg::NFD) hdr_err = tcpa_stream_pkg::E_PAYLOAD;
          tcpa_stream_pkg::PKT_WRAPPER:
            if (cfg_data_i != tcpa_pkg::NWRAPW) hdr_err = tcpa_stream_pkg::E_PAYLOAD;
          tcpa_stream_pkg::PKT_GC:
            if ({24'd0, bus_q.index} >= tcpa_pkg::NGC) hdr_err = tcpa_stream_pkg::E_PAYLOAD;
          tcpa_stream_pkg::PKT_AG:
            if ({24'd0, bus_q.index} >= tcpa_pkg::NBANK) hdr_err = tcpa_stream_pkg::E_PAYLOAD;
          tcpa_stream_pkg::PKT_IODATA:
            if ({24'd0, bus_q.index} >= tcpa_pkg::NBANK || cfg_data_i == 32'd0)
              hdr_err = tcpa_stream_pkg::E_PAYLOAD;
          default:  // START
            if ({24'd0, bus_q.index} >= tcpa_pkg::NGC || cfg_data_i != 32'd0)
              hdr_err = tcpa_stream_pkg::E_PAYLOAD;
        endcase
        if (hdr_err == tcpa_stream_pkg::E_NONE && busy_hit) hdr_err = tcpa_stream_pkg::E_BUSY;
      end
    end
  end

  // Returns 1 when every select byte of WRAPPER payload word idx names a
  // source (0 or 1 + source < NSRC) and the bytes past the last sink are 0.
  function automatic logic wrap_word_ok(input logic [31:0] w, input logic [31:0] idx);
    logic ok;
    ok = 1'b1;
    for (int b = 0; b < tcpa_pkg::WSELS; b++) begin
      if (idx * tcpa_pkg::WSELS + 32'(b) < tcpa_pkg::NSINK) begin
        if ({24'd0, w[8*b +: 8]} > tcpa_pkg::NSRC) ok = 1'b0;
      end else if (w[8*b +: 8] != 8'd0) begin
        ok = 1'b0;
      end
    end
    wrap_word_ok = ok;
  endfunction

  // Returns 1 when the start delay d0 + r * dr + c * dc of every PE (r, c)
  // of a rows x cols region lies in [0, 2^31 - 1] (a linear function is
  // extreme at the corners). 64-bit two's complement: sums and products are
  // exact for these magnitudes, bit 63 is the sign.
  function automatic logic delays_ok(input logic [31:0] d0, input logic [31:0] dr,
                                     input logic [31:0] dc, input logic [15:0] rows,
                                     input logic [15:0] cols);
    logic [63:0] rterm, cterm, k;
    logic ok;
    rterm = {{32{dr[31]}}, dr} * {48'd0, rows - 16'd1};
    cterm = {{32{dc[31]}}, dc} * {48'd0, cols - 16'd1};
    ok = 1'b1;
    for (int i = 0; i < 4; i++) begin
      k = {{32{d0[31]}}, d0} + (i[0] ? rterm : 64'd0) + (i[1] ? cterm : 64'd0);
      if (k[63] || k > 64'h7FFF_FFFF) ok = 1'b0;
    end
    delays_ok = ok;
  endfunction

  // Returns p * b saturated at 2^32 (p <= 2^32, b < 2^31): the product of
  // the bounds so far, exact up to MAX_STEPS + 1.
  function automatic logic [32:0] steps_mul(input logic [32:0] p, input logic [31:0] b);
    logic [63:0] m;
    m = {31'd0, p} * {32'd0, b};
    steps_mul = (m > MAX_STEPS) ? 33'h1_0000_0000 : m[32:0];
  endfunction

  // payload parser: checks the word in field fld_q, says the next field;
  // its registers move only on an accepted payload word
  always_comb begin
    pay_err = tcpa_stream_pkg::E_NONE;
    nfld = fld_q;
    t_d = t_q;
    c_d = c_q;
    d_d = d_q;
    nd_d = nd_q;
    nt_d = nt_q;
    nc_d = nc_q;
    gst_d = gst_q;
    gd0_d = gd0_q;
    gdr_d = gdr_q;
    if (acc && st_q == S_PAY) begin
      case (fld_q)
        tcpa_pkg::F_DATA: begin
          if (bus_q.ptype == tcpa_stream_pkg::PKT_REGCFG &&
              (cfg_data_i == 32'd0 || cfg_data_i > tcpa_pkg::FD_DEPTH))
            pay_err = tcpa_stream_pkg::E_PAYLOAD;
          if (bus_q.ptype == tcpa_stream_pkg::PKT_WRAPPER && !wrap_word_ok(cfg_data_i, pidx_q))
            pay_err = tcpa_stream_pkg::E_PAYLOAD;
          if (bus_q.ptype == tcpa_stream_pkg::PKT_IODATA && pidx_q == 32'd0 &&
              cfg_data_i + pn_q - 32'd1 > tcpa_pkg::BANK_DEPTH)
            pay_err = tcpa_stream_pkg::E_PAYLOAD;
        end
        tcpa_pkg::F_II: begin
          if (cfg_data_i == 32'd0 || cfg_data_i[31]) pay_err = tcpa_stream_pkg::E_PAYLOAD;
          nfld = tcpa_pkg::F_NDIMS;
        end
        tcpa_pkg::F_MODE: begin
          if (cfg_data_i > 32'd2) pay_err = tcpa_stream_pkg::E_PAYLOAD;
          nfld = tcpa_pkg::F_NDIMS;
        end
        tcpa_pkg::F_NDIMS: begin
          if (cfg_data_i == 32'd0 || cfg_data_i > tcpa_pkg::NDIM) pay_err = tcpa_stream_pkg::E_PAYLOAD;
          nd_d = cfg_data_i;
          d_d = 8'd0;
          gst_d = 33'd1;
          nfld = (bus_q.ptype == tcpa_stream_pkg::PKT_GC) ? tcpa_pkg::F_BOUND : tcpa_pkg::F_PHASE;
        end
        tcpa_pkg::F_BOUND: begin
          if (cfg_data_i == 32'd0 || cfg_data_i[31]) pay_err = tcpa_stream_pkg::E_PAYLOAD;
          gst_d = steps_mul(gst_q, cfg_data_i);
          d_d = d_q + 8'd1;
          if ({24'd0, d_q} + 32'd1 >= nd_q) nfld = tcpa_pkg::F_EPILOG;
        end
        tcpa_pkg::F_EPILOG: begin
          if (cfg_data_i[31] || {31'd0, gst_q} + {32'd0, cfg_data_i} > MAX_STEPS)
            pay_err = tcpa_stream_pkg::E_PAYLOAD;
          nfld = tcpa_pkg::F_DELAY0;
        end
        tcpa_pkg::F_DELAY0: begin
          gd0_d = cfg_data_i;
          nfld = tcpa_pkg::F_DELAYR;
        end
        tcpa_pkg::F_DELAYR: begin
          gdr_d = cfg_data_i;
          nfld = tcpa_pkg::F_DELAYC;
        end
        tcpa_pkg::F_DELAYC: begin
          if (!delays_ok(gd0_q, gdr_q, cfg_data_i, bus_q.rows, bus_q.cols))
            pay_err = tcpa_stream_pkg::E_PAYLOAD;
          nfld = tcpa_pkg::F_NTERMS;
        end
        tcpa_pkg::F_NTERMS: begin
          if (cfg_data_i > tcpa_pkg::NTERM) pay_err = tcpa_stream_pkg::E_PAYLOAD;
          nt_d = cfg_data_i;
          t_d = 8'd0;
          nfld = (cfg_data_i == 32'd0) ? tcpa_pkg::F_END : tcpa_pkg::F_TSIG;
        end
        tcpa_pkg::F_TSIG: begin
          // bits 8..31: the term's PE range, any value (docs/stream.md)
          if ({24'd0, cfg_data_i[7:0]} >= tcpa_pkg::NSIG) pay_err = tcpa_stream_pkg::E_PAYLOAD;
          nfld = tcpa_pkg::F_TNCONS;
        end
        tcpa_pkg::F_TNCONS, tcpa_pkg::F_NCONS: begin
          if (cfg_data_i > tcpa_pkg::NCONS) pay_err = tcpa_stream_pkg::E_PAYLOAD;
          nc_d = cfg_data_i;
          c_d = 8'd0;
          if (cfg_data_i != 32'd0) nfld = tcpa_pkg::F_CKIND;
          else if (fld_q == tcpa_pkg::F_NCONS || {24'd0, t_q} + 32'd1 >= nt_q) nfld = tcpa_pkg::F_END;
          else begin
            nfld = tcpa_pkg::F_TSIG;
            t_d = t_q + 8'd1;
          end
        end
        tcpa_pkg::F_CKIND: begin
          if (cfg_data_i > 32'd1) pay_err = tcpa_stream_pkg::E_PAYLOAD;
          d_d = 8'd0;
          nfld = tcpa_pkg::F_CCOEF;
        end
        tcpa_pkg::F_CCOEF: begin
          d_d = d_q + 8'd1;
          if ({24'd0, d_q} + 32'd1 >= nd_q) nfld = tcpa_pkg::F_CKONST;
        end
        tcpa_pkg::F_CKONST: begin
          c_d = c_q + 8'd1;
          if ({24'd0, c_q} + 32'd1 < nc_q) nfld = tcpa_pkg::F_CKIND;
          else if (bus_q.ptype == tcpa_stream_pkg::PKT_AG || {24'd0, t_q} + 32'd1 >= nt_q) nfld = tcpa_pkg::F_END;
          else begin
            nfld = tcpa_pkg::F_TSIG;
            t_d = t_q + 8'd1;
          end
        end
        tcpa_pkg::F_PHASE: begin
          if (cfg_data_i[31]) pay_err = tcpa_stream_pkg::E_PAYLOAD;
          nfld = tcpa_pkg::F_BASE;
        end
        tcpa_pkg::F_BASE: nfld = tcpa_pkg::F_ROWCOEF;
        tcpa_pkg::F_ROWCOEF: nfld = tcpa_pkg::F_COLCOEF;
        tcpa_pkg::F_COLCOEF: begin
          d_d = 8'd0;
          nfld = tcpa_pkg::F_STRIDE;
        end
        tcpa_pkg::F_STRIDE: begin
          d_d = d_q + 8'd1;
          if ({24'd0, d_q} + 32'd1 >= nd_q) nfld = tcpa_pkg::F_NCONS;
        end
        default: pay_err = tcpa_stream_pkg::E_PAYLOAD;  // F_END: a word too many
      endcase
      // the packet's last word must end the parse
      if (pidx_q + 32'd1 == pn_q && nfld != tcpa_pkg::F_END && fld_q != tcpa_pkg::F_DATA)
        pay_err = tcpa_stream_pkg::E_PAYLOAD;
    end
  end

  assign fin_crc = crc_word(crc_q, cfg_data_i) ^ 32'hFFFFFFFF;

  always_comb begin
    st_d = st_q;
    wcnt_d = wcnt_q;
    len_d = len_q;
    crc_exp_d = crc_exp_q;
    crc_d = crc_q;
    pos_d = pos_q;
    perr_d = perr_q;
    started_d = started_q;
    lbusy_d = lbusy_q;
    pn_d = pn_q;
    pidx_d = pidx_q;
    fld_d = fld_q;
    sgc_d = sgc_q;
    srow0_d = srow0_q;
    scol0_d = scol0_q;
    srows_d = srows_q;
    scols_d = scols_q;
    start_d = 1'b0;
    err_d = err_q;
    bus_d = bus_q;
    bus_d.we = 1'b0;
    bus_d.hdr = 1'b0;
    if (acc) begin
      case (st_q)
        S_HDR: begin
          wcnt_d = wcnt_q + 3'd1;
          case (wcnt_q)
            3'd0: begin
              // a stream begins: its CRC, position and START afresh, the
              // regions it must not touch
              lbusy_d = busy_i;
              crc_d = 32'hFFFFFFFF;
              pos_d = '0;
              started_d = 1'b0;
              if (cfg_data_i != tcpa_stream_pkg::STREAM_MAGIC) err_d = tcpa_stream_pkg::E_MAGIC;
            end
            3'd1: if (cfg_data_i != tcpa_stream_pkg::STREAM_VERSION) err_d = tcpa_stream_pkg::E_VERSION;
            3'd2: if (cfg_data_i != FP[31:0]) err_d = tcpa_stream_pkg::E_FINGERPRINT;
            // mutant 37: skipped check: the fingerprint's high word is not compared
            3'd3: if (`TCPA_MUTANT_EXPR(37, 1'b0, cfg_data_i != FP[63:32])) err_d = tcpa_stream_pkg::E_FINGERPRINT;
            3'd4: len_d = cfg_data_i;
            default: begin
              crc_exp_d = cfg_data_i;
              wcnt_d = 3'd0;
              st_d = S_PKT;
            end
          endcase
          if (err_d != tcpa_stream_pkg::E_NONE) st_d = S_ERR;
          else if (cfg_last_i) begin
            st_d = S_ERR;
            err_d = (wcnt_q == 3'd5) ? ((len_q == 32'd0) ? tcpa_stream_pkg::E_ORDER : tcpa_stream_pkg::E_LENGTH)
                                     : tcpa_stream_pkg::E_SHORT;
          end
        end
        S_PKT, S_PAY: begin
          crc_d = crc_word(crc_q, cfg_data_i);
          pos_d = pos_q + 32'd1;
          if (st_q == S_PKT) begin
            wcnt_d = wcnt_q + 3'd1;
            case (wcnt_q)
              3'd0: begin
                bus_d.ptype = ptype_word.kind;
                bus_d.index = cfg_data_i[15:8];
                bus_d.side = cfg_data_i[17:16];
              end
              3'd1: begin
                bus_d.row0 = cfg_data_i[15:0];
                bus_d.col0 = cfg_data_i[31:16];
              end
              3'd2: begin
                bus_d.rows = cfg_data_i[15:0];
                bus_d.cols = cfg_data_i[31:16];
              end
              default: begin
                wcnt_d = 3'd0;
                pn_d = cfg_data_i;
                pidx_d = 32'd0;
                fld_d = (bus_q.ptype == tcpa_stream_pkg::PKT_GC) ? tcpa_pkg::F_II :
                        (bus_q.ptype == tcpa_stream_pkg::PKT_AG) ? tcpa_pkg::F_MODE : tcpa_pkg::F_DATA;
                st_d = (cfg_data_i == 32'd0) ? S_PKT : S_PAY;
                if (perr_q == tcpa_stream_pkg::E_NONE && hdr_err == tcpa_stream_pkg::E_NONE) begin
                  bus_d.hdr = 1'b1;
                  bus_d.data = cfg_data_i;
                  if (bus_q.ptype == tcpa_stream_pkg::PKT_START) begin
                    started_d = 1'b1;
                    sgc_d = bus_q.index[1:0];
                    srow0_d = bus_q.row0;
                    scol0_d = bus_q.col0;
                    srows_d = bus_q.rows;
                    scols_d = bus_q.cols;
                  end
                end
              end
            endcase
            if (perr_q == tcpa_stream_pkg::E_NONE) perr_d = hdr_err;
          end else begin
            pidx_d = pidx_q + 32'd1;
            fld_d = nfld;
            if (pidx_q + 32'd1 == pn_q) st_d = S_PKT;
            if (perr_q == tcpa_stream_pkg::E_NONE) begin
              perr_d = pay_err;
              bus_d.we = (pay_err == tcpa_stream_pkg::E_NONE);
              bus_d.field = fld_q;
              bus_d.t = t_q;
              bus_d.c = c_q;
              bus_d.d = d_q;
              bus_d.addr = pidx_q;
              bus_d.data = cfg_data_i;
            end
          end
          if (cfg_last_i || pos_q + 32'd1 == len_q) begin
            if (!(cfg_last_i && pos_q + 32'd1 == len_q)) err_d = tcpa_stream_pkg::E_LENGTH;
            // mutant 36: skipped check: the CRC is not compared
            else if (`TCPA_MUTANT_EXPR(36, 1'b0, fin_crc != crc_exp_q)) err_d = tcpa_stream_pkg::E_CRC;
            else if (perr_d != tcpa_stream_pkg::E_NONE) err_d = perr_d;
            else if (st_d != S_PKT || wcnt_d != 3'd0) err_d = tcpa_stream_pkg::E_TRUNCATED;
            else if (!started_d) err_d = tcpa_stream_pkg::E_ORDER;
            st_d = S_ERR;
            if (err_d == tcpa_stream_pkg::E_NONE) begin
              // started: wait for the next stream's header
              st_d = S_HDR;
              start_d = 1'b1;
              wcnt_d = 3'd0;
            end
          end
        end
        default: ;  // S_ERR: words are ignored
      endcase
      // mutant 8: the first data word of every IODATA packet is skipped
      // (checked and counted, never written to the bank)
      `TCPA_MUTATE(8, if (bus_d.we && bus_q.ptype == tcpa_stream_pkg::PKT_IODATA && bus_d.addr == 32'd1) bus_d.we = 1'b0;)
      // mutant 21: off by one: the START rectangle loses its last column
      `TCPA_MUTATE(21, if (started_d && !started_q) scols_d = bus_q.cols - 16'd1;)
    end
  end

  // every register below changes only on an accepted word, but for the
  // bus's write and header flags, which fall back the cycle after one:
  // clocked only then (docs/rtl.md "Clock gating"), so that in the run,
  // and between the words of a stream with gaps, the bus keeps its clock
  // still and no unit's decoding of it is evaluated; and in reset
  logic lclk;
  tcpa_clock_gate u_word_cg (
    .clk_i (clk_i),
    .en_i  (!rst_ni || acc || bus_q.we || bus_q.hdr),
    .clk_o (lclk)
  );

  always_ff @(posedge lclk or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= S_HDR;
      wcnt_q <= '0;
      len_q <= '0;
      crc_exp_q <= '0;
      crc_q <= 32'hFFFFFFFF;
      pos_q <= '0;
      perr_q <= tcpa_stream_pkg::E_NONE;
      started_q <= 1'b0;
      lbusy_q <= '0;
      pn_q <= '0;
      pidx_q <= '0;
      fld_q <= '0;
      t_q <= '0;
      c_q <= '0;
      d_q <= '0;
      nd_q <= '0;
      nt_q <= '0;
      nc_q <= '0;
      gst_q <= 33'd1;
      gd0_q <= '0;
      gdr_q <= '0;
      err_q <= tcpa_stream_pkg::E_NONE;
      bus_q <= '0;
    end else begin
      st_q <= st_d;
      wcnt_q <= wcnt_d;
      len_q <= len_d;
      crc_exp_q <= crc_exp_d;
      crc_q <= crc_d;
      pos_q <= pos_d;
      perr_q <= perr_d;
      started_q <= started_d;
      lbusy_q <= lbusy_d;
      pn_q <= pn_d;
      pidx_q <= pidx_d;
      fld_q <= fld_d;
      t_q <= t_d;
      c_q <= c_d;
      d_q <= d_d;
      nd_q <= nd_d;
      nt_q <= nt_d;
      nc_q <= nc_d;
      gst_q <= gst_d;
      gd0_q <= gd0_d;
      gdr_q <= gdr_d;
      err_q <= err_d;
      bus_q <= bus_d;
    end
  end

  // the start registers change once per stream (a START packet, then the
  // start pulse): clocked only when one of them changes, so that the
  // array's logic that reads them is not evaluated in every loading cycle
  // (docs/rtl.md "Clock gating"); and in reset, which Verilator applies at
  // the clock edges while rst_ni is low
  logic sclk, sen;
  assign sen = !rst_ni || {sgc_d, srow0_d, scol0_d, srows_d, scols_d, start_d} !=
               {sgc_q, srow0_q, scol0_q, srows_q, scols_q, start_q};
  tcpa_clock_gate u_start_cg (
    .clk_i (clk_i),
    .en_i  (sen),
    .clk_o (sclk)
  );

  always_ff @(posedge sclk or negedge rst_ni) begin
    if (!rst_ni) begin
      sgc_q <= '0;
      srow0_q <= '0;
      scol0_q <= '0;
      srows_q <= '0;
      scols_q <= '0;
      start_q <= 1'b0;
    end else begin
      sgc_q <= sgc_d;
      srow0_q <= srow0_d;
      scol0_q <= scol0_d;
      srows_q <= srows_d;
      scols_q <= scols_d;
      start_q <= start_d;
    end
  end

  assign bus_o = bus_q;
  // the bus's next word, for the groups' copies of it (tcpa_bus_tap)
  assign bus_next_o = bus_d;
  assign start_o = start_q;
  assign start_next_o = start_d;
  assign start_next_gc_o = sgc_d;
  assign start_gc_o = sgc_q;
  assign start_row0_o = srow0_q;
  assign start_col0_o = scol0_q;
  assign start_rows_o = srows_q;
  assign start_cols_o = scols_q;
  assign err_o = (err_q != tcpa_stream_pkg::E_NONE);
  assign err_code_o = err_q;
  assign idle_o = (st_q == S_HDR) && (wcnt_q == 3'd0);

  // invariants (docs/rtl.md "Assertions"): the state is one of the five;
  // word counters stay inside the header, packet header and payload; while
  // no packet error is seen, the parser's counts are in the ranges the
  // loader checks (so every bus word has legal indices); S_ERR holds
  // exactly when an error code is set; start comes with no error, between
  // streams; the bus carries a header or a payload word, never both
  `TCPA_ASSERT(LoaderStateLegal, st_q inside {S_HDR, S_PKT, S_PAY, S_ERR}, clk_i, rst_ni)
  `TCPA_ASSERT_IF(LoaderHdrWordInRange, wcnt_q <= 3'd5, st_q == S_HDR, clk_i, rst_ni)
  `TCPA_ASSERT_IF(LoaderPktWordInRange, wcnt_q <= 3'd3, st_q == S_PKT, clk_i, rst_ni)
  `TCPA_ASSERT_IF(LoaderPayIndexInRange, pidx_q < pn_q, st_q == S_PAY, clk_i, rst_ni)
  `TCPA_ASSERT_IF(LoaderCountsInRange,
                  nd_q <= tcpa_pkg::NDIM && {24'd0, d_q} <= nd_q &&
                  nt_q <= tcpa_pkg::NTERM && {24'd0, t_q} < tcpa_pkg::NTERM &&
                  nc_q <= tcpa_pkg::NCONS && {24'd0, c_q} <= nc_q,
                  perr_q == tcpa_stream_pkg::E_NONE, clk_i, rst_ni)
  `TCPA_ASSERT(LoaderErrorIffRejected, (st_q == S_ERR) == (err_q != tcpa_stream_pkg::E_NONE), clk_i, rst_ni)
  `TCPA_ASSERT_IF(LoaderStartBetweenStreams, idle_o && err_q == tcpa_stream_pkg::E_NONE, start_q, clk_i, rst_ni)
  `TCPA_ASSERT(LoaderBusOneKind, !(bus_q.we && bus_q.hdr), clk_i, rst_ni)
endmodule
