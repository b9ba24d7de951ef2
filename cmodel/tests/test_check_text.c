/*
 * test_check_text.c - lfc_check_create_text (lfc/check.h), the configuration a ctypes or DPI-C
 * binding gives as text: every key is shown to reach its field by what the checker then does
 * (a frame flagged or not), and bad settings are refused with one line.
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

#define AB LFC_CHECK_AB
#define BA LFC_CHECK_BA

static lfc_check_t *text(lfc_mode_t mode, const char *settings) {
  char err[256];
  lfc_check_t *c = lfc_check_create_text(mode, settings, err, sizeof err);
  if (c == NULL) printf("create_text: %s\n", err);
  assert_non_null(c);
  assert_string_equal(err, "");
  return c;
}

static void refused(lfc_mode_t mode, const char *settings, const char *want) {
  char err[256];
  assert_null(lfc_check_create_text(mode, settings, err, sizeof err));
  printf("  %s -> %s\n", settings, err);
  assert_non_null(strstr(err, want));
}

static int ib_data(lfc_check_t *c, uint32_t link, uint32_t dir, uint64_t t, unsigned vl,
                   size_t payload) {
  uint8_t b[CT_FRAME_MAX];
  const size_t len = ct_ib_payload(b, vl, payload, 0x10);
  return lfc_check_frame(c, link, dir, t, LFC_PCAP_IB_DATA, b, len);
}

static int ib_fcp(lfc_check_t *c, uint32_t dir, uint64_t t, unsigned vl, unsigned fccl) {
  uint8_t b[8];
  const size_t len = ct_fcp(b, 0, vl, 0, fccl);
  return lfc_check_frame(c, 0, dir, t, LFC_PCAP_IB_LINK, b, len);
}

static int pfc(lfc_check_t *c, uint32_t dir, uint64_t t, unsigned prio, uint16_t q) {
  uint8_t b[LFC_PFC_FRAME_BYTES];
  const size_t len = ct_pfc1(b, dir == BA ? 1u : 0u, prio, q);
  return lfc_check_frame(c, 0, dir, t, LFC_PCAP_ETH, b, len);
}

static int roce(lfc_check_t *c, uint32_t dir, uint64_t t, unsigned prio, unsigned dscp,
                size_t bytes, bool fcs) {
  uint8_t b[CT_FRAME_MAX];
  const size_t len = ct_roce(b, dir == AB ? 0u : 1u, prio, dscp, bytes);
  return lfc_check_frame(c, 0, dir, t, LFC_PCAP_ETH, b, fcs ? len : len - 4u);
}

static void test_ib_keys(void **state) {
  (void)state;
  lfc_check_t *c = text(LFC_MODE_IB, "links=3, data_vls=2\nmtu_bytes=256\tfcp_period_ns=1000");
  assert_int_equal(ib_data(c, 2, AB, 0, 0, 256), 0); /* link 2 exists; 256 is the MTU */
  assert_int_equal(ib_data(c, 3, AB, 0, 0, 4), -1);
  assert_int_equal(ib_data(c, 0, AB, 1, 2, 4), 1);   /* VL 2 is beyond data_vls */
  assert_int_equal(ib_data(c, 0, AB, 2, 1, 260), 1); /* over the MTU */
  assert_int_equal(lfc_check_count(c, LFC_RULE_IB_VL), 1);
  assert_int_equal(lfc_check_count(c, LFC_RULE_IB_MTU), 1);
  assert_int_equal(ib_fcp(c, AB, 3, 0, 0), 0);
  assert_int_equal(ib_fcp(c, AB, 2000, 0, 0), 1); /* more than 1000 ns (and the slack) */
  assert_int_equal(lfc_check_count(c, LFC_RULE_IB_FCP_PERIOD), 1);
  lfc_check_destroy(c);

  c = text(LFC_MODE_IB, "from_reset=1 max_kept=1 time_unit_ps=1");
  assert_int_equal(ib_data(c, 0, AB, 5, 0, 4), 1); /* no credit from reset */
  assert_int_equal(ib_data(c, 0, AB, 6, 0, 4), 1);
  assert_int_equal(lfc_check_violations(c), 2);
  assert_non_null(lfc_check_violation(c, 0));
  assert_null(lfc_check_violation(c, 1)); /* one kept */
  char line[CT_LINE];
  lfc_check_format(c, 0, line, sizeof line);
  assert_non_null(strstr(line, "time=5ps "));
  lfc_check_destroy(c);

  c = text(LFC_MODE_IB, NULL);
  assert_int_equal(ib_data(c, 0, AB, 5, 0, 4), 0); /* not from reset: nothing known */
  lfc_check_destroy(c);
  c = text(LFC_MODE_IB, "");
  lfc_check_destroy(c);
}

