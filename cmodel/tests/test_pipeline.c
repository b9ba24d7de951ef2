/*
 * test_pipeline.c - pipeline latency and queue order (docs/SPEC.md §7.3, §7.4), Moore outputs
 * (§1.3), the register interface and reset values (§5.1, §6.1, §13.1), reset, and counters (§10).
 *
 * Latency (§7.3): ready cycle r = t_sop + latency (cut-through) or t_last + latency
 * (store-and-forward); the packet can start in r at the earliest, on an idle egress exactly in r
 * (in the first slot >= r when speed_div > 1).
 */
#include "testutil.h"

#include <string.h>

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

/* SPEC §1.3: outputs are a function of the state only. A packet in the queue of S(10) starts in 10
 * even though a pause frame for its class arrives in 10 (it pauses from 11). */
static void test_outputs_do_not_see_same_cycle_inputs(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pipe(&c, true, 1);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 9);
  tu_pkt(t, 0, 0, 1, 1, 0x300, 0); /* ready 10 */
  tu_pkt(t, 0, 0, 1, 1, 0x301, 0); /* ready 11: paused */
  tu_at(t, 1, 10);
  tu_pfc(t, 1, 0x01, 50);
  tu_run_to(t, 20);
  assert_int_equal(tu_find_sop(t, 1, 0x300)->cycle, 10);
  assert_null(tu_find_sop(t, 1, 0x301));
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

/* ---- Registers (§13.1) ---- */

typedef struct {
  const char *name;
  int idx;
  int width;
  int scope;
  int mode;
} reg_row_t;

/* SPEC §13.1: names, indices, widths, scopes and modes of the register table. */
static void test_register_table_matches_spec(void **state) {
  (void)state;
  enum { S = LFC_SCOPE_SWITCH, P = LFC_SCOPE_PORT, PC = LFC_SCOPE_PORT_CLASS };
  enum { IB = LFC_MODE_IB, PF = LFC_MODE_PFC, BOTH = 2 };
  static const reg_row_t rows[] = {
      {"shared_used", 0, 20, S, PF},     {"rx_rem", 1, 8, P, BOTH},
      {"tx_rem", 2, 8, P, BOTH},         {"drr_ptr", 3, 3, P, PF},
      {"hi_idx", 4, 6, P, IB},           {"lo_idx", 5, 6, P, IB},
      {"hi_rem", 6, 8, P, IB},           {"lo_rem", 7, 8, P, IB},
      {"hi_sent", 8, 16, P, IB},         {"lfsr", 9, 32, P, PF},
      {"occ15", 10, 16, P, IB},          {"fctbs", 11, 12, PC, IB},
      {"fccl", 12, 12, PC, IB},          {"abr", 13, 12, PC, IB},
      {"occ", 14, 16, PC, IB},           {"fcp_sent_fctbs", 15, 12, PC, IB},
      {"fcp_sent_fccl", 16, 12, PC, IB}, {"fcp_timer", 17, 16, PC, IB},
      {"pg_min", 18, 16, PC, PF},        {"pg_shared", 19, 20, PC, PF},
      {"pg_hdrm", 20, 16, PC, PF},       {"xoff", 21, 1, PC, PF},
      {"pfc_pend", 22, 1, PC, PF},       {"refresh_timer", 23, 16, PC, PF},
      {"pause_timer", 24, 21, PC, PF},   {"wd_storm", 25, 1, PC, PF},
      {"wd_cnt", 26, 20, PC, PF},        {"wd_rcnt", 27, 20, PC, PF},
      {"deficit", 28, 16, PC, PF},       {"qlen", 29, 20, PC, BOTH},
      {"qpkts", 30, 20, PC, BOTH},
  };
  assert_true(lfc_reg_count() >= 31);
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    const reg_row_t *r = &rows[i];
    if (lfc_reg_find(r->name) != r->idx) {
      fail_msg("lfc_reg_find(\"%s\") = %d, SPEC §13.1 says %d", r->name, lfc_reg_find(r->name),
               r->idx);
    }
    const lfc_reg_info_t *info = lfc_reg_info((size_t)r->idx);
    assert_non_null(info);
    assert_string_equal(info->name, r->name);
    if (info->width != r->width || info->scope != r->scope || info->mode != r->mode) {
      fail_msg("register %s: width/scope/mode %u/%u/%u, SPEC §13.1 says %d/%d/%d", r->name,
               info->width, info->scope, info->mode, r->width, r->scope, r->mode);
    }
  }
  assert_int_equal(lfc_reg_find("no_such_register"), -1);
}

static const char *const ib_regs[] = {"hi_idx", "lo_idx", "hi_rem", "lo_rem", "hi_sent",
                                      "occ15", "fctbs", "fccl", "abr", "occ", "fcp_sent_fctbs",
                                      "fcp_sent_fccl", "fcp_timer"};
static const char *const pfc_regs[] = {"shared_used", "drr_ptr", "lfsr", "pg_min", "pg_shared",
                                       "pg_hdrm", "xoff", "pfc_pend", "refresh_timer",
                                       "pause_timer", "wd_storm", "wd_cnt", "wd_rcnt", "deficit"};

