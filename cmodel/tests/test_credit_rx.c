/*
 * test_credit_rx.c - InfiniBand credit receive and FCP generation (cmodel/src/credit_rx.c,
 * docs/SPEC.md §5.4, §5.5): ABR and FCCL arithmetic mod 4096, the FCCL cap, FCP generation at
 * reset, periodically and on change, for every number of VLs, a change held off by fcp_holdoff
 * (and the next event skip-ahead names for it), FCP reception repairing ABR, and the CREDIT and
 * VL15 drop causes. All scenarios run in IB mode; timings are derived in the
 * comments from §1.3 (an input of cycle t first shows at t+1), §4.1 and §7.3 (store-and-forward,
 * latency 1: a packet whose last block arrives in cycle t can start in t+1).
 */

#include "testutil.h"
#include "credit_testutil.h"

#include <string.h>


/* ---- §5.5 FCP generation ---- */

/* SPEC §5.5: at reset every VL is pending (fcp_timer = 0); one FCP per slot, lowest pending VL
 * first, carrying fctbs 0 and FCCL = abr 0 + min(vl_blocks - 0, 2048). Then nothing is pending. */
static void test_fcp_at_reset_every_vl_lowest_first(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 3, 3);
  c.vl_blocks[0] = 256;
  c.vl_blocks[1] = 100;
  c.vl_blocks[2] = 300;
  tu_t *t = tu_open(&c);
  tu_run(t, 1);
  /* after the FCP of VL0 in cycle 0: fcp_sent_* of VL0 hold its values, timer period - 1 */
  assert_int_equal(tu_reg(t, "fcp_sent_fccl", 1, 0), 256);
  assert_int_equal(tu_reg(t, "fcp_timer", 1, 0), 65534);
  assert_int_equal(tu_reg(t, "fcp_timer", 1, 1), 0);
  tu_run(t, 9);
  for (uint32_t p = 0; p < 3; p++) {
    expect_fcp(t, p, 0, 0, 0, 256);
    expect_fcp(t, p, 1, 1, 0, 100);
    expect_fcp(t, p, 2, 2, 0, 300);
    assert_int_equal(tu_count_out(t, p, LFC_FCP, 3, 10), 0);
    assert_int_equal(tu_stats(t, p)->fcp_tx, 3);
  }
  tu_close(t);
}

/* SPEC §5.4: the advertised FCCL is capped at abr + 2048: vl_blocks 2047 -> 2047, 2048 -> 2048,
 * 2049 -> 2048, 4096 -> 2048 (seen in the reset FCPs, abr = occ = 0). */
static void test_fccl_cap_at_abr_plus_2048(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 4);
  c.vl_blocks[0] = 2047;
  c.vl_blocks[1] = 2048;
  c.vl_blocks[2] = 2049;
  c.vl_blocks[3] = 4096;
  tu_t *t = tu_open(&c);
  tu_run(t, 5);
  expect_fcp(t, 0, 0, 0, 0, 2047);
  expect_fcp(t, 0, 1, 1, 0, 2048);
  expect_fcp(t, 0, 2, 2, 0, 2048);
  expect_fcp(t, 0, 3, 3, 0, 2048);
  tu_close(t);
}

/* SPEC §5.5: an FCP sent in cycle t sets fcp_timer = period - 1, which reaches 0 in S(t + period):
 * with nothing else changing, VL0's FCPs go out in cycles 0, 50, 100, 150 and VL1's in 1, 51, ... */
static void test_fcp_periodic_every_fcp_period(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 2);
  c.fcp_period = 50;
  tu_t *t = tu_open(&c);
  tu_run(t, 160);
  static const uint64_t at[8] = {0, 1, 50, 51, 100, 101, 150, 151};
  for (int i = 0; i < 8; i++) expect_fcp(t, 0, at[i], (uint32_t)(i % 2), 0, 256);
  assert_int_equal(tu_count_out(t, 0, LFC_FCP, 0, 160), 8);
  assert_int_equal(tu_reg(t, "fcp_timer", 0, 0), 50 - 1 - (159 - 150)); /* sent 150: 49 at 151 */
  tu_close(t);
}

