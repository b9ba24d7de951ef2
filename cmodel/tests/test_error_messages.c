/*
 * test_error_messages.c - what lfc_switch_cfg_check says is allowed is what it allows
 * (lfc/switch.h: the message names "the parameter, its value and what is allowed").
 *
 * For every scalar parameter of SPEC §3 with a numeric range: an out-of-range value gets
 * "NAME = V is outside LO..HI"; then LO and HI themselves are not refused for their range,
 * HI + 1 is, with a message giving the same range, and LO - 1 (when LO > 0) is refused by a
 * message naming the parameter and that value. For the PFC
 * priority masks: a mask naming a priority >= classes is refused with that priority and the
 * priorities that exist ("priorities are 0..classes-1"), and the largest mask that fits passes.
 * The same for the end node (lfc/nic.h): "nic NAME = V is out of range: allowed LO..HI", and for
 * the testbed's own parameters (lfc/star.h): "NAME = V is ...: allowed LO..HI".
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "lfc/nic.h"
#include "lfc/star.h"

typedef struct {
  const char *name;
  size_t off;
  lfc_mode_t mode;
} field_t;

#define F(n, m) {#n, offsetof(lfc_switch_cfg_t, n), m}

/* The uint32_t parameters (lfc/switch.h) whose check is "NAME = V is outside LO..HI". */
static const field_t FIELDS[] = {
    F(ports, LFC_MODE_IB),           F(latency, LFC_MODE_IB),
    F(mtu_blocks, LFC_MODE_IB),      F(vl15_blocks, LFC_MODE_IB),
    F(fcp_period, LFC_MODE_IB),      F(vlarb_high_limit, LFC_MODE_IB),
    F(classes, LFC_MODE_IB),         F(classes, LFC_MODE_PFC),
    F(reserve_blocks, LFC_MODE_PFC), F(shared_blocks, LFC_MODE_PFC),
    F(headroom_blocks, LFC_MODE_PFC), F(xoff_th, LFC_MODE_PFC),
    F(xon_offset, LFC_MODE_PFC),     F(pause_quanta, LFC_MODE_PFC),
    F(refresh_cycles, LFC_MODE_PFC), F(wd_detect, LFC_MODE_PFC),
    F(wd_restore, LFC_MODE_PFC),     F(kmin, LFC_MODE_PFC),
    F(kmax, LFC_MODE_PFC),           F(pmax, LFC_MODE_PFC),
};

enum { PORTS = 4, CLASSES = 2, HUGE_VALUE = 0x7FFFFFFF };

/* Check cfg with field f set to v: the message ("" if accepted). */
static const char *check_with(const field_t *f, uint32_t v, char *err, size_t len) {
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, f->mode, PORTS, CLASSES);
  c.wd_enable = true; /* so that the watchdog's parameters are judged too */
  memcpy((char *)&c + f->off, &v, sizeof v);
  if (lfc_switch_cfg_check(&c, err, len) == 0) return "";
  return err;
}

/* Does the message refuse field f's value v for its range? */
static bool refused_for_range(const field_t *f, uint32_t v, const char *msg, long long lo,
                              long long hi) {
  char want[128];
  snprintf(want, sizeof want, "%s = %u is outside %lld..%lld", f->name, v, lo, hi);
  return strstr(msg, want) != NULL;
}

static void test_range_messages_match_the_check(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof FIELDS / sizeof FIELDS[0]; i++) {
    const field_t *f = &FIELDS[i];
    char err[256], prefix[64];
    const char *msg = check_with(f, HUGE_VALUE, err, sizeof err);
    snprintf(prefix, sizeof prefix, "%s = %u is outside ", f->name, (uint32_t)HUGE_VALUE);
    const char *at = strstr(msg, prefix);
    if (at == NULL) fail_msg("%s = %u: expected a range message, got '%s'", f->name, HUGE_VALUE, msg);
    long long lo, hi;
    if (sscanf(at + strlen(prefix), "%lld..%lld", &lo, &hi) != 2)
      fail_msg("%s: no LO..HI in '%s'", f->name, msg);
    assert_true(lo >= 0 && lo <= hi && hi < HUGE_VALUE);
    char e2[256];
    if (refused_for_range(f, (uint32_t)hi, check_with(f, (uint32_t)hi, e2, sizeof e2), lo, hi))
      fail_msg("%s: the message allows %lld but the check refuses it: '%s'", f->name, hi, e2);
    if (refused_for_range(f, (uint32_t)lo, check_with(f, (uint32_t)lo, e2, sizeof e2), lo, hi))
      fail_msg("%s: the message allows %lld but the check refuses it: '%s'", f->name, lo, e2);
    if (!refused_for_range(f, (uint32_t)hi + 1u, check_with(f, (uint32_t)hi + 1u, e2, sizeof e2),
                           lo, hi))
      fail_msg("%s: %lld is above the range the message gives, but: '%s'", f->name, hi + 1, e2);
    if (lo > 0) { /* refused, naming the value (some have a message of their own for it) */
      char named[96];
      snprintf(named, sizeof named, "%s = %lld ", f->name, lo - 1);
      if (strstr(check_with(f, (uint32_t)lo - 1u, e2, sizeof e2), named) == NULL)
        fail_msg("%s: %lld is below the range the message gives, but: '%s'", f->name, lo - 1, e2);
    }
  }
}

