/*
 * test_line_time.c - SPEC §2.4 line time (wire_time = 1), against an oracle written from the
 * SPEC text in this file:
 *   - a backlogged switch egress sends each packet in nblk - mrg words, with mrg and the idle
 *     gap slots exactly as §2.4's slack arithmetic says, and register `slack` (§13.1) reads it;
 *   - receive framing takes merged packets (§7.2): nblk - mrg words, eop on the last; mrg on a
 *     one-block packet is MALFORMED;
 *   - two end nodes back to back (§12.2) spend on the wire what the frames' bytes need: an IB
 *     stream of 4122-byte packets with coalesced 6-byte FCPs, a RoCEv2 stream of 4158-byte
 *     frames with 20 bytes of preamble and gap each; with wire_time = 0 they would spend 65
 *     slots a packet, which the same assertions reject.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "lfc/nic.h"

enum {
  BLOCK = 64,      /* bytes per slot (SPEC §1.1) */
  SLACK_MAX = 127, /* §2.4 */
  ETH_E = 20,      /* §2.4: E in PFC mode */
  FCP_L = 6,       /* §2.4: an FCP's line time */
};

/* §2.4 at a packet start: the merge flag, and slack afterwards. */
static int oracle_start(int *slack, int nblk, int pad, int e) {
  int v = *slack + pad - e;
  int mrg = nblk >= 2 && v >= BLOCK;
  v -= BLOCK * mrg;
  *slack = v > SLACK_MAX ? SLACK_MAX : v;
  return mrg;
}

/* ---- a backlogged egress: ports 0 and 2 send to port 1 at twice its rate ---- */

static const uint8_t PADS[] = {0, 2, 38, 63, 21, 45, 19, 60};
static const uint8_t SIZES[] = {65, 2, 4, 1, 17, 65, 3, 33};

static void test_egress_words_follow_slack(void **state) {
  (void)state;
  enum { PORTS = 3, CYCLES = 6000, PKTS = 40, HOLD_QUANTA = 2500 };
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, PORTS, 1);
  c.wire_time = true;
  c.lossless_mask = 0; /* no pauses: the egress stays backlogged */
  c.shared_blocks = 1u << 19;
  c.xoff_th = 1u << 19;
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  assert_non_null(sw);
  int slack_reg = lfc_reg_find("slack");
  assert_true(slack_reg >= 0);
  /* inputs: PKTS packets per ingress, back to back, mrg 0 (a block-time peer) */
  uint32_t idx[PORTS] = {0}, blk[PORTS] = {0};
  lfc_word_t in[PORTS], out[PORTS];
  int slack = 0, words_left = 0, mrg = 0, seen = 0, gap_due = 0;
  for (uint64_t t = 0; t < CYCLES; t++) {
    memset(in, 0, sizeof in);
    if (t == 0) /* port 1's peer pauses it while every packet arrives: then it is backlogged */
      in[1] = (lfc_word_t){.kind = LFC_PFC, .pfc_en = 1, .pfc_time = {HOLD_QUANTA}};
    for (uint32_t p = 0; p < PORTS; p += 2) {
      if (idx[p] >= PKTS) continue;
      uint32_t i = idx[p] + p; /* the two ports cycle through the tables out of step */
      uint32_t n = SIZES[i % sizeof SIZES], pad = PADS[(i / 3) % sizeof PADS];
      if (n == 1 && pad > 0) pad = 0;
      in[p] = (lfc_word_t){.kind = LFC_DATA, .sop = blk[p] == 0, .eop = blk[p] + 1 == n,
                           .nblk = (uint8_t)n, .pad = (uint8_t)pad, .dst = 1,
                           .tag = p << 16 | idx[p]};
      if (++blk[p] == n) blk[p] = 0, idx[p]++;
    }
    lfc_switch_step(sw, in, out);
    const lfc_word_t *w = &out[1];
    if (words_left > 0) { /* the packet in flight: one word per slot, mrg on every word */
      assert_int_equal(w->kind, LFC_DATA);
      assert_int_equal(w->sop, 0);
      assert_int_equal(w->mrg, mrg);
      assert_int_equal(w->eop, words_left == 1);
      words_left--;
      continue;
    }
    if (gap_due) { /* §5.2 step 2a: the slot after a frame that owes the wire is idle */
      assert_int_equal(w->kind, LFC_IDLE);
      gap_due = 0;
      slack += BLOCK;
      continue;
    }
    if (w->kind == LFC_IDLE) {
      if (seen > 0 && seen < 2 * PKTS) fail_msg("cycle %llu: idle with packets queued",
                                                (unsigned long long)t);
      if (seen > 0) slack = 0; /* §2.4: any other IDLE slot */
      continue;
    }
    assert_int_equal(w->kind, LFC_DATA);
    assert_int_equal(w->sop, 1);
    int want = oracle_start(&slack, w->nblk, w->pad, ETH_E);
    if (w->mrg != want)
      fail_msg("packet %d (nblk %u pad %u): mrg %u, SPEC §2.4 says %d", seen, w->nblk, w->pad,
               w->mrg, want);
    mrg = want;
    words_left = w->nblk - mrg - 1;
    assert_int_equal(w->eop, words_left == 0);
    gap_due = slack < 0;
    /* register slack of S(t+1): after this start's step B (§13.1: two's complement, 8 bits) */
    assert_int_equal((int8_t)lfc_switch_reg(sw, (size_t)slack_reg, 1, 0), slack);
    seen++;
  }
  assert_int_equal(seen, 2 * PKTS);
  lfc_switch_destroy(sw);
}

