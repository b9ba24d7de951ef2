/*
 * test_check_pfc.c - the priority-flow-control monitor of lfc/check.h (IEEE 802.1Qbb, IEEE
 * 802.3 Annex 31B, SPEC §6.6, §6.7, §11).
 *
 * Times are nanoseconds at 100 Gb/s: a quantum (512 bit times) is 5.12 ns, a 64-byte PFC frame
 * lasts 5.12 ns, and the Annex 31B reaction budget is 394 quanta, 2017.28 ns. A pause frame
 * sent at t reaches the sender at t + 5.12 (its end).
 *
 * Each rule has a sequence that breaks it alone and must give that one line. A well-behaved pair
 * of sides - each pausing the other with XOFF, refreshes, XON and pauses left to lapse, each
 * honouring the other's pauses after a random reaction within the budget - over link delays and
 * both observation points must give none; the same with one frame sent into a pause gives one.
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
#define ETH LFC_PCAP_ETH
#define SIDE_A 0u
#define SIDE_B 1u

/* Coverage points by name. */
static size_t cov_index(const char *name) {
  for (size_t i = 0; i < lfc_check_cov_points(); i++) {
    if (strcmp(lfc_check_cov_name(i), name) == 0) return i;
  }
  fail_msg("no coverage point %s", name);
  return 0;
}
static uint64_t cov(const lfc_check_t *c, const char *name) {
  return lfc_check_cov(c, cov_index(name));
}

static lfc_check_t *make(void (*tweak)(lfc_check_cfg_t *)) {
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
  if (tweak != NULL) tweak(&cfg);
  char err[256];
  lfc_check_t *c = lfc_check_create(&cfg, err, sizeof err);
  if (c == NULL) printf("create: %s\n", err);
  assert_non_null(c);
  return c;
}

/* B pauses priority prio of A's data for q quanta (q = 0: XON), at t. */
static int pfc_from(lfc_check_t *c, unsigned side, uint64_t t, unsigned prio, uint16_t q) {
  uint8_t b[LFC_PFC_FRAME_BYTES];
  const size_t len = ct_pfc1(b, side, prio, q);
  return lfc_check_frame(c, 0, side == SIDE_B ? BA : AB, t, ETH, b, len);
}

/* A RoCEv2 frame of priority prio from side, of exactly bytes (mod 4 = 2), at t. */
static int roce_from(lfc_check_t *c, unsigned side, uint64_t t, unsigned prio, size_t bytes) {
  uint8_t b[CT_FRAME_MAX];
  const size_t len = ct_roce(b, side, prio, 0, bytes);
  assert_int_equal(len, bytes);
  return lfc_check_frame(c, 0, side == SIDE_A ? AB : BA, t, ETH, b, len);
}

/* ---- the reaction budget and transmission during a pause ---- */

static void test_reaction_and_tx_paused(void **state) {
  (void)state;
  lfc_check_t *c = make(NULL);
  assert_int_equal(lfc_check_reaction_quanta(100000), 394);
  assert_int_equal(pfc_from(c, SIDE_B, 0, 3, 1000), 0); /* paused 5.12 .. 5125.12 ns */
  assert_int_equal(cov(c, "xoff"), 1);
  assert_int_equal(roce_from(c, SIDE_A, 1000, 3, 1002), 0); /* within the budget */
  assert_int_equal(cov(c, "reaction_window"), 1);
  assert_int_equal(roce_from(c, SIDE_A, 1500, 2, 1002), 0); /* another priority */
  assert_int_equal(roce_from(c, SIDE_B, 1600, 3, 1002), 0); /* the other direction */
  assert_int_equal(roce_from(c, SIDE_A, 2024, 3, 1002), 1); /* 2018.88 ns after: late */
  ct_expect_one(c, LFC_RULE_PFC_REACTION, "time=2024ns", "dir=A>B", "class=pfc-reaction",
                "802.3 Annex 31B.3.7", "prio=3",
                "no frame of priority 3 started more than 2017ns after a pause reaches",
                "started 2018ns after, the pause lasting 3101ns more", NULL);
  /* It goes on sending: each further frame of the pause is a transmission during it. */
  assert_int_equal(roce_from(c, SIDE_A, 2500, 3, 1002), 1);
  assert_int_equal(lfc_check_count(c, LFC_RULE_PFC_TX_PAUSED), 1);
  char line[CT_LINE];
  lfc_check_format(c, 1, line, sizeof line);
  assert_non_null(strstr(line, "class=pfc-tx-paused"));
  assert_non_null(strstr(line, "started 2494ns into the pause, 2625ns before its end"));
  /* After the quanta ran out (5125.12 ns, and one unit more for whole-ns times) it may go. */
  assert_int_equal(roce_from(c, SIDE_A, 5127, 3, 1002), 0);
  assert_int_equal(cov(c, "quanta_expiry"), 1);
  assert_int_equal(lfc_check_violations(c), 2);
  lfc_check_destroy(c);
}

