// lfc_pfc_port - the priority flow control of one switch port (docs/SPEC.md §6, §8, §9): PFC
// reception and pause timers (§6.7), the PFC watchdog (§6.8), PFC generation (§6.5, §6.6), the
// egress scheduler (§8) and ECN marking (§9), with the PFC registers of the debug port (§13.1).
//
// lfc_switch builds one per port in PFC mode. The buffer accounting is not here: it is one block
// for the whole switch (lfc_buffer, §6.1-§6.4, for the shared-pool chain of §6.4), whose
// counters of this port's PGs and threshold T come in. Inputs are this port's received word,
// the heads of its egress queues and whether the picked packet starts; outputs are the
// flow-control word to send (a PFC frame), the scheduler's pick with its ECN field after
// marking, the watchdog's discards and drop state, and the events of the cycle (SPEC §10).

`default_nettype none
`timescale 1ns / 1ps

`include "lfc_defs.vh"
`include "lfc_tables.vh"

module lfc_pfc_port #(
  parameter integer    Port          = 0,     // this port's number (the LFSR seed, §9.3)
  parameter integer    Classes       = 2,     // priorities, 1..8
  parameter integer    SpeedDiv      = 1,     // this port's speed divider k (§1.2)
  parameter [31:0]     Seed          = 32'd1,
  parameter [7:0]      LosslessMask  = 8'h03,
  parameter integer    XonOffset     = 8,
  parameter integer    PauseQuanta   = 65535,
  parameter integer    RefreshCycles = 32768,
  parameter [7:0]      StrictMask    = 8'h00,
  parameter [8*12-1:0] DrrQuantum    = 96'h041041041041041041041041,
  parameter integer    WdEnable      = 0,
  parameter integer    WdDetect      = 65536,
  parameter integer    WdRestore     = 65536,
  parameter integer    WdAction      = 0,     // 0 drop, 1 forward
  parameter [7:0]      EcnMask       = 8'h00,
  parameter integer    Kmin          = 16,
  parameter integer    Kmax          = 64,
  parameter integer    Pmax          = 655
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,

  // This port's received word (SPEC §2): PFC frames (step D).
  input  wire [1:0]            rx_kind_i,
  input  wire [7:0]            rx_pfc_en_i,
  input  wire [127:0]          rx_pfc_time_i,

  // This port's PGs (lfc_buffer) and the threshold T of §6.2, in S(t).
  input  wire [Classes*16-1:0] pg_min_i,
  input  wire [Classes*20-1:0] pg_shared_i,
  input  wire [Classes*16-1:0] pg_hdrm_i,
  input  wire [19:0]           th_i,

  // This port's egress queues, class c at bit c, and the picked one's head.
  input  wire [15:0]           q_empty_i,
  input  wire [7:0]            pick_nblk_i,
  input  wire [19:0]           pick_qlen_i,  // its qlen in S(t) (§9.1)
  input  wire [1:0]            pick_ecn_i,   // its ECN field as received
  input  wire                  tx_start_i,   // step A: the picked packet starts
  input  wire                  fc_sent_i,    // step A: the pending PFC frame is sent

  // The flow-control word pending on this port (a PFC frame, §6.6) and the scheduler's pick.
  output wire                  fc_pend_o,
  output wire [1:0]            fc_kind_o,
  output wire [3:0]            fc_vl_o,
  output wire [11:0]           fc_fctbs_o,
  output wire [11:0]           fc_fccl_o,
  output wire [7:0]            pfc_en_o,
  output wire [127:0]          pfc_time_o,
  output wire                  pick_valid_o,
  output wire [3:0]            pick_cls_o,
  output wire [1:0]            pick_ecn_o,   // after ECN marking (§9)

  // Step C and §6.8: the heads discarded in this cycle and the queues in the drop state.
  output wire [15:0]           wd_disc_o,
  output wire [15:0]           wd_drop_state_o,

  // Events of this cycle (SPEC §10), class c at bit c.
  output wire                  ecn_mark_o,
  output wire [15:0]           xoff_o,
  output wire [15:0]           xon_o,
  output wire [15:0]           wd_trip_o,
  output wire [15:0]           wd_restore_o,

  // Debug port (SPEC §13.1): the PFC register dbg_reg_i of (this port, class dbg_cls_i).
  input  wire [7:0]            dbg_reg_i,
  input  wire [3:0]            dbg_cls_i,
  output wire [31:0]           dbg_val_o
);

  wire                  frame = (rx_kind_i == `LFC_KIND_PFC);
  wire [Classes-1:0]    paused;
  wire [Classes-1:0]    pause_rx;
  wire [Classes*21-1:0] pause_timer;
  wire [Classes-1:0]    storm;
  wire [Classes*20-1:0] wd_cnt;
  wire [Classes*20-1:0] wd_rcnt;
  wire [Classes-1:0]    wd_trip;
  wire [Classes-1:0]    wd_restore;
  wire [Classes-1:0]    xoff;
  wire [Classes-1:0]    pfc_pend;
  wire [Classes*16-1:0] refresh_timer;
  wire [Classes-1:0]    xoff_ev;
  wire [Classes-1:0]    xon_ev;
  wire [Classes-1:0]    elig;
  wire [Classes-1:0]    drop_state;
  wire [2:0]            drr_ptr;
  wire [Classes*16-1:0] deficit;
  wire [31:0]           lfsr;

  lfc_pfc_rx #(
    .Classes  (Classes),
    .SpeedDiv (SpeedDiv)
  ) u_pfc_rx (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .frame_i    (frame),
    .en_i       (rx_pfc_en_i),
    .time_i     (rx_pfc_time_i),
    .paused_o   (paused),
    .pause_rx_o (pause_rx),
    .timer_o    (pause_timer)
  );

  generate
    if (WdEnable != 0) begin : g_wd
      lfc_watchdog #(
        .Classes   (Classes),
        .WdDetect  (WdDetect),
        .WdRestore (WdRestore)
      ) u_watchdog (
        .clk_i      (clk_i),
        .rst_ni     (rst_ni),
        .paused_i   (paused),
        .pause_rx_i (pause_rx),
        .storm_o    (storm),
        .trip_o     (wd_trip),
        .restore_o  (wd_restore),
        .cnt_o      (wd_cnt),
        .rcnt_o     (wd_rcnt)
      );
    end else begin : g_no_wd
      assign storm      = {Classes{1'b0}};
      assign wd_trip    = {Classes{1'b0}};
      assign wd_restore = {Classes{1'b0}};
      assign wd_cnt     = {(Classes * 20){1'b0}};
      assign wd_rcnt    = {(Classes * 20){1'b0}};
      wire unused_pause_rx = ^pause_rx;
    end
  endgenerate

  // §6.8: with wd_action = drop a storm discards (step C) and drops at admission.
  assign drop_state = (WdAction == 0) ? storm : {Classes{1'b0}};

  lfc_pfc_gen #(
    .Classes       (Classes),
    .LosslessMask  (LosslessMask),
    .XonOffset     (XonOffset),
    .PauseQuanta   (PauseQuanta),
    .RefreshCycles (RefreshCycles)
  ) u_pfc_gen (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .pg_shared_i     (pg_shared_i),
    .pg_hdrm_i       (pg_hdrm_i),
    .th_i            (th_i),
    .sent_i          (fc_sent_i),
    .pend_o          (fc_pend_o),
    .en_o            (pfc_en_o),
    .time_o          (pfc_time_o),
    .xoff_ev_o       (xoff_ev),
    .xon_ev_o        (xon_ev),
    .xoff_o          (xoff),
    .pfc_pend_o      (pfc_pend),
    .refresh_timer_o (refresh_timer)
  );

  assign fc_kind_o  = `LFC_KIND_PFC;
  assign fc_vl_o    = 4'd0;
  assign fc_fctbs_o = 12'd0;
  assign fc_fccl_o  = 12'd0;

  // §8.1 eligibility: non-empty, not paused (a storm ignores the pause), not dropping.
  assign elig = ~q_empty_i[Classes-1:0] & ~(paused & ~storm) & ~drop_state;

  lfc_sched #(
    .Classes    (Classes),
    .StrictMask (StrictMask),
    .DrrQuantum (DrrQuantum)
  ) u_sched (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .elig_i       (elig),
    .start_i      (tx_start_i),
    .nblk_i       (pick_nblk_i),
    .pick_valid_o (pick_valid_o),
    .pick_cls_o   (pick_cls_o),
    .drr_ptr_o    (drr_ptr),
    .deficit_o    (deficit)
  );

  lfc_ecn #(
    .Port    (Port),
    .Seed    (Seed),
    .EcnMask (EcnMask),
    .Kmin    (Kmin),
    .Kmax    (Kmax),
    .Pmax    (Pmax)
  ) u_ecn (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .start_i (tx_start_i),
    .cls_i   (pick_cls_o),
    .qlen_i  (pick_qlen_i),
    .ecn_i   (pick_ecn_i),
    .ecn_o   (pick_ecn_o),
    .mark_o  (ecn_mark_o),
    .lfsr_o  (lfsr)
  );

  // Step C: a queue in the drop state discards its head every cycle.
  assign wd_disc_o       = {{(16 - Classes){1'b0}}, drop_state & ~q_empty_i[Classes-1:0]};
  assign wd_drop_state_o = {{(16 - Classes){1'b0}}, drop_state};
  assign xoff_o          = {{(16 - Classes){1'b0}}, xoff_ev};
  assign xon_o           = {{(16 - Classes){1'b0}}, xon_ev};
  assign wd_trip_o       = {{(16 - Classes){1'b0}}, wd_trip};
  assign wd_restore_o    = {{(16 - Classes){1'b0}}, wd_restore};
  // Queues of classes >= Classes do not exist in PFC mode.
  wire unused_q_empty = ^q_empty_i[15:Classes];

  // The PFC registers for the debug port; (port, class) ones only for c < Classes.
  reg [31:0] dv;
  integer    c;

  always @* begin
    dv = 32'd0;
    case (dbg_reg_i)
      `LFC_REG_DRR_PTR: dv = {29'd0, drr_ptr};
      `LFC_REG_LFSR:    dv = lfsr;
      default: begin
        for (c = 0; c < Classes; c = c + 1) begin
          if (dbg_cls_i == c[3:0]) begin
            case (dbg_reg_i)
              `LFC_REG_PG_MIN:        dv = {16'd0, pg_min_i[c*16 +: 16]};
              `LFC_REG_PG_SHARED:     dv = {12'd0, pg_shared_i[c*20 +: 20]};
              `LFC_REG_PG_HDRM:       dv = {16'd0, pg_hdrm_i[c*16 +: 16]};
              `LFC_REG_XOFF:          dv = {31'd0, xoff[c]};
              `LFC_REG_PFC_PEND:      dv = {31'd0, pfc_pend[c]};
              `LFC_REG_REFRESH_TIMER: dv = {16'd0, refresh_timer[c*16 +: 16]};
              `LFC_REG_PAUSE_TIMER:   dv = {11'd0, pause_timer[c*21 +: 21]};
              `LFC_REG_WD_STORM:      dv = {31'd0, storm[c]};
              `LFC_REG_WD_CNT:        dv = {12'd0, wd_cnt[c*20 +: 20]};
              `LFC_REG_WD_RCNT:       dv = {12'd0, wd_rcnt[c*20 +: 20]};
              `LFC_REG_DEFICIT:       dv = {16'd0, deficit[c*16 +: 16]};
              default:                dv = 32'd0;
            endcase
          end
        end
      end
    endcase
  end

  assign dbg_val_o = dv;

endmodule

`default_nettype wire