/* ---- receive framing of merged packets (SPEC §7.2) ---- */

static void test_framing_of_merged_packets(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 2, 1);
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  assert_non_null(sw);
  /* nblk 3 with mrg: two words, eop on the second (legal, admitted whole) */
  lfc_word_t seq[][2] = {
      {{.kind = LFC_DATA, .sop = 1, .nblk = 3, .mrg = 1, .dst = 1, .tag = 1}, {0}},
      {{.kind = LFC_DATA, .eop = 1, .nblk = 3, .mrg = 1, .dst = 1, .tag = 1}, {0}},
      /* nblk 3 with mrg but eop only on a third word: the second word's eop = 0 is malformed,
         the third is a stray */
      {{.kind = LFC_DATA, .sop = 1, .nblk = 3, .mrg = 1, .dst = 1, .tag = 2}, {0}},
      {{.kind = LFC_DATA, .nblk = 3, .mrg = 1, .dst = 1, .tag = 2}, {0}},
      {{.kind = LFC_DATA, .eop = 1, .nblk = 3, .mrg = 1, .dst = 1, .tag = 2}, {0}},
      /* mrg on a one-block packet: MALFORMED (§7.2) */
      {{.kind = LFC_DATA, .sop = 1, .eop = 1, .nblk = 1, .mrg = 1, .dst = 1, .tag = 3}, {0}},
  };
  lfc_word_t out[2];
  for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) lfc_switch_step(sw, seq[i], out);
  const lfc_port_stats_t *st = lfc_switch_stats(sw, 0);
  assert_int_equal(st->cls[0].rx_pkts, 2);
  assert_int_equal(st->cls[0].rx_blocks, 6); /* charged whole: 3 blocks each (§7.2) */
  assert_int_equal(st->rx_malformed, 2);
  assert_int_equal(st->cls[0].drop_pkts[LFC_DROP_MALFORMED], 1);
  lfc_switch_destroy(sw);
}

/* ---- two end nodes back to back: slots spent = the frames' bytes / 64 ---- */

static void nic_pair(lfc_mode_t mode, uint32_t wire_time, uint32_t bytes, uint64_t cycles,
                     uint64_t *pkts, uint64_t *fcps) {
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, mode, 1);
  c.wire_time = wire_time;
  c.fcp_holdoff = 200; /* an FCP every fourth packet or so (§5.5) */
  char err[256];
  lfc_nic_t *a = lfc_nic_create(&c, err, sizeof err), *b = lfc_nic_create(&c, err, sizeof err);
  assert_non_null(a);
  assert_non_null(b);
  uint32_t nblk = (bytes + BLOCK - 1) / BLOCK;
  lfc_pkt_t p = {.nblk = (uint8_t)nblk, .pad = (uint8_t)(nblk * BLOCK - bytes), .dst = 1};
  lfc_word_t wa = {0}, wb = {0}, na, nb;
  *fcps = 0;
  for (uint64_t t = 0; t < cycles; t++) {
    while (lfc_nic_backlog(a, 0) < 2) assert_int_equal(lfc_nic_send(a, &p), 0);
    lfc_nic_step(a, &wb, &na);
    lfc_nic_step(b, &wa, &nb);
    wa = na;
    wb = nb;
    *fcps += na.kind == LFC_FCP;
  }
  *pkts = lfc_nic_stats(a)->tx_pkts;
  lfc_nic_destroy(a);
  lfc_nic_destroy(b);
}

