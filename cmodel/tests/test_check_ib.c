/*
 * test_check_ib.c - the InfiniBand link monitor of lfc/check.h (IBA vol. 1 §7.9, SPEC §5).
 *
 * Each rule has a frame sequence, built with the codecs, that breaks exactly that rule and must
 * give exactly that one violation line. A well-behaved link - two sides that keep the send rule
 * of SPEC §5.3 with their own counters, written here from the SPEC text, over several VLs with
 * random packet sizes, random arbitration, link delays, observation points and FCP rates - must
 * give none, across several wraps of the 12-bit counters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_testutil.h"
#include "lfc/check.h"
#include "wire_testutil.h"

#define AB LFC_CHECK_AB
#define BA LFC_CHECK_BA
#define DATA LFC_PCAP_IB_DATA
#define LINK LFC_PCAP_IB_LINK

static lfc_check_t *make(bool from_reset, void (*tweak)(lfc_check_cfg_t *)) {
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, LFC_MODE_IB);
  cfg.from_reset = from_reset;
  if (tweak != NULL) tweak(&cfg);
  char err[256];
  lfc_check_t *c = lfc_check_create(&cfg, err, sizeof err);
  if (c == NULL) printf("create: %s\n", err);
  assert_non_null(c);
  return c;
}

static int data(lfc_check_t *c, uint32_t dir, uint64_t t, unsigned vl, unsigned n) {
  uint8_t b[CT_FRAME_MAX];
  const size_t len = ct_ib_data(b, vl, n, 0x100);
  return lfc_check_frame(c, 0, dir, t, DATA, b, len);
}

static int fcp(lfc_check_t *c, uint32_t dir, uint64_t t, unsigned vl, unsigned fctbs,
               unsigned fccl) {
  uint8_t b[8];
  const size_t len = ct_fcp(b, 0, vl, fctbs, fccl);
  return lfc_check_frame(c, 0, dir, t, LINK, b, len);
}

/* ---- the send rule (SPEC §5.3) ---- */

/* From reset every count is 0: B grants 10 blocks on VL 0; A sends exactly 10 (the last credit:
 * (FCCL - CR) mod 4096 = 0), then one more, which is sent without credit. */
static void test_send_without_credit(void **state) {
  (void)state;
  lfc_check_t *c = make(true, NULL);
  assert_int_equal(fcp(c, BA, 0, 0, 0, 10), 0);
  assert_int_equal(data(c, AB, 10, 0, 4), 0);
  assert_int_equal(data(c, AB, 20, 0, 6), 0);
  assert_int_equal(lfc_check_cov(c, 1), 1); /* send_rule_exact */
  assert_string_equal(lfc_check_cov_name(1), "send_rule_exact");
  assert_int_equal(data(c, AB, 30, 0, 1), 1);
  ct_expect_one(c, LFC_RULE_IB_SEND, "time=30ns", "link=0", "dir=A>B", "class=ib-send",
                "rule=\"SPEC §5.3", "vl=0", "FCCL 10, FCTBS 10, n 1: 4095", "frame=4", NULL);
  const lfc_check_violation_t *v = lfc_check_violation(c, 0);
  assert_int_equal(v->time, 30);
  assert_int_equal(v->frame, 4);
  assert_int_equal(v->cls, 0);
  size_t viol_ib_send = 0;
  while (strcmp(lfc_check_cov_name(viol_ib_send), "viol_ib_send") != 0) viol_ib_send++;
  assert_int_equal(lfc_check_cov(c, viol_ib_send), 1);
  assert_int_equal(lfc_check_cov(c, viol_ib_send + 1), 0); /* viol_ib_fctbs */
  char line[CT_LINE] = "untouched";
  assert_null(lfc_check_format(c, 0, NULL, sizeof line));
  assert_null(lfc_check_format(c, 0, line, 0));
  assert_null(lfc_check_format(c, 1, line, sizeof line));
  assert_string_equal(line, "untouched");
  lfc_check_destroy(c);
}

/* Before any FCP of B, A has no credit at all (FCCL is 0 at reset, SPEC §5.1). */
static void test_send_before_first_fcp_from_reset(void **state) {
  (void)state;
  lfc_check_t *c = make(true, NULL);
  assert_int_equal(data(c, AB, 0, 2, 1), 1);
  ct_expect_one(c, LFC_RULE_IB_SEND, "vl=2", "FCCL 0, FCTBS 0, n 1: 4095", NULL);
  lfc_check_destroy(c);
}

/* Without from_reset the counts are learnt: nothing is judged before both the sender's FCTBS
 * and the receiver's FCCL are known. */
static void test_send_rule_needs_both_counts(void **state) {
  (void)state;
  lfc_check_t *c = make(false, NULL);
  assert_int_equal(data(c, AB, 0, 0, 30), 0);     /* nothing known */
  assert_int_equal(fcp(c, BA, 10, 0, 7, 100), 0); /* FCCL for A>B: 100 */
  assert_int_equal(data(c, AB, 20, 0, 30), 0);    /* FCTBS still unknown */
  assert_int_equal(fcp(c, AB, 30, 0, 95, 0), 0);  /* A's FCTBS 95: 5 blocks of credit */
  assert_int_equal(data(c, AB, 40, 0, 5), 0);
  assert_int_equal(data(c, AB, 50, 0, 1), 1);
  ct_expect_one(c, LFC_RULE_IB_SEND, "FCCL 100, FCTBS 100, n 1: 4095", NULL);
  lfc_check_destroy(c);
}

/* The rule is 12-bit modular: credit that wrapped past 4095 is credit. A sender 10 blocks short
 * of 4096 with FCCL 20 (that is 4116) may send 30 blocks, not 31. */
