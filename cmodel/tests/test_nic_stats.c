/*
 * test_nic_stats.c - every counter and every word of the end node (lfc/nic.h, docs/SPEC.md
 * §12.2) against an oracle the test keeps from the words it gives the node and the words the node
 * sends. The peer is the test: random packets (well-formed, malformed, stray continuation
 * blocks), FCPs and PFC frames of any content, and random packets handed to the node to send.
 *
 * The oracle (oracle_nic.c) follows the documents, not the node's code; this file is the
 * peer and compares.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lfc/nic.h"
#include "oracle_nic.h"

enum {
  CYCLES = 20000,
  MAX_PFC_TIME = 40,   /* pause frames of the peer: short, so that pauses end */
  STRAY_BLOCKS = 2,    /* continuation blocks a garbled packet still sends */
  PCT = 100,
  PERMILLE = 1000,
};

/* xorshift64* (Vigna 2016): the test's own random numbers, seeded, printed on failure. */
static uint64_t rnd(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}
static uint32_t below(uint64_t *s, uint32_t n) { return (uint32_t)((rnd(s) >> 33) % n); }

/* What the callback saw. */
typedef struct {
  uint64_t pkts, blocks;
  uint32_t last_tag;
  uint64_t last_cycle;
} rx_seen_t;

static void on_rx(void *ctx, const lfc_word_t *w, uint64_t cycle) {
  rx_seen_t *r = ctx;
  r->pkts++;
  r->blocks += w->nblk;
  r->last_tag = w->tag;
  r->last_cycle = cycle;
}

