// pfc_tx_stub - a made-up device for the examples of docs/verify-your-rtl.md (not lfc's RTL): the
// transmit side of a MAC client that honours IEEE 802.1Qbb PFC, on byte streams.
//
// Frames from the client (s_*: one byte per cycle, s_last_i on the last, the frame's priority on
// s_prio_i with its first byte) are passed to the line (tx_*) one cycle later. Frames from the
// line (rx_*) are parsed for PFC: a MAC Control frame (EtherType 0x8808) with opcode 0x0101
// loads, for every priority enabled in its class-enable vector, a pause timer with its time in
// quanta. A quantum is 512 bit times (IEEE 802.1Qbb; SPEC §6.7): at one byte per cycle, 64
// cycles, counted from the frame's last byte. A frame whose priority's timer is running is not
// started (s_ready_o stays low); a frame already started is finished. The streams carry whole
// frames as they are on the wire, FCS included, so that the pause starts when the wire frame
// ends: the stub neither computes nor checks the FCS, and does not look at 802.3x PAUSE (opcode
// 0x0001) frames.
//
// IgnorePause = 1 is the deliberate defect of the examples: the pause is parsed and shown on
// paused_o, but frames still start.

`default_nettype none
`timescale 1ps / 1ps

module pfc_tx_stub #(
  parameter integer IgnorePause = 0  // 1: start frames of paused priorities (the defect)
) (
  input  wire       clk_i,
  input  wire       rst_ni,

  input  wire       s_valid_i,   // client frames
  output wire       s_ready_o,
  input  wire [7:0] s_data_i,
  input  wire       s_last_i,
  input  wire [2:0] s_prio_i,    // the frame's priority, with its first byte

  output reg        tx_valid_o,  // to the line
  output reg  [7:0] tx_data_o,
  output reg        tx_last_o,

  input  wire       rx_valid_i,  // from the line
  input  wire [7:0] rx_data_i,
  input  wire       rx_last_i,

  output wire [7:0] paused_o     // a pause timer is running, per priority
);

  localparam integer PRIOS = 8;
  localparam integer TIMER_BITS = 22;  // 65535 quanta x 64 cycles
  localparam [5:0] QUANTUM_SHIFT = 6'd6;  // 64 cycles per quantum at one byte per cycle
  localparam [15:0] MAC_CTRL_ETHERTYPE = 16'h8808;  // IEEE 802.3 clause 31
  localparam [15:0] PFC_OPCODE = 16'h0101;          // IEEE 802.1Qbb
  // Byte offsets in a PFC frame (docs/wire-formats.md §2).
  localparam [5:0] OFF_TYPE = 6'd12;
  localparam [5:0] OFF_OPCODE = 6'd14;
  localparam [5:0] OFF_CEV_LOW = 6'd17;
  localparam [5:0] OFF_TIME = 6'd18;
  localparam [5:0] OFF_END = 6'd34;  // first byte after time[7]
  localparam [5:0] RX_COUNT_MAX = 6'd63;

  initial begin
    if (IgnorePause != 0 && IgnorePause != 1) begin
      $display("pfc_tx_stub: IgnorePause = %0d: 0 or 1", IgnorePause);
      $finish;
    end
  end

  // ---- receive: the PFC frame's fields, taken as the bytes go by ----
  reg [5:0]   rx_count_d, rx_count_q;        // byte of the frame, saturating
  reg [31:0]  rx_head_d, rx_head_q;          // EtherType and opcode
  reg [7:0]   rx_cev_d, rx_cev_q;            // class-enable vector, low octet
  reg [127:0] rx_time_d, rx_time_q;          // time[0..7], priority 0 in bits 127:112
  reg [PRIOS*TIMER_BITS-1:0] timer_d, timer_q;

  integer p;

  always @* begin
    rx_count_d = rx_count_q;
    rx_head_d  = rx_head_q;
    rx_cev_d   = rx_cev_q;
    rx_time_d  = rx_time_q;
    timer_d    = timer_q;
    for (p = 0; p < PRIOS; p = p + 1) begin
      if (timer_q[p*TIMER_BITS +: TIMER_BITS] != {TIMER_BITS{1'b0}}) begin
        timer_d[p*TIMER_BITS +: TIMER_BITS] = timer_q[p*TIMER_BITS +: TIMER_BITS] - 1'b1;
      end
    end
    if (rx_valid_i) begin
      if (rx_count_q >= OFF_TYPE && rx_count_q < OFF_OPCODE + 6'd2) begin
        rx_head_d = {rx_head_q[23:0], rx_data_i};
      end
      if (rx_count_q == OFF_CEV_LOW) begin
        rx_cev_d = rx_data_i;
      end
      if (rx_count_q >= OFF_TIME && rx_count_q < OFF_END) begin
        rx_time_d = {rx_time_q[119:0], rx_data_i};
      end
      rx_count_d = rx_last_i ? 6'd0 :
                   (rx_count_q == RX_COUNT_MAX) ? rx_count_q : rx_count_q + 6'd1;
      // The last byte of a PFC frame long enough to hold every time loads the timers of the
      // priorities it enables (time 0, an XON, stops one).
      if (rx_last_i && rx_count_q >= OFF_END - 6'd1 &&
          rx_head_d == {MAC_CTRL_ETHERTYPE, PFC_OPCODE}) begin
        for (p = 0; p < PRIOS; p = p + 1) begin
          if (rx_cev_d[p]) begin
            timer_d[p*TIMER_BITS +: TIMER_BITS] =
              {6'd0, rx_time_d[(PRIOS-1-p)*16 +: 16]} << QUANTUM_SHIFT;
          end
        end
      end
    end
  end

  genvar g;
  generate
    for (g = 0; g < PRIOS; g = g + 1) begin : g_paused
      assign paused_o[g] = (timer_q[g*TIMER_BITS +: TIMER_BITS] != {TIMER_BITS{1'b0}});
    end
  endgenerate

  // ---- transmit: a frame starts only if its priority is not paused ----
  reg in_frame_d, in_frame_q;  // a frame has started and its last byte not yet passed

  wire may_start = !paused_o[s_prio_i] || (IgnorePause == 1);
  assign s_ready_o = in_frame_q || may_start;

  always @* begin
    in_frame_d = in_frame_q;
    if (s_valid_i && s_ready_o) begin
      in_frame_d = !s_last_i;
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      rx_count_q <= 6'd0;
      rx_head_q  <= 32'd0;
      rx_cev_q   <= 8'd0;
      rx_time_q  <= 128'd0;
      timer_q    <= {(PRIOS * TIMER_BITS){1'b0}};
      in_frame_q <= 1'b0;
      tx_valid_o <= 1'b0;
      tx_data_o  <= 8'd0;
      tx_last_o  <= 1'b0;
    end else begin
      rx_count_q <= rx_count_d;
      rx_head_q  <= rx_head_d;
      rx_cev_q   <= rx_cev_d;
      rx_time_q  <= rx_time_d;
      timer_q    <= timer_d;
      in_frame_q <= in_frame_d;
      tx_valid_o <= s_valid_i && s_ready_o;
      tx_data_o  <= s_data_i;
      tx_last_o  <= s_valid_i && s_ready_o && s_last_i;
    end
  end

endmodule

`default_nettype wire