/* ---- §5.5 fcp_holdoff ---- */

enum { HO_PERIOD = 100, HO_HOLDOFF = 20 }; /* cycles */

/* SPEC §5.5: with fcp_holdoff H a change makes the FCP pending only once fcp_timer + H <=
 * fcp_period - 1, i.e. H cycles after the reload shows in S(t+1). The reset FCP of VL0 goes in
 * cycle 0: fcp_timer = 99 in S(1), 100 - u in S(u). The peer's FCP of cycle 2 (fc_fctbs 5) makes
 * abr 5 and FCCL 5 + 256 = 261 from S(3) on; 100 - u + 20 <= 99 first in u = 21 (timer 79), so
 * the FCP goes in 21, not in 3 nor in 20. That FCP reloads the timer (121 - u in S(u)): a change
 * in S(41) (timer 80, the peer's FCP of cycle 40) waits one cycle, to 42 (timer 79); a change in
 * S(81), long after the hold-off, goes at once, in 81. Port 1 saw no change: no FCP until 100. */
static void test_fcp_holdoff_change_waits_h_cycles_after_reload(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  c.fcp_period = HO_PERIOD;
  c.fcp_holdoff = HO_HOLDOFF;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_fcp(t, 0, 0, 5, 0);
  tu_at(t, 0, 40);
  tu_fcp(t, 0, 0, 9, 0);
  tu_at(t, 0, 80);
  tu_fcp(t, 0, 0, 12, 0);
  tu_run_to(t, 21);
  assert_int_equal(tu_reg(t, "fcp_timer", 0, 0), HO_PERIOD - 1 - HO_HOLDOFF);
  assert_int_equal(tu_reg(t, "fcp_sent_fccl", 0, 0), 256); /* the change is in S(3)... */
  assert_int_equal(tu_reg(t, "abr", 0, 0), 5);
  assert_int_equal(tu_count_out(t, 0, LFC_FCP, 1, 21), 0); /* ...and held, 20 included */
  tu_run_to(t, 90);
  expect_fcp(t, 0, 21, 0, 0, 261);
  assert_int_equal(tu_count_out(t, 0, LFC_FCP, 22, 42), 0); /* 41 held (timer 80) */
  expect_fcp(t, 0, 42, 0, 0, 9 + 256);
  expect_fcp(t, 0, 81, 0, 0, 12 + 256);
  assert_int_equal(tu_count_out(t, 0, LFC_FCP, 0, 90), 4);
  assert_int_equal(tu_count_out(t, 1, LFC_FCP, 1, 90), 0);
  tu_close(t);
}

/* SPEC §5.5: fcp_holdoff does not move the periodic FCP: period 50, hold-off 30, no change:
 * VL0 in 0, 50, 100, 150, VL1 in 1, 51, ... as without it. */
static void test_fcp_holdoff_keeps_periodic_fcp(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 2);
  c.fcp_period = 50;
  c.fcp_holdoff = 30;
  tu_t *t = tu_open(&c);
  tu_run(t, 160);
  static const uint64_t at[8] = {0, 1, 50, 51, 100, 101, 150, 151};
  for (int i = 0; i < 8; i++) expect_fcp(t, 0, at[i], (uint32_t)(i % 2), 0, 256);
  assert_int_equal(tu_count_out(t, 0, LFC_FCP, 0, 160), 8);
  tu_close(t);
}

/* SPEC §5.5: with fcp_holdoff >= fcp_period - 1 a change can count only when fcp_timer is 0
 * (timer + H <= period - 1 needs timer = 0 at H = period - 1, and never holds beyond), so only
 * the periodic FCPs go, each carrying the values of its cycle: period 50, changes in S(6),
 * S(61) and S(121) (the peer's FCPs of 5, 60, 120): FCPs in 0, 50, 100, 150 and no other. */
