/*
 * test_pfc_gen.c - PFC generation (cmodel/src/pfc_gen.c, docs/SPEC.md §6.5, §6.6): XOFF crossing,
 * XON hysteresis, XOFF on headroom use and by the dynamic threshold of other ports, no XOFF for
 * a lossy priority, refresh before expiry and per priority, a new transition winning over a
 * frame's clear, and PFC frames only between packets, ahead of data.
 *
 * Timing used throughout (§4.1, §6.5): a packet admitted in cycle t is in the counters of S(t+1);
 * step G of t+1 turns the PG xoff (event in t+1), so xoff and pfc_pend are set in S(t+2) and the
 * frame leaves in t+2 if the port's transmitter is free.
 */

#include "testutil.h"
static void cfg_pfc(lfc_switch_cfg_t *c, uint32_t ports) {
  tu_cfg_pfc(c, ports, 2); /* lossy, big pool: set what the test needs */
}

static void expect_pfc(const tu_t *t, uint32_t port, uint64_t cycle, uint32_t en,
                       const uint32_t time[2]) {
  lfc_word_t w = tu_out_at(t, port, cycle);
  char buf[160];
  if (w.kind != LFC_PFC || w.pfc_en != en || w.pfc_time[0] != time[0] ||
      w.pfc_time[1] != time[1]) {
    fail_msg("port %u cycle %llu: expected PFC en=0x%02x t0=%u t1=%u, got %s", port,
             (unsigned long long)cycle, en, time[0], time[1],
             lfc_word_format(&w, buf, sizeof buf));
  }
  for (int c = 2; c < 8; c++) assert_int_equal(w.pfc_time[c], 0);
}

/* ---- §6.5 XOFF / XON ---- */

/* SPEC §6.5: xoff_cond is pg_shared >= T. With xoff_th 16, 15 held blocks send nothing; the 16th
 * (admitted in 40) turns the PG xoff in step G of 41 and the frame, pfc_en 0x01 with
 * pause_quanta for priority 0, leaves port 0 in 42. */
static void test_xoff_crossing_exact_threshold(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 2);
  c.lossless_mask = 0x01;
  c.xoff_th = 16;
  c.pause_quanta = 1000;
  c.refresh_cycles = 500;
  c.latency = 4000;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  for (uint32_t i = 0; i < 15; i++) tu_pkt(t, 0, 0, 1, 1, i, 0);
  tu_run_to(t, 40);
  assert_int_equal(tu_reg(t, "pg_shared", 0, 0), 15);
  assert_int_equal(tu_count_ev(t, LFC_EV_XOFF, -1, -1, -1), 0);
  assert_int_equal(tu_count_out(t, 0, LFC_PFC, 0, 40), 0);
  tu_at(t, 0, 40);
  tu_pkt(t, 0, 0, 1, 1, 15, 0);
  tu_run_to(t, 42);
  const tu_ev_t *e = tu_find_ev(t, LFC_EV_XOFF, -1, -1, -1);
  assert_non_null(e);
  assert_int_equal(e->cycle, 41);
  assert_int_equal(e->ev.port, 0);
  assert_int_equal(e->ev.cls, 0);
  assert_int_equal(tu_reg(t, "xoff", 0, 0), 1);
  assert_int_equal(tu_reg(t, "pfc_pend", 0, 0), 1);
  tu_run_to(t, 45);
  static const uint32_t tm[2] = {1000, 0};
  expect_pfc(t, 0, 42, 0x01, tm);
  assert_int_equal(tu_count_out(t, 0, LFC_PFC, 0, 45), 1);
  assert_int_equal(tu_reg(t, "pfc_pend", 0, 0), 0);
  assert_int_equal(tu_stats(t, 0)->pfc_tx, 1);
  assert_int_equal(tu_stats(t, 0)->cls[0].xoff_tx, 1);
  tu_close(t);
}

