/*
 * tb_stim.c - what the link partners send: seeded traffic into each partner's transmit FIFOs
 * (lfc_nic obeys credits and pauses, SPEC §12.2), and misbehaviour injected on the link between
 * a partner and the switch.
 *
 * Injection never breaks the partner's own packets: an injected word replaces an IDLE word only
 * while the partner is between packets (SPEC §2.2), and injected packets are one block long. So
 * the partner's stream reaches the switch intact and only the injected words misbehave.
 * Everything is a function of the seed: one splitmix64 stream per port.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tb.h"

/* [run] require = name, name, ...: the coverage points (tb_cov.c) this run must hit. */
static int resolve_require(const tb_cfg_t *c, uint8_t required[COV_COUNT]) {
  char buf[sizeof c->require];
  snprintf(buf, sizeof buf, "%s", c->require);
  memset(required, 0, COV_COUNT);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
    unsigned i = 0;
    while (i < COV_COUNT && strcmp(tb_cov_name((tb_cov_t)i), tok) != 0) i++;
    if (i == COV_COUNT) {
      fprintf(stderr, "%s:%d: [run] require = %s: unknown coverage point '%s'; points:", c->path,
              c->require_line, c->require, tok);
      for (unsigned k = 0; k < COV_COUNT; k++)
        fprintf(stderr, "%s %s", k ? "," : "", tb_cov_name((tb_cov_t)k));
      fprintf(stderr, "\n");
      return -1;
    }
    required[i] = 1;
  }
  return 0;
}

int tb_stim_init(tb_t *tb) {
  const tb_cfg_t *c = &tb->cfg;
  if (resolve_require(c, tb->require)) return 2;
  memset(tb->stim, 0, sizeof tb->stim);
  for (unsigned p = 0; p < c->sw.ports; p++) {
    tb_stim_port_t *st = &tb->stim[p];
    st->rng = ((uint64_t)tb->seed << 32) ^ (0xA5A5A5A5ull * (p + 1)) ^ 0x1234567ull;
    (void)tb_rng_next(&st->rng);
    st->next_nblk = c->traffic.min_nblk +
                    tb_rng_below(&st->rng, c->traffic.max_nblk - c->traffic.min_nblk + 1);
    st->burst_phase = tb_rng_below(&st->rng, c->traffic.burst_gap);
  }
  tb->stop_cycle = tb->cycles * c->traffic.stop_pct / 100u;
  return 0;
}

static uint32_t pick_class(uint64_t *rng, uint32_t mask) {
  unsigned n = (unsigned)__builtin_popcount(mask);
  unsigned k = tb_rng_below(rng, n);
  for (unsigned c = 0; c < 16; c++)
    if (mask & (1u << c)) {
      if (k == 0) return c;
      k--;
    }
  return 0;
}

static uint8_t pick_ecn(uint64_t *rng, uint32_t pct) {
  if (tb_rng_below(rng, 100) >= pct) return LFC_ECN_NOT_ECT;
  return tb_rng_below(rng, 2) ? LFC_ECN_ECT0 : LFC_ECN_ECT1;
}

static uint16_t pick_dst(const tb_cfg_t *c, uint64_t *rng, unsigned p) {
  const tb_traffic_cfg_t *t = &c->traffic;
  switch (t->mode) {
    case TB_TRAFFIC_INCAST:
      return (uint16_t)t->incast_dst;
    case TB_TRAFFIC_PERMUTATION:
      return (uint16_t)((p + 1) % c->sw.ports);
    case TB_TRAFFIC_HOTSPOT:
      if (tb_rng_below(rng, 100) < t->hotspot_pct) return (uint16_t)t->incast_dst;
      return (uint16_t)tb_rng_below(rng, c->sw.ports);
    default:
      return (uint16_t)tb_rng_below(rng, c->sw.ports);
  }
}

/* Try to hand the pending packet to the partner. 1 if it went (or there was none). */
static int flush_pending(tb_t *tb, unsigned p) {
  tb_stim_port_t *st = &tb->stim[p];
  if (!st->have_pending) return 1;
  if (lfc_nic_send(tb->nic[p], &st->pending) != 0) return 0;
  tb_score_created(tb, p, &st->pending, st->pending.tag);
  st->have_pending = 0;
  return 1;
}

