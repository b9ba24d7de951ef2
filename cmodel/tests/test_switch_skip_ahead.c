/*
 * test_switch_skip_ahead.c - lfc_switch_next_event / lfc_switch_advance (cmodel/src/switch.c)
 * are bit-identical to stepping (lfc/switch.h contract).
 *
 * For each scenario a random but legal input trace is generated: every port's peer sends
 * packets contiguously, one block per speed_div cycles, with flow-control words (random FCPs or
 * PFC frames) and malformed words between packets, and idle gaps of all lengths. Switch A is
 * stepped every cycle. Switch B is stepped, through lfc_switch_step_ports given only the words
 * that are neither IDLE nor the continuation of a well-formed packet, only in cycles with such
 * a word and in the cycle lfc_switch_next_event names; it is
 * advanced over everything else. Whenever B has stepped or advanced, A is brought to the same
 * cycle and every register (lfc_switch_reg over every index, port and class), every counter and
 * the cycle are compared; B's outputs and events of a stepped cycle must equal A's, and in a
 * skipped cycle A must have put out nothing but IDLE or continuation blocks and had no event
 * but the XOFF/XON of the first skipped cycle, which B's advance must report.
 *
 * Three further checks run on switch A in every cycle, because the skip-ahead comparison alone
 * cannot see a mistake that stepping and skipping share:
 *   - shadow timers: pause_timer, wd_storm / wd_cnt / wd_rcnt, refresh_timer, fcp_timer and
 *     paused_cycles recomputed literally from the SPEC text (§5.5, §6.6, §6.7, §6.8) out of the
 *     inputs and outputs, against the registers the model keeps as absolute cycles;
 *   - IB: the FCP a port free to send puts out is the one the pending rule of §5.5, evaluated
 *     literally on the registers of S(t) (fcp_holdoff included), names, and none when none is;
 *   - internal invariants (white box): the masks and minima the model caches for speed agree with
 *     a recomputation, no PG outside the evaluation set would change xoff, and the blocks charged
 *     to every PG / VL equal the blocks of its packets in pipelines and queues (SPEC §10). These
 *     are checked on switch B too, after each of its steps and advances.
 *
 * The seed is printed; LFC_SEED=<n> in the environment reruns one.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfc/switch.h"
/* White box: the invariant check below reads the switch's internal state. */
#include "../src/lfc_internal.h"
#include "../src/lfc_rules.h"

#define DEFAULT_SEED 20240601u
#define NUM_CLASSES 16u

/* ---- a small deterministic generator (xorshift64*) ---- */

typedef struct {
  uint64_t s;
} rng_t;

static uint64_t rnd(rng_t *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 0x2545F4914F6CDD1Dull;
}

/* Uniform in 0..n-1. */
static uint32_t below(rng_t *r, uint32_t n) { return n == 0 ? 0 : (uint32_t)(rnd(r) % n); }

static bool chance(rng_t *r, uint32_t percent) { return below(r, 100) < percent; }

/* ---- scenarios ---- */

typedef struct {
  const char *name;
  void (*setup)(lfc_switch_cfg_t *cfg);
  lfc_mode_t mode;
  uint32_t ports, classes;
  uint32_t cycles;
  uint32_t busy_pct;      /* share of short gaps between a peer's words */
  uint32_t long_pause_pct; /* PFC frames with long pause times (watchdog) */
} scenario_t;

static const uint8_t route_table[] = {3, 2, 1, 0, 0, 1};

static void s_ib_cut(lfc_switch_cfg_t *c) {
  c->cut_through = true;
  c->latency = 3;
  c->mtu_blocks = 16;
  for (uint32_t v = 0; v < LFC_IB_MAX_VLS; v++) c->vl_blocks[v] = 40;
  c->vl15_blocks = 20;
  c->fcp_period = 200;
}

static void s_ib_speeds(lfc_switch_cfg_t *c) {
  c->latency = 7;
  c->mtu_blocks = 20;
  c->speed_div[0] = 1;
  c->speed_div[1] = 2;
  c->speed_div[2] = 3;
  c->speed_div[3] = 4;
  c->vlarb_high[0] = (lfc_vlarb_entry_t){1, 2};
  c->vlarb_high[1] = (lfc_vlarb_entry_t){0, 0};
  c->vlarb_high[2] = (lfc_vlarb_entry_t){1, 1};
  c->vlarb_high_len = 3;
  c->vlarb_high_limit = 1;
  c->fcp_period = 90;
  c->route = route_table;
  c->route_len = sizeof route_table / sizeof route_table[0];
}

static void s_ib_wide(lfc_switch_cfg_t *c) {
  c->latency = 1;
  c->mtu_blocks = 8;
  c->fcp_period = 500;
  c->vl15_blocks = 30;
  c->vlarb_high_limit = 255;
  c->vlarb_high[0] = (lfc_vlarb_entry_t){14, 3};
  c->vlarb_high_len = 1;
}

/* SPEC §5.5 fcp_holdoff: changes held for 45 of the 120 cycles after each FCP. */
static void s_ib_holdoff(lfc_switch_cfg_t *c) {
  c->latency = 2;
  c->mtu_blocks = 12;
  c->speed_div[1] = 2;
  c->speed_div[3] = 3;
  for (uint32_t v = 0; v < LFC_IB_MAX_VLS; v++) c->vl_blocks[v] = 60;
  c->fcp_period = 120;
  c->fcp_holdoff = 45;
}

/* fcp_holdoff >= fcp_period: the periodic FCPs alone (SPEC §5.5). */
static void s_ib_holdoff_periodic(lfc_switch_cfg_t *c) {
  c->cut_through = true;
  c->mtu_blocks = 10;
  for (uint32_t v = 0; v < LFC_IB_MAX_VLS; v++) c->vl_blocks[v] = 30;
  c->fcp_period = 70;
  c->fcp_holdoff = 70;
}

/* SPEC §2.4 line time: merges, slack carried over FCPs, speeds 1 and 2. */
static void s_ib_wire(lfc_switch_cfg_t *c) {
  c->wire_time = true;
  c->latency = 2;
  c->mtu_blocks = 16;
  c->speed_div[2] = 2;
  for (uint32_t v = 0; v < LFC_IB_MAX_VLS; v++) c->vl_blocks[v] = 80;
  c->fcp_period = 200;
  c->fcp_holdoff = 30;
}

/* SPEC §2.4 line time in PFC mode: idle gap slots after frames, merges of padded packets. */
static void s_pfc_wire(lfc_switch_cfg_t *c) {
  c->wire_time = true;
  c->cut_through = true;
  c->mtu_blocks = 12;
  for (uint32_t i = 0; i < LFC_PFC_MAX_PRIOS; i++) c->drr_quantum[i] = 12;
  c->lossless_mask = 0x1;
  c->shared_blocks = 150;
  c->xoff_th = 20;
  c->headroom_blocks = 60;
  c->refresh_cycles = 300;
  c->pause_quanta = 400;
}

static void s_pfc_static(lfc_switch_cfg_t *c) {
  c->mtu_blocks = 12;
  for (uint32_t i = 0; i < LFC_PFC_MAX_PRIOS; i++) c->drr_quantum[i] = 12 + i;
  c->lossless_mask = 0x5;
  c->reserve_blocks = 4;
  c->shared_blocks = 200;
  c->headroom_blocks = 40;
  c->xoff_th = 10;
  c->pause_quanta = 200;
  c->refresh_cycles = 100;
  c->ecn_mask = 0x7;
  c->kmin = 2;
  c->kmax = 30;
  c->pmax = 30000;
}

static void s_pfc_dynamic_wd_drop(lfc_switch_cfg_t *c) {
  c->mtu_blocks = 10;
  for (uint32_t i = 0; i < LFC_PFC_MAX_PRIOS; i++) c->drr_quantum[i] = 10;
  c->speed_div[0] = 2;
  c->speed_div[2] = 3;
  c->latency = 4;
  c->lossless_mask = 0x3;
  c->shared_blocks = 150;
  c->headroom_blocks = 30;
  c->dynamic_th = true;
  c->alpha_log2 = -1;
  c->xon_offset = 5;
  c->pause_quanta = 300;
  c->refresh_cycles = 120;
  c->wd_enable = true;
  c->wd_detect = 250;
  c->wd_restore = 150;
  c->wd_action = LFC_WD_DROP;
  c->ecn_mask = 0x2;
  c->kmin = 5;
  c->kmax = 6;
  c->pmax = 65536;
}

