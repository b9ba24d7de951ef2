/*
 * tb_cov.c - functional coverage of the SPEC's events, counted per run and written as JSON.
 *
 * Counted from the switch's link words and the model's events (what both sides agree on), with
 * register reads of S(t) where the words do not tell (ABR at an FCP, hi_sent), and the edges of
 * the SPEC's comparisons: each computed here from the configuration, the registers of S(t) and
 * the words of the cycle, as the SPEC states it, not by calling the model's rule, so a wrong
 * rule in the model does not move its own coverage. The regression (tb/scripts/regress.sh) adds
 * up the JSON files of all runs and fails if a point was never hit.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tb.h"

#define TB_COV_NAME(e, name) [e] = name,
static const char *const NAMES[COV_COUNT] = {TB_COV_POINTS(TB_COV_NAME)};
#undef TB_COV_NAME

const char *tb_cov_name(tb_cov_t c) { return (unsigned)c < COV_COUNT ? NAMES[c] : "?"; }

static int reg_abr = -1, reg_hi_sent = -1;

/* SPEC §5.1, §5.3: 12-bit credit counters (mod 4096) and the 2048-block window of the send
   rule; the edges of the rule's (fccl - CR) mod 4096 <= 2048. */
#define CREDIT_MASK 4095u
#define CREDIT_WINDOW 2048u
#define SEND_EDGE_SHORT CREDIT_MASK            /* one block short of the credit: held */
#define SEND_EDGE_BEYOND (CREDIT_WINDOW + 1u)  /* one block beyond the window: held */
/* SPEC §5.4: the most credit an FCCL grants, min(vl_blocks - occ, 2048) */
#define GRANT_CAP 2048u
/* SPEC §5.6 step 3: the high table's budget, max(1, 64 x vlarb_high_limit) blocks (64 blocks are
   4 KB), and the limit that means "no limit" */
#define VLARB_LIMIT_UNIT 64u
#define VLARB_NO_LIMIT 255u
/* SPEC §6.1 / §9: PFC priorities */
#define PFC_PRIOS 8u
/* SPEC §9.3: a draw is 16 steps of the Galois LFSR with these taps; r is the low 16 bits */
#define LFSR_TAPS 0x80200003u
#define LFSR_DRAW_STEPS 16u
#define LFSR_DRAW_MASK 0xffffu

/* The registers the edge points read from S(t) (SPEC §13.1 names), found once. */
static struct {
  int found;
  int tx_rem, qlen, qpkts, fctbs, fccl, shared_used, pg_shared, pg_hdrm, xoff, pause_timer,
      wd_storm, wd_cnt, wd_rcnt, rx_rem, pg_min, abr, occ, occ15, fcp_sent_fctbs, fcp_sent_fccl,
      fcp_timer, hi_sent, pfc_pend, refresh_timer, drr_ptr, deficit, lfsr;
} R;

static void regs_find(void) {
  if (R.found) return;
  R.tx_rem = lfc_reg_find("tx_rem");
  R.qlen = lfc_reg_find("qlen");
  R.qpkts = lfc_reg_find("qpkts");
  R.fctbs = lfc_reg_find("fctbs");
  R.fccl = lfc_reg_find("fccl");
  R.shared_used = lfc_reg_find("shared_used");
  R.pg_shared = lfc_reg_find("pg_shared");
  R.pg_hdrm = lfc_reg_find("pg_hdrm");
  R.xoff = lfc_reg_find("xoff");
  R.pause_timer = lfc_reg_find("pause_timer");
  R.wd_storm = lfc_reg_find("wd_storm");
  R.wd_cnt = lfc_reg_find("wd_cnt");
  R.wd_rcnt = lfc_reg_find("wd_rcnt");
  R.rx_rem = lfc_reg_find("rx_rem");
  R.pg_min = lfc_reg_find("pg_min");
  R.abr = lfc_reg_find("abr");
  R.occ = lfc_reg_find("occ");
  R.occ15 = lfc_reg_find("occ15");
  R.fcp_sent_fctbs = lfc_reg_find("fcp_sent_fctbs");
  R.fcp_sent_fccl = lfc_reg_find("fcp_sent_fccl");
  R.fcp_timer = lfc_reg_find("fcp_timer");
  R.hi_sent = lfc_reg_find("hi_sent");
  R.pfc_pend = lfc_reg_find("pfc_pend");
  R.refresh_timer = lfc_reg_find("refresh_timer");
  R.drr_ptr = lfc_reg_find("drr_ptr");
  R.deficit = lfc_reg_find("deficit");
  R.lfsr = lfc_reg_find("lfsr");
  R.found = 1;
}

/* A register of S(t); a name the model does not have reads 0 (lfc_reg_find gave -1). */
static uint64_t reg(const tb_t *tb, int r, unsigned p, unsigned cls) {
  return r < 0 ? 0 : lfc_switch_reg(tb->sw, (size_t)r, p, cls);
}

