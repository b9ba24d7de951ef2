/*
 * test_wire_roce.c - RoCEv2 frames (lfc/wire_roce.h, IBA Annex A17, docs/wire-formats.md §5):
 * the ICRC of a CNP captured from a Mellanox ConnectX-4 Lx and of the UC SEND packet of Scapy's
 * RoCE regression tests (scapy test/contrib/roce.uts), exact IPv4 header checksum, round trips
 * over random fields with a fixed printed seed (IPv4/IPv6, tagged or not), the class map by PCP
 * and by DSCP, and malformed inputs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lfc/crc.h"
#include "lfc/wire_roce.h"
#include "wire_testutil.h"

#define BUF 2048

static void append_fcs(uint8_t *f, size_t len) {
  const uint32_t c = lfc_crc32(f, len);
  f[len] = (uint8_t)c;
  f[len + 1] = (uint8_t)(c >> 8);
  f[len + 2] = (uint8_t)(c >> 16);
  f[len + 3] = (uint8_t)(c >> 24);
}

/* A RoCEv2 CNP captured on a ConnectX-4 Lx (scapy test/contrib/roce.uts, "RoCE CNP captured on
 * ConnectX-4 Lx"): 74 bytes without FCS, ICRC 82 fd 00 2a. We add the FCS; the decoder must
 * accept the hardware's ICRC and read the fields. */
static void test_roce_icrc_connectx4_cnp(void **state) {
  (void)state;
  uint8_t f[78] = {
      0xe4, 0x1d, 0x2d, 0xab, 0x2b, 0xc2, 0x7c, 0xfe, 0x90, 0x64, 0x3b, 0x32, 0x08, 0x00, 0x45,
      0xc2, 0x00, 0x3c, 0x71, 0x8c, 0x40, 0x00, 0x40, 0x11, 0x91, 0x61, 0x0a, 0x00, 0x11, 0x01,
      0x0a, 0x00, 0x12, 0x01, 0x00, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00, 0x81, 0x00, 0xff,
      0xff, 0x40, 0x00, 0x01, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x82, 0xfd, 0x00, 0x2a,
  };
  append_fcs(f, 74);
  lfc_roce_pkt_t p;
  lfc_wire_error_t err;
  assert_int_equal(lfc_roce_decode(f, sizeof f, &p, &err), LFC_WIRE_OK);
  assert_int_equal(p.bth.opcode, 0x81); /* CNP */
  assert_int_equal(p.bth.becn, 1);
  assert_int_equal(p.bth.fecn, 0);
  assert_int_equal(p.bth.dqpn, 0x118);
  assert_int_equal(p.dscp, 0xc2 >> 2);
  assert_int_equal(p.ecn, 2);
  assert_int_equal(p.payload_len, 16);
  assert_int_equal(p.icrc, 0x2a00fd82u); /* 82 fd 00 2a, least significant byte first */
  /* Re-encoding the decoded fields gives the same frame except the UDP checksum (the capture
   * has 0, as we write over IPv4) and the ICRC must come out identical. */
  uint8_t g[BUF];
  assert_int_equal(lfc_roce_encode(&p, g, sizeof g, &err), 78);
  assert_memory_equal(g + 14, f + 14, 60);
  /* One flipped payload bit: bad ICRC (FCS recomputed so that the ICRC check is reached). */
  f[60] ^= 0x10;
  append_fcs(f, 74);
  assert_int_equal(lfc_roce_decode(f, sizeof f, &p, &err), LFC_WIRE_BAD_ICRC);
  assert_non_null(strstr(err.text, "ICRC 0x2a00fd82"));
}

/* Scapy's UC SEND_ONLY example: IPv4 checksum 0xb4d5, ICRC field 0x78f353f3 (bytes 78 f3 53
 * f3). Our encoder writes UDP checksum 0 where Scapy computed one; the ICRC masks it. */
