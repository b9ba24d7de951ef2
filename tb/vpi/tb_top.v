// tb_top.v - the Icarus top for the VPI co-simulation: lfc_switch with the configuration's
// parameters (iverilog -Ptb_top.<Param>=..., from tb-params), each of its input ports driven from
// a register and each output port on a wire, all of which tb/vpi/cosim_vpi.c reads and writes by
// name. No test logic here; the only behaviour is optional VCD dumping: +waves=FILE
// [+waves_from=CYCLE] (cycle c starts at time (c + 2) * 100, the timing of tb/vpi/cosim_vpi.c, in
// units of 1 ps, the simulation precision). With -DTB_NETLIST the switch is the configuration's
// flat Yosys netlist (tb/scripts/netlist.sh, SIM=icarus-netlist), which has no parameters.
//
// Speed (docs/perf-log.md): no vector here is assembled from per-port slices. vvp builds a
// net driven in parts (`assign v[p*W +: W] = ...` in a generate loop) with a strength-aware
// concatenation that it rebuilds bit by bit on every change of any part; a 1280-bit vector of
// every output, read with one vpi_get_value, cost vvp 7 % of its time on 4 ports, more than the
// reads of each output vector that replace it (only of those that changed). Each register and
// wire is the switch's own port vector (all ports' slices), so vvp moves it whole.
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
  parameter FcpHoldoff = 0;
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
  parameter WireTime = 0;
  // Not a parameter of the RTL: the digest of the configuration's parameters (tb-params id),
  // which the VPI module checks against the configuration it is run with (0: not checked).
  parameter [31:0] ParamsId = 32'd0;

  reg clk_i;
  reg rst_ni;
  // The debug-port selects in one register (they change together).
  reg [19:0] dbg_sel;  // {dbg_cls_i, dbg_port_i, dbg_reg_i}
  wire [7:0] dbg_reg_i = dbg_sel[7:0];
  wire [7:0] dbg_port_i = dbg_sel[15:8];
  wire [3:0] dbg_cls_i = dbg_sel[19:16];

  // The fields of a received link word, SPEC §13, port p at [p*W +: W]. cosim_vpi.c writes a
  // register only when one of its port slices changed.
  reg [Ports*2-1:0] rx_kind_i;
  reg [Ports-1:0] rx_sop_i;
  reg [Ports-1:0] rx_eop_i;
  reg [Ports*4-1:0] rx_cls_i;
  reg [Ports*8-1:0] rx_nblk_i;
  reg [Ports*16-1:0] rx_dst_i;
  reg [Ports*32-1:0] rx_tag_i;
  reg [Ports*2-1:0] rx_ecn_i;
  reg [Ports*6-1:0] rx_pad_i;
  reg [Ports-1:0] rx_mrg_i;
  reg [Ports*4-1:0] rx_fc_op_i;
  reg [Ports*4-1:0] rx_fc_vl_i;
  reg [Ports*12-1:0] rx_fc_fctbs_i;
  reg [Ports*12-1:0] rx_fc_fccl_i;
  reg [Ports*8-1:0] rx_pfc_en_i;
  reg [Ports*128-1:0] rx_pfc_time_i;

  // The start values, at time 0 (the VPI module starts driving at time 1). One process that
  // `iverilog -S` leaves alone (the netlist build, tb/tb.mk, synthesises every process it may
  // and warns of each initialiser it may not).
  (* ivl_synthesis_off *) initial begin
    clk_i = 1'b0;
    rst_ni = 1'b0;
    dbg_sel = 0;
    rx_kind_i = 0;
    rx_sop_i = 0;
    rx_eop_i = 0;
    rx_cls_i = 0;
    rx_nblk_i = 0;
    rx_dst_i = 0;
    rx_tag_i = 0;
    rx_ecn_i = 0;
    rx_pad_i = 0;
    rx_mrg_i = 0;
    rx_fc_op_i = 0;
    rx_fc_vl_i = 0;
    rx_fc_fctbs_i = 0;
    rx_fc_fccl_i = 0;
    rx_pfc_en_i = 0;
    rx_pfc_time_i = 0;
  end

  // The transmitted words and the stat_* events, read one vector each per cycle.
  wire [Ports*2-1:0] tx_kind_o;
  wire [Ports-1:0] tx_sop_o;
  wire [Ports-1:0] tx_eop_o;
  wire [Ports*4-1:0] tx_cls_o;
  wire [Ports*8-1:0] tx_nblk_o;
  wire [Ports*16-1:0] tx_dst_o;
  wire [Ports*32-1:0] tx_tag_o;
  wire [Ports*2-1:0] tx_ecn_o;
  wire [Ports*6-1:0] tx_pad_o;
  wire [Ports-1:0] tx_mrg_o;
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

  // The RTL takes the configuration as parameters; the netlist of tb/scripts/netlist.sh
  // (SIM=icarus-netlist) has them built in and has none.
