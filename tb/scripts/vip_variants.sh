#!/usr/bin/env bash
# make test-vip-variants: proof that the verification IP (lfc-check over the co-simulation's
# captures, docs/verify-your-rtl.md; the scoreboard of COMPARE=0, tb/common/tb_free.c) verifies
# RTL that is not cycle-equal to the model, and catches RTL that breaks the protocol.
#
#   tb/scripts/vip_variants.sh [NAME...]
#
# Each variant is a copy of rtl/ in $BUILD/vip-variants/NAME/rtl with one change made by sed (as
# tb/scripts/mutant_smoke.sh makes mutants; rtl/ is never touched), run on Icarus (it builds a
# configuration in seconds, where Verilator takes a minute) for a short run, seed 1:
#   good  well-behaved but not the model: the lockstep co-simulation must stop with a MISMATCH;
#         the same RTL with COMPARE=0 PCAP=1 must pass (exit 0), its captures must differ from
#         those of rtl/, and lfc-check must pass every port's capture (exit 0);
#   bad   broken: with COMPARE=0 PCAP=1, either lfc-check must exit 1 on some port with a line
#         `dir=A>B class=RULE` (the switch's direction) that the capture of rtl/ on the same port
#         has not (check:RULE), or the run must exit 1 with a `VIOLATION ... class=RULE` line of
#         the scoreboard (sb:RULE);
#   mac   the bytes of the switch's first PFC frame broken in rtl/'s capture
#         (tb/scripts/pcap_mac_fault.py KIND): lfc-check must exit 1 with that line.
# First, rtl/ itself with COMPARE=0 PCAP=1 on every configuration used: it must pass, the
# lockstep's captures must be the first bytes of its captures (the RTL is the model there, so
# feeding the partners the RTL's words changes nothing), and lfc-check must find nothing on any
# port of a configuration a good variant uses (their partners are well-behaved), and no line in
# the switch's direction (A>B) on any other.
#
# Environment: BUILD, MAKE, LFC_CHECK (lfc-check). Exit 0 every variant behaved as said, 1 one did
# not, 2 bad arguments.
set -uo pipefail
: "${BUILD:=build}" "${MAKE:=make}" "${LFC_CHECK:=$BUILD/tools/lfc_check}"
SIM=icarus
SEED=1
OUT="$BUILD/vip-variants"