static void test_send_rule_across_the_wrap(void **state) {
  (void)state;
  lfc_check_t *c = make(false, NULL);
  assert_int_equal(fcp(c, AB, 0, 1, 4086, 0), 0);
  assert_int_equal(fcp(c, BA, 1, 1, 0, 20), 0);
  assert_int_equal(data(c, AB, 2, 1, 30), 0);
  assert_int_equal(lfc_check_cov(c, 0), 1); /* credit_wrap: FCTBS 4086 + 30 = 20 */
  assert_int_equal(fcp(c, AB, 3, 1, 20, 0), 0);
  assert_int_equal(data(c, AB, 4, 1, 1), 1);
  ct_expect_one(c, LFC_RULE_IB_SEND, "vl=1", "FCCL 20, FCTBS 20, n 1: 4095", NULL);
  lfc_check_destroy(c);
}

/* The upper side of the half-space: (FCCL - CR) mod 4096 = 2048 is allowed, 2049 is not (it is
 * read as 2047 blocks short). A grant of 2048 beyond the packet is only possible beyond the cap
 * (FCCL > sent + 2048): that line comes first, then the packet passes. */
static void test_send_rule_half_space_edge(void **state) {
  (void)state;
  lfc_check_t *c = make(true, NULL);
  assert_int_equal(fcp(c, BA, 0, 0, 0, 2049), 1); /* ib-fccl-cap */
  assert_int_equal(data(c, AB, 1, 0, 1), 0);      /* (2049 - 1) mod 4096 = 2048 */
  assert_int_equal(lfc_check_cov(c, 2), 1);       /* send_rule_window */
  assert_int_equal(lfc_check_violations(c), 1);
  lfc_check_destroy(c);
  c = make(false, NULL);
  assert_int_equal(fcp(c, AB, 0, 0, 2046, 0), 0);
  assert_int_equal(fcp(c, BA, 1, 0, 0, 0), 0);
  assert_int_equal(data(c, AB, 2, 0, 1), 1); /* (0 - 2047) mod 4096 = 2049 */
  ct_expect_one(c, LFC_RULE_IB_SEND, "FCCL 0, FCTBS 2046, n 1: 2049", NULL);
  lfc_check_destroy(c);
}

/* ---- FCTBS (SPEC §5.3, §5.5) ---- */

/* A's FCP says 5 blocks where the monitor saw 6 go by. */
static void test_fctbs_miscount(void **state) {
  (void)state;
  lfc_check_t *c = make(true, NULL);
  assert_int_equal(fcp(c, BA, 0, 3, 0, 100), 0);
  assert_int_equal(data(c, AB, 1, 3, 2), 0);
  assert_int_equal(data(c, AB, 2, 3, 2), 0);
  assert_int_equal(data(c, AB, 3, 3, 2), 0);
  assert_int_equal(fcp(c, AB, 4, 3, 5, 0), 1);
  ct_expect_one(c, LFC_RULE_IB_FCTBS, "dir=A>B", "vl=3", "FCTBS 6", "FCTBS 5 (-1)", NULL);
  /* Reported once: the monitor follows the sender from there. */
  assert_int_equal(data(c, AB, 5, 3, 2), 0);
  assert_int_equal(fcp(c, AB, 6, 3, 7, 0), 0);
  assert_int_equal(lfc_check_violations(c), 1);
  assert_int_equal(lfc_check_cov(c, 5), 1); /* fcp_advance: 5 -> 7 (the first had no before) */
  assert_int_equal(fcp(c, AB, 7, 3, 7, 0), 0);
  assert_int_equal(lfc_check_cov(c, 5), 1); /* 7 -> 7: no advance */
  lfc_check_destroy(c);
}

/* After an FCTBS the monitor did not expect, it counts from the sender's figure: the cap of
 * FCCL is judged against the blocks the sender says it sent. */
static void test_fctbs_resync_moves_the_cap(void **state) {
  (void)state;
  lfc_check_t *c = make(true, NULL);
  assert_int_equal(fcp(c, BA, 0, 0, 0, 100), 0);
  assert_int_equal(data(c, AB, 1, 0, 10), 0);
  assert_int_equal(fcp(c, AB, 2, 0, 50, 0), 1);   /* 40 more than seen: one line */
  assert_int_equal(fcp(c, BA, 3, 0, 0, 2098), 0); /* 2048 beyond 50: allowed */
  assert_int_equal(fcp(c, BA, 4, 0, 0, 2099), 1); /* 2049 beyond */
  assert_int_equal(lfc_check_count(c, LFC_RULE_IB_FCCL_CAP), 1);
  assert_int_equal(lfc_check_count(c, LFC_RULE_IB_FCTBS), 1);
  lfc_check_destroy(c);
}

/* A sender that wraps its FCTBS at 4095 instead of 4096: right until the wrap, one off after. */
static void test_fctbs_wrap_mistake(void **state) {
  (void)state;
  lfc_check_t *c = make(false, NULL);
  unsigned sent = 4000; /* the sender's idea, counted mod 4095 */
  uint64_t t = 0;
  assert_int_equal(fcp(c, AB, t++, 0, sent, 0), 0);
  assert_int_equal(fcp(c, BA, t++, 0, 0, sent + 2000), 0);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(data(c, AB, t++, 0, 40), 0);
    sent = (sent + 40) % 4095u;
    assert_int_equal(fcp(c, AB, t++, 0, sent, 0), i < 2 ? 0 : 1); /* 4120 mod 4095 = 25 */
  }
  ct_expect_one(c, LFC_RULE_IB_FCTBS, "FCTBS 24:", "FCTBS 25 (+1)", NULL);
  lfc_check_destroy(c);
}

/* ---- FCCL (SPEC §5.4) ---- */

