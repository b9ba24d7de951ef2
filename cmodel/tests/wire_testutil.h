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

/*
 * The pad of the frame a data word of nblk blocks and pad `pad` becomes (lfc_ib_pkt_from_word,
 * lfc_roce_from_word, docs/wire-formats.md §8), for a format of `over` bytes of headers and
 * trailers around a payload of 4-byte words that holds at least the 4-byte tag: the longest
 * frame of nblk blocks within 64 x nblk - pad bytes, else the shortest frame of nblk blocks. A
 * search over the lengths the format has, not the codec's arithmetic.
 */
static inline uint8_t wt_frame_pad(uint32_t nblk, uint32_t pad, uint32_t over) {
  const uint32_t block = 64u, tag = 4u, word = 4u;
  uint32_t best = 0u;
  for (uint32_t len = over + tag; len <= nblk * block; len += word) {
    if (len <= (nblk - 1u) * block) continue; /* fewer blocks */
    if (len <= nblk * block - pad || best == 0u) best = len;
    if (len > nblk * block - pad) break;
  }
  return (uint8_t)(nblk * block - best);
}

#endif /* LFC_WIRE_TESTUTIL_H */
