#!/usr/bin/env bash
# The rewriting of Yosys's netlist for SIM=icarus-netlist (tb/scripts/netlist.sh, which calls
# tb/scripts/netlist_vvp.py): each RTL instance's plain flip-flops become one register, the
# memories' write processes become one that tests the OR of all their conditions first, then
# each memory's, an output port driven in parts gets one driver (a wire per part; a port with
# a gap is left alone), any other process is kept as it is, a name the rewriting would add that is
# already there, a combinational process or a file of more than one module stops it; the
# rewritten netlist, built with `iverilog -S` as tb/tb.mk builds it, and the same without its
# anonymous nets (tb/scripts/vvp_strip.py) compute what the original computes, cycle by cycle,
# under random inputs; vvp_strip.py keeps a net a process reads and refuses what is not a vvp
# file of lfc_switch.
# Yosys itself is replaced by a stand-in that writes a given netlist (the real netlists are
# checked against the model by `make test`'s icarus-netlist runs).
#
#   tb/scripts/test_netlist.sh TB_PARAMS   (build/tb/tb-params)
#
# Run by tb/scripts/test_args.sh (make test-cosim-args). Prints one line per check and
# `test-netlist: N checks passed` or exits 1 at the first that fails.
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 TB_PARAMS" >&2; exit 2; }
params="$1"
[ -x "$params" ] || { echo "$0: $params is not an executable" >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
n=0

fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; n=$((n + 1)); }
has() { grep -qF -- "$2" "$1" || fail "$3: no '$2' in $1: $(cat "$1")"; }

# The stand-in for yosys: writes $FAKE_NETLIST where the script's write_verilog asks.
cat >"$tmp/yosys" <<'SH'
#!/usr/bin/env bash
ys="${!#}"
dest="$(sed -n 's/^write_verilog -noattr //p' "$ys")"
[ -n "$dest" ] || { echo "fake yosys: no write_verilog in $ys" >&2; exit 1; }
cp "$FAKE_NETLIST" "$dest"
SH
chmod +x "$tmp/yosys"

# run NAME: netlist.sh on $tmp/NAME.yosys.v into $tmp/NAME/; sets rc and err.
run() {
  mkdir -p "$tmp/$1"
  err="$(BUILD="$(dirname "$(dirname "$params")")" YOSYS="$tmp/yosys" \
    FAKE_NETLIST="$tmp/$1.yosys.v" "$here/netlist.sh" tb/configs/pfc_basic.ini "$tmp/$1" 2>&1)"
  rc=$?
}

# A netlist in write_verilog's form: two registers of instance u_a (one escaped, one 1-bit),
# one of u_b, a register with an enable written on two lines (another form: kept), a memory
# with two writers and one with one, whose condition is an anonymous wire, an output port
# driven in three parts (one of which reads the port) and one driven in two with a gap.
cat >"$tmp/good.yosys.v" <<'V'
module lfc_switch(clk_i, a_i, b_i, q_o, r_o, g_o);
  input clk_i;
  input [3:0] a_i;
  input [3:0] b_i;
  output [15:0] q_o;
  output [7:0] r_o;
  output [3:0] g_o;
  reg [3:0] \u_a.x_q ;
  reg \u_a.y_q ;
  reg [2:0] \u_b.z_q ;
  reg [3:0] en_q;
  reg [3:0] mem [3:0];
  reg [3:0] mem2 [3:0];
  wire [3:0] _0001_;
  wire _0002_;
  assign _0001_ = b_i[3] ? a_i : \u_a.x_q  + a_i;
  assign _0002_ = a_i[3] ^ b_i[0];
  always @(posedge clk_i)
    \u_a.x_q  <= _0001_;
  always @(posedge clk_i)
    \u_a.y_q  <= a_i[0] ^ b_i[1];
  always @(posedge clk_i)
    \u_b.z_q  <= { \u_a.y_q , b_i[3:2] };
  always @(posedge clk_i)
    if (b_i[0])
      en_q <= a_i;
  always @(posedge clk_i) begin
    if (a_i[1])
      mem[b_i[1:0]] <= a_i;
    if (b_i[2])
      mem[a_i[3:2]] <= b_i;
  end
  always @(posedge clk_i) begin
    if (_0002_)
      mem2[b_i[3:2]] <= a_i ^ b_i;
  end
  assign q_o = { \u_a.x_q , \u_a.y_q , \u_b.z_q , mem[a_i[1:0]] ^ en_q ^ mem2[a_i[2:1]],
    en_q[3:0] };
  assign r_o[3:0] = a_i ^ b_i;
  assign { r_o[7], r_o[6:4] } = { r_o[0], \u_b.z_q  };
  assign g_o[0] = a_i[0];
  assign g_o[3:2] = b_i[1:0];
