/*
 * test_scoreboard.c - the end-to-end scoreboard of lfc/scoreboard.h: exactly once, in order per
 * flow, drops by allowed cause, latency statistics, its limit; one line per broken rule, in the
 * form of lfc/check.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lfc/scoreboard.h"
#include "wire_testutil.h"

static lfc_sb_t *make(uint32_t allowed, uint64_t max_outstanding) {
  lfc_sb_cfg_t cfg;
  lfc_sb_cfg_default(&cfg);
  cfg.allowed_drops = allowed;
  cfg.max_outstanding = max_outstanding;
  lfc_sb_t *sb = lfc_sb_create(&cfg, NULL, 0);
  assert_non_null(sb);
  return sb;
}

static void expect_one(const lfc_sb_t *sb, lfc_check_rule_t rule, const char *a, const char *b) {
  char line[512];
  for (size_t i = 0; lfc_sb_format(sb, i, line, sizeof line) != NULL; i++) printf("  %s\n", line);
  assert_int_equal(lfc_sb_violations(sb), 1);
  assert_int_equal(lfc_sb_count(sb, rule), 1);
  assert_non_null(lfc_sb_format(sb, 0, line, sizeof line));
  assert_non_null(strstr(line, lfc_check_rule_name(rule)));
  if (a != NULL) assert_non_null(strstr(line, a));
  if (b != NULL) assert_non_null(strstr(line, b));
}

/* Many flows, interleaved at random, each delivered in order with random latencies: no line,
 * and the latency statistics are those computed here. */
static void test_in_order_many_flows(void **state) {
  (void)state;
  uint64_t s = wt_seed("test_in_order_many_flows", 0x5B000001ull);
  lfc_sb_t *sb = make(0, 0);
  enum { FLOWS = 300, PER_FLOW = 40 };
  static uint64_t next_in[FLOWS], next_out[FLOWS], t_in[FLOWS][PER_FLOW];
  memset(next_in, 0, sizeof next_in);
  memset(next_out, 0, sizeof next_out);
  uint64_t t = 0, lat_min = UINT64_MAX, lat_max = 0, lat_sum = 0, n = 0;
  for (unsigned step = 0; n < (uint64_t)FLOWS * PER_FLOW; step++) {
    const unsigned f = wt_below(&s, FLOWS);
    t += wt_below(&s, 5);
    const uint64_t flow = 0xF0000000ull + f * 7919u; /* keys that collide in the hash */
    if (next_in[f] < PER_FLOW && (next_out[f] == next_in[f] || wt_below(&s, 2) == 0)) {
      t_in[f][next_in[f]] = t;
      assert_int_equal(lfc_sb_accept(sb, flow, next_in[f]++, t, 0, 0), 0);
    } else if (next_out[f] < next_in[f]) {
      const uint64_t lat = t - t_in[f][next_out[f]];
      lat_min = lat < lat_min ? lat : lat_min;
      lat_max = lat > lat_max ? lat : lat_max;
      lat_sum += lat;
      n++;
      assert_int_equal(lfc_sb_deliver(sb, flow, next_out[f]++, t, 1, 1), 0);
    }
  }
  assert_int_equal(lfc_sb_finish(sb, t), 0);
  assert_int_equal(lfc_sb_violations(sb), 0);
  lfc_sb_stats_t st;
  lfc_sb_stats(sb, &st);
  assert_int_equal(st.accepted, FLOWS * PER_FLOW);
  assert_int_equal(st.delivered, FLOWS * PER_FLOW);
  assert_int_equal(st.flows, FLOWS);
  assert_int_equal(st.outstanding, 0);
  assert_int_equal(st.latency_count, n);
  assert_int_equal(st.latency_min, lat_min);
  assert_int_equal(st.latency_max, lat_max);
  assert_true(st.latency_mean > (double)lat_sum / (double)n - 1e-9);
  assert_true(st.latency_mean < (double)lat_sum / (double)n + 1e-9);
  lfc_sb_destroy(sb);
}

