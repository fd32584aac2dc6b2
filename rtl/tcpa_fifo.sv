// tcpa_fifo: an input FIFO of pe.fifo_depth words (timing.md sections 4, 5).
// The head is readable while not empty; pop_i removes it at the end of the
// cycle (nothing when empty: the PE reports underflow), then push_i appends.
// A push finding the FIFO full after the pop is dropped (drop_o: overflow).
`include "rtl/tcpa_assert.svh"
`include "rtl/tcpa_mutation.svh"

module tcpa_fifo (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  input  logic                           clr_i,   // restart: empty after this cycle
  input  logic                           pop_i,
  input  logic                           push_i,
  input  logic [31:0]                    push_data_i,
  output logic [31:0]                    head_o,
  output logic                           empty_o,
  output logic                           drop_o,
  output logic [tcpa_pkg::FIFO_W-1:0]    cnt_o   // words after the cycle (trace)
);
  localparam int unsigned D  = tcpa_pkg::FIFO_DEPTH;
  localparam int unsigned CW = tcpa_pkg::FIFO_W;

  logic [D*32-1:0] buf_q, buf_d;
  logic [CW-1:0]   cnt_q, cnt_d;
  logic [CW-1:0]   after;
  // fault injection (docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh)
  `TCPA_MUTANT_DECL

  always_comb begin
    buf_d = buf_q;
    cnt_d = cnt_q;
    drop_o = 1'b0;
    after = cnt_q;
    if (pop_i && cnt_q != '0) begin
      buf_d = buf_q >> 32;
      after = cnt_q - 1'b1;
    end
    cnt_d = after;
    if (push_i) begin
      if ({{(32-CW){1'b0}}, after} >= D) begin
        drop_o = 1'b1;
      end else begin
        buf_d[({{(32-CW){1'b0}}, after} % D)*32 +: 32] = push_data_i;
        cnt_d = after + 1'b1;
      end
    end
    // mutant 3: pushes are dropped (the count does not grow)
    `TCPA_MUTATE(3, if (push_i) cnt_d = after;)
    // mutant 17: a pop counts but does not shift the data (head stays)
    `TCPA_MUTATE(17, if (pop_i && cnt_q != '0) buf_d = buf_q;)
    // mutant 31: depth off by one: overflow detected one word early (a
    // push finding D - 1 words is dropped)
    `TCPA_MUTATE(31, if (push_i && {{(32-CW){1'b0}}, after} + 32'd1 == D) begin
                       drop_o = 1'b1;
                       buf_d = (pop_i && cnt_q != '0) ? buf_q >> 32 : buf_q;
                       cnt_d = after;
                     end)
    // the trace's count is the cycle's own; a restart empties the FIFO at
    // its end, seen from the next cycle on (docs/timing.md section 11)
    cnt_o = cnt_d;
    if (clr_i) begin
      buf_d = '0;
      cnt_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      buf_q <= '0;
      cnt_q <= '0;
    end else begin
      buf_q <= buf_d;
      cnt_q <= cnt_d;
    end
  end

  assign empty_o = (cnt_q == '0);
  assign head_o = empty_o ? 32'd0 : buf_q[31:0];

  // invariants (docs/rtl.md "Assertions"): the occupancy stays in 0..D; a
  // pop of an empty FIFO (underflow, reported by the PE) and a push that
  // finds it full (overflow, drop_o) are the documented fault paths and
  // change nothing; every other pop and push moves the count by one
  `TCPA_ASSERT(FifoCntInRange, {{(32-CW){1'b0}}, cnt_q} <= D, clk_i, rst_ni)
  `TCPA_ASSERT_IF(FifoDropOnlyWhenFull, push_i && {{(32-CW){1'b0}}, after} == D, drop_o, clk_i, rst_ni)
  `TCPA_ASSERT_IF(FifoCntTracksPushPop,
                  cnt_d == cnt_q - CW'(pop_i && !empty_o) + CW'(push_i && !drop_o), !clr_i, clk_i, rst_ni)
endmodule
