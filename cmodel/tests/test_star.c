/*
 * test_star.c - the star testbed's own configuration rules (lfc/star.h, lfc_star_cfg_check,
 * cmodel/src/star.c): what it adds to the switch's and the nodes' checks, the ranges its messages
 * state ("NAME = V is ...: allowed LO..HI") against the ranges it applies, the link delay range,
 * and the message buffer of the check and of lfc_star_create at any length. The scoreboard is
 * test_star_scoreboard.c.
 */

#include "testutil.h"
#include "errbuf_testutil.h"

#include <string.h>

#include "lfc/star.h"

#include "lfc/flat.h"
#include "lfc/link.h"
#include <stdio.h>
#include "lfc/nic.h"
#include "../src/alloc.h"

enum { PORTS = 4, CLASSES = 2 };

/* The testbed addresses node p as destination p: a route table of the switch is refused, by the
 * check and by lfc_star_create, with a message that says so; the same table is a legal switch
 * configuration on its own. */
static void test_route_table_refused(void **state) {
  (void)state;
  static const uint8_t route[PORTS] = {0, 1, 2, 3};
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, LFC_MODE_PFC, PORTS, CLASSES);
  c.sw.route = route;
  c.sw.route_len = PORTS;
  assert_int_equal(lfc_switch_cfg_check(&c.sw, NULL, 0), 0);
  char err[256] = "";
  assert_int_equal(lfc_star_cfg_check(&c, err, sizeof err), -1);
  assert_string_equal(err, "star: sw.route must be NULL: the testbed addresses node p as dst p");
  memset(err, 0, sizeof err);
  assert_null(lfc_star_create(&c, err, sizeof err));
  assert_non_null(strstr(err, "sw.route must be NULL"));
  c.sw.route = NULL;
  c.sw.route_len = 0;
  assert_int_equal(lfc_star_cfg_check(&c, err, sizeof err), 0);
}

static void test_star_link_delay_range(void **state) {
  (void)state;
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, LFC_MODE_IB, 4, 2);
  char err[256] = "";
  assert_int_equal(lfc_star_cfg_check(&c, err, sizeof err), 0);
  c.link_delay = 0;
  assert_int_not_equal(lfc_star_cfg_check(&c, err, sizeof err), 0);
  assert_non_null(strstr(err, "link_delay"));
  c.link_delay = LFC_LINK_MAX_DELAY + 1u;
  assert_int_not_equal(lfc_star_cfg_check(&c, err, sizeof err), 0);
  c.link_delay = LFC_LINK_MAX_DELAY;
  assert_int_equal(lfc_star_cfg_check(&c, err, sizeof err), 0);
}

typedef struct {
  const char *name;
  size_t off;
  lfc_mode_t mode;
} field_t;

enum { MSG_PORTS = 4, MSG_CLASSES = 2, HUGE_VALUE = 0x7FFFFFFF };

#define SF(n) \
  {#n, offsetof(lfc_star_cfg_t, n), LFC_MODE_IB}, {#n, offsetof(lfc_star_cfg_t, n), LFC_MODE_PFC}

/* The testbed's parameters with a numeric "allowed LO..HI" (lfc/star.h); the name in the
 * message is the field's last part (traffic.incast_dst -> "incast_dst"). */
static const field_t STAR_FIELDS[] = {
    SF(link_delay),          SF(traffic.load_permille),   SF(traffic.incast_dst),
    SF(traffic.hotspot_pct), SF(traffic.ecn_capable_pct), SF(traffic.burst_pkts),
};

static const char *star_name(const field_t *f) {
  const char *dot = strrchr(f->name, '.');
  return dot ? dot + 1 : f->name;
}

/* The message of lfc_star_cfg_check for field f = v ("" if accepted). */
static const char *star_check_with(const field_t *f, uint32_t v, char *err, size_t len) {
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, f->mode, MSG_PORTS, MSG_CLASSES);
  memcpy((char *)&c + f->off, &v, sizeof v);
  if (lfc_star_cfg_check(&c, err, len) == 0) return "";
  return err;
}

static bool star_refused(const field_t *f, uint32_t v, const char *msg) {
  char want[96];
  snprintf(want, sizeof want, "%s = %u ", star_name(f), v);
  return strstr(msg, want) != NULL;
}

/* star.h: the testbed's link delay and traffic parameters; incast_dst names a port, so its
 * range is 0..ports-1 (the destination of SPEC §4.1's packets is a port). */
static void test_star_range_messages_match_the_check(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof STAR_FIELDS / sizeof STAR_FIELDS[0]; i++) {
    const field_t *f = &STAR_FIELDS[i];
    char err[256], e2[256];
    const char *msg = star_check_with(f, HUGE_VALUE, err, sizeof err);
    const char *at = strstr(msg, "allowed ");
    const char *dots = at ? strstr(at, "..") : NULL;
    long long lo, hi;
    if (!star_refused(f, HUGE_VALUE, msg) || dots == NULL || sscanf(at + 8, "%lld", &lo) != 1 ||
        sscanf(dots + 2, "%lld", &hi) != 1)
      fail_msg("%s = %u: expected '...: allowed LO..HI', got '%s'", f->name, HUGE_VALUE, msg);
    assert_true(lo >= 0 && lo <= hi && hi < HUGE_VALUE);
    if (*star_check_with(f, (uint32_t)lo, e2, sizeof e2) != '\0' ||
        *star_check_with(f, (uint32_t)hi, e2, sizeof e2) != '\0')
      fail_msg("%s: the message allows %lld..%lld but the check refuses: '%s'", f->name, lo, hi,
               e2);
    if (!star_refused(f, (uint32_t)hi + 1u, star_check_with(f, (uint32_t)hi + 1u, e2, sizeof e2)))
      fail_msg("%s: %lld is above the range given, but: '%s'", f->name, hi + 1, e2);
    if (lo > 0 &&
        !star_refused(f, (uint32_t)lo - 1u, star_check_with(f, (uint32_t)lo - 1u, e2, sizeof e2)))
      fail_msg("%s: %lld is below the range given, but: '%s'", f->name, lo - 1, e2);
  }
}

