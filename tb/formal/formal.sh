#!/usr/bin/env bash
# formal.sh - run the formal proofs of tb/formal/ (k-induction with Yosys `sat`) and the bounded
# checks that each property fails on deliberately broken RTL. See tb/formal/README.md.
#
#   tb/formal/formal.sh OUT_DIR [all|quick]
#
# For every property: one Yosys run proves the harness's assertions by temporal induction
# (`sat -tempinduct`: base case and induction step of growing length up to MAXSTEPS) and prints
# PROVED with the induction length that succeeded, or FAILED. Then, for every mutation of that
# property, a copy of one RTL file is broken with sed in OUT_DIR/broken/<name>/ and a bounded
# model check (`sat -seq BMC`) of the property's own assertions (lemmas left out:
# -DFORMAL_PROPERTY_ONLY) must find a counterexample; it prints "fails as required" or
# "NOT CAUGHT". Exit status 1 if anything is not proved or a broken copy is not caught, 2 on bad
# usage. Each Yosys run is limited to FORMAL_TIMEOUT seconds (default 600).

set -u

usage() {
  echo "usage: $0 OUT_DIR [all|quick]" >&2
  exit 2
}

[ $# -ge 1 ] && [ $# -le 2 ] || usage
OUT=$1
MODE=${2:-all}
case "$MODE" in all|quick) ;; *) echo "$0: mode '$MODE': allowed: all, quick" >&2; exit 2;; esac

YOSYS=${YOSYS:-yosys}
TIMEOUT=${FORMAL_TIMEOUT:-600}
HERE=tb/formal
RTL=rtl
mkdir -p "$OUT" "$OUT/broken"
failures=0
bounded_only=0

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# Yosys script front: read the RTL files and the harness, set parameters, flatten.
#   front DEFINES TOP "PARAMS" FILES...
front() {
  local defs=$1 top=$2 params=$3
  shift 3
  echo "read_verilog -formal -DFORMAL $defs -I$RTL $*"
  local kv
  for kv in $params; do
    echo "chparam -set ${kv%%=*} ${kv#*=} $top"
  done
  echo "prep -top $top"
  echo "flatten"
  echo "opt -fast"
}

# prove NAME SPEC TOP "PARAMS" MAXSTEPS RTLFILES...
prove() {
  local name=$1 spec=$2 top=$3 params=$4 maxsteps=$5
  shift 5
  local ys="$OUT/$name.ys" log="$OUT/$name.log" t0 t1 depth
  {
    front "" "$top" "$params" "$@" "$HERE/$top.v"
    echo "sat -tempinduct -prove-asserts -set-assumes -set-init-zero -seq 1 -maxsteps $maxsteps"
  } > "$ys"
  t0=$(now)
  timeout "$TIMEOUT" nice -n 10 "$YOSYS" -q -l "$log" -s "$ys" > /dev/null 2>&1
  t1=$(now)
  if grep -q "Induction step proven: SUCCESS" "$log"; then
    depth=$(grep -o "Trying induction with length [0-9]*" "$log" | tail -n 1 | awk '{print $NF}')
    printf "PROVED   %-24s %-10s k-induction depth %-3s %8s s   (%s)\n" \
      "$name" "$spec" "$depth" "$(secs "$t0" "$t1")" "$params"
  else
    local why="induction not reached within $maxsteps steps"
    grep -q "base case: FAIL" "$log" && why="base case fails: the property is violated"
    [ "$(secs "$t0" "$t1" | cut -d. -f1)" -ge "$TIMEOUT" ] && why="timeout ${TIMEOUT} s"
    printf "FAILED   %-24s %-10s %s (log: %s)\n" "$name" "$spec" "$why" "$log"
    failures=$((failures + 1))
  fi
}

