/*
 * check_testutil.h - frames for the protocol checkers' tests (test_check_*.c), built with the
 * liblfc codecs, and a way to look at the violations a checker found.
 *
 * The frames are real: data packets and FCPs with their CRCs (IB), PFC/PAUSE and RoCEv2 frames
 * with their FCS (Ethernet). The tests then break exactly one rule and expect exactly one line.
 */
#ifndef LFC_CHECK_TESTUTIL_H
#define LFC_CHECK_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lfc/check.h"
#include "lfc/crc.h"
#include "lfc/pcap.h"
#include "lfc/wire_ib_data.h"
#include "lfc/wire_ib_fcp.h"
#include "lfc/wire_pfc.h"
#include "lfc/wire_roce.h"

#define CT_FRAME_MAX 9100u
#define CT_LINE 512u

/* IB data packet overhead without GRH: LRH 8, BTH 12, ICRC 4, VCRC 2 (docs/packet-sizes.md). */
#define CT_IB_OVERHEAD 26u

/* An IB data packet of exactly n 64-byte blocks on vl to dqpn (payload 64n - 28: a multiple of
 * 4, so no pad, and 64n - 2 bytes in all). Returns its length. */
static inline size_t ct_ib_data(uint8_t *b, unsigned vl, unsigned n, uint32_t dqpn) {
  static uint8_t payload[CT_FRAME_MAX];
  lfc_ib_pkt_t p;
  memset(&p, 0, sizeof p);
  p.vl = (uint8_t)vl;
  p.sl = (uint8_t)(vl & 0xFu);
  p.dlid = 1;
  p.slid = 2;
  p.bth.opcode = 0x04; /* RC SEND only */
  p.bth.pkey = 0xFFFF;
  p.bth.dqpn = dqpn;
  p.payload = payload;
  p.payload_len = 64u * n - 28u;
  const size_t len = lfc_ib_pkt_encode(&p, b, CT_FRAME_MAX, NULL);
  assert_int_equal(len, 64u * n - 2u);
  return len;
}

/* An IB data packet with a payload of exactly payload bytes. */
static inline size_t ct_ib_payload(uint8_t *b, unsigned vl, size_t payload, uint32_t dqpn) {
  static uint8_t data[CT_FRAME_MAX];
  lfc_ib_pkt_t p;
  memset(&p, 0, sizeof p);
  p.vl = (uint8_t)vl;
  p.dlid = 1;
  p.slid = 2;
  p.bth.opcode = 0x04;
  p.bth.pkey = 0xFFFF;
  p.bth.dqpn = dqpn;
  p.payload = data;
  p.payload_len = payload;
  const size_t len = lfc_ib_pkt_encode(&p, b, CT_FRAME_MAX, NULL);
  assert_true(len > 0);
  return len;
}

static inline size_t ct_fcp(uint8_t *b, unsigned op, unsigned vl, unsigned fctbs, unsigned fccl) {
  const lfc_ib_fcp_t p = {.op = (uint8_t)op,
                          .vl = (uint8_t)vl,
                          .fctbs = (uint16_t)(fctbs & 4095u),
                          .fccl = (uint16_t)(fccl & 4095u)};
  const size_t len = lfc_ib_fcp_encode(&p, b, LFC_IB_FCP_BYTES, NULL);
  assert_int_equal(len, LFC_IB_FCP_BYTES);
  return len;
}

/* A PFC frame from side `side` of link 0: priorities in en, each with time t[i]. */
static inline size_t ct_pfc(uint8_t *b, unsigned side, uint8_t en, const uint16_t t[8]) {
  lfc_pfc_frame_t f;
  memset(&f, 0, sizeof f);
  lfc_pcap_side_mac(0, side, f.src);
  f.opcode = LFC_MAC_CTRL_OP_PFC;
  f.class_enable = en;
  for (unsigned i = 0; i < 8; i++) f.time[i] = t[i];
  const size_t len = lfc_pfc_encode(&f, b, LFC_PFC_FRAME_BYTES, NULL);
  assert_int_equal(len, LFC_PFC_FRAME_BYTES);
  return len;
}

/* A PFC frame for one priority. */
static inline size_t ct_pfc1(uint8_t *b, unsigned side, unsigned prio, uint16_t q) {
  uint16_t t[8] = {0};
  t[prio] = q;
  return ct_pfc(b, side, (uint8_t)(1u << prio), t);
}

