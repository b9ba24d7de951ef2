/*
 * traffic.c - the seeded traffic source of the star testbed (lfc/star.h, lfc_traffic.h).
 *
 * Timing is a token clock in exact integers: a node at load L permille of its line rate (one
 * block per speed_div cycles, SPEC §1.2) creates its next packet (or burst) when
 *   next_time += nblk_total * speed_div * 1000 / L
 * comes due, the remainder carried in `acc`, so the long-run rate is exact. No floating point.
 */
#include "lfc_traffic.h"

#include <string.h>

#define PERMILLE 1000u
#define PERCENT 100u
#define SPLITMIX_GAMMA 0x9E3779B97F4A7C15ull
#define SOURCE_SALT 0xD1B54A32D192ED03ull /* decorrelates the nodes' streams */

void lfc_traffic_cfg_default(lfc_traffic_cfg_t *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->pattern = LFC_TRAFFIC_UNIFORM;
  cfg->load_permille = 500u;
  cfg->min_nblk = 1u;
  cfg->max_nblk = 65u;
  cfg->class_mask = 1u;
  cfg->incast_dst = 0u;
  cfg->hotspot_pct = 0u;
  cfg->ecn_capable_pct = 0u;
  cfg->burst_pkts = 0u;
  cfg->stop_cycle = 0u;
  cfg->seed = 1u;
}

/* splitmix64 (Steele, Lea, Flood 2014): one 64-bit output per call. */
static uint64_t rng_next(uint64_t *state) {
  uint64_t z = (*state += SPLITMIX_GAMMA);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform in 0..n-1 (n >= 1) by multiply-shift of the high 32 bits. */
static uint32_t rng_below(uint64_t *state, uint32_t n) {
  return (uint32_t)(((rng_next(state) >> 32) * (uint64_t)n) >> 32);
}

void lfc_source_init(lfc_source_t *s, const lfc_traffic_cfg_t *cfg, uint32_t node, uint32_t ports,
                     uint32_t speed_div) {
  memset(s, 0, sizeof *s);
  s->rng = cfg->seed ^ (SOURCE_SALT * (node + 1u));
  (void)rng_next(&s->rng);
  s->node = node;
  s->ports = ports;
  s->speed_div = speed_div;
  for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++)
    if (cfg->class_mask >> c & 1u) s->classes[s->nclasses++] = (uint8_t)c;
  s->active = !(cfg->pattern == LFC_TRAFFIC_INCAST && node == cfg->incast_dst);
  s->next_time = s->active ? 0u : UINT64_MAX; /* acc, like the rest, from the memset: 0 */
}

/* A destination other than the node itself, uniformly. */
static uint32_t uniform_other(lfc_source_t *s) {
  uint32_t d = rng_below(&s->rng, s->ports - 1u);
  return d >= s->node ? d + 1u : d;
}

static uint32_t pick_dst(lfc_source_t *s, const lfc_traffic_cfg_t *cfg) {
  switch (cfg->pattern) {
    case LFC_TRAFFIC_INCAST:
      return cfg->incast_dst;
    case LFC_TRAFFIC_PERMUTATION:
      return (s->node + 1u) % s->ports;
    case LFC_TRAFFIC_HOTSPOT:
      /* The hotspot itself sends uniformly to the others. */
      if (s->node != cfg->incast_dst && rng_below(&s->rng, PERCENT) < cfg->hotspot_pct)
        return cfg->incast_dst;
      return uniform_other(s);
    case LFC_TRAFFIC_UNIFORM:
    default:
      return uniform_other(s);
  }
}

uint32_t lfc_source_create(lfc_source_t *s, const lfc_traffic_cfg_t *cfg, uint64_t now,
                           lfc_pkt_t *pkts) {
  if (!s->active || now < s->next_time) return 0u;
  if (cfg->stop_cycle != 0u && now >= cfg->stop_cycle) {
    s->next_time = UINT64_MAX; /* for good */
    return 0u;
  }
  if (now > s->next_time) { /* held back: no catch-up burst */
    s->next_time = now;
    s->acc = 0u;
  }
  uint32_t count = cfg->burst_pkts > 0u ? cfg->burst_pkts : 1u;
  uint64_t blocks = 0u;
  for (uint32_t i = 0; i < count; i++) {
    lfc_pkt_t *p = &pkts[i];
    memset(p, 0, sizeof *p);
    uint32_t span = cfg->max_nblk - cfg->min_nblk + 1u;
    p->nblk = (uint8_t)(cfg->min_nblk + (span > 1u ? rng_below(&s->rng, span) : 0u));
    p->cls = s->classes[s->nclasses > 1u ? rng_below(&s->rng, s->nclasses) : 0u];
    p->dst = (uint16_t)pick_dst(s, cfg);
    uint32_t pct = cfg->ecn_capable_pct;
    bool ect = pct >= PERCENT || (pct > 0u && rng_below(&s->rng, PERCENT) < pct);
    p->ecn = ect ? LFC_ECN_ECT0 : LFC_ECN_NOT_ECT;
    blocks += p->nblk;
  }
  uint64_t num = s->acc + blocks * s->speed_div * PERMILLE;
  s->next_time += num / cfg->load_permille;
  s->acc = num % cfg->load_permille;
  return count;
}
