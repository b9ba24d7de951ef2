// tb_top.v - the Icarus top for the VPI co-simulation: lfc_switch with the configuration's
// parameters (iverilog -Ptb_top.<Param>=..., from tb-params) and its ports as wires, driven from a
// few registers that tb/vpi/cosim_vpi.c writes and sampled through one packed vector (few VPI
// calls per cycle: each costs far more than the bits it moves). No test logic here; the only
// behaviour is optional VCD dumping: +waves=FILE [+waves_from=CYCLE] (cycle c starts at time
// (c + 2) * 100, the timing of tb/vpi/cosim_vpi.c, in units of 1 ps, the simulation precision).
`timescale 1ps / 1ps
`default_nettype none
module tb_top;
  // SPEC §13. Untyped so that each takes the width of the value it is given.
  parameter Mode = 0;
  parameter Ports = 4;
  parameter Classes = 2;
  parameter Latency = 1;
  parameter CutThrough = 0;
  parameter MtuBlocks = 65;
  parameter Seed = 1;
  parameter VlBlocks = {15{16'd256}};
  parameter Vl15Blocks = 0;
  parameter FcpPeriod = 1024;
  parameter VlarbHighLen = 0;
  parameter VlarbHigh = 0;
  parameter VlarbLowLen = 0;
  parameter VlarbLow = 0;
  parameter VlarbHighLimit = 0;
  parameter LosslessMask = 3;
  parameter ReserveBlocks = 0;
  parameter SharedBlocks = 1024;
  parameter HeadroomBlocks = 256;
  parameter DynamicTh = 0;
  parameter XoffTh = 128;
  parameter AlphaLog2 = 0;
  parameter XonOffset = 8;
  parameter PauseQuanta = 65535;
  parameter RefreshCycles = 32768;
  parameter StrictMask = 0;
  parameter DrrQuantum = {8{12'd65}};
  parameter WdEnable = 0;
  parameter WdDetect = 65536;
  parameter WdRestore = 65536;
  parameter WdAction = 0;
  parameter EcnMask = 0;
  parameter Kmin = 16;
  parameter Kmax = 64;
  parameter Pmax = 655;
  parameter SpeedDiv = {4{5'd1}};

  // The per-port fields of a link word, SPEC §13, from bit 0 up: kind 2, sop 1, eop 1, cls 4,
  // nblk 8, dst 16, tag 32, ecn 2, fc_op 4, fc_vl 4, fc_fctbs 12, fc_fccl 12, pfc_en 8,
  // pfc_time 8 x 16. tb/vpi/cosim_vpi.c packs and unpacks the same layout.
  localparam integer WordW = 234;
  // The stat_* outputs of a port, from bit 0 up: drop 1, drop_cause 3, wd_drop 16, ecn_mark 1,
  // xoff 16, xon 16, wd_trip 16, wd_restore 16, rx_malformed 1.
  localparam integer StatW = 86;

  reg clk_i = 1'b0;
  reg rst_ni = 1'b0;
  // Driven by cosim_vpi.c: one register per input port (one vpi_put_value moves a whole word, and
  // only the ports whose word changed are written) and one for the three debug-port selects.
  reg [19:0] dbg_sel = 0;  // {dbg_cls_i, dbg_port_i, dbg_reg_i}
  wire [7:0] dbg_reg_i = dbg_sel[7:0];
  wire [7:0] dbg_port_i = dbg_sel[15:8];
  wire [3:0] dbg_cls_i = dbg_sel[19:16];

  wire [Ports*2-1:0] rx_kind_i;
  wire [Ports-1:0] rx_sop_i;
  wire [Ports-1:0] rx_eop_i;
  wire [Ports*4-1:0] rx_cls_i;
  wire [Ports*8-1:0] rx_nblk_i;
  wire [Ports*16-1:0] rx_dst_i;
  wire [Ports*32-1:0] rx_tag_i;
  wire [Ports*2-1:0] rx_ecn_i;
  wire [Ports*4-1:0] rx_fc_op_i;
  wire [Ports*4-1:0] rx_fc_vl_i;
  wire [Ports*12-1:0] rx_fc_fctbs_i;
  wire [Ports*12-1:0] rx_fc_fccl_i;
  wire [Ports*8-1:0] rx_pfc_en_i;
  wire [Ports*128-1:0] rx_pfc_time_i;

  wire [Ports*2-1:0] tx_kind_o;
  wire [Ports-1:0] tx_sop_o;
  wire [Ports-1:0] tx_eop_o;
  wire [Ports*4-1:0] tx_cls_o;
  wire [Ports*8-1:0] tx_nblk_o;
  wire [Ports*16-1:0] tx_dst_o;
  wire [Ports*32-1:0] tx_tag_o;
  wire [Ports*2-1:0] tx_ecn_o;
  wire [Ports*4-1:0] tx_fc_op_o;
  wire [Ports*4-1:0] tx_fc_vl_o;
  wire [Ports*12-1:0] tx_fc_fctbs_o;
  wire [Ports*12-1:0] tx_fc_fccl_o;
  wire [Ports*8-1:0] tx_pfc_en_o;
  wire [Ports*128-1:0] tx_pfc_time_o;
  wire [Ports-1:0] stat_drop_o;
  wire [Ports*3-1:0] stat_drop_cause_o;
  wire [Ports*16-1:0] stat_wd_drop_o;
  wire [Ports-1:0] stat_ecn_mark_o;
  wire [Ports*16-1:0] stat_xoff_o;
  wire [Ports*16-1:0] stat_xon_o;
  wire [Ports*16-1:0] stat_wd_trip_o;
  wire [Ports*16-1:0] stat_wd_restore_o;
  wire [Ports-1:0] stat_rx_malformed_o;
  wire [31:0] dbg_val_o;

  // Every output of every port in one vector, port p at [p*(WordW+StatW) +: WordW+StatW] (its
  // word, then its stat_* bits above): one vpi_get_value reads a whole cycle.
  wire [Ports*(WordW+StatW)-1:0] out_all;

  genvar p;
  generate
    for (p = 0; p < Ports; p = p + 1) begin : g_port
      reg [WordW-1:0] rx_w = 0;
      assign rx_kind_i[p*2 +: 2] = rx_w[1:0];
      assign rx_sop_i[p] = rx_w[2];
      assign rx_eop_i[p] = rx_w[3];
      assign rx_cls_i[p*4 +: 4] = rx_w[7:4];
      assign rx_nblk_i[p*8 +: 8] = rx_w[15:8];
      assign rx_dst_i[p*16 +: 16] = rx_w[31:16];
      assign rx_tag_i[p*32 +: 32] = rx_w[63:32];
      assign rx_ecn_i[p*2 +: 2] = rx_w[65:64];
      assign rx_fc_op_i[p*4 +: 4] = rx_w[69:66];
      assign rx_fc_vl_i[p*4 +: 4] = rx_w[73:70];
      assign rx_fc_fctbs_i[p*12 +: 12] = rx_w[85:74];
      assign rx_fc_fccl_i[p*12 +: 12] = rx_w[97:86];
      assign rx_pfc_en_i[p*8 +: 8] = rx_w[105:98];
      assign rx_pfc_time_i[p*128 +: 128] = rx_w[233:106];

      assign out_all[p*(WordW+StatW) +: WordW+StatW] = {
        stat_rx_malformed_o[p], stat_wd_restore_o[p*16 +: 16], stat_wd_trip_o[p*16 +: 16],
        stat_xon_o[p*16 +: 16], stat_xoff_o[p*16 +: 16], stat_ecn_mark_o[p],
        stat_wd_drop_o[p*16 +: 16], stat_drop_cause_o[p*3 +: 3], stat_drop_o[p],
        tx_pfc_time_o[p*128 +: 128], tx_pfc_en_o[p*8 +: 8], tx_fc_fccl_o[p*12 +: 12],
        tx_fc_fctbs_o[p*12 +: 12], tx_fc_vl_o[p*4 +: 4], tx_fc_op_o[p*4 +: 4],
        tx_ecn_o[p*2 +: 2], tx_tag_o[p*32 +: 32], tx_dst_o[p*16 +: 16], tx_nblk_o[p*8 +: 8],
        tx_cls_o[p*4 +: 4], tx_eop_o[p], tx_sop_o[p], tx_kind_o[p*2 +: 2]
      };
    end
  endgenerate

  lfc_switch #(
    .Mode(Mode), .Ports(Ports), .Classes(Classes), .Latency(Latency), .CutThrough(CutThrough),
    .MtuBlocks(MtuBlocks), .Seed(Seed), .VlBlocks(VlBlocks), .Vl15Blocks(Vl15Blocks),
    .FcpPeriod(FcpPeriod), .VlarbHighLen(VlarbHighLen), .VlarbHigh(VlarbHigh),
    .VlarbLowLen(VlarbLowLen), .VlarbLow(VlarbLow), .VlarbHighLimit(VlarbHighLimit),
    .LosslessMask(LosslessMask), .ReserveBlocks(ReserveBlocks), .SharedBlocks(SharedBlocks),
    .HeadroomBlocks(HeadroomBlocks), .DynamicTh(DynamicTh), .XoffTh(XoffTh),
    .AlphaLog2(AlphaLog2), .XonOffset(XonOffset), .PauseQuanta(PauseQuanta),
    .RefreshCycles(RefreshCycles), .StrictMask(StrictMask), .DrrQuantum(DrrQuantum),
    .WdEnable(WdEnable), .WdDetect(WdDetect), .WdRestore(WdRestore), .WdAction(WdAction),
    .EcnMask(EcnMask), .Kmin(Kmin), .Kmax(Kmax), .Pmax(Pmax), .SpeedDiv(SpeedDiv)
  ) u_dut (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .rx_kind_i(rx_kind_i), .rx_sop_i(rx_sop_i), .rx_eop_i(rx_eop_i), .rx_cls_i(rx_cls_i),
    .rx_nblk_i(rx_nblk_i), .rx_dst_i(rx_dst_i), .rx_tag_i(rx_tag_i), .rx_ecn_i(rx_ecn_i),
    .rx_fc_op_i(rx_fc_op_i), .rx_fc_vl_i(rx_fc_vl_i), .rx_fc_fctbs_i(rx_fc_fctbs_i),
    .rx_fc_fccl_i(rx_fc_fccl_i), .rx_pfc_en_i(rx_pfc_en_i), .rx_pfc_time_i(rx_pfc_time_i),
    .tx_kind_o(tx_kind_o), .tx_sop_o(tx_sop_o), .tx_eop_o(tx_eop_o), .tx_cls_o(tx_cls_o),
    .tx_nblk_o(tx_nblk_o), .tx_dst_o(tx_dst_o), .tx_tag_o(tx_tag_o), .tx_ecn_o(tx_ecn_o),
    .tx_fc_op_o(tx_fc_op_o), .tx_fc_vl_o(tx_fc_vl_o), .tx_fc_fctbs_o(tx_fc_fctbs_o),
    .tx_fc_fccl_o(tx_fc_fccl_o), .tx_pfc_en_o(tx_pfc_en_o), .tx_pfc_time_o(tx_pfc_time_o),
    .stat_drop_o(stat_drop_o), .stat_drop_cause_o(stat_drop_cause_o),
    .stat_wd_drop_o(stat_wd_drop_o), .stat_ecn_mark_o(stat_ecn_mark_o),
    .stat_xoff_o(stat_xoff_o), .stat_xon_o(stat_xon_o), .stat_wd_trip_o(stat_wd_trip_o),
    .stat_wd_restore_o(stat_wd_restore_o), .stat_rx_malformed_o(stat_rx_malformed_o),
    .dbg_reg_i(dbg_reg_i), .dbg_port_i(dbg_port_i), .dbg_cls_i(dbg_cls_i), .dbg_val_o(dbg_val_o)
  );

  // Waves (VCD), from the start of cycle waves_from on.
  reg [8*1024-1:0] waves_file;
  reg [63:0] waves_from;
  initial begin
    if ($value$plusargs("waves=%s", waves_file)) begin
      if (!$value$plusargs("waves_from=%d", waves_from)) waves_from = 0;
      $dumpfile(waves_file);
      #((waves_from + 2) * 100);
      $dumpvars(0, tb_top);
    end
  end
endmodule
`default_nettype wire
