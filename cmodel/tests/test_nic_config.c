/*
 * test_nic_config.c - lfc_nic_cfg_check (lfc/nic.h, cmodel/src/nic.c): for every scalar
 * parameter of the end node, the range the message states ("nic NAME = V is out of range:
 * allowed LO..HI") is the range the check applies, the refresh message gives its bound, and the
 * message buffer of the check and of lfc_nic_create is written as snprintf would (err == NULL
 * allowed whatever errlen says, errlen 0 writes nothing, a short buffer gets the start of the
 * message, NUL-terminated).
 */

#include "testutil.h"
#include "errbuf_testutil.h"

#include <stdio.h>
#include <string.h>

#include "lfc/nic.h"
#include "lfc/star.h"

enum { PORTS = 4, CLASSES = 2, HUGE_VALUE = 0x7FFFFFFF };

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


/* lfc/nic.h: lfc_nic_cfg_check and lfc_nic_create. */
static void test_nic_check_and_create_any_buffer(void **state) {
  (void)state;
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_IB, 2);
  c.speed_div = 17;
  CHECK_ALL_BUFFERS(assert_int_equal(lfc_nic_cfg_check(&c, err, errlen), -1), "speed_div = 17");
  CHECK_ALL_BUFFERS(assert_null(lfc_nic_create(&c, err, errlen)), "speed_div = 17");
  c.speed_div = 1;
  lfc_nic_t *nic = lfc_nic_create(&c, NULL, BIG);
  assert_non_null(nic);
  lfc_nic_destroy(nic);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nic_range_messages_match_the_check),
      cmocka_unit_test(test_nic_refresh_message_gives_the_bound),
      cmocka_unit_test(test_nic_check_and_create_any_buffer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