static void make_packet(tb_t *tb, unsigned p, uint32_t nblk) {
  const tb_cfg_t *c = &tb->cfg;
  tb_stim_port_t *st = &tb->stim[p];
  lfc_pkt_t *pk = &st->pending;
  memset(pk, 0, sizeof *pk);
  pk->cls = (uint8_t)pick_class(&st->rng, c->traffic.class_mask);
  pk->nblk = (uint8_t)nblk;
  pk->dst = pick_dst(c, &st->rng, p);
  pk->ecn = pick_ecn(&st->rng, c->traffic.ecn_pct);
  /* no draw without pad_max, so that the streams of configurations without it are unchanged */
  if (c->traffic.pad_max) pk->pad = (uint8_t)tb_rng_below(&st->rng, c->traffic.pad_max + 1);
  pk->tag = TB_TAG(0, p, st->seq);
  st->seq++;
  st->have_pending = 1;
}

void tb_stim_traffic(tb_t *tb, uint64_t cycle) {
  const tb_cfg_t *c = &tb->cfg;
  const tb_traffic_cfg_t *t = &c->traffic;
  if (cycle >= tb->stop_cycle) return;
  for (unsigned p = 0; p < c->sw.ports; p++) {
    tb_stim_port_t *st = &tb->stim[p];
    if (!flush_pending(tb, p)) continue;
    if (t->mode == TB_TRAFFIC_INCAST && p == t->incast_dst) continue;
    if (t->mode == TB_TRAFFIC_BURSTS) {
      if ((cycle + st->burst_phase) % t->burst_gap == 0) st->burst_left += t->burst_pkts;
      while (st->burst_left > 0) {
        uint32_t n = t->min_nblk + tb_rng_below(&st->rng, t->max_nblk - t->min_nblk + 1);
        make_packet(tb, p, n);
        st->burst_left--;
        if (!flush_pending(tb, p)) break;
      }
      continue;
    }
    /* Offered load: load_permille blocks per 1000 slots of this port. */
    uint64_t need = 1000ull * c->sw.speed_div[p] * st->next_nblk;
    st->acc += t->load_permille;
    if (st->acc < need) continue;
    st->acc -= need;
    make_packet(tb, p, st->next_nblk);
    st->next_nblk = t->min_nblk + tb_rng_below(&st->rng, t->max_nblk - t->min_nblk + 1);
    (void)flush_pending(tb, p);
  }
}

static void data_word(lfc_word_t *w, uint8_t sop, uint8_t eop, uint8_t cls, uint8_t nblk,
                      uint16_t dst, uint32_t tag, uint8_t ecn) {
  memset(w, 0, sizeof *w);
  w->kind = LFC_DATA;
  w->sop = sop;
  w->eop = eop;
  w->cls = cls;
  w->nblk = nblk;
  w->dst = dst;
  w->tag = tag;
  w->ecn = ecn;
}

static void inject_packet(tb_t *tb, unsigned p, lfc_word_t *w, uint8_t cls, uint8_t nblk,
                          uint16_t dst, uint8_t ecn, uint8_t eop) {
  tb_stim_port_t *st = &tb->stim[p];
  uint32_t tag = TB_TAG(1, p, st->inj_seq);
  st->inj_seq++;
  lfc_pkt_t pk = {.cls = cls, .nblk = nblk, .ecn = ecn, .dst = dst, .tag = tag};
  tb_score_created(tb, p, &pk, tag);
  data_word(w, 1, eop, cls, nblk, dst, tag, ecn);
}