static void test_pfc_keys(void **state) {
  (void)state;
  /* 25 Gb/s: the Annex 31B budget is 80 quanta of 20.48 ns, 1638.4 ns, after the 64-byte frame
   * (20.48 ns); plus 1 ns for whole-ns times. */
  lfc_check_t *c = text(LFC_MODE_PFC, "speed_mbps=25000");
  assert_int_equal(pfc(c, BA, 0, 3, 65535), 0);
  assert_int_equal(roce(c, AB, 1659, 3, 0, 82, true), 0);
  assert_int_equal(roce(c, AB, 1700, 3, 0, 82, true), 1);
  lfc_check_destroy(c);

  c = text(LFC_MODE_PFC, "reaction_ns=100");
  assert_int_equal(pfc(c, BA, 0, 3, 65535), 0);
  assert_int_equal(roce(c, AB, 106, 3, 0, 82, true), 0);
  assert_int_equal(roce(c, AB, 107, 3, 0, 82, true), 1);
  lfc_check_destroy(c);

  /* skew: both directions, then each alone */
  const char *const skews[] = {"skew_ns=1000", "skew_ns_ab=1000", "skew_ns_ba=1000"};
  const int late_ab[] = {0, 0, 1}, late_ba[] = {0, 1, 0};
  for (int i = 0; i < 3; i++) {
    c = text(LFC_MODE_PFC, skews[i]);
    assert_int_equal(pfc(c, BA, 0, 1, 65535), 0);
    assert_int_equal(pfc(c, AB, 1, 1, 65535), 0);
    assert_int_equal(roce(c, AB, 2500, 1, 0, 82, true), late_ab[i]);
    assert_int_equal(roce(c, BA, 2600, 1, 0, 82, true), late_ba[i]);
    lfc_check_destroy(c);
  }

  c = text(LFC_MODE_PFC, "watchdog_ns=10000");
  assert_int_equal(pfc(c, BA, 0, 6, 65535), 0);
  assert_int_equal(roce(c, AB, 20000, 6, 0, 82, true), 0);
  lfc_check_destroy(c);

  c = text(LFC_MODE_PFC, "headroom_bytes=100 headroom_bytes_3=5000");
  assert_int_equal(pfc(c, BA, 0, 2, 65535), 0);
  assert_int_equal(pfc(c, BA, 10, 3, 65535), 0);
  assert_int_equal(roce(c, AB, 20, 2, 0, 1002, true), 1);  /* 1002 > 100 */
  assert_int_equal(roce(c, AB, 120, 3, 0, 1002, true), 0); /* 1002 <= 5000 */
  lfc_check_destroy(c);
  for (int p = 0; p < 8; p++) {
    char s[64];
    snprintf(s, sizeof s, "headroom_bytes_%d=100", p);
    c = text(LFC_MODE_PFC, s);
    assert_int_equal(pfc(c, BA, 0, (unsigned)p, 65535), 0);
    assert_int_equal(pfc(c, BA, 10, (unsigned)((p + 1) % 8), 65535), 0);
    assert_int_equal(roce(c, AB, 20, (unsigned)p, 0, 1002, true), 1);
    assert_int_equal(roce(c, AB, 120, (unsigned)((p + 1) % 8), 0, 1002, true), 0);
    lfc_check_destroy(c);
  }

  c = text(LFC_MODE_PFC, "lossless_mask=0x08");
  assert_int_equal(lfc_check_drop(c, 0, AB, 0, 2), 0);
  assert_int_equal(lfc_check_drop(c, 0, AB, 0, 3), 1);
  lfc_check_destroy(c);

  /* Frames without their FCS (a 60-byte PFC frame would be a runt otherwise), priorities by
   * DSCP (PCP 0, DSCP 32: priority 4). */
  c = text(LFC_MODE_PFC, "eth_fcs=0,prio_dscp=1");
  uint8_t b[LFC_PFC_FRAME_BYTES];
  const size_t len = ct_pfc1(b, 1, 4, 65535);
  assert_int_equal(lfc_check_frame(c, 0, BA, 0, LFC_PCAP_ETH, b, len - 4u), 0);
  assert_int_equal(roce(c, AB, 2100, 0, 32, 82, false), 1); /* priority 4 by its DSCP */
  lfc_check_destroy(c);
}

