// lfc_port_tx - the transmit decision of one egress port (docs/SPEC.md §5.2, §7.4, §1.2).
//
// In a slot of the port (t mod k = 0, kept as a slot counter): the next block of the packet in
// flight; else a pending flow-control word (IB FCP, §5.5, or PFC frame, §6.6); else the first
// block of the packet the scheduler picked (§5.6 / §8), which starts now; else IDLE. The output
// word is a function of the registers only (§1.3): the inputs of this block all come from
// registers of the other blocks. A packet of n blocks that starts sends n - 1 more blocks in the
// following slots (tx_rem), each rebuilt from the descriptor held here (§2.3).

`default_nettype none
`timescale 1ns / 1ps

`include "lfc_defs.vh"

module lfc_port_tx #(
  parameter integer Port     = 0,  // this port's index: the dst of every packet it sends (§7.1)
  parameter integer SpeedDiv = 1   // k, 1..16
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
  output reg  [3:0]   tx_fc_op_o,
  output reg  [3:0]   tx_fc_vl_o,
  output reg  [11:0]  tx_fc_fctbs_o,
  output reg  [11:0]  tx_fc_fccl_o,
  output reg  [7:0]   tx_pfc_en_o,
  output reg  [127:0] tx_pfc_time_o,

  output wire [7:0]   tx_rem_o
);

  localparam integer SlotLast  = SpeedDiv - 1;
  localparam [3:0]   SLOT_LAST = SlotLast[3:0];
  localparam [15:0]  DST       = Port[15:0];

  reg [3:0]  slot_cnt_d, slot_cnt_q;  // t mod k
  reg [7:0]  tx_rem_d, tx_rem_q;      // blocks of the packet in flight still to send
  reg [3:0]  cur_cls_d, cur_cls_q;    // descriptor of the packet in flight
  reg [7:0]  cur_nblk_d, cur_nblk_q;
  reg [31:0] cur_tag_d, cur_tag_q;
  reg [1:0]  cur_ecn_d, cur_ecn_q;

  wire slot = (slot_cnt_q == 4'd0);
  wire busy = (tx_rem_q != 8'd0);

  assign start_o   = slot && !busy && !fc_pend_i && pick_valid_i;
  assign fc_sent_o = slot && !busy && fc_pend_i;
  assign tx_rem_o  = tx_rem_q;

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
        tx_eop_o  = (pick_nblk_i == 8'd1);
        tx_cls_o  = pick_cls_i;
        tx_nblk_o = pick_nblk_i;
        tx_dst_o  = DST;
        tx_tag_o  = pick_tag_i;
        tx_ecn_o  = pick_ecn_i;
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
    if (slot && busy) begin
      tx_rem_d = tx_rem_q - 8'd1;
    end else if (start_o) begin
      tx_rem_d   = pick_nblk_i - 8'd1;
      cur_cls_d  = pick_cls_i;
      cur_nblk_d = pick_nblk_i;
      cur_tag_d  = pick_tag_i;
      cur_ecn_d  = pick_ecn_i;
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
    end else begin
      slot_cnt_q <= slot_cnt_d;
      tx_rem_q   <= tx_rem_d;
      cur_cls_q  <= cur_cls_d;
      cur_nblk_q <= cur_nblk_d;
      cur_tag_q  <= cur_tag_d;
      cur_ecn_q  <= cur_ecn_d;
    end
  end

endmodule

`default_nettype wire
