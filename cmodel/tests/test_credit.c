/*
 * test_credit.c - InfiniBand credit flow control (docs/SPEC.md §5.1-§5.5): the send rule, FCTBS,
 * ABR and FCCL arithmetic mod 4096, FCP generation, FCP reception, VL15, and the CREDIT and VL15
 * drop causes. All scenarios run in IB mode; timings are derived in the comments from §1.3
 * (an input of cycle t first shows at t+1), §4.1 and §7.3 (store-and-forward, latency 1: a packet
 * whose last block arrives in cycle t can start in t+1).
 */
#include "testutil.h"

#include <string.h>

/* An IB switch, `classes` data VLs, store-and-forward, latency 1. At reset every port sends one
 * FCP per VL in cycles 0..classes-1 (§5.5: fcp_timer = 0 at reset, lowest VL first). */
static void cfg_ib(lfc_switch_cfg_t *c, uint32_t ports, uint32_t classes) {
  tu_cfg_ib(c, ports, classes);
}

static void expect_fcp(const tu_t *t, uint32_t port, uint64_t cycle, uint32_t vl, uint32_t fctbs,
                       uint32_t fccl) {
  lfc_word_t w = tu_out_at(t, port, cycle);
  char buf[160];
  if (w.kind != LFC_FCP || w.fc_vl != vl || w.fc_fctbs != fctbs || w.fc_fccl != fccl ||
      w.fc_op != LFC_FCP_OP_NORMAL) {
    fail_msg("port %u cycle %llu: expected FCP vl=%u fctbs=%u fccl=%u op=0, got %s", port,
             (unsigned long long)cycle, vl, fctbs, fccl, lfc_word_format(&w, buf, sizeof buf));
  }
}

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

/* ---- §5.3 the send rule, at the switch ---- */

/* SPEC §5.3: a 10-block packet waits while fccl = 9 (CR = 10, (9 - 10) mod 4096 = 4095 > 2048) and
 * starts in the cycle after an FCP raises fccl to 10 (CR = fccl). Cycles: packet on port 0 in
 * 3..12, ready 13; blocked 13..40 (counted in credit_blocked_cycles: 28 cycles 13..40); FCP received
 * in 40, fccl = 10 in S(41), start 41. Then (§5.5) fctbs 10 != fcp_sent_fctbs: FCP after the
 * packet, in cycle 51, with fc_fctbs 10. */
static void test_send_rule_boundary_exact_credit(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 2);
  tu_fcp(t, 1, 0, 0, 9);
  tu_at(t, 0, 3);
  tu_pkt(t, 0, 0, 10, 1, 77, 0);
  tu_run_to(t, 40);
  assert_int_equal(tu_reg(t, "fccl", 1, 0), 9);
  assert_int_equal(tu_count_out(t, 1, LFC_DATA, 0, 40), 0);
  assert_int_equal(tu_stats(t, 1)->cls[0].credit_blocked_cycles, 40 - 13);
  tu_at(t, 1, 40);
  tu_fcp(t, 1, 0, 0, 10);
  tu_run_to(t, 60);
  const tu_out_t *o = tu_find_sop(t, 1, 77);
  assert_non_null(o);
  assert_int_equal(o->cycle, 41);
  for (uint64_t k = 41; k <= 50; k++) {
    lfc_word_t w = tu_out_at(t, 1, k);
    assert_int_equal(w.kind, LFC_DATA);
    assert_int_equal(w.tag, 77);
    assert_int_equal(w.eop, k == 50);
  }
  assert_int_equal(tu_reg(t, "fctbs", 1, 0), 10);
  expect_fcp(t, 1, 51, 0, 10, 256);
  assert_int_equal(tu_stats(t, 1)->cls[0].credit_blocked_cycles, 41 - 13);
  tu_close(t);
}

/* SPEC §5.3: "never more than 2048 blocks outstanding": with fccl = 2048 from fctbs 0, sixteen
 * 128-block packets (2048 blocks, the last with CR = 2048 = fccl) all go; a 1-block packet after
 * them (CR 2049) does not, until an FCP brings fccl to 2049 (start in the next cycle). */
