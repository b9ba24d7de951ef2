/*
 * port_tx.c - the transmitters of all ports (SPEC §5.2, §7.4).
 *
 * Register tx_rem, kept as the cycle after the packet in flight's last word (tx_end), and the
 * packet in flight, kept as the continuation block it repeats (tx_data). Step A chooses each
 * port's word of the cycle from S(t): IDLE off-slot, else the next block of the packet in
 * flight, else a pending flow-control word, else the first block of the packet the scheduler
 * picks. Step B applies that choice: dequeue, credit/scheduler/LFSR state, and the free of the
 * packet's buffer.
 *
 * Streaming a packet (the common case at load) is lfc_tx_stream (lfc_internal.h); the switch's
 * single pass over the ports lists the ports at a decision point (a slot with tx_rem = 0,
 * lfc_tx_at_decision) in sw->tx_slow, and only those go through the full decision here.
 */
#include "lfc_internal.h"

#include "event_log.h"

/* The first block of packet pk as sent: sop, eop if it is also the last word (SPEC §2.1). *w is
 * IDLE on entry: a data word's other fields are zero (lfc/types.h). */
static void first_block(const lfc_desc_t *pk, uint8_t ecn, uint8_t mrg, lfc_word_t *w) {
  w->kind = LFC_DATA;
  w->sop = 1;
  w->eop = pk->nblk - mrg == 1u;
  w->cls = pk->cls;
  w->nblk = pk->nblk;
  w->pad = pk->pad;
  w->mrg = mrg;
  w->dst = pk->dst;
  w->tag = pk->tag;
  w->ecn = ecn;
}

/* Step A at a decision point of port p (a slot, nothing in flight): steps 3 to 5 of §5.2.
 * *out is IDLE on entry (the streaming pass wrote it) and stays so unless a word is sent. */
static void decide(lfc_switch_t *sw, uint32_t p, lfc_tx_dec_t *d, lfc_word_t *out) {
  const lfc_port_t *pp = &sw->port[p];
  d->action = LFC_TX_IDLE;
  d->fcp_clean = 0;
  if (pp->nonempty == 0 && (sw->ib ? pp->fcp_dirty == 0 && pp->fcp_min_due > sw->now
                                   : pp->pend == 0 && pp->refresh_min_due > sw->now))
    return; /* nothing can be pending and nothing is queued: IDLE (a shortcut of 3 to 5) */
  if (sw->cfg.wire_time && lfc_line_gap(&pp->line, sw->now))
    return; /* 2a. the last frame's idle gap (§2.4): nothing is sent */
  if (sw->ib ? lfc_fcp_pick(sw, p, d) : lfc_pfc_gen_pick(sw, p, d)) { /* 3. flow control */
    d->action = sw->ib ? LFC_TX_FCP : LFC_TX_PFC;
    if (sw->ib)
      lfc_fcp_word(sw, p, d, out);
    else
      lfc_pfc_gen_word(sw, p, d, out);
    return;
  }
  d->new_turn = d->mark = d->draw = 0;
  bool picked;
  if (sw->ib && (pp->nonempty & (1u << LFC_VL15))) { /* VL15 always wins (§5.6 step 1) */
    d->cls = LFC_VL15;
    d->src = LFC_SRC_VL15;
    picked = true;
  } else {
    picked = sw->ib ? lfc_vlarb_pick(sw, p, d) : lfc_sched_pick(sw, p, d);
  }
  if (!picked) return; /* 5. IDLE */
  d->action = LFC_TX_START; /* 4. a packet starts */
  const lfc_desc_t *pk = &sw->desc[pp->q[d->cls].list.head];
  if (!sw->ib) lfc_ecn_decide(sw, p, pk, d);
  d->mrg = sw->cfg.wire_time ? lfc_line_mrg(&pp->line, sw->now, pp->k, pk->nblk, pk->pad, sw->ib)
                             : 0u;
  first_block(pk, d->mark ? LFC_ECN_CE : pk->ecn, d->mrg, out);
}

