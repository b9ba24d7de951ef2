/*
 * test_rules.c - the pure arithmetic rules of cmodel/src/lfc_rules.h, one test per corner of
 * docs/SPEC.md. Expected values are worked out by hand from the SPEC formulas (shown in the
 * comments) or from an independent implementation written here.
 */
#include "testutil.h"

#include <stdlib.h>

#include "../src/lfc_rules.h"

/* ---- §5.3 send rule: CR = (fctbs + n) mod 4096; allowed iff (fccl - CR) mod 4096 <= 2048 ---- */

/* SPEC §5.3: with nothing outstanding and FCCL = FCTBS + 2048, a packet of 2048 blocks is allowed
 * (CR = 2048, fccl - CR = 0) and one of 2049 is not (fccl - CR = -1 = 4095 > 2048). */
static void test_send_rule_boundary_2048(void **state) {
  (void)state;
  assert_true(lfc_rule_send_ok(0, 2048, 2048));
  assert_false(lfc_rule_send_ok(0, 2048, 2049));
  /* The same 2048-block window from any starting point: fctbs 1000, fccl 3048. */
  assert_true(lfc_rule_send_ok(1000, 3048, 2048));
  assert_false(lfc_rule_send_ok(1000, 3048, 2049));
}

/* SPEC §5.3: a packet that uses the credit exactly (CR = fccl) is allowed; one block more is not. */
static void test_send_rule_exact_credit(void **state) {
  (void)state;
  assert_true(lfc_rule_send_ok(100, 110, 10));  /* CR 110, diff 0 */
  assert_false(lfc_rule_send_ok(100, 109, 10)); /* CR 110, diff -1 = 4095 */
  assert_true(lfc_rule_send_ok(0, 65, 65));
  assert_false(lfc_rule_send_ok(0, 64, 65));
}

/* SPEC §5.3: the half-space boundary of the difference itself: fccl - CR = 2048 is allowed,
 * 2049 is read as "2047 behind" and refused (a limit more than 2048 ahead is never usable). */
static void test_send_rule_fccl_more_than_2048_ahead_refused(void **state) {
  (void)state;
  assert_true(lfc_rule_send_ok(0, 2049, 1));   /* CR 1, diff 2048 */
  assert_false(lfc_rule_send_ok(0, 2050, 1));  /* CR 1, diff 2049 */
  assert_false(lfc_rule_send_ok(0, 3000, 1));  /* diff 2999 */
}

/* SPEC §5.3: the rule across the 4095 -> 0 wrap: fctbs 4090 + 10 = 4100 mod 4096 = 4 = fccl. */
static void test_send_rule_across_wrap(void **state) {
  (void)state;
  assert_true(lfc_rule_send_ok(4090, 4, 10));
  assert_false(lfc_rule_send_ok(4090, 4, 11)); /* CR 5, diff 4095 */
  assert_true(lfc_rule_send_ok(4095, 0, 1));   /* CR 0 = fccl */
  assert_false(lfc_rule_send_ok(4095, 4095, 1)); /* CR 0, diff 4095 */
}

/* SPEC §5.1, §5.3: FCTBS (and ABR) are 12-bit counters: 4095 + 1 = 0. */
static void test_fctbs_wraps_at_4096(void **state) {
  (void)state;
  assert_int_equal(lfc_rule_credit_add(4095, 1), 0);
  assert_int_equal(lfc_rule_credit_add(4094, 1), 4095);
  assert_int_equal(lfc_rule_credit_add(4000, 200), 104); /* 4200 - 4096 */
  assert_int_equal(lfc_rule_credit_add(17, 4096), 17);
}

/* SPEC §5.4: FCCL = abr + min(free, 2048): the grant is capped at 2048. */
static void test_fccl_cap_at_abr_plus_2048(void **state) {
  (void)state;
  assert_int_equal(lfc_rule_fccl(0, 2047), 2047);
  assert_int_equal(lfc_rule_fccl(0, 2048), 2048);
  assert_int_equal(lfc_rule_fccl(0, 2049), 2048);
  assert_int_equal(lfc_rule_fccl(0, 65535), 2048);
  assert_int_equal(lfc_rule_fccl(100, 65535), 2148);
  assert_int_equal(lfc_rule_fccl(100, 0), 100); /* no free blocks: no new credit */
}

