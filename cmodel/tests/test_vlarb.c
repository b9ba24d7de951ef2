/*
 * test_vlarb.c - IB VL arbitration (docs/SPEC.md §5.6): table weights, the high limit, VL15 strict
 * priority, and eligibility by credit.
 *
 * Common scenario: 3 ports, egress port 2; port 0 sends a stream on one VL and port 1 on another,
 * both starting in cycle 4, cut-through with latency 1, so both queues get their first packet in
 * the same cycle (entering in step F of 4, first decision in 5) and, because arrivals outpace the
 * egress (after each data packet the changed FCTBS puts an FCP on the link, §5.5), both stay
 * backlogged for the packets examined. Port 2 gets fccl 2048 for each data VL in cycles 0 and 1.
 */
#include "testutil.h"

#include <string.h>

static void cfg_vlarb(lfc_switch_cfg_t *c, uint32_t classes) {
  tu_cfg_ib(c, 3, classes);
  c->cut_through = true;
  c->latency = 1;
}

static void give_credit(tu_t *t, uint32_t classes) {
  tu_at(t, 2, 0);
  for (uint32_t v = 0; v < classes; v++) tu_fcp(t, 2, v, 0, 2048);
}

/* Port 0 sends n_a packets of size_a on cls_a, port 1 n_b of size_b on cls_b, from cycle 4. */
static void two_streams(tu_t *t, uint32_t cls_a, uint32_t size_a, uint32_t n_a, uint32_t cls_b,
                        uint32_t size_b, uint32_t n_b) {
  tu_at(t, 0, 4);
  tu_at(t, 1, 4);
  for (uint32_t i = 0; i < n_a; i++) tu_pkt(t, 0, cls_a, size_a, 2, 0x1000 + i, 0);
  for (uint32_t i = 0; i < n_b; i++) tu_pkt(t, 1, cls_b, size_b, 2, 0x2000 + i, 0);
}

/* The classes of the first `n` packets started on port 2; fails if fewer started. */
static void egress_classes(const tu_t *t, uint8_t *cls, size_t n) {
  const tu_out_t *v[512];
  assert_true(n <= 512);
  size_t got = tu_sops(t, 2, 0, v, 512);
  if (got < n) fail_msg("only %zu packets left port 2, expected at least %zu", got, n);
  for (size_t i = 0; i < n; i++) cls[i] = v[i]->w.cls;
}

static void expect_pattern(const uint8_t *cls, size_t n, const uint8_t *pat, size_t plen) {
  for (size_t i = 0; i < n; i++) {
    if (cls[i] != pat[i % plen]) {
      fail_msg("packet %zu left on VL %u, expected VL %u (pattern repeats every %zu)", i, cls[i],
               pat[i % plen], plen);
    }
  }
}

/* SPEC §5.6 step 2: from reset (lo_idx 0, lo_rem 0) entry 0 cannot continue a turn, so the search
 * starts at entry 1: with low = [(VL0, 2), (VL1, 6)] and 1-block packets the order is six VL1,
 * two VL0, repeated - the share of the table. After the first packet lo_idx = 1, lo_rem = 5. */
static void test_vlarb_weights_share_of_packets(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_vlarb(&c, 2);
  c.vlarb_low_len = 2;
  c.vlarb_low[0] = (lfc_vlarb_entry_t){0, 2};
  c.vlarb_low[1] = (lfc_vlarb_entry_t){1, 6};
  tu_t *t = tu_open(&c);
  give_credit(t, 2);
  two_streams(t, 0, 1, 64, 1, 1, 64);
  tu_run_to(t, 6);
  assert_int_equal(tu_find_sop(t, 2, 0x2000)->cycle, 5);
  assert_int_equal(tu_reg(t, "lo_idx", 2, 0), 1);
  assert_int_equal(tu_reg(t, "lo_rem", 2, 0), 5);
  tu_run_to(t, 200);
  uint8_t cls[64];
  egress_classes(t, cls, 64);
  static const uint8_t pat[8] = {1, 1, 1, 1, 1, 1, 0, 0};
  expect_pattern(cls, 64, pat, 8);
  tu_close(t);
}