static void test_bad_settings(void **state) {
  (void)state;
  refused(LFC_MODE_IB, "links", "check: setting 'links' is not key=value");
  refused(LFC_MODE_IB, "links=2 bogus=1", "check: unknown key 'bogus'");
  refused(LFC_MODE_IB, "link=2", "check: unknown key 'link'");
  refused(LFC_MODE_IB, "linkss=2", "check: unknown key 'linkss'");
  refused(LFC_MODE_IB, "links=two", "check: links 'two': a whole number 0..4294967295");
  refused(LFC_MODE_IB, "links=-1", "a whole number 0..4294967295");
  refused(LFC_MODE_IB, "links=4294967296", "a whole number 0..4294967295");
  refused(LFC_MODE_IB, "from_reset=2", "check: from_reset '2': a whole number 0..1");
  refused(LFC_MODE_PFC, "lossless_mask=256", "check: lossless_mask '256': a whole number 0..255");
  refused(LFC_MODE_PFC, "reaction_ns=", "check: reaction_ns '': a whole number");
  refused(LFC_MODE_IB, "links=0", "check: links 0, allowed 1..4096"); /* lfc_check_create's */
  refused(LFC_MODE_IB, "data_vls=16", "check: data_vls 16, allowed 1..15");
  refused(LFC_MODE_IB, "max_kept=4294967296",
          "check: max_kept '4294967296': a whole number 0..4294967295");
  refused(
      LFC_MODE_IB, "fcp_period_ns=000000000000000000000000000000001",
      "check: fcp_period_ns '000000000000000000000000000000001': a whole number"); /* 33 chars */
  lfc_check_t *c = text(LFC_MODE_IB, "fcp_period_ns=00000000000000000000000000000001"); /* 32 */
  lfc_check_destroy(c);
  /* 32 characters are read whole, the last digit too: two links. */
  c = text(LFC_MODE_IB, "links=00000000000000000000000000000002");
  {
    uint8_t f[8];
    const size_t n = ct_fcp(f, 0, 0, 0, 0);
    assert_int_equal(lfc_check_frame(c, 1, AB, 0, LFC_PCAP_IB_LINK, f, n), 0);
    assert_int_equal(lfc_check_frame(c, 2, AB, 0, LFC_PCAP_IB_LINK, f, n), -1);
  }
  lfc_check_destroy(c);
  c = text(LFC_MODE_IB, " ,\n links=2 ,, ");
  uint8_t b[8];
  const size_t len = ct_fcp(b, 0, 0, 0, 0);
  assert_int_equal(lfc_check_frame(c, 1, AB, 0, LFC_PCAP_IB_LINK, b, len), 0);
  assert_int_equal(lfc_check_frame(c, 2, AB, 0, LFC_PCAP_IB_LINK, b, len), -1);
  lfc_check_destroy(c);
  assert_null(lfc_check_create_text(LFC_MODE_IB, "links=x", NULL, 0)); /* no err: fine */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ib_keys),
      cmocka_unit_test(test_pfc_keys),
      cmocka_unit_test(test_bad_settings),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