/* The first frame after the budget, alone: exactly the reaction line. */
static void test_reaction_edge(void **state) {
  (void)state;
  lfc_check_t *c = make(NULL);
  assert_int_equal(pfc_from(c, SIDE_B, 0, 0, 65535), 0);
  /* The budget ends at 5.12 + 2017.28 = 2022.4 ns; times are whole ns, so a frame is late only
   * by more than 1 ns (one time unit): 2023 may be 2023.9. */
  assert_int_equal(roce_from(c, SIDE_A, 2023, 0, 82), 0);
  assert_int_equal(roce_from(c, SIDE_A, 2024, 0, 82), 1);
  ct_expect_one(c, LFC_RULE_PFC_REACTION, "prio=0", NULL);
  assert_int_equal(cov(c, "viol_pfc_reaction"), 1);
  assert_int_equal(cov(c, "viol_pfc_tx_paused"), 0);
  lfc_check_destroy(c);
}

/* A refresh extends a pause in force without a new reaction window; an XON ends it. */
static void test_refresh_and_xon(void **state) {
  (void)state;
  lfc_check_t *c = make(NULL);
  assert_int_equal(pfc_from(c, SIDE_B, 0, 4, 1000), 0);
  assert_int_equal(pfc_from(c, SIDE_B, 3000, 4, 1000), 0); /* until 8125.12 */
  assert_int_equal(cov(c, "pfc_refresh"), 1);
  assert_int_equal(roce_from(c, SIDE_A, 6000, 4, 82), 1);
  ct_expect_one(c, LFC_RULE_PFC_REACTION, "prio=4", "5994ns after", NULL);
  lfc_check_destroy(c);

  c = make(NULL);
  assert_int_equal(pfc_from(c, SIDE_B, 0, 4, 65535), 0);
  assert_int_equal(pfc_from(c, SIDE_B, 100, 4, 0), 0); /* XON at 105.12 */
  assert_int_equal(cov(c, "xon"), 1);
  assert_int_equal(cov(c, "resume_quanta0"), 1);
  assert_int_equal(roce_from(c, SIDE_A, 2500, 4, 82), 0);
  /* An XON for a priority not paused, and a sender that does not resume: nothing to flag. */
  assert_int_equal(pfc_from(c, SIDE_B, 3000, 5, 0), 0);
  ct_expect_none(c);
  lfc_check_destroy(c);
}

static void skew_1000(lfc_check_cfg_t *cfg) { cfg->skew_ns[AB] = 1000; }

/* Seen at B's end with a round trip of 1000 ns: A's frames show up that much later. */
static void test_skew(void **state) {
  (void)state;
  lfc_check_t *c = make(skew_1000);
  assert_int_equal(pfc_from(c, SIDE_B, 0, 1, 65535), 0);
  assert_int_equal(roce_from(c, SIDE_A, 3000, 1, 82), 0);   /* 3000 < 1005.12 + 2017.28 */
  assert_int_equal(pfc_from(c, SIDE_A, 3100, 1, 65535), 0); /* A pauses B: no skew that way */
  assert_int_equal(roce_from(c, SIDE_B, 5200, 1, 82), 1);
  ct_expect_one(c, LFC_RULE_PFC_REACTION, "dir=B>A", NULL);
  assert_int_equal(roce_from(c, SIDE_A, 3100 + 30, 1, 82), -1); /* time went back */
  assert_int_equal(roce_from(c, SIDE_A, 5300, 1, 82), 1);
  assert_int_equal(lfc_check_count(c, LFC_RULE_PFC_REACTION), 2);
  lfc_check_destroy(c);
}

static void watchdog_10us(lfc_check_cfg_t *cfg) { cfg->watchdog_ns = 10000; }

/* A sender whose PFC watchdog gives up on a pause in force for 10 us (SPEC §6.8). */
static void test_watchdog(void **state) {
  (void)state;
  lfc_check_t *c = make(watchdog_10us);
  assert_int_equal(pfc_from(c, SIDE_B, 0, 6, 65535), 0);
  assert_int_equal(roce_from(c, SIDE_A, 10004, 6, 82), 1); /* 9998.88 (+1) ns in: not yet */
  assert_int_equal(roce_from(c, SIDE_A, 10005, 6, 82), 0);
  assert_int_equal(roce_from(c, SIDE_A, 20000, 6, 82), 0);
  assert_int_equal(cov(c, "watchdog"), 1);
  /* XON, then a new pause: its watchdog is counted anew. */
  assert_int_equal(pfc_from(c, SIDE_B, 30000, 6, 0), 0);
  assert_int_equal(pfc_from(c, SIDE_B, 31000, 6, 65535), 0);
  assert_int_equal(roce_from(c, SIDE_A, 45000, 6, 82), 0);
  assert_int_equal(cov(c, "watchdog"), 2);
  ct_expect_one(c, LFC_RULE_PFC_REACTION, "prio=6", NULL);
  lfc_check_destroy(c);
}