# name | kind | file | sed expression (mac: the fault) | configuration | cycles | expect | what
VARIANTS=(
  # Well-behaved: each passes lfc-check and the scoreboard but is not the model, cycle for cycle.
  "latency_ib|good|lfc_switch.v|s/\\.Latency    \\(Latency\\)/.Latency    (Latency + 3)/; s/Latency - 1/Latency + 2/g|ib_basic|3000||SPEC §7.3: a pipeline 3 cycles longer than the configuration's latency"
  "latency_pfc|good|lfc_switch.v|s/\\.Latency    \\(Latency\\)/.Latency    (Latency + 3)/; s/Latency - 1/Latency + 2/g|pfc_small_buffer|3000||SPEC §7.3: the same in PFC mode, under XOFF/XON and SHARED drops"
  "fcp_rate|good|lfc_fcp_gen.v|s/\\(fctbs_i\\[v\\*12 \\+: 12\\] != sent_fctbs_q\\[v\\*12 \\+: 12\\]\\)/1'b0/; s/\\(fccl_i\\[v\\*12 \\+: 12\\] != sent_fccl_q\\[v\\*12 \\+: 12\\]\\)/1'b0/; s/PeriodM1  = FcpPeriod - 1;/PeriodM1  = FcpPeriod \\/ 8 - 1;/|ib_basic|3000||SPEC §5.5: FCPs by the timer alone, every fcp_period/8 cycles, none for a change of FCTBS or FCCL"
  "vlarb_weights|good|lfc_ib_port.v|s/\\.Low       \\(VlarbLow\\)/.Low       (VlarbLow + {64{12'h040}})/|ib_basic|3000||SPEC §5.6: another VL arbitration table, each low-priority weight 64 blocks more"
  "drr_quantum|good|lfc_pfc_port.v|s/\\.DrrQuantum \\(DrrQuantum\\)/.DrrQuantum (DrrQuantum * 4)/|pfc_small_buffer|3000||SPEC §8.2: another scheduler, DRR quanta four times the configuration's"
  # Broken: each must be caught.
  "no_credit|bad|lfc_credit_tx.v|s/assign send_ok_o = \\(diff <= 12'd2048\\);/assign send_ok_o = 1'b1;/|ib_credit_stress|1500|check:ib-send|SPEC §5.3: data sent without credit (the send rule always true); ib_credit_stress, whose slow partners make the switch wait for credit (in ib_incast_min an FCP after every packet halves the port's rate below its partner's drain, so credit never runs out there)"
  "fccl_nowrap|bad|lfc_credit_tx.v|s/assign send_ok_o = \\(diff <= 12'd2048\\);/assign send_ok_o = (fccl_q >= cr);/|ib_wrap|7000|sb:tx-stuck|SPEC §5.3: the FCCL compared with FCTBS + n as plain numbers, without the 12-bit wrap: once the partner's FCCL wraps past 4095 the port never sends again (a deadlock no link rule shows: the scoreboard's tx-stuck and sb-lost)"
  "fctbs_nowrap|bad|lfc_credit_tx.v|s/fctbs_d = start_i \\? cr : fctbs_q;/fctbs_d = start_i ? (({1'b0, fctbs_q} + {5'd0, head_nblk_i} > 13'd4095) ? 12'd4095 : cr) : fctbs_q;/|ib_wrap|7000|check:ib-fctbs|SPEC §5.3, §5.5: FCTBS stops at 4095 instead of wrapping; ib_wrap passes 4096 blocks on a VL"
  "pause_ignored|bad|lfc_pfc_rx.v|s/assign paused_o\\[g\\] = \\(timer_q\\[g\\*21 \\+: 21\\] != 21'd0\\);/assign paused_o[g] = 1'b0;/|pfc_small_buffer|3000|check:pfc-tx-paused|SPEC §6.7: received pauses ignored"
  "resume_early|bad|lfc_pfc_rx.v|s/timer_d\\[c\\*21 \\+: 21\\] = timer_q\\[c\\*21 \\+: 21\\] - 21'd1;/timer_d[c*21 +: 21] = (timer_q[c*21 +: 21] > 21'd4) ? timer_q[c*21 +: 21] - 21'd4 : 21'd0;/|pfc_watchdog|3000|check:pfc-tx-paused|SPEC §6.7: the pause timer counts 4 a cycle, so the port resumes at a quarter of the pause; pfc_watchdog, whose storm keeps a priority paused longer than the reaction budget (the partners of the other configurations end their pauses with XON within it)"
  "refresh_late|bad|lfc_pfc_port.v|s/\\.RefreshCycles \\(RefreshCycles\\)/.RefreshCycles (PauseQuanta + RefreshCycles)/|pfc_dynamic_ecn|2500|check:pfc-refresh-late|SPEC §6.6: the XOFF refresh due after the pause ran out; pfc_dynamic_ecn, whose ports stay in XOFF longer than pause_quanta"
  "lossless_drop|bad|lfc_credit_rx.v|s/assign admit_o = req_i \\&\\& \\(\\{8'd0, req_nblk_i\\} <= free_blocks\\);/assign admit_o = req_i \\&\\& ({8'd0, req_nblk_i} + 16'd4 <= free_blocks);/|ib_incast_min|3000|sb:sb-drop|SPEC §5.4: a data VL drops (cause CREDIT) with 4 blocks of the credit it granted still free: a lossless drop, which no capture shows (the scoreboard's sb-drop)"
  "pfc_opcode|mac||opcode|pfc_small_buffer|3000|check:eth-malformed|IEEE 802.1Qbb: a PFC frame with opcode 0x0102"
  "pfc_fcs|mac||fcs|pfc_small_buffer|3000|check:eth-malformed|IEEE 802.3 clause 3.2.9: a PFC frame with a bad FCS"
)

names="$(for v in "${VARIANTS[@]}"; do printf '%s ' "${v%%|*}"; done)"
for w in "$@"; do
  [[ " $names" == *" $w "* ]] || { echo "vip_variants: NAME '$w': one of: $names" >&2; exit 2; }
