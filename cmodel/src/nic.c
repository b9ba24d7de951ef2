/*
 * nic.c - the end node (docs/SPEC.md §12.2): one port, the switch's link partner.
 *
 * Transmit: one FIFO of packets per class, round robin over the eligible classes, IB credits
 * (§5.3) or PFC pauses (§6.7, with the response time R of §12.2), flow-control words first and
 * only between packets (§5.2). Receive: framing like the switch (§7.2), a draining buffer per
 * class, IB credit return (§5.4, §5.5) or PFC generation with static thresholds (§6.5, §6.6).
 *
 * The cycle follows §4.1: the output word is decided from S(t) (step A); then S(t+1) from S(t),
 * the input and that decision. Timers are kept as absolute cycles ("due" cycles), so a timer of
 * the SPEC that counts down to 0 and saturates reads as max(due - now, 0): nothing needs
 * touching per cycle, and skip-ahead (lfc_nic_advance) is exact by construction.
 *
 * Choices where SPEC §12.2 is silent (reported to the lead; see the comments at each):
 *   - the drain is per class: each class's buffer drains one block in every cycle t with
 *     t mod drain_div = 0; drain_div = 0 charges nothing (the block leaves as it comes);
 *   - IB VL15 (cls 15) may be sent and received: it is sent before any data VL and without
 *     credits (IBA C7-18, like §5.6 step 1) and always accepted on receive;
 *   - a PFC frame with time q > 0 received while the class's current pause still covers cycle
 *     t + 1 + R extends that pause instead of replacing it (the literal "replaces" would unpause
 *     the class for R cycles at every refresh, breaking the lossless bound of §11 when R > 0).
 */
#include "lfc/nic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfc_rules.h"
#include "alloc.h"
#include "line_time.h"

/* Ranges of the configuration (nic.h, SPEC §12.2 and the matching switch ranges of §3). */
#define NIC_MAX_SPEED_DIV 16u
#define NIC_MAX_FIFO_PKTS 65536u
#define NIC_MAX_U16 65535u
#define NIC_DEFAULT_MTU_BLOCKS 65u
#define NIC_DEFAULT_FIFO_PKTS 1024u
#define NIC_DEFAULT_FCP_PERIOD 1024u
#define NIC_DEFAULT_PAUSE_QUANTA 65535u
#define NIC_DEFAULT_REFRESH 32768u
#define NIC_NO_CLASS 0xFFu
#define NIC_JITTER_SEED_ZERO 0x9E3779B9u /* xorshift32 must not start at 0: seed 0 uses this */

/* The size of nic_class_t, and the padding that makes it so: a power of two makes the index of a
 * class a shift (48 bytes without the padding; docs/perf-log.md, 2026-12-04 night). */
#define NIC_CLASS_BYTES 64u
#define NIC_CLASS_PAD 16u

/* The registers of one class: its transmit FIFO, its receive buffer, and in PFC mode its pause
 * interval and refresh timer. A step reads them together, so they are kept together: a node's
 * state is spread over as few cache lines as its configured classes need (a large fabric has
 * more nodes than a core's cache holds). */
typedef struct {
  lfc_pkt_t *fifo;      /* ring buffer of cfg.tx_fifo_pkts */
  uint32_t fifo_head;
  uint32_t fifo_count;
  uint32_t occ;         /* the receive buffer's blocks */
  /* PFC transmit side: the pause interval [pause_start, pause_end) (§12.2) */
  uint64_t pause_start;
  uint64_t pause_end;
  /* PFC receive side: refresh_due: cycle from which the timer = 0 */
  uint64_t refresh_due;
  uint8_t pad[NIC_CLASS_PAD]; /* to NIC_CLASS_BYTES */
} nic_class_t;
_Static_assert(sizeof(nic_class_t) == NIC_CLASS_BYTES, "nic_class_t: set NIC_CLASS_PAD");

/*
 * The node's registers, the ones read in every step and skip-ahead first (after cfg) so that a
 * node's step touches few cache lines (a large fabric has a thousand nodes, docs/sim.md
 * "Speed"); the per-class registers (nic_class_t) and the IB state after them.
 */
struct lfc_nic {
  lfc_nic_cfg_t cfg;
  uint64_t cycle;

  /* Transmit state (§5.2, §7.4, §12.2). */
  uint32_t slot_phase; /* cycle mod speed_div: 0 in a slot (§1.2) */
  uint32_t tx_rem;     /* words of the packet in flight still to send */
  uint32_t tx_mrg;     /* its merge flag: nblk - tx_mrg words (§2.4) */
  lfc_pkt_t tx_pkt;    /* packet in flight */
  lfc_line_t line;     /* line time (§2.4), with cfg.wire_time */
  uint32_t jitter_rng; /* xorshift32 state of the response jitter (§12.2), from cfg.seed */
  uint32_t nonempty;   /* bit c: FIFO c holds a packet */
  uint32_t rr;         /* round-robin pointer, reset classes - 1 */
  uint32_t data_classes_mask; /* bits 0..classes-1 */

  /* Receive (§7.2): the packet being received, the receive buffer's non-empty classes. */
  uint32_t rx_rem;
  uint64_t rx_last; /* cycle of the last block received of the current packet */
  uint32_t occ_mask; /* bit c: occ[c] > 0 */

