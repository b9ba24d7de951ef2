// lfc_buffer - PFC buffer accounting of the whole switch (docs/SPEC.md §6.1-§6.4).
//
// Per PG = (ingress port, priority): pg_min (blocks in the PG's reserve), pg_shared (in the
// shared pool), pg_hdrm (in headroom); per switch shared_used = sum of pg_shared, and the
// shared-use threshold T (static xoff_th, or alpha * (shared_blocks - shared_used), §6.2).
//
// Admission (step E) of a packet of n blocks on PG (p, c): reserve first, then the shared pool if
// pg_shared + rest <= T and used + rest <= shared_blocks, where `used` chains through the ports
// in ascending order; then headroom for a lossless priority; else drop (HEADROOM or SHARED). A
// packet whose egress queue is in the watchdog's drop state is dropped first (WATCHDOG).
// Freeing (steps B, C): headroom first, then shared, then reserve; the frees of one PG in one
// cycle are applied as their sum. Admissions read S(t); frees and admissions of one cycle do not
// see each other (§4.1).

`default_nettype none
`timescale 1ns / 1ps

`include "lfc_defs.vh"

module lfc_buffer #(
  parameter integer Ports          = 4,
  parameter integer Classes        = 2,     // priorities, 1..8
  parameter [7:0]   LosslessMask   = 8'h03,
  parameter integer ReserveBlocks  = 0,     // 0..65535
  parameter integer SharedBlocks   = 1024,  // 1..2^20-1
  parameter integer HeadroomBlocks = 256,   // 0..65535
  parameter integer DynamicTh      = 0,
  parameter integer XoffTh         = 128,   // 0..2^20-1
  parameter integer AlphaLog2      = 0      // -7..7
) (
  input  wire                       clk_i,
  input  wire                       rst_ni,

  // Step E: legal first blocks, per ingress port.
  input  wire [Ports-1:0]           req_i,
  input  wire [Ports*4-1:0]         req_cls_i,
  input  wire [Ports*8-1:0]         req_nblk_i,
  input  wire [Ports-1:0]           req_wd_drop_i,  // its egress queue is in the drop state
  // Steps B and C: blocks of PG (p, c) leaving, at [(p*16 + c)*12 +: 12].
  input  wire [Ports*16*12-1:0]     free_i,

  output wire [Ports-1:0]           admit_o,
  output wire [Ports-1:0]           drop_o,
  output wire [Ports*3-1:0]         drop_cause_o,

  output wire [Ports*Classes*16-1:0] pg_min_o,    // PG (p, c) at [(p*Classes + c)*W +: W]
  output wire [Ports*Classes*20-1:0] pg_shared_o,
  output wire [Ports*Classes*16-1:0] pg_hdrm_o,
  output wire [19:0]                 shared_used_o,
  output wire [19:0]                 th_o          // T of §6.2 in S(t)
);

  localparam [15:0] RESERVE  = ReserveBlocks[15:0];
  localparam [20:0] SHARED   = SharedBlocks[20:0];
  localparam [16:0] HEADROOM = HeadroomBlocks[16:0];
  localparam [19:0] XOFF_TH  = XoffTh[19:0];
  localparam integer SHL     = (AlphaLog2 > 0) ? AlphaLog2 : 0;
  localparam integer SHR     = (AlphaLog2 < 0) ? -AlphaLog2 : 0;

  reg  [19:0] shared_used_d, shared_used_q;

  assign shared_used_o = shared_used_q;

  // §6.2: the threshold, from shared_used of S(t).
  wire [19:0] free_shared = ({1'b0, shared_used_q} < SHARED) ? SHARED[19:0] - shared_used_q
                                                             : 20'd0;
  wire [26:0] dyn_th      = ({7'd0, free_shared} << SHL) >> SHR;
  wire [19:0] th          = (DynamicTh == 0) ? XOFF_TH :
                            (dyn_th > 27'd1048575) ? 20'hFFFFF : dyn_th[19:0];
  assign th_o = th;

  // The shared-pool chain of §6.4 step 3: chain[p] is `used` for port p, chain[0] the
  // shared_used of S(t).
  // (split_var: Verilator would otherwise see the chain as a combinational loop on one signal.)
  wire [(Ports+1)*21-1:0] chain /* verilator split_var */;
  assign chain[20:0] = {1'b0, shared_used_q};
  // The chain never exceeds shared_blocks < 2^20 at its end; the top bit is for the compares.
  wire unused_chain_msb = chain[Ports*21 + 20];

  // What each port's admission adds to its PG (the PG of class req_cls_i).
  wire [Ports*16-1:0] add_min;
  wire [Ports*20-1:0] add_shared;
  wire [Ports*16-1:0] add_hdrm;

  // Shared blocks each PG frees in this cycle, PG (p, c) at [(p*Classes + c)*20 +: 20].
  wire [Ports*Classes*20-1:0] freed_shared;

  genvar gp;
  genvar gc;

  generate
    // ---- Step E: admission, ports in ascending order of the chain (§6.4) ----
    for (gp = 0; gp < Ports; gp = gp + 1) begin : g_adm
      wire [3:0]  cls  = req_cls_i[gp*4 +: 4];
      wire [7:0]  n    = req_nblk_i[gp*8 +: 8];
      wire [20:0] used = chain[gp*21 +: 21];

      // The counters of the requested PG in S(t).
      reg  [15:0] cur_min;
      reg  [19:0] cur_shared;
      reg  [15:0] cur_hdrm;
      reg         lossless;
      integer     c;

      always @* begin
        cur_min    = 16'd0;
        cur_shared = 20'd0;
        cur_hdrm   = 16'd0;
        lossless   = 1'b0;
        for (c = 0; c < Classes; c = c + 1) begin
          if (cls == c[3:0]) begin
            cur_min    = pg_min_o[(gp*Classes + c)*16 +: 16];
            cur_shared = pg_shared_o[(gp*Classes + c)*20 +: 20];
            cur_hdrm   = pg_hdrm_o[(gp*Classes + c)*16 +: 16];
            lossless   = LosslessMask[c];
          end
        end
      end

      // 1. the reserve takes r = min(n, reserve_blocks - pg_min); rest = n - r.
      wire [15:0] room = RESERVE - cur_min;
      wire [7:0]  r    = ({8'd0, n} < room) ? n : room[7:0];
      wire [7:0]  rest = n - r;
      // 3. the shared pool, below the threshold and within the pool (chain value).
      wire fits_shared = ({1'b0, cur_shared} + {13'd0, rest} <= {1'b0, th}) &&
                         (used + {13'd0, rest} <= SHARED);
      // 4. headroom, lossless priorities only.
      wire fits_hdrm   = lossless && ({1'b0, cur_hdrm} + {9'd0, rest} <= HEADROOM);

      reg        admit;
      reg        drop;
      reg  [2:0] cause;
      reg  [1:0] where;  // 0 reserve only, 1 + shared, 2 + headroom

      always @* begin
        admit = 1'b0;
        drop  = 1'b0;
        cause = 3'd0;
        where = 2'd0;
        if (req_i[gp]) begin
          if (req_wd_drop_i[gp]) begin
            drop  = 1'b1;
            cause = `LFC_DROP_WATCHDOG;
          end else if (rest == 8'd0) begin
            admit = 1'b1;
          end else if (fits_shared) begin
            admit = 1'b1;
            where = 2'd1;
          end else if (fits_hdrm) begin
            admit = 1'b1;
            where = 2'd2;
          end else begin
            drop  = 1'b1;
            cause = lossless ? `LFC_DROP_HEADROOM : `LFC_DROP_SHARED;
          end
        end
      end

      assign admit_o[gp]             = admit;
      assign drop_o[gp]              = drop;
      assign drop_cause_o[gp*3 +: 3] = cause;

      assign add_min[gp*16 +: 16]    = admit ? {8'd0, r} : 16'd0;
      assign add_shared[gp*20 +: 20] = (admit && (where == 2'd1)) ? {12'd0, rest} : 20'd0;
      assign add_hdrm[gp*16 +: 16]   = (admit && (where == 2'd2)) ? {8'd0, rest} : 16'd0;
      assign chain[(gp+1)*21 +: 21]  = used + {1'b0, add_shared[gp*20 +: 20]};
    end

    // ---- The PG registers: steps B and C free, step E admits (§6.3, §6.4) ----
    for (gp = 0; gp < Ports; gp = gp + 1) begin : g_port
      for (gc = 0; gc < Classes; gc = gc + 1) begin : g_pg
        localparam [3:0] CIDX = gc;

        reg  [15:0] min_d, min_q;
        reg  [19:0] shared_d, shared_q;
        reg  [15:0] hdrm_d, hdrm_q;

        // Free headroom first, then shared, then reserve.
        wire [11:0] f    = free_i[(gp*16 + gc)*12 +: 12];
        wire [15:0] fh   = (hdrm_q < {4'd0, f}) ? hdrm_q : {4'd0, f};
        wire [11:0] f_s  = f - fh[11:0];
        wire [19:0] fs   = (shared_q < {8'd0, f_s}) ? shared_q : {8'd0, f_s};
        wire [11:0] fm   = f_s - fs[11:0];
        wire        mine = (req_cls_i[gp*4 +: 4] == CIDX);

        always @* begin
          min_d    = min_q - {4'd0, fm};
          shared_d = shared_q - fs;
          hdrm_d   = hdrm_q - fh;
          if (mine) begin
            min_d    = min_d + add_min[gp*16 +: 16];
            shared_d = shared_d + add_shared[gp*20 +: 20];
            hdrm_d   = hdrm_d + add_hdrm[gp*16 +: 16];
          end
        end

        always @(posedge clk_i) begin
          if (!rst_ni) begin
            min_q    <= 16'd0;
            shared_q <= 20'd0;
            hdrm_q   <= 16'd0;
          end else begin
            min_q    <= min_d;
            shared_q <= shared_d;
            hdrm_q   <= hdrm_d;
          end
        end

        assign pg_min_o[(gp*Classes + gc)*16 +: 16]        = min_q;
        assign pg_shared_o[(gp*Classes + gc)*20 +: 20]     = shared_q;
        assign pg_hdrm_o[(gp*Classes + gc)*16 +: 16]       = hdrm_q;
        assign freed_shared[(gp*Classes + gc)*20 +: 20]    = fs;
      end
      // free_i has room for 16 classes per port; the priorities >= Classes never free.
      for (gc = Classes; gc < 16; gc = gc + 1) begin : g_no_pg
        wire unused_free = ^free_i[(gp*16 + gc)*12 +: 12];
      end
    end
  endgenerate

  // shared_used = sum of pg_shared: the chain's end minus the shared blocks freed.
  integer k;
  reg [20:0] fs_total;

  always @* begin
    fs_total = 21'd0;
    for (k = 0; k < Ports * Classes; k = k + 1) begin
      fs_total = fs_total + {1'b0, freed_shared[k*20 +: 20]};
    end
    shared_used_d = chain[Ports*21 +: 20] - fs_total[19:0];
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      shared_used_q <= 20'd0;
    end else begin
      shared_used_q <= shared_used_d;
    end
  end

endmodule

`default_nettype wire
