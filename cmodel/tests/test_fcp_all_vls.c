/*
 * test_fcp_all_vls.c - the idle FCP schedule of SPEC §5.5 for every number of data VLs the
 * configuration allows (1..15, SPEC §3.2), up to the largest: at reset every VL is pending and
 * the lowest pending VL goes first, one word per cycle, so VL v's FCP is sent in cycle v; each
 * VL's FCP is then repeated every fcp_period cycles (fcp_timer = fcp_period - 1 after a send,
 * pending at 0). So on every port, in cycle t, exactly the FCP of VL t mod fcp_period if that is
 * a VL, else IDLE; FCTBS 0 and FCCL = vl_blocks (nothing sent or received, §5.4).
 */
#include "testutil.h"

#include <string.h>

enum { PORTS = 3, PERIOD = 23, PERIODS = 4, VL_BLOCKS = 100 };

static void check_schedule(uint32_t classes) {
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, PORTS, classes);
  c.fcp_period = PERIOD;
  for (uint32_t v = 0; v < LFC_IB_MAX_VLS; v++) c.vl_blocks[v] = VL_BLOCKS;
  char err[256] = "";
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  if (sw == NULL) fail_msg("lfc_switch_create: %s", err);
  lfc_word_t out[PORTS];
  for (uint32_t t = 0; t < PERIOD * PERIODS; t++) {
    lfc_switch_step(sw, NULL, out);
    uint32_t vl = t % PERIOD;
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
      cmocka_unit_test(test_idle_fcp_schedule_every_vl_count),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