/* SPEC §5.6: weights are in blocks: low = [(VL0, 4), (VL1, 12)] with 4-block packets sends one
 * VL0 packet per three VL1 packets: blocks 4 : 12 per round, the ratio of the weights. */
static void test_vlarb_weights_share_of_blocks(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_vlarb(&c, 2);
  c.vlarb_low_len = 2;
  c.vlarb_low[0] = (lfc_vlarb_entry_t){0, 4};
  c.vlarb_low[1] = (lfc_vlarb_entry_t){1, 12};
  tu_t *t = tu_open(&c);
  give_credit(t, 2);
  two_streams(t, 0, 4, 24, 1, 4, 24);
  tu_run_to(t, 200);
  uint8_t cls[16];
  egress_classes(t, cls, 16);
  static const uint8_t pat[4] = {1, 1, 1, 0};
  expect_pattern(cls, 16, pat, 4);
  uint32_t blocks[2] = {0, 0};
  for (int i = 0; i < 16; i++) blocks[cls[i]] += 4;
  assert_int_equal(blocks[0] * 3, blocks[1]);
  tu_close(t);
}

/* SPEC §5.6 step 4: rem <= rem - min(rem, n): a packet longer than the remaining weight is still
 * sent whole, and the turn ends (no negative carry). Weights 1 and 1 with 4-block packets
 * alternate VL1, VL0, VL1, ... */
static void test_vlarb_packet_longer_than_weight_sent_whole(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_vlarb(&c, 2);
  c.vlarb_low_len = 2;
  c.vlarb_low[0] = (lfc_vlarb_entry_t){0, 1};
  c.vlarb_low[1] = (lfc_vlarb_entry_t){1, 1};
  tu_t *t = tu_open(&c);
  give_credit(t, 2);
  two_streams(t, 0, 4, 12, 1, 4, 12);
  tu_run_to(t, 8);
  assert_int_equal(tu_reg(t, "lo_rem", 2, 0), 0);
  tu_run_to(t, 150);
  uint8_t cls[16];
  egress_classes(t, cls, 16);
  static const uint8_t pat[2] = {1, 0};
  expect_pattern(cls, 16, pat, 2);
  /* every packet is sent whole: 4 consecutive blocks from its sop */
  const tu_out_t *v[16];
  tu_sops(t, 2, 0, v, 16);
  for (int i = 0; i < 16; i++) {
    for (uint64_t k = 1; k < 4; k++) {
      lfc_word_t w = tu_out_at(t, 2, v[i]->cycle + k);
      assert_int_equal(w.kind, LFC_DATA);
      assert_int_equal(w.tag, v[i]->w.tag);
    }
  }
  tu_close(t);
}

/* SPEC §5.6 step 2: an entry of weight 0 is skipped. low = [(VL0, 0), (VL1, 2), (VL0, 3)]:
 * VL1 twice (entry 1), VL0 three times (entry 2), entry 0 skipped, repeat. */
static void test_vlarb_weight_zero_entry_skipped(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_vlarb(&c, 2);
  c.vlarb_low_len = 3;
  c.vlarb_low[0] = (lfc_vlarb_entry_t){0, 0};
  c.vlarb_low[1] = (lfc_vlarb_entry_t){1, 2};
  c.vlarb_low[2] = (lfc_vlarb_entry_t){0, 3};
  tu_t *t = tu_open(&c);
  give_credit(t, 2);
  two_streams(t, 0, 1, 40, 1, 1, 40);
  tu_run_to(t, 120);
  uint8_t cls[30];
  egress_classes(t, cls, 30);
  static const uint8_t pat[5] = {1, 1, 0, 0, 0};
  expect_pattern(cls, 30, pat, 5);
  tu_close(t);
}

