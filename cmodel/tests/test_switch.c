/*
 * test_switch.c - the switch as a whole (cmodel/src/switch.c, docs/SPEC.md): end-to-end directed
 * tests, the first things a user sees (the corner cases of each rule live in the test file of
 * the block that implements it); Moore outputs (§1.3: the outputs of a cycle do not see its
 * inputs, and every output word is written for every port in every cycle, whatever the array
 * held, §4.1); and the reset state (§13.1: every register's reset value) after
 * lfc_switch_create and again after lfc_switch_reset following traffic, every descriptor
 * returned.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lfc/switch.h"

#include "testutil.h"
#include "lfc/nic.h"
#include "lfc/star.h"

#define PORTS 4u
#define MAX_CYCLES 200u

static const lfc_word_t idle;

static lfc_switch_t *make(const lfc_switch_cfg_t *cfg) {
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(cfg, err, sizeof err);
  if (sw == NULL) print_error("create: %s\n", err);
  assert_non_null(sw);
  return sw;
}

static lfc_word_t data(uint32_t cls, uint32_t nblk, uint32_t dst, uint32_t tag, uint32_t i) {
  lfc_word_t w = idle;
  w.kind = LFC_DATA;
  w.sop = i == 0;
  w.eop = i + 1u == nblk;
  w.cls = (uint8_t)cls;
  w.nblk = (uint8_t)nblk;
  w.dst = (uint16_t)dst;
  w.tag = tag;
  w.ecn = LFC_ECN_ECT0;
  return w;
}

static lfc_word_t fcp(uint32_t vl, uint32_t fctbs, uint32_t fccl) {
  lfc_word_t w = idle;
  w.kind = LFC_FCP;
  w.fc_vl = (uint8_t)vl;
  w.fc_fctbs = (uint16_t)fctbs;
  w.fc_fccl = (uint16_t)fccl;
  return w;
}

static uint64_t reg(const lfc_switch_t *sw, const char *name, uint32_t port, uint32_t cls) {
  int r = lfc_reg_find(name);
  assert_true(r >= 0);
  return lfc_switch_reg(sw, (size_t)r, port, cls);
}

/* SPEC §5.5: at reset every VL is pending; each port sends the lowest first, one per slot. */
static void test_ib_reset_sends_fcp_per_vl(void **state) {
  (void)state;
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_IB, PORTS, 3);
  lfc_switch_t *sw = make(&cfg);
  lfc_word_t out[PORTS];
  for (uint32_t vl = 0; vl < 3; vl++) {
    lfc_switch_step(sw, NULL, out);
    for (uint32_t p = 0; p < PORTS; p++) {
      assert_int_equal(out[p].kind, LFC_FCP);
      assert_int_equal(out[p].fc_op, LFC_FCP_OP_NORMAL);
      assert_int_equal(out[p].fc_vl, vl);
      assert_int_equal(out[p].fc_fctbs, 0);
      assert_int_equal(out[p].fc_fccl, 256); /* abr 0 + min(vl_blocks 256, 2048) */
    }
  }
  lfc_switch_step(sw, NULL, out);
  for (uint32_t p = 0; p < PORTS; p++) assert_int_equal(out[p].kind, LFC_IDLE);
  /* VL 0's FCP went out in cycle 0: fcp_timer = fcp_period - 1 in S(1), 4 cycles ago. */
  assert_int_equal(reg(sw, "fcp_timer", 0, 0), cfg.fcp_period - 4u);
  assert_int_equal(lfc_switch_stats(sw, 1)->fcp_tx, 3);
  lfc_switch_destroy(sw);
}