/* One garbage word of a kind chosen at random (tb/README.md lists them). */
static void garbage(tb_t *tb, unsigned p, lfc_word_t *w) {
  const tb_cfg_t *c = &tb->cfg;
  tb_stim_port_t *st = &tb->stim[p];
  const lfc_switch_cfg_t *s = &c->sw;
  uint64_t *r = &st->rng;
  uint8_t cls = (uint8_t)pick_class(r, c->traffic.class_mask);
  uint16_t dst = (uint16_t)tb_rng_below(r, s->ports);
  enum { GARBAGE_KINDS = 10 };
  for (;;) {
    unsigned kind = tb_rng_below(r, GARBAGE_KINDS);
    switch (kind) {
      case 0: /* a continuation block outside any packet (§7.2) */
        data_word(w, 0, 1, cls, 1, dst, TB_TAG(1, p, 0xffffff), 0);
        return;
      case 1: /* nblk = 0 */
        inject_packet(tb, p, w, cls, 0, dst, 0, 1);
        return;
      case 2: { /* nblk > mtu_blocks: half of them mtu_blocks + 1, the edge of the length
                   check (tb_cov_points.h, mtu_beyond), the others uniform up to 255; one draw
                   either way, so the rest of the port's stream is the same */
        if (s->mtu_blocks >= 255) break;
        uint32_t span = 255 - s->mtu_blocks, v = tb_rng_below(r, 2 * span);
        inject_packet(tb, p, w, cls, (uint8_t)(s->mtu_blocks + 1 + (v < span ? 0 : v - span)),
                      dst, 0, 1);
        return;
      }
      case 3: { /* a class that does not exist here */
        int vl15_ok = s->mode == LFC_MODE_IB && s->vl15_blocks > 0;
        uint32_t lo = s->classes, hi = vl15_ok ? 14 : 15;
        if (lo > hi) break;
        inject_packet(tb, p, w, (uint8_t)(lo + tb_rng_below(r, hi - lo + 1)), 1, dst, 0, 1);
        return;
      }
      case 4: /* a destination that does not route (identity route: >= ports) */
        inject_packet(tb, p, w, cls, 1,
                      (uint16_t)(s->ports + tb_rng_below(r, 0x10000u - s->ports)), 0, 1);
        return;
      case 5: /* a one-block packet without eop (admitted; rx_malformed) */
        inject_packet(tb, p, w, cls, 1, dst, 0, 0);
        return;
      case 6: /* FCP with a reserved op */
        memset(w, 0, sizeof *w);
        w->kind = LFC_FCP;
        w->fc_op = (uint8_t)(2 + tb_rng_below(r, 14));
        w->fc_vl = cls;
        w->fc_fctbs = (uint16_t)tb_rng_below(r, 4096);
        w->fc_fccl = (uint16_t)tb_rng_below(r, 4096);
        return;
      case 7: /* FCP for a VL that does not exist (or VL15) */
        if (s->mode == LFC_MODE_IB && s->classes >= 15) break;
        memset(w, 0, sizeof *w);
        w->kind = LFC_FCP;
        w->fc_op = 0;
        w->fc_vl = (uint8_t)(s->classes + tb_rng_below(r, 16 - s->classes));
        w->fc_fctbs = (uint16_t)tb_rng_below(r, 4096);
        w->fc_fccl = (uint16_t)tb_rng_below(r, 4096);
        return;
      case 8: /* IB: a PFC frame (ignored); PFC: a frame for priorities that do not exist */
        memset(w, 0, sizeof *w);
        w->kind = LFC_PFC;
        if (s->mode == LFC_MODE_PFC) {
          if (s->classes >= 8) break;
          w->pfc_en = (uint8_t)(0xffu << s->classes);
        } else {
          w->pfc_en = (uint8_t)tb_rng_below(r, 256);
        }
        for (unsigned i = 0; i < 8; i++)
          if (w->pfc_en & (1u << i)) w->pfc_time[i] = (uint16_t)tb_rng_below(r, 65536);
        return;
      case 9: { /* a legal 2..MTU-block packet with one continuation block misframed (§7.2):
                   sop = 1, or eop inverted (early on a middle block, missing on the last) */
        if (s->mtu_blocks < 2) break;
        uint32_t n = 2 + tb_rng_below(r, s->mtu_blocks - 1);
        inject_packet(tb, p, w, cls, (uint8_t)n, dst, 0, 0);
        st->inj_word = *w;
        st->inj_left = n - 1;
        st->inj_fault_at = 1 + tb_rng_below(r, n - 1);
        st->inj_fault_sop = (int)tb_rng_below(r, 2);
        tb->cov[COV_MIS_FRAMING]++;
        return;
      }
      default:
        break;
    }
  }
}

/* The partner's own FCPs (SPEC §5.5), remembered per VL so that an old one can be replayed. */
static void record_fcp(tb_stim_port_t *st, const lfc_switch_cfg_t *s, const lfc_word_t *w) {
  if (s->mode != LFC_MODE_IB || w->kind != LFC_FCP || w->fc_op > 1 || w->fc_vl >= s->classes)
    return;
  unsigned vl = w->fc_vl;
  /* Every STALE_EVERY-th FCP becomes the one replayed: old enough that its FCTBS and FCCL are
     behind the partner's current ones whenever data flowed in between. */
  enum { STALE_EVERY = 8 };
  if (st->fcp_count[vl] % STALE_EVERY == 0) st->fcp_old[vl] = st->fcp_last[vl];
  st->fcp_last[vl] = *w;
  st->fcp_count[vl]++;
  st->fcp_have[vl] = 1;
}

