/*
 * ecn.c - ECN marking by WRED on egress queue depth, and the per-port LFSR (SPEC §9).
 *
 * The decision is part of step A (it reads qlen of S(t), which includes the starting packet and
 * the LFSR of S(t)); the LFSR advances in step B and only on draws.
 */
#include "lfc_internal.h"

#include "lfc_rules.h"

/* Step A: should the packet pkt, starting from queue (p, pkt->cls), be marked CE? */
void lfc_ecn_decide(const lfc_switch_t *sw, uint32_t p, const lfc_desc_t *pkt, lfc_tx_dec_t *d) {
  const lfc_switch_cfg_t *cfg = &sw->cfg;
  if (((cfg->ecn_mask >> pkt->cls) & 1u) == 0 || !lfc_rule_ecn_markable(pkt->ecn)) return;
  uint32_t q = sw->port[p].q[pkt->cls].qlen;
  switch (lfc_rule_wred_zone(q, cfg->kmin, cfg->kmax)) {
  case LFC_WRED_MARK:
    d->mark = 1;
    break;
  case LFC_WRED_DRAW: {
    uint32_t x = sw->port[p].lfsr;
    uint32_t r = lfc_rule_lfsr_draw(&x);
    d->draw = 1;
    d->lfsr = x;
    d->mark = lfc_rule_wred_draw_marks(r, q, cfg->kmin, cfg->kmax, cfg->pmax);
    break;
  }
  case LFC_WRED_NO_MARK:
  default:
    break;
  }
}

/* Step B: the LFSR moves only when it was drawn. */
void lfc_ecn_commit(lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d) {
  if (d->draw) sw->port[p].lfsr = d->lfsr;
}
