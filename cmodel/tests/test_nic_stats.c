/*
 * test_nic_stats.c - every counter and every word of the end node (lfc/nic.h, docs/SPEC.md
 * §12.2) against an oracle the test keeps from the words it gives the node and the words the node
 * sends. The peer is the test: random packets (well-formed, malformed, stray continuation
 * blocks), FCPs and PFC frames of any content, and random packets handed to the node to send.
 *
 * The oracle follows the documents, not the node's code:
 *   - transmit (§5.2, §5.3, §6.7, §12.2): packets leave in FIFO order per class; an IB data VL
 *     starts a packet only if the send rule passes (FCTBS counted at the start, FCCL from the
 *     last FCP received, §5.3); a PFC class starts none while paused: a frame received in cycle
 *     t with time q > 0 pauses [t+1+R, t+1+R+q*k), extending a pause still running at t+1+R
 *     (nic.c's documented choice), time 0 cancels at once;
 *   - receive (§7.2, §12.2): a first block with nblk 0, nblk > mtu_blocks or a class the node
 *     does not have is MALFORMED and its blocks are strays; a well-formed packet fits if
 *     n <= rx_blocks - occ (S(t); rx_blocks 0 = unlimited), else it is dropped (CREDIT in IB,
 *     HEADROOM in PFC); each class drains one block in cycles t with t mod drain_div = 0
 *     (reading S(t)), and an admitted packet is charged after that (VL15 never);
 *   - flow-control words sent: an FCP carries the VL's FCTBS and FCCL = ABR + free (§5.4,
 *     2048 free for an unlimited buffer), ABR advancing with every well-formed packet received
 *     on the VL and set by a valid FCP (op NORMAL or INIT, data VL); a PFC frame carries
 *     pause_quanta for the priorities in XOFF and 0 for those in XON, XOFF following §6.5 with
 *     the static thresholds rx_xoff / rx_xon (§12.2);
 *   - counters (nic.h): tx/rx packets and blocks, drops by cause, FCPs and PFC frames sent and
 *     received (a PFC frame in IB mode and an FCP in PFC mode are ignored, not counted), XOFF /
 *     XON entries sent and pause / resume entries received, paused class-cycles,
 *     credit-blocked VL-cycles, and the peak occupancy of any class.
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
#include "../src/lfc_rules.h"

enum {
  CYCLES = 20000,
  FIFO_CAP = 64,       /* packets the test keeps queued per class, at most */
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

/* The test's copy of one class FIFO of the node. */
typedef struct {
  lfc_pkt_t v[FIFO_CAP];
  uint32_t head, n;
} tfifo_t;

static void tfifo_push(tfifo_t *f, const lfc_pkt_t *p) {
  f->v[(f->head + f->n) % FIFO_CAP] = *p;
  f->n++;
}