/* An 802.3x PAUSE pauses every priority. */
static void test_pause_8023x(void **state) {
  (void)state;
  lfc_check_t *c = make(NULL);
  uint8_t b[LFC_PFC_FRAME_BYTES];
  const size_t len = ct_pause(b, SIDE_B, 1000);
  assert_int_equal(lfc_check_frame(c, 0, BA, 0, ETH, b, len), 0);
  assert_int_equal(cov(c, "pause_8023x"), 1);
  assert_int_equal(roce_from(c, SIDE_A, 2100, 5, 82), 1);
  ct_expect_one(c, LFC_RULE_PFC_REACTION, "prio=5", NULL);
  lfc_check_destroy(c);
}

static void dscp(lfc_check_cfg_t *cfg) { cfg->prio_dscp = true; }

/* With DSCP priorities, an IP frame's DSCP decides; other frames still go by their PCP. */
static void test_dscp_priorities(void **state) {
  (void)state;
  lfc_check_t *c = make(dscp);
  uint8_t b[CT_FRAME_MAX];
  assert_int_equal(pfc_from(c, SIDE_B, 0, 4, 65535), 0);
  size_t len = ct_roce(b, SIDE_A, 0, 32, 120); /* PCP 0, DSCP 32: priority 4 */
  assert_int_equal(lfc_check_frame(c, 0, AB, 2100, ETH, b, len), 1);
  ct_expect_one(c, LFC_RULE_PFC_REACTION, "prio=4", NULL);
  len = ct_roce(b, SIDE_A, 4, 0, 120); /* PCP 4, DSCP 0: priority 0 */
  assert_int_equal(lfc_check_frame(c, 0, AB, 2200, ETH, b, len), 0);
  len = ct_eth(b, SIDE_A, 4, 100); /* not IP: PCP 4 */
  assert_int_equal(lfc_check_frame(c, 0, AB, 2300, ETH, b, len), 1);
  assert_int_equal(lfc_check_count(c, LFC_RULE_PFC_TX_PAUSED), 1);
  assert_int_equal(cov(c, "other_data_frame"), 1);
  lfc_check_destroy(c);
}

/* ---- the receiver's refresh (SPEC §6.6) ---- */

static void test_refresh_late_from_frames(void **state) {
  (void)state;
  lfc_check_t *c = make(NULL);
  assert_int_equal(pfc_from(c, SIDE_B, 0, 1, 100), 0);
  assert_int_equal(pfc_from(c, SIDE_B, 200, 1, 0), 0);    /* B ends pauses with XON */
  assert_int_equal(pfc_from(c, SIDE_B, 1000, 1, 100), 0); /* runs out at 1517.12 */
  assert_int_equal(pfc_from(c, SIDE_B, 2000, 1, 100), 1);
  ct_expect_one(c, LFC_RULE_PFC_REFRESH, "dir=B>A", "prio=1", "class=pfc-refresh-late",
                "a refresh before 1517ns", "XOFF again 488ns after it ran out", NULL);
  /* Refreshed in time from there (runs out at 2517.12): no more lines. */
  assert_int_equal(pfc_from(c, SIDE_B, 2400, 1, 100), 0);
  assert_int_equal(lfc_check_violations(c), 1);
  lfc_check_destroy(c);

  /* A receiver that never sends XON pauses by time alone: an XOFF after a lapse is a new
   * pause, not a late refresh. */
  c = make(NULL);
  assert_int_equal(pfc_from(c, SIDE_B, 1000, 1, 100), 0);
  assert_int_equal(pfc_from(c, SIDE_B, 2000, 1, 100), 0);
  /* And an XON after a lapse is not flagged either. */
  assert_int_equal(pfc_from(c, SIDE_B, 3000, 1, 0), 0);
  ct_expect_none(c);
  assert_int_equal(cov(c, "quanta_expiry"), 2);
  lfc_check_destroy(c);
}

