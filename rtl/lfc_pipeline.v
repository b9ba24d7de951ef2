// lfc_pipeline - the forwarding pipeline of one ingress port (docs/SPEC.md §7.3).
//
// An admitted packet gets a ready cycle r: t_sop + Latency with cut-through, else t_last +
// Latency (t_last: the cycle its last block is received). It leaves the pipeline for its egress
// queue in step F of cycle r - 1. A store-and-forward packet waits in a holding register until
// its last block arrives. Ready cycles of one ingress port are strictly increasing, so the
// pipeline is a FIFO and at most one packet leaves it per cycle. With Latency = 1 a packet leaves
// in the cycle it becomes ready to enter (r - 1 = t), so there is no FIFO at all.
//
// Ready cycles are kept modulo 4096: every packet in the FIFO has r in [t + 1, t + Latency - 1] and
// Latency <= 4095, so comparing r with t + 1 modulo 4096 is exact.

`default_nettype none
`timescale 1ns / 1ps

`include "lfc_defs.vh"

module lfc_pipeline #(
  parameter integer Latency    = 1,    // 1..4095 cycles
  parameter integer CutThrough = 0,
  parameter integer Depth      = 1     // FIFO entries, >= min(Latency - 1, buffer blocks)
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire [11:0]          cyc_i,     // cycle number t modulo 4096

  input  wire                 first_i,   // legal first block (lfc_rx_framing)
  input  wire                 admit_i,   // ... and admitted (§5.4, §6.4)
  input  wire                 last_i,    // last block of the current packet
  input  wire [`LFC_PD_W-1:0] desc_i,    // descriptor of the first block

  output wire                 exit_o,    // a packet enters its egress queue in this cycle
  output wire [`LFC_PD_W-1:0] exit_desc_o
);

  // The packet that is pushed into the pipeline in this cycle, with ready cycle t + Latency.
  wire                 push;
  wire [`LFC_PD_W-1:0] push_desc;

  generate
  if (CutThrough != 0) begin : g_cut_through
    assign push      = first_i && admit_i;
    assign push_desc = desc_i;
    // Cut-through needs neither the last block nor a holding register.
    wire unused_last = last_i;
  end else begin : g_store_forward
    reg                 cur_valid_d, cur_valid_q;
    reg [`LFC_PD_W-1:0] cur_desc_d, cur_desc_q;

    assign push      = first_i ? (admit_i && last_i) : (last_i && cur_valid_q);
    assign push_desc = first_i ? desc_i : cur_desc_q;

    always @* begin
      cur_valid_d = cur_valid_q;
      cur_desc_d  = cur_desc_q;
      if (first_i) begin
        cur_valid_d = admit_i && !last_i;
        cur_desc_d  = desc_i;
      end else if (last_i) begin
        cur_valid_d = 1'b0;
      end
    end

    always @(posedge clk_i) begin
      if (!rst_ni) begin
        cur_valid_q <= 1'b0;
        cur_desc_q  <= {`LFC_PD_W{1'b0}};
      end else begin
        cur_valid_q <= cur_valid_d;
        cur_desc_q  <= cur_desc_d;
      end
    end
  end
  endgenerate

  generate
  if (Latency == 1) begin : g_direct
    assign exit_o      = push;
    assign exit_desc_o = push_desc;
    wire unused_cyc = ^cyc_i;
    // No FIFO here; with cut-through there is no holding register either, so nothing in this
    // pipeline is clocked or reset.
    wire unused_clk = clk_i ^ rst_ni;
  end else begin : g_fifo
    localparam integer AW = (Depth > 1) ? $clog2(Depth) : 1;
    localparam integer EW = `LFC_PD_W + 12;  // {ready[11:0], desc}
    localparam integer  Last = Depth - 1;
    localparam [AW-1:0] LAST = Last[AW-1:0];
    localparam [11:0]   LAT  = Latency[11:0];

    reg [EW-1:0]  mem_q [0:Depth-1];
    reg [AW-1:0]  wr_ptr_d, wr_ptr_q;
    reg [AW-1:0]  rd_ptr_d, rd_ptr_q;
    reg [AW:0]    count_d, count_q;

    wire [EW-1:0] head     = mem_q[rd_ptr_q];
    wire          nonempty = (count_q != {(AW + 1){1'b0}});
    wire          pop      = nonempty && (head[EW-1 -: 12] == cyc_i + 12'd1);

    assign exit_o      = pop;
    assign exit_desc_o = head[`LFC_PD_W-1:0];

    always @* begin
      wr_ptr_d = wr_ptr_q;
      rd_ptr_d = rd_ptr_q;
      count_d  = count_q;
      if (push) begin
        wr_ptr_d = (wr_ptr_q == LAST) ? {AW{1'b0}} : wr_ptr_q + {{(AW - 1){1'b0}}, 1'b1};
      end
      if (pop) begin
        rd_ptr_d = (rd_ptr_q == LAST) ? {AW{1'b0}} : rd_ptr_q + {{(AW - 1){1'b0}}, 1'b1};
      end
      case ({push, pop})
        2'b10:   count_d = count_q + {{AW{1'b0}}, 1'b1};
        2'b01:   count_d = count_q - {{AW{1'b0}}, 1'b1};
        default: count_d = count_q;
      endcase
    end

    always @(posedge clk_i) begin
      if (!rst_ni) begin
        wr_ptr_q <= {AW{1'b0}};
        rd_ptr_q <= {AW{1'b0}};
        count_q  <= {(AW + 1){1'b0}};
      end else begin
        wr_ptr_q <= wr_ptr_d;
        rd_ptr_q <= rd_ptr_d;
        count_q  <= count_d;
      end
    end

    // Storage: not reset, read only where count says it is valid.
    always @(posedge clk_i) begin
      if (push) begin
        mem_q[wr_ptr_q] <= {cyc_i + LAT, push_desc};
      end
    end
  end
  endgenerate

endmodule

`default_nettype wire
