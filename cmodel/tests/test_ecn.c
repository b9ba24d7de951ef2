/*
 * test_ecn.c - ECN marking with WRED and the LFSR (docs/SPEC.md §9), PFC mode.
 *
 * Scenario "preload": egress port 1 is paused (both classes) in cycle 1; port 0 sends n packets
 * (cut-through, latency 1) from cycle 2; a resume frame (quanta 0) arrives in cycle R, so the
 * packets start in R+1, R+2, ... (1-block packets, one per cycle). The j-th packet (0-based) of
 * 1 block each starts with q = n - j (§9.1: qlen of S(t) includes the starting packet).
 *
 * Expected marks come from an LFSR written here from the SPEC text (§9.3), not from the model.
 */
#include "testutil.h"

#include <math.h>

#define SALT 0x9E3779B9u

/* Independent LFSR (§9.3), bit by bit: shift right; if the bit shifted out was 1, toggle bits
 * 31, 21, 1, 0. */
static uint32_t ref_step(uint32_t x) {
  uint32_t out = x & 1u;
  uint32_t y = x / 2u;
  if (out) y ^= (1u << 31) | (1u << 21) | (1u << 1) | 1u;
  return y;
}

static uint32_t ref_reset(uint32_t seed, uint32_t port) {
  uint32_t x = seed ^ (uint32_t)(SALT * (uint64_t)(port + 1u));
  return x ? x : 1u;
}

/* A draw: 16 steps, the low 16 bits of the new state. */
static uint32_t ref_draw(uint32_t *x) {
  for (int i = 0; i < 16; i++) *x = ref_step(*x);
  return *x & 0xFFFFu;
}

static void cfg_ecn(lfc_switch_cfg_t *c, uint32_t kmin, uint32_t kmax, uint32_t pmax) {
  tu_cfg_pfc(c, 2, 2);
  c->cut_through = true;
  c->ecn_mask = 0x01;
  c->kmin = kmin;
  c->kmax = kmax;
  c->pmax = pmax;
}

/* Preload n packets of `nblk` blocks with codepoint ecn on class cls; returns R (resume cycle). */
static uint64_t preload(tu_t *t, uint32_t n, uint32_t nblk, uint32_t cls, uint32_t ecn) {
  tu_at(t, 1, 1);
  tu_pfc(t, 1, 0x03, 65535);
  tu_at(t, 0, 2);
  uint64_t last = 0;
  for (uint32_t i = 0; i < n; i++) last = tu_pkt(t, 0, cls, nblk, 1, i, ecn);
  uint64_t r = last + nblk + 1;
  tu_at(t, 1, r);
  tu_pfc(t, 1, 0x03, 0);
  return r;
}

/* ECN field of packet `tag` as it left port 1 (fails if it did not leave). */
static uint32_t ecn_out(const tu_t *t, uint32_t tag) {
  const tu_out_t *o = tu_find_sop(t, 1, tag);
  if (o == NULL) fail_msg("packet %u did not leave port 1", tag);
  return o->w.ecn;
}

/* SPEC §9.3: lfsr resets to seed XOR (0x9E3779B9 x (p + 1)) mod 2^32, or 1 if that is 0. */
static void test_lfsr_reset_value_per_port(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_pfc(&c, 4, 2);
  c.seed = 0x12345678u;
  tu_t *t = tu_open(&c);
  assert_int_equal(tu_reg(t, "lfsr", 0, 0), 0x12345678u ^ 0x9E3779B9u);
  assert_int_equal(tu_reg(t, "lfsr", 1, 0), 0x12345678u ^ 0x3C6EF372u);
  assert_int_equal(tu_reg(t, "lfsr", 2, 0), 0x12345678u ^ 0xDAA66D2Bu);
  assert_int_equal(tu_reg(t, "lfsr", 3, 0), 0x12345678u ^ 0x78DDE6E4u);
  tu_run(t, 50); /* no draw: unchanged */
  assert_int_equal(tu_reg(t, "lfsr", 3, 0), 0x12345678u ^ 0x78DDE6E4u);
  tu_close(t);
  c.seed = 0x3C6EF372u; /* port 1: seed XOR salt*2 = 0, replaced by 1 */
  t = tu_open(&c);
  assert_int_equal(tu_reg(t, "lfsr", 1, 0), 1);
  tu_close(t);
}

/* SPEC §9.2: q <= kmin: no mark and no draw. kmin 16 and 16 packets: q = 16, 15, ..., 1; none is
 * marked and the LFSR keeps its reset value (even with pmax = 65536). */
