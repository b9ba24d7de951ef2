/*
 * test_rx_framing.c - receive framing and routing (cmodel/src/rx_framing.c, docs/SPEC.md §7.1,
 * §7.2): the MALFORMED drop
 * cause for each bad first block, rx_malformed for stray and inconsistent blocks, rx_rem, route
 * tables and hairpins; control words of the other mode (a PFC frame in IB mode,
 * an FCP in PFC mode) are ignored.
 *
 * PFC mode (lossy, large pool), 4 ports, 2 classes, mtu 8, cut-through latency 1 unless stated.
 */

#include "testutil.h"
#include "credit_testutil.h"

#include <string.h>

static void cfg_frm(lfc_switch_cfg_t *c) {
  tu_cfg_pfc(c, 4, 2);
  c->mtu_blocks = 8;
  for (int i = 0; i < 8; i++) c->drr_quantum[i] = 8;
  c->cut_through = true;
}

static uint64_t put(tu_t *t, uint32_t port, lfc_word_t w) { return tu_word(t, port, &w); }

/* The single MALFORMED drop event; checks its cycle, port, tag and cause. */
static void expect_malformed_drop(const tu_t *t, uint64_t cycle, uint32_t port, uint32_t tag) {
  /* (the class of the event is checked only where the packet's class is legal: what an event
   * reports for an illegal class is not specified) */
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 1);
  const tu_ev_t *e = tu_find_ev(t, LFC_EV_DROP, -1, -1, -1);
  assert_int_equal(e->cycle, cycle);
  assert_int_equal(e->ev.port, port);
  assert_int_equal(e->ev.tag, tag);
  assert_int_equal(e->ev.cause, LFC_DROP_MALFORMED);
}

static uint64_t malformed_pkts(const tu_t *t, uint32_t port) {
  uint64_t n = 0;
  for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++) {
    n += tu_stats(t, port)->cls[c].drop_pkts[LFC_DROP_MALFORMED];
  }
  return n;
}

/* SPEC §7.2: nblk = 0 is MALFORMED; nothing is admitted or sent. */
static void test_framing_nblk_zero_malformed(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_frm(&c);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  put(t, 0, tu_data_word(1, 1, 0, 0, 1, 0x50, 0));
  tu_run_to(t, 10);
  expect_malformed_drop(t, 2, 0, 0x50);
  assert_int_equal(tu_find_ev(t, LFC_EV_DROP, -1, -1, -1)->ev.cls, 0);
  assert_int_equal(tu_stats(t, 0)->cls[0].drop_pkts[LFC_DROP_MALFORMED], 1);
  assert_int_equal(tu_count_out(t, 1, LFC_DATA, 0, 10), 0);
  assert_int_equal(tu_stats(t, 0)->cls[0].rx_pkts, 0);
  assert_int_equal(tu_reg(t, "rx_rem", 0, 0), 0);
  tu_close(t);
}

/* SPEC §7.2: nblk > mtu_blocks is MALFORMED and rx_rem stays 0, so the packet's 8 further blocks
 * (sop = 0) are each discarded with rx_malformed. The next good packet is received normally. */
static void test_framing_nblk_above_mtu_malformed_and_rest_discarded(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_frm(&c);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 9, 1, 0x51, 0); /* 2..10 */
  uint64_t s = tu_pkt(t, 0, 0, 2, 1, 0x52, 0);
  tu_run_to(t, 20);
  expect_malformed_drop(t, 2, 0, 0x51);
  assert_int_equal(tu_stats(t, 0)->rx_malformed, 8);
  assert_int_equal(tu_count_ev(t, LFC_EV_RX_MALFORMED, 0, -1, -1), 8);
  assert_null(tu_find_sop(t, 1, 0x51));
  assert_int_equal(tu_find_sop(t, 1, 0x52)->cycle, s + 1);
  tu_close(t);
}

/* SPEC §7.2: nblk = mtu_blocks is legal (the boundary). */
static void test_framing_nblk_equal_mtu_accepted(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_frm(&c);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 8, 1, 0x53, 0);
  tu_run_to(t, 15);
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 0);
  assert_int_equal(tu_find_sop(t, 1, 0x53)->cycle, 3);
  assert_int_equal(tu_stats(t, 0)->rx_malformed, 0);
  tu_close(t);
}