`ifdef TB_NETLIST
  lfc_switch u_dut (
`else
  lfc_switch #(
    .Mode(Mode), .Ports(Ports), .Classes(Classes), .Latency(Latency), .CutThrough(CutThrough),
    .MtuBlocks(MtuBlocks), .Seed(Seed), .VlBlocks(VlBlocks), .Vl15Blocks(Vl15Blocks),
    .FcpPeriod(FcpPeriod), .FcpHoldoff(FcpHoldoff), .VlarbHighLen(VlarbHighLen),
    .VlarbHigh(VlarbHigh), .VlarbLowLen(VlarbLowLen), .VlarbLow(VlarbLow),
    .VlarbHighLimit(VlarbHighLimit),
    .LosslessMask(LosslessMask), .ReserveBlocks(ReserveBlocks), .SharedBlocks(SharedBlocks),
    .HeadroomBlocks(HeadroomBlocks), .DynamicTh(DynamicTh), .XoffTh(XoffTh),
    .AlphaLog2(AlphaLog2), .XonOffset(XonOffset), .PauseQuanta(PauseQuanta),
    .RefreshCycles(RefreshCycles), .StrictMask(StrictMask), .DrrQuantum(DrrQuantum),
    .WdEnable(WdEnable), .WdDetect(WdDetect), .WdRestore(WdRestore), .WdAction(WdAction),
    .EcnMask(EcnMask), .Kmin(Kmin), .Kmax(Kmax), .Pmax(Pmax), .SpeedDiv(SpeedDiv),
    .WireTime(WireTime)
  ) u_dut (
`endif
    .clk_i(clk_i), .rst_ni(rst_ni),
    .rx_kind_i(rx_kind_i), .rx_sop_i(rx_sop_i), .rx_eop_i(rx_eop_i), .rx_cls_i(rx_cls_i),
    .rx_nblk_i(rx_nblk_i), .rx_dst_i(rx_dst_i), .rx_tag_i(rx_tag_i), .rx_ecn_i(rx_ecn_i),
    .rx_pad_i(rx_pad_i), .rx_mrg_i(rx_mrg_i),
    .rx_fc_op_i(rx_fc_op_i), .rx_fc_vl_i(rx_fc_vl_i), .rx_fc_fctbs_i(rx_fc_fctbs_i),
    .rx_fc_fccl_i(rx_fc_fccl_i), .rx_pfc_en_i(rx_pfc_en_i), .rx_pfc_time_i(rx_pfc_time_i),
    .tx_kind_o(tx_kind_o), .tx_sop_o(tx_sop_o), .tx_eop_o(tx_eop_o), .tx_cls_o(tx_cls_o),
    .tx_nblk_o(tx_nblk_o), .tx_dst_o(tx_dst_o), .tx_tag_o(tx_tag_o), .tx_ecn_o(tx_ecn_o),
    .tx_pad_o(tx_pad_o), .tx_mrg_o(tx_mrg_o),
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
  (* ivl_synthesis_off *) initial begin
    // Assigned here, before $value$plusargs, so that `iverilog -S` does not take the two for
    // constants (nothing else writes them) and hand $value$plusargs a constant.
    waves_file = 0;
    waves_from = 0;
    if ($value$plusargs("waves=%s", waves_file)) begin
      if (!$value$plusargs("waves_from=%d", waves_from)) waves_from = 0;
      $dumpfile(waves_file);
      #((waves_from + 2) * 100);
      $dumpvars(0, tb_top);
    end
  end
endmodule
`default_nettype wire