  /* PFC: transmit side, the classes whose pause interval (pause_start, pause_end below) has
     not ended yet (§12.2); receive side, bit per class (§6.5, §6.6). */
  uint32_t pause_live;
  uint32_t xoff;
  uint32_t pfc_pend;

  /* IB summaries (§5.1, §5.5, §10). */
  uint32_t fcp_dirty;   /* VLs whose FCTBS or FCCL may differ from the last FCP (a superset) */
  uint32_t blocked;     /* data VLs whose head fails the send rule (§10 credit_blocked_cycles) */
  uint32_t nblocked;    /* its population count */
  uint64_t fcp_due_min; /* the smallest fcp_due */

  lfc_nic_rx_fn rx_fn;
  void *rx_ctx;

  /* Transmit FIFOs, ring buffers of cfg.tx_fifo_pkts each, carved from pool. */
  lfc_pkt_t *pool;
  /* Per class (index = class, 15 = IB VL15): 64 bytes a class, one cache line or two (the node
     is not allocated aligned to a line) where the separate arrays took one line each. */
  nic_class_t c[LFC_MAX_CLASSES];

  /* IB, per data VL (§5.1). fcp_due: cycle from which fcp_timer = 0. */
  uint16_t fctbs[LFC_IB_MAX_VLS];
  uint16_t fccl[LFC_IB_MAX_VLS];
  uint16_t abr[LFC_IB_MAX_VLS];
  uint16_t fcp_sent_fctbs[LFC_IB_MAX_VLS];
  uint16_t fcp_sent_fccl[LFC_IB_MAX_VLS];
  uint64_t fcp_due[LFC_IB_MAX_VLS];

  lfc_nic_stats_t stats;
};

/* ---- Configuration ---- */

void lfc_nic_cfg_default(lfc_nic_cfg_t *cfg, lfc_mode_t mode, uint32_t classes) {
  memset(cfg, 0, sizeof *cfg);
  cfg->mode = mode;
  cfg->classes = classes;
  cfg->speed_div = 1u;
  cfg->mtu_blocks = NIC_DEFAULT_MTU_BLOCKS;
  cfg->tx_fifo_pkts = NIC_DEFAULT_FIFO_PKTS;
  cfg->rx_blocks = 0u;
  cfg->drain_div = 0u;
  cfg->fcp_period = NIC_DEFAULT_FCP_PERIOD;
  cfg->rx_xoff = 0u;
  cfg->rx_xon = 0u;
  cfg->pause_quanta = NIC_DEFAULT_PAUSE_QUANTA;
  cfg->refresh_cycles = NIC_DEFAULT_REFRESH;
  cfg->response_cycles = 0u;
  cfg->fcp_holdoff = 0u;
  cfg->wire_time = 0u;
  cfg->response_jitter = 0u;
  cfg->seed = 1u;
}

#define NIC_ERR(...)                                                   \
  do {                                                                 \
    if (err != NULL && errlen > 0) snprintf(err, errlen, __VA_ARGS__); \
    return -1;                                                         \
  } while (0)

int lfc_nic_cfg_check(const lfc_nic_cfg_t *cfg, char *err, size_t errlen) {
  if (cfg->mode != LFC_MODE_IB && cfg->mode != LFC_MODE_PFC)
    NIC_ERR("nic mode = %d is not a mode: allowed are IB (0) and PFC (1)", (int)cfg->mode);
  uint32_t max_classes = cfg->mode == LFC_MODE_IB ? LFC_IB_MAX_VLS : LFC_PFC_MAX_PRIOS;
  if (cfg->classes < 1u || cfg->classes > max_classes)
    NIC_ERR("nic classes = %u is out of range: allowed 1..%u in %s mode", cfg->classes, max_classes,
            cfg->mode == LFC_MODE_IB ? "IB" : "PFC");
  if (cfg->speed_div < 1u || cfg->speed_div > NIC_MAX_SPEED_DIV)
    NIC_ERR("nic speed_div = %u is out of range: allowed 1..%u", cfg->speed_div, NIC_MAX_SPEED_DIV);
  if (cfg->mtu_blocks < 1u || cfg->mtu_blocks > LFC_MAX_NBLK)
    NIC_ERR("nic mtu_blocks = %u is out of range: allowed 1..%u", cfg->mtu_blocks, LFC_MAX_NBLK);
  if (cfg->tx_fifo_pkts < 1u || cfg->tx_fifo_pkts > NIC_MAX_FIFO_PKTS)
    NIC_ERR("nic tx_fifo_pkts = %u is out of range: allowed 1..%u", cfg->tx_fifo_pkts,
            NIC_MAX_FIFO_PKTS);
  if (cfg->rx_blocks > NIC_MAX_U16)
    NIC_ERR("nic rx_blocks = %u is out of range: allowed 0 (unlimited) or mtu_blocks..%u",
            cfg->rx_blocks, NIC_MAX_U16);
  if (cfg->rx_blocks != 0u && cfg->rx_blocks < cfg->mtu_blocks)
    NIC_ERR(
        "nic rx_blocks = %u is below mtu_blocks = %u: a full-size packet could never be "
        "received (0 = unlimited)",
        cfg->rx_blocks, cfg->mtu_blocks);
  if (cfg->wire_time > 1u)
    NIC_ERR("nic wire_time = %u is out of range: allowed 0 (a word per slot) or 1 (line time)",
            cfg->wire_time);
  if (cfg->drain_div > NIC_MAX_U16)
    NIC_ERR("nic drain_div = %u is out of range: allowed 0 (drains at once)..%u", cfg->drain_div,
            NIC_MAX_U16);
  if (cfg->mode == LFC_MODE_IB) {
    if (cfg->fcp_period < 1u || cfg->fcp_period > NIC_MAX_U16)
      NIC_ERR("nic fcp_period = %u is out of range: allowed 1..%u", cfg->fcp_period, NIC_MAX_U16);
    if (cfg->fcp_holdoff > NIC_MAX_U16)
      NIC_ERR("nic fcp_holdoff = %u is out of range: allowed 0..%u", cfg->fcp_holdoff,
              NIC_MAX_U16);
    return 0;
  }
  if (cfg->pause_quanta < 1u || cfg->pause_quanta > NIC_MAX_U16)
    NIC_ERR("nic pause_quanta = %u is out of range: allowed 1..%u", cfg->pause_quanta, NIC_MAX_U16);
  if (cfg->refresh_cycles < 1u || cfg->refresh_cycles >= cfg->pause_quanta)
    NIC_ERR(
        "nic refresh_cycles = %u is out of range: allowed 1..pause_quanta-1 = %u (the "
        "peer's pause would lapse before a refresh)",
        cfg->refresh_cycles, cfg->pause_quanta - 1u);
  if (cfg->response_jitter > NIC_MAX_U16)
    NIC_ERR("nic response_jitter = %u is out of range: allowed 0..%u", cfg->response_jitter,
            NIC_MAX_U16);
  if (cfg->response_cycles > NIC_MAX_U16)
    NIC_ERR("nic response_cycles = %u is out of range: allowed 0..%u", cfg->response_cycles,
            NIC_MAX_U16);
  if (cfg->rx_blocks != 0u && !(cfg->rx_xon < cfg->rx_xoff && cfg->rx_xoff <= cfg->rx_blocks))
    NIC_ERR(
        "nic rx_xon = %u, rx_xoff = %u with rx_blocks = %u: need rx_xon < rx_xoff <= "
        "rx_blocks",
        cfg->rx_xon, cfg->rx_xoff, cfg->rx_blocks);
  return 0;
}

