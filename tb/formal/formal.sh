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
# "NOT CAUGHT". Exit status 1 if anything is not proved (a property checked by BMC only,
# BOUNDED, is not proved either) or a broken copy is not caught, 2 on bad usage. Each Yosys run
# is limited to FORMAL_TIMEOUT seconds (default 600).

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

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# Yosys script front: read the RTL files and the harness, set parameters, flatten, map
# memories to registers (the sat engine has no memories).
#   front DEFINES TOP "PARAMS" FILES...
# PROBES, if set, is a list of HARNESS_WIRE=INTERNAL_WIRE: after flatten each undriven probe
# wire of the harness is connected to a wire inside an RTL block (flattened name, e.g.
# u_sw.shared_used), in place of the hierarchical references Yosys 0.23 does not read.
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
  for kv in ${PROBES:-}; do
    echo "connect -set ${kv%%=*} ${kv#*=}"
  done
  echo "memory_map"
  echo "opt -fast"
}

# prove NAME SPEC TOP "PARAMS" MAXSTEPS RTLFILES...
# SAT_LEMMAS, if set, adds `sat -prove SIGNAL VALUE` goals: lemmas on registers inside an RTL
# block (flattened names, e.g. u_port_tx.slot_cnt_q), proved in the same induction as the
# harness's assertions and assumed with them in its hypothesis.
prove() {
  local name=$1 spec=$2 top=$3 params=$4 maxsteps=$5
  shift 5
  local ys="$OUT/$name.ys" log="$OUT/$name.log" t0 t1 depth
  {
    front "" "$top" "$params" "$@" "$HERE/$top.v"
    echo "sat -tempinduct -prove-asserts ${SAT_LEMMAS:-}-set-assumes -set-init-zero -seq 1" \
         "-maxsteps $maxsteps"
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
    grep -q "^ERROR:" "$log" && why="yosys: $(grep -m 1 "^ERROR:" "$log")"
    printf "FAILED   %-24s %-10s %s (log: %s)\n" "$name" "$spec" "$why" "$log"
    failures=$((failures + 1))
  fi
}

# bounded NAME SPEC TOP "PARAMS" STEPS RTLFILES...: a bounded model check from reset only.
# Not a proof (every property must be proved): BOUNDED counts as a failure. No
# property uses it now; it is kept for a property whose induction is not written yet.
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
    printf "BOUNDED  %-24s %-10s %s cycles from reset without violation, %s (%s s, %s)\n" \
      "$name" "$spec" "$steps" "BMC only, not proved: a failure" "$(secs "$t0" "$t1")" "$params"
  else
    printf "FAILED   %-24s %-10s violated within %s cycles, or timeout (log: %s)\n" \
      "$name" "$spec" "$steps" "$log"
  fi
  failures=$((failures + 1))
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

# ---- §5.5 FCP generation: changes coalesced by fcp_holdoff, none lost ----
prove FCP_HOLDOFF "§5.5" fcp_gen_props "" 4 $RTL/lfc_fcp_gen.v
prove FCP_HOLDOFF_0 "§5.5" fcp_gen_props "FcpHoldoff=0" 4 $RTL/lfc_fcp_gen.v
prove FCP_HOLDOFF_PERIODIC "§5.5" fcp_gen_props "FcpHoldoff=9" 4 $RTL/lfc_fcp_gen.v
broken FCP_HOLDOFF change_early fcp_gen_props "" 8 $RTL/lfc_fcp_gen.v \
  "s/(timer_q\[v\*16 +: 16\] <= OPEN_AT)/(timer_q[v*16 +: 16] <= OPEN_AT + 16'd1)/"
broken FCP_HOLDOFF change_late fcp_gen_props "" 8 $RTL/lfc_fcp_gen.v \
  "s/(timer_q\[v\*16 +: 16\] <= OPEN_AT)/(timer_q[v*16 +: 16] < OPEN_AT)/"

# ---- §6.7 pause timers: no underflow, quanta 0 resumes in the next cycle ----
prove PAUSE_TIMER "§6.7" pfc_rx_props "SpeedDiv=3" 4 $RTL/lfc_pfc_rx.v
prove PAUSE_TIMER_K16 "§6.7" pfc_rx_props "SpeedDiv=16 Classes=8" 4 $RTL/lfc_pfc_rx.v
broken PAUSE_TIMER underflow pfc_rx_props "SpeedDiv=3" 4 $RTL/lfc_pfc_rx.v \
  "s/end else if (timer_q\[c\*21 +: 21\] != 21'd0) begin/end else begin/"
broken PAUSE_TIMER quanta0_ignored pfc_rx_props "SpeedDiv=3" 4 $RTL/lfc_pfc_rx.v \
  "s/if (frame_i \&\& en_i\[c\]) begin/if (frame_i \&\& en_i[c] \&\& (time_i[c*16 +: 16] != 16'd0)) begin/"

# ---- §2.4, §5.2 line time: slack in range, mrg only on 2+ blocks, nothing starts in a gap ----
# The slot counter of an unreachable state may start anywhere in its 4 bits; with k = 1 the
# lemma slot_cnt_q = 0 rules that out, with k = 2 the induction runs past the counter's wrap.
SAT_LEMMAS="-prove u_port_tx.slot_cnt_q 0 " \
  prove LINE_TIME_IB "§2.4" port_tx_props "Mode=0 SpeedDiv=1" 4 $RTL/lfc_port_tx.v
prove LINE_TIME "§2.4" port_tx_props "Mode=1 SpeedDiv=2" 20 $RTL/lfc_port_tx.v
broken LINE_TIME no_saturation port_tx_props "Mode=1 SpeedDiv=2" 12 $RTL/lfc_port_tx.v \
  "s/slack_sat = (x > SLACK_MAX) ? SLACK_MAX\[7:0\] : x\[7:0\];/slack_sat = x[7:0];/"
broken LINE_TIME mrg_on_one_block port_tx_props "Mode=1 SpeedDiv=2" 8 $RTL/lfc_port_tx.v \
  "s/WIRE_TIME \&\& (pick_nblk_i >= 8'd2) \&\& /WIRE_TIME \&\& /"
broken LINE_TIME gap_not_idled port_tx_props "Mode=1 SpeedDiv=2" 8 $RTL/lfc_port_tx.v \
  "s/wire gap  = WIRE_TIME \&\& slack_q\[7\];/wire gap  = 1'b0;/"

if [ "$MODE" = all ]; then
  # ---- §6.2-§6.4, §7 buffer accounting: counters = what is held ----
  prove BUFFER_SUM "§6.2-6.4" buffer_props "Classes=1" 2 $RTL/lfc_buffer.v
  # Two priorities on one port (the per-class admission and frees); 2 ports x 2 priorities did
  # not finish in 8 minutes.
  prove BUFFER_SUM_2PRIO "§6.2-6.4" buffer_props "Ports=1 Classes=2" 2 $RTL/lfc_buffer.v
  broken BUFFER_SUM frees_not_subtracted buffer_props "Classes=1" 4 $RTL/lfc_buffer.v \
    "s/shared_used_d = chain\[Ports\*21 +: 20\] - fs_total\[19:0\];/shared_used_d = chain[Ports*21 +: 20];/"

  # ---- §6.1-§6.4, §10 the shared-pool counters inside a whole switch (any link input) ----
  SW_PROBES="sw_shared_used=u_sw.shared_used sw_pg_shared=u_sw.pg_shared"
  SW_PROBES="$SW_PROBES sw_pg_hdrm=u_sw.pg_hdrm"
  PROBES="$SW_PROBES" prove SWITCH_SHARED_SUM "§6.1-6.4" switch_props "" 2 $RTL/lfc_*.v
  PROBES="$SW_PROBES" broken SWITCH_SHARED_SUM frees_not_subtracted switch_props "" 10 \
    $RTL/lfc_buffer.v \
    "s/shared_used_d = chain\[Ports\*21 +: 20\] - fs_total\[19:0\];/shared_used_d = chain[Ports*21 +: 20];/" \
    $(ls $RTL/lfc_*.v | grep -v lfc_buffer.v)

  # ---- §6.4-§6.7, §11 PFC headroom: no HEADROOM drop with a peer that obeys the pause ----
  HR_FILES="$RTL/lfc_buffer.v $RTL/lfc_pfc_gen.v $RTL/lfc_port_tx.v $RTL/lfc_pfc_rx.v"
  SAT_LEMMAS="-prove u_port_tx.slot_cnt_q 0 " \
    prove PFC_HEADROOM "§6,§11" pfc_headroom_props "HeadroomBlocks=7" 10 $HR_FILES
  # mtu 3: headroom 2 * 3 - 1 + 4 = 9 (§11).
  SAT_LEMMAS="-prove u_port_tx.slot_cnt_q 0 " \
    prove PFC_HEADROOM_MTU3 "§6,§11" pfc_headroom_props "MtuBlocks=3 HeadroomBlocks=9" 12 \
    $HR_FILES
  broken PFC_HEADROOM xoff_ignores_headroom pfc_headroom_props "HeadroomBlocks=7" 25 \
    $RTL/lfc_pfc_gen.v "s/xoff_cond = (hd != 16'd0) || /xoff_cond = /" \
    $RTL/lfc_buffer.v $RTL/lfc_port_tx.v $RTL/lfc_pfc_rx.v
  # No refresh frames: the peer's pause runs out while the PG is still xoff.
  no_refresh="s/en_o\[c\] = pfc_pend_q\[c\] || "
  no_refresh="$no_refresh(xoff_q\[c\] \&\& (refresh_q\[c\*16 +: 16\] == 16'd0));"
  no_refresh="$no_refresh/en_o[c] = pfc_pend_q[c];/"
  broken PFC_HEADROOM no_refresh pfc_headroom_props "HeadroomBlocks=7" 30 \
    $RTL/lfc_pfc_gen.v "$no_refresh" \
    $RTL/lfc_buffer.v $RTL/lfc_port_tx.v $RTL/lfc_pfc_rx.v
  too_small PFC_HEADROOM headroom_5_below_bound pfc_headroom_props "HeadroomBlocks=5" 25 \
    $HR_FILES
fi

if [ "$failures" -ne 0 ]; then
  echo "formal: $failures check(s) failed"
  exit 1
fi
echo "formal: every property proved, every broken copy caught"
