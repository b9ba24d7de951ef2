// lfc_dpi_stim - a simple stimulus for the DPI-C checker's testbench: the link partners of all
// ports of one lfc_switch, and the debug-port register selection.
//
// Each partner sits behind a link of delay 1 (SPEC §12.1): at the clock edge that ends cycle t
// it sees the switch's word of cycle t and sets its own word of cycle t+1. It sends random
// packets in consecutive slots of its port (SPEC §1.2, §2.1) and obeys the switch's flow
// control: IB, the send rule of SPEC §5.3 on the credit limit of the switch's FCPs; PFC, the
// pauses of its PFC frames (SPEC §6.7). Towards the switch: IB, a receiver with unlimited buffer
// that advertises ABR + 2048 by FCPs on change and every FcpEvery cycles (SPEC §5.4, §12.2);
// PFC, random pause frames, so that the switch's queues stop, fill and it pauses in turn.
// Packets carry a random pad and, with MrgPermille, a merged last word (mrg, SPEC §2.1, §2.4):
// legal on packets of two blocks or more, and on one-block packets too with MrgBadPermille,
// which the switch must drop as malformed (SPEC §7.2).
// Random numbers come from $urandom (Verilator: +verilator+seed+N).
`timescale 1ns / 1ps
`default_nettype none

