/*
 * test_check_pfc_frames.c - how the PFC monitor of lfc/check.h reads a data frame: its priority
 * (the 802.1Q PCP, or with prio_dscp the DSCP of the IPv4 TOS or the IPv6 traffic class through
 * dscp_to_prio, RFC 2474), which frames are RoCEv2 and decoded in full (UDP destination port 4791
 * with the UDP header inside the frame) and which are judged by their FCS alone, what one frame
 * returns when it breaks two rules, and the end of a pause (and of a refreshed one) at whole time
 * units.
 *
 * Times are nanoseconds at 100 Gb/s: a 64-byte PFC frame lasts 5.12 ns and a quantum 5.12 ns.
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
#define SIDE_A 0u
#define SIDE_B 1u
#define XOFF_MAX 65535u
#define REACTION_NS 10u /* a short budget, so that a frame 100 ns into a pause is late */
#define LATE_NS 100u
#define PRIOS 8u
#define DSCPS 64u
#define TAGGED_OFF 18u   /* Ethernet header with an 802.1Q tag */
#define UNTAGGED_OFF 14u /* without */
#define FCS 4u

static lfc_check_t *make(const lfc_check_cfg_t *cfg) {
  char err[256];
  lfc_check_t *c = lfc_check_create(cfg, err, sizeof err);
  if (c == NULL) printf("create: %s\n", err);
  assert_non_null(c);
  return c;
}

static void cfg_short_reaction(lfc_check_cfg_t *cfg) {
  lfc_check_cfg_default(cfg, LFC_MODE_PFC);
  cfg->reaction_ns = REACTION_NS;
}

/* B pauses priority prio of A's data at t. */
static void pause_a(lfc_check_t *c, uint64_t t, unsigned prio, uint16_t q) {
  uint8_t b[LFC_PFC_FRAME_BYTES];
  const size_t len = ct_pfc1(b, SIDE_B, prio, q);
  assert_int_equal(lfc_check_frame(c, 0, BA, t, ETH, b, len), 0);
}

/* A RoCEv2 frame from A, over IPv4 or IPv6, tagged with pcp, of DSCP dscp. */
static size_t roce(uint8_t *b, bool ipv6, unsigned pcp, unsigned dscp) {
  static uint8_t payload[256];
  lfc_roce_pkt_t p;
  memset(&p, 0, sizeof p);
  lfc_pcap_side_mac(0, SIDE_A, p.src_mac);
  lfc_pcap_side_mac(0, SIDE_B, p.dst_mac);
  p.has_vlan = true;
  p.pcp = (uint8_t)pcp;
  p.vid = 1;
  p.ipv6 = ipv6;
  p.dscp = (uint8_t)dscp;
  p.ecn = 3; /* CE: the bits beside the DSCP set, so that they must be shifted out */
  p.ttl = 64;
  p.flow_label = 0xFFFFF;
  p.src_ip[0] = 10;
  p.dst_ip[0] = 10;
  p.udp_src = 49152;
  p.bth.opcode = 0x04;
  p.bth.pkey = 0xFFFF;
  p.bth.dqpn = 0x100;
  p.payload = payload;
  p.payload_len = 64;
  const size_t len = lfc_roce_encode(&p, b, CT_FRAME_MAX, NULL);
  assert_true(len > 0);
  return len;
}

/* With prio_dscp, every DSCP of IPv4 and IPv6 frames picks its priority through the map (here
 * DSCP mod 8, so that each of the six bits counts), whatever the PCP says. */
