/*
 * test_wire_pfc.c - 802.1Qbb PFC and 802.3x PAUSE frames (lfc/wire_pfc.h,
 * docs/wire-formats.md §2): the exact bytes of a frame laid out by hand from the standard,
 * the FCS residue, round trips over random fields (fixed printed seed), the map to the SPEC §2
 * link word, and every malformed input refused with its reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lfc/crc.h"
#include "lfc/wire_pfc.h"
#include "wire_testutil.h"

static const uint8_t SRC[6] = {0x02, 0x00, 0x00, 0xAA, 0xBB, 0xCC};

/* The CRC-32 of a frame with its FCS appended least significant byte first is the constant
 * 0x2144DF1C (the residue 0xDEBB20E3 after the final XOR): an independent check of where and in
 * which byte order the FCS sits. */
#define CRC32_GOOD_RESIDUE 0x2144DF1Cu

static lfc_pfc_frame_t sample_pfc(void) {
  lfc_pfc_frame_t f;
  memset(&f, 0, sizeof f);
  memcpy(f.src, SRC, sizeof SRC);
  f.opcode = LFC_MAC_CTRL_OP_PFC;
  f.class_enable = 0x09; /* priorities 0 and 3 */
  f.time[0] = 0x1234;
  f.time[3] = 0xFFFF;
  return f;
}

/* 802.1Qbb clause 36.1.2 / 802.3 Annex 31D: byte layout of a PFC frame. */
static void test_pfc_exact_bytes(void **state) {
  (void)state;
  const uint8_t want[60] = {
      0x01, 0x80, 0xC2, 0x00, 0x00, 0x01,            /* DA */
      0x02, 0x00, 0x00, 0xAA, 0xBB, 0xCC,            /* SA */
      0x88, 0x08,                                    /* MAC Control */
      0x01, 0x01,                                    /* opcode PFC */
      0x00, 0x09,                                    /* class-enable vector */
      0x12, 0x34, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, /* time[0..3] */
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* time[4..7] */
      /* zero padding to 60 */
  };
  lfc_pfc_frame_t f = sample_pfc();
  uint8_t out[80];
  memset(out, 0xEE, sizeof out);
  lfc_wire_error_t err;
  assert_int_equal(lfc_pfc_encode(&f, out, sizeof out, &err), 64);
  assert_memory_equal(out, want, sizeof want);
  assert_int_equal(lfc_crc32(out, 64), CRC32_GOOD_RESIDUE);
  assert_int_equal(out[64], 0xEE); /* nothing written past the frame */
}

static void test_pause_exact_bytes(void **state) {
  (void)state;
  lfc_pfc_frame_t f;
  memset(&f, 0, sizeof f);
  memcpy(f.src, SRC, sizeof SRC);
  f.opcode = LFC_MAC_CTRL_OP_PAUSE;
  f.time[0] = 0xABCD;
  uint8_t out[64];
  assert_int_equal(lfc_pfc_encode(&f, out, sizeof out, NULL), 64);
  assert_int_equal(out[14], 0x00);
  assert_int_equal(out[15], 0x01);
  assert_int_equal(out[16], 0xAB);
  assert_int_equal(out[17], 0xCD);
  for (unsigned i = 18; i < 60; i++) assert_int_equal(out[i], 0);
  assert_int_equal(lfc_crc32(out, 64), CRC32_GOOD_RESIDUE);
  lfc_pfc_frame_t g;
  assert_int_equal(lfc_pfc_decode(out, 64, &g, NULL), LFC_WIRE_OK);
  assert_int_equal(g.opcode, LFC_MAC_CTRL_OP_PAUSE);
  assert_int_equal(g.time[0], 0xABCD);
  /* A PAUSE pauses every priority (802.3 Annex 31B): all eight in the link word. */
  lfc_word_t w;
  lfc_pfc_to_word(&g, &w);
  assert_int_equal(w.kind, LFC_PFC);
  assert_int_equal(w.pfc_en, 0xFF);
  for (unsigned i = 0; i < 8; i++) assert_int_equal(w.pfc_time[i], 0xABCD);
}

/* Random fields -> encode -> decode gives the same frame; -> word -> frame -> word is exact. */
static void test_pfc_round_trip_random(void **state) {
  (void)state;
  uint64_t s = wt_seed("test_pfc_round_trip_random", 0x9FC0000000000001ULL);
  for (int n = 0; n < 2000; n++) {
    lfc_pfc_frame_t f;
    memset(&f, 0, sizeof f);
    for (unsigned i = 0; i < 6; i++) f.src[i] = (uint8_t)wt_below(&s, 256);
    f.opcode = wt_below(&s, 4) == 0 ? LFC_MAC_CTRL_OP_PAUSE : LFC_MAC_CTRL_OP_PFC;
    if (f.opcode == LFC_MAC_CTRL_OP_PFC) {
      f.class_enable = (uint8_t)wt_below(&s, 256);
      for (unsigned i = 0; i < 8; i++) f.time[i] = (uint16_t)wt_below(&s, 65536);
    } else {
      f.time[0] = (uint16_t)wt_below(&s, 65536);
    }
    uint8_t buf[64];
    assert_int_equal(lfc_pfc_encode(&f, buf, sizeof buf, NULL), 64);
    lfc_pfc_frame_t g;
    lfc_wire_error_t err;
    assert_int_equal(lfc_pfc_decode(buf, sizeof buf, &g, &err), LFC_WIRE_OK);
    assert_memory_equal(&f, &g, sizeof f);
    if (f.opcode == LFC_MAC_CTRL_OP_PFC) {
      lfc_word_t w, w2;
      lfc_pfc_to_word(&g, &w);
      assert_int_equal(w.pfc_en, f.class_enable);
      assert_memory_equal(w.pfc_time, f.time, sizeof f.time);
      lfc_pfc_frame_t h;
      assert_int_equal(lfc_pfc_from_word(&w, f.src, &h, NULL), LFC_WIRE_OK);
      assert_memory_equal(&h, &f, sizeof f);
      lfc_pfc_to_word(&h, &w2);
      assert_memory_equal(&w, &w2, sizeof w);
    }
  }
}

