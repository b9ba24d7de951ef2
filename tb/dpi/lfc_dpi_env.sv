// lfc_dpi_env - one lfc_switch with its link partners (lfc_dpi_stim); the checker comes with
// the bind of tb/dpi/lfc_dpi_bind.sv. The parameters are a configuration of SPEC §3 (the
// others keep lfc_switch's defaults).
`timescale 1ns / 1ps
`default_nettype none

module lfc_dpi_env #(
  parameter int        Mode           = 0,
  parameter int        Ports          = 4,
  parameter int        Classes        = 2,
  parameter int        FcpPeriod      = 1024,
  parameter int        SharedBlocks   = 1024,
  parameter int        HeadroomBlocks = 256,
  parameter int        XoffTh         = 128,
  parameter int        PauseQuanta    = 65535,
  parameter int        RefreshCycles  = 32768,
  parameter bit [7:0]  EcnMask        = 8'h00,
  parameter int        Kmin           = 16,
  parameter int        Kmax           = 64,
  parameter int        Pmax           = 655,
  parameter bit [79:0] SpeedDiv       = {16{5'd1}},
  parameter int        WireTime       = 0
) (
  input wire clk_i,
  input wire rst_ni
);
  wire [Ports*2-1:0]   rx_kind, tx_kind;
  wire [Ports-1:0]     rx_sop, rx_eop, tx_sop, tx_eop;
  wire [Ports*4-1:0]   rx_cls, tx_cls, rx_fc_op, tx_fc_op, rx_fc_vl, tx_fc_vl;
  wire [Ports*8-1:0]   rx_nblk, tx_nblk, rx_pfc_en, tx_pfc_en;
  wire [Ports*16-1:0]  rx_dst, tx_dst;
  wire [Ports*32-1:0]  rx_tag, tx_tag;
  wire [Ports*2-1:0]   rx_ecn, tx_ecn;
  wire [Ports*6-1:0]   rx_pad;
  wire [Ports-1:0]     rx_mrg;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [Ports*6-1:0]   tx_pad;  // checked by the bound checker only
  wire [Ports-1:0]     tx_mrg;
  /* verilator lint_on UNUSEDSIGNAL */
  wire [Ports*12-1:0]  rx_fc_fctbs, tx_fc_fctbs, rx_fc_fccl, tx_fc_fccl;
  wire [Ports*128-1:0] rx_pfc_time, tx_pfc_time;
  wire [7:0]           dbg_reg, dbg_port;
  wire [3:0]           dbg_cls;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [Ports-1:0]     stat_drop, stat_ecn_mark, stat_rx_malformed;
  wire [Ports*3-1:0]   stat_drop_cause;
  wire [Ports*16-1:0]  stat_wd_drop, stat_xoff, stat_xon, stat_wd_trip, stat_wd_restore;
  wire [31:0]          dbg_val;
  /* verilator lint_on UNUSEDSIGNAL */

  lfc_switch #(
    .Mode(Mode), .Ports(Ports), .Classes(Classes), .FcpPeriod(FcpPeriod),
    .SharedBlocks(SharedBlocks), .HeadroomBlocks(HeadroomBlocks), .XoffTh(XoffTh),
    .PauseQuanta(PauseQuanta), .RefreshCycles(RefreshCycles), .EcnMask(EcnMask), .Kmin(Kmin),
    .Kmax(Kmax), .Pmax(Pmax), .SpeedDiv(SpeedDiv), .WireTime(WireTime)
  ) u_switch (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .rx_kind_i(rx_kind), .rx_sop_i(rx_sop), .rx_eop_i(rx_eop), .rx_cls_i(rx_cls),
    .rx_nblk_i(rx_nblk), .rx_dst_i(rx_dst), .rx_tag_i(rx_tag), .rx_ecn_i(rx_ecn),
    .rx_pad_i(rx_pad), .rx_mrg_i(rx_mrg),
    .rx_fc_op_i(rx_fc_op), .rx_fc_vl_i(rx_fc_vl), .rx_fc_fctbs_i(rx_fc_fctbs),
    .rx_fc_fccl_i(rx_fc_fccl), .rx_pfc_en_i(rx_pfc_en), .rx_pfc_time_i(rx_pfc_time),
    .tx_kind_o(tx_kind), .tx_sop_o(tx_sop), .tx_eop_o(tx_eop), .tx_cls_o(tx_cls),
    .tx_nblk_o(tx_nblk), .tx_dst_o(tx_dst), .tx_tag_o(tx_tag), .tx_ecn_o(tx_ecn),
    .tx_pad_o(tx_pad), .tx_mrg_o(tx_mrg),
    .tx_fc_op_o(tx_fc_op), .tx_fc_vl_o(tx_fc_vl), .tx_fc_fctbs_o(tx_fc_fctbs),
    .tx_fc_fccl_o(tx_fc_fccl), .tx_pfc_en_o(tx_pfc_en), .tx_pfc_time_o(tx_pfc_time),
    .stat_drop_o(stat_drop), .stat_drop_cause_o(stat_drop_cause), .stat_wd_drop_o(stat_wd_drop),
    .stat_ecn_mark_o(stat_ecn_mark), .stat_xoff_o(stat_xoff), .stat_xon_o(stat_xon),
    .stat_wd_trip_o(stat_wd_trip), .stat_wd_restore_o(stat_wd_restore),
    .stat_rx_malformed_o(stat_rx_malformed),
    .dbg_reg_i(dbg_reg), .dbg_port_i(dbg_port), .dbg_cls_i(dbg_cls), .dbg_val_o(dbg_val)
  );

  lfc_dpi_stim #(
    .Mode(Mode), .Ports(Ports), .Classes(Classes), .SpeedDiv(SpeedDiv)
  ) u_stim (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .tx_kind_o(tx_kind), .tx_sop_o(tx_sop), .tx_cls_o(tx_cls), .tx_nblk_o(tx_nblk),
    .tx_fc_vl_o(tx_fc_vl), .tx_fc_fctbs_o(tx_fc_fctbs), .tx_fc_fccl_o(tx_fc_fccl),
    .tx_pfc_en_o(tx_pfc_en), .tx_pfc_time_o(tx_pfc_time),
    .rx_kind_i(rx_kind), .rx_sop_i(rx_sop), .rx_eop_i(rx_eop), .rx_cls_i(rx_cls),
    .rx_nblk_i(rx_nblk), .rx_dst_i(rx_dst), .rx_tag_i(rx_tag), .rx_ecn_i(rx_ecn),
    .rx_pad_i(rx_pad), .rx_mrg_i(rx_mrg),
    .rx_fc_op_i(rx_fc_op), .rx_fc_vl_i(rx_fc_vl), .rx_fc_fctbs_i(rx_fc_fctbs),
    .rx_fc_fccl_i(rx_fc_fccl), .rx_pfc_en_i(rx_pfc_en), .rx_pfc_time_i(rx_pfc_time),
    .dbg_reg_i(dbg_reg), .dbg_port_i(dbg_port), .dbg_cls_i(dbg_cls)
  );
endmodule

`default_nettype wire
