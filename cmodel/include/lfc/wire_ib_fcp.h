/*
 * lfc/wire_ib_fcp.h - the InfiniBand flow-control packet, a link packet of 6 bytes
 * (IBA vol. 1 §7.9.4; field layout as Wireshark's packet-infiniband.c dissects it;
 * docs/wire-formats.md §3):
 *
 *   byte 0..1  Op (bits 15:12), FCTBS (bits 11:0)   big-endian
 *   byte 2..3  VL (bits 15:12), FCCL  (bits 11:0)   big-endian
 *   byte 4..5  LPCRC: the IB CRC-16 (lfc/crc.h) of bytes 0..3, least significant byte first
 *
 * Op 0 is a normal flow-control packet, 1 flow-control init; other values are reserved.
 */
#ifndef LFC_WIRE_IB_FCP_H
#define LFC_WIRE_IB_FCP_H

#include "lfc/export.h"

#include <stddef.h>
#include <stdint.h>

#include "lfc/types.h"
#include "lfc/wire.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LFC_IB_FCP_BYTES 6u
#define LFC_IB_FCP_CRC_OFFSET 4u /* LPCRC covers bytes 0..3 */
#define LFC_IB_FCP_HI_SHIFT 12u  /* Op and VL sit above the 12-bit counters */
#define LFC_IB_FCP_NIBBLE 0xFu

/* One FCP, fields at their wire widths. */
typedef struct {
  uint8_t op;     /* 4 bits: LFC_FCP_OP_NORMAL or LFC_FCP_OP_INIT */
  uint8_t vl;     /* 4 bits */
  uint16_t fctbs; /* 12 bits */
  uint16_t fccl;  /* 12 bits */
} lfc_ib_fcp_t;

/*
 * Encode p into out[0..cap) with its LPCRC. Returns 6, or 0 when cap < 6 or a field exceeds
 * its width (op or vl > 15, fctbs or fccl > 4095); a reserved op is encoded as given, so that
 * tests can build one.
 */
LFC_API size_t lfc_ib_fcp_encode(const lfc_ib_fcp_t *p, uint8_t *out, size_t cap, lfc_wire_error_t *err);

/*
 * Decode in[0..len) (len >= 6; bytes after the sixth are ignored) into *p. Checks the length,
 * the LPCRC, then the Op (only 0 and 1; others LFC_WIRE_BAD_OPCODE with the fields still
 * decoded into *p).
 */
LFC_API lfc_wire_status_t lfc_ib_fcp_decode(const uint8_t *in, size_t len, lfc_ib_fcp_t *p,
                                    lfc_wire_error_t *err);

/* The SPEC §2 link word of p: kind FCP, fc_op, fc_vl, fc_fctbs, fc_fccl. Never fails. */
LFC_API void lfc_ib_fcp_to_word(const lfc_ib_fcp_t *p, lfc_word_t *w);

/* The FCP of a link word of kind FCP; LFC_WIRE_BAD_FIELD if w is not one or a field exceeds
 * its width. */
LFC_API lfc_wire_status_t lfc_ib_fcp_from_word(const lfc_word_t *w, lfc_ib_fcp_t *p,
                                       lfc_wire_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* LFC_WIRE_IB_FCP_H */