static void test_roce_icrc_scapy_uc_send(void **state) {
  (void)state;
  static const uint8_t mac[6] = {0x24, 0x8a, 0x07, 0xa8, 0xfa, 0x22};
  static const uint8_t payload[18] = {'F',  '0',  0x81, 0x8b, 0xe2, 0x89, '5', 0xd9, 0x0e,
                                      0x9a, 0x95, 'P',  'T',  0x01, 0xbe, 0x88, '^', 'P'};
  lfc_roce_pkt_t p;
  memset(&p, 0, sizeof p);
  memcpy(p.dst_mac, mac, 6);
  memcpy(p.src_mac, mac, 6);
  p.ecn = 1;
  p.ip_id = 1144;
  p.ttl = 64;
  const uint8_t ip[4] = {192, 168, 0, 7};
  memcpy(p.src_ip, ip, 4);
  memcpy(p.dst_ip, ip, 4);
  p.udp_src = 49152;
  p.bth.opcode = 0x24; /* UC SEND only */
  p.bth.m = 1;
  p.bth.pkey = 0xffff;
  p.bth.dqpn = 211;
  p.bth.psn = 13571856;
  p.payload = payload;
  p.payload_len = sizeof payload;
  uint8_t f[BUF];
  lfc_wire_error_t err;
  assert_int_equal(lfc_roce_encode(&p, f, sizeof f, &err), 82);
  assert_int_equal(f[24], 0xb4); /* IPv4 header checksum */
  assert_int_equal(f[25], 0xd5);
  assert_int_equal(f[43], 0x60); /* M, PadCnt 2 */
  const uint8_t icrc[4] = {0x78, 0xf3, 0x53, 0xf3};
  assert_memory_equal(f + 74, icrc, 4);
  assert_int_equal(lfc_crc32(f, 82), 0x2144DF1Cu); /* FCS residue */
}

static void random_pkt(uint64_t *s, lfc_roce_pkt_t *p, uint8_t *payload) {
  memset(p, 0, sizeof *p);
  for (unsigned i = 0; i < 6; i++) {
    p->dst_mac[i] = (uint8_t)wt_below(s, 256);
    p->src_mac[i] = (uint8_t)wt_below(s, 256);
  }
  p->has_vlan = wt_below(s, 2);
  if (p->has_vlan) {
    p->pcp = (uint8_t)wt_below(s, 8);
    p->dei = (uint8_t)wt_below(s, 2);
    p->vid = (uint16_t)wt_below(s, 4096);
  }
  p->ipv6 = wt_below(s, 2);
  p->dscp = (uint8_t)wt_below(s, 64);
  p->ecn = (uint8_t)wt_below(s, 4);
  p->ttl = (uint8_t)wt_below(s, 256);
  if (!p->ipv6) p->ip_id = (uint16_t)wt_below(s, 65536);
  if (p->ipv6) p->flow_label = wt_below(s, 1u << 20);
  for (unsigned i = 0; i < (p->ipv6 ? 16u : 4u); i++) {
    p->src_ip[i] = (uint8_t)wt_below(s, 256);
    p->dst_ip[i] = (uint8_t)wt_below(s, 256);
  }
  p->udp_src = (uint16_t)wt_below(s, 65536);
  p->bth.opcode = (uint8_t)wt_below(s, 256);
  p->bth.se = (uint8_t)wt_below(s, 2);
  p->bth.m = (uint8_t)wt_below(s, 2);
  p->bth.pkey = (uint16_t)wt_below(s, 65536);
  p->bth.fecn = (uint8_t)wt_below(s, 2);
  p->bth.becn = (uint8_t)wt_below(s, 2);
  p->bth.dqpn = wt_below(s, 1u << 24);
  p->bth.ackreq = (uint8_t)wt_below(s, 2);
  p->bth.psn = wt_below(s, 1u << 24);
  p->payload_len = wt_below(s, 3) == 0 ? wt_below(s, 8) : wt_below(s, 1500);
  for (size_t i = 0; i < p->payload_len; i++) payload[i] = (uint8_t)wt_below(s, 256);
  p->payload = payload;
  p->bth.padcnt = (uint8_t)((4u - p->payload_len % 4u) % 4u);
}

