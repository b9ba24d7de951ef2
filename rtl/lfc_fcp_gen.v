// lfc_fcp_gen - IB flow-control packet generation of one port (docs/SPEC.md §5.5).
//
// Per data VL: the FCTBS and FCCL of the last FCP sent and fcp_timer. An FCP is pending for a
// VL when fcp_timer = 0 (every VL at reset), or when fctbs or the advertised FCCL changed since
// the last FCP and fcp_holdoff cycles have passed since the timer was reloaded (fcp_timer +
// fcp_holdoff <= fcp_period - 1: changes are coalesced, IBA vol. 1 §7.9.4). The port sends the
// FCP of the lowest pending VL when §5.2 step 3 lets it; that VL's timer reloads with
// fcp_period - 1, every other timer counts down to 0.

`default_nettype none
`timescale 1ns / 1ps

module lfc_fcp_gen #(
  parameter integer Classes   = 2,     // data VLs, 1..15
  parameter integer FcpPeriod = 1024,  // 1..65535
  parameter integer FcpHoldoff = 0     // 0..65535
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,

  input  wire [Classes*12-1:0] fctbs_i,  // this port's transmitter, per VL (§5.3)
  input  wire [Classes*12-1:0] fccl_i,   // this port's receiver's advertised FCCL (§5.4)
  input  wire                  sent_i,   // step B: the pending FCP is sent in this cycle

  output reg                   pend_o,
  output reg  [3:0]            vl_o,
  output reg  [11:0]           fctbs_o,
  output reg  [11:0]           fccl_o,

  output wire [Classes*12-1:0] sent_fctbs_o,
  output wire [Classes*12-1:0] sent_fccl_o,
  output wire [Classes*16-1:0] timer_o
);

  localparam integer PeriodM1  = FcpPeriod - 1;
  localparam [15:0]  PERIOD_M1 = PeriodM1[15:0];
  // §5.5: a change counts once fcp_timer <= fcp_period - 1 - fcp_holdoff. Below 0 (fcp_holdoff
  // >= fcp_period) it never does: clamped to 0, the compare then holds only where fcp_timer = 0
  // makes the FCP pending anyway, so only the periodic FCP is sent.
  localparam integer OpenAt    = PeriodM1 - FcpHoldoff;
  localparam [15:0]  OPEN_AT   = (OpenAt > 0) ? OpenAt[15:0] : 16'd0;

  reg [Classes*12-1:0] sent_fctbs_d, sent_fctbs_q;
  reg [Classes*12-1:0] sent_fccl_d, sent_fccl_q;
  reg [Classes*16-1:0] timer_d, timer_q;

  assign sent_fctbs_o = sent_fctbs_q;
  assign sent_fccl_o  = sent_fccl_q;
  assign timer_o      = timer_q;

  integer v;

  // The lowest pending VL (step A).
  always @* begin
    pend_o  = 1'b0;
    vl_o    = 4'd0;
    fctbs_o = 12'd0;
    fccl_o  = 12'd0;
    for (v = Classes - 1; v >= 0; v = v - 1) begin
      if ((((fctbs_i[v*12 +: 12] != sent_fctbs_q[v*12 +: 12]) ||
            (fccl_i[v*12 +: 12] != sent_fccl_q[v*12 +: 12])) &&
           (timer_q[v*16 +: 16] <= OPEN_AT)) ||
          (timer_q[v*16 +: 16] == 16'd0)) begin
        pend_o  = 1'b1;
        vl_o    = v[3:0];
        fctbs_o = fctbs_i[v*12 +: 12];
        fccl_o  = fccl_i[v*12 +: 12];
      end
    end
  end

  // Steps B and G.
  always @* begin
    sent_fctbs_d = sent_fctbs_q;
    sent_fccl_d  = sent_fccl_q;
    timer_d      = timer_q;
    for (v = 0; v < Classes; v = v + 1) begin
      if (sent_i && (vl_o == v[3:0])) begin
        sent_fctbs_d[v*12 +: 12] = fctbs_i[v*12 +: 12];
        sent_fccl_d[v*12 +: 12]  = fccl_i[v*12 +: 12];
        timer_d[v*16 +: 16]      = PERIOD_M1;
      end else if (timer_q[v*16 +: 16] != 16'd0) begin
        timer_d[v*16 +: 16] = timer_q[v*16 +: 16] - 16'd1;
      end else begin
        timer_d[v*16 +: 16] = 16'd0;
      end
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      sent_fctbs_q <= {(Classes * 12){1'b0}};
      sent_fccl_q  <= {(Classes * 12){1'b0}};
      timer_q      <= {(Classes * 16){1'b0}};
    end else begin
      sent_fctbs_q <= sent_fctbs_d;
      sent_fccl_q  <= sent_fccl_d;
      timer_q      <= timer_d;
    end
  end

endmodule

`default_nettype wire
