/*
 * test_traffic_ecn_share.c - the star testbed's traffic source sends ecn_capable_pct % of its
 * packets ECT(0) (lfc/star.h), down to the smallest share: 1 % must give about 1 % of the
 * packets, not none; 0 % none and 100 % all.
 */
#include "testutil.h"

#include "../src/lfc_traffic.h"

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ecn_share),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