uint32_t tb_head_nblk(const tb_t *tb, unsigned p, unsigned cls) {
  regs_find();
  uint64_t pkts = reg(tb, R.qpkts, p, cls);
  if (pkts == 0) return 0;
  uint64_t blocks = reg(tb, R.qlen, p, cls);
  if (pkts == 1) return (uint32_t)blocks;
  const tb_traffic_cfg_t *t = &tb->cfg.traffic;
  if (t->min_nblk == t->max_nblk && blocks == pkts * t->min_nblk) return t->min_nblk;
  return 0;
}

/* SPEC §6.2: the shared-use threshold T of S(t), computed here from the configuration and
   shared_used, apart from the model's own rule. */
static uint32_t threshold(const tb_t *tb) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  if (!c->dynamic_th) return c->xoff_th;
  uint64_t used = reg(tb, R.shared_used, 0, 0);
  uint64_t free_blocks = used < c->shared_blocks ? c->shared_blocks - used : 0;
  uint64_t t = c->alpha_log2 >= 0 ? free_blocks << c->alpha_log2 : free_blocks >> -c->alpha_log2;
  const uint64_t max20 = (1u << 20) - 1u;
  return (uint32_t)(t > max20 ? max20 : t);
}

/* SPEC §1.2: may port p place a word on its link in cycle t, and is it between packets
   (tx_rem = 0, §5.2 step 2)? Then §5.2 steps 3-5 decide its word from S(t). */
static int port_free(const tb_t *tb, uint64_t cycle, unsigned p) {
  return cycle % tb->cfg.sw.speed_div[p] == 0 && reg(tb, R.tx_rem, p, 0) == 0;
}

/* SPEC §7.2: a first block (DATA, sop, rx_rem = 0 in S(t)) whose class exists in this mode and
   whose destination routes (§7.1: the identity); its length is not looked at. */
static int first_block_cls_dst_ok(const tb_t *tb, unsigned p, const lfc_word_t *w) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  if (w->kind != LFC_DATA || !w->sop || reg(tb, R.rx_rem, p, 0) != 0) return 0;
  unsigned cls = w->cls & 15u;
  int cls_ok = cls < c->classes || (c->mode == LFC_MODE_IB && cls == LFC_VL15 && c->vl15_blocks);
  return cls_ok && w->dst < c->ports;
}

/* SPEC §7.2 and §5.4 / §6.4: a legal first block, the one that admission decides on. */
static int legal_first_block(const tb_t *tb, unsigned p, const lfc_word_t *w) {
  return first_block_cls_dst_ok(tb, p, w) && w->nblk >= 1 && w->nblk <= tb->cfg.sw.mtu_blocks;
}

/* SPEC §5.3 for a head packet of n blocks. */
static int send_ok(uint32_t fctbs, uint32_t fccl, uint32_t n) {
  return ((fccl - ((fctbs + n) & CREDIT_MASK)) & CREDIT_MASK) <= CREDIT_WINDOW;
}

/* SPEC §5.6: is data VL v of port p eligible in S(t) whatever the size of its head packet?
   The registers tell the size only at times (tb_head_nblk); otherwise it lies between the
   sizes the queue's qlen and qpkts allow (every queued packet is legal, 1..mtu_blocks), and the
   sizes that pass the send rule form one interval ([max(0, d - 2048), d] for d = (fccl -
   fctbs) mod 4096, as a size is below 2048), so passing at both ends is passing for all. */
static int vl_surely_eligible(const tb_t *tb, unsigned p, unsigned v) {
  uint64_t k = reg(tb, R.qpkts, p, v), blocks = reg(tb, R.qlen, p, v);
  if (k == 0) return 0;
  uint64_t mtu = tb->cfg.sw.mtu_blocks, lo, hi;
  uint32_t n = tb_head_nblk(tb, p, v);
  if (n) {
    lo = hi = n;
  } else {
    hi = blocks - (k - 1) < mtu ? blocks - (k - 1) : mtu;
    lo = blocks > (k - 1) * mtu ? blocks - (k - 1) * mtu : 1;
  }
  uint32_t fctbs = (uint32_t)reg(tb, R.fctbs, p, v), fccl = (uint32_t)reg(tb, R.fccl, p, v);
  return send_ok(fctbs, fccl, (uint32_t)lo) && send_ok(fctbs, fccl, (uint32_t)hi);
}

/* SPEC §5.6 step 2: a table has a pick iff one of its entries with weight > 0 names an eligible
   VL (the current entry or a later one); "surely", as vl_surely_eligible. */
static int table_surely_picks(const tb_t *tb, unsigned p, const lfc_vlarb_entry_t *e,
                              uint32_t len) {
  for (uint32_t i = 0; i < len; i++)
    if (e[i].weight > 0 && e[i].vl < tb->cfg.sw.classes && vl_surely_eligible(tb, p, e[i].vl))
      return 1;
  return 0;
}

