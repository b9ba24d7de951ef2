/*
 * test_credit_tx.c - InfiniBand credit transmit (cmodel/src/credit_tx.c, docs/SPEC.md §5.2,
 * §5.3, §5.6): the send rule at its boundaries and for each new head, FCTBS mod 4096, credit
 * returned by an FCP after a departure, VL15 outside flow control (never counted
 * credit-blocked, FCTBS unchanged), and the credit rules every cycle of random traffic. All
 * scenarios run in IB mode; timings as in test_credit_rx.c (§1.3, §4.1, §7.3).
 */

#include "testutil.h"
#include "credit_testutil.h"

#include <string.h>


/* ---- §5.3 the send rule, at the switch ---- */

/* SPEC §5.3: a 10-block packet waits while fccl = 9 (CR = 10, (9 - 10) mod 4096 = 4095 > 2048) and
 * starts in the cycle after an FCP raises fccl to 10 (CR = fccl). Cycles: packet on port 0 in
 * 3..12, ready 13; blocked 13..40 (counted in credit_blocked_cycles: 28 cycles 13..40); FCP received
 * in 40, fccl = 10 in S(41), start 41. Then (§5.5) fctbs 10 != fcp_sent_fctbs: FCP after the
 * packet, in cycle 51, with fc_fctbs 10. */
static void test_send_rule_boundary_exact_credit(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 2);
  tu_fcp(t, 1, 0, 0, 9);
  tu_at(t, 0, 3);
  tu_pkt(t, 0, 0, 10, 1, 77, 0);
  tu_run_to(t, 40);
  assert_int_equal(tu_reg(t, "fccl", 1, 0), 9);
  assert_int_equal(tu_count_out(t, 1, LFC_DATA, 0, 40), 0);
  assert_int_equal(tu_stats(t, 1)->cls[0].credit_blocked_cycles, 40 - 13);
  tu_at(t, 1, 40);
  tu_fcp(t, 1, 0, 0, 10);
  tu_run_to(t, 60);
  const tu_out_t *o = tu_find_sop(t, 1, 77);
  assert_non_null(o);
  assert_int_equal(o->cycle, 41);
  for (uint64_t k = 41; k <= 50; k++) {
    lfc_word_t w = tu_out_at(t, 1, k);
    assert_int_equal(w.kind, LFC_DATA);
    assert_int_equal(w.tag, 77);
    assert_int_equal(w.eop, k == 50);
  }
  assert_int_equal(tu_reg(t, "fctbs", 1, 0), 10);
  expect_fcp(t, 1, 51, 0, 10, 256);
  assert_int_equal(tu_stats(t, 1)->cls[0].credit_blocked_cycles, 41 - 13);
  tu_close(t);
}

/* SPEC §5.3: "never more than 2048 blocks outstanding": with fccl = 2048 from fctbs 0, sixteen
 * 128-block packets (2048 blocks, the last with CR = 2048 = fccl) all go; a 1-block packet after
 * them (CR 2049) does not, until an FCP brings fccl to 2049 (start in the next cycle). */
static void test_send_rule_boundary_2048_outstanding(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  c.mtu_blocks = 128;
  c.vl_blocks[0] = 4096;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 1);
  tu_fcp(t, 1, 0, 0, 2048);
  tu_at(t, 0, 2);
  for (uint32_t i = 0; i < 16; i++) tu_pkt(t, 0, 0, 128, 1, i, 0);
  tu_pkt(t, 0, 0, 1, 1, 16, 0);
  tu_run_to(t, 2400);
  for (uint32_t i = 0; i < 16; i++) {
    if (tu_find_sop(t, 1, i) == NULL) fail_msg("packet %u of the first 2048 blocks not sent", i);
  }
  assert_null(tu_find_sop(t, 1, 16));
  assert_int_equal(tu_reg(t, "fctbs", 1, 0), 2048);
  tu_at(t, 1, 2400);
  tu_fcp(t, 1, 0, 0, 2049);
  tu_run_to(t, 2410);
  const tu_out_t *o = tu_find_sop(t, 1, 16);
  assert_non_null(o);
  assert_int_equal(o->cycle, 2401);
  tu_close(t);
}