/* ---- Small helpers ---- */

static inline bool is_ib(const lfc_nic_t *nic) { return nic->cfg.mode == LFC_MODE_IB; }

/* Is cls a class this node sends and receives? Data classes, and VL15 in IB mode. */
static inline bool class_ok(const lfc_nic_t *nic, uint32_t cls) {
  return cls < nic->cfg.classes || (is_ib(nic) && cls == LFC_VL15);
}

static inline uint32_t lowest_bit(uint32_t mask) { return (uint32_t)__builtin_ctz(mask); }

/* First cycle >= x that is a multiple of d (d >= 1). */
static inline uint64_t round_up(uint64_t x, uint64_t d) { return (x + d - 1u) / d * d; }

/* Number of multiples of d in [a, b), a <= b. */
static inline uint64_t multiples_in(uint64_t a, uint64_t b, uint64_t d) {
  return (b + d - 1u) / d - (a + d - 1u) / d;
}

/* SPEC §5.4: FCCL to advertise for data VL vl; an unlimited buffer always has 2048 free. */
static inline uint32_t adv_fccl(const lfc_nic_t *nic, uint32_t vl) {
  uint32_t free_blocks =
      nic->cfg.rx_blocks == 0u ? LFC_CREDIT_WINDOW : nic->cfg.rx_blocks - nic->c[vl].occ;
  return lfc_rule_fccl(nic->abr[vl], free_blocks);
}

static inline const lfc_pkt_t *fifo_front(const lfc_nic_t *nic, uint32_t cls) {
  return &nic->c[cls].fifo[nic->c[cls].fifo_head];
}

/* SPEC §5.3: does the head of data VL vl pass the send rule? (FIFO must be non-empty.) */
static inline bool head_send_ok(const lfc_nic_t *nic, uint32_t vl) {
  return lfc_rule_send_ok(nic->fctbs[vl], nic->fccl[vl], fifo_front(nic, vl)->nblk);
}

/* Data classes whose head may start now (§12.2 eligibility), VL15 excluded. */
static uint32_t eligible_mask(const lfc_nic_t *nic, uint64_t t) {
  uint32_t cand = nic->nonempty & nic->data_classes_mask;
  if (is_ib(nic)) return cand & ~nic->blocked; /* kept by update_blocked */
  uint32_t elig = 0u;
  while (cand != 0u) {
    uint32_t c = lowest_bit(cand);
    cand &= cand - 1u;
    if (!(nic->c[c].pause_start <= t && t < nic->c[c].pause_end)) elig |= 1u << c;
  }
  return elig;
}

/* SPEC §12.2: round robin, the first eligible class after rr (rr itself last). */
static uint32_t rr_pick(uint32_t elig, uint32_t rr) {
  uint32_t after = rr + 1u < 32u ? elig & ~((2u << rr) - 1u) : 0u;
  return lowest_bit(after != 0u ? after : elig);
}

/* SPEC §5.5: has data VL vl's FCTBS or FCCL changed since its last FCP? */
static inline bool fcp_changed(const lfc_nic_t *nic, uint32_t vl) {
  return nic->fctbs[vl] != nic->fcp_sent_fctbs[vl] || adv_fccl(nic, vl) != nic->fcp_sent_fccl[vl];
}

