/*
 * queue.c - routing, the pipeline and the egress queues (SPEC §7.1, §7.3, §7.4).
 *
 * Descriptors live in one pool. Its capacity is the buffer size of SPEC §3.4: every packet from
 * admission until its first block leaves holds at least one block of buffer, so the pool can
 * never overflow. Free descriptors are chained through `next`; never-used ones are handed out
 * from a high-water mark, so creating a switch does not touch the whole pool.
 */
#include "lfc_internal.h"

/* SPEC §7.1: route[dst] with a table, else dst itself. */
bool lfc_route(const lfc_switch_t *sw, uint32_t dst, uint32_t *out_port) {
  uint32_t e = dst;
  if (sw->cfg.route != NULL) {
    if (dst >= sw->cfg.route_len) return false;
    e = sw->cfg.route[dst];
  }
  if (e >= sw->ports) return false;
  *out_port = e;
  return true;
}

uint32_t lfc_desc_alloc(lfc_switch_t *sw) {
  uint32_t d = sw->desc_free;
  if (d != LFC_NIL) {
    sw->desc_free = sw->desc[d].next;
  } else {
    assert(sw->desc_used_hw < sw->desc_cap); /* impossible: see the comment at the top */
    d = sw->desc_used_hw++;
  }
  sw->desc[d].next = LFC_NIL;
  return d;
}

void lfc_desc_free(lfc_switch_t *sw, uint32_t d) {
  sw->desc[d].next = sw->desc_free;
  sw->desc_free = d;
}

static void list_append(lfc_switch_t *sw, lfc_list_t *l, uint32_t d) {
  sw->desc[d].next = LFC_NIL;
  if (l->head == LFC_NIL)
    l->head = d;
  else
    sw->desc[l->tail].next = d;
  l->tail = d;
}

static uint32_t list_pop(lfc_switch_t *sw, lfc_list_t *l) {
  uint32_t d = l->head;
  l->head = sw->desc[d].next;
  if (l->head == LFC_NIL) l->tail = LFC_NIL;
  return d;
}

/* The pipeline's timing wheel: a power of two above the largest ready - now (latency). */
uint32_t lfc_pipe_ring_size(uint32_t latency) {
  uint32_t n = 1;
  while (n <= latency) n <<= 1;
  return n;
}

/* SPEC §7.3: an admitted packet waits in its ingress port's pipeline until cycle ready - 1. */
void lfc_pipe_append(lfc_switch_t *sw, uint32_t in_port, uint32_t d, uint64_t ready) {
  lfc_port_t *pp = &sw->port[in_port];
  sw->desc[d].ready = (uint32_t)ready;
  list_append(sw, &pp->pipe, d);
  sw->pipe_busy |= 1ull << in_port;
  sw->pipe_ring[ready & sw->pipe_ring_mask] |= 1ull << in_port;
}

/* SPEC §7.4: the descriptor enters the tail of its egress queue. */
static void queue_push(lfc_switch_t *sw, uint32_t d) {
  const lfc_desc_t *pk = &sw->desc[d];
  uint32_t e = pk->out_port, c = pk->cls;
  lfc_port_t *ep = &sw->port[e];
  lfc_queue_t *q = &ep->q[c];
  list_append(sw, &q->list, d);
  q->qlen += pk->nblk;
  q->qpkts++;
  lfc_class_stats_t *st = lfc_cstats(sw, e, c);
  if (q->qlen > st->peak_qlen) st->peak_qlen = q->qlen;
  if ((ep->nonempty & (1u << c)) == 0) {
    ep->nonempty |= (uint16_t)(1u << c);
    sw->tx_work |= 1ull << e; /* a packet to send */
    if (sw->ib && c != LFC_VL15) lfc_credit_tx_update(sw, e, c); /* a new head, §5.3 */
  }
}

/*
 * Step F (SPEC §7.3): packets whose ready cycle is t + 1 enter their egress queues, ingress
 * ports in ascending order. Ready cycles of one port strictly increase, so only heads qualify;
 * the timing wheel says which ports have one.
 */
void lfc_pipe_exit(lfc_switch_t *sw) {
  uint64_t *slot = &sw->pipe_ring[(sw->now + 1u) & sw->pipe_ring_mask];
  uint32_t due = (uint32_t)(sw->now + 1u);
  for (uint64_t m = *slot; m != 0; m &= m - 1u) {
    uint32_t p = lfc_ctz(m);
    lfc_port_t *pp = &sw->port[p];
    if (pp->pipe.head != LFC_NIL && sw->desc[pp->pipe.head].ready == due) {
      queue_push(sw, list_pop(sw, &pp->pipe));
      if (pp->pipe.head == LFC_NIL) sw->pipe_busy &= ~(1ull << p);
    }
  }
  *slot = 0;
}

/*
 * Skip-ahead: step F of every cycle in [now, to), with every packet received before `to`
 * already in the pipeline (lfc_switch_advance). In cycle order, ingress ports ascending in a
 * cycle, as the steps would: a pipeline's ready cycles increase, so the head is next. The
 * timing wheel loses the bits of the packets that left and keeps those of the rest (a packet
 * that left and one still waiting may share a slot when to - now exceeds the wheel).
 */