/* The receiver's XOFF state reported by the user's monitor: exact. */
static void test_refresh_late_reported(void **state) {
  (void)state;
  lfc_check_t *c = make(NULL);
  assert_int_equal(lfc_check_xoff(c, 0, AB, 0, 0, true), 0); /* B wants A paused */
  assert_int_equal(pfc_from(c, SIDE_B, 0, 0, 100), 0);       /* runs out at 517.12 */
  assert_int_equal(lfc_check_finish(c, 1000), 1);
  ct_expect_one(c, LFC_RULE_PFC_REFRESH, "time=1000ns", "dir=B>A", "prio=0",
                "a refresh before 517ns", "still in XOFF (reported)", NULL);
  lfc_check_destroy(c);

  c = make(NULL);
  assert_int_equal(lfc_check_xoff(c, 0, AB, 0, 2, true), 0);
  assert_int_equal(pfc_from(c, SIDE_B, 0, 2, 100), 0);
  assert_int_equal(lfc_check_xoff(c, 0, AB, 400, 2, false), 0); /* left XOFF in time */
  assert_int_equal(lfc_check_finish(c, 1000), 0);
  ct_expect_none(c);
  lfc_check_destroy(c);
  /* Left XOFF too late: the report itself finds the lapse before it. */
  c = make(NULL);
  assert_int_equal(lfc_check_xoff(c, 0, AB, 0, 2, true), 0);
  assert_int_equal(pfc_from(c, SIDE_B, 0, 2, 100), 0);
  assert_int_equal(lfc_check_xoff(c, 0, AB, 800, 2, false), 1);
  ct_expect_one(c, LFC_RULE_PFC_REFRESH, "time=800ns", "prio=2", NULL);
  assert_int_equal(lfc_check_violation(c, 0)->frame, 0);
  assert_int_equal(lfc_check_xoff(c, 0, AB, 0, 8, true), -1);
  lfc_check_destroy(c);
}

/* ---- headroom (SPEC §11) ---- */

static void headroom_3006(lfc_check_cfg_t *cfg) { cfg->headroom_bytes[3] = 3006; }

static void test_headroom(void **state) {
  (void)state;
  lfc_check_t *c = make(headroom_3006);
  assert_int_equal(roce_from(c, SIDE_A, 50, 3, 1002), 0); /* ends at 130: after the XOFF */
  assert_int_equal(pfc_from(c, SIDE_B, 100, 3, 65535), 0);
  assert_int_equal(roce_from(c, SIDE_A, 200, 3, 1002), 0);
  assert_int_equal(roce_from(c, SIDE_A, 300, 3, 1002), 0); /* 3006: all the room */
  assert_int_equal(lfc_check_headroom_max(c, 0, AB, 3), 3006);
  assert_int_equal(roce_from(c, SIDE_A, 400, 3, 1002), 1);
  ct_expect_one(c, LFC_RULE_PFC_HEADROOM, "dir=A>B", "prio=3", "at most 3006 bytes", "4008 bytes",
                NULL);
  assert_int_equal(roce_from(c, SIDE_A, 500, 3, 1002), 0); /* flagged once per pause */
  assert_int_equal(pfc_from(c, SIDE_B, 600, 3, 0), 0);
  assert_int_equal(roce_from(c, SIDE_A, 700, 3, 1002), 0); /* after XON: not headroom */
  assert_int_equal(lfc_check_headroom_max(c, 0, AB, 3), 5010);
  assert_true(cov(c, "headroom_used") > 0);
  lfc_check_destroy(c);
}

/* ---- drops reported by the user's monitor ---- */

static void lossless_3(lfc_check_cfg_t *cfg) { cfg->lossless_mask = 0x08; }

static void test_drop(void **state) {
  (void)state;
  lfc_check_t *c = make(lossless_3);
  assert_int_equal(lfc_check_drop(c, 0, AB, 10, 5), 0); /* lossy */
  assert_int_equal(lfc_check_drop(c, 0, AB, 20, 3), 1);
  ct_expect_one(c, LFC_RULE_PFC_DROP, "time=20ns", "dir=A>B", "prio=3",
                "no drop of lossless priority 3", NULL);
  /* Once A ignored a pause of priority 3, its drops are A's doing. */
  assert_int_equal(pfc_from(c, SIDE_B, 30, 3, 65535), 0);
  assert_int_equal(roce_from(c, SIDE_A, 2100, 3, 82), 1);
  assert_int_equal(lfc_check_drop(c, 0, AB, 2200, 3), 0);
  assert_int_equal(lfc_check_drop(c, 0, BA, 2250, 3), 1); /* B's own sender broke nothing */
  assert_int_equal(cov(c, "drop_excused"), 1);
  assert_int_equal(cov(c, "drop_allowed"), 1);
  assert_int_equal(lfc_check_violation(c, 2)->frame, 0); /* a drop has no frame */
  assert_int_equal(lfc_check_drop(c, 0, AB, 2300, 8), -1);
  assert_non_null(strstr(lfc_check_error(c), "class 8, allowed 0..7 (priority)"));
  assert_int_equal(lfc_check_violations(c), 3);
  lfc_check_destroy(c);
  c = make(NULL); /* by default every priority is lossless */
  assert_int_equal(lfc_check_drop(c, 0, BA, 10, 0), 1);
  assert_int_equal(lfc_check_drop(c, 0, BA, 11, 7), 1);
  lfc_check_destroy(c);
}