/* SPEC §7.3: with cut-through, sop in to sop out through an idle egress is `latency` cycles. */
static void test_ib_cut_through_latency(void **state) {
  (void)state;
  const uint32_t latency = 5, n = 3, in_port = 0, out_port = 2, tag = 0xC0FFEE;
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_IB, PORTS, 2);
  cfg.cut_through = true;
  cfg.latency = latency;
  lfc_switch_t *sw = make(&cfg);
  lfc_word_t in[PORTS], out[PORTS];
  for (uint32_t p = 0; p < PORTS; p++) in[p] = idle;
  /* The peer of the egress grants 100 blocks on VL 1. */
  in[out_port] = fcp(1, 0, 100);
  lfc_switch_step(sw, in, out);
  in[out_port] = idle;
  lfc_switch_step(sw, in, out); /* the reset FCPs are out */
  assert_int_equal(reg(sw, "fccl", out_port, 1), 100);

  uint64_t t0 = lfc_switch_cycle(sw);
  uint64_t sop_out = 0;
  uint32_t blocks_out = 0;
  for (uint32_t i = 0; i < MAX_CYCLES && blocks_out < n; i++) {
    in[in_port] = i < n ? data(1, n, out_port, tag, i) : idle;
    uint64_t t = lfc_switch_cycle(sw);
    lfc_switch_step(sw, in, out);
    if (i == 0) assert_int_equal(reg(sw, "abr", in_port, 1), n);
    if (out[out_port].kind != LFC_DATA) continue;
    const lfc_word_t *w = &out[out_port];
    if (blocks_out == 0) sop_out = t;
    assert_int_equal(w->sop, blocks_out == 0);
    assert_int_equal(w->eop, blocks_out + 1u == n);
    assert_int_equal(w->cls, 1);
    assert_int_equal(w->nblk, n);
    assert_int_equal(w->dst, out_port);
    assert_int_equal(w->tag, tag);
    assert_int_equal(w->ecn, LFC_ECN_ECT0);
    blocks_out++;
  }
  assert_int_equal(blocks_out, n);
  assert_int_equal(sop_out - t0, latency);
  /* Credits: the egress counted the packet, the ingress has freed it (SPEC §5.3, §5.4). */
  assert_int_equal(reg(sw, "fctbs", out_port, 1), n);
  assert_int_equal(reg(sw, "occ", in_port, 1), 0);
  assert_int_equal(lfc_switch_stats(sw, out_port)->cls[1].tx_pkts, 1);
  assert_int_equal(lfc_switch_stats(sw, in_port)->cls[1].rx_blocks, n);
  lfc_switch_destroy(sw);
}

/* SPEC §7.3, PFC mode, store-and-forward: the packet leaves `latency` cycles after its last
 * block. */
static void test_pfc_packet_flows(void **state) {
  (void)state;
  const uint32_t n = 4, in_port = 3, out_port = 1, tag = 77, latency = 2;
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_PFC, PORTS, 2);
  cfg.latency = latency;
  lfc_switch_t *sw = make(&cfg);
  lfc_word_t in[PORTS], out[PORTS];
  for (uint32_t p = 0; p < PORTS; p++) in[p] = idle;
  uint64_t sop_out = 0, last_in = 0;
  uint32_t blocks_out = 0;
  for (uint32_t i = 0; i < MAX_CYCLES && blocks_out < n; i++) {
    in[in_port] = i < n ? data(0, n, out_port, tag, i) : idle;
    if (i + 1u == n) last_in = lfc_switch_cycle(sw);
    if (i == 0) assert_int_equal(reg(sw, "pg_shared", in_port, 0), 0);
    uint64_t t = lfc_switch_cycle(sw);
    lfc_switch_step(sw, in, out);
    if (i == 0) assert_int_equal(reg(sw, "pg_shared", in_port, 0), n); /* charged at sop */
    for (uint32_t p = 0; p < PORTS; p++)
      if (p != out_port) assert_int_equal(out[p].kind, LFC_IDLE);
    if (out[out_port].kind != LFC_DATA) continue;
    if (blocks_out == 0) sop_out = t;
    assert_int_equal(out[out_port].tag, tag);
    blocks_out++;
  }
  assert_int_equal(blocks_out, n);
  assert_int_equal(sop_out, last_in + latency);
  assert_int_equal(reg(sw, "pg_shared", in_port, 0), 0);
  assert_int_equal(reg(sw, "shared_used", 0, 0), 0);
  lfc_switch_destroy(sw);
}

/*
 * SPEC §6.4-§6.6: a PG that reaches xoff_th sends XOFF for its priority; once the egress drains
 * it, XON. Packets of n = 4 blocks arrive back to back from cycle 1 on a paused egress queue.
 */
