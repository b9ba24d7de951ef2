/*
 * test_mut_traffic.c - the star testbed's traffic source sends the configured share of packets
 * ECN-capable (lfc/star.h ecn_capable_pct): none at 0 %, all at 100 %, about half at 50 %; and its
 * packet sizes follow the splitmix64 generator it documents. Kills mutants of traffic.c (every
 * packet ECT whenever the share is above 0; the generator's constants; the size span) that the
 * suite let survive (scripts/mutants-c.py, docs/fuzzing.md §3).
 */
#include "testutil.h"

#include <string.h>

#include "../src/lfc_traffic.h"

#define PKTS 4000u

/* ECT packets among PKTS created with this share. */
static uint32_t ect_count(uint32_t pct) {
  lfc_traffic_cfg_t t;
  lfc_traffic_cfg_default(&t);
  t.ecn_capable_pct = pct;
  t.load_permille = 1000;
  t.min_nblk = t.max_nblk = 1;
  t.seed = 5;
  lfc_source_t s;
  lfc_source_init(&s, &t, 0, 4, 1);
  lfc_pkt_t pk[LFC_SOURCE_MAX_BURST];
  uint32_t made = 0, ect = 0;
  for (uint64_t now = 0; made < PKTS && now < 100u * PKTS; now++) {
    if (now < s.next_time) continue;
    uint32_t n = lfc_source_create(&s, &t, now, pk);
    for (uint32_t i = 0; i < n && made < PKTS; i++, made++)
      ect += pk[i].ecn == LFC_ECN_ECT0 || pk[i].ecn == LFC_ECN_ECT1;
  }
  assert_int_equal(made, PKTS);
  return ect;
}

static void test_ecn_capable_share(void **state) {
  (void)state;
  assert_int_equal(ect_count(0), 0);
  assert_int_equal(ect_count(100), PKTS);
  uint32_t half = ect_count(50);
  /* Binomial(4000, 1/2): the standard deviation is ~32; 10 of them either side. */
  assert_in_range(half, PKTS / 2 - 320, PKTS / 2 + 320);
}

/* splitmix64 (Steele, Lea, Flood 2014), written out here from the paper's definition, and the
   multiply-shift draw the source documents: the reference the source's packet sizes must match. */
static uint64_t ref_next(uint64_t *st) {
  uint64_t z = (*st += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* The sizes of 200 packets follow splitmix64 from the source's state: the generator is the
   published one (mutants of its constants and shifts), and each packet takes its size from the
   first draw, uniform in [min_nblk, max_nblk] (mutants of the span). */
static void test_sizes_follow_splitmix64(void **state) {
  (void)state;
  lfc_traffic_cfg_t t;
  lfc_traffic_cfg_default(&t);
  t.load_permille = 1000;
  t.min_nblk = 3;
  t.max_nblk = 4; /* span 2: one draw per size */
  t.seed = 77;
  lfc_source_t s;
  lfc_source_init(&s, &t, 1, 4, 1);
  lfc_pkt_t pk[LFC_SOURCE_MAX_BURST];
  unsigned checked = 0;
  for (uint64_t now = 0; checked < 200 && now < 100000; now++) {
    if (now < s.next_time) continue;
    uint64_t ref = s.rng; /* the state before this packet's draws */
    uint32_t n = lfc_source_create(&s, &t, now, pk);
    if (n == 0) continue;
    assert_int_equal(n, 1);
    uint32_t want = 3u + (uint32_t)(((ref_next(&ref) >> 32) * 2u) >> 32);
    assert_int_equal(pk[0].nblk, want);
    checked++;
  }
  assert_int_equal(checked, 200);
}

/* stop_cycle (lfc/star.h): no packet is created at or after it, and 0 means never. A source at
   full load creates in every cycle before the stop, none from it on, and its next_time says so. */
static void test_stop_cycle(void **state) {
  (void)state;
  for (uint64_t stop = 0; stop < 4u; stop++) {
    lfc_traffic_cfg_t t;
    lfc_traffic_cfg_default(&t);
    t.load_permille = 1000;
    t.min_nblk = t.max_nblk = 1;
    t.stop_cycle = stop;
    lfc_source_t s;
    lfc_source_init(&s, &t, 0, 4, 1);
    lfc_pkt_t pk[LFC_SOURCE_MAX_BURST];
    uint32_t made = 0;
    for (uint64_t now = 0; now < 8u; now++) {
      if (now < s.next_time) continue;
      uint32_t n = lfc_source_create(&s, &t, now, pk);
      if (stop != 0u && now >= stop) assert_int_equal(n, 0);
      made += n;
    }
    assert_int_equal(made, stop == 0u ? 8u : stop);
    if (stop != 0u) assert_true(s.next_time == UINT64_MAX);
  }
}

/* The packets come with tag 0 (lfc_traffic.h: the testbed tags them) and only their own fields,
   whatever the caller's array held before. */
static void test_packets_start_clean(void **state) {
  (void)state;
  lfc_traffic_cfg_t t;
  lfc_traffic_cfg_default(&t);
  t.load_permille = 1000;
  t.burst_pkts = 4;
  lfc_source_t s;
  lfc_source_init(&s, &t, 1, 4, 1);
  lfc_pkt_t pk[LFC_SOURCE_MAX_BURST];
  memset(pk, 0xA5, sizeof pk);
  uint32_t n = lfc_source_create(&s, &t, 0, pk);
  assert_int_equal(n, 4);
  for (uint32_t i = 0; i < n; i++) {
    assert_int_equal(pk[i].tag, 0);
    assert_int_equal(pk[i].ecn, LFC_ECN_NOT_ECT);
    assert_true(pk[i].dst < 4 && pk[i].dst != 1);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ecn_capable_share),
      cmocka_unit_test(test_sizes_follow_splitmix64),
      cmocka_unit_test(test_stop_cycle),
      cmocka_unit_test(test_packets_start_clean),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