static int vlarb_limit_applies(const tb_t *tb) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  return c->mode == LFC_MODE_IB && c->vlarb_high_len > 0 && c->vlarb_high_limit != VLARB_NO_LIMIT;
}

/* IB: the send rule's false sides (§5.3), the admissions of §5.4, the FCP timer of §5.5, and
   what the port's word of this cycle is judged against (the grant, §5.4; the tables, §5.6). */
static void ib_edges_pre(tb_t *tb, uint64_t cycle, const lfc_word_t *in) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  for (unsigned p = 0; p < c->ports; p++) {
    tb_cov_port_t *pre = &tb->cov_pre[p];
    /* §5.3 */
    if (reg(tb, R.tx_rem, p, 0) == 0) { /* a busy port decides nothing on the rule */
      for (unsigned v = 0; v < c->classes; v++) {
        uint32_t n = tb_head_nblk(tb, p, v);
        if (n == 0) continue;
        uint32_t cr = (uint32_t)(reg(tb, R.fctbs, p, v) + n) & CREDIT_MASK;
        uint32_t d = ((uint32_t)reg(tb, R.fccl, p, v) - cr) & CREDIT_MASK;
        if (d == SEND_EDGE_SHORT) tb->cov[COV_SEND_RULE_SHORT]++;
        if (d == SEND_EDGE_BEYOND) tb->cov[COV_SEND_RULE_BEYOND]++;
      }
    }
    /* §5.4: the admission of a legal first block arriving now, from occ of S(t) */
    const lfc_word_t *w = &in[p];
    if (legal_first_block(tb, p, w)) {
      unsigned v = w->cls & 15u;
      uint64_t cap = v == LFC_VL15 ? c->vl15_blocks : c->vl_blocks[v];
      uint64_t occ = v == LFC_VL15 ? reg(tb, R.occ15, p, 0) : reg(tb, R.occ, p, v);
      uint64_t free_blocks = occ < cap ? cap - occ : 0;
      if (w->nblk == free_blocks)
        tb->cov[v == LFC_VL15 ? COV_VL15_ADM_EDGE : COV_CREDIT_ADM_EDGE]++;
      if (w->nblk == free_blocks + 1)
        tb->cov[v == LFC_VL15 ? COV_VL15_ADM_BEYOND : COV_CREDIT_ADM_BEYOND]++;
    }
    /* §5.4 the advertised FCCL, §5.5 what is pending; a change counts from fcp_timer = open on
       (open >= 1: below, the timer alone decides and the hold-off has no edge of its own) */
    int change = 0, timer0 = 0, timer1 = 0, pending = 0, held_short = 0;
    const int64_t open = (int64_t)c->fcp_period - 1 - (int64_t)c->fcp_holdoff;
    const int holdoff_edges = c->fcp_holdoff > 0 && open >= 1;
    pre->fcp_timer_due = 0;
    pre->fcp_holdoff_due = 0;
    for (unsigned v = 0; v < c->classes; v++) {
      uint64_t occ = reg(tb, R.occ, p, v);
      uint32_t free_blocks = (uint32_t)(occ < c->vl_blocks[v] ? c->vl_blocks[v] - occ : 0);
      pre->grant_free[v] = free_blocks;
      uint32_t grant = free_blocks < GRANT_CAP ? free_blocks : GRANT_CAP;
      uint32_t fccl = ((uint32_t)reg(tb, R.abr, p, v) + grant) & CREDIT_MASK;
      int changed = reg(tb, R.fctbs, p, v) != reg(tb, R.fcp_sent_fctbs, p, v) ||
                    fccl != reg(tb, R.fcp_sent_fccl, p, v);
      uint64_t timer = reg(tb, R.fcp_timer, p, v);
      change |= changed;
      timer0 |= timer == 0;
      timer1 |= timer == 1;
      pending |= timer == 0 || (changed && (int64_t)timer <= open);
      if (timer == 0 && !changed) pre->fcp_timer_due |= 1u << v;
      if (holdoff_edges && changed && (int64_t)timer == open) pre->fcp_holdoff_due |= 1u << v;
      held_short |= holdoff_edges && changed && (int64_t)timer == open + 1;
    }
    if (port_free(tb, cycle, p) && !change && !timer0 && timer1) tb->cov[COV_FCP_TIMER_SHORT]++;
    if (port_free(tb, cycle, p) && !pending && held_short) tb->cov[COV_FCP_HOLDOFF_SHORT]++;
    /* §5.6 */
    if (vlarb_limit_applies(tb)) {
      pre->hi_sent = (uint32_t)reg(tb, R.hi_sent, p, 0);
      pre->hi_pick = (uint8_t)table_surely_picks(tb, p, c->vlarb_high, c->vlarb_high_len);
      pre->lo_pick = (uint8_t)table_surely_picks(tb, p, c->vlarb_low, c->vlarb_low_len);
    }
  }
}

