/*
 * wire_testutil.h - a seeded random generator for the wire-format property tests
 * (test_wire_*.c). The seed is fixed and printed, so a failure reproduces exactly.
 */
#ifndef LFC_WIRE_TESTUTIL_H
#define LFC_WIRE_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>

/* xorshift64* (Vigna 2016): small, fast, and the same on every platform. */
static inline uint64_t wt_next(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1DULL;
}

/* A uniform value in [0, n) (n > 0; the tiny modulo bias does not matter for tests). */
static inline uint32_t wt_below(uint64_t *s, uint32_t n) {
  return (uint32_t)((wt_next(s) >> 32) % n);
}

/* Start a generator from seed and say so on stdout, for reproduction. */
static inline uint64_t wt_seed(const char *test, uint64_t seed) {
  printf("%s: seed 0x%016llx\n", test, (unsigned long long)seed);
  return seed;
}

#endif /* LFC_WIRE_TESTUTIL_H */