static void test_send_rule_boundary_2048_outstanding(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  c.mtu_blocks = 128;
  c.vl_blocks[0] = 4096;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 1);
  tu_fcp(t, 1, 0, 0, 2048);
  tu_at(t, 0, 2);
  for (uint32_t i = 0; i < 16; i++) tu_pkt(t, 0, 0, 128, 1, i, 0);
  tu_pkt(t, 0, 0, 1, 1, 16, 0);
  tu_run_to(t, 2400);
  for (uint32_t i = 0; i < 16; i++) {
    if (tu_find_sop(t, 1, i) == NULL) fail_msg("packet %u of the first 2048 blocks not sent", i);
  }
  assert_null(tu_find_sop(t, 1, 16));
  assert_int_equal(tu_reg(t, "fctbs", 1, 0), 2048);
  tu_at(t, 1, 2400);
  tu_fcp(t, 1, 0, 0, 2049);
  tu_run_to(t, 2410);
  const tu_out_t *o = tu_find_sop(t, 1, 16);
  assert_non_null(o);
  assert_int_equal(o->cycle, 2401);
  tu_close(t);
}

/* SPEC §5.3: the send rule is checked for each new head. A (1 block) and B (50 blocks) wait with
 * no credit; an FCP in 60 gives fccl 1: A starts in 61 (CR 1), B (CR 51) must wait; fccl 51 (FCP
 * in 100) lets B start in 101. */
static void test_send_rule_checked_for_each_new_head(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 4);
  tu_pkt(t, 0, 0, 1, 1, 0xA, 0);
  tu_pkt(t, 0, 0, 50, 1, 0xB, 0);
  tu_at(t, 1, 60);
  tu_fcp(t, 1, 0, 0, 1);
  tu_at(t, 1, 100);
  tu_fcp(t, 1, 0, 0, 51);
  tu_run_to(t, 100);
  assert_int_equal(tu_find_sop(t, 1, 0xA)->cycle, 61);
  assert_null(tu_find_sop(t, 1, 0xB));
  tu_run_to(t, 105);
  assert_int_equal(tu_find_sop(t, 1, 0xB)->cycle, 101);
  tu_close(t);
}

/* ---- §5.1 12-bit counters wrap at 4096 ---- */

/* SPEC §5.1, §5.3: FCTBS counts blocks sent mod 4096. 16 x 255 + 15 + 1 = 4096 blocks are sent;
 * the register steps 0, 255, ..., 4080, 4095, then 0. The test plays the peer on port 1, returning
 * credit with an FCP (fccl = blocks it received + 2048) every 32 cycles. */
