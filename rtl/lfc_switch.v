// lfc_switch - the N-port lossless switch of docs/SPEC.md, cycle for cycle (SPEC §4, §13).
//
// A wrapper in the shape of verilog-ethernet's tops: the parameter checks, then one instance per
// SPEC §4 block, the frees and the debug port. Per port: receive framing, pipeline, transmit and
// the blocks of the mode, lfc_ib_port (IB credits, FCP generation and VL arbitration, §5) or
// lfc_pfc_port (PFC reception and generation, watchdog, scheduler and ECN, §6, §8, §9); per
// (egress port, class) an egress queue; in PFC mode the switch-wide buffer accounting. The
// blocks of the other mode are not built and their registers read 0 on the debug port.
//
// The parameters' single ranges are checked by rtl/lfc_switch_checks.vh and the debug port's
// register indices are `LFC_REG_<NAME> of rtl/lfc_tables.vh, both generated from tables/
// (docs/tables.md); the parameter and port lists below are checked against those tables.
//
// Cycle order (SPEC §4.1): every block computes its outputs of step A and its next state of
// steps B-H from its registers (S(t)) and the inputs (I(t)). The only chains within a cycle
// are the shared-pool admission across ports (§6.4, inside lfc_buffer) and a pipeline exit in
// the cycle of admission when Latency = 1 (§7.3). Frees (steps B, C) and admissions (step E) of
// one cycle are separate terms of each counter's next value, so they do not see each other.
//
// tx_* are functions of the registers only (§1.3); stat_* describe the events of this cycle
// (functions of S(t) and I(t)); dbg_val_o reads any register of SPEC §13.1 combinationally.

`default_nettype none
`timescale 1ns / 1ps

`include "lfc_defs.vh"
`include "lfc_tables.vh"

