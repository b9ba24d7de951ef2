/*
 * wire_internal.h - byte-order helpers and error reporting shared by the wire codecs
 * (wire_*.c). Not installed: the public API is lfc/wire*.h.
 */
#ifndef LFC_WIRE_INTERNAL_H
#define LFC_WIRE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "lfc/wire.h"
#include "lfc/wire_ib_data.h"

/* Network byte order (big-endian) reads and writes. */
static inline uint16_t wire_get16(const uint8_t *p) {
  return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}
static inline uint32_t wire_get32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline void wire_put16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}
static inline void wire_put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}
/* CRCs that the line sends least significant bit first (Ethernet FCS, ICRC, VCRC, LPCRC) are
 * stored least significant byte first. */
static inline uint32_t wire_get32le(const uint8_t *p) {
  return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}
static inline void wire_put32le(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

/* Fill *err (if not NULL) with status, offset and printf-style text; returns status. */
lfc_wire_status_t wire_fail(lfc_wire_error_t *err, lfc_wire_status_t status, size_t offset,
                            const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Clear *err (if not NULL) to LFC_WIRE_OK; returns LFC_WIRE_OK. */
lfc_wire_status_t wire_ok(lfc_wire_error_t *err);

/* Check the Ethernet FCS of frame[0..len): the last 4 bytes against the CRC-32 of the rest.
 * len must be at least LFC_ETH_FCS_BYTES. */
lfc_wire_status_t wire_check_fcs(const uint8_t *frame, size_t len, lfc_wire_error_t *err);

/* Write the FCS of frame[0..len) at frame[len]. */
void wire_put_fcs(uint8_t *frame, size_t len);

/* BTH helpers shared by the IB and RoCEv2 codecs (wire_ib_data.c). */
/* Refuse BTH fields wider than their bits (padcnt is not checked: the encoders compute it). */
lfc_wire_status_t wire_check_bth(const lfc_ib_bth_t *b, lfc_wire_error_t *err);
/* Write the 12-byte BTH at out, and read one. */
void wire_put_bth(uint8_t *out, const lfc_ib_bth_t *b);
void wire_get_bth(const uint8_t *in, lfc_ib_bth_t *b);
/* PadCnt for a payload of len bytes: zero bytes to the next 4-byte boundary. */
uint8_t wire_padcnt(size_t len);
/* The first 4 payload bytes as the link word's tag (0 when shorter), and back. */
uint32_t wire_tag_of(const uint8_t *payload, size_t len);
/* The SPEC §2 head word of a data packet of `bytes` bytes on the wire (blocks rounded up, `pad`
   the rest of the last block, SPEC §2.4), with its class, destination, ECN and the payload's
   tag. Fails if the packet is longer than a word's nblk can say. Shared by the IB and RoCEv2
   maps, which differ only in where the fields come from. */
lfc_wire_status_t wire_data_word(size_t bytes, uint8_t cls, uint16_t dst, uint8_t ecn,
                                 const uint8_t *payload, size_t payload_len, lfc_word_t *w,
                                 lfc_wire_error_t *err);

/* The payload length of the frame of a word (the IB and RoCEv2 from_word): `over` bytes of
   headers and trailers around a payload of 4-byte words (BTH PadCnt), the frame as long as
   64 x nblk - pad allows, but at least the 4-byte tag and at least nblk - 1 blocks and a byte,
   so that the frame keeps the word's nblk. Its pad is then the word's rounded to the format:
   exact when 64 x nblk - pad - over is a multiple of 4 and leaves room for the tag. For a word
   with nblk >= 1 whose pad wire_check_pad accepted. */
size_t wire_payload_len(const lfc_word_t *w, size_t over);
/* Refuse a word's pad of 64 or more: it is the rest of one block (SPEC §2, 6 bits). */
lfc_wire_status_t wire_check_pad(const lfc_word_t *w, lfc_wire_error_t *err);

#endif /* LFC_WIRE_INTERNAL_H */