done
[ -x "$LFC_CHECK" ] || { echo "vip_variants: '$LFC_CHECK' is not an executable (lfc-check)" >&2; exit 2; }
selected=()
for v in "${VARIANTS[@]}"; do
  n="${v%%|*}"
  if [ $# -eq 0 ] || printf '%s\n' "$@" | grep -qx "$n"; then selected+=("$v"); fi
done
mkdir -p "$OUT" || { echo "vip_variants: cannot make $OUT" >&2; exit 2; }

ok=0
bad=0
pass() { echo "   ok: $*"; ok=$((ok + 1)); }
flunk() { echo "   FAIL: $*"; bad=$((bad + 1)); }

# cosim RTL_DIR COSIM_BUILD CONFIG CYCLES COMPARE LOG: one run; its exit status (make's 2 for a
# failed recipe is the run's: the status the run wrote to its rc file).
cosim() {
  local rtl="$1" cb="$2" config="$3" cycles="$4" compare="$5" log="$6" rc
  $MAKE --no-print-directory cosim SIM="$SIM" CONFIG="$config" SEED="$SEED" CYCLES="$cycles" \
    RTL_DIR="$rtl" COSIM_BUILD="$cb" PCAP=1 COMPARE="$compare" >"$log" 2>&1
  rc="$(cat "$cb/run/$SIM/$config/seed$SEED/rc" 2>/dev/null || echo 4)"
  return "$rc"
}

# check DIR TAG: lfc-check on every capture of DIR with the options of DIR/lfc-check.args; one
# report per port in DIR/TAG.portP.txt; prints "port=P rc=R" lines.
check() {
  local dir="$1" tag="$2" f opts
  [ -s "$dir/lfc-check.args" ] || { echo "port=- rc=2"; return; }
  while read -r f opts; do
    # shellcheck disable=SC2086  # opts is a list of options
    "$LFC_CHECK" --max-lines 20 $opts "$dir/$f" >"$dir/$tag.${f%.pcap}.txt" 2>&1
    echo "port=${f%.pcap} rc=$?"
  done <"$dir/lfc-check.args"
}

caps() { echo "$1/run/$SIM/$2/seed$SEED/pcap"; }

# 1. rtl/ on every configuration used.
declare -A clean_cfg=()
for v in "${selected[@]}"; do
  IFS='|' read -r name kind file expr config cycles expect what <<<"$v"
  [ "$kind" = good ] && clean_cfg[$config]=1
done
declare -A base_done=()
base_cb="$OUT/rtl/cosim"
for v in "${selected[@]}"; do
  IFS='|' read -r name kind file expr config cycles expect what <<<"$v"
  key="$config/$cycles"
  [ -n "${base_done[$key]:-}" ] && continue
  base_done[$key]=1
  echo "== rtl/ on $config ($cycles cycles), COMPARE=0 PCAP=1"
  mkdir -p "$OUT/rtl"
  cosim rtl "$base_cb" "$config" "$cycles" 0 "$OUT/rtl/$config.$cycles.log"
  rc=$?
  [ "$rc" -eq 0 ] || { flunk "rtl/ fails COMPARE=0 on $config: exit $rc ($OUT/rtl/$config.$cycles.log)"; continue; }
  d="$(caps "$base_cb" "$config")"
  rm -rf "$OUT/rtl/$config.$cycles" && cp -r "$d" "$OUT/rtl/$config.$cycles"
  # The mode itself changes nothing where the RTL is the model: the lockstep's captures are the
  # first bytes of COMPARE=0's (which may go on to drain).
  cosim rtl "$base_cb" "$config" "$cycles" 1 "$OUT/rtl/$config.$cycles.lockstep.log"
  rc=$?
  same=0
  for f in "$d"/port*.pcap; do
    cmp -s -n "$(stat -c %s "$f")" "$f" "$OUT/rtl/$config.$cycles/$(basename "$f")" &&
      same=$((same + 1))
  done
  if [ "$rc" -eq 0 ] && [ "$same" -gt 0 ] && [ "$same" -eq "$(ls "$d"/port*.pcap | wc -l)" ]; then
    pass "the lockstep passes, and its captures are the start of COMPARE=0's ($same ports)"
  else
    flunk "the lockstep exits $rc; $same ports' captures are the start of COMPARE=0's"
  fi
  res="$(check "$OUT/rtl/$config.$cycles" base)"
  if [ -n "${clean_cfg[$config]:-}" ]; then
    if grep -qv ' rc=0$' <<<"$res"; then
      flunk "lfc-check on rtl/'s captures of $config: $(tr '\n' ' ' <<<"$res")"
    else
      pass "PASS and lfc-check clean on every port ($(grep -c . <<<"$res") ports)"
    fi
  else
    ab="$(cat "$OUT/rtl/$config.$cycles"/base.*.txt | grep -c 'dir=A>B class=')"
    if [ "$ab" -ne 0 ]; then
      flunk "lfc-check finds $ab lines in the switch's direction on rtl/'s captures of $config"
    else
      pass "PASS; lfc-check finds nothing in the switch's direction (A>B) on any port"
    fi
  fi
done

# 2. The variants.
for v in "${selected[@]}"; do
  IFS='|' read -r name kind file expr config cycles expect what <<<"$v"
  dir="$OUT/$name"
  echo "== $kind variant $name on $config: $what"
  rm -rf "$dir"
  mkdir -p "$dir"
  base="$OUT/rtl/$config.$cycles"
  if [ "$kind" = mac ]; then
    mkdir -p "$dir/pcap"
    found=""
    for f in "$base"/port*.pcap; do
      if python3 tb/scripts/pcap_mac_fault.py "$expr" "$f" "$dir/pcap/$(basename "$f")" \
           >"$dir/fault.txt" 2>&1; then
        found="$(basename "$f")"
        break
      fi
    done
    [ -n "$found" ] || { flunk "no PFC frame of the switch in $base ($(cat "$dir/fault.txt"))"; continue; }
    sed 's/^/    /' "$dir/fault.txt"
    grep "^$found " "$base/lfc-check.args" >"$dir/pcap/lfc-check.args"
    res="$(check "$dir/pcap" var)"
    rule="${expect#check:}"
    line="$(grep -h -m1 "dir=A>B class=$rule " "$dir"/pcap/var.*.txt 2>/dev/null)"
    if grep -q ' rc=1$' <<<"$res" && [ -n "$line" ]; then
      pass "lfc-check exit 1: ${line:0:200}"
    else
      flunk "lfc-check on $found: $(tr '\n' ' ' <<<"$res") without a dir=A>B class=$rule line"
    fi
    continue
  fi
  cp -r rtl "$dir/rtl"
  sed -i -E "$expr" "$dir/rtl/$file"
  if diff -q "rtl/$file" "$dir/rtl/$file" >/dev/null; then
    flunk "the sed changed nothing in rtl/$file (the RTL changed?)"
    continue
  fi
  diff "rtl/$file" "$dir/rtl/$file" | sed -n 's/^[<>].*/    &/p' | cut -c1-150
  cb="$dir/cosim"
  if [ "$kind" = good ]; then
    cosim "$dir/rtl" "$cb" "$config" "$cycles" 1 "$dir/lockstep.log"
    rc=$?
    line="$(grep -m1 '^MISMATCH ' "$dir/lockstep.log")"
    if [ "$rc" -eq 1 ] && [ -n "$line" ]; then
      pass "the lockstep rejects it: ${line:0:150}"
    else
      flunk "the lockstep exits $rc without a MISMATCH line ($dir/lockstep.log)"
    fi
  fi
  cosim "$dir/rtl" "$cb" "$config" "$cycles" 0 "$dir/free.log"
  rc=$?
  d="$(caps "$cb" "$config")"
  if [ "$kind" = good ]; then
    if [ "$rc" -ne 0 ]; then
      flunk "COMPARE=0 exits $rc: $(grep -m2 -E '^(VIOLATION|FAIL|cosim:)' "$dir/free.log" | cut -c1-200 | tr '\n' ' ')"
      continue
    fi
    pass "COMPARE=0: $(grep -m1 '^scoreboard:' "$dir/free.log" | cut -c1-150)"
    differ=0
    for f in "$base"/port*.pcap; do
      cmp -s "$f" "$d/$(basename "$f")" || differ=$((differ + 1))
    done
    if [ "$differ" -gt 0 ]; then
      pass "its traffic differs from rtl/'s on $differ ports"
    else
      flunk "its captures are the same bytes as rtl/'s: not another behaviour"
    fi
    res="$(check "$d" var)"
    if grep -qv ' rc=0$' <<<"$res"; then
      flunk "lfc-check: $(tr '\n' ' ' <<<"$res"); $(grep -h -m1 '^time=' "$d"/var.*.txt | cut -c1-200)"
    else
      pass "lfc-check passes every port ($(grep -c . <<<"$res") captures)"
    fi
    continue
  fi
  # bad
  case "$expect" in
    sb:*)
      rule="${expect#sb:}"
      line="$(grep -m1 "^VIOLATION .*class=$rule " "$dir/free.log")"
      if [ "$rc" -eq 1 ] && [ -n "$line" ]; then
        pass "the scoreboard, exit 1: ${line:0:200}"
      else
        flunk "COMPARE=0 exits $rc without a VIOLATION line of class $rule ($dir/free.log)"
      fi ;;
    check:*)
      rule="${expect#check:}"
      if [ "$rc" -gt 1 ]; then
        flunk "COMPARE=0 exits $rc ($dir/free.log)"
        continue
      fi
      res="$(check "$d" var)"
      line=""
      for f in "$d"/var.port*.txt; do
        p="$(basename "$f" .txt)"
        p="${p#var.}"
        l="$(grep "dir=A>B class=$rule " "$f" | tail -n 1)" # the last printed: past the start
        [ -n "$l" ] || continue
        grep -q "dir=A>B class=$rule " "$base/base.$p.txt" && continue
        grep -q "^port=$p rc=1$" <<<"$res" || continue
        line="$p: $l"
        break
      done
      if [ -n "$line" ]; then
        pass "lfc-check exit 1, $(grep -h -m1 '^lfc-check:' "$d/var.${line%%:*}.txt" | sed 's/.*: //')"
        echo "       ${line:0:220}"
        [ "$rc" -eq 1 ] && echo "       (and the scoreboard: $(grep -m1 '^VIOLATION' "$dir/free.log" | cut -c1-160))"
      else
        flunk "no capture with lfc-check exit 1 and a dir=A>B class=$rule line that rtl/'s has not: $(tr '\n' ' ' <<<"$res")"
      fi ;;
  esac
done
echo "vip-variants: $ok checks passed, $bad failed (${#selected[@]} variants)"
[ "$bad" -eq 0 ]
