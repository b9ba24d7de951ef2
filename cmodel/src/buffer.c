/*
 * buffer.c - PFC buffer accounting: ingress PGs and the shared pool (SPEC §6.1-§6.4).
 *
 * Registers pg_min, pg_shared, pg_hdrm per PG and shared_used. Admission is decided from S(t) in
 * ascending port order with the shared-pool chain (§6.4) and applied after the frees of the same
 * cycle, which are computed from S(t) too: the two never see each other (§4.1). Every change of
 * pg_shared or pg_hdrm marks the PG for XOFF/XON evaluation in the next cycle (pfc_gen.c).
 */
#include "lfc_internal.h"

#include "lfc_rules.h"

/* SPEC §6.2: the shared-use threshold T in the current state. */
uint32_t lfc_buffer_threshold(const lfc_switch_t *sw) {
  if (!sw->cfg.dynamic_th) return sw->cfg.xoff_th;
  return lfc_rule_dynamic_th(sw->cfg.shared_blocks, sw->shared_used, sw->cfg.alpha_log2);
}

/* Step E decision: admission of a first block of d->nblk blocks on PG (p, d->cls), SPEC §6.4. */
void lfc_buffer_admit(const lfc_switch_t *sw, uint32_t p, uint32_t *chain_used,
                      lfc_rx_dec_t *d) {
  const lfc_switch_cfg_t *cfg = &sw->cfg;
  const lfc_pcls_t *pg = &sw->port[p].pc[d->cls];
  uint32_t c = d->cls, n = d->nblk;
  bool lossless = (sw->lossless >> c) & 1u;
  d->r = d->s = d->h = 0;
  if ((lfc_wd_drop_mask(sw, d->out_port) >> c) & 1u) {
    d->action = LFC_RX_DROP;
    d->cause = LFC_DROP_WATCHDOG;
    return;
  }
  uint32_t r = lfc_min_u32(n, cfg->reserve_blocks - pg->pg_min);
  uint32_t rest = n - r;
  d->action = LFC_RX_ADMIT;
  if (rest == 0) {
    d->r = r;
  } else if ((uint64_t)pg->pg_shared + rest <= lfc_buffer_threshold(sw) &&
             (uint64_t)*chain_used + rest <= cfg->shared_blocks) {
    d->r = r;
    d->s = rest;
    *chain_used += rest; /* ports with a higher index see this (the chain of §6.4) */
  } else if (lossless && (uint64_t)pg->pg_hdrm + rest <= cfg->headroom_blocks) {
    d->r = r;
    d->h = rest;
  } else {
    d->action = LFC_RX_DROP;
    d->cause = lossless ? LFC_DROP_HEADROOM : LFC_DROP_SHARED;
  }
}

static void note_change(lfc_switch_t *sw, uint32_t p, uint32_t c) {
  lfc_port_t *pp = &sw->port[p];
  lfc_pcls_t *pg = &pp->pc[c];
  uint8_t bit = (uint8_t)(1u << c);
  pp->shared_nz = pg->pg_shared ? (uint8_t)(pp->shared_nz | bit) : (uint8_t)(pp->shared_nz & ~bit);
  pp->hdrm_nz = pg->pg_hdrm ? (uint8_t)(pp->hdrm_nz | bit) : (uint8_t)(pp->hdrm_nz & ~bit);
  if (sw->lossless & bit) {
    pp->check |= bit;
    sw->check_ports |= 1ull << p;
  }
}

/* Step E apply: charge an admitted packet to its PG. */
void lfc_buffer_charge(lfc_switch_t *sw, uint32_t p, const lfc_rx_dec_t *d) {
  lfc_pcls_t *pg = &sw->port[p].pc[d->cls];
  pg->pg_min += d->r;
  pg->pg_shared += d->s;
  pg->pg_hdrm += d->h;
  sw->shared_used += d->s;
  if (d->s != 0 || d->h != 0) note_change(sw, p, d->cls);
  lfc_class_stats_t *st = lfc_cstats(sw, p, d->cls);
  uint64_t held = (uint64_t)pg->pg_min + pg->pg_shared + pg->pg_hdrm;
  if (held > st->peak_pg) st->peak_pg = held;
}

/* Steps B and C, SPEC §6.3: free n blocks of PG (in_port, cls), headroom, shared, reserve. */
void lfc_buffer_free(lfc_switch_t *sw, uint32_t in_port, uint32_t cls, uint32_t n) {
  lfc_pcls_t *pg = &sw->port[in_port].pc[cls];
  uint32_t h = lfc_min_u32(pg->pg_hdrm, n);
  uint32_t s = lfc_min_u32(pg->pg_shared, n - h);
  pg->pg_hdrm -= h;
  pg->pg_shared -= s;
  pg->pg_min -= n - h - s;
  sw->shared_used -= s;
  if (s != 0 || h != 0) note_change(sw, in_port, cls);
}
