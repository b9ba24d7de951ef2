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
  # The same for SPEC §5.4-§5.6, the reserve and pool of §6.4, §6.6, §7.2, §8.2 and §9.2 (a
  # mutant of the admission line of lfc_credit_rx.v keeps the other kind of VL as it is, so that
  # each edge is shown to catch its own).
  "credit_adm_lt|lfc_credit_rx.v|s/assign admit_o = req_i \\&\\& \\(\\{8'd0, req_nblk_i\\} <= free_blocks\\);/assign admit_o = req_i \\&\\& ((IsVl15 != 0) ? ({8'd0, req_nblk_i} <= free_blocks) : ({8'd0, req_nblk_i} < free_blocks));/|misbehave_ib_overrun|2000|SPEC §5.4: < for <= in a data VL's admission (credit_adm_edge)"
  "credit_adm_late|lfc_credit_rx.v|s/assign admit_o = req_i \\&\\& \\(\\{8'd0, req_nblk_i\\} <= free_blocks\\);/assign admit_o = req_i \\&\\& ({8'd0, req_nblk_i} <= free_blocks + ((IsVl15 != 0) ? 16'd0 : 16'd1));/|misbehave_ib_overrun|2000|SPEC §5.4: a data VL admits one block beyond its credit (credit_adm_beyond)"
  "vl15_adm_lt|lfc_credit_rx.v|s/assign admit_o = req_i \\&\\& \\(\\{8'd0, req_nblk_i\\} <= free_blocks\\);/assign admit_o = req_i \\&\\& ((IsVl15 != 0) ? ({8'd0, req_nblk_i} < free_blocks) : ({8'd0, req_nblk_i} <= free_blocks));/|ib_vl15_vlarb|6000|SPEC §5.4: < for <= in the VL15 admission (vl15_adm_edge)"
  "vl15_adm_late|lfc_credit_rx.v|s/assign admit_o = req_i \\&\\& \\(\\{8'd0, req_nblk_i\\} <= free_blocks\\);/assign admit_o = req_i \\&\\& ({8'd0, req_nblk_i} <= free_blocks + ((IsVl15 != 0) ? 16'd1 : 16'd0));/|ib_vl15_vlarb|6000|SPEC §5.4: VL15 admits one block beyond its buffer (vl15_adm_beyond)"
  "grant_cap_low|lfc_credit_rx.v|s/\\(free_blocks < 16'd2048\\)/(free_blocks < 16'd2047)/|ib_grant_edge|3000|SPEC §5.4: the grant capped from 2047 free blocks on (fccl_grant_below)"
  "grant_cap_high|lfc_credit_rx.v|s/\\(free_blocks < 16'd2048\\)/(free_blocks <= 16'd2049)/|ib_grant_edge|3000|SPEC §5.4: the grant not capped at 2049 free blocks (fccl_grant_beyond)"
  "fcp_timer_early|lfc_fcp_gen.v|s/\\(timer_q\\[v\\*16 \\+: 16\\] == 16'd0\\)\\)/(timer_q[v*16 +: 16] <= 16'd1))/|ib_credit_stress|3000|SPEC §5.5: the periodic FCP due one cycle early (fcp_timer_short)"
  "fcp_timer_never|lfc_fcp_gen.v|s/\\(timer_q\\[v\\*16 \\+: 16\\] == 16'd0\\)\\)/(timer_q[v*16 +: 16] == 16'hffff))/|ib_credit_stress|3000|SPEC §5.5: fcp_timer = 0 never makes an FCP due (fcp_timer_edge)"
  "fcp_holdoff_late|lfc_fcp_gen.v|s/\\(timer_q\\[v\\*16 \\+: 16\\] <= OPEN_AT\\)/(timer_q[v*16 +: 16] < OPEN_AT)/|ib_15vl|3000|SPEC §5.5: a change counts one cycle after its hold-off ends (fcp_holdoff_edge)"
  "fcp_holdoff_early|lfc_fcp_gen.v|s/\\(timer_q\\[v\\*16 \\+: 16\\] <= OPEN_AT\\)/(timer_q[v*16 +: 16] <= OPEN_AT + 16'd1)/|ib_15vl|3000|SPEC §5.5: a change counts one cycle before its hold-off ends (fcp_holdoff_short)"
  "vlarb_limit_le|lfc_vlarb.v|s/\\(hi_sent_q < HI_BUDGET\\)/(hi_sent_q <= HI_BUDGET)/|ib_vl15_vlarb|6000|SPEC §5.6: <= for < in LimitOfHighPriority (vlarb_limit_beyond)"
  "vlarb_limit_early|lfc_vlarb.v|s/\\(hi_sent_q < HI_BUDGET\\)/(hi_sent_q < HI_BUDGET - 16'd1)/|ib_vl15_vlarb|6000|SPEC §5.6: the high table's budget one block short (vlarb_limit_edge)"
  "adm_reserve_short|lfc_buffer.v|s/\\(\\{8'd0, n\\} < room\\) \\? n : room\\[7:0\\];/({8'd0, n} < room) ? n : (({8'd0, n} == room) ? n - 8'd1 : room[7:0]);/|pfc_small_buffer|3000|SPEC §6.4: a packet that fills the reserve exactly leaves one block over (adm_reserve_edge)"
  "adm_reserve_over|lfc_buffer.v|s/\\(\\{8'd0, n\\} < room\\) \\? n : room\\[7:0\\];/({8'd0, n} <= room + 16'd1) ? n : room[7:0];/|pfc_small_buffer|3000|SPEC §6.4: the reserve takes one block beyond its room (adm_reserve_beyond)"
  "adm_pool_lt|lfc_buffer.v|s/\\(used \\+ \\{13'd0, rest\\} <= SHARED\\)/(used + {13'd0, rest} < SHARED)/|pfc_small_buffer|3000|SPEC §6.4: < for <= at the end of the shared pool (adm_pool_edge)"
  "adm_pool_late|lfc_buffer.v|s/\\(used \\+ \\{13'd0, rest\\} <= SHARED\\)/(used + {13'd0, rest} <= SHARED + 21'd1)/|pfc_small_buffer|3000|SPEC §6.4: the shared pool one block large (adm_pool_beyond)"
  "refresh_early|lfc_pfc_gen.v|s/\\(refresh_q\\[c\\*16 \\+: 16\\] == 16'd0\\)/(refresh_q[c*16 +: 16] <= 16'd1)/|pfc_small_buffer|3000|SPEC §6.6: the XOFF refresh due one cycle early (refresh_short)"
  "refresh_never|lfc_pfc_gen.v|s/\\(refresh_q\\[c\\*16 \\+: 16\\] == 16'd0\\)/(refresh_q[c*16 +: 16] == 16'hffff)/|pfc_small_buffer|3000|SPEC §6.6: refresh_timer = 0 never makes a refresh due (refresh_edge)"
  "mtu_lt|lfc_rx_framing.v|s/\\(nblk_i <= MTU\\)/(nblk_i < MTU)/|pfc_cut_through_misbehave|3000|SPEC §7.2: < for <= in the length check (mtu_edge)"
  "mtu_late|lfc_rx_framing.v|s/\\(nblk_i <= MTU\\)/(nblk_i <= MTU + 8'd1)/|pfc_cut_through_misbehave|3000|SPEC §7.2: a packet one block over the MTU is legal (mtu_beyond)"
  "nblk_zero_ok|lfc_rx_framing.v|s/\\(nblk_i != 8'd0\\) \\&\\& //|pfc_cut_through_misbehave|3000|SPEC §7.2: nblk = 0 is legal (nblk_zero)"
  "drr_deficit_gt1|lfc_sched.v|s/\\(dcur != 16'd0\\)\\) begin/(dcur != 16'd0) \\&\\& (dcur != 16'd1)) begin/|pfc_small_buffer|3000|SPEC §8.2: drr_ptr keeps its turn only with deficit > 1 (drr_deficit_one)"
  "drr_deficit_ge0|lfc_sched.v|s/\\(dcur != 16'd0\\)\\) begin/(1'b1)) begin/|pfc_small_buffer|3000|SPEC §8.2: >= for > 0: drr_ptr keeps its turn at deficit 0 (drr_deficit_zero)"
  "wred_kmin_ge|lfc_ecn.v|s/\\(qlen_i > KMIN\\)/(qlen_i >= KMIN)/|pfc_dynamic_ecn|3000|SPEC §9.2: a draw at q = kmin (wred_kmin)"
  "wred_kmin_late|lfc_ecn.v|s/\\(qlen_i > KMIN\\)/(qlen_i > KMIN + 20'd1)/|pfc_dynamic_ecn|3000|SPEC §9.2: no draw at q = kmin + 1 (wred_kmin_above)"
  "wred_kmax_ge|lfc_ecn.v|s/\\(qlen_i > KMAX\\)/(qlen_i >= KMAX)/|pfc_wred_edge|3000|SPEC §9.2: marked without a draw at q = kmax (wred_kmax)"
  "wred_kmax_late|lfc_ecn.v|s/\\(qlen_i > KMAX\\)/(qlen_i > KMAX + 20'd1)/|pfc_wred_edge|3000|SPEC §9.2: a draw at q = kmax + 1 (wred_kmax_above)"
  "wred_draw_le|lfc_ecn.v|s/\\(\\{1'b0, lhs\\} < rhs\\)/({1'b0, lhs} <= rhs)/|pfc_wred_edge|3000|SPEC §9.2: <= for < in the draw's compare (wred_draw_equal)"
  # SPEC §2.4 line time (wire_time = 1): the merge threshold v >= 64 on each side (mrg_edge,
  # mrg_short), the idle gap, and a receiver that forgets that a merged packet is one word short.
  "mrg_gt|lfc_port_tx.v|s/(pick_v >= BLOCK_BYTES)/(pick_v > BLOCK_BYTES)/|pfc_wire_time|3000|SPEC §2.4: > for >= in the merge threshold (mrg_edge)"
  "mrg_early|lfc_port_tx.v|s/(pick_v >= BLOCK_BYTES)/(pick_v + 9'sd1 >= BLOCK_BYTES)/|pfc_wire_time|3000|SPEC §2.4: a merge one byte early (mrg_short)"
  "gap_not_idled|lfc_port_tx.v|s/wire gap  = WIRE_TIME \&\& slack_q\[7\];/wire gap  = 1'b0;/|pfc_wire_time|3000|SPEC §5.2 step 2a: the idle gap is not kept (tx_gap)"
  "rx_mrg_ignored|lfc_rx_framing.v|s/nblk_i - 8'd1 - \\{7'd0, mrg_i\\};/nblk_i - 8'd1;/|ib_wire_time|3000|SPEC §7.2: rx_rem = n - 1, a merged packet waits for a word that never comes (rx_mrg)"
)

