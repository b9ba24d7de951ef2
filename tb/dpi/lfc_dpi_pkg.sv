// lfc_dpi_pkg - the lfc C model for SystemVerilog testbenches, through DPI-C (tb/dpi/lfc_dpi.c).
//
// In the style of OpenTitan's model wrappers: the package only declares the C functions and the
// numbers they take; the model is cmodel/ (liblfc), unchanged. A model is a chandle, created
// from a configuration text of "section.key=value" items (lfc/flat.h: the keys of
// lfc_switch_cfg_set, the [switch]/[ib]/[pfc] keys of tb/configs/*.ini); cfg_text() below
// builds that text from lfc_switch's own parameters, so the RTL and the model cannot be
// configured apart. A cycle: lfc_dpi_set_rx for each rx bus observed, lfc_dpi_reg for the debug
// register of S(t), lfc_dpi_step, then lfc_dpi_get_tx/lfc_dpi_get_stat (the expected buses) or
// lfc_dpi_check_* (compare and write the report, read with lfc_dpi_message).
//
// Buses cross as BUS_BITS-bit vectors, zero-extended: port p of a bus of W bits per port is
// bits [p*W +: W] (SPEC §13).
`timescale 1ns / 1ps
package lfc_dpi_pkg;

  // The widest bus of the largest RTL: 16 ports x 8 priorities x 16 bits of pfc_time.
  localparam int unsigned BUS_BITS = 2048;
  typedef bit [BUS_BITS-1:0] bus_t;

  // Link-word buses, SPEC §2 order (lfc/flat.h LFC_FLAT_KIND ...; pfc_time is one bus), then
  // pad and mrg (SPEC 0.3, §2.4), which lfc/flat.h numbers after the pause times.
  localparam int BUS_KIND = 0, BUS_SOP = 1, BUS_EOP = 2, BUS_CLS = 3, BUS_NBLK = 4, BUS_DST = 5,
                 BUS_TAG = 6, BUS_ECN = 7, BUS_FC_OP = 8, BUS_FC_VL = 9, BUS_FC_FCTBS = 10,
                 BUS_FC_FCCL = 11, BUS_PFC_EN = 12, BUS_PFC_TIME = 13, BUS_PAD = 14,
                 BUS_MRG = 15, BUSES = 16;
  // stat_*_o outputs (lfc/flat.h LFC_FLAT_STAT_*).
  localparam int STAT_DROP = 0, STAT_DROP_CAUSE = 1, STAT_WD_DROP = 2, STAT_ECN_MARK = 3,
                 STAT_XOFF = 4, STAT_XON = 5, STAT_WD_TRIP = 6, STAT_WD_RESTORE = 7,
                 STAT_RX_MALFORMED = 8, STATS = 9;

  // A model from a configuration text; check lfc_dpi_ok, and lfc_dpi_message says why not.
  import "DPI-C" function chandle lfc_dpi_create(input string name, input string cfg_text);
  import "DPI-C" function int lfc_dpi_ok(input chandle h);
  // The creation error, or the report of the last failed check.
  import "DPI-C" function string lfc_dpi_message(input chandle h);
  import "DPI-C" function void lfc_dpi_destroy(input chandle h);
  // Reset state, cycle 0.
  import "DPI-C" function int lfc_dpi_reset(input chandle h);
  // The cycle the last step simulated.
  import "DPI-C" function longint lfc_dpi_cycle(input chandle h);
  // An rx bus as observed in this cycle.
  import "DPI-C" function int lfc_dpi_set_rx(input chandle h, input int bus, input bus_t v);
  // Register reg (SPEC §13.1, dbg_reg_i numbering) of (port, cls) in the current state.
  import "DPI-C" function longint lfc_dpi_reg(input chandle h, input int reg_idx, input int port,
                                              input int cls);
  // One cycle; the number of model events, or -1.
  import "DPI-C" function int lfc_dpi_step(input chandle h);
  // Expected buses of the last step.
  import "DPI-C" function void lfc_dpi_get_tx(input chandle h, input int bus, output bus_t v);
  import "DPI-C" function void lfc_dpi_get_stat(input chandle h, input int stat, output bus_t v);
  // Comparisons with the last step: 0 equal, 1 differ (report in lfc_dpi_message).
  import "DPI-C" function int lfc_dpi_check_tx(input chandle h, input int bus, input bus_t actual);
  import "DPI-C" function int lfc_dpi_check_stat(input chandle h, input int stat,
                                                 input bus_t actual);
  import "DPI-C" function int lfc_dpi_check_dbg(input chandle h, input int reg_idx,
                                                input int port, input int cls,
                                                input longint expected, input int actual);

  // "a,b,c": n fields of w bits each from a packed parameter, field 0 in the low bits.
  function automatic string list_text(input bit [1023:0] packed_v, input int n, input int w);
    string s = "";
    for (int i = 0; i < n; i++) begin
      int unsigned x = 0;
      for (int b = 0; b < w; b++) x[b] = packed_v[i * w + b];
      s = {s, (i > 0) ? "," : "", $sformatf("%0d", x)};
    end
    return s;
  endfunction

  // A VL arbitration table (SPEC §13: entries {vl[3:0], weight[7:0]}, entry 0 in the low bits)
  // as "vl:weight, ..." or "none".
  function automatic string vlarb_text(input bit [64*12-1:0] table_v, input int len);
    string s = "";
    if (len == 0) return "none";
    for (int i = 0; i < len; i++) begin
      bit [11:0] e = table_v[i * 12 +: 12];
      s = {s, (i > 0) ? "," : "", $sformatf("%0d:%0d", e[11:8], e[7:0])};
    end
    return s;
  endfunction

endpackage