/* SPEC §3.2: lossless_mask, strict_mask, ecn_mask name priorities 0..classes-1. */
static void test_mask_messages_name_the_priorities(void **state) {
  (void)state;
  for (uint32_t classes = 1; classes < LFC_PFC_MAX_PRIOS; classes++) {
    for (int which = 0; which < 3; which++) {
      static const char *const names[] = {"lossless_mask", "strict_mask", "ecn_mask"};
      lfc_switch_cfg_t c;
      lfc_switch_cfg_default(&c, LFC_MODE_PFC, PORTS, classes);
      uint8_t *mask = which == 0 ? &c.lossless_mask : which == 1 ? &c.strict_mask : &c.ecn_mask;
      *mask = (uint8_t)((1u << classes) - 1u); /* every priority that exists */
      char err[256] = "";
      if (lfc_switch_cfg_check(&c, err, sizeof err) != 0)
        fail_msg("%s = 0x%02x with classes = %u refused: %s", names[which], *mask, classes, err);
      *mask = (uint8_t)(1u << classes | 1u); /* and one that does not */
      assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), -1);
      char want[160];
      snprintf(want, sizeof want,
               "%s = 0x%02x names priority %u, but classes = %u: priorities are 0..%u",
               names[which], *mask, classes, classes, classes - 1u);
      if (strstr(err, want) == NULL) fail_msg("expected '%s', got '%s'", want, err);
    }
  }
}

/* SPEC §3.1: cut-through needs every port at the same speed; whichever port differs, and
 * whether it is port 0 or another, the check refuses it and names the two speeds. */
static void test_cut_through_needs_equal_speeds(void **state) {
  (void)state;
  for (uint32_t odd = 0; odd < PORTS; odd++) {
    lfc_switch_cfg_t c;
    lfc_switch_cfg_default(&c, LFC_MODE_PFC, PORTS, CLASSES);
    c.cut_through = true;
    char err[256] = "";
    assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), 0);
    for (uint32_t p = 0; p < PORTS; p++) c.speed_div[p] = p == odd ? 1 : 2;
    assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), -1);
    char want[96];
    snprintf(want, sizeof want, "speed_div[0] = %u but speed_div[%u] = %u", c.speed_div[0],
             odd == 0 ? 1u : odd, odd == 0 ? 2u : 1u);
    if (strstr(err, want) == NULL) fail_msg("port %u at another speed: expected '%s' in '%s'", odd, want, err);
    c.cut_through = false; /* store-and-forward takes any speeds */
    assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), 0);
  }
}

typedef struct {
  const char *name;
  size_t off;
  lfc_mode_t mode;
} nic_field_t;

#define NF(n, m) {#n, offsetof(lfc_nic_cfg_t, n), m}

/* The end node's parameters with a numeric "allowed LO..HI" (lfc/nic.h). */
static const nic_field_t NIC_FIELDS[] = {
    NF(classes, LFC_MODE_IB),         NF(classes, LFC_MODE_PFC),
    NF(speed_div, LFC_MODE_PFC),      NF(mtu_blocks, LFC_MODE_IB),
    NF(tx_fifo_pkts, LFC_MODE_IB),    NF(drain_div, LFC_MODE_IB),
    NF(fcp_period, LFC_MODE_IB),      NF(pause_quanta, LFC_MODE_PFC),
    NF(response_cycles, LFC_MODE_PFC),
};

/* The message of lfc_nic_cfg_check for field f = v ("" if accepted). */
static const char *nic_check_with(const nic_field_t *f, uint32_t v, char *err, size_t len) {
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, f->mode, 2);
  memcpy((char *)&c + f->off, &v, sizeof v);
  if (f->off == offsetof(lfc_nic_cfg_t, pause_quanta) && v > 1u) c.refresh_cycles = 1;
  if (lfc_nic_cfg_check(&c, err, len) == 0) return "";
  return err;
}

static bool nic_refused(const nic_field_t *f, uint32_t v, const char *msg) {
  char want[96];
  snprintf(want, sizeof want, "nic %s = %u is out of range", f->name, v);
  return strstr(msg, want) != NULL;
}

