// tcpa_fifo: an input FIFO of pe.fifo_depth words (timing.md sections 4, 5).
// The head is readable while not empty; pop_i removes it at the end of the
// cycle (nothing when empty: the PE reports underflow), then push_i appends.
// A push finding the FIFO full after the pop is dropped (drop_o: overflow).
module tcpa_fifo (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  input  logic                           pop_i,
  input  logic                           push_i,
  input  logic [31:0]                    push_data_i,
  output logic [31:0]                    head_o,
  output logic                           empty_o,
  output logic                           drop_o
);
  localparam int unsigned D  = tcpa_pkg::FIFO_DEPTH;
  localparam int unsigned CW = tcpa_pkg::FIFO_W;

  logic [D*32-1:0] buf_q, buf_d;
  logic [CW-1:0]   cnt_q, cnt_d;
  logic [CW-1:0]   after;
`ifdef TCPA_MUTANTS
  // fault injection (docs/rtl.md "Fault injection"): +mutant=N selects one
  // mutation of the whole design; 0 (no plusarg) is the correct RTL
  int unsigned mutant;
  initial begin
    if (!$value$plusargs("mutant=%d", mutant)) mutant = 0;
  end
`endif

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
`ifdef TCPA_MUTANTS
    // mutant 3: pushes are dropped (the count does not grow)
    if (mutant == 32'd3 && push_i) cnt_d = after;
    // mutant 17: a pop counts but does not shift the data (head stays)
    if (mutant == 32'd17 && pop_i && cnt_q != '0) buf_d = buf_q;
`endif
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
endmodule