endmodule
V
run good
[ $rc -eq 0 ] || fail "a netlist of the expected form: exit status $rc: $err"
out="$tmp/good/netlist.v"
has "$out" "wire [4:0] lfc_nl_d0 = { _0001_, a_i[0] ^ b_i[1] };" "u_a's two registers as one"
has "$out" "always @(posedge clk_i) lfc_nl_q0 <= lfc_nl_d0;" "u_a's register"
has "$out" 'assign \u_a.x_q  = lfc_nl_q0[4:1];' "u_a.x_q on its part"
has "$out" 'assign \u_a.y_q  = lfc_nl_q0[0:0];' "u_a.y_q on its part"
has "$out" 'wire [3:0] \u_a.x_q ;' "u_a.x_q now a wire"
has "$out" 'wire [2:0] lfc_nl_d1 = { { \u_a.y_q , b_i[3:2] } };' "u_b's register apart"
ok "each instance's plain flip-flops are one register, each old name a wire on its part"
has "$out" "wire lfc_nl_wr0 = (a_i[1]) | (b_i[2]);" "the first memory's write test"
has "$out" "wire lfc_nl_wr1 = (_0002_);" "the second memory's write test"
has "$out" "wire lfc_nl_wr = lfc_nl_wr0 | lfc_nl_wr1;" "the test of any write"
has "$out" "    if (lfc_nl_wr) begin" "the writes behind the test of any"
has "$out" "      if (lfc_nl_wr1) begin" "the second memory's writes behind its test"
[ "$(grep -c "always @(posedge clk_i) begin" "$out")" -eq 1 ] ||
  fail "the memories' writes are not in one process: $(grep -n always "$out")"
has "$out" "(* ivl_synthesis_off *) always @(posedge clk_i) begin" "the memories kept a thread"
ok "the memories' write processes are one thread that tests the OR of all conditions first"
has "$out" "(* ivl_synthesis_off *) always @(posedge clk_i)" "the register with an enable"
grep -A1 -F "(* ivl_synthesis_off *) always @(posedge clk_i)" "$out" | grep -qF "if (b_i[0])" ||
  fail "the register with an enable is not kept as it was"
has "$out" "reg [3:0] en_q;" "en_q still a register"
ok "processes of other forms are kept as they are, with synthesis off"
has "$out" "assign r_o = { lfc_nl_p2, lfc_nl_p1, lfc_nl_p0 };" "r_o's one driver"
has "$out" "assign lfc_nl_p0 = a_i ^ b_i;" "r_o[3:0]'s assign on its wire"
has "$out" 'assign { lfc_nl_p2, lfc_nl_p1 } = { r_o[0], \u_b.z_q  };' "r_o[7:4]'s on theirs"
has "$out" "wire [2:0] lfc_nl_p1;" "the wire of r_o[6:4]"
has "$out" "assign g_o[0] = a_i[0];" "g_o, with a gap, as it was"
ok "an output port driven in parts has one driver, a concatenation of a wire per part"
counts="3 flip-flops in 2 registers, 2 memory write processes in one process, 1 other"
counts="$counts processes kept, 1 output ports driven in parts given one driver"
has "$tmp/good/netlist_vvp.log" "$counts" "the counts"
ok "the counts of what was rewritten are written to netlist_vvp.log"