static lfc_pkt_t tfifo_pop(tfifo_t *f) {
  lfc_pkt_t p = f->v[f->head];
  f->head = (f->head + 1u) % FIFO_CAP;
  f->n--;
  return p;
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
  const uint32_t C = cfg->classes, k = cfg->speed_div;
  uint64_t s = seed;

  lfc_nic_stats_t want;
  memset(&want, 0, sizeof want);
  static tfifo_t fifo[LFC_MAX_CLASSES];
  memset(fifo, 0, sizeof fifo);
  uint32_t fctbs[LFC_MAX_CLASSES] = {0}, fccl[LFC_MAX_CLASSES] = {0}, abr[LFC_MAX_CLASSES] = {0};
  uint64_t ps[LFC_PFC_MAX_PRIOS] = {0}, pe[LFC_PFC_MAX_PRIOS] = {0};
  uint32_t occ[LFC_MAX_CLASSES] = {0};
  bool xoff[LFC_PFC_MAX_PRIOS] = {0};
  uint32_t tx_rem = 0, tag = 1;
  /* The packet the test is sending the node: blocks left, and whether they are strays. */
  uint32_t in_rem = 0;
  lfc_word_t in_cur;
  memset(&in_cur, 0, sizeof in_cur);
  uint32_t rx_rem_model = 0; /* continuation blocks the node expects (its framing, §7.2) */

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
      if (fifo[c].n < FIFO_CAP && fifo[c].n < cfg->tx_fifo_pkts) {
        assert_int_equal(lfc_nic_send(nic, &p), 0);
        tfifo_push(&fifo[c], &p);
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
        uint32_t base = in.fc_vl < C ? fctbs[in.fc_vl] : 0u;
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

    /* ---- The oracle's view of S(t) before the step ---- */
    bool paused[LFC_PFC_MAX_PRIOS] = {0};
    uint32_t blocked = 0;
    if (ib) {
      for (uint32_t c = 0; c < C; c++)
        if (fifo[c].n > 0u && !lfc_rule_send_ok(fctbs[c], fccl[c], fifo[c].v[fifo[c].head].nblk))
          blocked++;
      want.credit_blocked_cycles += blocked;
    } else {
      for (uint32_t c = 0; c < C; c++) {
        paused[c] = ps[c] <= t && t < pe[c];
        want.paused_cycles += paused[c];
      }
    }

    lfc_word_t out;
    uint64_t rx_before = seen.pkts;
    lfc_nic_step(nic, &in, &out);

    /* ---- What the node sent in cycle t ---- */
    if (out.kind != LFC_IDLE && t % k != 0u)
      fail_msg("seed %llu cycle %llu: a word outside a slot (k = %u)", (unsigned long long)seed,
               (unsigned long long)t, k);
    if (out.kind == LFC_DATA && out.sop) {
      uint32_t c = out.cls;
      if (tx_rem != 0u) fail_msg("cycle %llu: a packet started inside another", (unsigned long long)t);
      if (fifo[c].n == 0u) fail_msg("cycle %llu: class %u started with nothing queued", (unsigned long long)t, c);
      if (ib && c != LFC_VL15 &&
          !lfc_rule_send_ok(fctbs[c], fccl[c], fifo[c].v[fifo[c].head].nblk))
        fail_msg("seed %llu cycle %llu: VL %u started a packet the send rule forbids",
                 (unsigned long long)seed, (unsigned long long)t, c);
      if (ib && c != LFC_VL15 && fifo[LFC_VL15].n > 0u)
        fail_msg("cycle %llu: a data VL went ahead of VL15", (unsigned long long)t);
      if (!ib && paused[c])
        fail_msg("seed %llu cycle %llu: paused class %u started a packet",
                 (unsigned long long)seed, (unsigned long long)t, c);
      lfc_pkt_t p = tfifo_pop(&fifo[c]);
      assert_int_equal(out.tag, p.tag);
      assert_int_equal(out.nblk, p.nblk);
      assert_int_equal(out.dst, p.dst);
      assert_int_equal(out.ecn, p.ecn);
      assert_int_equal(out.eop, p.nblk == 1u);
      want.tx_pkts++;
      want.tx_blocks += p.nblk;
      if (ib && c != LFC_VL15) fctbs[c] = lfc_rule_credit_add(fctbs[c], p.nblk);
      tx_rem = p.nblk - 1u;
    } else if (out.kind == LFC_DATA) {
      if (tx_rem == 0u) fail_msg("cycle %llu: a continuation block outside a packet", (unsigned long long)t);
      tx_rem--;
      assert_int_equal(out.eop, tx_rem == 0u);
    } else if (out.kind == LFC_FCP) {
      assert_true(ib);
      if (tx_rem != 0u) fail_msg("cycle %llu: an FCP inside a packet", (unsigned long long)t);
      uint32_t vl = out.fc_vl;
      assert_true(vl < C);
      assert_int_equal(out.fc_op, LFC_FCP_OP_NORMAL);
      uint32_t fr = cfg->rx_blocks == 0u ? LFC_CREDIT_WINDOW : cfg->rx_blocks - occ[vl];
      if (out.fc_fctbs != fctbs[vl] || out.fc_fccl != lfc_rule_fccl(abr[vl], fr))
        fail_msg("seed %llu cycle %llu: FCP vl %u fctbs %u fccl %u, the oracle gives %u %u",
                 (unsigned long long)seed, (unsigned long long)t, vl, out.fc_fctbs,
                 out.fc_fccl, fctbs[vl], lfc_rule_fccl(abr[vl], fr));
      want.fcp_tx++;
    } else if (out.kind == LFC_PFC) {
      assert_false(ib);
      if (tx_rem != 0u) fail_msg("cycle %llu: a PFC frame inside a packet", (unsigned long long)t);
      assert_int_equal(out.pfc_en >> C, 0);
      assert_int_not_equal(out.pfc_en, 0);
      for (uint32_t c = 0; c < C; c++) {
        if (!(out.pfc_en >> c & 1u)) continue;
        if (out.pfc_time[c] != (xoff[c] ? cfg->pause_quanta : 0u))
          fail_msg("seed %llu cycle %llu: PFC frame time[%u] = %u with XOFF %d",
                   (unsigned long long)seed, (unsigned long long)t, c, out.pfc_time[c], xoff[c]);
        if (xoff[c])
          want.xoff_tx++;
        else
          want.xon_tx++;
      }
      want.pfc_tx++;
    }

    /* ---- What the node received in cycle t: control words (step D) ---- */
    if (in.kind == LFC_FCP && ib) {
      want.fcp_rx++;
      if (in.fc_op <= LFC_FCP_OP_INIT && in.fc_vl < C) {
        fccl[in.fc_vl] = in.fc_fccl & LFC_CREDIT_MASK;
        abr[in.fc_vl] = in.fc_fctbs & LFC_CREDIT_MASK;
      }
    }
    if (in.kind == LFC_PFC && !ib) {
      want.pfc_rx++;
      uint64_t start = t + 1u + cfg->response_cycles;
      for (uint32_t c = 0; c < C; c++) {
        if (!(in.pfc_en >> c & 1u)) continue;
        if (in.pfc_time[c] == 0u) {
          want.resume_rx++;
          ps[c] = pe[c] = 0;
          continue;
        }
        want.pause_rx++;
        if (pe[c] < start) ps[c] = start;
        pe[c] = start + (uint64_t)in.pfc_time[c] * k;
      }
    }

    /* ---- Step G from occ of S(t) (PFC with a finite buffer) ---- */
    if (!ib && cfg->rx_blocks != 0u)
      for (uint32_t c = 0; c < C; c++)
        xoff[c] = xoff[c] ? !(occ[c] <= cfg->rx_xon) : occ[c] >= cfg->rx_xoff;

    /* ---- Data received (step E) ---- */
    uint32_t adm_c = 0, adm_n = 0;
    bool admitted = false;
    if (in.kind == LFC_DATA) {
      if (rx_rem_model > 0u) {
        rx_rem_model--;
      } else if (in.sop) {
        assert_true(sop_in); /* the script's first blocks only */
        if (!well_formed) {
          want.drop_pkts[LFC_DROP_MALFORMED]++;
        } else {
          uint32_t c = in.cls, n = in.nblk;
          rx_rem_model = n - 1u;
          bool fits = true;
          if (c != LFC_VL15) {
            if (ib) abr[c] = lfc_rule_credit_add(abr[c], n);
            fits = cfg->rx_blocks == 0u || n <= cfg->rx_blocks - occ[c];
          }
          if (!fits) {
            want.drop_pkts[ib ? LFC_DROP_CREDIT : LFC_DROP_HEADROOM]++;
          } else {
            admitted = true;
            want.rx_pkts++;
            want.rx_blocks += n;
            if (c != LFC_VL15 && cfg->drain_div != 0u) {
              adm_c = c;
              adm_n = n;
            }
          }
        }
      }
    }
    if (admitted != (seen.pkts == rx_before + 1u))
      fail_msg("seed %llu cycle %llu: packet tag 0x%x %s by the oracle, the callback says %s",
               (unsigned long long)seed, (unsigned long long)t, in.tag,
               admitted ? "admitted" : "not admitted", admitted ? "no" : "yes");
    if (admitted) {
      assert_int_equal(seen.last_tag, in.tag);
      assert_int_equal(seen.last_cycle, t);
    }
    /* The drain reads S(t); the admission is charged after it. */
    if (cfg->drain_div != 0u && t % cfg->drain_div == 0u)
      for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++)
        if (occ[c] > 0u) occ[c]--;
    if (adm_n > 0u) {
      occ[adm_c] += adm_n;
      if (occ[adm_c] > want.peak_rx_blocks) want.peak_rx_blocks = occ[adm_c];
    }
    assert_int_equal(lfc_nic_cycle(nic), t + 1u);
  }

  const lfc_nic_stats_t *got = lfc_nic_stats(nic);
