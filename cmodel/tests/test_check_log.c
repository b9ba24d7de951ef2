/*
 * test_check_log.c - the checkers' violation log (cmodel/src/check_log.c) keeps the first
 * max_kept violations whole and in order and counts every one (lfc/check.h). It grows as
 * violations come, a block at a time (alloc.h's fault injector counts the growths here): a
 * growth that fails loses only the violation that needed it, which is still counted, and the
 * next violation grows the log again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "../src/alloc.h"
#include "lfc/check.h"

/* Violations enough for the log to need its second growth (its first block holds 16). */
enum { MANY = 64 };

/* One frame too short to be Ethernet on link 0 at time t: one violation (pfc-frame). */
static int runt(lfc_check_t *c, uint64_t t) {
  static const uint8_t bytes[4] = {0};
  return lfc_check_frame(c, 0, LFC_CHECK_AB, t, LFC_PCAP_ETH, bytes, sizeof bytes);
}

static lfc_check_t *checker(void) {
  char err[256];
  lfc_check_t *c = lfc_check_create_text(LFC_MODE_PFC, "links=1", err, sizeof err);
  if (c == NULL) fail_msg("lfc_check_create_text: %s", err);
  return c;
}

/* Without failures every violation is kept, each with its own time, in order. */
static void test_log_keeps_every_violation_in_order(void **state) {
  (void)state;
  lfc_check_t *c = checker();
  for (uint64_t t = 1; t <= MANY; t++) assert_int_equal(runt(c, t * 10u), 1);
  assert_int_equal(lfc_check_violations(c), MANY);
  for (size_t i = 0; i < MANY; i++) {
    const lfc_check_violation_t *v = lfc_check_violation(c, i);
    assert_non_null(v);
    assert_int_equal(v->time, (i + 1u) * 10u);
    assert_int_equal(v->frame, i + 1u);
  }
  assert_null(lfc_check_violation(c, MANY));
  lfc_check_destroy(c);
}

/* The log's second growth fails: the violation that needed it is counted and not kept, the ones
   before it stay whole, and the next one is kept after them. */
static void test_log_failed_growth_loses_one(void **state) {
  (void)state;
  lfc_check_t *c = checker();
  lfc_alloc_fail_nth(2); /* the first growth succeeds, the second fails */
  uint64_t t = 0;
  while (!lfc_alloc_failed() && t < MANY) {
    t++;
    assert_int_equal(runt(c, t * 10u), 1);
  }
  lfc_alloc_fail_nth(0);
  if (t == MANY) fail_msg("%d violations and the log never grew a second time", MANY);
  const size_t kept = (size_t)t - 1u; /* every violation before the failed growth */
  assert_true(kept >= 1u);
  assert_int_equal(lfc_check_violations(c), t);
  assert_non_null(lfc_check_violation(c, kept - 1u));
  assert_null(lfc_check_violation(c, kept)); /* counted, not kept */
  assert_int_equal(runt(c, (t + 1u) * 10u), 1);
  const lfc_check_violation_t *next = lfc_check_violation(c, kept);
  assert_non_null(next);
  assert_int_equal(next->time, (t + 1u) * 10u);
  for (size_t i = 0; i < kept; i++)
    assert_int_equal(lfc_check_violation(c, i)->time, (i + 1u) * 10u);
  lfc_check_destroy(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_log_keeps_every_violation_in_order),
      cmocka_unit_test(test_log_failed_growth_loses_one),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
