/*
 * credit_rx.c - IB credit receive and FCP generation, per (ingress port, data VL)
 * (SPEC §5.4, §5.5).
 *
 * Registers abr, occ, occ15, fcp_sent_fctbs, fcp_sent_fccl and fcp_timer (kept as the absolute
 * cycle fcp_due at which it reads 0). An FCP is pending when the timer is 0, or when fctbs or the
 * advertised FCCL differ from what the last FCP carried and fcp_holdoff cycles have passed since
 * the timer was reloaded. Rather than evaluating that for every VL in every cycle, the port keeps
 * fcp_dirty, a superset of the VLs whose values may differ (set by every change of fctbs, abr or
 * occ, cleared only when a VL is found equal to its last FCP, not while a change is held off),
 * and fcp_min_due; a transmit decision checks only those.
 */
#include "lfc_internal.h"

#include "lfc_rules.h"

/* SPEC §5.4: the credit limit (p, vl) advertises in the current state. */
uint32_t lfc_credit_rx_fccl(const lfc_switch_t *sw, uint32_t p, uint32_t vl) {
  const lfc_vl_t *v = &sw->port[p].vl[vl];
  return lfc_rule_fccl(v->abr, sw->cfg.vl_blocks[vl] - v->occ);
}

/* Step E decision: admission of a first block on (p, d->cls), SPEC §5.4. */
void lfc_credit_rx_admit(const lfc_switch_t *sw, uint32_t p, lfc_rx_dec_t *d) {
  const lfc_port_t *pp = &sw->port[p];
  uint32_t n = d->nblk;
  if (d->cls == LFC_VL15) {
    bool fits = n <= sw->cfg.vl15_blocks - pp->occ15;
    d->action = fits ? LFC_RX_ADMIT : LFC_RX_DROP;
    d->cause = LFC_DROP_VL15; /* VL15 may drop (IBA §7.9) */
  } else {
    bool fits = n <= sw->cfg.vl_blocks[d->cls] - pp->vl[d->cls].occ;
    d->action = fits ? LFC_RX_ADMIT : LFC_RX_DROP;
    d->cause = LFC_DROP_CREDIT; /* the peer sent beyond its credit */
  }
}

/* Step E apply: abr counts every packet the peer sent (admitted or not); occ the admitted. */
void lfc_credit_rx_charge(lfc_switch_t *sw, uint32_t p, const lfc_rx_dec_t *d) {
  lfc_port_t *pp = &sw->port[p];
  uint32_t n = d->nblk, c = d->cls;
  uint32_t held;
  if (c == LFC_VL15) {
    if (d->action != LFC_RX_ADMIT) return;
    pp->occ15 = (uint16_t)(pp->occ15 + n);
    held = pp->occ15;
  } else {
    lfc_vl_t *v = &pp->vl[c];
    v->abr = (uint16_t)lfc_rule_credit_add(v->abr, n);
    pp->fcp_dirty |= (uint16_t)(1u << c);
    if (d->action != LFC_RX_ADMIT) return;
    v->occ = (uint16_t)(v->occ + n);
    held = v->occ;
  }
  lfc_class_stats_t *st = lfc_cstats(sw, p, c);
  if (held > st->peak_pg) st->peak_pg = held;
}

/* Step B: a packet of (in_port, cls) left the switch; its blocks are free again. */
void lfc_credit_rx_free(lfc_switch_t *sw, uint32_t in_port, uint32_t cls, uint32_t n) {
  lfc_port_t *pp = &sw->port[in_port];
  if (cls == LFC_VL15) {
    pp->occ15 = (uint16_t)(pp->occ15 - n);
    return;
  }
  pp->vl[cls].occ = (uint16_t)(pp->vl[cls].occ - n);
  pp->fcp_dirty |= (uint16_t)(1u << cls); /* FCCL may have grown */
}

/* Step D: an FCP for data VL vl received on port p: abr <= fc_fctbs (repairs lost blocks). */
void lfc_credit_rx_on_fcp(lfc_switch_t *sw, uint32_t p, uint32_t vl, uint32_t fctbs) {
  lfc_port_t *pp = &sw->port[p];
  pp->vl[vl].abr = (uint16_t)(fctbs & LFC_CREDIT_MASK);
  pp->fcp_dirty |= (uint16_t)(1u << vl);
}

/* VLs whose fcp_timer reads 0 in the current state. */
static uint16_t expired_vls(const lfc_switch_t *sw, const lfc_port_t *pp) {
  uint16_t m = 0;
  if (pp->fcp_min_due > sw->now) return 0;
  for (uint32_t v = 0; v < sw->classes; v++)
    if (pp->vl[v].fcp_due <= sw->now) m |= (uint16_t)(1u << v);
  return m;
}

/*
 * SPEC §5.5: the first cycle u in which a change of fctbs or FCCL makes the FCP of VL v pending,
 * fcp_timer + fcp_holdoff <= fcp_period - 1. fcp_timer reads fcp_due - u in S(u) for u <= fcp_due,
 * so u >= fcp_due - fcp_period + 1 + fcp_holdoff (now or earlier with fcp_holdoff = 0). With
 * fcp_holdoff >= fcp_period it is after fcp_due, by which time the timer alone makes the FCP
 * pending. Only asked while the timer runs (fcp_due > now): fcp_due is then t + fcp_period of an
 * FCP sent in a cycle t >= 0, not the 0 of reset, so the difference does not wrap.
 */
static uint64_t change_opens_at(const lfc_switch_t *sw, const lfc_vl_t *v) {
  assert(v->fcp_due >= sw->cfg.fcp_period);
  return lfc_rule_fcp_change_from(v->fcp_due, sw->cfg.fcp_holdoff, sw->cfg.fcp_period);
}

