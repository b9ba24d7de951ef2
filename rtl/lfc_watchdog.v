// lfc_watchdog - PFC watchdog of one egress port's queues (docs/SPEC.md §6.8; SONiC pfcwd).
//
// Per queue (p, c), step H from S(t): in the normal state wd_cnt counts consecutive paused
// cycles (saturating at wd_detect) and the queue trips into the storm state when the count
// reaches wd_detect; in the storm state wd_rcnt counts cycles without a received pause
// (pfc_en[c] with time > 0) and the queue is restored when it reaches wd_restore. While in the
// storm state the queue ignores its pause; with wd_action = drop the top also discards its head
// every cycle and drops arriving packets for it (§6.4).

`default_nettype none
`timescale 1ns / 1ps

module lfc_watchdog #(
  parameter integer Classes   = 2,      // 1..8
  parameter integer WdDetect  = 65536,  // 1..2^20-1
  parameter integer WdRestore = 65536   // 1..2^20-1
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,

  input  wire [Classes-1:0]    paused_i,    // pause_timer > 0 in S(t) (lfc_pfc_rx)
  input  wire [Classes-1:0]    pause_rx_i,  // a pause with time > 0 is received in this cycle

  output wire [Classes-1:0]    storm_o,     // wd_storm in S(t)
  output reg  [Classes-1:0]    trip_o,      // event wd_trip
  output reg  [Classes-1:0]    restore_o,   // event wd_restore
  output wire [Classes*20-1:0] cnt_o,
  output wire [Classes*20-1:0] rcnt_o
);

  localparam [20:0] DETECT  = WdDetect[20:0];
  localparam [20:0] RESTORE = WdRestore[20:0];

  reg [Classes-1:0]    storm_d, storm_q;
  reg [Classes*20-1:0] cnt_d, cnt_q;
  reg [Classes*20-1:0] rcnt_d, rcnt_q;

  assign storm_o = storm_q;
  assign cnt_o   = cnt_q;
  assign rcnt_o  = rcnt_q;

  integer c;

  reg [20:0] cnt_inc;
  reg [20:0] rcnt_inc;

  always @* begin
    storm_d   = storm_q;
    cnt_d     = cnt_q;
    rcnt_d    = rcnt_q;
    trip_o    = {Classes{1'b0}};
    restore_o = {Classes{1'b0}};
    for (c = 0; c < Classes; c = c + 1) begin
      cnt_inc  = {1'b0, cnt_q[c*20 +: 20]} + 21'd1;
      rcnt_inc = {1'b0, rcnt_q[c*20 +: 20]} + 21'd1;
      if (!storm_q[c]) begin
        if (paused_i[c]) begin
          cnt_d[c*20 +: 20] = (cnt_inc < DETECT) ? cnt_inc[19:0] : DETECT[19:0];
          if (cnt_inc >= DETECT) begin
            storm_d[c]             = 1'b1;
            rcnt_d[c*20 +: 20]     = 20'd0;
            trip_o[c]              = 1'b1;
          end
        end else begin
          cnt_d[c*20 +: 20] = 20'd0;
        end
      end else begin
        if (pause_rx_i[c]) begin
          rcnt_d[c*20 +: 20] = 20'd0;
        end else begin
          rcnt_d[c*20 +: 20] = (rcnt_inc < RESTORE) ? rcnt_inc[19:0] : RESTORE[19:0];
          if (rcnt_inc >= RESTORE) begin
            storm_d[c]        = 1'b0;
            cnt_d[c*20 +: 20] = 20'd0;
            restore_o[c]      = 1'b1;
          end
        end
      end
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      storm_q <= {Classes{1'b0}};
      cnt_q   <= {(Classes * 20){1'b0}};
      rcnt_q  <= {(Classes * 20){1'b0}};
    end else begin
      storm_q <= storm_d;
      cnt_q   <= cnt_d;
      rcnt_q  <= rcnt_d;
    end
  end

endmodule

`default_nettype wire
