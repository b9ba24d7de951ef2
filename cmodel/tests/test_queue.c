/*
 * test_queue.c - the ingress pipelines and egress queues (cmodel/src/queue.c, docs/SPEC.md §7.2-
 * §7.4): pipeline latency, queue order, the qlen / qpkts / tx_rem registers, and lfc_switch_held,
 * the packets the switch holds by where they are.
 *
 * Latency (§7.3): ready cycle r = t_sop + latency (cut-through) or t_last + latency
 * (store-and-forward); the packet can start in r at the earliest, on an idle egress exactly in r
 * (in the first slot >= r when speed_div > 1).
 *
 * Held (§7.2-§7.4): a packet is held from its admission (first block in, not dropped) until its
 * first block leaves (§4.1 step B) or the watchdog discards it (§6.8). The cycle-exact tests
 * follow one packet through receive, pipeline and egress queue with the latencies of §7.3; the
 * property test checks, every cycle of random traffic, that the count equals what the counters
 * of §10 say has come in and not yet left, and that the queued part equals the qpkts registers
 * (§13.1).
 */

#include "testutil.h"

#include <string.h>

#include <stdio.h>
#include "lfc/star.h"

static void cfg_pipe(lfc_switch_cfg_t *c, bool cut_through, uint32_t latency) {
  tu_cfg_pfc(c, 4, 2);
  c->cut_through = cut_through;
  c->latency = latency;
}

/* Send one packet of n blocks from port 0 to port 1 at cycle 5; return its sop-out cycle. */
static uint64_t one_packet_latency(const lfc_switch_cfg_t *c, uint32_t n, uint64_t run) {
  tu_t *t = tu_open(c);
  tu_at(t, 0, 5);
  tu_pkt(t, 0, 1, n, 1, 0xAB, LFC_ECN_ECT1);
  tu_run_to(t, run);
  const tu_out_t *o = tu_find_sop(t, 1, 0xAB);
  if (o == NULL) fail_msg("the packet never left");
  uint64_t at = o->cycle;
  /* every block rebuilt from the descriptor (§2.3, §7.4) */
  for (uint32_t i = 0; i < n; i++) {
    lfc_word_t w = tu_out_at(t, 1, at + i * c->speed_div[1]);
    assert_int_equal(w.kind, LFC_DATA);
    assert_int_equal(w.sop, i == 0);
    assert_int_equal(w.eop, i == n - 1);
    assert_int_equal(w.cls, 1);
    assert_int_equal(w.nblk, n);
    assert_int_equal(w.dst, 1);
    assert_int_equal(w.tag, 0xAB);
    assert_int_equal(w.ecn, LFC_ECN_ECT1);
  }
  tu_close(t);
  return at;
}

/* SPEC §7.3: cut-through, latency 1: sop in 5, sop out 6; a 3-block packet leaves 6, 7, 8. */
static void test_latency_cut_through_1(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pipe(&c, true, 1);
  assert_int_equal(one_packet_latency(&c, 3, 20), 6);
}

/* SPEC §7.3: cut-through, latency 7: sop in 5, sop out 12 (before the last block is in). */
static void test_latency_cut_through_7(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pipe(&c, true, 7);
  assert_int_equal(one_packet_latency(&c, 10, 40), 12);
}

/* SPEC §7.3: cut-through, the largest latency 4095: sop out in 5 + 4095. */
static void test_latency_cut_through_4095(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pipe(&c, true, 4095);
  assert_int_equal(one_packet_latency(&c, 2, 4110), 4100);
}

/* SPEC §7.3: store-and-forward, latency 1: 4 blocks in 5..8, out from 9. */
static void test_latency_store_forward_1(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pipe(&c, false, 1);
  assert_int_equal(one_packet_latency(&c, 4, 20), 9);
}

/* SPEC §7.3: store-and-forward, latency 7: 4 blocks in 5..8, out from 8 + 7 = 15. */
static void test_latency_store_forward_7(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pipe(&c, false, 7);
  assert_int_equal(one_packet_latency(&c, 4, 30), 15);
}