/* High table VL0, low table VL1, both weight 255, 1-block packets. */
static void cfg_high_low(lfc_switch_cfg_t *c, uint32_t limit) {
  cfg_vlarb(c, 2);
  c->vlarb_high_len = 1;
  c->vlarb_high[0] = (lfc_vlarb_entry_t){0, 255};
  c->vlarb_low_len = 1;
  c->vlarb_low[0] = (lfc_vlarb_entry_t){1, 255};
  c->vlarb_high_limit = limit;
}

/* SPEC §5.6 step 3: limit 0 lets one high packet through (hi_sent < max(1, 0)), then low gets a
 * turn (which clears hi_sent): VL0, VL1, VL0, VL1, ... */
static void test_vlarb_high_limit_0_one_high_packet_then_low(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_high_low(&c, 0);
  tu_t *t = tu_open(&c);
  give_credit(t, 2);
  two_streams(t, 0, 1, 40, 1, 1, 40);
  tu_run_to(t, 6);
  assert_int_equal(tu_reg(t, "hi_sent", 2, 0), 1);
  tu_run_to(t, 8);
  assert_int_equal(tu_reg(t, "hi_sent", 2, 0), 0);
  tu_run_to(t, 200);
  uint8_t cls[40];
  egress_classes(t, cls, 40);
  static const uint8_t pat[2] = {0, 1};
  expect_pattern(cls, 40, pat, 2);
  tu_close(t);
}

/* SPEC §5.6 step 3: limit 255 lets high starve low: all 40 VL0 packets before any VL1. */
static void test_vlarb_high_limit_255_high_starves_low(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_high_low(&c, 255);
  tu_t *t = tu_open(&c);
  give_credit(t, 2);
  two_streams(t, 0, 1, 40, 1, 1, 40);
  tu_run_to(t, 250);
  uint8_t cls[80];
  egress_classes(t, cls, 80);
  for (int i = 0; i < 40; i++) assert_int_equal(cls[i], 0);
  for (int i = 40; i < 80; i++) assert_int_equal(cls[i], 1);
  tu_close(t);
}

/* SPEC §5.6 step 3: limit n lets 64 n blocks of high through: with limit 1 and 8-block packets,
 * hi_sent goes 0, 8, ..., 56 (< 64: high), 64 (low), so eight VL0 packets, one VL1, repeat. */
static void test_vlarb_high_limit_n_lets_64n_blocks(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_high_low(&c, 1);
  tu_t *t = tu_open(&c);
  give_credit(t, 2);
  two_streams(t, 0, 8, 20, 1, 8, 20);
  tu_run_to(t, 400);
  uint8_t cls[18];
  egress_classes(t, cls, 18);
  static const uint8_t pat[9] = {0, 0, 0, 0, 0, 0, 0, 0, 1};
  expect_pattern(cls, 18, pat, 9);
  tu_close(t);
}

/* SPEC §5.6 step 1: VL15 always wins, even over a high table with limit 255. A 4-block VL0 and a
 * 4-block VL15 packet finish arriving in the same cycle (store-and-forward, both ready in 8): VL15
 * starts in 8, VL0 in 12. */
static void test_vl15_strict_first(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_high_low(&c, 255);
  c.cut_through = false;
  c.vl15_blocks = 64;
  tu_t *t = tu_open(&c);
  give_credit(t, 2);
  two_streams(t, 0, 4, 1, LFC_VL15, 4, 1);
  tu_run_to(t, 30);
  assert_int_equal(tu_find_sop(t, 2, 0x2000)->cycle, 8);
  assert_int_equal(tu_find_sop(t, 2, 0x1000)->cycle, 12);
  tu_close(t);
}

/* SPEC §5.6: a VL whose head fails the send rule is not eligible; the other VL takes every turn.
 * Only VL1 gets credit: all 20 VL1 packets leave, no VL0 packet does, and VL0 counts
 * credit_blocked_cycles. */
