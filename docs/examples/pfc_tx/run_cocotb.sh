#!/usr/bin/env bash
# docs/examples/pfc_tx/run_cocotb.sh - run the cocotb example of docs/verify-your-rtl.md
# (test_pfc_tx_stub.py on pfc_tx_stub.v, lfc's PFC checker on its line). Called by pfc_tx.mk.
#
#   run_cocotb.sh run SIM IGNORE_PAUSE   one run; exit 0 if the test passed, 1 if it failed
#   run_cocotb.sh test SIM...            on each simulator: the stub as written must pass, with
#                                        IgnorePause=1 it must fail with a pfc-reaction line
#
# Environment (from pfc_tx.mk): BUILD, VENV (with cocotb and the lfc package installed), LFC_LIB.
set -uo pipefail
: "${BUILD:=build}" "${VENV:=$BUILD/venv}" "${LFC_LIB:=$BUILD/liblfc.so}"

here="$(cd "$(dirname "$0")" && pwd)"
OUT="$BUILD/cocotb-example"

usage() {
  echo "usage: $0 run icarus|verilator 0|1 | test icarus|verilator..." >&2
  exit 2
}

# $1 simulator, $2 IgnorePause. The log is $OUT/$1-$2/log.txt; exit 0 when the test passed.
run_one() {
  local sim="$1" ignore="$2" out="$OUT/$1-$2"
  case "$sim" in icarus | verilator) ;; *)
    echo "run_cocotb.sh: simulator '$sim': icarus or verilator" >&2
    exit 2 ;;
  esac
  case "$ignore" in 0 | 1) ;; *)
    echo "run_cocotb.sh: IgnorePause '$ignore': 0 or 1" >&2
    exit 2 ;;
  esac
  mkdir -p "$out"
  out="$(realpath "$out")"
  rm -f "$out/results.xml"
  (
    export PATH="$(realpath "$VENV")/bin:$PATH"
    LFC_LIB="$(realpath "$LFC_LIB")"
    export LFC_LIB
    unset MAKEFLAGS MFLAGS MAKELEVEL # cocotb's make is not part of ours
    cd "$here" &&
      make --no-print-directory -f Makefile.sim SIM="$sim" IGNORE_PAUSE="$ignore" \
        SIM_BUILD="$out/sim" COCOTB_RESULTS_FILE="$out/results.xml"
  ) >"$out/log.txt" 2>&1
  # cocotb's make succeeds whether the test passed or not: the results file decides.
  [ -f "$out/results.xml" ] && grep -q '<testcase' "$out/results.xml" &&
    ! grep -q '<failure' "$out/results.xml"
}

case "${1:-}" in
run)
  [ $# -eq 3 ] || usage
  t0=$(date +%s)
  run_one "$2" "$3"
  rc=$?
  log="$OUT/$2-$3/log.txt"
  grep -o 'time=[0-9]*ps link=.*' "$log" | sort -u | head -n 5
  grep -m1 -o '[0-9]* frames on the line.*' "$log"
  if [ $rc -eq 0 ]; then
    echo "PASS cocotb example sim=$2 IgnorePause=$3 ($(($(date +%s) - t0)) s, log $log)"
  else
    echo "FAIL cocotb example sim=$2 IgnorePause=$3 ($(($(date +%s) - t0)) s, log $log)"
    exit 1
  fi
  ;;
test)
  shift
  [ $# -gt 0 ] || usage
  bad=0
  for sim in "$@"; do
    t0=$(date +%s)
    if run_one "$sim" 0; then
      echo "PASS $sim: the stub honours the pause, no violation ($(($(date +%s) - t0)) s)"
    else
      echo "FAIL $sim: the stub as written failed (log $OUT/$sim-0/log.txt):"
      grep -E 'Error|error|assert' "$OUT/$sim-0/log.txt" | head -n 10 | sed 's/^/  | /'
      bad=1
    fi
    t0=$(date +%s)
    run_one "$sim" 1
    rc=$?
    line="$(grep -m1 -o 'time=[0-9]*ps link=0 dir=A>B class=pfc-reaction .*' "$OUT/$sim-1/log.txt")"
    if [ $rc -ne 0 ] && [ -n "$line" ]; then
      echo "PASS $sim: IgnorePause=1 caught ($(($(date +%s) - t0)) s): $line"
    else
      echo "FAIL $sim: IgnorePause=1 not caught (exit $rc, log $OUT/$sim-1/log.txt)"
      bad=1
    fi
  done
  [ $bad -eq 0 ] && echo "cocotb example: every run as expected"
  exit $bad
  ;;
*) usage ;;
esac
