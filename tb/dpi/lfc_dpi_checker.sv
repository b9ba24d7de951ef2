// lfc_dpi_checker - checks an lfc_switch against the C model every cycle, through DPI-C.
//
// Bound beside every lfc_switch instance (tb/dpi/lfc_dpi_bind.sv), with the switch's parameters
// and all its ports as inputs: it only observes. At each rising clock edge it sees cycle t
// (SPEC §1.3) as it was just before the edge: the inputs I(t), the outputs O(t), the stat_*_o
// events of cycle t and dbg_val_o, the register the testbench selected, in S(t). It gives the
// model the same inputs, steps it, and compares every tx_*_o bus, every stat_*_o bus and the
// debug register; each difference is an $error with the model's MISMATCH report, and a cycle
// with any is $fatal (Ibex's cosim checker does the same). While rst_ni is low the model is
// held in reset too.
`timescale 1ns / 1ps
`default_nettype none

module lfc_dpi_checker
  import lfc_dpi_pkg::*;
#(
  // lfc_switch's parameters (SPEC §13), passed through by the bind.
  parameter int          Mode           = 0,
  parameter int          Ports          = 4,
  parameter int          Classes        = 2,
  parameter int          Latency        = 1,
  parameter int          CutThrough     = 0,
  parameter int          MtuBlocks      = 65,
  parameter bit [31:0]   Seed           = 32'd1,
  parameter bit [239:0]  VlBlocks       = {15{16'd256}},
  parameter int          Vl15Blocks     = 0,
  parameter int          FcpPeriod      = 1024,
  parameter int          FcpHoldoff     = 0,
  parameter int          VlarbHighLen   = 0,
  parameter bit [767:0]  VlarbHigh      = '0,
  parameter int          VlarbLowLen    = 0,
  parameter bit [767:0]  VlarbLow       = '0,
  parameter int          VlarbHighLimit = 0,
  parameter bit [7:0]    LosslessMask   = 8'h3,
  parameter int          ReserveBlocks  = 0,
  parameter int          SharedBlocks   = 1024,
  parameter int          HeadroomBlocks = 256,
  parameter int          DynamicTh      = 0,
  parameter int          XoffTh         = 128,
  parameter int          AlphaLog2      = 0,
  parameter int          XonOffset      = 8,
  parameter int          PauseQuanta    = 65535,
  parameter int          RefreshCycles  = 32768,
  parameter bit [7:0]    StrictMask     = 8'h00,
  parameter bit [95:0]   DrrQuantum     = '0,
  parameter int          WdEnable       = 0,
  parameter int          WdDetect       = 65536,
  parameter int          WdRestore      = 65536,
  parameter int          WdAction       = 0,
  parameter bit [7:0]    EcnMask        = 8'h00,
  parameter int          Kmin           = 16,
  parameter int          Kmax           = 64,
  parameter int          Pmax           = 655,
  parameter bit [79:0]   SpeedDiv       = '0,
  parameter int          WireTime       = 0
) (
  input wire                 clk_i,
  input wire                 rst_ni,
  input wire [Ports*2-1:0]   rx_kind_i,
  input wire [Ports-1:0]     rx_sop_i,
  input wire [Ports-1:0]     rx_eop_i,
  input wire [Ports*4-1:0]   rx_cls_i,
  input wire [Ports*8-1:0]   rx_nblk_i,
  input wire [Ports*16-1:0]  rx_dst_i,
  input wire [Ports*32-1:0]  rx_tag_i,
  input wire [Ports*2-1:0]   rx_ecn_i,
  input wire [Ports*6-1:0]   rx_pad_i,
  input wire [Ports-1:0]     rx_mrg_i,
  input wire [Ports*4-1:0]   rx_fc_op_i,
  input wire [Ports*4-1:0]   rx_fc_vl_i,
  input wire [Ports*12-1:0]  rx_fc_fctbs_i,
  input wire [Ports*12-1:0]  rx_fc_fccl_i,
  input wire [Ports*8-1:0]   rx_pfc_en_i,
  input wire [Ports*128-1:0] rx_pfc_time_i,
  input wire [Ports*2-1:0]   tx_kind_o,
  input wire [Ports-1:0]     tx_sop_o,
  input wire [Ports-1:0]     tx_eop_o,
  input wire [Ports*4-1:0]   tx_cls_o,
  input wire [Ports*8-1:0]   tx_nblk_o,
  input wire [Ports*16-1:0]  tx_dst_o,
  input wire [Ports*32-1:0]  tx_tag_o,
  input wire [Ports*2-1:0]   tx_ecn_o,
  input wire [Ports*6-1:0]   tx_pad_o,
  input wire [Ports-1:0]     tx_mrg_o,
  input wire [Ports*4-1:0]   tx_fc_op_o,
  input wire [Ports*4-1:0]   tx_fc_vl_o,
  input wire [Ports*12-1:0]  tx_fc_fctbs_o,
  input wire [Ports*12-1:0]  tx_fc_fccl_o,
  input wire [Ports*8-1:0]   tx_pfc_en_o,
  input wire [Ports*128-1:0] tx_pfc_time_o,
  input wire [Ports-1:0]     stat_drop_o,
  input wire [Ports*3-1:0]   stat_drop_cause_o,
  input wire [Ports*16-1:0]  stat_wd_drop_o,
  input wire [Ports-1:0]     stat_ecn_mark_o,
  input wire [Ports*16-1:0]  stat_xoff_o,
  input wire [Ports*16-1:0]  stat_xon_o,
  input wire [Ports*16-1:0]  stat_wd_trip_o,
  input wire [Ports*16-1:0]  stat_wd_restore_o,
  input wire [Ports-1:0]     stat_rx_malformed_o,
  input wire [7:0]           dbg_reg_i,
  input wire [7:0]           dbg_port_i,
  input wire [3:0]           dbg_cls_i,
  input wire [31:0]          dbg_val_o
);

  // The model's configuration, from the same parameters the RTL was elaborated with. Only the
  // sections of this mode: the other mode's parameters do not exist in the RTL.
  function automatic string cfg_text();
    string s;
    s = $sformatf("switch.mode=%s; switch.ports=%0d; switch.classes=%0d; ",
                  (Mode == 0) ? "ib" : "pfc", Ports, Classes);
    s = {s, $sformatf("switch.latency=%0d; switch.cut_through=%0d; switch.mtu_blocks=%0d; ",
                      Latency, CutThrough, MtuBlocks)};
    s = {s, $sformatf("switch.seed=%0d; switch.speed_div=%s; switch.wire_time=%0d", Seed,
                      list_text(1024'(SpeedDiv), Ports, 5), WireTime)};
    if (Mode == 0) begin
      s = {s, $sformatf("; ib.vl_blocks=%s; ib.vl15_blocks=%0d; ib.fcp_period=%0d",
                        list_text(1024'(VlBlocks), Classes, 16), Vl15Blocks, FcpPeriod)};
      s = {s, $sformatf("; ib.fcp_holdoff=%0d", FcpHoldoff)};
      s = {s, $sformatf("; ib.vlarb_high=%s; ib.vlarb_low=%s; ib.vlarb_high_limit=%0d",
                        vlarb_text(VlarbHigh, VlarbHighLen), vlarb_text(VlarbLow, VlarbLowLen),
                        VlarbHighLimit)};
    end else begin
      s = {s, $sformatf("; pfc.lossless_mask=%0d; pfc.reserve_blocks=%0d; pfc.shared_blocks=%0d",
                        LosslessMask, ReserveBlocks, SharedBlocks)};
      s = {s, $sformatf("; pfc.headroom_blocks=%0d; pfc.dynamic_th=%0d; pfc.xoff_th=%0d",
                        HeadroomBlocks, DynamicTh, XoffTh)};
      s = {s, $sformatf("; pfc.alpha_log2=%0d; pfc.xon_offset=%0d; pfc.pause_quanta=%0d",
                        AlphaLog2, XonOffset, PauseQuanta)};
      s = {s, $sformatf("; pfc.refresh_cycles=%0d; pfc.strict_mask=%0d; pfc.drr_quantum=%s",
                        RefreshCycles, StrictMask, list_text(1024'(DrrQuantum), Classes, 12))};
      s = {s, $sformatf("; pfc.wd_enable=%0d; pfc.wd_detect=%0d; pfc.wd_restore=%0d",
                        WdEnable, WdDetect, WdRestore)};
      s = {s, $sformatf("; pfc.wd_action=%s; pfc.ecn_mask=%0d; pfc.kmin=%0d; pfc.kmax=%0d",
                        (WdAction == 0) ? "drop" : "forward", EcnMask, Kmin, Kmax)};
      s = {s, $sformatf("; pfc.pmax=%0d", Pmax)};
    end
    return s;
  endfunction

  chandle model;
  longint unsigned cycles_checked = 0;
  longint unsigned mismatches = 0;
  longint unsigned packets_out = 0;   // DATA first blocks the switch sent
  longint unsigned fc_words_out = 0;  // FCPs and PFC frames the switch sent
  longint unsigned events = 0;        // model events (drops, marks, xoff/xon, ...)
  int step_events;
  int errors;
  longint reg_expected;

  initial begin
    model = lfc_dpi_create($sformatf("%m"), cfg_text());
    if (lfc_dpi_ok(model) == 0)
      $fatal(1, "%m: the model rejects the RTL's parameters: %s\n  config: %s",
             lfc_dpi_message(model), cfg_text());
  end

  // The observed buses, zero-extended to the package's width.
  function automatic bus_t rx_bus(input int b);
    case (b)
      BUS_KIND:     return bus_t'(rx_kind_i);
      BUS_SOP:      return bus_t'(rx_sop_i);
      BUS_EOP:      return bus_t'(rx_eop_i);
      BUS_CLS:      return bus_t'(rx_cls_i);
      BUS_NBLK:     return bus_t'(rx_nblk_i);
      BUS_DST:      return bus_t'(rx_dst_i);
      BUS_TAG:      return bus_t'(rx_tag_i);
      BUS_ECN:      return bus_t'(rx_ecn_i);
      BUS_FC_OP:    return bus_t'(rx_fc_op_i);
      BUS_FC_VL:    return bus_t'(rx_fc_vl_i);
      BUS_FC_FCTBS: return bus_t'(rx_fc_fctbs_i);
      BUS_FC_FCCL:  return bus_t'(rx_fc_fccl_i);
      BUS_PFC_EN:   return bus_t'(rx_pfc_en_i);
      BUS_PAD:      return bus_t'(rx_pad_i);
      BUS_MRG:      return bus_t'(rx_mrg_i);
      default:      return bus_t'(rx_pfc_time_i);
    endcase
  endfunction

  function automatic bus_t tx_bus(input int b);
    case (b)
      BUS_KIND:     return bus_t'(tx_kind_o);
      BUS_SOP:      return bus_t'(tx_sop_o);
      BUS_EOP:      return bus_t'(tx_eop_o);
      BUS_CLS:      return bus_t'(tx_cls_o);
      BUS_NBLK:     return bus_t'(tx_nblk_o);
      BUS_DST:      return bus_t'(tx_dst_o);
      BUS_TAG:      return bus_t'(tx_tag_o);
      BUS_ECN:      return bus_t'(tx_ecn_o);
      BUS_FC_OP:    return bus_t'(tx_fc_op_o);
      BUS_FC_VL:    return bus_t'(tx_fc_vl_o);
      BUS_FC_FCTBS: return bus_t'(tx_fc_fctbs_o);
      BUS_FC_FCCL:  return bus_t'(tx_fc_fccl_o);
      BUS_PFC_EN:   return bus_t'(tx_pfc_en_o);
      BUS_PAD:      return bus_t'(tx_pad_o);
      BUS_MRG:      return bus_t'(tx_mrg_o);
      default:      return bus_t'(tx_pfc_time_o);
    endcase
  endfunction

  function automatic bus_t stat_bus(input int s);
    case (s)
      STAT_DROP:       return bus_t'(stat_drop_o);
      STAT_DROP_CAUSE: return bus_t'(stat_drop_cause_o);
      STAT_WD_DROP:    return bus_t'(stat_wd_drop_o);
      STAT_ECN_MARK:   return bus_t'(stat_ecn_mark_o);
      STAT_XOFF:       return bus_t'(stat_xoff_o);
      STAT_XON:        return bus_t'(stat_xon_o);
      STAT_WD_TRIP:    return bus_t'(stat_wd_trip_o);
      STAT_WD_RESTORE: return bus_t'(stat_wd_restore_o);
      default:         return bus_t'(stat_rx_malformed_o);
    endcase
  endfunction

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      void'(lfc_dpi_reset(model));
    end else begin
      errors = 0;
      // The register the testbench selected, in S(t): before the model steps.
      reg_expected = lfc_dpi_reg(model, int'(dbg_reg_i), int'(dbg_port_i), int'(dbg_cls_i));
      for (int b = 0; b < BUSES; b++) void'(lfc_dpi_set_rx(model, b, rx_bus(b)));
      step_events = lfc_dpi_step(model);
      events += longint'(step_events);
      for (int p = 0; p < Ports; p++) begin
        if (tx_kind_o[p*2 +: 2] == 2'd1 && tx_sop_o[p]) packets_out++;
        if (tx_kind_o[p*2 +: 2] >= 2'd2) fc_words_out++;
      end
      for (int b = 0; b < BUSES; b++)
        if (lfc_dpi_check_tx(model, b, tx_bus(b)) != 0) begin
          $error("%s", lfc_dpi_message(model));
          errors++;
        end
      for (int s = 0; s < STATS; s++)
        if (lfc_dpi_check_stat(model, s, stat_bus(s)) != 0) begin
          $error("%s", lfc_dpi_message(model));
          errors++;
        end
      if (lfc_dpi_check_dbg(model, int'(dbg_reg_i), int'(dbg_port_i), int'(dbg_cls_i),
                            reg_expected, int'(dbg_val_o)) != 0) begin
        $error("%s", lfc_dpi_message(model));
        errors++;
      end
      mismatches += longint'(errors);
      if (errors != 0)
        $fatal(1, "%m: %0d mismatches in cycle %0d (RTL against the C model)", errors,
               lfc_dpi_cycle(model));
      cycles_checked <= cycles_checked + 1;
    end
  end

  final begin
    $display("lfc_dpi_checker %m: %0d cycles checked, %0d mismatches", cycles_checked,
             mismatches);
    $display("  the switch sent %0d packets and %0d flow-control words; %0d model events",
             packets_out, fc_words_out, events);
    lfc_dpi_destroy(model);
  end

endmodule

`default_nettype wire
