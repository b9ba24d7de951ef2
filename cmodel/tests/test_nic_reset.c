/*
 * test_nic_reset.c - lfc_nic_reset (lfc/nic.h) returns the end node to the state lfc_nic_create
 * gives: cycle 0, FIFOs empty, counters 0, and nothing of the earlier run left (credits, pauses,
 * XOFF state, pending flow-control words, a packet half sent or half received). Checked as
 * behaviour: a node that ran random traffic and was reset, and a new node, given the same
 * inputs afterwards, send the same words in every cycle and end with the same counters; and the
 * FCP bookkeeping of a node is not kept across a reset of its link partner.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lfc/nic.h"

#include "testutil.h"

enum {
  CYCLES = 3000,
  PERMILLE = 1000,
  STOPS = 64, /* the earlier run stops at this many different cycles: some state (a pending
                 XON, a packet half received) lasts only a few cycles */
};

/* xorshift32 (Marsaglia 2003): the test's inputs. */
static uint32_t rnd(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

/* Random inputs and packets to send, the same for the same seed; the words sent go to out. */
static void drive(lfc_nic_t *nic, const lfc_nic_cfg_t *cfg, uint32_t seed, lfc_word_t *out,
                  uint32_t cycles) {
  uint32_t s = seed, left = 0, tag = 1;
  lfc_word_t cur;
  memset(&cur, 0, sizeof cur);
  for (uint32_t t = 0; t < cycles; t++) {
    if (rnd(&s) % PERMILLE < 80u) {
      lfc_pkt_t p;
      memset(&p, 0, sizeof p);
      p.cls = (uint8_t)(rnd(&s) % cfg->classes);
      p.nblk = (uint8_t)(1u + rnd(&s) % cfg->mtu_blocks);
      p.tag = tag++;
      (void)lfc_nic_send(nic, &p); /* a full FIFO refuses it, the same way in both nodes */
    }
    lfc_word_t in;
    memset(&in, 0, sizeof in);
    uint32_t r = rnd(&s) % PERMILLE;
    if (left > 0u) {
      in = cur;
      in.sop = 0;
      in.eop = left == 1u;
      left--;
    } else if (r < 40u) {
      in.kind = cfg->mode == LFC_MODE_IB ? LFC_FCP : LFC_PFC;
      in.fc_vl = (uint8_t)(rnd(&s) % cfg->classes);
      in.fc_fctbs = (uint16_t)(rnd(&s) % 4096u);
      in.fc_fccl = (uint16_t)(rnd(&s) % 4096u);
      in.pfc_en = (uint8_t)(rnd(&s) % 256u);
      for (uint32_t c = 0; c < LFC_PFC_MAX_PRIOS; c++)
        in.pfc_time[c] = (uint16_t)(rnd(&s) % 3u == 0 ? 0u : rnd(&s) % 300u);
    } else if (r < 500u) {
      uint32_t n = 1u + rnd(&s) % cfg->mtu_blocks;
      in.kind = LFC_DATA;
      in.sop = 1;
      in.eop = n == 1u;
      in.cls = (uint8_t)(rnd(&s) % cfg->classes);
      in.nblk = (uint8_t)n;
      in.tag = 1000000u + t;
      cur = in;
      left = n - 1u;
    }
    lfc_nic_step(nic, &in, &out[t]);
  }
}

static void check_reset_after(const lfc_nic_cfg_t *cfg, uint32_t stop) {
  lfc_nic_t *used = lfc_nic_create(cfg, NULL, 0), *fresh = lfc_nic_create(cfg, NULL, 0);
  assert_non_null(used);
  assert_non_null(fresh);
  static lfc_word_t a[CYCLES], b[CYCLES];
  drive(used, cfg, 0xBEEFu, a, stop);
  lfc_nic_reset(used);
  assert_int_equal(lfc_nic_cycle(used), 0);
  for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++) assert_int_equal(lfc_nic_backlog(used, c), 0);
  lfc_nic_stats_t zero;
  memset(&zero, 0, sizeof zero);
  assert_memory_equal(lfc_nic_stats(used), &zero, sizeof zero);
  drive(used, cfg, 0x5EEDu, a, CYCLES);
  drive(fresh, cfg, 0x5EEDu, b, CYCLES);
  for (uint32_t t = 0; t < CYCLES; t++)
    if (!lfc_word_equal(&a[t], &b[t]))
      fail_msg("mode %d, reset after %u cycles: in cycle %u the reset node sends kind %u, a new "
               "node kind %u", cfg->mode, stop, t, a[t].kind, b[t].kind);
  assert_memory_equal(lfc_nic_stats(used), lfc_nic_stats(fresh), sizeof(lfc_nic_stats_t));
  lfc_nic_destroy(used);
  lfc_nic_destroy(fresh);
}

static void check_reset(const lfc_nic_cfg_t *cfg) {
  for (uint32_t stop = CYCLES - STOPS; stop < CYCLES; stop++) check_reset_after(cfg, stop);
}