static void test_fctbs_wraps_at_4096(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  c.mtu_blocks = 255;
  c.vl_blocks[0] = 8192;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  for (uint32_t i = 0; i < 16; i++) tu_pkt(t, 0, 0, 255, 1, i, 0);
  tu_pkt(t, 0, 0, 15, 1, 16, 0);
  tu_pkt(t, 0, 0, 1, 1, 17, 0);
  uint32_t seen[32];
  size_t nseen = 0;
  uint32_t rx_blocks = 0;
  seen[nseen++] = (uint32_t)tu_reg(t, "fctbs", 1, 0);
  while (tu_now(t) < 6000 && tu_find_sop(t, 1, 17) == NULL) {
    if (tu_now(t) % 32 == 2) tu_fcp(t, 1, 0, 0, (rx_blocks + 2048) & 0xFFFu);
    tu_step(t);
    if (t->last_out[1].kind == LFC_DATA) rx_blocks++;
    uint32_t v = (uint32_t)tu_reg(t, "fctbs", 1, 0);
    assert_true(v < 4096);
    if (v != seen[nseen - 1]) {
      assert_true(nseen < 32);
      seen[nseen++] = v;
    }
  }
  assert_non_null(tu_find_sop(t, 1, 17));
  assert_int_equal(nseen, 19);
  for (uint32_t i = 0; i <= 16; i++) assert_int_equal(seen[i], i * 255);
  assert_int_equal(seen[17], 4095);
  assert_int_equal(seen[18], 0);
  tu_close(t);
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

/* SPEC §5.4: occ decreases when the packet's first block leaves; the freed credit is advertised.
 * vl_blocks 65: a 10-block packet admitted in 3 leaves FCCL at 10 + 55 = 65 (no FCP); it starts
 * on port 1 in 13 (last block 12, latency 1), occ = 0 in S(14), FCCL 10 + 65 = 75 sent in 14. */
static void test_credit_returned_by_fcp_after_departure(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  c.vl_blocks[0] = 65;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 1);
  tu_fcp(t, 1, 0, 0, 2048);
  tu_at(t, 0, 3);
  tu_pkt(t, 0, 0, 10, 1, 5, 0);
  tu_run_to(t, 13);
  assert_int_equal(tu_reg(t, "occ", 0, 0), 10);
  assert_int_equal(tu_count_out(t, 0, LFC_FCP, 1, 13), 0);
  tu_run_to(t, 16);
  assert_int_equal(tu_find_sop(t, 1, 5)->cycle, 13);
  assert_int_equal(tu_reg(t, "occ", 0, 0), 0);
  expect_fcp(t, 0, 14, 0, 0, 75);
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

/* SPEC §5.4, §5.6: VL15 needs no credit. No FCP ever reached port 1 (fccl 0), yet a 2-block VL15
 * packet received in 3..4 starts in 5; it leaves no FCTBS behind, so no FCP follows it. */
static void test_vl15_not_flow_controlled(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  c.vl15_blocks = 8;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 3);
  tu_pkt(t, 0, LFC_VL15, 2, 1, 0x15, 0);
  tu_run_to(t, 4);
  assert_int_equal(tu_reg(t, "occ15", 0, 0), 2);
  tu_run_to(t, 20);
  const tu_out_t *o = tu_find_sop(t, 1, 0x15);
  assert_non_null(o);
  assert_int_equal(o->cycle, 5);
  assert_int_equal(o->w.cls, 15);
  assert_int_equal(tu_out_at(t, 1, 6).eop, 1);
  assert_int_equal(tu_count_out(t, 1, LFC_FCP, 1, 20), 0);
  assert_int_equal(tu_reg(t, "occ15", 0, 0), 0);
  assert_int_equal(tu_reg(t, "fctbs", 1, 0), 0);
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

/* SPEC §6.7: in IB mode a PFC frame is ignored and counted as rx_bad_ctrl. */
static void test_pfc_frame_in_ib_mode_ignored(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 1);
  tu_fcp(t, 1, 0, 0, 100);
  tu_pfc(t, 1, 0x01, 1000); /* cycle 2 */
  tu_at(t, 0, 3);
  tu_pkt(t, 0, 0, 1, 1, 9, 0); /* ready 4 */
  tu_run_to(t, 10);
  assert_int_equal(tu_stats(t, 1)->rx_bad_ctrl, 1);
  assert_int_equal(tu_reg(t, "pause_timer", 1, 0), 0);
  assert_int_equal(tu_find_sop(t, 1, 9)->cycle, 4);
  tu_close(t);
}

/* ---- Every-cycle check of §5.2-§5.5 under random traffic ---- */

enum { IP = 3, IC = 3 };

/* SPEC §5.2-§5.5: random traffic from peers that obey the credit the switch advertises (and
 * return credit as infinite sinks, fccl = their ABR + 2048). Before each step the registers of
 * S(t) give, per the SPEC, the expected output of every port: the next block while tx_rem > 0;
 * else an FCP of the lowest pending VL (fctbs != fcp_sent_fctbs or FCCL != fcp_sent_fccl or
 * fcp_timer = 0, FCCL = abr + min(vl_blocks - occ, 2048) mod 4096) with those fields; else no FCP,
 * and a data packet only if the send rule holds for its VL. After the step: FCTBS grew by the
 * started packet, ABR by each first block received or took fc_fctbs, FCCL took fc_fccl; no
 * CREDIT drop ever happens (§10). */