static void s_pfc_cut_t0_wd_fwd(lfc_switch_cfg_t *c) {
  c->cut_through = true;
  c->latency = 20;
  c->mtu_blocks = 9;
  for (uint32_t i = 0; i < LFC_PFC_MAX_PRIOS; i++) c->drr_quantum[i] = 9;
  c->strict_mask = 0x4;
  c->xoff_th = 0; /* T = 0: lossless PGs toggle every cycle (SPEC §6.5) */
  c->xon_offset = 1;
  c->lossless_mask = 0x1;
  c->shared_blocks = 100;
  c->headroom_blocks = 20;
  c->pause_quanta = 90;
  c->refresh_cycles = 60;
  c->wd_enable = true;
  c->wd_detect = 100;
  c->wd_restore = 80;
  c->wd_action = LFC_WD_FORWARD;
}

static void s_pfc_big(lfc_switch_cfg_t *c) {
  c->cut_through = true;
  for (uint32_t p = 0; p < LFC_MAX_PORTS; p++) c->speed_div[p] = 2;
  c->latency = 100;
  c->mtu_blocks = 6;
  for (uint32_t i = 0; i < LFC_PFC_MAX_PRIOS; i++) c->drr_quantum[i] = 6 + 2 * i;
  c->strict_mask = 0x81;
  c->lossless_mask = 0xF0;
  c->reserve_blocks = 2;
  c->shared_blocks = 300;
  c->headroom_blocks = 16;
  c->dynamic_th = true;
  c->alpha_log2 = -3;
  c->xon_offset = 1;
  c->pause_quanta = 50;
  c->refresh_cycles = 30;
  c->ecn_mask = 0xFF;
  c->kmin = 0;
  c->kmax = 12;
  c->pmax = 40000;
}

/* Store-and-forward with long packets and few events: skip-ahead passes step F of one packet
 * and the last block of the next one from the same port in one advance, farther apart than
 * the timing wheel (8 slots) reaches (lfc_pipe_exit_until). */
static void s_pfc_store_forward_long(lfc_switch_cfg_t *c) {
  c->mtu_blocks = 16;
  for (uint32_t i = 0; i < LFC_PFC_MAX_PRIOS; i++) c->drr_quantum[i] = 16;
  c->latency = 5;
  c->lossless_mask = 0x1;
  c->shared_blocks = 400;
  c->headroom_blocks = 40;
  c->xoff_th = 60;
  c->pause_quanta = 300;
  c->refresh_cycles = 200;
}

static const scenario_t scenarios[] = {
    {"ib cut-through latency 3", s_ib_cut, LFC_MODE_IB, 4, 3, 30000, 90, 0},
    {"ib speeds 1..4 store-and-forward vlarb", s_ib_speeds, LFC_MODE_IB, 4, 2, 30000, 85, 0},
    {"ib 15 VLs latency 1", s_ib_wide, LFC_MODE_IB, 5, 15, 20000, 80, 0},
    {"pfc static threshold ecn", s_pfc_static, LFC_MODE_PFC, 4, 3, 30000, 90, 0},
    {"pfc dynamic watchdog drop", s_pfc_dynamic_wd_drop, LFC_MODE_PFC, 4, 2, 40000, 85, 30},
    {"pfc cut-through T=0 watchdog forward", s_pfc_cut_t0_wd_fwd, LFC_MODE_PFC, 3, 3, 30000, 40,
     30},
    {"pfc 8x8 cut-through latency 100", s_pfc_big, LFC_MODE_PFC, 8, 8, 20000, 92, 20},
    {"pfc store-and-forward long packets", s_pfc_store_forward_long, LFC_MODE_PFC, 3, 1, 30000,
     95, 0},
    {"ib fcp_holdoff 45 of period 120", s_ib_holdoff, LFC_MODE_IB, 4, 3, 30000, 85, 0},
    {"ib fcp_holdoff = fcp_period", s_ib_holdoff_periodic, LFC_MODE_IB, 3, 2, 15000, 85, 0},
    {"ib wire_time", s_ib_wire, LFC_MODE_IB, 4, 2, 30000, 90, 0},
    {"pfc wire_time cut-through", s_pfc_wire, LFC_MODE_PFC, 4, 2, 30000, 90, 20},
};

/* ---- the input trace ---- */

typedef struct {
  lfc_word_t *w;     /* [cycle * ports + port] */
  uint8_t *skippable; /* IDLE or a continuation of a well-formed packet */
  uint32_t cycles, ports;
} trace_t;

static lfc_word_t *at(trace_t *tr, uint64_t t, uint32_t p) { return &tr->w[t * tr->ports + p]; }

static uint32_t gap(rng_t *r, const scenario_t *sc) {
  if (chance(r, sc->busy_pct)) return below(r, 3);
  if (chance(r, 80)) return below(r, 60);
  return 100 + below(r, 1500);
}

/* One packet of port p's peer from cycle t: blocks at t, t+k, ... Returns the next free cycle. */
static uint64_t gen_packet(rng_t *r, const lfc_switch_cfg_t *cfg, trace_t *tr, uint32_t p,
                           uint64_t t, bool malformed) {
  uint32_t k = cfg->speed_div[p];
  uint32_t n = chance(r, 50) ? 1 + below(r, 3) : 1 + below(r, cfg->mtu_blocks);
  uint32_t cls = below(r, cfg->classes);
  /* A hot spot on destination 0 builds queues: pauses, XOFF, ECN, credit waits. */
  uint32_t dst = chance(r, 40) ? 0 : below(r, cfg->route != NULL ? cfg->route_len : cfg->ports);
  if (cfg->mode == LFC_MODE_IB && cfg->vl15_blocks > 0 && chance(r, 5)) cls = LFC_VL15;
  if (malformed) {
    switch (below(r, 4)) {
    case 0: n = 0; break;                                  /* nblk = 0 */
    case 1: n = cfg->mtu_blocks + 1u; break;               /* too long */
    case 2: cls = cfg->classes + below(r, 15 - cfg->classes); break; /* not a class here */
    default: dst = cfg->route != NULL ? cfg->route_len : cfg->ports; break; /* no route */
    }
  }
  uint32_t tag = (uint32_t)rnd(r);
  uint32_t ecn = below(r, 4);
  uint32_t pad = 0, mrg = 0;
  if (cfg->wire_time) { /* a peer with line time (SPEC §2.4): padded, sometimes merged */
    pad = below(r, 64);
    mrg = n >= 2 && chance(r, 30);
    if (n == 1 && chance(r, 5)) mrg = 1, malformed = true; /* mrg on one block: MALFORMED */
  }
  uint32_t blocks = n <= mrg ? 1 : n - mrg; /* nblk 0, or mrg on one block: one word */
  for (uint32_t i = 0; i < blocks && t < tr->cycles; i++, t += k) {
    lfc_word_t *w = at(tr, t, p);
    w->kind = LFC_DATA;
    w->sop = i == 0;
    w->eop = i + 1u == blocks;
    w->pad = (uint8_t)pad;
    w->mrg = (uint8_t)mrg;
    w->cls = (uint8_t)cls;
    w->nblk = (uint8_t)n;
    w->dst = (uint16_t)dst;
    w->tag = tag;
    w->ecn = (uint8_t)ecn;
    tr->skippable[t * tr->ports + p] = i > 0 && !malformed;
  }
  return t;
}

static void gen_control(rng_t *r, const scenario_t *sc, const lfc_switch_cfg_t *cfg,
                        lfc_word_t *w) {
  if (cfg->mode == LFC_MODE_IB && !chance(r, 3)) {
    w->kind = LFC_FCP;
    w->fc_op = chance(r, 3) ? (uint8_t)below(r, 16) : (uint8_t)below(r, 2);
    w->fc_vl = chance(r, 5) ? (uint8_t)below(r, 16) : (uint8_t)below(r, cfg->classes);
    w->fc_fctbs = (uint16_t)(chance(r, 50) ? below(r, 64) : below(r, 4096));
    w->fc_fccl = (uint16_t)(chance(r, 70) ? below(r, 400) : below(r, 4096));
    return;
  }
  if (cfg->mode == LFC_MODE_PFC && chance(r, 3)) {
    w->kind = LFC_FCP; /* bad control word in this mode */
    return;
  }
  w->kind = LFC_PFC;
  w->pfc_en = (uint8_t)below(r, 256);
  for (uint32_t c = 0; c < LFC_PFC_MAX_PRIOS; c++) {
    if (chance(r, sc->long_pause_pct))
      w->pfc_time[c] = (uint16_t)(200 + below(r, 800));
    else
      w->pfc_time[c] = chance(r, 40) ? 0 : (uint16_t)below(r, 40);
  }
}

