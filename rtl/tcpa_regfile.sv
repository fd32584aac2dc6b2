// tcpa_regfile: the general-purpose registers rd0.. of a PE. Every FU has a
// write port (its write-back); all writes of a cycle take effect at its end,
// and when two FUs write the same register the higher FU number wins
// (timing.md section 3; the conflict itself is traced by the harness from
// the wr events). All registers are readable combinationally.
module tcpa_regfile (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic [tcpa_pkg::NFU-1:0]        we_i,
  input  logic [tcpa_pkg::NFU*5-1:0]      widx_i,
  input  logic [tcpa_pkg::NFU*32-1:0]     wdata_i,
  output logic [tcpa_pkg::NRD*32-1:0]     rd_o
);
  localparam int unsigned NRD = tcpa_pkg::NRD;
  localparam int unsigned NFU = tcpa_pkg::NFU;

  logic [NRD*32-1:0] rd_q, rd_d;

  always_comb begin
    rd_d = rd_q;
    for (int unsigned f = 0; f < NFU; f++) begin
      if (we_i[f] && {27'd0, widx_i[f*5 +: 5]} < NRD)
        rd_d[({27'd0, widx_i[f*5 +: 5]} % NRD)*32 +: 32] = wdata_i[f*32 +: 32];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rd_q <= '0;
    else rd_q <= rd_d;
  end

  assign rd_o = rd_q;
endmodule
