#!/usr/bin/env bash
# Cross-check the liblfc wire codecs with Wireshark (docs/wire-formats.md §7).
#
#   scripts/test_wire_tshark.sh GEN WORKDIR
#
# GEN (build/tools/lfc_wire_gen) writes pcaps of random frames of every kind through the codecs,
# and of the model's own traffic (--model-pfc, --model-ib), with, beside each, the fields every
# frame must show; tshark reads the pcaps back and
# scripts/wire_tshark_check.py compares field by field, and checks that the deliberately
# broken frames at the end are flagged (by tshark where it checks: Ethernet FCS, MAC Control
# opcode; by the liblfc decoder where tshark does not: LPCRC, VCRC).
#
# Exit 0 all agree, 1 a mismatch, 2 bad arguments, a generator failure or no tshark (make
# test-wire-tshark installs it first: deps-verify).
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "test_wire_tshark.sh: usage: test_wire_tshark.sh GEN WORKDIR" >&2
  exit 2
fi
gen="$1"
work="$2"
here="$(cd "$(dirname "$0")" && pwd)"
SEED="${WIRE_SEED:-0x1fc2026}"
COUNT="${WIRE_COUNT:-600}"
if ! [[ "$SEED" =~ ^(0x[0-9a-fA-F]{1,16}|[0-9]{1,19})$ ]]; then
  echo "test_wire_tshark.sh: WIRE_SEED='$SEED': a number, decimal or 0x hex (64 bits)" >&2
  exit 2
fi
if ! [[ "$COUNT" =~ ^[0-9]{1,6}$ ]] || [ "$COUNT" -gt 1000000 ]; then
  echo "test_wire_tshark.sh: WIRE_COUNT='$COUNT': a whole number 0..1000000" >&2
  exit 2
fi
if [ ! -x "$gen" ]; then
  echo "test_wire_tshark.sh: GEN '$gen' is not an executable (build/tools/lfc_wire_gen)" >&2
  exit 2
fi

mkdir -p "$work"

# A write that fails (a file-size limit; SIGXFSZ ignored so that write() returns EFBIG) exits 2
# with one line naming the file, and leaves no pcap behind, complete or not.
rm -f "$work/full.pcap" "$work/full.expect"
set +e
( trap '' XFSZ; ulimit -f 8
  exec "$gen" --eth --count 2000 "$work/full.pcap" "$work/full.expect" ) \
  >/dev/null 2>"$work/full.err"
rc=$?
set -e
if [ "$rc" -ne 2 ] || [ "$(wc -l <"$work/full.err")" -ne 1 ] ||
   ! grep -q "full\." "$work/full.err" || [ -e "$work/full.pcap" ] || [ -e "$work/full.expect" ] ||
   ls "$work"/full.pcap.* >/dev/null 2>&1; then
  echo "MISMATCH lfc_wire_gen on a failing write: exit $rc (want 2), stderr:" >&2
  cat "$work/full.err" >&2
  ls "$work" >&2
  exit 1
fi
echo "lfc_wire_gen: a failing write exits 2 ($(cat "$work/full.err"))"

if ! command -v tshark >/dev/null 2>&1; then
  echo "test_wire_tshark.sh: tshark not found; make deps-verify installs it (Debian tshark)" >&2
  exit 2
fi

"$gen" --eth --seed "$SEED" --count "$COUNT" "$work/eth.pcap" "$work/eth.expect" || exit 2
"$gen" --ib-erf --seed "$SEED" --count "$COUNT" "$work/ib_erf.pcap" "$work/ib_erf.expect" || exit 2
"$gen" --ib-erf-fcp8 --seed "$SEED" --count "$COUNT" "$work/ib_fcp8.pcap" "$work/ib_fcp8.expect" ||
  exit 2
"$gen" --ib-247 --seed "$SEED" --count 4 "$work/ib_247.pcap" "$work/ib_247.expect" || exit 2
# The model's own traffic (a star testbed under incast), every word the switch sends.
"$gen" --model-pfc --seed "$SEED" --cycles 6000 "$work/model_pfc.pcap" "$work/model_pfc.expect" ||
  exit 2
"$gen" --model-ib --seed "$SEED" --cycles 6000 "$work/model_ib.pcap" "$work/model_ib.expect" ||
  exit 2

echo "tshark: $(tshark --version 2>/dev/null | head -n 1)"
status=0
python3 "$here/wire_tshark_check.py" eth "$work/eth.pcap" "$work/eth.expect" || status=$?
[ "$status" -eq 0 ] || exit "$status"
python3 "$here/wire_tshark_check.py" ib "$work/ib_erf.pcap" "$work/ib_erf.expect" || status=$?
[ "$status" -eq 0 ] || exit "$status"
python3 "$here/wire_tshark_check.py" ib "$work/ib_fcp8.pcap" "$work/ib_fcp8.expect" || status=$?
[ "$status" -eq 0 ] || exit "$status"
python3 "$here/wire_tshark_check.py" eth "$work/model_pfc.pcap" "$work/model_pfc.expect" ||
  status=$?
[ "$status" -eq 0 ] || exit "$status"
python3 "$here/wire_tshark_check.py" ib "$work/model_ib.pcap" "$work/model_ib.expect" || status=$?
[ "$status" -eq 0 ] || exit "$status"

# LINKTYPE_INFINIBAND (247): tshark 4.0 refuses the file ("network type 247 unknown or
# unsupported"); report what this tshark does, without failing on either answer.
if tshark -r "$work/ib_247.pcap" >/dev/null 2>"$work/ib_247.err"; then
  echo "note: this tshark reads LINKTYPE_INFINIBAND (247) files"
else
  echo "note: this tshark does not read LINKTYPE_INFINIBAND (247): $(grep -m1 -i 'network type' \
"$work/ib_247.err" || head -n 1 "$work/ib_247.err")"
fi
echo "test-wire-tshark: ok"
