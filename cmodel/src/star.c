/*
 * star.c - the star testbed (lfc/star.h): one switch, an end node (SPEC §12.2) on every port,
 * a link of link_delay cycles in each direction (SPEC §12.1), a seeded source per node
 * (traffic.c) and a scoreboard.
 *
 * Cycle t: each source hands the packets it creates to its node; every link head is taken as
 * input; the switch and every node are stepped (SPEC §4.1: their outputs depend on their state
 * only); the scoreboard follows every packet by tag; the outputs are pushed into the links.
 *
 * The scoreboard keeps one record per packet, in a ring per source indexed by sequence number,
 * from the oldest packet not yet delivered or dropped to the newest: memory follows the packets
 * outstanding, not the length of the run. A record moves WAITING (source or node FIFO) ->
 * UPLINK (first block sent by the node) -> ARRIVING (first block at the switch) -> SWITCH
 * (admitted) -> DOWNLINK (first block sent by the switch) -> DELIVERED; or to DROPPED from
 * ARRIVING (an admission drop: a drop event of the same cycle with its tag), from SWITCH (a
 * watchdog discard) or from DOWNLINK (the receiving node's drop counter moved as its first block
 * arrived). Blocks held by the switch = admitted - started - discarded, updated per cycle: the
 * SPEC §7.2 accounting exactly, without reading registers.
 */
#include "lfc/star.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfc_traffic.h"
#include "alloc.h"

#define TAG_SRC_SHIFT 24u
#define TAG_SEQ_MASK 0xFFFFFFu
#define TAG_MAX_SRC 255u
/* A tag holds the source port in 8 bits: every port count the switch accepts fits (the switch's
   own check, run first by lfc_star_cfg_check, bounds ports by LFC_MAX_PORTS). */
_Static_assert(LFC_MAX_PORTS <= TAG_MAX_SRC + 1u, "a tag's 8 source bits hold every port");
#define REC_MIN_CAP 1024u
#define STAR_ERR_LEN 256u
#define DEFAULT_STAR_DELAY 1u
#define CLASS_MASK_BITS 32u /* width of lfc_traffic_cfg_t.class_mask */

enum {
  REC_WAITING = 0, /* in the source or the node's FIFO */
  REC_UPLINK,      /* first block sent by the node */
  REC_ARRIVING,    /* first block at the switch in this cycle (admitted or dropped) */
  REC_SWITCH,      /* admitted: held by the switch */
  REC_DOWNLINK,    /* first block sent by the switch */
  REC_DELIVERED,
  REC_DROPPED
};

typedef struct {
  uint64_t send_cycle; /* cycle the source node sent the first block */
  uint16_t dst;
  uint8_t cls;
  uint8_t nblk;
  uint8_t ecn;
  uint8_t state;
} rec_t;

typedef struct {
  rec_t *ring; /* cap entries, cap a power of two; seq s at ring[s & (cap - 1)] */
  uint64_t cap;
  uint64_t lo; /* oldest packet not yet delivered or dropped */
  uint64_t hi; /* next sequence number */
} window_t;

typedef struct {
  lfc_star_t *star;
  uint32_t node;
} rx_ctx_t;

typedef struct {
  lfc_source_t src;
  lfc_pkt_t *hold; /* created, not yet accepted by the node (a burst at most) */
  uint32_t hold_head, hold_n;
  window_t win;
  uint64_t nic_drops_seen; /* the node's drop counters, summed, as last seen */
} node_t;

struct lfc_star {
  lfc_star_cfg_t cfg;
  uint32_t ports;
  uint64_t cycle;
  lfc_switch_t *sw;
  lfc_nic_t **nic;
  lfc_link_t **up;   /* node p -> switch port p */
  lfc_link_t **down; /* switch port p -> node p */
  lfc_word_t *sw_in, *sw_out, *nic_out;
  node_t *node;
  rx_ctx_t *rx_ctx;
  uint64_t *last_seq; /* per (src, dst, cls): last delivered seq + 1, 0 = none */
  uint64_t held_blocks;
  lfc_score_t score;
  char error[STAR_ERR_LEN];
};

/* ---- Configuration ---- */

