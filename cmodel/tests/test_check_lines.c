/*
 * test_check_lines.c - the whole one-line form (lfc_check_format) of a violation of every rule of
 * the IB and PFC monitors of lfc/check.h: time, link, direction, rule name and source, class,
 * what was expected and what was seen, frame. Each sequence breaks one rule once; the line is
 * compared in full, so that every number and word of it is the checker's and none is left out.
 *
 * Times are nanoseconds at 100 Gb/s (a 64-byte frame or a quantum: 5.12 ns).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "check_testutil.h"
#include "lfc/check.h"

#define AB LFC_CHECK_AB
#define BA LFC_CHECK_BA
#define ETH LFC_PCAP_ETH
#define DATA LFC_PCAP_IB_DATA
#define LINK LFC_PCAP_IB_LINK
#define SIDE_A 0u
#define SIDE_B 1u

static lfc_check_t *make(lfc_mode_t mode, const char *settings) {
  char err[256];
  lfc_check_t *c = lfc_check_create_text(mode, settings, err, sizeof err);
  if (c == NULL) printf("create: %s\n", err);
  assert_non_null(c);
  return c;
}

/* The checker found exactly one violation, and this is its line. */
static void line_is(lfc_check_t *c, const char *want) {
  char line[CT_LINE];
  if (lfc_check_violations(c) != 1) ct_dump(c);
  assert_int_equal(lfc_check_violations(c), 1);
  assert_non_null(lfc_check_format(c, 0, line, sizeof line));
  if (strcmp(line, want) != 0) printf("got:  %s\nwant: %s\n", line, want);
  assert_string_equal(line, want);
  lfc_check_destroy(c);
}