/* SPEC §7.3, §1.2: store-and-forward with k = 2 everywhere: 3 blocks in 5, 7, 9 (one per k);
 * latency 1: ready 10, a slot: out 10, 12, 14. Latency 2: ready 11, first slot 12. */
static void test_latency_store_forward_speed_div(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pipe(&c, false, 1);
  for (int p = 0; p < 4; p++) c.speed_div[p] = 2;
  assert_int_equal(one_packet_latency(&c, 3, 30), 10);
  c.latency = 2;
  assert_int_equal(one_packet_latency(&c, 3, 30), 12);
}

/* SPEC §7.3: packets of several ingress ports entering one queue in the same cycle enter in
 * ascending ingress-port order. Ports 3, 1, 2 each send a 1-block packet to port 0 in cycle 5
 * (cut-through, latency 1): out in 6, 7, 8 from ports 1, 2, 3. */
static void test_simultaneous_arrivals_ascending_ingress_order(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pipe(&c, true, 1);
  tu_t *t = tu_open(&c);
  static const uint32_t order[3] = {3, 1, 2};
  for (int i = 0; i < 3; i++) {
    tu_at(t, order[i], 5);
    tu_pkt(t, order[i], 0, 1, 0, 0x100 + order[i], 0);
  }
  tu_run_to(t, 15);
  assert_int_equal(tu_find_sop(t, 0, 0x101)->cycle, 6);
  assert_int_equal(tu_find_sop(t, 0, 0x102)->cycle, 7);
  assert_int_equal(tu_find_sop(t, 0, 0x103)->cycle, 8);
  tu_close(t);
}

/* SPEC §7.3 (store-and-forward): ready cycles, not first blocks, decide: port 2's 3-block packet
 * (5..7) and port 1's 1-block packet (7) are both ready in 8; port 1 enters first (8), then port
 * 2 (9). A packet of port 3 whose last block came in 6 is ahead of both (7). */
static void test_same_ready_cycle_ascending_ingress_order(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pipe(&c, false, 1);
  tu_t *t = tu_open(&c);
  tu_at(t, 2, 5);
  tu_pkt(t, 2, 0, 3, 0, 0x202, 0);
  tu_at(t, 1, 7);
  tu_pkt(t, 1, 0, 1, 0, 0x201, 0);
  tu_at(t, 3, 5);
  tu_pkt(t, 3, 0, 2, 0, 0x203, 0);
  tu_run_to(t, 20);
  assert_int_equal(tu_find_sop(t, 0, 0x203)->cycle, 7);
  assert_int_equal(tu_find_sop(t, 0, 0x201)->cycle, 9);
  assert_int_equal(tu_find_sop(t, 0, 0x202)->cycle, 10);
  tu_close(t);
}

/* SPEC §7.4: qlen counts the blocks and qpkts the packets of an egress queue (not the pipeline);
 * tx_rem counts down the blocks of the packet in flight. */
static void test_qlen_qpkts_and_tx_rem(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pipe(&c, true, 1);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 1);
  tu_pfc(t, 1, 0x01, 100); /* paused 2..101 */
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 2, 1, 1, 0);
  tu_pkt(t, 0, 0, 3, 1, 2, 0);
  tu_pkt(t, 0, 0, 1, 1, 3, 0); /* sops 2, 4, 7 */
  tu_run_to(t, 8);
  assert_int_equal(tu_reg(t, "qlen", 1, 0), 6);
  assert_int_equal(tu_reg(t, "qpkts", 1, 0), 3);
  assert_int_equal(tu_reg(t, "qlen", 1, 1), 0);
  tu_run_to(t, 103); /* the first packet (2 blocks) started in 102 */
  assert_int_equal(tu_find_sop(t, 1, 1)->cycle, 102);
  assert_int_equal(tu_reg(t, "qlen", 1, 0), 4);
  assert_int_equal(tu_reg(t, "qpkts", 1, 0), 2);
  assert_int_equal(tu_reg(t, "tx_rem", 1, 0), 1);
  tu_run_to(t, 104);
  assert_int_equal(tu_reg(t, "tx_rem", 1, 0), 0);
  assert_int_equal(tu_stats(t, 1)->cls[0].peak_qlen, 6);
  tu_run_to(t, 120);
  /* (lfc_switch_stats returns a snapshot: fetch it again after stepping) */
  assert_int_equal(tu_stats(t, 1)->cls[0].tx_pkts, 3);
  assert_int_equal(tu_stats(t, 1)->cls[0].tx_blocks, 6);
  assert_int_equal(tu_stats(t, 0)->cls[0].rx_pkts, 3);
  assert_int_equal(tu_stats(t, 0)->cls[0].rx_blocks, 6);
  tu_close(t);
}