/* SPEC §5.3: the send rule is checked for each new head. A (1 block) and B (50 blocks) wait with
 * no credit; an FCP in 60 gives fccl 1: A starts in 61 (CR 1), B (CR 51) must wait; fccl 51 (FCP
 * in 100) lets B start in 101. */
static void test_send_rule_checked_for_each_new_head(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 4);
  tu_pkt(t, 0, 0, 1, 1, 0xA, 0);
  tu_pkt(t, 0, 0, 50, 1, 0xB, 0);
  tu_at(t, 1, 60);
  tu_fcp(t, 1, 0, 0, 1);
  tu_at(t, 1, 100);
  tu_fcp(t, 1, 0, 0, 51);
  tu_run_to(t, 100);
  assert_int_equal(tu_find_sop(t, 1, 0xA)->cycle, 61);
  assert_null(tu_find_sop(t, 1, 0xB));
  tu_run_to(t, 105);
  assert_int_equal(tu_find_sop(t, 1, 0xB)->cycle, 101);
  tu_close(t);
}

/* ---- §5.1 12-bit counters wrap at 4096 ---- */

/* SPEC §5.1, §5.3: FCTBS counts blocks sent mod 4096. 16 x 255 + 15 + 1 = 4096 blocks are sent;
 * the register steps 0, 255, ..., 4080, 4095, then 0. The test plays the peer on port 1, returning
 * credit with an FCP (fccl = blocks it received + 2048) every 32 cycles. */
static void test_fctbs_wraps_at_4096(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  c.mtu_blocks = 255;
  c.vl_blocks[0] = 8192;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  for (uint32_t i = 0; i < 16; i++) tu_pkt(t, 0, 0, 255, 1, i, 0);
  tu_pkt(t, 0, 0, 15, 1, 16, 0);
  tu_pkt(t, 0, 0, 1, 1, 17, 0);
  uint32_t seen[32];
  size_t nseen = 0;
  uint32_t rx_blocks = 0;
  seen[nseen++] = (uint32_t)tu_reg(t, "fctbs", 1, 0);
  while (tu_now(t) < 6000 && tu_find_sop(t, 1, 17) == NULL) {
    if (tu_now(t) % 32 == 2) tu_fcp(t, 1, 0, 0, (rx_blocks + 2048) & 0xFFFu);
    tu_step(t);
    if (t->last_out[1].kind == LFC_DATA) rx_blocks++;
    uint32_t v = (uint32_t)tu_reg(t, "fctbs", 1, 0);
    assert_true(v < 4096);
    if (v != seen[nseen - 1]) {
      assert_true(nseen < 32);
      seen[nseen++] = v;
    }
  }
  assert_non_null(tu_find_sop(t, 1, 17));
  assert_int_equal(nseen, 19);
  for (uint32_t i = 0; i <= 16; i++) assert_int_equal(seen[i], i * 255);
  assert_int_equal(seen[17], 4095);
  assert_int_equal(seen[18], 0);
  tu_close(t);
}

/* SPEC §5.4: occ decreases when the packet's first block leaves; the freed credit is advertised.
 * vl_blocks 65: a 10-block packet admitted in 3 leaves FCCL at 10 + 55 = 65 (no FCP); it starts
 * on port 1 in 13 (last block 12, latency 1), occ = 0 in S(14), FCCL 10 + 65 = 75 sent in 14. */
static void test_credit_returned_by_fcp_after_departure(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  c.vl_blocks[0] = 65;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 1);
  tu_fcp(t, 1, 0, 0, 2048);
  tu_at(t, 0, 3);
  tu_pkt(t, 0, 0, 10, 1, 5, 0);
  tu_run_to(t, 13);
  assert_int_equal(tu_reg(t, "occ", 0, 0), 10);
  assert_int_equal(tu_count_out(t, 0, LFC_FCP, 1, 13), 0);
  tu_run_to(t, 16);
  assert_int_equal(tu_find_sop(t, 1, 5)->cycle, 13);
  assert_int_equal(tu_reg(t, "occ", 0, 0), 0);
  expect_fcp(t, 0, 14, 0, 0, 75);
  tu_close(t);
}