static void test_roce_round_trip_random(void **state) {
  (void)state;
  uint64_t s = wt_seed("test_roce_round_trip_random", 0x70CE000000000003ULL);
  static uint8_t payload[BUF], f[BUF];
  lfc_roce_map_t by_dscp, by_pcp;
  lfc_roce_map_default(&by_dscp, LFC_ROCE_PRIO_DSCP);
  lfc_roce_map_default(&by_pcp, LFC_ROCE_PRIO_PCP);
  for (int n = 0; n < 3000; n++) {
    lfc_roce_pkt_t p, q;
    random_pkt(&s, &p, payload);
    lfc_wire_error_t err;
    const size_t len = lfc_roce_encode(&p, f, sizeof f, &err);
    assert_int_equal(len, lfc_roce_frame_bytes(p.has_vlan, p.ipv6, p.payload_len));
    assert_true(len >= 64);
    assert_int_equal(lfc_roce_decode(f, len, &q, &err), LFC_WIRE_OK);
    assert_int_equal(q.payload_len, p.payload_len);
    assert_memory_equal(q.payload, p.payload, p.payload_len);
    q.payload = p.payload;
    q.icrc = 0;
    assert_memory_equal(&p, &q, sizeof p);
    /* The link word: cls from DSCP (class selector) or PCP, nblk from the frame length. */
    lfc_word_t w;
    assert_int_equal(lfc_roce_to_word(&q, &by_dscp, &w, &err), LFC_WIRE_OK);
    assert_int_equal(w.cls, p.dscp >> 3);
    assert_int_equal(w.nblk, (len + 63) / 64);
    assert_int_equal(w.ecn, p.ecn);
    assert_int_equal(w.tag, p.payload_len >= 4 ? (uint32_t)payload[0] << 24 |
                                                     (uint32_t)payload[1] << 16 |
                                                     (uint32_t)payload[2] << 8 | payload[3]
                                               : 0u);
    assert_int_equal(lfc_roce_to_word(&q, &by_pcp, &w, &err),
                     p.has_vlan ? LFC_WIRE_OK : LFC_WIRE_BAD_FIELD);
    if (p.has_vlan) assert_int_equal(w.cls, p.pcp);
  }
}

/* word -> frame -> word is exact for every nblk a frame can have, tagged or not, v4 or v6, and for
 * every pad the format holds (the frame is 64 x nblk - pad bytes); another pad comes back as the
 * format's (wt_frame_pad). */
