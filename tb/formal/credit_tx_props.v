// credit_tx_props - formal harness for lfc_credit_tx (docs/SPEC.md §5.3).
//
// Property CREDIT_TX: the transmitter never starts a packet that the peer has not given credit
// for, across FCTBS / FCCL wrap-around. The harness keeps the true (not modular) credit
//   credit = L - S
// where S is the number of blocks sent and L the credit limit the peer granted, both unbounded.
// The RTL only holds them mod 4096 (fctbs, fccl); the half-space rule must recover the sign of
// L - S - n from the 12-bit difference. The proof covers every reachable 12-bit state, so every
// wrap-around of fctbs and fccl.
//
// Legal peer (assumptions): an FCP grants a new true credit of at most 2048 relative to our
// FCTBS when it arrives, and leaves at least CREDIT_MIN once a packet starting in the same cycle
// is counted: at most 2048 (SPEC §5.4 caps the grant at abr + 2048) and at least
// CREDIT_MIN = -(2048 - 256) (a peer may take credit back, e.g. after blocks were lost or were
// malformed, §7.2; up to that much the rule is still exact for packets of up to 255 blocks).
// The FCP's 12-bit FCCL is that true limit mod 4096. The switch starts a packet only when
// send_ok_o holds (lfc_vlarb's eligibility, §5.6): that is the other assumption.
//
// Assertions:
//   A1 (the property): a started packet of n blocks fits the true credit: n <= credit.
//   A2 (exactness, no false blocking): send_ok_o <=> n <= credit.
//   A3 (lemma linking harness and RTL state, needed for induction): fccl = fctbs + credit mod
//      4096.
//   A4 (lemma): CREDIT_MIN <= credit <= 2048.

`default_nettype none
`timescale 1ns / 1ps

module credit_tx_props (
  input wire        clk_i,
  input wire        rst_ni,
  input wire        fcp_valid_i,
  input wire [13:0] fcp_credit_i,  // the true credit the FCP grants, signed, relative to fctbs
  input wire [7:0]  head_nblk_i,
  input wire        start_i
);

  // 16-bit signed arithmetic: wide enough that no sum below can overflow (|values| < 2^14).
  localparam signed [15:0] CREDIT_MAX = 16'sd2048;
  localparam signed [15:0] CREDIT_MIN = -16'sd1792;  // -(2048 - 256)

  wire        send_ok;
  wire [11:0] fctbs;
  wire [11:0] fccl;

  lfc_credit_tx u_dut (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .fcp_valid_i (fcp_valid_i),
    .fcp_fccl_i  (fctbs + fcp_credit_i[11:0]),
    .head_nblk_i (head_nblk_i),
    .start_i     (start_i),
    .send_ok_o   (send_ok),
    .fctbs_o     (fctbs),
    .fccl_o      (fccl)
  );

  // The true credit L - S, signed.
  reg  signed [15:0] credit_q;
  wire signed [15:0] n      = {8'd0, head_nblk_i};
  wire signed [15:0] fcp_cr = {{2{fcp_credit_i[13]}}, fcp_credit_i};
  wire signed [15:0] base   = fcp_valid_i ? fcp_cr : credit_q;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      credit_q <= 16'sd0;  // fctbs = fccl = 0 at reset
    end else begin
      credit_q <= start_i ? base - n : base;
    end
  end

  // Reset in the first cycle of every trace, never again.
  reg init_q = 1'b1;
  always @(posedge clk_i) begin
    init_q <= 1'b0;
  end

`ifdef FORMAL
  always @* begin
    assume(rst_ni == !init_q);
    if (fcp_valid_i) begin
      assume(fcp_cr <= CREDIT_MAX);
      // Counted after this cycle's start (the FCP's FCCL is compared with S(t+1)'s fctbs).
      assume((start_i ? fcp_cr - n : fcp_cr) >= CREDIT_MIN);
    end
    if (start_i) begin
      assume(send_ok);
      assume(head_nblk_i != 8'd0);
    end
    if (!init_q) begin
      assert(!start_i || (n <= credit_q));                           // A1
      assert(send_ok == (n <= credit_q));                            // A2
      assert(fccl == fctbs + credit_q[11:0]);                        // A3
      assert(credit_q >= CREDIT_MIN && credit_q <= CREDIT_MAX);      // A4
    end
  end
`endif

endmodule

`default_nettype wire