module lfc_switch #(
  // Common (SPEC §3.1).
  parameter integer     Mode           = 0,     // 0 IB, 1 PFC
  parameter integer     Ports          = 4,     // 2..16
  parameter integer     Classes        = 2,     // PFC 1..8, IB 1..15
  parameter integer     Latency        = 1,     // 1..4095
  parameter integer     CutThrough     = 0,
  parameter integer     MtuBlocks      = 65,    // 1..255
  parameter [31:0]      Seed           = 32'd1,
  // IB (SPEC §3.2, §5).
  parameter [15*16-1:0] VlBlocks       = {15{16'd256}},  // per data VL, VL 0 in the low bits
  parameter integer     Vl15Blocks     = 0,
  parameter integer     FcpPeriod      = 1024,
  parameter integer     FcpHoldoff     = 0,     // >= FcpPeriod: the periodic FCPs alone (§5.5)
  parameter integer     VlarbHighLen   = 0,
  parameter [64*12-1:0] VlarbHigh      = {(64 * 12){1'b0}},  // {vl[3:0], weight[7:0]}
  parameter integer     VlarbLowLen    = Classes,
  parameter [64*12-1:0] VlarbLow       = 768'he04d04c04b04a04904804704604504404304204104004,
  parameter integer     VlarbHighLimit = 0,
  // PFC (SPEC §3.2, §6, §8, §9).
  parameter [7:0]       LosslessMask   = (1 << Classes) - 1,
  parameter integer     ReserveBlocks  = 0,
  parameter integer     SharedBlocks   = 1024,
  parameter integer     HeadroomBlocks = 256,
  parameter integer     DynamicTh      = 0,
  parameter integer     XoffTh         = 128,
  parameter integer     AlphaLog2      = 0,     // -7..7
  parameter integer     XonOffset      = 8,     // 1..65535
  parameter integer     PauseQuanta    = 65535,
  parameter integer     RefreshCycles  = 32768,
  parameter [7:0]       StrictMask     = 8'h00,
  parameter [8*12-1:0]  DrrQuantum     = MtuBlocks * 96'h001001001001001001001001,
  parameter integer     WdEnable       = 0,
  parameter integer     WdDetect       = 65536,
  parameter integer     WdRestore      = 65536,
  parameter integer     WdAction       = 0,     // 0 drop, 1 forward
  parameter [7:0]       EcnMask        = 8'h00,
  parameter integer     Kmin           = 16,
  parameter integer     Kmax           = 64,
  parameter integer     Pmax           = 655,
  parameter [16*5-1:0]  SpeedDiv       = {16{5'd1}},  // per port, port 0 in the low bits
  parameter integer     WireTime       = 0,     // 1: frames take their line time (SPEC §2.4)
  // RTL only: descriptors per egress queue; 0 = the buffer size of SPEC §3.4.
  parameter integer     QueueDepth     = 0
) (
  input  wire               clk_i,
  input  wire               rst_ni,

  // Received link words (SPEC §2), port p at [p*W +: W].
  input  wire [Ports*2-1:0]   rx_kind_i,
  input  wire [Ports-1:0]     rx_sop_i,
  input  wire [Ports-1:0]     rx_eop_i,
  input  wire [Ports*4-1:0]   rx_cls_i,
  input  wire [Ports*8-1:0]   rx_nblk_i,
  input  wire [Ports*16-1:0]  rx_dst_i,
  input  wire [Ports*32-1:0]  rx_tag_i,
  input  wire [Ports*2-1:0]   rx_ecn_i,
  input  wire [Ports*6-1:0]   rx_pad_i,
  input  wire [Ports-1:0]     rx_mrg_i,
  input  wire [Ports*4-1:0]   rx_fc_op_i,
  input  wire [Ports*4-1:0]   rx_fc_vl_i,
  input  wire [Ports*12-1:0]  rx_fc_fctbs_i,
  input  wire [Ports*12-1:0]  rx_fc_fccl_i,
  input  wire [Ports*8-1:0]   rx_pfc_en_i,
  input  wire [Ports*128-1:0] rx_pfc_time_i,

  // Transmitted link words.
  output wire [Ports*2-1:0]   tx_kind_o,
  output wire [Ports-1:0]     tx_sop_o,
  output wire [Ports-1:0]     tx_eop_o,
  output wire [Ports*4-1:0]   tx_cls_o,
  output wire [Ports*8-1:0]   tx_nblk_o,
  output wire [Ports*16-1:0]  tx_dst_o,
  output wire [Ports*32-1:0]  tx_tag_o,
  output wire [Ports*2-1:0]   tx_ecn_o,
  output wire [Ports*6-1:0]   tx_pad_o,
  output wire [Ports-1:0]     tx_mrg_o,
  output wire [Ports*4-1:0]   tx_fc_op_o,
  output wire [Ports*4-1:0]   tx_fc_vl_o,
  output wire [Ports*12-1:0]  tx_fc_fctbs_o,
  output wire [Ports*12-1:0]  tx_fc_fccl_o,
  output wire [Ports*8-1:0]   tx_pfc_en_o,
  output wire [Ports*128-1:0] tx_pfc_time_o,

  // Events of this cycle (SPEC §10, §13); (p, c) at bit p*16 + c.
  output wire [Ports-1:0]     stat_drop_o,
  output wire [Ports*3-1:0]   stat_drop_cause_o,
  output wire [Ports*16-1:0]  stat_wd_drop_o,
  output wire [Ports-1:0]     stat_ecn_mark_o,
  output wire [Ports*16-1:0]  stat_xoff_o,
  output wire [Ports*16-1:0]  stat_xon_o,
  output wire [Ports*16-1:0]  stat_wd_trip_o,
  output wire [Ports*16-1:0]  stat_wd_restore_o,
  output wire [Ports-1:0]     stat_rx_malformed_o,

  // Debug port: register dbg_reg_i (SPEC §13.1) of (dbg_port_i, dbg_cls_i) in S(t).
  input  wire [7:0]           dbg_reg_i,
  input  wire [7:0]           dbg_port_i,
  input  wire [3:0]           dbg_cls_i,
  output reg  [31:0]          dbg_val_o
);

  // ---------------------------------------------------------------------------------------
  // Derived configuration
  // ---------------------------------------------------------------------------------------

  localparam integer IB     = (Mode == 0) ? 1 : 0;
  localparam integer PFC    = (Mode == 1) ? 1 : 0;
  localparam integer VL15EN = ((IB != 0) && (Vl15Blocks > 0)) ? 1 : 0;
  localparam integer PDW    = `LFC_PD_W;
  localparam integer QDW    = `LFC_QD_W;
  // Where the fields of a pipeline descriptor start (lfc_defs.vh); its low PD_COMMON bits
  // {ecn, tag, nblk} are the low bits of a queue descriptor too.
  localparam integer PD_COMMON = 42;
  localparam integer PD_CLS    = 42;
  localparam integer PD_DST    = 46;
  localparam integer PD_PAD    = 50;
  localparam [4:0]   NCLS   = Classes[4:0];
  localparam [7:0]   NPORT  = Ports[7:0];
  // Entries of the packed VL arbitration tables VlarbHigh, VlarbLow (SPEC §13).
  localparam integer VLARB_ENTRIES = 64;

  // Sum of the data VLs' buffers (SPEC §3.4).
  function integer vl_blocks_sum;
    input [15*16-1:0] blocks;
    input integer     n;
    integer           v;
    begin
      vl_blocks_sum = 0;
      for (v = 0; v < 15; v = v + 1) begin
        if (v < n) begin
          vl_blocks_sum = vl_blocks_sum + {16'd0, blocks[v*16 +: 16]};
        end
      end
    end
  endfunction

  function integer popcount8;
    input [7:0] m;
    integer     b;
    begin
      popcount8 = 0;
      for (b = 0; b < 8; b = b + 1) begin
        popcount8 = popcount8 + {31'd0, m[b]};
      end
    end
  endfunction

  // Buffer size in blocks (SPEC §3.4): a bound on the packets anywhere in the switch.
  localparam integer BUF_BLOCKS = (IB != 0) ?
      Ports * (vl_blocks_sum(VlBlocks, Classes) + Vl15Blocks) :
      Ports * Classes * ReserveBlocks + SharedBlocks +
      Ports * popcount8(LosslessMask) * HeadroomBlocks;
  localparam integer Q_DEPTH    = (QueueDepth == 0) ? BUF_BLOCKS : QueueDepth;
  localparam integer PIPE_DEPTH = (Latency - 1 < 1) ? 1 :
                                  (Latency - 1 < BUF_BLOCKS) ? Latency - 1 : BUF_BLOCKS;

  // ---------------------------------------------------------------------------------------
  // Elaboration-time checks (SPEC §3, §3.3): an illegal configuration is never built.
  // ---------------------------------------------------------------------------------------

  // The checks compare parameter fields of every width with integer limits; the widths are
  // irrelevant there (Verilog extends both sides to 32 bits), so Verilator's WIDTH is waived
  // for this section. Each check is a constant (parameters and constant functions only), so
  // that simulators and Yosys evaluate it identically at elaboration.
  /* verilator lint_off WIDTH */

  // The first port whose speed divider is outside its range (1..16), or -1.
  function integer first_bad_speed;
    input [16*5-1:0] k;
    input integer    n;
    integer          p;
    begin
      first_bad_speed = -1;
      for (p = 15; p >= 0; p = p - 1) begin
        if (p < n && (k[p*5 +: 5] < `LFC_P_SPEED_DIV_MIN ||
                      k[p*5 +: 5] > `LFC_P_SPEED_DIV_MAX)) begin
          first_bad_speed = p;
        end
      end
    end
  endfunction

  // The first port whose speed divider differs from port 0's, or -1.
  function integer first_other_speed;
    input [16*5-1:0] k;
    input integer    n;
    integer          p;
    begin
      first_other_speed = -1;
      for (p = 15; p >= 1; p = p - 1) begin
        if (p < n && k[p*5 +: 5] != k[4:0]) begin
          first_other_speed = p;
        end
      end
    end
  endfunction

  // The first of the n fields of w bits (at most 15) that is below min, or -1.
  function integer first_below;
    input [15*16-1:0] v;
    input integer     w;
    input integer     n;
    input integer     min;
    integer           i;
    begin
      first_below = -1;
      for (i = 14; i >= 0; i = i - 1) begin
        if (i < n && ((v >> (i * w)) & ((1 << w) - 1)) < min) begin
          first_below = i;
        end
      end
    end
  endfunction

  // The first of the len entries of a VL arbitration table naming a VL >= classes, or -1.
  function integer first_bad_entry;
    input [64*12-1:0] tbl;
    input integer     len;
    input integer     classes;
    integer           e;
    begin
      first_bad_entry = -1;
      for (e = 63; e >= 0; e = e - 1) begin
        if (e < len && tbl[e*12 + 8 +: 4] >= classes) begin
          first_bad_entry = e;
        end
      end
    end
  endfunction

  // The first data VL with no entry of weight > 0 in either table, or -1.
  function integer first_unarbitrated_vl;
    input [64*12-1:0] hi;
    input integer     hi_len;
    input [64*12-1:0] lo;
    input integer     lo_len;
    input integer     classes;
    integer           v;
    integer           e;
    integer           used;
    begin
      first_unarbitrated_vl = -1;
      for (v = 14; v >= 0; v = v - 1) begin
        used = 0;
        for (e = 0; e < 64; e = e + 1) begin
          if ((e < hi_len && hi[e*12 + 8 +: 4] == v && hi[e*12 +: 8] != 0) ||
              (e < lo_len && lo[e*12 + 8 +: 4] == v && lo[e*12 +: 8] != 0)) begin
            used = 1;
          end
        end
        if (v < classes && used == 0) begin
          first_unarbitrated_vl = v;
        end
      end
    end
  endfunction

  localparam integer BAD_SPEED    = first_bad_speed(SpeedDiv, Ports);
  localparam integer OTHER_SPEED  = first_other_speed(SpeedDiv, Ports);
  localparam integer LOW_VL       = first_below(VlBlocks, 16, Classes, MtuBlocks);
  localparam integer BAD_HI_ENTRY = first_bad_entry(VlarbHigh, VlarbHighLen, Classes);
  localparam integer BAD_LO_ENTRY = first_bad_entry(VlarbLow, VlarbLowLen, Classes);
  localparam integer UNARB_VL     = first_unarbitrated_vl(VlarbHigh, VlarbHighLen, VlarbLow,
                                                          VlarbLowLen, Classes);
  // DrrQuantum has 8 fields (PFC has at most 8 classes); an IB configuration may have up to 15
  // VLs, whose search would run past them (and the message below would select outside it).
  localparam integer QUANTUM_CLASSES = (Classes > 8) ? 8 : Classes;
  localparam integer LOW_QUANTUM  = first_below({144'd0, DrrQuantum}, 12, QUANTUM_CLASSES,
                                                MtuBlocks);

  // Where to read the offending field in the messages (0 when there is none).
  localparam integer BAD_SPEED_AT   = (BAD_SPEED < 0) ? 0 : BAD_SPEED;
  localparam integer OTHER_SPEED_AT = (OTHER_SPEED < 0) ? 0 : OTHER_SPEED;
  localparam integer LOW_VL_AT      = (LOW_VL < 0) ? 0 : LOW_VL;
  localparam integer LOW_QUANTUM_AT = (LOW_QUANTUM < 0) ? 0 : LOW_QUANTUM;

  // The range of each parameter on its own (SPEC §3.1, §3.2): RANGE_<KEY> and RANGE_BAD,
  // generated from tables/params.toml (their messages are in the initial block below).
`include "lfc_switch_checks.vh"

  // The combinations (SPEC §3.3) and the checks of the packed parameters' fields.
  localparam CHK_SPEED    = (BAD_SPEED >= 0);
  localparam CHK_CUT_SPD  = (CutThrough != 0 && OTHER_SPEED >= 0);
  // IB (SPEC §3.3).
  localparam CHK_VL_BLK   = (IB != 0 && LOW_VL >= 0);
  localparam CHK_TBL_LEN  = (IB != 0 && (VlarbHighLen < 0 || VlarbHighLen > VLARB_ENTRIES ||
                                         VlarbLowLen < 0 || VlarbLowLen > VLARB_ENTRIES));
  localparam CHK_ENTRY    = (IB != 0 && (BAD_HI_ENTRY >= 0 || BAD_LO_ENTRY >= 0));
  localparam CHK_UNARB    = (IB != 0 && UNARB_VL >= 0);
  // PFC (SPEC §3.3).
  localparam CHK_MASKS    = (PFC != 0 && ((LosslessMask >> Classes) != 0 ||
                                          (StrictMask >> Classes) != 0 ||
                                          (EcnMask >> Classes) != 0));
  localparam CHK_REFRESH  = (PFC != 0 && RefreshCycles >= PauseQuanta);
  localparam CHK_QUANTUM  = (PFC != 0 && LOW_QUANTUM >= 0);
  localparam CHK_K        = (PFC != 0 && Kmin >= Kmax);
  // RTL only.
  localparam CHK_QDEPTH   = (QueueDepth != 0 && QueueDepth < BUF_BLOCKS);

  localparam CFG_BAD = RANGE_BAD || CHK_SPEED || CHK_CUT_SPD || CHK_VL_BLK || CHK_TBL_LEN ||
                       CHK_ENTRY || CHK_UNARB || CHK_MASKS || CHK_REFRESH || CHK_QUANTUM ||
                       CHK_K || CHK_QDEPTH;

  initial begin
`define LFC_SWITCH_CHECK_MESSAGES
`include "lfc_switch_checks.vh"
`undef LFC_SWITCH_CHECK_MESSAGES
    if (CHK_SPEED) begin
      $display("lfc_switch: SpeedDiv[%0d] = %0d: %0d..%0d (SPEC §1.2)", BAD_SPEED,
               SpeedDiv[BAD_SPEED_AT*5 +: 5], `LFC_P_SPEED_DIV_MIN, `LFC_P_SPEED_DIV_MAX);
    end
    if (CHK_CUT_SPD) begin
      $display("lfc_switch: CutThrough = 1 with SpeedDiv[%0d] = %0d != SpeedDiv[0] = %0d: %0s",
               OTHER_SPEED, SpeedDiv[OTHER_SPEED_AT*5 +: 5], SpeedDiv[4:0],
               "a slower ingress would underrun a faster egress (SPEC §3.3)");
    end
    if (CHK_VL_BLK) begin
      $display("lfc_switch: VlBlocks[%0d] = %0d is below MtuBlocks = %0d: %0s", LOW_VL,
               VlBlocks[LOW_VL_AT*16 +: 16], MtuBlocks,
               "a full-size packet could never get credit (SPEC §3.3)");
    end
    if (CHK_TBL_LEN) begin
      $display("lfc_switch: VlarbHighLen = %0d, VlarbLowLen = %0d: each 0..%0d entries",
               VlarbHighLen, VlarbLowLen, VLARB_ENTRIES);
    end
    if (CHK_ENTRY) begin
      $display("lfc_switch: VlarbHigh entry %0d, VlarbLow entry %0d (-1: none) %0s %0d %0s",
               BAD_HI_ENTRY, BAD_LO_ENTRY, "names a VL >= Classes =", Classes, "(SPEC §3.3)");
    end
    if (CHK_UNARB) begin
      $display("lfc_switch: data VL %0d has no VL arbitration entry with weight > 0: %0s",
               UNARB_VL, "it could never be scheduled (SPEC §3.3)");
    end
    if (CHK_MASKS) begin
      $display("lfc_switch: LosslessMask = 0x%02x, StrictMask = 0x%02x, EcnMask = 0x%02x: %0s",
               LosslessMask, StrictMask, EcnMask,
               "a mask names a priority >= Classes (SPEC §3.3)");
    end
    if (CHK_REFRESH) begin
      $display("lfc_switch: RefreshCycles = %0d >= PauseQuanta = %0d: %0s", RefreshCycles,
               PauseQuanta, "the peer's pause would lapse before a refresh (SPEC §3.3)");
    end
    if (CHK_QUANTUM) begin
      $display("lfc_switch: DrrQuantum[%0d] = %0d is below MtuBlocks = %0d (SPEC §3.3)",
               LOW_QUANTUM, DrrQuantum[LOW_QUANTUM_AT*12 +: 12], MtuBlocks);
    end
    if (CHK_K) begin
      $display("lfc_switch: Kmin = %0d, Kmax = %0d: need Kmin < Kmax (SPEC §3.3)", Kmin, Kmax);
    end
    if (CHK_QDEPTH) begin
      $display("lfc_switch: QueueDepth = %0d is below the buffer size, %0d blocks: %0s",
               QueueDepth, BUF_BLOCKS, "a queue could overflow (0 selects the buffer size)");
    end
    if (CFG_BAD) begin
      $display("lfc_switch: illegal configuration, stopping");
      $finish;
    end
  end
  /* verilator lint_on WIDTH */

  // ---------------------------------------------------------------------------------------
  // Signals between the ports. Vectors that cross ports are assembled from one chunk per port
  // (a Verilator model then copies each chunk once instead of rebuilding the whole vector
  // per bit-slice assignment).
  // ---------------------------------------------------------------------------------------

  // Receive framing (§7.2) and admission (§5.4, §6.4), per ingress port.
  wire [Ports-1:0]        fr_first;
  wire [Ports-1:0]        fr_malformed;
  wire [Ports-1:0]        fr_last;
  wire [Ports-1:0]        fr_rx_malformed;
  wire [Ports-1:0]        adm_ok;
  wire [Ports-1:0]        adm_drop;
  wire [Ports*3-1:0]      adm_cause;

  // Pipeline exits (§7.3), per ingress port: the packets entering egress queues (step F).
  wire [Ports-1:0]        px_valid;
  wire [Ports*PDW-1:0]    px_desc;

  // Queue pops (steps B, C), per egress queue (p, c) at (p*16 + c)*13: {pop, ingress, nblk}.
  wire [Ports*16*13-1:0]  pop_info;

  // Blocks leaving each (ingress port, class) in this cycle, [(i*16 + c)*12 +: 12].
  reg  [Ports*16*12-1:0]  free_blk;

  // Egress queues (p, c) in the watchdog's drop state (§6.8), bit p*16 + c.
  wire [Ports*16-1:0]     wd_drop_state;

  // The debug value of each port for (dbg_reg_i, dbg_cls_i).
  wire [Ports*32-1:0]     dbg_pv;

  // PFC buffer accounting (lfc_buffer): PG (p, c) at p*Classes + c, shared_used, threshold T.
  wire [Ports*Classes*16-1:0] pg_min;
  wire [Ports*Classes*20-1:0] pg_shared;
  wire [Ports*Classes*16-1:0] pg_hdrm;
  wire [19:0]                 shared_used;
  wire [19:0]                 th;

  // Cycle number modulo 4096, for the pipeline's ready cycles (§7.3).
  reg [11:0] cyc_d, cyc_q;

  always @* begin
    cyc_d = cyc_q + 12'd1;
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      cyc_q <= 12'd0;
    end else begin
      cyc_q <= cyc_d;
    end
  end

  genvar gp;
  genvar gc;

  // Step F: each pipeline's exiting packet as an egress-queue descriptor {pad, ingress, ecn,
  // tag, nblk} (§7.4) and its queue {dst, cls}, built once here rather than in each of the
  // Ports x Classes queues that read them.
  reg [Ports*QDW-1:0] px_qdesc;
  reg [Ports*8-1:0]   px_queue;
  integer             xi;

  always @* begin
    for (xi = 0; xi < Ports; xi = xi + 1) begin
      px_qdesc[xi*QDW +: QDW] = {px_desc[xi*PDW + PD_PAD +: 6], xi[3:0],
                                 px_desc[xi*PDW +: PD_COMMON]};
      px_queue[xi*8 +: 8]     = {px_desc[xi*PDW + PD_DST +: 4], px_desc[xi*PDW + PD_CLS +: 4]};
    end
  end

  // ---------------------------------------------------------------------------------------
  // Steps B and C: the blocks leaving each (ingress port, class), summed over the egress
  // ports (§6.3: several frees of one PG in one cycle are applied as their sum).
  // ---------------------------------------------------------------------------------------

  // One block for all ports, over the queues that exist (data classes, VL15 in IB mode, §7.4),
  // summing in free_acc and writing free_blk once (each write wakes its readers in Icarus). A
  // block per ingress port over all 16 classes of every egress port made Icarus rebuild
  // free_blk from its parts on any pop, and the Verilated model run 16 loops it did not unroll
  // (a fifth of a 16-port model's time; tb/README.md, "Speed").
  reg [Ports*16*12-1:0] free_acc;
  reg [12:0]            free_pop;  // {pop, ingress, nblk} of one queue
  integer               ffi;
  integer               ffp;
  integer               ffc;

  always @* begin
    free_acc = {(Ports * 16 * 12){1'b0}};
    free_pop = 13'd0;
    for (ffc = 0; ffc < 16; ffc = ffc + 1) begin
      if ((ffc < Classes) || ((ffc == 15) && (VL15EN != 0))) begin
        for (ffp = 0; ffp < Ports; ffp = ffp + 1) begin
          free_pop = pop_info[(ffp*16 + ffc)*13 +: 13];
          for (ffi = 0; ffi < Ports; ffi = ffi + 1) begin
            if (free_pop[12] && (free_pop[11:8] == ffi[3:0])) begin
              free_acc[(ffi*16 + ffc)*12 +: 12] = free_acc[(ffi*16 + ffc)*12 +: 12] +
                                                  {4'd0, free_pop[7:0]};
            end
          end
        end
      end
    end
    free_blk = free_acc;
  end

  // ---------------------------------------------------------------------------------------
  // Per port: framing, pipeline, egress queues, transmit and the blocks of the mode
  // ---------------------------------------------------------------------------------------

  generate
    for (gp = 0; gp < Ports; gp = gp + 1) begin : g_port
      localparam integer K    = {27'd0, SpeedDiv[gp*5 +: 5]};
      localparam [3:0]   PIDX = gp;

      // The received word of this port.
      wire [1:0]   rk   = rx_kind_i[gp*2 +: 2];
      wire [3:0]   rcls = rx_cls_i[gp*4 +: 4];
      wire [7:0]   rn   = rx_nblk_i[gp*8 +: 8];
      wire [15:0]  rdst = rx_dst_i[gp*16 +: 16];
      wire [5:0]   rpad = rx_pad_i[gp*6 +: 6];

      // This port's egress queues, class c (VL15 at 15) at [c*W +: W].
      wire [15:0]       q_empty;
      wire [15:0]       q_pop;
      wire [16*QDW-1:0] q_head;
      wire [16*20-1:0]  q_len;
      wire [16*20-1:0]  q_pkts;
      wire [15:0]       wd_disc;   // step C: the head of (p, c) is discarded
      wire [16*13-1:0]  pops;      // {pop, ingress, nblk} per class
      wire [16*8-1:0]   head_nblk; // n of each queue's head (IB: the send rule, §5.3)

      // Flow-control word pending on this port, the scheduler's pick and the transmit state.
      wire         fc_pend;
      wire [1:0]   fc_kind;
      wire [3:0]   fc_vl;
      wire [11:0]  fc_fctbs;
      wire [11:0]  fc_fccl;
      wire [7:0]   pfc_en;
      wire [127:0] pfc_time;
      wire         fc_sent;
      wire         pick_valid;
      wire [3:0]   pick_cls;
      wire [1:0]   pick_ecn;   // after ECN marking (§9)
      wire         tx_start;
      wire [7:0]   tx_rem;
      wire [7:0]   rx_rem;
      wire [7:0]   slack;      // §2.4, two's complement
      wire [31:0]  dbg_mode;   // the debug value of a register of the mode's blocks

      wire [QDW-1:0] pick_head = q_head[pick_cls*QDW +: QDW];
      // The ingress port of the packet that starts matters only for the frees.
      wire unused_pick_ing = ^pick_head[`LFC_QD_ING];

      // §7.2 receive framing.
      lfc_rx_framing #(
        .Mode      (Mode),
        .Ports     (Ports),
        .Classes   (Classes),
        .MtuBlocks (MtuBlocks),
        .Vl15En    (VL15EN)
      ) u_rx_framing (
        .clk_i          (clk_i),
        .rst_ni         (rst_ni),
        .kind_i         (rk),
        .sop_i          (rx_sop_i[gp]),
        .eop_i          (rx_eop_i[gp]),
        .cls_i          (rcls),
        .nblk_i         (rn),
        .mrg_i          (rx_mrg_i[gp]),
        .dst_i          (rdst),
        .first_o        (fr_first[gp]),
        .malformed_o    (fr_malformed[gp]),
        .last_o         (fr_last[gp]),
        .rx_malformed_o (fr_rx_malformed[gp]),
        .rx_rem_o       (rx_rem)
      );

      assign stat_drop_o[gp]              = fr_malformed[gp] || adm_drop[gp];
      assign stat_drop_cause_o[gp*3 +: 3] = fr_malformed[gp] ? `LFC_DROP_MALFORMED :
                                            adm_drop[gp]     ? adm_cause[gp*3 +: 3] : 3'd0;
      assign stat_rx_malformed_o[gp]      = fr_rx_malformed[gp];

      // §7.3 pipeline.
      lfc_pipeline #(
        .Latency    (Latency),
        .CutThrough (CutThrough),
        .Depth      (PIPE_DEPTH)
      ) u_pipeline (
        .clk_i       (clk_i),
        .rst_ni      (rst_ni),
        .cyc_i       (cyc_q),
        .first_i     (fr_first[gp]),
        .admit_i     (adm_ok[gp]),
        .last_i      (fr_last[gp]),
        .desc_i      ({rpad, rdst[3:0], rcls, rx_ecn_i[gp*2 +: 2], rx_tag_i[gp*32 +: 32], rn}),
        .exit_o      (px_valid[gp]),
        .exit_desc_o (px_desc[gp*PDW +: PDW])
      );

      // §7.4 egress queues: data classes, and VL15 in IB mode.
      for (gc = 0; gc < 16; gc = gc + 1) begin : g_queue
        localparam [3:0] CIDX = gc;

        // The head of this queue on its own: the readers of one queue's head take it from here
        // rather than from q_head (a vector built from 16 parts, which Icarus rebuilds bit by
        // bit for each reader whenever any head changes).
        wire [QDW-1:0] head;

        assign q_head[gc*QDW +: QDW] = head;
        assign head_nblk[gc*8 +: 8]   = head[`LFC_QD_NBLK];

        if ((gc < Classes) || ((gc == 15) && (VL15EN != 0))) begin : g_on
          // Step F: the pipelines whose exiting packet is for this queue, and their
          // descriptors {pad, ingress, ecn, tag, nblk}.
          reg [Ports-1:0] wr_valid;
          integer         wi;

          always @* begin
            for (wi = 0; wi < Ports; wi = wi + 1) begin
              wr_valid[wi] = px_valid[wi] && (px_queue[wi*8 +: 8] == {PIDX, CIDX});
            end
          end

          lfc_queue #(
            .Ports (Ports),
            .Depth (Q_DEPTH)
          ) u_queue (
            .clk_i      (clk_i),
            .rst_ni     (rst_ni),
            .wr_valid_i (wr_valid),
            .wr_desc_i  (px_qdesc),
            .pop_i      (q_pop[gc]),
            .empty_o    (q_empty[gc]),
            .head_o     (head),
            .qlen_o     (q_len[gc*20 +: 20]),
            .qpkts_o    (q_pkts[gc*20 +: 20])
          );
        end else begin : g_off
          assign q_empty[gc]             = 1'b1;
          assign head                    = {QDW{1'b0}};
          assign q_len[gc*20 +: 20]      = 20'd0;
          assign q_pkts[gc*20 +: 20]     = 20'd0;
        end

        // Step B dequeue or step C watchdog discard (never both: §6.8, §8.1).
        assign q_pop[gc]            = (tx_start && (pick_cls == CIDX)) || wd_disc[gc];
        assign pops[gc*13 +: 13]    = {q_pop[gc], head[`LFC_QD_ING], head[`LFC_QD_NBLK]};
      end

      assign pop_info[gp*16*13 +: 16*13] = pops;

      // §5.2 transmit.
      lfc_port_tx #(
        .Port     (gp),
        .SpeedDiv (K),
        .Mode     (Mode),
        .WireTime (WireTime)
      ) u_port_tx (
        .clk_i         (clk_i),
        .rst_ni        (rst_ni),
        .fc_pend_i     (fc_pend),
        .fc_kind_i     (fc_kind),
        .fc_vl_i       (fc_vl),
        .fc_fctbs_i    (fc_fctbs),
        .fc_fccl_i     (fc_fccl),
        .pfc_en_i      (pfc_en),
        .pfc_time_i    (pfc_time),
        .pick_valid_i  (pick_valid),
        .pick_cls_i    (pick_cls),
        .pick_nblk_i   (pick_head[`LFC_QD_NBLK]),
        .pick_tag_i    (pick_head[`LFC_QD_TAG]),
        .pick_ecn_i    (pick_ecn),
        .pick_pad_i    (pick_head[`LFC_QD_PAD]),
        .start_o       (tx_start),
        .fc_sent_o     (fc_sent),
        .tx_kind_o     (tx_kind_o[gp*2 +: 2]),
        .tx_sop_o      (tx_sop_o[gp]),
        .tx_eop_o      (tx_eop_o[gp]),
        .tx_cls_o      (tx_cls_o[gp*4 +: 4]),
        .tx_nblk_o     (tx_nblk_o[gp*8 +: 8]),
        .tx_dst_o      (tx_dst_o[gp*16 +: 16]),
        .tx_tag_o      (tx_tag_o[gp*32 +: 32]),
        .tx_ecn_o      (tx_ecn_o[gp*2 +: 2]),
        .tx_pad_o      (tx_pad_o[gp*6 +: 6]),
        .tx_mrg_o      (tx_mrg_o[gp]),
        .tx_fc_op_o    (tx_fc_op_o[gp*4 +: 4]),
        .tx_fc_vl_o    (tx_fc_vl_o[gp*4 +: 4]),
        .tx_fc_fctbs_o (tx_fc_fctbs_o[gp*12 +: 12]),
        .tx_fc_fccl_o  (tx_fc_fccl_o[gp*12 +: 12]),
        .tx_pfc_en_o   (tx_pfc_en_o[gp*8 +: 8]),
        .tx_pfc_time_o (tx_pfc_time_o[gp*128 +: 128]),
        .tx_rem_o      (tx_rem),
        .slack_o       (slack)
      );

      // The debug value of this port (SPEC §13.1): the registers of every mode here, the
      // others from the mode's blocks.
      reg [31:0] pv;

      always @* begin
        case (dbg_reg_i)
          `LFC_REG_RX_REM: pv = {24'd0, rx_rem};
          `LFC_REG_TX_REM: pv = {24'd0, tx_rem};
          `LFC_REG_SLACK:  pv = {24'd0, slack};  // two's complement in its 8 bits (§13)
          `LFC_REG_QLEN:   pv = {12'd0, q_len[dbg_cls_i*20 +: 20]};
          `LFC_REG_QPKTS:  pv = {12'd0, q_pkts[dbg_cls_i*20 +: 20]};
          default:         pv = dbg_mode;
        endcase
      end

      assign dbg_pv[gp*32 +: 32] = pv;

      // The blocks of the mode: IB credits, FCPs and VL arbitration (§5), or PFC reception,
      // watchdog, generation, scheduling and ECN (§6, §8, §9).
      if (IB != 0) begin : g_ib
        lfc_ib_port #(
          .Classes        (Classes),
          .Vl15En         (VL15EN),
          .VlBlocks       (VlBlocks),
          .Vl15Blocks     (Vl15Blocks),
          .FcpPeriod      (FcpPeriod),
          .FcpHoldoff     (FcpHoldoff),
          .VlarbHighLen   (VlarbHighLen),
          .VlarbHigh      (VlarbHigh),
          .VlarbLowLen    (VlarbLowLen),
          .VlarbLow       (VlarbLow),
          .VlarbHighLimit (VlarbHighLimit)
        ) u_ib (
          .clk_i         (clk_i),
          .rst_ni        (rst_ni),
          .rx_kind_i     (rk),
          .rx_cls_i      (rcls),
          .rx_nblk_i     (rn),
          .rx_fc_op_i    (rx_fc_op_i[gp*4 +: 4]),
          .rx_fc_vl_i    (rx_fc_vl_i[gp*4 +: 4]),
          .rx_fc_fctbs_i (rx_fc_fctbs_i[gp*12 +: 12]),
          .rx_fc_fccl_i  (rx_fc_fccl_i[gp*12 +: 12]),
          .first_i       (fr_first[gp]),
          .free_i        (free_blk[gp*16*12 +: 16*12]),
          .q_empty_i     (q_empty),
          .head_nblk_i   (head_nblk),
          .pick_nblk_i   (pick_head[`LFC_QD_NBLK]),
          .tx_start_i    (tx_start),
          .fc_sent_i     (fc_sent),
          .admit_o       (adm_ok[gp]),
          .drop_o        (adm_drop[gp]),
          .drop_cause_o  (adm_cause[gp*3 +: 3]),
          .fc_pend_o     (fc_pend),
          .fc_kind_o     (fc_kind),
          .fc_vl_o       (fc_vl),
          .fc_fctbs_o    (fc_fctbs),
          .fc_fccl_o     (fc_fccl),
          .pfc_en_o      (pfc_en),
          .pfc_time_o    (pfc_time),
          .pick_valid_o  (pick_valid),
          .pick_cls_o    (pick_cls),
          .dbg_reg_i     (dbg_reg_i),
          .dbg_cls_i     (dbg_cls_i),
          .dbg_val_o     (dbg_mode)
        );

        assign pick_ecn = pick_head[`LFC_QD_ECN];  // no ECN marking in IB mode

        // No PFC state in IB mode.
        assign wd_disc                        = 16'd0;
        assign wd_drop_state[gp*16 +: 16]     = 16'd0;
        assign stat_wd_drop_o[gp*16 +: 16]    = 16'd0;
        assign stat_ecn_mark_o[gp]            = 1'b0;
        assign stat_xoff_o[gp*16 +: 16]       = 16'd0;
        assign stat_xon_o[gp*16 +: 16]        = 16'd0;
        assign stat_wd_trip_o[gp*16 +: 16]    = 16'd0;
        assign stat_wd_restore_o[gp*16 +: 16] = 16'd0;
        // PFC frames are ignored in IB mode (rx_bad_ctrl, §6.7).
        wire unused_pfc_rx = ^{rx_pfc_en_i[gp*8 +: 8], rx_pfc_time_i[gp*128 +: 128]};
      end else begin : g_pfc
        lfc_pfc_port #(
          .Port          (gp),
          .Classes       (Classes),
          .SpeedDiv      (K),
          .Seed          (Seed),
          .LosslessMask  (LosslessMask),
          .XonOffset     (XonOffset),
          .PauseQuanta   (PauseQuanta),
          .RefreshCycles (RefreshCycles),
          .StrictMask    (StrictMask),
          .DrrQuantum    (DrrQuantum),
          .WdEnable      (WdEnable),
          .WdDetect      (WdDetect),
          .WdRestore     (WdRestore),
          .WdAction      (WdAction),
          .EcnMask       (EcnMask),
          .Kmin          (Kmin),
          .Kmax          (Kmax),
          .Pmax          (Pmax)
        ) u_pfc (
          .clk_i           (clk_i),
          .rst_ni          (rst_ni),
          .rx_kind_i       (rk),
          .rx_pfc_en_i     (rx_pfc_en_i[gp*8 +: 8]),
          .rx_pfc_time_i   (rx_pfc_time_i[gp*128 +: 128]),
          .pg_min_i        (pg_min[gp*Classes*16 +: Classes*16]),
          .pg_shared_i     (pg_shared[gp*Classes*20 +: Classes*20]),
          .pg_hdrm_i       (pg_hdrm[gp*Classes*16 +: Classes*16]),
          .th_i            (th),
          .q_empty_i       (q_empty),
          .pick_nblk_i     (pick_head[`LFC_QD_NBLK]),
          .pick_qlen_i     (q_len[pick_cls*20 +: 20]),
          .pick_ecn_i      (pick_head[`LFC_QD_ECN]),
          .tx_start_i      (tx_start),
          .fc_sent_i       (fc_sent),
          .fc_pend_o       (fc_pend),
          .fc_kind_o       (fc_kind),
          .fc_vl_o         (fc_vl),
          .fc_fctbs_o      (fc_fctbs),
          .fc_fccl_o       (fc_fccl),
          .pfc_en_o        (pfc_en),
          .pfc_time_o      (pfc_time),
          .pick_valid_o    (pick_valid),
          .pick_cls_o      (pick_cls),
          .pick_ecn_o      (pick_ecn),
          .wd_disc_o       (wd_disc),
          .wd_drop_state_o (wd_drop_state[gp*16 +: 16]),
          .ecn_mark_o      (stat_ecn_mark_o[gp]),
          .xoff_o          (stat_xoff_o[gp*16 +: 16]),
          .xon_o           (stat_xon_o[gp*16 +: 16]),
          .wd_trip_o       (stat_wd_trip_o[gp*16 +: 16]),
          .wd_restore_o    (stat_wd_restore_o[gp*16 +: 16]),
          .dbg_reg_i       (dbg_reg_i),
          .dbg_cls_i       (dbg_cls_i),
          .dbg_val_o       (dbg_mode)
        );

        assign stat_wd_drop_o[gp*16 +: 16] = wd_disc;
        // FCPs are ignored in PFC mode (rx_bad_ctrl, §5.3); the IB admission is lfc_buffer's.
        wire unused_fcp_rx = ^{rx_fc_op_i[gp*4 +: 4], rx_fc_vl_i[gp*4 +: 4],
                               rx_fc_fctbs_i[gp*12 +: 12], rx_fc_fccl_i[gp*12 +: 12],
                               head_nblk};
      end
    end
  endgenerate

  // ---------------------------------------------------------------------------------------
  // PFC buffer accounting (§6.1-§6.4), switch-wide for the shared-pool chain
  // ---------------------------------------------------------------------------------------

  generate
    if (PFC != 0) begin : g_buffer
      // The watchdog drop state of each arriving packet's egress queue (§6.4).
      wire [Ports-1:0] req_wd_drop;

      for (gp = 0; gp < Ports; gp = gp + 1) begin : g_wd_drop
        wire [15:0] dst = rx_dst_i[gp*16 +: 16];
        wire [3:0]  cls = rx_cls_i[gp*4 +: 4];
        // Bit 0 is the state of queue (dst, cls), bit dst*16 + cls of wd_drop_state, when
        // that queue exists; a shift selects it for every port count without index widths.
        wire [Ports*16-1:0] state_sh = wd_drop_state >> {dst[3:0], cls};
        wire unused_state_sh = ^state_sh[Ports*16-1:1];

        assign req_wd_drop[gp] = (dst < {8'd0, NPORT}) && ({1'b0, cls} < NCLS) && state_sh[0];
      end

      lfc_buffer #(
        .Ports          (Ports),
        .Classes        (Classes),
        .LosslessMask   (LosslessMask),
        .ReserveBlocks  (ReserveBlocks),
        .SharedBlocks   (SharedBlocks),
        .HeadroomBlocks (HeadroomBlocks),
        .DynamicTh      (DynamicTh),
        .XoffTh         (XoffTh),
        .AlphaLog2      (AlphaLog2)
      ) u_buffer (
        .clk_i          (clk_i),
        .rst_ni         (rst_ni),
        .req_i          (fr_first),
        .req_cls_i      (rx_cls_i),
        .req_nblk_i     (rx_nblk_i),
        .req_wd_drop_i  (req_wd_drop),
        .free_i         (free_blk),
        .admit_o        (adm_ok),
        .drop_o         (adm_drop),
        .drop_cause_o   (adm_cause),
        .pg_min_o       (pg_min),
        .pg_shared_o    (pg_shared),
        .pg_hdrm_o      (pg_hdrm),
        .shared_used_o  (shared_used),
        .th_o           (th)
      );
    end else begin : g_no_buffer
      assign pg_min      = {(Ports * Classes * 16){1'b0}};
      assign pg_shared   = {(Ports * Classes * 20){1'b0}};
      assign pg_hdrm     = {(Ports * Classes * 16){1'b0}};
      assign shared_used = 20'd0;
      assign th          = 20'd0;
      wire unused_pg = ^{pg_min, pg_shared, pg_hdrm, th, wd_drop_state};
    end
  endgenerate

  // ---------------------------------------------------------------------------------------
  // Debug port (SPEC §13.1): combinational from the registers
  // ---------------------------------------------------------------------------------------

  always @* begin
    dbg_val_o = 32'd0;
    if (dbg_reg_i == `LFC_REG_SHARED_USED) begin
      dbg_val_o = {12'd0, shared_used};
    end else if (dbg_port_i < NPORT) begin
      dbg_val_o = dbg_pv[dbg_port_i[3:0]*32 +: 32];
    end
  end

endmodule

`default_nettype wire
