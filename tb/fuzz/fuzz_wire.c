/*
 * fuzz_wire.c - libFuzzer target: the wire-format decoders of liblfc (lfc/wire_*.h,
 * docs/wire-formats.md) on arbitrary bytes.
 *
 * The first input byte picks the decoder (its low 2 bits: PFC, IB FCP, IB data, RoCEv2); the
 * rest is the frame. With bit 2 of that byte set, the frame's CRCs are first made right (FCS;
 * LPCRC; IB ICRC and VCRC), so that mutations reach the checks behind them. Besides crashes,
 * reads out of bounds and undefined behaviour (ASan, UBSan), the target aborts when a contract
 * is broken:
 *   - the status is a defined lfc_wire_status_t, the same with and without an error record, and
 *     the record's status equals it with NUL-terminated, non-empty text on failure;
 *   - what decodes is stable: encoding the decoded fields and decoding again gives the same
 *     fields (and for the IB FCP, the very same 6 bytes);
 *   - its link word maps back: frame -> word -> frame -> word gives the same word (where the
 *     word can carry the frame at all).
 *
 * Built with clang by cmodel/tools/wire.mk: `make fuzz-wire` (FUZZ_SECONDS), and a short run with
 * a fixed seed over tb/fuzz/wire_seeds/ in `make test` (test-fuzz-wire).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfc/crc.h"
#include "lfc/wire_ib_data.h"
#include "lfc/wire_ib_fcp.h"
#include "lfc/wire_pfc.h"
#include "lfc/wire_roce.h"

#define SELECT_MASK 0x3u
#define FIX_CRCS 0x4u
#define MAX_FRAME 70000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what) {
  fprintf(stderr, "fuzz_wire: contract broken: %s\n", what);
  abort();
}

/* The status must be defined and the error record must agree with it. */
static void check_status(lfc_wire_status_t st, lfc_wire_status_t st_noerr,
                         const lfc_wire_error_t *err) {
  if ((unsigned)st >= LFC_WIRE_STATUS_COUNT) die("undefined status");
  if (st != st_noerr) die("status differs without an error record");
  if (err->status != st) die("error record's status differs");
  if (memchr(err->text, '\0', sizeof err->text) == NULL) die("error text not terminated");
  if (st != LFC_WIRE_OK && err->text[0] == '\0') die("failure without text");
  if (st != LFC_WIRE_OK && strchr(err->text, '\n') != NULL) die("error text of two lines");
}

static void fuzz_pfc(const uint8_t *in, size_t len) {
  lfc_pfc_frame_t f, g;
  lfc_wire_error_t err;
  const lfc_wire_status_t st = lfc_pfc_decode(in, len, &f, &err);
  check_status(st, lfc_pfc_decode(in, len, &g, NULL), &err);
  if (st != LFC_WIRE_OK) return;
  uint8_t b[LFC_PFC_FRAME_BYTES];
  if (lfc_pfc_encode(&f, b, sizeof b, NULL) != sizeof b) die("PFC: decoded frame does not encode");
  if (lfc_pfc_decode(b, sizeof b, &g, NULL) != LFC_WIRE_OK || memcmp(&f, &g, sizeof f) != 0) {
    die("PFC: encode(decode(x)) decodes differently");
  }
  /* Header and parameters (bytes 0..33 for PFC, 0..17 for PAUSE) are what came in. */
  const size_t params = f.opcode == LFC_MAC_CTRL_OP_PFC ? 34u : 18u;
  if (memcmp(b, in, params) != 0) die("PFC: re-encoded header differs from the input");
  lfc_word_t w, w2;
  lfc_pfc_to_word(&f, &w);
  if (lfc_pfc_from_word(&w, f.src, &g, NULL) != LFC_WIRE_OK) die("PFC: word does not map back");
  lfc_pfc_to_word(&g, &w2);
  if (memcmp(&w, &w2, sizeof w) != 0) die("PFC: word -> frame -> word differs");
}

static void fuzz_fcp(const uint8_t *in, size_t len) {
  lfc_ib_fcp_t p, q;
  lfc_wire_error_t err;
  const lfc_wire_status_t st = lfc_ib_fcp_decode(in, len, &p, &err);
  check_status(st, lfc_ib_fcp_decode(in, len, &q, NULL), &err);
  if (st != LFC_WIRE_OK) return;
  uint8_t b[LFC_IB_FCP_BYTES];
  if (lfc_ib_fcp_encode(&p, b, sizeof b, NULL) != sizeof b) die("FCP: decoded does not encode");
  if (memcmp(b, in, sizeof b) != 0) die("FCP: encode(decode(x)) != x");
  lfc_word_t w;
  lfc_ib_fcp_to_word(&p, &w);
  if (lfc_ib_fcp_from_word(&w, &q, NULL) != LFC_WIRE_OK || memcmp(&p, &q, sizeof p) != 0) {
    die("FCP: word does not map back");
  }
}

