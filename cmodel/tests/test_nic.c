/*
 * test_nic.c - the end node (docs/SPEC.md §12.2) alone and NIC <-> NIC over links (§12.1).
 * No switch is needed. A PFC link partner pauses exactly when its occupancy reaches rx_xoff
 * (SPEC §12.2: xoff when occ >= rx_xoff), not one block later or earlier.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lfc/link.h"
#include "lfc/nic.h"
#include "../src/lfc_rules.h"

#include "testutil.h"

/* ---- Helpers ---- */

static bool word_eq(const lfc_word_t *a, const lfc_word_t *b) {
  return a->kind == b->kind && a->sop == b->sop && a->eop == b->eop && a->cls == b->cls &&
         a->nblk == b->nblk && a->ecn == b->ecn && a->dst == b->dst && a->tag == b->tag &&
         a->fc_op == b->fc_op && a->fc_vl == b->fc_vl && a->fc_fctbs == b->fc_fctbs &&
         a->fc_fccl == b->fc_fccl && a->pfc_en == b->pfc_en &&
         memcmp(a->pfc_time, b->pfc_time, sizeof a->pfc_time) == 0;
}

static lfc_word_t idle_word(void) {
  lfc_word_t w;
  memset(&w, 0, sizeof w);
  return w;
}

static lfc_word_t fcp_word(uint32_t vl, uint32_t fctbs, uint32_t fccl) {
  lfc_word_t w = idle_word();
  w.kind = LFC_FCP;
  w.fc_vl = (uint8_t)vl;
  w.fc_fctbs = (uint16_t)fctbs;
  w.fc_fccl = (uint16_t)fccl;
  return w;
}

static lfc_word_t pfc_word(uint32_t en, uint32_t quanta) {
  lfc_word_t w = idle_word();
  w.kind = LFC_PFC;
  w.pfc_en = (uint8_t)en;
  for (uint32_t c = 0; c < LFC_PFC_MAX_PRIOS; c++)
    if (en >> c & 1u) w.pfc_time[c] = (uint16_t)quanta;
  return w;
}

static lfc_word_t data_block(uint32_t cls, uint32_t nblk, uint32_t idx, uint32_t tag) {
  lfc_word_t w = idle_word();
  w.kind = LFC_DATA;
  w.sop = idx == 0u;
  w.eop = idx + 1u == nblk;
  w.cls = (uint8_t)cls;
  w.nblk = (uint8_t)nblk;
  w.tag = tag;
  return w;
}

static lfc_nic_t *make_nic(const lfc_nic_cfg_t *cfg) {
  char err[256] = "";
  lfc_nic_t *nic = lfc_nic_create(cfg, err, sizeof err);
  if (nic == NULL) fail_msg("lfc_nic_create: %s", err);
  return nic;
}

static lfc_pkt_t pkt(uint32_t cls, uint32_t nblk, uint32_t tag) {
  lfc_pkt_t p;
  memset(&p, 0, sizeof p);
  p.cls = (uint8_t)cls;
  p.nblk = (uint8_t)nblk;
  p.tag = tag;
  return p;
}

/* Small deterministic PRNG for the tests (xorshift64*). */
static uint64_t rng_next(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}
static uint32_t rng_below(uint64_t *s, uint32_t n) {
  return (uint32_t)(((rng_next(s) >> 32) * n) >> 32);
}

/* Two nodes joined by two links of delay d. */
typedef struct {
  lfc_nic_t *a, *b;
  lfc_link_t *ab, *ba;
  lfc_word_t out_a, out_b, in_a, in_b; /* words of the last cycle */
} pair_t;

static void pair_init(pair_t *p, const lfc_nic_cfg_t *ca, const lfc_nic_cfg_t *cb, uint32_t d) {
  memset(p, 0, sizeof *p);
  p->a = make_nic(ca);
  p->b = make_nic(cb);
  p->ab = lfc_link_create(d);
  p->ba = lfc_link_create(d);
  assert_non_null(p->ab);
  assert_non_null(p->ba);
}

static void pair_step(pair_t *p) {
  p->in_a = *lfc_link_head(p->ba);
  p->in_b = *lfc_link_head(p->ab);
  lfc_nic_step(p->a, &p->in_a, &p->out_a);
  lfc_nic_step(p->b, &p->in_b, &p->out_b);
  lfc_link_push(p->ab, &p->out_a);
  lfc_link_push(p->ba, &p->out_b);
}

static void pair_free(pair_t *p) {
  lfc_nic_destroy(p->a);
  lfc_nic_destroy(p->b);
  lfc_link_destroy(p->ab);
  lfc_link_destroy(p->ba);
}

/* Receive log for the rx callback. */
typedef struct {
  uint32_t n;
  uint32_t last_tag[LFC_MAX_CLASSES];
  uint32_t out_of_order;
  uint64_t blocks;
} rxlog_t;

static void rx_record(void *ctx, const lfc_word_t *w, uint64_t cycle) {
  (void)cycle;
  rxlog_t *log = ctx;
  if (log->n > 0 && w->tag <= log->last_tag[w->cls] && log->last_tag[w->cls] != 0)
    log->out_of_order++;
  log->last_tag[w->cls] = w->tag;
  log->blocks += w->nblk;
  log->n++;
}

/* ---- Configuration ---- */