static void test_fccl_backwards(void **state) {
  (void)state;
  lfc_check_t *c = make(false, NULL);
  assert_int_equal(fcp(c, BA, 0, 0, 0, 100), 0);
  assert_int_equal(fcp(c, BA, 1, 0, 0, 100), 0);
  assert_int_equal(fcp(c, BA, 2, 0, 0, 90), 1);
  ct_expect_one(c, LFC_RULE_IB_FCCL_STEP, "dir=B>A", "FCCL 100 + 0..2048", "FCCL 90 (-10)", NULL);
  lfc_check_destroy(c);
}

/* B's FCP leaves out 10 blocks it sent (a misbehaving B: flagged IB-FCTBS on B>A). A takes its
 * ABR from that FCTBS (SPEC §5.4), so the FCCL it advertises for B's data drops by the 10: that
 * is B's error, reported once, not an FCCL going backwards on A's side. One block further back
 * is A's own. (Flagged as A's IB-FCCL-STEP before: a co-simulation with a partner that injects
 * packets its FCTBS does not count showed every such drop twice.) */
static void test_fccl_follows_a_short_fctbs(void **state) {
  (void)state;
  lfc_check_t *c = make(true, NULL);
  assert_int_equal(fcp(c, AB, 0, 0, 0, 100), 0);  /* A grants 100 to B */
  assert_int_equal(data(c, BA, 1, 0, 10), 0);     /* B sends 10 blocks */
  assert_int_equal(fcp(c, AB, 2, 0, 0, 110), 0);  /* A: ABR 10, FCCL 110 */
  assert_int_equal(fcp(c, BA, 3, 0, 0, 0), 1);    /* B says FCTBS 0: 10 short */
  ct_expect_one(c, LFC_RULE_IB_FCTBS, "dir=B>A", "FCTBS 10:", "FCTBS 0 (-10)", NULL);
  assert_int_equal(fcp(c, AB, 4, 0, 0, 104), 0);  /* ABR 0: back by 6, within the 10 */
  assert_int_equal(fcp(c, AB, 5, 0, 0, 100), 0);  /* and the other 4 */
  assert_int_equal(fcp(c, AB, 6, 0, 0, 99), 1);   /* one more is A's own */
  assert_int_equal(lfc_check_count(c, LFC_RULE_IB_FCCL_STEP), 1);
  assert_int_equal(lfc_check_violations(c), 2);
  lfc_check_destroy(c);
}

/* FCCL moving forward across the wrap is not backwards; a jump of 2049 is. */
static void test_fccl_wrap_and_jump(void **state) {
  (void)state;
  lfc_check_t *c = make(false, NULL);
  assert_int_equal(fcp(c, AB, 0, 0, 4000, 0), 0);
  assert_int_equal(fcp(c, BA, 1, 0, 0, 4090), 0);
  assert_int_equal(data(c, AB, 2, 0, 50), 0);   /* FCTBS 4050 */
  assert_int_equal(fcp(c, BA, 3, 0, 0, 10), 0); /* FCCL 4090 -> 10: +16 */
  assert_int_equal(lfc_check_cov(c, 0), 1);     /* credit_wrap: FCCL */
  assert_int_equal(data(c, AB, 4, 0, 50), 0);   /* FCTBS 4050 -> 4: 6 of credit left */
  assert_int_equal(lfc_check_cov(c, 0), 2);     /* and FCTBS */
  assert_int_equal(fcp(c, AB, 5, 0, 4, 0), 0);
  ct_expect_none(c);
  lfc_check_destroy(c);
  c = make(false, NULL);
  assert_int_equal(fcp(c, BA, 0, 0, 0, 100), 0);
  assert_int_equal(fcp(c, BA, 1, 0, 0, 2148), 0); /* +2048: the most a step may be */
  assert_int_equal(fcp(c, BA, 2, 0, 0, 2148), 0);
  lfc_check_destroy(c);
  c = make(false, NULL);
  assert_int_equal(fcp(c, BA, 0, 0, 0, 100), 0);
  assert_int_equal(fcp(c, BA, 1, 0, 0, 2149), 1);
  ct_expect_one(c, LFC_RULE_IB_FCCL_STEP, "FCCL 2149 (-2047)", NULL);
  lfc_check_destroy(c);
}

/* A receiver without the cap of SPEC §5.4 (FCCL = ABR + free, free 2500): more than 2048 beyond
 * the blocks sent. It grows there in steps, each of them legal as a step. */
static void test_fccl_beyond_cap(void **state) {
  (void)state;
  lfc_check_t *c = make(true, NULL);
  assert_int_equal(fcp(c, BA, 0, 0, 0, 1500), 0);
  assert_int_equal(data(c, AB, 1, 0, 10), 0);
  assert_int_equal(fcp(c, BA, 2, 0, 0, 2058), 0); /* 10 sent: 2048 beyond, the most */
  assert_int_equal(fcp(c, BA, 3, 0, 0, 2510), 1);
  ct_expect_one(c, LFC_RULE_IB_FCCL_CAP, "dir=B>A", "FCCL at most 2048 beyond the 10 blocks",
                "FCCL 2510: 2500 beyond", NULL);
  lfc_check_destroy(c);
}

/* Not from reset, the counts are learnt from the first FCPs at whatever base they have: the cap
 * of FCCL is the sender's FCTBS + 2048, whether B's FCCL or A's FCTBS was seen first. */
