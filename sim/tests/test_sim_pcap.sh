#!/usr/bin/env bash
# make test-sim-pcap: lfc-sim --pcap (docs/sim.md "Captures", docs/wire-formats.md §6).
#
#   sim/tests/test_sim_pcap.sh LFC_SIM WORKDIR
#
#   1. bad --pcap arguments (a directory that cannot be made or is a file, a --pcap-links item
#      that names nothing, --pcap-links without --pcap, files above --pcap-max-mb) exit 2 with
#      one line and leave no file;
#   2. a write that fails during the run (a file-size limit) exits 2 with one line and leaves no
#      pcap file, whole or not;
#   3. --pcap changes no result: the JSON (but its wall time) and the digest are equal with and
#      without it; the files are the same bytes on 2 threads and with --step-all; --pcap-links
#      writes the cables it names and no other;
#   4. tshark reads every file of a short PFC run and a short IB run (sim/tests/pcap_pfc.ini,
#      pcap_ib.ini) and scripts/pcap_out_check.py compares every frame with the model's
#      counters in the run's JSON; a JSON with one count changed, an Ethernet frame with a bad
#      FCS and an IB record of the wrong direction must each make it fail;
#   5. a data frame is as long as its packet's bytes (the word's pad, docs/wire-formats.md §8):
#      packet_bytes 1002 gives RoCEv2 frames of 1002 bytes, 1000 IB packets of 998 (IB and
#      RoCEv2 lengths are 2 mod 4: the longest the format has within the bytes).
#
# Exit 0 all passed, 1 a check failed, 2 bad arguments or no tshark (make test-sim-pcap installs
# it first: deps-verify).
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "test_sim_pcap.sh: usage: test_sim_pcap.sh LFC_SIM WORKDIR" >&2
  exit 2
fi
sim="$1"
work="$2"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
check="$root/scripts/pcap_out_check.py"
pfc="$here/pcap_pfc.ini"
ib="$here/pcap_ib.ini"
# the scenarios' own figures, for the checker: [pfc] pause_quanta (hosts use the switch's) and
# [routing] ecmp (addresses per host)
QUANTA=600
WAYS=4
CLASSES=2
[ -x "$sim" ] || { echo "test_sim_pcap.sh: LFC_SIM '$sim' is not an executable" >&2; exit 2; }
rm -rf "$work"
mkdir -p "$work" || { echo "test_sim_pcap.sh: cannot make $work" >&2; exit 2; }
n=0
fail() {
  echo "FAIL: $*"
  exit 1
}