static void test_reset_node_behaves_as_new_ib(void **state) {
  (void)state;
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_IB, 3);
  c.mtu_blocks = 16;
  c.tx_fifo_pkts = 8;
  c.rx_blocks = 20;
  c.drain_div = 4;
  c.fcp_period = 50;
  check_reset(&c);
}

static void test_reset_node_behaves_as_new_pfc(void **state) {
  (void)state;
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_PFC, 3);
  c.mtu_blocks = 16;
  c.speed_div = 2;
  c.tx_fifo_pkts = 8;
  c.rx_blocks = 30;
  c.rx_xoff = 15;
  c.rx_xon = 5;
  c.drain_div = 5;
  c.pause_quanta = 40;
  c.refresh_cycles = 25;
  c.response_cycles = 2;
  check_reset(&c);
}

/* SPEC §6.5, §6.6: an XOFF decided while the node is busy sending waits for the end of the
 * packet; a reset in that window drops it with everything else: the reset node, with nothing to
 * send and an empty buffer, sends IDLE, not the frame of before. */
static void test_reset_drops_a_pending_pfc_frame(void **state) {
  (void)state;
  enum { LONG = 16, IN_BLOCKS = 10, RESET_AT = 13 };
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_PFC, 1);
  c.mtu_blocks = LONG;
  c.rx_blocks = 32;
  c.rx_xoff = 8;
  c.rx_xon = 2;
  c.drain_div = 1000; /* no drain during the test (cycle 0 drains an empty buffer) */
  lfc_nic_t *nic = lfc_nic_create(&c, NULL, 0);
  assert_non_null(nic);
  lfc_pkt_t p;
  memset(&p, 0, sizeof p);
  p.nblk = LONG;
  p.tag = 1;
  assert_int_equal(lfc_nic_send(nic, &p), 0);
  lfc_word_t in, out;
  for (uint32_t t = 0; t < RESET_AT; t++) {
    memset(&in, 0, sizeof in);
    if (t < IN_BLOCKS) {
      in.kind = LFC_DATA;
      in.sop = t == 0;
      in.eop = t + 1 == IN_BLOCKS;
      in.nblk = IN_BLOCKS;
      in.tag = 99;
    }
    lfc_nic_step(nic, &in, &out);
    assert_int_equal(out.kind, LFC_DATA); /* busy with the long packet throughout */
  }
  /* occ = 10 >= rx_xoff since cycle 10: an XOFF frame is pending behind the packet. */
  lfc_nic_reset(nic);
  for (uint32_t t = 0; t < 3u * LONG; t++) {
    lfc_nic_step(nic, NULL, &out);
    if (out.kind != LFC_IDLE) fail_msg("cycle %u after the reset: kind %u, expected IDLE", t, out.kind);
  }
  assert_int_equal(lfc_nic_stats(nic)->pfc_tx, 0);
  lfc_nic_destroy(nic);
}

/* One run of an IB link partner: packets of both VLs to send, credit granted by FCPs arriving
   from the switch side; its output words into out[cycles]. */
static void nic_run(lfc_nic_t *n, lfc_word_t *out, unsigned cycles) {
  for (unsigned i = 0; i < 6; i++) {
    lfc_pkt_t pk = {.cls = (uint8_t)(i % 2), .nblk = (uint8_t)(1 + i % 3), .dst = 0, .tag = i};
    assert_int_equal(lfc_nic_send(n, &pk), 0);
  }
  for (unsigned t = 0; t < cycles; t++) {
    lfc_word_t in;
    memset(&in, 0, sizeof in);
    if (t % 4 == 0) {
      in.kind = LFC_FCP;
      in.fc_vl = (uint8_t)((t / 4) % 2);
      in.fc_fccl = 64;
    }
    lfc_nic_step(n, &in, &out[t]);
  }
}

/* A partner after lfc_nic_reset behaves like a new one (its FCP bookkeeping too). */
static void test_nic_reset_is_new(void **state) {
  (void)state;
  enum { RESET_CYCLES = 120 };
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_IB, 2);
  c.mtu_blocks = 8;
  c.rx_blocks = 16;
  c.fcp_period = 10;
  char err[256];
  lfc_nic_t *used = lfc_nic_create(&c, err, sizeof err);
  lfc_nic_t *fresh = lfc_nic_create(&c, err, sizeof err);
  assert_non_null(used);
  assert_non_null(fresh);
  static lfc_word_t a[RESET_CYCLES], b[RESET_CYCLES];
  nic_run(used, a, RESET_CYCLES);
  lfc_nic_reset(used);
  nic_run(used, a, RESET_CYCLES);
  nic_run(fresh, b, RESET_CYCLES);
  for (unsigned t = 0; t < RESET_CYCLES; t++)
    if (!lfc_word_equal(&a[t], &b[t])) fail_msg("cycle %u: the reset partner differs from a new one", t);
  lfc_nic_destroy(used);
  lfc_nic_destroy(fresh);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reset_node_behaves_as_new_ib),
      cmocka_unit_test(test_reset_node_behaves_as_new_pfc),
      cmocka_unit_test(test_reset_drops_a_pending_pfc_frame),
      cmocka_unit_test(test_nic_reset_is_new),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