static void test_pfc_xoff_frame_on_threshold(void **state) {
  (void)state;
  const uint32_t in_port = 0, out_port = 1, n = 4, cls = 1, pkts = 3;
  const uint32_t resume_at = 40, run = 60;
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_PFC, PORTS, 2);
  cfg.xoff_th = 2 * n;
  cfg.xon_offset = 2;
  lfc_switch_t *sw = make(&cfg);
  lfc_word_t in[PORTS], out[PORTS];
  for (uint32_t p = 0; p < PORTS; p++) in[p] = idle;
  /* Cycle 0: the egress queue's peer pauses it, so that the packets stay in the buffer. */
  in[out_port].kind = LFC_PFC;
  in[out_port].pfc_en = 1u << cls;
  in[out_port].pfc_time[cls] = 1000;
  lfc_switch_step(sw, in, out);
  in[out_port] = idle;
  int64_t xoff_at = -1, xon_at = -1;
  for (uint32_t i = 0; i < run; i++) {
    in[in_port] = i < pkts * n ? data(cls, n, out_port, i / n, i % n) : idle;
    if (i == resume_at) { /* time 0: resume */
      in[out_port].kind = LFC_PFC;
      in[out_port].pfc_en = 1u << cls;
    } else {
      in[out_port] = idle;
    }
    uint64_t t = lfc_switch_cycle(sw);
    lfc_switch_step(sw, in, out);
    if (out[in_port].kind != LFC_PFC) continue;
    assert_int_equal(out[in_port].pfc_en, 1u << cls);
    if (xoff_at < 0) {
      assert_int_equal(out[in_port].pfc_time[cls], cfg.pause_quanta);
      xoff_at = (int64_t)t;
    } else if (xon_at < 0) {
      assert_int_equal(out[in_port].pfc_time[cls], 0);
      xon_at = (int64_t)t;
    }
  }
  /* The second packet's first block (cycle 1 + n) takes pg_shared to 2n = xoff_th in S(2 + n);
     step G of cycle 2 + n reads it and sets xoff in S(3 + n), from which the frame goes out. */
  assert_int_equal(xoff_at, 3 + (int64_t)n);
  /* The third found pg_shared + n > xoff_th: lossless, so it went to headroom, not dropped. */
  assert_int_equal(lfc_switch_stats(sw, in_port)->cls[cls].drop_pkts[LFC_DROP_HEADROOM], 0);
  assert_int_equal(lfc_switch_stats(sw, in_port)->cls[cls].peak_pg, pkts * n);
  assert_int_equal(lfc_switch_stats(sw, in_port)->cls[cls].xoff_tx, 1);
  assert_true(xon_at > (int64_t)resume_at);
  assert_int_equal(lfc_switch_stats(sw, in_port)->cls[cls].xon_tx, 1);
  assert_int_equal(reg(sw, "pg_hdrm", in_port, cls), 0);
  lfc_switch_destroy(sw);
}

static void cfg_pipe(lfc_switch_cfg_t *c, bool cut_through, uint32_t latency) {
  tu_cfg_pfc(c, 4, 2);
  c->cut_through = cut_through;
  c->latency = latency;
}

/* SPEC §1.3: outputs are a function of the state only. A packet in the queue of S(10) starts in 10
 * even though a pause frame for its class arrives in 10 (it pauses from 11). */
static void test_outputs_do_not_see_same_cycle_inputs(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pipe(&c, true, 1);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 9);
  tu_pkt(t, 0, 0, 1, 1, 0x300, 0); /* ready 10 */
  tu_pkt(t, 0, 0, 1, 1, 0x301, 0); /* ready 11: paused */
  tu_at(t, 1, 10);
  tu_pfc(t, 1, 0x01, 50);
  tu_run_to(t, 20);
  assert_int_equal(tu_find_sop(t, 1, 0x300)->cycle, 10);
  assert_null(tu_find_sop(t, 1, 0x301));
  tu_close(t);
}

/* switch.h lfc_switch_reset: back to cycle 0, reset registers and zero counters; the same inputs
 * then give the same outputs. */
static void test_reset_returns_to_reset_state(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_pipe(&c, true, 3);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 1, 4, 2, 0x400, 0);
  tu_run_to(t, 4); /* mid-packet: rx_rem, pg_shared non-zero */
  assert_true(tu_reg(t, "rx_rem", 0, 0) > 0);
  lfc_switch_reset(t->sw);
  assert_int_equal(lfc_switch_cycle(t->sw), 0);
  assert_int_equal(tu_reg(t, "rx_rem", 0, 0), 0);
  assert_int_equal(tu_reg(t, "pg_shared", 0, 1), 0);
  assert_int_equal(tu_reg(t, "shared_used", 0, 0), 0);
  assert_int_equal(tu_reg(t, "qpkts", 2, 1), 0);
  assert_int_equal(tu_stats(t, 0)->cls[1].rx_pkts, 0);
  /* replay on the reset switch, stepping it directly */
  lfc_word_t in[4], out[4];
  uint64_t sop_out = 0;
  for (uint64_t k = 0; k < 12; k++) {
    memset(in, 0, sizeof in);
    if (k >= 2 && k < 6) in[0] = tu_data_word(k == 2, k == 5, 1, 4, 2, 0x401, 0);
    lfc_switch_step(t->sw, in, out);
    if (out[2].kind == LFC_DATA && out[2].sop) sop_out = k;
  }
  assert_int_equal(sop_out, 5); /* 2 + latency 3 */
  assert_int_equal(tu_stats(t, 0)->cls[1].rx_pkts, 1);
  tu_close(t);
}

enum { BIG = 256, SHORT = 8, CANARY = 0x5A };

/* lfc/switch.h, SPEC §4.1: out[p] is the word port p transmits, for every p, every cycle: the
 * outputs do not depend on what the caller's array held before the step. Two switches get the
 * same random inputs; one steps into a zeroed array, the other into one filled with a non-IDLE
 * pattern before every step. */