/* IB: an FCP for a VL that exists, stale (an earlier FCP of the partner) or wild (SPEC §5.4: the
   switch takes its FCTBS as ABR, §5.3: its FCCL as the limit it sends to). */
static void bad_fcp(tb_t *tb, unsigned p, lfc_word_t *w) {
  const tb_cfg_t *c = &tb->cfg;
  tb_stim_port_t *st = &tb->stim[p];
  uint64_t *r = &st->rng;
  uint8_t vl = (uint8_t)tb_rng_below(r, c->sw.classes);
  if (st->fcp_count[vl] > 8 && tb_rng_below(r, 2)) {
    *w = st->fcp_old[vl];
    tb->cov[COV_MIS_FCP_STALE]++;
    return;
  }
  memset(w, 0, sizeof *w);
  w->kind = LFC_FCP;
  w->fc_op = (uint8_t)tb_rng_below(r, 2);
  w->fc_vl = vl;
  w->fc_fctbs = st->fcp_last[vl].fc_fctbs;
  w->fc_fccl = st->fcp_last[vl].fc_fccl;
  switch (tb_rng_below(r, 3)) {
    case 0: w->fc_fctbs = (uint16_t)tb_rng_below(r, 4096); break;
    case 1: w->fc_fccl = (uint16_t)tb_rng_below(r, 4096); break;
    default:
      w->fc_fctbs = (uint16_t)tb_rng_below(r, 4096);
      w->fc_fccl = (uint16_t)tb_rng_below(r, 4096);
      break;
  }
  tb->cov[COV_MIS_FCP_WILD]++;
}

/* IB: an FCP that puts the head packet of the switch's egress queue (p, vl) exactly at an edge
   of the send rule (SPEC §5.3), (FCCL - (FCTBS + n)) mod 4096 = 2048, 2049, 0 and 4095 in turn,
   from FCTBS and the head's size n in S(t); only while the rule holds that head (it cannot
   start in this cycle, so FCTBS is the same when the FCP takes effect in S(t + 1)). Its FCTBS
   is the partner's last, so ABR is not disturbed. Returns 0 if no VL of the port qualifies. */
static int edge_fcp(tb_t *tb, unsigned p, lfc_word_t *w) {
  enum { CREDIT_MASK = 4095, CREDIT_WINDOW = 2048 }; /* SPEC §5.1, §5.3 */
  static const uint32_t EDGE[] = {CREDIT_WINDOW, CREDIT_WINDOW + 1, 0, CREDIT_MASK};
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  tb_stim_port_t *st = &tb->stim[p];
  const int r_fctbs = lfc_reg_find("fctbs"), r_fccl = lfc_reg_find("fccl");
  for (unsigned vl = 0; vl < c->classes; vl++) {
    uint32_t n = tb_head_nblk(tb, p, vl);
    if (n == 0 || r_fctbs < 0 || r_fccl < 0) continue;
    uint32_t cr = (uint32_t)(lfc_switch_reg(tb->sw, (size_t)r_fctbs, p, vl) + n) & CREDIT_MASK;
    uint32_t fccl = (uint32_t)lfc_switch_reg(tb->sw, (size_t)r_fccl, p, vl);
    if (((fccl - cr) & CREDIT_MASK) <= CREDIT_WINDOW) continue; /* it may start now */
    memset(w, 0, sizeof *w);
    w->kind = LFC_FCP;
    w->fc_vl = (uint8_t)vl;
    w->fc_fctbs = st->fcp_last[vl].fc_fctbs;
    w->fc_fccl = (uint16_t)((cr + EDGE[st->edge_fcp_count % 4u]) & CREDIT_MASK);
    st->edge_fcp_count++;
    tb->cov[COV_MIS_FCP_EDGE]++;
    return 1;
  }
  return 0;
}

/* A PFC frame (SPEC §6.7) with a random enable vector over all 8 bits and random times in every
   field, the disabled ones included (the switch must ignore those). */
static void bad_pfc(tb_t *tb, unsigned p, lfc_word_t *w) {
  uint64_t *r = &tb->stim[p].rng;
  memset(w, 0, sizeof *w);
  w->kind = LFC_PFC;
  switch (tb_rng_below(r, 8)) {
    case 0:
    case 1: w->pfc_en = 0xff; break;
    case 2: w->pfc_en = 0x00; break;
    default: w->pfc_en = (uint8_t)tb_rng_below(r, 256); break;
  }
  static const uint16_t EDGE[3] = {0, 1, 65535};
  for (unsigned i = 0; i < 8; i++) {
    unsigned k = tb_rng_below(r, 4);
    w->pfc_time[i] = k < 3 ? EDGE[k] : (uint16_t)tb_rng_below(r, 65536);
  }
  tb->cov[COV_MIS_PFC_GARBAGE]++;
  if (w->pfc_en == 0xff) tb->cov[COV_MIS_PFC_ALL]++;
}

