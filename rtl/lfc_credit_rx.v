// lfc_credit_rx - IB credit receive of one (ingress port, VL) (docs/SPEC.md §5.4).
//
// Data VL: abr (Adjusted Blocks Received, set from each FCP's FCTBS and advanced by every first
// block, admitted or not) and occ (blocks held). A packet of n blocks is admitted iff n <=
// vl_blocks - occ, else dropped with cause CREDIT. The advertised credit limit is
// FCCL = (abr + min(vl_blocks - occ, 2048)) mod 4096.
// VL15 (IsVl15 = 1): only occ, called occ15; no credits (IBA C7-18); a packet that does not fit
// is dropped with cause VL15.
// Admissions see occ of S(t); the blocks freed in the same cycle (step B) are subtracted
// alongside (SPEC §4.1).

`default_nettype none
`timescale 1ns / 1ps

module lfc_credit_rx #(
  parameter integer Blocks = 256,  // vl_blocks[vl], or vl15_blocks
  parameter integer IsVl15 = 0
) (
  input  wire        clk_i,
  input  wire        rst_ni,

  input  wire        fcp_valid_i,  // step D: an FCP for this VL was received
  input  wire [11:0] fcp_fctbs_i,  //   its FCTBS
  input  wire        req_i,        // step E: a legal first block on this VL
  input  wire [7:0]  req_nblk_i,   //   its n
  input  wire [11:0] free_i,       // step B: blocks of this (port, VL) leaving the switch

  output wire        admit_o,      // the requested packet is admitted
  output wire [11:0] abr_o,
  output wire [15:0] occ_o,
  output wire [11:0] fccl_o        // the advertised credit limit in S(t)
);

  localparam [15:0] BLOCKS = Blocks[15:0];

  reg [15:0] occ_d, occ_q;

  wire [15:0] free_blocks = BLOCKS - occ_q;

  assign admit_o = req_i && ({8'd0, req_nblk_i} <= free_blocks);
  assign occ_o   = occ_q;

  always @* begin
    occ_d = occ_q - {4'd0, free_i};
    if (admit_o) begin
      occ_d = occ_d + {8'd0, req_nblk_i};
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      occ_q <= 16'd0;
    end else begin
      occ_q <= occ_d;
    end
  end

  generate
  if (IsVl15 == 0) begin : g_data_vl
    reg [11:0] abr_d, abr_q;

    wire [11:0] grant = (free_blocks < 16'd2048) ? free_blocks[11:0] : 12'd2048;

    assign abr_o  = abr_q;
    assign fccl_o = abr_q + grant;

    always @* begin
      abr_d = abr_q;
      if (fcp_valid_i) begin
        abr_d = fcp_fctbs_i;
      end else if (req_i) begin
        abr_d = abr_q + {4'd0, req_nblk_i};
      end
    end

    always @(posedge clk_i) begin
      if (!rst_ni) begin
        abr_q <= 12'd0;
      end else begin
        abr_q <= abr_d;
      end
    end
  end else begin : g_vl15
    assign abr_o  = 12'd0;
    assign fccl_o = 12'd0;
    // VL15 has no credits: FCPs never name it.
    wire unused_fcp = ^{fcp_valid_i, fcp_fctbs_i};
  end
  endgenerate

endmodule

`default_nettype wire