static void test_step_writes_every_output(void **state) {
  (void)state;
  for (int mode = 0; mode < 2; mode++) {
    lfc_switch_cfg_t c;
    if (mode == 0)
      tu_cfg_ib(&c, 4, 2);
    else
      tu_cfg_pfc(&c, 4, 2);
    c.mtu_blocks = 4;
    c.fcp_period = 50;
    lfc_switch_t *a = lfc_switch_create(&c, NULL, 0), *b = lfc_switch_create(&c, NULL, 0);
    assert_non_null(a);
    assert_non_null(b);
    uint32_t s = 0xC0FFEEu + (uint32_t)mode, left[4] = {0}, tag = 1;
    lfc_word_t cur[4], in[4], oa[4], ob[4];
    memset(cur, 0, sizeof cur);
    uint64_t idle_seen = 0, busy_seen = 0;
    for (int t = 0; t < 3000; t++) {
      memset(in, 0, sizeof in);
      for (uint32_t p = 0; p < 4; p++) {
        if (left[p] > 0) {
          in[p] = cur[p];
          in[p].sop = 0;
          in[p].eop = left[p] == 1;
          left[p]--;
        } else if (tu_rand(&s) % 100 < 5) {
          uint32_t n = 1 + tu_rand(&s) % 4;
          in[p] = tu_data_word(1, n == 1, tu_rand(&s) % 2, n, tu_rand(&s) % 4, tag++, 0);
          cur[p] = in[p];
          left[p] = n - 1;
        }
      }
      memset(oa, 0, sizeof oa);
      memset(ob, CANARY, sizeof ob);
      lfc_switch_step(a, in, oa);
      lfc_switch_step(b, in, ob);
      for (uint32_t p = 0; p < 4; p++) {
        if (!lfc_word_equal(&oa[p], &ob[p]))
          fail_msg("mode %d cycle %d port %u: the output depends on the array's old contents "
                   "(kind %u into zeros, %u into a filled array)",
                   mode, t, p, oa[p].kind, ob[p].kind);
        if (oa[p].kind == LFC_IDLE)
          idle_seen++;
        else
          busy_seen++;
      }
    }
    assert_true(idle_seen > 100 && busy_seen > 100);
    lfc_switch_destroy(a);
    lfc_switch_destroy(b);
  }
}

/* Every port of a 64-port switch (the largest: a port set is one 64-bit word) takes in and
 * puts out through lfc_switch_step: a packet from the first port to the last and one back. */
static void test_step_every_port_of_the_largest_switch(void **state) {
  (void)state;
  const uint32_t ports = LFC_MAX_PORTS, last = ports - 1u, n = 2, latency = 2;
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_PFC, ports, 2);
  cfg.latency = latency;
  lfc_switch_t *sw = make(&cfg);
  lfc_word_t in[LFC_MAX_PORTS], out[LFC_MAX_PORTS];
  uint32_t got_last = 0, got_first = 0;
  for (uint32_t i = 0; i < MAX_CYCLES; i++) {
    for (uint32_t p = 0; p < ports; p++) in[p] = idle;
    if (i < n) {
      in[0] = data(0, n, last, 1, i);
      in[last] = data(0, n, 0, 2, i);
    }
    lfc_switch_step(sw, in, out);
    got_last += out[last].kind == LFC_DATA && out[last].tag == 1;
    got_first += out[0].kind == LFC_DATA && out[0].tag == 2;
  }
  assert_int_equal(got_last, n);
  assert_int_equal(got_first, n);
  lfc_switch_destroy(sw);
}

/* Every register of every port and class of a equals b's (two PORTS-port switches). */
static void assert_same_registers(const lfc_switch_t *a, const lfc_switch_t *b) {
  for (size_t r = 0; r < lfc_reg_count(); r++)
    for (uint32_t p = 0; p < PORTS; p++)
      for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++)
        assert_int_equal(lfc_switch_reg(a, r, p, c), lfc_switch_reg(b, r, p, c));
}

/* lfc_switch_step_ports ignores bits of in_ports beyond the switch's ports: a 4-port switch
 * given every bit, with packets in the words after its fourth, equals one given its four
 * (outputs and the registers of every port and class). */