/* nic.h: the defaults are legal in both modes; each bad value names itself. */
static void test_nic_cfg_default_and_errors(void **state) {
  (void)state;
  char err[256];
  lfc_nic_cfg_t cfg;
  lfc_nic_cfg_default(&cfg, LFC_MODE_IB, 15);
  assert_int_equal(lfc_nic_cfg_check(&cfg, err, sizeof err), 0);
  lfc_nic_cfg_default(&cfg, LFC_MODE_PFC, 8);
  assert_int_equal(lfc_nic_cfg_check(&cfg, err, sizeof err), 0);

  cfg.classes = 9;
  assert_int_equal(lfc_nic_cfg_check(&cfg, err, sizeof err), -1);
  assert_non_null(strstr(err, "classes = 9"));
  lfc_nic_cfg_default(&cfg, LFC_MODE_PFC, 2);
  cfg.rx_blocks = 100;
  cfg.rx_xoff = 50;
  cfg.rx_xon = 50;
  assert_int_equal(lfc_nic_cfg_check(&cfg, err, sizeof err), -1);
  assert_non_null(strstr(err, "rx_xon < rx_xoff"));
  cfg.rx_xon = 10;
  assert_int_equal(lfc_nic_cfg_check(&cfg, err, sizeof err), 0);
  cfg.refresh_cycles = cfg.pause_quanta;
  assert_int_equal(lfc_nic_cfg_check(&cfg, err, sizeof err), -1);
  assert_non_null(strstr(err, "refresh_cycles"));
  lfc_nic_cfg_default(&cfg, LFC_MODE_IB, 2);
  cfg.rx_blocks = 64; /* below mtu_blocks = 65 */
  assert_int_equal(lfc_nic_cfg_check(&cfg, err, sizeof err), -1);
  assert_non_null(strstr(err, "rx_blocks = 64"));
  cfg.rx_blocks = 0;
  cfg.speed_div = 17;
  assert_int_equal(lfc_nic_cfg_check(&cfg, err, sizeof err), -1);
  assert_non_null(strstr(err, "speed_div = 17"));
  assert_null(lfc_nic_create(&cfg, err, sizeof err));
}

/* ---- Link (SPEC §12.1) ---- */

static void test_link_delay_exact(void **state) {
  (void)state;
  assert_null(lfc_link_create(0));
  assert_null(lfc_link_create(LFC_LINK_MAX_DELAY + 1u));
  const uint32_t delays[] = {1u, 2u, 7u, 50u, LFC_LINK_MAX_DELAY};
  for (size_t i = 0; i < sizeof delays / sizeof delays[0]; i++) {
    uint32_t d = delays[i];
    lfc_link_t *link = lfc_link_create(d);
    assert_non_null(link);
    assert_int_equal(lfc_link_delay(link), d);
    uint64_t total = (uint64_t)d + 300u;
    for (uint64_t t = 0; t < total; t++) {
      const lfc_word_t *h = lfc_link_head(link);
      if (t < d) {
        assert_int_equal(h->kind, LFC_IDLE);
      } else {
        /* the word pushed in cycle t - d: DATA with tag t - d + 1 on odd cycles */
        uint64_t s = t - d;
        if (s % 2u == 1u) {
          assert_int_equal(h->kind, LFC_DATA);
          assert_int_equal(h->tag, (uint32_t)(s + 1u));
        } else {
          assert_int_equal(h->kind, LFC_IDLE);
        }
      }
      lfc_word_t w = t % 2u == 1u ? data_block(0, 1, 0, (uint32_t)(t + 1u)) : idle_word();
      lfc_link_push(link, &w);
    }
    lfc_link_reset(link);
    assert_int_equal(lfc_link_head(link)->kind, LFC_IDLE);
    lfc_link_destroy(link);
  }
}

/* ---- IB credits ---- */

/* SPEC §5.5: at reset every VL is pending (fcp_timer = 0): one FCP per VL, lowest first, with
 * FCTBS 0 and FCCL = ABR + 2048 for an unlimited buffer (§12.2); then every fcp_period. */
static void test_ib_credits_init_and_periodic_fcp(void **state) {
  (void)state;
  lfc_nic_cfg_t cfg;
  lfc_nic_cfg_default(&cfg, LFC_MODE_IB, 3);
  cfg.fcp_period = 100;
  lfc_nic_t *nic = make_nic(&cfg);
  lfc_word_t out;
  for (uint32_t t = 0; t < 310; t++) {
    lfc_nic_step(nic, NULL, &out);
    uint32_t phase = t % 100u;
    if (phase < 3u) {
      assert_int_equal(out.kind, LFC_FCP);
      assert_int_equal(out.fc_vl, phase);
      assert_int_equal(out.fc_op, LFC_FCP_OP_NORMAL);
      assert_int_equal(out.fc_fctbs, 0);
      assert_int_equal(out.fc_fccl, LFC_CREDIT_WINDOW);
    } else {
      assert_int_equal(out.kind, LFC_IDLE);
    }
  }
  assert_int_equal(lfc_nic_stats(nic)->fcp_tx, 12);
  lfc_nic_destroy(nic);
}

/* SPEC §5.3: FCCL 0 at reset gives no credit; the send rule's boundary is exact; the whole
 * packet is counted at its start and an FCP with the new FCTBS goes ahead of the next packet. */