void lfc_star_cfg_default(lfc_star_cfg_t *cfg, lfc_mode_t mode, uint32_t ports, uint32_t classes) {
  memset(cfg, 0, sizeof *cfg);
  lfc_switch_cfg_default(&cfg->sw, mode, ports, classes);
  lfc_nic_cfg_default(&cfg->nic, mode, classes);
  cfg->nic.mtu_blocks = cfg->sw.mtu_blocks;
  if (mode == LFC_MODE_IB) cfg->nic.fcp_period = cfg->sw.fcp_period;
  cfg->link_delay = DEFAULT_STAR_DELAY;
  lfc_traffic_cfg_default(&cfg->traffic);
  cfg->traffic.max_nblk = cfg->sw.mtu_blocks;
  /* Every class of the switch; class 0 at least, so that a bad class count is reported by the
     switch's own check rather than as an empty traffic mask. */
  cfg->traffic.class_mask = classes < CLASS_MASK_BITS ? ((1u << classes) - 1u) | 1u : 1u;
}

#define STAR_ERR(...)                                                  \
  do {                                                                 \
    if (err != NULL && errlen > 0) snprintf(err, errlen, __VA_ARGS__); \
    return -1;                                                         \
  } while (0)

int lfc_star_cfg_check(const lfc_star_cfg_t *cfg, char *err, size_t errlen) {
  char sub[STAR_ERR_LEN];
  if (lfc_switch_cfg_check(&cfg->sw, sub, sizeof sub) != 0) STAR_ERR("switch: %s", sub);
  if (lfc_nic_cfg_check(&cfg->nic, sub, sizeof sub) != 0) STAR_ERR("nic: %s", sub);
  const lfc_switch_cfg_t *sw = &cfg->sw;
  const lfc_traffic_cfg_t *tr = &cfg->traffic;
  if (cfg->nic.mode != sw->mode)
    STAR_ERR("star: nic.mode = %d differs from sw.mode = %d", (int)cfg->nic.mode, (int)sw->mode);
  if (cfg->nic.classes != sw->classes)
    STAR_ERR("star: nic.classes = %u differs from sw.classes = %u", cfg->nic.classes, sw->classes);
  if (sw->route != NULL)
    STAR_ERR("star: sw.route must be NULL: the testbed addresses node p as dst p");
  if (cfg->link_delay < 1u || cfg->link_delay > LFC_LINK_MAX_DELAY)
    STAR_ERR("star: link_delay = %u is out of range: allowed 1..%u", cfg->link_delay,
             LFC_LINK_MAX_DELAY);
  if ((unsigned)tr->pattern >= LFC_TRAFFIC_PATTERNS)
    STAR_ERR("traffic: pattern = %d is not a pattern: allowed 0..%d", (int)tr->pattern,
             LFC_TRAFFIC_PATTERNS - 1);
  if (tr->load_permille < 1u || tr->load_permille > 1000u)
    STAR_ERR("traffic: load_permille = %u is out of range: allowed 1..1000", tr->load_permille);
  uint32_t mtu = sw->mtu_blocks < cfg->nic.mtu_blocks ? sw->mtu_blocks : cfg->nic.mtu_blocks;
  if (tr->min_nblk < 1u || tr->min_nblk > tr->max_nblk || tr->max_nblk > mtu)
    STAR_ERR(
        "traffic: min_nblk = %u, max_nblk = %u: need 1 <= min_nblk <= max_nblk <= %u (the "
        "smaller of sw.mtu_blocks and nic.mtu_blocks)",
        tr->min_nblk, tr->max_nblk, mtu);
  uint32_t legal = (1u << sw->classes) - 1u;
  if (sw->mode == LFC_MODE_IB && sw->vl15_blocks > 0u) legal |= 1u << LFC_VL15;
  if (tr->class_mask == 0u || (tr->class_mask & ~legal) != 0u)
    STAR_ERR("traffic: class_mask = 0x%x: need a non-empty subset of 0x%x (the classes%s)",
             tr->class_mask, legal,
             sw->mode == LFC_MODE_IB ? ", and VL15 when vl15_blocks > 0" : "");
  if (tr->incast_dst >= sw->ports)
    STAR_ERR("traffic: incast_dst = %u is not a port: allowed 0..%u", tr->incast_dst,
             sw->ports - 1u);
  if (tr->hotspot_pct > 100u)
    STAR_ERR("traffic: hotspot_pct = %u is out of range: allowed 0..100", tr->hotspot_pct);
  if (tr->ecn_capable_pct > 100u)
    STAR_ERR("traffic: ecn_capable_pct = %u is out of range: allowed 0..100", tr->ecn_capable_pct);
  if (tr->burst_pkts > LFC_SOURCE_MAX_BURST)
    STAR_ERR("traffic: burst_pkts = %u is out of range: allowed 0 (no bursts)..%u", tr->burst_pkts,
             LFC_SOURCE_MAX_BURST);
  return 0;
}

