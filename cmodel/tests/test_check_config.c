/*
 * test_check_config.c - what lfc_check_create accepts and refuses, and the bounds of the inputs
 * of a checker (lfc/check.h): every range of the configuration at both of its edges, with the
 * message that states it; the largest time that can be counted in picoseconds for a time unit;
 * lfc_check_error after an accepted call; the coverage and headroom queries out of range.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "check_testutil.h"
#include "lfc/check.h"

#define A_DAY_NS 86400000000000ull /* the longest duration lfc/check.h allows */
#define ERR_LEN 256u

/* Create with cfg: must succeed and leave err empty. */
static void accepts(const lfc_check_cfg_t *cfg) {
  char err[ERR_LEN] = "untouched";
  lfc_check_t *c = lfc_check_create(cfg, err, sizeof err);
  if (c == NULL) printf("refused: %s\n", err);
  assert_non_null(c);
  assert_string_equal(err, "");
  lfc_check_destroy(c);
}

/* Create with cfg: must fail with exactly the message want. */
static void refuses(const lfc_check_cfg_t *cfg, const char *want) {
  char err[ERR_LEN] = "";
  assert_null(lfc_check_create(cfg, err, sizeof err));
  assert_string_equal(err, want);
}

/* ---- the ranges of the configuration, at both edges ---- */

static void test_ranges_of_both_modes(void **state) {
  (void)state;
  for (int mode = LFC_MODE_IB; mode <= LFC_MODE_PFC; mode++) {
    lfc_check_cfg_t cfg;
    lfc_check_cfg_default(&cfg, (lfc_mode_t)mode);
    accepts(&cfg);
    cfg.links = LFC_CHECK_MAX_LINKS;
    accepts(&cfg);
    cfg.links = LFC_CHECK_MAX_LINKS + 1u;
    refuses(&cfg, "check: links 4097, allowed 1..4096");
    cfg.links = 0;
    refuses(&cfg, "check: links 0, allowed 1..4096");

    lfc_check_cfg_default(&cfg, (lfc_mode_t)mode);
    cfg.reaction_ns = 1000; /* speeds without an Annex 31B row need it in PFC mode */
    cfg.speed_mbps = 1;
    accepts(&cfg);
    cfg.speed_mbps = 0;
    refuses(&cfg, "check: speed_mbps 0, allowed 1..1600000");

    lfc_check_cfg_default(&cfg, (lfc_mode_t)mode);
    cfg.time_unit_ps = 1;
    accepts(&cfg);
    cfg.time_unit_ps = UINT32_MAX;
    accepts(&cfg);
    cfg.time_unit_ps = 0;
    refuses(&cfg, "check: time_unit_ps 0, allowed 1 or more (1000 for ns)");
  }
}

static void test_ib_ranges(void **state) {
  (void)state;
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, LFC_MODE_IB);
  cfg.data_vls = 1;
  accepts(&cfg);
  cfg.data_vls = LFC_IB_MAX_VLS;
  accepts(&cfg);
  cfg.data_vls = 0;
  refuses(&cfg, "check: data_vls 0, allowed 1..15");
  cfg.data_vls = LFC_IB_MAX_VLS + 1u;
  refuses(&cfg, "check: data_vls 16, allowed 1..15");

  lfc_check_cfg_default(&cfg, LFC_MODE_IB);
  cfg.mtu_bytes = 256; /* the IBA MTUs: 256 .. 4096 bytes of payload */
  accepts(&cfg);
  cfg.mtu_bytes = 4096;
  accepts(&cfg);
  cfg.mtu_bytes = 255;
  refuses(&cfg, "check: mtu_bytes 255, allowed 256..4096 for IB (the payload)");
  cfg.mtu_bytes = 4097;
  refuses(&cfg, "check: mtu_bytes 4097, allowed 256..4096 for IB (the payload)");
}

