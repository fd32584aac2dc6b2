// tcpa_fd: one feedback register (timing.md section 4): a ring of `depth`
// words (REGCFG, default 1, at most pe.fd_depth) with a read pointer R and a
// write pointer W. A read cycle returns ring[R] and advances R; a write
// stores ring[W] and advances W; both wrap at the depth. The ring is a
// memory without reset; a valid bit per entry (reset to 0) makes unwritten
// entries read as the reset value 0.
`include "rtl/tcpa_assert.svh"
`include "rtl/tcpa_mutation.svh"

module tcpa_fd (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        clr_i,     // restart: pointers 0, ring reads 0
  input  logic        depth_we_i,
  input  logic [31:0] depth_i,
  input  logic        rd_i,
  input  logic        we_i,
  input  logic [31:0] wdata_i,
  output logic [31:0] head_o    // ring[R]: the value the next read returns
);
  localparam int unsigned D  = tcpa_pkg::FD_DEPTH;
  localparam int unsigned PW = tcpa_pkg::FDP_W;

  logic [31:0]   ring [D];
  logic [D-1:0]  valid_q, valid_d;
  logic [PW-1:0] r_q, r_d, w_q, w_d;
  logic [31:0]   depth_q, depth_d;
  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  // each pointer advanced by one in a ring of `depth` entries (no function:
  // the simulator (Verilator) names an inlined function's temporaries per instance, which
  // keeps it from sharing the PE's code between the PEs, docs/testing.md
  // "Simulator speed")
  logic [PW-1:0] r_next, w_next;
  assign r_next = ({{(32-PW){1'b0}}, r_q} + 32'd1 >= depth_q) ? '0 : r_q + 1'b1;
  assign w_next = ({{(32-PW){1'b0}}, w_q} + 32'd1 >= depth_q) ? '0 : w_q + 1'b1;

  always_comb begin
    depth_d = depth_q;
    r_d = r_q;
    w_d = w_q;
    valid_d = valid_q;
    if (depth_we_i) depth_d = depth_i;
    if (rd_i) r_d = r_next;
    if (we_i) begin
      w_d = w_next;
      valid_d[w_q] = 1'b1;
    end
    // mutant 7: the read pointer does not advance
    `TCPA_MUTATE(7, r_d = r_q;)
    // mutant 32: dropped enable: a write leaves its entry's valid bit
    // (the written word reads as 0 until the entry was valid before)
    `TCPA_MUTATE(32, valid_d = valid_q;)
    // a restart, and a new depth (a stream's REGCFG or configuration
    // clear, docs/timing.md section 11, while the PE does not run: a
    // pointer of the old ring may lie beyond the new depth), empty the ring
    if (clr_i || depth_we_i) begin
      r_d = '0;
      w_d = '0;
      valid_d = '0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (we_i) ring[w_q] <= wdata_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      depth_q <= 32'd1;
      r_q <= '0;
      w_q <= '0;
      valid_q <= '0;
    end else begin
      depth_q <= depth_d;
      r_q <= r_d;
      w_q <= w_d;
      valid_q <= valid_d;
    end
  end

  assign head_o = valid_q[r_q] ? ring[r_q] : 32'd0;

  // invariants (docs/rtl.md "Assertions"): the depth is in 1..fd_depth
  // (REGCFG, checked by the loader) and both pointers stay below it
  `TCPA_ASSERT(FdDepthInRange, depth_q >= 32'd1 && depth_q <= D, clk_i, rst_ni)
  `TCPA_ASSERT(FdPtrInRange, {{(32-PW){1'b0}}, r_q} < depth_q && {{(32-PW){1'b0}}, w_q} < depth_q,
               clk_i, rst_ni)
endmodule
