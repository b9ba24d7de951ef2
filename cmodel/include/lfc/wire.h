/*
 * lfc/wire.h - what every wire-format decoder returns (docs/wire-formats.md).
 *
 * The codecs (lfc/wire_pfc.h, lfc/wire_ib_fcp.h, lfc/wire_ib_data.h, lfc/wire_roce.h) turn
 * real frames into plain structs and back, bit for bit, and map them to and from the SPEC §2
 * link word. A decoder given malformed bytes never reads outside them: it returns a reason code
 * and, when asked, one line of text saying what was wrong and where.
 */
#ifndef LFC_WIRE_H
#define LFC_WIRE_H

#include "lfc/export.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why a decoder (or a mapping) refused its input. LFC_WIRE_OK is 0. */
typedef enum {
  LFC_WIRE_OK = 0,
  LFC_WIRE_SHORT,         /* fewer bytes than the format needs */
  LFC_WIRE_BAD_FCS,       /* Ethernet FCS (CRC-32) does not match */
  LFC_WIRE_BAD_LPCRC,     /* IB FCP link-packet CRC-16 does not match */
  LFC_WIRE_BAD_VCRC,      /* IB variant CRC-16 does not match */
  LFC_WIRE_BAD_ICRC,      /* IB invariant CRC-32 does not match */
  LFC_WIRE_BAD_CHECKSUM,  /* IPv4 header checksum does not match */
  LFC_WIRE_BAD_ADDRESS,   /* MAC Control frame not sent to 01-80-C2-00-00-01 */
  LFC_WIRE_BAD_ETHERTYPE, /* EtherType is not the one the format needs */
  LFC_WIRE_BAD_OPCODE,    /* MAC Control opcode, FCP Op or BTH opcode not supported */
  LFC_WIRE_BAD_VERSION,   /* IP version, LVer, GRH IPVer or BTH TVer not supported */
  LFC_WIRE_BAD_LENGTH,    /* a length field disagrees with the bytes given */
  LFC_WIRE_BAD_PROTOCOL,  /* IP protocol (next header) is not UDP */
  LFC_WIRE_BAD_PORT,      /* UDP destination port is not 4791 */
  LFC_WIRE_RESERVED,      /* a reserved field or value is used */
  LFC_WIRE_BAD_FIELD,     /* encode or map: a field is out of its range */
  LFC_WIRE_NO_ROOM,       /* encode: the output buffer is too small */
  LFC_WIRE_STATUS_COUNT
} lfc_wire_status_t;

/* Length of the text of an lfc_wire_error_t, terminator included. */
#define LFC_WIRE_ERROR_TEXT 128u

/* The reason a decode failed: the code, the byte offset of the offending field, and a line of
 * text ("FCS 0x1234abcd, computed 0x89abcdef"), always NUL-terminated. An encode or map that
 * fails has no input bytes to point at: its offset is 0. */
typedef struct {
  lfc_wire_status_t status;
  size_t offset;
  char text[LFC_WIRE_ERROR_TEXT];
} lfc_wire_error_t;

/* Short name of a status ("ok", "short", "bad-fcs", ...); "unknown" for an invalid value. */
LFC_API const char *lfc_wire_status_name(lfc_wire_status_t status);

/* Ethernet constants shared by the PFC and RoCEv2 codecs (IEEE 802.3 clause 3). */
#define LFC_ETH_ADDR_BYTES 6u
#define LFC_ETH_TYPE_BYTES 2u
#define LFC_ETH_HEADER_BYTES 14u /* destination, source, EtherType */
#define LFC_ETH_FCS_BYTES 4u
#define LFC_ETH_MIN_FRAME 64u    /* minimum frame, FCS included (802.3 clause 4.4.2) */
#define LFC_ETH_MIN_NOFCS (LFC_ETH_MIN_FRAME - LFC_ETH_FCS_BYTES) /* 60: padded to this */
#define LFC_ETH_TYPE_VLAN 0x8100u /* IEEE 802.1Q C-tag */
#define LFC_ETH_VLAN_TAG_BYTES 4u

#ifdef __cplusplus
}
#endif

#endif /* LFC_WIRE_H */