static void gen_trace(rng_t *r, const scenario_t *sc, const lfc_switch_cfg_t *cfg,
                      trace_t *tr) {
  tr->cycles = sc->cycles;
  tr->ports = cfg->ports;
  size_t n = (size_t)tr->cycles * tr->ports;
  tr->w = calloc(n, sizeof *tr->w);
  tr->skippable = malloc(n);
  assert_non_null(tr->w);
  assert_non_null(tr->skippable);
  memset(tr->skippable, 1, n);
  for (uint32_t p = 0; p < cfg->ports; p++) {
    uint32_t k = cfg->speed_div[p];
    uint64_t t = below(r, 50);
    while (t < tr->cycles) {
      uint32_t kind = below(r, 100);
      if (kind < 70) {
        t = gen_packet(r, cfg, tr, p, t, false);
      } else if (kind < 95) {
        gen_control(r, sc, cfg, at(tr, t, p));
        tr->skippable[t * tr->ports + p] = 0;
        t += k;
      } else if (kind < 98) {
        t = gen_packet(r, cfg, tr, p, t, true); /* its later blocks are strays */
      } else { /* a stray block: sop = 0 with no packet open */
        lfc_word_t *w = at(tr, t, p);
        w->kind = LFC_DATA;
        w->eop = (uint8_t)below(r, 2);
        tr->skippable[t * tr->ports + p] = 0;
        t += k;
      }
      t += (uint64_t)gap(r, sc) * (chance(r, 50) ? k : 1u);
    }
  }
}

/* ---- internal invariants (white box) ---- */

#define CHECK(cond, ...)                                                                       \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      snprintf(msg, msglen, __VA_ARGS__);                                                      \
      return false;                                                                            \
    }                                                                                          \
  } while (0)

/* Blocks of the live packets of (ingress port, class), and count them. */
static void count_list(const lfc_switch_t *sw, uint32_t head, uint64_t *held, uint32_t *live) {
  for (uint32_t d = head; d != LFC_NIL; d = sw->desc[d].next) {
    const lfc_desc_t *pk = &sw->desc[d];
    held[pk->in_port * NUM_CLASSES + pk->cls] += pk->nblk;
    (*live)++;
  }
}

static bool check_queues(const lfc_switch_t *sw, uint64_t *held, uint32_t *live, char *msg,
                         size_t msglen) {
  for (uint32_t p = 0; p < sw->ports; p++) {
    const lfc_port_t *pp = &sw->port[p];
    uint64_t prev_ready = sw->now;
    for (uint32_t d = pp->pipe.head; d != LFC_NIL; d = sw->desc[d].next) {
      uint64_t ready = sw->now + (uint32_t)(sw->desc[d].ready - (uint32_t)sw->now);
      CHECK(ready > prev_ready, "pipeline %u: ready %llu after %llu", p,
            (unsigned long long)ready, (unsigned long long)prev_ready);
      prev_ready = ready;
    }
    for (uint32_t d = pp->pipe.head; d != LFC_NIL; d = sw->desc[d].next)
      CHECK((sw->pipe_ring[sw->desc[d].ready & sw->pipe_ring_mask] >> p) & 1u,
            "pipeline %u: packet not on the timing wheel", p);
    /* lfc_internal.h: pipe_busy is exactly the ports whose pipeline holds a packet */
    CHECK(((sw->pipe_busy >> p) & 1u) == (pp->pipe.head != LFC_NIL), "pipe_busy bit %u", p);
    /* a port with a packet in flight has work: it leaves tx_work only at a decision point
       that stays IDLE (port_tx.c), where tx_busy is cleared */
    CHECK(!(((sw->tx_busy & ~sw->tx_work) >> p) & 1u), "port %u in tx_busy, not tx_work", p);
    /* and the lower bounds of the ends of packets in flight and being received */
    CHECK(!((sw->tx_busy >> p) & 1u) || sw->tx_end_lb <= sw->tx_end[p],
          "tx_end_lb %llu above port %u's tx_end %llu", (unsigned long long)sw->tx_end_lb, p,
          (unsigned long long)sw->tx_end[p]);
    CHECK(!(((sw->rx_busy & ~sw->rx_held) >> p) & 1u) || sw->rx_end_lb <= lfc_rx_end(pp),
          "rx_end_lb %llu above port %u's last block %llu", (unsigned long long)sw->rx_end_lb,
          p, (unsigned long long)lfc_rx_end(pp));
    /* and the timing wheel has port p's bit only in the slots of its pipeline's packets (so
     * lfc_pipe_exit finds a due packet at the head whenever the slot of now + 1 names p) */
    for (uint32_t i = 0; i <= sw->pipe_ring_mask; i++) {
      if (!((sw->pipe_ring[i] >> p) & 1u)) continue;
      bool found = false;
      for (uint32_t d = pp->pipe.head; d != LFC_NIL && !found; d = sw->desc[d].next)
        found = (sw->desc[d].ready & sw->pipe_ring_mask) == i;
      CHECK(found, "timing wheel slot %u names port %u, whose pipeline has no packet due then",
            i, p);
    }
    count_list(sw, pp->pipe.head, held, live);
    if (pp->rx_desc != LFC_NIL) {
      const lfc_desc_t *pk = &sw->desc[pp->rx_desc];
      CHECK(pp->rx_rem > 0 && !sw->cfg.cut_through, "rx_desc of port %u", p);
      held[pk->in_port * NUM_CLASSES + pk->cls] += pk->nblk;
      (*live)++;
    }
    for (uint32_t c = 0; c < NUM_CLASSES; c++) {
      const lfc_queue_t *q = &pp->q[c];
      uint64_t blocks = 0;
      uint32_t pkts = 0;
      for (uint32_t d = q->list.head; d != LFC_NIL; d = sw->desc[d].next) {
        blocks += sw->desc[d].nblk;
        pkts++;
        CHECK(sw->desc[d].out_port == p && sw->desc[d].cls == c, "queue %u/%u: foreign packet",
              p, c);
      }
      CHECK(blocks == q->qlen && pkts == q->qpkts, "queue %u/%u: qlen %u qpkts %u, holds %llu/%u",
            p, c, q->qlen, q->qpkts, (unsigned long long)blocks, pkts);
      CHECK(((pp->nonempty >> c) & 1u) == (pkts > 0), "nonempty bit %u/%u", p, c);
      count_list(sw, q->list.head, held, live);
    }
  }
  uint32_t free_count = 0;
  for (uint32_t d = sw->desc_free; d != LFC_NIL; d = sw->desc[d].next) free_count++;
  CHECK(*live + free_count == sw->desc_used_hw, "descriptors: %u live + %u free != %u", *live,
        free_count, sw->desc_used_hw);
  return true;
}

static bool check_ib(const lfc_switch_t *sw, const uint64_t *held, char *msg, size_t msglen) {
  for (uint32_t p = 0; p < sw->ports; p++) {
    const lfc_port_t *pp = &sw->port[p];
    uint64_t min_due = LFC_NEVER;
    for (uint32_t v = 0; v < sw->classes; v++) {
      const lfc_vl_t *vl = &pp->vl[v];
      bool ok = false, blocked = false;
      if ((pp->nonempty >> v) & 1u) {
        ok = lfc_rule_send_ok(vl->fctbs, vl->fccl, sw->desc[pp->q[v].list.head].nblk);
        blocked = !ok;
      }
      CHECK(((pp->credit_ok >> v) & 1u) == ok, "credit_ok %u/%u", p, v);
      CHECK(((pp->credit_blocked >> v) & 1u) == blocked, "credit_blocked %u/%u", p, v);
      uint32_t fccl = lfc_rule_fccl(vl->abr, sw->cfg.vl_blocks[v] - vl->occ);
      bool pending = vl->fctbs != vl->sent_fctbs || fccl != vl->sent_fccl;
      CHECK(!pending || ((pp->fcp_dirty >> v) & 1u), "FCP of %u/%u pending but not dirty", p, v);
      CHECK(vl->occ == held[p * NUM_CLASSES + v], "occ %u/%u = %u, packets hold %llu", p, v,
            vl->occ, (unsigned long long)held[p * NUM_CLASSES + v]);
      CHECK(vl->occ <= sw->cfg.vl_blocks[v], "occ %u/%u above vl_blocks", p, v);
      min_due = vl->fcp_due < min_due ? vl->fcp_due : min_due;
    }
    CHECK(pp->fcp_min_due == min_due, "fcp_min_due of %u", p);
    CHECK(pp->occ15 == held[p * NUM_CLASSES + LFC_VL15], "occ15 of %u", p);
  }
  return true;
}