static void test_ib_send_rule_boundary(void **state) {
  (void)state;
  lfc_nic_cfg_t cfg;
  lfc_nic_cfg_default(&cfg, LFC_MODE_IB, 1);
  cfg.fcp_period = 60000;
  lfc_nic_t *nic = make_nic(&cfg);
  lfc_word_t out, in = idle_word();
  assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.cls = 0, .nblk = 65, .tag = 1}), 0);
  assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.cls = 0, .nblk = 1, .tag = 2}), 0);
  lfc_nic_step(nic, NULL, &out); /* cycle 0: the initial FCP */
  assert_int_equal(out.kind, LFC_FCP);
  for (int i = 0; i < 10; i++) { /* no credit: blocked */
    lfc_nic_step(nic, NULL, &out);
    assert_int_equal(out.kind, LFC_IDLE);
  }
  assert_int_equal(lfc_nic_stats(nic)->credit_blocked_cycles, 11);
  in = fcp_word(0, 0, 64); /* one block short */
  lfc_nic_step(nic, &in, &out);
  lfc_nic_step(nic, NULL, &out);
  assert_int_equal(out.kind, LFC_IDLE);
  in = fcp_word(0, 0, 65); /* exactly enough: (fccl - (fctbs + n)) mod 4096 = 0 */
  lfc_nic_step(nic, &in, &out);
  for (uint32_t i = 0; i < 65; i++) {
    lfc_nic_step(nic, NULL, &out);
    assert_int_equal(out.kind, LFC_DATA);
    assert_int_equal(out.tag, 1);
    assert_int_equal(out.sop, i == 0);
    assert_int_equal(out.eop, i == 64);
  }
  lfc_nic_step(nic, NULL, &out); /* FCTBS changed: FCP on change, ahead of data */
  assert_int_equal(out.kind, LFC_FCP);
  assert_int_equal(out.fc_fctbs, 65);
  lfc_nic_step(nic, NULL, &out); /* the 1-block packet has no credit */
  assert_int_equal(out.kind, LFC_IDLE);
  assert_int_equal(lfc_nic_backlog(nic, 0), 1);
  /* Credit far ahead (more than 2048 ahead wraps to "behind" and is refused, §5.3). */
  in = fcp_word(0, 0, (65u + 1u + LFC_CREDIT_WINDOW + 1u) & LFC_CREDIT_MASK);
  lfc_nic_step(nic, &in, &out);
  lfc_nic_step(nic, NULL, &out);
  assert_int_equal(out.kind, LFC_IDLE);
  in = fcp_word(0, 0, (65u + 1u + LFC_CREDIT_WINDOW) & LFC_CREDIT_MASK);
  lfc_nic_step(nic, &in, &out);
  lfc_nic_step(nic, NULL, &out);
  assert_int_equal(out.kind, LFC_DATA);
  assert_int_equal(out.tag, 2);
  lfc_nic_destroy(nic);
}

/* SPEC §5.4, §5.5: receiving a packet advances ABR and so the FCCL: an FCP follows in the next
 * cycle (Moore: an input affects the output one cycle later); an FCP received sets ABR. */
static void test_ib_fcp_on_change(void **state) {
  (void)state;
  lfc_nic_cfg_t cfg;
  lfc_nic_cfg_default(&cfg, LFC_MODE_IB, 2);
  cfg.rx_blocks = 100;
  cfg.drain_div = 10;
  lfc_nic_t *nic = make_nic(&cfg);
  rxlog_t log = {0};
  lfc_nic_set_rx_callback(nic, rx_record, &log);
  lfc_word_t out, in;
  lfc_nic_step(nic, NULL, &out); /* cycle 0: FCP vl 0, FCCL = 0 + 100 */
  assert_int_equal(out.fc_fccl, 100);
  lfc_nic_step(nic, NULL, &out); /* cycle 1: FCP vl 1 */
  assert_int_equal(out.fc_vl, 1);
  for (int t = 2; t < 10; t++) lfc_nic_step(nic, NULL, &out);
  assert_int_equal(out.kind, LFC_IDLE);
  in = data_block(1, 3, 0, 77); /* cycle 10: a drain cycle, but occ was 0 */
  lfc_nic_step(nic, &in, &out);
  assert_int_equal(log.n, 1);
  in = data_block(1, 3, 1, 77);
  lfc_nic_step(nic, &in, &out); /* cycle 11: ABR 3, occ 3: FCCL = 3 + 97 = 100 unchanged */
  assert_int_equal(out.kind, LFC_IDLE);
  in = data_block(1, 3, 2, 77);
  lfc_nic_step(nic, &in, &out);
  for (int t = 13; t < 20; t++) {
    lfc_nic_step(nic, NULL, &out);
    assert_int_equal(out.kind, LFC_IDLE);
  }
  lfc_nic_step(nic, NULL, &out); /* cycle 20: drain, occ 3 -> 2 */
  assert_int_equal(out.kind, LFC_IDLE);
  lfc_nic_step(nic, NULL, &out); /* cycle 21: FCCL = 3 + 98 = 101 */
  assert_int_equal(out.kind, LFC_FCP);
  assert_int_equal(out.fc_vl, 1);
  assert_int_equal(out.fc_fccl, 101);
  in = fcp_word(1, 10, 0); /* the peer says it sent 10 blocks: ABR := 10 */
  lfc_nic_step(nic, &in, &out);
  lfc_nic_step(nic, NULL, &out);
  assert_int_equal(out.kind, LFC_FCP);
  assert_int_equal(out.fc_fccl, 10 + 98);
  assert_int_equal(lfc_nic_stats(nic)->peak_rx_blocks, 3);
  lfc_nic_destroy(nic);
}

/* SPEC §5.3, §5.4: a sender never violates the send rule, checked from the words on the links
 * (FCTBS from the packets sent, FCCL from the FCPs received), against a small, slow receiver. */