static void test_vlarb_vl_without_credit_not_eligible(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_vlarb(&c, 2);
  tu_t *t = tu_open(&c);
  tu_at(t, 2, 0);
  tu_fcp(t, 2, 1, 0, 2048);
  two_streams(t, 0, 1, 20, 1, 1, 20);
  tu_run_to(t, 100);
  const tu_out_t *v[64];
  size_t n = tu_sops(t, 2, 0, v, 64);
  assert_int_equal(n, 20);
  for (size_t i = 0; i < n; i++) assert_int_equal(v[i]->w.cls, 1);
  assert_true(tu_stats(t, 2)->cls[0].credit_blocked_cycles > 0);
  assert_int_equal(tu_stats(t, 2)->cls[1].credit_blocked_cycles, 0);
  tu_close(t);
}

/* ---- Every-cycle check of §5.6 under random traffic ---- */

typedef struct {
  bool found, new_turn;
  uint32_t entry;
} pick_t;

/* §5.6 step 2 for one table. */
static pick_t table_pick(const lfc_vlarb_entry_t *tbl, uint32_t len, uint32_t idx, uint32_t rem,
                         const bool *elig) {
  pick_t r = {false, false, 0};
  if (len == 0) return r;
  if (idx < len && tbl[idx].weight > 0 && rem > 0 && elig[tbl[idx].vl]) {
    r.found = true;
    r.entry = idx;
    return r;
  }
  for (uint32_t i = 1; i <= len; i++) {
    uint32_t j = (idx + i) % len;
    if (tbl[j].weight > 0 && elig[tbl[j].vl]) {
      r.found = r.new_turn = true;
      r.entry = j;
      return r;
    }
  }
  return r;
}

/* SPEC §5.6 (with §5.3 eligibility): random traffic where every VL has a fixed packet size (VL0 1,
 * VL1 3, VL2 5, VL15 2 blocks), and peers that hand out credit in random steps (so VLs block and
 * unblock). Before every step, from S(t) (qpkts, fctbs, fccl, hi_idx, lo_idx, hi_rem, lo_rem,
 * hi_sent), the SPEC gives the packet a port may start: VL15 first, else the high or low table
 * pick under the high limit. A port that sends no FCP must start exactly that (or stay idle if
 * none); after the step the table registers are as step 4 says. */
