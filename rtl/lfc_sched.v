// lfc_sched - PFC egress scheduler of one port: strict priority, then DRR (docs/SPEC.md §8).
//
// Strict priorities (StrictMask) first, the highest eligible index wins. Then deficit round
// robin with carried deficit over the others: drr_ptr keeps its turn while it is eligible and
// its deficit is positive; otherwise the first eligible class after drr_ptr (cyclically, drr_ptr
// itself last) starts a new turn with deficit min(deficit, 0) + quantum. A packet of n blocks
// that starts takes n from the deficit. State changes only when the pick starts a packet.

`default_nettype none
`timescale 1ns / 1ps

module lfc_sched #(
  parameter integer    Classes    = 2,                // 1..8
  parameter [7:0]      StrictMask = 8'h00,
  parameter [8*12-1:0] DrrQuantum = {8{12'd65}}       // per class, class 0 low
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,

  input  wire [Classes-1:0]    elig_i,    // eligible queues (§8.1)
  input  wire                  start_i,   // step B: the pick starts a packet
  input  wire [7:0]            nblk_i,    //   its n

  output reg                   pick_valid_o,
  output reg  [3:0]            pick_cls_o,

  output wire [2:0]            drr_ptr_o,
  output wire [Classes*16-1:0] deficit_o  // signed, two's complement
);

  localparam integer PtrReset  = Classes - 1;
  localparam [2:0]   PTR_RESET = PtrReset[2:0];

  reg [2:0]            ptr_d, ptr_q;
  reg [Classes*16-1:0] deficit_d, deficit_q;

  assign drr_ptr_o = ptr_q;
  assign deficit_o = deficit_q;

  integer c;
  integer o;
  integer j;

  reg        strict_found;
  reg        drr_found;
  reg        new_turn;
  reg [2:0]  drr_cls;
  reg [15:0] dcur;
  reg [15:0] dbase;

  // Step A: the pick.
  always @* begin
    strict_found = 1'b0;
    pick_valid_o = 1'b0;
    pick_cls_o   = 4'd0;
    for (c = 0; c < Classes; c = c + 1) begin
      if (StrictMask[c] && elig_i[c]) begin
        strict_found = 1'b1;
        pick_cls_o   = c[3:0];  // the highest one is the last
      end
    end
    drr_found = 1'b0;
    new_turn  = 1'b0;
    drr_cls   = ptr_q;
    j         = 0;
    dcur      = 16'd0;
    // 1. drr_ptr keeps its turn while eligible with a positive deficit.
    for (c = 0; c < Classes; c = c + 1) begin
      dcur = deficit_q[c*16 +: 16];
      if ((c[2:0] == ptr_q) && !StrictMask[c] && elig_i[c] && !dcur[15] &&
          (dcur != 16'd0)) begin
        drr_found = 1'b1;
      end
    end
    // 2. Otherwise the first eligible class after drr_ptr starts a new turn.
    for (o = 1; o <= Classes; o = o + 1) begin
      j = {29'd0, ptr_q} + o;
      if (j >= Classes) begin
        j = j - Classes;
      end
      for (c = 0; c < Classes; c = c + 1) begin
        if (!drr_found && (c == j) && !StrictMask[c] && elig_i[c]) begin
          drr_found = 1'b1;
          new_turn  = 1'b1;
          drr_cls   = c[2:0];
        end
      end
    end
    if (strict_found) begin
      pick_valid_o = 1'b1;
    end else if (drr_found) begin
      pick_valid_o = 1'b1;
      pick_cls_o   = {1'b0, drr_cls};
    end
  end

  // Step B.
  always @* begin
    ptr_d     = ptr_q;
    deficit_d = deficit_q;
    dbase     = deficit_q[drr_cls*16 +: 16];
    if (new_turn) begin
      // min(deficit, 0) + quantum: leftover credit of a lost turn is forfeited.
      dbase = (dbase[15] ? dbase : 16'd0) + {4'd0, DrrQuantum[drr_cls*12 +: 12]};
    end
    if (start_i && !strict_found && drr_found) begin
      ptr_d                       = drr_cls;
      deficit_d[drr_cls*16 +: 16] = dbase - {8'd0, nblk_i};
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      ptr_q     <= PTR_RESET;
      deficit_q <= {(Classes * 16){1'b0}};
    end else begin
      ptr_q     <= ptr_d;
      deficit_q <= deficit_d;
    end
  end

endmodule

`default_nettype wire
