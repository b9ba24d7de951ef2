/*
 * watchdog.c - the PFC watchdog of every egress queue (SPEC §6.8; SONiC pfcwd).
 *
 * Registers wd_storm, wd_cnt, wd_rcnt. The counters only count cycles, so they are kept as the
 * cycle their count started from:
 *   - normal state: the queue has been paused without a break since wd_run (the run ends at
 *     pause_until), so wd_cnt(S(t)) = min(t - wd_run, wd_detect) if the queue was paused in
 *     cycle t - 1 of that run, else 0; the trip is due in cycle wd_run + wd_detect - 1 if the
 *     run lasts until then;
 *   - storm: wd_rcnt(S(t)) = min(t - wd_rbase, wd_restore); a frame with time > 0 moves wd_rbase
 *     to the next cycle; the restore is due in cycle wd_rbase + wd_restore - 1.
 * Each port keeps the earliest due cycle of its queues (wd_next), so step H costs nothing in a
 * cycle in which no trip or restore is due.
 */
#include "lfc_internal.h"

#include "event_log.h"

/* The watchdog watches PFC pauses: an IB switch has none, nor the PGs' registers it keeps
 * (lfc_port_t.pc exists in PFC mode only), so there it is off whatever wd_enable says. */
static bool wd_on(const lfc_switch_t *sw) { return sw->cfg.wd_enable && !sw->ib; }

/* Due cycle of the next trip or restore of (p, c), LFC_NEVER if none is coming. */
static uint64_t due(const lfc_switch_t *sw, const lfc_port_t *pp, uint32_t c) {
  const lfc_pcls_t *pc = &pp->pc[c];
  if ((pp->storm >> c) & 1u) return pc->wd_rbase + sw->cfg.wd_restore - 1u;
  uint64_t trip = pc->wd_run + sw->cfg.wd_detect - 1u;
  return trip < pc->pause_until ? trip : LFC_NEVER;
}

static void schedule(lfc_switch_t *sw, uint32_t p) {
  lfc_port_t *pp = &sw->port[p];
  uint64_t m = LFC_NEVER;
  for (uint32_t c = 0; c < sw->classes; c++) m = lfc_min_u64(m, due(sw, pp, c));
  pp->wd_next = m;
  sw->wd_next = lfc_min_u64(sw->wd_next, m);
}

/*
 * Step D: a PFC frame for (p, c) was received; was_paused is pause_timer > 0 in S(t), pauses
 * is pfc_time > 0. A run of pause starts in the next cycle unless one is going on; in storm a
 * pausing frame restarts the restore count.
 */
void lfc_wd_on_frame(lfc_switch_t *sw, uint32_t p, uint32_t c, bool was_paused, bool pauses) {
  if (!wd_on(sw)) return;
  lfc_port_t *pp = &sw->port[p];
  lfc_pcls_t *pc = &pp->pc[c];
  if ((pp->storm >> c) & 1u) {
    if (pauses) pc->wd_rbase = sw->now + 1u;
  } else if (!was_paused) {
    pc->wd_run = sw->now + 1u;
  }
  schedule(sw, p);
}

/* Step C: every storm queue in drop action discards its head packet (freed per §6.3). */
void lfc_wd_discard(lfc_switch_t *sw) {
  if (sw->cfg.wd_action != LFC_WD_DROP) return;
  for (uint64_t ports = sw->storm_ports; ports != 0; ports &= ports - 1u) {
    uint32_t p = lfc_ctz(ports);
    lfc_port_t *pp = &sw->port[p];
    for (uint32_t m = pp->storm & pp->nonempty; m != 0; m &= m - 1u) {
      uint32_t c = lfc_ctz(m);
      uint32_t d = lfc_queue_pop(sw, p, c);
      const lfc_desc_t *pk = &sw->desc[d];
      lfc_buffer_free(sw, pk->in_port, pk->cls, pk->nblk);
      lfc_class_stats_t *st = lfc_cstats(sw, p, c); /* counted at the egress port */
      st->drop_pkts[LFC_DROP_WATCHDOG]++;
      st->drop_blocks[LFC_DROP_WATCHDOG] += pk->nblk;
      lfc_event_push(&sw->events, LFC_EV_DROP, p, c, LFC_DROP_WATCHDOG, pk->tag);
      lfc_desc_free(sw, d);
    }
  }
}

/* Step H: trips and restores due in this cycle. Frames of this cycle are already applied,
 * which changes neither (see lfc_wd_on_frame). */