static void test_wred_at_kmin_no_mark_no_draw(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ecn(&c, 16, 64, 65536);
  tu_t *t = tu_open(&c);
  uint64_t r = preload(t, 16, 1, 0, LFC_ECN_ECT0);
  tu_run_to(t, r + 1 + 16 + 2);
  for (uint32_t i = 0; i < 16; i++) assert_int_equal(ecn_out(t, i), LFC_ECN_ECT0);
  assert_int_equal(tu_find_sop(t, 1, 0)->cycle, r + 1);
  assert_int_equal(tu_reg(t, "lfsr", 1, 0), ref_reset(1, 1));
  assert_int_equal(tu_stats(t, 1)->cls[0].ecn_mark, 0);
  tu_close(t);
}

/* SPEC §9.2: q > kmax: mark without a draw. kmin 4, kmax 5, pmax 0, ten packets (ECT(0) and
 * ECT(1) alternating): q = 10..6 marked CE (5 marks); q = 5 is in the band: a draw (16 LFSR steps),
 * but pmax 0 never marks; q <= 4 nothing. */
static void test_wred_above_kmax_all_marked_no_draw(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ecn(&c, 4, 5, 0);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 1);
  tu_pfc(t, 1, 0x03, 65535);
  tu_at(t, 0, 2);
  for (uint32_t i = 0; i < 10; i++) {
    tu_pkt(t, 0, 0, 1, 1, i, (i % 2) ? LFC_ECN_ECT1 : LFC_ECN_ECT0);
  }
  tu_at(t, 1, 14);
  tu_pfc(t, 1, 0x03, 0);
  tu_run_to(t, 15 + 5); /* the first five have started (15..19), no draw yet */
  assert_int_equal(tu_reg(t, "lfsr", 1, 0), ref_reset(1, 1));
  tu_run_to(t, 40);
  for (uint32_t i = 0; i < 5; i++) assert_int_equal(ecn_out(t, i), LFC_ECN_CE);
  for (uint32_t i = 5; i < 10; i++) {
    assert_int_equal(ecn_out(t, i), (i % 2) ? LFC_ECN_ECT1 : LFC_ECN_ECT0);
  }
  uint32_t x = ref_reset(1, 1);
  ref_draw(&x);
  assert_int_equal(tu_reg(t, "lfsr", 1, 0), x);
  assert_int_equal(tu_stats(t, 1)->cls[0].ecn_mark, 5);
  assert_int_equal(tu_count_ev(t, LFC_EV_ECN_MARK, 1, 0, -1), 5);
  tu_close(t);
}

/* SPEC §9.2, §9.3: in the band, draw r and mark iff r (kmax - kmin) < pmax (q - kmin). kmin 5,
 * kmax 45, pmax 65536, 40 preloaded packets: packet j has q = 40 - j; j = 0..34 draw (q > 5), in
 * order, from the port-1 LFSR; each mark decision and the final LFSR state match the independent
 * LFSR. */
static void test_wred_draws_match_independent_lfsr(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ecn(&c, 5, 45, 65536);
  tu_t *t = tu_open(&c);
  uint64_t r = preload(t, 40, 1, 0, LFC_ECN_ECT0);
  tu_run_to(t, r + 1 + 40 + 2);
  uint32_t x = ref_reset(1, 1);
  uint32_t marks = 0;
  for (uint32_t j = 0; j < 40; j++) {
    uint32_t q = 40 - j;
    bool mark = false;
    if (q > 5) {
      uint32_t d = ref_draw(&x);
      mark = (uint64_t)d * 40u < 65536ull * (q - 5u);
    }
    marks += mark;
    uint32_t e = ecn_out(t, j);
    if (e != (mark ? LFC_ECN_CE : LFC_ECN_ECT0)) {
      fail_msg("packet %u (q %u): ecn %u, expected %s", j, q, e, mark ? "CE" : "ECT(0)");
    }
  }
  assert_true(marks > 0 && marks < 35); /* the band is probabilistic, not all-or-nothing */
  assert_int_equal(tu_reg(t, "lfsr", 1, 0), x);
  assert_int_equal(tu_stats(t, 1)->cls[0].ecn_mark, marks);
  tu_close(t);
}

/* SPEC §9.2: the marking rate in the band. kmin 0, kmax 1, pmax 16384: a stream of 4000 one-block
 * packets through an otherwise idle egress (cut-through, latency 1) starts each packet with q = 1,
 * so p = 16384/65536 x 1/1 = 1/4. The count must be within 5 sigma of 1000 (sigma =
 * sqrt(4000 x 1/4 x 3/4) = 27.4) and equal the count predicted by the independent LFSR. */
