#!/usr/bin/env bash
# Mutant smoke test: proof that the co-simulation catches RTL bugs.
#
# Each mutant is one hand-made change (sed) to a copy of rtl/ in build/mutants/<name>/rtl; the
# co-simulation of a configuration that exercises the changed rule must then fail with a
# MISMATCH line. A mutant that passes ("survives") fails this script. rtl/ is never touched.
#
#   tb/scripts/mutant_smoke.sh [NAME...]      (make mutants)
#
# Environment: MUTANT_SIM (default icarus: builds in seconds), BUILD, MAKE.
set -uo pipefail
: "${BUILD:=build}" "${MAKE:=make}" "${MUTANT_SIM:=icarus}"

# name | file | sed expression | configuration | cycles | what it breaks [| simulator]
# (the simulator, if given, replaces MUTANT_SIM: a forgotten reset shows only where registers
# start at random values, which Verilator's runs do (tb/scripts/cosim.sh))
MUTANTS=(
  "send_rule_window|lfc_credit_tx.v|s/\\(diff <= 12'd2048\\)/(diff <= 12'd1024)/|ib_wrap|3000|SPEC §5.3: the 2048-block half-space window of the send rule"
  "xoff_compare|lfc_pfc_gen.v|s/\\(sh >= th_i\\)/(sh > th_i)/|pfc_small_buffer|3000|SPEC §6.5: xoff_cond pg_shared >= T"
  "lfsr_taps|lfc_ecn.v|s/32'h80200003/32'h80200001/|pfc_dynamic_ecn|3000|SPEC §9.3: the LFSR polynomial"
  "pause_quantum_k|lfc_pfc_rx.v|s/\\* \\{16'd0, K\\}/* {16'd0, 5'd1}/|pfc_cut_through_misbehave|3000|SPEC §6.7: one quantum is k cycles"
  "pause_timer_reset|lfc_pfc_rx.v|s/timer_q <= \\{\\(Classes \\* 21\\)\\{1'b0\\}\\};/timer_q <= timer_d;/|pfc_basic|3000|SPEC §13: rst_ni clears the pause timers|verilator"
)

# shellcheck source=tb/scripts/args.sh
. "$(dirname "$0")/args.sh"
args_sim mutants MUTANT_SIM "$MUTANT_SIM"
want=("$@")
names="$(for m in "${MUTANTS[@]}"; do printf '%s ' "${m%%|*}"; done)"
for w in "${want[@]}"; do
  [[ " $names" == *" $w "* ]] || args_fail mutants NAME "$w" "one of: $names"
done
caught=0; survived=0; broken=0
for m in "${MUTANTS[@]}"; do
  IFS='|' read -r name file expr config cycles what sim <<<"$m"
  [ -n "$sim" ] || sim="$MUTANT_SIM"
  if [ ${#want[@]} -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qx "$name"; then continue; fi
  dir="$BUILD/mutants/$name"
  rm -rf "$dir/rtl"
  mkdir -p "$dir"
  cp -r rtl "$dir/rtl"
  sed -i -E "$expr" "$dir/rtl/$file"
  if diff -q "rtl/$file" "$dir/rtl/$file" >/dev/null; then
    echo "MUTANT $name: the sed '$expr' changed nothing in rtl/$file (the RTL changed?)"
    broken=$((broken + 1))
    continue
  fi
  echo "== mutant $name: $what"
  diff "rtl/$file" "$dir/rtl/$file" | sed -n 's/^[<>].*/    &/p'
  log="$dir/cosim.log"
  $MAKE --no-print-directory cosim SIM="$sim" CONFIG="$config" SEED=1 CYCLES="$cycles" \
    RTL_DIR="$dir/rtl" COSIM_BUILD="$dir/cosim" >"$log" 2>&1
  rc=$?
  line="$(grep -m1 '^MISMATCH ' "$log" || true)"
  if [ "$rc" -ne 0 ] && [ -n "$line" ]; then
    echo "   caught: $line"
    caught=$((caught + 1))
  elif [ "$rc" -eq 0 ]; then
    echo "   SURVIVED: $config ran $cycles cycles without a mismatch (log $log)"
    survived=$((survived + 1))
  else
    echo "   BROKEN: exit $rc without a MISMATCH line (log $log):"
    tail -n 5 "$log" | sed 's/^/     | /'
    broken=$((broken + 1))
  fi
done
echo "mutants: $caught caught, $survived survived, $broken broken"
[ "$survived" -eq 0 ] && [ "$broken" -eq 0 ] && [ "$caught" -gt 0 ]