static bool check_pfc(const lfc_switch_t *sw, const uint64_t *held, char *msg, size_t msglen) {
  const lfc_switch_cfg_t *cfg = &sw->cfg;
  uint32_t th = lfc_buffer_threshold(sw);
  bool th_changed = th != sw->th_last;
  uint64_t shared = 0, storm_ports = 0, wd_min = LFC_NEVER;
  for (uint32_t p = 0; p < sw->ports; p++) {
    const lfc_port_t *pp = &sw->port[p];
    uint8_t eval = lfc_pfc_gen_eval_mask(sw, p, th, th_changed);
    CHECK(pp->check == 0 || ((sw->check_ports >> p) & 1u), "check_ports bit %u", p);
    uint64_t refresh_min = LFC_NEVER;
    for (uint32_t c = 0; c < sw->classes; c++) {
      const lfc_pcls_t *pg = &pp->pc[c];
      uint8_t bit = (uint8_t)(1u << c);
      shared += pg->pg_shared;
      CHECK(pg->pg_min <= cfg->reserve_blocks, "pg_min %u/%u", p, c);
      CHECK(pg->pg_hdrm <= cfg->headroom_blocks, "pg_hdrm %u/%u", p, c);
      CHECK((uint64_t)pg->pg_min + pg->pg_shared + pg->pg_hdrm == held[p * NUM_CLASSES + c],
            "PG %u/%u holds %u+%u+%u, its packets %llu", p, c, pg->pg_min, pg->pg_shared,
            pg->pg_hdrm, (unsigned long long)held[p * NUM_CLASSES + c]);
      CHECK(((pp->shared_nz & bit) != 0) == (pg->pg_shared > 0), "shared_nz %u/%u", p, c);
      CHECK(((pp->hdrm_nz & bit) != 0) == (pg->pg_hdrm > 0), "hdrm_nz %u/%u", p, c);
      if (!(sw->lossless & bit)) {
        CHECK(!(pp->xoff & bit) && !(pp->pend & bit), "lossy PG %u/%u has xoff/pend", p, c);
        continue;
      }
      bool on = pp->xoff & bit;
      bool next = on ? !lfc_rule_xon_cond(pg->pg_shared, pg->pg_hdrm, th, cfg->xon_offset)
                     : lfc_rule_xoff_cond(pg->pg_shared, pg->pg_hdrm, th);
      /* step G of this cycle is either still to evaluate it or has decided its flip */
      CHECK(next == on || (eval & bit) || (pp->flip & bit),
            "PG %u/%u would flip but is not evaluated", p, c);
      if (on && pg->refresh_due < refresh_min) refresh_min = pg->refresh_due;
    }
    CHECK(pp->refresh_min_due == refresh_min, "refresh_min_due of %u", p);
    if (pp->storm) storm_ports |= 1ull << p;
    uint64_t due_min = LFC_NEVER;
    for (uint32_t c = 0; c < sw->classes && cfg->wd_enable; c++) {
      const lfc_pcls_t *pc = &pp->pc[c];
      uint64_t due = (pp->storm >> c) & 1u ? pc->wd_rbase + cfg->wd_restore - 1u
                     : pc->wd_run + cfg->wd_detect - 1u < pc->pause_until
                         ? pc->wd_run + cfg->wd_detect - 1u
                         : LFC_NEVER;
      CHECK(due >= sw->now, "watchdog %u/%u: due %llu passed", p, c, (unsigned long long)due);
      due_min = due < due_min ? due : due_min;
    }
    if (cfg->wd_enable) CHECK(pp->wd_next == due_min, "wd_next of %u", p);
    wd_min = due_min < wd_min ? due_min : wd_min;
  }
  CHECK(shared == sw->shared_used, "shared_used %u, PGs hold %llu", sw->shared_used,
        (unsigned long long)shared);
  CHECK(sw->shared_used <= cfg->shared_blocks, "shared_used above shared_blocks");
  CHECK(storm_ports == sw->storm_ports, "storm_ports");
  CHECK(sw->wd_next <= wd_min, "switch wd_next above a port's");
  return true;
}

static bool invariants(const lfc_switch_t *sw, char *msg, size_t msglen) {
  static uint64_t held[LFC_MAX_PORTS * NUM_CLASSES];
  uint32_t live = 0;
  memset(held, 0, sizeof held);
  if (!check_queues(sw, held, &live, msg, msglen)) return false;
  return sw->ib ? check_ib(sw, held, msg, msglen) : check_pfc(sw, held, msg, msglen);
}

/* ---- shadow timers, literally from the SPEC text ---- */

typedef struct {
  uint32_t pause[LFC_MAX_PORTS][LFC_PFC_MAX_PRIOS];
  uint32_t refresh[LFC_MAX_PORTS][LFC_PFC_MAX_PRIOS];
  uint32_t fcp[LFC_MAX_PORTS][LFC_IB_MAX_VLS];
  uint8_t storm[LFC_MAX_PORTS][LFC_PFC_MAX_PRIOS];
  uint32_t wd_cnt[LFC_MAX_PORTS][LFC_PFC_MAX_PRIOS];
  uint32_t wd_rcnt[LFC_MAX_PORTS][LFC_PFC_MAX_PRIOS];
  uint64_t paused_cycles[LFC_MAX_PORTS][LFC_PFC_MAX_PRIOS];
} shadow_t;

static uint32_t dec(uint32_t x) { return x > 0 ? x - 1u : 0u; }

/* One cycle of the shadow: in/out of the cycle, xoff as it was in S(t). */
static void shadow_step(shadow_t *sh, const lfc_switch_cfg_t *cfg, const lfc_word_t *in,
                        const lfc_word_t *out, const uint8_t *xoff) {
  for (uint32_t p = 0; p < cfg->ports; p++) {
    if (cfg->mode == LFC_MODE_IB) {
      for (uint32_t v = 0; v < cfg->classes; v++) /* SPEC §5.5 */
        sh->fcp[p][v] = out[p].kind == LFC_FCP && out[p].fc_vl == v ? cfg->fcp_period - 1u
                                                                     : dec(sh->fcp[p][v]);
      continue;
    }
    bool frame = (in[p].kind & LFC_KIND_MASK) == LFC_PFC;
    for (uint32_t c = 0; c < cfg->classes; c++) {
      bool en = frame && ((in[p].pfc_en >> c) & 1u);
      uint32_t q = in[p].pfc_time[c];
      uint32_t pause = sh->pause[p][c];
      sh->paused_cycles[p][c] += pause > 0; /* SPEC §10 */
      if (cfg->wd_enable) { /* SPEC §6.8, from S(t) */
        if (!sh->storm[p][c]) {
          bool paused = pause > 0;
          uint32_t cnt = sh->wd_cnt[p][c];
          sh->wd_cnt[p][c] = paused ? (cnt + 1u < cfg->wd_detect ? cnt + 1u : cfg->wd_detect) : 0;
          if (paused && cnt + 1u >= cfg->wd_detect) {
            sh->storm[p][c] = 1;
            sh->wd_rcnt[p][c] = 0;
          }
        } else {
          bool pausing = en && q > 0;
          uint32_t r = sh->wd_rcnt[p][c];
          sh->wd_rcnt[p][c] = pausing ? 0 : (r + 1u < cfg->wd_restore ? r + 1u : cfg->wd_restore);
          if (!pausing && r + 1u >= cfg->wd_restore) {
            sh->storm[p][c] = 0;
            sh->wd_cnt[p][c] = 0;
          }
        }
      }
      sh->pause[p][c] = en ? q * cfg->speed_div[p] : dec(pause); /* SPEC §6.7 */
      bool sent = out[p].kind == LFC_PFC && ((out[p].pfc_en >> c) & 1u); /* SPEC §6.6 */
      sh->refresh[p][c] =
          sent && ((xoff[p] >> c) & 1u) ? cfg->refresh_cycles - 1u : dec(sh->refresh[p][c]);
    }
  }
}

static bool shadow_check(const shadow_t *sh, const lfc_switch_t *sw, char *msg, size_t msglen) {
  const lfc_switch_cfg_t *cfg = lfc_switch_cfg(sw);
  static int r_pause = -1, r_refresh, r_fcp, r_storm, r_cnt, r_rcnt;
  if (r_pause < 0) {
    r_refresh = lfc_reg_find("refresh_timer");
    r_fcp = lfc_reg_find("fcp_timer");
    r_storm = lfc_reg_find("wd_storm");
    r_cnt = lfc_reg_find("wd_cnt");
    r_rcnt = lfc_reg_find("wd_rcnt");
    r_pause = lfc_reg_find("pause_timer");
  }
  for (uint32_t p = 0; p < cfg->ports; p++)
    for (uint32_t c = 0; c < cfg->classes; c++) {
      if (cfg->mode == LFC_MODE_IB) {
        CHECK(lfc_switch_reg(sw, (size_t)r_fcp, p, c) == sh->fcp[p][c], "fcp_timer %u/%u", p, c);
        continue;
      }
      CHECK(lfc_switch_reg(sw, (size_t)r_pause, p, c) == sh->pause[p][c], "pause_timer %u/%u",
            p, c);
      CHECK(lfc_switch_reg(sw, (size_t)r_refresh, p, c) == sh->refresh[p][c],
            "refresh_timer %u/%u", p, c);
      CHECK(lfc_switch_reg(sw, (size_t)r_storm, p, c) == sh->storm[p][c], "wd_storm %u/%u", p,
            c);
      CHECK(lfc_switch_reg(sw, (size_t)r_cnt, p, c) == sh->wd_cnt[p][c], "wd_cnt %u/%u: %llu",
            p, c, (unsigned long long)lfc_switch_reg(sw, (size_t)r_cnt, p, c));
      CHECK(lfc_switch_reg(sw, (size_t)r_rcnt, p, c) == sh->wd_rcnt[p][c], "wd_rcnt %u/%u", p,
            c);
      CHECK(lfc_switch_stats(sw, p)->cls[c].paused_cycles == sh->paused_cycles[p][c],
            "paused_cycles %u/%u", p, c);
    }
  return true;
}