static void test_random_traffic_credit_rules_hold_every_cycle(void **state) {
  (void)state;
  const uint32_t seed = 0x1B0C0DE5u;
  print_message("random IB oracle: seed 0x%08x\n", seed);
  lfc_switch_cfg_t c;
  cfg_ib(&c, IP, IC);
  c.mtu_blocks = 16;
  c.vl_blocks[0] = 40;
  c.vl_blocks[1] = 100;
  c.vl_blocks[2] = 3000;
  c.vl15_blocks = 32;
  c.fcp_period = 150;
  c.latency = 2;
  c.vlarb_high_len = 1;
  c.vlarb_high[0] = (lfc_vlarb_entry_t){2, 8};
  c.vlarb_high_limit = 1;
  tu_t *t = tu_open(&c);
  size_t r_fctbs = tu_reg_idx("fctbs"), r_fccl = tu_reg_idx("fccl"), r_abr = tu_reg_idx("abr"),
         r_occ = tu_reg_idx("occ"), r_sf = tu_reg_idx("fcp_sent_fctbs"),
         r_sc = tu_reg_idx("fcp_sent_fccl"), r_tm = tu_reg_idx("fcp_timer"),
         r_txrem = tu_reg_idx("tx_rem");
  uint32_t s = seed;
  uint32_t peer_fctbs[IP][IC] = {{0}}, peer_fccl[IP][IC] = {{0}}, peer_abr[IP][IC] = {{0}};
  uint32_t left[IP] = {0};
  lfc_word_t cur[IP];
  memset(cur, 0, sizeof cur);
  uint64_t sent_data = 0, periodic = 0, fcps = 0;
  for (uint64_t cyc = 0; cyc < 8000; cyc++) {
    uint32_t fctbs[IP][IC], fccl[IP][IC], abr[IP][IC], exp_fccl[IP][IC];
    bool pend[IP][IC];
    uint64_t txrem[IP];
    for (uint32_t p = 0; p < IP; p++) {
      txrem[p] = lfc_switch_reg(t->sw, r_txrem, p, 0);
      for (uint32_t v = 0; v < IC; v++) {
        fctbs[p][v] = (uint32_t)lfc_switch_reg(t->sw, r_fctbs, p, v);
        fccl[p][v] = (uint32_t)lfc_switch_reg(t->sw, r_fccl, p, v);
        abr[p][v] = (uint32_t)lfc_switch_reg(t->sw, r_abr, p, v);
        uint32_t fr = c.vl_blocks[v] - (uint32_t)lfc_switch_reg(t->sw, r_occ, p, v);
        exp_fccl[p][v] = (abr[p][v] + (fr < 2048u ? fr : 2048u)) % 4096u;
        uint64_t timer = lfc_switch_reg(t->sw, r_tm, p, v);
        pend[p][v] = fctbs[p][v] != lfc_switch_reg(t->sw, r_sf, p, v) ||
                     exp_fccl[p][v] != lfc_switch_reg(t->sw, r_sc, p, v) || timer == 0;
        periodic += (timer == 0 && txrem[p] == 0 && p == 0 && cyc > 0);
      }
    }
    /* the peers' words */
    lfc_word_t in[IP];
    memset(in, 0, sizeof in);
    for (uint32_t p = 0; p < IP; p++) {
      if (left[p] > 0) {
        in[p] = cur[p];
        in[p].sop = 0;
        in[p].eop = left[p] == 1;
        left[p]--;
      } else if (tu_rand(&s) % 100 < 8) {
        uint32_t v = tu_rand(&s) % IC;
        in[p].kind = LFC_FCP;
        in[p].fc_vl = (uint8_t)v;
        in[p].fc_fctbs = (uint16_t)peer_fctbs[p][v];
        in[p].fc_fccl = (uint16_t)((peer_abr[p][v] + 2048u) % 4096u);
      } else if (tu_rand(&s) % 100 < 40) {
        uint32_t v = tu_rand(&s) % 8;
        v = v < IC ? v : (v == 7 ? LFC_VL15 : tu_rand(&s) % IC);
        uint32_t n = 1 + tu_rand(&s) % 16, dst = tu_rand(&s) % IP;
        bool ok = v == LFC_VL15;
        if (!ok) {
          uint32_t cr = (peer_fctbs[p][v] + n) % 4096u;
          ok = ((peer_fccl[p][v] - cr) & 4095u) <= 2048u; /* the peer obeys §5.3 */
        }
        if (ok) {
          in[p] = tu_data_word(1, n == 1, v, n, dst, (uint32_t)cyc, 0);
          if (v != LFC_VL15) peer_fctbs[p][v] = (peer_fctbs[p][v] + n) % 4096u;
          cur[p] = in[p];
          left[p] = n - 1;
        }
      }
    }
    for (uint32_t p = 0; p < IP; p++) tu_word(t, p, &in[p]);
    tu_step(t);
    for (uint32_t p = 0; p < IP; p++) {
      const lfc_word_t *o = &t->last_out[p];
      int low = -1;
      for (uint32_t v = 0; v < IC && low < 0; v++) {
        if (pend[p][v]) low = (int)v;
      }
      if (txrem[p] > 0) {
        if (o->kind != LFC_DATA || o->sop) {
          fail_msg("cycle %llu port %u: tx_rem %llu but not a continuation block",
                   (unsigned long long)cyc, p, (unsigned long long)txrem[p]);
        }
      } else if (low >= 0) {
        if (o->kind != LFC_FCP || o->fc_vl != low || o->fc_fctbs != fctbs[p][low] ||
            o->fc_fccl != exp_fccl[p][low] || o->fc_op != 0) {
          char buf[160];
          fail_msg("cycle %llu port %u: expected FCP vl %d fctbs %u fccl %u, got %s",
                   (unsigned long long)cyc, p, low, fctbs[p][low], exp_fccl[p][low],
                   lfc_word_format(o, buf, sizeof buf));
        }
        fcps++;
      } else {
        assert_true(o->kind != LFC_FCP);
        if (o->kind == LFC_DATA) {
          assert_true(o->sop);
          if (o->cls != LFC_VL15) {
            uint32_t v = o->cls, cr = (fctbs[p][v] + o->nblk) % 4096u;
            if (((fccl[p][v] - cr) & 4095u) > 2048u) {
              fail_msg("cycle %llu port %u: VL%u packet of %u started with fctbs %u fccl %u",
                       (unsigned long long)cyc, p, v, o->nblk, fctbs[p][v], fccl[p][v]);
            }
            assert_int_equal(lfc_switch_reg(t->sw, r_fctbs, p, v), cr);
            sent_data++;
          }
        }
      }
      /* the peer side of the link */
      if (o->kind == LFC_FCP && o->fc_vl < IC) peer_fccl[p][o->fc_vl] = o->fc_fccl;
      if (o->kind == LFC_DATA && o->cls < IC) peer_abr[p][o->cls] = (peer_abr[p][o->cls] + 1u) % 4096u;
      /* receive side */
      if (in[p].kind == LFC_FCP) {
        assert_int_equal(lfc_switch_reg(t->sw, r_fccl, p, in[p].fc_vl), in[p].fc_fccl);
        assert_int_equal(lfc_switch_reg(t->sw, r_abr, p, in[p].fc_vl), in[p].fc_fctbs);
      } else if (in[p].kind == LFC_DATA && in[p].sop && in[p].cls < IC) {
        assert_int_equal(lfc_switch_reg(t->sw, r_abr, p, in[p].cls),
                         (abr[p][in[p].cls] + in[p].nblk) % 4096u);
      }
      for (uint32_t v = 0; v < IC; v++) {
        assert_true(lfc_switch_reg(t->sw, r_occ, p, v) <= c.vl_blocks[v]);
      }
    }
  }
  print_message("  %llu data packets, %llu FCPs, periodic due %llu times\n",
                (unsigned long long)sent_data, (unsigned long long)fcps,
                (unsigned long long)periodic);
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, LFC_DROP_CREDIT), 0);
  assert_true(sent_data > 500);
  assert_true(periodic > 0);
  tu_close(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_fcp_at_reset_every_vl_lowest_first),
      TU_TEST(test_fccl_cap_at_abr_plus_2048),
      TU_TEST(test_fcp_periodic_every_fcp_period),
      TU_TEST(test_send_rule_boundary_exact_credit),
      TU_TEST(test_send_rule_boundary_2048_outstanding),
      TU_TEST(test_send_rule_checked_for_each_new_head),
      TU_TEST(test_fctbs_wraps_at_4096),
      TU_TEST(test_abr_wraps_at_4096),
      TU_TEST(test_fccl_wraps_at_4096),
      TU_TEST(test_fcp_repairs_abr_after_lost_packet),
      TU_TEST(test_credit_returned_by_fcp_after_departure),
      TU_TEST(test_drop_credit_when_peer_overruns),
      TU_TEST(test_vl15_not_flow_controlled),
      TU_TEST(test_drop_vl15_when_buffer_full),
      TU_TEST(test_fcp_timer_restarts_on_any_fcp),
      TU_TEST(test_fcp_precedes_queued_vl15),
      TU_TEST(test_fcp_reserved_op_and_bad_vl_ignored),
      TU_TEST(test_pfc_frame_in_ib_mode_ignored),
      TU_TEST(test_random_traffic_credit_rules_hold_every_cycle),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
