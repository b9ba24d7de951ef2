// lfc_rx_framing - receive framing of one ingress port (docs/SPEC.md §7.2).
//
// Tracks rx_rem, the blocks still expected of the current packet, and classifies each DATA word:
// a legal first block (an admission request for §5.4 / §6.4), a malformed first block (dropped
// with cause MALFORMED), a continuation block, or a stray block. Reports the rx_malformed event
// (stray block, sop inside a packet, eop in the wrong place) and the last block of a packet,
// which fixes the ready cycle of a store-and-forward packet (§7.3). A packet with mrg = 1 takes
// nblk - 1 words, its last carrying two blocks (§2.1, §2.4); mrg on a one-block packet is
// malformed. The receiver does not police line time: it takes mrg whatever its own WireTime.

`default_nettype none
`timescale 1ns / 1ps

`include "lfc_defs.vh"

module lfc_rx_framing #(
  parameter integer Mode      = 0,  // 0 IB, 1 PFC
  parameter integer Ports     = 4,
  parameter integer Classes   = 2,
  parameter integer MtuBlocks = 65,
  parameter integer Vl15En    = 0   // IB with vl15_blocks > 0: class 15 is legal
) (
  input  wire        clk_i,
  input  wire        rst_ni,

  input  wire [1:0]  kind_i,
  input  wire        sop_i,
  input  wire        eop_i,
  input  wire [3:0]  cls_i,
  input  wire [7:0]  nblk_i,
  input  wire        mrg_i,
  input  wire [15:0] dst_i,

  output reg         first_o,         // legal first block: admission request
  output reg         malformed_o,     // malformed first block: drop, cause MALFORMED
  output reg         last_o,          // last block of the current packet (legal or dropped)
  output reg         rx_malformed_o,  // event rx_malformed
  output wire [7:0]  rx_rem_o
);

  localparam [4:0]  NCLS  = Classes[4:0];
  localparam [15:0] NPORT = Ports[15:0];
  localparam [7:0]  MTU   = MtuBlocks[7:0];

  reg [7:0] rx_rem_d, rx_rem_q;

  // The class and destination checks of §7.2 (the route is the identity, §7.1).
  wire cls_ok = ({1'b0, cls_i} < NCLS) || ((Mode == 0) && (Vl15En != 0) && (cls_i == 4'd15));
  wire dst_ok = (dst_i < NPORT);
  wire len_ok = (nblk_i != 8'd0) && (nblk_i <= MTU);
  wire mrg_ok = !mrg_i || (nblk_i >= 8'd2);  // the last word carries two blocks (§2.1)
  wire legal  = cls_ok && dst_ok && len_ok && mrg_ok;
  // The words of a legal packet still to come after its first (§7.2: n - 1 - mrg).
  wire [7:0] words_left = nblk_i - 8'd1 - {7'd0, mrg_i};

  always @* begin
    rx_rem_d       = rx_rem_q;
    first_o        = 1'b0;
    malformed_o    = 1'b0;
    last_o         = 1'b0;
    rx_malformed_o = 1'b0;
    if (kind_i == `LFC_KIND_DATA) begin
      if (rx_rem_q == 8'd0) begin
        if (sop_i) begin
          if (legal) begin
            first_o  = 1'b1;
            rx_rem_d = words_left;
            last_o   = (words_left == 8'd0);
            if (eop_i != (words_left == 8'd0)) begin
              rx_malformed_o = 1'b1;
            end
          end else begin
            // Dropped; rx_rem stays 0 so that its further blocks are malformed too.
            malformed_o = 1'b1;
          end
        end else begin
          // A block outside any packet: discarded.
          rx_malformed_o = 1'b1;
        end
      end else begin
        // Continuation block: only eop is used (and sop checked); its pad and mrg are not.
        rx_rem_d = rx_rem_q - 8'd1;
        last_o   = (rx_rem_q == 8'd1);
        if (sop_i || (eop_i != (rx_rem_q == 8'd1))) begin
          rx_malformed_o = 1'b1;
        end
      end
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      rx_rem_q <= 8'd0;
    end else begin
      rx_rem_q <= rx_rem_d;
    end
  end

  assign rx_rem_o = rx_rem_q;

endmodule

`default_nettype wire