/* SPEC §5.5: the first cycle in which a change of data VL vl counts (the hold-off). */
static inline uint64_t fcp_change_from(const lfc_nic_t *nic, uint32_t vl) {
  return lfc_rule_fcp_change_from(nic->fcp_due[vl], nic->cfg.fcp_holdoff, nic->cfg.fcp_period);
}

/* SPEC §5.5: is an FCP pending for data VL vl at cycle t? */
static inline bool fcp_pending(const lfc_nic_t *nic, uint32_t vl, uint64_t t) {
  return t >= nic->fcp_due[vl] || (fcp_changed(nic, vl) && t >= fcp_change_from(nic, vl));
}

/* SPEC §5.5: lowest data VL with a pending FCP at cycle t, or -1. Only the VLs marked dirty or
 * whose timer is due can be pending; dirty marks found stale are dropped. */
static int fcp_pending_vl(lfc_nic_t *nic, uint64_t t) {
  uint32_t cand = nic->fcp_dirty;
  if (t >= nic->fcp_due_min)
    for (uint32_t vl = 0; vl < nic->cfg.classes; vl++)
      if (t >= nic->fcp_due[vl]) cand |= 1u << vl;
  while (cand != 0u) {
    uint32_t vl = lowest_bit(cand);
    cand &= cand - 1u;
    if (fcp_pending(nic, vl, t)) return (int)vl;
    if (!fcp_changed(nic, vl)) nic->fcp_dirty &= ~(1u << vl); /* held off: stays dirty */
  }
  return -1;
}

/* SPEC §6.6: the classes a PFC frame sent at cycle t carries (0: no frame pending). */
static uint32_t pfc_pending_en(const lfc_nic_t *nic, uint64_t t) {
  uint32_t en = nic->pfc_pend;
  uint32_t x = nic->xoff;
  while (x != 0u) {
    uint32_t c = lowest_bit(x);
    x &= x - 1u;
    if (t >= nic->c[c].refresh_due) en |= 1u << c;
  }
  return en;
}

/* Recompute whether data VL vl is credit-blocked: after its head, FCTBS or FCCL changed. */
static void update_blocked(lfc_nic_t *nic, uint32_t vl) {
  bool b = vl < nic->cfg.classes && (nic->nonempty >> vl & 1u) && !head_send_ok(nic, vl);
  bool was = nic->blocked >> vl & 1u;
  if (b == was) return;
  nic->blocked ^= 1u << vl;
  nic->nblocked = b ? nic->nblocked + 1u : nic->nblocked - 1u;
}

static void fifo_pop(lfc_nic_t *nic, uint32_t cls, lfc_pkt_t *pkt) {
  *pkt = nic->c[cls].fifo[nic->c[cls].fifo_head];
  nic->c[cls].fifo_head =
      nic->c[cls].fifo_head + 1u == nic->cfg.tx_fifo_pkts ? 0u : nic->c[cls].fifo_head + 1u;
  if (--nic->c[cls].fifo_count == 0u) nic->nonempty &= ~(1u << cls);
}

/* The data word idx of pkt sent with merge flag mrg (SPEC §7.4). */
static void data_word(lfc_word_t *w, const lfc_pkt_t *pkt, uint32_t idx, uint32_t mrg) {
  w->kind = LFC_DATA;
  w->sop = idx == 0u;
  w->eop = idx + 1u == pkt->nblk - mrg;
  w->cls = pkt->cls;
  w->nblk = pkt->nblk;
  w->pad = pkt->pad;
  w->mrg = (uint8_t)mrg;
  w->dst = pkt->dst;
  w->tag = pkt->tag;
  w->ecn = pkt->ecn;
}

/* ---- Life cycle ---- */

lfc_nic_t *lfc_nic_create(const lfc_nic_cfg_t *cfg, char *err, size_t errlen) {
  if (lfc_nic_cfg_check(cfg, err, errlen) != 0) return NULL;
  lfc_nic_t *nic = lfc_calloc(1, sizeof *nic);
  uint32_t nfifo = cfg->mode == LFC_MODE_IB ? cfg->classes + 1u : cfg->classes;
  if (nic != NULL) nic->pool = lfc_calloc((size_t)nfifo * cfg->tx_fifo_pkts, sizeof(lfc_pkt_t));
  if (nic == NULL || nic->pool == NULL) {
    free(nic);
    if (err != NULL && errlen > 0) snprintf(err, errlen, "nic: out of memory");
    return NULL;
  }
  nic->cfg = *cfg;
  nic->data_classes_mask = (1u << cfg->classes) - 1u;
  for (uint32_t c = 0; c < cfg->classes; c++)
    nic->c[c].fifo = nic->pool + (size_t)c * cfg->tx_fifo_pkts;
  if (cfg->mode == LFC_MODE_IB)
    nic->c[LFC_VL15].fifo = nic->pool + (size_t)cfg->classes * cfg->tx_fifo_pkts;
  lfc_nic_reset(nic);
  return nic;
}

void lfc_nic_destroy(lfc_nic_t *nic) {
  if (nic == NULL) return;
  free(nic->pool);
  free(nic);
}