static void run_oracle(const lfc_nic_cfg_t *cfg, uint64_t seed) {
  print_message("nic stats oracle: mode %s classes %u k %u seed %llu\n",
                cfg->mode == LFC_MODE_IB ? "IB" : "PFC", cfg->classes, cfg->speed_div,
                (unsigned long long)seed);
  char err[256] = "";
  lfc_nic_t *nic = lfc_nic_create(cfg, err, sizeof err);
  if (nic == NULL) fail_msg("lfc_nic_create: %s", err);
  rx_seen_t seen;
  memset(&seen, 0, sizeof seen);
  lfc_nic_set_rx_callback(nic, on_rx, &seen);
  const bool ib = cfg->mode == LFC_MODE_IB;
  const uint32_t C = cfg->classes;
  uint64_t s = seed;

  static oracle_nic_t o;
  oracle_nic_init(&o, cfg, seed);
  const lfc_nic_stats_t *want = &o.want;
  uint32_t tag = 1;
  /* The packet the test is sending the node: blocks left, and whether they are strays. */
  uint32_t in_rem = 0;
  lfc_word_t in_cur;
  memset(&in_cur, 0, sizeof in_cur);

  for (uint64_t t = 0; t < CYCLES; t++) {
    /* Packets handed to the node (any cycle, before the step). */
    if (below(&s, PERMILLE) < 40u) {
      uint32_t c = ib && below(&s, 10) == 0 ? LFC_VL15 : below(&s, C);
      lfc_pkt_t p;
      memset(&p, 0, sizeof p);
      p.cls = (uint8_t)c;
      p.nblk = (uint8_t)(1u + below(&s, cfg->mtu_blocks));
      p.tag = tag++;
      p.dst = (uint16_t)below(&s, 4);
      p.ecn = (uint8_t)below(&s, 4);
      if (oracle_nic_backlog(&o, c) < ORACLE_NIC_FIFO_CAP &&
          oracle_nic_backlog(&o, c) < cfg->tx_fifo_pkts) {
        assert_int_equal(lfc_nic_send(nic, &p), 0);
        oracle_nic_queue(&o, &p);
      }
    }
    /* The input word of cycle t. */
    lfc_word_t in;
    memset(&in, 0, sizeof in);
    bool sop_in = false, well_formed = false;
    if (in_rem > 0u) {
      in = in_cur;
      in.sop = 0;
      in.eop = in_rem == 1u;
      in_rem--;
    } else {
      uint32_t r = below(&s, PERMILLE);
      if (r < 30u) { /* a PFC frame: any enable bits, times 0..MAX_PFC_TIME */
        in.kind = LFC_PFC;
        in.pfc_en = (uint8_t)below(&s, 256);
        for (uint32_t c = 0; c < LFC_PFC_MAX_PRIOS; c++)
          in.pfc_time[c] = (uint16_t)(below(&s, 3) == 0 ? 0u : 1u + below(&s, MAX_PFC_TIME));
      } else if (r < 70u) { /* an FCP: mostly valid, some reserved ops and VLs */
        in.kind = LFC_FCP;
        in.fc_op = (uint8_t)(below(&s, 8) == 0 ? 2u + below(&s, 2) : below(&s, 2));
        in.fc_vl = (uint8_t)(below(&s, 8) == 0 ? below(&s, 16) : below(&s, C));
        in.fc_fctbs = (uint16_t)below(&s, 4096);
        uint32_t base = in.fc_vl < C ? o.fctbs[in.fc_vl] : 0u;
        in.fc_fccl = (uint16_t)((base + below(&s, 3u * cfg->mtu_blocks)) & LFC_CREDIT_MASK);
      } else if (r < 450u) { /* a packet */
        uint32_t n = 1u + below(&s, cfg->mtu_blocks), c = below(&s, C);
        uint32_t bad = below(&s, 8);
        if (ib && below(&s, 10) == 0) c = LFC_VL15;
        if (bad == 0) n = 0;                                           /* no length */
        if (bad == 1) n = cfg->mtu_blocks + 1u + below(&s, 3);        /* too long */
        if (bad == 2) c = ib ? C + below(&s, LFC_VL15 - C) : C + below(&s, 16 - C); /* no class */
        well_formed = bad > 2u;
        in.kind = LFC_DATA;
        in.sop = 1;
        in.cls = (uint8_t)c;
        in.nblk = (uint8_t)n;
        in.eop = n == 1u;
        in.tag = 100000u + (uint32_t)t;
        in.dst = 1;
        in_cur = in;
        in_rem = well_formed ? n - 1u : (n > 1u ? STRAY_BLOCKS : 0u);
        sop_in = true;
      } else if (r < 460u) { /* a stray continuation block */
        in.kind = LFC_DATA;
        in.cls = 0;
        in.nblk = 3;
        in.tag = 7;
      }
    }

    oracle_nic_begin_cycle(&o, t);
    lfc_word_t out;
    uint64_t rx_before = seen.pkts;
    lfc_nic_step(nic, &in, &out);
    oracle_nic_check_out(&o, t, &out);
    bool admitted = oracle_nic_receive(&o, t, &in, sop_in, well_formed);
    if (admitted != (seen.pkts == rx_before + 1u))
      fail_msg("seed %llu cycle %llu: packet tag 0x%x %s by the oracle, the callback says %s",
               (unsigned long long)seed, (unsigned long long)t, in.tag,
               admitted ? "admitted" : "not admitted", admitted ? "no" : "yes");
    if (admitted) {
      assert_int_equal(seen.last_tag, in.tag);
      assert_int_equal(seen.last_cycle, t);
    }
    assert_int_equal(lfc_nic_cycle(nic), t + 1u);
  }

  oracle_nic_check_stats(&o, nic);
  assert_int_equal(seen.pkts, want->rx_pkts);
  assert_int_equal(seen.blocks, want->rx_blocks);
  /* The run reached what it is meant to test. */
  assert_true(want->tx_pkts > 100u && want->rx_pkts > 100u);
  assert_true(want->drop_pkts[LFC_DROP_MALFORMED] > 10u);
  if (ib) {
    assert_true(want->fcp_tx > 10u && want->fcp_rx > 10u && want->credit_blocked_cycles > 0u);
  } else {
    assert_true(want->pfc_rx > 10u && want->pause_rx > 10u && want->resume_rx > 10u);
    assert_true(want->paused_cycles > 0u);
    if (cfg->rx_blocks != 0u) assert_true(want->xoff_tx > 0u && want->xon_tx > 0u);
  }
  if (cfg->rx_blocks != 0u && cfg->drain_div != 0u) {
    assert_true(want->peak_rx_blocks > 0u);
    assert_true(want->drop_pkts[ib ? LFC_DROP_CREDIT : LFC_DROP_HEADROOM] > 0u);
  }
  lfc_nic_destroy(nic);
}