static void test_fccl_cap_with_learnt_counts(void **state) {
  (void)state;
  for (int fccl_first = 0; fccl_first < 2; fccl_first++) {
    lfc_check_t *c = make(false, NULL);
    if (fccl_first) {
      assert_int_equal(fcp(c, BA, 0, 0, 0, 3048), 0); /* FCCL first: nothing to judge it by */
      assert_int_equal(fcp(c, AB, 1, 0, 1000, 0), 0); /* FCTBS 1000: FCCL 2048 beyond */
    } else {
      assert_int_equal(fcp(c, AB, 0, 0, 1000, 0), 0);
      assert_int_equal(fcp(c, BA, 1, 0, 0, 3048), 0); /* 2048 beyond: the most */
    }
    assert_int_equal(fcp(c, BA, 2, 0, 0, 3048), 0);
    assert_int_equal(fcp(c, BA, 3, 0, 0, 3049), 1); /* one more */
    ct_expect_one(c, LFC_RULE_IB_FCCL_CAP, "dir=B>A", "FCCL at most 2048 beyond the 1000 blocks",
                  "FCCL 3049: 2049 beyond", NULL);
    lfc_check_destroy(c);
  }
  /* The same with the first FCCL behind the FCTBS (credit the receiver has not given back yet):
   * it moves up by legal steps to the cap, and one beyond. */
  lfc_check_t *c = make(false, NULL);
  assert_int_equal(fcp(c, BA, 0, 0, 0, 900), 0);
  assert_int_equal(fcp(c, AB, 1, 0, 1000, 0), 0);
  assert_int_equal(fcp(c, BA, 2, 0, 0, 2900), 0); /* +2000: 1900 beyond */
  assert_int_equal(fcp(c, BA, 3, 0, 0, 3048), 0); /* 2048 beyond */
  ct_expect_none(c);
  assert_int_equal(fcp(c, BA, 4, 0, 0, 3049), 1);
  ct_expect_one(c, LFC_RULE_IB_FCCL_CAP, "FCCL 3049: 2049 beyond", NULL);
  lfc_check_destroy(c);
}

/* ---- the FCP period (SPEC §5.5) ---- */

static void period(lfc_check_cfg_t *cfg) {
  cfg->fcp_period_ns = 1000;
  cfg->mtu_bytes = 256; /* slack: one 256-byte packet with GRH, 318 bytes, 25 ns at 100 Gb/s */
}

static void test_fcp_period(void **state) {
  (void)state;
  lfc_check_t *c = make(false, period);
  assert_int_equal(fcp(c, AB, 0, 0, 0, 0), 0);
  assert_int_equal(fcp(c, AB, 1025, 0, 0, 0), 0); /* 1025 <= 1000 + 25.44 */
  assert_int_equal(fcp(c, AB, 1030, 1, 0, 0), 0); /* another VL: its own clock */
  assert_int_equal(fcp(c, AB, 2055, 0, 0, 0), 1);
  ct_expect_one(c, LFC_RULE_IB_FCP_PERIOD, "vl=0", "an FCP at least every 1000ns (+25ns",
                "1030ns since the last one", NULL);
  /* At the end: VL 1's last FCP is 1025 ns old at 2055: within the period and slack. */
  assert_int_equal(lfc_check_finish(c, 2055), 0);
  lfc_check_destroy(c);
  c = make(false, period);
  assert_int_equal(fcp(c, BA, 0, 2, 0, 0), 0);
  assert_int_equal(lfc_check_finish(c, 5000), 1);
  ct_expect_one(c, LFC_RULE_IB_FCP_PERIOD, "dir=B>A", "vl=2", "none in the last 5000ns", NULL);
  assert_int_equal(lfc_check_finish(c, 5000), 0); /* once only: nothing found again */
  assert_int_equal(lfc_check_violations(c), 1);
  assert_int_equal(lfc_check_frame(c, 0, AB, 6000, LINK, (const uint8_t *)"", 0), -1);
  assert_non_null(strstr(lfc_check_error(c), "after lfc_check_finish"));
  lfc_check_destroy(c);
  c = make(false, period);
  assert_int_equal(fcp(c, AB, 0, 0, 0, 0), 0);
  assert_int_equal(lfc_check_finish(c, 1026), 0); /* 1026 <= 1000 + 25.76 + 1 */
  lfc_check_destroy(c);
  c = make(false, period);
  assert_int_equal(fcp(c, AB, 0, 0, 0, 0), 0);
  assert_int_equal(lfc_check_finish(c, 1027), 1);
  ct_expect_one(c, LFC_RULE_IB_FCP_PERIOD, "vl=0", "dir=A>B", NULL);
  assert_int_equal(lfc_check_violation(c, 0)->frame, 0); /* found at the end: no frame */
  lfc_check_destroy(c);
}

/* ---- VL15, the VL range, the MTU ---- */

static void test_vl15_rules(void **state) {
  (void)state;
  lfc_check_t *c = make(true, NULL);
  uint8_t b[CT_FRAME_MAX];
  /* A subnet management packet: VL15, QP0, a 256-byte MAD, no credit needed. */
  size_t len = ct_ib_payload(b, 15, 256, 0);
  assert_int_equal(lfc_check_frame(c, 0, AB, 0, DATA, b, len), 0);
  ct_expect_none(c);
  assert_int_equal(lfc_check_cov(c, 6), 1);
  assert_string_equal(lfc_check_cov_name(6), "vl15");
  assert_int_equal(fcp(c, BA, 1, 15, 0, 100), 1);
  ct_expect_one(c, LFC_RULE_IB_VL15, "vl=15", "no FCP for VL15", NULL);
  lfc_check_destroy(c);
  c = make(true, NULL);
  len = ct_ib_payload(b, 15, 256, 7);
  assert_int_equal(lfc_check_frame(c, 0, AB, 0, DATA, b, len), 1);
  ct_expect_one(c, LFC_RULE_IB_VL15, "goes to QP0", "DestQP 7", NULL);
  lfc_check_destroy(c);
  c = make(true, NULL);
  len = ct_ib_payload(b, 15, 260, 0);
  assert_int_equal(lfc_check_frame(c, 0, AB, 0, DATA, b, len), 1);
  ct_expect_one(c, LFC_RULE_IB_VL15, "at most 256 bytes", "260 bytes", NULL);
  lfc_check_destroy(c);
}

