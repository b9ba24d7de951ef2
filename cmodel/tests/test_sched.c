/*
 * test_sched.c - PFC-mode egress scheduling (docs/SPEC.md §8): strict priority, DRR with unequal
 * quanta and carried deficit, the forfeit of leftover credit, and port speed slots (§1.2).
 *
 * Scenario "preload": egress port 3 is paused for every class in cycle 1; ports 0, 1, 2 send the
 * packets of classes 0, 1, 2 (cut-through, latency 1) from cycle 2; a resume frame in cycle R lets
 * the scheduler see every queue backlogged from cycle R + 1 on. Expected orders are worked out by
 * hand from §8.2 (drr_ptr resets to classes - 1, deficits to 0).
 */
#include "testutil.h"

#include <string.h>

static void cfg_sched(lfc_switch_cfg_t *c, uint32_t classes, uint32_t mtu) {
  tu_cfg_pfc(c, 4, classes);
  c->cut_through = true;
  c->mtu_blocks = mtu;
  for (uint32_t i = 0; i < 8; i++) c->drr_quantum[i] = mtu;
}

/* n[c] packets of size[c] blocks for each class c (port c); returns the resume cycle R. */
static uint64_t preload(tu_t *t, uint32_t classes, const uint32_t *n, const uint32_t *size) {
  tu_at(t, 3, 1);
  tu_pfc(t, 3, (1u << classes) - 1u, 65535);
  uint64_t end = 2;
  for (uint32_t c = 0; c < classes; c++) {
    tu_at(t, c, 2);
    for (uint32_t i = 0; i < n[c]; i++) tu_pkt(t, c, c, size[c], 3, (c << 16) | i, 0);
    if (tu_cursor(t, c) > end) end = tu_cursor(t, c);
  }
  uint64_t r = end + 1;
  tu_at(t, 3, r);
  tu_pfc(t, 3, (1u << classes) - 1u, 0);
  return r;
}

static void expect_order(const tu_t *t, const uint8_t *cls, size_t n) {
  const tu_out_t *v[256];
  size_t got = tu_sops(t, 3, 0, v, 256);
  if (got < n) fail_msg("only %zu packets left port 3, expected %zu", got, n);
  for (size_t i = 0; i < n; i++) {
    if (v[i]->w.cls != cls[i]) {
      fail_msg("packet %zu left on class %u, expected class %u", i, v[i]->w.cls, cls[i]);
    }
  }
}

/* SPEC §8.2: DRR with quanta 1 and 3 (1-block packets). drr_ptr = 1, deficits 0: rule 1 fails
 * (deficit[1] = 0), rule 2 picks class 0 (deficit 1, spent), then class 1 (3 packets), ...: the
 * order 0,1,1,1 repeats, a 1 : 3 share. After the first start drr_ptr = 0, deficit[0] = 0. */
static void test_drr_unequal_quanta_share(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_sched(&c, 2, 1);
  c.drr_quantum[0] = 1;
  c.drr_quantum[1] = 3;
  tu_t *t = tu_open(&c);
  static const uint32_t n[2] = {20, 40}, size[2] = {1, 1};
  uint64_t r = preload(t, 2, n, size);
  tu_run_to(t, r + 1);
  assert_int_equal(tu_reg(t, "drr_ptr", 3, 0), 1);
  tu_run_to(t, r + 2);
  assert_int_equal(tu_reg(t, "drr_ptr", 3, 0), 0);
  assert_int_equal(tu_reg(t, "deficit", 3, 0), 0);
  tu_run_to(t, r + 3);
  assert_int_equal(tu_reg(t, "drr_ptr", 3, 0), 1);
  assert_int_equal(tu_reg(t, "deficit", 3, 1), 2);
  tu_run_to(t, r + 60);
  uint8_t cls[40];
  for (int i = 0; i < 40; i++) cls[i] = (i % 4) ? 1 : 0;
  expect_order(t, cls, 40);
  tu_close(t);
}

/* SPEC §8.2: carried (negative) deficit. mtu 4, quanta 4 and 6, class 0 packets of 3 blocks,
 * class 1 of 4. By hand (deficits after each start):
 *  c0 new turn 4 -> 1; c0 -> -2; c1 new 6 -> 2; c1 -> -2; c0 new -2+4=2 -> -1; c1 -2+6=4 -> 0;
 *  c0 -1+4=3 -> 0; c1 0+6=6 -> 2; c1 -> -2; c0 0+4=4 -> 1; c0 -> -2; c1 -2+6=4 -> 0; ...
 * A deficit of -2 reads as 0xFFFE (16-bit two's complement). */