/* SPEC §5.4: FCCL is mod 4096: abr 2047 + 2048 = 4095; abr 2048 + 2048 = 4096 -> 0. */
static void test_fccl_wraps_at_4096(void **state) {
  (void)state;
  assert_int_equal(lfc_rule_fccl(2047, 4096), 4095);
  assert_int_equal(lfc_rule_fccl(2048, 4096), 0);
  assert_int_equal(lfc_rule_fccl(4000, 256), 160); /* 4256 - 4096 */
  assert_int_equal(lfc_rule_fccl(4095, 1), 0);
}

/* ---- §6.2 dynamic threshold T = 2^alpha_log2 * (shared_blocks - shared_used) ---- */

/* SPEC §6.2: a negative alpha_log2 is a right shift, i.e. floor: 101 / 2 = 50 (not 51). */
static void test_dynamic_th_alpha_negative_floors(void **state) {
  (void)state;
  assert_int_equal(lfc_rule_dynamic_th(101, 0, -1), 50);
  assert_int_equal(lfc_rule_dynamic_th(100, 50, -1), 25);
  assert_int_equal(lfc_rule_dynamic_th(1024, 24, -2), 250); /* 1000 / 4 */
  assert_int_equal(lfc_rule_dynamic_th(255, 0, -7), 1);     /* 255 / 128 */
  assert_int_equal(lfc_rule_dynamic_th(127, 0, -7), 0);
}

/* SPEC §6.2: a positive alpha_log2 is a left shift, saturated at 2^20 - 1. */
static void test_dynamic_th_alpha_positive_saturates(void **state) {
  (void)state;
  assert_int_equal(lfc_rule_dynamic_th(100, 40, 1), 120);         /* 2 * 60 */
  assert_int_equal(lfc_rule_dynamic_th(8191, 0, 7), 8191u * 128u); /* 1048448 < 2^20 */
  assert_int_equal(lfc_rule_dynamic_th(8192, 0, 7), (1u << 20) - 1u); /* 2^20 saturates */
  assert_int_equal(lfc_rule_dynamic_th((1u << 20) - 1u, 0, 7), (1u << 20) - 1u);
}

/* SPEC §6.2: alpha = 1 gives the free shared space itself; a full pool gives 0. */
static void test_dynamic_th_alpha_zero_is_free_space(void **state) {
  (void)state;
  assert_int_equal(lfc_rule_dynamic_th(1024, 1000, 0), 24);
  assert_int_equal(lfc_rule_dynamic_th(10, 10, 0), 0);
}

/* ---- §6.5 XOFF / XON conditions ---- */

/* SPEC §6.5: xoff_cond = pg_hdrm > 0 or (pg_shared > 0 and pg_shared >= T): 15 < 16 no, 16 yes. */
static void test_xoff_cond_crossing(void **state) {
  (void)state;
  assert_false(lfc_rule_xoff_cond(15, 0, 16));
  assert_true(lfc_rule_xoff_cond(16, 0, 16));
  assert_true(lfc_rule_xoff_cond(0, 1, 1000)); /* any headroom use */
  assert_false(lfc_rule_xoff_cond(0, 0, 0));   /* T = 0: an empty PG stays on (no livelock) */
  assert_true(lfc_rule_xoff_cond(1, 0, 0));    /* T = 0 and any shared use: xoff */
}

/* SPEC §6.5: xoff_cond and xon_cond never hold together (xon_offset >= 1), over a grid. */
static void test_xoff_and_xon_cond_exclusive(void **state) {
  (void)state;
  for (uint32_t th = 0; th < 24; th++)
    for (uint32_t sh = 0; sh < 24; sh++)
      for (uint32_t hd = 0; hd < 3; hd++)
        for (uint32_t off = 1; off < 4; off++)
          assert_false(lfc_rule_xoff_cond(sh, hd, th) && lfc_rule_xon_cond(sh, hd, th, off));
}

/* SPEC §6.5: xon_cond = pg_hdrm = 0 and (pg_shared = 0 or pg_shared + xon_offset <= T):
 * with T 16 and offset 4, XON at 12 and not at 13. */