void lfc_nic_reset(lfc_nic_t *nic) {
  nic->cycle = 0u;
  for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++) { /* every class's registers but its FIFO */
    lfc_pkt_t *fifo = nic->c[c].fifo;
    nic->c[c] = (nic_class_t){.fifo = fifo};
  }
  nic->nonempty = 0u;
  memset(&nic->tx_pkt, 0, sizeof nic->tx_pkt);
  nic->tx_rem = 0u;
  nic->tx_mrg = 0u;
  memset(&nic->line, 0, sizeof nic->line); /* slack 0 (§2.4) */
  nic->jitter_rng = nic->cfg.seed != 0u ? nic->cfg.seed : NIC_JITTER_SEED_ZERO;
  nic->slot_phase = 0u;
  nic->rr = nic->cfg.classes - 1u;
  memset(nic->fctbs, 0, sizeof nic->fctbs);
  memset(nic->fccl, 0, sizeof nic->fccl);
  memset(nic->abr, 0, sizeof nic->abr);
  memset(nic->fcp_sent_fctbs, 0, sizeof nic->fcp_sent_fctbs);
  memset(nic->fcp_sent_fccl, 0, sizeof nic->fcp_sent_fccl);
  memset(nic->fcp_due, 0, sizeof nic->fcp_due); /* fcp_timer = 0: every VL pending (§5.5) */
  nic->fcp_due_min = 0u;
  nic->fcp_dirty = 0u;
  nic->blocked = 0u;
  nic->nblocked = 0u;
  nic->pause_live = 0u;
  nic->xoff = 0u;
  nic->pfc_pend = 0u;
  nic->rx_rem = 0u;
  nic->rx_last = 0u;
  nic->occ_mask = 0u;
  memset(&nic->stats, 0, sizeof nic->stats);
}

void lfc_nic_set_rx_callback(lfc_nic_t *nic, lfc_nic_rx_fn fn, void *ctx) {
  nic->rx_fn = fn;
  nic->rx_ctx = ctx;
}

int lfc_nic_send(lfc_nic_t *nic, const lfc_pkt_t *pkt) {
  if (!class_ok(nic, pkt->cls) || pkt->nblk < 1u || pkt->nblk > nic->cfg.mtu_blocks ||
      pkt->ecn > LFC_ECN_CE || pkt->pad >= LFC_BLOCK_BYTES)
    return -1;
  uint32_t c = pkt->cls;
  if (nic->c[c].fifo_count == nic->cfg.tx_fifo_pkts) return -1;
  uint32_t slot = nic->c[c].fifo_head + nic->c[c].fifo_count;
  if (slot >= nic->cfg.tx_fifo_pkts) slot -= nic->cfg.tx_fifo_pkts;
  nic->c[c].fifo[slot] = *pkt;
  nic->c[c].fifo_count++;
  nic->nonempty |= 1u << c;
  if (nic->c[c].fifo_count == 1u && is_ib(nic)) update_blocked(nic, c); /* a new head */
  return 0;
}

uint32_t lfc_nic_backlog(const lfc_nic_t *nic, uint32_t cls) {
  return cls < LFC_MAX_CLASSES && nic->c[cls].fifo != NULL ? nic->c[cls].fifo_count : 0u;
}

uint64_t lfc_nic_cycle(const lfc_nic_t *nic) { return nic->cycle; }

const lfc_nic_stats_t *lfc_nic_stats(const lfc_nic_t *nic) { return &nic->stats; }

/* SPEC §12.2: a draw of 0..response_jitter, one per PFC frame received (xorshift32, Marsaglia
 * 2003, seeded from cfg.seed; its state is never 0). */
static uint32_t jitter_draw(lfc_nic_t *nic) {
  uint32_t x = nic->jitter_rng;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  nic->jitter_rng = x;
  return x % (nic->cfg.response_jitter + 1u);
}

/* ---- One cycle ---- */

/* Cycle counters that read S(t): paused classes (§6.7) and credit-blocked VLs (§10). */
static void count_cycle(lfc_nic_t *nic, uint64_t t) {
  nic->stats.credit_blocked_cycles += nic->nblocked;
  uint32_t live = nic->pause_live;
  while (live != 0u) {
    uint32_t c = lowest_bit(live);
    live &= live - 1u;
    if (t >= nic->c[c].pause_end)
      nic->pause_live &= ~(1u << c);
    else if (t >= nic->c[c].pause_start)
      nic->stats.paused_cycles++;
  }
}