static void test_pfc_ranges(void **state) {
  (void)state;
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
  cfg.mtu_bytes = LFC_ETH_MIN_FRAME;
  accepts(&cfg);
  cfg.mtu_bytes = 65535; /* pcap's snap length */
  accepts(&cfg);
  cfg.mtu_bytes = 63;
  refuses(&cfg, "check: mtu_bytes 63, allowed 64..65535 for Ethernet (the frame with FCS)");
  cfg.mtu_bytes = 65536;
  refuses(&cfg, "check: mtu_bytes 65536, allowed 64..65535 for Ethernet (the frame with FCS)");

  /* Every entry of the DSCP map is checked, the first and the last too. */
  const unsigned entries[] = {0, 1, 62, 63};
  for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
    lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
    cfg.dscp_to_prio[entries[i]] = 7;
    accepts(&cfg);
    cfg.dscp_to_prio[entries[i]] = 8;
    char want[ERR_LEN];
    snprintf(want, sizeof want, "check: dscp_to_prio[%u] 8, allowed 0..7", entries[i]);
    refuses(&cfg, want);
  }

  /* Every speed of the Annex 31B table has a budget; others need reaction_ns. */
  lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
  for (size_t row = 0; lfc_check_reaction_speed(row) != 0; row++) {
    cfg.speed_mbps = lfc_check_reaction_speed(row);
    assert_true(lfc_check_reaction_quanta(cfg.speed_mbps) > 0);
    accepts(&cfg);
  }
  cfg.speed_mbps = 99;
  refuses(&cfg,
          "check: no IEEE 802.3 Annex 31B reaction budget for 99 Mb/s (the table has 100, 1000, "
          "10000, 25000, 40000, 50000, 100000, 200000, 400000, 800000): set reaction_ns");
  /* In IB mode the speed needs no budget. */
  lfc_check_cfg_default(&cfg, LFC_MODE_IB);
  cfg.speed_mbps = 99;
  accepts(&cfg);
}

/* Each duration is at most a day, and the message names the one that is not. */
static void test_durations(void **state) {
  (void)state;
  const char *const names[] = {"fcp_period_ns", "reaction_ns", "skew_ns[0]", "skew_ns[1]",
                               "watchdog_ns"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    for (int mode = LFC_MODE_IB; mode <= LFC_MODE_PFC; mode++) {
      lfc_check_cfg_t cfg;
      lfc_check_cfg_default(&cfg, (lfc_mode_t)mode);
      uint64_t *const field[] = {&cfg.fcp_period_ns, &cfg.reaction_ns, &cfg.skew_ns[0],
                                 &cfg.skew_ns[1], &cfg.watchdog_ns};
      *field[i] = A_DAY_NS;
      accepts(&cfg);
      *field[i] = A_DAY_NS + 1u;
      char want[ERR_LEN];
      snprintf(want, sizeof want, "check: %s 86400000000001, allowed 0..86400000000000 (a day)",
               names[i]);
      refuses(&cfg, want);
    }
  }
}

/* ---- the largest time: time x time_unit_ps must fit in 64 bits ---- */

static lfc_check_t *make_unit(lfc_mode_t mode, uint32_t unit_ps) {
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, mode);
  cfg.time_unit_ps = unit_ps;
  lfc_check_t *c = lfc_check_create(&cfg, NULL, 0);
  assert_non_null(c);
  return c;
}