/* ---- frame size and malformed frames ---- */

static void mtu_1502(lfc_check_cfg_t *cfg) { cfg->mtu_bytes = 1502; }

static void test_mtu(void **state) {
  (void)state;
  lfc_check_t *c = make(mtu_1502);
  assert_int_equal(roce_from(c, SIDE_A, 0, 2, 1502), 0);
  assert_int_equal(cov(c, "mtu_exact"), 1);
  assert_int_equal(roce_from(c, SIDE_A, 200, 2, 1506), 1);
  ct_expect_one(c, LFC_RULE_ETH_MTU, "prio=2", "at most 1502 bytes", "1506 bytes", NULL);
  lfc_check_destroy(c);
}

static void fix_fcs(uint8_t *b, size_t len) {
  const uint32_t fcs = lfc_crc32(b, len - 4u);
  for (unsigned i = 0; i < 4; i++) b[len - 4u + i] = (uint8_t)(fcs >> (8u * i));
}

static void test_malformed(void **state) {
  (void)state;
  uint8_t b[CT_FRAME_MAX];
  lfc_check_t *c = make(NULL);
  size_t len = ct_pfc1(b, SIDE_B, 3, 65535);
  b[len - 1] ^= 0x80;
  assert_int_equal(lfc_check_frame(c, 0, BA, 0, ETH, b, len), 1);
  ct_expect_one(c, LFC_RULE_ETH_MALFORMED, "class=eth-malformed", "bad-fcs", NULL);
  /* The broken XOFF paused nothing. */
  assert_int_equal(roce_from(c, SIDE_A, 3000, 3, 82), 0);
  lfc_check_destroy(c);

  c = make(NULL);
  len = ct_pfc1(b, SIDE_B, 3, 65535);
  b[15] = 0x02; /* opcode 0x0102: not PFC */
  fix_fcs(b, len);
  assert_int_equal(lfc_check_frame(c, 0, BA, 0, ETH, b, len), 1);
  ct_expect_one(c, LFC_RULE_ETH_MALFORMED, "bad-opcode", NULL);
  lfc_check_destroy(c);

  c = make(NULL);
  len = ct_roce(b, SIDE_A, 2, 0, 200);
  b[100] ^= 0x01; /* a payload byte: the ICRC */
  fix_fcs(b, len);
  assert_int_equal(lfc_check_frame(c, 0, AB, 0, ETH, b, len), 1);
  ct_expect_one(c, LFC_RULE_ETH_MALFORMED, "prio=2", "a RoCEv2 frame", "bad-icrc", NULL);
  lfc_check_destroy(c);

  c = make(NULL);
  len = ct_eth(b, SIDE_A, 1, 100);
  b[50] ^= 0x01;
  assert_int_equal(lfc_check_frame(c, 0, AB, 0, ETH, b, len), 1);
  ct_expect_one(c, LFC_RULE_ETH_MALFORMED, "a frame with a good FCS", NULL);
  assert_int_equal(lfc_check_frame(c, 0, AB, 10, ETH, b, 40), 1); /* a runt */
  assert_int_equal(lfc_check_count(c, LFC_RULE_ETH_MALFORMED), 2);
  lfc_check_destroy(c);
}

static void no_fcs(lfc_check_cfg_t *cfg) { cfg->eth_fcs = false; }

/* Frames captured without their FCS (as Linux captures): the monitor adds it back. */
static void test_frames_without_fcs(void **state) {
  (void)state;
  lfc_check_t *c = make(no_fcs);
  uint8_t b[CT_FRAME_MAX];
  size_t len = ct_pfc1(b, SIDE_B, 7, 65535);
  assert_int_equal(lfc_check_frame(c, 0, BA, 0, ETH, b, len - 4u), 0);
  len = ct_roce(b, SIDE_A, 7, 0, 1000);
  assert_int_equal(lfc_check_frame(c, 0, AB, 100, ETH, b, len - 4u), 0);
  assert_int_equal(lfc_check_frame(c, 0, AB, 2100, ETH, b, len - 4u), 1);
  ct_expect_one(c, LFC_RULE_PFC_REACTION, "prio=7", NULL);
  assert_int_equal(cov(c, "roce_frame"), 2);
  lfc_check_destroy(c);
}