/* Steps A and B (SPEC §4.1, §5.2): the word sent in cycle t and its consequences. */
static void transmit(lfc_nic_t *nic, uint64_t t, lfc_word_t *out) {
  memset(out, 0, sizeof *out);
  if (nic->slot_phase != 0u) return; /* §1.2: not a slot */
  if (nic->tx_rem > 0u) {            /* §5.2.2: busy */
    data_word(out, &nic->tx_pkt, nic->tx_pkt.nblk - nic->tx_mrg - nic->tx_rem, nic->tx_mrg);
    nic->tx_rem--;
    return;
  }
  if (nic->cfg.wire_time && lfc_line_gap(&nic->line, t)) return; /* §5.2.2a: the idle gap */
  if (is_ib(nic)) { /* §5.2.3 with §5.5: the FCP of the lowest pending VL */
    int vl = fcp_pending_vl(nic, t);
    if (vl >= 0) {
      uint32_t fccl = adv_fccl(nic, (uint32_t)vl);
      out->kind = LFC_FCP;
      out->fc_op = LFC_FCP_OP_NORMAL;
      out->fc_vl = (uint8_t)vl;
      out->fc_fctbs = nic->fctbs[vl];
      out->fc_fccl = (uint16_t)fccl;
      nic->fcp_sent_fctbs[vl] = nic->fctbs[vl];
      nic->fcp_sent_fccl[vl] = (uint16_t)fccl;
      nic->fcp_due[vl] = t + nic->cfg.fcp_period; /* fcp_timer <= fcp_period - 1 */
      nic->fcp_dirty &= ~(1u << vl);
      nic->fcp_due_min = UINT64_MAX;
      for (uint32_t v = 0; v < nic->cfg.classes; v++)
        if (nic->fcp_due[v] < nic->fcp_due_min) nic->fcp_due_min = nic->fcp_due[v];
      nic->stats.fcp_tx++;
      if (nic->cfg.wire_time) lfc_line_ctrl(&nic->line, t, nic->cfg.speed_div, LFC_FCP_LINE_BYTES);
      return;
    }
  } else { /* §5.2.3 with §6.6: a PFC frame */
    uint32_t en = pfc_pending_en(nic, t);
    if (en != 0u) {
      out->kind = LFC_PFC;
      out->pfc_en = (uint8_t)en;
      for (uint32_t c = 0; c < nic->cfg.classes; c++) {
        if (!(en >> c & 1u)) continue;
        if (nic->xoff >> c & 1u) {
          out->pfc_time[c] = (uint16_t)nic->cfg.pause_quanta;
          nic->c[c].refresh_due = t + nic->cfg.refresh_cycles; /* refresh_timer <= cycles - 1 */
          nic->stats.xoff_tx++;
        } else {
          nic->stats.xon_tx++;
        }
      }
      nic->pfc_pend &= ~en; /* step G may set it again (a new transition wins) */
      nic->stats.pfc_tx++;
      if (nic->cfg.wire_time) lfc_line_ctrl(&nic->line, t, nic->cfg.speed_div, LFC_PFC_LINE_BYTES);
      return;
    }
  }
  /* §5.2.4: start a packet. VL15 first (IB, not credit-limited), then round robin. */
  uint32_t cls;
  if (nic->nonempty >> LFC_VL15 & 1u) {
    cls = LFC_VL15;
  } else {
    uint32_t elig = eligible_mask(nic, t);
    if (elig == 0u) return; /* §5.2.5: IDLE */
    cls = rr_pick(elig, nic->rr);
    nic->rr = cls;
  }
  fifo_pop(nic, cls, &nic->tx_pkt);
  if (is_ib(nic) && cls != LFC_VL15) { /* §5.3: the whole packet is counted at its start */
    nic->fctbs[cls] = (uint16_t)lfc_rule_credit_add(nic->fctbs[cls], nic->tx_pkt.nblk);
    nic->fcp_dirty |= 1u << cls;
    update_blocked(nic, cls);
  }
  const lfc_pkt_t *pk = &nic->tx_pkt;
  bool ib = is_ib(nic);
  uint32_t k = nic->cfg.speed_div;
  nic->tx_mrg = nic->cfg.wire_time ? lfc_line_mrg(&nic->line, t, k, pk->nblk, pk->pad, ib) : 0u;
  if (nic->cfg.wire_time) lfc_line_data(&nic->line, t, k, pk->nblk, pk->pad, ib, (uint8_t)nic->tx_mrg);
  nic->tx_rem = pk->nblk - 1u - nic->tx_mrg;
  nic->stats.tx_pkts++;
  nic->stats.tx_blocks += pk->nblk;
  data_word(out, pk, 0u, nic->tx_mrg);
}

/* Step G for PFC (SPEC §6.5 with the static thresholds of §12.2), from occ of S(t). */
static void pfc_generate(lfc_nic_t *nic) {
  for (uint32_t c = 0; c < nic->cfg.classes; c++) {
    bool x = nic->xoff >> c & 1u;
    bool nx = x ? !(nic->c[c].occ <= nic->cfg.rx_xon) : nic->c[c].occ >= nic->cfg.rx_xoff;
    if (nx != x) {
      nic->xoff ^= 1u << c;
      nic->pfc_pend |= 1u << c;
    }
  }
}

