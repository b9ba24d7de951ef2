/*
 * test_pfc_rx_counters.c - the switch's counters of received PFC frames at their boundaries
 * (SPEC §6.7, §10): a priority with time 1, the shortest pause, counts in pause_rx and pauses
 * k cycles (paused_cycles); time 0 counts in resume_rx; a frame counts in pfc_rx once whatever
 * it enables; enable bits of priorities >= classes count nowhere.
 */
#include "testutil.h"

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
      TU_TEST(test_pfc_rx_counters_boundaries),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