/* Held packets of t's switch now; also checks that the total is the sum of the parts. */
static lfc_held_t held(const tu_t *t) {
  lfc_held_t h;
  uint64_t total = lfc_switch_held(t->sw, &h);
  assert_int_equal(total, h.receiving + h.pipeline + h.queued);
  return h;
}

static void assert_held(const tu_t *t, uint64_t receiving, uint64_t pipeline, uint64_t queued) {
  lfc_held_t h = held(t);
  if (h.receiving != receiving || h.pipeline != pipeline || h.queued != queued)
    fail_msg("S(%llu): held receiving %llu, pipeline %llu, queued %llu; expected %llu, %llu, %llu",
             (unsigned long long)tu_now(t), (unsigned long long)h.receiving,
             (unsigned long long)h.pipeline, (unsigned long long)h.queued,
             (unsigned long long)receiving, (unsigned long long)pipeline,
             (unsigned long long)queued);
}

/* SPEC §7.3, cut-through, latency 7: a 3-block packet with sop in at 5 is in the pipeline from
   S(6), enters its queue in step F of cycle 11 (ready 12), leaves at 12; from S(13) it is no
   longer held although its blocks 2 and 3 are still being sent (cycles 13, 14). */
static void test_held_cut_through_pipeline_then_queue_then_gone_at_sop_out(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_pfc(&c, 4, 2);
  c.cut_through = true;
  c.latency = 7;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 5);
  tu_pkt(t, 0, 1, 3, 1, 0xA1, 0);
  tu_run_to(t, 5);
  assert_held(t, 0, 0, 0);
  tu_run_to(t, 6);
  assert_held(t, 0, 1, 0);
  tu_run_to(t, 11);
  assert_held(t, 0, 1, 0);
  tu_run_to(t, 12);
  assert_held(t, 0, 0, 1);
  tu_run_to(t, 13);
  assert_held(t, 0, 0, 0);
  const tu_out_t *o = tu_find_sop(t, 1, 0xA1);
  assert_non_null(o);
  assert_int_equal(o->cycle, 12);
  tu_run_to(t, 20);
  assert_int_equal(tu_count_out(t, 1, LFC_DATA, 0, 20), 3); /* sent after it stopped being held */
  tu_close(t);
}

/* SPEC §7.3, store-and-forward, latency 7: 4 blocks in 5..8: being received in S(6)..S(8),
   in the pipeline from S(9) (t_last = 8, ready 15), queued in S(15), gone from S(16). */
static void test_held_store_forward_receiving_until_last_block(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_pfc(&c, 4, 2);
  c.cut_through = false;
  c.latency = 7;
  tu_t *t = tu_open(&c);
  tu_at(t, 2, 5);
  tu_pkt(t, 2, 0, 4, 3, 0xB2, 0);
  tu_run_to(t, 6);
  assert_held(t, 1, 0, 0);
  tu_run_to(t, 8);
  assert_held(t, 1, 0, 0);
  tu_run_to(t, 9);
  assert_held(t, 0, 1, 0);
  tu_run_to(t, 14);
  assert_held(t, 0, 1, 0);
  tu_run_to(t, 15);
  assert_held(t, 0, 0, 1);
  tu_run_to(t, 16);
  assert_held(t, 0, 0, 0);
  assert_non_null(tu_find_sop(t, 3, 0xB2));
  tu_close(t);
}

/* SPEC §5.3, §7.4: in IB mode with no FCP received (FCCL 0) data packets stay in their egress
   queues; every VL's queue counts, and the count is the qpkts registers' sum. VL15 is not flow
   controlled (§5.6) and leaves: then it is not held. */