/* Step D (SPEC §5.3, §5.4, §6.7 with §12.2's R): a control word received in cycle t. */
static void receive_control(lfc_nic_t *nic, const lfc_word_t *in, uint64_t t) {
  if (in->kind == LFC_FCP) {
    if (!is_ib(nic)) return; /* ignored in PFC mode */
    nic->stats.fcp_rx++;
    if (in->fc_op > LFC_FCP_OP_INIT || in->fc_vl >= nic->cfg.classes) return; /* ignored */
    nic->fccl[in->fc_vl] = in->fc_fccl & LFC_CREDIT_MASK;
    nic->abr[in->fc_vl] = in->fc_fctbs & LFC_CREDIT_MASK;
    nic->fcp_dirty |= 1u << in->fc_vl;
    update_blocked(nic, in->fc_vl);
    return;
  }
  if (is_ib(nic)) return; /* PFC frames are ignored in IB mode */
  nic->stats.pfc_rx++;
  /* §12.2: one jitter draw per frame delays its pauses and its resumes alike */
  uint64_t jitter = nic->cfg.response_jitter > 0u ? jitter_draw(nic) : 0u;
  uint64_t start = t + 1u + nic->cfg.response_cycles + jitter;
  for (uint32_t c = 0; c < nic->cfg.classes; c++) {
    if (!(in->pfc_en >> c & 1u)) continue;
    uint64_t q = in->pfc_time[c];
    if (q == 0u) { /* XON: the pause ends at once (§12.2), or jitter cycles late */
      nic->stats.resume_rx++;
      if (jitter > 0u && nic->c[c].pause_end > t + 1u + jitter) {
        nic->c[c].pause_end = t + 1u + jitter;
        if (nic->c[c].pause_start >= nic->c[c].pause_end)
          nic->c[c].pause_start = nic->c[c].pause_end = 0u;
        continue;
      }
      if (jitter > 0u) continue; /* the pause ends by then anyway */
      nic->c[c].pause_start = 0u;
      nic->c[c].pause_end = 0u;
      continue;
    }
    nic->stats.pause_rx++;
    /* A pause that still covers `start` goes on until the new end (see the file comment). */
    if (nic->c[c].pause_end < start) nic->c[c].pause_start = start;
    nic->c[c].pause_end = start + q * nic->cfg.speed_div;
    nic->pause_live |= 1u << c;
  }
}

/* Step E (SPEC §7.2, §5.4, §12.2): a data block received in cycle t. Returns the blocks to
 * charge to class *cls (0 if none), charged after the drain of this cycle. */
static uint32_t receive_data(lfc_nic_t *nic, const lfc_word_t *in, uint64_t t, uint32_t *cls) {
  if (nic->rx_rem > 0u) { /* a continuation block */
    nic->rx_rem--;
    nic->rx_last = t;
    return 0u;
  }
  if (!in->sop) return 0u; /* discarded: no packet is being received */
  uint32_t n = in->nblk, c = in->cls, mrg = in->mrg & 1u;
  if (n == 0u || n > nic->cfg.mtu_blocks || n <= mrg || !class_ok(nic, c)) {
    nic->stats.drop_pkts[LFC_DROP_MALFORMED]++;
    return 0u;
  }
  nic->rx_rem = n - 1u - mrg; /* the words still to come (§7.2) */
  nic->rx_last = t;
  bool fits;
  if (c == LFC_VL15) {
    fits = true; /* management packets are consumed at once */
  } else {
    if (is_ib(nic)) {
      nic->abr[c] = (uint16_t)lfc_rule_credit_add(nic->abr[c], n);
      nic->fcp_dirty |= 1u << c;
    }
    fits = nic->cfg.rx_blocks == 0u || n <= nic->cfg.rx_blocks - nic->c[c].occ;
  }
  if (!fits) {
    nic->stats.drop_pkts[is_ib(nic) ? LFC_DROP_CREDIT : LFC_DROP_HEADROOM]++;
    return 0u;
  }
  nic->stats.rx_pkts++;
  nic->stats.rx_blocks += n;
  if (nic->rx_fn != NULL) nic->rx_fn(nic->rx_ctx, in, t);
  if (c == LFC_VL15 || nic->cfg.drain_div == 0u) return 0u;
  *cls = c;
  return n;
}

void lfc_nic_step(lfc_nic_t *nic, const lfc_word_t *in, lfc_word_t *out) {
  uint64_t t = nic->cycle;
  count_cycle(nic, t);
  transmit(nic, t, out);                                          /* steps A, B */
  if (!is_ib(nic) && nic->cfg.rx_blocks != 0u) pfc_generate(nic); /* step G, from S(t) */
  uint32_t adm_cls = NIC_NO_CLASS, adm_n = 0u;
  if (in != NULL) {
    if (in->kind == LFC_DATA)
      adm_n = receive_data(nic, in, t, &adm_cls); /* step E */
    else if (in->kind != LFC_IDLE)
      receive_control(nic, in, t); /* step D */
  }
  /* The drain reads occ of S(t); the admission of this cycle is charged after it. */
  if (nic->occ_mask != 0u && t % nic->cfg.drain_div == 0u) {
    uint32_t m = nic->occ_mask;
    nic->fcp_dirty |= m; /* the FCCL may move (§5.4) */
    while (m != 0u) {
      uint32_t c = lowest_bit(m);
      m &= m - 1u;
      if (--nic->c[c].occ == 0u) nic->occ_mask &= ~(1u << c);
    }
  }
  if (adm_n > 0u) {
    nic->c[adm_cls].occ += adm_n;
    nic->fcp_dirty |= 1u << adm_cls;
    nic->occ_mask |= 1u << adm_cls;
    if (nic->c[adm_cls].occ > nic->stats.peak_rx_blocks)
      nic->stats.peak_rx_blocks = nic->c[adm_cls].occ;
  }
  nic->slot_phase = nic->slot_phase + 1u == nic->cfg.speed_div ? 0u : nic->slot_phase + 1u;
  nic->cycle = t + 1u;
}

/* ---- Skip-ahead ---- */

/* The cycle of the j-th drain (j >= 1) at or after cycle t. */
static inline uint64_t drain_cycle(const lfc_nic_t *nic, uint64_t t, uint64_t j) {
  uint64_t d = nic->cfg.drain_div;
  return round_up(t, d) + (j - 1u) * d;
}