void lfc_wd_update(lfc_switch_t *sw) {
  if (!wd_on(sw) || sw->wd_next > sw->now) return;
  uint64_t now = sw->now, all = LFC_NEVER;
  for (uint32_t p = 0; p < sw->ports; p++) {
    lfc_port_t *pp = &sw->port[p];
    if (pp->wd_next <= now) {
      for (uint32_t c = 0; c < sw->classes; c++) {
        lfc_pcls_t *pc = &pp->pc[c];
        uint8_t bit = (uint8_t)(1u << c);
        if (due(sw, pp, c) > now) continue;
        lfc_class_stats_t *st = lfc_cstats(sw, p, c);
        if (pp->storm & bit) { /* restore: wd_cnt <= 0, wd_rcnt reaches wd_restore */
          pp->storm &= (uint8_t)~bit;
          pp->wd_tripped |= bit;
          pc->wd_run = now + 1u;
          st->wd_restore++;
          lfc_event_push(&sw->events, LFC_EV_WD_RESTORE, p, c, 0, 0);
        } else { /* trip: wd_cnt reaches wd_detect, wd_rcnt <= 0 */
          pp->storm |= bit;
          pc->wd_rbase = now + 1u;
          st->wd_trip++;
          lfc_event_push(&sw->events, LFC_EV_WD_TRIP, p, c, 0, 0);
        }
      }
      sw->tx_work |= 1ull << p; /* eligibility changed (a parked port decides again) */
      if (pp->storm)
        sw->storm_ports |= 1ull << p;
      else
        sw->storm_ports &= ~(1ull << p);
      sw->wd_next = LFC_NEVER;
      schedule(sw, p);
    }
    all = lfc_min_u64(all, pp->wd_next);
  }
  sw->wd_next = all;
}

/* The first cycle >= now with a watchdog event: a due trip/restore or a discard. */
uint64_t lfc_wd_next_event(const lfc_switch_t *sw) {
  if (!wd_on(sw)) return LFC_NEVER;
  uint64_t m = LFC_NEVER;
  for (uint32_t p = 0; p < sw->ports; p++) {
    const lfc_port_t *pp = &sw->port[p];
    m = lfc_min_u64(m, pp->wd_next);
    if (lfc_wd_drop_mask(sw, p) & pp->nonempty) return sw->now;
  }
  return m < sw->now ? sw->now : m;
}

uint32_t lfc_wd_cnt(const lfc_switch_t *sw, uint32_t p, uint32_t c) {
  const lfc_port_t *pp = &sw->port[p];
  const lfc_pcls_t *pc = &pp->pc[c];
  uint64_t now = sw->now;
  if (!wd_on(sw)) return 0;
  if ((pp->storm >> c) & 1u) return sw->cfg.wd_detect;
  /* Not paused in cycle now - 1: 0. At now = 0, now - 1 wraps to the largest value, which no
     pause reaches. A run begins in the cycle after the frame that starts it, so wd_run <= now
     and now - wd_run is the run's length so far (0 for a run that begins now). */
  if (now - 1u >= pc->pause_until) return 0;
  return (uint32_t)lfc_min_u64(now - pc->wd_run, sw->cfg.wd_detect);
}

uint32_t lfc_wd_rcnt(const lfc_switch_t *sw, uint32_t p, uint32_t c) {
  const lfc_port_t *pp = &sw->port[p];
  if (!wd_on(sw)) return 0;
  if ((pp->storm >> c) & 1u)
    return (uint32_t)lfc_min_u64(sw->now - pp->pc[c].wd_rbase, sw->cfg.wd_restore);
  return (pp->wd_tripped >> c) & 1u ? sw->cfg.wd_restore : 0u;
}

void lfc_wd_reset(lfc_switch_t *sw) {
  sw->wd_next = LFC_NEVER;
  sw->storm_ports = 0;
  for (uint32_t p = 0; p < sw->ports; p++) {
    lfc_port_t *pp = &sw->port[p];
    pp->storm = pp->wd_tripped = 0;
    pp->wd_next = LFC_NEVER;
    if (sw->ib) continue; /* no PGs (wd_on) */
    for (uint32_t c = 0; c < LFC_PFC_MAX_PRIOS; c++) {
      lfc_pcls_t *pc = &pp->pc[c];
      pc->pause_until = pc->pause_from = 0;
      pc->wd_run = pc->wd_rbase = 0;
    }
  }
}