static uint8_t *valid_frame(uint8_t buf[64]) {
  lfc_pfc_frame_t f = sample_pfc();
  assert_int_equal(lfc_pfc_encode(&f, buf, 64, NULL), 64);
  return buf;
}

/* Re-compute the FCS after a deliberate change, so that the later checks are reached. */
static void refcs(uint8_t buf[64]) {
  const uint32_t c = lfc_crc32(buf, 60);
  buf[60] = (uint8_t)c;
  buf[61] = (uint8_t)(c >> 8);
  buf[62] = (uint8_t)(c >> 16);
  buf[63] = (uint8_t)(c >> 24);
}

/* The decode fails with want, the offending field's offset, and text containing `text`. */
static void expect_at(const uint8_t *buf, size_t len, lfc_wire_status_t want, size_t offset,
                      const char *text) {
  lfc_pfc_frame_t g;
  lfc_wire_error_t err;
  memset(&err, 0, sizeof err);
  assert_int_equal(lfc_pfc_decode(buf, len, &g, &err), want);
  assert_int_equal(err.offset, offset);
  assert_non_null(strstr(err.text, text));
}

static void expect(const uint8_t *buf, size_t len, lfc_wire_status_t want, const char *text) {
  lfc_pfc_frame_t g;
  lfc_wire_error_t err;
  memset(&err, 0, sizeof err);
  assert_int_equal(lfc_pfc_decode(buf, len, &g, &err), want);
  assert_int_equal(err.status, want);
  assert_non_null(strstr(err.text, text));
  assert_int_equal(lfc_pfc_decode(buf, len, &g, NULL), want); /* err is optional */
}

static void test_pfc_malformed(void **state) {
  (void)state;
  uint8_t buf[64];
  /* Every length below the 64-byte minimum. */
  valid_frame(buf);
  for (size_t len = 0; len < 64; len++) expect(buf, len, LFC_WIRE_SHORT, "at least 64");
  /* Every single-bit error anywhere in the frame fails the FCS. */
  for (unsigned bit = 0; bit < 64 * 8; bit++) {
    valid_frame(buf);
    buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    expect(buf, 64, LFC_WIRE_BAD_FCS, "computed");
  }
  valid_frame(buf);
  buf[60] ^= 0x01;
  expect_at(buf, 64, LFC_WIRE_BAD_FCS, 60, "FCS 0x");
  valid_frame(buf);
  const uint8_t other[6] = {0x03, 0x81, 0xC3, 0x04, 0x05, 0x02};
  memcpy(buf, other, sizeof other);
  refcs(buf);
  expect_at(buf, 64, LFC_WIRE_BAD_ADDRESS, 0, "destination 03-81-c3-04-05-02, MAC Control needs");
  valid_frame(buf);
  buf[13] = 0x00; /* 0x8800 */
  refcs(buf);
  expect_at(buf, 64, LFC_WIRE_BAD_ETHERTYPE, 12, "0x8800");
  valid_frame(buf);
  buf[15] = 0x02; /* opcode 0x0102 */
  refcs(buf);
  expect_at(buf, 64, LFC_WIRE_BAD_OPCODE, 14, "0x0102");
  valid_frame(buf);
  buf[16] = 0x01; /* reserved high octet of the class-enable vector */
  refcs(buf);
  expect_at(buf, 64, LFC_WIRE_RESERVED, 16, "0x0109");
}

static void test_pfc_encode_refusals(void **state) {
  (void)state;
  lfc_pfc_frame_t f = sample_pfc();
  uint8_t buf[64];
  lfc_wire_error_t err;
  assert_int_equal(lfc_pfc_encode(&f, buf, 63, &err), 0);
  assert_int_equal(err.status, LFC_WIRE_NO_ROOM);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  assert_int_equal(lfc_pfc_encode(&f, buf, 64, &err), 64); /* success clears the record */
  assert_int_equal(err.status, LFC_WIRE_OK);
  assert_string_equal(err.text, "");
  f.opcode = 0x0002;
  assert_int_equal(lfc_pfc_encode(&f, buf, sizeof buf, &err), 0);
  assert_int_equal(err.status, LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  lfc_word_t w;
  memset(&w, 0, sizeof w);
  w.kind = LFC_FCP;
  assert_int_equal(lfc_pfc_from_word(&w, SRC, &f, &err), LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  assert_string_equal(lfc_wire_status_name(LFC_WIRE_BAD_FCS), "bad-fcs");
  assert_string_equal(lfc_wire_status_name(LFC_WIRE_STATUS_COUNT), "unknown");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pfc_exact_bytes),        cmocka_unit_test(test_pause_exact_bytes),
      cmocka_unit_test(test_pfc_round_trip_random),  cmocka_unit_test(test_pfc_malformed),
      cmocka_unit_test(test_pfc_encode_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
