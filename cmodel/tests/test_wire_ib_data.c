/*
 * test_wire_ib_data.c - InfiniBand data packets (lfc/wire_ib_data.h, IBA vol. 1 §7.7-§7.8,
 * docs/wire-formats.md §4): the LRH/GRH/BTH bytes of hand-laid-out packets, the ICRC against an
 * independent masking written here from IBA §7.8.1 and against the RoCEv2 rule (the ICRC of a
 * RoCEv2 packet equals the ICRC over ones in place of the LRH), VCRC, PktLen and PayLen, round
 * trips over random fields with a fixed printed seed, the link word map, and malformed inputs.
 * No published ICRC/VCRC vector of a native IB packet was found (docs/wire-formats.md §1).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lfc/crc.h"
#include "lfc/wire_ib_data.h"
#include "wire_testutil.h"

#define BUF 9000

/* The ICRC as IBA §7.8.1 words it, written independently: copy the packet up to the ICRC, set
 * the variant fields to ones, CRC-32 the lot. */
static uint32_t icrc_reference(const uint8_t *pkt, size_t len) {
  static uint8_t c[BUF];
  const size_t upto = len - 2 - 4;
  memcpy(c, pkt, upto);
  c[0] |= 0xF0; /* VL */
  size_t bth = 8;
  if ((c[1] & 3) == 3) {
    c[8] |= 0x0F;
    c[9] = c[10] = c[11] = 0xFF; /* TClass, FlowLabel */
    c[15] = 0xFF;                /* HopLmt */
    bth = 48;
  }
  c[bth + 4] = 0xFF; /* FECN, BECN, reserved */
  return lfc_crc32(c, upto);
}

static void test_ib_lrh_bth_exact_bytes(void **state) {
  (void)state;
  static const uint8_t payload[5] = {0xDE, 0xAD, 0xBE, 0xEF, 0x42};
  lfc_ib_pkt_t p;
  memset(&p, 0, sizeof p);
  p.vl = 3;
  p.sl = 5;
  p.dlid = 0x1234;
  p.slid = 0x00AB;
  p.bth.opcode = 0x04; /* RC SEND only */
  p.bth.se = 1;
  p.bth.pkey = 0xFFFF;
  p.bth.fecn = 1;
  p.bth.dqpn = 0x000102;
  p.bth.ackreq = 1;
  p.bth.psn = 0xABCDEF;
  p.payload = payload;
  p.payload_len = sizeof payload;
  uint8_t out[64];
  memset(out, 0xEE, sizeof out);
  lfc_wire_error_t err;
  /* 8 + 12 + 5 + 3 pad + 4 + 2 = 34 bytes; PktLen = 32 / 4 = 8 words. */
  assert_int_equal(lfc_ib_pkt_bytes(false, 5), 34);
  assert_int_equal(lfc_ib_pkt_encode(&p, out, sizeof out, &err), 34);
  const uint8_t want[28] = {
      0x30, 0x52, 0x12, 0x34, 0x00, 0x08, 0x00, 0xAB,             /* LRH */
      0x04, 0xB0, 0xFF, 0xFF, 0x80, 0x00, 0x01, 0x02, 0x80, 0xAB, /* BTH: SE, PadCnt 3 */
      0xCD, 0xEF,                                                 /* PSN */
      0xDE, 0xAD, 0xBE, 0xEF, 0x42, 0x00, 0x00, 0x00,             /* payload, pad */
  };
  assert_memory_equal(out, want, sizeof want);
  const uint32_t icrc = icrc_reference(out, 34);
  assert_int_equal(out[28] | out[29] << 8 | out[30] << 16 | (uint32_t)out[31] << 24, icrc);
  const uint16_t vcrc = lfc_crc16_ib(out, 32);
  assert_int_equal(out[32] | out[33] << 8, vcrc);
  assert_int_equal(out[34], 0xEE);
}

/* The ICRC computed in pieces, as the Linux rxe driver does it (register carried from header
 * to payload): masked LRH, masked BTH, payload with its pad. */
/* The BTH's field widths (IBA vol. 1 §9.2): each 1-bit flag takes 0 and 1, not 2; DestQP and PSN
   take 0xFFFFFF, not 0x1000000; TVer takes 15, not 16. */