static void test_order(void **state) {
  (void)state;
  lfc_sb_t *sb = make(0, 0);
  assert_int_equal(lfc_sb_accept(sb, 9, 100, 10, 0, 0), 0);
  assert_int_equal(lfc_sb_accept(sb, 9, 101, 11, 0, 0), 0);
  assert_int_equal(lfc_sb_accept(sb, 8, 100, 12, 0, 0), 0); /* another flow */
  assert_int_equal(lfc_sb_deliver(sb, 8, 100, 13, 2, 1), 0);
  assert_int_equal(lfc_sb_deliver(sb, 9, 101, 20, 2, 1), 1);
  expect_one(sb, LFC_RULE_SB_ORDER, "flow 0x9 id 100 first (accepted at 10ns)",
             "observed=\"id 101, accepted 1 packets after it\"");
  const lfc_check_violation_t *v = lfc_sb_violation(sb, 0);
  char line[64] = "untouched";
  assert_null(lfc_sb_format(sb, 0, NULL, sizeof line));
  assert_null(lfc_sb_format(sb, 0, line, 0));
  assert_null(lfc_sb_format(sb, 1, line, sizeof line));
  assert_string_equal(line, "untouched");
  assert_int_equal(v->time, 20);
  assert_int_equal(v->link, 2);
  assert_int_equal(v->dir, 1);
  /* The one left behind is still owed, and comes now: in order among what is left. */
  assert_int_equal(lfc_sb_deliver(sb, 9, 100, 21, 2, 1), 0);
  assert_int_equal(lfc_sb_finish(sb, 30), 0);
  assert_int_equal(lfc_sb_violations(sb), 1);
  lfc_sb_destroy(sb);
}

/* A packet taken from the middle of its flow leaves the others in their order. */
static void test_order_middle(void **state) {
  (void)state;
  lfc_sb_t *sb = make(0, 0);
  for (uint64_t id = 1; id <= 6; id++) assert_int_equal(lfc_sb_accept(sb, 4, id, id, 0, 0), 0);
  assert_int_equal(lfc_sb_deliver(sb, 4, 3, 10, 0, 1), 1);               /* ahead of 1 and 2 */
  assert_int_equal(lfc_sb_drop(sb, 4, 5, 11, 0, 1, LFC_DROP_SHARED), 1); /* not allowed */
  const uint64_t rest[] = {1, 2, 4, 6};
  for (size_t i = 0; i < 4; i++) assert_int_equal(lfc_sb_deliver(sb, 4, rest[i], 12, 0, 1), 0);
  assert_int_equal(lfc_sb_count(sb, LFC_RULE_SB_ORDER), 1);
  assert_int_equal(lfc_sb_violations(sb), 2);
  assert_int_equal(lfc_sb_finish(sb, 13), 0);
  lfc_sb_destroy(sb);
}

static void test_duplicate_and_unknown(void **state) {
  (void)state;
  lfc_sb_t *sb = make(0, 0);
  assert_int_equal(lfc_sb_accept(sb, 1, 5, 0, 0, 0), 0);
  assert_int_equal(lfc_sb_deliver(sb, 1, 5, 3, 0, 1), 0);
  assert_int_equal(lfc_sb_deliver(sb, 1, 5, 4, 0, 1), 1);
  expect_one(sb, LFC_RULE_SB_DUP, "flow 0x1 id 5 delivered again", NULL);
  assert_int_equal(lfc_sb_deliver(sb, 1, 6, 5, 0, 1), 1);  /* never accepted */
  assert_int_equal(lfc_sb_deliver(sb, 77, 1, 6, 0, 1), 1); /* a flow never seen */
  assert_int_equal(lfc_sb_drop(sb, 1, 7, 7, 0, 1, LFC_DROP_HEADROOM), 1);
  assert_int_equal(lfc_sb_deliver(sb, 1, 0, 8, 0, 1), 1); /* id 0: never accepted either */
  assert_int_equal(lfc_sb_count(sb, LFC_RULE_SB_UNKNOWN), 4);
  assert_int_equal(lfc_sb_count(sb, LFC_RULE_SB_DUP), 1);
  lfc_sb_destroy(sb);
}

static void test_lost(void **state) {
  (void)state;
  lfc_sb_t *sb = make(0, 0);
  assert_int_equal(lfc_sb_accept(sb, 3, 1, 100, 4, 0), 0);
  assert_int_equal(lfc_sb_accept(sb, 3, 2, 101, 4, 0), 0);
  assert_int_equal(lfc_sb_deliver(sb, 3, 1, 150, 5, 1), 0);
  assert_int_equal(lfc_sb_finish(sb, 1000), 1);
  expect_one(sb, LFC_RULE_SB_LOST, "time=1000ns link=4 dir=A>B",
             "expected=\"each packet accepted is delivered or dropped\" observed=\"flow 0x3 id 2 "
             "outstanding since 101ns\"");
  lfc_sb_stats_t st;
  lfc_sb_stats(sb, &st);
  assert_int_equal(st.lost, 1);
  assert_int_equal(st.outstanding, 0);
  lfc_sb_destroy(sb);
}

