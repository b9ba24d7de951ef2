/*
 * test_mut_thresholds.c - exact boundaries that mutants moved without the suite noticing
 * (scripts/mutants-c.py, docs/fuzzing.md §3):
 *   - a PFC link partner pauses exactly when its occupancy reaches rx_xoff (SPEC §12.2: xoff
 *     when occ >= rx_xoff), not one block later or earlier;
 *   - a VL arbitration entry for a VL >= classes is rejected with a message naming the data VLs
 *     0..classes-1 (SPEC §3.2).
 */
#include "testutil.h"

#include <string.h>

#include "lfc/nic.h"

/* 1 if the partner, given `blocks` one-block packets of class 0 (one per cycle) and then IDLE,
   sends an XOFF for class 0 within 60 cycles. It never drains in that time. */
static int partner_pauses_after(uint32_t blocks, uint32_t rx_xoff) {
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_PFC, 1);
  c.mtu_blocks = 8;
  c.rx_blocks = 64;
  c.rx_xoff = rx_xoff;
  c.rx_xon = 2;
  c.drain_div = 65535; /* drains in cycle 0 only, when it holds nothing */
  char err[256];
  lfc_nic_t *n = lfc_nic_create(&c, err, sizeof err);
  assert_non_null(n);
  int paused = 0;
  for (uint32_t t = 0; t < 60; t++) {
    lfc_word_t in, out;
    memset(&in, 0, sizeof in);
    if (t >= 1 && t <= blocks) {
      in.kind = LFC_DATA;
      in.sop = in.eop = 1;
      in.nblk = 1;
      in.tag = t;
    }
    lfc_nic_step(n, &in, &out);
    if (out.kind == LFC_PFC && (out.pfc_en & 1u) && out.pfc_time[0] > 0) paused = 1;
  }
  lfc_nic_destroy(n);
  return paused;
}

static void test_partner_xoff_at_rx_xoff(void **state) {
  (void)state;
  for (uint32_t th = 4; th <= 9; th += 5) {
    assert_false(partner_pauses_after(th - 1, th));
    assert_true(partner_pauses_after(th, th));
  }
}

static void test_vlarb_vl_beyond_classes_message(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 2);
  c.vlarb_low[0].vl = 2;
  c.vlarb_low[0].weight = 4;
  c.vlarb_low_len = 1;
  char err[256] = "";
  assert_int_not_equal(lfc_switch_cfg_check(&c, err, sizeof err), 0);
  if (!strstr(err, "VLs are 0..1")) fail_msg("message \"%s\" lacks \"VLs are 0..1\"", err);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_partner_xoff_at_rx_xoff),
      cmocka_unit_test(test_vlarb_vl_beyond_classes_message),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