static void test_ib_sender_obeys_send_rule(void **state) {
  (void)state;
  lfc_nic_cfg_t ca, cb;
  lfc_nic_cfg_default(&ca, LFC_MODE_IB, 3);
  ca.mtu_blocks = 20;
  ca.fcp_period = 500;
  cb = ca;
  cb.rx_blocks = 20; /* exactly one MTU */
  cb.drain_div = 3;
  pair_t p;
  pair_init(&p, &ca, &cb, 13);
  rxlog_t log = {0};
  lfc_nic_set_rx_callback(p.b, rx_record, &log);
  uint64_t seed = 0x1234u;
  uint32_t obs_fctbs[3] = {0}, obs_fccl[3] = {0}, tag = 1, starts = 0;
  for (uint32_t t = 0; t < 100000; t++) {
    if (lfc_nic_backlog(p.a, 0) + lfc_nic_backlog(p.a, 1) + lfc_nic_backlog(p.a, 2) < 8u) {
      lfc_pkt_t k = pkt(rng_below(&seed, 3), 1u + rng_below(&seed, 20), tag);
      if (lfc_nic_send(p.a, &k) == 0) tag++;
    }
    pair_step(&p);
    if (p.out_a.kind == LFC_DATA && p.out_a.sop) {
      uint32_t vl = p.out_a.cls;
      assert_true(lfc_rule_send_ok(obs_fctbs[vl], obs_fccl[vl], p.out_a.nblk));
      obs_fctbs[vl] = lfc_rule_credit_add(obs_fctbs[vl], p.out_a.nblk);
      starts++;
    }
    if (p.in_a.kind == LFC_FCP) obs_fccl[p.in_a.fc_vl] = p.in_a.fc_fccl; /* for S(t+1) */
  }
  const lfc_nic_stats_t *sb = lfc_nic_stats(p.b);
  assert_int_equal(sb->drop_pkts[LFC_DROP_CREDIT], 0);
  assert_true(starts > 1000u);
  assert_true(sb->rx_pkts + 13u >= starts); /* at most the packets on the link are missing */
  assert_int_equal(log.out_of_order, 0);
  assert_true(sb->peak_rx_blocks <= 20u);
  assert_true(lfc_nic_stats(p.a)->credit_blocked_cycles > 0u);
  pair_free(&p);
}

/* ---- PFC ---- */

/* SPEC §12.2: a frame received in cycle t with q quanta pauses [t + 1 + R, t + 1 + R + q·k). */
static void test_pfc_pause_with_response_time(void **state) {
  (void)state;
  lfc_nic_cfg_t cfg;
  lfc_nic_cfg_default(&cfg, LFC_MODE_PFC, 2);
  cfg.speed_div = 2;
  cfg.response_cycles = 5;
  lfc_nic_t *nic = make_nic(&cfg);
  for (uint32_t i = 0; i < 100; i++)
    assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.nblk = 1, .tag = i}), 0);
  lfc_word_t out, in;
  for (uint32_t t = 0; t < 60; t++) {
    in = t == 20u ? pfc_word(0x1, 3) : idle_word();
    lfc_nic_step(nic, &in, &out);
    bool paused = t >= 26u && t < 32u;
    bool slot = t % 2u == 0u;
    assert_int_equal(out.kind, slot && !paused ? LFC_DATA : LFC_IDLE);
  }
  const lfc_nic_stats_t *s = lfc_nic_stats(nic);
  assert_int_equal(s->pfc_rx, 1);
  assert_int_equal(s->pause_rx, 1);
  assert_int_equal(s->paused_cycles, 6);
  lfc_nic_destroy(nic);
}

/* SPEC §6.7, §12.2: XON (time 0) resumes at once, also with R > 0; other classes go on. */
static void test_pfc_xon_resumes(void **state) {
  (void)state;
  lfc_nic_cfg_t cfg;
  lfc_nic_cfg_default(&cfg, LFC_MODE_PFC, 2);
  cfg.response_cycles = 3;
  lfc_nic_t *nic = make_nic(&cfg);
  for (uint32_t i = 0; i < 50; i++) {
    assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.cls = 1, .nblk = 1, .tag = i}), 0);
    assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.cls = 0, .nblk = 1, .tag = 100 + i}), 0);
  }
  lfc_word_t out, in;
  for (uint32_t t = 0; t < 60; t++) {
    in = t == 10u ? pfc_word(0x2, 65535) : t == 30u ? pfc_word(0x2, 0) : idle_word();
    lfc_nic_step(nic, &in, &out);
    assert_int_equal(out.kind, LFC_DATA);
    bool paused = t >= 14u && t <= 30u;
    if (paused)
      assert_int_equal(out.cls, 0);
    else if (t >= 31u && t < 60u)
      assert_int_equal(out.cls, t % 2u == 1u ? 1 : 0);
  }
  assert_int_equal(lfc_nic_stats(nic)->resume_rx, 1);
  lfc_nic_destroy(nic);
}

/* SPEC §12.2 (as implemented, see nic.c): a refresh received with R > 0 while paused keeps the
 * class paused without a gap of R cycles. */