/* ---- the FCP of a transmit decision, literally from SPEC §5.2 step 3 and §5.5 ---- */

#define SPEC_CREDIT_MASK 4095u /* §5.1: 12-bit counters */
#define SPEC_GRANT_CAP 2048u   /* §5.4: FCCL = abr + min(vl_blocks - occ, 2048) */

typedef struct {
  bool free;               /* a slot with tx_rem = 0: §5.2 step 3 decides the word */
  int vl;                  /* the lowest pending VL, -1 if none */
  uint32_t fctbs, fccl;    /* what its FCP carries */
} fcp_expect_t;

/* The registers it reads (SPEC §13.1 names), found once. */
enum { RD_TX_REM, RD_OCC, RD_ABR, RD_FCTBS, RD_SENT_FCTBS, RD_SENT_FCCL, RD_TIMER, RD_COUNT };
static const char *const rd_names[RD_COUNT] = {"tx_rem", "occ", "abr", "fctbs",
                                                "fcp_sent_fctbs", "fcp_sent_fccl", "fcp_timer"};

static uint64_t rd(const lfc_switch_t *sw, int r, uint32_t p, uint32_t c) {
  static int idx[RD_COUNT] = {-1};
  if (idx[0] < 0)
    for (int i = 0; i < RD_COUNT; i++) idx[i] = lfc_reg_find(rd_names[i]);
  return lfc_switch_reg(sw, (size_t)idx[r], p, c);
}

/* From S(t), before the step of cycle t. */
static fcp_expect_t fcp_expect(const lfc_switch_t *sw, uint32_t p) {
  const lfc_switch_cfg_t *cfg = lfc_switch_cfg(sw);
  fcp_expect_t e = {false, -1, 0, 0};
  e.free = lfc_switch_cycle(sw) % cfg->speed_div[p] == 0 && rd(sw, RD_TX_REM, p, 0) == 0;
  for (uint32_t v = 0; v < cfg->classes && e.vl < 0; v++) {
    uint64_t occ = rd(sw, RD_OCC, p, v), timer = rd(sw, RD_TIMER, p, v);
    uint64_t free_blocks = cfg->vl_blocks[v] - occ;
    uint32_t fctbs = (uint32_t)rd(sw, RD_FCTBS, p, v);
    uint32_t fccl = (uint32_t)(rd(sw, RD_ABR, p, v) +
                               (free_blocks < SPEC_GRANT_CAP ? free_blocks : SPEC_GRANT_CAP)) &
                    SPEC_CREDIT_MASK;
    bool changed = fctbs != rd(sw, RD_SENT_FCTBS, p, v) || fccl != rd(sw, RD_SENT_FCCL, p, v);
    if (timer == 0 ||
        (changed && timer + cfg->fcp_holdoff <= (uint64_t)cfg->fcp_period - 1u)) {
      e.vl = (int)v;
      e.fctbs = fctbs;
      e.fccl = fccl;
    }
  }
  return e;
}

static bool fcp_check(const fcp_expect_t *e, const lfc_word_t *o, char *msg, size_t msglen) {
  if (!e->free) return true;
  bool fcp = o->kind == LFC_FCP;
  CHECK(fcp == (e->vl >= 0), "FCP %s, §5.5 says %s pending", fcp ? "sent" : "not sent",
        e->vl >= 0 ? "one is" : "none is");
  if (!fcp) return true;
  CHECK(o->fc_vl == (uint32_t)e->vl && o->fc_fctbs == e->fctbs && o->fc_fccl == e->fccl,
        "FCP vl %u fctbs %u fccl %u, §5.5 says vl %d fctbs %u fccl %u", o->fc_vl, o->fc_fctbs,
        o->fc_fccl, e->vl, e->fctbs, e->fccl);
  return true;
}

/* ---- comparison ---- */

static bool cycle_skippable(const trace_t *tr, uint64_t t) {
  for (uint32_t p = 0; p < tr->ports; p++)
    if (!tr->skippable[t * tr->ports + p]) return false;
  return true;
}

static void compare_state(const lfc_switch_t *a, const lfc_switch_t *b, const char *what,
                          uint64_t seed) {
  const lfc_switch_cfg_t *cfg = lfc_switch_cfg(a);
  uint64_t t = lfc_switch_cycle(a);
  assert_int_equal(t, lfc_switch_cycle(b));
  for (size_t r = 0; r < lfc_reg_count(); r++) {
    const lfc_reg_info_t *ri = lfc_reg_info(r);
    uint32_t np = ri->scope == LFC_SCOPE_SWITCH ? 1u : cfg->ports;
    uint32_t nc = ri->scope == LFC_SCOPE_PORT_CLASS ? NUM_CLASSES : 1u;
    for (uint32_t p = 0; p < np; p++)
      for (uint32_t c = 0; c < nc; c++) {
        uint64_t va = lfc_switch_reg(a, r, p, c), vb = lfc_switch_reg(b, r, p, c);
        if (va != vb) {
          print_error("%s seed %llu cycle %llu: %s[%u][%u] stepped %llu, skipped %llu\n", what,
                      (unsigned long long)seed, (unsigned long long)t, ri->name, p, c,
                      (unsigned long long)va, (unsigned long long)vb);
          fail();
        }
      }
  }
  for (uint32_t p = 0; p < cfg->ports; p++) {
    const lfc_port_stats_t *sa = lfc_switch_stats(a, p);
    lfc_port_stats_t copy = *sa;
    const lfc_port_stats_t *sb = lfc_switch_stats(b, p);
    if (memcmp(&copy, sb, sizeof copy) != 0) {
      for (uint32_t c = 0; c < NUM_CLASSES; c++)
        if (memcmp(&copy.cls[c], &sb->cls[c], sizeof copy.cls[c]) != 0)
          print_error("class %u: paused %llu/%llu blocked %llu/%llu tx %llu/%llu\n", c,
                      (unsigned long long)copy.cls[c].paused_cycles,
                      (unsigned long long)sb->cls[c].paused_cycles,
                      (unsigned long long)copy.cls[c].credit_blocked_cycles,
                      (unsigned long long)sb->cls[c].credit_blocked_cycles,
                      (unsigned long long)copy.cls[c].tx_blocks,
                      (unsigned long long)sb->cls[c].tx_blocks);
      print_error("%s seed %llu cycle %llu: stats of port %u differ\n", what,
                  (unsigned long long)seed, (unsigned long long)t, p);
      fail();
    }
  }
}

static void fail_at(const char *what, uint64_t seed, uint64_t t, const char *msg, uint32_t p) {
  print_error("%s seed %llu cycle %llu port %u: %s\n", what, (unsigned long long)seed,
              (unsigned long long)t, p, msg);
  fail();
}

/* Step A once, checking the shadow timers and the invariants; in a cycle that B skipped, A
 * must have put out nothing but IDLE and continuation blocks (its events: run_scenario). */
static void step_a(lfc_switch_t *a, shadow_t *sh, const trace_t *tr, lfc_word_t *out,
                   bool skipped, const char *what, uint64_t seed) {
  uint64_t t = lfc_switch_cycle(a);
  uint8_t xoff[LFC_MAX_PORTS];
  fcp_expect_t fcp[LFC_MAX_PORTS];
  for (uint32_t p = 0; p < tr->ports; p++) {
    xoff[p] = a->port[p].xoff;
    if (a->ib) fcp[p] = fcp_expect(a, p);
  }
  lfc_switch_step(a, &tr->w[t * tr->ports], out);
  shadow_step(sh, lfc_switch_cfg(a), &tr->w[t * tr->ports], out, xoff);
  char msg[200];
  if (!shadow_check(sh, a, msg, sizeof msg) || !invariants(a, msg, sizeof msg))
    fail_at(what, seed, t, msg, 0);
  for (uint32_t p = 0; p < tr->ports && a->ib; p++)
    if (!fcp_check(&fcp[p], &out[p], msg, sizeof msg)) fail_at(what, seed, t, msg, p);
  if (!skipped) return;
  for (uint32_t p = 0; p < tr->ports; p++)
    if (out[p].kind != LFC_IDLE && !(out[p].kind == LFC_DATA && !out[p].sop)) {
      char buf[128];
      print_error("output %s\n", lfc_word_format(&out[p], buf, sizeof buf));
      fail_at(what, seed, t, "skipped a cycle that starts something", p);
    }
}

