/*
 * lfc/wire_ib_data.h - InfiniBand data packets: LRH, optional GRH, BTH, payload, ICRC and VCRC
 * (IBA vol. 1 §7.7, §7.8, §8.2, §9.2; header sizes as iPXE's ib_packet.h; docs/wire-formats.md
 * §4). Multi-byte fields are big-endian; the two CRCs are sent least significant byte first.
 *
 *   LRH  (8)  byte 0: VL 7:4, LVer 3:0    byte 1: SL 7:4, reserved 3:2, LNH 1:0
 *             bytes 2-3 DLID   bytes 4-5: reserved 15:11, PktLen 10:0 (4-byte words, LRH
 *             through ICRC)   bytes 6-7 SLID
 *   GRH (40)  if LNH = 3: IPVer 31:28 (6), TClass 27:20, FlowLabel 19:0; PayLen (bytes after
 *             the GRH through the ICRC); NxtHdr (0x1B); HopLmt; SGID (16); DGID (16)
 *   BTH (12)  OpCode; SE 7, M 6, PadCnt 5:4, TVer 3:0; P_Key; FECN 7, BECN 6, reserved 5:0;
 *             DestQP (24); A 7, reserved 6:0; PSN (24)
 *   payload, PadCnt zero bytes to a 4-byte boundary
 *   ICRC (4)  CRC-32 (lfc/crc.h) of LRH..payload with the variant fields set to ones: LRH VL;
 *             GRH TClass, FlowLabel, HopLmt; BTH byte 4 (FECN, BECN, reserved)
 *   VCRC (2)  IB CRC-16 of LRH..ICRC
 *
 * The BTH is shared with RoCEv2 (lfc/wire_roce.h).
 */
#ifndef LFC_WIRE_IB_DATA_H
#define LFC_WIRE_IB_DATA_H

#include "lfc/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lfc/types.h"
#include "lfc/wire.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LFC_IB_LRH_BYTES 8u
#define LFC_IB_GRH_BYTES 40u
#define LFC_IB_BTH_BYTES 12u
#define LFC_IB_ICRC_BYTES 4u
#define LFC_IB_VCRC_BYTES 2u
#define LFC_IB_GID_BYTES 16u
#define LFC_IB_WORD_BYTES 4u         /* PktLen unit and payload alignment */
#define LFC_IB_PKTLEN_MAX 0x7FFu     /* 11 bits of 4-byte words */
#define LFC_IB_LNH_LOCAL 2u          /* IBA local: BTH follows the LRH */
#define LFC_IB_LNH_GLOBAL 3u         /* IBA global: GRH follows the LRH */
#define LFC_IB_GRH_IPVER 6u
#define LFC_IB_GRH_NXTHDR_IBA 0x1Bu
#define LFC_IB_FLOW_LABEL_MASK 0xFFFFFu
#define LFC_IB_QPN_MASK 0xFFFFFFu     /* DestQP and PSN are 24 bits */
#define LFC_IB_BTH_VARIANT_OFFSET 4u /* the byte the ICRC masks */

/* Base transport header fields (IBA §9.2), also carried by RoCEv2. */
typedef struct {
  uint8_t opcode;
  uint8_t se;     /* 1 bit: solicited event */
  uint8_t m;      /* 1 bit: migration request */
  uint8_t padcnt; /* 2 bits: computed by the encoders from the payload length */
  uint8_t tver;   /* 4 bits: 0 */
  uint16_t pkey;
  uint8_t fecn; /* 1 bit: forward explicit congestion notification */
  uint8_t becn; /* 1 bit */
  uint32_t dqpn;   /* 24 bits */
  uint8_t ackreq;  /* 1 bit */
  uint32_t psn;    /* 24 bits */
} lfc_ib_bth_t;

/* Global route header fields that are not computed (PayLen, NxtHdr and IPVer are). */
typedef struct {
  uint8_t tclass;
  uint32_t flow_label; /* 20 bits */
  uint8_t hoplmt;
  uint8_t sgid[LFC_IB_GID_BYTES];
  uint8_t dgid[LFC_IB_GID_BYTES];
} lfc_ib_grh_t;