static void test_random_traffic_vlarb_follows_spec(void **state) {
  (void)state;
  enum { VP = 3, VC = 3 };
  static const uint32_t size[VC] = {1, 3, 5};
  const uint32_t seed = 0xA7B17E55u;
  print_message("random VL arbitration oracle: seed 0x%08x\n", seed);
  lfc_switch_cfg_t c;
  tu_cfg_ib(&c, VP, VC);
  c.cut_through = true;
  c.latency = 2;
  c.mtu_blocks = 8;
  for (uint32_t v = 0; v < VC; v++) c.vl_blocks[v] = 3000;
  c.vl15_blocks = 64;
  c.vlarb_high_len = 2;
  c.vlarb_high[0] = (lfc_vlarb_entry_t){2, 6};
  c.vlarb_high[1] = (lfc_vlarb_entry_t){0, 2};
  c.vlarb_low_len = 4;
  c.vlarb_low[0] = (lfc_vlarb_entry_t){0, 3};
  c.vlarb_low[1] = (lfc_vlarb_entry_t){1, 0};
  c.vlarb_low[2] = (lfc_vlarb_entry_t){1, 5};
  c.vlarb_low[3] = (lfc_vlarb_entry_t){2, 1};
  c.vlarb_high_limit = 1;
  tu_t *t = tu_open(&c);
  size_t r_q = tu_reg_idx("qpkts"), r_fctbs = tu_reg_idx("fctbs"), r_fccl = tu_reg_idx("fccl"),
         r_hi = tu_reg_idx("hi_idx"), r_lo = tu_reg_idx("lo_idx"), r_hr = tu_reg_idx("hi_rem"),
         r_lr = tu_reg_idx("lo_rem"), r_hs = tu_reg_idx("hi_sent"), r_rem = tu_reg_idx("tx_rem");
  uint32_t s = seed, left[VP] = {0}, tag = 1, rx[VP][VC] = {{0}};
  lfc_word_t cur[VP];
  memset(cur, 0, sizeof cur);
  uint64_t n_high = 0, n_low = 0, n_vl15 = 0, n_blocked = 0;
  for (uint64_t cyc = 0; cyc < 10000; cyc++) {
    bool elig[VP][LFC_MAX_CLASSES];
    uint32_t hi_idx[VP], lo_idx[VP], hi_rem[VP], lo_rem[VP], hi_sent[VP];
    uint64_t txrem[VP], q15[VP];
    for (uint32_t p = 0; p < VP; p++) {
      memset(elig[p], 0, sizeof elig[p]);
      for (uint32_t v = 0; v < VC; v++) {
        uint32_t cr = ((uint32_t)lfc_switch_reg(t->sw, r_fctbs, p, v) + size[v]) % 4096u;
        bool ok = (((uint32_t)lfc_switch_reg(t->sw, r_fccl, p, v) - cr) & 4095u) <= 2048u;
        bool ne = lfc_switch_reg(t->sw, r_q, p, v) > 0;
        elig[p][v] = ne && ok;
        n_blocked += ne && !ok;
      }
      q15[p] = lfc_switch_reg(t->sw, r_q, p, LFC_VL15);
      hi_idx[p] = (uint32_t)lfc_switch_reg(t->sw, r_hi, p, 0);
      lo_idx[p] = (uint32_t)lfc_switch_reg(t->sw, r_lo, p, 0);
      hi_rem[p] = (uint32_t)lfc_switch_reg(t->sw, r_hr, p, 0);
      lo_rem[p] = (uint32_t)lfc_switch_reg(t->sw, r_lr, p, 0);
      hi_sent[p] = (uint32_t)lfc_switch_reg(t->sw, r_hs, p, 0);
      txrem[p] = lfc_switch_reg(t->sw, r_rem, p, 0);
    }
    lfc_word_t in[VP];
    memset(in, 0, sizeof in);
    for (uint32_t p = 0; p < VP; p++) {
      if (left[p] > 0) {
        in[p] = cur[p];
        in[p].sop = 0;
        in[p].eop = left[p] == 1;
        left[p]--;
      } else if (tu_rand(&s) % 100 < 10) { /* credit back for a random VL, in random steps */
        uint32_t v = tu_rand(&s) % VC;
        in[p].kind = LFC_FCP;
        in[p].fc_vl = (uint8_t)v;
        in[p].fc_fccl = (uint16_t)((rx[p][v] + tu_rand(&s) % 24) % 4096u);
      } else if (tu_rand(&s) % 100 < 30) {
        uint32_t v = tu_rand(&s) % 10, n;
        v = v < 9 ? v % VC : LFC_VL15;
        n = v == LFC_VL15 ? 2 : size[v];
        in[p] = tu_data_word(1, n == 1, v, n, tu_rand(&s) % VP, tag++, 0);
        cur[p] = in[p];
        left[p] = n - 1;
      }
    }
    for (uint32_t p = 0; p < VP; p++) tu_word(t, p, &in[p]);
    tu_step(t);
    for (uint32_t p = 0; p < VP; p++) {
      const lfc_word_t *o = &t->last_out[p];
      if (o->kind == LFC_DATA && o->cls < VC) rx[p][o->cls] = (rx[p][o->cls] + 1u) % 4096u;
      uint32_t e_hi = hi_idx[p], e_lo = lo_idx[p], e_hr = hi_rem[p], e_lr = lo_rem[p],
               e_hs = hi_sent[p];
      if (txrem[p] == 0 && o->kind != LFC_FCP) {
        int want = -1;
        pick_t h = table_pick(c.vlarb_high, c.vlarb_high_len, hi_idx[p], hi_rem[p], elig[p]);
        pick_t l = table_pick(c.vlarb_low, c.vlarb_low_len, lo_idx[p], lo_rem[p], elig[p]);
        uint32_t allow = c.vlarb_high_limit == 0 ? 1u : 64u * c.vlarb_high_limit;
        bool use_high = h.found && (!l.found || c.vlarb_high_limit == 255 || hi_sent[p] < allow);
        if (q15[p] > 0) {
          want = LFC_VL15;
          n_vl15++;
        } else if (use_high || l.found) {
          const pick_t *pk = use_high ? &h : &l;
          const lfc_vlarb_entry_t *tbl = use_high ? c.vlarb_high : c.vlarb_low;
          want = tbl[pk->entry].vl;
          uint32_t n = size[want];
          uint32_t *idx = use_high ? &e_hi : &e_lo, *rem = use_high ? &e_hr : &e_lr;
          if (pk->new_turn) {
            *idx = pk->entry;
            *rem = tbl[pk->entry].weight;
          }
          *rem -= *rem < n ? *rem : n;
          e_hs = use_high ? (e_hs + n < 65535u ? e_hs + n : 65535u) : 0u;
          if (use_high) n_high++;
          else n_low++;
        }
        int got = (o->kind == LFC_DATA && o->sop) ? o->cls : -1;
        if (got != want) {
          fail_msg("cycle %llu port %u: started VL %d, SPEC §5.6 picks %d (hi %u/%u lo %u/%u "
                   "hi_sent %u, eligible %d%d%d)",
                   (unsigned long long)cyc, p, got, want, hi_idx[p], hi_rem[p], lo_idx[p],
                   lo_rem[p], hi_sent[p], elig[p][0], elig[p][1], elig[p][2]);
        }
      }
      uint32_t a_hi = (uint32_t)lfc_switch_reg(t->sw, r_hi, p, 0),
               a_lo = (uint32_t)lfc_switch_reg(t->sw, r_lo, p, 0),
               a_hr = (uint32_t)lfc_switch_reg(t->sw, r_hr, p, 0),
               a_lr = (uint32_t)lfc_switch_reg(t->sw, r_lr, p, 0),
               a_hs = (uint32_t)lfc_switch_reg(t->sw, r_hs, p, 0);
      if (a_hi != e_hi || a_lo != e_lo || a_hr != e_hr || a_lr != e_lr || a_hs != e_hs) {
        fail_msg("cycle %llu port %u: hi_idx/hi_rem/lo_idx/lo_rem/hi_sent %u/%u/%u/%u/%u, SPEC "
                 "§5.6 gives %u/%u/%u/%u/%u",
                 (unsigned long long)cyc, p, a_hi, a_hr, a_lo, a_lr, a_hs, e_hi, e_hr, e_lo, e_lr,
                 e_hs);
      }
    }
  }
  print_message("  %llu high, %llu low, %llu VL15 starts; %llu blocked VL-cycles\n",
                (unsigned long long)n_high, (unsigned long long)n_low,
                (unsigned long long)n_vl15, (unsigned long long)n_blocked);
  assert_true(n_high > 100 && n_low > 100 && n_vl15 > 10 && n_blocked > 100);
  tu_close(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_vlarb_weights_share_of_packets),
      TU_TEST(test_vlarb_weights_share_of_blocks),
      TU_TEST(test_vlarb_packet_longer_than_weight_sent_whole),
      TU_TEST(test_vlarb_weight_zero_entry_skipped),
      TU_TEST(test_vlarb_high_limit_0_one_high_packet_then_low),
      TU_TEST(test_vlarb_high_limit_255_high_starves_low),
      TU_TEST(test_vlarb_high_limit_n_lets_64n_blocks),
      TU_TEST(test_vl15_strict_first),
      TU_TEST(test_vlarb_vl_without_credit_not_eligible),
      TU_TEST(test_random_traffic_vlarb_follows_spec),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