/* SPEC §7.2: the length check of a first block whose class and destination are legal. */
static void framing_edges_pre(tb_t *tb, const lfc_word_t *in) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  for (unsigned p = 0; p < c->ports; p++) {
    const lfc_word_t *w = &in[p];
    if (!first_block_cls_dst_ok(tb, p, w)) continue;
    if (w->nblk == 0) tb->cov[COV_NBLK_ZERO]++;
    if (w->nblk == c->mtu_blocks) tb->cov[COV_MTU_EDGE]++;
    if (w->nblk == c->mtu_blocks + 1) tb->cov[COV_MTU_BEYOND]++;
  }
}

/* SPEC §6.4: the admission compares of the legal first blocks arriving now, decided in step E
   from S(t), ports in ascending order for the shared pool's chain (used). */
static void admission_edges_pre(tb_t *tb, const lfc_word_t *in, uint32_t T) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  uint64_t used = reg(tb, R.shared_used, 0, 0);
  for (unsigned p = 0; p < c->ports; p++) {
    const lfc_word_t *w = &in[p];
    if (!legal_first_block(tb, p, w)) continue;
    unsigned k = w->cls & 15u;
    /* dropped before step 1 when its egress queue is in the watchdog's drop state (§6.8) */
    if (c->wd_enable && c->wd_action == LFC_WD_DROP && reg(tb, R.wd_storm, w->dst, k)) continue;
    /* step 1 */
    uint64_t pg_min = reg(tb, R.pg_min, p, k);
    uint64_t room = c->reserve_blocks > pg_min ? c->reserve_blocks - pg_min : 0;
    if (w->nblk == room) tb->cov[COV_ADM_RESERVE_EDGE]++;
    if (w->nblk == room + 1) tb->cov[COV_ADM_RESERVE_BEYOND]++;
    uint64_t rest = w->nblk - (w->nblk < room ? w->nblk : room);
    if (rest == 0) continue; /* step 2 */
    /* step 3 */
    uint64_t sh = reg(tb, R.pg_shared, p, k);
    if (sh + rest == T) tb->cov[COV_ADM_SHARED_EDGE]++;
    if (sh + rest == (uint64_t)T + 1) tb->cov[COV_ADM_SHARED_BEYOND]++;
    if (sh + rest <= T) {
      if (used + rest == c->shared_blocks) tb->cov[COV_ADM_POOL_EDGE]++;
      if (used + rest == (uint64_t)c->shared_blocks + 1) tb->cov[COV_ADM_POOL_BEYOND]++;
      if (used + rest <= c->shared_blocks) {
        used += rest;
        continue;
      }
    }
    /* step 4, above the threshold */
    if (sh + rest > T && ((c->lossless_mask >> k) & 1u)) {
      uint64_t hd = reg(tb, R.pg_hdrm, p, k);
      if (hd + rest == c->headroom_blocks) tb->cov[COV_ADM_HDRM_EDGE]++;
      if (hd + rest == (uint64_t)c->headroom_blocks + 1) tb->cov[COV_ADM_HDRM_BEYOND]++;
    }
  }
}

/* SPEC §8.1: is queue (p, k) eligible in S(t): non-empty, not paused (a storm ignores the
   pause, §6.8), not in the watchdog's drop state. */
static int pfc_queue_eligible(const tb_t *tb, unsigned p, unsigned k) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  if (reg(tb, R.qpkts, p, k) == 0) return 0;
  int storm = c->wd_enable && reg(tb, R.wd_storm, p, k) != 0;
  if (storm) return c->wd_action != LFC_WD_DROP;
  return reg(tb, R.pause_timer, p, k) == 0;
}

/* SPEC §8.2: which edge of deficit[drr_ptr] > 0, if any, decides the DRR pick of S(t) (the
   pick that starts a packet when no strict priority is eligible). */
static uint8_t drr_edge(const tb_t *tb, unsigned p) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  unsigned elig = 0;
  for (unsigned k = 0; k < c->classes && k < PFC_PRIOS; k++)
    if (pfc_queue_eligible(tb, p, k)) elig |= 1u << k;
  unsigned ptr = (unsigned)reg(tb, R.drr_ptr, p, 0);
  unsigned drr = elig & ~(unsigned)c->strict_mask;
  if ((elig & c->strict_mask) || !((drr >> ptr) & 1u)) return TB_DRR_NONE;
  int16_t d = (int16_t)(uint16_t)reg(tb, R.deficit, p, ptr);
  if (d == 1) return TB_DRR_DEFICIT_ONE;
  if (d == 0 && (drr & ~(1u << ptr))) return TB_DRR_DEFICIT_ZERO;
  return TB_DRR_NONE;
}

/* The edges of the comparisons of SPEC §5.3-§5.6, §6.4-§6.8, §7.2 and §8.2 in S(t), both sides
   of each where the other is not an event of its own (tb_cov_points.h); what the port's word
   of this cycle is judged against in tb_cov_post goes to tb->cov_pre. */