/* star.h: lfc_star_cfg_default for a class count out of range (of either mode, or of a 32-bit
 * mask) gives a configuration whose one fault is that count: the check names classes, and the
 * traffic uses the classes named, or class 0 alone (no empty set, no shift past 31). */
static void test_star_default_bad_classes_only_fault(void **state) {
  (void)state;
  static const uint32_t bad[] = {0, LFC_PFC_MAX_PRIOS + 1u, LFC_IB_MAX_VLS + 1u, 31, 32, 33, 64,
                                 UINT32_MAX};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    for (int ib = 0; ib < 2; ib++) {
      if (ib && bad[i] <= LFC_IB_MAX_VLS) continue; /* PFC's 9 is a legal VL count */
      lfc_star_cfg_t c;
      lfc_star_cfg_default(&c, ib ? LFC_MODE_IB : LFC_MODE_PFC, MSG_PORTS, bad[i]);
      /* every class the count names, or class 0 alone when no 32-bit mask can name them */
      uint32_t mask = bad[i] >= 1u && bad[i] < 32u ? (1u << bad[i]) - 1u : 1u;
      assert_int_equal(c.traffic.class_mask, mask);
      char err[256] = "", want[64];
      assert_int_equal(lfc_star_cfg_check(&c, err, sizeof err), -1);
      snprintf(want, sizeof want, "classes = %u ", bad[i]);
      if (strstr(err, want) == NULL)
        fail_msg("classes = %u: expected '%s' in '%s'", bad[i], want, err);
    }
}


/* lfc/star.h: lfc_star_cfg_check and lfc_star_create, for the testbed's own parameter and for
 * the switch's and the nodes' parameters it checks through theirs. */
static void test_star_check_and_create_any_buffer(void **state) {
  (void)state;
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.link_delay = 0;
  CHECK_ALL_BUFFERS(assert_int_not_equal(lfc_star_cfg_check(&c, err, errlen), 0), "link_delay");
  CHECK_ALL_BUFFERS(assert_null(lfc_star_create(&c, err, errlen)), "link_delay");
  lfc_star_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.sw.ports = 1;
  CHECK_ALL_BUFFERS(assert_int_not_equal(lfc_star_cfg_check(&c, err, errlen), 0), "ports");
  lfc_star_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.traffic.pattern = LFC_TRAFFIC_PATTERNS; /* the message names the patterns that exist */
  char want[64];
  snprintf(want, sizeof want, "allowed 0..%d", (int)LFC_TRAFFIC_PATTERNS - 1);
  CHECK_ALL_BUFFERS(assert_int_not_equal(lfc_star_cfg_check(&c, err, errlen), 0), want);
  c.traffic.pattern = LFC_TRAFFIC_PATTERNS - 1;
  assert_int_equal(lfc_star_cfg_check(&c, NULL, 0), 0);
  lfc_star_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.nic.speed_div = 0;
  CHECK_ALL_BUFFERS(assert_int_not_equal(lfc_star_cfg_check(&c, err, errlen), 0), "speed_div");
}

/* lfc/star.h: when the scoreboard cannot grow its record of a source's outstanding packets, the
 * packet it cannot record is not created and an error says "out of memory for the scoreboard".
 * The incast of one-block packets outgrows the first record (test_star_scoreboard.c); here
 * alloc.h's injector fails the first allocation the run makes, deterministically (the address
 * space limit of test_star_scoreboard.c may find room after all). */
static void test_scoreboard_growth_out_of_memory_is_an_error(void **state) {
  (void)state;
  enum { PORTS_OOM = 4, STOP = 20000, MAX_CYCLES = 40000 };
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, LFC_MODE_PFC, PORTS_OOM, 1);
  c.sw.lossless_mask = 0;
  c.sw.dynamic_th = false;
  c.sw.shared_blocks = 60000;
  c.sw.xoff_th = 60000;
  c.traffic.pattern = LFC_TRAFFIC_INCAST;
  c.traffic.load_permille = 1000;
  c.traffic.min_nblk = 1;
  c.traffic.max_nblk = 1;
  c.traffic.stop_cycle = STOP;
  char err[256] = "";
  lfc_star_t *st = lfc_star_create(&c, err, sizeof err);
  if (st == NULL) fail_msg("lfc_star_create: %s", err);
  int failed = 0;
  for (uint32_t t = 0; t < MAX_CYCLES && !failed; t++) {
    lfc_alloc_fail_nth(1);
    lfc_star_step(st);
    failed = lfc_alloc_failed();
  }
  lfc_alloc_fail_nth(0);
  assert_true(failed);
  assert_true(lfc_star_score(st)->errors >= 1);
  assert_non_null(strstr(lfc_star_error(st), "out of memory for the scoreboard"));
  lfc_star_destroy(st);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_route_table_refused),
      cmocka_unit_test(test_star_link_delay_range),
      cmocka_unit_test(test_star_range_messages_match_the_check),
      cmocka_unit_test(test_star_default_bad_classes_only_fault),
      cmocka_unit_test(test_star_check_and_create_any_buffer),
      cmocka_unit_test(test_scoreboard_growth_out_of_memory_is_an_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
