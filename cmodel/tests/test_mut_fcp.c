/*
 * test_mut_fcp.c - FCP generation of an idle IB port (SPEC §5.5), exactly: at reset every VL is
 * pending, the lowest pending VL goes first, and each VL's FCP is repeated every fcp_period
 * cycles. Kills mutants of credit_rx.c (a VL counted as expired when it is not) that the suite
 * let survive (scripts/mutants-c.py, docs/fuzzing.md §3).
 */
#include "testutil.h"

#include <string.h>

#define PERIOD 16u /* fcp_period, cycles */
#define CYCLES 50u

static void test_idle_fcp_schedule_two_vls(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 2, 2);
  c.fcp_period = PERIOD;
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  assert_non_null(sw);
  lfc_word_t in[LFC_MAX_PORTS], out[LFC_MAX_PORTS];
  memset(in, 0, sizeof in);
  /* VL0 at cycle 0 and VL1 at cycle 1 (one word per cycle), then each every PERIOD cycles. */
  for (uint32_t t = 0; t < CYCLES; t++) {
    lfc_switch_step(sw, in, out);
    int want_vl = -1;
    if (t % PERIOD == 0) want_vl = 0;
    if (t % PERIOD == 1) want_vl = 1;
    for (uint32_t p = 0; p < c.ports; p++) {
      const lfc_word_t *w = &out[p];
      if (want_vl < 0) {
        if (w->kind != LFC_IDLE) fail_msg("cycle %u port %u: expected IDLE, kind %u", t, p, w->kind);
        continue;
      }
      if (w->kind != LFC_FCP || w->fc_vl != (uint8_t)want_vl)
        fail_msg("cycle %u port %u: expected the FCP of VL %d, kind %u vl %u", t, p, want_vl,
                 w->kind, w->fc_vl);
    }
  }
  lfc_switch_destroy(sw);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_idle_fcp_schedule_two_vls),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
