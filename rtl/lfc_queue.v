// lfc_queue - one egress queue (egress port, class) of packet descriptors (docs/SPEC.md §7.4).
//
// A FIFO of {pad, ingress, ecn, tag, nblk} with qlen (blocks) and qpkts (packets). Several ingress
// pipelines may enter the queue in one cycle (step F, §7.3); they enter in ascending ingress
// order: write port i goes to the tail plus the number of lower write ports that are active. At
// most one descriptor leaves per cycle: the head, when the egress port starts it (step B) or the
// watchdog discards it (step C, §6.8); never both, since a queue in the watchdog's drop state is
// not eligible. Depth must be at least the number of packets the buffer can hold (every packet
// holds at least one block, §7.4); the top checks it at elaboration.

`default_nettype none
`timescale 1ns / 1ps

`include "lfc_defs.vh"

module lfc_queue #(
  parameter integer Ports = 4,
  parameter integer Depth = 16
) (
  input  wire                       clk_i,
  input  wire                       rst_ni,

  input  wire [Ports-1:0]           wr_valid_i,  // ingress i enters a packet
  input  wire [Ports*`LFC_QD_W-1:0] wr_desc_i,   // its descriptor, ingress i at [i*W +: W]
  input  wire                       pop_i,       // the head leaves

  output wire                       empty_o,
  output wire [`LFC_QD_W-1:0]       head_o,      // 0 when empty
  output wire [19:0]                qlen_o,
  output wire [19:0]                qpkts_o
);

  localparam integer AW = (Depth > 1) ? $clog2(Depth) : 1;

  reg [`LFC_QD_W-1:0] mem_q [0:Depth-1];
  reg [AW-1:0]        wr_ptr_d, wr_ptr_q;
  reg [AW-1:0]        rd_ptr_d, rd_ptr_q;
  reg [19:0]          qlen_d, qlen_q;
  reg [19:0]          qpkts_d, qpkts_q;
  reg [Ports*AW-1:0]  wr_addr;  // where write port i writes, [i*AW +: AW]

  // Add a small offset to a pointer, modulo Depth.
  function [AW-1:0] ptr_add;
    input [AW-1:0] ptr;
    input integer  off;
    integer        sum;
    begin
      sum = {{(32 - AW){1'b0}}, ptr} + off;
      if (sum >= Depth) begin
        sum = sum - Depth;
      end
      ptr_add = sum[AW-1:0];
    end
  endfunction

  wire [`LFC_QD_W-1:0] head = mem_q[rd_ptr_q];

  assign empty_o = (qpkts_q == 20'd0);
  assign head_o  = empty_o ? {`LFC_QD_W{1'b0}} : head;
  assign qlen_o  = qlen_q;
  assign qpkts_o = qpkts_q;

  integer i;
  integer nwr;

  always @* begin
    nwr     = 0;
    wr_addr = {(Ports * AW){1'b0}};
    qlen_d  = qlen_q;
    for (i = 0; i < Ports; i = i + 1) begin
      wr_addr[i*AW +: AW] = ptr_add(wr_ptr_q, nwr);
      if (wr_valid_i[i]) begin
        nwr    = nwr + 1;
        qlen_d = qlen_d + {12'd0, wr_desc_i[i*`LFC_QD_W + 0 +: 8]};
      end
    end
    wr_ptr_d = ptr_add(wr_ptr_q, nwr);
    qpkts_d  = qpkts_q + nwr[19:0];
    rd_ptr_d = rd_ptr_q;
    if (pop_i) begin
      rd_ptr_d = ptr_add(rd_ptr_q, 1);
      qpkts_d  = qpkts_d - 20'd1;
      qlen_d   = qlen_d - {12'd0, head[`LFC_QD_NBLK]};
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      wr_ptr_q <= {AW{1'b0}};
      rd_ptr_q <= {AW{1'b0}};
      qlen_q   <= 20'd0;
      qpkts_q  <= 20'd0;
    end else begin
      wr_ptr_q <= wr_ptr_d;
      rd_ptr_q <= rd_ptr_d;
      qlen_q   <= qlen_d;
      qpkts_q  <= qpkts_d;
    end
  end

  // Storage: not reset; only the entries that qpkts counts are ever read.
  integer w;
  always @(posedge clk_i) begin
    for (w = 0; w < Ports; w = w + 1) begin
      if (wr_valid_i[w]) begin
        mem_q[wr_addr[w*AW +: AW]] <= wr_desc_i[w*`LFC_QD_W +: `LFC_QD_W];
      end
    end
  end

endmodule

`default_nettype wire