# shellcheck source=tb/scripts/args.sh
. "$(dirname "$0")/args.sh"
args_sim mutants MUTANT_SIM "$MUTANT_SIM"
want=("$@")
names="$(for m in "${MUTANTS[@]}"; do printf '%s ' "${m%%|*}"; done)"
for w in "${want[@]}"; do
  [[ " $names" == *" $w "* ]] || args_fail mutants NAME "$w" "one of: $names"
done
# shellcheck source=tb/scripts/mutant_verdict.sh
. "$(dirname "$0")/mutant_verdict.sh"
for m in "${MUTANTS[@]}"; do
  IFS='|' read -r name file expr config cycles what sim <<<"$m"
  [ -n "$sim" ] || sim="$MUTANT_SIM"
  if [ ${#want[@]} -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qx "$name"; then continue; fi
  dir="$BUILD/mutants/$name"
  mutant_prepare mutant "$name" rtl "$dir" "$file" "$expr" "$what" || continue
  log="$dir/cosim.log"
  $MAKE --no-print-directory cosim SIM="$sim" CONFIG="$config" SEED=1 CYCLES="$cycles" \
    RTL_DIR="$dir/rtl" COSIM_BUILD="$dir/cosim" >"$log" 2>&1
  rc=$?
  line="$(grep -m1 '^MISMATCH ' "$log" || true)"
  mutant_verdict "$rc" "$line" "$log" "$config ran $cycles cycles"
done
mutant_summary mutants
