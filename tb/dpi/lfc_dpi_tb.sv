// lfc_dpi_tb - the DPI-C checker's testbench (make dpi): two switches, one per mode, each with
// its link partners (lfc_dpi_env) and, by tb/dpi/lfc_dpi_bind.sv, an lfc_dpi_checker that
// compares it with the C model every cycle. Runs +cycles=N cycles (default 5000) after reset.
`timescale 1ns / 1ps
`default_nettype none

module lfc_dpi_tb;
  localparam int CLOCK_HALF_NS = 5;
  localparam int RESET_CYCLES = 2;   // rst_ni low for this many rising edges
  localparam int DEFAULT_CYCLES = 5000;

  bit clk = 1'b0;
  bit rst_n = 1'b0;
  always #(CLOCK_HALF_NS) clk = ~clk;

  // IB credits (SPEC §5), 4 ports, 2 VLs, FCPs every 256 cycles at least, line time (§2.4).
  lfc_dpi_env #(.Mode(0), .Ports(4), .Classes(2), .FcpPeriod(256), .WireTime(1)) u_ib (
    .clk_i(clk), .rst_ni(rst_n)
  );

  // PFC (SPEC §6, §9): a small shared pool and low thresholds so that the switch pauses its
  // peers, short pauses with refresh, ECN marking on priority 0, port 3 at half speed, line
  // time (§2.4).
  lfc_dpi_env #(
    .Mode(1), .Ports(4), .Classes(2), .SharedBlocks(128), .HeadroomBlocks(64), .XoffTh(24),
    .PauseQuanta(400), .RefreshCycles(200), .EcnMask(8'h01), .Kmin(4), .Kmax(24), .Pmax(13107),
    .SpeedDiv({{12{5'd1}}, 5'd2, 5'd1, 5'd1, 5'd1}), .WireTime(1)
  ) u_pfc (
    .clk_i(clk), .rst_ni(rst_n)
  );

  longint unsigned cycles;
  initial begin
    if (!$value$plusargs("cycles=%d", cycles)) cycles = DEFAULT_CYCLES;
    repeat (RESET_CYCLES) @(posedge clk);
    /* verilator lint_off INITIALDLY */
    rst_n <= 1'b1;  // after the edge, as a clocked process would: the next cycle is cycle 0
    /* verilator lint_on INITIALDLY */
    repeat (cycles) @(posedge clk);
    $display("PASS dpi cycles=%0d: RTL == C model every cycle, IB and PFC", cycles);
    $finish;
  end
endmodule

`default_nettype wire