static void edges_pre(tb_t *tb, uint64_t cycle, const lfc_word_t *in) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  regs_find();
  framing_edges_pre(tb, in);
  if (c->mode == LFC_MODE_IB) {
    ib_edges_pre(tb, cycle, in);
    return;
  }
  const uint32_t T = threshold(tb);
  admission_edges_pre(tb, in, T);
  for (unsigned p = 0; p < c->ports; p++) {
    tb_cov_port_t *pre = &tb->cov_pre[p];
    const int free_port = port_free(tb, cycle, p);
    pre->refresh_due = 0;
    pre->drr_edge = drr_edge(tb, p);
    pre->lfsr = (uint32_t)reg(tb, R.lfsr, p, 0);
    for (unsigned k = 0; k < c->classes && k < PFC_PRIOS; k++) {
      pre->qlen[k] = (uint32_t)reg(tb, R.qlen, p, k);
      if ((c->lossless_mask >> k) & 1u) {
        /* §6.5 */
        uint64_t sh = reg(tb, R.pg_shared, p, k);
        int xoff = reg(tb, R.xoff, p, k) != 0;
        if (sh > 0 && reg(tb, R.pg_hdrm, p, k) == 0) {
          int edge = 0;
          if (!xoff) {
            if (sh == T) tb->cov[COV_XOFF_EDGE]++, edge = 1;
            if (sh + 1 == T) tb->cov[COV_XOFF_SHORT]++, edge = 1;
          } else {
            if (sh + c->xon_offset == T) tb->cov[COV_XON_EDGE]++, edge = 1;
            if (sh + c->xon_offset == (uint64_t)T + 1) tb->cov[COV_XON_SHORT]++, edge = 1;
          }
          if (edge && c->dynamic_th) tb->cov[COV_DYN_TH_EDGE]++;
        }
        /* §6.6: an xoff priority carried by its refresh timer alone */
        if (xoff && reg(tb, R.pfc_pend, p, k) == 0) {
          uint64_t rt = reg(tb, R.refresh_timer, p, k);
          if (rt == 0) pre->refresh_due |= (uint8_t)(1u << k);
          if (rt == 1 && free_port) tb->cov[COV_REFRESH_SHORT]++;
        }
      }
      /* §6.7 */
      uint32_t pt = (uint32_t)reg(tb, R.pause_timer, p, k);
      tb->pause_timer_prev[p][k] = tb->pause_timer[p][k];
      tb->pause_timer[p][k] = pt;
      int storm = c->wd_enable && reg(tb, R.wd_storm, p, k) != 0;
      if (pt == 1 && !storm && reg(tb, R.qpkts, p, k) > 0 && reg(tb, R.tx_rem, p, 0) == 0)
        tb->cov[COV_PAUSE_LAST]++;
      /* §6.8 */
      if (!c->wd_enable) continue;
      if (!storm) {
        if (pt > 0 && reg(tb, R.wd_cnt, p, k) + 2 == c->wd_detect)
          tb->cov[COV_WD_DETECT_SHORT]++;
      } else {
        const lfc_word_t *w = &in[p];
        int pause_rx = w->kind == LFC_PFC && ((w->pfc_en >> k) & 1u) && w->pfc_time[k] > 0;
        if (!pause_rx && reg(tb, R.wd_rcnt, p, k) + 2 == c->wd_restore)
          tb->cov[COV_WD_RESTORE_SHORT]++;
      }
    }
  }
}

/* SPEC §9.3: the value r of a draw from the LFSR value x of S(t). */
static uint32_t lfsr_draw(uint32_t x) {
  for (unsigned i = 0; i < LFSR_DRAW_STEPS; i++) x = (x >> 1) ^ ((x & 1u) ? LFSR_TAPS : 0u);
  return x & LFSR_DRAW_MASK;
}

/* The edges decided by the word port p sends in this cycle (o), from S(t) (tb->cov_pre): a
   packet starting (§5.6, §8.2, §9.2), an FCP (§5.4, §5.5), a PFC frame (§6.6). */
