/*
 * wire_ib_data.c - InfiniBand data packets (lfc/wire_ib_data.h, docs/wire-formats.md §4).
 */
#include "lfc/wire_ib_data.h"

#include <string.h>

#include "lfc/crc.h"
#include "wire_internal.h"

#define NIBBLE 0xFu
#define HI_NIBBLE_SHIFT 4u
#define LNH_MASK 0x3u
#define PKTLEN_OFFSET 4u
#define DLID_OFFSET 2u
#define SLID_OFFSET 6u
#define BIT7 0x80u
#define BIT6 0x40u
#define PADCNT_SHIFT 4u
#define PADCNT_MASK 0x3u
#define BTH_PKEY_OFFSET 2u
#define BTH_DQPN_OFFSET 4u /* byte 4 holds FECN/BECN, bytes 5..7 the QPN */
#define BTH_PSN_OFFSET 8u  /* byte 8 holds A, bytes 9..11 the PSN */
#define GRH_IPVER_SHIFT 28u
#define GRH_TCLASS_SHIFT 20u
#define GRH_PAYLEN_OFFSET 4u
#define GRH_NXTHDR_OFFSET 6u
#define GRH_HOPLMT_OFFSET 7u
#define GRH_SGID_OFFSET 8u
#define GRH_DGID_OFFSET 24u
#define ALL_ONES8 0xFFu
#define TAG_BYTES 4u

/* Bytes of LRH + [GRH] + BTH + ICRC + VCRC around the payload. */
static size_t overhead(bool has_grh) {
  return LFC_IB_LRH_BYTES + (has_grh ? LFC_IB_GRH_BYTES : 0u) + LFC_IB_BTH_BYTES +
         LFC_IB_ICRC_BYTES + LFC_IB_VCRC_BYTES;
}

uint8_t wire_padcnt(size_t len) {
  return (uint8_t)((LFC_IB_WORD_BYTES - len % LFC_IB_WORD_BYTES) % LFC_IB_WORD_BYTES);
}

uint32_t wire_tag_of(const uint8_t *payload, size_t len) {
  return len >= TAG_BYTES ? wire_get32(payload) : 0u;
}

lfc_wire_status_t wire_data_word(size_t bytes, uint8_t cls, uint16_t dst, uint8_t ecn,
                                 const uint8_t *payload, size_t payload_len, lfc_word_t *w,
                                 lfc_wire_error_t *err) {
  const size_t nblk = (bytes + LFC_BLOCK_BYTES - 1u) / LFC_BLOCK_BYTES;
  if (nblk > LFC_MAX_NBLK) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "%zu bytes is %zu blocks, nblk is at most %u",
                     bytes, nblk, LFC_MAX_NBLK);
  }
  memset(w, 0, sizeof *w);
  w->kind = LFC_DATA;
  w->sop = 1;
  w->eop = nblk == 1u;
  w->cls = cls;
  w->nblk = (uint8_t)nblk;
  w->pad = (uint8_t)(nblk * LFC_BLOCK_BYTES - bytes);
  w->dst = dst;
  w->tag = wire_tag_of(payload, payload_len);
  w->ecn = ecn;
  return wire_ok(err);
}

lfc_wire_status_t wire_check_pad(const lfc_word_t *w, lfc_wire_error_t *err) {
  if (w->pad >= LFC_BLOCK_BYTES) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0,
                     "pad %u is not below %u: it is the rest of the last block (6 bits)",
                     (unsigned)w->pad, LFC_BLOCK_BYTES);
  }
  return wire_ok(err);
}

size_t wire_payload_len(const lfc_word_t *w, size_t over) {
  const size_t whole = (size_t)w->nblk * LFC_BLOCK_BYTES;
  const size_t target = whole - w->pad; /* the callers' words have nblk >= 1 and pad < 64 */
  size_t len = target >= over + TAG_BYTES
                   ? (target - over) / LFC_IB_WORD_BYTES * LFC_IB_WORD_BYTES
                   : TAG_BYTES;
  while (over + len <= whole - LFC_BLOCK_BYTES) len += LFC_IB_WORD_BYTES; /* fewer blocks */
  return len;
}

size_t lfc_ib_pkt_bytes(bool has_grh, size_t payload_len) {
  return overhead(has_grh) + payload_len + wire_padcnt(payload_len);
}

