/*
 * test_wire_crc.c - the CRCs of the wire formats (lfc/crc.h) against published check values:
 * the CRC catalogue's check (CRC of the ASCII bytes "123456789") for CRC-32/ISO-HDLC (the
 * Ethernet FCS and IB ICRC) and, for the reflected CRC-16 engine, CRC-16/ARC and CRC-16/IBM-SDLC
 * the IB CRC-16 (poly 0x100B, Endace dagcrc.c) is not in the catalogue, so its check
 * value is cross-checked against the same engine with the table Endace publishes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lfc/crc.h"

static const uint8_t CHECK[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};

/* reveng.sourceforge.io/crc-catalogue/17plus.htm#crc.cat.crc-32-iso-hdlc: check 0xCBF43926. */
static void test_crc32_catalogue_check(void **state) {
  (void)state;
  assert_int_equal(lfc_crc32(CHECK, sizeof CHECK), 0xCBF43926u);
  assert_int_equal(lfc_crc32(NULL, 0), 0x00000000u);
}

/* A message split in pieces gives the CRC of the whole (the ICRC is computed that way). */
static void test_crc32_in_pieces(void **state) {
  (void)state;
  uint32_t reg = lfc_crc32_update(LFC_CRC32_POLY, LFC_CRC32_INIT, CHECK, 4);
  reg = lfc_crc32_update(LFC_CRC32_POLY, reg, CHECK + 4, sizeof CHECK - 4);
  assert_int_equal(reg ^ LFC_CRC32_XOROUT, 0xCBF43926u);
}

/* The CRC-32 as its definition computes it, one bit at a time (the reflected polynomial
 * 0xEDB88320), written out here independently of lfc_crc32_update's byte table. */
static uint32_t bitwise_crc32(uint32_t reg, const uint8_t *buf, size_t len) {
  for (size_t i = 0; i < len; i++) {
    reg ^= buf[i];
    for (int k = 0; k < 8; k++) reg = (reg & 1u) ? (reg >> 1) ^ 0xEDB88320u : reg >> 1;
  }
  return reg;
}

/* Every byte value, every length up to a jumbo frame's, and pieces of any size give the CRC
 * that the bit-by-bit definition does: a wrong table entry, or a table derived from the wrong
 * bits, changes the CRC of some byte. */
static void test_crc32_matches_bitwise(void **state) {
  (void)state;
  static uint8_t buf[9018]; /* a 9000-byte MTU frame with its Ethernet header and FCS */
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)((i * 2654435761u) >> 13);
  for (unsigned b = 0; b < 256; b++) {
    const uint8_t one = (uint8_t)b;
    assert_int_equal(lfc_crc32_update(LFC_CRC32_POLY, LFC_CRC32_INIT, &one, 1),
                     bitwise_crc32(LFC_CRC32_INIT, &one, 1));
  }
  for (size_t n = 0; n <= 300; n++) {
    assert_int_equal(lfc_crc32(buf, n), bitwise_crc32(LFC_CRC32_INIT, buf, n) ^ LFC_CRC32_XOROUT);
  }
  const uint32_t whole = bitwise_crc32(LFC_CRC32_INIT, buf, sizeof buf);
  assert_int_equal(lfc_crc32_update(LFC_CRC32_POLY, LFC_CRC32_INIT, buf, sizeof buf), whole);
  for (size_t cut = 0; cut <= sizeof buf; cut += 1001) {
    uint32_t reg = lfc_crc32_update(LFC_CRC32_POLY, LFC_CRC32_INIT, buf, cut);
    reg = lfc_crc32_update(LFC_CRC32_POLY, reg, buf + cut, sizeof buf - cut);
    assert_int_equal(reg, whole);
  }
}

/* The catalogue's CRC-16/ARC (poly 0x8005, init 0, check 0xBB3D) and CRC-16/IBM-SDLC (poly
 * 0x1021, init and xorout 0xFFFF, check 0x906E) validate the reflected CRC-16 engine. */
static void test_crc16_engine_catalogue(void **state) {
  (void)state;
  assert_int_equal(lfc_crc16_update(0x8005u, 0x0000u, CHECK, sizeof CHECK), 0xBB3Du);
  assert_int_equal(lfc_crc16_update(0x1021u, 0xFFFFu, CHECK, sizeof CHECK) ^ 0xFFFFu, 0x906Eu);
}

/* The IB CRC-16 as Endace dagcrc.c computes it: a table of the reflected polynomial 0xD008,
 * register 0xFFFF, final XOR 0xFFFF. Written out here independently of lfc_crc16_update. */
static uint16_t endace_vcrc(const uint8_t *buf, size_t len) {
  uint16_t table[256];
  for (unsigned n = 0; n < 256; n++) {
    uint16_t c = (uint16_t)n;
    for (int k = 0; k < 8; k++) c = (c & 1u) ? (uint16_t)(0xD008u ^ (c >> 1)) : (uint16_t)(c >> 1);
    table[n] = c;
  }
  uint16_t c = 0xFFFFu;
  for (size_t i = 0; i < len; i++) c = (uint16_t)(table[(c ^ buf[i]) & 0xFFu] ^ (c >> 8));
  return (uint16_t)(c ^ 0xFFFFu);
}

static void test_crc16_ib_check_value(void **state) {
  (void)state;
  assert_int_equal(lfc_crc16_ib(CHECK, sizeof CHECK), 0x0A3Du);
  assert_int_equal(endace_vcrc(CHECK, sizeof CHECK), 0x0A3Du);
  for (unsigned v = 0; v < 256; v++) { /* every byte value, so every entry of a byte table */
    const uint8_t one = (uint8_t)v;
    assert_int_equal(lfc_crc16_ib(&one, 1), endace_vcrc(&one, 1));
  }
  uint8_t buf[97];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 37u + 11u);
  for (size_t n = 0; n <= sizeof buf; n++) {
    assert_int_equal(lfc_crc16_ib(buf, n), endace_vcrc(buf, n));
  }
}

/* The Linux rxe driver seeds its RoCEv2 ICRC with 0xDEBB20E3 in place of the 8 bytes of ones
 * that stand for the LRH (IBA Annex A17.3.3): our register after those 8 bytes must be it. */
static void test_crc32_register_after_masked_lrh(void **state) {
  (void)state;
  uint8_t ones[8];
  memset(ones, 0xFF, sizeof ones);
  assert_int_equal(lfc_crc32_update(LFC_CRC32_POLY, LFC_CRC32_INIT, ones, sizeof ones),
                   0xDEBB20E3u);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_crc32_catalogue_check),
      cmocka_unit_test(test_crc32_in_pieces),
      cmocka_unit_test(test_crc32_matches_bitwise),
      cmocka_unit_test(test_crc16_engine_catalogue),
      cmocka_unit_test(test_crc16_ib_check_value),
      cmocka_unit_test(test_crc32_register_after_masked_lrh),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