static void fuzz_ib(const uint8_t *in, size_t len) {
  static uint8_t b[MAX_FRAME], payload[MAX_FRAME];
  lfc_ib_pkt_t p, q;
  lfc_wire_error_t err;
  const lfc_wire_status_t st = lfc_ib_pkt_decode(in, len, &p, &err);
  check_status(st, lfc_ib_pkt_decode(in, len, &q, NULL), &err);
  if (st != LFC_WIRE_OK) return;
  const size_t n = lfc_ib_pkt_encode(&p, b, sizeof b, &err);
  if (n != len) die("IB: decoded packet encodes to another length");
  if (lfc_ib_pkt_decode(b, n, &q, NULL) != LFC_WIRE_OK) die("IB: encode(decode(x)) refused");
  if (q.payload_len != p.payload_len || memcmp(q.payload, p.payload, p.payload_len) != 0) {
    die("IB: payload differs");
  }
  q.payload = p.payload;
  q.icrc = p.icrc;
  q.vcrc = p.vcrc;
  if (memcmp(&p, &q, sizeof p) != 0) die("IB: encode(decode(x)) decodes differently");
  lfc_word_t w, w2;
  if (lfc_ib_pkt_to_word(&p, &w, NULL) != LFC_WIRE_OK) die("IB: a valid packet has no word");
  if (lfc_ib_pkt_from_word(&w, &p, &q, payload, sizeof payload, NULL) != LFC_WIRE_OK) {
    return; /* one block too small for the tag: documented */
  }
  if (lfc_ib_pkt_to_word(&q, &w2, NULL) != LFC_WIRE_OK) die("IB: from_word packet has no word");
  /* The word keeps FECN only as CE; the rest must come back. */
  if (memcmp(&w, &w2, sizeof w) != 0) die("IB: word -> packet -> word differs");
}

static void fuzz_roce(const uint8_t *in, size_t len) {
  static uint8_t b[MAX_FRAME], payload[MAX_FRAME];
  lfc_roce_pkt_t p, q;
  lfc_wire_error_t err;
  const lfc_wire_status_t st = lfc_roce_decode(in, len, &p, &err);
  check_status(st, lfc_roce_decode(in, len, &q, NULL), &err);
  if (st != LFC_WIRE_OK) return;
  const size_t n = lfc_roce_encode(&p, b, sizeof b, &err);
  if (n == 0) die("RoCEv2: a decoded packet does not encode");
  if (lfc_roce_decode(b, n, &q, NULL) != LFC_WIRE_OK) die("RoCEv2: encode(decode(x)) refused");
  if (q.payload_len != p.payload_len || memcmp(q.payload, p.payload, p.payload_len) != 0) {
    die("RoCEv2: payload differs");
  }
  q.payload = p.payload;
  q.icrc = p.icrc;
  if (memcmp(&p, &q, sizeof p) != 0) die("RoCEv2: encode(decode(x)) decodes differently");
  lfc_roce_map_t m;
  lfc_roce_map_default(&m, p.has_vlan ? LFC_ROCE_PRIO_PCP : LFC_ROCE_PRIO_DSCP);
  lfc_word_t w, w2;
  if (lfc_roce_to_word(&p, &m, &w, NULL) != LFC_WIRE_OK) return; /* over 255 blocks */
  if (lfc_roce_from_word(&w, &m, &p, &q, payload, sizeof payload, NULL) != LFC_WIRE_OK) return;
  if (lfc_roce_to_word(&q, &m, &w2, NULL) != LFC_WIRE_OK) die("RoCEv2: from_word has no word");
  if (memcmp(&w, &w2, sizeof w) != 0) die("RoCEv2: word -> frame -> word differs");
}

static void put_le(uint8_t *b, uint32_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; i++) b[i] = (uint8_t)(v >> (8u * i));
}

/* Make the CRCs of frame b[0..len) right for the decoder `which` (where the length allows). */
static void fix_crcs(unsigned which, uint8_t *b, size_t len) {
  if (which == 1u) {
    if (len >= LFC_IB_FCP_BYTES) {
      put_le(b + LFC_IB_FCP_CRC_OFFSET, lfc_crc16_ib(b, LFC_IB_FCP_CRC_OFFSET), 2u);
    }
    return;
  }
  if (which == 2u) {
    const size_t grh = (len >= 2u && (b[1] & 3u) == LFC_IB_LNH_GLOBAL) ? LFC_IB_GRH_BYTES : 0u;
    if (len >= LFC_IB_LRH_BYTES + grh + LFC_IB_BTH_BYTES + LFC_IB_ICRC_BYTES + LFC_IB_VCRC_BYTES) {
      put_le(b + len - LFC_IB_VCRC_BYTES - LFC_IB_ICRC_BYTES, lfc_ib_icrc(b, len), 4u);
      put_le(b + len - LFC_IB_VCRC_BYTES, lfc_crc16_ib(b, len - LFC_IB_VCRC_BYTES), 2u);
    }
    return;
  }
  if (len >= LFC_ETH_MIN_FRAME) {
    put_le(b + len - LFC_ETH_FCS_BYTES, lfc_crc32(b, len - LFC_ETH_FCS_BYTES), 4u);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static uint8_t copy[MAX_FRAME];
  if (size < 1u || size > MAX_FRAME) return 0;
  const uint8_t *in = data + 1;
  const size_t len = size - 1u;
  if (data[0] & FIX_CRCS) {
    memcpy(copy, in, len);
    fix_crcs(data[0] & SELECT_MASK, copy, len);
    in = copy;
  }
  switch (data[0] & SELECT_MASK) {
    case 0: fuzz_pfc(in, len); break;
    case 1: fuzz_fcp(in, len); break;
    case 2: fuzz_ib(in, len); break;
    default: fuzz_roce(in, len); break;
  }
  return 0;
}