static void two_vls(lfc_check_cfg_t *cfg) { cfg->data_vls = 2; }
static void mtu256(lfc_check_cfg_t *cfg) { cfg->mtu_bytes = 256; }

static void test_vl_beyond_config(void **state) {
  (void)state;
  lfc_check_t *c = make(false, two_vls);
  assert_int_equal(data(c, AB, 0, 1, 1), 0);
  assert_int_equal(data(c, AB, 1, 2, 1), 1);
  ct_expect_one(c, LFC_RULE_IB_VL, "vl=2", "data VLs 0..1", NULL);
  assert_int_equal(fcp(c, AB, 2, 3, 0, 0), 1);
  assert_int_equal(lfc_check_count(c, LFC_RULE_IB_VL), 2);
  char line[CT_LINE];
  lfc_check_format(c, 1, line, sizeof line);
  assert_non_null(strstr(line, "expected=\"FCPs for data VLs 0..1\" observed=\"an FCP for VL 3\""));
  lfc_check_destroy(c);
}

static void test_mtu(void **state) {
  (void)state;
  lfc_check_t *c = make(false, mtu256);
  uint8_t b[CT_FRAME_MAX];
  size_t len = ct_ib_payload(b, 0, 256, 0x10);
  assert_int_equal(lfc_check_frame(c, 0, AB, 0, DATA, b, len), 0);
  assert_int_equal(lfc_check_cov(c, 7), 1); /* mtu_exact */
  len = ct_ib_payload(b, 0, 260, 0x10);
  assert_int_equal(lfc_check_frame(c, 0, AB, 1, DATA, b, len), 1);
  ct_expect_one(c, LFC_RULE_IB_MTU, "at most 256 bytes (MTU)", "260 bytes", NULL);
  lfc_check_destroy(c);
}

/* ---- malformed packets: the decoders' verdict ---- */

static void test_malformed(void **state) {
  (void)state;
  uint8_t b[CT_FRAME_MAX];
  lfc_check_t *c = make(true, NULL);
  assert_int_equal(fcp(c, BA, 0, 0, 0, 100), 0);
  size_t len = ct_ib_data(b, 0, 3, 0x10);
  b[len - 1] ^= 0x01; /* the VCRC */
  assert_int_equal(lfc_check_frame(c, 0, AB, 1, DATA, b, len), 1);
  ct_expect_one(c, LFC_RULE_IB_MALFORMED, "vl=0", "bad-vcrc", NULL);
  /* Its blocks were sent all the same: A's next FCP counts them. */
  assert_int_equal(fcp(c, AB, 2, 0, 3, 0), 0);
  lfc_check_destroy(c);

  c = make(true, NULL);
  len = ct_ib_data(b, 0, 2, 0x10);
  b[30] ^= 0x40; /* a payload byte: the ICRC no longer matches (nor the VCRC, checked first) */
  assert_int_equal(lfc_check_frame(c, 0, AB, 0, DATA, b, len), 2); /* and no credit */
  assert_int_equal(lfc_check_count(c, LFC_RULE_IB_MALFORMED), 1);
  lfc_check_destroy(c);

  /* A packet cut to 64 bytes (its PktLen says more) went over the wire as one block. */
  c = make(true, NULL);
  assert_int_equal(fcp(c, BA, 0, 0, 0, 100), 0);
  len = ct_ib_data(b, 0, 2, 0x10);
  assert_int_equal(lfc_check_frame(c, 0, AB, 1, DATA, b, 64), 1);
  ct_expect_one(c, LFC_RULE_IB_MALFORMED, "bad-length", NULL);
  assert_int_equal(fcp(c, AB, 2, 0, 1, 0), 0);
  lfc_check_destroy(c);

  c = make(true, NULL);
  len = ct_fcp(b, 0, 0, 0, 100);
  b[4] ^= 0x01;
  assert_int_equal(lfc_check_frame(c, 0, BA, 0, LINK, b, len), 1);
  ct_expect_one(c, LFC_RULE_IB_MALFORMED, "an FCP the decoder accepts", "bad-lpcrc", NULL);
  /* The FCP was not taken: A still has no credit. */
  assert_int_equal(data(c, AB, 1, 0, 1), 1);
  lfc_check_destroy(c);

  c = make(true, NULL);
  len = ct_fcp(b, 2, 0, 0, 100); /* Op 2 is reserved */
  assert_int_equal(lfc_check_frame(c, 0, BA, 0, LINK, b, len), 1);
  ct_expect_one(c, LFC_RULE_IB_MALFORMED, "bad-opcode", NULL);
  assert_int_equal(lfc_check_frame(c, 0, BA, 1, LINK, b, 3), 1); /* short */
  assert_int_equal(lfc_check_frame(c, 0, AB, 2, DATA, b, 0), 1);
  assert_int_equal(lfc_check_count(c, LFC_RULE_IB_MALFORMED), 3);
  lfc_check_destroy(c);
}

/* ---- drops reported by the user's monitor (SPEC §5.4, §10) ---- */

static void test_drop(void **state) {
  (void)state;
  lfc_check_t *c = make(true, NULL);
  assert_int_equal(lfc_check_drop(c, 0, AB, 5, 15), 0); /* VL15 may drop */
  assert_int_equal(lfc_check_drop(c, 0, AB, 6, 0), 1);
  ct_expect_one(c, LFC_RULE_IB_DROP, "time=6ns", "vl=0", "no ib-send before it", NULL);
  assert_int_equal(lfc_check_violation(c, 0)->frame, 0);
  /* After A sent without credit on VL 1, a drop on VL 1 is A's doing. */
  assert_int_equal(data(c, AB, 7, 1, 1), 1);
  assert_int_equal(lfc_check_drop(c, 0, AB, 8, 1), 0);
  assert_int_equal(lfc_check_violations(c), 2);
  assert_int_equal(lfc_check_drop(c, 0, AB, 9, 16), -1);
  assert_non_null(strstr(lfc_check_error(c), "class 16, allowed 0..15 (VL; 15 is VL15)"));
  lfc_check_destroy(c);
}