# bounded NAME SPEC TOP "PARAMS" STEPS RTLFILES...: a bounded model check from reset only.
bounded() {
  local name=$1 spec=$2 top=$3 params=$4 steps=$5
  shift 5
  local ys="$OUT/$name.ys" log="$OUT/$name.log" t0 t1
  {
    front "" "$top" "$params" "$@" "$HERE/$top.v"
    echo "sat -seq $steps -prove-asserts -set-assumes -set-init-zero"
  } > "$ys"
  t0=$(now)
  timeout "$TIMEOUT" nice -n 10 "$YOSYS" -q -l "$log" -s "$ys" > /dev/null 2>&1
  t1=$(now)
  if grep -q "SAT proof finished - no model found: SUCCESS" "$log"; then
    printf "BOUNDED  %-24s %-10s no violation in %s cycles from reset (BMC, not induction) %6s s   (%s)\n" \
      "$name" "$spec" "$steps" "$(secs "$t0" "$t1")" "$params"
    bounded_only=$((bounded_only + 1))
  else
    printf "FAILED   %-24s %-10s violated within %s cycles, or timeout (log: %s)\n" \
      "$name" "$spec" "$steps" "$log"
    failures=$((failures + 1))
  fi
}

# too_small NAME WHAT TOP "PARAMS" STEPS RTLFILES...: the same bounded check with a parameter
# set below what the property needs must find a counterexample (the check reaches the corner).
too_small() {
  local name=$1 what=$2 top=$3 params=$4 steps=$5
  shift 5
  local dir="$OUT/broken/$name.$what" t0 t1
  mkdir -p "$dir"
  {
    front "-DFORMAL_PROPERTY_ONLY" "$top" "$params" "$@" "$HERE/$top.v"
    echo "sat -seq $steps -prove-asserts -set-assumes -set-init-zero"
  } > "$dir/bmc.ys"
  t0=$(now)
  timeout "$TIMEOUT" nice -n 10 "$YOSYS" -q -l "$dir/bmc.log" -s "$dir/bmc.ys" > /dev/null 2>&1
  t1=$(now)
  if grep -q "SAT proof finished - model found: FAIL" "$dir/bmc.log"; then
    printf "  broken %-24s %-26s fails as required (BMC, %s steps) %6s s   (%s)\n" \
      "$name" "$what" "$steps" "$(secs "$t0" "$t1")" "$params"
  else
    printf "  broken %-24s %-26s NOT CAUGHT in %s steps (log: %s)\n" "$name" "$what" "$steps" \
      "$dir/bmc.log"
    failures=$((failures + 1))
  fi
}

# broken NAME MUTANT TOP "PARAMS" BMC RTLFILE SED OTHER_RTLFILES...
# RTLFILE is copied to OUT/broken/NAME.MUTANT/ and changed by SED (which must change it).
broken() {
  local name=$1 mutant=$2 top=$3 params=$4 bmc=$5 file=$6 expr=$7
  shift 7
  local dir="$OUT/broken/$name.$mutant"
  local copy="$dir/$(basename "$file")" ys="$dir/bmc.ys" log="$dir/bmc.log" t0 t1
  mkdir -p "$dir"
  sed "$expr" "$file" > "$copy"
  if cmp -s "$file" "$copy"; then
    printf "ERROR    %-24s mutation '%s' does not change %s (sed: %s)\n" \
      "$name" "$mutant" "$file" "$expr"
    failures=$((failures + 1))
    return
  fi
  {
    front "-DFORMAL_PROPERTY_ONLY" "$top" "$params" "$copy" "$@" "$HERE/$top.v"
    echo "sat -seq $bmc -prove-asserts -set-assumes -set-init-zero"
  } > "$ys"
  t0=$(now)
  timeout "$TIMEOUT" nice -n 10 "$YOSYS" -q -l "$log" -s "$ys" > /dev/null 2>&1
  t1=$(now)
  if grep -q "SAT proof finished - model found: FAIL" "$log"; then
    printf "  broken %-24s %-26s fails as required (BMC, %s steps) %6s s\n" \
      "$name" "$mutant" "$bmc" "$(secs "$t0" "$t1")"
  else
    printf "  broken %-24s %-26s NOT CAUGHT in %s steps (log: %s)\n" "$name" "$mutant" "$bmc" "$log"
    failures=$((failures + 1))
  fi
}

