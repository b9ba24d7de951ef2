/*
 * latsum.c - latency series in bounded memory (latsum.h).
 */
#include "latsum.h"

#include <stdlib.h>
#include <string.h>

/* The bucket of value v: v itself below LATSUM_EXACT; above, by its top LATSUM_SUB_BITS + 1
 * bits (the layout of HdrHistogram, G. Tene). */
static uint32_t bucket(uint32_t v) {
  if (v < LATSUM_EXACT) return v;
  uint32_t m = 31u - (uint32_t)__builtin_clz(v); /* >= LATSUM_EXACT_BITS */
  uint32_t shift = m - LATSUM_SUB_BITS;
  return LATSUM_EXACT + (m - LATSUM_EXACT_BITS) * LATSUM_SUB + ((v >> shift) - LATSUM_SUB);
}

/* The largest value in bucket b. */
static uint64_t bucket_hi(uint32_t b) {
  if (b < LATSUM_EXACT) return b;
  uint32_t m = (b - LATSUM_EXACT) / LATSUM_SUB + LATSUM_EXACT_BITS;
  uint32_t shift = m - LATSUM_SUB_BITS;
  uint64_t lo = (uint64_t)((b - LATSUM_EXACT) % LATSUM_SUB + LATSUM_SUB) << shift;
  return lo + ((uint64_t)1 << shift) - 1u;
}

/* The LATSUM_RAW samples kept, and v, as counts per bucket. 0 or -1 (s unchanged). */
static int to_counts(latsum_t *s, uint32_t v) {
  uint32_t big = v;
  for (uint32_t i = 0; i < LATSUM_RAW; i++)
    if (s->v[i] > big) big = s->v[i];
  uint32_t nb = bucket(big) + 1u;
  uint32_t *c = calloc(nb, sizeof *c);
  if (c == NULL) return -1;
  for (uint32_t i = 0; i < LATSUM_RAW; i++) c[bucket(s->v[i])]++;
  c[bucket(v)]++;
  free(s->v);
  s->v = c;
  s->nv = nb;
  return 0;
}

int latsum_add(latsum_t *s, uint32_t v) {
  if (s->n < LATSUM_RAW) {
    if (s->n == s->nv) {
      uint32_t cap = s->nv ? s->nv * 2u : 64u; /* up to LATSUM_RAW, a power of two */
      uint32_t *r = realloc(s->v, (size_t)cap * sizeof *r);
      if (r == NULL) return -1;
      s->v = r;
      s->nv = cap;
    }
    s->v[s->n] = v;
  } else if (s->n == LATSUM_RAW) {
    if (to_counts(s, v) != 0) return -1;
  } else {
    uint32_t b = bucket(v);
    if (b >= s->nv) {
      uint32_t *c = realloc(s->v, (size_t)(b + 1u) * sizeof *c);
      if (c == NULL) return -1;
      memset(c + s->nv, 0, (size_t)(b + 1u - s->nv) * sizeof *c);
      s->v = c;
      s->nv = b + 1u;
    }
    if (s->v[b] == UINT32_MAX) return -1;
    s->v[b]++;
  }
  s->n++;
  s->sum += v;
  if (v > s->max) s->max = v;
  return 0;
}

double latsum_mean(const latsum_t *s) { return s->n ? (double)s->sum / (double)s->n : 0.0; }

int latsum_merge(latsum_t *dst, const latsum_t *src) {
  uint64_t sum = dst->sum + src->sum;
  if (latsum_is_raw(src)) {
    for (uint64_t i = 0; i < src->n; i++)
      if (latsum_add(dst, src->v[i]) != 0) return -1;
  } else {
    for (uint32_t b = 0; b < src->nv; b++) {
      uint64_t hi = bucket_hi(b);
      uint32_t v = hi < src->max ? (uint32_t)hi : src->max;
      for (uint32_t k = 0; k < src->v[b]; k++)
        if (latsum_add(dst, v) != 0) return -1;
    }
  }
  dst->sum = sum;
  return 0;
}

/* The k-th smallest (from 0) of v[0..n): Hoare's FIND (C. ACM 4(7), 1961; N. Wirth's form),
 * which reorders v; the value a full sort would put at k, in time linear on average. */
static uint32_t select_kth(uint32_t *v, int32_t n, int32_t k) {
  int32_t lo = 0, hi = n - 1;
  while (lo < hi) {
    uint32_t pivot = v[lo + (hi - lo) / 2];
    int32_t i = lo, j = hi;
    while (i <= j) {
      while (v[i] < pivot) i++;
      while (v[j] > pivot) j--;
      if (i <= j) {
        uint32_t t = v[i];
        v[i++] = v[j];
        v[j--] = t;
      }
    }
    /* v[lo..j] <= pivot <= v[i..hi], and every value between them equals the pivot */
    if (k <= j)
      hi = j;
    else if (k >= i)
      lo = i;
    else
      return v[k];
  }
  return v[k];
}

uint64_t latsum_pct(const latsum_t *s, double p) {
  if (s->n == 0) return 0;
  uint64_t rank = (uint64_t)(p / 100.0 * (double)s->n + 0.999999); /* nearest rank */
  if (rank < 1) rank = 1;
  if (rank > s->n) rank = s->n;
  if (rank == s->n) return s->max;
  if (latsum_is_raw(s)) {
    uint32_t c[LATSUM_RAW]; /* 4 KiB on the stack: the series keeps its order */
    memcpy(c, s->v, (size_t)s->n * sizeof *c);
    return select_kth(c, (int32_t)s->n, (int32_t)(rank - 1u));
  }
  uint64_t seen = 0;
  for (uint32_t b = 0; b < s->nv; b++) {
    seen += s->v[b];
    if (rank <= seen) {
      uint64_t hi = bucket_hi(b);
      return hi < s->max ? hi : s->max;
    }
  }
  return s->max; /* not reached: the counts sum to n */
}

void latsum_free(latsum_t *s) {
  free(s->v);
  memset(s, 0, sizeof *s);
}