static int ib_data(lfc_check_t *c, uint32_t dir, uint64_t t, unsigned vl, unsigned n) {
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

static int pfc(lfc_check_t *c, unsigned side, uint64_t t, unsigned prio, uint16_t q) {
  uint8_t b[LFC_PFC_FRAME_BYTES];
  const size_t len = ct_pfc1(b, side, prio, q);
  return lfc_check_frame(c, 0, side == SIDE_A ? AB : BA, t, ETH, b, len);
}

static int roce(lfc_check_t *c, unsigned side, uint64_t t, unsigned prio, size_t bytes) {
  uint8_t b[CT_FRAME_MAX];
  const size_t len = ct_roce(b, side, prio, 0, bytes);
  return lfc_check_frame(c, 0, side == SIDE_A ? AB : BA, t, ETH, b, len);
}

/* ---- IB ---- */

static void test_ib_lines(void **state) {
  (void)state;
  lfc_check_t *c = make(LFC_MODE_IB, "from_reset=1");
  assert_int_equal(fcp(c, BA, 10, 2, 0, 5), 0);
  assert_int_equal(ib_data(c, AB, 20, 2, 6), 1);
  line_is(c,
          "time=20ns link=0 dir=A>B class=ib-send rule=\"SPEC §5.3; IBA vol.1 §7.9 [reading]\" "
          "vl=2 expected=\"(FCCL - (FCTBS + n)) mod 4096 <= 2048\" observed=\"FCCL 5, FCTBS 0, n "
          "6: 4095\" frame=2");

  c = make(LFC_MODE_IB, "from_reset=1");
  assert_int_equal(fcp(c, BA, 10, 1, 0, 100), 0);
  assert_int_equal(ib_data(c, AB, 20, 1, 3), 0);
  assert_int_equal(fcp(c, AB, 30, 1, 7, 0), 1);
  line_is(c,
          "time=30ns link=0 dir=A>B class=ib-fctbs rule=\"SPEC §5.3, §5.5; IBA vol.1 §7.9 "
          "[reading]\" vl=1 expected=\"FCTBS 3: the blocks seen sent on VL 1, mod 4096\" "
          "observed=\"FCTBS 7 (+4)\" frame=3");

  c = make(LFC_MODE_IB, "");
  assert_int_equal(fcp(c, BA, 0, 4, 0, 300), 0);
  assert_int_equal(fcp(c, BA, 1, 4, 0, 200), 1);
  line_is(c,
          "time=1ns link=0 dir=B>A class=ib-fccl-step rule=\"SPEC §5.4\" vl=4 expected=\"FCCL 300 "
          "+ 0..2048, mod 4096 (never backwards)\" observed=\"FCCL 200 (-100)\" frame=2");

  c = make(LFC_MODE_IB, "from_reset=1");
  assert_int_equal(fcp(c, BA, 0, 3, 0, 2000), 0);
  assert_int_equal(ib_data(c, AB, 1, 3, 4), 0);
  assert_int_equal(fcp(c, BA, 2, 3, 0, 2060), 1);
  line_is(c,
          "time=2ns link=0 dir=B>A class=ib-fccl-cap rule=\"SPEC §5.3, §5.4\" vl=3 "
          "expected=\"FCCL at most 2048 beyond the 4 blocks sent (FCTBS) on VL 3\" "
          "observed=\"FCCL 2060: 2056 beyond\" frame=3");

  c = make(LFC_MODE_IB, "fcp_period_ns=1000 mtu_bytes=256");
  assert_int_equal(fcp(c, AB, 0, 5, 0, 0), 0);
  assert_int_equal(fcp(c, AB, 2000, 5, 0, 0), 1);
  line_is(c,
          "time=2000ns link=0 dir=A>B class=ib-fcp-period rule=\"SPEC §5.5; IBA vol.1 §7.9 "
          "[reading]\" vl=5 expected=\"an FCP at least every 1000ns (+25ns for one MTU packet)\" "
          "observed=\"2000ns since the last one\" frame=2");
  c = make(LFC_MODE_IB, "fcp_period_ns=1000 mtu_bytes=256 links=2");
  uint8_t b[CT_FRAME_MAX];
  size_t len = ct_fcp(b, 0, 6, 0, 0);
  assert_int_equal(lfc_check_frame(c, 1, BA, 100, LINK, b, len), 0);
  assert_int_equal(lfc_check_finish(c, 3000), 1);
  line_is(c,
          "time=3000ns link=1 dir=B>A class=ib-fcp-period rule=\"SPEC §5.5; IBA vol.1 §7.9 "
          "[reading]\" vl=6 expected=\"an FCP at least every 1000ns (+25ns for one MTU packet)\" "
          "observed=\"none in the last 2900ns, to the end\"");

  c = make(LFC_MODE_IB, "");
  assert_int_equal(fcp(c, AB, 0, 15, 1, 2), 1);
  line_is(c,
          "time=0ns link=0 dir=A>B class=ib-vl15 rule=\"SPEC §5.1; IBA vol.1 C7-18 [reading]\" "
          "vl=15 expected=\"no FCP for VL15 (no credits)\" observed=\"an FCP for VL15, FCTBS 1 "
          "FCCL 2\" frame=1");
  c = make(LFC_MODE_IB, "");
  len = ct_ib_payload(b, 15, 256, 9);
  assert_int_equal(lfc_check_frame(c, 0, BA, 0, DATA, b, len), 1);
  line_is(c,
          "time=0ns link=0 dir=B>A class=ib-vl15 rule=\"SPEC §5.1; IBA vol.1 C7-18 [reading]\" "
          "vl=15 expected=\"a VL15 packet goes to QP0 (subnet management)\" observed=\"DestQP 9\" "
          "frame=1");
  c = make(LFC_MODE_IB, "");
  len = ct_ib_payload(b, 15, 264, 0);
  assert_int_equal(lfc_check_frame(c, 0, AB, 0, DATA, b, len), 1);
  line_is(c,
          "time=0ns link=0 dir=A>B class=ib-vl15 rule=\"SPEC §5.1; IBA vol.1 C7-18 [reading]\" "
          "vl=15 expected=\"a VL15 payload of at most 256 bytes (one MAD)\" observed=\"264 bytes\" "
          "frame=1");

  c = make(LFC_MODE_IB, "data_vls=3");
  assert_int_equal(ib_data(c, AB, 0, 3, 1), 1);
  line_is(c,
          "time=0ns link=0 dir=A>B class=ib-vl rule=\"SPEC §3.1, §5.3\" vl=3 expected=\"data VLs "
          "0..2\" observed=\"a data packet on VL 3\" frame=1");
  c = make(LFC_MODE_IB, "data_vls=3");
  assert_int_equal(fcp(c, BA, 0, 7, 0, 0), 1);
  line_is(c,
          "time=0ns link=0 dir=B>A class=ib-vl rule=\"SPEC §3.1, §5.3\" vl=7 expected=\"FCPs for "
          "data VLs 0..2\" observed=\"an FCP for VL 7\" frame=1");

  c = make(LFC_MODE_IB, "mtu_bytes=512");
  len = ct_ib_payload(b, 0, 516, 0x10);
  assert_int_equal(lfc_check_frame(c, 0, AB, 0, DATA, b, len), 1);
  line_is(c,
          "time=0ns link=0 dir=A>B class=ib-mtu rule=\"SPEC §3.1 mtu_blocks; IBA vol.1 §7.7 "
          "[reading]\" vl=0 expected=\"a payload of at most 512 bytes (MTU)\" observed=\"516 "
          "bytes\" frame=1");

  c = make(LFC_MODE_IB, "");
  len = ct_fcp(b, 0, 1, 0, 0);
  b[len - 1] ^= 1u; /* the LPCRC */
  assert_int_equal(lfc_check_frame(c, 0, AB, 0, LINK, b, len), 1);
  assert_int_equal(lfc_check_violation(c, 0)->rule, LFC_RULE_IB_MALFORMED);
  char line[CT_LINE];
  lfc_check_format(c, 0, line, sizeof line);
  assert_non_null(strstr(line, " class=ib-malformed rule=\"docs/wire-formats.md §3, §4; IBA vol.1 "
                               "§7.7-7.9\" expected=\"an FCP the decoder accepts\" observed=\""));
  lfc_check_destroy(c);

  c = make(LFC_MODE_IB, "");
  assert_int_equal(lfc_check_drop(c, 0, BA, 40, 8), 1);
  line_is(c,
          "time=40ns link=0 dir=B>A class=ib-drop rule=\"SPEC §5.4, §10\" vl=8 expected=\"no drop "
          "on a data VL whose sender kept the send rule\" observed=\"a packet of VL 8 dropped, no "
          "ib-send before it\"");
}

/* ---- PFC ---- */

static void test_pfc_lines(void **state) {
  (void)state;
  lfc_check_t *c = make(LFC_MODE_PFC, "reaction_ns=100");
  assert_int_equal(pfc(c, SIDE_B, 0, 3, 1000), 0); /* acts from 5.12 to 5125.12 */
  assert_int_equal(roce(c, SIDE_A, 200, 3, 82), 1);
  line_is(c,
          "time=200ns link=0 dir=A>B class=pfc-reaction rule=\"IEEE 802.1Qbb; IEEE 802.3 Annex "
          "31B.3.7 [reading]; SPEC §6.7\" prio=3 expected=\"no frame of priority 3 started more "
          "than 100ns after a pause reaches the sender\" observed=\"started 194ns after, the "
          "pause lasting 4925ns more\" frame=2");

  c = make(LFC_MODE_PFC, "reaction_ns=100");
  assert_int_equal(pfc(c, SIDE_A, 0, 6, 1000), 0);
  assert_int_equal(roce(c, SIDE_B, 200, 6, 82), 1);
  assert_int_equal(roce(c, SIDE_B, 300, 6, 82), 1);
  char line[CT_LINE];
  lfc_check_format(c, 1, line, sizeof line);
  assert_string_equal(line,
                      "time=300ns link=0 dir=B>A class=pfc-tx-paused rule=\"IEEE 802.1Qbb; SPEC "
                      "§6.7\" prio=6 expected=\"no frame of priority 6 while it is paused\" "
                      "observed=\"started 294ns into the pause, 4825ns before its end\" frame=3");
  lfc_check_destroy(c);

  c = make(LFC_MODE_PFC, "");
  assert_int_equal(pfc(c, SIDE_B, 0, 1, 100), 0);
  assert_int_equal(pfc(c, SIDE_B, 200, 1, 0), 0);
  assert_int_equal(pfc(c, SIDE_B, 1000, 1, 100), 0);
  assert_int_equal(pfc(c, SIDE_B, 2000, 1, 100), 1);
  line_is(c,
          "time=2000ns link=0 dir=B>A class=pfc-refresh-late rule=\"SPEC §6.6, §3.3\" prio=1 "
          "expected=\"a refresh before 1517ns, when the last XOFF ran out\" observed=\"XOFF again "
          "488ns after it ran out, no XON between\" frame=4");
  c = make(LFC_MODE_PFC, "");
  assert_int_equal(lfc_check_xoff(c, 0, BA, 0, 4, true), 0);
  assert_int_equal(pfc(c, SIDE_A, 0, 4, 100), 0);
  assert_int_equal(lfc_check_finish(c, 900), 1);
  line_is(c,
          "time=900ns link=0 dir=A>B class=pfc-refresh-late rule=\"SPEC §6.6, §3.3\" prio=4 "
          "expected=\"a refresh before 517ns, when the XOFF ran out\" observed=\"the receiver "
          "was still in XOFF (reported) when it ran out\"");

  c = make(LFC_MODE_PFC, "headroom_bytes_2=1000");
  assert_int_equal(pfc(c, SIDE_A, 0, 2, 65535), 0);
  assert_int_equal(roce(c, SIDE_B, 10, 2, 602), 0);
  assert_int_equal(roce(c, SIDE_B, 100, 2, 602), 1);
  line_is(c,
          "time=100ns link=0 dir=B>A class=pfc-headroom rule=\"SPEC §11; docs/headroom.md\" "
          "prio=2 expected=\"at most 1000 bytes of priority 2 after the receiver's XOFF\" "
          "observed=\"1204 bytes\" frame=3");

  c = make(LFC_MODE_PFC, "");
  assert_int_equal(lfc_check_drop(c, 0, AB, 50, 7), 1);
  line_is(c,
          "time=50ns link=0 dir=A>B class=pfc-drop rule=\"SPEC §6.4; IEEE 802.1Qbb\" prio=7 "
          "expected=\"no drop of lossless priority 7 while its sender honours the pauses\" "
          "observed=\"a packet dropped, no pfc-reaction or pfc-tx-paused before it\"");

  c = make(LFC_MODE_PFC, "mtu_bytes=1000");
  assert_int_equal(roce(c, SIDE_A, 0, 0, 1002), 1);
  line_is(c,
          "time=0ns link=0 dir=A>B class=eth-mtu rule=\"IEEE 802.3 clause 3.2.7 [reading]; "
          "configured\" prio=0 expected=\"a frame of at most 1000 bytes with FCS\" observed=\"1002 "
          "bytes\" frame=1");
  c = make(LFC_MODE_PFC, "mtu_bytes=1000 eth_fcs=0");
  uint8_t b[CT_FRAME_MAX];
  size_t len = ct_roce(b, SIDE_A, 0, 0, 1006);
  assert_int_equal(lfc_check_frame(c, 0, AB, 0, ETH, b, len - 4u), 1);
  line_is(c,
          "time=0ns link=0 dir=A>B class=eth-mtu rule=\"IEEE 802.3 clause 3.2.7 [reading]; "
          "configured\" expected=\"a frame of at most 1000 bytes with FCS\" observed=\"1002 bytes "
          "without FCS\" frame=1");

  c = make(LFC_MODE_PFC, "");
  len = ct_eth(b, SIDE_B, 5, 100);
  assert_int_equal(lfc_check_frame(c, 0, BA, 0, ETH, b, 63), 1);
  line_is(c,
          "time=0ns link=0 dir=B>A class=eth-malformed rule=\"docs/wire-formats.md §2, §5\" "
          "expected=\"an Ethernet frame of at least 64 bytes\" observed=\"63 bytes with FCS\" "
          "frame=1");
  c = make(LFC_MODE_PFC, "");
  len = ct_eth(b, SIDE_B, 5, 100);
  b[40] ^= 0x10;
  assert_int_equal(lfc_check_frame(c, 0, BA, 0, ETH, b, len), 1);
  assert_non_null(lfc_check_format(c, 0, line, sizeof line));
  assert_non_null(strstr(line, " prio=5 expected=\"a frame with a good FCS\" observed=\"FCS 0x"));
  assert_non_null(strstr(line, ", computed 0x"));
  lfc_check_destroy(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ib_lines),
      cmocka_unit_test(test_pfc_lines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