static void test_xon_hysteresis_xon_offset(void **state) {
  (void)state;
  assert_true(lfc_rule_xon_cond(12, 0, 16, 4));
  assert_false(lfc_rule_xon_cond(13, 0, 16, 4));
  assert_false(lfc_rule_xon_cond(0, 1, 16, 4)); /* headroom in use */
  assert_true(lfc_rule_xon_cond(0, 0, 0, 8));   /* empty PG: XON even with T = 0 */
  assert_false(lfc_rule_xon_cond(1, 0, 0, 8));
  /* at the widest values: (2^20 - 1) + 65535 > 2^20 - 1 */
  assert_false(lfc_rule_xon_cond((1u << 20) - 1u, 0, (1u << 20) - 1u, 65535u));
  assert_true(lfc_rule_xon_cond((1u << 20) - 65536u, 0, (1u << 20) - 1u, 65535u));
}

/* ---- §9.3 LFSR ---- */

/* Independent LFSR written from the SPEC text bit by bit: shift right, and if the bit shifted
 * out was 1 toggle the tap bits 31, 21, 1 and 0 (mask 0x80200003 = x^32 + x^22 + x^2 + x + 1). */
static uint32_t ref_lfsr_step(uint32_t x) {
  uint8_t b[32];
  for (int i = 0; i < 32; i++) b[i] = (uint8_t)((x >> i) & 1u);
  uint8_t out = b[0];
  for (int i = 0; i < 31; i++) b[i] = b[i + 1];
  b[31] = 0;
  if (out) {
    b[31] ^= 1u;
    b[21] ^= 1u;
    b[1] ^= 1u;
    b[0] ^= 1u;
  }
  uint32_t y = 0;
  for (int i = 0; i < 32; i++) y |= (uint32_t)b[i] << i;
  return y;
}

/* SPEC §9.3: reset value seed XOR (0x9E3779B9 * (p + 1)) mod 2^32, 1 if that is 0. */
static void test_lfsr_seed_per_port(void **state) {
  (void)state;
  assert_int_equal(lfc_rule_lfsr_seed(1, 0), 0x9E3779B8u);
  assert_int_equal(lfc_rule_lfsr_seed(1, 1), 0x3C6EF373u); /* 2 * 0x9E3779B9 = 0x13C6EF372 */
  assert_int_equal(lfc_rule_lfsr_seed(1, 2), 0xDAA66D2Au); /* 3 * ... = 0x1DAA66D2B */
  assert_int_equal(lfc_rule_lfsr_seed(0x9E3779B9u, 0), 1u); /* zero replaced by 1 */
  assert_int_equal(lfc_rule_lfsr_seed(0x3C6EF372u, 1), 1u);
}

/* SPEC §9.3: the first values from seed 1, port 0 (state 0x9E3779B8) agree with the independent
 * bitwise implementation above and with values worked out by hand/Python. */
static void test_lfsr_first_values_match_independent_implementation(void **state) {
  (void)state;
  static const uint32_t expect[8] = {0x4f1bbcdcu, 0x278dde6eu, 0x13c6ef37u, 0x89c37798u,
                                     0x44e1bbccu, 0x2270dde6u, 0x11386ef3u, 0x88bc377au};
  uint32_t x = 0x9E3779B8u, y = x;
  for (int i = 0; i < 8; i++) {
    x = lfc_rule_lfsr_step(x);
    y = ref_lfsr_step(y);
    assert_int_equal(y, expect[i]);
    assert_int_equal(x, y);
  }
  /* and many more against the independent implementation, from another seed */
  x = y = 0xDEADBEEFu;
  for (int i = 0; i < 10000; i++) {
    x = lfc_rule_lfsr_step(x);
    y = ref_lfsr_step(y);
    if (x != y) fail_msg("step %d: rule 0x%08x, reference 0x%08x", i, x, y);
  }
}