/* SPEC §2.1, §7.2, §7.3: a packet of 2 blocks with mrg = 1 is one word (sop and eop); store-and-
 * forward takes that word as its last block, so the packet is ready latency cycles later and is
 * sent on (with its pad) like a one-block packet. rx_rem stays 0. */
static void test_framing_merged_two_blocks_one_word_store_and_forward(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_frm(&c);
  c.cut_through = false;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  lfc_word_t w = tu_data_word(1, 1, 0, 2, 1, 0x54, 0);
  w.mrg = 1;
  w.pad = 40;
  put(t, 0, w);
  tu_run_to(t, 15);
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 0);
  assert_int_equal(tu_stats(t, 0)->rx_malformed, 0);
  assert_int_equal(tu_reg(t, "rx_rem", 0, 0), 0);
  const tu_out_t *o = tu_find_sop(t, 1, 0x54);
  assert_non_null(o);
  assert_int_equal(o->cycle, 3);
  assert_int_equal(o->w.pad, 40);
  tu_close(t);
}

/* SPEC §7.2: mrg = 1 on a packet of one block is MALFORMED. */
static void test_framing_merged_one_block_malformed(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_frm(&c);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  lfc_word_t w = tu_data_word(1, 1, 0, 1, 1, 0x55, 0);
  w.mrg = 1;
  put(t, 0, w);
  tu_run_to(t, 10);
  expect_malformed_drop(t, 2, 0, 0x55);
  assert_null(tu_find_sop(t, 1, 0x55));
  tu_close(t);
}

/* SPEC §7.2: a class that is not a class of this mode (cls >= classes; 15 in PFC mode) is
 * MALFORMED. */
static void test_framing_class_beyond_classes_malformed(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_frm(&c);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 2);
  tu_pkt(t, 1, 2, 1, 0, 0x54, 0);
  tu_run_to(t, 6);
  expect_malformed_drop(t, 2, 1, 0x54);
  assert_int_equal(malformed_pkts(t, 1), 1);
  tu_close(t);

  t = tu_open(&c);
  tu_at(t, 1, 2);
  tu_pkt(t, 1, 15, 1, 0, 0x55, 0);
  tu_run_to(t, 6);
  expect_malformed_drop(t, 2, 1, 0x55);
  assert_null(tu_find_sop(t, 0, 0x55));
  tu_close(t);
}

/* SPEC §7.2: in IB mode VL15 with vl15_blocks = 0 is not a class: MALFORMED. */
static void test_framing_vl15_without_buffer_malformed_ib(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_ib(&c, 2, 2);
  c.vl15_blocks = 0;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 3);
  tu_pkt(t, 0, LFC_VL15, 1, 1, 0x56, 0);
  tu_run_to(t, 8);
  expect_malformed_drop(t, 3, 0, 0x56);
  assert_null(tu_find_sop(t, 1, 0x56));
  tu_close(t);
}

/* SPEC §7.1: without a route table dst >= ports does not route: MALFORMED. dst = ports - 1 is
 * fine. */
static void test_framing_dst_beyond_ports_malformed(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_frm(&c);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 1, 4, 0x57, 0);
  uint64_t s = tu_pkt(t, 0, 0, 1, 3, 0x58, 0);
  tu_run_to(t, 8);
  expect_malformed_drop(t, 2, 0, 0x57);
  assert_int_equal(tu_find_ev(t, LFC_EV_DROP, -1, -1, -1)->ev.cls, 0);
  assert_int_equal(tu_stats(t, 0)->cls[0].drop_pkts[LFC_DROP_MALFORMED], 1);
  assert_int_equal(tu_find_sop(t, 3, 0x58)->cycle, s + 1);
  tu_close(t);
}

/* SPEC §7.1: with a route table the egress is route[dst] and dst travels unchanged; a dst beyond
 * the table does not route (MALFORMED). */