static void test_largest_time(void **state) {
  (void)state;
  const uint32_t units[] = {1u, 7u, LFC_CHECK_NS_PS, LFC_CHECK_CYCLE_PS(100000), UINT32_MAX};
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    const uint64_t last = UINT64_MAX / units[i]; /* the largest time that fits */
    /* A drop on a lossy priority is no violation: accepted, 0. */
    lfc_check_t *c = make_unit(LFC_MODE_PFC, units[i]);
    lfc_check_cfg_t cfg;
    lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
    if (last != UINT64_MAX) {
      assert_int_equal(lfc_check_xoff(c, 0, LFC_CHECK_AB, last + 1u, 0, true), -1);
      assert_non_null(strstr(lfc_check_error(c), "is too large to count in picoseconds"));
      assert_int_equal(lfc_check_finish(c, last + 1u), -1);
      assert_non_null(strstr(lfc_check_error(c), "is too large to count in picoseconds"));
    }
    assert_int_equal(lfc_check_xoff(c, 0, LFC_CHECK_AB, last, 0, true), 0);
    assert_string_equal(lfc_check_error(c), "");
    assert_int_equal(lfc_check_finish(c, last), 0);
    assert_string_equal(lfc_check_error(c), "");
    lfc_check_destroy(c);

    /* A frame at the largest time: its violation carries that time. */
    c = make_unit(LFC_MODE_IB, units[i]);
    uint8_t b[CT_FRAME_MAX];
    const size_t len = ct_ib_data(b, 0, 1, 0x100);
    if (last != UINT64_MAX) {
      assert_int_equal(lfc_check_frame(c, 0, LFC_CHECK_AB, last + 1u, LFC_PCAP_IB_DATA, b, len), -1);
      assert_int_equal(lfc_check_frames(c), 0);
    }
    /* VL 14 is beyond data_vls 1: an ib-vl violation at that time. */
    lfc_check_destroy(c);
    lfc_check_cfg_default(&cfg, LFC_MODE_IB);
    cfg.time_unit_ps = units[i];
    cfg.data_vls = 1;
    c = lfc_check_create(&cfg, NULL, 0);
    assert_non_null(c);
    const size_t len14 = ct_ib_data(b, 14, 1, 0x100);
    assert_int_equal(lfc_check_frame(c, 0, LFC_CHECK_AB, last, LFC_PCAP_IB_DATA, b, len14), 1);
    assert_int_equal(lfc_check_frames(c), 1);
    assert_int_equal(lfc_check_violation(c, 0)->time, last);
    lfc_check_destroy(c);
  }
}

/* ---- lfc_check_error: why the last call returned -1, or "" ---- */

static void test_error_cleared_by_an_accepted_call(void **state) {
  (void)state;
  lfc_check_t *c = make_unit(LFC_MODE_PFC, LFC_CHECK_NS_PS);
  uint8_t b[CT_FRAME_MAX];
  const size_t len = ct_eth(b, 0, 3, 100);
  assert_string_equal(lfc_check_error(c), "");
  /* Each entry point after a refused call of another: its own success clears the reason. */
  assert_int_equal(lfc_check_drop(c, 1, LFC_CHECK_AB, 0, 0), -1);
  assert_string_equal(lfc_check_error(c), "link 1, allowed 0..0");
  assert_int_equal(lfc_check_frame(c, 0, LFC_CHECK_AB, 10, LFC_PCAP_ETH, b, len), 0);
  assert_string_equal(lfc_check_error(c), "");

  assert_int_equal(lfc_check_xoff(c, 0, 2, 20, 0, true), -1);
  assert_string_equal(lfc_check_error(c), "direction 2, allowed 0 (A>B) or 1 (B>A)");
  assert_int_equal(lfc_check_xoff(c, 0, LFC_CHECK_AB, 20, 0, true), 0);
  assert_string_equal(lfc_check_error(c), "");

  assert_int_equal(lfc_check_xoff(c, 0, LFC_CHECK_AB, 30, 8, true), -1);
  assert_string_equal(lfc_check_error(c), "priority 8, allowed 0..7");
  assert_int_equal(lfc_check_drop(c, 0, LFC_CHECK_AB, 30, 8), -1);
  assert_string_equal(lfc_check_error(c), "class 8, allowed 0..7 (priority)");
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
  cfg.lossless_mask = 0x01;
  lfc_check_destroy(c);
  c = lfc_check_create(&cfg, NULL, 0);
  assert_non_null(c);
  assert_int_equal(lfc_check_drop(c, 0, LFC_CHECK_AB, 30, 8), -1);
  assert_int_equal(lfc_check_drop(c, 0, LFC_CHECK_AB, 30, 1), 0); /* lossy: may drop */
  assert_string_equal(lfc_check_error(c), "");

  assert_int_equal(lfc_check_frame(c, 0, LFC_CHECK_AB, 40, LFC_PCAP_ETH, b, len), 0);
  assert_int_equal(lfc_check_finish(c, 39), -1);
  assert_non_null(strstr(lfc_check_error(c), "finish at 39ns, before the last frame of link 0"));
  assert_int_equal(lfc_check_finish(c, 40), 0);
  assert_string_equal(lfc_check_error(c), "");

  assert_int_equal(lfc_check_frame(c, 0, LFC_CHECK_AB, 50, LFC_PCAP_ETH, b, len), -1);
  assert_string_equal(lfc_check_error(c), "a frame after lfc_check_finish");
  assert_int_equal(lfc_check_finish(c, 50), 0); /* again: nothing more, and no reason */
  assert_string_equal(lfc_check_error(c), "");
  lfc_check_destroy(c);
}