module lfc_dpi_stim #(
  parameter int         Mode         = 0,
  parameter int         Ports        = 4,
  parameter int         Classes      = 2,
  parameter int         MtuBlocks    = 65,
  parameter bit [79:0]  SpeedDiv     = {16{5'd1}},
  parameter int         LoadPermille = 400,  // chance of a new packet in a free slot, in 1/1000
  parameter int         MaxNblk      = 8,    // packets of 1..MaxNblk blocks (at most MtuBlocks)
  parameter int         PausePermille = 3,   // PFC: chance of a pause frame in a free slot
  parameter int         MaxPause     = 300,  // PFC: longest pause sent, in quanta
  parameter int         FcpEvery     = 128,  // IB: an FCP per VL at least this often, cycles
  parameter int         MrgPermille  = 250,  // chance that a packet of >= 2 blocks merges
  parameter int         MrgBadPermille = 5   // chance that a 1-block packet has mrg (malformed)
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  // What the switch sends (the fields a partner reacts to).
  input  wire [Ports*2-1:0]   tx_kind_o,
  input  wire [Ports-1:0]     tx_sop_o,
  input  wire [Ports*4-1:0]   tx_cls_o,
  input  wire [Ports*8-1:0]   tx_nblk_o,
  input  wire [Ports*4-1:0]   tx_fc_vl_o,
  input  wire [Ports*12-1:0]  tx_fc_fctbs_o,
  input  wire [Ports*12-1:0]  tx_fc_fccl_o,
  input  wire [Ports*8-1:0]   tx_pfc_en_o,
  input  wire [Ports*128-1:0] tx_pfc_time_o,
  // What the partners send.
  output reg  [Ports*2-1:0]   rx_kind_i,
  output reg  [Ports-1:0]     rx_sop_i,
  output reg  [Ports-1:0]     rx_eop_i,
  output reg  [Ports*4-1:0]   rx_cls_i,
  output reg  [Ports*8-1:0]   rx_nblk_i,
  output reg  [Ports*16-1:0]  rx_dst_i,
  output reg  [Ports*32-1:0]  rx_tag_i,
  output reg  [Ports*2-1:0]   rx_ecn_i,
  output reg  [Ports*6-1:0]   rx_pad_i,
  output reg  [Ports-1:0]     rx_mrg_i,
  output reg  [Ports*4-1:0]   rx_fc_op_i,
  output reg  [Ports*4-1:0]   rx_fc_vl_i,
  output reg  [Ports*12-1:0]  rx_fc_fctbs_i,
  output reg  [Ports*12-1:0]  rx_fc_fccl_i,
  output reg  [Ports*8-1:0]   rx_pfc_en_i,
  output reg  [Ports*128-1:0] rx_pfc_time_i,
  // The debug port: every register of SPEC §13.1 of every port and class, one per cycle.
  output reg  [7:0]           dbg_reg_i,
  output reg  [7:0]           dbg_port_i,
  output reg  [3:0]           dbg_cls_i
);
  localparam int KIND_IDLE = 0, KIND_DATA = 1, KIND_FCP = 2, KIND_PFC = 3;  // SPEC §2
  localparam int CREDIT_MOD = 4096;    // SPEC §5.1: 12-bit counters
  localparam int CREDIT_WINDOW = 2048; // SPEC §5.3
  localparam int REGS = 32;            // SPEC §13.1: register indices 0..31
  localparam int PERMILLE = 1000;
  localparam int NBLK_MAX = (MaxNblk < MtuBlocks) ? MaxNblk : MtuBlocks;

  longint unsigned t;                  // the cycle whose inputs are being set
  // Per port: the packet being sent.
  int unsigned left[Ports];
  bit [3:0]    cur_cls[Ports];
  bit [7:0]    cur_nblk[Ports];
  bit [15:0]   cur_dst[Ports];
  bit [31:0]   cur_tag[Ports];
  bit [1:0]    cur_ecn[Ports];
  bit [5:0]    cur_pad[Ports];
  bit          cur_mrg[Ports];
  int unsigned seq[Ports];
  // IB, per port and VL: our FCTBS, the switch's FCCL for us, our ABR, the last FCP we sent.
  int unsigned fctbs[Ports][15];
  int unsigned fccl[Ports][15];
  int unsigned abr[Ports][15];
  int unsigned sent_abr[Ports][15];
  int unsigned fcp_age[Ports][15];
  // PFC, per port and priority: the first cycle the switch no longer pauses us.
  longint unsigned paused_until[Ports][8];

  // One word being built for port p.
  bit [1:0]  w_kind;
  bit        w_sop, w_eop;
  bit [3:0]  w_cls, w_fc_op, w_fc_vl;
  bit [7:0]  w_nblk, w_pfc_en;
  bit [15:0] w_dst;
  bit [31:0] w_tag;
  bit [1:0]  w_ecn;
  bit [5:0]  w_pad;
  bit        w_mrg;
  bit [11:0] w_fctbs, w_fccl;
  bit [127:0] w_pfc_time;
  int unsigned k, vl, c, q;
  bit        fc_sent;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      t <= 0;
      for (int p = 0; p < Ports; p++) begin
        left[p] = 0;
        seq[p] = 0;
        for (int v = 0; v < 15; v++) begin
          fctbs[p][v] = 0; fccl[p][v] = 0; abr[p][v] = 0; sent_abr[p][v] = 0;
          fcp_age[p][v] = FcpEvery;
        end
        for (int i = 0; i < 8; i++) paused_until[p][i] = 0;
      end
      rx_kind_i <= '0; rx_sop_i <= '0; rx_eop_i <= '0; rx_cls_i <= '0; rx_nblk_i <= '0;
      rx_dst_i <= '0; rx_tag_i <= '0; rx_ecn_i <= '0; rx_pad_i <= '0; rx_mrg_i <= '0;
      rx_fc_op_i <= '0; rx_fc_vl_i <= '0;
      rx_fc_fctbs_i <= '0; rx_fc_fccl_i <= '0; rx_pfc_en_i <= '0; rx_pfc_time_i <= '0;
      dbg_reg_i <= '0; dbg_port_i <= '0; dbg_cls_i <= '0;
    end else begin
      t <= t + 1;
      for (int p = 0; p < Ports; p++) begin
        // ---- the switch's word of this cycle ----
        if (tx_kind_o[p*2 +: 2] == 2'(KIND_DATA) && tx_sop_o[p] && Mode == 0 &&
            int'(tx_cls_o[p*4 +: 4]) < Classes) begin
          vl = tx_cls_o[p*4 +: 4];
          abr[p][vl] = (abr[p][vl] + tx_nblk_o[p*8 +: 8]) % CREDIT_MOD;
        end
        if (tx_kind_o[p*2 +: 2] == 2'(KIND_FCP) && Mode == 0 &&
            int'(tx_fc_vl_o[p*4 +: 4]) < Classes) begin
          vl = tx_fc_vl_o[p*4 +: 4];
          fccl[p][vl] = tx_fc_fccl_o[p*12 +: 12];
          abr[p][vl] = tx_fc_fctbs_o[p*12 +: 12];
        end
        k = SpeedDiv[p*5 +: 5];
        if (tx_kind_o[p*2 +: 2] == 2'(KIND_PFC) && Mode == 1)
          for (int i = 0; i < Classes; i++)
            if (tx_pfc_en_o[p*8 + i])
              // SPEC §6.7: paused for q quanta of k cycles from the next cycle on.
              paused_until[p][i] = t + 2 + longint'(tx_pfc_time_o[p*128 + i*16 +: 16]) * k;
        for (int v = 0; v < Classes; v++) fcp_age[p][v]++;

        // ---- our word of the next cycle ----
        w_kind = 2'(KIND_IDLE); w_sop = 0; w_eop = 0; w_cls = 0; w_nblk = 0; w_dst = 0;
        w_tag = 0; w_ecn = 0; w_pad = 0; w_mrg = 0; w_fc_op = 0; w_fc_vl = 0; w_fctbs = 0; w_fccl = 0;
        w_pfc_en = 0; w_pfc_time = 0;
        fc_sent = 0;
        if ((t + 1) % k != 0) begin
          // not a slot of this port (SPEC §1.2)
        end else if (left[p] > 0) begin
          // the next block of the packet being sent (SPEC §2.1)
          w_kind = 2'(KIND_DATA); w_cls = cur_cls[p]; w_nblk = cur_nblk[p];
          w_dst = cur_dst[p]; w_tag = cur_tag[p]; w_ecn = cur_ecn[p];
          w_pad = cur_pad[p]; w_mrg = cur_mrg[p];
          w_sop = 0; w_eop = (left[p] == 1);
          left[p]--;
        end else begin
          if (Mode == 0) begin
            for (int v = 0; v < Classes && !fc_sent; v++)
              if (abr[p][v] != sent_abr[p][v] || fcp_age[p][v] >= FcpEvery) begin
                w_kind = 2'(KIND_FCP); w_fc_vl = 4'(v);
                w_fctbs = 12'(fctbs[p][v]);
                w_fccl = 12'((abr[p][v] + CREDIT_WINDOW) % CREDIT_MOD);
                sent_abr[p][v] = abr[p][v];
                fcp_age[p][v] = 0;
                fc_sent = 1;
              end
          end else if ($urandom_range(PERMILLE - 1) < PausePermille) begin
            w_kind = 2'(KIND_PFC);
            w_pfc_en = 8'($urandom_range((1 << Classes) - 1, 1));
            for (int i = 0; i < Classes; i++)
              if (w_pfc_en[i])
                w_pfc_time[i*16 +: 16] = ($urandom_range(1) == 0) ? 16'd0
                                                                   : 16'($urandom_range(MaxPause, 1));
            fc_sent = 1;
          end
          if (!fc_sent && $urandom_range(PERMILLE - 1) < LoadPermille) begin
            c = $urandom_range(Classes - 1);
            q = $urandom_range(NBLK_MAX, 1);
            // SPEC §5.3: CR = fctbs + n; allowed when (fccl - CR) mod 4096 <= 2048.
            if ((Mode == 0 && ((fccl[p][c] + 2 * CREDIT_MOD - fctbs[p][c] - q) % CREDIT_MOD)
                              <= CREDIT_WINDOW) ||
                (Mode == 1 && t + 1 >= paused_until[p][c])) begin
              seq[p]++;
              cur_cls[p] = 4'(c); cur_nblk[p] = 8'(q);
              cur_dst[p] = 16'($urandom_range(Ports - 1));
              cur_tag[p] = {8'(p), 24'(seq[p])};
              cur_ecn[p] = 2'($urandom_range(2));
              cur_pad[p] = 6'($urandom_range(63));
              cur_mrg[p] = $urandom_range(PERMILLE - 1) < ((q >= 2) ? MrgPermille
                                                                     : MrgBadPermille);
              if (Mode == 0) fctbs[p][c] = (fctbs[p][c] + q) % CREDIT_MOD;
              // A merged packet takes q - 1 words (SPEC §2.1); a malformed one (q = 1) is one
              // word that the switch drops whole.
              left[p] = (cur_mrg[p] && q >= 2) ? q - 2 : q - 1;
              w_kind = 2'(KIND_DATA); w_sop = 1; w_eop = (left[p] == 0); w_cls = cur_cls[p];
              w_nblk = cur_nblk[p]; w_dst = cur_dst[p]; w_tag = cur_tag[p];
              w_ecn = cur_ecn[p]; w_pad = cur_pad[p]; w_mrg = cur_mrg[p];
            end
          end
        end
        rx_kind_i[p*2 +: 2] <= w_kind;
        rx_sop_i[p] <= w_sop;
        rx_eop_i[p] <= w_eop;
        rx_cls_i[p*4 +: 4] <= w_cls;
        rx_nblk_i[p*8 +: 8] <= w_nblk;
        rx_dst_i[p*16 +: 16] <= w_dst;
        rx_tag_i[p*32 +: 32] <= w_tag;
        rx_ecn_i[p*2 +: 2] <= w_ecn;
        rx_pad_i[p*6 +: 6] <= w_pad;
        rx_mrg_i[p] <= w_mrg;
        rx_fc_op_i[p*4 +: 4] <= w_fc_op;
        rx_fc_vl_i[p*4 +: 4] <= w_fc_vl;
        rx_fc_fctbs_i[p*12 +: 12] <= w_fctbs;
        rx_fc_fccl_i[p*12 +: 12] <= w_fccl;
        rx_pfc_en_i[p*8 +: 8] <= w_pfc_en;
        rx_pfc_time_i[p*128 +: 128] <= w_pfc_time;
      end
      dbg_reg_i <= 8'((t + 1) % REGS);
      dbg_port_i <= 8'(((t + 1) / REGS) % Ports);
      dbg_cls_i <= 4'(((t + 1) / (REGS * Ports)) % Classes);
    end
  end
endmodule

`default_nettype wire
