// lfc_credit_tx - IB credit transmit of one (egress port, data VL) (docs/SPEC.md §5.3).
//
// fctbs counts the blocks this port's transmitter has sent on the VL (a whole packet at its
// start), fccl is the credit limit last received from the peer in an FCP. The send rule lets a
// packet of n blocks start iff (fccl - (fctbs + n)) mod 4096 <= 2048 (half-space rule).

`default_nettype none
`timescale 1ns / 1ps

module lfc_credit_tx (
  input  wire        clk_i,
  input  wire        rst_ni,

  input  wire        fcp_valid_i,  // step D: an FCP for this VL was received (§5.3)
  input  wire [11:0] fcp_fccl_i,   //   its FCCL
  input  wire [7:0]  head_nblk_i,  // n of the head packet of the VL's queue
  input  wire        start_i,      // step B: that packet starts

  output wire        send_ok_o,    // the send rule holds for the head packet
  output wire [11:0] fctbs_o,
  output wire [11:0] fccl_o
);

  reg [11:0] fctbs_d, fctbs_q;
  reg [11:0] fccl_d, fccl_q;

  // Credits required and the half-space rule, all modulo 4096.
  wire [11:0] cr   = fctbs_q + {4'd0, head_nblk_i};
  wire [11:0] diff = fccl_q - cr;

  assign send_ok_o = (diff <= 12'd2048);
  assign fctbs_o   = fctbs_q;
  assign fccl_o    = fccl_q;

  always @* begin
    fctbs_d = start_i ? cr : fctbs_q;
    fccl_d  = fcp_valid_i ? fcp_fccl_i : fccl_q;
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      fctbs_q <= 12'd0;
      fccl_q  <= 12'd0;
    end else begin
      fctbs_q <= fctbs_d;
      fccl_q  <= fccl_d;
    end
  end

endmodule

`default_nettype wire
