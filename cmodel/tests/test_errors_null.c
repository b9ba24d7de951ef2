/*
 * test_errors_null.c - the message buffer of every checking call (lfc/switch.h, lfc/nic.h,
 * lfc/star.h): "writes one line to err (if err is not NULL)", bounded by errlen as snprintf is.
 * So err == NULL is allowed whatever errlen says, errlen 0 writes nothing, a short buffer gets
 * the start of the message, NUL-terminated, and nothing beyond errlen; the result (-1, NULL)
 * is the same in every case. Also: the output array of lfc_switch_step is written for every
 * port in every cycle (SPEC §4.1: O(t) is a function of the state only), whatever it held before.
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "lfc/nic.h"
#include "lfc/star.h"

enum { BIG = 256, SHORT = 8, CANARY = 0x5A };

/* A buffer of BIG bytes filled with CANARY. */
static void fill(char *b) { memset(b, CANARY, BIG); }

/* Every byte from `from` on still holds CANARY. */
static void assert_untouched(const char *b, size_t from) {
  for (size_t i = from; i < BIG; i++)
    if ((unsigned char)b[i] != CANARY) fail_msg("byte %zu of the message buffer was written", i);
}

/* The four ways to pass a buffer, for a call that fails: err NULL with errlen 0 and with errlen
 * > 0, errlen 0 with a buffer, a short buffer; the full message for comparison. */
#define CHECK_ALL_BUFFERS(call_with, full_has)                                        \
  do {                                                                                \
    char b_[BIG];                                                                     \
    char *err;                                                                        \
    size_t errlen;                                                                    \
    err = NULL;                                                                       \
    errlen = 0;                                                                       \
    call_with;                                                                        \
    err = NULL;                                                                       \
    errlen = BIG;                                                                     \
    call_with;                                                                        \
    fill(b_);                                                                         \
    err = b_;                                                                         \
    errlen = 0;                                                                       \
    call_with;                                                                        \
    assert_untouched(b_, 0);                                                          \
    fill(b_);                                                                         \
    errlen = SHORT;                                                                   \
    call_with;                                                                        \
    assert_int_equal(strlen(b_), SHORT - 1);                                          \
    assert_untouched(b_, SHORT);                                                      \
    char short_[SHORT];                                                               \
    memcpy(short_, b_, SHORT);                                                        \
    fill(b_);                                                                         \
    errlen = BIG;                                                                     \
    call_with;                                                                        \
    assert_true(strlen(b_) > SHORT);                                                  \
    assert_memory_equal(short_, b_, SHORT - 1); /* the start of the same message */   \
    assert_non_null(strstr(b_, full_has));                                            \
  } while (0)

/* lfc/switch.h: lfc_switch_cfg_check and lfc_switch_create, a bad configuration. */
static void test_switch_check_and_create_any_buffer(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.ports = 1;
  CHECK_ALL_BUFFERS(assert_int_equal(lfc_switch_cfg_check(&c, err, errlen), -1), "ports = 1");
  CHECK_ALL_BUFFERS(assert_null(lfc_switch_create(&c, err, errlen)), "ports = 1");
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.kmin = c.kmax; /* a combination rule */
  CHECK_ALL_BUFFERS(assert_int_equal(lfc_switch_cfg_check(&c, err, errlen), -1), "kmin");
  CHECK_ALL_BUFFERS(assert_int_equal(lfc_switch_cfg_check(NULL, err, errlen), -1), "NULL");
  /* A legal configuration: 0, and an empty message, not the text of an earlier call, in a
     buffer of any length >= 1 (a caller may print it either way); with NULL a switch. */
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 2);
  for (size_t len = 1; len <= 2; len++) {
    char b[BIG];
    fill(b);
    assert_int_equal(lfc_switch_cfg_check(&c, b, len), 0);
    assert_int_equal(b[0], '\0');
    assert_untouched(b, 1);
  }
  assert_int_equal(lfc_switch_cfg_check(&c, NULL, BIG), 0);
  lfc_switch_t *sw = lfc_switch_create(&c, NULL, BIG);
  assert_non_null(sw);
  lfc_switch_destroy(sw);
}

