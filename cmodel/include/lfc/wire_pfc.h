/*
 * lfc/wire_pfc.h - IEEE 802.1Qbb priority flow control and IEEE 802.3x PAUSE frames
 * (docs/wire-formats.md §2).
 *
 * Both are MAC Control frames (IEEE 802.3 clause 31): sent to 01-80-C2-00-00-01, EtherType
 * 0x8808, a 16-bit opcode, parameters, zero padding to the 60-byte minimum and the FCS:
 *
 *   offset  0  destination address (6)     12  EtherType 0x8808 (2)
 *           6  source address (6)          14  opcode (2): 0x0101 PFC, 0x0001 PAUSE
 *   PFC    16  class-enable vector (2): high octet reserved (0), bit i = priority i
 *          18  time[0..7], 2 bytes each, in quanta of 512 bit times (0 = resume, XON)
 *   PAUSE  16  pause_time (2), in quanta
 *          .. zero padding to byte 60;  60  FCS (4), CRC-32, least significant byte first
 */
#ifndef LFC_WIRE_PFC_H
#define LFC_WIRE_PFC_H

#include "lfc/export.h"

#include <stddef.h>
#include <stdint.h>

#include "lfc/types.h"
#include "lfc/wire.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LFC_MAC_CTRL_ETHERTYPE 0x8808u /* IEEE 802.3 clause 31.4 */
#define LFC_MAC_CTRL_OP_PAUSE 0x0001u  /* IEEE 802.3 Annex 31B */
#define LFC_MAC_CTRL_OP_PFC 0x0101u    /* IEEE 802.1Qbb clause 36 (Annex 31D of 802.3) */
#define LFC_PFC_FRAME_BYTES LFC_ETH_MIN_FRAME /* 64, FCS included */
#define LFC_MAC_CTRL_OPCODE_OFFSET 14u
#define LFC_MAC_CTRL_PARAM_OFFSET 16u
#define LFC_PFC_TIME_OFFSET 18u
#define LFC_PFC_CEV_RESERVED_MASK 0xFF00u /* the class-enable vector's high octet */

/* The MAC Control destination address 01-80-C2-00-00-01 (IEEE 802.3 Annex 31B.1). */
extern const uint8_t lfc_mac_ctrl_dst[LFC_ETH_ADDR_BYTES];

/*
 * A PFC or PAUSE frame. opcode picks the kind. For PFC, class_enable and time[] carry the
 * parameters; for PAUSE only time[0] (the pause_time) is used and class_enable is 0. The
 * destination is always 01-80-C2-00-00-01; padding is always zero on encode and ignored on
 * decode.
 */
typedef struct {
  uint8_t src[LFC_ETH_ADDR_BYTES];
  uint16_t opcode;      /* LFC_MAC_CTRL_OP_PFC or LFC_MAC_CTRL_OP_PAUSE */
  uint8_t class_enable; /* PFC: bit i = priority i (the vector's low octet) */
  uint16_t time[LFC_PFC_MAX_PRIOS]; /* quanta; PAUSE: time[0] */
} lfc_pfc_frame_t;

/*
 * Encode f into out[0..cap): 64 bytes with the FCS. Returns the length written (64), or 0 when
 * cap < 64 or f->opcode is neither PFC nor PAUSE (then *err, if given, says which).
 */
LFC_API size_t lfc_pfc_encode(const lfc_pfc_frame_t *f, uint8_t *out, size_t cap, lfc_wire_error_t *err);

/*
 * Decode the frame in[0..len) (FCS included, len >= 64; a longer frame is allowed and its FCS
 * is the last 4 bytes) into *f. Checks in this order: length, FCS, destination address,
 * EtherType, opcode, the reserved high octet of the class-enable vector. Returns LFC_WIRE_OK,
 * or the first failure with *err (if given) filled in; *f is then unspecified.
 */
LFC_API lfc_wire_status_t lfc_pfc_decode(const uint8_t *in, size_t len, lfc_pfc_frame_t *f,
                                 lfc_wire_error_t *err);

/*
 * The SPEC §2 link word of a PFC frame: kind PFC, pfc_en = class_enable, pfc_time = time[].
 * A PAUSE frame pauses every priority (802.3 Annex 31B), so it maps to pfc_en = 0xFF and the
 * same time for all eight. Never fails.
 */
LFC_API void lfc_pfc_to_word(const lfc_pfc_frame_t *f, lfc_word_t *w);

/*
 * The PFC frame of a link word of kind PFC, with source address src. Returns LFC_WIRE_OK, or
 * LFC_WIRE_BAD_FIELD if w is not a PFC word.
 */
LFC_API lfc_wire_status_t lfc_pfc_from_word(const lfc_word_t *w, const uint8_t src[LFC_ETH_ADDR_BYTES],
                                    lfc_pfc_frame_t *f, lfc_wire_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* LFC_WIRE_PFC_H */