static void test_ib_bth_field_widths(void **state) {
  (void)state;
  static uint8_t f[BUF];
  lfc_wire_error_t err;
  for (unsigned field = 0; field < 7; field++) {
    for (unsigned over = 0; over < 2; over++) {
      lfc_ib_pkt_t p;
      memset(&p, 0, sizeof p);
      const uint32_t max = field < 5 ? 1u : 0xFFFFFFu;
      const uint32_t v = over ? max + 1u : max;
      switch (field) {
        case 0: p.bth.se = (uint8_t)v; break;
        case 1: p.bth.m = (uint8_t)v; break;
        case 2: p.bth.fecn = (uint8_t)v; break;
        case 3: p.bth.becn = (uint8_t)v; break;
        case 4: p.bth.ackreq = (uint8_t)v; break;
        case 5: p.bth.dqpn = v; break;
        default: p.bth.psn = v; break;
      }
      const size_t n = lfc_ib_pkt_encode(&p, f, BUF, &err);
      if (over) {
        assert_int_equal(n, 0);
        assert_int_equal(err.status, LFC_WIRE_BAD_FIELD);
        assert_int_equal(err.offset, 0);
      } else if (n == 0) {
        fail_msg("BTH field %u = 0x%x refused: %s", field, v, err.text);
      }
    }
  }
}