static void test_pfc_refresh_keeps_pause_with_r(void **state) {
  (void)state;
  lfc_nic_cfg_t cfg;
  lfc_nic_cfg_default(&cfg, LFC_MODE_PFC, 1);
  cfg.response_cycles = 5;
  lfc_nic_t *nic = make_nic(&cfg);
  for (uint32_t i = 0; i < 100; i++)
    assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.nblk = 1, .tag = i}), 0);
  lfc_word_t out, in;
  for (uint32_t t = 0; t < 60; t++) {
    in = (t == 20u || t == 30u) ? pfc_word(0x1, 10) : idle_word();
    lfc_nic_step(nic, &in, &out);
    assert_int_equal(out.kind, (t >= 26u && t < 46u) ? LFC_IDLE : LFC_DATA);
  }
  assert_int_equal(lfc_nic_stats(nic)->paused_cycles, 20);
  lfc_nic_destroy(nic);
}

/* SPEC §6.5, §6.6, §12.2: a receiver that drains slower than the line fills to rx_xoff, pauses
 * its peer, drains to rx_xon and resumes it; its headroom (rx_blocks - rx_xoff) holds what is in
 * flight, so nothing is dropped; refreshes keep a long pause alive. */
static void test_pfc_drain_backpressure_xoff_xon(void **state) {
  (void)state;
  lfc_nic_cfg_t ca, cb;
  lfc_nic_cfg_default(&ca, LFC_MODE_PFC, 2);
  ca.mtu_blocks = 8;
  cb = ca;
  cb.rx_blocks = 200;
  cb.rx_xoff = 100; /* headroom 100 >= 2*8 - 1 + (2*10 + 2) */
  cb.rx_xon = 50;
  cb.drain_div = 3;
  cb.pause_quanta = 200;
  cb.refresh_cycles = 150;
  pair_t p;
  pair_init(&p, &ca, &cb, 10);
  rxlog_t log = {0};
  lfc_nic_set_rx_callback(p.b, rx_record, &log);
  uint32_t tag = 1;
  for (uint32_t t = 0; t < 20000; t++) {
    while (lfc_nic_backlog(p.a, tag % 2u) < 4u) {
      assert_int_equal(
          lfc_nic_send(p.a, &(lfc_pkt_t){.cls = (uint8_t)(tag % 2u), .nblk = 8, .tag = tag}), 0);
      tag++;
    }
    pair_step(&p);
  }
  const lfc_nic_stats_t *sa = lfc_nic_stats(p.a), *sb = lfc_nic_stats(p.b);
  assert_int_equal(sb->drop_pkts[LFC_DROP_HEADROOM], 0);
  assert_true(sb->xoff_tx > 0u);
  assert_true(sb->xon_tx > 0u);
  assert_true(sa->pause_rx > 0u && sa->resume_rx > 0u);
  assert_true(sb->peak_rx_blocks >= 100u && sb->peak_rx_blocks <= 200u);
  /* The drain rate, one block per 3 cycles per class, is what gets through. */
  assert_true(sb->rx_blocks > 2u * 20000u / 3u - 400u && sb->rx_blocks < 2u * 20000u / 3u + 400u);
  assert_int_equal(log.out_of_order, 0);
  pair_free(&p);

  /* The same with too little headroom drops (cause HEADROOM). */
  cb.rx_xoff = 195;
  cb.rx_xon = 150;
  pair_init(&p, &ca, &cb, 10);
  for (uint32_t t = 0; t < 5000; t++) {
    while (lfc_nic_backlog(p.a, 0) < 4u) lfc_nic_send(p.a, &(lfc_pkt_t){.nblk = 8, .tag = tag++});
    pair_step(&p);
  }
  assert_true(lfc_nic_stats(p.b)->drop_pkts[LFC_DROP_HEADROOM] > 0u);
  pair_free(&p);
}

/* ---- FIFO ---- */

/* nic.h, SPEC §12.2: a full FIFO or an illegal packet returns -1 and queues nothing; the rest
 * are sent in order, none lost. */
static void test_fifo_full_and_nothing_lost(void **state) {
  (void)state;
  lfc_nic_cfg_t cfg;
  lfc_nic_cfg_default(&cfg, LFC_MODE_PFC, 2);
  cfg.tx_fifo_pkts = 4;
  cfg.mtu_blocks = 10;
  lfc_nic_t *nic = make_nic(&cfg);
  for (uint32_t i = 0; i < 4; i++)
    assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.nblk = 2, .tag = i}), 0);
  assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.nblk = 2, .tag = 99}), -1);
  assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.cls = 2, .nblk = 2}), -1);  /* no class 2 */
  assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.cls = 15, .nblk = 2}), -1); /* VL15: IB */
  assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.cls = 1, .nblk = 0}), -1);
  assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.cls = 1, .nblk = 11}), -1);
  assert_int_equal(lfc_nic_backlog(nic, 0), 4);
  assert_int_equal(lfc_nic_backlog(nic, 1), 0);
  assert_int_equal(lfc_nic_backlog(nic, 2), 0);               /* no class 2 */
  assert_int_equal(lfc_nic_backlog(nic, LFC_MAX_CLASSES), 0); /* no class at all */
  lfc_word_t out;
  uint32_t next = 0, blocks = 0;
  for (uint32_t t = 0; t < 40; t++) {
    if (t == 3u) assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.nblk = 2, .tag = 4}), 0);
    lfc_nic_step(nic, NULL, &out);
    if (out.kind == LFC_DATA) {
      blocks++;
      assert_int_equal(out.tag, next);
      if (out.eop) next++;
    }
  }
  assert_int_equal(next, 5);
  assert_int_equal(blocks, 10);
  assert_int_equal(lfc_nic_stats(nic)->tx_pkts, 5);
  lfc_nic_destroy(nic);
}