/* SPEC §5.4, §5.6: VL15 needs no credit. No FCP ever reached port 1 (fccl 0), yet a 2-block VL15
 * packet received in 3..4 starts in 5; it leaves no FCTBS behind, so no FCP follows it. */
static void test_vl15_not_flow_controlled(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_ib(&c, 2, 1);
  c.vl15_blocks = 8;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 3);
  tu_pkt(t, 0, LFC_VL15, 2, 1, 0x15, 0);
  tu_run_to(t, 4);
  assert_int_equal(tu_reg(t, "occ15", 0, 0), 2);
  tu_run_to(t, 20);
  const tu_out_t *o = tu_find_sop(t, 1, 0x15);
  assert_non_null(o);
  assert_int_equal(o->cycle, 5);
  assert_int_equal(o->w.cls, 15);
  assert_int_equal(tu_out_at(t, 1, 6).eop, 1);
  assert_int_equal(tu_count_out(t, 1, LFC_FCP, 1, 20), 0);
  assert_int_equal(tu_reg(t, "occ15", 0, 0), 0);
  assert_int_equal(tu_reg(t, "fctbs", 1, 0), 0);
  tu_close(t);
}

/* ---- Every-cycle check of §5.2-§5.5 under random traffic ---- */

enum { IP = 3, IC = 3 };

/* SPEC §5.2-§5.5: random traffic from peers that obey the credit the switch advertises (and
 * return credit as infinite sinks, fccl = their ABR + 2048). Before each step the registers of
 * S(t) give, per the SPEC, the expected output of every port: the next block while tx_rem > 0;
 * else an FCP of the lowest pending VL (fctbs != fcp_sent_fctbs or FCCL != fcp_sent_fccl or
 * fcp_timer = 0, FCCL = abr + min(vl_blocks - occ, 2048) mod 4096) with those fields; else no FCP,
 * and a data packet only if the send rule holds for its VL. After the step: FCTBS grew by the
 * started packet, ABR by each first block received or took fc_fctbs, FCCL took fc_fccl; no
 * CREDIT drop ever happens (§10). */