static void test_nic_ib_spends_the_bytes(void **state) {
  (void)state;
  enum { CYCLES = 100000, IB_BYTES = 4122 };
  uint64_t pkts, fcps;
  nic_pair(LFC_MODE_IB, 1, IB_BYTES, CYCLES, &pkts, &fcps);
  /* every slot used: the bytes needed, within the packet in flight (counted at its start), the
     127 bytes carried (§2.4) and the first FCP's slot */
  double need = (double)pkts * IB_BYTES + (double)fcps * FCP_L;
  if (need > (double)CYCLES * BLOCK + IB_BYTES + SLACK_MAX ||
      need < (double)CYCLES * BLOCK - 2 * IB_BYTES)
    fail_msg("ib: %llu packets and %llu FCPs need %.0f bytes, the run had %d",
             (unsigned long long)pkts, (unsigned long long)fcps, need, CYCLES * BLOCK);
  assert_true(fcps * 2 < pkts); /* coalesced */
  nic_pair(LFC_MODE_IB, 0, IB_BYTES, CYCLES, &pkts, &fcps); /* block time: 65 slots a packet */
  assert_true((double)pkts * IB_BYTES + (double)fcps * FCP_L < (double)CYCLES * BLOCK - 2 * IB_BYTES);
}

static void test_nic_roce_spends_the_bytes(void **state) {
  (void)state;
  enum { CYCLES = 100000, ROCE_BYTES = 4158 };
  uint64_t pkts, fcps;
  nic_pair(LFC_MODE_PFC, 1, ROCE_BYTES, CYCLES, &pkts, &fcps);
  double need = (double)pkts * (ROCE_BYTES + ETH_E); /* the frame in flight counted whole */
  if (need > (double)CYCLES * BLOCK + ROCE_BYTES + ETH_E ||
      need < (double)CYCLES * BLOCK - (ROCE_BYTES + ETH_E))
    fail_msg("roce: %llu frames need %.0f bytes, the run had %d", (unsigned long long)pkts, need,
             CYCLES * BLOCK);
  nic_pair(LFC_MODE_PFC, 0, ROCE_BYTES, CYCLES, &pkts, &fcps); /* block time, no gap */
  assert_true((double)pkts * (ROCE_BYTES + ETH_E) > (double)CYCLES * BLOCK + ROCE_BYTES + ETH_E);
}

/* A one-class PFC node whose PFC frames take effect 0..jitter cycles late (SPEC §12.2), its
 * draws from `seed`. */
static lfc_nic_t *jittered_node(uint32_t jitter, uint32_t seed) {
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_PFC, 1);
  c.response_jitter = jitter;
  c.seed = seed;
  char err[256];
  lfc_nic_t *n = lfc_nic_create(&c, err, sizeof err);
  assert_non_null(n);
  return n;
}

/* §12.2: response jitter. A frame pauses 0..J cycles late, and an XON resumes 0..J cycles
 * late (one draw per frame); J = 0 draws nothing. */