/*
 * One IB data packet. The encoder computes LNH (from has_grh), PktLen, PadCnt, PayLen, NxtHdr,
 * IPVer, ICRC and VCRC; the decoder fills them in as read. payload points at payload_len bytes
 * (without the pad) owned by the caller: on decode, into the decoded buffer.
 */
typedef struct {
  uint8_t vl;   /* 4 bits */
  uint8_t lver; /* 4 bits: 0 */
  uint8_t sl;   /* 4 bits */
  bool has_grh;
  uint16_t dlid;
  uint16_t slid;
  uint16_t pktlen; /* decode only: 4-byte words, LRH..ICRC */
  lfc_ib_grh_t grh;
  lfc_ib_bth_t bth;
  const uint8_t *payload;
  size_t payload_len;
  uint32_t icrc; /* decode only */
  uint16_t vcrc; /* decode only */
} lfc_ib_pkt_t;

/* Bytes of the encoded packet, LRH through VCRC, for a payload of payload_len bytes. */
LFC_API size_t lfc_ib_pkt_bytes(bool has_grh, size_t payload_len);

/*
 * Encode p into out[0..cap). Returns the length (lfc_ib_pkt_bytes), or 0 when cap is too small,
 * a field exceeds its width, or the packet exceeds the 11-bit PktLen (then *err says which).
 */
LFC_API size_t lfc_ib_pkt_encode(const lfc_ib_pkt_t *p, uint8_t *out, size_t cap, lfc_wire_error_t *err);

/*
 * Decode the packet in[0..len), LRH through VCRC, into *p. Checks in order: the minimum length,
 * LNH (2 or 3; raw and IP packets are not supported), PktLen against len, VCRC, LVer, the GRH's
 * IPVer, NxtHdr and PayLen, TVer, PadCnt against the payload, ICRC. p->payload points into in.
 */
LFC_API lfc_wire_status_t lfc_ib_pkt_decode(const uint8_t *in, size_t len, lfc_ib_pkt_t *p,
                                    lfc_wire_error_t *err);

/* The ICRC of an encoded packet in[0..len) (LRH through VCRC): what the encoder writes. in must
 * hold at least the LRH, the GRH if LNH says 3, the BTH, the ICRC and the VCRC. */
LFC_API uint32_t lfc_ib_icrc(const uint8_t *in, size_t len);

/*
 * The SPEC §2 link word of the first block of p: kind DATA, sop 1, eop when one block, cls =
 * VL, nblk = ceil(bytes with VCRC / 64), dst = DLID, tag = the first 4 payload bytes
 * (big-endian; 0 when shorter), ecn = CE if FECN else Not-ECT (IB has no ECT codepoints).
 * LFC_WIRE_BAD_FIELD when the packet needs more than 255 blocks.
 */
LFC_API lfc_wire_status_t lfc_ib_pkt_to_word(const lfc_ib_pkt_t *p, lfc_word_t *w, lfc_wire_error_t *err);

/*
 * The packet of a DATA link word (its first block): VL = SL = cls, DLID = dst, FECN = (ecn ==
 * CE), no GRH, the BTH and SLID from tmpl (NULL: zeros), and a payload of tag (big-endian) then
 * zeros, written to payload_buf[0..cap), of the length that makes the packet exactly nblk blocks.
 * p->payload points at payload_buf. LFC_WIRE_BAD_FIELD when w is not DATA or nblk cannot be met
 * (under 1 block with a 4-byte payload, or over the PktLen limit); LFC_WIRE_NO_ROOM when cap is
 * too small.
 */
LFC_API lfc_wire_status_t lfc_ib_pkt_from_word(const lfc_word_t *w, const lfc_ib_pkt_t *tmpl,
                                       lfc_ib_pkt_t *p, uint8_t *payload_buf, size_t cap,
                                       lfc_wire_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* LFC_WIRE_IB_DATA_H */
