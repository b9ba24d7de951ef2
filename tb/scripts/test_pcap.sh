#!/usr/bin/env bash
# make test-cosim-pcap: the co-simulation's PCAP=1 (tb/common/tb_pcap.c, docs/wire-formats.md §6).
#
#   tb/scripts/test_pcap.sh OUT CONFIG...
#
# Each CONFIG runs short (its [run] test_cycles) on Verilator with PCAP=1 through
# tb/scripts/cosim.sh, as `make cosim PCAP=1` runs it, into OUT/CONFIG; tshark reads every
# port's file and scripts/pcap_out_check.py compares every frame with the model's counters the
# run printed (its `pcap file=` lines). The switch's and the partners' pause_quanta come from the
# configuration's [pfc] and [nic] sections (when it gives them). Then the check must fail on the
# first configuration's log with one count changed.
#
# Environment from tb/tb.mk: COSIM_BUILD, BUILD (tb-params). Exit 0 all agree, 1 a mismatch or a
# failed run, 2 bad arguments or no tshark (make test-cosim-pcap installs it first: deps-verify).
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OUT CONFIG..." >&2; exit 2; }
out="$1"
shift
: "${COSIM_BUILD:?}" "${BUILD:=build}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
check="$root/scripts/pcap_out_check.py"
fail() {
  echo "FAIL: $*"
  exit 1
}
if ! command -v tshark >/dev/null 2>&1; then
  echo "test_pcap.sh: tshark not found; make deps-verify installs it (Debian tshark)" >&2
  exit 2
fi
rm -rf "$out"
mkdir -p "$out" || { echo "test_pcap.sh: cannot make $out" >&2; exit 2; }

# ini_key FILE SECTION KEY: the value of KEY in [SECTION], or nothing.
ini_key() {
  awk -v sec="[$2]" -v key="$3" '
    /^\[/ { in_sec = ($1 == sec) }
    in_sec && $1 == key && $2 == "=" { print $3; exit }' "$1"
}

n=0
first=""
for c in "$@"; do
  ini="tb/configs/$c.ini"
  [ -f "$ini" ] || { echo "test_pcap.sh: no $ini" >&2; exit 2; }
  cycles="$("$BUILD/tb/tb-params" test_cycles "$ini" 2>/dev/null)" || cycles=3000
  PCAP=1 tb/scripts/cosim.sh verilator "$c" 1 "$cycles" 0 "$out/$c" >"$out/$c.log" 2>&1 ||
    { tail -n 20 "$out/$c.log"; fail "$c: the run with PCAP=1 failed"; }
  mode="$(ini_key "$ini" switch mode)"
  args=(--mode "$mode")
  q="$(ini_key "$ini" pfc pause_quanta)"
  [ -n "$q" ] && args+=(--quanta-switch "$q")
  q="$(ini_key "$ini" nic pause_quanta)"
  [ -n "$q" ] && args+=(--quanta-host "$q")
  cl="$(ini_key "$ini" switch classes)"
  [ "$mode" = ib ] && [ -n "$cl" ] && args+=(--classes "$cl")
  python3 "$check" cosim "$out/$c/log.txt" "$out/$c/pcap" "${args[@]}" --require 20 ||
    fail "$c: tshark and the model differ"
  n=$((n + 1))
  [ -n "$first" ] || first="$c|${args[*]}"
done

# The check can fail: the first configuration's log with one count changed.
c="${first%%|*}"
read -r -a args <<<"${first#*|}"
sed -E '0,/^pcap file=.* dir=A>B packets=/s/(dir=A>B packets=)([0-9]+)/\1999999/' \
  "$out/$c/log.txt" >"$out/changed.log"
! cmp -s "$out/changed.log" "$out/$c/log.txt" || fail "the changed log is not changed"
python3 "$check" cosim "$out/changed.log" "$out/$c/pcap" "${args[@]}" >"$out/changed.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -q "^MISMATCH .*class 0 packets: .* the model counts 999999" \
  "$out/changed.out" || { cat "$out/changed.out"; fail "a changed count: exit $rc, not 1"; }
echo "ok: a changed count is found: $(grep -m1 '^MISMATCH' "$out/changed.out" | cut -c1-100)"
n=$((n + 1))
echo "test-cosim-pcap: $n checks passed"