static void edges_post(tb_t *tb, unsigned p, const lfc_word_t *o) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  const tb_cov_port_t *pre = &tb->cov_pre[p];
  if (o->kind == LFC_DATA && o->sop && c->mode == LFC_MODE_IB && o->cls < c->classes &&
      vlarb_limit_applies(tb) && pre->hi_pick && pre->lo_pick) {
    uint32_t lim = VLARB_LIMIT_UNIT * c->vlarb_high_limit;
    if (lim < 1) lim = 1;
    if (pre->hi_sent + 1 == lim) tb->cov[COV_VLARB_LIMIT_EDGE]++;
    if (pre->hi_sent == lim) tb->cov[COV_VLARB_LIMIT_BEYOND]++;
  }
  if (o->kind == LFC_DATA && o->sop && c->mode == LFC_MODE_PFC && o->cls < PFC_PRIOS) {
    if (pre->drr_edge == TB_DRR_DEFICIT_ONE) tb->cov[COV_DRR_DEFICIT_ONE]++;
    if (pre->drr_edge == TB_DRR_DEFICIT_ZERO) tb->cov[COV_DRR_DEFICIT_ZERO]++;
    int ecn = tb_score_ecn(tb, o->tag); /* as sent to the switch: o->ecn may be marked */
    if (((c->ecn_mask >> o->cls) & 1u) && (ecn == LFC_ECN_ECT0 || ecn == LFC_ECN_ECT1)) {
      uint64_t q = pre->qlen[o->cls];
      if (q == c->kmin) tb->cov[COV_WRED_KMIN]++;
      if (q == (uint64_t)c->kmin + 1) tb->cov[COV_WRED_KMIN_ABOVE]++;
      if (q == c->kmax) tb->cov[COV_WRED_KMAX]++;
      if (q == (uint64_t)c->kmax + 1) tb->cov[COV_WRED_KMAX_ABOVE]++;
      if (q > c->kmin && q <= c->kmax &&
          (uint64_t)lfsr_draw(pre->lfsr) * (c->kmax - c->kmin) == (uint64_t)c->pmax * (q - c->kmin))
        tb->cov[COV_WRED_DRAW_EQUAL]++;
    }
  }
  if (o->kind == LFC_FCP && c->mode == LFC_MODE_IB && o->fc_vl < c->classes) {
    if ((pre->fcp_timer_due >> o->fc_vl) & 1u) tb->cov[COV_FCP_TIMER_EDGE]++;
    if ((pre->fcp_holdoff_due >> o->fc_vl) & 1u) tb->cov[COV_FCP_HOLDOFF_EDGE]++;
    uint32_t f = pre->grant_free[o->fc_vl];
    if (f == GRANT_CAP - 1) tb->cov[COV_FCCL_GRANT_BELOW]++;
    if (f == GRANT_CAP + 1) tb->cov[COV_FCCL_GRANT_BEYOND]++;
  }
  if (o->kind == LFC_PFC && c->mode == LFC_MODE_PFC && (o->pfc_en & pre->refresh_due))
    tb->cov[COV_REFRESH_EDGE]++;
}

/* SPEC §2.4: slack and tx_rem of S(t) per port, for the line-time points of tb_cov_post. */
static void line_time_pre(tb_t *tb) {
  enum { SLACK_BITS = 8 }; /* SPEC §13.1: slack is 8 bits, two's complement */
  static int reg_slack = -2, reg_tx_rem = -2;
  if (reg_slack == -2) reg_slack = lfc_reg_find("slack");
  if (reg_tx_rem == -2) reg_tx_rem = lfc_reg_find("tx_rem");
  if (reg_slack < 0 || reg_tx_rem < 0) return;
  for (unsigned p = 0; p < tb->cfg.sw.ports; p++) {
    uint64_t v = lfc_switch_reg(tb->sw, (size_t)reg_slack, p, 0);
    tb->slack_pre[p] = (int32_t)v - (v >> (SLACK_BITS - 1) ? 1 << SLACK_BITS : 0);
    tb->tx_rem_pre[p] = (uint32_t)lfc_switch_reg(tb->sw, (size_t)reg_tx_rem, p, 0);
  }
}

/* SPEC §2.4 line time of port p's word o and of the word w it received. */
static void line_time_post(tb_t *tb, uint64_t cycle, unsigned p, const lfc_word_t *o,
                           const lfc_word_t *w) {
  enum { BLOCK_BYTES = 64, ETH_OVERHEAD_BYTES = 20 }; /* §2.4: a slot; 802.3 preamble + IFG */
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  if (w->kind == LFC_DATA && w->sop && w->mrg && w->nblk >= 2) tb->cov[COV_RX_MRG]++;
  if (!c->wire_time) return;
  if (cycle % c->speed_div[p] == 0 && tb->tx_rem_pre[p] == 0 && tb->slack_pre[p] < 0)
    tb->cov[COV_TX_GAP]++;
  if (o->kind != LFC_DATA || !o->sop) return;
  if (o->mrg) tb->cov[COV_TX_MRG]++;
  int v = tb->slack_pre[p] + o->pad - (c->mode == LFC_MODE_PFC ? ETH_OVERHEAD_BYTES : 0);
  if (o->nblk >= 2 && v == BLOCK_BYTES) tb->cov[COV_MRG_EDGE]++;
  if (o->nblk >= 2 && v == BLOCK_BYTES - 1) tb->cov[COV_MRG_SHORT]++;
}