/* Is priority cls of the partner on port p paused by the switch (its last PFC frame for cls
   had a time > 0, SPEC §6.6)? Always 0 in IB mode. */
static int switch_paused(const tb_t *tb, unsigned p, unsigned cls) {
  return tb->cfg.sw.mode == LFC_MODE_PFC && cls < 8 && tb->pfc_out_xoff[p][cls];
}

/* A class for a rule-breaking packet: in PFC mode a priority the switch has paused, if any. */
static uint8_t pick_bad_class(tb_t *tb, unsigned p) {
  const tb_cfg_t *c = &tb->cfg;
  uint32_t paused = 0;
  for (unsigned i = 0; i < c->sw.classes && i < 8; i++)
    if (((c->traffic.class_mask >> i) & 1u) && switch_paused(tb, p, i)) paused |= 1u << i;
  return (uint8_t)pick_class(&tb->stim[p].rng, paused ? paused : c->traffic.class_mask);
}

/* Overrun: the first block of a multi-block packet sent without regard to credit or pause;
   tb_stim_inject sends the rest in the next cycles. */
static void overrun(tb_t *tb, unsigned p, lfc_word_t *w) {
  const tb_cfg_t *c = &tb->cfg;
  tb_stim_port_t *st = &tb->stim[p];
  uint32_t n = 2 + tb_rng_below(&st->rng, c->mis.overrun_max_nblk - 1);
  uint8_t cls = pick_bad_class(tb, p);
  if (switch_paused(tb, p, cls)) tb->cov[COV_MIS_START_PAUSED]++;
  inject_packet(tb, p, w, cls, (uint8_t)n, pick_dst(c, &st->rng, p),
                pick_ecn(&st->rng, c->traffic.ecn_pct), 0);
  st->inj_word = *w;
  st->inj_left = n - 1;
  tb->cov[COV_MIS_OVERRUN]++;
}

static void q_push(tb_stim_port_t *st, const lfc_word_t *w) {
  enum { QCAP = sizeof st->q / sizeof st->q[0] };
  /* inj_left < 255 words arrive while an injected packet is sent; the queue only shrinks after */
  st->q[(st->q_head + st->q_len) % QCAP] = *w;
  st->q_len++;
}

static lfc_word_t q_pop(tb_stim_port_t *st) {
  enum { QCAP = sizeof st->q / sizeof st->q[0] };
  lfc_word_t w = st->q[st->q_head];
  st->q_head = (st->q_head + 1) % QCAP;
  st->q_len--;
  return w;
}

static int chance(tb_stim_port_t *st, uint32_t mask, unsigned p, uint32_t permille) {
  return ((mask >> p) & 1u) && permille && tb_rng_below(&st->rng, 1000) < permille;
}

