/*
 * test_wire_ib_fcp.c - the IB flow-control packet (lfc/wire_ib_fcp.h, IBA vol. 1 §7.9.4,
 * docs/wire-formats.md §3): exact bytes, LPCRC, round trips over every field at random with a
 * fixed printed seed, the map to the SPEC §2 link word, and malformed inputs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lfc/crc.h"
#include "lfc/wire_ib_fcp.h"
#include "wire_testutil.h"

/* Op 1 (init), FCTBS 0xABC, VL 7, FCCL 0x123: 0x1ABC 0x7123, then the CRC-16 of those 4 bytes,
 * least significant byte first. */
static void test_fcp_exact_bytes(void **state) {
  (void)state;
  const lfc_ib_fcp_t p = {.op = 1, .vl = 7, .fctbs = 0xABC, .fccl = 0x123};
  uint8_t out[8];
  memset(out, 0xEE, sizeof out);
  lfc_wire_error_t err;
  assert_int_equal(lfc_ib_fcp_encode(&p, out, sizeof out, &err), 6);
  const uint8_t head[4] = {0x1A, 0xBC, 0x71, 0x23};
  assert_memory_equal(out, head, sizeof head);
  const uint16_t crc = lfc_crc16_ib(head, sizeof head);
  assert_int_equal(out[4], crc & 0xFFu);
  assert_int_equal(out[5], crc >> 8);
  assert_int_equal(out[6], 0xEE);
}

static void test_fcp_round_trip_random(void **state) {
  (void)state;
  uint64_t s = wt_seed("test_fcp_round_trip_random", 0xFC90000000000002ULL);
  for (int n = 0; n < 20000; n++) {
    lfc_ib_fcp_t p = {.op = (uint8_t)wt_below(&s, 2),
                      .vl = (uint8_t)wt_below(&s, 16),
                      .fctbs = (uint16_t)wt_below(&s, 4096),
                      .fccl = (uint16_t)wt_below(&s, 4096)};
    uint8_t buf[6];
    assert_int_equal(lfc_ib_fcp_encode(&p, buf, sizeof buf, NULL), 6);
    lfc_ib_fcp_t q;
    assert_int_equal(lfc_ib_fcp_decode(buf, sizeof buf, &q, NULL), LFC_WIRE_OK);
    assert_memory_equal(&p, &q, sizeof p);
    lfc_word_t w;
    lfc_ib_fcp_to_word(&q, &w);
    assert_int_equal(w.kind, LFC_FCP);
    assert_int_equal(w.fc_op, p.op);
    assert_int_equal(w.fc_vl, p.vl);
    assert_int_equal(w.fc_fctbs, p.fctbs);
    assert_int_equal(w.fc_fccl, p.fccl);
    lfc_ib_fcp_t r;
    assert_int_equal(lfc_ib_fcp_from_word(&w, &r, NULL), LFC_WIRE_OK);
    assert_memory_equal(&p, &r, sizeof p);
  }
}

static void test_fcp_malformed(void **state) {
  (void)state;
  const lfc_ib_fcp_t p = {.op = 0, .vl = 3, .fctbs = 100, .fccl = 2148};
  uint8_t buf[6];
  lfc_ib_fcp_t q;
  lfc_wire_error_t err;
  assert_int_equal(lfc_ib_fcp_encode(&p, buf, sizeof buf, NULL), 6);
  for (size_t len = 0; len < 6; len++) {
    assert_int_equal(lfc_ib_fcp_decode(buf, len, &q, &err), LFC_WIRE_SHORT);
    assert_non_null(strstr(err.text, "is 6"));
  }
  /* A CRC-16 detects every single-bit error. */
  for (unsigned bit = 0; bit < 48; bit++) {
    uint8_t bad[6];
    memcpy(bad, buf, sizeof bad);
    bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    assert_int_equal(lfc_ib_fcp_decode(bad, sizeof bad, &q, &err), LFC_WIRE_BAD_LPCRC);
    assert_int_equal(err.offset, 4);
  }
  /* Reserved Op 2..15 with a good LPCRC: refused, the fields still read. */
  for (uint8_t op = 2; op < 16; op++) {
    const lfc_ib_fcp_t r = {.op = op, .vl = 3, .fctbs = 100, .fccl = 2148};
    assert_int_equal(lfc_ib_fcp_encode(&r, buf, sizeof buf, NULL), 6);
    assert_int_equal(lfc_ib_fcp_decode(buf, sizeof buf, &q, &err), LFC_WIRE_BAD_OPCODE);
    assert_non_null(strstr(err.text, "reserved"));
    assert_int_equal(q.op, op);
    assert_int_equal(q.fccl, 2148);
  }
}

static void test_fcp_encode_refusals(void **state) {
  (void)state;
  uint8_t buf[6];
  lfc_wire_error_t err;
  const lfc_ib_fcp_t wide_vl = {.op = 0, .vl = 16, .fctbs = 0, .fccl = 0};
  assert_int_equal(lfc_ib_fcp_encode(&wide_vl, buf, sizeof buf, &err), 0);
  assert_int_equal(err.status, LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  const lfc_ib_fcp_t wide_fccl = {.op = 0, .vl = 0, .fctbs = 0, .fccl = 4096};
  assert_int_equal(lfc_ib_fcp_encode(&wide_fccl, buf, sizeof buf, &err), 0);
  assert_int_equal(err.status, LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  const lfc_ib_fcp_t ok = {.op = 0, .vl = 0, .fctbs = 0, .fccl = 0};
  assert_int_equal(lfc_ib_fcp_encode(&ok, buf, 5, &err), 0);
  assert_int_equal(err.status, LFC_WIRE_NO_ROOM);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  assert_int_equal(lfc_ib_fcp_encode(&ok, buf, 6, &err), 6); /* success clears the record */
  assert_int_equal(err.status, LFC_WIRE_OK);
  assert_string_equal(err.text, "");
  lfc_word_t w;
  memset(&w, 0, sizeof w);
  w.kind = LFC_PFC;
  lfc_ib_fcp_t q;
  assert_int_equal(lfc_ib_fcp_from_word(&w, &q, &err), LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
  w.kind = LFC_FCP;
  w.fc_fctbs = 4096;
  assert_int_equal(lfc_ib_fcp_from_word(&w, &q, &err), LFC_WIRE_BAD_FIELD);
  assert_int_equal(err.offset, 0); /* lfc/wire.h: encode and map errors */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fcp_exact_bytes),
      cmocka_unit_test(test_fcp_round_trip_random),
      cmocka_unit_test(test_fcp_malformed),
      cmocka_unit_test(test_fcp_encode_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
