// switch_props - the shared-buffer counters inside a whole lfc_switch (docs/SPEC.md §6.1-§6.4,
// §10), whatever its links deliver.
//
// Property SWITCH_SHARED_SUM: in a PFC switch of 2 ports and 1 lossless priority, in every
// cycle
//   W1 shared_used = pg_shared(0, 0) + pg_shared(1, 0) (the §10 invariant, with the frees
//      coming from the switch's own pipelines and egress queues, not from a harness);
//   W2 shared_used <= shared_blocks, and per PG pg_hdrm <= headroom_blocks.
// Not asserted: pg_min <= reserve_blocks. The buffer frees the reserve without a floor, so that
// bound rests on the frees never exceeding what a PG holds, i.e. on the descriptors in the
// egress queues matching the counters: an invariant over the queue memories, not written yet.
// Every input of the switch is free in every cycle (any link word on either port, legal or
// not: any kind, class, length, pad and mrg, PFC frame), so no environment assumption is made.
// The switch charges line time (WireTime = 1, §2.4), so merged packets and idle gaps occur.
// Lemma:
//   W3 each pg_shared <= shared_blocks (without it the sum of W1 could wrap around 2^20 in an
//      unreachable state that induction would have to consider).
//
// The counters are registers inside the switch, not ports, and Yosys 0.23 does not read
// hierarchical references in Verilog: the probe wires sw_* below are left undriven here and
// formal.sh connects them after `flatten` to the switch's internal wires (`connect -set`,
// PROBES in formal.sh). A probe whose internal wire is renamed makes Yosys stop with an error,
// which formal.sh reports as FAILED.

`default_nettype none
`timescale 1ns / 1ps

module switch_props #(
  parameter integer SharedBlocks   = 8,
  parameter integer HeadroomBlocks = 4,
  parameter integer ReserveBlocks  = 1
) (
  input wire         clk_i,
  input wire         rst_ni,
  input wire [3:0]   rx_kind_i,
  input wire [1:0]   rx_sop_i,
  input wire [1:0]   rx_eop_i,
  input wire [7:0]   rx_cls_i,
  input wire [15:0]  rx_nblk_i,
  input wire [31:0]  rx_dst_i,
  input wire [63:0]  rx_tag_i,
  input wire [3:0]   rx_ecn_i,
  input wire [11:0]  rx_pad_i,
  input wire [1:0]   rx_mrg_i,
  input wire [15:0]  rx_pfc_en_i,
  input wire [255:0] rx_pfc_time_i
);

  localparam integer Ports = 2;

  // Probes, connected by formal.sh to u_sw.shared_used, u_sw.pg_shared and u_sw.pg_hdrm
  // (PG (p, 0) at p*W).
  wire [19:0]         sw_shared_used;
  wire [Ports*20-1:0] sw_pg_shared;
  wire [Ports*16-1:0] sw_pg_hdrm;

  wire [31:0] dbg_val;

  // keep: nothing outside reads the switch's outputs; without it Yosys would remove the switch
  // before the probes are connected.
  (* keep *)
  lfc_switch #(
    .Mode           (1),
    .Ports          (Ports),
    .Classes        (1),
    .MtuBlocks      (2),
    .ReserveBlocks  (ReserveBlocks),
    .SharedBlocks   (SharedBlocks),
    .HeadroomBlocks (HeadroomBlocks),
    .XoffTh         (4),
    .XonOffset      (1),
    .PauseQuanta    (8),
    .RefreshCycles  (4),
    .WireTime       (1)
  ) u_sw (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .rx_kind_i           (rx_kind_i),
    .rx_sop_i            (rx_sop_i),
    .rx_eop_i            (rx_eop_i),
    .rx_cls_i            (rx_cls_i),
    .rx_nblk_i           (rx_nblk_i),
    .rx_dst_i            (rx_dst_i),
    .rx_tag_i            (rx_tag_i),
    .rx_ecn_i            (rx_ecn_i),
    .rx_pad_i            (rx_pad_i),
    .rx_mrg_i            (rx_mrg_i),
    .rx_fc_op_i          (8'd0),
    .rx_fc_vl_i          (8'd0),
    .rx_fc_fctbs_i       (24'd0),
    .rx_fc_fccl_i        (24'd0),
    .rx_pfc_en_i         (rx_pfc_en_i),
    .rx_pfc_time_i       (rx_pfc_time_i),
    .tx_kind_o           (),
    .tx_sop_o            (),
    .tx_eop_o            (),
    .tx_cls_o            (),
    .tx_nblk_o           (),
    .tx_dst_o            (),
    .tx_tag_o            (),
    .tx_ecn_o            (),
    .tx_pad_o            (),
    .tx_mrg_o            (),
    .tx_fc_op_o          (),
    .tx_fc_vl_o          (),
    .tx_fc_fctbs_o       (),
    .tx_fc_fccl_o        (),
    .tx_pfc_en_o         (),
    .tx_pfc_time_o       (),
    .stat_drop_o         (),
    .stat_drop_cause_o   (),
    .stat_wd_drop_o      (),
    .stat_ecn_mark_o     (),
    .stat_xoff_o         (),
    .stat_xon_o          (),
    .stat_wd_trip_o      (),
    .stat_wd_restore_o   (),
    .stat_rx_malformed_o (),
    .dbg_reg_i           (8'd0),
    .dbg_port_i          (8'd0),
    .dbg_cls_i           (4'd0),
    .dbg_val_o           (dbg_val)
  );

  reg init_q = 1'b1;
  always @(posedge clk_i) begin
    init_q <= 1'b0;
  end

  wire unused = ^dbg_val;

`ifdef FORMAL
  integer p;
  always @* begin
    assume(rst_ni == !init_q);
    if (!init_q) begin
      assert(sw_shared_used == sw_pg_shared[0 +: 20] + sw_pg_shared[20 +: 20]);    // W1
      assert(sw_shared_used <= SharedBlocks);                                      // W2
      for (p = 0; p < Ports; p = p + 1) begin
        assert(sw_pg_hdrm[p*16 +: 16] <= HeadroomBlocks);                          // W2
`ifndef FORMAL_PROPERTY_ONLY
        assert(sw_pg_shared[p*20 +: 20] <= SharedBlocks);                          // W3
`endif
      end
    end
  end
`endif

endmodule

`default_nettype wire