static void test_step_ports_ignores_bits_beyond_the_ports(void **state) {
  (void)state;
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_PFC, PORTS, 2);
  lfc_switch_t *a = make(&cfg), *b = make(&cfg);
  lfc_word_t in[LFC_MAX_PORTS], oa[LFC_MAX_PORTS], ob[LFC_MAX_PORTS];
  const uint32_t n = 3;
  uint32_t sent = 0;
  for (uint32_t i = 0; i < MAX_CYCLES; i++) {
    for (uint32_t p = 0; p < LFC_MAX_PORTS; p++) in[p] = data(0, 1, 1, 100u + p, 0);
    in[0] = i < n ? data(0, n, 2, 7, i) : idle;
    for (uint32_t p = 1; p < PORTS; p++) in[p] = idle;
    uint64_t wa = lfc_switch_step_ports(a, in, (1ull << PORTS) - 1u, oa);
    uint64_t wb = lfc_switch_step_ports(b, in, ~0ull, ob);
    assert_int_equal(wa, wb);
    assert_int_equal(wa >> PORTS, 0);
    for (uint32_t p = 0; p < PORTS; p++)
      if ((wa >> p & 1u) != 0) assert_true(lfc_word_equal(&oa[p], &ob[p]));
    sent += (wa >> 2 & 1u) != 0 && oa[2].kind == LFC_DATA && oa[2].tag == 7 && oa[2].sop;
  }
  assert_int_equal(sent, 1); /* its first block: the rest is streamed, not written */
  assert_same_registers(a, b);
  assert_int_equal(reg(a, "tx_rem", 2, 0) + reg(a, "qlen", 2, 0) + reg(a, "pg_shared", 0, 0), 0);
  lfc_switch_destroy(a);
  lfc_switch_destroy(b);
}

/*
 * lfc_switch_step_ports predicts a block only in the slot after the last one taken: after an
 * IDLE given in the middle of a packet (a gap the sender should not leave), a port left out
 * receives IDLE, as lfc_switch_step with IDLE there; the packet's blocks then given complete it
 * in both.
 */
static void test_step_ports_predicts_only_the_due_block(void **state) {
  (void)state;
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_PFC, PORTS, 2);
  lfc_switch_t *a = make(&cfg), *b = make(&cfg);
  const uint32_t n = 3, tag = 9, dst = 2;
  /* cycle: 0 first block, 1 IDLE given, 2 left out, 3 and 4 the rest given */
  const int block[] = {0, -1, -1, 1, 2};
  const uint64_t given[] = {1, 1, 0, 1, 1};
  lfc_word_t in[PORTS], oa[PORTS], ob[PORTS];
  for (uint32_t t = 0; t < sizeof block / sizeof block[0]; t++) {
    for (uint32_t p = 0; p < PORTS; p++) in[p] = idle;
    if (block[t] >= 0) in[0] = data(0, n, dst, tag, (uint32_t)block[t]);
    lfc_switch_step(a, in, oa);
    lfc_switch_step_ports(b, in, given[t], ob);
    assert_int_equal(reg(a, "rx_rem", 0, 0), reg(b, "rx_rem", 0, 0));
  }
  assert_int_equal(reg(b, "rx_rem", 0, 0), 0);
  assert_int_equal(lfc_switch_stats(b, 0)->cls[0].rx_pkts, 1);
  assert_same_registers(a, b);
  lfc_switch_destroy(a);
  lfc_switch_destroy(b);
}

/* Step a (given every word) and b (given none: its receivers predict) in cycles
   [now, until), comparing their registers after each cycle. */
static void step_both_idle(lfc_switch_t *a, lfc_switch_t *b, uint64_t until) {
  lfc_word_t in[PORTS], oa[PORTS], ob[PORTS];
  for (uint32_t p = 0; p < PORTS; p++) in[p] = idle;
  while (lfc_switch_cycle(a) < until) {
    lfc_switch_step(a, in, oa);
    uint64_t wrote = lfc_switch_step_ports(b, in, 0u, ob);
    for (uint32_t p = 0; p < PORTS; p++)
      if ((wrote >> p & 1u) != 0) assert_true(lfc_word_equal(&oa[p], &ob[p]));
    assert_same_registers(a, b);
  }
}

/*
 * After such a gap, lfc_switch_advance takes the overdue block as arriving in the first cycle
 * it skips and the rest one a slot after it (lfc/switch.h): the same registers as a switch
 * given those blocks, while the packet is still being received, when its last block then comes
 * in a step, and while it goes out. Two gaps: the first advance ends before the packet would
 * have ended without the gap; the second ends at the cycle of the last block, which is then
 * still to come.
 */