/*
 * PFC: port p decided IDLE. Without new input it stays IDLE until its next transmit event, so
 * it leaves tx_work until then (tx_parked, see struct lfc_switch); a port whose event is the
 * next cycle stays.
 */
static void park(lfc_switch_t *sw, uint32_t p) {
  uint64_t wake = lfc_tx_next_event(sw, p);
  if (wake <= sw->now + 1u) return;
  sw->tx_work &= ~(1ull << p);
  if (wake == LFC_NEVER) return; /* no work: IDLE until some comes */
  sw->tx_parked |= 1ull << p;
  sw->tx_wake[p] = wake;
  sw->tx_wake_min = lfc_min_u64(sw->tx_wake_min, wake);
}

/* Parked ports whose transmit event has come go back to tx_work (before streaming). */
void lfc_tx_unpark(lfc_switch_t *sw) {
  if (sw->tx_wake_min > sw->now) return;
  uint64_t next = LFC_NEVER;
  for (uint64_t m = sw->tx_parked; m != 0; m &= m - 1u) {
    uint32_t p = lfc_ctz(m);
    if (sw->tx_wake[p] <= sw->now) {
      sw->tx_parked &= ~(1ull << p);
      sw->tx_work |= 1ull << p;
    } else {
      next = lfc_min_u64(next, sw->tx_wake[p]);
    }
  }
  sw->tx_wake_min = next;
}

/*
 * Step A of the ports at a decision point (listed in sw->tx_slow by the streaming pass). Ports that
 * stay IDLE with nothing to record leave the list, so that step B does not visit them.
 */
void lfc_tx_decide_all(lfc_switch_t *sw, lfc_word_t *restrict out, lfc_tx_dec_t *txd) {
  uint64_t busy = 0;
  for (uint64_t m = sw->tx_slow; m != 0; m &= m - 1u) {
    uint32_t p = lfc_ctz(m);
    lfc_tx_dec_t *d = &txd[p];
    decide(sw, p, d, &out[p]);
    if (d->action != LFC_TX_IDLE || d->fcp_clean != 0)
      busy |= 1ull << p;
    else if (!sw->ib)
      park(sw, p);
  }
  sw->tx_slow = busy;
}

/*
 * Step B, first part (IB): the FCP bookkeeping of every decision point. It runs before any other
 * apply of the cycle, so that what it records are values of S(t), and any change applied later
 * in the cycle sets the dirty bit again.
 */
void lfc_fcp_sent_all(lfc_switch_t *sw, const lfc_tx_dec_t *txd) {
  for (uint64_t m = sw->tx_slow; m != 0; m &= m - 1u) {
    uint32_t p = lfc_ctz(m);
    lfc_fcp_sent(sw, p, &txd[p]);
  }
}

/* Step B of a packet start: dequeue, account, free its buffer (SPEC §5.3, §5.4, §6.3). `first`
 * is the packet's first block as step A sent it. */