/* A one-block packet (its tag one in 2^32 of the traces' random ones): where
 * lfc_switch_step_ports must neither read an input (taken in, it would count a packet) nor
 * write an output. */
static const lfc_word_t poison = {
    .kind = LFC_DATA, .sop = 1u, .eop = 1u, .nblk = 1u, .tag = 0xDEADBEEFu};

/*
 * Step B in cycle t through lfc_switch_step_ports, given only the words it cannot predict
 * (neither IDLE nor a continuation block of a well-formed packet: the trace's `skippable`):
 * the others hold the poison word, which the step must not read (reading it would be a packet
 * in B, and its registers would differ from A's), and a continuation block B did not predict
 * would leave its packet short. Its outputs must equal A's (`want`) where it says it wrote
 * them, be left as they were (poison) elsewhere, and A's be IDLE there or a continuation block
 * (a port within a packet, lfc/switch.h; that it is the right block, the switches' registers
 * and the receivers' traces show).
 */
static void step_b_ports(lfc_switch_t *b, const trace_t *tr, lfc_word_t *in_b,
                         lfc_word_t *out_b, const lfc_word_t *want, const char *what,
                         uint64_t seed) {
  uint64_t t = lfc_switch_cycle(b), in_ports = 0;
  const uint32_t ports = tr->ports;
  for (uint32_t p = 0; p < ports; p++) {
    bool given = !tr->skippable[t * ports + p];
    in_b[p] = given ? tr->w[t * ports + p] : poison;
    in_ports |= (uint64_t)given << p;
    out_b[p] = poison;
  }
  uint64_t wrote = lfc_switch_step_ports(b, in_b, in_ports, out_b);
  for (uint32_t p = 0; p < ports; p++) {
    bool streamed = want[p].kind == LFC_IDLE || (want[p].kind == LFC_DATA && !want[p].sop);
    if ((wrote >> p & 1u) != 0 ? !lfc_word_equal(&want[p], &out_b[p])
                               : !lfc_word_equal(&poison, &out_b[p]) || !streamed)
      fail_at(what, seed, t, "output (lfc_switch_step_ports)", p);
  }
}

/* The events of A's and B's last step or advance, in cycle t, must be equal. */
static void same_events(const lfc_switch_t *a, const lfc_switch_t *b, const char *what,
                        uint64_t seed, uint64_t t) {
  const lfc_event_t *ea, *eb;
  size_t na = lfc_switch_events(a, &ea), nb = lfc_switch_events(b, &eb);
  if (na != nb) fail_at(what, seed, t, "a different number of events", 0);
  for (size_t i = 0; i < na; i++)
    if (memcmp(&ea[i], &eb[i], sizeof ea[i]) != 0) fail_at(what, seed, t, "event", ea[i].port);
}

static void run_scenario(const scenario_t *sc, uint64_t seed) {
  rng_t r = {seed * 0x9E3779B97F4A7C15ull + 1u};
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, sc->mode, sc->ports, sc->classes);
  sc->setup(&cfg);
  char err[256];
  lfc_switch_t *a = lfc_switch_create(&cfg, err, sizeof err);
  if (a == NULL) print_error("%s: %s\n", sc->name, err);
  assert_non_null(a);
  lfc_switch_t *b = lfc_switch_create(&cfg, err, sizeof err);
  assert_non_null(b);
  trace_t tr;
  gen_trace(&r, sc, &cfg, &tr);

  shadow_t *sh = calloc(1, sizeof *sh);
  assert_non_null(sh);
  lfc_word_t *out_a = calloc(cfg.ports, sizeof *out_a);
  lfc_word_t *out_b = calloc(cfg.ports, sizeof *out_b);
  lfc_word_t *in_b = calloc(cfg.ports, sizeof *in_b);
  assert_non_null(out_a);
  assert_non_null(out_b);
  assert_non_null(in_b);
  uint64_t steps_b = 0, events = 0, flips_b = 0;
  while (lfc_switch_cycle(b) < tr.cycles) {
    uint64_t t = lfc_switch_cycle(b);
    uint64_t ne = lfc_switch_next_event(b);
    assert_true(ne >= t);
    if (!cycle_skippable(&tr, t) || ne == t) {
      /* Step both in cycle t; outputs and events must agree. */
      step_a(a, sh, &tr, out_a, false, sc->name, seed);
      step_b_ports(b, &tr, in_b, out_b, out_a, sc->name, seed);
      steps_b++;
      const lfc_event_t *ea;
      events += lfc_switch_events(a, &ea);
      same_events(a, b, sc->name, seed, t);
    } else {
      uint64_t to = t + 1u;
      while (to < tr.cycles && to < ne && cycle_skippable(&tr, to)) to++;
      lfc_switch_advance(b, to);
      /* The only events of skipped cycles: step G's XOFF/XON in the first, which the advance
         reports (lfc/switch.h). */
      step_a(a, sh, &tr, out_a, true, sc->name, seed);
      const lfc_event_t *eb;
      size_t nb = lfc_switch_events(b, &eb);
      flips_b += nb;
      for (size_t i = 0; i < nb; i++)
        if (eb[i].kind != LFC_EV_XOFF && eb[i].kind != LFC_EV_XON)
          fail_at(sc->name, seed, t, "an advance had an event other than XOFF/XON", eb[i].port);
      same_events(a, b, sc->name, seed, t);
      while (lfc_switch_cycle(a) < to) {
        step_a(a, sh, &tr, out_a, true, sc->name, seed);
        const lfc_event_t *ea;
        if (lfc_switch_events(a, &ea) != 0)
          fail_at(sc->name, seed, lfc_switch_cycle(a) - 1u, "event in a skipped cycle", 0);
      }
    }
    compare_state(a, b, sc->name, seed);
    char msg[200]; /* B's caches too: it is the switch that skips and is given fewer words */
    if (!invariants(b, msg, sizeof msg)) fail_at(sc->name, seed, lfc_switch_cycle(b), msg, 0);
  }
  uint64_t tx = 0, rx = 0, drops = 0, ctl = 0, trips = 0, marks = 0;
  for (uint32_t p = 0; p < cfg.ports; p++) {
    const lfc_port_stats_t *st = lfc_switch_stats(a, p);
    ctl += st->fcp_tx + st->pfc_tx;
    for (uint32_t c = 0; c < NUM_CLASSES; c++) {
      tx += st->cls[c].tx_pkts;
      trips += st->cls[c].wd_trip;
      marks += st->cls[c].ecn_mark;
      rx += st->cls[c].rx_pkts;
      for (uint32_t d = 0; d < LFC_DROP_CAUSES; d++) drops += st->cls[c].drop_pkts[d];
    }
  }
  print_message("  %-40s %u cycles, B stepped %llu (%.1f%%), %llu events (%llu XOFF/XON in "
                "advances), rx %llu tx %llu drop %llu fc-out %llu trips %llu marks %llu\n",
                sc->name, tr.cycles, (unsigned long long)steps_b,
                100.0 * (double)steps_b / tr.cycles, (unsigned long long)events,
                (unsigned long long)flips_b,
                (unsigned long long)rx, (unsigned long long)tx, (unsigned long long)drops,
                (unsigned long long)ctl, (unsigned long long)trips, (unsigned long long)marks);
  free(sh);
  free(out_a);
  free(out_b);
  free(in_b);
  free(tr.w);
  free(tr.skippable);
  lfc_switch_destroy(a);
  lfc_switch_destroy(b);
}

static uint64_t seed_from_env(void) {
  const char *s = getenv("LFC_SEED");
  return s != NULL ? strtoull(s, NULL, 0) : DEFAULT_SEED;
}

static void test_skip_ahead_matches_stepping(void **state) {
  (void)state;
  uint64_t seed = seed_from_env();
  print_message("skip-ahead seed %llu (rerun: LFC_SEED=%llu)\n", (unsigned long long)seed,
                (unsigned long long)seed);
  for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
    run_scenario(&scenarios[i], seed + i);
}

