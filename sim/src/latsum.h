/*
 * latsum.h - a latency series (cycles, one sample per packet) in bounded memory, for its
 * nearest-rank percentiles (docs/sim.md "Memory").
 *
 * The first LATSUM_RAW samples are kept as they come, so a series of up to that many packets
 * gives the percentiles of its samples exactly. With more, the samples are counted per bucket:
 * one bucket per value below LATSUM_EXACT cycles (exact), above it LATSUM_SUB buckets per
 * power of two, each a range of width value / LATSUM_SUB at most; a percentile that falls in
 * such a bucket is its upper end, capped at the largest sample (exact), so it is at most
 * 1/LATSUM_SUB (0.2 %) above the sample's own value and never below it. The bucket array
 * grows only to the bucket of the largest sample: at most LATSUM_MAX_BUCKETS * 4 bytes.
 *
 * A sample kept takes 2 bytes until one passes 65 535 cycles, then 4; a count takes 1 byte
 * until one would pass 255, then 2, then 4 (a series of a few thousand samples spread over
 * hundreds of one-cycle buckets seldom needs more than a byte, and a fabric has several series
 * per flow). Exact all the same: only the width changes.
 *
 * 40 bytes per series, plus at most 4 KiB (samples) or 56 KiB (buckets). The sum of the
 * samples is kept exactly, for the mean.
 */
#ifndef LFC_SIM_LATSUM_H
#define LFC_SIM_LATSUM_H

#include <stdint.h>

#define LATSUM_RAW 1024u              /* samples kept as they come: 4 KiB */
#define LATSUM_EXACT_BITS 12u         /* values below 4096 cycles counted exactly */
#define LATSUM_SUB_BITS 9u            /* 512 buckets per power of two above */
#define LATSUM_EXACT (1u << LATSUM_EXACT_BITS)
#define LATSUM_SUB (1u << LATSUM_SUB_BITS)
#define LATSUM_MAX_BUCKETS (LATSUM_EXACT + (32u - LATSUM_EXACT_BITS) * LATSUM_SUB) /* 56 KiB */

typedef struct {
  void *v;      /* n <= LATSUM_RAW: the samples in order (latsum_sample); else the samples
                   per bucket (latsum_count); `w` bytes each */
  uint32_t nv;  /* entries allocated in v: samples, or buckets (to the largest sample's) */
  uint32_t max; /* the largest sample */
  uint64_t n;   /* samples */
  uint64_t sum; /* of the samples, exact (2^32 samples of at most 2^32 - 1 fit) */
  uint8_t w;    /* bytes per sample (2 or 4) or count (1, 2 or 4); 0 before the first */
} latsum_t;

/* True while v holds the samples themselves (in the order they came). */
static inline int latsum_is_raw(const latsum_t *s) { return s->n <= LATSUM_RAW; }

/* Sample j (< n) of a series that keeps them (latsum_is_raw). */
static inline uint32_t latsum_sample(const latsum_t *s, uint64_t j) {
  return s->w == 2u ? ((const uint16_t *)s->v)[j] : ((const uint32_t *)s->v)[j];
}

/* The samples in bucket b (< nv) of a series that counts them (not latsum_is_raw). */
static inline uint32_t latsum_count(const latsum_t *s, uint32_t b) {
  if (s->w == 1u) return ((const uint8_t *)s->v)[b];
  if (s->w == 2u) return ((const uint16_t *)s->v)[b];
  return ((const uint32_t *)s->v)[b];
}

/* latsum_add in every case (latsum.c). */
int latsum_add_any(latsum_t *s, uint32_t v);

/* Sample v's part in the count, the sum and the largest, once it is stored. */
static inline void latsum_tally(latsum_t *s, uint32_t v) {
  s->n++;
  s->sum += v;
  if (v > s->max) s->max = v;
}

/* One more sample. 0, or -1 if out of memory (or 2^32 samples in one bucket): the sample is
 * not counted and the series is unchanged. Inline for the common case (nearly every delivered
 * packet's and hop's sample): a series of 2-byte samples with room for one more
 * (docs/perf-log.md, 2026-12-05 midday). */
static inline int latsum_add(latsum_t *s, uint32_t v) {
  if (s->n >= s->nv || s->n >= LATSUM_RAW || s->w != sizeof(uint16_t) || v > UINT16_MAX)
    return latsum_add_any(s, v);
  ((uint16_t *)s->v)[s->n] = (uint16_t)v;
  latsum_tally(s, v);
  return 0;
}

/* The nearest-rank percentile p in [0, 100] (100: the largest sample); 0 with no samples. */
uint64_t latsum_pct(const latsum_t *s, double p);

/* The mean of the samples (exact, from sum); 0 with no samples. */
double latsum_mean(const latsum_t *s);

/* Adds every sample of src to dst, as if each had been added to dst: the samples themselves
 * while src keeps them, else each bucket's count at the bucket's upper end (capped at src's
 * largest), which lies in the same bucket of dst, so dst's percentiles are those of the union
 * within the same bound; dst's sum and largest are exact. 0, or -1 if out of memory (dst then
 * holds part of src: discard it). */
int latsum_merge(latsum_t *dst, const latsum_t *src);

void latsum_free(latsum_t *s);

#endif /* LFC_SIM_LATSUM_H */
