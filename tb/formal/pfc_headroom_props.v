// pfc_headroom_props - PFC headroom on one lossless PG with a peer that obeys the pause
// (docs/SPEC.md §6.4-§6.7, §11, §12.2).
//
// Property PFC_HEADROOM: with headroom_blocks at the bound of §11,
//   2 * mtu_blocks - 1 + ceil((2 * D + R + 2) / k),
// a lossless PG never drops (cause HEADROOM): its occupancy never exceeds what the reserve,
// the shared threshold and the headroom can hold.
//
// The loop is built from the RTL blocks: lfc_buffer (one ingress port, one lossless priority)
// and lfc_pfc_gen decide XOFF/XON; lfc_port_tx sends the PFC frame toward the peer between the
// data packets it is sending (the environment may keep it busy with packets of up to mtu_blocks,
// the worst case of §11); a link of one cycle (D = 1) carries the frame to the peer's
// lfc_pfc_rx (R = 0, k = 1); the peer sends packets of 1..mtu_blocks contiguously (§2.1) and
// starts a new one only when not paused (§6.7, §12.2); a link of one cycle carries them to our
// buffer. The egress side frees any held blocks at any time, or none (a congested egress).
//
// Assertion:
//   H1 no admission drop on the PG.
//
// Proof: k-induction of depth 7 (formal.sh; 8 with mtu_blocks = 3). The induction step starts from
// any state that satisfies the assertions in 7 consecutive cycles; 7 cycles span the whole response
// of the loop (a packet admitted, XOFF decided, the frame waiting behind our packet, the link, the
// peer's timer loaded), so those 7 cycles pin down the phase of the loop: e.g. a state where the PG
// is xoff with its headroom nearly full while the peer is not paused and no frame is on its way has
// no 7-cycle history without a drop. The transition relation does the rest, except for registers
// whose unreachable values would stretch the response time beyond any fixed k. Those are bounded by
// lemmas, proved in the same induction (left out with -DFORMAL_PROPERTY_ONLY in the broken-RTL
// checks):
//   L1 refresh_timer <= refresh_cycles - 1: it is loaded with refresh_cycles - 1 and only
//      counts down (§6.6). Without it a state with refresh_timer = 65535 would let the peer's
//      pause run out while the PG stays xoff with no refresh frame for 65535 cycles.
//   L2 tx_rem <= mtu_blocks - 1: our packet in flight holds the XOFF back for at most
//      mtu_blocks - 1 cycles (§6.6: the frame waits for the end of the packet). Without it
//      tx_rem = 255 would hold the frame back for 255 cycles.
//   L3 lfc_port_tx's slot counter is 0 (k = 1: every cycle is a slot, §1.2). An internal
//      register, not a port: formal.sh proves it with `sat -prove u_port_tx.slot_cnt_q 0`
//      together with the assertions (Yosys 0.23 does not read hierarchical references).
//      Without it the port would send nothing for up to 15 cycles.
// Everything else (the peer's timer, the frame on the link, the counters) needs no lemma.
// Lemmas found unnecessary were left out; the §11 arithmetic is not written down here, the
// solver checks it exhaustively for these parameters.

`default_nettype none
`timescale 1ns / 1ps