/* With no input at all, next_event jumps straight over idle time and the timers stay exact. */
static void test_idle_switch_jumps(void **state) {
  (void)state;
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_IB, 2, 1);
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&cfg, err, sizeof err);
  assert_non_null(sw);
  lfc_word_t out[2];
  assert_int_equal(lfc_switch_next_event(sw), 0); /* the reset FCPs */
  lfc_switch_step(sw, NULL, out);
  /* The next FCP of VL 0 is due when fcp_timer reaches 0: fcp_period cycles after the first. */
  assert_int_equal(lfc_switch_next_event(sw), cfg.fcp_period);
  lfc_switch_advance(sw, cfg.fcp_period - 1u);
  assert_int_equal(lfc_switch_reg(sw, (size_t)lfc_reg_find("fcp_timer"), 0, 0), 1);
  lfc_switch_advance(sw, cfg.fcp_period);
  lfc_switch_step(sw, NULL, out);
  assert_int_equal(out[0].kind, LFC_FCP);
  lfc_switch_destroy(sw);

  lfc_switch_cfg_default(&cfg, LFC_MODE_PFC, 2, 1);
  sw = lfc_switch_create(&cfg, err, sizeof err);
  assert_non_null(sw);
  assert_int_equal(lfc_switch_next_event(sw), UINT64_MAX); /* nothing ever happens */
  lfc_switch_advance(sw, 1000000);
  assert_int_equal(lfc_switch_cycle(sw), 1000000);
  lfc_switch_destroy(sw);
}

/* lfc/switch.h, lfc_switch_next_event (d): in PFC mode a packet leaving the pipeline costs no
 * step of its own; the event is the cycle its egress port starts it, the cycle after step F
 * (the port being idle), both while its blocks still come in and once it waits in the
 * pipeline. Store-and-forward: step F of a packet is in the cycle of its last block +
 * latency - 1 (SPEC §7.3). */
static void test_pipeline_start_is_the_event(void **state) {
  (void)state;
  const uint32_t latency = 5, nblk = 3, tag = 7;
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_PFC, 2, 1);
  cfg.latency = latency;
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&cfg, err, sizeof err);
  assert_non_null(sw);
  lfc_word_t in[2], out[2];
  memset(in, 0, sizeof in);
  in[0].kind = LFC_DATA;
  in[0].sop = 1;
  in[0].nblk = (uint8_t)nblk;
  in[0].dst = 1; /* no route table: port 1 */
  in[0].tag = tag;
  lfc_switch_step(sw, in, out); /* cycle 0: its first block, admitted */
  const uint64_t start = (nblk - 1u) + (latency - 1u) + 1u;
  assert_int_equal(lfc_switch_next_event(sw), start);
  lfc_switch_advance(sw, start - 2u); /* past its last block: it waits in the pipeline */
  assert_int_equal(lfc_switch_next_event(sw), start);
  lfc_switch_advance(sw, start);
  lfc_switch_step(sw, NULL, out);
  assert_int_equal(out[1].kind, LFC_DATA);
  assert_int_equal(out[1].sop, 1);
  assert_int_equal(out[1].tag, tag);
  lfc_switch_destroy(sw);
}

/* As above, with the egress port busy: packet A (20 blocks, port 2) leaves port 1 in cycles
 * 24..43; packet B (3 blocks, port 0, last block in cycle 40) has its step F in cycle 44, the
 * cycle port 1 is free again, and starts in 45: the later of step F + 1 and the port's end of
 * A, whether B is being received or waits in the pipeline. (Lossy class: no PFC frame.) */
static void test_pipeline_start_waits_for_the_port(void **state) {
  (void)state;
  const uint32_t latency = 5, a_blk = 20, b_blk = 3, b_first = 38;
  const uint64_t a_start = (a_blk - 1u) + latency, port_free = a_start + a_blk;
  const uint64_t b_step_f = b_first + (b_blk - 1u) + (latency - 1u);
  assert_int_equal(b_step_f, port_free); /* the case under test: step F as the port frees */
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_PFC, 3, 1);
  cfg.latency = latency;
  cfg.lossless_mask = 0;
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&cfg, err, sizeof err);
  assert_non_null(sw);
  lfc_word_t in[3], out[3];
  for (uint32_t t = 0; t < b_first; t++) { /* stepped: A's blocks on port 2 */
    memset(in, 0, sizeof in);
    if (t < a_blk) {
      in[2].kind = LFC_DATA;
      in[2].sop = t == 0;
      in[2].eop = t + 1u == a_blk;
      in[2].nblk = (uint8_t)a_blk;
      in[2].dst = 1;
      in[2].tag = 1;
    }
    lfc_switch_step(sw, in, out);
  }
  memset(in, 0, sizeof in);
  in[0].kind = LFC_DATA;
  in[0].sop = 1;
  in[0].nblk = (uint8_t)b_blk;
  in[0].dst = 1;
  in[0].tag = 2;
  lfc_switch_step(sw, in, out); /* B's first block */
  assert_int_equal(lfc_switch_next_event(sw), port_free + 1u);
  lfc_switch_advance(sw, port_free - 2u); /* past B's last block: B waits in the pipeline */
  assert_int_equal(lfc_switch_next_event(sw), port_free + 1u);
  lfc_switch_advance(sw, port_free + 1u);
  lfc_switch_step(sw, NULL, out);
  assert_int_equal(out[1].kind, LFC_DATA);
  assert_int_equal(out[1].sop, 1);
  assert_int_equal(out[1].tag, 2);
  lfc_switch_destroy(sw);
}

/* The input of port p in cycle t of xoff_in_an_advance: a PFC frame pausing port 1 in cycle 0,
 * the `burst` one-block packets from `first` on port 0 to port 1, and with long_nblk > 0 a
 * packet from port 1 to port 0 from cycle 1 (all of the one class). */
static void xoff_input(uint64_t t, uint32_t p, uint64_t first, uint32_t burst, uint32_t long_nblk,
                       lfc_word_t *w) {
  memset(w, 0, sizeof *w);
  if (p == 1u && t == 0) {
    w->kind = LFC_PFC;
    w->pfc_en = 1u;
    w->pfc_time[0] = UINT16_MAX;
  } else if (p == 1u && t >= 1u && t < 1u + long_nblk) {
    w->kind = LFC_DATA;
    w->sop = t == 1u;
    w->eop = t == long_nblk;
    w->nblk = (uint8_t)long_nblk;
    w->dst = 0; /* no route table: port 0 */
    w->tag = 1000u;
  } else if (p == 0 && t >= first && t < first + burst) {
    w->kind = LFC_DATA;
    w->sop = w->eop = 1u;
    w->nblk = 1u;
    w->dst = 1u;
    w->tag = (uint32_t)t;
  }
}

/*
 * lfc/switch.h, lfc_switch_next_event (e): an XOFF decided at the end of a step costs no step of
 * its own. Port 1 is paused by its peer (a PFC frame in cycle 0), so one-block packets from port
 * 0 to port 1 stay queued; the xoff_th-th, in cycle first + xoff_th - 1, makes PG (0, 0) xoff in
 * step G of the next cycle (SPEC §6.5). Switch B, stepped only in cycles with input or an event,
 * passes that cycle in an advance, which reports the XOFF. Its PFC frame (SPEC §6.6) is B's next
 * event: the next cycle if port 0 is free; with long_nblk > 0, port 0 sends that long packet
 * then, and the frame waits for its end (`first` is the cycle after its start, found by
 * stepping; the long packet turns PG (1, 0) xoff too, early). A, stepped every cycle, agrees in
 * every register, the events and every output.
 */