static void test_ib_icrc_in_pieces(void **state) {
  (void)state;
  static const uint8_t payload[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  lfc_ib_pkt_t p;
  memset(&p, 0, sizeof p);
  p.bth.opcode = 0x64;
  p.bth.dqpn = 0x55;
  p.payload = payload;
  p.payload_len = sizeof payload;
  uint8_t out[64];
  const size_t len = lfc_ib_pkt_encode(&p, out, sizeof out, NULL);
  assert_int_equal(len, 8 + 12 + 12 + 6);
  uint8_t lrh[8];
  memcpy(lrh, out, 8);
  lrh[0] |= 0xF0;
  uint8_t bth[12];
  memcpy(bth, out + 8, 12);
  bth[4] = 0xFF;
  uint32_t reg = lfc_crc32_update(LFC_CRC32_POLY, LFC_CRC32_INIT, lrh, 8);
  reg = lfc_crc32_update(LFC_CRC32_POLY, reg, bth, 12);
  reg = lfc_crc32_update(LFC_CRC32_POLY, reg, payload, 12);
  assert_int_equal(reg ^ 0xFFFFFFFFu, lfc_ib_icrc(out, len));
}

static void random_pkt(uint64_t *s, lfc_ib_pkt_t *p, uint8_t *payload) {
  memset(p, 0, sizeof *p);
  p->vl = (uint8_t)wt_below(s, 16);
  p->sl = (uint8_t)wt_below(s, 16);
  p->dlid = (uint16_t)wt_below(s, 65536);
  p->slid = (uint16_t)wt_below(s, 65536);
  p->has_grh = wt_below(s, 2);
  if (p->has_grh) {
    p->grh.tclass = (uint8_t)wt_below(s, 256);
    p->grh.flow_label = wt_below(s, 1u << 20);
    p->grh.hoplmt = (uint8_t)wt_below(s, 256);
    for (unsigned i = 0; i < 16; i++) {
      p->grh.sgid[i] = (uint8_t)wt_below(s, 256);
      p->grh.dgid[i] = (uint8_t)wt_below(s, 256);
    }
  }
  p->bth.opcode = (uint8_t)wt_below(s, 256);
  p->bth.se = (uint8_t)wt_below(s, 2);
  p->bth.m = (uint8_t)wt_below(s, 2);
  p->bth.pkey = (uint16_t)wt_below(s, 65536);
  p->bth.fecn = (uint8_t)wt_below(s, 2);
  p->bth.becn = (uint8_t)wt_below(s, 2);
  p->bth.dqpn = wt_below(s, 1u << 24);
  p->bth.ackreq = (uint8_t)wt_below(s, 2);
  p->bth.psn = wt_below(s, 1u << 24);
  p->payload_len = wt_below(s, 3) == 0 ? wt_below(s, 8) : wt_below(s, 4097);
  for (size_t i = 0; i < p->payload_len; i++) payload[i] = (uint8_t)wt_below(s, 256);
  p->payload = payload;
  p->bth.padcnt = (uint8_t)((4u - p->payload_len % 4u) % 4u);
}

static void test_ib_round_trip_random(void **state) {
  (void)state;
  uint64_t s = wt_seed("test_ib_round_trip_random", 0x1BDA000000000005ULL);
  static uint8_t payload[BUF], f[BUF];
  for (int n = 0; n < 3000; n++) {
    lfc_ib_pkt_t p, q;
    random_pkt(&s, &p, payload);
    lfc_wire_error_t err;
    const size_t len = lfc_ib_pkt_encode(&p, f, sizeof f, &err);
    assert_int_equal(len, lfc_ib_pkt_bytes(p.has_grh, p.payload_len));
    assert_int_equal(len % 4, 2);
    assert_int_equal(lfc_ib_pkt_decode(f, len, &q, &err), LFC_WIRE_OK);
    assert_int_equal(q.pktlen, (len - 2) / 4);
    assert_int_equal(q.icrc, icrc_reference(f, len));
    assert_int_equal(q.vcrc, lfc_crc16_ib(f, len - 2));
    assert_memory_equal(q.payload, p.payload, p.payload_len);
    q.payload = p.payload;
    q.pktlen = 0;
    q.icrc = 0;
    q.vcrc = 0;
    assert_memory_equal(&p, &q, sizeof p);
    lfc_word_t w;
    assert_int_equal(lfc_ib_pkt_to_word(&q, &w, &err), LFC_WIRE_OK);
    assert_int_equal(w.kind, LFC_DATA);
    assert_int_equal(w.cls, p.vl);
    assert_int_equal(w.dst, p.dlid);
    assert_int_equal(w.nblk, (len + 63) / 64);
    assert_int_equal(w.eop, w.nblk == 1);
    assert_int_equal(w.ecn, p.bth.fecn ? 3 : 0);
  }
}

/* word -> packet -> bytes -> packet -> word is exact for every nblk an IB packet can have, and for
 * every pad the format holds (the packet is 64 x nblk - pad bytes); another pad comes back as the
 * format's (wt_frame_pad: 2 mod 4, as LRH + BTH + ICRC + VCRC are 26 bytes). */
static void test_ib_word_round_trip(void **state) {
  (void)state;
  static uint8_t payload[BUF], f[BUF];
  lfc_wire_error_t err;
  const uint32_t over = (uint32_t)lfc_ib_pkt_bytes(false, 0);
  assert_int_equal(over, 26);
  unsigned exact = 0;
  for (unsigned nblk = 1; nblk <= 128; nblk++) {
    for (unsigned k = 0; k < 2u * 64u; k++) {
      const unsigned ecn = k & 1u ? 3u : 0u, pad = k >> 1;
      lfc_word_t w;
      memset(&w, 0, sizeof w);
      w.kind = LFC_DATA;
      w.sop = 1;
      w.eop = nblk == 1;
      w.cls = (uint8_t)(nblk % 16);
      w.nblk = (uint8_t)nblk;
      w.dst = (uint16_t)(nblk * 257u);
      w.tag = 0xA5000000u + nblk;
      w.ecn = (uint8_t)ecn;
      w.pad = (uint8_t)pad;
      lfc_ib_pkt_t p, q;
      assert_int_equal(lfc_ib_pkt_from_word(&w, NULL, &p, payload, sizeof payload, &err),
                       LFC_WIRE_OK);
      const size_t len = lfc_ib_pkt_encode(&p, f, sizeof f, &err);
      assert_int_equal((len + 63) / 64, nblk);
      assert_int_equal(len, nblk * 64u - wt_frame_pad(nblk, pad, over));
      assert_int_equal(lfc_ib_pkt_decode(f, len, &q, &err), LFC_WIRE_OK);
      lfc_word_t w2;
      assert_int_equal(lfc_ib_pkt_to_word(&q, &w2, &err), LFC_WIRE_OK);
      lfc_word_t want = w;
      want.pad = wt_frame_pad(nblk, pad, over);
      assert_memory_equal(&want, &w2, sizeof w);
      exact += want.pad == pad;
    }
  }
  /* pads 2, 6, .., 62 of every nblk, but for one block only those that leave room for the tag
     (a packet of at least 30 bytes: pads up to 34), each with two ECNs */
  assert_int_equal(exact, 2u * (127u * 16u + 9u));
  /* Beyond the 11-bit PktLen (2047 words, 8190 bytes with VCRC, 128 blocks): refused. */
  lfc_word_t w;
  memset(&w, 0, sizeof w);
  w.kind = LFC_DATA;
  w.nblk = 129;
  lfc_ib_pkt_t p;
  assert_int_equal(lfc_ib_pkt_from_word(&w, NULL, &p, payload, sizeof payload, &err),
                   LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  assert_non_null(strstr(err.text, "PktLen"));
  w.nblk = 2;
  w.pad = 64; /* the rest of one block is 0..63 */
  assert_int_equal(lfc_ib_pkt_from_word(&w, NULL, &p, payload, sizeof payload, &err),
                   LFC_WIRE_BAD_FIELD);
  assert_non_null(strstr(err.text, "pad 64 is not below 64"));
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  w.pad = 0;
  w.nblk = 0; /* no room for the tag */
  assert_int_equal(lfc_ib_pkt_from_word(&w, NULL, &p, payload, sizeof payload, &err),
                   LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  assert_non_null(strstr(err.text, "4-byte tag"));
  w.kind = LFC_FCP;
  assert_int_equal(lfc_ib_pkt_from_word(&w, NULL, &p, payload, sizeof payload, &err),
                   LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
}

static size_t valid_pkt(uint8_t *f, bool grh) {
  static const uint8_t payload[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  lfc_ib_pkt_t p;
  memset(&p, 0, sizeof p);
  p.vl = 1;
  p.has_grh = grh;
  p.bth.opcode = 0x04;
  p.payload = payload;
  p.payload_len = sizeof payload;
  return lfc_ib_pkt_encode(&p, f, BUF, NULL);
}

/* Recompute ICRC and VCRC after a deliberate change so that the later checks are reached. */
static void refix(uint8_t *f, size_t len) {
  const uint32_t icrc = icrc_reference(f, len);
  for (unsigned i = 0; i < 4; i++) f[len - 6 + i] = (uint8_t)(icrc >> (8 * i));
  const uint16_t vcrc = lfc_crc16_ib(f, len - 2);
  f[len - 2] = (uint8_t)vcrc;
  f[len - 1] = (uint8_t)(vcrc >> 8);
}

static void expect(uint8_t *f, size_t len, lfc_wire_status_t want, const char *text) {
  lfc_ib_pkt_t p;
  lfc_wire_error_t err;
  memset(&err, 0, sizeof err);
  assert_int_equal(lfc_ib_pkt_decode(f, len, &p, &err), want);
  if (strstr(err.text, text) == NULL) fail_msg("'%s' lacks '%s'", err.text, text);
}

/* As expect, and the error names the offending field's offset. */
static void expect_at(uint8_t *f, size_t len, lfc_wire_status_t want, size_t offset,
                      const char *text) {
  lfc_ib_pkt_t p;
  lfc_wire_error_t err;
  memset(&err, 0, sizeof err);
  assert_int_equal(lfc_ib_pkt_decode(f, len, &p, &err), want);
  if (strstr(err.text, text) == NULL) fail_msg("'%s' lacks '%s'", err.text, text);
  assert_int_equal(err.offset, offset);
}

/* Every IB data packet is 2 mod 4 bytes long (LRH 8, GRH 40, BTH 12, the payload padded to 4
   bytes, ICRC 4, VCRC 2): never 1 mod 64, the length at which the nblk rounding of
   wire_data_word would show `- 2u` for `- 1u` (tb/fuzz/mutants-c-equivalent.txt). Checked over
   every payload length up to beyond the largest packet. */
static void test_ib_pkt_bytes_two_mod_four(void **state) {
  (void)state;
  for (int grh = 0; grh < 2; grh++)
    for (size_t n = 0; n <= 8192u; n++) {
      const size_t b = lfc_ib_pkt_bytes(grh, n);
      if (b % 4u != 2u) fail_msg("payload %zu: packet of %zu bytes", n, b);
    }
}

static void test_ib_malformed(void **state) {
  (void)state;
  static uint8_t f[BUF];
  size_t len = valid_pkt(f, false);
  assert_int_equal(len, 34);
  for (size_t n = 0; n < 26; n++) expect(f, n, LFC_WIRE_SHORT, "at least 26");
  expect_at(f, len - 4, LFC_WIRE_BAD_LENGTH, 4, "PktLen 8");
  for (unsigned bit = 0; bit < len * 8; bit++) {
    valid_pkt(f, false);
    f[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    lfc_ib_pkt_t p;
    const lfc_wire_status_t st = lfc_ib_pkt_decode(f, len, &p, NULL);
    /* A flipped LNH or PktLen bit is caught before the VCRC (LNH 3 makes it too short for a
     * GRH); every other one by it. */
    assert_true(st == LFC_WIRE_BAD_VCRC || st == LFC_WIRE_BAD_LENGTH || st == LFC_WIRE_RESERVED ||
                st == LFC_WIRE_SHORT);
  }
  valid_pkt(f, false);
  f[1] = (uint8_t)((f[1] & 0xFC) | 1); /* LNH 1: IP, not IBA */
  refix(f, len);
  expect_at(f, len, LFC_WIRE_RESERVED, 1, "LNH 1");
  valid_pkt(f, false);
  f[0] |= 0x01; /* LVer 1 */
  refix(f, len);
  expect_at(f, len, LFC_WIRE_BAD_VERSION, 0, "LVer 1");
  /* TVer: 4 bits to the encoder (15 is encoded), only 0 to the decoder. */
  {
    lfc_ib_pkt_t p;
    memset(&p, 0, sizeof p);
    p.bth.tver = 15;
    lfc_wire_error_t err;
    const size_t n = lfc_ib_pkt_encode(&p, f, BUF, &err);
    assert_int_equal(n, 26);
    expect_at(f, n, LFC_WIRE_BAD_VERSION, 9, "TVer 15");
    p.bth.tver = 16;
    assert_int_equal(lfc_ib_pkt_encode(&p, f, BUF, &err), 0);
    assert_int_equal(err.status, LFC_WIRE_BAD_FIELD);
    assert_int_equal(err.offset, 0); /* lfc/wire.h: an encode error points at no byte */
    p.bth.tver = 0;
    assert_int_equal(lfc_ib_pkt_encode(&p, f, 25, &err), 0); /* one byte short */
    assert_int_equal(err.status, LFC_WIRE_NO_ROOM);
    assert_int_equal(err.offset, 0);
    assert_non_null(strstr(err.text, "need 26 bytes, have 25"));
    assert_int_equal(lfc_ib_pkt_encode(&p, f, BUF, &err), 26); /* success clears the record */
    assert_int_equal(err.status, LFC_WIRE_OK);
    assert_string_equal(err.text, "");
  }
  len = valid_pkt(f, false);
  f[9] |= 0x02; /* TVer 2 */
  refix(f, len);
  expect_at(f, len, LFC_WIRE_BAD_VERSION, 9, "TVer 2");
  valid_pkt(f, false);
  f[19] ^= 0x01; /* PSN: invariant, so the ICRC catches it (VCRC recomputed) */
  const uint16_t vcrc = lfc_crc16_ib(f, len - 2);
  f[len - 2] = (uint8_t)vcrc;
  f[len - 1] = (uint8_t)(vcrc >> 8);
  expect_at(f, len, LFC_WIRE_BAD_ICRC, 28, "ICRC");
  /* The VL is variant: a switch may change it and recompute only the VCRC. */
  valid_pkt(f, false);
  f[0] = (uint8_t)((f[0] & 0x0F) | 0x70);
  const uint16_t vcrc2 = lfc_crc16_ib(f, len - 2);
  f[len - 2] = (uint8_t)vcrc2;
  f[len - 1] = (uint8_t)(vcrc2 >> 8);
  expect(f, len, LFC_WIRE_OK, "");
  len = valid_pkt(f, true);
  assert_int_equal(len, 74);
  f[8] = 0x40; /* GRH IPVer 4 */
  refix(f, len);
  expect_at(f, len, LFC_WIRE_BAD_VERSION, 8, "IPVer 4");
  valid_pkt(f, true);
  f[13] += 1; /* PayLen */
  refix(f, len);
  expect_at(f, len, LFC_WIRE_BAD_LENGTH, 12, "the packet has 24 bytes after the GRH");
  {
    /* A success after a failure clears the whole record, the offset included. */
    lfc_ib_pkt_t q;
    lfc_wire_error_t e;
    assert_int_equal(lfc_ib_pkt_decode(f, len, &q, &e), LFC_WIRE_BAD_LENGTH);
    assert_int_equal(e.offset, 12);
    valid_pkt(f, true);
    assert_int_equal(lfc_ib_pkt_decode(f, len, &q, &e), LFC_WIRE_OK);
    assert_int_equal(e.offset, 0);
    assert_string_equal(e.text, "");
    f[13] += 1;
    refix(f, len);
  }
  valid_pkt(f, true);
  f[14] = 0x11; /* NxtHdr UDP */
  refix(f, len);
  expect_at(f, len, LFC_WIRE_BAD_OPCODE, 14, "NxtHdr 0x11");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ib_lrh_bth_exact_bytes), cmocka_unit_test(test_ib_icrc_in_pieces),
      cmocka_unit_test(test_ib_round_trip_random),   cmocka_unit_test(test_ib_word_round_trip),
      cmocka_unit_test(test_ib_pkt_bytes_two_mod_four),
      cmocka_unit_test(test_ib_malformed),
      cmocka_unit_test(test_ib_bth_field_widths),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