static void test_wred_between_rate_within_binomial_bound(void **state) {
  (void)state;
  enum { N = 4000 };
  lfc_switch_cfg_t c;
  cfg_ecn(&c, 0, 1, 16384);
  c.seed = 0xC0FFEE11u;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  for (uint32_t i = 0; i < N; i++) tu_pkt(t, 0, 0, 1, 1, i, LFC_ECN_ECT0);
  tu_run_to(t, 2 + N + 5);
  const tu_out_t *first = tu_find_sop(t, 1, 0);
  assert_non_null(first);
  assert_int_equal(first->cycle, 3);
  uint32_t x = ref_reset(0xC0FFEE11u, 1);
  uint32_t marks = 0, expect = 0;
  for (uint32_t i = 0; i < N; i++) {
    bool m = ref_draw(&x) < 16384u;
    expect += m;
    uint32_t e = ecn_out(t, i);
    marks += (e == LFC_ECN_CE);
    if (e != (m ? LFC_ECN_CE : LFC_ECN_ECT0)) fail_msg("packet %u: ecn %u, expected mark %d", i, e, m);
  }
  const double sigma = sqrt(N * 0.25 * 0.75);
  assert_true(fabs((double)marks - N * 0.25) <= 5.0 * sigma);
  assert_int_equal(marks, expect);
  assert_int_equal(tu_stats(t, 1)->cls[0].ecn_mark, marks);
  tu_close(t);
}

/* SPEC §9.1: Not-ECT is never marked, whatever the depth, and takes no draw. */
static void test_ecn_not_ect_never_marked(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ecn(&c, 0, 1, 65536);
  tu_t *t = tu_open(&c);
  uint64_t r = preload(t, 10, 1, 0, LFC_ECN_NOT_ECT);
  tu_run_to(t, r + 15);
  for (uint32_t i = 0; i < 10; i++) assert_int_equal(ecn_out(t, i), LFC_ECN_NOT_ECT);
  assert_int_equal(tu_stats(t, 1)->cls[0].ecn_mark, 0);
  assert_int_equal(tu_reg(t, "lfsr", 1, 0), ref_reset(1, 1));
  tu_close(t);
}

/* SPEC §9.1: CE stays CE; it is not a new mark (no ecn_mark, no draw). */
static void test_ecn_ce_stays_ce(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ecn(&c, 0, 1, 65536);
  tu_t *t = tu_open(&c);
  uint64_t r = preload(t, 10, 1, 0, LFC_ECN_CE);
  tu_run_to(t, r + 15);
  for (uint32_t i = 0; i < 10; i++) assert_int_equal(ecn_out(t, i), LFC_ECN_CE);
  assert_int_equal(tu_stats(t, 1)->cls[0].ecn_mark, 0);
  assert_int_equal(tu_count_ev(t, LFC_EV_ECN_MARK, -1, -1, -1), 0);
  assert_int_equal(tu_reg(t, "lfsr", 1, 0), ref_reset(1, 1));
  tu_close(t);
}

/* SPEC §9.1: only priorities in ecn_mask are marked: ecn_mask = 0x01, class 1 packets far above
 * kmax keep ECT(0). */
static void test_ecn_mask_limits_marking_to_its_priorities(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ecn(&c, 0, 1, 65536);
  tu_t *t = tu_open(&c);
  uint64_t r = preload(t, 10, 1, 1, LFC_ECN_ECT0);
  tu_run_to(t, r + 15);
  for (uint32_t i = 0; i < 10; i++) assert_int_equal(ecn_out(t, i), LFC_ECN_ECT0);
  assert_int_equal(tu_stats(t, 1)->cls[1].ecn_mark, 0);
  tu_close(t);
}

/* SPEC §9.2: marking sets CE in every block of the packet. Two 3-block packets with q = 6 and 3,
 * both > kmax = 2. */
static void test_ecn_mark_sets_every_block(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ecn(&c, 1, 2, 65536);
  tu_t *t = tu_open(&c);
  uint64_t r = preload(t, 2, 3, 0, LFC_ECN_ECT1);
  tu_run_to(t, r + 10);
  for (uint64_t k = r + 1; k < r + 7; k++) {
    lfc_word_t w = tu_out_at(t, 1, k);
    assert_int_equal(w.kind, LFC_DATA);
    assert_int_equal(w.ecn, LFC_ECN_CE);
  }
  assert_int_equal(tu_stats(t, 1)->cls[0].ecn_mark, 2);
  tu_close(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_lfsr_reset_value_per_port),
      TU_TEST(test_wred_at_kmin_no_mark_no_draw),
      TU_TEST(test_wred_above_kmax_all_marked_no_draw),
      TU_TEST(test_wred_draws_match_independent_lfsr),
      TU_TEST(test_wred_between_rate_within_binomial_bound),
      TU_TEST(test_ecn_not_ect_never_marked),
      TU_TEST(test_ecn_ce_stays_ce),
      TU_TEST(test_ecn_mask_limits_marking_to_its_priorities),
      TU_TEST(test_ecn_mark_sets_every_block),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