lfc_wire_status_t wire_check_bth(const lfc_ib_bth_t *b, lfc_wire_error_t *err) {
  if (b->se > 1u || b->m > 1u || b->fecn > 1u || b->becn > 1u || b->ackreq > 1u) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "BTH SE, M, FECN, BECN and A are 1 bit each");
  }
  if (b->tver > NIBBLE) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "BTH TVer %u is 4 bits", (unsigned)b->tver);
  }
  if (b->dqpn > LFC_IB_QPN_MASK || b->psn > LFC_IB_QPN_MASK) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "BTH DestQP 0x%x, PSN 0x%x: 24 bits each",
                     (unsigned)b->dqpn, (unsigned)b->psn);
  }
  return LFC_WIRE_OK;
}

void wire_put_bth(uint8_t *out, const lfc_ib_bth_t *b) {
  out[0] = b->opcode;
  out[1] = (uint8_t)((b->se ? BIT7 : 0u) | (b->m ? BIT6 : 0u) |
                     (unsigned)(b->padcnt & PADCNT_MASK) << PADCNT_SHIFT | (b->tver & NIBBLE));
  wire_put16(out + BTH_PKEY_OFFSET, b->pkey);
  wire_put32(out + BTH_DQPN_OFFSET, b->dqpn & LFC_IB_QPN_MASK);
  out[BTH_DQPN_OFFSET] = (uint8_t)((b->fecn ? BIT7 : 0u) | (b->becn ? BIT6 : 0u));
  wire_put32(out + BTH_PSN_OFFSET, b->psn & LFC_IB_QPN_MASK);
  out[BTH_PSN_OFFSET] = b->ackreq ? BIT7 : 0u;
}

void wire_get_bth(const uint8_t *in, lfc_ib_bth_t *b) {
  b->opcode = in[0];
  b->se = (in[1] & BIT7) ? 1u : 0u;
  b->m = (in[1] & BIT6) ? 1u : 0u;
  b->padcnt = (uint8_t)(in[1] >> PADCNT_SHIFT & PADCNT_MASK);
  b->tver = (uint8_t)(in[1] & NIBBLE);
  b->pkey = wire_get16(in + BTH_PKEY_OFFSET);
  b->fecn = (in[BTH_DQPN_OFFSET] & BIT7) ? 1u : 0u;
  b->becn = (in[BTH_DQPN_OFFSET] & BIT6) ? 1u : 0u;
  b->dqpn = wire_get32(in + BTH_DQPN_OFFSET) & LFC_IB_QPN_MASK;
  b->ackreq = (in[BTH_PSN_OFFSET] & BIT7) ? 1u : 0u;
  b->psn = wire_get32(in + BTH_PSN_OFFSET) & LFC_IB_QPN_MASK;
}

uint32_t lfc_ib_icrc(const uint8_t *in, size_t len) {
  /* The headers with their variant fields set to ones (IBA §7.8.1), then the rest as is. */
  const bool grh = (in[1] & LNH_MASK) == LFC_IB_LNH_GLOBAL;
  const size_t hdr = LFC_IB_LRH_BYTES + (grh ? LFC_IB_GRH_BYTES : 0u) + LFC_IB_BTH_BYTES;
  uint8_t masked[LFC_IB_LRH_BYTES + LFC_IB_GRH_BYTES + LFC_IB_BTH_BYTES];
  memcpy(masked, in, hdr);
  masked[0] |= NIBBLE << HI_NIBBLE_SHIFT; /* VL */
  if (grh) {
    uint8_t *g = masked + LFC_IB_LRH_BYTES;
    g[0] |= NIBBLE; /* TClass high nibble */
    g[1] = ALL_ONES8; /* TClass low nibble, FlowLabel */
    g[2] = ALL_ONES8;
    g[3] = ALL_ONES8;
    g[GRH_HOPLMT_OFFSET] = ALL_ONES8;
  }
  masked[hdr - LFC_IB_BTH_BYTES + LFC_IB_BTH_VARIANT_OFFSET] = ALL_ONES8;
  const size_t icrc_at = len - LFC_IB_VCRC_BYTES - LFC_IB_ICRC_BYTES;
  uint32_t reg = lfc_crc32_update(LFC_CRC32_POLY, LFC_CRC32_INIT, masked, hdr);
  reg = lfc_crc32_update(LFC_CRC32_POLY, reg, in + hdr, icrc_at - hdr);
  return reg ^ LFC_CRC32_XOROUT;
}

