// lfc_check_pkg - liblfc's link checkers (lfc/check.h) for SystemVerilog and UVM testbenches,
// through DPI-C (docs/verify-your-rtl.md, "SystemVerilog (DPI-C)").
//
// Most of lfc/check.h is imported as it is: a checker is a chandle, links, directions and kinds
// are integers, times are 64-bit, a frame is a fixed-size byte array and its length. What DPI-C
// cannot call directly (a text written into the caller's buffer, a size_t index) goes through
// tb/dpi/lfc_check_dpi.c. A size_t crosses as `longint unsigned`: 64-bit hosts.
//
//   lfc_checker chk = new("pfc", "speed_mbps=10000 time_unit_ps=1");
//   chk.frame(0, LFC_CHECK_AB, $time, LFC_ETH, bytes);   // every frame of the link, in time order
//                                                        // (bytes: a queue, lfc_bytes_t)
//   chk.finish($time);                                   // then chk.violations() == 0?
//
// Each violation is reported with $error as one line (lfc_check_format) when the frame that
// shows it is fed. Note that Verilator stops at the first $error unless run with
// +verilator+error+limit+N.
`timescale 1ps / 1ps
package lfc_check_pkg;

  // Directions of a link (lfc/check.h) and kinds of frame (lfc/pcap.h lfc_pcap_rec_t).
  localparam int unsigned LFC_CHECK_AB = 0, LFC_CHECK_BA = 1;
  localparam int LFC_ETH = 0, LFC_IB_DATA = 1, LFC_IB_LINK = 2;
  // The largest frame the package passes (a 9238-byte jumbo frame and an IB MTU packet fit).
  localparam int LFC_CHECK_MAX_FRAME = 16384;
  typedef byte unsigned lfc_frame_buf_t[LFC_CHECK_MAX_FRAME];

  // lfc/check.h, imported directly.
  import "DPI-C" function void lfc_check_destroy(input chandle c);
  import "DPI-C" function int lfc_check_frame(input chandle c, input int unsigned link,
                                              input int unsigned dir, input longint unsigned t,
                                              input int kind, input lfc_frame_buf_t frame,
                                              input longint unsigned len);
  import "DPI-C" function int lfc_check_drop(input chandle c, input int unsigned link,
                                             input int unsigned dir, input longint unsigned t,
                                             input int unsigned cls);
  import "DPI-C" function int lfc_check_finish(input chandle c, input longint unsigned t);
  import "DPI-C" function string lfc_check_error(input chandle c);
  import "DPI-C" function longint unsigned lfc_check_violations(input chandle c);
  import "DPI-C" function longint unsigned lfc_check_frames(input chandle c);
  // lfc/crc.h: the Ethernet FCS of a frame body, for a testbench that builds frames.
  import "DPI-C" function int unsigned lfc_crc32(input lfc_frame_buf_t data,
                                                 input longint unsigned len);
  // tb/dpi/lfc_check_dpi.c.
  import "DPI-C" function chandle lfc_check_dpi_create(input string mode, input string settings);
  import "DPI-C" function string lfc_check_dpi_create_error();
  import "DPI-C" function string lfc_check_dpi_format(input chandle c, input int i);
  import "DPI-C" function int lfc_check_dpi_cov_points();
  import "DPI-C" function string lfc_check_dpi_cov_name(input int point);
  import "DPI-C" function longint lfc_check_dpi_cov(input chandle c, input int point,
                                                    input int mode_pfc);

  typedef byte unsigned lfc_bytes_t[$];

  // A frame body with its 4 FCS bytes appended (CRC-32, least significant byte first).
  function automatic lfc_bytes_t lfc_with_fcs(lfc_bytes_t body);
    lfc_frame_buf_t buf_;
    lfc_bytes_t frame = body;
    int unsigned fcs;
    int i;  // one variable for both loops: Verilator 5.006 names two loop scopes alike
    for (i = 0; i < body.size(); i++) buf_[i] = body[i];
    fcs = lfc_crc32(buf_, longint'(body.size()));
    for (i = 0; i < 4; i++) frame.push_back(fcs[8*i +: 8]);
    return frame;
  endfunction

  // A frame collected by lfc_check_link_mon, waiting for its turn.
  class lfc_frame_rec;
    longint unsigned t;
    int unsigned dir;
    lfc_bytes_t data;
  endclass

  // One link checker of lfc/check.h.
  class lfc_checker;
    local chandle c;
    local string name;
    local bit pfc;
    local longint unsigned reported;  // violations already given to $error
    local lfc_frame_buf_t buf_;

    // mode "ib" or "pfc"; settings: lfc_check_create_text's "key=value ..." (lfc/check.h).
    // A configuration the library refuses stops the simulation with its reason.
    function new(string mode, string settings, string name = "lfc_checker");
      this.name = name;
      pfc = (mode == "pfc");
      c = lfc_check_dpi_create(mode, settings);
      if (c == null) $fatal(1, "%s: %s", name, lfc_check_dpi_create_error());
    endfunction

    // $error for each violation found since the last report.
    local function void report();
      for (longint unsigned i = reported; i < lfc_check_violations(c); i++) begin
        string line = lfc_check_dpi_format(c, int'(i));
        if (line != "") $error("%s: %s", name, line);
      end
      reported = lfc_check_violations(c);
    endfunction

    // Feed one frame seen on link in direction dir, first bit at time t (in time_unit_ps
    // units). Returns the violations it showed; input the checker refuses (a time before the
    // link's last frame, a kind of the other mode, ...) is an $error with the reason, and -1.
    function int frame(int unsigned link, int unsigned dir, longint unsigned t, int kind,
                       lfc_bytes_t bytes);
      int n;
      if (bytes.size() > LFC_CHECK_MAX_FRAME) begin
        $error("%s: a frame of %0d bytes; at most %0d", name, bytes.size(), LFC_CHECK_MAX_FRAME);
        return -1;
      end
      foreach (bytes[i]) buf_[i] = bytes[i];
      n = lfc_check_frame(c, link, dir, t, kind, buf_, longint'(bytes.size()));
      if (n < 0) $error("%s: %s", name, lfc_check_error(c));
      report();
      return n;
    endfunction

    // A drop the testbench saw (lfc_check_drop): 1 if it is a violation.
    function int drop(int unsigned link, int unsigned dir, longint unsigned t, int unsigned cls);
      int n = lfc_check_drop(c, link, dir, t, cls);
      if (n < 0) $error("%s: %s", name, lfc_check_error(c));
      report();
      return n;
    endfunction

    // The end of the observation: what only the end can show. Returns the violations in all.
    function longint unsigned finish(longint unsigned t);
      if (lfc_check_finish(c, t) < 0) $error("%s: %s", name, lfc_check_error(c));
      report();
      return lfc_check_violations(c);
    endfunction

    function longint unsigned violations();
      return lfc_check_violations(c);
    endfunction

    function longint unsigned frames();
      return lfc_check_frames(c);
    endfunction

    // The count of a coverage point by name ("xoff", "fcp", ...), or -1 if the mode has none.
    function longint coverage(string point);
      for (int i = 0; i < lfc_check_dpi_cov_points(); i++) begin
        if (lfc_check_dpi_cov_name(i) == point) return lfc_check_dpi_cov(c, i, int'(pfc));
      end
      return -1;
    endfunction

    // "name=count ..." of the points of this mode that were hit.
    function string coverage_text();
      string s = "";
      for (int i = 0; i < lfc_check_dpi_cov_points(); i++) begin
        longint n = lfc_check_dpi_cov(c, i, int'(pfc));
        if (n > 0) s = {s, (s == "") ? "" : " ", $sformatf("%s=%0d", lfc_check_dpi_cov_name(i), n)};
      end
      return s;
    endfunction

    function void destroy();
      if (c != null) lfc_check_destroy(c);
      c = null;
    endfunction
  endclass

endpackage