/* SPEC §5.1, §5.6, §7: the IB reset values (all 0, fcp_timer 0 = every VL pending) on every port
 * and VL; the PFC registers read 0 in IB mode (§13.1). */
static void test_reset_values_ib(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_ib(&c, 3, 4);
  c.vl15_blocks = 16;
  tu_t *t = tu_open(&c);
  assert_int_equal(lfc_switch_cycle(t->sw), 0);
  for (uint32_t p = 0; p < 3; p++) {
    for (uint32_t v = 0; v < 4; v++) {
      for (size_t i = 0; i < sizeof ib_regs / sizeof ib_regs[0]; i++) {
        if (tu_reg(t, ib_regs[i], p, v) != 0) fail_msg("%s(%u,%u) not 0 at reset", ib_regs[i], p, v);
      }
      for (size_t i = 0; i < sizeof pfc_regs / sizeof pfc_regs[0]; i++) {
        if (tu_reg(t, pfc_regs[i], p, v) != 0) fail_msg("PFC register %s reads non-0 in IB", pfc_regs[i]);
      }
      assert_int_equal(tu_reg(t, "qlen", p, v), 0);
      assert_int_equal(tu_reg(t, "qpkts", p, v), 0);
    }
    assert_int_equal(tu_reg(t, "qlen", p, 15), 0);
    assert_int_equal(tu_reg(t, "rx_rem", p, 0), 0);
    assert_int_equal(tu_reg(t, "tx_rem", p, 0), 0);
  }
  tu_close(t);
}

/* SPEC §6.1, §6.7, §6.8, §8.2, §9.3: the PFC reset values: every counter 0, drr_ptr = classes - 1,
 * lfsr = seed XOR 0x9E3779B9 (p + 1); the IB registers read 0 in PFC mode (§13.1). */
static void test_reset_values_pfc(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_pfc(&c, 3, 5);
  c.seed = 7;
  c.wd_enable = true;
  tu_t *t = tu_open(&c);
  assert_int_equal(tu_reg(t, "shared_used", 0, 0), 0);
  for (uint32_t p = 0; p < 3; p++) {
    assert_int_equal(tu_reg(t, "drr_ptr", p, 0), 4);
    assert_int_equal(tu_reg(t, "lfsr", p, 0), 7u ^ (uint32_t)(0x9E3779B9u * (p + 1u)));
    for (uint32_t k = 0; k < 5; k++) {
      for (size_t i = 3; i < sizeof pfc_regs / sizeof pfc_regs[0]; i++) {
        if (tu_reg(t, pfc_regs[i], p, k) != 0) fail_msg("%s(%u,%u) not 0 at reset", pfc_regs[i], p, k);
      }
      for (size_t i = 0; i < sizeof ib_regs / sizeof ib_regs[0]; i++) {
        if (tu_reg(t, ib_regs[i], p, k) != 0) fail_msg("IB register %s reads non-0 in PFC", ib_regs[i]);
      }
    }
  }
  tu_close(t);
}

/* switch.h lfc_switch_reset: back to cycle 0, reset registers and zero counters; the same inputs
 * then give the same outputs. */
static void test_reset_returns_to_reset_state(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pipe(&c, true, 3);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 1, 4, 2, 0x400, 0);
  tu_run_to(t, 4); /* mid-packet: rx_rem, pg_shared non-zero */
  assert_true(tu_reg(t, "rx_rem", 0, 0) > 0);
  lfc_switch_reset(t->sw);
  assert_int_equal(lfc_switch_cycle(t->sw), 0);
  assert_int_equal(tu_reg(t, "rx_rem", 0, 0), 0);
  assert_int_equal(tu_reg(t, "pg_shared", 0, 1), 0);
  assert_int_equal(tu_reg(t, "shared_used", 0, 0), 0);
  assert_int_equal(tu_reg(t, "qpkts", 2, 1), 0);
  assert_int_equal(tu_stats(t, 0)->cls[1].rx_pkts, 0);
  /* replay on the reset switch, stepping it directly */
  lfc_word_t in[4], out[4];
  uint64_t sop_out = 0;
  for (uint64_t k = 0; k < 12; k++) {
    memset(in, 0, sizeof in);
    if (k >= 2 && k < 6) in[0] = tu_data_word(k == 2, k == 5, 1, 4, 2, 0x401, 0);
    lfc_switch_step(t->sw, in, out);
    if (out[2].kind == LFC_DATA && out[2].sop) sop_out = k;
  }
  assert_int_equal(sop_out, 5); /* 2 + latency 3 */
  assert_int_equal(tu_stats(t, 0)->cls[1].rx_pkts, 1);
  tu_close(t);
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
      TU_TEST(test_outputs_do_not_see_same_cycle_inputs),
      TU_TEST(test_qlen_qpkts_and_tx_rem),
      TU_TEST(test_register_table_matches_spec),
      TU_TEST(test_reset_values_ib),
      TU_TEST(test_reset_values_pfc),
      TU_TEST(test_reset_returns_to_reset_state),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