static void test_priority_from_every_dscp(void **state) {
  (void)state;
  for (int ipv6 = 0; ipv6 < 2; ipv6++) {
    for (unsigned d = 0; d < DSCPS; d++) {
      lfc_check_cfg_t cfg;
      cfg_short_reaction(&cfg);
      cfg.prio_dscp = true;
      for (unsigned k = 0; k < DSCPS; k++) cfg.dscp_to_prio[k] = (uint8_t)(k % PRIOS);
      lfc_check_t *c = make(&cfg);
      const unsigned prio = d % PRIOS;
      pause_a(c, 0, prio, XOFF_MAX);
      uint8_t b[CT_FRAME_MAX];
      const size_t len = roce(b, ipv6 != 0, (prio + 1u) % PRIOS, d);
      assert_int_equal(lfc_check_frame(c, 0, AB, LATE_NS, ETH, b, len), 1);
      char want[16];
      snprintf(want, sizeof want, " prio=%u ", prio);
      ct_expect_one(c, LFC_RULE_PFC_REACTION, want, NULL);
      lfc_check_destroy(c);
    }
  }
}

/* Without prio_dscp the PCP decides, for IP frames too; untagged frames are priority 0. */
static void test_priority_from_pcp(void **state) {
  (void)state;
  for (unsigned pcp = 0; pcp < PRIOS; pcp++) {
    lfc_check_cfg_t cfg;
    cfg_short_reaction(&cfg);
    lfc_check_t *c = make(&cfg);
    pause_a(c, 0, pcp, XOFF_MAX);
    uint8_t b[CT_FRAME_MAX];
    const size_t len = roce(b, pcp % 2u != 0, pcp, (PRIOS - 1u - pcp) << 3);
    assert_int_equal(lfc_check_frame(c, 0, AB, LATE_NS, ETH, b, len), 1);
    char want[16];
    snprintf(want, sizeof want, " prio=%u ", pcp);
    ct_expect_one(c, LFC_RULE_PFC_REACTION, want, NULL);
    lfc_check_destroy(c);
  }
}

/* A hand-made IP frame: Ethernet (tagged or not), an IP header of ip_bytes (IPv4 with IHL
 * ip_bytes / 4, or IPv6 with 40), a UDP header to dport, then pad zero bytes and a good FCS. */
static size_t ip_udp(uint8_t *b, bool tagged, bool ipv6, size_t ip_bytes, uint16_t dport,
                     size_t pad) {
  const size_t off = tagged ? TAGGED_OFF : UNTAGGED_OFF;
  const size_t len = off + ip_bytes + LFC_UDP_HEADER_BYTES + pad + FCS;
  memset(b, 0, len);
  lfc_pcap_side_mac(0, SIDE_B, b);
  lfc_pcap_side_mac(0, SIDE_A, b + 6);
  const uint16_t type = ipv6 ? LFC_ETH_TYPE_IPV6 : LFC_ETH_TYPE_IPV4;
  if (tagged) {
    b[12] = 0x81;
    b[13] = 0x00;
    b[14] = 0x00; /* PCP 0 */
    b[15] = 1;
  }
  b[off - 2] = (uint8_t)(type >> 8);
  b[off - 1] = (uint8_t)type;
  uint8_t *ip = b + off;
  if (ipv6) {
    ip[0] = 0x60;
    ip[5] = (uint8_t)(LFC_UDP_HEADER_BYTES + pad); /* payload length */
    ip[6] = LFC_IP_PROTO_UDP;                      /* next header */
    ip[7] = 64;
  } else {
    ip[0] = (uint8_t)(0x40u | (ip_bytes / 4u));
    ip[3] = (uint8_t)(ip_bytes + LFC_UDP_HEADER_BYTES + pad);
    ip[8] = 64;
    ip[9] = LFC_IP_PROTO_UDP;
  }
  uint8_t *udp = ip + ip_bytes;
  udp[0] = 0xC0;
  udp[2] = (uint8_t)(dport >> 8);
  udp[3] = (uint8_t)dport;
  udp[5] = (uint8_t)(LFC_UDP_HEADER_BYTES + pad);
  const uint32_t fcs = lfc_crc32(b, len - FCS);
  for (unsigned i = 0; i < FCS; i++) b[len - FCS + i] = (uint8_t)(fcs >> (8u * i));
  return len;
}