/* ---- refused input ---- */

static void test_refused_input(void **state) {
  (void)state;
  lfc_check_t *c = make(true, NULL);
  uint8_t b[8];
  const size_t len = ct_fcp(b, 0, 0, 0, 10);
  assert_int_equal(lfc_check_frame(c, 1, AB, 0, LINK, b, len), -1);
  assert_non_null(strstr(lfc_check_error(c), "link 1, allowed 0..0"));
  assert_int_equal(lfc_check_frame(c, 0, 2, 0, LINK, b, len), -1);
  assert_int_equal(lfc_check_frame(c, 0, AB, 0, LFC_PCAP_ETH, b, len), -1);
  assert_non_null(strstr(lfc_check_error(c), "in IB mode"));
  assert_int_equal(lfc_check_frame(c, 0, AB, 100, LINK, b, len), 0);
  assert_int_equal(lfc_check_frame(c, 0, BA, 99, LINK, b, len), -1);
  assert_non_null(strstr(lfc_check_error(c), "before the previous frame's 100ns"));
  assert_int_equal(lfc_check_frames(c), 1);
  assert_int_equal(lfc_check_frame(c, 0, BA, UINT64_MAX, LINK, b, len), -1);
  assert_non_null(strstr(lfc_check_error(c), "too large"));
  assert_int_equal(lfc_check_xoff(c, 0, AB, 100, 0, true), -1);
  assert_int_equal(lfc_check_finish(c, 50), -1);
  assert_int_equal(lfc_check_finish(c, 100), 0);
  lfc_check_destroy(c);

  lfc_check_cfg_t cfg;
  char err[256];
  lfc_check_cfg_default(&cfg, LFC_MODE_IB);
  cfg.data_vls = 16;
  assert_null(lfc_check_create(&cfg, err, sizeof err));
  assert_string_equal(err, "check: data_vls 16, allowed 1..15");
  lfc_check_cfg_default(&cfg, LFC_MODE_IB);
  cfg.mtu_bytes = 9000;
  assert_null(lfc_check_create(&cfg, err, sizeof err));
  assert_non_null(strstr(err, "mtu_bytes 9000, allowed 256..4096"));
  lfc_check_cfg_default(&cfg, LFC_MODE_IB);
  cfg.links = 0;
  assert_null(lfc_check_create(&cfg, err, sizeof err));
  lfc_check_cfg_default(&cfg, LFC_MODE_IB);
  cfg.time_unit_ps = 0;
  assert_null(lfc_check_create(&cfg, err, sizeof err));
  lfc_check_cfg_default(&cfg, LFC_MODE_IB);
  cfg.fcp_period_ns = UINT64_MAX;
  assert_null(lfc_check_create(&cfg, err, sizeof err));
  assert_non_null(strstr(err, "fcp_period_ns"));
  cfg.fcp_period_ns = 86400000000001ull; /* a day and a nanosecond */
  assert_null(lfc_check_create(&cfg, err, sizeof err));
  cfg.fcp_period_ns = 86400000000000ull; /* a day: the longest */
  lfc_check_t *d = lfc_check_create(&cfg, err, sizeof err);
  assert_non_null(d);
  lfc_check_destroy(d);
}

/* Times print in the unit they are given in. */
static void unit_ps(lfc_check_cfg_t *cfg) { cfg->time_unit_ps = 1; }
static void unit_cycles(lfc_check_cfg_t *cfg) { cfg->time_unit_ps = LFC_CHECK_CYCLE_PS(100000); }
static void unit_labelled(lfc_check_cfg_t *cfg) {
  cfg->time_unit_ps = LFC_CHECK_CYCLE_PS(100000);
  cfg->time_label = "cyc";
}

static void test_time_units(void **state) {
  (void)state;
  void (*const tweak[])(lfc_check_cfg_t *) = {unit_ps, unit_cycles, unit_labelled};
  const char *const want[] = {"time=7ps ", "time=7t ", "time=7cyc "};
  for (int i = 0; i < 3; i++) {
    lfc_check_t *c = make(true, tweak[i]);
    assert_int_equal(data(c, AB, 7, 0, 1), 1);
    ct_expect_one(c, LFC_RULE_IB_SEND, want[i], NULL);
    lfc_check_destroy(c);
  }
  assert_int_equal(LFC_CHECK_CYCLE_PS(100000), 5120);
}

/* Links are independent: a count on link 0 says nothing of link 1. */
static void test_links_apart(void **state) {
  (void)state;
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, LFC_MODE_IB);
  cfg.links = 2;
  cfg.from_reset = true;
  lfc_check_t *c = lfc_check_create(&cfg, NULL, 0);
  assert_non_null(c);
  uint8_t b[CT_FRAME_MAX];
  size_t len = ct_fcp(b, 0, 0, 0, 50);
  assert_int_equal(lfc_check_frame(c, 0, BA, 10, LINK, b, len), 0);
  len = ct_ib_data(b, 0, 10, 1);
  assert_int_equal(lfc_check_frame(c, 0, AB, 20, DATA, b, len), 0);
  assert_int_equal(lfc_check_frame(c, 1, AB, 5, DATA, b, len), 1); /* its own time, no credit */
  ct_expect_one(c, LFC_RULE_IB_SEND, "link=1", "frame=1", NULL);   /* counted per link */
  assert_int_equal(lfc_check_frames(c), 3);
  lfc_check_destroy(c);
}

/* ---- a well-behaved link ---- */

