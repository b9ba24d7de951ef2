/*
 * credit_tx.c - IB credit transmit, per (egress port, data VL) (SPEC §5.3).
 *
 * Registers fctbs and fccl. The block also keeps two masks derived from them and the egress
 * queues, updated whenever one of their inputs changes (a new head, an FCP, a packet start):
 * credit_ok (non-empty and the head passes the send rule: eligible for §5.6) and credit_blocked
 * (non-empty and the head fails it: counted in credit_blocked_cycles, SPEC §10). The count is
 * kept as closed intervals plus the start of the open one, so no per-cycle work is needed.
 */
#include "lfc_internal.h"

#include "lfc_rules.h"

/*
 * Recompute credit_ok / credit_blocked of (p, vl) from the next-state values. Called in the
 * apply phase of cycle `now`, so a change takes effect in cycle now + 1.
 */
void lfc_credit_tx_update(lfc_switch_t *sw, uint32_t p, uint32_t vl) {
  lfc_port_t *pp = &sw->port[p];
  lfc_vl_t *v = &pp->vl[vl];
  uint16_t bit = (uint16_t)(1u << vl);
  bool ok = false, blocked = false;
  if (pp->nonempty & bit) {
    uint32_t n = sw->desc[pp->q[vl].list.head].nblk;
    ok = lfc_rule_send_ok(v->fctbs, v->fccl, n);
    blocked = !ok;
  }
  pp->credit_ok = ok ? (uint16_t)(pp->credit_ok | bit) : (uint16_t)(pp->credit_ok & ~bit);
  bool was_blocked = (pp->credit_blocked & bit) != 0;
  if (blocked && !was_blocked) {
    pp->credit_blocked |= bit;
    v->blocked_since = sw->now + 1u;
  } else if (!blocked && was_blocked) {
    pp->credit_blocked &= (uint16_t)~bit;
    lfc_cstats(sw, p, vl)->credit_blocked_cycles += sw->now + 1u - v->blocked_since;
  }
}

/* Step D: an FCP for data VL vl received on port p: fccl <= fc_fccl. */
void lfc_credit_tx_on_fcp(lfc_switch_t *sw, uint32_t p, uint32_t vl, uint32_t fccl) {
  sw->port[p].vl[vl].fccl = (uint16_t)(fccl & LFC_CREDIT_MASK);
  lfc_credit_tx_update(sw, p, vl);
}

/* Step B: a packet of n blocks starts on (p, vl): the whole packet is counted at its start. */
void lfc_credit_tx_on_start(lfc_switch_t *sw, uint32_t p, uint32_t vl, uint32_t n) {
  lfc_port_t *pp = &sw->port[p];
  pp->vl[vl].fctbs = (uint16_t)lfc_rule_credit_add(pp->vl[vl].fctbs, n);
  pp->fcp_dirty |= (uint16_t)(1u << vl); /* fctbs != fcp_sent_fctbs: an FCP is due (§5.5) */
  lfc_credit_tx_update(sw, p, vl);
}

/* credit_blocked_cycles of (p, vl) up to the current cycle. */
uint64_t lfc_credit_blocked_cycles(const lfc_switch_t *sw, uint32_t p, uint32_t vl) {
  const lfc_port_t *pp = &sw->port[p];
  uint64_t n = lfc_cstats(sw, p, vl)->credit_blocked_cycles;
  if (pp->credit_blocked & (1u << vl)) n += sw->now - pp->vl[vl].blocked_since;
  return n;
}