size_t lfc_ib_pkt_encode(const lfc_ib_pkt_t *p, uint8_t *out, size_t cap, lfc_wire_error_t *err) {
  const size_t total = lfc_ib_pkt_bytes(p->has_grh, p->payload_len);
  const size_t pktlen_bytes = total - LFC_IB_VCRC_BYTES;
  if (pktlen_bytes / LFC_IB_WORD_BYTES > LFC_IB_PKTLEN_MAX) {
    wire_fail(err, LFC_WIRE_BAD_FIELD, PKTLEN_OFFSET,
              "payload of %zu bytes: PktLen would exceed %u words", p->payload_len,
              LFC_IB_PKTLEN_MAX);
    return 0;
  }
  if (cap < total) {
    wire_fail(err, LFC_WIRE_NO_ROOM, 0, "need %zu bytes, have %zu", total, cap);
    return 0;
  }
  if (p->vl > NIBBLE || p->lver > NIBBLE || p->sl > NIBBLE) {
    wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "VL %u, LVer %u, SL %u: 4 bits each", (unsigned)p->vl,
              (unsigned)p->lver, (unsigned)p->sl);
    return 0;
  }
  if (p->has_grh && p->grh.flow_label > LFC_IB_FLOW_LABEL_MASK) {
    wire_fail(err, LFC_WIRE_BAD_FIELD, LFC_IB_LRH_BYTES, "FlowLabel 0x%x is 20 bits",
              (unsigned)p->grh.flow_label);
    return 0;
  }
  if (wire_check_bth(&p->bth, err) != LFC_WIRE_OK) return 0;

  uint8_t *o = out;
  o[0] = (uint8_t)(p->vl << HI_NIBBLE_SHIFT | p->lver);
  o[1] = (uint8_t)(p->sl << HI_NIBBLE_SHIFT |
                   (p->has_grh ? LFC_IB_LNH_GLOBAL : LFC_IB_LNH_LOCAL));
  wire_put16(o + DLID_OFFSET, p->dlid);
  wire_put16(o + PKTLEN_OFFSET, (uint16_t)(pktlen_bytes / LFC_IB_WORD_BYTES));
  wire_put16(o + SLID_OFFSET, p->slid);
  o += LFC_IB_LRH_BYTES;
  if (p->has_grh) {
    wire_put32(o, (uint32_t)LFC_IB_GRH_IPVER << GRH_IPVER_SHIFT |
                      (uint32_t)p->grh.tclass << GRH_TCLASS_SHIFT | p->grh.flow_label);
    wire_put16(o + GRH_PAYLEN_OFFSET,
               (uint16_t)(pktlen_bytes - LFC_IB_LRH_BYTES - LFC_IB_GRH_BYTES));
    o[GRH_NXTHDR_OFFSET] = LFC_IB_GRH_NXTHDR_IBA;
    o[GRH_HOPLMT_OFFSET] = p->grh.hoplmt;
    memcpy(o + GRH_SGID_OFFSET, p->grh.sgid, LFC_IB_GID_BYTES);
    memcpy(o + GRH_DGID_OFFSET, p->grh.dgid, LFC_IB_GID_BYTES);
    o += LFC_IB_GRH_BYTES;
  }
  lfc_ib_bth_t bth = p->bth;
  bth.padcnt = wire_padcnt(p->payload_len);
  wire_put_bth(o, &bth);
  o += LFC_IB_BTH_BYTES;
  if (p->payload_len > 0) memcpy(o, p->payload, p->payload_len);
  o += p->payload_len;
  memset(o, 0, bth.padcnt);
  o += bth.padcnt;
  wire_put32le(o, lfc_ib_icrc(out, total));
  o += LFC_IB_ICRC_BYTES;
  const uint16_t vcrc = lfc_crc16_ib(out, pktlen_bytes);
  o[0] = (uint8_t)vcrc;
  o[1] = (uint8_t)(vcrc >> 8);
  wire_ok(err);
  return total;
}