static void test_drr_carried_deficit_sequence(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_sched(&c, 2, 4);
  c.drr_quantum[0] = 4;
  c.drr_quantum[1] = 6;
  tu_t *t = tu_open(&c);
  static const uint32_t n[2] = {14, 14}, size[2] = {3, 4};
  uint64_t r = preload(t, 2, n, size);
  /* first packet (class 0, 3 blocks) in r+1, second in r+4: deficit[0] = -2 after it */
  tu_run_to(t, r + 5);
  assert_int_equal(tu_reg(t, "deficit", 3, 0), 0xFFFE);
  tu_run_to(t, r + 120);
  static const uint8_t cls[24] = {0, 0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1,
                                  0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0};
  expect_order(t, cls, 24);
  tu_close(t);
}

/* SPEC §8.2 rule 2: "leftover credit from a turn that lost eligibility is forfeited". Quanta 10:
 * a lone class-0 packet leaves deficit[0] = 9; a lone class-1 packet takes the pointer; the next
 * class-0 packet starts a new turn with min(9, 0) + 10 = 10, so 9 after it (not 18). */
static void test_drr_leftover_deficit_forfeited(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_sched(&c, 2, 1);
  c.drr_quantum[0] = 10;
  c.drr_quantum[1] = 10;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 1, 3, 1, 0); /* starts in 3 */
  tu_at(t, 1, 10);
  tu_pkt(t, 1, 1, 1, 3, 2, 0); /* starts in 11 */
  tu_at(t, 0, 20);
  tu_pkt(t, 0, 0, 1, 3, 3, 0); /* starts in 21 */
  tu_run_to(t, 4);
  assert_int_equal(tu_find_sop(t, 3, 1)->cycle, 3);
  assert_int_equal(tu_reg(t, "deficit", 3, 0), 9);
  assert_int_equal(tu_reg(t, "drr_ptr", 3, 0), 0);
  tu_run_to(t, 12);
  assert_int_equal(tu_reg(t, "deficit", 3, 1), 9);
  assert_int_equal(tu_reg(t, "drr_ptr", 3, 0), 1);
  tu_run_to(t, 22);
  assert_int_equal(tu_find_sop(t, 3, 3)->cycle, 21);
  assert_int_equal(tu_reg(t, "deficit", 3, 0), 9);
  assert_int_equal(tu_reg(t, "drr_ptr", 3, 0), 0);
  tu_close(t);
}

/* SPEC §8.2: strict priorities first. strict_mask 0x4: all ten class-2 packets leave before any
 * other; then DRR over classes 0, 1 (quanta 1) from drr_ptr = 2: class 0 first, alternating. */
static void test_strict_priority_before_drr(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_sched(&c, 3, 1);
  c.strict_mask = 0x04;
  tu_t *t = tu_open(&c);
  static const uint32_t n[3] = {10, 10, 10}, size[3] = {1, 1, 1};
  uint64_t r = preload(t, 3, n, size);
  tu_run_to(t, r + 40);
  uint8_t cls[30];
  for (int i = 0; i < 10; i++) cls[i] = 2;
  for (int i = 10; i < 30; i++) cls[i] = (uint8_t)((i - 10) % 2);
  expect_order(t, cls, 30);
  tu_close(t);
}

/* SPEC §8.2: among strict priorities the highest eligible index wins, and every strict class
 * beats the DRR classes, whatever their index: strict_mask 0x3 sends class 1, then 0, then 2. */
static void test_strict_highest_index_wins(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_sched(&c, 3, 1);
  c.strict_mask = 0x03;
  tu_t *t = tu_open(&c);
  static const uint32_t n[3] = {5, 5, 5}, size[3] = {1, 1, 1};
  uint64_t r = preload(t, 3, n, size);
  tu_run_to(t, r + 25);
  static const uint8_t cls[15] = {1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2};
  expect_order(t, cls, 15);
  tu_close(t);
}

/* SPEC §8.1: a paused class is not eligible: resuming only class 1 lets its packets go while
 * class 0 (higher DRR turn order) stays. */
static void test_paused_class_not_eligible(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_sched(&c, 2, 1);
  tu_t *t = tu_open(&c);
  tu_at(t, 3, 1);
  tu_pfc(t, 3, 0x03, 65535);
  tu_at(t, 0, 2);
  for (uint32_t i = 0; i < 5; i++) tu_pkt(t, 0, 0, 1, 3, i, 0);
  tu_at(t, 1, 2);
  for (uint32_t i = 0; i < 5; i++) tu_pkt(t, 1, 1, 1, 3, 100 + i, 0);
  tu_at(t, 3, 10);
  tu_pfc(t, 3, 0x02, 0);
  tu_run_to(t, 30);
  const tu_out_t *v[16];
  assert_int_equal(tu_sops(t, 3, 0, v, 16), 5);
  for (int i = 0; i < 5; i++) {
    assert_int_equal(v[i]->w.cls, 1);
    assert_int_equal(v[i]->cycle, 11 + i);
  }
  tu_close(t);
}