# refused WHAT PATTERN DIR ARGS...: lfc-sim ARGS exits 2 with one line holding PATTERN, and
# leaves DIR (if it exists) empty.
refused() {
  local what="$1" pattern="$2" dir="$3" rc
  shift 3
  "$sim" "$@" >"$work/out" 2>"$work/err"
  rc=$?
  [ "$rc" -eq 2 ] || { cat "$work/err"; fail "$what: exit status $rc, not 2"; }
  [ "$(wc -l <"$work/err")" -eq 1 ] || { cat "$work/err"; fail "$what: not one line"; }
  grep -qF -- "$pattern" "$work/err" || { cat "$work/err"; fail "$what: no '$pattern'"; }
  if [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
    fail "$what: left $(ls -A "$dir" | tr '\n' ' ') in $dir"
  fi
  echo "ok: $what: $(cut -c1-110 "$work/err")"
  n=$((n + 1))
}

# 1. Bad arguments.
mkdir -p "$work/empty"
: >"$work/a_file"
refused "a directory that cannot be made" "/dev/null/pcap: cannot create the output directory" \
  "" "$pfc" --no-warnings --pcap /dev/null/pcap
refused "a directory that is a file" "lfc-sim: --pcap: $work/a_file/" "" \
  "$pfc" --no-warnings --pcap "$work/a_file"
refused "an unknown node or cable" "--pcap-links nosuch: no node of that name" "$work/empty" \
  "$pfc" --no-warnings --pcap "$work/empty" --pcap-links sw0,nosuch
refused "a pattern that matches no cable" "--pcap-links sw0.9-*: no node" "$work/empty" \
  "$pfc" --no-warnings --pcap "$work/empty" --pcap-links 'sw0.9-*'
refused "an empty --pcap-links" "--pcap-links ' , ': no item" "$work/empty" \
  "$pfc" --no-warnings --pcap "$work/empty" --pcap-links ' , '
refused "--pcap-links without --pcap" "--pcap-links: only with --pcap DIR" "" \
  "$pfc" --no-warnings --pcap-links sw0
refused "files above --pcap-max-mb" "up to 429 MiB of pcap files (every block slot used both" \
  "$work/empty" "$pfc" --no-warnings --pcap "$work/empty" --pcap-max-mb 1 \
  --set sim.duration_us=2000
refused "files above the default --pcap-max-mb" "above the limit of 1024 MiB (the default" \
  "$work/empty" "$pfc" --no-warnings --pcap "$work/empty" --set sim.duration_us=5000000

# 2. A write that fails during the run (SIGXFSZ ignored, so that write() returns EFBIG).
mkdir -p "$work/full"
( trap '' XFSZ; ulimit -f 64
  exec "$sim" "$pfc" --no-warnings --pcap "$work/full" ) >/dev/null 2>"$work/err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -qF -- "--pcap: " "$work/err" &&
  grep -qF "$work/full/" "$work/err" || { cat "$work/err"; fail "a failed write: exit $rc"; }
[ -z "$(ls -A "$work/full")" ] || fail "a failed write left $(ls -A "$work/full")"
echo "ok: a write that fails exits 2 and leaves nothing: $(cut -c1-110 "$work/err")"
n=$((n + 1))

# 3. The results do not change; the files do not depend on the threads or on skip-ahead.
for s in pfc ib; do
  scen="$here/pcap_$s.ini"
  "$sim" "$scen" --no-warnings --digest --json "$work/$s-plain.json" >"$work/$s-plain.out" ||
    fail "$s: the run without --pcap failed"
  "$sim" "$scen" --no-warnings --digest --json "$work/$s.json" --pcap "$work/$s" \
    >"$work/$s.out" || fail "$s: the run with --pcap failed"
  grep -q "^  pcap: 4 files in $work/$s, [1-9][0-9]* frames" "$work/$s.out" ||
    { cat "$work/$s.out"; fail "$s: no pcap summary line"; }
  ! grep -q "words no frame carries\|one-block packets" "$work/$s.out" ||
    fail "$s: words not written, or lengthened: $(grep pcap: "$work/$s.out")"
  [ "$(grep '^digest' "$work/$s-plain.out")" = "$(grep '^digest' "$work/$s.out")" ] ||
    fail "$s: the digest differs with --pcap"
  python3 - "$work/$s-plain.json" "$work/$s.json" <<'PY' || fail "$s: the JSON differs with --pcap"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b):
    d["summary"].pop("wall_seconds")
sys.exit(0 if a == b else 1)
PY
  "$sim" "$scen" --no-warnings --threads 2 --pcap "$work/$s-t2" >/dev/null ||
    fail "$s: the run on 2 threads failed"
  "$sim" "$scen" --no-warnings --step-all --pcap "$work/$s-all" >/dev/null ||
    fail "$s: the run with --step-all failed"
  for d in t2 all; do
    diff -r "$work/$s" "$work/$s-$d" >/dev/null || fail "$s: the files differ with $d"
  done
  echo "ok: $s: --pcap changes no result; the files are the same on 2 threads and stepping"
  n=$((n + 1))
done
"$sim" "$pfc" --no-warnings --pcap "$work/some" --pcap-links 'h1, sw0.3-*' >/dev/null ||
  fail "the run with --pcap-links failed"
[ "$(ls "$work/some" | tr '\n' ' ')" = "lfc-check.args sw0.1-h1.0.pcap sw0.3-h3.0.pcap " ] ||
  fail "--pcap-links 'h1, sw0.3-*' wrote $(ls "$work/some")"
cmp -s "$work/some/sw0.1-h1.0.pcap" "$work/pfc/sw0.1-h1.0.pcap" ||
  fail "a cable's file differs when fewer cables are captured"
[ "$(cut -d' ' -f1 "$work/some/lfc-check.args" | tr '\n' ' ')" = \
  "sw0.1-h1.0.pcap sw0.3-h3.0.pcap " ] || fail "lfc-check.args does not list the two files"
echo "ok: --pcap-links 'h1, sw0.3-*' writes those two cables, the same bytes, and their options"
n=$((n + 1))

# 4. tshark.
if ! command -v tshark >/dev/null 2>&1; then
  echo "test_sim_pcap.sh: tshark not found; make deps-verify installs it (Debian tshark)" >&2
  exit 2
