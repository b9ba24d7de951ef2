// pfc_tx_stub_tb - the SystemVerilog example of docs/verify-your-rtl.md: pfc_tx_stub.v with its
// line watched by lfc's PFC checker through DPI-C (tb/dpi/lfc_check_pkg.sv,
// tb/dpi/lfc_check_link_mon.sv). The scenario of test_pfc_tx_stub.py, the cocotb example: the
// client sends a frame every GAP cycles, alternating priorities 0 and PAUSED; the partner pauses
// PAUSED for QUANTA quanta. With +define+IGNORE_PAUSE the stub ignores the pause and the checker
// stops the run with a pfc-reaction $error; otherwise the last line is "PASS ...".
`timescale 1ps / 1ps
module pfc_tx_stub_tb;
  import lfc_check_pkg::*;

  localparam int BYTE_PS = 800;  // one byte per cycle at 10 Gb/s
  localparam int PAUSED = 3;
  localparam int QUANTA = 100;   // 5.12 us at 10 Gb/s, beyond the 3.43 us reaction budget
  localparam int PAUSE_AT = 1000;
  localparam int FRAMES = 24;
  localparam int GAP = 500;
`ifdef IGNORE_PAUSE
  localparam int IgnorePause = 1;
`else
  localparam int IgnorePause = 0;
`endif

  logic clk = 1'b0, rst_n = 1'b0;
  always #(BYTE_PS / 2) clk = ~clk;

  logic       s_valid = 1'b0, s_last = 1'b0, s_ready;
  logic [7:0] s_data = 8'd0;
  logic [2:0] s_prio = 3'd0;
  logic       tx_valid, tx_last;
  logic [7:0] tx_data;
  logic       rx_valid = 1'b0, rx_last = 1'b0;
  logic [7:0] rx_data = 8'd0;
  logic [7:0] paused;

  pfc_tx_stub #(.IgnorePause(IgnorePause)) u_dut (
    .clk_i(clk), .rst_ni(rst_n),
    .s_valid_i(s_valid), .s_ready_o(s_ready), .s_data_i(s_data), .s_last_i(s_last),
    .s_prio_i(s_prio),
    .tx_valid_o(tx_valid), .tx_data_o(tx_data), .tx_last_o(tx_last),
    .rx_valid_i(rx_valid), .rx_data_i(rx_data), .rx_last_i(rx_last),
    .paused_o(paused)
  );

  // The link: side A is the device (tx), side B its partner (rx). Times in ps.
  lfc_check_link_mon #(.Mode("pfc"), .Settings("speed_mbps=10000")) u_mon (
    .clk_i(clk),
    .ab_valid_i(tx_valid), .ab_data_i(tx_data), .ab_last_i(tx_last),
    .ba_valid_i(rx_valid), .ba_data_i(rx_data), .ba_last_i(rx_last)
  );

  localparam bit [47:0] SIDE_A = 48'h024c46000000, SIDE_B = 48'h024c46000001;

  // A tagged frame of priority 0 or PAUSED with sequence number seq (EtherType 0x88B5, IEEE 802
  // local experimental), as test_pfc_tx_stub.py's client_frame, with its FCS.
  function automatic lfc_bytes_t client_frame(int seq);
    lfc_bytes_t f;
    logic [15:0] tci = 16'((seq % 2 != 0 ? PAUSED : 0) << 13);  // 802.1Q: PCP in bits 15:13
    logic [22*8-1:0] head = {SIDE_B, SIDE_A, 16'h8100, tci, 16'h88b5, 32'(seq)};
    int i;
    f.delete();  // an automatic queue keeps the previous call's bytes in Verilator 5.006
    for (i = 21; i >= 0; i--) f.push_back(head[8*i +: 8]);
    for (i = 0; i < 40 + 7 * seq; i++) f.push_back(8'd0);
    return lfc_with_fcs(f);
  endfunction

  // An IEEE 802.1Qbb PFC frame pausing priority prio for quanta (docs/wire-formats.md §2):
  // addresses, EtherType 0x8808, opcode 0x0101, class-enable vector, time[0..7], padding, FCS.
  function automatic lfc_bytes_t pfc_frame(int prio, int quanta);
    lfc_bytes_t f;
    logic [8*16-1:0] times = '0;
    logic [34*8-1:0] head;
    int i;
    f.delete();  // as above
    times[(7 - prio)*16 +: 16] = 16'(quanta);
    head = {48'h0180c2000001, SIDE_B, 16'h8808, 16'h0101, 16'(1 << prio), times};
    for (i = 33; i >= 0; i--) f.push_back(head[8*i +: 8]);
    while (f.size() < 60) f.push_back(8'd0);
    return lfc_with_fcs(f);
  endfunction

  // The testbench drives at the falling edge and the device samples at the rising one: no race
  // (Verilator 5.006 runs a testbench's "<=" as "="). A byte offered is taken at the next rising
  // edge if s_ready_o is high 1 ps after it is offered.
  task automatic client();
    lfc_bytes_t f;
    int n;
    for (int seq = 0; seq < FRAMES; seq++) begin
      f = client_frame(seq);
      n = f.size();
      for (int i = 0; i < n; i++) begin
        @(negedge clk);
        s_prio = (seq % 2 != 0) ? 3'(PAUSED) : 3'd0;
        s_valid = 1'b1;
        s_data = f[i];
        s_last = (i == n - 1);
        #1;
        while (s_ready !== 1'b1) begin
          @(negedge clk);
          #1;
        end
      end
      @(negedge clk);
      s_valid = 1'b0;
      s_last = 1'b0;
      repeat (GAP) @(posedge clk);
    end
  endtask

  task automatic partner();
    lfc_bytes_t f;
    int n;
    f = pfc_frame(PAUSED, QUANTA);
    n = f.size();
    repeat (PAUSE_AT) @(posedge clk);
    for (int i = 0; i < n; i++) begin
      @(negedge clk);
      rx_valid = 1'b1;
      rx_data = f[i];
      rx_last = (i == n - 1);
    end
    @(negedge clk);
    rx_valid = 1'b0;
    rx_last = 1'b0;
  endtask

  int held = 0;  // cycles the client had a byte and the stub did not take it
  always @(posedge clk) if (s_valid && !s_ready) held++;

  initial partner();

  initial begin
    longint unsigned found;
    repeat (4) @(negedge clk);
    rst_n = 1'b1;
    client();
    repeat (4) @(posedge clk);
    found = u_mon.finish();
    $display("pfc_tx_stub_tb: IgnorePause=%0d, %0d frames checked, the client held %0d cycles, coverage: %s",
             IgnorePause, u_mon.chk.frames(), held, u_mon.chk.coverage_text());
    // The run must have exercised the rule: the pause reached the stub and held a frame back.
    if (found != 0) $fatal(1, "FAIL pfc_tx_stub_tb: %0d violation(s)", found);
    if (u_mon.chk.coverage("xoff") != 1 || held == 0) $fatal(1, "FAIL pfc_tx_stub_tb: no pause exercised");
    $display("PASS pfc_tx_stub_tb: no violation");
    $finish;
  end
endmodule