/* SPEC §1.2: a port with speed_div k sends only in slots t mod k = 0, one block per slot.
 * Port 1 at k = 3 (store-and-forward): a 5-block packet received in 2..6 is ready in 7 and sent
 * in 9, 12, 15, 18, 21, idle in between. */
static void test_speed_div_slots_data(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_pfc(&c, 2, 2);
  c.speed_div[1] = 3;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 5, 1, 0x33, 0);
  tu_run_to(t, 30);
  for (uint64_t k = 0; k < 30; k++) {
    lfc_word_t w = tu_out_at(t, 1, k);
    bool expect = (k >= 9 && k <= 21 && k % 3 == 0);
    assert_int_equal(w.kind, expect ? LFC_DATA : LFC_IDLE);
    if (expect) {
      assert_int_equal(w.sop, k == 9);
      assert_int_equal(w.eop, k == 21);
    }
  }
  tu_close(t);
}

/* SPEC §1.2, §5.5: flow-control words also wait for slots: with k = 2 the reset FCPs of three VLs
 * leave in cycles 0, 2, 4. */
static void test_speed_div_slots_fcp(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_ib(&c, 2, 3);
  for (int p = 0; p < 2; p++) c.speed_div[p] = 2;
  tu_t *t = tu_open(&c);
  tu_run_to(t, 8);
  for (uint64_t k = 0; k < 8; k++) {
    lfc_word_t w = tu_out_at(t, 0, k);
    if (k % 2 == 0 && k <= 4) {
      assert_int_equal(w.kind, LFC_FCP);
      assert_int_equal(w.fc_vl, k / 2);
    } else {
      assert_int_equal(w.kind, LFC_IDLE);
    }
  }
  tu_close(t);
}

/* ---- Every-cycle check of §8 under random traffic ---- */

/* SPEC §8.1-§8.2, §5.2: random packets (1..8 blocks, 4 classes, class 3 strict) into 4 ports with
 * random pause frames. Before every step, from S(t) (qpkts, pause_timer, drr_ptr, deficit, tx_rem
 * read as registers) the SPEC gives each port's transmit decision: a continuation block while
 * tx_rem > 0; else the highest eligible strict class; else DRR (rule 1: drr_ptr if eligible with
 * deficit > 0; rule 2: the first eligible class after drr_ptr, new turn); else IDLE. After the step
 * deficit and drr_ptr are as §8.2 says. */