static void test_random_traffic_credit_rules_hold_every_cycle(void **state) {
  (void)state;
  const uint32_t seed = 0x1B0C0DE5u;
  print_message("random IB oracle: seed 0x%08x\n", seed);
  lfc_switch_cfg_t c;
  cfg_ib(&c, IP, IC);
  c.mtu_blocks = 16;
  c.vl_blocks[0] = 40;
  c.vl_blocks[1] = 100;
  c.vl_blocks[2] = 3000;
  c.vl15_blocks = 32;
  c.fcp_period = 150;
  c.latency = 2;
  c.vlarb_high_len = 1;
  c.vlarb_high[0] = (lfc_vlarb_entry_t){2, 8};
  c.vlarb_high_limit = 1;
  tu_t *t = tu_open(&c);
  size_t r_fctbs = tu_reg_idx("fctbs"), r_fccl = tu_reg_idx("fccl"), r_abr = tu_reg_idx("abr"),
         r_occ = tu_reg_idx("occ"), r_sf = tu_reg_idx("fcp_sent_fctbs"),
         r_sc = tu_reg_idx("fcp_sent_fccl"), r_tm = tu_reg_idx("fcp_timer"),
         r_txrem = tu_reg_idx("tx_rem");
  uint32_t s = seed;
  uint32_t peer_fctbs[IP][IC] = {{0}}, peer_fccl[IP][IC] = {{0}}, peer_abr[IP][IC] = {{0}};
  uint32_t left[IP] = {0};
  lfc_word_t cur[IP];
  memset(cur, 0, sizeof cur);
  uint64_t sent_data = 0, periodic = 0, fcps = 0;
  for (uint64_t cyc = 0; cyc < 8000; cyc++) {
    uint32_t fctbs[IP][IC], fccl[IP][IC], abr[IP][IC], exp_fccl[IP][IC];
    bool pend[IP][IC];
    uint64_t txrem[IP];
    for (uint32_t p = 0; p < IP; p++) {
      txrem[p] = lfc_switch_reg(t->sw, r_txrem, p, 0);
      for (uint32_t v = 0; v < IC; v++) {
        fctbs[p][v] = (uint32_t)lfc_switch_reg(t->sw, r_fctbs, p, v);
        fccl[p][v] = (uint32_t)lfc_switch_reg(t->sw, r_fccl, p, v);
        abr[p][v] = (uint32_t)lfc_switch_reg(t->sw, r_abr, p, v);
        uint32_t fr = c.vl_blocks[v] - (uint32_t)lfc_switch_reg(t->sw, r_occ, p, v);
        exp_fccl[p][v] = (abr[p][v] + (fr < 2048u ? fr : 2048u)) % 4096u;
        uint64_t timer = lfc_switch_reg(t->sw, r_tm, p, v);
        pend[p][v] = fctbs[p][v] != lfc_switch_reg(t->sw, r_sf, p, v) ||
                     exp_fccl[p][v] != lfc_switch_reg(t->sw, r_sc, p, v) || timer == 0;
        periodic += (timer == 0 && txrem[p] == 0 && p == 0 && cyc > 0);
      }
    }
    /* the peers' words */
    lfc_word_t in[IP];
    memset(in, 0, sizeof in);
    for (uint32_t p = 0; p < IP; p++) {
      if (left[p] > 0) {
        in[p] = cur[p];
        in[p].sop = 0;
        in[p].eop = left[p] == 1;
        left[p]--;
      } else if (tu_rand(&s) % 100 < 8) {
        uint32_t v = tu_rand(&s) % IC;
        in[p].kind = LFC_FCP;
        in[p].fc_vl = (uint8_t)v;
        in[p].fc_fctbs = (uint16_t)peer_fctbs[p][v];
        in[p].fc_fccl = (uint16_t)((peer_abr[p][v] + 2048u) % 4096u);
      } else if (tu_rand(&s) % 100 < 40) {
        uint32_t v = tu_rand(&s) % 8;
        v = v < IC ? v : (v == 7 ? LFC_VL15 : tu_rand(&s) % IC);
        uint32_t n = 1 + tu_rand(&s) % 16, dst = tu_rand(&s) % IP;
        bool ok = v == LFC_VL15;
        if (!ok) {
          uint32_t cr = (peer_fctbs[p][v] + n) % 4096u;
          ok = ((peer_fccl[p][v] - cr) & 4095u) <= 2048u; /* the peer obeys §5.3 */
        }
        if (ok) {
          in[p] = tu_data_word(1, n == 1, v, n, dst, (uint32_t)cyc, 0);
          if (v != LFC_VL15) peer_fctbs[p][v] = (peer_fctbs[p][v] + n) % 4096u;
          cur[p] = in[p];
          left[p] = n - 1;
        }
      }
    }
    for (uint32_t p = 0; p < IP; p++) tu_word(t, p, &in[p]);
    tu_step(t);
    for (uint32_t p = 0; p < IP; p++) {
      const lfc_word_t *o = &t->last_out[p];
      int low = -1;
      for (uint32_t v = 0; v < IC && low < 0; v++) {
        if (pend[p][v]) low = (int)v;
      }
      if (txrem[p] > 0) {
        if (o->kind != LFC_DATA || o->sop) {
          fail_msg("cycle %llu port %u: tx_rem %llu but not a continuation block",
                   (unsigned long long)cyc, p, (unsigned long long)txrem[p]);
        }
      } else if (low >= 0) {
        if (o->kind != LFC_FCP || o->fc_vl != low || o->fc_fctbs != fctbs[p][low] ||
            o->fc_fccl != exp_fccl[p][low] || o->fc_op != 0) {
          char buf[160];
          fail_msg("cycle %llu port %u: expected FCP vl %d fctbs %u fccl %u, got %s",
                   (unsigned long long)cyc, p, low, fctbs[p][low], exp_fccl[p][low],
                   lfc_word_format(o, buf, sizeof buf));
        }
        fcps++;
      } else {
        assert_true(o->kind != LFC_FCP);
        if (o->kind == LFC_DATA) {
          assert_true(o->sop);
          if (o->cls != LFC_VL15) {
            uint32_t v = o->cls, cr = (fctbs[p][v] + o->nblk) % 4096u;
            if (((fccl[p][v] - cr) & 4095u) > 2048u) {
              fail_msg("cycle %llu port %u: VL%u packet of %u started with fctbs %u fccl %u",
                       (unsigned long long)cyc, p, v, o->nblk, fctbs[p][v], fccl[p][v]);
            }
            assert_int_equal(lfc_switch_reg(t->sw, r_fctbs, p, v), cr);
            sent_data++;
          }
        }
      }
      /* the peer side of the link */
      if (o->kind == LFC_FCP && o->fc_vl < IC) peer_fccl[p][o->fc_vl] = o->fc_fccl;
      if (o->kind == LFC_DATA && o->cls < IC) peer_abr[p][o->cls] = (peer_abr[p][o->cls] + 1u) % 4096u;
      /* receive side */
      if (in[p].kind == LFC_FCP) {
        assert_int_equal(lfc_switch_reg(t->sw, r_fccl, p, in[p].fc_vl), in[p].fc_fccl);
        assert_int_equal(lfc_switch_reg(t->sw, r_abr, p, in[p].fc_vl), in[p].fc_fctbs);
      } else if (in[p].kind == LFC_DATA && in[p].sop && in[p].cls < IC) {
        assert_int_equal(lfc_switch_reg(t->sw, r_abr, p, in[p].cls),
                         (abr[p][in[p].cls] + in[p].nblk) % 4096u);
      }
      for (uint32_t v = 0; v < IC; v++) {
        assert_true(lfc_switch_reg(t->sw, r_occ, p, v) <= c.vl_blocks[v]);
      }
    }
  }
  print_message("  %llu data packets, %llu FCPs, periodic due %llu times\n",
                (unsigned long long)sent_data, (unsigned long long)fcps,
                (unsigned long long)periodic);
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, LFC_DROP_CREDIT), 0);
  assert_true(sent_data > 500);
  assert_true(periodic > 0);
  tu_close(t);
}