static void test_advance_after_a_gap_takes_the_overdue_block_first(void **state) {
  (void)state;
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_PFC, PORTS, 2);
  lfc_switch_t *a = make(&cfg), *b = make(&cfg);
  enum { N = 12, CYCLES = N + 2, AFTER = 50 };
  const uint32_t tag = 9, dst = 2;
  /* per cycle: the block a is given (-1: IDLE), and what b does: given the word (G), left
     out (P: predicted), or skipped by an advance from the first S to the next G or P */
  const int block[CYCLES] = {0, -1, 1, 2, 3, -1, 4, 5, 6, 7, 8, 9, 10, 11};
  const char b_does[CYCLES + 1] = "GGSSSGSSSSSSSP";
  lfc_word_t in[PORTS], oa[PORTS], ob[PORTS];
  for (uint32_t p = 0; p < PORTS; p++) in[p] = idle;
  for (uint32_t t = 0; t < CYCLES; t++) {
    in[0] = block[t] >= 0 ? data(0, N, dst, tag, (uint32_t)block[t]) : idle;
    lfc_switch_step(a, in, oa);
    if (b_does[t] == 'S') {
      if (b_does[t + 1] == 'S') continue;
      lfc_switch_advance(b, t + 1u);
      assert_int_equal(lfc_switch_receiving(b), 1u); /* its last block is not before t + 1 */
    } else {
      lfc_switch_step_ports(b, in, b_does[t] == 'G' ? 1u : 0u, ob);
    }
    assert_int_equal(reg(b, "rx_rem", 0, 0), reg(a, "rx_rem", 0, 0));
    assert_same_registers(a, b);
  }
  assert_int_equal(reg(b, "rx_rem", 0, 0), 0u);
  assert_int_equal(lfc_switch_receiving(b), 0u);
  assert_int_equal(lfc_switch_stats(b, 0)->cls[0].rx_pkts, 1);
  step_both_idle(a, b, AFTER);
  assert_int_equal(lfc_switch_stats(b, dst)->cls[0].tx_pkts, 1);
  lfc_switch_destroy(a);
  lfc_switch_destroy(b);
}

/*
 * A port left out for some blocks of a packet (predicted) and then given one: the predicted
 * blocks count before the given one, as in a switch given them all. And a packet whose last
 * block falls inside an advance ends there: its port is no longer receiving.
 */
static void test_predicted_blocks_count_before_a_given_one(void **state) {
  (void)state;
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_PFC, PORTS, 2);
  lfc_switch_t *a = make(&cfg), *b = make(&cfg);
  const uint32_t n = 6, tag = 11, dst = 3, given = 3, after = 40;
  lfc_word_t in[PORTS], oa[PORTS], ob[PORTS];
  for (uint32_t p = 0; p < PORTS; p++) in[p] = idle;
  for (uint32_t i = 0; i <= given; i++) { /* blocks 0 and `given` given to b, those between not */
    in[0] = data(0, n, dst, tag, i);
    lfc_switch_step(a, in, oa);
    lfc_switch_step_ports(b, in, i == 0 || i == given ? 1u : 0u, ob);
    assert_same_registers(a, b);
  }
  assert_int_equal(reg(b, "rx_rem", 0, 0), n - 1u - given);
  for (uint32_t i = given + 1u; i < n; i++) { /* the rest, given to a only */
    in[0] = data(0, n, dst, tag, i);
    lfc_switch_step(a, in, oa);
  }
  assert_true(lfc_switch_next_event(b) >= n);
  lfc_switch_advance(b, n); /* past the last block */
  assert_int_equal(lfc_switch_receiving(b), 0u);
  assert_int_equal(reg(b, "rx_rem", 0, 0), 0u);
  assert_same_registers(a, b);
  step_both_idle(a, b, after);
  assert_int_equal(lfc_switch_stats(b, dst)->cls[0].tx_pkts, 1);
  lfc_switch_destroy(a);
  lfc_switch_destroy(b);
}

/*
 * A port whose block is overdue (a gap inside its packet: rx_held) has its packet's start as
 * an event, before the start of a packet waiting in a pipeline for its busy egress port, while
 * another port receives a packet that ends later still (the overdue port is not counted in
 * what the switch keeps of those ends). Switch a is stepped every cycle, given every word; b is
 * given the first blocks and the gap's IDLE, and the blocks after the gap only in the cycles it
 * steps (an advance takes the overdue block as arriving in its first cycle, lfc/switch.h), and
 * is advanced to its next event over every other cycle. Store-and-forward, latency 4.
 */