/* ---- queries out of range ---- */

static void test_coverage_points_out_of_range(void **state) {
  (void)state;
  const size_t n = lfc_check_cov_points();
  lfc_check_t *c = make_unit(LFC_MODE_PFC, LFC_CHECK_NS_PS);
  /* Past the last point (the scoreboard's rules come after the checkers' in the rule table, and
   * beyond them nothing): no name, no mode, no count. */
  for (size_t p = n; p < n + 2u * LFC_RULES; p++) {
    assert_null(lfc_check_cov_name(p));
    assert_false(lfc_check_cov_in_mode(p, LFC_MODE_IB));
    assert_false(lfc_check_cov_in_mode(p, LFC_MODE_PFC));
    assert_int_equal(lfc_check_cov(c, p), 0);
  }
  assert_false(lfc_check_cov_in_mode(SIZE_MAX, LFC_MODE_PFC));
  /* A mode that does not exist has no point. */
  for (size_t p = 0; p < n; p++) assert_false(lfc_check_cov_in_mode(p, (lfc_mode_t)2));
  lfc_check_destroy(c);
}

/* The headroom of IB (whose per-link state shares its memory with PFC's) and out-of-range
 * arguments: 0. */
static void test_headroom_max_out_of_range(void **state) {
  (void)state;
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, LFC_MODE_IB);
  cfg.from_reset = true;
  lfc_check_t *c = lfc_check_create(&cfg, NULL, 0);
  assert_non_null(c);
  uint8_t b[CT_FRAME_MAX];
  /* Counts on every VL of both directions: the IB state is far from all-zero. */
  for (unsigned vl = 0; vl < LFC_IB_MAX_VLS; vl++) {
    for (uint32_t d = 0; d < LFC_CHECK_DIRS; d++) {
      const size_t len = ct_fcp(b, 0, vl, 0, 0x7FF);
      assert_int_equal(lfc_check_frame(c, 0, d, 10, LFC_PCAP_IB_LINK, b, len), 0);
    }
  }
  for (unsigned vl = 0; vl < LFC_IB_MAX_VLS; vl++) {
    for (uint32_t d = 0; d < LFC_CHECK_DIRS; d++) {
      const size_t len = ct_ib_data(b, vl, 3, 0x100);
      assert_int_equal(lfc_check_frame(c, 0, d, 20, LFC_PCAP_IB_DATA, b, len), 0);
    }
  }
  assert_int_equal(lfc_check_violations(c), 0);
  for (uint32_t d = 0; d < LFC_CHECK_DIRS; d++) {
    for (uint32_t p = 0; p < LFC_PFC_MAX_PRIOS; p++) {
      assert_int_equal(lfc_check_headroom_max(c, 0, d, p), 0);
    }
  }
  lfc_check_destroy(c);

  lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
  cfg.links = 2;
  c = lfc_check_create(&cfg, NULL, 0);
  assert_non_null(c);
  assert_int_equal(lfc_check_headroom_max(c, 2, LFC_CHECK_AB, 0), 0);
  assert_int_equal(lfc_check_headroom_max(c, 0, 2, 0), 0);
  assert_int_equal(lfc_check_headroom_max(c, 0, LFC_CHECK_AB, LFC_PFC_MAX_PRIOS), 0);
  assert_int_equal(lfc_check_headroom_max(c, 1, LFC_CHECK_BA, LFC_PFC_MAX_PRIOS - 1u), 0);
  lfc_check_destroy(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ranges_of_both_modes),
      cmocka_unit_test(test_ib_ranges),
      cmocka_unit_test(test_pfc_ranges),
      cmocka_unit_test(test_durations),
      cmocka_unit_test(test_largest_time),
      cmocka_unit_test(test_error_cleared_by_an_accepted_call),
      cmocka_unit_test(test_coverage_points_out_of_range),
      cmocka_unit_test(test_headroom_max_out_of_range),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
