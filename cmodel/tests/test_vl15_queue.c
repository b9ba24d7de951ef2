/*
 * test_vl15_queue.c - several VL15 packets queued at one egress port (SPEC §5.6 step 1: VL15
 * goes first and is not flow-controlled, IBA C7-18): they leave back to back in order, none is
 * ever counted as credit-blocked (SPEC §10 counts data VLs whose head fails the send rule), and
 * the data VL's FCTBS does not move (§5.3 counts data VLs only).
 */
#include "testutil.h"

#include <string.h>

enum { PKTS = 4, NBLK = 3, IN0 = 0, IN1 = 2, OUT = 1 };

static void test_queued_vl15_packets_leave_unblocked(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_ib(&c, 3, 1);
  c.vl15_blocks = PKTS * NBLK;
  c.latency = 2;
  tu_t *t = tu_open(&c);
  /* Two ingress ports each send two VL15 packets to port OUT at once: they queue there. */
  for (uint32_t i = 0; i < PKTS / 2; i++) {
    tu_pkt(t, IN0, LFC_VL15, NBLK, OUT, 0x150 + i, 0);
    tu_pkt(t, IN1, LFC_VL15, NBLK, OUT, 0x160 + i, 0);
  }
  tu_run_to(t, 200);
  const tu_out_t *v[PKTS + 1];
  size_t n = tu_sops(t, OUT, 0, v, PKTS + 1);
  assert_int_equal(n, PKTS);
  for (size_t i = 0; i < n; i++) assert_int_equal(v[i]->w.cls, LFC_VL15);
  for (size_t i = 1; i < n; i++) assert_int_equal(v[i]->cycle, v[i - 1]->cycle + NBLK);
  const lfc_port_stats_t *s = tu_stats(t, OUT);
  assert_int_equal(s->cls[LFC_VL15].tx_pkts, PKTS);
  assert_int_equal(s->cls[LFC_VL15].credit_blocked_cycles, 0);
  assert_int_equal(s->cls[0].credit_blocked_cycles, 0);
  assert_int_equal(tu_reg(t, "fctbs", OUT, 0), 0);
  tu_close(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_queued_vl15_packets_leave_unblocked),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