static void test_config_refused(void **state) {
  (void)state;
  lfc_check_cfg_t cfg;
  char err[256];
  lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
  cfg.speed_mbps = 56000;
  assert_null(lfc_check_create(&cfg, err, sizeof err));
  assert_non_null(strstr(err, "no IEEE 802.3 Annex 31B reaction budget for 56000 Mb/s"));
  cfg.reaction_ns = 2000; /* given: fine */
  lfc_check_t *c = lfc_check_create(&cfg, err, sizeof err);
  assert_non_null(c);
  lfc_check_destroy(c);
  lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
  cfg.reaction_ns = 100;
  cfg.speed_mbps = 1600000; /* 1.6 Tb/s: the fastest allowed */
  c = lfc_check_create(&cfg, err, sizeof err);
  assert_non_null(c);
  assert_string_equal(err, "");
  lfc_check_destroy(c);
  cfg.speed_mbps = 1600001;
  assert_null(lfc_check_create(&cfg, err, sizeof err));
  assert_string_equal(err, "check: speed_mbps 1600001, allowed 1..1600000");
  cfg.speed_mbps = 0;
  assert_null(lfc_check_create(&cfg, err, sizeof err));
  lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
  cfg.mtu_bytes = 63;
  assert_null(lfc_check_create(&cfg, err, sizeof err));
  lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
  cfg.dscp_to_prio[9] = 8;
  assert_null(lfc_check_create(&cfg, err, sizeof err));
  assert_string_equal(err, "check: dscp_to_prio[9] 8, allowed 0..7");
  lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
  cfg.mode = (lfc_mode_t)2;
  assert_null(lfc_check_create(&cfg, err, sizeof err));
  assert_string_equal(err, "check: mode 2, allowed 0 (IB) or 1 (PFC)");
  assert_int_equal(lfc_check_reaction_quanta(400000), 905);
  assert_int_equal(lfc_check_reaction_quanta(10000), 67);
  assert_int_equal(lfc_check_reaction_quanta(12345), 0);
}

/* Coverage names are unique, each belongs to a mode, and there is one per rule of a monitor. */
static void test_coverage_points(void **state) {
  (void)state;
  const size_t n = lfc_check_cov_points();
  size_t viol = 0;
  for (size_t i = 0; i < n; i++) {
    const char *name = lfc_check_cov_name(i);
    assert_non_null(name);
    for (size_t j = 0; j < i; j++) assert_string_not_equal(name, lfc_check_cov_name(j));
    assert_true(lfc_check_cov_in_mode(i, LFC_MODE_IB) || lfc_check_cov_in_mode(i, LFC_MODE_PFC));
    if (strncmp(name, "viol_", 5) == 0) viol++;
  }
  assert_null(lfc_check_cov_name(n));
  assert_false(lfc_check_cov_in_mode(n, LFC_MODE_IB));
  assert_false(lfc_check_cov_in_mode(n + LFC_RULES, LFC_MODE_PFC)); /* past the table */
  assert_false(lfc_check_cov_in_mode(0, (lfc_mode_t)2));
  assert_int_equal(viol, LFC_RULE_SB_LOST);
  assert_string_equal(lfc_check_cov_name(n - 1), "viol_eth_malformed");
  assert_true(lfc_check_cov_in_mode(cov_index("viol_pfc_reaction"), LFC_MODE_PFC));
  assert_false(lfc_check_cov_in_mode(cov_index("viol_pfc_reaction"), LFC_MODE_IB));
  for (int r = 0; r < LFC_RULES; r++) {
    assert_string_not_equal(lfc_check_rule_name((lfc_check_rule_t)r), "?");
    assert_true(strlen(lfc_check_rule_source((lfc_check_rule_t)r)) > 0);
    assert_true(strlen(lfc_check_rule_what((lfc_check_rule_t)r)) > 0);
  }
  assert_string_equal(lfc_check_rule_name(LFC_RULES), "?");
}

/* ---- a well-behaved pair of sides ---- */

#define PRIOS 8u
#define QUANTUM_PS 5120u
#define PFC_FRAME_PS 5120u
#define BUDGET_PS 2017280u
#define NEVER UINT64_MAX
#define EPISODES 8u

typedef struct {
  /* as the pausing receiver of the other side's data */
  bool xoff[PRIOS];
  uint16_t q[PRIOS];
  uint64_t refresh_at[PRIOS], leave_at[PRIOS]; /* ns */
  /* as the sender: the other side's pauses acting on me, [from, until) in ps, the last few
   * (a pause can be decided - an XON and a new XOFF sent - before the one before has reached
   * me over a long link) */
  uint64_t from_ps[PRIOS][EPISODES], until_ps[PRIOS][EPISODES], arrival_ps[PRIOS][EPISODES];
  unsigned last[PRIOS];
  uint64_t free_ns;
} pside_t;