#define SAME(f)                                                                                  \
  do {                                                                                           \
    if (got->f != want.f)                                                                        \
      fail_msg("seed %llu: counter " #f " = %llu, the oracle counted %llu",                      \
               (unsigned long long)seed, (unsigned long long)got->f, (unsigned long long)want.f); \
  } while (0)
  SAME(tx_pkts);
  SAME(tx_blocks);
  SAME(rx_pkts);
  SAME(rx_blocks);
  for (int c = 0; c < LFC_DROP_CAUSES; c++) SAME(drop_pkts[c]);
  SAME(fcp_tx);
  SAME(fcp_rx);
  SAME(pfc_tx);
  SAME(pfc_rx);
  SAME(xoff_tx);
  SAME(xon_tx);
  SAME(pause_rx);
  SAME(resume_rx);
  SAME(paused_cycles);
  SAME(credit_blocked_cycles);
  SAME(peak_rx_blocks);
#undef SAME
  assert_int_equal(seen.pkts, want.rx_pkts);
  assert_int_equal(seen.blocks, want.rx_blocks);
  for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++) assert_int_equal(lfc_nic_backlog(nic, c), fifo[c].n);
  /* The run reached what it is meant to test. */
  assert_true(want.tx_pkts > 100u && want.rx_pkts > 100u);
  assert_true(want.drop_pkts[LFC_DROP_MALFORMED] > 10u);
  if (ib) {
    assert_true(want.fcp_tx > 10u && want.fcp_rx > 10u && want.credit_blocked_cycles > 0u);
  } else {
    assert_true(want.pfc_rx > 10u && want.pause_rx > 10u && want.resume_rx > 10u);
    assert_true(want.paused_cycles > 0u);
    if (cfg->rx_blocks != 0u) assert_true(want.xoff_tx > 0u && want.xon_tx > 0u);
  }
  if (cfg->rx_blocks != 0u && cfg->drain_div != 0u) {
    assert_true(want.peak_rx_blocks > 0u);
    assert_true(want.drop_pkts[ib ? LFC_DROP_CREDIT : LFC_DROP_HEADROOM] > 0u);
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