lfc_wire_status_t lfc_ib_pkt_decode(const uint8_t *in, size_t len, lfc_ib_pkt_t *p,
                                    lfc_wire_error_t *err) {
  if (len < overhead(false)) {
    return wire_fail(err, LFC_WIRE_SHORT, len,
                     "%zu bytes, an IB data packet is at least %zu (LRH, BTH, ICRC, VCRC)", len,
                     overhead(false));
  }
  memset(p, 0, sizeof *p);
  const unsigned lnh = in[1] & LNH_MASK;
  if (lnh != LFC_IB_LNH_LOCAL && lnh != LFC_IB_LNH_GLOBAL) {
    return wire_fail(err, LFC_WIRE_RESERVED, 1,
                     "LNH %u (raw or IP): only 2 (IBA local) and 3 (IBA global) are decoded", lnh);
  }
  p->has_grh = lnh == LFC_IB_LNH_GLOBAL;
  if (len < overhead(p->has_grh)) {
    return wire_fail(err, LFC_WIRE_SHORT, len, "%zu bytes, a packet with a GRH is at least %zu",
                     len, overhead(p->has_grh));
  }
  p->pktlen = (uint16_t)(wire_get16(in + PKTLEN_OFFSET) & LFC_IB_PKTLEN_MAX);
  if ((size_t)p->pktlen * LFC_IB_WORD_BYTES + LFC_IB_VCRC_BYTES != len) {
    return wire_fail(err, LFC_WIRE_BAD_LENGTH, PKTLEN_OFFSET,
                     "PktLen %u words (%u bytes with VCRC), packet is %zu bytes",
                     (unsigned)p->pktlen,
                     (unsigned)(p->pktlen * LFC_IB_WORD_BYTES + LFC_IB_VCRC_BYTES), len);
  }
  const size_t vcrc_at = len - LFC_IB_VCRC_BYTES;
  p->vcrc = (uint16_t)(in[vcrc_at] | (unsigned)in[vcrc_at + 1u] << 8);
  const uint16_t vcrc = lfc_crc16_ib(in, vcrc_at);
  if (vcrc != p->vcrc) {
    return wire_fail(err, LFC_WIRE_BAD_VCRC, vcrc_at, "VCRC 0x%04x, computed 0x%04x",
                     (unsigned)p->vcrc, (unsigned)vcrc);
  }
  p->vl = (uint8_t)(in[0] >> HI_NIBBLE_SHIFT);
  p->lver = (uint8_t)(in[0] & NIBBLE);
  p->sl = (uint8_t)(in[1] >> HI_NIBBLE_SHIFT);
  p->dlid = wire_get16(in + DLID_OFFSET);
  p->slid = wire_get16(in + SLID_OFFSET);
  if (p->lver != 0) {
    return wire_fail(err, LFC_WIRE_BAD_VERSION, 0, "LVer %u, only 0 is defined",
                     (unsigned)p->lver);
  }
  const uint8_t *h = in + LFC_IB_LRH_BYTES;
  if (p->has_grh) {
    const uint32_t w0 = wire_get32(h);
    if (w0 >> GRH_IPVER_SHIFT != LFC_IB_GRH_IPVER) {
      return wire_fail(err, LFC_WIRE_BAD_VERSION, LFC_IB_LRH_BYTES, "GRH IPVer %u, expected 6",
                       (unsigned)(w0 >> GRH_IPVER_SHIFT));
    }
    p->grh.tclass = (uint8_t)(w0 >> GRH_TCLASS_SHIFT);
    p->grh.flow_label = w0 & LFC_IB_FLOW_LABEL_MASK;
    const size_t paylen = wire_get16(h + GRH_PAYLEN_OFFSET);
    if (paylen != vcrc_at - LFC_IB_LRH_BYTES - LFC_IB_GRH_BYTES) {
      return wire_fail(err, LFC_WIRE_BAD_LENGTH, LFC_IB_LRH_BYTES + GRH_PAYLEN_OFFSET,
                       "GRH PayLen %zu, the packet has %zu bytes after the GRH", paylen,
                       vcrc_at - LFC_IB_LRH_BYTES - LFC_IB_GRH_BYTES);
    }
    if (h[GRH_NXTHDR_OFFSET] != LFC_IB_GRH_NXTHDR_IBA) {
      return wire_fail(err, LFC_WIRE_BAD_OPCODE, LFC_IB_LRH_BYTES + GRH_NXTHDR_OFFSET,
                       "GRH NxtHdr 0x%02x, IBA transport is 0x1b",
                       (unsigned)h[GRH_NXTHDR_OFFSET]);
    }
    p->grh.hoplmt = h[GRH_HOPLMT_OFFSET];
    memcpy(p->grh.sgid, h + GRH_SGID_OFFSET, LFC_IB_GID_BYTES);
    memcpy(p->grh.dgid, h + GRH_DGID_OFFSET, LFC_IB_GID_BYTES);
    h += LFC_IB_GRH_BYTES;
  }
  wire_get_bth(h, &p->bth);
  const size_t bth_at = (size_t)(h - in);
  if (p->bth.tver != 0) {
    return wire_fail(err, LFC_WIRE_BAD_VERSION, bth_at + 1u, "BTH TVer %u, only 0 is defined",
                     (unsigned)p->bth.tver);
  }
  const size_t payload_at = bth_at + LFC_IB_BTH_BYTES;
  const size_t icrc_at = vcrc_at - LFC_IB_ICRC_BYTES;
  const size_t padded = icrc_at - payload_at;
  if (p->bth.padcnt > padded) {
    return wire_fail(err, LFC_WIRE_BAD_LENGTH, bth_at + 1u, "PadCnt %u, payload has %zu bytes",
                     (unsigned)p->bth.padcnt, padded);
  }
  p->payload = in + payload_at;
  p->payload_len = padded - p->bth.padcnt;
  p->icrc = wire_get32le(in + icrc_at);
  const uint32_t icrc = lfc_ib_icrc(in, len);
  if (icrc != p->icrc) {
    return wire_fail(err, LFC_WIRE_BAD_ICRC, icrc_at, "ICRC 0x%08x, computed 0x%08x",
                     (unsigned)p->icrc, (unsigned)icrc);
  }
  return wire_ok(err);
}