static void test_held_queued_counts_every_vl(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_ib(&c, 3, 2);
  c.vl15_blocks = 8;
  tu_t *t = tu_open(&c);
  for (uint32_t i = 0; i < 3; i++) tu_pkt(t, 0, 0, 2, 1, 0xC0 + i, 0);
  for (uint32_t i = 0; i < 2; i++) tu_pkt(t, 2, 1, 1, 1, 0xD0 + i, 0);
  tu_pkt(t, 2, LFC_VL15, 1, 1, 0xF0, 0);
  tu_run_to(t, 100);
  assert_non_null(tu_find_sop(t, 1, 0xF0));
  assert_held(t, 0, 0, 5);
  uint64_t qpkts = 0;
  for (uint32_t cl = 0; cl < 2; cl++) qpkts += tu_reg(t, "qpkts", 1, cl);
  qpkts += tu_reg(t, "qpkts", 1, LFC_VL15);
  assert_int_equal(qpkts, 5);
  assert_int_equal(lfc_switch_held(t->sw, NULL), 5); /* NULL: the total only */
  tu_close(t);
}

/* SPEC §7.2: a dropped packet is never held: a dst that does not route and an nblk above
   mtu_blocks are MALFORMED at the first block. */
static void test_held_dropped_packets_are_not_held(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_pfc(&c, 4, 2);
  c.cut_through = false;
  c.mtu_blocks = 4;
  tu_t *t = tu_open(&c);
  tu_pkt(t, 0, 0, 3, 9, 0xE1, 0); /* dst 9 >= ports */
  tu_pkt(t, 1, 0, 5, 2, 0xE2, 0); /* nblk 5 > mtu_blocks */
  for (uint64_t now = 0; now < 30; now++) {
    tu_step(t);
    assert_held(t, 0, 0, 0);
  }
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, LFC_DROP_MALFORMED), 2);
  tu_close(t);
}

/* ---- property: held = admitted - started, over random traffic ---- */

typedef struct {
  const char *name;
  lfc_mode_t mode;
  uint32_t ports, classes;
  bool cut_through;
  uint32_t latency;
  uint8_t speed[6];      /* cut-through needs equal speeds (SPEC §3) */
  uint32_t shared_blocks; /* PFC: small enough for drops */
  lfc_traffic_pattern_t pattern;
  uint64_t seed;
} held_case_t;

static const held_case_t CASES[] = {
    {"pfc store-and-forward incast, drops", LFC_MODE_PFC, 5, 2, false, 9, {1, 2, 1, 1, 3},
     300, LFC_TRAFFIC_INCAST, 301},
    {"pfc cut-through uniform", LFC_MODE_PFC, 6, 3, true, 3, {1, 1, 1, 1, 1, 1}, 4000,
     LFC_TRAFFIC_UNIFORM, 302},
    {"ib cut-through hotspot", LFC_MODE_IB, 4, 2, true, 5, {1, 1, 1, 1}, 0,
     LFC_TRAFFIC_HOTSPOT, 303},
    {"ib store-and-forward, mixed speeds", LFC_MODE_IB, 4, 3, false, 2, {1, 3, 1, 2}, 0,
     LFC_TRAFFIC_UNIFORM, 304},
};

#define HELD_CYCLES 20000u

/* Packets admitted and not yet started, from the counters of SPEC §10 (no watchdog here, so
   nothing is discarded from a queue): sum of rx_pkts - tx_pkts over ports and classes. */
static uint64_t admitted_not_started(lfc_switch_t *sw, uint32_t ports) {
  uint64_t in = 0, out = 0;
  for (uint32_t p = 0; p < ports; p++) {
    const lfc_port_stats_t *ps = lfc_switch_stats(sw, p);
    for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++) {
      in += ps->cls[c].rx_pkts;
      out += ps->cls[c].tx_pkts;
    }
  }
  return in - out;
}

static uint64_t qpkts_sum(const lfc_switch_t *sw, uint32_t ports) {
  int r = lfc_reg_find("qpkts");
  assert_true(r >= 0);
  uint64_t n = 0;
  for (uint32_t p = 0; p < ports; p++)
    for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++) n += lfc_switch_reg(sw, (size_t)r, p, c);
  return n;
}

