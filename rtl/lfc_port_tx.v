// lfc_port_tx - the transmit decision of one egress port (docs/SPEC.md §5.2, §7.4, §1.2).
//
// In a slot of the port (t mod k = 0, kept as a slot counter): the next block of the packet in
// flight; else a pending flow-control word (IB FCP, §5.5, or PFC frame, §6.6); else the first
// block of the packet the scheduler picked (§5.6 / §8), which starts now; else IDLE. The output
// word is a function of the registers only (§1.3): the inputs of this block all come from
// registers of the other blocks. A packet of n blocks that starts sends n - 1 - mrg more words in
// the following slots (tx_rem), each rebuilt from the descriptor held here (§2.3).
//
// Line time (§2.4), with WireTime = 1: register slack holds the bytes of line time carried
// between frames, updated in every slot of the port exactly as §2.4 lists (the C model keeps
// the same register lazily, cmodel/src/line_time.c). A packet whose padding and carried slack
// add up to a block merges its last two blocks into one word (mrg); a frame that owes the wire
// bytes (slack < 0) is followed by an idle gap slot in which nothing is sent (§5.2 step 2a).
// With WireTime = 0 slack stays 0, mrg is never set and every word takes one slot, as in 0.2.

`default_nettype none
`timescale 1ns / 1ps