module pfc_headroom_props #(
  parameter integer MtuBlocks      = 2,
  parameter integer HeadroomBlocks = 7,   // 2 * 2 - 1 + ceil((2 * 1 + 0 + 2) / 1)
  parameter integer SharedBlocks   = 16,
  parameter integer XoffTh         = 4,
  parameter integer XonOffset      = 1,
  parameter integer PauseQuanta    = 8,
  parameter integer RefreshCycles  = 4
) (
  input wire        clk_i,
  input wire        rst_ni,
  input wire        our_pick_i,   // our port has a data packet to send toward the peer
  input wire [7:0]  our_nblk_i,
  input wire        peer_go_i,    // the peer wants to start a packet
  input wire [7:0]  peer_nblk_i,
  input wire [11:0] free_i        // blocks of the PG leaving the switch
);

  localparam integer RefreshM1  = RefreshCycles - 1;
  localparam [7:0]   MTU        = MtuBlocks[7:0];
  localparam [15:0]  REFRESH_M1 = RefreshM1[15:0];

  // ---- Our switch: buffer accounting and PFC generation of PG (0, 0) ----
  reg         lk_sop_q;   // peer -> us: a first block and its n
  reg  [7:0]  lk_n_q;
  wire        admit;
  wire        drop;
  wire [2:0]  cause;
  wire [15:0] pg_min;
  wire [19:0] pg_shared;
  wire [15:0] pg_hdrm;
  wire [19:0] shared_used;
  wire [19:0] th;

  lfc_buffer #(
    .Ports          (1),
    .Classes        (1),
    .LosslessMask   (8'h01),
    .ReserveBlocks  (0),
    .SharedBlocks   (SharedBlocks),
    .HeadroomBlocks (HeadroomBlocks),
    .DynamicTh      (0),
    .XoffTh         (XoffTh),
    .AlphaLog2      (0)
  ) u_buffer (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .req_i         (lk_sop_q),
    .req_cls_i     (4'd0),
    .req_nblk_i    (lk_n_q),
    .req_wd_drop_i (1'b0),
    .free_i        ({180'd0, free_i}),
    .admit_o       (admit),
    .drop_o        (drop),
    .drop_cause_o  (cause),
    .pg_min_o      (pg_min),
    .pg_shared_o   (pg_shared),
    .pg_hdrm_o     (pg_hdrm),
    .shared_used_o (shared_used),
    .th_o          (th)
  );

  wire         pend;
  wire [7:0]   pfc_en;
  wire [127:0] pfc_time;
  wire         fc_sent;
  wire [0:0]   xoff_ev;
  wire [0:0]   xon_ev;
  wire [0:0]   xoff;
  wire [0:0]   pfc_pend;
  wire [15:0]  refresh_timer;

  lfc_pfc_gen #(
    .Classes       (1),
    .LosslessMask  (8'h01),
    .XonOffset     (XonOffset),
    .PauseQuanta   (PauseQuanta),
    .RefreshCycles (RefreshCycles)
  ) u_pfc_gen (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .pg_shared_i     (pg_shared),
    .pg_hdrm_i       (pg_hdrm),
    .th_i            (th),
    .sent_i          (fc_sent),
    .pend_o          (pend),
    .en_o            (pfc_en),
    .time_o          (pfc_time),
    .xoff_ev_o       (xoff_ev),
    .xon_ev_o        (xon_ev),
    .xoff_o          (xoff),
    .pfc_pend_o      (pfc_pend),
    .refresh_timer_o (refresh_timer)
  );

  // ---- Our transmitter toward the peer ----
  wire         start;
  wire [1:0]   tx_kind;
  wire [7:0]   tx_pfc_en;
  wire [127:0] tx_pfc_time;
  wire         tx_sop;
  wire         tx_eop;
  wire [3:0]   tx_cls;
  wire [7:0]   tx_nblk;
  wire [15:0]  tx_dst;
  wire [31:0]  tx_tag;
  wire [1:0]   tx_ecn;
  wire [3:0]   tx_fc_op;
  wire [3:0]   tx_fc_vl;
  wire [11:0]  tx_fc_fctbs;
  wire [11:0]  tx_fc_fccl;
  wire [7:0]   tx_rem;
  wire [5:0]   tx_pad;     // line time (§2.4) is off here: WireTime = 0
  wire         tx_mrg;
  wire [7:0]   slack;

  lfc_port_tx #(
    .Port     (0),
    .SpeedDiv (1)
  ) u_port_tx (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .fc_pend_i     (pend),
    .fc_kind_i     (2'd3),
    .fc_vl_i       (4'd0),
    .fc_fctbs_i    (12'd0),
    .fc_fccl_i     (12'd0),
    .pfc_en_i      (pfc_en),
    .pfc_time_i    (pfc_time),
    .pick_valid_i  (our_pick_i),
    .pick_cls_i    (4'd0),
    .pick_nblk_i   (our_nblk_i),
    .pick_tag_i    (32'd0),
    .pick_ecn_i    (2'd0),
    .pick_pad_i    (6'd0),
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

  // ---- Link us -> peer (D = 1) and the peer's pause timer ----
  reg         fr_q;
  reg  [7:0]  fr_en_q;
  reg  [15:0] fr_time_q;
  wire [0:0]  peer_paused;
  wire [0:0]  peer_pause_rx;
  wire [20:0] peer_timer;

  lfc_pfc_rx #(
    .Classes  (1),
    .SpeedDiv (1)
  ) u_peer_rx (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .frame_i    (fr_q),
    .en_i       (fr_en_q),
    .time_i     ({112'd0, fr_time_q}),
    .paused_o   (peer_paused),
    .pause_rx_o (peer_pause_rx),
    .timer_o    (peer_timer)
  );

  // ---- The peer's transmitter: contiguous packets, a new one only when not paused ----
  reg  [7:0] prem_q;  // blocks of the current packet still to send
  wire       pgo = (prem_q == 8'd0) && !peer_paused[0] && peer_go_i;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      fr_q      <= 1'b0;
      fr_en_q   <= 8'd0;
      fr_time_q <= 16'd0;
      prem_q    <= 8'd0;
      lk_sop_q  <= 1'b0;
      lk_n_q    <= 8'd0;
    end else begin
      fr_q      <= (tx_kind == 2'd3);
      fr_en_q   <= tx_pfc_en;
      fr_time_q <= tx_pfc_time[15:0];
      prem_q    <= pgo ? peer_nblk_i - 8'd1 : (prem_q != 8'd0) ? prem_q - 8'd1 : 8'd0;
      lk_sop_q  <= pgo;
      lk_n_q    <= pgo ? peer_nblk_i : 8'd0;
    end
  end

  reg init_q = 1'b1;
  always @(posedge clk_i) begin
    init_q <= 1'b0;
  end

  wire unused = ^{admit, cause, pg_min, shared_used, xoff_ev, xon_ev, xoff, pfc_pend,
                  refresh_timer, start, tx_sop, tx_eop, tx_cls, tx_nblk, tx_dst, tx_tag, tx_ecn,
                  tx_fc_op, tx_fc_vl, tx_fc_fctbs, tx_fc_fccl, tx_rem, tx_pad, tx_mrg, slack,
                  peer_pause_rx,
                  peer_timer, tx_pfc_time[127:16]};

`ifdef FORMAL
  always @* begin
    assume(rst_ni == !init_q);
    assume(our_nblk_i != 8'd0 && our_nblk_i <= MTU);
    assume(peer_nblk_i != 8'd0 && peer_nblk_i <= MTU);
    assume({8'd0, free_i} <= {4'd0, pg_min} + pg_shared + {4'd0, pg_hdrm});
    if (!init_q) begin
      assert(!drop);                                                            // H1
`ifndef FORMAL_PROPERTY_ONLY
      assert(refresh_timer <= REFRESH_M1);                                      // L1
      assert(tx_rem <= MTU - 8'd1);                                             // L2
`endif
    end
  end
`endif

endmodule

`default_nettype wire