static void xoff_in_an_advance(uint32_t long_nblk) {
  const uint32_t xoff_th = 4;
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_PFC, 2, 1);
  cfg.xoff_th = xoff_th;
  char err[256];
  lfc_switch_t *a = lfc_switch_create(&cfg, err, sizeof err);
  lfc_switch_t *b = lfc_switch_create(&cfg, err, sizeof err);
  assert_non_null(a);
  assert_non_null(b);
  lfc_word_t in[2], out_a[2], out_b[2];
  uint64_t first = long_nblk > 0 ? UINT64_MAX : 1u, xoff_cycle = UINT64_MAX, long_end = 0;
  uint64_t xoff_advances = 0, frames = 0;
  const uint64_t end = 4u * long_nblk + 40u; /* past the frame in either case */
  while (lfc_switch_cycle(b) < end) {
    const uint64_t t = lfc_switch_cycle(b), ne = lfc_switch_next_event(b);
    for (uint32_t p = 0; p < 2u; p++) xoff_input(t, p, first, xoff_th, long_nblk, &in[p]);
    /* B is given a word it cannot predict: anything but IDLE and the long packet's continuation
       blocks (cycles 2..long_nblk on port 1), which B predicts itself */
    bool predicted1 = t > 1u && t <= long_nblk;
    bool input = in[0].kind != LFC_IDLE || (in[1].kind != LFC_IDLE && !predicted1);
    if (first == UINT64_MAX || t < first + xoff_th || input || ne == t) {
      lfc_switch_step(a, in, out_a);
      lfc_switch_step(b, in, out_b);
      assert_memory_equal(out_a, out_b, sizeof out_a);
      same_events(a, b, "xoff in an advance", 0, t);
      if (first == UINT64_MAX && out_b[0].kind == LFC_DATA && out_b[0].sop) {
        first = t + 1u; /* port 0 sends the long packet: the burst begins */
        long_end = t + long_nblk;
      }
      if (first != UINT64_MAX && t == first + xoff_th - 1u) xoff_cycle = t + 1u;
      if (out_b[0].kind == LFC_PFC) {
        assert_int_equal(t, long_nblk > 0 ? long_end : xoff_cycle + 1u);
        assert_int_equal(out_b[0].pfc_time[0], cfg.pause_quanta);
        frames++;
      }
    } else {
      if (t == xoff_cycle) assert_int_equal(ne, long_nblk > 0 ? long_end : xoff_cycle + 1u);
      const uint64_t to = ne < end ? ne : end;
      lfc_switch_advance(b, to);
      lfc_switch_step(a, NULL, out_a); /* cycle t: its events are the advance's */
      same_events(a, b, "xoff in an advance", 0, t);
      const lfc_event_t *ev;
      size_t n = lfc_switch_events(b, &ev);
      for (size_t i = 0; i < n; i++) {
        if (ev[i].port != 0) continue;
        assert_int_equal(t, xoff_cycle);
        assert_int_equal(ev[i].kind, LFC_EV_XOFF);
        xoff_advances++;
      }
      while (lfc_switch_cycle(a) < to) lfc_switch_step(a, NULL, out_a);
    }
    compare_state(a, b, "xoff in an advance", 0);
  }
  assert_int_equal(xoff_advances, 1);
  assert_int_equal(frames, 1);
  lfc_switch_destroy(a);
  lfc_switch_destroy(b);
}

static void test_xoff_passes_in_an_advance(void **state) {
  (void)state;
  xoff_in_an_advance(0);
}

static void test_xoff_frame_waits_in_an_advance(void **state) {
  (void)state;
  xoff_in_an_advance(20u);
}

/* lfc/switch.h: lfc_switch_advance(sw, to) takes any `to` with current <= to <= next_event,
 * the current cycle included (a simulator whose next event is now calls it so): it changes
 * nothing, neither the cycle nor a register nor the events of the last step. */
static void test_advance_to_current_cycle_changes_nothing(void **state) {
  (void)state;
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_IB, 2, 1);
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&cfg, err, sizeof err);
  assert_non_null(sw);
  size_t timer = (size_t)lfc_reg_find("fcp_timer");
  assert_int_equal(lfc_switch_next_event(sw), 0); /* the reset FCPs: next event = now = 0 */
  lfc_switch_advance(sw, 0);
  assert_int_equal(lfc_switch_cycle(sw), 0);
  assert_int_equal(lfc_switch_reg(sw, timer, 0, 0), 0);
  lfc_word_t out[2];
  lfc_switch_step(sw, NULL, out);
  assert_int_equal(out[0].kind, LFC_FCP);
  uint64_t before = lfc_switch_reg(sw, timer, 0, 0);
  lfc_switch_advance(sw, 1); /* now = 1 < next event */
  assert_int_equal(lfc_switch_cycle(sw), 1);
  assert_int_equal(lfc_switch_reg(sw, timer, 0, 0), before);
  assert_int_equal(lfc_switch_next_event(sw), cfg.fcp_period);
  lfc_switch_destroy(sw);
}

/* lfc_switch_reset returns a used switch to exactly the state of a new one. */
static void test_reset_equals_new(void **state) {
  (void)state;
  const uint32_t cycles = 4000;
  for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
    const scenario_t *sc = &scenarios[i];
    scenario_t short_sc = *sc;
    short_sc.cycles = cycles;
    rng_t r = {seed_from_env() + 77u * i};
    lfc_switch_cfg_t cfg;
    lfc_switch_cfg_default(&cfg, sc->mode, sc->ports, sc->classes);
    sc->setup(&cfg);
    char err[256];
    lfc_switch_t *used = lfc_switch_create(&cfg, err, sizeof err);
    lfc_switch_t *fresh = lfc_switch_create(&cfg, err, sizeof err);
    assert_non_null(used);
    assert_non_null(fresh);
    trace_t tr;
    gen_trace(&r, &short_sc, &cfg, &tr);
    lfc_word_t out_u[LFC_MAX_PORTS], out_f[LFC_MAX_PORTS];
    for (uint32_t t = 0; t < cycles; t++) lfc_switch_step(used, &tr.w[t * tr.ports], out_u);
    lfc_switch_reset(used);
    for (uint32_t t = 0; t < cycles; t++) {
      lfc_switch_step(used, &tr.w[t * tr.ports], out_u);
      lfc_switch_step(fresh, &tr.w[t * tr.ports], out_f);
      for (uint32_t p = 0; p < cfg.ports; p++)
        if (!lfc_word_equal(&out_u[p], &out_f[p])) fail_at(sc->name, i, t, "after reset", p);
    }
    compare_state(fresh, used, sc->name, i);
    free(tr.w);
    free(tr.skippable);
    lfc_switch_destroy(used);
    lfc_switch_destroy(fresh);
  }
}

/*
 * SPEC §6.8 at its edges, through skip-ahead: a pause of exactly wd_detect cycles trips in its
 * last cycle; the restore comes wd_restore cycles after the trip; next_event names both.
 */
static void test_watchdog_edges_by_skipping(void **state) {
  (void)state;
  const uint32_t detect = 10, restore = 5, port = 1;
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_PFC, 2, 1);
  cfg.lossless_mask = 0; /* no PFC of our own */
  cfg.wd_enable = true;
  cfg.wd_detect = detect;
  cfg.wd_restore = restore;
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&cfg, err, sizeof err);
  assert_non_null(sw);
  size_t r_cnt = (size_t)lfc_reg_find("wd_cnt"), r_rcnt = (size_t)lfc_reg_find("wd_rcnt");
  size_t r_storm = (size_t)lfc_reg_find("wd_storm");
  lfc_word_t in[2] = {{0}}, out[2];
  in[port].kind = LFC_PFC;
  in[port].pfc_en = 1;
  in[port].pfc_time[0] = (uint16_t)detect; /* paused in cycles 1 .. detect */
  lfc_switch_step(sw, in, out);
  assert_int_equal(lfc_switch_next_event(sw), detect); /* the trip: the detect-th paused cycle */
  lfc_switch_advance(sw, detect);
  assert_int_equal(lfc_switch_reg(sw, r_cnt, port, 0), detect - 1u);
  lfc_switch_step(sw, NULL, out);
  const lfc_event_t *ev;
  assert_int_equal(lfc_switch_events(sw, &ev), 1);
  assert_int_equal(ev[0].kind, LFC_EV_WD_TRIP);
  assert_int_equal(ev[0].port, port);
  assert_int_equal(lfc_switch_reg(sw, r_storm, port, 0), 1);
  assert_int_equal(lfc_switch_reg(sw, r_cnt, port, 0), detect);
  assert_int_equal(lfc_switch_reg(sw, r_rcnt, port, 0), 0);
  uint64_t trip = detect;
  assert_int_equal(lfc_switch_next_event(sw), trip + restore);
  lfc_switch_advance(sw, trip + restore);
  assert_int_equal(lfc_switch_reg(sw, r_rcnt, port, 0), restore - 1u);
  lfc_switch_step(sw, NULL, out);
  assert_int_equal(lfc_switch_events(sw, &ev), 1);
  assert_int_equal(ev[0].kind, LFC_EV_WD_RESTORE);
  assert_int_equal(lfc_switch_reg(sw, r_storm, port, 0), 0);
  assert_int_equal(lfc_switch_reg(sw, r_cnt, port, 0), 0);
  assert_int_equal(lfc_switch_reg(sw, r_rcnt, port, 0), restore);
  assert_int_equal(lfc_switch_stats(sw, port)->cls[0].paused_cycles, detect);
  assert_int_equal(lfc_switch_next_event(sw), UINT64_MAX);
  lfc_switch_destroy(sw);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_idle_switch_jumps),
      cmocka_unit_test(test_advance_to_current_cycle_changes_nothing),
      cmocka_unit_test(test_pipeline_start_is_the_event),
      cmocka_unit_test(test_pipeline_start_waits_for_the_port),
      cmocka_unit_test(test_xoff_passes_in_an_advance),
      cmocka_unit_test(test_xoff_frame_waits_in_an_advance),
      cmocka_unit_test(test_watchdog_edges_by_skipping),
      cmocka_unit_test(test_reset_equals_new),
      cmocka_unit_test(test_skip_ahead_matches_stepping),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
