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

/* The first allocation of samples kept, and its growth: by nv / RAW_GROWTH_DIV. */
#define RAW_FIRST_CAP 64u
#define RAW_GROWTH_DIV 4u

/* The largest count of a bucket of 1 and of 2 bytes: one more widens the counts. */
#define COUNT_MAX_1 UINT8_MAX
#define COUNT_MAX_2 UINT16_MAX

static void set_count(latsum_t *s, uint32_t b, uint32_t c) {
  if (s->w == 1u)
    ((uint8_t *)s->v)[b] = (uint8_t)c;
  else if (s->w == 2u)
    ((uint16_t *)s->v)[b] = (uint16_t)c;
  else
    ((uint32_t *)s->v)[b] = c;
}

/* The counts in w bytes each, over nb buckets (>= nv; the new ones 0). 0 or -1 (s unchanged). */
static int recount(latsum_t *s, uint8_t w, uint32_t nb) {
  if (w == s->w) {
    uint8_t *c = realloc(s->v, (size_t)nb * w);
    if (c == NULL) return -1;
    memset(c + (size_t)s->nv * w, 0, (size_t)(nb - s->nv) * w);
    s->v = c;
    s->nv = nb;
    return 0;
  }
  latsum_t t = {calloc(nb, w), nb, s->max, s->n, s->sum, w};
  if (t.v == NULL) return -1;
  for (uint32_t b = 0; b < s->nv; b++) set_count(&t, b, latsum_count(s, b));
  free(s->v);
  *s = t;
  return 0;
}

/* The LATSUM_RAW samples kept, and v, as counts per bucket, as narrow as the largest count
 * allows. 0 or -1 (s unchanged). */
static int to_counts(latsum_t *s, uint32_t v) {
  uint32_t big = v;
  for (uint32_t i = 0; i < LATSUM_RAW; i++)
    if (latsum_sample(s, i) > big) big = latsum_sample(s, i);
  uint32_t nb = bucket(big) + 1u;
  latsum_t t = {calloc(nb, sizeof(uint32_t)), nb, 0, 0, 0, sizeof(uint32_t)};
  if (t.v == NULL) return -1;
  uint32_t *c = t.v, top = 0;
  for (uint32_t i = 0; i < LATSUM_RAW; i++) c[bucket(latsum_sample(s, i))]++;
  c[bucket(v)]++;
  for (uint32_t b = 0; b < nb; b++)
    if (c[b] > top) top = c[b];
  uint8_t w = top <= COUNT_MAX_1 ? 1u : top <= COUNT_MAX_2 ? 2u : 4u;
  if (w != t.w && recount(&t, w, nb) != 0) {
    free(t.v);
    return -1;
  }
  free(s->v);
  s->v = t.v;
  s->nv = nb;
  s->w = t.w;
  return 0;
}

int latsum_add_any(latsum_t *s, uint32_t v) {
  if (s->n < LATSUM_RAW) {
    if (s->w == 0) s->w = sizeof(uint16_t);
    if (s->w == sizeof(uint16_t) && v > UINT16_MAX) { /* the samples in 4 bytes from now */
      uint32_t *r = malloc((size_t)(s->nv ? s->nv : 1u) * sizeof *r);
      if (r == NULL) return -1;
      for (uint64_t j = 0; j < s->n; j++) r[j] = latsum_sample(s, j);
      free(s->v);
      s->v = r;
      s->w = sizeof(uint32_t);
    }
    if (s->n == s->nv) {
      /* a quarter more, up to LATSUM_RAW: most series of a run stop short of it */
      uint32_t cap = s->nv ? s->nv + s->nv / RAW_GROWTH_DIV : RAW_FIRST_CAP;
      if (cap > LATSUM_RAW) cap = LATSUM_RAW;
      void *r = realloc(s->v, (size_t)cap * s->w);
      if (r == NULL) return -1;
      s->v = r;
      s->nv = cap;
    }
    if (s->w == sizeof(uint16_t))
      ((uint16_t *)s->v)[s->n] = (uint16_t)v;
    else
      ((uint32_t *)s->v)[s->n] = v;
  } else if (s->n == LATSUM_RAW) {
    if (to_counts(s, v) != 0) return -1;
  } else {
    uint32_t b = bucket(v);
    if (b >= s->nv && recount(s, s->w, b + 1u) != 0) return -1;
    uint32_t c = latsum_count(s, b);
    if (c == UINT32_MAX) return -1;
    if ((s->w == 1u && c == COUNT_MAX_1) || (s->w == 2u && c == COUNT_MAX_2))
      if (recount(s, (uint8_t)(s->w * 2u), s->nv) != 0) return -1;
    set_count(s, b, c + 1u);
  }
  latsum_tally(s, v);
  return 0;
}

double latsum_mean(const latsum_t *s) { return s->n ? (double)s->sum / (double)s->n : 0.0; }

int latsum_merge(latsum_t *dst, const latsum_t *src) {
  uint64_t sum = dst->sum + src->sum;
  if (latsum_is_raw(src)) {
    for (uint64_t i = 0; i < src->n; i++)
      if (latsum_add(dst, latsum_sample(src, i)) != 0) return -1;
  } else {
    for (uint32_t b = 0; b < src->nv; b++) {
      uint64_t hi = bucket_hi(b);
      uint32_t v = hi < src->max ? (uint32_t)hi : src->max;
      for (uint32_t k = 0, c = latsum_count(src, b); k < c; k++)
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
    for (uint64_t j = 0; j < s->n; j++) c[j] = latsum_sample(s, j);
    return select_kth(c, (int32_t)s->n, (int32_t)(rank - 1u));
  }
  uint64_t seen = 0;
  for (uint32_t b = 0; b < s->nv; b++) {
    seen += latsum_count(s, b);
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
