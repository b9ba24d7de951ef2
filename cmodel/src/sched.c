/*
 * sched.c - the PFC egress scheduler of one port: strict priority, then deficit round robin
 * (SPEC §8; Shreedhar & Varghese 1995, hardware form with carried deficit).
 *
 * Registers drr_ptr per port and deficit per class. Eligibility (§8.1) is computed from the
 * non-empty mask, the watchdog's drop mask and the pause timers of the non-empty queues only.
 */
#include "lfc_internal.h"

/* Queues that could be scheduled if not paused: non-empty, not discarding (§6.8). */
static uint8_t candidates(const lfc_switch_t *sw, uint32_t p) {
  return (uint8_t)(sw->port[p].nonempty & sw->class_bits & ~lfc_wd_drop_mask(sw, p));
}

/* Step A: the queue port p starts next, if any (SPEC §8.2). */
bool lfc_sched_pick(const lfc_switch_t *sw, uint32_t p, lfc_tx_dec_t *d) {
  const lfc_port_t *pp = &sw->port[p];
  uint8_t cand = candidates(sw, p);
  if (cand == 0) return false;
  uint8_t elig = (uint8_t)(cand & ~lfc_pfc_rx_paused(sw, p, cand));
  if (elig == 0) return false;
  uint8_t strict = elig & sw->cfg.strict_mask;
  if (strict != 0) { /* the highest eligible strict priority wins */
    d->cls = (uint8_t)lfc_msb(strict);
    d->src = LFC_SRC_STRICT;
    return true;
  }
  uint32_t ptr = pp->drr_ptr;
  d->src = LFC_SRC_DRR;
  if ((elig >> ptr) & 1u && pp->pc[ptr].deficit > 0) {
    d->cls = (uint8_t)ptr; /* the turn goes on */
    return true;
  }
  /* First eligible class in the order ptr+1, ..., ptr+classes: ptr itself comes last. */
  uint32_t after = elig & ~((2u << ptr) - 1u);
  d->cls = (uint8_t)lfc_ctz(after != 0 ? after : elig);
  d->new_turn = 1;
  return true;
}

/* Step B: a packet of n blocks started from d->cls. */
void lfc_sched_commit(lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d, uint32_t n) {
  if (d->src != LFC_SRC_DRR) return;
  lfc_port_t *pp = &sw->port[p];
  lfc_pcls_t *pc = &pp->pc[d->cls];
  int32_t deficit = pc->deficit;
  if (d->new_turn) { /* leftover credit of a turn that lost eligibility is forfeited */
    deficit = (deficit < 0 ? deficit : 0) + (int32_t)sw->cfg.drr_quantum[d->cls];
    pp->drr_ptr = d->cls;
  }
  pc->deficit = (int16_t)(deficit - (int32_t)n);
}

/* The first cycle >= now in which some queue of port p is eligible, with no new input. */
uint64_t lfc_sched_next_event(const lfc_switch_t *sw, uint32_t p) {
  const lfc_port_t *pp = &sw->port[p];
  uint8_t cand = candidates(sw, p);
  uint64_t m = LFC_NEVER;
  for (; cand != 0; cand &= (uint8_t)(cand - 1u)) {
    uint32_t c = lfc_ctz(cand);
    if ((pp->storm >> c) & 1u || pp->pc[c].pause_until <= sw->now) return sw->now;
    m = lfc_min_u64(m, pp->pc[c].pause_until); /* the pause lapses then */
  }
  return m;
}
