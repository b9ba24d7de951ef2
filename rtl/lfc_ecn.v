// lfc_ecn - ECN marking by WRED and the LFSR of one egress port (docs/SPEC.md §9).
//
// When a packet starts on queue (p, c) (step A) with c in EcnMask and an ECN-capable codepoint
// (01, 10), q = qlen of (p, c) in S(t) decides: q <= kmin no mark; q > kmax mark; otherwise a
// draw r (16 LFSR steps, the low 16 bits of the new value) marks iff r * (kmax - kmin) <
// pmax * (q - kmin). A mark sets ecn = 11 (CE) in every block of the packet. The LFSR is the
// right-shifting Galois form of x^32 + x^22 + x^2 + x + 1, reset to seed ^ (0x9E3779B9 * (p + 1))
// (1 if that is 0), and advances only on draws (step B).

`default_nettype none
`timescale 1ns / 1ps

`include "lfc_defs.vh"

module lfc_ecn #(
  parameter integer Port    = 0,
  parameter [31:0]  Seed    = 32'd1,
  parameter [7:0]   EcnMask = 8'h00,
  parameter integer Kmin    = 16,    // 0 <= kmin < kmax <= 2^20-1
  parameter integer Kmax    = 64,
  parameter integer Pmax    = 655    // 0..65536, units of 2^-16
) (
  input  wire        clk_i,
  input  wire        rst_ni,

  input  wire        start_i,  // a packet starts in this cycle (step A)
  input  wire [3:0]  cls_i,    //   on this class
  input  wire [19:0] qlen_i,   //   whose queue holds qlen_i blocks in S(t)
  input  wire [1:0]  ecn_i,    //   with this ECN field

  output wire [1:0]  ecn_o,    // the field it is sent with
  output wire        mark_o,   // event ecn_mark
  output wire [31:0] lfsr_o
);

  localparam [31:0] TAPS      = 32'h80200003;
  localparam [31:0] SALTED    = Seed ^ (32'h9E3779B9 * (Port + 1));
  localparam [31:0] LFSR_INIT = (SALTED == 32'd0) ? 32'd1 : SALTED;
  localparam integer Kspan     = Kmax - Kmin;
  localparam [19:0]  KMIN      = Kmin[19:0];
  localparam [19:0]  KMAX      = Kmax[19:0];
  localparam [19:0]  KSPAN     = Kspan[19:0];
  localparam [16:0]  PMAX      = Pmax[16:0];

  reg [31:0] lfsr_d, lfsr_q;

  // Sixteen steps of the LFSR (one draw).
  function [31:0] lfsr_draw;
    input [31:0] x;
    integer      s;
    begin
      lfsr_draw = x;
      for (s = 0; s < 16; s = s + 1) begin
        lfsr_draw = (lfsr_draw >> 1) ^ (lfsr_draw[0] ? TAPS : 32'd0);
      end
    end
  endfunction

  wire [31:0] lfsr_next = lfsr_draw(lfsr_q);

  wire        markable = EcnMask[cls_i[2:0]] && (cls_i[3] == 1'b0) &&
                         ((ecn_i == 2'b01) || (ecn_i == 2'b10));
  wire        above    = (qlen_i > KMAX);
  wire        band     = (qlen_i > KMIN) && !above;
  wire [19:0] excess   = qlen_i - KMIN;
  wire [35:0] lhs      = {20'd0, lfsr_next[15:0]} * {16'd0, KSPAN};
  wire [36:0] rhs      = {20'd0, PMAX} * {17'd0, excess};
  wire        mark     = markable && (above || (band && ({1'b0, lhs} < rhs)));

  assign ecn_o  = mark ? `LFC_ECN_CE : ecn_i;
  assign mark_o = start_i && mark;
  assign lfsr_o = lfsr_q;

  always @* begin
    lfsr_d = lfsr_q;
    if (start_i && markable && band) begin
      lfsr_d = lfsr_next;
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      lfsr_q <= LFSR_INIT;
    end else begin
      lfsr_q <= lfsr_d;
    end
  end

endmodule

`default_nettype wire