static inline uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static inline uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/*
 * The earliest cycle >= now at which the node, without input, does anything but send the next
 * block of a started packet, take in the next block of a packet it is receiving, count down a
 * timer or drain its receive buffer: a transmit decision that sends a word other than a
 * continuation block (a flow-control word or a new packet), or a PFC XOFF/XON transition.
 */
uint64_t lfc_nic_next_event(const lfc_nic_t *nic) {
  uint64_t t = nic->cycle, k = nic->cfg.speed_div;
  uint64_t best = UINT64_MAX;
  bool drains = nic->cfg.drain_div != 0u;

  /* Step G transitions (PFC, §6.5). The drain can only bring an XON. */
  if (!is_ib(nic) && nic->cfg.rx_blocks != 0u) {
    for (uint32_t c = 0; c < nic->cfg.classes; c++) {
      bool x = nic->xoff >> c & 1u;
      uint32_t o = nic->c[c].occ;
      if (x ? o <= nic->cfg.rx_xon : o >= nic->cfg.rx_xoff) return t;
      if (x && drains) best = min_u64(best, drain_cycle(nic, t, o - nic->cfg.rx_xon) + 1u);
    }
  }

  /* Transmit decisions: from the first slot f at which the transmitter is free. */
  uint64_t f = round_up(t, k) + (uint64_t)nic->tx_rem * k;
  if (nic->cfg.wire_time) f = lfc_line_first_slot(&nic->line, f, k); /* the idle gap, §2.4 */
  if (is_ib(nic)) {
    if (nic->nonempty >> LFC_VL15 & 1u || eligible_mask(nic, t) != 0u) return min_u64(best, f);
    for (uint32_t vl = 0; vl < nic->cfg.classes; vl++) {
      uint64_t from;
      from = nic->fcp_due[vl];
      if (fcp_changed(nic, vl)) from = min_u64(from, max_u64(t, fcp_change_from(nic, vl)));
      /* A drain changes the FCCL while fewer than 2048 blocks are free (§5.4). */
      if (drains && nic->cfg.rx_blocks != 0u && nic->c[vl].occ > 0u &&
          nic->cfg.rx_blocks - nic->c[vl].occ < LFC_CREDIT_WINDOW)
        from = min_u64(from, drain_cycle(nic, t, 1u) + 1u);
      best = min_u64(best, round_up(max_u64(f, from), k));
    }
    return best;
  }
  if (nic->pfc_pend != 0u) return min_u64(best, f);
  uint32_t x = nic->xoff;
  while (x != 0u) {
    uint32_t c = lowest_bit(x);
    x &= x - 1u;
    best = min_u64(best, round_up(max_u64(f, nic->c[c].refresh_due), k));
  }
  uint32_t cand = nic->nonempty;
  while (cand != 0u) {
    uint32_t c = lowest_bit(cand);
    cand &= cand - 1u;
    uint64_t s = f;
    if (nic->c[c].pause_start <= s && s < nic->c[c].pause_end) s = round_up(nic->c[c].pause_end, k);
    best = min_u64(best, s);
  }
  return best;
}

/*
 * Move to cycle `to` (now <= to <= lfc_nic_next_event) as if stepped with IDLE input, except
 * the remaining blocks of a packet being received, one per speed_div cycles after the previous.
 */
void lfc_nic_advance(lfc_nic_t *nic, uint64_t to) {
  uint64_t t = nic->cycle, k = nic->cfg.speed_div;
  if (to <= t) return;
  uint64_t n = to - t;

  /* Counters of every skipped cycle (count_cycle): nothing they read changes in [t, to). */
  nic->stats.credit_blocked_cycles += n * nic->nblocked;
  uint32_t live = nic->pause_live;
  while (live != 0u) {
    uint32_t c = lowest_bit(live);
    live &= live - 1u;
    uint64_t a = max_u64(t, nic->c[c].pause_start), b = min_u64(to, nic->c[c].pause_end);
    if (a < b) nic->stats.paused_cycles += b - a;
    if (to >= nic->c[c].pause_end) nic->pause_live &= ~(1u << c);
  }
  /* The packet being sent goes on, one block per slot. */
  uint64_t slots = multiples_in(t, to, k);
  nic->tx_rem -= (uint32_t)min_u64(nic->tx_rem, slots);
  /* The packet being received goes on, one block every k cycles after the previous one. */
  if (nic->rx_rem > 0u && to - 1u >= nic->rx_last + k) {
    uint64_t got = min_u64(nic->rx_rem, (to - 1u - nic->rx_last) / k);
    nic->rx_rem -= (uint32_t)got;
    nic->rx_last += got * k;
  }
  /* The drain. */
  if (nic->occ_mask != 0u) {
    uint64_t nd = multiples_in(t, to, nic->cfg.drain_div);
    uint32_t m = nic->occ_mask;
    if (nd > 0u) nic->fcp_dirty |= m; /* the FCCL may move (§5.4) */
    while (m != 0u) {
      uint32_t c = lowest_bit(m);
      m &= m - 1u;
      nic->c[c].occ -= (uint32_t)min_u64(nic->c[c].occ, nd);
      if (nic->c[c].occ == 0u) nic->occ_mask &= ~(1u << c);
    }
  }
  nic->slot_phase = (uint32_t)(to % k);
  nic->cycle = to;
}