/* fctbs or the FCCL of the current state differ from those of the last FCP (*fccl: the FCCL). */
static bool vl_changed(const lfc_switch_t *sw, uint32_t p, uint32_t vl, uint32_t *fccl) {
  const lfc_vl_t *v = &sw->port[p].vl[vl];
  *fccl = lfc_credit_rx_fccl(sw, p, vl);
  return v->fctbs != v->sent_fctbs || *fccl != v->sent_fccl;
}

/* SPEC §5.5, the state of one VL's FCP: pending; not pending and equal to the last FCP (its
   fcp_dirty bit may go); or maybe changed but held off (its bit stays). */
typedef enum { FCP_PENDING, FCP_CLEAN, FCP_HELD } fcp_state_t;

static fcp_state_t vl_fcp_state(const lfc_switch_t *sw, uint32_t p, uint32_t vl, uint32_t *fccl) {
  const lfc_vl_t *v = &sw->port[p].vl[vl];
  if (v->fcp_due <= sw->now) {
    *fccl = lfc_credit_rx_fccl(sw, p, vl);
    return FCP_PENDING; /* fcp_timer == 0 */
  }
  if (change_opens_at(sw, v) > sw->now) return FCP_HELD; /* a change does not count yet */
  return vl_changed(sw, p, vl, fccl) ? FCP_PENDING : FCP_CLEAN;
}

/*
 * Step A, SPEC §5.5: is an FCP pending on port p, and for which (the lowest) VL? Records the VLs
 * found clean on the way so that their dirty bits can be dropped (a VL held off by fcp_holdoff
 * is not clean: its change counts later, lfc_fcp_next_event names when).
 */
bool lfc_fcp_pick(const lfc_switch_t *sw, uint32_t p, lfc_tx_dec_t *d) {
  const lfc_port_t *pp = &sw->port[p];
  uint16_t cand = (uint16_t)(pp->fcp_dirty | expired_vls(sw, pp));
  uint16_t clean = 0;
  for (; cand != 0; cand &= (uint16_t)(cand - 1u)) {
    uint32_t v = lfc_ctz(cand), fccl;
    fcp_state_t st = vl_fcp_state(sw, p, v, &fccl);
    if (st == FCP_PENDING) {
      d->cls = (uint8_t)v;
      d->fccl = (uint16_t)fccl;
      d->fcp_clean = clean;
      return true;
    }
    if (st == FCP_CLEAN) clean |= (uint16_t)(1u << v);
  }
  d->fcp_clean = clean;
  return false;
}

void lfc_fcp_word(const lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d, lfc_word_t *w) {
  w->kind = LFC_FCP;
  w->fc_op = LFC_FCP_OP_NORMAL;
  w->fc_vl = d->cls;
  w->fc_fctbs = sw->port[p].vl[d->cls].fctbs;
  w->fc_fccl = d->fccl;
}

/*
 * Step B of a sent FCP: remember what it carried and restart the timer. Runs before any other
 * apply of the cycle (see lfc_switch_step), so that the values are those of S(t) and a change
 * made later in the cycle sets the dirty bit again.
 */
void lfc_fcp_sent(lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d) {
  lfc_port_t *pp = &sw->port[p];
  pp->fcp_dirty &= (uint16_t)~d->fcp_clean;
  if (d->action != LFC_TX_FCP) return;
  lfc_vl_t *v = &pp->vl[d->cls];
  v->sent_fctbs = v->fctbs;
  v->sent_fccl = d->fccl;
  v->fcp_due = sw->now + sw->cfg.fcp_period; /* fcp_timer = fcp_period - 1 in S(t+1) */
  pp->fcp_dirty &= (uint16_t)~(1u << d->cls);
  sw->stats[p].fcp_tx++;
  uint64_t m = LFC_NEVER;
  for (uint32_t i = 0; i < sw->classes; i++) m = lfc_min_u64(m, pp->vl[i].fcp_due);
  pp->fcp_min_due = m;
}

/*
 * The first cycle >= now in which an FCP is pending on port p, with no new input: a timer that
 * reaches 0 (fcp_min_due), or a changed VL whose fcp_holdoff ends (SPEC §5.5). Without input
 * fctbs, abr and occ keep their values, so a VL that is not changed now stays so.
 */
uint64_t lfc_fcp_next_event(const lfc_switch_t *sw, uint32_t p) {
  const lfc_port_t *pp = &sw->port[p];
  if (pp->fcp_min_due <= sw->now) return sw->now; /* a timer at 0; below, every timer runs */
  uint64_t next = pp->fcp_min_due;
  for (uint16_t cand = pp->fcp_dirty; cand != 0; cand &= (uint16_t)(cand - 1u)) {
    uint32_t v = lfc_ctz(cand), fccl;
    if (!vl_changed(sw, p, v, &fccl)) continue;
    uint64_t open = change_opens_at(sw, &pp->vl[v]);
    if (open <= sw->now) return sw->now;
    next = lfc_min_u64(next, open);
  }
  return next;
}

/* Reset: every VL is pending (fcp_timer = 0, SPEC §5.5). The counters of SPEC §5.1, whose reset
   value is 0, and the rest of the credit state were zeroed with the whole lfc_port_t by
   lfc_switch_reset, the only caller; what is set here is what is not 0. */
void lfc_fcp_reset_port(lfc_switch_t *sw, uint32_t p) {
  lfc_port_t *pp = &sw->port[p];
  pp->fcp_dirty = sw->ib ? sw->class_bits : 0;
  pp->fcp_min_due = sw->ib ? 0 : LFC_NEVER;
}