static void test_fcp_holdoff_at_least_period_only_periodic(void **state) {
  (void)state;
  static const uint32_t holdoff[] = {49, 50, 51, 65535};
  for (size_t i = 0; i < sizeof holdoff / sizeof holdoff[0]; i++) {
    lfc_switch_cfg_t c;
    cfg_ib(&c, 2, 1);
    c.fcp_period = 50;
    c.fcp_holdoff = holdoff[i];
    tu_t *t = tu_open(&c);
    tu_at(t, 0, 5);
    tu_fcp(t, 0, 0, 3, 0);
    tu_at(t, 0, 60);
    tu_fcp(t, 0, 0, 7, 0);
    tu_at(t, 0, 120);
    tu_fcp(t, 0, 0, 11, 0);
    tu_run(t, 160);
    expect_fcp(t, 0, 0, 0, 0, 256);
    expect_fcp(t, 0, 50, 0, 0, 3 + 256);
    expect_fcp(t, 0, 100, 0, 0, 7 + 256);
    expect_fcp(t, 0, 150, 0, 0, 11 + 256);
    if (tu_count_out(t, 0, LFC_FCP, 0, 160) != 4)
      fail_msg("fcp_holdoff %u: %zu FCPs, expected the 4 periodic ones", holdoff[i],
               tu_count_out(t, 0, LFC_FCP, 0, 160));
    tu_close(t);
  }
}

/* Skip-ahead (lfc/switch.h): with a change held off, lfc_switch_next_event names the cycle its
 * hold-off ends, the first cycle the FCP is pending (§5.5), not the current cycle and not the
 * timer's expiry; with no hold-off the current cycle; with fcp_holdoff >= fcp_period the expiry.
 * Same bench as test_fcp_holdoff_change_waits_h_cycles_after_reload: the change is in S(2). */
static void check_next_event_holdoff(uint32_t holdoff, uint64_t want) {
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  c.fcp_period = HO_PERIOD;
  c.fcp_holdoff = holdoff;
  char err[256] = "";
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  if (sw == NULL) fail_msg("lfc_switch_create: %s", err);
  lfc_word_t in[2], out[2];
  memset(in, 0, sizeof in);
  lfc_switch_step(sw, in, out); /* cycle 0: the reset FCPs */
  assert_int_equal(lfc_switch_next_event(sw), HO_PERIOD);
  in[0].kind = LFC_FCP;
  in[0].fc_fctbs = 5;
  lfc_switch_step(sw, in, out); /* cycle 1: abr 5 in S(2) */
  assert_int_equal(out[0].kind, LFC_IDLE);
  if (lfc_switch_next_event(sw) != want)
    fail_msg("fcp_holdoff %u: next event %llu, expected %llu", holdoff,
             (unsigned long long)lfc_switch_next_event(sw), (unsigned long long)want);
  lfc_switch_advance(sw, want);
  lfc_switch_step(sw, NULL, out);
  assert_int_equal(out[0].kind, LFC_FCP);
  assert_int_equal(out[0].fc_fccl, 5 + 256);
  lfc_switch_destroy(sw);
}

static void test_fcp_holdoff_next_event_is_end_of_holdoff(void **state) {
  (void)state;
  check_next_event_holdoff(0, 2);                      /* pending now */
  check_next_event_holdoff(HO_HOLDOFF, HO_HOLDOFF + 1); /* timer 100 - 21 + 20 = 99 */
  check_next_event_holdoff(HO_PERIOD - 2, HO_PERIOD - 1); /* the last cycle before expiry */
  check_next_event_holdoff(HO_PERIOD, HO_PERIOD);      /* the periodic FCP */
}