/* An 802.3x PAUSE frame. */
static inline size_t ct_pause(uint8_t *b, unsigned side, uint16_t q) {
  lfc_pfc_frame_t f;
  memset(&f, 0, sizeof f);
  lfc_pcap_side_mac(0, side, f.src);
  f.opcode = LFC_MAC_CTRL_OP_PAUSE;
  f.time[0] = q;
  return lfc_pfc_encode(&f, b, LFC_PFC_FRAME_BYTES, NULL);
}

/* A tagged RoCEv2 frame over IPv4 of priority prio (PCP), DSCP dscp, of about `bytes` bytes with
 * FCS: 66 bytes of headers and trailers around a payload padded to 4 bytes, so exactly `bytes`
 * when bytes >= 70 and bytes mod 4 = 2 (82, 1002, 1502, ...). */
static inline size_t ct_roce(uint8_t *b, unsigned side, unsigned prio, unsigned dscp,
                             size_t bytes) {
  static uint8_t payload[CT_FRAME_MAX];
  lfc_roce_pkt_t p;
  memset(&p, 0, sizeof p);
  lfc_pcap_side_mac(0, side, p.src_mac);
  lfc_pcap_side_mac(0, side ^ 1u, p.dst_mac);
  p.has_vlan = true;
  p.pcp = (uint8_t)prio;
  p.vid = 1;
  p.dscp = (uint8_t)dscp;
  p.ttl = 64;
  p.src_ip[0] = 10;
  p.dst_ip[0] = 10;
  p.dst_ip[3] = 2;
  p.udp_src = 49152;
  p.bth.opcode = 0x04;
  p.bth.pkey = 0xFFFF;
  p.bth.dqpn = 0x100;
  p.payload = payload;
  /* 18 Ethernet with tag, 20 IPv4, 8 UDP, 12 BTH, 4 ICRC, 4 FCS = 66 bytes around the payload */
  p.payload_len = bytes > 66u ? bytes - 66u : 0u;
  const size_t len = lfc_roce_encode(&p, b, CT_FRAME_MAX, NULL);
  assert_true(len > 0);
  return len;
}

/* A tagged non-IP Ethernet frame (EtherType 0x88B5, local experimental) of priority prio and
 * `bytes` bytes with a good FCS. */
static inline size_t ct_eth(uint8_t *b, unsigned side, unsigned prio, size_t bytes) {
  memset(b, 0, bytes);
  lfc_pcap_side_mac(0, side ^ 1u, b);
  lfc_pcap_side_mac(0, side, b + 6);
  b[12] = 0x81;
  b[13] = 0x00;
  b[14] = (uint8_t)(prio << 5);
  b[15] = 1;
  b[16] = 0x88;
  b[17] = 0xB5;
  const uint32_t fcs = lfc_crc32(b, bytes - 4u);
  for (unsigned i = 0; i < 4; i++) b[bytes - 4u + i] = (uint8_t)(fcs >> (8u * i));
  return bytes;
}

/* The kept violations whose class is rule: how many. */
static inline size_t ct_count_kept(const lfc_check_t *c, lfc_check_rule_t rule) {
  size_t n = 0;
  for (size_t i = 0; lfc_check_violation(c, i) != NULL; i++) {
    if (lfc_check_violation(c, i)->rule == rule) n++;
  }
  return n;
}

/* Print every violation (for a failing test's log). */
static inline void ct_dump(const lfc_check_t *c) {
  char line[CT_LINE];
  for (size_t i = 0; lfc_check_format(c, i, line, sizeof line) != NULL; i++) {
    printf("  %s\n", line);
  }
}

/* Exactly one violation so far, of rule, and its line contains each of the given strings
 * (NULL-terminated). */
static inline void ct_expect_one(const lfc_check_t *c, lfc_check_rule_t rule, ...) {
  if (lfc_check_violations(c) != 1) ct_dump(c);
  assert_int_equal(lfc_check_violations(c), 1);
  assert_int_equal(lfc_check_count(c, rule), 1);
  char line[CT_LINE];
  assert_non_null(lfc_check_format(c, 0, line, sizeof line));
  va_list ap;
  va_start(ap, rule);
  for (const char *s = va_arg(ap, const char *); s != NULL; s = va_arg(ap, const char *)) {
    if (strstr(line, s) == NULL) printf("missing '%s' in: %s\n", s, line);
    assert_non_null(strstr(line, s));
  }
  va_end(ap);
}

static inline void ct_expect_none(const lfc_check_t *c) {
  if (lfc_check_violations(c) != 0) ct_dump(c);
  assert_int_equal(lfc_check_violations(c), 0);
}

#endif /* LFC_CHECK_TESTUTIL_H */