/* IB, a small slow receive buffer: credits block the sender, packets are dropped (CREDIT). */
static void test_nic_stats_ib_finite_buffer(void **state) {
  (void)state;
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_IB, 3);
  c.mtu_blocks = 8;
  c.rx_blocks = 24;
  c.drain_div = 3;
  c.fcp_period = 200;
  run_oracle(&c, 11);
}

/* IB at half rate with an unlimited buffer (FCCL = ABR + 2048). */
static void test_nic_stats_ib_unlimited_speed_div_2(void **state) {
  (void)state;
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_IB, 2);
  c.mtu_blocks = 6;
  c.speed_div = 2;
  c.fcp_period = 97;
  run_oracle(&c, 12);
}

/* PFC, thresholds and a response time: XOFF/XON frames, refreshes, pauses of the peer. */
static void test_nic_stats_pfc_thresholds(void **state) {
  (void)state;
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_PFC, 3);
  c.mtu_blocks = 8;
  c.rx_blocks = 40;
  c.rx_xoff = 20;
  c.rx_xon = 10;
  c.drain_div = 4;
  c.pause_quanta = 50;
  c.refresh_cycles = 30;
  c.response_cycles = 3;
  run_oracle(&c, 13);
}

/* PFC at a third of the rate (quanta of 3 cycles), a short refresh. */
static void test_nic_stats_pfc_speed_div_3(void **state) {
  (void)state;
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_PFC, 2);
  c.mtu_blocks = 5;
  c.speed_div = 3;
  c.rx_blocks = 30;
  c.rx_xoff = 15;
  c.rx_xon = 5;
  c.drain_div = 6;
  c.pause_quanta = 20;
  c.refresh_cycles = 10;
  run_oracle(&c, 14);
}

/* PFC with an unlimited, instantly draining buffer: never pauses its peer. */
static void test_nic_stats_pfc_unlimited(void **state) {
  (void)state;
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_PFC, 4);
  c.mtu_blocks = 9;
  run_oracle(&c, 15);
}

/* nic.h: the defaults leave the PFC thresholds to the user: a PFC node given a finite buffer
 * and no thresholds is refused (rx_xon < rx_xoff <= rx_blocks), naming the parameters. */
static void test_nic_pfc_buffer_needs_thresholds(void **state) {
  (void)state;
  lfc_nic_cfg_t c;
  char err[256] = "";
  lfc_nic_cfg_default(&c, LFC_MODE_PFC, 2);
  assert_int_equal(c.rx_blocks, 0);
  assert_int_equal(c.drain_div, 0);
  assert_int_equal(c.response_cycles, 0);
  assert_int_equal(c.tx_fifo_pkts, 1024);
  c.rx_blocks = 100;
  assert_int_equal(lfc_nic_cfg_check(&c, err, sizeof err), -1);
  assert_non_null(strstr(err, "rx_xon"));
  assert_non_null(strstr(err, "rx_xoff"));
  assert_null(lfc_nic_create(&c, NULL, 0));
  c.rx_xoff = 1; /* the lowest legal pair */
  assert_int_equal(lfc_nic_cfg_check(&c, err, sizeof err), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nic_stats_ib_finite_buffer),
      cmocka_unit_test(test_nic_stats_ib_unlimited_speed_div_2),
      cmocka_unit_test(test_nic_stats_pfc_thresholds),
      cmocka_unit_test(test_nic_stats_pfc_speed_div_3),
      cmocka_unit_test(test_nic_stats_pfc_unlimited),
      cmocka_unit_test(test_nic_pfc_buffer_needs_thresholds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
