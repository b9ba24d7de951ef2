// lfc_pfc_rx - PFC reception of one egress port (docs/SPEC.md §6.7).
//
// Per priority a pause_timer in cycles: a PFC frame received in cycle t with pfc_en[c] = 1
// loads pfc_time[c] * k (one quantum is k cycles of this port); otherwise the timer counts down
// to 0. Queue (p, c) is paused while pause_timer > 0 in S(t). Bits of pfc_en at or above Classes
// are ignored.

`default_nettype none
`timescale 1ns / 1ps

module lfc_pfc_rx #(
  parameter integer Classes  = 2,  // 1..8
  parameter integer SpeedDiv = 1   // k, 1..16
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,

  input  wire                  frame_i,     // step D: a PFC frame is received (PFC mode)
  input  wire [7:0]            en_i,
  input  wire [127:0]          time_i,

  output wire [Classes-1:0]    paused_o,    // pause_timer > 0 in S(t)
  output reg  [Classes-1:0]    pause_rx_o,  // priority received with time > 0 (for §6.8)
  output wire [Classes*21-1:0] timer_o
);

  localparam [4:0] K = SpeedDiv[4:0];

  reg [Classes*21-1:0] timer_d, timer_q;

  assign timer_o = timer_q;

  integer c;

  always @* begin
    timer_d    = timer_q;
    pause_rx_o = {Classes{1'b0}};
    for (c = 0; c < Classes; c = c + 1) begin
      if (frame_i && en_i[c]) begin
        timer_d[c*21 +: 21] = {5'd0, time_i[c*16 +: 16]} * {16'd0, K};
        pause_rx_o[c]       = (time_i[c*16 +: 16] != 16'd0);
      end else if (timer_q[c*21 +: 21] != 21'd0) begin
        timer_d[c*21 +: 21] = timer_q[c*21 +: 21] - 21'd1;
      end
    end
  end

  genvar g;
  generate
    for (g = 0; g < Classes; g = g + 1) begin : g_paused
      assign paused_o[g] = (timer_q[g*21 +: 21] != 21'd0);
    end
  endgenerate

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      timer_q <= {(Classes * 21){1'b0}};
    end else begin
      timer_q <= timer_d;
    end
  end

endmodule

`default_nettype wire