typedef struct {
  uint64_t seen;
  uint32_t seq;
  uint8_t side, is_pfc, en, prio;
  uint16_t q[PRIOS];
  uint16_t bytes;
} prec_t;

static int prec_cmp(const void *a, const void *b) {
  const prec_t *x = a, *y = b;
  if (x->seen != y->seen) return x->seen < y->seen ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The pause of a PFC frame sent by the other side at t_ns reaches me (the sender) at its end,
 * delay_ns later; I stop within the budget, at a random point, and resume at its end or XON. */
static void apply_pause(pside_t *me, uint64_t *s, uint64_t t_ns, unsigned delay_ns, unsigned prio,
                        uint16_t q) {
  const uint64_t arrival = (t_ns + delay_ns) * 1000u + PFC_FRAME_PS;
  unsigned e = me->last[prio];
  const bool in_force = arrival < me->until_ps[prio][e];
  if (q > 0) {
    if (!in_force) {
      e = me->last[prio] = (e + 1u) % EPISODES;
      me->arrival_ps[prio][e] = arrival;
      me->from_ps[prio][e] = arrival + wt_below(s, BUDGET_PS - 1000u);
    }
    me->until_ps[prio][e] = arrival + (uint64_t)q * QUANTUM_PS;
  } else if (in_force) {
    me->until_ps[prio][e] = arrival;
  }
}

/* Paused at t_ns; *since: the arrival of that pause. */
static bool blocked(const pside_t *me, unsigned prio, uint64_t t_ns, uint64_t *since) {
  const uint64_t t = t_ns * 1000u;
  for (unsigned e = 0; e < EPISODES; e++) {
    if (t >= me->from_ps[prio][e] && t < me->until_ps[prio][e]) {
      if (since != NULL) *since = me->arrival_ps[prio][e];
      return true;
    }
  }
  return false;
}

typedef struct {
  unsigned delay_ns;
  unsigned observe; /* the side at whose end the frames are seen */
  unsigned turns;
  bool cheat; /* side A once sends into a pause, past the budget */
} psim_t;

static void run_pfc_sim(const psim_t *k, uint64_t seed) {
  uint64_t s = wt_seed("run_pfc_sim", seed);
  pside_t side[2];
  memset(side, 0, sizeof side);
  prec_t *recs = calloc(2u * k->turns + 4u, sizeof *recs);
  assert_non_null(recs);
  size_t n = 0;
  bool cheated = false;
  for (unsigned turn = 0; turn < k->turns; turn++) {
    const unsigned x = side[0].free_ns <= side[1].free_ns ? 0u : 1u;
    pside_t *me = &side[x], *peer = &side[1u - x];
    const uint64_t t = me->free_ns;
    prec_t r;
    memset(&r, 0, sizeof r);
    r.side = (uint8_t)x;
    /* My pauses of the peer: enter, refresh before the quanta run out, leave with XON. */
    for (unsigned p = 0; p < PRIOS; p++) {
      if (!me->xoff[p]) {
        if (wt_below(&s, 200) != 0) continue;
        me->xoff[p] = true;
        if (wt_below(&s, 5) == 0) {
          /* left to lapse, then an XON: legal, and covers the quanta running out */
          me->q[p] = (uint16_t)(20u + wt_below(&s, 80));
          me->refresh_at[p] = NEVER;
          me->leave_at[p] = t + me->q[p] * QUANTUM_PS / 1000u + 10u + wt_below(&s, 2000);
        } else {
          me->q[p] = (uint16_t)(300u + wt_below(&s, 3700));
          me->refresh_at[p] = t + me->q[p] * QUANTUM_PS / 2000u;
          me->leave_at[p] = t + 100u + wt_below(&s, 30000);
        }
        r.en |= (uint8_t)(1u << p);
        r.q[p] = me->q[p];
      } else if (t >= me->leave_at[p]) {
        me->xoff[p] = false;
        r.en |= (uint8_t)(1u << p);
        r.q[p] = 0;
      } else if (t >= me->refresh_at[p]) {
        me->refresh_at[p] = t + me->q[p] * QUANTUM_PS / 2000u;
        r.en |= (uint8_t)(1u << p);
        r.q[p] = me->q[p];
      }
    }
    if (r.en != 0) {
      r.is_pfc = 1;
      for (unsigned p = 0; p < PRIOS; p++) {
        if ((r.en >> p) & 1u) apply_pause(peer, &s, t, k->delay_ns, p, r.q[p]);
      }
      me->free_ns = t + 6u;
    } else {
      /* Data of a priority I may send now. */
      unsigned prio = wt_below(&s, PRIOS);
      unsigned tries = 0;
      bool cheat = false;
      uint64_t since = 0;
      while (blocked(me, prio, t, &since) && tries < PRIOS) {
        if (k->cheat && !cheated && x == 0 && t * 1000u >= since + BUDGET_PS + 2000u &&
            turn > k->turns / 2u) {
          cheat = true;
          break;
        }
        prio = (prio + 1u) % PRIOS;
        tries++;
      }
      if (tries == PRIOS) {
        me->free_ns = t + 1u + wt_below(&s, 200);
        continue;
      }
      cheated = cheated || cheat;
      r.prio = (uint8_t)prio;
      r.bytes = (uint16_t)(82u + 4u * wt_below(&s, 2230)); /* 82 .. 8998 */
      me->free_ns = t + (r.bytes * 8u + 99u) / 100u + 1u;
    }
    r.seq = (uint32_t)n;
    r.seen = t + (x == k->observe ? 0u : k->delay_ns);
    recs[n++] = r;
  }
  qsort(recs, n, sizeof *recs, prec_cmp);
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
  /* The data of the side seen here shows its pauses a round trip late, the other's at once. */
  cfg.skew_ns[k->observe == SIDE_A ? BA : AB] = 2u * k->delay_ns;
  lfc_check_t *c = lfc_check_create(&cfg, NULL, 0);
  assert_non_null(c);
  uint8_t b[CT_FRAME_MAX];
  for (size_t i = 0; i < n; i++) {
    const prec_t *r = &recs[i];
    const size_t len =
        r->is_pfc ? ct_pfc(b, r->side, r->en, r->q) : ct_roce(b, r->side, r->prio, 0, r->bytes);
    const int got = lfc_check_frame(c, 0, r->side == SIDE_A ? AB : BA, r->seen, ETH, b, len);
    if (got != 0 && !k->cheat) ct_dump(c);
    assert_true(got == 0 || (got > 0 && k->cheat));
  }
  assert_true(lfc_check_finish(c, recs[n - 1].seen) >= 0);
  if (k->cheat) {
    assert_true(cheated);
    ct_expect_one(c, LFC_RULE_PFC_REACTION, "dir=A>B", NULL);
  } else {
    ct_expect_none(c);
    printf("  %zu frames: xoff %llu refresh %llu xon %llu expiry %llu in-window %llu\n", n,
           (unsigned long long)cov(c, "xoff"), (unsigned long long)cov(c, "pfc_refresh"),
           (unsigned long long)cov(c, "xon"), (unsigned long long)cov(c, "quanta_expiry"),
           (unsigned long long)cov(c, "reaction_window"));
    const char *must[] = {"xoff",           "pfc_refresh",     "xon",       "quanta_expiry",
                          "resume_quanta0", "reaction_window", "roce_frame"};
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) assert_true(cov(c, must[i]) > 0);
  }
  lfc_check_destroy(c);
  free(recs);
}

