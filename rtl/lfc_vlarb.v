// lfc_vlarb - IB VL arbitration of one egress port (docs/SPEC.md §5.6; IBA §7.6.9).
//
// VL15 always wins. Otherwise each of the two tables (high, low) makes a pick: the current entry
// if it still has weight left and its VL is eligible, else the first later entry (cyclically,
// the current one last) with weight > 0 and an eligible VL, which starts a new turn. The high
// pick is used unless a low pick exists and the high table has used up LimitOfHighPriority
// (hi_sent >= max(1, 64 * limit); 255 = unlimited). Only the table whose pick starts a packet
// updates its index and remaining weight.

`default_nettype none
`timescale 1ns / 1ps

module lfc_vlarb #(
  parameter integer       HighLen   = 0,  // entries of the high table, 0..64
  parameter [64*12-1:0]   High      = {(64 * 12){1'b0}},  // {vl[3:0], weight[7:0]}, entry 0 low
  parameter integer       LowLen    = 2,
  parameter [64*12-1:0]   Low       = {(64 * 12){1'b0}},
  parameter integer       HighLimit = 0   // vlarb_high_limit, 0..255
) (
  input  wire        clk_i,
  input  wire        rst_ni,

  input  wire [14:0] elig_i,     // data VL v: non-empty and its head passes the send rule
  input  wire        elig15_i,   // the VL15 queue is non-empty
  input  wire        start_i,    // step B: the picked packet starts
  input  wire [7:0]  nblk_i,     //   its n

  output wire        pick_valid_o,
  output wire [3:0]  pick_vl_o,

  output wire [5:0]  hi_idx_o,
  output wire [5:0]  lo_idx_o,
  output wire [7:0]  hi_rem_o,
  output wire [7:0]  lo_rem_o,
  output wire [15:0] hi_sent_o
);

  // hi_sent below which the high table keeps priority: max(1, 64 * limit).
  localparam integer HiBudget  = (HighLimit == 0) ? 1 : 64 * HighLimit;
  localparam [15:0]  HI_BUDGET = HiBudget[15:0];

  reg [5:0]  hi_idx_d, hi_idx_q;
  reg [5:0]  lo_idx_d, lo_idx_q;
  reg [7:0]  hi_rem_d, hi_rem_q;
  reg [7:0]  lo_rem_d, lo_rem_q;
  reg [15:0] hi_sent_d, hi_sent_q;

  // The table pick of §5.6 step 2. Returns {valid, new_turn, entry[5:0], vl[3:0], weight[7:0]}.
  function [19:0] table_pick;
    input [64*12-1:0] tbl;
    input integer     len;
    input [5:0]       idx;
    input [7:0]       rem;
    input [14:0]      elig;
    integer           o;
    integer           j;
    reg   [11:0]      ent;
    reg               found;
    begin
      table_pick = 20'd0;
      found      = 1'b0;
      if (len > 0) begin
        ent = tbl[idx*12 +: 12];
        if ((ent[7:0] != 8'd0) && (rem != 8'd0) && (ent[11:8] != 4'd15) && elig[ent[11:8]]) begin
          table_pick = {1'b1, 1'b0, idx, ent};
          found      = 1'b1;
        end
        for (o = 1; o <= 64; o = o + 1) begin
          j = {26'd0, idx} + o;
          if (j >= len) begin
            j = j - len;
          end
          ent = tbl[j[5:0]*12 +: 12];
          if (!found && (o <= len) && (ent[7:0] != 8'd0) && (ent[11:8] != 4'd15) &&
              elig[ent[11:8]]) begin
            table_pick = {1'b1, 1'b1, j[5:0], ent};
            found      = 1'b1;
          end
        end
      end
    end
  endfunction

  wire [19:0] hi_pick = table_pick(High, HighLen, hi_idx_q, hi_rem_q, elig_i);
  wire [19:0] lo_pick = table_pick(Low, LowLen, lo_idx_q, lo_rem_q, elig_i);

  wire hi_valid = hi_pick[19];
  wire lo_valid = lo_pick[19];
  wire use_high = hi_valid && (!lo_valid || (HighLimit == 255) || (hi_sent_q < HI_BUDGET));
  wire use_low  = !use_high && lo_valid;

  assign pick_valid_o = elig15_i || use_high || use_low;
  assign pick_vl_o    = elig15_i ? 4'd15 : (use_high ? hi_pick[11:8] : lo_pick[11:8]);

  assign hi_idx_o  = hi_idx_q;
  assign lo_idx_o  = lo_idx_q;
  assign hi_rem_o  = hi_rem_q;
  assign lo_rem_o  = lo_rem_q;
  assign hi_sent_o = hi_sent_q;

  // Remaining weight after a packet of n blocks: rem - min(rem, n).
  function [7:0] rem_after;
    input [7:0] rem;
    input [7:0] n;
    begin
      rem_after = (rem > n) ? rem - n : 8'd0;
    end
  endfunction

  always @* begin
    hi_idx_d  = hi_idx_q;
    lo_idx_d  = lo_idx_q;
    hi_rem_d  = hi_rem_q;
    lo_rem_d  = lo_rem_q;
    hi_sent_d = hi_sent_q;
    if (start_i && !elig15_i) begin
      if (use_high) begin
        hi_idx_d  = hi_pick[17:12];
        hi_rem_d  = rem_after(hi_pick[18] ? hi_pick[7:0] : hi_rem_q, nblk_i);
        hi_sent_d = ({1'b0, hi_sent_q} + {9'd0, nblk_i} > 17'd65535) ? 16'd65535
                                                                      : hi_sent_q + {8'd0, nblk_i};
      end else if (use_low) begin
        lo_idx_d  = lo_pick[17:12];
        lo_rem_d  = rem_after(lo_pick[18] ? lo_pick[7:0] : lo_rem_q, nblk_i);
        hi_sent_d = 16'd0;
      end
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      hi_idx_q  <= 6'd0;
      lo_idx_q  <= 6'd0;
      hi_rem_q  <= 8'd0;
      lo_rem_q  <= 8'd0;
      hi_sent_q <= 16'd0;
    end else begin
      hi_idx_q  <= hi_idx_d;
      lo_idx_q  <= lo_idx_d;
      hi_rem_q  <= hi_rem_d;
      lo_rem_q  <= lo_rem_d;
      hi_sent_q <= hi_sent_d;
    end
  end

endmodule

`default_nettype wire