/* SPEC §5.4: ABR counts received blocks mod 4096. With vl_blocks 8192 and no credit on the egress
 * nothing leaves: after 16 x 255 + 15 blocks abr = 4095, after one more 0. The FCCL advertised
 * meanwhile (free >= 2048, so abr + 2048): 4095 + 2048 = 2047 mod 4096, then 0 + 2048 = 2048. */
static void test_abr_wraps_at_4096(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  c.mtu_blocks = 255;
  c.vl_blocks[0] = 8192;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  for (uint32_t i = 0; i < 16; i++) tu_pkt(t, 0, 0, 255, 1, i, 0);
  uint64_t s16 = tu_pkt(t, 0, 0, 15, 1, 16, 0);
  uint64_t s17 = tu_pkt(t, 0, 0, 1, 1, 17, 0);
  tu_run_to(t, s16 + 1);
  assert_int_equal(tu_reg(t, "abr", 0, 0), 4095);
  tu_run_to(t, s17 + 1);
  assert_int_equal(tu_reg(t, "abr", 0, 0), 0);
  assert_int_equal(tu_reg(t, "occ", 0, 0), 4096);
  tu_run_to(t, s17 + 3);
  expect_fcp(t, 0, s16 + 1, 0, 0, 2047);
  expect_fcp(t, 0, s17 + 1, 0, 0, 2048);
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 0);
  tu_close(t);
}

/* SPEC §5.4: the advertised FCCL wraps: an FCP from the peer with fc_fctbs 2047 sets abr = 2047,
 * so FCCL = 2047 + min(4096, 2048) = 4095 (sent in the next cycle, 3); a 1-block packet in cycle
 * 5 makes abr 2048, FCCL (2048 + 2048) mod 4096 = 0 (sent in 6). */
static void test_fccl_wraps_at_4096(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  c.vl_blocks[0] = 4096;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_fcp(t, 0, 0, 2047, 0);
  tu_at(t, 0, 5);
  tu_pkt(t, 0, 0, 1, 1, 1, 0);
  tu_run_to(t, 8);
  expect_fcp(t, 0, 3, 0, 0, 4095);
  expect_fcp(t, 0, 6, 0, 0, 0);
  assert_int_equal(tu_count_out(t, 0, LFC_FCP, 1, 8), 2);
  assert_int_equal(tu_reg(t, "abr", 0, 0), 2048);
  assert_int_equal(tu_reg(t, "fcp_sent_fccl", 0, 0), 0);
  tu_close(t);
}

/* SPEC §5.4: an FCP repairs ABR after a lost packet. The peer sent 3 blocks that were lost, then a
 * 4-block packet we received (abr 4, occ 4: FCCL 4 + 252 = 256, unchanged, so no FCP). Its FCP
 * carries fc_fctbs 7: abr = 7, FCCL = 7 + (256 - 4) = 259, which the switch advertises in the
 * next cycle. */
static void test_fcp_repairs_abr_after_lost_packet(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 4, 1, 1, 0); /* cycles 2..5 */
  tu_at(t, 0, 10);
  tu_fcp(t, 0, 0, 7, 0);
  tu_run_to(t, 10);
  assert_int_equal(tu_reg(t, "abr", 0, 0), 4);
  assert_int_equal(tu_count_out(t, 0, LFC_FCP, 1, 10), 0);
  tu_run_to(t, 13);
  assert_int_equal(tu_reg(t, "abr", 0, 0), 7);
  expect_fcp(t, 0, 11, 0, 0, 259);
  assert_int_equal(tu_stats(t, 0)->fcp_rx, 1);
  tu_close(t);
}

/* ---- §5.4 drops ---- */

/* SPEC §5.4, §10: a peer that sends beyond its credit loses the packet with cause CREDIT, and ABR
 * still counts it. vl_blocks 65: a 65-block packet fills the VL (no egress credit, it stays);
 * a 3-block packet then finds free = 0 and is dropped. */