/* Feed one frame from A to a fresh checker: the violations, and the one line if any. */
static int feed(const uint8_t *b, size_t len, char *line, size_t cap) {
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, LFC_MODE_PFC);
  lfc_check_t *c = make(&cfg);
  const int found = lfc_check_frame(c, 0, AB, 0, ETH, b, len);
  line[0] = '\0';
  if (found > 0) lfc_check_format(c, 0, line, cap);
  lfc_check_destroy(c);
  return found;
}

/* A frame to UDP port 4791 is RoCEv2 and decoded in full once its UDP header is inside the
 * frame, even when it ends exactly where the FCS begins (nothing for a BTH: malformed); a UDP
 * header that would run into the FCS is not there, and the frame goes by its FCS. */
static void test_roce_is_udp_4791_inside_the_frame(void **state) {
  (void)state;
  uint8_t b[CT_FRAME_MAX];
  char line[CT_LINE];
  for (int tagged = 0; tagged < 2; tagged++) {
    /* IPv4 with options (IHL 9 to 11 words), the UDP header ending where the FCS begins. */
    const size_t off = tagged ? TAGGED_OFF : UNTAGGED_OFF;
    for (size_t ihl_words = 9; ihl_words <= 11; ihl_words++) {
      const size_t ip_bytes = 4u * ihl_words;
      if (off + ip_bytes + LFC_UDP_HEADER_BYTES + FCS < LFC_ETH_MIN_FRAME) continue;
      size_t len = ip_udp(b, tagged != 0, false, ip_bytes, LFC_ROCE_UDP_PORT, 0);
      assert_int_equal(feed(b, len, line, sizeof line), 1);
      assert_non_null(strstr(line, "class=eth-malformed "));
      assert_non_null(strstr(line, "a RoCEv2 frame"));
      len = ip_udp(b, tagged != 0, false, ip_bytes, LFC_ROCE_UDP_PORT + 1u, 0);
      assert_int_equal(feed(b, len, line, sizeof line), 0); /* another port: by its FCS */
    }
    /* The UDP header 4 bytes past the end of the body: IHL 10 in a frame cut after 4 of its 8
     * UDP bytes. Not RoCEv2: its FCS is good, so no violation. */
    size_t len = ip_udp(b, tagged != 0, false, 40, LFC_ROCE_UDP_PORT, 0);
    b[off] = (uint8_t)(0x40u | 11u); /* IHL 11: the UDP header starts 4 bytes later */
    const uint32_t fcs = lfc_crc32(b, len - FCS);
    for (unsigned i = 0; i < FCS; i++) b[len - FCS + i] = (uint8_t)(fcs >> (8u * i));
    assert_int_equal(feed(b, len, line, sizeof line), 0);
  }
  /* IPv6: the UDP header right after the 40-byte header, ending where the FCS begins (tagged:
   * 18 + 40 + 8 = 66 bytes of body); untagged it needs 2 bytes more to reach a 64-byte frame. */
  size_t len = ip_udp(b, true, true, LFC_IPV6_HEADER_BYTES, LFC_ROCE_UDP_PORT, 0);
  assert_int_equal(len, 70u);
  assert_int_equal(feed(b, len, line, sizeof line), 1);
  assert_non_null(strstr(line, "a RoCEv2 frame"));
  len = ip_udp(b, true, true, LFC_IPV6_HEADER_BYTES, LFC_ROCE_UDP_PORT - 1u, 0);
  assert_int_equal(feed(b, len, line, sizeof line), 0);
  len = ip_udp(b, false, true, LFC_IPV6_HEADER_BYTES, LFC_ROCE_UDP_PORT, 2);
  assert_int_equal(feed(b, len, line, sizeof line), 1);
  assert_non_null(strstr(line, "a RoCEv2 frame"));
  /* A tagged IPv6 frame of 64 bytes: the UDP header would end 6 bytes past its body. */
  len = ip_udp(b, true, true, LFC_IPV6_HEADER_BYTES, LFC_ROCE_UDP_PORT, 0);
  const size_t cut = LFC_ETH_MIN_FRAME;
  const uint32_t fcs = lfc_crc32(b, cut - FCS);
  for (unsigned i = 0; i < FCS; i++) b[cut - FCS + i] = (uint8_t)(fcs >> (8u * i));
  assert_int_equal(feed(b, cut, line, sizeof line), 0);
}