`include "lfc_defs.vh"

module lfc_port_tx #(
  parameter integer Port     = 0,  // this port's index: the dst of every packet it sends (§7.1)
  parameter integer SpeedDiv = 1,  // k, 1..16
  parameter integer Mode     = 0,  // 0 IB, 1 PFC: the line time of a frame (§2.4)
  parameter integer WireTime = 0   // 1: frames take their line time in bytes (§2.4)
) (
  input  wire         clk_i,
  input  wire         rst_ni,

  // Flow-control word pending (§5.5 / §6.6) and its fields.
  input  wire         fc_pend_i,
  input  wire [1:0]   fc_kind_i,
  input  wire [3:0]   fc_vl_i,
  input  wire [11:0]  fc_fctbs_i,
  input  wire [11:0]  fc_fccl_i,
  input  wire [7:0]   pfc_en_i,
  input  wire [127:0] pfc_time_i,

  // The scheduler's pick and the head packet of the picked queue (ecn already marked, §9).
  input  wire         pick_valid_i,
  input  wire [3:0]   pick_cls_i,
  input  wire [7:0]   pick_nblk_i,
  input  wire [31:0]  pick_tag_i,
  input  wire [1:0]   pick_ecn_i,
  input  wire [5:0]   pick_pad_i,

  // Decision of step A.
  output wire         start_o,    // the picked packet starts (it is dequeued in step B)
  output wire         fc_sent_o,  // the pending flow-control word is sent

  // The transmitted word (§2).
  output reg  [1:0]   tx_kind_o,
  output reg          tx_sop_o,
  output reg          tx_eop_o,
  output reg  [3:0]   tx_cls_o,
  output reg  [7:0]   tx_nblk_o,
  output reg  [15:0]  tx_dst_o,
  output reg  [31:0]  tx_tag_o,
  output reg  [1:0]   tx_ecn_o,
  output reg  [5:0]   tx_pad_o,
  output reg          tx_mrg_o,
  output reg  [3:0]   tx_fc_op_o,
  output reg  [3:0]   tx_fc_vl_o,
  output reg  [11:0]  tx_fc_fctbs_o,
  output reg  [11:0]  tx_fc_fccl_o,
  output reg  [7:0]   tx_pfc_en_o,
  output reg  [127:0] tx_pfc_time_o,

  output wire [7:0]   tx_rem_o,
  output wire [7:0]   slack_o     // two's complement, -20..127 (§2.4, register 31 of §13.1)
);

  localparam integer SlotLast  = SpeedDiv - 1;
  localparam [3:0]   SLOT_LAST = SlotLast[3:0];
  localparam [15:0]  DST       = Port[15:0];

  // Line time (§2.4) in bytes. Sums are 9-bit two's complement: slack + pad - E spans -20..190.
  localparam integer BlockBytes = 64;                      // one block, one slot of the wire
  localparam integer SlackMax   = 127;                     // bytes carried at most (§2.4)
  localparam integer EthBytes   = (Mode != 0) ? 20 : 0;    // 802.3 preamble 7 + SFD 1 + IFG 12
  localparam integer CtrlBytes  = (Mode != 0) ? 84 : 6;    // PFC frame 64 + 20; IB FCP (§7.9.4)
  localparam integer CtrlLeft   = BlockBytes - CtrlBytes;  // what a control word leaves of its slot
  localparam signed [8:0] BLOCK_BYTES = BlockBytes[8:0];
  localparam signed [8:0] SLACK_MAX   = SlackMax[8:0];
  localparam signed [8:0] ETH_BYTES   = EthBytes[8:0];
  localparam signed [8:0] CTRL_LEFT   = CtrlLeft[8:0];
  localparam signed [8:0] ZERO_BYTES  = 9'sd0;
  localparam              WIRE_TIME   = (WireTime != 0);

  reg [3:0]  slot_cnt_d, slot_cnt_q;  // t mod k
  reg [7:0]  tx_rem_d, tx_rem_q;      // words of the packet in flight still to send
  reg [3:0]  cur_cls_d, cur_cls_q;    // descriptor of the packet in flight
  reg [7:0]  cur_nblk_d, cur_nblk_q;
  reg [31:0] cur_tag_d, cur_tag_q;
  reg [1:0]  cur_ecn_d, cur_ecn_q;
  reg [5:0]  cur_pad_d, cur_pad_q;
  reg        cur_mrg_d, cur_mrg_q;
  reg signed [7:0] slack_d, slack_q;  // §2.4: -20..127, 0 when WireTime = 0

  // min(x, 127) of §2.4, in slack's 8 bits (x >= -20 wherever it is used).
  function [7:0] slack_sat;
    input signed [8:0] x;
    begin
      slack_sat = (x > SLACK_MAX) ? SLACK_MAX[7:0] : x[7:0];
    end
  endfunction

  wire slot = (slot_cnt_q == 4'd0);
  wire busy = (tx_rem_q != 8'd0);
  // §5.2 step 2a: the last frame still owes the wire bytes; this slot is its idle gap.
  wire gap  = WIRE_TIME && slack_q[7];
  wire free = slot && !busy && !gap;  // a slot in which a frame may begin

  // §2.4: v of the picked packet, should it start now, and its merge flag.
  wire signed [8:0] slack_x  = {slack_q[7], slack_q};
  wire signed [8:0] pick_v   = slack_x + $signed({3'd0, pick_pad_i}) - ETH_BYTES;
  wire              pick_mrg = WIRE_TIME && (pick_nblk_i >= 8'd2) && (pick_v >= BLOCK_BYTES);
  wire [7:0]        pick_w   = pick_nblk_i - {7'd0, pick_mrg};  // its words (§2.1)

  assign start_o   = free && !fc_pend_i && pick_valid_i;
  assign fc_sent_o = free && fc_pend_i;
  assign tx_rem_o  = tx_rem_q;
  assign slack_o   = slack_q;

  // Step A: the word.
  always @* begin
    tx_kind_o     = `LFC_KIND_IDLE;
    tx_sop_o      = 1'b0;
    tx_eop_o      = 1'b0;
    tx_cls_o      = 4'd0;
    tx_nblk_o     = 8'd0;
    tx_dst_o      = 16'd0;
    tx_tag_o      = 32'd0;
    tx_ecn_o      = 2'd0;
    tx_pad_o      = 6'd0;
    tx_mrg_o      = 1'b0;
    tx_fc_op_o    = 4'd0;
    tx_fc_vl_o    = 4'd0;
    tx_fc_fctbs_o = 12'd0;
    tx_fc_fccl_o  = 12'd0;
    tx_pfc_en_o   = 8'd0;
    tx_pfc_time_o = 128'd0;
    if (slot) begin
      if (busy) begin
        tx_kind_o = `LFC_KIND_DATA;
        tx_eop_o  = (tx_rem_q == 8'd1);
        tx_cls_o  = cur_cls_q;
        tx_nblk_o = cur_nblk_q;
        tx_dst_o  = DST;
        tx_tag_o  = cur_tag_q;
        tx_ecn_o  = cur_ecn_q;
        tx_pad_o  = cur_pad_q;
        tx_mrg_o  = cur_mrg_q;
      end else if (gap) begin
        tx_kind_o = `LFC_KIND_IDLE;
      end else if (fc_pend_i) begin
        tx_kind_o = fc_kind_i;
        if (fc_kind_i == `LFC_KIND_FCP) begin
          tx_fc_op_o    = 4'd0;  // normal (§5.5)
          tx_fc_vl_o    = fc_vl_i;
          tx_fc_fctbs_o = fc_fctbs_i;
          tx_fc_fccl_o  = fc_fccl_i;
        end else begin
          tx_pfc_en_o   = pfc_en_i;
          tx_pfc_time_o = pfc_time_i;
        end
      end else if (pick_valid_i) begin
        tx_kind_o = `LFC_KIND_DATA;
        tx_sop_o  = 1'b1;
        tx_eop_o  = (pick_w == 8'd1);
        tx_cls_o  = pick_cls_i;
        tx_nblk_o = pick_nblk_i;
        tx_dst_o  = DST;
        tx_tag_o  = pick_tag_i;
        tx_ecn_o  = pick_ecn_i;
        tx_pad_o  = pick_pad_i;
        tx_mrg_o  = pick_mrg;
      end
    end
  end

  // Step B: the transmit state.
  always @* begin
    slot_cnt_d = (slot_cnt_q == SLOT_LAST) ? 4'd0 : slot_cnt_q + 4'd1;
    tx_rem_d   = tx_rem_q;
    cur_cls_d  = cur_cls_q;
    cur_nblk_d = cur_nblk_q;
    cur_tag_d  = cur_tag_q;
    cur_ecn_d  = cur_ecn_q;
    cur_pad_d  = cur_pad_q;
    cur_mrg_d  = cur_mrg_q;
    if (slot && busy) begin
      tx_rem_d = tx_rem_q - 8'd1;
    end else if (start_o) begin
      tx_rem_d   = pick_w - 8'd1;  // §7.4: w - 1 words still to send
      cur_cls_d  = pick_cls_i;
      cur_nblk_d = pick_nblk_i;
      cur_tag_d  = pick_tag_i;
      cur_ecn_d  = pick_ecn_i;
      cur_pad_d  = pick_pad_i;
      cur_mrg_d  = pick_mrg;
    end
  end

  // Step B: slack (§2.4), in every slot of the port; a continuation word leaves it unchanged.
  always @* begin
    slack_d = slack_q;
    if (WIRE_TIME && slot && !busy) begin
      if (gap) begin
        slack_d = slack_sat(slack_x + BLOCK_BYTES);                  // the gap slot elapsed
      end else if (fc_pend_i) begin
        slack_d = slack_sat(slack_x + CTRL_LEFT);                    // a control word
      end else if (pick_valid_i) begin
        slack_d = slack_sat(pick_v - (pick_mrg ? BLOCK_BYTES : ZERO_BYTES));  // a packet starts
      end else begin
        slack_d = 8'sd0;                                             // an idle slot
      end
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      slot_cnt_q <= 4'd0;
      tx_rem_q   <= 8'd0;
      cur_cls_q  <= 4'd0;
      cur_nblk_q <= 8'd0;
      cur_tag_q  <= 32'd0;
      cur_ecn_q  <= 2'd0;
      cur_pad_q  <= 6'd0;
      cur_mrg_q  <= 1'b0;
      slack_q    <= 8'sd0;
    end else begin
      slot_cnt_q <= slot_cnt_d;
      tx_rem_q   <= tx_rem_d;
      cur_cls_q  <= cur_cls_d;
      cur_nblk_q <= cur_nblk_d;
      cur_tag_q  <= cur_tag_d;
      cur_ecn_q  <= cur_ecn_d;
      cur_pad_q  <= cur_pad_d;
      cur_mrg_q  <= cur_mrg_d;
      slack_q    <= slack_d;
    end
  end

endmodule

`default_nettype wire