static void test_random_traffic_scheduler_follows_spec(void **state) {
  (void)state;
  enum { SP = 4, SC = 4 };
  const uint32_t seed = 0xD22D22u;
  print_message("random scheduler oracle: seed 0x%08x\n", seed);
  lfc_switch_cfg_t c;
  tu_cfg_pfc(&c, SP, SC);
  c.cut_through = true;
  c.latency = 2;
  c.mtu_blocks = 8;
  c.strict_mask = 0x08;
  static const uint32_t quantum[SC] = {8, 13, 30, 8};
  for (uint32_t k = 0; k < SC; k++) c.drr_quantum[k] = quantum[k];
  tu_t *t = tu_open(&c);
  size_t r_q = tu_reg_idx("qpkts"), r_pt = tu_reg_idx("pause_timer"), r_ptr = tu_reg_idx("drr_ptr"),
         r_def = tu_reg_idx("deficit"), r_rem = tu_reg_idx("tx_rem");
  uint32_t s = seed, left[SP] = {0}, tag = 1;
  lfc_word_t cur[SP];
  memset(cur, 0, sizeof cur);
  uint64_t picks[3] = {0, 0, 0}; /* strict, continue, new turn */
  for (uint64_t cyc = 0; cyc < 8000; cyc++) {
    bool elig[SP][SC];
    int32_t def[SP][SC];
    uint32_t ptr[SP];
    uint64_t rem[SP];
    for (uint32_t p = 0; p < SP; p++) {
      ptr[p] = (uint32_t)lfc_switch_reg(t->sw, r_ptr, p, 0);
      rem[p] = lfc_switch_reg(t->sw, r_rem, p, 0);
      for (uint32_t k = 0; k < SC; k++) {
        elig[p][k] = lfc_switch_reg(t->sw, r_q, p, k) > 0 && lfc_switch_reg(t->sw, r_pt, p, k) == 0;
        def[p][k] = (int16_t)(uint16_t)lfc_switch_reg(t->sw, r_def, p, k);
      }
    }
    lfc_word_t in[SP];
    memset(in, 0, sizeof in);
    for (uint32_t p = 0; p < SP; p++) {
      if (left[p] > 0) {
        in[p] = cur[p];
        in[p].sop = 0;
        in[p].eop = left[p] == 1;
        left[p]--;
      } else if (tu_rand(&s) % 100 < 4) {
        in[p].kind = LFC_PFC;
        in[p].pfc_en = (uint8_t)(tu_rand(&s) & 0xFu);
        for (int k = 0; k < SC; k++) in[p].pfc_time[k] = (uint16_t)(tu_rand(&s) % 40);
      } else if (tu_rand(&s) % 100 < 45) {
        uint32_t n = 1 + tu_rand(&s) % 8, k = tu_rand(&s) % 16;
        k = k < 2 ? 3 : k % 3; /* class 3 (strict) 1/8 of the time */
        in[p] = tu_data_word(1, n == 1, k, n, tu_rand(&s) % SP, tag++, 0);
        cur[p] = in[p];
        left[p] = n - 1;
      }
    }
    for (uint32_t p = 0; p < SP; p++) tu_word(t, p, &in[p]);
    tu_step(t);
    for (uint32_t p = 0; p < SP; p++) {
      const lfc_word_t *o = &t->last_out[p];
      if (rem[p] > 0) {
        assert_true(o->kind == LFC_DATA && !o->sop);
        continue;
      }
      int want = -1, kind = -1;
      for (int k = SC - 1; k >= 0 && want < 0; k--) {
        if (elig[p][k] && ((c.strict_mask >> k) & 1u)) want = k, kind = 0;
      }
      if (want < 0) {
        uint32_t q = ptr[p];
        bool drr_ok = elig[p][q] && !((c.strict_mask >> q) & 1u);
        if (drr_ok && def[p][q] > 0) {
          want = (int)q, kind = 1;
        } else {
          for (uint32_t i = 1; i <= SC && want < 0; i++) {
            uint32_t k = (q + i) % SC;
            if (elig[p][k] && !((c.strict_mask >> k) & 1u)) want = (int)k, kind = 2;
          }
        }
      }
      int got = (o->kind == LFC_DATA && o->sop) ? o->cls : -1;
      if (got != want) {
        fail_msg("cycle %llu port %u: started class %d, SPEC §8.2 picks %d (drr_ptr %u, "
                 "deficits %d %d %d %d)",
                 (unsigned long long)cyc, p, got, want, ptr[p], def[p][0], def[p][1], def[p][2],
                 def[p][3]);
      }
      uint32_t eptr = ptr[p];
      int32_t edef[SC];
      memcpy(edef, def[p], sizeof edef);
      if (kind >= 0) picks[kind]++;
      if (kind == 2) {
        edef[want] = (edef[want] < 0 ? edef[want] : 0) + (int32_t)quantum[want];
        eptr = (uint32_t)want;
      }
      if (kind >= 1) edef[want] -= o->nblk;
      assert_int_equal(lfc_switch_reg(t->sw, r_ptr, p, 0), eptr);
      for (uint32_t k = 0; k < SC; k++) {
        int32_t d = (int16_t)(uint16_t)lfc_switch_reg(t->sw, r_def, p, k);
        if (d != edef[k]) {
          fail_msg("cycle %llu port %u class %u: deficit %d, SPEC §8.2 gives %d",
                   (unsigned long long)cyc, p, k, d, edef[k]);
        }
      }
    }
  }
  print_message("  picks: %llu strict, %llu turn goes on, %llu new turn\n",
                (unsigned long long)picks[0], (unsigned long long)picks[1],
                (unsigned long long)picks[2]);
  assert_true(picks[0] > 100 && picks[1] > 100 && picks[2] > 100);
  tu_close(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_drr_unequal_quanta_share),
      TU_TEST(test_drr_carried_deficit_sequence),
      TU_TEST(test_drr_leftover_deficit_forfeited),
      TU_TEST(test_strict_priority_before_drr),
      TU_TEST(test_strict_highest_index_wins),
      TU_TEST(test_paused_class_not_eligible),
      TU_TEST(test_random_traffic_scheduler_follows_spec),
      TU_TEST(test_speed_div_slots_data),
      TU_TEST(test_speed_div_slots_fcp),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
