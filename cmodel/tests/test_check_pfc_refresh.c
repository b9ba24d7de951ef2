/*
 * test_check_pfc_refresh.c - pfc-refresh-late of the PFC monitor (lfc/check.h; SPEC §6.6) when
 * the receiver's XOFF state is reported (lfc_check_xoff): a pause that runs out while the
 * receiver is in XOFF is flagged once, by whichever call first comes at or after the lapse - the
 * end of the observation, a data frame of the priority, another PFC frame, or the next report -
 * for both directions of a link, and the call returns it.
 *
 * Times are nanoseconds at 100 Gb/s: an XOFF of 100 quanta sent at 0 runs out at 5.12 + 512 =
 * 517.12 ns, and a time given in whole ns may be one ns late, so the lapse is seen from 519 on.
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

#define ETH LFC_PCAP_ETH
#define PRIO 5u
#define QUANTA 100u
#define AFTER_LAPSE_NS 600u
#define BEFORE_LAPSE_NS 500u

enum { AT_FINISH, AT_DATA, AT_PFC, AT_REPORT, WAYS };

/* The data of direction d is paused by the side that sends in the other direction. */
static unsigned sender_side(uint32_t d) { return d == LFC_CHECK_AB ? 0u : 1u; }

static lfc_check_t *paused(uint32_t d) {
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
  lfc_check_t *c = lfc_check_create(&cfg, NULL, 0);
  assert_non_null(c);
  assert_int_equal(lfc_check_xoff(c, 0, d, 0, PRIO, true), 0);
  uint8_t b[LFC_PFC_FRAME_BYTES];
  const size_t len = ct_pfc1(b, sender_side(d) ^ 1u, PRIO, QUANTA);
  assert_int_equal(lfc_check_frame(c, 0, d ^ 1u, 0, ETH, b, len), 0);
  return c;
}

/* What the call of way `way` at t returns. */
static int call(lfc_check_t *c, uint32_t d, int way, uint64_t t) {
  uint8_t b[CT_FRAME_MAX];
  size_t len;
  switch (way) {
    case AT_FINISH:
      return lfc_check_finish(c, t);
    case AT_DATA:
      len = ct_roce(b, sender_side(d), PRIO, 0, 82);
      return lfc_check_frame(c, 0, d, t, ETH, b, len);
    case AT_PFC: /* the receiver pauses again: found late first */
      len = ct_pfc1(b, sender_side(d) ^ 1u, PRIO, QUANTA);
      return lfc_check_frame(c, 0, d ^ 1u, t, ETH, b, len);
    default:
      return lfc_check_xoff(c, 0, d, t, PRIO, true);
  }
}

static void test_refresh_late_found_by_every_call(void **state) {
  (void)state;
  for (uint32_t d = 0; d < LFC_CHECK_DIRS; d++) {
    for (int way = 0; way < WAYS; way++) {
      /* Before the lapse: nothing. */
      lfc_check_t *c = paused(d);
      assert_int_equal(call(c, d, way, BEFORE_LAPSE_NS), 0);
      ct_expect_none(c);
      lfc_check_destroy(c);
      /* After it: one line, on the pausing side's direction, returned by the call. */
      c = paused(d);
      assert_int_equal(call(c, d, way, AFTER_LAPSE_NS), 1);
      ct_expect_one(c, LFC_RULE_PFC_REFRESH, d == LFC_CHECK_AB ? "dir=B>A" : "dir=A>B", "prio=5",
                    "time=600ns", "a refresh before 517ns, when the XOFF ran out",
                    "still in XOFF (reported)", NULL);
      /* Once: a second call finds nothing more. */
      assert_int_equal(lfc_check_finish(c, AFTER_LAPSE_NS + 1u), 0);
      assert_int_equal(lfc_check_violations(c), 1);
      lfc_check_destroy(c);
    }
  }
}

/* A receiver reported out of XOFF before the lapse: its pause may run out. */
static void test_lapse_after_xon_reported(void **state) {
  (void)state;
  for (uint32_t d = 0; d < LFC_CHECK_DIRS; d++) {
    lfc_check_t *c = paused(d);
    assert_int_equal(lfc_check_xoff(c, 0, d, BEFORE_LAPSE_NS, PRIO, false), 0);
    assert_int_equal(lfc_check_finish(c, AFTER_LAPSE_NS), 0);
    ct_expect_none(c);
    lfc_check_destroy(c);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_refresh_late_found_by_every_call),
      cmocka_unit_test(test_lapse_after_xon_reported),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