static void test_drop_credit_when_peer_overruns(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 3, 2);
  c.vl_blocks[1] = 65;
  tu_t *t = tu_open(&c);
  tu_at(t, 2, 2);
  tu_pkt(t, 2, 1, 65, 0, 0xA1, 0);
  uint64_t s = tu_pkt(t, 2, 1, 3, 0, 0xA2, 0);
  tu_run_to(t, s + 5);
  const tu_ev_t *e = tu_find_ev(t, LFC_EV_DROP, -1, -1, -1);
  assert_non_null(e);
  assert_int_equal(e->cycle, s);
  assert_int_equal(e->ev.port, 2);
  assert_int_equal(e->ev.cls, 1);
  assert_int_equal(e->ev.cause, LFC_DROP_CREDIT);
  assert_int_equal(e->ev.tag, 0xA2);
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 1);
  const lfc_class_stats_t *st = &tu_stats(t, 2)->cls[1];
  assert_int_equal(st->drop_pkts[LFC_DROP_CREDIT], 1);
  assert_int_equal(st->drop_blocks[LFC_DROP_CREDIT], 3);
  assert_int_equal(st->rx_pkts, 1);
  assert_int_equal(st->rx_blocks, 65);
  assert_int_equal(tu_reg(t, "abr", 2, 1), 68);
  assert_int_equal(tu_reg(t, "occ", 2, 1), 65);
  /* §7.2: the dropped packet's later blocks are its continuation, not malformed */
  assert_int_equal(tu_stats(t, 2)->rx_malformed, 0);
  tu_close(t);
}

/* SPEC §5.4: VL15 is admitted if n <= vl15_blocks - occ15, else dropped with cause VL15. With
 * vl15_blocks 5 and packets held (latency 200): 3 blocks, then 2 (exactly the 2 free: admitted),
 * then 1 (0 free: dropped). */
static void test_drop_vl15_when_buffer_full(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  c.vl15_blocks = 5;
  c.latency = 200;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 2);
  tu_pkt(t, 1, LFC_VL15, 3, 0, 0xB1, 0);
  tu_pkt(t, 1, LFC_VL15, 2, 0, 0xB2, 0);
  uint64_t s = tu_pkt(t, 1, LFC_VL15, 1, 0, 0xB3, 0);
  tu_run_to(t, s + 3);
  assert_int_equal(tu_reg(t, "occ15", 1, 0), 5);
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 1);
  const tu_ev_t *e = tu_find_ev(t, LFC_EV_DROP, -1, -1, -1);
  assert_int_equal(e->cycle, s);
  assert_int_equal(e->ev.port, 1);
  assert_int_equal(e->ev.cls, 15);
  assert_int_equal(e->ev.cause, LFC_DROP_VL15);
  assert_int_equal(e->ev.tag, 0xB3);
  assert_int_equal(tu_stats(t, 1)->cls[15].drop_pkts[LFC_DROP_VL15], 1);
  assert_int_equal(tu_stats(t, 1)->cls[15].drop_blocks[LFC_DROP_VL15], 1);
  assert_int_equal(tu_stats(t, 1)->cls[15].rx_pkts, 2);
  tu_close(t);
}

/* SPEC §5.5: any FCP of a VL (here one caused by a change) restarts its timer: period 50, reset
 * FCPs in 0; a packet from port 0 starts on port 1 in 11, so both ports send a change FCP in 12
 * (port 1: new FCTBS; port 0: credit returned) and the periodic one in 62, not in 50. */
