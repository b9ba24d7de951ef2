/*
 * test_traffic_holdback.c - the star testbed's traffic source (cmodel/src/lfc_traffic.h) times
 * its packets with an exact token clock (next_time += blocks * speed_div * 1000 / load) and,
 * when it was held back (called after its packet was due), "does not catch up: its next
 * creation is timed from now".
 */
#include "testutil.h"

#include <string.h>

#include "../src/lfc_traffic.h"

enum { NBLK = 2, LOAD = 500, SPEED = 3, LATE = 1000 };

static void test_source_timing_and_holdback(void **state) {
  (void)state;
  lfc_traffic_cfg_t t;
  lfc_traffic_cfg_default(&t);
  t.load_permille = LOAD;
  t.min_nblk = t.max_nblk = NBLK;
  lfc_source_t s;
  lfc_source_init(&s, &t, 0, 4, SPEED);
  const uint64_t gap = (uint64_t)NBLK * SPEED * 1000u / LOAD; /* 12 cycles per packet */
  lfc_pkt_t pk[LFC_SOURCE_MAX_BURST];
  assert_int_equal(s.next_time, 0);
  assert_int_equal(lfc_source_create(&s, &t, 0, pk), 1);
  assert_int_equal(s.next_time, gap);
  assert_int_equal(lfc_source_create(&s, &t, gap - 1u, pk), 0); /* not due yet */
  assert_int_equal(lfc_source_create(&s, &t, gap, pk), 1);      /* on time */
  assert_int_equal(s.next_time, 2u * gap);
  /* Held back: called long after 2 * gap. One packet, and the next is due gap after now. */
  assert_int_equal(lfc_source_create(&s, &t, LATE, pk), 1);
  assert_int_equal(s.next_time, LATE + gap);
  assert_int_equal(lfc_source_create(&s, &t, LATE + 1u, pk), 0);
  assert_int_equal(lfc_source_create(&s, &t, LATE + gap, pk), 1);
  assert_int_equal(s.next_time, LATE + 2u * gap);
}

/* The clock a hold restarts is the exact one, from now: with a load that does not divide the
 * packet's cost (blocks * speed_div * 1000 = 6000 per packet at load 7 permille: 857 1/7
 * cycles), the k-th packet after the one of the hold is due at now + floor(k * 6000 / 7),
 * whatever fraction of a cycle the clock carried before the hold. */
static void test_holdback_restarts_the_exact_clock_from_now(void **state) {
  (void)state;
  enum { ODD_LOAD = 7, PACKETS = 14 };
  lfc_traffic_cfg_t t;
  lfc_traffic_cfg_default(&t);
  t.load_permille = ODD_LOAD;
  t.min_nblk = t.max_nblk = NBLK;
  lfc_source_t s;
  lfc_source_init(&s, &t, 0, 4, SPEED);
  const uint64_t cost = (uint64_t)NBLK * SPEED * 1000u; /* 6000 permille-cycles per packet */
  lfc_pkt_t pk[LFC_SOURCE_MAX_BURST];
  for (uint64_t k = 0; k < 3; k++) /* on time: a fraction of a cycle is carried */
    assert_int_equal(lfc_source_create(&s, &t, s.next_time, pk), 1);
  const uint64_t late = s.next_time + LATE; /* held back */
  assert_int_equal(lfc_source_create(&s, &t, late, pk), 1);
  for (uint64_t k = 1; k <= PACKETS; k++) {
    assert_int_equal(s.next_time, late + k * cost / ODD_LOAD);
    assert_int_equal(lfc_source_create(&s, &t, s.next_time, pk), 1);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_source_timing_and_holdback),
      cmocka_unit_test(test_holdback_restarts_the_exact_clock_from_now),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
