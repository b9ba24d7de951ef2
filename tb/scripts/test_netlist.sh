#!/usr/bin/env bash
# The rewriting of Yosys's netlist by tb/scripts/netlist.sh: the plain flip-flop processes of
# write_verilog become one process with the same nonblocking assignments, memories' write
# processes and every other line stay as they are, and a netlist of another form than the one
# the rewriting was written for stops it with file, line and what was found. Yosys itself is
# replaced by a stand-in that writes a given netlist (the real netlists are checked against the
# model by `make test`'s icarus-netlist runs).
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

# 1. Three plain flip-flops (one with an escaped name, one with a concatenation) and a memory.
cat >"$tmp/good.yosys.v" <<'V'
module lfc_switch(clk_i, a_i, q_o);
  input clk_i;
  input [3:0] a_i;
  output [3:0] q_o;
  reg [3:0] \g_port[0].u_x.q ;
  reg [1:0] r;
  reg s;
  reg [3:0] mem [1:0];
  assign q_o = \g_port[0].u_x.q ;
  always @(posedge clk_i)
    \g_port[0].u_x.q  <= a_i;
  always @(posedge clk_i)
    r <= { a_i[0], s };
  always @(posedge clk_i) begin
    if (a_i[1])
      mem[a_i[0]] <= a_i;
  end
  always @(posedge clk_i)
    s <= a_i[3];
endmodule
V
run good
[ $rc -eq 0 ] || fail "a netlist of the expected form: exit status $rc: $err"
out="$tmp/good/netlist.v"
[ "$(grep -c '^  always @(posedge clk_i) begin$' "$out")" -eq 2 ] ||
  fail "expected the memory's process and one process of flip-flops in: $(cat "$out")"
grep -q '^  always @(posedge clk_i)$' "$out" && fail "a plain flip-flop process is left in $out"
ok "the three plain flip-flop processes become one, the memory's process stays"
want=$'  always @(posedge clk_i) begin\n      \\g_port[0].u_x.q  <= a_i;\n      r <= { a_i[0], s };'
want+=$'\n      s <= a_i[3];\n  end\nendmodule'
[ "$(tail -n 6 "$out")" = "$want" ] || fail "the merged process reads: $(tail -n 6 "$out")"
ok "the merged process holds each assignment once, in order, before endmodule"
# Every other line is kept, in order: the input less the plain processes (two lines each) is
# the output less the comment and the process added before endmodule.
awk '/^  always @\(posedge clk_i\)$/ { getline; next } { print }' "$tmp/good.yosys.v" \
  >"$tmp/good.in.rest"
awk '/^  \/\/ The [0-9]+ flip-flops/ { skip = 1; next } skip && /^  end$/ { skip = 0; next }
  !skip { print }' "$out" >"$tmp/good.out.rest"
cmp -s "$tmp/good.in.rest" "$tmp/good.out.rest" ||
  fail "lines other than the processes changed: $(diff "$tmp/good.in.rest" "$tmp/good.out.rest")"
ok "every other line is kept, in order"

# 2. A netlist without plain flip-flops is written as it is.
grep -v -e '^  always @(posedge clk_i)$' -e '<= a_i;$' -e '<= { a_i' -e '<= a_i\[3\];' \
  "$tmp/good.yosys.v" >"$tmp/noff.yosys.v"
run noff
[ $rc -eq 0 ] || fail "a netlist without flip-flops: exit status $rc: $err"
cmp -s "$tmp/noff.yosys.v" "$tmp/noff/netlist.v" || fail "a netlist without flip-flops changed"
ok "a netlist without plain flip-flops is kept as it is"

# 3. Another form after a plain process: refused, with file and line, and nothing written.
sed 's/^    s <= a_i\[3\];$/    if (a_i[2]) s <= a_i[3];/' "$tmp/good.yosys.v" >"$tmp/bad.yosys.v"
run bad
[ $rc -eq 1 ] || fail "a flip-flop with an enable: exit status $rc, expected 1: $err"
[[ "$err" == *"netlist.yosys.v:19: expected one nonblocking assignment"*"if (a_i[2])"* ]] ||
  fail "a flip-flop with an enable: the message does not name file, line and text: $err"
[ ! -e "$tmp/bad/netlist.v" ] && [ ! -e "$tmp/bad/netlist.new.v" ] ||
  fail "a refused netlist left a netlist.v or netlist.new.v behind"
ok "a process of another form stops the script (exit 1, file:line and the text found)"

printf '%s\n' '  always @(posedge clk_i)' >"$tmp/eof.yosys.v"
run eof
[ $rc -eq 1 ] || fail "a plain process at the end of the file: exit status $rc, expected 1"
ok "a plain process at the end of the file stops the script"

echo "test-netlist: $n checks passed"