static void test_fcp_timer_restarts_on_any_fcp(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  c.fcp_period = 50;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 1);
  tu_fcp(t, 1, 0, 0, 100);
  tu_at(t, 0, 10);
  tu_pkt(t, 0, 0, 1, 1, 0x12, 0);
  tu_run_to(t, 70);
  assert_int_equal(tu_find_sop(t, 1, 0x12)->cycle, 11);
  expect_fcp(t, 1, 12, 0, 1, 256);
  expect_fcp(t, 0, 12, 0, 0, 257);
  for (uint32_t p = 0; p < 2; p++) {
    assert_int_equal(tu_out_at(t, p, 0).kind, LFC_FCP);
    assert_int_equal(tu_out_at(t, p, 62).kind, LFC_FCP);
    assert_int_equal(tu_count_out(t, p, LFC_FCP, 0, 70), 3);
  }
  tu_close(t);
}

/* SPEC §5.2 step 3 before step 4, §5.6 step 1: a pending FCP goes before a queued VL15 packet.
 * A 2-block VL0 packet leaves port 2 in 6..7; a VL15 packet is queued from S(7); in 8 the FCP of
 * the new FCTBS (2) goes first, VL15 in 9. */
static void test_fcp_precedes_queued_vl15(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 3, 1);
  c.vl15_blocks = 8;
  tu_t *t = tu_open(&c);
  tu_at(t, 2, 1);
  tu_fcp(t, 2, 0, 0, 100);
  tu_at(t, 0, 4);
  tu_pkt(t, 0, 0, 2, 2, 0x20, 0);
  tu_at(t, 1, 6);
  tu_pkt(t, 1, LFC_VL15, 1, 2, 0x21, 0);
  tu_run_to(t, 15);
  assert_int_equal(tu_find_sop(t, 2, 0x20)->cycle, 6);
  expect_fcp(t, 2, 8, 0, 2, 256);
  assert_int_equal(tu_find_sop(t, 2, 0x21)->cycle, 9);
  tu_close(t);
}

/* ---- §5.3 FCP reception ---- */

/* SPEC §5.3: fc_op 0 and 1 are alike; a reserved op, a VL >= classes and VL 15 are ignored (fccl
 * and abr unchanged) and counted in rx_bad_fcp. */
static void test_fcp_reserved_op_and_bad_vl_ignored(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 2);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 2);
  tu_fcp_op(t, 1, 2, 0, 50, 100);  /* reserved op */
  tu_fcp_op(t, 1, 15, 0, 50, 100); /* reserved op */
  tu_fcp_op(t, 1, 0, 2, 50, 100);  /* VL 2 >= classes */
  tu_fcp_op(t, 1, 0, 15, 50, 100); /* VL 15 */
  tu_run_to(t, 8);
  assert_int_equal(tu_stats(t, 1)->rx_bad_fcp, 4);
  assert_int_equal(tu_reg(t, "fccl", 1, 0), 0);
  assert_int_equal(tu_reg(t, "abr", 1, 0), 0);
  assert_int_equal(tu_reg(t, "fccl", 1, 1), 0);
  tu_fcp_op(t, 1, LFC_FCP_OP_INIT, 1, 50, 100); /* init: like normal */
  tu_run(t, 2);
  assert_int_equal(tu_reg(t, "fccl", 1, 1), 100);
  assert_int_equal(tu_reg(t, "abr", 1, 1), 50);
  assert_int_equal(tu_stats(t, 1)->rx_bad_fcp, 4);
  tu_close(t);
}

#define PERIOD 16u /* fcp_period, cycles */
#define CYCLES 50u

static void test_idle_fcp_schedule_two_vls(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 2, 2);
  c.fcp_period = PERIOD;
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  assert_non_null(sw);
  lfc_word_t in[LFC_MAX_PORTS], out[LFC_MAX_PORTS];
  memset(in, 0, sizeof in);
  /* VL0 at cycle 0 and VL1 at cycle 1 (one word per cycle), then each every PERIOD cycles. */
  for (uint32_t t = 0; t < CYCLES; t++) {
    lfc_switch_step(sw, in, out);
    int want_vl = -1;
    if (t % PERIOD == 0) want_vl = 0;
    if (t % PERIOD == 1) want_vl = 1;
    for (uint32_t p = 0; p < c.ports; p++) {
      const lfc_word_t *w = &out[p];
      if (want_vl < 0) {
        if (w->kind != LFC_IDLE) fail_msg("cycle %u port %u: expected IDLE, kind %u", t, p, w->kind);
        continue;
      }
      if (w->kind != LFC_FCP || w->fc_vl != (uint8_t)want_vl)
        fail_msg("cycle %u port %u: expected the FCP of VL %d, kind %u vl %u", t, p, want_vl,
                 w->kind, w->fc_vl);
    }
  }
  lfc_switch_destroy(sw);
}