static void test_framing_route_table_maps_and_unrouted_malformed(void **state) {
  (void)state;
  static const uint8_t route[6] = {3, 2, 1, 0, 0, 2};
  lfc_switch_cfg_t c;
  cfg_frm(&c);
  c.route = route;
  c.route_len = 6;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 2);
  uint64_t s1 = tu_pkt(t, 1, 0, 1, 5, 0x59, 0); /* route[5] = 2 */
  uint64_t s2 = tu_pkt(t, 1, 0, 1, 0, 0x5A, 0); /* route[0] = 3 */
  uint64_t s3 = tu_pkt(t, 1, 0, 1, 6, 0x5B, 0); /* beyond the table */
  tu_run_to(t, 10);
  const tu_out_t *o = tu_find_sop(t, 2, 0x59);
  assert_non_null(o);
  assert_int_equal(o->cycle, s1 + 1);
  assert_int_equal(o->w.dst, 5);
  assert_int_equal(tu_find_sop(t, 3, 0x5A)->cycle, s2 + 1);
  expect_malformed_drop(t, s3, 1, 0x5B);
  tu_close(t);
}

/* SPEC §7.1: egress = ingress (hairpin) is legal. */
static void test_framing_hairpin_legal(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_frm(&c);
  tu_t *t = tu_open(&c);
  tu_at(t, 2, 4);
  tu_pkt(t, 2, 1, 3, 2, 0x5C, 0);
  tu_run_to(t, 10);
  assert_int_equal(tu_find_sop(t, 2, 0x5C)->cycle, 5);
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 0);
  tu_close(t);
}

/* SPEC §7.2: a DATA block with sop = 0 while no packet is open is discarded with rx_malformed
 * (not a drop); rx_rem stays 0 and the next packet is fine. */
static void test_framing_block_without_sop_discarded(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_frm(&c);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  put(t, 0, tu_data_word(0, 0, 0, 3, 1, 0x5D, 0));
  uint64_t s = tu_pkt(t, 0, 0, 1, 1, 0x5E, 0);
  tu_run_to(t, 3);
  assert_int_equal(tu_count_ev_last(t, LFC_EV_RX_MALFORMED, 0, -1), 1);
  assert_int_equal(tu_reg(t, "rx_rem", 0, 0), 0);
  tu_run_to(t, 8);
  assert_int_equal(tu_stats(t, 0)->rx_malformed, 1);
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 0);
  assert_null(tu_find_sop(t, 1, 0x5D));
  assert_int_equal(tu_find_sop(t, 1, 0x5E)->cycle, s + 1);
  tu_close(t);
}

/* SPEC §7.2: a block with sop = 1 inside a packet is a continuation (rx_rem counts down) and
 * counts rx_malformed; the packet is delivered whole, rebuilt from its descriptor (§2.3). rx_rem
 * reads 2, 1, 0 after the three blocks. */
static void test_framing_sop_inside_packet_counted_and_continued(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_frm(&c);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  put(t, 0, tu_data_word(1, 0, 1, 3, 1, 0x60, 0));
  put(t, 0, tu_data_word(1, 0, 0, 7, 2, 0x99, 0)); /* stray sop, other fields: ignored */
  put(t, 0, tu_data_word(0, 1, 1, 3, 1, 0x60, 0));
  tu_run_to(t, 3);
  assert_int_equal(tu_reg(t, "rx_rem", 0, 0), 2);
  tu_run_to(t, 4);
  assert_int_equal(tu_reg(t, "rx_rem", 0, 0), 1);
  tu_run_to(t, 5);
  assert_int_equal(tu_reg(t, "rx_rem", 0, 0), 0);
  tu_run_to(t, 10);
  assert_int_equal(tu_stats(t, 0)->rx_malformed, 1);
  for (uint64_t k = 3; k <= 5; k++) {
    lfc_word_t w = tu_out_at(t, 1, k);
    assert_int_equal(w.kind, LFC_DATA);
    assert_int_equal(w.tag, 0x60);
    assert_int_equal(w.cls, 1);
    assert_int_equal(w.nblk, 3);
    assert_int_equal(w.sop, k == 3);
    assert_int_equal(w.eop, k == 5);
  }
  assert_int_equal(tu_count_out(t, 2, LFC_DATA, 0, 10), 0);
  tu_close(t);
}

/* SPEC §7.2: eop must equal (rx_rem after the block = 0), on the first block and on continuation
 * blocks; each mismatch counts rx_malformed and changes nothing else. A 3-block packet with eop
 * on block 1 and not on block 2: two counts; a 2-block packet with eop on its first block: one. */
