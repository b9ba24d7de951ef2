// fcp_gen_props - formal harness for lfc_fcp_gen (docs/SPEC.md §5.5).
//
// Property FCP_HOLDOFF: FCPs are coalesced as fcp_holdoff says, and no change or timer expiry
// is ever left without a pending FCP. The harness counts, per VL, the cycles since the VL's
// last FCP (age, saturating at FcpPeriod; FcpPeriod at reset, which is "timer 0") and keeps
// what that FCP carried. Any FCTBS and FCCL in any cycle (the counters of the other blocks
// move by any amount), and the port sends the pending FCP in any cycle it likes (§5.2 step 3
// comes only at a free slot); sent_i is 0 when nothing is pending, as lfc_port_tx gives it.
//
// With an FCP of VL v sent in cycle t, fcp_timer = fcp_period - 1 in S(t+1), so the timer is
// fcp_period - age in S(t+age) (age 1..fcp_period), and §5.5's "fcp_timer + fcp_holdoff <=
// fcp_period - 1" is "age >= fcp_holdoff + 1". Assertions, per VL v, from the second cycle on:
//   F1 (coalescing): an FCP of v goes only at age >= min(fcp_holdoff + 1, fcp_period): two FCPs
//      of one VL are at least that many cycles apart, and with fcp_holdoff >= fcp_period - 1
//      every FCP is a periodic one;
//   F2 (nothing lost): v changed (FCTBS or FCCL differs from its last FCP) at age >=
//      fcp_holdoff + 1, or age = fcp_period (timer 0): an FCP is pending;
//   F3: the FCP pending is that of the lowest such VL, carrying its FCTBS and FCCL;
// lemmas (make F1-F3 inductive): L1 timer_o = fcp_period - age; L2 sent_fctbs_o, sent_fccl_o
// are what the harness saw sent.

`default_nettype none
`timescale 1ns / 1ps

module fcp_gen_props #(
  parameter integer Classes    = 2,
  parameter integer FcpPeriod  = 8,
  parameter integer FcpHoldoff = 3
) (
  input wire                  clk_i,
  input wire                  rst_ni,
  input wire [Classes*12-1:0] fctbs_i,
  input wire [Classes*12-1:0] fccl_i,
  input wire                  take_i    // the port sends the pending FCP if there is one
);

  localparam [15:0] PERIOD  = FcpPeriod[15:0];
  // The first age at which a change counts, and the least age of any FCP (F1).
  localparam integer OpenAge = FcpHoldoff + 1;
  localparam [15:0] OPEN_AGE = (OpenAge < FcpPeriod) ? OpenAge[15:0] : PERIOD;

  wire                  pend;
  wire [3:0]            vl;
  wire [11:0]           fctbs_o, fccl_o;
  wire [Classes*12-1:0] sent_fctbs, sent_fccl;
  wire [Classes*16-1:0] timer;
  wire                  sent = take_i && pend;

  lfc_fcp_gen #(
    .Classes    (Classes),
    .FcpPeriod  (FcpPeriod),
    .FcpHoldoff (FcpHoldoff)
  ) u_dut (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .fctbs_i      (fctbs_i),
    .fccl_i       (fccl_i),
    .sent_i       (sent),
    .pend_o       (pend),
    .vl_o         (vl),
    .fctbs_o      (fctbs_o),
    .fccl_o       (fccl_o),
    .sent_fctbs_o (sent_fctbs),
    .sent_fccl_o  (sent_fccl),
    .timer_o      (timer)
  );

  reg [Classes*16-1:0] age_q;
  reg [Classes*12-1:0] last_fctbs_q, last_fccl_q;
  reg                  init_q = 1'b1;
  integer v;

  always @(posedge clk_i) begin
    init_q <= 1'b0;
    for (v = 0; v < Classes; v = v + 1) begin
      if (init_q) begin
        age_q[v*16 +: 16]        <= PERIOD;
        last_fctbs_q[v*12 +: 12] <= 12'd0;
        last_fccl_q[v*12 +: 12]  <= 12'd0;
      end else if (sent && (vl == v[3:0])) begin
        age_q[v*16 +: 16]        <= 16'd1;
        last_fctbs_q[v*12 +: 12] <= fctbs_i[v*12 +: 12];
        last_fccl_q[v*12 +: 12]  <= fccl_i[v*12 +: 12];
      end else if (age_q[v*16 +: 16] < PERIOD) begin
        age_q[v*16 +: 16]        <= age_q[v*16 +: 16] + 16'd1;
      end
    end
  end

`ifdef FORMAL
  reg [15:0] age;
  reg        changed, due, found;
  always @* begin
    assume(rst_ni == !init_q);
    found = 1'b0;
    if (!init_q) begin
      for (v = 0; v < Classes; v = v + 1) begin
        age     = age_q[v*16 +: 16];
        changed = (fctbs_i[v*12 +: 12] != last_fctbs_q[v*12 +: 12]) ||
                  (fccl_i[v*12 +: 12] != last_fccl_q[v*12 +: 12]);
        due     = (age == PERIOD) || (changed && (age >= OPEN_AGE));
        if (sent && (vl == v[3:0])) begin
          assert(age >= OPEN_AGE);                                              // F1
        end
        if (due && !found) begin
          assert(pend && (vl == v[3:0]) && (fctbs_o == fctbs_i[v*12 +: 12]) &&
                 (fccl_o == fccl_i[v*12 +: 12]));                               // F2, F3
        end
        found = found || due;
`ifndef FORMAL_PROPERTY_ONLY
        assert(age >= 16'd1 && age <= PERIOD);                                  // L1
        assert(timer[v*16 +: 16] == PERIOD - age);                              // L1
        assert(sent_fctbs[v*12 +: 12] == last_fctbs_q[v*12 +: 12]);             // L2
        assert(sent_fccl[v*12 +: 12] == last_fccl_q[v*12 +: 12]);               // L2
`endif
      end
      if (!found) begin
        assert(!pend);                                                          // F3
      end
    end
  end
`endif

endmodule

`default_nettype wire
