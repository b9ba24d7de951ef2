/*
 * test_traffic.c - the star testbed's traffic source (cmodel/src/traffic.c, lfc_traffic.h,
 * lfc/star.h):
 *   - lfc_traffic_cfg_default is a usable source on the default switch as it stands: its packet
 *     sizes span every legal size, 1 block up to the default switch's mtu_blocks (SPEC §7.2: a
 *     first block with nblk > mtu_blocks is MALFORMED), so a star built from it passes
 *     lfc_star_cfg_check without touching the traffic;
 *   - it sends ecn_capable_pct % of its packets ECT(0), down to the smallest share: 1 % gives
 *     about 1 % of the packets, not none; 0 % none, 50 % about half, 100 % all;
 *   - its packet sizes follow the splitmix64 generator it documents;
 *   - it times its packets with an exact token clock (next_time += blocks * speed_div * 1000 /
 *     load) and, when it was held back (called after its packet was due), "does not catch up:
 *     its next creation is timed from now".
 */

#include "testutil.h"

#include "lfc/star.h"

#include "../src/lfc_traffic.h"
#include <string.h>

/* lfc/star.h: "The traffic defaults: uniform, 50 % load, 1..65 blocks, class 0 only, no
 * ECN-capable packets, no bursts, never stopping, seed 1." Every field, whatever the struct held. */
static void test_defaults_are_the_documented_ones(void **state) {
  (void)state;
  enum { DOC_LOAD_PERMILLE = 500, DOC_MAX_NBLK = 65, DOC_SEED = 1 };
  lfc_traffic_cfg_t t;
  memset(&t, 0xA5, sizeof t);
  lfc_traffic_cfg_default(&t);
  assert_int_equal(t.pattern, LFC_TRAFFIC_UNIFORM);
  assert_int_equal(t.load_permille, DOC_LOAD_PERMILLE);
  assert_int_equal(t.min_nblk, 1);
  assert_int_equal(t.max_nblk, DOC_MAX_NBLK);
  assert_int_equal(t.class_mask, 1u);
  assert_int_equal(t.ecn_capable_pct, 0);
  assert_int_equal(t.burst_pkts, 0);
  assert_int_equal(t.stop_cycle, 0);
  assert_int_equal(t.seed, DOC_SEED);
}

static void test_default_sizes_span_the_default_mtu(void **state) {
  (void)state;
  lfc_traffic_cfg_t t;
  lfc_traffic_cfg_default(&t);
  for (int mode = LFC_MODE_IB; mode <= LFC_MODE_PFC; mode++) {
    lfc_switch_cfg_t sw;
    lfc_switch_cfg_default(&sw, (lfc_mode_t)mode, 4, 1);
    assert_int_equal(t.min_nblk, 1);
    assert_int_equal(t.max_nblk, sw.mtu_blocks);

    lfc_star_cfg_t star;
    lfc_star_cfg_default(&star, (lfc_mode_t)mode, 4, 1);
    star.traffic = t; /* the traffic defaults alone, not the star's own sizes */
    char err[256] = "";
    if (lfc_star_cfg_check(&star, err, sizeof err) != 0) fail_msg("%s", err);
  }
}

enum {
  PACKETS = 20000,
  PORTS = 4,
  SPEED = 1,
  /* 1 % of 20000 is 200; the binomial standard deviation is about 14: allow 3.5 of them. */
  ONE_PCT_LO = 150,
  ONE_PCT_HI = 250,
};

/* How many of PACKETS packets of node 0 are ECN-capable at ecn_capable_pct = pct. */
static uint32_t ect_count(uint32_t pct) {
  lfc_traffic_cfg_t t;
  lfc_traffic_cfg_default(&t);
  t.load_permille = 1000;
  t.min_nblk = t.max_nblk = 1;
  t.ecn_capable_pct = pct;
  lfc_source_t s;
  lfc_source_init(&s, &t, 0, PORTS, SPEED);
  lfc_pkt_t pk[LFC_SOURCE_MAX_BURST];
  uint32_t made = 0, ect = 0;
  for (uint64_t now = 0; made < PACKETS; now++) {
    uint32_t n = lfc_source_create(&s, &t, now, pk);
    for (uint32_t i = 0; i < n && made < PACKETS; i++, made++) {
      assert_true(pk[i].ecn == LFC_ECN_NOT_ECT || pk[i].ecn == LFC_ECN_ECT0);
      ect += pk[i].ecn == LFC_ECN_ECT0;
    }
  }
  return ect;
}

static void test_ecn_share(void **state) {
  (void)state;
  assert_int_equal(ect_count(0), 0);
  assert_int_equal(ect_count(100), PACKETS);
  uint32_t one = ect_count(1);
  assert_in_range(one, ONE_PCT_LO, ONE_PCT_HI);
}

#define PKTS 4000u

/* ECT packets among PKTS created with this share. */
static uint32_t ect_count_of_share(uint32_t pct) {
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
  assert_int_equal(ect_count_of_share(0), 0);
  assert_int_equal(ect_count_of_share(100), PKTS);
  uint32_t half = ect_count_of_share(50);
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

enum { NBLK = 2, LOAD = 500, HOLDBACK_SPEED = 3, LATE = 1000 };

static void test_source_timing_and_holdback(void **state) {
  (void)state;
  lfc_traffic_cfg_t t;
  lfc_traffic_cfg_default(&t);
  t.load_permille = LOAD;
  t.min_nblk = t.max_nblk = NBLK;
  lfc_source_t s;
  lfc_source_init(&s, &t, 0, 4, HOLDBACK_SPEED);
  const uint64_t gap = (uint64_t)NBLK * HOLDBACK_SPEED * 1000u / LOAD; /* 12 cycles per packet */
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
  enum { ODD_LOAD = 7, HELD_PACKETS = 14 };
  lfc_traffic_cfg_t t;
  lfc_traffic_cfg_default(&t);
  t.load_permille = ODD_LOAD;
  t.min_nblk = t.max_nblk = NBLK;
  lfc_source_t s;
  lfc_source_init(&s, &t, 0, 4, HOLDBACK_SPEED);
  const uint64_t cost = (uint64_t)NBLK * HOLDBACK_SPEED * 1000u; /* 6000 permille-cycles per packet */
  lfc_pkt_t pk[LFC_SOURCE_MAX_BURST];
  for (uint64_t k = 0; k < 3; k++) /* on time: a fraction of a cycle is carried */
    assert_int_equal(lfc_source_create(&s, &t, s.next_time, pk), 1);
  const uint64_t late = s.next_time + LATE; /* held back */
  assert_int_equal(lfc_source_create(&s, &t, late, pk), 1);
  for (uint64_t k = 1; k <= HELD_PACKETS; k++) {
    assert_int_equal(s.next_time, late + k * cost / ODD_LOAD);
    assert_int_equal(lfc_source_create(&s, &t, s.next_time, pk), 1);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_defaults_are_the_documented_ones),
      cmocka_unit_test(test_default_sizes_span_the_default_mtu),
      cmocka_unit_test(test_ecn_share),
      cmocka_unit_test(test_ecn_capable_share),
      cmocka_unit_test(test_sizes_follow_splitmix64),
      cmocka_unit_test(test_stop_cycle),
      cmocka_unit_test(test_packets_start_clean),
      cmocka_unit_test(test_source_timing_and_holdback),
      cmocka_unit_test(test_holdback_restarts_the_exact_clock_from_now),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