/* lfc/switch.h: lfc_switch_cfg_set, a bad value (-1) and an unknown key (1). */
static void test_switch_cfg_set_any_buffer(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  lfc_switch_cfg_t before = c;
  CHECK_ALL_BUFFERS(assert_int_equal(lfc_switch_cfg_set(&c, "switch", "ports", "1", err, errlen), -1),
                    "expected an integer");
  CHECK_ALL_BUFFERS(assert_int_equal(lfc_switch_cfg_set(&c, "pfc", "nope", "1", err, errlen), 1),
                    "nope");
  assert_memory_equal(&c, &before, sizeof c); /* unchanged unless 0 is returned */
  assert_int_equal(lfc_switch_cfg_set(&c, "switch", "ports", "5", NULL, BIG), 0);
  assert_int_equal(c.ports, 5);
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

/* lfc/switch.h, SPEC §4.1: out[p] is the word port p transmits, for every p, every cycle: the
 * outputs do not depend on what the caller's array held before the step. Two switches get the
 * same random inputs; one steps into a zeroed array, the other into one filled with a non-IDLE
 * pattern before every step. */
static void test_step_writes_every_output(void **state) {
  (void)state;
  for (int mode = 0; mode < 2; mode++) {
    lfc_switch_cfg_t c;
    if (mode == 0)
      tu_cfg_ib(&c, 4, 2);
    else
      tu_cfg_pfc(&c, 4, 2);
    c.mtu_blocks = 4;
    c.fcp_period = 50;
    lfc_switch_t *a = lfc_switch_create(&c, NULL, 0), *b = lfc_switch_create(&c, NULL, 0);
    assert_non_null(a);
    assert_non_null(b);
    uint32_t s = 0xC0FFEEu + (uint32_t)mode, left[4] = {0}, tag = 1;
    lfc_word_t cur[4], in[4], oa[4], ob[4];
    memset(cur, 0, sizeof cur);
    uint64_t idle_seen = 0, busy_seen = 0;
    for (int t = 0; t < 3000; t++) {
      memset(in, 0, sizeof in);
      for (uint32_t p = 0; p < 4; p++) {
        if (left[p] > 0) {
          in[p] = cur[p];
          in[p].sop = 0;
          in[p].eop = left[p] == 1;
          left[p]--;
        } else if (tu_rand(&s) % 100 < 5) {
          uint32_t n = 1 + tu_rand(&s) % 4;
          in[p] = tu_data_word(1, n == 1, tu_rand(&s) % 2, n, tu_rand(&s) % 4, tag++, 0);
          cur[p] = in[p];
          left[p] = n - 1;
        }
      }
      memset(oa, 0, sizeof oa);
      memset(ob, CANARY, sizeof ob);
      lfc_switch_step(a, in, oa);
      lfc_switch_step(b, in, ob);
      for (uint32_t p = 0; p < 4; p++) {
        if (!lfc_word_equal(&oa[p], &ob[p]))
          fail_msg("mode %d cycle %d port %u: the output depends on the array's old contents "
                   "(kind %u into zeros, %u into a filled array)",
                   mode, t, p, oa[p].kind, ob[p].kind);
        if (oa[p].kind == LFC_IDLE)
          idle_seen++;
        else
          busy_seen++;
      }
    }
    assert_true(idle_seen > 100 && busy_seen > 100);
    lfc_switch_destroy(a);
    lfc_switch_destroy(b);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_switch_check_and_create_any_buffer),
      cmocka_unit_test(test_switch_cfg_set_any_buffer),
      cmocka_unit_test(test_nic_check_and_create_any_buffer),
      cmocka_unit_test(test_star_check_and_create_any_buffer),
      cmocka_unit_test(test_step_writes_every_output),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
