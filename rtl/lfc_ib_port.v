// lfc_ib_port - the InfiniBand credit flow control of one switch port (docs/SPEC.md §5): per data
// VL the credit transmit (§5.3) and receive (§5.4) counters, the VL15 buffer, FCP generation
// (§5.5) and VL arbitration (§5.6), with the IB registers of the debug port (§13.1).
//
// lfc_switch builds one per port in IB mode. Inputs are this port's received word, its first
// block (lfc_rx_framing), the blocks leaving each of its (ingress port, VL) this cycle and the
// heads of its egress queues; outputs are the admission of a starting packet, the flow-control
// word to send (an FCP) and the scheduler's pick. Everything here reads S(t) and I(t) only
// (SPEC §4.1): admission is step E, FCP reception step D, FCP generation state step G.

`default_nettype none
`timescale 1ns / 1ps

`include "lfc_defs.vh"
`include "lfc_tables.vh"

module lfc_ib_port #(
  parameter integer     Classes        = 2,     // data VLs, 1..15
  parameter integer     Vl15En         = 0,     // a VL15 buffer exists (Vl15Blocks > 0)
  parameter [15*16-1:0] VlBlocks       = {15{16'd256}},  // per data VL, VL 0 in the low bits
  parameter integer     Vl15Blocks     = 0,
  parameter integer     FcpPeriod      = 1024,
  parameter integer     FcpHoldoff     = 0,
  parameter integer     VlarbHighLen   = 0,
  parameter [64*12-1:0] VlarbHigh      = {(64 * 12){1'b0}},  // {vl[3:0], weight[7:0]}
  parameter integer     VlarbLowLen    = Classes,
  parameter [64*12-1:0] VlarbLow       = {(64 * 12){1'b0}},
  parameter integer     VlarbHighLimit = 0
) (
  input  wire           clk_i,
  input  wire           rst_ni,

  // This port's received word (SPEC §2): FCPs (step D) and the starting packet's VL and size.
  input  wire [1:0]     rx_kind_i,
  input  wire [3:0]     rx_cls_i,
  input  wire [7:0]     rx_nblk_i,
  input  wire [3:0]     rx_fc_op_i,
  input  wire [3:0]     rx_fc_vl_i,
  input  wire [11:0]    rx_fc_fctbs_i,
  input  wire [11:0]    rx_fc_fccl_i,
  input  wire           first_i,       // a legal first block (§7.2)
  input  wire [16*12-1:0] free_i,      // steps B, C: blocks leaving (this port, VL v) at v*12

  // This port's egress queues, VL v (VL15 at 15).
  input  wire [15:0]    q_empty_i,
  input  wire [16*8-1:0] head_nblk_i,  // n of each queue's head
  input  wire [7:0]     pick_nblk_i,   // n of the picked queue's head
  input  wire           tx_start_i,    // step A: the picked packet starts
  input  wire           fc_sent_i,     // step A: the pending FCP is sent

  // Step E: admission of the starting packet; a drop has cause CREDIT or VL15 (§5.4).
  output wire           admit_o,
  output wire           drop_o,
  output wire [2:0]     drop_cause_o,

  // The flow-control word pending on this port (an FCP, §5.5) and the VL arbitration's pick.
  output wire           fc_pend_o,
  output wire [1:0]     fc_kind_o,
  output wire [3:0]     fc_vl_o,
  output wire [11:0]    fc_fctbs_o,
  output wire [11:0]    fc_fccl_o,
  output wire [7:0]     pfc_en_o,
  output wire [127:0]   pfc_time_o,
  output wire           pick_valid_o,
  output wire [3:0]     pick_cls_o,

  // Debug port (SPEC §13.1): the IB register dbg_reg_i of (this port, VL dbg_cls_i).
  input  wire [7:0]     dbg_reg_i,
  input  wire [3:0]     dbg_cls_i,
  output wire [31:0]    dbg_val_o
);

  localparam [4:0] NCLS = Classes[4:0];

  wire         fcp_ok = (rx_kind_i == `LFC_KIND_FCP) && (rx_fc_op_i <= 4'd1) &&
                        ({1'b0, rx_fc_vl_i} < NCLS);
  wire [3:0]   fcp_vl = rx_fc_vl_i;
  wire [Classes*12-1:0] fctbs;
  wire [Classes*12-1:0] fccl_tx;
  wire [Classes*12-1:0] fccl_rx;
  wire [Classes*12-1:0] abr;
  wire [Classes*16-1:0] occ;
  wire [15:0]           occ15;
  wire [Classes*12-1:0] fcp_sent_fctbs;
  wire [Classes*12-1:0] fcp_sent_fccl;
  wire [Classes*16-1:0] fcp_timer;
  wire [14:0]           vl_elig;
  wire [15:0]           admit;

  genvar gc;

  generate
    for (gc = 0; gc < 16; gc = gc + 1) begin : g_vl
      localparam [3:0] VIDX = gc;

      if (gc < Classes) begin : g_data
        wire send_ok;

        lfc_credit_tx u_credit_tx (
          .clk_i       (clk_i),
          .rst_ni      (rst_ni),
          .fcp_valid_i (fcp_ok && (fcp_vl == VIDX)),
          .fcp_fccl_i  (rx_fc_fccl_i),
          .head_nblk_i (head_nblk_i[gc*8 +: 8]),
          .start_i     (tx_start_i && (pick_cls_o == VIDX)),
          .send_ok_o   (send_ok),
          .fctbs_o     (fctbs[gc*12 +: 12]),
          .fccl_o      (fccl_tx[gc*12 +: 12])
        );

        assign vl_elig[gc] = send_ok && !q_empty_i[gc];

        lfc_credit_rx #(
          .Blocks ({16'd0, VlBlocks[gc*16 +: 16]}),
          .IsVl15 (0)
        ) u_credit_rx (
          .clk_i       (clk_i),
          .rst_ni      (rst_ni),
          .fcp_valid_i (fcp_ok && (fcp_vl == VIDX)),
          .fcp_fctbs_i (rx_fc_fctbs_i),
          .req_i       (first_i && (rx_cls_i == VIDX)),
          .req_nblk_i  (rx_nblk_i),
          .free_i      (free_i[gc*12 +: 12]),
          .admit_o     (admit[gc]),
          .abr_o       (abr[gc*12 +: 12]),
          .occ_o       (occ[gc*16 +: 16]),
          .fccl_o      (fccl_rx[gc*12 +: 12])
        );
      end else if (gc == 15 && Vl15En != 0) begin : g_vl15
        wire [11:0] unused_abr15;
        wire [11:0] unused_fccl15;
        wire        unused_head15 = ^head_nblk_i[15*8 +: 8];  // VL15 has no credits (§5.4)

        lfc_credit_rx #(
          .Blocks (Vl15Blocks),
          .IsVl15 (1)
        ) u_credit_rx (
          .clk_i       (clk_i),
          .rst_ni      (rst_ni),
          .fcp_valid_i (1'b0),
          .fcp_fctbs_i (12'd0),
          .req_i       (first_i && (rx_cls_i == 4'd15)),
          .req_nblk_i  (rx_nblk_i),
          .free_i      (free_i[15*12 +: 12]),
          .admit_o     (admit[15]),
          .abr_o       (unused_abr15),
          .occ_o       (occ15),
          .fccl_o      (unused_fccl15)
        );
      end else begin : g_none
        if (gc < 15) begin : g_no_elig
          assign vl_elig[gc] = 1'b0;
          wire unused_empty = q_empty_i[gc];  // no such queue
        end else begin : g_no_vl15
          assign occ15 = 16'd0;
        end
        assign admit[gc] = 1'b0;
        // No such VL: nothing of it is ever freed, and no queue of it has a head.
        wire unused_free = ^{free_i[gc*12 +: 12], head_nblk_i[gc*8 +: 8]};
      end
    end
  endgenerate

  // Admission: a data VL drops with cause CREDIT, VL15 with cause VL15 (§5.4).
  assign admit_o      = |admit;
  assign drop_o       = first_i && !(|admit);
  assign drop_cause_o = (rx_cls_i == 4'd15) ? `LFC_DROP_VL15 : `LFC_DROP_CREDIT;

  lfc_fcp_gen #(
    .Classes    (Classes),
    .FcpPeriod  (FcpPeriod),
    .FcpHoldoff (FcpHoldoff)
  ) u_fcp_gen (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .fctbs_i      (fctbs),
    .fccl_i       (fccl_rx),
    .sent_i       (fc_sent_i),
    .pend_o       (fc_pend_o),
    .vl_o         (fc_vl_o),
    .fctbs_o      (fc_fctbs_o),
    .fccl_o       (fc_fccl_o),
    .sent_fctbs_o (fcp_sent_fctbs),
    .sent_fccl_o  (fcp_sent_fccl),
    .timer_o      (fcp_timer)
  );

  assign fc_kind_o  = `LFC_KIND_FCP;
  assign pfc_en_o   = 8'd0;
  assign pfc_time_o = 128'd0;

  wire [5:0]  hi_idx;
  wire [5:0]  lo_idx;
  wire [7:0]  hi_rem;
  wire [7:0]  lo_rem;
  wire [15:0] hi_sent;

  lfc_vlarb #(
    .HighLen   (VlarbHighLen),
    .High      (VlarbHigh),
    .LowLen    (VlarbLowLen),
    .Low       (VlarbLow),
    .HighLimit (VlarbHighLimit)
  ) u_vlarb (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .elig_i       (vl_elig),
    .elig15_i     (!q_empty_i[15]),
    .start_i      (tx_start_i),
    .nblk_i       (pick_nblk_i),
    .pick_valid_o (pick_valid_o),
    .pick_vl_o    (pick_cls_o),
    .hi_idx_o     (hi_idx),
    .lo_idx_o     (lo_idx),
    .hi_rem_o     (hi_rem),
    .lo_rem_o     (lo_rem),
    .hi_sent_o    (hi_sent)
  );

  // The IB registers for the debug port; (port, VL) ones only for VL < Classes.
  reg [31:0] dv;
  integer    v;

  always @* begin
    dv = 32'd0;
    case (dbg_reg_i)
      `LFC_REG_HI_IDX:  dv = {26'd0, hi_idx};
      `LFC_REG_LO_IDX:  dv = {26'd0, lo_idx};
      `LFC_REG_HI_REM:  dv = {24'd0, hi_rem};
      `LFC_REG_LO_REM:  dv = {24'd0, lo_rem};
      `LFC_REG_HI_SENT: dv = {16'd0, hi_sent};
      `LFC_REG_OCC15:   dv = {16'd0, occ15};
      default: begin
        for (v = 0; v < Classes; v = v + 1) begin
          if (dbg_cls_i == v[3:0]) begin
            case (dbg_reg_i)
              `LFC_REG_FCTBS:          dv = {20'd0, fctbs[v*12 +: 12]};
              `LFC_REG_FCCL:           dv = {20'd0, fccl_tx[v*12 +: 12]};
              `LFC_REG_ABR:            dv = {20'd0, abr[v*12 +: 12]};
              `LFC_REG_OCC:            dv = {16'd0, occ[v*16 +: 16]};
              `LFC_REG_FCP_SENT_FCTBS: dv = {20'd0, fcp_sent_fctbs[v*12 +: 12]};
              `LFC_REG_FCP_SENT_FCCL:  dv = {20'd0, fcp_sent_fccl[v*12 +: 12]};
              `LFC_REG_FCP_TIMER:      dv = {16'd0, fcp_timer[v*16 +: 16]};
              default:                 dv = 32'd0;
            endcase
          end
        end
      end
    endcase
  end

  assign dbg_val_o = dv;

endmodule

`default_nettype wire