void tb_cov_pre(tb_t *tb, uint64_t cycle, const lfc_word_t *in) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  edges_pre(tb, cycle, in);
  if (c->wire_time) line_time_pre(tb);
  if (c->mode != LFC_MODE_IB) return;
  if (reg_abr < 0) reg_abr = lfc_reg_find("abr");
  if (reg_hi_sent < 0) reg_hi_sent = lfc_reg_find("hi_sent");
  for (unsigned p = 0; p < c->ports; p++) {
    const lfc_word_t *w = &in[p];
    if (w->kind == LFC_FCP && w->fc_op <= 1 && w->fc_vl < c->classes && reg_abr >= 0 &&
        lfc_switch_reg(tb->sw, (size_t)reg_abr, p, w->fc_vl) != w->fc_fctbs)
      tb->cov[COV_FCP_REPAIR]++;
    if (vlarb_limit_applies(tb) && reg_hi_sent >= 0)
      tb->hi_sent_pre[p] = (uint32_t)lfc_switch_reg(tb->sw, (size_t)reg_hi_sent, p, 0);
  }
}

void tb_cov_post(tb_t *tb, uint64_t cycle, const lfc_word_t *in, const lfc_word_t *out,
                 const lfc_event_t *ev, size_t nev) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  for (size_t i = 0; i < nev; i++) {
    switch (ev[i].kind) {
      case LFC_EV_DROP: {
        static const tb_cov_t by_cause[LFC_DROP_CAUSES] = {
            [LFC_DROP_HEADROOM] = COV_DROP_HEADROOM, [LFC_DROP_SHARED] = COV_DROP_SHARED,
            [LFC_DROP_WATCHDOG] = COV_DROP_WATCHDOG, [LFC_DROP_CREDIT] = COV_DROP_CREDIT,
            [LFC_DROP_VL15] = COV_DROP_VL15,         [LFC_DROP_MALFORMED] = COV_DROP_MALFORMED};
        if (ev[i].cause < LFC_DROP_CAUSES) tb->cov[by_cause[ev[i].cause]]++;
        break;
      }
      case LFC_EV_ECN_MARK: tb->cov[COV_ECN_MARK]++; break;
      case LFC_EV_XOFF: tb->cov[COV_XOFF]++; break;
      case LFC_EV_XON: tb->cov[COV_XON]++; break;
      case LFC_EV_WD_TRIP: {
        tb->cov[COV_WD_TRIP]++;
        /* An endless pause storm must end in a watchdog trip (SPEC §6.8). */
        const tb_misbehave_cfg_t *m = &tb->cfg.mis;
        if (m->storm_port == (int32_t)ev[i].port && cycle >= m->storm_start &&
            cycle - m->storm_start < m->storm_cycles)
          tb->cov[COV_MIS_STORM_WD]++;
        break;
      }
      case LFC_EV_WD_RESTORE: tb->cov[COV_WD_RESTORE]++; break;
      case LFC_EV_RX_MALFORMED: tb->cov[COV_RX_MALFORMED]++; break;
      default: break;
    }
  }
  for (unsigned p = 0; p < c->ports; p++) {
    const lfc_word_t *o = &out[p], *w = &in[p];
    unsigned k = c->speed_div[p];
    tb->tx_words[o->kind & 3u]++;
    edges_post(tb, p, o);
    line_time_post(tb, cycle, p, o, w);
    /* Outputs (decided from S(t), before this cycle's inputs act). */
    if (o->kind == LFC_DATA && o->sop) {
      if (TB_TAG_SRC(o->tag) == p) tb->cov[COV_HAIRPIN]++;
      /* §6.7: started in the first cycle its pause timer is 0 after 1 in the cycle before */
      if (c->mode == LFC_MODE_PFC && o->cls < 8 && tb->pause_timer[p][o->cls] == 0 &&
          tb->pause_timer_prev[p][o->cls] == 1)
        tb->cov[COV_PAUSE_EXPIRY_START]++;
      if (c->mode == LFC_MODE_IB && o->cls == LFC_VL15) tb->cov[COV_VL15_TX]++;
      if (c->mode == LFC_MODE_IB && o->cls < c->classes) {
        uint32_t cr = (tb->tb_fctbs[p][o->cls] + o->nblk) & CREDIT_MASK;
        uint32_t d = (tb->tb_fccl[p][o->cls] - cr) & CREDIT_MASK;
        if (d == 0) tb->cov[COV_SEND_RULE_EXACT]++;
        if (d == CREDIT_WINDOW) tb->cov[COV_SEND_RULE_WINDOW]++;
        tb->tb_fctbs[p][o->cls] = cr;
        if (vlarb_limit_applies(tb) && reg_hi_sent >= 0) {
          uint32_t lim = VLARB_LIMIT_UNIT * c->vlarb_high_limit;
          if (lim < 1) lim = 1;
          if (tb->hi_sent_pre[p] >= lim &&
              lfc_switch_reg(tb->sw, (size_t)reg_hi_sent, p, 0) == 0)
            tb->cov[COV_VLARB_HIGH_LIMIT]++;
        }
      }
    }
    if (o->kind == LFC_FCP && o->fc_vl < LFC_MAX_CLASSES) {
      if (tb->fcp_seen_out[p][o->fc_vl] && o->fc_fctbs < tb->last_fcp_fctbs_out[p][o->fc_vl])
        tb->cov[COV_CREDIT_WRAP]++;
      tb->fcp_seen_out[p][o->fc_vl] = 1;
      tb->last_fcp_fctbs_out[p][o->fc_vl] = o->fc_fctbs;
    }
    if (o->kind == LFC_PFC) {
      for (unsigned i = 0; i < 8; i++) {
        if (!(o->pfc_en & (1u << i))) continue;
        if (o->pfc_time[i] > 0) {
          if (tb->pfc_out_xoff[p][i]) tb->cov[COV_PFC_REFRESH]++;
          tb->pfc_out_xoff[p][i] = 1;
        } else {
          tb->pfc_out_xoff[p][i] = 0;
        }
      }
    }
    /* Inputs. */
    if (c->mode == LFC_MODE_IB && w->kind == LFC_FCP) {
      if (w->fc_op > 1 || w->fc_vl >= c->classes) {
        tb->cov[COV_FCP_RX_BAD]++;
      } else if (tb->stim[p].bad_fcp_at == cycle + 1) {
        /* A stale or wild FCP injected by the misbehaving partner: its FCTBS going down is not
           the partner's 12-bit counter wrapping, and it is not the partner's last value. */
        tb->tb_fccl[p][w->fc_vl] = w->fc_fccl;
      } else {
        tb->tb_fccl[p][w->fc_vl] = w->fc_fccl;
        if (tb->fcp_seen_in[p][w->fc_vl] && w->fc_fctbs < tb->last_fcp_fctbs_in[p][w->fc_vl])
          tb->cov[COV_CREDIT_WRAP]++;
        tb->fcp_seen_in[p][w->fc_vl] = 1;
        tb->last_fcp_fctbs_in[p][w->fc_vl] = w->fc_fctbs;
      }
    }
    if (c->mode == LFC_MODE_PFC) {
      for (unsigned i = 0; i < c->classes && i < 8; i++) {
        int frame = w->kind == LFC_PFC && (w->pfc_en & (1u << i));
        if (frame) {
          uint64_t q = w->pfc_time[i];
          if (q == 0 && tb->pause_active[p][i] && tb->pause_until[p][i] > cycle)
            tb->cov[COV_RESUME_QUANTA0]++;
          tb->pause_active[p][i] = q > 0;
          tb->pause_until[p][i] = cycle + q * k;
        } else if (tb->pause_active[p][i] && tb->pause_until[p][i] == cycle) {
          tb->cov[COV_QUANTA_EXPIRY]++;
          tb->pause_active[p][i] = 0;
        }
      }
    }
  }
}

