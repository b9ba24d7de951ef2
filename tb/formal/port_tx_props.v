// port_tx_props - the line time of one transmitter, lfc_port_tx with WireTime = 1 (docs/SPEC.md
// §2.1, §2.4, §5.2 step 2a), whatever the queues and the flow-control generators offer.
//
// Property LINE_TIME, in every cycle:
//   L1 slack stays within -20..127 (§2.4: signed 8 bits; the bound below is an Ethernet
//      frame's 20 bytes of overhead, the bound above the saturation min(., 127));
//   L2 a DATA word with mrg = 1 belongs to a packet of at least two blocks (§2.1: mrg is legal
//      only for nblk >= 2), on its first word and on every continuation word;
//   L3 no frame begins while slack < 0: that slot is the idle gap of §5.2 step 2a, in which
//      neither a packet nor a flow-control word starts.
// Every input is free in every cycle (a pending flow-control word, a pick with any nblk and
// pad), so no environment assumption is made. No lemma in the harness: L2 on a continuation
// word rests on the packet's descriptor register, which only a start writes. With k = 1
// formal.sh adds the lemma slot_cnt_q = 0 (as for PFC_HEADROOM); with k = 2 the induction is
// long enough (15) to run past the wrap of a slot counter that an unreachable state starts
// anywhere in its 4 bits.

`default_nettype none
`timescale 1ns / 1ps

module port_tx_props #(
  parameter integer Mode     = 1,  // 0 IB (FCPs of 6 bytes), 1 PFC (frames of 84, E = 20)
  parameter integer SpeedDiv = 2
) (
  input wire       clk_i,
  input wire       rst_ni,
  input wire       fc_pend_i,
  input wire       pick_valid_i,
  input wire [7:0] pick_nblk_i,
  input wire [5:0] pick_pad_i
);

  localparam [1:0] FC_KIND  = (Mode == 0) ? 2'd2 : 2'd3;  // FCP or PFC frame (§2)
  localparam [7:0] SLACK_LO = 8'hEC;                      // -20 in two's complement

  wire         start;
  wire         fc_sent;
  wire [1:0]   tx_kind;
  wire         tx_sop;
  wire         tx_eop;
  wire [3:0]   tx_cls;
  wire [7:0]   tx_nblk;
  wire [15:0]  tx_dst;
  wire [31:0]  tx_tag;
  wire [1:0]   tx_ecn;
  wire [5:0]   tx_pad;
  wire         tx_mrg;
  wire [3:0]   tx_fc_op;
  wire [3:0]   tx_fc_vl;
  wire [11:0]  tx_fc_fctbs;
  wire [11:0]  tx_fc_fccl;
  wire [7:0]   tx_pfc_en;
  wire [127:0] tx_pfc_time;
  wire [7:0]   tx_rem;
  wire [7:0]   slack;

  lfc_port_tx #(
    .Port     (0),
    .SpeedDiv (SpeedDiv),
    .Mode     (Mode),
    .WireTime (1)
  ) u_port_tx (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .fc_pend_i     (fc_pend_i),
    .fc_kind_i     (FC_KIND),
    .fc_vl_i       (4'd0),
    .fc_fctbs_i    (12'd0),
    .fc_fccl_i     (12'd0),
    .pfc_en_i      (8'd0),
    .pfc_time_i    (128'd0),
    .pick_valid_i  (pick_valid_i),
    .pick_cls_i    (4'd0),
    .pick_nblk_i   (pick_nblk_i),
    .pick_tag_i    (32'd0),
    .pick_ecn_i    (2'd0),
    .pick_pad_i    (pick_pad_i),
    .start_o       (start),
    .fc_sent_o     (fc_sent),
    .tx_kind_o     (tx_kind),
    .tx_sop_o      (tx_sop),
    .tx_eop_o      (tx_eop),
    .tx_cls_o      (tx_cls),
    .tx_nblk_o     (tx_nblk),
    .tx_dst_o      (tx_dst),
    .tx_tag_o      (tx_tag),
    .tx_ecn_o      (tx_ecn),
    .tx_pad_o      (tx_pad),
    .tx_mrg_o      (tx_mrg),
    .tx_fc_op_o    (tx_fc_op),
    .tx_fc_vl_o    (tx_fc_vl),
    .tx_fc_fctbs_o (tx_fc_fctbs),
    .tx_fc_fccl_o  (tx_fc_fccl),
    .tx_pfc_en_o   (tx_pfc_en),
    .tx_pfc_time_o (tx_pfc_time),
    .tx_rem_o      (tx_rem),
    .slack_o       (slack)
  );

  wire unused = ^{start, fc_sent, tx_eop, tx_cls, tx_dst, tx_tag, tx_ecn, tx_pad, tx_fc_op,
                  tx_fc_vl, tx_fc_fctbs, tx_fc_fccl, tx_pfc_en, tx_pfc_time, tx_rem};

  reg init_q = 1'b1;
  always @(posedge clk_i) begin
    init_q <= 1'b0;
  end

  // A frame begins in this cycle: a packet's first word or a flow-control word.
  wire frame_begins = (tx_kind == 2'd1 && tx_sop) || tx_kind == 2'd2 || tx_kind == 2'd3;

`ifdef FORMAL
  always @* begin
    assume(rst_ni == !init_q);
    if (!init_q) begin
      assert(!slack[7] || slack >= SLACK_LO);                   // L1
      assert(!(tx_kind == 2'd1 && tx_mrg) || tx_nblk >= 8'd2);  // L2
      assert(!frame_begins || !slack[7]);                       // L3
    end
  end
`endif

endmodule

`default_nettype wire