/* Two sides of a link, each a sender (SPEC §5.3) and a receiver (SPEC §5.4-§5.5) of its own,
 * one block per tick each way, a delay of D ticks. The monitor sees side A's frames `off_a`
 * ticks after A sends them and side B's D - off_a after B sends them. */
#define SIM_VLS 4u
#define SIM_MAX_N 64u /* a payload of 64 x 64 - 28 bytes: within the 4096-byte MTU */

typedef struct {
  uint16_t fctbs[SIM_VLS], fccl[SIM_VLS], abr[SIM_VLS];
  uint32_t occ[SIM_VLS], head_n[SIM_VLS];
  uint16_t sent_fctbs[SIM_VLS], sent_fccl[SIM_VLS];
  uint64_t fcp_due[SIM_VLS];
  uint64_t busy_until;
} side_t;

typedef struct {
  uint64_t seen; /* tick at the observation point */
  uint32_t dir;
  uint8_t is_fcp, vl;
  uint16_t n_or_fctbs, fccl;
  uint32_t seq;
} rec_t;

typedef struct {
  uint64_t at; /* arrival tick at the other side */
  rec_t r;
} wire_t;

typedef struct {
  unsigned vls, delay, off_a, buf, period, fcp_skip_pct, drain_pct, ticks;
  bool from_reset;
  bool cheat; /* side A once sends a packet its credit does not cover */
} sim_cfg_t;

static int by_time(const void *a, const void *b) {
  const rec_t *x = a, *y = b;
  if (x->seen != y->seen) return x->seen < y->seen ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint16_t advertised(const side_t *s, unsigned v, unsigned buf) {
  const uint32_t free_blocks = s->occ[v] < buf ? buf - s->occ[v] : 0u;
  return (uint16_t)((s->abr[v] + (free_blocks < 2048u ? free_blocks : 2048u)) & 4095u);
}

static void run_sim(const sim_cfg_t *k, uint64_t seed) {
  bool cheated = false;
  uint64_t s = wt_seed("run_sim", seed);
  side_t side[2];
  memset(side, 0, sizeof side);
  for (unsigned x = 0; x < 2; x++) {
    for (unsigned v = 0; v < k->vls; v++) side[x].head_n[v] = 1u + wt_below(&s, SIM_MAX_N);
  }
  const size_t cap = 2u * k->ticks + 16u;
  rec_t *recs = calloc(cap, sizeof *recs);
  wire_t *wire[2];
  size_t wn[2] = {0, 0}, wh[2] = {0, 0};
  wire[0] = calloc(cap, sizeof **wire);
  wire[1] = calloc(cap, sizeof **wire);
  assert_non_null(recs);
  assert_non_null(wire[0]);
  assert_non_null(wire[1]);
  size_t nrec = 0;
  uint32_t seq = 0;
  for (uint64_t t = 0; t < k->ticks; t++) {
    for (unsigned x = 0; x < 2; x++) {
      side_t *me = &side[x];
      /* Arrivals from the other side (sent in direction 1 - x). */
      wire_t *in = wire[1u - x];
      while (wh[1u - x] < wn[1u - x] && in[wh[1u - x]].at == t) {
        const rec_t *r = &in[wh[1u - x]++].r;
        if (r->is_fcp) {
          me->fccl[r->vl] = r->fccl;      /* the limit for my sending */
          me->abr[r->vl] = r->n_or_fctbs; /* repair: equal here, nothing is lost */
        } else {
          me->abr[r->vl] = (uint16_t)((me->abr[r->vl] + r->n_or_fctbs) & 4095u);
          if (me->occ[r->vl] + r->n_or_fctbs <= k->buf) {
            me->occ[r->vl] += r->n_or_fctbs;
          } else {
            assert_true(k->cheat); /* a sender that keeps the rule always fits (SPEC §5.4) */
          }
        }
      }
      for (unsigned v = 0; v < k->vls; v++) {
        if (me->occ[v] > 0 && wt_below(&s, 100) < k->drain_pct) me->occ[v]--;
      }
      if (t < me->busy_until) continue;
      rec_t r;
      memset(&r, 0, sizeof r);
      r.dir = x;
      bool sent = false;
      for (unsigned v = 0; v < k->vls && !sent; v++) {
        const uint16_t fccl = advertised(me, v, k->buf);
        const bool changed = me->fctbs[v] != me->sent_fctbs[v] || fccl != me->sent_fccl[v];
        const bool due = t >= me->fcp_due[v];
        if (!due && !(changed && wt_below(&s, 100) >= k->fcp_skip_pct)) continue;
        r.is_fcp = 1;
        r.vl = (uint8_t)v;
        r.n_or_fctbs = me->fctbs[v];
        r.fccl = fccl;
        me->sent_fctbs[v] = me->fctbs[v];
        me->sent_fccl[v] = fccl;
        me->fcp_due[v] = t + k->period;
        me->busy_until = t + 1;
        sent = true;
      }
      if (!sent) {
        /* Arbitration: a random VL among those whose head passes the send rule. */
        unsigned ok[SIM_VLS], nok = 0;
        for (unsigned v = 0; v < k->vls; v++) {
          /* Now and then a sender fills exactly the credit it has left (SPEC §5.3's edge). */
          const uint32_t avail = (me->fccl[v] - me->fctbs[v]) & 4095u;
          if (avail >= 1u && avail <= SIM_MAX_N && avail < me->head_n[v] && wt_below(&s, 5) == 0) {
            me->head_n[v] = avail;
          }
          const uint32_t cr = (me->fctbs[v] + me->head_n[v]) & 4095u;
          if (((me->fccl[v] - cr) & 4095u) <= 2048u) {
            ok[nok++] = v;
          } else if (k->cheat && !cheated && x == 0 && t > k->ticks / 2u) {
            ok[0] = v; /* the bug: sent anyway, alone */
            nok = 1;
            cheated = true;
            break;
          }
        }
        if (nok > 0 && wt_below(&s, 4) != 0) {
          const unsigned v = ok[wt_below(&s, nok)];
          r.vl = (uint8_t)v;
          r.n_or_fctbs = (uint16_t)me->head_n[v];
          me->fctbs[v] = (uint16_t)((me->fctbs[v] + me->head_n[v]) & 4095u);
          me->busy_until = t + me->head_n[v];
          me->head_n[v] = 1u + wt_below(&s, SIM_MAX_N);
          sent = true;
        }
      }
      if (!sent) continue;
      r.seq = seq++;
      r.seen = t + (x == 0 ? k->off_a : k->delay - k->off_a);
      recs[nrec++] = r;
      wire[x][wn[x]++] = (wire_t){.at = t + k->delay, .r = r};
    }
  }
  qsort(recs, nrec, sizeof *recs, by_time);
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, LFC_MODE_IB);
  cfg.data_vls = k->vls;
  cfg.from_reset = k->from_reset;
  cfg.time_unit_ps = LFC_CHECK_CYCLE_PS(cfg.speed_mbps);
  cfg.time_label = "cyc";
  /* The period as the sides keep it, plus the FCPs of other VLs it may wait behind. */
  cfg.fcp_period_ns = (uint64_t)(k->period + k->vls + k->delay) * 512u / 100u + 1u;
  lfc_check_t *c = lfc_check_create(&cfg, NULL, 0);
  assert_non_null(c);
  uint8_t b[CT_FRAME_MAX];
  uint64_t blocks = 0;
  for (size_t i = 0; i < nrec; i++) {
    const rec_t *r = &recs[i];
    size_t len;
    if (r->is_fcp) {
      len = ct_fcp(b, 0, r->vl, r->n_or_fctbs, r->fccl);
    } else {
      len = ct_ib_data(b, r->vl, r->n_or_fctbs, 0x100);
      blocks += r->n_or_fctbs;
    }
    const int got = lfc_check_frame(c, 0, r->dir, r->seen, r->is_fcp ? LINK : DATA, b, len);
    if (got != 0 && !k->cheat) ct_dump(c);
    assert_true(got == 0 || k->cheat);
  }
  assert_int_equal(lfc_check_finish(c, recs[nrec - 1].seen), 0);
  if (k->cheat) {
    /* The one packet sent without credit, and nothing else: the receiver's accounting and the
     * FCPs stay right (it drops the packet but counts it in ABR, SPEC §5.4). */
    assert_true(cheated);
    ct_expect_one(c, LFC_RULE_IB_SEND, "dir=A>B", NULL);
    lfc_check_destroy(c);
    free(recs);
    free(wire[0]);
    free(wire[1]);
    return;
  }
  ct_expect_none(c);
  printf("  %zu frames, %llu blocks; wraps %llu, exact %llu\n", nrec, (unsigned long long)blocks,
         (unsigned long long)lfc_check_cov(c, 0), (unsigned long long)lfc_check_cov(c, 1));
  /* The run went around the counters and used the last credit: the test reached the edges. */
  assert_true(lfc_check_cov(c, 0) > 0);
  if (k->buf < 2048u) assert_true(lfc_check_cov(c, 1) > 0);
  free(recs);
  free(wire[0]);
  free(wire[1]);
  lfc_check_destroy(c);
}

