/*
 * rx_framing.c - the receivers of all ports: framing of data words and dispatch of control words
 * (SPEC §7.2, §4.1 steps D and E).
 *
 * Register rx_rem. Continuation blocks given are counted down by lfc_rx_stream (lfc_internal.h)
 * in the switch's streaming pass; predicted ones are counted in only when a word is given, the
 * packet ends or the register is read (rx_held in lfc_internal.h). A first block is checked
 * (length, class, route), then admitted by the block of the mode (credit_rx.c for IB, buffer.c
 * for PFC). The decision reads S(t) only and is
 * taken before any state of the cycle changes; lfc_rx_apply_all charges the buffer afterwards.
 * An admitted packet enters its ingress pipeline (queue.c) at its first block with cut-through,
 * else at its last block (SPEC §7.3).
 */
#include "lfc_internal.h"

#include "event_log.h"

/* A block that breaks the framing rules: one rx_malformed per block (SPEC §7.2, §13). */
static void malformed(lfc_switch_t *sw, uint32_t p) {
  sw->stats[p].rx_malformed++;
  lfc_event_push(&sw->events, LFC_EV_RX_MALFORMED, p, 0, 0, 0);
}

/* Step E decision for the first block (or a stray block) w on port p. */
static void decide_first(lfc_switch_t *sw, uint32_t p, const lfc_word_t *w, lfc_rx_dec_t *d,
                         uint32_t *chain_used) {
  d->malformed = 0;
  if ((w->sop & 1u) == 0) { /* no packet open: the block is discarded */
    d->action = LFC_RX_STRAY;
    d->malformed = 1;
    return;
  }
  uint32_t out_port = 0;
  d->cls = w->cls & LFC_CLASS_MASK;
  d->nblk = w->nblk;
  d->mrg = w->mrg & LFC_MRG_MASK;
  bool ok = d->nblk != 0 && d->nblk <= sw->cfg.mtu_blocks && d->nblk > d->mrg &&
            ((sw->rx_class_bits >> d->cls) & 1u) && lfc_route(sw, w->dst, &out_port);
  if (!ok) {
    d->action = LFC_RX_DROP;
    d->cause = LFC_DROP_MALFORMED;
    return;
  }
  d->out_port = (uint8_t)out_port;
  d->malformed = (w->eop & 1u) != (d->nblk - d->mrg == 1u); /* one word (SPEC §2.1) */
  if (sw->ib)
    lfc_credit_rx_admit(sw, p, d);
  else
    lfc_buffer_admit(sw, p, chain_used, d);
}

/* The last block of a packet has come: store-and-forward puts it into the pipeline now. */
static void complete(lfc_switch_t *sw, uint32_t p, lfc_port_t *pp) {
  if (pp->rx_desc == LFC_NIL) return;
  lfc_pipe_append(sw, p, pp->rx_desc, sw->now + sw->cfg.latency);
  pp->rx_desc = LFC_NIL;
}

/* The end of lfc_rx_stream for port p: a malformed continuation, or the last block. */
void lfc_rx_stream_end(lfc_switch_t *sw, uint32_t p, int how) {
  lfc_port_t *pp = &sw->port[p];
  if (how == LFC_RX_BAD) malformed(sw, p);
  if (pp->rx_rem != 0) return;
  sw->rx_busy &= ~(1ull << p);
  complete(sw, p, pp);
}

/*
 * Step E decisions of the ports listed in sw->rx_slow (first blocks, stray blocks, control
 * words: lfc_rx_stream took the continuation blocks), from S(t), in ascending port order: the
 * shared-pool chain of SPEC §6.4.
 */
void lfc_rx_decide_all(lfc_switch_t *sw, const lfc_word_t *restrict in, lfc_rx_dec_t *rxd) {
  uint32_t chain_used = sw->shared_used;
  for (uint64_t m = sw->rx_slow; m != 0; m &= m - 1u) {
    uint32_t p = lfc_ctz(m);
    if ((in[p].kind & LFC_KIND_MASK) == LFC_DATA)
      decide_first(sw, p, &in[p], &rxd[p], &chain_used);
  }
}

/* An admitted first block: a descriptor, and the pipeline now or at the last block. */
static void admit(lfc_switch_t *sw, uint32_t p, const lfc_word_t *w, const lfc_rx_dec_t *d) {
  lfc_port_t *pp = &sw->port[p];
  uint32_t di = lfc_desc_alloc(sw);
  lfc_desc_t *pk = &sw->desc[di];
  pk->tag = w->tag;
  pk->dst = w->dst;
  pk->nblk = d->nblk;
  pk->pad = w->pad & LFC_PAD_MASK;
  pk->cls = d->cls;
  pk->ecn = w->ecn & LFC_ECN_MASK;
  pk->in_port = (uint8_t)p;
  pk->out_port = d->out_port;
  lfc_class_stats_t *st = lfc_cstats(sw, p, d->cls);
  st->rx_pkts++;
  st->rx_blocks += d->nblk;
  if (sw->cfg.cut_through || d->nblk - d->mrg == 1u) /* one word: it is the last (§7.3) */
    lfc_pipe_append(sw, p, di, sw->now + sw->cfg.latency);
  else {
    pp->rx_desc = di;
    pp->rx_out = d->out_port;
  }
}

