/*
 * test_switch_smoke.c - end-to-end directed tests of the switch (docs/SPEC.md): the first
 * things a user sees. The corner cases of each rule live in the other test files.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lfc/switch.h"

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ib_reset_sends_fcp_per_vl),
      cmocka_unit_test(test_ib_cut_through_latency),
      cmocka_unit_test(test_pfc_packet_flows),
      cmocka_unit_test(test_pfc_xoff_frame_on_threshold),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