static void test_nic_response_jitter_delays_pause(void **state) {
  (void)state;
  enum { J = 7, FRAMES = 200 };
  lfc_nic_t *n = jittered_node(J, 12345);
  lfc_pkt_t p = {.nblk = 1, .dst = 1};
  unsigned seen[J + 1] = {0}, seen_xon[J + 1] = {0};
  lfc_word_t idle = {0}, out;
  for (int f = 0; f < FRAMES; f++) {
    /* a pause of 1000 quanta; count the cycles in which the node still starts packets */
    lfc_word_t pause = {.kind = LFC_PFC, .pfc_en = 1, .pfc_time = {1000}};
    while (lfc_nic_backlog(n, 0) < 40) assert_int_equal(lfc_nic_send(n, &p), 0);
    lfc_nic_step(n, &pause, &out);
    unsigned late = 0;
    for (;;) {
      lfc_nic_step(n, &idle, &out);
      if (out.kind != LFC_DATA) break;
      late++;
    }
    assert_true(late <= J);
    seen[late]++;
    /* an XON in cycle t: the node starts packets again from t + 1 + its draw */
    lfc_word_t xon = {.kind = LFC_PFC, .pfc_en = 1};
    lfc_nic_step(n, &xon, &out);
    assert_int_equal(out.kind, LFC_IDLE);
    unsigned still = 0;
    for (;;) {
      lfc_nic_step(n, &idle, &out);
      if (out.kind == LFC_DATA) break;
      assert_true(++still <= J);
    }
    seen_xon[still]++;
    for (int i = 0; i < 2 * J + 2; i++) lfc_nic_step(n, &idle, &out);
  }
  for (int j = 0; j <= J; j++) {
    if (seen[j] == 0) fail_msg("no pause applied %d cycles late in %d frames", j, FRAMES);
    if (seen_xon[j] == 0) fail_msg("no resume %d cycles late in %d frames", j, FRAMES);
  }
  lfc_nic_destroy(n);
}

/* §12.2: an XON that arrives while a pause is ending resumes the node at the earlier of the
 * pause's end and the XON's own (jittered) time t + 1 + draw: it never makes the pause last
 * longer, and it shortens it by each amount the draws allow. */
static void test_nic_xon_never_lengthens_a_pause(void **state) {
  (void)state;
  enum { J = 7, Q = 10, BEFORE = 5, FRAMES = 200 };
  lfc_nic_t *n = jittered_node(J, 777);
  lfc_pkt_t p = {.nblk = 1, .dst = 1};
  lfc_word_t idle = {0}, out;
  unsigned seen[BEFORE] = {0}; /* by resume - (XON's cycle + 1): BEFORE - 1 is the pause's end */
  for (int f = 0; f < FRAMES; f++) {
    while (lfc_nic_backlog(n, 0) < 40) assert_int_equal(lfc_nic_send(n, &p), 0);
    lfc_word_t pause = {.kind = LFC_PFC, .pfc_en = 1, .pfc_time = {Q}};
    lfc_nic_step(n, &pause, &out);
    do lfc_nic_step(n, &idle, &out); /* the first IDLE is the pause's first cycle */
    while (out.kind == LFC_DATA);
    uint64_t end = lfc_nic_cycle(n) - 1u + Q; /* it pauses Q quanta of one cycle each */
    while (lfc_nic_cycle(n) < end - BEFORE) lfc_nic_step(n, &idle, &out);
    uint64_t t = lfc_nic_cycle(n);
    lfc_word_t xon = {.kind = LFC_PFC, .pfc_en = 1};
    lfc_nic_step(n, &xon, &out);
    assert_int_equal(out.kind, LFC_IDLE);
    while (out.kind != LFC_DATA) {
      lfc_nic_step(n, &idle, &out);
      assert_true(lfc_nic_cycle(n) - 1u <= end); /* the cycle just stepped */
    }
    seen[lfc_nic_cycle(n) - 1u - (t + 1u)]++;
    for (int i = 0; i < 2 * J + 2; i++) lfc_nic_step(n, &idle, &out);
  }
  for (int d = 0; d < BEFORE; d++)
    if (seen[d] == 0) fail_msg("no resume %d cycles after the XON's in %d frames", d + 1, FRAMES);
  lfc_nic_destroy(n);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_egress_words_follow_slack),
      cmocka_unit_test(test_framing_of_merged_packets),
      cmocka_unit_test(test_nic_ib_spends_the_bytes),
      cmocka_unit_test(test_nic_roce_spends_the_bytes),
      cmocka_unit_test(test_nic_response_jitter_delays_pause),
      cmocka_unit_test(test_nic_xon_never_lengthens_a_pause),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