/* SPEC §6.5: XON only when pg_shared + xon_offset <= T. xoff_th 16, xon_offset 4, 16 one-block
 * packets held 40 cycles (cut-through) and leaving one per cycle: after the j-th departure (in
 * cycle d_j) pg_shared = 15 - j in S(d_j + 1); 12 is reached after the 4th (j = 3), so the XON
 * event is in d_3 + 1 (not d_2 + 1, when 13 + 4 > 16) and the frame (time 0) in d_3 + 2. */
static void test_xon_hysteresis_xon_offset(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 2);
  c.lossless_mask = 0x01;
  c.xoff_th = 16;
  c.xon_offset = 4;
  c.cut_through = true;
  c.latency = 40;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  for (uint32_t i = 0; i < 16; i++) tu_pkt(t, 0, 0, 1, 1, i, 0);
  tu_run_to(t, 80);
  const tu_out_t *d[16];
  assert_int_equal(tu_sops(t, 1, 0, d, 16), 16);
  assert_int_equal(d[0]->cycle, 42); /* sop 2 + latency 40 */
  assert_int_equal(d[3]->cycle, 45);
  const tu_ev_t *xoff = tu_find_ev(t, LFC_EV_XOFF, 0, 0, -1);
  assert_non_null(xoff);
  assert_int_equal(xoff->cycle, 18); /* 16th admitted in 17 */
  const tu_ev_t *xon = tu_find_ev(t, LFC_EV_XON, 0, 0, -1);
  assert_non_null(xon);
  assert_int_equal(xon->cycle, d[3]->cycle + 1);
  assert_int_equal(tu_count_ev(t, LFC_EV_XON, -1, -1, -1), 1);
  static const uint32_t on[2] = {0, 0};
  static const uint32_t off[2] = {65535, 0};
  expect_pfc(t, 0, 19, 0x01, off);
  expect_pfc(t, 0, d[3]->cycle + 2, 0x01, on);
  assert_int_equal(tu_count_out(t, 0, LFC_PFC, 0, 80), 2);
  assert_int_equal(tu_stats(t, 0)->cls[0].xon_tx, 1);
  tu_close(t);
}

/* SPEC §6.5: any headroom use is xoff_cond, even with pg_shared far below T. shared_blocks 4: a
 * 6-block packet does not fit the pool and goes to headroom (lossless); the XOFF frame follows. */
static void test_xoff_on_headroom_use(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 2);
  c.lossless_mask = 0x02;
  c.shared_blocks = 4;
  c.xoff_th = 100;
  c.latency = 1000;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 3);
  tu_pkt(t, 0, 1, 6, 1, 1, 0);
  tu_run_to(t, 10);
  assert_int_equal(tu_reg(t, "pg_hdrm", 0, 1), 6);
  assert_int_equal(tu_reg(t, "pg_shared", 0, 1), 0);
  static const uint32_t tm[2] = {0, 65535};
  expect_pfc(t, 0, 5, 0x02, tm);
  tu_close(t);
}

/* SPEC §6.5 (xoff_cond applies to lossless PGs only): a lossy priority over its threshold sends
 * no PFC frame. */
static void test_lossy_priority_sends_no_xoff(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 2);
  c.lossless_mask = 0x01;
  c.xoff_th = 4;
  c.latency = 1000;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 3);
  tu_pkt(t, 0, 1, 4, 1, 1, 0); /* class 1, lossy: pg_shared 4 >= T */
  tu_run_to(t, 20);
  assert_int_equal(tu_reg(t, "pg_shared", 0, 1), 4);
  assert_int_equal(tu_count_out(t, 0, LFC_PFC, 0, 20), 0);
  assert_int_equal(tu_reg(t, "xoff", 0, 1), 0);
  tu_close(t);
}

/* ---- §6.6 refresh ---- */

/* SPEC §6.6: a frame for an xoff PG sets refresh_timer = refresh_cycles - 1, so the refresh is due
 * (timer 0) refresh_cycles cycles later: XOFF frame in 4, refreshes in 64, 124, 184, each within
 * the pause_quanta = 100 of the previous one. */