/* SPEC §9.3: a draw is 16 steps and returns the low 16 bits of the new value. */
static void test_lfsr_draw_is_16_steps_low_16_bits(void **state) {
  (void)state;
  /* seed 1 port 0: after 16 steps 0x7e973c36 (low 16 bits 15414), after 32 0x64137c16 (31766) */
  uint32_t x = 0x9E3779B8u;
  assert_int_equal(lfc_rule_lfsr_draw(&x), 15414);
  assert_int_equal(x, 0x7e973c36u);
  assert_int_equal(lfc_rule_lfsr_draw(&x), 31766);
  assert_int_equal(x, 0x64137c16u);
  uint32_t y = 0x12345678u, z = y;
  for (int i = 0; i < 16; i++) z = ref_lfsr_step(z);
  assert_int_equal(lfc_rule_lfsr_draw(&y), z & 0xFFFFu);
  assert_int_equal(y, z);
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* SPEC §9.3 (maximal length, small scale): the first 10^5 states from seed 1 are distinct and
 * never 0. */
static void test_lfsr_no_repeat_in_first_100000_states(void **state) {
  (void)state;
  enum { N = 100000 };
  uint32_t *v = malloc(N * sizeof *v);
  assert_non_null(v);
  uint32_t x = lfc_rule_lfsr_seed(1, 0);
  for (int i = 0; i < N; i++) {
    v[i] = x;
    x = lfc_rule_lfsr_step(x);
  }
  qsort(v, N, sizeof *v, cmp_u32);
  int dup = -1;
  for (int i = 1; i < N; i++) {
    if (v[i] == v[i - 1]) dup = i;
  }
  uint32_t first = v[0];
  free(v);
  assert_int_equal(dup, -1);
  assert_true(first != 0u);
}

/* 32x32 matrices over GF(2), stored as columns: m[j] = image of basis vector e_j. */
typedef struct {
  uint32_t col[32];
} gf2m_t;

static uint32_t gf2m_apply(const gf2m_t *m, uint32_t v) {
  uint32_t r = 0;
  for (int j = 0; j < 32; j++) {
    if (v & (1u << j)) r ^= m->col[j];
  }
  return r;
}

static gf2m_t gf2m_mul(const gf2m_t *a, const gf2m_t *b) {
  gf2m_t r;
  for (int j = 0; j < 32; j++) r.col[j] = gf2m_apply(a, b->col[j]);
  return r;
}

static gf2m_t gf2m_pow(const gf2m_t *a, uint64_t e) {
  gf2m_t r, base = *a;
  for (int j = 0; j < 32; j++) r.col[j] = 1u << j;
  while (e) {
    if (e & 1u) r = gf2m_mul(&r, &base);
    base = gf2m_mul(&base, &base);
    e >>= 1;
  }
  return r;
}

static bool gf2m_is_identity(const gf2m_t *m) {
  for (int j = 0; j < 32; j++) {
    if (m->col[j] != (1u << j)) return false;
  }
  return true;
}

/* SPEC §9.3: "a maximal-length polynomial". The step is linear, x' = A x. Its order is exactly
 * 2^32 - 1 = 3 * 5 * 17 * 257 * 65537 iff A^(2^32-1) = I and A^((2^32-1)/q) != I for each prime
 * q; an order divisible by 65537 forces an irreducible degree-32 minimal polynomial, so every
 * nonzero state then has period 2^32 - 1. */
static void test_lfsr_period_is_maximal(void **state) {
  (void)state;
  gf2m_t a;
  for (int j = 0; j < 32; j++) a.col[j] = lfc_rule_lfsr_step(1u << j);
  const uint64_t order = 0xFFFFFFFFull;
  gf2m_t full = gf2m_pow(&a, order);
  assert_true(gf2m_is_identity(&full));
  static const uint64_t primes[5] = {3, 5, 17, 257, 65537};
  for (int i = 0; i < 5; i++) {
    gf2m_t part = gf2m_pow(&a, order / primes[i]);
    if (gf2m_is_identity(&part)) fail_msg("period divides (2^32-1)/%llu", (unsigned long long)primes[i]);
  }
}

/* ---- §9.1, §9.2 WRED ---- */

/* SPEC §9.2: q <= kmin no mark; kmin < q <= kmax draw; q > kmax mark. */
static void test_wred_zone_boundaries(void **state) {
  (void)state;
  assert_int_equal(lfc_rule_wred_zone(16, 16, 64), LFC_WRED_NO_MARK);
  assert_int_equal(lfc_rule_wred_zone(0, 16, 64), LFC_WRED_NO_MARK);
  assert_int_equal(lfc_rule_wred_zone(17, 16, 64), LFC_WRED_DRAW);
  assert_int_equal(lfc_rule_wred_zone(64, 16, 64), LFC_WRED_DRAW);
  assert_int_equal(lfc_rule_wred_zone(65, 16, 64), LFC_WRED_MARK);
  assert_int_equal(lfc_rule_wred_zone(1, 0, 1), LFC_WRED_DRAW);
}

/* SPEC §9.2: mark iff r * (kmax - kmin) < pmax * (q - kmin). kmin 16, kmax 64, pmax 655, q 40:
 * 655 * 24 = 15720; r * 48 < 15720 iff r <= 327. */
static void test_wred_draw_threshold_exact(void **state) {
  (void)state;
  assert_true(lfc_rule_wred_draw_marks(327, 40, 16, 64, 655));
  assert_false(lfc_rule_wred_draw_marks(328, 40, 16, 64, 655));
  assert_false(lfc_rule_wred_draw_marks(0, 40, 16, 64, 0)); /* pmax 0 never marks */
  /* pmax 65536 at q = kmax: r * d < 65536 * d for every 16-bit r */
  assert_true(lfc_rule_wred_draw_marks(65535, 64, 16, 64, 65536));
}

/* SPEC §9.2: "exact integer arithmetic, 64-bit": 65535 * (2^20 - 1) does not fit 32 bits. */
static void test_wred_draw_uses_64_bit_products(void **state) {
  (void)state;
  uint32_t kmax = (1u << 20) - 1u;
  assert_true(lfc_rule_wred_draw_marks(65535, kmax, 0, kmax, 65536));
  assert_false(lfc_rule_wred_draw_marks(65535, 1, 0, kmax, 65536)); /* 65535*kmax >= 65536 */
  assert_true(lfc_rule_wred_draw_marks(0, 1, 0, kmax, 1));
}

/* SPEC §9.1: only ECT(1) = 01 and ECT(0) = 10 are marked; Not-ECT never, CE stays. */
static void test_ecn_markable_codepoints(void **state) {
  (void)state;
  assert_false(lfc_rule_ecn_markable(LFC_ECN_NOT_ECT));
  assert_true(lfc_rule_ecn_markable(LFC_ECN_ECT1));
  assert_true(lfc_rule_ecn_markable(LFC_ECN_ECT0));
  assert_false(lfc_rule_ecn_markable(LFC_ECN_CE));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_send_rule_boundary_2048),
      cmocka_unit_test(test_send_rule_exact_credit),
      cmocka_unit_test(test_send_rule_fccl_more_than_2048_ahead_refused),
      cmocka_unit_test(test_send_rule_across_wrap),
      cmocka_unit_test(test_fctbs_wraps_at_4096),
      cmocka_unit_test(test_fccl_cap_at_abr_plus_2048),
      cmocka_unit_test(test_fccl_wraps_at_4096),
      cmocka_unit_test(test_dynamic_th_alpha_negative_floors),
      cmocka_unit_test(test_dynamic_th_alpha_positive_saturates),
      cmocka_unit_test(test_dynamic_th_alpha_zero_is_free_space),
      cmocka_unit_test(test_xoff_cond_crossing),
      cmocka_unit_test(test_xoff_and_xon_cond_exclusive),
      cmocka_unit_test(test_xon_hysteresis_xon_offset),
      cmocka_unit_test(test_lfsr_seed_per_port),
      cmocka_unit_test(test_lfsr_first_values_match_independent_implementation),
      cmocka_unit_test(test_lfsr_draw_is_16_steps_low_16_bits),
      cmocka_unit_test(test_lfsr_no_repeat_in_first_100000_states),
      cmocka_unit_test(test_lfsr_period_is_maximal),
      cmocka_unit_test(test_wred_zone_boundaries),
      cmocka_unit_test(test_wred_draw_threshold_exact),
      cmocka_unit_test(test_wred_draw_uses_64_bit_products),
      cmocka_unit_test(test_ecn_markable_codepoints),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