lfc_wire_status_t lfc_ib_pkt_to_word(const lfc_ib_pkt_t *p, lfc_word_t *w, lfc_wire_error_t *err) {
  return wire_data_word(lfc_ib_pkt_bytes(p->has_grh, p->payload_len), p->vl, p->dlid,
                        p->bth.fecn ? LFC_ECN_CE : LFC_ECN_NOT_ECT, p->payload, p->payload_len, w,
                        err);
}

lfc_wire_status_t lfc_ib_pkt_from_word(const lfc_word_t *w, const lfc_ib_pkt_t *tmpl,
                                       lfc_ib_pkt_t *p, uint8_t *payload_buf, size_t cap,
                                       lfc_wire_error_t *err) {
  if (w->kind != LFC_DATA) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "link word kind %u is not DATA (1)",
                     (unsigned)w->kind);
  }
  const size_t target = (size_t)w->nblk * LFC_BLOCK_BYTES;
  const size_t over = overhead(false);
  if (target < over + TAG_BYTES) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0,
                     "nblk %u: an IB packet carrying the 4-byte tag needs %zu bytes",
                     (unsigned)w->nblk, over + TAG_BYTES);
  }
  if (wire_check_pad(w, err) != LFC_WIRE_OK) return LFC_WIRE_BAD_FIELD;
  const size_t payload_len = wire_payload_len(w, over);
  if ((payload_len + over - LFC_IB_VCRC_BYTES) / LFC_IB_WORD_BYTES > LFC_IB_PKTLEN_MAX) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "nblk %u exceeds the PktLen limit of %u words",
                     (unsigned)w->nblk, LFC_IB_PKTLEN_MAX);
  }
  if (cap < payload_len) {
    return wire_fail(err, LFC_WIRE_NO_ROOM, 0, "payload needs %zu bytes, have %zu", payload_len,
                     cap);
  }
  if (tmpl != NULL) {
    *p = *tmpl;
  } else {
    memset(p, 0, sizeof *p);
  }
  p->has_grh = false;
  p->vl = w->cls;
  p->sl = w->cls;
  p->lver = 0;
  p->dlid = w->dst;
  p->bth.fecn = w->ecn == LFC_ECN_CE;
  memset(payload_buf, 0, payload_len);
  wire_put32(payload_buf, w->tag);
  p->payload = payload_buf;
  p->payload_len = payload_len;
  return wire_ok(err);
}