static void test_nic_range_messages_match_the_check(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof NIC_FIELDS / sizeof NIC_FIELDS[0]; i++) {
    const nic_field_t *f = &NIC_FIELDS[i];
    char err[256], e2[256];
    const char *msg = nic_check_with(f, HUGE_VALUE, err, sizeof err);
    const char *at = strstr(msg, "allowed ");
    const char *dots = at ? strstr(at, "..") : NULL;
    long long lo, hi;
    if (!nic_refused(f, HUGE_VALUE, msg) || dots == NULL || sscanf(at + 8, "%lld", &lo) != 1 ||
        sscanf(dots + 2, "%lld", &hi) != 1)
      fail_msg("nic %s = %u: expected 'out of range: allowed LO..HI', got '%s'", f->name,
               HUGE_VALUE, msg);
    assert_true(lo >= 0 && lo <= hi && hi < HUGE_VALUE);
    if (nic_refused(f, (uint32_t)lo, nic_check_with(f, (uint32_t)lo, e2, sizeof e2)) ||
        nic_refused(f, (uint32_t)hi, nic_check_with(f, (uint32_t)hi, e2, sizeof e2)))
      fail_msg("nic %s: the message allows %lld..%lld but the check refuses: '%s'", f->name,
               lo, hi, e2);
    if (!nic_refused(f, (uint32_t)hi + 1u, nic_check_with(f, (uint32_t)hi + 1u, e2, sizeof e2)))
      fail_msg("nic %s: %lld is above the range given, but: '%s'", f->name, hi + 1, e2);
    if (lo > 0 &&
        !nic_refused(f, (uint32_t)lo - 1u, nic_check_with(f, (uint32_t)lo - 1u, e2, sizeof e2)))
      fail_msg("nic %s: %lld is below the range given, but: '%s'", f->name, lo - 1, e2);
  }
}

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
  lfc_star_cfg_default(&c, f->mode, PORTS, CLASSES);
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

/* SPEC §3.1: every port's speed_div is checked, port 0 and the last as well: 0 is refused with
 * a message naming the port and the range, whose top is accepted and top + 1 refused. */
static void test_speed_div_checked_on_every_port(void **state) {
  (void)state;
  for (uint32_t p = 0; p < PORTS; p++) {
    lfc_switch_cfg_t c;
    lfc_switch_cfg_default(&c, LFC_MODE_PFC, PORTS, CLASSES);
    c.speed_div[p] = 0;
    char err[256] = "", want[64];
    assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), -1);
    snprintf(want, sizeof want, "speed_div[%u] = 0 is outside 1..", p);
    const char *at = strstr(err, want);
    unsigned hi = 0;
    if (at == NULL || sscanf(at + strlen(want), "%u", &hi) != 1 || hi < 1u)
      fail_msg("speed_div[%u] = 0: expected '%sHI' in '%s'", p, want, err);
    c.speed_div[p] = hi;
    if (lfc_switch_cfg_check(&c, err, sizeof err) != 0)
      fail_msg("speed_div[%u] = %u (the top of the range) refused: %s", p, hi, err);
    c.speed_div[p] = hi + 1u;
    assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), -1);
    snprintf(want, sizeof want, "speed_div[%u] = %u is outside 1..%u", p, hi + 1u, hi);
    if (strstr(err, want) == NULL) fail_msg("expected '%s' in '%s'", want, err);
  }
}

/* nic.h: refresh_cycles must be below pause_quanta (SPEC §12.2, the peer's pause would lapse
 * before a refresh); the message gives the largest allowed value for the pause_quanta set. */
static void test_nic_refresh_message_gives_the_bound(void **state) {
  (void)state;
  static const uint32_t quanta[] = {2, 100, 65535};
  for (size_t i = 0; i < sizeof quanta / sizeof quanta[0]; i++) {
    lfc_nic_cfg_t c;
    lfc_nic_cfg_default(&c, LFC_MODE_PFC, 2);
    c.pause_quanta = quanta[i];
    c.refresh_cycles = quanta[i] - 1u; /* the largest allowed */
    char err[256] = "", want[96];
    if (lfc_nic_cfg_check(&c, err, sizeof err) != 0)
      fail_msg("refresh_cycles = pause_quanta - 1 = %u refused: %s", quanta[i] - 1u, err);
    c.refresh_cycles = quanta[i];
    assert_int_equal(lfc_nic_cfg_check(&c, err, sizeof err), -1);
    snprintf(want, sizeof want, "nic refresh_cycles = %u is out of range: allowed "
             "1..pause_quanta-1 = %u", quanta[i], quanta[i] - 1u);
    if (strstr(err, want) == NULL) fail_msg("expected '%s' in '%s'", want, err);
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
      lfc_star_cfg_default(&c, ib ? LFC_MODE_IB : LFC_MODE_PFC, PORTS, bad[i]);
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

/* A VL arbitration entry naming a VL that IB does not have: the message gives the VLs that exist. */
static void test_vlarb_vl_message(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, PORTS, 4);
  c.vlarb_low[0].vl = LFC_IB_MAX_VLS;
  char err[256] = "";
  assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), -1);
  assert_non_null(strstr(err, "vlarb_low[0].vl = 15 is outside 0..14"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_range_messages_match_the_check),
      cmocka_unit_test(test_mask_messages_name_the_priorities),
      cmocka_unit_test(test_nic_range_messages_match_the_check),
      cmocka_unit_test(test_nic_refresh_message_gives_the_bound),
      cmocka_unit_test(test_speed_div_checked_on_every_port),
      cmocka_unit_test(test_star_range_messages_match_the_check),
      cmocka_unit_test(test_star_default_bad_classes_only_fault),
      cmocka_unit_test(test_cut_through_needs_equal_speeds),
      cmocka_unit_test(test_vlarb_vl_message),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
