/*
 * test_latsum.c - the percentiles of sim/src/latsum.c's raw series against a full sort.
 *
 * latsum_pct finds the nearest-rank percentile of a series of up to LATSUM_RAW samples by
 * selection (reordering a copy), not by sorting: checked here against the value a sort puts at
 * that rank, over many series of random length and spread (many equal values, all distinct,
 * sorted and reversed inputs), and that the series keeps its order.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "latsum.h"

#define SERIES 3000u
#define LCG_MUL 6364136223846793005ull /* Knuth's MMIX LCG */
#define LCG_ADD 1442695040888963407ull

static uint64_t lcg_state = 1u;
static uint32_t rnd(void) {
  lcg_state = lcg_state * LCG_MUL + LCG_ADD;
  return (uint32_t)(lcg_state >> 33);
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
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
    assert_memory_equal(s.v, v, n * sizeof *v); /* the series keeps its order */
    latsum_free(&s);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_pct_equals_sort)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