void tb_stim_inject(tb_t *tb, uint64_t cycle, unsigned p, lfc_word_t *in) {
  const tb_cfg_t *c = &tb->cfg;
  const tb_misbehave_cfg_t *m = &c->mis;
  tb_stim_port_t *st = &tb->stim[p];
  record_fcp(st, &c->sw, in);
  if (m->storm_port == (int32_t)p && cycle >= m->storm_start &&
      cycle - m->storm_start < m->storm_cycles && (cycle - m->storm_start) % m->storm_period == 0)
    st->storm_due = 1;

  /* The rest of an injected multi-block packet; the partner's words wait behind it, in order. */
  if (st->inj_left) {
    if (in->kind != LFC_IDLE) q_push(st, in);
    *in = st->inj_word;
    in->sop = 0;
    in->eop = st->inj_left == 1;
    if (st->inj_fault_at == st->inj_left) {
      if (st->inj_fault_sop) in->sop = 1;
      else in->eop = !in->eop;
      st->inj_fault_at = 0;
    }
    st->inj_left--;
    return;
  }
  /* Catching up: the waiting words go first, the partner's IDLE words are skipped. */
  if (st->q_len) {
    if (in->kind != LFC_IDLE) q_push(st, in);
    *in = q_pop(st);
  }

  int was_in_pkt = st->nic_in_pkt;
  if (in->kind == LFC_DATA) st->nic_in_pkt = !in->eop;
  if (in->kind != LFC_IDLE || was_in_pkt) return;

  if (st->storm_due) {
    memset(in, 0, sizeof *in);
    in->kind = LFC_PFC;
    in->pfc_en = (uint8_t)m->storm_prios;
    for (unsigned i = 0; i < 8; i++)
      if (m->storm_prios & (1u << i)) in->pfc_time[i] = (uint16_t)m->storm_quanta;
    st->storm_due = 0;
    tb->cov[COV_MIS_PFC_STORM]++;
    return;
  }
  if (c->traffic.vl15_permille && cycle < tb->stop_cycle &&
      tb_rng_below(&st->rng, 1000) < c->traffic.vl15_permille) {
    inject_packet(tb, p, in, LFC_VL15, 1, (uint16_t)tb_rng_below(&st->rng, c->sw.ports), 0, 1);
    return;
  }
  if (cycle < tb->stop_cycle && chance(st, m->no_credit_ports, p, m->no_credit_permille)) {
    uint8_t cls = pick_bad_class(tb, p);
    if (switch_paused(tb, p, cls)) tb->cov[COV_MIS_START_PAUSED]++;
    inject_packet(tb, p, in, cls, 1, pick_dst(c, &st->rng, p),
                  pick_ecn(&st->rng, c->traffic.ecn_pct), 1);
    tb->cov[COV_MIS_NO_CREDIT]++;
    return;
  }
  if (chance(st, m->garbage_ports, p, m->garbage_permille)) {
    garbage(tb, p, in);
    tb->cov[COV_MIS_GARBAGE]++;
    return;
  }
  if (cycle >= tb->stop_cycle) return; /* the rest stops with the traffic, so the switch drains */
  if (chance(st, m->overrun_ports, p, m->overrun_permille)) {
    overrun(tb, p, in);
    return;
  }
  if (chance(st, m->fcp_ports, p, m->fcp_permille)) {
    bad_fcp(tb, p, in);
    st->bad_fcp_at = cycle + 1; /* not a wrap of the partner's counter (tb_cov.c) */
    return;
  }
  if (chance(st, m->edge_fcp_ports, p, m->edge_fcp_permille) && edge_fcp(tb, p, in)) {
    st->bad_fcp_at = cycle + 1; /* its FCCL is not the partner's (tb_cov.c) */
    return;
  }
  if (chance(st, m->pfc_ports, p, m->pfc_permille)) {
    bad_pfc(tb, p, in);
    return;
  }
  if (chance(st, m->bad_mrg_ports, p, m->bad_mrg_permille)) {
    /* SPEC §7.2: mrg = 1 on a packet of one block is MALFORMED (its one word is both first and
       last, so nothing else of it follows) */
    inject_packet(tb, p, in, (uint8_t)pick_class(&st->rng, c->traffic.class_mask), 1,
                  pick_dst(c, &st->rng, p), 0, 1);
    in->mrg = 1;
    tb->cov[COV_MIS_BAD_MRG]++;
  }
}

int tb_stim_end(tb_t *tb, tb_err_t *e) {
  char a[160];
  for (unsigned i = 0; i < COV_COUNT; i++) {
    if (!tb->require[i] || tb->cov[i]) continue;
    e->port = 0;
    snprintf(e->signal, sizeof e->signal, "scoreboard.require");
    snprintf(e->expected, sizeof e->expected, "coverage point %s hit ([run] require)",
             tb_cov_name((tb_cov_t)i));
    snprintf(e->actual, sizeof e->actual, "%s never hit in %" PRIu64 " cycles",
             tb_cov_name((tb_cov_t)i), tb->cycle);
    return -1;
  }
  const tb_score_t *s = &tb->score;
  if (tb->cfg.drained && s->accepted != s->delivered + s->discarded) {
    snprintf(a, sizeof a, "%" PRIu64 " accepted packets still in the switch after %" PRIu64
             " cycles (accepted %" PRIu64 ", delivered %" PRIu64 ", discarded %" PRIu64 ")",
             s->accepted - s->delivered - s->discarded, tb->cycle, s->accepted, s->delivered,
             s->discarded);
    e->port = 0;
    snprintf(e->signal, sizeof e->signal, "scoreboard.drained");
    snprintf(e->expected, sizeof e->expected,
             "every accepted packet delivered or discarded by the end ([run] drained = 1)");
    snprintf(e->actual, sizeof e->actual, "%s", a);
    return -1;
  }
  return 0;
}