/* Turns per run: enough for hundreds of pauses, refreshes and XONs and dozens of lapses per run
 * (the coverage points each run asserts), and few enough that the binary stays far below
 * scripts/mutants-c.py's 120 s per binary on a loaded machine under UBSan. Nearly all the time
 * goes into the bitwise CRC-32 of the frames (crc.c), written and checked. */
#define SIM_TURNS 8000u

static void test_well_behaved_pair(void **state) {
  (void)state;
  static const psim_t runs[] = {
      {0, SIDE_A, SIM_TURNS, false},
      {50, SIDE_A, SIM_TURNS, false},
      {50, SIDE_B, SIM_TURNS, false},
      {1000, SIDE_B, SIM_TURNS, false},
  };
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    run_pfc_sim(&runs[i], 0x9FC00000ull + i);
  }
}

static void test_pair_with_one_frame_into_a_pause(void **state) {
  (void)state;
  const psim_t k = {50, SIDE_B, SIM_TURNS, true};
  run_pfc_sim(&k, 0x9FC00100ull);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reaction_and_tx_paused),
      cmocka_unit_test(test_reaction_edge),
      cmocka_unit_test(test_refresh_and_xon),
      cmocka_unit_test(test_skew),
      cmocka_unit_test(test_watchdog),
      cmocka_unit_test(test_pause_8023x),
      cmocka_unit_test(test_dscp_priorities),
      cmocka_unit_test(test_refresh_late_from_frames),
      cmocka_unit_test(test_refresh_late_reported),
      cmocka_unit_test(test_headroom),
      cmocka_unit_test(test_drop),
      cmocka_unit_test(test_mtu),
      cmocka_unit_test(test_malformed),
      cmocka_unit_test(test_frames_without_fcs),
      cmocka_unit_test(test_config_refused),
      cmocka_unit_test(test_coverage_points),
      cmocka_unit_test(test_well_behaved_pair),
      cmocka_unit_test(test_pair_with_one_frame_into_a_pause),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