/* SPEC §12.2: round robin over eligible classes, the first after rr (reset classes - 1). */
static void test_round_robin_order(void **state) {
  (void)state;
  lfc_nic_cfg_t cfg;
  lfc_nic_cfg_default(&cfg, LFC_MODE_PFC, 3);
  lfc_nic_t *nic = make_nic(&cfg);
  for (uint32_t i = 0; i < 3; i++) {
    lfc_nic_send(nic, &(lfc_pkt_t){.cls = 0, .nblk = 1});
    lfc_nic_send(nic, &(lfc_pkt_t){.cls = 2, .nblk = 1});
  }
  lfc_nic_send(nic, &(lfc_pkt_t){.cls = 1, .nblk = 1});
  const uint8_t expect[] = {0, 1, 2, 0, 2, 0, 2};
  lfc_word_t out;
  for (size_t i = 0; i < sizeof expect; i++) {
    lfc_nic_step(nic, NULL, &out);
    assert_int_equal(out.kind, LFC_DATA);
    assert_int_equal(out.cls, expect[i]);
  }
  lfc_nic_destroy(nic);
}

/* IB VL15 (nic.c): sent first, without credits; received without charge. */
static void test_ib_vl15(void **state) {
  (void)state;
  lfc_nic_cfg_t cfg;
  lfc_nic_cfg_default(&cfg, LFC_MODE_IB, 1);
  lfc_nic_t *nic = make_nic(&cfg);
  rxlog_t log = {0};
  lfc_nic_set_rx_callback(nic, rx_record, &log);
  assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.cls = 0, .nblk = 1, .tag = 1}), 0);
  assert_int_equal(lfc_nic_send(nic, &(lfc_pkt_t){.cls = 15, .nblk = 2, .tag = 2}), 0);
  assert_int_equal(lfc_nic_backlog(nic, 15), 1);
  lfc_word_t out, in = data_block(15, 1, 0, 9);
  lfc_nic_step(nic, &in, &out); /* the reset FCP first */
  assert_int_equal(out.kind, LFC_FCP);
  lfc_nic_step(nic, NULL, &out);
  assert_int_equal(out.kind, LFC_DATA);
  assert_int_equal(out.cls, 15);
  assert_int_equal(log.n, 1);
  assert_int_equal(lfc_nic_stats(nic)->peak_rx_blocks, 0);
  lfc_nic_destroy(nic);
}

/* SPEC §12.2 "framing like the switch", §7.2: while rx_rem > 0 a block is a continuation whatever
 * its sop, cls and nblk say, the last one (rx_rem 1) included: a 3-block packet whose second and
 * third blocks carry sop and a legal nblk of 1 is still one packet of 3 blocks, and the node
 * is back between packets after it (a stray block then counts nowhere). */
static void test_rx_continuation_with_sop_is_a_continuation(void **state) {
  (void)state;
  lfc_nic_cfg_t cfg;
  lfc_nic_cfg_default(&cfg, LFC_MODE_PFC, 1);
  cfg.mtu_blocks = 4;
  lfc_nic_t *nic = make_nic(&cfg);
  rxlog_t log = {0};
  lfc_nic_set_rx_callback(nic, rx_record, &log);
  lfc_word_t out, in[4];
  in[0] = data_block(0, 3, 0, 7);
  in[1] = data_block(0, 1, 0, 8); /* sop 1, nblk 1: would be a legal first block */
  in[2] = data_block(0, 1, 0, 9);
  in[3] = data_block(0, 1, 1, 10); /* sop 0 between packets: discarded */
  for (uint32_t i = 0; i < 4; i++) lfc_nic_step(nic, &in[i], &out);
  const lfc_nic_stats_t *st = lfc_nic_stats(nic);
  assert_int_equal(st->rx_pkts, 1);
  assert_int_equal(st->rx_blocks, 3);
  assert_int_equal(log.n, 1);
  for (uint32_t c = 0; c < LFC_DROP_CAUSES; c++) assert_int_equal(st->drop_pkts[c], 0);
  /* A new packet after it is received as one. */
  in[0] = data_block(0, 2, 0, 11);
  in[1] = data_block(0, 2, 1, 11);
  for (uint32_t i = 0; i < 2; i++) lfc_nic_step(nic, &in[i], &out);
  assert_int_equal(st->rx_pkts, 2);
  assert_int_equal(st->rx_blocks, 5);
  lfc_nic_destroy(nic);
}

/* ---- Skip-ahead ---- */

/* A scripted input: sparse control words and packets (continuation blocks every k cycles). */
typedef struct {
  lfc_word_t *in;  /* per cycle */
  bool *new_input; /* an input other than a continuation block, or a send */
  lfc_pkt_t *send; /* a packet handed to the node in that cycle (nblk 0 = none) */
} script_t;

