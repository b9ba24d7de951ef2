/*
 * crc.c - reflected CRC-16 and CRC-32, bit by bit from their parameters (lfc/crc.h).
 *
 * Bitwise rather than table-driven: the wire codecs are for verification, not the model's hot
 * path, and a loop over the polynomial has no table to get wrong.
 */
#include "lfc/crc.h"

#define BITS_PER_BYTE 8u

/* poly with its low `width` bits in reverse order (the form a reflected CRC shifts right). */
static uint32_t reflect(uint32_t poly, unsigned width) {
  uint32_t out = 0;
  for (unsigned i = 0; i < width; i++) {
    if (poly & (1u << i)) out |= 1u << (width - 1u - i);
  }
  return out;
}

uint16_t lfc_crc16_update(uint16_t poly, uint16_t reg, const uint8_t *buf, size_t len) {
  const uint16_t rpoly = (uint16_t)reflect(poly, 16u);
  uint16_t crc = reg;
  for (size_t i = 0; i < len; i++) {
    crc ^= buf[i];
    for (unsigned b = 0; b < BITS_PER_BYTE; b++) {
      crc = (crc & 1u) ? (uint16_t)((crc >> 1) ^ rpoly) : (uint16_t)(crc >> 1);
    }
  }
  return crc;
}

uint32_t lfc_crc32_update(uint32_t poly, uint32_t reg, const uint8_t *buf, size_t len) {
  const uint32_t rpoly = reflect(poly, 32u);
  uint32_t crc = reg;
  for (size_t i = 0; i < len; i++) {
    crc ^= buf[i];
    for (unsigned b = 0; b < BITS_PER_BYTE; b++) {
      crc = (crc & 1u) ? (crc >> 1) ^ rpoly : crc >> 1;
    }
  }
  return crc;
}

uint32_t lfc_crc32(const uint8_t *buf, size_t len) {
  return lfc_crc32_update(LFC_CRC32_POLY, LFC_CRC32_INIT, buf, len) ^ LFC_CRC32_XOROUT;
}

uint16_t lfc_crc16_ib(const uint8_t *buf, size_t len) {
  return (uint16_t)(lfc_crc16_update(LFC_CRC16_IB_POLY, LFC_CRC16_IB_INIT, buf, len) ^
                    LFC_CRC16_IB_XOROUT);
}