static void test_overdue_port_start_is_an_event(void **state) {
  (void)state;
  lfc_switch_cfg_t cfg;
  enum { LAT = 4, CYCLES = 48, GAP_PORT = 0 };
  cfg_pipe(&cfg, false, LAT);
  lfc_switch_t *a = make(&cfg), *b = make(&cfg);
  static lfc_word_t tr[CYCLES][PORTS];
  uint64_t first[CYCLES] = {0}, after_gap[CYCLES] = {0};
  for (uint32_t t = 0; t < CYCLES; t++)
    for (uint32_t p = 0; p < PORTS; p++) tr[t][p] = idle;
  /* port, first cycle, blocks, destination (= egress port); port 0's packet has a gap */
  const struct { uint32_t port, at, n, dst; } pk[] = {
      {3, 0, 20, 1},  /* ends at 19: the later end */
      {1, 0, 10, 3},  /* out of port 3 from 13 to 22 */
      {1, 11, 3, 3},  /* ends at 13, the gap's cycle; ready at 17, waits for port 3 till 23 */
      {0, 12, 4, 2}}; /* block 0 at 12, IDLE at 13, blocks 1..3 at 14..16: starts at 20 */
  const uint32_t rx_pkts[PORTS] = {1, 2, 0, 1};
  for (uint32_t i = 0; i < sizeof pk / sizeof pk[0]; i++) {
    uint32_t gap = pk[i].port == GAP_PORT ? 1u : 0u;
    for (uint32_t j = 0; j < pk[i].n; j++) {
      uint32_t t = pk[i].at + j + (j > 0 ? gap : 0u);
      tr[t][pk[i].port] = data(0, pk[i].n, pk[i].dst, 20u + i, j);
      if (j == 0) first[t] |= 1ull << pk[i].port;
      else if (gap) after_gap[t] |= 1ull << pk[i].port;
    }
    if (gap) first[pk[i].at + 1u] |= 1ull << pk[i].port; /* the IDLE of the gap, given */
  }
  lfc_word_t oa[PORTS], ob[PORTS];
  uint32_t skips = 0;
  while (lfc_switch_cycle(b) < CYCLES) {
    uint64_t t = lfc_switch_cycle(b), ne = lfc_switch_next_event(b);
    if (first[t] != 0 || ne == t) {
      lfc_switch_step_ports(b, tr[t], first[t] | after_gap[t], ob);
    } else {
      uint64_t to = t + 1u;
      while (to < CYCLES && to < ne && first[to] == 0) to++;
      lfc_switch_advance(b, to);
      skips++;
    }
    while (lfc_switch_cycle(a) < lfc_switch_cycle(b))
      lfc_switch_step(a, tr[lfc_switch_cycle(a)], oa);
    assert_same_registers(a, b);
  }
  assert_true(skips > 0);
  for (uint32_t p = 0; p < PORTS; p++)
    assert_int_equal(lfc_switch_stats(b, p)->cls[0].rx_pkts, rx_pkts[p]);
  assert_int_equal(lfc_switch_stats(b, 2)->cls[0].tx_pkts, 1); /* the gapped packet went out */
  lfc_switch_destroy(a);
  lfc_switch_destroy(b);
}

/* Registers whose reset value is 0 in both modes (SPEC §13.1). */
static const char *const ZERO_AT_RESET[] = {
    "shared_used", "rx_rem", "tx_rem", "qlen", "qpkts", "pg_min", "pg_shared", "pg_hdrm",
    "xoff", "pfc_pend", "pause_timer", "wd_storm", "wd_cnt", "wd_rcnt", "occ", "abr",
    "fctbs"};

static void check_zero(const lfc_switch_t *sw, const lfc_switch_cfg_t *c, const char *when) {
  for (size_t i = 0; i < sizeof ZERO_AT_RESET / sizeof ZERO_AT_RESET[0]; i++) {
    int r = lfc_reg_find(ZERO_AT_RESET[i]);
    assert_true(r >= 0);
    const lfc_reg_info_t *ri = lfc_reg_info((size_t)r);
    if (ri->mode != 2 && ri->mode != (uint8_t)c->mode) continue;
    for (uint32_t p = 0; p < c->ports; p++)
      for (uint32_t k = 0; k < c->classes; k++) {
        uint64_t v = lfc_switch_reg(sw, (size_t)r, p, k);
        if (v != 0)
          fail_msg("%s: %s[port %u, class %u] = %llu, reset value 0", when, ri->name, p, k,
                   (unsigned long long)v);
      }
  }
}

/* Some traffic into every port: packets of every class, all to port 0 (an incast), so that
   queues hold packets when the switch is reset. */
static void traffic(lfc_switch_t *sw, const lfc_switch_cfg_t *c, unsigned cycles) {
  lfc_word_t in[LFC_MAX_PORTS], out[LFC_MAX_PORTS];
  for (unsigned t = 0; t < cycles; t++) {
    memset(in, 0, sizeof in);
    for (uint32_t p = 0; p < c->ports; p++) {
      lfc_word_t *w = &in[p];
      w->kind = LFC_DATA;
      w->sop = w->eop = 1;
      w->nblk = 1;
      w->cls = (uint8_t)((t + p) % c->classes);
      w->dst = 0;
      w->tag = (p << 24) | t;
    }
    lfc_switch_step(sw, in, out);
  }
}