# The rewritten netlist computes the same as the original under random inputs: both in one
# bench with iverilog -S (the original without -S), outputs compared every cycle.
cat >"$tmp/bench.v" <<'V'
`timescale 1ns / 1ns
module bench;
  reg clk_i;
  reg [3:0] a_i;
  reg [3:0] b_i;
  wire [15:0] q_o;
  wire [7:0] r_o;
  wire [3:0] g_o;
  lfc_switch dut (.clk_i(clk_i), .a_i(a_i), .b_i(b_i), .q_o(q_o), .r_o(r_o), .g_o(g_o));
  integer k;
  (* ivl_synthesis_off *) initial begin
    clk_i = 1'b0;
    a_i = 4'd0;
    b_i = 4'd0;
    for (k = 0; k < 500; k = k + 1) begin
      #5 clk_i = 1'b1;
      #1 a_i = $random;
      b_i = $random;
      #4 clk_i = 1'b0;
      $display("%0d %b %b %b", k, q_o, r_o, g_o);
    end
    $finish;
  end
endmodule
V
iverilog -g2005 -o "$tmp/orig.vvp" "$tmp/bench.v" "$tmp/good.yosys.v" ||
  fail "iverilog on the original netlist"
iverilog -S -g2005 -o "$tmp/new.vvp" "$tmp/bench.v" "$out" 2>"$tmp/new.err" ||
  fail "iverilog -S on the rewritten netlist: $(cat "$tmp/new.err")"
[ ! -s "$tmp/new.err" ] || fail "iverilog -S warned: $(cat "$tmp/new.err")"
vvp -n "$tmp/orig.vvp" >"$tmp/orig.txt" && vvp -n "$tmp/new.vvp" >"$tmp/new.txt" ||
  fail "vvp failed"
[ "$(grep -c . "$tmp/orig.txt")" -ge 500 ] ||
  fail "the bench printed too little: $(cat "$tmp/orig.txt")"
[ "$(cut -d' ' -f2 "$tmp/orig.txt" | grep -v x | sort -u | wc -l)" -ge 100 ] ||
  fail "the outputs took fewer than 100 values without x: $(tail -3 "$tmp/orig.txt")"
cmp -s "$tmp/orig.txt" "$tmp/new.txt" ||
  fail "the rewritten netlist differs: $(diff "$tmp/orig.txt" "$tmp/new.txt" | head -5)"
ok "built with iverilog -S (no warning), it gives the original's outputs in each of 500 cycles"

# The same without its anonymous nets and its concatenations of one input: _0001_ (read by
# logic) goes, _0002_ (read by the memories' process) stays, and so do the named ones.
strip="$(python3 "$here/vvp_strip.py" "$tmp/new.vvp" "$tmp/strip.vvp" 2>&1)" ||
  fail "vvp_strip.py on the rewritten netlist: $strip"
[[ "$strip" =~ ^vvp_strip:\ ([0-9]+)\ anonymous\ nets ]] && [ "${BASH_REMATCH[1]}" -gt 0 ] ||
  fail "vvp_strip.py removed nothing: $strip"
grep -q '"_0001_"' "$tmp/new.vvp" && ! grep -q '"_0001_"' "$tmp/strip.vvp" ||
  fail "vvp_strip.py kept _0001_, which only logic reads"
grep -q '"_0002_"' "$tmp/strip.vvp" || fail "vvp_strip.py removed _0002_, which a process reads"
grep -q '"en_q"' "$tmp/strip.vvp" || fail "vvp_strip.py removed the named en_q"
one='\.concat \[ [0-9]+ 0 0 0\]'
grep -qE "$one" "$tmp/new.vvp" && ! grep -qE "$one" "$tmp/strip.vvp" ||
  fail "vvp_strip.py did not remove the concatenations of one input"
vvp -n "$tmp/strip.vvp" >"$tmp/strip.txt" || fail "vvp failed on the stripped netlist"
cmp -s "$tmp/orig.txt" "$tmp/strip.txt" ||
  fail "the stripped netlist differs: $(diff "$tmp/orig.txt" "$tmp/strip.txt" | head -5)"
ok "without its anonymous nets and one-input concatenations ($strip) it gives the same outputs;"\
  "a net a process reads stays"

# stripfails WHAT FILE TEXT: vvp_strip.py on FILE exits 1 with TEXT and writes nothing.
stripfails() {
  local msg
  msg="$(python3 "$here/vvp_strip.py" "$2" "$tmp/bad.vvp" 2>&1)"
  local st=$?
  [ $st -eq 1 ] || fail "vvp_strip.py on $1: exit status $st, expected 1: $msg"
  [[ "$msg" == *"$3"* ]] || fail "vvp_strip.py on $1: the message does not say '$3': $msg"
  [ ! -e "$tmp/bad.vvp" ] || fail "vvp_strip.py on $1 wrote an output"
}
stripfails "a Verilog file" "$tmp/good.yosys.v" "good.yosys.v: not a vvp file (no :ivl_version"
sed 's/"lfc_switch"/"other"/' "$tmp/new.vvp" >"$tmp/other.vvp"
stripfails "a vvp file without lfc_switch" "$tmp/other.vvp" \
  "other.vvp: no instance of module lfc_switch"
sed 's/^:ivl_version "11\./:ivl_version "12./' "$tmp/new.vvp" >"$tmp/ivl12.vvp"
stripfails "a vvp file of another Icarus" "$tmp/ivl12.vvp" \
  "ivl12.vvp: compiled by Icarus 12; this rewriting of vvp's compiled form is written for"
ok "vvp_strip.py refuses a file that is not vvp, is from another Icarus, or has no lfc_switch"\
  "(exit 1, file and why)"

# refused NAME WHAT TEXT: netlist.sh on $tmp/NAME.yosys.v exits 1 with TEXT in its message and
# leaves no netlist behind.
refused() {
  run "$1"
  [ $rc -eq 1 ] || fail "$2: exit status $rc, expected 1: $err"
  [[ "$err" == *"$3"* ]] || fail "$2: the message does not say '$3': $err"
  [ ! -e "$tmp/$1/netlist.v" ] && [ ! -e "$tmp/$1/netlist.new.v" ] ||
    fail "$2: a refused netlist left a netlist.v or netlist.new.v behind"
}

# A name the rewriting adds, already in the netlist.
sed 's/_0001_/lfc_nl_d0/g' "$tmp/good.yosys.v" >"$tmp/clash.yosys.v"
refused clash "a netlist with a name of the rewriting" \
  "clash/netlist.yosys.v: the netlist already has names beginning with lfc_nl_"
ok "a name the rewriting would add, already in the netlist, stops it (exit 1, file and names)"

# A combinational process.
sed 's/^  assign _0001_ = \(.*\);$/  always @*\n    comb = \1;/' "$tmp/good.yosys.v" \
  >"$tmp/comb.yosys.v"
refused comb "a combinational process" \
  "comb/netlist.yosys.v: line 16: a combinational process (always @*)"
ok "a combinational process, which iverilog -S would synthesise anyway, stops it with its line"

# Two modules (not a flat netlist).
cat "$tmp/good.yosys.v" "$tmp/good.yosys.v" |
  sed '1,/^endmodule$/s/^module lfc_switch/module other/' >"$tmp/two.yosys.v"
refused two "two modules" "2 module and 2 endmodule lines, expected one of each"
ok "a file of two modules stops it (exit 1, what was found)"

# A netlist without processes is written as it is.
printf '%s\n' 'module lfc_switch(a_i, q_o);' '  input a_i;' '  output q_o;' \
  '  assign q_o = ~a_i;' 'endmodule' >"$tmp/none.yosys.v"
run none
[ $rc -eq 0 ] || fail "a netlist without processes: exit status $rc: $err"
cmp -s "$tmp/none.yosys.v" "$tmp/none/netlist.v" || fail "a netlist without processes changed"
ok "a netlist without processes is kept as it is"

echo "test-netlist: $n checks passed"