void lfc_pipe_exit_until(lfc_switch_t *sw, uint64_t to) {
  const uint32_t base = (uint32_t)sw->now;
  uint64_t left = 0; /* ports some packet left */
  for (;;) {
    uint64_t x = LFC_NEVER; /* the next cycle whose step F moves a packet */
    for (uint64_t m = sw->pipe_busy; m != 0; m &= m - 1u) {
      uint32_t ready = sw->desc[sw->port[lfc_ctz(m)].pipe.head].ready;
      x = lfc_min_u64(x, sw->now + (uint32_t)(ready - base) - 1u);
    }
    if (x >= to) break;
    for (uint64_t m = sw->pipe_busy; m != 0; m &= m - 1u) {
      uint32_t p = lfc_ctz(m);
      lfc_port_t *pp = &sw->port[p];
      uint32_t ready = sw->desc[pp->pipe.head].ready;
      if (sw->now + (uint32_t)(ready - base) - 1u != x) continue;
      sw->pipe_ring[ready & sw->pipe_ring_mask] &= ~(1ull << p);
      queue_push(sw, list_pop(sw, &pp->pipe));
      if (pp->pipe.head == LFC_NIL) sw->pipe_busy &= ~(1ull << p);
      left |= 1ull << p;
    }
  }
  for (uint64_t m = left & sw->pipe_busy; m != 0; m &= m - 1u) {
    uint32_t p = lfc_ctz(m);
    for (uint32_t d = sw->port[p].pipe.head; d != LFC_NIL; d = sw->desc[d].next)
      sw->pipe_ring[sw->desc[d].ready & sw->pipe_ring_mask] |= 1ull << p;
  }
}

/*
 * PFC skip-ahead: the first cycle >= now in which a packet of port p's pipeline can make its
 * switch do anything but wait. Step F moving a packet into its egress queue changes no output
 * and no register another decision reads before that queue's port decides (PFC without a
 * watchdog storm: lfc_switch_next_event), so lfc_switch_advance may do it in passing; the
 * event is the port's transmit decision, which is not before the cycle after step F nor
 * before the port has sent the packet in flight (lfc_tx_busy_until). Every packet of the
 * pipeline counts, not only the head: a later one may go to a free port.
 */
uint64_t lfc_pipe_next_start(const lfc_switch_t *sw, uint32_t p) {
  uint64_t m = LFC_NEVER;
  for (uint32_t d = sw->port[p].pipe.head; d != LFC_NIL; d = sw->desc[d].next) {
    uint64_t exit_step = sw->now + (uint32_t)(sw->desc[d].ready - (uint32_t)sw->now) - 1u;
    uint64_t free_at = lfc_tx_busy_until(sw, sw->desc[d].out_port, sw->now);
    uint64_t e = exit_step + 1u > free_at ? exit_step + 1u : free_at;
    if (e < m) m = e;
  }
  return m;
}

/* The cycle whose step F moves the head of port p's pipeline: ready - 1. */
uint64_t lfc_pipe_next_event(const lfc_switch_t *sw, uint32_t p) {
  uint32_t h = sw->port[p].pipe.head;
  if (h == LFC_NIL) return LFC_NEVER;
  uint32_t ahead = sw->desc[h].ready - (uint32_t)sw->now; /* ready > now always */
  return sw->now + ahead - 1u;
}

/* Remove the head packet of queue (p, c) and return its descriptor (the caller frees it). */
uint32_t lfc_queue_pop(lfc_switch_t *sw, uint32_t p, uint32_t c) {
  lfc_port_t *pp = &sw->port[p];
  lfc_queue_t *q = &pp->q[c];
  uint32_t d = list_pop(sw, &q->list);
  q->qlen -= sw->desc[d].nblk;
  q->qpkts--;
  if (q->list.head == LFC_NIL) pp->nonempty &= (uint16_t)~(1u << c);
  if (sw->ib && c != LFC_VL15) lfc_credit_tx_update(sw, p, c);
  return d;
}

/* The length of a list. A list is never longer than the pool's high-water mark; the bound keeps a
   corrupted (circular) list from hanging the caller: it then reads as too long, not forever. */
static uint64_t list_len(const lfc_switch_t *sw, const lfc_list_t *l) {
  uint64_t n = 0;
  for (uint32_t d = l->head; d != LFC_NIL && n <= sw->desc_used_hw; d = sw->desc[d].next) n++;
  return n;
}

/* The descriptors that exist (SPEC §7.4), by where they are: being received (store-and-forward
   keeps it in rx_desc, §7.3), in a pipeline, or in an egress queue (every class slot, so VL15's). */
uint64_t lfc_switch_held(const lfc_switch_t *sw, lfc_held_t *held) {
  lfc_held_t h = {0, 0, 0};
  for (uint32_t p = 0; p < sw->ports; p++) {
    const lfc_port_t *pp = &sw->port[p];
    if (pp->rx_desc != LFC_NIL) h.receiving++;
    h.pipeline += list_len(sw, &pp->pipe);
    for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++) h.queued += list_len(sw, &pp->q[c].list);
  }
  if (held != NULL) *held = h;
  return h.receiving + h.pipeline + h.queued;
}

void lfc_queue_reset(lfc_switch_t *sw) {
  sw->desc_free = LFC_NIL;
  sw->desc_used_hw = 0;
  for (uint32_t i = 0; i <= sw->pipe_ring_mask; i++) sw->pipe_ring[i] = 0;
  sw->pipe_busy = 0;
  for (uint32_t p = 0; p < sw->ports; p++) {
    lfc_port_t *pp = &sw->port[p];
    pp->pipe.head = pp->pipe.tail = LFC_NIL;
    pp->rx_desc = LFC_NIL;
    pp->nonempty = 0;
    for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++) {
      pp->q[c].list.head = pp->q[c].list.tail = LFC_NIL;
      pp->q[c].qlen = pp->q[c].qpkts = 0;
    }
  }
}