enum { PORTS = 3, ALL_VLS_PERIOD = 23, PERIODS = 4, VL_BLOCKS = 100 };

static void check_schedule(uint32_t classes) {
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, PORTS, classes);
  c.fcp_period = ALL_VLS_PERIOD;
  for (uint32_t v = 0; v < LFC_IB_MAX_VLS; v++) c.vl_blocks[v] = VL_BLOCKS;
  char err[256] = "";
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  if (sw == NULL) fail_msg("lfc_switch_create: %s", err);
  lfc_word_t out[PORTS];
  for (uint32_t t = 0; t < ALL_VLS_PERIOD * PERIODS; t++) {
    lfc_switch_step(sw, NULL, out);
    uint32_t vl = t % ALL_VLS_PERIOD;
    for (uint32_t p = 0; p < PORTS; p++) {
      const lfc_word_t *w = &out[p];
      if (vl >= classes) {
        if (w->kind != LFC_IDLE)
          fail_msg("classes %u cycle %u port %u: expected IDLE, kind %u vl %u", classes, t, p,
                   w->kind, w->fc_vl);
        continue;
      }
      if (w->kind != LFC_FCP || w->fc_vl != vl || w->fc_op != LFC_FCP_OP_NORMAL ||
          w->fc_fctbs != 0 || w->fc_fccl != VL_BLOCKS)
        fail_msg("classes %u cycle %u port %u: expected FCP vl %u fctbs 0 fccl %u, got kind %u "
                 "vl %u fctbs %u fccl %u",
                 classes, t, p, vl, VL_BLOCKS, w->kind, w->fc_vl, w->fc_fctbs, w->fc_fccl);
    }
  }
  for (uint32_t p = 0; p < PORTS; p++)
    assert_int_equal(lfc_switch_stats(sw, p)->fcp_tx, (uint64_t)classes * PERIODS);
  lfc_switch_destroy(sw);
}

static void test_idle_fcp_schedule_every_vl_count(void **state) {
  (void)state;
  for (uint32_t classes = 1; classes <= LFC_IB_MAX_VLS; classes++) check_schedule(classes);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_fcp_at_reset_every_vl_lowest_first),
      TU_TEST(test_fccl_cap_at_abr_plus_2048),
      TU_TEST(test_fcp_periodic_every_fcp_period),
      TU_TEST(test_fcp_holdoff_change_waits_h_cycles_after_reload),
      TU_TEST(test_fcp_holdoff_keeps_periodic_fcp),
      TU_TEST(test_fcp_holdoff_at_least_period_only_periodic),
      cmocka_unit_test(test_fcp_holdoff_next_event_is_end_of_holdoff),
      TU_TEST(test_abr_wraps_at_4096),
      TU_TEST(test_fccl_wraps_at_4096),
      TU_TEST(test_fcp_repairs_abr_after_lost_packet),
      TU_TEST(test_drop_credit_when_peer_overruns),
      TU_TEST(test_drop_vl15_when_buffer_full),
      TU_TEST(test_fcp_timer_restarts_on_any_fcp),
      TU_TEST(test_fcp_precedes_queued_vl15),
      TU_TEST(test_fcp_reserved_op_and_bad_vl_ignored),
      cmocka_unit_test(test_idle_fcp_schedule_two_vls),
      cmocka_unit_test(test_idle_fcp_schedule_every_vl_count),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
