/*
 * wire_pfc.c - 802.1Qbb PFC and 802.3x PAUSE frames (lfc/wire_pfc.h, docs/wire-formats.md §2).
 */
#include "lfc/wire_pfc.h"

#include <string.h>

#include "wire_internal.h"

#define PFC_TIME_BYTES 2u
#define ALL_PRIOS 0xFFu

const uint8_t lfc_mac_ctrl_dst[LFC_ETH_ADDR_BYTES] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};

size_t lfc_pfc_encode(const lfc_pfc_frame_t *f, uint8_t *out, size_t cap, lfc_wire_error_t *err) {
  if (cap < LFC_PFC_FRAME_BYTES) {
    wire_fail(err, LFC_WIRE_NO_ROOM, 0, "need %u bytes, have %zu", LFC_PFC_FRAME_BYTES, cap);
    return 0;
  }
  if (f->opcode != LFC_MAC_CTRL_OP_PFC && f->opcode != LFC_MAC_CTRL_OP_PAUSE) {
    wire_fail(err, LFC_WIRE_BAD_FIELD, 0,
              "opcode 0x%04x: only 0x0101 (PFC) and 0x0001 (PAUSE)", (unsigned)f->opcode);
    return 0;
  }
  memset(out, 0, LFC_PFC_FRAME_BYTES);
  memcpy(out, lfc_mac_ctrl_dst, LFC_ETH_ADDR_BYTES);
  memcpy(out + LFC_ETH_ADDR_BYTES, f->src, LFC_ETH_ADDR_BYTES);
  wire_put16(out + 2u * LFC_ETH_ADDR_BYTES, LFC_MAC_CTRL_ETHERTYPE);
  wire_put16(out + LFC_MAC_CTRL_OPCODE_OFFSET, f->opcode);
  if (f->opcode == LFC_MAC_CTRL_OP_PFC) {
    wire_put16(out + LFC_MAC_CTRL_PARAM_OFFSET, f->class_enable);
    for (unsigned i = 0; i < LFC_PFC_MAX_PRIOS; i++) {
      wire_put16(out + LFC_PFC_TIME_OFFSET + PFC_TIME_BYTES * i, f->time[i]);
    }
  } else {
    wire_put16(out + LFC_MAC_CTRL_PARAM_OFFSET, f->time[0]);
  }
  wire_put_fcs(out, LFC_ETH_MIN_NOFCS);
  wire_ok(err);
  return LFC_PFC_FRAME_BYTES;
}

lfc_wire_status_t lfc_pfc_decode(const uint8_t *in, size_t len, lfc_pfc_frame_t *f,
                                 lfc_wire_error_t *err) {
  if (len < LFC_PFC_FRAME_BYTES) {
    return wire_fail(err, LFC_WIRE_SHORT, len, "%zu bytes, a MAC Control frame is at least %u",
                     len, LFC_PFC_FRAME_BYTES);
  }
  lfc_wire_status_t st = wire_check_fcs(in, len, err);
  if (st != LFC_WIRE_OK) return st;
  if (memcmp(in, lfc_mac_ctrl_dst, LFC_ETH_ADDR_BYTES) != 0) {
    return wire_fail(err, LFC_WIRE_BAD_ADDRESS, 0,
                     "destination %02x-%02x-%02x-%02x-%02x-%02x, MAC Control needs "
                     "01-80-c2-00-00-01",
                     in[0], in[1], in[2], in[3], in[4], in[5]);
  }
  const uint16_t type = wire_get16(in + 2u * LFC_ETH_ADDR_BYTES);
  if (type != LFC_MAC_CTRL_ETHERTYPE) {
    return wire_fail(err, LFC_WIRE_BAD_ETHERTYPE, 2u * LFC_ETH_ADDR_BYTES,
                     "EtherType 0x%04x, MAC Control is 0x8808", (unsigned)type);
  }
  memset(f, 0, sizeof *f);
  memcpy(f->src, in + LFC_ETH_ADDR_BYTES, LFC_ETH_ADDR_BYTES);
  f->opcode = wire_get16(in + LFC_MAC_CTRL_OPCODE_OFFSET);
  if (f->opcode == LFC_MAC_CTRL_OP_PAUSE) {
    f->time[0] = wire_get16(in + LFC_MAC_CTRL_PARAM_OFFSET);
    return wire_ok(err);
  }
  if (f->opcode != LFC_MAC_CTRL_OP_PFC) {
    return wire_fail(err, LFC_WIRE_BAD_OPCODE, LFC_MAC_CTRL_OPCODE_OFFSET,
                     "opcode 0x%04x, expected 0x0101 (PFC) or 0x0001 (PAUSE)",
                     (unsigned)f->opcode);
  }
  const uint16_t cev = wire_get16(in + LFC_MAC_CTRL_PARAM_OFFSET);
  if (cev & LFC_PFC_CEV_RESERVED_MASK) {
    return wire_fail(err, LFC_WIRE_RESERVED, LFC_MAC_CTRL_PARAM_OFFSET,
                     "class-enable vector 0x%04x: the high octet is reserved (0)", (unsigned)cev);
  }
  f->class_enable = (uint8_t)cev;
  for (unsigned i = 0; i < LFC_PFC_MAX_PRIOS; i++) {
    f->time[i] = wire_get16(in + LFC_PFC_TIME_OFFSET + PFC_TIME_BYTES * i);
  }
  return wire_ok(err);
}

void lfc_pfc_to_word(const lfc_pfc_frame_t *f, lfc_word_t *w) {
  memset(w, 0, sizeof *w);
  w->kind = LFC_PFC;
  if (f->opcode == LFC_MAC_CTRL_OP_PAUSE) {
    w->pfc_en = ALL_PRIOS;
    for (unsigned i = 0; i < LFC_PFC_MAX_PRIOS; i++) w->pfc_time[i] = f->time[0];
    return;
  }
  w->pfc_en = f->class_enable;
  memcpy(w->pfc_time, f->time, sizeof w->pfc_time);
}

lfc_wire_status_t lfc_pfc_from_word(const lfc_word_t *w, const uint8_t src[LFC_ETH_ADDR_BYTES],
                                    lfc_pfc_frame_t *f, lfc_wire_error_t *err) {
  if (w->kind != LFC_PFC) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "link word kind %u is not PFC (3)",
                     (unsigned)w->kind);
  }
  memset(f, 0, sizeof *f);
  memcpy(f->src, src, LFC_ETH_ADDR_BYTES);
  f->opcode = LFC_MAC_CTRL_OP_PFC;
  f->class_enable = w->pfc_en;
  memcpy(f->time, w->pfc_time, sizeof f->time);
  return wire_ok(err);
}