static void test_roce_word_round_trip(void **state) {
  (void)state;
  uint64_t s = wt_seed("test_roce_word_round_trip", 0x70CE000000000004ULL);
  static uint8_t payload[LFC_MAX_NBLK * 64], f[LFC_MAX_NBLK * 64 + 64];
  unsigned exact = 0;
  for (int n = 0; n < 2000; n++) {
    lfc_roce_pkt_t tmpl;
    static uint8_t junk[BUF];
    random_pkt(&s, &tmpl, junk);
    lfc_roce_map_t m;
    lfc_roce_map_default(&m, tmpl.has_vlan && wt_below(&s, 2) ? LFC_ROCE_PRIO_PCP
                                                              : LFC_ROCE_PRIO_DSCP);
    lfc_word_t w;
    memset(&w, 0, sizeof w);
    w.kind = LFC_DATA;
    w.sop = 1;
    w.cls = (uint8_t)wt_below(&s, 8);
    w.nblk = (uint8_t)(2 + wt_below(&s, 254));
    w.dst = (uint16_t)wt_below(&s, 65536);
    w.tag = (uint32_t)wt_next(&s);
    w.ecn = (uint8_t)wt_below(&s, 4);
    w.pad = (uint8_t)wt_below(&s, 64);
    lfc_roce_pkt_t p, q;
    lfc_wire_error_t err;
    assert_int_equal(lfc_roce_from_word(&w, &m, &tmpl, &p, payload, sizeof payload, &err),
                     LFC_WIRE_OK);
    const size_t len = lfc_roce_encode(&p, f, sizeof f, &err);
    assert_int_equal((len + 63) / 64, w.nblk);
    /* headers and trailers: the frame of a 4-byte payload (never below the 64-byte minimum) */
    const uint32_t over = (uint32_t)lfc_roce_frame_bytes(tmpl.has_vlan, tmpl.ipv6, 4) - 4u;
    lfc_word_t want = w;
    want.pad = wt_frame_pad(w.nblk, w.pad, over);
    assert_int_equal(len, w.nblk * 64u - want.pad);
    assert_int_equal(lfc_roce_decode(f, len, &q, &err), LFC_WIRE_OK);
    lfc_word_t w2;
    assert_int_equal(lfc_roce_to_word(&q, &m, &w2, &err), LFC_WIRE_OK);
    assert_memory_equal(&want, &w2, sizeof w);
    exact += want.pad == w.pad;
  }
  assert_true(exact > 2000u / 4u / 2u); /* about one pad in four is the format's own */
  /* Too small for headers and a 4-byte tag: refused with a reason. */
  lfc_roce_pkt_t tmpl, p;
  memset(&tmpl, 0, sizeof tmpl);
  tmpl.has_vlan = true;
  lfc_roce_map_t m;
  lfc_roce_map_default(&m, LFC_ROCE_PRIO_PCP);
  lfc_word_t w;
  memset(&w, 0, sizeof w);
  w.kind = LFC_DATA;
  w.nblk = 1;
  lfc_wire_error_t err;
  assert_int_equal(lfc_roce_from_word(&w, &m, &tmpl, &p, payload, sizeof payload, &err),
                   LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  /* 14 + 4 (802.1Q) + 20 + 8 + 12 + 4 (ICRC) + 4 (FCS) of headers and trailers, and the tag. */
  assert_non_null(strstr(err.text, "nblk 1: a RoCEv2 frame carrying the 4-byte tag needs 70 bytes"));
  w.nblk = 2;
  w.pad = 200; /* the rest of one block is 0..63 */
  assert_int_equal(lfc_roce_from_word(&w, &m, &tmpl, &p, payload, sizeof payload, &err),
                   LFC_WIRE_BAD_FIELD);
  assert_non_null(strstr(err.text, "pad 200 is not below 64"));
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
}

/* Build a valid IPv4 tagged frame into f, return its length. */
static size_t valid_frame(uint8_t *f) {
  static const uint8_t payload[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  lfc_roce_pkt_t p;
  memset(&p, 0, sizeof p);
  p.has_vlan = true;
  p.pcp = 3;
  p.dscp = 26;
  p.ecn = 2;
  p.ttl = 64;
  p.bth.opcode = 0x04;
  p.bth.dqpn = 17;
  p.payload = payload;
  p.payload_len = sizeof payload;
  return lfc_roce_encode(&p, f, BUF, NULL);
}

/* Fix the IPv4 checksum and FCS after a deliberate change so that the later check is reached. */
static void refix(uint8_t *f, size_t len) {
  uint8_t *ip = f + 18;
  ip[10] = ip[11] = 0;
  uint32_t acc = 0;
  for (unsigned i = 0; i < 20; i += 2) acc += (uint32_t)ip[i] << 8 | ip[i + 1];
  while (acc >> 16) acc = (acc & 0xFFFF) + (acc >> 16);
  ip[10] = (uint8_t)(~acc >> 8);
  ip[11] = (uint8_t)~acc;
  append_fcs(f, len - 4);
}

static void expect(uint8_t *f, size_t len, lfc_wire_status_t want, const char *text) {
  lfc_roce_pkt_t p;
  lfc_wire_error_t err;
  memset(&err, 0, sizeof err);
  assert_int_equal(lfc_roce_decode(f, len, &p, &err), want);
  if (strstr(err.text, text) == NULL) fail_msg("'%s' lacks '%s'", err.text, text);
}

/* As expect, and the error names the offending field's offset. */
static void expect_at(uint8_t *f, size_t len, lfc_wire_status_t want, size_t offset,
                      const char *text) {
  lfc_roce_pkt_t p;
  lfc_wire_error_t err;
  memset(&err, 0, sizeof err);
  assert_int_equal(lfc_roce_decode(f, len, &p, &err), want);
  if (strstr(err.text, text) == NULL) fail_msg("'%s' lacks '%s'", err.text, text);
  assert_int_equal(err.offset, offset);
}

static void test_roce_malformed(void **state) {
  (void)state;
  static uint8_t f[BUF];
  size_t len = valid_frame(f);
  assert_int_equal(len, 18 + 20 + 8 + 12 + 8 + 4 + 4);
  for (size_t n = 0; n < 64; n++) expect(f, n, LFC_WIRE_SHORT, "at least 64");
  for (unsigned bit = 0; bit < len * 8; bit += 7) {
    valid_frame(f);
    f[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    expect(f, len, LFC_WIRE_BAD_FCS, "computed");
  }
  valid_frame(f);
  f[16] = 0x88; /* inner EtherType 0x8808 */
  f[17] = 0x08;
  refix(f, len);
  expect_at(f, len, LFC_WIRE_BAD_ETHERTYPE, 16, "0x8808");
  valid_frame(f);
  f[18] = 0x55; /* IP version 5 */
  refix(f, len);
  expect_at(f, len, LFC_WIRE_BAD_VERSION, 18, "IP version 5");
  valid_frame(f);
  const unsigned csum = (unsigned)f[18 + 10] << 8 | f[18 + 11];
  f[18 + 10] ^= 1; /* IPv4 checksum */
  append_fcs(f, len - 4);
  char want[64]; /* the checksum the header carries, and the right one */
  snprintf(want, sizeof want, "IPv4 header checksum 0x%04x, computed 0x%04x", csum ^ 0x100u,
           csum);
  expect_at(f, len, LFC_WIRE_BAD_CHECKSUM, 28, want);
  valid_frame(f);
  f[18 + 9] = 6; /* TCP */
  refix(f, len);
  expect_at(f, len, LFC_WIRE_BAD_PROTOCOL, 18, "protocol 6");
  valid_frame(f);
  f[18 + 6] |= 0x20; /* IPv4 More Fragments: a fragment, at the flags and offset field */
  refix(f, len);
  expect_at(f, len, LFC_WIRE_RESERVED, 24, "fragment");
  valid_frame(f);
  f[18 + 3] += 8; /* IP total length beyond the frame */
  refix(f, len);
  expect_at(f, len, LFC_WIRE_BAD_LENGTH, 18, "IP length");
  valid_frame(f);
  f[38 + 5] += 1; /* UDP length one more than the IP packet carries */
  refix(f, len);
  expect_at(f, len, LFC_WIRE_BAD_LENGTH, 42, "UDP length");
  valid_frame(f);
  f[38 + 3] = 0xb8; /* UDP port 4792 */
  refix(f, len);
  expect_at(f, len, LFC_WIRE_BAD_PORT, 40, "4792");
  valid_frame(f);
  f[46 + 1] |= 0x01; /* BTH TVer 1 */
  refix(f, len);
  expect_at(f, len, LFC_WIRE_BAD_VERSION, 47, "TVer 1");
  valid_frame(f);
  f[46 + 11] ^= 0x01; /* PSN: covered by the ICRC only */
  refix(f, len);
  expect_at(f, len, LFC_WIRE_BAD_ICRC, 66, "ICRC");
  /* A minimum-size frame that says IPv6 is too short for the headers RoCEv2 needs after the
     Ethernet header (IPv6 40, UDP 8, BTH 12, ICRC 4): refused as short, naming both counts. */
  {
    lfc_roce_pkt_t q;
    memset(&q, 0, sizeof q);
    q.has_vlan = true;
    q.ipv6 = true;
    q.ttl = 64;
    q.bth.opcode = 0x04;
    assert_true(lfc_roce_encode(&q, f, BUF, NULL) > LFC_ETH_MIN_FRAME);
    append_fcs(f, LFC_ETH_MIN_FRAME - LFC_ETH_FCS_BYTES);
    expect(f, LFC_ETH_MIN_FRAME, LFC_WIRE_SHORT, "42 bytes after the Ethernet header, RoCEv2 needs at least 64");
  }
  /* A PadCnt larger than the bytes after the BTH: the error points at the BTH's PadCnt byte. */
  {
    lfc_roce_pkt_t q;
    memset(&q, 0, sizeof q);
    q.has_vlan = true; /* as valid_frame: BTH at 46, which refix assumes */
    q.ttl = 64;
    q.bth.opcode = 0x04;
    size_t qlen = lfc_roce_encode(&q, f, BUF, NULL);
    assert_true(qlen > 0);
    f[46 + 1] |= 0x10; /* PadCnt 1 with no payload */
    refix(f, qlen);
    expect_at(f, qlen, LFC_WIRE_BAD_LENGTH, 47, "PadCnt 1");
  }
  /* The variant fields are outside the ICRC: changing them (and the checksums) keeps it. */
  valid_frame(f);
  f[18 + 1] ^= 0xFF; /* DSCP and ECN */
  f[18 + 8] ^= 0x0F; /* TTL */
  f[46 + 4] ^= 0xC0; /* FECN, BECN */
  refix(f, len);
  expect(f, len, LFC_WIRE_OK, "");
}

/* SPEC §2: nblk is the frame's length in 64-byte blocks, rounded up. A RoCEv2 frame with no
   payload is padded to Ethernet's 64-byte minimum: exactly one block, not two; one payload byte
   more (BTH pads it to 4) makes 66 bytes, two blocks. The edge where the rounding shows. */
static void test_roce_word_blocks_at_the_64_byte_edge(void **state) {
  (void)state;
  static uint8_t payload[4];
  lfc_roce_map_t m;
  lfc_roce_map_default(&m, LFC_ROCE_PRIO_DSCP);
  lfc_roce_pkt_t p;
  memset(&p, 0, sizeof p);
  p.payload = payload;
  lfc_word_t w;
  lfc_wire_error_t err;
  p.payload_len = 0;
  assert_int_equal(lfc_roce_frame_bytes(false, false, 0), 64);
  assert_int_equal(lfc_roce_to_word(&p, &m, &w, &err), LFC_WIRE_OK);
  assert_int_equal(w.nblk, 1);
  assert_int_equal(w.eop, 1);
  p.payload_len = 1;
  assert_int_equal(lfc_roce_frame_bytes(false, false, 1), 66);
  assert_int_equal(lfc_roce_to_word(&p, &m, &w, &err), LFC_WIRE_OK);
  assert_int_equal(w.nblk, 2);
  assert_int_equal(w.eop, 0);
}

/* Every RoCEv2 frame is 64 bytes or 2 mod 4 bytes long (Ethernet 14, IPv4 20 or IPv6 40, UDP 8,
   BTH 12, the payload padded to 4 bytes, ICRC 4, FCS 4, 802.1Q 4): never 1 mod 64. The nblk
   rounding of wire_data_word is argued equivalent under `- 2u` on this property
   (tb/fuzz/mutants-c-equivalent.txt); checked here over every payload a jumbo frame can carry. */
static void test_roce_frame_bytes_never_odd(void **state) {
  (void)state;
  for (int tagged = 0; tagged < 2; tagged++)
    for (int v6 = 0; v6 < 2; v6++)
      for (size_t n = 0; n <= 9216u; n++) {
        const size_t b = lfc_roce_frame_bytes(tagged, v6, n);
        if (b != 64u && b % 4u != 2u) fail_msg("payload %zu: frame of %zu bytes", n, b);
      }
}

/* RFC 768 / RFC 8200 §8.1: the UDP checksum over IPv6, written here from the RFCs: the one's
   complement of the one's complement sum of the pseudo-header (addresses, UDP length, next header
   17) and the UDP datagram with its checksum field 0; a result of 0 is sent as 0xFFFF (0 means
   "no checksum", which IPv6 does not allow). The payload (and with it the ICRC inside the
   datagram) is varied until both a sum whose complement is 0 and one whose complement is 1 have
   been seen, about one frame in 65,536 each. */
static uint16_t udp6_reference(const uint8_t *f, size_t ip_at) {
  const uint8_t *ip = f + ip_at, *udp = ip + 40;
  const size_t udp_len = (size_t)udp[4] << 8 | udp[5];
  uint32_t acc = 0;
  for (size_t i = 8; i < 40; i += 2) acc += (uint32_t)ip[i] << 8 | ip[i + 1];
  acc += (uint32_t)udp_len + 17u;
  for (size_t i = 0; i < udp_len; i += 2)
    if (i != 6) acc += (uint32_t)udp[i] << 8 | udp[i + 1];
  while (acc >> 16) acc = (acc & 0xFFFFu) + (acc >> 16);
  const uint16_t c = (uint16_t)~acc;
  return c == 0 ? 0xFFFFu : c;
}

static void test_roce_udp6_checksum_every_value(void **state) {
  (void)state;
  static uint8_t f[BUF];
  uint8_t payload[4];
  lfc_roce_pkt_t p;
  memset(&p, 0, sizeof p);
  p.ipv6 = true;
  p.ttl = 64;
  p.bth.opcode = 0x04;
  p.payload = payload;
  p.payload_len = sizeof payload;
  const size_t ip_at = 14, csum_at = ip_at + 40 + 6;
  unsigned zero_sums = 0, one_sums = 0;
  for (uint32_t x = 0; (zero_sums == 0 || one_sums == 0) && x < (1u << 22); x++) {
    payload[0] = (uint8_t)(x >> 24);
    payload[1] = (uint8_t)(x >> 16);
    payload[2] = (uint8_t)(x >> 8);
    payload[3] = (uint8_t)x;
    const size_t len = lfc_roce_encode(&p, f, BUF, NULL);
    assert_true(len > 0);
    const uint16_t got = (uint16_t)(f[csum_at] << 8 | f[csum_at + 1]);
    const uint16_t want = udp6_reference(f, ip_at);
    if (got != want) fail_msg("payload 0x%04x: UDP checksum 0x%04x, RFC 768 gives 0x%04x", x, got, want);
    zero_sums += want == 0xFFFFu;
    one_sums += want == 1u;
  }
  assert_true(zero_sums > 0 && one_sums > 0);
}

/* RoCEv2 ICRC (IBA Annex A17): the fields routers may change on the way (IPv4 TOS, TTL and
 * header checksum; IPv6 traffic class, flow label and hop limit; the UDP checksum) are masked to
 * ones, so the ICRC of a packet does not depend on them; any other header field does change it.
 * A payload long enough that no Ethernet padding follows: the ICRC is the 4 bytes before the
 * FCS. */
static uint32_t icrc_of(const lfc_roce_pkt_t *p) {
  static uint8_t f[BUF];
  const size_t len = lfc_roce_encode(p, f, BUF, NULL);
  assert_true(len > LFC_ETH_MIN_FRAME);
  const uint8_t *c = f + len - 8;
  return (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
}

static void test_roce_icrc_ignores_variant_fields(void **state) {
  (void)state;
  uint8_t payload[64];
  for (size_t i = 0; i < sizeof payload; i++) payload[i] = (uint8_t)(i * 7u);
  for (int v6 = 0; v6 < 2; v6++) {
    lfc_roce_pkt_t p;
    memset(&p, 0, sizeof p);
    p.ipv6 = v6 != 0;
    p.ttl = 64;
    p.bth.opcode = 0x04;
    p.bth.dqpn = 17;
    p.payload = payload;
    p.payload_len = sizeof payload;
    const uint32_t base = icrc_of(&p);
    lfc_roce_pkt_t q = p;
    q.dscp = 46;
    q.ecn = LFC_ECN_CE;
    q.ttl = 1;
    if (v6) q.flow_label = 0xABCDEu;
    if (icrc_of(&q) != base) fail_msg("ipv6 %d: a variant field changed the ICRC", v6);
    for (uint32_t bit = 0; v6 && bit < 20; bit++) { /* each flow label bit alone */
      q = p;
      q.flow_label = 1u << bit;
      if (icrc_of(&q) != base) fail_msg("flow label bit %u changed the ICRC", bit);
    }
    q = p;
    q.bth.dqpn = 18; /* an invariant field */
    assert_int_not_equal(icrc_of(&q), base);
  }
}

static void test_roce_encode_refusals(void **state) {
  (void)state;
  lfc_roce_pkt_t p;
  memset(&p, 0, sizeof p);
  uint8_t f[BUF];
  lfc_wire_error_t err;
  /* A class map that gives a priority the link word cannot carry is refused. */
  lfc_roce_map_t m;
  lfc_roce_map_default(&m, LFC_ROCE_PRIO_DSCP);
  m.dscp_to_prio[46] = 9;
  p.dscp = 46;
  lfc_word_t w;
  assert_int_equal(lfc_roce_to_word(&p, &m, &w, &err), LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  assert_non_null(strstr(err.text, "dscp_to_prio[46] = 9"));
  p.dscp = 64;
  assert_int_equal(lfc_roce_encode(&p, f, sizeof f, &err), 0);
  assert_int_equal(err.status, LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  p.dscp = 0;
  p.has_vlan = true;
  p.pcp = 8;
  assert_int_equal(lfc_roce_encode(&p, f, sizeof f, &err), 0);
  assert_int_equal(err.status, LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  p.pcp = 0;
  p.bth.psn = 1u << 24;
  assert_int_equal(lfc_roce_encode(&p, f, sizeof f, &err), 0);
  assert_int_equal(err.status, LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  p.bth.psn = 0;
  p.ipv6 = true;
  p.flow_label = 1u << 20;
  assert_int_equal(lfc_roce_encode(&p, f, sizeof f, &err), 0);
  assert_int_equal(err.status, LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: an encode error points at no byte */
  assert_non_null(strstr(err.text, "flow label 0x100000"));
  p.flow_label = (1u << 20) - 1u;
  assert_true(lfc_roce_encode(&p, f, sizeof f, &err) > 0);
  p.ipv6 = false;
  p.flow_label = 0;
  assert_int_equal(lfc_roce_encode(&p, f, 63, &err), 0);
  assert_int_equal(err.status, LFC_WIRE_NO_ROOM);
  assert_int_equal(err.offset, 0);
  /* A payload the 16-bit IP length cannot describe (checked before the buffer's size). */
  p.payload = f;
  p.payload_len = 65489u; /* 20 + 8 + 12 + 65489 + 3 pad + 4 = 65536 bytes of IP packet */
  assert_int_equal(lfc_roce_encode(&p, f, sizeof f, &err), 0);
  assert_int_equal(err.status, LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0);
  assert_non_null(strstr(err.text, "IP length limit"));
  p.payload_len = 65488u; /* the largest that fits: 65535 bytes */
  assert_int_equal(lfc_roce_encode(&p, f, sizeof f, &err), 0);
  assert_int_equal(err.status, LFC_WIRE_NO_ROOM);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  p.payload_len = 0;
  assert_int_equal(lfc_roce_encode(&p, f, sizeof f, &err), 66); /* success clears the record */
  assert_int_equal(err.status, LFC_WIRE_OK);
  assert_string_equal(err.text, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_roce_icrc_connectx4_cnp),
      cmocka_unit_test(test_roce_icrc_scapy_uc_send),
      cmocka_unit_test(test_roce_round_trip_random),
      cmocka_unit_test(test_roce_word_round_trip),
      cmocka_unit_test(test_roce_malformed),
      cmocka_unit_test(test_roce_word_blocks_at_the_64_byte_edge),
      cmocka_unit_test(test_roce_frame_bytes_never_odd),
      cmocka_unit_test(test_roce_encode_refusals),
      cmocka_unit_test(test_roce_udp6_checksum_every_value),
      cmocka_unit_test(test_roce_icrc_ignores_variant_fields),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