/* ---- Scoreboard records ---- */

static void set_error(lfc_star_t *star, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_error(lfc_star_t *star, const char *fmt, ...) {
  star->score.errors++;
  if (star->error[0] != '\0') return;
  int n =
      snprintf(star->error, sizeof star->error, "cycle %llu: ", (unsigned long long)star->cycle);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(star->error + n, sizeof star->error - (size_t)n, fmt, ap);
  va_end(ap);
}

static int window_grow(window_t *w) {
  uint64_t ncap = w->cap * 2u;
  rec_t *ring = lfc_malloc((size_t)ncap * sizeof *ring);
  if (ring == NULL) return -1;
  for (uint64_t s = w->lo; s < w->hi; s++) ring[s & (ncap - 1u)] = w->ring[s & (w->cap - 1u)];
  free(w->ring);
  w->ring = ring;
  w->cap = ncap;
  return 0;
}

/* The record of tag, or NULL (an error is recorded) if no outstanding packet has it. */
static rec_t *lookup(lfc_star_t *star, uint32_t tag, uint32_t *src_out, uint64_t *seq_out,
                     const char *where) {
  uint32_t src = tag >> TAG_SRC_SHIFT;
  if (src < star->ports) {
    window_t *w = &star->node[src].win;
    uint64_t seq = w->lo + ((tag - (uint32_t)w->lo) & TAG_SEQ_MASK);
    if (seq < w->hi) {
      *src_out = src;
      *seq_out = seq;
      return &w->ring[seq & (w->cap - 1u)];
    }
  }
  set_error(star,
            "%s: tag 0x%08x belongs to no packet outstanding (already delivered or "
            "dropped, or never sent)",
            where, tag);
  return NULL;
}

/* Retire finished records from the front of src's window. */
static void retire(lfc_star_t *star, uint32_t src) {
  window_t *w = &star->node[src].win;
  while (w->lo < w->hi) {
    uint8_t st = w->ring[w->lo & (w->cap - 1u)].state;
    if (st != REC_DELIVERED && st != REC_DROPPED) break;
    w->lo++;
  }
}

static void mark_dropped(lfc_star_t *star, rec_t *r, uint32_t src) {
  r->state = REC_DROPPED;
  star->score.dropped++;
  retire(star, src);
}

/* The rx callback of node ctx->node: a packet admitted at its first block (SPEC §12.2). */
static void on_deliver(void *ctx, const lfc_word_t *w, uint64_t cycle) {
  rx_ctx_t *rc = ctx;
  lfc_star_t *star = rc->star;
  uint32_t src;
  uint64_t seq;
  rec_t *r = lookup(star, w->tag, &src, &seq, "delivery");
  if (r == NULL) return;
  if (r->state != REC_DOWNLINK) {
    set_error(star, "node %u received tag 0x%08x (src %u seq %llu) %s", rc->node, w->tag, src,
              (unsigned long long)seq,
              r->state == REC_DELIVERED ? "twice"
              : r->state == REC_DROPPED ? "after it was dropped"
                                        : "before the switch sent it");
    return;
  }
  bool ecn_ok = w->ecn == r->ecn ||
                (w->ecn == LFC_ECN_CE && (r->ecn == LFC_ECN_ECT0 || r->ecn == LFC_ECN_ECT1));
  if (rc->node != r->dst || w->dst != r->dst || w->cls != r->cls || w->nblk != r->nblk || !ecn_ok)
    set_error(star,
              "node %u received tag 0x%08x altered: dst %u cls %u nblk %u ecn %u, sent "
              "dst %u cls %u nblk %u ecn %u",
              rc->node, w->tag, w->dst, w->cls, w->nblk, w->ecn, r->dst, r->cls, r->nblk, r->ecn);
  uint64_t *last = &star->last_seq[((size_t)src * star->ports + r->dst) * LFC_MAX_CLASSES + r->cls];
  if (seq + 1u <= *last)
    set_error(star, "node %u received src %u seq %llu cls %u after seq %llu: out of order",
              rc->node, src, (unsigned long long)seq, r->cls, (unsigned long long)(*last - 1u));
  else
    *last = seq + 1u;
  uint64_t lat = cycle - r->send_cycle;
  star->score.latency_sum += lat;
  if (lat > star->score.latency_max) star->score.latency_max = lat;
  star->score.delivered++;
  star->score.delivered_blocks += r->nblk;
  r->state = REC_DELIVERED;
  retire(star, src);
}

/* ---- Life cycle ---- */

lfc_star_t *lfc_star_create(const lfc_star_cfg_t *cfg, char *err, size_t errlen) {
  if (lfc_star_cfg_check(cfg, err, errlen) != 0) return NULL;
  uint32_t n = cfg->sw.ports;
  lfc_star_t *star = lfc_calloc(1, sizeof *star);
  if (star == NULL) goto oom;
  star->cfg = *cfg;
  star->ports = n;
  star->nic = lfc_calloc(n, sizeof *star->nic);
  star->up = lfc_calloc(n, sizeof *star->up);
  star->down = lfc_calloc(n, sizeof *star->down);
  star->sw_in = lfc_calloc(n, sizeof *star->sw_in);
  star->sw_out = lfc_calloc(n, sizeof *star->sw_out);
  star->nic_out = lfc_calloc(n, sizeof *star->nic_out);
  star->node = lfc_calloc(n, sizeof *star->node);
  star->rx_ctx = lfc_calloc(n, sizeof *star->rx_ctx);
  star->last_seq = lfc_calloc((size_t)n * n * LFC_MAX_CLASSES, sizeof *star->last_seq);
  if (star->nic == NULL || star->up == NULL || star->down == NULL || star->sw_in == NULL ||
      star->sw_out == NULL || star->nic_out == NULL || star->node == NULL || star->rx_ctx == NULL ||
      star->last_seq == NULL)
    goto oom;
  star->sw = lfc_switch_create(&cfg->sw, err, errlen);
  if (star->sw == NULL) goto fail;
  /* The expected outstanding packets: what the node FIFOs hold, and some in flight. */
  uint64_t cap = REC_MIN_CAP;
  uint32_t nclasses = (uint32_t)__builtin_popcount(cfg->traffic.class_mask);
  while (cap < (uint64_t)cfg->nic.tx_fifo_pkts * nclasses + LFC_SOURCE_MAX_BURST) cap *= 2u;
  uint32_t burst = cfg->traffic.burst_pkts > 0u ? cfg->traffic.burst_pkts : 1u;
  for (uint32_t p = 0; p < n; p++) {
    lfc_nic_cfg_t nc = cfg->nic;
    nc.speed_div = cfg->sw.speed_div[p]; /* each node runs at its port's speed (SPEC §1.2) */
    star->nic[p] = lfc_nic_create(&nc, err, errlen);
    if (star->nic[p] == NULL) goto fail;
    star->rx_ctx[p].star = star;
    star->rx_ctx[p].node = p;
    lfc_nic_set_rx_callback(star->nic[p], on_deliver, &star->rx_ctx[p]);
    star->up[p] = lfc_link_create(cfg->link_delay);
    star->down[p] = lfc_link_create(cfg->link_delay);
    node_t *nd = &star->node[p];
    nd->hold = lfc_calloc(burst, sizeof *nd->hold);
    nd->win.cap = cap;
    nd->win.ring = lfc_calloc(cap, sizeof *nd->win.ring);
    if (star->up[p] == NULL || star->down[p] == NULL || nd->hold == NULL || nd->win.ring == NULL)
      goto oom;
    lfc_source_init(&nd->src, &cfg->traffic, p, n, cfg->sw.speed_div[p]);
  }
  return star;
oom:
  if (err != NULL && errlen > 0) snprintf(err, errlen, "star: out of memory");
fail:
  lfc_star_destroy(star);
  return NULL;
}

void lfc_star_destroy(lfc_star_t *star) {
  if (star == NULL) return;
  for (uint32_t p = 0; p < star->ports; p++) {
    if (star->nic != NULL) lfc_nic_destroy(star->nic[p]);
    if (star->up != NULL) lfc_link_destroy(star->up[p]);
    if (star->down != NULL) lfc_link_destroy(star->down[p]);
    if (star->node != NULL) {
      free(star->node[p].hold);
      free(star->node[p].win.ring);
    }
  }
  lfc_switch_destroy(star->sw);
  free(star->nic);
  free(star->up);
  free(star->down);
  free(star->sw_in);
  free(star->sw_out);
  free(star->nic_out);
  free(star->node);
  free(star->rx_ctx);
  free(star->last_seq);
  free(star);
}

/* ---- One cycle ---- */

/* The source of node p: create what is due, hand it to the node in order, hold the rest. */
static void run_source(lfc_star_t *star, uint32_t p) {
  node_t *nd = &star->node[p];
  const lfc_traffic_cfg_t *tr = &star->cfg.traffic;
  if (nd->hold_n == 0u) {
    nd->hold_head = 0u;
    nd->hold_n = lfc_source_create(&nd->src, tr, star->cycle, nd->hold);
    for (uint32_t i = 0; i < nd->hold_n; i++) {
      window_t *w = &nd->win;
      if (w->hi - w->lo == w->cap && window_grow(w) != 0) {
        set_error(star, "node %u: out of memory for the scoreboard", p);
        nd->hold_n = i;
        break;
      }
      if (w->hi - w->lo > TAG_SEQ_MASK) {
        set_error(star, "node %u: more than 2^24 packets outstanding: tags would repeat", p);
        nd->hold_n = i;
        break;
      }
      lfc_pkt_t *k = &nd->hold[i];
      k->tag = (p << TAG_SRC_SHIFT) | (uint32_t)(w->hi & TAG_SEQ_MASK);
      rec_t *r = &w->ring[w->hi & (w->cap - 1u)];
      r->send_cycle = 0u;
      r->dst = k->dst;
      r->cls = k->cls;
      r->nblk = k->nblk;
      r->ecn = k->ecn;
      r->state = REC_WAITING;
      w->hi++;
      star->score.created++;
    }
  }
  while (nd->hold_n > 0u && lfc_nic_send(star->nic[p], &nd->hold[nd->hold_head]) == 0) {
    nd->hold_head++;
    nd->hold_n--;
  }
}

static uint64_t nic_drops(const lfc_nic_t *nic) {
  const lfc_nic_stats_t *s = lfc_nic_stats(nic);
  uint64_t sum = 0u;
  for (uint32_t c = 0; c < LFC_DROP_CAUSES; c++) sum += s->drop_pkts[c];
  return sum;
}

static void track_switch(lfc_star_t *star) {
  uint32_t src;
  uint64_t seq;
  /* First blocks arriving now: admitted unless a drop event of this cycle names them. */
  rec_t *arriving[LFC_MAX_PORTS];
  uint32_t narriving = 0;
  for (uint32_t p = 0; p < star->ports; p++) {
    const lfc_word_t *w = &star->sw_in[p];
    if (w->kind != LFC_DATA || !w->sop) continue;
    rec_t *r = lookup(star, w->tag, &src, &seq, "switch input");
    if (r == NULL) continue;
    if (r->state != REC_UPLINK) {
      set_error(star, "switch port %u received tag 0x%08x in state %u, not after its node sent it",
                p, w->tag, r->state);
      continue;
    }
    r->state = REC_ARRIVING;
    arriving[narriving++] = r;
  }
  /* Drop events: an admission drop (ARRIVING) or a watchdog discard (SWITCH). */
  const lfc_event_t *ev;
  size_t nev = lfc_switch_events(star->sw, &ev);
  for (size_t i = 0; i < nev; i++) {
    if (ev[i].kind != LFC_EV_DROP) continue;
    rec_t *r = lookup(star, ev[i].tag, &src, &seq, "switch drop event");
    if (r == NULL) continue;
    if (r->state == REC_SWITCH) {
      star->held_blocks -= r->nblk;
    } else if (r->state != REC_ARRIVING) {
      set_error(star, "switch dropped tag 0x%08x (cause %s) that it neither holds nor receives now",
                ev[i].tag, lfc_drop_cause_name((lfc_drop_cause_t)ev[i].cause));
      continue;
    }
    mark_dropped(star, r, src);
  }
  /* The arrivals no drop named are in the switch now. A dropped one is REC_DROPPED (its ring
     slot, even once retired, is not reused within this cycle). */
  for (uint32_t i = 0; i < narriving; i++) {
    rec_t *r = arriving[i];
    if (r->state != REC_ARRIVING) continue;
    r->state = REC_SWITCH;
    star->held_blocks += r->nblk;
  }
  for (uint32_t p = 0; p < star->ports; p++) {
    const lfc_word_t *w = &star->sw_out[p];
    if (w->kind != LFC_DATA || !w->sop) continue;
    rec_t *r = lookup(star, w->tag, &src, &seq, "switch output");
    if (r == NULL) continue;
    if (r->state != REC_SWITCH) {
      set_error(star, "switch port %u sent tag 0x%08x that it does not hold", p, w->tag);
      continue;
    }
    r->state = REC_DOWNLINK;
    star->held_blocks -= r->nblk;
  }
  if (star->held_blocks > star->score.max_buffered_blocks)
    star->score.max_buffered_blocks = star->held_blocks;
}

void lfc_star_step(lfc_star_t *star) {
  uint32_t n = star->ports;
  for (uint32_t p = 0; p < n; p++) {
    const node_t *nd = &star->node[p];
    if (nd->hold_n != 0u || star->cycle >= nd->src.next_time) run_source(star, p);
    star->sw_in[p] = *lfc_link_head(star->up[p]);
  }
  lfc_switch_step(star->sw, star->sw_in, star->sw_out);
  for (uint32_t p = 0; p < n; p++) {
    const lfc_word_t *in = lfc_link_head(star->down[p]); /* valid until the push below */
    lfc_nic_step(star->nic[p], in, &star->nic_out[p]);
    if (in->kind == LFC_DATA && in->sop) { /* a node's admission drop: its counter moved */
      uint64_t d = nic_drops(star->nic[p]);
      if (d != star->node[p].nic_drops_seen) {
        star->node[p].nic_drops_seen = d;
        uint32_t src;
        uint64_t seq;
        rec_t *r = lookup(star, in->tag, &src, &seq, "node drop");
        if (r != NULL && r->state == REC_DOWNLINK) mark_dropped(star, r, src);
      }
    }
    const lfc_word_t *out = &star->nic_out[p];
    if (out->kind == LFC_DATA && out->sop) {
      uint32_t src;
      uint64_t seq;
      rec_t *r = lookup(star, out->tag, &src, &seq, "node output");
      if (r != NULL) {
        r->state = REC_UPLINK;
        r->send_cycle = star->cycle;
      }
    }
  }
  track_switch(star);
  for (uint32_t p = 0; p < n; p++) {
    lfc_link_push(star->up[p], &star->nic_out[p]);
    lfc_link_push(star->down[p], &star->sw_out[p]);
  }
  star->cycle++;
}

void lfc_star_run(lfc_star_t *star, uint64_t cycles) {
  for (uint64_t i = 0; i < cycles; i++) lfc_star_step(star);
}

uint64_t lfc_star_cycle(const lfc_star_t *star) { return star->cycle; }
lfc_switch_t *lfc_star_switch(lfc_star_t *star) { return star->sw; }
lfc_nic_t *lfc_star_nic(lfc_star_t *star, uint32_t port) {
  return port < star->ports ? star->nic[port] : NULL;
}
const lfc_score_t *lfc_star_score(const lfc_star_t *star) { return &star->score; }
const char *lfc_star_error(const lfc_star_t *star) { return star->error; }

void lfc_star_last_words(const lfc_star_t *star, const lfc_word_t **sw_in,
                         const lfc_word_t **sw_out) {
  if (sw_in != NULL) *sw_in = star->sw_in;
  if (sw_out != NULL) *sw_out = star->sw_out;
}
