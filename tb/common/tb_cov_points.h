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
  /* §6.4 step 3 pg_shared + rest <= T at its edge, both sides, for a legal first block in S(t) \
     with rest > 0 after the reserve: = T (fits the threshold), = T + 1 (does not) */ \
  X(COV_ADM_SHARED_EDGE, "adm_shared_edge") \
  X(COV_ADM_SHARED_BEYOND, "adm_shared_beyond") \
  /* §6.4 step 4 pg_hdrm + rest <= headroom_blocks at its edge, both sides, for such a block of \
     a lossless priority above the threshold (pg_shared + rest > T): = headroom_blocks, + 1 */ \
  X(COV_ADM_HDRM_EDGE, "adm_hdrm_edge") \
  X(COV_ADM_HDRM_BEYOND, "adm_hdrm_beyond") \
  /* an XOFF re-sent for a priority already paused (§6.6) */ \
  X(COV_PFC_REFRESH, "pfc_refresh") \
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
  /* low table used while hi_sent had reached the limit (§5.6) */ \
  X(COV_VLARB_HIGH_LIMIT, "vlarb_high_limit") \
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
  X(COV_MIS_FRAMING, "mis_framing")
/* clang-format on */

#endif /* TB_COV_POINTS_H */
