// lfc_check_link_mon - the two byte streams of one link into an lfc_checker (tb/dpi/
// lfc_check_pkg.sv): bind or instantiate it on any valid/data/last bus pair, sampled at the
// rising edge of clk_i, one byte per beat, a frame ending with the beat that has last.
//
// A frame's time is $time of the edge that sampled its first byte, in picoseconds (this file's
// time unit; the checker is created with time_unit_ps=1 before the given Settings). Frames are
// fed in the order they started, both directions merged, as lfc_check_frame requires: a frame
// that ends while the other direction's frame that started earlier is still coming waits for
// it. Violations are $error lines as they are found; call finish() at the end of the test.
`timescale 1ps / 1ps
module lfc_check_link_mon #(
  parameter string       Mode     = "pfc",  // "ib" or "pfc"
  parameter string       Settings = "",     // lfc_check_create_text's key=value text
  parameter int unsigned Link     = 0,
  parameter int          Kind     = 0       // lfc_check_pkg::LFC_ETH
) (
  input wire       clk_i,
  input wire       ab_valid_i,  // side A's frames, to side B
  input wire [7:0] ab_data_i,
  input wire       ab_last_i,
  input wire       ba_valid_i,  // side B's frames, to side A
  input wire [7:0] ba_data_i,
  input wire       ba_last_i
);
  import lfc_check_pkg::*;

  lfc_checker   chk;
  lfc_frame_rec cur[2];      // the frame in progress per direction, or null
  lfc_frame_rec ended[2][$]; // frames ended per direction, not yet fed (in order of start)

  initial chk = new(Mode, {"time_unit_ps=1 ", Settings}, $sformatf("%m"));

  function automatic void beat(int unsigned dir, logic valid, logic [7:0] data, logic last);
    lfc_frame_rec f;
    if (valid !== 1'b1) return;
    f = cur[dir];
    if (f == null) begin
      f = new;
      f.t = $time;
      f.dir = dir;
      cur[dir] = f;
    end
    f.data.push_back(data);
    if (last === 1'b1) begin
      ended[dir].push_back(f);
      cur[dir] = null;
    end
  endfunction

  // The start of the frame in progress in dir, or the largest time if there is none.
  function automatic longint unsigned busy_since(int unsigned dir);
    lfc_frame_rec f = cur[dir];
    if (f == null) return '1;
    return f.t;
  endfunction

  // The direction whose oldest ended frame started first, or -1 when none has ended.
  function automatic int next_dir();
    lfc_frame_rec a, b;
    if (ended[0].size() == 0) return (ended[1].size() == 0) ? -1 : 1;
    if (ended[1].size() == 0) return 0;
    a = ended[0][0];
    b = ended[1][0];
    return (b.t < a.t) ? 1 : 0;
  endfunction

  // Feed the frames that no frame in progress started before (all of them when final_).
  function automatic void flush(bit final_);
    int d;
    lfc_frame_rec f;
    for (d = next_dir(); d >= 0; d = next_dir()) begin
      f = ended[d][0];
      if (!final_ && (busy_since(0) < f.t || busy_since(1) < f.t)) return;
      void'(ended[d].pop_front());
      void'(chk.frame(Link, f.dir, f.t, Kind, f.data));
    end
  endfunction

  always @(posedge clk_i) begin
    beat(LFC_CHECK_AB, ab_valid_i, ab_data_i, ab_last_i);
    beat(LFC_CHECK_BA, ba_valid_i, ba_data_i, ba_last_i);
    flush(1'b0);
  end

  // The end of the test: feed what has ended (a frame cut off is not fed), finish the checker.
  // Returns the violations found in all.
  function automatic longint unsigned finish();
    flush(1'b1);
    return chk.finish($time);
  endfunction

endmodule