/* One frame that is too long and also late into a pause: both lines, and 2 returned. */
static void test_one_frame_two_rules(void **state) {
  (void)state;
  lfc_check_cfg_t cfg;
  cfg_short_reaction(&cfg);
  cfg.mtu_bytes = 100;
  lfc_check_t *c = make(&cfg);
  pause_a(c, 0, 3, XOFF_MAX);
  uint8_t b[CT_FRAME_MAX];
  const size_t len = ct_roce(b, SIDE_A, 3, 0, 102);
  assert_int_equal(lfc_check_frame(c, 0, AB, LATE_NS, ETH, b, len), 2);
  assert_int_equal(lfc_check_count(c, LFC_RULE_ETH_MTU), 1);
  assert_int_equal(lfc_check_count(c, LFC_RULE_PFC_REACTION), 1);
  lfc_check_destroy(c);
}

/* A pause of 24 quanta from an XOFF sent at 0 acts from 5.12 ns to 5.12 + 24 x 5.12 = 128 ns.
 * A frame given at a whole ns t may have started up to 1 ns later (one time unit): at 127 it may
 * be at 128, when the pause is over; at 126 it is inside. */
static void test_pause_end_at_a_whole_unit(void **state) {
  (void)state;
  const uint64_t times[] = {126, 127};
  const int want[] = {1, 0};
  for (size_t i = 0; i < 2; i++) {
    lfc_check_cfg_t cfg;
    cfg_short_reaction(&cfg);
    lfc_check_t *c = make(&cfg);
    pause_a(c, 0, 6, 24);
    uint8_t b[CT_FRAME_MAX];
    const size_t len = ct_roce(b, SIDE_A, 6, 0, 82);
    assert_int_equal(lfc_check_frame(c, 0, AB, times[i], ETH, b, len), want[i]);
    if (want[i]) ct_expect_one(c, LFC_RULE_PFC_REACTION, "the pause lasting 2ns more", NULL);
    lfc_check_destroy(c);
  }
}

/* A refresh (an XOFF while the pause is in force) moves the pause's end to its own arrival plus
 * its quanta, without a new reaction window: XOFF 1000 quanta at 0 acts from 5.12 ns, the
 * refresh sent at 3000 arrives at 3005.12 and ends the pause at 3005.12 + 5120 = 8125.12 ns. */
static void test_refresh_sets_the_end(void **state) {
  (void)state;
  const uint64_t times[] = {8124, 8127};
  const int want[] = {1, 0};
  for (size_t i = 0; i < 2; i++) {
    lfc_check_cfg_t cfg;
    cfg_short_reaction(&cfg);
    lfc_check_t *c = make(&cfg);
    pause_a(c, 0, 2, 1000);
    pause_a(c, 3000, 2, 1000);
    uint8_t b[CT_FRAME_MAX];
    const size_t len = ct_roce(b, SIDE_A, 2, 0, 82);
    assert_int_equal(lfc_check_frame(c, 0, AB, times[i], ETH, b, len), want[i]);
    if (want[i]) {
      ct_expect_one(c, LFC_RULE_PFC_REACTION, "started 8118ns after, the pause lasting 1ns more",
                    NULL);
    }
    lfc_check_destroy(c);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_priority_from_every_dscp),
      cmocka_unit_test(test_priority_from_pcp),
      cmocka_unit_test(test_roce_is_udp_4791_inside_the_frame),
      cmocka_unit_test(test_one_frame_two_rules),
      cmocka_unit_test(test_pause_end_at_a_whole_unit),
      cmocka_unit_test(test_refresh_sets_the_end),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