static void start_packet(lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d,
                         const lfc_word_t *first) {
  lfc_port_t *pp = &sw->port[p];
  uint32_t di = lfc_queue_pop(sw, p, d->cls);
  const lfc_desc_t pk = sw->desc[di];
  lfc_desc_free(sw, di);
  uint32_t n = pk.nblk;
  /* the template of the continuation blocks: the first block with sop = 0 (eop: lfc_tx_stream) */
  memcpy(pp->tx_data, first, sizeof pp->tx_data);
  pp->tx_data[offsetof(lfc_word_t, sop)] = 0;
  uint32_t rem = n - 1u - d->mrg; /* tx_rem: the words after this one, one a slot (SPEC §7.4) */
  sw->tx_end[p] = sw->now + (uint64_t)rem * pp->k + 1u;
  if (sw->cfg.wire_time) lfc_line_data(&pp->line, sw->now, pp->k, n, pk.pad, sw->ib, d->mrg);
  if (rem != 0) {
    sw->tx_busy |= 1ull << p;
    sw->tx_end_lb = lfc_min_u64(sw->tx_end_lb, sw->tx_end[p]);
  }
  lfc_class_stats_t *st = lfc_cstats(sw, p, d->cls);
  st->tx_pkts++;
  st->tx_blocks += n; /* counted at the start, like the credits (SPEC §5.3) */
  if (sw->ib) {
    if (d->cls != LFC_VL15) {
      lfc_credit_tx_on_start(sw, p, d->cls, n);
      lfc_vlarb_commit(sw, p, d, n);
    }
    lfc_credit_rx_free(sw, pk.in_port, pk.cls, n);
  } else {
    lfc_sched_commit(sw, p, d, n);
    lfc_ecn_commit(sw, p, d);
    if (d->mark) {
      st->ecn_mark++;
      lfc_event_push(&sw->events, LFC_EV_ECN_MARK, p, d->cls, 0, pk.tag);
    }
    lfc_buffer_free(sw, pk.in_port, pk.cls, n);
  }
}

/* Step B of the ports at a decision point (after lfc_fcp_sent_all in IB mode). */
void lfc_tx_apply_all(lfc_switch_t *sw, const lfc_word_t *out, const lfc_tx_dec_t *txd) {
  for (uint64_t m = sw->tx_slow; m != 0; m &= m - 1u) {
    uint32_t p = lfc_ctz(m);
    const lfc_tx_dec_t *d = &txd[p];
    if (d->action == LFC_TX_START)
      start_packet(sw, p, d, &out[p]);
    else if (d->action == LFC_TX_PFC)
      lfc_pfc_gen_sent(sw, p, d);
    if (sw->cfg.wire_time && (d->action == LFC_TX_FCP || d->action == LFC_TX_PFC))
      lfc_line_ctrl(&sw->port[p].line, sw->now, sw->port[p].k,
                    d->action == LFC_TX_FCP ? LFC_FCP_LINE_BYTES : LFC_PFC_LINE_BYTES);
  }
}

/* The first slot >= `work` at which port p is free to send: nothing in flight and, with line
 * time, its line's gap passed. LFC_NEVER for work = LFC_NEVER. */
static uint64_t first_send(const lfc_switch_t *sw, uint32_t p, uint64_t work) {
  const lfc_port_t *pp = &sw->port[p];
  if (work == LFC_NEVER) return LFC_NEVER;
  uint64_t free_slot = lfc_tx_busy_until(sw, p, sw->now); /* lfc_switch_next_event's bound */
  if (sw->cfg.wire_time) free_slot = lfc_line_first_slot(&pp->line, free_slot, pp->k); /* gap */
  return lfc_slot_at_or_after(lfc_max_u64(work, free_slot), pp->k);
}

/* The first cycle >= now in which port p would start a packet or send a control word. */
uint64_t lfc_tx_next_event(const lfc_switch_t *sw, uint32_t p) {
  const lfc_port_t *pp = &sw->port[p];
  uint64_t fc = sw->ib ? lfc_fcp_next_event(sw, p) : lfc_pfc_gen_next_event(sw, p);
  uint64_t sched;
  if (sw->ib)
    sched = (pp->nonempty & (1u << LFC_VL15)) || pp->credit_ok ? sw->now : LFC_NEVER;
  else
    sched = lfc_sched_next_event(sw, p);
  return first_send(sw, p, lfc_min_u64(fc, sched));
}

/* PFC: the first cycle in which port p can send the frame that step G's XOFF/XON of the
 * current cycle makes pending (SPEC §6.6): step A reads it from the next cycle on. */
uint64_t lfc_tx_flip_event(const lfc_switch_t *sw, uint32_t p) {
  return first_send(sw, p, sw->now + 1u);
}
