// credit_rx_props - formal harness for lfc_credit_rx on an IB link with a legal peer
// (docs/SPEC.md §5.3, §5.4, §10).
//
// Property CREDIT_RX: a credit receiver never holds more blocks on a VL than its buffer
// (occ <= vl_blocks) and never drops a packet for lack of credit (cause CREDIT) when the peer
// obeys the send rule.
//
// The peer is abstract: it holds `avail`, the true credit it may still use (its FCCL minus its
// FCTBS, not modular). That the RTL transmitter's 12-bit rule computes exactly this is property
// CREDIT_TX, so this harness may use the true value (compositional reasoning).
// - Data and the peer's FCPs travel in order on a link of one register stage (a word per cycle:
//   a first block with its n, or an FCP with the peer's FCTBS = our ABR plus what is on the link).
// - Our FCPs reach the peer with any delay, in order: when one arrives the peer's credit becomes
//   any value that is at least what it had (the advertised limit only grows, so a later FCP never
//   lowers it) and at most what we advertise now (fccl - abr) minus what is on the link.
// - The rest of the switch frees any number of held blocks in any cycle (free_i <= occ).
// Nothing is lost on the link (a lost block is repaired by the next FCP, §5.4; not modelled).
//
// Assertions (the property):
//   R1 a first block that arrives is admitted (no drop with cause CREDIT);
//   R2 occ <= vl_blocks.
// Lemmas (strengthen the induction; each holds in every reachable state):
//   R3 the advertised credit fccl - abr (mod 4096) is the free space capped at 2048 (§5.4);
//   R4 the peer's credit plus the blocks on the link fit the advertised credit (so every
//      packet the peer may send finds room when it arrives);
//   R5 a link word is a first block of n >= 1 blocks or an FCP, not both; an FCP carries the
//      FCTBS that equals our ABR when it arrives (so taking it changes nothing, §5.4).

`default_nettype none
`timescale 1ns / 1ps

module credit_rx_props #(
  parameter integer Blocks = 300  // vl_blocks
) (
  input wire        clk_i,
  input wire        rst_ni,
  input wire        peer_start_i,  // the peer wants to start a packet
  input wire [7:0]  peer_nblk_i,   //   of this many blocks
  input wire        peer_fcp_i,    // else the peer wants to send an FCP
  input wire        peer_take_i,   // one of our FCPs reaches the peer
  input wire [11:0] peer_avail_i,  //   the peer's credit after it
  input wire [11:0] free_i
);

  localparam [15:0] BLOCKS = Blocks[15:0];
  localparam [11:0] HALF   = 12'd2048;  // the half-space of §5.3

  // ---- The link: one word per cycle, one register stage ----
  reg        lk_data_q;   // a first block
  reg        lk_fcp_q;    // an FCP
  reg [11:0] lk_val_q;    // n of the first block, or FCTBS of the FCP

  wire [11:0] fly = lk_data_q ? lk_val_q : 12'd0;  // blocks on the link

  // ---- Our receiver ----
  wire        admit;
  wire [11:0] abr;
  wire [15:0] occ;
  wire [11:0] fccl;

  lfc_credit_rx #(
    .Blocks (Blocks),
    .IsVl15 (0)
  ) u_dut (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .fcp_valid_i (lk_fcp_q),
    .fcp_fctbs_i (lk_val_q),
    .req_i       (lk_data_q),
    .req_nblk_i  (lk_val_q[7:0]),
    .free_i      (free_i),
    .admit_o     (admit),
    .abr_o       (abr),
    .occ_o       (occ),
    .fccl_o      (fccl)
  );

  // ---- The peer ----
  reg  [11:0] avail_q;
  wire [11:0] n       = {4'd0, peer_nblk_i};
  wire        go      = peer_start_i && (n <= avail_q);  // the send rule (CREDIT_TX)
  wire        fcp     = !go && peer_fcp_i;
  wire [11:0] adv     = fccl - abr;                      // what we advertise
  wire [11:0] base    = peer_take_i ? peer_avail_i : avail_q;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      avail_q   <= 12'd0;  // fccl = fctbs = 0 at reset
      lk_data_q <= 1'b0;
      lk_fcp_q  <= 1'b0;
      lk_val_q  <= 12'd0;
    end else begin
      avail_q   <= go ? base - n : base;
      lk_data_q <= go;
      lk_fcp_q  <= fcp;
      lk_val_q  <= go ? n : fcp ? abr + fly : 12'd0;
    end
  end

  // Reset in the first cycle of every trace, never again.
  reg init_q = 1'b1;
  always @(posedge clk_i) begin
    init_q <= 1'b0;
  end

  wire [15:0] free_now = BLOCKS - occ;
  wire [15:0] cap      = (free_now < {4'd0, HALF}) ? free_now : {4'd0, HALF};

`ifdef FORMAL
  always @* begin
    assume(rst_ni == !init_q);
    assume({4'd0, free_i} <= occ);
    if (peer_start_i) begin
      assume(peer_nblk_i != 8'd0);
    end
    if (peer_take_i) begin
      assume(peer_avail_i >= avail_q);
      assume({1'b0, peer_avail_i} + {1'b0, fly} <= {1'b0, adv});
    end
    if (!init_q) begin
      assert(!lk_data_q || admit);                                              // R1
      assert(occ <= BLOCKS);                                                    // R2
`ifndef FORMAL_PROPERTY_ONLY
      assert({4'd0, adv} == cap);                                               // R3
      assert({4'd0, avail_q} + {4'd0, fly} <= cap);                             // R4
      assert(!(lk_data_q && lk_fcp_q));                                         // R5
      assert(!lk_data_q || (lk_val_q != 12'd0 && lk_val_q[11:8] == 4'd0));      // R5
      assert(!lk_fcp_q || (lk_val_q == abr));                                   // R5
`endif
    end
  end
`endif

endmodule

`default_nettype wire