static void test_refresh_before_expiry(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 2);
  c.lossless_mask = 0x01;
  c.xoff_th = 1;
  c.pause_quanta = 100;
  c.refresh_cycles = 60;
  c.latency = 4000;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 1, 1, 1, 0);
  tu_run_to(t, 5);
  assert_int_equal(tu_reg(t, "refresh_timer", 0, 0), 59);
  tu_run_to(t, 200);
  static const uint32_t tm[2] = {100, 0};
  static const uint64_t at[4] = {4, 64, 124, 184};
  for (int i = 0; i < 4; i++) expect_pfc(t, 0, at[i], 0x01, tm);
  assert_int_equal(tu_count_out(t, 0, LFC_PFC, 0, 200), 4);
  assert_int_equal(tu_stats(t, 0)->cls[0].xoff_tx, 4);
  tu_close(t);
}

/* SPEC §6.6: each xoff priority has its own refresh timer; a frame carries pfc_en for the
 * priorities pending or due, and pfc_time = pause_quanta for every xoff priority (even one not in
 * pfc_en). Priority 0 turns xoff in 3 (frame 4), priority 1 in 13 (frame 14, which also carries
 * time 100 for priority 0); refreshes every 60 cycles: 64 and 124 (en 0x01), 74 and 134 (en 0x02). */
static void test_refresh_per_priority_timers(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 2);
  c.lossless_mask = 0x03;
  c.xoff_th = 1;
  c.pause_quanta = 100;
  c.refresh_cycles = 60;
  c.latency = 4000;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 1, 1, 1, 0);
  tu_at(t, 0, 12);
  tu_pkt(t, 0, 1, 1, 1, 2, 0);
  tu_run_to(t, 140);
  static const uint32_t only0[2] = {100, 0}, both[2] = {100, 100};
  expect_pfc(t, 0, 4, 0x01, only0);
  expect_pfc(t, 0, 14, 0x02, both);
  expect_pfc(t, 0, 64, 0x01, both);
  expect_pfc(t, 0, 74, 0x02, both);
  expect_pfc(t, 0, 124, 0x01, both);
  expect_pfc(t, 0, 134, 0x02, both);
  assert_int_equal(tu_count_out(t, 0, LFC_PFC, 0, 140), 6);
  tu_close(t);
}

/* SPEC §6.6 ("a new transition wins" over the clear of step B), §6.5: a 4-block packet (xoff_th 4)
 * passes through with cut-through latency 1: admitted in 5, XOFF in 6, frame in 7; it left in 6,
 * so in 7 the PG turns XON while its XOFF frame goes out; pfc_pend stays set and the XON frame
 * follows in 8 (otherwise the peer would stay paused for 65535 quanta). */
static void test_new_transition_wins_over_frame_clear(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 2);
  c.lossless_mask = 0x01;
  c.xoff_th = 4;
  c.cut_through = true;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 5);
  tu_pkt(t, 0, 0, 4, 1, 1, 0);
  tu_run_to(t, 20);
  assert_int_equal(tu_find_sop(t, 1, 1)->cycle, 6);
  assert_int_equal(tu_find_ev(t, LFC_EV_XOFF, 0, 0, -1)->cycle, 6);
  assert_int_equal(tu_find_ev(t, LFC_EV_XON, 0, 0, -1)->cycle, 7);
  static const uint32_t off[2] = {65535, 0}, on[2] = {0, 0};
  expect_pfc(t, 0, 7, 0x01, off);
  expect_pfc(t, 0, 8, 0x01, on);
  assert_int_equal(tu_count_out(t, 0, LFC_PFC, 0, 20), 2);
  assert_int_equal(tu_reg(t, "xoff", 0, 0), 0);
  assert_int_equal(tu_reg(t, "pfc_pend", 0, 0), 0);
  tu_close(t);
}

