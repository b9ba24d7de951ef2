/*
 * test_latsum.c - the latency series of sim/src/latsum.c keep what latsum.h promises while
 * they change width: samples kept in 2 bytes until one passes 65 535, counts in 1 byte until
 * one passes 255, then 2, then 4. Each test holds every sample itself and checks the series
 * against it: the samples in order while they are kept (the digest of engine.c hashes them),
 * the count of every bucket afterwards, and the nearest-rank percentiles, which are exact for
 * values below LATSUM_EXACT (one bucket per cycle there). And latsum_pct, which finds the
 * nearest-rank percentile of a raw series by selection (reordering a copy), not by sorting:
 * against the value a sort puts at that rank, over many series of random length and spread
 * (many equal values, all distinct, sorted and reversed inputs); the series keeps its order.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "latsum.h"

/* Enough samples to take a bucket's count past 65 535 (2 bytes) into 4 bytes. */
#define MANY (70000u + LATSUM_RAW)

typedef struct {
  uint32_t *v;
  uint64_t n;
} ref_t;

static void add(latsum_t *s, ref_t *r, uint32_t v) {
  assert_int_equal(latsum_add(s, v), 0);
  r->v[r->n++] = v;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The nearest-rank percentile p of the reference's samples (all below LATSUM_EXACT, or kept). */
static uint64_t ref_pct(const ref_t *r, double p) {
  uint32_t *c = malloc(r->n * sizeof *c);
  assert_non_null(c);
  memcpy(c, r->v, r->n * sizeof *c);
  qsort(c, r->n, sizeof *c, cmp_u32);
  uint64_t rank = (uint64_t)(p / 100.0 * (double)r->n + 0.999999);
  if (rank < 1) rank = 1;
  if (rank > r->n) rank = r->n;
  uint64_t x = c[rank - 1u];
  free(c);
  return x;
}

static void check_pcts(const latsum_t *s, const ref_t *r) {
  static const double P[] = {0.0, 1.0, 25.0, 50.0, 90.0, 99.0, 99.9, 100.0};
  for (size_t i = 0; i < sizeof P / sizeof P[0]; i++)
    assert_int_equal(latsum_pct(s, P[i]), ref_pct(r, P[i]));
  assert_int_equal(s->n, r->n);
  uint64_t sum = 0; /* exact, for the mean, however the samples are kept */
  for (uint64_t j = 0; j < r->n; j++) sum += r->v[j];
  assert_int_equal(s->sum, sum);
}

/* While kept, the samples read back in order, before and after one passes 16 bits. */
static void test_samples_kept_in_order_across_widening(void **state) {
  (void)state;
  latsum_t s = {0};
  ref_t r = {calloc(LATSUM_RAW, sizeof(uint32_t)), 0};
  assert_non_null(r.v);
  for (uint32_t i = 0; i < 300; i++) add(&s, &r, (i * 37u) % 1000u);
  assert_int_equal(s.w, 2);
  add(&s, &r, 100000u); /* past 65 535: 4 bytes from here */
  assert_int_equal(s.w, 4);
  for (uint32_t i = 0; r.n < LATSUM_RAW; i++) add(&s, &r, (i * 91u) % 3000u);
  assert_true(latsum_is_raw(&s));
  for (uint64_t j = 0; j < r.n; j++) assert_int_equal(latsum_sample(&s, j), r.v[j]);
  assert_int_equal(latsum_pct(&s, 100.0), 100000u);
  assert_int_equal(latsum_pct(&s, 50.0), ref_pct(&r, 50.0));
  latsum_free(&s);
  free(r.v);
}

/* Counts of one bucket go past 255 and 65 535; every bucket's count and the percentiles stay
 * those of the samples. */
static void test_counts_widen_and_stay_exact(void **state) {
  (void)state;
  latsum_t s = {0};
  ref_t r = {calloc(MANY + 1000u, sizeof(uint32_t)), 0};
  assert_non_null(r.v);
  for (uint32_t i = 0; i < LATSUM_RAW; i++) add(&s, &r, 100u + i % 200u); /* counts about 5 */
  add(&s, &r, 150u);
  assert_false(latsum_is_raw(&s));
  assert_int_equal(s.w, 1);
  for (uint32_t i = 0; i < 300; i++) add(&s, &r, 7u); /* bucket 7 past 255 */
  assert_int_equal(s.w, 2);
  check_pcts(&s, &r);
  while (r.n < MANY) add(&s, &r, 7u); /* and past 65 535 */
  assert_int_equal(s.w, 4);
  add(&s, &r, 4000u); /* a new bucket beyond the others */
  uint32_t *count = calloc(LATSUM_EXACT, sizeof *count);
  assert_non_null(count);
  for (uint64_t j = 0; j < r.n; j++) count[r.v[j]]++;
  for (uint32_t b = 0; b < LATSUM_EXACT; b++)
    assert_int_equal(b < s.nv ? latsum_count(&s, b) : 0u, count[b]);
  check_pcts(&s, &r);
  free(count);
  latsum_free(&s);
  free(r.v);
}

/* A merge of a kept series (one sample in 4 bytes) and a counted one gives the percentiles of
 * all their samples. */
static void test_merge_of_both_kinds(void **state) {
  (void)state;
  latsum_t a = {0}, b = {0}, all = {0};
  ref_t ra = {calloc(2u * LATSUM_RAW, sizeof(uint32_t)), 0};
  ref_t rb = {calloc(2u * LATSUM_RAW, sizeof(uint32_t)), 0};
  assert_non_null(ra.v);
  assert_non_null(rb.v);
  for (uint32_t i = 0; i < 500; i++) add(&a, &ra, 10u + i % 50u);
  for (uint32_t i = 0; i < 2u * LATSUM_RAW - 1u; i++) add(&b, &rb, 20u + (i * 7u) % 900u);
  assert_int_equal(latsum_merge(&all, &a), 0);
  assert_int_equal(latsum_merge(&all, &b), 0);
  ref_t r = {calloc(ra.n + rb.n, sizeof(uint32_t)), 0};
  assert_non_null(r.v);
  memcpy(r.v, ra.v, ra.n * sizeof *r.v);
  memcpy(r.v + ra.n, rb.v, rb.n * sizeof *r.v);
  r.n = ra.n + rb.n;
  check_pcts(&all, &r);
  assert_int_equal(all.sum, a.sum + b.sum);
  latsum_free(&a);
  latsum_free(&b);
  latsum_free(&all);
  free(ra.v);
  free(rb.v);
  free(r.v);
}

#define SERIES 3000u
#define LCG_MUL 6364136223846793005ull /* Knuth's MMIX LCG */
#define LCG_ADD 1442695040888963407ull

static uint64_t lcg_state = 1u;
static uint32_t rnd(void) {
  lcg_state = lcg_state * LCG_MUL + LCG_ADD;
  return (uint32_t)(lcg_state >> 33);
}

static void test_pct_equals_sort(void **state) {
  (void)state;
  static const double pcts[] = {0.1, 1, 25, 50, 90, 99, 99.9};
  static uint32_t v[LATSUM_RAW], sorted[LATSUM_RAW];
  for (uint32_t it = 0; it < SERIES; it++) {
    uint32_t n = 1u + rnd() % LATSUM_RAW;
    uint32_t spread = it % 3u == 0 ? 2u : it % 3u == 1 ? 40u : 1000000u;
    latsum_t s;
    memset(&s, 0, sizeof s);
    for (uint32_t i = 0; i < n; i++) {
      v[i] = it % 7u == 0 ? i : it % 7u == 1 ? n - i : rnd() % spread;
      assert_int_equal(latsum_add(&s, v[i]), 0);
    }
    memcpy(sorted, v, n * sizeof *v);
    qsort(sorted, n, sizeof *sorted, cmp_u32);
    for (size_t q = 0; q < sizeof pcts / sizeof pcts[0]; q++) {
      uint64_t rank = (uint64_t)(pcts[q] / 100.0 * (double)n + 0.999999);
      if (rank < 1) rank = 1;
      if (rank > n) rank = n;
      assert_int_equal(latsum_pct(&s, pcts[q]), sorted[rank - 1u]);
    }
    for (uint32_t i = 0; i < n; i++) /* the series keeps its order */
      assert_int_equal(latsum_sample(&s, i), v[i]);
    latsum_free(&s);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_samples_kept_in_order_across_widening),
      cmocka_unit_test(test_counts_widen_and_stay_exact),
      cmocka_unit_test(test_merge_of_both_kinds),
      cmocka_unit_test(test_pct_equals_sort),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
