/*
 * test_pfc_rx.c - PFC reception (cmodel/src/pfc_rx.c, docs/SPEC.md §6.7, §5.2 step 3, §10): pause
 * timers and their expiry (k = 1 and k > 1), resume by quanta 0, a frame replacing the timer, a
 * packet in flight finishing before a pause applies, priorities beyond the classes ignored, and
 * the counters of received frames at their boundaries: a priority with time 1, the shortest
 * pause, counts in pause_rx and pauses k cycles (paused_cycles); time 0 counts in resume_rx; a
 * frame counts in pfc_rx once whatever it enables; enable bits of priorities >= classes count
 * nowhere.
 *
 * A frame received in cycle t with time q pauses cycles t+1 .. t+q*k (§6.7).
 */

#include "testutil.h"

static void cfg_pfc(lfc_switch_cfg_t *c, uint32_t ports) {
  tu_cfg_pfc(c, ports, 2); /* lossy, big pool: set what the test needs */
}

/* ---- §6.7 pause reception ---- */

/* SPEC §6.7: a frame received in t with time q pauses t+1 .. t+q*k. k = 1, q = 10, t = 10: a
 * packet queued for the paused class from S(11) starts in 21 exactly (without the pause: 11). The
 * lossy class obeys the pause too. pause_timer reads the remaining cycles. */
static void test_pause_expiry_exact(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 2);
  c.cut_through = true;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 10);
  tu_pfc(t, 1, 0x01, 10);
  tu_at(t, 0, 10);
  tu_pkt(t, 0, 0, 1, 1, 0x77, 0);
  tu_run_to(t, 11);
  assert_int_equal(tu_reg(t, "pause_timer", 1, 0), 10);
  tu_run_to(t, 20);
  assert_int_equal(tu_reg(t, "pause_timer", 1, 0), 1);
  assert_int_equal(tu_count_out(t, 1, LFC_DATA, 0, 20), 0);
  tu_run_to(t, 25);
  assert_int_equal(tu_find_sop(t, 1, 0x77)->cycle, 21);
  assert_int_equal(tu_stats(t, 1)->cls[0].paused_cycles, 10);
  assert_int_equal(tu_stats(t, 1)->cls[0].pause_rx, 1);
  assert_int_equal(tu_stats(t, 1)->pfc_rx, 1);
  tu_close(t);
}

/* SPEC §6.7, §1.2: one quantum is k cycles. All ports k = 4 (store-and-forward). Frame in
 * t = 11 with q = 3: pause_timer 12, paused 12..23; a packet ready in 12 starts in the first slot
 * after the pause, 24 (24 mod 4 = 0). Without the k factor it would start in 16; paused one
 * cycle too long, in 28. */
static void test_pause_expiry_exact_speed_div(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 2);
  for (int p = 0; p < 2; p++) c.speed_div[p] = 4;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 11);
  tu_pfc(t, 1, 0x01, 3);
  tu_at(t, 0, 11);
  tu_pkt(t, 0, 0, 1, 1, 0x78, 0);
  tu_run_to(t, 12);
  assert_int_equal(tu_reg(t, "pause_timer", 1, 0), 12);
  tu_run_to(t, 40);
  assert_int_equal(tu_find_sop(t, 1, 0x78)->cycle, 24);
  tu_close(t);
}

/* SPEC §6.7: quanta 0 resumes at once: paused by q = 1000 in 10, resumed by q = 0 in 15, the
 * queued packet starts in 16. Counted as one pause_rx and one resume_rx. */
static void test_pause_quanta_zero_resumes_at_once(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 2);
  c.cut_through = true;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 10);
  tu_pfc(t, 1, 0x01, 1000);
  tu_at(t, 1, 15);
  tu_pfc(t, 1, 0x01, 0);
  tu_at(t, 0, 10);
  tu_pkt(t, 0, 0, 1, 1, 0x79, 0);
  tu_run_to(t, 30);
  assert_int_equal(tu_find_sop(t, 1, 0x79)->cycle, 16);
  assert_int_equal(tu_stats(t, 1)->cls[0].pause_rx, 1);
  assert_int_equal(tu_stats(t, 1)->cls[0].resume_rx, 1);
  assert_int_equal(tu_reg(t, "pause_timer", 1, 0), 0);
  tu_close(t);
}

/* SPEC §6.7: a frame replaces the timer (it does not add): q 100 in 10, then q 5 in 20: paused
 * 11..25, the queued packet starts in 26; paused_cycles counts 15. */