enum { PKTS = 4, NBLK = 3, IN0 = 0, IN1 = 2, OUT = 1 };

static void test_queued_vl15_packets_leave_unblocked(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_ib(&c, 3, 1);
  c.vl15_blocks = PKTS * NBLK;
  c.latency = 2;
  tu_t *t = tu_open(&c);
  /* Two ingress ports each send two VL15 packets to port OUT at once: they queue there. */
  for (uint32_t i = 0; i < PKTS / 2; i++) {
    tu_pkt(t, IN0, LFC_VL15, NBLK, OUT, 0x150 + i, 0);
    tu_pkt(t, IN1, LFC_VL15, NBLK, OUT, 0x160 + i, 0);
  }
  tu_run_to(t, 200);
  const tu_out_t *v[PKTS + 1];
  size_t n = tu_sops(t, OUT, 0, v, PKTS + 1);
  assert_int_equal(n, PKTS);
  for (size_t i = 0; i < n; i++) assert_int_equal(v[i]->w.cls, LFC_VL15);
  for (size_t i = 1; i < n; i++) assert_int_equal(v[i]->cycle, v[i - 1]->cycle + NBLK);
  const lfc_port_stats_t *s = tu_stats(t, OUT);
  assert_int_equal(s->cls[LFC_VL15].tx_pkts, PKTS);
  assert_int_equal(s->cls[LFC_VL15].credit_blocked_cycles, 0);
  assert_int_equal(s->cls[0].credit_blocked_cycles, 0);
  assert_int_equal(tu_reg(t, "fctbs", OUT, 0), 0);
  tu_close(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_send_rule_boundary_exact_credit),
      TU_TEST(test_send_rule_boundary_2048_outstanding),
      TU_TEST(test_send_rule_checked_for_each_new_head),
      TU_TEST(test_fctbs_wraps_at_4096),
      TU_TEST(test_credit_returned_by_fcp_after_departure),
      TU_TEST(test_vl15_not_flow_controlled),
      TU_TEST(test_random_traffic_credit_rules_hold_every_cycle),
      TU_TEST(test_queued_vl15_packets_leave_unblocked),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