static void reset_state(lfc_mode_t mode) {
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, mode, 4, 3);
  if (mode == LFC_MODE_PFC) {
    c.wd_enable = true;
    c.wd_detect = 20;
    c.wd_restore = 20;
  }
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  assert_non_null(sw);
  check_zero(sw, &c, "after create");
  traffic(sw, &c, 200);
  lfc_word_t first[LFC_MAX_PORTS] = {0}; /* a packet of several blocks, being received */
  first[0] = (lfc_word_t){.kind = LFC_DATA, .sop = 1, .nblk = 4, .dst = 1, .tag = 1};
  lfc_switch_step(sw, first, NULL);
  assert_int_equal(lfc_switch_receiving(sw), 1u);
  lfc_switch_reset(sw);
  check_zero(sw, &c, "after reset");
  assert_int_equal(lfc_switch_receiving(sw), 0u);
  /* And it behaves like a new switch: the same outputs for the same inputs. */
  lfc_switch_t *fresh = lfc_switch_create(&c, err, sizeof err);
  assert_non_null(fresh);
  lfc_word_t in[LFC_MAX_PORTS], o1[LFC_MAX_PORTS], o2[LFC_MAX_PORTS];
  for (unsigned t = 0; t < 300; t++) {
    memset(in, 0, sizeof in);
    in[t % c.ports].kind = LFC_DATA;
    in[t % c.ports].sop = in[t % c.ports].eop = 1;
    in[t % c.ports].nblk = 1;
    in[t % c.ports].cls = (uint8_t)(t % c.classes);
    in[t % c.ports].dst = (uint16_t)((t / 3) % c.ports);
    in[t % c.ports].tag = t;
    lfc_switch_step(sw, in, o1);
    lfc_switch_step(fresh, in, o2);
    for (uint32_t p = 0; p < c.ports; p++)
      if (!lfc_word_equal(&o1[p], &o2[p])) fail_msg("cycle %u port %u: reset != new", t, p);
  }
  lfc_switch_destroy(fresh);
  lfc_switch_destroy(sw);
}

/* A reset returns every packet descriptor: a switch filled to the last block, reset, can be filled
   to the last block again (and again), holding as many packets each time. IB, because a port
   without an FCP from its partner has no credit (SPEC §5.3), so nothing leaves: every (port, VL)
   fills to vl_blocks with one-block packets sent regardless of credit. */
static void test_reset_returns_every_descriptor(void **state) {
  (void)state;
  enum { DESC_PORTS = 3, DESC_CLASSES = 2, DESC_VL_BLOCKS = 64, DESC_ROUNDS = 3 };
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, DESC_PORTS, DESC_CLASSES);
  c.mtu_blocks = 1;
  for (uint32_t v = 0; v < DESC_CLASSES; v++) c.vl_blocks[v] = DESC_VL_BLOCKS;
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  if (sw == NULL) fail_msg("%s", err);
  const unsigned cycles = 2u * DESC_CLASSES * DESC_VL_BLOCKS; /* one packet per port and cycle */
  int occ = lfc_reg_find("occ");
  assert_true(occ >= 0);
  for (unsigned round = 0; round < DESC_ROUNDS; round++) {
    traffic(sw, &c, cycles);
    for (uint32_t p = 0; p < DESC_PORTS; p++)
      for (uint32_t v = 0; v < DESC_CLASSES; v++)
        assert_int_equal(lfc_switch_reg(sw, (size_t)occ, p, v), DESC_VL_BLOCKS);
    lfc_switch_reset(sw);
  }
  lfc_switch_destroy(sw);
}

static void test_reset_state_pfc(void **state) {
  (void)state;
  reset_state(LFC_MODE_PFC);
}

static void test_reset_state_ib(void **state) {
  (void)state;
  reset_state(LFC_MODE_IB);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ib_reset_sends_fcp_per_vl),
      cmocka_unit_test(test_ib_cut_through_latency),
      cmocka_unit_test(test_pfc_packet_flows),
      cmocka_unit_test(test_pfc_xoff_frame_on_threshold),
      TU_TEST(test_outputs_do_not_see_same_cycle_inputs),
      TU_TEST(test_reset_returns_to_reset_state),
      cmocka_unit_test(test_step_writes_every_output),
      cmocka_unit_test(test_step_every_port_of_the_largest_switch),
      cmocka_unit_test(test_step_ports_ignores_bits_beyond_the_ports),
      cmocka_unit_test(test_step_ports_predicts_only_the_due_block),
      cmocka_unit_test(test_advance_after_a_gap_takes_the_overdue_block_first),
      cmocka_unit_test(test_predicted_blocks_count_before_a_given_one),
      cmocka_unit_test(test_overdue_port_start_is_an_event),
      cmocka_unit_test(test_reset_state_pfc),
      cmocka_unit_test(test_reset_returns_every_descriptor),
      cmocka_unit_test(test_reset_state_ib),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
