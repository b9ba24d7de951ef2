/*
 * wire_ib_fcp.c - the IB flow-control packet (lfc/wire_ib_fcp.h, IBA vol. 1 §7.9.4).
 */
#include "lfc/wire_ib_fcp.h"

#include <string.h>

#include "lfc/crc.h"
#include "wire_internal.h"

#define FCP_WORD1_OFFSET 2u

static lfc_wire_status_t check_fields(const lfc_ib_fcp_t *p, lfc_wire_error_t *err) {
  if (p->op > LFC_IB_FCP_NIBBLE || p->vl > LFC_IB_FCP_NIBBLE) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "op %u, vl %u: each is 4 bits (0..15)",
                     (unsigned)p->op, (unsigned)p->vl);
  }
  if (p->fctbs > LFC_CREDIT_MASK || p->fccl > LFC_CREDIT_MASK) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "fctbs %u, fccl %u: each is 12 bits (0..4095)",
                     (unsigned)p->fctbs, (unsigned)p->fccl);
  }
  return LFC_WIRE_OK;
}

size_t lfc_ib_fcp_encode(const lfc_ib_fcp_t *p, uint8_t *out, size_t cap, lfc_wire_error_t *err) {
  if (cap < LFC_IB_FCP_BYTES) {
    wire_fail(err, LFC_WIRE_NO_ROOM, 0, "need %u bytes, have %zu", LFC_IB_FCP_BYTES, cap);
    return 0;
  }
  if (check_fields(p, err) != LFC_WIRE_OK) return 0;
  wire_put16(out, (uint16_t)((unsigned)p->op << LFC_IB_FCP_HI_SHIFT | p->fctbs));
  wire_put16(out + FCP_WORD1_OFFSET, (uint16_t)((unsigned)p->vl << LFC_IB_FCP_HI_SHIFT | p->fccl));
  const uint16_t crc = lfc_crc16_ib(out, LFC_IB_FCP_CRC_OFFSET);
  out[LFC_IB_FCP_CRC_OFFSET] = (uint8_t)crc;
  out[LFC_IB_FCP_CRC_OFFSET + 1u] = (uint8_t)(crc >> 8);
  wire_ok(err);
  return LFC_IB_FCP_BYTES;
}

lfc_wire_status_t lfc_ib_fcp_decode(const uint8_t *in, size_t len, lfc_ib_fcp_t *p,
                                    lfc_wire_error_t *err) {
  if (len < LFC_IB_FCP_BYTES) {
    return wire_fail(err, LFC_WIRE_SHORT, len, "%zu bytes, a flow-control packet is %u", len,
                     LFC_IB_FCP_BYTES);
  }
  const uint16_t want = lfc_crc16_ib(in, LFC_IB_FCP_CRC_OFFSET);
  const uint16_t got =
      (uint16_t)(in[LFC_IB_FCP_CRC_OFFSET] | (unsigned)in[LFC_IB_FCP_CRC_OFFSET + 1u] << 8);
  if (want != got) {
    return wire_fail(err, LFC_WIRE_BAD_LPCRC, LFC_IB_FCP_CRC_OFFSET,
                     "LPCRC 0x%04x, computed 0x%04x", (unsigned)got, (unsigned)want);
  }
  const uint16_t w0 = wire_get16(in);
  const uint16_t w1 = wire_get16(in + FCP_WORD1_OFFSET);
  p->op = (uint8_t)(w0 >> LFC_IB_FCP_HI_SHIFT);
  p->fctbs = (uint16_t)(w0 & LFC_CREDIT_MASK);
  p->vl = (uint8_t)(w1 >> LFC_IB_FCP_HI_SHIFT);
  p->fccl = (uint16_t)(w1 & LFC_CREDIT_MASK);
  if (p->op != LFC_FCP_OP_NORMAL && p->op != LFC_FCP_OP_INIT) {
    return wire_fail(err, LFC_WIRE_BAD_OPCODE, 0,
                     "Op %u is reserved (0 normal, 1 flow-control init)", (unsigned)p->op);
  }
  return wire_ok(err);
}

void lfc_ib_fcp_to_word(const lfc_ib_fcp_t *p, lfc_word_t *w) {
  memset(w, 0, sizeof *w);
  w->kind = LFC_FCP;
  w->fc_op = p->op;
  w->fc_vl = p->vl;
  w->fc_fctbs = p->fctbs;
  w->fc_fccl = p->fccl;
}

lfc_wire_status_t lfc_ib_fcp_from_word(const lfc_word_t *w, lfc_ib_fcp_t *p,
                                       lfc_wire_error_t *err) {
  if (w->kind != LFC_FCP) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "link word kind %u is not FCP (2)",
                     (unsigned)w->kind);
  }
  p->op = w->fc_op;
  p->vl = w->fc_vl;
  p->fctbs = w->fc_fctbs;
  p->fccl = w->fc_fccl;
  const lfc_wire_status_t st = check_fields(p, err);
  if (st != LFC_WIRE_OK) return st;
  return wire_ok(err);
}