static void make_script(script_t *s, const lfc_nic_cfg_t *cfg, uint32_t cycles, uint64_t seed) {
  s->in = calloc(cycles, sizeof *s->in);
  s->new_input = calloc(cycles, sizeof *s->new_input);
  s->send = calloc(cycles, sizeof *s->send);
  assert_non_null(s->in);
  assert_non_null(s->new_input);
  assert_non_null(s->send);
  uint32_t k = cfg->speed_div, tag = 1;
  for (uint32_t t = 0; t < cycles;) {
    uint32_t r = rng_below(&seed, 1000);
    if (r < 6u && t + 300u * k < cycles) { /* a packet */
      uint32_t n = 1u + rng_below(&seed, cfg->mtu_blocks), c = rng_below(&seed, cfg->classes);
      for (uint32_t i = 0; i < n; i++) s->in[t + i * k] = data_block(c, n, i, tag);
      s->new_input[t] = true;
      tag++;
      t += n * k;
      continue;
    }
    if (r < 9u) { /* a control word */
      s->in[t] = cfg->mode == LFC_MODE_IB
                     ? fcp_word(rng_below(&seed, cfg->classes), rng_below(&seed, 4096),
                                rng_below(&seed, 4096))
                     : pfc_word(rng_below(&seed, 1u << cfg->classes),
                                rng_below(&seed, 3) == 0 ? 0 : rng_below(&seed, 40));
      s->new_input[t] = true;
    }
    if (r >= 990u) {
      s->send[t] =
          pkt(rng_below(&seed, cfg->classes), 1u + rng_below(&seed, cfg->mtu_blocks), tag++);
      s->new_input[t] = true;
    }
    t++;
  }
}

static void free_script(script_t *s) {
  free(s->in);
  free(s->new_input);
  free(s->send);
}

static void check_skip_equivalence(const lfc_nic_cfg_t *cfg, uint64_t seed) {
  const uint32_t cycles = 60000;
  script_t s;
  make_script(&s, cfg, cycles, seed);
  lfc_nic_t *ref = make_nic(cfg), *skip = make_nic(cfg);
  lfc_word_t *ref_out = calloc(cycles, sizeof *ref_out);
  assert_non_null(ref_out);
  for (uint32_t t = 0; t < cycles; t++) {
    if (s.send[t].nblk != 0u) lfc_nic_send(ref, &s.send[t]);
    lfc_nic_step(ref, &s.in[t], &ref_out[t]);
  }
  uint64_t skipped = 0;
  uint32_t t = 0;
  while (t < cycles) {
    uint64_t ne = lfc_nic_next_event(skip);
    assert_true(ne >= t);
    uint32_t ni = t;
    while (ni < cycles && !s.new_input[ni]) ni++;
    uint64_t to = ne < ni ? ne : ni;
    if (to > t) {
      for (uint64_t u = t; u < to; u++) /* the skipped cycles carry no decision */
        assert_true(ref_out[u].kind == LFC_IDLE ||
                    (ref_out[u].kind == LFC_DATA && !ref_out[u].sop));
      lfc_nic_advance(skip, to);
      skipped += to - t;
      t = (uint32_t)to;
      assert_int_equal(lfc_nic_cycle(skip), t);
      continue;
    }
    if (s.send[t].nblk != 0u) lfc_nic_send(skip, &s.send[t]);
    lfc_word_t out;
    lfc_nic_step(skip, &s.in[t], &out);
    if (!word_eq(&out, &ref_out[t]))
      fail_msg("seed %llu cycle %u: skip-ahead output differs from stepping",
               (unsigned long long)seed, t);
    t++;
  }
  assert_memory_equal(lfc_nic_stats(ref), lfc_nic_stats(skip), sizeof(lfc_nic_stats_t));
  assert_true(skipped > cycles / 4u);
  /* The states are equal: the same inputs give the same outputs from here on. */
  for (uint32_t u = 0; u < 3000; u++) {
    lfc_word_t a, b,
        in = u == 10u ? (cfg->mode == LFC_MODE_IB ? fcp_word(0, 0, 500) : pfc_word(1, 0))
                      : idle_word();
    lfc_nic_step(ref, &in, &a);
    lfc_nic_step(skip, &in, &b);
    assert_true(word_eq(&a, &b));
  }
  assert_memory_equal(lfc_nic_stats(ref), lfc_nic_stats(skip), sizeof(lfc_nic_stats_t));
  free(ref_out);
  lfc_nic_destroy(ref);
  lfc_nic_destroy(skip);
  free_script(&s);
}

/* nic.h: lfc_nic_next_event / lfc_nic_advance give the same state as stepping. */
static void test_skip_ahead_equivalence(void **state) {
  (void)state;
  for (uint32_t mode = 0; mode < 2; mode++) {
    for (uint32_t variant = 0; variant < 6; variant++) {
      lfc_nic_cfg_t cfg;
      lfc_nic_cfg_default(&cfg, (lfc_mode_t)mode, 3);
      cfg.mtu_blocks = 30;
      cfg.speed_div = variant == 1 ? 3u : variant == 3 ? 2u : 1u;
      cfg.fcp_period = variant == 2 ? 50u : 2000u;
      if (variant >= 2) {
        cfg.rx_blocks = 60;
        cfg.drain_div = variant == 2 ? 5u : 2u;
        cfg.rx_xoff = 40;
        cfg.rx_xon = 20;
        cfg.pause_quanta = 300;
        cfg.refresh_cycles = 200;
      }
      if (variant == 4) { /* a buffer above the credit window (§5.4): a drain moves the FCCL */
        cfg.rx_blocks = 2050; /* only while fewer than 2048 blocks are free, i.e. occ > 2 */
        cfg.rx_xoff = 2000;
        cfg.rx_xon = 1900;
      }
      if (variant == 5) { /* IB: the smallest buffer, one block (mtu_blocks 1) */
        if (mode != LFC_MODE_IB) continue;
        cfg.mtu_blocks = 1;
        cfg.rx_blocks = 1;
      }
      cfg.response_cycles = variant == 3 ? 7u : 0u;
      check_skip_equivalence(&cfg, 1000u + mode * 10u + variant);
    }
  }
}