static void test_framing_eop_mismatch_counted(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_frm(&c);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  put(t, 0, tu_data_word(1, 0, 0, 3, 1, 0x61, 0));
  put(t, 0, tu_data_word(0, 1, 0, 3, 1, 0x61, 0));
  put(t, 0, tu_data_word(0, 0, 0, 3, 1, 0x61, 0));
  put(t, 0, tu_data_word(1, 1, 0, 2, 1, 0x62, 0));
  put(t, 0, tu_data_word(0, 1, 0, 2, 1, 0x62, 0));
  tu_run_to(t, 12);
  assert_int_equal(tu_stats(t, 0)->rx_malformed, 3);
  assert_int_equal(tu_count_ev(t, LFC_EV_RX_MALFORMED, 0, -1, -1), 3);
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 0);
  assert_int_equal(tu_find_sop(t, 1, 0x61)->cycle, 3);
  assert_int_equal(tu_out_at(t, 1, 5).eop, 1);
  assert_int_equal(tu_out_at(t, 1, 4).eop, 0);
  assert_int_equal(tu_find_sop(t, 1, 0x62)->cycle, 6);
  assert_int_equal(tu_stats(t, 0)->cls[0].rx_pkts, 2);
  tu_close(t);
}

/* switch.h lfc_switch_events: the events of a step come in a fixed order, by kind, then port,
 * then class. In cycle 5: MALFORMED drops on ports 2 and 1 (nblk 0; dst 9) and a stray block on
 * port 0 (rx_malformed): DROP p1, DROP p2, RX_MALFORMED p0. */
static void test_events_ordered_by_kind_then_port(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_frm(&c);
  tu_t *t = tu_open(&c);
  tu_at(t, 2, 5);
  put(t, 2, tu_data_word(1, 1, 0, 0, 1, 2, 0));
  tu_at(t, 1, 5);
  put(t, 1, tu_data_word(1, 1, 0, 1, 9, 1, 0));
  tu_at(t, 0, 5);
  put(t, 0, tu_data_word(0, 0, 0, 1, 1, 0, 0));
  tu_run_to(t, 6);
  const lfc_event_t *ev = NULL;
  size_t n = lfc_switch_events(t->sw, &ev);
  assert_int_equal(n, 3);
  assert_int_equal(ev[0].kind, LFC_EV_DROP);
  assert_int_equal(ev[0].port, 1);
  assert_int_equal(ev[0].tag, 1);
  assert_int_equal(ev[1].kind, LFC_EV_DROP);
  assert_int_equal(ev[1].port, 2);
  assert_int_equal(ev[1].tag, 2);
  assert_int_equal(ev[2].kind, LFC_EV_RX_MALFORMED);
  assert_int_equal(ev[2].port, 0);
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

static void cfg_pfc(lfc_switch_cfg_t *c, uint32_t ports) {
  tu_cfg_pfc(c, ports, 2); /* lossy, big pool: set what the test needs */
}

/* SPEC §5.3: in PFC mode an FCP is ignored and counted as rx_bad_ctrl. */
static void test_fcp_in_pfc_mode_ignored(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 2);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 3);
  tu_fcp(t, 1, 0, 5, 100);
  tu_run_to(t, 10);
  assert_int_equal(tu_stats(t, 1)->rx_bad_ctrl, 1);
  assert_int_equal(tu_stats(t, 1)->fcp_rx, 0);
  assert_int_equal(tu_count_out(t, 1, LFC_FCP, 0, 10), 0);
  tu_close(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_framing_nblk_zero_malformed),
      TU_TEST(test_framing_nblk_above_mtu_malformed_and_rest_discarded),
      TU_TEST(test_framing_nblk_equal_mtu_accepted),
      TU_TEST(test_framing_merged_two_blocks_one_word_store_and_forward),
      TU_TEST(test_framing_merged_one_block_malformed),
      TU_TEST(test_framing_class_beyond_classes_malformed),
      TU_TEST(test_framing_vl15_without_buffer_malformed_ib),
      TU_TEST(test_framing_dst_beyond_ports_malformed),
      TU_TEST(test_framing_route_table_maps_and_unrouted_malformed),
      TU_TEST(test_framing_hairpin_legal),
      TU_TEST(test_framing_block_without_sop_discarded),
      TU_TEST(test_framing_sop_inside_packet_counted_and_continued),
      TU_TEST(test_framing_eop_mismatch_counted),
      TU_TEST(test_events_ordered_by_kind_then_port),
      TU_TEST(test_pfc_frame_in_ib_mode_ignored),
      TU_TEST(test_fcp_in_pfc_mode_ignored),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
