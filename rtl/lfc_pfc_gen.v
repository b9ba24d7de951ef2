// lfc_pfc_gen - PFC frame generation of one ingress port's PGs (docs/SPEC.md §6.5, §6.6).
//
// Step G, per lossless PG, from the buffer counters and threshold of S(t): xoff turns on when
// pg_hdrm > 0 or (pg_shared > 0 and pg_shared >= T), and off again when pg_hdrm = 0 and
// (pg_shared = 0 or pg_shared + xon_offset <= T); with xon_offset >= 1 the two conditions never
// hold together. Each change makes the priority pending (pfc_pend). A frame is pending when
// a priority is pending or an xoff PG's refresh_timer has run out; it carries those priorities
// in pfc_en, and pfc_time[c] = pause_quanta for every xoff priority, 0 (XON) for the others.
// Step B, when the frame is sent: the carried priorities stop pending (unless step G sets them
// again in the same cycle) and those in xoff reload refresh_timer with refresh_cycles - 1.

`default_nettype none
`timescale 1ns / 1ps

module lfc_pfc_gen #(
  parameter integer Classes       = 2,       // 1..8
  parameter [7:0]   LosslessMask  = 8'h03,
  parameter integer XonOffset     = 8,       // 1..65535
  parameter integer PauseQuanta   = 65535,   // 1..65535
  parameter integer RefreshCycles = 32768    // 1..65535
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,

  input  wire [Classes*20-1:0] pg_shared_i,  // this port's PGs (lfc_buffer), S(t)
  input  wire [Classes*16-1:0] pg_hdrm_i,
  input  wire [19:0]           th_i,         // T of §6.2 in S(t)
  input  wire                  sent_i,       // step B: the pending frame is sent in this cycle

  output wire                  pend_o,
  output reg  [7:0]            en_o,
  output reg  [127:0]          time_o,

  output reg  [Classes-1:0]    xoff_ev_o,    // PG turns xoff in this cycle
  output reg  [Classes-1:0]    xon_ev_o,     // PG turns xon in this cycle

  output wire [Classes-1:0]    xoff_o,
  output wire [Classes-1:0]    pfc_pend_o,
  output wire [Classes*16-1:0] refresh_timer_o
);

  localparam integer RefreshM1  = RefreshCycles - 1;
  localparam [15:0]  QUANTA     = PauseQuanta[15:0];
  localparam [15:0]  REFRESH_M1 = RefreshM1[15:0];
  localparam [20:0]  XON_OFFSET = XonOffset[20:0];

  reg [Classes-1:0]    xoff_d, xoff_q;
  reg [Classes-1:0]    pfc_pend_d, pfc_pend_q;
  reg [Classes*16-1:0] refresh_d, refresh_q;

  assign xoff_o          = xoff_q;
  assign pfc_pend_o      = pfc_pend_q;
  assign refresh_timer_o = refresh_q;
  assign pend_o          = (en_o != 8'd0);

  integer c;

  reg [19:0] sh;
  reg [15:0] hd;
  reg        xoff_cond;
  reg        xon_cond;

  // Step A: the frame.
  always @* begin
    en_o   = 8'd0;
    time_o = 128'd0;
    for (c = 0; c < Classes; c = c + 1) begin
      en_o[c] = pfc_pend_q[c] || (xoff_q[c] && (refresh_q[c*16 +: 16] == 16'd0));
      if (xoff_q[c]) begin
        time_o[c*16 +: 16] = QUANTA;
      end
    end
  end

  // Steps G and B.
  always @* begin
    xoff_d     = xoff_q;
    pfc_pend_d = pfc_pend_q;
    refresh_d  = refresh_q;
    xoff_ev_o  = {Classes{1'b0}};
    xon_ev_o   = {Classes{1'b0}};
    for (c = 0; c < Classes; c = c + 1) begin
      // Step B first, so that a transition of step G wins.
      if (sent_i && en_o[c]) begin
        pfc_pend_d[c] = 1'b0;
      end
      if (sent_i && en_o[c] && xoff_q[c]) begin
        refresh_d[c*16 +: 16] = REFRESH_M1;
      end else if (refresh_q[c*16 +: 16] != 16'd0) begin
        refresh_d[c*16 +: 16] = refresh_q[c*16 +: 16] - 16'd1;
      end
      // Step G.
      if (LosslessMask[c]) begin
        sh        = pg_shared_i[c*20 +: 20];
        hd        = pg_hdrm_i[c*16 +: 16];
        xoff_cond = (hd != 16'd0) || ((sh != 20'd0) && (sh >= th_i));
        xon_cond  = (hd == 16'd0) &&
                    ((sh == 20'd0) || ({1'b0, sh} + XON_OFFSET <= {1'b0, th_i}));
        if (xoff_q[c] ? xon_cond : xoff_cond) begin
          xoff_d[c]     = !xoff_q[c];
          pfc_pend_d[c] = 1'b1;
          xoff_ev_o[c]  = !xoff_q[c];
          xon_ev_o[c]   = xoff_q[c];
        end
      end
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      xoff_q     <= {Classes{1'b0}};
      pfc_pend_q <= {Classes{1'b0}};
      refresh_q  <= {(Classes * 16){1'b0}};
    end else begin
      xoff_q     <= xoff_d;
      pfc_pend_q <= pfc_pend_d;
      refresh_q  <= refresh_d;
    end
  end

endmodule

`default_nettype wire
