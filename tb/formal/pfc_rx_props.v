// pfc_rx_props - formal harness for lfc_pfc_rx (docs/SPEC.md §6.7).
//
// Property PAUSE_TIMER: per priority, the pause timer follows §6.7 exactly and never
// underflows; a frame with time 0 resumes the queue in the next cycle. The harness keeps the
// previous cycle's timer and frame; every frame, enable vector and time is allowed (a peer may
// send anything).
//
// Assertions, per priority c, in cycle t+1 about cycle t:
//   T1 (no underflow, §6.7): without a frame for c, timer(t+1) = max(timer(t) - 1, 0); in
//      particular a timer at 0 stays 0 and never wraps to 2^21 - 1;
//   T2 (load): with a frame for c carrying q, timer(t+1) = q * k, so the queue is paused in
//      exactly the cycles t+1 .. t+q*k;
//   T3 (resume, §6.7 "q = 0 resumes from t+1"): a frame for c with q = 0 -> not paused in t+1;
//   T4 paused_o = (timer != 0), and timer <= 65535 * k (the largest load);
//   T5 pause_rx_o (the watchdog's input, §6.8) = a frame for c with q > 0 in this cycle.
// Priorities >= Classes of the enable vector are ignored (nothing to check: no timer).

`default_nettype none
`timescale 1ns / 1ps

module pfc_rx_props #(
  parameter integer Classes  = 2,
  parameter integer SpeedDiv = 3
) (
  input wire         clk_i,
  input wire         rst_ni,
  input wire         frame_i,
  input wire [7:0]   en_i,
  input wire [127:0] time_i
);

  localparam [20:0] K       = SpeedDiv[20:0];
  localparam [20:0] MAX_T   = 21'd65535 * K;

  wire [Classes-1:0]    paused;
  wire [Classes-1:0]    pause_rx;
  wire [Classes*21-1:0] timer;

  lfc_pfc_rx #(
    .Classes  (Classes),
    .SpeedDiv (SpeedDiv)
  ) u_dut (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .frame_i    (frame_i),
    .en_i       (en_i),
    .time_i     (time_i),
    .paused_o   (paused),
    .pause_rx_o (pause_rx),
    .timer_o    (timer)
  );

  // The previous cycle: timers, and per priority whether a frame loaded it and with what.
  reg [Classes*21-1:0] prev_timer_q;
  reg [Classes-1:0]    prev_load_q;
  reg [Classes*16-1:0] prev_q_q;
  reg                  init_q = 1'b1;
  reg                  prev_init_q = 1'b1;
  integer c;

  always @(posedge clk_i) begin
    init_q       <= 1'b0;
    prev_init_q  <= init_q;
    prev_timer_q <= timer;
    for (c = 0; c < Classes; c = c + 1) begin
      prev_load_q[c]         <= frame_i && en_i[c];
      prev_q_q[c*16 +: 16]   <= time_i[c*16 +: 16];
    end
  end

`ifdef FORMAL
  reg [20:0] t_now;
  reg [20:0] t_prev;
  always @* begin
    assume(rst_ni == !init_q);
    for (c = 0; c < Classes; c = c + 1) begin
      t_now  = timer[c*21 +: 21];
      t_prev = prev_timer_q[c*21 +: 21];
      if (!init_q) begin
        assert(paused[c] == (t_now != 21'd0));                                  // T4
        assert(t_now <= MAX_T);                                                 // T4
        assert(pause_rx[c] == (frame_i && en_i[c] && time_i[c*16 +: 16] != 16'd0));  // T5
      end
      if (!init_q && !prev_init_q) begin
        if (prev_load_q[c]) begin
          assert(t_now == {5'd0, prev_q_q[c*16 +: 16]} * K);                    // T2
          if (prev_q_q[c*16 +: 16] == 16'd0) begin
            assert(!paused[c]);                                                 // T3
          end
        end else begin
          assert(t_now == ((t_prev == 21'd0) ? 21'd0 : t_prev - 21'd1));        // T1
        end
      end
    end
  end
`endif

endmodule

`default_nettype wire
