/*
 * lfc/crc.h - the cyclic redundancy checks of the wire formats (docs/wire-formats.md §1).
 *
 * Every CRC here is a reflected CRC (bits enter least significant first, as the serial line
 * sends them), computed from its parameters in the Williams/Rocksoft model that the
 * CRC catalogue (reveng.sourceforge.io/crc-catalogue) uses: width, polynomial (normal form),
 * initial register, reflected input and output, final XOR. Pure functions, no state.
 *
 *   CRC-32 (IEEE 802.3 FCS, IB ICRC)   poly 0x04C11DB7, init 0xFFFFFFFF, xorout 0xFFFFFFFF
 *                                      catalogue "CRC-32/ISO-HDLC", check 0xCBF43926
 *   CRC-16 (IB VCRC and LPCRC)         poly 0x100B, init 0xFFFF, xorout 0xFFFF
 *                                      Endace dagcrc.c (table 0xD008, the reflected 0x100B);
 *                                      not in the catalogue; check ("123456789") 0x0A3D
 */
#ifndef LFC_CRC_H
#define LFC_CRC_H

#include "lfc/export.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CRC-32 of IEEE 802.3 clause 3.2.9 (the Ethernet FCS) and of the IB ICRC (IBA §7.8.1). */
#define LFC_CRC32_POLY 0x04C11DB7u
#define LFC_CRC32_INIT 0xFFFFFFFFu
#define LFC_CRC32_XOROUT 0xFFFFFFFFu
/* The CRC-16 of the IB VCRC (IBA §7.8.2) and the FCP's LPCRC (IBA §7.9.4). */
#define LFC_CRC16_IB_POLY 0x100Bu
#define LFC_CRC16_IB_INIT 0xFFFFu
#define LFC_CRC16_IB_XOROUT 0xFFFFu

/*
 * Register-level reflected CRC-16 and CRC-32: feed len bytes of buf into the register reg
 * (already initialised; no final XOR), polynomial poly in normal (unreflected) form. Call
 * repeatedly to CRC a message given in pieces. Returns the new register.
 */
LFC_API uint16_t lfc_crc16_update(uint16_t poly, uint16_t reg, const uint8_t *buf, size_t len);
LFC_API uint32_t lfc_crc32_update(uint32_t poly, uint32_t reg, const uint8_t *buf, size_t len);

/* CRC-32/ISO-HDLC of buf[0..len): the Ethernet FCS value. lfc_crc32("123456789") = 0xCBF43926. */
LFC_API uint32_t lfc_crc32(const uint8_t *buf, size_t len);

/* The IB CRC-16 (VCRC, LPCRC) of buf[0..len). */
LFC_API uint16_t lfc_crc16_ib(const uint8_t *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* LFC_CRC_H */