static void test_well_behaved_link(void **state) {
  (void)state;
  static const sim_cfg_t runs[] = {
      /* vls delay off_a buf period skip% drain% ticks from_reset */
      {1, 1, 0, 65, 50, 0, 50, 40000, true, false},         /* tight: one MTU of buffer */
      {2, 7, 7, 200, 300, 50, 60, 40000, true, false},      /* seen at B */
      {4, 200, 100, 130, 500, 90, 30, 60000, false, false}, /* seen in the middle, rare FCPs */
      {3, 50, 0, 3000, 1000, 20, 100, 40000, false, false}, /* buffer beyond the 2048 cap */
      {2, 3, 3, 100, 20, 0, 10, 50000, true, false},        /* slow drain: credit-bound */
  };
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    run_sim(&runs[i], 0xC4EC0000ull + i);
  }
}

/* The same link with one packet of side A sent beyond its credit: that one line. */
static void test_link_with_one_overrun(void **state) {
  (void)state;
  const sim_cfg_t k = {2, 7, 0, 100, 300, 50, 20, 20000, false, true};
  run_sim(&k, 0xC4EC0100ull);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_send_without_credit),
      cmocka_unit_test(test_send_before_first_fcp_from_reset),
      cmocka_unit_test(test_send_rule_needs_both_counts),
      cmocka_unit_test(test_send_rule_across_the_wrap),
      cmocka_unit_test(test_send_rule_half_space_edge),
      cmocka_unit_test(test_fctbs_miscount),
      cmocka_unit_test(test_fctbs_resync_moves_the_cap),
      cmocka_unit_test(test_fctbs_wrap_mistake),
      cmocka_unit_test(test_fccl_backwards),
      cmocka_unit_test(test_fccl_follows_a_short_fctbs),
      cmocka_unit_test(test_fccl_wrap_and_jump),
      cmocka_unit_test(test_fccl_beyond_cap),
      cmocka_unit_test(test_fccl_cap_with_learnt_counts),
      cmocka_unit_test(test_fcp_period),
      cmocka_unit_test(test_vl15_rules),
      cmocka_unit_test(test_vl_beyond_config),
      cmocka_unit_test(test_mtu),
      cmocka_unit_test(test_malformed),
      cmocka_unit_test(test_drop),
      cmocka_unit_test(test_refused_input),
      cmocka_unit_test(test_links_apart),
      cmocka_unit_test(test_time_units),
      cmocka_unit_test(test_well_behaved_link),
      cmocka_unit_test(test_link_with_one_overrun),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
