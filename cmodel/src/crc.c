/*
 * crc.c - reflected CRC-16 and CRC-32 from their parameters (lfc/crc.h), a byte at a time.
 *
 * Each call derives the table of its polynomial, then looks up one entry per byte (Sarwate's
 * method), or for a long CRC-32 four entries per four bytes (slicing by 4). Bit by bit, the
 * CRCs of a jumbo frame's FCS and ICRC took 8 ns a byte, most of the unit tests' time. The
 * tables are not typed in but derived from the polynomial, and kept on the stack (no state
 * between calls, safe from any thread). A CRC is linear over GF(2): the entry of a byte is the
 * XOR of the entries of its bits, so only the 8 one-bit entries are shifted out bit by bit and
 * the table costs a few hundred operations, less than 64 bytes bit by bit.
 */
#include "lfc/crc.h"

#define BITS_PER_BYTE 8u
#define BYTE_VALUES (1u << BITS_PER_BYTE)
#define BYTE_MASK (BYTE_VALUES - 1u)
/* CRC-32 takes the bytes of a long message four at a time (the register's width in bytes).
 * The three more tables that needs cost about as much as 100 bytes one at a time: below
 * SLICE_MIN_BYTES they cost more than they save. */
#define SLICE_BYTES 4u
#define SLICE_MIN_BYTES 256u

/* poly with its low `width` bits in reverse order (the form a reflected CRC shifts right). */
static uint32_t reflect(uint32_t poly, unsigned width) {
  uint32_t out = 0;
  for (unsigned i = 0; i < width; i++) {
    if (poly & (1u << i)) out |= 1u << (width - 1u - i);
  }
  return out;
}

/* table[n]: the register n after shifting its low byte out bit by bit. n's lowest set bit
 * alone is shifted out; any other n is the XOR of two entries made before it. table[0] is 0,
 * as the caller's table starts. */
static void crc16_table(uint16_t rpoly, uint16_t table[BYTE_VALUES]) {
  for (unsigned n = 1; n < BYTE_VALUES; n++) {
    const unsigned low = n & (0u - n);
    if (low != n) {
      table[n] = (uint16_t)(table[low] ^ table[n ^ low]);
      continue;
    }
    uint16_t crc = (uint16_t)n;
    for (unsigned b = 0; b < BITS_PER_BYTE; b++) {
      crc = (crc & 1u) ? (uint16_t)((crc >> 1) ^ rpoly) : (uint16_t)(crc >> 1);
    }
    table[n] = crc;
  }
}

uint16_t lfc_crc16_update(uint16_t poly, uint16_t reg, const uint8_t *buf, size_t len) {
  uint16_t table[BYTE_VALUES] = {0};
  crc16_table((uint16_t)reflect(poly, 16u), table);
  uint16_t crc = reg;
  for (size_t i = 0; i < len; i++) {
    crc = (uint16_t)((crc >> BITS_PER_BYTE) ^ table[(crc ^ buf[i]) & BYTE_MASK]);
  }
  return crc;
}

/* As crc16_table, 32 bits wide. */
static void crc32_table(uint32_t rpoly, uint32_t table[BYTE_VALUES]) {
  for (unsigned n = 1; n < BYTE_VALUES; n++) {
    const unsigned low = n & (0u - n);
    if (low != n) {
      table[n] = table[low] ^ table[n ^ low];
      continue;
    }
    uint32_t crc = n;
    for (unsigned b = 0; b < BITS_PER_BYTE; b++) {
      crc = (crc & 1u) ? (crc >> 1) ^ rpoly : crc >> 1;
    }
    table[n] = crc;
  }
}

uint32_t lfc_crc32_update(uint32_t poly, uint32_t reg, const uint8_t *buf, size_t len) {
  uint32_t table[SLICE_BYTES][BYTE_VALUES] = {{0}};
  crc32_table(reflect(poly, 32u), table[0]);
  uint32_t crc = reg;
  size_t i = 0;
  if (len >= SLICE_MIN_BYTES) {
    /* Slicing by 4 (Intel's slicing-by-N): table[k][n] is table[0][n] followed by k zero
     * bytes, so four bytes take four independent look-ups instead of a chain of four. */
    for (unsigned k = 1; k < SLICE_BYTES; k++) {
      for (unsigned n = 0; n < BYTE_VALUES; n++) {
        const uint32_t prev = table[k - 1u][n];
        table[k][n] = (prev >> BITS_PER_BYTE) ^ table[0][prev & BYTE_MASK];
      }
    }
    /* Written out for SLICE_BYTES 4: as loops, the sanitizer builds neither unroll them nor
     * shift by constants, and ran slower than a byte at a time. */
    for (; len - i >= SLICE_BYTES; i += SLICE_BYTES) {
      crc ^= (uint32_t)buf[i] | (uint32_t)buf[i + 1u] << BITS_PER_BYTE |
             (uint32_t)buf[i + 2u] << (2u * BITS_PER_BYTE) |
             (uint32_t)buf[i + 3u] << (3u * BITS_PER_BYTE);
      crc = table[3][crc & BYTE_MASK] ^ table[2][(crc >> BITS_PER_BYTE) & BYTE_MASK] ^
            table[1][(crc >> (2u * BITS_PER_BYTE)) & BYTE_MASK] ^
            table[0][crc >> (3u * BITS_PER_BYTE)];
    }
  }
  for (; i < len; i++) {
    crc = (crc >> BITS_PER_BYTE) ^ table[0][(crc ^ buf[i]) & BYTE_MASK];
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