void tb_cov_end(tb_t *tb) {
  for (unsigned p = 0; p < tb->cfg.sw.ports; p++) {
    const lfc_port_stats_t *st = lfc_switch_stats(tb->sw, p);
    for (unsigned c = 0; c < LFC_MAX_CLASSES; c++)
      tb->cov[COV_CREDIT_BLOCKED] += st->cls[c].credit_blocked_cycles;
  }
}

int tb_write_file(const char *path, int (*fill)(FILE *, const void *), const void *arg) {
  /* A device or pipe (/dev/stdout, /dev/full) cannot be replaced by a rename: written in place. */
  struct stat st;
  int in_place = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
  char tmp[4096];
  if (!in_place) {
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof tmp) {
      errno = ENAMETOOLONG;
      return -1;
    }
  }
  const char *name = in_place ? path : tmp;
  FILE *f = fopen(name, "w");
  if (!f) return -1;
  errno = 0;
  int rc = fill(f, arg);
  if (fflush(f) != 0 || ferror(f)) rc = -1;
  int e = errno;
  if (fclose(f) != 0 && rc == 0) rc = -1, e = errno;
  if (rc == 0 && !in_place && rename(tmp, path) != 0) rc = -1, e = errno;
  if (rc != 0 && !in_place) unlink(tmp);
  errno = rc && !e ? EIO : e;
  return rc;
}

static int cov_fill(FILE *f, const void *arg) {
  const tb_t *tb = arg;
  if (fprintf(f, "{\n  \"config\": \"%s\",\n  \"sim\": \"%s\",\n  \"seed\": %u,\n",
              tb->cfg.name, tb->sim, tb->seed) < 0 ||
      fprintf(f, "  \"cycles\": %" PRIu64 ",\n  \"coverage\": {\n", tb->cycle) < 0)
    return -1;
  for (unsigned i = 0; i < COV_COUNT; i++)
    if (fprintf(f, "    \"%s\": %" PRIu64 "%s\n", NAMES[i], tb->cov[i],
                i + 1 < COV_COUNT ? "," : "") < 0)
      return -1;
  return fprintf(f, "  }\n}\n") < 0 ? -1 : 0;
}

int tb_cov_write(const tb_t *tb, const char *path) { return tb_write_file(path, cov_fill, tb); }