echo "== formal: k-induction proofs and broken-RTL checks (Yosys $("$YOSYS" -V | awk '{print $2}'), sat/MiniSat)"

# ---- §5.3 credit transmit: the send rule across FCTBS/FCCL wrap-around ----
prove CREDIT_TX "§5.3" credit_tx_props "" 4 $RTL/lfc_credit_tx.v
broken CREDIT_TX half_space_3072 credit_tx_props "" 4 $RTL/lfc_credit_tx.v \
  "s/(diff <= 12'd2048)/(diff <= 12'd3072)/"

# ---- §5.4 credit receive: no overflow, no CREDIT drop with a legal peer ----
prove CREDIT_RX "§5.4" credit_rx_props "Blocks=300" 4 $RTL/lfc_credit_rx.v
prove CREDIT_RX_BIG "§5.4" credit_rx_props "Blocks=3000" 4 $RTL/lfc_credit_rx.v
broken CREDIT_RX free_plus_one credit_rx_props "Blocks=300" 10 $RTL/lfc_credit_rx.v \
  "s/free_blocks = BLOCKS - occ_q;/free_blocks = BLOCKS + 16'd1 - occ_q;/"

# ---- §6.7 pause timers: no underflow, quanta 0 resumes in the next cycle ----
prove PAUSE_TIMER "§6.7" pfc_rx_props "SpeedDiv=3" 4 $RTL/lfc_pfc_rx.v
prove PAUSE_TIMER_K16 "§6.7" pfc_rx_props "SpeedDiv=16 Classes=8" 4 $RTL/lfc_pfc_rx.v
broken PAUSE_TIMER underflow pfc_rx_props "SpeedDiv=3" 4 $RTL/lfc_pfc_rx.v \
  "s/end else if (timer_q\[c\*21 +: 21\] != 21'd0) begin/end else begin/"
broken PAUSE_TIMER quanta0_ignored pfc_rx_props "SpeedDiv=3" 4 $RTL/lfc_pfc_rx.v \
  "s/if (frame_i \&\& en_i\[c\]) begin/if (frame_i \&\& en_i[c] \&\& (time_i[c*16 +: 16] != 16'd0)) begin/"

if [ "$MODE" = all ]; then
  # ---- §6.2-§6.4, §7 buffer accounting: counters = what is held ----
  prove BUFFER_SUM "§6.2-6.4" buffer_props "Classes=1" 2 $RTL/lfc_buffer.v
  broken BUFFER_SUM frees_not_subtracted buffer_props "Classes=1" 4 $RTL/lfc_buffer.v \
    "s/shared_used_d = chain\[Ports\*21 +: 20\] - fs_total\[19:0\];/shared_used_d = chain[Ports*21 +: 20];/"

  # ---- §6.4-§6.7, §11 PFC headroom: no HEADROOM drop with a peer that obeys the pause ----
  HR_FILES="$RTL/lfc_buffer.v $RTL/lfc_pfc_gen.v $RTL/lfc_port_tx.v $RTL/lfc_pfc_rx.v"
  bounded PFC_HEADROOM "§6,§11" pfc_headroom_props "HeadroomBlocks=7" 25 $HR_FILES
  broken PFC_HEADROOM xoff_ignores_headroom pfc_headroom_props "HeadroomBlocks=7" 25 \
    $RTL/lfc_pfc_gen.v "s/xoff_cond = (hd != 16'd0) || /xoff_cond = /" \
    $RTL/lfc_buffer.v $RTL/lfc_port_tx.v $RTL/lfc_pfc_rx.v
  too_small PFC_HEADROOM headroom_5_below_bound pfc_headroom_props "HeadroomBlocks=5" 25 \
    $HR_FILES
fi

if [ "$failures" -ne 0 ]; then
  echo "formal: $failures check(s) failed"
  exit 1
fi
if [ "$bounded_only" -ne 0 ]; then
  echo "formal: every property proved except $bounded_only checked by BMC only (BOUNDED above);" \
       "every broken copy caught"
else
  echo "formal: every property proved, every broken copy caught"
fi