static void test_drops(void **state) {
  (void)state;
  lfc_sb_t *sb = make(1u << LFC_DROP_SHARED, 0);
  assert_int_equal(lfc_sb_accept(sb, 2, 1, 0, 0, 0), 0);
  assert_int_equal(lfc_sb_accept(sb, 2, 2, 0, 0, 0), 0);
  assert_int_equal(lfc_sb_accept(sb, 2, 3, 0, 0, 0), 0);
  assert_int_equal(lfc_sb_drop(sb, 2, 2, 5, 0, 1, LFC_DROP_SHARED), 0); /* allowed, any order */
  assert_int_equal(lfc_sb_deliver(sb, 2, 1, 6, 0, 1), 0);
  assert_int_equal(lfc_sb_drop(sb, 2, 3, 7, 0, 1, LFC_DROP_HEADROOM), 1);
  expect_one(sb, LFC_RULE_SB_DROP, "mask 0x2", "flow 0x2 id 3 dropped: headroom (0)");
  assert_int_equal(lfc_sb_drop(sb, 2, 3, 8, 0, 1, LFC_DROP_SHARED), 1); /* again */
  assert_int_equal(lfc_sb_count(sb, LFC_RULE_SB_DUP), 1);
  lfc_sb_stats_t st;
  lfc_sb_stats(sb, &st);
  assert_int_equal(st.outstanding, 0); /* two dropped, one delivered */
  assert_int_equal(st.dropped[LFC_DROP_SHARED], 1);
  assert_int_equal(st.dropped[LFC_DROP_HEADROOM], 1);
  assert_int_equal(lfc_sb_finish(sb, 9), 0);
  lfc_sb_destroy(sb);
}

static void test_limit(void **state) {
  (void)state;
  lfc_sb_t *sb = make(0, 2);
  assert_int_equal(lfc_sb_accept(sb, 1, 1, 0, 0, 0), 0);
  assert_int_equal(lfc_sb_accept(sb, 2, 1, 0, 0, 0), 0);
  assert_int_equal(lfc_sb_accept(sb, 3, 1, 0, 0, 0), -1);
  assert_non_null(strstr(lfc_sb_error(sb), "2 packets outstanding already"));
  assert_int_equal(lfc_sb_deliver(sb, 1, 1, 1, 0, 1), 0);
  assert_string_equal(lfc_sb_error(sb), "");
  assert_int_equal(lfc_sb_accept(sb, 3, 1, 2, 0, 0), 0);
  lfc_sb_destroy(sb);
  lfc_sb_cfg_t cfg;
  lfc_sb_cfg_default(&cfg);
  cfg.time_unit_ps = 0;
  char err[128];
  assert_null(lfc_sb_create(&cfg, err, sizeof err));
  assert_non_null(strstr(err, "time_unit_ps 0"));
  lfc_sb_destroy(NULL);
}

/* A long flow that keeps many packets outstanding: the FIFO grows and wraps. */
static void test_deep_flow(void **state) {
  (void)state;
  lfc_sb_t *sb = make(0, 0);
  uint64_t in = 0, out = 0;
  for (int round = 0; round < 50; round++) {
    for (int i = 0; i < 37; i++, in++) assert_int_equal(lfc_sb_accept(sb, 42, in, in, 0, 0), 0);
    for (int i = 0; i < 30; i++) assert_int_equal(lfc_sb_deliver(sb, 42, out++, in, 0, 1), 0);
  }
  while (out < in) assert_int_equal(lfc_sb_deliver(sb, 42, out++, in, 0, 1), 0);
  assert_int_equal(lfc_sb_violations(sb), 0);
  assert_int_equal(lfc_sb_finish(sb, in), 0);
  lfc_sb_destroy(sb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_in_order_many_flows),
      cmocka_unit_test(test_order),
      cmocka_unit_test(test_order_middle),
      cmocka_unit_test(test_duplicate_and_unknown),
      cmocka_unit_test(test_lost),
      cmocka_unit_test(test_drops),
      cmocka_unit_test(test_limit),
      cmocka_unit_test(test_deep_flow),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
