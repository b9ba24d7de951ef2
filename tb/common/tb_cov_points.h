/*
 * tb_cov_points.h - the co-simulation's coverage points (tb/common/tb_cov.c), one
 * X(ENUM, "name") each: the enum of tb.h, the names in the JSON and in [run] require, which
 * tb_config.c checks when it reads a configuration (tb-params check refuses a point that does
 * not exist, before anything is built).
 */
#ifndef TB_COV_POINTS_H
#define TB_COV_POINTS_H

/* clang-format off */
#define TB_COV_POINTS(X) \
  /* an FCTBS/ABR value carried in an FCP wrapped past 4095 (§5.1) */ \
  X(COV_CREDIT_WRAP, "credit_wrap") \
  /* a packet started using the last credit: fccl == fctbs + n (§5.3) */ \
  X(COV_SEND_RULE_EXACT, "send_rule_exact") \
  /* the send rule's lower edge, false side: a head packet one block short of its credit, \
     (fccl - (fctbs + n)) mod 4096 = 4095, on a port free to start it (§5.3) */ \
  X(COV_SEND_RULE_SHORT, "send_rule_short") \
  /* the send rule's upper edge, true side: a packet started with (fccl - CR) mod 4096 = 2048, \
     the whole 2048-block window (§5.3; only a partner that grants beyond its ABR + 2048) */ \
  X(COV_SEND_RULE_WINDOW, "send_rule_window") \
  /* the upper edge, false side: a head packet at (fccl - CR) mod 4096 = 2049 on a free port */ \
  X(COV_SEND_RULE_BEYOND, "send_rule_beyond") \
  /* a VL's head packet failed the send rule (§5.3, §10) */ \
  X(COV_CREDIT_BLOCKED, "credit_blocked") \
  /* §5.4 admission n <= vl_blocks - occ at its edge, both sides, for a legal first block of a \
     data VL: n = free (admitted, the last credit), n = free + 1 (dropped, CREDIT: only a \
     partner that sends beyond its credit) */ \
  X(COV_CREDIT_ADM_EDGE, "credit_adm_edge") \
  X(COV_CREDIT_ADM_BEYOND, "credit_adm_beyond") \
  /* §5.4 the same for VL15, n <= vl15_blocks - occ15 (the beyond side is dropped, VL15) */ \
  X(COV_VL15_ADM_EDGE, "vl15_adm_edge") \
  X(COV_VL15_ADM_BEYOND, "vl15_adm_beyond") \
  /* §5.4 the grant min(vl_blocks - occ, 2048) in an FCP sent, both sides of the cap: free = \
     2047 (the grant is free) and 2049 (capped at 2048; only with vl_blocks > 2048). At 2048 \
     both give 2048, so a compare moved by one either way (< or <= 2047, 2048, 2049) differs \
     from the SPEC only at one of these two */ \
  X(COV_FCCL_GRANT_BELOW, "fccl_grant_below") \
  X(COV_FCCL_GRANT_BEYOND, "fccl_grant_beyond") \
  /* §5.5 fcp_timer == 0, both sides: an FCP sent for a VL pending by its timer alone (no \
     change of FCTBS or FCCL), and a port free to send one with nothing pending and a timer at 1 \
     (no FCP yet) */ \
  X(COV_FCP_TIMER_EDGE, "fcp_timer_edge") \
  X(COV_FCP_TIMER_SHORT, "fcp_timer_short") \
  /* §5.5 fcp_timer + fcp_holdoff <= fcp_period - 1 for a changed VL, both sides, where it \
     differs from fcp_timer == 0 (0 < fcp_holdoff < fcp_period - 1): an FCP sent for a changed \
     VL in the first cycle its change counts (fcp_timer = fcp_period - 1 - fcp_holdoff), and a \
     port free to send one with nothing pending and a changed VL one cycle short of that */ \
  X(COV_FCP_HOLDOFF_EDGE, "fcp_holdoff_edge") \
  X(COV_FCP_HOLDOFF_SHORT, "fcp_holdoff_short") \
  /* an FCP's FCTBS differed from ABR: blocks repaired (§5.4) */ \
  X(COV_FCP_REPAIR, "fcp_repair") \
  /* reserved op or VL >= classes (§5.3) */ \
  X(COV_FCP_RX_BAD, "fcp_rx_bad") \
  /* §6.5 */ \
  X(COV_XOFF, "xoff") \
  X(COV_XON, "xon") \
  /* §6.5 xoff_cond pg_shared >= T at its edge, both sides, for a lossless PG with xoff = 0 and \
     pg_hdrm = 0 in S(t): pg_shared = T > 0 (XOFF now), pg_shared + 1 = T (not yet) */ \
  X(COV_XOFF_EDGE, "xoff_edge") \
  X(COV_XOFF_SHORT, "xoff_short") \
  /* §6.5 xon_cond pg_shared + xon_offset <= T at its edge, both sides, for a lossless PG with \
     xoff = 1, pg_hdrm = 0, pg_shared > 0: pg_shared + xon_offset = T (XON now), = T + 1 (not) */ \
  X(COV_XON_EDGE, "xon_edge") \
  X(COV_XON_SHORT, "xon_short") \
  /* one of the four above with the dynamic threshold of §6.2 (T from shared_used) */ \
  X(COV_DYN_TH_EDGE, "dyn_th_edge") \
  /* §6.4 step 1 r = min(n, reserve_blocks - pg_min) at its edge, both sides, for a legal first \
     block in S(t): n = reserve_blocks - pg_min (rest = 0: the reserve alone), n one more \
     (rest = 1) */ \
  X(COV_ADM_RESERVE_EDGE, "adm_reserve_edge") \
  X(COV_ADM_RESERVE_BEYOND, "adm_reserve_beyond") \
  /* §6.4 step 3 pg_shared + rest <= T at its edge, both sides, for a legal first block in S(t) \
     with rest > 0 after the reserve: = T (fits the threshold), = T + 1 (does not) */ \
  X(COV_ADM_SHARED_EDGE, "adm_shared_edge") \
  X(COV_ADM_SHARED_BEYOND, "adm_shared_beyond") \
  /* §6.4 step 3 used + rest <= shared_blocks (used: the chain over the lower ports) at its \
     edge, both sides, for such a block within the threshold (pg_shared + rest <= T): \
     = shared_blocks (fits the pool), = shared_blocks + 1 (does not) */ \
  X(COV_ADM_POOL_EDGE, "adm_pool_edge") \
  X(COV_ADM_POOL_BEYOND, "adm_pool_beyond") \
  /* §6.4 step 4 pg_hdrm + rest <= headroom_blocks at its edge, both sides, for such a block of \
     a lossless priority above the threshold (pg_shared + rest > T): = headroom_blocks, + 1 */ \
  X(COV_ADM_HDRM_EDGE, "adm_hdrm_edge") \
  X(COV_ADM_HDRM_BEYOND, "adm_hdrm_beyond") \
  /* an XOFF re-sent for a priority already paused (§6.6) */ \
  X(COV_PFC_REFRESH, "pfc_refresh") \
  /* §6.6 refresh_timer == 0, both sides, for an xoff priority not pending: a frame sent that \
     carries it by its timer alone, and a port free to send one with the timer at 1 (it is not \
     carried yet) */ \
  X(COV_REFRESH_EDGE, "refresh_edge") \
  X(COV_REFRESH_SHORT, "refresh_short") \
  /* a pause of the switch's egress lapsed without XON (§6.7) */ \
  X(COV_QUANTA_EXPIRY, "quanta_expiry") \
  /* a pause was ended by a frame with time 0 (§6.7) */ \
  X(COV_RESUME_QUANTA0, "resume_quanta0") \
  /* §6.7 paused iff pause_timer > 0 at its edge, both sides, for a non-empty egress queue on a \
     port free to start a packet: pause_timer = 1 (its last paused cycle: it must wait), and a \
     packet started in the first cycle after a pause ran out (pause_timer 1 -> 0) */ \
  X(COV_PAUSE_LAST, "pause_last") \
  X(COV_PAUSE_EXPIRY_START, "pause_expiry_start") \
  /* §6.8 */ \
  X(COV_WD_TRIP, "wd_trip") \
  X(COV_WD_RESTORE, "wd_restore") \
  /* §6.8 the watchdog's compares one below their edge (the edge itself is wd_trip, wd_restore): \
     paused with wd_cnt + 1 = wd_detect - 1; in a storm, no pause frame, wd_rcnt + 1 = \
     wd_restore - 1 */ \
  X(COV_WD_DETECT_SHORT, "wd_detect_short") \
  X(COV_WD_RESTORE_SHORT, "wd_restore_short") \
  /* §9 */ \
  X(COV_ECN_MARK, "ecn_mark") \
  /* §9.2 the WRED band's edges for a markable packet starting with q = qlen in S(t): q = kmin \
     (no draw), kmin + 1 (a draw), kmax (a draw), kmax + 1 (marked without a draw) */ \
  X(COV_WRED_KMIN, "wred_kmin") \
  X(COV_WRED_KMIN_ABOVE, "wred_kmin_above") \
  X(COV_WRED_KMAX, "wred_kmax") \
  X(COV_WRED_KMAX_ABOVE, "wred_kmax_above") \
  /* §9.2 the draw's compare r x (kmax - kmin) < pmax x (q - kmin) at equality (not marked); \
     random draws hit it once in 65536 at best: pfc_wred_edge sets pmax to its first draw */ \
  X(COV_WRED_DRAW_EQUAL, "wred_draw_equal") \
  /* §8.2 deficit[drr_ptr] > 0 at its edge, both sides, for a DRR pick that starts a packet with \
     drr_ptr eligible: deficit 1 (drr_ptr keeps its turn), deficit 0 with another class \
     eligible (a new turn) */ \
  X(COV_DRR_DEFICIT_ONE, "drr_deficit_one") \
  X(COV_DRR_DEFICIT_ZERO, "drr_deficit_zero") \
  /* §6.4 */ \
  X(COV_DROP_HEADROOM, "drop_headroom") \
  X(COV_DROP_SHARED, "drop_shared") \
  /* §6.4 / §6.8 */ \
  X(COV_DROP_WATCHDOG, "drop_watchdog") \
  /* §5.4 */ \
  X(COV_DROP_CREDIT, "drop_credit") \
  X(COV_DROP_VL15, "drop_vl15") \
  /* §7.2 */ \
  X(COV_DROP_MALFORMED, "drop_malformed") \
  X(COV_RX_MALFORMED, "rx_malformed") \
  /* §7.2 the length check 1 <= n <= mtu_blocks at its edges, for a first block whose class and \
     destination are legal: n = mtu_blocks (legal), mtu_blocks + 1 and 0 (MALFORMED) */ \
  X(COV_MTU_EDGE, "mtu_edge") \
  X(COV_MTU_BEYOND, "mtu_beyond") \
  X(COV_NBLK_ZERO, "nblk_zero") \
  /* low table used while hi_sent had reached the limit (§5.6) */ \
  X(COV_VLARB_HIGH_LIMIT, "vlarb_high_limit") \
  /* §5.6 step 3 hi_sent < max(1, 64 x vlarb_high_limit) at its edge, both sides, for a packet \
     starting while both tables surely have a pick: hi_sent = limit - 1 (the high table), \
     = limit (the low table) */ \
  X(COV_VLARB_LIMIT_EDGE, "vlarb_limit_edge") \
  X(COV_VLARB_LIMIT_BEYOND, "vlarb_limit_beyond") \
  /* a VL15 packet left the switch (§5.6 rule 1) */ \
  X(COV_VL15_TX, "vl15_tx") \
  /* a packet left by the port it came in on (§7.1) */ \
  X(COV_HAIRPIN, "hairpin") \
  /* misbehaviour: a packet sent without credit / while paused */ \
  X(COV_MIS_NO_CREDIT, "mis_no_credit") \
  /* misbehaviour: a garbage word */ \
  X(COV_MIS_GARBAGE, "mis_garbage") \
  /* misbehaviour: a storm pause frame */ \
  X(COV_MIS_PFC_STORM, "mis_pfc_storm") \
  /* misbehaviour: a multi-block packet sent regardless of credit/pause */ \
  X(COV_MIS_OVERRUN, "mis_overrun") \
  /* misbehaviour: a packet started on a priority the switch paused */ \
  X(COV_MIS_START_PAUSED, "mis_start_paused") \
  /* misbehaviour: an earlier FCP of the partner replayed */ \
  X(COV_MIS_FCP_STALE, "mis_fcp_stale") \
  /* misbehaviour: an FCP with a random FCTBS or FCCL */ \
  X(COV_MIS_FCP_WILD, "mis_fcp_wild") \
  /* misbehaviour: an FCP putting the switch's blocked head packet at an edge of the send rule */ \
  X(COV_MIS_FCP_EDGE, "mis_fcp_edge") \
  /* misbehaviour: a PFC frame with a random enable vector */ \
  X(COV_MIS_PFC_GARBAGE, "mis_pfc_garbage") \
  /* misbehaviour: a PFC frame enabling all 8 priorities */ \
  X(COV_MIS_PFC_ALL, "mis_pfc_all") \
  /* the watchdog tripped on the port of a storm, during the storm */ \
  X(COV_MIS_STORM_WD, "mis_storm_wd") \
  /* misbehaviour: a continuation block with sop = 1 or a wrong eop (§7.2) */ \
  X(COV_MIS_FRAMING, "mis_framing") \
  /* §2.4 line time (wire_time = 1): a packet sent merged (mrg = 1, nblk - 1 words); an idle \
     gap slot (slack < 0 in S(t) on a port free to start a frame); a legal merged packet \
     received (§7.2: nblk - 1 - mrg words follow) */ \
  X(COV_TX_MRG, "tx_mrg") \
  X(COV_TX_GAP, "tx_gap") \
  X(COV_RX_MRG, "rx_mrg") \
  /* §2.4 the merge threshold v = slack + pad - E >= 64 at its edge, both sides, for a packet \
     of two blocks or more starting: v = 64 (merged), v = 63 (not merged) */ \
  X(COV_MRG_EDGE, "mrg_edge") \
  X(COV_MRG_SHORT, "mrg_short") \
  /* misbehaviour: a one-block packet with mrg = 1 (§7.2: MALFORMED) */ \
  X(COV_MIS_BAD_MRG, "mis_bad_mrg")
/* clang-format on */

#endif /* TB_COV_POINTS_H */