/* SPEC §6.2, §6.5: with a dynamic threshold a PG turns xoff when other ports fill the pool.
 * shared_blocks 100, alpha 1: PG (0, 0) holds 30 (T = 100 - 30 = 70: no xoff). A lossy 40-block
 * packet on port 1 (admitted in 40) makes shared_used 70, T = 30 <= 30: XOFF in 41, frame in 42,
 * though port 0 received nothing. It leaves port 2 in 80 (last block 79, latency 1): T = 70 in
 * S(81), 30 + 8 <= 70: XON in 81, frame in 82. */
static void test_xoff_by_dynamic_threshold_of_other_ports(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 4);
  c.lossless_mask = 0x01;
  c.dynamic_th = true;
  c.alpha_log2 = 0;
  c.shared_blocks = 100;
  tu_t *t = tu_open(&c);
  tu_at(t, 3, 1);
  tu_pfc(t, 3, 0x01, 65535); /* hold port 0's packet in queue (3, 0) */
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 30, 3, 0x30, 0);
  tu_at(t, 1, 40);
  tu_pkt(t, 1, 1, 40, 2, 0x40, 0);
  tu_run_to(t, 100);
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 0);
  assert_int_equal(tu_find_sop(t, 2, 0x40)->cycle, 80);
  const tu_ev_t *e = tu_find_ev(t, LFC_EV_XOFF, 0, 0, -1);
  assert_non_null(e);
  assert_int_equal(e->cycle, 41);
  e = tu_find_ev(t, LFC_EV_XON, 0, 0, -1);
  assert_non_null(e);
  assert_int_equal(e->cycle, 81);
  static const uint32_t off[2] = {65535, 0}, on[2] = {0, 0};
  expect_pfc(t, 0, 42, 0x01, off);
  expect_pfc(t, 0, 82, 0x01, on);
  assert_int_equal(tu_count_out(t, 0, LFC_PFC, 0, 100), 2);
  tu_close(t);
}

/* ---- §5.2 / §2.2 flow-control words between packets, ahead of data ---- */

/* SPEC §5.2 steps 2-4, §2.2: a PFC frame waits for the packet in flight and then goes ahead of
 * queued data. Port 0's transmitter sends a 20-block packet (from port 1, cut-through, 3..22) when
 * its own PG (0, 0) turns xoff (20 blocks held for a paused egress, admitted in 5, xoff in S(7)):
 * the frame goes in 23, the next queued packet for port 0 in 24. */
static void test_pfc_frame_waits_for_packet_and_precedes_data(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 3);
  c.lossless_mask = 0x01;
  c.xoff_th = 20;
  c.cut_through = true;
  tu_t *t = tu_open(&c);
  tu_at(t, 2, 1);
  tu_pfc(t, 2, 0x01, 65535);         /* hold queue (2, 0) */
  tu_at(t, 1, 2);
  tu_pkt(t, 1, 1, 20, 0, 0xF1, 0);   /* lossy class 1 to port 0: 2..21 in, 3..22 out */
  tu_pkt(t, 1, 1, 2, 0, 0xF2, 0);    /* queued behind it */
  tu_at(t, 0, 5);
  tu_pkt(t, 0, 0, 20, 2, 0xF3, 0);   /* lossless PG (0, 0): pg_shared 20 >= 20 */
  tu_run_to(t, 40);
  for (uint64_t k = 3; k <= 22; k++) assert_int_equal(tu_out_at(t, 0, k).kind, LFC_DATA);
  static const uint32_t tm[2] = {65535, 0};
  expect_pfc(t, 0, 23, 0x01, tm);
  assert_int_equal(tu_find_sop(t, 0, 0xF2)->cycle, 24);
  tu_close(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_xoff_crossing_exact_threshold),
      TU_TEST(test_xon_hysteresis_xon_offset),
      TU_TEST(test_xoff_on_headroom_use),
      TU_TEST(test_lossy_priority_sends_no_xoff),
      TU_TEST(test_refresh_before_expiry),
      TU_TEST(test_refresh_per_priority_timers),
      TU_TEST(test_new_transition_wins_over_frame_clear),
      TU_TEST(test_xoff_by_dynamic_threshold_of_other_ports),
      TU_TEST(test_pfc_frame_waits_for_packet_and_precedes_data),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