/* Step E apply of a first block. */
static void apply_first(lfc_switch_t *sw, uint32_t p, const lfc_word_t *w,
                        const lfc_rx_dec_t *d) {
  lfc_port_t *pp = &sw->port[p];
  pp->rx_last = sw->now;
  if (d->action == LFC_RX_DROP && d->cause == LFC_DROP_MALFORMED) {
    pp->rx_rem = 0; /* its further blocks are malformed too */
  } else {
    pp->rx_rem = (uint8_t)(d->nblk - 1u - d->mrg); /* the words still to come (SPEC §7.2) */
    if (pp->rx_rem != 0) { /* rx_rem was 0: lfc_rx_stream */
      sw->rx_busy |= 1ull << p;
      sw->rx_end_lb = lfc_min_u64(sw->rx_end_lb, lfc_rx_end(pp));
    }
    if (sw->ib)
      lfc_credit_rx_charge(sw, p, d); /* abr counts dropped packets too */
    else if (d->action == LFC_RX_ADMIT)
      lfc_buffer_charge(sw, p, d);
  }
  if (d->action == LFC_RX_ADMIT) {
    admit(sw, p, w, d);
  } else if (d->cause == LFC_DROP_MALFORMED) { /* of any 4-bit class: lfc_port_cnt_t */
    sw->stats[p].mal_pkts[d->cls]++;
    sw->stats[p].mal_blocks[d->cls] += d->nblk;
    lfc_event_push(&sw->events, LFC_EV_DROP, p, d->cls, d->cause, w->tag);
  } else {
    lfc_class_stats_t *st = lfc_cstats(sw, p, d->cls);
    st->drop_pkts[d->cause]++;
    st->drop_blocks[d->cause] += d->nblk;
    lfc_event_push(&sw->events, LFC_EV_DROP, p, d->cls, d->cause, w->tag);
  }
}

/* Step D: a control word received on port p (SPEC §5.3, §5.4, §6.7). */
static void control(lfc_switch_t *sw, uint32_t p, const lfc_word_t *w) {
  lfc_port_cnt_t *st = &sw->stats[p];
  uint32_t kind = w->kind & LFC_KIND_MASK;
  if (kind == LFC_FCP) {
    uint32_t op = w->fc_op & LFC_FC_OP_MASK, vl = w->fc_vl & LFC_FC_OP_MASK;
    if (!sw->ib) {
      st->rx_bad_ctrl++;
    } else if (op > LFC_FCP_OP_INIT || vl >= sw->classes) { /* reserved op, VL15, unknown VL */
      st->rx_bad_fcp++;
    } else {
      st->fcp_rx++;
      lfc_credit_tx_on_fcp(sw, p, vl, w->fc_fccl);
      lfc_credit_rx_on_fcp(sw, p, vl, w->fc_fctbs);
    }
  } else if (kind == LFC_PFC) {
    if (sw->ib)
      st->rx_bad_ctrl++;
    else
      lfc_pfc_rx_frame(sw, p, w);
  }
}

/* Steps D and E apply of the ports with more than a continuation block. */
void lfc_rx_apply_all(lfc_switch_t *sw, const lfc_word_t *in, const lfc_rx_dec_t *rxd) {
  for (uint64_t m = sw->rx_slow; m != 0; m &= m - 1u) {
    uint32_t p = lfc_ctz(m);
    const lfc_rx_dec_t *d = &rxd[p];
    const lfc_word_t *w = &in[p];
    if ((w->kind & LFC_KIND_MASK) != LFC_DATA) {
      control(sw, p, w);
      continue;
    }
    if (d->action != LFC_RX_STRAY) apply_first(sw, p, w, d);
    if (d->malformed) malformed(sw, p);
  }
}

/*
 * Skip-ahead to `to` of port p, which is receiving a packet that ends before `to` or whose next
 * block is overdue (rx_held; lfc_switch_advance leaves every other port as it is): the rest of
 * the packet arrives one block per k cycles after the previous block (a legal peer, SPEC
 * §2.1). A block that should already have come (the caller stepped an idle cycle instead) is
 * taken as arriving now; the rest are then predicted from it.
 */
void lfc_rx_advance(lfc_switch_t *sw, uint32_t p, uint64_t to) {
  lfc_port_t *pp = &sw->port[p];
  uint64_t bit = 1ull << p;
  if ((sw->rx_held & bit) != 0) {
    pp->rx_rem--;
    pp->rx_last = sw->now;
    sw->rx_held &= ~bit;
    if (lfc_rx_end(pp) >= to) return; /* still receiving, as predicted */
  }
  pp->rx_last = lfc_rx_end(pp); /* its last block */
  pp->rx_rem = 0;
  sw->rx_busy &= ~bit;
  if (pp->rx_desc != LFC_NIL) {
    lfc_pipe_append(sw, p, pp->rx_desc, pp->rx_last + sw->cfg.latency);
    pp->rx_desc = LFC_NIL;
  }
}

