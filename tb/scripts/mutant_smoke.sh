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
  # The edges of the comparisons of the SPEC, each side (`<` for `<=`, one off), on the short
  # run (test_cycles) of the configuration that `make test-cosim` runs: the coverage points of
  # each edge (tb/common/tb_cov_points.h) are hit there, so each of these fails `make test`.
  "send_rule_lt|lfc_credit_tx.v|s/\\(diff <= 12'd2048\\)/(diff < 12'd2048)/|ib_send_edge|3000|SPEC §5.3: < for <= at the 2048-block edge (send_rule_window)"
  "send_rule_2049|lfc_credit_tx.v|s/\\(diff <= 12'd2048\\)/(diff <= 12'd2049)/|ib_send_edge|3000|SPEC §5.3: one block beyond the window (send_rule_beyond)"
  "send_rule_cr|lfc_credit_tx.v|s/fctbs_q \\+ \\{4'd0, head_nblk_i\\};/fctbs_q + {4'd0, head_nblk_i} - 12'd1;/|ib_send_edge|3000|SPEC §5.3: CR one short, the edge at 0 (send_rule_exact, send_rule_short)"
  "xoff_early|lfc_pfc_gen.v|s/\\(sh >= th_i\\)/(sh + 20'd1 >= th_i)/|pfc_small_buffer|3000|SPEC §6.5: XOFF one block below T (xoff_short)"
  "xoff_dynamic|lfc_pfc_gen.v|s/\\(sh >= th_i\\)/(sh > th_i)/|pfc_dynamic_ecn|3000|SPEC §6.2, §6.5: > for >= under the dynamic threshold (dyn_th_edge)"
  "xon_lt|lfc_pfc_gen.v|s/XON_OFFSET <= \\{1'b0, th_i\\}/XON_OFFSET < {1'b0, th_i}/|pfc_small_buffer|3000|SPEC §6.5: < for <= in xon_cond (xon_edge)"
  "xon_late|lfc_pfc_gen.v|s/XON_OFFSET <= \\{1'b0, th_i\\}/XON_OFFSET <= {1'b0, th_i} + 21'd1/|pfc_small_buffer|3000|SPEC §6.5: XON one block early (xon_short)"
  "adm_shared_lt|lfc_buffer.v|s/\\{13'd0, rest\\} <= \\{1'b0, th\\}\\)/{13'd0, rest} < {1'b0, th})/|pfc_small_buffer|3000|SPEC §6.4: < for <= at the admission's threshold (adm_shared_edge)"
  "adm_shared_late|lfc_buffer.v|s/\\{13'd0, rest\\} <= \\{1'b0, th\\}\\)/{13'd0, rest} <= {1'b0, th} + 21'd1)/|pfc_small_buffer|3000|SPEC §6.4: the threshold one block high (adm_shared_beyond)"
  "adm_hdrm_lt|lfc_buffer.v|s/\\{9'd0, rest\\} <= HEADROOM\\)/{9'd0, rest} < HEADROOM)/|misbehave_pfc_paused|2000|SPEC §6.4: < for <= at the headroom's edge (adm_hdrm_edge)"
  "adm_hdrm_late|lfc_buffer.v|s/\\{9'd0, rest\\} <= HEADROOM\\)/{9'd0, rest} <= HEADROOM + 17'd1)/|misbehave_pfc_paused|2000|SPEC §6.4: the headroom one block large (adm_hdrm_beyond)"
  "pause_gt1|lfc_pfc_rx.v|s/\\(timer_q\\[g\\*21 \\+: 21\\] != 21'd0\\)/(timer_q[g*21 +: 21] > 21'd1)/|pfc_watchdog_wild|3000|SPEC §6.7: the last paused cycle (pause_last, pause_expiry_start)"
  "wd_detect_late|lfc_watchdog.v|s/if \\(cnt_inc >= DETECT\\)/if (cnt_inc > DETECT)/|pfc_watchdog|3000|SPEC §6.8: > for >= in the trip (wd_trip)"
  "wd_detect_early|lfc_watchdog.v|s/if \\(cnt_inc >= DETECT\\)/if (cnt_inc + 21'd1 >= DETECT)/|pfc_watchdog|3000|SPEC §6.8: a trip one cycle early (wd_detect_short)"
  "wd_restore_late|lfc_watchdog.v|s/if \\(rcnt_inc >= RESTORE\\)/if (rcnt_inc > RESTORE)/|pfc_watchdog|3000|SPEC §6.8: > for >= in the restore (wd_restore)"
  "wd_restore_early|lfc_watchdog.v|s/if \\(rcnt_inc >= RESTORE\\)/if (rcnt_inc + 21'd1 >= RESTORE)/|pfc_watchdog|3000|SPEC §6.8: a restore one cycle early (wd_restore_short)"
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
