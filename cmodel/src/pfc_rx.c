/*
 * pfc_rx.c - PFC reception: the pause timers of the egress queues (SPEC §6.7).
 *
 * Register pause_timer per (port, priority), kept as the cycle pause_until from which it reads
 * 0: a frame received in cycle t with time q sets pause_until = t + 1 + q * k, so the queue is
 * paused in cycles t+1 .. t+q*k. paused_cycles (SPEC §10) is kept as the cycles counted up to
 * pause_from plus the open interval [pause_from, pause_until), so it needs no per-cycle work.
 */
#include "lfc_internal.h"

/* Step D: a PFC frame received on port p (PFC mode). */
void lfc_pfc_rx_frame(lfc_switch_t *sw, uint32_t p, const lfc_word_t *w) {
  lfc_port_t *pp = &sw->port[p];
  lfc_port_cnt_t *st = &sw->stats[p];
  uint64_t next = sw->now + 1u;
  st->pfc_rx++;
  sw->tx_work |= 1ull << p; /* a pause that starts or ends changes step A (a parked port) */
  /* Bits of pfc_en for priorities >= classes are ignored (SPEC §6.7). */
  for (uint32_t en = w->pfc_en & sw->class_bits; en != 0; en &= en - 1u) {
    uint32_t c = lfc_ctz(en);
    lfc_pcls_t *pc = &pp->pc[c];
    uint32_t q = w->pfc_time[c];
    bool was_paused = sw->now < pc->pause_until;
    uint64_t end = lfc_min_u64(pc->pause_until, next);
    if (end > pc->pause_from) lfc_cstats(sw, p, c)->paused_cycles += end - pc->pause_from;
    pc->pause_from = next;
    pc->pause_until = next + (uint64_t)q * pp->k; /* one quantum is k cycles */
    if (q > 0)
      lfc_cstats(sw, p, c)->pause_rx++;
    else
      lfc_cstats(sw, p, c)->resume_rx++;
    lfc_wd_on_frame(sw, p, c, was_paused, q > 0);
  }
}

/* The candidate queues of port p that are paused in the current cycle (SPEC §6.7, §6.8). */
uint8_t lfc_pfc_rx_paused(const lfc_switch_t *sw, uint32_t p, uint8_t candidates) {
  const lfc_port_t *pp = &sw->port[p];
  uint8_t paused = 0;
  for (uint8_t m = (uint8_t)(candidates & ~pp->storm); m != 0; m &= (uint8_t)(m - 1u)) {
    uint32_t c = lfc_ctz(m);
    if (sw->now < pp->pc[c].pause_until) paused |= (uint8_t)(1u << c);
  }
  return paused;
}

/* paused_cycles of (p, c) up to the current cycle: cycles with pause_timer > 0. */
uint64_t lfc_pfc_rx_paused_cycles(const lfc_switch_t *sw, uint32_t p, uint32_t c) {
  const lfc_pcls_t *pc = &sw->port[p].pc[c];
  uint64_t n = lfc_cstats(sw, p, c)->paused_cycles;
  uint64_t end = lfc_min_u64(pc->pause_until, sw->now);
  return end > pc->pause_from ? n + end - pc->pause_from : n;
}
