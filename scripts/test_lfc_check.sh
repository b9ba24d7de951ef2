#!/usr/bin/env bash
# test_lfc_check.sh - lfc-check (cmodel/tools/lfc_check.c) on captures of one link of the model
# written by lfc_wire_gen --link (both directions, marked as docs/wire-formats.md §6 says):
#   - clean captures (the model's switch and its end node keep every rule): exit 0, no line; also
#     as a microsecond pcap, whose times are up to 999 ns early;
#   - broken ones: an end node that honours pauses 5 us late (--response-cycles 1000, beyond the
#     2 us of IEEE 802.3 Annex 31B at 100 Gb/s): exit 1 with pfc-reaction lines for the node's
#     direction; a capture that misses one IB data packet (--skip-frame): exit 1 with exactly one
#     ib-fctbs line, at the sender's next FCP;
#   - bad files and arguments: exit 2 with one line on stderr saying why;
#   - the example of docs/verify-your-rtl.md: the page shows docs/examples/verify_example.c as it
#     is, and the output the page shows is what the built example prints (exit 1: one violation).
# A few seconds.
#
#   scripts/test_lfc_check.sh LFC_CHECK LFC_WIRE_GEN VERIFY_EXAMPLE WORKDIR
#
# Exit status: 0 every check held, 1 one failed, 2 bad arguments.
set -uo pipefail
if [ $# -ne 4 ]; then
  echo "usage: test_lfc_check.sh LFC_CHECK LFC_WIRE_GEN VERIFY_EXAMPLE WORKDIR" >&2
  exit 2
fi
check="$1" gen="$2" example="$3" work="$4"
for prog in "$check" "$gen" "$example"; do
  if [ ! -x "$prog" ]; then
    echo "test_lfc_check.sh: '$prog' is not an executable (build/tools/lfc_check," \
         "build/tools/lfc_wire_gen, build/tools/verify_example)" >&2
    exit 2
  fi
done
root="$(cd "$(dirname "$0")/.." && pwd)"
page="$root/docs/verify-your-rtl.md"
rm -rf "$work" && mkdir -p "$work" ||
  { echo "test_lfc_check.sh: cannot make $work" >&2; exit 2; }
CYCLES=20000
LINK=1            # a sender of the incast: the switch pauses it
SLOW_NODE=1000    # cycles: 5120 ns at 100 Gb/s, beyond the 2017 ns budget
IB_ARGS=(--from-reset --data-vls 2 --fcp-period-ns 5300) # the model: 2 VLs, an FCP per 1024 cycles
fails=0 checks=0
fail() { echo "  FAIL: $*"; fails=$((fails + 1)); }

# run NAME ARGS...: lfc-check ARGS; stdout in NAME.out, stderr in NAME.err, status in $rc.
run() {
  local name="$1"; shift
  "$check" "$@" >"$work/$name.out" 2>"$work/$name.err"
  rc=$?
}

# generate NAME ARGS...: lfc_wire_gen ARGS NAME.pcap NAME.exp, or stop (exit 2).
generate() {
  local name="$1"; shift
  "$gen" "$@" "$work/$name.pcap" "$work/$name.exp" >/dev/null 2>"$work/$name.gen.err" ||
    { echo "test_lfc_check.sh: lfc_wire_gen $*: $(cat "$work/$name.gen.err")" >&2; exit 2; }
}

# clean NAME ARGS...: exit 0, no violation line, the summary saying 0 violations.
clean() {
  local name="$1"; shift
  checks=$((checks + 1))
  run "$name" "$@"
  if [ "$rc" -ne 0 ] || grep -q '^time=' "$work/$name.out" ||
     ! grep -q ' 0 violations$' "$work/$name.out"; then
    fail "$name: exit $rc (want 0): $(head -c 400 "$work/$name.out") $(cat "$work/$name.err")"
  else
    echo "  ok   $name: $(grep '^lfc-check:' "$work/$name.out")"
  fi
}

# broken NAME WANT COUNT ARGS...: exit 1, COUNT violation lines ('+' for at least one), every one
# of them holding WANT.
broken() {
  local name="$1" want="$2" count="$3"; shift 3
  checks=$((checks + 1))
  run "$name" "$@"
  local lines all
  lines=$(grep -c '^time=' "$work/$name.out")
  all=$(grep '^time=' "$work/$name.out" | grep -cF -- "$want")
  if [ "$rc" -ne 1 ] || [ "$lines" -eq 0 ] || [ "$all" -ne "$lines" ] ||
     { [ "$count" != + ] && [ "$lines" -ne "$count" ]; }; then
    fail "$name: exit $rc, $lines lines, $all with '$want' (want exit 1, $count lines, all" \
         "with it): $(head -c 600 "$work/$name.out")"
  else
    echo "  ok   $name: exit 1, $(head -n 1 "$work/$name.out" | cut -c1-150)..."
  fi
}

# bad NAME WANT ARGS...: exit 2, one line on stderr holding WANT, nothing on stdout.
bad() {
  local name="$1" want="$2"; shift 2
  checks=$((checks + 1))
  run "$name" "$@"
  if [ "$rc" -ne 2 ] || [ "$(wc -l <"$work/$name.err")" -ne 1 ] ||
     ! grep -qF -- "$want" "$work/$name.err" || [ -s "$work/$name.out" ]; then
    fail "$name: exit $rc, stderr '$(cat "$work/$name.err")' (want exit 2, one line with '$want')"
  else
    echo "  ok   $name: exit 2: $(cat "$work/$name.err")"
  fi
}

echo "lfc-check on captures of link $LINK of the model, $CYCLES cycles ($work)"
generate pfc --model-pfc --link "$LINK" --cycles "$CYCLES"
generate ib --model-ib --link "$LINK" --cycles "$CYCLES"
generate pfc-slow --model-pfc --link "$LINK" --cycles "$CYCLES" --response-cycles "$SLOW_NODE"

clean pfc "$work/pfc.pcap" --coverage "$work/pfc.json"
clean ib "$work/ib.pcap" "${IB_ARGS[@]}" --coverage "$work/ib.json"
# Two links at once: each capture is its own link.
clean two-links --mode pfc "$work/pfc.pcap" "$work/pfc.pcap"
# A microsecond capture (big-endian) of a clean link: its times are up to 999 ns early, which must
# not turn frames sent after a pause ended into frames sent in it (the checker then counts in
# microseconds). The same capture in nanoseconds, and both together. Committed captures of the
# fuzz target of lfc-check (tb/fuzz/make_check_seeds.py).
fixtures="$root/tb/fuzz/check_fixtures"
clean microseconds "$fixtures/pfc-us-be.pcap"
clean nanoseconds "$fixtures/pfc.pcap"
clean us-and-ns "$fixtures/pfc.pcap" "$fixtures/pfc-us-be.pcap"

# The coverage file: the co-simulation's form, a "coverage" object of the mode's points.
checks=$((checks + 1))
if ! grep -q '"sim": "lfc-check"' "$work/pfc.json" || ! grep -q '"coverage": {' "$work/pfc.json" ||
   ! grep -q '"xoff": [1-9]' "$work/pfc.json" || grep -q '"credit_wrap"' "$work/pfc.json" ||
   ! grep -q '"fcp": [1-9]' "$work/ib.json"; then
  fail "coverage files: $(cat "$work/pfc.json" "$work/ib.json" | head -c 600)"
fi

# The end node reacts to the switch's pauses 5 us late: its frames (direction B>A) are flagged.
broken pfc-slow "dir=B>A class=pfc-" + "$work/pfc-slow.pcap" --max-lines 5
checks=$((checks + 1))
grep -q 'dir=B>A class=pfc-reaction' "$work/pfc-slow.out" ||
  fail "pfc-slow: no pfc-reaction for direction B>A: $(head -n 2 "$work/pfc-slow.out")"

# A capture that lost one data packet: the sender's next FCP counts blocks the monitor did not
# see. The 100th data packet of the clean capture's expectations.
skip=$(grep -P '\tinfiniband\.lrh\.vl=' "$work/ib.exp" | sed -n 100p | cut -f1)
[ -n "$skip" ] || { echo "test_lfc_check.sh: no 100th data packet in $work/ib.exp" >&2; exit 2; }
generate ib-missing --model-ib --link "$LINK" --cycles "$CYCLES" --skip-frame "$skip"
broken ib-missing "class=ib-fctbs" 1 "$work/ib-missing.pcap" "${IB_ARGS[@]}"

# Bad files and arguments.
# The last record loses its last 3 bytes.
head -c "$(($(wc -c <"$work/ib.pcap") - 3))" "$work/ib.pcap" >"$work/truncated.pcap"
bad truncated "truncated: " "$work/truncated.pcap"
printf 'hello, this is not a capture but text\n' >"$work/text.pcap"
bad magic "bad magic" "$work/text.pcap"
# A classic pcap header of link type 105 (IEEE 802.11).
printf '\x4d\x3c\xb2\xa1\x02\x00\x04\x00\0\0\0\0\0\0\0\0\xff\xff\0\0\x69\0\0\0' >"$work/wifi.pcap"
bad linktype "link type 105, allowed 1 (Ethernet), 197 (ERF), 247 (InfiniBand)" "$work/wifi.pcap"
bad missing "cannot open" "$work/none.pcap"
bad no-capture "no capture given"
bad option "unknown option '--bogus'" --bogus "$work/pfc.pcap"
bad mode-word "--mode 'eth': allowed ib or pfc" --mode eth "$work/pfc.pcap"
bad mode-type "holds InfiniBand frames, but the mode is pfc" --mode pfc "$work/ib.pcap"
bad mixed "holds InfiniBand frames, but the mode is pfc" "$work/pfc.pcap" "$work/ib.pcap"
bad speed "--speed-gbps 'fast'" --speed-gbps fast "$work/pfc.pcap"
bad no-budget "no IEEE 802.3 Annex 31B reaction budget for 56000 Mb/s" --speed-gbps 56 \
  "$work/pfc.pcap"
bad mac "--mac-a '02:00': give an address" --mac-a 02:00 "$work/pfc.pcap"
bad vls "check: data_vls 0, allowed 1..15" --data-vls 0 "$work/ib.pcap"
bad coverage-dir "cannot write" "$work/pfc.pcap" --coverage "$work/no/such/dir/c.json"

# The page's example: the code block after "### A complete example" is the file, and the block
# after "Its output:" is what the program prints.
checks=$((checks + 1))
awk '/^### A complete example/ { on = 1 } on && /^```c$/ { take = 1; next }
     take && /^```$/ { exit } take { print }' "$page" >"$work/page-example.c"
if ! cmp -s "$work/page-example.c" "$root/docs/examples/verify_example.c"; then
  fail "docs/verify-your-rtl.md does not show docs/examples/verify_example.c as it is:" \
       "$(diff "$work/page-example.c" "$root/docs/examples/verify_example.c" | head -n 5)"
fi
checks=$((checks + 1))
"$example" >"$work/example.out" 2>&1
rc=$?
awk '/^Its output:/ { on = 1 } on && /^```$/ { if (take) exit; take = 1; next } take { print }' \
  "$page" >"$work/page-output.txt"
if [ "$rc" -ne 1 ] || ! cmp -s "$work/example.out" "$work/page-output.txt" ||
   ! grep -q 'class=ib-send.*FCCL 10, FCTBS 8, n 4: 4094' "$work/example.out"; then
  fail "the example: exit $rc (want 1), printed '$(cat "$work/example.out")', the page shows" \
       "'$(cat "$work/page-output.txt")'"
else
  echo "  ok   the example of docs/verify-your-rtl.md: exit 1, the output the page shows"
fi

echo "test_lfc_check: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