/* nic.h, SPEC §6.6: skip-ahead of a receiver that holds XOFF for a long time (a drain far
 * slower than the line): next_event must stop at every refresh (refresh_timer reaching 0), or
 * the refresh frames that keep the peer paused would be skipped. */
static void test_skip_ahead_long_xoff_refreshes(void **state) {
  (void)state;
  for (uint32_t k = 1; k <= 2; k++) {
    lfc_nic_cfg_t cfg;
    lfc_nic_cfg_default(&cfg, LFC_MODE_PFC, 3);
    cfg.mtu_blocks = 30;
    cfg.speed_div = k;
    cfg.rx_blocks = 60;
    cfg.rx_xoff = 40;
    cfg.rx_xon = 20;
    cfg.drain_div = 5000; /* 20 blocks to XON take 100000 cycles: XOFF the whole run */
    cfg.pause_quanta = 300;
    cfg.refresh_cycles = 97;
    check_skip_equivalence(&cfg, 2000u + k);
  }
}

/* A one-class PFC node with a 64-block buffer that pauses its peer at rx_xoff blocks and, as
 * it drains only in cycle 0 (when it holds nothing), never resumes it within a test. */
static void slow_receiver_cfg(lfc_nic_cfg_t *c, uint32_t rx_xoff) {
  lfc_nic_cfg_default(c, LFC_MODE_PFC, 1);
  c->mtu_blocks = 8;
  c->rx_blocks = 64;
  c->rx_xoff = rx_xoff;
  c->rx_xon = 2;
  c->drain_div = 65535;
}

/* SPEC §6.6: a node holding XOFF repeats its pause every refresh_cycles exactly (refresh_due is
 * the cycle from which the timer is 0), while its transmitter has nothing else to send. */
static void test_pfc_refresh_period_exact(void **state) {
  (void)state;
  enum { REFRESH = 97, XOFF_AT = 8, CYCLES = 700 };
  lfc_nic_cfg_t c;
  slow_receiver_cfg(&c, XOFF_AT); /* XOFF from XOFF_AT blocks on, for the whole run */
  c.pause_quanta = 300;
  c.refresh_cycles = REFRESH;
  lfc_nic_t *n = make_nic(&c);
  uint64_t last = 0;
  uint32_t frames = 0;
  for (uint32_t t = 0; t < CYCLES; t++) {
    lfc_word_t in = idle_word(), out;
    if (t >= 1 && t <= XOFF_AT) in = data_block(0, 1, 0, t);
    lfc_nic_step(n, &in, &out);
    if (out.kind != LFC_PFC || !(out.pfc_en & 1u) || out.pfc_time[0] == 0) continue;
    if (frames > 0 && t - last != REFRESH)
      fail_msg("pause frame %u at cycle %u, %llu after the one before (refresh_cycles %d)", frames,
               t, (unsigned long long)(t - last), REFRESH);
    last = t;
    frames++;
  }
  assert_true(frames >= (CYCLES - XOFF_AT) / REFRESH - 1u); /* the XOFF, then every refresh */
  lfc_nic_destroy(n);
}

/* 1 if the partner, given `blocks` one-block packets of class 0 (one per cycle) and then IDLE,
   sends an XOFF for class 0 within 60 cycles. It never drains in that time. */
static int partner_pauses_after(uint32_t blocks, uint32_t rx_xoff) {
  lfc_nic_cfg_t c;
  slow_receiver_cfg(&c, rx_xoff);
  lfc_nic_t *n = make_nic(&c);
  int paused = 0;
  for (uint32_t t = 0; t < 60; t++) {
    lfc_word_t in, out;
    memset(&in, 0, sizeof in);
    if (t >= 1 && t <= blocks) {
      in.kind = LFC_DATA;
      in.sop = in.eop = 1;
      in.nblk = 1;
      in.tag = t;
    }
    lfc_nic_step(n, &in, &out);
    if (out.kind == LFC_PFC && (out.pfc_en & 1u) && out.pfc_time[0] > 0) paused = 1;
  }
  lfc_nic_destroy(n);
  return paused;
}

static void test_partner_xoff_at_rx_xoff(void **state) {
  (void)state;
  for (uint32_t th = 4; th <= 9; th += 5) {
    assert_false(partner_pauses_after(th - 1, th));
    assert_true(partner_pauses_after(th, th));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nic_cfg_default_and_errors),
      cmocka_unit_test(test_link_delay_exact),
      cmocka_unit_test(test_ib_credits_init_and_periodic_fcp),
      cmocka_unit_test(test_ib_send_rule_boundary),
      cmocka_unit_test(test_ib_fcp_on_change),
      cmocka_unit_test(test_ib_sender_obeys_send_rule),
      cmocka_unit_test(test_pfc_pause_with_response_time),
      cmocka_unit_test(test_pfc_xon_resumes),
      cmocka_unit_test(test_pfc_refresh_keeps_pause_with_r),
      cmocka_unit_test(test_pfc_drain_backpressure_xoff_xon),
      cmocka_unit_test(test_fifo_full_and_nothing_lost),
      cmocka_unit_test(test_round_robin_order),
      cmocka_unit_test(test_ib_vl15),
      cmocka_unit_test(test_rx_continuation_with_sop_is_a_continuation),
      cmocka_unit_test(test_skip_ahead_equivalence),
      cmocka_unit_test(test_skip_ahead_long_xoff_refreshes),
      cmocka_unit_test(test_partner_xoff_at_rx_xoff),
      cmocka_unit_test(test_pfc_refresh_period_exact),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