static void run_case(const held_case_t *tc) {
  lfc_star_cfg_t cfg;
  lfc_star_cfg_default(&cfg, tc->mode, tc->ports, tc->classes);
  cfg.sw.cut_through = tc->cut_through;
  cfg.sw.latency = tc->latency;
  for (uint32_t p = 0; p < tc->ports; p++) cfg.sw.speed_div[p] = tc->speed[p];
  if (tc->mode == LFC_MODE_PFC) {
    cfg.sw.lossless_mask = 0; /* lossy: admission drops happen */
    cfg.sw.shared_blocks = tc->shared_blocks;
  }
  cfg.traffic.pattern = tc->pattern;
  cfg.traffic.incast_dst = 0;
  cfg.traffic.hotspot_pct = 50;
  cfg.traffic.load_permille = 1000;
  cfg.traffic.seed = tc->seed;
  print_message("  %s: seed %llu, %u cycles\n", tc->name, (unsigned long long)tc->seed,
                HELD_CYCLES);
  char err[256] = "";
  lfc_star_t *star = lfc_star_create(&cfg, err, sizeof err);
  if (star == NULL) fail_msg("lfc_star_create: %s", err);
  lfc_switch_t *sw = lfc_star_switch(star);
  uint64_t peak = 0, seen_receiving = 0, seen_pipeline = 0;
  for (uint32_t t = 0; t < HELD_CYCLES; t++) {
    lfc_star_step(star);
    lfc_held_t h;
    uint64_t n = lfc_switch_held(sw, &h);
    uint64_t want = admitted_not_started(sw, tc->ports);
    if (n != want || h.queued != qpkts_sum(sw, tc->ports))
      fail_msg("%s: S(%u): held %llu (receiving %llu, pipeline %llu, queued %llu); admitted "
               "and not started %llu, qpkts %llu", tc->name, t + 1, (unsigned long long)n,
               (unsigned long long)h.receiving, (unsigned long long)h.pipeline,
               (unsigned long long)h.queued, (unsigned long long)want,
               (unsigned long long)qpkts_sum(sw, tc->ports));
    if (n > peak) peak = n;
    seen_receiving += h.receiving;
    seen_pipeline += h.pipeline;
  }
  /* The traffic reached every place the count looks at. */
  assert_true(peak > 10);
  assert_true(seen_pipeline > 0);
  if (!tc->cut_through) assert_true(seen_receiving > 0);
  if (tc->cut_through) assert_int_equal(seen_receiving, 0);
  uint64_t dropped = 0;
  for (uint32_t p = 0; p < tc->ports; p++)
    for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++)
      for (uint32_t k = 0; k < LFC_DROP_CAUSES; k++)
        dropped += lfc_switch_stats(sw, p)->cls[c].drop_pkts[k];
  if (tc->mode == LFC_MODE_PFC) assert_true(dropped > 0); /* drops are never held */
  print_message("    peak %llu packets held, %llu dropped\n", (unsigned long long)peak,
                (unsigned long long)dropped);
  lfc_star_destroy(star);
}

static void test_held_is_admitted_minus_started_on_random_traffic(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) run_case(&CASES[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_latency_cut_through_1),
      TU_TEST(test_latency_cut_through_7),
      TU_TEST(test_latency_cut_through_4095),
      TU_TEST(test_latency_store_forward_1),
      TU_TEST(test_latency_store_forward_7),
      TU_TEST(test_latency_store_forward_speed_div),
      TU_TEST(test_simultaneous_arrivals_ascending_ingress_order),
      TU_TEST(test_same_ready_cycle_ascending_ingress_order),
      TU_TEST(test_qlen_qpkts_and_tx_rem),
      TU_TEST(test_held_cut_through_pipeline_then_queue_then_gone_at_sop_out),
      TU_TEST(test_held_store_forward_receiving_until_last_block),
      TU_TEST(test_held_queued_counts_every_vl),
      TU_TEST(test_held_dropped_packets_are_not_held),
      TU_TEST(test_held_is_admitted_minus_started_on_random_traffic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