fi
echo "tshark: $(tshark --version 2>/dev/null | head -n 1)"
python3 "$check" sim "$work/pfc.json" "$work/pfc" --quanta-switch "$QUANTA" \
  --quanta-host "$QUANTA" --ways "$WAYS" --require 50 || fail "PFC: tshark and the model differ"
n=$((n + 1))
python3 "$check" sim "$work/ib.json" "$work/ib" --ways "$WAYS" --classes "$CLASSES" \
  --require 50 || fail "IB: tshark and the model differ"
n=$((n + 1))

# The check can fail: one count of the model changed, one frame broken.
python3 - "$work/pfc.json" "$work/pfc-off.json" <<'PY' || fail "cannot make the changed JSON"
import json, sys
d = json.load(open(sys.argv[1]))
lk = next(l for l in d["links"] if l["xon"] > 0)
lk["xon"] += 1
json.dump(d, open(sys.argv[2], "w"))
PY
# break FILE: the first record's last byte (Ethernet: its FCS) or its ERF capture interface.
break_first() {
  python3 - "$1" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
at = 24 + 16  # the file header, then the first record's
if struct.unpack_from("<I", b, 20)[0] == 1:
    b[at + struct.unpack_from("<I", b, 24 + 8)[0] - 1] ^= 0x01
else:
    b[at + 9] ^= 0x01
open(sys.argv[1], "wb").write(b)
PY
}
cp -r "$work/pfc" "$work/pfc-broken" && break_first "$work/pfc-broken/sw0.1-h1.0.pcap"
cp -r "$work/ib" "$work/ib-broken" && break_first "$work/ib-broken/sw0.2-h2.0.pcap"
for bad in "a changed XON count|$work/pfc-off.json|$work/pfc|XON priorities|" \
           "a bad FCS|$work/pfc.json|$work/pfc-broken|FCS status|" \
           "an IB record of the wrong direction|$work/ib.json|$work/ib-broken|the model counts|ib"
do
  IFS='|' read -r what json dir pattern mode <<<"$bad"
  extra=(--quanta-switch "$QUANTA" --quanta-host "$QUANTA")
  [ "$mode" = ib ] && extra=(--classes "$CLASSES")
  python3 "$check" sim "$json" "$dir" --ways "$WAYS" "${extra[@]}" >"$work/out" 2>&1
  rc=$?
  [ "$rc" -eq 1 ] && grep -q "^MISMATCH .*$pattern" "$work/out" ||
    { cat "$work/out"; fail "$what: the check exits $rc, not 1 with '$pattern'"; }
  echo "ok: $what is found: $(grep -m1 '^MISMATCH' "$work/out" | cut -c1-100)"
  n=$((n + 1))
done
# 5. Frame lengths from the packets' bytes: every data frame of a one-flow run.
for c in "pfc|1002|1002|1" "ib|1000|998|197"; do
  IFS='|' read -r mode bytes want lt <<<"$c"
  printf '[sim]\nduration_us = 2\n[topology]\nkind = star\nhosts_per_switch = 2\n[switch]\nmode = %s\n[traffic.x]\npattern = flow\nsrc = 0\ndst = 1\npacket_bytes = %s\n' \
    "$mode" "$bytes" >"$work/len_$mode.ini"
  "$sim" "$work/len_$mode.ini" --no-progress --pcap "$work/len_$mode" >"$work/out" 2>&1 ||
    { cat "$work/out"; fail "length $mode: the run failed"; }
  got=$(python3 - "$work/len_$mode/sw0.0-h0.0.pcap" "$lt" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
erf = 16 if int(sys.argv[2]) == 197 else 0  # ERF's record header before an IB packet
off, lens = 24, set()
while off + 16 <= len(b):
    incl = struct.unpack_from("<I", b, off + 8)[0]
    if incl - erf > 128:  # data frames; PFC frames and FCPs are shorter
        lens.add(incl - erf)
    off += 16 + incl
print(" ".join(str(x) for x in sorted(lens)))
PY
)
  [ "$got" = "$want" ] || fail "length $mode: packet_bytes $bytes gives data frames of '$got' bytes, not $want"
  echo "ok: $mode, packet_bytes $bytes: data frames of $got bytes"
  n=$((n + 1))
done
echo "test-sim-pcap: $n checks passed"
