/*
 * test_traffic_defaults.c - lfc_traffic_cfg_default (lfc/star.h) is a usable source on the
 * default switch as it stands: its packet sizes span every legal size, 1 block up to the
 * default switch's mtu_blocks (SPEC §7.2: a first block with nblk > mtu_blocks is MALFORMED),
 * so a star built from it passes lfc_star_cfg_check without touching the traffic.
 */
#include "testutil.h"

#include "lfc/star.h"

static void test_default_sizes_span_the_default_mtu(void **state) {
  (void)state;
  lfc_traffic_cfg_t t;
  lfc_traffic_cfg_default(&t);
  for (int mode = LFC_MODE_IB; mode <= LFC_MODE_PFC; mode++) {
    lfc_switch_cfg_t sw;
    lfc_switch_cfg_default(&sw, (lfc_mode_t)mode, 4, 1);
    assert_int_equal(t.min_nblk, 1);
    assert_int_equal(t.max_nblk, sw.mtu_blocks);

    lfc_star_cfg_t star;
    lfc_star_cfg_default(&star, (lfc_mode_t)mode, 4, 1);
    star.traffic = t; /* the traffic defaults alone, not the star's own sizes */
    char err[256] = "";
    if (lfc_star_cfg_check(&star, err, sizeof err) != 0) fail_msg("%s", err);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_default_sizes_span_the_default_mtu),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
