// buffer_props - formal harness for lfc_buffer, the PFC buffer accounting (docs/SPEC.md §6.1-§6.4,
// §7, §10).
//
// Property BUFFER_SUM: the shared-buffer counters always equal the sum of what is held. The
// harness keeps, per PG = (ingress port, priority), `held`: the blocks of the packets admitted
// and not yet freed (those in pipelines and egress queues, §7.2: charged at the first block,
// freed when the packet leaves or is discarded). The rest of the switch is free: any legal
// first block on any port in any cycle (several ports in one cycle exercise the §6.4 chain),
// and frees of any PG of at most what it holds (§6.3; steps B and C of one cycle are summed).
//
// Assertions (the property, §10 invariants):
//   B1 shared_used = sum over PGs of pg_shared, and shared_used <= shared_blocks;
//   B2 per PG, pg_min + pg_shared + pg_hdrm = held (the counters are exactly what is queued);
//   B3 pg_min <= reserve_blocks, pg_hdrm <= headroom_blocks, and a lossy PG never holds
//      headroom;
//   B4 a request is admitted or dropped, never both, and nothing happens without a request.
// Lemma:
//   B5 every pg_shared <= shared_blocks (without it the sum of B1 could wrap around 2^20 in an
//      unreachable state that induction would have to consider).

`default_nettype none
`timescale 1ns / 1ps

module buffer_props #(
  parameter integer Ports          = 2,
  parameter integer Classes        = 2,
  parameter [7:0]   LosslessMask   = 8'h01,
  parameter integer ReserveBlocks  = 2,
  parameter integer SharedBlocks   = 16,
  parameter integer HeadroomBlocks = 6,
  parameter integer DynamicTh      = 0,
  parameter integer XoffTh         = 8,
  parameter integer AlphaLog2      = 0,
  parameter integer MtuBlocks      = 4
) (
  input wire                   clk_i,
  input wire                   rst_ni,
  input wire [Ports-1:0]       req_i,
  input wire [Ports*4-1:0]     req_cls_i,
  input wire [Ports*8-1:0]     req_nblk_i,
  input wire [Ports-1:0]       req_wd_drop_i,
  input wire [Ports*16*12-1:0] free_i
);

  localparam integer NPG = Ports * Classes;

  wire [Ports-1:0]      admit;
  wire [Ports-1:0]      drop;
  wire [Ports*3-1:0]    cause;
  wire [NPG*16-1:0]     pg_min;
  wire [NPG*20-1:0]     pg_shared;
  wire [NPG*16-1:0]     pg_hdrm;
  wire [19:0]           shared_used;
  wire [19:0]           th;

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
  ) u_dut (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .req_i         (req_i),
    .req_cls_i     (req_cls_i),
    .req_nblk_i    (req_nblk_i),
    .req_wd_drop_i (req_wd_drop_i),
    .free_i        (free_i),
    .admit_o       (admit),
    .drop_o        (drop),
    .drop_cause_o  (cause),
    .pg_min_o      (pg_min),
    .pg_shared_o   (pg_shared),
    .pg_hdrm_o     (pg_hdrm),
    .shared_used_o (shared_used),
    .th_o          (th)
  );

  // held[p][c]: blocks admitted to PG (p, c) and not yet freed.
  reg [NPG*20-1:0] held_q;
  reg [NPG*20-1:0] held_d;
  integer p;
  integer c;

  always @* begin
    held_d = held_q;
    for (p = 0; p < Ports; p = p + 1) begin
      for (c = 0; c < Classes; c = c + 1) begin
        held_d[(p*Classes + c)*20 +: 20] = held_d[(p*Classes + c)*20 +: 20] -
                                           {8'd0, free_i[(p*16 + c)*12 +: 12]};
        if (admit[p] && (req_cls_i[p*4 +: 4] == c[3:0])) begin
          held_d[(p*Classes + c)*20 +: 20] = held_d[(p*Classes + c)*20 +: 20] +
                                             {12'd0, req_nblk_i[p*8 +: 8]};
        end
      end
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      held_q <= {(NPG * 20){1'b0}};
    end else begin
      held_q <= held_d;
    end
  end

  reg init_q = 1'b1;
  always @(posedge clk_i) begin
    init_q <= 1'b0;
  end

`ifdef FORMAL
  reg [19:0] sum_shared;
  reg [19:0] pg_sum;
  always @* begin
    assume(rst_ni == !init_q);
    sum_shared = 20'd0;
    for (p = 0; p < Ports; p = p + 1) begin
      // Legal first blocks (§7.2): a class of this mode, 1..mtu blocks.
      if (req_i[p]) begin
        assume(req_cls_i[p*4 +: 4] < Classes);
        assume(req_nblk_i[p*8 +: 8] != 8'd0 && req_nblk_i[p*8 +: 8] <= MtuBlocks);
      end
      for (c = 0; c < 16; c = c + 1) begin
        if (c < Classes) begin
          // Frees: at most what the PG holds.
          assume({8'd0, free_i[(p*16 + c)*12 +: 12]} <= held_q[(p*Classes + c)*20 +: 20]);
        end else begin
          assume(free_i[(p*16 + c)*12 +: 12] == 12'd0);
        end
      end
      if (!init_q) begin
        assert(!(admit[p] && drop[p]));                                         // B4
        assert(req_i[p] || (!admit[p] && !drop[p]));                            // B4
        for (c = 0; c < Classes; c = c + 1) begin
          sum_shared = sum_shared + pg_shared[(p*Classes + c)*20 +: 20];
          pg_sum     = {4'd0, pg_min[(p*Classes + c)*16 +: 16]} +
                       pg_shared[(p*Classes + c)*20 +: 20] +
                       {4'd0, pg_hdrm[(p*Classes + c)*16 +: 16]};
          assert(pg_sum == held_q[(p*Classes + c)*20 +: 20]);                    // B2
          assert(pg_min[(p*Classes + c)*16 +: 16] <= ReserveBlocks);             // B3
`ifndef FORMAL_PROPERTY_ONLY
          assert(pg_shared[(p*Classes + c)*20 +: 20] <= SharedBlocks);           // B5
`endif
          assert(pg_hdrm[(p*Classes + c)*16 +: 16] <= HeadroomBlocks);           // B3
          if (!LosslessMask[c]) begin
            assert(pg_hdrm[(p*Classes + c)*16 +: 16] == 16'd0);                  // B3
          end
        end
      end
    end
    if (!init_q) begin
      assert(shared_used == sum_shared);                                         // B1
      assert(shared_used <= SharedBlocks);                                       // B1
    end
  end
`endif

endmodule

`default_nettype wire