static void test_pause_frame_replaces_timer(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 2);
  c.cut_through = true;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 10);
  tu_pfc(t, 1, 0x01, 100);
  tu_at(t, 1, 20);
  tu_pfc(t, 1, 0x01, 5);
  tu_at(t, 0, 10);
  tu_pkt(t, 0, 0, 1, 1, 0x7A, 0);
  tu_run_to(t, 21);
  assert_int_equal(tu_reg(t, "pause_timer", 1, 0), 5);
  tu_run_to(t, 40);
  assert_int_equal(tu_find_sop(t, 1, 0x7A)->cycle, 26);
  assert_int_equal(tu_stats(t, 1)->cls[0].paused_cycles, 15);
  assert_int_equal(tu_stats(t, 1)->cls[0].pause_rx, 2);
  tu_close(t);
}

/* SPEC §6.7 ("a packet already started is finished"), §5.2 step 2: two 8-block packets,
 * cut-through latency 1 from sops 10 and 18: A leaves 11..18. A pause (q 20) received in 13
 * (paused 14..33) lets A finish in 14..18; B, due in 19, starts in 34. */
static void test_packet_in_flight_finishes_before_pause(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 2);
  c.cut_through = true;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 10);
  tu_pkt(t, 0, 0, 8, 1, 0xA, 0);
  tu_pkt(t, 0, 0, 8, 1, 0xB, 0);
  tu_at(t, 1, 13);
  tu_pfc(t, 1, 0x01, 20);
  tu_run_to(t, 50);
  for (uint64_t k = 11; k <= 18; k++) {
    lfc_word_t w = tu_out_at(t, 1, k);
    assert_int_equal(w.kind, LFC_DATA);
    assert_int_equal(w.tag, 0xA);
    assert_int_equal(w.sop, k == 11);
    assert_int_equal(w.eop, k == 18);
  }
  assert_int_equal(tu_find_sop(t, 1, 0xB)->cycle, 34);
  tu_close(t);
}

/* SPEC §6.7: pause applies per priority: a pause of priority 1 does not hold priority 0; pfc_en
 * bits for priorities >= classes are ignored (and not counted). */
static void test_pause_per_priority_and_bits_beyond_classes_ignored(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pfc(&c, 2);
  c.cut_through = true;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 10);
  tu_pfc(t, 1, 0xFE, 1000); /* priorities 1..7; only 1 exists */
  tu_at(t, 0, 10);
  tu_pkt(t, 0, 0, 1, 1, 0x80, 0);
  tu_pkt(t, 0, 1, 1, 1, 0x81, 0);
  tu_run_to(t, 30);
  assert_int_equal(tu_find_sop(t, 1, 0x80)->cycle, 11);
  assert_null(tu_find_sop(t, 1, 0x81));
  assert_int_equal(tu_reg(t, "pause_timer", 1, 0), 0);
  assert_true(tu_reg(t, "pause_timer", 1, 1) > 0);
  assert_int_equal(tu_stats(t, 1)->cls[1].pause_rx, 1);
  for (int k = 2; k < 8; k++) assert_int_equal(tu_stats(t, 1)->cls[k].pause_rx, 0);
  tu_close(t);
}

enum { PORTS = 2, CLASSES = 2, K = 3, PORT = 1 };

static void test_pfc_rx_counters_boundaries(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_pfc(&c, PORTS, CLASSES);
  c.speed_div[PORT] = K;
  tu_t *t = tu_open(&c);
  tu_at(t, PORT, 3);
  tu_pfc(t, PORT, 0x1, 1);  /* priority 0: one quantum, K cycles */
  tu_idle(t, PORT, 20);
  tu_pfc(t, PORT, 0x2, 0);  /* priority 1: resume (XON) */
  tu_idle(t, PORT, 20);
  tu_pfc(t, PORT, 0xFC, 5); /* priorities 2..7 do not exist: ignored */
  tu_run_to(t, 200);
  const lfc_port_stats_t *s = tu_stats(t, PORT);
  assert_int_equal(s->pfc_rx, 3);
  assert_int_equal(s->cls[0].pause_rx, 1);
  assert_int_equal(s->cls[0].resume_rx, 0);
  assert_int_equal(s->cls[0].paused_cycles, K);
  assert_int_equal(s->cls[1].pause_rx, 0);
  assert_int_equal(s->cls[1].resume_rx, 1);
  assert_int_equal(s->cls[1].paused_cycles, 0);
  for (uint32_t k = CLASSES; k < LFC_PFC_MAX_PRIOS; k++) {
    assert_int_equal(s->cls[k].pause_rx, 0);
    assert_int_equal(s->cls[k].resume_rx, 0);
  }
  tu_close(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_pause_expiry_exact),
      TU_TEST(test_pause_expiry_exact_speed_div),
      TU_TEST(test_pause_quanta_zero_resumes_at_once),
      TU_TEST(test_pause_frame_replaces_timer),
      TU_TEST(test_packet_in_flight_finishes_before_pause),
      TU_TEST(test_pause_per_priority_and_bits_beyond_classes_ignored),
      TU_TEST(test_pfc_rx_counters_boundaries),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
